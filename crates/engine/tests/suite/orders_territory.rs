//! The house option "no retreat into another power's territory" as source 000 writes it: a
//! power's territory is its home provinces (centres or not) and every province it holds at the
//! end of a Fall; a power with no units left holds nothing. Probes from the rules review.

use orbis_engine::rules::orders::adjudicator::{Outcome, Piece};
use orbis_engine::rules::orders::map::OrdersMap;
use orbis_engine::rules::orders::notation;
use orbis_engine::rules::orders::{OrdersAction, OrdersEvent, OrdersOptions, OrdersState, Phase};

fn map() -> &'static OrdersMap {
    OrdersMap::europe()
}

fn p(name: &str) -> u8 {
    map().power(name).unwrap()
}

fn prov(key: &str) -> u8 {
    map().province(key).unwrap()
}

fn house() -> OrdersOptions {
    OrdersOptions {
        no_retreat_into_foreign_territory: true,
        ..OrdersOptions::default()
    }
}

/// A Europe game with the house option, these units, and the territory of a fresh game.
fn game(units: &[(&str, &str)]) -> OrdersState {
    let mut s = OrdersState::new("europe-1901", house()).unwrap();
    s.units = units
        .iter()
        .map(|(pw, u)| {
            let (kind, loc) = notation::parse_unit(map(), u).unwrap();
            Piece::new(p(pw), kind, loc)
        })
        .collect();
    s.units.sort_by_key(|u| u.loc.province);
    s
}

fn submit(s: &mut OrdersState, power: &str, orders: &[&str]) {
    s.apply(&OrdersAction::Submit {
        power: p(power),
        orders: orders
            .iter()
            .map(|o| notation::parse(map(), o).unwrap())
            .collect(),
    })
    .unwrap_or_else(|e| panic!("{power}: {e}"));
}

/// Dislodges the German army in Silesia (Austria: `A BOH - SIL`, `A GAL S A BOH - SIL`), then
/// orders its retreat; the retreat's outcome.
fn silesia_retreat(mut s: OrdersState, retreat: &str) -> Outcome {
    submit(&mut s, "AUSTRIA", &["A BOH - SIL", "A GAL S A BOH - SIL"]);
    s.apply(&OrdersAction::Adjudicate).unwrap();
    assert_eq!(s.phase, Phase::Retreat);
    submit(&mut s, "GERMANY", &[retreat]);
    let ev = s.apply(&OrdersAction::Adjudicate).unwrap();
    ev.iter()
        .find_map(|e| match e {
            OrdersEvent::Resolved {
                phase: Phase::Retreat,
                results,
                ..
            } => Some(results[0].outcome),
            _ => None,
        })
        .unwrap()
}

const SILESIA: [(&str, &str); 4] = [
    ("GERMANY", "A SIL"),
    ("AUSTRIA", "A BOH"),
    ("AUSTRIA", "A GAL"),
    ("RUSSIA", "F SEV"),
];

#[test]
fn a_captured_home_centre_becomes_the_takers() {
    // Russian Warsaw is closed to Germany; Berlin is Germany's own.
    let s = game(&SILESIA);
    assert_eq!(silesia_retreat(s.clone(), "A SIL R WAR"), Outcome::Void);
    assert_eq!(silesia_retreat(s.clone(), "A SIL R BER"), Outcome::Ok);
    // Germany takes Warsaw in a Fall: it is Germany's now, and closed to Russia.
    let mut fall = game(&[("GERMANY", "A PRU"), ("RUSSIA", "F SEV")]);
    fall.season = orbis_engine::rules::orders::Season::Fall;
    submit(&mut fall, "GERMANY", &["A PRU - WAR"]);
    fall.apply(&OrdersAction::Adjudicate).unwrap();
    assert_eq!(fall.territory.get(&prov("WAR")), Some(&p("GERMANY")));
    assert!(fall.closed_to_retreat(p("RUSSIA"), prov("WAR")));
    assert!(!fall.closed_to_retreat(p("GERMANY"), prov("WAR")));
    // So a German retreat into Warsaw now succeeds.
    let mut s = game(&SILESIA);
    s.territory.insert(prov("WAR"), p("GERMANY"));
    assert_eq!(silesia_retreat(s, "A SIL R WAR"), Outcome::Ok);
}

#[test]
fn a_destroyed_powers_homes_reopen() {
    // Russia has no units and no centres: Ukraine is no longer occupied territory.
    let mut s = game(&[
        ("GERMANY", "A UKR"),
        ("AUSTRIA", "A GAL"),
        ("AUSTRIA", "A RUM"),
    ]);
    s.centres.retain(|_, o| *o != p("RUSSIA"));
    submit(&mut s, "AUSTRIA", &["A GAL - UKR", "A RUM S A GAL - UKR"]);
    s.apply(&OrdersAction::Adjudicate).unwrap();
    submit(&mut s, "GERMANY", &["A UKR R MOS"]);
    let ev = s.apply(&OrdersAction::Adjudicate).unwrap();
    assert!(ev.iter().any(
        |e| matches!(e, OrdersEvent::Resolved { phase: Phase::Retreat, results, .. }
        if results[0].outcome == Outcome::Ok)
    ));
    // With a Russian unit left anywhere, Moscow stays closed.
    assert!(game(&[("RUSSIA", "F STP/SC")]).closed_to_retreat(p("GERMANY"), prov("MOS")));
}

#[test]
fn home_provinces_that_are_not_centres_are_closed_too() {
    let s = game(&[("RUSSIA", "A MOS"), ("TURKEY", "A ARM")]);
    // Source 000: "Any Russian province (warsaw, ukraine, moscow, Finland etc)".
    for k in ["UKR", "FIN", "LVN", "WAR", "MOS"] {
        assert!(s.closed_to_retreat(p("TURKEY"), prov(k)), "{k}");
        assert!(!s.closed_to_retreat(p("RUSSIA"), prov(k)), "{k}");
    }
    // Albania belongs to nobody until someone holds it at the end of a Fall.
    assert!(!s.closed_to_retreat(p("ITALY"), prov("ALB")));
    let mut fall = game(&[("TURKEY", "A GRE"), ("ITALY", "A APU")]);
    fall.season = orbis_engine::rules::orders::Season::Fall;
    submit(&mut fall, "TURKEY", &["A GRE - ALB"]);
    fall.apply(&OrdersAction::Adjudicate).unwrap();
    assert!(fall.closed_to_retreat(p("ITALY"), prov("ALB")));
    // A Spring move takes nothing.
    let mut spring = game(&[("TURKEY", "A GRE"), ("ITALY", "A APU")]);
    submit(&mut spring, "TURKEY", &["A GRE - ALB"]);
    spring.apply(&OrdersAction::Adjudicate).unwrap();
    assert_eq!(spring.territory.get(&prov("ALB")), None);
}

#[test]
fn absent_powers_hold_nothing_on_the_world_map() {
    for players in 2..=5u8 {
        let s = OrdersState::new_for("world", house(), players).unwrap();
        let m = s.map();
        let playing: Vec<u8> = (0..m.powers.len() as u8).filter(|&q| s.alive(q)).collect();
        for (q, _) in m.powers.iter().enumerate() {
            let q = q as u8;
            for h in m.home_territory(q) {
                assert_eq!(
                    s.territory.contains_key(&h),
                    playing.contains(&q),
                    "{players} players, {}",
                    m.key(h)
                );
            }
        }
    }
    // Without the option nothing is tracked.
    let plain = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
    assert!(plain.territory.is_empty());
    assert!(plain.check_consistency().is_ok());
}

/// Found by the orders bots' property test: a fleet at sea at the end of a Fall made the sea
/// "territory", and the game then failed its own consistency check (a save that would not load).
#[test]
fn a_fleet_at_sea_at_the_end_of_a_fall_holds_no_territory() {
    let mut s = game(&[("ENGLAND", "F LON")]);
    s.season = orbis_engine::rules::orders::Season::Fall;
    submit(&mut s, "ENGLAND", &["F LON - NTH"]);
    s.apply(&OrdersAction::Adjudicate).unwrap();
    assert!(s.units.iter().any(|u| u.loc.province == prov("NTH")));
    assert!(!s.territory.contains_key(&prov("NTH")));
    s.check_consistency().unwrap();
    // A save written before the fix, with the sea in the table, loads without it.
    let mut old = s.clone();
    old.territory.insert(prov("NTH"), p("ENGLAND"));
    let loaded =
        orbis_engine::rules::Game::from_save(&orbis_engine::rules::Game::Orders(old).to_save());
    assert_eq!(loaded.unwrap(), orbis_engine::rules::Game::Orders(s));
}
