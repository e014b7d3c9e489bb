// "Bring your own cluster" in headless Chromium: a pasted kubeadm ClusterConfiguration and a
// dropped `kubectl get nodes -o json` move the sliders, the zones and the node count, and the
// link carries them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { setup, openPage } from './serve.mjs';

const fx = await setup();

const KUBEADM = fs.readFileSync(new URL('../crates/engine/tests/fixtures/import/kubeadm-1.31.yaml', import.meta.url), 'utf8');
const NODES = fs.readFileSync(new URL('./fixtures/eks-nodelist-2-zones.json', import.meta.url), 'utf8');

/** Drops a file with `text` on the import panel's drop zone, as a reader dragging it in would. */
async function drop(page, name, text) {
  const transfer = await page.evaluateHandle(([n, t]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], n, { type: 'application/json' }));
    return dt;
  }, [name, text]);
  await page.locator('.import-drop').dispatchEvent('drop', { dataTransfer: transfer });
}

test('a pasted kubeadm configuration and dropped nodes set the sliders, zones and node count, and the link', async () => {
  const { page, errors } = await openPage(fx.browser, fx.server.url);
  const grace = page.getByRole('slider', { name: /node-monitor-grace-period/ });
  assert.notEqual(await grace.inputValue(), '20');

  await page.getByTestId('import-text').fill(KUBEADM);
  await page.getByTestId('import-name').fill('kubeadm-config.yaml');
  await page.getByTestId('import-apply').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=share-link]').value.includes('node-monitor-grace-period=20s'));
  assert.equal(await grace.inputValue(), '20');
  assert.equal(await page.getByLabel('Kubernetes version').inputValue(), '31');
  const report = page.getByTestId('import-report');
  assert.match(await report.textContent(), /recognised.*node-monitor-grace-period/s);
  assert.match(await report.textContent(), /ClusterConfiguration/);
  assert.equal(await page.getByTestId('import-text').inputValue(), '', 'the pasted text moves into the list of files');

  await drop(page, 'nodes.json', NODES);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid^=node-state-]').length === 2);
  assert.equal(await page.locator('.cluster-zone').count(), 2, 'two zones');
  assert.equal(await page.locator('input[type=number][aria-label^="nodes "]').inputValue(), '2');
  assert.equal(await page.locator('input[type=number][aria-label^="zones "]').inputValue(), '2');
  assert.equal(await grace.inputValue(), '20', 'a later file keeps what an earlier one set');
  assert.match(await report.textContent(), /the page draws 2 nodes/);
  assert.equal(await page.locator('.import-file-item').count(), 2);

  const link = await page.getByTestId('share-link').inputValue();
  for (const part of ['k=1.31', 'node-monitor-grace-period=20s', 'node-monitor-period=2s', 'nodes=2', 'zones=2']) {
    assert.ok(link.includes(part), `the link carries ${part}: ${link}`);
  }
  const fresh = await fx.browser.newContext();
  const reopened = await openPage(fresh, link);
  assert.equal(await reopened.page.getByRole('slider', { name: /node-monitor-grace-period/ }).inputValue(), '20');
  assert.equal(await reopened.page.locator('[data-testid^=node-state-]').count(), 2);
  await fresh.close();

  // Removing a file re-reads the rest.
  await page.getByRole('button', { name: 'Remove nodes.json' }).click();
  assert.equal(await page.locator('.import-file-item').count(), 1);
  assert.doesNotMatch(await report.textContent(), /the page draws 2 nodes/);
  assert.deepEqual([...errors, ...reopened.errors], []);
  await page.close();
});

test('what the page cannot show is reported, not lost', async () => {
  const { page, errors } = await openPage(fx.browser, fx.server.url);
  const items = Array.from({ length: 60 }, (_, i) => ({
    apiVersion: 'v1', kind: 'Node',
    metadata: { name: `n-${i}`, labels: { 'topology.kubernetes.io/zone': `zone-${i % 5}` } },
  }));
  await page.getByTestId('import-text').fill(JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  await page.getByTestId('import-apply').click();
  const report = page.getByTestId('import-report');
  await report.waitFor();
  const text = await report.textContent();
  assert.match(text, /the page shows at most 50 nodes; imported 60/);
  assert.match(text, /the page shows at most 3 zones; imported 5/);
  await page.waitForFunction(() => document.querySelector('[data-testid=share-link]').value.includes('nodes=50'));
  assert.deepEqual(errors, []);
  await page.close();
});
