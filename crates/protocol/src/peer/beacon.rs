//! Dice beacon: each participant's hash chain (committed by its tip in the accept), the reveal
//! of one pre-image per roll, and the roll seed that mixes every contributor's pre-image.
//!
//! Owns `Peer::chain` / `later_chains` (our secrets) and `Run::pending`, `reveals`,
//! `future_reveals`, `chains`, `chain_lens`, `chain_ends`, `chain_next`.
//!
//! Invariant: a roll is resolved only when every contributing participant has revealed the
//! pre-image that hashes to its previous one, and a pre-image is revealed only after the action
//! that needs it is fixed in the log, so nobody can choose or foresee the dice alone.

use super::*;

#[derive(Clone, Debug)]
pub(super) struct PendingRoll {
    pub(super) index: u64,
    pub(super) roll: u32,
    pub(super) decl: [u8; 32],
    pub(super) action: Action,
    pub(super) seat: PlayerId,
    pub(super) record: Record,
    /// When the declaration reached us: the game waits on each contributor's reveal from then
    /// (not from when the position began: the declarer's thinking is no one else's delay).
    pub(super) since: u64,
}

#[derive(Clone, Debug)]
pub(super) struct StoredReveal {
    pub(super) preimage: [u8; 32],
    pub(super) raw: Vec<u8>,
}

#[derive(Clone, Debug)]
pub(super) struct UnverifiedReveal {
    pub(super) roll: u32,
    pub(super) decl: [u8; 32],
    pub(super) preimage: [u8; 32],
    pub(super) next_tip: Option<[u8; 32]>,
    pub(super) raw: Vec<u8>,
    pub(super) link: Option<LinkId>,
}

impl Peer {
    /// Opens the roll of a declaration fixed at its position: makes it the pending roll, takes
    /// the reveals that came before it, and sends our own. False when the game cannot go on
    /// (our chain ran out: halted).
    pub(super) fn open_roll(&mut self, pending: PendingRoll, out: &mut Output) -> bool {
        let Some(r) = &mut self.run else { return false };
        let (index, roll, decl, tag) = (pending.index, pending.roll, pending.decl, r.tag);
        r.pending = Some(pending);
        // Reveals that arrived before the declaration.
        if let Some(buf) = r.future_reveals.remove(&index) {
            for (p, list) in buf {
                for u in list {
                    if r.reveals.get(&index).is_some_and(|m| m.contains_key(&p)) {
                        break;
                    }
                    Self::verify_reveal(r, p, index, u, out);
                }
            }
        }
        if let Some(m) = r.me.filter(|m| !r.excluded.contains(m)) {
            if !r.reveals.get(&index).is_some_and(|x| x.contains_key(&m)) {
                let Some((x, next_tip)) = self.own_element(roll) else {
                    self.halt(HaltReport::Internal("dice chain exhausted".into()), out);
                    return false;
                };
                let raw = Envelope::seal(
                    &self.key,
                    tag,
                    self.seq,
                    &Body::Reveal {
                        index,
                        roll,
                        decl,
                        preimage: x,
                        next_tip,
                    },
                );
                self.seq = self.seq.saturating_add(1);
                out.send.push((Dest::All, raw.clone()));
                let Some(r) = &mut self.run else { return false };
                // Our own reveal goes through the same bookkeeping as everyone's.
                let u = UnverifiedReveal {
                    roll,
                    decl,
                    preimage: x,
                    next_tip,
                    raw,
                    link: None,
                };
                Self::verify_reveal(r, m, index, u, out);
            }
        }
        self.progress();
        true
    }

    /// The seed of the pending roll once every contributor's reveal is in: the declaration and
    /// the contributors' pre-images in participant order.
    pub(super) fn roll_seed(r: &Run) -> Option<[u8; 32]> {
        let p = r.pending.as_ref()?;
        let have = r.reveals.get(&p.index)?;
        let mut b = b"orbis-roll".to_vec();
        b.extend_from_slice(&p.decl);
        for i in r.contributors() {
            b.extend_from_slice(&have.get(&i)?.preimage);
        }
        Some(sha256(&b))
    }

    /// Our pre-image for roll `k` (chain `j` covers rolls `j*len+1 ..= (j+1)*len`), and, in the
    /// last 16 rolls of a chain, the tip of the next one.
    pub(super) fn own_element(&mut self, k: u32) -> Option<([u8; 32], Option<[u8; 32]>)> {
        let len = self.chain.len();
        if k == 0 {
            return None;
        }
        let j = (k - 1) / len;
        let i = k - j * len;
        let x = self.own_chain(j).get(i)?;
        let next = (i.saturating_add(16) > len).then(|| self.own_chain(j + 1).tip());
        Some((x, next))
    }

    pub(super) fn own_chain(&mut self, j: u32) -> &HashChain {
        if j == 0 {
            return &self.chain;
        }
        self.later_chains.retain(|k, _| k + 1 >= j);
        let secret = match self.chain_for {
            Some(h) => self.chain_secret_of(&h),
            None => self.cfg.chain_secret,
        };
        let len = self.chain.len();
        self.later_chains.entry(j).or_insert_with(|| {
            let mut b = b"orbis-next-chain".to_vec();
            b.extend_from_slice(&secret);
            b.extend_from_slice(&j.to_le_bytes());
            HashChain::new(sha256(&b), len)
        })
    }

    pub(super) fn on_reveal(
        &mut self,
        sender: PeerKey,
        index: u64,
        u: UnverifiedReveal,
        out: &mut Output,
    ) {
        let Some(r) = &mut self.run else { return };
        let (link, roll) = (u.link, u.roll);
        let Some(p) = Self::from_participant(r, out, link, sender) else {
            return;
        };
        if let Some(s) = r.reveals.get(&index).and_then(|m| m.get(&p)) {
            if s.preimage != u.preimage {
                Self::reject(
                    out,
                    link,
                    Some(sender),
                    Violation::BadReveal { index, roll },
                );
            }
            return;
        }
        let pending_here = r.pending.as_ref().is_some_and(|x| x.index == index);
        if pending_here {
            if Self::verify_reveal(r, p, index, u, out) {
                self.progress();
                self.advance(out);
            }
            return;
        }
        if index < r.next_index() {
            // A reveal for a declaration other than the one our log holds there was made on
            // another version of that position: a seat that signed two versions sent them to
            // different peers (long-run seed 3000025), and the revealer, honest, opened the
            // roll of the one it was given. Not its fault; the two versions themselves are the
            // evidence, caught as equivocation by the entries.
            if r.log
                .get(index as usize)
                .is_none_or(|rec| rec.content != u.decl)
            {
                return;
            }
            // A participant voted out since: its reveal was on its way when the vote passed
            // (an honest peer whose connection dropped sends one in that race), and the roll
            // completed without it (one it was used in returned above). It opens nothing and
            // accuses nobody; a dropped participant can change nothing here (classic long-run
            // seed 4800059: its late reveal was refused as forged, and the transcript that
            // held it did not verify).
            if r.excluded.contains(&p) {
                return;
            }
            // Our declaration, but a position that was not a roll, or whose roll completed
            // without this value.
            Self::reject(
                out,
                link,
                Some(sender),
                Violation::BadReveal { index, roll },
            );
            return;
        }
        if index >= r.next_index() + MAX_AHEAD {
            Self::reject(out, link, Some(sender), Violation::TooFarAhead { index });
            return;
        }
        let list = r
            .future_reveals
            .entry(index)
            .or_default()
            .entry(p)
            .or_default();
        if list.len() < 4 {
            list.push(u);
        }
    }

    /// Checks a reveal against the pending roll and the sender's chain; stores it if good.
    pub(super) fn verify_reveal(
        r: &mut Run,
        p: u8,
        index: u64,
        u: UnverifiedReveal,
        out: &mut Output,
    ) -> bool {
        let Some(pend) = &r.pending else { return false };
        if u.decl != pend.decl {
            // A reveal for a declaration this position no longer has (a vote changed what the
            // position holds while the reveal was on its way) opens nothing here. It is not
            // refused: an honest peer sends one in that race, and a seat that signed two
            // declarations is caught as equivocation by its entries.
            return false;
        }
        let Some(&(mut last_k, mut last_x)) = r.chains.get(p as usize) else {
            return false;
        };
        let i = p as usize;
        let len = r.chain_lens.get(i).copied().unwrap_or(0);
        let end = r.chain_ends.get(i).copied().unwrap_or(0);
        let next = r.chain_next.get(i).copied().flatten();
        // Past the end of the current chain: continue on the announced next one, whose tip
        // stands for roll `end`.
        let mut switched = false;
        let mut ok = true;
        if u.roll > end {
            match next {
                Some(tip) if u.roll <= end.saturating_add(len) => {
                    (last_k, last_x) = (end, tip);
                    switched = true;
                }
                _ => ok = false,
            }
        }
        let ok = ok
            && pend.index == index
            && u.roll == pend.roll
            && u.roll > last_k
            && step_n(&u.preimage, u.roll - last_k) == last_x;
        let who = r.proposal.participants.get(p as usize).copied();
        if !ok {
            Self::reject(
                out,
                u.link,
                who,
                Violation::BadReveal {
                    index,
                    roll: u.roll,
                },
            );
            return false;
        }
        if let Some(c) = r.chains.get_mut(i) {
            *c = (u.roll, u.preimage);
        }
        if switched {
            if let Some(e) = r.chain_ends.get_mut(i) {
                *e = end.saturating_add(len);
            }
            if let Some(n) = r.chain_next.get_mut(i) {
                *n = None;
            }
        }
        if let (Some(t), Some(n)) = (u.next_tip, r.chain_next.get_mut(i)) {
            if n.is_none() {
                *n = Some(t);
            }
        }
        r.reveals.entry(index).or_default().insert(
            p,
            StoredReveal {
                preimage: u.preimage,
                raw: u.raw,
            },
        );
        true
    }
}
