//! Equivocation in commit-reveal rounds: two different signed commitments (or reveals) of one
//! participant for one round. Proof about a round already resolved halts at once; proof about a
//! round not yet resolved is kept, sent to everyone and judged when that round is resolved, so
//! that every honest peer reaches the same outcome whether a drop of the equivocator reached it
//! first or not.
//!
//! Owns `Run::deferred_halts` (the kept proof, one per sender). Invariant: no round is resolved
//! with either version of an equivocator's orders while proof about it is kept; it is moot only
//! once the log drops its sender at or before the round.

use super::*;

impl Peer {
    /// Acts on proof (`evidence`) that `sender` equivocated in `round`. A round we have
    /// resolved (or fixed the batch of): we halt now. A round not yet resolved (the one we are
    /// on, or a later one): the proof is kept, sent to
    /// everyone, and judged when we resolve that round, against the log (`Peer::judge_proof`):
    /// moot if `sender` was dropped there by then, else a halt. Halting on arrival would make the
    /// outcome depend on whether the drop had reached us yet: voters that held every vote
    /// applied it and went on, and the one halted on the proof was voted out (economy long-run
    /// seed 6085048; independent review of that fix: the same with a round one ahead, or a peer
    /// replaying the log after a reload).
    pub(super) fn halt_on_round_equivocation(
        &mut self,
        sender: PeerKey,
        round: u32,
        report: HaltReport,
        evidence: Vec<Vec<u8>>,
        out: &mut Output,
    ) {
        if let Some(r) = &mut self.run {
            let at = u64::from(round);
            // A batch fixed for the round (its dice to come) holds one version already: that
            // round is resolved as far as orders go (independent review).
            let fixed = r.pending.as_ref().is_some_and(|p| p.index == at);
            if !matches!(r.state, Game::Classic(_)) && at >= r.next_index() && !fixed {
                let kept = r.deferred_halts.iter().position(|d| d.peer == sender);
                if kept.is_none_or(|k| at < r.deferred_halts[k].at) {
                    for raw in &evidence {
                        out.send.push((Dest::All, raw.clone()));
                    }
                    if let Some(k) = kept {
                        r.deferred_halts.remove(k);
                    }
                    let d = DeferredHalt {
                        peer: sender,
                        at,
                        report,
                        evidence,
                        since: self.now,
                    };
                    let k = r.deferred_halts.partition_point(|x| x.at <= at);
                    r.deferred_halts.insert(k, d);
                }
                return;
            }
        }
        self.halt_with(report, evidence, out);
    }

    /// Whether kept proof of an equivocation in round `at` (the one we are on) stops us
    /// resolving it: proof whose sender was dropped (here or before) is moot and forgotten.
    /// Else we halt on it if a vote of ours to drop the sender here has failed (a voter showed
    /// it resolved the round without the drop), or once the proof is `Config::missing_ms` old
    /// here (`tick`): a drop on its way has come by then. Until then we wait, and never resolve
    /// the round with either version. Each sender's proof is judged on its own: a drop of one
    /// equivocator leaves the proof about another standing.
    pub(super) fn judge_proof(&mut self, at: u64, out: &mut Output) -> bool {
        let me = self.me;
        let Some(r) = &mut self.run else { return false };
        // One kept proof per sender: the moot ones are known by their senders.
        let moot: Vec<PeerKey> = r
            .deferred_halts
            .iter()
            .filter(|d| {
                r.participant(&d.peer)
                    .is_none_or(|p| r.orders_moot(p, d.at))
            })
            .map(|d| d.peer)
            .collect();
        r.deferred_halts.retain(|d| !moot.contains(&d.peer));
        let here: Vec<PeerKey> = r
            .deferred_halts
            .iter()
            .filter(|d| d.at <= at)
            .map(|d| d.peer)
            .collect();
        if here.is_empty() {
            return false;
        }
        // Overdue first: then no fork is made (`held_by_vote`) for a halt that is certain.
        let due = self.overdue_proof().or_else(|| {
            here.iter().copied().find(|peer| {
                self.run
                    .as_ref()
                    .is_some_and(|r| Self::votes_to_drop(r, at, &me, peer))
                    && !self.held_by_vote(at)
            })
        });
        if let Some(peer) = due {
            let Some(r) = &mut self.run else { return true };
            if let Some(k) = r.deferred_halts.iter().position(|d| d.peer == peer) {
                // The proof we halt on goes first in the evidence (`halt_with` takes all kept
                // proof): the replay of our transcript keeps it first and names its sender, as
                // we do (independent review: it named another equivocator's).
                let d = r.deferred_halts.remove(k);
                let report = d.report.clone();
                r.deferred_halts.insert(0, d);
                self.halt_with(report, vec![], out);
            }
        }
        true
    }

    /// Whether kept proof of an equivocation in the round we are on is `Config::missing_ms`
    /// old, counted from when it came or when we reached the round, whichever is later.
    pub(super) fn proof_overdue(&self) -> bool {
        self.overdue_proof().is_some()
    }

    /// The sender of the first kept proof that is [`Peer::proof_overdue`].
    pub(super) fn overdue_proof(&self) -> Option<PeerKey> {
        let r = self.run.as_ref()?;
        let next = r.next_index();
        if self.cfg.stored {
            // Over days a visit reads everything there is before it judges (a drop on its way
            // is in the store or not): due once caught up.
            return r
                .deferred_halts
                .iter()
                .find(|d| d.at <= next && !self.quiet)
                .map(|d| d.peer);
        }
        let reached = if r.since.0 == next { r.since.1 } else { 0 };
        r.deferred_halts
            .iter()
            .find(|d| {
                d.at <= next && self.now >= d.since.max(reached).saturating_add(self.cfg.missing_ms)
            })
            .map(|d| d.peer)
    }
}
