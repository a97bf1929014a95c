//! `orbis tournament`: games between computer players of different levels, seats rotated
//! between games, one JSON line per game and a summary line with each level's win rate, its 95 %
//! interval and its time per decision (orders: also solos, draws and mean centres at the end).
//! The instrument for measuring bot strength, in both rulesets.
//!
//! Same arguments ⇒ the same lines, apart from the summary's timings: games are played in
//! order of their index whatever `--jobs` is, each from its own seed.

use orbis_engine::bot;
use orbis_engine::rules::classic::{
    default_seats, BotLevel, ClassicOptions, ClassicState, SeatKind,
};
use orbis_engine::rules::economy::options::EconomyOptions;
use orbis_engine::rules::economy::state::EconomyState;
use orbis_engine::rules::orders::map::PowerId;
use orbis_engine::rules::orders::{OrdersAction, OrdersOptions, OrdersState, Phase};
use orbis_engine::rules::Game;
use orbis_engine::sim;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
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

/// One game's result: its JSON line, the level of each seat, the winning seat, per seat the
/// decisions taken and the time they took, and (orders) whether it was drawn and each seat's
/// supply centres at the end.
struct Played {
    line: Value,
    seats: Vec<BotLevel>,
    winner: Option<usize>,
    decisions: Vec<(u64, f64, f64)>,
    drawn: bool,
    centres: Vec<u64>,
    /// Economy: what each seat's decisions used (see [`crate::usage`]).
    usage: Vec<BTreeMap<&'static str, u64>>,
    /// Orders: per seat, the milliseconds of each decision by phase type.
    phase_ms: Vec<BTreeMap<&'static str, Vec<f64>>>,
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
        drawn: false,
        centres: vec![],
        usage: vec![],
        phase_ms: vec![],
    })
}

/// Plays orders game `g`: one computer power per seat, in the order of the map's setup for
/// that many players; the game ends by a solo, a draw every computer power accepts (see
/// `bot::orders::accepts_draw`), or after `max_year`.
fn play_orders(
    map_id: &str,
    levels: &[BotLevel],
    g: u64,
    seed: u64,
    max_year: u16,
    think: u32,
) -> Result<Played, String> {
    let seats = seats_of(levels, g);
    let err = |e: String| format!("game {g}: {e}");
    let mut s = OrdersState::new_for(map_id, OrdersOptions::default(), seats.len() as u8)
        .map_err(|e| err(e.to_string()))?;
    let map = s.map();
    let powers = map
        .powers_for(seats.len() as u8)
        .ok_or_else(|| err("no setup for that many players".into()))?;
    let bots: Vec<(PowerId, BotLevel)> =
        powers.iter().copied().zip(seats.iter().copied()).collect();
    let game_seed = sim::game_seed(seed, g);
    let mut decisions = vec![(0u64, 0f64, 0f64); seats.len()];
    let mut phase_ms: Vec<BTreeMap<&'static str, Vec<f64>>> = vec![BTreeMap::new(); seats.len()];
    let mut phase = 0u32;
    while !matches!(s.phase, Phase::GameOver { .. }) && s.year <= max_year {
        let salt = sim::orders_salt(game_seed, phase);
        let mut actions = vec![];
        let kind = phase_kind(s.phase);
        for (i, bot) in bots.iter().enumerate() {
            let t0 = Instant::now();
            let mine =
                bot::orders::phase_actions_thinking(&s, std::slice::from_ref(bot), &salt, think);
            let ms = t0.elapsed().as_secs_f64() * 1000.0;
            if mine
                .iter()
                .any(|a| matches!(a, OrdersAction::Submit { .. }))
            {
                decisions[i].0 += 1;
                decisions[i].1 += ms;
                decisions[i].2 = decisions[i].2.max(ms);
                phase_ms[i].entry(kind).or_default().push(ms);
            }
            actions.extend(mine);
        }
        // Every power's orders before any draw vote (a vote may end the game).
        actions.sort_by_key(|a| matches!(a, OrdersAction::Draw { .. }));
        sim::orders_resolve(&mut s, &actions, &powers).map_err(|e| err(e.to_string()))?;
        phase += 1;
    }
    let (winner, drawn) = match s.phase {
        Phase::GameOver { winner: Some(w) } => (powers.iter().position(|&p| p == w), false),
        Phase::GameOver { winner: None } => (None, true),
        _ => (None, false),
    };
    let names: Vec<&str> = seats.iter().map(|l| level_name(*l)).collect();
    let centres: Vec<u64> = powers.iter().map(|&p| s.centre_count(p) as u64).collect();
    let power_names: Vec<&str> = powers
        .iter()
        .map(|&p| map.powers[p as usize].key.as_str())
        .collect();
    let line = json!({
        "game": g,
        "map": map_id,
        "seats": names,
        "powers": power_names,
        "winner": winner,
        "winner_bot": winner.map(|w| names[w]),
        "drawn": drawn,
        "year": s.year,
        "phases": phase,
        "centres": centres,
        "state_hash": Game::Orders(s).state_hash().to_hex(),
    });
    Ok(Played {
        line,
        seats,
        winner,
        decisions,
        drawn,
        centres,
        usage: vec![],
        phase_ms,
    })
}

/// The name of an orders phase type in the summary's timings.
fn phase_kind(p: Phase) -> &'static str {
    match p {
        Phase::Movement => "movement",
        Phase::Retreat => "retreat",
        Phase::Adjustment => "adjustment",
        Phase::GameOver { .. } => "over",
    }
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

/// Plays economy game `g`: one computer player per seat, until one is left standing or the round
/// limit ends it on the best score.
fn play_economy(levels: &[BotLevel], g: u64, seed: u64, max_rounds: u32) -> Result<Played, String> {
    let seats = seats_of(levels, g);
    let mut decisions = vec![(0u64, 0f64, 0f64); seats.len()];
    let mut usage = vec![BTreeMap::new(); seats.len()];
    let mut decide = |s: &EconomyState, p: u8, level: BotLevel| {
        let t0 = Instant::now();
        let a = bot::economy::choose(s, p, level);
        let ms = t0.elapsed().as_secs_f64() * 1000.0;
        if let Some(d) = decisions.get_mut(usize::from(p)) {
            d.0 += 1;
            d.1 += ms;
            d.2 = d.2.max(ms);
        }
        if let (Some(a), Some(u)) = (&a, usage.get_mut(usize::from(p))) {
            crate::usage::count(a, u);
        }
        a
    };
    let r = sim::economy_run(
        &seats,
        EconomyOptions::default(),
        sim::game_seed(seed, g),
        max_rounds,
        &mut decide,
    )
    .map_err(|e| format!("game {g}: {e}"))?;
    let names: Vec<&str> = seats.iter().map(|l| level_name(*l)).collect();
    let winner = r.winner.map(usize::from);
    let line = json!({
        "game": g,
        "seats": names,
        "winner": winner,
        "winner_bot": winner.map(|w| names[w]),
        "ended": economy_ending(r.turns, max_rounds),
        "turns": r.turns,
        "actions": r.actions,
        "state_hash": r.state_hash.to_hex(),
    });
    Ok(Played {
        line,
        seats,
        winner,
        decisions,
        drawn: false,
        centres: vec![],
        usage,
        phase_ms: vec![],
    })
}

/// How an economy game that lasted `rounds` under the round limit `limit` ended, as its JSON line
/// says: by the limit (it began the round after it), or by elimination (one player left).
pub fn economy_ending(rounds: u32, limit: u32) -> &'static str {
    if rounds > limit {
        "round limit"
    } else {
        "elimination"
    }
}

/// Plays the economy tournament and writes its lines (`max_rounds`: the round limit).
pub fn economy(
    levels: &[BotLevel],
    games: u64,
    seed: u64,
    jobs: usize,
    max_rounds: u32,
    out: &mut dyn Write,
) -> Result<(), String> {
    run(games, jobs, "economy", out, &|g| {
        play_economy(levels, g, seed, max_rounds)
    })
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
    run(games, jobs, "classic", out, &|g| {
        play_one(levels, g, seed, max_turns)
    })
}

/// How an orders game is played: the last year before it is stopped, and `hard`'s thinking
/// time (see `bot::orders::orders_thinking`).
#[derive(Clone, Copy)]
pub struct OrdersLimits {
    pub max_year: u16,
    pub think: u32,
}

/// Plays the orders tournament on `map_id` and writes its lines.
pub fn orders(
    map_id: &str,
    levels: &[BotLevel],
    games: u64,
    seed: u64,
    jobs: usize,
    limits: OrdersLimits,
    out: &mut dyn Write,
) -> Result<(), String> {
    run(games, jobs, "orders", out, &|g| {
        play_orders(map_id, levels, g, seed, limits.max_year, limits.think)
    })
}

/// Per level: seat-games, wins, decisions, milliseconds, slowest decision, draws, centres.
#[derive(Default)]
struct Tally {
    games: u64,
    wins: u64,
    decisions: u64,
    ms: f64,
    slowest: f64,
    draws: u64,
    centres: u64,
    usage: BTreeMap<&'static str, u64>,
    phase_ms: BTreeMap<&'static str, Vec<f64>>,
}

/// Plays `games` games, `jobs` at a time, and prints their lines in order, then the summary.
fn run(
    games: u64,
    jobs: usize,
    ruleset: &str,
    out: &mut dyn Write,
    play: &(dyn Fn(u64) -> Result<Played, String> + Sync),
) -> Result<(), String> {
    let io = |e: std::io::Error| format!("cannot write: {e}");
    let jobs = jobs.max(1) as u64;
    let mut tally: std::collections::BTreeMap<&str, Tally> = Default::default();
    let (mut ended, mut drawn, mut turns, mut next) = (0u64, 0u64, 0u64, 0u64);
    let mut by_elimination = 0u64;
    while next < games {
        // One wave of `jobs` games at a time, printed in order.
        let wave: Vec<u64> = (next..games.min(next + jobs)).collect();
        next += wave.len() as u64;
        let results: Vec<Result<Played, String>> = std::thread::scope(|sc| {
            let hs: Vec<_> = wave.iter().map(|&g| sc.spawn(move || play(g))).collect();
            hs.into_iter()
                .map(|h| h.join().unwrap_or_else(|_| Err("a game panicked".into())))
                .collect()
        });
        for r in results {
            let p = r?;
            writeln!(out, "{}", p.line).map_err(io)?;
            turns += p.line["turns"]
                .as_u64()
                .or(p.line["phases"].as_u64())
                .unwrap_or(0);
            ended += u64::from(p.winner.is_some() || p.drawn);
            drawn += u64::from(p.drawn);
            by_elimination += u64::from(p.line["ended"] == "elimination");
            for (i, l) in p.seats.iter().enumerate() {
                let t = tally.entry(level_name(*l)).or_default();
                t.games += 1;
                t.wins += u64::from(p.winner == Some(i));
                t.decisions += p.decisions[i].0;
                t.ms += p.decisions[i].1;
                t.slowest = t.slowest.max(p.decisions[i].2);
                t.draws += u64::from(p.drawn);
                t.centres += p.centres.get(i).copied().unwrap_or(0);
                for (&k, &n) in p.usage.get(i).into_iter().flatten() {
                    *t.usage.entry(k).or_default() += n;
                }
                for (&k, ms) in p.phase_ms.get(i).into_iter().flatten() {
                    t.phase_ms.entry(k).or_default().extend(ms);
                }
            }
        }
    }
    let mut bots = Map::new();
    for (name, t) in tally {
        let (lo, hi) = wilson(t.wins, t.games);
        let per = |x: f64| if t.games > 0 { x / t.games as f64 } else { 0.0 };
        let ms = if t.decisions > 0 {
            t.ms / t.decisions as f64
        } else {
            0.0
        };
        let mut v = json!({"games": t.games, "wins": t.wins, "win_rate": round4(per(t.wins as f64)),
                   "ci95": [round4(lo), round4(hi)], "ms_per_decision": round4(ms),
                   "ms_slowest_decision": round4(t.slowest)});
        if ruleset == "economy" {
            // How often each tool of the rules is used, per game played at that level.
            let used: Map<String, Value> = t
                .usage
                .iter()
                .map(|(&k, &n)| (k.to_string(), json!(round4(per(n as f64)))))
                .collect();
            v["used_per_game"] = Value::Object(used);
        }
        if ruleset == "orders" {
            v["solos"] = json!(t.wins);
            v["draws"] = json!(t.draws);
            v["mean_centres"] = json!(round4(per(t.centres as f64)));
            // Per phase type: decisions, the median and the slowest time (one power's orders).
            let mut by = Map::new();
            for (k, ms) in &t.phase_ms {
                let mut ms = ms.clone();
                ms.sort_by(f64::total_cmp);
                let median = ms.get(ms.len() / 2).copied().unwrap_or(0.0);
                let slowest = ms.last().copied().unwrap_or(0.0);
                by.insert(
                    k.to_string(),
                    json!({"decisions": ms.len(), "ms_median": round4(median),
                           "ms_slowest": round4(slowest)}),
                );
            }
            v["ms_by_phase"] = Value::Object(by);
        }
        bots.insert(name.to_string(), v);
    }
    let mut v = json!({"summary": true, "ruleset": ruleset, "games": games, "ended": ended,
                   "bots": bots});
    if ruleset == "orders" {
        v["drawn"] = json!(drawn);
        v["phases"] = json!(turns);
    } else if ruleset == "economy" {
        v["turns"] = json!(turns);
        v["by_elimination"] = json!(by_elimination);
        v["by_round_limit"] = json!(games - by_elimination);
    } else {
        v["turns"] = json!(turns);
    }
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
