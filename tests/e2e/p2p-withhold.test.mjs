// A deal withholder over a real network (issue 30 A6): two pages and a native `orbis-join` peer
// meet through a local matchbox_server and play a classic game dealt face down; the native peer
// is started with `--test-withhold-shuffles`, so it sends its key and escrow but never its
// shuffles, as a modified client could. The game stops at the first card; both pages name the
// withholder (not the player whose card it is), offer the vote on it, vote it out, and the game
// goes on with the others standing in for its key, the same on both pages.
// Needs MATCHBOX_SERVER and ORBIS_JOIN (scripts/test-web.sh sets them); skipped otherwise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { URL_BASE, shot, attr, until, openOnline as open, matchboxSuite, online } from './helpers.mjs';

const net = matchboxSuite({ join: true });


test('a peer that never shuffles is named on every page, voted out, and the game goes on', { skip: net.skip, timeout: 300000 }, async () => {
  const room = `withhold-${process.pid}-${Date.now() % 100000}`;
  const { signal } = net;
  const url = `${URL_BASE}?signal=${encodeURIComponent(signal)}&missing_ms=3000&turn_ms=6000#room=${room}`;
  const ctxA = await net.browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const ctxB = await net.browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const A = await open(ctxA, url, 'Alice');
  const B = await open(ctxB, url, 'Bob');
  let err = '';
  const native = spawn(net.join, [`${signal}/${room}`, '--bot', 'easy', '--name', 'Native', '--timeout-s', '280', '--test-withhold-shuffles']);
  native.stderr.on('data', (d) => { err += d; });
  try {
    await until('three peers in the lobby', async () => (await online(A.page, 'data-peers')) === '3' && (await online(B.page, 'data-peers')) === '3', 60000);
    // Three players, face down, and a leaver's cards opened by the others: the game can go on
    // without the withholder.
    await A.page.selectOption('#online-stand-in', 'stand-in');
    await A.page.click('#online-propose');
    await A.page.locator('.accept').first().click();
    await B.page.locator('.accept').first().waitFor({ timeout: 30000 });
    assert.match(await B.page.locator('#online-proposals').textContent(), /Cards face down/);
    await B.page.locator('.accept').first().click();
    for (const p of [A.page, B.page]) await p.locator('#map').waitFor({ timeout: 60000 });
    for (const p of [A.page, B.page]) await p.click('#autoplay');
    // The first card cannot be read without Native's shuffle: each page names Native, whoever
    // drew it.
    for (const p of [A.page, B.page]) {
      await until('the page to name the withholder', async () => {
        const n = p.locator('#online-withheld');
        return (await n.count()) && /Native's part of the deal/.test(await n.textContent());
      }, 180000).catch((e) => { throw new Error(`${e.message}; native: ${err.slice(-1500)}`); });
    }
    const stopped = Number(await online(A.page, 'data-log-len'));
    assert.doesNotMatch(await A.page.locator('#online-withheld').textContent(), /Alice's part|Bob's part/);
    for (const p of [A.page, B.page]) await p.locator('.vote[data-peer-name="Native"] button').waitFor({ timeout: 30000 });
    await shot(A.page, '38-p2p-deal-withheld');
    for (const p of [A.page, B.page]) await p.locator('.vote[data-peer-name="Native"] button').click();
    // Voted out: the others stand in for its key and the game goes on, the same on both pages.
    await until('the game to go on', async () => Number(await online(A.page, 'data-log-len')) > stopped + 5
      && Number(await online(B.page, 'data-log-len')) > stopped + 5, 120000);
    // Alice's card is read with the others standing in for Native's key: nothing is withheld.
    await until('the withheld line to go', async () => (await A.page.locator('#online-withheld').count()) === 0
      && (await B.page.locator('#online-withheld').count()) === 0, 30000)
      .catch(async (e) => { throw new Error(`${e.message}: ${await A.page.locator('#online-withheld').allTextContents()} / ${await B.page.locator('#online-withheld').allTextContents()}`); });
    await shot(A.page, '38b-p2p-deal-withholder-voted-out');
    // Both pages stop the autoplay and settle on one position with one state hash.
    for (const p of [A.page, B.page]) await p.click('#autoplay');
    await until('one state on both pages', async () => {
      const [la, lb] = [await online(A.page, 'data-log-len'), await online(B.page, 'data-log-len')];
      return la === lb && (await attr(A.page, 'data-state-hash')) === (await attr(B.page, 'data-state-hash'));
    }, 60000);
    assert.deepEqual(A.errors, []);
    assert.deepEqual(B.errors, []);
  } finally {
    native.kill();
    await ctxA.close();
    await ctxB.close();
  }
});
