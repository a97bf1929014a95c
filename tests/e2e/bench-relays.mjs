// Online play's rendezvous through a Nostr relay, measured (scripts/bench-web.sh runs it): ten
// times, page A creates a room and page B opens its link; prints the median and p95 time from B
// opening the link to both pages connected to each other, and the relay events each page sent per
// minute while the lobby idles and while the game runs. Pages come from the host name orbis.test
// under a sub-path (ORBIS_URL), peers meet through a local relay (NOSTR_RELAY), no signalling server.
import { startRelay, launchPublished } from './helpers.mjs';

const RUNS = Number(process.env.RUNS || 10);
const { url: relayUrl, relay } = await startRelay(process.env.NOSTR_RELAY);
const { browser, base } = await launchPublished();
const online = (p, a) => p.locator('#online').getAttribute(a);
const until = async (f, ms = 60000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) { if (await f()) return; await new Promise((r) => setTimeout(r, 20)); }
  throw new Error('timed out');
};
const times = [];
let lobby = null;
let game = null;
try {
  for (let i = 0; i < RUNS; i++) {
    const ca = await browser.newContext();
    const cb = await browser.newContext();
    const A = await ca.newPage();
    const B = await cb.newPage();
    await A.goto(`${base}online/?open=online&relays=${encodeURIComponent(relayUrl)}`);
    await A.click('#online-create');
    await A.locator('#online-status').waitFor();
    const t0 = Date.now();
    await B.goto(A.url());
    await B.click('#online-join');
    await until(async () => (await online(A, 'data-peers')) === '2' && (await online(B, 'data-peers')) === '2');
    times.push(Date.now() - t0);
    if (i === 0) {
      // Idle lobby for a minute (after the first quick hellos), then a running game for a minute.
      await A.waitForTimeout(60000);
      const h0 = Number(await online(A, 'data-hellos'));
      await A.waitForTimeout(60000);
      lobby = Number(await online(A, 'data-hellos')) - h0;
      await A.click('#online-propose');
      await A.locator('.accept').click();
      await B.locator('.accept').click();
      await A.locator('#map').waitFor();
      const g0 = Number(await online(A, 'data-hellos'));
      await A.waitForTimeout(60000);
      game = Number(await online(A, 'data-hellos')) - g0;
    }
    await ca.close();
    await cb.close();
  }
} finally {
  await browser.close();
  relay.kill();
}
times.sort((a, b) => a - b);
const q = (p) => times[Math.min(times.length - 1, Math.round((times.length - 1) * p))];
console.log(JSON.stringify({
  relay_rendezvous_runs: times.length, link_to_connected_ms_median: q(0.5), link_to_connected_ms_p95: q(0.95),
  all_ms: times, relay_events_per_minute_idle_lobby: lobby, relay_events_per_minute_running_game: game,
}));
