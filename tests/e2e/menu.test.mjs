// A corrupt autosave gives a clear message and the menu; an internal error says that a reload
// resumes the game, and it does; wheel zoom; the phone layout and keyboard labels; a quick game of
// each ruleset in one click.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, URL_BASE, shot, attr, territories, clickTerr, waitMyPhase, watchErrors } from './helpers.mjs';

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
