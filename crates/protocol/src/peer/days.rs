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

/// The level of the computer that plays a seat in civil disorder.
pub const DISORDER_LEVEL: BotLevel = BotLevel::Normal;

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
    /// Our own orders sealed to ourselves, per round (from the store).
    pub(super) kept: BTreeMap<u32, Vec<u8>>,
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

/// The key our own orders are sealed under in the store, and the context they are sealed in.
fn kept_context(tag: &[u8; 16], round: u32) -> Vec<u8> {
    let mut b = b"orbis-days-kept".to_vec();
    b.extend_from_slice(tag);
    b.extend_from_slice(&round.to_le_bytes());
    b
}

impl Peer {
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
    pub(super) fn on_orders_kept(&mut self, sender: PeerKey, round: u32, sealed: Vec<u8>) {
        let me = self.me;
        match &mut self.run {
            Some(r) if sender == me && sealed.len() <= MAX_ORDERS_BYTES as usize + 256 => {
                r.days.kept.entry(round).or_insert(sealed);
            }
            _ => self.unkept = true,
        }
    }

    /// Our orders for the round under way, from their sealed copy, when our commitment is known
    /// and we do not hold them (a fresh visit): they open only if they are the committed ones.
    fn restore_kept(&mut self) {
        let secret = self.key.to_scalar().to_bytes();
        let me = self.me;
        let Some(r) = &mut self.run else { return };
        let Some(m) = r.me else { return };
        let round = r.next_index() as u32;
        let Some(sealed) = r.days.kept.get(&round) else {
            return;
        };
        let Some(o) = r.orders.get_mut(&round) else {
            return;
        };
        let Some((hash, _)) = o.commits.get(&m) else {
            return;
        };
        if o.mine.is_some() {
            return;
        }
        let opened =
            orbis_deal::sealed::open(&kept_context(&r.tag, round), &me.0, &me.0, &secret, sealed)
                .and_then(|b| codec::decode::<(Vec<u8>, [u8; 32])>(&b).ok());
        if let Some((payload, salt)) = opened {
            if orders_commitment(round, &payload, &salt) == *hash {
                o.mine = Some((payload, salt));
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
        loop {
            let before = (self.log_len(), self.run.is_some());
            for b in store {
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
        self.restore_kept();
        self.advance(&mut out);
        self.restore_kept();
        self.advance(&mut out);
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
