// Real cluster sizes in headless Chromium: a 5,000-node cluster losing zone-b, re-simulated in
// the engine's Web Worker while the page stays responsive, shown as a grid of node cells per zone
// and an aggregated timeline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './serve.mjs';

const fx = await setup();

// zone-b (node-2, node-5, …: 1,667 nodes) loses power at 2m0s; the page's own fault is moved
// onto one of them, so every Unknown node is in zone-b.
export const BIG = '?nodes=5000&zones=3&web=15000&zone-outage=zone-b:2m0s&fault=node-2:NodeCrash:120&duration-seconds=1800&t=25m';

test('a 5,000-node zone outage re-simulates in the worker without blocking the page', async () => {
  const page = await fx.browser.newPage({ viewport: { width: 1440, height: 900 } });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(`${fx.server.url}${BIG}`);
  await page.getByTestId('nodes-unknown').waitFor({ timeout: 120_000 });

  // The grid and the aggregated timeline show the outage: every Unknown node is in zone-b.
  assert.equal(await page.getByTestId('nodes-unknown').textContent(), '1667');
  assert.equal(await page.getByTestId('zone-state-zone-b').textContent(), 'FullDisruption');
  assert.equal(await page.getByTestId('zone-state-zone-a').textContent(), 'Normal');
  assert.equal(await page.getByTestId('zone-state-zone-c').textContent(), 'Normal');
  assert.equal(await page.locator('.grid-zone').count(), 3);
  // Each zone's header counts its nodes per state: zone-b's 1,667 are Unknown or, once the node
  // lifecycle controller got to them, tainted NoExecute; the other zones are all Ready.
  const counts = async (zone) => Object.fromEntries(
    (await page.locator(`.grid-zone[data-zone=${zone}] .grid-zone-counts`).textContent())
      .split(' · ').map((part) => { const [n, ...state] = part.split(' '); return [state.join(' '), Number(n)]; }));
  const b = await counts('zone-b');
  assert.equal((b['Unknown'] ?? 0) + (b['tainted NoExecute'] ?? 0), 1667, JSON.stringify(b));
  assert.ok(b['tainted NoExecute'] > 0, JSON.stringify(b));
  assert.deepEqual(await counts('zone-a'), { Ready: 1667 });
  assert.deepEqual(await counts('zone-c'), { Ready: 1666 });
  assert.equal(await page.locator('.cluster-node').count(), 0, 'no card per node at this size');
  await page.getByTestId('aggregate-timeline').waitFor();
  const before = await page.getByTestId('spread-last-tainted').textContent();
  assert.match(before, /\dm/, 'zone-b nodes are tainted one after the other');

  // Drag a slider: twelve steps of the keyboard, one every 40 ms, as a hand drags it. The page
  // answers each at once while the worker re-simulates, and lays out only the newest answer.
  await page.waitForFunction(() => window.wasmBindings?.kubelife_calibrate);
  const floor = Math.min(...await page.evaluate(async () => [
    await window.wasmBindings.kubelife_calibrate(1000, 3), await window.wasmBindings.kubelife_calibrate(1000, 3)]));
  const slider = page.getByRole('slider', { name: /node-eviction-rate/ }).first();
  await slider.focus();
  await page.evaluate(() => { window.__longTasks = []; window.__from = performance.now(); });
  for (let i = 0; i < 12; i++) { await page.keyboard.press('ArrowRight'); await page.waitForTimeout(40); }
  await page.getByTestId('running').waitFor();
  await page.waitForFunction(() => !document.querySelector('[data-testid=running]'), null, { timeout: 120_000 });
  const { tasks, window: span, window0 } = await page.evaluate(() => ({ tasks: window.__longTasks, window: performance.now() - window.__from, window0: window.__from }));
  const longest = Math.max(0, ...tasks.map((t) => t.duration));
  console.log(`dragging a slider on 5,000 nodes: ${span.toFixed(0)} ms until the last result; longest main-thread task ${longest.toFixed(0)} ms, ${(longest / floor).toFixed(2)} times the calibration loop's ${floor.toFixed(1)} ms (long tasks: ${tasks.map((t) => `${(t.start - window0).toFixed(0)}+${t.duration.toFixed(0)}`).join(', ')} ms from the first step)`);
  // A ratio, not a time, so that a slower or busier machine passes: the longest task stays under
  // five times the engine's calibration loop timed in the same page, which is 100 ms where that
  // loop takes 20 ms. On a 2-core machine no task reached 50 ms; the longest were about 27 ms
  // (the run laid out in stages, shown in a task of its own, the old run freed in another and
  // the event log a page of 100 rows); before that the last stage took up to 74 ms, and 988 ms
  // before the page dropped superseded answers half-way and read events in time slices.
  assert.ok(longest <= 5 * floor, `longest task ${longest.toFixed(0)} ms, calibration ${floor.toFixed(1)} ms`);
  const after = await page.getByTestId('spread-last-tainted').textContent();
  assert.notEqual(after, before, 'the new result arrived: a higher --node-eviction-rate taints zone-b sooner');
  assert.equal(await page.getByTestId('nodes-unknown').textContent(), '1667');

  // Opening zone-b shows its nodes' own lanes; hovering a cell names the node.
  await page.getByTestId('aggregate-open-zone-b').click();
  await page.getByTestId('aggregate-opened').waitFor();
  assert.match(await page.getByTestId('aggregate-opened').textContent(), /zone-b/);
  const cells = page.locator('.grid-zone[data-zone=zone-b] .grid-canvas');
  await cells.hover({ position: { x: 5, y: 5 } });
  assert.match(await page.locator('.grid-zone[data-zone=zone-b] .grid-tip').textContent(), /^node-2: /);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a large run\'s event log shows the page at the playhead, where late Unknown marks say they waited for the client', async () => {
  const page = await fx.browser.newPage({ viewport: { width: 1440, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // 1,000 nodes; zone-b's 333 lose power at 1m0s. The node lifecycle controller marks half of
  // them Unknown at 1m44.8s; its writes then wait on its client (--kube-api-qps 20), so the pass
  // that marks the rest comes at 2m55s.
  await page.goto(`${fx.server.url}?nodes=1000&zones=3&web=2000&zone-outage=zone-b:1m0s&t=2m55s`);
  await page.getByTestId('nodes-unknown').waitFor({ timeout: 120_000 });
  const window = page.getByTestId('events-window');
  const [, from, to, total] = (await window.textContent()).match(/^Events ([\d,]+)–([\d,]+) of ([\d,]+):/).map((s) => Number(s.replaceAll(',', '')));
  assert.ok(from > 1 && to - from + 1 === 100 && total > to, `a middle page of the log: ${from}–${to} of ${total}`);
  const late = page.locator('.events-row', { hasText: 'the mark comes' });
  assert.ok(await late.count() > 0, 'the late marks are on the page at the playhead');
  assert.match(await late.first().textContent(), /NodeUnknown.*late: the pass before this one, at t=1m44\.812s.*--kube-api-qps 20, --kube-api-burst 30/);

  // Clicking a row moves the playhead to it and keeps the page.
  const before = await window.textContent();
  await late.last().click();
  assert.equal(await window.textContent(), before);
  assert.deepEqual(errors, []);
  await page.close();
});
