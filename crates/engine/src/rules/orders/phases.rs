//! The three phase resolvers, pure functions of a map, units and orders: movement (with the
//! house options), retreats and adjustments, with their reports. `orbis adjudicate` and the DATC
//! tests call them; [`OrdersState`] strings them into a game.

use super::*;

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

pub(super) fn sort_units(units: &mut [Piece]) {
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

pub(super) fn fix_destination(map: &OrdersMap, unit: &Piece, to: Loc) -> Loc {
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
pub(super) fn match_orders<'a>(
    units: &[Piece],
    orders: &'a [(PowerId, Written)],
) -> Vec<Option<&'a Written>> {
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
pub(super) struct FacingGeo<'a> {
    map: &'a OrdersMap,
    /// Province of a facing fleet → the sea it faces.
    facing: BTreeMap<ProvinceId, ProvinceId>,
}

impl<'a> FacingGeo<'a> {
    /// The map as the units on it see it: with the house option, each fleet on a coast along
    /// the sea it faces; without it, the plain map.
    pub(super) fn of(map: &'a OrdersMap, units: &[Piece], fleet_facing: bool) -> FacingGeo<'a> {
        let facing = units
            .iter()
            .filter(|u| fleet_facing && u.kind == UnitType::Fleet)
            .filter_map(|u| u.facing.map(|s| (u.loc.province, s)))
            .collect();
        FacingGeo { map, facing }
    }

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
    let geo = FacingGeo::of(map, units, fleet_facing);
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
pub(super) fn distance(map: &OrdersMap, from: ProvinceId, targets: &BTreeSet<ProvinceId>) -> u32 {
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
