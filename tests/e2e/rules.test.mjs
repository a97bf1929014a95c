// The rules review's options (issue 14) as a player meets them: the new-game form and its
// summary, the per-territory one-die choice, the attack panel's defender dice; the orders option
// "no retreat into another power's territory" named as the source has it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, URL_BASE, shot, attr, territories, clickTerr, waitMyPhase } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('classic options: form, summary, one die per territory, defender dice in the odds', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(URL_BASE + '?seed=e2e-rules');
  await page.click('#new-game');
  await page.selectOption('#seat-count', '1'); // 3 players: you and two computers
  // The constant set value starts at the source's 4.
  await page.selectOption('#opt-cards', '3');
  assert.equal(await page.locator('#opt-constant').inputValue(), '4');
  await page.selectOption('#opt-cards', '0');
  await page.check('#opt-missions');
  // Fewer than six colours: the mission deck choice appears, the source's deck first.
  assert.match(await page.locator('#opt-mission-deck option:checked').textContent(), /Removed before dealing/);
  assert.match(await page.locator('#opt-summary').textContent(), /absent colours' cards removed/);
  await page.check('#opt-two-dice');
  await page.selectOption('#opt-bonus', '1');
  const summary = await page.locator('#opt-summary').textContent();
  assert.match(summary, /\+2 for each held card/);
  assert.match(summary, /defenders roll two dice even with one army/);
  await shot(page, '40-classic-options');
  await page.click('#start-game');
  await page.locator('#map').waitFor();
  for (let i = 0; i < 40; i++) {
    const ph = await attr(page, 'data-phase');
    if (ph !== 'setup' && ph !== 'claim') break;
    const b = page.locator('#auto-place');
    if (await b.count()) await b.click().catch(() => {});
    await page.waitForTimeout(100);
  }
  await waitMyPhase(page, ['reinforce']);

  // One die in one territory: picked from the list, shown as a chip, withdrawn by its button.
  const mine = (await territories(page)).filter((t) => t.mine);
  const first = await page.locator('#one-die-add option').nth(1).textContent();
  await page.selectOption('#one-die-add', '0');
  const chip = page.locator('#one-die button.chip');
  await chip.first().waitFor();
  assert.match(await chip.first().textContent(), new RegExp(first.trim()));
  assert.match(await page.locator('#log').textContent(), /now defends .* with one die/);
  await shot(page, '41-one-die-territory');
  await chip.first().click();
  await page.waitForFunction(() => document.querySelectorAll('#one-die button.chip').length === 0);

  // Reinforce a territory next to an enemy and aim at it: the panel names the defender's dice.
  const all = await territories(page);
  const byKey = Object.fromEntries(all.map((t) => [t.key, t]));
  const front = mine.find((t) => t.adj.some((k) => byKey[k] && !byKey[k].mine));
  await page.click('#place-all');
  await clickTerr(page, front.key);
  await page.waitForFunction(() => document.querySelector('#root')?.dataset.phase === 'attack');
  const enemy = front.adj.map((k) => byKey[k]).find((t) => t && !t.mine);
  await clickTerr(page, front.key);
  await clickTerr(page, enemy.key);
  const matchup = await page.locator('.matchup').textContent();
  assert.match(matchup, enemy.armies === 1 ? /\(1, 2 dice, two even with one army\)/ : /\(\d+, 2 dice\)/);
  assert.match(await page.locator('#odds').textContent(), /\d+(\.\d)?\s?%/);
  await shot(page, '42-attack-defender-dice');
  await context.close();
});

const POWERS = ['ENGLAND', 'FRANCE', 'GERMANY', 'ITALY', 'AUSTRIA', 'RUSSIA', 'TURKEY'];

/** Every power submits (`orders[power]` typed first); the results stay on screen. */
async function phase(page, orders = {}) {
  for (const power of POWERS) {
    await page.locator('#o-reveal').waitFor();
    assert.equal(await attr(page, 'data-stage'), `curtain-${power}`);
    await page.click('#o-reveal');
    for (const o of orders[power] || []) {
      await page.fill('#order-text', o);
      await page.press('#order-text', 'Enter');
    }
    await page.click('#o-submit');
  }
  await page.locator('#o-continue').waitFor();
}

test("orders: a province held after a Fall is the holder's territory, marked on the map", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(URL_BASE + '?seed=e2e-rules-orders');
  await page.click('#new-game');
  await page.click('#ruleset-orders');
  await page.locator('#opt-noretreat').waitFor();
  assert.match(await page.locator('label[for="opt-noretreat"]').textContent(), /another power's territory/);
  await page.check('#opt-noretreat');
  await page.click('#start-game');
  await phase(page, { GERMANY: ['A MUN - RUH'] });
  // Spring takes nothing; in Fall, Germany moves into French Burgundy and keeps it.
  assert.equal(await page.locator('svg.omap .otaken').count(), 0);
  await page.click('#o-continue');
  await phase(page, { GERMANY: ['A RUH - BUR'] });
  await page.locator('svg.omap [data-key="BUR"] .otaken').waitFor();
  assert.match(await page.locator('.olegend').textContent(), /cannot retreat into it/);
  await shot(page, '43-orders-territory');
  await context.close();
});
