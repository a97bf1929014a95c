//! The economy ruleset on the simulated network: a room's proposal, a driver that plays every
//! awaited seat with the computer's choice, and what tests read back (shared by `tests/economy.rs`,
//! `tests/economy_attacks.rs`, `tests/economy_hold.rs` and the adversary harness), and the
//! vote tests' common start: every peer due at one position, then a target falls silent.

use super::{Net, NetParams};
use orbis_engine::bot;
use orbis_engine::classic::{BotLevel, ClassicOptions, Colour, PlayerId, Slot};
use orbis_engine::rules::economy::action::{EconomyAction, EconomyEvent};
use orbis_engine::rules::economy::options::EconomyOptions;
use orbis_engine::rules::economy::phase::Phase;
use orbis_engine::rules::economy::state::EconomyState;
use orbis_engine::rules::Game;
use orbis_protocol::wire::Envelope;
use orbis_protocol::{
    Body, Control, Controller, HaltReport, ProtocolEvent, SeatSpec, SetupProposal, Violation,
};
use std::collections::BTreeMap;

/// An economy proposal for `net`'s peers on the first seats, computer seats of `bots` after
/// them; a game of `rounds` rounds.
pub fn economy_proposal(net: &Net, bots: &[BotLevel], rounds: u32) -> SetupProposal {
    let n_peers = net.peers.len();
    let mut seats: Vec<SeatSpec> = (0..n_peers)
        .map(|i| SeatSpec {
            name: format!("P{i}"),
            colour: Colour::ALL[i],
            controller: Controller::Peer(i as u8),
        })
        .collect();
    for (b, level) in bots.iter().enumerate() {
        seats.push(SeatSpec {
            name: format!("Bot{b}"),
            colour: Colour::ALL[n_peers + b],
            controller: Controller::Bot(*level),
        });
    }
    let options = EconomyOptions {
        round_limit: Some(rounds),
        ..EconomyOptions::default()
    };
    SetupProposal {
        participants: net.keys(),
        seats,
        options: ClassicOptions::default(),
        orders: None,
        economy: Some(options),
        face_down: false,
        stand_in: true,
        nonce: 3,
        clock: None,
    }
}

/// Peers on the first seats, computer seats of `bots` after them; a game of `rounds` rounds.
pub fn economy_net(n_peers: usize, bots: &[BotLevel], seed: u64, rounds: u32) -> Net {
    economy_net_on(n_peers, bots, seed, rounds, NetParams::perfect())
}

/// As [`economy_net`], with the influence cards dealt face down.
pub fn economy_net_face_down(n_peers: usize, bots: &[BotLevel], seed: u64, rounds: u32) -> Net {
    let mut net = Net::new(n_peers, seed, NetParams::perfect());
    let mut p = economy_proposal(&net, bots, rounds);
    p.face_down = true;
    net.start(p);
    assert!(net.run_until(100_000, |n| n.peers.iter().all(|p| p.game().is_some())));
    net
}

/// Participant `who` is awaited in the Get phase holding a face-down card it can read.
pub fn holding(n: &Net, who: usize) -> bool {
    let s = state(n, who);
    n.peers[who].economy_due().is_some()
        && s.phase == Phase::Get
        && s.players[who]
            .sealed
            .iter()
            .any(|x| n.peers[who].read(*x).is_some())
}

/// Plays (every peer the computer's choice) until [`holding`]; returns that card: its slot and
/// the card behind it.
pub fn until_holding(net: &mut Net, who: usize) -> (Slot, u8) {
    let until = net.now + 4_000_000;
    assert!(
        drive(net, until, |_, _| false, |n| holding(n, who)),
        "participant {who} comes to hold a card"
    );
    let s = state(net, who);
    let slot = *s.players[who]
        .sealed
        .iter()
        .find(|x| net.peers[who].read(**x).is_some())
        .expect("a card it reads");
    (slot, net.peers[who].read(slot).expect("read"))
}

pub fn economy_net_on(
    n_peers: usize,
    bots: &[BotLevel],
    seed: u64,
    rounds: u32,
    params: NetParams,
) -> Net {
    let mut net = Net::new(n_peers, seed, params);
    let p = economy_proposal(&net, bots, rounds);
    net.start(p);
    assert!(net.run_until(100_000, |n| n.peers.iter().all(|p| p.game().is_some())));
    net
}

pub fn state(net: &Net, i: usize) -> &EconomyState {
    match net.peers[i].game() {
        Some(Game::Economy(s)) => s,
        _ => panic!("peer {i} has no economy game"),
    }
}

/// Peer `i` commits the computer's batch for the seats it owes at the current position (it must
/// be due there).
pub fn submit_as_bot(net: &mut Net, i: usize) {
    let (round, seats) = net.peers[i].economy_due().expect("due");
    let s = net.peers[i].economy_view().expect("view");
    let batch = seats
        .iter()
        .filter_map(|&seat| bot::economy::choose(&s, seat, BotLevel::Normal))
        .collect();
    let o = net.peers[i]
        .submit_economy(batch, salt(i, round))
        .expect("submits");
    net.process(i, o);
}

pub fn salt(i: usize, round: u32) -> [u8; 32] {
    let mut s = [i as u8 ^ 0x5a; 32];
    s[..4].copy_from_slice(&round.to_le_bytes());
    s
}

/// A declaration window (after a roll, or an interception question) is open.
pub fn declaring(s: &EconomyState) -> bool {
    let b = s.combat.as_ref().and_then(|c| c.battle.as_ref());
    s.phase == Phase::Combat && b.is_some_and(|b| b.pending.is_some() || !s.waiting_for_choice())
}

/// Plays the game: every online peer whose seats are awaited submits the computer's choice for
/// them (one action per seat and position), unless `skip(peer, state)`; until `done` or the
/// time limit.
pub fn drive(
    net: &mut Net,
    limit_ms: u64,
    skip: impl Fn(usize, &EconomyState) -> bool,
    done: impl Fn(&Net) -> bool,
) -> bool {
    while net.now < limit_ms {
        if done(net) {
            return true;
        }
        for i in 0..net.peers.len() {
            if !net.online[i] || !net.autoplay[i] {
                continue;
            }
            let Some((round, seats)) = net.peers[i].economy_due() else {
                continue;
            };
            // The peer's own view: its face-down cards turned face up (the state, when nothing
            // is dealt face down).
            let Some(s) = net.peers[i].economy_view() else {
                continue;
            };
            if skip(i, &s) {
                continue;
            }
            let batch: Vec<EconomyAction> = seats
                .iter()
                .filter_map(|&seat| bot::economy::choose(&s, seat, BotLevel::Normal))
                .collect();
            match net.peers[i].submit_economy(batch.clone(), salt(i, round)) {
                Ok(out) => net.process(i, out),
                Err(e) => panic!("peer {i} could not play {batch:?}: {e}"),
            }
        }
        net.run_until(net.now + 25, |_| false);
    }
    done(net)
}

pub fn applied(net: &Net, i: usize) -> Vec<(u64, Vec<EconomyAction>, Vec<EconomyEvent>)> {
    net.events[i]
        .iter()
        .filter_map(|e| match e {
            ProtocolEvent::EconomyApplied {
                index,
                actions,
                events,
            } => Some((*index, actions.clone(), events.clone())),
            _ => None,
        })
        .collect()
}

pub fn hashes(net: &Net, who: &[usize]) -> Vec<String> {
    who.iter()
        .map(|&i| net.peers[i].game().expect("a game").state_hash().to_hex())
        .collect()
}

pub fn rejections(net: &Net, i: usize, by: usize) -> Vec<Violation> {
    let key = net.peers[by].key();
    net.events[i]
        .iter()
        .filter_map(|e| match e {
            ProtocolEvent::Rejected {
                peer: Some(p),
                violation,
                ..
            } if *p == key => Some(violation.clone()),
            _ => None,
        })
        .collect()
}

pub fn rolled(net: &Net, i: usize) -> bool {
    applied(net, i).iter().any(|(_, _, ev)| {
        ev.iter()
            .any(|e| matches!(e, EconomyEvent::BattleRoll { .. }))
    })
}

/// The step of many actions `s` waits in, if any (the only steps a seat can be awaited in at
/// position after position by moving): the Get phase, friendly movement, moving on.
pub fn open_step(s: &EconomyState) -> Option<&'static str> {
    match s.phase {
        Phase::Get => Some("Get"),
        Phase::Moving => Some("Moving"),
        Phase::Combat => s
            .combat
            .as_ref()
            .filter(|c| c.battle.is_none() && c.steals.is_empty() && c.tokens.is_empty())
            .map(|_| "MoveOn"),
        _ => None,
    }
}

/// Per (seat, round, step of many actions): at how many log positions the seat was awaited
/// there, from the replay of peer `i`'s transcript (the state each position began with).
pub fn step_positions(net: &Net, i: usize) -> BTreeMap<(PlayerId, u32, &'static str), u32> {
    let t = net.peers[i].transcript().expect("a transcript");
    let r = orbis_protocol::peer::replay(&t).expect("the transcript replays");
    let mut out = BTreeMap::new();
    // The last state began no position.
    for g in r.states.iter().take(r.states.len().saturating_sub(1)) {
        let Game::Economy(s) = g else { continue };
        let Some(step) = open_step(s) else { continue };
        for seat in s.to_act() {
            *out.entry((seat, s.round, step)).or_insert(0) += 1;
        }
    }
    out
}

/// Every honest peer's complaints name `culprit` only.
pub fn only_culprit(net: &Net, honest: &[usize], culprit: usize) {
    let key = net.peers[culprit].key();
    for &i in honest {
        for e in net.complaints(i) {
            match e {
                ProtocolEvent::Rejected { peer, .. } => assert_eq!(*peer, Some(key), "{e:?}"),
                ProtocolEvent::Halted(HaltReport::Equivocation { peer, .. }) => {
                    assert_eq!(*peer, key, "{e:?}")
                }
                e => panic!("peer {i}: {e:?}"),
            }
        }
    }
}

/// Asserts that the peers `who` have one state hash.
pub fn same_hashes(net: &Net, who: &[usize]) {
    let h = hashes(net, who);
    assert!(h.iter().all(|x| *x == h[0]), "{h:?}");
}

/// Asserts that none of the peers `who` halted.
pub fn not_halted(net: &Net, who: &[usize]) {
    for &i in who {
        assert!(
            net.peers[i].halted().is_none(),
            "peer {i} halted: {:?}",
            net.peers[i].halted()
        );
    }
}

/// The body of a message, whoever signed it (what tests read of what the peers send).
pub fn body(bytes: &[u8]) -> Option<Body> {
    Envelope::open_where(bytes, |_| true).ok().map(|(_, b)| b)
}

/// The vote tests' start: plays the first `n` peers until all are due at one position past
/// `depth` with equal logs; then `target` stops playing (and is off the network unless
/// `target_online`), as do the peers in `quiet`; the others submit during 2 s more, in which no
/// position is passed. Returns the position and the vote that drops `target`.
pub fn target_silent(
    net: &mut Net,
    n: usize,
    depth: u64,
    target: usize,
    target_online: bool,
    quiet: &[usize],
) -> (u64, Control) {
    let all_due = |x: &Net| {
        (0..n).all(|j| x.peers[j].economy_due().is_some())
            && (0..n).all(|j| x.peers[j].log_len() == x.peers[0].log_len())
            && x.peers[0].log_len() > depth
    };
    let until = net.now + 3_000_000;
    assert!(drive(net, until, |_, _| false, all_due), "all due");
    net.online[target] = target_online;
    net.autoplay[target] = false;
    for &q in quiet {
        net.autoplay[q] = false;
    }
    let at = net.peers[0].log_len();
    let until = net.now + 2_000;
    drive(net, until, |_, _| false, |_| false);
    for i in (0..n).filter(|&i| i != target) {
        assert_eq!(net.peers[i].log_len(), at, "peer {i}");
    }
    let drop = Control::Drop {
        peer: net.peers[target].key(),
        level: BotLevel::Normal,
    };
    (at, drop)
}
