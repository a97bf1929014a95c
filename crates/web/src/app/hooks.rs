//! The root component's hooks (the economy's timers, the replay's keys), the page address and the
//! autosave's history.

use crate::app::AppState;
#[cfg(feature = "full")]
use crate::app::{Msg, Screen};
use yew::prelude::*;

/// The economy's computer players (one action at a time, at the chosen pace) and the planning
/// minute's countdown (a tick a second while it runs).
/// The lite bundle has no economy.
#[cfg(not(feature = "full"))]
#[hook]
pub fn use_economy_timers(_app: &UseReducerHandle<AppState>) {}

#[cfg(feature = "full")]
#[hook]
pub fn use_economy_timers(app: &UseReducerHandle<AppState>) {
    // Online, the economy is drawn on the online screen; only its clock ticks here (its
    // computer seats are the protocol's).
    let e = app.economy.as_ref().filter(|e| {
        // Hot-seat play waits while How to play is open; an online game's clock does not.
        (app.screen == Screen::EconomyPlay && app.help.is_none())
            || (app.screen == Screen::Online && e.online.is_some())
    });
    let steps = e.map(|e| e.game.steps);
    let machine = e.is_some_and(|e| e.computer_to_act().is_some());
    // "Skip to my turn" and rolling an attack on play without the pace.
    let fast = e.is_some_and(|e| e.ui.skipping || e.ui.rolling.is_some());
    let delay = if fast {
        0
    } else {
        app.classic.speed.delay_ms()
    };
    let d = app.dispatcher();
    let h = app.clone();
    use_effect_with((steps, machine, delay), move |&(_, machine, delay)| {
        // The computer thinks in the worker (crate::think); its choice is played if the game
        // is still at this step when it comes.
        let job = h
            .economy
            .as_ref()
            .filter(|_| machine)
            .and_then(|e| Some((e.game.clone(), e.computer_to_act()?)));
        let timer = job.map(|(s, (p, level))| {
            gloo::timers::callback::Timeout::new(delay, move || {
                let steps = s.steps;
                crate::think::economy(&s, p, level, move |a, ms| {
                    d.dispatch(Msg::Economy(crate::economy::EMsg::BotAct(
                        steps, p, level, a, ms,
                    )))
                })
            })
        });
        move || drop(timer)
    });
    // "Suggest a placement": the normal computer's placement, thought in the worker.
    let suggest = e.and_then(|e| Some((e.game.steps, e.ui.suggesting?)));
    let (d, h) = (app.dispatcher(), app.clone());
    use_effect_with(suggest, move |&suggest| {
        if let (Some((steps, p)), Some(e)) = (suggest, h.economy.as_ref()) {
            use orbis_engine::rules::classic::BotLevel;
            crate::think::economy(&e.game, p, BotLevel::Normal, move |a, _| {
                d.dispatch(Msg::Economy(crate::economy::EMsg::Suggested(steps, p, a)))
            });
        }
    });
    let clock = e.is_some_and(|e| e.ui.deadline.is_some());
    let d = app.dispatcher();
    use_effect_with(clock, move |&clock| {
        let tick = clock.then(|| {
            gloo::timers::callback::Interval::new(1000, move || {
                d.dispatch(Msg::Economy(crate::economy::EMsg::Tick))
            })
        });
        move || drop(tick)
    });
}

/// The orders ruleset's computer powers (once every human has ordered) and "What would the
/// computer do?", thought in the worker (crate::think): the answer is kept only if the game is
/// still at the state it was asked for.
#[cfg(not(feature = "full"))]
#[hook]
pub fn use_orders_computers(_app: &UseReducerHandle<AppState>) {}

#[cfg(feature = "full")]
#[hook]
pub fn use_orders_computers(app: &UseReducerHandle<AppState>) {
    use crate::orders::OMsg;
    let o = app
        .orders
        .as_ref()
        .filter(|o| app.screen == Screen::OrdersPlay && o.online.is_none());
    let job = o.and_then(|o| o.computers_job());
    let d = app.dispatcher();
    use_effect_with(job.as_ref().map(|j| j.0), move |_| {
        if let Some((key, (s, bots, salt, effort))) = job {
            crate::think::orders(&s, bots, salt, effort, move |a, ms| {
                d.dispatch(Msg::Orders(OMsg::ComputersOrdered(key, a, ms)))
            });
        }
    });
    let job = o.and_then(|o| o.suggest_job());
    let d = app.dispatcher();
    use_effect_with(job.as_ref().map(|j| (j.0, j.1)), move |_| {
        if let Some((key, p, s, salt)) = job {
            // One power's orders by `hard`, per phase type: the figure issue 62 wants at most
            // 3 s in the browser (`window.__orbisBots`).
            let name = format!("orders-suggest-{}", crate::orders::phase_word(s.phase));
            crate::think::suggest(&s, p, crate::orders::SUGGEST_LEVEL, salt, move |w, ms| {
                crate::widgets::record_bot_ms(&name, ms);
                d.dispatch(Msg::Orders(OMsg::Suggested(key, p, w)))
            });
        }
    });
}

/// On a phone the economy map is wider than the screen and scrolls sideways (web/style-more.css):
/// each time the map appears (a new game, a reload, after the pass-the-device screen), and each
/// time a resize makes it start scrolling (a window narrowed to a phone's width), its middle,
/// where Europe and Africa lie, is on screen rather than the Pacific. Other resizes leave the
/// player's own scrolling alone (a phone's address bar resizes the window as the page scrolls).
#[cfg(feature = "full")]
#[hook]
pub fn use_board_scroll(app: &UseReducerHandle<AppState>) {
    use std::cell::Cell;
    use std::rc::Rc;
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let shown = app.screen == Screen::EconomyPlay
        && app
            .economy
            .as_ref()
            .is_some_and(|e| e.next_planner().is_none());
    use_effect_with(shown, move |&shown| {
        // Centres the map when it scrolls now but did not before (`was`).
        fn centre(was: &Cell<bool>) {
            let el = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.query_selector(".board-scroll").ok().flatten());
            if let Some(el) = el {
                let extra = el.scroll_width() - el.client_width();
                if extra > 0 && !was.get() {
                    el.set_scroll_left(extra / 2);
                }
                was.set(extra > 0);
            }
        }
        let listener = shown.then(|| {
            let was = Rc::new(Cell::new(false));
            centre(&was);
            let f = Closure::<dyn Fn()>::new(move || centre(&was));
            if let Some(w) = web_sys::window() {
                let _ = w.add_event_listener_with_callback("resize", f.as_ref().unchecked_ref());
            }
            f
        });
        move || {
            if let (Some(f), Some(w)) = (listener, web_sys::window()) {
                let _ = w.remove_event_listener_with_callback("resize", f.as_ref().unchecked_ref());
            }
        }
    });
}

#[cfg(not(feature = "full"))]
#[hook]
pub fn use_board_scroll(_app: &UseReducerHandle<AppState>) {}

/// The replay's keys (← → Home End), while the replay screen is shown.
#[cfg(not(feature = "full"))]
#[hook]
pub fn use_replay_keys(_app: &UseReducerHandle<AppState>) {}

#[cfg(feature = "full")]
#[hook]
pub fn use_replay_keys(app: &UseReducerHandle<AppState>) {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let on = app.screen == Screen::Replay;
    let d = app.dispatcher();
    use_effect_with(on, move |&on| {
        let listener = on.then(|| {
            let f =
                Closure::<dyn Fn(web_sys::KeyboardEvent)>::new(move |e: web_sys::KeyboardEvent| {
                    // Not while typing in a field (the scrubber takes its own arrows).
                    let typing = e
                        .target()
                        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                        .is_some();
                    if !typing && !e.ctrl_key() && !e.alt_key() && !e.meta_key() {
                        if let Some(m) = key_name(&e.key()) {
                            e.prevent_default();
                            d.dispatch(Msg::ReplayKey(m));
                        }
                    }
                });
            if let Some(w) = web_sys::window() {
                let _ = w.add_event_listener_with_callback("keydown", f.as_ref().unchecked_ref());
            }
            f
        });
        move || {
            if let (Some(f), Some(w)) = (listener, web_sys::window()) {
                let _ =
                    w.remove_event_listener_with_callback("keydown", f.as_ref().unchecked_ref());
            }
        }
    });
}

/// The keys the replay takes.
#[cfg(feature = "full")]
fn key_name(k: &str) -> Option<&'static str> {
    ["ArrowRight", "ArrowLeft", "Home", "End"]
        .into_iter()
        .find(|&x| x == k)
}

/// Drops `open=` (see `lite`) from the address, so a reload resumes the game instead.
#[cfg(feature = "full")]
pub fn forget_open_param() {
    if cfg!(not(target_arch = "wasm32")) {
        return; // native unit tests: no browser
    }
    let Some(w) = web_sys::window() else {
        return;
    };
    let loc = w.location();
    let Ok(q) = web_sys::UrlSearchParams::new_with_str(&loc.search().unwrap_or_default()) else {
        return;
    };
    if q.get("open").is_none() {
        return;
    }
    q.delete("open");
    q.delete("at"); // a term's section, read with open=rules
    let q = String::from(q.to_string());
    let url = format!(
        "{}{}{}",
        loc.pathname().unwrap_or_default(),
        if q.is_empty() {
            String::new()
        } else {
            format!("?{q}")
        },
        loc.hash().unwrap_or_default()
    );
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// The history kept beside the autosave `text`, if it belongs to this very save.
pub fn autosave_history(text: &str) -> Option<crate::savefile::History> {
    let b = crate::store::b64_decode(&crate::store::get(crate::store::HISTORY_KEY)?)?;
    let (save, h) = crate::savefile::split_replay_file(&b)?;
    (crate::store::b64_encode(save) == text).then_some(h)
}
