//! The lobby's "New game" form: the ruleset, its rules or map, the computer seats and their
//! level, the powers picked, and the button that proposes the game to everyone ticked.

use super::session::Session;
use super::{deal, powers};
use orbis_engine::classic::ClassicOptions;
use orbis_protocol::PeerKey;
use std::cell::RefCell;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The form, for the players `present` (`seats_next`: the seats a classic game would have).
pub(super) fn new_game(
    s: &Session,
    session: &Rc<RefCell<Option<Session>>>,
    rev: &UseStateHandle<u64>,
    present: &[PeerKey],
    seats_next: usize,
) -> Html {
    let propose = on_session(session, rev, |s| {
        let ruleset = s.ruleset.clone();
        let orders = match ruleset.as_str() {
            "europe-1901" | "world" => Some(ruleset.as_str()),
            "economy" => return s.propose_economy(),
            _ => None,
        };
        s.propose_ruleset(orders);
    });
    let set_ruleset = {
        let session = session.clone();
        let rev = rev.clone();
        Callback::from(move |e: yew::Event| {
            let v = e
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .map(|s| s.value())
                .unwrap_or_default();
            if let Some(s) = session.borrow_mut().as_mut() {
                s.ruleset = v;
                s.rev += 1;
            }
            rev.set(*rev + 1);
        })
    };
    let set_bots = {
        let session = session.clone();
        let rev = rev.clone();
        Callback::from(move |e: InputEvent| {
            let v: usize = e
                .target_unchecked_into::<HtmlInputElement>()
                .value()
                .parse()
                .unwrap_or(0);
            if let Some(s) = session.borrow_mut().as_mut() {
                s.bots = v.min(4);
            }
            rev.set(*rev + 1);
        })
    };
    let set_bot_level = {
        let session = session.clone();
        let rev = rev.clone();
        Callback::from(move |e: yew::Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            if let Some(s) = session.borrow_mut().as_mut() {
                s.bot_level = match v.as_str() {
                    "easy" => orbis_engine::classic::BotLevel::Easy,
                    "hard" => orbis_engine::classic::BotLevel::Hard,
                    _ => orbis_engine::classic::BotLevel::Normal,
                };
            }
            rev.set(*rev + 1);
        })
    };
    let set_options = {
        let session = session.clone();
        let rev = rev.clone();
        Callback::from(move |o: ClassicOptions| {
            if let Some(s) = session.borrow_mut().as_mut() {
                s.options = o;
                s.rev += 1;
            }
            rev.set(*rev + 1);
        })
    };
    let orders_map = matches!(s.ruleset.as_str(), "europe-1901" | "world");
    // A room over days proposes orders games only (`days_clock::WHY_LIVE_ONLY`).
    let refused = s.visit.is_some() && !orders_map;
    let choose = {
        let (session, rev) = (session.clone(), rev.clone());
        Callback::from(move |d| {
            super::days_step::choose(&session, d);
            rev.set(*rev + 1);
        })
    };
    html! {
        <>
                <h2>{"New game"}</h2>
            <label>{"Game "}<select id="online-ruleset" style="max-width:100%" onchange={set_ruleset}>
                <option value="classic" selected={s.ruleset == "classic"}>{"Classic"}</option>
                <option value="europe-1901" selected={s.ruleset == "europe-1901"}>{"Orders: Europe 1901"}</option>
                <option value="world" selected={s.ruleset == "world"}>{"Orders: World"}</option>
                <option value="economy" selected={s.ruleset == "economy"}>{"Economy"}</option>
            </select></label>
            if s.ruleset == "classic" {
                { deal::stand_in_choice(s.stand_in, on_session_with(session, rev, |s, v| s.stand_in = v)) }
                { fair(html! {
                    <>
                        <p class="hint">{"Every die is rolled by all the players' pages together, so no page can choose its rolls."}</p>
                        <p class="hint" id="p2p-notice">{deal::promise(s.stand_in)}</p>
                    </>
                }) }
            } else if s.ruleset == "economy" {
                <p class="hint" id="economy-summary">{crate::economy::form::summary(&s.economy_options, seats_next.max(2))}</p>
                if s.economy_options.influence_cards {
                    { deal::stand_in_choice(s.stand_in, on_session_with(session, rev, |s, v| s.stand_in = v)) }
                }
                { fair(html! {
                    <>
                        <p class="hint">{"Plans and declarations are sealed before anyone sees them and opened together; every die comes from all the players together; computer seats are computed alike by every page."}</p>
                        if s.economy_options.influence_cards {
                            <p class="hint" id="p2p-notice">{deal::influence_promise(s.stand_in)}</p>
                        }
                    </>
                }) }
            } else {
                if s.ruleset == "europe-1901" {
                    <p class="hint">{"Seven powers; those without a player are computer powers."}</p>
                } else {
                    <p class="hint">{"The players plus the computer seats, 2 to 6 powers."}</p>
                }
                { fair(html! {
                    <p class="hint">{"Each power's orders are sealed before anyone sees them and opened together, so nobody can answer another's orders; every page computes the computer powers' orders alike."}</p>
                }) }
            }
            if s.ruleset != "europe-1901" {
                <label>{"Computer seats "}<input id="online-bots" type="number" min="0" max="4" value={s.bots.to_string()} oninput={set_bots}/></label>
            }
            <label>{"Computer level "}<select id="online-bot-level" onchange={set_bot_level}>
                    { for [("easy", "easy"), ("normal", "normal"), ("hard", "hard")].iter().map(|(v, l)| {
                        let cur = matches!((*v, s.bot_level),
                            ("easy", orbis_engine::classic::BotLevel::Easy)
                            | ("normal", orbis_engine::classic::BotLevel::Normal)
                            | ("hard", orbis_engine::classic::BotLevel::Hard));
                        html! { <option value={*v} selected={cur}>{*l}</option> }
                    }) }
                </select></label>
            if s.ruleset != "classic" && s.ruleset != "economy" {
                { powers::picker(s, session, rev) }
            }
            if s.ruleset == "economy" {
                <details class="options" id="online-economy-options">
                    <summary>{"Rules and setup"}</summary>
                    { crate::economy::form::options_fields(&s.economy_options, on_session_with(session, rev, |s, o| s.economy_options = o)) }
                </details>
            }
            if s.ruleset == "classic" {
                <details class="options" id="online-options">
                    <summary>{"Rules"}</summary>
                    { crate::classic::options::options_fields(&s.options, seats_next, set_options) }
                </details>
            }
            { super::days_clock::choice(&s.days, orders_map || s.visit.is_some(), choose) }
            if refused {
                <p class="notice" id="days-not-yet" role="status">{super::days_clock::WHY_LIVE_ONLY}</p>
            }
            <button class="btn" id="online-propose" onclick={propose} disabled={refused}>{
                if s.visit.is_some() { "Propose a game over days with the players ticked" }
                else if s.left_out.iter().any(|k| present.contains(k)) { "Propose a game with the players ticked" } else { "Propose a game with everyone here" }
            }</button>
        </>
    }
}

/// A click that runs a command on the session (if joined) and redraws the screen.
pub(super) fn on_session(
    session: &Rc<RefCell<Option<Session>>>,
    rev: &UseStateHandle<u64>,
    command: impl Fn(&mut Session) + 'static,
) -> Callback<MouseEvent> {
    let session = session.clone();
    let rev = rev.clone();
    Callback::from(move |_: MouseEvent| {
        if let Some(s) = session.borrow_mut().as_mut() {
            command(s);
        }
        rev.set(*rev + 1);
    })
}

/// Like [`on_session`], for a control whose event carries a value.
pub(super) fn on_session_with<T: 'static>(
    session: &Rc<RefCell<Option<Session>>>,
    rev: &UseStateHandle<u64>,
    command: impl Fn(&mut Session, T) + 'static,
) -> Callback<T> {
    let session = session.clone();
    let rev = rev.clone();
    Callback::from(move |v: T| {
        if let Some(s) = session.borrow_mut().as_mut() {
            command(s, v);
            s.rev += 1;
        }
        rev.set(*rev + 1);
    })
}

/// Why no page can cheat, folded under "How is this fair?": the lobby opens on the game's
/// choices, and a player who wonders finds the answer one click away.
fn fair(why: Html) -> Html {
    html! {
        <details class="fair" id="online-fair">
            <summary>{"How is this fair?"}</summary>
            <p class="hint">{"There is no server: every page checks every move against the rules, and every message is signed by its player. A page that tells the players different things stops the game, with the proof."}</p>
            { why }
        </details>
    }
}
