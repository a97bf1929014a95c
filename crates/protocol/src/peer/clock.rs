//! The clock of a game over days: each round's deadline, a fixed schedule computed from the
//! signed setup's [`Clock`] and the log alone (the phase of each round, and the missed-turn
//! controls that passed at it), never from anyone's clock; and [`Peer::due`], what the game
//! waits for now and by when, for the page and `orbis-join`.
//!
//! Owns nothing but pure functions and a view. Invariant: every peer that holds the same log
//! computes the same deadlines; a peer's own clock (the `now` it is given) is read only to say
//! whether a deadline has passed for it (when it offers the missed-turn vote, `days`).

use super::*;
use crate::wire::Clock;
use orbis_engine::rules::orders::Season;

/// The length of a phase of `kind` under `clock`, in seconds.
pub fn phase_length(clock: &Clock, kind: Phase) -> u64 {
    u64::from(match kind {
        Phase::Movement => clock.movement_s,
        Phase::Retreat => clock.retreat_s,
        Phase::Adjustment => clock.build_s,
        Phase::GameOver { .. } => 0,
    })
}

/// The deadline (UTC s) of each round: `phases[i]` is round `i`'s phase and `extended(i)` the
/// missed-turn controls that passed at it. deadline(0) = start + length(phase 0) × (1 +
/// extensions), deadline(i) = deadline(i − 1) + length(phase i) × (1 + extensions): a fixed
/// schedule, whenever a round actually resolved (early resolution does not move it).
pub fn deadlines(clock: &Clock, phases: &[Phase], extended: impl Fn(u64) -> u8) -> Vec<u64> {
    let mut at = clock.start_s;
    phases
        .iter()
        .enumerate()
        .map(|(i, &kind)| {
            let times = 1 + u64::from(extended(i as u64));
            at = at.saturating_add(phase_length(clock, kind).saturating_mul(times));
            at
        })
        .collect()
}

/// What this peer's player must do next in a game over days ([`Due::next`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// Write and submit orders for our powers by `by_s` (UTC s).
    Submit { by_s: u64 },
    /// Our orders are in; they open on our next visit after everyone has submitted. "Come back
    /// after the others have submitted, by `by_s`, to open your orders; if you don't, they
    /// count as a missed turn" (`by_s` = deadline + grace).
    ComeBack { by_s: u64 },
    /// Everyone has submitted and our orders are not open: this visit opens them (a visit does
    /// it by itself); `lost` when this device can find neither them nor their sealed copy.
    Reveal { lost: bool },
    /// Our orders for this phase were sent from another device of ours (every other player has
    /// opened theirs, which they do only once every player's orders are in), but the relays
    /// this visit read do not have them, so this device cannot open them and must not send
    /// others (that would end the game, naming us a cheat): "Your orders for this turn were
    /// sent from another device: open the game there by `by_s` (deadline + grace), or they
    /// count as a missed turn; this device shows them once the relays have them."
    Elsewhere { by_s: u64 },
    /// Nothing of ours is due in this phase; it ends by `until_s` at the latest.
    Wait { until_s: u64 },
    /// A computer plays our seats (we missed a turn with no excuse left, or were voted out):
    /// [`Peer::ask_back`] asks the others to hand them back.
    LeftOut,
    /// The game is over (or halted).
    Over,
}

/// What a game over days waits for now ([`Peer::due`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Due {
    /// The round (= log position) under way.
    pub round: u64,
    pub year: u16,
    pub season: Season,
    pub phase: Phase,
    /// When its orders are due (UTC s; extended by each missed turn excused in it).
    pub deadline_s: u64,
    /// From when an honest page votes a missing player's turn missed: deadline + grace.
    pub vote_after_s: u64,
    /// Participants whose commitment for this round is in, and whose orders are open.
    pub submitted: Vec<PeerKey>,
    pub revealed: Vec<PeerKey>,
    /// Whom the round waits for (commitments first, then reveals).
    pub waiting_on: Vec<PeerKey>,
    /// Excuses each participant has left, in participant order.
    pub excuses_left: Vec<(PeerKey, u8)>,
    /// Participants a computer plays for now (missed turns with no excuse left, or voted out).
    pub computer: Vec<PeerKey>,
    /// What our player must do next.
    pub next: Next,
}

impl Peer {
    /// The deadline of each round the log has reached (the one under way included), UTC s;
    /// empty for a game without a clock.
    pub fn deadlines(&self) -> Vec<u64> {
        let Some(r) = &self.run else { return vec![] };
        let (Some(clock), Game::Orders(s)) = (&r.proposal.clock, &r.state) else {
            return vec![];
        };
        let mut phases = r.days.phases.clone();
        if !r.over() {
            phases.push(s.phase);
        }
        let here = r.next_index();
        deadlines(clock, &phases, |i| {
            if i == here {
                r.days.missed_here(&r.controls_here)
            } else {
                r.days.extended.get(&i).copied().unwrap_or(0)
            }
        })
    }

    /// The deadline of the round under way (UTC s), in a game over days.
    pub(super) fn deadline_now(&self) -> Option<u64> {
        self.deadlines().last().copied()
    }

    /// What a game over days waits for now and by when (`None`: not started, not an orders game
    /// with a clock). A function of the log, but for [`Due::next`], which reads what this peer
    /// holds.
    pub fn due(&self) -> Option<Due> {
        let r = self.run.as_ref()?;
        let clock = r.proposal.clock?;
        let Game::Orders(s) = &r.state else {
            return None;
        };
        let deadline_s = self.deadline_now().unwrap_or(clock.start_s);
        let vote_after_s = deadline_s.saturating_add(u64::from(clock.grace_s));
        let round = r.next_index();
        let parts = &r.proposal.participants;
        let o = r.orders.get(&(round as u32));
        let keys = |f: &dyn Fn(u8) -> bool| -> Vec<PeerKey> {
            r.orders_required()
                .into_iter()
                .filter(|i| f(*i))
                .filter_map(|i| parts.get(i as usize).copied())
                .collect()
        };
        let submitted = keys(&|i| o.is_some_and(|o| o.commits.contains_key(&i)));
        let revealed = keys(&|i| o.is_some_and(|o| o.reveals.contains_key(&i)));
        let excuses_left = parts
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let spent = r.days.spent.get(&(i as u8)).copied().unwrap_or(0);
                (*k, clock.excuses.saturating_sub(spent))
            })
            .collect();
        let computer = (0..parts.len() as u8)
            .filter(|p| r.excluded.contains(p) || r.owns_a_bot(*p))
            .filter_map(|p| parts.get(p as usize).copied())
            .collect();
        let all_in = r
            .orders_required()
            .iter()
            .all(|i| o.is_some_and(|o| o.commits.contains_key(i)));
        let next = match r.me {
            _ if self.halted.is_some() || r.over() => Next::Over,
            _ if self.left_out() => Next::LeftOut,
            None => Next::Wait {
                until_s: deadline_s,
            },
            Some(m) => {
                let committed = o.is_some_and(|o| o.commits.contains_key(&m));
                let revealed = o.is_some_and(|o| o.reveals.contains_key(&m));
                let owed = self.orders_due().is_some_and(|(_, p)| !p.is_empty());
                if self.committed_elsewhere() {
                    Next::Elsewhere { by_s: vote_after_s }
                } else if owed {
                    Next::Submit { by_s: deadline_s }
                } else if !committed || revealed {
                    Next::Wait {
                        until_s: deadline_s,
                    }
                } else if all_in {
                    Next::Reveal {
                        lost: o.is_none_or(|o| o.mine.is_none()),
                    }
                } else {
                    Next::ComeBack { by_s: vote_after_s }
                }
            }
        };
        Some(Due {
            round,
            year: s.year,
            season: s.season,
            phase: s.phase,
            deadline_s,
            vote_after_s,
            submitted,
            revealed,
            waiting_on: self.waiting_on(),
            excuses_left,
            computer,
            next,
        })
    }
}
