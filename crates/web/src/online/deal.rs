//! What the page says about a face-down deal while the game runs: whose shares a player's
//! cards still wait for, so that the players know whom the game waits on and whom to vote out.
//! What this page sees itself is said as a fact; what another player's page reports is said as
//! that player's claim (security review B9: the accused answers it by sending its shares to
//! everyone, and the claim is then dropped).

use super::session::Session;
use orbis_protocol::Controller;

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
        let whose = if p.participants.get(i as usize) == Some(&self.peer.key()) {
            "Your cards wait".to_string()
        } else {
            format!("{}'s cards wait", s.players[s.current as usize].name)
        };
        Some(format!(
            "{whose} for {names}'s share of them, which only that page can send. If it does not \
             come, hand {names}'s seat to the computer: the others then stand in for its key."
        ))
    }
}
