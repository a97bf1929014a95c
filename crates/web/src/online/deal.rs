//! What the page says about a face-down deal while the game runs: whose shares a player's
//! cards still wait for, so that the players know whom the game waits on and whom to vote out.

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
        let w = self.peer.withheld_from(i);
        if w.is_empty() {
            return None;
        }
        let names = w
            .iter()
            .map(|k| self.name_of(k))
            .collect::<Vec<_>>()
            .join(", ");
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
