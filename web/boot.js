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
// lite page's files when it installs, and the full page's only once a game has started and the
// browser is idle, so they never compete with the first load. The full and online pages register
// the same worker: that covers a first visit that starts on one of them.
function orbisBoot(sw, scope) {
  if (!("serviceWorker" in navigator)) return;
  addEventListener("load", function () {
    navigator.serviceWorker.register(sw, scope ? { scope: scope } : undefined).catch(function () {});
  });
  addEventListener("TrunkApplicationStarted", function () {
    navigator.serviceWorker.ready.then(function (reg) {
      setTimeout(function () {
        (window.requestIdleCallback || setTimeout)(function () {
          if (reg.active) reg.active.postMessage("cache-full");
        }, { timeout: 10000 });
      }, 2000);
    });
  });
}
