//! Attacks on the economy ruleset's rounds (independent review of issue 29): a participant that
//! splits its commitments between peers, one that sends empty batches, oversized batches, and
//! an honest player whose move an earlier seat's action made impossible. Each test performs the
//! attack and checks what the honest peers do.

mod common;

use common::economy::*;
use common::Net;
use ed25519_dalek::SigningKey;
use orbis_engine::rules::economy::phase::Phase;
use orbis_engine::rules::economy::state::EconomyState;
use orbis_protocol::peer::{verify, VerifyError};
use orbis_protocol::wire::{encode_economy, orders_commitment};
use orbis_protocol::{Body, Envelope, HaltReport, Peer, ProtocolEvent};

/// Every honest peer's complaints name `culprit` only.
fn only_culprit(net: &Net, honest: &[usize], culprit: usize) {
    let key = net.peers[culprit].key();
    for &i in honest {
        for e in net.complaints(i) {
            match e {
                ProtocolEvent::Rejected { peer, .. } => assert_eq!(*peer, Some(key), "{e:?}"),
                ProtocolEvent::Halted(HaltReport::Equivocation { peer, .. }) => {
                    assert_eq!(*peer, key, "{e:?}")
                }
                e => panic!("peer {i}: {e:?}"),
            }
        }
    }
}

/// A participant sends one peer another signed commitment (and the reveal that opens it) for a
/// round than the others get: two validly signed commitments of one sender for one round are
/// proof of equivocation. Every honest peer halts naming it (with both as evidence), never the
/// other honest peer, their logs agree up to the round, and their transcripts name the cheater.
#[test]
fn split_commitments_halt_every_honest_peer_naming_the_sender() {
    let mut net = economy_net(3, &[], 13, 2);
    const CHEAT: usize = 2;
    const VICTIM: usize = 0;
    let get = |n: &Net| {
        state(n, 0).phase == Phase::Get
            && n.peers[CHEAT].economy_due().is_some()
            && (0..3).all(|j| n.peers[j].log_len() == n.peers[0].log_len())
    };
    let until = net.now + 1_000_000;
    let in_get = |i: usize, s: &EconomyState| i == CHEAT && s.phase == Phase::Get;
    assert!(drive(&mut net, until, in_get, get));
    let round = net.peers[0].log_len() as u32;
    let key = SigningKey::from_bytes(&net.configs[CHEAT].identity_secret);
    let me = net.peers[CHEAT].key();
    // The victim gets another batch (empty) under the same sequence numbers.
    let other = encode_economy(&[]);
    let other_salt = [0xee; 32];
    net.tamper = Some((
        CHEAT,
        Box::new(move |_: &mut Peer, _, to, bytes: Vec<u8>| {
            let Ok((env, body)) = Envelope::open_where(&bytes, |_| true) else {
                return vec![bytes];
            };
            let body = match body {
                _ if to != VICTIM || env.sender != me => return vec![bytes],
                Body::OrdersCommit { round: r, .. } if r == round => Body::OrdersCommit {
                    round,
                    hash: orders_commitment(round, &other, &other_salt),
                },
                Body::OrdersReveal { round: r, .. } if r == round => Body::OrdersReveal {
                    round,
                    payload: other.clone(),
                    salt: other_salt,
                },
                _ => return vec![bytes],
            };
            vec![Envelope::seal(&key, env.game_id, env.seq, &body)]
        }),
    ));
    let until = net.now + 30_000;
    drive(
        &mut net,
        until,
        |_, _| false,
        |n| (0..2).all(|i| n.peers[i].halted().is_some()),
    );
    let honest = [0, 1];
    for i in honest {
        match net.peers[i].halted() {
            Some(HaltReport::Equivocation {
                peer, agreed_index, ..
            }) => {
                assert_eq!(*peer, me, "peer {i} names the cheater");
                assert!(*agreed_index <= u64::from(round));
            }
            h => panic!("peer {i}: {h:?} (complaints {:?})", net.complaints(i)),
        }
        let t = net.peers[i].transcript().expect("a transcript");
        match verify(&t) {
            Err(VerifyError::Cheat { peer: Some(k), .. }) => assert_eq!(k, me),
            r => panic!("peer {i}'s transcript: {r:?}"),
        }
    }
    only_culprit(&net, &honest, CHEAT);
    let at = u64::from(round);
    assert_eq!(net.peers[0].head_at(at), net.peers[1].head_at(at));
}
