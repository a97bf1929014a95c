// A deal withholder in an economy game over a real network (issues 29 and 30 A6): two pages and
// a native `orbis-join` peer meet through a local matchbox_server and play an economy game with
// influence cards dealt face down; the native peer is started with `--test-withhold-shuffles`,
// so it sends its key and escrow but never its shuffles, as a modified client could. The game
// plays on until the first influence card is won (a round with more victories than losses);
// then it stops: the page of the player who won it says its cards cannot be dealt and names
// Native, every page offers the vote on Native (never on the player it blocks), the pages vote
// it out, and the game goes on with the others standing in for its key, one hash on both pages.
// Needs MATCHBOX_SERVER and ORBIS_JOIN (scripts/test-web.sh sets them); skipped otherwise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { URL_BASE, shot, attr, until, openOnline as open, matchboxSuite, online } from './helpers.mjs';

const net = matchboxSuite({ join: true });

const voteOnNative = (page) => page.locator('.vote[data-peer-name="Native"] button');

test('an economy game stops at the first influence card a peer never shuffled, names it, and goes on once it is voted out', { skip: net.skip, timeout: 900000 }, async () => {
  const room = `eco-withhold-${process.pid}-${Date.now() % 100000}`;
  const { signal } = net;
  const url = `${URL_BASE}?signal=${encodeURIComponent(signal)}&missing_ms=3000&turn_ms=6000#room=${room}`;
  const ctxA = await net.browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const ctxB = await net.browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const A = await open(ctxA, url, 'Alice');
  const B = await open(ctxB, url, 'Bob');
  let err = '';
  const native = spawn(net.join, [`${signal}/${room}`, '--bot', 'easy', '--name', 'Native', '--timeout-s', '880', '--test-withhold-shuffles']);
  native.stderr.on('data', (d) => { err += d; });
  const pages = [A.page, B.page];
  try {
    await until('three peers in the lobby', async () => (await online(A.page, 'data-peers')) === '3' && (await online(B.page, 'data-peers')) === '3', 60000);
    // An economy game, its influence cards face down, a leaver's cards opened by the others.
    await A.page.selectOption('#online-ruleset', 'economy');
    assert.match(await A.page.locator('#p2p-notice').textContent(), /Influence cards are dealt face down/);
    await A.page.selectOption('#online-stand-in', 'stand-in');
    await A.page.click('#online-propose');
    await A.page.locator('.accept').first().click();
    await B.page.locator('.accept').first().waitFor({ timeout: 30000 });
    assert.match(await B.page.locator('#online-proposals').textContent(), /Economy game, 3 seats.*Cards face down/s);
    await B.page.locator('.accept').first().click();
    for (const p of pages) await until('the economy screen', async () => (await attr(p, 'data-phase'))?.startsWith('economy-'), 60000);
    // The computer plays both pages' seats until the game stops on the deal.
    for (const p of pages) await p.click('#autoplay');
    const blocked = async (p) => (await p.locator('#cards-blocked').count()) > 0;
    let stopped;
    await until('the game to stop on Native\'s part of the deal', async () => {
      const offered = (await voteOnNative(A.page).count()) > 0 && (await voteOnNative(B.page).count()) > 0;
      if (!offered) return false;
      stopped = Number(await online(A.page, 'data-log-len'));
      return true;
    }, 720000).catch(async (e) => {
      await A.page.screenshot({ path: 'test-output/fail-eco-withhold-a.png' });
      await B.page.screenshot({ path: 'test-output/fail-eco-withhold-b.png' });
      throw new Error(`${e.message}: A ${await A.page.locator('#turn-title').textContent()} / ${await A.page.locator('.online-bar').textContent()}; native ${err.slice(-1500)}`);
    });
    // Nobody votes on an honest player: the only vote offered is on Native.
    for (const p of pages) {
      assert.equal(await p.locator('.vote[data-peer-name="Alice"] button').count(), 0);
      assert.equal(await p.locator('.vote[data-peer-name="Bob"] button').count(), 0);
    }
    // The player who won the card (Alice or Bob; the native peer's own card blocks it too, and
    // then neither page has a card waiting) is told why, naming Native.
    // A computer seat's card stops the game too, and then both pages say so.
    const holder = (await blocked(A.page)) ? A.page : (await blocked(B.page)) ? B.page : null;
    const whose = holder && await holder.locator('#cards-blocked').getAttribute('data-whose');
    console.log(`economy withhold: stopped at position ${stopped}, on ${holder === A.page ? 'Alice' : holder === B.page ? 'Bob' : 'Native'}'s page: ${whose}`);
    if (holder) {
      assert.match(await holder.locator('#cards-blocked').textContent(), /Native has not sent their part of the deal/);
      if (whose === 'Ours' && await holder.locator('#cards-dealing').count()) assert.match(await holder.locator('#cards-dealing').textContent(), /once the deal is whole/);
      await shot(holder, '89-p2p-economy-cards-blocked');
    } else {
      await shot(A.page, '89-p2p-economy-cards-blocked');
    }
    // The game waits: nothing is played while the deal lacks Native's shuffle.
    await A.page.waitForTimeout(2000);
    assert.equal(Number(await online(A.page, 'data-log-len')), stopped);
    for (const p of pages) await voteOnNative(p).click();
    // Voted out: the others stand in for its key and the game goes on, the same on both pages.
    await until('the game to go on', async () => Number(await online(A.page, 'data-log-len')) > stopped + 3
      && Number(await online(B.page, 'data-log-len')) > stopped + 3, 180000);
    for (const p of pages) await until('no card waits', async () => !(await blocked(p)), 60000);
    await shot(holder ?? A.page, '89b-p2p-economy-withholder-voted-out');
    // Both pages stop the computer and settle on one position with one state hash.
    for (const p of pages) await p.click('#autoplay');
    await until('one state on both pages', async () => {
      const [la, lb] = [await online(A.page, 'data-log-len'), await online(B.page, 'data-log-len')];
      return la === lb && (await attr(A.page, 'data-state-hash')) === (await attr(B.page, 'data-state-hash'));
    }, 120000);
    assert.deepEqual(A.errors, []);
    assert.deepEqual(B.errors, []);
  } finally {
    native.kill();
    await ctxA.close();
    await ctxB.close();
  }
});
