// Replay (issue 31): a hot-seat game of computer players played to the end, replayed from the
// winner screen action by action to the final state hash and back to the start (buttons and
// keys), from the menu, from an imported save with its history, and on a phone; a save without
// history says why it has no replay.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, URL_BASE, shot, attr, watchErrors, axeCheck } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const rep = (page, a) => page.locator('#replay').getAttribute(a);
const step = async (page) => Number(await rep(page, 'data-step'));
const waitStep = (page, n) => page.waitForFunction((n) => document.querySelector('#replay')?.dataset.step === String(n), n);

/** The statistics charts under `sel` (issue 60): `charts` figures, each with one line per
 * player, the legend naming every player, and each chart's numbers as a table. */
async function checkCharts(page, sel, charts, players) {
  const figs = page.locator(`${sel} figure.chart`);
  assert.equal(await figs.count(), charts, `${sel}: ${charts} charts`);
  for (let i = 0; i < charts; i++) {
    assert.equal(await figs.nth(i).locator('path.chart-line').count(), players, `${sel} chart ${i}: a line per player`);
    assert.equal(await figs.nth(i).locator('table thead th').count(), players + 1);
  }
  assert.equal(await page.locator(`${sel} .chart-legend li`).count(), players);
}

/** Plays a game of two computer players to the winner screen; returns the final hash. */
async function botGame(page, seed) {
  await page.goto(URL_BASE + `?seed=${seed}`);
  await page.click('#new-game');
  await page.selectOption('#seat-count', '0'); // 2 players
  await page.selectOption('#seat-kind-0', '2'); // computer (normal)
  await page.click('#start-game');
  await page.locator('#map').waitFor();
  await page.waitForFunction(() => !document.querySelector('#btn-skip')?.disabled);
  await page.click('#btn-skip');
  await page.locator('#winner').waitFor({ timeout: 90000 });
  assert.equal(await attr(page, 'data-phase'), 'over');
  return attr(page, 'data-state-hash');
}

test('replay of a bot game from the winner screen: to the end at the final hash, back to the start', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  const final = await botGame(page, 'e2e-replay');
  await shot(page, 'replay-01-winner');
  // The winner screen's statistics: territories, armies and income over the game.
  await checkCharts(page, '#winner-charts', 3, 2);
  await page.locator('#winner-charts').scrollIntoViewIfNeeded();
  await shot(page, 'charts-01-classic-winner');
  await page.click('#winner-replay');
  // The viewer is on the full page (the lite page stays small).
  await page.waitForURL(/\/full\//);
  await page.locator('#replay').waitFor();
  assert.equal(await attr(page, 'data-screen'), 'replay');
  assert.equal(await step(page), 0);
  const total = Number(await rep(page, 'data-steps'));
  assert.ok(total > 50, `a whole game of actions (${total})`);
  assert.equal(await page.locator('#replay-step').textContent(), `Action 0 of ${total}`);
  const start = await rep(page, 'data-hash');
  assert.notEqual(start, final);
  await shot(page, 'replay-02-start-desktop');

  // Keys: → three times, ← once.
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await waitStep(page, 3);
  await page.keyboard.press('ArrowLeft');
  await waitStep(page, 2);
  assert.ok(await page.locator('#replay-log li.cur').count() > 0, 'the current action is highlighted in the log');
  // Buttons: forward, back.
  await page.click('#replay-next');
  await waitStep(page, 3);
  await page.click('#replay-back');
  await waitStep(page, 2);
  // Mid-game with the scrubber; the board follows.
  await page.locator('#replay-scrub').fill(String(Math.floor(total / 2)));
  await waitStep(page, Math.floor(total / 2));
  assert.match(await page.locator('#replay-status').textContent(), /Turn \d+/);
  await shot(page, 'replay-03-middle-desktop');
  await checkCharts(page, '#replay-charts', 3, 2);
  assert.equal(await page.locator('#replay-charts .chart-now').count(), 3, 'the step shown marked on every chart');
  await page.locator('#replay-charts').scrollIntoViewIfNeeded();
  await shot(page, 'charts-02-classic-replay');
  await axeCheck(page, 'classic replay');

  // To the end: the final state hash, on the replay and on the page's root.
  await page.keyboard.press('End');
  await waitStep(page, total);
  assert.equal(await rep(page, 'data-hash'), final);
  assert.equal(await attr(page, 'data-state-hash'), final);
  assert.ok(await page.locator('#replay-next').isDisabled());
  await shot(page, 'replay-04-end-desktop');
  // Back to the start with the button, then Home from one step in.
  await page.click('#replay-start');
  await waitStep(page, 0);
  assert.equal(await rep(page, 'data-hash'), start);
  await page.keyboard.press('ArrowRight');
  await waitStep(page, 1);
  await page.keyboard.press('Home');
  await waitStep(page, 0);
  assert.equal(await rep(page, 'data-hash'), start);

  // Closing goes back to the finished game.
  await page.click('#replay-close');
  await page.locator('#map').waitFor();
  assert.equal(await attr(page, 'data-screen'), 'play');
  assert.equal(await attr(page, 'data-state-hash'), final);

  // The saved game with its history, exported and imported again: Replay from the menu.
  const withHistory = await page.evaluate(() => localStorage.getItem('orbis.history'));
  const plain = await page.evaluate(() => localStorage.getItem('orbis.save'));
  assert.ok(withHistory, 'the autosave keeps the history');
  console.log(`save of a finished bot game (${total} actions): ${Buffer.from(plain, 'base64').length} B without history, ${Buffer.from(withHistory, 'base64').length} B with it`);
  await page.goto(URL_BASE);
  await page.locator('#winner-menu').click();
  await page.setInputFiles('#import-menu', { name: 'game.orbis', mimeType: 'application/octet-stream', buffer: Buffer.from(withHistory, 'base64') });
  await page.waitForFunction((h) => document.querySelector('#root')?.dataset.stateHash === h, final);
  await page.locator('#winner-menu').click();
  await page.click('#menu-replay');
  await page.locator('#replay').waitFor();
  await page.keyboard.press('End');
  await waitStep(page, total);
  assert.equal(await rep(page, 'data-hash'), final);

  // A save without history (as every save before this version) loads and plays, and says why
  // it has no replay.
  await page.goto(URL_BASE);
  await page.locator('#winner-menu').click();
  await page.setInputFiles('#import-menu', { name: 'old.orbis', mimeType: 'application/octet-stream', buffer: Buffer.from(plain, 'base64') });
  await page.waitForFunction((h) => document.querySelector('#root')?.dataset.stateHash === h, final);
  assert.equal(await page.locator('#winner-replay').count(), 0, 'no Replay without history');
  await page.locator('#winner-menu').click();
  assert.equal(await page.locator('#menu-replay').count(), 0);
  assert.match(await page.locator('#no-replay').textContent(), /saved before/);
  await shot(page, 'replay-05-menu-no-history');
  assert.deepEqual(errors, []);
  await context.close();
});

test('replay on a phone: Replay from the menu, step with the buttons, to the end', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const errors = watchErrors(page);
  const final = await botGame(page, 'e2e-replay-phone');
  await page.locator('#winner-menu').click();
  await shot(page, 'replay-06-menu-phone');
  await page.click('#menu-replay');
  await page.waitForURL(/\/full\//);
  await page.locator('#replay').waitFor();
  const total = Number(await rep(page, 'data-steps'));
  for (const id of ['#replay-next', '#replay-end', '#replay-close']) {
    const box = await page.locator(id).boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `${id} on screen`);
  }
  await page.locator('#replay-next').tap();
  await page.locator('#replay-next').tap();
  await waitStep(page, 2);
  await shot(page, 'replay-07-step-phone');
  await page.locator('#replay-scrub').fill(String(Math.floor(total * 0.7)));
  await waitStep(page, Math.floor(total * 0.7));
  await shot(page, 'replay-08-middle-phone');
  // The charts fit a phone's width.
  await checkCharts(page, '#replay-charts', 3, 2);
  await page.locator('#replay-charts-1').scrollIntoViewIfNeeded();
  const chartBox = await page.locator('#replay-charts-1 svg').boundingBox();
  assert.ok(chartBox.x >= 0 && chartBox.x + chartBox.width <= 390 && chartBox.width >= 300, JSON.stringify(chartBox));
  await shot(page, 'charts-03-classic-replay-phone');
  await page.locator('#replay-end').tap();
  await waitStep(page, total);
  assert.equal(await rep(page, 'data-hash'), final);
  await shot(page, 'replay-09-end-phone');
  await page.locator('#replay-start').tap();
  await waitStep(page, 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('replay of an orders game of computer powers, phase by phase, to the final hash and back', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(URL_BASE);
  await page.click('#new-game');
  await page.click('#ruleset-orders');
  await page.waitForURL(/\/full\//);
  for (const p of ['ENGLAND', 'FRANCE', 'GERMANY', 'ITALY', 'AUSTRIA', 'RUSSIA', 'TURKEY']) {
    await page.selectOption(`#opower-${p}`, 'easy');
  }
  await page.click('#start-game');
  for (let i = 0; i < 6; i++) {
    await page.locator('#o-continue').click();
    await page.waitForFunction(() => document.querySelector('#root')?.dataset.stage === 'results');
  }
  const final = await attr(page, 'data-state-hash');
  await page.click('#menu-btn');
  await page.click('#menu-replay');
  await page.locator('#replay').waitFor();
  const total = Number(await rep(page, 'data-steps'));
  assert.ok(total >= 6, `phases (${total})`);
  assert.equal(await page.locator('#replay-step').textContent(), `Phase 0 of ${total}`);
  const start = await rep(page, 'data-hash');
  await page.keyboard.press('ArrowRight');
  await waitStep(page, 1);
  assert.match(await page.locator('#replay-status').textContent(), /Spring 1901 movement/);
  await page.keyboard.press('ArrowRight');
  await waitStep(page, 2);
  assert.match(await page.locator('#replay-status').textContent(), /Fall 1901 movement/);
  await shot(page, 'replay-10-orders-desktop');
  await checkCharts(page, '#replay-charts', 2, 7);
  await page.locator('#replay-charts').scrollIntoViewIfNeeded();
  await shot(page, 'charts-04-orders-replay');
  await axeCheck(page, 'orders replay');
  await page.click('#replay-end');
  await waitStep(page, total);
  assert.equal(await rep(page, 'data-hash'), final);
  await page.keyboard.press('Home');
  await waitStep(page, 0);
  assert.equal(await rep(page, 'data-hash'), start);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.click('#replay-next');
  await waitStep(page, 1);
  await shot(page, 'replay-11-orders-phone');
  // The orders save with its history, imported on the lite page: it opens on the full page,
  // where the menu replays it.
  const file = await page.evaluate(() => localStorage.getItem('orbis.history'));
  await page.evaluate(() => localStorage.clear());
  await page.goto(URL_BASE);
  await page.setInputFiles('#import-menu', { name: 'orders.orbis', mimeType: 'application/octet-stream', buffer: Buffer.from(file, 'base64') });
  await page.waitForURL(/\/full\//);
  await page.waitForFunction((h) => document.querySelector('#root')?.dataset.stateHash === h, final);
  await page.click('#menu-btn');
  await page.click('#menu-replay');
  await page.locator('#replay').waitFor();
  assert.equal(Number(await rep(page, 'data-steps')), total);
  assert.deepEqual(errors, []);
  await context.close();
});

test('economy replay: a computer game of three rounds, phase by phase and battle by battle to its final hash and back', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(URL_BASE + '?seed=e2e-economy-replay');
  await page.click('#new-game');
  await page.click('#ruleset-economy');
  await page.waitForURL(/\/full\//);
  await page.locator('#rules-summary').waitFor();
  await page.selectOption('#eseat-0', { label: 'Computer (normal)' });
  await page.selectOption('#elimit', { label: '3 rounds: a quick game' });
  await page.click('#start-game');
  await page.click('#skip');
  await page.waitForFunction(() => document.querySelector('#root')?.dataset.phase === 'over', null, { timeout: 60000 });
  const final = await attr(page, 'data-state-hash');
  // Game over: the statistics open with countries, units and income over the game.
  assert.notEqual(await page.locator('#estats').getAttribute('open'), null);
  await checkCharts(page, '#echarts', 3, 3);
  await page.locator('#echarts').scrollIntoViewIfNeeded();
  await shot(page, 'charts-05-economy-over');
  await page.click('#over-replay');
  await page.locator('#replay').waitFor();
  assert.equal(await step(page), 0);
  const steps = Number(await rep(page, 'data-steps'));
  assert.ok(steps >= 10, `${steps} steps: the setup, every phase of three rounds, the battles`);
  await page.click('#replay-next');
  await waitStep(page, 1);
  assert.match(await page.locator('#replay-status').textContent(), /The setup/);
  assert.ok((await page.locator('#replay-log li').count()) > 0, 'the picks in the step\'s lines');
  await shot(page, 'replay-20-economy-setup');
  // Forward to a battle, if the computers fought one, then to the end.
  const statuses = [];
  for (let i = 1; i < steps; i++) {
    await page.keyboard.press('ArrowRight');
    await waitStep(page, i + 1);
    const st = await page.locator('#replay-status').textContent();
    statuses.push(st);
    if (/battle at/.test(st) && !statuses.some((s, j) => j < statuses.length - 1 && /battle at/.test(s))) await shot(page, 'replay-21-economy-battle');
  }
  assert.ok(statuses.some((s) => /Round 1: the Get phase/i.test(s)), statuses.join(' | '));
  assert.equal(await rep(page, 'data-hash'), final, 'the last step is the saved game');
  await shot(page, 'replay-22-economy-end');
  await checkCharts(page, '#replay-charts', 3, 3);
  await page.locator('#replay-charts').scrollIntoViewIfNeeded();
  await shot(page, 'charts-06-economy-replay');
  await axeCheck(page, 'economy replay');
  await page.click('#replay-start');
  await waitStep(page, 0);
  // From the menu after a reload: the autosave keeps the history.
  await page.click('#replay-close');
  await page.reload();
  await page.click('#menu');
  await page.click('#menu-replay');
  await page.locator('#replay').waitFor();
  await page.keyboard.press('End');
  await waitStep(page, steps);
  assert.equal(await rep(page, 'data-hash'), final);
  assert.deepEqual(errors, []);
  await context.close();
});
