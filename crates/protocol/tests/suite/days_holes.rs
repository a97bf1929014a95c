//! Games over days (issue 61), the review's holes closed, each attacked from a second angle:
//! a lost commitment published again from the memento (never a second one), our sealed copy
//! committed again without the memento, a second device told its orders were sent elsewhere,
//! and what a modified client can and cannot do with each new rule.

use super::days::{all_agree, lobby, World, HOUR, T0};
use super::days_review::{forge, hold, take};
use orbis_protocol::wire::{encode_orders, OrdersPayload};
use orbis_protocol::{Body, CommandError, Envelope, HaltReport, Next, Peer};

/// Player `i`'s commitments for `round` in `msgs`.
fn commits_of(w: &World, msgs: &[Vec<u8>], i: usize, round: u32) -> Vec<Vec<u8>> {
    msgs.iter()
        .filter(|raw| {
            matches!(Envelope::open_where(raw, |_| true),
                Ok((env, Body::OrdersCommit { round: r, .. })) if env.sender == w.keys[i] && r == round)
        })
        .cloned()
        .collect()
}

/// Hole 2: our next visit on the same device publishes the very bytes the relay lost (commitment
/// and sealed copy) and signs no other commitment; the player is not asked for orders again.
#[test]
fn a_lost_commitment_is_published_again_as_the_same_bytes() {
    let mut w = World::new(3, 201);
    lobby(&mut w);
    w.now_s = T0 + HOUR;
    let before = w.store.len();
    w.visit(0, |p| hold(p, 1, true));
    let lost = take(&mut w, before);
    let first = commits_of(&w, &lost, 0, 0);
    assert_eq!(first.len(), 1);
    let before = w.store.len();
    let s = w.visit(0, |p| {
        assert_eq!(p.orders_due(), None, "no orders form: ours are in");
        vec![]
    });
    assert!(
        matches!(s.next, Some(Next::ComeBack { .. })),
        "{:?}",
        s.next
    );
    let again = w.store[before..].to_vec();
    assert_eq!(commits_of(&w, &again, 0, 0), first, "the same signed bytes");
    assert!(again.iter().all(|m| lost.contains(m)), "nothing new signed");
    w.play(1);
    w.play(2);
    w.play(0);
    let s = all_agree(&mut w, 3);
    assert_eq!(s.log_len, 1);
}

/// Hole 2, the store keeps our sealed copy but lost the commitment (a bundle's part), and this
/// device has no memento: the visit opens the sealed copy and commits the same orders and salt
/// again (the same commitment), so nobody is named when the lost one comes back.
#[test]
fn our_sealed_copy_in_the_store_is_committed_again_without_the_memento() {
    let mut w = World::new(3, 202);
    lobby(&mut w);
    w.now_s = T0 + HOUR;
    let before = w.store.len();
    w.visit(0, |p| hold(p, 1, true));
    let ours = take(&mut w, before);
    let commit = commits_of(&w, &ours, 0, 0);
    w.store
        .extend(ours.iter().filter(|m| !commit.contains(m)).cloned());
    w.mementos[0].clear();
    let s = w.visit(0, |p| {
        assert_eq!(p.orders_due(), None);
        vec![]
    });
    assert!(s.sent >= 1, "committed again");
    assert!(
        matches!(s.next, Some(Next::ComeBack { .. })),
        "{:?}",
        s.next
    );
    w.play(1);
    w.play(2);
    w.store.extend(commit); // the lost one comes back: the same hash, nobody is named
    w.play(0);
    let s = all_agree(&mut w, 3);
    assert_eq!(s.log_len, 1);
}

/// Attack on the memento rule: a device's memento holds a commitment the store contradicts (the
/// player committed other orders from a second device, which the store has). The first device
/// must not publish its own (that would be the equivocation): it takes the one that stands and
/// opens it from its sealed copy.
#[test]
fn a_memento_never_contradicts_the_store() {
    let mut w = World::new(3, 203);
    lobby(&mut w);
    w.now_s = T0 + HOUR;
    let before = w.store.len();
    w.visit(0, |p| hold(p, 1, true));
    let lost = take(&mut w, before);
    let memento = std::mem::take(&mut w.mementos[0]);
    w.visit(0, |p| hold(p, 2, false)); // the second device, on a store without evidence
    w.mementos[0] = memento;
    let before = w.store.len();
    let s = w.visit(0, |_| vec![]);
    assert!(commits_of(&w, &w.store[before..], 0, 0).is_empty());
    assert!(
        matches!(s.next, Some(Next::ComeBack { .. })),
        "{:?}",
        s.next
    );
    w.play(1);
    w.play(2);
    let s = all_agree(&mut w, 3);
    assert_eq!(
        s.log_len, 1,
        "the first device opened the second device's orders"
    );
    assert!(lost.iter().all(|m| !w.store.contains(m)));
}

/// Attack on the memento rule: what a memento holds that is not ours, not this game's, or of a
/// round already resolved is never published nor taken.
#[test]
fn a_memento_with_others_messages_or_old_rounds_changes_nothing() {
    let mut w = World::new(3, 204);
    lobby(&mut w);
    w.now_s = T0 + HOUR;
    for i in 0..3 {
        w.play(i);
    }
    let s = all_agree(&mut w, 3);
    assert_eq!(s.log_len, 1);
    // Player 1's and our own commitments of round 0 (resolved), and a commitment of ours for
    // round 1 signed under another game's id.
    let mut poison = commits_of(&w, &w.store, 1, 0);
    poison.extend(commits_of(&w, &w.store, 0, 0));
    let other = Envelope::seal(
        &ed25519_dalek::SigningKey::from_bytes(&w.cfgs[0].identity_secret),
        [9; 16],
        900_000_000,
        &Body::OrdersCommit {
            round: 1,
            hash: [1; 32],
        },
    );
    poison.push(other);
    w.mementos[0] = poison;
    let s = w.visit(0, |_| vec![]);
    assert_eq!(s.sent, 0, "nothing published");
    assert!(matches!(s.next, Some(Next::Submit { .. })), "{:?}", s.next);
    w.play(0);
    w.play(1);
    w.play(2);
    all_agree(&mut w, 3);
}

/// Attack on the rule: a modified client that "publishes again" a different commitment (to
/// change its orders after seeing the others') is named, as any second commitment is.
#[test]
fn a_forged_republished_commitment_is_still_equivocation() {
    let mut w = World::new(3, 205);
    lobby(&mut w);
    w.now_s = T0 + HOUR;
    w.play(0);
    w.play(1);
    w.play(2); // 2 opens its orders at once
    let second = forge(
        &w,
        0,
        900_000_001,
        &Body::OrdersCommit {
            round: 0,
            hash: [7; 32],
        },
    );
    w.store.push(second);
    for i in 1..3 {
        match w.visit(i, |_| vec![]).halted {
            Some(HaltReport::Equivocation { peer, .. }) => assert_eq!(peer, w.keys[0]),
            other => panic!("player {i}: {other:?}"),
        }
    }
}

/// Hole 3, the residual: a second device (no memento) on a store with no trace of the first
/// device's commitment (no sealed copy, nobody has opened orders) cannot know about it. It is
/// told to submit; if the lost commitment comes back, the game halts naming the player. The
/// page says so on a device with no memento of the game (PROTOCOL.md "Another device").
#[test]
fn a_second_device_with_no_evidence_of_our_commitment_cannot_know() {
    let mut w = World::new(3, 206);
    lobby(&mut w);
    w.now_s = T0 + HOUR;
    let before = w.store.len();
    w.visit(0, |p| hold(p, 1, true));
    let lost = take(&mut w, before);
    w.mementos[0].clear();
    let s = w.visit(0, |p| hold(p, 2, false));
    assert!(
        matches!(s.next, Some(Next::ComeBack { .. })),
        "{:?}",
        s.next
    );
    w.play(1);
    w.play(2);
    w.store.extend(lost);
    let s = w.visit(1, |_| vec![]);
    assert!(
        matches!(s.halted, Some(HaltReport::Equivocation { peer, .. }) if peer == w.keys[0]),
        "{:?}",
        s.halted
    );
}

/// Attack on the hole-3 rule: one modified client opening its orders before ours are in cannot
/// keep us from submitting (the evidence needs every other player's reveal); when every other
/// player does it (colluding, or the one opponent of a two-player game) `Next::Elsewhere`
/// shows, and the player's word (`not_sent_elsewhere`) lets the visit submit: the round
/// resolves and nobody is named.
#[test]
fn an_opponent_opening_early_cannot_keep_us_from_submitting() {
    for early in [vec![1usize], vec![1, 2]] {
        let mut w = World::new(3, 207 + early.len() as u64);
        lobby(&mut w);
        w.now_s = T0 + HOUR;
        for &i in &early {
            // Player i commits and, a modified client, opens its orders at once.
            let mut payload = None;
            w.visit(i, |p| {
                let (_, powers) = p.orders_due().expect("due");
                let orders = powers.iter().map(|&pw| (pw, vec![])).collect();
                let pl = OrdersPayload::orders(orders);
                payload = Some(encode_orders(&pl));
                vec![p.submit_orders(pl, [5; 32]).expect("orders")]
            });
            let reveal = forge(
                &w,
                i,
                950_000_100,
                &Body::OrdersReveal {
                    round: 0,
                    payload: payload.expect("payload"),
                    salt: [5; 32],
                },
            );
            w.store.push(reveal);
        }
        let all = early.len() == 2;
        for i in (1..3).filter(|i| !early.contains(i)) {
            w.play(i);
        }
        let s = w.visit(0, |p: &mut Peer| {
            assert_eq!(p.committed_elsewhere(), all);
            if all {
                assert_eq!(p.orders_due(), None);
                let refused = p.commit_orders(0, vec![], [3; 32]);
                assert!(matches!(refused, Err(CommandError::AlreadyCommitted)));
                p.not_sent_elsewhere();
            }
            assert!(!p.committed_elsewhere());
            hold(p, 3, true)
        });
        assert!(s.sent >= 1, "{early:?}: we submitted");
        let s = all_agree(&mut w, 3);
        assert_eq!(s.log_len, 1, "{early:?}");
    }
}

/// The review's relay split (`a_late_reveal_and_the_missed_vote_split_between_visitors`): 1 opens
/// its orders late on a store without 0's missed-turn vote and resolves Spring 1901 without
/// it; 2 votes on a store with 0's vote but without 1's reveal, so the vote passes for it. The
/// relays are then refilled.
fn split(seed: u64) -> World {
    let mut w = World::new(3, seed);
    lobby(&mut w);
    w.now_s = T0 + HOUR;
    w.play(0);
    w.play(1);
    w.play(2);
    w.play(0);
    w.now_s = T0 + super::days::DAY + 3 * HOUR;
    let before = w.store.len();
    w.play(0);
    let vote0 = take(&mut w, before);
    let before = w.store.len();
    assert_eq!(w.play(1).log_len, 1);
    let reveal1 = take(&mut w, before);
    w.private[2] = vote0.clone();
    assert!(super::days::missed_applied(&w.play(2)));
    w.private[2].clear();
    w.store.extend(vote0);
    w.store.extend(reveal1);
    w
}

/// Hole 1, whatever order the relays give: every visitor reads the store in the order of the
/// positions, votes first, so the passed vote decides the round on every visit (1's excuse is
/// spent, its late orders count), and 1's checkpoint signed on the split no longer counts.
#[test]
fn a_split_late_reveal_is_decided_by_the_votes_in_any_order() {
    let mut w = split(301);
    let base = w.store.clone();
    let mut orders = vec![base.clone(), base.iter().rev().cloned().collect::<Vec<_>>()];
    for k in 1..4u64 {
        let mut s = base.clone();
        let n = s.len();
        for i in 0..n {
            let j = (orbis_engine::codec::sha256(&(i as u64 * k).to_le_bytes())[0] as usize * 31
                + i)
                % n;
            s.swap(i, j);
        }
        orders.push(s);
    }
    let mut seen = vec![];
    for store in orders {
        w.store = store;
        for i in 0..3 {
            let s = w.visit(i, |_| vec![]);
            assert!(s.halted.is_none(), "player {i}: {:?}", s.halted);
            seen.push((s.log_len, s.hash, s.excuses));
        }
    }
    assert!(seen.iter().all(|s| *s == seen[0]), "{seen:?}");
    assert_eq!((seen[0].0, seen[0].2.clone()), (1, vec![1, 0, 1]));
}

/// Attack on the hole-1 rule: a missed-turn vote does not silence anyone else's checkpoint. A
/// voter's modified engine (a checkpoint at the position after the vote that disagrees) is
/// still caught, and a visit that cannot agree says so: it halts naming the signer (over days
/// a visit no longer freezes with nothing said).
#[test]
fn a_missed_vote_cannot_silence_a_voters_disagreeing_checkpoint() {
    let mut w = split(302);
    let bad = forge(
        &w,
        0,
        960_000_001,
        &Body::Checkpoint {
            index: 1,
            state_hash: [9; 32],
            log_head: [9; 32],
        },
    );
    w.store.push(bad);
    for i in 1..3 {
        match w.visit(i, |_| vec![]).halted {
            Some(HaltReport::CheckpointMismatch { peer, index, .. }) => {
                assert_eq!((peer, index), (w.keys[0], 1), "player {i}")
            }
            other => panic!("player {i}: {other:?}"),
        }
    }
}
