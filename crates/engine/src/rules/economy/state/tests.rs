use super::*;

fn map() -> &'static EconomyMap {
    EconomyMap::get()
}

fn r(k: &str) -> RegionId {
    map().region(k).unwrap_or_else(|| panic!("no region {k}"))
}

fn game() -> EconomyState {
    EconomyState::empty(map(), &["Ann", "Bob", "Cy"], EconomyOptions::default())
}

/// `p` owns `k` with `armies` armies there.
fn hold(s: &mut EconomyState, p: PlayerId, k: &str, armies: u32) {
    let x = &mut s.regions[r(k) as usize];
    x.owner = Some(p);
    if armies > 0 {
        x.forces.insert(p, Force { armies, navies: 0 });
    }
}

#[test]
fn income_counts_countries_roads_and_continents() {
    let mut s = game();
    for k in [
        "indonesia",
        "new_guinea",
        "western_australia",
        "eastern_australia",
        "siam",
    ] {
        hold(&mut s, 0, k, 1);
    }
    s.regions[r("siam") as usize].infra.roads = true;
    // Roads count only in countries the player owns.
    s.regions[r("peru") as usize].infra.roads = true;
    let i = s.income(map(), 0);
    assert_eq!((i.countries, i.roads, i.bonuses, i.total()), (5, 1, 10, 16));
    // Without the options, land alone.
    s.options.roads = false;
    s.options.continent_bonuses = false;
    assert_eq!(s.income(map(), 0).total(), 5);
    assert_eq!(s.income(map(), 1), Income::default());
}

#[test]
fn the_middle_east_as_its_own_continent() {
    let mut s = game();
    let asia: Vec<String> = {
        let m = map();
        let c = m
            .base
            .continents
            .iter()
            .position(|c| c.key == "asia")
            .unwrap();
        m.base.continents[c]
            .territories
            .iter()
            .map(|&t| m.base.territories[t as usize].key.clone())
            .collect()
    };
    for k in asia.iter().filter(|k| *k != "middle_east") {
        hold(&mut s, 0, k, 1);
    }
    assert_eq!(s.income(map(), 0).bonuses, 0, "Asia needs the Middle East");
    s.options.middle_east = true;
    assert_eq!(
        s.income(map(), 0).bonuses,
        20,
        "Asia without the Middle East"
    );
    hold(&mut s, 0, "middle_east", 1);
    assert_eq!(s.income(map(), 0).bonuses, 25);
    s.options.middle_east = false;
    assert_eq!(s.income(map(), 0).bonuses, 20);
}

#[test]
fn upkeep_over_five_units_and_ten_at_the_capital() {
    let mut s = game();
    hold(&mut s, 0, "brazil", 12);
    hold(&mut s, 0, "peru", 7);
    hold(&mut s, 0, "argentina", 5);
    hold(&mut s, 0, "venezuela", 9);
    s.players[0].capital = Some(r("brazil"));
    s.round = 3;
    s.regions[r("venezuela") as usize].conquered_in = Some(3);
    let u = s.upkeep(map(), 0);
    assert_eq!(
        u.iter()
            .map(|x| (x.country, x.units, x.due, x.linked))
            .collect::<Vec<_>>(),
        vec![(r("peru"), 7, 2, true), (r("brazil"), 12, 2, true)]
    );
    // Next round the conquest pays like any other country.
    s.round = 4;
    assert!(s
        .upkeep(map(), 0)
        .iter()
        .any(|x| x.country == r("venezuela") && x.due == 4));
}

#[test]
fn only_units_linked_to_the_capital_through_friendly_territory_can_pay() {
    let mut s = game();
    s.players[0].capital = Some(r("brazil"));
    hold(&mut s, 0, "brazil", 1);
    hold(&mut s, 0, "argentina", 8);
    hold(&mut s, 1, "peru", 1);
    hold(&mut s, 0, "venezuela", 1);
    hold(&mut s, 0, "central_america", 8);
    // Egypt is reached only by sea: Brazil's coast is not friendly.
    hold(&mut s, 0, "egypt", 8);
    let linked = s.linked(map(), 0);
    for k in ["brazil", "argentina", "venezuela", "central_america"] {
        assert!(linked[r(k) as usize], "{k}");
    }
    assert!(!linked[r("egypt") as usize]);
    assert!(!linked[r("peru") as usize]);
    // With Brazil's waters in hand the way by sea is friendly.
    for k in ["brazil_coast", "north_africa_coast", "egypt_mediterranean"] {
        hold(&mut s, 0, k, 0);
    }
    assert!(s.linked(map(), 0)[r("egypt") as usize]);
    let pay: Vec<(RegionId, bool)> = s
        .upkeep(map(), 0)
        .iter()
        .map(|x| (x.country, x.linked))
        .collect();
    assert!(pay.contains(&(r("egypt"), true)));
}

#[test]
fn contested_territory_is_linked_but_passes_no_link() {
    let mut s = game();
    s.players[0].capital = Some(r("brazil"));
    hold(&mut s, 0, "brazil", 1);
    hold(&mut s, 0, "venezuela", 3);
    s.regions[r("venezuela") as usize].forces.insert(
        1,
        Force {
            armies: 2,
            navies: 0,
        },
    );
    hold(&mut s, 0, "central_america", 8);
    assert!(s.contested(r("venezuela")));
    let linked = s.linked(map(), 0);
    assert!(linked[r("venezuela") as usize]);
    assert!(!linked[r("central_america") as usize]);
    // Allies are not hostile: their units do not contest, and their land passes the link.
    s.alliances.insert((0, 1));
    assert!(!s.contested(r("venezuela")));
    assert!(s.linked(map(), 0)[r("central_america") as usize]);
    // Neutral armies contest a country.
    s.regions[r("venezuela") as usize].neutral.armies = 1;
    assert!(s.contested(r("venezuela")));
}

#[test]
fn sieges_the_capitals_rule_and_players_without_a_capital() {
    let mut s = game();
    hold(&mut s, 0, "brazil", 1);
    hold(&mut s, 0, "argentina", 8);
    // No capital: nothing is linked.
    assert!(s.linked(map(), 0).iter().all(|&l| !l));
    s.players[0].capital = Some(r("brazil"));
    assert!(s.linked(map(), 0)[r("argentina") as usize]);
    s.regions[r("argentina") as usize].besieged = true;
    assert!(!s.linked(map(), 0)[r("argentina") as usize]);
    // A besieged capital links nothing at all.
    s.regions[r("argentina") as usize].besieged = false;
    s.regions[r("brazil") as usize].besieged = true;
    assert!(s.linked(map(), 0).iter().all(|&l| !l));
    // Without the capitals rule every unit can pay.
    s.options.capitals = false;
    assert!(s.linked(map(), 0).iter().all(|&l| l));
}

#[test]
fn the_state_round_trips_through_the_codec() {
    let mut s = game();
    hold(&mut s, 2, "japan", 4);
    s.regions[r("japan") as usize]
        .infra
        .navy_bases
        .push(r("japan_coast"));
    s.alliances.insert((0, 2));
    let bytes = crate::codec::encode(&s);
    let back: EconomyState = crate::codec::decode(&bytes).expect("decodes");
    assert_eq!(back, s);
}
