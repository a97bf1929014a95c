//! Games over days ([`Config::stored`]): nobody is online together; each visit is a fresh peer
//! fed every stored message ([`Peer::visit`], or `handle(STORE_LINK, ..)` then
//! [`Peer::caught_up`]), which catches up without acting, then acts once: opens its seed share
//! or its orders when they are due, seconds a returning player, votes a missed turn when its own
//! clock is past a deadline + grace, signs one checkpoint. Also missed turns themselves
//! ([`Control::Missed`]: an excuse spent, or civil disorder) and our own orders sealed to
//! ourselves in the store (`Body::OrdersKept`), so any later visit can open them.
//!
//! Owns `Run::days` ([`DaysRun`]) and `Peer::quiet`. Invariants: while catching up (`quiet`)
//! we sign nothing, so what a visit does depends on the whole store, never on the order it is
//! read in (a reveal of ours made halfway would resolve a round the votes further on decide);
//! a missed turn is decided by a binding vote of every other contributor, so no single clock
//! cuts anyone short and no peer resolves a round both ways; what it does (excuse or civil
//! disorder) is a function of the log.

use super::*;
use crate::wire::Clock;

/// Sealed copies of our own orders kept per round (a modified client of ours could sign more;
/// an honest one signs one per device that commits, and only one device's commitment counts).
pub(super) const KEPT_PER_ROUND: usize = 4;

/// Rounds before the one under way whose messages of ours a memento carries (a visit that
/// resolved a round with its reveal may have committed the next one's empty orders too).
pub const MEMENTO_ROUNDS: u64 = 2;

/// The level of the computer that plays a seat in civil disorder.
pub const DISORDER_LEVEL: BotLevel = BotLevel::Normal;

/// A sealed copy of our orders: the sealed bytes, and the signed message that carried them.
pub(super) type Kept = (Vec<u8>, Vec<u8>);

/// Per game over days: what the schedule and missed turns need of the log.
#[derive(Clone, Debug, Default)]
pub(super) struct DaysRun {
    /// The phase of each resolved round.
    pub(super) phases: Vec<Phase>,
    /// Excuses each participant has spent.
    pub(super) spent: BTreeMap<u8, u8>,
    /// (round, participant): its turn missed with no excuse left; its powers hold there.
    pub(super) disorder: BTreeSet<(u64, u8)>,
    /// Missed-turn controls that passed at each resolved round (each extends it once).
    pub(super) extended: BTreeMap<u64, u8>,
    /// Our own orders sealed to ourselves, per round (from the store): the sealed bytes and
    /// the signed message (a memento carries it, to publish again if the store lost it). Up to
    /// [`KEPT_PER_ROUND`] different ones: two devices' copies may both be stored, and only the
    /// one that opens our commitment is of use.
    pub(super) kept: BTreeMap<u32, Vec<Kept>>,
    /// Positions we signed a checkpoint for (in this visit or an earlier one).
    pub(super) checkpointed: BTreeSet<u64>,
}

impl DaysRun {
    /// Missed-turn controls applied at the position under way (in `controls_here`).
    pub(super) fn missed_here(&self, here: &[Control]) -> u8 {
        here.iter()
            .filter(|c| matches!(c, Control::Missed { .. }))
            .count() as u8
    }
}

/// The participants a `Missed` control names (bit `i`: participant `i`).
pub fn missed_indices(who: u64) -> Vec<u8> {
    (0..64u8).filter(|i| who & (1 << i) != 0).collect()
}

impl Run {
    /// Participants of `who` that are participants of this game.
    pub(super) fn missed_members(&self, who: u64) -> Vec<u8> {
        let n = self.proposal.participants.len() as u8;
        missed_indices(who).into_iter().filter(|i| *i < n).collect()
    }

    /// Whether a missed-turn vote for `who` can apply where we are: an orders game with a clock,
    /// not over, each of them a participant the round waits for.
    pub(super) fn missed_here(&self, who: u64) -> bool {
        let m = self.missed_members(who);
        let req = self.orders_required();
        self.proposal.clock.is_some()
            && matches!(self.state, Game::Orders(_))
            && !self.over()
            && !m.is_empty()
            && missed_indices(who).len() == m.len()
            && m.iter().all(|i| req.contains(i))
    }

    /// Whether `Missed { who, nth }` still makes sense: its participants are contributors and it
    /// is the next one at this position (an older `nth` has passed already).
    pub(super) fn missed_valid(&self, who: u64, nth: u8) -> bool {
        let m = self.missed_members(who);
        !m.is_empty()
            && m.iter().all(|p| !self.excluded.contains(p))
            && nth == self.days.missed_here(&self.controls_here)
            && self.proposal.clock.is_some()
    }

    /// A missed turn passed at `at` for the participants of `who`: each spends an excuse (the
    /// phase is extended, it may still submit), or, with none left, is in civil disorder: the
    /// round resolves without its orders (its powers hold, retreats disband, builds are waived)
    /// and a computer plays its seats from the next round on, until it is readmitted.
    pub(super) fn apply_missed(&mut self, at: u64, who: u64) {
        let Some(clock) = self.proposal.clock else {
            return;
        };
        for p in self.missed_members(who) {
            let spent = self.days.spent.entry(p).or_insert(0);
            if *spent < clock.excuses {
                *spent += 1;
                continue;
            }
            self.excluded.insert(p);
            self.dropped_at.insert(p, (at, u64::MAX));
            if let Some(peer) = self.proposal.participants.get(p as usize).copied() {
                self.deferred_halts.retain(|d| d.peer != peer || d.at < at);
                self.votes.withdraw(&peer, at);
            }
            self.asked.remove(&p);
            // Away, by definition: its request to come back may be seconded at once.
            self.left_present.remove(&p);
            self.days.disorder.insert((at, p));
            for (i, s) in self.proposal.seats.iter().enumerate() {
                if s.controller == Controller::Peer(p) {
                    self.bot_seats.insert(i as PlayerId, DISORDER_LEVEL);
                }
            }
        }
    }

    /// Whether `power` is in civil disorder at round `at`: it holds there, ordered by nobody.
    pub(super) fn in_disorder(&self, at: u64, power: PowerId) -> bool {
        self.days.disorder.iter().any(|&(r, p)| {
            r == at
                && self.proposal.seats.iter().enumerate().any(|(i, s)| {
                    s.controller == Controller::Peer(p) && self.powers.get(i) == Some(&power)
                })
        })
    }

    /// Bookkeeping of a round resolved at `at` in phase `kind` (before `controls_here` is
    /// taken into the log).
    pub(super) fn days_resolved(&mut self, at: u64, kind: Phase) {
        if self.proposal.clock.is_none() {
            return;
        }
        let n = self.days.missed_here(&self.controls_here);
        if n > 0 {
            self.days.extended.insert(at, n);
        }
        if self.days.phases.len() as u64 == at {
            self.days.phases.push(kind);
        }
    }
}

/// Where a stored message is read in a visit ([`Peer::visit`]): by the log position it concerns
/// (the lobby and anything else first), and at one position votes, then commitments, sealed
/// copies, reveals and checkpoints. Only the order of reading: every message is still checked
/// when handled.
fn read_order(raw: &[u8]) -> (u64, u8) {
    match Envelope::decode_verified(raw).map(|(_, b)| b) {
        Some(Body::Vote { at, .. }) => (at, 1),
        Some(Body::OrdersCommit { round, .. }) => (u64::from(round), 2),
        Some(Body::OrdersKept { round, .. }) => (u64::from(round), 3),
        Some(Body::OrdersReveal { round, .. }) => (u64::from(round), 4),
        Some(Body::Checkpoint { index, .. }) => (index, 5),
        _ => (0, 0),
    }
}

/// Whether `peer` is one a missed-turn control that passed at `at` names (over days): a visit of
/// its own that read a store without the votes may have resolved `at` without the control, and
/// the checkpoint it signed there says so; it no longer counts (`compare_checkpoint`).
pub(super) fn named_missed(r: &Run, at: u64, peer: &PeerKey) -> bool {
    let Some(p) = r.participant(peer) else {
        return false;
    };
    r.proposal.clock.is_some()
        && r.log.get(at as usize).is_some_and(|rec| {
            rec.controls.iter().any(|c| {
                matches!(c, Control::Missed { who, .. }
                    if 1u64.checked_shl(u32::from(p)).is_some_and(|b| who & b != 0))
            })
        })
}

/// The key our own orders are sealed under in the store, and the context they are sealed in.
fn kept_context(tag: &[u8; 16], round: u32) -> Vec<u8> {
    let mut b = b"orbis-days-kept".to_vec();
    b.extend_from_slice(tag);
    b.extend_from_slice(&round.to_le_bytes());
    b
}

impl Peer {
    /// Our orders and salt for `round` from a sealed copy of ours, if it opens.
    fn open_kept(&self, round: u32, sealed: &[u8]) -> Option<(Vec<u8>, [u8; 32])> {
        let tag = self.run.as_ref()?.tag;
        let secret = self.key.to_scalar().to_bytes();
        let me = self.me;
        orbis_deal::sealed::open(&kept_context(&tag, round), &me.0, &me.0, &secret, sealed)
            .and_then(|b| codec::decode::<(Vec<u8>, [u8; 32])>(&b).ok())
    }

    /// Stored mode: our orders for `round` sealed to our own key (`Body::OrdersKept`), to go
    /// beside the commitment.
    pub(super) fn seal_kept(
        &mut self,
        round: u32,
        payload: &[u8],
        salt: &[u8; 32],
    ) -> Option<Vec<u8>> {
        let tag = self.run.as_ref()?.tag;
        let plain = codec::encode(&(payload, salt));
        let mut witness = self.cfg.identity_secret.to_vec();
        witness.extend_from_slice(b"kept");
        witness.extend_from_slice(&round.to_le_bytes());
        let sealed = orbis_deal::sealed::seal(
            &kept_context(&tag, round),
            &self.me.0,
            &self.me.0,
            &witness,
            &plain,
        )?;
        Some(self.seal(&Body::OrdersKept { round, sealed }))
    }

    /// A sealed copy of orders: ours is kept (a later visit opens it); another's means nothing
    /// to us and is not kept.
    pub(super) fn on_orders_kept(
        &mut self,
        sender: PeerKey,
        round: u32,
        sealed: Vec<u8>,
        raw: &[u8],
    ) {
        let me = self.me;
        match &mut self.run {
            Some(r) if sender == me && sealed.len() <= MAX_ORDERS_BYTES as usize + 256 => {
                let list = r.days.kept.entry(round).or_default();
                if list.len() < KEPT_PER_ROUND && !list.iter().any(|(s, _)| *s == sealed) {
                    list.push((sealed, raw.to_vec()));
                }
            }
            _ => self.unkept = true,
        }
    }

    /// Our orders for the round under way, from their sealed copy or our own reveal, when the
    /// store holds them and we do not (a fresh visit, another device): they are taken only if
    /// they open our commitment; with no commitment of ours in the store (a relay lost it),
    /// they are committed again, the same payload and salt, so the same commitment.
    fn restore_kept(&mut self, out: &mut Output) {
        let owed = self.round_owed().map(|(_, _, round)| round);
        let Some(r) = &self.run else { return };
        let Some(m) = r.me else { return };
        let round = r.next_index() as u32;
        let Some(o) = r.orders.get(&round) else {
            return;
        };
        if o.mine.is_some() {
            return;
        }
        let opened = r.days.kept.get(&round).into_iter().flatten();
        let opened = opened.filter_map(|(sealed, _)| self.open_kept(round, sealed));
        let early = o.early_reveals.get(&m).into_iter().flatten();
        let mut found = opened.chain(early.map(|(p, s, _, _)| (p.clone(), *s)));
        match o.commits.get(&m) {
            Some((hash, _)) => {
                let hash = *hash;
                let mine = found.find(|(p, s)| orders_commitment(round, p, s) == hash);
                if let (Some(mine), Some(o)) = (
                    mine,
                    self.run.as_mut().and_then(|r| r.orders.get_mut(&round)),
                ) {
                    o.mine = Some(mine);
                }
            }
            None if owed == Some(round) => {
                let Some((payload, salt)) = found.next() else {
                    return;
                };
                if let Ok(o) = self.commit_again(round, payload, salt) {
                    out.merge(o);
                }
            }
            None => {}
        }
    }

    /// Stored mode: the store shows that a commitment of ours for the round under way exists
    /// though it holds none (another device of ours committed, and the relays this visit read
    /// lost it or have not got it yet): every other participant the round waits for has
    /// revealed there, and an honest one reveals only once every commitment, ours included, is
    /// in. Signing one here would be a second commitment, which halts the game naming us, so
    /// this visit signs none ([`Next::Elsewhere`]), unless our player says no other device of
    /// theirs sent orders ([`Peer::not_sent_elsewhere`]). It takes every other participant, so
    /// one modified client revealing early shows it only in a two-player game (or with every
    /// other player colluding), and then the player's word overrules it.
    pub fn committed_elsewhere(&self) -> bool {
        let Some((r, m, round)) = self.round_owed() else {
            return false;
        };
        if !self.cfg.stored || self.overruled == Some(u64::from(round)) {
            return false;
        }
        let others: Vec<u8> = r
            .orders_required()
            .into_iter()
            .filter(|p| *p != m)
            .collect();
        let o = r.orders.get(&round);
        r.orders_required().contains(&m)
            && !others.is_empty()
            && others
                .iter()
                .all(|p| o.is_some_and(|o| o.reveals.contains_key(p)))
    }

    /// Our player says no other device of theirs sent orders for the round under way: when
    /// [`Next::Elsewhere`] shows and the player knows better (an opponent's modified client
    /// that opens its orders before ours are in makes it show), the page asks "Did you send
    /// orders for this turn from another device?" and on "No" calls this; submitting then signs
    /// a commitment. If another device did commit, the game halts naming us: say so.
    pub fn not_sent_elsewhere(&mut self) {
        self.overruled = self.run.as_ref().map(|r| r.next_index());
    }

    /// Stored mode: our own commitments, sealed copies and reveals of the round under way and
    /// the [`MEMENTO_ROUNDS`] before it, for [`Peer::memento`]: a later visit on this device
    /// publishes them again if the store lacks them (`republish_own`).
    pub(super) fn days_memento(&self) -> Vec<Vec<u8>> {
        let (Some(r), true) = (&self.run, self.cfg.stored) else {
            return vec![];
        };
        let Some(m) = r.me else { return vec![] };
        let from = r.next_index().saturating_sub(MEMENTO_ROUNDS);
        let from = u32::try_from(from).unwrap_or(u32::MAX);
        let mut out = vec![];
        for (round, o) in r.orders.range(from..).take(MEMENTO_ROUNDS as usize + 2) {
            if let Some((hash, raw)) = o.commits.get(&m) {
                out.push(raw.clone());
                // Only the sealed copy that opens this commitment (the one we signed with it).
                let kept = r
                    .days
                    .kept
                    .get(round)
                    .into_iter()
                    .flatten()
                    .find(|(sealed, _)| {
                        self.open_kept(*round, sealed)
                            .is_some_and(|(p, s)| orders_commitment(*round, &p, &s) == *hash)
                    });
                if let Some((_, raw)) = kept {
                    out.push(raw.clone());
                }
            }
            if let Some((_, raw)) = o.reveals.get(&m) {
                out.push(raw.clone());
            }
        }
        out
    }

    /// Stored mode, once the store is read: our own orders messages the memento carries that
    /// the store lacks (a relay lost them, or our last visit's publish has not reached the
    /// relay this visit read) are taken and published again, the same signed bytes, so that a
    /// visit never signs a second commitment for a round. Nothing is taken for a round where
    /// the store holds another commitment of ours (another device's: it stands; ours would be
    /// an equivocation), nor a sealed copy or reveal that does not open the commitment that
    /// stands, nor anything of a round already resolved, of another game or of another key.
    fn republish_own(&mut self, out: &mut Output) {
        let Some(r) = &self.run else { return };
        let (tag, at, me) = (r.tag, r.next_index(), self.me);
        let Some(m) = r.me else { return };
        let mut mine: Vec<(u8, u32, Vec<u8>, Body)> = self
            .cfg
            .remembered
            .iter()
            .take(MEMENTO_READ)
            .filter_map(|raw| {
                let (env, body) = Envelope::open_where(raw, |_| true).ok()?;
                let (kind, round) = match &body {
                    Body::OrdersCommit { round, .. } => (0, *round),
                    Body::OrdersKept { round, .. } => (1, *round),
                    Body::OrdersReveal { round, .. } => (2, *round),
                    _ => return None,
                };
                (env.sender == me && env.game_id == tag && u64::from(round) >= at)
                    .then(|| (kind, round, raw.clone(), body))
            })
            .collect();
        mine.sort_by_key(|(kind, round, ..)| (*kind, *round));
        for (_, round, raw, body) in mine {
            let Some(r) = &self.run else { return };
            let o = r.orders.get(&round);
            let stands = o.and_then(|o| o.commits.get(&m)).map(|(h, _)| *h);
            let take = match &body {
                Body::OrdersCommit { .. } => stands.is_none(),
                Body::OrdersKept { sealed, .. } => {
                    let have = r.days.kept.get(&round);
                    let opens = self.open_kept(round, sealed);
                    stands.is_some_and(|h| {
                        opens.is_some_and(|(p, s)| orders_commitment(round, &p, &s) == h)
                    }) && !have.is_some_and(|l| l.iter().any(|(s, _)| s == sealed))
                }
                Body::OrdersReveal { payload, salt, .. } => {
                    stands == Some(orders_commitment(round, payload, salt))
                        && !o.is_some_and(|o| o.reveals.contains_key(&m))
                }
                _ => false,
            };
            if take {
                let now = self.now;
                out.merge(self.receive(None, &raw, now));
                out.send.push((Dest::All, raw));
            }
        }
    }

    /// A whole visit: every stored message (any order; ours included), then what is due
    /// ([`Peer::caught_up`]). Returns the events and only the messages this visit signed, for
    /// the store. Read the store again (or call this again) after publishing: nothing is lost
    /// by a message handled twice.
    pub fn visit(&mut self, store: &[Vec<u8>], now_ms: u64) -> Output {
        let mut out = Output::default();
        let mut rounds = 0;
        // Read in the order of the positions the messages concern, votes first at each: a
        // missed-turn control that passed at a position is applied there before the round's
        // last reveal resolves it, whatever order the relays gave (else a late reveal read
        // first would resolve the round without the control on one visit and with it on
        // another: the review's relay split).
        // Our votes the memento carries are read with the store, at their position (not before
        // the history, as after a live reload: a request to come back read before the missed
        // turn that put us out would not count).
        let votes: Vec<Vec<u8>> = self
            .cfg
            .remembered
            .iter()
            .take(MEMENTO_READ)
            .filter(|raw| {
                matches!(Envelope::decode_verified(raw), Some((env, Body::Vote { .. }))
                    if env.sender == self.me)
            })
            .cloned()
            .collect();
        let mut sorted: Vec<&Vec<u8>> = store.iter().chain(&votes).collect();
        sorted.sort_by_cached_key(|raw| read_order(raw));
        loop {
            let before = (self.log_len(), self.run.is_some());
            for b in &sorted {
                out.merge(self.handle(STORE_LINK, b, now_ms));
            }
            out.merge(self.caught_up(now_ms));
            rounds += 1;
            // What was too far ahead of us is read again once we moved (bounded: a position a
            // pass at least, or the start).
            if (self.log_len(), self.run.is_some()) == before || rounds > 1024 {
                break;
            }
        }
        // Our votes at the position under way that the store lost go out again (the same bytes;
        // never one at a passed position, which could change how a fresh visit resolves it).
        let here = self.log_len();
        for raw in votes {
            if matches!(Envelope::decode_verified(&raw), Some((_, Body::Vote { at, .. })) if at == here)
            {
                out.send.push((Dest::All, raw));
            }
        }
        let have: BTreeSet<[u8; 32]> = store.iter().map(|b| sha256(b)).collect();
        let mut sent = BTreeSet::new();
        out.send.retain(|(_, raw)| {
            let mine = Envelope::decode_verified(raw).is_some_and(|(env, body)| {
                env.sender == self.me
                    && !matches!(
                        body,
                        Body::Hello { .. }
                            | Body::Sync { .. }
                            | Body::ChatAck { .. }
                            | Body::Batch { .. }
                    )
            });
            let id = sha256(raw);
            mine && !have.contains(&id) && sent.insert(id)
        });
        out
    }

    /// After the store was fed (`handle(STORE_LINK, ..)`): what this visit does, in this order:
    /// the lobby's seed share once everyone accepted; seconds of returning players' own
    /// requests; our orders from their sealed copy; the round's reveals and empty orders;
    /// a missed-turn vote if our clock (`now_ms`, UTC) is past the deadline + grace; a
    /// checkpoint of where we stand. Then commands (`submit_orders`, `ask_back`, ...).
    pub fn caught_up(&mut self, now_ms: u64) -> Output {
        self.now = self.now.max(now_ms);
        self.quiet = false;
        let mut out = Output::default();
        if self.halted.is_some() {
            return out;
        }
        if self.run.is_none() {
            self.try_lobby(&mut out);
            return out;
        }
        if self.cfg.stored {
            for q in self.readmit_requests() {
                if !q.left_present && !q.seconded {
                    if let Ok(o) = self.vote(q.control) {
                        out.merge(o);
                    }
                }
            }
        }
        self.republish_own(&mut out);
        self.restore_kept(&mut out);
        self.advance(&mut out);
        self.restore_kept(&mut out);
        self.advance(&mut out);
        if self.cfg.stored && self.suspect.is_some() {
            // The whole store is read and no equivocation in it explains a checkpoint that
            // disagrees with us: over days nothing more will come in this visit, so we halt
            // naming its signer (a live peer waits two resend periods first), rather than
            // freeze with nothing said (review of issue 61). The page and `orbis-join` show
            // the halt; the next visit reads the store again.
            if let Some((report, evidence, _)) = self.suspect.take() {
                self.halt_with(report, evidence, &mut out);
            }
            return out;
        }
        if self.cfg.stored {
            self.vote_missed(&mut out);
            self.days_checkpoint(&mut out);
        }
        out
    }

    /// The missed-turn vote an honest visit casts: only when our own clock is past the round's
    /// deadline + grace, for every participant the round still waits for (not committed; or not
    /// revealed once all have committed), if we are not one of them.
    fn vote_missed(&mut self, out: &mut Output) {
        let Some(control) = self.missed_vote_due() else {
            return;
        };
        if let Ok(o) = self.vote(control) {
            out.merge(o);
        }
    }

    /// The missed-turn control our clock says is due now, if any ([`Peer::visit`] casts it).
    pub fn missed_vote_due(&self) -> Option<Control> {
        let r = self.running(true).ok()?;
        let clock: Clock = r.proposal.clock?;
        let now_s = self.now / 1000;
        if now_s
            < self
                .deadline_now()?
                .saturating_add(u64::from(clock.grace_s))
        {
            return None;
        }
        let who = self
            .waiting_on()
            .iter()
            .filter_map(|k| r.participant(k))
            .fold(0u64, |m, p| m | (1 << p));
        let nth = r.days.missed_here(&r.controls_here);
        let c = Control::Missed { who, nth };
        (who != 0 && self.can_vote(&c) && !r.votes.has_voted(r.next_index(), &c, &self.me))
            .then_some(c)
    }

    /// One checkpoint of ours for the position we stand at, unless one is stored already (a
    /// voter held by its vote learns from it how we resolved the round: `held_by_vote`).
    fn days_checkpoint(&mut self, out: &mut Output) {
        let Some(r) = &self.run else { return };
        let at = r.next_index();
        if r.me.is_none() || at == 0 || r.days.checkpointed.contains(&at) || self.suspect.is_some()
        {
            return;
        }
        let head = r.head();
        self.checkpoint(true, head, out);
    }
}

/// Where the lobby of the proposal we accepted stands, for a page over days ("come back to
/// start the game"): who accepted, who opened their seed share (all must, each on a visit after
/// every participant accepted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyDue {
    pub proposal: [u8; 32],
    pub participants: Vec<PeerKey>,
    pub accepted: Vec<PeerKey>,
    pub revealed: Vec<PeerKey>,
}

impl Peer {
    /// The lobby of the proposal we accepted, before its game starts (`None` after, or when we
    /// accepted none).
    pub fn lobby_due(&self) -> Option<LobbyDue> {
        if self.run.is_some() {
            return None;
        }
        let h = self.lobby.my_accept?;
        let (p, _) = self.lobby.proposals.get(&h)?;
        let acc = self.lobby.accepts.get(&h);
        let rev = self.lobby.seed_reveals.get(&h);
        let pick = |has: &dyn Fn(&PeerKey) -> bool| {
            p.participants.iter().filter(|k| has(k)).copied().collect()
        };
        Some(LobbyDue {
            proposal: h,
            participants: p.participants.clone(),
            accepted: pick(&|k| acc.is_some_and(|m| m.contains_key(k))),
            revealed: pick(&|k| rev.is_some_and(|m| m.contains_key(k))),
        })
    }
}
