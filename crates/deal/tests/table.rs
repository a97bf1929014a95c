//! The deal among simulated participants, each running its own `Table`, messages routed as the
//! protocol would: broadcasts to everyone else, private sends to one. One test per lie.

use orbis_deal::cipher::CardId;
use orbis_deal::table::{Cheat, DealMsg, DeckSpec, Out, Refused, Table};
use orbis_deal::DealError;
use rand_chacha3::rand_core::SeedableRng;
use rand_chacha3::ChaCha20Rng;
use std::collections::VecDeque;

struct Room {
    tables: Vec<Table>,
    rngs: Vec<ChaCha20Rng>,
    queue: VecDeque<(u8, u8, DealMsg)>,
}

fn decks() -> Vec<DeckSpec> {
    vec![
        DeckSpec {
            name: b"territory".to_vec(),
            cards: 44,
        },
        DeckSpec {
            name: b"mission".to_vec(),
            cards: 14,
        },
    ]
}

impl Room {
    fn new(seats: u8, seed: u8) -> Room {
        let mut room = Room {
            tables: vec![],
            rngs: vec![],
            queue: VecDeque::new(),
        };
        // Every table exists before the first message goes out.
        let mut first = vec![];
        for me in 0..seats {
            let mut rng = ChaCha20Rng::from_seed([seed.wrapping_add(me); 32]);
            let (t, out) = Table::new(b"game 7", seats, me, decks(), &mut rng);
            room.tables.push(t);
            room.rngs.push(rng);
            first.push(out);
        }
        for (me, out) in first.into_iter().enumerate() {
            room.post(me as u8, out);
        }
        room
    }

    fn post(&mut self, from: u8, out: Vec<Out>) {
        for o in out {
            match o {
                Out::Broadcast(m) => {
                    for to in 0..self.tables.len() as u8 {
                        if to != from {
                            self.queue.push_back((from, to, m.clone()));
                        }
                    }
                }
                Out::Send(to, m) => self.queue.push_back((from, to, m)),
            }
        }
    }

    /// Delivers everything; the first refusal is returned.
    fn run(&mut self) -> Result<(), Refused> {
        while let Some((from, to, m)) = self.queue.pop_front() {
            let out = self.tables[to as usize].receive(from, m, &mut self.rngs[to as usize])?;
            self.post(to, out);
        }
        Ok(())
    }

    fn draw(&mut self, deck: u8, position: u16, holder: u8) {
        for i in 0..self.tables.len() {
            let out = self.tables[i]
                .draw(deck, position, holder, &mut self.rngs[i])
                .unwrap();
            self.post(i as u8, out);
        }
    }
}

#[test]
fn every_participant_reads_its_own_cards_and_nobody_else_does() {
    for seats in [3u8, 6] {
        let mut room = Room::new(seats, 10 * seats);
        room.run().unwrap();
        assert!(room.tables.iter().all(Table::ready));
        // Every participant sees the same dealt decks.
        for d in 0..2 {
            assert!(room
                .tables
                .iter()
                .all(|t| t.deck(d) == room.tables[0].deck(d)));
        }
        // Missions: one each. Territory cards: five rounds of draws.
        let mut cards: Vec<CardId> = vec![];
        for (deck, count) in [(1u8, seats as u16), (0, 5 * seats as u16)] {
            let mut seen = vec![];
            for p in 0..count {
                let holder = (p % seats as u16) as u8;
                room.draw(deck, p, holder);
                room.run().unwrap();
                let card = room.tables[holder as usize]
                    .card(deck, p)
                    .expect("the holder reads it");
                for (i, t) in room.tables.iter().enumerate() {
                    if i != holder as usize {
                        assert_eq!(t.card(deck, p), None, "seat {i} must not know it");
                    }
                }
                seen.push(card);
            }
            let n = seen.len();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), n, "no card twice");
            cards.extend(seen);
        }
        assert!(!cards.is_empty());
    }
}

#[test]
fn a_revealed_card_is_known_to_all_and_checked() {
    let mut room = Room::new(3, 1);
    room.run().unwrap();
    room.draw(0, 0, 2);
    room.run().unwrap();
    let card = room.tables[2].card(0, 0).unwrap();
    assert_eq!(
        room.tables[0].reveal(0, 0),
        None,
        "only the holder can reveal"
    );
    let reveal = room.tables[2].reveal(0, 0).unwrap();
    room.post(2, vec![Out::Broadcast(reveal)]);
    room.run().unwrap();
    assert!(room.tables.iter().all(|t| t.card(0, 0) == Some(card)));
}

fn cheat(seat: u8, what: DealError) -> Result<(), Refused> {
    Err(Refused::Cheat(Cheat { seat, what }))
}

/// Runs the room, letting `liar` rewrite its messages of the kind `lie` picks.
fn run_with_liar(
    room: &mut Room,
    liar: u8,
    lie: &dyn Fn(DealMsg) -> DealMsg,
) -> Result<(), Refused> {
    while let Some((from, to, m)) = room.queue.pop_front() {
        let m = if from == liar { lie(m) } else { m };
        let out = room.tables[to as usize].receive(from, m, &mut room.rngs[to as usize])?;
        room.post(to, out);
    }
    Ok(())
}

#[test]
fn a_shuffle_that_duplicates_a_card_names_its_shuffler() {
    let mut room = Room::new(3, 2);
    let r = run_with_liar(&mut room, 1, &|m| match m {
        DealMsg::Shuffle {
            deck,
            mut output,
            proof,
        } => {
            output[3] = output[4];
            DealMsg::Shuffle {
                deck,
                output,
                proof,
            }
        }
        m => m,
    });
    assert!(matches!(
        r,
        Err(Refused::Cheat(Cheat {
            seat: 1,
            what: DealError::ShuffleProof(_)
        }))
    ));
}

#[test]
fn a_false_key_proof_names_its_sender() {
    let mut room = Room::new(3, 3);
    let r = run_with_liar(&mut room, 2, &|m| match m {
        DealMsg::Key(mut p) => {
            p.response += orbis_deal::curve25519_dalek::scalar::Scalar::ONE;
            DealMsg::Key(p)
        }
        m => m,
    });
    assert_eq!(r, cheat(2, DealError::KeyProof));
}

#[test]
fn an_escrow_that_does_not_add_up_names_its_sender() {
    let mut room = Room::new(4, 4);
    let r = run_with_liar(&mut room, 0, &|m| match m {
        DealMsg::Escrow(mut e) => {
            e.pieces[0].commitment = e.pieces[1].commitment;
            DealMsg::Escrow(e)
        }
        m => m,
    });
    assert!(matches!(
        r,
        Err(Refused::Cheat(Cheat {
            seat: 0,
            what: DealError::Escrow(_)
        }))
    ));
}

#[test]
fn a_false_share_names_its_sender_to_the_drawer() {
    let mut room = Room::new(3, 5);
    room.run().unwrap();
    room.draw(0, 7, 0);
    let r = run_with_liar(&mut room, 2, &|m| match m {
        DealMsg::Share {
            deck,
            position,
            mut share,
        } => {
            share.share = share.t_g;
            DealMsg::Share {
                deck,
                position,
                share,
            }
        }
        m => m,
    });
    assert_eq!(r, cheat(2, DealError::ShareProof));
    assert_eq!(room.tables[0].card(0, 7), None);
}

#[test]
fn a_card_shown_as_another_names_the_liar() {
    let mut room = Room::new(3, 6);
    room.run().unwrap();
    room.draw(0, 0, 1);
    room.draw(0, 1, 1);
    room.run().unwrap();
    // Seat 1 shows the shares of position 1 as if they were position 0's card.
    let Some(DealMsg::Reveal { reveal, .. }) = room.tables[1].reveal(0, 1) else {
        panic!("seat 1 drew position 1");
    };
    let lie = DealMsg::Reveal {
        deck: 0,
        position: 0,
        reveal,
    };
    room.post(1, vec![Out::Broadcast(lie)]);
    assert_eq!(room.run(), cheat(1, DealError::ShareProof));
}

#[test]
fn messages_out_of_turn_are_refused_without_harm() {
    let mut room = Room::new(3, 7);
    room.run().unwrap();
    let mut rng = ChaCha20Rng::from_seed([9; 32]);
    // A share for a card nobody draws.
    let (_, out) = Table::new(b"other", 3, 1, decks(), &mut rng);
    let Out::Broadcast(key) = out[0].clone() else {
        unreachable!()
    };
    assert!(matches!(
        room.tables[0].receive(1, key, &mut rng),
        Err(Refused::OutOfTurn { seat: 1, .. })
    ));
    assert!(matches!(
        room.tables[0].receive(
            0,
            DealMsg::Escrow(orbis_deal::escrow::Escrow { pieces: vec![] }),
            &mut rng
        ),
        Err(Refused::OutOfTurn { seat: 0, .. })
    ));
    assert!(room.tables[0].ready());
}

/// Delivers everything except what `silent` sends.
fn run_without(room: &mut Room, silent: u8) {
    while let Some((from, to, m)) = room.queue.pop_front() {
        if from == silent {
            continue;
        }
        let out = room.tables[to as usize]
            .receive(from, m, &mut room.rngs[to as usize])
            .unwrap();
        room.post(to, out);
    }
}

#[test]
fn all_the_others_stand_in_for_a_seat_that_stops_answering() {
    let mut room = Room::new(4, 30);
    room.run().unwrap();
    // Seat 3 goes silent: seat 0's draw of position 2 stays unread.
    room.draw(0, 2, 0);
    run_without(&mut room, 3);
    assert_eq!(room.tables[0].card(0, 2), None);
    // The vote drops seat 3: every other seat stands in for it.
    for i in 0..3u8 {
        let out = room.tables[i as usize]
            .stand_in(3, &mut room.rngs[i as usize])
            .unwrap();
        room.post(i, out);
    }
    run_without(&mut room, 3);
    let card = room.tables[0].card(0, 2).expect("the draw goes through");
    assert!(room.tables[1].card(0, 2).is_none() && room.tables[2].card(0, 2).is_none());
    // Later draws go through too, and no card comes twice.
    room.draw(0, 3, 1);
    run_without(&mut room, 3);
    let next = room.tables[1]
        .card(0, 3)
        .expect("a later draw goes through");
    assert_ne!(card, next);
    assert_eq!(room.tables[0].card(0, 3), None);
}

#[test]
fn a_wrong_piece_of_a_leavers_key_names_the_leaver() {
    let mut room = Room::new(3, 31);
    // Seat 2 seals the piece meant for seat 0 wrong; nothing shows until seat 2 leaves.
    let lie = |m: DealMsg| match m {
        DealMsg::Escrow(mut e) => {
            e.pieces[0].sealed += orbis_deal::curve25519_dalek::scalar::Scalar::ONE;
            DealMsg::Escrow(e)
        }
        m => m,
    };
    run_with_liar(&mut room, 2, &lie).unwrap();
    let out = room.tables[0].stand_in(2, &mut room.rngs[0]).unwrap();
    let [Out::Broadcast(complaint)] = out.as_slice() else {
        panic!("seat 0 complains: {out:?}");
    };
    assert!(matches!(
        room.tables[1].receive(0, complaint.clone(), &mut room.rngs[1]),
        Err(Refused::Cheat(Cheat {
            seat: 2,
            what: DealError::Escrow(_)
        }))
    ));
}
