//! Influence cards dealt face down: the deal, drawing and reshuffling, slots moved by a theft, a
//! capital or a surrender, showing and peeking, and a whole bot game shown card by card.

use super::super::action::EconomyAction as A;
use super::super::battlefield::{BattleAction, Foe, Site};
use super::super::combat::tests::{act, declare, game, hold, mv, pass, r, to_combat};
use super::super::options::Setup;
use super::super::phase::Phase;
use super::super::units::Kind;
use super::*;
use crate::dice::SeededDice;
use crate::rules::classic::BotLevel;
use std::collections::BTreeMap;

fn slot(deck: u8, position: u16) -> Slot {
    Slot { deck, position }
}

/// `s` dealt face down: its deck laid out as deck 0, `drawn` positions of it dealt already.
fn seal(s: &mut EconomyState, drawn: u16) {
    let mut all = std::mem::take(&mut s.deck);
    crate::short_sort::sort(&mut all);
    s.sealed = Some(SealedInfluence {
        decks: vec![all],
        drawn,
        shown: vec![],
        gone: vec![],
    });
}

fn sealed(s: &EconomyState) -> &SealedInfluence {
    s.sealed.as_ref().expect("dealt face down")
}

/// The whole deck dealt: `held` positions (from 0) are Bob's and Cy's to place, `known` cards
/// were shown from the positions after them, the rest left with a surrendered player.
fn all_dealt(s: &mut EconomyState, held: u16, known: &[RegionId]) {
    seal(s, 42);
    let d = s.sealed.as_mut().unwrap();
    let n = known.len() as u16;
    d.gone = (held..42 - n).map(|i| slot(0, i)).collect();
    d.shown = known
        .iter()
        .enumerate()
        .map(|(i, &c)| (slot(0, 42 - n + i as u16), c))
        .collect();
}

/// Ann wins Northern Europe from Bob (who keeps Ukraine): an influence card, then the next
/// round, where she takes Bob's capital.
fn ann_wins(s: &mut EconomyState) -> Vec<EconomyEvent> {
    hold(s, 1, "ukraine", 1, 0);
    // Ann plans the attack; everyone else plans nothing, and Ann wins the initiative.
    let n = s.players.len();
    let mut plans = vec![vec![mv("western_europe", "northern_europe", 4, 0)]];
    plans.resize(n, vec![]);
    let mut initiative = vec![6];
    initiative.resize(n, 1);
    to_combat(s, plans, initiative);
    let ne = Site::Region(r("northern_europe"));
    act(
        s,
        A::PickBattle {
            player: 0,
            site: ne,
        },
        vec![],
    )
    .unwrap();
    pass(s, 1);
    let attack = BattleAction::Attack {
        target: Foe::Player(1),
        kind: Kind::Army,
    };
    let mut ev = declare(s, 0, Some(attack), vec![6, 2, 6, 2, 6, 2]).unwrap();
    // Players holding cards are asked before the combat phase ends (a revolution stays
    // possible): they stop.
    while let Some(&q) = s.to_move_on(EconomyMap::get()).first() {
        ev.extend(act(s, A::StopMoving { player: q }, vec![]).unwrap());
    }
    ev
}

#[test]
fn a_victory_draws_a_slot_and_a_capital_brings_its_slots() {
    let mut s = game(&["Ann", "Bob"]);
    seal(&mut s, 2);
    s.players[1].sealed = vec![slot(0, 0), slot(0, 1)];
    let ev = ann_wins(&mut s);
    let drawn = slot(0, 2);
    assert!(ev.contains(&EconomyEvent::SlotDrawn {
        player: 0,
        slot: drawn
    }));
    assert!(!ev
        .iter()
        .any(|e| matches!(e, EconomyEvent::CardDrawn { .. })));
    let taken = ev
        .iter()
        .position(|e| matches!(e, EconomyEvent::CapitalTaken { cards: 2, .. }))
        .expect("the capital is taken with two cards");
    assert_eq!(
        ev[taken + 1],
        EconomyEvent::SlotsTaken {
            player: 0,
            from: 1,
            slots: vec![slot(0, 0), slot(0, 1)]
        }
    );
    assert_eq!(s.players[0].sealed, vec![drawn, slot(0, 0), slot(0, 1)]);
    assert!(s.players[1].sealed.is_empty() && s.players[0].cards.is_empty());
    assert_eq!(sealed(&s).drawn, 3);
    assert_eq!(s.cards_held(0), 3);
    assert_eq!(s.check_consistency(), Ok(()));
}

#[test]
fn a_used_up_deck_is_followed_by_the_discards_laid_out() {
    let mut s = game(&["Ann", "Bob"]);
    let known = [r("japan"), r("egypt"), r("siam")];
    all_dealt(&mut s, 0, &known);
    s.discard = known.to_vec();
    assert_eq!(s.check_consistency(), Ok(()));
    let ev = ann_wins(&mut s);
    let mut cards = known.to_vec();
    crate::short_sort::sort(&mut cards);
    assert!(ev.contains(&EconomyEvent::InfluenceReshuffled {
        deck: 1,
        cards: cards.clone()
    }));
    assert!(ev.contains(&EconomyEvent::SlotDrawn {
        player: 0,
        slot: slot(1, 0)
    }));
    assert!(s.discard.is_empty());
    assert_eq!(sealed(&s).decks[1], cards);
    assert_eq!(sealed(&s).drawn, 1);
    assert_eq!(s.check_consistency(), Ok(()));
    // Egypt was shown from deck 0 and has gone round since: it may be shown from deck 1.
    let show = A::ShowCard {
        player: 0,
        slot: slot(1, 0),
        card: r("egypt"),
    };
    s.apply(&show).unwrap();
    assert_eq!(s.players[0].cards, vec![r("egypt")]);
    assert_eq!(s.shown(slot(1, 0)), Some(r("egypt")));
    assert_eq!(s.check_consistency(), Ok(()));
}

#[test]
fn a_theft_can_take_a_face_down_card() {
    let mut s = game(&["Ann", "Bob", "Cy"]);
    hold(&mut s, 1, "ukraine", 1, 0);
    hold(&mut s, 2, "peru", 1, 0);
    s.players[2].capital = Some(r("peru"));
    all_dealt(&mut s, 2, &[r("siam")]);
    s.players[1].cards = vec![r("siam")];
    s.players[2].sealed = vec![slot(0, 0), slot(0, 1)];
    assert_eq!(s.check_consistency(), Ok(()));
    ann_wins(&mut s);
    // Nothing to draw: Cy, with face-down cards only, can be stolen from.
    assert_eq!(s.steal_victims(0), vec![1, 2]);
    let ev = s.apply(&A::StealCard { player: 0, from: 2 }).unwrap();
    let EconomyEvent::SlotStolen {
        player: 0,
        from: 2,
        slot: stolen,
    } = ev[0]
    else {
        panic!("a face-down card is stolen: {ev:?}");
    };
    assert_eq!(s.players[2].sealed.len(), 1);
    assert!(!s.players[2].sealed.contains(&stolen));
    assert_eq!(s.players[0].sealed, vec![stolen]);
    assert_eq!(s.check_consistency(), Ok(()));
}

#[test]
fn a_surrender_sends_face_down_cards_out_of_the_game() {
    let mut s = game(&["Ann", "Bob", "Cy"]);
    hold(&mut s, 2, "ukraine", 2, 0);
    seal(&mut s, 2);
    s.phase = Phase::Get;
    s.players[1].sealed = vec![slot(0, 0)];
    s.players[1].cards = vec![r("egypt")];
    s.sealed.as_mut().unwrap().shown = vec![(slot(0, 1), r("egypt"))];
    assert_eq!(s.check_consistency(), Ok(()));
    s.apply(&A::Surrender { player: 1 }).unwrap();
    assert_eq!(s.discard, vec![r("egypt")]);
    assert_eq!(sealed(&s).gone, vec![slot(0, 0)]);
    assert_eq!(s.cards_held(1), 0);
    assert_eq!(s.check_consistency(), Ok(()));
    let show = A::ShowCard {
        player: 1,
        slot: slot(0, 0),
        card: r("siam"),
    };
    assert_eq!(s.apply(&show), Err(EconomyError::NotPlaying(1)));
}

#[test]
fn a_card_is_shown_in_anyones_step_and_changes_nothing_else() {
    let mut s = game(&["Ann", "Bob"]);
    seal(&mut s, 1);
    s.players[1].sealed = vec![slot(0, 0)];
    to_combat(
        &mut s,
        vec![vec![mv("western_europe", "northern_europe", 4, 0)], vec![]],
        vec![6, 1],
    );
    // Ann, the initiative holder, picks the battle: Bob shows his card meanwhile.
    assert_eq!(s.to_act(), vec![0]);
    let before = s.clone();
    let ev = s
        .apply(&A::ShowCard {
            player: 1,
            slot: slot(0, 0),
            card: r("siam"),
        })
        .unwrap();
    assert_eq!(
        ev,
        vec![EconomyEvent::CardShown {
            player: 1,
            slot: slot(0, 0),
            card: r("siam")
        }]
    );
    assert!(before.same_step(&s));
    let mut expect = before.clone();
    expect.players[1].sealed.clear();
    expect.players[1].cards = vec![r("siam")];
    expect.sealed.as_mut().unwrap().shown = vec![(slot(0, 0), r("siam"))];
    expect.steps += 1;
    assert_eq!(s, expect);
    assert_eq!(s.shown(slot(0, 0)), Some(r("siam")));
}

#[test]
fn showing_a_card_is_refused_when_it_cannot_be() {
    let mut s = game(&["Ann", "Bob"]);
    let show = |player, slot, card| A::ShowCard { player, slot, card };
    assert_eq!(
        s.apply(&show(0, slot(0, 0), r("siam"))),
        Err(EconomyError::NothingFaceDown)
    );
    seal(&mut s, 3);
    s.players[0].sealed = vec![slot(0, 0)];
    s.players[1].sealed = vec![slot(0, 1), slot(0, 2)];
    assert_eq!(
        s.apply(&show(0, slot(0, 1), r("siam"))),
        Err(EconomyError::NotYourSlot)
    );
    assert_eq!(
        s.apply(&show(0, slot(1, 0), r("siam"))),
        Err(EconomyError::NotYourSlot)
    );
    let water = r("western_europe_coast");
    assert_eq!(
        s.apply(&show(0, slot(0, 0), water)),
        Err(EconomyError::UnknownCard(water))
    );
    s.apply(&show(1, slot(0, 1), r("siam"))).unwrap();
    // Siam is Bob's now; it is behind no other slot of that deck.
    assert_eq!(
        s.apply(&show(0, slot(0, 0), r("siam"))),
        Err(EconomyError::DuplicateCard(r("siam")))
    );
    // Still so once it is gone to the discards (shown from this deck).
    s.players[1].cards.clear();
    s.discard.push(r("siam"));
    assert_eq!(
        s.apply(&show(1, slot(0, 2), r("siam"))),
        Err(EconomyError::DuplicateCard(r("siam")))
    );
    s.discard.clear();
    assert_eq!(
        s.apply(&show(1, slot(0, 2), r("siam"))),
        Err(EconomyError::DuplicateCard(r("siam")))
    );
    s.players[0].cards.push(r("peru"));
    assert_eq!(
        s.apply(&show(1, slot(0, 2), r("peru"))),
        Err(EconomyError::DuplicateCard(r("peru")))
    );
    assert!(EconomyError::NotYourSlot.to_string().contains("face-down"));
}

#[test]
fn a_peek_turns_a_card_up_in_that_copy_only() {
    let mut s = game(&["Ann", "Bob"]);
    seal(&mut s, 1);
    s.players[1].sealed = vec![slot(0, 0)];
    let mut view = s.clone();
    view.peek(0, slot(0, 0), r("peru"));
    assert_eq!(view, s, "not Ann's card");
    view.peek(1, slot(0, 0), r("peru"));
    assert_eq!(view.players[1].cards, vec![r("peru")]);
    assert!(view.players[1].sealed.is_empty());
    assert_eq!(view.shown(slot(0, 0)), None);
    assert!(sealed(&view).shown.is_empty());
    assert_eq!(view.cards_held(1), 1);
}

#[test]
fn a_face_down_card_is_traded_or_spent_only_once_shown() {
    let mut s = game(&["Ann", "Bob"]);
    seal(&mut s, 3);
    s.phase = Phase::Get;
    for t in &mut s.get {
        t.settled = true;
    }
    s.players[0].cards = vec![r("peru"), r("egypt")];
    s.sealed.as_mut().unwrap().shown = vec![(slot(0, 0), r("peru")), (slot(0, 1), r("egypt"))];
    s.players[0].sealed = vec![slot(0, 2)];
    assert_eq!(s.check_consistency(), Ok(()));
    let trade = A::TradeCards {
        player: 0,
        cards: [r("peru"), r("egypt"), r("siam")],
    };
    let refused = s.apply(&trade);
    assert_eq!(refused, Err(EconomyError::CardNotShown(r("siam"))));
    assert!(refused.unwrap_err().to_string().contains("show"));
    s.apply(&A::ShowCard {
        player: 0,
        slot: slot(0, 2),
        card: r("siam"),
    })
    .unwrap();
    s.apply(&trade).unwrap();
    assert!(s.players[0].cards.is_empty());
    assert_eq!(s.discard.len(), 3);
    assert_eq!(s.check_consistency(), Ok(()));
}

#[test]
fn a_damaged_face_down_deal_is_refused_with_a_reason() {
    let mut good = game(&["Ann", "Bob"]);
    seal(&mut good, 2);
    good.players[0].sealed = vec![slot(0, 0)];
    good.players[1].sealed = vec![slot(0, 1)];
    assert_eq!(good.check_consistency(), Ok(()));
    let damaged = |f: &dyn Fn(&mut EconomyState)| {
        let mut s = good.clone();
        f(&mut s);
        let bytes = crate::rules::Game::Economy(s.clone()).to_save();
        match crate::rules::Game::from_save(&bytes) {
            Err(crate::rules::LoadError::Inconsistent(why)) => why,
            other => panic!("loaded a damaged deal: {other:?}"),
        }
    };
    assert!(damaged(&|s| s.players[1].sealed = vec![slot(0, 0)]).contains("held twice"));
    assert!(damaged(&|s| s.players[1].sealed = vec![slot(0, 5)]).contains("0:5"));
    assert!(damaged(&|s| s.players[1].sealed = vec![slot(3, 0)]).contains("3:0"));
    assert!(damaged(&|s| s.deck.push(0)).contains("face-up influence deck"));
    assert!(damaged(&|s| s.players[1].cards.push(r("siam"))).contains("add up"));
    assert!(damaged(&|s| s.discard = vec![r("siam"), r("siam")]).contains("two places"));
    assert!(damaged(&|s| s.sealed.as_mut().unwrap().drawn = 50).contains("drawn"));
    assert!(damaged(&|s| {
        s.sealed.as_mut().unwrap().decks[0].pop();
    })
    .contains("first influence deck"));
    assert!(damaged(&|s| s.sealed = None).contains("face up"));
    assert!(damaged(&|s| {
        s.sealed.as_mut().unwrap().decks.push(vec![]);
    })
    .contains("reshuffled"));
}

/// The cards truly behind each deck's positions, as the participants' shuffles laid them: a
/// shuffle of each deck's layout, made when the deck first appears.
struct Table(BTreeMap<u8, Vec<RegionId>>);

impl Table {
    /// Every player still in shows every face-down card it holds.
    fn show_all(&mut self, s: &mut EconomyState) {
        let Some(d) = s.sealed.clone() else { return };
        for (k, layout) in d.decks.iter().enumerate() {
            self.0.entry(k as u8).or_insert_with(|| {
                let mut v = layout.clone();
                crate::dice::shuffle(&mut SeededDice::new([k as u8 + 1; 32]), &mut v);
                v
            });
        }
        let playing: Vec<PlayerId> = s.playing().collect();
        for p in playing {
            for sl in s.players[p as usize].sealed.clone() {
                let card = self.0[&sl.deck][sl.position as usize];
                let before = s.clone();
                let ev = s.apply(&A::ShowCard {
                    player: p,
                    slot: sl,
                    card,
                });
                assert_eq!(
                    ev,
                    Ok(vec![EconomyEvent::CardShown {
                        player: p,
                        slot: sl,
                        card
                    }])
                );
                assert!(before.same_step(s));
            }
        }
    }
}

/// Bots play `s` to its end, every face-down card shown as soon as it is dealt; the number of
/// cards drawn.
fn play_to_the_end(s: &mut EconomyState) -> usize {
    let mut table = Table(BTreeMap::new());
    let (mut drawn, mut n) = (0, 0);
    while s.phase != Phase::Over {
        n += 1;
        assert!(n < 20000, "the game stalls");
        let p = *s.to_act().first().expect("someone acts");
        let level = if p == 0 {
            BotLevel::Normal
        } else {
            BotLevel::Easy
        };
        let a = crate::bot::economy::choose(s, p, level).expect("a bot always acts");
        let ev = s.apply(&a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
        drawn += ev
            .iter()
            .filter(|e| matches!(e, EconomyEvent::SlotDrawn { .. }))
            .count();
        assert!(!ev
            .iter()
            .any(|e| matches!(e, EconomyEvent::CardDrawn { .. })));
        table.show_all(s);
        assert_eq!(s.check_consistency(), Ok(()));
    }
    drawn
}

fn bot_game(seed: u8) -> EconomyState {
    let options = EconomyOptions {
        setup: Setup::Continents,
        random_picks: true,
        round_limit: Some(30),
        ..EconomyOptions::default()
    };
    let names = ["Ann", "Bob", "Cy"];
    EconomyState::new_sealed(&names, options, [seed; 32])
        .unwrap()
        .0
}

#[test]
fn a_bot_game_dealt_face_down_plays_to_its_end() {
    let mut s = bot_game(3);
    let drawn = play_to_the_end(&mut s);
    assert!(drawn > 0, "some card was drawn");
    assert_eq!(sealed(&s).shown.len(), drawn);
}

/// The same with most of the first deck gone before the game (as if dealt to a player who left):
/// the deck runs out, and the discards are laid out again and again.
#[test]
fn a_bot_game_dealt_face_down_reshuffles_its_discards() {
    let mut s = bot_game(4);
    let d = s.sealed.as_mut().unwrap();
    d.drawn = 38;
    d.gone = (0..38).map(|i| slot(0, i)).collect();
    play_to_the_end(&mut s);
    assert!(sealed(&s).decks.len() > 2, "the discards were laid out");
}
