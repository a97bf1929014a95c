// Shared helpers for the end-to-end tests: Debian's Chromium through playwright-core, against the
// release bundle served by scripts/test-web.sh (ORBIS_URL).
import { chromium } from 'playwright-core';
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export const URL_BASE = process.env.ORBIS_URL || 'http://127.0.0.1:8080/';
export const OUT = process.env.ORBIS_SHOTS || 'test-output';
mkdirSync(OUT, { recursive: true });

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export async function shot(page, name) {
  await page.screenshot({ path: join(OUT, `${name}.png`) });
}

export const root = (page) => page.locator('#root');
export const attr = (page, a) => page.locator('#root').getAttribute(a);

/**
 * Asserts that `selector`'s text comes to match `re` (within `timeout` ms): the page re-renders
 * after an input's change event on its next frame, which a loaded machine can delay past an
 * immediate read (a fresh-clone run read "21 of 20" just after the field was set to 19).
 */
export async function textMatches(page, selector, re, timeout = 10000) {
  await page.waitForFunction(([sel, src, flags]) =>
    new RegExp(src, flags).test(document.querySelector(sel)?.textContent ?? ''),
  [selector, re.source, re.flags], { timeout }).catch(() => {});
  assert.match((await page.locator(selector).textContent()) ?? '', re);
}

/** Collects page errors so a test can assert there were none. */
export function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  return errors;
}

/** All territories as {key, owner, armies, mine, adj[]}. */
export async function territories(page) {
  return page.$$eval('g.terr', (gs) => gs.map((g) => ({
    key: g.dataset.key, owner: g.dataset.owner, armies: Number(g.dataset.armies),
    mine: g.dataset.mine === '1', adj: (g.dataset.adj || '').split(' ').filter(Boolean),
  })));
}

export async function clickTerr(page, key) {
  // The army badge is the reliable spot to click (a shape's centre may be sea or another
  // territory); unclaimed territories have no badge, so they get the click event directly.
  const badge = page.locator(`g.terr[data-key="${key}"] .badge`);
  if (await badge.count()) await badge.click();
  else await page.locator(`g.terr[data-key="${key}"]`).dispatchEvent('click');
}

/**
 * Chooses `key` as the territory to act from. Clicking a chosen territory again un-chooses it,
 * and after a conquest the page already chooses the conquered territory, so click only when it
 * is not chosen yet, then wait for the page to show it chosen.
 */
export async function chooseFrom(page, key) {
  const g = page.locator(`g.terr[data-key="${key}"]`);
  const chosen = async () => /\bsel\b/.test((await g.getAttribute('class')) || '');
  if (!(await chosen())) await clickTerr(page, key);
  await page.waitForFunction((k) => document.querySelector(`g.terr[data-key="${k}"]`).classList.contains('sel'), key, { timeout: 10000 });
}

/** Waits until it is the viewer's turn in one of `phases`, skipping bot turns if asked. */
export async function waitMyPhase(page, phases, { skip = true, timeout = 60000 } = {}) {
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    const my = await attr(page, 'data-my-turn');
    const ph = await attr(page, 'data-phase');
    if (my === '1' && phases.includes(ph)) return ph;
    if (skip) {
      const b = page.locator('#btn-skip');
      if (await b.count() && await b.isEnabled()) await b.click().catch(() => {});
    }
    await page.waitForTimeout(100);
  }
  throw new Error(`timed out waiting for my turn in ${phases}`);
}

/** In the page: true once the service worker has cached every file of the full page (its LATER list). */
export async function fullCachedInPage() {
  const reg = await navigator.serviceWorker.getRegistration();
  if (!reg) return false;
  const text = await (await fetch(new URL('sw.js', reg.scope))).text();
  const later = JSON.parse(text.match(/const LATER = (\[.*\]);/)[1]);
  for (const f of later) if (!(await caches.match(new URL(f, reg.scope).href))) return false;
  return later.length > 0;
}

/**
 * Waits until the service worker has cached the full page's files, which it fetches in the
 * background after the first load. (Polled here: waitForFunction does not await a promise.)
 */
export async function waitFullCached(page, timeout = 60000) {
  const end = Date.now() + timeout;
  while (!(await page.evaluate(fullCachedInPage))) {
    if (Date.now() > end) throw new Error('timed out waiting for the full page to be cached');
    await page.waitForTimeout(250);
  }
}

/** Polls `f` every 100 ms until it returns something truthy; throws after `timeout` ms. */
export async function until(what, f, timeout = 60000) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Opens `url` (a room link) in a new page of `context` and joins the room as `name`. */
export async function openOnline(context, url, name) {
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(url);
  await page.locator('#online-name').fill(name);
  await page.click('#online-join');
  return { page, errors };
}

/** Starts a matchbox_server (`bin`) on a free loopback port and waits until it accepts connections. */
export async function startMatchbox(bin) {
  const { createServer, connect } = await import('node:net');
  const { spawn } = await import('node:child_process');
  const port = await new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); });
  });
  const server = spawn(bin, [`127.0.0.1:${port}`], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise((res) => {
      const c = connect(port, '127.0.0.1', () => { c.end(); res(true); });
      c.on('error', () => res(false));
    });
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { port, server };
}

/** An attribute of the online screen's root (`#online`): its phase, peers, log length… */
export const online = (page, a) => page.locator('#online').getAttribute(a);

/** Turns this page's "let the computer play my seat" to `on` and waits until the page says so
 * (`data-autoplay`), clicking again (and saying so) if a click did not take. A blind toggle
 * went wrong in sessions 14, 16 and 26: the game then went on with the computer on (or off) a
 * seat the test expected the other way. */
export async function setAutoplay(page, on) {
  const want = on ? '1' : '0';
  for (let tries = 0; (await online(page, 'data-autoplay')) !== want; tries += 1) {
    if (tries > 0) console.log(`autoplay: a click did not take (try ${tries + 1})`);
    if (tries >= 5) throw new Error(`the computer button would not turn ${on ? 'on' : 'off'}`);
    await page.click('#autoplay');
    await until(`autoplay ${want}`, async () => (await online(page, 'data-autoplay')) === want, 3000).catch(() => {});
  }
}

/**
 * The set-up the p2p test files share: `env` names the signalling program they need (and
 * `join`, the native player, ORBIS_JOIN, too); hooks run `start(bin, s)` before the file's tests,
 * which starts it and one Chromium and fills `s` (setting `s.stop` first), and stop both after.
 * Returns `s`: `skip` (the tests' option: why they cannot run here, or false), `join` (the native
 * player's path) and what `start` filled in.
 */
function p2pSuite(env, join, start) {
  const bin = process.env[env];
  const joinBin = process.env.ORBIS_JOIN;
  const ready = Boolean(bin && existsSync(bin) && (!join || (joinBin && existsSync(joinBin))));
  const s = { skip: !ready && (join ? `${env} / ORBIS_JOIN not set` : `${env} not set`), join: joinBin };
  before(async () => {
    if (ready) await start(bin, s);
  });
  after(async () => {
    await s.browser?.close();
    s.stop?.();
  });
  return s;
}

/**
 * The set-up of a test file playing over a local matchbox_server (MATCHBOX_SERVER) on a free
 * port (see `p2pSuite`): once started, `signal` (the server's URL) and `browser`.
 */
export function matchboxSuite({ join = false } = {}) {
  return p2pSuite('MATCHBOX_SERVER', join, async (bin, s) => {
    const { port, server } = await startMatchbox(bin);
    s.stop = () => server.kill();
    s.signal = `ws://127.0.0.1:${port}`;
    s.browser = await launch();
  });
}

/**
 * The set-up of a test file meeting through a local Nostr relay (NOSTR_RELAY), as the published
 * page runs (see `launchPublished`, `p2pSuite`): once started, `relayUrl`, `browser` and `base`
 * (the pages' URL under a host name that is not localhost).
 */
export function relaySuite({ join = false } = {}) {
  return p2pSuite('NOSTR_RELAY', join, async (bin, s) => {
    const { url, relay } = await startRelay(bin);
    s.stop = () => relay.kill();
    s.relayUrl = url;
    ({ browser: s.browser, base: s.base } = await launchPublished());
  });
}

/** A free TCP port on 127.0.0.1. */
export async function freePort() {
  const { createServer } = await import('node:net');
  return new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); });
  });
}

/** Waits until something accepts TCP connections on 127.0.0.1:`port`. */
export async function waitPort(port, tries = 300) {
  const { connect } = await import('node:net');
  for (let i = 0; i < tries; i++) {
    const ok = await new Promise((res) => {
      const c = connect(port, '127.0.0.1', () => { c.end(); res(true); });
      c.on('error', () => res(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listens on port ${port}`);
}

/**
 * Starts a Nostr relay (`bin`: the nostr-relay executable, scripts/nostr-relay.sh) on a free
 * loopback port; returns { url, relay } (kill `relay` to stop it).
 */
export async function startRelay(bin) {
  const { spawn } = await import('node:child_process');
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'orbis-relay-'));
  const conf = join(dir, 'relay.yaml');
  writeFileSync(conf, [
    'DEBUG: false', 'relay_name: orbis e2e relay', 'storage:',
    `  sqlalchemy.url: sqlite+aiosqlite:///${join(dir, 'events.sqlite3')}`,
    '  validators:', '    - nostr_relay.validators.is_not_too_large', '    - nostr_relay.validators.is_signed',
    '    - nostr_relay.validators.is_recent', 'gunicorn:', `  bind: 127.0.0.1:${port}`, '  workers: 1',
    '  loglevel: warning', '  reload: false', 'authentication:', '  enabled: false', '',
  ].join('\n'));
  const relay = spawn(bin, ['-c', conf, 'serve'], { stdio: 'ignore' });
  await waitPort(port);
  return { url: `ws://127.0.0.1:${port}`, relay };
}

/**
 * Chromium as the published page meets it: the test server's pages are opened from the host name
 * `orbis.test` (not localhost, so no localhost defaults apply), which is treated as a secure
 * origin as the published https page is. Returns { browser, base } with the page URL to use.
 */
export async function launchPublished(baseUrl = URL_BASE) {
  const u = new URL(baseUrl);
  const origin = `http://orbis.test:${u.port}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run',
      `--host-resolver-rules=MAP orbis.test ${u.hostname}`,
      `--unsafely-treat-insecure-origin-as-secure=${origin}`],
  });
  return { browser, base: `${origin}${u.pathname}` };
}

/**
 * Clicks a province (or a split coast's marker) of the orders map as a player would: on the
 * region map at the province's unit point (`data-at`, in map units), elsewhere at the centre of
 * the element. It clicks only once the element the page finds at that point (the one its click
 * handler reads, `closest('[data-key]')`) is that province, inside the window, so a layout that
 * is still settling fails with what was there rather than as a lost click; and once two looks
 * 40 ms apart find it at the same point (after 50 looks, at the last one's point).
 */
export async function clickKey(page, key) {
  let at;
  let prev;
  for (let i = 0; i < 50; i++) {
    at = await page.evaluate((k) => {
      const svg = document.querySelector('svg.omap');
      const el = svg && svg.querySelector(`[data-key="${k}"]`);
      if (!el) return { hit: 'no such element' };
      let x;
      let y;
      const spot = el.getAttribute('data-at');
      if (!spot) {
        const r = el.getBoundingClientRect();
        [x, y] = [r.x + r.width / 2, r.y + r.height / 2];
      } else {
        const [ax, ay] = spot.split(' ').map(Number);
        const p = svg.createSVGPoint();
        p.x = ax;
        p.y = ay;
        const q = p.matrixTransform(svg.getScreenCTM());
        [x, y] = [q.x, q.y];
      }
      const top = document.elementFromPoint(x, y);
      // A province's key and supply centre are that province for a click (`data-k`).
      const at = top?.closest('[data-key],[data-k]');
      const hit = top ? (at?.getAttribute('data-key') ?? at?.getAttribute('data-k') ?? top.outerHTML.slice(0, 120)) : 'outside the window';
      return { x, y, hit, w: innerWidth, h: innerHeight };
    }, key);
    // Twice the same point: a zoom still arriving (wheel events reach the page after
    // `mouse.wheel` returns) would move the province between the look and the click.
    if (at.hit === key && prev && prev.x === at.x && prev.y === at.y) break;
    prev = at;
    await page.waitForTimeout(at.hit === key ? 40 : 100);
  }
  if (at.hit !== key) throw new Error(`clickKey ${key}: at ${JSON.stringify(at)} the page finds ${at.hit}`);
  await page.mouse.click(at.x, at.y);
}

/**
 * Every control a player can use in `scope` (buttons, fields, selects, summaries, links that are
 * rendered and enabled) is the top element at its centre once scrolled into view, as a player
 * would scroll to it: none is covered by the map, a table or another panel (issue 64 found the
 * economy's standings table over its buttons on a phone). Returns the number checked; throws,
 * naming each covered control and what covers it.
 */
export async function controlsOnTop(page, scope = 'body') {
  const r = await page.evaluate((scope) => {
    const covered = [];
    let checked = 0;
    for (const root of document.querySelectorAll(scope)) {
      for (const e of root.querySelectorAll('button, input, select, textarea, summary, a[href]')) {
        if (e.disabled || e.closest('[hidden]') || e.closest('details:not([open]) > :not(summary)')) continue;
        if (e.matches('.skip-link')) continue; // off screen until it has the keyboard focus
        if (!e.getClientRects().length || getComputedStyle(e).visibility === 'hidden') continue;
        e.scrollIntoView({ block: 'center', inline: 'center' });
        const b = e.getBoundingClientRect();
        if (b.width === 0 || b.height === 0) continue;
        checked += 1;
        const x = b.x + b.width / 2;
        const y = b.y + b.height / 2;
        const t = document.elementFromPoint(x, y);
        const on = !!t && (t === e || e.contains(t) || (e.labels && [...e.labels].some((l) => l.contains(t))));
        if (!on) {
          covered.push(`${e.id ? `#${e.id}` : e.outerHTML.slice(0, 80)} at (${Math.round(x)}, ${Math.round(y)}) under ${t ? `${t.tagName} ${t.outerHTML.slice(0, 100)}` : 'nothing'}`);
        }
      }
    }
    return { covered, checked };
  }, scope);
  assert.deepEqual(r.covered, [], `covered controls in ${scope}`);
  return r.checked;
}

/** axe-core's source (npm devDependency), injected into a page by `axeCheck`. */
let axeSource;

/**
 * Runs axe-core (WCAG rules and best practices) on what `page` shows, prints one line for the
 * screen (`screen`: its name in the note) with the violations counted by impact, and fails on
 * any critical, serious or moderate one, naming each rule, its help and the first elements it
 * found. Minor ones are printed, not failed. Runs on the screen as the test reached it: no new
 * page, no navigation.
 */
export async function axeCheck(page, screen) {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ content: axeSource });
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help, count: v.nodes.length,
      nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ')),
    }));
  });
  const counts = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const v of found) counts[v.impact] = (counts[v.impact] ?? 0) + v.count;
  console.log(`axe: ${screen}: ${Object.entries(counts).map(([k, n]) => `${k} ${n}`).join(', ')}${found.length ? ` (${found.map((v) => `${v.id} ${v.impact} x${v.count}`).join('; ')})` : ''}`);
  const bad = found.filter((v) => v.impact !== 'minor')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.count}: ${v.nodes.join(', ')})`);
  if (process.env.ORBIS_AXE_REPORT_ONLY) { for (const b of bad) console.log(`axe:   ${b}`); return found; }
  assert.deepEqual(bad, [], `axe-core violations on the screen "${screen}"`);
  return found;
}

/** The focused element: its id, data-key, the centre of its box and its data-adj list. */
export async function focusInfo(page) {
  return page.evaluate(() => {
    const a = document.activeElement;
    if (!a || a === document.body) return null;
    const r = a.getBoundingClientRect();
    return { id: a.id, key: a.getAttribute('data-key'), x: r.x + r.width / 2, y: r.y + r.height / 2,
      adj: (a.getAttribute('data-adj') || '').split(' ').filter(Boolean) };
  });
}

/**
 * Focuses the map region `start` (a selector) and presses each of `keys` in turn, as a keyboard
 * player walks the map (issue 60): each arrow moves the focus to another region that lies that
 * way (its box's centre, up to the map's east–west wrap), a neighbour where the page says
 * (data-adj). Returns the walk, "A → B" per key, to print.
 */
export async function arrowWalk(page, start, keys = ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp']) {
  await page.focus(start);
  const walk = [];
  for (const k of keys) {
    const from = await focusInfo(page);
    await page.keyboard.press(k);
    const to = await focusInfo(page);
    const name = (f) => f?.key ?? f?.id;
    assert.ok(to && name(to) !== name(from), `${k} from ${name(from)} moves the focus (now on ${name(to)})`);
    if (from.adj.length) assert.ok(from.adj.includes(to.key), `${k}: ${to.key} is a neighbour of ${from.key}`);
    const [dx, dy] = [to.x - from.x, to.y - from.y];
    const along = { ArrowRight: dx, ArrowLeft: -dx, ArrowDown: dy, ArrowUp: -dy }[k];
    const wraps = Math.abs(dx) > (await page.evaluate(() => innerWidth)) / 2;
    assert.ok(along > 0 || wraps, `${k} from ${name(from)} goes that way, to ${name(to)} (${Math.round(dx)}, ${Math.round(dy)})`);
    walk.push(`${name(from)} → ${name(to)}`);
  }
  console.log(`keyboard walk: ${walk.join(', ')}`);
  return walk;
}

/**
 * The game screen's first tab stop is its skip link, which takes the focus to the controls
 * (`#controls`, or `target`): checked from the top of the page, as a keyboard player arrives.
 */
export async function skipLinkCheck(page, target = 'controls') {
  const first = await page.evaluate(() => [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
    .find((e) => e.tabIndex >= 0 && !e.disabled && e.getClientRects().length)?.id);
  assert.equal(first, 'skip-to-controls', 'the first tab stop is "Skip to the controls"');
  await page.focus('#skip-to-controls');
  assert.equal(await page.locator('#skip-to-controls').textContent(), 'Skip to the controls');
  assert.ok(await page.locator('#skip-to-controls').evaluate((e) => e.getBoundingClientRect().top >= 0), 'shown once focused');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.id), target);
}

/**
 * Issue 62: records every long task of the context's pages (PerformanceObserver 'longtask':
 * main-thread tasks over 50 ms) from their first script on; `longTasks(page)` hands over (and
 * forgets) those seen so far. Figures to print, never to assert: they depend on the machine.
 */
export async function watchLongTasks(context) {
  await context.addInitScript(() => {
    window.__longTasks = [];
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longTasks.push(Math.round(e.duration));
      }).observe({ type: 'longtask', buffered: true });
    } catch (e) { /* no long-task timing in this browser */ }
  });
}

export async function longTasks(page) {
  return page.evaluate(() => { const t = window.__longTasks || []; window.__longTasks = []; return t; });
}

/**
 * The full page's new-game form for an economy game of three computer players (hard, normal,
 * normal), filled and not yet started: the bots test and tools/bot-figures.mjs watch its rounds.
 */
export async function economyOfComputers(page, seed) {
  await page.goto(URL_BASE + `full/?seed=${seed}`);
  await page.click('#new-game');
  await page.click('#ruleset-economy');
  await page.selectOption('#eplayers', '3');
  await page.selectOption('#eseat-0', { label: 'Computer (hard)' });
  await page.selectOption('#eseat-1', { label: 'Computer (normal)' });
  await page.selectOption('#eseat-2', { label: 'Computer (normal)' });
}

/** Prints the long tasks seen during a ruleset's computer turns (a figure for issue 62's note). */
export async function printLongTasks(page, what) {
  const t = await longTasks(page);
  const longest = t.length ? Math.max(...t) : 0;
  console.log(`long tasks during ${what}: ${t.length}, longest ${longest} ms`);
  return longest;
}
