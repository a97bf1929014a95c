//! Whole games of the orders and economy rulesets among simulated peers, played to their end
//! (or to a halt), for what `orbis verify` says of how they ended (issue 64): shared by
//! `tests/verdicts.rs` and `examples/transcript.rs`, which writes the CLI's transcript fixtures.

use super::economy::{drive, economy_net, state};
use super::{Net, NetParams};
use ed25519_dalek::SigningKey;
use orbis_engine::bot;
use orbis_engine::classic::BotLevel;
use orbis_engine::rules::economy::phase::Phase as EconomyPhase;
use orbis_engine::rules::orders::map::PowerId;
use orbis_engine::rules::orders::{OrdersState, Phase};
use orbis_engine::rules::Game;
use orbis_protocol::wire::{encode_economy, orders_commitment, OrdersPayload};
use orbis_protocol::{Body, Envelope, Peer, SetupProposal};

/// An orders game on `map` with one peer per seat (seat `i` plays the map's `i`-th power for
/// `n` players), started.
pub fn orders_net(n: usize, seed: u64, map: &str) -> Net {
    let mut net = Net::new(n, seed, NetParams::perfect());
    for a in net.autoplay.iter_mut() {
        *a = false;
    }
    let p = SetupProposal::orders_game(
        map,
        n,
        net.keys(),
        |i| format!("S{i}"),
        BotLevel::Normal,
        None,
        64,
    );
    net.start(p);
    assert!(net.run_until(100_000, |n| n.peers.iter().all(|p| p.game().is_some())));
    net
}

fn orders_state(net: &Net, i: usize) -> &OrdersState {
    match net.peers[i].game() {
        Some(Game::Orders(s)) => s,
        _ => panic!("peer {i} has no orders game"),
    }
}

/// Whether every peer's orders game is over.
pub fn orders_over(net: &Net) -> bool {
    (0..net.peers.len()).all(|i| matches!(orders_state(net, i).phase, Phase::GameOver { .. }))
}

/// Plays the orders game until it is over or `phases` phases are resolved: each peer due
/// commits what `payload(peer, state, its powers)` gives.
pub fn play_orders(
    net: &mut Net,
    phases: u64,
    payload: impl Fn(usize, &OrdersState, &[PowerId]) -> OrdersPayload,
) {
    let limit = net.now + 50_000_000;
    while !orders_over(net) && net.peers[0].log_len() < phases {
        assert!(net.now < limit, "the orders game stalls");
        for i in 0..net.peers.len() {
            let Some((round, powers)) = net.peers[i].orders_due() else {
                continue;
            };
            let p = payload(i, orders_state(net, i), &powers);
            let mut salt = [i as u8 ^ 0x64; 32];
            salt[..4].copy_from_slice(&round.to_le_bytes());
            let o = net.peers[i].submit_orders(p, salt).expect("legal orders");
            net.process(i, o);
        }
        net.run_until(net.now + 50, |_| false);
    }
    // Every peer's last checkpoint in.
    net.run_until(net.now + 2_000, |_| false);
}

/// The computer's orders (hard) for `powers`.
pub fn computer_orders(s: &OrdersState, powers: &[PowerId], salt: usize) -> OrdersPayload {
    OrdersPayload::orders(
        powers
            .iter()
            .map(|&p| {
                let o = bot::orders::orders_for(s, p, BotLevel::Hard, &salt.to_le_bytes());
                (p, o)
            })
            .collect(),
    )
}

/// A two-power orders game on the world map that seat 0 wins outright: its power plays the
/// computer's orders while seat 1's holds.
pub fn orders_solo(seed: u64) -> Net {
    let mut net = orders_net(2, seed, "world");
    play_orders(&mut net, u64::MAX, |i, s, powers| match i {
        0 => computer_orders(s, powers, i),
        _ => OrdersPayload::default(),
    });
    assert!(
        (0..2).all(|i| matches!(
            orders_state(&net, i).phase,
            Phase::GameOver { winner: Some(_) }
        )),
        "seat 0 wins"
    );
    net
}

/// A three-power world game, played by the computer's orders for four phases, that every
/// power then accepts to draw.
pub fn orders_draw(seed: u64) -> Net {
    let mut net = orders_net(3, seed, "world");
    play_orders(&mut net, 4, |i, s, powers| computer_orders(s, powers, i));
    play_orders(&mut net, u64::MAX, |i, s, powers| {
        let mut p = computer_orders(s, powers, i);
        p.draw = powers.iter().map(|&p| (p, true)).collect();
        p
    });
    assert!(
        (0..3).all(|i| orders_state(&net, i).phase == Phase::GameOver { winner: None }),
        "drawn"
    );
    net
}

/// An economy game of three peers that the computer plays to its end: with a round limit of
/// `rounds` (a large one: to the last player standing).
pub fn economy_to_end(seed: u64, rounds: u32) -> Net {
    let mut net = economy_net(3, &[], seed, rounds);
    let over = |n: &Net| (0..3).all(|i| state(n, i).phase == EconomyPhase::Over);
    assert!(
        drive(&mut net, 50_000_000, |_, _| false, over),
        "the economy game ends"
    );
    net.run_until(net.now + 2_000, |_| false);
    net
}

/// The cheat of [`economy_halted`].
pub const ECONOMY_CHEAT: usize = 2;

/// An economy game of three peers halted in its second Get phase: participant
/// [`ECONOMY_CHEAT`] sends peer 0 another signed commitment (and reveal) for a round than peer
/// 1 gets, so both honest peers halt naming it. Returns the network and the round.
pub fn economy_halted(seed: u64) -> (Net, u32) {
    use orbis_engine::rules::economy::state::EconomyState;
    const VICTIM: usize = 0;
    let mut net = economy_net(3, &[], seed, 20);
    let cheat_due = |n: &Net| {
        state(n, 0).phase == EconomyPhase::Get
            && state(n, 0).round >= 2
            && n.peers[ECONOMY_CHEAT].economy_due().is_some()
            && (0..3).all(|j| n.peers[j].log_len() == n.peers[0].log_len())
    };
    let until = net.now + 2_000_000;
    let held = |i: usize, s: &EconomyState| {
        i == ECONOMY_CHEAT && s.phase == EconomyPhase::Get && s.round >= 2
    };
    assert!(drive(&mut net, until, held, cheat_due), "the cheat is due");
    let round = net.peers[0].log_len() as u32;
    let key = SigningKey::from_bytes(&net.configs[ECONOMY_CHEAT].identity_secret);
    let me = net.peers[ECONOMY_CHEAT].key();
    let other = encode_economy(&[]);
    let other_salt = [0xee; 32];
    net.tamper = Some((
        ECONOMY_CHEAT,
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
    let until = net.now + 200_000;
    let halted = |n: &Net| (0..2).all(|i| n.peers[i].halted().is_some());
    assert!(
        drive(&mut net, until, |_, _| false, halted),
        "both honest peers halt"
    );
    net.run_until(net.now + 2_000, |_| false);
    (net, round)
}
