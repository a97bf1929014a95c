// The online and full pages' code in two files (tools/split-page.py, web/split-loader.js): the
// first shows the menu and the lobby (online) or the new-game forms (full); the rest comes in the
// background. These open the pages as a player does and check that a game works however the rest
// arrives: in the background, before the start when the page resumes a game, on the spot when a
// click comes first (the full page: the click waits for it), or not at all (a message that says
// what to do).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, URL_BASE, shot, watchErrors, attr, waitMyPhase, axeCheck } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const ONLINE = URL_BASE + 'online/';
const FULL = URL_BASE + 'full/';
const more = (page) => page.evaluate(() => globalThis.__orbisMore?.state());
// Service workers off: Playwright's routes do not see what a service worker fetches.
const newContext = () => browser.newContext({ viewport: { width: 1024, height: 768 }, serviceWorkers: 'block' });

/** Holds the page's background download of the rest until `release()`; a later request (a
 *  placeholder's, synchronous) goes through and is counted. */
async function holdRest(page) {
  let asked = 0;
  let release = null;
  const released = new Promise((r) => { release = r; });
  await page.route('**/*_more.wasm', async (route) => {
    asked += 1;
    if (asked === 1) await released;
    await route.continue();
  });
  return { release: () => release(), asked: () => asked };
}

test('online page: the lobby works from the first file alone; the rest comes in the background, and a game runs on it', async () => {
  const context = await newContext();
  const page = await context.newPage();
  const errors = watchErrors(page);
  const rest = await holdRest(page);
  await page.goto(ONLINE);
  await page.click('#play-online');
  await page.locator('#online-create').waitFor();
  // What a player does there before joining needs nothing of the rest either.
  await page.fill('#online-name', 'Ada');
  await page.fill('#online-room', 'a-room');
  await page.click('#online-settings summary');
  await page.fill('#online-relays', 'wss://relay.example');
  await page.waitForTimeout(300);
  await axeCheck(page, 'online lobby (before joining)');
  assert.deepEqual(await more(page), { ready: false, how: null }, 'the lobby came without the rest');
  assert.equal(rest.asked(), 1, 'the page asked for the rest once, in the background');
  assert.equal(await page.locator('[role=alert]').count(), 0);
  rest.release();
  await page.waitForFunction(() => globalThis.__orbisMore.state().ready, null, { timeout: 30000 });
  assert.deepEqual(await more(page), { ready: true, how: 'background' });
  // The rest holds the game: a hot-seat game on this page plays.
  await page.click('text=Back');
  await page.click('#quick-start');
  await page.locator('#map').waitFor();
  await page.click('#auto-place');
  await page.waitForFunction(() => document.querySelector('#root')?.dataset.phase !== 'setup', null, { timeout: 30000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('online page: opened for its lobby beside a saved game, it reads the save only on the way to the menu', async () => {
  const context = await newContext();
  const page = await context.newPage();
  const errors = watchErrors(page);
  // A hot-seat game saved on the lite page (the pages share the browser's storage).
  await page.goto(URL_BASE);
  await page.click('#quick-start');
  await page.locator('#map').waitFor();
  await waitMyPhase(page, ['setup'], { skip: false });
  const hash = await attr(page, 'data-state-hash');
  // "Play online…" on another page opens this one with ?open=online.
  const rest = await holdRest(page);
  await page.goto(ONLINE + '?open=online');
  await page.locator('#online-create').waitFor();
  assert.deepEqual(await more(page), { ready: false, how: null }, 'the lobby came without the rest');
  assert.equal(rest.asked(), 1);
  rest.release();
  await page.waitForFunction(() => globalThis.__orbisMore.state().ready, null, { timeout: 30000 });
  await page.click('text=Back');
  await page.click('#continue');
  await page.locator('#map').waitFor();
  assert.equal(await attr(page, 'data-state-hash'), hash, 'the saved game, as it was');
  assert.deepEqual(errors, []);
  await context.close();
});

test('online page: the lobby, with an orders game saved, and back to the menu: Continue resumes the orders game', async () => {
  const context = await newContext();
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(URL_BASE);
  await page.click('#new-game');
  await page.click('#ruleset-orders');
  await page.waitForURL(/\/full\//);
  await page.click('#start-game');
  // The game starts once the page's second part is in: wait for its first position.
  await page.waitForFunction(() => document.querySelector('#root')?.dataset.stateHash);
  const hash = await attr(page, 'data-state-hash');
  await page.goto(ONLINE + '?open=online');
  await page.locator('#online-create').waitFor();
  await page.waitForFunction(() => globalThis.__orbisMore.state().ready, null, { timeout: 30000 });
  await page.click('text=Back');
  // Before: the menu counted only a classic game as saved, and hid Continue.
  await page.click('#continue');
  await page.waitForFunction(() => document.querySelector('#root')?.dataset.phase === 'orders-movement');
  await shot(page, '92-online-back-to-orders-game');
  assert.equal(await attr(page, 'data-state-hash'), hash);
  assert.deepEqual(errors, []);
  await context.close();
});

test("online page: a friend's room link opens the lobby from the first file", async () => {
  const context = await newContext();
  const page = await context.newPage();
  const errors = watchErrors(page);
  const rest = await holdRest(page);
  await page.goto(ONLINE + '#room=a-friends-room&relays=wss://relay.example');
  await page.locator('#online-join').waitFor();
  await page.fill('#online-name', 'Bea');
  await page.waitForTimeout(300);
  assert.equal(await page.inputValue('#online-room'), 'a-friends-room');
  assert.deepEqual(await more(page), { ready: false, how: null }, 'the lobby came without the rest');
  assert.equal(rest.asked(), 1);
  rest.release();
  assert.deepEqual(errors, []);
  await context.close();
});

test('online page: a start that resumes a saved game waits for the rest, fetched the normal way', async () => {
  const context = await newContext();
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(ONLINE);
  await page.click('#quick-start');
  await page.locator('#map').waitFor();
  await waitMyPhase(page, ['setup'], { skip: false });
  const hash = await attr(page, 'data-state-hash');
  let requests = 0;
  page.on('request', (r) => { if (r.url().endsWith('_more.wasm')) requests += 1; });
  await page.reload();
  await page.locator('#map').waitFor();
  assert.equal(await attr(page, 'data-state-hash'), hash, 'resumed at the same state');
  assert.deepEqual(await more(page), { ready: true, how: 'before start' });
  assert.equal(requests, 1, 'fetched once');
  assert.deepEqual(errors, []);
  await context.close();
});

test('online page: a click before the rest has arrived loads it there and then', async () => {
  const context = await newContext();
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

test('online page: when the rest cannot be downloaded, the player is told what to do, once', async () => {
  const context = await newContext();
  const page = await context.newPage();
  let asked = 0;
  await page.route('**/*_more.wasm', (route) => { asked += 1; return route.abort('internetdisconnected'); });
  await page.goto(ONLINE);
  await page.locator('#quick-start').waitFor();
  await page.click('#quick-start');
  const alert = page.locator('[role=alert]');
  await alert.waitFor();
  assert.match(await alert.textContent(), /could not download the rest of the game\. Check your connection, then reload/);
  await page.locator('#more-reload').waitFor();
  // No further synchronous request: later calls fail at once (the page stays responsive).
  const after = asked;
  const thrown = await page.evaluate(() => {
    let n = 0;
    for (let i = 0; i < 3; i++) {
      try { globalThis.__orbisMore.placeholders['1'](); } catch (e) { n += 1; }
    }
    return n;
  });
  assert.equal(thrown, 3, 'each later call fails');
  assert.equal(asked, after, 'without asking the network again');
  await shot(page, '91-online-split-failed');
  await context.close();
});

test('full page: the new-game form works from the first file alone, beside a saved game; the rest comes while it is filled in', async () => {
  const context = await newContext();
  const page = await context.newPage();
  const errors = watchErrors(page);
  // A classic game saved on the lite page, then New game → Orders there opens this page.
  await page.goto(URL_BASE);
  await page.click('#quick-start');
  await page.locator('#map').waitFor();
  await waitMyPhase(page, ['setup'], { skip: false });
  const hash = await attr(page, 'data-state-hash');
  const rest = await holdRest(page);
  await page.goto(FULL + '?open=orders');
  await page.locator('#omap').waitFor();
  // Filling in the form needs nothing of the rest: another ruleset, its number of players.
  await page.click('#ruleset-economy');
  await page.selectOption('#eplayers', '4');
  await page.locator('.seat-row').nth(3).waitFor();
  await page.click('#ruleset-orders');
  await page.waitForTimeout(300);
  assert.deepEqual(await more(page), { ready: false, how: null }, 'the form came without the rest');
  assert.equal(rest.asked(), 1, 'the page asked for the rest once, in the background');
  rest.release();
  await page.waitForFunction(() => globalThis.__orbisMore.state().ready, null, { timeout: 30000 });
  assert.deepEqual(await more(page), { ready: true, how: 'background' });
  // Back on the menu, the saved game is there, as it was.
  await page.click('text=Back');
  await page.click('#continue');
  await page.locator('#map').waitFor();
  assert.equal(await attr(page, 'data-state-hash'), hash, 'the saved game, as it was');
  // A new orders game, then a reload: the start waits for the rest, fetched the normal way.
  await page.click('#menu-btn');
  await page.click('#new-game');
  await page.click('#ruleset-orders');
  await page.click('#start-game');
  // The game starts once the page's second part is in: wait for its first phase.
  await page.waitForFunction(() => document.querySelector('#root')?.dataset.phase === 'orders-movement');
  const orders = await attr(page, 'data-state-hash');
  await page.reload();
  await page.locator('#root[data-screen="play"]').waitFor();
  assert.equal(await attr(page, 'data-state-hash'), orders, 'resumed at the same state');
  assert.deepEqual(await more(page), { ready: true, how: 'before start' });
  assert.deepEqual(errors, []);
  await context.close();
});

test('full page: Start game clicked before the rest has arrived waits for it, without a blocking request', async () => {
  const context = await newContext();
  const page = await context.newPage();
  const errors = watchErrors(page);
  const rest = await holdRest(page);
  await page.goto(FULL + '?open=economy');
  await page.locator('#eplayers').waitFor();
  await page.click('#start-game');
  await page.locator('#start-game[aria-busy="true"]').waitFor();
  assert.deepEqual(await more(page), { ready: false, how: null });
  rest.release();
  await page.waitForFunction(() => document.querySelector('#root')?.dataset.screen !== 'setup', null, { timeout: 30000 });
  assert.equal((await more(page)).ready, true);
  assert.equal(rest.asked(), 1, 'no second, synchronous request');
  assert.deepEqual(errors, []);
  await context.close();
});
