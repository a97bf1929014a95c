//! A running game ([`Run`]): the proposal it started from, the engine state, the applied log
//! and the per-concern tables the other modules fill (dice chains, rounds, votes, checkpoints).
//!
//! Invariant: `state` is exactly the proposal's initial state with `log` applied in order, and
//! `heads[i]` is the log head after `i` entries; only `log` (`record`) and `rounds`
//! (`advance_orders`) extend them.

use super::*;

/// A log position that has been applied.
#[derive(Clone, Debug)]
pub(super) struct Record {
    pub(super) content: [u8; 32],
    pub(super) signer: Option<PeerKey>,
    /// Original signed bytes (`None` for bot seats, which nobody sends).
    pub(super) raw: Option<Vec<u8>>,
    /// Controls decided at this position (their votes are in `Run::votes`).
    pub(super) controls: Vec<Control>,
}

/// Proof that `peer` equivocated in round `at`, kept until we resolve that round.
#[derive(Clone, Debug)]
pub(super) struct DeferredHalt {
    pub(super) peer: PeerKey,
    pub(super) at: u64,
    pub(super) report: HaltReport,
    pub(super) evidence: Vec<Vec<u8>>,
    /// When it came: a drop of `peer` on its way is due within `Config::missing_ms` of this
    /// (or of our reaching round `at`, if later).
    pub(super) since: u64,
}

/// A running game.
#[derive(Clone)]
pub(super) struct Run {
    pub(super) proposal: SetupProposal,
    pub(super) proposal_hash: [u8; 32],
    /// The id this game's messages are signed under ([`game_tag`]).
    pub(super) tag: [u8; 16],
    pub(super) me: Option<u8>,
    pub(super) state: Game,
    /// Orders game: the power each seat plays.
    pub(super) powers: Vec<PowerId>,
    pub(super) log: Vec<Record>,
    /// `heads[i]` = log head after `i` entries.
    pub(super) heads: Vec<[u8; 32]>,
    /// A viewer's replay only: `snapshots[i]` = the state after `i` entries (see
    /// [`Run::push_head`]).
    pub(super) snapshots: Option<Vec<Game>>,
    pub(super) roll_count: u32,
    pub(super) pending: Option<PendingRoll>,
    pub(super) reveals: BTreeMap<u64, BTreeMap<u8, StoredReveal>>,
    pub(super) future_reveals: BTreeMap<u64, BTreeMap<u8, Vec<UnverifiedReveal>>>,
    /// Last verified (roll, pre-image) per participant; starts at (0, tip).
    pub(super) chains: Vec<(u32, [u8; 32])>,
    pub(super) chain_lens: Vec<u32>,
    /// Roll number of the last element of each participant's current chain.
    pub(super) chain_ends: Vec<u32>,
    /// Announced tip of each participant's next chain.
    pub(super) chain_next: Vec<Option<[u8; 32]>>,
    pub(super) candidates: BTreeMap<u64, Vec<Candidate>>,
    /// The first entry of the seat to move refused as illegal at the position the game is on
    /// (position, content, signed bytes): a different one it signs there later is
    /// equivocation. Dropped once a move is applied there.
    pub(super) refused: Option<(u64, [u8; 32], Vec<u8>)>,
    /// Our (state hash, log head) at each turn end.
    pub(super) checkpoints: BTreeMap<u64, [u8; 32]>,
    pub(super) their_checkpoints: BTreeMap<u64, Vec<TheirCheckpoint>>,
    pub(super) orders: BTreeMap<u32, OrdersRound>,
    /// Participants dropped by vote: they no longer contribute dice.
    pub(super) excluded: BTreeSet<u8>,
    /// Per participant dropped by vote, the rounds its orders did not count in: from the round
    /// it was dropped at (the next one if that round's batch was already fixed, with its
    /// orders) up to the round it was let back in at (`u64::MAX` while it is out). Two
    /// different orders it signs for such a round prove nothing that matters.
    pub(super) dropped_at: BTreeMap<u8, (u64, u64)>,
    /// Proof of an equivocation in the round we are on or a later one, judged when we resolve
    /// that round (`Peer::judge_proof`): one per sender (the earliest round's), in the order of
    /// their rounds. One slot for all would drop proof about a second equivocator, which the
    /// peers that kept it first halt on while we go on (independent review of the first fix).
    pub(super) deferred_halts: Vec<DeferredHalt>,
    /// We halted holding such proof about the round we were on (the transcript gives it first
    /// there, as it came before we resolved that round).
    pub(super) halted_on_proof: bool,
    /// Seats handed to a bot by vote.
    pub(super) bot_seats: BTreeMap<PlayerId, BotLevel>,
    /// Votes by position and control hash.
    pub(super) votes: VoteBook,
    /// Controls applied at the current position, to be recorded with its entry.
    pub(super) controls_here: Vec<Control>,
    /// Positions at which a control applied while their roll was pending (a contributor that
    /// kept back its reveal, voted out): resends and transcripts give such a position's entry
    /// and batches before its votes, as they came, so a lagging peer or `verify` applies the
    /// vote to the same roll instead of to the turn before it (`Peer::sync_groups`).
    pub(super) voted_rolling: BTreeSet<u64>,
    /// Highest log position each peer has shown it reached (from any indexed message it signed).
    pub(super) reached: BTreeMap<PeerKey, u64>,
    /// The position we are on, when we reached it, and whether we are there live (not while
    /// catching up, from resend batches, on the game we just joined: see `joined`).
    pub(super) since: (u64, u64, bool),
    /// When we joined this game from a resend (a reload, or a late start): for `missing_ms`
    /// after that, positions reached from resends are history, not live.
    pub(super) joined: Option<u64>,
    /// Orders game: readmissions decided in the phase at this position, with their tips; they
    /// take effect when the phase is resolved, so a phase's commitments never change midway.
    pub(super) readmits: BTreeMap<u8, (u64, [u8; 32])>,
    /// Participants dropped while we heard from them (connected: a withholder, or a player
    /// idling at an open page): their requests to come back wait for a person (security
    /// review B8). Our own view, not part of the game's state.
    pub(super) left_present: BTreeSet<u8>,
    /// Left-out participants whose request to come back we announced
    /// ([`ProtocolEvent::ReadmitRequested`]) since they were left out.
    pub(super) asked: BTreeSet<u8>,
    /// Classic game dealt face down: our side of the deal (see `deal`).
    pub(super) deal: Option<DealRun>,
    /// Each participant's latest checkpoint (position, signed bytes), ours included, for the
    /// transcript.
    pub(super) last_checkpoints: BTreeMap<PeerKey, (u64, Vec<u8>)>,
    /// Each participant's log length and head from its latest signed `Sync`: where it stands,
    /// in a form that shows which history it took (`votes::held_by_vote`).
    pub(super) sync_heads: BTreeMap<PeerKey, (u64, [u8; 32])>,
    /// Participants each participant claims withhold shares of its cards (face down): a claim,
    /// not a fact (security review B9); with the positions it claims it cannot read.
    pub(super) withheld: BTreeMap<u8, Vec<u8>>,
    pub(super) claimed_unread: BTreeMap<u8, Vec<(u8, u16)>>,
    /// The message number of the `Sync` each participant's claim (`withheld`) came from: only a
    /// later one replaces it (an earlier one of this game, replayed, put back an old report).
    pub(super) claim_seqs: BTreeMap<u8, u64>,
    /// Shares we saw a participant send to another, checked, for positions that holder holds:
    /// (holder, sender, deck, position, leaver: `None` for the sender's own share, else the
    /// seat that left whose piece it stands in for) → the signed message. An accused shows it
    /// sent them by sending them to everyone, which refutes a claim against it once every share
    /// it owes is among them; we pass each on to the holder, again whenever the holder claims
    /// that position unread (it reloaded, or our copy was lost). Emptied when the deal starts
    /// again.
    pub(super) shared: BTreeMap<SharedKey, Vec<u8>>,
    /// A face-down game that ended because a participant left whom nobody can stand in for
    /// (see `Run::deal_survives`): the position and the leaver.
    pub(super) ended: Option<(u64, u8)>,
    /// Economy game: the batch of the position whose roll is pending (see `economy`).
    pub(super) economy: Option<EconomyBatch>,
    /// Economy game: the positions each seat spent in its current step of many actions
    /// (`batch::count_position`, counted from the log alone).
    pub(super) held: Held,
    /// A game over days: its schedule and missed turns (see `days`).
    pub(super) days: DaysRun,
}

/// How the game waits on a control's target where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Wait {
    /// For a move: a human's time.
    Turn,
    /// For a dice reveal, which an honest peer sends at once.
    Reveal,
    /// Face down: the current player cannot read its cards, and the target may be withholding
    /// its part of the deal, which an honest peer sends as soon as it is due.
    Cards,
    /// For orders (commitment, then reveal): a human's time.
    Orders,
}

impl Run {
    /// Appends the log head after the position just played (and, for a viewer, the state it
    /// left).
    pub(super) fn push_head(&mut self, head: [u8; 32]) {
        self.heads.push(head);
        if let Some(v) = &mut self.snapshots {
            v.push(self.state.clone());
        }
    }

    pub(super) fn participant(&self, k: &PeerKey) -> Option<u8> {
        self.proposal
            .participants
            .iter()
            .position(|p| p == k)
            .map(|i| i as u8)
    }

    pub(super) fn head(&self) -> [u8; 32] {
        self.heads.last().copied().unwrap_or([0; 32])
    }

    pub(super) fn next_index(&self) -> u64 {
        self.log.len() as u64
    }

    pub(super) fn controller(&self, seat: PlayerId) -> Option<Controller> {
        if let Some(l) = self.bot_seats.get(&seat) {
            return Some(Controller::Bot(*l));
        }
        self.proposal.seats.get(seat as usize).map(|s| s.controller)
    }

    /// Whether participant `p`'s orders for `round` did not count: it was dropped then (see
    /// `dropped_at`; orders and economy games).
    pub(super) fn orders_moot(&self, p: u8, round: u64) -> bool {
        !matches!(self.state, Game::Classic(_))
            && self
                .dropped_at
                .get(&p)
                .is_some_and(|&(from, until)| from <= round && round < until)
    }

    /// Participant `p` controls a seat now and has not been dropped, so it may sign entries.
    pub(super) fn plays_a_seat(&self, p: u8) -> bool {
        !self.excluded.contains(&p)
            && (0..self.proposal.seats.len())
                .any(|i| self.controller(i as PlayerId) == Some(Controller::Peer(p)))
    }

    /// Participants whose dice count.
    pub(super) fn contributors(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.proposal.participants.len() as u8).filter(|i| !self.excluded.contains(i))
    }

    /// Who must vote for `c`: every contributing participant except the one it is about; for a
    /// readmission, every contributor and the returning peer itself (whose dice tip it carries).
    pub(super) fn voters(&self, c: &Control) -> Vec<PeerKey> {
        if let Control::Missed { who, .. } = c {
            // Every contributor that did not miss the deadline with them (see `days`).
            let missed = self.missed_members(*who);
            return self
                .contributors()
                .filter(|i| !missed.contains(i))
                .filter_map(|i| self.proposal.participants.get(i as usize).copied())
                .collect();
        }
        let target = match c {
            Control::Drop { peer, .. } => Some(*peer),
            Control::SeatToBot { seat, .. } => match self.controller(*seat) {
                Some(Controller::Peer(p)) => self.proposal.participants.get(p as usize).copied(),
                _ => None,
            },
            Control::Missed { .. } => None,
            Control::Readmit { peer, .. } => {
                let mut v: Vec<PeerKey> = self
                    .contributors()
                    .filter_map(|i| self.proposal.participants.get(i as usize).copied())
                    .filter(|k| k != peer)
                    .collect();
                v.push(*peer);
                return v;
            }
        };
        let v: Vec<PeerKey> = self
            .contributors()
            .filter_map(|i| self.proposal.participants.get(i as usize).copied())
            .filter(|k| Some(*k) != target)
            .collect();
        // A lone opponent (two contributors) may drop the other player, which ends a game dealt
        // face down, but never hand its seat to the computer, whose cards would then be shown to
        // it (issue 59): nobody is a voter for that.
        if matches!(c, Control::SeatToBot { .. }) && v.len() < 2 {
            return vec![];
        }
        v
    }

    /// Whether, at the position we are on, the game waits on the target of `c` (and how). Only
    /// there does a control apply: nobody can be voted out while the game waits on someone else.
    /// Every peer at this position answers the same: it depends on the log only.
    pub(super) fn wait_on(&self, c: &Control) -> Option<Wait> {
        let target_seat = |seat: PlayerId| match c {
            Control::Drop { peer, .. } => {
                matches!(self.controller(seat), Some(Controller::Peer(p)) if Some(p) == self.participant(peer))
            }
            Control::SeatToBot { seat: s, .. } => *s == seat,
            Control::Readmit { .. } | Control::Missed { .. } => false,
        };
        if let Control::Readmit { peer, .. } = c {
            return self.readmit_here(peer).then_some(Wait::Turn);
        }
        if let Control::Missed { who, .. } = c {
            return self.missed_here(*who).then_some(Wait::Orders);
        }
        match &self.state {
            Game::Classic(s) => {
                if let Some(p) = &self.pending {
                    let contributor = match c {
                        Control::Drop { peer, .. } => self
                            .participant(peer)
                            .is_some_and(|i| self.contributors().any(|x| x == i)),
                        Control::SeatToBot { .. }
                        | Control::Readmit { .. }
                        | Control::Missed { .. } => false,
                    };
                    return (p.index == self.next_index() && contributor).then_some(Wait::Reveal);
                }
                let drops_other = match c {
                    Control::Drop { peer, .. } => self
                        .participant(peer)
                        .is_some_and(|p| self.waits_on_cards(p)),
                    _ => false,
                };
                if s.winner().is_some() {
                    None
                } else if target_seat(s.current) {
                    Some(Wait::Turn)
                } else {
                    drops_other.then_some(Wait::Cards)
                }
            }
            // Simultaneous rulesets: a round waits for every contributor's orders; an economy
            // position whose batch rolls dice waits for every contributor's reveal.
            _ => {
                if let Some(p) = &self.pending {
                    let contributor = match c {
                        Control::Drop { peer, .. } => self
                            .participant(peer)
                            .is_some_and(|i| self.contributors().any(|x| x == i)),
                        Control::SeatToBot { .. }
                        | Control::Readmit { .. }
                        | Control::Missed { .. } => false,
                    };
                    return (p.index == self.next_index() && contributor).then_some(Wait::Reveal);
                }
                // An economy position whose reveals of face-down cards cannot be judged (a
                // deck some participant never finished shuffling): any other contributor may
                // be the withholder; each voter votes only for one it sees withhold
                // (`may_vote`), and a target that withholds nothing refuses it.
                if let Some(t) = match c {
                    Control::Drop { peer, .. } => self.participant(peer),
                    _ => None,
                } {
                    let contributor = self.contributors().any(|x| x == t);
                    if contributor && (self.judging_reveals() || self.may_wait_on_deal(t)) {
                        return Some(Wait::Cards);
                    }
                }
                let waits = match c {
                    Control::Drop { peer, .. } => self
                        .participant(peer)
                        .is_some_and(|i| self.orders_required().contains(&i)),
                    // Only a seat whose own part the game lacks here (issue 59: any seat was
                    // awaited, so a lone opponent holding a step of its own handed over the
                    // seat of a player with nothing to do).
                    Control::SeatToBot { seat, .. } => self.seat_due_here(*seat),
                    Control::Readmit { .. } | Control::Missed { .. } => false,
                };
                waits.then_some(Wait::Orders)
            }
        }
    }

    /// Whether seat `seat`'s own part is due at the position we are on, a roll pending here or
    /// not: in a classic game it is the seat to move, in an economy game the engine waits for
    /// its choice, in an orders game its player (not dropped) owes the round's orders. A
    /// function of the log alone, fixed for the position: where it is false no honest page
    /// votes to hand the seat over there, so such a vote completed is proof (`apply_votes`).
    pub(super) fn seat_due_here(&self, seat: PlayerId) -> bool {
        let Some(Controller::Peer(p)) = self.controller(seat) else {
            return false;
        };
        if self.excluded.contains(&p) {
            return false;
        }
        match &self.state {
            Game::Classic(s) => s.current == seat && s.winner().is_none(),
            Game::Economy(_) => self
                .economy_state()
                .is_some_and(|s| !self.over() && s.to_act().contains(&seat)),
            _ => !self.over() && self.orders_required().contains(&p),
        }
    }

    /// Since when the game, at the position we are on, has waited on our own part of `wait`;
    /// `None` when our part is in (our reveal, our orders, our side of the deal): a target whose
    /// part is in is never awaited, however long the others take (security review B7).
    pub(super) fn awaits_me_since(&self, wait: Wait) -> Option<u64> {
        let me = self.me?;
        match wait {
            // Our move waits on shares of our face-down cards someone withholds: we cannot play
            // it, so the game waits on them, not on us (long-run seed 8000247: a lone opponent
            // withheld them, voted us out past our grace, and the game ended blaming us).
            Wait::Turn if !self.withheld().is_empty() => None,
            Wait::Turn => Some(self.since.1),
            Wait::Reveal => {
                let p = self.pending.as_ref()?;
                let mine = self
                    .reveals
                    .get(&p.index)
                    .is_some_and(|m| m.contains_key(&me));
                (!mine).then_some(p.since)
            }
            // We send our key, escrow, shuffles and shares as soon as each is due: whoever the
            // blocked player lacks, it is not us.
            Wait::Cards => None,
            // The cards (ours, or a computer's) are not dealt yet: we play once they are, and someone
            // else is late.
            Wait::Orders if self.holds_back(me) => None,
            // A step that asks nothing of us never waits on us, however long it lasts (issue
            // 59: our grace ran from the start of an opponent's step).
            Wait::Orders if !self.orders_required().contains(&me) => None,
            Wait::Orders => {
                let o = self.orders.get(&(self.next_index() as u32));
                let Some(o) = o.filter(|o| o.commits.contains_key(&me)) else {
                    return Some(self.since.1);
                };
                let all = self
                    .orders_required()
                    .iter()
                    .all(|i| o.commits.contains_key(i));
                // Our reveal is due from when the last commitment came.
                (all && !o.reveals.contains_key(&me))
                    .then_some(o.complete_at.unwrap_or(self.since.1))
            }
        }
    }

    /// Whether `c` still makes sense (not already in effect).
    pub(super) fn control_valid(&self, c: &Control) -> bool {
        match c {
            Control::Drop { peer, .. } => self
                .participant(peer)
                .is_some_and(|p| !self.excluded.contains(&p)),
            Control::SeatToBot { seat, .. } => {
                matches!(self.controller(*seat), Some(Controller::Peer(_)))
                    && !self.voters(c).is_empty()
            }
            Control::Missed { who, nth } => self.missed_valid(*who, *nth),
            Control::Readmit { peer, .. } => self.participant(peer).is_some_and(|p| {
                !self.readmits.contains_key(&p)
                    && (self.excluded.contains(&p) || self.owns_a_bot(p))
                    // A participant the deal started again without holds no key of it.
                    && self.deal.as_ref().is_none_or(|d| d.members.contains(&p))
            }),
        }
    }

    /// Participant `p` was given seats in the proposal that a bot plays now.
    pub(super) fn owns_a_bot(&self, p: u8) -> bool {
        self.proposal.seats.iter().enumerate().any(|(i, s)| {
            s.controller == Controller::Peer(p) && self.bot_seats.contains_key(&(i as PlayerId))
        })
    }

    /// Whether a readmission of `peer` may take effect at the position we are on: a classic game
    /// waits on another human's move (never on a roll, never in the middle of the returning
    /// seats' own turn, so the computer hands the seat back between its turns); an orders game
    /// takes it at any phase and gives the seats back from the next phase on (see
    /// [`Run::readmits`]).
    fn readmit_here(&self, peer: &PeerKey) -> bool {
        let Some(p) = self.participant(peer) else {
            return false;
        };
        match &self.state {
            Game::Classic(s) => {
                let theirs = self
                    .proposal
                    .seats
                    .get(s.current as usize)
                    .map(|x| x.controller)
                    == Some(Controller::Peer(p));
                self.pending.is_none() && s.winner().is_none() && !theirs
            }
            _ => !self.over(),
        }
    }

    /// Gives participant `p` its seats back and, if it was dropped, counts its dice again from
    /// the chain whose tip it named: its chain for the next roll, which stands for the roll
    /// just before that chain's first.
    pub(super) fn readmit(&mut self, p: u8, tip: [u8; 32]) {
        for (i, s) in self.proposal.seats.iter().enumerate() {
            if s.controller == Controller::Peer(p) {
                self.bot_seats.remove(&(i as PlayerId));
            }
        }
        if self.excluded.remove(&p) {
            let back = self.next_index();
            if let Some((_, until)) = self.dropped_at.get_mut(&p) {
                *until = back;
            }
            let i = p as usize;
            let len = self.chain_lens.get(i).copied().unwrap_or(0).max(1);
            let j = self.roll_count / len;
            if let Some(c) = self.chains.get_mut(i) {
                *c = (j * len, tip);
            }
            if let Some(e) = self.chain_ends.get_mut(i) {
                *e = (j + 1) * len;
            }
            if let Some(n) = self.chain_next.get_mut(i) {
                *n = None;
            }
        }
    }

    /// The game has ended: won, or (face down) left by a participant the deal cannot go on
    /// without.
    pub(super) fn over(&self) -> bool {
        self.state.is_over() || self.ended.is_some()
    }

    /// The hash exchanged in checkpoints (the classic state's own hash, so that classic hashes
    /// stay those of `ClassicState::state_hash`).
    pub(super) fn state_hash(&self) -> [u8; 32] {
        game_hash(&self.state)
    }

    /// Orders game: participants whose orders a round waits for (dropped ones no longer count).
    /// Classic generic rounds: every participant.
    pub(super) fn orders_required(&self) -> Vec<u8> {
        match self.state {
            Game::Classic(_) => (0..self.proposal.participants.len() as u8).collect(),
            Game::Economy(_) => self.economy_required(),
            _ => self.contributors().collect(),
        }
    }

    /// Orders game: the powers participant `p` orders now (seats handed to a bot excluded).
    pub(super) fn powers_of(&self, p: u8) -> Vec<PowerId> {
        (0..self.proposal.seats.len())
            .filter(|&i| self.controller(i as PlayerId) == Some(Controller::Peer(p)))
            .filter_map(|i| self.powers.get(i).copied())
            .collect()
    }

    /// Whether `key`'s entry for the position we are on is signed and taken, waiting to be
    /// applied (a vote of its sender's there may still complete, `Peer::bound`).
    pub(super) fn move_waits(&self, key: &PeerKey) -> bool {
        self.candidates
            .get(&self.next_index())
            .is_some_and(|l| l.iter().any(|c| c.signer == *key))
    }

    pub(super) fn note_reached(&mut self, k: PeerKey, at: u64) {
        let e = self.reached.entry(k).or_insert(0);
        *e = (*e).max(at);
    }
}

/// A share one participant sent another (`Run::shared`): (holder, sender, deck, position,
/// leaver it stands in for).
pub(super) type SharedKey = (u8, u8, u8, u16, Option<u8>);

/// The state hash peers sign in checkpoints and pages show: a classic game's is its own state's
/// (as it was before the other rulesets joined), the others' that of the whole [`Game`].
pub fn game_hash(g: &Game) -> [u8; 32] {
    match g {
        Game::Classic(s) => s.state_hash().0,
        _ => g.state_hash().0,
    }
}
