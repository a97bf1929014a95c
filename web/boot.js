// What every page (index.html, full.html, online.html) runs before its wasm, inlined into each by
// Trunk (rel="inline"), so it costs no request of its own. Each page then calls
// orbisBoot(<its service worker's URL>, <scope>).

// Never a blank page: if the game cannot start, say so. If it stops on an internal error once
// started (a panic traps in the wasm, without a message: scripts/web-toolchain.sh), say that the
// game is saved and a reload resumes it, rather than leave a page that ignores clicks.
function orbisFailed(e) {
  var b = document.getElementById("boot");
  var err = e && (e.error || e.reason);
  if (!document.getElementById("root")) {
    if (b) b.textContent = "Orbis could not start. It needs a current browser with WebAssembly; try reloading the page.";
  } else if (typeof WebAssembly != "undefined" && err instanceof WebAssembly.RuntimeError) {
    document.body.innerHTML = '<div class="boot" role="alert">Something went wrong in Orbis. ' +
      "Your game was saved after your last action: reload the page to continue. " +
      '<button type="button" id="crash-reload" onclick="location.reload()">Reload</button></div>';
  }
}
addEventListener("error", orbisFailed);
addEventListener("unhandledrejection", orbisFailed);

// Offline: the service worker (web/sw.js, whose scope is the lite page's directory) precaches the
// lite page's files when it installs, and the full page's once asked ("cache-full"). It is
// registered only once the game runs and the browser is idle, and asked for the full page 2 s
// after that: neither its script nor its downloads compete with the first load (registered at
// "load", which comes before the wasm has arrived, its precache could fetch the wasm a second
// time). The full and online pages register the same worker: that covers a first visit that
// starts on one of them.
function orbisBoot(sw, scope) {
  if (!("serviceWorker" in navigator)) return;
  var idle = function (f) {
    (window.requestIdleCallback || setTimeout)(f, { timeout: 10000 });
  };
  addEventListener("TrunkApplicationStarted", function () {
    idle(function () {
      navigator.serviceWorker.register(sw, scope ? { scope: scope } : undefined).catch(function () {});
      navigator.serviceWorker.ready.then(function (reg) {
        setTimeout(function () {
          idle(function () {
            if (reg.active) reg.active.postMessage("cache-full");
          });
        }, 2000);
      });
    });
  });
}

// The keyboard focus survives a redraw (issue 60): when the focused element leaves the page
// (a panel drawn again after the computer players' turns, the orders map redrawn as markup),
// the focus goes to the element drawn in its place (the same id, or the same map region's
// data-key) as soon as it is back, unless the player has focused something else meanwhile.
(function () {
  var last = null;
  var seek = null;
  addEventListener("focusin", function (e) {
    var el = e.target;
    last = el;
    seek = el.id ? "#" + CSS.escape(el.id)
      : el.getAttribute && el.getAttribute("data-key") ? '[data-key="' + CSS.escape(el.getAttribute("data-key")) + '"]'
      : null;
  }, true);
  new MutationObserver(function () {
    var a = document.activeElement;
    if (!seek || !last || last.isConnected || (a && a !== document.body)) return;
    var el = document.querySelector(seek);
    if (el && el.getClientRects().length) el.focus({ preventScroll: true });
  }).observe(document.documentElement, { childList: true, subtree: true });
})();
