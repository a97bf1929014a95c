//! The computer players' jobs, as the pages send them to the worker (src/main.rs) and the worker
//! answers them (issue 62: computer players never freeze the page).
//!
//! A job's bytes are its kind (one byte) and then its inputs in the engine's canonical encoding
//! (`codec::encode`); the answer is the bot's choice in the same encoding. Each kind is encoded
//! on its own, never as one enum, so that a page links the encoding of only the states it sends
//! (the lite page: classic). The worker runs the very engine functions a page would run itself,
//! on the same decoded state, so its answers are the page's: the bots are seeded by the state
//! (classic: game seed and action counter; orders: board and salt; economy: the state's dice).

use orbis_engine::bot;
use orbis_engine::codec;
use orbis_engine::rules::classic::{Action, BotLevel, ClassicState};
use orbis_engine::rules::orders::map::PowerId;
use orbis_engine::rules::orders::{OrdersAction, OrdersState};
use serde::Serialize;

/// This build's id (a hash of the engine's and this crate's sources, build.rs). The worker says
/// [`ready`] with it; a page whose own id differs (a worker file left from another version of
/// Orbis) must not use that worker's answers.
pub const BUILD: &str = env!("ORBIS_WORKER_BUILD");

/// What the worker says once it listens: "ready " and its build id.
pub fn ready() -> String {
    format!("ready {BUILD}")
}

/// A classic computer player's next action: `(ClassicState, BotLevel)` -> `Option<Action>`.
pub const CLASSIC: u8 = 0;
/// The orders ruleset's computer powers for a phase: `(OrdersState, Vec<(PowerId, BotLevel)>,
/// salt, effort)` -> `Vec<OrdersAction>` (effort: `hard`'s thinking time,
/// `bot::orders::orders_thinking`).
pub const ORDERS: u8 = 1;
/// One power's orders as a computer would write them (the hot-seat suggestion):
/// `(OrdersState, PowerId, BotLevel, salt)` -> `Vec<Written>`.
pub const SUGGEST: u8 = 2;
/// An economy computer player's next action: `(EconomyState, PlayerId, BotLevel)` ->
/// `Option<EconomyAction>`.
pub const ECONOMY: u8 = 3;

/// A job's bytes: its kind, then its inputs.
pub fn job<T: Serialize>(kind: u8, inputs: &T) -> Vec<u8> {
    let mut v = vec![kind];
    v.extend(codec::encode(inputs));
    v
}

/// The encoded answer to a job's bytes, or `None` for bytes that are no job of this build.
pub fn answer(bytes: &[u8]) -> Option<Vec<u8>> {
    let (&kind, rest) = bytes.split_first()?;
    Some(match kind {
        CLASSIC => {
            // bincode's own decoding, as the lite page reads classic saves (the same bytes):
            // the lite page's worker then carries none of serde's decoding.
            let (s, level): (ClassicState, BotLevel) = codec::decode_lean(rest).ok()?;
            codec::encode(&classic(&s, level))
        }
        #[cfg(feature = "orders")]
        ORDERS => {
            let (s, bots, salt, effort): (OrdersState, Vec<(PowerId, BotLevel)>, Vec<u8>, u32) =
                codec::decode(rest).ok()?;
            codec::encode(&orders(&s, &bots, &salt, effort))
        }
        #[cfg(feature = "orders")]
        SUGGEST => {
            let (s, power, level, salt): (OrdersState, PowerId, BotLevel, Vec<u8>) =
                codec::decode(rest).ok()?;
            codec::encode(&bot::orders::orders_for(&s, power, level, &salt))
        }
        #[cfg(feature = "economy")]
        ECONOMY => {
            use orbis_engine::rules::classic::PlayerId;
            use orbis_engine::rules::economy::state::EconomyState;
            let (s, p, level): (EconomyState, PlayerId, BotLevel) = codec::decode(rest).ok()?;
            codec::encode(&bot::economy::choose(&s, p, level))
        }
        _ => return None,
    })
}

/// A classic computer player's next action (what the worker runs for [`CLASSIC`]).
pub fn classic(s: &ClassicState, level: BotLevel) -> Option<Action> {
    bot::choose(s, level)
}

/// The orders ruleset's computer powers' actions for the phase (what the worker runs for
/// [`ORDERS`]), `hard` thinking for `effort` (1: the default; capped at 8, the CLI's most).
pub fn orders(
    s: &OrdersState,
    bots: &[(PowerId, BotLevel)],
    salt: &[u8],
    effort: u32,
) -> Vec<OrdersAction> {
    bot::orders::phase_actions_thinking(s, bots, salt, effort.clamp(1, 8))
}

#[cfg(test)]
mod tests {
    use super::*;
    use orbis_engine::rules::classic::{default_seats, ClassicOptions, SeatKind};

    /// The worker's answer, decoded, is what the page would have chosen itself.
    #[test]
    fn a_classic_job_answers_as_the_page_would() {
        let seats = default_seats(3, SeatKind::Bot(BotLevel::Normal));
        let mut s = ClassicState::new(seats, ClassicOptions::default(), [7; 32]).unwrap();
        for _ in 0..300 {
            let want = classic(&s, BotLevel::Normal);
            let got: Option<Action> =
                codec::decode(&answer(&job(CLASSIC, &(&s, BotLevel::Normal))).unwrap()).unwrap();
            assert_eq!(got, want);
            let Some(a) = want else { break };
            s.apply(&a).unwrap();
        }
    }

    /// The orders computer powers' job, with `hard`'s thinking time, answers as the page would
    /// (the same orders, so the same game), at each of the setup form's times.
    #[cfg(feature = "orders")]
    #[test]
    fn an_orders_job_answers_as_the_page_would_at_each_thinking_time() {
        use orbis_engine::rules::orders::OrdersOptions;
        let mut s = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
        let bots: Vec<(PowerId, BotLevel)> = (0..7).map(|p| (p, BotLevel::Hard)).collect();
        for effort in [1, 3] {
            let salt = vec![effort as u8];
            let want = orders(&s, &bots, &salt, effort);
            let got: Vec<OrdersAction> =
                codec::decode(&answer(&job(ORDERS, &(&s, &bots, &salt, effort))).unwrap()).unwrap();
            assert_eq!(got, want);
            assert!(!want.is_empty());
        }
        // A phase on: the answers still agree after the board moved.
        for a in orders(&s, &bots, &[1], 1) {
            s.apply(&a).unwrap();
        }
        s.apply(&OrdersAction::Adjudicate).unwrap();
        let want = orders(&s, &bots, &[2], 3);
        let got: Vec<OrdersAction> =
            codec::decode(&answer(&job(ORDERS, &(&s, &bots, &[2u8][..], 3u32))).unwrap()).unwrap();
        assert_eq!(got, want);
    }

    #[test]
    fn bytes_that_are_no_job_are_refused() {
        assert_eq!(answer(&[]), None);
        assert_eq!(answer(&[CLASSIC, 1, 2, 3]), None);
        assert_eq!(answer(&[200]), None);
    }
}
