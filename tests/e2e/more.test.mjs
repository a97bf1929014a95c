// Territory choice during setup, a bot-only game to the winner screen, save import, and an autosave of an earlier format.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, URL_BASE, shot, attr, territories, clickTerr, axeCheck } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('chosen territories: claim by clicking', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(URL_BASE + '?seed=e2e-claim');
  await page.click('#new-game');
  await page.selectOption('#opt-selection', '1');
  await page.selectOption('#opt-fortify', '3');
  await page.selectOption('#seat-defend-0', '1'); // always one die
  await page.check('#opt-missions');
  await page.check('#opt-hold');
  await page.click('#start-game');
  await page.locator('#map').waitFor();
  await page.waitForFunction(() => document.querySelector('#root')?.dataset.myTurn === '1');
  assert.equal(await attr(page, 'data-phase'), 'claim');
  const free = (await territories(page)).find((t) => t.owner === 'none');
  await clickTerr(page, free.key);
  await page.waitForFunction((k) => document.querySelector(`g.terr[data-key="${k}"]`).dataset.mine === '1', free.key);
  await shot(page, '16-claim');
  assert.equal(await page.locator('#defend').inputValue(), 'one', 'defender dice preference applied');
  assert.match(await page.locator('#mission').textContent(), /Mission: (Destroy|Conquer|Occupy)/);
  await page.click('#auto-place');
  await page.waitForFunction(() => !['claim', 'setup'].includes(document.querySelector('#root')?.dataset.phase));
  await context.close();
});

test('bots-only game runs to the winner screen; export/import round trip', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(URL_BASE + '?seed=e2e-bots-only');
  await page.click('#new-game');
  await page.selectOption('#seat-count', '0'); // 2 players
  await page.selectOption('#seat-kind-0', '2'); // computer (normal)
  await page.click('#start-game');
  await page.locator('#map').waitFor();
  // Mid-game save, for the import check below.
  await page.waitForFunction(() => document.querySelector('#root')?.dataset.phase === 'reinforce', null, { timeout: 30000 });
  const save = await page.evaluate(() => localStorage.getItem('orbis.save'));
  const hash = await attr(page, 'data-state-hash');
  await page.click('#btn-skip');
  await page.locator('#winner').waitFor({ timeout: 60000 });
  assert.equal(await attr(page, 'data-phase'), 'over');
  assert.match(await page.locator('#winner h2').textContent(), /wins!/);
  await shot(page, '17-winner');
  await axeCheck(page, 'classic game over');

  // Import the earlier save through the menu's file input.
  await page.click('#winner-menu');
  await page.setInputFiles('#import-menu', { name: 'game.orbis', mimeType: 'application/octet-stream', buffer: Buffer.from(save, 'base64') });
  await page.waitForFunction((h) => document.querySelector('#root')?.dataset.stateHash === h, hash);
  assert.equal(await attr(page, 'data-screen'), 'play');
  // And a file that is not a save gives a message, not a blank page.
  await page.click('#menu-btn');
  await page.setInputFiles('#import-menu', { name: 'junk.orbis', mimeType: 'application/octet-stream', buffer: Buffer.from('hello') });
  await page.locator('#notice').waitFor();
  assert.match(await page.locator('#notice').textContent(), /could not be loaded/);
  await context.close();
});

test('five cards force a trade through the dialog', async () => {
  const { readFileSync } = await import('node:fs');
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(URL_BASE);
  await page.setInputFiles('#import-menu', { name: 'trade.orbis', mimeType: 'application/octet-stream',
    buffer: readFileSync(new URL('./fixtures/trade.orbis', import.meta.url)) });
  await page.locator('#trade-dialog').waitFor();
  assert.equal(await page.locator('#close-trade').count(), 0, 'the trade is forced');
  const before = await page.locator('#prompt').textContent();
  await shot(page, '18-trade-dialog');
  await page.locator('.trade-set').first().click();
  await page.locator('#trade-dialog').waitFor({ state: 'detached' });
  const after = await page.locator('#prompt').textContent();
  assert.notEqual(after, before, 'more reinforcements after the trade');
  assert.match(await page.locator('#log').textContent(), /trades/);
  await context.close();
});

test('an autosave of an earlier format opens on the full page once, then on the lite page again', async () => {
  const { readFileSync } = await import('node:fs');
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const old = readFileSync(new URL('./fixtures/trade.orbis', import.meta.url));
  assert.equal(old[5], 1, 'a save of format 1');
  await context.addInitScript((s) => {
    if (!sessionStorage.getItem('seeded')) {
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('orbis.save', s);
    }
  }, old.toString('base64'));
  const page = await context.newPage();
  // A first visit shows the menu, Continue first (issue 60); the lite page reads only the
  // current format: the full page reads it, and saves it again.
  await page.goto(URL_BASE);
  await page.click('#continue');
  await page.waitForURL(/\/full\//);
  await page.locator('#map g.terr').first().waitFor();
  const hash = await attr(page, 'data-state-hash');
  await page.locator('#trade-dialog').waitFor();
  // Saved again in the current format: the lite page resumes it by itself (a game was on
  // screen in this tab).
  await page.goto(URL_BASE);
  await page.locator('#map g.terr').first().waitFor();
  assert.ok(!page.url().includes('/full/'), page.url());
  assert.equal(await attr(page, 'data-state-hash'), hash, 'the same game');
  await context.close();
});
