//! The `hard` computer player: `normal`'s chains of conquests with weights of its own, and
//! look-ahead for its reinforcements.
//!
//! Its reinforcements all go to one border territory, chosen among the eight whose best chain
//! (with those armies on it) is worth most by playing the round out twice from each: the rest
//! of its turn and the others' turns, every seat played by `normal`, with dice of the bot's own
//! (a hot-seat game's dice come from its seed: a rollout must not foresee them), and judging
//! where each leaves it as its next turn begins. More candidates beat more rollouts of fewer
//! (against three `normal`: 8×2 wins 53 %, 5×4 52 %, 3×8 41 %).

use super::*;

/// Chains weigh knocking a player out (and their cards) more than `normal` does, and go on after
/// the turn's card for less (each measured against three `normal`: about +2 % each).
const HARD: plan::Weights = plan::Weights {
    knockout: 150,
    knockout_per_card: 80,
    going_on: 20,
    ..plan::NORMAL
};

/// Border territories tried, rollouts from each, and actions per rollout at most (a decision
/// stays quick: see the slowest decision in `orbis tournament`).
const CANDIDATES: usize = 8;
const ROLLOUTS: u32 = 2;
const ROLLOUT_ACTIONS: u32 = 150;

fn rollout_seed(s: &ClassicState, t: TerritoryId, k: u32) -> [u8; 32] {
    let mut b = s.rng.seed().to_vec();
    b.extend_from_slice(b"orbis-hard-rollout");
    b.extend_from_slice(&s.step.to_le_bytes());
    b.extend_from_slice(&u32::from(t).to_le_bytes());
    b.extend_from_slice(&k.to_le_bytes());
    sha256(&b)
}

/// The state when our next turn begins, after `first`, the rest of this turn and the others'
/// turns played by `normal`, with dice of the bot's own.
fn rollout(s: &ClassicState, first: Action, seed: [u8; 32]) -> Option<ClassicState> {
    let p = s.current;
    let mut st = s.clone();
    let mut dice = SeededDice::new(seed);
    st.apply_with(&first, &mut dice).ok()?;
    let (mut left, mut last) = (false, None);
    for _ in 0..ROLLOUT_ACTIONS {
        left |= st.current != p;
        if st.winner().is_some() || (left && st.current == p) {
            break;
        }
        // A battle once begun is fought on while its odds hold, without planning again: what
        // `normal` mostly does, at a fraction of the cost.
        let a = match last {
            Some(Action::Attack { from, to, .. })
                if st.phase == Phase::Attack
                    && st.owner[to as usize] != Owner::Player(st.current)
                    && st.armies[from as usize] > 1
                    && win_chance(
                        st.armies[from as usize] - 1,
                        st.armies[to as usize],
                        st.defence_rule(to),
                    ) >= 0.5 =>
            {
                Action::Attack {
                    from,
                    to,
                    dice: st.max_attack_dice(from),
                }
            }
            _ => choose(&st, BotLevel::Normal)?,
        };
        st.apply_with(&a, &mut dice).ok()?;
        last = Some(a);
    }
    Some(st)
}

/// How good `s` is for `p` as its turn begins: its income against the best rival's,
/// territory, borders left open, and how many players are still in.
fn eval(s: &ClassicState, p: PlayerId) -> i64 {
    if s.winner() == Some(p) {
        return 1_000_000;
    }
    let income = |q: PlayerId| {
        let (a, b) = s.reinforcements(q);
        i64::from(a + b)
    };
    let rival = (0..s.players.len() as PlayerId)
        .filter(|&q| q != p && s.territory_count(q) > 0)
        .map(income)
        .max()
        .unwrap_or(0);
    let open: i64 = s
        .territories_of(p)
        .filter(|&t| is_border(s, t))
        .map(|t| (i64::from(threat(s, t)) - i64::from(s.armies[t as usize])).max(0))
        .sum();
    let alive = (0..s.players.len() as PlayerId)
        .filter(|&q| s.territory_count(q) > 0)
        .count() as i64;
    40 * income(p) - 15 * rival + 6 * i64::from(s.territory_count(p)) - 2 * open - 30 * alive
}

pub(super) fn hard(s: &ClassicState, d: &mut dyn Dice) -> Action {
    let p = me(s);
    let Phase::Reinforce { armies } = s.phase else {
        return planned(s, d, HARD);
    };
    if let Some(trade) = trade(s, p) {
        return trade;
    }
    if armies == 0 {
        return planned(s, d, HARD);
    }
    let mut cands: Vec<(i64, TerritoryId)> = plan::paths(s, HARD, p, armies)
        .into_iter()
        .map(|(t, x)| (x.map_or(-1000, |x| x.value), t))
        .collect();
    // Best first, then by territory.
    crate::short_sort::sort_by(&mut cands, |a, b| {
        (std::cmp::Reverse(a.0), a.1) < (std::cmp::Reverse(b.0), b.1)
    });
    cands.truncate(CANDIDATES);
    let mut best: Option<(i64, TerritoryId)> = None;
    for &(_, t) in &cands {
        let first = Action::Place {
            territory: t,
            armies,
        };
        let total: i64 = (0..ROLLOUTS)
            .map(|k| rollout(s, first, rollout_seed(s, t, k)).map_or(-100_000, |e| eval(&e, p)))
            .sum();
        if best.is_none_or(|(b, _)| total > b) {
            best = Some((total, t));
        }
    }
    match best {
        Some((_, t)) => Action::Place {
            territory: t,
            armies,
        },
        None => planned(s, d, HARD),
    }
}
