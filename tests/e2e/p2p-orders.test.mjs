// The orders ruleset online over real WebRTC on 127.0.0.1: a local matchbox_server and two
// Chromium pages (separate contexts) agree an orders game on the Europe 1901 map (Alice picks
// England and France for the two of them; the five other powers are computer powers), then each page enters only its own power's orders through the orders screen (by
// clicking and by typing); every phase is committed and revealed through the protocol and
// adjudicated on both pages: Spring 1901, a Fall in which England dislodges the French fleet, the
// French retreat, and the winter builds; England's page is reloaded between its commitment and
// France's, and still reveals. Both pages end with the same state hash. Needs
// MATCHBOX_SERVER (scripts/test-web.sh sets it); skipped with a message otherwise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { URL_BASE, shot, attr, watchErrors, until, openOnline as open, clickKey, matchboxSuite, online, axeCheck } from './helpers.mjs';

const net = matchboxSuite({ join: false });


async function type(page, order) {
  await page.fill('#order-text', order);
  await page.press('#order-text', 'Enter');
}

const draft = (page) => page.locator('#odraft li code').allTextContents();
const season = (page) => page.locator('#oseason').textContent();

/** Waits until both pages show `text` as the season and have resolved `n` phases. */
async function phase(pages, text, n) {
  for (const p of pages) {
    await until(`${text} on a page`, async () => (await season(p)).includes(text)
      && Number(await online(p, 'data-log-len')) === n, 60000);
  }
}

/** From the results of the last phase on to this page's orders. */
async function enter(page, power) {
  await page.click('#o-continue');
  assert.equal(await attr(page, 'data-stage'), `enter-${power}`);
}

test('two browsers play the orders ruleset over WebRTC: Spring, Fall with a retreat, builds', { skip: net.skip, timeout: 300000 }, async () => {
  const room = `orders-${process.pid}-${Date.now() % 100000}`;
  const { signal } = net;
  const url = `${URL_BASE}?signal=${encodeURIComponent(signal)}#room=${room}`;
  const ctxA = await net.browser.newContext({ viewport: { width: 1280, height: 860 } });
  const ctxB = await net.browser.newContext({ viewport: { width: 1280, height: 860 } });
  const A = await open(ctxA, url, 'Alice');
  const B = await open(ctxB, url, 'Bob');
  try {
    await until('two peers in the lobby', async () => (await online(A.page, 'data-peers')) === '2' && (await online(B.page, 'data-peers')) === '2');
    await A.page.selectOption('#online-ruleset', 'europe-1901');
    // Alice picks the powers: the first player (by key) England, the second France; the five
    // computer powers are drawn at random from the shared seed.
    const picks = A.page.locator('select.pick-power');
    assert.equal(await picks.count(), 2);
    await picks.nth(0).selectOption('0');
    await picks.nth(1).selectOption('1');
    await shot(A.page, '50a-p2p-orders-pick-powers');
    await A.page.click('#online-propose');
    await A.page.locator('.accept').click();
    await B.page.locator('.accept').waitFor();
    const proposal = await B.page.locator('#online-proposals').textContent();
    assert.match(proposal, /Orders game on the Europe 1901 map, 7 seats/);
    assert.match(proposal, /England/);
    assert.match(proposal, /France/);
    assert.match(proposal, /random power\) — computer \(normal\)/);
    await shot(B.page, '50-p2p-orders-lobby');
    await B.page.locator('.accept').click();

    // Each page plays the power Alice picked for it (England, France).
    const stage = (p) => attr(p, 'data-stage');
    await until('both pages enter orders', async () => (await stage(A.page))?.startsWith('enter-') && (await stage(B.page))?.startsWith('enter-'));
    const E = (await stage(A.page)) === 'enter-ENGLAND' ? A.page : B.page;
    const F = E === A.page ? B.page : A.page;
    assert.equal(await stage(E), 'enter-ENGLAND');
    assert.equal(await stage(F), 'enter-FRANCE');
    assert.equal(await attr(E, 'data-phase'), 'orders-movement');
    assert.match(await season(E), /Spring 1901/);
    assert.equal(await E.locator('#o-draw').count(), 1, 'the draw vote is offered online');

    // --- Spring 1901 ---
    // England by clicking (F EDI - NTH, F LON holds) and by typing.
    await clickKey(E, 'EDI');
    await clickKey(E, 'NTH');
    await clickKey(E, 'LON');
    await clickKey(E, 'LON');
    await type(E, 'A LVP - YOR');
    assert.deepEqual((await draft(E)).sort(), ['A LVP - YOR', 'F EDI - NTH', 'F LON H']);
    await shot(E, '51-p2p-orders-england-entry');
    await E.click('#o-submit');
    await until('England committed', async () => (await E.locator('#oonline').getAttribute('data-sent')) === '1');
    // France has not committed: nothing is revealed or resolved yet; England sees who committed.
    assert.match(await E.locator('#ocommitted').textContent(), /Alice|Bob/);
    assert.match(await E.locator('#owaiting').textContent(), /Waiting for/);
    await shot(E, '52-p2p-orders-england-committed');
    await axeCheck(E, 'online orders game (in progress, orders sent)');
    // England's page is reloaded before France commits: it rejoins with its stored key, catches
    // up, and commits its stored orders again (an identical commitment), so it can reveal them.
    await E.reload();
    await until('England back, orders still committed', async () => (await E.locator('#oonline').getAttribute('data-sent', { timeout: 500 }).catch(() => null)) === '1', 60000);
    assert.equal(await online(F, 'data-log-len'), '0');
    assert.equal(await F.locator('svg.omap .oarrow').count(), 0, "England's orders are not shown to France");
    // France by typing, and one move by clicking.
    await type(F, 'F BRE - ENG');
    await type(F, 'A PAR - PIC');
    await clickKey(F, 'MAR');
    await clickKey(F, 'SPA');
    assert.deepEqual((await draft(F)).sort(), ['A MAR - SPA', 'A PAR - PIC', 'F BRE - ENG']);
    await F.click('#o-submit');
    await phase([E, F], 'Fall 1901', 1);
    for (const p of [E, F]) {
      assert.equal(await attr(p, 'data-stage'), 'results');
      const results = await p.locator('#oresults li').allTextContents();
      assert.ok(results.some((r) => r.includes('F BRE - ENG') && /ok/.test(r)), results.join(' | '));
      assert.ok((await p.locator('svg.omap .oarrow').count()) >= 6, 'both powers\' orders drawn');
    }
    await shot(F, '53-p2p-orders-spring-results');

    // --- Fall 1901: England dislodges the French fleet in the Channel ---
    await enter(E, 'ENGLAND');
    await type(E, 'F LON - ENG');
    await type(E, 'F NTH S F LON - ENG');
    await type(E, 'A YOR H');
    await E.click('#o-submit');
    await enter(F, 'FRANCE');
    await type(F, 'A PIC - BEL; A SPA H; F ENG H');
    assert.equal((await draft(F)).length, 3);
    await F.click('#o-submit');
    await phase([E, F], 'Fall 1901', 2);
    for (const p of [E, F]) {
      await until('retreat phase', async () => (await attr(p, 'data-phase')) === 'orders-retreat');
      const results = await p.locator('#oresults li').allTextContents();
      assert.ok(results.some((r) => r.includes('F ENG H') && /dislodged/.test(r)), results.join(' | '));
      assert.ok((await p.locator('svg.omap .oarrow.failed').count()) >= 1, 'the failed order is marked');
    }
    await shot(E, '54-p2p-orders-fall-results');
    // England has nothing to retreat: it commits empty orders by itself.
    assert.equal(await E.locator('#o-continue').count(), 0);
    assert.match(await E.locator('#prompt').textContent(), /Nothing to order/);
    // France retreats by clicking.
    await enter(F, 'FRANCE');
    await clickKey(F, 'ENG');
    await clickKey(F, 'BRE');
    assert.equal((await draft(F)).length, 1);
    await shot(F, '55-p2p-orders-france-retreat');
    await F.click('#o-submit');

    // --- Winter 1901: France builds (for Belgium or Spain: the computer powers contest them) ---
    for (const p of [E, F]) await until('adjustment phase', async () => (await attr(p, 'data-phase')) === 'orders-adjustment' && Number(await online(p, 'data-log-len')) === 3);
    await enter(F, 'FRANCE');
    assert.match(await F.locator('#oadj').textContent(), /build [12] units?/);
    await type(F, 'A PAR B');
    await shot(F, '56-p2p-orders-france-build');
    await F.click('#o-submit');
    await phase([E, F], 'Spring 1902', 4);
    for (const p of [E, F]) assert.equal(await attr(p, 'data-phase'), 'orders-movement');
    const hashes = await Promise.all([E, F].map((p) => attr(p, 'data-state-hash')));
    assert.ok(hashes[0] && hashes[0].length === 64, `hash ${hashes[0]}`);
    assert.equal(hashes[0], hashes[1]);
    // The French build is on both boards.
    for (const p of [E, F]) {
      const results = await p.locator('#oresults li').allTextContents();
      assert.ok(results.some((r) => r.includes('A PAR B')), results.join(' | '));
    }
    await shot(E, '57-p2p-orders-england-1902');
    await shot(F, '58-p2p-orders-france-1902');
    console.log('p2p orders: state hash', hashes[0]);

    // --- Spring 1902: both accept a draw, but the five computer powers decline (their position
    // is not hopeless), so the phase is resolved and the game goes on with both votes revealed.
    for (const [p, power] of [[E, 'ENGLAND'], [F, 'FRANCE']]) {
      await enter(p, power);
      await p.check('#o-draw');
      assert.equal(await p.isChecked('#o-draw'), true);
      await p.click('#o-submit');
    }
    await until('England sees its vote committed', async () => (await E.locator('#odraw-sent').count()) === 1 || Number(await online(E, 'data-log-len')) === 5);
    await phase([E, F], 'Fall 1902', 5);
    for (const p of [E, F]) {
      assert.equal(await attr(p, 'data-phase'), 'orders-movement');
      assert.match(await p.locator('section.oresults').textContent(), /draw is accepted by England, France/);
    }
    await shot(F, '59-p2p-orders-draw-votes');
    const after = await Promise.all([E, F].map((p) => attr(p, 'data-state-hash')));
    assert.equal(after[0], after[1]);
    assert.deepEqual(A.errors, []);
    assert.deepEqual(B.errors, []);
  } finally {
    await ctxA.close();
    await ctxB.close();
  }
});

test('two browsers on the world map accept a draw in the same phase: the game is drawn on both', { skip: net.skip, timeout: 300000 }, async () => {
  const room = `orders-draw-${process.pid}-${Date.now() % 100000}`;
  const { signal } = net;
  const url = `${URL_BASE}?signal=${encodeURIComponent(signal)}#room=${room}`;
  const ctxA = await net.browser.newContext({ viewport: { width: 1280, height: 860 } });
  const ctxB = await net.browser.newContext({ viewport: { width: 1280, height: 860 } });
  const A = await open(ctxA, url, 'Alice');
  const B = await open(ctxB, url, 'Bob');
  try {
    await until('two peers in the lobby', async () => (await online(A.page, 'data-peers')) === '2' && (await online(B.page, 'data-peers')) === '2');
    // The world map with no computer seat: the two players are every surviving power.
    await A.page.selectOption('#online-ruleset', 'world');
    await A.page.click('#online-propose');
    await A.page.locator('.accept').click();
    await B.page.locator('.accept').waitFor();
    await B.page.locator('.accept').click();
    const stage = (p) => attr(p, 'data-stage');
    await until('both pages enter orders', async () => (await stage(A.page))?.startsWith('enter-') && (await stage(B.page))?.startsWith('enter-'));
    // Alice accepts and commits first; her vote is secret: Bob's page still shows no draw.
    await A.page.check('#o-draw');
    await A.page.click('#o-submit');
    await until('Alice committed', async () => (await A.page.locator('#oonline').getAttribute('data-sent')) === '1');
    assert.equal(await A.page.locator('#odraw-sent').count(), 1);
    await shot(A.page, '60-p2p-orders-draw-committed');
    assert.equal(await attr(B.page, 'data-phase'), 'orders-movement');
    await B.page.check('#o-draw');
    await B.page.click('#o-submit');
    for (const p of [A.page, B.page]) {
      await until('the game is drawn', async () => (await attr(p, 'data-phase')) === 'over' && Number(await online(p, 'data-log-len')) === 1);
      assert.match(await p.locator('#ogameover').textContent(), /The game is drawn/);
      assert.match(await season(p), /Game over/);
    }
    await shot(B.page, '61-p2p-orders-drawn');
    // The game over's statistics chart the online game from its positions (issue 60, item 9):
    // supply centres and units, a line per power that held any.
    assert.ok(Number(await B.page.locator('#ocharts-0').getAttribute('data-lines')) > 1);
    await axeCheck(B.page, 'online orders game over');
    const hashes = await Promise.all([A.page, B.page].map((p) => attr(p, 'data-state-hash')));
    assert.ok(hashes[0] && hashes[0].length === 64, `hash ${hashes[0]}`);
    assert.equal(hashes[0], hashes[1]);
    console.log('p2p orders draw: state hash', hashes[0]);
    assert.deepEqual(A.errors, []);
    assert.deepEqual(B.errors, []);
  } finally {
    await ctxA.close();
    await ctxB.close();
  }
});
