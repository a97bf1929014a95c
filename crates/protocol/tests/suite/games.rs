//! Each proposal gets its own seed shares and dice chains, and each game its own message id
//! (security review finding 2): a second game in a room reuses no secret and accepts no message
//! of the first; a withheld seed reveal is named, and a new proposal starts over with fresh
//! commitments that the withholder's late reveal cannot undo.

use crate::common;

use common::{Net, NetParams};
use orbis_protocol::{Body, Envelope, Peer, ProtocolEvent};
use std::cell::RefCell;
use std::rc::Rc;

/// Records everything `who` sends (and lets it through).
fn record(net: &mut Net, who: usize) -> Rc<RefCell<Vec<Vec<u8>>>> {
    let log = Rc::new(RefCell::new(vec![]));
    let l = log.clone();
    net.tamper = Some((
        who,
        Box::new(move |_: &mut Peer, _, _, bytes: Vec<u8>| {
            l.borrow_mut().push(bytes.clone());
            vec![bytes]
        }),
    ));
    log
}

/// The (seed commitment, chain tip) of every accept among `raw` (each once).
fn accepts(raw: &[Vec<u8>]) -> Vec<([u8; 32], [u8; 32])> {
    raw.iter()
        .filter_map(|b| match Envelope::open_where(b, |_| true) {
            Ok((
                _,
                Body::Accept {
                    seed_commit,
                    chain_tip,
                    ..
                },
            )) => Some((seed_commit, chain_tip)),
            _ => None,
        })
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

#[test]
fn a_second_game_in_the_room_shares_no_secret_and_no_message() {
    // Game 1: three peers play 60 entries; everything peer 1 signs is kept.
    let mut one = Net::new(3, 11, NetParams::perfect());
    let sent = record(&mut one, 1);
    let p = one.proposal(0);
    one.start(p);
    assert!(one.run_until(10_000_000, |n| n.peers[0].log_len() >= 60));
    let old: Vec<Vec<u8>> = sent.borrow().clone();
    assert!(old.iter().any(|b| matches!(
        Envelope::open_where(b, |_| true),
        Ok((
            _,
            Body::Reveal { .. } | Body::Checkpoint { .. } | Body::Entry(_)
        ))
    )));

    // Game 2 in the same room by the same keys (a later session: higher message numbers).
    let mut two = Net::new(3, 11, NetParams::perfect());
    for c in &mut two.configs {
        c.seq_start = 1 << 40;
    }
    two.peers = two.configs.iter().cloned().map(Peer::new).collect();
    let sent2 = record(&mut two, 1);
    let mut p2 = two.proposal(0);
    p2.nonce = 2;
    two.start(p2);
    assert!(two.run_until(10_000_000, |n| n.peers[0].log_len() >= 10));
    // New seed share, new dice chain.
    let (a1, a2) = (accepts(&old), accepts(&sent2.borrow()));
    assert_eq!((a1.len(), a2.len()), (1, 1));
    assert_ne!(a1[0].0, a2[0].0, "seed commitment reused");
    assert_ne!(a1[0].1, a2[0].1, "dice chain reused");
    assert_ne!(one.peers[0].game_tag(), two.peers[0].game_tag());
    // Game 1's messages, replayed into game 2, are dropped without blaming peer 1.
    for b in &old {
        two.inject(1, 0, b.clone());
        two.inject(1, 2, b.clone());
    }
    let all = [0, 1, 2];
    assert!(
        two.run_until(60_000_000, |n| n.all_over(&all)),
        "game 2 did not finish"
    );
    for i in [0, 2] {
        assert!(
            two.complaints(i).is_empty(),
            "peer {i}: {:?}",
            two.complaints(i)
        );
        assert!(two.peers[i].other_games > 0);
    }
    let h = two.hashes(&all);
    assert!(h.iter().all(|x| x == &h[0]));
}

#[test]
fn a_withheld_seed_reveal_is_named_and_a_new_proposal_starts_over() {
    let mut net = Net::new(3, 12, NetParams::perfect());
    // Peer 2 accepts but keeps its seed reveal (it would see the others' first).
    let withheld = Rc::new(RefCell::new(vec![]));
    let w = withheld.clone();
    net.tamper = Some((
        2,
        Box::new(move |_: &mut Peer, _, _, bytes: Vec<u8>| {
            match Envelope::open_where(&bytes, |_| true) {
                Ok((_, Body::SeedReveal { .. })) => {
                    w.borrow_mut().push(bytes);
                    vec![]
                }
                // Nor does it answer requests for the transcript (which holds the reveal).
                Ok((_, Body::Batch { .. })) => vec![],
                _ => vec![bytes],
            }
        }),
    ));
    let p1 = net.proposal(0);
    net.start(p1);
    let withholder = net.peers[2].key();
    let named = |n: &Net, i: usize| {
        n.events[i].iter().any(|e| {
            matches!(e, ProtocolEvent::RevealWithheld { withholders, .. } if withholders == &vec![withholder])
        })
    };
    assert!(net.run_until(60_000, |n| named(n, 0) && named(n, 1)));
    assert!(net.peers[0].state().is_none());
    assert!(!withheld.borrow().is_empty());

    // Peers 0 and 1 move on to a new proposal while peer 2 is away.
    net.tamper = None;
    net.online[2] = false;
    let mut p2 = net.proposal(0);
    p2.nonce = 2;
    let second = p2.hash();
    let out = net.peers[0].propose_setup(p2).expect("valid");
    net.process(0, out);
    net.run_until(net.now + 2_000, |_| false);
    // The late reveal would complete the first proposal: nobody who moved on starts it.
    for b in withheld.borrow().iter() {
        let (o0, o1) = (
            net.peers[0].handle(2, b, net.now),
            net.peers[1].handle(2, b, net.now),
        );
        net.process(0, o0);
        net.process(1, o1);
    }
    net.run_until(net.now + 2_000, |_| false);
    assert!(net.peers[0].state().is_none() && net.peers[1].state().is_none());
    // Peer 2 comes back and accepts the new proposal: the game starts, the same for all.
    net.online[2] = true;
    assert!(net.run_until(net.now + 60_000, |n| n.all_started()));
    let all = [0, 1, 2];
    assert!(
        net.run_until(60_000_000, |n| n.all_over(&all)),
        "the game did not finish"
    );
    let h = net.hashes(&[0, 1, 2]);
    assert!(h.iter().all(|x| x == &h[0]));
    // Peer 2 had started the first proposal alone; it dropped it for the second.
    assert!(net.events[2]
        .iter()
        .any(|e| matches!(e, ProtocolEvent::GameAbandoned { .. })));
    for i in 0..3 {
        let last = net.events[i].iter().rev().find_map(|e| match e {
            ProtocolEvent::GameStarted { proposal, .. } => Some(*proposal),
            _ => None,
        });
        assert_eq!(last, Some(second));
        assert!(
            net.complaints(i).is_empty(),
            "peer {i}: {:?}",
            net.complaints(i)
        );
    }
}
