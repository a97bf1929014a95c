// Starts the computer players' Web Worker (crates/worker, built by Trunk as index.html's worker
// asset): the wasm-bindgen glue, then the wasm. A wasm that cannot be fetched (offline, before the
// service worker cached it) is reported, and the page then thinks for the computers itself
// (crates/web/src/think.rs).
importScripts("./orbis-worker.js");
wasm_bindgen("./orbis-worker_bg.wasm").catch(function () { postMessage("failed"); });
