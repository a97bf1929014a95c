// Measures the first load (gzipped bytes, as a static host such as GitHub Pages serves them) and
// the time from navigation to an interactive map. Run by scripts/bench-web.sh.
import { launch, URL_BASE } from './helpers.mjs';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, relative } from 'node:path';

const DIST = process.env.ORBIS_DIST || 'dist';
const gz = (p) => gzipSync(readFileSync(p), { level: 9, memLevel: 9 }).length;
const files = (d) => readdirSync(d).flatMap((f) => {
  const p = join(d, f);
  return statSync(p).isDirectory() ? files(p) : [p];
});

const browser = await launch();
const readyScript = () => {
  const t0 = performance.now();
  void t0;
  new MutationObserver((_, obs) => {
    if (document.querySelector('#map g.terr') && !window.__mapReady) {
      window.__mapReady = performance.now();
      obs.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
};

// First visit: what the page itself requests (the service worker then precaches the rest).
let ctx = await browser.newContext();
let page = await ctx.newPage();
const requested = new Set();
page.on('response', (r) => { if (r.url().startsWith(URL_BASE)) requested.add(new URL(r.url()).pathname); });
await page.goto(URL_BASE, { waitUntil: 'load' });
await page.locator('#quick-start').waitFor();
await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
const menuMs = await page.evaluate(() => performance.now());
await page.click('#quick-start');
await page.locator('#map').waitFor();
const save = await page.evaluate(() => localStorage.getItem('orbis.save'));
await ctx.close();

const base = new URL(URL_BASE).pathname;
let pageBytes = 0;
const rows = [];
for (const p of requested) {
  let rel = p.slice(base.length) || 'index.html';
  if (rel.endsWith('/')) rel += 'index.html';
  try {
    const n = gz(join(DIST, rel));
    pageBytes += n;
    rows.push([rel, n]);
  } catch { /* not a file of dist */ }
}
let allBytes = 0;
for (const f of files(DIST)) allBytes += gz(f);

// Time to an interactive map: a fresh browser profile (no cache, no service worker) opening a
// saved game, from navigation start to the first territory in the DOM.
const times = [];
for (let i = 0; i < 5; i++) {
  ctx = await browser.newContext();
  await ctx.addInitScript((s) => { if (!localStorage.getItem('orbis.save')) localStorage.setItem('orbis.save', s); }, save);
  await ctx.addInitScript(readyScript);
  page = await ctx.newPage();
  await page.goto(URL_BASE);
  await page.waitForFunction(() => window.__mapReady);
  times.push(await page.evaluate(() => window.__mapReady));
  await ctx.close();
}
await browser.close();
times.sort((a, b) => a - b);
for (const [f, n] of rows.sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(8)} B gz  ${f}`);
console.log(`first load, requested by the page: ${pageBytes} bytes gzipped (${(pageBytes / 1024).toFixed(1)} KiB)`);
console.log(`first load, including service-worker precache of every file: ${allBytes} bytes gzipped (${(allBytes / 1024).toFixed(1)} KiB)`);
console.log(`time to interactive map (median of ${times.length}, cold profile, localhost): ${times[Math.floor(times.length / 2)].toFixed(0)} ms (min ${times[0].toFixed(0)}, max ${times[times.length - 1].toFixed(0)})`);
console.log(`time to menu on first visit: ${menuMs.toFixed(0)} ms`);
console.log(`budget: 250 KB gzipped, 1000 ms`);
