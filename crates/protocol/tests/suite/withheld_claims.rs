//! Security review B9: a `withheld` report (the blocked player's `Sync`) was taken as fact, so the
//! player to move could name any honest participant as withholding the shares of its cards, and
//! every page named that participant and let the vote drop it. Now the report is a claim
//! (`ProtocolEvent::WithheldClaimed`, `Peer::withholding(p).claimed`, apart from what a peer
//! observes itself), and the accused answers it by sending its shares of those cards to
//! everyone: every peer that takes them sees the claim refuted, and no longer names the accused.

use crate::common;

use common::{Net, NetParams};
use ed25519_dalek::SigningKey;
use orbis_engine::classic::{BotLevel, ClassicOptions};
use orbis_protocol::{Body, CommandError, Control, Envelope, Peer, ProtocolEvent};

const A: usize = 0; // the player to move, who claims
const H: usize = 1; // honest, accused
const C: usize = 2; // honest, judges the claim

fn face_down(net: &Net) -> orbis_protocol::SetupProposal {
    let mut p = net.proposal(0);
    p.face_down = true;
    p.options = ClassicOptions::default();
    p
}

/// Runs until it is A's turn and A holds a face-down card (A plays with the bot up to there).
fn a_holds_a_card(net: &mut Net) {
    let p = face_down(net);
    net.start(p);
    net.autoplay[A] = false;
    for _ in 0..100_000 {
        assert!(
            net.run_until(net.now + 600_000, |n| n.peers[A].is_my_turn()),
            "A never plays"
        );
        let s = net.peers[A].view().expect("started");
        let held = net.peers[A].state().expect("started").players[A]
            .sealed
            .len();
        if held > 0 && s.players[A].sealed.is_empty() {
            return; // A holds a card and has read it
        }
        let Some(act) = orbis_engine::bot::choose(&s, BotLevel::Normal) else {
            continue;
        };
        let o = net.peers[A].act(act).expect("legal");
        net.process(A, o);
    }
    panic!("A never holds a card on its turn");
}

/// A's outgoing `Sync` requests say its cards wait for `against`, at the positions `unread`
/// (computed from A's state when the request leaves).
fn claim(net: &mut Net, against: u8, unread: Option<Vec<(u8, u16)>>) {
    let key = SigningKey::from_bytes(&net.configs[A].identity_secret);
    net.tamper = Some((
        A,
        Box::new(move |p: &mut Peer, _, _, bytes: Vec<u8>| {
            let Ok((
                env,
                Body::Sync {
                    started,
                    have_index,
                    head,
                    deal,
                    deal_digest,
                    ..
                },
            )) = Envelope::open_where(&bytes, |_| true)
            else {
                return vec![bytes];
            };
            let held = p
                .state()
                .map(|s| {
                    s.players[A]
                        .sealed
                        .iter()
                        .map(|x| (x.deck, x.position))
                        .collect()
                })
                .unwrap_or_default();
            let unread = unread.clone().unwrap_or(held);
            let body = Body::Sync {
                started,
                have_index,
                head,
                deal,
                deal_digest,
                unread,
                withheld: vec![against],
            };
            vec![Envelope::seal(&key, env.game_id, env.seq, &body)]
        }),
    ));
}

fn drop_h(net: &Net) -> Control {
    Control::Drop {
        peer: net.peers[H].key(),
        level: BotLevel::Normal,
    }
}

/// A names honest H as withholding the shares of the card it holds (and has read). Before the
/// fix C's page named H as what the game waited for and took C's vote to drop it; now C sees
/// A's claim, H answers it by sending its share to everyone, and C names A (whose move it is)
/// and refuses to vote H out.
#[test]
fn a_false_withholding_claim_is_refuted_by_the_accused() {
    let mut net = Net::new(3, 61, NetParams::perfect());
    a_holds_a_card(&mut net);
    claim(&mut net, H as u8, None);
    net.run_until(net.now + 5_000, |_| false);
    let a = net.peers[A].key();
    let h = net.peers[H].key();
    assert!(
        net.events[C].iter().any(|e| matches!(e,
            ProtocolEvent::WithheldClaimed { by, against } if *by == a && against == &vec![h])),
        "C never saw the claim"
    );
    let w = net.peers[C].withholding(A as u8);
    assert!(w.claimed.is_empty() && w.observed.is_empty(), "{w:?}");
    assert_eq!(net.peers[C].waiting_on(), vec![a]);
    let c = drop_h(&net);
    assert_eq!(net.peers[C].vote(c).err(), Some(CommandError::NotAVoter));
    assert!(net.peers[H].halted().is_none() && net.peers[C].halted().is_none());
}

/// Second angle: the claim lists positions A does not hold (nobody's shares of them are owed to
/// A): it names nobody; and a claim that is true (H really keeps its shares of A's card from A,
/// and so cannot answer) stands as a claim, and the vote may drop H.
#[test]
fn a_claim_about_cards_not_held_names_nobody_and_a_true_one_stands() {
    let mut net = Net::new(3, 62, NetParams::perfect());
    a_holds_a_card(&mut net);
    // Positions of the deck A does not hold (far past anything dealt).
    claim(&mut net, H as u8, Some(vec![(0, 40), (0, 41), (1, 5)]));
    net.run_until(net.now + 5_000, |_| false);
    let a = net.peers[A].key();
    assert!(net.peers[C].withholding(A as u8).claimed.is_empty());
    assert_eq!(net.peers[C].waiting_on(), vec![a]);

    // A true withholder: H sends A none of its shares (nor any answer to a claim).
    let mut net = Net::new(3, 63, NetParams::perfect());
    net.tamper = Some((H, common::withhold_shares_to(A as u8)));
    let p = face_down(&net);
    net.start(p);
    let h = net.peers[H].key();
    assert!(
        net.run_until(60_000_000, |n| n.peers[C].withholding(A as u8).claimed
            == vec![h]),
        "the true claim never stood"
    );
    assert_eq!(net.peers[C].waiting_on(), vec![h]);
    net.run_until(net.now + 4_000, |_| false);
    let c = drop_h(&net);
    for i in [A, C] {
        let o = net.peers[i].vote(c).expect("vote accepted");
        net.process(i, o);
    }
    assert!(net.run_until(net.now + 20_000, |n| n.events[C].iter().any(
        |e| matches!(e, ProtocolEvent::ControlApplied { control, .. } if *control == c)
    )));
}
