// An accessibility audit with axe-core on the page's main states: no violation of impact serious
// or critical.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './serve.mjs';
import { openState, seriousViolations } from './look.mjs';

const fx = await setup();

for (const name of ['default-1440', 'default-360', 'zh-1440', 'exercise-4', 'compare-seeds', 'embed', 'embed-timeline-360', 'instructor', 'instructor-zh-360', 'compare-b-1440', 'compare-b-zh-360', 'import-1440', 'seeds-1440', 'cloud-mhc-1440', 'cloud-mhc-zh-360', 'cloud-snr-zh-1440', 'cloud-eks-zh-360', 'stopped-1440', 'spot-zh-1440', 'spot-360', 'tune-1440', 'tune-zh-360', 'tune-refused-360', 'tune-both-1440']) {
  test(`axe finds no serious or critical violation: ${name}`, async () => {
    const { page, errors, close } = await openState(fx.browser, fx.server.url, name);
    const found = await seriousViolations(page);
    assert.deepEqual(found, [], JSON.stringify(found, null, 2));
    assert.deepEqual(errors, []);
    await close();
  });
}
