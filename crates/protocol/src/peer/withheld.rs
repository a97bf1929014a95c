//! Claims of withholding in a face-down deal (security review B9): what a participant's `Sync`
//! says others withheld from it, how an accused refutes it, whom every peer names, and our
//! shares sent again to a participant that cannot read its cards.
//!
//! Owns nothing of its own: reads and writes `Run::withheld`, `claimed_unread` and `shared`
//! (kept by `deal`). Invariant: a claim is a claim, never a fact — an accused answers it by
//! sending its shares of those positions to everyone (still addressed to the holder, who opens
//! nothing more with one share), and a peer that took them no longer names it.

use super::*;
use orbis_deal::table::{Holder, Out};

impl Peer {
    /// What participant `sender` claims withheld from it (its latest `Sync`), and at which
    /// positions. A claim against us is answered by sending our shares of those positions to
    /// everyone: whoever takes them sees the claim refuted (security review B9).
    pub(super) fn note_withheld(
        &mut self,
        (sender, seq): (PeerKey, u64),
        withheld: Vec<u8>,
        unread: &[(u8, u16)],
        out: &mut Output,
    ) {
        let Some(r) = &mut self.run else { return };
        let Some(p) = r.participant(&sender) else {
            return;
        };
        // Only the sender's latest report counts. A `Sync` is never kept as seen, so one from
        // earlier in this game, replayed once its bytes left the duplicate window (a flood of
        // junk pushes them out), wiped a true claim against the withholder that replayed it:
        // every page then named the claimant, and refused to vote the withholder out
        // (review of the `Sync` replay fix, `tests/review_sync_replay.rs`). A page's numbers
        // only grow, across reloads too (`Config::seq_start`).
        if r.claim_seqs.get(&p).is_some_and(|&s| s >= seq) {
            return;
        }
        r.claim_seqs.insert(p, seq);
        let n = r.proposal.participants.len() as u8;
        let w: Vec<u8> = withheld
            .into_iter()
            .filter(|&x| x < n && x != p)
            .take(16)
            .collect();
        let against_me = r.me.is_some_and(|m| w.contains(&m));
        if w.is_empty() {
            r.withheld.remove(&p);
            r.claimed_unread.remove(&p);
        } else {
            let changed = r.withheld.get(&p) != Some(&w);
            let keys: Vec<PeerKey> = w
                .iter()
                .filter_map(|&x| r.proposal.participants.get(x as usize).copied())
                .collect();
            r.withheld.insert(p, w);
            r.claimed_unread
                .insert(p, unread.iter().take(MAX_UNREAD).copied().collect());
            if changed {
                out.events.push(ProtocolEvent::WithheldClaimed {
                    by: sender,
                    against: keys,
                });
            }
        }
        if against_me {
            self.deal_refute(p, unread, out);
        }
        self.pass_on_shared(p, unread, out);
    }

    /// The shares we saw sent to `claimant` for the positions it still claims unread, passed on
    /// to it again: its reload lost them, or our first copy was lost (independent review of
    /// issue 29's fix: the claim then looked refuted to us, and we named the claimant).
    fn pass_on_shared(&mut self, claimant: u8, unread: &[(u8, u16)], out: &mut Output) {
        let Some(r) = &self.run else { return };
        let Some(l) = r
            .proposal
            .participants
            .get(claimant as usize)
            .and_then(|k| self.link_of(k))
        else {
            return;
        };
        let unread: BTreeSet<(u8, u16)> = unread.iter().take(MAX_UNREAD).copied().collect();
        for ((h, _, deck, position, _), raw) in r.shared.range((claimant, 0, 0, 0, None)..) {
            if *h != claimant {
                break;
            }
            if unread.contains(&(*deck, *position)) {
                out.send.push((Dest::Link(l), raw.clone()));
            }
        }
    }

    /// Our shares of the positions `claimant` holds among `unread`, sent to everyone (each
    /// still addressed to the claimant): they prove we sent them, and the claimant has them now.
    /// A share alone opens nothing: every card also needs its holder's own share.
    fn deal_refute(&mut self, claimant: u8, unread: &[(u8, u16)], out: &mut Output) {
        let Some(r) = &mut self.run else { return };
        let tag = r.tag;
        let Some(d) = &mut r.deal else { return };
        let Some(seat) = d.seat_of(claimant) else {
            return;
        };
        let mut msgs = vec![];
        for &(deck, position) in unread.iter().take(MAX_UNREAD) {
            if d.table.holder(deck, position) == Some(Holder::Seat(seat)) {
                msgs.extend(d.table.resend(deck, position));
            }
        }
        let deal = d.number;
        for o in msgs {
            let Out::Send(s, msg) = o else { continue };
            let to = d.participant_of(s);
            let raw = Envelope::seal(&self.key, tag, self.seq, &Body::Deal { deal, to, msg });
            self.seq = self.seq.saturating_add(1);
            out.send.push((Dest::All, raw));
        }
    }

    /// Whether participant `p`'s claim that `y` withholds its shares still stands: some
    /// position `p` holds and lists as unread has no share of `y`'s we saw sent to it.
    pub(super) fn claim_stands(r: &Run, p: u8, y: u8) -> bool {
        let Some(d) = &r.deal else { return false };
        let Some(seat) = d.seat_of(p) else {
            return false;
        };
        // A key, escrow or shuffle of `y`'s that never came: everyone sees that.
        if d.awaited(&r.excluded).contains(&y) {
            return true;
        }
        // A claim against us stands nowhere on our own page: we know we sent our shares, and
        // we answer it by sending them again (`deal_resend`). Naming ourselves only told us to
        // vote ourselves out (the review's cosmetic point).
        if r.me == Some(y) {
            return false;
        }
        let Some(ys) = d.seat_of(y) else {
            return false;
        };
        // It stands while some share `y` owes there (its own, or a piece's for a seat that
        // left) is not among those we saw it send.
        r.claimed_unread.get(&p).is_some_and(|u| {
            u.iter().any(|&(deck, position)| {
                d.table.holder(deck, position) == Some(Holder::Seat(seat))
                    && d.table.owed_by(ys, deck, position).into_iter().any(|l| {
                        let leaver = l.and_then(|l| d.participant_of(l));
                        !r.shared.contains_key(&(p, y, deck, position, leaver))
                    })
            })
        })
    }

    /// Whom participant `p`'s face-down cards wait for: what we see ourselves, and what `p`
    /// claims and the accused has not refuted (security review B9).
    pub fn withholding(&self, p: u8) -> Withholding {
        let Some(r) = &self.run else {
            return Withholding::default();
        };
        let keys = |list: Vec<u8>| -> Vec<PeerKey> {
            list.into_iter()
                .filter(|x| !r.excluded.contains(x))
                .filter_map(|x| r.proposal.participants.get(x as usize).copied())
                .collect()
        };
        if r.me == Some(p) {
            return Withholding {
                observed: keys(r.withheld()),
                claimed: vec![],
            };
        }
        let gone = r
            .proposal
            .participants
            .get(p as usize)
            .is_some_and(|k| self.missing.contains(k));
        let claim = r.withheld.get(&p).cloned().unwrap_or_default();
        let observed: Vec<u8> = match &r.deal {
            Some(d) if !claim.is_empty() => d.awaited(&r.excluded),
            _ => vec![],
        };
        let claimed = claim
            .into_iter()
            .filter(|y| !gone && !observed.contains(y) && Self::claim_stands(r, p, *y))
            .collect();
        Withholding {
            observed: keys(observed),
            claimed: keys(claimed),
        }
    }

    /// Participants whose shares participant `p` (we, or as it reported) still lacks. Nothing
    /// for a participant that is gone itself: its last report says nothing of now.
    pub fn withheld_from(&self, p: u8) -> Vec<PeerKey> {
        let Some(r) = &self.run else { return vec![] };
        if r.proposal
            .participants
            .get(p as usize)
            .is_some_and(|k| self.missing.contains(k))
        {
            return vec![];
        }
        let list = if r.me == Some(p) {
            r.withheld()
        } else {
            // A claim stands only until the accused shows it sent its shares (B9).
            r.withheld
                .get(&p)
                .into_iter()
                .flatten()
                .copied()
                .filter(|&y| Self::claim_stands(r, p, y))
                .collect()
        };
        list.into_iter()
            .filter(|x| !r.excluded.contains(x))
            .filter_map(|x| r.proposal.participants.get(x as usize).copied())
            .collect()
    }

    /// Our shares for positions `requester` holds and cannot read yet, again.
    pub(super) fn deal_resend(&mut self, requester: u8, unread: &[(u8, u16)], out: &mut Output) {
        let Some(r) = &mut self.run else { return };
        let Some(d) = &mut r.deal else { return };
        let Some(requester) = d.seat_of(requester) else {
            return;
        };
        for &(deck, position) in unread.iter().take(MAX_UNREAD) {
            if d.table.holder(deck, position) == Some(Holder::Seat(requester)) {
                let o = d.table.resend(deck, position);
                d.outbox.extend(o);
            }
        }
        self.deal_flush(out);
    }
}
