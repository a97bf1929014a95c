// The orders ruleset hot-seat on the 1901 Europe map: Spring orders by clicking and by typing,
// arrows and results, a Fall with a dislodgement, a retreat, a build phase, and reloads that
// resume the same state hash.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, URL_BASE, shot, attr, watchErrors, clickKey, axeCheck, arrowWalk, skipLinkCheck, watchLongTasks, longTasks, printLongTasks } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const node = (page, key) => page.locator(`svg.omap [data-key="${key}"]`).first();

/** The places the map outlines as the legal targets of the order being entered, sorted. */
const targets = (page) => page.locator('svg.omap [data-tgt]').evaluateAll((els) => els.map((e) => e.getAttribute('data-tgt')).sort());
/** The outlined places once they are `want` (the map redraws on its next frame after a click,
 * which a loaded machine delays past an immediate read), or as they are after 5 s. */
async function targetsAre(page, want) {
  await page.waitForFunction((w) => JSON.stringify([...document.querySelectorAll('svg.omap [data-tgt]')]
    .map((e) => e.getAttribute('data-tgt')).sort()) === w, JSON.stringify(want), { timeout: 5000 }).catch(() => {});
  return targets(page);
}

/** The zoom bar lies under the map, covering none of it; returns the height on screen, in
 * pixels, of a province key's letters (its font size in map units times the map's scale). */
async function zoomBarClearOfMap(page) {
  const r = await page.evaluate(() => {
    const el = document.querySelector('svg.omap');
    const svg = el.getBoundingClientRect();
    const bar = document.querySelector('.oplay .zoom').getBoundingClientRect();
    const vb = el.viewBox.baseVal;
    const font = parseFloat(getComputedStyle(el.querySelector('.okey')).fontSize);
    return { svgBottom: svg.bottom, barTop: bar.top, px: font * Math.min(svg.width / vb.width, svg.height / vb.height) };
  });
  assert.ok(r.barTop >= r.svgBottom - 0.5, `the zoom bar (top ${r.barTop}) overlaps the map (bottom ${r.svgBottom})`);
  return r.px;
}

/** Waits (up to 10 s) for the play screen's stage: the game starts once the full page's second
 * part is in, and the page redraws on its next frame, both later than a click on a loaded machine. */
async function stageIs(page, want) {
  await page.waitForFunction((w) => document.querySelector('#root')?.dataset.stage === w, want, { timeout: 10000 }).catch(() => {});
  return attr(page, 'data-stage');
}

async function reveal(page, power) {
  assert.equal(await stageIs(page, `curtain-${power}`), `curtain-${power}`);
  assert.equal(await page.locator('svg.omap').count(), 0, 'no map behind the pass-the-device screen');
  assert.equal(await page.locator('#odraft').count(), 0, 'no orders behind the pass-the-device screen');
  await page.click('#o-reveal');
  assert.equal(await stageIs(page, `enter-${power}`), `enter-${power}`);
}

async function type(page, order) {
  await page.fill('#order-text', order);
  await page.press('#order-text', 'Enter');
}

async function submit(page) {
  await page.click('#o-submit');
}

/** Submits with no orders (units hold / dislodged units disband). */
async function pass(page, power) {
  await reveal(page, power);
  await submit(page);
}

test('orders: Europe hot-seat, Spring/Fall, dislodgement, retreat, builds, reload', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(URL_BASE);
  await page.click('#new-game');
  await page.click('#ruleset-orders');
  await page.waitForURL(/\/full\//); // the lite page opens the full page
  await page.locator('#omap').waitFor();
  await shot(page, '40-orders-setup');
  await page.click('#start-game');
  assert.equal(await attr(page, 'data-phase'), 'orders-movement');
  assert.match(await page.locator('#oseason').textContent(), /Spring 1901/);

  // --- Spring 1901 ---
  // England by clicking: F LON - NTH, F EDI - NWG, A LVP holds (click it twice).
  await shot(page, '40b-orders-pass-device');
  await reveal(page, 'ENGLAND');
  await aimedClicks(page);
  await clickKey(page, 'LON');
  await clickKey(page, 'NTH');
  await clickKey(page, 'EDI');
  await clickKey(page, 'NWG');
  await clickKey(page, 'LVP');
  await clickKey(page, 'LVP');
  const eng = await page.locator('#odraft li code').allTextContents();
  assert.deepEqual(eng.sort(), ['A LVP H', 'F EDI - NWG', 'F LON - NTH']);
  await shot(page, '41-orders-england-entry');
  await submit(page);

  // France by typing, with a parse error first (the engine's message is shown).
  await reveal(page, 'FRANCE');
  assert.equal(await page.locator('svg.omap .oarrow').count(), 0, "England's orders are not shown to France");
  await type(page, 'A PAR - XYZ');
  assert.match(await page.locator('#oerror').textContent(), /XYZ/);
  await type(page, 'A PAR - BUR');
  // Support by clicking: MAR, Support…, PAR, BUR.
  await clickKey(page, 'MAR');
  await page.click('#o-support');
  await clickKey(page, 'PAR');
  await clickKey(page, 'BUR');
  await type(page, 'F BRE - MAO');
  const fra = await page.locator('#odraft li code').allTextContents();
  assert.deepEqual(fra.sort(), ['A MAR S A PAR - BUR', 'A PAR - BUR', 'F BRE - MAO']);
  await shot(page, '42-orders-france-typed');
  await submit(page);

  await reveal(page, 'GERMANY');
  await type(page, 'A MUN - BUR');
  await submit(page);
  await reveal(page, 'ITALY');
  await type(page, 'A VEN - TYR');
  await submit(page);
  await reveal(page, 'AUSTRIA');
  await type(page, 'A VIE - TYR; A BUD - RUM');
  await submit(page);
  await reveal(page, 'RUSSIA');
  await type(page, 'A WAR - GAL; A MOS - UKR');
  await submit(page);
  await pass(page, 'TURKEY');

  assert.equal(await attr(page, 'data-stage'), 'results');
  const results = await page.locator('#oresults li').allTextContents();
  const line = (o) => results.find((r) => r.includes(o)) || '';
  assert.match(line('A PAR - BUR'), /ok/);
  assert.match(line('A MUN - BUR'), /bounce/);
  assert.match(line('A VEN - TYR'), /bounce/);
  assert.match(line('A VIE - TYR'), /bounce/);
  assert.ok((await page.locator('svg.omap .oarrow').count()) >= 20, 'every order is drawn');
  assert.ok((await page.locator('svg.omap .oarrow.failed').count()) >= 3, 'failed orders are marked');
  await shot(page, '43-orders-spring-results');

  // Reload: same state, same hash.
  const h1 = await attr(page, 'data-state-hash');
  assert.ok(h1 && h1.length === 64);
  await page.reload();
  await page.locator('#root').waitFor();
  assert.equal(await attr(page, 'data-state-hash'), h1);
  assert.match(await page.locator('#oseason').textContent(), /Fall 1901/);
  // The results are still on screen after the reload.
  assert.equal(await attr(page, 'data-stage'), 'results');
  assert.equal((await page.locator('#oresults li').allTextContents()).length, results.length);
  await page.click('#o-continue');

  // --- Fall 1901: Russia dislodges the Austrian army in Rumania ---
  await pass(page, 'ENGLAND');
  await pass(page, 'FRANCE');
  await pass(page, 'GERMANY');
  // Reload in the middle of the phase: submitted orders are kept.
  const h2 = await attr(page, 'data-state-hash');
  await page.reload();
  await page.locator('#root').waitFor();
  assert.equal(await attr(page, 'data-state-hash'), h2);
  await pass(page, 'ITALY');
  await reveal(page, 'AUSTRIA');
  await type(page, 'A RUM H');
  await submit(page);
  await reveal(page, 'RUSSIA');
  // By clicking: UKR then RUM; GAL, Support…, UKR, RUM; and one typed support.
  await clickKey(page, 'UKR');
  await clickKey(page, 'RUM');
  await clickKey(page, 'GAL');
  await page.click('#o-support');
  await clickKey(page, 'UKR');
  await clickKey(page, 'RUM');
  await type(page, 'F SEV S A UKR - RUM');
  const rus = await page.locator('#odraft li code').allTextContents();
  assert.deepEqual(rus.sort(), ['A GAL S A UKR - RUM', 'A UKR - RUM', 'F SEV S A UKR - RUM']);
  await shot(page, '44-orders-russia-support');
  await submit(page);
  await pass(page, 'TURKEY');
  const fall = await page.locator('#oresults li').allTextContents();
  assert.ok(fall.find((r) => r.includes('A RUM H')).includes('dislodged'));
  await shot(page, '45-orders-fall-results');

  // --- Retreat: only Austria orders ---
  await page.click('#o-continue');
  assert.equal(await attr(page, 'data-phase'), 'orders-retreat');
  await reveal(page, 'AUSTRIA');
  assert.equal(await page.locator('svg.omap .ounit.dislodged').count(), 1);
  assert.equal(await page.locator('#ocount').textContent(), '0 of 1 retreat ordered');
  await clickKey(page, 'RUM');
  // Where it may retreat: not Ukraine (the attacker came from there), not occupied Galicia.
  assert.deepEqual(await targetsAre(page, ['BUD', 'BUL', 'SER']), ['BUD', 'BUL', 'SER']);
  await clickKey(page, 'SER');
  assert.deepEqual(await page.locator('#odraft li code').allTextContents(), ['A RUM R SER']);
  assert.equal(await page.locator('#ocount').textContent(), '1 of 1 retreat ordered');
  await shot(page, '46-orders-retreat');
  await submit(page);
  assert.equal(await attr(page, 'data-stage'), 'results');

  // --- Adjustments: Austria (Serbia) and Russia (Rumania) build one each ---
  await page.click('#o-continue');
  assert.equal(await attr(page, 'data-phase'), 'orders-adjustment');
  await reveal(page, 'AUSTRIA');
  assert.match(await page.locator('#oadj').textContent(), /build 1 unit/);
  await clickKey(page, 'BUD');
  await page.click('#o-build-army');
  assert.deepEqual(await page.locator('#odraft li code').allTextContents(), ['A BUD B']);
  assert.equal(await page.locator('#ocount').textContent(), '1 of 1 build chosen');
  await shot(page, '47-orders-builds');
  await submit(page);
  await reveal(page, 'RUSSIA');
  await type(page, 'A WAR B');
  await submit(page);
  assert.equal(await attr(page, 'data-stage'), 'results');
  await shot(page, '48-orders-build-results');
  assert.equal(await page.locator('svg.omap [data-unit="A WAR"]').count(), 1);
  assert.equal(await page.locator('#ocentres [data-power="RUSSIA"] .osc').textContent(), '5');
  assert.equal(await page.locator('#ocentres [data-power="AUSTRIA"] .osc').textContent(), '4');
  await page.click('#o-continue');
  assert.match(await page.locator('#oseason').textContent(), /Spring 1902/);
  const h3 = await attr(page, 'data-state-hash');
  await page.reload();
  await page.locator('#root').waitFor();
  assert.equal(await attr(page, 'data-state-hash'), h3);
  assert.deepEqual(errors, []);
  await context.close();
});

/** Plays the powers' turns at the curtain: `orders[power]` is typed (or a function run) before
 * submitting; powers not listed submit nothing. Stops when the results are on screen. */
async function round(page, orders = {}) {
  for (;;) {
    const stage = await attr(page, 'data-stage');
    if (!stage.startsWith('curtain-')) return;
    const power = stage.slice('curtain-'.length);
    await reveal(page, power);
    const o = orders[power];
    if (typeof o === 'function') await o();
    else if (o) await type(page, o);
    await submit(page);
  }
}

/**
 * A click lands on the province the player aims at (issue 60: clicks inside Spain went to its
 * coast markers, and Portugal's supply centre stood on Spain): at every province's unit point
 * and at the middle of its key, the map finds that province. Checks what the map shows.
 */
async function aimedClicks(page) {
  const r = await page.evaluate(() => {
    const svg = document.querySelector('svg.omap');
    const box = svg.getBoundingClientRect();
    const wrong = [];
    let checked = 0;
    const look = (k, x, y, what) => {
      if (x < Math.max(0, box.left) || y < Math.max(0, box.top) || x > Math.min(innerWidth, box.right) || y > Math.min(innerHeight, box.bottom)) return;
      checked++;
      const t = document.elementFromPoint(x, y)?.closest('[data-key],[data-k]');
      const hit = t?.getAttribute('data-key') ?? t?.getAttribute('data-k');
      if (hit !== k) wrong.push(`${k}'s ${what} finds ${hit}`);
    };
    for (const g of svg.querySelectorAll('.oreg[data-key]')) {
      const k = g.dataset.key;
      const [ax, ay] = g.dataset.at.split(' ').map(Number);
      const p = svg.createSVGPoint();
      [p.x, p.y] = [ax, ay];
      const q = p.matrixTransform(svg.getScreenCTM());
      look(k, q.x, q.y, 'unit point');
      const label = svg.querySelector(`.okey[data-k="${k}"]`).getBoundingClientRect();
      look(k, label.x + label.width / 2, label.y + label.height / 2, 'key');
    }
    return { wrong, checked };
  });
  assert.deepEqual(r.wrong, []);
  assert.ok(r.checked >= 40, `only ${r.checked} points in view`);
}

async function newEurope(page) {
  await page.goto(URL_BASE);
  await page.click('#new-game');
  await page.click('#ruleset-orders');
  await page.waitForURL(/\/full\//);
  await page.click('#start-game');
  // The game starts once the full page's second part is in (web/split-loader.js), which a busy
  // machine delivers after the click returns: `round` must see the first pass-the-device screen,
  // not the page before it (a run with two test lanes on a loaded machine read it too early).
  await page.waitForFunction(() => document.querySelector('#root')?.getAttribute('data-stage')?.startsWith('curtain-'), null, { timeout: 60000 });
}

/**
 * Asserts that the control `sel` is the top element at its centre (after scrolling it into view,
 * as a player would): not covered by the map or another panel.
 */
async function onTop(page, sel) {
  const el = page.locator(sel).first();
  await el.scrollIntoViewIfNeeded();
  const r = await el.evaluate((e) => {
    const b = e.getBoundingClientRect();
    const x = b.x + b.width / 2;
    const y = b.y + b.height / 2;
    const t = document.elementFromPoint(x, y);
    return { ok: !!t && (t === e || e.contains(t)), top: t ? t.outerHTML.slice(0, 160) : 'nothing', x, y };
  });
  assert.ok(r.ok, `${sel} is covered at its centre (${r.x}, ${r.y}) by ${r.top}`);
}

test('orders: the Europe region map on a phone: movement arrows, retreat, builds; the schematic view', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await newEurope(page);
  await round(page, {
    ENGLAND: async () => {
      // On a phone the map opens on the power's part of Europe.
      assert.notEqual(await page.locator('svg.omap').getAttribute('viewBox'), '0 0 1000 910');
      await shot(page, '59-orders-regions-phone-england');
      assert.equal(await page.locator('svg.omap .oreg').count(), 75, 'every province is a region');
      assert.equal(await page.locator('svg.omap .oreg.sea').count(), 19);
      // Readable at the opening zoom: a province key (10 map units) at 12 px or more, and the
      // zoom buttons in a bar of their own under the map.
      const px = await zoomBarClearOfMap(page);
      console.log(`orders phone opening zoom: province keys at ${px.toFixed(1)} px`);
      assert.ok(px >= 12, `keys at ${px} px`);
      // A selected fleet: its legal moves outlined, as the engine lists them.
      await clickKey(page, 'LON');
      assert.deepEqual(await targetsAre(page, ['ENG', 'NTH', 'WAL', 'YOR']), ['ENG', 'NTH', 'WAL', 'YOR']);
      await shot(page, '59b-orders-targets-phone');
      await page.click('#o-cancel');
      assert.deepEqual(await targetsAre(page, []), []);
      // A tap off the outlined places is refused at the tap, with why and where it may go.
      await clickKey(page, 'LVP');
      await clickKey(page, 'NTH');
      assert.match(await page.locator('#oerror').textContent(), /can't go to the North Sea: armies stay on land\. It can go to /);
      assert.equal(await page.locator('#odraft li').count(), 0, 'no void order written');
      await shot(page, '59c-orders-refused-phone');
      await page.click('#o-cancel');
    },
    FRANCE: 'A PAR - BUR', GERMANY: 'A MUN - BUR', ITALY: 'A VEN - TYR', AUSTRIA: 'A VIE - TYR; A BUD - RUM',
    RUSSIA: async () => {
      // Russia's units spread widest: its opening zoom is wider, its keys as large on screen.
      assert.ok((await zoomBarClearOfMap(page)) >= 12, 'province keys readable at the opening zoom');
      await type(page, 'A WAR - GAL');
      await clickKey(page, 'MOS');
      await clickKey(page, 'UKR');
      assert.deepEqual((await page.locator('#odraft li code').allTextContents()).sort(), ['A MOS - UKR', 'A WAR - GAL']);
      assert.equal(await page.locator('svg.omap .oarrow').count(), 2, 'the draft is drawn as arrows');
      await onTop(page, '#o-submit');
      await shot(page, '60-orders-regions-phone-movement-orders');
    },
  });
  assert.ok((await page.locator('svg.omap .oarrow').count()) >= 20);
  await page.click('.zbtn[aria-label="Whole map"]');
  await onTop(page, '#o-continue');
  await shot(page, '61-orders-regions-phone-movement-results');
  await page.click('#o-continue');
  await round(page, {
    AUSTRIA: 'A RUM H',
    RUSSIA: 'A UKR - RUM; A GAL S A UKR - RUM; F SEV S A UKR - RUM',
  });
  await page.click('#o-continue');
  assert.equal(await attr(page, 'data-phase'), 'orders-retreat');
  await reveal(page, 'AUSTRIA');
  assert.equal(await page.locator('svg.omap .ounit.dislodged').count(), 1);
  await clickKey(page, 'RUM');
  await clickKey(page, 'SER');
  assert.deepEqual(await page.locator('#odraft li code').allTextContents(), ['A RUM R SER']);
  await onTop(page, '#o-submit');
  await shot(page, '62-orders-regions-phone-retreat');
  await submit(page);
  await page.click('#o-continue');
  assert.equal(await attr(page, 'data-phase'), 'orders-adjustment');
  await reveal(page, 'AUSTRIA');
  await clickKey(page, 'BUD');
  await onTop(page, '#o-build-army');
  await page.click('#o-build-army');
  assert.deepEqual(await page.locator('#odraft li code').allTextContents(), ['A BUD B']);
  await onTop(page, '#o-submit');
  await shot(page, '63-orders-regions-phone-builds');
  await submit(page);
  await round(page, { RUSSIA: 'A WAR B' });
  await page.click('.zbtn[aria-label="Whole map"]');
  await shot(page, '64-orders-regions-phone-build-results');
  // Owned centres' regions are filled with their owner's pattern.
  assert.match(await page.locator('svg.omap .oreg[data-key="SER"] path').getAttribute('style'), /url\(#opat4\)/);
  // The schematic view is still there, as an option.
  await page.click('#omapstyle');
  assert.equal(await page.locator('svg.omap .oreg').count(), 0);
  assert.ok((await page.locator('svg.omap .oedge').count()) > 0);
  await shot(page, '65-orders-schematic-phone');
  await page.click('#omapstyle');
  assert.equal(await page.locator('svg.omap .oreg').count(), 75);
  assert.deepEqual(errors, []);
  await context.close();
});

test('orders: a click on each split coast orders that coast', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await newEurope(page);
  const draft = () => page.locator('#odraft li code').allTextContents();
  await round(page, { FRANCE: 'F BRE - MAO', TURKEY: 'A CON - BUL; F ANK - CON', RUSSIA: 'F STP/SC - BOT' });
  await page.click('#o-continue');
  await round(page, {
    FRANCE: async () => {
      // Spain's body, which the fleet can enter by both coasts: the page asks which.
      await clickKey(page, 'MAO');
      await clickKey(page, 'SPA');
      assert.deepEqual(await page.locator('#ocoast button').allTextContents(), ['North coast', 'South coast']);
      assert.deepEqual(await draft(), []);
      await shot(page, '65b-orders-which-coast');
      await page.click('#o-coast-nc');
      assert.deepEqual(await draft(), ['F MAO - SPA/NC']);
      await clickKey(page, 'MAO');
      await clickKey(page, 'SPA/SC');
      assert.ok((await draft()).includes('F MAO - SPA/SC'), (await draft()).join('; '));
      await shot(page, '66-orders-regions-split-coast-spain');
    },
    TURKEY: async () => {
      await clickKey(page, 'CON');
      await clickKey(page, 'BUL/EC');
      assert.deepEqual(await draft(), ['F CON - BUL/EC']);
      await clickKey(page, 'CON');
      await clickKey(page, 'BUL/SC');
      assert.ok((await draft()).includes('F CON - BUL/SC'), (await draft()).join('; '));
      await shot(page, '67-orders-regions-split-coast-bulgaria');
    },
    RUSSIA: async () => {
      await clickKey(page, 'BOT');
      await clickKey(page, 'STP/SC');
      assert.deepEqual(await draft(), ['F BOT - STP/SC']);
      await page.click('#odraft li .x');
      await type(page, 'F BOT - SWE');
      assert.deepEqual(await draft(), ['F BOT - SWE']);
    },
  });
  await page.click('#o-continue');
  assert.equal(await attr(page, 'data-phase'), 'orders-adjustment');
  await round(page, {
    RUSSIA: async () => {
      await clickKey(page, 'STP');
      await clickKey(page, 'STP/NC');
      assert.deepEqual(await draft(), ['F STP/NC B']);
      await shot(page, '68-orders-regions-split-coast-build');
    },
  });
  assert.equal(await page.locator('svg.omap [data-unit="F STP/NC"]').count(), 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test('orders: world map setup with 5 players, three in civil disorder', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(URL_BASE);
  await page.click('#new-game');
  await page.click('#ruleset-orders');
  await page.waitForURL(/\/full\//); // the lite page opens the full page
  await page.selectOption('#omap', 'world');
  await page.selectOption('#oplayers', '5');
  for (const power of ['AFRICA', 'ASIA', 'OCEANIA']) await page.selectOption(`#opower-${power}`, 'cd');
  await page.click('#start-game');
  await reveal(page, 'NORTH_AMERICA');
  // Zoom in with the wheel, order by clicking on the zoomed map, back to the whole map.
  const box = await node(page, 'EUS').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const viewBox = () => page.locator('svg.omap').getAttribute('viewBox');
  const full = await viewBox();
  for (let i = 0; i < 4; i++) {
    await page.mouse.wheel(0, -200);
    await page.waitForTimeout(50);
  }
  // Four steps of 1.15 make the view 1.75 times narrower: it waits for the last, which may reach
  // the page after `wheel` returns (and would move the provinces under the next clicks).
  const want = Number(full.split(' ')[2]) / 1.15 ** 4;
  let vb;
  for (let i = 0; i < 50 && Math.abs(Number((vb = await viewBox()).split(' ')[2]) - want) > 1; i++) {
    await page.waitForTimeout(100);
  }
  assert.ok(Math.abs(Number(vb.split(' ')[2]) - want) <= 1, `zoomed in four steps: ${full} -> ${vb}`);
  await clickKey(page, 'EUS');
  await clickKey(page, 'CAR');
  assert.deepEqual(await page.locator('#odraft li code').allTextContents(), ['F EUS - CAR']);
  await shot(page, '49b-orders-world-zoomed');
  await page.click('.zbtn[aria-label="Whole map"]');
  await type(page, 'A ONT - QUE');
  await shot(page, '49-orders-world');
  await submit(page);
  await pass(page, 'EUROPE');
  assert.equal(await attr(page, 'data-stage'), 'results');
  await shot(page, '50-orders-world-results');
  await context.close();
});

/**
 * The world map with 3 players (South America, Europe, Africa): Spring 1901 Europe moves by
 * clicks (A WEU - SEU, A NEU - UKR) and Africa A EGY - MEA; Fall 1901 Europe dislodges the
 * African army from the Middle East (A SEU - MEA supported by A UKR, by clicks), Africa retreats
 * it to Egypt by clicks, and Europe builds an army in Western Europe (4 centres, 3 units) by
 * clicks. `phone`: the map opens on the power's part (kept for the results: the whole world is
 * too small to read on a phone), and the controls the player presses are checked to be on top.
 * Screenshots `${n}a-${name}-…` to `${n}h-${name}-…`.
 */
async function worldDislodgement(page, n, name, phone) {
  const draft = async () => (await page.locator('#odraft li code').allTextContents()).sort();
  await page.goto(URL_BASE);
  await page.click('#new-game');
  await page.click('#ruleset-orders');
  await page.waitForURL(/\/full\//);
  await page.selectOption('#omap', 'world');
  await page.selectOption('#oplayers', '3');
  await page.click('#start-game');
  assert.equal(await attr(page, 'data-phase'), 'orders-movement');
  assert.match(await page.locator('#oseason').textContent(), /Spring 1901/);

  // --- Spring 1901 ---
  await round(page, {
    EUROPE: async () => {
      if (phone) assert.notEqual(await page.locator('svg.omap').getAttribute('viewBox'), '0 0 1300 627.9', "the power's part of the map");
      if (phone) assert.ok((await zoomBarClearOfMap(page)) >= 12, 'province keys readable at the opening zoom');
      await clickKey(page, 'WEU');
      await clickKey(page, 'SEU');
      await clickKey(page, 'NEU');
      await clickKey(page, 'UKR');
      assert.deepEqual(await draft(), ['A NEU - UKR', 'A WEU - SEU']);
      assert.equal(await page.locator('svg.omap .oarrow').count(), 2, 'the draft is drawn as arrows');
      if (phone) await onTop(page, '#o-submit');
      await shot(page, `${n}a-${name}-movement-orders`);
    },
    AFRICA: 'A EGY - MEA',
  });
  assert.equal(await attr(page, 'data-stage'), 'results');
  const spring = await page.locator('#oresults li').allTextContents();
  assert.match(spring.find((r) => r.includes('A WEU - SEU')) || '', /ok/);
  assert.match(spring.find((r) => r.includes('A EGY - MEA')) || '', /ok/);
  assert.ok((await page.locator('svg.omap .oarrow').count()) >= 9, 'every order is drawn');
  if (phone) await onTop(page, '#o-continue');
  await shot(page, `${n}b-${name}-movement-results`);
  await page.click('#o-continue');

  // --- Fall 1901: Europe dislodges Africa's army from the Middle East ---
  assert.match(await page.locator('#oseason').textContent(), /Fall 1901/);
  await round(page, {
    EUROPE: async () => {
      await clickKey(page, 'SEU');
      await clickKey(page, 'MEA');
      await clickKey(page, 'UKR');
      await page.click('#o-support');
      await clickKey(page, 'SEU');
      await clickKey(page, 'MEA');
      assert.deepEqual(await draft(), ['A SEU - MEA', 'A UKR S A SEU - MEA']);
      assert.equal(await page.locator('svg.omap .oarrow').count(), 2, 'the move and the support are drawn');
      await shot(page, `${n}c-${name}-fall-orders`);
    },
    AFRICA: 'A MEA H',
  });
  const fall = await page.locator('#oresults li').allTextContents();
  assert.match(fall.find((r) => r.includes('A MEA H')) || '', /dislodged/, fall.join('\n'));
  assert.equal(await page.locator('svg.omap .ounit.dislodged').count(), 1);
  await shot(page, `${n}d-${name}-fall-results`);

  // --- Retreat: only Africa orders, by clicking the dislodged unit then Egypt ---
  await page.click('#o-continue');
  assert.equal(await attr(page, 'data-phase'), 'orders-retreat');
  await reveal(page, 'AFRICA');
  assert.equal(await page.locator('svg.omap .ounit.dislodged').count(), 1);
  await clickKey(page, 'MEA');
  await clickKey(page, 'EGY');
  assert.deepEqual(await draft(), ['A MEA R EGY']);
  assert.ok((await page.locator('svg.omap .oarrow').count()) >= 1, 'the retreat is drawn');
  if (phone) await onTop(page, '#o-submit');
  await shot(page, `${n}e-${name}-retreat`);
  await submit(page);
  assert.equal(await attr(page, 'data-stage'), 'results');
  assert.equal(await page.locator('svg.omap [data-unit="A EGY"]').count(), 1);
  if (phone) await onTop(page, '#o-continue');

  // --- Adjustments: Europe (Middle East) builds an army in Western Europe ---
  await page.click('#o-continue');
  assert.equal(await attr(page, 'data-phase'), 'orders-adjustment');
  await reveal(page, 'EUROPE');
  assert.match(await page.locator('#oadj').textContent(), /build 1 unit/);
  await clickKey(page, 'WEU');
  if (phone) await onTop(page, '#o-build-army');
  await shot(page, `${n}f-${name}-build-buttons`);
  await page.click('#o-build-army');
  assert.deepEqual(await draft(), ['A WEU B']);
  if (phone) await onTop(page, '#o-submit');
  await shot(page, `${n}g-${name}-builds`);
  await submit(page);
  assert.equal(await attr(page, 'data-stage'), 'results');
  assert.equal(await page.locator('svg.omap [data-unit="A WEU"]').count(), 1);
  assert.equal(await page.locator('#ocentres [data-power="EUROPE"] .osc').textContent(), '4');
  assert.equal(await page.locator('#ocentres [data-power="AFRICA"] .osc').textContent(), '3');
  if (phone) await onTop(page, '#o-continue');
  await shot(page, `${n}h-${name}-build-results`);
  await page.click('#o-continue');
  assert.match(await page.locator('#oseason').textContent(), /Spring 1902/);
}

test('orders: the world region map on a phone: movement arrows, a dislodgement, retreat and builds by clicks', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await worldDislodgement(page, '55', 'orders-world-phone', true);
  assert.deepEqual(errors, []);
  await context.close();
});

test('orders: the world region map on a desktop: a dislodgement, retreat and builds by clicks', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await worldDislodgement(page, '56', 'orders-world', false);
  assert.deepEqual(errors, []);
  await context.close();
});

test('orders: a draw accepted by every power ends the game', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(URL_BASE);
  await page.click('#new-game');
  await page.click('#ruleset-orders');
  await page.waitForURL(/\/full\//); // the lite page opens the full page
  await page.click('#start-game');
  const powers = ['ENGLAND', 'FRANCE', 'GERMANY', 'ITALY', 'AUSTRIA', 'RUSSIA', 'TURKEY'];
  for (const p of powers) {
    await reveal(page, p);
    await page.click('#o-draw');
    if (p !== 'TURKEY') await submit(page);
  }
  assert.equal(await attr(page, 'data-phase'), 'over');
  assert.match(await page.locator('#ogameover').textContent(), /drawn/);
  // Game over opens the statistics: supply centres and units, a line per power (issue 60).
  assert.notEqual(await page.locator('#ostats').getAttribute('open'), null);
  assert.equal(await page.locator('#ocharts figure.chart').count(), 2);
  assert.equal(await page.locator('#ocharts figure.chart').first().locator('path.chart-line').count(), 7);
  await shot(page, '51-orders-draw');
  await axeCheck(page, 'orders game over');

  // The lite page never reads an orders save as damaged: its autosave, and the same save
  // imported from a file, open on the full page.
  const hash = await attr(page, 'data-state-hash');
  const save = await page.evaluate(() => localStorage.getItem('orbis.save'));
  await page.goto(URL_BASE);
  await page.waitForURL(/\/full\//);
  await page.locator('#root[data-phase="over"]').waitFor();
  assert.equal(await attr(page, 'data-state-hash'), hash, 'the autosave resumes on the full page');
  await page.evaluate(() => localStorage.clear());
  await page.goto(URL_BASE);
  await page.locator('#quick-start').waitFor();
  assert.ok(!page.url().includes('/full/'));
  await page.setInputFiles('#import-menu', { name: 'orders.orbis', mimeType: 'application/octet-stream', buffer: Buffer.from(save, 'base64') });
  await page.waitForURL(/\/full\//);
  await page.locator('#root[data-phase="over"]').waitFor();
  assert.equal(await attr(page, 'data-state-hash'), hash, 'the imported save opens on the full page');
  await context.close();
});

test('orders: house options "fleets face a sea" and combine by clicks', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(URL_BASE);
  await page.click('#new-game');
  await page.click('#ruleset-orders');
  await page.check('#opt-facing');
  await page.check('#opt-combine');
  await shot(page, '52-orders-house-options');
  await page.click('#start-game');
  // Starting fleets face the first sea they border: Brest the Channel, London the Channel.
  const unit = (u) => page.locator(`svg.omap .ounit[data-unit="${u}"]`);
  await reveal(page, 'ENGLAND');
  assert.equal(await unit('F LON').getAttribute('data-facing'), 'ENG');
  assert.match(await unit('F LON').locator('title').textContent(), /F LON facing English Channel/);
  assert.equal(await unit('A LVP').getAttribute('data-facing'), null);
  assert.ok((await page.locator('svg.omap line.ofacing').count()) >= 9, 'a facing tick per fleet');
  await shot(page, '53-orders-fleets-facing');
  await submit(page);
  // France, facing the Channel: Brest to Gascony (on the Mid-Atlantic only) is void.
  await reveal(page, 'FRANCE');
  assert.equal(await unit('F BRE').getAttribute('data-facing'), 'ENG');
  await type(page, 'F BRE - GAS');
  await submit(page);
  for (const p of ['GERMANY', 'ITALY', 'AUSTRIA', 'RUSSIA', 'TURKEY']) await pass(page, p);
  assert.equal(await attr(page, 'data-stage'), 'results');
  assert.match(await page.locator('#oresults').textContent(), /F BRE - GAS[^]*void/);
  await page.click('#o-continue');
  // Fall: Russia combines Warsaw into Moscow by clicks.
  for (const p of ['ENGLAND', 'FRANCE', 'GERMANY', 'ITALY', 'AUSTRIA']) await pass(page, p);
  await reveal(page, 'RUSSIA');
  await clickKey(page, 'WAR');
  await page.click('#o-combine');
  await clickKey(page, 'MOS');
  assert.deepEqual(await page.locator('#odraft li code').allTextContents(), ['A WAR COMBINE A MOS']);
  await shot(page, '54-orders-combine-clicked');
  await submit(page);
  await pass(page, 'TURKEY');
  assert.equal(await attr(page, 'data-stage'), 'results');
  assert.equal(await unit('A MOS').locator('text').textContent(), 'A2');
  assert.deepEqual(errors, []);
  await context.close();
});

test('orders: one human against six computer powers, who order by themselves; a reload keeps them', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await watchLongTasks(context);
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(URL_BASE);
  await page.click('#new-game');
  await page.click('#ruleset-orders');
  await page.waitForURL(/\/full\//);
  const computers = ['ENGLAND', 'GERMANY', 'ITALY', 'AUSTRIA', 'RUSSIA', 'TURKEY'];
  for (const power of computers) {
    await page.selectOption(`#opower-${power}`, power === 'TURKEY' ? 'easy' : 'normal');
  }
  await shot(page, '52a-orders-computer-setup');
  await page.click('#start-game');
  // Only France is asked for orders, with no pass-the-device screen (nobody to hide them from);
  // the chips say who plays the others.
  assert.equal(await attr(page, 'data-stage'), 'enter-FRANCE');
  assert.equal(await page.locator('#o-reveal').count(), 0);
  assert.match(await page.locator('#ocentres li[data-power="ENGLAND"]').textContent(), /computer, normal/);
  assert.match(await page.locator('#ocentres li[data-power="TURKEY"]').textContent(), /computer, easy/);
  // Selecting a unit outlines exactly where the engine lets it go; Support… outlines the units
  // it may support, then where the supported unit may go with it.
  const count = () => page.locator('#ocount').textContent();
  assert.equal(await count(), '0 of 3 units ordered');
  await clickKey(page, 'MAR');
  assert.deepEqual(await targetsAre(page, ['BUR', 'GAS', 'PIE', 'SPA']), ['BUR', 'GAS', 'PIE', 'SPA']);
  await page.click('#o-support');
  assert.deepEqual(await targetsAre(page, ['BRE', 'MUN', 'PAR', 'VEN']), ['BRE', 'MUN', 'PAR', 'VEN']);
  await clickKey(page, 'PAR');
  assert.deepEqual(await targetsAre(page, ['BUR', 'GAS']), ['BUR', 'GAS']);
  await shot(page, '52c-orders-support-targets');
  await page.click('#o-cancel');
  // France's opening by clicks, counted: F BRE - MAO, A PAR - BUR, A MAR - SPA, then submit.
  let clicks = 0;
  const click = async (key) => { clicks++; await clickKey(page, key); };
  await click('BRE');
  assert.deepEqual(await targetsAre(page, ['ENG', 'GAS', 'MAO', 'PIC']), ['ENG', 'GAS', 'MAO', 'PIC']);
  await shot(page, '52d-orders-targets-desktop');
  assert.ok((await zoomBarClearOfMap(page)) > 0);
  await click('MAO');
  assert.deepEqual(await targetsAre(page, []), [], 'no outline once ordered');
  assert.equal(await count(), '1 of 3 units ordered');
  await click('PAR');
  await click('BUR');
  assert.equal(await count(), '2 of 3 units ordered');
  await click('MAR');
  await click('SPA');
  assert.equal(await count(), '3 of 3 units ordered');
  assert.deepEqual((await page.locator('#odraft li code').allTextContents()).sort(), ['A MAR - SPA', 'A PAR - BUR', 'F BRE - MAO']);
  clicks++; // Submit orders
  console.log(`orders: France's Spring 1901 order set takes ${clicks} clicks`);
  await type(page, 'A PAR - BUR');
  // The keyboard (issue 60): the skip link first; France's units are the map's tab stops, and
  // arrows walk from Paris to its neighbours.
  await skipLinkCheck(page);
  assert.deepEqual(await page.$$eval('svg.omap [tabindex="0"]', (e) => e.map((g) => g.dataset.key).sort()), ['BRE', 'MAR', 'PAR']);
  await arrowWalk(page, 'svg.omap [data-key="PAR"]');
  await shot(page, '52c-orders-keyboard-focus');
  await axeCheck(page, 'orders game');
  // Submitted as assistive technology clicks (the focus stays on Paris): the six computer
  // powers order, the map is drawn anew, and the focus is on Paris again.
  await page.focus('svg.omap [data-key="PAR"]');
  await longTasks(page);
  await page.locator('#o-submit').dispatchEvent('click');
  // The computer powers think in the worker (data-stage "thinking"), then the phase resolves.
  await page.locator('#root[data-stage="results"]').waitFor();
  await printLongTasks(page, "the orders computer powers' phase (six normal/easy powers, Spring 1901)");
  await page.waitForFunction(() => document.activeElement?.getAttribute('data-key') === 'PAR', null, { timeout: 5000 })
    .catch(() => {});
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-key')), 'PAR', 'the focus stays on Paris through the computers\' phase');
  // Every unit on the board had an order, and the computer powers gave some besides holds.
  const results = await page.locator('#oresults li code').allTextContents();
  assert.equal(results.length, 22, results.join('\n'));
  const moves = results.filter((o) => / - |\sS\s/.test(o) && !/^(A PAR|A MAR|F BRE)/.test(o));
  assert.ok(moves.length >= 6, `computer orders: ${results.join('; ')}`);
  await shot(page, '52-orders-computer-results');
  const hash = await attr(page, 'data-state-hash');
  await page.reload();
  await page.locator('#root[data-stage="results"]').waitFor();
  assert.equal(await attr(page, 'data-state-hash'), hash, 'the reload resumes the same game');
  const fallSave = await page.evaluate(() => localStorage.getItem('orbis.save'));
  await page.click('#o-continue');
  // Fall 1901: still France alone at the device (no curtain), the computers kept across the
  // reload.
  assert.equal(await attr(page, 'data-stage'), 'enter-FRANCE');
  // Issue 62 item 5: "What would the computer do?" fills France's orders, drawn as arrows; one
  // is changed (a unit told to hold instead) and the set submitted. The player's own order,
  // typed first, is kept: only the units without one get the computer's.
  const without = await page.locator('p.hint', { hasText: /^Without orders/ }).textContent();
  const mine = `${without.split(': ')[1].split(', ')[0]} H`; // e.g. "A BUR H"
  await page.fill('#order-text', mine);
  await page.click('#order-add');
  await page.locator('#ocount', { hasText: /^1 of 3 units ordered$/ }).waitFor();
  await page.click('#o-suggest');
  await page.locator('#ocount', { hasText: /^3 of 3 units ordered$/ }).waitFor();
  const suggested = await page.locator('#odraft li code').allTextContents();
  assert.equal(suggested.length, 3, suggested.join('; '));
  assert.ok(suggested.includes(mine), `the player's own order is kept: ${suggested.join('; ')}`);
  // Every unit has an order now: asking again changes nothing, and says so.
  await page.click('#o-suggest');
  await page.locator('#oerror', { hasText: 'nothing was changed' }).waitFor();
  assert.deepEqual(await page.locator('#odraft li code').allTextContents(), suggested);
  await shot(page, '52e-orders-suggested');
  assert.equal(await page.locator('svg.omap g.oarrows g.oarrow').count(), 3, 'one arrow (or ring) per suggested order');
  const changed = suggested.find((o) => / - /.test(o)) ?? suggested[0];
  const unit = changed.split(' ').slice(0, 2).join(' '); // "A BUR"
  await clickKey(page, unit.split(' ')[1].split('/')[0]);
  await page.click('#o-hold');
  await page.locator('#odraft li code', { hasText: new RegExp(`^${unit} H$`) }).waitFor();
  assert.equal((await page.locator('#odraft li code').allTextContents()).length, 3);
  await shot(page, '52f-orders-suggestion-changed');
  await longTasks(page);
  await submit(page);
  await page.locator('#root[data-stage="results"]').waitFor();
  await printLongTasks(page, "the orders computer powers' phase (Fall 1901)");
  const fall = await page.locator('#oresults li code').allTextContents();
  assert.ok(fall.includes(`${unit} H`), `the changed order was submitted: ${fall.join('; ')}`);
  assert.notEqual(await attr(page, 'data-state-hash'), hash);
  assert.match(await page.locator('#oseason').textContent(), /1901|1902/);
  // A figure, not an assertion: the six computer powers' orders for a phase, in wasm.
  const times = await page.evaluate(() => (window.__orbisBots || {})['orders-phase']);
  console.log('orders computer powers per phase (ms):', JSON.stringify(times));
  // The same game imported from a file: a save does not say who plays each power, so every
  // power is human and the panel says so; handing them back to the computer moves on.
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.locator('#new-game').waitFor();
  await page.setInputFiles('#import-menu', { name: 'orders.orbis', mimeType: 'application/octet-stream', buffer: Buffer.from(fallSave, 'base64') });
  await page.locator('#oseats-unknown').waitFor();
  assert.notEqual(await page.locator('#oseats').getAttribute('open'), null, 'the seats box is open');
  assert.equal(await attr(page, 'data-stage'), 'curtain-ENGLAND', 'every power is human');
  await shot(page, '52b-orders-imported-seats');
  await page.selectOption('#oseat-ENGLAND', { label: 'Computer (normal)' });
  assert.equal(await page.locator('#oseats-unknown').count(), 0, 'the notice goes once a seat is set');
  assert.equal(await attr(page, 'data-stage'), 'curtain-FRANCE', 'the device moves on past England');
  for (const power of computers.slice(1)) {
    await page.selectOption(`#oseat-${power}`, { label: power === 'TURKEY' ? 'Computer (easy)' : 'Computer (normal)' });
  }
  // France alone again among humans: no curtain.
  assert.equal(await attr(page, 'data-stage'), 'enter-FRANCE');
  await page.reload();
  await page.locator('#root[data-stage="enter-FRANCE"]').waitFor();
  assert.match(await page.locator('#ocentres li[data-power="TURKEY"]').textContent(), /computer, easy/, 'seats set in play survive a reload');
  assert.equal(await page.locator('#oseats-unknown').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
