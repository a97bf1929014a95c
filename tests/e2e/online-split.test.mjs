// The online page's code in two files (tools/split-online.py, web/split-loader.js): the first
// shows the menu and the lobby; the rest comes in the background. These open the page as a
// player does and check that a game works however the rest arrives: in the background, on the
// spot when a click comes first, or not at all (a message that says what to do).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, URL_BASE, shot, watchErrors } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const ONLINE = URL_BASE + 'online/';
const more = (page) => page.evaluate(() => globalThis.__orbisMore?.state());

test('online page: the lobby comes from the first file, the rest in the background, and a game runs on it', async () => {
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  const wasm = [];
  page.on('response', (r) => { if (r.url().endsWith('.wasm')) wasm.push(new URL(r.url()).pathname.split('/').pop()); });
  await page.goto(ONLINE);
  await page.click('#play-online');
  await page.locator('#online-create').waitFor();
  assert.ok(wasm.some((f) => f.endsWith('_bg.wasm')), `the first file: ${wasm}`);
  await page.waitForFunction(() => globalThis.__orbisMore?.state().ready, null, { timeout: 30000 });
  assert.deepEqual(await more(page), { ready: true, how: 'background' });
  assert.ok(wasm.some((f) => f.endsWith('_more.wasm')), `the rest: ${wasm}`);
  // The rest holds the game: a hot-seat game on this page plays.
  await page.goto(ONLINE);
  await page.click('#quick-start');
  await page.locator('#map').waitFor();
  await page.click('#auto-place');
  await page.waitForFunction(() => document.querySelector('#root').dataset.phase !== 'setup', null, { timeout: 30000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('online page: a click before the rest has arrived loads it there and then', async () => {
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  // The background download never finishes; the request a placeholder makes goes through.
  let asked = 0;
  await page.route('**/*_more.wasm', (route) => {
    asked += 1;
    if (asked === 1) return; // held: the page's fetch never answered
    return route.continue();
  });
  await page.goto(ONLINE);
  await page.locator('#quick-start').waitFor();
  assert.deepEqual(await more(page), { ready: false, how: null });
  await page.click('#quick-start');
  await page.locator('#map').waitFor();
  assert.deepEqual(await more(page), { ready: true, how: 'request' });
  assert.equal(asked, 2);
  assert.deepEqual(errors, []);
  await shot(page, '90-online-split-on-the-spot');
  await context.close();
});

test('online page: when the rest cannot be downloaded, the player is told what to do', async () => {
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  const page = await context.newPage();
  await page.route('**/*_more.wasm', (route) => route.abort('internetdisconnected'));
  await page.goto(ONLINE);
  await page.locator('#quick-start').waitFor();
  await page.click('#quick-start');
  const alert = page.locator('[role=alert]');
  await alert.waitFor();
  assert.match(await alert.textContent(), /could not download the rest of the game\. Check your connection, then reload/);
  await page.locator('#more-reload').waitFor();
  await shot(page, '91-online-split-failed');
  await context.close();
});
