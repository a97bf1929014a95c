//! The lobby's choice of powers for an orders game: the proposer names a power for each player,
//! or leaves it to chance ("Random"). The proposal carries the choices; the seats left to chance
//! are drawn by every peer alike from the game's shared seed (`orbis_protocol` lobby), so
//! nobody picks the draw.

use super::commands::seat_count;
use super::session::{fingerprint, Session};
use orbis_engine::rules::orders::map::{OrdersMap, PowerId};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// A select per player of the next proposal: "Random" or one of the powers in play.
pub(super) fn picker(
    s: &Session,
    session: &Rc<RefCell<Option<Session>>>,
    rev: &UseStateHandle<u64>,
) -> Html {
    let Some(map) = OrdersMap::get(&s.ruleset) else {
        return html! {};
    };
    let keys = s.next_players();
    let seats = seat_count(&s.ruleset, keys.len(), s.bots);
    let in_play = map.powers_for(seats as u8).unwrap_or_default();
    let rows = keys.iter().map(|k| {
        let k = *k;
        let fp = fingerprint(&k);
        let current = s.power_pick.get(&k).copied().filter(|p| in_play.contains(p));
        let onchange = {
            let (session, rev) = (session.clone(), rev.clone());
            Callback::from(move |e: Event| {
                let v = e
                    .target_unchecked_into::<web_sys::HtmlSelectElement>()
                    .value();
                if let Some(s) = session.borrow_mut().as_mut() {
                    match v.parse::<PowerId>() {
                        Ok(p) => s.power_pick.insert(k, p),
                        Err(_) => s.power_pick.remove(&k),
                    };
                }
                rev.set(*rev + 1);
            })
        };
        html! {
            <li>
                <label>{format!("{} ", s.name_of(&k))}
                    <select class="pick-power" data-fingerprint={fp} {onchange}>
                        <option value="random" selected={current.is_none()}>{"Random power"}</option>
                        { for in_play.iter().map(|&p| html! {
                            <option value={p.to_string()} selected={current == Some(p)}>
                                {map.powers[p as usize].name.clone()}
                            </option>
                        }) }
                    </select>
                </label>
            </li>
        }
    });
    html! {
        <details class="options" id="online-powers" open=true>
            <summary>{"Powers"}</summary>
            <p class="hint">{"Pick a power for each player, or leave it to chance: random powers are drawn from the game's shared seed, which no player controls."}</p>
            <ul class="power-picks">{ for rows }</ul>
        </details>
    }
}
