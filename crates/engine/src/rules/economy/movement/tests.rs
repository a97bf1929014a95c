use super::*;
use crate::rules::economy::options::EconomyOptions;

fn map() -> &'static EconomyMap {
    EconomyMap::get()
}

fn r(k: &str) -> RegionId {
    map().region(k).unwrap_or_else(|| panic!("no region {k}"))
}

fn game() -> EconomyState {
    EconomyState::empty(map(), &["Ann", "Bob"], EconomyOptions::default())
}

/// Where `kind` units of Ann reach from `from` in a fresh round, passing anywhere.
fn reached(s: &EconomyState, kind: Kind, from: &str) -> BTreeSet<String> {
    s.reach(map(), 0, kind, r(from), Allowance::FRESH, |_| true)
        .into_iter()
        .map(|(x, _)| map().regions[x as usize].key.clone())
        .collect()
}

fn set(keys: &[&str]) -> BTreeSet<String> {
    keys.iter().map(|k| k.to_string()).collect()
}

#[test]
fn an_army_crosses_one_border_over_land_or_onto_its_coast() {
    let s = game();
    assert_eq!(
        reached(&s, Kind::Army, "western_europe"),
        set(&[
            "northern_europe",
            "southern_europe",
            // The dotted lines to Great Britain and North Africa join coasts, not countries.
            "western_europe_coast",
        ])
    );
    assert_eq!(reached(&s, Kind::Army, "iceland"), set(&["iceland_coast"]));
}

#[test]
fn from_water_an_army_goes_ashore_or_on_by_water_but_not_both() {
    let s = game();
    let got = reached(&s, Kind::Army, "iceland_coast");
    // Ashore (a whole move), or up to three water steps.
    assert!(got.contains("iceland"));
    assert!(got.contains("great_britain_coast"));
    assert!(got.contains("western_europe_coast"));
    // One water step leaves two thirds: not enough to land.
    assert!(!got.contains("great_britain"));
}

#[test]
fn navies_sail_three_water_steps_and_never_land() {
    let s = game();
    let got = reached(&s, Kind::Navy, "iceland_coast");
    assert!(got.contains("north_africa_coast")); // Iceland, Britain, Western Europe, North Africa.
    assert!(!got.contains("egypt_mediterranean")); // a fourth step
    assert!(got.iter().all(|k| map().is_water(r(k))));
}

#[test]
fn roads_give_an_army_a_second_step_before_or_after_its_move() {
    let mut s = game();
    for k in [
        "western_europe",
        "southern_europe",
        "northern_europe",
        "ukraine",
    ] {
        s.regions[r(k) as usize].infra.roads = true;
    }
    let got = reached(&s, Kind::Army, "western_europe");
    // Road to Southern Europe, then a normal move on to the Middle East or its coast.
    assert!(got.contains("middle_east"));
    assert!(got.contains("southern_europe_coast"));
    // A normal move to Southern Europe, then the road on to Ukraine.
    assert!(got.contains("ukraine"));
    // One road movement only: Ural, beyond Ukraine, is out of reach.
    assert!(!got.contains("ural"));
    // Without the roads rule the roads do nothing.
    s.options.roads = false;
    assert!(!reached(&s, Kind::Army, "western_europe").contains("ukraine"));
}

#[test]
fn a_canal_joins_its_coasts_for_friendly_navies() {
    let mut s = game();
    let egypt = r("egypt") as usize;
    assert!(!reached(&s, Kind::Navy, "egypt_mediterranean").contains("egypt_red_sea"));
    s.regions[egypt].infra.roads = true;
    s.regions[egypt].infra.canal = true;
    // Bob's canal is closed to Ann.
    s.regions[egypt].owner = Some(1);
    assert!(!reached(&s, Kind::Navy, "egypt_mediterranean").contains("egypt_red_sea"));
    // Her own, or an ally's, is open.
    s.alliances.insert((0, 1));
    let got = reached(&s, Kind::Navy, "egypt_mediterranean");
    assert!(got.contains("egypt_red_sea"));
    assert!(got.contains("east_africa_coast"));
}

#[test]
fn movement_passes_only_where_the_caller_allows() {
    let s = game();
    let from = r("iceland_coast");
    let gb = r("great_britain_coast");
    let sc = r("scandinavia_coast");
    let got: BTreeSet<RegionId> = s
        .reach(map(), 0, Kind::Navy, from, Allowance::FRESH, |x| {
            x != gb && x != sc
        })
        .into_iter()
        .map(|(x, _)| x)
        .collect();
    // Great Britain's coast is reached (it may be a destination) but not passed through, nor is
    // Scandinavia's, the other way round.
    assert!(got.contains(&gb));
    assert!(!got.contains(&r("western_europe_coast")));
}
