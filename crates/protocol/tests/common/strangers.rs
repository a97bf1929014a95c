//! Made-up keys ("strangers") that say hello to a peer the way an honest peer would: the
//! lobby's table tests (`bounds.rs`) and the link-binding tests (`link_binding.rs`) fill a
//! peer's name table with them.

use super::game_id;
use ed25519_dalek::SigningKey;
use orbis_protocol::{Body, Dest, Envelope, Peer};

/// The made-up key number `i`.
pub fn stranger(i: u32) -> SigningKey {
    let mut b = [0u8; 32];
    b[..4].copy_from_slice(&i.to_le_bytes());
    b[31] = 0xc1;
    SigningKey::from_bytes(&b)
}

/// `key`'s broadcast hello to `peer` over `link`, unanswered: it draws a challenge (and, with a
/// full name table, makes the peer forget a name) but names nobody.
pub fn hello_unanswered(peer: &mut Peer, link: u64, key: &SigningKey, seq: u64, now: u64) {
    let hello = Envelope::seal(
        key,
        game_id(),
        seq,
        &Body::Hello {
            name: "stranger".into(),
            answer: false,
            challenge: None,
            response: None,
        },
    );
    let _ = peer.handle(link, &hello, now);
}

/// `key` says hello to `peer` over connection `link` and answers the challenge that comes
/// back, as an honest peer would (security review C11: only an answered challenge binds a key
/// to a connection and names it). Uses sequence numbers `seq` and `seq + 1`.
pub fn hello_over(peer: &mut Peer, link: u64, key: &SigningKey, name: &str, seq: u64, now: u64) {
    let hello = |seq, answer, response| {
        Envelope::seal(
            key,
            game_id(),
            seq,
            &Body::Hello {
                name: name.into(),
                answer,
                challenge: None,
                response,
            },
        )
    };
    let out = peer.handle(link, &hello(seq, false, None), now);
    let challenge = out
        .send
        .iter()
        .find_map(|(d, b)| match Envelope::open_where(b, |_| true) {
            Ok((_, Body::Hello { challenge, .. })) if *d == Dest::Link(link) => challenge,
            _ => None,
        });
    if let Some(c) = challenge {
        let r = orbis_protocol::wire::link_response(&peer.key(), &c);
        let _ = peer.handle(link, &hello(seq + 1, true, Some(r)), now);
    }
}
