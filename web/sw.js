// Orbis service worker: precaches every file of the build (list and version written by
// web/precache.sh at build time) and serves them cache-first, so the game works offline.
const VERSION = "__VERSION__";
const ASSETS = __ASSETS__;
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
          const idx = (await c.match("./")) || (await c.match("index.html"));
          if (idx) return idx;
        }
        throw err;
      }
    })
  );
});
