//! Computer moves thought by the caller (issue 62: a page thinks them in its Web Worker): a peer
//! that waits for each computer move and gets it a while later plays the very game the peers
//! that think them at once play, in every ruleset.

use crate::common;

use common::economy::{drive, economy_net};
use common::{Net, NetParams};
use orbis_engine::classic::BotLevel;
use orbis_engine::rules::orders::OrdersOptions;
use orbis_engine::rules::Game;
use orbis_protocol::wire::{OrdersPayload, OrdersSetup};
use orbis_protocol::{Controller, ProtocolEvent};

/// Peer `i`'s page: the moves it waits for, thought "in its worker" and handed back (after the
/// network ran on for a while meanwhile). Returns how many.
fn answer(net: &mut Net, i: usize) -> usize {
    let wanted = net.peers[i].thoughts_wanted();
    for t in &wanted {
        let out = net.peers[i].thought(t, t.think(), net.now);
        net.process(i, out);
    }
    wanted.len()
}

fn complaints(net: &Net) {
    for i in 0..net.peers.len() {
        let c: Vec<_> = net.events[i]
            .iter()
            .filter(|e| matches!(e, ProtocolEvent::Rejected { .. } | ProtocolEvent::Halted(_)))
            .collect();
        assert!(c.is_empty(), "peer {i}: {c:?}");
    }
}

#[test]
fn classic_computer_seats_thought_later_play_the_same_game() {
    let mut net = Net::new(3, 31, NetParams::perfect());
    net.peers[1].think_elsewhere();
    let p = net.proposal(2);
    net.start(p);
    let mut asked = 0;
    while net.peers[0].log_len() < 400 && !net.all_over(&[0, 1, 2]) {
        assert!(net.now < 5_000_000, "the game stalls");
        net.run_until(net.now + 40, |_| false);
        asked += answer(&mut net, 1);
    }
    assert!(asked > 10, "peer 1 thought {asked} computer moves");
    // The others play on while peer 1 thinks: the logs agree as far as all have come.
    let at = (0..3).map(|i| net.peers[i].log_len()).min().unwrap_or(0);
    assert!(at >= 300 || net.all_over(&[0, 1, 2]), "{at}");
    let h: Vec<_> = (0..3).map(|i| net.peers[i].head_at(at)).collect();
    assert!(h[0].is_some() && h.iter().all(|x| *x == h[0]), "{h:?}");
    complaints(&net);
}

#[test]
fn orders_computer_powers_thought_later_order_the_same() {
    let mut net = Net::new(2, 32, NetParams::perfect());
    for a in net.autoplay.iter_mut() {
        *a = false;
    }
    net.peers[0].think_elsewhere();
    let mut p = net.proposal(0);
    for (i, s) in p.seats.iter_mut().enumerate() {
        s.controller = Controller::Peer(i as u8);
    }
    // Five computer powers (normal and easy) beside the two peers' powers.
    while p.seats.len() < 7 {
        let mut s = p.seats[0].clone();
        s.name = format!("C{}", p.seats.len());
        s.controller = Controller::Bot(if p.seats.len().is_multiple_of(2) {
            BotLevel::Normal
        } else {
            BotLevel::Easy
        });
        p.seats.push(s);
    }
    p.orders = Some(OrdersSetup {
        map: "europe-1901".into(),
        options: OrdersOptions::default(),
        powers: vec![],
    });
    net.start(p);
    assert!(net.run_until(100_000, |n| n.peers.iter().all(|p| p.game().is_some())));
    let mut asked = 0;
    while net.peers[1].log_len() < 8 {
        assert!(net.now < 2_000_000, "the orders game stalls");
        for i in 0..2 {
            if let Some((round, _)) = net.peers[i].orders_due() {
                let mut salt = [i as u8; 32];
                salt[..4].copy_from_slice(&round.to_le_bytes());
                let o = net.peers[i]
                    .submit_orders(OrdersPayload::default(), salt)
                    .expect("holds");
                net.process(i, o);
            }
        }
        net.run_until(net.now + 40, |_| false);
        asked += answer(&mut net, 0);
    }
    net.run_until(net.now + 2_000, |_| false);
    answer(&mut net, 0);
    net.run_until(net.now + 2_000, |_| false);
    assert!(asked >= 5, "peer 0 thought {asked} powers' orders");
    assert_eq!(net.peers[0].log_len(), net.peers[1].log_len());
    assert_eq!(net.peers[0].state_hash(), net.peers[1].state_hash());
    let Some(Game::Orders(s)) = net.peers[0].game() else {
        panic!("an orders game");
    };
    assert!(s.year >= 1902, "{}", s.year);
    complaints(&net);
}

#[test]
fn economy_computer_seats_thought_later_play_the_same_game() {
    let mut net = economy_net(2, &[BotLevel::Easy, BotLevel::Normal], 33, 2);
    net.peers[1].think_elsewhere();
    let mut asked = 0;
    let over = |n: &Net| {
        (0..2).all(|i| {
            matches!(n.peers[i].game(), Some(Game::Economy(s))
                if s.phase == orbis_engine::rules::economy::phase::Phase::Over)
        })
    };
    while !over(&net) {
        assert!(net.now < 3_000_000, "the economy game stalls");
        let until = net.now + 30;
        drive(&mut net, until, |_, _| false, |_| false);
        asked += answer(&mut net, 1);
    }
    net.run_until(net.now + 2_000, |_| false);
    assert!(asked > 5, "peer 1 thought {asked} computer moves");
    assert_eq!(net.peers[0].state_hash(), net.peers[1].state_hash());
    complaints(&net);
}
