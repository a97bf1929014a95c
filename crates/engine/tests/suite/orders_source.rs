//! Source 000's own convoy and combine sentences as house options (DATC.md, "Source 000's
//! convoy and combine texts"): an attacked convoying fleet aborts its convoy and holds; an army
//! moving by convoy has strength 2; two fleets facing the same sea combine through it.

use orbis_engine::rules::orders::adjudicator::{Outcome, Piece};
use orbis_engine::rules::orders::map::OrdersMap;
use orbis_engine::rules::orders::notation;
use orbis_engine::rules::orders::{
    movement_rules, House, OrdersAction, OrdersOptions, OrdersState, Season,
};

fn map() -> &'static OrdersMap {
    OrdersMap::europe()
}

fn p(name: &str) -> u8 {
    map().power(name).unwrap()
}

fn unit(power: &str, text: &str) -> Piece {
    let (kind, loc) = notation::parse_unit(map(), text).unwrap();
    Piece::new(p(power), kind, loc)
}

/// One movement phase: each unit's outcome, under the standard rules and under the option.
fn both(units: &[Piece], orders: &[(&str, &str)]) -> (Vec<Outcome>, Vec<Outcome>) {
    let orders: Vec<_> = orders
        .iter()
        .map(|(pw, o)| (p(pw), notation::parse(map(), o).unwrap()))
        .collect();
    let run = |source_convoys| {
        let house = House {
            source_convoys,
            ..House::default()
        };
        movement_rules(map(), units, &orders, house)
            .results
            .iter()
            .map(|r| r.outcome)
            .collect()
    };
    (run(false), run(true))
}

#[test]
fn an_attacked_convoying_fleet_aborts_the_convoy() {
    let units = [
        unit("ENGLAND", "A YOR"),
        unit("ENGLAND", "F NTH"),
        unit("GERMANY", "F HEL"),
    ];
    let orders = [
        ("ENGLAND", "A YOR - NWY"),
        ("ENGLAND", "F NTH C A YOR - NWY"),
        ("GERMANY", "F HEL - NTH"),
    ];
    let (standard, source) = both(&units, &orders);
    // Standard: an attack that does not dislodge the fleet "has no effect on the convoy".
    assert_eq!(standard, [Outcome::Ok, Outcome::Ok, Outcome::Bounce]);
    // Source: "Convoy is aborted if one of the convoy fleet is attacked"; the fleet holds.
    assert_eq!(source, [Outcome::NoConvoy, Outcome::Cut, Outcome::Bounce]);
    // An attack by the fleet's own power does not abort it (as it would not cut a support).
    let own = [
        unit("ENGLAND", "A YOR"),
        unit("ENGLAND", "F NTH"),
        unit("ENGLAND", "F HEL"),
    ];
    let own_orders = [
        ("ENGLAND", "A YOR - NWY"),
        ("ENGLAND", "F NTH C A YOR - NWY"),
        ("ENGLAND", "F HEL - NTH"),
    ];
    assert_eq!(both(&own, &own_orders).1[0], Outcome::Ok);
}

#[test]
fn a_convoyed_army_has_a_power_of_two() {
    // Against a lone defender: a bounce under the standard rules, a dislodgement with the option.
    let units = [
        unit("ENGLAND", "A YOR"),
        unit("ENGLAND", "F NTH"),
        unit("RUSSIA", "A NWY"),
    ];
    let orders = [
        ("ENGLAND", "A YOR - NWY"),
        ("ENGLAND", "F NTH C A YOR - NWY"),
    ];
    let (standard, source) = both(&units, &orders);
    assert_eq!(standard[0], Outcome::Bounce);
    assert_eq!(source[0], Outcome::Ok);
    assert_eq!(source[2], Outcome::Dislodged);
    // Racing an army that walks in: a stand-off, or the convoyed army wins.
    let units = [
        unit("ENGLAND", "A YOR"),
        unit("ENGLAND", "F NTH"),
        unit("RUSSIA", "A SWE"),
    ];
    let orders = [
        ("ENGLAND", "A YOR - NWY"),
        ("ENGLAND", "F NTH C A YOR - NWY"),
        ("RUSSIA", "A SWE - NWY"),
    ];
    let (standard, source) = both(&units, &orders);
    assert_eq!(
        (standard[0], standard[2]),
        (Outcome::Bounce, Outcome::Bounce)
    );
    assert_eq!((source[0], source[2]), (Outcome::Ok, Outcome::Bounce));
    // A convoyed army held off (2 against 2) holds with strength 1 like any other.
    let units = [
        unit("ENGLAND", "A YOR"),
        unit("ENGLAND", "F NTH"),
        unit("RUSSIA", "A NWY"),
        unit("RUSSIA", "F EDI"),
        unit("RUSSIA", "A LVP"),
        unit("RUSSIA", "A SWE"),
    ];
    let orders = [
        ("ENGLAND", "A YOR - NWY"),
        ("ENGLAND", "F NTH C A YOR - NWY"),
        ("RUSSIA", "A NWY H"),
        ("RUSSIA", "A SWE S A NWY"),
        ("RUSSIA", "A LVP - YOR"),
        ("RUSSIA", "F EDI S A LVP - YOR"),
    ];
    let (_, source) = both(&units, &orders);
    assert_eq!(source[0], Outcome::Dislodged);
}

#[test]
fn fleets_facing_the_same_sea_combine_through_it() {
    // `Fleet Stevastopol => combine => Fleet Ankara`: not neighbours, but both face the Black Sea.
    let options = OrdersOptions {
        combine: true,
        fleet_facing: true,
        ..OrdersOptions::default()
    };
    let mut s = OrdersState::new("europe-1901", options).unwrap();
    let bla = map().province("BLA");
    s.units = vec![
        Piece {
            facing: bla,
            ..unit("RUSSIA", "F SEV")
        },
        Piece {
            facing: bla,
            ..unit("RUSSIA", "F ANK")
        },
    ];
    s.units.sort_by_key(|u| u.loc.province);
    s.check_consistency().unwrap();
    s.season = Season::Fall;
    s.apply(&OrdersAction::Submit {
        power: p("RUSSIA"),
        orders: vec![notation::parse(map(), "F SEV COMBINE F ANK").unwrap()],
    })
    .unwrap();
    s.apply(&OrdersAction::Adjudicate).unwrap();
    let fleets: Vec<_> = s.units.iter().filter(|u| u.power == p("RUSSIA")).collect();
    assert_eq!(fleets.len(), 1);
    assert_eq!(map().key(fleets[0].loc.province), "ANK");
    assert_eq!((fleets[0].strength, fleets[0].facing), (2, bla));
}
