//! Issue 59: `SeatToBot` of a player the game is not waiting on. A lone opponent held a step of
//! its own in an economy game (only it was awaited) past the other player's grace, counted from
//! the start of that step, and voted the other seat to the computer: the victim applied it, its
//! face-down cards were dealt face up, and it could never take the seat back. The same vote in a
//! classic game of two humans dealt face down got around "whoever leaves ends it".
//!
//! The rule every peer applies now: a seat is handed over only at a position where its own part
//! is due (`Run::seat_due_here`), past the grace counted from when it became due; a player a step
//! asks nothing of is never awaited; a completed vote about our seat where its part is not due
//! is proof, and we halt naming the voters; and with two contributors nobody is a voter for
//! `SeatToBot` (a lone opponent may drop the other player, which ends a face-down game, never
//! hand its seat to the computer).

use crate::common;

use common::economy::{drive, economy_net_face_down, state};
use common::{signed_vote, Net, NetParams};
use orbis_engine::classic::{BotLevel, ClassicOptions, Colour};
use orbis_protocol::wire::{OrdersPayload, OrdersSetup};
use orbis_protocol::{
    Control, Controller, HaltReport, ProtocolEvent, SeatSpec, SetupProposal, Violation,
};
use std::collections::BTreeSet;

const A: usize = 0;
const B: usize = 1;
const C: usize = 2;

fn seat_to_bot(seat: usize) -> Control {
    Control::SeatToBot {
        seat: seat as u8,
        level: BotLevel::Normal,
    }
}

fn applied_controls(net: &Net, i: usize) -> Vec<Control> {
    net.events[i]
        .iter()
        .filter_map(|e| match e {
            ProtocolEvent::ControlApplied { control, .. } => Some(*control),
            _ => None,
        })
        .collect()
}

/// `i` refused a vote signed by `by` as a non-voter's.
fn refused_as_not_a_voter(net: &Net, i: usize, by: usize) -> bool {
    let k = net.peers[by].key();
    net.events[i].iter().any(|e| {
        matches!(e, ProtocolEvent::Rejected { peer: Some(p), violation: Violation::NotAVoter, .. }
            if *p == k)
    })
}

/// Economy: the attacker (seat 1, which in these games has steps of its own: its battles'
/// choices) and the victim (seat 0).
const ATT: usize = 1;
const VIC: usize = 0;

/// Plays an economy game dealt face down until a position where the attacker's seat is awaited
/// and the victim's is not (every peer at it), then the attacker stops playing and waits past
/// the victim's grace (2 s here) counted from the start of that position. Returns the position.
fn a_step_of_as_own(net: &mut Net, n: usize) -> u64 {
    const A: usize = ATT;
    const B: usize = VIC;
    let only_a = |x: &Net| {
        (0..n).all(|j| x.peers[j].log_len() == x.peers[0].log_len())
            && x.peers[A].economy_due().is_some()
            && x.peers[B].economy_due().is_none()
            && x.peers[0].log_len() > 3
    };
    let until = net.now + 4_000_000;
    assert!(
        drive(net, until, |_, _| false, only_a),
        "a step only A plays"
    );
    net.autoplay[A] = false;
    let at = net.peers[B].log_len();
    let until = net.now + 2_500;
    drive(net, until, |_, _| false, |_| false);
    assert_eq!(net.peers[B].log_len(), at, "A holds the step");
    assert_eq!(net.peers[B].waiting_on(), vec![net.peers[A].key()]);
    at
}

/// The reported attack: two players, economy dealt face down, A holds a step only it plays and
/// votes B's seat to the computer. Before the fix B applied it (its grace ran from the start of
/// A's step) and its cards were dealt face up to A.
#[test]
fn a_lone_opponent_holding_its_own_step_cannot_hand_the_other_seat_to_the_computer() {
    const A: usize = ATT;
    const B: usize = VIC;
    let mut net = economy_net_face_down(2, &[], 591, 12);
    let at = a_step_of_as_own(&mut net, 2);
    let sealed = state(&net, A).players[B].sealed.clone();
    // An honest page does not offer it: with two players nobody is a voter for it.
    assert!(!net.peers[A].can_vote(&seat_to_bot(B)));
    assert!(net.peers[A].vote(seat_to_bot(B)).is_err());
    let vote = signed_vote(&net, A, B, at, seat_to_bot(B));
    net.inject(A, B, vote);
    net.run_until(net.now + 500, |_| false);
    assert!(
        applied_controls(&net, B).is_empty(),
        "B handed its seat over"
    );
    assert!(refused_as_not_a_voter(&net, B, A), "B names A's vote");
    assert!(net.peers[B].halted().is_none());
    // A reads none of B's cards, and once A plays on the game goes on.
    assert!(sealed.iter().all(|s| net.peers[A].read(*s).is_none()));
    net.autoplay[A] = true;
    let until = net.now + 200_000;
    drive(
        &mut net,
        until,
        |_, _| false,
        |n| n.peers[B].log_len() > at + 3,
    );
    assert!(net.peers[B].log_len() > at + 3, "the game goes on");
    assert!(net.peers[B].halted().is_none() && net.peers[A].halted().is_none());
}

/// Second angle: two colluding voters of three (the votes an honest page would need), at a
/// step only A plays. B's part is not due there at any moment, so the completed vote is proof:
/// B halts naming both voters and keeps its seat. Before the fix B applied it.
#[test]
fn colluding_voters_cannot_hand_over_a_seat_whose_part_is_not_due() {
    const A: usize = ATT;
    const B: usize = VIC;
    let mut net = economy_net_face_down(3, &[], 592, 12);
    let at = a_step_of_as_own(&mut net, 3);
    assert!(!net.peers[C].can_vote(&seat_to_bot(B)), "not offered");
    for from in [A, C] {
        let vote = signed_vote(&net, from, B, at, seat_to_bot(B));
        net.inject(from, B, vote);
    }
    net.run_until(net.now + 500, |_| false);
    assert!(
        applied_controls(&net, B).is_empty(),
        "B handed its seat over"
    );
    let named: Option<BTreeSet<_>> = match net.peers[B].halted() {
        Some(HaltReport::VotedOutWhilePlaying { voters, .. }) => {
            Some(voters.iter().copied().collect())
        }
        _ => None,
    };
    let both: BTreeSet<_> = [net.peers[A].key(), net.peers[C].key()].into();
    assert_eq!(named, Some(both), "{:?}", net.peers[B].halted());
}

/// The same two voters' `Drop` of B at that step never applies either (the game does not wait
/// on B there), and it halts no one: an honest page's drop vote cast a moment before the step
/// changed is not proof of anything.
#[test]
fn a_drop_where_the_target_owes_nothing_never_applies() {
    const A: usize = ATT;
    const B: usize = VIC;
    let mut net = economy_net_face_down(3, &[], 592, 12);
    let at = a_step_of_as_own(&mut net, 3);
    let drop = Control::Drop {
        peer: net.peers[B].key(),
        level: BotLevel::Normal,
    };
    for from in [A, C] {
        let vote = signed_vote(&net, from, B, at, drop);
        net.inject(from, B, vote);
    }
    net.run_until(net.now + 500, |_| false);
    assert!(applied_controls(&net, B).is_empty(), "B was dropped");
    assert!(net.peers[B].halted().is_none());
}

/// Classic, two humans dealt face down with missions: on B's own turn, past B's grace, A votes
/// B's seat to the computer instead of dropping B. Before the fix the seat went to the computer
/// and B's mission and cards were shown. Now nobody is a voter for it; A's drop vote ends the
/// game, as whoever leaves a face-down game of two ends it.
#[test]
fn in_a_classic_game_of_two_dealt_face_down_the_idle_seat_is_dropped_not_handed_over() {
    let mut net = Net::new(2, 594, NetParams::perfect());
    let mut p = net.proposal(0);
    p.face_down = true;
    p.options = ClassicOptions {
        missions: true,
        ..ClassicOptions::default()
    };
    net.start(p);
    assert!(net.run_until(10_000_000, |n| n.peers[A].log_len() >= 30));
    net.autoplay[B] = false;
    assert!(net.run_until(net.now + 600_000, |n| n.peers[B].is_my_turn()
        && n.peers[A].log_len() == n.peers[B].log_len()));
    net.run_until(net.now + 2_500, |_| false);
    let at = net.peers[B].log_len();
    assert_eq!(net.peers[A].waiting_on(), vec![net.peers[B].key()]);
    assert!(!net.peers[A].can_vote(&seat_to_bot(B)));
    let vote = signed_vote(&net, A, B, at, seat_to_bot(B));
    net.inject(A, B, vote);
    net.run_until(net.now + 500, |_| false);
    assert!(
        applied_controls(&net, B).is_empty(),
        "B's seat went to the computer"
    );
    assert!(refused_as_not_a_voter(&net, B, A));
    assert!(net.peers[B].halted().is_none() && net.peers[B].ended().is_none());
    // What an honest page offers instead: the drop, which ends the game (B is idle past its
    // grace, so B applies it too).
    let drop = Control::Drop {
        peer: net.peers[B].key(),
        level: BotLevel::Normal,
    };
    let o = net.peers[A].vote(drop).expect("the drop is offered");
    net.process(A, o);
    let b = net.peers[B].key();
    assert!(net.run_until(net.now + 5_000, |n| (0..2)
        .all(|i| n.peers[i].ended().map(|e| e.1) == Some(b))));
}

/// Orders, two players and five computer powers: the lone opponent's `SeatToBot` is refused
/// there too.
#[test]
fn in_an_orders_game_of_two_the_lone_opponent_cannot_hand_the_other_power_over() {
    let mut net = Net::new(2, 595, NetParams::perfect());
    net.autoplay = vec![false, false];
    let seats = (0..7)
        .map(|i| SeatSpec {
            name: format!("S{i}"),
            colour: Colour::ALL[i % Colour::ALL.len()],
            controller: if i < 2 {
                Controller::Peer(i as u8)
            } else {
                Controller::Bot(BotLevel::Normal)
            },
        })
        .collect();
    let p = SetupProposal {
        participants: net.keys(),
        seats,
        options: ClassicOptions::default(),
        orders: Some(OrdersSetup {
            map: "europe-1901".into(),
            options: Default::default(),
            powers: vec![],
        }),
        face_down: false,
        stand_in: true,
        economy: None,
        nonce: 7,
        clock: None,
    };
    net.start(p);
    assert!(net.run_until(100_000, |n| n.peers.iter().all(|p| p.game().is_some())));
    // B is idle past its grace: still, only a drop is offered.
    net.run_until(net.now + 2_500, |_| false);
    assert!(!net.peers[A].can_vote(&seat_to_bot(B)));
    let at = net.peers[B].log_len();
    let vote = signed_vote(&net, A, B, at, seat_to_bot(B));
    net.inject(A, B, vote);
    net.run_until(net.now + 500, |_| false);
    assert!(applied_controls(&net, B).is_empty());
    assert!(refused_as_not_a_voter(&net, B, A));
    let o = net.peers[B]
        .submit_orders(OrdersPayload::default(), [2; 32])
        .expect("B still orders its power");
    net.process(B, o);
}
