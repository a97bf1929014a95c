// An orders game over days (issue 61) from the online page, through a real Nostr relay process on
// 127.0.0.1 that stores the game's events: Alice and Bob's pages are NEVER open at the same time.
// Each visit is a fresh browser context whose clock (Playwright's page.clock) is set later than
// the one before: it opens the room link, reads the game from the relay, acts, waits until the
// relay has stored its messages, and closes. The lobby by visits (a hello left in the room, a
// proposal over days, acceptances, each page's seed share on its next visit), Spring 1901 by
// visits (commit + sealed copy, the last submitter opens at once, the other on its next visit),
// the phase resolved and both pages at the same position; then the Fall deadline passes with
// only Alice's orders in: her page votes Bob's turn missed (an excuse spent, the phase one length
// longer) and Bob's next visit says so. Needs NOSTR_RELAY (scripts/test-web.sh sets it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shot, attr, watchErrors, until, relaySuite, online } from './helpers.mjs';

const net = relaySuite({ join: false });

const H = 3600_000;
// The game runs in the past (the relay refuses events more than an hour ahead of its own clock).
const T0 = Date.now() - 3 * 24 * H;

/** One visit at `at` (ms): a fresh context with the player's storage, its clock set, the page
 * opened at `url`. Each player's browser storage between visits (their key, memento, messages not yet stored). */
const kept = {};

async function visit(url, at, name, act, { menu = false } = {}) {
  const ctx = await net.browser.newContext({ viewport: { width: 1280, height: 900 }, storageState: kept[name] });
  const page = await ctx.newPage();
  const errors = watchErrors(page);
  await page.clock.install({ time: at });
  const t = Date.now();
  await page.goto(url);
  if (menu) {
    // From the menu's "My games": the game over days, what is due and by when; Open.
    await page.click('#my-games');
    const row = page.locator('li.game[data-kind="days"]');
    await row.waitFor();
    // As this device last saw it: Bob's orders in, the phase waiting on the others.
    assert.match(await row.textContent(), /Orders: Europe 1901 · online, over days.*Spring 1901 movement.*The others' orders: by .* \(in \d+ h\)/);
    await shot(page, '99d-days-my-games');
    await row.locator('button', { hasText: 'Open' }).click();
  } else if (!url.includes('#room=')) await page.click('#play-online');
  // A player's first visit joins by name; later ones open the room at once (this browser's key).
  if (!kept[name]) {
    await page.fill('#online-name', name);
    await page.click(url.includes('#room=') ? '#online-join' : '#online-create');
  }
  try {
    const r = await act(page, t);
    await until(`${name}'s messages stored`, async () => (await page.locator('#days-visit').getAttribute('data-pending')) === '0'
      && (await page.locator('#days-sending').count()) === 0, 30000);
    assert.deepEqual(errors, []);
    kept[name] = await ctx.storageState();
    return r;
  } catch (e) {
    await shot(page, `days-failed-${name}`);
    console.log(`${name}'s page: errors ${JSON.stringify(errors)}`);
    throw e;
  } finally {
    await ctx.close();
  }
}

const ready = (page) => until('the game read from the relay', async () => (await page.locator('#days-visit').getAttribute('data-ready', { timeout: 500 }).catch(() => null)) === '1', 30000);
const due = (page) => page.locator('#days-due').textContent();
const type = async (page, order) => { await page.fill('#order-text', order); await page.press('#order-text', 'Enter'); };

/** Enters this page's power's Spring 1901 orders (England or France) and submits them. */
async function spring(page) {
  await until('orders to enter', async () => (await attr(page, 'data-stage'))?.startsWith('enter-'), 30000);
  const power = (await attr(page, 'data-stage')).slice(6);
  for (const o of power === 'ENGLAND' ? ['F EDI - NTH', 'F LON - ENG', 'A LVP - YOR'] : ['F BRE - MAO', 'A PAR - BUR', 'A MAR - SPA']) await type(page, o);
  await page.click('#o-submit');
  return power;
}

test('an orders game over days: two pages never open together play a phase and a missed turn through a relay', { skip: net.skip, timeout: 600000 }, async () => {
  const base = `${net.base}online/?relays=${encodeURIComponent(net.relayUrl)}`;
  // 1. Alice creates a room and chooses "Over days": her visit leaves her name in the room.
  const link = await visit(base, T0, 'Alice', async (A) => {
    await A.locator('#online-status').waitFor();
    await A.selectOption('#online-ruleset', 'europe-1901');
    await A.click('#online-over-days');
    await ready(A);
    assert.match(A.url(), /days=1/);
    assert.match(await A.locator('#days-lobby').textContent(), /Nobody needs to be here at the same time/);
    await shot(A, '96-days-lobby-first-visit');
    return A.url();
  });
  // 2. Bob opens the link once: his name is left too.
  await visit(link, T0 + 10 * 60_000, 'Bob', async (B) => {
    await ready(B);
    assert.match(await B.locator('#online-peers').textContent(), /Alice/);
  });
  // 3. Alice comes back, finds Bob, proposes an orders game over days and accepts it.
  await visit(link, T0 + 20 * 60_000, 'Alice', async (A) => {
    await ready(A);
    await until('Bob in the room', async () => /Bob/.test(await A.locator('#online-peers').textContent()));
    await A.selectOption('#online-ruleset', 'europe-1901');
    assert.equal(await A.locator('#online-over-days').isChecked(), true);
    const picks = A.locator('select.pick-power');
    await picks.nth(0).selectOption('0');
    await picks.nth(1).selectOption('1');
    await shot(A, '97-days-propose');
    await A.click('#online-propose');
    await A.locator('.accept').click();
    await until('waiting for Bob', async () => /1 of 2 players have accepted. Waiting for Bob/.test(await due(A)));
  });
  // 4. Bob accepts; everyone has: his page opens its seed share at once.
  await visit(link, T0 + 30 * 60_000, 'Bob', async (B) => {
    await ready(B);
    await B.locator('.accept').click();
    await until('the seed share open', async () => /The game starts when Alice visits once more/.test(await due(B)));
    await B.locator('#days-visit').scrollIntoViewIfNeeded();
    await shot(B, '98-days-accepted');
  });
  // 5. Alice: her share opens, the game starts; her Spring orders, sealed.
  const firstPower = await visit(link, T0 + 40 * 60_000, 'Alice', async (A, t) => {
    await ready(A);
    const p = await spring(A);
    await until('sealed', async () => /^Sealed\. Come back after the others have submitted, by .*\(your time, in \d+ h\), to open your orders; if you don't, they count as a missed turn\. Spring 1901: the others have 0 of 1 in\./.test(await due(A)));
    assert.equal(await A.locator('#days-ics').count(), 1);
    await shot(A, '99-days-sealed');
    console.log(`Alice's visit to the sealed orders: ${Date.now() - t} ms`);
    return p;
  });
  // 6. Bob, two hours later: the last to submit, his page opens his orders at once.
  await visit(link, T0 + 2 * H, 'Bob', async (B) => {
    await ready(B);
    assert.match(await due(B), /^Spring 1901: give your orders by .*\(your time, in \d+ h\)\. The others have 1 of 1 in\./);
    await shot(B, '99a-days-bob-due');
    const p = await spring(B);
    assert.notEqual(p, firstPower);
    await until('waiting for Alice to open hers', async () => /nothing is due from you\. Waiting for Alice/.test(await due(B)));
  });
  // 7. Alice opens hers: Spring 1901 resolves.
  const hashA = await visit(link, T0 + 3 * H, 'Alice', async (A, t) => {
    await ready(A);
    await until('Fall 1901', async () => (await online(A, 'data-log-len')) === '1' && /Fall 1901/.test(await A.locator('#oseason').textContent()), 30000);
    const f = await A.evaluate(() => window.__orbisDays);
    console.log(`Alice's visit resolving Spring 1901: ${Date.now() - t} ms to the new position; read ${f.messages} messages in ${f.fetch_ms} ms, caught up in ${f.catch_up_ms} ms`);
    await shot(A, '99b-days-resolved');
    return attr(A, 'data-state-hash');
  });
  // 8. Bob opens the game from "My games" and sees the same position.
  await visit(net.base, T0 + 4 * H, 'Bob', async (B) => {
    await ready(B);
    await until('Fall 1901', async () => (await online(B, 'data-log-len')) === '1', 30000);
    assert.equal(await attr(B, 'data-state-hash'), hashA);
    assert.match(await due(B), /^Fall 1901: give your orders by/);
  }, { menu: true });
  // 9. After the Fall deadline (+ grace): Alice submits; Bob has not: her page votes his turn
  // missed (one excuse spent: the phase is a day longer).
  await visit(link, T0 + 52 * H, 'Alice', async (A) => {
    await ready(A);
    await until('orders to enter', async () => (await attr(A, 'data-stage'))?.startsWith('enter-') || (await A.locator('#o-continue').count()) > 0);
    if (await A.locator('#o-continue').count()) await A.click('#o-continue');
    await A.click('#o-submit');
    await until('the missed turn recorded', async () => /missed turn was recorded/.test(await A.locator('.online-notes').textContent()), 30000);
  });
  await visit(link, T0 + 53 * H, 'Bob', async (B) => {
    await ready(B);
    assert.match(await due(B), /^Fall 1901: give your orders by/);
    await shot(B, '99c-days-after-missed-turn');
  });
});
