//! Coming back: a player voted out while away returns with the same keys, asks to be let back
//! in, and gets its seat (and its say in the dice) back once every contributor agrees; every
//! peer applies the readmission at the same position and the game ends identically everywhere.

use crate::common;

use common::{Net, NetParams};
use orbis_engine::classic::BotLevel;
use orbis_protocol::{Control, Peer, ProtocolEvent};

fn applied(net: &Net, i: usize) -> Vec<(u64, Control)> {
    net.events[i]
        .iter()
        .filter_map(|e| match e {
            ProtocolEvent::ControlApplied { at, control } => Some((*at, *control)),
            _ => None,
        })
        .collect()
}

/// Peer `back` asks to be let back in at each position it is left out; `voters` vote for any
/// readmission its target asked for. Returns after `ms` of simulated time or once it is back.
fn ask_and_vote(net: &mut Net, back: usize, voters: &[usize], ms: u64) -> bool {
    let end = net.now + ms;
    while net.now < end {
        if net.peers[back].left_out() {
            if let Ok(o) = net.peers[back].ask_back() {
                net.process(back, o);
            }
        } else {
            return true;
        }
        let target = net.peers[back].key();
        for &i in voters {
            for (c, voted, _) in net.peers[i].open_votes() {
                if matches!(c, Control::Readmit { peer, .. } if peer == target)
                    && voted.contains(&target)
                {
                    if let Ok(o) = net.peers[i].vote(c) {
                        net.process(i, o);
                    }
                }
            }
        }
        let t = net.now + 50;
        net.run_until(t, |_| false);
    }
    !net.peers[back].left_out()
}

fn away_and_back(seed: u64, params: NetParams, chain_len: Option<u32>, face_down: bool) {
    let mut net = Net::new(3, seed, params);
    if let Some(len) = chain_len {
        for c in &mut net.configs {
            c.chain_len = len;
        }
        net.peers = net.configs.iter().cloned().map(Peer::new).collect();
    }
    let mut p = net.proposal(1);
    p.face_down = face_down;
    net.start(p);
    assert!(net.run_until(10_000_000, |n| n.peers[0].log_len() >= 50));
    // Peer 2's tab closes; the others wait, then vote it out.
    let gone = net.peers[2].key();
    net.online[2] = false;
    assert!(net.run_until(net.now + 60_000, |n| {
        [0, 1]
            .iter()
            .all(|&i| n.peers[i].waiting_on() == vec![gone])
    }));
    net.run_until(net.now + 3_000, |_| false);
    let drop = Control::Drop {
        peer: gone,
        level: BotLevel::Normal,
    };
    for i in [0, 1] {
        let o = net.peers[i].vote(drop).expect("vote accepted");
        net.process(i, o);
    }
    // The game goes on without it for a while (many rolls: past the end of short chains).
    let dropped_at = net.peers[0].log_len();
    assert!(net.run_until(net.now + 50_000_000, |n| n.peers[0].log_len()
        >= dropped_at + 60
        || n.all_over(&[0, 1])));
    assert!(
        !net.all_over(&[0, 1]),
        "the game ended before peer 2 came back"
    );
    // The two others now take their time over each move, so the game waits on them.
    net.autoplay[0] = false;
    net.autoplay[1] = false;
    // It reloads with the same keys and catches up: still out.
    net.reload(2, vec![]);
    assert!(net.run_until(net.now + 60_000, |n| n.peers[2].left_out()
        && n.peers[2].log_len() == n.peers[0].log_len()));
    let alive = net.peers[2]
        .state()
        .is_some_and(|s| s.territory_count(2) > 0);
    assert!(
        alive,
        "peer 2's seat was beaten while away: pick another seed"
    );
    // Its request alone, or with one of the two other votes, does not let it back in.
    assert!(!ask_and_vote(&mut net, 2, &[], 3_000));
    assert!(!ask_and_vote(&mut net, 2, &[0], 3_000));
    // With both it is back (every peer agrees where), and plays its own turns again.
    assert!(
        ask_and_vote(&mut net, 2, &[0, 1], 10_000),
        "never readmitted"
    );
    net.autoplay[0] = true;
    net.autoplay[1] = true;
    // (Its own moves wait for the test to look: it is its turn, in every peer's eyes.)
    net.autoplay[2] = false;
    assert!(
        net.run_until(net.now + 50_000_000, |n| n.peers[2].is_my_turn()),
        "never played again"
    );
    // Peer 0 may still be collecting the last roll's reveals: once they are in, it waits on
    // peer 2 alone.
    assert!(
        net.run_until(net.now + 60_000, |n| n.peers[0].waiting_on() == vec![gone]),
        "peer 0 waits on {:?}",
        net.peers[0].waiting_on()
    );
    net.autoplay[2] = true;
    let all = [0, 1, 2];
    let over = net.run_until(net.now + 50_000_000, |n| n.all_over(&all));
    if !over {
        for i in all {
            eprintln!(
                "peer {i}: log {} waiting {:?} halted {:?} complaints {:?}",
                net.peers[i].log_len(),
                net.peers[i].waiting_on(),
                net.peers[i].halted().is_some(),
                net.complaints(i)
            );
        }
        eprintln!("keys {:?}", all.map(|i| net.peers[i].key()));
    }
    assert!(over);
    let h = net.hashes(&all);
    assert!(h[0].is_some() && h[0] == h[1] && h[1] == h[2], "{h:?}");
    let a0 = applied(&net, 0);
    assert_eq!(a0, applied(&net, 1));
    assert_eq!(a0, applied(&net, 2));
    assert!(
        matches!(a0.as_slice(), [(_, Control::Drop { .. }), (_, Control::Readmit { peer, .. })] if *peer == gone)
    );
    for i in all {
        assert!(
            net.complaints(i).is_empty(),
            "peer {i}: {:?}",
            net.complaints(i)
        );
    }
}

#[test]
fn a_dropped_player_comes_back_and_plays_again() {
    away_and_back(81, NetParams::perfect(), None, false);
}

/// Chains of 7 rolls: while away the game rolled past the end of the chains peer 2 had
/// committed to, so it comes back on the chain it names in its request.
#[test]
fn a_dropped_player_comes_back_after_its_dice_chain_ran_out() {
    away_and_back(
        82,
        NetParams {
            max_delay: 40,
            drop_pct: 5,
            dup_pct: 5,
        },
        Some(7),
        false,
    );
}

/// Cards dealt face down among three: the two who stay stand in for the leaver's key, and it
/// still comes back (its hand was opened by the stand-in, so it is shown to all from then on).
#[test]
fn a_dropped_player_comes_back_to_a_face_down_game() {
    away_and_back(83, NetParams::perfect(), None, true);
}
