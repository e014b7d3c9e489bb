// Where the cluster runs and what repairs its nodes: the two choices, the three instance faults
// and the milestone cards they add (the Node's deletion, the remediation).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { setup, openPage } from './serve.mjs';

const fx = await setup();

/** Go durations as the milestones show them ("52.3s", "5m52.3s") to seconds. */
function seconds(text) {
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:([\d.]+)s)?$/.exec(text.trim());
  assert.ok(m, `not a Go duration: ${text}`);
  return (+(m[1] ?? 0)) * 3600 + (+(m[2] ?? 0)) * 60 + (+(m[3] ?? 0));
}

const open = (query, width = 1280) => openPage(fx.browser, fx.server.url + query, width);
const card = async (page, id) => (await page.getByTestId(id).textContent()).trim();

test('bare metal shows no deletion or remediation card', async () => {
  const { page, errors } = await open('');
  assert.equal(await page.getByTestId('milestone-node-deleted').count(), 0);
  assert.equal(await page.getByTestId('cloud-provider').inputValue(), '0');
  assert.deepEqual(errors, []);
  await page.close();
});

test('on AWS a terminated instance is deleted within a minute and replaced in about two', async () => {
  const { page, errors } = await open('?cloud=aws&fault=node-1:InstanceTerminated:30');
  const deleted = seconds(await card(page, 'milestone-node-deleted'));
  assert.ok(deleted > 0 && deleted < 60, `Node deleted ${deleted}s after the fault`);
  const replaced = seconds(await card(page, 'milestone-replacement'));
  assert.ok(replaced > 60 && replaced < 180, `replacement Ready ${replaced}s after the fault`);
  assert.equal(await card(page, 'milestone-remediation'), 'never', 'no remediator');
  assert.equal(await page.getByLabel('fault kind').inputValue(), 'InstanceTerminated');
  assert.deepEqual(errors, []);
  await page.close();
});

test('on AWS PodGC is the first deletion, and the database Ready again has its card', async () => {
  const { page, errors } = await open('?cloud=aws&fault=node-1:InstanceTerminated:30');
  // Nothing evicts: PodGC force-deletes node-1's orphans once the cloud controller deleted the Node.
  const first = page.locator('[data-tour=milestone-eviction]');
  assert.equal((await first.locator('.results-name').textContent()).trim(), 'first deletion, by PodGC');
  assert.equal(await card(page, 'milestone-eviction'), '1m31.2s');
  assert.equal(await card(page, 'milestone-database-ready'), '9m51.8s');
  assert.equal(
    (await page.locator('[data-tour=milestone-database-ready] .results-name').textContent()).trim(),
    'database Ready again',
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Node deleted and the remediation started have their 200-seed spreads', async () => {
  const { page, errors } = await open('?remediation=mhc');
  await page.getByTestId('milestone-remediation').waitFor();
  await page.getByRole('button', { name: 'run 200 seeds' }).click();
  await page.getByTestId('seeds').waitFor({ timeout: 120_000 });
  for (const name of ['nodeDeleted', 'remediationStarted']) {
    const hist = page.getByTestId(`seeds-${name}`);
    assert.equal(await hist.count(), 1, name);
    // MachineHealthCheck repairs node-1 in every run: each one is in a bin, none is never.
    const bins = await hist.locator('.seeds-bin').evaluateAll((bs) => bs.reduce((n, b) => n + Number(b.title), 0));
    assert.equal(bins, 200, `${name}: every run in a bin (${await hist.textContent()})`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('a repair the breaker holds back reads blocked, with why, on the cards and in the outage', async () => {
  // Two nodes of three down, MachineHealthCheck's maxUnhealthy 40% (one machine): no repair.
  const held = '?remediation=mhc&max-unhealthy=40%25&fault-nodes=2';
  const { page, errors } = await open(held);
  await page.getByTestId('milestone-remediation-why').waitFor();
  assert.equal(await card(page, 'milestone-remediation'), 'blocked');
  assert.equal(await card(page, 'milestone-remediation-why'), 'maxUnhealthy: 2 of 3 machines not healthy, at most 1 allowed');
  assert.equal(await card(page, 'milestone-database-ready'), 'never');
  assert.equal(await card(page, 'milestone-database-ready-why'), 'the remediation was held back');
  assert.equal(await card(page, 'spread-back-db'), 'still short of Ready pods at the end of the run: the remediation of node-1 was held back');
  await page.goto(`${fx.server.url}${held}&lang=zh`);
  await page.getByTestId('milestone-remediation-why').filter({ hasText: '最多允许 1 台' }).waitFor();
  assert.equal(await card(page, 'milestone-remediation'), '被拦下');
  assert.equal(await card(page, 'milestone-remediation-why'), 'maxUnhealthy：3 台机器中 2 台不健康，最多允许 1 台');
  assert.equal(await card(page, 'milestone-database-ready-why'), '因为修复被拦下了');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a stopped instance keeps its Node; a spot instance is reclaimed after its notice and deleted', async () => {
  const stopped = await open('?cloud=aws&fault=node-1:InstanceStopped:30');
  assert.equal(await card(stopped.page, 'milestone-node-deleted'), 'never', 'AWS taints a stopped instance, never deletes it');
  assert.deepEqual(stopped.errors, []);
  await stopped.page.close();
  const spot = await open('?cloud=aws&fault=node-1:SpotInterruption:30');
  // The milestones count from the reclaim, EC2's two-minute notice after the interruption at 30s.
  assert.equal((await spot.page.getByTestId('playhead-fault').textContent()).trim(), 'fault − 2m30s');
  const deleted = seconds(await card(spot.page, 'milestone-node-deleted'));
  assert.ok(deleted > 0 && deleted < 60, `Node deleted ${deleted}s after the reclaim`);
  assert.deepEqual(spot.errors, []);
  await spot.page.close();
});

test('the two choices and the instance faults write the link; a managed repair moves the cloud', async () => {
  const { page, errors } = await open('');
  await page.getByTestId('cloud-provider').selectOption({ label: 'AWS' });
  await page.getByTestId('milestone-node-deleted').waitFor();
  await page.waitForFunction(() => location.search.includes('cloud=aws'));
  await page.getByLabel('fault kind').selectOption('InstanceTerminated');
  await page.waitForFunction(() => location.search.includes('fault=node-1:InstanceTerminated:30'));
  await page.waitForFunction(() => /^\d+(\.\d)?s$/.test(document.querySelector('[data-testid=milestone-node-deleted]').textContent));
  // GKE's auto-repair runs on GCP only: choosing it moves the cluster there, and says so.
  await page.getByTestId('cloud-remediator').selectOption({ label: 'GKE auto-repair' });
  await page.getByTestId('cloud-note').filter({ hasText: 'GKE auto-repair runs on GCP only' }).waitFor();
  assert.equal(await page.getByTestId('cloud-provider').inputValue(), '2');
  await page.waitForFunction(() => location.search.includes('cloud=gcp&remediation=gke'));
  await page.getByTestId('milestone-remediation').waitFor();
  assert.match(await page.getByTestId('cloud-timeout').textContent(), /10m0s/);
  await page.getByTestId('cloud-timeout').locator('input').fill('300');
  await page.waitForFunction(() => location.search.includes('remediation-timeout=5m0s'));
  // Azure cannot run GKE's repair: it is turned off, and the line says so.
  await page.getByTestId('cloud-provider').selectOption({ label: 'Azure' });
  await page.getByTestId('cloud-note').filter({ hasText: 'nothing repairs nodes now' }).waitFor();
  assert.equal(await page.getByTestId('cloud-remediator').inputValue(), '0');
  await page.waitForFunction(() => location.search.includes('cloud=azure') && !location.search.includes('remediation'));
  // Karpenter runs on Azure: the cloud stays, node repair is on and can be turned off.
  await page.getByTestId('cloud-remediator').selectOption({ label: 'Karpenter node repair' });
  assert.ok(await page.getByTestId('cloud-node-repair').isChecked());
  await page.getByTestId('cloud-node-repair').uncheck();
  await page.waitForFunction(() => location.search.includes('remediation=karpenter&node-repair=false'));
  for (const kind of ['InstanceStopped', 'SpotInterruption']) {
    await page.getByLabel('fault kind').selectOption(kind);
    await page.waitForFunction((k) => location.search.includes(`fault=node-1:${k}:30`), kind);
  }
  // On AWS, Karpenter's interruption queue acts on the spot interruption's warning, with node
  // repair off: the remediation card comes from the interruption.
  await page.getByTestId('cloud-provider').selectOption({ label: 'AWS' });
  await page.getByTestId('cloud-interruption-queue').check();
  await page.waitForFunction(() => location.search.includes('interruption-queue=true'));
  await page.getByTestId('milestone-remediation').waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('a link with a bad cloud or remediation setting says so and keeps the rest', async () => {
  const { page, errors } = await open('?cloud=ibm&remediation=mhc&max-unhealthy=140%25&web=5');
  await page.getByText('ignored cloud=ibm').waitFor();
  await page.getByText('ignored max-unhealthy=140%').waitFor();
  assert.equal(await page.getByTestId('cloud-remediator').inputValue(), '1');
  await page.getByTestId('milestone-remediation').waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('the new controls: minHealthy, the EKS breaker and the spot notice write the link and reopen', async () => {
  const { page, errors } = await open('?remediation=snr');
  const min = page.getByTestId('cloud-min-healthy');
  assert.match(await min.textContent(), /minHealthy 51%/);
  await min.locator('input').fill('80');
  await page.waitForFunction(() => location.search.includes('remediation=snr&min-healthy=80%25'));
  assert.match(await min.textContent(), /80%/);
  // EKS node auto repair's breaker, 20% until set.
  await page.getByTestId('cloud-remediator').selectOption({ label: 'EKS node auto repair' });
  const breaker = page.getByTestId('cloud-max-unhealthy');
  assert.match(await breaker.textContent(), /maxUnhealthyPercentage 20%/);
  assert.equal(await page.getByTestId('cloud-min-healthy').count(), 0, 'minHealthy is Self Node Remediation\'s');
  await breaker.locator('input').fill('50');
  await page.waitForFunction(() => location.search.includes('remediation=eks&max-unhealthy=50%25'));
  // A spot interruption shows its notice, the provider's (AWS: 2m0s) until set.
  assert.equal(await page.getByTestId('fault-notice').count(), 0, 'no notice for a crash');
  await page.getByLabel('fault kind').selectOption('SpotInterruption');
  const notice = page.getByTestId('fault-notice');
  assert.match(await notice.textContent(), /2m0s/);
  await notice.locator('input').fill('30');
  await page.waitForFunction(() => location.search.includes('fault=node-1:SpotInterruption:30&notice=30s'));
  // The milestones count from the reclaim: the interruption at 30s plus the 30s notice.
  await page.waitForFunction(() => document.querySelector('[data-testid=playhead-fault]').textContent.trim() === 'fault − 1m0s');
  const link = await page.getByTestId('share-link').inputValue();
  const fresh = await fx.browser.newContext();
  const again = await openPage(fresh, link);
  assert.match(await again.page.getByTestId('fault-notice').textContent(), /30s/);
  assert.match(await again.page.getByTestId('cloud-max-unhealthy').textContent(), /50%/);
  assert.deepEqual(again.errors, []);
  await fresh.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bad minHealthy or notice in a link says so and keeps the rest', async () => {
  const { page, errors } = await open('?remediation=snr&min-healthy=120%25&fault=node-1:InstanceStopped:30&notice=30s&web=5');
  await page.getByText('ignored min-healthy=120%').waitFor();
  await page.getByText('ignored notice=30s').waitFor();
  assert.match(await page.getByTestId('cloud-min-healthy').textContent(), /51%/);
  assert.equal(await page.getByLabel('fault kind').inputValue(), 'InstanceStopped');
  assert.deepEqual(errors, []);
  await page.close();
});

/** Pastes `text` into the import panel as the file `name` and applies it. */
async function paste(page, name, text) {
  await page.getByTestId('import-text').fill(text);
  await page.getByTestId('import-name').fill(name);
  await page.getByTestId('import-apply').click();
}

test('an imported EKS node list and MachineHealthCheck choose AWS and the MachineHealthCheck', async () => {
  const read = (rel) => fs.readFileSync(new URL(`../crates/engine/tests/fixtures/import/${rel}`, import.meta.url), 'utf8');
  const { page, errors } = await open('');
  await paste(page, 'nodes.json', read('eks-nodelist-providerid.json'));
  await page.waitForFunction(() => document.querySelector('[data-testid=cloud-provider]').value === '1');
  const report = page.getByTestId('import-report');
  assert.match(await report.textContent(), /cloud\.provider = aws/);
  assert.match(await report.textContent(), /eks\.amazonaws\.com\/nodegroup.*EKS node auto repair probably applies/s);
  await paste(page, 'mhc.yaml', read('mhc-v1beta1.yaml'));
  await page.waitForFunction(() => document.querySelector('[data-testid=cloud-remediator]').value === '1');
  assert.equal(await page.getByTestId('cloud-provider').inputValue(), '1', 'still AWS');
  assert.match(await report.textContent(), /MachineHealthCheck/);
  // The MachineHealthCheck's own values: Ready Unknown or False for 5m0s, at most 40%.
  assert.match(await page.getByTestId('cloud-timeout').textContent(), /5m0s/);
  assert.match(await page.getByTestId('cloud-max-unhealthy').textContent(), /40%/);
  await page.waitForFunction(() => location.search.includes('cloud=aws') && location.search.includes('remediation=mhc'));
  // The hung VM is remediated about five minutes after it turns Unknown, and its Node deleted.
  await page.waitForFunction(() => /^\d+m[\d.]+s$/.test(document.querySelector('[data-testid=milestone-remediation]')?.textContent.trim() ?? ''));
  const remediated = seconds(await card(page, 'milestone-remediation'));
  assert.ok(remediated > 300 && remediated < 420, `remediation ${remediated}s after the fault`);
  const deleted = seconds(await card(page, 'milestone-node-deleted'));
  assert.ok(deleted >= remediated, `Node deleted ${deleted}s after the fault, after the remediation`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('every cloud duration has a control under its provider and a link parameter that moves the run', async () => {
  const { page, errors } = await open('?cloud=aws&fault=node-1:InstanceTerminated:30');
  // AWS answers from its API at once: no VM cache control there; every other duration shows.
  for (const link of ['cloud-node-monitor-period', 'instance-termination-duration', 'instance-stop-duration',
    'instance-deletion-duration', 'node-boot-duration', 'api-call-duration']) {
    await page.getByTestId(`cloud-${link}`).waitFor();
  }
  assert.equal(await page.getByTestId('cloud-vm-cache-ttl').count(), 0, 'the VM cache is Azure\'s');
  const termination = page.getByTestId('cloud-instance-termination-duration');
  assert.match(await termination.textContent(), /30s/, 'EC2 takes 30s to terminate by default');
  const shown = await card(page, 'milestone-node-deleted');
  const before = seconds(shown);
  assert.ok(before < 60, `Node deleted ${before}s after the fault`);
  // Two minutes until `terminated`: the cloud controller can delete the Node only after that.
  await termination.locator('input').fill('120000');
  await page.waitForFunction(() => location.search.includes('instance-termination-duration=2m0s'));
  await page.waitForFunction(
    (was) => document.querySelector('[data-testid="milestone-node-deleted"]').textContent.trim() !== was,
    shown,
  );
  const after = seconds(await card(page, 'milestone-node-deleted'));
  assert.ok(after >= 120, `Node deleted ${after}s after the fault, after the 2m0s termination`);
  // The link reopens with it.
  const again = await open(new URL(page.url()).search);
  assert.match(await again.page.getByTestId('cloud-instance-termination-duration').textContent(), /2m0s/);
  assert.equal(seconds(await card(again.page, 'milestone-node-deleted')), after);
  // Azure shows its VM cache.
  await again.page.getByTestId('cloud-provider').selectOption({ label: 'Azure' });
  assert.match(await again.page.getByTestId('cloud-vm-cache-ttl').textContent(), /\d/);
  assert.deepEqual([...errors, ...again.errors], []);
  await page.close();
  await again.page.close();
});

test('a bad cloud duration in a link is named and the rest applies', async () => {
  const { page, errors } = await open('?cloud=aws&vm-cache-ttl=5m0s&node-boot-duration=soon&instance-deletion-duration=2m0s&web=5');
  await page.getByText('ignored vm-cache-ttl=5m0s').waitFor();
  await page.getByText('ignored node-boot-duration=soon').waitFor();
  assert.match(await page.getByTestId('cloud-instance-deletion-duration').textContent(), /2m0s/);
  assert.equal(await page.getByTestId('cloud-provider').inputValue(), '1', 'still AWS');
  assert.deepEqual(errors, []);
  await page.close();
});
