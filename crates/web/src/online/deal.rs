//! What the page says about a face-down deal while the game runs: whose shares a player's
//! cards still wait for, so that the players know whom the game waits on and whom to vote out.
//! What this page sees itself is said as a fact; what another player's page reports is said as
//! that player's claim (security review B9: the accused answers it by sending its shares to
//! everyone, and the claim is then dropped).

use super::session::Session;
use orbis_protocol::Controller;
use yew::prelude::*;

/// The lobby's promise about the face-down deal of the next classic game, which depends on
/// the table's choice for a player who leaves (`stand_in`, security review A2).
pub(super) fn promise(stand_in: bool) -> String {
    promise_for(
        "Cards and missions are dealt face down by all the players' pages together: no page on \
         its own, even a modified one, can read another player's hand or mission before it is \
         shown. A computer player's cards are face up.",
        stand_in,
    )
}

/// The same promise for the economy's influence cards.
pub(super) fn influence_promise(stand_in: bool) -> String {
    promise_for(
        "Influence cards are dealt face down by all the players' pages together: no page on its \
         own, even a modified one, can read another player's cards, or the next card of the \
         pile, before a card is played. A computer player's cards are face up.",
        stand_in,
    )
}

fn promise_for(base: &str, stand_in: bool) -> String {
    if stand_in {
        format!(
            "{base} With three or more players, all the others together could read a hand \
             (their pieces of each key let a leaver's cards be opened, so the game goes on \
             without them); with two, no key is shared out and the game ends if one player \
             leaves."
        )
    } else {
        format!(
            "{base} No key is shared out: while the game lasts nobody, not even all the others \
             together, can read a hand but its holder, and the game ends, unwon, if a player \
             leaves. (At the end every page publishes its key, so that the game can be checked.)"
        )
    }
}

/// What a proposal itself says about its cards (not the viewer's own choice: a page accepts
/// what the proposal says, so that is what it must read before accepting).
pub(super) fn proposal_deal(face_down: bool, stand_in: bool, mine: bool) -> String {
    let what = match (face_down, stand_in) {
        (false, _) => "Cards dealt face up: every page can read every hand.",
        (true, true) => {
            "Cards face down; if a player leaves, the others open their cards and play on \
             (with three or more, all the others together could read any hand)."
        }
        (true, false) => {
            "Cards face down; if a player leaves, the game ends (while it lasts, no hand can be \
             read but by its holder)."
        }
    };
    if face_down && stand_in != mine {
        format!("{what} This is not the choice set on this page.")
    } else {
        what.to_string()
    }
}

/// The lobby's choice of what happens to a leaver's face-down cards.
pub(super) fn stand_in_choice(stand_in: bool, onchange: Callback<bool>) -> Html {
    let onchange = onchange.reform(|e: Event| {
        e.target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value()
            == "stand-in"
    });
    html! {
        <label>{"If a player leaves "}<select id="online-stand-in" style="max-width:100%" {onchange}>
            <option value="stand-in" selected={stand_in}>{"the others open their cards, and play on"}</option>
            <option value="end" selected={!stand_in}>{"the game ends (no hand can be read by the others)"}</option>
        </select></label>
    }
}

impl Session {
    /// The current player's cards wait for these participants' shares: a sentence naming
    /// them and what to do, or `None`.
    pub(super) fn withheld_note(&self) -> Option<String> {
        let s = self.peer.state()?;
        if s.winner().is_some() {
            return None;
        }
        let p = self.proposals.get(&self.started?)?;
        let Controller::Peer(i) = p.seats.get(s.current as usize)?.controller else {
            return None;
        };
        let seen = self.peer.withholding(i);
        let claim = seen.observed.is_empty();
        let w = if claim { seen.claimed } else { seen.observed };
        if w.is_empty() {
            return None;
        }
        let names = w
            .iter()
            .map(|k| self.name_of(k))
            .collect::<Vec<_>>()
            .join(", ");
        if claim {
            let who = s.players[s.current as usize].name.clone();
            return Some(format!(
                "{who}'s page says its cards wait for {names}'s share of them. That is its \
                 claim: {names}'s page answers it by sending the share to everyone, and this \
                 line goes away if it does. If it stays, you may hand {names}'s seat to the \
                 computer."
            ));
        }
        // A withholder whose own turn it is holds up the cards, not "its" cards: say so.
        let current = p.participants.get(i as usize);
        let whose = if current.is_some_and(|k| w.contains(k)) {
            "The cards wait".to_string()
        } else if current == Some(&self.peer.key()) {
            "Your cards wait".to_string()
        } else {
            format!("{}'s cards wait", s.players[s.current as usize].name)
        };
        Some(format!(
            "{whose} for {names}'s part of the deal, which only that page can send. If it does \
             not come, hand {names}'s seat to the computer: the others then stand in for its key."
        ))
    }
}
