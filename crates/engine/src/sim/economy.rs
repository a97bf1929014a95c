//! Whole economy games between bots (with the `economy` feature).

use super::{game_seed, SimError, SimResult};
use crate::bot;
use crate::rules::classic::{BotLevel, PlayerId};
use crate::rules::economy::action::EconomyAction;
use crate::rules::economy::options::EconomyOptions;
use crate::rules::economy::phase::Phase as EconomyPhase;
use crate::rules::economy::state::EconomyState;

/// Actions after which a simulated economy game is reported as stuck.
const ECONOMY_MAX_STEPS: u32 = 5_000_000;

/// Plays an economy game between bots, one per seat at the level given for it, until one is
/// left standing or `max_rounds` rounds have been played (then the best score wins).
pub fn economy_play(
    seats: &[BotLevel],
    options: EconomyOptions,
    seed: [u8; 32],
    max_rounds: u32,
) -> Result<SimResult, SimError> {
    economy_run(seats, options, seed, max_rounds, &mut bot::economy::choose)
}

/// As [`economy_play`], each decision made by `decide` (state, seat, level): the tournament
/// wraps the bots to time them.
pub fn economy_run(
    seats: &[BotLevel],
    options: EconomyOptions,
    seed: [u8; 32],
    max_rounds: u32,
    decide: &mut dyn FnMut(&EconomyState, PlayerId, BotLevel) -> Option<EconomyAction>,
) -> Result<SimResult, SimError> {
    let names: Vec<String> = (1..=seats.len()).map(|i| format!("Bot {i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let options = EconomyOptions {
        round_limit: Some(max_rounds),
        ..options
    };
    let (mut s, _) =
        EconomyState::new(&names, options, seed).map_err(|e| SimError(e.to_string()))?;
    while s.phase != EconomyPhase::Over {
        // Every phase ends in finitely many actions; a game that does not is a bug, reported.
        if s.steps > ECONOMY_MAX_STEPS {
            return Err(SimError(format!(
                "the game did not end within {ECONOMY_MAX_STEPS} actions (round {}, {})",
                s.round, s.phase
            )));
        }
        let p = *s
            .to_act()
            .first()
            .ok_or_else(|| SimError(format!("nobody can act in {}", s.phase)))?;
        let action = decide(&s, p, seats[p as usize]).ok_or_else(|| {
            SimError(format!(
                "the bot of seat {p} found no action in {}",
                s.phase
            ))
        })?;
        s.apply(&action)
            .map_err(|e| SimError(format!("bot chose {action:?} at step {}: {e}", s.steps)))?;
    }
    Ok(SimResult {
        winner: s.winner,
        turns: s.round,
        actions: s.steps,
        state_hash: crate::codec::hash_of(&s),
    })
}

/// The reference economy game compared between native and wasm builds: four bots of `level`
/// for `max_rounds` rounds (as `orbis simulate --ruleset economy --players 4 --bot <level>
/// --games 1 --seed <seed> --max-turns <max_rounds>`); hex state hash.
pub fn economy_reference_hash(seed: u64, level: BotLevel, max_rounds: u32) -> String {
    match economy_play(
        &[level; 4],
        EconomyOptions::default(),
        game_seed(seed, 0),
        max_rounds,
    ) {
        Ok(r) => r.state_hash.to_hex(),
        Err(e) => format!("error: {e}"),
    }
}
