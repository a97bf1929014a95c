//! The lobby's choice of powers for an orders game: the proposer names a power for each player,
//! or leaves it to chance ("Random"). The proposal carries the choices; the seats left to chance
//! are drawn by every peer alike from the game's shared seed (`orbis_protocol` lobby), so
//! nobody picks the draw.

use super::session::{fingerprint, Session};
use orbis_engine::rules::orders::map::{OrdersMap, PowerId};
use orbis_protocol::PeerKey;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use yew::prelude::*;

/// Seats of the next orders proposal on `map_id` (Europe: 7; world: the players and the
/// computer seats, 2 to 6).
pub(super) fn seat_count(map_id: &str, players: usize, bots: usize) -> usize {
    if map_id == "europe-1901" {
        7
    } else {
        (players + bots).clamp(2, 6)
    }
}

/// The power of each seat as the proposal names it: the players' picks (seats in `keys` order,
/// then the computer seats), `None` for "random", for a power not in play with that many
/// seats, and for a power already picked by an earlier seat.
pub(super) fn chosen(
    map: &OrdersMap,
    seats: usize,
    keys: &[PeerKey],
    picks: &BTreeMap<PeerKey, PowerId>,
) -> Vec<Option<PowerId>> {
    let in_play = map.powers_for(seats as u8).unwrap_or_default();
    let mut taken = vec![];
    (0..seats)
        .map(|i| {
            let p = keys.get(i).and_then(|k| picks.get(k)).copied();
            let p = p.filter(|p| in_play.contains(p) && !taken.contains(p));
            taken.extend(p);
            p
        })
        .collect()
}

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
