// The economy ruleset online, as the published page runs it: pages from a host name that is not
// localhost, under a sub-path, meeting through a real Nostr relay process on 127.0.0.1 (no
// signalling server), with a native `orbis-join` computer player in the room. Alice proposes an
// economy game of three rounds from the lobby (its rules summary on the proposal); each page
// plays only its own seat: the capitals are picked by hand on the board's panel, Alice offers Bob
// an alliance in her first Get phase (her choices travel as one batch, taken back once with
// "Take them back"; her page is reloaded between committing and revealing it); both pages play round 1 by hand, and Bob accepts the alliance in round 2's
// Get phase; in round 1 Alice attacks Bob's capital next door and rolls the attack on to its end
// (her page passes after each roll; Bob passes on his); the computer plays the rest for both pages
// (battles are fought, each roll from the dice beacon) and Bob's page is reloaded mid-game and
// rejoins. The finished game's transcript replays on Alice's page to the same hash. All three peers end the game with one state hash.
// Needs NOSTR_RELAY and ORBIS_JOIN (scripts/test-web.sh sets them); skipped otherwise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { shot, attr, watchErrors, until, relaySuite, online, setAutoplay, controlsOnTop, axeCheck } from './helpers.mjs';

const net = relaySuite({ join: true });

const phase = (page) => attr(page, 'data-phase');
/** The seat the panel offers this page now (`data-actor`), or null while it waits. */
/** Opens the panel's Diplomacy section (folded by default). */
async function diplomacy(page) {
  if ((await page.locator('#diplomacy').getAttribute('open')) === null) await page.click('#diplomacy summary');
}
/** Plays this page's part of the current step by hand, the plainest way: settle upkeep, finish
 * the Get phase, plan nothing, no friendly moves, pass every declaration, let interceptions go,
 * and take the first battle or action offered. True when something was clicked. Nothing is
 * played from round `before` on: the check and the click are one task of the page, so a round
 * that begins meanwhile is never played by mistake (it once finished round 2's Get phase,
 * which the test plays itself, between a check and a click). */
async function playStep(page, before) {
  return page.evaluate(([sels, before]) => {
    if (!document.querySelector('#panel .act')) return false;
    const m = (document.querySelector('#turn-title')?.textContent || '').match(/Round (\d+)/);
    if (m && Number(m[1]) >= before) return false;
    for (const sel of sels) {
      const el = document.querySelector(sel);
      if (el && !el.disabled) {
        el.click();
        return true;
      }
    }
    return false;
  }, [['#pay-upkeep', '#finish-get', '#submit-plans', '#finish-moving', '#stop-moving', '#declare-none', '#intercept-no',
    // (Not a rules term's word: "initiative" in the prompt is a button too, which opens its explanation.)
    '#pick-battle button:not(.term-word)', '#choose-action button:not(.term-word)', '#steal button:not(.term-word)'], before]);
}
/** Land neighbours among the four countries the test's capitals are picked from. */
const NEXT = {
  western_europe: ['Northern Europe', 'Southern Europe'],
  northern_europe: ['Western Europe', 'Southern Europe', 'Ukraine'],
  southern_europe: ['Western Europe', 'Northern Europe', 'Ukraine'],
  ukraine: ['Northern Europe', 'Southern Europe'],
};
const actor = async (page) => (await page.locator('#panel .act').count()) ? page.locator('#panel .act').getAttribute('data-actor') : null;

test('two browsers and a native computer player play an economy game through a Nostr relay to one hash', { skip: net.skip, timeout: 900000 }, async () => {
  assert.doesNotMatch(net.base, /localhost|127\.0\.0\.1/);
  const ctxA = await net.browser.newContext({ viewport: { width: 1280, height: 860 } });
  const ctxB = await net.browser.newContext({ viewport: { width: 1280, height: 860 } });
  const A = await ctxA.newPage();
  const errorsA = watchErrors(A);
  await A.goto(net.base);
  await A.click('#play-online');
  await A.fill('#online-name', 'Alice');
  await A.click('#online-settings summary');
  await A.fill('#online-relays', net.relayUrl);
  await A.click('#online-create');
  await A.locator('#online-status').waitFor();
  const link = A.url();
  const secret = new URL(link).hash.match(/room=([^&]+)/)[1];
  let B = await ctxB.newPage();
  const errorsB = watchErrors(B);
  await B.goto(link);
  await B.fill('#online-name', 'Bob');
  await B.click('#online-join');
  /** Both pages as they stood when a wait failed: `test-output/fail-NAME-a.png` and `-b.png`. */
  const failShots = async (name) => {
    await A.screenshot({ path: `test-output/fail-${name}-a.png` });
    await B.screenshot({ path: `test-output/fail-${name}-b.png` });
  };
  let out = '';
  let err = '';
  const native = spawn(net.join, ['--relays', net.relayUrl, '--room', secret, '--bot', 'normal', '--name', 'Native', '--timeout-s', '800']);
  native.stdout.on('data', (d) => { out += d; });
  native.stderr.on('data', (d) => { err += d; });
  const exited = new Promise((res) => native.on('exit', (code) => res(code)));
  try {
    await until('three peers in the lobby', async () => (await online(A, 'data-peers')) === '3' && (await online(B, 'data-peers')) === '3', 90000).catch(async (e) => {
      // Said before failing, to tell which peer did not meet the others through the relay
      // (this timed out once in a fresh-clone run and passed when run again).
      console.log(`lobby: Alice sees ${await online(A, 'data-peers').catch(() => '?')} peers, Bob ${await online(B, 'data-peers').catch(() => '?')}; orbis-join exited: ${native.exitCode}`);
      console.log(`orbis-join stdout: ${out.slice(-2000)}`);
      console.log(`orbis-join stderr: ${err.slice(-2000)}`);
      await failShots('p2p-economy-lobby');
      throw e;
    });
    // Alice chooses the economy, a quick game of three rounds, and proposes it.
    await A.selectOption('#online-ruleset', 'economy');
    await A.click('#online-economy-options summary');
    await A.selectOption('#elimit', { label: '3 rounds: a quick game' });
    assert.match(await A.locator('#economy-summary').textContent(), /Economy · 3 players · European capitals setup.*ends after round 3/);
    // Influence cards are dealt face down among the players (issue 29), and the lobby says so.
    assert.match(await A.locator('#p2p-notice').textContent(), /Influence cards are dealt face down/);
    await shot(A, '80-p2p-economy-lobby');
    await A.click('#online-propose');
    await A.locator('.accept').first().click();
    await B.locator('.accept').first().waitFor({ timeout: 30000 });
    const proposal = await B.locator('#online-proposals').textContent();
    assert.match(proposal, /Economy game, 3 seats/);
    assert.match(proposal, /ends after round 3/);
    assert.match(proposal, /Cards face down/);
    await B.locator('.accept').first().click();
    for (const p of [A, B]) await until('the economy screen', async () => (await phase(p))?.startsWith('economy-'), 60000);
    // Bob plays on a phone: every control of every phase he sees is the top element at its
    // centre, his panel's folded sections opened first (issue 64 reported the standings table
    // over the incite-revolution buttons and the surrender button: those sit in folded sections,
    // whose hidden content keeps a place under the table; opened, they are on top).
    await B.setViewportSize({ width: 390, height: 844 });
    let hitChecks = 0;
    const bOnTop = async () => {
      if (!(await phase(B))?.startsWith('economy-')) return;
      await B.evaluate(() => { for (const d of document.querySelectorAll('#panel details')) d.open = true; });
      hitChecks += await controlsOnTop(B, '.economy-play');
    };
    await shot(B, '81-p2p-economy-picks');

    // The capitals, picked in turn by hand (the native peer picks its own).
    const seatOf = {};
    while ((await phase(A)) === 'economy-pick' || (await phase(B)) === 'economy-pick') {
      for (const p of [A, B]) {
        const s = await actor(p);
        if (s !== null && (await phase(p)) === 'economy-pick') {
          seatOf[p === A ? 'A' : 'B'] = s;
          const len = Number(await online(p, 'data-log-len'));
          // Alice and Bob take neighbouring countries (the native peer takes one at most):
          // next to the other's if it has picked, else the first of the four still free.
          const other = seatOf[p === A ? 'B' : 'A'];
          const near = other === undefined ? ['Northern Europe', 'Southern Europe', 'Western Europe', 'Ukraine']
            : NEXT[await p.locator(`#board [data-owner="${other}"]`).first().getAttribute('data-key')] ?? [];
          let pick = p.locator('#panel .choices button').first();
          for (const name of near) {
            const b = p.locator('#panel .choices button', { hasText: name });
            if (await b.count()) { pick = b.first(); break; }
          }
          await pick.click();
          await until('the pick played', async () => Number(await online(p, 'data-log-len')) > len, 30000).catch(async (e) => {
            await p.screenshot({ path: 'test-output/fail-economy-pick.png' });
            throw new Error(`${e.message}: notes ${await p.locator('.online-notes').first().textContent()}; panel ${await p.locator('#panel').textContent()}; native ${err.slice(-1500)}`);
          });
        }
      }
      await A.waitForTimeout(100);
    }
    // Setup done by European capitals: the first Get phase, on every page alike.
    for (const p of [A, B]) await until('the Get phase', async () => (await phase(p)) === 'economy-get', 60000);
    const seatA = seatOf.A ?? await actor(A);
    const seatB = seatOf.B ?? await actor(B);
    assert.notEqual(seatA, seatB);

    // Alice's Get phase: an alliance offered to Bob, taken back, offered again, then done.
    await until('Alice to act', async () => (await actor(A)) === seatA, 30000);
    if (await A.locator('#pay-upkeep').count()) await A.click('#pay-upkeep');
    await diplomacy(A);
    await A.click(`#ally-${seatB}`);
    assert.match(await A.locator('#online-batch').textContent(), /sent when you finish/);
    assert.match(await A.locator(`#ally-${seatB}`).textContent(), /Withdraw the offer/);
    await A.click('#undo');
    await diplomacy(A);
    assert.match(await A.locator(`#ally-${seatB}`).textContent(), /Offer .* an alliance/);
    await A.click(`#ally-${seatB}`);
    await shot(A, '82-p2p-economy-get-batch');
    await axeCheck(A, 'online economy game (Get phase, choices not sent)');
    await A.click('#finish-get');
    await until('Alice waits for the others', async () => (await A.locator('#waiting').getAttribute('data-sent')) === '1', 30000);
    await shot(A, '83-p2p-economy-sent');
    // Alice's page is reloaded between her commitment and her reveal (Bob has not finished): it
    // rejoins, commits its stored batch again and shows it sent; nothing is offered twice.
    await A.reload();
    await until('Alice back, her batch still sent', async () => (await A.locator('#waiting').getAttribute('data-sent', { timeout: 500 }).catch(() => null)) === '1', 90000);
    assert.equal(await A.locator('#finish-get').count(), 0);
    // Bob finishes his Get phase; the offer reaches him once the position is played.
    await until('Bob to act', async () => (await actor(B)) === seatB, 30000);
    if (await B.locator('#pay-upkeep').count()) await B.click('#pay-upkeep');
    await B.click('#finish-get');

    // Round 1 played by hand on both pages (nothing planned, no friendly moves, every
    // declaration passed) until round 2's Get phase, where Bob accepts the alliance: alliances
    // are the Get phase's business, and Alice's offer reached him only once round 1's first
    // position was played (the Get phase's choices are simultaneous online).
    const round = async (p) => Number(((await p.locator('#turn-title').textContent()).match(/Round (\d+)/) || [0, 0])[1]);
    let steps = 0;
    // Alice's attack: her capital's armies planned into Bob's capital, the attack declared, then
    // rolled on to its end (issue 60, item 4): her page sends her pass after each roll, the
    // action the Pass button sends, while Bob passes on his own page.
    const capital = async (seat) => A.locator(`#board [data-owner="${seat}"]`).first().getAttribute('data-key');
    const battle = { planned: false, declared: false, rolling: 0, over: null, shots: 0 };
    const alicesAttack = async () => {
      if (battle.over) return false;
      const ph = await phase(A);
      if (!battle.planned && ph === 'economy-planning' && (await actor(A)) === seatA) {
        await A.locator(`#r-${await capital(seatA)}`).dispatchEvent('click');
        await A.locator(`#r-${await capital(seatB)}`).dispatchEvent('click');
        await A.locator('#draft li').waitFor({ timeout: 5000 });
        await shot(A, '82c-p2p-economy-plan-attack');
        await A.click('#submit-plans');
        battle.planned = true;
        return true;
      }
      if (await A.locator('#rolling').count()) {
        if (!battle.shots++) await shot(A, '82e-p2p-economy-rolling-on');
        return true;
      }
      const log = await A.locator('#log').textContent();
      battle.over = log.match(/Rolled on: the attack is over[^.]*\./)?.[0] ?? null;
      if (battle.over) return true;
      if (!battle.declared && (await A.locator('#declare .attack-choice button').count())) {
        await A.locator('#declare .attack-choice button').first().click();
        battle.declared = true;
        return true;
      }
      if (battle.declared && (await A.locator('#roll-on-end').count())) {
        // The whole attack in one click.
        if (!battle.rolling) await shot(A, '82d-p2p-economy-roll-on');
        await A.click('#roll-on-end');
        battle.rolling += 1;
        return true;
      }
      return false;
    };
    await until('round 2\'s Get phase on Bob\'s page', async () => {
      if ((await round(B)) >= 2 && (await phase(B)) === 'economy-get' && (await actor(B)) === seatB) return true;
      await bOnTop();
      const alice = await alicesAttack();
      if (!alice && (await playStep(A, 2))) steps += 1;
      if (await playStep(B, 2)) steps += 1;
      return false;
    }, 300000).catch(async (e) => {
      await failShots('economy-round');
      throw new Error(`${e.message}: A panel ${await A.locator('#panel').textContent()}; B panel ${await B.locator('#panel').textContent()}`);
    });
    battle.over ??= (await A.locator('#log').textContent()).match(/Rolled on: the attack is over[^.]*\./)?.[0] ?? null;
    console.log(`round 1 by hand: ${steps} steps; Alice's attack: ${battle.over} (${battle.rolling} roll-on clicks)`);
    assert.ok(battle.planned && battle.declared, 'Alice attacked Bob');
    assert.ok(battle.rolling > 0, 'Alice rolled on');
    assert.match(battle.over ?? '', /^Rolled on: the attack is over: /);
    await diplomacy(B);
    assert.match(await B.locator(`#ally-${seatA}`).textContent(), /Accept Alice's alliance/);
    await B.click(`#ally-${seatA}`);
    await shot(B, '84-p2p-economy-accept-alliance');
    if (await B.locator('#pay-upkeep').count()) await B.click('#pay-upkeep');
    await B.click('#finish-get');
    await until('Alice\'s Get phase', async () => (await actor(A)) === seatA, 60000);
    if (await A.locator('#pay-upkeep').count()) await A.click('#pay-upkeep');
    await A.click('#finish-get');
    for (const p of [A, B]) {
      await until('the alliance on both pages', async () => (await p.locator(`#standings tr[data-player="${seatA}"]`).textContent()).includes('Bob'), 60000).catch(async (e) => {
        await failShots('economy-ally');
        throw new Error(`${e.message}: A log ${await A.locator('#log').textContent()}; B panel ${await B.locator('#panel').textContent()}`);
      });
    }
    // From here the computer plays both pages' seats; every battle roll is watched for.
    let rolls = 0;
    const watchRolls = async () => {
      const log = await A.locator('#log').textContent().catch(() => '');
      if (/ rolls \d/.test(log)) rolls += 1;
    };
    // Alice's page lets the computer play; Bob's does not yet, so the game comes to wait on
    // him and cannot play to its end while his page reloads. (Turning his computer on and off
    // again raced the game: its positions take milliseconds over loopback, and in one run of
    // eight it played rounds 2 and 3 in the moment Bob's computer was on, and ended.)
    await setAutoplay(A, true);
    // Bob's page is reloaded mid-game: it rejoins with its stored key and catches up; the
    // computer's help is not remembered across a reload, so Bob turns it on after.
    await until('the game waits on Bob', async () => { await watchRolls(); return (await actor(B)) !== null; }, 120000).catch(async (e) => {
      // Said before failing: where each page stands, so a failure can be read.
      await failShots('economy-waits-bob');
      const where = async (p) => `phase ${await phase(p).catch(() => '?')}, autoplay ${await online(p, 'data-autoplay').catch(() => '?')}, log ${await online(p, 'data-log-len').catch(() => '?')}, title ${await p.locator('#turn-title').textContent().catch(() => '?')}, panel ${await p.locator('#panel').textContent().catch(() => '?')}`;
      throw new Error(`${e.message}: A: ${await where(A)}; B: ${await where(B)}; A log ${await A.locator('#log').textContent().catch(() => '?')}`);
    });
    assert.notEqual(await phase(B), 'over');
    const lenBefore = Number(await online(B, 'data-log-len'));
    const reloaded = Date.now();
    await B.reload();
    // Back in the game: the restored log, the economy's board, and the room bar of a game
    // that runs (its computer button), not the page still reconnecting.
    await until('Bob back in the game', async () => Number(await online(B, 'data-log-len').catch(() => '0')) >= lenBefore
      && (await phase(B))?.startsWith('economy-') && (await B.locator('#autoplay').count()) > 0, 90000).catch(async (e) => {
      // Said before failing, to tell where the rejoin stopped (this timed out once in a
      // fresh-clone run): whom each page sees, how far each log is, what each page says.
      const seen = async (p) => `peers ${await online(p, 'data-peers').catch(() => '?')}, log ${await online(p, 'data-log-len').catch(() => '?')}, phase ${await phase(p).catch(() => '?')}; ${(await p.locator('#online').textContent().catch(() => '?')).slice(0, 600)}`;
      console.log(`rejoin: before ${lenBefore}; Alice: ${await seen(A)}`);
      console.log(`rejoin: Bob: ${await seen(B)}`);
      console.log(`orbis-join stderr: ${err.slice(-2000)}`);
      await failShots('p2p-economy-rejoin');
      throw e;
    });
    console.log(`rejoin: Bob back in the game ${Date.now() - reloaded} ms after the reload`);
    await shot(B, '85-p2p-economy-rejoined');
    await setAutoplay(B, true);
    const state = async (p) => `${await p.locator('#turn-title').textContent()} len ${await online(p, 'data-log-len')} autoplay ${await online(p, 'data-autoplay')}; panel ${await p.locator('#panel').textContent()}; bar ${await p.locator('.online-bar').textContent()}`;
    for (const p of [A, B]) {
      await until('the game over', async () => { await watchRolls(); await bOnTop(); return (await phase(p)) === 'over'; }, 600000).catch(async (e) => {
        await failShots('economy-end');
        throw new Error(`${e.message}: A ${await state(A)}; B ${await state(B)}; native ${err.slice(-1500)}`);
      });
    }
    await shot(A, '86-p2p-economy-over');
    // The game over's statistics chart the online game from its positions (issue 60, item 9),
    // on Bob's page too (reloaded mid-game: his charts come from the whole transcript).
    for (const p of [A, B]) {
      for (let i = 0; i < 3; i += 1) assert.equal(await p.locator(`#echarts-${i}`).getAttribute('data-lines'), '3');
      assert.equal(await p.locator('#echarts-0 tbody tr').first().locator('td').first().textContent(), '0', 'from the setup on');
    }
    await A.locator('#estats').scrollIntoViewIfNeeded();
    await shot(A, '86c-p2p-economy-over-charts');
    await axeCheck(A, 'online economy game over');
    await shot(B, '86b-p2p-economy-over-phone');
    if (await B.locator('.economy-play').count()) hitChecks += await controlsOnTop(B, '.economy-play');
    console.log(`phone hit-tests: ${hitChecks} controls checked on Bob's page`);
    assert.ok(hitChecks > 20, `${hitChecks} controls checked`);
    const code = await exited;
    assert.equal(code, 0, `orbis-join: ${err.slice(-2000)}`);
    const result = JSON.parse(out.trim().split('\n').pop());
    assert.equal(result.ruleset, 'economy');
    const hashes = await Promise.all([A, B].map((p) => attr(p, 'data-state-hash')));
    assert.equal(hashes[0], hashes[1]);
    assert.equal(hashes[0], result.state_hash, 'the native peer ends at the same state');
    assert.ok(rolls > 0, 'a battle was fought');
    assert.match(await A.locator('#standings').textContent(), /Bob|Alice/);
    console.log(`p2p economy: ${result.positions} positions, ${result.rounds} rounds, hash ${result.state_hash}`);
    // The finished game's transcript replays position by position on Alice's page, checked as
    // `orbis verify` checks it, to the same final state; closing it returns to the room.
    await A.click('#replay-transcript');
    await A.locator('#replay').waitFor();
    assert.equal(await A.locator('#replay').getAttribute('data-sound'), '1', await A.locator('#replay-verdict').textContent());
    // The verdict says how the game ended, as the page does (issue 64).
    assert.match(await A.locator('#replay-verdict').textContent(), / wins (as the last player standing|on the best score when the round limit ended the game after 3 rounds)/);
    assert.equal(await A.locator('#replay').getAttribute('data-step'), '0');
    assert.equal(Number(await A.locator('#replay').getAttribute('data-steps')), result.positions);
    await A.click('#replay-next');
    await A.click('#replay-next');
    await shot(A, '87-p2p-economy-transcript-replay');
    for (let i = 0; i < 3; i += 1) assert.equal(await A.locator(`#replay-charts-${i}`).getAttribute('data-lines'), '3');
    await axeCheck(A, 'online economy transcript replay');
    await A.click('#replay-end');
    await until('the last position', async () => (await A.locator('#replay').getAttribute('data-hash')) === result.state_hash, 10000);
    // The last position, every influence card drawn face up (the replay opens the deal).
    await shot(A, '88-p2p-economy-transcript-end');
    await A.click('#replay-close');
    await A.locator('#online').waitFor();
    assert.equal(await attr(A, 'data-state-hash'), result.state_hash);
    assert.deepEqual(errorsA.filter((e) => !/favicon/.test(e)), []);
    assert.deepEqual(errorsB.filter((e) => !/favicon/.test(e)), []);
  } finally {
    native.kill();
    await ctxA.close();
    await ctxB.close();
  }
});
