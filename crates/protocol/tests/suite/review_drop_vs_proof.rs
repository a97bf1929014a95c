//! Independent review: a drop at an economy round whose batch one honest peer fixed while another
//! honest peer held proof of the equivocator first (PROTOCOL.md, "When an equivocation in a round
//! counts": "Neither case has a test that performs it").
//!
//! Four peers: A (0), B (1), C (2) honest, X (3) the equivocator. At a position where every
//! participant's batch is due and the batch rolls dice, the honest peers commit; then X signs two
//! versions of its commitment and reveal for the round: the first (its computer's batch) goes to
//! the *fixers*, the second (an empty batch, another salt) to the *holders*. A holder takes the
//! second version first and the first from the fixers' echoes: it holds proof of equivocation
//! (kept, a deferred halt) before it could fix the batch. A fixer gets every reveal of the first
//! version and fixes the batch with X's orders; X then withholds its dice. The network holds back
//! every message carrying the second version on its way to a fixer (the holders' echoes, their
//! proof, their halts' evidence and resends) until the script lets it through (`Release`), so the
//! proof reaches each fixer exactly when the script says. The honest peers vote X out in the
//! orders each script gives; then every honest page plays on as the harness's pages do (the
//! computer's batch when due, a vote against whoever its peer has waited on for 4.5 s at one
//! position, X seconding every vote against an honest peer).
//!
//! What each run asserts (what PROTOCOL.md promises): no honest peer is named or dropped, the
//! honest logs agree on their common prefix, and either every honest peer goes on past the round
//! (the drop applied everywhere, one history) or every honest peer halts naming X, and each halted
//! peer's transcript verifies naming X. Each run first checks that the setting is real (`Check`):
//! every holder holds both versions (it sent each on: one echoed, the other as evidence) and sent
//! no dice reveal for the round, and A fixed the batch with X's orders (its roll waits on X) with
//! the proof held back from it. Six games each (seeds 71–76, rounds 9, 14 and 23).
//!
//! Result: every ordering holds. When the fixers' votes name the batch, the holder cannot apply
//! the drop (it never fixes that batch while it holds the proof) and halts on its proof after
//! `missing_ms`; the fixers, even having applied the drop, wait on the holder's dice and halt
//! naming X as soon as the proof reaches them (their batch holds X's orders). When every vote
//! names no batch, the drop applies before the batch everywhere and all go on. The one way to
//! have an honest peer dropped is a network that holds the proof back for seconds while passing
//! the holder's later messages (`boundary_the_proof_held_back_past_the_pages_vote_timer`,
//! ignored: no first-in-first-out link does that).

use crate::common;

use common::economy::*;
use common::Net;
use ed25519_dalek::SigningKey;
use orbis_engine::bot;
use orbis_engine::classic::BotLevel;
use orbis_engine::rules::economy::action::EconomyAction;
use orbis_protocol::peer::{replay, verify, VerifyError};
use orbis_protocol::wire::{orders_commitment, Envelope};
use orbis_protocol::{Body, Control, Dest, HaltReport, Peer, PeerKey, ProtocolEvent};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::rc::Rc;

const A: usize = 0;
const B: usize = 1;
const C: usize = 2;
const X: usize = 3;
const HONEST: [usize; 3] = [A, B, C];
/// As the harness's pages (`tests/adversary/`): a page votes out whoever its peer has waited on
/// this long at one position.
const VOTE_AFTER: u64 = 4_500;

/// X's two signed versions of its part in round `at`: commitment and reveal of each.
struct Versions {
    c1: Vec<u8>,
    r1: Vec<u8>,
    c2: Vec<u8>,
    r2: Vec<u8>,
}

/// X's first version (its computer's batch) and a second one (an empty batch under another
/// salt), or `None` when the two would carry the same batch.
fn versions(net: &Net, at: u64) -> Option<Versions> {
    let (round, seats) = net.peers[X].economy_due().expect("X is due");
    assert_eq!(u64::from(round), at);
    let s = net.peers[X].economy_view().expect("a view");
    let batch: Vec<EconomyAction> = seats
        .iter()
        .filter_map(|&seat| bot::economy::choose(&s, seat, BotLevel::Normal))
        .collect();
    let p1 = net.peers[X].economy_payload(batch).expect("a payload");
    let p2 = net.peers[X].economy_payload(vec![]).expect("a payload");
    if p1 == p2 {
        return None;
    }
    let (s1, s2) = (salt(X, round), [0xc2; 32]);
    let key = SigningKey::from_bytes(&net.configs[X].identity_secret);
    let tag = net.peers[A].game_tag().expect("started");
    let seal = |seq: u64, b: Body| Envelope::seal(&key, tag, (1 << 46) + seq, &b);
    Some(Versions {
        c1: seal(
            1,
            Body::OrdersCommit {
                round,
                hash: orders_commitment(round, &p1, &s1),
            },
        ),
        r1: seal(
            2,
            Body::OrdersReveal {
                round,
                payload: p1,
                salt: s1,
            },
        ),
        c2: seal(
            3,
            Body::OrdersCommit {
                round,
                hash: orders_commitment(round, &p2, &s2),
            },
        ),
        r2: seal(
            4,
            Body::OrdersReveal {
                round,
                payload: p2,
                salt: s2,
            },
        ),
    })
}

/// Whether the batch of round `at` rolls dice when everyone takes X's first version: the
/// honest peers, copied, take it and exchange what they send on a perfect network.
fn rolls(net: &Net, at: u64, v: &Versions) -> bool {
    let mut peers: Vec<Peer> = HONEST.iter().map(|&i| net.peers[i].clone()).collect();
    let now = net.now;
    let mut queue: VecDeque<(usize, usize, Vec<u8>)> = VecDeque::new();
    for i in HONEST {
        queue.push_back((X, i, v.c1.clone()));
        queue.push_back((X, i, v.r1.clone()));
    }
    let mut revealed = false;
    let mut steps = 0;
    while let Some((from, to, bytes)) = queue.pop_front() {
        steps += 1;
        if steps > 20_000 {
            break;
        }
        let out = peers[to].handle(from as u64, &bytes, now);
        revealed |= to == A
            && out.events.iter().any(
                |e| matches!(e, ProtocolEvent::OrdersRevealed { round, .. } if u64::from(*round) == at),
            );
        for (dest, m) in out.send {
            let targets: Vec<usize> = match dest {
                Dest::All => HONEST.iter().copied().filter(|&j| j != to).collect(),
                Dest::Link(l) => vec![l as usize],
            };
            for j in targets.into_iter().filter(|&j| j < HONEST.len()) {
                queue.push_back((to, j, m.clone()));
            }
        }
    }
    revealed && peers[A].log_len() == at && peers[A].waiting_on().contains(&net.peers[X].key())
}

/// Plays until every peer is due at one position past `depth` whose batch rolls (X's first
/// version taken by all); the honest peers commit there, X goes quiet (it speaks only through
/// the script from here). Returns the position and X's two versions.
fn rolling_position(net: &mut Net, depth: u64) -> Option<(u64, Versions)> {
    let mut last = depth;
    loop {
        let all_due = |n: &Net| {
            (0..4).all(|j| n.peers[j].economy_due().is_some())
                && (0..4).all(|j| n.peers[j].log_len() == n.peers[0].log_len())
                && n.peers[0].log_len() > last
        };
        let until = net.now + 1_000_000;
        if !drive(net, until, |_, _| false, all_due) {
            return None;
        }
        let at = net.peers[0].log_len();
        last = at;
        net.autoplay[X] = false;
        // The honest peers commit (X's page does not: X is driven by the script).
        for i in HONEST {
            submit_as_bot(net, i);
        }
        net.run_until(net.now + 200, |_| false);
        for i in HONEST {
            assert!(
                net.peers[i].log_len() == at && net.peers[i].economy_due().is_none(),
                "peer {i} committed at {at}"
            );
        }
        if let Some(v) = versions(net, at).filter(|v| rolls(net, at, v)) {
            // X speaks only through the script from here.
            net.online[X] = false;
            return Some((at, v));
        }
        // Not a rolling batch: X plays this position honestly and we look further.
        net.autoplay[X] = true;
        submit_as_bot(net, X);
        net.run_until(net.now + 200, |_| false);
    }
}

/// The network between honest peers: what it holds back of X's second version on its way to a
/// peer in `hold`, and what it saw go by.
#[derive(Default)]
struct Gate {
    hold: [bool; 4],
    held: Vec<(usize, usize, Vec<u8>)>,
    /// Messages carrying the second version held back, per addressee.
    held_for: [usize; 4],
    /// Copies of X's first and second commitment each honest peer sent (a peer sends a
    /// commitment it holds: echoed when new, or as evidence; one that sent both holds both).
    first_from: [usize; 4],
    second_from: [usize; 4],
    /// Dice reveals each honest peer sent for the round's roll (it fixed the batch).
    dice_from: [usize; 4],
}

type Shared = Rc<RefCell<Gate>>;

/// The tamper for honest sender `who`'s outgoing messages (network delay, not a deviation): a
/// message carrying X's second version is held back while its addressee is in `hold` (a resend
/// batch is split into its messages, as it is handled).
fn network(gate: Shared, at: u64, c1: Vec<u8>, second: [Vec<u8>; 2]) -> common::Tamper {
    let c2 = second[0].clone();
    Box::new(move |_, from, to, bytes| {
        let is_second = |m: &[u8]| second.iter().any(|s| s == m);
        let mut g = gate.borrow_mut();
        let items = match body(&bytes) {
            Some(Body::Batch { items }) if items.iter().any(|m| is_second(m) || *m == c1) => items,
            _ => vec![bytes],
        };
        let mut pass = vec![];
        for m in items {
            if m == c1 {
                g.first_from[from] += 1;
            }
            if m == c2 {
                g.second_from[from] += 1;
            }
            if matches!(body(&m), Some(Body::Reveal { index, .. }) if index == at) {
                g.dice_from[from] += 1;
            }
            if is_second(&m) && g.hold[to] {
                g.held_for[to] += 1;
                g.held.push((from, to, m));
            } else {
                pass.push(m);
            }
        }
        pass
    })
}

/// Lets through everything held back for `to`, and holds nothing for it from now on.
fn release(net: &mut Net, gate: &Shared, to: usize) {
    let held: Vec<(usize, usize, Vec<u8>)> = {
        let mut g = gate.borrow_mut();
        g.hold[to] = false;
        let (mine, rest) = std::mem::take(&mut g.held)
            .into_iter()
            .partition(|(_, t, _)| *t == to);
        g.held = rest;
        mine
    };
    for (from, to, m) in held {
        net.inject(from, to, m);
    }
}

/// Hands `bytes` to `to` as from X's link, now, and sends on what it answers.
fn from_x(net: &mut Net, to: usize, bytes: &[u8]) {
    let now = net.now;
    let out = net.peers[to].handle(X as u64, bytes, now);
    net.process(to, out);
}

#[derive(Clone, Copy, Debug)]
enum Step {
    /// X's versions go out: the first (commitment, reveal) to the fixers, `Case::to_holders`
    /// to the holders.
    Deliver,
    /// Honest peer `i`'s page votes X out (a click; refused if it halted).
    Vote(usize),
    /// The network lets the second version through to `i`.
    Release(usize),
    /// The network runs this long.
    Run(u64),
    /// Asserts the setting: A fixed the batch with X's orders and holds no proof; every holder
    /// received both versions and fixed nothing.
    Check,
}

/// X's signed messages for the round: commitment and reveal of each version.
#[derive(Clone, Copy, Debug)]
enum Msg {
    C1,
    R1,
    C2,
    R2,
}

#[derive(Clone, Copy, Debug)]
struct Case {
    name: &'static str,
    /// Who X sends its second version to (B always).
    holders: &'static [usize],
    /// What X sends the holders, in this order.
    to_holders: &'static [Msg],
    steps: &'static [Step],
}

fn drop_x(net: &Net) -> Control {
    Control::Drop {
        peer: net.peers[X].key(),
        level: BotLevel::Easy,
    }
}

fn revealed_at(net: &Net, i: usize, at: u64) -> bool {
    net.events[i].iter().any(
        |e| matches!(e, ProtocolEvent::OrdersRevealed { round, .. } if u64::from(*round) == at),
    )
}

/// The honest pages (see the module's comment), and when each honest peer was first seen halted
/// (simulated ms, log length).
#[derive(Default)]
struct Pages {
    waiting: BTreeMap<usize, (Vec<PeerKey>, u64, u64)>,
    seconded: BTreeSet<(u64, PeerKey)>,
    halted_at: BTreeMap<usize, (u64, u64)>,
}

impl Pages {
    /// Lets the pages play for `ms`, or until `stop`.
    fn run(&mut self, net: &mut Net, ms: u64, stop: impl Fn(&Net) -> bool) {
        let until = net.now + ms;
        let honest_keys: Vec<PeerKey> = HONEST.iter().map(|&i| net.peers[i].key()).collect();
        while net.now < until && !stop(net) {
            for i in HONEST {
                if net.peers[i].halted().is_some() {
                    let len = net.peers[i].log_len();
                    self.halted_at.entry(i).or_insert((net.now, len));
                    continue;
                }
                if let (Some((round, seats)), Some(s)) =
                    (net.peers[i].economy_due(), net.peers[i].economy_view())
                {
                    let batch: Vec<EconomyAction> = seats
                        .iter()
                        .filter_map(|&seat| bot::economy::choose(&s, seat, BotLevel::Normal))
                        .collect();
                    if let Ok(o) = net.peers[i].submit_economy(batch, salt(i, round)) {
                        net.process(i, o);
                    }
                }
                let w = net.peers[i].waiting_on();
                let len = net.peers[i].log_len();
                let now = net.now;
                let e = self.waiting.entry(i).or_insert((vec![], now, len));
                if e.0 != w || e.2 != len {
                    *e = (w.clone(), now, len);
                }
                if w.is_empty() || now < e.1 + VOTE_AFTER {
                    continue;
                }
                for k in w {
                    let c = Control::Drop {
                        peer: k,
                        level: BotLevel::Easy,
                    };
                    if !net.peers[i].can_vote(&c) {
                        continue;
                    }
                    if let Ok(o) = net.peers[i].vote(c) {
                        net.process(i, o);
                    }
                    // X seconds every vote against an honest peer, at once, to every honest
                    // peer.
                    if honest_keys.contains(&k) && self.seconded.insert((len, k)) {
                        for j in HONEST {
                            let v = common::signed_vote(net, X, j, len, c);
                            from_x(net, j, &v);
                        }
                    }
                }
            }
            net.run_until(net.now + 25, |_| false);
        }
    }
}

/// What the run ended with: `Ok("went on" | "halted")`, or the broken promise.
fn outcome(net: &Net, at: u64) -> Result<&'static str, String> {
    let x = net.peers[X].key();
    let keys: Vec<PeerKey> = HONEST.iter().map(|&i| net.peers[i].key()).collect();
    let lens: Vec<u64> = HONEST.iter().map(|&i| net.peers[i].log_len()).collect();
    let halts: Vec<Option<HaltReport>> = HONEST
        .iter()
        .map(|&i| net.peers[i].halted().cloned())
        .collect();
    let waits: Vec<Vec<Option<usize>>> = HONEST
        .iter()
        .map(|&i| {
            net.peers[i]
                .waiting_on()
                .iter()
                .map(|k| (0..4).find(|&j| net.peers[j].key() == *k))
                .collect()
        })
        .collect();
    let state = format!("logs {lens:?} (round {at}), halted {halts:?}, waiting on {waits:?}");
    for i in HONEST {
        for e in &net.events[i] {
            if let ProtocolEvent::ControlApplied {
                at: a,
                control: Control::Drop { peer, .. },
            } = e
            {
                if let Some(j) = keys.iter().position(|k| k == peer) {
                    return Err(format!("peer {i} dropped honest peer {j} at {a}; {state}"));
                }
            }
        }
        for e in net.complaints(i) {
            match e {
                ProtocolEvent::Rejected { peer: Some(p), .. } if *p == x => {}
                ProtocolEvent::Halted(HaltReport::Equivocation { peer, .. }) if *peer == x => {}
                e => return Err(format!("peer {i} complained: {e:?}; {state}")),
            }
        }
    }
    let common = *lens.iter().min().expect("three");
    let heads: Vec<_> = HONEST
        .iter()
        .map(|&i| net.peers[i].head_at(common))
        .collect();
    if heads.iter().any(|h| *h != heads[0]) {
        return Err(format!("histories differ at {common}: {heads:?}; {state}"));
    }
    if halts.iter().all(Option::is_none) {
        if lens.iter().any(|&l| l <= at + 1) {
            return Err(format!("not all went on: {state}"));
        }
        for i in HONEST {
            let applied = net.events[i].iter().any(|e| {
                matches!(e, ProtocolEvent::ControlApplied { at: a, control: Control::Drop { peer, .. } } if *a == at && *peer == x)
            });
            if !applied {
                return Err(format!(
                    "peer {i} went on without dropping X at {at}; {state}"
                ));
            }
        }
        return Ok("went on");
    }
    for (n, &i) in HONEST.iter().enumerate() {
        match &halts[n] {
            Some(HaltReport::Equivocation { peer, .. }) if *peer == x => {}
            h => return Err(format!("peer {i} halted {h:?} (not naming X); {state}")),
        }
        let t = net.peers[i].transcript().expect("a transcript");
        match verify(&t) {
            Err(VerifyError::Cheat { peer: Some(k), .. }) if k == x => {}
            r => return Err(format!("peer {i}'s transcript: {r:?}; {state}")),
        }
        if let Err(e) = replay(&t) {
            return Err(format!("peer {i}'s transcript does not replay: {e:?}"));
        }
    }
    Ok("halted")
}

/// One run of `case` on a game of `seed`: `Ok` with what it ended with, `Err` with the broken
/// promise (or `Ok("no rolling position")` when the game offers none).
fn run(case: &Case, seed: u64, depth: u64) -> Result<String, String> {
    let mut net = economy_net(4, &[], seed, 3);
    let Some((at, v)) = rolling_position(&mut net, depth) else {
        return Ok("no rolling position".into());
    };
    let gate: Shared = Rc::new(RefCell::new(Gate::default()));
    {
        let mut g = gate.borrow_mut();
        for i in HONEST {
            g.hold[i] = !case.holders.contains(&i);
        }
    }
    let second = [v.c2.clone(), v.r2.clone()];
    net.tamper = Some((B, network(gate.clone(), at, v.c1.clone(), second.clone())));
    net.tamper_also = Some((C, network(gate.clone(), at, v.c1.clone(), second)));
    let drop = drop_x(&net);
    let mut votes: Vec<String> = vec![];
    let mut pages = Pages::default();
    let start = net.now;
    for step in case.steps {
        match *step {
            Step::Deliver => {
                for i in HONEST {
                    if case.holders.contains(&i) {
                        for m in case.to_holders {
                            let bytes = match m {
                                Msg::C1 => &v.c1,
                                Msg::R1 => &v.r1,
                                Msg::C2 => &v.c2,
                                Msg::R2 => &v.r2,
                            };
                            from_x(&mut net, i, bytes);
                        }
                    } else {
                        from_x(&mut net, i, &v.c1);
                        from_x(&mut net, i, &v.r1);
                    }
                }
            }
            Step::Vote(i) => match net.peers[i].vote(drop) {
                Ok(o) => {
                    let fixed = o.send.iter().find_map(|(_, m)| match body(m) {
                        Some(Body::Vote { fixed, .. }) => Some(fixed.is_some()),
                        _ => None,
                    });
                    votes.push(format!(
                        "{i}: {}",
                        match fixed {
                            Some(true) => "naming the batch",
                            Some(false) => "before fixing",
                            None => "nothing new",
                        }
                    ));
                    net.process(i, o);
                }
                Err(e) => votes.push(format!("{i}: refused ({e:?})")),
            },
            Step::Release(i) => release(&mut net, &gate, i),
            Step::Run(ms) => pages.run(&mut net, ms, |_| false),
            Step::Check => {
                let g = gate.borrow();
                // The fixer fixed the batch with X's first version, its roll waiting on X.
                assert!(
                    revealed_at(&net, A, at) && net.peers[A].log_len() == at,
                    "seed {seed}, {}: A fixed the batch at {at} (log {})",
                    case.name,
                    net.peers[A].log_len()
                );
                assert!(
                    net.peers[A].waiting_on().contains(&net.peers[X].key()),
                    "seed {seed}, {}: A's roll waits on X",
                    case.name
                );
                assert!(
                    net.peers[A].halted().is_none() && g.held_for[A] > 0,
                    "seed {seed}, {}: the proof is on its way to A and held back ({} held)",
                    case.name,
                    g.held_for[A]
                );
                for &h in case.holders {
                    assert!(
                        g.first_from[h] > 0 && g.second_from[h] > 0,
                        "seed {seed}, {}: holder {h} holds both versions (sent each on)",
                        case.name
                    );
                    assert!(
                        g.dice_from[h] == 0 && net.peers[h].halted().is_none(),
                        "seed {seed}, {}: holder {h} holds the proof, unfixed and not halted: {:?} {:?} {:?}",
                        case.name,
                        net.peers[h].halted(),
                        net.peers[h].log_len(),
                        net.complaints(h)
                    );
                }
            }
        }
    }
    // From here the network delivers everything, and the pages play on.
    for i in HONEST {
        release(&mut net, &gate, i);
    }
    let settled = |n: &Net| {
        let halted = HONEST.iter().all(|&i| n.peers[i].halted().is_some());
        let on = HONEST
            .iter()
            .all(|&i| n.peers[i].halted().is_none() && n.peers[i].log_len() > at + 3);
        halted || on
    };
    pages.run(&mut net, 40_000, settled);
    pages.run(&mut net, 2_000, |_| false);
    let x = net.peers[X].key();
    let dropped: Vec<usize> = HONEST
        .iter()
        .copied()
        .filter(|&i| {
            net.events[i].iter().any(|e| {
                matches!(e, ProtocolEvent::ControlApplied { at: a, control: Control::Drop { peer, .. } } if *a == at && *peer == x)
            })
        })
        .collect();
    let t0 = start;
    let halts: Vec<String> = pages
        .halted_at
        .iter()
        .map(|(i, (t, len))| format!("{i} at log {len} +{}ms", t - t0))
        .collect();
    let how = outcome(&net, at).map_err(|e| {
        format!("round {at}, votes {votes:?}, X dropped at {dropped:?}, halts {halts:?}: {e}")
    })?;
    Ok(format!(
        "round {at}: {how}; votes {votes:?}; X dropped at {dropped:?}; halts {halts:?}"
    ))
}

/// Games and how deep into each the round is looked for (the first rolling position past it).
const RUNS: [(u64, u64); 6] = [(71, 3), (72, 3), (73, 3), (74, 12), (75, 12), (76, 20)];

/// Runs `case` on every game of [`RUNS`]; fails listing every broken promise.
fn check(case: &Case) {
    let mut failures = vec![];
    let mut ran = 0;
    for (seed, depth) in RUNS {
        match run(case, seed, depth) {
            Ok(s) => {
                if !s.starts_with("no rolling") {
                    ran += 1;
                }
                println!("{} seed {seed}: {s}", case.name);
            }
            Err(e) => failures.push(format!("seed {seed}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}: {failures:#?}", case.name);
    assert!(
        ran >= 4,
        "{}: only {ran} games had a rolling position",
        case.name
    );
}

use Msg::*;
use Step::*;

/// The ordering the notes name: A (and C) fixed the batch and voted X out before the proof
/// reached them (their votes name the batch); B, holding the proof, votes too (before fixing).
/// The proof reaches A and C only once the drop has had time to apply there.
#[test]
fn fixers_vote_before_the_holders_proof_reaches_them() {
    check(&Case {
        name: "fixers vote first",
        holders: &[B],
        to_holders: &[C2, R2],
        steps: &[
            Deliver,
            Run(100),
            Check,
            Vote(A),
            Vote(C),
            Vote(B),
            Run(1_000),
            Release(A),
            Release(C),
        ],
    });
}

/// The same, X revealing its first version to B after the second commitment (B is left
/// waiting on X's reveal, so its page names X).
#[test]
fn fixers_vote_first_and_the_holder_has_a_mismatched_reveal() {
    check(&Case {
        name: "fixers vote first, mismatched reveal",
        holders: &[B],
        to_holders: &[C2, R1],
        steps: &[
            Deliver,
            Run(100),
            Check,
            Vote(A),
            Vote(C),
            Vote(B),
            Run(1_000),
            Release(A),
            Release(C),
        ],
    });
}

/// The proof reaches A right after it fixed, before its vote: A halts at once. B and C vote X
/// out; C gets the proof only after voting.
#[test]
fn the_proof_reaches_the_fixer_before_its_vote() {
    check(&Case {
        name: "proof before the fixer's vote",
        holders: &[B],
        to_holders: &[C2, R2],
        steps: &[
            Deliver,
            Run(100),
            Check,
            Release(A),
            Run(100),
            Vote(A),
            Vote(C),
            Vote(B),
            Run(1_000),
            Release(C),
        ],
    });
}

/// A votes; the proof reaches the other fixer (C) first, which halts before voting; B votes;
/// A gets the proof last, long after.
#[test]
fn the_other_fixer_gets_the_proof_first() {
    check(&Case {
        name: "the other fixer first",
        holders: &[B],
        to_holders: &[C2, R2],
        steps: &[
            Deliver,
            Run(100),
            Check,
            Vote(A),
            Release(C),
            Run(100),
            Vote(C),
            Vote(B),
            Run(2_000),
            Release(A),
        ],
    });
}

/// Two holders (B and C) and one fixer (A): A votes naming the batch, B and C vote before
/// fixing; A gets the proof only after the votes could complete.
#[test]
fn two_holders_and_one_fixer() {
    check(&Case {
        name: "two holders",
        holders: &[B, C],
        to_holders: &[C2, R2],
        steps: &[
            Deliver,
            Run(100),
            Check,
            Vote(A),
            Vote(B),
            Vote(C),
            Run(2_000),
            Release(A),
        ],
    });
}

/// A voted X out before X's orders came (its vote names no batch) and is let go to fix the
/// batch by C's dice reveal; then B (holding the proof) and C (naming the batch) vote. A's vote
/// and B's name no batch, C's does: the fixers apply the drop on the batch, B cannot.
#[test]
fn a_fixer_that_voted_before_the_orders_came() {
    check(&Case {
        name: "fixer voted before the orders",
        holders: &[B],
        to_holders: &[C2, R2],
        steps: &[
            Vote(A),
            Deliver,
            Run(300),
            Check,
            Vote(B),
            Vote(C),
            Run(1_000),
            Release(A),
            Release(C),
        ],
    });
}

/// The ordering a first-in-first-out link allows the drop to pass at the fixers in: B voted X
/// out before X's orders came (X was slow), and its vote is on its way before it holds the
/// proof; A and C fix the batch and vote naming it; the proof follows B's vote to them.
#[test]
fn the_holder_voted_before_the_orders_came() {
    check(&Case {
        name: "holder voted before the orders",
        holders: &[B],
        to_holders: &[C2, R2],
        steps: &[
            Vote(B),
            Run(100),
            Deliver,
            Run(100),
            Check,
            Vote(A),
            Vote(C),
            Run(1_000),
            Release(A),
            Release(C),
        ],
    });
}

/// Control: every vote goes out before anyone fixes the batch (C votes the moment X's orders
/// reach it). The drop applies before the batch everywhere, the proof is moot, and all go on.
#[test]
fn every_vote_before_the_batch_is_fixed_goes_on() {
    check(&Case {
        name: "all votes before fixing",
        holders: &[B],
        to_holders: &[C2, R2],
        steps: &[
            Vote(A),
            Vote(B),
            Deliver,
            Vote(C),
            Run(1_000),
            Release(A),
            Release(C),
        ],
    });
}

/// The holder takes X's first version (commitment and reveal) before the second commitment,
/// all before it could fix: what it would fix without its vote is the batch the fixers fixed
/// and name in their votes. The fixers vote before the proof reaches them.
#[test]
fn a_holder_that_took_the_first_version_first() {
    check(&Case {
        name: "holder took the first version first",
        holders: &[B],
        to_holders: &[C1, R1, C2],
        steps: &[
            Deliver,
            Run(100),
            Check,
            Vote(A),
            Vote(C),
            Vote(B),
            Run(1_000),
            Release(A),
            Release(C),
        ],
    });
}

/// Control: A and C vote X out before its orders come (X is slow), B, holding the proof, votes
/// last, before anyone could fix: every vote names no batch, the drop applies before the batch
/// everywhere and the proof is moot.
#[test]
fn the_holder_voting_last_before_any_batch_is_fixed_goes_on() {
    check(&Case {
        name: "holder votes last",
        holders: &[B],
        to_holders: &[C2, R2],
        steps: &[
            Vote(A),
            Vote(C),
            Run(100),
            Deliver,
            Run(100),
            Vote(B),
            Run(1_000),
            Release(A),
            Release(C),
        ],
    });
}

/// Boundary, not a hole in the protocol's model: the network holds every message carrying X's
/// second version back from A and C for 6 s while B's later messages (its vote, its resends)
/// go through, so the proof reaches them long after B's vote, which B signed after it held the
/// proof: no first-in-first-out link delivers that. A and C apply the drop on the batch and
/// wait on B's dice (B, holding the proof, never fixes the batch); B halts on its proof after
/// `missing_ms` (+3.05 s), its evidence held back too; 4.5 s into the wait A's and C's pages
/// vote B out, and they go on without it; when the proof reaches them (+6.1 s) they halt naming
/// X. The end is every honest peer halted naming X, but honest B was dropped first. With B's
/// vote sent before its proof (`the_holder_voted_before_the_orders_came`) a link that delays
/// the proof delays everything after it, B looks silent, and a silent peer is voted out by
/// design.
#[test]
#[ignore = "boundary, not a hole: needs a network that delays the proof by seconds while \
            passing the holder's later messages; the holder is then voted out before all halt \
            naming X"]
fn boundary_the_proof_held_back_past_the_pages_vote_timer() {
    check(&Case {
        name: "proof held back 6 s",
        holders: &[B],
        to_holders: &[C2, R2],
        steps: &[
            Deliver,
            Run(100),
            Check,
            Vote(A),
            Vote(C),
            Vote(B),
            Run(6_000),
            Release(A),
            Release(C),
        ],
    });
}
