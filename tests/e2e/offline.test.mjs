// The service worker caches every asset: with the network off, a reload still loads and plays.
// The lite page's files are cached at install, the full page's (orders ruleset) in the background
// afterwards; then both work offline. The online page, never opened, says it needs the network.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, URL_BASE, shot, attr, territories, clickTerr, waitMyPhase, waitFullCached } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('offline reload still loads and plays', async () => {
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  const page = await context.newPage();
  await page.goto(URL_BASE + '?seed=e2e-offline');
  await page.locator('#quick-start').waitFor();
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await page.click('#quick-start');
  await page.locator('#map').waitFor();
  await waitMyPhase(page, ['setup'], { skip: false });
  const hash = await attr(page, 'data-state-hash');

  await context.setOffline(true);
  await page.reload();
  await page.locator('#map').waitFor({ timeout: 10000 });
  assert.equal(await attr(page, 'data-state-hash'), hash, 'resumed offline at the same state');
  assert.ok(await page.evaluate(() => !!navigator.serviceWorker.controller), 'page is controlled by the service worker');
  const mine = (await territories(page)).find((t) => t.mine);
  await clickTerr(page, mine.key);
  await page.waitForFunction((h) => document.querySelector('#root')?.dataset.stateHash !== h, hash);
  await shot(page, '10-offline-playing');
  await context.close();
});

test('offline after a first visit: a classic game and an orders hot-seat game both start', async () => {
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  const page = await context.newPage();
  // First visit, online: the lite page only, then the full page's files in the background.
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await page.goto(URL_BASE + '?seed=e2e-offline-2');
  await page.locator('#quick-start').waitFor();
  await page.click('#quick-start');
  await page.locator('#map g.terr').first().waitFor();
  assert.ok(!fetched.some((p) => p.includes('/full/')), `the first load stays on the lite page: ${fetched}`);
  await waitFullCached(page);

  await context.setOffline(true);
  // Classic: a new game from the lite page's menu.
  await page.goto(URL_BASE + '?seed=e2e-offline-3');
  await page.click('#menu-btn');
  await page.click('#quick-start');
  // The game in progress is replaced only once the player says so.
  await page.click('#quick-confirm-yes');
  await page.locator('#map g.terr').first().waitFor();
  assert.ok(!page.url().includes('/full/'), 'the classic game stays on the lite page');
  await shot(page, '10b-offline-classic');
  // Orders: New game → Orders goes to the full page, served from the cache.
  await page.click('#menu-btn');
  await page.click('#new-game');
  await page.click('#ruleset-orders');
  await page.waitForURL(/\/full\//);
  await page.locator('#omap').waitFor();
  await page.click('#start-game');
  assert.equal(await attr(page, 'data-phase'), 'orders-movement');
  await page.click('#o-reveal');
  await page.locator('svg.omap [data-key="LON"]').first().waitFor();
  await shot(page, '11-offline-orders');
  // A reload of the full page offline resumes the orders game.
  const hash = await attr(page, 'data-state-hash');
  await page.reload();
  await page.locator('#root[data-screen="play"]').waitFor();
  assert.equal(await attr(page, 'data-state-hash'), hash);
  // Online play (its own page, never opened here) says it needs the network, and the way back.
  await page.click('#menu-btn');
  await page.click('#play-online');
  await page.waitForURL(/\/online\//);
  await page.locator('#offline-note').waitFor();
  assert.match(await page.locator('#offline-note').textContent(), /needs a network connection.*connect/);
  await shot(page, '11a-offline-online-page');
  await context.close();
});
