// Online play as the published page runs it: the pages come from a host name that is not
// localhost, under a sub-path, and there is no matchbox_server anywhere. Peers meet through a real
// Nostr relay process on 127.0.0.1 (NOSTR_RELAY, installed by scripts/nostr-relay.sh), set by
// page A in Settings; its room link carries the relay. Page A creates a room, page B opens its link,
// they play classic turns (one claim or placement by hand, then the computer for both) to the same state hash,
// and once the game runs with everyone connected the pages stop announcing themselves on the relay.
// The join path's failures each show a message: no relay reachable, a bad relay address, a room
// that is not a room. Room links and "Play online…" lead to the online page (online/), also from
// the full page and from a link of an earlier version that names it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shot, attr, watchErrors, until, freePort, relaySuite, online } from './helpers.mjs';

const net = relaySuite({ join: false });


test('two browsers meet through a Nostr relay with no signalling server and play to one hash', { skip: net.skip, timeout: 900000 }, async () => {
  assert.doesNotMatch(net.base, /localhost|127\.0\.0\.1/);
  const ctxA = await net.browser.newContext();
  const ctxB = await net.browser.newContext();
  const A = await ctxA.newPage();
  const errorsA = watchErrors(A);
  const t0 = Date.now();
  // As a new player: the first page, "Play online…", a name, "Create a new room".
  // The relay is set in Settings (not in the address): the room link must carry it, or Bob
  // would look for Alice on the default relays.
  await A.goto(net.base);
  await A.click('#play-online');
  await A.locator('#online-create').waitFor();
  await shot(A, '40-online-join-form');
  await A.fill('#online-name', 'Alice');
  await A.click('#online-settings summary');
  await A.fill('#online-relays', net.relayUrl);
  await A.click('#online-create');
  await A.locator('#online-status').waitFor();
  const link = A.url();
  const secret = new URL(link).hash.match(/room=([^&]+)/)[1];
  assert.ok(secret.length >= 22, `a 128-bit room secret in the link: ${link}`);
  assert.ok(link.includes('/orbis/online/'), link);
  assert.equal(new URLSearchParams(new URL(link).hash.slice(1)).get('relays'), net.relayUrl, `the relay in the link: ${link}`);

  // Bob opens the link.
  const B = await ctxB.newPage();
  const errorsB = watchErrors(B);
  const tB = Date.now();
  await B.goto(link);
  assert.equal(await B.locator('#online-room').inputValue(), secret);
  await shot(B, '41-online-join-link');
  await B.fill('#online-name', 'Bob');
  await B.click('#online-join');
  await until('both pages connected', async () => (await online(A, 'data-peers')) === '2' && (await online(B, 'data-peers')) === '2', 60000);
  console.log(`relay rendezvous: link opened to connected ${Date.now() - tB} ms (first page opened ${Date.now() - t0} ms ago)`);
  assert.match(await A.locator('#online-links').textContent(), /1 direct.*Relays: 1 of 1 open/);
  await until('Bob shown as connected directly', async () => /Bob — direct/.test(await A.locator('#online-peers').textContent()), 10000);
  await A.click('#online-details summary');
  await shot(A, '42-online-lobby-relays');

  await A.click('#online-propose');
  await A.locator('.accept').click();
  await B.locator('.accept').waitFor();
  await B.locator('.accept').click();
  for (const p of [A, B]) await p.locator('#map').waitFor({ timeout: 60000 });

  // A claim by hand by whoever moves first, then the computer plays both seats for a while.
  await until('a first move', async () => (await attr(A, 'data-my-turn')) === '1' || (await attr(B, 'data-my-turn')) === '1');
  const active = (await attr(A, 'data-my-turn')) === '1' ? A : B;
  const len0 = Number(await online(active, 'data-log-len'));
  const target = (await attr(active, 'data-phase')) === 'claim' ? 'g.terr[data-owner="none"]' : 'g.terr[data-mine="1"]';
  await active.locator(target).first().dispatchEvent('click');
  await until('the claim to go through', async () => Number(await online(active, 'data-log-len')) > len0, 20000);
  for (const p of [A, B]) await p.click('#autoplay');
  await until('turn 3', async () => Number(await attr(A, 'data-turn')) >= 3, 180000);
  for (const p of [A, B]) await p.click('#autoplay');
  await until('the same state on both pages', async () => (await online(A, 'data-log-len')) === (await online(B, 'data-log-len'))
    && (await attr(A, 'data-state-hash')) === (await attr(B, 'data-state-hash')), 30000);
  await shot(A, '43-online-relay-game');

  // A running game with everyone here says nothing more to the relay.
  const hellos = async (p) => Number(await online(p, 'data-hellos'));
  const h0 = [await hellos(A), await hellos(B)];
  await A.waitForTimeout(35000);
  const h1 = [await hellos(A), await hellos(B)];
  console.log(`relay hellos while the game ran 35 s: ${h1[0] - h0[0]} (A), ${h1[1] - h0[1]} (B); before: ${h0}`);
  assert.deepEqual(h1, h0, 'no hellos while the game runs with every seat connected');

  // The computer plays both seats to the end; then both pages go back to the room's lobby
  // ("Play again in this room") and a second game starts with the same players.
  const tEnd = Date.now();
  for (const p of [A, B]) await p.click('#autoplay');
  await until('the game over on both pages', async () => (await attr(A, 'data-phase')) === 'over'
    && (await attr(B, 'data-phase')) === 'over', 420000);
  console.log(`first game played to its end by the computer in ${Date.now() - tEnd} ms`);
  assert.equal(await attr(A, 'data-state-hash'), await attr(B, 'data-state-hash'));
  assert.equal(await A.locator('#winner button', { hasText: 'New game' }).count(), 0, 'no hot-seat "New game" online');
  await shot(A, '43b-online-game-over');
  for (const p of [A, B]) {
    await p.click('#winner-close');
    await p.click('#play-again');
    await p.locator('#online-propose').waitFor();
  }
  await shot(A, '43c-online-back-in-lobby');
  await until('both back in one lobby', async () => (await A.locator('#online-peers').textContent()).includes('Bob')
    && (await B.locator('#online-peers').textContent()).includes('Alice'), 30000).catch(async (e) => {
    await B.screenshot({ path: 'test-output/fail-lobby-bob.png', fullPage: true });
    throw new Error(`${e.message}: Alice sees ${await A.locator('#online-peers').textContent()}; Bob sees ${await B.locator('#online-peers').textContent()}`);
  });
  await A.click('#online-propose');
  await A.locator('.accept').first().click();
  await B.locator('.accept').first().waitFor({ timeout: 30000 });
  await B.locator('.accept').first().click();
  for (const p of [A, B]) await p.locator('#map').waitFor({ timeout: 60000 });
  assert.equal(await online(A, 'data-started'), '1');
  await shot(B, '43d-online-second-game');
  assert.deepEqual(errorsA.filter((e) => !/favicon/.test(e)), []);
  assert.deepEqual(errorsB.filter((e) => !/favicon/.test(e)), []);
  await ctxA.close();
  await ctxB.close();
});

test('every failure of the join path says what to do', { skip: net.skip, timeout: 120000 }, async () => {
  const ctx = await net.browser.newContext();
  const page = await ctx.newPage();
  // No relay reachable (nothing listens on port 9).
  await page.goto(`${net.base}online/?open=online&relays=${encodeURIComponent('ws://127.0.0.1:9')}`);
  await page.click('#online-create');
  await page.locator('#online-error').waitFor({ timeout: 30000 });
  assert.match(await page.locator('#online-error').textContent(), /No relay could be reached.*Settings/);
  await shot(page, '44-online-no-relay');
  // Leaving the room brings back the form, to change Settings.
  await page.click('#online-leave');
  await page.locator('#online-create').waitFor();
  assert.doesNotMatch(page.url(), /room=/);
  // A room that is not a room, and a bad relay address: the form says so, nothing starts.
  await page.goto(`${net.base}online/?open=online`);
  await page.locator('#online-join').waitFor();
  await page.fill('#online-room', 'two words');
  await page.click('#online-join');
  assert.match(await page.locator('#online-error').textContent(), /not a room/);
  await page.fill('#online-room', '');
  await page.click('#online-join');
  assert.match(await page.locator('#online-error').textContent(), /Type the room/);
  await page.click('#online-settings summary');
  await page.fill('#online-relays', 'relay.example.org');
  await page.click('#online-create');
  assert.match(await page.locator('#online-error').textContent(), /not a relay address.*wss:\/\//);
  assert.equal(await page.locator('#online-relays').inputValue(), 'relay.example.org', 'what was typed stays to be corrected');
  assert.equal(await page.locator('#online-status').count(), 0);
  await shot(page, '45-online-bad-relay');
  await ctx.close();
  // A browser that gives no secure randomness: no key, room secret or seal is made from zeros,
  // and the page says what to do.
  const broken = await net.browser.newContext();
  await broken.addInitScript(() => {
    crypto.getRandomValues = () => { throw new Error('no randomness here'); };
  });
  const bp = await broken.newPage();
  await bp.goto(`${net.base}online/?open=online`);
  await bp.locator('#online-create').waitFor({ timeout: 30000 });
  await bp.click('#online-create');
  assert.match(await bp.locator('#online-error').textContent(), /no secure random numbers.*another browser/);
  assert.equal(await bp.locator('#online-status').count(), 0);
  assert.doesNotMatch(bp.url(), /room=/);
  await shot(bp, '46-online-no-randomness');
  await broken.close();
});

test('a room link that names the full page (an earlier version\'s) opens the online page with its room', { skip: net.skip, timeout: 180000 }, async () => {
  const ctx = await net.browser.newContext();
  const page = await ctx.newPage();
  const room = 'AAAAAAAAAAAAAAAAAAAAAA';
  await page.goto(`${net.base}full/?relays=${encodeURIComponent('ws://127.0.0.1:9')}#room=${room}`);
  // The address changes at once; the page behind it may take long to start on a loaded
  // machine, which the waits for its elements below allow for.
  await page.waitForURL(/\/orbis\/online\//, { waitUntil: 'commit', timeout: 60000 });
  assert.ok(page.url().includes(`#room=${room}`), page.url());
  assert.ok(page.url().includes('relays='), page.url());
  await page.locator('#root[data-screen="online"] #online').waitFor({ timeout: 30000 });
  assert.equal(await page.locator('#online-room').inputValue(), room, 'the room of the link');
  await shot(page, '47-old-room-link');
  // "Play online…" on the full page's menu goes there too.
  await page.goto(`${net.base}full/`);
  await page.click('#play-online', { timeout: 60000 });
  // The online page takes `open=online` out of its address once started, so the wait is for the
  // page, not the query: waiting for `?open=online` timed out whenever the page had started
  // before the wait began (three fresh runs; it stood at /orbis/online/ with its lobby up).
  // Its lobby (below) is what `open=online` asks for: without it the online page shows its menu.
  await page.waitForURL(/\/orbis\/online\//, { waitUntil: 'commit', timeout: 60000 }).catch(async (e) => {
    const screen = await page.locator('#root').getAttribute('data-screen').catch(() => '?');
    await shot(page, '47b-play-online-stuck').catch(() => {});
    throw new Error(`${e.message}\n  at ${page.url()}, screen ${screen}, body: ${(await page.locator('body').innerText().catch(() => '?')).slice(0, 300)}`);
  });
  await page.locator('#root[data-screen="online"] #online-create').waitFor({ timeout: 60000 });
  await ctx.close();
});

test('a third page that cannot reach any relay joins with invite codes and meets the others through the mesh', { skip: net.skip, timeout: 300000 }, async () => {
  const ctx = [await net.browser.newContext(), await net.browser.newContext(), await net.browser.newContext()];
  const [A, B, C] = await Promise.all(ctx.map((c) => c.newPage()));
  const errors = [A, B, C].map(watchErrors);
  await A.goto(`${net.base}online/?open=online&relays=${encodeURIComponent(net.relayUrl)}`);
  await A.fill('#online-name', 'Alice');
  await A.click('#online-create');
  await A.locator('#online-status').waitFor();
  await B.goto(A.url());
  await B.fill('#online-name', 'Bob');
  await B.click('#online-join');
  await until('Alice and Bob connected', async () => (await online(A, 'data-peers')) === '2' && (await online(B, 'data-peers')) === '2', 60000);

  // Carol's relays are unreachable (nothing listens there): she can only come in by code.
  const dead = `ws://127.0.0.1:${await freePort()}`;
  await C.goto(`${net.base}online/?open=online&relays=${encodeURIComponent(dead)}`);
  await C.fill('#online-name', 'Carol');
  await C.click('#online-by-code summary');
  await C.fill('#online-code', 'not a code');
  await C.click('#online-join-code');
  assert.match(await C.locator('#online-error').textContent(), /not an Orbis invite code/);

  await A.click('#invite summary');
  await A.click('#invite-make');
  await A.locator('#invite-code').waitFor({ timeout: 20000 });
  const offer = await A.locator('#invite-code').inputValue();
  console.log(`invite offer code: ${offer.length} characters`);
  assert.ok(offer.length <= 300, `offer code of ${offer.length} characters`);
  assert.equal(await A.locator('#invite .qr svg').count(), 1, 'shown as a QR code too');
  await shot(A, '46-online-invite-code');

  await C.fill('#online-code', offer);
  await C.click('#online-join-code');
  await C.locator('#invite-answer-code').waitFor({ timeout: 20000 });
  const answer = await C.locator('#invite-answer-code').inputValue();
  console.log(`invite answer code: ${answer.length} characters`);
  assert.ok(answer.length <= 300, `answer code of ${answer.length} characters`);
  await shot(C, '47-online-invite-answer');
  // Pasting the offer where the answer goes is refused with a message.
  await A.fill('#invite-answer', offer);
  await A.click('#invite-connect');
  assert.match(await A.locator('#invite-error').textContent(), /invitation \(offer\) code/);
  await A.fill('#invite-answer', answer);
  await A.click('#invite-connect');
  await until('Carol connected to Alice and, through the mesh, to Bob', async () => (await online(A, 'data-peers')) === '3'
    && (await online(B, 'data-peers')) === '3' && (await online(C, 'data-peers')) === '3', 60000);
  assert.match(await C.locator('#online-links').textContent(), /2 direct/);
  await shot(C, '48-online-invited-lobby');

  await A.click('#online-propose');
  await A.locator('.accept').click();
  for (const p of [B, C]) { await p.locator('.accept').waitFor(); await p.locator('.accept').click(); }
  for (const p of [A, B, C]) await p.locator('#map').waitFor({ timeout: 60000 });
  for (const p of [A, B, C]) await p.click('#autoplay');
  await until('turn 2', async () => Number(await attr(C, 'data-turn')) >= 2, 180000);
  for (const p of [A, B, C]) await p.click('#autoplay');
  await until('the same state on all three pages', async () => {
    const h = await Promise.all([A, B, C].map((p) => attr(p, 'data-state-hash')));
    const l = await Promise.all([A, B, C].map((p) => online(p, 'data-log-len')));
    return h[0] === h[1] && h[1] === h[2] && l[0] === l[1] && l[1] === l[2];
  }, 30000);
  // The browser logs each failed attempt on Carol's unreachable relay; nothing else may fail.
  for (const e of errors) assert.deepEqual(e.filter((x) => !/favicon/.test(x) && !x.includes(`WebSocket connection to '${dead}/' failed`)), []);
  for (const c of ctx) await c.close();
});
