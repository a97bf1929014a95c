//! Exact battle odds by dynamic programming over (attacking armies, defending armies).
//!
//! The attacker always rolls the most dice allowed (min(3, attackers)); the defender rolls as
//! its [`DefenceRule`] says (min(2, defenders) by default; one die if it asked for one; two even
//! with one army under source 001's option, where a lost second comparison costs nothing more).
//! Per-roll loss probabilities are counted exactly over all 6^k outcomes.
//! Floats appear only here, never in game state.

use crate::rules::classic::{battle_losses, highest_first, DefenceRule};
use std::sync::OnceLock;

/// Result of [`odds`].
#[derive(Clone, Debug, PartialEq)]
pub struct Odds {
    pub attackers: u32,
    pub defenders: u32,
    /// Probability that the attacker takes the territory.
    pub win: f64,
    /// `attacker_survivors[k]`: probability that the battle ends with `k` attacking armies left.
    pub attacker_survivors: Vec<f64>,
    /// `defender_survivors[k]`: probability that the battle ends with `k` defending armies left.
    pub defender_survivors: Vec<f64>,
}

/// For attacker dice a (1..=3) and defender dice d (1..=2): probability of each
/// (attacker losses) outcome, indexed by attacker losses 0..=min(a,d).
fn roll_table() -> &'static [[[f64; 3]; 3]; 4] {
    static TABLE: OnceLock<[[[f64; 3]; 3]; 4]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[[0.0; 3]; 3]; 4];
        for (a, row) in t.iter_mut().enumerate().skip(1) {
            for (d, cell) in row.iter_mut().enumerate().take(3).skip(1) {
                let k = a + d;
                let total = 6usize.pow(k as u32);
                let mut counts = [0usize; 3];
                for mut code in 0..total {
                    let mut dice = [0u8; 5];
                    for x in dice.iter_mut().take(k) {
                        *x = (code % 6) as u8 + 1;
                        code /= 6;
                    }
                    let mut att = dice[..a].to_vec();
                    let mut def = dice[a..k].to_vec();
                    highest_first(&mut att);
                    highest_first(&mut def);
                    let (al, _) = battle_losses(&att, &def);
                    counts[al as usize] += 1;
                }
                for (p, c) in cell.iter_mut().zip(counts) {
                    *p = c as f64 / total as f64;
                }
            }
        }
        t
    })
}

/// Exact odds of `attackers` armies (those able to attack; the one left behind is not counted)
/// against `defenders` rolling as many dice as they may, fighting until one side is gone.
pub fn odds(attackers: u32, defenders: u32) -> Odds {
    odds_with(attackers, defenders, DefenceRule::Max)
}

/// As [`odds`], with the defender rolling as `rule` says.
pub fn odds_with(attackers: u32, defenders: u32, rule: DefenceRule) -> Odds {
    let (na, nd) = (attackers as usize, defenders as usize);
    let table = roll_table();
    // p[a][d]: probability of passing through state (a, d); processed in decreasing a + d.
    let mut p = vec![vec![0.0f64; nd + 1]; na + 1];
    p[na][nd] = 1.0;
    let mut att_end = vec![0.0; na + 1];
    let mut def_end = vec![0.0; nd + 1];
    for sum in (0..=na + nd).rev() {
        for a in 0..=na.min(sum) {
            let d = sum - a;
            if d > nd {
                continue;
            }
            let pr = p[a][d];
            if pr == 0.0 {
                continue;
            }
            if a == 0 || d == 0 {
                att_end[a] += pr;
                def_end[d] += pr;
                continue;
            }
            let (ad, dd) = (a.min(3), usize::from(rule.dice(d as u32)));
            let fights = ad.min(dd);
            for (al, q) in table[ad][dd].iter().enumerate().take(fights + 1) {
                let dl = (fights - al).min(d);
                p[a - al][d - dl] += pr * q;
            }
        }
    }
    let win = def_end[0];
    Odds {
        attackers,
        defenders,
        win,
        attacker_survivors: att_end,
        defender_survivors: def_end,
    }
}

/// Largest army counts [`win_chance`] has in its tables (beyond, it answers for this many).
pub const WIN_TABLE_MAX: u32 = 60;

type WinTable = Vec<[f64; WIN_TABLE_MAX as usize + 1]>;

/// The probability that `attackers` take a territory held by `defenders` rolling as `rule`
/// says: [`odds_with`]'s `win`, read from a table built once per rule (every count up to
/// [`WIN_TABLE_MAX`], larger ones capped), for computer players that ask thousands of times
/// a decision.
pub fn win_chance(attackers: u32, defenders: u32, rule: DefenceRule) -> f64 {
    static TABLES: [OnceLock<WinTable>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let i = match rule {
        DefenceRule::One => 0,
        DefenceRule::Max => 1,
        DefenceRule::Two => 2,
    };
    let t = TABLES[i].get_or_init(|| {
        let n = WIN_TABLE_MAX as usize;
        let table = roll_table();
        // w[a][d]: chance to win from (a, d), in increasing a + d.
        let mut w: WinTable = vec![[0.0; WIN_TABLE_MAX as usize + 1]; n + 1];
        for sum in 1..=2 * n {
            for a in sum.saturating_sub(n)..=sum.min(n) {
                let d = sum - a;
                w[a][d] = if d == 0 {
                    1.0
                } else if a == 0 {
                    0.0
                } else {
                    let (ad, dd) = (a.min(3), usize::from(rule.dice(d as u32)));
                    let fights = ad.min(dd);
                    table[ad][dd]
                        .iter()
                        .enumerate()
                        .take(fights + 1)
                        .map(|(al, q)| q * w[a - al][d - (fights - al).min(d)])
                        .sum()
                };
            }
        }
        w
    });
    let (a, d) = (
        attackers.min(WIN_TABLE_MAX) as usize,
        defenders.min(WIN_TABLE_MAX) as usize,
    );
    t[a][d]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_win_table_agrees_with_the_exact_odds() {
        for rule in [DefenceRule::One, DefenceRule::Max, DefenceRule::Two] {
            for a in 0..=WIN_TABLE_MAX {
                for d in 0..=WIN_TABLE_MAX {
                    if a + d == 0 {
                        continue;
                    }
                    let (x, y) = (win_chance(a, d, rule), odds_with(a, d, rule).win);
                    assert!((x - y).abs() < 1e-9, "{a} vs {d} {rule:?}: {x} {y}");
                }
            }
        }
    }

    #[test]
    fn single_rolls_match_known_values() {
        // 1 vs 1: attacker wins with probability 15/36.
        assert!((odds(1, 1).win - 15.0 / 36.0).abs() < 1e-12);
        // 3 dice vs 2 dice, one roll: defender loses 2 with 2890/7776, each loses 1 with 2611/7776.
        let t = roll_table();
        assert!((t[3][2][0] - 2890.0 / 7776.0).abs() < 1e-12);
        assert!((t[3][2][1] - 2611.0 / 7776.0).abs() < 1e-12);
        assert!((t[3][2][2] - 2275.0 / 7776.0).abs() < 1e-12);
        // 1 die vs 2 dice: attacker wins 55/216.
        assert!((t[1][2][0] - 55.0 / 216.0).abs() < 1e-12);
    }

    #[test]
    fn defence_rules_change_the_odds_as_counted_by_hand() {
        // 1 die vs 1 die, whatever the rule caps.
        assert!((odds_with(1, 1, DefenceRule::Two).win - 55.0 / 216.0).abs() < 1e-12);
        // 2 attacking dice vs one army rolling two dice: the army survives only by winning both
        // comparisons, else it falls (a second loss is void: it has only one army to lose).
        let two = odds_with(2, 1, DefenceRule::Two);
        let t = roll_table();
        assert!((two.win - (1.0 - t[2][2][2])).abs() < 1e-12);
        // One die against two armies is never better for the defender than two dice.
        for a in 1..8 {
            for d in 2..8 {
                assert!(
                    odds_with(a, d, DefenceRule::One).win >= odds_with(a, d, DefenceRule::Max).win
                );
            }
        }
        assert_eq!(odds_with(5, 1, DefenceRule::One), odds(5, 1));
    }

    #[test]
    fn distributions_sum_to_one_and_agree() {
        for (a, d, r) in [
            (1, 1, DefenceRule::Max),
            (3, 2, DefenceRule::Max),
            (5, 5, DefenceRule::Max),
            (10, 3, DefenceRule::Max),
            (30, 30, DefenceRule::Max),
            (7, 5, DefenceRule::One),
            (7, 5, DefenceRule::Two),
            (2, 1, DefenceRule::Two),
        ] {
            let o = odds_with(a, d, r);
            let sa: f64 = o.attacker_survivors.iter().sum();
            let sd: f64 = o.defender_survivors.iter().sum();
            assert!((sa - 1.0).abs() < 1e-9 && (sd - 1.0).abs() < 1e-9);
            // The attacker wins exactly when it has survivors.
            let alive: f64 = o.attacker_survivors[1..].iter().sum();
            assert!((alive - o.win).abs() < 1e-9);
        }
        // 10 attacking armies (11 in the territory) against 10: 0.5676; a 200 000-battle
        // simulation gave 0.5668. With 9 attacking (10 in the territory): 0.4815 simulated.
        assert!(
            (odds(10, 10).win - 0.5676).abs() < 0.0005,
            "{}",
            odds(10, 10).win
        );
        assert!(
            (odds(9, 10).win - 0.4815).abs() < 0.005,
            "{}",
            odds(9, 10).win
        );
        assert!(odds(20, 5).win > 0.99);
    }

    #[test]
    fn monotone_in_attackers() {
        let mut last = 0.0;
        for a in 1..20 {
            let w = odds(a, 5).win;
            assert!(w > last);
            last = w;
        }
    }
}
