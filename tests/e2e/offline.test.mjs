// The service worker caches every asset: with the network off, a reload still loads and plays.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, URL_BASE, shot, attr, territories, clickTerr, waitMyPhase } from './helpers.mjs';

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
  await page.waitForFunction((h) => document.querySelector('#root').dataset.stateHash !== h, hash);
  await shot(page, '10-offline-playing');
  await context.close();
});
