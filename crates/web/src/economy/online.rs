//! An economy game played online: what the page knows beyond the engine state, the batch of
//! actions it hands to the protocol, and the protocol's news (positions played, who has
//! committed). The protocol itself runs in `crate::online`; this keeps only the screen's side.
//!
//! Online, every log position is one commit-reveal round among the players the engine waits
//! for (`orbis_protocol`'s economy module), so a player's choices for a step (the Get phase's
//! recruits and builds, friendly moves, a battle declaration) travel as one batch that ends the
//! step. The screen applies each choice to a draft copy of the agreed state, with stand-in dice,
//! so the panel shows its effect and offers only what the engine accepts; once the player's
//! seats have nothing left to do at this position the batch is queued for the protocol.
//!
//! Invariant: `confirmed` is the state every peer agrees on; `game` is `confirmed` plus this
//! page's unsent or unrevealed batch, and only while that batch rolled no die (a roll's result
//! is the beacon's, not the stand-in's).
//!
//! Built on every page with the economy (it needs only the engine); only the online page
//! creates an online session.
#![cfg_attr(not(feature = "online"), allow(dead_code))]

use super::{EconomySession, Seat};
use orbis_engine::dice::{Dice, SeededDice};
use orbis_engine::rules::classic::PlayerId;
use orbis_engine::rules::economy::action::{EconomyAction as A, EconomyEvent};
use orbis_engine::rules::economy::state::EconomyState;

/// What an online economy page knows beyond the engine state.
#[derive(Clone, PartialEq, Debug)]
pub struct OnlineEconomy {
    /// The seats this browser plays.
    pub mine: Vec<PlayerId>,
    /// The state every peer agrees on (the log's).
    pub confirmed: EconomyState,
    /// Our choices at this position, applied to the draft in order.
    pub batch: Vec<A>,
    /// Our batch for this position is committed; waiting for the others.
    pub sent: bool,
    /// Who has committed at this position, and who it is waiting for.
    pub committed: Vec<String>,
    pub waiting: Vec<String>,
    /// The cards cannot be dealt until those in `waiting` send their part: ours, or a computer
    /// seat's (the game stops for both); we send nothing meanwhile.
    pub dealing: Option<Dealing>,
}

/// Whose influence cards the deal holds up (online, dealt face down).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dealing {
    /// Ours: we cannot read them yet.
    Ours,
    /// A computer seat's, drawn face up for everyone once the deal is whole.
    Computers,
}

thread_local! {
    /// Batches submitted on the screen, each with the position it was chosen at (the agreed
    /// state's action count), waiting for the online screen's next protocol step.
    static QUEUE: std::cell::RefCell<Vec<(u32, Vec<A>)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Queues a batch for the online screen to commit (again, when it waits for our influence
/// cards to be dealt).
pub fn queue(batch: (u32, Vec<A>)) {
    QUEUE.with(|q| q.borrow_mut().push(batch));
}

/// The batches queued since the last call (the online screen commits them).
pub fn take_queued() -> Vec<(u32, Vec<A>)> {
    QUEUE.with(|q| std::mem::take(&mut *q.borrow_mut()))
}

/// Counts the dice a draft rolls.
struct Count(u32, SeededDice);

impl Dice for Count {
    fn next_u32(&mut self) -> u32 {
        self.0 += 1;
        self.1.next_u32()
    }
}

impl EconomySession {
    /// An online session: this browser plays the seats `mine`; the others are remote players or
    /// computer seats that every peer computes alike.
    pub fn new_online(game: EconomyState, mine: &[PlayerId]) -> EconomySession {
        let seats = (0..game.players.len() as PlayerId)
            .map(|p| match mine.contains(&p) {
                true => Seat::Human,
                false => Seat::Remote,
            })
            .collect();
        let mut s = EconomySession::new(game.clone(), seats);
        s.online = Some(OnlineEconomy {
            mine: mine.to_vec(),
            confirmed: game,
            batch: vec![],
            sent: false,
            committed: vec![],
            waiting: vec![],
            dealing: None,
        });
        s
    }

    /// Online: the protocol played one or more positions; `game` is the state now and `events`
    /// what happened, oldest first. Our draft is dropped: the agreed state replaces it.
    pub fn online_played(&mut self, game: EconomyState, events: &[EconomyEvent]) {
        let Some(o) = self.online.as_mut() else {
            return;
        };
        o.confirmed = game.clone();
        o.batch.clear();
        o.sent = false;
        // The log words events against the state they happened in; the state after them
        // names the same regions and players.
        self.game = game;
        self.log_events(events);
        self.ui.sel = None;
        self.ui.to = None;
        self.ui.cards.clear();
        self.ui.place = Default::default();
        self.ui.drafts.clear();
        self.ui.error = None;
    }

    /// Online: who has committed and who is awaited; `sent`: the protocol holds our batch for
    /// this position (also after a reload, or when our window closed by itself).
    pub fn online_status(
        &mut self,
        mine: Vec<PlayerId>,
        sent: bool,
        committed: Vec<String>,
        waiting: Vec<String>,
        deadline: Option<i64>,
        dealing: Option<Dealing>,
    ) {
        let Some(o) = self.online.as_mut() else {
            return;
        };
        self.ui.deadline = deadline;
        // Our seats now: one handed to the computer (we were voted out) is no longer ours to
        // play, and one handed back is again.
        for (p, seat) in self.seats.iter_mut().enumerate() {
            *seat = match mine.contains(&(p as PlayerId)) {
                true => Seat::Human,
                false => Seat::Remote,
            };
        }
        o.mine = mine;
        o.committed = committed;
        o.waiting = waiting;
        o.dealing = dealing;
        if sent && !o.sent {
            o.sent = true;
            // Committed without this page's choices (the window closed: a pass; or the
            // computer chose for us): the draft goes, and the player is told.
            if !o.batch.is_empty() {
                o.batch.clear();
                self.game = o.confirmed.clone();
                self.ui.error = Some(
                    "Time ran out for this step (or the computer played it for you): your \
                     choices were not sent."
                        .into(),
                );
            }
        } else if !sent && o.sent && dealing.is_none() {
            // The protocol holds no batch of ours for this position (refused, or it came too
            // late for a window): the player chooses again from the agreed state. (While our
            // cards are being dealt, the batch waits in the queue and goes out after.)
            o.sent = false;
            o.batch.clear();
            self.game = o.confirmed.clone();
            self.ui.error =
                Some("Your choices were not taken (see the room's notes): choose again.".into());
        }
        // Rolling on: the next pass, now that this position is known.
        self.online_roll();
    }

    /// Online: our seats the position waits for, while our batch is not sent.
    pub fn online_due(&self) -> Vec<PlayerId> {
        let Some(o) = &self.online else {
            return vec![];
        };
        if o.sent {
            return vec![];
        }
        o.confirmed
            .to_act()
            .into_iter()
            .filter(|p| o.mine.contains(p))
            .collect()
    }

    /// Online: applies our choice `a` to the draft. Once none of our seats is left to act at
    /// this position (the choice finished the step) the batch goes to the protocol. True when
    /// the draft changed.
    pub(super) fn online_act(&mut self, a: &A) -> bool {
        let due = self.online_due();
        if !due.contains(&a.player()) {
            self.ui.error = Some(match self.online.as_ref().is_some_and(|o| o.sent) {
                true => "Your choices for this step are sent; wait for the other players.".into(),
                false => "It is not your move: wait for the players named above.".into(),
            });
            return false;
        }
        let mut dice = Count(0, SeededDice::new([0; 32]));
        let mut draft = self.game.clone();
        match draft.apply_with(a, &mut dice) {
            Ok(events) => {
                self.ui.error = None;
                let Some(o) = self.online.as_mut() else {
                    return false;
                };
                o.batch.push(a.clone());
                let left = o.confirmed.same_step(&draft);
                // A draft that rolled shows the agreed state until the beacon's roll is in. Its
                // events are logged once the protocol has played them, with everyone's.
                let _ = events;
                if dice.0 == 0 {
                    self.game = draft;
                }
                if !left || dice.0 > 0 {
                    let batch = std::mem::take(&mut o.batch);
                    let at = o.confirmed.steps;
                    queue((at, batch));
                    o.sent = true;
                }
                true
            }
            Err(e) => {
                self.ui.error = Some(super::text::cap(&e.to_string()));
                false
            }
        }
    }

    /// Online: undoes our unsent choices at this position.
    pub fn online_undo(&mut self) {
        if let Some(o) = self.online.as_mut().filter(|o| !o.sent) {
            o.batch.clear();
            self.game = o.confirmed.clone();
            self.ui.error = None;
        }
    }
}
