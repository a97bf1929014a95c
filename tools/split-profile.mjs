// Which functions a page runs to show its first screens: the profile that tools/split-page.py
// splits the page's wasm by. The online page: its menu and its lobby; the full page: its menu,
// the new-game form of each ruleset (filled in) and How to play; the lite page: its menu, the
// classic new-game form and the buttons that send the player on to the other pages. Serves the staged page (Trunk's
// staging directory, with the instrumented wasm of `wasm-split --instrument` in place of the
// page's own) under /orbis/PAGE/ on 127.0.0.1, opens it in headless Chromium the ways players
// reach those screens (below), and writes the profile the instrumented module records each time
// (its `__write_profile` export).
//
// Usage: node tools/split-profile.mjs PAGE STAGING_DIR INSTRUMENTED.wasm OUT (writes OUT-0, OUT-1...),
// PAGE online, full or lite.
// The browser: $ORBIS_CHROMIUM, else the first of /usr/bin/chromium, /usr/bin/google-chrome.
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';

const [pageName, staging, instrumented, out] = process.argv.slice(2);
if (!out || !['online', 'full', 'lite'].includes(pageName)) {
  console.error('usage: split-profile.mjs online|full|lite STAGING_DIR INSTRUMENTED.wasm OUT');
  process.exit(2);
}
const browserPath = process.env.ORBIS_CHROMIUM
  || ['/usr/bin/chromium', '/usr/bin/google-chrome'].find((p) => existsSync(p));
if (!browserPath) {
  console.error('split-profile: no Chromium (apt install chromium, or set ORBIS_CHROMIUM)');
  process.exit(1);
}

const wasmName = readdirSync(staging).find((f) => f.endsWith('_bg.wasm'));
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  let file = null;
  // The lite page is the site's own page; the others sit in a directory of it.
  const dir = pageName === 'lite' ? '/orbis/' : `/orbis/${pageName}/`;
  // The lite page's ways on to the other pages: answered "no content", so the browser stays on
  // the page (whose profile is then read) while its code for leaving has run.
  if (pageName === 'lite' && /^\/orbis\/(full|online)\//.test(path)) {
    res.writeHead(204).end();
    return;
  }
  if (path === dir || path === `${dir}index.html`) file = join(staging, 'index.html');
  else if (path === `${dir}${wasmName}`) file = instrumented;
  else if (path.startsWith(dir) && !path.slice(dir.length).includes('/')) file = join(staging, path.slice(dir.length));
  if (!file || !existsSync(file)) {
    res.writeHead(404).end();
    return;
  }
  let body = readFileSync(file);
  // The glue is patched and the wasm instrumented: their integrity hashes no longer match.
  if (file.endsWith('index.html')) body = body.toString().replace(/ integrity=("[^"]*"|[^ >]*)/g, '');
  res.writeHead(200, { 'content-type': types[extname(file)] || 'application/octet-stream' }).end(body);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/orbis/${pageName === 'lite' ? '' : `${pageName}/`}`;

// The online page, the three ways into the lobby: the page's menu and "Play online…"; "Play
// online…" on another page (`?open=online`); a friend's room link. What a player does in the
// lobby before joining: type a name and a room, open the other ways in and the settings, go back
// to the menu and return.
const lobby = async (page) => {
  await page.locator('#online-create').waitFor({ timeout: 60000 });
  await page.fill('#online-name', 'Ada');
  await page.fill('#online-room', 'a-room');
  await page.click('#online-by-code summary');
  await page.fill('#online-code', 'a code');
  await page.click('#online-settings summary');
  await page.fill('#online-relays', 'wss://relay.example');
  await page.click('text=Back');
  await page.click('#play-online');
  await page.locator('#online-create').waitFor({ timeout: 60000 });
};
// A form as a player fills it in: every choice changed and changed back, every box ticked and
// unticked, every name typed (the full page's form per ruleset, and the lite page's).
const fillEverything = async (page) => {
  for (let i = 0; i < await page.locator('select').count(); i++) {
    const sel = page.locator('select').nth(i);
    const n = await sel.locator('option').count();
    const was = await sel.inputValue();
    if (n > 1) await sel.selectOption({ index: n - 1 });
    await sel.selectOption(was);
  }
  for (let i = 0; i < await page.locator('input[type=checkbox]').count(); i++) {
    await page.locator('input[type=checkbox]').nth(i).click();
    await page.locator('input[type=checkbox]').nth(i).click();
  }
  for (let i = 0; i < await page.locator('input[type=text], input:not([type])').count(); i++) {
    const input = page.locator('input[type=text], input:not([type])').nth(i);
    const was = await input.inputValue();
    await input.fill('Ada');
    await input.press('Tab');
    await input.fill(was);
    await input.press('Tab');
  }
};
// The full page: the new-game form as a player fills it in, each ruleset in turn: every choice
// changed and changed back, every box ticked and unticked, every name typed.
const form = async (page) => {
  await page.locator('#start-game').waitFor({ timeout: 60000 });
  for (const r of ['#ruleset-orders', '#ruleset-economy', '#ruleset-classic']) {
    await page.click(r);
    await fillEverything(page);
  }
};
// How to play over the menu (from a term's link or the menu's button on the lite page): each
// ruleset's book, a search, then back to the menu.
const rules = async (page) => {
  await page.locator('#howto').waitFor({ timeout: 60000 });
  for (const b of ['classic', 'orders', 'economy']) await page.click(`#howto-${b}`);
  await page.fill('#howto-search', 'support');
  await page.click('#howto-back');
  await page.locator('#new-game').waitFor({ timeout: 60000 });
};
// The lite page: its menu as a first visit shows it, each button that sends the player on to the
// full or online page (the page stays: see the server above), and the classic new-game form
// filled in. The games themselves (a quick game, Start game, a saved game) wait for the rest
// (web/split-loader.js).
const liteMenu = async (page) => page.locator('#quick-start').waitFor({ timeout: 60000 });
const liteOn = (...buttons) => async (page) => {
  await liteMenu(page);
  // A button this build lacks (another page's) is left out.
  for (const b of buttons) if (await page.locator(b).count()) await page.click(b);
};
const liteForm = async (page) => {
  await liteOn('#new-game')(page);
  await page.locator('#start-game').waitFor({ timeout: 60000 });
  await fillEverything(page);
  await page.locator('main.setup button', { hasText: 'Back' }).first().click();
  await liteMenu(page);
};
const ENTRIES = {
  online: [
    { path: '', go: async (page) => { await page.locator('#play-online').waitFor({ timeout: 60000 }); await page.click('#play-online'); await lobby(page); } },
    { path: '?open=online', go: lobby },
    { path: '#room=profile-room&relays=wss://relay.example', go: lobby },
  ],
  // The lite page sends a player here for the orders or economy ruleset's form (New game…), or
  // for How to play; a player who opens the page itself sees its menu. A quick game, a lesson,
  // a replay or a saved game wait for the rest (web/split-loader.js).
  full: [
    { path: '', go: async (page) => { await page.locator('#new-game').waitFor({ timeout: 60000 }); await page.click('#new-game'); await form(page); } },
    { path: '?open=orders', go: form },
    { path: '?open=economy', go: form },
    { path: '?open=rules&at=rules-orders-support', go: rules },
  ],
  lite: [
    { path: '', go: liteForm },
    ...['#quick-orders', '#quick-economy', '#learn-to-play', '#learn-orders', '#learn-economy',
      '#how-to-play', '#play-online', '#my-games'].map((b) => ({ path: '', go: liteOn(b) })),
    ...['#setup-how-to-play', '#ruleset-orders', '#ruleset-economy']
      .map((b) => ({ path: '', go: liteOn('#new-game', b) })),
  ],
};
const entries = ENTRIES[pageName];
const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
try {
  for (const [i, entry] of entries.entries()) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url + entry.path);
    await entry.go(page);
    await page.waitForTimeout(500);
    if (errors.length) throw new Error(`the page failed (${entry.path || 'menu'}): ${errors.join('; ')}`);
    const profile = await page.evaluate(() => {
      const x = globalThis.__orbisMore.exports();
      const memory = Object.values(x).find((v) => v instanceof WebAssembly.Memory);
      const pages = 64;
      const at = memory.grow(pages) * 65536;
      const n = x.__write_profile(at, pages * 65536);
      return Array.from(new Uint8Array(memory.buffer, at, n));
    });
    if (profile.length < 16) throw new Error('empty profile');
    writeFileSync(`${out}-${i}`, Buffer.from(profile));
    await context.close();
  }
  console.log(`split-profile: ${pageName}: ${entries.length} profiles (${entries.map((e) => e.path || 'the menu').join(', ')})`);
} finally {
  await browser.close();
  server.close();
}
