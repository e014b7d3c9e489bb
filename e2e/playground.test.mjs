// End-to-end tests of the built playground in headless Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { setup, openPage } from './serve.mjs';

const SHOTS = new URL('../target/screenshots/', import.meta.url);
fs.mkdirSync(SHOTS, { recursive: true });

const fx = await setup();

/** Go durations as the milestones show them ("52.3s", "5m52.3s") to seconds. */
function seconds(text) {
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:([\d.]+)s)?$/.exec(text.trim());
  assert.ok(m, `not a Go duration: ${text}`);
  return (+(m[1] ?? 0)) * 3600 + (+(m[2] ?? 0)) * 60 + (+(m[3] ?? 0));
}

const open = (width = 1280) => openPage(fx.browser, fx.server.url, width);

test('default milestones, toleration slider, and playback to Unknown', async () => {
  const { page, errors } = await open();
  const eviction = async () => seconds(await page.getByTestId('milestone-eviction').textContent());
  const before = await eviction();
  // Default 1.35: Unknown ≈ 40–60s after the crash, eviction 300s after the taint.
  assert.ok(before > 340 && before < 370, `default eviction ${before}s`);
  const unknown = seconds(await page.getByTestId('milestone-unknown').textContent());
  assert.ok(unknown > 39 && unknown < 61, `default Unknown ${unknown}s`);
  await page.screenshot({ path: new URL('default.png', SHOTS).pathname, fullPage: true });

  const slider = page.getByRole('slider', { name: /default-unreachable-toleration-seconds/ });
  await slider.fill('200');
  await page.waitForFunction(() => document.querySelector('[data-testid=milestone-eviction]').textContent.startsWith('4m'));
  const after = await eviction();
  assert.ok(Math.abs((before - after) - 100) < 0.11, `moving the toleration by -100s moved eviction by ${after - before}s`);

  // Play at 1000x: the crashed node turns Unknown.
  await page.getByRole('slider', { name: /playback speed/ }).fill('3');
  await page.getByRole('button', { name: 'Play' }).click();
  await page.getByRole('button', { name: 'Pause' }).waitFor();
  await page.getByTestId('node-state-node-1').filter({ hasText: 'Unknown' }).waitFor({ timeout: 10000 });
  await page.screenshot({ path: new URL('unknown.png', SHOTS).pathname, fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('keyboard: Right arrow jumps to the next event, Space plays', async () => {
  const { page, errors } = await open();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowRight');
  const t = seconds(await page.getByTestId('playhead').textContent());
  assert.equal(t, 30, 'the first event after the start is the crash at 30s');
  await page.keyboard.press(' ');
  await page.getByRole('button', { name: 'Pause' }).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('hovering a timeline marker shows its cause', async () => {
  const { page, errors } = await open();
  const canvas = page.locator('.timeline canvas');
  const box = await canvas.boundingBox();
  // node-1 is the first lane (y = 22 + 9); scan along it for the Unknown marker.
  let text = null;
  for (let x = 175; x < box.width - 8 && !text; x += 3) {
    await canvas.hover({ position: { x, y: 31 } });
    const tip = page.locator('.timeline-tip');
    if (await tip.count()) text = await tip.textContent();
  }
  assert.ok(text && /node-1/.test(text), `a tooltip with a cause: ${text}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('narrow screens and version changes keep a working page', async () => {
  const { page, errors } = await open(360);
  await page.screenshot({ path: new URL('narrow-360.png', SHOTS).pathname, fullPage: true });
  await page.getByLabel('Kubernetes version').selectOption('12');
  await page.waitForFunction(() => document.querySelector('[data-testid=milestone-taint]').textContent === 'never');
  const disabled = await page.getByRole('slider', { name: /node-status-report-frequency/ }).isDisabled();
  assert.ok(disabled, 'a control the version lacks is disabled');
  const eviction = seconds(await page.getByTestId('milestone-eviction').textContent());
  assert.ok(eviction > 280 && eviction < 310, `1.12 legacy eviction ${eviction}s`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a zone outage alone heads the page with its spread, not a single node', async () => {
  const { page, errors } = await openPage(fx.browser, `${fx.server.url}?nodes=6&fault=none&zone-outage=zone-b:2m0s`, 1280);
  await page.getByTestId('milestone-unknown').waitFor();
  assert.equal(await page.getByLabel('fault kind').inputValue(), 'none');
  // First and last of the two failed nodes, measured from the outage.
  const unknown = await page.getByTestId('milestone-unknown').textContent();
  const [first, last] = unknown.split(' – ').map(seconds);
  assert.ok(first > 0 && last >= first, unknown);
  assert.match(await page.locator('[data-tour=milestone-unknown] .results-since').textContent(), /of 2 nodes/);
  assert.match(await page.locator('[data-tour=milestone-replacement] .results-name').textContent(), /all replaced/);
  assert.deepEqual(errors, []);
  await page.close();
});
