use super::super::action::EconomyAction as A;
use super::*;
use std::collections::BTreeSet;

fn map() -> &'static EconomyMap {
    EconomyMap::get()
}

fn r(k: &str) -> RegionId {
    map().region(k).unwrap_or_else(|| panic!("no region {k}"))
}

fn continent(k: &str) -> ContinentId {
    map()
        .base
        .continents
        .iter()
        .position(|c| c.key == k)
        .unwrap() as ContinentId
}

fn new_game(n: usize, setup: Setup, seed: u8) -> EconomyState {
    let names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"];
    let options = EconomyOptions {
        setup,
        ..EconomyOptions::default()
    };
    EconomyState::new(&names[..n], options, [seed; 32])
        .unwrap()
        .0
}

fn pick(s: &mut EconomyState, choice: SetupAction) -> Result<Vec<EconomyEvent>, EconomyError> {
    let Phase::Pick(p) = s.phase else {
        panic!("not picking: {:?}", s.phase)
    };
    s.apply(&A::Setup { player: p, choice })
}

fn owned(s: &EconomyState, p: PlayerId) -> Vec<RegionId> {
    (0..map().countries() as RegionId)
        .filter(|&c| s.regions[c as usize].owner == Some(p))
        .collect()
}

#[test]
fn two_to_six_players() {
    for n in [0, 1, 7] {
        let names = vec!["X"; n];
        assert_eq!(
            EconomyState::new(&names, EconomyOptions::default(), [0; 32]).err(),
            Some(EconomyError::PlayerCount(n as u32))
        );
    }
}

#[test]
fn european_capitals_come_fully_built_and_the_first_round_begins() {
    let mut s = new_game(3, Setup::EuropeanCapitals, 1);
    let first = s.initiative.unwrap();
    assert_eq!(s.phase, Phase::Pick(first));
    // Not Iceland (excluded by default), not Egypt, not someone else's turn.
    assert_eq!(
        pick(&mut s, SetupAction::Country(r("iceland"))),
        Err(EconomyError::CountryNotOpen(r("iceland")))
    );
    assert_eq!(
        pick(&mut s, SetupAction::Country(r("egypt"))),
        Err(EconomyError::CountryNotOpen(r("egypt")))
    );
    assert_eq!(
        pick(&mut s, SetupAction::Continent(0)),
        Err(EconomyError::WrongPick)
    );
    let other = (first + 1) % 3;
    assert_eq!(
        s.apply(&A::Setup {
            player: other,
            choice: SetupAction::Country(r("ukraine"))
        }),
        Err(EconomyError::NotYourPick(first))
    );
    pick(&mut s, SetupAction::Country(r("ukraine"))).unwrap();
    assert_eq!(s.phase, Phase::Pick(other));
    assert_eq!(
        pick(&mut s, SetupAction::Country(r("ukraine"))),
        Err(EconomyError::CountryNotOpen(r("ukraine")))
    );
    pick(&mut s, SetupAction::Country(r("great_britain"))).unwrap();
    let ev = pick(&mut s, SetupAction::Country(r("western_europe"))).unwrap();
    assert!(ev.contains(&EconomyEvent::RoundBegan { round: 1 }));
    assert_eq!(s.phase, Phase::Get);
    let uk = &s.regions[r("ukraine") as usize];
    assert_eq!(
        uk.forces[&first],
        Force {
            armies: 5,
            navies: 0
        }
    );
    assert!(uk.infra.roads && uk.infra.fortifications && uk.infra.army_bases == 2);
    assert_eq!(s.players[first as usize].capital, Some(r("ukraine")));
    // 50 MU, then income: 1 country and 1 road.
    assert_eq!(s.players[first as usize].mu, 52);
    // Every other country holds one neutral army.
    assert_eq!(s.regions[r("egypt") as usize].neutral.armies, 1);
    assert_eq!(s.regions[r("ukraine") as usize].neutral.armies, 0);
}

#[test]
fn random_european_capitals_need_no_picks() {
    let options = EconomyOptions {
        random_picks: true,
        neutrals: false,
        ..EconomyOptions::default()
    };
    let (s, _) =
        EconomyState::new(&["Ann", "Bob", "Cy", "Di", "Ed", "Flo"], options, [4; 32]).unwrap();
    assert_eq!(s.phase, Phase::Get);
    let capitals: BTreeSet<RegionId> = s.players.iter().map(|p| p.capital.unwrap()).collect();
    assert_eq!(capitals.len(), 6);
    assert!(!capitals.contains(&r("iceland")));
    assert_eq!(s.regions[r("egypt") as usize].neutral.armies, 0);
}

#[test]
fn a_continent_each_then_the_standard_start() {
    let mut s = new_game(2, Setup::Continents, 2);
    let first = s.initiative.unwrap();
    pick(&mut s, SetupAction::Continent(continent("australia"))).unwrap();
    assert_eq!(
        pick(&mut s, SetupAction::Continent(continent("australia"))),
        Err(EconomyError::ContinentNotOpen(continent("australia")))
    );
    let ev = pick(&mut s, SetupAction::Continent(continent("south_america"))).unwrap();
    assert_eq!(ev.last(), Some(&EconomyEvent::PlacingBegan));
    assert_eq!(s.phase, Phase::Place);
    assert_eq!(owned(&s, first).len(), 4);
    let second = 1 - first;
    let place = |capital: &str, bases: [&str; 2], armies: Vec<(&str, u32)>| SetupAction::Place {
        capital: Some(r(capital)),
        bases: bases.iter().map(|b| r(b)).collect(),
        armies: armies.into_iter().map(|(k, n)| (r(k), n)).collect(),
    };
    let act = |s: &mut EconomyState, player, choice| s.apply(&A::Setup { player, choice });
    // Only in one's own countries, exactly 20 armies, two bases.
    assert_eq!(
        act(
            &mut s,
            first,
            place(
                "brazil",
                ["indonesia", "indonesia"],
                vec![("indonesia", 20)]
            )
        ),
        Err(EconomyError::NotYours(r("brazil")))
    );
    assert_eq!(
        act(
            &mut s,
            first,
            place("indonesia", ["indonesia", "siam"], vec![("indonesia", 20)])
        ),
        Err(EconomyError::NotYours(r("siam")))
    );
    assert_eq!(
        act(
            &mut s,
            first,
            place(
                "indonesia",
                ["indonesia", "indonesia"],
                vec![("indonesia", 19)]
            )
        ),
        Err(EconomyError::PlaceArmies {
            placed: 19,
            want: 20
        })
    );
    assert_eq!(
        act(
            &mut s,
            first,
            SetupAction::Place {
                capital: Some(r("indonesia")),
                bases: vec![r("indonesia")],
                armies: vec![(r("indonesia"), 20)]
            }
        ),
        Err(EconomyError::ChooseBases(2))
    );
    act(
        &mut s,
        first,
        place(
            "indonesia",
            ["indonesia", "new_guinea"],
            vec![("indonesia", 12), ("new_guinea", 8)],
        ),
    )
    .unwrap();
    assert_eq!(
        act(
            &mut s,
            first,
            place(
                "indonesia",
                ["indonesia", "indonesia"],
                vec![("indonesia", 20)]
            )
        ),
        Err(EconomyError::AlreadyDone)
    );
    let ev = act(
        &mut s,
        second,
        place("brazil", ["brazil", "brazil"], vec![("brazil", 20)]),
    )
    .unwrap();
    assert!(ev.contains(&EconomyEvent::RoundBegan { round: 1 }));
    // Australia pays its bonus at once: 4 countries + 10, and upkeep at 12 armies in the capital.
    assert_eq!(s.players[first as usize].mu, 50 + 4 + 10);
    assert_eq!(s.regions[r("brazil") as usize].infra.army_bases, 2);
    let due: Vec<u32> = s.get[second as usize].owed.iter().map(|u| u.due).collect();
    assert_eq!(due, vec![10]);
}

#[test]
fn the_cards_share_the_countries_evenly() {
    for n in 2..=6 {
        let s = new_game(n, Setup::Cards, n as u8);
        assert_eq!(s.phase, Phase::Place);
        let each = 42 / n;
        for p in 0..n as PlayerId {
            assert_eq!(owned(&s, p).len(), each, "{n} players");
        }
        let neutral = (0..42)
            .filter(|&c| s.regions[c].neutral.armies == 1)
            .count();
        assert_eq!(neutral, 42 - each * n);
    }
}

#[test]
fn the_draft_goes_round_with_the_last_picker_first() {
    let mut s = new_game(3, Setup::Draft, 3);
    let first = s.initiative.unwrap();
    let mut order = vec![];
    let mut k = 0;
    while let Phase::Pick(p) = s.phase {
        order.push(p);
        let c = (0..42u8)
            .find(|&c| s.regions[c as usize].owner.is_none())
            .unwrap();
        pick(&mut s, SetupAction::Country(c)).unwrap();
        k += 1;
    }
    assert_eq!(k, 42);
    let (a, b, c) = (first, (first + 1) % 3, (first + 2) % 3);
    // 42 countries share out evenly among three: no remainder.
    assert_eq!(&order[..9], &[a, b, c, c, a, b, b, c, a]);
    assert_eq!(s.phase, Phase::Place);
    assert!((0..3).all(|p| owned(&s, p).len() == 14));
}

#[test]
fn the_same_seed_gives_the_same_game() {
    let a = new_game(4, Setup::Cards, 9);
    let b = new_game(4, Setup::Cards, 9);
    let c = new_game(4, Setup::Cards, 10);
    assert_eq!(a, b);
    assert_ne!(a.regions, c.regions);
}

/// Source 004, the draft: "Repeat until there are no countries remaining. If there is a
/// remainder, those countries are unoccupied." Four players get 10 countries each; the last 2
/// stay unoccupied (with a neutral army by default), not 10/10/11/11.
#[test]
fn the_drafts_remainder_stays_unoccupied() {
    for n in [4usize, 5] {
        let mut s = new_game(n, Setup::Draft, 5);
        let mut k = 0;
        while let Phase::Pick(_) = s.phase {
            let c = (0..42u8)
                .find(|&c| s.regions[c as usize].owner.is_none())
                .unwrap();
            pick(&mut s, SetupAction::Country(c)).unwrap();
            k += 1;
        }
        let each = 42 / n;
        assert_eq!(k, each * n);
        assert_eq!(s.phase, Phase::Place);
        assert!((0..n as PlayerId).all(|p| owned(&s, p).len() == each));
        let unoccupied: Vec<usize> = (0..42).filter(|&c| s.regions[c].owner.is_none()).collect();
        assert_eq!(unoccupied.len(), 42 - each * n);
        assert!(unoccupied.iter().all(|&c| s.regions[c].neutral.armies == 1));
    }
}
