// Online play over real WebRTC on 127.0.0.1: a local matchbox_server, two Chromium pages (separate
// contexts) and one native `orbis-join --bot` peer join one room, agree a classic setup and play
// the game to its end; one page is reloaded mid-game and rejoins with its stored key. All three end
// with the same state hash. Also measures the time from an attack declaration to the dice shown on
// both pages. Needs ORBIS_JOIN (the orbis-join binary) and MATCHBOX_SERVER (scripts/test-web.sh
// sets both); skipped with a message otherwise.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { launch, URL_BASE, OUT, shot, attr, watchErrors } from './helpers.mjs';

const JOIN = process.env.ORBIS_JOIN;
const MATCHBOX = process.env.MATCHBOX_SERVER;
const ready = JOIN && existsSync(JOIN) && MATCHBOX && existsSync(MATCHBOX);

let browser;
let server;
let port;
before(async () => {
  if (!ready) return;
  port = await new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); });
  });
  server = spawn(MATCHBOX, [`127.0.0.1:${port}`], { stdio: 'ignore' });
  // Wait until the signalling server accepts connections.
  const { connect } = await import('node:net');
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise((res) => {
      const c = connect(port, '127.0.0.1', () => { c.end(); res(true); });
      c.on('error', () => res(false));
    });
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.kill();
});

const online = (page, a) => page.locator('#online').getAttribute(a);

async function until(what, f, timeout = 60000) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function open(context, url, name) {
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(url);
  await page.locator('#online-name').fill(name);
  await page.click('#online-join');
  return { page, errors };
}

test('two browsers and a native bot play a classic game over WebRTC; a reload rejoins', { skip: !ready && 'ORBIS_JOIN / MATCHBOX_SERVER not set', timeout: 420000 }, async () => {
  const room = `e2e-${process.pid}-${Date.now() % 100000}`;
  const signal = `ws://127.0.0.1:${port}`;
  const url = `${URL_BASE}?signal=${encodeURIComponent(signal)}#room=${room}`;
  const ctxA = await browser.newContext();
  const ctxB = await browser.newContext();
  const A = await open(ctxA, url, 'Alice');
  let B = await open(ctxB, url, 'Bob');
  let out = '';
  let err = '';
  const native = spawn(JOIN, [`${signal}/${room}`, '--bot', 'normal', '--name', 'Native', '--timeout-s', '400']);
  native.stdout.on('data', (d) => { out += d; });
  native.stderr.on('data', (d) => { err += d; });
  const exited = new Promise((res) => native.on('exit', (code) => res(code)));
  try {
    // Everyone meets everyone in the lobby.
    await until('three peers in the lobby', async () => (await online(A.page, 'data-peers')) === '3' && (await online(B.page, 'data-peers')) === '3');
    assert.match(await A.page.locator('#p2p-notice').textContent(), /visible to a modified client/);
    await A.page.click('#online-propose');
    await A.page.locator('.accept').click();
    await B.page.locator('.accept').waitFor();
    await shot(B.page, '30-p2p-lobby');
    await B.page.locator('.accept').click();
    for (const p of [A.page, B.page]) await p.locator('#map').waitFor({ timeout: 60000 });
    assert.equal(await online(A.page, 'data-started'), '1');

    // The first browser to move claims (or places on) one territory by hand through the board when her turn comes; then the computer
    // plays both browser seats (the native peer plays its own).
    await until('Alice to claim', async () => (await attr(A.page, 'data-my-turn')) === '1' || (await attr(B.page, 'data-my-turn')) === '1');
    const active = (await attr(A.page, 'data-my-turn')) === '1' ? A.page : B.page;
    const before = Number(await online(active, 'data-log-len'));
    const phase = await attr(active, 'data-phase');
    const target = phase === 'claim' ? 'g.terr[data-owner="none"]' : 'g.terr[data-mine="1"]';
    await active.locator(target).first().dispatchEvent('click');
    await until('the claim to go through the protocol', async () => Number(await online(active, 'data-log-len')) > before, 20000);
    for (const p of [A.page, B.page]) await p.click('#autoplay');

    // Mid-game: reload Bob's page; it rejoins with the key stored for the room.
    await until('turn 4', async () => Number(await attr(A.page, 'data-turn')) >= 4, 240000);
    await shot(A.page, '31-p2p-alice-midgame');
    const grab = (p) => p.evaluate(() => window.__orbisP2p || { declared: {}, shown: {} });
    const marksB0 = await grab(B.page);
    await B.page.reload();
    await B.page.locator('#autoplay').waitFor({ timeout: 60000 });
    await shot(B.page, '32-p2p-bob-rejoined');
    await B.page.click('#autoplay');

    // The native peer prints its JSON line when the game is over.
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 360000).unref())]);
    assert.equal(code, 0, `orbis-join exit ${code}: ${err.slice(-2000)}`);
    const line = out.trim().split('\n').pop();
    const res = JSON.parse(line);
    for (const p of [A.page, B.page]) {
      await until('game over on a page', async () => (await attr(p, 'data-state-hash')) === res.state_hash, 30000);
      assert.equal(await attr(p, 'data-phase'), 'over');
    }
    await shot(A.page, '33-p2p-alice-over');
    await shot(B.page, '34-p2p-bob-over');

    // Attack declaration (on one page) to dice shown on both pages.
    // Bob's marks from before the reload count (the replay after it shows old rolls again).
    const marks = await Promise.all([A.page, B.page].map(grab));
    for (const k of ['declared', 'shown']) {
      for (const [i, t] of Object.entries(marksB0[k])) marks[1][k][i] = Math.min(t, marks[1][k][i] ?? Infinity);
    }
    const lat = [];
    for (const m of marks) {
      for (const [i, t] of Object.entries(m.declared)) {
        const shown = marks.map((x) => x.shown[i]);
        if (shown.every((s) => s !== undefined)) lat.push(Math.max(...shown) - t);
      }
    }
    lat.sort((x, y) => x - y);
    const q = (f) => lat.length ? lat[Math.min(lat.length - 1, Math.round((lat.length - 1) * f))] : 0;
    const figures = { rolls: lat.length, median_ms: q(0.5), p95_ms: q(0.95), native: res };
    writeFileSync(join(OUT, 'p2p-figures.json'), JSON.stringify(figures, null, 1));
    console.log('p2p figures', JSON.stringify(figures));
    assert.ok(res.turns >= 3, 'several full turns');
    assert.deepEqual(A.errors, []);
  } finally {
    native.kill();
    await ctxA.close();
    await ctxB.close();
  }
});
