//! Cards and missions dealt face down: the state holds slots, never cards, until their holder
//! shows them; shown cards trade as always, a shown mission wins when done, the conqueror takes
//! the slots of the player it eliminates, and an empty deck is followed by a new deck of the
//! discards. The test plays the dealer's part: it knows what is behind every slot, as the holder
//! would after the deal.

use crate::classic_common;

use classic_common::*;
use orbis_engine::bot;
use orbis_engine::dice::{shuffle, SeededDice};
use orbis_engine::rules::classic::*;
use orbis_engine::rules::Game;
use std::collections::BTreeMap;

/// What is behind every slot: each deck laid out as the state says, shuffled by a seed.
struct Dealer {
    seed: u8,
    decks: BTreeMap<u8, Vec<CardId>>,
}

impl Dealer {
    fn new(seed: u8) -> Dealer {
        Dealer {
            seed,
            decks: BTreeMap::new(),
        }
    }

    fn card(&mut self, s: &ClassicState, slot: Slot) -> CardId {
        let d = s.sealed.as_ref().unwrap();
        let seed = self.seed;
        self.decks.entry(slot.deck).or_insert_with(|| {
            let mut cards: Vec<CardId> = if slot.deck == MISSION_DECK {
                (0..d.missions.len() as CardId).collect()
            } else {
                d.territory_deck(slot.deck).unwrap().to_vec()
            };
            shuffle(&mut SeededDice::new([seed ^ slot.deck; 32]), &mut cards);
            cards
        })[slot.position as usize]
    }

    /// The current player shows every face-down card it holds, as a peer does for a bot seat.
    fn show_all(&mut self, s: &mut ClassicState) -> Vec<Event> {
        let me = s.current as usize;
        let mut ev = vec![];
        let slots: Vec<Slot> = s.players[me].sealed.clone();
        for slot in slots {
            let card = self.card(s, slot);
            ev.extend(s.apply(&Action::Show { slot, card }).unwrap());
        }
        ev
    }
}

fn sealed_game(n: usize, missions: bool, seed: u8) -> ClassicState {
    let options = ClassicOptions {
        missions,
        ..ClassicOptions::default()
    };
    ClassicState::new_sealed("classic", seats(n), options, [seed; 32]).unwrap()
}

#[test]
fn a_face_down_deal_holds_slots_not_cards() {
    let s = sealed_game(4, true, 1);
    let face_up = ClassicState::new(seats(4), s.options.clone(), [1; 32]).unwrap();
    // The same board as the face-up deal of that seed.
    assert_eq!(s.owner, face_up.owner);
    assert_eq!(s.current, face_up.current);
    assert!(s.deck.is_empty());
    let d = s.sealed.as_ref().unwrap();
    assert_eq!(d.decks[0], (0..44).collect::<Vec<CardId>>());
    assert!(!d.missions.is_empty());
    for (i, p) in s.players.iter().enumerate() {
        assert!(p.mission.is_none() && p.hand.is_empty());
        assert_eq!(
            p.sealed_mission,
            Some(Slot {
                deck: MISSION_DECK,
                position: i as u16
            })
        );
    }
    assert_eq!(s.check_consistency(), Ok(()));
}

#[test]
fn whole_games_play_with_face_down_cards() {
    let mut reshuffles = 0;
    let mut taken = 0;
    let mut shown_missions = 0;
    for seed in 1..=12u8 {
        let mut s = sealed_game(3 + (seed as usize % 4), seed % 2 == 0, seed);
        let mut dealer = Dealer::new(seed);
        for _ in 0..6000 {
            if s.winner().is_some() {
                break;
            }
            // A computer seat plays with its cards face up; it shows its mission at once.
            for e in dealer.show_all(&mut s) {
                assert!(matches!(e, Event::CardShown { .. }));
            }
            let me = s.current as usize;
            if let Some(slot) = s.players[me].sealed_mission {
                let card = dealer.card(&s, slot);
                s.apply(&Action::Show { slot, card }).unwrap();
                shown_missions += 1;
                assert!(s.players[me].mission.is_some());
                continue;
            }
            let a = bot::choose(&s, BotLevel::Normal).unwrap();
            for e in s.apply(&a).unwrap() {
                match e {
                    Event::Reshuffled { cards, .. } => {
                        reshuffles += 1;
                        assert!(!cards.is_empty());
                        assert!(s.discard.is_empty());
                    }
                    Event::SlotsTaken { to, slots, .. } => {
                        taken += 1;
                        assert!(slots
                            .iter()
                            .all(|x| s.players[to as usize].sealed.contains(x)));
                    }
                    _ => {}
                }
            }
            assert_eq!(s.check_consistency(), Ok(()));
            // Nothing but shown cards is known: every known card was shown from a slot.
            let d = s.sealed.as_ref().unwrap();
            for c in s.players.iter().flat_map(|p| &p.hand).chain(&s.discard) {
                assert!(d.shown.iter().any(|x| x.1 == *c), "card {c} never shown");
            }
        }
        assert!(s.winner().is_some(), "game {seed} did not end");
        let saved = Game::Classic(s.clone()).to_save();
        assert_eq!(Game::from_save(&saved).unwrap(), Game::Classic(s));
    }
    assert!(reshuffles > 0, "no game ran out of cards");
    assert!(taken > 0, "no conqueror took face-down cards");
    assert!(shown_missions > 0);
}

#[test]
fn only_the_holder_shows_a_slot_and_only_as_a_card_of_that_deck() {
    let mut s = sealed_game(3, true, 5);
    let me = s.current;
    let other = (me + 1) % 3;
    let theirs = s.players[other as usize].sealed_mission.unwrap();
    assert_eq!(
        s.apply(&Action::Show {
            slot: theirs,
            card: 0
        }),
        Err(ClassicError::NotYourSlot)
    );
    let mine = s.players[me as usize].sealed_mission.unwrap();
    let n = s.sealed.as_ref().unwrap().missions.len() as CardId;
    assert_eq!(
        s.apply(&Action::Show {
            slot: mine,
            card: n
        }),
        Err(ClassicError::UnknownCard(n))
    );
    let undealt = Slot {
        deck: TERRITORY_DECK,
        position: 0,
    };
    assert_eq!(
        s.apply(&Action::Show {
            slot: undealt,
            card: 3
        }),
        Err(ClassicError::NotYourSlot)
    );
    // A slot shows once.
    s.apply(&Action::Show {
        slot: mine,
        card: 0,
    })
    .unwrap();
    assert_eq!(
        s.apply(&Action::Show {
            slot: mine,
            card: 0
        }),
        Err(ClassicError::NotYourSlot)
    );
    // Nothing is face down in a game dealt face up.
    let mut up = ClassicState::new(seats(3), ClassicOptions::default(), [5; 32]).unwrap();
    assert_eq!(
        up.apply(&Action::Show {
            slot: mine,
            card: 0
        }),
        Err(ClassicError::NothingFaceDown)
    );
}

#[test]
fn a_card_already_in_sight_cannot_be_shown_again() {
    let mut s = in_reinforce(
        board(
            &[("alaska", 3)],
            &[("kamchatka", 3)],
            ClassicOptions::default(),
        ),
        3,
        vec![],
    );
    s.deck.clear();
    s.sealed = Some(SealedDeal {
        decks: vec![(0..44).collect()],
        drawn: 2,
        missions: vec![],
        shown: vec![],
    });
    let a = Slot {
        deck: TERRITORY_DECK,
        position: 0,
    };
    let b = Slot {
        deck: TERRITORY_DECK,
        position: 1,
    };
    s.players[0].sealed = vec![a, b];
    s.apply(&Action::Show { slot: a, card: 7 }).unwrap();
    assert_eq!(
        s.apply(&Action::Show { slot: b, card: 7 }),
        Err(ClassicError::DuplicateCard(7))
    );
    assert_eq!(s.players[0].hand, vec![7]);
    assert_eq!(s.cards_held(0), 2);
}

#[test]
fn a_shown_mission_that_is_done_wins_at_once() {
    let mut s = sealed_game(3, true, 9);
    let me = s.current;
    let slot = s.players[me as usize].sealed_mission.unwrap();
    let d = s.sealed.clone().unwrap();
    let k = d
        .missions
        .iter()
        .position(|m| matches!(m, Mission::Territories(24)))
        .unwrap() as CardId;
    // Hand the holder 24 territories.
    for t in 0..24 {
        s.owner[t] = Owner::Player(me);
        s.armies[t] = s.armies[t].max(1);
    }
    let ev = s.apply(&Action::Show { slot, card: k }).unwrap();
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Won {
            reason: WinReason::Mission(Mission::Territories(24)),
            ..
        }
    )));
}

#[test]
fn a_save_that_holds_a_slot_twice_is_refused() {
    let mut s = sealed_game(3, true, 2);
    let slot = s.players[0].sealed_mission.unwrap();
    s.players[1].sealed.push(slot);
    assert!(Game::from_save(&Game::Classic(s).to_save()).is_err());
}
