//! A voter bound by its own open vote at an economy position whose batch rolls dice. Peer 0
//! votes T (peer 2, gone quiet) out at position `at`; peer 1 does not vote; T comes back, and
//! peer 1 resolves `at` with T's late orders. That batch rolls dice, so peer 1 shows no head
//! past `at` (no checkpoint, no `Sync` head) until every contributor's reveal is in, peer 0's
//! included, and peer 0, held by its vote, never fixed the batch that reveal is for: each
//! waited on the other until a person voted peer 0 (honest) out. Peer 1's reveal, signed for
//! the batch it fixed, is the batch peer 0 fixes without its vote: it shows the vote failed,
//! and peer 0 now goes on with the others.

use crate::common;

use common::economy::*;
use common::Net;
use orbis_protocol::{Body, Control, ProtocolEvent};
use std::cell::Cell;
use std::rc::Rc;

const T: usize = 2;

/// Drives to the first position past `depth` where all three peers are due with equal logs,
/// takes T off the network, lets 0 and 1 submit, and has peer 0 (only) vote T out. Returns
/// `at` and the vote.
fn setup(net: &mut Net, depth: u64) -> (u64, Control) {
    let (at, drop) = target_silent(net, 3, depth, T, false, &[]);
    let o = net.peers[0].vote(drop).expect("vote");
    net.process(0, o);
    (at, drop)
}

#[test]
fn a_bound_voter_is_let_go_by_a_reveal_for_the_batch_it_would_fix() {
    // Position 7 of these games is a combat step whose batch rolls (checked below).
    for seed in [21u64, 22, 23, 24] {
        let mut net = economy_net(3, &[], seed, 3);
        let (at, drop) = setup(&mut net, 6);
        let revealed = Rc::new(Cell::new(false));
        let seen = revealed.clone();
        net.tamper = Some((
            1,
            Box::new(move |_, _, _, bytes| {
                if matches!(body(&bytes), Some(Body::Reveal { index, .. }) if index == at) {
                    seen.set(true);
                }
                vec![bytes]
            }),
        ));
        net.online[T] = true;
        net.autoplay[T] = true;
        let until = net.now + 60_000;
        let past = |n: &Net| (0..3).all(|i| n.peers[i].log_len() > at + 2);
        let went_on = drive(&mut net, until, |_, _| false, past);
        assert!(revealed.get(), "seed {seed}: the batch at {at} rolls dice");
        assert!(
            went_on,
            "seed {seed}: logs {:?}, peer 1 waits on {:?} (peer 0 is {:?})",
            (0..3).map(|i| net.peers[i].log_len()).collect::<Vec<_>>(),
            net.peers[1].waiting_on(),
            net.peers[0].key()
        );
        not_halted(&net, &[0, 1, 2]);
        let common = (0..3).map(|i| net.peers[i].log_len()).min().unwrap();
        let heads: Vec<_> = (0..3).map(|i| net.peers[i].head_at(common)).collect();
        assert!(
            heads.iter().all(|h| *h == heads[0]),
            "seed {seed}: {heads:?}"
        );
        for i in 0..3 {
            let applied = net.events[i]
                .iter()
                .any(|e| matches!(e, ProtocolEvent::ControlApplied { .. }));
            assert!(
                !applied,
                "seed {seed}: peer {i} applied a vote ({drop:?} failed)"
            );
        }
    }
}
