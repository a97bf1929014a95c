//! Independent review of 38290db (the memento carries our open votes; a vote signed again after a
//! reload names the batch the first named), from a second angle. Economy games of three peers,
//! T (peer 2) the target of a drop vote at position `at`.
//!
//! - `a_voter_at_the_fixed_batch_that_reloads_votes_again_naming_that_batch`: the first vote
//!   named the fixed batch X; after the reload the history fixes X again and the vote signed again
//!   names X. Holds.
//! - `a_reloaded_voter_that_fixes_the_batch_before_its_vote_comes_back_splits_from_the_others`
//!   (`split`): peer 0 votes before the batch is fixed (no batch) and reloads while peer 1's
//!   connection is down; T, hostile, shows peer 0 its orders reveal only and leaves peer 0's
//!   vote out of its resends; peer 1 comes back and votes at once, so (holding peer 0's first
//!   vote) it drops T before the batch, with the orders of 0 and 1; peer 0, not held by a vote no
//!   longer in its table, fixes the batch with T's orders, then applies the drop after it. The
//!   two wait on each other for good. It was a HOLE, whether peer 0 signs again (naming no
//!   batch, as the first), a resend gives its first vote back, or peer 1 is left alone: the
//!   memento restored the vote's `fixed`, not the hold the vote puts on its voter. Fixed: the
//!   remembered votes go back in the vote table when the game restarts (`restore_cast`).
//!   `without_the_reload_the_voter_is_held_and_nobody_splits` is the control (passes).
//! - `a_second_reload_forgets_the_vote_the_first_remembered`: the reloaded page's memento holds
//!   only the votes in its table, so the page (which stores the memento whenever it changes)
//!   forgets the first vote at its first reveal; a second reload signs the vote naming the fixed
//!   batch and the other voter halts naming honest peer 0. It was a HOLE; fixed by the same
//!   change (the restored votes are in the table, so the next memento carries them).
//! - `only_our_own_votes_of_this_game_at_that_position_are_remembered`: votes signed by another
//!   key, ours under another game's tag, ours at a position never reached, ours past the read cap
//!   change nothing; the memento stays within its caps however many votes we sign. Holds.
//! - `in_a_classic_game_a_reloaded_voter_votes_again_and_the_drop_applies_alike`: `fixed` is
//!   ignored outside the economy, even a made-up one in the memento. Holds.

use crate::common;

use common::economy::*;
use common::{Net, NetParams};
use ed25519_dalek::SigningKey;
use orbis_engine::classic::BotLevel;
use orbis_protocol::wire::Envelope;
use orbis_protocol::{Body, Control, Output, PeerKey, ProtocolEvent};

const T: usize = 2;

/// What the votes in an output name (`Vote::fixed` of each).
type Named = Vec<Option<[u8; 32]>>;

fn open(m: &[u8]) -> Option<(PeerKey, Body)> {
    Envelope::open_where(m, |_| true)
        .ok()
        .map(|(e, b)| (e.sender, b))
}

/// Drops every message (alone or inside a resend batch) to `to` that `drop(to, message)` names.
fn filter(drop: impl Fn(usize, &[u8]) -> bool + 'static) -> common::Tamper {
    Box::new(move |_, _, to, bytes| match open(&bytes) {
        Some((_, Body::Batch { items })) if items.iter().any(|m| drop(to, m)) => {
            items.into_iter().filter(|m| !drop(to, m)).collect()
        }
        _ if drop(to, &bytes) => vec![],
        _ => vec![bytes],
    })
}

fn vote_of(m: &[u8], by: PeerKey) -> bool {
    matches!(open(m), Some((s, Body::Vote { .. })) if s == by)
}

/// The batch each vote in `o` names.
fn named(o: &Output) -> Vec<Option<[u8; 32]>> {
    let f = |(_, m): &(_, Vec<u8>)| match open(m) {
        Some((_, Body::Vote { fixed, .. })) => Some(fixed),
        _ => None,
    };
    o.send.iter().filter_map(f).collect()
}

fn vote(net: &mut Net, i: usize, c: Control) -> Vec<Option<[u8; 32]>> {
    let o = net.peers[i].vote(c).expect("vote");
    let n = named(&o);
    net.process(i, o);
    n
}

/// Plays to a position past `depth` where all are due; T stops playing, and peer 0 too unless
/// `commit0`; peer 1 commits. Returns the position and the vote dropping T.
fn setup(net: &mut Net, commit0: bool, t_online: bool) -> (u64, Control) {
    let quiet: &[usize] = if commit0 { &[] } else { &[0] };
    target_silent(net, 3, 6, T, t_online, quiet)
}

/// Peer `i`'s page reloads, as `Net::reload`, its message numbers starting at `n << 40`: each
/// reload starts above the last, as a page's do (`Net::reload` starts every one at `1 << 40`).
fn reload(net: &mut Net, i: usize, remembered: Vec<Vec<u8>>, n: u64) {
    let mut cfg = net.configs[i].clone();
    cfg.seq_start = n << 40;
    cfg.remembered = remembered;
    net.peers[i] = orbis_protocol::Peer::new(cfg);
    net.events[i].clear();
    net.online[i] = true;
    let out = net.peers[i].start(net.now);
    net.process(i, out);
}

/// Plays (every peer due submitting the computer's batch) for `ms` or until `done`.
fn play(net: &mut Net, ms: u64, done: impl Fn(&Net) -> bool) -> bool {
    let until = net.now + ms;
    drive(net, until, |_, _| false, done)
}

/// T comes back and commits its computer batch.
fn t_submits(net: &mut Net) {
    net.online[T] = true;
    submit_as_bot(net, T);
}

fn fixed_at(n: &Net, i: usize, at: u64) -> bool {
    n.events[i].iter().any(
        |e| matches!(e, ProtocolEvent::OrdersRevealed { round, .. } if u64::from(*round) == at),
    )
}

/// Peers 0 and 1 past `at`, not halted, with one head after it.
fn verdict(net: &Net, at: u64) -> Result<(), String> {
    let halted: Vec<_> = (0..2).map(|i| net.peers[i].halted().cloned()).collect();
    let heads: Vec<_> = (0..2).map(|i| net.peers[i].head_at(at + 1)).collect();
    let lens: Vec<u64> = (0..2).map(|i| net.peers[i].log_len()).collect();
    let ok = halted.iter().all(Option::is_none) && lens.iter().all(|&l| l > at);
    if ok && heads[0] == heads[1] {
        return Ok(());
    }
    Err(format!("halted {halted:?}, logs {lens:?}, heads {heads:?}"))
}

/// T's tamper: no dice reveal of `at` to anyone, no vote of peer 0 to peer 0 (its resends), and
/// its orders reveal of `at` only to peer 0 if `reveal_to_0_only`.
fn t_tamper(net: &mut Net, at: u64, reveal_to_0_only: bool) {
    let (p0, t) = (net.peers[0].key(), net.peers[T].key());
    net.tamper = Some((
        T,
        filter(move |to, m| match open(m) {
            Some((s, Body::Reveal { index, .. })) => s == t && index == at,
            Some((s, Body::Vote { .. })) => s == p0 && to == 0,
            Some((s, Body::OrdersReveal { round, .. })) => {
                reveal_to_0_only && s == t && to == 1 && u64::from(round) == at
            }
            _ => false,
        }),
    ));
}

#[test]
fn a_voter_at_the_fixed_batch_that_reloads_votes_again_naming_that_batch() {
    let mut failures = vec![];
    for seed in [21u64, 22, 23, 24] {
        let mut net = economy_net(3, &[], seed, 3);
        let (at, drop) = setup(&mut net, true, false);
        t_tamper(&mut net, at, false);
        t_submits(&mut net);
        let both = |n: &Net| fixed_at(n, 0, at) && fixed_at(n, 1, at);
        assert!(net.run_until(net.now + 10_000, both), "seed {seed}: fixed");
        net.run_until(net.now + 2_000, |_| false);
        let first = vote(&mut net, 0, drop);
        assert!(matches!(first[..], [Some(_)]), "seed {seed}: {first:?}");
        net.run_until(net.now + 500, |_| false);
        let mem = net.peers[0].memento();
        let p0 = net.peers[0].key();
        net.tamper_also = Some((1, filter(move |to, m| to == 0 && vote_of(m, p0))));
        net.reload(0, mem);
        assert!(play(&mut net, 10_000, |n| fixed_at(n, 0, at)));
        net.run_until(net.now + 2_000, |_| false);
        let again = vote(&mut net, 0, drop);
        vote(&mut net, 1, drop);
        net.run_until(net.now + 5_000, |_| false);
        // Nothing new to sign (the remembered vote is back in the table), or the same batch.
        let same = again == first || again.is_empty();
        let named = same.then_some(()).ok_or("named another batch");
        if let Err(e) = verdict(&net, at).and(named.map_err(String::from)) {
            failures.push(format!("seed {seed}: {e}: {first:?} then {again:?}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Peer 0 votes T out before the batch is fixed (no batch); peer 1's connection goes down; peer
/// 0's page reloads (`mode` < 3; 3: it does not); T (online, hostile) shows peer 0 its orders
/// reveal, never peer 1, and leaves peer 0's vote out of its resends. Peer 1 comes back and votes
/// at once. `mode` 0: peer 1's resends leave peer 0's vote out and peer 0 signs it again; 1: they
/// give it back once peer 0 fixed the batch; 2, 3: peer 1 is left alone.
fn split(seed: u64, mode: u8) -> Result<(), String> {
    let mut net = economy_net(3, &[], seed, 3);
    let (at, drop) = setup(&mut net, false, true);
    assert_eq!(vote(&mut net, 0, drop), [None]);
    net.run_until(net.now + 500, |_| false);
    let mem = net.peers[0].memento();
    net.online[1] = false;
    t_tamper(&mut net, at, true);
    let p0 = net.peers[0].key();
    if mode < 2 {
        net.tamper_also = Some((1, filter(move |to, m| to == 0 && vote_of(m, p0))));
    }
    if mode < 3 {
        net.reload(0, mem);
    }
    net.autoplay[0] = true;
    t_submits(&mut net);
    play(&mut net, 2_000, |_| false);
    // Peer 1 is back, sees T still awaited long past its grace, and votes at once.
    net.online[1] = true;
    assert_eq!(vote(&mut net, 1, drop), [None], "seed {seed}");
    play(&mut net, 3_000, |n| fixed_at(n, 0, at));
    if mode == 1 {
        net.tamper_also = None;
    } else if mode == 0 && net.peers[0].can_vote(&drop) {
        vote(&mut net, 0, drop);
    }
    play(&mut net, 20_000, |_| false);
    // Whose orders the batch each fixed at `at` holds (the last one fixed there).
    let holds = |i: usize| {
        let f = |e: &ProtocolEvent| match e {
            ProtocolEvent::OrdersRevealed { round, orders } if u64::from(*round) == at => {
                Some(orders.iter().map(|(k, _)| *k).collect::<Vec<_>>())
            }
            _ => None,
        };
        net.events[i].iter().rev().find_map(f)
    };
    let waits = (net.peers[0].waiting_on(), net.peers[1].waiting_on());
    verdict(&net, at).map_err(|e| {
        let (h0, h1) = (holds(0), holds(1));
        format!(
            "{e}; orders of {h0:?} / {h1:?}; waiting on {:?} / {:?}",
            waits.0, waits.1
        )
    })
}

#[test]
fn without_the_reload_the_voter_is_held_and_nobody_splits() {
    for seed in [21u64, 22, 23, 24] {
        split(seed, 3).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
}

#[test]
fn a_reloaded_voter_that_fixes_the_batch_before_its_vote_comes_back_splits_from_the_others() {
    let mut failures = vec![];
    for mode in 0..3 {
        for seed in [21u64, 22, 23, 24] {
            if let Err(e) = split(seed, mode) {
                failures.push(format!("mode {mode}, seed {seed}: {e}"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn a_second_reload_forgets_the_vote_the_first_remembered() {
    let mut failures = vec![];
    for seed in [21u64, 22, 23, 24] {
        let mut net = economy_net(3, &[], seed, 3);
        let (at, drop) = setup(&mut net, false, false);
        assert_eq!(vote(&mut net, 0, drop), [None]);
        net.autoplay[0] = true;
        net.run_until(net.now + 500, |_| false);
        let mem = net.peers[0].memento();
        let p0 = net.peers[0].key();
        net.tamper_also = Some((1, filter(move |to, m| to == 0 && vote_of(m, p0))));
        t_tamper(&mut net, at, false);
        net.reload(0, mem);
        t_submits(&mut net);
        let both = |n: &Net| fixed_at(n, 0, at) && fixed_at(n, 1, at);
        assert!(play(&mut net, 10_000, both), "seed {seed}");
        net.run_until(net.now + 500, |_| false);
        // What the page stored last (it stores the memento whenever it changes: here at the
        // reveal for the fixed batch), and the page reloads again.
        let mem = net.peers[0].memento();
        let kept = mem.iter().any(|m| vote_of(m, p0));
        reload(&mut net, 0, mem, 2);
        assert!(play(&mut net, 10_000, |n| fixed_at(n, 0, at)));
        net.run_until(net.now + 2_000, |_| false);
        let named = vote(&mut net, 0, drop);
        vote(&mut net, 1, drop);
        net.run_until(net.now + 5_000, |_| false);
        if let Err(e) = verdict(&net, at) {
            failures.push(format!(
                "seed {seed}: vote kept {kept}, named {named:?}; {e}"
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn only_our_own_votes_of_this_game_at_that_position_are_remembered() {
    let mut net = economy_net(3, &[], 21, 3);
    let (at, drop) = setup(&mut net, false, false);
    let tag = net.peers[0].game_tag().expect("running");
    let key = |i: usize| SigningKey::from_bytes(&net.configs[i].identity_secret);
    let made_up = Some([0xee; 32]);
    let mut seq = 1u64 << 45;
    let mut sign = |k: &SigningKey, tag, at| {
        seq += 1;
        let (control, fixed) = (drop, made_up);
        vec![Envelope::seal(
            k,
            tag,
            seq,
            &Body::Vote { at, control, fixed },
        )]
    };
    let ours = sign(&key(0), tag, at);
    let (other_game, later) = (
        sign(&key(0), [0x42; 16], at),
        sign(&key(0), tag, at + 1_000),
    );
    let cases: Vec<(&str, Vec<Vec<u8>>, Named)> = vec![
        ("signed by peer 1", sign(&key(1), tag, at), vec![None]),
        ("signed by T", sign(&key(T), tag, at), vec![None]),
        ("ours, another game", other_game, vec![None]),
        ("ours, never reached", later, vec![None]),
        (
            "ours past the cap",
            [vec![vec![7u8; 40]; 200], ours.clone()].concat(),
            vec![None],
        ),
        // Only we can sign what names a batch: read and back in the table (the positive
        // control), so there is nothing new to sign.
        ("ours", ours, vec![]),
    ];
    for (n, (what, remembered, want)) in (1..).zip(cases) {
        reload(&mut net, 0, remembered, n);
        net.run_until(net.now + 1_000, |_| false);
        assert_eq!(net.peers[0].log_len(), at, "{what}");
        assert!(net.peers[0].halted().is_none(), "{what}");
        // Signed, not sent: the next case starts from a clean table.
        let o = net.peers[0].vote(drop).expect("vote");
        assert_eq!(named(&o), want, "{what}");
    }
    // However many votes we sign, the memento stays within its caps.
    reload(&mut net, 0, vec![], 10);
    net.run_until(net.now + 1_000, |_| false);
    let levels = [BotLevel::Easy, BotLevel::Normal, BotLevel::Hard];
    let (k1, kt, t) = (net.peers[1].key(), net.peers[T].key(), T as u8);
    for level in levels {
        for c in [
            Control::Drop { peer: kt, level },
            Control::Drop { peer: k1, level },
            Control::SeatToBot { seat: 1, level },
            Control::SeatToBot { seat: t, level },
        ] {
            if let Ok(o) = net.peers[0].vote(c) {
                net.process(0, o);
            }
        }
    }
    net.run_until(net.now + 500, |_| false);
    let mem = net.peers[0].memento();
    let p0 = net.peers[0].key();
    let votes = mem.iter().filter(|m| vote_of(m, p0)).count();
    // `MEMENTO_VOTES` (8, not exported) of our open votes, after `MEMENTO_ROLLS` reveals at most.
    assert_eq!(votes, 8, "{}", mem.len());
    assert!(mem.len() <= orbis_protocol::peer::MEMENTO_ROLLS + 8);
    assert!(net.peers.iter().all(|p| p.halted().is_none()));
}

#[test]
fn in_a_classic_game_a_reloaded_voter_votes_again_and_the_drop_applies_alike() {
    for (seed, made_up) in [(61u64, false), (62, true)] {
        let mut net = Net::new(3, seed, NetParams::perfect());
        let p = net.proposal(0);
        net.start(p);
        let t = net.peers[T].key();
        // Until it is T's turn: T goes quiet there.
        assert!(net.run_until(10_000_000, |n| n.peers[0].log_len() > 20));
        net.autoplay[T] = false;
        assert!(net.run_until(net.now + 100_000, |n| n.peers[T].is_my_turn()));
        net.online[T] = false;
        net.run_until(net.now + 4_000, |_| false);
        assert_eq!(net.peers[0].waiting_on(), vec![t], "seed {seed}");
        let (peer, level) = (t, BotLevel::Normal);
        let drop = Control::Drop { peer, level };
        assert_eq!(vote(&mut net, 0, drop), [None]);
        net.run_until(net.now + 500, |_| false);
        let mut mem = net.peers[0].memento();
        if made_up {
            // A memento naming a batch in a classic game (no honest page makes one).
            let k = SigningKey::from_bytes(&net.configs[0].identity_secret);
            let tag = net.peers[0].game_tag().expect("running");
            let (at, control, fixed) = (net.peers[0].log_len(), drop, Some([0xee; 32]));
            mem = vec![Envelope::seal(
                &k,
                tag,
                1 << 45,
                &Body::Vote { at, control, fixed },
            )];
        }
        let p0 = net.peers[0].key();
        net.tamper = Some((1, filter(move |to, m| to == 0 && vote_of(m, p0))));
        net.reload(0, mem);
        net.run_until(net.now + 2_000, |_| false);
        vote(&mut net, 0, drop);
        vote(&mut net, 1, drop);
        let at = net.peers[0].log_len();
        assert!(
            net.run_until(net.now + 200_000, |n| n.peers[1].log_len() > at + 10
                && n.peers[0].log_len() > at + 10)
        );
        let h = (net.peers[0].head_at(at + 10), net.peers[1].head_at(at + 10));
        assert_eq!(h.0, h.1, "seed {seed}");
        for i in [0, 1] {
            assert!(net.peers[i].halted().is_none(), "seed {seed}: {i}");
        }
    }
}
