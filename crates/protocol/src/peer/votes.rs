//! Votes: controls (drop a silent participant, hand a seat to a bot, let a returning player back
//! in) that take effect at one log position once every voter the control needs (every
//! contributor but its target; for a readmission, the target too) has signed it there.
//!
//! Owns `excluded`, `bot_seats`, `controls_here`, `readmits`, and our own view of requests to
//! come back (`left_present`, `asked`: [`Peer::readmit_requests`]); the table of votes itself,
//! `Run::votes`, is a [`VoteBook`] (`votebook`), which keeps its own bounds.
//!
//! Invariant: a control is applied at the position it was voted for and recorded in that
//! position's log head, so every peer (and every later rejoiner) applies it at the same point.
//! A voter has at most [`MAX_OPEN_VOTES`] open votes, not counting its seconds of readmissions
//! their target signed, of which a target has one per position (security review B8), so no
//! flood of requests keeps a voter from voting out a withholder.

use super::*;

/// Open (not yet applied) votes one peer may have at once: enough to drop every other
/// participant and hand every seat to a bot in a large room, far below what would slow us.
/// Seconding a readmission its target signed does not count (one per target and position).
pub const MAX_OPEN_VOTES: usize = 32;

/// Positions we keep incomplete votes about us for once the game has passed them (a vote that
/// completes there shows the others went on without us); older ones are forgotten.
pub const VOTE_MEMORY: u64 = 64;

/// At most how often (ms) a peer held at a position by its own vote resolves that position again
/// on a fork to compare with the heads voters signed later (`Peer::held_by_vote`), and `tick`
/// looks again whether that vote still holds it.
pub const PROBE_EVERY_MS: u64 = 50;

/// Whether `c` is about this peer (participant `mine`, key `me`): dropping it or taking its seat.
fn about(mine: Option<u8>, me: PeerKey, p: &SetupProposal, c: &Control) -> bool {
    match *c {
        Control::Drop { peer, .. } => peer == me,
        Control::SeatToBot { seat, .. } => {
            p.seats.get(seat as usize).map(|s| s.controller) == mine.map(Controller::Peer)
        }
        // Being let back in is never held against us.
        Control::Readmit { .. } => false,
        Control::Missed { who, .. } => mine.is_some_and(|m| who & (1u64 << m) != 0),
    }
}

impl Peer {
    /// Votes open at the position the game is on (not yet in effect): each control with the
    /// peers that voted for it and the peers whose votes it needs, for a tally in the UI.
    pub fn open_votes(&self) -> Vec<(Control, Vec<PeerKey>, Vec<PeerKey>)> {
        let Some(r) = &self.run else { return vec![] };
        let at = r.next_index();
        r.votes
            .at(at)
            .filter(|(_, v)| !v.applied && r.control_valid(&v.control))
            .map(|(_, v)| {
                (
                    v.control,
                    v.voters.keys().copied().collect(),
                    r.voters(&v.control),
                )
            })
            .collect()
    }

    /// Requests to be let back in, open at the position the game is on: each one's target signed
    /// it (one per target there). A page seconds one whose target left while away at once; one
    /// whose target was dropped while connected (`left_present`) waits for a person.
    pub fn readmit_requests(&self) -> Vec<ReadmitRequest> {
        let Some(r) = &self.run else { return vec![] };
        let at = r.next_index();
        r.votes
            .at(at)
            .filter(|(_, v)| !v.applied && r.control_valid(&v.control))
            .filter_map(|(_, v)| match v.control {
                Control::Readmit { peer, .. } if v.voters.contains_key(&peer) => {
                    Some(ReadmitRequest {
                        peer,
                        control: v.control,
                        left_present: r
                            .participant(&peer)
                            .is_some_and(|p| r.left_present.contains(&p)),
                        seconded: v.voters.contains_key(&self.me),
                    })
                }
                _ => None,
            })
            .filter(|q| q.peer != self.me)
            .collect()
    }

    /// Applies every control whose votes are complete at position `at`, where the game waits
    /// on its target. A control about us, while we play this position live and the game has
    /// waited on our part for less than `grace` (move or orders, reveal or cards) since it
    /// began to, or not at all (our part is in), is not applied: we halt instead, naming the
    /// voters (returned with their votes as evidence).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn apply_votes(
        r: &mut Run,
        at: u64,
        me: PeerKey,
        now: u64,
        grace: (u64, u64),
        missing: &BTreeSet<PeerKey>,
        out: &mut Output,
    ) -> Option<(HaltReport, Vec<Vec<u8>>)> {
        loop {
            let mut changed = false;
            let controls: Vec<Control> = r.votes.at(at).map(|(_, v)| v.control).collect();
            for c in controls {
                let Some(v) = r.votes.get(at, &c) else {
                    continue;
                };
                if v.applied || !r.control_valid(&c) {
                    continue;
                }
                let need = r.voters(&c);
                if need.is_empty() || !need.iter().all(|k| v.voters.contains_key(k)) {
                    continue;
                }
                // Complete, and a voter signed two versions of its vote (`on_vote`): it would
                // apply at different points for different peers. Both are the proof.
                if let Some((k, second)) = &v.conflict {
                    if let Some(first) = v.voters.get(k) {
                        let evidence = vec![first.clone(), second.clone()];
                        let report = Self::vote_equivocation(r, at, *k, (first, second));
                        return Some((report, evidence));
                    }
                }
                // A voter that had fixed a batch here voted about that batch: it applies to it,
                // once we fixed the same one (`held_by_vote` lets us fix it), never before.
                let unfixed = |d: &[u8; 32]| {
                    r.pending
                        .as_ref()
                        .is_none_or(|p| p.index != at || p.decl != *d)
                };
                if v.fixed.values().any(unfixed) {
                    continue;
                }
                let (pos, _, live) = r.since;
                // Our seat handed over where its part is not due at all: no honest page votes
                // that (`can_vote`), and no moment of this position makes it due, so the
                // voters are named rather than waited out (issue 59).
                if let Control::SeatToBot { seat, .. } = c {
                    if about(r.me, me, &r.proposal, &c)
                        && live
                        && pos == at
                        && !r.seat_due_here(seat)
                    {
                        let report = HaltReport::VotedOutWhilePlaying {
                            at,
                            voters: v.voters.keys().copied().collect(),
                        };
                        return Some((report, v.voters.values().cloned().collect()));
                    }
                }
                let Some(wait) = r.wait_on(&c) else {
                    continue; // not where the game waits on its target: never here
                };
                let allowed = match wait {
                    Wait::Turn | Wait::Orders => grace.0,
                    Wait::Reveal | Wait::Cards => grace.1,
                };
                // Our grace counts from when the game began waiting on our part, and never
                // runs while our part is in.
                let overdue = r
                    .awaits_me_since(wait)
                    .is_some_and(|t| now >= t.saturating_add(allowed));
                // A missed turn over days is decided by the others' clocks against the schedule:
                // we go with them, whatever ours says (it may be the one that is off).
                let days = matches!(c, Control::Missed { .. });
                if about(r.me, me, &r.proposal, &c) && live && pos == at && !overdue && !days {
                    let report = HaltReport::VotedOutWhilePlaying {
                        at,
                        voters: v.voters.keys().copied().collect(),
                    };
                    return Some((report, v.voters.values().cloned().collect()));
                }
                let mut ended = false;
                match c {
                    Control::Drop { peer, level } => {
                        if let Some(p) = r.participant(&peer) {
                            // Asked before `p` is out: does the deal go on without it, and how?
                            ended = !r.deal_survives(p);
                            let again = !ended && r.redeal_needed(p);
                            r.excluded.insert(p);
                            // A batch already fixed here holds its orders: they count here,
                            // and from the next round on they do not.
                            let fixed = r.pending.as_ref().is_some_and(|x| x.index == at);
                            let from = if fixed { at + 1 } else { at };
                            r.dropped_at.insert(p, (from, u64::MAX));
                            // What it equivocated on no longer counts: moot, for us as for
                            // the voters that dropped it with us.
                            r.deferred_halts.retain(|d| d.peer != peer || d.at < from);
                            r.asked.remove(&p);
                            // Its open votes here and later are no longer a voter's: a lagging
                            // peer or `verify`, replaying this drop first, would refuse them,
                            // so they leave what we resend and export (long-run seed 4100061:
                            // the dropped adversary's spam votes made a transcript fail).
                            r.votes.withdraw(&peer, at);
                            // Dropped while we heard from it: it may ask back, a person decides.
                            if wait == Wait::Cards || !missing.contains(&peer) {
                                r.left_present.insert(p);
                            } else {
                                r.left_present.remove(&p);
                            }
                            let mut seats = vec![];
                            for (i, s) in r.proposal.seats.iter().enumerate() {
                                if s.controller == Controller::Peer(p) {
                                    r.bot_seats.insert(i as PlayerId, level);
                                    seats.push(i as PlayerId);
                                }
                            }
                            if ended {
                                r.ended = Some((at, p));
                            } else if again {
                                // Its seats are a computer's now: their cards are drawn face up.
                                r.redeal();
                            } else {
                                r.deal_control(&seats, Some(p));
                            }
                        }
                    }
                    Control::SeatToBot { seat, level } => {
                        if let Some(Controller::Peer(p)) = r.controller(seat) {
                            r.asked.remove(&p);
                            if !r
                                .proposal
                                .participants
                                .get(p as usize)
                                .is_some_and(|k| missing.contains(k))
                            {
                                r.left_present.insert(p);
                            }
                        }
                        r.bot_seats.insert(seat, level);
                        r.deal_control(&[seat], None);
                    }
                    Control::Missed { who, .. } => r.apply_missed(at, who),
                    Control::Readmit { peer, tip } => {
                        if let Some(p) = r.participant(&peer) {
                            r.asked.remove(&p);
                            r.left_present.remove(&p);
                            if !matches!(r.state, Game::Classic(_)) {
                                r.readmits.insert(p, (at, tip));
                            } else {
                                r.readmit(p, tip);
                            }
                        }
                    }
                }
                r.votes.mark_applied(at, &c);
                r.controls_here.push(c);
                if r.pending.as_ref().is_some_and(|p| p.index == at) {
                    r.voted_rolling.insert(at);
                }
                out.events
                    .push(ProtocolEvent::ControlApplied { at, control: c });
                if let (true, Control::Drop { peer, .. }) = (ended, c) {
                    // Nothing more applies here: the game is over.
                    out.events.push(ProtocolEvent::GameEnded { at, left: peer });
                    return None;
                }
                changed = true;
            }
            if !changed {
                return None;
            }
        }
    }

    /// The report on `voter`, which signed two versions (`first`, `second`) of one vote at `at`.
    fn vote_equivocation(
        r: &Run,
        at: u64,
        voter: PeerKey,
        (first, second): (&[u8], &[u8]),
    ) -> HaltReport {
        let (agreed_index, agreed_head) = Self::agreed_at(r, at);
        HaltReport::Equivocation {
            peer: voter,
            index: at,
            first: sha256(first),
            second: sha256(second),
            agreed_index,
            agreed_head,
        }
    }

    /// Forgets votes at passed positions that never took effect: they can no longer matter,
    /// except those about us (they tell us we were dropped), kept for [`VOTE_MEMORY`]
    /// positions. Called at every position, so the table (and the transcript) stays small
    /// however many votes a voter leaves behind (security review C10).
    pub(super) fn prune_votes(r: &mut Run, me: PeerKey) {
        let next = r.next_index();
        let (mine, proposal) = (r.me, &r.proposal);
        r.votes
            .prune(next, VOTE_MEMORY, |c| about(mine, me, proposal, c));
    }

    /// True while `me` has voted for a control at `at` that has not passed but still can: a
    /// vote fails for good once a required voter has shown it moved past `at` without voting.
    pub(super) fn bound(r: &Run, at: u64, me: &PeerKey) -> bool {
        Self::bound_unless(r, at, me, |k| moved_past(r, k, at))
    }

    /// True while `me` has voted for a control at `at` that has not passed and still can: no
    /// required voter that has not voted is `gone` (has shown it resolved `at` without it).
    fn bound_unless(r: &Run, at: u64, me: &PeerKey, gone: impl Fn(&PeerKey) -> bool) -> bool {
        ours_open(r, at, me).any(|v| {
            r.voters(&v.control)
                .iter()
                .filter(|k| !v.voters.contains_key(k))
                .all(|k| !gone(k))
                && r.wait_on(&v.control).is_some()
        })
    }

    /// Whether our open vote at `at` holds us there (we resolve `at` only with its control).
    ///
    /// A message showing that a voter that has not voted moved past `at` is not enough to let
    /// us go: it can overtake that voter's vote (relayed by another peer, or reordered), and
    /// the voter may have moved past *with* the control (long-run economy seed 5500343: all
    /// three voters voted, one of them let go on a message of another's from the next
    /// position, resolved the position with the late target's orders, and the game split; the
    /// same race in a classic game: `a_voters_later_message_that_overtakes_its_vote_releases_no_one`
    /// in `tests/votes.rs`). Only a log head such a voter signed for a later position
    /// that is the head we reach by resolving `at` without the control shows the vote failed:
    /// in a checkpoint, in the `Sync` it sends while it waits, in a classic entry (which
    /// carries the head before it), or a dice reveal naming a later declaration (whose content
    /// binds that head). We learn those heads by resolving `at` on a fork of this peer
    /// (`probe_heads`). In a classic game a later message known for [`Peer::overtake_ms`] lets
    /// us go too (`voters_past_long_enough`), where no head proof may ever come.
    pub(super) fn held_by_vote(&mut self, at: u64) -> bool {
        let Some(r) = &self.run else { return false };
        if !Self::bound_unless(r, at, &self.me, |_| false) {
            return false;
        }
        if self.quiet {
            // Catching up over days: looked at once the store is read (no fork per message).
            return true;
        }
        let classic = matches!(r.state, Game::Classic(_));
        // Only the voters our open votes still wait for can let us go: what anyone else shows
        // is not looked at (nor does it make us fork).
        let deciders = awaited_voters(r, at, &self.me);
        // What each of them has shown of its history past `at`: its checkpoints, and the head
        // its latest `Sync` carried (sent again while it waits, so a lost checkpoint is made
        // up; `on_sync` advances us when that head is new); in a classic game, the head before
        // each entry it signed.
        let mut shown: Vec<(PeerKey, u64, [u8; 32])> = r
            .their_checkpoints
            .range(at + 1..)
            .flat_map(|(i, l)| l.iter().map(move |(k, _, h, _)| (*k, *i, *h)))
            .collect();
        shown.extend(r.sync_heads.iter().map(|(k, (i, h))| (*k, *i, *h)));
        if classic {
            shown.extend(
                r.candidates
                    .range(at + 1..)
                    .flat_map(|(i, l)| l.iter().map(move |c| (c.signer, *i, c.entry.prev_hash))),
            );
        }
        shown.retain(|(k, i, _)| *i > at && deciders.contains(k));
        let reveals = |from: u64| {
            r.future_reveals
                .range(from..)
                .flat_map(|(i, m)| m.iter().map(move |(p, l)| (*i, *p, l)))
                .filter_map(|(i, p, l)| Some((*r.proposal.participants.get(p as usize)?, i, l)))
                .filter(|(k, _, _)| deciders.contains(k))
                .flat_map(|(k, i, l)| l.iter().map(move |u| (k, i, u.decl)))
                .collect::<Vec<_>>()
        };
        // A classic voter's reveal for a later roll names that roll's declaration, whose
        // content binds the head before it (not one at `at`: a computer's move there, after a
        // drop, can be the very move the late target sent).
        //
        // At an economy position whose batch rolls dice, a voter that resolved it without our
        // drop shows no head past it: it waits for every contributor's reveal, ours included,
        // and we, held, never fix the batch that reveal is for. What it shows instead is its
        // own reveal, signed for the batch it fixed (`decl`, kept as a reveal ahead of us).
        // That batch holds the orders of every participant required there, so when it is the
        // batch we fix without our votes, and each of those votes drops a required
        // participant, the voter resolved `at` without them (before, it waited on us and we on
        // it until it voted us out).
        let revealed: Vec<(PeerKey, u64, [u8; 32])> = if classic {
            reveals(at + 1)
        } else if Self::drops_required_only(r, at, &self.me) {
            reveals(at)
                .into_iter()
                .filter(|(_, i, _)| *i == at)
                .collect()
        } else {
            vec![]
        };
        // The same, said by a voter in its vote (`Body::Vote::fixed`), which may reach us before
        // its reveal (resent or relayed out of order): that vote waits for the batch it names
        // (`apply_votes`), so we fix that batch when it is the one we fix without our votes.
        let voted_fixed: Vec<[u8; 32]> = if Self::drops_required_only(r, at, &self.me) {
            ours_open(r, at, &self.me)
                .flat_map(|v| {
                    v.fixed
                        .iter()
                        .filter(|(k, _)| **k != self.me)
                        .map(|(_, d)| *d)
                })
                .collect()
        } else {
            vec![]
        };
        // In a classic game a voter's later message, kept long enough, lets us go too (the old
        // rule, after a delay): a head proof is not always within reach there (a voter that
        // went on past our window of positions, or one that waits on a roll we are held
        // before; independent review of this rule), and a vote a later message overtook comes
        // within that delay unless a peer holds it back on purpose.
        let waited = if classic {
            self.voters_past_long_enough(at, &deciders)
        } else {
            BTreeSet::new()
        };
        if shown.is_empty() && revealed.is_empty() && voted_fixed.is_empty() && waited.is_empty() {
            return true;
        }
        let look = self.probe_heads(at);
        if look.decls.first().is_some_and(|d| voted_fixed.contains(d)) {
            return false;
        }
        let Some(r) = &self.run else { return false };
        let after = |i: &u64, list: &[[u8; 32]]| {
            usize::try_from(i - at)
                .ok()
                .and_then(|j| list.get(j).copied())
        };
        Self::bound_unless(r, at, &self.me, |k| {
            waited.contains(k)
                || shown
                    .iter()
                    .any(|(x, i, h)| x == k && after(&(i - 1), &look.heads) == Some(*h))
                || revealed
                    .iter()
                    .any(|(x, i, d)| x == k && after(i, &look.decls) == Some(*d))
        })
    }

    /// The voters of `deciders` that have shown they moved past `at` (any later message) at
    /// least [`Peer::overtake_ms`] ago, by our clock: when we first saw each past `at` is kept
    /// while our vote holds us there (`Peer::past_seen`).
    fn voters_past_long_enough(
        &mut self,
        at: u64,
        deciders: &BTreeSet<PeerKey>,
    ) -> BTreeSet<PeerKey> {
        let Some(r) = &self.run else {
            return BTreeSet::new();
        };
        let now = self.now;
        if self.past_seen.as_ref().is_none_or(|(a, _)| *a != at) {
            self.past_seen = Some((at, BTreeMap::new()));
        }
        let wait = self.overtake_ms();
        let Some((_, seen)) = &mut self.past_seen else {
            return BTreeSet::new();
        };
        deciders
            .iter()
            .filter(|k| moved_past(r, k, at))
            .filter(|k| now >= seen.entry(**k).or_insert(now).saturating_add(wait))
            .copied()
            .collect()
    }

    /// How long a classic voter's later message must have been known before it lets us go
    /// without a head proof: two resend periods (a vote that message overtook comes within
    /// them, resent if lost once), and well within the grace for a dice reveal (half of
    /// `missing_ms`), so that the others never vote us out for being held.
    pub(super) fn overtake_ms(&self) -> u64 {
        (2 * self.cfg.resend_ms).min(self.cfg.missing_ms / 4)
    }

    /// Whether every open vote of ours at `at` (the economy position we are on, its batch not
    /// yet fixed) drops a participant whose orders that batch holds: then the batch fixed
    /// without our votes differs from any batch fixed with one of them.
    fn drops_required_only(r: &Run, at: u64, me: &PeerKey) -> bool {
        if !matches!(r.state, Game::Economy(_)) || at != r.next_index() || r.pending.is_some() {
            return false;
        }
        let required = r.orders_required();
        let drops = |v: &VoteSet| match v.control {
            Control::Drop { peer, .. } => {
                r.participant(&peer).is_some_and(|p| required.contains(&p))
            }
            _ => false,
        };
        ours_open(r, at, me).all(drops)
    }

    /// The log heads after position `at` (`at + 1` entries, then more) with `at` resolved
    /// without our open votes there: a fork of this peer, told to ignore them, advances as far
    /// as it can. The fork is made again only once a new message has come (a position resolves
    /// only on something new), and at most once per [`PROBE_EVERY_MS`], so a stream of
    /// messages while we are held cannot fork us each time; `tick` looks again after that.
    fn probe_heads(&mut self, at: u64) -> Probed {
        // What can change the fork's outcome: a message taken (ours through `local` too), or
        // one we signed outside it (a reveal made again after a reload moves `seq` too).
        let checks = self.signature_checks.wrapping_add(self.seq);
        if let Some(p) = &self.probed {
            // Over days a visit's clock stands still: only a new message makes a new probe.
            let recent = !self.cfg.stored && self.now < p.when.saturating_add(PROBE_EVERY_MS);
            if p.at == at && (p.checks == checks || recent) {
                return p.clone();
            }
        }
        let mut fork = self.clone();
        fork.probing = true;
        fork.probed = None;
        fork.advance(&mut Output::default());
        let (heads, decls) = fork.run.as_ref().map_or((vec![], vec![]), |r| {
            let heads = r.heads.get(at as usize + 1..).map_or(vec![], <[_]>::to_vec);
            // What each position from `at` on declared (a reveal for its roll is signed for
            // it), as far as the fork went: a roll still pending ends the list.
            let mut decls = vec![];
            for i in at.. {
                match (&r.pending, r.log.get(i as usize)) {
                    (Some(p), _) if p.index == i => {
                        decls.push(p.decl);
                        break;
                    }
                    (_, Some(rec)) => decls.push(rec.content),
                    _ => break,
                }
            }
            (heads, decls)
        });
        let look = Probed {
            at,
            when: self.now,
            checks,
            heads,
            decls,
        };
        self.probed = Some(look.clone());
        look
    }

    /// Whether `me` holds an open vote at `at` to drop `target` that can still take effect
    /// there (the game waits on `target`).
    pub(super) fn votes_to_drop(r: &Run, at: u64, me: &PeerKey, target: &PeerKey) -> bool {
        ours_open(r, at, me).any(|v| {
            matches!(v.control, Control::Drop { peer, .. } if peer == *target)
                && r.wait_on(&v.control).is_some()
        })
    }

    /// Whether we hold an open vote at the position the game is on (then
    /// `tick` looks again whether it can let us go: what releases us may have come inside one
    /// probe period of the last look).
    pub(super) fn holds_open_vote(&self) -> bool {
        self.run
            .as_ref()
            .is_some_and(|r| Self::bound_unless(r, r.next_index(), &self.me, |_| false))
    }

    /// Whom our open votes at `at` still wait for (the voters that have neither voted nor
    /// moved past `at`): while we are [`Peer::bound`], they decide whether the game goes on
    /// with or without the vote's target.
    pub(super) fn bound_on(r: &Run, at: u64, me: &PeerKey) -> Vec<PeerKey> {
        awaited_voters(r, at, me)
            .into_iter()
            .filter(|k| !moved_past(r, k, at))
            .collect()
    }

    pub(super) fn on_vote(
        &mut self,
        link: Option<LinkId>,
        sender: PeerKey,
        (at, fixed): (u64, Option<[u8; 32]>),
        control: Control,
        raw: &[u8],
        out: &mut Output,
    ) {
        let me = self.me;
        let Some(r) = &mut self.run else { return };
        if Self::from_participant(r, out, link, sender).is_none() {
            return;
        }
        // Only an economy batch is fixed before its roll with votes still to come.
        let fixed = fixed.filter(|_| matches!(r.state, Game::Economy(_)));
        // One vote per voter, control and position: two signed copies naming different batches
        // would apply before the batch for one peer and after it for another (independent
        // review of version 9: the honest voters split, and one of them was voted out). The
        // second copy is kept with the set; the two are proof of equivocation once the control
        // takes effect (here, if it has; else in `apply_votes` when it completes). A copy of a
        // vote that never completes (a spam vote signed twice) harms no one and halts no one
        // (adversary seeds 7400468, 7410249, 7410635: halting on it, a peer stopped at a
        // position the others passed, and they voted that honest peer out).
        if let Some(first) = r.votes.conflicting(at, &control, &sender, fixed) {
            let first = first.to_vec();
            if r.votes.get(at, &control).is_some_and(|v| v.applied) {
                let report = Self::vote_equivocation(r, at, sender, (&first, raw));
                let was_running = self.halted.is_none();
                self.halt_with(report, vec![first, raw.to_vec()], out);
                // The proof goes before the messages of the position we were on in our
                // transcript, as it came before we resolved it.
                if let (true, Some(r)) = (was_running, &mut self.run) {
                    r.halted_on_proof = true;
                }
            } else {
                r.votes.note_conflict(at, &control, sender, raw);
                self.advance(out);
            }
            return;
        }
        if !r.voters(&control).contains(&sender) {
            Self::reject(out, link, Some(sender), Violation::NotAVoter);
            return;
        }
        r.note_reached(sender, at);
        let next = r.next_index();
        Self::prune_votes(r, me);
        if at.saturating_add(VOTE_MEMORY) < next {
            return; // long passed: it can no longer matter
        }
        if at < next {
            // A position we already passed. Only a vote about us still matters: if it completes
            // there, the others went on without us and our history is no longer theirs.
            if !about(r.me, me, &r.proposal, &control) {
                return;
            }
            r.votes.add(at, control, (sender, fixed), raw);
            let Some(v) = r.votes.get(at, &control) else {
                return;
            };
            let (have, applied) = (v.voters.clone(), v.applied);
            let complete = r.voters(&control).iter().all(|k| have.contains_key(k));
            if complete && !applied {
                // We played that position (we are past it); the voters went on without us. We
                // keep our history, name them and stop: they cannot hand our seat over.
                let report = HaltReport::VotedOutWhilePlaying {
                    at,
                    voters: have.keys().copied().collect(),
                };
                self.halt_with(report, have.into_values().collect(), out);
            }
            return;
        }
        if !r.control_valid(&control) {
            return; // already in effect (a late copy), or about no one: nothing to count
        }
        if r.votes.has_voted(at, &control, &sender) {
            return; // the same vote again (under a new sequence number): not progress
        }
        if let Control::Readmit { peer, .. } = control {
            // One open request per target at a position (security review B8): a second,
            // different one it signs there is refused (an honest page asks once per position).
            if peer == sender && r.votes.other_request(at, &control, &peer) {
                Self::reject(out, link, Some(sender), Violation::TooManyVotes);
                return;
            }
        }
        // Seconding a request its target signed does not count (there is one per target and
        // position): a flood of requests cannot use up a voter's quota (security review B8).
        let free = matches!(control, Control::Readmit { peer, .. }
            if peer == sender || r.votes.has_voted(at, &control, &peer));
        if r.votes.open_votes_of(&sender) >= MAX_OPEN_VOTES && !free {
            Self::reject(out, link, Some(sender), Violation::TooManyVotes);
            return;
        }
        r.votes.add(at, control, (sender, fixed), raw);
        if let Control::Readmit { peer, .. } = control {
            if peer == sender && at == next {
                if let Some(p) = r.participant(&peer).filter(|p| r.asked.insert(*p)) {
                    out.events.push(ProtocolEvent::ReadmitRequested {
                        peer,
                        left_present: r.left_present.contains(&p),
                    });
                }
            }
        }
        self.progress();
        self.advance(out);
    }

    /// Readmissions of orders games decided at an earlier phase take effect once that phase is
    /// resolved (called at every position, before its votes).
    pub(super) fn readmit_due(r: &mut Run, at: u64) {
        let due: Vec<(u8, [u8; 32])> = r
            .readmits
            .iter()
            .filter(|(_, (pos, _))| *pos < at)
            .map(|(p, (_, tip))| (*p, *tip))
            .collect();
        for (p, tip) in due {
            r.readmits.remove(&p);
            r.readmit(p, tip);
        }
    }

    /// Whether this peer is out of the game it joined: dropped by vote, or a seat of its own
    /// played by a bot. [`Peer::ask_back`] asks the others to hand it back.
    pub fn left_out(&self) -> bool {
        let Some(r) = &self.run else { return false };
        let Some(m) = r.me else { return false };
        !r.over() && (r.excluded.contains(&m) || r.owns_a_bot(m)) && !r.readmits.contains_key(&m)
    }

    /// Asks to be let back in at the position the game is on (see [`Control::Readmit`]): our
    /// vote, carrying the tip of our dice chain for the next roll. The others' votes (the
    /// browser gives them when it sees the request) complete it; it takes effect where the game
    /// next waits on someone else. Call again after the game moved on without it.
    pub fn ask_back(&mut self) -> Result<Output, CommandError> {
        let r = self.running(true)?;
        let Some(m) = r.me else {
            return Err(CommandError::NotAVoter);
        };
        let len = r.chain_lens.get(m as usize).copied().unwrap_or(0).max(1);
        let j = r.roll_count / len;
        let tip = self.own_chain(j).tip();
        self.vote(Control::Readmit { peer: self.me, tip })
    }

    /// Whether a vote of ours for `control` would count at the position we are on: we are one
    /// of its voters, it still makes sense, and the game waits here on its target (for cards:
    /// we see the target withhold them). A page offers the vote only then, since a vote cast
    /// where the game does not wait on its target never applies (security review B7).
    pub fn can_vote(&self, control: &Control) -> bool {
        self.running(true)
            .is_ok_and(|r| r.wait_on(control).is_some() && self.may_vote(r, control))
    }

    /// Whether we may vote for `control` at all: we are one of its voters and it still makes
    /// sense; and our page votes a participant out for withholding cards only if it sees that
    /// participant withhold (security review B7): the blocked player's report, or a key,
    /// escrow or shuffle that never came.
    fn may_vote(&self, r: &Run, control: &Control) -> bool {
        if !r.control_valid(control) || !r.voters(control).contains(&self.me) {
            return false;
        }
        match (r.wait_on(control), control) {
            (Some(Wait::Cards), Control::Drop { peer, .. }) => self.waiting_on().contains(peer),
            _ => true,
        }
    }

    /// The vote to drop `peer` a player's click signs (and whose tally the page shows): one we
    /// signed already; else an open vote to drop it, as it stands (the one most voters signed,
    /// on a tie the one at `level`), whatever computer level it names; else a new one at
    /// `level`. Votes at two levels are two controls, and each would wait for ever for the
    /// voters that signed the other. The page says which level a vote names.
    pub fn drop_vote(&self, peer: PeerKey, level: BotLevel) -> Control {
        let me = self.me;
        self.open_votes()
            .into_iter()
            .filter_map(|(c, voters, _)| match c {
                Control::Drop { peer: p, level: l } if p == peer => {
                    Some((voters.contains(&me), voters.len(), l == level, c))
                }
                _ => None,
            })
            .max_by_key(|&(ours, n, same, _)| (ours, n, same))
            .map_or(Control::Drop { peer, level }, |(.., c)| c)
    }

    /// Votes for a control at the position the game is stuck on (typically after
    /// [`ProtocolEvent::PeerMissing`]). It takes effect when every other contributing
    /// participant has voted the same.
    pub fn vote(&mut self, control: Control) -> Result<Output, CommandError> {
        let r = self.running(true)?;
        if !self.may_vote(r, &control) {
            return Err(CommandError::NotAVoter);
        }
        let at = r.next_index();
        if r.votes.has_voted(at, &control, &self.me) {
            return Ok(Output::default());
        }
        // Cast at an economy batch we fixed (its roll waits): the vote says which, so that it
        // applies to that batch everywhere (`apply_votes`).
        let fixed = match (&r.state, &r.pending) {
            (Game::Economy(_), Some(p)) if p.index == at => Some(p.decl),
            _ => None,
        };
        // Signed before a reload, and not given back yet: the same vote, naming what it named
        // (two versions naming different batches are proof of equivocation).
        let fixed = self.cast_before(at, &control).unwrap_or(fixed);
        let raw = self.seal(&Body::Vote { at, control, fixed });
        Ok(self.local(raw))
    }
}

/// Our votes at `at` that have not taken effect and still make sense.
fn ours_open<'a>(r: &'a Run, at: u64, me: &'a PeerKey) -> impl Iterator<Item = &'a VoteSet> {
    r.votes
        .at(at)
        .map(|(_, v)| v)
        .filter(move |v| !v.applied && v.voters.contains_key(me) && r.control_valid(&v.control))
}

/// The required voters of our open votes at `at` that have not voted there (in key order).
fn awaited_voters(r: &Run, at: u64, me: &PeerKey) -> BTreeSet<PeerKey> {
    ours_open(r, at, me)
        .flat_map(|v| {
            r.voters(&v.control)
                .into_iter()
                .filter(|k| !v.voters.contains_key(k))
        })
        .collect()
}

/// Whether `k` has shown it moved past position `at`.
fn moved_past(r: &Run, k: &PeerKey, at: u64) -> bool {
    r.reached.get(k).is_some_and(|&x| x > at)
}

/// What a fork of this peer found resolving a position without our open votes there
/// (`Peer::probe_heads`).
#[derive(Clone, Debug)]
pub(super) struct Probed {
    /// The position, when we forked, and `signature_checks` + `seq` then.
    at: u64,
    when: u64,
    checks: u64,
    /// The log heads after `at` (`at + 1` entries, then more).
    heads: Vec<[u8; 32]>,
    /// What the fork declared at `at` and after (the batch it fixed, or the entry it applied:
    /// what a reveal for its roll is signed for), as far as it went.
    decls: Vec<[u8; 32]>,
}
