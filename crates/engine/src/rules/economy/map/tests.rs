use super::*;

const FILE: &str = include_str!("../../../../maps/economy.ron");

fn map() -> &'static EconomyMap {
    EconomyMap::get()
}

fn id(k: &str) -> RegionId {
    map().region(k).unwrap_or_else(|| panic!("no region {k}"))
}

fn keys(list: &[RegionId]) -> Vec<&str> {
    list.iter()
        .map(|&r| map().regions[r as usize].key.as_str())
        .collect()
}

#[test]
fn the_board_has_the_classic_countries_and_their_coasts() {
    let m = map();
    assert_eq!(m.countries(), 42);
    assert_eq!(m.regions.len(), 88, "42 countries and 46 water territories");
    assert!((0..42).all(|r| !m.is_water(r)));
    assert!((42..88).all(|r| m.is_water(r)));
    let bonus = |k: &str| m.bonuses[m.base.continents.iter().position(|c| c.key == k).unwrap()];
    assert_eq!(
        [
            "australia",
            "south_america",
            "africa",
            "north_america",
            "asia",
            "europe"
        ]
        .map(bonus),
        [10, 10, 15, 15, 20, 20]
    );
    assert_eq!(m.middle_east, (id("middle_east"), 5));
}

#[test]
fn dotted_lines_join_water_not_countries() {
    let m = map();
    for island in [
        "great_britain",
        "iceland",
        "greenland",
        "japan",
        "madagascar",
        "indonesia",
        "new_guinea",
    ] {
        assert!(
            m.regions[id(island) as usize].land.is_empty(),
            "{island} has land neighbours"
        );
    }
    assert_eq!(
        keys(&m.regions[id("brazil") as usize].land),
        ["venezuela", "peru", "argentina"]
    );
    assert_eq!(
        keys(&m.regions[id("brazil_coast") as usize].water),
        [
            "venezuela_caribbean",
            "argentina_coast",
            "north_africa_coast"
        ]
    );
    assert!(m.regions[id("alaska_coast") as usize]
        .water
        .contains(&id("kamchatka_coast")));
    assert!(!m.regions[id("alaska") as usize]
        .land
        .contains(&id("kamchatka")));
}

#[test]
fn coasts_follow_the_shorelines() {
    let m = map();
    for landlocked in ["irkutsk", "afghanistan"] {
        assert!(
            m.regions[id(landlocked) as usize].shore.is_empty(),
            "{landlocked}"
        );
    }
    let coasts = |k: &str| m.regions[id(k) as usize].shore.len();
    assert_eq!(coasts("ukraine"), 3);
    for k in ["central_america", "venezuela", "egypt", "middle_east"] {
        assert_eq!(coasts(k), 2, "{k}");
    }
    let single = (0..42u8)
        .filter(|&r| m.regions[r as usize].shore.len() == 1)
        .count();
    assert_eq!(single, 35);
    // The Mediterranean and the Indian Ocean meet only through a canal.
    assert!(!m.regions[id("egypt_mediterranean") as usize]
        .water
        .contains(&id("egypt_red_sea")));
    // Every water territory is reachable from every other over water alone.
    let mut seen = vec![false; m.regions.len()];
    let mut stack = vec![id("alaska_coast")];
    seen[stack[0] as usize] = true;
    while let Some(r) = stack.pop() {
        for &n in &m.regions[r as usize].water {
            if !std::mem::replace(&mut seen[n as usize], true) {
                stack.push(n);
            }
        }
    }
    assert!((42..88).all(|r| seen[r]));
}

#[test]
fn adjacency_is_symmetric() {
    let m = map();
    for (i, r) in m.regions.iter().enumerate() {
        let i = i as RegionId;
        for &n in &r.land {
            assert!(m.regions[n as usize].land.contains(&i));
        }
        for &n in &r.shore {
            assert!(m.regions[n as usize].shore.contains(&i));
            assert_ne!(m.is_water(i), m.is_water(n), "a shore joins land and water");
        }
        for &n in &r.water {
            assert!(m.regions[n as usize].water.contains(&i));
        }
    }
}

#[test]
fn canals_in_egypt_and_central_america() {
    let m = map();
    let egypt = m.canal_site(id("egypt")).expect("a canal site in Egypt");
    assert_eq!(
        egypt.joins,
        (id("egypt_mediterranean"), id("egypt_red_sea"))
    );
    let ca = m
        .canal_site(id("central_america"))
        .expect("a canal site in Central America");
    assert_eq!(
        ca.joins,
        (
            id("central_america_pacific"),
            id("central_america_caribbean")
        )
    );
    assert_eq!(m.canals.len(), 2);
    assert_eq!(m.canal_site(id("brazil")), None);
}

fn rejects(edit: impl Fn(&str) -> String) -> EconomyMapError {
    let text = edit(FILE);
    assert_ne!(text, FILE, "the edit must change the file");
    EconomyMap::from_ron(&text).expect_err("the edited map must be rejected")
}

#[test]
fn bad_files_are_rejected_with_a_reason() {
    assert!(EconomyMap::from_ron(FILE).is_ok());
    use EconomyMapError as E;
    assert_eq!(
        rejects(|f| f.replace("        (\"brazil_coast\", \"north_africa_coast\"),\n", "")),
        E::MissingDottedLine("Brazil".into(), "North Africa".into())
    );
    assert_eq!(
        rejects(|f| {
            f.replace(
            "        (\"mongolia_coast\", \"japan_coast\"),",
            "        (\"mongolia_coast\", \"japan_coast\"),\n        (\"alaska_coast\", \"japan_coast\"),"
        )
        }),
        E::CoastsApart("alaska_coast".into(), "japan_coast".into())
    );
    assert_eq!(
        rejects(|f| f.replace(
            "(country: \"egypt\", joins: (\"egypt_mediterranean\", \"egypt_red_sea\"))",
            "(country: \"brazil\", joins: (\"brazil_coast\", \"argentina_coast\"))"
        )),
        E::BadCanal("brazil".into())
    );
    assert_eq!(
        rejects(|f| f.replace("coast_of: \"japan\"", "coast_of: \"atlantis\"")),
        E::UnknownCountry("atlantis".into())
    );
    assert_eq!(
        rejects(|f| f.replace(
            "(\"siam_coast\", \"india_coast\")",
            "(\"siam_coast\", \"india_waters\")"
        )),
        E::UnknownWater("india_waters".into())
    );
    assert_eq!(
        rejects(|f| f.replace("        (\"australia\", 10),\n", "")),
        E::MissingBonus("australia".into())
    );
    assert_eq!(
        rejects(|f| f.replace("id: \"peru_coast\"", "id: \"brazil_coast\"")),
        E::Duplicate("brazil_coast".into())
    );
    assert_eq!(
        rejects(|f| {
            f.replace(
            "(\"peru_coast\", \"argentina_coast\"),",
            "(\"peru_coast\", \"argentina_coast\"),\n        (\"argentina_coast\", \"peru_coast\"),"
        )
        }),
        E::DuplicateLink("argentina_coast".into(), "peru_coast".into())
    );
    assert_eq!(
        rejects(|f| f.replace("base: \"classic\"", "base: \"mars\"")),
        E::UnknownBase("mars".into())
    );
    assert!(matches!(
        rejects(|f| f.replace("waters: [", "waters: {")),
        E::Parse(_)
    ));
}

#[test]
fn an_island_without_its_dotted_lines_is_rejected() {
    // Madagascar's coast touches the rest of the sea only through its two dotted lines.
    let text = FILE
        .replace(
            "        (\"east_africa_coast\", \"madagascar_coast\"),\n",
            "",
        )
        .replace(
            "        (\"south_africa_coast\", \"madagascar_coast\"),\n",
            "",
        );
    assert_eq!(
        EconomyMap::from_ron(&text).expect_err("rejected"),
        EconomyMapError::MissingDottedLine("East Africa".into(), "Madagascar".into())
    );
}
