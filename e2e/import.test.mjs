// "Bring your own cluster" and the figure downloads in headless Chromium: a pasted kubeadm
// ClusterConfiguration and a dropped `kubectl get nodes -o json` move the sliders, the zones and
// the node count, the link carries them; Download as SVG and PNG give real pictures.
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
  // The list changes at once; the report when the files worker has read the rest again.
  await page.waitForFunction(() => !/the page draws 2 nodes/.test(document.querySelector('[data-testid=import-report]').textContent));
  assert.deepEqual([...errors, ...reopened.errors], []);
  await page.close();
});

test('what the page cannot show is reported, not lost', async () => {
  const { page, errors } = await openPage(fx.browser, fx.server.url);
  const items = Array.from({ length: 60 }, (_, i) => ({
    apiVersion: 'v1', kind: 'Node',
    metadata: { name: `n-${i}`, labels: { 'topology.kubernetes.io/zone': `zone-${i % 12}` } },
  }));
  await page.getByTestId('import-text').fill(JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  await page.getByTestId('import-apply').click();
  const report = page.getByTestId('import-report');
  await report.waitFor();
  const text = await report.textContent();
  assert.match(text, /the page shows at most 10 zones; imported 12/);
  await page.waitForFunction(() => document.querySelector('[data-testid=share-link]').value.includes('nodes=60'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('Download as SVG and as PNG save the timeline and the breakdown', async () => {
  const context = await fx.browser.newContext({ acceptDownloads: true });
  const { page, errors } = await openPage(context, fx.server.url);
  const save = async (testid) => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
    return { name: download.suggestedFilename(), body: fs.readFileSync(await download.path()) };
  };
  for (const figure of ['timeline', 'breakdown']) {
    const svg = await save(`download-${figure}-svg`);
    assert.equal(svg.name, `kubelife-${figure}.svg`);
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        root: doc.documentElement.nodeName,
        texts: [...doc.querySelectorAll('text')].map((t) => t.textContent.trim()),
      };
    }, svg.body.toString('utf8'));
    assert.equal(parsed.error, null, `${figure}: the SVG parses`);
    assert.equal(parsed.root, 'svg');
    assert.ok(parsed.texts.length > 3, `${figure}: the SVG has its labels`);
    if (figure === 'timeline') assert.ok(parsed.texts.includes('node-1'), 'the timeline names its lanes');
    else assert.ok(parsed.texts.some((t) => t.includes('Where does the time go?')), 'the breakdown has its title');

    const png = await save(`download-${figure}-png`);
    assert.equal(png.name, `kubelife-${figure}.png`);
    assert.deepEqual([...png.body.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${figure}: a PNG`);
    // The 900 px figure at twice its size (the screen's device pixel ratio when higher).
    assert.equal(png.body.readUInt32BE(16), 1800, `${figure}: 1800 px wide`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

/**
 * Runs `act` while measuring the page's own thread: the longest gap between two animation frames
 * until `done` is true in the page, ms. A page that stays responsive draws a frame every 16 ms.
 */
async function longestFrameGap(page, act, done, arg) {
  await page.evaluate(() => {
    window.__gaps = { last: performance.now(), max: 0, frames: 0, on: true };
    const tick = (now) => {
      const g = window.__gaps;
      g.max = Math.max(g.max, now - g.last);
      g.last = now;
      g.frames += 1;
      if (g.on) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await act();
  await page.waitForFunction(done, arg);
  // The frame that sees the answer has not been drawn yet: the gap to it counts too.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  const { max, frames } = await page.evaluate(() => { window.__gaps.on = false; return window.__gaps; });
  assert.ok(frames >= 2, `the page drew ${frames} frames`);
  return max;
}

/**
 * Puts `text` into the paste box as a paste would, without typing it key by key (the browser lays
 * out a megabyte of text in the box in about half a second, before the page does anything).
 */
async function putText(page, name, text) {
  await page.getByTestId('import-text').evaluate((el, t) => { el.value = t; }, text);
  await page.getByTestId('import-name').fill(name);
}

async function paste(page, name, text) {
  await putText(page, name, text);
  await page.getByTestId('import-apply').click();
}

const reportText = () => document.querySelector('[data-testid=import-report]')?.textContent ?? '';

test('hostile pastes keep the page responsive, and the report says what was refused, escaped', async () => {
  const { page, errors } = await openPage(fx.browser, fx.server.url);
  const link = await page.getByTestId('share-link').inputValue();
  const big = 'x'.repeat(1 << 20);
  const cases = [
    ['deep.yaml', 'a: ' + '['.repeat(200_000), 'deep.yaml line 1: nested deeper than 64 levels'],
    ['bomb.yaml', `a: &s ${big}\nb: [${Array(4000).fill('*s').join(', ')}]\n`, 'bomb.yaml: YAML aliases (*name) and merge keys (<<) expand beyond'],
    ['ansi.yaml', 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeStatusUpdateFrequency: "4s\\e]0;owned\\a\\e[2J"\n',
      'ansi.yaml: cannot read nodeStatusUpdateFrequency "4s\\x1b]0;owned\\a\\x1b[2J"'],
    ['flag.txt', `--node-monitor-grace-period=${big}\n`, '… (1,048,576 characters)'],
  ];
  for (const [name, text, said] of cases) {
    await putText(page, name, text);
    // From Apply to the report: the file goes to the files worker, which reads it within the
    // limits, and the page shows what it says.
    const gap = await longestFrameGap(page, () => page.getByTestId('import-apply').click(),
      (s) => (document.querySelector('[data-testid=import-report]')?.textContent ?? '').includes(s), said);
    assert.ok(gap < 500, `${name}: the page froze for ${gap.toFixed(0)} ms`);
    const report = await page.evaluate(reportText);
    assert.ok(report.includes(said), `${name}: ${report}`);
    assert.ok(report.length < 20_000, `${name}: a report of ${report.length} characters`);
    assert.doesNotMatch(report, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/, `${name}: a control character reached the page`);
    await page.getByRole('button', { name: `Remove ${name}` }).click();
  }
  // Nothing refused changed the settings.
  assert.equal(await page.getByTestId('share-link').inputValue(), link);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a dropped file over the size limit is not read, and a flow mapping is YAML', async () => {
  const { page, errors } = await openPage(fx.browser, fx.server.url);
  // 3 GiB made of one 1 MiB blob, so that the test holds 1 MiB: the page looks at the size only.
  const transfer = await page.evaluateHandle(() => {
    const mib = new Blob([new Uint8Array(1 << 20)]);
    const dt = new DataTransfer();
    dt.items.add(new File(Array(3072).fill(mib), 'huge.yaml'));
    return dt;
  });
  const gap = await longestFrameGap(page,
    () => page.locator('.import-drop').dispatchEvent('drop', { dataTransfer: transfer }),
    () => (document.querySelector('[data-testid=import-report]')?.textContent ?? '').includes('huge.yaml is 3 GiB'));
  assert.ok(gap < 500, `the page froze for ${gap.toFixed(0)} ms`);
  assert.match(await page.evaluate(reportText), /huge\.yaml is 3 GiB \(3,221,225,472 B\), over the 128 MiB kubelife reads: not read/);
  assert.match(await page.locator('.import-file-item').textContent(), /not read: over the size limit/);

  await paste(page, 'kubelet.yaml', '{apiVersion: kubelet.config.k8s.io/v1beta1, kind: KubeletConfiguration, nodeStatusUpdateFrequency: 4s}');
  await page.waitForFunction(() => document.querySelector('[data-testid=share-link]').value.includes('node-status-update-frequency=4s'));
  assert.match(await page.evaluate(reportText), /kubelet\.yaml: kubelet\.nodeStatusUpdateFrequency = 4s/);
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * Drops the file `name`, whose text the page builds with `make` (a function's source, called with
 * `arg`), on the import panel and measures the page's own thread from the drop until `done` (a
 * function's source, given the report's text) holds and the run the import asked for is shown:
 * the tasks over 50 ms, ms from the drop, and the longest. Also the calibration loop's time in
 * the same page, ms, since a budget that can fail is a ratio: a slower machine passes.
 */
async function timedImport(page, name, make, arg, done) {
  await page.waitForFunction(() => window.wasmBindings?.kubelife_calibrate);
  const floor = Math.min(...await page.evaluate(async () => [
    await window.wasmBindings.kubelife_calibrate(1000, 3), await window.wasmBindings.kubelife_calibrate(1000, 3)]));
  const transfer = await page.evaluateHandle(([n, source, a]) => {
    const text = (0, eval)(`(${source})`)(a);
    const dt = new DataTransfer();
    dt.items.add(new File([text], n, { type: 'application/octet-stream' }));
    return dt;
  }, [name, make.toString(), arg]);
  const size = await transfer.evaluate((dt) => dt.files[0].size);
  await page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((l) => window.__longTasks.push(...l.getEntries().map((e) => ({ at: e.startTime, ms: e.duration })))).observe({ type: 'longtask' });
  });
  const start = await page.evaluate(() => performance.now());
  await page.locator('.import-drop').dispatchEvent('drop', { dataTransfer: transfer });
  await page.waitForFunction((source) => (0, eval)(`(${source})`)(document.querySelector('[data-testid=import-report]')?.textContent ?? ''),
    done.toString(), { timeout: 120_000 });
  await page.waitForFunction(() => !document.querySelector('[data-testid=running]'), null, { timeout: 120_000 });
  // The frame after the report counts too.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))));
  const tasks = (await page.evaluate(() => window.__longTasks)).map(({ at, ms }) => ({ at: Math.round(at - start), ms: Math.round(ms) }));
  return { tasks, longest: Math.max(0, ...tasks.map((t) => t.ms)), floor, size };
}

// The import's budget: no task of the page's own thread longer than eight times the calibration
// loop, which is 100 ms where that loop takes 12.5 ms (issue 36 asks for no task over 100 ms).
const IMPORT_TASK_LOOPS = 8;

test('a YAML of 10,000 documents imports with no main-thread task over eight calibration loops (100 ms), its report summarised', async () => {
  const { page, errors } = await openPage(fx.browser, fx.server.url);
  // 1 MB: 10,000 KubeletConfigurations, which the engine reports as 30,002 lines (issue 36).
  const make = (count) => Array.from({ length: count }, (_, i) =>
    `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeStatusUpdateFrequency: ${i % 9 + 1}s\n`).join('---\n');
  const { tasks, longest, floor, size } = await timedImport(page, 'many.yaml', make, 10_000, (r) => r.includes('9,997 more like'));
  assert.ok(size > 1_000_000, `${size} bytes`);
  console.log(`import of 10,000 documents: longest main-thread task ${longest} ms, ${(longest / floor).toFixed(2)} times the calibration loop's ${floor.toFixed(1)} ms (long tasks: ${JSON.stringify(tasks)})`);
  assert.ok(longest <= IMPORT_TASK_LOOPS * floor, `a main-thread task took ${longest} ms during the import, calibration ${floor.toFixed(1)} ms: ${JSON.stringify(tasks)} (ms from the drop)`);
  // A few lines, each repeated message counted once and its file named.
  const rows = await page.locator('.import-entry').count();
  assert.ok(rows <= 300, `the report renders ${rows} lines`);
  assert.match(await page.evaluate(reportText), /9,997 more like many\.yaml: read as KubeletConfiguration, in many\.yaml: kubelife import prints every one/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a 30 MB node list imports with no main-thread task over eight calibration loops (100 ms)', async () => {
  const { page, errors } = await openPage(fx.browser, fx.server.url);
  // `kubectl get nodes -o json` of a large cluster: the EKS fixture's first node, 4,300 times,
  // in three zones (issue 36: this blocked the page for about 1.4 s).
  const make = ([fixture, count]) => {
    const node = JSON.parse(fixture).items[0];
    const items = Array.from({ length: count }, (_, i) => {
      const n = structuredClone(node);
      n.metadata.name = `node-${i}`;
      n.metadata.labels['kubernetes.io/hostname'] = `node-${i}`;
      n.metadata.labels['topology.kubernetes.io/zone'] = `zone-${i % 3}`;
      return n;
    });
    return JSON.stringify({ kind: 'NodeList', apiVersion: 'v1', items }, null, 2);
  };
  const { tasks, longest, floor, size } = await timedImport(page, 'nodes.json', make, [NODES, 4_300], (r) => r.includes('nodes.json'));
  assert.ok(size > 30_000_000, `${size} bytes`);
  console.log(`import of a ${(size / 1e6).toFixed(1)} MB node list: longest main-thread task ${longest} ms, ${(longest / floor).toFixed(2)} times the calibration loop's ${floor.toFixed(1)} ms (long tasks: ${JSON.stringify(tasks)})`);
  assert.ok(longest <= IMPORT_TASK_LOOPS * floor, `a main-thread task took ${longest} ms during the import, calibration ${floor.toFixed(1)} ms: ${JSON.stringify(tasks)} (ms from the drop)`);
  assert.deepEqual(errors, []);
  await page.close();
});
