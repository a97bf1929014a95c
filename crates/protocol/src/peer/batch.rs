//! The batch of an economy position (see `economy`): built from the revealed payloads and the
//! awaited computer seats' moves, completed with the engine's defaults for the awaited seats
//! their player left without a move, and applied in seat order.
//!
//! Owns `EconomyBatch` (what a position plays), how a position's step is classified
//! (`StepKind`: what counts as a seat's move there and what its default is), how a batch is
//! applied (`play`), which the dice probe and the real application both run, so whether a
//! position rolls is judged on exactly what is applied, and the count of positions each seat
//! spent in a step of many actions (`Run::held`, [`MAX_STEP_POSITIONS`]).
//!
//! Invariant: after a position, no seat of an awaited participant is still awaited in the step
//! it was awaited in without having moved: its player's move, or the default (a pass, no
//! interception, the end of its Get phase — its upkeep settled the plain way first if it was
//! not — or of its movement, the end of moving on, the easy computer's pick; at planning, empty
//! plans or `ClosePlanning`). So an empty batch neither stalls the game nor lets its sender see
//! the others' moves of a simultaneous step before its own. An action refused only because an
//! earlier action of the same position changed the state (it was legal with its sender's batch
//! alone) is skipped without naming its sender; a batch of more than [`MAX_BATCH_ACTIONS`]
//! actions is void and its sender named. No seat is awaited at more than
//! [`MAX_STEP_POSITIONS`] + 1 positions of one step of many actions (its Get phase, its
//! friendly movement, its moving on in one combat phase), whatever it plays there: at the next
//! position after that many, its actions are void (its player named, `StepHeld`; a computer
//! seat's move is not computed) and it makes the step's default move. The count is a function
//! of the log alone (the state each position began with), so every peer, a reloaded one and
//! `verify` included, cuts the same seat at the same position.

use super::*;
use crate::wire::decode_economy;
use orbis_engine::bot::economy as eco_bot;
use orbis_engine::dice::Dice;
use orbis_engine::rules::economy::action::{EconomyAction, EconomyEvent};
use orbis_engine::rules::economy::phase::Phase as EcoPhase;
use orbis_engine::rules::economy::state::EconomyState;

/// Most actions one participant's batch may hold: far above any honest batch (a whole Get
/// phase of a large empire is a few dozen actions), and small enough that applying a position
/// (each action a few times: alone, in the dice probe, for real) stays quick. A batch over it
/// is void and its sender named (`a_batch_over_the_cap_is_void_and_its_sender_named`).
pub const MAX_BATCH_ACTIONS: usize = 1024;

/// Most positions a seat may spend in one step of many actions (its Get phase, its friendly
/// movement, or moving on over one combat phase, counted from the state each position began
/// with). At the next position its actions are void, its player named (`StepHeld`), and it
/// makes the step's default move, so a player that sends moves which change nothing lasting (an
/// alliance offered and withdrawn) cannot hold the game at a step for ever
/// (`holding_the_get_phase_with_moves_that_undo_themselves_is_cut_off_at_the_cap` in
/// `tests/economy_hold.rs`). Honest seats use a few: a page sends a step's choices as one batch
/// (cut only at a die), and in whole games between computer players that send one action per
/// seat and position, no seat spent more than 6 positions in one step
/// (`honest_seats_spend_few_positions_in_a_step`).
pub const MAX_STEP_POSITIONS: u32 = 64;

/// Per seat: the round and the step of many actions it was last awaited in, and at how many
/// positions of it (`Run::held`). Steps of a single choice in between (a combat phase's battles
/// between two moving-on steps) neither count nor reset it.
pub(super) type Held = BTreeMap<PlayerId, (u32, StepKind, u32)>;

/// Positions `seat` has spent, before this one, in the step of many actions `s` waits in (0 in
/// any other step).
pub(super) fn spent(held: &Held, s: &EconomyState, seat: PlayerId) -> u32 {
    let kind = step_kind(s);
    match held.get(&seat) {
        Some(&(round, k, n)) if kind.open_ended() && round == s.round && k == kind => n,
        _ => 0,
    }
}

/// Whether `seat`, awaited in `s`, has used up its positions in the step.
pub(super) fn at_cap(held: &Held, s: &EconomyState, seat: PlayerId) -> bool {
    spent(held, s, seat) >= MAX_STEP_POSITIONS
}

/// Counts the position that began in `s` for every seat awaited there in a step of many actions.
pub(super) fn count_position(held: &mut Held, s: &EconomyState) {
    let kind = step_kind(s);
    if !kind.open_ended() {
        return;
    }
    for seat in s.to_act() {
        let n = spent(held, s, seat).saturating_add(1);
        held.insert(seat, (s.round, kind, n));
    }
}

/// One action of a position's batch: who sent it (`None`: a computer seat, computed by every
/// peer), the action, and whether it was legal against the position's start state with its
/// sender's batch alone (so a refusal is the doing of an earlier action of the position).
#[derive(Clone, Debug)]
pub(super) struct Step {
    pub(super) sender: Option<u8>,
    pub(super) action: EconomyAction,
    pub(super) excused: bool,
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
    /// The step the position began in.
    pub(super) kind: StepKind,
    /// Awaited seats of the round's participants, in seat order: each moves at this position,
    /// by its player's batch or by default.
    pub(super) owed: Vec<PlayerId>,
    /// Seats of players that had used up their positions in the step ([`MAX_STEP_POSITIONS`]):
    /// (player, seat, positions spent). Their actions are void and they make the default move;
    /// each is named when the batch is applied.
    pub(super) held: Vec<(u8, PlayerId, u32)>,
}

/// What an economy position waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum StepKind {
    /// A setup pick or placement.
    Setup,
    /// The Get phase (any number of actions, then `FinishGet`).
    Get,
    Planning,
    /// Friendly movement (moves, then `FinishMoving`).
    Moving,
    /// Moving on after the battles (moves, then `StopMoving`).
    MoveOn,
    /// A card owed is stolen.
    Steal,
    /// The initiative holder picks a battle.
    PickBattle,
    /// The players asked whether to intercept answer.
    Intercept,
    /// The initiative holder picks whose declared action resolves first.
    ChooseAction,
    /// A declaration window after a roll.
    Declare,
    /// Nothing is awaited.
    Idle,
}

/// The step `s` waits in.
pub(super) fn step_kind(s: &EconomyState) -> StepKind {
    match s.phase {
        EcoPhase::Pick(_) | EcoPhase::Place => StepKind::Setup,
        EcoPhase::Get => StepKind::Get,
        EcoPhase::Planning => StepKind::Planning,
        EcoPhase::Moving => StepKind::Moving,
        EcoPhase::Combat => match s.combat.as_ref() {
            None => StepKind::Idle,
            Some(c) => match &c.battle {
                None if !c.steals.is_empty() => StepKind::Steal,
                None if c.tokens.is_empty() => StepKind::MoveOn,
                None => StepKind::PickBattle,
                Some(b) if b.pending.is_some() => StepKind::Intercept,
                Some(_) if s.waiting_for_choice() => StepKind::ChooseAction,
                Some(_) => StepKind::Declare,
            },
        },
        EcoPhase::Over => StepKind::Idle,
    }
}

impl StepKind {
    /// Steps of many actions (a seat acts again at the next position until it finishes them),
    /// as opposed to a single simultaneous or entitled choice.
    fn open_ended(self) -> bool {
        matches!(self, StepKind::Get | StepKind::Moving | StepKind::MoveOn)
    }

    /// Whether `a` is a seat's move in a step of this kind.
    fn is_move(self, a: &EconomyAction) -> bool {
        use EconomyAction as A;
        match self {
            StepKind::Setup => matches!(a, A::Setup { .. }),
            StepKind::Planning => matches!(a, A::SubmitPlans { .. }),
            StepKind::Steal => matches!(a, A::StealCard { .. }),
            StepKind::PickBattle => matches!(a, A::PickBattle { .. }),
            StepKind::Intercept => matches!(a, A::Intercept { .. }),
            StepKind::ChooseAction => matches!(a, A::ChooseAction { .. }),
            StepKind::Declare => matches!(a, A::Declare { .. }),
            StepKind::Get | StepKind::Moving | StepKind::MoveOn | StepKind::Idle => true,
        }
    }

    /// The moves seat `p` makes in `s` when its player's batch made none: the engine's own
    /// "nothing" where it has one (the windows' pass, the end of a phase of many actions; in
    /// the Get phase its upkeep settled the plain way first, `plain_settlement`, which the end
    /// needs), else the easy computer's choice. Planning is closed after the batch
    /// (`ClosePlanning` / empty plans).
    pub(super) fn default_moves(self, s: &EconomyState, p: PlayerId) -> Vec<EconomyAction> {
        use EconomyAction as A;
        let unsettled = s.get.get(p as usize).is_some_and(|t| !t.settled);
        match self {
            StepKind::Get if unsettled => vec![
                A::SettleUpkeep {
                    player: p,
                    losses: s.plain_settlement(p),
                },
                A::FinishGet { player: p },
            ],
            _ => self.default_move(s, p).into_iter().collect(),
        }
    }

    fn default_move(self, s: &EconomyState, p: PlayerId) -> Option<EconomyAction> {
        use EconomyAction as A;
        match self {
            StepKind::Get => Some(A::FinishGet { player: p }),
            StepKind::Moving => Some(A::FinishMoving { player: p }),
            StepKind::MoveOn => Some(A::StopMoving { player: p }),
            StepKind::Intercept => Some(A::Intercept {
                player: p,
                yes: false,
            }),
            StepKind::Declare => Some(A::Declare {
                player: p,
                action: None,
            }),
            StepKind::Setup | StepKind::Steal | StepKind::PickBattle | StepKind::ChooseAction => {
                eco_bot::choose(s, p, BotLevel::Easy)
            }
            StepKind::Planning | StepKind::Idle => None,
        }
    }
}

/// What applying a batch did.
pub(super) struct Played {
    pub(super) applied: Vec<EconomyAction>,
    pub(super) events: Vec<EconomyEvent>,
    /// Steps the engine refused: (index in the batch, error).
    pub(super) refused: Vec<(usize, String)>,
}

/// Applies `b` to `s` with `dice`: its steps in order, then the default move of every owed seat
/// that made none and is still awaited, then the planning round's closing. Every peer runs this
/// on the same state with the same dice, so they apply the very same actions.
pub(super) fn play(s: &mut EconomyState, b: &EconomyBatch, dice: &mut dyn Dice) -> Played {
    let mut played = Played {
        applied: vec![],
        events: vec![],
        refused: vec![],
    };
    // A planning round (not the Get phase's last step, which begins planning).
    let planning = s.phase == EcoPhase::Planning;
    let mut moved: BTreeSet<PlayerId> = BTreeSet::new();
    for (i, st) in b.steps.iter().enumerate() {
        let is_move = b.kind.is_move(&st.action);
        match s.apply_with(&st.action, dice) {
            Ok(ev) => {
                if is_move {
                    moved.insert(st.action.player());
                }
                played.applied.push(st.action.clone());
                played.events.extend(ev);
            }
            Err(e) => {
                // In a step of many actions, a move an earlier action of the position made
                // impossible still counts as the seat's move: it acts again at the next one.
                if is_move && st.excused && b.kind.open_ended() {
                    moved.insert(st.action.player());
                }
                played.refused.push((i, e.to_string()));
            }
        }
    }
    // Owed seats that made no move: their default, in seat order, so the engine moves past
    // them at this position (whoever sends nothing cannot hold the game, nor answer a
    // simultaneous step after seeing the others' answers).
    for &p in &b.owed {
        if moved.contains(&p) || !s.to_act().contains(&p) {
            continue;
        }
        for a in step_kind(s).default_moves(s, p) {
            if let Ok(ev) = s.apply_with(&a, dice) {
                played.applied.push(a);
                played.events.extend(ev);
            }
        }
    }
    // Planning: every player had this round to send plans, and the reveals showed the plans
    // sent. Whoever sent none (or none the engine took) moves nothing this round, so nobody
    // plans after seeing the others' plans: late once a majority has submitted (the planning
    // minute ran out for them: `ClosePlanning`), empty plans otherwise.
    if planning && s.planning_clock_runs() {
        if let Some(&first) = s.plans.keys().next() {
            let close = EconomyAction::ClosePlanning { player: first };
            if let Ok(ev) = s.apply_with(&close, dice) {
                played.applied.push(close);
                played.events.extend(ev);
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
                played.applied.push(empty);
                played.events.extend(ev);
            }
        }
    }
    played
}

impl Peer {
    /// The batch of a position no participant is awaited at: each awaited computer seat's
    /// move, in seat order. `None` also while one is thought elsewhere (`Thoughts::waiting`).
    pub(super) fn computers_batch(&self, index: u64) -> Option<EconomyBatch> {
        let r = self.run.as_ref()?;
        let s = r.economy_state()?;
        let mut thinking = false;
        let steps: Vec<Step> = s
            .to_act()
            .into_iter()
            .flat_map(|seat| match r.controller(seat) {
                Some(Controller::Bot(_)) if at_cap(&r.held, s, seat) => {
                    step_kind(s).default_moves(s, seat)
                }
                Some(Controller::Bot(level)) => {
                    match self.thoughts.economy(s, seat, level, self.probing) {
                        Some(a) => a.into_iter().collect(),
                        None => {
                            thinking = true;
                            vec![]
                        }
                    }
                }
                _ => vec![],
            })
            .map(|action| Step {
                sender: None,
                action,
                excused: false,
            })
            .collect();
        if steps.is_empty() || thinking {
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
            kind: step_kind(s),
            owed: vec![],
            held: vec![],
        })
    }

    /// The batch of a resolved round: each seat's actions in seat order, from its player's
    /// revealed payload or, for an awaited computer seat, its move from the position's state
    /// (its random part drawn from the revealed payloads, which nobody knew before every
    /// commitment was in). `None` while a computer seat's move is thought elsewhere.
    pub(super) fn round_batch(
        &self,
        index: u64,
        required: &[u8],
        judged: &Judged,
    ) -> Option<EconomyBatch> {
        let mut batch = EconomyBatch {
            index,
            content: [0; 32],
            steps: vec![],
            unread: vec![],
            computers_only: false,
            kind: StepKind::Idle,
            owed: vec![],
            held: vec![],
        };
        let Some(r) = &self.run else {
            return Some(batch);
        };
        let Some(s) = r.economy_state() else {
            return Some(batch);
        };
        batch.kind = step_kind(s);
        let round = index as u32;
        let mut content = b"orbis-economy-round".to_vec();
        content.extend_from_slice(&round.to_le_bytes());
        // Per participant: its actions, each with whether it is legal with that batch alone.
        let mut payloads: BTreeMap<u8, Vec<(EconomyAction, bool)>> = BTreeMap::new();
        if let Some(o) = r.orders.get(&round) {
            for &p in required {
                let Some((bytes, _)) = o.reveals.get(&p) else {
                    continue;
                };
                content.extend_from_slice(&codec::encode(&(p, bytes)));
                if let Some(why) = judged.void.get(&p) {
                    batch.unread.push((p, why.clone()));
                    continue;
                }
                match decode_economy(bytes) {
                    Ok(list) if list.len() > MAX_BATCH_ACTIONS => batch.unread.push((
                        p,
                        format!(
                            "a batch of {} actions (at most {MAX_BATCH_ACTIONS})",
                            list.len()
                        ),
                    )),
                    Ok(list) => {
                        let mine = r.seats_of(p);
                        let mut alone = s.clone();
                        let mut dice = SeededDice::new([0; 32]);
                        let list = list
                            .into_iter()
                            .map(|a| {
                                let ok = mine.contains(&a.player())
                                    && alone.apply_with(&a, &mut dice).is_ok();
                                (a, ok)
                            })
                            .collect();
                        payloads.insert(p, list);
                    }
                    Err(e) => batch.unread.push((p, format!("undecodable actions: {e}"))),
                }
            }
        }
        // Computer seats choose from the position's state, their randomness drawn from the
        // revealed payloads: nobody can compute their move before every commitment is in (from
        // the game seed and the step counter alone, a player could, and answer it).
        let mut seen = s.clone();
        // Computer seats' cards a payload revealed are shown first, and their moves see them.
        for &(player, slot, card) in &judged.computer_shows {
            let action = EconomyAction::ShowCard { player, slot, card };
            if seen
                .apply_with(&action, &mut SeededDice::new([0; 32]))
                .is_ok()
            {
                batch.steps.push(Step {
                    sender: None,
                    action,
                    excused: false,
                });
            }
        }
        let mut salt = s.rng.seed().to_vec();
        salt.extend_from_slice(b"orbis-economy-computers-after");
        salt.extend_from_slice(&sha256(&content));
        seen.rng = SeededDice::new(sha256(&salt));
        let to_act = s.to_act();
        let mut thinking = false;
        for seat in 0..r.proposal.seats.len() as PlayerId {
            let capped = to_act.contains(&seat) && at_cap(&r.held, s, seat);
            match r.controller(seat) {
                // A computer seat at the cap makes the step's default move (only a computer
                // that repeats itself could get there).
                Some(Controller::Bot(_)) if capped => {
                    for action in batch.kind.default_moves(s, seat) {
                        batch.steps.push(Step {
                            sender: None,
                            action,
                            excused: false,
                        });
                    }
                }
                Some(Controller::Bot(level)) if to_act.contains(&seat) => {
                    match self.thoughts.economy(&seen, seat, level, self.probing) {
                        Some(Some(action)) => batch.steps.push(Step {
                            sender: None,
                            action,
                            excused: false,
                        }),
                        Some(None) => {}
                        None => thinking = true,
                    }
                }
                Some(Controller::Peer(p)) => {
                    if to_act.contains(&seat) && required.contains(&p) {
                        batch.owed.push(seat);
                    }
                    // Its player held the step: its actions are void, the default follows.
                    if capped && required.contains(&p) {
                        batch.held.push((p, seat, spent(&r.held, s, seat)));
                        continue;
                    }
                    for (a, ok) in payloads.get(&p).into_iter().flatten() {
                        if a.player() == seat {
                            batch.steps.push(Step {
                                sender: Some(p),
                                action: a.clone(),
                                excused: *ok,
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
            for (a, _) in list {
                if !now.contains(&a.player()) && !seated.contains(&a.player()) {
                    batch.unread.push((
                        p,
                        format!("an action for seat {}, which it does not play", a.player()),
                    ));
                }
            }
        }
        batch.content = sha256(&content);
        (!thinking).then_some(batch)
    }
}
