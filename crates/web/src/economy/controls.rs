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

/// The largest count a box takes (more units than any game holds).
const MOST: u32 = 999;

/// Reads a count box: a whole number from `least` to 999, or the message that says what to type.
pub fn parse_count(raw: &str, least: u32) -> Result<u32, String> {
    match raw.trim().parse::<u32>() {
        Ok(x) if (least..=MOST).contains(&x) => Ok(x),
        _ => Err(format!(
            "\u{201c}{}\u{201d} is not a count here: type a whole number from {least} to {MOST}.",
            raw.trim()
        )),
    }
}

/// A change handler for a count box: a good count is sent with `to_msg`; anything else puts the
/// box back to `now` and says what to type (never a silent change of what the player asked).
pub fn count_input(
    v: &View,
    least: u32,
    now: u32,
    to_msg: impl Fn(u32) -> EMsg + 'static,
) -> Callback<Event> {
    let d = v.dispatcher();
    Callback::from(move |e: Event| {
        let input = e.target_unchecked_into::<HtmlInputElement>();
        match parse_count(&input.value(), least) {
            Ok(x) => d.dispatch(to_msg(x)),
            Err(m) => {
                input.set_value(&now.to_string());
                d.dispatch(EMsg::Refuse(m))
            }
        }
    })
}

/// Number inputs for the armies and navies of a move or recruit.
pub fn counts(v: &View, eco: &EconomySession, navies: bool) -> Html {
    let (a, n) = (eco.ui.armies, eco.ui.navies);
    let on = |army: bool| {
        if army {
            count_input(v, 0, a, move |x| EMsg::Count(x, n))
        } else {
            count_input(v, 0, n, move |x| EMsg::Count(a, x))
        }
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

#[cfg(test)]
mod tests {
    use super::parse_count;

    /// A count box never turns what was typed into another number: it takes it or says what
    /// to type.
    #[test]
    fn a_count_is_taken_as_typed_or_refused_with_what_to_type() {
        assert_eq!(parse_count(" 7 ", 1), Ok(7));
        assert_eq!(parse_count("0", 0), Ok(0));
        for bad in ["0", "-3", "2.5", "", "many", "1000"] {
            let e = parse_count(bad, 1).unwrap_err();
            assert!(
                e.contains("type a whole number from 1 to 999"),
                "{bad}: {e}"
            );
        }
    }
}
