// Budget checks of the release build, printed as figures: bundle size, first render, and
// re-simulation time inside the page. Exits non-zero when a budget is exceeded.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve, launch } from './serve.mjs';

const dist = new URL('../dist/', import.meta.url).pathname;
const budgets = { gzipKB: 350, firstRenderMs: 1000, resimDefaultMs: 2, resim1000Ms: 100 };
const over = [];
const check = (name, value, limit, unit) => {
  const ok = value <= limit;
  if (!ok) over.push(name);
  console.log(`${name.padEnd(34)} ${value.toFixed(unit === 'KB' ? 1 : 2).padStart(9)} ${unit}  (budget ${limit} ${unit}) ${ok ? 'ok' : 'OVER'}`);
};

let gz = 0;
for (const f of fs.readdirSync(dist).filter((f) => /\.(wasm|js|css)$/.test(f))) {
  const size = zlib.gzipSync(fs.readFileSync(path.join(dist, f)), { level: 9 }).length;
  console.log(`  ${f}: ${(size / 1024).toFixed(1)} KB gzipped`);
  gz += size;
}
check('dist/ gzipped (wasm + js + css)', gz / 1024, budgets.gzipKB, 'KB');

const server = await serve(dist);
const browser = await launch();
try {
  const firsts = [];
  for (let i = 0; i < 5; i++) {
    const page = await browser.newPage();
    await page.addInitScript(() => {
      new MutationObserver((_, obs) => {
        if (document.querySelector('[data-testid=milestone-eviction]')) {
          window.__firstRender = performance.now();
          obs.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(server.url);
    await page.waitForFunction(() => window.__firstRender !== undefined);
    firsts.push(await page.evaluate(() => window.__firstRender));
    await page.close();
  }
  firsts.sort((a, b) => a - b);
  check('first render from navigation (median of 5)', firsts[2], budgets.firstRenderMs, 'ms');

  const page = await browser.newPage();
  await page.goto(server.url);
  await page.waitForFunction(() => window.wasmBindings?.kubelife_bench);
  await page.evaluate(() => window.wasmBindings.kubelife_bench(3, 20));
  check('re-simulation, default scenario', await page.evaluate(() => window.wasmBindings.kubelife_bench(3, 200)), budgets.resimDefaultMs, 'ms');
  check('re-simulation, 1,000 nodes (3,000 pods)', await page.evaluate(() => window.wasmBindings.kubelife_bench(1000, 5)), budgets.resim1000Ms, 'ms');
} finally {
  await browser.close();
  await server.close();
}
if (over.length) {
  console.error(`budgets exceeded: ${over.join(', ')}`);
  process.exit(1);
}
