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
    /// Our (state hash, log head) at each turn end.
    pub(super) checkpoints: BTreeMap<u64, [u8; 32]>,
    pub(super) their_checkpoints: BTreeMap<u64, Vec<TheirCheckpoint>>,
    pub(super) orders: BTreeMap<u32, OrdersRound>,
    /// Participants dropped by vote: they no longer contribute dice.
    pub(super) excluded: BTreeSet<u8>,
    /// Seats handed to a bot by vote.
    pub(super) bot_seats: BTreeMap<PlayerId, BotLevel>,
    /// Votes by position and control hash.
    pub(super) votes: BTreeMap<(u64, [u8; 32]), VoteSet>,
    /// Controls applied at the current position, to be recorded with its entry.
    pub(super) controls_here: Vec<Control>,
    /// Highest log position each peer has shown it reached (from any indexed message it signed).
    pub(super) reached: BTreeMap<PeerKey, u64>,
    /// The position we are on, when we reached it, and whether we reached it live (not while
    /// catching up from a resend batch).
    pub(super) since: (u64, u64, bool),
}

/// How the game waits on a control's target where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Wait {
    /// For a move or orders: a human's time.
    Turn,
    /// For a dice reveal, which an honest peer sends at once.
    Reveal,
}

impl Run {
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

    /// Who must vote for `c`: every contributing participant except the one it is about.
    pub(super) fn voters(&self, c: &Control) -> Vec<PeerKey> {
        let target = match c {
            Control::Drop { peer, .. } => Some(*peer),
            Control::SeatToBot { seat, .. } => match self.controller(*seat) {
                Some(Controller::Peer(p)) => self.proposal.participants.get(p as usize).copied(),
                _ => None,
            },
        };
        self.contributors()
            .filter_map(|i| self.proposal.participants.get(i as usize).copied())
            .filter(|k| Some(*k) != target)
            .collect()
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
        };
        match &self.state {
            Game::Classic(s) => {
                if let Some(p) = &self.pending {
                    let contributor = match c {
                        Control::Drop { peer, .. } => self
                            .participant(peer)
                            .is_some_and(|i| self.contributors().any(|x| x == i)),
                        Control::SeatToBot { .. } => false,
                    };
                    return (p.index == self.next_index() && contributor).then_some(Wait::Reveal);
                }
                (s.winner().is_none() && target_seat(s.current)).then_some(Wait::Turn)
            }
            Game::Orders(_) => {
                let seats = 0..self.proposal.seats.len() as PlayerId;
                let waits = match c {
                    Control::Drop { peer, .. } => self
                        .participant(peer)
                        .is_some_and(|i| self.orders_required().contains(&i)),
                    Control::SeatToBot { .. } => seats.into_iter().any(target_seat),
                };
                waits.then_some(Wait::Turn)
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
            }
        }
    }

    /// The game has ended.
    pub(super) fn over(&self) -> bool {
        match &self.state {
            Game::Classic(s) => s.winner().is_some(),
            Game::Orders(s) => matches!(s.phase, Phase::GameOver { .. }),
        }
    }

    /// The hash exchanged in checkpoints (the classic state's own hash, so that classic hashes
    /// stay those of `ClassicState::state_hash`).
    pub(super) fn state_hash(&self) -> [u8; 32] {
        match &self.state {
            Game::Classic(s) => s.state_hash().0,
            Game::Orders(_) => self.state.state_hash().0,
        }
    }

    /// Orders game: participants whose orders a round waits for (dropped ones no longer count).
    /// Classic generic rounds: every participant.
    pub(super) fn orders_required(&self) -> Vec<u8> {
        match self.state {
            Game::Orders(_) => self.contributors().collect(),
            Game::Classic(_) => (0..self.proposal.participants.len() as u8).collect(),
        }
    }

    /// Orders game: the powers participant `p` orders now (seats handed to a bot excluded).
    pub(super) fn powers_of(&self, p: u8) -> Vec<PowerId> {
        (0..self.proposal.seats.len())
            .filter(|&i| self.controller(i as PlayerId) == Some(Controller::Peer(p)))
            .filter_map(|i| self.powers.get(i).copied())
            .collect()
    }

    pub(super) fn note_reached(&mut self, k: PeerKey, at: u64) {
        let e = self.reached.entry(k).or_insert(0);
        *e = (*e).max(at);
    }
}
