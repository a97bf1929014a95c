//! Independent review of commit 1aa24e8 (issue 29, shares withheld privately): a withholder
//! that defeats the "passed on to its holder, once" rule, so the others see the holder's claim
//! refuted while the holder still cannot read its card. The holder then committed nothing, and
//! every other page named the honest holder (and offered to vote it out) instead of the
//! withholder. Each test performs one attack; all three failed before the fix, which checks a
//! share addressed to another before it counts (`Table::checks_out_for`), keeps each share by
//! the message (`Run::shared`: a piece's share apart from the sender's own; a claim stands while
//! any share owed is unseen, `Table::owed_by`), and passes the kept shares on again whenever
//! the holder claims those positions unread (`Peer::pass_on_shared`).

use crate::common;

use common::economy::*;
use common::Net;
use orbis_deal::table::DealMsg;
use orbis_engine::classic::BotLevel;
use orbis_protocol::wire::Envelope;
use orbis_protocol::{Body, Control, Peer, ProtocolEvent};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

fn report(net: &Net) {
    for i in 0..net.peers.len() {
        if net.peers[i].game().is_none() {
            continue;
        }
        eprintln!(
            "peer {i}: online {} log {} dealing {} halted {:?} waiting on {:?}",
            net.online[i],
            net.peers[i].log_len(),
            net.peers[i].economy_dealing(),
            net.peers[i].halted(),
            net.peers[i]
                .waiting_on()
                .iter()
                .map(|k| net.keys().iter().position(|x| x == k))
                .collect::<Vec<_>>()
        );
    }
}

/// Attack 1: `Run::shared` is keyed (holder, sender, deck, position), not by the message: once
/// the others saw any one share of the sender's addressed to the holder for a position (its own
/// `Share`), a second one for that position (its `PieceShare` standing in for a dropped
/// participant) is neither forwarded to the holder nor needed, on their pages, to refute the
/// holder's claim. Four participants; D leaves and is voted out (the others stand in for it);
/// W then sends its own shares of V's cards as it should, but keeps its stand-in piece of D's
/// share from V (showing it to the others in its refutation, or not at all).
#[test]
fn a_stand_in_piece_withheld_behind_a_shown_share_reaches_the_holder_all_the_same() {
    const V: usize = 0;
    const H: usize = 1;
    const W: usize = 2;
    const D: usize = 3;
    let mut net = Net::new(4, 291, common::NetParams::perfect());
    let v = V as u8;
    net.tamper = Some((
        W,
        Box::new(move |_: &mut Peer, _, to, bytes: Vec<u8>| {
            match Envelope::open_where(&bytes, |_| true) {
                Ok((
                    _,
                    Body::Deal {
                        msg: DealMsg::PieceShare { .. },
                        to: Some(a),
                        ..
                    },
                )) if to == V && a == v => vec![],
                _ => vec![bytes],
            }
        }),
    ));
    let mut p = economy_proposal(&net, &[], 40);
    p.face_down = true;
    net.start(p);
    assert!(net.run_until(100_000, |n| n.peers.iter().all(|p| p.game().is_some())));
    // Until D holds a card (the deal is whole: everyone's key and escrow are in).
    let holds =
        |n: &Net| n.peers[D].economy_due().is_some() && !state(n, D).players[D].sealed.is_empty();
    let until = net.now + 4_000_000;
    assert!(
        drive(&mut net, until, |_, _| false, holds),
        "D holds a card"
    );
    net.online[D] = false;
    let until = net.now + 4_000;
    drive(&mut net, until, |i, _| i == D, |_| false);
    let dk = net.peers[D].key();
    let drop_d = Control::Drop {
        peer: dk,
        level: BotLevel::Normal,
    };
    for i in [V, H, W] {
        let o = net.peers[i].vote(drop_d).expect("a vote for D");
        net.process(i, o);
    }
    let gone = |n: &Net| {
        (0..3).all(|i| {
            n.events[i].iter().any(|e| {
                matches!(e, ProtocolEvent::ControlApplied { control, .. } if *control == drop_d)
            })
        })
    };
    let until = net.now + 100_000;
    assert!(
        drive(&mut net, until, |i, _| i == D, gone),
        "D is voted out"
    );
    report(&net);
    // Now V's next card needs W's piece standing in for D.
    let stuck = |n: &Net| n.peers[V].economy_dealing();
    let until = net.now + 4_000_000;
    let stopped = drive(&mut net, until, |i, _| i == D, stuck);
    report(&net);
    assert!(stopped, "V comes to hold a card it cannot read");
    // Fixed: `Run::shared` is keyed by the message (a piece's share apart from the sender's
    // own), H passes W's piece on to V, and a claim stands while any share W owes is unseen.
    let len = net.peers[V].log_len();
    let until = net.now + 200_000;
    let read = |n: &Net| !n.peers[V].economy_dealing() && n.peers[V].log_len() > len;
    assert!(
        drive(&mut net, until, |i, _| i == D, read),
        "V reads its card and the game goes on"
    );
    report(&net);
    not_halted(&net, &[V, H, W]);
}

/// Attack 2: the forwarding happens once per peer run, and nothing keeps the share: W sends V
/// its share of a card as it should and also shows it to H (as a refutation would, or on its
/// own), H passes it on, V reads the card. V's page then reloads (losing every private share it
/// took); W never sends that share again. V's claim against W is refuted on H's page for good
/// (`shared` still holds it), H does not pass anything on again, and V, unable to read its
/// card, commits nothing.
#[test]
fn a_share_shown_once_then_withheld_after_the_holders_reload_is_passed_on_again() {
    const V: usize = 0;
    const H: usize = 1;
    const W: usize = 2;
    let mut net = Net::new(3, 292, common::NetParams::perfect());
    let v = V as u8;
    let withhold = Rc::new(Cell::new(false));
    let stash: Rc<RefCell<Vec<Vec<u8>>>> = Rc::new(RefCell::new(vec![]));
    let (w2, s2) = (withhold.clone(), stash.clone());
    net.tamper = Some((
        W,
        Box::new(move |_: &mut Peer, _, to, bytes: Vec<u8>| {
            match Envelope::open_where(&bytes, |_| true) {
                Ok((
                    _,
                    Body::Deal {
                        msg: DealMsg::Share { .. } | DealMsg::PieceShare { .. },
                        to: Some(a),
                        ..
                    },
                )) if a == v => {
                    if w2.get() {
                        if to == V {
                            vec![]
                        } else {
                            vec![bytes]
                        }
                    } else {
                        if to == V {
                            s2.borrow_mut().push(bytes.clone());
                        }
                        vec![bytes]
                    }
                }
                _ => vec![bytes],
            }
        }),
    ));
    let mut p = economy_proposal(&net, &[], 40);
    p.face_down = true;
    net.start(p);
    assert!(net.run_until(100_000, |n| n.peers.iter().all(|p| p.game().is_some())));
    let (slot, _) = until_holding(&mut net, V);
    // W shows H every share it sent V (H passes each on to V, which has it already).
    for m in stash.borrow().iter() {
        net.inject(W, H, m.clone());
    }
    net.run_until(net.now + 200, |_| false);
    withhold.set(true);
    let mem = net.peers[V].memento();
    net.reload(V, mem);
    let until = net.now + 300_000;
    drive(&mut net, until, |_, _| false, |_| false);
    report(&net);
    // Fixed: V's claim after its reload lists the card unread again, and H passes on the
    // share it kept (`Peer::pass_on_shared`): V reads its card and plays on.
    let until = net.now + 300_000;
    let read = |n: &Net| n.peers[V].read(slot).is_some() && !n.peers[V].economy_dealing();
    assert!(
        drive(&mut net, until, |_, _| false, read),
        "V reads its card again after its reload"
    );
    not_halted(&net, &[V, H, W]);
}

/// Attack 3: a "refutation" that is no share at all. W never sends V its share of V's card (to
/// anyone); instead it shows H a `PieceShare` addressed to V for that position, for a leaver
/// that has no escrow (here an out-of-range seat). H cannot check it (it is not addressed to
/// H), marks the position as shared (`Run::shared`), so V's claim against W no longer stands on
/// H's page, and passes it on to V; V's table refuses it as out of turn (`early("a piece share
/// of no escrow")`, `Refused::OutOfTurn`), keeps it waiting and does not halt, so W is never
/// named as a cheater either. V cannot read its card, commits nothing, and H names V.
#[test]
fn a_bogus_piece_share_shown_to_the_others_refutes_no_claim() {
    const V: usize = 0;
    const H: usize = 1;
    const W: usize = 2;
    let mut net = Net::new(3, 293, common::NetParams::perfect());
    let v = V as u8;
    let stash: Rc<RefCell<Vec<(u8, DealMsg)>>> = Rc::new(RefCell::new(vec![]));
    let s2 = stash.clone();
    net.tamper = Some((
        W,
        Box::new(move |_: &mut Peer, _, _to, bytes: Vec<u8>| {
            match Envelope::open_where(&bytes, |_| true) {
                Ok((
                    _,
                    Body::Deal {
                        deal,
                        msg: msg @ DealMsg::Share { .. },
                        to: Some(a),
                    },
                )) if a == v => {
                    s2.borrow_mut().push((deal, msg));
                    vec![]
                }
                _ => vec![bytes],
            }
        }),
    ));
    let mut p = economy_proposal(&net, &[], 40);
    p.face_down = true;
    net.start(p);
    assert!(net.run_until(100_000, |n| n.peers.iter().all(|p| p.game().is_some())));
    let stuck = |n: &Net| n.peers[V].economy_dealing();
    let until = net.now + 4_000_000;
    assert!(drive(&mut net, until, |_, _| false, stuck), "V is blocked");
    let until = net.now + 20_000;
    drive(&mut net, until, |_, _| false, |_| false);
    report(&net);
    let vk = net.peers[V].key();
    let wk = net.peers[W].key();
    assert!(
        net.peers[H].waiting_on().contains(&wk),
        "before: H names W on V's claim"
    );
    // W shows H (only H) a bogus piece share for each share it kept from V.
    let key = ed25519_dalek::SigningKey::from_bytes(&net.configs[W].identity_secret);
    let tag = net.peers[H].game_tag().expect("started");
    let mut seq = 1u64 << 45;
    let kept: Vec<(u8, DealMsg)> = stash.borrow().clone();
    for (deal, msg) in kept {
        let DealMsg::Share {
            deck,
            position,
            share,
        } = msg
        else {
            continue;
        };
        let bogus = DealMsg::PieceShare {
            deck,
            position,
            leaver: 9,
            share,
        };
        let body = Body::Deal {
            deal,
            to: Some(v),
            msg: bogus,
        };
        net.inject(W, H, Envelope::seal(&key, tag, seq, &body));
        seq += 1;
    }
    let len = net.peers[V].log_len();
    let until = net.now + 200_000;
    drive(&mut net, until, |_, _| false, |_| false);
    report(&net);
    assert_eq!(net.peers[V].log_len(), len, "still blocked");
    assert!(net.peers[V].halted().is_none(), "V does not halt on it");
    let h = net.peers[H].waiting_on();
    assert!(
        h.contains(&wk) && !h.contains(&vk),
        "H names the withholder W, never the blocked V; it names {:?}, may vote V out: {}",
        h.iter()
            .map(|k| net.keys().iter().position(|x| x == k))
            .collect::<Vec<_>>(),
        net.peers[H].can_vote(&Control::Drop {
            peer: vk,
            level: BotLevel::Easy
        })
    );
}
