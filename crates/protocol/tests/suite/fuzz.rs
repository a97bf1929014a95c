//! Arbitrary bytes and arbitrary signed bodies never make a peer panic.

use crate::common;

use common::{game_id, Net, NetParams};
use ed25519_dalek::SigningKey;
use orbis_engine::classic::Action;
use orbis_protocol::wire::Envelope;
use orbis_protocol::{Body, Entry, Peer, PeerKey};
use proptest::prelude::*;
use std::sync::OnceLock;

/// Peer 0 of a 2-peer game (plus a bot seat) 60 entries in, with peer 1's key and peer 0's
/// log length and head; built once and cloned for every case.
fn mid_game() -> &'static (Peer, [u8; 32], u64, [u8; 32]) {
    static CELL: OnceLock<(Peer, [u8; 32], u64, [u8; 32])> = OnceLock::new();
    CELL.get_or_init(|| {
        let mut net = Net::new(2, 5, NetParams::perfect());
        let p = net.proposal(1);
        net.start(p);
        assert!(net.run_until(10_000_000, |n| n.peers[0].log_len() >= 60));
        let peer = net.peers[0].clone();
        let (len, head) = (peer.log_len(), peer.log_head().unwrap());
        (peer, net.configs[1].identity_secret, len, head)
    })
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        (any::<u8>(), any::<u32>())
            .prop_map(|(territory, armies)| Action::Place { territory, armies }),
        (any::<u8>(), any::<u8>(), any::<u8>()).prop_map(|(from, to, dice)| Action::Attack {
            from,
            to,
            dice
        }),
        (any::<u8>(), any::<u8>(), any::<u32>()).prop_map(|(from, to, stop_at)| Action::Blitz {
            from,
            to,
            stop_at
        }),
        any::<u32>().prop_map(|armies| Action::Occupy { armies }),
        any::<[u8; 3]>().prop_map(|cards| Action::Trade { cards }),
        Just(Action::EndAttack),
        Just(Action::EndTurn),
    ]
}

fn body(len: u64, head: [u8; 32]) -> impl Strategy<Value = Body> {
    prop_oneof![
        (0..len + 80, any::<bool>(), action()).prop_map(move |(index, good_prev, action)| {
            Body::Entry(Entry {
                index,
                prev_hash: if good_prev { head } else { [1; 32] },
                action,
            })
        }),
        (
            0..len + 80,
            any::<u32>(),
            any::<[u8; 32]>(),
            proptest::option::of(any::<[u8; 32]>()),
            any::<[u8; 32]>(),
        )
            .prop_map(|(index, roll, preimage, next_tip, decl)| Body::Reveal {
                index,
                roll,
                decl,
                preimage,
                next_tip,
            }),
        (0..len + 80, any::<[u8; 32]>(), any::<[u8; 32]>()).prop_map(
            |(index, state_hash, log_head)| Body::Checkpoint {
                index,
                state_hash,
                log_head
            }
        ),
        (
            any::<bool>(),
            any::<u64>(),
            any::<[u8; 32]>(),
            any::<u32>(),
            proptest::collection::vec((any::<u8>(), any::<u16>()), 0..80)
        )
            .prop_map(|(started, have_index, head, deal, unread)| Body::Sync {
                started,
                have_index,
                head,
                deal,
                deal_digest: head,
                withheld: unread.iter().map(|x| x.0).collect(),
                unread,
            }),
        (any::<u32>(), any::<[u8; 32]>())
            .prop_map(|(round, hash)| Body::OrdersCommit { round, hash }),
        (
            any::<u32>(),
            proptest::collection::vec(any::<u8>(), 0..64),
            any::<[u8; 32]>()
        )
            .prop_map(|(round, payload, salt)| Body::OrdersReveal {
                round,
                payload,
                salt
            }),
        (any::<[u8; 32]>(), any::<[u8; 32]>())
            .prop_map(|(proposal, secret)| Body::SeedReveal { proposal, secret }),
        (
            proptest::option::of(any::<[u8; 32]>()),
            ".{0,40}",
            proptest::collection::vec(any::<u8>(), 0..80)
        )
            .prop_map(|(to, text, sealed)| Body::Chat {
                to: to.map(PeerKey),
                text,
                sealed
            }),
        (
            ".{0,80}",
            proptest::option::of(any::<[u8; 32]>()),
            proptest::option::of(any::<[u8; 32]>())
        )
            .prop_map(|(name, challenge, response)| Body::Hello {
                name,
                answer: false,
                challenge,
                response,
            }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, rng_seed: proptest::test_runner::RngSeed::Fixed(0x0b15), ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400), link in any::<u64>()) {
        let mut p = Peer::new(common::config(1, 0));
        let _ = p.start(0);
        let out = p.handle(link, &bytes, 10);
        prop_assert!(out.send.is_empty());
        let _ = p.tick(5_000);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, rng_seed: proptest::test_runner::RngSeed::Fixed(0x0b15), ..ProptestConfig::default() })]

    /// Validly signed but arbitrary messages from a participant, in a running game, and
    /// bit-flipped versions of them.
    #[test]
    fn arbitrary_signed_bodies_never_panic(
        bodies in proptest::collection::vec(body(mid_game().2, mid_game().3), 1..30),
        flips in proptest::collection::vec((any::<u16>(), any::<u8>()), 0..3),
    ) {
        let (peer, secret, _, _) = mid_game();
        let mut peer = peer.clone();
        let key = SigningKey::from_bytes(secret);
        for (i, b) in bodies.iter().enumerate() {
            let id = match peer.game_tag() {
                Some(tag) if b.under_game() => tag,
                _ => game_id(),
            };
            let mut raw = Envelope::seal(&key, id, 1_000_000 + i as u64, b);
            for (pos, x) in &flips {
                let n = raw.len();
                raw[*pos as usize % n] ^= x;
            }
            let _ = peer.handle(1, &raw, 1_000 + i as u64);
        }
        let _ = peer.tick(1_000_000);
        let _ = peer.act(Action::EndTurn);
    }
}
