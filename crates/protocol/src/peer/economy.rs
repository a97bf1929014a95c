//! The economy ruleset in a room: every log position is one step of the engine, played by the
//! participants whose seats the engine waits for (`EconomyState::to_act`).
//!
//! Owns `Run::economy` (the batch of a position whose dice are being drawn), the economy
//! payloads of the generic rounds (`rounds`), the declaration and planning windows, and the
//! computer seats' moves.
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
//! its sender does not play, is void and its sender named; nobody's batch is seen before every
//! entitled participant has committed.

use super::*;
use crate::wire::{decode_economy, encode_economy};
use orbis_engine::bot::economy as eco_bot;
use orbis_engine::dice::Dice;
use orbis_engine::rules::economy::action::{EconomyAction, EconomyEvent};
use orbis_engine::rules::economy::options::EconomyOptions;
use orbis_engine::rules::economy::phase::Phase as EcoPhase;
use orbis_engine::rules::economy::state::EconomyState;

/// One action of a position's batch: the seat it is for, who sent it (`None`: a computer seat,
/// computed by every peer), and the action.
#[derive(Clone, Debug)]
pub(super) struct Step {
    pub(super) sender: Option<u8>,
    pub(super) action: EconomyAction,
}

/// The batch of a position, fixed and waiting for its dice.
#[derive(Clone, Debug)]
pub(super) struct EconomyBatch {
    pub(super) index: u64,
    pub(super) content: [u8; 32],
    pub(super) steps: Vec<Step>,
    /// Payloads that could not be read (sender, error): void, named when the batch is applied.
    pub(super) unread: Vec<(u8, String)>,
    /// No participant played at this position (every awaited seat is a computer's).
    pub(super) computers_only: bool,
}

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
    EconomyState::new(&names, options.clone(), seed)
        .map(|(s, _)| Game::Economy(s))
        .map_err(|e| e.to_string())
}

impl Run {
    fn economy_state(&self) -> Option<&EconomyState> {
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
    fn seated(&self, p: u8) -> Vec<PlayerId> {
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
    /// it plays; applied in order). They are checked with the engine first (with stand-in dice)
    /// and revealed once every entitled participant has committed.
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
        let mine = r.seats_of(m);
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
        self.commit_orders(round, encode_economy(&actions), salt)
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
        let Some(m) = r.me.filter(|m| !r.excluded.contains(m)) else {
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
                let why = "no player and no computer can act in the economy game";
                self.halt(HaltReport::Internal(why.into()), out);
                return false;
            };
            b
        } else {
            self.orders_step(round, out);
            let Some(r) = &self.run else { return false };
            if !r.orders.get(&round).is_some_and(|o| o.done) {
                return false;
            }
            self.round_batch(index, &required)
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
        let mut t = s.clone();
        for st in &batch.steps {
            let _ = t.apply_with(&st.action, &mut probe);
        }
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

    /// The batch of a position no participant is awaited at: each awaited computer seat's
    /// move, in seat order.
    fn computers_batch(&mut self, index: u64) -> Option<EconomyBatch> {
        let r = self.run.as_ref()?;
        let s = r.economy_state()?;
        let steps: Vec<Step> = s
            .to_act()
            .into_iter()
            .filter_map(|seat| match r.controller(seat) {
                Some(Controller::Bot(level)) => eco_bot::choose(s, seat, level),
                _ => None,
            })
            .map(|action| Step {
                sender: None,
                action,
            })
            .collect();
        if steps.is_empty() {
            return None;
        }
        let mut content = b"orbis-economy-computers".to_vec();
        content.extend_from_slice(&index.to_le_bytes());
        for st in &steps {
            content.extend_from_slice(&codec::encode(&st.action));
        }
        Some(EconomyBatch {
            index,
            content: sha256(&content),
            steps,
            unread: vec![],
            computers_only: true,
        })
    }

    /// The batch of a resolved round: each seat's actions in seat order, from its player's
    /// revealed payload or, for an awaited computer seat, its move from the position's state.
    fn round_batch(&self, index: u64, required: &[u8]) -> EconomyBatch {
        let mut batch = EconomyBatch {
            index,
            content: [0; 32],
            steps: vec![],
            unread: vec![],
            computers_only: false,
        };
        let Some(r) = &self.run else { return batch };
        let Some(s) = r.economy_state() else {
            return batch;
        };
        let round = index as u32;
        let mut content = b"orbis-economy-round".to_vec();
        content.extend_from_slice(&round.to_le_bytes());
        let mut payloads: BTreeMap<u8, Vec<EconomyAction>> = BTreeMap::new();
        if let Some(o) = r.orders.get(&round) {
            for &p in required {
                let Some((bytes, _)) = o.reveals.get(&p) else {
                    continue;
                };
                content.extend_from_slice(&codec::encode(&(p, bytes)));
                match decode_economy(bytes) {
                    Ok(list) => {
                        payloads.insert(p, list);
                    }
                    Err(e) => batch.unread.push((p, format!("undecodable actions: {e}"))),
                }
            }
        }
        let to_act = s.to_act();
        for seat in 0..r.proposal.seats.len() as PlayerId {
            match r.controller(seat) {
                Some(Controller::Bot(level)) if to_act.contains(&seat) => {
                    if let Some(action) = eco_bot::choose(s, seat, level) {
                        batch.steps.push(Step {
                            sender: None,
                            action,
                        });
                    }
                }
                Some(Controller::Peer(p)) => {
                    for a in payloads.get(&p).into_iter().flatten() {
                        if a.player() == seat {
                            batch.steps.push(Step {
                                sender: Some(p),
                                action: a.clone(),
                            });
                        }
                    }
                }
                _ => {}
            }
        }
        // Actions for a seat the sender does not play: void; named unless the seat was its own
        // and went to the computer meanwhile.
        for (&p, list) in &payloads {
            let now = r.seats_of(p);
            let seated = r.seated(p);
            for a in list {
                if !now.contains(&a.player()) && !seated.contains(&a.player()) {
                    batch.unread.push((
                        p,
                        format!("an action for seat {}, which it does not play", a.player()),
                    ));
                }
            }
        }
        batch.content = sha256(&content);
        batch
    }

    /// Applies a fixed batch with `dice`, names the senders of refused actions, closes the
    /// planning phase for players who sent no plans, and logs the position.
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
        let mut applied = vec![];
        let mut events: Vec<EconomyEvent> = vec![];
        // A planning round (not the Get phase's last step, which begins planning).
        let planning = s.phase == EcoPhase::Planning;
        for (i, st) in batch.steps.iter().enumerate() {
            match s.apply_with(&st.action, dice) {
                Ok(ev) => {
                    applied.push(st.action.clone());
                    events.extend(ev);
                }
                Err(e) => match st.sender {
                    Some(p) => violations.push((
                        parts.get(p as usize).copied(),
                        Violation::IllegalOrders {
                            round,
                            error: e.to_string(),
                        },
                    )),
                    None if batch.computers_only && i == 0 => {
                        let why = format!("computer move {:?} refused: {e}", st.action);
                        self.halt(HaltReport::Internal(why), out);
                        return false;
                    }
                    // A computer's move from the position's state that an earlier action of
                    // the batch made impossible: it moves again at the next position.
                    None => {}
                },
            }
        }
        // Planning: every player had this round to send plans, and the reveals showed the
        // plans sent. Whoever sent none (or none the engine took) moves nothing this round, so
        // nobody plans after seeing the others' plans: late once a majority has submitted (the
        // planning minute ran out for them: `ClosePlanning`), empty plans otherwise.
        if planning && s.planning_clock_runs() {
            if let Some(&first) = s.plans.keys().next() {
                let close = EconomyAction::ClosePlanning { player: first };
                if let Ok(ev) = s.apply_with(&close, dice) {
                    applied.push(close);
                    events.extend(ev);
                }
            }
        }
        if planning && s.phase == EcoPhase::Planning {
            for player in s.to_act() {
                let empty = EconomyAction::SubmitPlans {
                    player,
                    moves: vec![],
                };
                if let Ok(ev) = s.apply_with(&empty, dice) {
                    applied.push(empty);
                    events.extend(ev);
                }
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
        r.heads.push(head);
        Self::prune_votes(r, self.me);
        r.future_reveals.retain(|i, _| *i > index);
        for (peer, violation) in violations {
            Self::reject(out, None, peer, violation);
        }
        out.events.push(ProtocolEvent::EconomyApplied {
            index,
            actions: applied,
            events,
        });
        self.progress();
        self.checkpoint(true, head, out);
        if over {
            self.publish_secret_into(out);
        }
        true
    }
}
