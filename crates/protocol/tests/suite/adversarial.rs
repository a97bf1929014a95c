//! A misbehaving peer is detected and named, and the honest peers are unharmed.

use crate::common;

use common::{game_id, Net, NetParams};
use ed25519_dalek::SigningKey;
use orbis_engine::classic::Action;
use orbis_engine::codec;
use orbis_protocol::peer::{verify, VerifyError};
use orbis_protocol::wire::{Envelope, Sig, PROTOCOL_VERSION};
use orbis_protocol::{Body, Entry, HaltReport, PeerKey, ProtocolEvent, Violation};
use std::cell::RefCell;
use std::rc::Rc;

const ATTACKER: usize = 2;

/// Signs `body` as peer `i` would: game messages under the running game's id.
fn seal_as(net: &Net, i: usize, seq: u64, body: &Body) -> Vec<u8> {
    let key = SigningKey::from_bytes(&net.configs[i].identity_secret);
    let id = match net.peers[0].game_tag() {
        Some(tag) if body.under_game() => tag,
        _ => game_id(),
    };
    Envelope::seal(&key, id, seq, body)
}

fn open(bytes: &[u8]) -> (Envelope, Body) {
    Envelope::open_where(bytes, |_| true).expect("valid envelope")
}

/// Runs until both honest peers (0 and 1) have halted, which they must.
fn both_halt(net: &mut Net) {
    assert!(net.run_until(50_000_000, |n| n.peers[0].halted().is_some()
        && n.peers[1].halted().is_some()));
}

/// A started 3-peer game that has run until `log_len` entries.
fn game_at(seed: u64, log_len: u64, params: NetParams) -> Net {
    let mut net = Net::new(3, seed, params);
    let p = net.proposal(0);
    net.start(p);
    assert!(net.run_until(10_000_000, |n| n.peers[0].log_len() >= log_len));
    net
}

fn finish(net: &mut Net) {
    let all = [0, 1, 2];
    assert!(
        net.run_until(50_000_000, |n| n.all_over(&all)),
        "game did not finish"
    );
}

fn honest_equal(net: &Net) {
    let h = net.hashes(&[0, 1]);
    assert!(h[0].is_some() && h[0] == h[1], "{h:?}");
}

/// `Rejected` events at honest peer `i` that name `who`.
fn rejections(net: &Net, i: usize, who: PeerKey) -> Vec<Violation> {
    net.events[i]
        .iter()
        .filter_map(|e| match e {
            ProtocolEvent::Rejected {
                peer: Some(p),
                violation,
                ..
            } if *p == who => Some(violation.clone()),
            _ => None,
        })
        .collect()
}

fn only_culprit(net: &Net, culprit: PeerKey) {
    for i in [0, 1] {
        for e in net.complaints(i) {
            match e {
                ProtocolEvent::Rejected { peer, .. } => assert_eq!(*peer, Some(culprit), "{e:?}"),
                ProtocolEvent::Halted(_) => {}
                _ => unreachable!(),
            }
        }
    }
}

#[test]
fn garbage_bytes_are_refused_naming_the_link() {
    let mut net = game_at(21, 30, NetParams::perfect());
    for (k, junk) in [
        vec![],
        vec![0xff; 7],
        vec![1, 2, 3, 4, 5, 6, 7, 8, 9],
        vec![0; 5000],
    ]
    .into_iter()
    .enumerate()
    {
        for to in [0, 1] {
            let mut j = junk.clone();
            j.push(k as u8);
            let out = net.peers[to].handle(ATTACKER as u64, &j, net.now);
            assert!(out.send.is_empty());
            assert!(
                matches!(
                    &out.events[..],
                    [ProtocolEvent::Rejected {
                        link: Some(2),
                        violation: Violation::Wire(_),
                        ..
                    }]
                ),
                "{:?}",
                out.events
            );
        }
    }
    finish(&mut net);
    let h = net.hashes(&[0, 1, 2]);
    assert!(h[0] == h[1] && h[1] == h[2]);
}

#[test]
fn wrong_version_game_and_signature_are_refused() {
    let mut net = game_at(22, 10, NetParams::perfect());
    let attacker = net.peers[ATTACKER].key();
    let good = seal_as(
        &net,
        ATTACKER,
        1 << 50,
        &Body::Chat {
            to: None,
            text: "hi".into(),
            sealed: vec![],
        },
    );
    let (env, _) = open(&good);

    let mut v = env.clone();
    v.version = PROTOCOL_VERSION + 1;
    // Validly signed, but under another room's id.
    let key = SigningKey::from_bytes(&net.configs[ATTACKER].identity_secret);
    let chat = Body::Chat {
        to: None,
        text: "hi".into(),
        sealed: vec![],
    };
    let (g, _) = open(&Envelope::seal(&key, [7; 16], (1 << 50) + 1, &chat));
    let mut s = env.clone();
    s.signature = Sig([1; 32], [2; 32]);
    let mut b = env.clone();
    b.body.push(0);
    for (e, want) in [
        (v, "version"),
        (g, "game"),
        (s, "signature"),
        (b, "signature"),
    ] {
        let out = net.peers[0].handle(ATTACKER as u64, &codec::encode(&e), net.now);
        match &out.events[..] {
            [ProtocolEvent::Rejected {
                peer: Some(p),
                violation: Violation::Wire(w),
                ..
            }] => {
                assert_eq!(*p, attacker);
                assert!(w.to_string().contains(want), "{w} / {want}");
            }
            other => panic!("{other:?}"),
        }
    }
    finish(&mut net);
    honest_equal(&net);
}

#[test]
fn out_of_turn_entry_is_refused() {
    let mut net = game_at(23, 40, NetParams::perfect());
    let attacker = net.peers[ATTACKER].key();
    // Wait until it is not the attacker's turn, then act anyway.
    assert!(net.run_until(10_000_000, |n| n.peers[0]
        .state()
        .is_some_and(
            |s| s.current != ATTACKER as u8 && n.peers[0].waiting_on().len() == 1
        )));
    let st = net.peers[0].state().unwrap().clone();
    let e = Entry {
        index: net.peers[0].log_len(),
        prev_hash: net.peers[0].log_head().unwrap(),
        action: Action::EndTurn,
    };
    let _ = st;
    let raw = seal_as(&net, ATTACKER, 1 << 50, &Body::Entry(e));
    net.inject(ATTACKER, 0, raw.clone());
    net.inject(ATTACKER, 1, raw);
    finish(&mut net);
    for i in [0, 1] {
        let r = rejections(&net, i, attacker);
        assert!(
            matches!(r[..], [Violation::OutOfTurn { .. }]),
            "peer {i}: {r:?}"
        );
    }
    only_culprit(&net, attacker);
    let h = net.hashes(&[0, 1, 2]);
    assert!(h[0] == h[1] && h[1] == h[2]);
}

/// A seat's illegal entry is refused and the game waits on that seat, as it did before; but
/// no honest engine signs a move illegal in the state its prev hash names, so a second,
/// different entry the same seat signs for that position is equivocation, whatever order the
/// two reach a peer in (long-run seed 3000057: a peer that had refused and forgotten the
/// illegal version took the legal one and never compared the two, while the others halted).
#[test]
fn illegal_action_is_refused_and_a_second_version_is_equivocation() {
    let mut net = game_at(24, 5, NetParams::perfect());
    let attacker = net.peers[ATTACKER].key();
    net.autoplay[ATTACKER] = false;
    assert!(net.run_until(10_000_000, |n| n.peers[ATTACKER].is_my_turn()));
    let st = net.peers[ATTACKER].state().unwrap().clone();
    // A territory the attacker does not own.
    let theirs = (0..st.owner.len() as u8)
        .find(|&t| st.owner[t as usize] != orbis_engine::classic::Owner::Player(ATTACKER as u8))
        .unwrap();
    let index = net.peers[ATTACKER].log_len();
    let e = Entry {
        index,
        prev_hash: net.peers[ATTACKER].log_head().unwrap(),
        action: Action::Place {
            territory: theirs,
            armies: 1,
        },
    };
    let raw = seal_as(&net, ATTACKER, 1 << 50, &Body::Entry(e));
    net.inject(ATTACKER, 0, raw.clone());
    net.inject(ATTACKER, 1, raw);
    net.run_until(net.now + 100, |_| false);
    for i in [0, 1] {
        let r = rejections(&net, i, attacker);
        assert!(
            matches!(r[..], [Violation::Illegal { .. }]),
            "peer {i}: {r:?}"
        );
        // Refused, not applied: the game still waits on the attacker at that position.
        assert_eq!(net.peers[i].log_len(), index, "peer {i}");
        assert!(net.peers[i].halted().is_none(), "peer {i}");
    }
    // The attacker's own client now signs a legal move for the same position.
    net.autoplay[ATTACKER] = true;
    both_halt(&mut net);
    for i in [0, 1] {
        match net.peers[i].halted() {
            Some(HaltReport::Equivocation {
                peer, index: at, ..
            }) => {
                assert_eq!(*peer, attacker, "peer {i}");
                assert_eq!(*at, index, "peer {i}");
            }
            other => panic!("peer {i}: {other:?}"),
        }
        assert_eq!(
            net.peers[i].log_len(),
            index,
            "peer {i}: nothing applied there"
        );
    }
}

#[test]
fn replayed_messages_change_nothing_and_reused_numbers_are_named() {
    let captured: Rc<RefCell<Vec<Vec<u8>>>> = Rc::default();
    let mut net = Net::new(3, 25, NetParams::perfect());
    let c = captured.clone();
    net.tamper = Some((
        ATTACKER,
        Box::new(move |_, _, _, bytes| {
            c.borrow_mut().push(bytes.clone());
            vec![bytes]
        }),
    ));
    let p = net.proposal(0);
    net.start(p);
    assert!(net.run_until(10_000_000, |n| n.peers[0].log_len() >= 150));
    let attacker = net.peers[ATTACKER].key();
    let before: Vec<_> = net.peers.iter().map(|p| p.duplicates).collect();
    // Verbatim replays of everything the attacker ever sent: all ignored.
    let old = captured.borrow().clone();
    for raw in &old {
        net.inject(ATTACKER, 0, raw.clone());
        net.inject(ATTACKER, 1, raw.clone());
    }
    // An old entry re-signed under a new number, and an old number with a new body.
    let (env, body) = old
        .iter()
        .map(|r| open(r))
        .find(|(_, b)| matches!(b, Body::Entry(_)))
        .expect("attacker acted");
    net.inject(ATTACKER, 0, seal_as(&net, ATTACKER, 1 << 51, &body));
    net.inject(
        ATTACKER,
        1,
        seal_as(
            &net,
            ATTACKER,
            env.seq,
            &Body::Chat {
                to: None,
                text: "rewrite".into(),
                sealed: vec![],
            },
        ),
    );
    net.run_until(net.now + 50, |_| false);
    assert!(net.peers[0].duplicates > before[0] + old.len() as u64 / 2);
    assert!(rejections(&net, 0, attacker).is_empty());
    assert_eq!(
        rejections(&net, 1, attacker),
        vec![Violation::SeqReused { seq: env.seq }]
    );
    finish(&mut net);
    only_culprit(&net, attacker);
    let h = net.hashes(&[0, 1, 2]);
    assert!(h[0] == h[1] && h[1] == h[2]);
}

#[test]
fn forged_dice_reveals_are_named_and_the_true_ones_still_count() {
    let mut net = Net::new(
        3,
        26,
        NetParams {
            max_delay: 20,
            drop_pct: 0,
            dup_pct: 0,
        },
    );
    let key = SigningKey::from_bytes(&net.configs[ATTACKER].identity_secret);
    let forged = Rc::new(RefCell::new(0u32));
    let f = forged.clone();
    let mut done = std::collections::BTreeSet::new();
    net.tamper = Some((
        ATTACKER,
        Box::new(move |_, _, to, bytes| {
            let (env, body) = open(&bytes);
            match body {
                // The first reveal of every fifth roll is replaced by a made-up pre-image (sent
                // under a fresh number); the true one only goes out with a later resend.
                Body::Reveal {
                    index,
                    roll,
                    decl,
                    preimage,
                    next_tip,
                } if roll % 5 == 0 && done.insert((to, roll)) => {
                    *f.borrow_mut() += 1;
                    let mut bad = preimage;
                    bad[0] ^= 1;
                    vec![Envelope::seal(
                        &key,
                        env.game_id,
                        env.seq + (1 << 40),
                        &Body::Reveal {
                            index,
                            roll,
                            decl,
                            preimage: bad,
                            next_tip,
                        },
                    )]
                }
                _ => vec![bytes],
            }
        }),
    ));
    let p = net.proposal(0);
    net.start(p);
    finish(&mut net);
    let attacker = net.peers[ATTACKER].key();
    assert!(*forged.borrow() > 0);
    for i in [0, 1] {
        let r = rejections(&net, i, attacker);
        assert!(
            !r.is_empty() && r.iter().all(|v| matches!(v, Violation::BadReveal { .. })),
            "{r:?}"
        );
    }
    only_culprit(&net, attacker);
    let h = net.hashes(&[0, 1, 2]);
    assert!(h[0] == h[1] && h[1] == h[2]);
}

/// The attacker tells peer 1 "end the turn" where it tells peer 0 "end attacking"; returns its key.
fn equivocate(net: &mut Net) -> PeerKey {
    let key = SigningKey::from_bytes(&net.configs[ATTACKER].identity_secret);
    let attacker = net.peers[ATTACKER].key();
    net.tamper = Some((
        ATTACKER,
        Box::new(move |_, _, to, bytes| {
            let (env, body) = open(&bytes);
            match body {
                // Its own entries only (it relays others' too).
                Body::Entry(e)
                    if to == 1 && env.sender == attacker && e.action == Action::EndAttack =>
                {
                    let other = Entry {
                        action: Action::EndTurn,
                        ..e
                    };
                    vec![Envelope::seal(
                        &key,
                        env.game_id,
                        env.seq + (1 << 40),
                        &Body::Entry(other),
                    )]
                }
                _ => vec![bytes],
            }
        }),
    ));
    attacker
}

#[test]
fn equivocation_halts_everyone_naming_the_seat() {
    let mut net = game_at(27, 5, NetParams::perfect());
    let attacker = equivocate(&mut net);
    both_halt(&mut net);
    let reports: Vec<_> = [0, 1]
        .iter()
        .map(|&i| net.peers[i].halted().cloned().unwrap())
        .collect();
    let mut heads = vec![];
    for r in &reports {
        match r {
            HaltReport::Equivocation {
                peer,
                index,
                agreed_index,
                agreed_head,
                ..
            } => {
                assert_eq!(*peer, attacker);
                heads.push((*index, *agreed_index, *agreed_head));
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(heads[0].0, heads[1].0, "same position");
    // The shorter agreed history is a prefix of the other honest peer's.
    let i = if heads[0].1 <= heads[1].1 { 0 } else { 1 };
    assert_eq!(net.peers[1 - i].head_at(heads[i].1), Some(heads[i].2));
    assert!(net
        .complaints(0)
        .iter()
        .all(|e| matches!(e, ProtocolEvent::Halted(_))));
}

/// A modified engine: the attacker's checkpoints claim a different state (or, with `history`,
/// a different log head: another history); returns its key.
fn false_checkpoints(net: &mut Net, history: bool) -> PeerKey {
    let key = SigningKey::from_bytes(&net.configs[ATTACKER].identity_secret);
    let attacker = net.peers[ATTACKER].key();
    net.tamper = Some((
        ATTACKER,
        Box::new(move |_, _, _, bytes| {
            let (env, body) = open(&bytes);
            match body {
                Body::Checkpoint {
                    index,
                    mut state_hash,
                    mut log_head,
                } => {
                    match history {
                        true => log_head[0] ^= 1,
                        false => state_hash[0] ^= 1,
                    }
                    vec![Envelope::seal(
                        &key,
                        env.game_id,
                        env.seq,
                        &Body::Checkpoint {
                            index,
                            state_hash,
                            log_head,
                        },
                    )]
                }
                _ => vec![bytes],
            }
        }),
    ));
    attacker
}

#[test]
fn checkpoint_mismatch_halts_naming_the_peer() {
    let mut net = game_at(28, 5, NetParams::perfect());
    let attacker = false_checkpoints(&mut net, false);
    both_halt(&mut net);
    let mut ours = vec![];
    for i in [0, 1] {
        match net.peers[i].halted().unwrap() {
            HaltReport::CheckpointMismatch {
                peer,
                index,
                ours: o,
                ..
            } => {
                assert_eq!(*peer, attacker);
                ours.push((*index, *o));
            }
            other => panic!("{other:?}"),
        }
    }
    // Both honest peers stop on the same checkpoint with the same state and history.
    assert_eq!(ours[0], ours[1]);
}

/// Each honest peer's transcript of a halted game, checked offline by `orbis verify`, names
/// `culprit` and nobody else; what each says it did.
fn transcripts_name(net: &Net, culprit: PeerKey) -> Vec<String> {
    [0, 1]
        .map(|i| {
            let t = net.peers[i].transcript().expect("a game ran");
            match verify(&t) {
                Err(VerifyError::Cheat {
                    peer: Some(p),
                    what,
                }) => {
                    assert_eq!(p, culprit, "peer {i}'s transcript names another");
                    what
                }
                other => panic!("peer {i}'s transcript: {other:?}"),
            }
        })
        .to_vec()
}

/// Security review C14: a game halted by a false checkpoint gave a transcript that verified as
/// if nothing had happened (the replay noticed the mismatch but only a timer ever halts on it).
#[test]
fn the_transcript_of_a_false_checkpoint_halt_names_its_signer() {
    let mut net = game_at(28, 5, NetParams::perfect());
    let attacker = false_checkpoints(&mut net, false);
    both_halt(&mut net);
    for what in transcripts_name(&net, attacker) {
        assert!(what.contains("another state than the log gives"), "{what}");
    }
}

/// PROTOCOL.md ("one of another history is named as the live peer names it"): checkpoints whose
/// log head is not the log every honest peer holds halt both honest peers naming their signer,
/// and neither transcript verifies clean.
#[test]
fn a_checkpoint_of_another_history_halts_naming_its_signer() {
    let mut net = game_at(28, 5, NetParams::perfect());
    let attacker = false_checkpoints(&mut net, true);
    both_halt(&mut net);
    for i in [0, 1] {
        match net.peers[i].halted().unwrap() {
            HaltReport::CheckpointMismatch { peer, .. } => assert_eq!(*peer, attacker),
            other => panic!("peer {i}: {other:?}"),
        }
        let t = net.peers[i].transcript().expect("a game ran");
        assert!(verify(&t).is_err(), "peer {i}'s transcript verified clean");
    }
}

/// Security review C14: an equivocation halt's transcript, whose evidence holds the second
/// entry for a position already in the log, was refused as "out of place", naming nobody.
#[test]
fn the_transcript_of_an_equivocation_halt_names_the_equivocator() {
    let mut net = game_at(27, 5, NetParams::perfect());
    let attacker = equivocate(&mut net);
    both_halt(&mut net);
    transcripts_name(&net, attacker);
}

#[test]
fn simultaneous_orders_commit_reveal() {
    let mut net = game_at(
        29,
        3,
        NetParams {
            max_delay: 30,
            drop_pct: 0,
            dup_pct: 0,
        },
    );
    for i in [0, 1, 2] {
        net.autoplay[i] = false;
    }
    let attacker = net.peers[ATTACKER].key();
    // Round 1: everyone honest. Nobody reveals before all three commitments are in.
    for i in [0, 1] {
        let o = net.peers[i]
            .commit_orders(1, vec![i as u8; 10], [i as u8 + 1; 32])
            .unwrap();
        net.process(i, o);
    }
    net.run_until(net.now + 500, |_| false);
    for i in 0..3 {
        assert!(!net.events[i].iter().any(|e| matches!(
            e,
            ProtocolEvent::OrdersCommitted { .. } | ProtocolEvent::OrdersRevealed { .. }
        )));
    }
    let o = net.peers[2].commit_orders(1, vec![2; 10], [3; 32]).unwrap();
    net.process(2, o);
    net.run_until(net.now + 500, |_| false);
    let revealed: Vec<_> = (0..3)
        .map(|i| {
            net.events[i]
                .iter()
                .find_map(|e| match e {
                    ProtocolEvent::OrdersRevealed { round: 1, orders } => Some(orders.clone()),
                    _ => None,
                })
                .expect("orders revealed")
        })
        .collect();
    assert_eq!(revealed[0], revealed[1]);
    assert_eq!(revealed[1], revealed[2]);
    assert_eq!(revealed[0][2], (attacker, vec![2; 10]));

    // Round 2: the attacker commits, then signs another commitment for the same round.
    let key = SigningKey::from_bytes(&net.configs[ATTACKER].identity_secret);
    net.tamper = Some((
        ATTACKER,
        Box::new(move |_, _, _, bytes| {
            let (env, body) = open(&bytes);
            match body {
                Body::OrdersReveal { round, salt, .. } => vec![Envelope::seal(
                    &key,
                    env.game_id,
                    env.seq,
                    &Body::OrdersReveal {
                        round,
                        payload: b"better orders".to_vec(),
                        salt,
                    },
                )],
                _ => vec![bytes],
            }
        }),
    ));
    let o = net.peers[2]
        .commit_orders(2, b"orders".to_vec(), [9; 32])
        .unwrap();
    net.process(2, o);
    let change = seal_as(
        &net,
        ATTACKER,
        1 << 50,
        &Body::OrdersCommit {
            round: 2,
            hash: [5; 32],
        },
    );
    net.inject(ATTACKER, 0, change.clone());
    net.inject(ATTACKER, 1, change);
    for i in [0, 1] {
        let o = net.peers[i]
            .commit_orders(2, vec![i as u8], [7; 32])
            .unwrap();
        net.process(i, o);
    }
    net.run_until(net.now + 500, |_| false);
    // Two signed commitments for one round are equivocation: every honest peer halts naming
    // the attacker (with both as evidence), and nobody's round-2 orders were revealed.
    for i in [0, 1] {
        assert!(
            matches!(
                net.peers[i].halted(),
                Some(HaltReport::Equivocation { peer, index: 2, .. }) if *peer == attacker
            ),
            "{:?}",
            net.peers[i].halted()
        );
        assert!(!net.events[i]
            .iter()
            .any(|e| matches!(e, ProtocolEvent::OrdersRevealed { round: 2, .. })));
    }
    only_culprit(&net, attacker);
    honest_equal(&net);
}

#[test]
fn chat_public_private_and_oversized() {
    let mut net = game_at(30, 3, NetParams::perfect());
    let k1 = net.peers[1].key();
    let o = net.peers[0].chat(None, "hello all").unwrap();
    net.process(0, o);
    let o = net.peers[0].chat(Some(k1), "psst").unwrap();
    net.process(0, o);
    let big = "x".repeat(600);
    assert!(net.peers[0].chat(None, &big).is_err());
    let raw = seal_as(
        &net,
        ATTACKER,
        1 << 50,
        &Body::Chat {
            to: None,
            text: big,
            sealed: vec![],
        },
    );
    net.inject(ATTACKER, 0, raw);
    net.run_until(net.now + 20, |_| false);
    let chats = |i: usize| -> Vec<(bool, String)> {
        net.events[i]
            .iter()
            .filter_map(|e| match e {
                ProtocolEvent::Chat { private, text, .. } => Some((*private, text.clone())),
                _ => None,
            })
            .collect()
    };
    assert_eq!(
        chats(1),
        vec![(false, "hello all".into()), (true, "psst".into())]
    );
    assert_eq!(chats(2), vec![(false, "hello all".into())]);
    assert_eq!(
        rejections(&net, 0, net.peers[ATTACKER].key()),
        vec![Violation::TooLong]
    );
}

mod noisy_attacker {
    use super::*;
    use orbis_engine::dice::{Dice, SeededDice};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 6, failure_persistence: None, rng_seed: proptest::test_runner::RngSeed::Fixed(0x0b15), ..ProptestConfig::default() })]
        /// Peer 2 corrupts, drops, duplicates and replays its own messages at random over a
        /// lossy network: every complaint of an honest peer points at link 2, and all three
        /// peers still finish the same game.
        #[test]
        fn honest_peers_agree_whatever_the_noise(seed in any::<u64>(), corrupt in 1u32..20, replay in 1u32..20) {
            let mut net = Net::new(3, seed, NetParams { max_delay: 40, drop_pct: 5, dup_pct: 5 });
            let mut rng = SeededDice::new(orbis_engine::codec::sha256(&seed.to_le_bytes()));
            let mut old: Vec<Vec<u8>> = vec![];
            net.tamper = Some((
                ATTACKER,
                Box::new(move |_, _, _, bytes| {
                    let mut out = vec![];
                    if rng.below(100) < corrupt {
                        let mut b = bytes.clone();
                        let n = b.len() as u32;
                        let i = rng.below(n.max(1)) as usize;
                        if let Some(x) = b.get_mut(i) {
                            *x ^= 1 + rng.below(255) as u8;
                        }
                        out.push(b);
                    }
                    if rng.below(100) < replay && !old.is_empty() {
                        let i = rng.below(old.len() as u32) as usize;
                        out.push(old[i].clone());
                    }
                    old.push(bytes.clone());
                    out.push(bytes);
                    out
                }),
            ));
            let p = net.proposal(0);
            net.start(p);
            finish(&mut net);
            let h = net.hashes(&[0, 1, 2]);
            prop_assert!(h[0].is_some() && h[0] == h[1] && h[1] == h[2], "{:?}", h);
            prop_assert!(!net.complaints(0).is_empty() || !net.complaints(1).is_empty());
            for i in [0, 1] {
                for e in net.complaints(i) {
                    match e {
                        ProtocolEvent::Rejected { link, .. } => prop_assert_eq!(*link, Some(ATTACKER as u64), "{:?}", e),
                        other => prop_assert!(false, "{:?}", other),
                    }
                }
            }
        }
    }
}

mod lossy_equivocation {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 8, failure_persistence: None, rng_seed: proptest::test_runner::RngSeed::Fixed(0x0b15), ..ProptestConfig::default() })]
        /// Equivocation over a lossy network, where the relay that would expose it at once may be
        /// lost: resends with the requester's head, evidence from halted peers and the
        /// checkpoint grace period still make both honest peers halt naming the seat, at the same
        /// position and agreed history.
        #[test]
        fn both_honest_peers_name_the_equivocator(seed in any::<u64>(), drop_pct in 0u32..25) {
            let mut net = Net::new(3, seed, NetParams { max_delay: 40, drop_pct, dup_pct: 5 });
            let p = net.proposal(0);
            net.start(p);
            prop_assert!(net.run_until(10_000_000, |n| n.peers[0].log_len() >= 5));
            let key = SigningKey::from_bytes(&net.configs[ATTACKER].identity_secret);
            let attacker = net.peers[ATTACKER].key();
            net.tamper = Some((
                ATTACKER,
                Box::new(move |_, _, to, bytes| {
                    let (env, body) = open(&bytes);
                    match body {
                        // Its own entries only (it relays others' too).
                Body::Entry(e)
                    if to == 1 && env.sender == attacker && e.action == Action::EndAttack =>
                {
                            let other = Entry { action: Action::EndTurn, ..e };
                            vec![Envelope::seal(&key, env.game_id, env.seq + (1 << 40), &Body::Entry(other))]
                        }
                        _ => vec![bytes],
                    }
                }),
            ));
            prop_assert!(net.run_until(net.now + 600_000, |n| n.peers[0].halted().is_some() && n.peers[1].halted().is_some()));
            let mut seen = vec![];
            for i in [0, 1] {
                match net.peers[i].halted() {
                    Some(HaltReport::Equivocation { peer, index, agreed_index, agreed_head, .. }) => {
                        prop_assert_eq!(*peer, attacker);
                        seen.push((*index, *agreed_index, *agreed_head));
                    }
                    other => prop_assert!(false, "{:?}", other),
                }
                for e in net.complaints(i) {
                    if let ProtocolEvent::Rejected { peer, .. } = e {
                        prop_assert_eq!(*peer, Some(attacker), "{:?}", e);
                    }
                }
            }
            prop_assert_eq!(seen[0].0, seen[1].0);
            // The shorter agreed history is a prefix of the other honest peer's.
            let i = if seen[0].1 <= seen[1].1 { 0 } else { 1 };
            prop_assert_eq!(net.peers[1 - i].head_at(seen[i].1), Some(seen[i].2));
        }
    }
}

#[test]
fn a_stranger_cannot_halt_the_game_with_two_entries_for_a_future_position() {
    // Security review, finding 1: a key that is not a participant signs two different entries
    // for a position ahead of everyone. Before the fix both were buffered and relayed, and the
    // honest peers halted with `Equivocation`.
    let mut net = game_at(31, 20, NetParams::perfect());
    let stranger = SigningKey::from_bytes(&[77; 32]);
    let stranger_key = PeerKey(stranger.verifying_key().to_bytes());
    let at = net.peers[0].log_len() + 3;
    for (seq, action) in [(1, Action::EndTurn), (2, Action::EndAttack)] {
        let e = Entry {
            index: at,
            prev_hash: [0; 32],
            action,
        };
        let raw = Envelope::seal(
            &stranger,
            net.peers[0].game_tag().expect("started"),
            seq,
            &Body::Entry(e),
        );
        net.inject(ATTACKER, 0, raw.clone());
        net.inject(ATTACKER, 1, raw);
    }
    finish(&mut net);
    for i in [0, 1] {
        assert!(net.peers[i].halted().is_none(), "peer {i} halted");
        let r = rejections(&net, i, stranger_key);
        assert!(
            r.iter().all(|v| matches!(v, Violation::NotParticipant)) && !r.is_empty(),
            "peer {i}: {r:?}"
        );
    }
    let h = net.hashes(&[0, 1, 2]);
    assert!(h[0].is_some() && h[0] == h[1] && h[1] == h[2]);
}

/// A started peer's request for the whole game (its log empty).
fn sync_from_start() -> Body {
    Body::Sync {
        started: true,
        have_index: 0,
        head: [0; 32],
        deal: 0,
        deal_digest: [0; 32],
        unread: vec![],
        withheld: vec![],
    }
}

/// How many messages of the game (entries, resend batches, reveals) `sent` sends over `link`.
fn game_messages_to(sent: &[(orbis_protocol::peer::Dest, Vec<u8>)], link: u64) -> usize {
    sent.iter()
        .filter(|(d, b)| {
            *d == orbis_protocol::peer::Dest::Link(link)
                && matches!(
                    open(b).1,
                    Body::Entry(_) | Body::Batch { .. } | Body::Reveal { .. }
                )
        })
        .count()
}

#[test]
fn a_strangers_sync_gets_no_transcript() {
    // PROTOCOL.md ("A stranger cannot ... get the game's transcript"): a `Sync` from a key
    // that is not a participant, however far behind it says it is, makes a peer send nothing of
    // the game; the very same request signed by a participant is answered with the log.
    let mut net = game_at(33, 20, NetParams::perfect());
    let sync = sync_from_start();
    let tag = net.peers[0].game_tag().expect("started");
    let stranger = SigningKey::from_bytes(&[78; 32]);
    let game_messages = |sent: &[(orbis_protocol::peer::Dest, Vec<u8>)]| {
        sent.iter()
            .filter(|(_, b)| {
                matches!(
                    open(b).1,
                    Body::Entry(_) | Body::Batch { .. } | Body::Reveal { .. }
                )
            })
            .count()
    };
    let now = net.now;
    // Over a connection of its own, and over the link of a participant it took over.
    for (link, seq) in [(99, 1), (ATTACKER as u64, 2)] {
        let raw = Envelope::seal(&stranger, tag, seq, &sync);
        let out = net.peers[0].handle(link, &raw, now);
        assert_eq!(
            game_messages(&out.send),
            0,
            "answered a stranger over link {link}"
        );
    }
    let seq = net.configs[ATTACKER].seq_start + (1 << 30);
    let raw = seal_as(&net, ATTACKER, seq, &sync);
    let out = net.peers[0].handle(ATTACKER as u64, &raw, now);
    assert!(
        game_messages(&out.send) > 0,
        "a participant's request went unanswered"
    );
}

#[test]
fn a_participants_sync_replayed_over_another_link_gets_no_transcript() {
    // A `Sync` goes to every connection, strangers' too. Replayed over another connection (a
    // stranger's own, or another participant's), it used to make a peer send the whole game
    // there, once per connection and half resend period: the transcript to a stranger, and a
    // small request amplified into the whole game. Only the connection bound to the request's
    // signer is answered; any other is challenged, so a participant on a new connection is
    // answered once it has proven itself there.
    let net = game_at(34, 20, NetParams::perfect());
    let sync = sync_from_start();
    let now = net.now;
    let raw = seal_as(&net, 1, net.configs[1].seq_start + (1 << 30), &sync);
    // Each on its own copy of peer 0: a copy of a request it has handled is dropped unread
    // (the attacker first pushes it out of the junk window with throwaway hellos).
    for link in [99, ATTACKER as u64] {
        let out = net.peers[0].clone().handle(link, &raw, now);
        assert_eq!(
            game_messages_to(&out.send, link),
            0,
            "peer 1's request answered over link {link}"
        );
    }
    let out = net.peers[0].clone().handle(1, &raw, now);
    assert!(
        game_messages_to(&out.send, 1) > 0,
        "peer 1's request went unanswered over its own connection"
    );
    // Nor is a peer's own request, replayed to it, answered (it never binds its own key).
    let own = seal_as(&net, 0, net.configs[0].seq_start + (1 << 30), &sync);
    let out = net.peers[0].clone().handle(99, &own, now);
    assert_eq!(
        game_messages_to(&out.send, 99),
        0,
        "our own request answered"
    );
}

#[test]
fn a_whole_relay_does_not_cost_the_victim_its_resends_over_its_own_link() {
    // Found by an independent review of the fix above. The attacker relays whole (the
    // documented limit: PROTOCOL.md, "It can also relay whole"): it gets the honest peer's
    // challenge for a fresh connection of its own, has the victim answer it over another,
    // and hands the answer back, which binds the victim to the attacker's connection. With
    // requests answered only over the signer's connection, repeating that between the
    // victim's requests kept the victim from every resend. Now a request that came while the
    // victim was bound elsewhere is answered as soon as it proves itself on its own
    // connection again (the challenge its request draws).
    use orbis_protocol::peer::Dest;
    let net = game_at(34, 20, NetParams::perfect());
    let (mut honest, mut victim) = (net.peers[0].clone(), net.peers[1].clone());
    let v = victim.key();
    const FRESH: u64 = 9;
    let hello_to = |s: &[(Dest, Vec<u8>)], l: u64| {
        s.iter()
            .find(|(d, b)| *d == Dest::Link(l) && matches!(open(b).1, Body::Hello { .. }))
            .map(|(_, b)| b.clone())
    };
    let sync = sync_from_start();
    let mut now = net.now;
    let hi = seal_as(
        &net,
        ATTACKER,
        net.configs[ATTACKER].seq_start + (1 << 30),
        &Body::Hello {
            name: "a".into(),
            answer: false,
            challenge: None,
            response: None,
        },
    );
    let challenge = hello_to(&honest.handle(FRESH, &hi, now).send, FRESH).expect("challenged");
    for round in 0..3u64 {
        let answer = hello_to(&victim.handle(FRESH, &challenge, now).send, FRESH).expect("answers");
        honest.handle(FRESH, &answer, now);
        assert_eq!(honest.link_of(&v), Some(FRESH), "the documented limit");
        now += 1_000;
        let raw = seal_as(&net, 1, net.configs[1].seq_start + (1 << 31) + round, &sync);
        let out = honest.handle(1, &raw, now);
        let mut answered = game_messages_to(&out.send, 1);
        // The challenge its request drew, answered over its own connection, binds it back
        // and brings the answer; then the attacker moves it again.
        let ch = hello_to(&out.send, 1).expect("challenged over its own connection");
        let a = hello_to(&victim.handle(0, &ch, now).send, 0).expect("answers");
        let out = honest.handle(1, &a, now);
        assert_eq!(honest.link_of(&v), Some(1), "bound back");
        answered += game_messages_to(&out.send, 1);
        assert!(
            answered > 0,
            "round {round}: the victim's request went unanswered"
        );
        assert_eq!(
            game_messages_to(&out.send, FRESH),
            0,
            "answered to the attacker"
        );
    }
}

#[test]
fn a_relayed_copy_that_comes_first_does_not_cost_the_victim_its_resend() {
    // Found by the independent review of the fix above: the attacker relays the victim's
    // broadcast request over its own connection before the victim's own copy comes. The
    // relayed copy was remembered as handled, so the victim's copy over its own connection was
    // dropped as a duplicate and never answered.
    let net = game_at(34, 20, NetParams::perfect());
    let mut honest = net.peers[0].clone();
    let sync = sync_from_start();
    let now = net.now + 1_000;
    let raw = seal_as(&net, 1, net.configs[1].seq_start + (1 << 30), &sync);
    honest.handle(ATTACKER as u64, &raw, now);
    let out = honest.handle(1, &raw, now + 1);
    assert!(
        out.send
            .iter()
            .any(|(d, b)| *d == orbis_protocol::peer::Dest::Link(1)
                && matches!(open(b).1, Body::Batch { .. })),
        "the victim's request never answered"
    );
}

#[test]
fn a_replayed_hello_or_ack_does_not_move_a_peer_to_the_replayers_link() {
    // Security review, finding 7: the attacker replays peer 1's own first hello over its link.
    // Before the fix peer 0 then sent peer 1's private chat to the attacker.
    let mut net = game_at(32, 3, NetParams::perfect());
    let k1 = net.peers[1].key();
    assert_eq!(net.peers[0].link_of(&k1), Some(1));
    let hello = seal_as(
        &net,
        1,
        net.configs[1].seq_start,
        &Body::Hello {
            name: net.configs[1].name.clone(),
            answer: false,
            challenge: None,
            response: None,
        },
    );
    net.inject(ATTACKER, 0, hello.clone());
    net.inject(ATTACKER, 0, hello);
    net.run_until(net.now + 20, |_| false);
    assert_eq!(net.peers[0].link_of(&k1), Some(1), "peer 1 moved");
    let o = net.peers[0].chat(Some(k1), "for peer 1 only").unwrap();
    net.process(0, o);
    net.run_until(net.now + 20, |_| false);
    let got = |i: usize| {
        net.events[i]
            .iter()
            .any(|e| matches!(e, ProtocolEvent::Chat { text, .. } if text == "for peer 1 only"))
    };
    assert!(got(1) && !got(2));
}

#[test]
fn a_strangers_proposals_do_not_hold_back_our_resend_requests() {
    // Security review, finding 6: every new proposal counted as progress, so proposals sent
    // faster than the resend period stopped a peer from ever asking for what it missed.
    let cfg = common::config(34, 0);
    let resend = cfg.resend_ms;
    let mut peer = orbis_protocol::Peer::new(cfg);
    let _ = peer.start(0);
    let stranger = SigningKey::from_bytes(&[78; 32]);
    let stranger_key = PeerKey(stranger.verifying_key().to_bytes());
    let net = Net::new(2, 34, NetParams::perfect());
    let mut spam = net.proposal(0);
    spam.participants = vec![stranger_key];
    for s in spam.seats.iter_mut() {
        s.controller = orbis_protocol::Controller::Peer(0);
    }
    let mut syncs = 0;
    for k in 1..=20u64 {
        let t = k * resend / 2;
        spam.nonce = k;
        let raw = Envelope::seal(&stranger, game_id(), k, &Body::Propose(spam.clone()));
        let _ = peer.handle(9, &raw, t);
        let out = peer.tick(t + 1);
        syncs += out
            .send
            .iter()
            .filter(|(_, b)| matches!(open(b).1, Body::Sync { .. }))
            .count();
    }
    assert!(
        syncs >= 5,
        "only {syncs} resend requests in ten resend periods"
    );
}

#[test]
fn an_accept_resent_under_new_numbers_does_not_hold_back_our_resend_requests() {
    // Security review, finding 6 (the same hole through other lobby messages): every accept
    // counted as progress, even the same accept sealed again under a new sequence number.
    let cfg = common::config(35, 0);
    let resend = cfg.resend_ms;
    let mut peer = orbis_protocol::Peer::new(cfg);
    let me = peer.key();
    let _ = peer.start(0);
    let other = SigningKey::from_bytes(&[79; 32]);
    let other_key = PeerKey(other.verifying_key().to_bytes());
    let net = Net::new(2, 35, NetParams::perfect());
    let mut p = net.proposal(0);
    p.participants = vec![other_key, me];
    let raw = Envelope::seal(&other, game_id(), 1, &Body::Propose(p));
    let out = peer.handle(9, &raw, 1);
    let hash = out
        .events
        .iter()
        .find_map(|e| match e {
            ProtocolEvent::SetupProposed { hash, .. } => Some(*hash),
            _ => None,
        })
        .expect("the proposal is shown");
    let accept = Body::Accept {
        proposal: hash,
        seed_commit: [1; 32],
        chain_tip: [2; 32],
        chain_len: 64,
    };
    let mut syncs = 0;
    for k in 1..=20u64 {
        let t = k * resend / 2;
        let raw = Envelope::seal(&other, game_id(), 1 + k, &accept);
        let _ = peer.handle(9, &raw, t);
        let out = peer.tick(t + 1);
        syncs += out
            .send
            .iter()
            .filter(|(_, b)| matches!(open(b).1, Body::Sync { .. }))
            .count();
    }
    assert!(
        syncs >= 5,
        "only {syncs} resend requests in ten resend periods"
    );
}

#[test]
fn a_flood_of_junk_leaves_every_table_bounded() {
    // Security review, finding 8: every message ever refused was remembered (its id and its
    // sequence number), throwaway keys grew the hello and connection tables, and so a flood
    // grew a peer's memory without limit. Now only what changes our state is kept for good.
    let mut net = game_at(36, 30, NetParams::perfect());
    let before: std::collections::BTreeMap<_, _> = net.peers[0].table_sizes().into_iter().collect();
    let tag = net.peers[0].game_tag().expect("started");
    let now = net.now;
    let strangers: Vec<SigningKey> = (0..600u32)
        .map(|i| {
            let mut b = [0u8; 32];
            b[..4].copy_from_slice(&i.to_le_bytes());
            b[31] = 0x5a;
            SigningKey::from_bytes(&b)
        })
        .collect();
    for k in 0..24_000u64 {
        let key = &strangers[(k % 600) as usize];
        let body = match k % 4 {
            0 => Body::Hello {
                name: format!("junk{k}"),
                answer: false,
                challenge: None,
                response: None,
            },
            1 => Body::Sync {
                started: true,
                have_index: k,
                head: [0; 32],
                deal: 0,
                deal_digest: [0; 32],
                unread: vec![],
                withheld: vec![],
            },
            2 => Body::Entry(Entry {
                index: 1000 + k,
                prev_hash: [0; 32],
                action: Action::EndTurn,
            }),
            _ => Body::Chat {
                to: None,
                text: format!("junk {k}"),
                sealed: vec![],
            },
        };
        let id = if body.under_game() { tag } else { game_id() };
        let raw = Envelope::seal(key, id, 1 + k, &body);
        let _ = net.peers[0].handle(100 + k % 64, &raw, now);
    }
    // A participant's own flood of refused entries (out of turn, far ahead).
    for k in 0..4_000u64 {
        let e = Entry {
            index: net.peers[0].log_len() + 1_000 + k,
            prev_hash: [0; 32],
            action: Action::EndTurn,
        };
        let raw = seal_as(&net, 2, (1 << 50) + k, &Body::Entry(e));
        let _ = net.peers[0].handle(2, &raw, now);
    }
    let after: std::collections::BTreeMap<_, _> = net.peers[0].table_sizes().into_iter().collect();
    eprintln!("tables before {before:?}\ntables after  {after:?}");
    let grew = |t: &str| after[t] - before.get(t).copied().unwrap_or(0);
    assert!(after["junk"] <= 8192, "{after:?}");
    assert!(grew("seen") <= 600, "{after:?}"); // at most one public chat per stranger
    assert!(grew("seqs") <= 600 + 4_000, "{after:?}");
    for t in ["names", "challenged", "bind_seq", "key_links", "last_heard"] {
        assert!(after[t] <= 256 + 3, "{t}: {after:?}");
    }
    assert!(
        after["candidates"] <= before["candidates"] + 64,
        "{after:?}"
    );
    finish(&mut net);
    honest_equal(&net);
}
