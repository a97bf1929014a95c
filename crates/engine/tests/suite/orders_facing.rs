//! House option "fleets face a sea" (issue 5): a fleet on a coast faces one sea and moves,
//! supports, combines and retreats only along it; builds name the sea; the option off changes
//! nothing; saves of format 1 still load.

use orbis_engine::codec;
use orbis_engine::rules::orders::adjudicator::{Loc, Outcome, Piece, UnitType};
use orbis_engine::rules::orders::map::{OrdersMap, ProvinceId};
use orbis_engine::rules::orders::notation::{self, Written};
use orbis_engine::rules::orders::{
    movement_house, Centres, OrdersAction, OrdersError, OrdersOptions, OrdersState, Phase, Season,
};
use orbis_engine::rules::Game;

fn map() -> &'static OrdersMap {
    OrdersMap::europe()
}

fn p(name: &str) -> u8 {
    map().power(name).unwrap()
}

fn sea(key: &str) -> ProvinceId {
    map().province(key).unwrap()
}

fn w(text: &str) -> Written {
    notation::parse(map(), text).unwrap()
}

/// `("FRANCE", "F BRE", Some("MAO"))`.
fn unit(power: &str, text: &str, facing: Option<&str>) -> Piece {
    let (kind, loc) = notation::parse_unit(map(), text).unwrap();
    Piece {
        facing: facing.map(sea),
        ..Piece::new(p(power), kind, loc)
    }
}

fn game(units: &[Piece]) -> OrdersState {
    let options = OrdersOptions {
        fleet_facing: true,
        ..OrdersOptions::default()
    };
    let mut s = OrdersState::new("europe-1901", options).unwrap();
    s.units = units.to_vec();
    s.units.sort_by_key(|u| u.loc.province);
    s.check_consistency().unwrap();
    s
}

fn submit(s: &mut OrdersState, power: &str, orders: &[&str]) -> Result<(), OrdersError> {
    s.apply(&OrdersAction::Submit {
        power: p(power),
        orders: orders.iter().map(|o| w(o)).collect(),
    })
    .map(|_| ())
}

fn at(s: &OrdersState, loc: &str) -> Option<Piece> {
    let l = map().parse_loc(loc).unwrap();
    s.units
        .iter()
        .copied()
        .find(|u| u.loc.province == l.province)
}

/// One movement phase of `units` with the option on: outcome per unit, units afterwards.
fn run(units: &[Piece], orders: &[(&str, &str)]) -> (Vec<Outcome>, Vec<Piece>) {
    let orders: Vec<_> = orders.iter().map(|(pw, o)| (p(pw), w(o))).collect();
    let r = movement_house(map(), units, &orders, false, true);
    (r.results.iter().map(|r| r.outcome).collect(), r.units)
}

#[test]
fn starting_fleets_face_their_first_sea_only_with_the_option() {
    let off = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
    assert!(off.units.iter().all(|u| u.facing.is_none()));
    let on = game(&[]);
    let on = OrdersState {
        units: OrdersState::new("europe-1901", on.options.clone())
            .unwrap()
            .units,
        ..on
    };
    for u in &on.units {
        match u.kind {
            UnitType::Army => assert_eq!(u.facing, None),
            UnitType::Fleet => assert!(u.facing.is_some(), "{}", map().loc_name(u.loc)),
        }
    }
    // Map order is alphabetical: Brest faces the English Channel, not the Mid-Atlantic.
    assert_eq!(at(&on, "BRE").unwrap().facing, Some(sea("ENG")));
    assert_eq!(at(&on, "STP").unwrap().facing, Some(sea("BOT")));
    on.check_consistency().unwrap();
}

#[test]
fn moves_follow_the_sea_the_fleet_faces() {
    // Facing the Channel: into it, along it (Picardy), into a sea next to it (Mid-Atlantic);
    // not to Gascony, which lies on the Mid-Atlantic only.
    let eng = [unit("FRANCE", "F BRE", Some("ENG"))];
    for (to, ok) in [("ENG", true), ("PIC", true), ("MAO", true), ("GAS", false)] {
        let (out, after) = run(&eng, &[("FRANCE", &format!("F BRE - {to}"))]);
        assert_eq!(out[0] == Outcome::Ok, ok, "F BRE (ENG) - {to}: {out:?}");
        assert_eq!(out[0] == Outcome::Void, !ok);
        if ok {
            assert_eq!(after[0].loc.province, sea(to));
        }
    }
    let mao = [unit("FRANCE", "F BRE", Some("MAO"))];
    let (out, after) = run(&mao, &[("FRANCE", "F BRE - PIC")]);
    assert_eq!(out, [Outcome::Void]);
    assert_eq!(after[0], mao[0]);
    // Along the Mid-Atlantic into Gascony: the fleet keeps facing it.
    let (out, after) = run(&mao, &[("FRANCE", "F BRE - GAS")]);
    assert_eq!(out, [Outcome::Ok]);
    assert_eq!(after[0].facing, Some(sea("MAO")));
    // At sea a fleet faces nothing; back on a coast it faces the sea it came from.
    let (_, after) = run(&eng, &[("FRANCE", "F BRE - ENG")]);
    assert_eq!(after[0].facing, None);
    let (out, after) = run(&after, &[("FRANCE", "F ENG - BEL")]);
    assert_eq!(out, [Outcome::Ok]);
    assert_eq!(after[0].facing, Some(sea("ENG")));
    // Without the option the same fleet reaches Gascony.
    let orders = [(p("FRANCE"), w("F BRE - GAS"))];
    let off = movement_house(map(), &eng, &orders, false, false);
    assert_eq!(off.results[0].outcome, Outcome::Ok);
}

#[test]
fn supports_only_reach_along_the_sea() {
    let units = |facing: &str| {
        vec![
            unit("FRANCE", "A PAR", None),
            unit("FRANCE", "F BRE", Some(facing)),
            unit("GERMANY", "A PIC", None),
        ]
    };
    let orders = [("FRANCE", "A PAR - PIC"), ("FRANCE", "F BRE S A PAR - PIC")];
    // Facing the Channel, Brest supports into Picardy and the army dislodges the German.
    let (out, after) = run(&units("ENG"), &orders);
    assert_eq!(out[..2], [Outcome::Ok, Outcome::Ok]);
    assert!(after.iter().all(|u| u.power == p("FRANCE")));
    // Facing the Mid-Atlantic, Picardy is out of reach: the support is void, a stand-off.
    let (out, after) = run(&units("MAO"), &orders);
    assert_eq!(out[..2], [Outcome::Bounce, Outcome::Void]);
    assert!(after.iter().any(|u| u.power == p("GERMANY")));
}

#[test]
fn convoys_by_fleets_at_sea_are_unchanged_and_coastal_fleets_cannot_convoy() {
    let units = [
        unit("ENGLAND", "A LON", None),
        unit("ENGLAND", "F ENG", None),
        unit("ENGLAND", "F WAL", Some("ENG")),
    ];
    let (out, after) = run(
        &units,
        &[
            ("ENGLAND", "A LON - BRE"),
            ("ENGLAND", "F ENG C A LON - BRE"),
            ("ENGLAND", "F WAL C A LON - BRE"),
        ],
    );
    assert_eq!(out, [Outcome::Ok, Outcome::Ok, Outcome::Void]);
    assert!(after.iter().any(|u| u.loc.province == sea("BRE")));
}

#[test]
fn a_dislodged_fleet_retreats_only_to_a_coast_on_its_sea() {
    let setup = || {
        game(&[
            unit("ITALY", "F NAP", Some("TYS")),
            unit("AUSTRIA", "F ION", None),
            unit("AUSTRIA", "A APU", None),
        ])
    };
    let attack = |s: &mut OrdersState| {
        submit(s, "AUSTRIA", &["F ION - NAP", "A APU S F ION - NAP"]).unwrap();
        s.apply(&OrdersAction::Adjudicate).unwrap();
        assert_eq!(s.phase, Phase::Retreat);
        // The attacker arrived from the Ionian, so it faces it.
        assert_eq!(at(s, "NAP").unwrap().facing, Some(sea("ION")));
    };
    // The Tyrrhenian itself is a sea, not a coast on it: the retreat is void, the fleet lost.
    let mut s = setup();
    attack(&mut s);
    submit(&mut s, "ITALY", &["F NAP R TYS"]).unwrap();
    let ev = s.apply(&OrdersAction::Adjudicate).unwrap();
    assert!(format!("{ev:?}").contains("Void"));
    assert!(!s.units.iter().any(|u| u.power == p("ITALY")));
    // Rome lies on the Tyrrhenian: the fleet retreats there and still faces it.
    let mut s = setup();
    attack(&mut s);
    submit(&mut s, "ITALY", &["F NAP R ROM"]).unwrap();
    s.apply(&OrdersAction::Adjudicate).unwrap();
    assert_eq!(at(&s, "ROM").unwrap().facing, Some(sea("TYS")));
    assert_eq!((s.season, s.phase), (Season::Fall, Phase::Movement));
}

#[test]
fn a_fleet_build_names_its_sea() {
    let mut s = game(&[unit("FRANCE", "A PAR", None)]);
    s.phase = Phase::Adjustment;
    s.season = Season::Fall;
    assert_eq!(s.adjustment(p("FRANCE")), 2);
    // Brest borders two seas: the build must say which.
    let e = submit(&mut s, "FRANCE", &["F BRE B"]).unwrap_err();
    assert_eq!(
        e,
        OrdersError::Facing {
            order: "F BRE B".into(),
            seas: "ENG, MAO".into()
        }
    );
    assert!(e.to_string().contains("ENG, MAO"), "{e}");
    let e = submit(&mut s, "FRANCE", &["F BRE B FACING NTH"]).unwrap_err();
    assert!(matches!(e, OrdersError::Facing { .. }), "{e}");
    // Marseilles borders only the Gulf of Lyon: no need to name it.
    submit(&mut s, "FRANCE", &["F BRE B FACING MAO", "F MAR B"]).unwrap();
    s.apply(&OrdersAction::Adjudicate).unwrap();
    assert_eq!(at(&s, "BRE").unwrap().facing, Some(sea("MAO")));
    assert_eq!(at(&s, "MAR").unwrap().facing, Some(sea("LYO")));
    s.check_consistency().unwrap();

    // Without the option a facing is refused; an army never faces.
    let mut s = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
    s.units.retain(|u| u.power != p("FRANCE"));
    s.phase = Phase::Adjustment;
    s.season = Season::Fall;
    let e = submit(&mut s, "FRANCE", &["F BRE B FACING MAO"]).unwrap_err();
    assert!(e.to_string().contains("house option"), "{e}");
    submit(&mut s, "FRANCE", &["F BRE B"]).unwrap();
    s.apply(&OrdersAction::Adjudicate).unwrap();
    assert_eq!(at(&s, "BRE").unwrap().facing, None);
}

#[test]
fn a_game_with_the_option_saves_and_loads() {
    let mut s = game(&[unit("FRANCE", "F BRE", Some("MAO"))]);
    s.centres = Centres::new();
    let g = Game::Orders(s.clone());
    assert_eq!(Game::from_save(&g.to_save()).unwrap(), g);
    // A facing the option does not allow, or a sea the coast does not touch, is damage.
    let mut bad = s.clone();
    bad.units[0].facing = Some(sea("NTH"));
    assert!(bad.check_consistency().is_err());
    bad.units[0].facing = Some(sea("MAO"));
    bad.options.fleet_facing = false;
    assert!(bad.check_consistency().is_err());
}

/// The shapes of save format 1, written as they were, to check that such saves still load.
mod v1 {
    use super::*;
    use serde::Serialize;

    #[derive(Serialize)]
    struct Piece1 {
        power: u8,
        kind: UnitType,
        loc: Loc,
        strength: u8,
    }

    #[derive(Serialize)]
    struct State1 {
        map_id: String,
        options: (bool, bool),
        year: u16,
        season: Season,
        phase: Phase,
        units: Vec<Piece1>,
        dislodged: Vec<(Piece1, Option<u8>)>,
        contested: Vec<u8>,
        centres: Centres,
        orders: Vec<Option<Vec<Written>>>,
        draw: Vec<bool>,
    }

    #[derive(Serialize)]
    enum Game1 {
        #[allow(dead_code)]
        Classic(()),
        Orders(State1),
    }

    #[test]
    fn a_format_1_save_still_loads() {
        let s = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
        let state = State1 {
            map_id: s.map_id.clone(),
            options: (true, true),
            year: s.year,
            season: s.season,
            phase: s.phase,
            units: s
                .units
                .iter()
                .map(|u| Piece1 {
                    power: u.power,
                    kind: u.kind,
                    loc: u.loc,
                    strength: u.strength,
                })
                .collect(),
            dislodged: vec![],
            contested: vec![],
            centres: s.centres.clone(),
            orders: vec![None; 7],
            draw: vec![false; 7],
        };
        let bytes = codec::encode(&(*b"ORBIS", 1u16, Game1::Orders(state)));
        let Game::Orders(back) = Game::from_save(&bytes).unwrap() else {
            panic!("not an orders game");
        };
        let mut expect = s;
        expect.options.no_retreat_into_foreign_territory = true;
        expect.options.combine = true;
        expect.territory = expect.legacy_territory();
        assert!(!expect.territory.is_empty());
        assert_eq!(back, expect);
    }
}
