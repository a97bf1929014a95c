//! The economy's influence cards dealt face down (issue 29): a whole game on the simulated
//! network in which every card drawn is read by its holder alone, shown (with its proof) when
//! it is traded or turned in, and a participant that lies about a card it shows is named while
//! the honest peers play on.

use crate::common;

use common::economy::*;
use common::Net;
use orbis_engine::classic::BotLevel;
use orbis_engine::rules::economy::action::{EconomyAction, EconomyEvent};
use orbis_engine::rules::economy::phase::Phase;
use orbis_protocol::peer::{replay, verify};
use orbis_protocol::wire::{decode_economy_with, encode_economy_with};
use orbis_protocol::Violation;

/// Every event of peer `i`'s game.
fn events(net: &Net, i: usize) -> Vec<EconomyEvent> {
    applied(net, i).into_iter().flat_map(|x| x.2).collect()
}

/// A game of two participants and two computer seats, influence cards dealt face down, played
/// to its round limit by the computer's choices from each peer's own view: every peer ends on
/// the same state; cards were drawn face down and shown when used (the computer's through the
/// participants' payloads); and nobody's shared state, or view, holds another player's unshown
/// card.
#[test]
fn a_face_down_economy_game_plays_to_its_end_showing_cards_when_used() {
    let mut net = economy_net_face_down(2, &[BotLevel::Normal, BotLevel::Normal], 21, 16);
    assert!(
        state(&net, 0).sealed.is_some(),
        "the deck is dealt face down"
    );
    let until = net.now + 4_000_000;
    let over = |n: &Net| (0..2).all(|i| state(n, i).phase == Phase::Over);
    let ended = drive(&mut net, until, |_, _| false, over);
    if !ended {
        for i in 0..2 {
            let s = state(&net, i);
            eprintln!(
                "peer {i}: log {} phase {:?} round {} halted {:?} due {:?} waiting {:?} complaints {:?}",
                net.peers[i].log_len(),
                s.phase,
                s.round,
                net.peers[i].halted(),
                net.peers[i].economy_due(),
                net.peers[i].waiting_on().len(),
                net.complaints(i)
            );
        }
    }
    assert!(ended, "the game ends");
    let h = hashes(&net, &[0, 1]);
    assert!(h.iter().all(|x| *x == h[0]), "{h:?}");
    let ev = events(&net, 0);
    let drawn = ev
        .iter()
        .filter(|e| matches!(e, EconomyEvent::SlotDrawn { .. }))
        .count();
    let shown = ev
        .iter()
        .filter(|e| matches!(e, EconomyEvent::CardShown { .. }))
        .count();
    println!("face-down economy game: {drawn} cards drawn face down, {shown} shown");
    assert!(drawn > 0, "cards were drawn face down");
    // A computer seat's card, read face up by the participants, was shown through their
    // payloads (seats 2 and 3 are the computer's).
    assert!(
        ev.iter()
            .any(|e| matches!(e, EconomyEvent::CardShown { player, .. } if *player >= 2)),
        "a computer seat's card was shown"
    );
    assert!(
        !ev.iter()
            .any(|e| matches!(e, EconomyEvent::CardDrawn { .. })),
        "no card is drawn face up"
    );
    // The transcript checks out offline: every participant's key was published at the end, so
    // every dealt position opens, and each card shown is the one its position holds.
    let t = net.peers[0].transcript().expect("a transcript");
    let report = verify(&t).expect("the transcript verifies");
    let deal = report.deal.expect("a face-down deal");
    assert_eq!(deal.keys, 2, "both keys published");
    assert!(
        deal.opened >= drawn,
        "{} of {drawn} drawn positions open",
        deal.opened
    );
    let r = replay(&t).expect("replays");
    let last = match r.states.last() {
        Some(orbis_engine::rules::Game::Economy(s)) => s.clone(),
        _ => panic!("an economy game"),
    };
    for pl in &last.players {
        for slot in &pl.sealed {
            assert!(r.cards.contains_key(slot), "the replay opens {slot:?}");
        }
    }
    // Whatever is still face down: its holder's view reads it, nobody else's does.
    let s = state(&net, 0).clone();
    for (seat, pl) in s.players.iter().enumerate() {
        for slot in &pl.sealed {
            for i in 0..2 {
                let read = net.peers[i].read(*slot).is_some();
                if seat < 2 {
                    assert_eq!(read, seat == i, "peer {i} reads seat {seat}'s card: {read}");
                }
            }
        }
    }
}

/// "An influence card lied about": a participant's payload shows one of its face-down cards as
/// another (with the true card's reveal, whose shares open the real one). Every honest peer
/// voids that payload and names it; the game goes on; the card stays face down. The second
/// angle: a payload whose reveal is of a card its sender does not hold (another player's).
#[test]
fn an_influence_card_lied_about_is_void_and_named() {
    let mut net = economy_net_face_down(3, &[], 34, 10);
    const CHEAT: usize = 1;
    let (slot, card) = until_holding(&mut net, CHEAT);
    let round = net.peers[CHEAT].log_len() as u32;
    let show = EconomyAction::ShowCard {
        player: CHEAT as u8,
        slot,
        card,
    };
    let honest = net.peers[CHEAT]
        .economy_payload(vec![show])
        .expect("the true show");
    let (_, reveals) = decode_economy_with(&honest).expect("decodes");
    assert_eq!(reveals.len(), 1, "the payload carries the card's reveal");
    let lie = EconomyAction::ShowCard {
        player: CHEAT as u8,
        slot,
        card: card.wrapping_add(1) % 42,
    };
    let payload = encode_economy_with(&[lie], &reveals);
    let out = net.peers[CHEAT]
        .commit_orders(round, payload, salt(CHEAT, round))
        .expect("commits");
    net.process(CHEAT, out);
    let until = net.now + 60_000;
    let past = |n: &Net| (0..3).all(|i| n.peers[i].log_len() > u64::from(round));
    assert!(drive(&mut net, until, |i, _| i == CHEAT, past));
    for i in [0, 2] {
        let named = rejections(&net, i, CHEAT);
        assert!(
            named
                .iter()
                .any(|v| matches!(v, Violation::IllegalOrders { error, .. }
                if error.contains("does not open"))),
            "peer {i} names the liar: {named:?}"
        );
        assert!(
            state(&net, i).players[CHEAT].sealed.contains(&slot),
            "the card stays face down"
        );
        assert!(net.peers[i].halted().is_none());
    }
    let h = hashes(&net, &[0, 1, 2]);
    assert!(h.iter().all(|x| *x == h[0]), "{h:?}");
}

/// A payload that reveals another player's card (read by nobody but that player, so its shares
/// cannot come from the sender; here replayed from the holder's own payload) is void and its
/// sender named, and the holder's card is not shown for it.
#[test]
fn a_reveal_of_a_card_the_sender_does_not_hold_is_void_and_named() {
    let mut net = economy_net_face_down(3, &[], 34, 10);
    const HOLDER: usize = 0;
    const CHEAT: usize = 2;
    let (slot, card) = until_holding(&mut net, HOLDER);
    // The holder's true reveal (as if it had leaked), sent by the cheater under its own name,
    // showing the holder's card for the holder's seat.
    let honest = net.peers[HOLDER]
        .economy_payload(vec![EconomyAction::ShowCard {
            player: HOLDER as u8,
            slot,
            card,
        }])
        .expect("the true show");
    let (actions, reveals) = decode_economy_with(&honest).expect("decodes");
    let until = net.now + 4_000_000;
    let due =
        |n: &Net| n.peers[CHEAT].economy_due().is_some() && state(n, CHEAT).phase == Phase::Get;
    assert!(drive(&mut net, until, |i, _| i == CHEAT, due));
    let round = net.peers[CHEAT].log_len() as u32;
    let out = net.peers[CHEAT]
        .commit_orders(
            round,
            encode_economy_with(&actions, &reveals),
            salt(CHEAT, round),
        )
        .expect("commits");
    net.process(CHEAT, out);
    let until = net.now + 60_000;
    let past = |n: &Net| (0..3).all(|i| n.peers[i].log_len() > u64::from(round));
    assert!(drive(&mut net, until, |i, _| i == CHEAT, past));
    for i in [0, 1] {
        let named = rejections(&net, i, CHEAT);
        assert!(!named.is_empty(), "peer {i} names the cheater");
        assert!(
            rejections(&net, i, HOLDER).is_empty(),
            "nobody names the holder"
        );
    }
    let h = hashes(&net, &[0, 1, 2]);
    assert!(h.iter().all(|x| *x == h[0]), "{h:?}");
}

/// A participant shows one of its face-down cards: every peer takes it into its known hand, and
/// the show is logged with the card.
#[test]
fn a_card_shown_by_its_holder_is_face_up_for_everyone() {
    let mut net = economy_net_face_down(3, &[], 34, 10);
    const WHO: usize = 1;
    let (slot, card) = until_holding(&mut net, WHO);
    let round = net.peers[WHO].log_len() as u32;
    let show = EconomyAction::ShowCard {
        player: WHO as u8,
        slot,
        card,
    };
    let out = net.peers[WHO]
        .submit_economy(vec![show], salt(WHO, round))
        .expect("shows");
    net.process(WHO, out);
    let until = net.now + 60_000;
    let past = |n: &Net| (0..3).all(|i| n.peers[i].log_len() > u64::from(round));
    assert!(drive(&mut net, until, |i, _| i == WHO, past));
    for i in 0..3 {
        let s = state(&net, i);
        assert!(
            s.players[WHO].cards.contains(&card),
            "peer {i} sees the card"
        );
        assert!(!s.players[WHO].sealed.contains(&slot));
        assert!(rejections(&net, i, WHO).is_empty());
        assert!(events(&net, i).iter().any(|e| matches!(e,
            EconomyEvent::CardShown { player, slot: s, card: c } if *player == WHO as u8 && *s == slot && *c == card)));
    }
}
