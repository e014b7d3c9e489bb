// Budget checks of the release build, printed as figures: bundle size, first render, and
// re-simulation time inside the page. Exits non-zero when a budget is exceeded.
//
// Sizes are deterministic, so their budget is absolute. Times are not: machines differ twofold,
// so every time is divided by the engine's calibration workload (a bare heartbeat event loop of
// 1,000 nodes, `calibration::heartbeat_floor`) timed in the same page, and the budget is on that
// ratio. The absolute figures are printed too.
//
// Every figure also goes to target/perf/page.json (in the Cargo target directory), from which
// ./scripts/bench writes docs/performance.md's page table; each gated figure carries the key of
// its budget below, which crates/cli/tests/performance_doc.rs checks that table against. And the
// served files' gzip sizes, deterministic for a build, are checked against that document's
// per-file table, which ./scripts/size writes.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { serve, launch } from './serve.mjs';
import { servedFiles, readSizeTable, docPath, writeJson, targetDir } from '../scripts/perf-doc.mjs';

const dist = new URL('../dist/', import.meta.url).pathname;
// Ratio budgets are about 1.7 times the ratios measured when they were set, so that a busy
// machine passes and a twofold regression fails. Re-simulation goes through the worker (settings
// out, the run back in the engine's wire form, read and laid out by the page), so even a tiny run
// pays a message each way; the page reads and lays out a run with code built for size, since it
// is on the first download (the re-simulations' budgets rose from 0.12 and 3.1 when it was). The
// page against the native engine on a 5,000-node zone outage is the issue's own bound, 2×.
//
// Sizes are gzip -9 of the served files, deterministic, so their budgets are absolute. The
// critical path is every file the browser fetched before the first result was drawn, read from its
// own request log: on the plain address that is the HTML, with the first view in it, and the CSS.
// Its budget is the issue "A page that loads like a document"'s 200 KB. The files fetched until
// the page is live (its script and wasm) and every file the page can ever fetch (the engine's
// worker after the first render, the files worker and the Chinese catalogue when first wanted)
// have budgets just above today's figures, so that any growth fails; the issue aims for 320 KB in
// all, which they are far from. They were raised on purpose once, from 367 and 793 KB, for what
// issues 23 to 25 added: the page grew 20 KB gzipped (the explanations read off each run, "Where
// does the time go?"'s bars and their message templates in the English catalogue, the flag
// catalogue the controls are a view of, the Import panel's handling of hostile files), the files
// worker 16 KB (bounded reading: the scan, the budgeted value builder, encodings, escaping) and
// the Chinese catalogue 4 KB; the engine's worker shrank by 11 KB once it stopped resolving
// settings (docs/performance.md, "Where the bytes go", has each part). They were raised a second
// time, from 390 and 835 KB, for what issues 25 and 26 added: the page grew 17 KB gzipped (every
// message the engine gives, validation and import included, is now a catalogue key whose English
// text the page carries built in, so that it reads in Chinese too; the Apply panel's kubeadm form
// and out-of-service fix; copy buttons that say what happened; a many-node outage's headline;
// canvases drawn at the device's pixel ratio; the run laid out once instead of per tick), and the
// Chinese catalogue 3 KB. The total rose once more, from 856 KB, when the 200-seed spreads came to
// every milestone card: the engine's worker grew 3 KB gzipped, since each seed's run now ends in
// the whole outcome (the proxies' view of each Service, named events) that the cards' milestones
// are read from, by the same code as the page's cards. Both rose again, from 408 and 860 KB, for
// issue 27 (clouds and remediators): the page's wasm grew 21 KB gzipped (the scenario's cloud
// and six remediators, their validation and messages, the "Where does it run?" panel, its link
// parameters and milestone cards), the engine's worker 29 KB (the cloud controller and the six
// remediators), the files worker 64 KB (providerID, MachineHealthCheck and NodeHealthCheck
// import and their checks), and the English catalogue grew from 99 to 121 KB raw. Both rose
// again, from 432 and 992 KB, for issue 28 (SLO targets and "Tune for a target") and the rest of
// issue 27: the page's wasm grew 35 KB gzipped (the Tune panel's and the SLO chips' views, 10 KB
// of it; its scatter; the third worker line and the search's messages; the remediators' last
// controls and the thirteenth exercise), the engine's worker 28 KB (the search, its sorting, and
// gloo-worker's message loop that lets a search run in slices, plus Karpenter's interruption
// handling). The total then fell by 34 KB: the files worker no longer carries the English
// catalogue, which only the page reads (a duration's serde error names the text, and the
// scenario's message is read again from it), so the total budget came down from 1,058 KB.
// Both rose by 3 KB, from 467 and 1,032 KB, when the Tune panel's writes ceiling joined the link,
// its fields began to name text they cannot use, and a front point could be applied to both
// compare sides (the page's wasm grew 3.0 KB gzipped: the panel's question, its readers shared
// with the link, the refusal line, and the "Apply to A and B" buttons). They rose by 2 and 10 KB, from 470 and
// 1,035 KB, for issue 34's settings table (the page's wasm grew 9.8 KB gzipped: thirteen link
// parameters and sliders for the cloud durations and the remediators' further settings, the
// engine's settings table, the link's parameter table; each worker 4.2 KB). The page then made
// room, and the live budget came back to 470 KB: it reads the presets as link queries instead of
// carrying the engine's preset builders (7.2 KB), each worker reads only its own jobs and writes
// only its own answers (the engine's worker no longer carries the page's settings' code, nor the
// files worker a resolved configuration's: 17 KB in all, 1.9 KB of it the page's), and the English
// of the exercises' goals, checks, hints and explanations and of the import report left the
// page's wasm for files fetched when first wanted (4.6 KB off the page for the exercises, measured
// alone, and about 2 KB for the import report; 4 KB more in all, since small files compress
// worse). The total budget stays at 1,045 KB, 10 KB over the 1,035 KB it was before issue 34:
// what the split workers and the engine's worker at opt-level 2 (8 KB) freed went to issue 35
// (every remediator's events linked to their causes and a drain's end, the EKS managed node
// group's Spot drain and replacement, the database and remediation cards and one origin for
// compare: 12 KB in all). For issue 36 the total came down and the live budget rose. The engine's
// worker, its engine built at opt-level "s" instead of 2, is 31 KB smaller (the page against the
// native engine went from 1.60 to 1.67 times), so the total budget is 1,040 KB, below the 1,045
// it was. The page's wasm grew 14.2 KB gzipped with issue 36's features, from 437.6 to 451.8 KB
// across their merges, and 0.9 KB with its large runs laid out in short tasks (the Tune panel's warnings, unmet
// targets, floor line, estimate and kept refusals; side B's full controls; the exercises'
// premises and the instructor's inline explanations; the outage spread's deleters; the embed's
// ResizeObserver; the operator sliders' number fields; the milestones' labels), and made room for
// 7.4 KB of it: the presets' descriptions are read once, from the catalogue (1.5 KB), and the
// English the default page never shows at first (link notices, validation messages, the tour, the
// presets' descriptions, the Apply panel's notes) is fetched once the page is live (5.9 KB). The
// rest of the room: the saved figures are drawn as SVG by the files worker, not the page (the page
// 4.7 KB lighter, the files worker 11.8 KB heavier: plotters' drawing is in both), the Tune
// scatter's triangle is drawn without plotters' sine (3.3 KB), components compare a
// configuration by pointer (1.4 KB), the playback speed's powers of ten are the browser's
// (1.0 KB), and the files worker's jobs compare and copy no files or figures (1.8 KB), which paid
// for reading a large import in short tasks (1.1 KB) and number fields that keep what is typed
// (1.8 KB). So the live budget is back at 470 KB (468.4 KB), and the total stays at 1,040 KB
// (1,039.0 KB). Issue 37's clients cost the engine's worker 10 KB, more than the room: the page's
// builds leave them out (the engine's `clients` feature) until the page can hold a client, which
// keeps 1.6 KB in the worker and 1 KB in the page and the files worker; Chinese came down 2.9 KB
// in GB18030, the Tune panel's search answers and the import report's page notes moved to the
// texts fetched once the page is live, and the page reads its catalogues with TextDecoder: live
// 468.8 KB, total 1,034.1 KB. Then the DNS clients' messages (live 468.9 KB, total 1,036.5 KB),
// and a catalogue part that cannot be fetched no longer hides what waits for it: live 469.3 KB,
// total 1,036.9 KB. Then the engine's worker shed 21.1 KB gzipped (26.1 KB with the clients
// built in): maps only looked up by node or pod became a slot per index (`idmap`), small maps
// and sets sorted vectors, collected maps went through the shared sort (`order`), and the
// controllers' clients an array. The total is 1,012.8 KB; the budget stays at 1,040 KB, the
// room kept for the page's clients (issue 37). Then the page's first download came down 21.7 KB,
// to 448.1: the explanations of causes the default run never shows joined the texts fetched once
// the page is live (9.8 KB off the page's wasm; later-en.json grew 11.0 KB and zh.txt 1.7 KB, a
// cause and its brief form sharing one key there), and the figures look names up in one table of
// their own while the bridge and the job lines keep their few jobs in arrays (12.2 KB). The files
// worker shed 17.3 KB (it drops a refused remediator field through the settings table instead of
// reading the section back from JSON, and sorts through the shared sort) and the engine's worker
// 5.7 KB (one copy of Cause::text, no B-tree of pod and time, no second copy of the sort). The
// total is 981.7 KB. Both budgets stay, at 470 and 1,040 KB: the room is kept for the page's
// clients, which measured 25 KB more until live and 86 KB more in all before these cuts.
const budgets = { criticalKB: 200, liveKB: 470, totalKB: 1040, resimDefault: 0.14, resim1000: 3.7, pageVsNative: 2 };
const over = [];
// Every figure, for target/perf/page.json: its budget's key (none when printed only), name,
// measured value, unit, and for times what it is divided by and the ratio.
const results = [];
// A size against its budget in KB (gzip), printed with the brotli size.
const check = (key, name, { gzip, brotli }) => {
  const [value, limit] = [gzip / 1024, budgets[key]];
  const ok = value <= limit;
  if (!ok) over.push(name);
  results.push({ key, name, measured: value, unit: 'KB', brotli: brotli / 1024, ratio: null, limit });
  console.log(`${name.padEnd(60)} ${value.toFixed(1).padStart(9)} KB (${(brotli / 1024).toFixed(1)} KB brotli)  (budget ${limit} KB) ${ok ? 'ok' : 'OVER'}`);
};
// A time as a ratio to `against` (the calibration loop, or the native engine), printed with both
// absolute figures; no key: printed, not gated.
const checkRatio = (key, name, ms, floorMs, against = 'loop') => {
  const ratio = ms / floorMs;
  const limit = key ? budgets[key] : null;
  const ok = limit === null || ratio <= limit;
  if (!ok) over.push(name);
  results.push({ key, name, measured: ms, unit: 'ms', against, floor: floorMs, ratio, limit });
  const verdict = limit === null ? '(printed, not gated)' : `(budget ${limit}×) ${ok ? 'ok' : 'OVER'}`;
  console.log(`${name.padEnd(60)} ${ms.toFixed(2).padStart(9)} ms / ${against} ${floorMs.toFixed(2)} ms = ${ratio.toFixed(3)}×  ${verdict}`);
};
// `KUBELIFE_BENCH_SLOWDOWN=N` repeats each page measurement N times to show that a slower page
// fails its budgets (the calibration is not repeated).
const slowdown = Math.max(1, Number(process.env.KUBELIFE_BENCH_SLOWDOWN || 1));

// Every file of the page with its size, gzip -9 and brotli (quality 11).
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const pageFiles = servedFiles(dist);
const stale = staleSizes(pageFiles);

// Marks, in the page, when the first result is drawn (a milestone visible, at the next frame:
// from the first view in the HTML on the plain address) and when the page is live (its own
// render, whose milestones carry test ids), each by the browser's clock.
const watchRenders = () => {
  const at = () => ({ now: performance.now(), epoch: performance.timeOrigin + performance.now() });
  new MutationObserver((_, obs) => {
    const drawn = [...document.querySelectorAll('[data-tour=milestone-eviction]')].some((e) => e.checkVisibility());
    if (drawn && !window.__drawnSeen) {
      window.__drawnSeen = true;
      requestAnimationFrame(() => { window.__drawn = at(); });
    }
    if (document.querySelector('[data-testid=milestone-eviction]')) {
      window.__live = at();
      obs.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
};

const server = await serve(dist);
const browser = await launch();
try {
  const firsts = [], lives = [];
  for (let i = 0; i < 5; i++) {
    const page = await browser.newPage();
    await page.addInitScript(watchRenders);
    await page.goto(server.url);
    await page.waitForFunction(() => window.__drawn !== undefined && window.__live !== undefined);
    firsts.push(await page.evaluate(() => window.__drawn.now));
    lives.push(await page.evaluate(() => window.__live.now));
    await page.close();
  }
  firsts.sort((a, b) => a - b);
  lives.sort((a, b) => a - b);

  // The critical path as the browser fetched it: every request (the page's and its workers')
  // started before the first result was drawn, by the browser's own clock; and every one started
  // before the page was live.
  const { drawn, live } = await requestsBeforeRenders(browser, server.url);
  const [critical, beforeLive] = [new Set(drawn), new Set(live)];
  const sum = (files) => files.reduce((t, f) => ({ gzip: t.gzip + f.gzip, brotli: t.brotli + f.brotli }), { gzip: 0, brotli: 0 });
  console.log('  file (gzip -9, brotli)                        when fetched');
  const when = (f) => critical.has(f) ? 'before the first result' : beforeLive.has(f) ? 'after it, before the page is live' : 'later, or when wanted';
  for (const f of pageFiles) {
    f.fetched = when(f.file);
    console.log(`  ${f.file.padEnd(44)} ${kb(f.gzip).padStart(9)} ${kb(f.brotli).padStart(9)}  ${f.fetched}`);
  }
  check('criticalKB', 'the critical path, every file fetched before the first result was drawn, gzipped', sum(pageFiles.filter((f) => critical.has(f.file))));
  check('liveKB', 'the files fetched until the page is live (its script and wasm too), gzipped', sum(pageFiles.filter((f) => beforeLive.has(f.file))));
  check('totalKB', 'everything the page can fetch, gzipped', sum(pageFiles));

  const page = await browser.newPage();
  await page.goto(server.url);
  await page.waitForFunction(() => window.wasmBindings?.kubelife_bench && window.wasmBindings?.kubelife_calibrate);
  // Both run in the engine's worker: the page sends settings, the worker runs them, and the page
  // decodes the run and lays it out, as it does when a control moves.
  await page.evaluate(() => window.wasmBindings.kubelife_bench(3, 20));
  await page.evaluate(() => window.wasmBindings.kubelife_calibrate(1000, 3));
  // Measurements alternate with calibration runs; each figure is the fastest of nine, the run
  // least disturbed by whatever else the machine does (a busy machine slows the engine's
  // allocation-heavy runs more than the calibration loop, so medians drift apart under load).
  const fastest = (xs) => Math.min(...xs);
  const floors = [], defaults = [], thousands = [];
  for (let i = 0; i < 9; i++) {
    floors.push(await page.evaluate(() => window.wasmBindings.kubelife_calibrate(1000, 3)));
    defaults.push(await page.evaluate(async (n) => (await window.wasmBindings.kubelife_bench(3, 40 * n)) * n, slowdown));
    thousands.push(await page.evaluate(async (n) => (await window.wasmBindings.kubelife_bench(1000, n)) * n, slowdown));
  }
  const floor = fastest(floors);
  checkRatio('resimDefault', 'one re-simulation of the default scenario (fastest of 9)', fastest(defaults), floor);
  checkRatio('resim1000', 'one re-simulation of 1,000 nodes, 3,000 pods (fastest of 9)', fastest(thousands), floor);

  // The page against the native engine on one scenario, both timed in this run: a 5,000-node
  // cluster losing zone-b, re-simulated by the page (worker, transfer, decoding and layout) and
  // run by the release CLI (`kubelife run --time`, the engine alone), the fastest of five each
  // (of ten, when five were over budget).
  const big = 'nodes=5000&zones=3&web=15000&zone-outage=zone-b:2m0s';
  const scenarioFile = path.join(os.tmpdir(), `kubelife-budget-${process.pid}.json`);
  fs.writeFileSync(scenarioFile, await page.evaluate((q) => window.wasmBindings.kubelife_scenario_json(q), big));
  // The release CLI the test command builds (in CARGO_TARGET_DIR when set).
  const cli = path.join(targetDir(), 'release', 'kubelife');
  const pages = [], natives = [];
  const measure = async () => {
    for (let i = 0; i < 5; i++) {
      pages.push(await page.evaluate(async ([q, n]) => (await window.wasmBindings.kubelife_bench_link(q, n)) * n, [big, slowdown]));
      natives.push(Number(execFileSync(cli, ['run', scenarioFile, '--time', '1']).toString()));
    }
  };
  await measure();
  // The page uses two threads (its own and the worker's) and the CLI one, so another process
  // taking a core for a while slows the page alone. Over budget, five more pairs are timed and
  // the fastest of all ten counts: a passing load passes, a slower page fails again.
  const ratio = () => fastest(pages) / fastest(natives);
  if (ratio() > budgets.pageVsNative) {
    console.log(`page vs native ${ratio().toFixed(2)}× over five pairs: timing five more`);
    await measure();
  }
  fs.rmSync(scenarioFile);
  checkRatio('pageVsNative', 'one re-simulation of 5,000 nodes losing zone-b, against the native engine (fastest of 5 pairs, or 10)', fastest(pages), fastest(natives), 'native');
  // Printed, not gated: first render is mostly the browser fetching and compiling the wasm, which
  // a busy machine slows far more than it slows the calibration loop (21–36 times the loop's time
  // within one hour on the same machine), so no ratio of it is stable enough to fail a run on.
  checkRatio(null, 'first render of the default scenario from navigation (fastest of 5)', firsts[0] * slowdown, floor);
  checkRatio(null, 'the page live (its own first render) from navigation (fastest of 5)', lives[0] * slowdown, floor);
} finally {
  await browser.close();
  await server.close();
}
// Results for docs/performance.md's tables: the page's figures (slowed-down runs are marked, and
// kept out of the document) and each served file with when the browser fetched it.
const files = pageFiles.map(({ name, file, gzip, brotli, fetched }) => ({ name, file, gzip, brotli, fetched }));
console.log(`results in ${writeJson('page', { at: Date.now(), slowdown, budgets: results, files })}`);

// The served files' gzip sizes against docs/performance.md's per-file table: each file there,
// within 0.5 KB (Trunk's hashes aside, a build gives the same bytes).
function staleSizes(files) {
  const doc = readSizeTable(fs.readFileSync(docPath, 'utf8'));
  const rel = path.relative(new URL('..', import.meta.url).pathname, docPath);
  const out = [];
  for (const f of files) {
    const kbs = f.gzip / 1024;
    if (!doc.has(f.name)) out.push(`${rel} gives no size for ${f.name}; dist/ serves it at ${kbs.toFixed(1)} KB gzipped`);
    else if (Math.abs(doc.get(f.name) - kbs) > 0.5) out.push(`${rel} gives ${f.name} at ${doc.get(f.name).toFixed(1)} KB gzipped, dist/ serves ${kbs.toFixed(1)} KB`);
  }
  for (const [name, kbs] of doc) if (!files.some((f) => f.name === name)) out.push(`${rel} gives ${name} at ${kbs.toFixed(1)} KB gzipped; dist/ has no such file`);
  return out;
}
// The page's files fetched before the first result was drawn, and before the page was live, by
// the browser's request log: each request's start against both moments, in the wall clock.
async function requestsBeforeRenders(browser, url) {
  const page = await browser.newPage();
  const requests = [];
  page.on('requestfinished', (r) => requests.push(r));
  await page.addInitScript(watchRenders);
  await page.goto(url);
  await page.waitForFunction(() => window.__drawn !== undefined && window.__live !== undefined);
  const [drawn, live] = await page.evaluate(() => [window.__drawn.epoch, window.__live.epoch]);
  // Whatever the page fetches right after its first render (the worker) shows in the log too.
  await page.waitForTimeout(1000);
  await page.close();
  const origin = new URL(url).origin;
  const before = (t) => requests
    .filter((r) => r.timing().startTime <= t)
    .map((r) => new URL(r.url()))
    .filter((u) => u.origin === origin)
    .map((u) => u.pathname.slice(1) || 'index.html');
  return { drawn: before(drawn), live: before(live) };
}

if (stale.length) console.error(`${stale.join('\n')}\nrun ./scripts/size to write docs/performance.md again`);
if (over.length) console.error(`budgets exceeded: ${over.join(', ')}`);
if (stale.length || over.length) process.exit(1);
