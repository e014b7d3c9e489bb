// What-if features in headless Chromium: compare mode, exports, and embeds under a sub-path.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import YAML from '../tools/node_modules/yaml/dist/index.js';
import { serve, setup, openPage } from './serve.mjs';

const SHOTS = new URL('../target/screenshots/', import.meta.url);
fs.mkdirSync(SHOTS, { recursive: true });
const fx = await setup();
let sub;
before(async () => {
  // The same dist/ as every other test, served under a sub-path: its links are relative
  // (Trunk.toml's public_url), so it needs no build of its own.
  sub = await serve(new URL('../dist/', import.meta.url).pathname, '/any/path/');
});
after(async () => {
  await sub?.close();
});

const open = (url) => openPage(fx.browser, url);

const row = async (page, name) => (await page.locator(`[data-testid=compare-deltas] tr[data-row="${name}"] td`).allTextContents());

test('compare mode shows both sides with correct deltas and spreads', async () => {
  const { page, errors } = await open(fx.server.url);
  await page.getByRole('button', { name: 'compare with B' }).click();
  await page.getByRole('slider', { name: /^B --default-unreachable-toleration-seconds/ }).fill('200');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=compare-deltas] td.compare-delta')].some((td) => td.textContent === '−1m40s'));
  const [a, b, delta] = await row(page, 'eviction');
  assert.equal(delta, '−1m40s', `A ${a}, B ${b}`);
  assert.equal(await page.getByTestId('compare-origin').textContent(), 'times count from the fault at 30s on both sides');
  assert.deepEqual((await row(page, 'unknown'))[2], '±0s');
  assert.equal(await page.locator('.compare .timeline canvas').count(), 2, 'both timelines, one playhead');
  await page.getByRole('button', { name: 'run 200 seeds' }).click();
  await page.getByTestId('histogram-b').first().waitFor();
  // A histogram for each milestone card, A and B on one axis.
  for (const name of ['unknown', 'taint', 'firstDeletion', 'firstReplacementReady']) {
    assert.equal(await page.locator(`[data-testid=seeds-${name}] [data-testid^=histogram-]`).count(), 2, name);
  }
  assert.ok(await page.locator('.seeds-hist').count() >= 4);
  await page.screenshot({ path: new URL('compare.png', SHOTS).pathname, fullPage: true });
  // The classic comparison is one click away: A on 1.12's legacy path, B on the newest version.
  await page.getByRole('button', { name: '1.12 legacy vs newest' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid=milestone-taint]').textContent === 'never');
  const taint = await row(page, 'taint');
  assert.equal(taint[0], 'never');
  assert.match(taint[1], /s$/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('compare counts both sides from one origin and names it: a Spot warning and its reclaim', async () => {
  // A: Karpenter's interruption queue acts on the warning at 30s, its fault. B: no queue, the
  // fault is EC2's reclaim at 2m30s. Both count from the warning, so B − A is the queue's whole
  // gain (3m26.2s), not that gain less the two-minute notice.
  const spot = 'fault=node-1:SpotInterruption:30&cloud=aws&remediation=karpenter&node-repair=false';
  const { page, errors } = await open(`${fx.server.url}?${spot}&interruption-queue=true&b.${spot.replaceAll('&', '&b.')}`);
  await page.getByTestId('compare-deltas').waitFor();
  assert.equal(
    await page.getByTestId('compare-origin').textContent(),
    "times count from the scenario's fault at 30s on both sides (A's fault began at 30s, B's at 2m30s)",
  );
  assert.deepEqual(await row(page, 'replacement'), ['10s', '3m36.3s', '+3m26.2s']);
  await page.goto(`${fx.server.url}?lang=zh&${spot}&interruption-queue=true&b.${spot.replaceAll('&', '&b.')}`);
  await page.getByTestId('compare-origin').filter({ hasText: '两边的时间都从场景在 30s 设下的故障算起' }).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('one configuration has its 200-seed spreads too: a histogram for every milestone card', async () => {
  const { page, errors } = await open(fx.server.url);
  await page.getByRole('button', { name: 'run 200 seeds' }).click();
  await page.getByTestId('seeds').waitFor({ timeout: 120_000 });
  const byCard = {
    unknown: 'unknown', taint: 'taint', eviction: 'firstDeletion', replacement: 'firstReplacementReady',
    'traffic-stopped': 'trafficStopped', 'service-restored': 'serviceRestored', 'volume-free': 'volumeFree',
    'database-ready': 'databaseReady', 'node-deleted': 'nodeDeleted', remediation: 'remediationStarted',
  };
  const cards = await page.locator('[data-testid^=milestone-]').evaluateAll((es) => es.map((e) => e.dataset.testid.replace('milestone-', '')));
  assert.ok(cards.includes('traffic-stopped') && cards.includes('volume-free') && cards.includes('database-ready'), `the default cards: ${cards}`);
  for (const card of cards) {
    const hist = page.getByTestId(`seeds-${byCard[card]}`);
    assert.equal(await hist.count(), 1, `a histogram for the ${card} card`);
    // Every run is counted once: in a bin, or as never.
    const text = await hist.textContent();
    const bins = await hist.locator('.seeds-bin').evaluateAll((bs) => bs.reduce((n, b) => n + Number(b.title), 0));
    const never = text.includes('never happens in these runs') ? 200 : Number((text.match(/never in (\d+) runs/) ?? [0, 0])[1]);
    assert.equal(bins + never, 200, `${card}: ${bins} in bins, ${never} never (${text})`);
  }
  // The database that waits on the failed node has its own histogram.
  assert.equal(await page.getByTestId('seeds-databaseReady').count(), 1);
  assert.equal(await page.getByTestId('histogram-b').count(), 0, 'no side B');
  assert.deepEqual(errors, []);
  await page.close();
});

test('exported YAML parses back to the values set', async () => {
  // The files worker (import and export) is fetched only once the Export panel comes near: not
  // on load, even in the widest layout (1440 px by 900 px), where the panel is highest.
  const context = await fx.browser.newContext();
  const fetched = [];
  context.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  const { page, errors } = await openPage(context, fx.server.url, 1440);
  const filesWorker = () => fetched.some((p) => p.includes('kubelife-files'));
  await page.waitForTimeout(500);
  assert.ok(fetched.some((p) => p.includes('kubelife-worker')), `the engine's worker is fetched: ${fetched}`);
  assert.equal(await filesWorker(), false, 'the files worker was fetched before the Export panel came near');
  await page.getByRole('slider', { name: /node-monitor-grace-period/ }).first().fill('20');
  await page.getByRole('slider', { name: /node-status-update-frequency/ }).first().fill('4');
  await page.getByRole('slider', { name: /default-unreachable-toleration-seconds/ }).first().fill('30');
  // The panel asks the files worker for its YAML once it comes near the viewport.
  await page.getByTestId('export-panel').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('[data-testid=export-kcm]')?.textContent.includes('20s'));
  assert.equal(await filesWorker(), true);
  const kcm = YAML.parse(await page.getByTestId('export-kcm').textContent());
  assert.ok(kcm.command.includes('--node-monitor-grace-period=20s'), JSON.stringify(kcm));
  const kubelet = YAML.parse(await page.getByTestId('export-kubelet').textContent());
  assert.equal(kubelet.nodeStatusUpdateFrequency, '4s');
  assert.equal(kubelet.nodeStatusReportFrequency, '4s');
  const tol = YAML.parse(await page.getByTestId('export-tolerations').textContent());
  assert.equal(tol.tolerations.find((t) => t.key === 'node.kubernetes.io/unreachable').tolerationSeconds, 30);
  const rke = YAML.parse(await page.getByTestId('export-rke').textContent());
  assert.equal(rke.services['kube-api'].extra_args['default-unreachable-toleration-seconds'], '30');
  // kubeadm: the flags as v1beta4 extraArgs pairs, then the kubelet's document.
  const kubeadm = YAML.parseAllDocuments(await page.getByTestId('export-kubeadm').textContent()).map((d) => d.toJSON());
  assert.equal(kubeadm[0].apiVersion, 'kubeadm.k8s.io/v1beta4');
  assert.ok(kubeadm[0].controllerManager.extraArgs.some((a) => a.name === 'node-monitor-grace-period' && a.value === '20s'), JSON.stringify(kubeadm[0]));
  assert.equal(kubeadm[1].kind, 'KubeletConfiguration');
  // node-1 stays down with db-0 on it: the fix comes first, with when to run it and how to undo it.
  const oos = await page.getByTestId('export-out-of-service').textContent();
  assert.match(oos, /\nkubectl taint nodes node-1 node\.kubernetes\.io\/out-of-service=nodeshutdown:NoExecute\n/);
  assert.match(oos, /only once node-1 is really off/);
  assert.match(oos, /remove the taint: kubectl taint nodes node-1 node\.kubernetes\.io\/out-of-service=nodeshutdown:NoExecute-/);
  // kube-proxy is as it comes: the panel says so and offers nothing to copy.
  assert.match(await page.getByTestId('export-kube-proxy').textContent(), /nothing to change/);
  assert.equal(await page.getByRole('button', { name: /kube-proxy/ }).count(), 0);
  // 1.12 has no --pod-eviction-timeout removal problem, 1.30 never gets the flag.
  await page.getByLabel('Kubernetes version').selectOption('30');
  await page.waitForFunction(() => document.querySelector('[data-testid=export-panel]').dataset.ready === 'true');
  assert.doesNotMatch(await page.getByTestId('export-kcm').textContent(), /pod-eviction-timeout/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the embed example works from a sub-path, resizes both embeds, and fetches only its own files', async () => {
  const page = await fx.browser.newPage({ viewport: { width: 900, height: 900 } });
  const requests = [];
  const errors = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${sub.url}embed-example.html`);
  for (const id of ['fast', 'versus']) {
    const frame = page.frameLocator(`#${id}`);
    await frame.getByTestId('milestone-eviction').waitFor();
    assert.equal(await frame.locator('header.header').count(), 0, 'no header in an embed');
    assert.equal(await frame.locator('aside.app-side').count(), 0, 'no side panel in an embed');
  }
  await page.waitForFunction(() => [...document.querySelectorAll('iframe')].every((f) => Number(f.height) > 300));
  const fast = page.frameLocator('#fast');
  assert.equal(await fast.locator('.timeline canvas').count(), 1);
  assert.ok(await fast.getByRole('slider', { name: /node-monitor-grace-period/ }).count() === 1, 'controls= exposes the slider');
  assert.equal(await page.frameLocator('#versus').locator('[data-testid=compare-deltas]').count(), 1);
  await page.screenshot({ path: new URL('embed-example.png', SHOTS).pathname, fullPage: true });
  const origin = new URL(sub.url).origin;
  // The engine's worker starts from a blob: script of the page's own origin, which loads the
  // worker's files from beside the page.
  const own = (u) => u.startsWith('data:') || u.startsWith(`blob:${origin}/`);
  const foreign = requests.filter((u) => !u.startsWith(origin) && !own(u));
  assert.deepEqual(foreign, [], 'only its own assets');
  assert.ok(requests.every((u) => own(u) || new URL(u).pathname.startsWith('/any/path/')), requests.join('\n'));
  assert.ok(requests.some((u) => u.endsWith('/any/path/kubelife-worker_bg.wasm')), 'the worker comes from the sub-path');
  assert.deepEqual(errors, []);
  await page.close();
});
