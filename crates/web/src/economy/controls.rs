//! Small controls of the economy screens: buttons that send a message or an action, the
//! armies/navies counts and the from–to picker of a move.

use crate::economy::text::region;
use crate::economy::{EMsg, EconomySession, View};
use orbis_engine::rules::economy::action::EconomyAction as A;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// A click handler that sends `m`.
pub fn send(v: &View, m: EMsg) -> Callback<MouseEvent> {
    let d = v.dispatcher();
    Callback::from(move |_: MouseEvent| d.dispatch(m.clone()))
}

pub fn act(v: &View, a: A) -> Callback<MouseEvent> {
    send(v, EMsg::Act(a))
}

pub fn btn(v: &View, id: String, label: String, a: A) -> Html {
    html! { <button class="btn" id={id} onclick={act(v, a)}>{label}</button> }
}

/// Number inputs for the armies and navies of a move or recruit.
pub fn counts(v: &View, eco: &EconomySession, navies: bool) -> Html {
    let (a, n) = (eco.ui.armies, eco.ui.navies);
    let on = |army: bool| {
        let d = v.dispatcher();
        Callback::from(move |e: Event| {
            let x = e
                .target_unchecked_into::<HtmlInputElement>()
                .value()
                .parse::<u32>()
                .unwrap_or(0)
                .min(999);
            d.dispatch(if army {
                EMsg::Count(x, n)
            } else {
                EMsg::Count(a, x)
            })
        })
    };
    html! {
        <div class="row counts">
            <label class="field" for="count-armies"><span>{"Armies"}</span>
                <input id="count-armies" type="number" min="0" value={a.to_string()} onchange={on(true)}/></label>
            if navies {
                <label class="field" for="count-navies"><span>{"Navies"}</span>
                    <input id="count-navies" type="number" min="0" value={n.to_string()} onchange={on(false)}/></label>
            }
        </div>
    }
}

pub fn move_picker(v: &View, eco: &EconomySession, what: &str) -> Html {
    let from = eco.ui.sel.map_or("—".to_string(), region);
    let to = eco.ui.to.map_or("—".to_string(), region);
    html! {
        <div class="picker">
            <p>{format!("{what}: click where from, then where to (or drag from one to the other).")}</p>
            <p class="route"><strong>{"From "}</strong>{from}<strong>{" to "}</strong>{to}
                <button class="btn small" id="clear-move" onclick={send(v, EMsg::Cancel)}>{"Clear"}</button></p>
            { counts(v, eco, true) }
        </div>
    }
}
