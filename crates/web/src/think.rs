//! The computer players think in a Web Worker (issue 62, "never freeze the page"): the engine's
//! bots in their own small wasm (crates/worker, no Yew), started the first time a page asks a
//! computer to move and kept for the rest of the visit. The page sends the state and gets the
//! bot's choice back as a message; meanwhile the map pans and buttons answer.
//!
//! The worker runs the very engine functions this page would run, on the same state, so its
//! choice is the one the page would have made. Where no worker can run (a browser without
//! workers, its files not yet cached on a device that went offline, a worker that failed),
//! the page thinks itself, as before: the caller's fallback runs on this thread, a moment later.
//! So it does with a worker of another build (a worker file cached from another version of
//! Orbis, a deploy half done): the worker says its build id when ready (`orbis_worker::ready`),
//! and one that is not this page's own is never asked; the page says so ([`stale`]), since a
//! reload fixes it.
//!
//! One layer with `store`: it imports nothing of this crate.

use orbis_engine::codec;
#[cfg(feature = "full")]
use orbis_engine::rules::classic::PlayerId;
use orbis_engine::rules::classic::{Action, BotLevel, ClassicState};
#[cfg(feature = "full")]
use orbis_engine::rules::economy::{action::EconomyAction, state::EconomyState};
#[cfg(feature = "full")]
use orbis_engine::rules::orders::{map::PowerId, notation::Written, OrdersAction, OrdersState};
use std::cell::RefCell;
use std::collections::BTreeMap;

#[cfg(feature = "online")]
pub mod online;

/// What a job's caller is given: the worker's answer (its bytes), or `None` when the page must
/// think itself; and how long the answer took, in ms (a figure for the e2e harness).
type Done = Box<dyn FnOnce(Option<Vec<u8>>, f64)>;

#[derive(Default, PartialEq)]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
enum Stage {
    #[default]
    Unstarted,
    Starting,
    Ready,
    Failed,
}

#[derive(Default)]
struct Link {
    stage: Stage,
    #[cfg(target_arch = "wasm32")]
    worker: Option<web_sys::Worker>,
    /// Messages written before the worker said it was ready.
    queue: Vec<Vec<u8>>,
    /// Each job's caller and when it was sent, by id.
    waiting: BTreeMap<u32, (Done, f64)>,
    next: u32,
}

thread_local! {
    static LINK: RefCell<Link> = RefCell::default();
    static STALE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// What a text message of the worker means.
#[derive(Debug, PartialEq)]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
enum Said {
    /// Ready, and of this page's build.
    Ready,
    /// Ready, but of another build: its answers could differ from this page's engine.
    Stale,
    /// It could not start (its wasm could not be fetched).
    Failed,
}

#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn said(text: &str) -> Said {
    if text == orbis_worker::ready() {
        Said::Ready
    } else if text.starts_with("ready") {
        Said::Stale
    } else {
        Said::Failed
    }
}

/// The worker turned out to be of another build than this page (a stale file): the computer
/// players think on this page until it is reloaded, which the page should say.
pub fn stale() -> bool {
    STALE.with(|s| s.get())
}

/// The worker's start-up script (web/bot-worker.js): the lite page's beside it (classic bots
/// only), the full page's (every ruleset) beside the full page, which the online page, in a
/// directory beside full/, starts too.
#[cfg(target_arch = "wasm32")]
const WORKER_URL: &str = if cfg!(feature = "online") {
    "../full/bot-worker.js"
} else {
    "./bot-worker.js"
};

/// Sends a job (`orbis_worker::job`) to the worker; `done` is called with its answer later,
/// never before this returns.
pub fn post(job: Vec<u8>, done: impl FnOnce(Option<Vec<u8>>, f64) + 'static) {
    let t0 = now();
    let id = LINK.with(|l| {
        let mut l = l.borrow_mut();
        l.next = l.next.wrapping_add(1);
        let id = l.next;
        l.waiting.insert(id, (Box::new(done), t0));
        id
    });
    let mut msg = id.to_le_bytes().to_vec();
    msg.extend(job);
    if !start() {
        later(move || fail_one(id));
        return;
    }
    LINK.with(|l| {
        let mut l = l.borrow_mut();
        if l.stage == Stage::Ready {
            send(&l, &msg);
        } else {
            l.queue.push(msg);
        }
    });
}

/// Starts the worker if it is not running yet; false if there is none to run.
fn start() -> bool {
    let stage = LINK.with(|l| {
        let l = l.borrow();
        match l.stage {
            Stage::Unstarted => None,
            Stage::Failed => Some(false),
            _ => Some(true),
        }
    });
    if let Some(ok) = stage {
        return ok;
    }
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::closure::Closure;
        use wasm_bindgen::JsCast;
        let Ok(w) = web_sys::Worker::new(WORKER_URL) else {
            LINK.with(|l| l.borrow_mut().stage = Stage::Failed);
            return false;
        };
        let on_message =
            Closure::<dyn Fn(web_sys::MessageEvent)>::new(|e: web_sys::MessageEvent| {
                let data = e.data();
                match data.as_string().as_deref().map(said) {
                    Some(Said::Ready) => ready(),
                    Some(Said::Stale) => {
                        STALE.with(|s| s.set(true));
                        fail_all();
                    }
                    Some(Said::Failed) => fail_all(),
                    None => answered(js_sys::Uint8Array::new(&data).to_vec()),
                }
            });
        let on_error = Closure::<dyn Fn(web_sys::Event)>::new(|e: web_sys::Event| {
            e.prevent_default();
            fail_all();
        });
        w.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        w.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        on_message.forget();
        on_error.forget();
        LINK.with(|l| {
            let mut l = l.borrow_mut();
            l.worker = Some(w);
            l.stage = Stage::Starting;
        });
        true
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        LINK.with(|l| l.borrow_mut().stage = Stage::Failed);
        false
    }
}

#[cfg(target_arch = "wasm32")]
fn send(l: &Link, msg: &[u8]) {
    if let Some(w) = &l.worker {
        let bytes = js_sys::Uint8Array::from(msg);
        let _ = w.post_message_with_transfer(&bytes, &js_sys::Array::of1(&bytes.buffer()));
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn send(_: &Link, _: &[u8]) {}

#[cfg(target_arch = "wasm32")]
fn ready() {
    LINK.with(|l| {
        let mut l = l.borrow_mut();
        l.stage = Stage::Ready;
        for m in std::mem::take(&mut l.queue) {
            send(&l, &m);
        }
    });
}

/// An answer: the job's id, 1 and the answer (0: the worker could not read the job).
#[cfg(target_arch = "wasm32")]
fn answered(data: Vec<u8>) {
    let Some((id, rest)) = data.split_at_checked(4) else {
        return;
    };
    let id = u32::from_le_bytes([id[0], id[1], id[2], id[3]]);
    let Some((done, t0)) = LINK.with(|l| l.borrow_mut().waiting.remove(&id)) else {
        return;
    };
    let answer = match rest.split_first() {
        Some((1, a)) => Some(a.to_vec()),
        _ => None,
    };
    done(answer, now() - t0);
}

/// The worker cannot run (or stopped): every job waiting for it is thought on this thread, and
/// so is every later one.
#[cfg(target_arch = "wasm32")]
fn fail_all() {
    let ids: Vec<u32> = LINK.with(|l| {
        let mut l = l.borrow_mut();
        l.stage = Stage::Failed;
        l.queue.clear();
        if let Some(w) = l.worker.take() {
            w.terminate();
        }
        l.waiting.keys().copied().collect()
    });
    for id in ids {
        later(move || fail_one(id));
    }
}

fn fail_one(id: u32) {
    if let Some((done, t0)) = LINK.with(|l| l.borrow_mut().waiting.remove(&id)) {
        done(None, now() - t0);
    }
}

fn later(f: impl FnOnce() + 'static) {
    gloo::timers::callback::Timeout::new(0, f).forget();
}

fn now() -> f64 {
    #[cfg(target_arch = "wasm32")]
    return js_sys::Date::now();
    #[cfg(not(target_arch = "wasm32"))]
    0.0
}

/// A classic computer player's next action, from the worker (or this thread).
pub fn classic(
    s: &ClassicState,
    level: BotLevel,
    done: impl FnOnce(Option<Action>, f64) + 'static,
) {
    let job = orbis_worker::job(orbis_worker::CLASSIC, &(s, level));
    let s = s.clone();
    post(job, move |a, ms| {
        match a.and_then(|b| codec::decode_lean::<Option<Action>>(&b).ok()) {
            Some(a) => done(a, ms),
            None => done(orbis_worker::classic(&s, level), ms),
        }
    });
}

/// The orders ruleset's computer powers' actions for the phase, from the worker (or this
/// thread).
#[cfg(feature = "full")]
pub fn orders(
    s: &OrdersState,
    bots: Vec<(PowerId, BotLevel)>,
    salt: Vec<u8>,
    effort: u32,
    done: impl FnOnce(Vec<OrdersAction>, f64) + 'static,
) {
    let job = orbis_worker::job(orbis_worker::ORDERS, &(s, &bots, &salt, effort));
    let s = s.clone();
    post(job, move |a, ms| {
        match a.and_then(|b| codec::decode::<Vec<OrdersAction>>(&b).ok()) {
            Some(a) => done(a, ms),
            None => done(orbis_worker::orders(&s, &bots, &salt, effort), ms),
        }
    });
}

/// One power's orders as a computer would write them, from the worker (or this thread).
#[cfg(feature = "full")]
pub fn suggest(
    s: &OrdersState,
    power: PowerId,
    level: BotLevel,
    salt: Vec<u8>,
    done: impl FnOnce(Vec<Written>, f64) + 'static,
) {
    let job = orbis_worker::job(orbis_worker::SUGGEST, &(s, power, level, &salt));
    let s = s.clone();
    post(job, move |a, ms| {
        match a.and_then(|b| codec::decode::<Vec<Written>>(&b).ok()) {
            Some(a) => done(a, ms),
            None => done(
                orbis_engine::bot::orders::orders_for(&s, power, level, &salt),
                ms,
            ),
        }
    });
}

/// An economy computer player's next action, from the worker (or this thread).
#[cfg(feature = "full")]
pub fn economy(
    s: &EconomyState,
    p: PlayerId,
    level: BotLevel,
    done: impl FnOnce(Option<EconomyAction>, f64) + 'static,
) {
    let job = orbis_worker::job(orbis_worker::ECONOMY, &(s, p, level));
    let s = s.clone();
    post(job, move |a, ms| {
        match a.and_then(|b| codec::decode::<Option<EconomyAction>>(&b).ok()) {
            Some(a) => done(a, ms),
            None => done(orbis_engine::bot::economy::choose(&s, p, level), ms),
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only a worker of this very build is asked: one that says another id, or none (a worker
    /// from before build ids), is stale, and its answers are never used.
    #[test]
    fn a_worker_of_another_build_is_not_asked() {
        assert_eq!(said(&orbis_worker::ready()), Said::Ready);
        assert_eq!(said("ready"), Said::Stale);
        assert_eq!(said("ready 0000000000000000"), Said::Stale);
        assert_eq!(said("failed"), Said::Failed);
        assert_eq!(orbis_worker::BUILD.len(), 16);
    }
}
