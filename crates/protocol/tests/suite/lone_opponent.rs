//! Security review B7: a lone voter (a room of two, or any room once drops leave two
//! contributors) must not take the seat of a player who is there and prompt. Each test is one
//! way the attack went through before the fix: the target's grace counted from the position
//! rather than from when the game began waiting on it, a target whose part was in still counted
//! as awaited, the card-withholding vote never checked that anyone withheld, a position reached
//! through a resend gave no grace at all, and orders rounds had the same shape. In each, the
//! target now refuses the vote and halts naming the voter (`VotedOutWhilePlaying`): a lone
//! opponent can stop a game it could also just leave, never take the other seat.

use crate::common;

use common::{Net, NetParams};
use ed25519_dalek::SigningKey;
use orbis_engine::bot;
use orbis_engine::classic::{Action, BotLevel, ClassicOptions, Colour};
use orbis_protocol::wire::{OrdersPayload, OrdersSetup};
use orbis_protocol::{
    Body, Control, Controller, Envelope, HaltReport, Peer, ProtocolEvent, SeatSpec, SetupProposal,
};
use std::cell::Cell;
use std::rc::Rc;

const A: usize = 0;
const B: usize = 1;

/// Peer `from`'s vote for `control` at `at`, signed as its own page would, for `to`'s game.
fn signed_vote(net: &Net, from: usize, to: usize, at: u64, control: Control) -> Vec<u8> {
    let key = SigningKey::from_bytes(&net.configs[from].identity_secret);
    let tag = net.peers[to].game_tag().expect("started");
    Envelope::seal(
        &key,
        tag,
        (1 << 50) + at,
        &Body::Vote {
            at,
            control,
            fixed: None,
        },
    )
}

fn drop_b(net: &Net) -> Control {
    Control::Drop {
        peer: net.peers[B].key(),
        level: BotLevel::Easy,
    }
}

/// B kept its seat: it applied no control, and it halted naming A alone.
fn b_refused(net: &Net) {
    assert!(
        !net.events[B]
            .iter()
            .any(|e| matches!(e, ProtocolEvent::ControlApplied { .. })),
        "B handed its own seat over"
    );
    assert_eq!(net.peers[B].ended(), None);
    let named = matches!(
        net.peers[B].halted(),
        Some(HaltReport::VotedOutWhilePlaying { voters, .. }) if voters == &vec![net.peers[A].key()]
    );
    assert!(named, "B: {:?}", net.peers[B].halted());
}

/// A plays its turns with the bot (B plays by itself) until its next move is an attack, which
/// it returns unplayed.
fn up_to_an_attack(net: &mut Net) -> Action {
    net.autoplay[A] = false;
    for _ in 0..10_000 {
        assert!(net.run_until(net.now + 600_000, |n| n.peers[A].is_my_turn()));
        let s = net.peers[A].view().expect("started");
        let act = bot::choose(&s, BotLevel::Normal).expect("a move");
        if matches!(act, Action::Attack { .. } | Action::Blitz { .. }) {
            return act;
        }
        let o = net.peers[A].act(act).expect("legal");
        net.process(A, o);
    }
    panic!("A never attacks");
}

/// A thinks for `think_ms` on its turn, declares an attack, keeps its own dice reveal to itself
/// and, once B's is in, votes B out for a reveal B has already sent.
/// `players`: 2, or 3 of which the third leaves first and is voted out by A and B, so that A
/// is again B's lone voter.
fn hold_own_reveal(seed: u64, players: usize, think_ms: u64) {
    let mut net = Net::new(players, seed, NetParams::perfect());
    let p = net.proposal(0);
    net.start(p);
    assert!(net.run_until(10_000_000, |n| n.peers[A].log_len() >= 30));
    if players == 3 {
        let gone = net.peers[2].key();
        net.online[2] = false;
        assert!(net.run_until(net.now + 600_000, |n| [A, B]
            .iter()
            .all(|&i| n.peers[i].waiting_on() == vec![gone])));
        net.run_until(net.now + 4_000, |_| false);
        let c = Control::Drop {
            peer: gone,
            level: BotLevel::Easy,
        };
        for i in [A, B] {
            let o = net.peers[i].vote(c).expect("vote");
            net.process(i, o);
        }
        assert!(net.run_until(net.now + 60_000, |n| n.events[B]
            .iter()
            .any(|e| matches!(e, ProtocolEvent::ControlApplied { .. }))));
        net.events[B].clear();
    }
    let attack = up_to_an_attack(&mut net);
    net.run_until(net.now + think_ms, |_| false);
    let at = net.peers[A].log_len();
    net.tamper = Some((
        A,
        Box::new(|_: &mut Peer, _, _, bytes: Vec<u8>| {
            match Envelope::open_where(&bytes, |_| true) {
                Ok((_, Body::Reveal { .. })) => vec![],
                _ => vec![bytes],
            }
        }),
    ));
    let o = net.peers[A].act(attack).expect("legal");
    net.process(A, o);
    net.run_until(net.now + 100, |_| false);
    assert_eq!(
        net.peers[B].waiting_on(),
        vec![net.peers[A].key()],
        "B's reveal is in; the roll waits on A's"
    );
    let vote = signed_vote(&net, A, B, at, drop_b(&net));
    net.inject(A, B, vote);
    net.run_until(net.now + 300, |_| false);
    b_refused(&net);
}

/// Before the fix the grace for a reveal counted from the position (A's thinking time used it
/// up) and B, whose reveal was in, still counted as awaited.
#[test]
fn holding_its_own_reveal_does_not_let_a_lone_opponent_take_the_other_seat() {
    // Just past half of `missing_ms` (B's grace for a reveal).
    hold_own_reveal(72, 2, 1_600);
}

/// The same attack at another timing: however long A thinks, a reveal that is in is never
/// awaited.
#[test]
fn a_reveal_that_is_in_is_never_awaited_however_long_the_declarer_thought() {
    hold_own_reveal(74, 2, 20_000);
}

/// And in a room of three once the third player has been voted out: A is B's lone voter again.
#[test]
fn once_a_drop_leaves_two_the_lone_voter_cannot_take_the_other_seat_either() {
    hold_own_reveal(79, 3, 1_600);
}

/// A's last move of its turn reaches B only through a resend: before the fix B took the
/// position it reached that way as history and handed its seat over to the first vote, with no
/// grace at all. `vote_first`: A votes before B asked again, so the vote comes in the same
/// resend batch as the move.
fn reached_by_resend(seed: u64, vote_first: bool) {
    let mut net = Net::new(2, seed, NetParams::perfect());
    let p = net.proposal(0);
    net.start(p);
    // Past the setup (where a turn is one army placed).
    assert!(net.run_until(10_000_000, |n| n.peers[A].log_len() >= 200));
    // A's next turn, with B thinking over its own moves (well within its grace).
    net.autoplay[A] = false;
    assert!(net.run_until(net.now + 600_000, |n| n.peers[A].is_my_turn()));
    net.autoplay[A] = true;
    net.autoplay[B] = false;
    let held = Rc::new(Cell::new(false));
    let h = held.clone();
    net.tamper = Some((
        A,
        Box::new(move |_: &mut Peer, _, to, bytes: Vec<u8>| {
            if to == B && !h.get() {
                if let Ok((_, Body::Entry(e))) = Envelope::open_where(&bytes, |_| true) {
                    if matches!(e.action, Action::EndTurn | Action::Fortify { .. }) {
                        h.set(true);
                        return vec![];
                    }
                }
            }
            vec![bytes]
        }),
    ));
    assert!(net.run_until(net.now + 600_000, |_| held.get()));
    // B's turn, in A's view: B gets there only through a resend.
    let at = net.peers[A].log_len();
    if vote_first {
        let c = drop_b(&net);
        let o = net.peers[A].vote(c).expect("A's vote");
        net.process(A, o);
    }
    assert!(
        net.run_until(net.now + 600_000, |n| n.peers[B].log_len() >= at
            || n.peers[B].halted().is_some())
    );
    if !vote_first {
        assert!(net.peers[B].is_my_turn());
        let vote = signed_vote(&net, A, B, at, drop_b(&net));
        net.inject(A, B, vote);
    }
    net.run_until(net.now + 300, |_| false);
    b_refused(&net);
}

#[test]
fn a_position_reached_through_a_resend_gives_its_player_its_grace() {
    reached_by_resend(75, false);
}

#[test]
fn a_vote_that_comes_in_the_resend_with_the_move_does_not_take_the_seat() {
    reached_by_resend(76, true);
}

/// Face down with missions, every seat holds a card, so the vote that drops a participant who
/// withholds its shares applied on A's own turn: A waited out its own move's grace and voted B
/// out for withholding, though B withheld nothing (before A1 the seat went to a computer; since
/// A1 the game would end, blaming B for leaving).
#[test]
fn a_card_withholding_vote_against_a_player_who_withholds_nothing_is_refused() {
    let mut net = Net::new(2, 77, NetParams::perfect());
    let mut p = net.proposal(0);
    p.face_down = true;
    p.options = ClassicOptions {
        missions: true,
        ..ClassicOptions::default()
    };
    net.start(p);
    assert!(net.run_until(10_000_000, |n| n.peers[A].log_len() >= 30));
    net.autoplay[A] = false;
    assert!(net.run_until(net.now + 600_000, |n| n.peers[A].is_my_turn()));
    // Past A's own grace for a move (2 s here): from the position, B's "grace" is over too.
    net.run_until(net.now + 2_500, |_| false);
    assert_eq!(net.peers[B].waiting_on(), vec![net.peers[A].key()]);
    // An honest page does not cast this vote (it sees nobody withhold); A's signs it by hand.
    let c = drop_b(&net);
    assert!(net.peers[A].vote(c).is_err());
    let at = net.peers[B].log_len();
    let vote = signed_vote(&net, A, B, at, c);
    net.inject(A, B, vote);
    net.run_until(net.now + 300, |_| false);
    b_refused(&net);
}

/// Two players and five computer powers on Europe 1901.
fn europe_of_two(net: &Net) -> SetupProposal {
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
    SetupProposal {
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
    }
}

/// Orders rounds had the same shape: B commits at once, A holds its own orders past B's grace
/// counted from the round, and votes B out as if B's orders were awaited.
#[test]
fn in_an_orders_game_a_player_whose_orders_are_in_is_never_awaited() {
    let mut net = Net::new(2, 78, NetParams::perfect());
    net.autoplay = vec![false, false];
    let p = europe_of_two(&net);
    net.start(p);
    assert!(net.run_until(100_000, |n| n.peers.iter().all(|p| p.game().is_some())));
    let o = net.peers[B]
        .submit_orders(OrdersPayload::default(), [2; 32])
        .expect("B's orders");
    net.process(B, o);
    net.run_until(net.now + 2_500, |_| false);
    assert_eq!(net.peers[B].waiting_on(), vec![net.peers[A].key()]);
    let c = drop_b(&net);
    let o = net.peers[A].vote(c).expect("A's vote");
    net.process(A, o);
    net.run_until(net.now + 300, |_| false);
    b_refused(&net);
}
