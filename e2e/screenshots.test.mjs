// Screenshots of the page's main states against the references in e2e/screenshots/. A missing
// reference, or UPDATE_SCREENSHOTS=1, writes it; a mismatch writes <name>.actual.png and
// <name>.diff.png beside the reference and fails with the count of differing pixels.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './serve.mjs';
import { openState, compareWithReference, MAX_DIFF_PIXELS } from './look.mjs';

const fx = await setup();

// Each shot: a state, and what to capture (the full page, the first screen, or one section).
const SHOTS = [
  { name: 'default-1440', fullPage: true },
  { name: 'default-360' },
  { name: 'zh-1440' },
  { name: 'exercise-4' },
  { name: 'compare-seeds', section: '[data-tour=compare]' },
  { name: 'embed', fullPage: true },
  { name: 'embed-timeline-360', fullPage: true },
  { name: 'timeline-1440-dpr2', state: 'default-1440-dpr2', section: '.timeline' },
  { name: 'volumes-1440', section: '.timeline' },
  { name: 'volumes-1440-breakdown', state: 'volumes-1440', section: '[data-tour=breakdown]' },
  { name: 'volumes-360', fullPage: true },
  { name: 'stopped-zh-360-cluster', state: 'stopped-zh-360-late', section: '.cluster' },
  { name: 'exercise-10' },
  { name: 'instructor-13', state: 'instructor', section: '[data-testid=instructor-13]' },
  { name: 'instructor-zh-360-13', state: 'instructor-zh-360', section: '[data-testid=instructor-13]' },
  { name: 'compare-b-1440', section: '[data-testid=compare-b-controls]' },
  { name: 'compare-b-zh-360', section: '[data-testid=compare-b-controls]' },
  { name: 'partition-1440', section: '[data-testid=two-views]' },
  { name: 'scale-1440-grid', state: 'scale-1440', section: '.grid' },
  { name: 'scale-1440-aggregate', state: 'scale-1440', section: '[data-testid=aggregate-timeline]' },
  { name: 'scale-1440-spread', state: 'scale-1440', section: '[data-testid=spread]' },
  { name: 'scale-360-grid', state: 'scale-360', section: '.grid' },
  { name: 'scale-360-aggregate', state: 'scale-360', section: '[data-testid=aggregate-timeline]' },
  { name: 'events-1440', section: '[data-tour=events]' },
  // On a phone the log scrolls with the page: its first 1,200 px are enough to look at.
  { name: 'events-360', section: '[data-tour=events]', maxHeight: 1200 },
  { name: 'seeds-1440', section: '[data-testid=seeds]' },
  { name: 'seeds-zh-360', section: '[data-testid=seeds]' },
  { name: 'cloud-aws-1440', section: '[data-tour=milestones]' },
  { name: 'cloud-aws-1440-controls', state: 'cloud-aws-1440', section: '[data-tour=cloud]' },
  { name: 'cloud-zh-360', section: '[data-tour=milestones]' },
  { name: 'cloud-zh-360-controls', state: 'cloud-zh-360', section: '[data-tour=cloud]' },
  { name: 'cloud-mhc-1440', section: '[data-tour=milestones]' },
  { name: 'cloud-mhc-1440-controls', state: 'cloud-mhc-1440', section: '[data-tour=cloud]' },
  { name: 'cloud-mhc-zh-360', section: '[data-tour=milestones]' },
  { name: 'cloud-mhc-zh-360-controls', state: 'cloud-mhc-zh-360', section: '[data-tour=cloud]' },
  { name: 'cloud-snr-zh-1440-controls', state: 'cloud-snr-zh-1440', section: '[data-tour=cloud]' },
  { name: 'cloud-snr-360-controls', state: 'cloud-snr-360', section: '[data-tour=cloud]' },
  { name: 'cloud-eks-zh-360-controls', state: 'cloud-eks-zh-360', section: '[data-tour=cloud]' },
  { name: 'stopped-1440', section: '[data-tour=milestones]' },
  { name: 'stopped-1440-timeline', state: 'stopped-1440', section: '.timeline' },
  { name: 'stopped-zh-360', section: '[data-tour=milestones]' },
  { name: 'spot-zh-1440', section: '[data-tour=milestones]' },
  { name: 'spot-zh-1440-faults', state: 'spot-zh-1440', section: '[data-tour=faults]' },
  // The panel's top, down to the notice, from the whole page: an element shot scrolls, and the
  // phone's sticky milestone strip then covers the panel's first lines.
  { name: 'spot-360-faults', state: 'spot-360', section: '[data-tour=faults]', maxHeight: 330 },
  { name: 'import-1440', section: '[data-testid=import-panel]' },
  { name: 'import-360', section: '[data-testid=import-panel]' },
  { name: 'tune-1440', section: '[data-testid=tune-panel]' },
  { name: 'tune-360', section: '[data-testid=tune-panel]' },
  { name: 'tune-zh-1440', section: '[data-testid=tune-panel]' },
  { name: 'tune-zh-360', section: '[data-testid=tune-panel]' },
  { name: 'slo-1440', state: 'tune-1440', section: '[data-testid=slo]' },
  { name: 'tune-both-1440', section: '[data-testid=tune-front]' },
  { name: 'tune-both-zh-360', section: '[data-testid=tune-front]' },
  { name: 'tune-refused-360', section: '[data-testid=tune-panel]' },
  { name: 'tune-refused-zh-1440', section: '[data-testid=tune-panel]' },
  { name: 'tune-blip-360', section: '[data-testid=tune-panel]' },
  { name: 'tune-blip-zh-1440', section: '[data-testid=tune-panel]' },
];

/** The top `maxHeight` px of `section`, in page coordinates. */
async function topOf(page, section, maxHeight) {
  const r = await page.locator(section).evaluate((e) => {
    const b = e.getBoundingClientRect();
    return { x: b.x + scrollX, y: b.y + scrollY, width: b.width, height: b.height };
  });
  return { x: r.x, y: r.y, width: r.width, height: Math.min(r.height, maxHeight) };
}

for (const shot of SHOTS) {
  test(`the page looks as its reference: ${shot.name}`, async () => {
    const { page, errors, close } = await openState(fx.browser, fx.server.url, shot.state ?? shot.name);
    // The share link and the instructor's links hold the test server's port, which changes from
    // run to run. A whole-page
    // picture also masks the phone's sticky milestone strip: it is drawn where the last scroll
    // left it, its text anti-aliased as Chromium happened to composite it (layout.test.mjs checks
    // where it sits and what it says).
    const sticky = shot.fullPage ? [page.locator('.strip')] : [];
    const options = { animations: 'disabled', caret: 'hide', mask: [page.getByTestId('share-link'), page.locator('.workshop-link'), ...sticky] };
    const png = shot.maxHeight
      ? await page.screenshot({ ...options, fullPage: true, clip: await topOf(page, shot.section, shot.maxHeight) })
      : shot.section
        ? await page.locator(shot.section).screenshot(options)
        : await page.screenshot({ ...options, fullPage: Boolean(shot.fullPage) });
    const result = compareWithReference(shot.name, png);
    if (!result.written) {
      assert.equal(result.sizeChanged, null, `${shot.name}: the page changed size; see e2e/screenshots/${shot.name}.actual.png`);
      assert.ok(
        result.mismatched <= MAX_DIFF_PIXELS,
        `${shot.name}: ${result.mismatched} of ${result.width * result.height} pixels differ (at most ${MAX_DIFF_PIXELS}); ` +
          `see e2e/screenshots/${shot.name}.diff.png, or refresh with UPDATE_SCREENSHOTS=1 if the change is meant`,
      );
    }
    assert.deepEqual(errors, []);
    await close();
  });
}
