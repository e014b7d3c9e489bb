// Canvases and embeds as a writer and a phone's reader see them: every canvas drawn at the
// device's pixel ratio (and again when it changes), an embed of one view showing that view, and
// "Copy embed code" giving an embed of what is on screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './serve.mjs';
import { settle } from './look.mjs';

const fx = await setup();

/** A page at `width` CSS px and `scale` device px per CSS px, opened on `query` once `ready` shows. */
async function open(query, { width = 1440, height = 900, scale = 1, ready = '[data-testid=milestone-eviction]' } = {}) {
  const context = await fx.browser.newContext({ locale: 'en-US', reducedMotion: 'reduce', viewport: { width, height }, deviceScaleFactor: scale });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${fx.server.url}${query}`);
  await page.locator(ready).first().waitFor({ timeout: 120_000 });
  await settle(page);
  return { page, errors, context };
}

/** Each canvas matching `selector`: its backing store and its CSS size. */
const sizes = (page, selector) => page.locator(selector).evaluateAll((cs) => cs.map((c) => ({
  width: c.width, height: c.height, cssWidth: c.clientWidth, cssHeight: c.clientHeight,
})));

/** Whether every canvas's backing store is its CSS size times `ratio` (to a device pixel). */
function atRatio(list, ratio) {
  return list.length > 0 && list.every((s) => Math.abs(s.width - s.cssWidth * ratio) <= 1 && Math.abs(s.height - s.cssHeight * ratio) <= 1);
}

test('at a device pixel ratio of 2 every canvas has two device pixels per CSS pixel, and is drawn again when the ratio changes', async () => {
  const { page, errors, context } = await open('', { scale: 2 });
  const timeline = await sizes(page, '.timeline-canvas');
  assert.ok(atRatio(timeline, 2), `the timeline's backing store is its CSS size times 2: ${JSON.stringify(timeline)}`);
  // The ratio changes with the window's size (a zoom, a window moved to another screen): the
  // canvas follows. (Headless Chromium's emulation tells no media query of a ratio alone.)
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1400, height: 900, deviceScaleFactor: 3, mobile: false });
  await page.waitForFunction(() => {
    const c = document.querySelector('.timeline-canvas');
    return Math.abs(c.width - c.clientWidth * 3) <= 1;
  }, null, { timeout: 10_000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a cluster drawn as a grid and an aggregated timeline is sharp at a ratio of 2 too', async () => {
  const { page, errors, context } = await open('?nodes=100&zones=2&web=150', { scale: 2, ready: '.aggregate-canvas' });
  for (const selector of ['.grid-canvas', '.aggregate-canvas']) {
    const list = await sizes(page, selector);
    assert.ok(atRatio(list, 2), `${selector}: ${JSON.stringify(list)}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('an embed of the timeline on a phone shows the timeline: no milestone cards, labels in a third of the width, five ticks', async () => {
  // A short window, so that the document is as tall as what the embed shows (what it posts to
  // its parent as its height).
  const { page, errors, context } = await open('?embed=1&view=timeline', { width: 360, height: 200, scale: 2, ready: '.timeline-canvas' });
  assert.equal(await page.locator('[data-testid^=milestone-]').count(), 0, 'no milestone card');
  assert.equal(await page.getByTestId('playhead').count(), 0, 'no time controls');
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  assert.ok(height < 520, `the embed is ${height} px tall (it was 764 with the cards and the controls)`);
  const canvas = await page.locator('.timeline-canvas').boundingBox();
  const labels = await page.getByTestId('timeline-lanes').boundingBox();
  assert.ok(labels.width * 3 < canvas.width, `the lane labels take ${labels.width} of ${canvas.width} px`);
  // Every lane keeps its full name, for the pointer and for screen readers.
  const names = await page.locator('[data-testid=timeline-lanes] li').evaluateAll((ls) => ls.map((l) => [l.title, l.textContent]));
  assert.ok(names.some(([title]) => /^web-[a-z0-9]+-[a-z0-9]+$/.test(title)), JSON.stringify(names));
  assert.ok(names.every(([title, text]) => title && title === text), JSON.stringify(names));
  // The tick labels over the plot: runs of dark pixels in the axis's strip, apart by more than
  // a glyph's gap.
  const ticks = await page.evaluate((left) => {
    const c = document.querySelector('.timeline-canvas');
    const r = c.width / c.clientWidth;
    const strip = c.getContext('2d').getImageData(0, Math.round(3 * r), c.width, Math.round(14 * r));
    let runs = 0;
    let gap = Infinity;
    for (let x = Math.round(left * r); x < c.width; x++) {
      let dark = false;
      for (let y = 0; y < strip.height && !dark; y++) {
        const i = (y * c.width + x) * 4;
        dark = strip.data[i] < 140 && strip.data[i + 1] < 140 && strip.data[i + 2] < 140 && strip.data[i + 3] > 0;
      }
      if (dark && gap > 6 * r) runs += 1;
      gap = dark ? 0 : gap + 1;
    }
    return runs;
  }, labels.width);
  assert.ok(ticks >= 5, `${ticks} tick labels on the axis`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('an embed shows the milestone cards and the time controls each when its link asks for it', async () => {
  const { page, errors, context } = await open('?embed=1&view=timeline,milestones');
  assert.ok(await page.getByTestId('milestone-eviction').isVisible());
  assert.equal(await page.getByTestId('playhead').count(), 0, 'the cards without the time controls');
  await context.close();
  const again = await open('?embed=1&view=timeline&controls=playback', { ready: '[data-testid=playhead]' });
  assert.ok(await again.page.getByTestId('playhead').isVisible());
  assert.equal(await again.page.locator('[data-testid^=milestone-]').count(), 0, 'the time controls without the cards');
  assert.deepEqual([...errors, ...again.errors], []);
  await again.context.close();
});

test('"Copy embed code" gives an embed of what is on screen: its views, the changed slider, the playhead, the language', async () => {
  const { page, errors, context } = await open('?node-monitor-grace-period=20s&t=1m30s');
  await page.getByText('Copy embed code').click();
  const code = await page.getByTestId('embed-code').inputValue();
  const src = code.match(/<iframe src="([^"]*)"/)[1].replaceAll('&amp;', '&');
  const query = new URL(src).searchParams;
  assert.equal(query.get('embed'), '1');
  assert.equal(query.get('view'), 'milestones,cluster,timeline,breakdown');
  assert.equal(query.get('controls'), 'playback,node-monitor-grace-period');
  assert.equal(query.get('node-monitor-grace-period'), '20s');
  assert.equal(query.get('t'), '1m30s');
  assert.equal(query.get('lang'), 'en');
  // The embed opens on the same run.
  const eviction = await page.getByTestId('milestone-eviction').textContent();
  const embed = await open(`?${query}`);
  assert.equal(await embed.page.getByTestId('milestone-eviction').textContent(), eviction);
  assert.equal(await embed.page.getByTestId('playhead').textContent(), '1m30s');
  assert.equal(await embed.page.getByRole('slider', { name: /node-monitor-grace-period/ }).count(), 1, 'the changed slider');
  assert.deepEqual([...errors, ...embed.errors], []);
  await context.close();
  await embed.context.close();
});

/**
 * A page at `width` CSS px holding `code` (an embed snippet as "Copy embed code" gives it) as its
 * whole body, served beside the playground; its listener is the snippet's own.
 */
async function host(code, width) {
  const context = await fx.browser.newContext({ locale: 'en-US', reducedMotion: 'reduce', viewport: { width, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const address = `${fx.server.url}embed-host.html`;
  await page.route(address, (route) => route.fulfill({
    contentType: 'text/html',
    body: `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head><body style="margin:0">${code}</body></html>`,
  }));
  await page.goto(address);
  const frame = page.frameLocator('iframe');
  await frame.locator('.timeline-canvas').waitFor({ timeout: 120_000 });
  return { page, frame, errors, context };
}

/** The snippet "Copy embed code" gives on the page at `query`. */
async function copiedSnippet(query) {
  const { page, errors, context } = await open(query);
  await page.getByText('Copy embed code').click();
  const code = await page.getByTestId('embed-code').inputValue();
  assert.deepEqual(errors, []);
  await context.close();
  return code;
}

/**
 * Waits until the iframe is as tall as the embed's content (to a pixel) and stays so, and
 * returns both heights: the frame's `height` as the snippet's listener set it, and the content's.
 */
async function fitted(page, frame) {
  let last = null;
  for (let i = 0; i < 100; i++) {
    const framed = Number(await page.locator('iframe').getAttribute('height'));
    const content = await frame.locator('main.layout-embed').evaluate((el) => el.getBoundingClientRect().height);
    if (Math.abs(framed - content) <= 1 && last && last.framed === framed) return { framed, content };
    last = { framed, content };
    await page.waitForTimeout(100);
  }
  assert.fail(`the frame never fitted its content: ${JSON.stringify(last)}`);
}

test('an embed of the timeline alone shrinks its frame to its content at 360 px, through the copied snippet\'s own listener', async () => {
  // The writer edits the copied snippet down to the timeline (the field is there to edit).
  const copied = await copiedSnippet('');
  const code = copied.replace(/view=[^&"]*/, 'view=timeline').replace(/controls=[^&"]*/, 'controls=');
  assert.match(code, /kubelife:height/);
  const { page, frame, errors, context } = await host(code, 360);
  const { framed, content } = await fitted(page, frame);
  // It was never less than the frame's own 600 px (183 px of blank at 360 px).
  assert.ok(framed < 600, `the frame is ${framed} px tall for ${content} px of content`);
  const inner = await frame.locator('html').evaluate((el) => el.clientHeight);
  assert.ok(Math.abs(inner - content) <= 1, `no blank below the content: ${inner} px of frame, ${content} px of content`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('an embed\'s frame follows a resize from 360 to 900 px: the copied snippet\'s frame shrinks as its content does', async () => {
  const code = await copiedSnippet('');
  const { page, frame, errors, context } = await host(code, 360);
  const narrow = await fitted(page, frame);
  await page.setViewportSize({ width: 900, height: 800 });
  await page.waitForFunction((before) => Number(document.querySelector('iframe').height) < before, narrow.framed, { timeout: 10_000 });
  const wide = await fitted(page, frame);
  assert.ok(wide.framed < narrow.framed, `360 px: ${narrow.framed} px tall; 900 px: ${wide.framed} px`);
  // And back: it grows again.
  await page.setViewportSize({ width: 360, height: 800 });
  const again = await fitted(page, frame);
  assert.ok(Math.abs(again.framed - narrow.framed) <= 2, `back at 360 px: ${again.framed} px, first ${narrow.framed} px`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('"open in kubelife" from an embed of one view opens the full page on the same settings', async () => {
  const { page, errors, context } = await open('?embed=1&view=timeline&node-monitor-grace-period=20s&t=1m30s', { ready: '.timeline-canvas' });
  const href = await page.getByRole('link', { name: 'open in kubelife' }).getAttribute('href');
  const query = new URL(href, page.url()).searchParams;
  for (const embedOnly of ['embed', 'view', 'controls']) assert.equal(query.get(embedOnly), null, `${embedOnly}= in ${href}`);
  assert.equal(query.get('node-monitor-grace-period'), '20s');
  assert.equal(query.get('t'), '1m30s');
  const full = await open(`?${query}`);
  assert.equal(await full.page.locator('header.header').count(), 1, 'the full page, with its header');
  assert.ok(await full.page.getByTestId('milestone-eviction').isVisible(), 'and its milestone cards');
  assert.ok(await full.page.getByTestId('playhead').isVisible(), 'and its time controls');
  assert.equal(await full.page.getByTestId('playhead').textContent(), '1m30s');
  assert.deepEqual([...errors, ...full.errors], []);
  await context.close();
  await full.context.close();
});
