//! `normal`'s attack planning, after the hard AI of Domination (`AIDomination`): from each
//! border territory of ours, a depth-first search over chains of conquests, tracking the armies
//! left after each battle (the stack moves on, one army stays behind) and weighing each step by
//! the exact odds of winning it. A chain is worth the territories it takes, the continents it
//! completes or breaks, the players it knocks out (for their cards) and the turn's card.
//!
//! Reinforcements go where the best chain starts; attacks follow the best chain from where the
//! armies stand now. Once the turn's card is earned, the bot attacks on only for a chain worth
//! [`Weights::going_on`]: without that bar it spreads itself thin, and a sweep fed by a big card
//! trade takes it all back (65 % against three easy bots; with the bar 93 %, see issue 13).

use super::*;

/// Conquest chains searched from one launch territory, and their length.
const PATH_NODES: u32 = 500;
const PATH_DEPTH: usize = 5;

/// What a chain of conquests is worth, in points: each territory taken, the turn's card, per
/// bonus army of a continent completed or broken, a player knocked out and each card of theirs;
/// the least odds (per mille) of a battle in a chain; and, once the turn's card is earned, the
/// least a chain must be worth to attack on.
#[derive(Clone, Copy, Debug)]
pub(super) struct Weights {
    pub per_territory: i64,
    pub card: i64,
    pub complete: i64,
    pub break_bonus: i64,
    pub knockout: i64,
    pub knockout_per_card: i64,
    pub min_odds: i64,
    pub going_on: i64,
}

/// `normal`'s weights. Measured against three easy bots: a bar to go on of 20 or 80 does worse
/// than 40–60, and without any bar the bot wins 65 %.
pub(super) const NORMAL: Weights = Weights {
    per_territory: 8,
    card: 40,
    complete: 30,
    break_bonus: 12,
    knockout: 60,
    knockout_per_card: 40,
    min_odds: 500,
    going_on: 40,
};

/// A chain of conquests from one of our territories: its worth (expected, in points) and the
/// first battle.
#[derive(Clone, Copy, Debug)]
pub(super) struct Path {
    pub value: i64,
    pub launch: TerritoryId,
    pub first: TerritoryId,
}

/// Armies an attack of `a` loses on average taking `d` defenders (about 0.85 a defender while
/// they roll two dice, 0.5 for the last).
fn expected_loss(d: u32) -> u32 {
    (d * 17 + 3) / 20
}

/// What a search needs to know of the board, counted once per decision.
struct Board<'a> {
    s: &'a ClassicState,
    w: Weights,
    p: PlayerId,
    /// Per continent: its size, how many of its territories are ours, whether its bonus goes
    /// to someone (us included).
    size: Vec<u32>,
    ours: Vec<u32>,
    held_by: Vec<Option<PlayerId>>,
    /// Per player: territories held.
    count: Vec<u32>,
}

impl<'a> Board<'a> {
    fn new(s: &'a ClassicState, w: Weights, p: PlayerId) -> Self {
        let map = s.map();
        let conts = map.continents.len();
        let mut ours = vec![0; conts];
        let mut count = vec![0; s.players.len()];
        for t in map.ids() {
            if let Owner::Player(q) = s.owner[t as usize] {
                count[q as usize] += 1;
                if q == p {
                    ours[map.territories[t as usize].continent as usize] += 1;
                }
            }
        }
        let held_by = (0..conts)
            .map(|c| (0..s.players.len() as PlayerId).find(|&q| s.owns_continent(q, c)))
            .collect();
        Board {
            s,
            w,
            p,
            size: map
                .continents
                .iter()
                .map(|c| c.territories.len() as u32)
                .collect(),
            ours,
            held_by,
            count,
        }
    }
}

/// One depth-first search from a launch territory, with the conquests of the chain so far
/// counted per continent and per player.
struct Search<'b, 'a> {
    b: &'b Board<'a>,
    taken: Vec<bool>,
    taken_in: Vec<u32>,
    taken_of: Vec<u32>,
    nodes: u32,
    best: i64,
    best_first: Option<TerritoryId>,
}

impl Search<'_, '_> {
    /// Worth of the conquests in `chain` on top of what we hold: territories, continents
    /// completed and broken, players knocked out (their cards), the turn's card.
    fn worth(&self, chain: &[TerritoryId]) -> i64 {
        let b = self.b;
        let (s, w) = (b.s, b.w);
        let map = s.map();
        let mut v = w.per_territory * chain.len() as i64;
        if !s.turn_state.conquered && !chain.is_empty() {
            v += w.card;
        }
        let (mut seen_c, mut seen_q) = (0u64, 0u64);
        for &t in chain {
            let c = map.territories[t as usize].continent as usize;
            if seen_c & (1 << c) == 0 {
                seen_c |= 1 << c;
                let bonus = i64::from(map.continents[c].bonus);
                if b.ours[c] + self.taken_in[c] == b.size[c] {
                    v += w.complete * bonus;
                }
                if b.held_by[c].is_some_and(|q| q != b.p) {
                    v += w.break_bonus * bonus;
                }
            }
            if let Owner::Player(q) = s.owner[t as usize] {
                if seen_q & (1 << q) == 0 {
                    seen_q |= 1 << q;
                    if self.taken_of[q as usize] == b.count[q as usize] {
                        let cards = s.cards_held(q) as i64;
                        v += w.knockout + w.knockout_per_card * cards;
                    }
                }
            }
        }
        v
    }

    /// Extends `chain` from `at` with `a` armies able to attack, `prob` per mille of getting here.
    fn go(&mut self, at: TerritoryId, a: u32, prob: i64, chain: &mut Vec<TerritoryId>) {
        self.nodes += 1;
        let b = self.b;
        if !chain.is_empty() {
            let v = self.worth(chain) * prob / 1000;
            if v > self.best {
                self.best = v;
                self.best_first = chain.first().copied();
            }
        }
        if chain.len() >= PATH_DEPTH || self.nodes >= PATH_NODES {
            return;
        }
        let s = b.s;
        let map = s.map();
        for &n in &map.territories[at as usize].adjacent {
            // Neutral armies count as nobody's (no player to knock out).
            let q = match s.owner[n as usize] {
                Owner::Player(q) if q == b.p => continue,
                Owner::Player(q) => Some(q),
                Owner::Neutral => None,
                Owner::Unclaimed => continue,
            };
            if self.taken[n as usize] {
                continue;
            }
            let d = s.armies[n as usize];
            let odds = (win_chance(a, d, s.defence_rule(n)) * 1000.0) as i64;
            if odds < b.w.min_odds {
                continue;
            }
            let c = map.territories[n as usize].continent as usize;
            let left = a.saturating_sub(expected_loss(d));
            self.taken[n as usize] = true;
            self.taken_in[c] += 1;
            if let Some(q) = q {
                self.taken_of[q as usize] += 1;
            }
            chain.push(n);
            // One army stays in each conquest.
            self.go(n, left.saturating_sub(1), prob * odds / 1000, chain);
            chain.pop();
            if let Some(q) = q {
                self.taken_of[q as usize] -= 1;
            }
            self.taken_in[c] -= 1;
            self.taken[n as usize] = false;
        }
    }
}

/// The best chain of conquests from `launch` with `extra` more armies there.
fn search_from(b: &Board, launch: TerritoryId, extra: u32) -> Option<Path> {
    let s = b.s;
    let a = (s.armies[launch as usize] + extra).checked_sub(1)?;
    let mut search = Search {
        b,
        taken: vec![false; s.map().territories.len()],
        taken_in: vec![0; b.size.len()],
        taken_of: vec![0; s.players.len()],
        nodes: 0,
        best: 0,
        best_first: None,
    };
    search.go(launch, a, 1000, &mut Vec::new());
    search.best_first.map(|first| Path {
        value: search.best,
        launch,
        first,
    })
}

/// Each border territory of ours with its best chain of conquests (with `extra` armies placed
/// on it first), if it has one.
pub(super) fn paths(
    s: &ClassicState,
    w: Weights,
    p: PlayerId,
    extra: u32,
) -> Vec<(TerritoryId, Option<Path>)> {
    let b = Board::new(s, w, p);
    s.territories_of(p)
        .filter(|&t| is_border(s, t))
        .map(|t| (t, search_from(&b, t, extra)))
        .collect()
}

/// The first battle of the best chain of conquests from where our armies stand; once the
/// turn's card is earned, only of a chain worth going on for.
pub(super) fn next_attack(
    s: &ClassicState,
    w: Weights,
    p: PlayerId,
) -> Option<(TerritoryId, TerritoryId)> {
    best_path(s, w, p, 0)
        .filter(|x| !s.turn_state.conquered || x.value >= w.going_on)
        .map(|x| (x.launch, x.first))
}

/// The best chain of conquests over every territory of ours (with `extra` armies placed on its
/// launch first).
pub(super) fn best_path(s: &ClassicState, w: Weights, p: PlayerId, extra: u32) -> Option<Path> {
    paths(s, w, p, extra)
        .into_iter()
        .filter_map(|(_, x)| x)
        .max_by_key(|x| (x.value, std::cmp::Reverse(x.launch)))
}
