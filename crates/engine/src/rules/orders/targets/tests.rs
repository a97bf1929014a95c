use super::super::notation;
use super::*;

fn europe() -> OrdersState {
    OrdersState::new("europe-1901", OrdersOptions::default()).unwrap()
}

fn p(s: &OrdersState, key: &str) -> ProvinceId {
    s.map().province(key).unwrap()
}

/// The targets of the unit at `at` as location names, sorted.
fn names(s: &OrdersState, at: &str, kind: OrderKind) -> Vec<String> {
    let mut v: Vec<String> = s
        .legal_targets(p(s, at), kind)
        .into_iter()
        .map(|l| s.map().loc_name(l))
        .collect();
    v.sort();
    v
}

fn unit(s: &OrdersState, power: &str, kind: UnitType, at: &str) -> Piece {
    let map = s.map();
    Piece::new(map.power(power).unwrap(), kind, map.parse_loc(at).unwrap())
}

/// Europe in Spring 1901 with England's fleet moved from London to the North Sea and its army
/// from Liverpool to Yorkshire (to be convoyed).
fn north_sea() -> OrdersState {
    let mut s = europe();
    let map = s.map();
    s.units
        .retain(|u| !matches!(map.key(u.loc.province), "LON" | "LVP"));
    let nth = unit(&s, "ENGLAND", UnitType::Fleet, "NTH");
    let yor = unit(&s, "ENGLAND", UnitType::Army, "YOR");
    s.units.extend([nth, yor]);
    sort_units(&mut s.units);
    s
}

#[test]
fn moves_of_fleets_armies_and_split_coasts_in_spring_1901() {
    let s = europe();
    assert_eq!(
        names(&s, "LON", OrderKind::Move),
        ["ENG", "NTH", "WAL", "YOR"]
    );
    assert_eq!(
        names(&s, "LVP", OrderKind::Move),
        ["CLY", "EDI", "WAL", "YOR"]
    );
    assert_eq!(
        names(&s, "EDI", OrderKind::Move),
        ["CLY", "NTH", "NWG", "YOR"]
    );
    assert_eq!(
        names(&s, "PAR", OrderKind::Move),
        ["BRE", "BUR", "GAS", "PIC"]
    );
    // A fleet on a split coast moves along that coast only.
    assert_eq!(names(&s, "STP", OrderKind::Move), ["BOT", "FIN", "LVN"]);
    // No unit, no targets.
    assert!(names(&s, "NTH", OrderKind::Move).is_empty());
}

#[test]
fn a_fleet_at_sea_reaches_each_coast_of_a_split_coast_province() {
    let mut s = europe();
    let map = s.map();
    s.units.retain(|u| map.key(u.loc.province) != "BRE");
    s.units.push(unit(&s, "FRANCE", UnitType::Fleet, "MAO"));
    sort_units(&mut s.units);
    let t = names(&s, "MAO", OrderKind::Move);
    assert!(
        t.contains(&"SPA/NC".to_string()) && t.contains(&"SPA/SC".to_string()),
        "{t:?}"
    );
    assert!(!t.contains(&"SPA".to_string()));
}

#[test]
fn an_army_on_a_coast_moves_by_convoy_where_the_fleets_at_sea_reach() {
    let s = north_sea();
    assert_eq!(
        names(&s, "YOR", OrderKind::Move),
        ["BEL", "DEN", "EDI", "HOL", "LON", "LVP", "NWY", "WAL"]
    );
    // An inland army, or one with no fleet at sea, moves one step only.
    assert_eq!(
        names(&s, "PAR", OrderKind::Move),
        ["BRE", "BUR", "GAS", "PIC"]
    );
    assert_eq!(
        names(&europe(), "LVP", OrderKind::Move),
        ["CLY", "EDI", "WAL", "YOR"]
    );
}

#[test]
fn a_convoy_names_an_army_on_a_coast_then_its_destination() {
    let s = north_sea();
    // Edinburgh holds a fleet: only York's army is named.
    assert_eq!(names(&s, "NTH", OrderKind::ConvoyArmy), ["YOR"]);
    assert_eq!(
        names(&s, "NTH", OrderKind::ConvoyTo { army: p(&s, "YOR") }),
        ["BEL", "DEN", "EDI", "HOL", "LON", "NWY"]
    );
    // Only fleets at sea convoy, and only armies are convoyed.
    assert!(names(&s, "EDI", OrderKind::ConvoyArmy).is_empty());
    assert!(names(&s, "NTH", OrderKind::ConvoyTo { army: p(&s, "EDI") }).is_empty());
    assert!(names(&s, "NTH", OrderKind::ConvoyTo { army: p(&s, "PAR") }).is_empty());
}

#[test]
fn a_support_goes_only_where_the_supporter_could_move_itself() {
    let s = europe();
    // Marseilles reaches Burgundy and Gascony, not Paris: it may support Paris into Burgundy or
    // Gascony, never Paris holding; and Brest's fleet into Gascony.
    let sup = names(&s, "MAR", OrderKind::SupportUnit);
    assert!(
        sup.contains(&"PAR".to_string()) && sup.contains(&"BRE".to_string()),
        "{sup:?}"
    );
    assert!(!sup.contains(&"LON".to_string()));
    assert_eq!(
        names(
            &s,
            "MAR",
            OrderKind::SupportTo {
                supported: p(&s, "PAR")
            }
        ),
        ["BUR", "GAS"]
    );
    assert_eq!(
        names(
            &s,
            "MAR",
            OrderKind::SupportTo {
                supported: p(&s, "BRE")
            }
        ),
        ["GAS"]
    );
    // A fleet supports an army only into provinces it reaches; holding where it reaches it.
    assert_eq!(
        names(
            &s,
            "LON",
            OrderKind::SupportTo {
                supported: p(&s, "LVP")
            }
        ),
        ["WAL", "YOR"]
    );
    assert_eq!(
        names(
            &s,
            "EDI",
            OrderKind::SupportTo {
                supported: p(&s, "LVP")
            }
        ),
        ["CLY", "YOR"]
    );
    // Liverpool's army reaches Edinburgh: it may support the fleet there holding.
    assert_eq!(
        names(
            &s,
            "LVP",
            OrderKind::SupportTo {
                supported: p(&s, "EDI")
            }
        ),
        ["CLY", "EDI", "YOR"]
    );
    // Not itself.
    assert!(names(
        &s,
        "MAR",
        OrderKind::SupportTo {
            supported: p(&s, "MAR")
        }
    )
    .is_empty());
}

#[test]
fn a_fleet_does_not_support_a_convoy_that_only_it_could_carry() {
    let s = north_sea();
    // The North Sea fleet could carry York to Norway, but not while it supports: only the
    // army's own steps and holding count (DATC 6.D.31).
    assert_eq!(
        names(
            &s,
            "NTH",
            OrderKind::SupportTo {
                supported: p(&s, "YOR")
            }
        ),
        ["EDI", "LON", "YOR"]
    );
}

#[test]
fn retreats_are_the_retreat_choices() {
    let mut s = europe();
    let map = s.map();
    let order = |t: &str| notation::parse(map, t).unwrap();
    let power = |k: &str| map.power(k).unwrap();
    for (who, list) in [
        ("AUSTRIA", vec!["A BUD - RUM"]),
        ("RUSSIA", vec!["A WAR - GAL", "A MOS - UKR"]),
    ] {
        let orders = list.into_iter().map(order).collect();
        s.apply(&OrdersAction::Submit {
            power: power(who),
            orders,
        })
        .unwrap();
    }
    s.apply(&OrdersAction::Adjudicate).unwrap();
    let orders = ["A UKR - RUM", "A GAL S A UKR - RUM", "F SEV S A UKR - RUM"];
    s.apply(&OrdersAction::Submit {
        power: power("RUSSIA"),
        orders: orders.into_iter().map(order).collect(),
    })
    .unwrap();
    s.apply(&OrdersAction::Adjudicate).unwrap();
    assert_eq!(s.phase, Phase::Retreat);
    // Not Ukraine (the attacker came from there), not occupied Galicia or Sevastopol.
    assert_eq!(names(&s, "RUM", OrderKind::Move), ["BUD", "BUL", "SER"]);
    let d = s.dislodged[0];
    let mut choices: Vec<Loc> = s.retreat_choices(&d);
    choices.sort();
    assert_eq!(s.legal_targets(p(&s, "RUM"), OrderKind::Move), choices);
    // The unit that moved in is not the one ordered now.
    assert!(names(&s, "RUM", OrderKind::SupportUnit).is_empty());
}

#[test]
fn house_options_fleets_facing_a_sea_and_combine() {
    let options = OrdersOptions {
        fleet_facing: true,
        combine: true,
        ..OrdersOptions::default()
    };
    let mut s = OrdersState::new("europe-1901", options).unwrap();
    // Brest faces the Channel: it moves along it only.
    assert_eq!(names(&s, "BRE", OrderKind::Move), ["ENG", "MAO", "PIC"]);
    assert!(
        names(&s, "WAR", OrderKind::Combine).is_empty(),
        "combine only in Fall"
    );
    s.season = Season::Fall;
    assert_eq!(names(&s, "WAR", OrderKind::Combine), ["MOS"]);
    assert!(
        names(&s, "SEV", OrderKind::Combine).is_empty(),
        "no fleet of Russia's there"
    );
}

/// Every target the function names is an order the adjudicator lets stand (not void), and
/// every other place of the map is one it voids: on the opening board and on one with a fleet
/// at sea, for moves, supports and convoys.
#[test]
fn targets_are_exactly_what_the_adjudicator_accepts() {
    for s in [europe(), north_sea()] {
        let map = s.map();
        let all: Vec<Loc> = (0..map.provinces.len() as ProvinceId)
            .flat_map(|q| {
                let mut v = vec![Loc::new(q)];
                v.extend(map.fleet_locs(q).into_iter().filter(|l| l.coast.is_some()));
                v
            })
            .collect();
        let void = |orders: &[(PowerId, Written)], at: ProvinceId| {
            let r = movement(map, &s.units, orders);
            let i = s.units.iter().position(|u| u.loc.province == at).unwrap();
            r.results[i].outcome == Outcome::Void
        };
        for u in &s.units {
            let here = u.loc.province;
            let moves = s.legal_targets(here, OrderKind::Move);
            for &to in &all {
                if to.province == here || (u.kind == UnitType::Army && to.coast.is_some()) {
                    continue;
                }
                let w = Written {
                    kind: u.kind,
                    at: u.loc,
                    spec: Spec::Move {
                        to,
                        via_convoy: false,
                    },
                };
                // A fleet ordered to a split-coast province without a coast is read as the one
                // coast it reaches, if only one: compare coast-exact orders only.
                if u.kind == UnitType::Fleet
                    && to.coast.is_none()
                    && !map.fleet_locs(to.province).contains(&to)
                {
                    continue;
                }
                assert_eq!(
                    !void(&[(u.power, w)], here),
                    moves.contains(&to),
                    "{} - {}",
                    map.loc_name(u.loc),
                    map.loc_name(to)
                );
            }
            // Supports: of every other unit, holding or moving where the engine says it may
            // move; the supported unit ordered to match.
            for t in s.units.iter().filter(|t| t.loc.province != here) {
                let named = s.legal_targets(
                    here,
                    OrderKind::SupportTo {
                        supported: t.loc.province,
                    },
                );
                let mut places: Vec<Loc> = s
                    .legal_targets(t.loc.province, OrderKind::Move)
                    .into_iter()
                    .map(|l| Loc::new(l.province))
                    .collect();
                places.push(Loc::new(t.loc.province));
                places.sort();
                places.dedup();
                for to in places {
                    let (spec_t, spec_s) = if to.province == t.loc.province {
                        (
                            Spec::Hold,
                            Spec::SupportHold {
                                kind: Some(t.kind),
                                target: t.loc,
                            },
                        )
                    } else {
                        let dest = s
                            .legal_targets(t.loc.province, OrderKind::Move)
                            .into_iter()
                            .find(|l| l.province == to.province)
                            .unwrap();
                        (
                            Spec::Move {
                                to: dest,
                                via_convoy: false,
                            },
                            Spec::SupportMove {
                                kind: Some(t.kind),
                                from: t.loc,
                                to,
                            },
                        )
                    };
                    let orders = [
                        (
                            t.power,
                            Written {
                                kind: t.kind,
                                at: t.loc,
                                spec: spec_t,
                            },
                        ),
                        (
                            u.power,
                            Written {
                                kind: u.kind,
                                at: u.loc,
                                spec: spec_s,
                            },
                        ),
                    ];
                    // With no convoy ordered, a convoyed move the supporter names is void
                    // for want of a route only when the army itself is: skip those.
                    let tv = void(&orders, t.loc.province);
                    if tv {
                        continue;
                    }
                    assert_eq!(
                        !void(&orders, here),
                        named.contains(&to),
                        "{} S {} -> {}",
                        map.loc_name(u.loc),
                        map.loc_name(t.loc),
                        map.loc_name(to)
                    );
                }
            }
            // Convoys: a fleet at sea, every army, every coast.
            if u.kind == UnitType::Fleet && map.is_sea(here) {
                for a in s.units.iter().filter(|a| a.kind == UnitType::Army) {
                    let named = s.legal_targets(
                        here,
                        OrderKind::ConvoyTo {
                            army: a.loc.province,
                        },
                    );
                    for to in named {
                        let orders = [
                            (
                                a.power,
                                Written {
                                    kind: a.kind,
                                    at: a.loc,
                                    spec: Spec::Move {
                                        to,
                                        via_convoy: true,
                                    },
                                },
                            ),
                            (
                                u.power,
                                Written {
                                    kind: u.kind,
                                    at: u.loc,
                                    spec: Spec::Convoy { from: a.loc, to },
                                },
                            ),
                        ];
                        assert!(
                            !void(&orders, here),
                            "{} C {} - {}",
                            map.loc_name(u.loc),
                            map.loc_name(a.loc),
                            map.loc_name(to)
                        );
                        assert!(!void(&orders, a.loc.province));
                    }
                }
            }
        }
    }
}
