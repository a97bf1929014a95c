//! The built-in maps load as drawn, and broken maps are refused with their reason.
use super::*;

#[test]
fn europe_is_the_standard_board() {
    let m = OrdersMap::europe();
    assert_eq!(m.len(), 75);
    let count = |k| m.provinces.iter().filter(|p| p.kind == k).count();
    assert_eq!(count(ProvinceKind::Sea), 19);
    assert_eq!(count(ProvinceKind::Land), 14);
    assert_eq!(count(ProvinceKind::Coast), 42);
    assert_eq!(m.centres().count(), 34);
    assert_eq!(m.provinces.iter().filter(|p| p.home.is_some()).count(), 42);
    let homes: usize = (0..7).map(|p| m.homes(p).count()).sum();
    assert_eq!(homes, 22);
    let russia: Vec<&str> = m
        .home_territory(5)
        .map(|p| m.provinces[p as usize].key.as_str())
        .collect();
    assert_eq!(russia, ["FIN", "LVN", "MOS", "SEV", "STP", "UKR", "WAR"]);
    assert_eq!(m.victory, 18);
    let keys: Vec<&str> = m.powers.iter().map(|p| p.key.as_str()).collect();
    assert_eq!(
        keys,
        ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"]
    );
    let units: usize = m.powers.iter().map(|p| p.start.len()).sum();
    assert_eq!(units, 22);
    let two_coasts: Vec<&str> = m
        .provinces
        .iter()
        .filter(|p| p.coasts.len() == 2)
        .map(|p| p.key.as_str())
        .collect();
    assert_eq!(two_coasts, ["BUL", "SPA", "STP"]);
    let l = |s| m.parse_loc(s).unwrap();
    assert!(m.can_move(UnitType::Fleet, l("MAO"), l("SPA/NC")));
    assert!(!m.can_move(UnitType::Fleet, l("MAO"), l("SPA")));
    assert!(!m.can_move(UnitType::Fleet, l("GAS"), l("SPA/SC")));
    assert!(!m.can_move(UnitType::Fleet, l("ROM"), l("VEN")));
    assert!(m.can_move(UnitType::Army, l("ROM"), l("VEN")));
    assert!(!m.can_move(UnitType::Army, l("LVP"), l("IRI")));
    assert!(m.can_move(UnitType::Fleet, l("CON"), l("BUL/EC")));
    assert!(m.can_reach(UnitType::Fleet, l("MAR"), l("SPA").province));
    assert!(m.touches(l("NTH").province, l("LON").province));
    assert_eq!(m.loc_name(l("stp(sc)")), "STP/SC");
    assert_eq!(m.parse_loc("PAR/NC"), None);
    assert_eq!(m.parse_loc("XYZ"), None);
}

#[test]
fn world_is_the_classic_board_with_seas() {
    let m = OrdersMap::get("world").unwrap();
    let count = |k| m.provinces.iter().filter(|p| p.kind == k).count();
    assert_eq!(count(ProvinceKind::Sea), 18);
    assert_eq!(count(ProvinceKind::Land) + count(ProvinceKind::Coast), 42);
    assert_eq!(m.centres().count(), 30);
    assert_eq!(m.powers.len(), 6);
    for n in 2..=6u8 {
        let p = m.powers_for(n).unwrap();
        assert_eq!(p.len(), n as usize);
        for &pw in &p {
            assert_eq!(m.homes(pw).count(), 3);
            assert_eq!(m.powers[pw as usize].start.len(), 3);
        }
    }
    assert_eq!(m.powers_for(7), None);
    let l = |s| m.parse_loc(s).unwrap();
    // The classic sea lanes are seas here: armies need a convoy, fleets sail.
    assert!(!m.can_move(UnitType::Army, l("BRA"), l("NAF")));
    assert!(m.can_move(UnitType::Fleet, l("BRA"), l("SAT")));
    assert!(m.can_move(UnitType::Fleet, l("SAT"), l("NAF")));
    assert!(m.can_move(UnitType::Army, l("ALA"), l("NWT")));
    assert!(m.provinces[l("GBR").province as usize].army.is_empty());
    assert_eq!(OrdersMap::europe().powers_for(7).map(|p| p.len()), Some(7));
    assert_eq!(OrdersMap::europe().powers_for(2), None);
}

const TINY: &str = r#"(id: "t", name: "T", victory: 1,
    powers: [(id: "P", name: "P", start: ["A AAA"])],
    provinces: [
      (id: "AAA", name: "A", kind: Coast, centre: true, home: "P", army: ["BBB"], fleet: ["SEA"]),
      (id: "BBB", name: "B", kind: Coast, army: ["AAA"], fleet: ["SEA"]),
      (id: "SEA", name: "S", kind: Sea, fleet: ["AAA", "BBB"]),
    ])"#;

#[test]
fn build_time_conversion_matches_the_ron_source() {
    for (id, text) in [
        (
            "europe-1901",
            include_str!("../../../../maps/europe-1901.ron"),
        ),
        ("world", include_str!("../../../../maps/world.ron")),
    ] {
        let from_text = OrdersMap::from_ron(text).unwrap();
        assert_eq!(
            format!("{from_text:?}"),
            format!("{:?}", OrdersMap::get(id).unwrap())
        );
    }
    assert!(OrdersMap::from_bytes(&[0xff; 4]).is_err());
}

#[test]
fn validation_rejects_broken_maps() {
    assert!(OrdersMap::from_ron(TINY).is_ok());
    let asym = TINY.replace(r#"fleet: ["AAA", "BBB"]"#, r#"fleet: ["AAA"]"#);
    assert!(matches!(
        OrdersMap::from_ron(&asym),
        Err(OrdersMapError::Asymmetric { unit: "fleet", .. })
    ));
    let army_asym = TINY.replace(r#"army: ["AAA"]"#, r#"army: ["AAA", "SEA"]"#);
    assert!(matches!(
        OrdersMap::from_ron(&army_asym),
        Err(OrdersMapError::Asymmetric { unit: "army", .. })
    ));
    let unknown = TINY.replace(r#"army: ["BBB"]"#, r#"army: ["ZZZ"]"#);
    assert!(matches!(
        OrdersMap::from_ron(&unknown),
        Err(OrdersMapError::UnknownProvince { .. })
    ));
    let sea_centre = TINY.replace(r#"kind: Sea,"#, r#"kind: Sea, centre: true,"#);
    assert!(matches!(
        OrdersMap::from_ron(&sea_centre),
        Err(OrdersMapError::CentreAtSea(_))
    ));
    let home = TINY.replace(r#"kind: Sea,"#, r#"kind: Sea, home: "P","#);
    assert!(matches!(
        OrdersMap::from_ron(&home),
        Err(OrdersMapError::HomeAtSea(_))
    ));
    let bad_coast = TINY.replace(r#"fleet: ["AAA", "BBB"]"#, r#"fleet: ["AAA", "BBB/NC"]"#);
    assert!(matches!(
        OrdersMap::from_ron(&bad_coast),
        Err(OrdersMapError::BadCoast { .. })
    ));
    let bad_start = TINY.replace(r#"["A AAA"]"#, r#"["A SEA"]"#);
    assert!(matches!(
        OrdersMap::from_ron(&bad_start),
        Err(OrdersMapError::BadStart { .. })
    ));
    let kind = TINY.replace(r#"kind: Sea, fleet"#, r#"kind: Land, fleet"#);
    assert!(matches!(
        OrdersMap::from_ron(&kind),
        Err(OrdersMapError::WrongKind(_))
    ));
    let victory = TINY.replace("victory: 1", "victory: 9");
    assert!(matches!(
        OrdersMap::from_ron(&victory),
        Err(OrdersMapError::Victory(9))
    ));
    assert!(matches!(
        OrdersMap::from_ron("nope"),
        Err(OrdersMapError::Parse(_))
    ));
}

#[test]
fn neighbours_join_army_and_every_coast_s_fleet_moves() {
    let m = OrdersMap::europe();
    let keys = |k: &str| -> Vec<&str> {
        let p = m.province(k).unwrap();
        m.neighbours(p).into_iter().map(|n| m.key(n)).collect()
    };
    // St Petersburg: land borders, the north coast's Barents Sea, the south coast's gulf.
    let mut stp = keys("stp");
    stp.sort_unstable();
    assert_eq!(stp, ["BAR", "BOT", "FIN", "LVN", "MOS", "NWY"]);
    // A sea: only fleet moves; an inland province: only army moves.
    assert!(keys("mao").contains(&"SPA"));
    assert!(!keys("mun")
        .iter()
        .any(|k| m.provinces[m.province(k).unwrap() as usize].kind == ProvinceKind::Sea));
}
