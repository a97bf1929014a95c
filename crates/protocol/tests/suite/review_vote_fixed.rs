//! Independent review of protocol version 9 (`Body::Vote::fixed`), from a second angle.
//!
//! 1. `a_voter_naming_two_batches_in_one_vote_is_named_and_halts_the_game` (the hole, fixed): four
//!    peers, 0 and 1 honest, H (2) hostile, T (3) silent. 0 and 1 vote T out before any batch is
//!    fixed; H signs its one vote twice, `fixed: None` for peer 0 and `fixed: Some(made up)` for
//!    peer 1. Both are valid, and a peer keeps the first copy of a voter's vote it takes
//!    (`VoteBook::add`, `has_voted`; a later copy is a duplicate, and once applied the control is
//!    no longer `control_valid`): peer 0 (and H) apply the drop and fix a batch without T that
//!    rolls; peer 1 never applies it (its copy names a batch nobody fixes) and nothing lets it go
//!    (no decider is left; the copy peer 0 resends is ignored). Nobody halted and nobody named
//!    H: peer 0 waited on honest peer 1's dice reveal for ever, its page named peer 1, and 0 and
//!    H then voted peer 1 out (seeds 31, 32, 33, position 5). Fixed: the two copies are proof of
//!    equivocation (`VoteBook::conflicting`); the honest voters halt naming H, and their
//!    transcripts name H under `verify`. Before version 9 the same voter could
//!    only send its vote to one peer and not the other, and resync made up for it:
//!    `control_a_vote_sent_to_one_voter_only_reaches_the_other_by_resync` (passes) shows it.
//! 2. `a_target_relaying_the_deciders_vote_without_its_reveal_splits_nobody` (holds): the target
//!    relays the deciding voter's signed vote to the held voter, but not its reveal, while the
//!    two cannot reach each other.
//! 3. `two_voters_that_voted_before_fixing_follow_the_one_that_voted_after` (holds): four peers,
//!    two held voters, the decider's reveal lost on the way; its vote alone releases them. The
//!    transcripts verify.

use crate::common;

use common::economy::*;
use common::Net;
use ed25519_dalek::SigningKey;
use orbis_engine::classic::BotLevel;
use orbis_protocol::peer::{verify, VerifyError};
use orbis_protocol::wire::Envelope;
use orbis_protocol::{Body, Control, HaltReport, ProtocolEvent};

/// Peer `from`'s vote for `control` at `at` naming the batch `fixed`, signed with its key (as a
/// hostile page would), for `to`'s game.
fn vote_naming(
    net: &Net,
    from: usize,
    to: usize,
    (at, seq): (u64, u64),
    control: Control,
    fixed: Option<[u8; 32]>,
) -> Vec<u8> {
    let key = SigningKey::from_bytes(&net.configs[from].identity_secret);
    let tag = net.peers[to].game_tag().expect("started");
    Envelope::seal(
        &key,
        tag,
        (1 << 52) + seq,
        &Body::Vote { at, control, fixed },
    )
}

fn applied_at(net: &Net, i: usize, at: u64, c: Control) -> bool {
    net.events[i].iter().any(
        |e| matches!(e, ProtocolEvent::ControlApplied { at: a, control } if *a == at && *control == c),
    )
}

/// `n` peers, target `t`: played until every peer is due at one position past `depth` with
/// equal logs; then `t` goes quiet and the others submit. Returns the position and the drop.
fn silent_once_all_submitted(net: &mut Net, n: usize, t: usize, depth: u64) -> (u64, Control) {
    let (at, drop) = common::economy::target_silent(net, n, depth, t, false, &[]);
    for i in (0..n).filter(|&i| i != t) {
        assert!(net.peers[i].economy_due().is_none(), "peer {i} submitted");
    }
    (at, drop)
}

/// Whether `who` all went past `at` on one history, none halted.
fn together(net: &Net, who: &[usize], at: u64) -> Result<(), String> {
    let lens: Vec<u64> = who.iter().map(|&i| net.peers[i].log_len()).collect();
    let halted: Vec<_> = who
        .iter()
        .map(|&i| net.peers[i].halted().cloned())
        .collect();
    let heads: Vec<_> = who.iter().map(|&i| net.peers[i].head_at(at + 1)).collect();
    let waits: Vec<_> = who.iter().map(|&i| net.peers[i].waiting_on()).collect();
    if halted.iter().all(Option::is_none)
        && lens.iter().all(|&l| l > at + 1)
        && heads.iter().all(|h| h.is_some() && *h == heads[0])
    {
        return Ok(());
    }
    let keys: Vec<_> = (0..net.peers.len()).map(|i| net.peers[i].key()).collect();
    Err(format!(
        "at {at}: logs {lens:?}, heads at {}: {heads:?}, halted {halted:?}, waiting on {waits:?} \
         (keys {keys:?})",
        at + 1
    ))
}

const H: usize = 2; // the hostile voter (four-peer games)
const T4: usize = 3; // the target (four-peer games)

/// Finding (fixed): a voter that signed two `fixed` for one vote left one honest voter behind,
/// for ever, with nobody halted or named, and the honest voter was then voted out. Peers 0 and 1
/// honest, H hostile, T4 silent (honest). Now the two copies are proof of equivocation: every
/// honest voter halts naming H (a forced halt, not a split game), no honest peer is dropped,
/// and each halted peer's transcript names H under `verify`.
#[test]
fn a_voter_naming_two_batches_in_one_vote_is_named_and_halts_the_game() {
    for seed in [31u64, 32, 33] {
        let mut net = economy_net(4, &[], seed, 3);
        let (at, drop) = silent_once_all_submitted(&mut net, 4, T4, 4);
        // Past the grace, peers 0 and 1 vote the silent target out (before any batch is fixed).
        net.run_until(net.now + 2_500, |_| false);
        for i in [0, 1] {
            let o = net.peers[i].vote(drop).expect("votes");
            net.process(i, o);
        }
        // H's one vote, signed twice: for peer 0 as cast before fixing, for peer 1 naming a
        // batch nobody fixed.
        let v0 = vote_naming(&net, H, 0, (at, 1), drop, None);
        let v1 = vote_naming(&net, H, 1, (at, 2), drop, Some([0xee; 32]));
        net.inject(H, 0, v0);
        net.inject(H, 1, v1);
        // Everyone stays connected and plays on (H plays honestly from here).
        let until = net.now + 30_000;
        drive(&mut net, until, |_, _| false, |_| false);
        let h = net.peers[H].key();
        for i in [0, 1] {
            let halted = net.peers[i].halted().cloned();
            assert!(
                matches!(halted, Some(HaltReport::Equivocation { peer, index, .. }) if peer == h && index == at),
                "seed {seed}: peer {i} halts naming H at {at}: {halted:?}"
            );
            let t = net.peers[i].transcript().expect("transcript");
            match verify(&t) {
                Err(VerifyError::Cheat { peer: Some(k), .. }) => {
                    assert_eq!(k, h, "seed {seed}: peer {i}'s transcript names H")
                }
                other => panic!("seed {seed}: peer {i}'s transcript: {other:?}"),
            }
        }
        // No honest peer was handed to the computer.
        for i in 0..4 {
            for honest in [0, 1] {
                let c = Control::Drop {
                    peer: net.peers[honest].key(),
                    level: BotLevel::Normal,
                };
                assert!(
                    !net.events[i].iter().any(|e| matches!(e, ProtocolEvent::ControlApplied { control, .. } if *control == c)),
                    "seed {seed}: peer {i} dropped honest peer {honest}"
                );
            }
        }
    }
}

/// The same voter before version 9 could only withhold its vote from one peer: the peer that
/// applied the drop resends it, and the other follows.
#[test]
fn control_a_vote_sent_to_one_voter_only_reaches_the_other_by_resync() {
    for seed in [31u64, 32, 33] {
        let mut net = economy_net(4, &[], seed, 3);
        let (at, drop) = silent_once_all_submitted(&mut net, 4, T4, 4);
        net.run_until(net.now + 2_500, |_| false);
        for i in [0, 1] {
            let o = net.peers[i].vote(drop).expect("votes");
            net.process(i, o);
        }
        let v0 = vote_naming(&net, H, 0, (at, 1), drop, None);
        net.inject(H, 0, v0);
        let until = net.now + 30_000;
        drive(&mut net, until, |_, _| false, |_| false);
        assert!(applied_at(&net, 0, at, drop), "seed {seed}");
        assert!(applied_at(&net, 1, at, drop), "seed {seed}");
        if let Err(e) = together(&net, &[0, 1, H], at) {
            panic!("seed {seed}: {e}");
        }
    }
}

/// Attack (1): the target T (hostile, peer 2 of three) withholds its dice reveal, and while
/// peers 0 and 1 cannot reach each other it relays 1's signed vote (naming the batch 1 fixed)
/// to 0, but never 1's reveal (nor any resend). Peer 0, held by its own earlier vote, fixes the
/// batch the vote names and applies the drop after it, as 1 did.
#[test]
fn a_target_relaying_the_deciders_vote_without_its_reveal_splits_nobody() {
    const T: usize = 2;
    for seed in [21u64, 22, 23, 24] {
        let mut net = economy_net(3, &[], seed, 3);
        let (at, drop) = silent_once_all_submitted(&mut net, 3, T, 6);
        let o = net.peers[0].vote(drop).expect("0 votes");
        net.process(0, o);
        // T: no dice reveal at `at`, and no resend (a batch could carry 1's reveal).
        net.tamper = Some((
            T,
            Box::new(move |_, _, _, bytes| match body(&bytes) {
                Some(Body::Reveal { index, .. }) if index == at => vec![],
                Some(Body::Batch { .. }) => vec![],
                _ => vec![bytes],
            }),
        ));
        net.online[T] = true;
        submit_as_bot(&mut net, T);
        let revealed = |n: &Net| {
            n.events[1].iter().any(
                |e| matches!(e, ProtocolEvent::OrdersRevealed { round, .. } if u64::from(*round) == at),
            )
        };
        assert!(net.run_until(net.now + 10_000, revealed), "seed {seed}");
        // The 0-1 link goes down: 1's reveal is lost to 0.
        net.online[0] = false;
        net.run_until(net.now + 2_000, |_| false);
        let o = net.peers[1].vote(drop).expect("1 votes");
        let vote: Vec<u8> = o
            .send
            .iter()
            .map(|(_, b)| b.clone())
            .find(|b| matches!(body(b), Some(Body::Vote { .. })))
            .expect("1's vote");
        assert!(
            matches!(body(&vote), Some(Body::Vote { fixed: Some(_), .. })),
            "seed {seed}: 1 fixed the batch before voting"
        );
        net.process(1, o);
        net.run_until(net.now + 500, |_| false);
        assert!(applied_at(&net, 1, at, drop), "seed {seed}");
        // Peer 0 back, peer 1 unreachable for it: T relays 1's vote, and nothing else of 1's.
        net.online[1] = false;
        net.online[0] = true;
        net.inject(T, 0, vote);
        net.run_until(net.now + 5_000, |_| false);
        assert!(net.peers[0].halted().is_none(), "seed {seed}");
        assert!(
            applied_at(&net, 0, at, drop),
            "seed {seed}: 0 applies the drop on the batch 1 fixed; waits on {:?}",
            net.peers[0].waiting_on()
        );
        // The link comes back: one history.
        net.online[1] = true;
        net.tamper = None;
        net.autoplay[T] = false;
        let until = net.now + 30_000;
        drive(
            &mut net,
            until,
            |_, _| false,
            |n| (0..2).all(|i| n.peers[i].log_len() > at + 2),
        );
        if let Err(e) = together(&net, &[0, 1], at) {
            panic!("seed {seed}: {e}");
        }
        for i in 0..2 {
            let t = net.peers[i].transcript().expect("transcript");
            if let Err(e) = verify(&t) {
                panic!("seed {seed}: peer {i}'s transcript: {e}");
            }
        }
    }
}

/// Attack (3): four peers; 0 and 2 vote the silent target T4 out before any batch is fixed; T4
/// comes back with its orders and then withholds its dice; 1, which had not voted, fixes the
/// batch, and its reveal never leaves it (only resends carry it); past the grace it votes T4
/// out naming that batch. Its vote alone reaches 0 and 2 first: each fixes the batch it names
/// and applies the drop after it. All three go on together, and every transcript verifies.
#[test]
fn two_voters_that_voted_before_fixing_follow_the_one_that_voted_after() {
    let mut rolled = 0;
    for seed in [41u64, 42, 43, 44] {
        for depth in 3..16 {
            if four_peers_mixed_voters(seed, depth) {
                rolled += 1;
                break;
            }
        }
    }
    assert!(
        rolled >= 3,
        "only {rolled} seeds reached a position whose batch rolls"
    );
}

/// One run of the four-peer case at the first position past `depth` where all are due; false
/// when that position's batch rolls no dice (nothing to test there).
fn four_peers_mixed_voters(seed: u64, depth: u64) -> bool {
    {
        let mut net = economy_net(4, &[], seed, 3);
        let (at, drop) = silent_once_all_submitted(&mut net, 4, T4, depth);
        for i in [0, 2] {
            let o = net.peers[i].vote(drop).expect("votes");
            net.process(i, o);
        }
        // Peer 1's reveal at `at` never leaves it on its own.
        net.tamper = Some((
            1,
            Box::new(move |_, _, _, bytes| {
                if matches!(body(&bytes), Some(Body::Reveal { index, .. }) if index == at) {
                    return vec![];
                }
                vec![bytes]
            }),
        ));
        net.online[T4] = true;
        submit_as_bot(&mut net, T4);
        let revealed = |n: &Net| {
            n.events[1].iter().any(
                |e| matches!(e, ProtocolEvent::OrdersRevealed { round, .. } if u64::from(*round) == at),
            )
        };
        assert!(net.run_until(net.now + 10_000, revealed), "seed {seed}");
        // T4 goes quiet before its dice (its reveal, on its way, is lost).
        net.online[T4] = false;
        net.run_until(net.now + 2_000, |_| false);
        if net.peers[1].log_len() != at {
            return false; // the batch rolled no dice: peer 1 went on
        }
        let o = net.peers[1].vote(drop).expect("1 votes");
        assert!(
            o.send
                .iter()
                .any(|(_, b)| matches!(body(b), Some(Body::Vote { fixed: Some(_), .. }))),
            "seed {seed}: 1 fixed the batch before voting"
        );
        net.process(1, o);
        let until = net.now + 30_000;
        drive(
            &mut net,
            until,
            |_, _| false,
            |n| [0, 1, 2].iter().all(|&i| n.peers[i].log_len() > at + 2),
        );
        for i in [0, 1, 2] {
            assert!(
                applied_at(&net, i, at, drop),
                "seed {seed} at {at}: peer {i}"
            );
        }
        if let Err(e) = together(&net, &[0, 1, 2], at) {
            panic!("seed {seed}: {e}");
        }
        for i in [0, 1, 2] {
            let t = net.peers[i].transcript().expect("transcript");
            if let Err(e) = verify(&t) {
                panic!("seed {seed}: peer {i}'s transcript: {e}");
            }
        }
    }
    true
}
