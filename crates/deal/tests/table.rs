//! The deal among simulated participants, each running its own `Table`, messages routed as the
//! protocol would: broadcasts to everyone else, private sends to one. One test per lie.

use orbis_deal::cipher::CardId;
use orbis_deal::curve25519_dalek::ristretto::RistrettoPoint;
use orbis_deal::table::{Cheat, DealMsg, DeckSpec, Holder, Out, Refused, Table};
use orbis_deal::DealError;
use std::collections::VecDeque;

struct Room {
    tables: Vec<Table>,
    /// Every broadcast, in the order sent.
    broadcasts: Vec<(u8, DealMsg)>,
    queue: VecDeque<(u8, u8, DealMsg)>,
}

fn decks() -> Vec<DeckSpec> {
    vec![
        DeckSpec::full(b"territory", 44),
        DeckSpec::full(b"mission", 14),
    ]
}

impl Room {
    fn new(seats: u8, seed: u8) -> Room {
        let mut room = Room {
            tables: vec![],
            broadcasts: vec![],
            queue: VecDeque::new(),
        };
        // Every table exists before the first message goes out.
        let mut first = vec![];
        for me in 0..seats {
            let (t, out) = Table::new(b"game 7", seats, me, decks(), [seed.wrapping_add(me); 32]);
            room.tables.push(t);
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
                    self.broadcasts.push((from, m.clone()));
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
            let out = self.tables[to as usize].receive(from, m)?;
            self.post(to, out);
        }
        Ok(())
    }

    fn draw(&mut self, deck: u8, position: u16, holder: u8) {
        self.draw_for(deck, position, Holder::Seat(holder));
    }

    fn draw_for(&mut self, deck: u8, position: u16, holder: Holder) {
        for i in 0..self.tables.len() {
            let out = self.tables[i].draw(deck, position, holder);
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
        let out = room.tables[to as usize].receive(from, m)?;
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
            input,
            mut output,
            proof,
        } => {
            output[3] = output[4];
            DealMsg::Shuffle {
                deck,
                input,
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
    let Some(DealMsg::Reveal { shares, pieces, .. }) = room.tables[1].reveal(0, 1) else {
        panic!("seat 1 drew position 1");
    };
    let lie = DealMsg::Reveal {
        deck: 0,
        position: 0,
        shares,
        pieces,
    };
    room.post(1, vec![Out::Broadcast(lie)]);
    assert_eq!(room.run(), cheat(1, DealError::ShareProof));
}

#[test]
fn messages_out_of_turn_are_refused_without_harm() {
    let mut room = Room::new(3, 7);
    room.run().unwrap();
    // Seat 1's own key again.
    let key = room
        .broadcasts
        .iter()
        .find(|(from, m)| *from == 1 && matches!(m, DealMsg::Key(_)))
        .map(|(_, m)| m.clone())
        .unwrap();
    assert!(matches!(
        room.tables[0].receive(1, key),
        Err(Refused::OutOfTurn { seat: 1, .. })
    ));
    assert!(matches!(
        room.tables[0].receive(
            0,
            DealMsg::Escrow(orbis_deal::escrow::Escrow {
                holders: [0; 32],
                pieces: vec![]
            })
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
        let out = room.tables[to as usize].receive(from, m).unwrap();
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
        let out = room.tables[i as usize].stand_in(3).unwrap();
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
fn the_others_pieces_rebuild_a_leavers_secret_for_anyone_to_check() {
    let mut room = Room::new(4, 31);
    room.run().unwrap();
    for i in 0..3u8 {
        let out = room.tables[i as usize].stand_in(3).unwrap();
        room.post(i, out);
    }
    run_without(&mut room, 3);
    let mut obs = Table::observer(b"game 7", 4, decks());
    for (from, m) in room.broadcasts.clone() {
        obs.receive(from, m).unwrap();
    }
    let mut pieces = std::collections::BTreeMap::new();
    for holder in 0..3u8 {
        let mine = room.tables[holder as usize].left_pieces();
        assert_eq!(mine.len(), 1, "one piece, of seat 3's key");
        let (owner, piece) = mine[0];
        assert_eq!(owner, 3);
        assert_eq!(obs.check_piece(3, holder, piece), Ok(()));
        assert!(
            obs.check_piece(3, (holder + 1) % 3, piece).is_err(),
            "another's piece"
        );
        assert_eq!(
            obs.rebuild_secret(3, &pieces),
            None,
            "not before every piece is in"
        );
        pieces.insert(holder, piece);
    }
    let secret = obs.rebuild_secret(3, &pieces).expect("every piece is in");
    assert_eq!(secret, room.tables[3].secret());
    assert_eq!(obs.check_secret(3, secret), Ok(()));
    // A wrong piece rebuilds nothing.
    pieces.insert(0, pieces[&1]);
    assert_eq!(obs.rebuild_secret(3, &pieces), None);
}

/// Security review A5, attacked: seat 2 seals the piece meant for seat 0 wrong. It used to
/// show only once seat 2 left, when nobody could stand in for it any more; now seat 0 unseals
/// its piece as the escrow comes, refuses the escrow and proves the lie with a complaint that
/// every other seat checks, before any deck is shuffled.
#[test]
fn a_wrong_piece_is_proved_by_its_holder_as_soon_as_the_escrow_comes() {
    let mut room = Room::new(3, 31);
    let lie = |m: DealMsg| match m {
        DealMsg::Escrow(mut e) => {
            e.pieces[0].sealed += orbis_deal::curve25519_dalek::scalar::Scalar::ONE;
            DealMsg::Escrow(e)
        }
        m => m,
    };
    let r = run_with_liar(&mut room, 2, &lie);
    let Err(Refused::Proved { cheat, proof }) = r else {
        panic!("seat 0 takes the wrong piece: {r:?}");
    };
    assert_eq!(cheat.seat, 2);
    assert!(matches!(cheat.what, DealError::Escrow(_)));
    assert!(
        !room
            .broadcasts
            .iter()
            .any(|(_, m)| matches!(m, DealMsg::Shuffle { .. })),
        "a deck was shuffled before the escrow was checked"
    );
    // The complaint names the escrow it is about, and proves the lie to seat 1.
    let proof = *proof;
    let (digest, complaint) = match proof.clone() {
        DealMsg::Complaint {
            leaver: 2,
            escrow,
            complaint,
        } => (escrow, complaint),
        m => panic!("{m:?}"),
    };
    let mut wrong = room.broadcasts.iter().filter_map(|(f, m)| match m {
        DealMsg::Escrow(e) if *f == 2 => Some(e.clone()),
        _ => None,
    });
    let mut told = wrong.next().unwrap();
    told.pieces[0].sealed += orbis_deal::curve25519_dalek::scalar::Scalar::ONE;
    assert_eq!(digest, told.digest());
    // Seat 1 takes the same escrow (its own piece is right), then the complaint.
    while let Some((from, to, m)) = room.queue.pop_front() {
        if to == 1 {
            if let Ok(out) = room.tables[1].receive(from, if from == 2 { lie(m) } else { m }) {
                room.post(1, out);
            }
        }
    }
    let r = room.tables[1].receive(0, proof);
    assert!(
        matches!(
            r,
            Err(Refused::Cheat(Cheat {
                seat: 2,
                what: DealError::Escrow(_)
            }))
        ),
        "{r:?}"
    );
    // Second angle: a complaint about another escrow than the one seat 1 holds (the owner sent
    // seat 0 another) is set aside, never blamed on the complainer.
    let other = DealMsg::Complaint {
        leaver: 2,
        escrow: [7; 32],
        complaint,
    };
    assert!(matches!(
        room.tables[1].receive(0, other),
        Err(Refused::Diverged { seat: 0, .. })
    ));
}

#[test]
fn a_card_drawn_face_up_is_read_by_everyone() {
    let mut room = Room::new(3, 40);
    room.run().unwrap();
    room.draw_for(0, 5, Holder::Everyone);
    room.run().unwrap();
    let card = room.tables[0].card(0, 5).expect("read");
    assert!(room.tables.iter().all(|t| t.card(0, 5) == Some(card)));
}

#[test]
fn a_hand_taken_over_is_read_by_its_new_holder_only() {
    let mut room = Room::new(4, 41);
    room.run().unwrap();
    room.draw(0, 0, 1);
    room.run().unwrap();
    let card = room.tables[1].card(0, 0).unwrap();
    // Seat 3 conquers seat 1 and takes its hand: the position is drawn again, for seat 3.
    room.draw(0, 0, 3);
    room.run().unwrap();
    assert_eq!(room.tables[3].card(0, 0), Some(card));
    assert_eq!(room.tables[0].card(0, 0), None);
    assert_eq!(room.tables[2].card(0, 0), None);
    // The new holder can show it.
    let reveal = room.tables[3].reveal(0, 0).unwrap();
    room.post(3, vec![Out::Broadcast(reveal)]);
    room.run().unwrap();
    assert!(room.tables.iter().all(|t| t.card(0, 0) == Some(card)));
}

#[test]
fn draws_before_the_deal_is_done_are_read_once_it_is() {
    let mut room = Room::new(3, 42);
    // Before any key has gone out.
    room.draw(1, 2, 0);
    room.run().unwrap();
    assert!(room.tables.iter().all(Table::ready));
    assert!(room.tables[0].card(1, 2).is_some());
}

#[test]
fn the_discards_dealt_again_are_shuffled_by_everyone_and_hold_only_them() {
    let mut room = Room::new(3, 43);
    room.run().unwrap();
    let discards = vec![3u16, 17, 40, 43];
    let spec = DeckSpec {
        layout: discards.clone(),
        ..DeckSpec::full(b"territory", 44)
    };
    for i in 0..3 {
        let out = room.tables[i].add_deck(spec.clone());
        room.post(i as u8, out);
    }
    room.run().unwrap();
    assert!(room.tables.iter().all(Table::ready));
    assert_eq!(room.tables[0].decks(), 3);
    let mut seen = vec![];
    for p in 0..4u16 {
        room.draw(2, p, (p % 3) as u8);
        room.run().unwrap();
        seen.push(room.tables[(p % 3) as usize].card(2, p).unwrap());
    }
    seen.sort_unstable();
    assert_eq!(seen, discards);
}

#[test]
fn a_card_read_with_stand_ins_can_still_be_shown() {
    let mut room = Room::new(3, 44);
    room.run().unwrap();
    for i in 0..2u8 {
        let out = room.tables[i as usize].stand_in(2).unwrap();
        room.post(i, out);
    }
    room.draw(0, 4, 1);
    run_without(&mut room, 2);
    let card = room.tables[1].card(0, 4).expect("read with stand-ins");
    let reveal = room.tables[1].reveal(0, 4).unwrap();
    room.post(1, vec![Out::Broadcast(reveal)]);
    run_without(&mut room, 2);
    assert_eq!(room.tables[0].card(0, 4), Some(card));
}

#[test]
fn the_same_seed_makes_the_same_messages() {
    let (_, a) = Table::new(b"g", 3, 1, decks(), [5; 32]);
    let (_, b) = Table::new(b"g", 3, 1, decks(), [5; 32]);
    assert_eq!(a, b);
    let mut one = Room::new(3, 45);
    let mut two = Room::new(3, 45);
    one.run().unwrap();
    two.run().unwrap();
    assert!((0..2).all(|d| one.tables[0].deck(d) == two.tables[0].deck(d)));
}

#[test]
fn an_observer_checks_every_broadcast_and_opens_every_card_with_the_published_secrets() {
    let mut room = Room::new(3, 46);
    room.run().unwrap();
    room.draw(0, 0, 1);
    room.draw_for(0, 1, Holder::Everyone);
    room.run().unwrap();
    let shown = room.tables[1].card(0, 0).unwrap();
    let reveal = room.tables[1].reveal(0, 0).unwrap();
    room.post(1, vec![Out::Broadcast(reveal)]);
    room.run().unwrap();
    let mut obs = Table::observer(b"game 7", 3, decks());
    obs.draw(0, 1, Holder::Everyone);
    for (from, m) in room.broadcasts.clone() {
        obs.receive(from, m).unwrap();
    }
    assert!(obs.ready());
    assert_eq!(obs.card(0, 0), Some(shown));
    assert_eq!(obs.card(0, 1), room.tables[0].card(0, 1));
    let secrets: Vec<[u8; 32]> = room.tables.iter().map(Table::secret).collect();
    for (seat, s) in secrets.iter().enumerate() {
        assert_eq!(obs.check_secret(seat as u8, *s), Ok(()));
    }
    assert!(obs.check_secret(0, secrets[1]).is_err());
    assert_eq!(obs.open_with(0, 0, &secrets), Some(shown));
    // Every position opens, to every card once.
    let mut all: Vec<CardId> = (0..44)
        .map(|p| obs.open_with(0, p, &secrets).unwrap())
        .collect();
    all.sort_unstable();
    assert_eq!(all, (0..44).collect::<Vec<CardId>>());
}

#[test]
fn a_deck_added_after_a_seat_left_is_shuffled_by_the_others() {
    let mut room = Room::new(3, 47);
    room.run().unwrap();
    // Seat 1 is gone: the others stand in for it, then a deck of discards is added.
    for i in [0u8, 2] {
        let out = room.tables[i as usize].stand_in(1).unwrap();
        room.post(i, out);
    }
    among(&mut room, 1);
    let spec = DeckSpec {
        layout: vec![5, 9, 12],
        ..DeckSpec::full(b"territory", 44)
    };
    for i in [0usize, 2] {
        let out = room.tables[i].add_deck(spec.clone());
        room.post(i as u8, out);
    }
    among(&mut room, 1);
    room.draw(2, 0, 2);
    among(&mut room, 1);
    assert!(
        room.tables[2].card(2, 0).is_some(),
        "the deck was dealt without seat 1"
    );
    assert!(room.tables[0].ready() && room.tables[2].ready());
}

/// Delivers what the seats other than `gone` send each other (`gone` is not there at all).
fn among(room: &mut Room, gone: u8) {
    while let Some((from, to, m)) = room.queue.pop_front() {
        if from == gone || to == gone {
            continue;
        }
        let out = room.tables[to as usize].receive(from, m).unwrap();
        room.post(to, out);
    }
}

/// Security review A1: with two seats the escrow's one piece was the whole key share, sealed
/// to the opponent and broadcast once the keys were in, so the opponent could unseal it at
/// once and read every card of the other seat (and, with its own share, the whole deck). The
/// attack: seat 1 unseals whatever seat 0 escrowed to it and compares it with seat 0's secret.
#[test]
fn with_two_seats_nothing_seat_0_sends_gives_seat_1_its_key() {
    use orbis_deal::escrow::{open_piece, Unsealed};
    use orbis_deal::keys::SecretShare;
    let mut room = Room::new(2, 60);
    room.run().unwrap();
    assert!(room.tables.iter().all(Table::ready), "two seats deal on");
    let theirs = room.tables[0].secret();
    let mine = SecretShare::from_bytes(room.tables[1].secret()).unwrap();
    // The table's context of seat 0's escrow: the game, "escrow", the owner, position 0.
    let mut ctx = b"game 7".to_vec();
    ctx.push(0);
    ctx.extend_from_slice(b"escrow");
    ctx.push(0);
    ctx.extend_from_slice(&0u16.to_le_bytes());
    for (from, m) in room.broadcasts.clone() {
        let DealMsg::Escrow(e) = m else { continue };
        assert_ne!(from, 1);
        for piece in e.pieces.iter().filter(|p| p.to == 1) {
            let mut rng =
                <rand_chacha3::ChaCha20Rng as rand_chacha3::rand_core::SeedableRng>::from_seed(
                    [9; 32],
                );
            if let Ok(Unsealed::Piece(y)) = open_piece(&ctx, 0, piece, &mine, &mut rng) {
                assert_ne!(y.to_bytes(), theirs, "seat 1 holds seat 0's whole key");
            }
        }
    }
    // Seat 1 reads its own draw and not seat 0's.
    room.draw(0, 0, 0);
    room.draw(0, 1, 1);
    room.run().unwrap();
    assert!(room.tables[0].card(0, 0).is_some() && room.tables[1].card(0, 1).is_some());
    assert_eq!(room.tables[1].card(0, 0), None);
}

/// A2: a table of three that chose no stand-in sends no escrow, deals and reads its cards as
/// usual, and takes an escrow someone sends anyway as cheating.
#[test]
fn a_table_without_stand_in_sends_no_escrow_and_refuses_one() {
    let mut room = Room {
        tables: vec![],
        broadcasts: vec![],
        queue: VecDeque::new(),
    };
    let mut first = vec![];
    for me in 0..3u8 {
        let (t, out) = Table::new(b"game 7", 3, me, decks(), [70 + me; 32]);
        room.tables.push(t.without_escrow());
        first.push(out);
    }
    for (me, out) in first.into_iter().enumerate() {
        room.post(me as u8, out);
    }
    room.run().unwrap();
    assert!(room.tables.iter().all(|t| t.ready() && !t.escrowed()));
    assert!(!room
        .broadcasts
        .iter()
        .any(|(_, m)| matches!(m, DealMsg::Escrow(_))));
    room.draw(0, 0, 2);
    room.run().unwrap();
    assert!(room.tables[2].card(0, 0).is_some());
    assert!(room.tables[0].card(0, 0).is_none() && room.tables[1].card(0, 0).is_none());
    // An escrow made as a stand-in table would: refused as a cheat of its sender.
    let mut other = Room::new(3, 70);
    other.run().unwrap();
    let (_, e) = other
        .broadcasts
        .iter()
        .find(|(from, m)| *from == 1 && matches!(m, DealMsg::Escrow(_)))
        .cloned()
        .unwrap();
    match room.tables[0].receive(1, e) {
        Err(Refused::Cheat(c)) => assert_eq!(c.seat, 1),
        other => panic!("an escrow at a table without one: {other:?}"),
    }
}

/// Delivers everything except what `skip` picks (what follows a skipped message is refused as
/// early, and dropped).
fn run_but(room: &mut Room, skip: impl Fn(u8, &DealMsg) -> bool) {
    while let Some((from, to, m)) = room.queue.pop_front() {
        if skip(from, &m) {
            continue;
        }
        match room.tables[to as usize].receive(from, m) {
            Ok(out) => room.post(to, out),
            Err(Refused::OutOfTurn { .. }) => {}
            Err(e) => panic!("{e:?}"),
        }
    }
}

/// Security review A6 at the table: the seat that keeps back its key, its escrow or its shuffle
/// is what every other table awaits, and no decryption share goes out before every key and
/// escrow is in, so no card is read before anyone could be stood in for (and a deal short of a
/// key or escrow can start again without that seat having shown anyone anything).
#[test]
fn the_seat_that_holds_the_deal_up_is_awaited_and_no_card_is_read_before_every_escrow() {
    let withheld: [fn(&DealMsg) -> bool; 3] = [
        |m| matches!(m, DealMsg::Key(_)),
        |m| matches!(m, DealMsg::Escrow(_)),
        |m| matches!(m, DealMsg::Shuffle { .. }),
    ];
    for (n, kind) in withheld.into_iter().enumerate() {
        let mut room = Room::new(3, 70 + n as u8);
        run_but(&mut room, |from, m| from == 2 && kind(m));
        for i in 0..2 {
            assert_eq!(room.tables[i].awaited(), vec![2], "case {n}, table {i}");
        }
        room.draw(0, 0, 0);
        room.draw(0, 1, 1);
        run_but(&mut room, |from, m| from == 2 && kind(m));
        for i in 0..2 {
            assert_eq!(
                room.tables[i].card(0, i as u16),
                None,
                "case {n}: seat {i} reads"
            );
            assert!(room.tables[i].missing(0, i as u16).is_empty());
        }
    }
    // All in: nothing is awaited.
    let mut room = Room::new(3, 73);
    room.run().unwrap();
    assert!(room.tables.iter().all(|t| t.awaited().is_empty()));
}

/// The public keys of the room, in seat order, from the broadcasts.
fn keys(room: &Room) -> Vec<RistrettoPoint> {
    let mut k: Vec<(u8, RistrettoPoint)> = room
        .broadcasts
        .iter()
        .filter_map(|(f, m)| match m {
            DealMsg::Key(p) => Some((*f, p.key.decompress().unwrap())),
            _ => None,
        })
        .collect();
    k.sort_by_key(|x| x.0);
    k.into_iter().map(|x| x.1).collect()
}

/// The table's context of a proof: the game, what, a seat or deck, a position, and a deck name.
fn context(what: &[u8], a: u8, b: u16, deck: &[u8]) -> Vec<u8> {
    let mut c = b"game 7".to_vec();
    c.push(0);
    c.extend_from_slice(what);
    c.push(a);
    c.extend_from_slice(&b.to_le_bytes());
    c.extend_from_slice(deck);
    c
}

/// Security review A5, attacked: a seat that keeps its escrow back while the decks are dealt.
/// No deck is shuffled before every escrow is in: no table shuffles, and a shuffle that comes
/// to a table still waiting for an escrow is set aside, then taken once it is in.
#[test]
fn no_deck_is_shuffled_before_every_escrow_is_in() {
    let mut room = Room::new(3, 80);
    run_but(&mut room, |from, m| {
        from == 2 && matches!(m, DealMsg::Escrow(_))
    });
    assert!(
        !room
            .broadcasts
            .iter()
            .any(|(_, m)| matches!(m, DealMsg::Shuffle { .. })),
        "a deck was shuffled while seat 2's escrow was missing"
    );
    // Seat 2's escrow reaches seat 0 only: seat 0 shuffles, seat 1 sets the shuffle aside.
    let mut room = Room::new(3, 81);
    let mut held = vec![];
    while let Some((from, to, m)) = room.queue.pop_front() {
        if from == 2 && to == 1 && matches!(m, DealMsg::Escrow(_)) {
            held.push(m);
            continue;
        }
        if to == 1 && matches!(m, DealMsg::Shuffle { .. }) {
            let r = room.tables[1].receive(from, m.clone());
            assert!(
                matches!(r, Err(Refused::OutOfTurn { seat: 0, .. })),
                "seat 1 took a shuffle before every escrow: {r:?}"
            );
            held.push(m);
            break;
        }
        let out = room.tables[to as usize].receive(from, m).unwrap();
        room.post(to, out);
    }
    assert_eq!(
        held.len(),
        2,
        "seat 0 shuffled once every escrow reached it"
    );
    for (m, from) in held.into_iter().zip([2, 0]) {
        let out = room.tables[1].receive(from, m).unwrap();
        room.post(1, out);
    }
    room.run().unwrap();
    assert!(room.tables.iter().all(Table::ready));
}

/// Security review A4, attacked: seat 1 sends a second, different (valid) key. Two signed keys
/// for one slot are proof that it cheated, not a message "out of turn".
#[test]
fn a_second_different_key_is_proof_of_cheating() {
    let mut room = Room::new(3, 82);
    room.run().unwrap();
    let (_, out) = Table::new(b"game 7", 3, 1, decks(), [99; 32]);
    let Out::Broadcast(key) = out[0].clone() else {
        unreachable!()
    };
    assert_eq!(
        room.tables[0].receive(1, key),
        cheat(1, DealError::Conflict("two different keys")).map(|_| vec![])
    );
}

/// Security review A4, attacked: seat 2 seals two different (valid) escrows of its key for the
/// same keys, one for each peer. The second is proof that it cheated; an escrow sealed to keys
/// the table does not hold (another history) is set aside, not blamed.
#[test]
fn two_different_escrows_for_the_same_keys_are_proof_of_cheating() {
    use orbis_deal::escrow::escrow;
    use orbis_deal::keys::SecretShare;
    let mut room = Room::new(3, 83);
    room.run().unwrap();
    let keys = keys(&room);
    let secret = SecretShare::from_bytes(room.tables[2].secret()).unwrap();
    let ctx = context(b"escrow", 2, 0, b"");
    let mut rng =
        <rand_chacha3::ChaCha20Rng as rand_chacha3::rand_core::SeedableRng>::from_seed([5; 32]);
    let second = escrow(&ctx, &secret, 2, &keys, &mut rng).unwrap();
    assert_eq!(
        room.tables[0].receive(2, DealMsg::Escrow(second.clone())),
        cheat(2, DealError::Conflict("two different escrows")).map(|_| vec![])
    );
    // The same escrow for other keys: built on another history, set aside.
    let mut other = keys.clone();
    other[1] = other[0];
    let third = escrow(&ctx, &secret, 2, &other, &mut rng).unwrap();
    let mut fresh = Room::new(3, 83);
    run_but(&mut fresh, |from, m| {
        from == 2 && matches!(m, DealMsg::Escrow(_))
    });
    assert!(matches!(
        fresh.tables[0].receive(2, DealMsg::Escrow(third)),
        Err(Refused::Diverged { seat: 2, .. })
    ));
}

/// Security review A4, attacked: seat 0 sends seat 1 one valid shuffle of the first deck and
/// seat 2 another. Seat 1 shuffles on from its copy; seat 2 used to check that against its own
/// and name honest seat 1 a cheat. Now seat 1's shuffle names the deck it shuffled, so seat 2
/// sets it aside, and once the two shuffles of seat 0 meet (a `Sync` brings them), each is
/// proof that seat 0 cheated.
#[test]
fn two_different_shuffles_of_one_deck_name_their_shuffler_and_not_the_next() {
    use orbis_deal::keys::joint_key;
    use orbis_deal::shuffle::shuffle;
    use orbis_deal::table::deck_digest;
    let mut room = Room::new(3, 84);
    run_but(&mut room, |from, m| {
        from == 0 && matches!(m, DealMsg::Shuffle { .. })
    });
    let joint = joint_key(&keys(&room));
    let face_up = room.tables[2].deck(0).unwrap().to_vec();
    let ctx = context(b"shuffle", 0, 0, b"territory");
    let mut rng =
        <rand_chacha3::ChaCha20Rng as rand_chacha3::rand_core::SeedableRng>::from_seed([6; 32]);
    let (output, proof) = shuffle(&ctx, &joint, &face_up, &mut rng).unwrap();
    let other = DealMsg::Shuffle {
        deck: 0,
        input: deck_digest(&joint, 0, &face_up),
        output,
        proof: Box::new(proof),
    };
    let honest = room
        .broadcasts
        .iter()
        .find(|(f, m)| *f == 0 && matches!(m, DealMsg::Shuffle { deck: 0, .. }))
        .map(|(_, m)| m.clone())
        .unwrap();
    // Seat 2 takes the other shuffle (it is valid); seat 1 the honest one, and shuffles on.
    assert!(room.tables[2].receive(0, other.clone()).is_ok());
    let out = room.tables[1].receive(0, honest.clone()).unwrap();
    let next = out
        .iter()
        .find_map(|o| match o {
            Out::Broadcast(m @ DealMsg::Shuffle { deck: 0, .. }) => Some(m.clone()),
            _ => None,
        })
        .expect("seat 1 shuffles next");
    let r = room.tables[2].receive(1, next);
    assert!(
        matches!(r, Err(Refused::Diverged { seat: 1, .. })),
        "honest seat 1 is blamed: {r:?}"
    );
    // The two shuffles of seat 0 meet: proof of cheating, at either table.
    let conflict = cheat(0, DealError::Conflict("two different shuffles of one deck"));
    assert_eq!(
        room.tables[2].receive(0, honest),
        conflict.clone().map(|_| vec![])
    );
    assert_eq!(room.tables[1].receive(0, other), conflict.map(|_| vec![]));
}

/// Issue 30 A3 at the table, from a second angle: seat 1, reloaded with the same seed, is served
/// another history (seat 2 has another key, so the joint key and every deck differ) and
/// answers at the very same positions. Its decryption share of position 3 and its shuffle of
/// the first deck must not reuse a nonce: with equal nonces `k`, `s₁ = k + c₁·x` and
/// `s₂ = k + c₂·x` give `x = (s₁ − s₂)/(c₁ − c₂)`, its secret key. With the same history, it
/// answers with the very same bytes.
#[test]
fn a_seat_served_another_history_never_reuses_a_nonce() {
    use merlin::Transcript;
    use orbis_deal::curve25519_dalek::ristretto::CompressedRistretto;
    use orbis_deal::curve25519_dalek::scalar::Scalar;
    use orbis_deal::share::DecryptionShare;
    // Seats 0 and 1 keep their seeds; seat 2 of the second room has another.
    let room_with = |third: u8| {
        let seeds = [[1u8; 32], [2; 32], [third; 32]];
        let mut room = Room {
            tables: vec![],
            broadcasts: vec![],
            queue: VecDeque::new(),
        };
        let mut first = vec![];
        for (me, seed) in seeds.iter().enumerate() {
            let (t, out) = Table::new(b"game 7", 3, me as u8, decks(), *seed);
            room.tables.push(t);
            first.push(out);
        }
        for (me, out) in first.into_iter().enumerate() {
            room.post(me as u8, out);
        }
        room.run().unwrap();
        room.draw(0, 3, 0);
        room.run().unwrap();
        let out = room.tables[1].resend(0, 3);
        let share = out
            .into_iter()
            .find_map(|o| match o {
                Out::Send(0, DealMsg::Share { share, .. }) => Some(share),
                _ => None,
            })
            .expect("seat 1 sends seat 0 its share");
        let shuffle = room
            .broadcasts
            .iter()
            .find_map(|(f, m)| match m {
                DealMsg::Shuffle { deck: 0, proof, .. } if *f == 1 => Some(proof.clone()),
                _ => None,
            })
            .unwrap();
        let ct = room.tables[0].deck(0).unwrap()[3];
        let key = keys(&room)[1];
        (room, share, shuffle, ct, key)
    };
    let (a, share_a, shuffle_a, ct_a, key) = room_with(3);
    let (_, share_b, shuffle_b, ct_b, key_b) = room_with(4);
    let (_, share_a2, shuffle_a2, _, _) = room_with(3);
    assert_eq!(key, key_b, "the same seat, the same key");
    assert_ne!(
        ct_a, ct_b,
        "another history: another ciphertext at that position"
    );
    // The same history: the very same messages.
    assert_eq!(share_a, share_a2);
    assert_eq!(shuffle_a, shuffle_a2);
    // The challenge of a share's proof, as the verifier computes it.
    let challenge = |ct: &orbis_deal::cipher::Ciphertext, d: &DecryptionShare| {
        let mut tr = Transcript::new(b"orbis-deal v1");
        tr.append_message(b"context", &context(b"draw", 0, 3, b"territory"));
        tr.append_message(b"proof", b"decryption share");
        let points: [(&[u8], &CompressedRistretto); 6] = [
            (b"key", &key.compress()),
            (b"c1", &ct.c1),
            (b"c2", &ct.c2),
            (b"share", &d.share),
            (b"t_g", &d.t_g),
            (b"t_b", &d.t_c),
        ];
        for (label, p) in points {
            tr.append_message(label, p.as_bytes());
        }
        let mut wide = [0u8; 64];
        tr.challenge_bytes(b"challenge", &mut wide);
        Scalar::from_bytes_mod_order_wide(&wide)
    };
    let (c1, c2) = (challenge(&ct_a, &share_a), challenge(&ct_b, &share_b));
    // The replayed challenges are the verifier's: s·G = T + c·X holds with them.
    for (d, c) in [(&share_a, c1), (&share_b, c2)] {
        assert_eq!(
            RistrettoPoint::mul_base(&d.response),
            d.t_g.decompress().unwrap() + c * key
        );
    }
    let x = (share_a.response - share_b.response) * (c1 - c2).invert();
    assert_ne!(
        RistrettoPoint::mul_base(&x),
        key,
        "two shares at one position gave away seat 1's secret key"
    );
    assert_ne!(share_a.t_g, share_b.t_g, "a share's nonce was used twice");
    // The shuffle: no nonce commitment repeats (equal ones would give away the permutation
    // through the responses s′ᵢ, as `shuffle.rs`'s own test shows).
    for (x, y) in [
        (shuffle_a.t1, shuffle_b.t1),
        (shuffle_a.t2, shuffle_b.t2),
        (shuffle_a.t3, shuffle_b.t3),
        (shuffle_a.t4.0, shuffle_b.t4.0),
    ] {
        assert_ne!(x, y, "a shuffle's nonce was used twice");
    }
    assert!(shuffle_a.t_hat.iter().all(|t| !shuffle_b.t_hat.contains(t)));
    assert!(shuffle_a
        .commitments
        .iter()
        .all(|t| !shuffle_b.commitments.contains(t)));
    drop(a);
}

/// Issue 30 A3 against A4: the reload that made nonces depend on the statement also makes an
/// honest seat's messages differ when it is served another history (another key of a third
/// seat: its escrow is sealed to other keys, its shuffle is of another deck). Those must not be
/// taken for equivocation: they name what they build on, so a table holding the first history
/// sets them aside; only two different messages built on the same thing are proof.
#[test]
fn an_honest_seat_served_another_history_is_not_taken_for_an_equivocator() {
    let room_with = |third: u8| {
        let seeds = [[1u8; 32], [2; 32], [third; 32]];
        let mut room = Room {
            tables: vec![],
            broadcasts: vec![],
            queue: VecDeque::new(),
        };
        let mut first = vec![];
        for (me, seed) in seeds.iter().enumerate() {
            let (t, out) = Table::new(b"game 7", 3, me as u8, decks(), *seed);
            room.tables.push(t);
            first.push(out);
        }
        for (me, out) in first.into_iter().enumerate() {
            room.post(me as u8, out);
        }
        room.run().unwrap();
        room
    };
    let mut a = room_with(3);
    let b = room_with(4);
    let from_1 = |room: &Room, kind: fn(&DealMsg) -> bool| {
        room.broadcasts
            .iter()
            .find(|(f, m)| *f == 1 && kind(m))
            .map(|(_, m)| m.clone())
            .unwrap()
    };
    let escrow_b = from_1(&b, |m| matches!(m, DealMsg::Escrow(_)));
    assert_ne!(escrow_b, from_1(&a, |m| matches!(m, DealMsg::Escrow(_))));
    let r = a.tables[0].receive(1, escrow_b);
    assert!(
        matches!(r, Err(Refused::OutOfTurn { seat: 1, .. })),
        "{r:?}"
    );
    let shuffle_b = from_1(&b, |m| matches!(m, DealMsg::Shuffle { deck: 0, .. }));
    assert_ne!(
        shuffle_b,
        from_1(&a, |m| matches!(m, DealMsg::Shuffle { deck: 0, .. }))
    );
    let r = a.tables[0].receive(1, shuffle_b);
    assert!(
        matches!(r, Err(Refused::OutOfTurn { seat: 1, .. })),
        "{r:?}"
    );
    // Its key is the same in both: a copy, not a conflict.
    let key_b = from_1(&b, |m| matches!(m, DealMsg::Key(_)));
    assert!(matches!(
        a.tables[0].receive(1, key_b),
        Err(Refused::OutOfTurn { seat: 1, .. })
    ));
}

/// Two seats (no escrow): a reveal that leaves a seat's share out and puts "piece shares" in
/// its place can never be checked (no commitment exists, nor ever will). It is the revealer's
/// lie, not a message that came too early: before the fix it was `OutOfTurn`, and the economy,
/// which waits on reveals it cannot judge yet, waited on it for ever.
#[test]
fn a_reveal_with_pieces_at_a_table_without_escrow_is_a_lie() {
    let mut room = Room::new(2, 3);
    room.run().unwrap();
    assert!(!room.tables[0].escrowed());
    room.draw(0, 0, 1);
    room.run().unwrap();
    let Some(DealMsg::Reveal {
        deck,
        position,
        shares,
        ..
    }) = room.tables[1].reveal(0, 0)
    else {
        panic!("the holder reveals")
    };
    let any = shares[0].1;
    let forged = DealMsg::Reveal {
        deck,
        position,
        shares: shares.into_iter().filter(|x| x.0 != 0).collect(),
        pieces: vec![(0, 1, any)],
    };
    assert!(matches!(
        room.tables[0].receive(1, forged),
        Err(Refused::Cheat(Cheat {
            seat: 1,
            what: DealError::Length { .. }
        }))
    ));
    assert_eq!(room.tables[0].card(0, 0), None);
}

/// Delivers everything except what `silent` sends, and returns a copy of every private message
/// sent to `holder` (what a peer that took the holder's connection would be handed).
fn run_copying_to(room: &mut Room, silent: Option<u8>, holder: u8) -> Vec<(u8, DealMsg)> {
    let mut copies = vec![];
    while let Some((from, to, m)) = room.queue.pop_front() {
        if Some(from) == silent {
            continue;
        }
        if to == holder && matches!(m, DealMsg::Share { .. } | DealMsg::PieceShare { .. }) {
            copies.push((from, m.clone()));
        }
        let out = room.tables[to as usize].receive(from, m).unwrap();
        room.post(to, out);
    }
    copies
}

/// Security review C11's leftover: the decryption shares of a private draw travel unsealed (a
/// participant's refutation of a `withheld` claim even sends them to everyone, on purpose). A
/// participant handed every share and stand-in share the others sent the holder, on top of its
/// own, still reads nothing: the holder's own share (and, with a leaver, the holder's share of
/// its piece of the leaver's key) never leaves the holder. With three seats, and with four
/// after one left and the others stand in for it.
#[test]
fn every_share_sent_to_a_holder_opens_nothing_for_anyone_else() {
    for (seats, leaver) in [(3u8, None), (4, Some(3u8))] {
        let mut room = Room::new(seats, 50 + seats);
        room.run().unwrap();
        if let Some(gone) = leaver {
            for i in (0..seats).filter(|&i| i != gone) {
                let out = room.tables[i as usize].stand_in(gone).unwrap();
                room.post(i, out);
            }
            run_without(&mut room, gone);
        }
        let (holder, attacker, position) = (2u8, 0u8, 5u16);
        room.draw(0, position, holder);
        let copies = run_copying_to(&mut room, leaver, holder);
        let card = room.tables[holder as usize]
            .card(0, position)
            .expect("the holder reads its card");
        let expected_senders = if leaver.is_some() { 4 } else { 2 };
        assert_eq!(
            copies.len(),
            expected_senders,
            "shares and stand-in shares sent"
        );
        // Everything the attacker holds: every copy, its own share among them.
        let ct = room.tables[attacker as usize].deck(0).unwrap()[position as usize];
        let points: Vec<RistrettoPoint> = copies
            .iter()
            .map(|(_, m)| match m {
                DealMsg::Share { share, .. } | DealMsg::PieceShare { share, .. } => {
                    share.share.decompress().unwrap()
                }
                _ => unreachable!(),
            })
            .collect();
        assert!(
            orbis_deal::share::open(b"territory", 44, &ct, &points).is_err(),
            "{seats} seats: every share sent to the holder opened card {card} without its own"
        );
        // The same sum with the holder's own shares in (as it shows the card to everyone) does
        // open it: what was missing above is only what never leaves the holder.
        let Some(DealMsg::Reveal { shares, pieces, .. }) =
            room.tables[holder as usize].reveal(0, position)
        else {
            panic!("the holder can show its card")
        };
        let all: Vec<RistrettoPoint> = shares
            .iter()
            .map(|(_, s)| s)
            .chain(pieces.iter().map(|(_, _, s)| s))
            .map(|s| s.share.decompress().unwrap())
            .collect();
        assert_eq!(
            orbis_deal::share::open(b"territory", 44, &ct, &all),
            Ok(card)
        );
        // Fed to its own table, as the refutation's copies would be, they read nothing either.
        for (from, m) in copies {
            if from != attacker {
                let _ = room.tables[attacker as usize].receive(from, m);
            }
        }
        assert_eq!(room.tables[attacker as usize].card(0, position), None);
    }
}
