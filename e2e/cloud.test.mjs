// Where the cluster runs and what repairs its nodes: the two choices, the three instance faults
// and the milestone cards they add (the Node's deletion, the remediation).
import { test } from 'node:test';
import assert from 'node:assert/strict';
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
  assert.equal(await page.getByTestId('milestone-remediation').count(), 0);
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
