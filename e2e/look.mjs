// Helpers for the tests that look at the page as a person does: the page states they look at,
// opened the same way every time (fixed viewport, reduced motion, fonts loaded, nothing playing),
// screenshots compared with committed references, an axe-core audit, and layout measurements.
import fs from 'node:fs';
import { PNG } from '../tools/node_modules/pngjs/lib/png.js';
import pixelmatch from '../tools/node_modules/pixelmatch/index.js';

const REFERENCES = new URL('./screenshots/', import.meta.url);
const AXE = new URL('../tools/node_modules/axe-core/axe.min.js', import.meta.url).pathname;

/** A 5,000-node cluster whose zone-b loses power at 2m0s, at 25m0s of a 30-minute run. */
const SCALE = '?nodes=5000&zones=3&web=15000&zone-outage=zone-b:2m0s&fault=node-2:NodeCrash:120&duration-seconds=1800&t=25m';

/** 1,000 nodes whose zone-b loses power at 1m0s, at 2m55s, when the late Unknown marks come. */
const LATE_MARKS = '?nodes=1000&zones=3&web=2000&zone-outage=zone-b:1m0s&t=2m55s';

/**
 * The page states the screenshot, layout and accessibility tests look at: a query, a viewport
 * (and its device pixel ratio, `scale`, 1 unless given), what shows once the page is ready
 * (`ready`, a selector; the milestone cards unless given) and what to do once the page is open.
 */
/** The target of the Tune panel's states. */
const TUNE = 'target=firstReplacementReady:60s:p95';
const LIMITS = 'max-writes-per-min=600&writes-at-nodes=5000';

export const STATES = {
  'default-1440': { query: '', width: 1440, height: 900 },
  'default-360': { query: '', width: 360, height: 800 },
  'zh-1440': { query: '?lang=zh', width: 1440, height: 900 },
  'exercise-4': { query: '?exercise=4', width: 1440, height: 900 },
  'exercise-4-360': { query: '?exercise=4', width: 360, height: 800 },
  'compare-seeds': { query: '', width: 1440, height: 900, prepare: openCompareWithSeeds },
  'compare-seeds-360': { query: '', width: 360, height: 800, prepare: openCompareWithSeeds },
  'embed': { query: '?embed=1', width: 800, height: 600 },
  // An embed of the timeline alone on a phone with a HiDPI screen: the lanes, the playhead and
  // nothing else.
  'embed-timeline-360': { query: '?embed=1&view=timeline', width: 360, height: 800, scale: 2, ready: '[data-testid=timeline-lanes] li' },
  // The default page's timeline on a HiDPI screen (two device pixels per CSS pixel).
  'default-1440-dpr2': { query: '', width: 1440, height: 900, scale: 2 },
  'instructor': { query: '?instructor=1', width: 1440, height: 900 },
  // Each exercise with its explanation and documented solution inline, in Chinese on a phone.
  'instructor-zh-360': { query: '?instructor=1&lang=zh', width: 360, height: 800 },
  // Exercise 13 opens side B (the blip): B's panel has every control of A's, under the real flag names.
  'compare-b-1440': { query: '?exercise=13', width: 1440, height: 900 },
  'compare-b-zh-360': { query: '?exercise=13&lang=zh', width: 360, height: 800 },
  // A Service, and a database whose volume moves after the out-of-service taint at 7m0s.
  'volumes-1440': { query: '?out-of-service=420&t=12m', width: 1440, height: 900 },
  'volumes-360': { query: '?out-of-service=420&t=12m', width: 360, height: 800 },
  'exercise-10': { query: '?exercise=10', width: 1440, height: 900 },
  'partition-1440': { query: '?fault=node-1:NetworkPartition:30&fault-nodes=3', width: 1440, height: 900 },
  // 5,000 nodes losing zone-b (the scale test's link): the grid and the aggregated timeline.
  'scale-1440': { query: SCALE, width: 1440, height: 900 },
  'scale-360': { query: SCALE, width: 360, height: 800 },
  // A log longer than a page, at the playhead where zone-b's late Unknown marks are.
  'events-1440': { query: LATE_MARKS, width: 1440, height: 900 },
  'events-360': { query: LATE_MARKS, width: 360, height: 800 },
  // One configuration's 200 seeds, with the out-of-service taint at 7m0s so that the volume and
  // the database come back: a histogram for every milestone card.
  'seeds-1440': { query: '?out-of-service=420', width: 1440, height: 900, prepare: runSeeds },
  'seeds-zh-360': { query: '?lang=zh&out-of-service=420', width: 360, height: 800, prepare: runSeeds },
  // On a cloud with a remediator: the instance faults' Node deletion and remediation cards, and
  // the "Where does it run?" and "What repairs nodes?" controls.
  'cloud-aws-1440': { query: '?cloud=aws&remediation=eks&fault=node-1:InstanceTerminated:30', width: 1440, height: 900 },
  'cloud-zh-360': { query: '?lang=zh&cloud=gcp&remediation=gke&fault=node-1:SpotInterruption:30', width: 360, height: 800 },
  // A Cluster API MachineHealthCheck at 40% maxUnhealthy on bare metal: the remediation card.
  'cloud-mhc-1440': { query: '?remediation=mhc&max-unhealthy=40%25', width: 1440, height: 900 },
  'cloud-mhc-zh-360': { query: '?lang=zh&remediation=mhc&max-unhealthy=40%25', width: 360, height: 800 },
  // Self Node Remediation's minHealthy and strategy; EKS's breaker in Chinese on a phone.
  'cloud-snr-zh-1440': { query: '?lang=zh&remediation=snr&min-healthy=60%25&strategy=OutOfServiceTaint', width: 1440, height: 900 },
  'cloud-snr-360': { query: '?remediation=snr&min-healthy=60%25&strategy=OutOfServiceTaint', width: 360, height: 800 },
  'cloud-eks-zh-360': { query: '?lang=zh&cloud=aws&remediation=eks&max-unhealthy=50%25&fault=node-1:InstanceTerminated:30', width: 360, height: 800 },
  // An instance stopped on AWS (the shutdown taint, the Node kept) and a spot interruption with
  // its notice set.
  'stopped-1440': { query: '?cloud=aws&fault=node-1:InstanceStopped:30', width: 1440, height: 900 },
  'stopped-zh-360': { query: '?lang=zh&cloud=aws&fault=node-1:InstanceStopped:30', width: 360, height: 800 },
  // Late in the same run, when node-1 carries node.cloudprovider.kubernetes.io/shutdown:NoSchedule.
  'stopped-zh-360-late': { query: '?lang=zh&cloud=aws&fault=node-1:InstanceStopped:30&t=10m0s', width: 360, height: 800, scale: 2 },
  'spot-zh-1440': { query: '?lang=zh&cloud=aws&fault=node-1:SpotInterruption:30&notice=1m0s', width: 1440, height: 900 },
  'spot-360': { query: '?cloud=aws&fault=node-1:SpotInterruption:30&notice=1m0s', width: 360, height: 800 },
  'import-1440': { query: '', width: 1440, height: 900, prepare: importCluster },
  'import-360': { query: '', width: 360, height: 800, prepare: importCluster },
  // "Tune for a target" after a search for the link's target: the scatter and the front.
  'tune-1440': { query: `?${TUNE}`, width: 1440, height: 900, prepare: runSearch },
  'tune-360': { query: `?${TUNE}`, width: 360, height: 800, prepare: runSearch },
  'tune-zh-1440': { query: `?lang=zh&${TUNE}`, width: 1440, height: 900, prepare: runSearch },
  'tune-zh-360': { query: `?lang=zh&${TUNE}`, width: 360, height: 800, prepare: runSearch },
  // Exercise 13 with side B open: each front point can also be applied to both sides.
  'tune-both-1440': { query: `?exercise=13&${TUNE}`, width: 1440, height: 900, prepare: runSearch },
  'tune-both-zh-360': { query: `?lang=zh&exercise=13&${TUNE}`, width: 360, height: 800, prepare: runSearch },
  // The constraints from the link, and a blip the search cannot use: named, marked, kept.
  'tune-refused-360': { query: `?${TUNE}&${LIMITS}`, width: 360, height: 800, prepare: refuseBlip },
  'tune-refused-zh-1440': { query: `?lang=zh&${TUNE}&${LIMITS}`, width: 1440, height: 900, prepare: refuseBlip },
  // A 2m blip outlasts every grace period the search tries: the answer names blip safety.
  'tune-blip-360': { query: '?target=firstReplacementReady:10m:p50', width: 360, height: 800, prepare: longBlip },
  'tune-blip-zh-1440': { query: '?lang=zh&target=firstReplacementReady:10m:p50', width: 1440, height: 900, prepare: longBlip },
};

/** Searches with a 2m blip, which no candidate rides out, and brings what it says into view. */
async function longBlip(page) {
  await page.getByTestId('tune-blip').fill('2m');
  await page.getByTestId('tune-blip').press('Enter');
  await search(page, 'tune-unmet');
  await page.mouse.move(0, 0);
  await page.getByTestId('tune-unmet').scrollIntoViewIfNeeded();
}

/** Types a blip the search cannot use, so the panel names it. */
async function refuseBlip(page) {
  await page.getByTestId('tune-blip').fill('soon');
  await page.getByTestId('tune-blip').press('Enter');
  await page.getByTestId('tune-refused').waitFor();
  await page.getByTestId('tune-panel').scrollIntoViewIfNeeded();
}

/**
 * Presses the Tune panel's Search and waits for `testid`. On a machine slow enough that the
 * search's first runs put it over a minute, the panel stops to ask (`tune-run-anyway`): the
 * search is confirmed, as a reader would.
 */
export async function search(page, testid) {
  await page.getByTestId('tune-run').click();
  const done = page.getByTestId(testid).first();
  const anyway = page.getByTestId('tune-run-anyway');
  await done.or(anyway).waitFor({ timeout: 600_000 });
  if (await anyway.isVisible()) {
    await anyway.click();
    await done.waitFor({ timeout: 600_000 });
  }
}

/** Runs the Tune panel's search (in any language) and brings the panel into view. */
async function runSearch(page) {
  await search(page, 'tune-front');
  // The list grows under the pointer left on "Search": move it off, so that no point is drawn hovered.
  await page.mouse.move(0, 0);
  await page.getByTestId('tune-panel').scrollIntoViewIfNeeded();
}

/** Pastes a kubeadm configuration and a node list into the import panel, so its report shows. */
async function importCluster(page) {
  const read = (rel) => fs.readFileSync(new URL(rel, import.meta.url), 'utf8');
  await page.getByTestId('import-text').fill(read('../crates/engine/tests/fixtures/import/kubeadm-1.31.yaml'));
  await page.getByTestId('import-name').fill('kubeadm-config.yaml');
  await page.getByTestId('import-apply').click();
  await page.getByTestId('import-text').fill(read('./fixtures/eks-nodelist-2-zones.json'));
  await page.getByTestId('import-name').fill('nodes.json');
  await page.getByTestId('import-apply').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid^=node-state-]').length === 2);
}

/** Runs the 200 seeds of the configuration shown (in any language). */
async function runSeeds(page) {
  await page.getByTestId('seeds-run').click();
  await page.getByTestId('seeds').waitFor({ timeout: 120_000 });
}

/** Turns compare mode on and runs the 200 seeds, so both histograms show. */
async function openCompareWithSeeds(page) {
  await page.getByRole('button', { name: 'compare with B' }).click();
  await page.getByRole('button', { name: 'run 200 seeds' }).click();
  await page.getByTestId('histogram-b').first().waitFor();
  // The pointer stays where the button was, and the panel grows under it: a slider that comes to
  // lie there is drawn hovered or not depending on when Chromium notices. Move it off the page.
  await page.mouse.move(0, 0);
}

/**
 * Opens a state in a fresh English browser context with reduced motion, waits until the page
 * is drawn and its fonts are loaded, and returns { page, errors, close }.
 */
export async function openState(browser, baseUrl, name) {
  const state = STATES[name];
  const context = await browser.newContext({
    locale: 'en-US',
    reducedMotion: 'reduce',
    viewport: { width: state.width, height: state.height },
    deviceScaleFactor: state.scale ?? 1,
  });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${baseUrl}${state.query}`);
  await page.locator(state.ready ?? '[data-testid=milestone-eviction], [data-testid=instructor]').first().waitFor({ timeout: 120_000 });
  if (state.prepare) await state.prepare(page);
  await settle(page);
  return { page, errors, close: () => context.close() };
}

/**
 * Waits until the engine's worker has no run under way and the exercises' texts are in, then for
 * the fonts and two animation
 * frames, so effects (the timeline canvas) have drawn.
 */
export async function settle(page) {
  // A run under way, or an exercise whose texts are still on their way.
  await page.waitForFunction(() => !document.querySelector('[data-testid=running], [data-testid=exercise][aria-busy=true], [data-testid=instructor][aria-busy=true]'));
  // The Export panel fetches its YAML when it comes near the viewport: bring it there and back,
  // so that a full-page screenshot always shows it.
  if (await page.getByTestId('export-panel').count()) {
    const y = await page.evaluate(() => window.scrollY);
    await page.getByTestId('export-panel').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector('[data-testid=export-panel]').dataset.ready === 'true');
    await page.evaluate((y) => window.scrollTo(0, y), y);
  }
  await page.evaluate(() => document.fonts.ready.then(() => true));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Pixels that may differ before a comparison fails (anti-aliasing aside, rendering is exact). */
export const MAX_DIFF_PIXELS = 20;

/**
 * Compares a PNG screenshot with the committed reference `e2e/screenshots/<name>.png`. A missing
 * reference, or UPDATE_SCREENSHOTS=1, writes it. On a mismatch the actual image and the diff
 * are written beside the reference (`<name>.actual.png`, `<name>.diff.png`, ignored by git).
 * Returns { written } or { mismatched, width, height }.
 */
export function compareWithReference(name, png) {
  fs.mkdirSync(REFERENCES, { recursive: true });
  const ref = new URL(`${name}.png`, REFERENCES);
  const actualPath = new URL(`${name}.actual.png`, REFERENCES);
  const diffPath = new URL(`${name}.diff.png`, REFERENCES);
  fs.rmSync(actualPath, { force: true });
  fs.rmSync(diffPath, { force: true });
  if (process.env.UPDATE_SCREENSHOTS === '1' || !fs.existsSync(ref)) {
    fs.writeFileSync(ref, png);
    return { written: true };
  }
  const expected = PNG.sync.read(fs.readFileSync(ref));
  const actual = PNG.sync.read(png);
  const width = Math.max(expected.width, actual.width);
  const height = Math.max(expected.height, actual.height);
  const diff = new PNG({ width, height });
  const mismatched = pixelmatch(pad(expected, width, height), pad(actual, width, height), diff.data, width, height, { threshold: 0.1 });
  const sizeChanged = expected.width !== actual.width || expected.height !== actual.height;
  if (mismatched > MAX_DIFF_PIXELS || sizeChanged) {
    fs.writeFileSync(actualPath, png);
    fs.writeFileSync(diffPath, PNG.sync.write(diff));
  }
  return {
    mismatched,
    sizeChanged: sizeChanged ? `${expected.width}×${expected.height} → ${actual.width}×${actual.height}` : null,
    width,
    height,
  };
}

/** The image's pixels on a canvas of `width` × `height`, the rest transparent. */
function pad(png, width, height) {
  if (png.width === width && png.height === height) return png.data;
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < png.height; y++) {
    png.data.copy(out, y * width * 4, y * png.width * 4, (y + 1) * png.width * 4);
  }
  return out;
}

/** Runs axe-core in the page and returns the violations of impact serious or critical. */
export async function seriousViolations(page) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
}

/**
 * What sticks out of the viewport horizontally: the document's scroll width against the window,
 * and every element whose box reaches past either edge (ignoring what an overflow container
 * scrolls or clips, and what is visually hidden).
 */
export async function horizontalOverflow(page) {
  return page.evaluate(() => {
    const vw = window.innerWidth;
    const clipped = (el) => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (s.overflowX !== 'visible' && p !== document.documentElement && p !== document.body) return true;
      }
      return false;
    };
    const out = [];
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height <= 1) continue;
      if ((r.right > vw + 0.5 || r.left < -0.5) && !clipped(el)) {
        out.push(`${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''} [${Math.round(r.left)}, ${Math.round(r.right)}]`);
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: vw, elements: out.slice(0, 10) };
  });
}

/**
 * What covers the exercise panel's text: every element positioned absolutely or fixed (bigger
 * than a pixel, so visually hidden text does not count) whose box overlaps a line of text in the
 * panel without containing it, and every point of a text line where something else is on top.
 */
export async function coveredExerciseText(page) {
  return page.evaluate(() => {
    const panel = document.querySelector('[data-testid=exercise]');
    if (!panel) return ['no exercise panel'];
    const lines = [];
    const walker = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent.trim() || n.parentElement.closest('.visually-hidden')) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) if (r.width > 0 && r.height > 0) lines.push({ node: n, r });
    }
    const out = [];
    const name = (el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
    const positioned = [...document.querySelectorAll('*')].filter((el) => {
      const s = getComputedStyle(el);
      const b = el.getBoundingClientRect();
      return (s.position === 'absolute' || s.position === 'fixed') && b.width > 2 && b.height > 2;
    });
    for (const el of positioned) {
      const b = el.getBoundingClientRect();
      for (const { node, r } of lines) {
        const overlap = b.left < r.right && b.right > r.left && b.top < r.bottom && b.bottom > r.top;
        if (overlap && !el.contains(node)) out.push(`${name(el)} covers "${node.textContent.trim().slice(0, 30)}"`);
      }
    }
    for (const { node, r } of lines) {
      for (const x of [r.left + 2, (r.left + r.right) / 2, r.right - 2]) {
        const hit = document.elementFromPoint(x, (r.top + r.bottom) / 2);
        if (hit && hit !== node.parentElement) {
          out.push(`${name(hit)} is on top of "${node.textContent.trim().slice(0, 30)}" at x=${Math.round(x)}`);
        }
      }
    }
    return [...new Set(out)];
  });
}

/**
 * The characters on the page that no installed font can draw: each character of the visible
 * text (and of generated content) drawn in its element's font on a canvas, compared with the
 * box drawn for a code point no font has.
 */
export async function charactersWithoutGlyphs(page) {
  return page.evaluate(() => {
    const seen = new Map();
    const add = (text, el) => {
      for (const c of text) if (c.trim() && !seen.has(c)) seen.set(c, getComputedStyle(el).fontFamily);
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) add(n.textContent, n.parentElement);
    for (const el of document.body.querySelectorAll('*')) {
      for (const pseudo of ['::before', '::after']) {
        const content = getComputedStyle(el, pseudo).content;
        if (content && content.startsWith('"')) add(content.slice(1, -1), el);
      }
    }
    const canvas = document.createElement('canvas');
    canvas.width = 48;
    canvas.height = 48;
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    const draw = (c, family) => {
      ctx.clearRect(0, 0, 48, 48);
      ctx.font = `32px ${family}`;
      ctx.fillText(c, 4, 36);
      return ctx.getImageData(0, 0, 48, 48).data.join(',');
    };
    const missing = [];
    for (const [c, family] of seen) {
      // U+0378 is unassigned: every font lacks it, so it draws as the missing-glyph box.
      const box = draw('\u0378', family);
      if (box === draw(' ', family)) return { checked: 0, missing: [`no visible missing-glyph box in ${family}`] };
      if (draw(c, family) === box) missing.push(`${c} (U+${c.codePointAt(0).toString(16).toUpperCase()})`);
    }
    return { checked: seen.size, missing };
  });
}
