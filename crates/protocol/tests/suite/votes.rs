//! Disconnects: the remaining players vote a missing peer out (its seats go to a bot, its dice
//! chain stops counting) and the game goes on identically everywhere.

use crate::common;

use common::{Net, NetParams};
use orbis_engine::classic::BotLevel;
use orbis_protocol::wire::Envelope;
use orbis_protocol::{Body, Control, HaltReport, Peer, PeerKey, ProtocolEvent};

fn applied(net: &Net, i: usize) -> Vec<(u64, Control)> {
    net.events[i]
        .iter()
        .filter_map(|e| match e {
            ProtocolEvent::ControlApplied { at, control } => Some((*at, *control)),
            _ => None,
        })
        .collect()
}

/// Runs until peers 0 and 1 have both been waiting on `who` for `ms` of simulated time.
fn run_until_stuck_on(net: &mut Net, who: PeerKey, ms: u64) {
    let mut since = None;
    for _ in 0..100_000 {
        let t = net.now + 100;
        net.run_until(t, |_| false);
        let stuck = [0, 1]
            .iter()
            .all(|&i| net.peers[i].waiting_on() == vec![who]);
        match (stuck, since) {
            (true, None) => since = Some(net.now),
            (true, Some(s)) if net.now - s >= ms => return,
            (false, _) => since = None,
            _ => {}
        }
    }
    panic!("never stuck on {who}");
}

fn vote(net: &mut Net, voters: &[usize], c: Control) {
    for &i in voters {
        let o = net.peers[i].vote(c).expect("vote accepted");
        net.process(i, o);
    }
}

#[test]
fn a_peer_that_leaves_is_voted_out_and_can_come_back_to_watch() {
    let params = NetParams {
        max_delay: 40,
        drop_pct: 5,
        dup_pct: 5,
    };
    leave_vote_rejoin(51, params, 100);
}

fn leave_vote_rejoin(seed: u64, params: NetParams, at: u64) {
    let mut net = Net::new(3, seed, params);
    let p = net.proposal(0);
    net.start(p);
    assert!(net.run_until(10_000_000, |n| n.peers[0].log_len() >= at));
    let gone = net.peers[2].key();
    net.online[2] = false;
    run_until_stuck_on(&mut net, gone, 3_000);
    for i in [0, 1] {
        assert!(net.events[i].contains(&ProtocolEvent::PeerMissing { peer: gone }));
    }
    let drop = Control::Drop {
        peer: gone,
        level: BotLevel::Normal,
    };
    // One vote is not enough: the game stays paused.
    vote(&mut net, &[0], drop);
    net.run_until(net.now + 2_000, |_| false);
    assert_eq!(net.peers[0].waiting_on(), vec![gone]);
    vote(&mut net, &[1], drop);
    assert!(net.run_until(net.now + 50_000_000, |n| n.all_over(&[0, 1])));
    let h = net.hashes(&[0, 1]);
    assert!(h[0].is_some() && h[0] == h[1], "{h:?}");
    let a0 = applied(&net, 0);
    assert_eq!(a0.len(), 1);
    assert_eq!(a0, applied(&net, 1));
    for i in [0, 1] {
        assert!(net.complaints(i).is_empty(), "{:?}", net.complaints(i));
    }
    // The dropped player reloads and replays the whole game, votes included.
    net.reload(2, vec![]);
    assert!(net.run_until(net.now + 50_000_000, |n| n.all_over(&[0, 1, 2])));
    assert_eq!(net.hashes(&[2])[0], h[0]);
    assert_eq!(applied(&net, 2), a0);
    assert!(!net.peers[2].is_my_turn());
}

#[test]
fn withheld_dice_reveals_pause_the_game_until_the_withholder_is_voted_out() {
    let mut net = Net::new(
        3,
        52,
        NetParams {
            max_delay: 20,
            drop_pct: 0,
            dup_pct: 0,
        },
    );
    let p = net.proposal(0);
    net.start(p);
    assert!(net.run_until(10_000_000, |n| n.peers[0].log_len() >= 100));
    let cheat = net.peers[2].key();
    // From now on peer 2 keeps its dice to itself (it still sees everyone else's).
    net.tamper = Some((
        2,
        Box::new(|_: &mut Peer, _, _, bytes: Vec<u8>| {
            match Envelope::open_where(&bytes, |_| true) {
                Ok((_, Body::Reveal { .. } | Body::Batch { .. })) => vec![],
                _ => vec![bytes],
            }
        }),
    ));
    run_until_stuck_on(&mut net, cheat, 3_000);
    vote(
        &mut net,
        &[0, 1],
        Control::Drop {
            peer: cheat,
            level: BotLevel::Easy,
        },
    );
    assert!(net.run_until(net.now + 50_000_000, |n| n.all_over(&[0, 1])));
    let h = net.hashes(&[0, 1]);
    assert!(h[0].is_some() && h[0] == h[1], "{h:?}");
    assert_eq!(applied(&net, 0), applied(&net, 1));
    // The withholder learns it was dropped (from its own view it had played that position).
    assert!(matches!(
        net.peers[2].halted(),
        Some(HaltReport::VotedOutWhilePlaying { voters, .. }) if voters.len() == 2
    ));
}

#[test]
fn a_seat_can_be_handed_to_a_bot_while_its_player_keeps_rolling_dice() {
    let mut net = Net::new(
        3,
        53,
        NetParams {
            max_delay: 20,
            drop_pct: 0,
            dup_pct: 0,
        },
    );
    let p = net.proposal(0);
    net.start(p);
    assert!(net.run_until(10_000_000, |n| n.peers[0].log_len() >= 60));
    net.autoplay[1] = false;
    let idle = net.peers[1].key();
    // Longer than its player's grace for a move (2 s here): it is overdue, not just thinking.
    run_until_stuck_on(&mut net, idle, 3_000);
    let c = Control::SeatToBot {
        seat: 1,
        level: BotLevel::Normal,
    };
    // The seat's own player does not vote on it.
    assert!(net.peers[1].vote(c).is_err());
    vote(&mut net, &[0, 2], c);
    assert!(net.run_until(net.now + 50_000_000, |n| n.all_over(&[0, 1, 2])));
    let h = net.hashes(&[0, 1, 2]);
    assert!(h[0].is_some() && h[0] == h[1] && h[1] == h[2], "{h:?}");
    for i in 0..3 {
        assert_eq!(applied(&net, i).len(), 1);
        assert!(net.complaints(i).is_empty(), "{:?}", net.complaints(i));
    }
}

mod schedules {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: common::cases(3, 6), failure_persistence: None, rng_seed: proptest::test_runner::RngSeed::Fixed(0x0b15), ..ProptestConfig::default() })]
        #[test]
        fn leave_vote_rejoin_on_any_schedule(
            seed in any::<u64>(),
            at in 1u64..250,
            max_delay in 1u64..80,
            drop_pct in 0u32..15,
            dup_pct in 0u32..15,
        ) {
            leave_vote_rejoin(seed, NetParams { max_delay, drop_pct, dup_pct }, at);
        }
    }
}

#[test]
fn junk_votes_cannot_fill_the_table_and_block_the_vote_that_drops_their_sender() {
    // Security review, finding 3: a participant sends thousands of votes for passed positions
    // (stored without limit before the fix) and then withholds its dice; at 4,096 stored votes
    // the honest peers' vote to drop it was silently thrown away and the game stalled for good.
    let mut net = Net::new(
        3,
        53,
        NetParams {
            max_delay: 20,
            drop_pct: 0,
            dup_pct: 0,
        },
    );
    let p = net.proposal(0);
    net.start(p);
    assert!(net.run_until(10_000_000, |n| n.peers[0].log_len() >= 40));
    let cheat = net.peers[2].key();
    let key = ed25519_dalek::SigningKey::from_bytes(&net.configs[2].identity_secret);
    let mut seq = 1u64 << 45;
    let tag = net.peers[0].game_tag().expect("started");
    for at in 0..12u64 {
        for seat in 0..=255u8 {
            for level in [BotLevel::Easy, BotLevel::Normal] {
                seq += 1;
                let body = Body::Vote {
                    at,
                    fixed: None,
                    control: Control::SeatToBot { seat, level },
                };
                let raw = Envelope::seal(&key, tag, seq, &body);
                net.inject(2, 0, raw.clone());
                net.inject(2, 1, raw);
            }
        }
    }
    net.tamper = Some((
        2,
        Box::new(|_: &mut Peer, _, _, bytes: Vec<u8>| {
            match Envelope::open_where(&bytes, |_| true) {
                Ok((_, Body::Reveal { .. } | Body::Batch { .. })) => vec![],
                _ => vec![bytes],
            }
        }),
    ));
    run_until_stuck_on(&mut net, cheat, 3_000);
    vote(
        &mut net,
        &[0, 1],
        Control::Drop {
            peer: cheat,
            level: BotLevel::Easy,
        },
    );
    assert!(net.run_until(net.now + 50_000_000, |n| n.all_over(&[0, 1])));
    let h = net.hashes(&[0, 1]);
    assert!(h[0].is_some() && h[0] == h[1], "{h:?}");
}

/// Security review finding 5: in a two-player room the other player is the only voter, so a
/// vote alone cannot be the rule. A control applies only where the game waits on its target
/// (every peer agrees where that is), and the target does not accept one sooner than its grace
/// period after the game began waiting on it: it halts naming the voter instead.
#[test]
fn a_lone_voter_cannot_take_the_other_seat_in_a_two_player_room() {
    let mut net = Net::new(2, 71, NetParams::perfect());
    let p = net.proposal(0);
    net.start(p);
    assert!(net.run_until(10_000_000, |n| n.peers[0].log_len() >= 30));
    let (a, b) = (0, 1);
    let victim = net.peers[b].key();
    let drop = Control::Drop {
        peer: victim,
        level: BotLevel::Easy,
    };
    // During A's own turn the vote is inert: the game does not wait on B there.
    net.autoplay[a] = false;
    assert!(net.run_until(net.now + 60_000, |n| n.peers[a].is_my_turn()));
    vote(&mut net, &[a], drop);
    net.run_until(net.now + 500, |_| false);
    assert!(!net.events[a]
        .iter()
        .any(|e| matches!(e, ProtocolEvent::ControlApplied { .. })));
    assert!(net.peers[b].halted().is_none());
    // A ends its turn; the moment B's turn begins A votes again. It takes effect in A's view
    // only: B, playing, refuses it and halts naming A.
    net.autoplay[a] = true;
    net.autoplay[b] = false;
    assert!(net.run_until(net.now + 60_000, |n| {
        n.peers[b].is_my_turn() && n.peers[a].waiting_on() == vec![victim]
    }));
    assert!(net.peers[b].halted().is_none());
    vote(&mut net, &[a], drop);
    net.run_until(net.now + 500, |n| n.peers[b].halted().is_some());
    assert!(net.events[a]
        .iter()
        .any(|e| matches!(e, ProtocolEvent::ControlApplied { .. })));
    let named = matches!(
        net.peers[b].halted(),
        Some(HaltReport::VotedOutWhilePlaying { voters, .. }) if voters == &vec![net.peers[a].key()]
    );
    assert!(named, "{:?}", net.peers[b].halted());
}

/// Two votes to drop one peer at two computer levels are two controls, each waiting for the
/// voters of the other: peer 1 (another client) votes slow T out at `Easy`; peer 0's page seconds
/// that vote as it stands (`Peer::drop_vote`, what its button signs), and T is dropped on both.
#[test]
fn a_vote_to_drop_at_another_level_is_seconded_as_it_stands() {
    let mut net = Net::new(3, 7, NetParams::perfect());
    let p = net.proposal(0);
    net.start(p);
    net.autoplay[2] = false;
    let t = net.peers[2].key();
    run_until_stuck_on(&mut net, t, 2_000);
    let theirs = Control::Drop {
        peer: t,
        level: BotLevel::Easy,
    };
    vote(&mut net, &[1], theirs);
    let until = net.now + 200;
    net.run_until(until, |_| false);
    let ours = net.peers[0].drop_vote(t, BotLevel::Normal);
    assert_eq!(ours, theirs, "peer 0's button seconds peer 1's vote");
    vote(&mut net, &[0], ours);
    let until = net.now + 2_000;
    net.run_until(until, |_| false);
    for i in [0, 1] {
        assert!(
            applied(&net, i).iter().any(|(_, c)| *c == theirs),
            "peer {i}: T not dropped"
        );
    }
    // With no vote open, the button opens one at the level asked for.
    let other = net.peers[1].key();
    assert_eq!(
        net.peers[0].drop_vote(other, BotLevel::Normal),
        Control::Drop {
            peer: other,
            level: BotLevel::Normal
        }
    );
    // A vote we signed stays the one the button shows, though another is as far along: the
    // page does not offer to sign a second one (review of `drop_vote`).
    let mut net = Net::new(3, 8, NetParams::perfect());
    let p = net.proposal(0);
    net.start(p);
    net.autoplay[2] = false;
    let t = net.peers[2].key();
    run_until_stuck_on(&mut net, t, 2_000);
    let mine = Control::Drop {
        peer: t,
        level: BotLevel::Normal,
    };
    net.online[0] = false;
    net.online[1] = false;
    for (i, c) in [(0, mine), (1, theirs_at(t))] {
        let o = net.peers[i].vote(c).expect("vote taken");
        net.process(i, o);
    }
    net.online[0] = true;
    net.online[1] = true;
    let until = net.now + 200;
    net.run_until(until, |_| false);
    assert_eq!(net.peers[0].drop_vote(t, BotLevel::Hard), mine);
}

fn theirs_at(t: PeerKey) -> Control {
    Control::Drop {
        peer: t,
        level: BotLevel::Easy,
    }
}

/// The vote to drop `t`, its seat to a computer player of normal level.
fn drop_normal(t: PeerKey) -> Control {
    Control::Drop {
        peer: t,
        level: BotLevel::Normal,
    }
}

/// Three peers playing a classic game, 30 positions in.
fn three_playing(seed: u64) -> Net {
    let mut net = Net::new(3, seed, NetParams::perfect());
    let p = net.proposal(0);
    net.start(p);
    assert!(net.run_until(10_000_000, |n| n.peers[0].log_len() >= 30));
    net
}

/// `three_playing`, then the target (peer 2) stays online (it hears everything and reveals its
/// dice) but does not move when its turn comes, until the others have waited on it for 3 s.
/// Returns the target's key and the position the game waits at.
fn target_silent_at_its_turn(seed: u64) -> (Net, PeerKey, u64) {
    let mut net = three_playing(seed);
    let t = net.peers[2].key();
    net.autoplay[2] = false;
    run_until_stuck_on(&mut net, t, 3_000);
    let at = net.peers[0].log_len();
    (net, t, at)
}

/// PROTOCOL.md, "Votes are binding": in a classic game a voter bound by its own open vote was
/// let go by any later message of a required voter whose vote it did not hold. That message
/// can overtake the vote: here peer 1's vote to drop the silent target reaches peer 0 only
/// inside a resend, after peer 1 applied the drop and went on. Peer 0, let go by peer 1's later
/// messages, took the target's late move, and the two split (a checkpoint then halted the game
/// naming no one). Now only a head peer 1 signed past the position, equal to the head peer 0
/// reaches without the drop, lets peer 0 go, so it waits for the vote and both apply the drop.
#[test]
fn a_voters_later_message_that_overtakes_its_vote_releases_no_one() {
    for seed in [61u64, 62, 63, 64] {
        let (mut net, t, at) = target_silent_at_its_turn(seed);
        // Peer 1's vote never reaches peer 0 on its own (from peer 1, or relayed by the
        // target), only inside a resend (a `Batch`), and the first resends peer 0 asks for are
        // lost: peer 1's later messages come first.
        fn hold_back_votes() -> common::Tamper {
            let mut batches = 0;
            Box::new(move |_: &mut Peer, _, to, m: Vec<u8>| {
                match Envelope::open_where(&m, |_| true) {
                    Ok((_, Body::Vote { .. })) if to == 0 => vec![],
                    Ok((_, Body::Batch { .. })) if to == 0 && batches < 1 => {
                        batches += 1;
                        vec![]
                    }
                    _ => vec![m],
                }
            })
        }
        net.tamper = Some((1, hold_back_votes()));
        net.tamper_also = Some((2, hold_back_votes()));
        let drop = drop_normal(t);
        vote(&mut net, &[0, 1], drop);
        // The target's late move for that position, sent before the votes reach it.
        let view = net.peers[2].view().expect("started");
        let late = orbis_engine::bot::choose(&view, BotLevel::Normal).expect("a move");
        let o = net.peers[2].act(late).expect("its turn");
        net.process(2, o);
        net.autoplay[2] = true;
        net.run_until(net.now + 60_000, |n| n.all_over(&[0, 1]));
        let halted: Vec<_> = (0..2).map(|i| net.peers[i].halted().cloned()).collect();
        assert_eq!(halted, vec![None, None], "seed {seed}: a halt");
        assert_eq!(
            applied(&net, 0).first(),
            Some(&(at, drop)),
            "seed {seed}: peer 0 did not apply the drop where peer 1 did"
        );
        assert_eq!(applied(&net, 0), applied(&net, 1), "seed {seed}");
        let (a, b) = (net.peers[0].log_len(), net.peers[1].log_len());
        let n = a.min(b);
        assert_eq!(
            net.peers[0].head_at(n),
            net.peers[1].head_at(n),
            "seed {seed}: split"
        );
    }
}

/// The other side of the rule above: a voter that did not vote, took the late move and went on
/// lets the bound voter go (its later entries, reveals and `Sync` carry heads the bound voter
/// reaches by taking that move too), so the bound voter follows and nobody is dropped.
#[test]
fn a_voter_that_took_the_late_move_lets_the_bound_voter_go() {
    for seed in [61u64, 62, 63, 64] {
        let (mut net, t, at) = target_silent_at_its_turn(seed);
        let drop = drop_normal(t);
        vote(&mut net, &[0], drop);
        net.autoplay[2] = true;
        assert!(
            net.run_until(net.now + 600_000, |n| n.all_over(&[0, 1, 2])),
            "seed {seed}: stuck at {:?} (voted at {at})",
            (0..3).map(|i| net.peers[i].log_len()).collect::<Vec<_>>()
        );
        assert!(
            applied(&net, 0).is_empty(),
            "seed {seed}: {:?}",
            applied(&net, 0)
        );
        let h = net.hashes(&[0, 1, 2]);
        assert!(
            h[0].is_some() && h[0] == h[1] && h[1] == h[2],
            "seed {seed}: {h:?}"
        );
    }
}

/// Found by an independent review of the head proof in classic games: the target's late move
/// is an attack; the voter that did not vote takes it and waits for the bound voter's dice,
/// while the bound voter waits for a head past the position. The two wait on each other, and
/// the others vote the bound voter out (as before the head proof). With the head proof alone
/// it then hung for good, told nothing: the fork that looks for the head halts at the same
/// point. A voter's later message, known for two resend periods (`Peer::overtake_ms`), lets
/// it go again, so it learns it was voted out.
#[test]
fn a_bound_voter_that_a_late_attack_leaves_out_is_told() {
    use orbis_engine::classic::Action;
    let mut net = three_playing(61);
    let (a, t) = (net.peers[0].key(), net.peers[2].key());
    net.autoplay[2] = false;
    let late = loop {
        assert!(net.run_until(net.now + 600_000, |n| n.peers[2].is_my_turn()
            && (0..2).all(|i| n.peers[i].log_len() == n.peers[2].log_len())));
        let v = net.peers[2].view().expect("started");
        let m = orbis_engine::bot::choose(&v, BotLevel::Normal).expect("a move");
        if matches!(m, Action::Attack { .. } | Action::Blitz { .. }) {
            break m;
        }
        let o = net.peers[2].act(m).expect("its turn");
        net.process(2, o);
    };
    run_until_stuck_on(&mut net, t, 3_000);
    vote(&mut net, &[0], drop_normal(t));
    let o = net.peers[2].act(late).expect("its turn");
    net.process(2, o);
    net.autoplay[2] = true;
    net.run_until(net.now + 10_000, |_| false);
    assert_eq!(
        net.peers[1].waiting_on(),
        vec![a],
        "each waits on the other"
    );
    vote(&mut net, &[1, 2], drop_normal(a));
    net.run_until(net.now + 60_000, |n| n.peers[0].halted().is_some());
    assert!(
        matches!(
            net.peers[0].halted(),
            Some(HaltReport::VotedOutWhilePlaying { .. })
        ),
        "voted out, never told: {:?}",
        net.peers[0].halted()
    );
}

/// Found by the same review: the target's late turn is longer than the window of positions a
/// peer looks ahead (64), so every head the voter that took it signs afterwards is beyond the
/// bound voter's window, and the head proof never comes. The voter's later message, known for
/// two resend periods, lets the bound voter go.
#[test]
fn a_voter_past_the_window_still_lets_the_bound_voter_go() {
    use orbis_engine::classic::{Action, DefendPref};
    let (mut net, t, at) = target_silent_at_its_turn(61);
    vote(&mut net, &[0], drop_normal(t));
    for _ in 0..70 {
        let o = net.peers[2]
            .act(Action::SetDefence {
                player: 2,
                pref: DefendPref::Max,
            })
            .expect("its turn");
        net.process(2, o);
    }
    net.autoplay[2] = true;
    assert!(
        net.run_until(net.now + 60_000, |n| n.peers[0].log_len() > at + 70),
        "peer 0 held at {at}, peer 1 at {}",
        net.peers[1].log_len()
    );
    assert!(applied(&net, 0).is_empty(), "{:?}", applied(&net, 0));
}
