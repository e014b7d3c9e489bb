// A static file server for the built dist/ on 127.0.0.1 only, for tests and budget checks.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json', '.txt': 'text/plain; charset=utf-8' };

/** Serves `dir` at `prefix` (for example "/" or "/docs/kubelife/") on a free port; resolves to { url, close }. */
export function serve(dir, prefix = '/') {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (!url.pathname.startsWith(prefix)) { res.writeHead(404).end(); return; }
    let rel = decodeURIComponent(url.pathname.slice(prefix.length)) || 'index.html';
    const file = path.join(dir, path.normalize(rel).replace(/^(\.\.[/\\])+/, ''));
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404).end(); return; }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    resolve({ url: `http://127.0.0.1:${server.address().port}${prefix}`, close: () => new Promise((r) => server.close(r)) });
  }));
}

/** Launches Debian's Chromium headless through playwright-core; never downloads a browser. */
export async function launch() {
  const { chromium } = await import('../tools/node_modules/playwright-core/index.mjs');
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/**
 * Registers node:test hooks that serve the built dist/ and launch the browser for a test file;
 * the returned object gains `server` and `browser` once the hooks have run.
 */
export async function setup() {
  const { before, after } = await import('node:test');
  const fixture = {};
  before(async () => {
    fixture.server = await serve(new URL('../dist/', import.meta.url).pathname);
    fixture.browser = await launch();
  });
  after(async () => {
    await fixture.browser?.close();
    await fixture.server?.close();
  });
  return fixture;
}

/**
 * Opens `url` in a new page of `target` (a browser or a browser context), collects console and
 * page errors into `errors`, and waits until the milestones are shown and no run is under way.
 */
export async function openPage(target, url, width = 1280) {
  const page = await target.newPage();
  await page.setViewportSize({ width, height: 900 });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.getByTestId('milestone-eviction').first().waitFor();
  // A compare side or an exercise's B may still be running in the engine's worker.
  await page.waitForFunction(() => !document.querySelector('[data-testid=running]'));
  return { page, errors };
}
