// How to play (issue 60, item 1): opened from the first page (the lite page sends the player to
// the full page, which holds the text) and from a game's menu; the search box finds orders'
// "support" and the economy's "upkeep"; Back returns to the game as it was.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, URL_BASE, shot, attr, watchErrors, axeCheck } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Types `q` in the search box and waits for the section `id` among the results. */
async function find(page, q, id) {
  await page.fill('#howto-search', q);
  await page.locator(`#howto-results #${id}`).waitFor();
  assert.match(await page.locator(`#${id} mark`).first().textContent(), new RegExp(q, 'i'));
}

test('how to play: from the first page and from a game, searched, and back to the game intact', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(URL_BASE + '?seed=e2e-howto');
  await page.locator('#how-to-play').waitFor();
  await axeCheck(page, 'first page (lite)');
  await page.click('#how-to-play');
  await page.waitForURL(/\/full\//);
  await page.locator('#howto').waitFor();
  assert.equal(await attr(page, 'data-screen'), 'help');
  assert.equal(await page.locator('#howto').getAttribute('data-book'), 'classic');
  await page.locator('#rules-classic-map').waitFor(); // the contents' sections, key first
  await page.click('#howto-orders');
  await page.locator('#rules-orders-support').waitFor();
  await find(page, 'support', 'rules-orders-support');
  await shot(page, 'howto-search-support');
  await axeCheck(page, 'how to play');
  await find(page, 'upkeep', 'rules-economy-upkeep');
  await page.click('#howto-back');
  assert.equal(await attr(page, 'data-screen'), 'menu');

  // From an orders game's menu: its own rules first; Back finds the game at the same stage.
  await axeCheck(page, 'first page (full)');
  await page.click('#new-game');
  await page.locator('#start-game').waitFor();
  await axeCheck(page, 'new game: classic form');
  await page.click('#ruleset-orders');
  await axeCheck(page, 'new game: orders form');
  await page.click('#start-game');
  await page.locator('#rules-btn').waitFor();
  await axeCheck(page, 'orders game');
  const game = { hash: await attr(page, 'data-state-hash'), stage: await attr(page, 'data-stage') };
  await page.click('#rules-btn');
  assert.equal(await page.locator('#howto').getAttribute('data-book'), 'orders');
  await find(page, 'support', 'rules-orders-support');
  await find(page, 'upkeep', 'rules-economy-upkeep');
  await page.click('#howto-back');
  assert.equal(await attr(page, 'data-screen'), 'play');
  assert.deepEqual({ hash: await attr(page, 'data-state-hash'), stage: await attr(page, 'data-stage') }, game);
  assert.equal(await page.locator('#howto').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
