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
        // Our move here is signed and sent already, and waits (a vote of ours at this position
        // may still complete, `Peer::bound`): the others take it, move past this position, and
        // so decide the vote (long-run seed 4600560).
        if r.move_waits(&self.me) {
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
            Game::Economy(_) if r.judging_reveals() || r.dealing_blocks() => {
                let awaited = r.deal.as_ref().map_or(vec![], |d| d.awaited(&r.excluded));
                if awaited.is_empty() {
                    // The deal is whole: a share of one of our cards that never came.
                    return self.simultaneous_waiting_on(r);
                }
                awaited
                    .into_iter()
                    .filter_map(|i| parts.get(i as usize).copied())
                    .collect()
            }
            _ => self.simultaneous_waiting_on(r),
        }
    }

    /// Simultaneous rulesets: commitments first, then reveals. A participant that has not
    /// committed and whose face-down cards wait for others' shares (we see it for ours; for
    /// another, its `Sync` claims it and the accused has not shown it sent them) is not named:
    /// whoever withholds them is (issue 29, as for a classic player to move).
    fn simultaneous_waiting_on(&self, r: &Run) -> Vec<PeerKey> {
        let parts = &r.proposal.participants;
        let round = r.next_index() as u32;
        let o = r.orders.get(&round);
        let req = r.orders_required();
        let committed = |i: &u8| o.is_some_and(|o| o.commits.contains_key(i));
        let all_committed = req.iter().all(committed);
        // What every peer sees comes before what a participant says (as for a classic player to
        // move): while the deal lacks someone's key, escrow or shuffle, a participant's claim
        // names nobody (the one withholding its shuffle claims, rightly, that nobody sent it
        // shares of a deck only it saw whole).
        let whole = match &r.deal {
            Some(d) => d.awaited(&r.excluded).is_empty(),
            None => true,
        };
        let mut named: Vec<PeerKey> = vec![];
        for &i in &req {
            if all_committed {
                if !o.is_some_and(|o| o.reveals.contains_key(&i)) {
                    named.extend(parts.get(i as usize).copied());
                }
                continue;
            }
            if committed(&i) {
                continue;
            }
            let withheld = match &r.state {
                Game::Economy(_) if whole => self.withheld_from(i),
                _ => vec![],
            };
            if withheld.is_empty() {
                named.extend(parts.get(i as usize).copied());
            } else {
                named.extend(withheld);
            }
        }
        let mut seen = BTreeSet::new();
        named.retain(|k| seen.insert(*k));
        named
    }
}
