//! Whole classic games over the simulated network.

use crate::common;

use common::{Net, NetParams};
use std::time::Instant;

/// Plays one game and checks every peer ends in the same state with the same winner.
fn full_game(n: usize, bots: usize, seed: u64, params: NetParams) -> Net {
    let mut net = Net::new(n, seed, params);
    let p = net.proposal(bots);
    net.start(p);
    let all: Vec<usize> = (0..n).collect();
    let finished = net.run_until(50_000_000, |net| net.all_over(&all));
    for i in 0..n {
        assert!(
            net.complaints(i).is_empty(),
            "peer {i}: {:?}",
            net.complaints(i)
        );
    }
    assert!(
        finished,
        "game did not finish; log lengths {:?}",
        net.peers.iter().map(|p| p.log_len()).collect::<Vec<_>>()
    );
    let hashes = net.hashes(&all);
    assert!(
        hashes.iter().all(|h| h.is_some() && *h == hashes[0]),
        "{hashes:?}"
    );
    let winners: Vec<_> = net
        .peers
        .iter()
        .map(|p| p.state().and_then(|s| s.winner()))
        .collect();
    assert!(
        winners.iter().all(|w| w.is_some() && *w == winners[0]),
        "{winners:?}"
    );
    net
}

/// Dice chains of 5 rolls: every peer moves on to a new chain every 5 rolls (announced in its
/// reveals), across drops and duplicates.
#[test]
fn short_dice_chains_are_renewed_without_end() {
    let mut net = Net::new(
        3,
        3,
        NetParams {
            max_delay: 30,
            drop_pct: 10,
            dup_pct: 10,
        },
    );
    for c in &mut net.configs {
        c.chain_len = 5;
    }
    net.peers = net
        .configs
        .iter()
        .cloned()
        .map(orbis_protocol::Peer::new)
        .collect();
    let p = net.proposal(1);
    net.start(p);
    let all = [0, 1, 2];
    assert!(net.run_until(50_000_000, |n| n.all_over(&all)));
    for i in all {
        assert!(
            net.complaints(i).is_empty(),
            "peer {i}: {:?}",
            net.complaints(i)
        );
    }
    let h = net.hashes(&all);
    assert!(h[0].is_some() && h[0] == h[1] && h[1] == h[2], "{h:?}");
}

#[test]
fn three_peers_perfect_network() {
    let t = Instant::now();
    let net = full_game(3, 0, 1, NetParams::perfect());
    eprintln!(
        "3 peers: {} log entries, {} deliveries, {} bytes, {} turns, {:?}",
        net.peers[0].log_len(),
        net.delivered,
        net.bytes_sent,
        net.peers[0].state().map_or(0, |s| s.turn),
        t.elapsed()
    );
}

#[test]
fn six_peers_lossy_network() {
    let t = Instant::now();
    let net = full_game(
        6,
        0,
        7,
        NetParams {
            max_delay: 80,
            drop_pct: 10,
            dup_pct: 10,
        },
    );
    eprintln!(
        "6 peers lossy: {} log entries, {} deliveries, {} dups dropped by peer 0, {:?}",
        net.peers[0].log_len(),
        net.delivered,
        net.peers[0].duplicates,
        t.elapsed()
    );
}

#[test]
fn peers_with_protocol_bots_lossy() {
    full_game(
        2,
        2,
        11,
        NetParams {
            max_delay: 50,
            drop_pct: 20,
            dup_pct: 20,
        },
    );
}

mod schedules {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        // Each case is a whole game; a handful of schedules keeps the debug run short while the
        // fixed tests above cover six peers.
        #![proptest_config(ProptestConfig { cases: common::cases(4, 10), failure_persistence: None, rng_seed: proptest::test_runner::RngSeed::Fixed(0x0b15), ..ProptestConfig::default() })]
        #[test]
        fn every_schedule_ends_in_the_same_state(
            n in 2usize..=4,
            bots in 0usize..=2,
            seed in any::<u64>(),
            max_delay in 1u64..120,
            drop_pct in 0u32..25,
            dup_pct in 0u32..25,
        ) {
            let bots = bots.min(6 - n);
            full_game(n, bots, seed, NetParams { max_delay, drop_pct, dup_pct });
        }
    }
}
