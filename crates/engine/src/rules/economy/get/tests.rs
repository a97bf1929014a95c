use super::super::action::EconomyAction as A;
use super::super::options::EconomyOptions;
use super::super::state::Blockade;
use super::*;

fn map() -> &'static EconomyMap {
    EconomyMap::get()
}

fn r(k: &str) -> RegionId {
    map().region(k).unwrap_or_else(|| panic!("no region {k}"))
}

/// Ann (0) has 12 armies in Western Europe, her capital, and 8 in Southern Europe; Bob (1) has 3
/// in Egypt, his capital. Both have 20 MU before income. Nobody owns anything until a round begins.
fn game() -> EconomyState {
    game_of(&["Ann", "Bob"])
}

fn game_of(names: &[&str]) -> EconomyState {
    let mut s = EconomyState::empty(map(), names, EconomyOptions::default());
    place(&mut s, 0, "western_europe", 12);
    place(&mut s, 0, "southern_europe", 8);
    place(&mut s, 1, "egypt", 3);
    s.players[0].capital = Some(r("western_europe"));
    s.players[1].capital = Some(r("egypt"));
    for p in &mut s.players {
        p.mu = 20;
    }
    s
}

fn place(s: &mut EconomyState, p: PlayerId, k: &str, armies: u32) {
    s.regions[r(k) as usize]
        .forces
        .insert(p, Force { armies, navies: 0 });
}

fn begun(mut s: EconomyState) -> EconomyState {
    s.begin_round(map());
    s
}

fn armies(s: &EconomyState, p: PlayerId, k: &str) -> u32 {
    s.regions[r(k) as usize]
        .forces
        .get(&p)
        .map_or(0, |f| f.armies)
}

/// Applies `a`, asserting it is refused with `e` and leaves the state untouched.
fn refused(s: &mut EconomyState, a: A, e: EconomyError) {
    let before = s.clone();
    assert_eq!(s.apply(&a), Err(e));
    assert_eq!(*s, before);
}

#[test]
fn a_round_begins_with_ownership_income_and_upkeep() {
    let s = game();
    let mut s2 = s.clone();
    let events = s2.begin_round(map());
    assert!(events.contains(&EconomyEvent::Gained {
        player: 0,
        region: r("western_europe")
    }));
    assert_eq!(s2.regions[r("egypt") as usize].owner, Some(1));
    // Ann: 2 countries; Bob: 1. No continent.
    assert_eq!(s2.players[0].mu, 22);
    assert_eq!(s2.players[1].mu, 21);
    // Ann owes 3 in Southern Europe (8 − 5) and nothing at her capital (12 − 10 = 2 due there).
    let owed: Vec<(RegionId, u32)> = s2.get[0].owed.iter().map(|u| (u.country, u.due)).collect();
    assert_eq!(
        owed,
        vec![(r("western_europe"), 2), (r("southern_europe"), 3)]
    );
    assert!(!s2.get[0].settled);
    // Bob owes nothing, so his upkeep is settled already.
    assert!(s2.get[1].settled);
    // Gaining a country from nobody exempts nothing.
    assert_eq!(s2.regions[r("southern_europe") as usize].conquered_in, None);
}

#[test]
fn a_country_taken_from_an_enemy_pays_no_upkeep_that_round() {
    let mut s = game();
    let se = r("southern_europe") as usize;
    s.regions[se].lost_by = Some(1);
    let s = begun(s);
    assert_eq!(s.regions[se].conquered_in, Some(1));
    assert!(s.get[0].owed.iter().all(|u| u.country != se as RegionId));
    // From an ally it is not a conquest.
    let mut t = game();
    t.alliances.insert((0, 1));
    t.regions[se].lost_by = Some(1);
    let t = begun(t);
    assert_eq!(t.regions[se].conquered_in, None);
}

#[test]
fn upkeep_is_paid_or_units_are_lost() {
    let mut s = begun(game());
    // Recruiting waits for the upkeep.
    refused(
        &mut s,
        A::Recruit {
            player: 0,
            country: r("western_europe"),
            navy_into: None,
            count: 1,
        },
        EconomyError::UpkeepFirst,
    );
    refused(
        &mut s,
        A::FinishGet { player: 0 },
        EconomyError::UpkeepFirst,
    );
    // Too many losses, losses that are not there, a country that owes nothing.
    refused(
        &mut s,
        A::SettleUpkeep {
            player: 0,
            losses: vec![(
                r("southern_europe"),
                Force {
                    armies: 4,
                    navies: 0,
                },
            )],
        },
        EconomyError::TooManyLosses {
            country: r("southern_europe"),
            due: 3,
        },
    );
    refused(
        &mut s,
        A::SettleUpkeep {
            player: 0,
            losses: vec![(
                r("southern_europe"),
                Force {
                    armies: 0,
                    navies: 1,
                },
            )],
        },
        EconomyError::NotThere(r("southern_europe")),
    );
    refused(
        &mut s,
        A::SettleUpkeep {
            player: 0,
            losses: vec![(r("egypt"), Force::default())],
        },
        EconomyError::NoUpkeepThere(r("egypt")),
    );
    // Pay 2 at the capital, give up 1 of the 3 in Southern Europe and pay 2 there.
    let ev = s
        .apply(&A::SettleUpkeep {
            player: 0,
            losses: vec![(
                r("southern_europe"),
                Force {
                    armies: 1,
                    navies: 0,
                },
            )],
        })
        .unwrap();
    assert_eq!(
        ev,
        vec![EconomyEvent::UpkeepSettled {
            player: 0,
            paid: 4,
            lost: vec![(
                r("southern_europe"),
                Force {
                    armies: 1,
                    navies: 0
                }
            )],
        }]
    );
    assert_eq!(s.players[0].mu, 22 - 4);
    assert_eq!(armies(&s, 0, "southern_europe"), 7);
    refused(
        &mut s,
        A::SettleUpkeep {
            player: 0,
            losses: vec![],
        },
        EconomyError::UpkeepAlreadySettled,
    );
}

#[test]
fn upkeep_cannot_be_paid_beyond_the_money() {
    let mut s = game();
    s.players[0].mu = 0;
    let mut s = begun(s);
    // 2 MU of income against 5 owed.
    refused(
        &mut s,
        A::SettleUpkeep {
            player: 0,
            losses: vec![],
        },
        EconomyError::CannotAfford { cost: 5, have: 2 },
    );
    // The plain settlement pays what it can, in map order, and gives up the rest.
    let plain = s.plain_settlement(0);
    assert_eq!(
        plain,
        vec![(
            r("southern_europe"),
            Force {
                armies: 3,
                navies: 0
            }
        )]
    );
    s.apply(&A::SettleUpkeep {
        player: 0,
        losses: plain,
    })
    .unwrap();
    assert_eq!(s.players[0].mu, 0);
    assert_eq!(armies(&s, 0, "southern_europe"), 5);
}

#[test]
fn units_cut_off_from_the_capital_cannot_be_paid_for() {
    let mut s = game();
    // Ann's capital moves to Brazil, which no friendly territory links to Europe.
    place(&mut s, 0, "brazil", 1);
    s.players[0].capital = Some(r("brazil"));
    let mut s = begun(s);
    // Western Europe is no longer the capital: 7 due there, 3 in Southern Europe, both cut off.
    refused(
        &mut s,
        A::SettleUpkeep {
            player: 0,
            losses: vec![(
                r("southern_europe"),
                Force {
                    armies: 3,
                    navies: 0,
                },
            )],
        },
        EconomyError::Unlinked(r("western_europe")),
    );
    let plain = s.plain_settlement(0);
    assert_eq!(
        plain,
        vec![
            (
                r("western_europe"),
                Force {
                    armies: 7,
                    navies: 0
                }
            ),
            (
                r("southern_europe"),
                Force {
                    armies: 3,
                    navies: 0
                }
            )
        ]
    );
    s.apply(&A::SettleUpkeep {
        player: 0,
        losses: plain,
    })
    .unwrap();
    assert_eq!(armies(&s, 0, "western_europe"), 5);
}

fn settled(mut s: EconomyState) -> EconomyState {
    for p in 0..s.players.len() as PlayerId {
        if !s.get[p as usize].settled {
            let losses = s.plain_settlement(p);
            s.apply(&A::SettleUpkeep { player: p, losses }).unwrap();
        }
    }
    s
}

#[test]
fn recruiting_costs_five_at_a_base_and_ten_beyond() {
    let mut s = game();
    s.regions[r("egypt") as usize].infra.army_bases = 2;
    s.players[1].mu = 40;
    let mut s = settled(begun(s));
    // 41 MU: two at the bases (10) and three more at 10 each (30).
    let ev = s
        .apply(&A::Recruit {
            player: 1,
            country: r("egypt"),
            navy_into: None,
            count: 5,
        })
        .unwrap();
    assert_eq!(
        ev,
        vec![EconomyEvent::Recruited {
            player: 1,
            region: r("egypt"),
            navies: false,
            count: 5,
            cost: 40
        }]
    );
    assert_eq!(s.players[1].mu, 1);
    assert_eq!(armies(&s, 1, "egypt"), 8);
    // The bases' capacity is spent for the round.
    assert_eq!(s.recruit_cost(1, BaseKey::Army(r("egypt")), 1), (10, 0));
    // Not in a country one does not own, not at sea, not zero.
    s.players[1].mu = 100;
    refused(
        &mut s,
        A::Recruit {
            player: 1,
            country: r("western_europe"),
            navy_into: None,
            count: 1,
        },
        EconomyError::NotYours(r("western_europe")),
    );
    refused(
        &mut s,
        A::Recruit {
            player: 1,
            country: r("egypt_red_sea"),
            navy_into: None,
            count: 1,
        },
        EconomyError::NotACountry(r("egypt_red_sea")),
    );
    refused(
        &mut s,
        A::Recruit {
            player: 1,
            country: r("egypt"),
            navy_into: None,
            count: 0,
        },
        EconomyError::ZeroUnits,
    );
    // Without the bases rule, every unit costs 5.
    let mut t = game();
    t.options.bases = false;
    let t = settled(begun(t));
    assert_eq!(t.recruit_cost(1, BaseKey::Army(r("egypt")), 3), (15, 0));
}

#[test]
fn a_base_recruits_nothing_the_round_it_is_built() {
    let mut s = game();
    s.players[1].mu = 60;
    let mut s = settled(begun(s));
    s.apply(&A::Build {
        player: 1,
        country: r("egypt"),
        item: Item::ArmyBase,
    })
    .unwrap();
    assert_eq!(s.recruit_cost(1, BaseKey::Army(r("egypt")), 1), (10, 0));
    // Next round it does.
    s.get[0].done = true;
    s.apply(&A::FinishGet { player: 1 }).unwrap();
    s.begin_round(map());
    assert_eq!(s.recruit_cost(1, BaseKey::Army(r("egypt")), 2), (15, 1));
}

#[test]
fn recruit_max_is_the_most_the_mu_pay_for() {
    let mut s = settled(begun(game()));
    let key = BaseKey::Army(r("egypt"));
    // No base, then two army bases (two at the base price, the rest dearer).
    for bases in [0, 2] {
        s.regions[r("egypt") as usize].infra.army_bases = bases;
        for mu in [0, 4, 5, 9, 10, 14, 15, 24, 25, 110] {
            s.players[1].mu = mu;
            let n = s.recruit_max(1, key);
            assert!(s.recruit_cost(1, key, n).0 <= mu, "{mu} MU pay for {n}");
            assert!(
                s.recruit_cost(1, key, n + 1).0 > mu,
                "{mu} MU pay for no more than {n}"
            );
        }
    }
    s.players[1].mu = 0;
    assert_eq!(s.recruit_max(1, key), 0);
}

#[test]
fn navies_go_to_a_coast_friendly_or_contested_or_from_a_navy_base() {
    let mut s = game();
    s.players[1].mu = 100;
    let mut s = settled(begun(s));
    let med = r("egypt_mediterranean");
    let red = r("egypt_red_sea");
    // Nobody owns the Red Sea coast: no navy goes there without a base.
    refused(
        &mut s,
        A::Recruit {
            player: 1,
            country: r("egypt"),
            navy_into: Some(red),
            count: 1,
        },
        EconomyError::HostileWater(red),
    );
    // Not a coast of Egypt.
    let far = r("brazil_coast");
    refused(
        &mut s,
        A::Recruit {
            player: 1,
            country: r("egypt"),
            navy_into: Some(far),
            count: 1,
        },
        EconomyError::NotACoast {
            country: r("egypt"),
            water: far,
        },
    );
    // Once Bob owns the Mediterranean coast, navies go there at 10 MU.
    s.regions[med as usize].owner = Some(1);
    s.apply(&A::Recruit {
        player: 1,
        country: r("egypt"),
        navy_into: Some(med),
        count: 1,
    })
    .unwrap();
    assert_eq!(s.regions[med as usize].forces[&1].navies, 1);
    assert_eq!(s.players[1].mu, 100 + 1 - 10);
}

#[test]
fn a_navy_base_recruits_into_its_water_unless_blockaded() {
    let mut s = game();
    let red = r("egypt_red_sea");
    s.regions[r("egypt") as usize].infra.navy_bases = vec![red];
    s.players[1].mu = 100;
    let mut s = settled(begun(s));
    let mut t = s.clone();
    // The base recruits one navy at 5 into water nobody owns.
    s.apply(&A::Recruit {
        player: 1,
        country: r("egypt"),
        navy_into: Some(red),
        count: 1,
    })
    .unwrap();
    assert_eq!(s.players[1].mu, 101 - 5);
    // A second would cost 10, and needs friendly or contested water.
    refused(
        &mut s,
        A::Recruit {
            player: 1,
            country: r("egypt"),
            navy_into: Some(red),
            count: 1,
        },
        EconomyError::HostileWater(red),
    );
    // Blockaded by Ann's navy, it recruits nothing.
    t.blockades.insert(Blockade {
        by: 0,
        country: r("egypt"),
        water: red,
    });
    refused(
        &mut t,
        A::Recruit {
            player: 1,
            country: r("egypt"),
            navy_into: Some(red),
            count: 1,
        },
        EconomyError::Blockaded {
            country: r("egypt"),
            water: red,
        },
    );
}

#[test]
fn infrastructure_is_built_and_sold_for_half() {
    let mut s = game();
    s.players[1].mu = 100;
    let mut s = settled(begun(s));
    let egypt = r("egypt");
    let build = |item| A::Build {
        player: 1,
        country: egypt,
        item,
    };
    refused(
        &mut s,
        build(Item::Canal),
        EconomyError::CanalNeedsRoads(egypt),
    );
    for item in [Item::Roads, Item::Canal, Item::Fortifications] {
        s.apply(&build(item)).unwrap();
    }
    refused(
        &mut s,
        build(Item::Roads),
        EconomyError::AlreadyBuilt {
            country: egypt,
            item: Item::Roads,
        },
    );
    assert_eq!(s.players[1].mu, 101 - 25);
    // No canal site in Western Europe; not Bob's anyway.
    s.regions[r("southern_europe") as usize].owner = Some(1);
    refused(
        &mut s,
        A::Build {
            player: 1,
            country: r("southern_europe"),
            item: Item::Canal,
        },
        EconomyError::NoCanalSite(r("southern_europe")),
    );
    // Sold for half, rounded down: roads give 2.
    let ev = s
        .apply(&A::Destroy {
            player: 1,
            country: egypt,
            item: Item::Roads,
        })
        .unwrap();
    assert_eq!(
        ev,
        vec![EconomyEvent::Destroyed {
            player: 1,
            country: egypt,
            item: Item::Roads,
            refund: 2
        }]
    );
    refused(
        &mut s,
        A::Destroy {
            player: 1,
            country: egypt,
            item: Item::ArmyBase,
        },
        EconomyError::NotBuilt {
            country: egypt,
            item: Item::ArmyBase,
        },
    );
    refused(
        &mut s,
        A::Destroy {
            player: 1,
            country: r("southern_europe"),
            item: Item::Capital,
        },
        EconomyError::NotBuilt {
            country: r("southern_europe"),
            item: Item::Capital,
        },
    );
    // A capital built elsewhere moves there.
    s.players[1].mu = 30;
    s.apply(&A::Build {
        player: 1,
        country: r("southern_europe"),
        item: Item::Capital,
    })
    .unwrap();
    assert_eq!(s.players[1].capital, Some(r("southern_europe")));
    assert_eq!(s.players[1].mu, 0);
    // Without the rule there is nothing to build.
    s.options.fortifications = false;
    refused(
        &mut s,
        A::Build {
            player: 1,
            country: r("southern_europe"),
            item: Item::Fortifications,
        },
        EconomyError::RuleOff(Rule::Fortifications),
    );
}

/// Source 004: "A player may destroy any infrastructure controlled by that player at any time
/// during the Get Phase. For each piece of infrastructure destroyed during the Get Phase the player
/// gains an amount of MU equal to half the purchase price rounded down", and a capital is priced
/// like the rest: "Rebuilding a capital at a new location costs 30 MU".
#[test]
fn a_capital_sells_for_half_its_price() {
    let mut s = settled(begun(game()));
    let before = s.players[1].mu;
    let ev = s
        .apply(&A::Destroy {
            player: 1,
            country: r("egypt"),
            item: Item::Capital,
        })
        .unwrap();
    assert!(ev.contains(&EconomyEvent::Destroyed {
        player: 1,
        country: r("egypt"),
        item: Item::Capital,
        refund: 15,
    }));
    assert_eq!(s.players[1].mu, before + 15);
    assert_eq!(s.players[1].capital, None);
}

#[test]
fn three_influence_cards_bring_fifty_mu_even_before_the_upkeep() {
    let mut s = game();
    s.players[0].cards = vec![r("peru"), r("siam"), r("egypt"), r("japan")];
    let mut s = begun(s);
    refused(
        &mut s,
        A::TradeCards {
            player: 0,
            cards: [r("peru"), r("peru"), r("siam")],
        },
        EconomyError::SameCardTwice(r("peru")),
    );
    refused(
        &mut s,
        A::TradeCards {
            player: 0,
            cards: [r("peru"), r("siam"), r("brazil")],
        },
        EconomyError::CardNotHeld(r("brazil")),
    );
    s.apply(&A::TradeCards {
        player: 0,
        cards: [r("peru"), r("siam"), r("egypt")],
    })
    .unwrap();
    assert_eq!(s.players[0].mu, 22 + 50);
    assert_eq!(s.players[0].cards, vec![r("japan")]);
    assert_eq!(s.discard, vec![r("peru"), r("siam"), r("egypt")]);
}

#[test]
fn planning_begins_when_everyone_still_playing_is_done() {
    let mut s = settled(begun(game()));
    s.apply(&A::FinishGet { player: 1 }).unwrap();
    assert_eq!(s.phase, Phase::Get);
    refused(
        &mut s,
        A::FinishGet { player: 1 },
        EconomyError::AlreadyDone,
    );
    let ev = s.apply(&A::FinishGet { player: 0 }).unwrap();
    assert_eq!(ev.last(), Some(&EconomyEvent::PlanningBegan));
    assert_eq!(s.phase, Phase::Planning);
    refused(
        &mut s,
        A::Recruit {
            player: 0,
            country: r("western_europe"),
            navy_into: None,
            count: 1,
        },
        EconomyError::WrongPhase(Phase::Planning),
    );
    // A player who surrendered is not waited for, and cannot act.
    let mut t = game_of(&["Ann", "Bob", "Cy"]);
    place(&mut t, 2, "peru", 1);
    t.players[1].standing = Standing::Surrendered;
    let mut t = settled(begun(t));
    refused(
        &mut t,
        A::FinishGet { player: 1 },
        EconomyError::NotPlaying(1),
    );
    t.apply(&A::FinishGet { player: 2 }).unwrap();
    t.apply(&A::FinishGet { player: 0 }).unwrap();
    assert_eq!(t.phase, Phase::Planning);
    refused(
        &mut t,
        A::FinishGet { player: 7 },
        EconomyError::UnknownPlayer(7),
    );
}

/// Source 004: "While units are under siege they are not considered linked to adjacent
/// countries. This means that if you are using capitals then upkeep cannot be paid for units
/// under siege, and if your capital is under siege none of your countries are connected to it."
/// Ann lost Western Europe, her capital, to Bob's besiegers, but her 12 armies hold its
/// fortifications: they owe 2 (12 − 10) that cannot be paid, so 2 are lost; Southern Europe,
/// cut off from the besieged capital, loses its 3 too.
#[test]
fn upkeep_cannot_be_paid_for_units_under_siege() {
    let mut s = game();
    let we = r("western_europe");
    place(&mut s, 1, "western_europe", 3);
    let x = &mut s.regions[we as usize];
    x.infra.fortifications = true;
    x.lost_by = Some(0);
    x.sieges.insert((1, 0));
    let mut s = begun(s);
    assert_eq!(s.regions[we as usize].owner, None);
    let owed: Vec<(RegionId, u32, bool)> = s.get[0]
        .owed
        .iter()
        .map(|u| (u.country, u.due, u.linked))
        .collect();
    assert_eq!(owed, vec![(we, 2, false), (r("southern_europe"), 3, false)]);
    // Paying for the besieged armies is refused; losing them is the only way.
    refused(
        &mut s,
        A::SettleUpkeep {
            player: 0,
            losses: vec![(
                r("southern_europe"),
                Force {
                    armies: 3,
                    navies: 0,
                },
            )],
        },
        EconomyError::Unlinked(we),
    );
    let losses = s.plain_settlement(0);
    s.apply(&A::SettleUpkeep { player: 0, losses }).unwrap();
    assert_eq!(armies(&s, 0, "western_europe"), 10);
    assert_eq!(armies(&s, 0, "southern_europe"), 5);
    // The besiegers (3 armies) owe nothing.
    assert!(s.get[1].settled);
}

/// Source 004: "A player can only pay upkeep on unit collections that have a link to that
/// player's capital through only friendly territory. Units in contested territory are considered
/// linked to adjacent territories, but the contested territory does not provide a link between
/// two adjacent countries." Ann's 8 armies parked beside one neutral army in Northern Europe,
/// next to her capital, owe 3 and can pay them; her 6 beside a neutral army in East Africa, far
/// from anything of hers, owe 1 they cannot pay.
#[test]
fn units_in_contested_territory_owe_upkeep() {
    let mut s = game();
    for (k, n) in [("northern_europe", 8), ("east_africa", 6)] {
        place(&mut s, 0, k, n);
        s.regions[r(k) as usize].neutral = Force {
            armies: 1,
            navies: 0,
        };
    }
    let mut s = begun(s);
    assert_eq!(s.regions[r("northern_europe") as usize].owner, None);
    let owed: Vec<(RegionId, u32, bool)> = s.get[0]
        .owed
        .iter()
        .map(|u| (u.country, u.due, u.linked))
        .collect();
    let mut want = vec![
        (r("western_europe"), 2, true),
        (r("southern_europe"), 3, true),
        (r("northern_europe"), 3, true),
        (r("east_africa"), 1, false),
    ];
    want.sort();
    assert_eq!(owed, want);
    let losses = s.plain_settlement(0);
    assert_eq!(
        losses,
        vec![(
            r("east_africa"),
            Force {
                armies: 1,
                navies: 0
            }
        )]
    );
    let mu = s.players[0].mu;
    s.apply(&A::SettleUpkeep { player: 0, losses }).unwrap();
    assert_eq!(s.players[0].mu, mu - 8);
    assert_eq!(armies(&s, 0, "northern_europe"), 8);
    assert_eq!(armies(&s, 0, "east_africa"), 5);
}

/// RULES.md reading 19, after source 004: "A player can only pay upkeep on unit collections that
/// have a link to that player's capital". Destroying the capital before settling the upkeep
/// leaves nothing linked and takes the capital's −5 away: the upkeep owed is worked out again,
/// and none of it can be paid.
#[test]
fn no_upkeep_is_paid_once_the_capital_is_destroyed() {
    let mut s = begun(game());
    let ev = s
        .apply(&A::Destroy {
            player: 0,
            country: r("western_europe"),
            item: Item::Capital,
        })
        .unwrap();
    assert!(ev.contains(&EconomyEvent::UpkeepDue { player: 0, due: 10 }));
    let owed: Vec<(RegionId, u32, bool)> = s.get[0]
        .owed
        .iter()
        .map(|u| (u.country, u.due, u.linked))
        .collect();
    assert_eq!(
        owed,
        vec![
            (r("western_europe"), 7, false),
            (r("southern_europe"), 3, false)
        ]
    );
    // The old list would have let Ann pay 5 MU and keep every army.
    refused(
        &mut s,
        A::SettleUpkeep {
            player: 0,
            losses: vec![],
        },
        EconomyError::Unlinked(r("western_europe")),
    );
    let losses = s.plain_settlement(0);
    s.apply(&A::SettleUpkeep { player: 0, losses }).unwrap();
    assert_eq!(armies(&s, 0, "western_europe"), 5);
    assert_eq!(armies(&s, 0, "southern_europe"), 5);
    // Bob, who owed nothing, stays settled.
    assert!(s.get[1].settled);
}

/// The page's build buttons: what the rules allow in the country now, money aside; a second
/// army base adds to the first, roads and fortifications stand only once, the capital is not
/// built where it stands.
#[test]
fn build_options_are_what_building_accepts() {
    let mut s = game();
    s.players[1].mu = 100;
    let mut s = settled(begun(s));
    let egypt = r("egypt");
    let shore = map().regions[egypt as usize].shore.clone();
    let navy_bases = shore.iter().map(|&water| Item::NavyBase { water });
    let all: Vec<Item> = [Item::Roads, Item::Fortifications, Item::ArmyBase]
        .into_iter()
        .chain(navy_bases.clone())
        .collect();
    assert_eq!(s.build_options(map(), 1, egypt), all);
    for item in [Item::Roads, Item::Fortifications, Item::ArmyBase] {
        s.apply(&A::Build {
            player: 1,
            country: egypt,
            item,
        })
        .unwrap();
    }
    let after: Vec<Item> = [Item::Canal, Item::ArmyBase]
        .into_iter()
        .filter(|&i| i != Item::Canal || map().canal_site(egypt).is_some())
        .chain(navy_bases)
        .collect();
    assert_eq!(s.build_options(map(), 1, egypt), after);
    // Not Bob's: nothing.
    assert_eq!(s.build_options(map(), 1, r("western_europe")), vec![]);
    // Every option is accepted by the action itself, money given.
    s.players[1].mu = 1000;
    for item in s.build_options(map(), 1, egypt) {
        let mut t = s.clone();
        t.apply(&A::Build {
            player: 1,
            country: egypt,
            item,
        })
        .unwrap();
    }
}
