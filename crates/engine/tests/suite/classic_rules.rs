//! One test (at least) per classic rule, including the sources' worked examples.

use crate::classic_common;

use classic_common::*;
use orbis_engine::map::Map;
use orbis_engine::rules::classic::*;

#[test]
fn worked_example_six_three_two_against_six_two() {
    // File 003: attacker 6,3,2 vs defender 6,2 — each side loses one army.
    let mut s = board(&[("ukraine", 5)], &[("ural", 4)], ClassicOptions::default());
    let ev = s
        .apply_with(
            &Action::Attack {
                from: t("ukraine"),
                to: t("ural"),
                dice: 3,
            },
            &mut Faces(vec![2, 6, 3, 2, 6]),
        )
        .unwrap();
    assert_eq!(
        ev,
        vec![Event::Rolled {
            from: t("ukraine"),
            to: t("ural"),
            attack: vec![6, 3, 2],
            defence: vec![6, 2],
            attacker_lost: 1,
            defender_lost: 1
        }]
    );
    assert_eq!(
        (
            s.armies[t("ukraine") as usize],
            s.armies[t("ural") as usize]
        ),
        (4, 3)
    );
}

#[test]
fn battle_losses_ties_go_to_defender() {
    assert_eq!(battle_losses(&[6, 6, 6], &[6, 6]), (2, 0));
    assert_eq!(battle_losses(&[5, 1], &[4]), (0, 1));
    assert_eq!(battle_losses(&[3], &[4, 1]), (1, 0));
}

#[test]
fn set_value_schedules() {
    let take = |s: CardSchedule| (0..9).map(|n| s.value(n)).collect::<Vec<_>>();
    assert_eq!(
        take(CardSchedule::Escalating),
        vec![4, 6, 8, 10, 12, 15, 20, 25, 30]
    );
    assert_eq!(
        take(CardSchedule::PlusOne),
        vec![4, 5, 6, 7, 8, 9, 10, 11, 12]
    );
    assert_eq!(
        take(CardSchedule::FourThenFive),
        vec![4, 5, 5, 5, 5, 5, 5, 5, 5]
    );
    assert_eq!(take(CardSchedule::Constant(4)), vec![4; 9]);
    assert_eq!(CardSchedule::Constant(7).value(20), 7);
}

#[test]
fn initial_armies_by_player_count() {
    assert_eq!(
        (2..=6).map(initial_armies).collect::<Vec<_>>(),
        vec![40, 35, 30, 25, 20]
    );
}

#[test]
fn random_deal_gives_everyone_territories_and_the_right_armies() {
    for n in 2..=6 {
        let s = ClassicState::new(seats(n), ClassicOptions::default(), [n as u8; 32]).unwrap();
        assert_eq!(s.phase, Phase::SetupPlace);
        assert!(s.owner.iter().all(|o| *o != Owner::Unclaimed));
        let neutrals = s.owner.iter().filter(|o| **o == Owner::Neutral).count();
        assert_eq!(neutrals, if n == 2 { 14 } else { 0 });
        for p in 0..n as PlayerId {
            let owned = s.territory_count(p);
            let share = (42 - neutrals as u32) / n as u32;
            assert!(
                owned == share || owned == share + 1,
                "player {p} got {owned}"
            );
            assert_eq!(
                owned + s.players[p as usize].setup_armies,
                initial_armies(n)
            );
        }
        if n == 2 {
            let neutral_armies: u32 = (0..42)
                .filter(|&i| s.owner[i] == Owner::Neutral)
                .map(|i| s.armies[i])
                .sum();
            assert_eq!(neutral_armies, 40);
        }
    }
}

#[test]
fn chosen_territories_are_claimed_in_turn_then_placed_in_turn() {
    let opts = ClassicOptions {
        selection: Selection::Chosen,
        ..ClassicOptions::default()
    };
    let mut s = ClassicState::new(seats(3), opts, [9; 32]).unwrap();
    assert_eq!(s.phase, Phase::Claim);
    let first = s.current;
    s.apply(&Action::Claim { territory: 0 }).unwrap();
    assert_eq!(s.current, (first + 1) % 3);
    let err = s.apply(&Action::Claim { territory: 0 }).unwrap_err();
    assert!(matches!(err, ClassicError::AlreadyClaimed(_)));
    assert_eq!(err.to_string(), "Alaska has already been claimed.");
    for i in 1..42 {
        s.apply(&Action::Claim { territory: i }).unwrap();
    }
    assert_eq!(s.phase, Phase::SetupPlace);
    assert_eq!(s.current, first);
    // One army at a time, alternating.
    let mine = s.territories_of(first).next().unwrap();
    assert_eq!(
        s.apply(&Action::Place {
            territory: mine,
            armies: 2
        })
        .unwrap_err(),
        ClassicError::OnlyOneSetupArmy
    );
    s.apply(&Action::Place {
        territory: mine,
        armies: 1,
    })
    .unwrap();
    assert_eq!(s.current, (first + 1) % 3);
    // Finish setup: everyone places until the first turn starts.
    while s.phase == Phase::SetupPlace {
        let p = s.current;
        let tt = s.territories_of(p).next().unwrap();
        s.apply(&Action::Place {
            territory: tt,
            armies: 1,
        })
        .unwrap();
    }
    assert_eq!(s.current, first);
    assert_eq!(s.turn, 1);
    assert!(matches!(s.phase, Phase::Reinforce { .. }));
    let total: u32 = s.armies.iter().sum();
    assert_eq!(total, 3 * 35);
}

#[test]
fn reinforcements_territories_over_three_minimum_three_plus_continents() {
    let s = board(&[("alaska", 1)], &[], ClassicOptions::default());
    assert_eq!(s.reinforcements(0), (3, 0));
    // Australia (4 territories) + 8 more = 12 territories: 4 + 2.
    let mut list: Vec<(&str, u32)> = [
        "indonesia",
        "new_guinea",
        "western_australia",
        "eastern_australia",
    ]
    .iter()
    .map(|k| (*k, 1))
    .collect();
    list.extend(
        [
            "alaska",
            "alberta",
            "ontario",
            "quebec",
            "peru",
            "brazil",
            "argentina",
            "iceland",
        ]
        .iter()
        .map(|k| (*k, 1)),
    );
    let s = board(&list, &[], ClassicOptions::default());
    assert_eq!(s.reinforcements(0), (4, 2));
    // South America complete too: +2.
    list.push(("venezuela", 1));
    let s = board(&list, &[], ClassicOptions::default());
    assert_eq!(s.reinforcements(0), (4, 4));
    // Asia is worth 7.
    let asia: Vec<(&str, u32)> = Map::classic().continents[4]
        .territories
        .iter()
        .map(|&x| (Map::classic().territories[x as usize].key.as_str(), 1))
        .collect();
    let s = board(&asia, &[], ClassicOptions::default());
    assert_eq!(s.reinforcements(0), (4, 7));
}

#[test]
fn trading_sets_and_the_territory_bonus_capped_at_two() {
    let m = Map::classic();
    // Cards 0 (alaska, infantry), 1 (NWT, cavalry), 2 (greenland, artillery): one of each.
    assert_eq!(m.territories[0].card, orbis_engine::map::Symbol::Infantry);
    let s0 = board(
        &[("alaska", 1), ("northwest_territory", 1)],
        &[],
        ClassicOptions::default(),
    );
    let mut s = in_reinforce(s0, 3, vec![0, 1, 2, 3, 6]);
    // Five cards: placing first is refused.
    assert_eq!(
        s.apply(&Action::Place {
            territory: 0,
            armies: 1
        })
        .unwrap_err(),
        ClassicError::MustTrade { cards: 5 }
    );
    // 0, 3, 6 are three infantry; 0, 1, 3 is not a set (two infantry + cavalry).
    assert_eq!(
        s.apply(&Action::Trade { cards: [0, 1, 3] }).unwrap_err(),
        ClassicError::NotASet
    );
    assert_eq!(
        s.apply(&Action::Trade { cards: [0, 1, 9] }).unwrap_err(),
        ClassicError::CardNotInHand(9)
    );
    assert_eq!(
        s.apply(&Action::Trade { cards: [0, 0, 1] }).unwrap_err(),
        ClassicError::DuplicateCard(0)
    );
    let ev = s.apply(&Action::Trade { cards: [0, 1, 2] }).unwrap();
    // Both alaska and NWT are owned, but only one +2 bonus is paid, on the first listed.
    assert_eq!(
        ev,
        vec![Event::Traded {
            player: 0,
            cards: [0, 1, 2],
            armies: 4,
            bonus: vec![0]
        }]
    );
    assert_eq!(s.armies[0], 3);
    assert_eq!(s.armies[1], 1);
    assert_eq!(s.phase, Phase::Reinforce { armies: 7 });
    assert_eq!(s.sets_traded, 1);
    assert_eq!(s.next_set_value(), 6);
    assert_eq!(s.discard, vec![0, 1, 2]);
}

#[test]
fn wild_cards_complete_any_pair() {
    let s = board(&[("alaska", 1)], &[], ClassicOptions::default());
    assert!(s.is_set([0, 3, 42])); // two infantry + wild
    assert!(s.is_set([0, 1, 43])); // infantry, cavalry + wild
    assert!(s.is_set([0, 1, 2])); // one of each
    assert!(s.is_set([0, 3, 6])); // three alike
    assert!(!s.is_set([0, 3, 1]));
}

#[test]
fn trade_only_while_placing() {
    let mut s = board(&[("alaska", 3)], &[], ClassicOptions::default());
    s.players[0].hand = vec![0, 1, 2];
    s.deck.retain(|c| *c > 2);
    let e = s.apply(&Action::Trade { cards: [0, 1, 2] }).unwrap_err();
    assert!(matches!(e, ClassicError::WrongPhase { .. }));
    assert!(e.to_string().starts_with("You can't trade cards"));
}

#[test]
fn placing_all_reinforcements_moves_to_attack() {
    let s0 = board(&[("alaska", 1)], &[], ClassicOptions::default());
    let mut s = in_reinforce(s0, 5, vec![]);
    assert_eq!(
        s.apply(&Action::Place {
            territory: t("alaska"),
            armies: 6
        })
        .unwrap_err(),
        ClassicError::NotEnoughToPlace {
            requested: 6,
            left: 5
        }
    );
    assert!(matches!(
        s.apply(&Action::Place {
            territory: t("kamchatka"),
            armies: 1
        }),
        Err(ClassicError::NotYours(_))
    ));
    s.apply(&Action::Place {
        territory: t("alaska"),
        armies: 2,
    })
    .unwrap();
    assert_eq!(s.phase, Phase::Reinforce { armies: 3 });
    s.apply(&Action::Place {
        territory: t("alaska"),
        armies: 3,
    })
    .unwrap();
    assert_eq!(s.phase, Phase::Attack);
    assert_eq!(s.armies[t("alaska") as usize], 6);
}

#[test]
fn attack_legality() {
    let mut s = board(
        &[("alaska", 4), ("alberta", 1)],
        &[("kamchatka", 2)],
        ClassicOptions::default(),
    );
    let a = |from, to, dice| Action::Attack {
        from: t(from),
        to: t(to),
        dice,
    };
    assert!(matches!(
        s.apply(&a("alaska", "alberta", 1)),
        Err(ClassicError::OwnTerritory(_))
    ));
    assert!(matches!(
        s.apply(&a("alaska", "greenland", 1)),
        Err(ClassicError::NotAdjacent { .. })
    ));
    assert!(matches!(
        s.apply(&a("alberta", "ontario", 1)),
        Err(ClassicError::NeedTwoArmies(_))
    ));
    assert_eq!(
        s.apply(&a("alaska", "kamchatka", 4)).unwrap_err(),
        ClassicError::BadDice { dice: 4, max: 3 }
    );
    assert_eq!(
        s.apply(&a("alaska", "kamchatka", 0)).unwrap_err(),
        ClassicError::BadDice { dice: 0, max: 3 }
    );
    assert!(matches!(
        s.apply(&a("kamchatka", "alaska", 1)),
        Err(ClassicError::NotYours(_))
    ));
    s.armies[t("alaska") as usize] = 3;
    assert_eq!(
        s.apply(&a("alaska", "kamchatka", 3)).unwrap_err(),
        ClassicError::BadDice { dice: 3, max: 2 }
    );
    // The sea link Alaska–Kamchatka is a normal border.
    s.apply(&a("alaska", "kamchatka", 2)).unwrap();
}

#[test]
fn defender_dice_follow_the_standing_preference() {
    let mut s = board(&[("ukraine", 5)], &[("ural", 4)], ClassicOptions::default());
    assert_eq!(s.defence_dice(t("ural")), 2);
    s.apply(&Action::SetDefence {
        player: 1,
        pref: DefendPref::One,
    })
    .unwrap();
    assert_eq!(s.defence_dice(t("ural")), 1);
    let ev = s
        .apply_with(
            &Action::Attack {
                from: t("ukraine"),
                to: t("ural"),
                dice: 3,
            },
            &mut Faces(vec![1, 1, 1, 6]),
        )
        .unwrap();
    assert!(
        matches!(&ev[0], Event::Rolled { defence, attacker_lost: 1, defender_lost: 0, .. } if defence == &vec![6])
    );
    // A territory with one army rolls one die even at "max".
    s.armies[t("ural") as usize] = 1;
    s.players[1].defend = DefendPref::Max;
    assert_eq!(s.defence_dice(t("ural")), 1);
    assert_eq!(
        s.apply(&Action::SetDefence {
            player: 7,
            pref: DefendPref::Max
        })
        .unwrap_err(),
        ClassicError::UnknownPlayer(7)
    );
}

#[test]
fn conquest_moves_in_at_least_the_dice_rolled() {
    let mut s = board(&[("ukraine", 6)], &[("ural", 1)], ClassicOptions::default());
    let ev = s
        .apply_with(
            &Action::Attack {
                from: t("ukraine"),
                to: t("ural"),
                dice: 2,
            },
            &mut Faces(vec![6, 5, 1]),
        )
        .unwrap();
    assert!(matches!(
        ev[1],
        Event::Conquered {
            player: 0,
            moved: 2,
            ..
        }
    ));
    assert_eq!(
        s.phase,
        Phase::Occupy {
            from: t("ukraine"),
            to: t("ural"),
            moved: 2
        }
    );
    assert_eq!(s.owner[t("ural") as usize], Owner::Player(0));
    assert_eq!(
        (
            s.armies[t("ukraine") as usize],
            s.armies[t("ural") as usize]
        ),
        (4, 2)
    );
    assert_eq!(
        s.apply(&Action::Occupy { armies: 1 }).unwrap_err(),
        ClassicError::OccupyRange {
            min: 2,
            max: 5,
            requested: 1
        }
    );
    assert_eq!(
        s.apply(&Action::Occupy { armies: 6 }).unwrap_err(),
        ClassicError::OccupyRange {
            min: 2,
            max: 5,
            requested: 6
        }
    );
    assert!(matches!(
        s.apply(&Action::EndAttack),
        Err(ClassicError::WrongPhase { .. })
    ));
    s.apply(&Action::Occupy { armies: 5 }).unwrap();
    assert_eq!(
        (
            s.armies[t("ukraine") as usize],
            s.armies[t("ural") as usize]
        ),
        (1, 5)
    );
    assert_eq!(s.phase, Phase::Attack);
    assert!(s.turn_state.conquered);
}

#[test]
fn conquest_with_nothing_extra_to_move_is_automatic() {
    let mut s = board(&[("ukraine", 3)], &[("ural", 1)], ClassicOptions::default());
    s.apply_with(
        &Action::Attack {
            from: t("ukraine"),
            to: t("ural"),
            dice: 2,
        },
        &mut Faces(vec![6, 5, 1]),
    )
    .unwrap();
    assert_eq!(s.phase, Phase::Attack);
    assert_eq!(
        (
            s.armies[t("ukraine") as usize],
            s.armies[t("ural") as usize]
        ),
        (1, 2)
    );
}

#[test]
fn blitz_stops_at_conquest_or_threshold() {
    let mut s = board(
        &[("ukraine", 30)],
        &[("ural", 2)],
        ClassicOptions::default(),
    );
    s.apply(&Action::Blitz {
        from: t("ukraine"),
        to: t("ural"),
        stop_at: 1,
    })
    .unwrap();
    assert!(matches!(s.phase, Phase::Occupy { .. }));
    let mut s = board(
        &[("ukraine", 6)],
        &[("ural", 40)],
        ClassicOptions::default(),
    );
    s.apply(&Action::Blitz {
        from: t("ukraine"),
        to: t("ural"),
        stop_at: 4,
    })
    .unwrap();
    assert!(s.armies[t("ukraine") as usize] <= 4 && s.armies[t("ukraine") as usize] >= 2);
    assert_eq!(s.phase, Phase::Attack);
    let e = s
        .apply(&Action::Blitz {
            from: t("ukraine"),
            to: t("ural"),
            stop_at: 10,
        })
        .unwrap_err();
    assert!(matches!(e, ClassicError::BlitzThreshold { .. }));
}

#[test]
fn elimination_hands_over_cards_and_forces_trades_down_to_four() {
    let mut s = board(
        &[("ukraine", 10)],
        &[("ural", 1)],
        ClassicOptions::default(),
    );
    // Player 1 has only Ural and 4 cards; player 0 has 2.
    s.players[1].hand = vec![0, 3, 6, 9];
    s.players[0].hand = vec![1, 4];
    s.deck.retain(|c| ![0, 3, 6, 9, 1, 4].contains(c));
    let ev = s
        .apply_with(
            &Action::Attack {
                from: t("ukraine"),
                to: t("ural"),
                dice: 3,
            },
            &mut Faces(vec![6, 6, 6, 1]),
        )
        .unwrap();
    assert!(ev.contains(&Event::Eliminated {
        player: 1,
        by: 0,
        cards: 4
    }));
    assert!(!s.players[1].alive);
    assert_eq!(s.players[0].hand.len(), 6);
    s.apply(&Action::Occupy { armies: 3 }).unwrap();
    // Six cards: trade now, before attacking again.
    assert_eq!(s.phase, Phase::Reinforce { armies: 0 });
    assert!(matches!(
        s.apply(&Action::Place {
            territory: t("ukraine"),
            armies: 1
        }),
        Err(ClassicError::MustTrade { cards: 6 })
    ));
    s.apply(&Action::Trade { cards: [0, 3, 6] }).unwrap();
    assert_eq!(s.players[0].hand.len(), 3);
    assert_eq!(s.phase, Phase::Reinforce { armies: 4 });
    s.apply(&Action::Place {
        territory: t("ukraine"),
        armies: 4,
    })
    .unwrap();
    assert_eq!(s.phase, Phase::Attack);
}

#[test]
fn five_cards_at_elimination_do_not_force_a_trade() {
    let mut s = board(
        &[("ukraine", 10)],
        &[("ural", 1)],
        ClassicOptions::default(),
    );
    s.players[1].hand = vec![0, 3];
    s.players[0].hand = vec![1, 4, 7];
    s.deck.retain(|c| ![0, 3, 1, 4, 7].contains(c));
    s.apply_with(
        &Action::Attack {
            from: t("ukraine"),
            to: t("ural"),
            dice: 3,
        },
        &mut Faces(vec![6, 6, 6, 1]),
    )
    .unwrap();
    s.apply(&Action::Occupy { armies: 3 }).unwrap();
    assert_eq!(s.phase, Phase::Attack);
}

#[test]
fn one_card_at_end_of_a_turn_with_a_conquest() {
    let mut s = board(
        &[("ukraine", 10)],
        &[("ural", 1), ("siberia", 3)],
        ClassicOptions::default(),
    );
    let deck_before = s.deck.len();
    s.apply_with(
        &Action::Attack {
            from: t("ukraine"),
            to: t("ural"),
            dice: 3,
        },
        &mut Faces(vec![6, 6, 6, 1]),
    )
    .unwrap();
    s.apply(&Action::Occupy { armies: 3 }).unwrap();
    s.apply_with(
        &Action::Attack {
            from: t("ural"),
            to: t("siberia"),
            dice: 2,
        },
        &mut Faces(vec![1, 1, 6, 6]),
    )
    .unwrap();
    let ev = s.apply(&Action::EndTurn).unwrap();
    assert!(ev.contains(&Event::CardDrawn { player: 0 }));
    assert_eq!(s.players[0].hand.len(), 1);
    assert_eq!(s.deck.len(), deck_before - 1);
    assert_eq!(s.current, 1);
    // No conquest: no card.
    let mut s2 = board(
        &[("ukraine", 10)],
        &[("ural", 1)],
        ClassicOptions::default(),
    );
    let ev = s2.apply(&Action::EndTurn).unwrap();
    assert!(!ev.iter().any(|e| matches!(e, Event::CardDrawn { .. })));
}

#[test]
fn forced_trade_at_start_of_turn_with_five_cards() {
    let mut s = board(
        &[("ukraine", 10)],
        &[("ural", 1)],
        ClassicOptions::default(),
    );
    s.players[1].hand = vec![0, 1, 2, 3, 4];
    s.deck.retain(|c| *c > 4);
    s.apply(&Action::EndTurn).unwrap();
    assert_eq!(s.current, 1);
    let (armies, cards) = match s.phase {
        Phase::Reinforce { armies } => (armies, s.players[1].hand.len()),
        _ => panic!(),
    };
    assert_eq!(cards, 5);
    assert_eq!(
        s.apply(&Action::Place {
            territory: t("ural"),
            armies
        })
        .unwrap_err(),
        ClassicError::MustTrade { cards: 5 }
    );
    s.apply(&Action::Trade { cards: [0, 1, 2] }).unwrap();
    s.apply(&Action::Place {
        territory: t("ural"),
        armies: armies + 4,
    })
    .unwrap();
}

#[test]
fn fortify_one_to_one_adjacent_is_a_single_move_that_ends_the_turn() {
    let mut s = board(
        &[("alaska", 5), ("alberta", 1), ("ontario", 1)],
        &[("kamchatka", 1)],
        ClassicOptions::default(),
    );
    s.apply(&Action::EndAttack).unwrap();
    assert_eq!(s.phase, Phase::Fortify);
    let f = |a: &str, b: &str, n| Action::Fortify {
        from: t(a),
        to: t(b),
        armies: n,
    };
    assert!(matches!(
        s.apply(&f("alaska", "ontario", 1)),
        Err(ClassicError::NotAdjacent { .. })
    ));
    assert!(matches!(
        s.apply(&f("alaska", "alberta", 5)),
        Err(ClassicError::TooManyToMove { movable: 4, .. })
    ));
    assert!(matches!(
        s.apply(&f("alaska", "kamchatka", 1)),
        Err(ClassicError::NotYours(_))
    ));
    assert_eq!(
        s.apply(&f("alaska", "alberta", 0)).unwrap_err(),
        ClassicError::ZeroArmies
    );
    assert_eq!(
        s.apply(&f("alaska", "alaska", 1)).unwrap_err(),
        ClassicError::SameTerritory
    );
    s.apply(&f("alaska", "alberta", 4)).unwrap();
    assert_eq!(s.current, 1, "the single fortify ends the turn");
    assert_eq!(s.armies[t("alberta") as usize], 5);
}

#[test]
fn fortify_one_to_many_keeps_one_source() {
    let o = ClassicOptions {
        fortify: FortifyRule::OneToManyAdjacent,
        ..ClassicOptions::default()
    };
    let mut s = board(
        &[
            ("alaska", 5),
            ("alberta", 3),
            ("northwest_territory", 1),
            ("ontario", 1),
        ],
        &[],
        o,
    );
    s.phase = Phase::Fortify;
    s.apply(&Action::Fortify {
        from: t("alaska"),
        to: t("alberta"),
        armies: 2,
    })
    .unwrap();
    s.apply(&Action::Fortify {
        from: t("alaska"),
        to: t("northwest_territory"),
        armies: 2,
    })
    .unwrap();
    assert!(matches!(
        s.apply(&Action::Fortify {
            from: t("alberta"),
            to: t("ontario"),
            armies: 1
        }),
        Err(ClassicError::OneSourceOnly { .. })
    ));
    assert!(matches!(
        s.apply(&Action::Fortify {
            from: t("alaska"),
            to: t("alberta"),
            armies: 1
        }),
        Err(ClassicError::TooManyToMove { movable: 0, .. })
    ));
    assert_eq!(s.current, 0);
    s.apply(&Action::EndTurn).unwrap();
    assert_eq!(s.current, 1);
}

#[test]
fn fortify_many_to_many_moves_each_army_once() {
    let o = ClassicOptions {
        fortify: FortifyRule::ManyToManyAdjacent,
        ..ClassicOptions::default()
    };
    let mut s = board(&[("alaska", 5), ("alberta", 3), ("ontario", 1)], &[], o);
    s.phase = Phase::Fortify;
    s.apply(&Action::Fortify {
        from: t("alaska"),
        to: t("alberta"),
        armies: 4,
    })
    .unwrap();
    // Alberta now has 7, of which 4 arrived: only its own 2 spare armies may leave.
    assert_eq!(s.movable(t("alberta")), 3);
    assert!(matches!(
        s.apply(&Action::Fortify {
            from: t("alberta"),
            to: t("ontario"),
            armies: 4
        }),
        Err(ClassicError::TooManyToMove { movable: 3, .. })
    ));
    s.apply(&Action::Fortify {
        from: t("alberta"),
        to: t("ontario"),
        armies: 3,
    })
    .unwrap();
    // Ontario's arrivals cannot move on, and it must keep one.
    assert_eq!(s.movable(t("ontario")), 1);
    assert!(matches!(
        s.apply(&Action::Fortify {
            from: t("alaska"),
            to: t("ontario"),
            armies: 1
        }),
        Err(ClassicError::NotAdjacent { .. })
    ));
}

#[test]
fn fortify_connected_follows_own_paths() {
    let o = ClassicOptions {
        fortify: FortifyRule::ManyToManyConnected,
        ..ClassicOptions::default()
    };
    let mut s = board(
        &[
            ("alaska", 5),
            ("alberta", 1),
            ("ontario", 1),
            ("quebec", 1),
            ("greenland", 1),
        ],
        &[("northwest_territory", 1)],
        o,
    );
    s.phase = Phase::Fortify;
    assert_eq!(s.fortify_targets(t("alaska")).len(), 4);
    s.apply(&Action::Fortify {
        from: t("alaska"),
        to: t("quebec"),
        armies: 3,
    })
    .unwrap();
    assert_eq!(s.armies[t("quebec") as usize], 4);
    assert!(matches!(
        s.apply(&Action::Fortify {
            from: t("alaska"),
            to: t("iceland"),
            armies: 1
        }),
        Err(ClassicError::NotYours(_))
    ));
    // Cut the path: Alberta lost.
    s.owner[t("alberta") as usize] = Owner::Player(1);
    assert!(matches!(
        s.apply(&Action::Fortify {
            from: t("alaska"),
            to: t("ontario"),
            armies: 1
        }),
        Err(ClassicError::NotConnected { .. })
    ));
}

#[test]
fn world_domination_wins() {
    let all: Vec<(&str, u32)> = Map::classic()
        .territories
        .iter()
        .map(|x| (x.key.as_str(), 2))
        .collect();
    let mut s = board(&all, &[], ClassicOptions::default());
    s.owner[t("ural") as usize] = Owner::Player(1);
    s.armies[t("ural") as usize] = 1;
    let ev = s
        .apply_with(
            &Action::Attack {
                from: t("ukraine"),
                to: t("ural"),
                dice: 1,
            },
            &mut Faces(vec![6, 1]),
        )
        .unwrap();
    assert!(ev.contains(&Event::Won {
        player: 0,
        reason: WinReason::Domination
    }));
    assert_eq!(s.winner(), Some(0));
    assert_eq!(
        s.apply(&Action::EndTurn).unwrap_err(),
        ClassicError::GameOver
    );
}

#[test]
fn neutral_territories_only_defend_and_count_against_domination() {
    let o = ClassicOptions {
        neutral_territories: 6,
        neutral_armies: 2,
        ..ClassicOptions::default()
    };
    let s = ClassicState::new(seats(4), o, [4; 32]).unwrap();
    let neutral: Vec<usize> = (0..42).filter(|&i| s.owner[i] == Owner::Neutral).collect();
    assert_eq!(neutral.len(), 6);
    assert!(neutral.iter().all(|&i| s.armies[i] == 2));
    // Neutral is never the current player: turns rotate over seats only.
    let mut s = board(&[("ukraine", 9)], &[("ural", 3)], ClassicOptions::default());
    s.owner[t("siberia") as usize] = Owner::Neutral;
    s.apply(&Action::EndTurn).unwrap();
    assert_eq!(s.current, 1);
}

#[test]
fn missions_are_dealt_and_own_colour_becomes_24_territories() {
    let o = ClassicOptions {
        missions: true,
        ..ClassicOptions::default()
    };
    for seed in 0..30u8 {
        let s = ClassicState::new(seats(3), o.clone(), [seed; 32]).unwrap();
        for p in &s.players {
            match p.mission.expect("dealt") {
                Mission::Destroy(c) => {
                    assert_ne!(c, p.colour);
                    assert!(
                        s.players.iter().any(|q| q.colour == c),
                        "absent colour {c:?}"
                    );
                }
                Mission::Continents(a, b) => assert_ne!(a, b),
                Mission::Territories(n) => assert_eq!(n, 24),
            }
        }
    }
}

#[test]
fn destroy_mission_completed_by_another_player() {
    let o = ClassicOptions {
        missions: true,
        hold_mission_full_round: true,
        ..ClassicOptions::default()
    };
    let mut s = board(&[("ukraine", 10)], &[("ural", 1)], o);
    // Player 2 must destroy player 1's colour; player 0 does it for them.
    s.players[2].mission = Some(Mission::Destroy(s.players[1].colour));
    s.players[0].mission = Some(Mission::Territories(24));
    let ev = s
        .apply_with(
            &Action::Attack {
                from: t("ukraine"),
                to: t("ural"),
                dice: 3,
            },
            &mut Faces(vec![6, 6, 6, 1]),
        )
        .unwrap();
    let c = s.players[1].colour;
    assert!(
        ev.contains(&Event::Won {
            player: 2,
            reason: WinReason::Mission(Mission::Destroy(c))
        }),
        "{ev:?}"
    );
}

#[test]
fn continent_mission_wins_immediately_or_after_a_full_round() {
    let m = Map::classic();
    let asia = m.continents.iter().position(|c| c.key == "asia").unwrap() as u8;
    let sa = m
        .continents
        .iter()
        .position(|c| c.key == "south_america")
        .unwrap() as u8;
    let mut mine: Vec<(&str, u32)> = m.continents[asia as usize]
        .territories
        .iter()
        .chain(&m.continents[sa as usize].territories)
        .map(|&x| (m.territories[x as usize].key.as_str(), 3))
        .collect();
    mine.retain(|(k, _)| *k != "ural");
    mine.push(("ukraine", 10));
    let setup = |hold: bool| {
        let o = ClassicOptions {
            missions: true,
            hold_mission_full_round: hold,
            ..ClassicOptions::default()
        };
        let mut s = board(&mine, &[("ural", 1), ("iceland", 2)], o);
        s.players[0].mission = Some(Mission::Continents(asia, sa));
        s.players[1].mission = Some(Mission::Continents(asia, sa));
        s.players[2].mission = Some(Mission::Continents(asia, sa));
        s
    };
    let attack = Action::Attack {
        from: t("ukraine"),
        to: t("ural"),
        dice: 3,
    };
    let mut s = setup(false);
    let ev = s.apply_with(&attack, &mut Faces(vec![6, 6, 6, 1])).unwrap();
    assert!(ev.contains(&Event::Won {
        player: 0,
        reason: WinReason::Mission(Mission::Continents(asia, sa))
    }));

    let mut s = setup(true);
    s.apply_with(&attack, &mut Faces(vec![6, 6, 6, 1])).unwrap();
    assert_eq!(s.winner(), None);
    s.apply(&Action::Occupy { armies: 3 }).unwrap();
    s.apply(&Action::EndTurn).unwrap();
    // Players 1 and 2 take their turns without touching Asia or South America.
    for p in [1u8, 2] {
        assert_eq!(s.current, p);
        let Phase::Reinforce { armies } = s.phase else {
            panic!()
        };
        let tt = s.territories_of(p).next().unwrap();
        s.apply(&Action::Place {
            territory: tt,
            armies,
        })
        .unwrap();
        s.apply(&Action::EndTurn).unwrap();
    }
    assert_eq!(s.winner(), Some(0), "held for a full round");
}

#[test]
fn held_mission_lost_before_the_round_ends_does_not_win() {
    let m = Map::classic();
    let o = ClassicOptions {
        missions: true,
        hold_mission_full_round: true,
        ..ClassicOptions::default()
    };
    let mine: Vec<(&str, u32)> = m
        .territories
        .iter()
        .take(24)
        .map(|x| (x.key.as_str(), 2))
        .collect();
    let mut s = board(&mine, &[], o);
    s.players[0].mission = Some(Mission::Territories(24));
    s.players[0].mission_since = Some(s.turn);
    s.players[1].mission = Some(Mission::Territories(24));
    s.players[2].mission = Some(Mission::Territories(24));
    s.players[1].alive = false;
    s.apply(&Action::EndTurn).unwrap();
    // Player 2 takes Alaska back before player 0's next turn.
    assert_eq!(s.current, 2);
    let Phase::Reinforce { armies } = s.phase else {
        panic!()
    };
    s.apply(&Action::Place {
        territory: t("kamchatka"),
        armies,
    })
    .unwrap();
    s.apply_with(
        &Action::Attack {
            from: t("kamchatka"),
            to: t("alaska"),
            dice: 3,
        },
        &mut Faces(vec![6, 6, 6, 1, 1]),
    )
    .unwrap();
    assert_eq!(s.players[0].mission_since, None);
    s.apply(&Action::Occupy { armies: 3 }).unwrap();
    s.apply(&Action::EndTurn).unwrap();
    assert_eq!(s.current, 0);
    assert_eq!(s.winner(), None);
}

#[test]
fn setup_errors_are_clear() {
    assert_eq!(
        ClassicState::new(seats(1), ClassicOptions::default(), [0; 32]).unwrap_err(),
        SetupError::PlayerCount(1)
    );
    assert_eq!(
        ClassicState::new(seats(7), ClassicOptions::default(), [0; 32]).unwrap_err(),
        SetupError::PlayerCount(7)
    );
    let mut s = seats(3);
    s[2].colour = s[0].colour;
    assert_eq!(
        ClassicState::new(s, ClassicOptions::default(), [0; 32]).unwrap_err(),
        SetupError::DuplicateColour(Colour::Red)
    );
    let o = ClassicOptions {
        neutral_territories: 40,
        ..ClassicOptions::default()
    };
    assert!(matches!(
        ClassicState::new(seats(3), o, [0; 32]),
        Err(SetupError::TooManyNeutrals(40))
    ));
}

#[test]
fn illegal_actions_leave_the_state_untouched() {
    let mut s = board(&[("ukraine", 5)], &[("ural", 4)], ClassicOptions::default());
    let before = s.clone();
    for a in [
        Action::Attack {
            from: 200,
            to: 1,
            dice: 1,
        },
        Action::Place {
            territory: 0,
            armies: 1,
        },
        Action::Fortify {
            from: 0,
            to: 1,
            armies: 1,
        },
        Action::Occupy { armies: 1 },
        Action::Trade { cards: [0, 1, 2] },
        Action::Claim { territory: 0 },
    ] {
        assert!(s.apply(&a).is_err());
        assert_eq!(s, before);
    }
}

#[test]
fn same_seed_same_actions_same_hash() {
    let run = || {
        let mut s = ClassicState::new(seats(4), ClassicOptions::default(), [42; 32]).unwrap();
        orbis_engine::sim::run(&mut s, BotLevel::Normal, 30).unwrap();
        s.state_hash()
    };
    assert_eq!(run(), run());
    let other = {
        let mut s = ClassicState::new(seats(4), ClassicOptions::default(), [43; 32]).unwrap();
        orbis_engine::sim::run(&mut s, BotLevel::Normal, 30).unwrap();
        s.state_hash()
    };
    assert_ne!(run(), other);
}

#[test]
fn save_round_trip_and_corrupt_saves() {
    use orbis_engine::rules::{Game, LoadError};
    let mut s = ClassicState::new(seats(3), ClassicOptions::default(), [5; 32]).unwrap();
    orbis_engine::sim::run(&mut s, BotLevel::Easy, 5).unwrap();
    let g = Game::Classic(s);
    let bytes = g.to_save();
    let back = Game::from_save(&bytes).unwrap();
    assert_eq!(back, g);
    assert_eq!(back.state_hash(), g.state_hash());
    // Resumed games continue identically (the dice stream position is saved).
    let (mut a, mut b) = (g.clone(), back);
    let (Game::Classic(x), Game::Classic(y)) = (&mut a, &mut b) else {
        panic!("classic games")
    };
    orbis_engine::sim::run(x, BotLevel::Normal, 40).unwrap();
    orbis_engine::sim::run(y, BotLevel::Normal, 40).unwrap();
    assert_eq!(x.state_hash(), y.state_hash());

    assert_eq!(Game::from_save(b"hello"), Err(LoadError::NotASave));
    assert!(matches!(
        Game::from_save(&bytes[..bytes.len() / 2]),
        Err(LoadError::Decode(_))
    ));
    let mut wrong_version = bytes.clone();
    wrong_version[5] = 99;
    assert_eq!(Game::from_save(&wrong_version), Err(LoadError::Version(99)));
    // Flip bytes all over: never a panic, always an error or a consistent game.
    for i in 6..bytes.len() {
        let mut c = bytes.clone();
        c[i] ^= 0x5a;
        if let Ok(Game::Classic(s)) = Game::from_save(&c) {
            assert!(s.check_consistency().is_ok());
        }
    }
    assert!(!LoadError::NotASave.to_string().is_empty());
}

#[test]
fn twenty_four_territories_mission_wins_on_the_24th() {
    let m = Map::classic();
    let o = ClassicOptions {
        missions: true,
        ..ClassicOptions::default()
    };
    // Player 0 holds 23 territories including Ukraine; Ural (adjacent) is player 1's.
    let mut mine: Vec<(&str, u32)> = m
        .territories
        .iter()
        .map(|x| (x.key.as_str(), 2))
        .filter(|(k, _)| *k != "ural" && *k != "ukraine")
        .take(22)
        .collect();
    mine.push(("ukraine", 9));
    assert_eq!(mine.len(), 23);
    let mut s = board(&mine, &[("ural", 1)], o);
    s.players[0].mission = Some(Mission::Territories(24));
    s.players[1].mission = Some(Mission::Territories(24));
    s.players[2].mission = Some(Mission::Territories(24));
    let ev = s
        .apply_with(
            &Action::Attack {
                from: t("ukraine"),
                to: t("ural"),
                dice: 3,
            },
            &mut Faces(vec![6, 6, 6, 1]),
        )
        .unwrap();
    assert!(
        ev.contains(&Event::Won {
            player: 0,
            reason: WinReason::Mission(Mission::Territories(24))
        }),
        "{ev:?}"
    );
}
