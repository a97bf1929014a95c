//! Security review finding 9: in a two-player room, a reload whose only source is the opponent
//! must not let the opponent re-sign its last attack once the dice of it are known. Each reveal
//! names its declaration, and the reloaded peer remembers its own last reveals
//! (`Peer::memento` → `Config::remembered`): a history that would have it open one of those rolls
//! for another declaration halts, naming the opponent.

use crate::common;

use common::{Net, NetParams};
use ed25519_dalek::SigningKey;
use orbis_engine::classic::Action;
use orbis_protocol::{Body, Entry, Envelope, HaltReport, Peer, ProtocolEvent};

const A: usize = 0;
const B: usize = 1;

/// Plays a two-player game until A's seat has just rolled an attack that B applied; B's tab
/// closes there. Returns the net, the attack's position and B's memento.
fn until_a_attack(seed: u64) -> (Net, u64, Vec<Vec<u8>>) {
    let mut net = Net::new(2, seed, NetParams::perfect());
    let p = net.proposal(0);
    net.start(p);
    let last_attack = |n: &Net| {
        n.events[B].iter().rev().find_map(|e| match e {
            ProtocolEvent::Applied {
                index,
                seat,
                action,
                ..
            } => Some((*index, *seat, *action)),
            _ => None,
        })
    };
    assert!(net.run_until(10_000_000, |n| {
        n.peers[B].log_len() > 30 && matches!(last_attack(n), Some((_, 0, Action::Attack { .. })))
    }));
    let (index, _, _) = last_attack(&net).unwrap();
    let memento = net.peers[B].memento();
    net.online[B] = false;
    (net, index, memento)
}

/// From now on A shows B a history in which its entry at `at` is `EndAttack` (re-signed) and
/// nothing after it: everything A sends B, alone or in a resend batch, is rewritten so.
fn rewrite_from(net: &mut Net, at: u64) {
    let key = SigningKey::from_bytes(&net.configs[A].identity_secret);
    let prev = net.peers[A].head_at(at).expect("A has the position");
    let tag = net.peers[A].game_tag().expect("started");
    let forged = Envelope::seal(
        &key,
        tag,
        1 << 50,
        &Body::Entry(Entry {
            index: at,
            prev_hash: prev,
            action: Action::EndAttack,
        }),
    );
    let keep = move |raw: &Vec<u8>| -> Option<Vec<u8>> {
        let Ok((_, body)) = Envelope::open_where(raw, |_| true) else {
            return Some(raw.clone());
        };
        let index = match &body {
            Body::Entry(e) => Some(e.index),
            Body::Reveal { index, .. }
            | Body::Checkpoint { index, .. }
            | Body::Vote { at: index, .. } => Some(*index),
            _ => None,
        };
        match (body, index) {
            (Body::Entry(e), _) if e.index == at => Some(forged.clone()),
            (_, Some(i)) if i >= at => None,
            _ => Some(raw.clone()),
        }
    };
    net.tamper = Some((
        A,
        Box::new(move |_: &mut Peer, _, to, bytes: Vec<u8>| {
            if to != B {
                return vec![bytes];
            }
            match Envelope::open_where(&bytes, |_| true) {
                Ok((env, Body::Batch { items })) => {
                    let items = items.iter().filter_map(&keep).collect();
                    vec![Envelope::seal(
                        &key,
                        env.game_id,
                        env.seq,
                        &Body::Batch { items },
                    )]
                }
                _ => keep(&bytes).into_iter().collect(),
            }
        }),
    ));
}

/// B reloads (with or without its memento) while A rewrites; B's view afterwards.
fn reload_b(seed: u64, remember: bool) -> (Net, u64) {
    let (mut net, at, memento) = until_a_attack(seed);
    assert!(!memento.is_empty());
    rewrite_from(&mut net, at);
    net.reload(B, if remember { memento } else { vec![] });
    net.run_until(net.now + 20_000, |n| n.peers[B].halted().is_some());
    (net, at)
}

#[test]
fn without_memory_the_rewritten_attack_is_accepted() {
    // The attack the review reproduced: B takes A's word for its own past.
    let (net, at) = reload_b(31, false);
    assert!(net.peers[B].halted().is_none());
    assert!(net.peers[B].log_len() > at);
    assert_ne!(net.peers[B].head_at(at + 1), net.peers[A].head_at(at + 1));
}

#[test]
fn a_remembered_reveal_exposes_the_rewritten_attack() {
    let (net, at) = reload_b(31, true);
    let a = net.peers[A].key();
    match net.peers[B].halted() {
        Some(HaltReport::Equivocation { peer, index, .. }) => {
            assert_eq!((*peer, *index), (a, at));
        }
        other => panic!("B should halt naming A at {at}: {other:?}"),
    }
    // B never applied the forged entry.
    assert!(net.peers[B].log_len() <= at);
}
