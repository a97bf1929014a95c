//! Message sizes on the wire. Run with `--nocapture` to see the figures.

use crate::common;

use common::game_id;
use ed25519_dalek::SigningKey;
use orbis_engine::classic::Action;
use orbis_engine::rules::orders::map::OrdersMap;
use orbis_engine::rules::orders::notation;
use orbis_protocol::wire::{encode_orders, orders_commitment, Envelope, OrdersPayload};
use orbis_protocol::{Body, Entry, PeerKey};

#[test]
fn bytes_per_message() {
    let key = SigningKey::from_bytes(&[7; 32]);
    // A realistic message number for a long game and a mid-game log index.
    let seal = |b: &Body| Envelope::seal(&key, game_id(), 1_234_567, b).len();
    let attack = seal(&Body::Entry(Entry {
        index: 1234,
        prev_hash: [9; 32],
        action: Action::Attack {
            from: 12,
            to: 13,
            dice: 3,
        },
    }));
    let place = seal(&Body::Entry(Entry {
        index: 1234,
        prev_hash: [9; 32],
        action: Action::Place {
            territory: 12,
            armies: 3,
        },
    }));
    let reveal = seal(&Body::Reveal {
        index: 1234,
        roll: 321,
        decl: [7; 32],
        preimage: [5; 32],
        next_tip: None,
    });
    let reveal_next = seal(&Body::Reveal {
        index: 1234,
        roll: 321,
        decl: [7; 32],
        preimage: [5; 32],
        next_tip: Some([6; 32]),
    });
    let chat = seal(&Body::Chat {
        to: None,
        text: "good game!".into(),
        sealed: vec![],
    });
    let private = seal(&Body::Chat {
        to: Some(PeerKey([3; 32])),
        text: String::new(),
        sealed: vec![7; 32 + 10],
    });
    let ack = seal(&Body::ChatAck { id: [4; 32] });
    let checkpoint = seal(&Body::Checkpoint {
        index: 1234,
        state_hash: [1; 32],
        log_head: [2; 32],
    });
    let commit = seal(&Body::OrdersCommit {
        round: 7,
        hash: orders_commitment(7, b"x", &[0; 32]),
    });
    let reveal_orders = seal(&Body::OrdersReveal {
        round: 7,
        payload: vec![0; 40],
        salt: [0; 32],
    });
    // A real orders-game reveal: France's three opening orders on the Europe map.
    let map = OrdersMap::get("europe-1901").expect("map");
    let france: Vec<_> = ["F BRE - MAO", "A PAR - BUR", "A MAR S A PAR - BUR"]
        .iter()
        .map(|l| notation::parse(map, l).expect("order"))
        .collect();
    let payload = encode_orders(&OrdersPayload::orders(vec![(1, france.clone())]));
    // The same with France accepting a draw (payload format 2 carries the votes).
    let with_draw = encode_orders(&OrdersPayload {
        orders: vec![(1, france)],
        draw: vec![(1, true)],
    });
    let europe_reveal_draw = seal(&Body::OrdersReveal {
        round: 0,
        payload: with_draw,
        salt: [0; 32],
    });
    let europe_commit = seal(&Body::OrdersCommit {
        round: 0,
        hash: orders_commitment(0, &payload, &[0; 32]),
    });
    let europe_reveal = seal(&Body::OrdersReveal {
        round: 0,
        payload: payload.clone(),
        salt: [0; 32],
    });
    println!(
        "bytes per message (envelope: version, game id, 32-byte key, seq, 64-byte signature):"
    );
    for (name, n) in [
        ("action entry (Attack)", attack),
        ("action entry (Place)", place),
        ("dice reveal", reveal),
        ("dice reveal announcing next chain", reveal_next),
        ("chat, 10 characters, public", chat),
        ("chat, 10 characters, private", private),
        ("chat acknowledgement", ack),
        ("checkpoint", checkpoint),
        ("orders commitment", commit),
        ("orders reveal, 40-byte payload", reveal_orders),
        ("orders game: commitment", europe_commit),
        ("orders game: reveal, 3 orders", europe_reveal),
        ("orders game: reveal, 3 orders + draw", europe_reveal_draw),
    ] {
        println!("  {name:32} {n:4}");
    }
    // Envelope overhead is ~125 bytes; everything fits in one small WebRTC datagram.
    assert!(attack < 200 && reveal < 200 && chat < 200 && ack < 200 && checkpoint < 250);
}
