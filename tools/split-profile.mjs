// Which functions the online page runs to show its menu and its lobby: the profile that
// tools/split-online.py splits the page's wasm by. Serves the staged page (Trunk's staging
// directory, with the instrumented wasm of `wasm-split --instrument` in place of the page's own)
// under /orbis/online/ on 127.0.0.1, opens it in headless Chromium the ways players reach the
// lobby's form (below), and writes the profile the instrumented module records each time (its
// `__write_profile` export).
//
// Usage: node tools/split-profile.mjs STAGING_DIR INSTRUMENTED.wasm OUT (writes OUT-0, OUT-1...)
// The browser: $ORBIS_CHROMIUM, else the first of /usr/bin/chromium, /usr/bin/google-chrome.
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';

const [staging, instrumented, out] = process.argv.slice(2);
if (!out) {
  console.error('usage: split-profile.mjs STAGING_DIR INSTRUMENTED.wasm OUT');
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
  if (path === '/orbis/online/' || path === '/orbis/online/index.html') file = join(staging, 'index.html');
  else if (path === `/orbis/online/${wasmName}`) file = instrumented;
  else if (path.startsWith('/orbis/online/') && !path.slice(14).includes('/')) file = join(staging, path.slice(14));
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
const url = `http://127.0.0.1:${server.address().port}/orbis/online/`;

// The three ways into the lobby: the page's menu and "Play online…"; "Play online…" on another
// page (`?open=online`); a friend's room link. Each run writes its own profile (OUT-0, OUT-1,
// OUT-2), merged by tools/split-online.py.
const entries = [
  { path: '', go: async (page) => { await page.locator('#play-online').waitFor({ timeout: 60000 }); await page.click('#play-online'); } },
  { path: '?open=online', go: async () => {} },
  { path: '#room=profile-room&relays=wss://relay.example', go: async () => {} },
];
const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
try {
  for (const [i, entry] of entries.entries()) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url + entry.path);
    await entry.go(page);
    await page.locator('#online-create').waitFor({ timeout: 60000 });
    // What a player does in the lobby before joining: type a name and a room, open the other
    // ways in and the settings, go back to the menu and return.
    await page.fill('#online-name', 'Ada');
    await page.fill('#online-room', 'a-room');
    await page.click('#online-by-code summary');
    await page.fill('#online-code', 'a code');
    await page.click('#online-settings summary');
    await page.fill('#online-relays', 'wss://relay.example');
    await page.click('text=Back');
    await page.click('#play-online');
    await page.locator('#online-create').waitFor({ timeout: 60000 });
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
  console.log(`split-profile: ${entries.length} profiles (the menu's way into the lobby, ?open=online, a room link)`);
} finally {
  await browser.close();
  server.close();
}
