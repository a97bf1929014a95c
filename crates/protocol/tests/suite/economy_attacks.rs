//! Attacks on the economy ruleset's rounds (independent review of issue 29): a participant that
//! splits its commitments between peers, one that sends empty batches, oversized batches, and
//! an honest player whose move an earlier seat's action made impossible. Each test performs the
//! attack and checks what the honest peers do.

use crate::common;

use common::economy::*;
use common::Net;
use ed25519_dalek::SigningKey;
use orbis_engine::bot;
use orbis_engine::classic::{BotLevel, PlayerId};
use orbis_engine::rules::economy::action::EconomyAction;
use orbis_engine::rules::economy::phase::Phase;
use orbis_engine::rules::economy::state::EconomyState;
use orbis_protocol::peer::{game_hash, replay, verify, VerifyError};
use orbis_protocol::wire::{encode_economy, orders_commitment};
use orbis_protocol::{Body, Envelope, HaltReport, Peer, Violation, MAX_BATCH_ACTIONS};

/// A participant sends one peer another signed commitment (and the reveal that opens it) for a
/// round than the others get: two validly signed commitments of one sender for one round are
/// proof of equivocation. Every honest peer halts naming it (with both as evidence), never the
/// other honest peer, their logs agree up to the round, and their transcripts name the cheater.
#[test]
fn split_commitments_halt_every_honest_peer_naming_the_sender() {
    let mut net = economy_net(3, &[], 13, 2);
    const CHEAT: usize = 2;
    const VICTIM: usize = 0;
    let get = |n: &Net| {
        state(n, 0).phase == Phase::Get
            && n.peers[CHEAT].economy_due().is_some()
            && (0..3).all(|j| n.peers[j].log_len() == n.peers[0].log_len())
    };
    let until = net.now + 1_000_000;
    let in_get = |i: usize, s: &EconomyState| i == CHEAT && s.phase == Phase::Get;
    assert!(drive(&mut net, until, in_get, get));
    let round = net.peers[0].log_len() as u32;
    let key = SigningKey::from_bytes(&net.configs[CHEAT].identity_secret);
    let me = net.peers[CHEAT].key();
    // The victim gets another batch (empty) under the same sequence numbers.
    let other = encode_economy(&[]);
    let other_salt = [0xee; 32];
    net.tamper = Some((
        CHEAT,
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
    let until = net.now + 30_000;
    drive(
        &mut net,
        until,
        |_, _| false,
        |n| (0..2).all(|i| n.peers[i].halted().is_some()),
    );
    let honest = [0, 1];
    for i in honest {
        match net.peers[i].halted() {
            Some(HaltReport::Equivocation {
                peer, agreed_index, ..
            }) => {
                assert_eq!(*peer, me, "peer {i} names the cheater");
                assert!(*agreed_index <= u64::from(round));
            }
            h => panic!("peer {i}: {h:?} (complaints {:?})", net.complaints(i)),
        }
        let t = net.peers[i].transcript().expect("a transcript");
        match verify(&t) {
            Err(VerifyError::Cheat { peer: Some(k), .. }) => assert_eq!(k, me),
            r => panic!("peer {i}'s transcript: {r:?}"),
        }
        // The replay screen shows the halted game as far as it went, with the same verdict.
        let rp = replay(&t).expect("a halted game's transcript replays");
        assert!(
            matches!(rp.verdict, Err(VerifyError::Cheat { peer: Some(k), .. }) if k == me),
            "{:?}",
            rp.verdict
        );
        assert_eq!(rp.states.len() as u64, net.peers[i].log_len() + 1);
        assert_eq!(
            Some(game_hash(rp.states.last().unwrap())),
            net.peers[i].state_hash(),
            "the replay stops where the game did"
        );
    }
    only_culprit(&net, &honest, CHEAT);
    let at = u64::from(round);
    assert_eq!(net.peers[0].head_at(at), net.peers[1].head_at(at));
}

/// Whether a declaration window (or an interception question) is open at peer 0 that some
/// declarer already answered while `who`'s seat is still awaited: `who` would answer after
/// seeing that answer.
fn answered_before(net: &Net, who: usize) -> bool {
    let s = state(net, 0);
    let seat = who as PlayerId;
    if !s.to_act().contains(&seat) {
        return false;
    }
    let Some(b) = s.combat.as_ref().and_then(|c| c.battle.as_ref()) else {
        return false;
    };
    match &b.pending {
        Some(w) => !w.answers.is_empty(),
        None => !s.waiting_for_choice() && !b.declared.is_empty(),
    }
}

/// Plays a game in which `cheat`'s player sends an empty batch whenever it is awaited in a
/// state where `empty` holds (else the computer's choice, as the others); until the game ends or
/// `limit`. Returns the network, whether the game ended, how often the cheater was awaited in a
/// window another declarer had answered, and whether it was passed in some window.
fn empty_batches(
    seed: u64,
    cheat: usize,
    limit: u64,
    empty: impl Fn(&EconomyState) -> bool,
) -> (Net, bool, u32, bool) {
    let mut net = economy_net(3, &[], seed, 2);
    let mut late = 0;
    let over = |n: &Net| (0..3).all(|i| state(n, i).phase == Phase::Over);
    while net.now < limit && !over(&net) {
        for i in 0..3 {
            let Some((round, seats)) = net.peers[i].economy_due() else {
                continue;
            };
            let s = state(&net, i).clone();
            let batch: Vec<EconomyAction> = if i == cheat && empty(&s) {
                vec![]
            } else {
                seats
                    .iter()
                    .filter_map(|&seat| bot::economy::choose(&s, seat, BotLevel::Normal))
                    .collect()
            };
            let out = net.peers[i]
                .submit_economy(batch, salt(i, round))
                .expect("a batch");
            net.process(i, out);
        }
        net.run_until(net.now + 25, |n| {
            late += u32::from(answered_before(n, cheat));
            false
        });
    }
    let seat = cheat as PlayerId;
    let passed = applied(&net, 0).iter().flat_map(|(_, a, _)| a).any(|a| {
        matches!(a, EconomyAction::Declare { player, action: None } if *player == seat)
            || matches!(a, EconomyAction::Intercept { player, yes: false } if *player == seat)
    });
    let ended = over(&net);
    (net, ended, late, passed)
}

fn ends_alike(net: &Net, seed: u64, ended: bool, late: u32) {
    assert!(
        ended,
        "seed {seed}: the game ends (log {})",
        net.peers[0].log_len()
    );
    assert_eq!(late, 0, "seed {seed}: the cheater answered a window late");
    let h = hashes(net, &[0, 1, 2]);
    assert!(h.iter().all(|x| *x == h[0]), "{h:?}");
    for i in 0..3 {
        assert!(net.complaints(i).is_empty(), "{:?}", net.complaints(i));
    }
}

/// A participant that sends an empty batch at every position it is awaited: before, its seat
/// stayed awaited, so the game never left the setup or its Get phase (a new position each time,
/// the wait clock starting again, nobody named), and in a declaration window it answered at the
/// next position, after seeing the others' declarations. Now every seat its batch leaves without
/// a move makes the engine's default move at that position (pass, no interception, finish the
/// Get phase or movement, stop moving on, the easy computer's pick; empty plans): the game ends
/// with equal hashes, and the cheater never answers a window late (it plays the computer's
/// choice outside the battles in the second part, so that it has armies to fight with).
#[test]
fn empty_batches_forever_neither_stall_the_game_nor_answer_a_window_late() {
    const CHEAT: usize = 1;
    let (net, ended, late, _) = empty_batches(8, CHEAT, 600_000, |_| true);
    ends_alike(&net, 8, ended, late);
    for seed in 8..24 {
        let (net, ended, late, passed) =
            empty_batches(seed, CHEAT, 600_000, |s| s.phase == Phase::Combat);
        ends_alike(&net, seed, ended, late);
        if passed {
            return;
        }
    }
    panic!("no game gave the cheater a declaration window");
}

/// Commits `batch` for peer `i`'s seats at the current position.
fn submit(net: &mut Net, i: usize, batch: Vec<EconomyAction>) {
    let (round, _) = net.peers[i].economy_due().expect("awaited");
    let out = net.peers[i]
        .submit_economy(batch, salt(i, round))
        .expect("a batch");
    net.process(i, out);
}

/// Runs to the first position of a Get phase, every peer there and awaited.
fn to_get_phase(seed: u64) -> Net {
    let mut net = economy_net(3, &[], seed, 2);
    let get = |n: &Net| {
        state(n, 0).phase == Phase::Get
            && (0..3).all(|j| {
                n.peers[j].log_len() == n.peers[0].log_len() && n.peers[j].economy_due().is_some()
            })
    };
    let until = net.now + 1_000_000;
    assert!(drive(&mut net, until, |_, s| s.phase == Phase::Get, get));
    net
}

/// Runs until every peer applied position `at`.
fn past(net: &mut Net, at: u64) {
    let until = net.now + 5_000;
    assert!(net.run_until(until, |n| (0..3).all(|i| n.peers[i].log_len() > at)));
}

/// Seats 0 and 1 are allies; at the same position both end the alliance. Seat 0's break is
/// applied first (seat order), so seat 1's, legal when it was sent, finds no alliance. Before,
/// seat 1's player was named for it (`IllegalOrders`); now an action that was legal against the
/// position's start state with its sender's batch alone, and refused only because an earlier
/// action of the position changed the state, is skipped without naming anyone.
#[test]
fn an_action_an_earlier_seat_made_impossible_is_skipped_without_naming_its_sender() {
    let mut net = to_get_phase(13);
    let at = net.peers[0].log_len();
    submit(
        &mut net,
        0,
        vec![EconomyAction::OfferAlliance { player: 0, with: 1 }],
    );
    submit(
        &mut net,
        1,
        vec![EconomyAction::OfferAlliance { player: 1, with: 0 }],
    );
    submit(&mut net, 2, vec![]);
    past(&mut net, at);
    assert!(state(&net, 0).friends(0, 1), "seats 0 and 1 are allies");
    let at = net.peers[0].log_len();
    submit(
        &mut net,
        0,
        vec![EconomyAction::BreakAlliance { player: 0, with: 1 }],
    );
    submit(
        &mut net,
        1,
        vec![EconomyAction::BreakAlliance { player: 1, with: 0 }],
    );
    if net.peers[2].economy_due().is_some() {
        submit(&mut net, 2, vec![]);
    }
    past(&mut net, at);
    for i in 0..3 {
        assert!(!state(&net, i).friends(0, 1), "the alliance is over");
        assert!(
            net.complaints(i).is_empty(),
            "peer {i}: {:?}",
            net.complaints(i)
        );
    }
    let h = hashes(&net, &[0, 1, 2]);
    assert!(h.iter().all(|x| *x == h[0]), "{h:?}");
}

/// A batch of more actions than `MAX_BATCH_ACTIONS` (here an alliance offered and withdrawn
/// over and over, each legal): before, every peer applied all of them (a cost the sender chose,
/// at every position). Now the batch is void, its sender named, and its seat makes the default
/// move of the step (the end of its Get phase).
#[test]
fn a_batch_over_the_cap_is_void_and_its_sender_named() {
    const CHEAT: usize = 2;
    let mut net = to_get_phase(13);
    let at = net.peers[0].log_len();
    let flood: Vec<EconomyAction> = (0..MAX_BATCH_ACTIONS + 1)
        .map(|k| match k % 2 {
            0 => EconomyAction::OfferAlliance { player: 2, with: 0 },
            _ => EconomyAction::BreakAlliance { player: 2, with: 0 },
        })
        .collect();
    let out = net.peers[CHEAT]
        .commit_orders(at as u32, encode_economy(&flood), salt(CHEAT, at as u32))
        .expect("within the payload's size");
    net.process(CHEAT, out);
    submit(&mut net, 0, vec![EconomyAction::FinishGet { player: 0 }]);
    submit(&mut net, 1, vec![EconomyAction::FinishGet { player: 1 }]);
    past(&mut net, at);
    for i in [0, 1] {
        let r = rejections(&net, i, CHEAT);
        assert!(
            r.iter().any(|v| matches!(
                v,
                Violation::IllegalOrders { round, error }
                    if u64::from(*round) == at && error.contains("actions")
            )),
            "{r:?}"
        );
        let (_, actions, _) = applied(&net, i)
            .into_iter()
            .find(|(x, _, _)| *x == at)
            .expect("the position was played");
        assert!(
            !actions
                .iter()
                .any(|a| a.player() == 2 && !matches!(a, EconomyAction::FinishGet { .. })),
            "{actions:?}"
        );
    }
    let h = hashes(&net, &[0, 1]);
    assert_eq!(h[0], h[1]);
}

/// A computer seat awaited at the same position as players used to choose from the position's
/// state with randomness from the game seed and the step counter: any player could compute its
/// move before committing (here: `bot::economy::choose` on the state the position began with),
/// and answer it. Its randomness now comes from the revealed payloads, known to nobody before
/// every commitment is in: over a game, the easy computer's moves differ from that forecast.
#[test]
fn a_computer_seats_move_cannot_be_foreseen_before_the_commitments() {
    let mut net = economy_net(2, &[BotLevel::Easy], 19, 2);
    const BOT: PlayerId = 2;
    let over = |n: &Net| (0..2).all(|i| state(n, i).phase == Phase::Over);
    let mut forecasts: Vec<(u64, EconomyAction)> = vec![];
    while net.now < 3_000_000 && !over(&net) {
        for i in 0..2 {
            let Some((round, seats)) = net.peers[i].economy_due() else {
                continue;
            };
            let s = state(&net, i).clone();
            if i == 0 && s.to_act().contains(&BOT) {
                if let Some(a) = bot::economy::choose(&s, BOT, BotLevel::Easy) {
                    forecasts.push((u64::from(round), a));
                }
            }
            let batch = seats
                .iter()
                .filter_map(|&seat| bot::economy::choose(&s, seat, BotLevel::Normal))
                .collect();
            let out = net.peers[i]
                .submit_economy(batch, salt(i, round))
                .expect("a batch");
            net.process(i, out);
        }
        net.run_until(net.now + 25, |_| false);
    }
    assert!(over(&net), "the game ends");
    let played = applied(&net, 0);
    let mut compared = 0;
    let mut foreseen = 0;
    for (at, forecast) in &forecasts {
        let Some((_, actions, _)) = played.iter().find(|(x, _, _)| x == at) else {
            continue;
        };
        let Some(actual) = actions.iter().find(|a| a.player() == BOT) else {
            continue;
        };
        compared += 1;
        foreseen += u32::from(actual == forecast);
    }
    assert!(compared > 0, "the computer seat moved beside the players");
    assert!(
        foreseen < compared,
        "all {compared} of the computer's moves were foreseen"
    );
    let h = hashes(&net, &[0, 1]);
    assert_eq!(h[0], h[1]);
}
