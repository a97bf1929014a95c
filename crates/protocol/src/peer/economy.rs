//! The economy ruleset in a room: every log position is one step of the engine, played by the
//! participants whose seats the engine waits for (`EconomyState::to_act`).
//!
//! Owns `Run::economy` (the batch of a position whose dice are being drawn), the economy
//! payloads of the generic rounds (`rounds`), the declaration and planning windows, and when a
//! position's batch is applied (`batch` builds and applies it).
//!
//! A position is a commit-reveal round (`rounds`) among the participants entitled to act there
//! (nobody else's commitment counts, and one from a participant none of whose seats is awaited
//! is refused as out of turn); each payload is the batch of `EconomyAction`s its sender plays
//! for its seats. Computer seats that are awaited act from the state the position began with.
//! The batch is applied in seat order; when it rolls any die the roll comes from the dice
//! beacon, opened once the batch is fixed (revealed), so every die is drawn after the choices
//! it decides are out of everyone's hands.
//!
//! Invariant: every peer applies the same batch to the same state with the same dice (a
//! function of the log and the beacon only); an action the engine refuses, or one for a seat
//! its sender does not play, is void and its sender named (unless it was legal with its batch
//! alone and an earlier action of the position made it impossible: skipped, nobody named);
//! nobody's batch is seen before every entitled participant has committed; every awaited seat
//! moves at the position (its player's move or the default, `batch::play`), and none is awaited
//! at more than `MAX_STEP_POSITIONS` + 1 positions of one step of many actions (`batch`: at the
//! next one its actions are void, its player named `StepHeld`, and the default ends its step).

use super::*;
use crate::wire::{encode_economy, encode_economy_with};
use orbis_engine::dice::Dice;
use orbis_engine::rules::economy::action::EconomyAction;
use orbis_engine::rules::economy::options::EconomyOptions;
use orbis_engine::rules::economy::phase::Phase as EcoPhase;
use orbis_engine::rules::economy::state::EconomyState;

/// Counts the dice a batch would roll (the engine's randomness goes through it).
struct Probe {
    rolls: u32,
    inner: SeededDice,
}

impl Dice for Probe {
    fn next_u32(&mut self) -> u32 {
        self.rolls = self.rolls.saturating_add(1);
        self.inner.next_u32()
    }
}

/// Log head after economy position `index`, whose batch hashes to `content`.
fn next_head_economy(
    head: &[u8; 32],
    index: u64,
    controls: &[Control],
    content: &[u8; 32],
) -> [u8; 32] {
    let mut b = b"orbis-log-economy".to_vec();
    b.extend_from_slice(head);
    b.extend_from_slice(&codec::encode(&(index, controls, content)));
    sha256(&b)
}

/// The initial state of an economy proposal: seat `i` is the engine's player `i`. The game seed
/// (every participant's share) deals what the setup deals at random (initiative for the picks,
/// random picks, the influence deck's order).
pub(super) fn economy_game(
    p: &SetupProposal,
    options: &EconomyOptions,
    seed: [u8; 32],
) -> Result<Game, String> {
    let names: Vec<&str> = p.seats.iter().map(|s| s.name.as_str()).collect();
    let new = match p.face_down {
        true => EconomyState::new_sealed,
        false => EconomyState::new,
    };
    new(&names, options.clone(), seed)
        .map(|(s, _)| Game::Economy(s))
        .map_err(|e| e.to_string())
}

impl Run {
    pub(super) fn economy_state(&self) -> Option<&EconomyState> {
        match &self.state {
            Game::Economy(s) => Some(s),
            _ => None,
        }
    }

    /// Economy game: the seats the engine waits for now (none while a roll is pending).
    pub(super) fn economy_to_act(&self) -> Vec<PlayerId> {
        match self.economy_state() {
            Some(s) if self.pending.is_none() && !self.over() => s.to_act(),
            _ => vec![],
        }
    }

    /// Economy game: the participants (not dropped) that play a seat the engine waits for.
    pub(super) fn economy_required(&self) -> Vec<u8> {
        let mut v: Vec<u8> = self
            .economy_to_act()
            .into_iter()
            .filter_map(|seat| match self.controller(seat) {
                Some(Controller::Peer(p)) if !self.excluded.contains(&p) => Some(p),
                _ => None,
            })
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Seats participant `p` plays now.
    pub(super) fn seats_of(&self, p: u8) -> Vec<PlayerId> {
        (0..self.proposal.seats.len() as PlayerId)
            .filter(|&i| self.controller(i) == Some(Controller::Peer(p)))
            .collect()
    }

    /// Seats participant `p` was given in the proposal.
    pub(super) fn seated(&self, p: u8) -> Vec<PlayerId> {
        (0..self.proposal.seats.len() as PlayerId)
            .filter(|&i| {
                self.proposal.seats.get(i as usize).map(|s| s.controller)
                    == Some(Controller::Peer(p))
            })
            .collect()
    }
}

impl Peer {
    /// Economy game: the current round (= log position) and the seats this peer must act for
    /// in it, when it has not committed yet.
    pub fn economy_due(&self) -> Option<(u32, Vec<PlayerId>)> {
        let (r, m, round) = self.round_owed()?;
        if r.holds_back(m) {
            return None; // the influence cards first (`Run::holds_back`)
        }
        let mine = r.seats_of(m);
        let due: Vec<PlayerId> = r
            .economy_to_act()
            .into_iter()
            .filter(|s| mine.contains(s))
            .collect();
        (!due.is_empty()).then_some((round, due))
    }

    /// Economy game: the state every peer plays on.
    pub fn economy_state(&self) -> Option<&EconomyState> {
        self.run.as_ref().and_then(|r| r.economy_state())
    }

    /// Economy game: commits this peer's batch of actions for the current position (for seats
    /// it plays; applied in order; at most [`MAX_BATCH_ACTIONS`]). They are checked with the
    /// engine first (with stand-in dice) and revealed once every entitled participant has
    /// committed.
    pub fn submit_economy(
        &mut self,
        actions: Vec<EconomyAction>,
        salt: [u8; 32],
    ) -> Result<Output, CommandError> {
        let r = self.running(false)?;
        let Some(s) = r.economy_state() else {
            return Err(CommandError::WrongRuleset);
        };
        if r.over() {
            return Err(CommandError::GameOver);
        }
        let Some(m) = r.me.filter(|m| !r.excluded.contains(m)) else {
            return Err(CommandError::NotParticipant);
        };
        if !r.economy_required().contains(&m) {
            return Err(CommandError::NotYourTurn);
        }
        if r.holds_back(m) {
            return Err(CommandError::CardsBeingDealt);
        }
        if actions.len() > MAX_BATCH_ACTIONS {
            return Err(CommandError::TooLong);
        }
        let mine = r.seats_of(m);
        let (actions, reveals) = self.economy_shows(actions)?;
        // The shows it adds count too: an honest batch is never void for its own size.
        if actions.len() > MAX_BATCH_ACTIONS || reveals.len() > MAX_PAYLOAD_REVEALS {
            return Err(CommandError::TooLong);
        }
        let mut check = s.clone();
        let mut dice = SeededDice::new([0; 32]);
        for a in &actions {
            if !mine.contains(&a.player()) {
                return Err(CommandError::Illegal(format!(
                    "seat {} is not played by this peer",
                    a.player()
                )));
            }
            check
                .apply_with(a, &mut dice)
                .map_err(|e| CommandError::Illegal(e.to_string()))?;
        }
        let round = r.next_index() as u32;
        self.commit_orders(round, encode_economy_with(&actions, &reveals), salt)
    }

    /// Economy game, from `tick`: closes our own part of an open window whose time is up. In a
    /// declaration window (after a roll, or an interception question) silence is a pass; in the
    /// planning phase, once commitments covering a majority of the players are in, our late
    /// seats move nothing this round (the engine's `ClosePlanning`). A participant that does
    /// not even do that is awaited like any other (`Wait::Orders`: the vote hands its seats to
    /// the computer).
    pub(super) fn economy_timers(&mut self, out: &mut Output) {
        if self.halted.is_some() || self.suspect.is_some() {
            return;
        }
        let now = self.now;
        let (declare_ms, planning_ms) = (self.cfg.declare_ms, self.cfg.planning_ms);
        let Some(r) = &mut self.run else { return };
        let round = r.next_index() as u32;
        let to_act = r.economy_to_act();
        let Some(m) =
            r.me.filter(|m| !r.excluded.contains(m) && !r.holds_back(*m))
        else {
            return;
        };
        let mine: Vec<PlayerId> = r
            .seats_of(m)
            .into_iter()
            .filter(|s| to_act.contains(s))
            .collect();
        let (Some(s), false) = (r.economy_state(), mine.is_empty()) else {
            return;
        };
        if r.orders.get(&round).is_some_and(|o| o.mine.is_some()) {
            return;
        }
        // Our commitment from before a reload, which this window made: we can reveal it again.
        let committed = r
            .orders
            .get(&round)
            .and_then(|o| o.commits.get(&m))
            .map(|(h, _)| *h);
        let battle = s.combat.as_ref().and_then(|c| c.battle.as_ref());
        let (start, wait, batch) = match (s.phase, battle) {
            (EcoPhase::Combat, Some(b)) if b.pending.is_some() => {
                let batch = mine
                    .iter()
                    .map(|&player| EconomyAction::Intercept { player, yes: false })
                    .collect();
                (r.since.1, declare_ms, batch)
            }
            (EcoPhase::Combat, Some(_)) if !s.waiting_for_choice() => {
                let batch = mine
                    .iter()
                    .map(|&player| EconomyAction::Declare {
                        player,
                        action: None,
                    })
                    .collect();
                (r.since.1, declare_ms, batch)
            }
            (EcoPhase::Planning, _) => {
                let playing = s.playing().count();
                let committed = r.orders.get(&round);
                let done = s
                    .playing()
                    .filter(|&seat| match r.controller(seat) {
                        Some(Controller::Peer(p)) => {
                            !to_act.contains(&seat)
                                || committed.is_some_and(|o| o.commits.contains_key(&p))
                        }
                        _ => true,
                    })
                    .count();
                if done * 2 <= playing {
                    return;
                }
                let o = r.orders.entry(round).or_default();
                let start = *o.majority_at.get_or_insert(now);
                (start, planning_ms, vec![])
            }
            _ => return,
        };
        let salt = self.empty_salt(round);
        if let Some(h) = committed {
            let payload = encode_economy(&batch);
            if h == orders_commitment(round, &payload, &salt) {
                if let Some(o) = self.run.as_mut().and_then(|r| r.orders.get_mut(&round)) {
                    o.mine = Some((payload, salt));
                }
                self.orders_step(round, out);
                self.advance(out);
            }
            return;
        }
        if now < start.saturating_add(wait) {
            return;
        }
        match self.commit_orders(round, encode_economy(&batch), salt) {
            Ok(o) => {
                out.merge(o);
                self.advance(out);
            }
            Err(e) => self.halt(HaltReport::Internal(format!("window closed: {e}")), out),
        }
    }

    /// Economy game, at the current position: resolves its round once every entitled
    /// participant's batch is revealed (or computes the computer seats' batch when no
    /// participant is awaited), draws its dice from the beacon if it rolls any, and applies it.
    /// True when the log moved on or something changed that may let it.
    pub(super) fn advance_economy(&mut self, out: &mut Output) -> bool {
        let Some(r) = &mut self.run else { return false };
        let index = r.next_index();
        if r.pending.is_some() {
            let Some(seed) = Self::roll_seed(r) else {
                return false;
            };
            let Some(p) = r.pending.take() else {
                return false;
            };
            r.roll_count = p.roll;
            let Some(batch) = r.economy.take().filter(|b| b.index == index) else {
                self.halt(
                    HaltReport::Internal("economy roll without batch".into()),
                    out,
                );
                return false;
            };
            return self.apply_batch(batch, &mut SeededDice::new(seed), out);
        }
        let round = index as u32;
        let required = r.economy_required();
        // Commitments of participants nobody awaits here: refused as out of turn (a seat handed
        // to the computer meanwhile is no fault of its former player's).
        let to_act = r.economy_to_act();
        if let Some(o) = r.orders.get_mut(&round) {
            let stray: Vec<u8> = o
                .commits
                .keys()
                .copied()
                .filter(|p| !required.contains(p))
                .collect();
            for p in stray {
                if o.commits.remove(&p).is_some() {
                    o.reveals.remove(&p);
                    let seated = r.proposal.seats.iter().enumerate().any(|(i, s)| {
                        s.controller == Controller::Peer(p) && to_act.contains(&(i as PlayerId))
                    });
                    if !seated {
                        let who = r.proposal.participants.get(p as usize).copied();
                        Self::reject(out, None, who, Violation::OutOfTurn { index });
                    }
                }
            }
        }
        let batch = if required.is_empty() {
            let Some(b) = self.computers_batch(index) else {
                if self.thoughts.waiting() {
                    return false;
                }
                let why = "no player and no computer can act in the economy game";
                self.halt(HaltReport::Internal(why.into()), out);
                return false;
            };
            b
        } else {
            self.orders_step(round, out);
            let Some(r) = &mut self.run else { return false };
            if !r.orders.get(&round).is_some_and(|o| o.done) {
                return false;
            }
            // Face-down cards shown at this position: judged before anything is applied (once:
            // kept while its computers' moves are thought elsewhere).
            let judged = match self.thoughts.judged.take().filter(|(i, _)| *i == index) {
                Some((_, j)) => j,
                None => {
                    let Some(j) = r.judge_reveals(index, &required) else {
                        return false;
                    };
                    j
                }
            };
            let Some(b) = self.round_batch(index, &required, &judged) else {
                self.thoughts.judged = Some((index, judged));
                return false;
            };
            b
        };
        let Some(r) = &mut self.run else { return false };
        // Does the batch roll any die? (Every peer asks the engine the same question.)
        let Some(s) = r.economy_state() else {
            return false;
        };
        let mut probe = Probe {
            rolls: 0,
            inner: SeededDice::new(batch.content),
        };
        play(&mut s.clone(), &batch, &mut probe);
        if probe.rolls == 0 {
            let seed = batch.content;
            return self.apply_batch(batch, &mut SeededDice::new(seed), out);
        }
        let roll = r.roll_count + 1;
        let pending = PendingRoll {
            index,
            roll,
            decl: batch.content,
            // Unused: the economy batch waits in `Run::economy`.
            action: Action::EndTurn,
            seat: 0,
            record: Record {
                content: batch.content,
                signer: None,
                raw: None,
                controls: vec![],
            },
            since: self.now,
        };
        r.economy = Some(batch);
        self.open_roll(pending, out)
    }

    /// Applies a fixed batch with `dice` (`batch::play`: its steps, the defaults of owed seats
    /// that made no move, the planning round's closing), names the senders of refused actions,
    /// and logs the position.
    fn apply_batch(&mut self, batch: EconomyBatch, dice: &mut dyn Dice, out: &mut Output) -> bool {
        let Some(r) = &mut self.run else { return false };
        let index = batch.index;
        let round = index as u32;
        let parts = r.proposal.participants.clone();
        let Game::Economy(s) = &mut r.state else {
            return false;
        };
        let mut violations: Vec<(Option<PeerKey>, Violation)> = batch
            .unread
            .iter()
            .map(|(p, error)| {
                let error = error.clone();
                (
                    parts.get(*p as usize).copied(),
                    Violation::IllegalOrders { round, error },
                )
            })
            .collect();
        for &(p, seat, positions) in &batch.held {
            violations.push((
                parts.get(p as usize).copied(),
                Violation::StepHeld {
                    round,
                    seat,
                    positions,
                },
            ));
        }
        // The position counts for the seats awaited in a step of many actions (before it is
        // played: the count is of the state each position began with).
        count_position(&mut r.held, s);
        let played = play(s, &batch, dice);
        if let Err(e) = r.deal_economy_events(&played.events) {
            self.halt(HaltReport::Internal(e), out);
            return false;
        }
        let Some(r) = &mut self.run else { return false };
        let Game::Economy(s) = &mut r.state else {
            return false;
        };
        for (i, e) in played.refused {
            let Some(st) = batch.steps.get(i) else {
                continue;
            };
            match st.sender {
                Some(p) if !st.excused => violations.push((
                    parts.get(p as usize).copied(),
                    Violation::IllegalOrders { round, error: e },
                )),
                // Legal with its sender's batch alone against the position's start state: an
                // earlier action of the position (a lower seat's) made it impossible, which is
                // nobody's fault; it is skipped.
                Some(_) => {}
                None if batch.computers_only && i == 0 => {
                    let why = format!("computer move {:?} refused: {e}", st.action);
                    self.halt(HaltReport::Internal(why), out);
                    return false;
                }
                // A computer's move from the position's state that an earlier action of
                // the batch made impossible: it moves again at the next position.
                None => {}
            }
        }
        let over = s.phase == EcoPhase::Over;
        let controls = std::mem::take(&mut r.controls_here);
        let head = next_head_economy(&r.head(), index, &controls, &batch.content);
        r.log.push(Record {
            content: batch.content,
            signer: None,
            raw: None,
            controls,
        });
        r.push_head(head);
        Self::prune_votes(r, self.me);
        r.future_reveals.retain(|i, _| *i > index);
        for (peer, violation) in violations {
            Self::reject(out, None, peer, violation);
        }
        out.events.push(ProtocolEvent::EconomyApplied {
            index,
            actions: played.applied,
            events: played.events,
        });
        self.progress();
        self.checkpoint(true, head, out);
        if over {
            self.publish_secret_into(out);
        }
        true
    }
}
