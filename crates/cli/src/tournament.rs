//! `orbis tournament`: games between computer players of different levels, seats rotated
//! between games, one JSON line per game and a summary line with each level's win rate, its 95 %
//! interval and its time per decision. The instrument for measuring bot strength.
//!
//! Same arguments ⇒ the same lines, apart from the summary's timings: games are played in
//! order of their index whatever `--jobs` is, each from its own seed.

use orbis_engine::bot;
use orbis_engine::rules::classic::{
    default_seats, BotLevel, ClassicOptions, ClassicState, SeatKind,
};
use orbis_engine::sim;
use serde_json::{json, Map, Value};
use std::io::Write;
use std::time::Instant;

/// The level's name on the command line and in the output.
pub fn level_name(l: BotLevel) -> &'static str {
    match l {
        BotLevel::Easy => "easy",
        BotLevel::Normal => "normal",
        BotLevel::Hard => "hard",
    }
}

/// One game's result: its JSON line, the level of each seat, the winning seat, and per seat
/// the decisions taken and the time they took.
struct Played {
    line: Value,
    seats: Vec<BotLevel>,
    winner: Option<usize>,
    decisions: Vec<(u64, f64, f64)>,
}

/// Seat `i` of game `g` is played by `levels[(i + g) mod n]`: over n games every level sits in
/// every seat (first player, colours, starting position).
fn seats_of(levels: &[BotLevel], g: u64) -> Vec<BotLevel> {
    let n = levels.len();
    (0..n).map(|i| levels[(i + g as usize) % n]).collect()
}

fn play_one(levels: &[BotLevel], g: u64, seed: u64, max_turns: u32) -> Result<Played, String> {
    let seats = seats_of(levels, g);
    let mut cfg = default_seats(seats.len(), SeatKind::Bot(BotLevel::Normal));
    for (c, l) in cfg.iter_mut().zip(&seats) {
        c.kind = SeatKind::Bot(*l);
        c.name = format!("{} {}", level_name(*l), c.name);
    }
    let mut s = ClassicState::new(cfg, ClassicOptions::default(), sim::game_seed(seed, g))
        .map_err(|e| format!("game {g}: {e}"))?;
    let mut decisions = vec![(0u64, 0f64, 0f64); seats.len()];
    while s.winner().is_none() && s.turn <= max_turns {
        let seat = s.current as usize;
        let level = seats[seat];
        let t0 = Instant::now();
        let action = bot::choose(&s, level).ok_or_else(|| format!("game {g}: no action"))?;
        let ms = t0.elapsed().as_secs_f64() * 1000.0;
        if let Some(d) = decisions.get_mut(seat) {
            d.0 += 1;
            d.1 += ms;
            d.2 = d.2.max(ms);
        }
        s.apply(&action)
            .map_err(|e| format!("game {g}: {} chose {action:?}: {e}", level_name(level)))?;
    }
    let winner = s.winner().map(usize::from);
    let names: Vec<&str> = seats.iter().map(|l| level_name(*l)).collect();
    let line = json!({
        "game": g,
        "seats": names,
        "winner": winner,
        "winner_bot": winner.map(|w| names[w]),
        "turns": s.turn,
        "actions": s.step,
        "state_hash": s.state_hash().to_hex(),
    });
    Ok(Played {
        line,
        seats,
        winner,
        decisions,
    })
}

/// Wilson score interval at 95 % for `wins` out of `n`.
pub fn wilson(wins: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let (z, n, p) = (1.96f64, n as f64, wins as f64 / n as f64);
    let denom = 1.0 + z * z / n;
    let centre = p + z * z / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    (
        ((centre - half) / denom).max(0.0),
        ((centre + half) / denom).min(1.0),
    )
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// Plays the classic tournament and writes its lines.
pub fn classic(
    levels: &[BotLevel],
    games: u64,
    seed: u64,
    jobs: usize,
    max_turns: u32,
    out: &mut dyn Write,
) -> Result<(), String> {
    let io = |e: std::io::Error| format!("cannot write: {e}");
    let jobs = jobs.max(1) as u64;
    // Per level: seat-games, wins, decisions, milliseconds, slowest decision.
    let mut tally: std::collections::BTreeMap<&str, (u64, u64, u64, f64, f64)> = Default::default();
    let mut ended = 0u64;
    let mut turns = 0u64;
    let mut next = 0u64;
    while next < games {
        // One wave of `jobs` games at a time, printed in order.
        let wave: Vec<u64> = (next..games.min(next + jobs)).collect();
        next += wave.len() as u64;
        let results: Vec<Result<Played, String>> = std::thread::scope(|sc| {
            let hs: Vec<_> = wave
                .iter()
                .map(|&g| sc.spawn(move || play_one(levels, g, seed, max_turns)))
                .collect();
            hs.into_iter()
                .map(|h| h.join().unwrap_or_else(|_| Err("a game panicked".into())))
                .collect()
        });
        for r in results {
            let p = r?;
            writeln!(out, "{}", p.line).map_err(io)?;
            turns += p.line["turns"].as_u64().unwrap_or(0);
            ended += u64::from(p.winner.is_some());
            for (i, l) in p.seats.iter().enumerate() {
                let t = tally.entry(level_name(*l)).or_default();
                t.0 += 1;
                t.1 += u64::from(p.winner == Some(i));
                t.2 += p.decisions[i].0;
                t.3 += p.decisions[i].1;
                t.4 = t.4.max(p.decisions[i].2);
            }
        }
    }
    let mut bots = Map::new();
    for (name, (n, wins, decisions, ms, slowest)) in tally {
        let (lo, hi) = wilson(wins, n);
        let rate = if n > 0 { wins as f64 / n as f64 } else { 0.0 };
        let per = if decisions > 0 {
            ms / decisions as f64
        } else {
            0.0
        };
        bots.insert(
            name.to_string(),
            json!({"games": n, "wins": wins, "win_rate": round4(rate),
                   "ci95": [round4(lo), round4(hi)], "ms_per_decision": round4(per),
                   "ms_slowest_decision": round4(slowest)}),
        );
    }
    let v = json!({"summary": true, "ruleset": "classic", "games": games, "ended": ended,
                   "turns": turns, "bots": bots});
    writeln!(out, "{v}").map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        let (lo, hi) = wilson(50, 100);
        assert!(
            (lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 0), (0.0, 0.0));
    }

    #[test]
    fn seats_rotate_so_every_level_sits_everywhere() {
        let l = [BotLevel::Normal, BotLevel::Easy, BotLevel::Easy];
        assert_eq!(
            seats_of(&l, 1),
            vec![BotLevel::Easy, BotLevel::Easy, BotLevel::Normal]
        );
        assert_eq!(seats_of(&l, 3), l.to_vec());
    }
}
