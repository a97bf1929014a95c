//! The economy ruleset over the protocol: every log position is a commit-reveal round among the
//! participants the engine waits for, dice come from the beacon, computer seats are computed by
//! every peer, declaration windows close by themselves, and cheating is named.

use crate::common;

use common::economy::*;
use common::{Net, NetParams};
use ed25519_dalek::SigningKey;
use orbis_engine::classic::{BotLevel, PlayerId};
use orbis_engine::rules::economy::action::EconomyAction;
use orbis_engine::rules::economy::phase::Phase;
use orbis_engine::rules::economy::state::EconomyState;
use orbis_protocol::peer::verify;
use orbis_protocol::wire::{encode_economy, orders_commitment};
use orbis_protocol::{Body, Control, Envelope, Violation};

#[test]
fn a_whole_economy_game_between_peers_ends_with_equal_state_hashes() {
    let mut net = economy_net(3, &[BotLevel::Normal], 11, 3);
    let over = |n: &Net| (0..3).all(|i| state(n, i).phase == Phase::Over);
    assert!(
        drive(&mut net, 3_000_000, |_, _| false, over),
        "the game ends"
    );
    let h = hashes(&net, &[0, 1, 2]);
    assert!(h.iter().all(|x| *x == h[0]), "{h:?}");
    for i in 0..3 {
        assert!(net.complaints(i).is_empty(), "{:?}", net.complaints(i));
    }
    assert!(
        rolled(&net, 0),
        "battles were fought with the beacon's dice"
    );
    // Every peer applied the same actions at every position.
    let a0: Vec<_> = applied(&net, 0).into_iter().map(|x| (x.0, x.1)).collect();
    for i in 1..3 {
        let ai: Vec<_> = applied(&net, i).into_iter().map(|x| (x.0, x.1)).collect();
        assert_eq!(a0, ai);
    }
    eprintln!(
        "economy game: {} positions, {} messages delivered, {} bytes sent, {} simulated ms",
        net.peers[0].log_len(),
        net.delivered,
        net.bytes_sent,
        net.now
    );
    if std::env::var("ECO_DUMP").is_ok() {
        for (i, a, e) in applied(&net, 0) {
            eprintln!("{i}: {a:?}\n    {e:?}");
        }
    }
    // The transcript of the game checks out offline, and reaches the same state.
    let t = net.peers[1].transcript().expect("a transcript");
    let report = verify(&t).expect("the transcript verifies");
    assert_eq!(report.positions, net.peers[1].log_len());
    // The replay screen's view of the same file: the start and every position's state, the
    // last the game's, and the file's verdict beside them.
    let r = orbis_protocol::peer::replay(&t).expect("the transcript replays");
    assert_eq!(r.states.len() as u64, net.peers[1].log_len() + 1);
    assert_eq!(
        r.states.last().map(|g| g.state_hash().0),
        net.peers[1].state_hash()
    );
    assert!(r.verdict.is_ok());
    // Every position applied at least one action, also those one message resolved together
    // (the computer seat's positions after a player's): no position shows its neighbour.
    for (i, w) in r.states.windows(2).enumerate() {
        let steps = |g: &orbis_engine::rules::Game| match g {
            orbis_engine::rules::Game::Economy(s) => s.steps,
            _ => panic!("an economy game"),
        };
        assert!(
            steps(&w[0]) < steps(&w[1]),
            "position {} repeats the state before",
            i + 1
        );
    }
    assert!(orbis_protocol::peer::replay(b"not a transcript").is_err());
}

#[test]
fn an_economy_game_over_a_lossy_network_ends_alike() {
    let params = NetParams {
        max_delay: 40,
        drop_pct: 5,
        dup_pct: 5,
    };
    let mut net = economy_net_on(3, &[BotLevel::Easy], 17, 3, params);
    let over = |n: &Net| (0..3).all(|i| state(n, i).phase == Phase::Over);
    let ended = drive(&mut net, 300_000, |_, _| false, over);
    if !ended {
        for i in 0..3 {
            let s = state(&net, i);
            eprintln!(
                "peer {i}: log {} phase {:?} to_act {:?} waiting_on {:?} due {:?} complaints {:?}",
                net.peers[i].log_len(),
                s.phase,
                s.to_act(),
                net.peers[i].waiting_on(),
                net.peers[i].economy_due(),
                net.complaints(i)
            );
        }
    }
    assert!(ended, "the game ends");
    let h = hashes(&net, &[0, 1, 2]);
    assert!(h.iter().all(|x| *x == h[0]), "{h:?}");
    for i in 0..3 {
        assert!(net.complaints(i).is_empty(), "{:?}", net.complaints(i));
    }
}

#[test]
fn computer_seats_are_computed_alike_by_every_peer() {
    let mut net = economy_net(2, &[BotLevel::Easy, BotLevel::Hard], 5, 2);
    let far = |n: &Net| (0..2).all(|i| state(n, i).phase == Phase::Over);
    assert!(drive(&mut net, 3_000_000, |_, _| false, far));
    let bots = |i: usize| -> Vec<(u64, EconomyAction)> {
        applied(&net, i)
            .into_iter()
            .flat_map(|(idx, a, _)| a.into_iter().map(move |a| (idx, a)))
            .filter(|(_, a)| a.player() >= 2)
            .collect()
    };
    assert!(!bots(0).is_empty(), "the computer seats played");
    assert_eq!(bots(0), bots(1));
    assert_eq!(hashes(&net, &[0, 1])[0], hashes(&net, &[0, 1])[1]);
    assert!(net.complaints(0).is_empty() && net.complaints(1).is_empty());
}

#[test]
fn a_plan_changed_after_its_commitment_is_named() {
    let mut net = economy_net(3, &[], 21, 2);
    const CHEAT: usize = 2;
    let planning = |n: &Net| {
        state(n, CHEAT).phase == Phase::Planning && n.peers[CHEAT].economy_due().is_some()
    };
    assert!(drive(&mut net, 1_000_000, |_, _| false, planning));
    // Its reveal carries other plans than it committed to.
    let key = SigningKey::from_bytes(&net.configs[CHEAT].identity_secret);
    let other = encode_economy(&[]);
    let me = net.peers[CHEAT].key();
    net.tamper = Some((
        CHEAT,
        Box::new(move |_, _, _, bytes| {
            let (env, body) = Envelope::open_where(&bytes, |_| true).expect("valid");
            match body {
                // Its answers to resend requests would carry its true reveal, which after the
                // false one is equivocation (both signed for one round): this test is the wait.
                Body::Batch { .. } => vec![],
                Body::OrdersReveal { round, salt, .. } if env.sender == me => vec![Envelope::seal(
                    &key,
                    env.game_id,
                    env.seq,
                    &Body::OrdersReveal {
                        round,
                        payload: other.clone(),
                        salt,
                    },
                )],
                _ => vec![bytes],
            }
        }),
    ));
    let at = net.peers[0].log_len();
    let until = net.now + 3_000;
    drive(&mut net, until, |_, _| false, |_| false);
    for i in [0, 1] {
        let r = rejections(&net, i, CHEAT);
        assert!(
            r.iter().any(
                |v| matches!(v, Violation::OrdersMismatch { round } if u64::from(*round) == at)
            ),
            "{r:?}"
        );
        assert_eq!(
            net.peers[i].log_len(),
            at,
            "the round waits for a true reveal"
        );
        assert_eq!(net.peers[i].waiting_on(), vec![net.peers[CHEAT].key()]);
    }
}

/// Runs until a declaration window is open in which some participant plays no awaited seat.
fn to_a_window_without(net: &mut Net) -> Option<usize> {
    let n = net.peers.len();
    let window = move |net: &Net| {
        let s = state(net, 0);
        declaring(s)
            && (0..n).any(|j| {
                !s.to_act().contains(&(j as PlayerId))
                    && net.peers[j].log_len() == net.peers[0].log_len()
            })
            && (0..n).all(|j| net.peers[j].log_len() == net.peers[0].log_len())
    };
    // Nobody declares until the window is found, so it stays open.
    if !drive(net, 3_000_000, |_, s| declaring(s), window) {
        return None;
    }
    let s = state(net, 0);
    (0..n).find(|&j| !s.to_act().contains(&(j as PlayerId)))
}

#[test]
fn a_declaration_out_of_turn_is_refused() {
    let mut net = economy_net(3, &[], 8, 3);
    let j = to_a_window_without(&mut net).expect("a battle between two of three players");
    let round = net.peers[0].log_len() as u32;
    let key = SigningKey::from_bytes(&net.configs[j].identity_secret);
    let out_of_turn = Envelope::seal(
        &key,
        net.peers[0].game_tag().expect("started"),
        1 << 50,
        &Body::OrdersCommit {
            round,
            hash: [7; 32],
        },
    );
    for i in 0..3 {
        if i != j {
            net.inject(j, i, out_of_turn.clone());
        }
    }
    net.run_until(net.now + 500, |_| false);
    for i in (0..3).filter(|&i| i != j) {
        let r = rejections(&net, i, j);
        assert!(
            r.contains(&Violation::OutOfTurn {
                index: u64::from(round)
            }),
            "{r:?}"
        );
    }
}

#[test]
fn a_silent_declarer_is_passed_when_its_window_closes_and_the_game_goes_on() {
    // Whether the silent player meets a declaration window at all depends on the game: take the
    // first seed whose game gives it one.
    for seed in 8..24 {
        if silent_declarer(seed) {
            return;
        }
    }
    panic!("no game gave the silent player a declaration window");
}

/// Plays a game in which peer 1's player never declares; `false` if it never had to.
fn silent_declarer(seed: u64) -> bool {
    let mut net = economy_net(3, &[], seed, 2);
    const SILENT: usize = 1;
    // Its player never declares: its own peer passes for it once the window closes.
    let over = |n: &Net| (0..3).all(|i| state(n, i).phase == Phase::Over);
    let silent = |i: usize, s: &EconomyState| i == SILENT && declaring(s);
    assert!(drive(&mut net, 3_000_000, silent, over), "the game ends");
    let passes = applied(&net, 0)
        .iter()
        .flat_map(|(_, a, _)| a.clone())
        .filter(|a| {
            matches!(
                a,
                EconomyAction::Declare {
                    player: 1,
                    action: None
                } | EconomyAction::Intercept {
                    player: 1,
                    yes: false
                }
            )
        })
        .count();
    let h = hashes(&net, &[0, 1, 2]);
    assert!(h.iter().all(|x| *x == h[0]), "{h:?}");
    for i in 0..3 {
        assert!(net.complaints(i).is_empty(), "{:?}", net.complaints(i));
    }
    passes > 0
}

#[test]
fn a_stalled_declarer_is_voted_out_and_the_honest_peers_continue() {
    let mut net = economy_net(3, &[], 8, 3);
    // Find a window where a participant must declare, then take it off the network.
    let window = |n: &Net| {
        declaring(state(n, 0)) && (0..3).all(|j| n.peers[j].log_len() == n.peers[0].log_len())
    };
    assert!(drive(&mut net, 3_000_000, |_, s| declaring(s), window));
    let s = state(&net, 0).clone();
    let gone = (0..3)
        .find(|&j| s.to_act().contains(&(j as PlayerId)))
        .expect("a declarer");
    net.online[gone] = false;
    let at = net.peers[0].log_len();
    let honest: Vec<usize> = (0..3).filter(|&i| i != gone).collect();
    let until = net.now + 2_000;
    drive(&mut net, until, |_, _| false, |_| false);
    for &i in &honest {
        assert_eq!(
            net.peers[i].log_len(),
            at,
            "the battle waits on the declarer"
        );
        assert_eq!(net.peers[i].waiting_on(), vec![net.peers[gone].key()]);
    }
    let key = net.peers[gone].key();
    for &i in &honest {
        let o = net.peers[i]
            .vote(Control::Drop {
                peer: key,
                level: BotLevel::Normal,
            })
            .expect("a vote");
        net.process(i, o);
    }
    let later = |n: &Net| {
        honest
            .iter()
            .all(|&i| n.peers[i].log_len() > at + 3 || state(n, i).phase == Phase::Over)
    };
    let until = net.now + 1_000_000;
    assert!(drive(&mut net, until, |_, _| false, later));
    let h = hashes(&net, &honest);
    assert_eq!(h[0], h[1]);
}

#[test]
fn an_action_for_another_players_seat_is_void_and_its_sender_named() {
    let mut net = economy_net(3, &[], 13, 2);
    const CHEAT: usize = 2;
    // The Get phase of the first round: everyone plays at once.
    let get = |n: &Net| {
        state(n, 0).phase == Phase::Get
            && n.peers[CHEAT].economy_due().is_some()
            && (0..3).all(|j| n.peers[j].log_len() == n.peers[0].log_len())
    };
    let until = net.now + 1_000_000;
    let in_get = |i: usize, s: &EconomyState| i == CHEAT && s.phase == Phase::Get;
    assert!(drive(&mut net, until, in_get, get));
    net.autoplay[CHEAT] = false;
    let round = net.peers[0].log_len() as u32;
    // Its batch finishes seat 0's Get phase (not its own) and then its own.
    let payload = encode_economy(&[
        EconomyAction::FinishGet { player: 0 },
        EconomyAction::FinishGet { player: 2 },
    ]);
    let salt = [9; 32];
    let key = SigningKey::from_bytes(&net.configs[CHEAT].identity_secret);
    let tag = net.peers[0].game_tag().expect("started");
    let commit = Envelope::seal(
        &key,
        tag,
        1 << 50,
        &Body::OrdersCommit {
            round,
            hash: orders_commitment(round, &payload, &salt),
        },
    );
    let reveal = Envelope::seal(
        &key,
        tag,
        (1 << 50) + 1,
        &Body::OrdersReveal {
            round,
            payload,
            salt,
        },
    );
    for i in [0, 1] {
        net.inject(CHEAT, i, commit.clone());
        net.inject(CHEAT, i, reveal.clone());
    }
    let until = net.now + 5_000;
    let past = move |n: &Net| (0..2).all(|i| n.peers[i].log_len() > u64::from(round));
    assert!(drive(&mut net, until, |i, _| i == CHEAT, past));
    for i in [0, 1] {
        let r = rejections(&net, i, CHEAT);
        assert!(
            r.iter().any(|v| matches!(
                v,
                Violation::IllegalOrders { round: x, .. } if *x == round
            )),
            "{r:?}"
        );
        let (_, actions, _) = applied(&net, i)
            .into_iter()
            .find(|(x, _, _)| *x == u64::from(round))
            .expect("the position was played");
        assert!(actions.contains(&EconomyAction::FinishGet { player: 2 }));
        // Seat 0's Get phase was finished by its own player's batch only, if at all.
        let finished_0 = EconomyAction::FinishGet { player: 0 };
        assert!(actions.iter().filter(|a| **a == finished_0).count() <= 1);
    }
    assert_eq!(hashes(&net, &[0, 1])[0], hashes(&net, &[0, 1])[1]);
}

#[test]
fn a_reloaded_peer_replays_the_economy_game_and_plays_on() {
    let mut net = economy_net(3, &[BotLevel::Normal], 11, 3);
    let combat = |n: &Net| state(n, 0).phase == Phase::Combat && n.peers[0].log_len() > 10;
    let until = net.now + 1_000_000;
    assert!(drive(&mut net, until, |_, _| false, combat));
    net.reload(1, vec![]);
    let over = |n: &Net| (0..3).all(|i| state(n, i).phase == Phase::Over);
    let until = net.now + 3_000_000;
    assert!(drive(&mut net, until, |_, _| false, over), "the game ends");
    let h = hashes(&net, &[0, 1, 2]);
    assert!(h.iter().all(|x| *x == h[0]), "{h:?}");
}

#[test]
fn a_player_without_plans_in_the_planning_round_moves_nothing_and_sees_no_plan_first() {
    let mut net = economy_net(3, &[], 8, 2);
    const LATE: usize = 0;
    let planning = |n: &Net| {
        state(n, 0).phase == Phase::Planning
            && (0..3).all(|j| n.peers[j].log_len() == n.peers[0].log_len())
    };
    let until = net.now + 1_000_000;
    assert!(drive(&mut net, until, |_, _| false, planning));
    let at = net.peers[0].log_len();
    // Its player sends nothing: an empty batch (as its window would), the others their plans.
    let round = at as u32;
    let out = net.peers[LATE]
        .submit_economy(vec![], salt(LATE, round))
        .expect("an empty batch");
    net.process(LATE, out);
    let until = net.now + 5_000;
    let past = move |n: &Net| (0..3).all(|i| n.peers[i].log_len() > at);
    assert!(drive(&mut net, until, |i, _| i == LATE, past));
    for i in 0..3 {
        let s = state(&net, i);
        assert_ne!(s.phase, Phase::Planning, "planning is over in one round");
        assert!(net.complaints(i).is_empty(), "{:?}", net.complaints(i));
    }
    let (_, actions, _) = applied(&net, 1)
        .into_iter()
        .find(|(x, _, _)| *x == at)
        .expect("the planning round");
    assert!(actions.iter().any(|a| matches!(
        a,
        EconomyAction::SubmitPlans { player: 0, moves } if moves.is_empty()
    ) || matches!(a, EconomyAction::ClosePlanning { .. })));
}

/// The page's countdown is the protocol's own clock: `Peer::economy_deadline` says when the
/// window open for a silent declarer closes, and at that moment its own peer passes for it.
#[test]
fn a_declaration_windows_deadline_is_when_the_pass_comes() {
    for seed in 8..24 {
        let mut net = economy_net(3, &[], seed, 2);
        const SILENT: usize = 1;
        let silent = |i: usize, s: &EconomyState| i == SILENT && declaring(s);
        let open = |n: &Net| n.peers[SILENT].economy_deadline().is_some();
        let over = |n: &Net| (0..3).all(|i| state(n, i).phase == Phase::Over);
        assert!(drive(&mut net, 3_000_000, silent, |n| open(n) || over(n)));
        if over(&net) {
            continue; // this game gave the silent player no window
        }
        let d = net.peers[SILENT].economy_deadline().expect("open");
        let declare_ms = 8_000;
        assert!(
            d > net.now && d <= net.now + declare_ms,
            "{d} vs {}",
            net.now
        );
        let len = net.peers[SILENT].log_len();
        // Just before the deadline the window is still open; just after it, the pass is in.
        assert!(drive(&mut net, d - 30, silent, |n| n.now >= d - 30));
        assert_eq!(
            net.peers[SILENT].log_len(),
            len,
            "nothing moved before the deadline"
        );
        assert!(net.peers[SILENT].economy_deadline().is_some());
        assert!(drive(&mut net, d + 200, silent, |n| n.now >= d + 100));
        assert_ne!(
            net.peers[SILENT].economy_deadline(),
            Some(d),
            "the window closed at its deadline"
        );
        return;
    }
    panic!("no game gave the silent player a declaration window");
}
