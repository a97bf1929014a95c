//! Whole games between bots: the CLI's `simulate`, benchmarks and the wasm determinism check.

use crate::bot;
use crate::codec::{sha256, StateHash};
use crate::rules::classic::{
    default_seats, BotLevel, ClassicOptions, ClassicState, PlayerId, SeatKind,
};
use std::fmt;

/// Outcome of one simulated game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimResult {
    pub winner: Option<PlayerId>,
    pub turns: u32,
    pub actions: u32,
    pub state_hash: StateHash,
}

/// A bot chose an illegal action: a bug in the bot, reported instead of panicking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimError(pub String);

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SimError {}

/// Seed of game `index` in a run started with `seed`.
pub fn game_seed(seed: u64, index: u64) -> [u8; 32] {
    let mut b = b"orbis-sim".to_vec();
    b.extend_from_slice(&seed.to_le_bytes());
    b.extend_from_slice(&index.to_le_bytes());
    sha256(&b)
}

/// Plays a classic game between `players` bots of one level until someone wins or `max_turns`
/// turns have started.
pub fn play(
    players: usize,
    level: BotLevel,
    options: ClassicOptions,
    seed: [u8; 32],
    max_turns: u32,
) -> Result<SimResult, SimError> {
    let mut s = ClassicState::new(default_seats(players, SeatKind::Bot(level)), options, seed)
        .map_err(|e| SimError(e.to_string()))?;
    run(&mut s, level, max_turns)?;
    Ok(SimResult {
        winner: s.winner(),
        turns: s.turn,
        actions: s.step,
        state_hash: s.state_hash(),
    })
}

/// Lets bots of `level` play every seat of `s` until the game ends or `max_turns` is reached.
pub fn run(s: &mut ClassicState, level: BotLevel, max_turns: u32) -> Result<(), SimError> {
    while s.winner().is_none() && s.turn <= max_turns {
        let action = bot::choose(s, level).ok_or_else(|| SimError("bot found no action".into()))?;
        s.apply(&action)
            .map_err(|e| SimError(format!("bot chose {action:?} at step {}: {e}", s.step)))?;
    }
    Ok(())
}

/// The reference game compared between native and wasm builds: hex state hash.
pub fn reference_hash(seed: u64) -> String {
    reference_hash_with(seed, BotLevel::Normal, 200)
}

/// A reference game of four `level` bots stopped after `max_turns`: hex state hash (as
/// `orbis simulate --players 4 --bot <level> --games 1 --seed <seed> --max-turns <max_turns>`).
pub fn reference_hash_with(seed: u64, level: BotLevel, max_turns: u32) -> String {
    match play(
        4,
        level,
        ClassicOptions::default(),
        game_seed(seed, 0),
        max_turns,
    ) {
        Ok(r) => r.state_hash.to_hex(),
        Err(e) => format!("error: {e}"),
    }
}
