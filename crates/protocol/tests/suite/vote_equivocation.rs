//! An equivocation in a round whose sender is being voted out there (economy long-run seed
//! 6085048): every honest peer voted the silent participant out; the drop needs every vote, so
//! the voters that had them all applied it and went on. One voter, whose last vote was still on
//! its way, then got two signed commitments of the dropped participant for that round and halted
//! on them; the others, waiting on it at the next position, voted it out. A voter now keeps such
//! proof while its own vote to drop the sender there can pass; the drop makes it moot. Each test
//! performs the race and checks what every honest peer does.

use crate::common;

use common::economy::*;
use common::Net;
use ed25519_dalek::SigningKey;
use orbis_engine::classic::BotLevel;
use orbis_protocol::peer::{replay, verify, VerifyError};
use orbis_protocol::wire::orders_commitment;
use orbis_protocol::{Body, Control, Envelope, HaltReport, ProtocolEvent};

const CHEAT: usize = 3;
const HONEST: [usize; 3] = [0, 1, 2];

/// A four-peer economy game at a position where every peer's batch is due, played until the
/// honest peers committed theirs there and the cheat (offline) did not: the position and the
/// vote that drops the cheat there.
fn cheat_awaited(seed: u64) -> (Net, u64, Control) {
    cheat_awaited_among(4, seed)
}

/// As [`cheat_awaited`], among `n` peers: those past the four play on as the honest ones do.
fn cheat_awaited_among(n: usize, seed: u64) -> (Net, u64, Control) {
    let mut net = economy_net(n, &[], seed, 3);
    let until = net.now + 1_000_000;
    let all_due = |net: &Net| {
        net.peers[0].log_len() >= 3
            && (0..n).all(|j| {
                net.peers[j].log_len() == net.peers[0].log_len()
                    && net.peers[j].economy_due().is_some()
            })
    };
    assert!(drive(&mut net, until, |_, _| false, all_due));
    net.online[CHEAT] = false;
    let at = net.peers[0].log_len();
    let until = net.now + 5_000;
    let committed = |net: &Net| {
        (0..n)
            .filter(|&i| i != CHEAT)
            .all(|i| net.peers[i].economy_due().is_none())
    };
    assert!(drive(&mut net, until, |i, _| i == CHEAT, committed));
    assert!(HONEST.iter().all(|&i| net.peers[i].log_len() == at));
    let drop = Control::Drop {
        peer: net.peers[CHEAT].key(),
        level: BotLevel::Easy,
    };
    (net, at, drop)
}

/// Two different commitments the cheat signs for round `at` (what it tells two peers).
fn two_commitments(net: &Net, at: u64) -> [Vec<u8>; 2] {
    commitments_of(net, CHEAT, at)
}

/// Two different commitments peer `who` signs for round `at`, unlike anything it orders.
fn commitments_of(net: &Net, who: usize, at: u64) -> [Vec<u8>; 2] {
    let key = SigningKey::from_bytes(&net.configs[who].identity_secret);
    let tag = net.peers[0].game_tag().expect("started");
    let round = at as u32;
    [1u8, 2].map(|b| {
        let hash = orders_commitment(round, &[b], &[b; 32]);
        Envelope::seal(
            &key,
            tag,
            (1 << 45) + u64::from(b),
            &Body::OrdersCommit { round, hash },
        )
    })
}

/// Hands `bytes` to peer `to` as from `from`'s link now, and sends what it answers on.
fn deliver(net: &mut Net, from: usize, to: usize, bytes: &[u8]) {
    let now = net.now;
    let out = net.peers[to].handle(from as u64, bytes, now);
    net.process(to, out);
}

/// Asserts that the honest peers have one log head at the last position they all reached.
fn one_head(net: &Net) {
    let common = HONEST
        .iter()
        .map(|&i| net.peers[i].log_len())
        .min()
        .unwrap();
    let heads: Vec<_> = HONEST
        .iter()
        .map(|&i| net.peers[i].head_at(common))
        .collect();
    assert!(heads.iter().all(|h| *h == heads[0]), "{heads:?}");
}

fn drop_applied(net: &Net, i: usize, at: u64, drop: Control) -> bool {
    net.events[i]
        .iter()
        .any(|e| matches!(e, ProtocolEvent::ControlApplied { at: a, control } if *a == at && *control == drop))
}

/// The race of seed 6085048: peer 0 votes, gets the cheat's two commitments for the round
/// before the others' votes, and only then their votes. It applies the drop with them, as they
/// do, and every honest peer plays on; none halts, none is voted out. The cheat's two
/// commitments, sent again to everyone after its drop, halt nobody either: its orders there no
/// longer count (they would let a dropped participant stop the game whenever it likes).
#[test]
fn proof_of_equivocation_is_moot_to_a_voter_once_the_drop_passes() {
    let (mut net, at, drop) = cheat_awaited(61);
    let out = net.peers[0].vote(drop).expect("peer 0 may vote");
    net.process(0, out);
    let [a, b] = two_commitments(&net, at);
    deliver(&mut net, CHEAT, 0, &a);
    deliver(&mut net, CHEAT, 0, &b);
    assert_eq!(net.peers[0].halted(), None, "a voter keeps the proof");
    assert_eq!(
        net.peers[0].log_len(),
        at,
        "and stays where its vote holds it"
    );
    // The other two vote; their votes (and peer 0's) cross the network.
    for i in [1, 2] {
        let out = net.peers[i].vote(drop).expect("may vote");
        net.process(i, out);
    }
    let until = net.now + 5_000;
    assert!(drive(
        &mut net,
        until,
        |i, _| i == CHEAT,
        |n| HONEST.iter().all(|&i| drop_applied(n, i, at, drop))
    ));
    for i in HONEST {
        for m in [&a, &b] {
            deliver(&mut net, CHEAT, i, m);
        }
    }
    let until = net.now + 200_000;
    let on = |n: &Net| HONEST.iter().all(|&i| n.peers[i].log_len() >= at + 4);
    assert!(drive(&mut net, until, |i, _| i == CHEAT, on));
    not_halted(&net, &HONEST);
    for i in HONEST {
        for e in &net.events[i] {
            if let ProtocolEvent::ControlApplied {
                control: Control::Drop { peer, .. },
                ..
            } = e
            {
                assert_eq!(*peer, net.peers[CHEAT].key(), "peer {i}: {e:?}");
            }
        }
    }
    one_head(&net);
}

/// The other order of the same race: peer 2 gets the two commitments before it votes, and never
/// votes, so the drop can never pass. Every honest peer keeps the proof (and sends it on), and
/// none resolves the round with either version; when no drop has come within
/// `Config::missing_ms`, each halts on it. All three stop naming the cheat, at the round; no
/// honest peer is dropped or named.
#[test]
fn a_voter_holding_proof_halts_on_it_when_another_voter_never_votes() {
    let (mut net, at, drop) = cheat_awaited(62);
    let [a, b] = two_commitments(&net, at);
    for i in [0, 1] {
        let out = net.peers[i].vote(drop).expect("may vote");
        net.process(i, out);
        deliver(&mut net, CHEAT, i, &a);
        deliver(&mut net, CHEAT, i, &b);
        assert_eq!(net.peers[i].halted(), None);
    }
    deliver(&mut net, CHEAT, 2, &a);
    deliver(&mut net, CHEAT, 2, &b);
    let cheat = net.peers[CHEAT].key();
    let names_cheat = |n: &Net, i: usize| {
        let h = n.peers[i].halted();
        matches!(h, Some(HaltReport::Equivocation { peer, .. }) if *peer == cheat)
    };
    let missing = net.configs[0].missing_ms;
    let until = net.now + missing / 2;
    drive(&mut net, until, |i, _| i == CHEAT, |_| false);
    for i in HONEST {
        assert_eq!(net.peers[i].halted(), None, "peer {i} waits for a drop");
        assert_eq!(net.peers[i].log_len(), at, "peer {i} takes neither version");
    }
    let until = net.now + missing;
    let all = |n: &Net| HONEST.iter().all(|&i| names_cheat(n, i));
    assert!(drive(&mut net, until, |i, _| i == CHEAT, all));
    let until = net.now + 5_000;
    drive(&mut net, until, |i, _| i == CHEAT, |_| false);
    only_culprit(&net, &HONEST, CHEAT);
    for i in HONEST {
        assert!(!drop_applied(&net, i, at, drop), "peer {i}");
        assert_eq!(net.peers[i].log_len(), at, "peer {i}");
        // Its transcript names the cheat, and replays to where the game stopped.
        let t = net.peers[i].transcript().expect("a transcript");
        match verify(&t) {
            Err(VerifyError::Cheat { peer: Some(k), .. }) => assert_eq!(k, cheat),
            r => panic!("peer {i}'s transcript: {r:?}"),
        }
        let rp = replay(&t).expect("a halted game's transcript replays");
        assert_eq!(rp.states.len() as u64, at + 1, "peer {i}");
    }
}

/// Independent review of the fix: the cheat's two commitments are for the round after the one
/// it is voted out at, and reach a voter before the last vote (and two peers before they vote
/// at all, as they would a peer replaying the log after a reload). Proof about a round ahead is
/// judged when that round is reached: the drop has made it moot by then, at every peer alike.
#[test]
fn proof_about_a_round_ahead_is_judged_when_the_round_is_reached() {
    let (mut net, at, drop) = cheat_awaited(63);
    let [a, b] = two_commitments(&net, at + 1);
    let out = net.peers[0].vote(drop).expect("peer 0 may vote");
    net.process(0, out);
    for i in HONEST {
        deliver(&mut net, CHEAT, i, &a);
        deliver(&mut net, CHEAT, i, &b);
        assert_eq!(net.peers[i].halted(), None, "peer {i} keeps the proof");
    }
    for i in [1, 2] {
        let out = net.peers[i].vote(drop).expect("may vote");
        net.process(i, out);
    }
    let until = net.now + 200_000;
    let on = |n: &Net| HONEST.iter().all(|&i| n.peers[i].log_len() >= at + 4);
    assert!(drive(&mut net, until, |i, _| i == CHEAT, on));
    not_halted(&net, &HONEST);
    for i in HONEST {
        assert!(drop_applied(&net, i, at, drop), "peer {i}");
    }
    one_head(&net);
}

/// Two equivocators (second independent review: one kept-proof slot for all). Peer 0, voting
/// the silent cheat out, holds proof that it equivocated in the round; then peer 1 gets a
/// second commitment of peer 4 (who plays on and votes) for the same round, keeps that proof
/// and sends it to everyone. The drop of the first cheat makes its proof moot; the proof about
/// peer 4 still stands at every honest peer, peer 0 included (with one slot, peer 0 threw it
/// away, resolved the round with peer 4's orders and went on while peers 1 and 2 halted).
/// Every honest peer halts naming peer 4, at the round, and its transcript says so.
#[test]
fn proof_about_a_second_equivocator_outlives_the_drop_of_the_first() {
    const SECOND: usize = 4;
    let (mut net, at, drop) = cheat_awaited_among(5, 64);
    let out = net.peers[0].vote(drop).expect("peer 0 may vote");
    net.process(0, out);
    let [a, b] = two_commitments(&net, at);
    deliver(&mut net, CHEAT, 0, &a);
    deliver(&mut net, CHEAT, 0, &b);
    let [forged, _] = commitments_of(&net, SECOND, at);
    deliver(&mut net, SECOND, 1, &forged);
    for i in HONEST {
        assert_eq!(net.peers[i].halted(), None, "peer {i} keeps the proof");
    }
    for i in [1, 2, SECOND] {
        let out = net.peers[i].vote(drop).expect("may vote");
        net.process(i, out);
    }
    let second = net.peers[SECOND].key();
    let names_second = |n: &Net, i: usize| {
        let h = n.peers[i].halted();
        matches!(h, Some(HaltReport::Equivocation { peer, .. }) if *peer == second)
    };
    let until = net.now + 2 * net.configs[0].missing_ms;
    let all = |n: &Net| HONEST.iter().all(|&i| names_second(n, i));
    assert!(
        drive(&mut net, until, |i, _| i == CHEAT, all),
        "halts: {:?}",
        HONEST.map(|i| net.peers[i].halted().cloned())
    );
    for i in HONEST {
        assert!(
            drop_applied(&net, i, at, drop),
            "peer {i} dropped the first cheat"
        );
        assert_eq!(
            net.peers[i].log_len(),
            at,
            "peer {i} took no version of peer 4's"
        );
        let t = net.peers[i].transcript().expect("a transcript");
        match verify(&t) {
            Err(VerifyError::Cheat { peer: Some(k), .. }) => assert_eq!(k, second),
            r => panic!("peer {i}'s transcript: {r:?}"),
        }
    }
}
