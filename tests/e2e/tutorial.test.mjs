// Learn to play (issue 60, item 2): each lesson completed by following only the coach. The test
// reads the coach's data-target (the control its words name, highlighted on the page) and uses
// exactly that control, so a coach that points at the wrong thing fails here. It counts the
// clicks and the characters of coach text (the figures in the report).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, URL_BASE, shot, attr, watchErrors, clickTerr, clickKey } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** What changes when the player acts: the step, the coach's target, the game, the result. */
async function signature(page) {
  return page.evaluate(() => {
    const c = document.querySelector('#coach');
    return JSON.stringify([c?.dataset.step, c?.dataset.target, c?.dataset.last,
      document.querySelector('#root')?.dataset.stateHash, !!document.querySelector('#coach-result')]);
  });
}

/**
 * Follows the coach to its last step: uses its target (a territory `#t-key` is clicked on the
 * map), or waits while it names none (the computer players act). Returns the clicks made and
 * the characters of text the coach showed.
 */
async function followCoach(page, name, phone = false) {
  let clicks = 0, chars = 0, seen = new Set();
  for (let guard = 0; guard < 80; guard++) {
    const coach = page.locator('#coach');
    const step = await coach.getAttribute('data-step');
    const target = await coach.getAttribute('data-target');
    const result = await page.locator('#coach-result').count();
    const key = `${step}-${result}`;
    if (!seen.has(key)) {
      seen.add(key);
      // The step's words once, then its result.
      if (result) chars += ((await page.locator('#coach-result').textContent()) || '').length;
      else chars += ((await page.locator('#coach-says').textContent()) || '').length;
      await shot(page, `tutorial-${name}-step${step}${result ? '-result' : ''}`);
    }
    if (await coach.getAttribute('data-last') === '1') return { clicks, chars };
    if (phone && target && target !== '#coach-next') await clear(page, target, `${name} step ${step}`);
    const before = await signature(page);
    let moved = false;
    if (target.startsWith('#t-')) await clickTerr(page, target.slice(3));
    else if (target.startsWith('#r-')) await page.locator(target).dispatchEvent('click');
    // A province of the orders map: `[data-key="PAR"]`.
    else if (target.startsWith('[data-key="')) await clickKey(page, target.slice(11, -2));
    else if (target) {
      // The computers' turns end by themselves: "Skip to my turn" may be disabled by then, and
      // the coach has moved on, which is what the wait below wants. It may have moved on even
      // before `before` was read (the worker's computers play fast; a screenshot takes time):
      // then its target or result differs from what was read above, and there is nothing to wait for.
      await page.locator(target).first().click({ timeout: 10000 }).catch(async (e) => {
        moved = (await coach.getAttribute('data-target')) !== target
          || (await page.locator('#coach-result').count()) !== result;
        if (!moved && await signature(page) === before) throw e;
      });
    }
    if (target) clicks++;
    if (!moved) await page.waitForFunction((b) => {
      const c = document.querySelector('#coach');
      return JSON.stringify([c?.dataset.step, c?.dataset.target, c?.dataset.last,
        document.querySelector('#root')?.dataset.stateHash, !!document.querySelector('#coach-result')]) !== b;
    }, before, { timeout: target ? 15000 : 90000 });
  }
  assert.fail('the lesson did not reach its last step');
}

/**
 * On a phone the coach sits at the bottom: the control it names must be in the window and not
 * under it (the page scrolls it into view; a map region counts by the part the map shows).
 */
async function clear(page, target, where) {
  await page.waitForFunction((t) => {
    const el = document.querySelector(t);
    if (!el) return false;
    let r = el.getBoundingClientRect();
    const svg = el.closest('svg');
    let top = r.top, bottom = r.bottom;
    if (svg) { const m = svg.getBoundingClientRect(); top = Math.max(top, m.top); bottom = Math.min(bottom, m.bottom); }
    const coach = document.querySelector('#coach').getBoundingClientRect();
    return bottom > top && top >= 0 && bottom <= coach.top;
  }, target, { timeout: 5000 }).catch(async () => {
    await shot(page, `tutorial-phone-covered`);
    const box = await page.evaluate((t) => [JSON.stringify(document.querySelector(t)?.getBoundingClientRect()),
      JSON.stringify(document.querySelector('#coach').getBoundingClientRect())], target);
    assert.fail(`${where}: ${target} is off screen or under the coach: ${box}`);
  });
}

test('learn to play, classic: from the lite page, completed by following the coach', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(URL_BASE + (process.env.LEARN_FULL ? 'full/' : '') + '?seed=e2e-learn');
  await page.click('#learn-to-play');
  await page.waitForURL(/\/full\//);
  await page.locator('#coach').waitFor();
  assert.equal(await attr(page, 'data-screen'), 'play');

  // Something else than the coach asks for is refused, with what to do instead.
  await page.click('#coach-next');
  await clickTerr(page, 'egypt');
  await page.locator('#coach-notice').waitFor();
  assert.match(await page.locator('#coach-notice').textContent(), /highlighted/);
  assert.equal(await page.locator('#t-egypt').getAttribute('data-armies'), '2');

  // The step's rules open in How to play; Back finds the lesson where it was.
  await page.click('#coach-rules');
  await page.locator('#rules-classic-reinforce').waitFor();
  await page.click('#howto-back');
  await page.locator('#coach').waitFor();
  assert.equal(await page.locator('#coach').getAttribute('data-step'), '1');

  const { clicks, chars } = await followCoach(page, 'classic');
  console.log(`classic lesson: ${clicks + 1} clicks, ${chars} characters of coach text`);
  assert.match(await page.locator('#coach-says').textContent(), /real game/);
  assert.equal(await page.locator('#t-venezuela').getAttribute('data-mine'), '1');

  // Play a real game: a fresh quick game, the coach gone.
  await page.click('#coach-real');
  await page.waitForFunction(() => !document.querySelector('#coach'));
  assert.equal(await attr(page, 'data-screen'), 'play');

  // A quick game with a game in progress asks first: "Keep playing" finds the game as it was,
  // "Replace" starts the new one.
  await page.click('#menu-btn');
  await page.click('#quick-orders');
  await page.locator('#quick-confirm').waitFor();
  assert.match(await page.locator('#quick-confirm').textContent(), /will be replaced/);
  await shot(page, 'tutorial-quick-confirm');
  await page.click('#quick-confirm-keep');
  // Back to the classic game (its computers play on: its hash moves, its screen stays).
  await page.locator('#menu-btn').waitFor();
  assert.equal(await attr(page, 'data-screen'), 'play');
  assert.equal(await page.locator('#oseason').count(), 0);
  await page.click('#menu-btn');
  await page.click('#quick-orders');
  await page.click('#quick-confirm-yes');
  await page.locator('#oseason').waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('learn to play, orders: from the lite page, completed by following the coach', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(URL_BASE + (process.env.LEARN_FULL ? 'full/' : '') + '?seed=e2e-learn-orders');
  await page.click('#learn-orders');
  if (!process.env.LEARN_FULL) await page.waitForURL(/\/full\//);
  await page.locator('#coach').waitFor();
  assert.equal(await attr(page, 'data-screen'), 'play');

  // A unit the coach does not name is refused, with what to do instead.
  await page.click('#coach-next');
  await clickKey(page, 'PAR');
  await page.locator('#coach-notice').waitFor();
  // It names the province to click (issue 60, second review).
  assert.match(await page.locator('#coach-notice').textContent(), /Not yet: click Marseilles, outlined in purple/);
  assert.equal(await page.locator('#odraft li').count(), 0);

  const { clicks, chars } = await followCoach(page, 'orders');
  console.log(`orders lesson: ${clicks + 1} clicks, ${chars} characters of coach text`);
  assert.match(await page.locator('#coach-says').textContent(), /real game/);
  assert.match(await page.locator('#oseason').textContent(), /1902/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('learn to play, economy: one round with a coach, completed by following it', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(URL_BASE + 'full/?seed=e2e-learn-economy');
  await page.click('#learn-economy');
  await page.locator('#coach').waitFor();

  // Something else than the coach asks for is refused, with what to do instead.
  await page.click('#coach-next');
  await page.locator('#r-ukraine').dispatchEvent('click');
  await page.locator('#coach-notice').waitFor();
  assert.match(await page.locator('#coach-notice').textContent(), /highlighted/);
  assert.equal(await page.locator('#coach').getAttribute('data-step'), '1');

  const { clicks, chars } = await followCoach(page, 'economy');
  console.log(`economy lesson: ${clicks + 1} clicks, ${chars} characters of coach text`);
  assert.match(await page.locator('#coach-says').textContent(), /real game/);
  assert.equal(await page.locator('#r-ukraine').getAttribute('data-owner'), '0');
  // The round in short, from the engine's events (issue 60, second review).
  assert.match(await page.locator('#round-summary').textContent(),
    /Round 1 in short.*Red \(you\): Won 1 battle \(Ukraine\); lost 1 battle \(Southern Europe\); gained Ukraine; units 16 → 15/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('learn to play on a phone: the coach at the bottom, folding to one line, never over what it names', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(URL_BASE + 'full/?seed=e2e-learn-phone');
  await page.click('#learn-economy');
  await page.locator('#coach').waitFor();
  const box = await page.locator('#coach').boundingBox();
  assert.ok(box.y + box.height >= 843 && box.height <= 0.45 * 844, `the coach at the bottom, compact: ${JSON.stringify(box)}`);
  // A tap on its title folds it to one line; another opens it.
  await page.click('#coach .coach-head');
  const folded = await page.locator('#coach').boundingBox();
  assert.ok(folded.height < 60, `folded: ${folded.height}px`);
  await shot(page, 'tutorial-phone-folded');
  await page.click('#coach .coach-head');
  const { clicks, chars } = await followCoach(page, 'phone-economy', true);
  console.log(`economy lesson on a phone: ${clicks} clicks, ${chars} characters; coach ${Math.round(box.height)} px tall (folded ${Math.round(folded.height)})`);

  // The classic lesson's battle: after Roll, the dice and what each side lost are in sight,
  // above the coach (they showed under it).
  await page.click('#coach-leave');
  await page.click('#learn-to-play');
  await page.locator('#coach[data-step="0"]').waitFor();
  await page.click('#coach-next');
  await page.click('#place-all');
  await clickTerr(page, 'brazil');
  await page.click('#coach-next');
  await clickTerr(page, 'brazil');
  await clickTerr(page, 'venezuela');
  await page.click('#btn-roll');
  await page.locator('#dice-lost').waitFor();
  await clear(page, '.side .dice', 'classic lesson, the dice after Roll');
  await clear(page, '#btn-roll', 'classic lesson, Roll after a roll');
  assert.match(await page.locator('#dice-lost').textContent(), /^Brazil lost \d arm(y|ies), Venezuela lost \d arm(y|ies)\.$/);
  await shot(page, 'tutorial-phone-classic-dice');
  assert.deepEqual(errors, []);
  await context.close();
});
