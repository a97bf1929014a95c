// The online page's code comes in two files (web/split-online.sh): the first holds what the page
// runs to show its menu and the online lobby; the rest (the rulesets, the game screens, the deal's
// cryptography...) is fetched once the page is up, in the background. web/split-online.sh puts
// this script at the top of the wasm-bindgen glue and fills in the file name and its hash.
//
// The first file imports one placeholder ("p" namespace) for each table slot of a function that
// lives in the rest. Instantiating the rest writes its functions into those slots, so after that
// nothing goes through a placeholder. A placeholder called before then (a click faster than the
// download) loads the rest on the spot, synchronously, and calls the real function.
const __orbisMore = (() => {
  const url = new URL('__ORBIS_MORE_FILE__', import.meta.url);
  const integrity = '__ORBIS_MORE_SRI__';
  let first = null; // the first file's exports: its memory, table and functions
  let bytes = null;
  let ready = false;
  let how = null; // 'background', or 'request' when a placeholder had to fetch it
  const imports = () => ({ m: first });
  const failed = () => {
    document.body.innerHTML = '<div class="boot" role="alert">Orbis could not download the rest of ' +
      'the game. Check your connection, then reload the page: your game was saved after your last ' +
      'action. <button type="button" id="more-reload" onclick="location.reload()">Reload</button></div>';
    return new Error('orbis: the rest of the page could not be loaded');
  };
  // Right away (a click faster than the download): a synchronous request (the service worker
  // answers it from its cache when the page was opened before) and a synchronous compile.
  const now = () => {
    if (ready) return;
    if (!bytes) {
      const x = new XMLHttpRequest();
      x.open('GET', url, false);
      x.overrideMimeType('text/plain; charset=x-user-defined');
      try { x.send(); } catch (e) { throw failed(); }
      if (x.status !== 200) throw failed();
      const s = x.responseText;
      bytes = new Uint8Array(s.length);
      for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i) & 255;
      how = 'request';
    }
    new WebAssembly.Instance(new WebAssembly.Module(bytes), imports());
    ready = true;
    how = how || 'compiled on call';
  };
  // In the background, once the page has started: fetched (checked against its hash), compiled
  // and instantiated off the critical path. If this fails, the synchronous path tries again when
  // a placeholder is called.
  const later = () => {
    fetch(url, { integrity })
      .then((r) => { if (!r.ok) throw new Error(r.statusText); return r.arrayBuffer(); })
      .then((b) => { if (!ready) { bytes = b; return WebAssembly.instantiate(b, imports()); } })
      .then(() => { if (!ready) { ready = true; how = 'background'; } })
      .catch(() => {});
  };
  return {
    /** Called by the glue with the first file's exports, before its start function runs. */
    started(exports) {
      first = exports;
      setTimeout(later, 0);
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
    /** For the tests: whether the rest is in, and how it came ('background', 'request', or
     *  'compiled on call' when it was downloaded but not yet compiled). */
    state: () => ({ ready, how }),
  };
})();
globalThis.__orbisMore = __orbisMore;
