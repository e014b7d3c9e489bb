// End-to-end tests of what the Service and the database see: the workload controls (Service,
// volume, PodDisruptionBudget), the graceful shutdown settings, the new milestones and lanes,
// and the two views of a control-plane partition.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage } from './serve.mjs';

const fx = await setup();
const open = (query = '', width = 1280) => openPage(fx.browser, `${fx.server.url}${query}`, width);

/** Go durations as the milestones show them ("44.7s", "5m54.8s") to seconds; "never" is null. */
function seconds(text) {
  if (text.trim() === 'never') return null;
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:([\d.]+)s)?$/.exec(text.trim());
  assert.ok(m, `not a Go duration: ${text}`);
  return (+(m[1] ?? 0)) * 3600 + (+(m[2] ?? 0)) * 60 + (+(m[3] ?? 0));
}
const milestone = async (page, id) => seconds(await page.getByTestId(id).textContent());
const link = (page) => page.getByTestId('share-link').inputValue();
// Waits until the share link matches `re` (the page re-renders after each edit) and until the
// engine's worker has no run under way, so what follows reads the new run.
const linked = async (page, re) => {
  await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-testid=share-link]').value), re.source);
  await page.waitForFunction(() => !document.querySelector('[data-testid=running]'));
  assert.match(await link(page), re);
};

test('the Service milestones follow the crash, and the Service switch removes them', async () => {
  const { page, errors } = await open();
  // Defaults on 1.37: the proxies stop sending to the dead pod a sync after it is marked not ready.
  const unknown = await milestone(page, 'milestone-unknown');
  const stopped = await milestone(page, 'milestone-traffic-stopped');
  assert.ok(stopped > unknown && stopped - unknown < 2, `traffic stopped ${stopped}s, Unknown ${unknown}s`);
  const whole = await milestone(page, 'milestone-service-restored');
  const replacement = await milestone(page, 'milestone-replacement');
  assert.ok(whole >= replacement && whole - replacement < 2, `whole again ${whole}s, replacement ${replacement}s`);
  // db-0 ran on node-1: its own bar says it is never Ready again, and why, without an operator.
  assert.match(await page.locator('[data-tour=breakdown]').textContent(),
    /db-0 Ready again\s*Not reached within the run: the old db-0 object is still there/);
  // Without the Service the traffic milestones go, and the link says so.
  await page.getByTestId('web-service').uncheck();
  await page.getByTestId('milestone-traffic-stopped').waitFor({ state: 'detached' });
  await linked(page, /web-service=false/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('with the out-of-service taint at 1m0s the breakdown follows what the taint did, as the cards do', async () => {
  const { page, errors } = await open('?v=1&out-of-service=60');
  const whole = await milestone(page, 'milestone-service-restored');
  const replacement = await milestone(page, 'milestone-replacement');
  const breakdown = page.locator('[data-tour=breakdown]');
  // One bar to the Service whole again, passing the replacement: its first link is the taint.
  const first = breakdown.locator('.breakdown-legend li').first();
  assert.match(await first.textContent(), /^30s an operator adds the out-of-service taint/);
  const text = await breakdown.textContent();
  const total = /total ((?:\d+h)?(?:\d+m)?[\d.]+s)/.exec(text);
  assert.ok(total && Math.abs(seconds(total[1]) - whole) < 0.11, `bar ${total?.[1]}, card ${whole}s`);
  assert.match(text, new RegExp(`replacement Ready here, ${replacement}s after the fault`));
  // db-0 is Ready again in this run: its bar is drawn, not "never".
  assert.match(text, /From the fault to db-0 Ready again\d/);
  assert.doesNotMatch(text, /Not reached within the run/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a Deployment with a shared ReadWriteOnce volume waits for it, and the out-of-service taint frees it', async () => {
  // One replica, on the node that crashes.
  const { page, errors } = await open('?web=1');
  await page.getByTestId('web-volume').selectOption({ label: 'ReadWriteOnce, shared' });
  await linked(page, /web-volume=rwo-shared/);
  // The replacement meets a Multi-Attach error: the volume is never free without an operator.
  assert.equal(await milestone(page, 'milestone-volume-free'), null);
  assert.ok((await page.locator('.events').textContent()).includes('MultiAttachError'), 'the event log shows the Multi-Attach error');
  await page.getByRole('slider', { name: /out-of-service/ }).fill('420');
  await page.waitForFunction(() => document.querySelector('[data-testid=milestone-volume-free]').textContent !== 'never');
  const free = await milestone(page, 'milestone-volume-free');
  assert.ok(free > 390 && free < 420, `volume free ${free}s after the fault (taint at 7m0s, fault at 30s)`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a graceful shutdown with shutdown grace periods keeps the Service from a dead pod', async () => {
  const { page, errors } = await open('?exercise=10');
  const fill = async (flag, v) => {
    const box = page.getByRole('spinbutton', { name: new RegExp(`^${flag} value`) });
    await box.fill(String(v));
    await box.press('Enter');
  };
  await fill('shutdown-grace-period', 30);
  await fill('shutdown-grace-period-critical-pods', 10);
  await page.getByTestId('exercise-solved').waitFor({ timeout: 10000 });
  // The pods end Failed and the ReplicaSet replaces them at once, long before any taint.
  const replacement = await milestone(page, 'milestone-replacement');
  assert.ok(replacement < 15, `replacement Ready ${replacement}s after the shutdown`);
  await linked(page, /shutdown-grace-period=30s/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a PodDisruptionBudget slows a drain, and a control-plane partition shows two views', async () => {
  const { page, errors } = await open('?fault=node-1:Drain:30&web=3');
  await page.getByTestId('web-pdb').selectOption({ label: 'minAvailable' });
  await linked(page, /web-pdb=min:1/);
  await page.getByTestId('web-pdb-n').fill('3');
  await page.getByTestId('web-pdb-n').press('Enter');
  await linked(page, /web-pdb=min:3/);
  await page.waitForFunction(() => document.querySelector('.events').textContent.includes('EvictionRefused'));
  await page.goto(`${fx.server.url}?fault=node-1:NetworkPartition:30&fault-nodes=3`);
  const views = await page.getByTestId('two-views').textContent();
  assert.match(views, /svc\/web/);
  assert.deepEqual(errors, []);
  await page.close();
});
