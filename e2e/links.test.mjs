// Share links in headless Chromium: a copied link reproduces the state; a bad one still opens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage } from './serve.mjs';

const fx = await setup();

const MILESTONES = ['milestone-unknown', 'milestone-taint', 'milestone-eviction', 'milestone-replacement'];

const open = (context, url) => openPage(context, url);

const milestones = (page) => Promise.all(MILESTONES.map((id) => page.getByTestId(id).textContent()));

test('a copied link reopens the same state with identical milestones', async () => {
  const context = await fx.browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const { page, errors } = await open(context, fx.server.url);
  await page.getByLabel('Kubernetes version').selectOption('31');
  await page.getByRole('slider', { name: /node-monitor-grace-period/ }).fill('20');
  await page.getByRole('slider', { name: /default-unreachable-toleration-seconds/ }).fill('45');
  await page.getByLabel('fault kind').selectOption('KubeletStop');
  await page.waitForFunction(() => document.querySelector('[data-testid=milestone-eviction]').textContent !== '5m49.6s');
  // The first of those edits' runs may show before the last one's is back.
  await page.waitForFunction(() => !document.querySelector('[data-testid=running]'));
  const expected = await milestones(page);
  await page.getByRole('button', { name: 'Copy link' }).click();
  // The button says it copied, in a live region screen readers announce.
  await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(link, /k=1\.31/);
  assert.match(link, /node-monitor-grace-period=20s/);
  assert.match(link, /fault=node-1:KubeletStop:30/);
  assert.equal(link, await page.getByTestId('share-link').inputValue());

  const fresh = await fx.browser.newContext();
  const reopened = await open(fresh, link);
  assert.deepEqual(await milestones(reopened.page), expected);
  assert.equal(await reopened.page.getByTestId('link-notices').count(), 0);
  assert.deepEqual([...errors, ...reopened.errors], []);
  await context.close();
  await fresh.close();
});

test('the embed code is shown before it is copied, and a refused copy says why', async () => {
  const context = await fx.browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const { page, errors } = await open(context, fx.server.url);
  await page.getByText('Copy embed code').click();
  const code = page.getByTestId('embed-code');
  assert.match(await code.inputValue(), /^<iframe src="[^"]*embed=1/);
  // A writer adjusts the snippet; what is copied is what the field holds.
  await code.fill('<iframe src="adjusted"></iframe>');
  await page.getByTestId('copy-embed').click();
  await page.getByTestId('share-embed').getByRole('status').filter({ hasText: 'Copied' }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), '<iframe src="adjusted"></iframe>');
  // A browser that refuses the clipboard: the reason shows instead of a silent nothing.
  await page.evaluate(() => {
    navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
  });
  await page.getByRole('button', { name: 'Copy link' }).click();
  await page.getByRole('status').filter({ hasText: 'Not copied: Write permission denied.' }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('a link\'s run shows its causes in words, never as keys, even when their texts come late', async () => {
  const context = await fx.browser.newContext();
  // The explanations of causes the default run never shows are among the texts fetched once the
  // page is live: a run from the worker waits for them rather than showing their keys.
  await context.route('**/later-en.json', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  const { page, errors } = await open(context, `${fx.server.url}?fault=node-1:Drain:30`);
  const text = await page.evaluate(() => document.body.innerText);
  assert.doesNotMatch(text, /\b(cause|seg)\.[a-z_]+/);
  assert.match(text, /kubectl drain evicts/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a link with garbage opens a working page and says what it ignored', async () => {
  const context = await fx.browser.newContext();
  const { page, errors } = await open(context, `${fx.server.url}?v=1&node-monitor-grace-period=banana&colour=blue&nodes=9999&node-monitor-period=3s&%ZZ`);
  const notices = await page.getByTestId('link-notices').textContent();
  assert.match(notices, /banana/);
  assert.match(notices, /colour/);
  assert.match(notices, /nodes=9999/);
  // The usable part applied: a 3s monitor period.
  assert.match(await page.locator('.slider', { has: page.getByRole('slider', { name: /node-monitor-period/ }) }).textContent(), /3s/);
  const unknown = await page.getByTestId('milestone-unknown').textContent();
  assert.match(unknown, /^\d+(\.\d)?s$/);
  const newer = await open(context, `${fx.server.url}?v=9&web=5`);
  assert.match(await newer.page.getByTestId('link-notices').textContent(), /newer kubelife/);
  assert.deepEqual([...errors, ...newer.errors], []);
  await context.close();
});

test('after ?preset=… the preset picker names the preset until one of its settings changes, and names one picked', async () => {
  const context = await fx.browser.newContext();
  const { page, errors } = await open(context, `${fx.server.url}?preset=eks-instance-terminated`);
  const picker = page.locator('select[aria-label=preset]');
  assert.equal(await picker.inputValue(), 'eks-instance-terminated', 'named, not "choose a preset…"');
  await page.getByRole('slider', { name: /node-monitor-grace-period/ }).fill('20');
  await page.waitForFunction(() => document.querySelector('select[aria-label=preset]').value === '');
  await picker.selectOption('upstream-1.31');
  await page.waitForFunction(() => !document.querySelector('[data-testid=running]'));
  assert.equal(await picker.inputValue(), 'upstream-1.31', 'a preset picked stays named');
  await page.getByRole('slider', { name: /default-unreachable-toleration-seconds/ }).fill('45');
  await page.waitForFunction(() => document.querySelector('select[aria-label=preset]').value === '');
  assert.deepEqual(errors, []);
  await context.close();
});
