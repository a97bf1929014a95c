//! The computer players' Web Worker (issue 62): the engine and its bots, no Yew. Built by Trunk
//! as index.html's `data-type="worker"` asset and started by web/bot-worker.js, the first time a
//! page asks a computer to move (crates/web/src/think.rs).
//!
//! A message is a job's id (4 bytes) and the job (`orbis_worker::job`); the answer is the id,
//! a byte (1: answered, 0: no job of this build) and the answer. Once its handler is set, the
//! worker says "ready" and its build id (`orbis_worker::ready`), so the page sends nothing that
//! could arrive before it listens, and nothing to a worker of another build.

#[cfg(target_arch = "wasm32")]
fn main() {
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let me = scope.clone();
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| {
        let data = js_sys::Uint8Array::new(&e.data()).to_vec();
        let Some((id, job)) = data.split_at_checked(4) else {
            return;
        };
        let mut out = id.to_vec();
        match orbis_worker::answer(job) {
            Some(a) => {
                out.push(1);
                out.extend(a);
            }
            None => out.push(0),
        }
        let bytes = js_sys::Uint8Array::from(&out[..]);
        let _ = me.post_message_with_transfer(&bytes, &js_sys::Array::of1(&bytes.buffer()));
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let _ = scope.post_message(&JsValue::from_str(&orbis_worker::ready()));
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "orbis-worker is the browser's Web Worker: build it for wasm32 (scripts/build-web.sh)."
    );
}
