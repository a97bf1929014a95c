// A corrupt autosave gives a clear message and the menu; an internal error says that a reload
// resumes the game, and it does; wheel zoom; the phone layout and keyboard labels; a quick game of
// each ruleset in one click.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launch, URL_BASE, shot, attr, territories, clickTerr, waitMyPhase, watchErrors, textMatches } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('corrupt save: message and menu, never a blank page', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(URL_BASE);
  await page.locator('#quick-start').waitFor();
  await page.evaluate(() => localStorage.setItem('orbis.save', 'T1JCSVMBAAAA////garbage'));
  await page.reload();
  // A save of an earlier format (so its header says) is read on the full page: the lite page
  // shows the menu first (a new visit), and Continue goes there.
  await page.click('#continue');
  await page.locator('#notice').waitFor();
  assert.match(await page.locator('#notice').textContent(), /could not be loaded/);
  assert.equal(await attr(page, 'data-screen'), 'menu');
  await shot(page, '14-corrupt-save');
  await context.close();
});

test('an internal error in the game: a message that says reload, and the reload resumes the game', async () => {
  const context = await browser.newContext();
  // Keep the wasm's exports, which Trunk's loader hands to its start event, to make it trap.
  await context.addInitScript(() => addEventListener('TrunkApplicationStarted', (e) => { window.orbisWasm = e.detail.wasm; }));
  const page = await context.newPage();
  await page.goto(URL_BASE + '?seed=e2e-crash');
  await page.click('#quick-start');
  await page.locator('#map').waitFor();
  await page.click('#auto-place');
  await waitMyPhase(page, ['reinforce']);
  const before = await territories(page);
  // An allocation no wasm32 memory can hold aborts, as a panic does in the published build: the
  // module traps in a task of its own, as it would in an event handler.
  await page.evaluate(() => setTimeout(() => window.orbisWasm.__wbindgen_malloc(0xfffffff0, 8)));
  const alert = page.locator('[role=alert]');
  await alert.waitFor();
  assert.match(await alert.textContent(), /Something went wrong in Orbis\. Your game was saved after your last action: reload the page to continue\./);
  await shot(page, '14b-internal-error');
  await page.click('#crash-reload');
  await page.locator('#map').waitFor();
  assert.equal(await attr(page, 'data-phase'), 'reinforce');
  assert.deepEqual(await territories(page), before, 'the reload resumes the same position');
  await context.close();
});

test('the wheel zooms the map by every step, however fast they come', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(URL_BASE + '?seed=e2e-wheel');
  await page.click('#quick-start');
  await page.locator('#map').waitFor();
  const width = async () => Number((await page.locator('#map').getAttribute('viewBox')).split(' ')[2]);
  const full = await width();
  const box = await page.locator('#map').boundingBox();
  // Three steps in one task, before any render, as a trackpad sends them: each zooms the view the
  // one before left. (Each used to zoom the last rendered view, so two of the three were lost;
  // `mouse.wheel` steps arrive one render apart and cannot show that.)
  await page.evaluate(([x, y]) => {
    const at = document.elementFromPoint(x, y);
    for (let i = 0; i < 3; i++) {
      at.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, clientX: x, clientY: y, bubbles: true, cancelable: true }));
    }
  }, [box.x + box.width / 2, box.y + box.height / 2]);
  const want = full / 1.15 ** 3;
  for (let i = 0; i < 50 && Math.abs((await width()) - want) > 1; i++) await page.waitForTimeout(100);
  assert.ok(Math.abs((await width()) - want) <= 1, `${full} -> ${await width()}, want ${want}`);
  await context.close();
});

test('phone layout 390x844 and keyboard labels', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(URL_BASE + '?seed=e2e-phone');
  await page.locator('#quick-start').waitFor();
  await shot(page, '15a-phone-menu');
  await page.click('#quick-start');
  await page.locator('#map').waitFor();
  await shot(page, '15-phone');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `no horizontal scrolling (overflow ${overflow}px)`);
  const label = await page.locator('g.terr').first().getAttribute('aria-label');
  assert.match(label, /^[A-Z][A-Za-z ]+, (red|blue|green|yellow|grey|black|neutral), \d+ arm(y|ies)$/);
  await page.locator('g.terr').first().focus();
  await page.keyboard.press('ArrowRight');
  const focused = await page.evaluate(() => document.activeElement?.dataset?.key);
  assert.ok(focused && focused !== await page.locator('g.terr').first().getAttribute('data-key'));
  const vb = await page.locator('#map').getAttribute('viewBox');
  await page.keyboard.press('+');
  await page.waitForFunction((vb) => document.querySelector('#map').getAttribute('viewBox') !== vb, vb);

  // Play on the phone: the prompt and attack controls sit right under the map.
  await page.click('#auto-place');
  await waitMyPhase(page, ['reinforce']);
  await page.click('#place-all');
  const ts = await territories(page);
  const m = Object.fromEntries(ts.map((t) => [t.key, t]));
  const src = ts.find((t) => t.mine && t.adj.some((k) => !m[k].mine));
  await page.locator(`g.terr[data-key="${src.key}"]`).dispatchEvent('click');
  await page.waitForFunction(() => document.querySelector('#root')?.dataset.phase === 'attack');
  await page.locator(`g.terr[data-key="${src.key}"]`).dispatchEvent('click');
  await page.locator(`g.terr[data-key="${src.adj.find((k) => !m[k].mine)}"]`).dispatchEvent('click');
  await page.locator('#odds').waitFor();
  await shot(page, '15b-phone-attack');
  // The turn counter says what it counts, on a tap; the lite page's link opens How to play on
  // the full page at that section.
  await page.locator('#turn .term-word').tap();
  await page.locator('.term-tip').waitFor();
  assert.match(await page.locator('.term-tip').textContent(), /every player's turn/);
  await shot(page, '15c-phone-term');
  await page.locator('.term-tip a').tap();
  await page.waitForURL(/\/full\//);
  await page.locator('#root[data-screen="help"]').waitFor();
  await page.waitForFunction(() => document.activeElement?.id === 'rules-classic-goal');
  assert.doesNotMatch(page.url(), /open=|at=/);
  await context.close();
});

test('quick game: one click to each ruleset against computer players, no form touched', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  // Orders from the lite page, which has no orders: the full page starts the game at once.
  await page.goto(URL_BASE);
  await page.locator('#quick-orders').waitFor();
  await shot(page, '16-menu-quick-games');
  await page.click('#quick-orders');
  await page.waitForURL(/\/full\//);
  await page.locator('#root[data-screen="play"][data-phase="orders-movement"]').waitFor();
  assert.match(await attr(page, 'data-stage'), /-FRANCE$/, 'the human plays France');
  assert.doesNotMatch(page.url(), /open=/, 'a reload resumes the game rather than start another');
  for (const p of ['ENGLAND', 'GERMANY', 'ITALY', 'AUSTRIA', 'RUSSIA', 'TURKEY']) {
    assert.match(await page.locator(`#ocentres li[data-power="${p}"]`).textContent(), /computer, normal/, p);
  }
  assert.equal(await page.evaluate(() => localStorage.getItem('orbis.orders.seats')), 'n1nnnnn');
  // Economy from the lite page too (which would resume the orders game on the full page).
  await page.evaluate(() => localStorage.clear());
  await page.goto(URL_BASE);
  await page.click('#quick-economy');
  await page.waitForURL(/\/full\//);
  await page.waitForFunction(() => /^economy-/.test(document.querySelector('#root')?.dataset.phase ?? ''));
  assert.equal(await attr(page, 'data-screen'), 'play');
  assert.equal(await page.evaluate(() => localStorage.getItem('orbis.economy.seats')), 'hnn');
  // A new visit (another tab) opens on the menu, "Continue your game" first; it resumes the
  // economy game (on the full page: the lite page has no economy).
  const visit = await context.newPage();
  await visit.goto(URL_BASE);
  await visit.locator('#continue').waitFor();
  assert.equal(await attr(visit, 'data-screen'), 'menu');
  await shot(visit, '16a-menu-continue');
  await visit.click('#continue');
  await visit.waitForURL(/\/full\//);
  await visit.waitForFunction(() => /^economy-/.test(document.querySelector('#root')?.dataset.phase ?? ''));
  assert.equal(await attr(visit, 'data-screen'), 'play');
  await visit.close();
  // Classic from the full page's menu.
  await page.click('#menu');
  await page.click('#quick-start');
  await page.click('#quick-confirm-yes'); // the economy game in progress is replaced
  await page.locator('#map').waitFor();
  await page.waitForFunction(() => ['claim', 'setup'].includes(document.querySelector('#root')?.dataset.phase));
  assert.equal(await attr(page, 'data-screen'), 'play');
  // A rules term in the prompt: its explanation opens on a click and links to its section.
  await page.click('#auto-place');
  await waitMyPhase(page, ['reinforce']);
  const term = page.locator('#prompt .term[data-term="reinforcements"]');
  assert.equal(await page.locator('.term-tip').count(), 0, 'closed until asked for');
  await term.locator('.term-word').click();
  // Drawn in the page's body, over the map (a portal).
  const tip = page.locator('.term-tip');
  await tip.waitFor();
  assert.match(await tip.textContent(), /territories divided by 3/);
  assert.equal(await term.locator('.term-word').getAttribute('aria-describedby'), await tip.getAttribute('id'));
  assert.equal(await tip.locator('a').getAttribute('href'), '#rules-classic-reinforce');
  await shot(page, '16b-term-open');
  await tip.locator('a').click();
  await page.locator('#root[data-screen="help"]').waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'rules-classic-reinforce');
  assert.deepEqual(errors, []);
  await context.close();
});

test('My games: the game on this device and each online room with what is due; removing asks first; a backed-up key plays the same seat in another browser', async () => {
  const ONLINE = URL_BASE + 'online/';
  // A relay nobody listens on: the rooms here never meet anyone (no public relay is touched).
  const NET = '?relays=ws%3A%2F%2F127.0.0.1%3A9';
  const context = await browser.newContext({ viewport: { width: 1024, height: 800 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  // The dead relay's refusals are the only errors expected.
  const real = (list) => list.filter((e) => !/WebSocket|ERR_CONNECTION_REFUSED/.test(e));
  await page.goto(URL_BASE);
  await page.click('#quick-start');
  await page.locator('#map').waitFor();
  // A room over days as the online page records it: orders due in 14 hours.
  const days = 'daysroom0123456789abcd';
  await page.evaluate(([room, now]) => {
    localStorage.setItem(`orbis.p2p.id.${room}`, 'ab'.repeat(32));
    localStorage.setItem(`orbis.p2p.game.${room}`, [`link\troom=${room}`, 'ruleset\tOrders: Europe 1901',
      'players\tAnn (France), Bob (England), 5 computers', 'stands\tSpring 1903 movement', 'days\t1',
      `seen\t${now - 3600}`, `due\t${now + 14 * 3600 + 90}\tYour orders`,
      `deadline\t${now + 14 * 3600 + 90}\tSpring 1903 movement`].join('\n'));
  }, [days, Math.floor(Date.now() / 1000)]);
  await page.click('#menu-btn');
  await page.click('#my-games');
  const hot = page.locator('#game-hot-seat');
  await hot.waitFor();
  assert.match(await hot.textContent(), /Classic · on this device.*Boole \(computer\).*Setting up/);
  const row = page.locator(`li[data-room="${days}"]`);
  assert.match(await row.textContent(), /over days.*Spring 1903 movement.*Your orders: by .* \(in 14 h\)/);
  assert.equal(await page.locator('#games-to-online').count(), 1, 'backups and restoring: on the online page');
  await shot(page, '90-my-games');
  await hot.locator('#game-hot-seat-remove').click();
  await page.locator('#games-confirm').waitFor();
  await shot(page, '90a-my-games-remove');
  await page.click('#games-confirm-no');
  await hot.locator('#game-hot-seat-open').click();
  await page.locator('#root[data-screen="play"]').waitFor();

  // The online page: a new room's lobby offers "Over days" for orders only, and the key backup.
  await page.goto(ONLINE + NET + '&open=online');
  await page.fill('#online-name', 'Ann');
  await page.click('#online-create');
  await page.locator('#online-days').waitFor();
  assert.equal(await page.locator('#online-over-days').isDisabled(), true, 'classic: live only');
  assert.match(await page.locator('#online-days-why').textContent(), /every die is rolled by all the players' pages together/);
  await page.selectOption('#online-ruleset', 'europe-1901');
  await page.click('#online-over-days');
  await page.selectOption('#days-movement', '48');
  await page.selectOption('#days-retreat', '8');
  await textMatches(page, '#days-summary', /2 days for orders, 8 hours for retreats, 12 hours for builds.*1 missed turn excused/);
  // The room reopens over days (tests/e2e/p2p-days.test.mjs plays one): Propose proposes that.
  assert.match(page.url(), /days=1/);
  assert.equal(await page.locator('#days-not-yet').count(), 0);
  assert.equal(await page.locator('#online-propose').isDisabled(), false);
  assert.match(await page.locator('#online-propose').textContent(), /over days/);
  await shot(page, '91-lobby-over-days');
  const me = await page.locator('#online-peers li').first().getAttribute('data-fingerprint');
  await page.click('#online-key-toggle');
  const code = await page.locator('#key-code').inputValue();
  assert.match(code, /^orbis-key-1:[A-Za-z0-9_-]+$/);
  assert.match(await page.locator('#key-one-at-a-time').textContent(), /one browser at a time/);
  await shot(page, '92-key-backup');
  await page.click('#online-menu');
  await page.click('#my-games');
  await page.locator('#my-games').waitFor();
  assert.equal(await page.locator('#my-games').getAttribute('data-rooms'), '2');
  // The calendar file of the game over days: one event at its deadline, in UTC.
  const [ics] = await Promise.all([page.waitForEvent('download'), row.locator('.game-ics').click()]);
  const cal = readFileSync(await ics.path(), 'utf8');
  assert.match(cal, /^BEGIN:VCALENDAR\r\n/);
  assert.equal(cal.match(/BEGIN:VEVENT/g).length, 1);
  assert.match(cal, /DTSTART:\d{8}T\d{6}Z\r\nDURATION:PT15M\r\nSUMMARY:Orbis\\, Orders: Europe 1901: Spring 1903 movement due/);
  await row.locator('.game-remove').click();
  await page.click('#games-confirm-yes');
  await textMatches(page, '#games-note', /removed from this device/);
  assert.equal(await row.count(), 0);
  assert.equal(await page.evaluate((r) => localStorage.getItem(`orbis.p2p.id.${r}`), days), null);
  await shot(page, '93-my-games-online');
  assert.deepEqual(real(errors), []);
  await context.close();

  // Another browser: a garbage code is refused with what to do; the key's link restores the seat.
  const other = await browser.newContext({ viewport: { width: 1024, height: 800 } });
  const page2 = await other.newPage();
  const errors2 = watchErrors(page2);
  await page2.goto(ONLINE + NET + '&open=games');
  await page2.click('#games-restore summary');
  await page2.fill('#restore-code', 'hello there');
  await page2.click('#restore-go');
  await textMatches(page2, '#games-note', /This is not a game key/);
  await page2.fill('#restore-code', code.slice(0, -6));
  await page2.click('#restore-go');
  await textMatches(page2, '#games-note', /damaged/);
  await shot(page2, '94-restore-refused');
  // A fresh page, as a phone opens a scanned link.
  await page2.goto('about:blank');
  await page2.goto(ONLINE + NET + '#key=' + code);
  assert.equal(await page2.locator('#restore-code').inputValue(), code, 'a scanned link fills the code in');
  await page2.click('#restore-go');
  await textMatches(page2, '#games-note', /Restored: room .*, as Ann\. .*one browser at a time/);
  await shot(page2, '95-restored');
  await page2.locator('#games-list .game-open').click();
  await page2.locator('#online-peers li').first().waitFor();
  assert.equal(await page2.locator('#online-peers li').first().getAttribute('data-fingerprint'), me, 'the same seat');
  assert.deepEqual(real(errors), []);
  assert.deepEqual(real(errors2), []);
  await other.close();
});
