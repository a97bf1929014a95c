// Each page's code comes in two files (tools/split-page.py): the first holds what the page runs
// to show its first screens (the online page: its menu and lobby; the full page: its menu, the
// new-game forms and How to play; the lite page: its menu and the classic new-game form); the
// rest (the rulesets' games, the game screens, the deal's cryptography...) is fetched in the
// background once the page has started, while the player reads the menu or fills in the form. tools/split-page.py puts this script at the top of the
// wasm-bindgen glue, hooks it into the glue's imports, its start and its finalize step, and fills
// in the page's name and the rest's file name and hash.
//
// The first file imports one placeholder ("p" namespace) for each table slot of a function that
// lives in the rest. Instantiating the rest writes its functions into those slots, so after that
// nothing goes through a placeholder. A placeholder called before then (a click faster than the
// download) loads the rest on the spot: a synchronous request and compile, which block the page
// meanwhile and, in Chromium, bypass the service worker. So a page that will need the rest as it
// starts (a saved game to resume, a room it rejoins) waits for it before starting instead,
// fetched the normal way (checked against its hash, through the service worker).
const __orbisMore = (() => {
  const url = new URL('__ORBIS_MORE_FILE__', import.meta.url);
  const integrity = '__ORBIS_MORE_SRI__';
  const page = '__ORBIS_PAGE__'; // 'online', 'full' or 'lite'
  let first = null; // the first file's exports: its memory, table and functions
  let ready = false;
  let how = null; // 'before start', 'background', 'before click' (a click that starts a game
  // waited for it), 'request' (a placeholder fetched it), or 'compiled on call' (a placeholder
  // compiled what the background had fetched)
  let dead = null; // the error once the rest could not be loaded: every later call fails at once
  let download = null; // the rest's bytes, being fetched (a promise)
  let bytes = null; // the rest's bytes, once fetched
  const imports = () => ({ m: first });
  const failed = (why) => {
    if (!dead) {
      dead = new Error(`orbis: the rest of the page could not be loaded (${why})`);
      document.body.innerHTML = '<div class="boot" role="alert">Orbis could not download the ' +
        'rest of the game. Check your connection, then reload the page to go on where you ' +
        'were. <button type="button" id="more-reload" onclick="location.reload()">Reload' +
        '</button></div>';
    }
    return dead;
  };
  const fetchRest = () => {
    download = download || fetch(url, { integrity }).then((r) => {
      if (!r.ok) throw new Error(`${r.status} ${r.statusText}`);
      return r.arrayBuffer();
    }).then((b) => { bytes = new Uint8Array(b); return bytes; });
    return download;
  };
  const instantiate = (b, way) => (ready || dead ? Promise.resolve() :
    WebAssembly.instantiate(b, imports()).then(() => {
      if (!ready && !dead) { ready = true; how = way; forget(); }
    }));
  // Once the rest is in, its bytes are not needed any more (2 MB).
  const forget = () => { bytes = null; download = null; };
  // Whether this start needs the rest, read as the page's start does (crates/web/src/app/mod.rs,
  // AppState::load_state; online/mod.rs, the rejoin). The online page: a saved game, unless the
  // page opens for its lobby (a room or invite link, or "Play online…": `open=online`); a room
  // this browser has joined before (its peer id is kept), which the page rejoins at once. The
  // full page: a saved game, unless the page opens for a new-game form (`open=orders`,
  // `open=economy`), which reads no save, or sends the player on to the online page; a quick
  // game, a lesson or a replay (`open=quick-orders`, `learn`, `replay`...). The lite page: a
  // saved game (a classic game resumes there; another ruleset's is read to be sent on).
  const param = (name) => {
    for (const part of [location.hash, location.search]) {
      const v = new URLSearchParams(part.replace(/^[#?]/, '')).get(name);
      if (v) return v;
    }
    return null;
  };
  const needsRestAtStart = () => {
    try {
      if (page === 'full') {
        const open = param('open');
        if (param('room') || param('offer') || open === 'online') return false; // on to online/
        if (open === 'orders' || open === 'economy') return false;
        if (open && open !== 'rules') return true;
        return localStorage.getItem('orbis.save') !== null;
      }
      if (page === 'lite') return localStorage.getItem('orbis.save') !== null;
      const room = param('room');
      if (room && localStorage.getItem(`orbis.p2p.id.${room}`) !== null) return true;
      const lobby = room || param('offer') || param('open') === 'online';
      return !lobby && localStorage.getItem('orbis.save') !== null;
    } catch (e) {
      return false; // storage unreadable: the page's start reads nothing either
    }
  };
  // Browsers that refuse to compile more than 4 KB synchronously on the page's thread (Chromium
  // before 114): there the synchronous path cannot work, so every start waits for the rest.
  const syncCompiles = (() => {
    try {
      const pad = 5000; // a module with one custom section, 5 KB in all
      const m = new Uint8Array(8 + 1 + 2 + 2 + pad);
      m.set([0, 97, 115, 109, 1, 0, 0, 0, 0, (pad + 2) & 127 | 128, (pad + 2) >> 7, 1, 120]);
      new WebAssembly.Module(m);
      return true;
    } catch (e) {
      return false;
    }
  })();
  const early = !syncCompiles || needsRestAtStart();
  if (early) fetchRest(); // beside the first file's own download
  // The full and lite pages work offline, where the synchronous request of a placeholder (which
  // bypasses the service worker) fails: a click on a button that starts a game (which runs the rest)
  // before the rest is in waits for it instead, the button marked busy, then goes through.
  // (The lite page's other buttons of the kind only send the player on to the full page.)
  const STARTS = page === 'lite' ? '#start-game, #continue, #quick-start' :
    '#start-game, #continue, #quick-start, #quick-orders, #quick-economy, ' +
    '#learn-to-play, #learn-orders, #learn-economy, #menu-replay';
  let passing = false; // the waiting click, let through once the rest is in (or could not come)
  if (page !== 'online') {
    document.addEventListener('click', (e) => {
      const button = e.target instanceof Element && e.target.closest(STARTS);
      if (!button || ready || dead || !first || passing) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      if (button.getAttribute('aria-busy') === 'true') return;
      button.setAttribute('aria-busy', 'true');
      const go = () => {
        button.removeAttribute('aria-busy');
        passing = true;
        try { button.click(); } finally { passing = false; }
      };
      // Failed: the click goes through anyway, and a placeholder tries once more or says what to do.
      fetchRest().then((b) => instantiate(b, 'before click'))
        .then(go, () => { download = null; go(); });
    }, true);
  }
  // A placeholder called before the rest is in: load it now, synchronously.
  const now = () => {
    if (ready) return;
    if (dead) throw dead;
    let way = 'compiled on call'; // downloaded already, not yet instantiated
    try {
      if (!bytes) {
        const x = new XMLHttpRequest();
        x.open('GET', url, false);
        x.overrideMimeType('text/plain; charset=x-user-defined');
        x.send();
        if (x.status !== 200) throw new Error(`${x.status} ${x.statusText}`);
        const s = x.responseText;
        bytes = new Uint8Array(s.length);
        for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i) & 255;
        way = 'request';
      }
      new WebAssembly.Instance(new WebAssembly.Module(bytes), imports());
    } catch (e) {
      throw failed(e);
    }
    ready = true;
    how = way;
    forget();
  };
  return {
    /** Awaited by the glue between instantiating the first file and starting it. */
    beforeStart(exports) {
      first = exports;
      if (!early) return Promise.resolve();
      return fetchRest().then((b) => instantiate(b, 'before start')).catch(() => {
        // The page starts anyway: the background download tries again, and a placeholder
        // called first loads the rest itself or says what to do.
        download = null;
      });
    },
    /** Called by the glue with the first file's exports, before its start function runs. */
    started(exports) {
      first = exports;
      if (ready) return;
      setTimeout(() => {
        if (ready || dead) return;
        fetchRest().then((b) => instantiate(b, 'background')).catch(() => {
          download = null; // a placeholder called later tries again
        });
      }, 0);
    },
    /** The first file's "p" imports: placeholder `i` calls table slot `i` once the rest is in. */
    placeholders: new Proxy({}, {
      get: (_, name) => {
        const slot = Number(name);
        return (...args) => { now(); return first['%table'].get(slot)(...args); };
      },
    }),
    /** The first file's exports (tools/split-profile.mjs writes the profile through them). */
    exports: () => first,
    /** For the tests: whether the rest is in, and how it came. */
    state: () => ({ ready, how }),
  };
})();
globalThis.__orbisMore = __orbisMore;
