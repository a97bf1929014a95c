//! Routing: an authenticated, de-duplicated message goes to the module that owns its concern
//! (lobby, log, beacon, rounds, votes, deal, chat, resync).
//!
//! Owns nothing. Invariant: a message that cannot be judged yet (its game not started, its
//! position not reached) is deferred, not refused, and `dispatch` says so by returning false, so
//! it is handled when it comes again.

use super::*;

impl Peer {
    /// Handles an authenticated message; false if it was neither used nor refused (it may come
    /// again and be useful then).
    pub(super) fn dispatch(
        &mut self,
        link: Option<LinkId>,
        sender: PeerKey,
        seq: u64,
        body: Body,
        raw: &[u8],
        out: &mut Output,
    ) -> bool {
        match body {
            Body::Hello {
                name,
                answer,
                challenge,
                response,
            } => self.on_hello(link, sender, seq, name, (answer, challenge, response), out),
            Body::Propose(p) => self.on_propose(link, sender, p, raw, out),
            Body::Accept {
                proposal,
                seed_commit,
                chain_tip,
                chain_len,
            } => self.on_accept(
                link,
                sender,
                seq,
                proposal,
                seed_commit,
                chain_tip,
                chain_len,
                raw,
                out,
            ),
            Body::SeedReveal { proposal, secret } => {
                self.on_seed_reveal(link, sender, proposal, secret, raw, out)
            }
            Body::Sync {
                started,
                have_index,
                head,
                deal,
                deal_digest,
                unread,
                withheld,
            } => {
                // Only a started peer's report speaks of this game (and is signed under its
                // id): a replayed `Sync` from before its start would clear its claim.
                if started {
                    self.note_withheld((sender, seq), withheld, &unread, out);
                }
                let deal = (deal, deal_digest);
                self.on_sync(link, sender, (started, have_index, head), deal, unread, out)
            }
            Body::Chat { to, text, sealed } => {
                self.on_chat(link, sender, to, (text, sealed), raw, out)
            }
            Body::ChatAck { id } => self.on_chat_ack(sender, id),
            Body::Entry(e) => {
                if let Some(done) = self.admit_at(link, raw, sender, e.index) {
                    return done;
                }
                self.on_entry(link, sender, e, raw, out);
                self.advance(out);
                true
            }
            Body::Reveal {
                index,
                roll,
                decl,
                preimage,
                next_tip,
            } => {
                if let Some(done) = self.admit_at(link, raw, sender, index) {
                    return done;
                }
                let u = UnverifiedReveal {
                    roll,
                    decl,
                    preimage,
                    next_tip,
                    raw: raw.to_vec(),
                    link,
                };
                self.on_reveal(sender, index, u, out);
                self.advance(out);
                true
            }
            Body::Checkpoint {
                index,
                state_hash,
                log_head,
            } => {
                if let Some(done) = self.admit_at(link, raw, sender, index) {
                    return done;
                }
                self.on_checkpoint(link, sender, index, state_hash, log_head, raw, out);
                self.advance(out);
                true
            }
            Body::Vote { at, control, fixed } => {
                if self.run.is_none() {
                    return self.defer(link, sender, raw);
                }
                if at >= self.log_len() + MAX_AHEAD {
                    return false;
                }
                self.on_vote(link, sender, (at, fixed), control, raw, out);
                true
            }
            Body::Batch { items } => self.on_batch(link, items, out),
            Body::OrdersCommit { round, hash } => {
                if self.run.is_none() {
                    return self.defer(link, sender, raw);
                }
                if let Some(done) = self.admit_round(sender, round) {
                    return done;
                }
                self.on_orders_commit(link, sender, round, hash, raw, out);
                self.advance(out);
                true
            }
            Body::DealSecret { deal, secret } => {
                if self.run.is_none() {
                    return self.defer(link, sender, raw);
                }
                self.on_deal_secret(link, sender, deal, secret, raw, out);
                true
            }
            Body::DealPieces { deal, pieces } => {
                if self.run.is_none() {
                    return self.defer(link, sender, raw);
                }
                self.on_deal_pieces(link, sender, deal, pieces, raw, out);
                true
            }
            Body::Deal { deal, to, msg } => {
                if self.run.is_none() {
                    return self.defer(link, sender, raw);
                }
                self.on_deal(link, sender, deal, to, msg, raw, out);
                self.advance(out);
                true
            }
            Body::OrdersKept { round, sealed } => {
                if self.run.is_none() {
                    return self.defer(link, sender, raw);
                }
                self.on_orders_kept(sender, round, sealed, raw);
                true
            }
            Body::OrdersReveal {
                round,
                payload,
                salt,
            } => {
                if self.run.is_none() {
                    return self.defer(link, sender, raw);
                }
                if let Some(done) = self.admit_round(sender, round) {
                    return done;
                }
                self.on_orders_reveal(link, sender, round, payload, salt, raw, out);
                self.advance(out);
                true
            }
        }
    }
}
