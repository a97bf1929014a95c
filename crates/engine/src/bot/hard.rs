//! The `hard` computer player: `normal`'s setup, trades, occupation and fortification, with
//! look-ahead for its armies. Its reinforcements all go to one border territory, chosen by
//! playing the round out (its turn and the others', with `normal` and dice of its own) from each
//! of the five most promising ones eight times and judging where each leaves it. Its attacks
//! value each capture (finishing or breaking a continent, knocking a player out for their cards,
//! the turn's card), weigh it by the exact odds, and go on while one is worth them.

use super::*;

/// What capturing `t` is worth to `p` now (before the odds).
fn value(s: &ClassicState, p: PlayerId, t: TerritoryId) -> i64 {
    let map = s.map();
    let c = map.territories[t as usize].continent as usize;
    let cont = &map.continents[c];
    let size = cont.territories.len() as i64;
    let bonus = i64::from(cont.bonus);
    let owned = cont
        .territories
        .iter()
        .filter(|&&x| s.owner[x as usize] == Owner::Player(p))
        .count() as i64;
    // Progress towards the continent, and much more for the capture that completes it.
    // (Divided by the size twice, up to four: small continents first.)
    let mut v = 40 * bonus * (owned + 1) / size / size.clamp(1, 4) + 10;
    if owned + 1 == size {
        v += 60 * bonus;
    }
    if let Owner::Player(q) = s.owner[t as usize] {
        if s.owns_continent(q, c) {
            v += 25 * bonus; // breaks their bonus
        }
        if s.territory_count(q) == 1 {
            // Knocking a player out gives their cards.
            v += 120 + 40 * s.players[q as usize].hand.len() as i64;
        }
    }
    if !s.turn_state.conquered {
        v += 60; // the turn's card
    }
    v
}

/// Probability (per mille) that `a` attacking armies take a territory held by `dfn`.
fn win_permille(s: &ClassicState, a: u32, to: TerritoryId, dfn: u32) -> i64 {
    (win_chance(a, dfn, s.defence_rule(to)) * 1000.0) as i64
}

/// The best capture launched from `from` with `a` attacking armies: (score, target).
fn best_from(
    s: &ClassicState,
    p: PlayerId,
    from: TerritoryId,
    a: u32,
) -> Option<(i64, TerritoryId)> {
    s.map().territories[from as usize]
        .adjacent
        .iter()
        .filter(|&&n| s.owner[n as usize] != Owner::Player(p))
        .map(|&n| {
            let w = win_permille(s, a, n, s.armies[n as usize]);
            // Expected worth, less what a lost battle costs (armies thrown away).
            let score = w * value(s, p, n) / 1000 - (1000 - w) * 100 / 1000;
            (score, n, w)
        })
        .filter(|&(_, _, w)| w >= 650)
        .max_by_key(|&(sc, n, _)| (sc, std::cmp::Reverse(n)))
        .map(|(sc, n, _)| (sc, n))
}

/// Border territories tried, and turns played out from each.
const CANDIDATES: usize = 5;
const ROLLOUTS: u32 = 8;
const ROLLOUT_ACTIONS: u32 = 300;

fn rollout_seed(s: &ClassicState, t: TerritoryId, k: u32) -> [u8; 32] {
    let mut b = s.rng.seed().to_vec();
    b.extend_from_slice(b"orbis-hard-rollout");
    b.extend_from_slice(&s.step.to_le_bytes());
    b.extend_from_slice(&u32::from(t).to_le_bytes());
    b.extend_from_slice(&k.to_le_bytes());
    sha256(&b)
}

/// The state when our next turn begins, after `first`, the rest of this turn and the others'
/// turns played by `normal`, with dice of the bot's own (a hot-seat game's dice come from its
/// seed: a rollout must not foresee them).
fn rollout(s: &ClassicState, first: Action, seed: [u8; 32]) -> Option<ClassicState> {
    let p = s.current;
    let mut st = s.clone();
    let mut dice = SeededDice::new(seed);
    st.apply_with(&first, &mut dice).ok()?;
    // Through the others' replies too, until our next turn begins: where a border is left
    // open, they take it in the rollout.
    // At most `ROLLOUT_ACTIONS` actions (a long battle is many rolls): a decision stays quick.
    let mut left = false;
    for _ in 0..ROLLOUT_ACTIONS {
        left |= st.current != p;
        if st.winner().is_some() || (left && st.current == p) {
            break;
        }
        let a = choose(&st, BotLevel::Normal)?;
        st.apply_with(&a, &mut dice).ok()?;
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
    let open: i64 = mine_of(s, p)
        .filter(|&t| is_border(s, t))
        .map(|t| (i64::from(threat(s, t)) - i64::from(s.armies[t as usize])).max(0))
        .sum();
    let alive = (0..s.players.len() as PlayerId)
        .filter(|&q| s.territory_count(q) > 0)
        .count() as i64;
    40 * income(p) - 15 * rival + 6 * i64::from(s.territory_count(p)) - 2 * open - 30 * alive
}

fn mine_of(s: &ClassicState, p: PlayerId) -> impl Iterator<Item = TerritoryId> + '_ {
    s.territories_of(p)
}

pub(super) fn hard(s: &ClassicState, d: &mut dyn Dice) -> Action {
    let p = me(s);
    match s.phase {
        Phase::Reinforce { armies } => {
            let a = normal(s, d);
            if matches!(a, Action::Trade { .. }) || armies == 0 {
                return a;
            }
            // First hold what pays every turn: a continent's border facing more than it has.
            let map = s.map();
            let defend = mine(s)
                .into_iter()
                .filter(|&t| is_border(s, t))
                .filter(|&t| s.owns_continent(p, map.territories[t as usize].continent as usize))
                .map(|t| (i64::from(threat(s, t)) - i64::from(s.armies[t as usize]), t))
                .filter(|&(gap, _)| gap >= 0)
                .max_by_key(|&(gap, t)| (gap, std::cmp::Reverse(t)));
            if let Some((gap, t)) = defend {
                return Action::Place {
                    territory: t,
                    armies: armies.min(gap as u32 + 1),
                };
            }
            // Then all of them on one border territory, chosen by playing the rest of the turn
            // out (with `normal`'s attacks and its own dice, never the game's) from each of the
            // most promising ones, and judging where each leaves us.
            let mut cands: Vec<(i64, TerritoryId)> = mine(s)
                .into_iter()
                .filter(|&t| is_border(s, t))
                .map(|t| {
                    let after = s.armies[t as usize] + armies - 1;
                    (best_from(s, p, t, after).map_or(-1000, |(sc, _)| sc), t)
                })
                .collect();
            cands.sort_by_key(|&(sc, t)| (std::cmp::Reverse(sc), t));
            cands.truncate(CANDIDATES);
            let mut best: Option<(i64, TerritoryId)> = None;
            for &(_, t) in &cands {
                let first = Action::Place {
                    territory: t,
                    armies,
                };
                let mut total = 0;
                for k in 0..ROLLOUTS {
                    let seed = rollout_seed(s, t, k);
                    total += rollout(s, first, seed).map_or(-100_000, |e| eval(&e, p));
                }
                if best.is_none_or(|(b, _)| total > b) {
                    best = Some((total, t));
                }
            }
            match best {
                Some((_, t)) => Action::Place {
                    territory: t,
                    armies,
                },
                None => a,
            }
        }
        Phase::Attack => {
            let best = mine(s)
                .into_iter()
                .filter(|&f| s.armies[f as usize] > 1)
                .filter_map(|f| {
                    best_from(s, p, f, s.armies[f as usize] - 1).map(|(sc, t)| (sc, f, t))
                })
                .filter(|&(sc, _, _)| sc > 0)
                .max_by_key(|&(sc, f, t)| (sc, std::cmp::Reverse((f, t))));
            attack_or_end(s, best.map(|(_, from, to)| (from, to)))
        }
        _ => normal(s, d),
    }
}
