// The first view (src/first_view.rs): the default page's results drawn from the HTML before the
// page's script and wasm arrive, inert until the page takes over in the same place, and shown
// only on the plain address for a reader the page would show English to.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './serve.mjs';
import { compareWithReference, MAX_DIFF_PIXELS } from './look.mjs';

const fx = await setup();
const PAGE_CODE = /kubelife-web[^/]*\.(js|wasm)$/;
const FIRST_EVICTION = '[data-tour=milestone-eviction] .results-value';

/**
 * Opens `query` in a fresh context with the page's script and wasm held back until `release()`,
 * so what shows meanwhile is the HTML alone.
 */
async function openHeld(width, { locale = 'en-US', query = '' } = {}) {
  const context = await fx.browser.newContext({ locale, viewport: { width, height: 900 }, deviceScaleFactor: 1, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  let release;
  const released = new Promise((r) => { release = r; });
  await page.route(PAGE_CODE, async (route) => { await released; await route.continue(); });
  await page.goto(fx.server.url + query);
  await page.evaluate(() => document.fonts.ready.then(() => true));
  return { page, errors, release, close: () => context.close() };
}

// The wrapper lays out as if it were not there (display: contents), so its content is what shows.
const firstViewShown = (page) => page.evaluate(() => document.querySelector('#first-view > *')?.checkVisibility() ?? false);
const live = (page) => page.locator('[data-testid=milestone-eviction]').waitFor({ timeout: 60_000 });

for (const width of [1440, 360]) {
  test(`the plain address shows the default run's results before the page's code arrives (${width} px)`, async () => {
    const { page, errors, release, close } = await openHeld(width);
    await page.locator(FIRST_EVICTION).waitFor();
    assert.equal(await firstViewShown(page), true);
    assert.equal(await page.locator(FIRST_EVICTION).textContent(), '5m49.6s');
    assert.equal(await page.locator('[data-tour=milestone-unknown] .results-value').textContent(), '44.5s');
    assert.equal(await page.locator('#first-view [data-testid]').count(), 0, 'the tests wait for the live page');
    // Inert: nothing takes focus or a click, so nothing a reader does is lost.
    assert.equal(await page.locator('#first-view').evaluate((e) => e.inert), true);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement === document.body), true, 'nothing in the first view takes focus');
    const png = await page.screenshot({ animations: 'disabled', caret: 'hide', fullPage: width === 1440 });
    const result = compareWithReference(`first-view-${width}`, png);
    assert.ok(result.written || result.mismatched <= MAX_DIFF_PIXELS,
      `first-view-${width}: ${result.mismatched} pixels differ; see e2e/screenshots/first-view-${width}.diff.png`);
    release();
    await live(page);
    assert.deepEqual(errors, []);
    await close();
  });
}

test('the page takes over in place: same layout, same scroll, the first view gone', async () => {
  const { page, errors, release, close } = await openHeld(1440);
  await page.locator(FIRST_EVICTION).waitFor();
  const boxes = () => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-tour]')]
    .filter((e) => e.checkVisibility())
    .map((e) => { const r = e.getBoundingClientRect(); return [e.dataset.tour, [r.x, r.y, r.width, r.height].map(Math.round)]; })));
  await page.evaluate(() => window.scrollTo(0, 1200));
  const before = await boxes();
  assert.ok(Object.keys(before).length >= 10, JSON.stringify(before));
  release();
  await live(page);
  assert.equal(await page.locator('#first-view').count(), 0);
  assert.equal(await page.evaluate(() => window.scrollY), 1200);
  assert.deepEqual(await boxes(), before);
  assert.equal(await page.getByTestId('milestone-eviction').textContent(), '5m49.6s');
  assert.deepEqual(errors, []);
  await close();
});

test("a page whose code cannot be fetched says so above the first view", async () => {
  const context = await fx.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.route(PAGE_CODE, (route) => route.abort());
  await page.goto(fx.server.url);
  const banner = page.getByRole('alert');
  await banner.waitFor();
  assert.match(await banner.textContent(), /kubelife could not start .*nothing on the page responds/);
  assert.equal(await firstViewShown(page), true, 'the default results still show');
  await context.close();
});

// The page's own choice (browser::preferred_lang) and the script in index.html must agree.
const OTHERS = [
  { name: "the default page's own link", query: '?v=1', shown: true },
  { name: 'a link with an unknown format', query: '?v=2', shown: false },
  { name: 'a link with settings', query: '?nodes=4', shown: false },
  { name: 'a link picking Chinese', query: '?lang=zh', shown: false },
  { name: 'a Chinese browser', locale: 'zh-CN', shown: false },
  { name: 'a Traditional Chinese browser (the page offers English)', locale: 'zh-TW', shown: true },
  { name: 'a German browser (the page offers English)', locale: 'de-DE', shown: true },
];
for (const { name, query = '', locale = 'en-US', shown } of OTHERS) {
  test(`the first view is ${shown ? '' : 'not '}shown to ${name}`, async () => {
    const { page, errors, release, close } = await openHeld(1440, { locale, query });
    await page.waitForLoadState('load');
    assert.equal(await firstViewShown(page), shown);
    release();
    await live(page);
    assert.equal(await page.locator('#first-view').count(), 0);
    const lang = await page.evaluate(() => document.documentElement.lang);
    assert.equal(lang.startsWith('zh'), query === '?lang=zh' || locale === 'zh-CN', `the page opened in ${lang}`);
    assert.deepEqual(errors, []);
    await close();
  });
}
