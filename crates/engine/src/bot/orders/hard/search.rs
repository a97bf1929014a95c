//! `hard`'s movement search: iterated best response over candidate order sets, judged by the
//! adjudicator (see the parent module).
//!
//! A set's worth to a power after one adjudication ([`Judge::score`]): the place values of its
//! units where they stand afterwards (ours [`Values::by_kind`], the others' `normal`'s
//! [`Values::new`]), a unit dislodged costing half the best value on the board, and in a Fall
//! every centre that changes hands twice that (gained or lost); in a Spring an own centre with an
//! enemy on it costs half. A home centre counts double (builds need it). Our set is also judged
//! against every neighbour grabbing the centres next to it ([`greedy`]).

use super::super::values::{moves_from, Values};
use super::candidates::{alternatives, generate, greedy};
use super::Effort;
use crate::dice::Dice;
use crate::rules::orders::adjudicator::Piece;
use crate::rules::orders::map::{OrdersMap, PowerId, ProvinceId};
use crate::rules::orders::notation::Written;
use crate::rules::orders::{movement_rules, House, MovementReport, OrdersState, Season};

/// One power in the search: its values, candidates and how often each was its best response.
struct Player {
    power: PowerId,
    values: Values,
    top: i64,
    cands: Vec<Vec<Written>>,
    weights: Vec<u64>,
    /// Its home centres (where it builds).
    homes: Vec<ProvinceId>,
}

/// The position and rules that orders are adjudicated against.
struct Judge<'a> {
    s: &'a OrdersState,
    map: &'static OrdersMap,
    house: House,
    /// Units of powers outside the search: they hold.
    players: Vec<Player>,
}

impl Judge<'_> {
    /// Adjudicates player `i`'s set `mine` with every other player's candidate from `profile`.
    fn adjudicate(&self, i: usize, mine: &[Written], profile: &[usize]) -> MovementReport {
        let mut orders: Vec<(PowerId, Written)> = vec![];
        for (j, p) in self.players.iter().enumerate() {
            let set = if j == i { mine } else { &p.cands[profile[j]] };
            orders.extend(set.iter().map(|w| (p.power, *w)));
        }
        movement_rules(self.map, &self.s.units, &orders, self.house)
    }

    /// What the outcome `r` is worth to player `i` (see the module comment).
    fn score(&self, i: usize, r: &MovementReport) -> i64 {
        let pl = &self.players[i];
        let (p, top) = (pl.power, pl.top);
        let mut sc = 0i64;
        let mut occupant: Vec<Option<PowerId>> = vec![None; self.map.len()];
        for u in &r.units {
            occupant[u.loc.province as usize] = Some(u.power);
            if u.power == p {
                sc += pl.values.of(u.kind, u.loc);
            }
        }
        let lost = r.dislodged.iter().filter(|x| x.piece.power == p).count() as i64;
        sc -= lost * (top / 2);
        for c in self.map.centres() {
            let owner = self.s.centres.get(&c).copied();
            let occ = occupant[c as usize];
            // A home centre counts twice: without it there is nowhere to build.
            let w = if pl.homes.contains(&c) { 2 } else { 1 };
            match self.s.season {
                Season::Fall => {
                    let after = occ.or(owner);
                    if after == Some(p) && owner != Some(p) {
                        sc += 2 * w * top;
                    } else if owner == Some(p) && after != Some(p) {
                        sc -= 2 * w * top;
                    }
                }
                Season::Spring => {
                    if owner == Some(p) && occ.is_some_and(|o| o != p) {
                        sc -= w * top / 2;
                    }
                }
            }
        }
        sc
    }

    /// Player `i`'s set `mine` summed over `profiles` of the others.
    fn total(&self, i: usize, mine: &[Written], profiles: &[Vec<usize>]) -> i64 {
        profiles
            .iter()
            .map(|pr| self.score(i, &self.adjudicate(i, mine, pr)))
            .sum()
    }

    /// `n` profiles: each player's candidate drawn by its weight.
    fn sample(&self, d: &mut dyn Dice, n: usize) -> Vec<Vec<usize>> {
        (0..n)
            .map(|_| {
                self.players
                    .iter()
                    .map(|p| {
                        let sum: u64 = p.weights.iter().sum();
                        let mut x = u64::from(d.below(sum.clamp(1, u64::from(u32::MAX)) as u32));
                        let mut k = 0;
                        while k + 1 < p.weights.len() && x >= p.weights[k] {
                            x -= p.weights[k];
                            k += 1;
                        }
                        k
                    })
                    .collect()
            })
            .collect()
    }

    /// Each player's most likely candidate (the first among equals).
    fn likeliest(&self) -> Vec<usize> {
        self.players
            .iter()
            .map(|p| {
                let best = p.weights.iter().copied().max().unwrap_or(0);
                p.weights.iter().position(|&w| w == best).unwrap_or(0)
            })
            .collect()
    }
}

/// The powers other than `power` with a unit that stands on, or can move to, a province where
/// one of `power`'s units stands or can move: those whose orders can meet ours.
fn powers_near(s: &OrdersState, power: PowerId) -> Vec<PowerId> {
    let map = s.map();
    let mut zone = vec![false; map.len()];
    let reach = |u: &Piece| {
        let mut v: Vec<usize> = moves_from(map, u.kind, u.loc, u.facing)
            .iter()
            .map(|l| l.province as usize)
            .collect();
        v.push(u.loc.province as usize);
        v
    };
    for u in s.units.iter().filter(|u| u.power == power) {
        for p in reach(u) {
            zone[p] = true;
        }
    }
    let mut out: Vec<PowerId> = vec![];
    for u in s.units.iter().filter(|u| u.power != power) {
        if !out.contains(&u.power) && reach(u).iter().any(|&p| zone[p]) {
            out.push(u.power);
        }
    }
    out.sort_unstable();
    out
}

/// `hard`'s movement orders for `power`.
pub(super) fn movement(
    s: &OrdersState,
    power: PowerId,
    d: &mut dyn Dice,
    e: Effort,
) -> Vec<Written> {
    let map = s.map();
    let units = s.orderable_units(power);
    if units.is_empty() {
        return vec![];
    }
    let mut players = vec![];
    for (i, p) in std::iter::once(power)
        .chain(powers_near(s, power))
        .enumerate()
    {
        // Ours are `hard`'s values; the others are judged as `normal` would judge them.
        let values = if i == 0 {
            Values::by_kind(s, p)
        } else {
            Values::new(s, p)
        };
        let n = if i == 0 { e.ours } else { e.theirs };
        let mut cands = generate(s, p, &values, d, n);
        if i > 0 {
            // The grab (see `greedy`) is always one of theirs, last.
            let g = greedy(s, p, &values);
            if !cands.contains(&g) {
                cands.push(g);
            }
        }
        players.push(Player {
            power: p,
            homes: map.homes(p).collect(),
            top: values.top(),
            weights: vec![1; cands.len()],
            values,
            cands,
        });
    }
    let house = House {
        combine: s.options.combine && s.season == Season::Fall,
        fleet_facing: s.options.fleet_facing,
        source_convoys: s.options.source_convoys,
    };
    let mut judge = Judge {
        s,
        map,
        house,
        players,
    };
    // Iterated best response: every player answers profiles drawn from the others' weights;
    // later rounds count more (the estimates have settled).
    for round in 0..e.rounds {
        for i in 0..judge.players.len() {
            let profiles = judge.sample(d, e.samples);
            let mut best = (i64::MIN, 0usize);
            for (k, set) in judge.players[i].cands.iter().enumerate() {
                let t = judge.total(i, set, &profiles);
                if t > best.0 {
                    best = (t, k);
                }
            }
            judge.players[i].weights[best.1] += 1 + round as u64;
        }
    }
    // Our set: the best against the others' likeliest profile and a few drawn ones, then
    // improved one unit at a time against the same profiles.
    let mut profiles = vec![judge.likeliest()];
    profiles.extend(judge.sample(d, e.samples));
    // And against every neighbour grabbing our centres at once (see `greedy`): the orders
    // must hold up against the careless and the random too.
    let grab: Vec<usize> = judge
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if i == 0 {
                0
            } else {
                let g = greedy(s, p.power, &p.values);
                p.cands.iter().position(|c| *c == g).unwrap_or(0)
            }
        })
        .collect();
    profiles.push(grab);
    let mut cur = judge.players[0].cands[0].clone();
    let mut cur_score = judge.total(0, &cur, &profiles);
    for set in judge.players[0].cands.iter().skip(1) {
        let t = judge.total(0, set, &profiles);
        if t > cur_score {
            (cur, cur_score) = (set.clone(), t);
        }
    }
    for _ in 0..e.passes {
        let mut improved = false;
        for i in 0..units.len() {
            for alt in alternatives(map, &units, &cur, i) {
                let t = judge.total(0, &alt, &profiles);
                if t > cur_score {
                    (cur, cur_score) = (alt, t);
                    improved = true;
                }
            }
        }
        if !improved {
            break;
        }
    }
    cur
}
