//! Holding a step of many actions (issue 29, left open by the last review): a player that, at
//! every position of its Get phase, sends moves the engine takes that change nothing lasting
//! (an alliance offered and withdrawn) was never late and never without a move, so the step
//! never ended. Now a seat awaited at `MAX_STEP_POSITIONS` positions of one step of many
//! actions has its next batch voided, is named (`StepHeld`) and makes the step's default move.
//! Each test performs an attack on simulated peers and checks what the honest peers do (the
//! hold; a holder of two seats with a peer reloaded midway; the default the cap relies on, for a
//! seat whose upkeep is due); one measures how many positions honest seats spend in a step.

use crate::common;

use common::economy::*;
use common::Net;
use orbis_engine::bot;
use orbis_engine::classic::{BotLevel, Colour, PlayerId};
use orbis_engine::rules::economy::action::EconomyAction;
use orbis_engine::rules::economy::phase::Phase;
use orbis_engine::rules::economy::state::EconomyState;
use orbis_engine::rules::Game;
use orbis_protocol::peer::VerifyError;
use orbis_protocol::{Controller, SeatSpec, Violation, MAX_STEP_POSITIONS as CAP};

/// A batch for `seat` that changes nothing lasting, when it has one: an alliance offered to
/// another player and withdrawn at once (both legal in the Get phase).
fn undoing(s: &EconomyState, seat: PlayerId) -> Option<Vec<EconomyAction>> {
    s.playing().filter(|&q| q != seat).find_map(|with| {
        let b = vec![
            EconomyAction::OfferAlliance { player: seat, with },
            EconomyAction::BreakAlliance { player: seat, with },
        ];
        let mut t = s.clone();
        b.iter().all(|a| t.apply(a).is_ok()).then_some(b)
    })
}

fn over(net: &Net) -> bool {
    (0..net.peers.len())
        .all(|i| matches!(net.peers[i].game(), Some(Game::Economy(s)) if s.phase == Phase::Over))
}

/// Plays a game in which participant `cheat` holds every Get phase: for each of its seats
/// awaited there it sends an alliance offered and withdrawn (`undoing`), elsewhere the
/// computer's choice, as everyone else does (one action per seat and position). Runs until the
/// game ends, `limit` simulated ms or `max_len` positions; `each` is called at every loop.
/// True when the game ended.
fn hold(
    net: &mut Net,
    cheat: usize,
    level: BotLevel,
    limit: u64,
    max_len: u64,
    mut each: impl FnMut(&mut Net),
) -> bool {
    while net.now < limit && !over(net) && net.peers[0].log_len() < max_len {
        each(net);
        for i in 0..net.peers.len() {
            let Some((round, seats)) = net.peers[i].economy_due() else {
                continue;
            };
            let s = state(net, i).clone();
            let batch: Vec<EconomyAction> = seats
                .iter()
                .flat_map(
                    |&seat| match (i == cheat && s.phase == Phase::Get, undoing(&s, seat)) {
                        (true, Some(b)) => b,
                        _ => bot::economy::choose(&s, seat, level).into_iter().collect(),
                    },
                )
                .collect();
            match net.peers[i].submit_economy(batch.clone(), salt(i, round)) {
                Ok(out) => net.process(i, out),
                Err(e) => panic!("peer {i} could not play {batch:?}: {e}"),
            }
        }
        net.run_until(net.now + 25, |_| false);
    }
    over(net)
}

/// The `StepHeld` complaints peer `i` made about participant `by`: (round, seat).
fn held_named(net: &Net, i: usize, by: usize) -> Vec<(u32, PlayerId)> {
    rejections(net, i, by)
        .into_iter()
        .filter_map(|v| match v {
            Violation::StepHeld {
                round,
                seat,
                positions,
            } => {
                assert_eq!(positions, CAP);
                Some((round, seat))
            }
            _ => None,
        })
        .collect()
}

/// The attack: a player sends, at every position of its Get phase, an alliance offered and
/// withdrawn (two legal actions, so its seat moved and no default applies; it answers at once,
/// so no wait clock or vote catches it). Before, the game never left that Get phase: the
/// honest peers' log grew by a position every few milliseconds (a thousand positions, the
/// economy state still in the Get phase of round 1, the holder's seat awaited at 997 of them).
/// Now a seat is awaited at no more than `MAX_STEP_POSITIONS` + 1 positions of a step: at the
/// next position after the cap its batch is void, its player named (`StepHeld`, by every honest
/// peer, nobody else named) and it makes the step's default move (`FinishGet`). The game ends
/// with equal hashes, the holder cut in every Get phase it held.
#[test]
fn holding_the_get_phase_with_moves_that_undo_themselves_is_cut_off_at_the_cap() {
    const CHEAT: usize = 2;
    let mut net = economy_net(3, &[], 13, 2);
    let ended = hold(&mut net, CHEAT, BotLevel::Normal, 3_000_000, 1_000, |_| {});
    let at = net.peers[0].log_len();
    let s = state(&net, 0);
    assert!(
        ended,
        "the game ends (log {at}, still {:?} of round {})",
        s.phase, s.round
    );
    let held = step_positions(&net, 0);
    eprintln!("positions per (seat, round, step): {held:?}");
    let cheat = CHEAT as PlayerId;
    let gets: Vec<(u32, u32)> = held
        .iter()
        .filter(|((seat, _, step), _)| *seat == cheat && *step == "Get")
        .map(|((_, round, _), n)| (*round, *n))
        .collect();
    assert!(!gets.is_empty(), "the holder had a Get phase");
    assert!(gets.iter().all(|&(_, n)| n == CAP + 1), "{gets:?}");
    for ((seat, _, _), n) in &held {
        if *seat != cheat {
            assert!(*n < CAP / 4, "an honest seat spent {n} positions in a step");
        }
    }
    let honest = [0, 1];
    for i in honest {
        let named = held_named(&net, i, CHEAT);
        let expected: Vec<(u32, PlayerId)> = gets.iter().map(|&(r, _)| (r, cheat)).collect();
        assert_eq!(named.len(), expected.len(), "peer {i}: {named:?}");
        assert!(named.iter().all(|&(_, seat)| seat == cheat));
    }
    only_culprit(&net, &honest, CHEAT);
    let h = hashes(&net, &[0, 1, 2]);
    assert!(h.iter().all(|x| *x == h[0]), "{h:?}");
    // Offline, the transcript names the holder as the live peers did (the cap is counted
    // from the log alone).
    let t = net.peers[1].transcript().expect("a transcript");
    let key = net.peers[CHEAT].key();
    match orbis_protocol::peer::verify(&t) {
        Err(VerifyError::Message { what, .. }) => {
            assert!(what.contains(&format!("signed by {key}")), "{what}");
            assert!(what.contains("held seat 2's step"), "{what}");
        }
        r => panic!("the transcript: {r:?}"),
    }
}

/// From a second angle: a participant that plays two seats holds its Get phase with both, a
/// computer seat is awaited beside them, and an honest peer reloads in the middle of the hold
/// (it rebuilds everything from the others' resends). The two seats do not add up (each is
/// counted, and cut, on its own, at the same position: the phase lasts `MAX_STEP_POSITIONS` + 1
/// positions, not twice that); the computer seat, which moves once per position as the protocol
/// computes it, is neither cut nor named; and the reloaded peer, which counted the positions
/// again from the replayed log, cuts the holder at the very same position (equal hashes, both
/// seats named by it too).
#[test]
fn a_holder_of_two_seats_is_cut_alike_by_every_peer_one_reloaded_midway() {
    const CHEAT: usize = 2;
    const RELOADED: usize = 0;
    let mut net = Net::new(3, 29, common::NetParams::perfect());
    let mut p = economy_proposal(&net, &[BotLevel::Normal], 2);
    p.seats.insert(
        3,
        SeatSpec {
            name: "P2b".into(),
            colour: Colour::ALL[4],
            controller: Controller::Peer(CHEAT as u8),
        },
    );
    net.start(p);
    assert!(net.run_until(100_000, |n| n.peers.iter().all(|p| p.game().is_some())));
    let mut first_get: Option<u64> = None;
    let mut reloaded_at = None;
    let ended = hold(&mut net, CHEAT, BotLevel::Normal, 3_000_000, 2_000, |n| {
        let len = n.peers[1].log_len();
        if state(n, 1).phase == Phase::Get && first_get.is_none() {
            first_get = Some(len);
        }
        if let (Some(f), None) = (first_get, reloaded_at) {
            if len >= f + u64::from(CAP / 2) {
                n.reload(RELOADED, vec![]);
                reloaded_at = Some(len);
            }
        }
    });
    assert!(ended, "the game ends (log {})", net.peers[1].log_len());
    assert!(
        reloaded_at.is_some(),
        "peer {RELOADED} reloaded during the hold"
    );
    let held = step_positions(&net, 1);
    eprintln!("positions per (seat, round, step): {held:?}");
    let gets: Vec<((PlayerId, u32), u32)> = held
        .iter()
        .filter(|((seat, _, step), _)| (*seat == 2 || *seat == 3) && *step == "Get")
        .map(|((seat, round, _), n)| ((*seat, *round), *n))
        .collect();
    assert!(gets.len() >= 2, "{gets:?}");
    assert!(gets.iter().all(|&(_, n)| n == CAP + 1), "{gets:?}");
    // The Get phase of round 1 lasted as long as one seat's hold.
    assert!(first_get.is_some(), "a Get phase");
    let t = net.peers[1].transcript().expect("a transcript");
    let r = orbis_protocol::peer::replay(&t).expect("replays");
    let get_len = r.states[..r.states.len() - 1]
        .iter()
        .filter(|g| matches!(g, Game::Economy(s) if s.phase == Phase::Get && s.round == 1))
        .count() as u32;
    assert_eq!(get_len, CAP + 1, "the Get phase of round 1");
    for ((seat, _, _), n) in &held {
        if *seat != 2 && *seat != 3 {
            assert!(*n < CAP / 4, "seat {seat} spent {n} positions in a step");
        }
    }
    // Both seats named at the same position of each Get phase held, by every honest peer: the
    // reloaded one names them again as it replays the log.
    let named = held_named(&net, 1, CHEAT);
    assert_eq!(named.len(), gets.len(), "{named:?}");
    for pair in named.chunks(2) {
        assert_eq!(pair.len(), 2, "{named:?}");
        assert_eq!(pair[0].0, pair[1].0, "{named:?}");
        assert_eq!((pair[0].1, pair[1].1), (2, 3), "{named:?}");
    }
    assert_eq!(held_named(&net, RELOADED, CHEAT), named);
    only_culprit(&net, &[0, 1], CHEAT);
    let h = hashes(&net, &[0, 1, 2]);
    assert!(h.iter().all(|x| *x == h[0]), "{h:?}");
}

/// The default the cap relies on: a seat whose upkeep is due cannot finish its Get phase
/// (`FinishGet` needs the upkeep settled), so an empty batch (or a held seat cut at the cap)
/// left it awaited, position after position: the default of the Get phase is now the upkeep
/// settled the plain way (`plain_settlement`: paid where the money reaches, else the units
/// owed given up), then `FinishGet`.
#[test]
fn a_seat_with_upkeep_due_that_sends_nothing_still_finishes_its_get_phase() {
    const SILENT: usize = 1;
    let seat = SILENT as PlayerId;
    for seed in 30..50 {
        let mut net = economy_net(3, &[], seed, 4);
        let due = |n: &Net| {
            let s = state(n, 0);
            s.phase == Phase::Get
                && !s.get[SILENT].settled
                && s.to_act().contains(&seat)
                && (0..3).all(|j| n.peers[j].log_len() == n.peers[0].log_len())
                && n.peers[SILENT].economy_due().is_some()
        };
        let over = |n: &Net| (0..3).all(|i| state(n, i).phase == Phase::Over);
        let until = net.now + 3_000_000;
        let skip = |i: usize, s: &EconomyState| {
            i == SILENT && s.phase == Phase::Get && !s.get[SILENT].settled
        };
        assert!(drive(&mut net, until, skip, |n| due(n) || over(n)));
        if over(&net) {
            continue; // no upkeep came due for the silent seat in this game
        }
        let at = net.peers[0].log_len();
        let (round, _) = net.peers[SILENT].economy_due().expect("awaited");
        let out = net.peers[SILENT]
            .submit_economy(vec![], salt(SILENT, round))
            .expect("an empty batch");
        net.process(SILENT, out);
        let until = net.now + 5_000;
        let past = move |n: &Net| (0..3).all(|i| n.peers[i].log_len() > at);
        assert!(drive(&mut net, until, skip, past));
        let (_, actions, _) = applied(&net, 0)
            .into_iter()
            .find(|(x, _, _)| *x == at)
            .expect("the position was played");
        assert!(
            actions.iter().any(
                |a| matches!(a, EconomyAction::SettleUpkeep { player, .. } if *player == seat)
            ) && actions.contains(&EconomyAction::FinishGet { player: seat }),
            "{actions:?}"
        );
        for i in 0..3 {
            let s = state(&net, i);
            assert!(s.phase != Phase::Get || !s.to_act().contains(&seat));
            assert!(net.complaints(i).is_empty(), "{:?}", net.complaints(i));
        }
        return;
    }
    panic!("no game had upkeep due for the silent seat");
}

/// How many positions honest seats spend in one step of many actions, in whole games between
/// computer players on the simulated network: the players' seats send one action per seat and
/// position (the slowest pace an honest page has: a page sends a step's choices as one batch,
/// cut only where a die rolls), the computer seats act once per position as the protocol
/// computes them. Prints the largest count per step and per kind of seat; the cap is far above.
#[test]
fn honest_seats_spend_few_positions_in_a_step() {
    let games: Vec<(usize, Vec<BotLevel>, BotLevel, u64, u32)> = vec![
        (3, vec![BotLevel::Normal], BotLevel::Normal, 11, 3),
        (
            2,
            vec![BotLevel::Easy, BotLevel::Hard],
            BotLevel::Hard,
            5,
            6,
        ),
        (3, vec![BotLevel::Hard], BotLevel::Hard, 7, 6),
        (
            2,
            vec![BotLevel::Normal, BotLevel::Normal],
            BotLevel::Easy,
            9,
            6,
        ),
        (4, vec![], BotLevel::Hard, 21, 8),
        (
            2,
            vec![BotLevel::Hard, BotLevel::Hard],
            BotLevel::Normal,
            23,
            8,
        ),
    ];
    let mut most: std::collections::BTreeMap<(&str, &str), u32> = Default::default();
    for (peers, bots, level, seed, rounds) in games {
        let mut net = economy_net(peers, &bots, seed, rounds);
        assert!(
            hold(&mut net, usize::MAX, level, 20_000_000, 100_000, |_| {}),
            "game {seed} ends"
        );
        let len = net.peers[0].log_len();
        let mut game_most = 0;
        for ((seat, _, step), n) in step_positions(&net, 0) {
            let who = if (seat as usize) < peers {
                "player"
            } else {
                "computer"
            };
            let m = most.entry((step, who)).or_insert(0);
            *m = (*m).max(n);
            game_most = game_most.max(n);
        }
        eprintln!("game {seed}: {peers} players ({level:?}), computers {bots:?}, {rounds} rounds: {len} positions, at most {game_most} positions of one seat in one step");
        for i in 0..peers {
            assert!(net.complaints(i).is_empty(), "{:?}", net.complaints(i));
        }
    }
    eprintln!("largest positions per seat and step: {most:?} (cap {CAP})");
    assert!(most.values().all(|&n| n * 4 <= CAP), "{most:?}");
}
