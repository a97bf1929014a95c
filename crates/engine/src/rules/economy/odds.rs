//! Exact odds of the economy's battles (issue 60): an attack fought to the end, and what a
//! withdraw or a landing costs if it is intercepted, for the screens to show before a player
//! decides. Nothing here changes a game: every function reads a state and returns chances.
//!
//! An attack is a chain of rolls, each one unit against one unit, and who fights a roll depends
//! only on what each side has lost so far (the attacker's units come from its own records, the
//! target's from its own: [`EconomyState::roll_sides`] picks them, as the roll itself does). So
//! the odds are a dynamic program over (attacker's losses, target's losses): each side's
//! states are made once, by taking its units away one by one on a copy of the game with the
//! engine's own functions (the unit a lost roll costs, armies drowned at sea without navies),
//! and each roll's chances are counted over the 36 pairs of dice with [`roll::resolve`], the
//! function the battle rolls with. A standing order to withdraw ends the attack where the
//! engine would start it. Withdraws and landings go unit by unit against each interceptor in
//! turn, as `withdraw::finish_withdrawal` and `landing::finish_landing` roll them.
//!
//! The odds assume nobody declares anything between the rolls (no interruption, no withdraw).
//!
//! Chances are generic ([`Chance`]): `f64` for the screens (IEEE-754 basic operations give the
//! same result everywhere) and [`Exact`], a whole number of 36ths of 36ths, for the tests,
//! which check the sums are exactly one and the odds equal the engine's own battles played out
//! over every pair of dice.

use super::battlefield::{Foe, Site, WithdrawOrder};
use super::map::EconomyMap;
use super::roll::{self, Loser, Side};
use super::state::EconomyState;
use super::units::Kind;
use crate::rules::classic::PlayerId;
use std::collections::BTreeMap;

/// A probability the odds can be counted in.
pub trait Chance: Clone + PartialEq + std::fmt::Debug {
    /// Certainty, for a battle of at most `rolls` rolls (`None`: too long for this type).
    fn certain(rolls: u32) -> Option<Self>;
    fn zero() -> Self;
    fn add(&mut self, other: &Self);
    /// `self` times `n` / 36 (`n` of the 36 pairs of dice).
    fn of36(&self, n: u32) -> Self;
}

impl Chance for f64 {
    fn certain(_: u32) -> Option<f64> {
        Some(1.0)
    }
    fn zero() -> f64 {
        0.0
    }
    fn add(&mut self, other: &f64) {
        *self += other;
    }
    fn of36(&self, n: u32) -> f64 {
        self * f64::from(n) / 36.0
    }
}

/// An exact chance: a count out of 36^rolls (the `rolls` given to [`Chance::certain`]). Each
/// roll divides by 36 once and a battle rolls at most `rolls` times, so no division leaves a
/// remainder; up to 24 rolls fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Exact(pub u128);

impl Chance for Exact {
    fn certain(rolls: u32) -> Option<Exact> {
        36u128.checked_pow(rolls).map(Exact)
    }
    fn zero() -> Exact {
        Exact(0)
    }
    fn add(&mut self, other: &Exact) {
        self.0 += other.0;
    }
    fn of36(&self, n: u32) -> Exact {
        debug_assert_eq!(self.0 % 36, 0, "more rolls than counted for");
        Exact(self.0 / 36 * u128::from(n))
    }
}

/// Of the 36 pairs of dice `a` and `b` may roll (their `die` is ignored), how many make `a`
/// lose, `b` lose, and both lose.
pub fn roll_counts(a: &Side, b: &Side) -> [u32; 3] {
    let mut n = [0; 3];
    for da in 1..=6 {
        for db in 1..=6 {
            let l = roll::resolve(&Side { die: da, ..*a }, &Side { die: db, ..*b });
            n[match l {
                Loser::First => 0,
                Loser::Second => 1,
                Loser::Both => 2,
            }] += 1;
        }
    }
    n
}

/// How an attack ends, for its attacker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ending {
    /// The target has no unit of the kind left here; the attacker has.
    Won,
    /// The attacker has none left; the target has.
    Lost,
    /// The last two fell in the same roll.
    BothGone,
    /// This player's standing order to withdraw took effect (their units may still be caught
    /// as they go: that withdraw's cost is not counted here).
    Withdrew(PlayerId),
}

/// One way an attack can end.
#[derive(Clone, Debug, PartialEq)]
pub struct End<W> {
    pub ending: Ending,
    /// Units the attacker has lost here by then (armies drowned at sea included), and the target.
    pub attacker_lost: u32,
    pub target_lost: u32,
    pub chance: W,
}

/// The odds of an attack fought to the end.
#[derive(Clone, Debug, PartialEq)]
pub struct AttackOdds<W> {
    /// Units of the attack's kind each side has when it starts (or goes on).
    pub attacker_units: u32,
    pub target_units: u32,
    /// The attacker's next roll and the target's, before the dice (`die` is 0).
    pub next: (Side, Side),
    /// Every way it can end; the chances add up to one.
    pub ends: Vec<End<W>>,
}

impl<W: Chance> AttackOdds<W> {
    /// The chance of ending as `f` says.
    pub fn chance(&self, f: impl Fn(Ending) -> bool) -> W {
        let mut w = W::zero();
        for e in self.ends.iter().filter(|e| f(e.ending)) {
            w.add(&e.chance);
        }
        w
    }
}

impl AttackOdds<f64> {
    /// The chance the attacker wipes out the target's units of the kind.
    pub fn win(&self) -> f64 {
        self.chance(|e| e == Ending::Won)
    }

    /// Units each side loses on average (attacker, target).
    pub fn expected_losses(&self) -> (f64, f64) {
        self.ends.iter().fold((0.0, 0.0), |(a, t), e| {
            (
                a + e.chance * f64::from(e.attacker_lost),
                t + e.chance * f64::from(e.target_lost),
            )
        })
    }
}

/// One side's state after each number of lost rolls: the side it rolls with next, its units
/// of the attack's kind, all its units here, and whether its standing order to withdraw would
/// take effect there.
struct Step {
    side: Side,
    left: u32,
    units: u32,
    due: bool,
}

/// One way a withdraw or a landing can end.
#[derive(Clone, Debug, PartialEq)]
pub struct Escape<W> {
    /// Units the withdrawing player loses (a landing with its navies engaged: armies and navies).
    pub lost: u32,
    /// Units the interceptors lose, all together.
    pub interceptors_lost: u32,
    pub chance: W,
}

/// The odds of a withdraw or a landing that every interceptor named intercepts.
#[derive(Clone, Debug, PartialEq)]
pub struct EscapeOdds<W> {
    /// Units that try to get away (or ashore).
    pub units: u32,
    pub ends: Vec<Escape<W>>,
}

impl EscapeOdds<f64> {
    /// The chance that every unit gets away.
    pub fn all_away(&self) -> f64 {
        self.ends
            .iter()
            .filter(|e| e.lost == 0)
            .map(|e| e.chance)
            .sum()
    }

    /// Units lost on average (the withdrawing player's, the interceptors').
    pub fn expected_losses(&self) -> (f64, f64) {
        self.ends.iter().fold((0.0, 0.0), |(a, t), e| {
            (
                a + e.chance * f64::from(e.lost),
                t + e.chance * f64::from(e.interceptors_lost),
            )
        })
    }
}

/// What is being got out of the battle: a withdraw, or a landing (its navies engaged or not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Getaway {
    Withdraw(WithdrawOrder),
    Land { armies: u32, navies_engaged: bool },
}

impl EconomyState {
    /// The odds of `p`'s attack on `target` with units of `kind` at `site`, fought to the end
    /// from now: the one under way between two rolls, or one `p` could declare. `None` when a
    /// side has no unit of that kind there, or (for [`Exact`]) the battle is too long to count.
    pub fn attack_odds<W: Chance>(
        &self,
        site: Site,
        p: PlayerId,
        target: Foe,
        kind: Kind,
    ) -> Option<AttackOdds<W>> {
        let map = EconomyMap::get();
        let mine = self.chain(map, site, p, target, kind, true);
        let theirs = self.chain(map, site, p, target, kind, false);
        let (na, nt) = (mine.len(), theirs.len());
        if mine[0].left == 0 || theirs[0].left == 0 {
            return None;
        }
        // Each roll moves one side at least one step on.
        let mut p_at = vec![vec![W::zero(); nt]; na];
        p_at[0][0] = W::certain((na + nt - 2) as u32)?;
        let mut ends = vec![];
        for sum in 0..na + nt - 1 {
            for i in 0..na.min(sum + 1) {
                let j = sum - i;
                if j >= nt || p_at[i][j] == W::zero() {
                    continue;
                }
                let w = std::mem::replace(&mut p_at[i][j], W::zero());
                let (a, t) = (&mine[i], &theirs[j]);
                let rolled = i + j > 0;
                let ending = match (a.left == 0, t.left == 0) {
                    (true, true) => Some(Ending::BothGone),
                    (false, true) => Some(Ending::Won),
                    (true, false) => Some(Ending::Lost),
                    // After a roll the attacker's standing order is looked at first.
                    _ if rolled && a.due => Some(Ending::Withdrew(p)),
                    _ if rolled && t.due => match target {
                        Foe::Player(q) => Some(Ending::Withdrew(q)),
                        Foe::Neutral => None,
                    },
                    _ => None,
                };
                if let Some(ending) = ending {
                    ends.push(End {
                        ending,
                        attacker_lost: mine[0].units - a.units,
                        target_lost: theirs[0].units - t.units,
                        chance: w,
                    });
                    continue;
                }
                let [first, second, both] = roll_counts(&a.side, &t.side);
                p_at[i + 1][j].add(&w.of36(first));
                p_at[i][j + 1].add(&w.of36(second));
                p_at[i + 1][j + 1].add(&w.of36(both));
            }
        }
        Some(AttackOdds {
            attacker_units: mine[0].left,
            target_units: theirs[0].left,
            next: (mine[0].side, theirs[0].side),
            ends,
        })
    }

    /// One side of an attack (`attacker`: `p`'s, else `target`'s) after 0, 1, 2… lost rolls,
    /// until it has no unit of `kind` left: made on a copy by taking its units away as lost
    /// rolls do.
    fn chain(
        &self,
        map: &EconomyMap,
        site: Site,
        p: PlayerId,
        target: Foe,
        kind: Kind,
        attacker: bool,
    ) -> Vec<Step> {
        let mut s = self.clone();
        // Once the attack is declared its attacker has attacked (a besieged one may withdraw).
        if let Some(b) = s.combat.as_mut().and_then(|c| c.battle.as_mut()) {
            b.attacked.insert(p);
        }
        let who = if attacker { Foe::Player(p) } else { target };
        // A standing order is dropped the first time it is due (taken or not).
        let mut order_seen = false;
        let mut out = vec![];
        loop {
            let f = s.site_force(site, who);
            let ((au, a), (tu, t)) = s.roll_sides(site, p, target, kind);
            let due = match who {
                Foe::Player(x) if !order_seen => match s.order_due(map, site, x) {
                    Some(go) => {
                        order_seen = true;
                        go
                    }
                    None => false,
                },
                _ => false,
            };
            out.push(Step {
                side: if attacker { a } else { t },
                left: f.of(kind),
                units: f.units(),
                due,
            });
            if f.of(kind) == 0 {
                return out;
            }
            if attacker {
                s.take_unit(site, p, kind, au);
            } else {
                s.lose_target_unit(map, site, target, kind, tu, &mut vec![]);
            }
            if let Site::Region(r) = site {
                s.sink(map, r, &mut vec![]);
            }
        }
    }

    /// `x`'s standing order to withdraw, when due now (`x`'s units here at or below its count):
    /// whether it takes effect (the way out is open), as `withdraw::retreat_due` decides.
    fn order_due(&self, map: &EconomyMap, site: Site, x: PlayerId) -> Option<bool> {
        let b = self.combat.as_ref()?.battle.as_ref()?;
        let rt = b.retreats.get(&x)?;
        if self.site_force(site, Foe::Player(x)).units() > rt.at {
            return None;
        }
        let open = self
            .withdraw_options(map, site, x)
            .iter()
            .any(|&(r, _)| r == rt.to);
        Some(open && !(rt.stay && b.stayed.contains(&x)))
    }

    /// The odds of `p`'s withdraw or landing at `site` if every one of `interceptors` intercepts
    /// it (in this order, as the engine rolls them). `None` for [`Exact`] when too many rolls.
    pub fn escape_odds<W: Chance>(
        &self,
        site: Site,
        p: PlayerId,
        what: Getaway,
        interceptors: &[PlayerId],
    ) -> Option<EscapeOdds<W>> {
        let region = match site {
            Site::Region(r) => Some(r),
            Site::Border(..) => None,
        };
        let start = self.site_force(site, Foe::Player(p));
        // Each rolling unit: its kind, whether it rolls as a defender in fortifications, and
        // (the interceptors') kind it meets.
        let mut units: Vec<(Kind, bool)> = vec![];
        let (stay, break_off, can_lose, engaged) = match what {
            Getaway::Withdraw(w) => {
                let mut c = self.clone();
                for kind in [Kind::Army, Kind::Navy] {
                    for _ in 0..w.force.of(kind) {
                        let (unit, defender) = c.withdrawing_unit(site, p, kind, w.to, &[]);
                        let fortified =
                            defender && region.is_some_and(|r| self.fortified_for(p, r));
                        units.push((kind, fortified));
                        c.take_unit(site, p, kind, unit);
                    }
                }
                (w.stay, w.break_off, true, false)
            }
            Getaway::Land {
                armies,
                navies_engaged,
            } => {
                units = vec![(Kind::Navy, false); armies as usize];
                (false, None, navies_engaged, navies_engaged)
            }
        };
        let landing = matches!(what, Getaway::Land { .. });
        let rolls = (units.len() * interceptors.len()) as u32;
        // Interceptors' sides by (interceptor, armies lost, navies lost), made when first met.
        // (its army side, its navy side, its armies, its navies) there.
        type Met = (Side, Side, u32, u32);
        let mut sides: BTreeMap<(usize, u32, u32), Met> = BTreeMap::new();
        let mut side_of = |qi: usize, lost: (u32, u32)| {
            *sides.entry((qi, lost.0, lost.1)).or_insert_with(|| {
                let q = interceptors[qi];
                let mut c = self.clone();
                for (kind, n) in [(Kind::Army, lost.0), (Kind::Navy, lost.1)] {
                    for _ in 0..n {
                        let (u, _) = c.pick_attacker(site, q, kind);
                        c.take_unit(site, q, kind, u);
                    }
                }
                let f = c.site_force(site, Foe::Player(q));
                let army = c.interceptor_side(site, q, Kind::Army, false).1;
                let navy = c.interceptor_side(site, q, Kind::Navy, false).1;
                (army, navy, f.armies, f.navies)
            })
        };
        // (lost, navies lost, processed units gone, each interceptor's (armies, navies) lost).
        type Key = (u32, u32, Vec<(u32, u32)>);
        let mut now: BTreeMap<Key, W> = BTreeMap::new();
        now.insert((0, 0, vec![(0, 0); interceptors.len()]), W::certain(rolls)?);
        for (k, &(kind, fortified)) in units.iter().enumerate() {
            let mut next: BTreeMap<Key, W> = BTreeMap::new();
            let mut put = |key: Key, w: W| next.entry(key).or_insert_with(W::zero).add(&w);
            for ((lost, navies_lost, js), w) in now {
                if break_off.is_some_and(|n| lost >= n) {
                    put((lost, navies_lost, js), w);
                    continue;
                }
                let gone = if landing {
                    k as u32 + navies_lost
                } else if stay {
                    lost
                } else {
                    k as u32
                };
                let me = Side {
                    defender: fortified,
                    fortified,
                    ..Side::plain(0, start.units() - gone)
                };
                let mut alive = vec![(js, w)];
                let mut dead: Vec<(Vec<(u32, u32)>, W)> = vec![];
                for qi in 0..interceptors.len() {
                    let mut on = vec![];
                    for (js, w) in alive {
                        let (army, navy, armies, navies) = side_of(qi, js[qi]);
                        let (them, left) = match kind {
                            Kind::Army => (army, armies),
                            Kind::Navy => (navy, navies),
                        };
                        if left == 0 {
                            on.push((js, w));
                            continue;
                        }
                        let [first, second, both] = roll_counts(&me, &them);
                        let mut hit = js.clone();
                        if can_lose {
                            match kind {
                                Kind::Army => hit[qi].0 += 1,
                                Kind::Navy => hit[qi].1 += 1,
                            }
                        }
                        dead.push((js, w.of36(first)));
                        dead.push((hit.clone(), w.of36(both)));
                        on.push((hit, w.of36(second)));
                    }
                    alive = on;
                }
                for (js, w) in alive {
                    put((lost, navies_lost, js), w);
                }
                for (js, w) in dead {
                    let navy = engaged && start.navies > navies_lost;
                    put((lost + 1, navies_lost + u32::from(navy), js), w);
                }
            }
            now = next;
        }
        let mut ends: BTreeMap<(u32, u32), W> = BTreeMap::new();
        for ((lost, navies_lost, js), w) in now {
            let theirs = js.iter().map(|&(a, n)| a + n).sum();
            ends.entry((lost + navies_lost, theirs))
                .or_insert_with(W::zero)
                .add(&w);
        }
        let ends = ends
            .into_iter()
            .filter(|(_, w)| *w != W::zero())
            .map(|((lost, interceptors_lost), chance)| Escape {
                lost,
                interceptors_lost,
                chance,
            })
            .collect();
        Some(EscapeOdds {
            units: units.len() as u32,
            ends,
        })
    }
}

#[cfg(test)]
mod tests;
