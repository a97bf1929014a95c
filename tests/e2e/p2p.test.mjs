// Online play over real WebRTC on 127.0.0.1: a local matchbox_server, two Chromium pages (separate
// contexts) and one native `orbis-join --bot` peer join one room, agree a classic setup and play
// the game to its end; one page is reloaded mid-game and rejoins with its stored key. All three end
// with the same state hash. Chat (public and private) reaches exactly its recipients; the lobby's
// rules are chosen by the proposer and shown to all; the browsers play their main-phase turns by
// hand until the vote (one attack on a page, the reloaded page's turn), so that no computer player
// completes a mission before it; later a page is closed and, after the (short, `missing_ms`)
// timeout, the others vote its seat to the computer and finish the game. Cards and secret missions are on, dealt face down among the three:
// each page shows its own mission and cards, and the finished game's transcript, downloaded from a
// page, checks out with `orbis verify` (ORBIS_CLI). Also measures the time from an attack
// declaration to the dice shown on both pages. Needs ORBIS_JOIN (the orbis-join binary) and
// MATCHBOX_SERVER (scripts/test-web.sh sets both, and ORBIS_CLI); skipped with a message otherwise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { URL_BASE, OUT, shot, attr, watchErrors, territories, clickTerr, chooseFrom, until, openOnline as open, matchboxSuite, online, setAutoplay, axeCheck } from './helpers.mjs';

const CLI = process.env.ORBIS_CLI;
const net = matchboxSuite({ join: true });

/** One action by hand on the page whose turn it is, short of an attack: a forced trade, the
 * reinforcements on one territory, an occupation, else "end turn"; waits for it to go through. */
async function handStep(page, phone = false) {
  const len0 = Number(await online(page, 'data-log-len'));
  const ph = await attr(page, 'data-phase');
  if (await page.locator('#trade-dialog .trade-set').count()) {
    await page.locator('#trade-dialog .trade-set').first().click();
  } else if (ph === 'reinforce') {
    await page.click('#place-all');
    const mine = (await territories(page)).find((t) => t.mine).key;
    // On a phone the map shows a part of the world: a territory off it is reached by panning,
    // which the click event stands for here.
    if (phone) await page.locator(`g.terr[data-key="${mine}"]`).dispatchEvent('click');
    else await clickTerr(page, mine);
  } else if (ph === 'occupy') {
    await page.click('#btn-occupy');
  } else {
    await page.click('#btn-end-turn');
  }
  await until('a hand action to go through', async () => Number(await online(page, 'data-log-len')) > len0, 20000);
}

/** Every visible control of the game (not the room bar) is the top element at its centre once
 * scrolled into view: nothing the player must press lies under anything else. */
async function assertHittable(page, what) {
  const covered = await page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll('#online button, #online select, #online input, #online [role=tab]')) {
      if (el.closest('.online-bar')) continue;
      if (!el.getClientRects().length) continue;
      el.scrollIntoView({ block: 'center', inline: 'center' });
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!top || !(top === el || el.contains(top) || top.contains(el) && top.tagName === 'LABEL')) {
        out.push(`${el.id || el.textContent.trim().slice(0, 30)} under ${top ? (top.id || top.className || top.tagName) : 'nothing'}`);
      }
    }
    return out;
  });
  assert.deepEqual(covered, [], `${what}: controls covered`);
}

/** Plays the rest of the page's turn by hand without attacking (checking, with `hittable`, that
 * every control of each step can be pressed). */
async function endTurnByHand(page, hittable = false) {
  for (let i = 0; i < 20 && (await attr(page, 'data-my-turn')) === '1'; i++) {
    if (hittable) await assertHittable(page, `phase ${await attr(page, 'data-phase')}`);
    await handStep(page, hittable);
  }
  assert.notEqual(await attr(page, 'data-my-turn'), '1', 'the turn passed');
}

test('two browsers and a native bot play a classic game over WebRTC; a reload rejoins', { skip: net.skip, timeout: 420000 }, async () => {
  const room = `e2e-${process.pid}-${Date.now() % 100000}`;
  const { signal } = net;
  const url = `${URL_BASE}?signal=${encodeURIComponent(signal)}&missing_ms=3000#room=${room}`;
  const ctxA = await net.browser.newContext();
  const ctxB = await net.browser.newContext();
  const A = await open(ctxA, url, 'Alice');
  let B = await open(ctxB, url, 'Bob');
  let out = '';
  let err = '';
  // The native peer plays at the easy level (random legal moves): with missions on, a stronger
  // player could complete one within a turn or two and end the game before the steps below.
  const native = spawn(net.join, [`${signal}/${room}`, '--bot', 'easy', '--name', 'Native', '--timeout-s', '400']);
  native.stdout.on('data', (d) => { out += d; });
  native.stderr.on('data', (d) => { err += d; });
  const exited = new Promise((res) => native.on('exit', (code) => res(code)));
  try {
    // Everyone meets everyone in the lobby.
    await until('three peers in the lobby', async () => (await online(A.page, 'data-peers')) === '3' && (await online(B.page, 'data-peers')) === '3');
    assert.match(await A.page.locator('#p2p-notice').textContent(), /dealt face down by all the players/);
    // Chat: to everyone (both pages and the native peer, which logs it), and private to one player.
    // The addressee stays "Everyone" while players arrive (the list of options changes under it).
    assert.equal(await A.page.locator('#chat-to').inputValue(), '');
    await A.page.fill('#chat-text', 'hello all');
    await A.page.click('#chat-send');
    const chatT0 = Date.now();
    await until('public chat on Bob', async () => (await B.page.locator('#chat-log').textContent()).includes('hello all'), 60000)
      .catch(async (e) => {
        const st = async (p) => `${await p.locator('#online-status').textContent()} pending=${await online(p, 'data-chat-pending')}`;
        throw new Error(`${e.message}; Alice: ${await st(A.page)}; Bob: ${await st(B.page)}`);
      });
    await until('public chat on the native peer', async () => err.includes('hello all'), 60000);
    assert.equal(await B.page.locator('#chat-log li.private', { hasText: 'hello all' }).count(), 0, 'public, not private');
    console.log('chat delivered to both after', Date.now() - chatT0, 'ms');
    const alice = await B.page.locator('#chat-to option', { hasText: 'Alice' }).getAttribute('value');
    await B.page.selectOption('#chat-to', alice);
    await B.page.fill('#chat-text', 'psst Alice');
    await B.page.click('#chat-send');
    await until('private chat on Alice', async () => (await A.page.locator('#chat-log').textContent()).includes('psst Alice'), 20000);
    assert.match(await A.page.locator('#chat-log li.private').last().textContent(), /Bob.*private.*psst Alice/);
    await shot(A.page, '28-p2p-chat');
    // The proposer chooses the rules; everyone sees them with the proposal.
    await A.page.click('#online-options summary');
    await A.page.selectOption('#opt-fortify', '3');
    await A.page.check('#opt-missions');
    await A.page.check('#opt-hold');
    await A.page.screenshot({ path: join(OUT, '29-p2p-lobby-rules.png'), fullPage: true });
    await A.page.click('#online-propose');
    await A.page.locator('.accept').click();
    await B.page.locator('.accept').waitFor();
    assert.match(await B.page.locator('.rules-summary').last().textContent(), /fortify along connected territories/);
    await shot(B.page, '30-p2p-lobby');
    // Issue 60: the lobby as a second player sees it after joining, a proposal to accept.
    await axeCheck(B.page, 'online lobby (joined, a proposal to accept)');
    await B.page.locator('.accept').click();
    for (const p of [A.page, B.page]) await p.locator('#map').waitFor({ timeout: 60000 });
    assert.equal(await online(A.page, 'data-started'), '1');
    // Each page reads its own mission once the others' shares arrive, and only its own.
    for (const p of [A.page, B.page]) {
      await until('a mission read', async () => /Mission:/.test(await p.locator('#mission').textContent().catch(() => '')), 60000);
    }
    await shot(A.page, '30a-p2p-alice-mission');

    // The first browser to move claims (or places on) one territory by hand through the board when her turn comes; then the computer
    // plays both browser seats (the native peer plays its own).
    await until('Alice to claim', async () => (await attr(A.page, 'data-my-turn')) === '1' || (await attr(B.page, 'data-my-turn')) === '1');
    const active = (await attr(A.page, 'data-my-turn')) === '1' ? A.page : B.page;
    const before = Number(await online(active, 'data-log-len'));
    const phase = await attr(active, 'data-phase');
    const target = phase === 'claim' ? 'g.terr[data-owner="none"]' : 'g.terr[data-mine="1"]';
    await active.locator(target).first().dispatchEvent('click');
    await until('the claim to go through the protocol', async () => Number(await online(active, 'data-log-len')) > before, 20000);
    for (const p of [A.page, B.page]) await setAutoplay(p, true);

    // The computer places both browsers' armies; from the main phase on, Alice and Bob play by
    // hand (so that no computer player of theirs completes a mission before the vote), Bob
    // ending his turns without attacking.
    await until('the main phase', async () => !['claim', 'setup', 'none'].includes(await attr(A.page, 'data-phase')), 240000);
    for (const p of [A.page, B.page]) await setAutoplay(p, false);
    let bobTurns = 0;
    const bobPlays = async () => {
      if ((await attr(B.page, 'data-my-turn')) === '1') {
        // Bob's first turn on a phone: the room bar lies over none of the game's controls.
        const phone = bobTurns === 0;
        const size = B.page.viewportSize();
        if (phone) await B.page.setViewportSize({ width: 390, height: 844 });
        if (phone) await shot(B.page, '30d-p2p-bob-phone');
        await endTurnByHand(B.page, phone);
        if (phone) await B.page.setViewportSize(size);
        bobTurns += 1;
      }
    };
    const aliceTurn = (what) => until(what, async () => {
      await bobPlays();
      return (await attr(A.page, 'data-my-turn')) === '1';
    }, 120000).catch(async (e) => {
      const st = async (p, who) => {
        await p.screenshot({ path: `${OUT}/fail-${who}.png` });
        return `${who}: turn ${await attr(p, 'data-turn')} phase ${await attr(p, 'data-phase')} my-turn ${await attr(p, 'data-my-turn')} log ${await online(p, 'data-log-len')} / ${await p.locator('#online-status').textContent()} / ${await p.locator('#prompt').textContent().catch(() => '')}`;
      };
      throw new Error(`${e.message}; ${await st(A.page, 'alice')}; ${await st(B.page, 'bob')}; native: ${err.slice(-1500)}`);
    });

    // One attack by hand on Alice's page: she places her armies, picks a source and a target on
    // the board and rolls once. The dice appear on both pages and both reach the same state.
    let attacked = false;
    for (let i = 0; i < 40 && !attacked; i++) {
      await aliceTurn('Alice to act');
      // The strongest attack from one of her territories, if the page is at that step.
      let pair = null;
      if ((await attr(A.page, 'data-phase')) === 'attack' && !(await A.page.locator('#trade-dialog .trade-set').count())) {
        const ts = await territories(A.page);
        const byKey = Object.fromEntries(ts.map((t) => [t.key, t]));
        for (const t of ts.filter((t) => t.mine && t.armies >= 2)) {
          for (const n of t.adj.map((k) => byKey[k]).filter((n) => !n.mine)) {
            if (!pair || t.armies - n.armies > pair.score) pair = { from: t.key, to: n.key, score: t.armies - n.armies };
          }
        }
      }
      if (!pair) {
        await handStep(A.page);
        continue;
      }
      const len0 = Number(await online(A.page, 'data-log-len'));
      await chooseFrom(A.page, pair.from);
      await clickTerr(A.page, pair.to);
      try {
        await A.page.locator('#btn-roll').click();
      } catch (e) {
        // Keep what the page showed, to tell a lost click from a refused one.
        await A.page.screenshot({ path: `${OUT}/fail-roll.png` });
        console.log('no roll button after choosing', pair, 'my turn', await attr(A.page, 'data-my-turn'),
          'phase', await attr(A.page, 'data-phase'), 'messages', await A.page.locator('[role=alert]').allTextContents());
        throw e;
      }
      await until('Alice\'s attack to go through', async () => Number(await online(A.page, 'data-log-len')) > len0, 20000);
      attacked = true;
    }
    assert.ok(attacked, 'Alice attacked by hand');
    const diceA = await A.page.locator('.dice').textContent();
    assert.match(diceA, /Attack.*Defence/);
    await until('the same dice on Bob\'s page', async () => (await B.page.locator('.dice').textContent().catch(() => '')) === diceA, 20000);
    const same = async () => (await online(A.page, 'data-log-len')) === (await online(B.page, 'data-log-len'))
      && (await attr(A.page, 'data-state-hash')) === (await attr(B.page, 'data-state-hash'));
    await until('the same state on both pages', same, 20000);
    await shot(A.page, '30b-p2p-alice-attack');
    await shot(B.page, '30c-p2p-bob-sees-attack');

    // Mid-game, while Alice holds her turn: Bob reloads his page; it rejoins with the key stored
    // for the room, catches up, and plays his next turn by hand. (Here rather than a round later:
    // every round before the vote is one more turn in which the native peer could complete its
    // mission and end the game.)
    await shot(A.page, '31-p2p-alice-midgame');
    await axeCheck(A.page, 'online classic game (in progress)');
    const grab = (p) => p.evaluate(() => window.__orbisP2p || { declared: {}, shown: {} });
    const marksB0 = await grab(B.page);
    await B.page.reload();
    await B.page.locator('#autoplay').waitFor({ timeout: 60000 });
    await shot(B.page, '32-p2p-bob-rejoined');
    await until('Bob to catch up after the reload', same, 60000);
    // Alice ends her turn; Bob's reloaded page is given his turn (the native peer may play in
    // between).
    await endTurnByHand(A.page);
    await until('Bob\'s turn on his reloaded page', async () => (await attr(B.page, 'data-my-turn')) === '1'
      || (await attr(A.page, 'data-phase')) === 'over', 120000);

    // Bob leaves for good at his own turn: after the timeout Alice votes his seat to the
    // computer, the native peer seconds it, and the game goes on. (At his turn, not Alice's: a
    // vote where the game does not wait on him would never apply, security review B7, and every
    // turn more is one in which the native peer could complete its mission and end the game.)
    const marksB1 = await grab(B.page);
    await B.page.close();
    const vote = A.page.locator('.vote[data-peer-name="Bob"] button');
    await vote.waitFor({ timeout: 60000 }).catch(async (e) => {
      await A.page.screenshot({ path: `${OUT}/fail-vote-bob.png` });
      throw new Error(`${e.message}; Alice's page: phase ${await attr(A.page, 'data-phase')} / ${await A.page.locator('#online-status').textContent()} / ${await A.page.locator('#prompt').textContent()}`);
    });
    assert.match(await A.page.locator('#online-status').textContent(), /Waiting for Bob/);
    await shot(A.page, '32a-p2p-vote-bob');
    await vote.click();
    await A.page.locator('.vote[data-peer-name="Bob"] .tally').waitFor();
    assert.match(await A.page.locator('.vote[data-peer-name="Bob"] .tally').textContent(), /1 of 2 votes/);
    await shot(A.page, '32b-p2p-vote');
    await until('the vote to pass', async () => (await A.page.locator('#log').textContent()).includes("Bob's seat is now played by the computer"), 60000);
    const len2 = Number(await online(A.page, 'data-log-len'));
    await setAutoplay(A.page, true);
    // It goes on (or, missions being on, ends: a mission may be done within a few moves).
    await until('the game to go on', async () => Number(await online(A.page, 'data-log-len')) > len2 + 5
      || (await attr(A.page, 'data-phase')) === 'over', 60000)
      .catch(async (e) => {
        await A.page.screenshot({ path: `${OUT}/fail-go-on.png` });
        throw new Error(`${e.message}; Alice's page: ${await A.page.locator('#online-status').textContent()} / ${await A.page.locator('#prompt').textContent()} / log ${await online(A.page, 'data-log-len')}`);
      });

    // The native peer prints its JSON line when the game is over.
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 360000).unref())]);
    assert.equal(code, 0, `orbis-join exit ${code}: ${err.slice(-2000)}`);
    const line = out.trim().split('\n').pop();
    const res = JSON.parse(line);
    await until('game over on Alice\'s page', async () => (await attr(A.page, 'data-state-hash')) === res.state_hash, 30000);
    assert.equal(await attr(A.page, 'data-phase'), 'over');
    await shot(A.page, '33-p2p-alice-over');
    // The winner's screen charts the whole game (issue 60, item 9): an online game has no
    // history to replay, so the course is sampled from its positions; a line per player.
    for (let i = 0; i < 3; i += 1) assert.equal(await A.page.locator(`#winner-charts-${i}`).getAttribute('data-lines'), '3');
    await axeCheck(A.page, 'online classic game over');
    // The transcript of the finished game, downloaded from Alice's page, checks out offline.
    await A.page.waitForTimeout(3000);
    // The result's dialog is put aside to reach the page's online panel.
    await A.page.click('#winner-close');
    const [download] = await Promise.all([A.page.waitForEvent('download'), A.page.click('#download-transcript')]);
    await shot(A.page, '33a-p2p-alice-transcript');
    assert.match(download.suggestedFilename(), /^orbis-game-[0-9a-f]{8}\.orbis-transcript$/);
    const file = join(OUT, 'p2p-game.orbis-transcript');
    await download.saveAs(file);
    if (CLI && existsSync(CLI)) {
      const report = execFileSync(CLI, ['verify', file], { encoding: 'utf8' });
      console.log(report);
      assert.match(report, /transcript verified/);
      assert.match(report, new RegExp(`state ${res.state_hash}`));
      // Bob, voted out, never published his key: Alice's and the native peer's escrow pieces
      // of it rebuild it, so the whole deal opens.
      assert.match(report, /face-down deal: every key published \(1 of a player who left, rebuilt from the others' escrow pieces\)/);
    }
    // The same transcript replays on Alice's page with every hand turned face up: the deal's
    // keys are all in the file (Bob's rebuilt from the escrow pieces).
    await A.page.click('#replay-transcript');
    await A.page.locator('#replay').waitFor();
    assert.equal(await A.page.locator('#replay').getAttribute('data-sound'), '1', await A.page.locator('#replay-verdict').textContent());
    assert.match(await A.page.locator('#replay-deal').textContent(), /every player's key was published at the end, so every card is shown/);
    await A.page.click('#replay-end');
    await until('the last position of the replay', async () => (await A.page.locator('#replay').getAttribute('data-hash')) === res.state_hash, 10000);
    assert.equal(await A.page.locator('#replay-hands .card.down').count(), 0, 'no card face down');
    assert.equal(await A.page.locator('#replay-hands li').count(), 3);
    const handsText = await A.page.locator('#replay-hands').textContent();
    assert.ok(!/mission face down/.test(handsText), handsText);
    await shot(A.page, '33b-p2p-transcript-replay-hands');
    // The transcript's charts: territories, armies and income from its positions, a line each.
    for (let i = 0; i < 3; i += 1) assert.equal(await A.page.locator(`#replay-charts-${i}`).getAttribute('data-lines'), '3');
    await A.page.locator('#replay-charts').scrollIntoViewIfNeeded();
    await shot(A.page, '33c-p2p-transcript-replay-charts');
    await A.page.click('#replay-close');
    await A.page.locator('#online').waitFor();
    assert.ok(err.includes('vote passed: Drop'), 'the native peer applied the vote');
    assert.ok(!err.includes('psst Alice'), 'a private message reaches only its addressee');

    // Attack declaration (on one page) to dice shown on both pages.
    // Bob's marks from before the reload count (the replay after it shows old rolls again).
    // Bob's page is closed: his marks are those taken before; rolls after it count on Alice only.
    const marks = [await grab(A.page), marksB1];
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
    writeFileSync(join(OUT, 'p2p-native.log'), err);
    native.kill();
    await ctxA.close();
    await ctxB.close();
  }
});
