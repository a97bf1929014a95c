//! A voter bound to a position by its own open vote (`Peer::held_by_vote`): at an economy
//! position it is let go only by a head a voter that did not vote signed for a later position
//! (checkpoint or `Sync`) that is the position resolved without the vote (long-run economy seed
//! 5500343: a message that had overtaken a voter's vote let a peer go, and the game split).
//! These check that the stricter rule never holds an honest voter where the old one let it go.
//! Written by the independent review of that fix.
//!
//! Setup: 3 peers. Peer 0 (honest voter) votes T = peer 2 out at position `at`; peer 1 (honest)
//! does not vote; T comes back, and peer 1 resolves `at` with T's late orders. Peer 0 must be
//! let go by peer 1's checkpoint (or Sync) for `at + 1`.

use crate::common;

use common::economy::*;
use common::Net;
use orbis_engine::classic::BotLevel;
use orbis_protocol::wire::Envelope;
use orbis_protocol::{Body, Control, ProtocolEvent};
use std::cell::Cell;
use std::rc::Rc;

const T: usize = 2;

/// Drives to a position where all three peers are due with equal logs, takes T off the
/// network, lets 0 and 1 submit, and has peer 0 (only) vote T out. Returns `at`.
fn setup(net: &mut Net) -> u64 {
    let (at, drop) = target_silent(net, 3, 3, T, false, &[]);
    let o = net.peers[0].vote(drop).expect("vote");
    net.process(0, o);
    at
}

/// T comes back (and plays by itself); drives up to 20 s, until peer 0 is two positions past
/// `at`.
fn bring_back_and_drive(net: &mut Net, at: u64) {
    net.online[T] = true;
    net.autoplay[T] = true;
    let until = net.now + 20_000;
    drive(net, until, |_, _| false, |n| n.peers[0].log_len() > at + 2);
}

fn report(net: &Net, at: u64, what: &str) {
    eprintln!(
        "{what}: at={at} logs={:?} waiting_on(1)={:?} (peer0={:?}) halted={:?} applied_controls0={}",
        (0..3).map(|i| net.peers[i].log_len()).collect::<Vec<_>>(),
        net.peers[1]
            .waiting_on()
            .iter()
            .map(|k| k.short())
            .collect::<Vec<_>>(),
        net.peers[0].key().short(),
        (0..3).map(|i| net.peers[i].halted().is_some()).collect::<Vec<_>>(),
        net.events[0]
            .iter()
            .filter(|e| matches!(e, ProtocolEvent::ControlApplied { .. }))
            .count(),
    );
}

/// Control: nothing lost. Peer 0 is let go by peer 1's checkpoint and follows.
#[test]
fn a_voter_that_took_the_late_orders_lets_the_bound_voter_go() {
    for seed in [21u64, 22, 23] {
        let mut net = economy_net(3, &[], seed, 3);
        let at = setup(&mut net);
        bring_back_and_drive(&mut net, at);
        report(&net, at, &format!("control seed {seed}"));
        assert!(net.peers[0].log_len() > at, "peer 0 let go (seed {seed})");
    }
}

/// Peer 1's checkpoint for `at + 1` is lost on its way to peer 0 (only that one message): the
/// `Sync` peer 1 sends while it waits makes up for it. (It did not at first: `on_sync` advanced
/// only on a Sync that raised `reached`, which peer 1's commitment for the next round had
/// already done, and peer 0 stayed bound while peer 1 waited on it.)
#[test]
fn a_lost_checkpoint_is_made_up_by_the_voters_sync() {
    let mut stuck = 0;
    for seed in [21u64, 22, 23] {
        let mut net = economy_net(3, &[], seed, 3);
        let at = setup(&mut net);
        let dropped = Rc::new(Cell::new(0));
        let d = dropped.clone();
        net.tamper = Some((
            1,
            Box::new(move |_, _, to, bytes| {
                if to == 0 {
                    if let Some(Body::Checkpoint { index, .. }) = body(&bytes) {
                        if index == at + 1 {
                            d.set(d.get() + 1);
                            return vec![];
                        }
                    }
                }
                vec![bytes]
            }),
        ));
        bring_back_and_drive(&mut net, at);
        report(
            &net,
            at,
            &format!("lost checkpoint seed {seed} (dropped {})", dropped.get()),
        );
        if net.peers[0].log_len() == at {
            stuck += 1;
        }
    }
    assert_eq!(stuck, 0, "honest peer 0 stayed bound in {stuck} of 3 seeds");
}

/// The vote's target T (hostile) sends peer 0, instead of its reveal for `at`, a signed `Sync`
/// claiming `at + 1` with a junk head; its reveal goes to peer 1 only, and it withholds
/// everything of later rounds. Peer 0 forks at once (the Sync raised `reached`), without T's
/// reveal: the fork cannot resolve `at`, and its empty heads are cached for `PROBE_EVERY_MS`.
/// Peer 1's echo of T's reveal, its checkpoint for `at + 1` and its commitment for `at + 1`
/// land within that window and would be compared with the cached empty heads, and nothing later
/// would call `advance`: peer 1 would wait on peer 0, and peer 1 and T vote peer 0 out. A new
/// message now makes a new fork, and `tick` looks again while we hold an open vote.
#[test]
fn a_targets_sync_sent_in_place_of_its_reveal_holds_no_voter() {
    use ed25519_dalek::SigningKey;
    let mut stuck = 0;
    for seed in [21u64, 22, 23] {
        let mut net = economy_net(3, &[], seed, 3);
        let at = setup(&mut net);
        let key = SigningKey::from_bytes(&net.configs[T].identity_secret);
        let tag = net.peers[T].game_tag().expect("started");
        let mut done = false;
        net.tamper = Some((
            T,
            Box::new(move |_, _, to, bytes| {
                match body(&bytes) {
                    Some(Body::OrdersReveal { round, .. }) if u64::from(round) == at && to == 0 => {
                        if done {
                            return vec![];
                        }
                        done = true;
                        eprintln!("substituted Sync for T's reveal to peer 0");
                        let sync = Body::Sync {
                            started: true,
                            have_index: at + 1,
                            head: [7; 32],
                            deal: 0,
                            deal_digest: [0; 32],
                            unread: vec![],
                            withheld: vec![],
                        };
                        return vec![Envelope::seal(&key, tag, 1 << 45, &sync)];
                    }
                    // Hostile: nothing of later rounds.
                    Some(Body::OrdersCommit { round, .. } | Body::OrdersReveal { round, .. })
                        if u64::from(round) > at =>
                    {
                        return vec![];
                    }
                    _ => {}
                }
                vec![bytes]
            }),
        ));
        net.online[T] = true;
        net.autoplay[T] = true;
        let mut last = (0, 0, 0);
        for _ in 0..800 {
            let until = net.now + 25;
            drive(&mut net, until, |_, _| false, |_| false);
            let now = (
                net.peers[0].log_len(),
                net.peers[1].log_len(),
                net.peers[T].log_len(),
            );
            if now != last {
                eprintln!("t={} logs={now:?}", net.now);
                last = now;
            }
        }
        report(&net, at, &format!("poisoned cache seed {seed}"));
        if net.peers[0].log_len() == at {
            stuck += 1;
            // Peer 1's page votes the peer it waits on out; T seconds.
            let victim = net.peers[0].key();
            let c = Control::Drop {
                peer: victim,
                level: BotLevel::Normal,
            };
            for i in [1, T] {
                match net.peers[i].vote(c) {
                    Ok(o) => net.process(i, o),
                    Err(e) => eprintln!("peer {i} cannot vote: {e:?}"),
                }
            }
            let until = net.now + 5_000;
            drive(&mut net, until, |_, _| false, |_| false);
            report(&net, at, &format!("after the votes, seed {seed}"));
            eprintln!(
                "peer 0 left_out={} halted={:?}",
                net.peers[0].left_out(),
                net.peers[0].halted()
            );
        }
    }
    assert_eq!(stuck, 0, "honest peer 0 stayed bound in {stuck} of 3 seeds");
}

/// What a fork costs: `Peer::clone` of a peer late in a game (the probe clones it at most once
/// per `PROBE_EVERY_MS` while it is held and new messages come). A figure, not a test:
/// `cargo test --release -p orbis-protocol --test suite vote_binding -- --ignored --nocapture`.
#[test]
#[ignore]
fn clone_cost_late_in_a_game() {
    let mut net = economy_net(3, &[BotLevel::Normal], 11, 6);
    let until = net.now + 3_000_000;
    let _ = drive(
        &mut net,
        until,
        |_, _| false,
        |n| n.peers[0].log_len() > 400,
    );
    let p = &net.peers[0];
    let t = std::time::Instant::now();
    let mut n = 0;
    while t.elapsed().as_millis() < 500 {
        let c = p.clone();
        std::hint::black_box(&c);
        n += 1;
    }
    eprintln!(
        "log_len={} clones/500ms={} => {:.3} ms per clone; tables={:?}",
        p.log_len(),
        n,
        500.0 / n as f64,
        p.table_sizes()
    );
}
