//! Property tests: random sequences of legal and illegal actions keep the game's invariants.

use orbis_engine::bot;
use orbis_engine::rules::classic::*;
use proptest::prelude::*;

fn options_strategy() -> impl Strategy<Value = ClassicOptions> {
    (
        0u8..4,
        0u8..4,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        0u8..5,
        (any::<bool>(), any::<bool>(), any::<bool>()),
    )
        .prop_map(
            |(c, f, chosen, missions, hold, neutral, (deck, two, each))| ClassicOptions {
                cards: [
                    CardSchedule::Escalating,
                    CardSchedule::PlusOne,
                    CardSchedule::FourThenFive,
                    CardSchedule::Constant(4),
                ][c as usize],
                fortify: [
                    FortifyRule::OneToOneAdjacent,
                    FortifyRule::OneToManyAdjacent,
                    FortifyRule::ManyToManyAdjacent,
                    FortifyRule::ManyToManyConnected,
                ][f as usize],
                selection: if chosen {
                    Selection::Chosen
                } else {
                    Selection::Random
                },
                missions,
                hold_mission_full_round: hold,
                neutral_territories: neutral,
                neutral_armies: 2,
                mission_deck: if deck {
                    MissionDeck::AbsentAsTerritories
                } else {
                    MissionDeck::WithoutAbsentColours
                },
                defend_two_with_one: two,
                card_bonus: if each {
                    CardBonus::EachCard
                } else {
                    CardBonus::OnePerTurn
                },
            },
        )
}

/// An arbitrary, usually illegal, action built from random numbers.
fn wild_action(kind: u8, a: u8, b: u8, n: u32) -> Action {
    match kind % 10 {
        0 => Action::Claim { territory: a },
        1 => Action::Place {
            territory: a,
            armies: n % 8,
        },
        2 => Action::Trade {
            cards: [a % 46, b % 46, (a ^ b) % 46],
        },
        3 => Action::Attack {
            from: a % 44,
            to: b % 44,
            dice: (n % 5) as u8,
        },
        4 => Action::Blitz {
            from: a % 44,
            to: b % 44,
            stop_at: n % 6,
        },
        5 => Action::Occupy { armies: n % 10 },
        6 => Action::EndAttack,
        7 => Action::Fortify {
            from: a % 44,
            to: b % 44,
            armies: n % 6,
        },
        8 => Action::EndTurn,
        _ => Action::SetDefence {
            player: a % 8,
            pref: if n.is_multiple_of(2) {
                DefendPref::Max
            } else {
                DefendPref::One
            },
        },
    }
}

fn total_armies(s: &ClassicState) -> i64 {
    s.armies.iter().map(|&a| i64::from(a)).sum()
}

fn check_invariants(s: &ClassicState) {
    s.check_consistency().unwrap();
    // No empty territory once everything is claimed.
    if s.phase != Phase::Claim {
        assert!(s.armies.iter().all(|&a| a > 0));
    }
    // 44 cards accounted for, each exactly once.
    let mut cards: Vec<CardId> = s
        .deck
        .iter()
        .chain(&s.discard)
        .chain(s.players.iter().flat_map(|p| &p.hand))
        .copied()
        .collect();
    cards.sort_unstable();
    assert_eq!(cards, (0..44).collect::<Vec<_>>());
    // The player to act is alive; eliminated players own nothing and hold no cards.
    assert!(s.players[s.current as usize].alive);
    for (i, p) in s.players.iter().enumerate() {
        if !p.alive {
            assert_eq!(s.territory_count(i as PlayerId), 0);
            assert!(p.hand.is_empty());
        }
    }
}

/// Armies added or removed according to the events: placements and trade bonuses add,
/// combat removes, everything else only moves armies.
fn expected_delta(events: &[Event]) -> i64 {
    events
        .iter()
        .map(|e| match e {
            Event::Claimed { .. } => 1,
            Event::Placed { armies, .. } => i64::from(*armies),
            Event::Traded { bonus, .. } => 2 * bonus.len() as i64,
            Event::Rolled {
                attacker_lost,
                defender_lost,
                ..
            } => -i64::from(attacker_lost + defender_lost),
            _ => 0,
        })
        .sum()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_play_keeps_invariants(
        players in 2usize..=6,
        seed in any::<[u8; 32]>(),
        options in options_strategy(),
        steps in prop::collection::vec((any::<u8>(), any::<u8>(), any::<u8>(), any::<u32>()), 300..2500),
    ) {
        let mut s = ClassicState::new(default_seats(players, SeatKind::Human), options, seed).unwrap();
        check_invariants(&s);
        for (kind, a, b, n) in steps {
            if s.winner().is_some() {
                break;
            }
            // Mostly legal bot moves (every level), sometimes arbitrary actions.
            let action = match kind % 8 {
                0 | 4 => wild_action(kind / 4, a, b, n),
                1 | 5 => bot::choose(&s, BotLevel::Easy).unwrap(),
                7 => bot::choose(&s, BotLevel::Hard).unwrap(),
                _ => bot::choose(&s, BotLevel::Normal).unwrap(),
            };
            let before = s.clone();
            match s.apply(&action) {
                Ok(events) => {
                    prop_assert_eq!(total_armies(&s), total_armies(&before) + expected_delta(&events), "{:?}", action);
                    prop_assert_eq!(s.step, before.step + 1);
                }
                Err(e) => {
                    prop_assert_eq!(&s, &before, "illegal {:?} changed the state", action);
                    prop_assert!(!e.to_string().is_empty());
                }
            }
            check_invariants(&s);
        }
        if std::env::var_os("ORBIS_PROP_TRACE").is_some() {
            eprintln!("players {players} turn {} step {} winner {:?}", s.turn, s.step, s.winner());
        }
    }

    #[test]
    fn decoding_arbitrary_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let _ = orbis_engine::rules::Game::from_save(&bytes);
        let mut with_magic = b"ORBIS\x01".to_vec();
        with_magic.extend_from_slice(&bytes);
        let _ = orbis_engine::rules::Game::from_save(&with_magic);
        let _ = orbis_engine::codec::decode::<Action>(&bytes);
    }
}
