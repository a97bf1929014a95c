//! Whole games between bots: the CLI's `simulate`, benchmarks and the wasm determinism check.

use crate::bot;
use crate::codec::{sha256, StateHash};
use crate::rules::classic::{
    default_seats, BotLevel, ClassicOptions, ClassicState, PlayerId, SeatKind,
};
use crate::rules::orders::adjudicator::Outcome;
use crate::rules::orders::map::{OrdersMap, PowerId as OrdersPower};
use crate::rules::orders::notation;
use crate::rules::orders::{OrdersAction, OrdersEvent, OrdersState, Phase as OrdersPhase};
use std::fmt;

#[cfg(feature = "economy")]
mod economy;
#[cfg(feature = "economy")]
pub use economy::*;

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

/// One phase of an orders game in which the powers `bots` are computer players: their orders
/// and draw votes (from `salt`), then the adjudication. An order of theirs that the engine
/// refuses or voids is a bug in the bot, reported as an error.
pub fn orders_phase(
    s: &mut OrdersState,
    bots: &[(OrdersPower, BotLevel)],
    salt: &[u8],
) -> Result<Vec<OrdersEvent>, SimError> {
    let actions = bot::orders::phase_actions(s, bots, salt);
    let powers: Vec<OrdersPower> = bots.iter().map(|b| b.0).collect();
    orders_resolve(s, &actions, &powers)
}

/// Applies the computer powers' `actions` (from [`bot::orders::phase_actions`]) and adjudicates
/// the phase; an action refused, or an order of one of `bots` voided, is an error.
pub fn orders_resolve(
    s: &mut OrdersState,
    actions: &[OrdersAction],
    bots: &[OrdersPower],
) -> Result<Vec<OrdersEvent>, SimError> {
    let mut events = vec![];
    for a in actions {
        if matches!(s.phase, OrdersPhase::GameOver { .. }) {
            break;
        }
        events.extend(
            s.apply(a)
                .map_err(|e| SimError(format!("bot action {a:?} refused: {e}")))?,
        );
    }
    if matches!(s.phase, OrdersPhase::GameOver { .. }) {
        return Ok(events);
    }
    let ev = s
        .apply(&OrdersAction::Adjudicate)
        .map_err(|e| SimError(format!("adjudication refused: {e}")))?;
    for e in &ev {
        if let OrdersEvent::Resolved { results, .. } = e {
            let void = results
                .iter()
                .find(|r| r.outcome == Outcome::Void && bots.contains(&r.power));
            if let Some(r) = void {
                let map = s.map();
                return Err(SimError(format!(
                    "{:?} {} {:?}, {}: the bot's order `{}` was void",
                    s.season,
                    s.year,
                    s.phase,
                    map.powers[r.power as usize].name,
                    notation::print(map, &r.order)
                )));
            }
        }
    }
    events.extend(ev);
    Ok(events)
}

/// Salt of the computer powers' orders in phase `phase` of game `seed` (bots-only games: the
/// CLI, benchmarks and the determinism check).
pub fn orders_salt(seed: [u8; 32], phase: u32) -> Vec<u8> {
    let mut b = seed.to_vec();
    b.extend_from_slice(&phase.to_le_bytes());
    b
}

/// Plays an orders game on `map_id` with one computer player per playing power (`levels` in the
/// order of the map's setup for that many players, cycled) until it ends or `max_year` is over.
/// Returns the final state and the number of phases played.
pub fn orders_play(
    map_id: &str,
    levels: &[BotLevel],
    seed: [u8; 32],
    max_year: u16,
) -> Result<(OrdersState, u32), SimError> {
    let map = OrdersMap::get(map_id).ok_or_else(|| SimError(format!("unknown map {map_id}")))?;
    let players = levels.len() as u8;
    let mut s = OrdersState::new_for(map_id, Default::default(), players)
        .map_err(|e| SimError(e.to_string()))?;
    let powers = map
        .powers_for(players)
        .ok_or_else(|| SimError(format!("no setup for {players} players")))?;
    let bots: Vec<(OrdersPower, BotLevel)> =
        powers.into_iter().zip(levels.iter().copied()).collect();
    let mut phase = 0u32;
    while !matches!(s.phase, OrdersPhase::GameOver { .. }) && s.year <= max_year {
        orders_phase(&mut s, &bots, &orders_salt(seed, phase))?;
        phase += 1;
    }
    Ok((s, phase))
}

/// The reference orders game compared between native and wasm builds: seven `level` powers on
/// Europe 1901 from seed `seed` until `max_year`; hex state hash.
pub fn orders_reference_hash(seed: u64, level: BotLevel, max_year: u16) -> String {
    match orders_play("europe-1901", &[level; 7], game_seed(seed, 0), max_year) {
        Ok((s, _)) => crate::rules::Game::Orders(s).state_hash().to_hex(),
        Err(e) => format!("error: {e}"),
    }
}
