//! Face-down games and participants who leave or withhold their part of the deal (security
//! review A1 and A6): a deal of two has no escrow, so whoever of two leaves ends the game; a
//! participant that withholds its key, escrow or shuffle is named as the one the game waits on
//! and can be voted out, and a deal that lacks its key (or escrow) starts again without it
//! before any card is read.

use crate::common;

use common::{Net, NetParams};
use orbis_deal::table::DealMsg;
use orbis_engine::classic::{BotLevel, ClassicOptions, ClassicState, Slot};
use orbis_protocol::peer::{verify, Transcript};
use orbis_protocol::wire::Envelope;
use orbis_protocol::{Body, Control, Peer, ProtocolEvent, SetupProposal};

fn proposal(net: &Net, bots: usize, missions: bool) -> SetupProposal {
    let mut p = net.proposal(bots);
    p.face_down = true;
    p.options = ClassicOptions {
        missions,
        ..ClassicOptions::default()
    };
    p
}

/// The face-down slots seat `seat` holds.
fn unshown(s: &ClassicState, seat: usize) -> Vec<Slot> {
    let p = &s.players[seat];
    p.sealed.iter().chain(&p.sealed_mission).copied().collect()
}

fn decode(t: &[u8]) -> Transcript {
    Transcript::from_bytes(t).unwrap()
}

/// Runs until every peer in `voters` waits on `gone` alone, then a little longer, and has them
/// vote it out.
fn vote_out(net: &mut Net, voters: &[usize], gone: usize) {
    let key = net.peers[gone].key();
    assert!(
        net.run_until(net.now + 60_000_000, |n| {
            voters.iter().all(|&i| n.peers[i].waiting_on() == vec![key]) || n.all_over(voters)
        }),
        "never stuck on peer {gone}: waiting on {:?}; keys {:?}; log {:?}; current {:?}",
        voters
            .iter()
            .map(|&i| net.peers[i].waiting_on())
            .collect::<Vec<_>>(),
        (0..net.peers.len())
            .map(|i| net.peers[i].key())
            .collect::<Vec<_>>(),
        (0..net.peers.len())
            .map(|i| net.peers[i].log_len())
            .collect::<Vec<_>>(),
        net.peers[0]
            .state()
            .map(|s| (s.current, format!("{:?}", s.phase))),
    );
    assert!(
        !net.all_over(voters),
        "the game ended first: pick another seed"
    );
    net.run_until(net.now + 4_000, |_| false);
    let drop = Control::Drop {
        peer: key,
        level: BotLevel::Normal,
    };
    for &i in voters {
        let o = net.peers[i].vote(drop).expect("vote accepted");
        net.process(i, o);
    }
}

/// Deal messages of `kind` in peer `i`'s transcript.
fn deal_messages(net: &Net, i: usize, kind: fn(&DealMsg) -> bool) -> usize {
    let t = decode(&net.peers[i].transcript().expect("a game runs"));
    t.messages
        .iter()
        .filter(|m| {
            matches!(Envelope::open_where(m, |_| true),
                Ok((_, Body::Deal { msg, .. })) if kind(&msg))
        })
        .count()
}

/// Security review A1, in a room: two humans (and a computer seat) dealt face down. Each one's
/// escrow was its whole key share, sealed to the other and broadcast as soon as the keys were
/// in: the opponent could unseal it at once and read the other's cards, mission and the whole
/// deck order. Now a deal of two has no escrow, and when one of the two leaves, the vote that
/// drops it ends the game (nobody can stand in for its key), with nothing of its read.
#[test]
fn a_face_down_game_of_two_has_no_escrow_and_ends_when_one_leaves() {
    let mut net = Net::new(2, 41, NetParams::perfect());
    let p = proposal(&net, 1, true);
    net.start(p);
    assert!(net.run_until(10_000_000, |n| n.peers[0].log_len() >= 60));
    for i in [0, 1] {
        let escrows = deal_messages(&net, i, |m| matches!(m, DealMsg::Escrow(_)));
        assert_eq!(escrows, 0, "peer {i} saw an escrow to a single holder");
    }
    let gone = net.peers[1].key();
    net.online[1] = false;
    vote_out(&mut net, &[0], 1);
    assert!(
        net.run_until(net.now + 60_000, |n| n.peers[0].ended().is_some()),
        "the game goes on without a key nobody holds: {:?}",
        net.peers[0].waiting_on()
    );
    let (at, left) = net.peers[0].ended().unwrap();
    assert_eq!(left, gone);
    assert!(net.events[0].contains(&ProtocolEvent::GameEnded { at, left }));
    assert!(!net.peers[0].is_my_turn() && net.peers[0].waiting_on().is_empty());
    assert!(net.complaints(0).is_empty(), "{:?}", net.complaints(0));
    // Peer 0 reads none of the leaver's face-down cards.
    let s = net.peers[0].state().unwrap().clone();
    for slot in unshown(&s, 1) {
        assert_eq!(net.peers[0].read(slot), None, "peer 0 reads {slot:?}");
    }
    // Nothing is left to hide: its secret is out, and its transcript checks out to the end.
    net.run_until(net.now + 1_000, |_| false);
    let t = net.peers[0].transcript().unwrap();
    assert!(decode(&t).messages.iter().any(|m| matches!(
        Envelope::open_where(m, |_| true),
        Ok((env, Body::DealSecret { .. })) if env.sender == net.peers[0].key()
    )));
    let r = verify(&t).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.positions, net.peers[0].log_len());
}

/// A1 from another side: in a game of three, the first leaver is stood in for by the two
/// others (each holds one piece of its key, neither the whole); a second leaver leaves one
/// participant, who holds neither whole key: the game ends instead of stalling at the next draw.
#[test]
fn a_second_leaver_ends_a_face_down_game_of_three() {
    let mut net = Net::new(3, 43, NetParams::perfect());
    let p = proposal(&net, 0, true);
    net.start(p);
    assert!(net.run_until(10_000_000, |n| n.peers[0].log_len() >= 80));
    for i in 0..3 {
        let escrows = deal_messages(&net, i, |m| matches!(m, DealMsg::Escrow(_)));
        assert_eq!(escrows, 3, "peer {i}: one escrow of two holders each");
    }
    net.online[2] = false;
    vote_out(&mut net, &[0, 1], 2);
    let at = net.peers[0].log_len();
    assert!(net.run_until(net.now + 60_000_000, |n| n.peers[0].log_len() >= at + 30));
    assert_eq!(net.peers[0].ended(), None, "one leaver is stood in for");
    net.online[1] = false;
    vote_out(&mut net, &[0], 1);
    assert!(
        net.run_until(net.now + 60_000, |n| n.peers[0].ended().is_some()),
        "stalled: {:?}",
        net.peers[0].waiting_on()
    );
    assert_eq!(net.peers[0].ended().map(|e| e.1), Some(net.peers[1].key()));
    assert!(net.complaints(0).is_empty(), "{:?}", net.complaints(0));
    net.run_until(net.now + 1_000, |_| false);
    verify(&net.peers[0].transcript().unwrap()).unwrap_or_else(|e| panic!("{e}"));
}

/// A2: a table of three that chose no stand-in. No escrow is made, so nobody, not even both
/// others together, holds anything that rebuilds a hand's key; the cards are read as usual,
/// and when a player leaves, the game ends, unwon, at the vote (nobody can open its cards).
#[test]
fn a_table_without_stand_in_escrows_nothing_and_ends_when_a_player_leaves() {
    let mut net = Net::new(3, 47, NetParams::perfect());
    let mut p = proposal(&net, 0, true);
    p.stand_in = false;
    net.start(p);
    assert!(net.run_until(10_000_000, |n| n.peers[0].log_len() >= 80));
    for i in 0..3 {
        let escrows = deal_messages(&net, i, |m| matches!(m, DealMsg::Escrow(_)));
        assert_eq!(
            escrows, 0,
            "peer {i} saw an escrow at a table that has none"
        );
        let cards = net.peers[i].state().unwrap();
        assert!(
            (0..3).any(|s| !unshown(cards, s).is_empty()),
            "cards were dealt face down and read"
        );
    }
    assert!((1..3).all(|i| net.peers[0].drop_ends_game(&net.peers[i].key())));
    net.online[2] = false;
    vote_out(&mut net, &[0, 1], 2);
    assert!(
        net.run_until(net.now + 60_000, |n| (0..2)
            .all(|i| n.peers[i].ended().is_some())),
        "stalled: {:?}",
        net.peers[0].waiting_on()
    );
    assert_eq!(net.peers[0].ended().map(|e| e.1), Some(net.peers[2].key()));
    assert_eq!(net.peers[0].state_hash(), net.peers[1].state_hash());
    assert!(net.complaints(0).is_empty(), "{:?}", net.complaints(0));
    net.run_until(net.now + 1_000, |_| false);
    verify(&net.peers[0].transcript().unwrap()).unwrap_or_else(|e| panic!("{e}"));
}

/// Has peer `w` keep to itself every deal message `kind` picks (and every resend, which would
/// carry them).
fn withholds(net: &mut Net, w: usize, kind: fn(&DealMsg) -> bool) {
    net.tamper = Some((
        w,
        Box::new(move |_: &mut Peer, _, _, bytes: Vec<u8>| {
            match Envelope::open_where(&bytes, |_| true) {
                Ok((_, Body::Deal { msg, .. })) if kind(&msg) => vec![],
                Ok((_, Body::Batch { .. })) => vec![],
                _ => vec![bytes],
            }
        }),
    ));
}

/// Peer 2 of three keeps back the part of the deal `kind` picks. Before the fix the game froze
/// at the first card, every page named the blocked (innocent) player, and voting the real
/// withholder out did not unblock it. Now every page names the withholder, the others vote it
/// out, and the game plays to the end, the same on both; `again`: the deal started again
/// without it (its key or escrow was missing, so no card had been read) rather than going on
/// with the others standing in for it; `keys`: the key shares peer 0 takes in all.
fn withheld_part(seed: u64, kind: fn(&DealMsg) -> bool, again: bool, keys: usize) {
    let mut net = Net::new(3, seed, NetParams::perfect());
    withholds(&mut net, 2, kind);
    let p = proposal(&net, 1, true);
    net.start(p);
    let w = net.peers[2].key();
    let named = |n: &Net| (0..2).all(|i| n.peers[i].waiting_on() == vec![w]);
    // The game stops at the first card (a few hundred positions in at most).
    assert!(
        net.run_until(300_000, named),
        "waiting on {:?}, not on the withholder",
        (0..3)
            .map(|i| net.peers[i].waiting_on())
            .collect::<Vec<_>>()
    );
    vote_out(&mut net, &[0, 1], 2);
    assert!(
        net.run_until(net.now + 60_000_000, |n| n.all_over(&[0, 1])),
        "the game did not go on without the withholder: waiting on {:?}, halted {:?}",
        net.peers[0].waiting_on(),
        net.peers[0].halted()
    );
    let h = net.hashes(&[0, 1]);
    assert!(h[0].is_some() && h[0] == h[1], "{h:?}");
    for i in [0, 1] {
        assert!(
            net.complaints(i).is_empty(),
            "peer {i}: {:?}",
            net.complaints(i)
        );
        assert_eq!(net.peers[i].ended(), None);
    }
    // Two deals or one: count the keys peer 0 took (its own included).
    let took = deal_messages(&net, 0, |m| matches!(m, DealMsg::Key(_)));
    assert_eq!(took, keys, "keys dealt");
    net.run_until(net.now + 2_000, |_| false);
    for i in [0, 1] {
        let r = verify(&net.peers[i].transcript().unwrap()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.positions, net.peers[i].log_len());
        let d = r.deal.expect("dealt face down");
        assert_eq!(d.keys, if again { 2 } else { 3 }, "peer {i}'s transcript");
    }
}

#[test]
fn a_participant_that_never_sends_its_deal_key_is_named_and_the_deal_starts_again_without_it() {
    // Two keys of the first deal, two of the second.
    withheld_part(45, |m| matches!(m, DealMsg::Key(_)), true, 2 + 2);
}

/// Key sent, escrow kept back: before the fix nothing waited for escrows, so cards were read
/// and the withholder could later leave a game nobody could stand in for it in.
#[test]
fn a_participant_that_keeps_its_escrow_back_is_named_and_the_deal_starts_again_without_it() {
    withheld_part(46, |m| matches!(m, DealMsg::Escrow(_)), true, 3 + 2);
}

/// Key and escrow sent, shuffles kept back: the others stand in for it (its escrow is in) and
/// shuffle without it.
#[test]
fn a_participant_that_never_shuffles_is_named_and_stood_in_for() {
    withheld_part(47, |m| matches!(m, DealMsg::Shuffle { .. }), false, 3);
}

/// A6 from another side: the withholder hands its key to peer 0 alone and its escrow to nobody,
/// hoping the two decide differently where the drop applies (one standing in, one starting the
/// deal again). Peer 0's answers to peer 1's resend requests carry the key to it, so both see
/// the same deal, name the same withholder and start the same new deal.
#[test]
fn a_key_handed_to_one_peer_only_reaches_the_others_and_both_deal_again_alike() {
    let mut net = Net::new(3, 48, NetParams::perfect());
    net.tamper = Some((
        2,
        Box::new(|_: &mut Peer, _, to, bytes: Vec<u8>| {
            match Envelope::open_where(&bytes, |_| true) {
                Ok((_, Body::Deal { msg, .. })) if to == 1 || matches!(msg, DealMsg::Escrow(_)) => {
                    vec![]
                }
                Ok((_, Body::Batch { .. })) => vec![],
                _ => vec![bytes],
            }
        }),
    ));
    let p = proposal(&net, 0, true);
    net.start(p);
    let w = net.peers[2].key();
    assert!(
        net.run_until(300_000, |n| (0..2)
            .all(|i| n.peers[i].waiting_on() == vec![w])),
        "waiting on {:?}",
        (0..2)
            .map(|i| net.peers[i].waiting_on())
            .collect::<Vec<_>>()
    );
    // Within a few resend periods peer 1 has the key it was never sent.
    net.run_until(net.now + 2_000, |_| false);
    assert_eq!(deal_messages(&net, 1, |m| matches!(m, DealMsg::Key(_))), 3);
    vote_out(&mut net, &[0, 1], 2);
    assert!(
        net.run_until(net.now + 600_000, |n| n.all_over(&[0, 1])),
        "stalled: {:?}",
        net.peers[0].waiting_on()
    );
    let h = net.hashes(&[0, 1]);
    assert!(h[0].is_some() && h[0] == h[1], "{h:?}");
    for i in [0, 1] {
        assert!(
            net.complaints(i).is_empty(),
            "peer {i}: {:?}",
            net.complaints(i)
        );
    }
}
