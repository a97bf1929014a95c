//! The economy's `hard` computer player: `normal` in everything but its plans, which it chooses
//! by rollouts. At each planning phase it drafts plans in several styles (normal's, bolder, more
//! careful), then plays each forward six rounds, three times with every seat played by `normal`,
//! on dice of its own (never the game's stream) and without the other players' plans (which are
//! secret: they are drafted again in the rollout), and submits the style whose rollouts leave it
//! best placed against the strongest other player.
//!
//! It is deterministic: its rollouts' dice come from the game seed, the action counter and the
//! seat, so every peer computes the same choice.

use super::normal::{self, Style};
use crate::codec::sha256;
use crate::dice::SeededDice;
use crate::rules::classic::PlayerId;
use crate::rules::economy::action::EconomyAction as A;
use crate::rules::economy::map::EconomyMap;
use crate::rules::economy::phase::Phase;
use crate::rules::economy::state::{EconomyState, Standing};

/// Rounds each rollout plays.
const HORIZON: u32 = 6;
/// Rollouts per style.
const SAMPLES: u8 = 3;
/// Actions a rollout may take before it is cut short (a safety bound).
const ROLLOUT_STEPS: u32 = 20_000;

/// The styles weighed.
fn styles(round: u32) -> [Style; 3] {
    let normal = Style::default();
    [
        normal,
        Style {
            bold_after: 0,
            ..normal
        },
        Style {
            margin: 2,
            bold_after: round + 1,
            ..normal
        },
    ]
}

/// What seat `p`'s hard bot does now, if it has anything to do.
pub(super) fn hard(s: &EconomyState, p: PlayerId) -> Option<A> {
    if s.phase != Phase::Planning {
        return normal::normal(s, p);
    }
    let map = EconomyMap::get();
    let mut best: Option<(i64, Style)> = None;
    let mut seen = vec![];
    for style in styles(s.round) {
        let moves = normal::plans_with(s, map, p, style);
        // Styles that plan the same moves need no second look.
        if seen.contains(&moves) {
            continue;
        }
        seen.push(moves.clone());
        let value: i64 = (0..SAMPLES).map(|k| rollout(s, map, p, &moves, k)).sum();
        if best.is_none_or(|(v, _)| value > v) {
            best = Some((value, style));
        }
    }
    let style = best.map_or(Style::default(), |(_, st)| st);
    normal::normal_with(s, p, &|s, map, p| normal::plans_with(s, map, p, style))
}

/// Plays `moves` for `p`, then `HORIZON` rounds with every seat played by `normal`, on dice of
/// the rollout's own; returns how well `p` stands.
fn rollout(
    s: &EconomyState,
    map: &EconomyMap,
    p: PlayerId,
    moves: &[crate::rules::economy::units::PlannedMove],
    k: u8,
) -> i64 {
    let mut r = s.clone();
    // The others' plans are secret: they are drafted again, as `normal` would.
    r.plans.retain(|&q, _| q == p);
    let mut input = Vec::with_capacity(48);
    input.extend_from_slice(&s.rng.seed());
    input.extend_from_slice(b"orbis-economy-hard");
    input.extend_from_slice(&s.steps.to_le_bytes());
    input.extend_from_slice(&[p, k]);
    let mut dice = SeededDice::new(sha256(&input));
    let submit = A::SubmitPlans {
        player: p,
        moves: moves.to_vec(),
    };
    if r.apply_with(&submit, &mut dice).is_err() {
        return i64::MIN / 4;
    }
    let end = s.round + HORIZON;
    let mut steps = 0;
    while r.phase != Phase::Over && r.round < end && steps < ROLLOUT_STEPS {
        let Some(&q) = r.to_act().first() else { break };
        let Some(a) = normal::normal(&r, q) else {
            break;
        };
        if r.apply_with(&a, &mut dice).is_err() {
            break;
        }
        steps += 1;
    }
    standing(&r, map, p)
}

/// How well `p` stands: a win or a loss outright, else its strength against the strongest
/// other player (income counts most: it buys armies every round).
fn standing(s: &EconomyState, map: &EconomyMap, p: PlayerId) -> i64 {
    if s.winner == Some(p) {
        return 1_000_000;
    }
    if s.players[p as usize].standing != Standing::Playing {
        return -1_000_000;
    }
    let strength = |q: PlayerId| {
        let sc = s.score(map, q);
        let capital = i64::from(s.players[q as usize].capital.is_some());
        8 * i64::from(sc.income) + 2 * i64::from(sc.units) + i64::from(sc.mu) / 5 + 20 * capital
    };
    let best_other = s
        .playing()
        .filter(|&q| q != p)
        .map(strength)
        .max()
        .unwrap_or(0);
    strength(p) - best_other
}
