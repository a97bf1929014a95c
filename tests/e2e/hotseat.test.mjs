// Two humans on one device: the pass-the-device screen hides the board and the other hand.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, URL_BASE, shot, attr, territories, clickTerr } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('hot-seat: pass-the-device screen hides the other hand', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(URL_BASE + '?seed=e2e-hotseat');
  await page.click('#new-game');
  await page.selectOption('#seat-count', '0'); // 2 players
  await page.fill('#seat-name-0', 'Alice');
  await page.selectOption('#seat-kind-1', '0'); // human
  await page.fill('#seat-name-1', 'Bob');
  await shot(page, '11-new-game');
  await page.click('#start-game');
  await page.locator('#map').waitFor();

  // Setup: each human asks for automatic placement.
  for (let i = 0; i < 40; i++) {
    const ph = await attr(page, 'data-phase');
    if (ph !== 'setup' && ph !== 'claim') break;
    const b = page.locator('#auto-place');
    if (await b.count()) await b.click();
    await page.waitForTimeout(100);
  }
  assert.equal(await attr(page, 'data-phase'), 'reinforce');

  let curtains = 0;
  for (let round = 0; round < 4 && curtains < 2; round++) {
    if (await page.locator('#curtain').count()) {
      curtains++;
      const title = await page.locator('#curtain-title').textContent();
      assert.match(title, /Pass the device to (Alice|Bob)/);
      assert.equal(await page.locator('#hand').count(), 0, 'no hand on the pass-the-device screen');
      assert.equal(await page.locator('#map').count(), 0, 'no board on the pass-the-device screen');
      await shot(page, `12-pass-device-${curtains}`);
      await page.click('#btn-reveal');
    }
    const name = title => title;
    const current = Number(await attr(page, 'data-current'));
    const owner = await page.locator('#hand').getAttribute('data-hand-owner');
    const names = ['Alice', 'Bob'];
    assert.equal(owner, names[current], 'only the current player\'s hand is shown');
    // Play a short turn: place everything on one territory, end the turn.
    await page.click('#place-all');
    const mine = (await territories(page)).find((t) => t.mine);
    await clickTerr(page, mine.key);
    await page.waitForFunction(() => document.querySelector('#root')?.dataset.phase === 'attack');
    if (round === 0) await shot(page, '13-hotseat-turn');
    await page.click('#btn-end-turn');
    await page.waitForTimeout(100);
    void name;
  }
  assert.ok(curtains >= 2, 'the pass-the-device screen appeared between the two humans');
  await context.close();
});
