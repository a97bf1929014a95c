//! The rendezvous logic between peers, without sockets: who offers, how hellos are answered, and
//! that hostile or stray events are refused by reason and never reach matchbox.

use super::nostr::{self, Event};
use super::room::{Body, Envelope, Room};
use super::*;
use matchbox_socket::PeerSignal;
use proptest::prelude::*;

const NOW: u64 = 1_800_000_000;

fn pair() -> (Rendezvous, Rendezvous) {
    let a = Rendezvous::new("room-secret", [1; 32]);
    let b = Rendezvous::new("room-secret", [2; 32]);
    if a.me > b.me {
        (a, b)
    } else {
        (b, a)
    }
}

#[test]
fn the_larger_id_offers_and_a_newcomer_is_answered_once() {
    let (mut big, mut small) = pair();
    // The small peer says hello; the big one learns of it, is told to offer, and answers.
    let hello = small.tick(NOW, false).expect("a first hello at once");
    let r = big.receive(&hello, NOW).unwrap();
    assert_eq!(
        r.to_matchbox,
        vec![PeerEvent::NewPeer(PeerId(uuid::Uuid::from_bytes(small.me)))]
    );
    assert_eq!(r.publish.len(), 1, "the newcomer is answered");
    assert!(r.forward, "a hello goes on to the mesh neighbours");
    // The answer is addressed to the small peer, which learns of the big one but does not offer.
    let answer = r.publish[0].clone();
    let r = small.receive(&answer, NOW).unwrap();
    assert!(
        r.to_matchbox.is_empty() && r.publish.is_empty() && !r.forward,
        "addressed to it alone"
    );
    // The same hello again (another relay's copy) is a duplicate; a later hello of a peer met
    // before is not answered again.
    assert_eq!(big.receive(&hello, NOW), Err("duplicate"));
    let again = small.tick(NOW + 2, false).expect("second hello after 2 s");
    assert!(big.receive(&again, NOW + 2).unwrap().publish.is_empty());
    // A signal from the big peer reaches the small peer's matchbox, addressed only to it.
    let offer = big.signal(small.me, PeerSignal::Offer("v=0".into()), NOW);
    let r = small.receive(&offer, NOW).unwrap();
    assert_eq!(
        r.to_matchbox,
        vec![PeerEvent::Signal {
            sender: PeerId(uuid::Uuid::from_bytes(big.me)),
            data: PeerSignal::Offer("v=0".into())
        }]
    );
    // A third peer sees it but it is not for them.
    // A third peer passes it on towards its addressee (mesh forwarding) and does nothing else.
    let mut third = Rendezvous::new("room-secret", [3; 32]);
    assert_eq!(
        third.receive(&offer, NOW),
        Ok(Reaction {
            forward: true,
            ..Reaction::default()
        })
    );
    assert_eq!(
        big.receive(&offer, NOW),
        Err("duplicate"),
        "our own event, remembered when sent"
    );
}

#[test]
fn hellos_slow_down_and_stop_while_quiet() {
    let mut r = Rendezvous::new("s", [4; 32]);
    let sent: Vec<u64> = (0..200)
        .filter(|t| r.tick(NOW + t, false).is_some())
        .collect();
    assert_eq!(sent[..6], [0, 2, 6, 14, 30, 60]);
    assert!(sent.windows(2).skip(5).all(|w| w[1] - w[0] == 30));
    assert!(
        (200..400).all(|t| r.tick(NOW + t, true).is_none()),
        "quiet: nothing"
    );
    assert!(
        r.tick(NOW + 400, false).is_some(),
        "a hello at once when a seat goes missing"
    );
    assert!(r.tick(NOW + 401, false).is_none());
    assert!(r.tick(NOW + 402, false).is_some(), "then quick again");
}

#[test]
fn hostile_and_stray_events_are_refused_by_reason() {
    let (mut big, mut small) = pair();
    let hello = small.tick(NOW, false).unwrap();
    // Another room's hello, a stale one, another kind, a forged signature, a changed content.
    let mut other = Rendezvous::new("another-room", [5; 32]);
    assert_eq!(
        big.receive(&other.tick(NOW, false).unwrap(), NOW),
        Err("foreign_topic")
    );
    assert_eq!(big.receive(&hello, NOW + WINDOW_S + 1), Err("stale"));
    let mut e = hello.clone();
    e.kind = 1;
    assert_eq!(big.receive(&e, NOW), Err("wrong_kind"));
    let mut e = hello.clone();
    e.sig = nostr::hex(&[7; 64]);
    assert_eq!(big.receive(&e, NOW), Err("bad_signature"));
    let mut e = hello.clone();
    e.content.push('A');
    assert_eq!(
        big.receive(&e, NOW),
        Err("bad_signature"),
        "the id no longer matches"
    );
    // Another room's sealed envelope under our topic, re-signed by its own key.
    let keys = nostr::Keys::from_secret(&[9; 32]).unwrap();
    let env = Envelope {
        from: [1; 16],
        to: None,
        signer: keys.public.clone(),
        body: Body::Hello,
    };
    let sealed = Room::new("another-room").seal(&env, [0; 24]);
    let topic = vec![vec!["t".to_string(), big.topic().to_string()]];
    let e = Event::sign(&keys, NOW, KIND, topic.clone(), sealed, &[0; 32]);
    assert_eq!(big.receive(&e, NOW), Err("undecryptable"));
    // A room member's envelope re-signed by someone else: the signer it names is not the event's.
    let env = Envelope {
        from: [1; 16],
        to: None,
        signer: "ab".repeat(32),
        body: Body::Hello,
    };
    let e = Event::sign(
        &keys,
        NOW,
        KIND,
        topic.clone(),
        Room::new("room-secret").seal(&env, [1; 24]),
        &[0; 32],
    );
    assert_eq!(big.receive(&e, NOW), Err("wrong_key"));
    // The small peer's id spoken for by a second key (after the first bound it): refused.
    assert!(big.receive(&hello, NOW).is_ok());
    let env = Envelope {
        from: small.me,
        to: None,
        signer: keys.public.clone(),
        body: Body::Hello,
    };
    let e = Event::sign(
        &keys,
        NOW + 1,
        KIND,
        topic,
        Room::new("room-secret").seal(&env, [2; 24]),
        &[0; 32],
    );
    assert_eq!(big.receive(&e, NOW + 1), Err("wrong_key"));
    assert_eq!(big.peer_count(NOW + 1), 1);
}

/// A page reloaded (a new key and id) or closed stops counting as found once its hellos stop;
/// a peer that keeps saying hello keeps counting.
#[test]
fn a_peer_that_went_quiet_no_longer_counts_as_found() {
    let mut big = Rendezvous::with_id("room-secret", [7; 32], [9; 16]);
    let mut old = Rendezvous::with_id("room-secret", [1; 32], [1; 16]);
    let mut new = Rendezvous::with_id("room-secret", [2; 32], [2; 16]);
    let hello = |r: &mut Rendezvous, t: u64| r.tick(t, false).expect("a first hello");
    let h = hello(&mut old, NOW);
    assert!(big.receive(&h, NOW).is_ok());
    assert_eq!(big.peer_count(NOW), 1);
    // The page is reloaded: a new peer, the old one never heard again.
    let h = hello(&mut new, NOW + 10);
    assert!(big.receive(&h, NOW + 10).is_ok());
    assert_eq!(big.peer_count(NOW + 10), 2);
    let later = NOW + 10 + PRESENT_S;
    let h = new.hello(later);
    assert!(big.receive(&h, later).is_ok());
    assert_eq!(
        big.peer_count(later),
        1,
        "the reloaded page's old key is stale"
    );
}

proptest! {
    #[test]
    fn garbage_frames_never_panic(s in ".{0,300}") {
        let _ = nostr::parse(&s);
        let _ = nostr::parse(&format!("[\"EVENT\",\"s\",{s}]"));
    }

    #[test]
    fn garbage_events_are_refused(content in "[A-Za-z0-9_-]{0,200}", id in "[0-9a-f]{0,64}", kind in any::<u32>(), created in any::<u64>()) {
        let mut r = Rendezvous::new("room-secret", [6; 32]);
        let topic = r.topic().to_string();
        let e = Event { id, pubkey: "00".repeat(32), created_at: created, kind, tags: vec![vec!["t".into(), topic]], content, sig: "00".repeat(64) };
        prop_assert!(r.receive(&e, NOW).is_err());
    }
}
