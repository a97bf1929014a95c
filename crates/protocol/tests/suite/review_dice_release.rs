//! Review of the dice release (`held_by_vote`, a decider's reveal). Peer 0 votes T (peer 2) out
//! at an economy position whose batch rolls; T comes back and sends its late orders; peer 1
//! (which had not voted) fixes the batch with them and reveals. Peer 0 loses its connection just
//! then (1's reveal never reaches it). T withholds its dice reveal; after the grace peer 1 votes
//! T out, which (with 0's vote) applies at 1 on the fixed batch. Peer 0 comes back and asks for
//! what it missed: 1's answer gives the position's orders, then its votes, then its dice (the
//! order `sync_groups` uses for a vote taken while the roll waited). Peer 0, still held, takes
//! 1's vote before 1's reveal. Before protocol version 9 it applied the drop before fixing: a
//! batch without T's orders, while 1 fixed one with them, and the two waited on each other.
//!
//! Then the hole the review of version 9 left: a voter that reloads between its vote and the
//! fixed batch, and votes again there (`a_voter_that_reloads_and_votes_again_...`).

use crate::common;

use common::economy::*;
use common::Net;
use orbis_protocol::wire::Envelope;
use orbis_protocol::{Body, Control, ProtocolEvent};

const T: usize = 2;

/// Plays to a position past `depth` where all are due, then T goes quiet; peers 0 and 1 commit
/// their orders (peer 0 only if `commit0`), and peer 0 votes T out.
fn setup(net: &mut Net, depth: u64, commit0: bool) -> (u64, Control) {
    let quiet: &[usize] = if commit0 { &[] } else { &[0] };
    let (at, drop) = target_silent(net, 3, depth, T, false, quiet);
    let o = net.peers[0].vote(drop).expect("vote");
    net.process(0, o);
    (at, drop)
}

/// It failed before protocol version 9 (issue 30): a vote said nothing of whether its voter had
/// fixed the batch. Now peer 1's vote names the batch it fixed (`Vote::fixed`): peer 0 does not
/// apply it before fixing that batch, and fixes it (it is the one peer 0 fixes without its vote).
#[test]
fn a_held_voter_that_missed_the_deciders_reveal_does_not_split_from_it() {
    let mut failures = vec![];
    for seed in [21u64, 22, 23, 24] {
        let mut net = economy_net(3, &[], seed, 3);
        let (at, drop) = setup(&mut net, 6, true);
        // T withholds its dice reveal for `at` (it sends everything else).
        net.tamper = Some((
            T,
            Box::new(move |_, _, _, bytes| {
                if matches!(body(&bytes), Some(Body::Reveal { index, .. }) if index == at) {
                    return vec![];
                }
                vec![bytes]
            }),
        ));
        net.online[T] = true;
        submit_as_bot(&mut net, T);
        // Until peer 1 has every reveal of orders (it fixes the batch at once).
        let revealed = |n: &Net| {
            n.events[1].iter().any(
                |e| matches!(e, ProtocolEvent::OrdersRevealed { round, .. } if u64::from(*round) == at),
            )
        };
        assert!(net.run_until(net.now + 10_000, revealed), "seed {seed}");
        // Peer 0's connection drops now (peer 1's reveal, on its way, is lost); T goes quiet.
        net.online[0] = false;
        net.online[T] = false;
        let key0 = net.peers[0].key();
        let key_t = net.peers[T].key();
        let w = net.peers[1].waiting_on();
        assert!(
            w.contains(&key0) && w.contains(&key_t),
            "seed {seed}: peer 1 waits on the dice of 0 and T: {w:?}"
        );
        // Past the dice grace, peer 1's page votes T (withholding its reveal) out.
        net.run_until(net.now + 2_000, |_| false);
        let o = net.peers[1].vote(drop).expect("1 votes");
        net.process(1, o);
        net.run_until(net.now + 500, |_| false);
        let applied = |i: usize, n: &Net| {
            n.events[i].iter().any(
                |e| matches!(e, ProtocolEvent::ControlApplied { at: a, control } if *a == at && *control == drop),
            )
        };
        assert!(applied(1, &net), "seed {seed}: the drop applies at peer 1");
        // Peer 0 comes back.
        net.online[0] = true;
        net.run_until(net.now + 10_000, |_| false);
        let lens: Vec<u64> = (0..2).map(|i| net.peers[i].log_len()).collect();
        let halted: Vec<_> = (0..2).map(|i| net.peers[i].halted().cloned()).collect();
        let waits: Vec<_> = (0..2).map(|i| net.peers[i].waiting_on()).collect();
        let heads: Vec<_> = (0..2).map(|i| net.peers[i].head_at(at + 1)).collect();
        let ok = halted.iter().all(Option::is_none)
            && lens.iter().all(|&l| l > at)
            && heads[0] == heads[1];
        if !ok {
            failures.push(format!(
                "seed {seed}: applied at 0: {}, logs {lens:?}, heads at {}: {:?}, \
                 halted {halted:?}, waiting on {waits:?} (0 is {key0:?}, 1 is {:?})",
                applied(0, &net),
                at + 1,
                heads,
                net.peers[1].key()
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Peer 1's messages to peer 0 without peer 0's own votes (also inside a resend's batch, whose
/// items are sent one by one): after its reload, peer 0 gets its history back but not its vote.
fn keep_own_votes_from(p0: orbis_protocol::PeerKey) -> common::Tamper {
    let own_vote = move |m: &[u8]| matches!(Envelope::open_where(m, |_| true), Ok((env, Body::Vote { .. })) if env.sender == p0);
    Box::new(move |_, _, to, bytes| {
        if to != 0 {
            return vec![bytes];
        }
        match body(&bytes) {
            Some(Body::Batch { items }) if items.iter().any(|m| own_vote(m)) => {
                items.into_iter().filter(|m| !own_vote(m)).collect()
            }
            _ if own_vote(&bytes) => vec![],
            _ => vec![bytes],
        }
    })
}

/// Issue 30, left by the review of version 9: peer 0 votes T out before the batch is fixed
/// (its vote names no batch), its page reloads, and it fixes the batch before any resend gives
/// its vote back. Clicking "vote out" again there signed a vote naming the batch: two versions
/// of one vote, which peer 1 (holding the first) took as proof of equivocation and halted on,
/// naming honest peer 0, once its own vote completed the drop. Now the memento carries our open
/// votes: they are back in the vote table when the game restarts, and a vote signed again names
/// what the first named.
#[test]
fn a_voter_that_reloads_and_votes_again_at_the_fixed_batch_is_not_named() {
    let mut failures = vec![];
    for seed in [21u64, 22, 23, 24] {
        let mut net = economy_net(3, &[], seed, 3);
        // Peer 0 votes before it commits (its page is slow to plan): its reload loses no plan.
        let (at, drop) = setup(&mut net, 6, false);
        net.autoplay[0] = true;
        net.run_until(net.now + 500, |_| false);
        let mem = net.peers[0].memento();
        assert!(
            mem.iter()
                .any(|m| matches!(body(m), Some(Body::Vote { .. }))),
            "seed {seed}: the memento carries peer 0's open vote"
        );
        // Peer 0's page reloads; peer 1's resends leave out peer 0's vote; T withholds its dice.
        let p0 = net.peers[0].key();
        net.tamper_also = Some((1, keep_own_votes_from(p0)));
        net.tamper = Some((
            T,
            Box::new(move |_, _, _, bytes| {
                let keep = |m: &[u8]| match Envelope::open_where(m, |_| true) {
                    Ok((_, Body::Reveal { index, .. })) => index != at,
                    Ok((env, Body::Vote { .. })) => env.sender != p0,
                    _ => true,
                };
                match body(&bytes) {
                    Some(Body::Batch { items }) if !items.iter().all(|m| keep(m)) => {
                        items.into_iter().filter(|m| keep(m)).collect()
                    }
                    _ if keep(&bytes) => vec![bytes],
                    _ => vec![],
                }
            }),
        ));
        net.reload(0, mem);
        net.online[T] = true;
        submit_as_bot(&mut net, T);
        let fixed_at = |i: usize, n: &Net| {
            n.events[i].iter().any(
                |e| matches!(e, ProtocolEvent::OrdersRevealed { round, .. } if u64::from(*round) == at),
            )
        };
        let both = |n: &Net| fixed_at(0, n) && fixed_at(1, n);
        // Peer 0's reloaded page plays its part again (the same orders under the same salt).
        let until = net.now + 10_000;
        let done = drive(&mut net, until, |_, _| false, both);
        assert!(
            done,
            "seed {seed}: 0 and 1 fix the batch: {} {}, logs {} {} {} (at {at}), waiting {:?} {:?}, halted {:?}",
            fixed_at(0, &net),
            fixed_at(1, &net),
            net.peers[0].log_len(),
            net.peers[1].log_len(),
            net.peers[T].log_len(),
            net.peers[0].waiting_on(),
            net.peers[1].waiting_on(),
            net.peers[0].halted(),
        );
        // Past the dice grace, both pages vote T (withholding its reveal) out.
        net.run_until(net.now + 2_000, |_| false);
        assert_eq!(
            (net.peers[0].log_len(), net.peers[1].log_len()),
            (at, at),
            "seed {seed}: the batch's roll waits on T's dice"
        );
        let o = net.peers[0].vote(drop).expect("0 votes again");
        let fixed: Vec<_> = o
            .send
            .iter()
            .filter_map(|(_, m)| match body(m) {
                Some(Body::Vote { fixed, .. }) => Some(fixed),
                _ => None,
            })
            .collect();
        net.process(0, o);
        let o = net.peers[1].vote(drop).expect("1 votes");
        net.process(1, o);
        net.run_until(net.now + 5_000, |_| false);
        let halted: Vec<_> = (0..2).map(|i| net.peers[i].halted().cloned()).collect();
        let heads: Vec<_> = (0..2).map(|i| net.peers[i].head_at(at + 1)).collect();
        let lens: Vec<u64> = (0..2).map(|i| net.peers[i].log_len()).collect();
        // Its remembered vote is back in its table (nothing new to sign), or signed again
        // naming no batch, as the first.
        let ok = fixed.iter().all(Option::is_none)
            && halted.iter().all(Option::is_none)
            && lens.iter().all(|&l| l > at)
            && heads[0] == heads[1];
        if !ok {
            failures.push(format!(
                "seed {seed}: peer 0's new vote named {fixed:?}, halted {halted:?}, \
                 logs {lens:?}, heads at {}: {heads:?}",
                at + 1
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
