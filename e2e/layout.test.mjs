// The page as a person sees it, checked without images: nothing sticks out of a phone's screen,
// nothing covers the exercise checklist, the instructor view has margins, every character has a
// glyph, the playhead reads the milestones' clock, and the timeline's markers work by keyboard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage } from './serve.mjs';
import { openState, horizontalOverflow, coveredExerciseText, charactersWithoutGlyphs } from './look.mjs';

const fx = await setup();

for (const name of ['default-360', 'exercise-4-360', 'compare-seeds-360', 'compare-b-zh-360', 'instructor-zh-360', 'seeds-zh-360', 'import-360', 'embed-timeline-360', 'cloud-zh-360', 'cloud-mhc-zh-360', 'cloud-snr-360', 'cloud-eks-zh-360', 'stopped-zh-360', 'spot-360', 'tune-360', 'tune-zh-360', 'tune-refused-360', 'tune-both-zh-360', 'tune-blip-360']) {
  test(`at 360 px nothing is wider than the screen: ${name}`, async () => {
    const { page, errors, close } = await openState(fx.browser, fx.server.url, name);
    const o = await horizontalOverflow(page);
    assert.ok(o.scrollWidth <= o.innerWidth, `the page is ${o.scrollWidth - o.innerWidth} px wider than the screen: ${o.elements.join(', ')}`);
    assert.deepEqual(o.elements, [], 'elements reaching past the screen');
    assert.deepEqual(errors, []);
    await close();
  });
}

test('at 360 px a long taint wraps inside its node card', async () => {
  const { page, errors, close } = await openState(fx.browser, fx.server.url, 'stopped-zh-360-late');
  const chips = await page.locator('.cluster-taint').evaluateAll((els) => els.map((el) => {
    const card = el.closest('.cluster-node') ?? el.parentElement;
    const [c, k] = [el.getBoundingClientRect(), card.getBoundingClientRect()];
    return { text: el.textContent, inside: c.left >= k.left && c.right <= k.right };
  }));
  assert.ok(chips.some((c) => c.text.includes('node.cloudprovider.kubernetes.io/shutdown')), JSON.stringify(chips));
  assert.deepEqual(chips.filter((c) => !c.inside), [], 'chips reaching past their node card');
  assert.deepEqual(errors, []);
  await close();
});

test('at 360 px the Tune panel\'s target, with its milestone\'s label, stays inside its panel', async () => {
  const { page, errors, close } = await openState(fx.browser, fx.server.url, 'tune-zh-360');
  const { select, box } = await page.locator('[data-testid=tune-milestone]').first().evaluate((el) => ({
    select: el.getBoundingClientRect().right,
    box: el.closest('section.tune').getBoundingClientRect().right,
  }));
  assert.ok(select <= box, `the select ends at ${select} px, its panel at ${box} px`);
  assert.deepEqual(errors, []);
  await close();
});

test('nothing covers the text of the exercise panel', async () => {
  for (const name of ['exercise-4', 'exercise-4-360']) {
    const { page, errors, close } = await openState(fx.browser, fx.server.url, name);
    assert.deepEqual(await coveredExerciseText(page), [], name);
    assert.deepEqual(errors, []);
    await close();
  }
});

test('the instructor view keeps a page margin', async () => {
  const { page, errors, close } = await openState(fx.browser, fx.server.url, 'instructor');
  const lefts = await page.locator('[data-testid=instructor] h2, [data-testid=instructor] > p, [data-testid=instructor] h3')
    .evaluateAll((els) => els.map((e) => [e.textContent.slice(0, 20), e.getBoundingClientRect().left]));
  assert.ok(lefts.length > 8, 'found the heading, the help and each exercise');
  for (const [text, left] of lefts) assert.ok(left >= 12, `"${text}" starts at x = ${left}`);
  assert.deepEqual(errors, []);
  await close();
});

test('every character the page shows has a glyph in the installed fonts', async () => {
  for (const name of ['default-1440', 'zh-1440', 'exercise-4', 'instructor', 'instructor-zh-360', 'compare-b-zh-360', 'cloud-mhc-zh-360', 'cloud-snr-zh-1440', 'cloud-eks-zh-360', 'stopped-zh-360', 'spot-zh-1440', 'tune-zh-1440']) {
    const { page, close } = await openState(fx.browser, fx.server.url, name);
    const { checked, missing } = await charactersWithoutGlyphs(page);
    assert.ok(checked > 40, `${name}: checked ${checked} characters`);
    assert.deepEqual(missing, [], `${name}: characters drawn as empty boxes`);
    await close();
  }
});

test('the playhead reads both clocks, and the milestones say they count from the fault', async () => {
  // The default crash is at 30s and its first eviction 5m49.6s later, at 6m19.6s.
  for (const [lang, after, since] of [['en', 'after the fault', 'fault + 5m49.6s'], ['zh', '故障之后', '故障后 5m49.6s']]) {
    const ctx = await fx.browser.newContext();
    const page = await ctx.newPage();
    await page.goto(`${fx.server.url}?lang=${lang}&t=6m19.6s`);
    const eviction = await page.getByTestId('milestone-eviction').textContent();
    assert.equal(eviction, '5m49.6s');
    assert.equal(await page.getByTestId('playhead').textContent(), '6m19.6s');
    assert.equal(await page.getByTestId('playhead-fault').textContent(), since);
    const cards = await page.locator('[data-tour^=milestone-]').allTextContents();
    // Four for the node and its pods, two for the Service in front of web, one for db-0's volume
    // and one for the database (db-0) Ready again.
    assert.equal(cards.length, 8);
    for (const card of cards) assert.ok(card.includes(after), `${lang}: "${card}" says ${after}`);
    await ctx.close();
  }
});

test('the timeline markers are reachable by keyboard, announce their cause, and Enter seeks', async () => {
  const { page, errors, close } = await openState(fx.browser, fx.server.url, 'default-1440');
  // Tab from the scrubber reaches the markers: one stop for the whole timeline.
  await page.getByRole('slider', { name: 'playhead' }).focus();
  await page.keyboard.press('Tab');
  const group = page.getByRole('group', { name: /timeline markers/ });
  const focusedInGroup = () => group.evaluate((g) => g.contains(document.activeElement) && document.activeElement.tagName === 'BUTTON');
  assert.ok(await focusedInGroup(), 'Tab after the scrubber lands on a marker');
  const markers = await group.getByRole('button').count();
  assert.ok(markers > 5, `${markers} markers`);
  assert.equal(await group.locator('[tabindex="0"]').count(), 1, 'one marker in the tab order');
  // The arrows visit every marker once; each one's cause is announced.
  const visited = new Set();
  const announced = [];
  for (let i = 0; i < markers; i++) {
    visited.add(await page.evaluate(() => document.activeElement.getAttribute('aria-label')));
    announced.push(await page.getByTestId('timeline-announce').textContent());
    await page.keyboard.press('ArrowRight');
  }
  assert.equal(visited.size, markers, 'every marker visited');
  assert.ok(announced.every((a) => a.length > 20), 'every marker announced');
  const unknown = announced.find((a) => /^node-1 NodeUnknown at /.test(a));
  assert.match(unknown ?? '', /Ready=Unknown.*node-monitor-grace-period/, 'the Unknown marker says why');
  assert.equal(await page.locator('.timeline-tip').textContent(), announced[announced.length - 1], 'the tooltip shows it too');
  // Down moves to another lane; Enter moves the playhead to the focused marker.
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  const label = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  await page.keyboard.press('Enter');
  const at = /at (\S+)$/.exec(label)[1];
  assert.equal(await page.getByTestId('playhead').textContent(), at, `Enter on "${label}"`);
  assert.ok(await focusedInGroup(), 'the marker keeps the focus');
  assert.deepEqual(errors, []);
  await close();
});

test('on a phone the headline milestones stay in reach while tuning', async () => {
  const { page, errors } = await openPage(fx.browser, fx.server.url, 360);
  const strip = page.getByTestId('strip');
  const slider = page.getByRole('slider', { name: /node-monitor-grace-period/ }).first();
  await slider.scrollIntoViewIfNeeded();
  // The slider is far below the cards; the strip is on screen beside it.
  const box = await strip.boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= 900, JSON.stringify(box));
  const eviction = await page.getByTestId('milestone-eviction').textContent();
  assert.match(await strip.textContent(), new RegExp(`first eviction ${eviction.replace('.', '\\.')}`));
  await slider.fill('20');
  await page.waitForFunction((old) => !document.querySelector('[data-testid=strip]').textContent.includes(old), eviction);
  const after = await page.getByTestId('milestone-eviction').textContent();
  assert.match(await strip.textContent(), new RegExp(`first eviction ${after.replace('.', '\\.')}`));
  // Wide screens show the results beside the controls: no strip.
  await page.setViewportSize({ width: 1280, height: 900 });
  assert.equal(await strip.isVisible(), false);
  // The event log scrolls with the page on a phone, not in a box of its own.
  await page.setViewportSize({ width: 360, height: 900 });
  assert.equal(await page.locator('.events').evaluate((e) => getComputedStyle(e).overflowY), 'visible');
  assert.deepEqual(errors, []);
  await page.close();
});
