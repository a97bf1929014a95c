//! A peer that drops out mid-game and comes back with its stored keys catches up.

use crate::common;

use common::{Net, NetParams};
use orbis_protocol::{Peer, ProtocolEvent};

fn drop_and_rejoin(seed: u64, params: NetParams, away_ms: u64) {
    drop_and_rejoin_at(seed, params, away_ms, 120);
}

fn drop_and_rejoin_at(seed: u64, params: NetParams, away_ms: u64, at: u64) {
    drop_and_rejoin_with(seed, params, away_ms, at, None);
}

fn drop_and_rejoin_with(seed: u64, params: NetParams, away_ms: u64, at: u64, chain: Option<u32>) {
    let mut net = Net::new(3, seed, params);
    if let Some(len) = chain {
        for c in &mut net.configs {
            c.chain_len = len;
        }
        net.peers = net.configs.iter().cloned().map(Peer::new).collect();
    }
    let p = net.proposal(1);
    net.start(p);
    assert!(net.run_until(10_000_000, |n| n.peers[0].log_len() >= at));
    let gone = net.peers[2].key();
    // Peer 2's tab is closed: everything it had in memory is lost.
    net.online[2] = false;
    let at_drop = net.peers[0].log_len();
    net.run_until(net.now + away_ms, |_| false);
    // The game pauses on the missing peer and says so.
    assert!(
        net.peers[0].log_len() < at_drop + 400,
        "the game should pause without peer 2"
    );
    assert!(net.peers[0].waiting_on().contains(&gone));
    for i in [0, 1] {
        assert!(net.events[i].contains(&ProtocolEvent::PeerMissing { peer: gone }));
    }
    // It reloads with the same keys and secrets and a higher message counter.
    net.reload(2, vec![]);
    let all = [0, 1, 2];
    assert!(
        net.run_until(net.now + 50_000_000, |n| n.all_over(&all)),
        "game did not finish"
    );
    let h = net.hashes(&all);
    assert!(h[0].is_some() && h[0] == h[1] && h[1] == h[2], "{h:?}");
    assert_eq!(net.peers[2].log_head(), net.peers[0].log_head());
    for i in all {
        assert!(
            net.complaints(i).is_empty(),
            "peer {i}: {:?}",
            net.complaints(i)
        );
    }
    assert!(net.events[0].contains(&ProtocolEvent::PeerReturned { peer: gone }));
}

#[test]
fn rejoin_on_a_perfect_network() {
    drop_and_rejoin(41, NetParams::perfect(), 10_000);
}

#[test]
fn rejoin_on_a_lossy_network() {
    drop_and_rejoin(
        42,
        NetParams {
            max_delay: 60,
            drop_pct: 10,
            dup_pct: 10,
        },
        8_000,
    );
}

/// The reloaded peer replays chain renewals (its own included) and keeps rolling on its later
/// chains.
#[test]
fn rejoin_with_short_dice_chains() {
    drop_and_rejoin_with(
        43,
        NetParams {
            max_delay: 30,
            drop_pct: 5,
            dup_pct: 5,
        },
        6_000,
        150,
        Some(7),
    );
}

mod schedules {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: common::cases(3, 6), failure_persistence: None, rng_seed: proptest::test_runner::RngSeed::Fixed(0x0b15), ..ProptestConfig::default() })]
        #[test]
        fn rejoin_at_any_point(
            seed in any::<u64>(),
            at in 1u64..250,
            away_ms in 4_000u64..20_000,
            max_delay in 1u64..80,
            drop_pct in 0u32..15,
            dup_pct in 0u32..15,
        ) {
            drop_and_rejoin_at(seed, NetParams { max_delay, drop_pct, dup_pct }, away_ms, at);
        }
    }
}
