// Size and speed of the browser client's two pages, run by scripts/bench-web.sh. Serves dist/ itself
// (Cache-Control max-age=600, as GitHub Pages does) and counts every file it sends at its gzipped
// size (as a static host serves it), so the figures include what the service worker fetches.
// Prints, for headless Chromium on localhost:
// - the lite page's first visit: bytes until the map is interactive (Quick start), then the bytes
//   fetched in the background for offline use (the full page's files);
// - opening the full page from the lite page (New game → Orders) on a first visit, and the online
//   page (Play online…): what its lobby needs, and the rest of its code, fetched in the background;
// - time from navigation to an interactive map with a fresh profile (no cache, no service worker):
//   the lite page with a classic autosave, the full page with an orders autosave (entered through
//   the lite page, which sends it on, and directly), and both again with a warm service worker.
import { launch, waitFullCached } from './helpers.mjs';
import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { join, normalize } from 'node:path';

const DIST = process.env.ORBIS_DIST || 'dist';
const RUNS = 5;
const TYPES = { html: 'text/html', js: 'text/javascript', wasm: 'application/wasm', css: 'text/css', svg: 'image/svg+xml', png: 'image/png', webmanifest: 'application/manifest+json', json: 'application/json' };

// --- a static server that tallies what it sends ---
const gzCache = new Map();
const gz = (p) => {
  if (!gzCache.has(p)) gzCache.set(p, gzipSync(readFileSync(p), { level: 9, memLevel: 9 }).length);
  return gzCache.get(p);
};
let sent = []; // [path, gz bytes]
const server = createServer((req, res) => {
  let rel = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^\/+/, '');
  if (rel === '' || rel.endsWith('/')) rel += 'index.html';
  const p = join(DIST, rel);
  try {
    if (!statSync(p).isFile()) throw new Error('not a file');
  } catch {
    res.writeHead(404).end();
    return;
  }
  sent.push([rel, gz(p)]);
  res.writeHead(200, {
    'Content-Type': TYPES[rel.split('.').pop()] || 'application/octet-stream',
    'Cache-Control': 'max-age=600',
  });
  res.end(readFileSync(p));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const BASE = `http://127.0.0.1:${server.address().port}/`;
const take = () => { const s = sent; sent = []; return s; };
const total = (s) => s.reduce((n, [, b]) => n + b, 0);
const kib = (n) => `${n} bytes gzipped (${(n / 1024).toFixed(1)} KiB)`;

const browser = await launch();
const mapReady = () => {
  new MutationObserver((_, obs) => {
    // The classic map, or an orders game's first screen (the pass-the-device curtain).
    if (!window.__mapReady && document.querySelector('#map g.terr, svg.omap [data-key], #o-reveal')) {
      window.__mapReady = performance.now();
      obs.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
};
// --- lite page, first visit: to an interactive map, then the background caching ---
let ctx = await browser.newContext();
let page = await ctx.newPage();
await ctx.addInitScript(mapReady);
take();
await page.goto(BASE);
await page.locator('#quick-start').waitFor();
// The lite page's code comes in two files too (tools/split-page.py): the first shows the menu,
// the rest (the game) is fetched in the background at once; a quick game waits for it.
const menuAll = take();
await page.click('#quick-start');
await page.waitForFunction(() => window.__mapReady);
const liteTti = await page.evaluate(() => window.__mapReady);
const first = [...menuAll, ...take()];
const menuFirst = menuAll.filter(([f]) => !f.endsWith('_more.wasm'));
await waitFullCached(page, 120000);
const later = take();
const classicSave = await page.evaluate(() => localStorage.getItem('orbis.save'));
// Warm: the full page, opened after that visit, comes from the service worker's cache.
await page.evaluate(() => { localStorage.removeItem('orbis.save'); });
await page.goto(BASE + 'full/?open=orders');
await page.click('#start-game');
await page.click('#o-reveal');
await page.locator('svg.omap [data-key]').first().waitFor();
const warmFull = take();
const ordersSave = await page.evaluate(() => localStorage.getItem('orbis.save'));
await ctx.close();

// --- full page on a first visit, opened from the lite page ---
ctx = await browser.newContext();
page = await ctx.newPage();
await page.goto(BASE);
await page.click('#new-game');
take();
await page.click('#ruleset-orders');
await page.locator('#omap').waitFor();
// The rest of the full page's code (tools/split-page.py) comes in the background while the
// form is filled in: counted apart, by name.
await page.waitForFunction(() => globalThis.__orbisMore?.state().ready, null, { timeout: 60000 });
const openFullAll = take();
const openFull = openFullAll.filter(([f]) => !f.endsWith('_more.wasm'));
const fullLater = openFullAll.filter(([f]) => f.endsWith('_more.wasm'));
await ctx.close();

// --- the online page opened from the lite page (Play online…), first visit ---
ctx = await browser.newContext();
page = await ctx.newPage();
await page.goto(BASE);
await page.locator('#play-online').waitFor();
take();
await page.click('#play-online');
await page.locator('#online-create').waitFor();
// The rest of the online page's code (tools/split-online.py) is fetched in the background once
// the page has started, so it may come before the lobby is up: it is counted apart, by name.
await page.waitForFunction(() => globalThis.__orbisMore?.state().ready, null, { timeout: 60000 });
const openOnlineAll = take();
const openOnline = openOnlineAll.filter(([f]) => !f.endsWith('_more.wasm'));
const onlineLater = openOnlineAll.filter(([f]) => f.endsWith('_more.wasm'));
await ctx.close();

// --- time to an interactive map, fresh profiles (cold) and after a visit (warm) ---
async function tti(url, save, warm) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    ctx = await browser.newContext();
    if (warm) {
      const p = await ctx.newPage();
      await p.goto(BASE);
      await p.evaluate(() => navigator.serviceWorker.ready.then(() => true));
      await waitFullCached(p, 120000);
      await p.close();
    }
    await ctx.addInitScript((s) => { if (!sessionStorage.getItem('b')) { sessionStorage.setItem('b', 1); localStorage.setItem('orbis.save', s); } }, save);
    await ctx.addInitScript(mapReady);
    page = await ctx.newPage();
    await page.goto(url);
    await page.waitForFunction(() => window.__mapReady);
    times.push(await page.evaluate(() => window.__mapReady));
    await ctx.close();
  }
  times.sort((a, b) => a - b);
  return `${times[Math.floor(times.length / 2)].toFixed(0)} ms (min ${times[0].toFixed(0)}, max ${times[times.length - 1].toFixed(0)})`;
}
// The redirect case counts from the lite page's navigation: record it before the redirect.
async function ttiVia(save, warm) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    ctx = await browser.newContext();
    if (warm) {
      const p = await ctx.newPage();
      await p.goto(BASE);
      await p.evaluate(() => navigator.serviceWorker.ready.then(() => true));
      await waitFullCached(p, 120000);
      await p.close();
    }
    await ctx.addInitScript((s) => { if (!sessionStorage.getItem('b')) { sessionStorage.setItem('b', 1); localStorage.setItem('orbis.save', s); } }, save);
    await ctx.addInitScript(() => { if (!sessionStorage.getItem('t0')) sessionStorage.setItem('t0', String(performance.timeOrigin)); });
    await ctx.addInitScript(mapReady);
    page = await ctx.newPage();
    await page.goto(BASE);
    await page.waitForURL(/\/full\//);
    await page.waitForFunction(() => window.__mapReady);
    times.push(await page.evaluate(() => performance.timeOrigin + window.__mapReady - Number(sessionStorage.getItem('t0'))));
    await ctx.close();
  }
  times.sort((a, b) => a - b);
  return `${times[Math.floor(times.length / 2)].toFixed(0)} ms (min ${times[0].toFixed(0)}, max ${times[times.length - 1].toFixed(0)})`;
}
const tLiteCold = await tti(BASE, classicSave, false);
const tFullCold = await tti(BASE + 'full/', ordersSave, false);
const tViaCold = await ttiVia(ordersSave, false);
const tLiteWarm = await tti(BASE, classicSave, true);
const tViaWarm = await ttiVia(ordersSave, true);
await browser.close();
server.close();

const files = (s) => {
  const by = new Map();
  for (const [f, n] of s) by.set(f, (by.get(f) || 0) + n);
  return [...by].sort((a, b) => b[1] - a[1]).map(([f, n]) => `    ${String(n).padStart(8)} B gz  ${f}`).join('\n');
};
console.log(`lite page, first visit, its first screen (the menu), without the rest of its code:\n${files(menuFirst)}`);
console.log(`  the menu: ${kib(total(menuFirst))}`);
console.log(`lite page (classic game), first visit, to a quick game's map:\n${files(first)}`);
console.log(`  (a) first load, until the map is interactive: ${kib(total(first))}`);
console.log(`full page (orders ruleset), fetched in the background afterwards for offline use:\n${files(later)}`);
console.log(`  (b) background: ${kib(total(later))}`);
console.log(`  then opening the full page (orders game) with the network: ${kib(total(warmFull))} fetched`);
console.log(`full page opened from the lite page (New game → Orders) before the background caching:\n${files(openFull)}`);
console.log(`  opening the full page, what its new-game form needs: ${kib(total(openFull))}`);
console.log(`full page, the rest of its code, fetched in the background while the form is filled in:\n${files(fullLater)}`);
console.log(`  full page, background: ${kib(total(fullLater))}`);
console.log(`online page opened from the lite page (Play online…), first visit:\n${files(openOnline)}`);
console.log(`  opening the online page, what its lobby needs: ${kib(total(openOnline))}`);
console.log(`online page, the rest of its code, fetched in the background once the page has started:\n${files(onlineLater)}`);
console.log(`  online page, background: ${kib(total(onlineLater))}`);
console.log(`time from navigation to an interactive map, median of ${RUNS}, localhost:`);
console.log(`  (c) lite page, classic autosave, fresh profile:            ${tLiteCold}`);
console.log(`      lite page, classic autosave, after a visit (offline cache): ${tLiteWarm}`);
console.log(`  full page, orders autosave, fresh profile, at full/:       ${tFullCold}`);
console.log(`  full page, orders autosave, fresh profile, via the lite page: ${tViaCold}`);
console.log(`  full page, orders autosave, after a visit, via the lite page: ${tViaWarm}`);
console.log(`budget: first load 250 KB gzipped, 1000 ms`);
