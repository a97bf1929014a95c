//! Computer moves thought by the caller (issue 62, "never freeze the page"): a page may think
//! the computer seats' moves in a Web Worker instead of inside `handle`.
//!
//! By default a peer thinks every computer move itself, where the game reaches it (classic:
//! `bot::choose`; orders: `bot::orders::orders_for`; economy: `bot::economy::choose`). After
//! [`Peer::think_elsewhere`] it stops where it has no answer yet, lists what it waits for in
//! [`Peer::thoughts_wanted`], and goes on when [`Peer::thought`] brings the answer: the bytes
//! [`Thought::think`] would give (the engine's choice in its canonical encoding), computed by
//! the very same engine functions on the very same inputs elsewhere. A stop is like a message
//! that has not come yet: nothing is applied before every answer of the position is in, so the
//! game every peer agrees on does not change (`tests/suite/thoughts.rs`).
//!
//! Owns `Thoughts`; reads nothing else of the peer.

use super::*;
use orbis_engine::rules::economy::{action::EconomyAction, state::EconomyState};
use orbis_engine::rules::orders::notation::Written;
use serde::de::DeserializeOwned;
use std::sync::Mutex;

/// Answers kept (a position asks at most one per computer seat).
const KEPT: usize = 32;

/// A computer move a peer waits for: the bot's inputs. (A few at a time, each moved once: the
/// size of the largest state does not matter.)
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Thought {
    /// `bot::choose(state, level)` -> `Option<Action>`.
    Classic {
        state: ClassicState,
        level: BotLevel,
    },
    /// `bot::orders::orders_for(state, power, level, salt)` -> `Vec<Written>`.
    Orders {
        state: OrdersState,
        power: PowerId,
        level: BotLevel,
        salt: Vec<u8>,
    },
    /// `bot::economy::choose(state, seat, level)` -> `Option<EconomyAction>`.
    Economy {
        state: EconomyState,
        seat: PlayerId,
        level: BotLevel,
    },
}

impl Thought {
    /// Names the thought: the hash of its kind and inputs.
    pub fn key(&self) -> [u8; 32] {
        let bytes = match self {
            Thought::Classic { state, level } => codec::encode(&(0u8, state, level)),
            Thought::Orders {
                state,
                power,
                level,
                salt,
            } => codec::encode(&(1u8, state, power, level, salt)),
            Thought::Economy { state, seat, level } => codec::encode(&(2u8, state, seat, level)),
        };
        sha256(&bytes)
    }

    /// The answer, thought here: the engine's choice, encoded (`codec::encode`).
    pub fn think(&self) -> Vec<u8> {
        match self {
            Thought::Classic { state, level } => codec::encode(&bot::choose(state, *level)),
            Thought::Orders {
                state,
                power,
                level,
                salt,
            } => codec::encode(&bot::orders::orders_for(state, *power, *level, salt)),
            Thought::Economy { state, seat, level } => {
                codec::encode(&bot::economy::choose(state, *seat, *level))
            }
        }
    }
}

/// The peer's side: whether the caller thinks, the answers it gave, what we wait for.
#[derive(Default)]
pub(super) struct Thoughts {
    elsewhere: bool,
    answers: Vec<([u8; 32], Vec<u8>)>,
    /// Asked from `&self` paths (an economy position's batch), hence the lock (a `Peer` is
    /// `Sync`); never held across a call.
    wanted: Mutex<Vec<([u8; 32], Thought)>>,
    /// An economy position's judged reveals, kept while its computers' moves are thought
    /// (judging takes the reveals into the deal's table, which happens once).
    pub(super) judged: Option<(u64, Judged)>,
}

impl Clone for Thoughts {
    fn clone(&self) -> Self {
        Thoughts {
            elsewhere: self.elsewhere,
            answers: self.answers.clone(),
            wanted: Mutex::new(self.wanted().clone()),
            judged: self.judged.clone(),
        }
    }
}

impl Thoughts {
    fn wanted(&self) -> std::sync::MutexGuard<'_, Vec<([u8; 32], Thought)>> {
        // A panic while it was held cannot leave it half-written: take it as it is.
        self.wanted.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Forgets what we waited for (`advance` asks again for what it still lacks).
    pub(super) fn restart(&self) {
        self.wanted().clear();
    }

    pub(super) fn waiting(&self) -> bool {
        !self.wanted().is_empty()
    }

    /// The answer to `t` if the caller gave it; else `t` is wanted.
    fn answer<T: DeserializeOwned>(&self, t: Thought) -> Option<T> {
        let key = t.key();
        if let Some((_, bytes)) = self.answers.iter().find(|(k, _)| *k == key) {
            match codec::decode::<T>(bytes) {
                Ok(a) => return Some(a),
                // Bytes that are no answer: thought here (the same function, so the same game).
                Err(_) => return codec::decode::<T>(&t.think()).ok(),
            }
        }
        let mut w = self.wanted();
        if !w.iter().any(|(k, _)| *k == key) {
            w.push((key, t));
        }
        None
    }

    /// A classic computer seat's move (`None`: wait for it). `here`: think it now regardless
    /// (a fork probing a vote's outcome).
    pub(super) fn classic(
        &self,
        s: &ClassicState,
        level: BotLevel,
        here: bool,
    ) -> Option<Option<Action>> {
        if !self.elsewhere || here {
            return Some(bot::choose(s, level));
        }
        self.answer(Thought::Classic {
            state: s.clone(),
            level,
        })
    }

    /// The orders of each computer power `s` waits for, by power (`None`: wait for them).
    pub(super) fn orders(
        &self,
        s: &OrdersState,
        computers: &[(PowerId, BotLevel)],
        salt: &[u8],
        here: bool,
    ) -> Option<BTreeMap<PowerId, Vec<Written>>> {
        let waiting = s.waiting_for();
        let mut all = Some(BTreeMap::new());
        for &(power, level) in computers.iter().filter(|c| waiting.contains(&c.0)) {
            let orders = if !self.elsewhere || here {
                Some(bot::orders::orders_for(s, power, level, salt))
            } else {
                self.answer(Thought::Orders {
                    state: s.clone(),
                    power,
                    level,
                    salt: salt.to_vec(),
                })
            };
            match (orders, &mut all) {
                (Some(o), Some(m)) => {
                    m.insert(power, o);
                }
                // Still asks for the others, so the caller thinks them all at once.
                _ => all = None,
            }
        }
        all
    }

    /// An economy computer seat's move (`None`: wait for it).
    pub(super) fn economy(
        &self,
        s: &EconomyState,
        seat: PlayerId,
        level: BotLevel,
        here: bool,
    ) -> Option<Option<EconomyAction>> {
        if !self.elsewhere || here {
            return Some(bot::economy::choose(s, seat, level));
        }
        self.answer(Thought::Economy {
            state: s.clone(),
            seat,
            level,
        })
    }
}

impl Peer {
    /// From now on the caller thinks the computer seats' moves: the peer stops where it lacks
    /// one and lists it in [`Peer::thoughts_wanted`] (issue 62: a page thinks them in its Web
    /// Worker). Every peer still agrees on the same game: the answers are the same functions'.
    pub fn think_elsewhere(&mut self) {
        self.thoughts.elsewhere = true;
    }

    /// The computer moves the game waits for here (empty unless [`Peer::think_elsewhere`]).
    pub fn thoughts_wanted(&self) -> Vec<Thought> {
        self.thoughts
            .wanted()
            .iter()
            .map(|(_, t)| t.clone())
            .collect()
    }

    /// The answer to a wanted thought ([`Thought::think`]'s bytes, computed elsewhere): the game
    /// goes on with it.
    pub fn thought(&mut self, t: &Thought, answer: Vec<u8>, now_ms: u64) -> Output {
        self.now = self.now.max(now_ms);
        let key = t.key();
        let a = &mut self.thoughts.answers;
        a.retain(|(k, _)| *k != key);
        a.push((key, answer));
        if a.len() > KEPT {
            a.remove(0);
        }
        let mut out = Output::default();
        if self.halted.is_none() {
            self.advance(&mut out);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use orbis_engine::rules::orders::OrdersOptions;

    /// The protocol thinks the computer powers' orders on the board before the players' orders
    /// are entered (so a page may think them while nothing is applied): the bots read the
    /// board, never the orders submitted, so this is what they would order after them too.
    #[test]
    fn computer_orders_ignore_the_orders_submitted() {
        for map in ["europe-1901", "world"] {
            let mut s = OrdersState::new(map, OrdersOptions::default()).unwrap();
            let n = s.map().powers.len() as PowerId;
            let bots: Vec<_> = (0..n).map(|p| (p, BotLevel::Normal)).collect();
            for phase in 0..4u8 {
                let salt = [phase, 7];
                let level = |p: PowerId| match p % 3 {
                    0 if phase < 2 => BotLevel::Hard,
                    0 | 1 => BotLevel::Normal,
                    _ => BotLevel::Easy,
                };
                let before: Vec<_> = (0..n)
                    .map(|p| bot::orders::orders_for(&s, p, level(p), &salt))
                    .collect();
                let mut t = s.clone();
                for p in (0..n).filter(|p| p % 2 == 0 && s.waiting_for().contains(p)) {
                    let orders = bot::orders::orders_for(&s, p, BotLevel::Normal, &[p]);
                    t.apply(&OrdersAction::Submit { power: p, orders }).unwrap();
                }
                for p in 0..n {
                    let after = bot::orders::orders_for(&t, p, level(p), &salt);
                    assert_eq!(after, before[p as usize], "{map}, phase {phase}, power {p}");
                }
                for a in bot::orders::phase_actions(&s, &bots, &salt) {
                    s.apply(&a).unwrap();
                }
                s.apply(&OrdersAction::Adjudicate).unwrap();
            }
        }
    }

    /// An answer is used only for its own thought; bytes that are no answer are thought here.
    #[test]
    fn answers_are_found_by_their_inputs() {
        let s = ClassicState::new(
            classic::default_seats(3, SeatKind::Bot(BotLevel::Normal)),
            Default::default(),
            [3; 32],
        )
        .unwrap();
        let mut th = Thoughts {
            elsewhere: true,
            ..Thoughts::default()
        };
        assert_eq!(th.classic(&s, BotLevel::Normal, false), None);
        assert!(th.waiting());
        let t = Thought::Classic {
            state: s.clone(),
            level: BotLevel::Normal,
        };
        th.answers.push((t.key(), t.think()));
        let want = Some(bot::choose(&s, BotLevel::Normal));
        assert_eq!(th.classic(&s, BotLevel::Normal, false), want);
        assert_eq!(th.classic(&s, BotLevel::Easy, false), None);
        th.answers[0].1 = vec![9, 9, 9];
        assert_eq!(th.classic(&s, BotLevel::Normal, false), want);
    }
}
