// Orbis service worker: serves the game's files cache-first, so it works offline. The pages'
// file lists and a content version are written by web/precache.sh after the build:
// - ASSETS, the lite page (the first load: classic game), are cached when the worker installs;
// - LATER, the app icons (for a home screen) and the full page in full/ (orders ruleset), are
//   cached when a page asks ("cache-full" message, sent once the game runs and the browser is
//   idle), so they never slow down the first load;
// - the online page (online/) is cached as it is fetched, when a player first goes online.
const VERSION = "__VERSION__";
const ASSETS = __ASSETS__;
const LATER = __LATER__;
const CACHE = "orbis-" + VERSION;

self.addEventListener("install", (e) => {
  e.waitUntil(
    caches.open(CACHE).then((c) => c.addAll(ASSETS)).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (e) => {
  e.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("orbis-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

// Fetches the full page's files that are not cached yet, one at a time (a background task).
async function cacheLater() {
  const c = await caches.open(CACHE);
  for (const f of LATER) {
    if (await c.match(f)) continue;
    try {
      const res = await fetch(f);
      if (res.ok) await c.put(f, res);
    } catch (err) {
      return; // offline: try again on the next visit
    }
  }
}

self.addEventListener("message", (e) => {
  if (e.data === "cache-full") e.waitUntil(cacheLater());
});

self.addEventListener("fetch", (e) => {
  const req = e.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  e.respondWith(
    caches.open(CACHE).then(async (c) => {
      const nav = req.mode === "navigate";
      const hit = await c.match(req, { ignoreSearch: nav });
      if (hit) return hit;
      try {
        const res = await fetch(req);
        if (res.ok) c.put(req, res.clone());
        return res;
      } catch (err) {
        if (nav) {
          // The lite page stands in for its own address; the full and online pages have none.
          const path = new URL(req.url).pathname;
          const under = (dir) => path.startsWith(new URL(dir, self.registration.scope).pathname);
          const say = (text) => new Response(
            '<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width">' +
            '<title>Orbis</title><p id="offline-note" style="font:1.1rem system-ui;margin:2rem">' + text +
            ' <a href="../">Back to the classic game</a></p>',
            { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } }
          );
          if (under("online/")) {
            return say("Online play needs a network connection, and this device is offline: connect, " +
              "then reload this page. The classic and orders games work offline.");
          }
          if (under("full/")) {
            return say("This part of Orbis (the orders ruleset) is not saved on this device yet: open " +
              "Orbis once while online, then it works offline.");
          }
          const idx = (await c.match("./")) || (await c.match("index.html"));
          if (idx) return idx;
        }
        throw err;
      }
    })
  );
});
