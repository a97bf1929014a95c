// Issue 62's browser figures: how long the page's main thread is busy while computer players
// think (they think in a Web Worker), and the orders `hard` computer's time per decision in the
// browser's wasm. Prints figures; asserts nothing timed (they depend on the machine and its load).
//
//   BUILD=0 P2P=0 DIST=/tmp/me/dist scripts/test-web.sh tools/bot-figures.mjs
//
// FIGURES_YEARS (default 2): game years of the orders game; FIGURES_THINK (default "1 3"): the
// hot-seat form's "Computer thinking time" settings to play it at (the engine's effort: 1, 3, 8);
// FIGURES_ROUNDS (default 2): economy rounds. Long tasks are the browser's PerformanceObserver
// 'longtask' entries (main-thread tasks over 50 ms), counted from each scenario's first computer
// move on, so the pages' own start-up is not in them.
import { test, before, after } from 'node:test';
import { launch, URL_BASE, shot, attr, watchErrors, watchLongTasks, longTasks, economyOfComputers } from '../tests/e2e/helpers.mjs';

const YEARS = Number(process.env.FIGURES_YEARS || 2);
const THINK = (process.env.FIGURES_THINK || '1 3').split(/\s+/).filter(Boolean);
const ROUNDS = Number(process.env.FIGURES_ROUNDS || 2);

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const stats = (xs) => {
  if (!xs.length) return 'none';
  const s = [...xs].sort((a, b) => a - b);
  const med = s[Math.floor(s.length / 2)];
  return `${s.length}, median ${med.toFixed(0)} ms, slowest ${s[s.length - 1].toFixed(0)} ms`;
};

function printTasks(what, t) {
  const longest = t.length ? Math.max(...t) : 0;
  console.log(`figures: ${what}: ${t.length} long tasks (> 50 ms) on the main thread, longest ${longest} ms`);
}

async function printBots(page, prefix) {
  const times = await page.evaluate(() => window.__orbisBots || {});
  for (const [name, t] of Object.entries(times)) {
    if (!name.startsWith(prefix)) continue;
    console.log(`figures:   ${name}: ${stats(t.times || [])}`);
  }
}

for (const think of THINK) {
  test(`orders: France (its orders by "What would the computer do?") against six hard computer powers, thinking time ${think}, ${YEARS} years`, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await watchLongTasks(context);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(URL_BASE + 'full/?seed=figures-orders');
    await page.click('#new-game');
    await page.click('#ruleset-orders');
    for (const power of ['ENGLAND', 'GERMANY', 'ITALY', 'AUSTRIA', 'RUSSIA', 'TURKEY']) {
      await page.selectOption(`#opower-${power}`, 'hard');
    }
    await page.selectOption('#othink', think);
    await page.click('#start-game');
    await page.locator('#root[data-stage="enter-FRANCE"]').waitFor();
    await longTasks(page);
    const all = [];
    const last = 1901 + YEARS - 1;
    for (let guard = 0; guard < 20 * YEARS; guard++) {
      const stage = await attr(page, 'data-stage');
      const season = (await page.locator('#oseason').textContent()) || '';
      const year = Number(season.match(/\d{4}/)?.[0] || 0);
      if ((await attr(page, 'data-phase')) === 'over' || year > last) break;
      if (stage === 'enter-FRANCE') {
        await page.click('#o-suggest');
        await page.locator('#o-suggest:not([disabled])').waitFor({ timeout: 120000 });
        await page.click('#o-submit');
        await page.waitForFunction(() => document.querySelector('#root')?.dataset.stage !== 'enter-FRANCE', null, { timeout: 10000 })
          .catch(() => {});
        if ((await attr(page, 'data-stage')) === 'enter-FRANCE') {
          console.log(`figures: France's orders were refused: ${await page.locator('#oerror').textContent().catch(() => '')}`);
          break;
        }
      } else if (stage === 'results') {
        const t = await longTasks(page);
        all.push(...t);
        if (!(await page.locator('#o-continue').count())) break;
        await page.click('#o-continue');
      } else {
        // The computer powers are writing their orders in the worker: the page answers a click.
        await page.waitForFunction(() => document.querySelector('#root')?.dataset.stage !== 'thinking', null, { timeout: 300000 });
      }
    }
    all.push(...(await longTasks(page)));
    await shot(page, `figures-orders-think-${think}`);
    printTasks(`orders, six hard computer powers at thinking time ${think}, through ${last}`, all);
    console.log('figures:   orders-suggest-* is one power\'s orders by hard (a decision); orders-phase-* every computer power\'s at once, in one worker job');
    await printBots(page, 'orders-');
    if (errors.length) console.log('figures: page errors:', errors.join(' | '));
    await context.close();
  });
}

test(`economy: three computer players (hard, normal, normal), ${ROUNDS} rounds`, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await watchLongTasks(context);
  const page = await context.newPage();
  const errors = watchErrors(page);
  await economyOfComputers(page, 'figures-economy');
  await page.click('#start-game');
  await page.selectOption('#speed', 'fast');
  await page.locator('#root[data-phase="economy-planning"]').waitFor({ timeout: 300000 });
  await longTasks(page); // the start and the second part of the page loading
  await page.waitForFunction((r) => {
    const t = document.querySelector('#turn-title')?.textContent || '';
    const n = Number(t.match(/Round (\d+)/)?.[1] || 0);
    return n > r || document.querySelector('#root')?.dataset.phase === 'over';
  }, ROUNDS, { timeout: 600000, polling: 500 });
  printTasks(`economy, three computer players, round 1's planning to round ${ROUNDS + 1}`, await longTasks(page));
  await printBots(page, 'economy-');
  await shot(page, 'figures-economy');
  if (errors.length) console.log('figures: page errors:', errors.join(' | '));
  await context.close();
});

test('classic: a quick game, my setup armies placed for me, the computers\' first turns', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await watchLongTasks(context);
  const page = await context.newPage();
  await page.goto(URL_BASE + '?seed=figures-classic');
  await page.click('#quick-start');
  await page.locator('#auto-place').waitFor();
  await longTasks(page);
  await page.click('#auto-place');
  await page.locator('#root[data-phase="reinforce"][data-my-turn="1"]').waitFor({ timeout: 120000 });
  printTasks('classic, my setup placed automatically (each placement thought in the worker)', await longTasks(page));
  await page.click('#place-all').catch(() => {});
  await context.close();
});
