//! What the game waits for, and on whom: the page's "waiting for …" line, the votes it offers,
//! and whether this peer is to move.
//!
//! Owns nothing; reads `Run`. Invariant: a participant is named only for a part of its own that
//! the game lacks here (a move, orders, a dice reveal), or, where cards wait on the deal, the
//! deal's withholder as every peer sees it (never the player its withholding blocks).

use super::*;

impl Peer {
    /// True when the seat to act is ours and no roll is pending: call [`Peer::act`].
    pub fn is_my_turn(&self) -> bool {
        let Some(r) = &self.run else { return false };
        let Game::Classic(s) = &r.state else {
            return false;
        };
        if self.halted.is_some() || self.suspect.is_some() || r.pending.is_some() || r.over() {
            return false;
        }
        matches!((r.controller(s.current), r.me), (Some(Controller::Peer(p)), Some(m)) if p == m)
    }

    /// Participants the game is waiting for (to act or to reveal dice).
    pub fn waiting_on(&self) -> Vec<PeerKey> {
        let Some(r) = &self.run else { return vec![] };
        let parts = &r.proposal.participants;
        if let Some(p) = &r.pending {
            let have = r.reveals.get(&p.index);
            return r
                .contributors()
                .filter(|i| have.is_none_or(|m| !m.contains_key(i)))
                .filter_map(|i| parts.get(i as usize).copied())
                .collect();
        }
        if r.over() {
            return vec![];
        }
        match &r.state {
            Game::Classic(s) => self.classic_waiting_on(r, s),
            // An economy position held by reveals nobody can judge yet, or by a player whose
            // influence cards cannot be dealt: whoever withholds its key, escrow or shuffle (as
            // every peer sees the deal).
            Game::Economy(_) if r.judging_reveals() || r.dealing_blocks() => r
                .deal
                .as_ref()
                .map_or(vec![], |d| d.awaited(&r.excluded))
                .into_iter()
                .filter_map(|i| parts.get(i as usize).copied())
                .collect(),
            // Simultaneous rulesets: commitments first, then reveals.
            _ => {
                let round = r.next_index() as u32;
                let o = r.orders.get(&round);
                let req = r.orders_required();
                let committed = |i: &u8| o.is_some_and(|o| o.commits.contains_key(i));
                let all_committed = req.iter().all(committed);
                req.iter()
                    .filter(|i| {
                        if all_committed {
                            !o.is_some_and(|o| o.reveals.contains_key(i))
                        } else {
                            !committed(i)
                        }
                    })
                    .filter_map(|&i| parts.get(i as usize).copied())
                    .collect()
            }
        }
    }
}
