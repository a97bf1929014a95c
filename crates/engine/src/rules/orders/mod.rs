//! The orders ruleset: Diplomacy-style simultaneous orders. Every power writes its orders in
//! secret, all are revealed at once and resolved by one deterministic adjudicator.
//!
//! * [`map`] — province maps (land, sea, coasts, supply centres, home centres, starting units).
//! * [`adjudicator`] — the map-independent movement resolver.
//! * [`notation`] — standard order notation.
//!
//! The phase functions ([`movement`], [`retreats`], [`adjustments`]) are pure and are what the
//! `orbis adjudicate` command and the DATC tests call; [`OrdersState`] strings them into a game
//! (Spring and Fall movement, retreats, centre ownership after Fall, adjustments, victory and
//! draws) with the same clone-and-commit `apply` as the classic ruleset.

pub mod adjudicator;
pub mod map;
mod map_file;
pub mod notation;
pub mod view;

use adjudicator::{Geography, Loc, Order, Outcome, Piece, UnitType};
use map::{OrdersMap, PowerId, ProvinceId, ProvinceKind};
use notation::{Spec, Written};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// A dislodged unit waiting to retreat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dislodged {
    pub piece: Piece,
    /// Where the attacker came from, unless it came by convoy (then any empty neighbour is open).
    pub attacker_from: Option<ProvinceId>,
}

/// The result of one order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderResult {
    pub power: PowerId,
    /// The order as it was read (or the default: hold, disband, civil-disorder disband).
    pub order: Written,
    pub outcome: Outcome,
}

/// What a movement phase did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MovementReport {
    /// One result per unit, in the order of the input units.
    pub results: Vec<OrderResult>,
    /// Units on the board afterwards (dislodged units excluded), sorted by province.
    pub units: Vec<Piece>,
    pub dislodged: Vec<Dislodged>,
    /// Provinces left empty by a stand-off.
    pub contested: Vec<ProvinceId>,
    /// Where each input unit stands afterwards (`None`: dislodged; a unit that combined stands
    /// with the unit it merged into, which is the one listed in `units`).
    pub positions: Vec<Option<Loc>>,
}

/// What a retreat or adjustment phase did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseReport {
    pub results: Vec<OrderResult>,
    /// Units on the board afterwards, sorted by province.
    pub units: Vec<Piece>,
}

fn sort_units(units: &mut [Piece]) {
    units.sort_by_key(|u| (u.loc.province, u.loc.coast, u.power));
}

/// Turns a written order into an adjudicator order for `unit`, applying the DATC's preferred
/// readings: an army's coast is ignored; a fleet moving to a two-coast province without a coast
/// goes to the only coast it can reach (and fails when it could reach both or none).
pub fn to_order(map: &OrdersMap, unit: &Piece, w: &Written) -> Option<Order> {
    match w.spec {
        Spec::Hold => Some(Order::Hold),
        Spec::Move { to, via_convoy } => Some(Order::Move {
            to: fix_destination(map, unit, to),
            via_convoy,
        }),
        Spec::SupportHold { target, .. } => Some(Order::SupportHold {
            target: target.province,
        }),
        Spec::SupportMove { from, to, .. } => Some(Order::SupportMove {
            from: from.province,
            to: to.province,
            coast: to.coast,
        }),
        Spec::Convoy { from, to } => Some(Order::Convoy {
            from: from.province,
            to: to.province,
        }),
        Spec::Combine { into } => Some(Order::Combine {
            into: into.province,
        }),
        Spec::Retreat { .. } | Spec::Disband | Spec::Build | Spec::BuildFacing { .. } => None,
    }
}

fn fix_destination(map: &OrdersMap, unit: &Piece, to: Loc) -> Loc {
    match unit.kind {
        UnitType::Army => Loc::new(to.province),
        UnitType::Fleet if to.coast.is_none() => {
            let options: Vec<Loc> = facing_targets(map, unit.loc, unit.facing)
                .into_iter()
                .filter(|l| l.province == to.province)
                .collect();
            match options.as_slice() {
                [only] => *only,
                _ => to,
            }
        }
        UnitType::Fleet => to,
    }
}

/// Finds the order for each unit: the first written order naming the unit's province (coasts
/// and unit type as written are not needed to match; a wrong unit type makes the order void).
fn match_orders<'a>(units: &[Piece], orders: &'a [(PowerId, Written)]) -> Vec<Option<&'a Written>> {
    units
        .iter()
        .map(|u| {
            orders
                .iter()
                .find(|(p, w)| *p == u.power && w.at.province == u.loc.province)
                .map(|(_, w)| w)
        })
        .collect()
}

/// Adjudicates a movement phase under the standard rules. `orders` are (power, order) pairs;
/// orders naming no unit of that power are ignored, units without orders hold.
pub fn movement(map: &OrdersMap, units: &[Piece], orders: &[(PowerId, Written)]) -> MovementReport {
    movement_with(map, units, orders, false)
}

/// [`movement`], with the house option "combine" allowed or not (when not, combine orders are
/// void).
pub fn movement_with(
    map: &OrdersMap,
    units: &[Piece],
    orders: &[(PowerId, Written)],
    combine: bool,
) -> MovementReport {
    movement_house(map, units, orders, combine, false)
}

/// The map as fleets that face a sea see it (house option "fleets face a sea"): a fleet on a
/// coast facing sea S reaches only S and the places on S (coasts on it, seas next to it), for
/// moves, supports and combines alike. Units without a facing see the plain map.
struct FacingGeo<'a> {
    map: &'a OrdersMap,
    /// Province of a facing fleet → the sea it faces.
    facing: BTreeMap<ProvinceId, ProvinceId>,
}

impl FacingGeo<'_> {
    fn allowed(&self, from: Loc, to: Loc) -> bool {
        self.facing
            .get(&from.province)
            .is_none_or(|&s| self.map.on_sea(s, to))
    }
}

impl Geography for FacingGeo<'_> {
    fn can_move(&self, kind: UnitType, from: Loc, to: Loc) -> bool {
        self.map.can_move(kind, from, to) && (kind == UnitType::Army || self.allowed(from, to))
    }

    fn can_reach(&self, kind: UnitType, from: Loc, to: ProvinceId) -> bool {
        match kind {
            UnitType::Army => self.map.can_reach(kind, from, to),
            UnitType::Fleet => self
                .map
                .fleet_targets(from)
                .iter()
                .any(|l| l.province == to && self.allowed(from, *l)),
        }
    }

    fn is_sea(&self, p: ProvinceId) -> bool {
        self.map.is_sea(p)
    }

    fn is_land(&self, p: ProvinceId) -> bool {
        self.map.is_land(p)
    }

    fn is_coastal(&self, p: ProvinceId) -> bool {
        self.map.is_coastal(p)
    }

    fn touches(&self, a: ProvinceId, b: ProvinceId) -> bool {
        self.map.touches(a, b)
    }

    /// Two fleets facing the same sea are neighbours through it (source 000's example
    /// `Fleet Stevastopol => combine => Fleet Ankara`: "Ankara - black sea will have 1 fleet").
    fn can_combine(&self, kind: UnitType, from: Loc, into: ProvinceId) -> bool {
        self.can_reach(kind, from, into)
            || (kind == UnitType::Fleet
                && self
                    .facing
                    .get(&from.province)
                    .is_some_and(|s| self.facing.get(&into) == Some(s)))
    }
}

/// Where a fleet may go from `at` under its facing (all its neighbours without one).
pub fn facing_targets(map: &OrdersMap, at: Loc, facing: Option<ProvinceId>) -> Vec<Loc> {
    map.fleet_targets(at)
        .iter()
        .copied()
        .filter(|&l| facing.is_none_or(|s| map.on_sea(s, l)))
        .collect()
}

/// [`movement_with`], and with the house option "fleets face a sea": fleets on a coast move,
/// support and combine only along the sea they face (see [`Piece::facing`]), and a fleet that
/// arrives on a coast faces the sea it came from or sailed along.
pub fn movement_house(
    map: &OrdersMap,
    units: &[Piece],
    orders: &[(PowerId, Written)],
    combine: bool,
    fleet_facing: bool,
) -> MovementReport {
    let house = House {
        combine,
        fleet_facing,
        source_convoys: false,
    };
    movement_rules(map, units, orders, house)
}

/// The house options that change a movement phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct House {
    /// Combine orders are allowed (the option, in a Fall).
    pub combine: bool,
    /// Fleets face a sea.
    pub fleet_facing: bool,
    /// Convoys as source 000 writes them: a convoying fleet attacked by another power holds
    /// (the convoy is aborted), and an army moving by convoy has strength 2.
    pub source_convoys: bool,
}

/// A movement phase under any house options.
pub fn movement_rules(
    map: &OrdersMap,
    units: &[Piece],
    orders: &[(PowerId, Written)],
    house: House,
) -> MovementReport {
    let House {
        combine,
        fleet_facing,
        source_convoys,
    } = house;
    let matched = match_orders(units, orders);
    let mut adj_orders = Vec::with_capacity(units.len());
    let mut pre_void = vec![false; units.len()];
    for (i, u) in units.iter().enumerate() {
        let o = match matched[i] {
            None => Order::Hold,
            Some(w) if w.kind != u.kind || (!combine && matches!(w.spec, Spec::Combine { .. })) => {
                pre_void[i] = true;
                Order::Hold
            }
            Some(w) => match to_order(map, u, w) {
                Some(o) => o,
                None => {
                    pre_void[i] = true;
                    Order::Hold
                }
            },
        };
        adj_orders.push(o);
    }
    let facing = units
        .iter()
        .filter(|u| fleet_facing && u.kind == UnitType::Fleet)
        .filter_map(|u| u.facing.map(|s| (u.loc.province, s)))
        .collect();
    let geo = FacingGeo { map, facing };
    // Source 000: "Convoy is aborted if one of the convoy fleet is attacked", and the fleet then
    // holds. Only fleets reach a convoying fleet at sea, so who attacks it is known from the
    // orders alone (no paradox): a legal move there by a unit of another power.
    let mut aborted = vec![false; units.len()];
    if source_convoys {
        for (f, u) in units.iter().enumerate() {
            if !matches!(adj_orders[f], Order::Convoy { .. }) {
                continue;
            }
            aborted[f] = units.iter().zip(&adj_orders).any(|(a, o)| {
                matches!(*o, Order::Move { to, .. }
                    if to.province == u.loc.province
                        && a.power != u.power
                        && geo.can_move(a.kind, a.loc, to))
            });
            if aborted[f] {
                adj_orders[f] = Order::Hold;
            }
        }
    }
    let bonus = u32::from(source_convoys);
    let res = adjudicator::adjudicate_with(&geo, units, &adj_orders, bonus);
    let mut results = Vec::with_capacity(units.len());
    let mut after = Vec::new();
    let mut dislodged = Vec::new();
    let mut positions = Vec::with_capacity(units.len());
    for (i, u) in units.iter().enumerate() {
        let outcome = if pre_void[i] && res.dislodged_by[i].is_none() {
            Outcome::Void
        } else if aborted[i] && res.dislodged_by[i].is_none() {
            Outcome::Cut
        } else {
            res.outcomes[i]
        };
        results.push(OrderResult {
            power: u.power,
            order: matched[i].copied().unwrap_or(Written {
                kind: u.kind,
                at: u.loc,
                spec: Spec::Hold,
            }),
            outcome,
        });
        if let Some((from, convoyed)) = res.dislodged_by[i] {
            dislodged.push(Dislodged {
                piece: *u,
                attacker_from: (!convoyed).then_some(from),
            });
            positions.push(None);
        } else if let Some(into) = res.combined_into[i] {
            // Merged: it now stands with (and as part of) the unit it combined into.
            let j = units
                .iter()
                .position(|x| x.loc.province == into)
                .expect("the combined unit is on the board");
            positions.push(Some(units[j].loc));
        } else {
            let mut p = *u;
            if let Some(to) = res.moved_to[i] {
                p.loc = to;
                if fleet_facing && u.kind == UnitType::Fleet {
                    p.facing = map.arrival_facing(u.loc, u.facing, to);
                }
            }
            if res.moved_to[i].is_none() && res.combined_into.contains(&Some(u.loc.province)) {
                p.strength = 2;
            }
            positions.push(Some(p.loc));
            after.push(p);
        }
    }
    sort_units(&mut after);
    MovementReport {
        results,
        units: after,
        dislodged,
        contested: res.contested,
        positions,
    }
}

/// Where a dislodged unit may retreat: an adjacent province it could move to, not occupied, not
/// where the attacker came from (unless it came by convoy), not left empty by a stand-off, and
/// not `closed` for its power (house options). A fleet facing a sea (house option) retreats
/// only to a coast on that sea.
pub fn retreat_options(
    map: &OrdersMap,
    d: &Dislodged,
    units: &[Piece],
    contested: &[ProvinceId],
    closed: &dyn Fn(PowerId, ProvinceId) -> bool,
) -> Vec<Loc> {
    let candidates: Vec<Loc> = match d.piece.kind {
        UnitType::Army => map.provinces[d.piece.loc.province as usize]
            .army
            .iter()
            .map(|&p| Loc::new(p))
            .collect(),
        UnitType::Fleet => match d.piece.facing {
            None => map.fleet_targets(d.piece.loc).to_vec(),
            Some(s) => facing_targets(map, d.piece.loc, Some(s))
                .into_iter()
                .filter(|l| l.province != s && !map.is_sea(l.province))
                .collect(),
        },
    };
    candidates
        .into_iter()
        .filter(|l| {
            Some(l.province) != d.attacker_from
                && !contested.contains(&l.province)
                && !units.iter().any(|u| u.loc.province == l.province)
                && !closed(d.piece.power, l.province)
        })
        .collect()
}

/// Resolves a retreat phase: units are the units on the board, `dislodged` those to retreat.
/// A retreat that is illegal, or that meets another retreat to the same province, disbands;
/// a dislodged unit without an order disbands.
pub fn retreats(
    map: &OrdersMap,
    units: &[Piece],
    dislodged: &[Dislodged],
    contested: &[ProvinceId],
    orders: &[(PowerId, Written)],
) -> PhaseReport {
    retreats_with(map, units, dislodged, contested, &|_, _| false, orders)
}

/// [`retreats`] with provinces closed per power (the house option against retreating into
/// foreign territory).
pub fn retreats_with(
    map: &OrdersMap,
    units: &[Piece],
    dislodged: &[Dislodged],
    contested: &[ProvinceId],
    closed: &dyn Fn(PowerId, ProvinceId) -> bool,
    orders: &[(PowerId, Written)],
) -> PhaseReport {
    retreats_house(map, units, dislodged, contested, closed, false, orders)
}

/// [`retreats_with`], and with the house option "fleets face a sea" (`fleet_facing`): a
/// retreating fleet keeps facing the sea it retreated along, or faces the sea it left.
pub fn retreats_house(
    map: &OrdersMap,
    units: &[Piece],
    dislodged: &[Dislodged],
    contested: &[ProvinceId],
    closed: &dyn Fn(PowerId, ProvinceId) -> bool,
    fleet_facing: bool,
    orders: &[(PowerId, Written)],
) -> PhaseReport {
    let mut targets: Vec<Option<Loc>> = vec![];
    let mut results = vec![];
    for d in dislodged {
        let w = orders
            .iter()
            .find(|(p, w)| *p == d.piece.power && w.at.province == d.piece.loc.province)
            .map(|(_, w)| *w);
        let disband = Written {
            kind: d.piece.kind,
            at: d.piece.loc,
            spec: Spec::Disband,
        };
        let (order, target, outcome) = match w {
            None => (disband, None, Outcome::Ok),
            Some(w) if w.kind != d.piece.kind => (w, None, Outcome::Void),
            Some(w) => match w.spec {
                Spec::Disband => (w, None, Outcome::Ok),
                Spec::Retreat { to }
                | Spec::Move {
                    to,
                    via_convoy: false,
                } => {
                    let to = fix_destination(map, &d.piece, to);
                    if retreat_options(map, d, units, contested, closed).contains(&to) {
                        (w, Some(to), Outcome::Ok)
                    } else {
                        (w, None, Outcome::Void)
                    }
                }
                _ => (w, None, Outcome::Void),
            },
        };
        targets.push(target);
        results.push(OrderResult {
            power: d.piece.power,
            order,
            outcome,
        });
    }
    let mut after = units.to_vec();
    for (i, d) in dislodged.iter().enumerate() {
        let Some(t) = targets[i] else { continue };
        let clash = targets
            .iter()
            .enumerate()
            .any(|(j, o)| j != i && o.is_some_and(|o| o.province == t.province));
        if clash {
            results[i].outcome = Outcome::Bounce;
        } else {
            let facing = (fleet_facing && d.piece.kind == UnitType::Fleet)
                .then(|| map.arrival_facing(d.piece.loc, d.piece.facing, t))
                .flatten();
            after.push(Piece {
                loc: t,
                facing,
                ..d.piece
            });
        }
    }
    sort_units(&mut after);
    PhaseReport {
        results,
        units: after,
    }
}

/// Supply-centre owners: province → power.
pub type Centres = BTreeMap<ProvinceId, PowerId>;

/// Number of moves needed to reach one of `targets`, counting every border (land or sea) as one
/// move for armies and fleets alike, as the DATC civil-disorder cases require.
fn distance(map: &OrdersMap, from: ProvinceId, targets: &BTreeSet<ProvinceId>) -> u32 {
    if targets.is_empty() {
        return u32::MAX;
    }
    let mut seen: BTreeSet<ProvinceId> = BTreeSet::new();
    let mut frontier = vec![from];
    seen.insert(from);
    let mut d = 0;
    while !frontier.is_empty() {
        if frontier.iter().any(|p| targets.contains(p)) {
            return d;
        }
        let mut next = vec![];
        for p in frontier {
            let mut step: Vec<ProvinceId> = map.provinces[p as usize].army.clone();
            for fl in map.fleet_locs(p) {
                step.extend(map.fleet_targets(fl).iter().map(|t| t.province));
            }
            for s in step {
                if seen.insert(s) {
                    next.push(s);
                }
            }
        }
        frontier = next;
        d += 1;
    }
    u32::MAX
}

/// Resolves an adjustment phase: builds in unoccupied owned home centres up to the number of
/// centres, disbands down to it; a power that disbands too few loses the units farthest from its
/// owned home centres (fleets before armies at equal distance, then by province name).
pub fn adjustments(
    map: &OrdersMap,
    units: &[Piece],
    centres: &Centres,
    orders: &[(PowerId, Written)],
) -> PhaseReport {
    adjustments_house(map, units, centres, false, orders)
}

/// The facing a build gives its unit (`Some(None)`: no facing), or `None` when the build is
/// void for want of a valid facing. With the house option "fleets face a sea", a fleet built on
/// a coast faces the sea written (`F BRE B FACING MAO`); without one written, the only sea there
/// is, and the build is void when there are several to choose from. Without the option a
/// written facing makes the build void.
pub fn build_facing(
    map: &OrdersMap,
    w: &Written,
    fleet_facing: bool,
) -> Option<Option<ProvinceId>> {
    let fleet = w.kind == UnitType::Fleet;
    match w.spec {
        Spec::Build if fleet_facing && fleet => match map.seas_of(w.at).as_slice() {
            [] => Some(None),
            [only] => Some(Some(*only)),
            _ => None,
        },
        Spec::Build => Some(None),
        Spec::BuildFacing { sea } => {
            (fleet_facing && fleet && map.seas_of(w.at).contains(&sea)).then_some(Some(sea))
        }
        _ => None,
    }
}

/// [`adjustments`], with the house option "fleets face a sea" (`fleet_facing`): see
/// [`build_facing`].
pub fn adjustments_house(
    map: &OrdersMap,
    units: &[Piece],
    centres: &Centres,
    fleet_facing: bool,
    orders: &[(PowerId, Written)],
) -> PhaseReport {
    let mut after: Vec<Piece> = units.to_vec();
    let mut results = vec![];
    for power in 0..map.powers.len() as PowerId {
        let owned = centres.values().filter(|&&p| p == power).count() as i64;
        let have = units.iter().filter(|u| u.power == power).count() as i64;
        let mine = orders.iter().filter(|(p, _)| *p == power).map(|(_, w)| *w);
        let mut push = |order: Written, outcome| {
            results.push(OrderResult {
                power,
                order,
                outcome,
            })
        };
        if owned > have {
            let mut left = owned - have;
            for w in mine {
                let p = w.at.province;
                let prov = &map.provinces[p as usize];
                let facing = build_facing(map, &w, fleet_facing);
                let ok = left > 0
                    && facing.is_some()
                    && prov.home == Some(power)
                    && centres.get(&p) == Some(&power)
                    && !after.iter().any(|u| u.loc.province == p)
                    && map.can_stand(w.kind, w.at)
                    && !(w.kind == UnitType::Fleet && prov.kind != ProvinceKind::Coast);
                if ok {
                    left -= 1;
                    after.push(Piece {
                        facing: facing.flatten(),
                        ..Piece::new(power, w.kind, w.at)
                    });
                    push(w, Outcome::Ok);
                } else {
                    push(w, Outcome::Void);
                }
            }
        } else if owned < have {
            let mut left = have - owned;
            for w in mine {
                let pos = after.iter().position(|u| {
                    u.power == power && u.loc.province == w.at.province && u.kind == w.kind
                });
                match pos {
                    Some(i) if left > 0 && w.spec == Spec::Disband => {
                        after.remove(i);
                        left -= 1;
                        push(w, Outcome::Ok);
                    }
                    _ => push(w, Outcome::Void),
                }
            }
            if left > 0 {
                let homes: BTreeSet<ProvinceId> = map
                    .homes(power)
                    .filter(|h| centres.get(h) == Some(&power))
                    .collect();
                let targets = if homes.is_empty() {
                    centres
                        .iter()
                        .filter(|(_, &p)| p == power)
                        .map(|(&c, _)| c)
                        .collect()
                } else {
                    homes
                };
                let mut mine: Vec<(u32, UnitType, String, Piece)> = after
                    .iter()
                    .filter(|u| u.power == power)
                    .map(|u| {
                        (
                            distance(map, u.loc.province, &targets),
                            u.kind,
                            map.provinces[u.loc.province as usize].name.clone(),
                            *u,
                        )
                    })
                    .collect();
                // Farthest first; fleets before armies; then alphabetical.
                mine.sort_by(|a, b| {
                    b.0.cmp(&a.0)
                        .then_with(|| (b.1 == UnitType::Fleet).cmp(&(a.1 == UnitType::Fleet)))
                        .then_with(|| a.2.cmp(&b.2))
                });
                for (_, _, _, u) in mine.into_iter().take(left as usize) {
                    after.retain(|x| *x != u);
                    push(
                        Written {
                            kind: u.kind,
                            at: u.loc,
                            spec: Spec::Disband,
                        },
                        Outcome::Ok,
                    );
                }
            }
        } else {
            for w in mine {
                push(w, Outcome::Void);
            }
        }
    }
    sort_units(&mut after);
    PhaseReport {
        results,
        units: after,
    }
}

/// Season of a game year.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Season {
    Spring,
    Fall,
}

/// What is being ordered now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Movement,
    Retreat,
    Adjustment,
    /// The game ended: a winner, or a draw (`None`).
    GameOver {
        winner: Option<PowerId>,
    },
}

/// House options from the rules source; all off by default (standard rules).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrdersOptions {
    /// A dislodged unit may not retreat into another power's home centre or owned centre.
    pub no_retreat_into_foreign_territory: bool,
    /// In Fall, two adjacent units of one power and kind may combine into one unit of strength 2
    /// (`A WAR COMBINE A LVN`: the army in Livonia becomes the combined unit). While combining
    /// they defend together with strength 2, cannot be supported, and an attack stronger than 2
    /// dislodges one and cancels the combine.
    pub combine: bool,
    /// Fleets on a coast face one sea (the source's "fleet Tunisia - Ionian sea"): they move,
    /// support and combine only along that sea, retreat only to coasts on it, and a fleet built
    /// on a coast names its sea (`F BRE B FACING MAO`). Starting fleets face the first sea they
    /// border in map order. Two fleets facing the same sea may combine (the source's
    /// `Fleet Stevastopol => combine => Fleet Ankara`).
    pub fleet_facing: bool,
    /// Convoys as source 000 writes them: a convoying fleet attacked by another power's unit
    /// holds and its convoy is aborted; an army moving by convoy has strength 2 ("will have a
    /// power of 2 (from the last convoy fleet)").
    pub source_convoys: bool,
}

/// Everything a player can do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OrdersAction {
    /// A power's orders for the current phase (replaces any earlier submission this phase).
    Submit {
        power: PowerId,
        orders: Vec<Written>,
    },
    /// Resolve the current phase with the orders submitted so far (missing orders: units hold,
    /// dislodged units disband, builds are waived, missing disbands follow civil disorder).
    Adjudicate,
    /// A power accepts (or withdraws acceptance of) a draw; when every surviving power accepts,
    /// the game ends drawn.
    Draw { power: PowerId, accept: bool },
}

/// What happened, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OrdersEvent {
    Submitted {
        power: PowerId,
    },
    Resolved {
        year: u16,
        season: Season,
        phase: Phase,
        results: Vec<OrderResult>,
    },
    CentreTaken {
        province: ProvinceId,
        from: Option<PowerId>,
        to: PowerId,
    },
    Eliminated {
        power: PowerId,
    },
    PhaseStarted {
        year: u16,
        season: Season,
        phase: Phase,
    },
    DrawVote {
        power: PowerId,
        accept: bool,
    },
    Won {
        power: PowerId,
    },
    Drawn,
}

/// An illegal action, with a message a player understands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OrdersError {
    GameOver,
    UnknownPower(PowerId),
    /// The power has been eliminated.
    Out(String),
    /// The order does not belong in this phase.
    WrongPhase {
        order: String,
        phase: String,
    },
    NoUnit {
        order: String,
    },
    NotYours {
        order: String,
    },
    TwoOrders {
        unit: String,
    },
    UnknownMap(String),
    PlayerCount(u8),
    /// Combining is a house option, and only in Fall.
    NoCombine {
        order: String,
    },
    /// A build that names a facing without the house option, or names a sea the coast does not
    /// border, or a fleet build that must name one of several seas (`seas`: the choices).
    Facing {
        order: String,
        seas: String,
    },
}

impl fmt::Display for OrdersError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use OrdersError::*;
        match self {
            GameOver => write!(f, "The game is over."),
            UnknownPower(p) => write!(f, "There is no power number {p} in this game."),
            Out(p) => write!(f, "{p} has been eliminated and gives no more orders."),
            WrongPhase { order, phase } => write!(f, "`{order}` is not an order for the {phase}."),
            NoUnit { order } => write!(f, "`{order}`: there is no such unit to order."),
            NotYours { order } => write!(f, "`{order}`: that unit belongs to another power."),
            TwoOrders { unit } => write!(f, "{unit} has been given two orders."),
            UnknownMap(m) => write!(f, "There is no map called `{m}` for this ruleset."),
            PlayerCount(n) => write!(f, "This map has no setup for {n} players."),
            NoCombine { order } => write!(
                f,
                "`{order}`: units can only combine in Fall, and only when the \"combine\" house option is on."
            ),
            Facing { order, seas } if seas.is_empty() => write!(
                f,
                "`{order}`: only a fleet built on a coast faces a sea, and only when the \"fleets face a sea\" house option is on."
            ),
            Facing { order, seas } => write!(
                f,
                "`{order}`: say which sea the new fleet faces: {seas} (for example `F BRE B FACING MAO`)."
            ),
        }
    }
}

impl std::error::Error for OrdersError {}

/// The whole state of an orders game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrdersState {
    pub map_id: String,
    pub options: OrdersOptions,
    pub year: u16,
    pub season: Season,
    pub phase: Phase,
    /// Units on the board, sorted by province.
    pub units: Vec<Piece>,
    /// Units waiting to retreat (retreat phase only).
    pub dislodged: Vec<Dislodged>,
    /// Provinces left empty by a stand-off in the last movement phase.
    pub contested: Vec<ProvinceId>,
    pub centres: Centres,
    /// Orders submitted this phase, per power.
    pub orders: Vec<Option<Vec<Written>>>,
    pub draw: Vec<bool>,
    /// Under the house option "no retreat into foreign territory" only (else empty): who holds
    /// each province, centre or not. A power starts with its home territory and takes every
    /// province it occupies at the end of a Fall; retreats may not enter another power's.
    pub territory: BTreeMap<ProvinceId, PowerId>,
}

impl OrdersState {
    /// A new game on a built-in map (`"europe-1901"`, `"world"`) with all of its powers,
    /// Spring 1901, standard start.
    pub fn new(map_id: &str, options: OrdersOptions) -> Result<Self, OrdersError> {
        let map = OrdersMap::get(map_id).ok_or_else(|| OrdersError::UnknownMap(map_id.into()))?;
        Self::new_for(map_id, options, map.powers.len() as u8)
    }

    /// A new game for a number of players: the map's setup for that number says which powers
    /// play; the home centres of the others stay neutral.
    pub fn new_for(map_id: &str, options: OrdersOptions, players: u8) -> Result<Self, OrdersError> {
        let map = OrdersMap::get(map_id).ok_or_else(|| OrdersError::UnknownMap(map_id.into()))?;
        let playing = map
            .powers_for(players)
            .ok_or(OrdersError::PlayerCount(players))?;
        let mut units = vec![];
        let mut centres = Centres::new();
        let mut territory = BTreeMap::new();
        for &i in &playing {
            let p = &map.powers[i as usize];
            for &(kind, loc) in &p.start {
                let mut u = Piece::new(i, kind, loc);
                if options.fleet_facing && kind == UnitType::Fleet {
                    u.facing = map.default_facing(loc);
                }
                units.push(u);
            }
            for h in map.homes(i) {
                centres.insert(h, i);
            }
            if options.no_retreat_into_foreign_territory {
                territory.extend(map.home_territory(i).map(|h| (h, i)));
            }
        }
        sort_units(&mut units);
        Ok(OrdersState {
            map_id: map_id.into(),
            options,
            year: 1901,
            season: Season::Spring,
            phase: Phase::Movement,
            units,
            dislodged: vec![],
            contested: vec![],
            centres,
            orders: vec![None; map.powers.len()],
            draw: vec![false; map.powers.len()],
            territory,
        })
    }

    /// The game's map.
    pub fn map(&self) -> &'static OrdersMap {
        OrdersMap::get(&self.map_id).expect("the state was created on a built-in map")
    }

    /// Supply centres owned by a power.
    pub fn centre_count(&self, power: PowerId) -> usize {
        self.centres.values().filter(|&&p| p == power).count()
    }

    /// Whether a retreat of `power` may not enter `p` under the house option: it is another
    /// power's territory and that power still has units (source 000: "if Russian units are all
    /// completely destroyed, then that provinces are no longer occupied").
    pub fn closed_to_retreat(&self, power: PowerId, p: ProvinceId) -> bool {
        self.options.no_retreat_into_foreign_territory
            && self.territory.get(&p).is_some_and(|&o| {
                o != power
                    && (self.units.iter().any(|u| u.power == o)
                        || self.dislodged.iter().any(|d| d.piece.power == o))
            })
    }

    /// Where a dislodged unit of this retreat phase may go (before other retreats are known):
    /// empty, not the attacker's origin, not left empty by a stand-off, not closed by the house
    /// option.
    pub fn retreat_choices(&self, d: &Dislodged) -> Vec<Loc> {
        let closed = |power: PowerId, p: ProvinceId| self.closed_to_retreat(power, p);
        retreat_options(self.map(), d, &self.units, &self.contested, &closed)
    }

    /// The territory a game saved before it was tracked most likely has: with the house option,
    /// the home territory of every power still in the game, then every owned centre.
    pub fn legacy_territory(&self) -> BTreeMap<ProvinceId, PowerId> {
        let mut out = BTreeMap::new();
        if !self.options.no_retreat_into_foreign_territory {
            return out;
        }
        let Some(map) = OrdersMap::get(&self.map_id) else {
            return out; // a damaged save: `check_consistency` names the problem
        };
        for p in 0..map.powers.len() as PowerId {
            if self.alive(p) {
                out.extend(map.home_territory(p).map(|h| (h, p)));
            }
        }
        out.extend(self.centres.iter().map(|(&c, &p)| (c, p)));
        out
    }

    /// A power still has units or centres.
    pub fn alive(&self, power: PowerId) -> bool {
        self.centre_count(power) > 0 || self.units.iter().any(|u| u.power == power)
    }

    /// Builds (positive) or disbands (negative) a power is due in the adjustment phase; builds
    /// only as many as it has free owned home centres.
    pub fn adjustment(&self, power: PowerId) -> i32 {
        let map = self.map();
        let units = self.units.iter().filter(|u| u.power == power).count() as i32;
        let centres = self.centre_count(power) as i32;
        if centres >= units {
            let free = map
                .homes(power)
                .filter(|h| {
                    self.centres.get(h) == Some(&power)
                        && !self.units.iter().any(|u| u.loc.province == *h)
                })
                .count() as i32;
            (centres - units).min(free)
        } else {
            centres - units
        }
    }

    /// Powers that have something to order in the current phase and have not submitted yet
    /// (hot-seat: whose turn it is to write orders).
    pub fn waiting_for(&self) -> Vec<PowerId> {
        let n = self.map().powers.len() as PowerId;
        (0..n)
            .filter(|&p| self.orders[p as usize].is_none())
            .filter(|&p| match self.phase {
                Phase::Movement => self.units.iter().any(|u| u.power == p),
                Phase::Retreat => self.dislodged.iter().any(|d| d.piece.power == p),
                Phase::Adjustment => self.adjustment(p) != 0,
                Phase::GameOver { .. } => false,
            })
            .collect()
    }

    /// Applies an action; on error nothing changes.
    pub fn apply(&mut self, action: &OrdersAction) -> Result<Vec<OrdersEvent>, OrdersError> {
        let mut next = self.clone();
        let events = next.step(action)?;
        *self = next;
        Ok(events)
    }

    fn phase_name(&self) -> String {
        match self.phase {
            Phase::Movement => "movement phase".into(),
            Phase::Retreat => "retreat phase".into(),
            Phase::Adjustment => "adjustment phase".into(),
            Phase::GameOver { .. } => "end of the game".into(),
        }
    }

    fn step(&mut self, action: &OrdersAction) -> Result<Vec<OrdersEvent>, OrdersError> {
        if matches!(self.phase, Phase::GameOver { .. }) {
            return Err(OrdersError::GameOver);
        }
        let map = self.map();
        let mut ev = vec![];
        match action {
            OrdersAction::Submit { power, orders } => {
                let power = *power;
                if power as usize >= map.powers.len() {
                    return Err(OrdersError::UnknownPower(power));
                }
                if !self.alive(power) {
                    return Err(OrdersError::Out(map.powers[power as usize].name.clone()));
                }
                let mut seen = BTreeSet::new();
                for w in orders {
                    self.check_submission(map, power, w)?;
                    if !seen.insert(w.at.province) {
                        return Err(OrdersError::TwoOrders {
                            unit: notation::print_unit(map, w.kind, w.at),
                        });
                    }
                }
                self.orders[power as usize] = Some(orders.clone());
                ev.push(OrdersEvent::Submitted { power });
            }
            OrdersAction::Draw { power, accept } => {
                if *power as usize >= map.powers.len() {
                    return Err(OrdersError::UnknownPower(*power));
                }
                self.draw[*power as usize] = *accept;
                ev.push(OrdersEvent::DrawVote {
                    power: *power,
                    accept: *accept,
                });
                let all = (0..map.powers.len() as PowerId)
                    .filter(|&p| self.alive(p))
                    .all(|p| self.draw[p as usize]);
                if all {
                    self.phase = Phase::GameOver { winner: None };
                    ev.push(OrdersEvent::Drawn);
                }
            }
            OrdersAction::Adjudicate => self.adjudicate(map, &mut ev),
        }
        Ok(ev)
    }

    fn check_submission(
        &self,
        map: &OrdersMap,
        power: PowerId,
        w: &Written,
    ) -> Result<(), OrdersError> {
        let text = notation::print(map, w);
        let wrong = || OrdersError::WrongPhase {
            order: text.clone(),
            phase: self.phase_name(),
        };
        let owner_of = |list: Vec<Piece>| -> Result<(), OrdersError> {
            match list.into_iter().find(|u| u.loc.province == w.at.province) {
                None => Err(OrdersError::NoUnit {
                    order: text.clone(),
                }),
                Some(u) if u.power != power => Err(OrdersError::NotYours {
                    order: text.clone(),
                }),
                Some(_) => Ok(()),
            }
        };
        match (self.phase, w.spec) {
            (Phase::Movement, Spec::Combine { .. })
                if !self.options.combine || self.season != Season::Fall =>
            {
                Err(OrdersError::NoCombine {
                    order: text.clone(),
                })
            }
            (
                Phase::Movement,
                Spec::Retreat { .. } | Spec::Disband | Spec::Build | Spec::BuildFacing { .. },
            ) => Err(wrong()),
            (Phase::Movement, _) => owner_of(self.units.clone()),
            (Phase::Retreat, Spec::Retreat { .. } | Spec::Move { .. } | Spec::Disband) => {
                owner_of(self.dislodged.iter().map(|d| d.piece).collect())
            }
            (Phase::Retreat, _) => Err(wrong()),
            (Phase::Adjustment, Spec::Build | Spec::BuildFacing { .. }) => {
                let facing = self.options.fleet_facing;
                if build_facing(map, w, facing).is_some() {
                    return Ok(());
                }
                let seas = if facing && w.kind == UnitType::Fleet {
                    let seas: Vec<&str> = map.seas_of(w.at).iter().map(|&s| map.key(s)).collect();
                    seas.join(", ")
                } else {
                    String::new()
                };
                Err(OrdersError::Facing {
                    order: text.clone(),
                    seas,
                })
            }
            (Phase::Adjustment, Spec::Disband) => owner_of(self.units.clone()),
            (Phase::Adjustment, _) => Err(wrong()),
            (Phase::GameOver { .. }, _) => Err(OrdersError::GameOver),
        }
    }

    fn all_orders(&mut self) -> Vec<(PowerId, Written)> {
        let mut out = vec![];
        for (p, o) in self.orders.iter_mut().enumerate() {
            if let Some(list) = o.take() {
                out.extend(list.into_iter().map(|w| (p as PowerId, w)));
            }
        }
        out
    }

    fn adjudicate(&mut self, map: &OrdersMap, ev: &mut Vec<OrdersEvent>) {
        let orders = self.all_orders();
        let phase = self.phase;
        match phase {
            Phase::Movement => {
                let combine = self.options.combine && self.season == Season::Fall;
                let facing = self.options.fleet_facing;
                let house = House {
                    combine,
                    fleet_facing: facing,
                    source_convoys: self.options.source_convoys,
                };
                let r = movement_rules(map, &self.units, &orders, house);
                ev.push(OrdersEvent::Resolved {
                    year: self.year,
                    season: self.season,
                    phase,
                    results: r.results,
                });
                self.units = r.units;
                self.dislodged = r.dislodged;
                self.contested = r.contested;
                if self.dislodged.is_empty() {
                    self.after_movement(map, ev);
                } else {
                    self.start(Phase::Retreat, ev);
                }
            }
            Phase::Retreat => {
                // Resolved against the phase's own state (the house option counts the dislodged
                // units as their power's), then the retreat tables are cleared.
                let closed = |power: PowerId, p: ProvinceId| self.closed_to_retreat(power, p);
                let r = retreats_house(
                    map,
                    &self.units,
                    &self.dislodged,
                    &self.contested,
                    &closed,
                    self.options.fleet_facing,
                    &orders,
                );
                self.dislodged.clear();
                self.contested.clear();
                self.units = r.units;
                ev.push(OrdersEvent::Resolved {
                    year: self.year,
                    season: self.season,
                    phase,
                    results: r.results,
                });
                self.after_movement(map, ev);
            }
            Phase::Adjustment => {
                let facing = self.options.fleet_facing;
                let r = adjustments_house(map, &self.units, &self.centres, facing, &orders);
                self.units = r.units;
                ev.push(OrdersEvent::Resolved {
                    year: self.year,
                    season: self.season,
                    phase,
                    results: r.results,
                });
                self.year += 1;
                self.season = Season::Spring;
                self.start(Phase::Movement, ev);
            }
            Phase::GameOver { .. } => {}
        }
    }

    fn start(&mut self, phase: Phase, ev: &mut Vec<OrdersEvent>) {
        self.phase = phase;
        ev.push(OrdersEvent::PhaseStarted {
            year: self.year,
            season: self.season,
            phase,
        });
    }

    /// After the movement (and retreats, if any): Spring goes to Fall; Fall updates centres,
    /// checks victory and goes to adjustments when someone must build or disband.
    fn after_movement(&mut self, map: &OrdersMap, ev: &mut Vec<OrdersEvent>) {
        if self.season == Season::Spring {
            self.season = Season::Fall;
            self.start(Phase::Movement, ev);
            return;
        }
        let alive_before: Vec<bool> = (0..map.powers.len() as PowerId)
            .map(|p| self.alive(p))
            .collect();
        for u in &self.units {
            let p = u.loc.province;
            // Only land is territory: a fleet at sea holds nothing (and a save with a sea in
            // the territory table would be refused on load).
            if self.options.no_retreat_into_foreign_territory
                && map.provinces[p as usize].kind != ProvinceKind::Sea
            {
                self.territory.insert(p, u.power);
            }
            if map.provinces[p as usize].centre {
                let from = self.centres.get(&p).copied();
                if from != Some(u.power) {
                    self.centres.insert(p, u.power);
                    ev.push(OrdersEvent::CentreTaken {
                        province: p,
                        from,
                        to: u.power,
                    });
                }
            }
        }
        for (p, was) in alive_before.iter().enumerate() {
            if *was && !self.alive(p as PowerId) {
                ev.push(OrdersEvent::Eliminated {
                    power: p as PowerId,
                });
            }
        }
        if let Some(w) =
            (0..map.powers.len() as PowerId).find(|&p| self.centre_count(p) >= map.victory as usize)
        {
            self.phase = Phase::GameOver { winner: Some(w) };
            ev.push(OrdersEvent::Won { power: w });
            return;
        }
        let needs_adjustment = (0..map.powers.len() as PowerId).any(|p| self.adjustment(p) != 0);
        if needs_adjustment {
            self.start(Phase::Adjustment, ev);
        } else {
            self.year += 1;
            self.season = Season::Spring;
            self.start(Phase::Movement, ev);
        }
    }

    /// Drops seas from the territory table. Saves made before fleets at sea stopped taking
    /// territory hold such entries; they meant nothing (no army retreats to sea), so a save
    /// that has them loads without them.
    pub fn forget_sea_territory(&mut self) {
        if let Some(map) = OrdersMap::get(&self.map_id) {
            self.territory.retain(|&p, _| {
                map.provinces
                    .get(p as usize)
                    .is_none_or(|x| x.kind != ProvinceKind::Sea)
            });
        }
    }

    /// Checks the invariants of a state read from a save or a peer.
    pub fn check_consistency(&self) -> Result<(), String> {
        let map =
            OrdersMap::get(&self.map_id).ok_or_else(|| format!("unknown map `{}`", self.map_id))?;
        let n = map.powers.len();
        if self.orders.len() != n || self.draw.len() != n {
            return Err("power tables have the wrong length".into());
        }
        let mut seen = BTreeSet::new();
        for u in &self.units {
            if u.power as usize >= n
                || !map.can_stand(u.kind, u.loc)
                || !(1..=2).contains(&u.strength)
            {
                return Err(format!("unit at {} is invalid", map.loc_name(u.loc)));
            }
            if !seen.insert(u.loc.province) {
                return Err(format!("two units in {}", map.key(u.loc.province)));
            }
            if let Some(s) = u.facing {
                if u.kind != UnitType::Fleet
                    || !self.options.fleet_facing
                    || !map.seas_of(u.loc).contains(&s)
                {
                    return Err(format!(
                        "unit at {} faces a sea it cannot face",
                        map.loc_name(u.loc)
                    ));
                }
            }
        }
        for (&c, &p) in &self.centres {
            if (c as usize) >= map.len() || !map.provinces[c as usize].centre || p as usize >= n {
                return Err("bad supply centre entry".into());
            }
        }
        if !self.options.no_retreat_into_foreign_territory && !self.territory.is_empty() {
            return Err("territory is tracked without the house option".into());
        }
        for (&t, &p) in &self.territory {
            if (t as usize) >= map.len()
                || map.provinces[t as usize].kind == ProvinceKind::Sea
                || p as usize >= n
            {
                return Err("bad territory entry".into());
            }
        }
        Ok(())
    }
}
