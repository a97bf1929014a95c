//! The orders ruleset as a game: phases, submissions, centre ownership, adjustments, victory,
//! draws, errors that leave the state unchanged, and encoding.

use orbis_engine::codec;
use orbis_engine::rules::orders::adjudicator::{Loc, Outcome, Piece, UnitType};
use orbis_engine::rules::orders::map::OrdersMap;
use orbis_engine::rules::orders::notation::{self, Written};
use orbis_engine::rules::orders::{
    OrdersAction, OrdersError, OrdersEvent, OrdersOptions, OrdersState, Phase, Season,
};

fn map() -> &'static OrdersMap {
    OrdersMap::europe()
}

fn p(name: &str) -> u8 {
    map().power(name).unwrap()
}

fn w(text: &str) -> Written {
    notation::parse(map(), text).unwrap()
}

fn submit(s: &mut OrdersState, power: &str, orders: &[&str]) {
    s.apply(&OrdersAction::Submit {
        power: p(power),
        orders: orders.iter().map(|o| w(o)).collect(),
    })
    .unwrap_or_else(|e| panic!("{power}: {e}"));
}

fn adjudicate(s: &mut OrdersState) -> Vec<OrdersEvent> {
    s.apply(&OrdersAction::Adjudicate).unwrap()
}

fn unit_at(s: &OrdersState, loc: &str) -> Option<(String, UnitType)> {
    let l = map().parse_loc(loc).unwrap();
    s.units
        .iter()
        .find(|u| u.loc.province == l.province)
        .map(|u| (map().powers[u.power as usize].key.clone(), u.kind))
}

fn piece(power: &str, unit: &str) -> Piece {
    let (kind, loc) = notation::parse_unit(map(), unit).unwrap();
    Piece::new(p(power), kind, loc)
}

#[test]
fn a_new_game_is_the_standard_start() {
    let s = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
    assert_eq!(
        (s.year, s.season, s.phase),
        (1901, Season::Spring, Phase::Movement)
    );
    assert_eq!(s.units.len(), 22);
    assert_eq!(s.centres.len(), 22);
    assert_eq!(s.centre_count(p("RUSSIA")), 4);
    assert_eq!(unit_at(&s, "STP"), Some(("RUSSIA".into(), UnitType::Fleet)));
    assert_eq!(
        s.units
            .iter()
            .find(|u| map().key(u.loc.province) == "STP")
            .unwrap()
            .loc,
        map().parse_loc("STP/SC").unwrap()
    );
    s.check_consistency().unwrap();
    assert!(matches!(
        OrdersState::new("mars", OrdersOptions::default()),
        Err(OrdersError::UnknownMap(_))
    ));
}

#[test]
fn illegal_submissions_change_nothing() {
    let mut s = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
    let before = s.clone();
    let try_submit = |s: &mut OrdersState, power: &str, orders: &[&str]| {
        s.apply(&OrdersAction::Submit {
            power: p(power),
            orders: orders.iter().map(|o| w(o)).collect(),
        })
    };
    let e = try_submit(&mut s, "ENGLAND", &["F LON - NTH", "A PAR - BUR"]).unwrap_err();
    assert!(matches!(e, OrdersError::NotYours { .. }), "{e:?}");
    assert!(e.to_string().contains("A PAR - BUR"), "{e}");
    assert!(matches!(
        try_submit(&mut s, "ENGLAND", &["A YOR - LON"]),
        Err(OrdersError::NoUnit { .. })
    ));
    assert!(matches!(
        try_submit(&mut s, "ENGLAND", &["F LON B"]),
        Err(OrdersError::WrongPhase { .. })
    ));
    assert!(matches!(
        try_submit(&mut s, "ENGLAND", &["F LON H", "F LON - NTH"]),
        Err(OrdersError::TwoOrders { .. })
    ));
    assert!(matches!(
        s.apply(&OrdersAction::Submit {
            power: 9,
            orders: vec![]
        }),
        Err(OrdersError::UnknownPower(9))
    ));
    assert_eq!(s, before);
}

#[test]
fn a_year_with_captures_and_builds() {
    let mut s = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
    assert_eq!(s.waiting_for().len(), 7);
    submit(
        &mut s,
        "ENGLAND",
        &["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
    );
    assert!(!s.waiting_for().contains(&p("ENGLAND")));
    submit(&mut s, "FRANCE", &["A MAR - SPA", "A PAR - BUR"]);
    submit(&mut s, "GERMANY", &["A MUN - BUR"]);
    let ev = adjudicate(&mut s);
    let results = ev
        .iter()
        .find_map(|e| match e {
            OrdersEvent::Resolved { results, .. } => Some(results.clone()),
            _ => None,
        })
        .unwrap();
    let of = |unit: &str| {
        let (kind, loc) = notation::parse_unit(map(), unit).unwrap();
        results
            .iter()
            .find(|r| r.order.at == loc && r.order.kind == kind)
            .unwrap()
            .outcome
    };
    assert_eq!(of("A PAR"), Outcome::Bounce);
    assert_eq!(of("A MUN"), Outcome::Bounce);
    assert_eq!(of("A MAR"), Outcome::Ok);
    assert_eq!(of("F KIE"), Outcome::Ok);
    assert_eq!((s.season, s.phase), (Season::Fall, Phase::Movement));
    // Spring does not change ownership.
    assert_eq!(s.centre_count(p("FRANCE")), 3);

    submit(&mut s, "ENGLAND", &["F NTH - NWY", "F NWG H", "A YOR H"]);
    submit(&mut s, "FRANCE", &["A SPA H"]);
    let ev = adjudicate(&mut s);
    assert!(ev.contains(&OrdersEvent::CentreTaken {
        province: map().province("NWY").unwrap(),
        from: None,
        to: p("ENGLAND"),
    }));
    assert_eq!(s.centre_count(p("ENGLAND")), 4);
    assert_eq!(s.centre_count(p("FRANCE")), 4);
    assert_eq!(s.phase, Phase::Adjustment);
    assert_eq!(s.adjustment(p("ENGLAND")), 1);
    assert_eq!(s.adjustment(p("GERMANY")), 0);
    assert_eq!(s.waiting_for(), [p("ENGLAND"), p("FRANCE")]);

    // England builds in London (empty); Edinburgh is empty too but only one build is allowed.
    submit(&mut s, "ENGLAND", &["F LON B", "F EDI B"]);
    submit(&mut s, "FRANCE", &["A MAR B"]);
    let err = s
        .apply(&OrdersAction::Submit {
            power: p("FRANCE"),
            orders: vec![w("A MAR - BUR")],
        })
        .unwrap_err();
    assert!(matches!(err, OrdersError::WrongPhase { .. }));
    adjudicate(&mut s);
    assert_eq!(
        (s.year, s.season, s.phase),
        (1902, Season::Spring, Phase::Movement)
    );
    assert_eq!(
        unit_at(&s, "LON"),
        Some(("ENGLAND".into(), UnitType::Fleet))
    );
    assert_eq!(unit_at(&s, "EDI"), None);
    assert_eq!(unit_at(&s, "MAR"), Some(("FRANCE".into(), UnitType::Army)));
    assert_eq!(s.units.len(), 24);
    s.check_consistency().unwrap();
}

fn small_game(units: &[(&str, &str)]) -> OrdersState {
    let mut s = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
    s.units = units.iter().map(|(pw, u)| piece(pw, u)).collect();
    s.units.sort_by_key(|u| u.loc.province);
    s
}

#[test]
fn a_retreat_phase_follows_a_dislodgement() {
    let mut s = small_game(&[
        ("GERMANY", "A MUN"),
        ("GERMANY", "A RUH"),
        ("FRANCE", "A BUR"),
    ]);
    submit(&mut s, "GERMANY", &["A MUN - BUR", "A RUH S A MUN - BUR"]);
    let ev = adjudicate(&mut s);
    assert_eq!(s.phase, Phase::Retreat);
    assert!(ev.contains(&OrdersEvent::PhaseStarted {
        year: 1901,
        season: Season::Spring,
        phase: Phase::Retreat
    }));
    assert_eq!(s.dislodged.len(), 1);
    assert_eq!(s.dislodged[0].attacker_from, map().province("MUN"));
    assert_eq!(s.waiting_for(), [p("FRANCE")]);
    // Retreating to where the attacker came from is refused at adjudication, not submission.
    let e = s
        .apply(&OrdersAction::Submit {
            power: p("GERMANY"),
            orders: vec![w("A MUN R BUR")],
        })
        .unwrap_err();
    assert!(matches!(e, OrdersError::NoUnit { .. }));
    submit(&mut s, "FRANCE", &["A BUR R PAR"]);
    adjudicate(&mut s);
    assert_eq!((s.season, s.phase), (Season::Fall, Phase::Movement));
    assert_eq!(unit_at(&s, "PAR"), Some(("FRANCE".into(), UnitType::Army)));
    assert_eq!(unit_at(&s, "BUR"), Some(("GERMANY".into(), UnitType::Army)));
    assert!(s.dislodged.is_empty());
}

#[test]
fn a_unit_without_retreat_order_is_disbanded() {
    let mut s = small_game(&[
        ("GERMANY", "A MUN"),
        ("GERMANY", "A RUH"),
        ("FRANCE", "A BUR"),
    ]);
    submit(&mut s, "GERMANY", &["A MUN - BUR", "A RUH S A MUN - BUR"]);
    adjudicate(&mut s);
    adjudicate(&mut s);
    assert_eq!(s.units.iter().filter(|u| u.power == p("FRANCE")).count(), 0);
}

#[test]
fn house_option_closes_foreign_territory_to_retreats() {
    let mut s = small_game(&[
        ("GERMANY", "A MUN"),
        ("GERMANY", "A RUH"),
        ("FRANCE", "A BUR"),
    ]);
    s.options.no_retreat_into_foreign_territory = true;
    // Belgium is held by Germany, so it is closed to the French retreat.
    s.territory
        .insert(map().province("BEL").unwrap(), p("GERMANY"));
    submit(&mut s, "GERMANY", &["A MUN - BUR", "A RUH S A MUN - BUR"]);
    adjudicate(&mut s);
    submit(&mut s, "FRANCE", &["A BUR R BEL"]);
    let ev = adjudicate(&mut s);
    let void = ev.iter().any(|e| {
        matches!(e, OrdersEvent::Resolved { results, phase: Phase::Retreat, .. }
            if results.iter().any(|r| r.outcome == Outcome::Void))
    });
    assert!(void);
    assert_eq!(unit_at(&s, "BEL"), None);
}

#[test]
fn eighteen_centres_win() {
    let mut s = small_game(&[("ENGLAND", "F NTH"), ("FRANCE", "A PAR")]);
    s.season = Season::Fall;
    let england = p("ENGLAND");
    let centres: Vec<u8> = map()
        .centres()
        .filter(|&c| map().key(c) != "NWY")
        .take(17)
        .collect();
    s.centres.clear();
    for c in centres {
        s.centres.insert(c, england);
    }
    s.centres
        .insert(map().province("PAR").unwrap(), p("FRANCE"));
    submit(&mut s, "ENGLAND", &["F NTH - NWY"]);
    let ev = adjudicate(&mut s);
    assert!(ev.contains(&OrdersEvent::Won { power: england }));
    assert_eq!(
        s.phase,
        Phase::GameOver {
            winner: Some(england)
        }
    );
    assert_eq!(
        s.apply(&OrdersAction::Adjudicate),
        Err(OrdersError::GameOver)
    );
}

#[test]
fn a_draw_needs_every_survivor() {
    let mut s = small_game(&[("ENGLAND", "F NTH"), ("FRANCE", "A PAR")]);
    s.centres
        .retain(|_, &mut o| o == p("ENGLAND") || o == p("FRANCE"));
    s.apply(&OrdersAction::Draw {
        power: p("ENGLAND"),
        accept: true,
    })
    .unwrap();
    assert_eq!(s.phase, Phase::Movement);
    let ev = s
        .apply(&OrdersAction::Draw {
            power: p("FRANCE"),
            accept: true,
        })
        .unwrap();
    assert!(ev.contains(&OrdersEvent::Drawn));
    assert_eq!(s.phase, Phase::GameOver { winner: None });
}

#[test]
fn civil_disorder_in_the_game() {
    let mut s = small_game(&[
        ("FRANCE", "A PIC"),
        ("FRANCE", "A PAR"),
        ("FRANCE", "A GAS"),
        ("ENGLAND", "A BRE"),
    ]);
    s.season = Season::Fall;
    adjudicate(&mut s);
    // England took Brest: France has 2 centres and 3 units and sends no orders.
    assert_eq!(s.phase, Phase::Adjustment);
    let ev = adjudicate(&mut s);
    assert_eq!(s.phase, Phase::Movement);
    assert_eq!(s.year, 1902);
    // Picardy and Gascony are both one move from Paris: alphabetical order removes Gascony.
    assert_eq!(unit_at(&s, "GAS"), None);
    assert!(unit_at(&s, "PIC").is_some() && unit_at(&s, "PAR").is_some());
    assert!(ev.iter().any(
        |e| matches!(e, OrdersEvent::Resolved { phase: Phase::Adjustment, results, .. }
        if results.len() == 1 && notation::print(map(), &results[0].order) == "A GAS D")
    ));
}

#[test]
fn states_encode_and_hash_deterministically() {
    let mut s = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
    submit(&mut s, "FRANCE", &["A PAR - BUR"]);
    adjudicate(&mut s);
    let bytes = codec::encode(&s);
    let back: OrdersState = codec::decode(&bytes).unwrap();
    assert_eq!(back, s);
    assert_eq!(codec::hash_of(&back), codec::hash_of(&s));
    let mut t = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
    submit(&mut t, "FRANCE", &["A PAR - BUR"]);
    adjudicate(&mut t);
    assert_eq!(codec::hash_of(&t), codec::hash_of(&s));
    let _ = Loc::new(0);
}

#[test]
fn the_world_map_plays_with_two_to_six_players() {
    for n in 2..=6u8 {
        let s = OrdersState::new_for("world", OrdersOptions::default(), n).unwrap();
        assert_eq!(s.units.len(), 3 * n as usize);
        assert_eq!(s.centres.len(), 3 * n as usize);
        s.check_consistency().unwrap();
    }
    assert_eq!(
        OrdersState::new_for("world", OrdersOptions::default(), 7),
        Err(OrdersError::PlayerCount(7))
    );
    // Oceania convoys an army from Western Australia to Siam over the Indian Ocean.
    let wm = OrdersMap::get("world").unwrap();
    let mut s = OrdersState::new_for("world", OrdersOptions::default(), 6).unwrap();
    let oceania = wm.power("OCEANIA").unwrap();
    let order = |t: &str| notation::parse(wm, t).unwrap();
    s.apply(&OrdersAction::Submit {
        power: oceania,
        orders: vec![order("F IDN - IOC")],
    })
    .unwrap();
    s.apply(&OrdersAction::Adjudicate).unwrap();
    s.apply(&OrdersAction::Submit {
        power: oceania,
        orders: vec![order("F IOC C A WAU - SIA"), order("A WAU - SIA")],
    })
    .unwrap();
    s.apply(&OrdersAction::Adjudicate).unwrap();
    let sia = wm.province("SIA").unwrap();
    assert!(s
        .units
        .iter()
        .any(|u| u.power == oceania && u.loc.province == sia && u.kind == UnitType::Army));
    assert_eq!(s.centres.get(&sia), Some(&oceania));
    // Oceania now has 4 centres and 3 units, with Western Australia free to build in.
    assert_eq!(s.phase, Phase::Adjustment);
}

mod combine {
    use super::*;
    use orbis_engine::rules::orders::{movement_with, MovementReport};

    fn run(units: &[(&str, &str)], orders: &[(&str, &str)], combine: bool) -> MovementReport {
        let units: Vec<Piece> = units.iter().map(|(pw, u)| piece(pw, u)).collect();
        let orders: Vec<(u8, Written)> = orders.iter().map(|(pw, o)| (p(pw), w(o))).collect();
        movement_with(map(), &units, &orders, combine)
    }

    fn strength_at(r: &MovementReport, prov: &str) -> Option<u8> {
        let pr = map().province(prov).unwrap();
        r.units
            .iter()
            .find(|u| u.loc.province == pr)
            .map(|u| u.strength)
    }

    #[test]
    fn two_units_become_one_of_strength_two() {
        let r = run(
            &[("RUSSIA", "A WAR"), ("RUSSIA", "A LVN")],
            &[("RUSSIA", "A WAR COMBINE A LVN")],
            true,
        );
        assert_eq!(r.results[0].outcome, Outcome::Ok);
        assert_eq!(r.units.len(), 1);
        assert_eq!(strength_at(&r, "LVN"), Some(2));
        assert_eq!(r.positions[0], map().parse_loc("LVN"));
        // Without the option the order is void and nothing changes.
        let r = run(
            &[("RUSSIA", "A WAR"), ("RUSSIA", "A LVN")],
            &[("RUSSIA", "A WAR COMBINE A LVN")],
            false,
        );
        assert_eq!(r.results[0].outcome, Outcome::Void);
        assert_eq!(r.units.len(), 2);
    }

    #[test]
    fn combining_units_defend_with_two_and_fall_to_three() {
        let units = [
            ("RUSSIA", "A WAR"),
            ("RUSSIA", "A LVN"),
            ("GERMANY", "A PRU"),
            ("GERMANY", "A SIL"),
            ("GERMANY", "F BAL"),
            ("RUSSIA", "A MOS"),
        ];
        // Strength 2 against the pair's 2: the combine goes through; Russia's support is void.
        let r = run(
            &units,
            &[
                ("RUSSIA", "A WAR COMBINE A LVN"),
                ("RUSSIA", "A MOS S A LVN"),
                ("GERMANY", "A PRU - LVN"),
                ("GERMANY", "F BAL S A PRU - LVN"),
            ],
            true,
        );
        assert_eq!(r.results[5].outcome, Outcome::Void);
        assert_eq!(r.results[2].outcome, Outcome::Bounce);
        assert_eq!(strength_at(&r, "LVN"), Some(2));
        // Strength 3: Livonia is dislodged and the combine is cancelled.
        let mut with_bot = units.to_vec();
        with_bot.push(("GERMANY", "F BOT"));
        let r = run(
            &with_bot,
            &[
                ("RUSSIA", "A WAR COMBINE A LVN"),
                ("GERMANY", "A PRU - LVN"),
                ("GERMANY", "F BAL S A PRU - LVN"),
                ("GERMANY", "F BOT S A PRU - LVN"),
            ],
            true,
        );
        assert_eq!(r.results[2].outcome, Outcome::Ok);
        assert_eq!(r.results[1].outcome, Outcome::Dislodged);
        assert_eq!(strength_at(&r, "WAR"), Some(1));
        let r = run(
            &units,
            &[
                ("RUSSIA", "A WAR COMBINE A LVN"),
                ("GERMANY", "A PRU - LVN"),
                ("GERMANY", "F BAL S A PRU - LVN"),
                ("GERMANY", "A SIL S A PRU - LVN"),
            ],
            true,
        );
        // Silesia does not border Livonia: its support is void, so 2 against 2 again.
        assert_eq!(r.results[2].outcome, Outcome::Bounce);
    }

    #[test]
    fn a_combined_unit_attacks_with_two() {
        let mut strong = piece("RUSSIA", "A LVN");
        strong.strength = 2;
        let units = vec![strong, piece("GERMANY", "A PRU")];
        let orders = vec![(p("RUSSIA"), w("A LVN - PRU"))];
        let r = movement_with(map(), &units, &orders, false);
        assert_eq!(r.results[0].outcome, Outcome::Ok);
        assert_eq!(r.results[1].outcome, Outcome::Dislodged);
        assert_eq!(r.units[0].strength, 2);
    }

    #[test]
    fn combining_is_a_fall_house_option() {
        let mut s = small_game(&[("RUSSIA", "A WAR"), ("RUSSIA", "A LVN")]);
        let order = |s: &mut OrdersState| {
            s.apply(&OrdersAction::Submit {
                power: p("RUSSIA"),
                orders: vec![w("A WAR COMBINE A LVN")],
            })
        };
        assert!(matches!(order(&mut s), Err(OrdersError::NoCombine { .. })));
        s.options.combine = true;
        assert!(matches!(order(&mut s), Err(OrdersError::NoCombine { .. })));
        s.season = Season::Fall;
        order(&mut s).unwrap();
        adjudicate(&mut s);
        assert_eq!(s.units.len(), 1);
        assert_eq!(s.units[0].strength, 2);
        s.check_consistency().unwrap();
    }
}

/// For every player count of the world map: give each free supply centre (neutral, or the home of
/// a power not in play) to the powers whose home centres are fewest moves away (ties shared), and
/// require the shares to differ by at most 2 centres for 2–5 players. With all six powers the map
/// itself decides (Asia borders the most); that spread is printed, not bounded.
#[test]
fn world_setups_are_balanced() {
    use std::collections::VecDeque;
    let m = OrdersMap::get("world").unwrap();
    let n = m.provinces.len();
    let neighbours = |p: usize| -> Vec<usize> {
        let pr = &m.provinces[p];
        let mut v: Vec<usize> = pr.army.iter().map(|&x| x as usize).collect();
        v.extend(pr.fleet.iter().map(|l| l.province as usize));
        v.extend(
            pr.coasts
                .iter()
                .flat_map(|(_, ls)| ls.iter().map(|l| l.province as usize)),
        );
        v
    };
    let distances = |power: u8| -> Vec<u32> {
        let mut d = vec![u32::MAX; n];
        let mut q = VecDeque::new();
        for h in m.homes(power) {
            d[h as usize] = 0;
            q.push_back(h as usize);
        }
        while let Some(x) = q.pop_front() {
            for y in neighbours(x) {
                if d[y] == u32::MAX {
                    d[y] = d[x] + 1;
                    q.push_back(y);
                }
            }
        }
        d
    };
    for players in 2..=6u8 {
        let powers = m.powers_for(players).unwrap();
        let dist: Vec<Vec<u32>> = powers.iter().map(|&p| distances(p)).collect();
        // Shares in sixtieths of a centre, so ties split exactly.
        let mut share = vec![0u32; powers.len()];
        for c in m.centres() {
            if m.provinces[c as usize]
                .home
                .is_some_and(|h| powers.contains(&h))
            {
                continue;
            }
            let best = dist.iter().map(|d| d[c as usize]).min().unwrap();
            let winners: Vec<usize> = (0..powers.len())
                .filter(|&i| dist[i][c as usize] == best)
                .collect();
            for &w in &winners {
                share[w] += 60 / winners.len() as u32;
            }
        }
        let spread = share.iter().max().unwrap() - share.iter().min().unwrap();
        println!(
            "{players} players: nearest free centres (x60) {share:?}, spread {:.2}",
            spread as f64 / 60.0
        );
        if players <= 5 {
            assert!(spread <= 2 * 60, "{players} players: {share:?}");
        }
    }
}
