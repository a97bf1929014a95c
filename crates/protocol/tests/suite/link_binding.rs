//! Security review C11: which connection a key's private messages go to. Peer 0 is honest,
//! peer 1 the victim and peer 2 the attacker, all participants of one face-down game. The
//! attacker solicits a signed message from the victim (a chat acknowledgement, a hello) and
//! forwards it over its own connection to peer 0, hoping peer 0 then sends the victim's
//! private chat and private decryption shares to the attacker's connection. Private chat is
//! also sealed to its recipient's key, so a copy that goes astray reveals nothing.

use crate::common;

use common::{Net, NetParams, Tamper};
use orbis_engine::classic::ClassicOptions;
use orbis_protocol::wire::Envelope;
use orbis_protocol::{Body, Dest, LinkId, PeerKey};
use std::cell::RefCell;
use std::rc::Rc;

const HONEST: usize = 0;
const VICTIM: usize = 1;
const ATTACKER: usize = 2;

/// A face-down game of three, under way.
fn game(seed: u64) -> Net {
    let mut net = Net::new(3, seed, NetParams::perfect());
    let mut p = net.proposal(0);
    p.face_down = true;
    p.options = ClassicOptions {
        missions: true,
        ..ClassicOptions::default()
    };
    net.start(p);
    assert!(net.run_until(5_000_000, |n| n.peers[0].log_len() >= 20));
    net
}

/// Every private message for the victim that peer 0 sends to the attacker's connection:
/// (kind, bytes).
type Leaks = Rc<RefCell<Vec<(&'static str, Vec<u8>)>>>;

fn watch_honest(net: &mut Net, victim: PeerKey) -> Leaks {
    let leaks: Leaks = Rc::default();
    let l = leaks.clone();
    let tamper: Tamper = Box::new(move |_, _, to, bytes| {
        if to == ATTACKER {
            match Envelope::open_where(&bytes, |_| true) {
                Ok((_, Body::Deal { to: Some(p), .. })) if p as usize == VICTIM => {
                    l.borrow_mut().push(("decryption share", bytes.clone()));
                }
                Ok((_, Body::Chat { to: Some(k), .. })) if k == victim => {
                    l.borrow_mut().push(("private chat", bytes.clone()));
                }
                _ => {}
            }
        }
        vec![bytes]
    });
    net.tamper = Some((HONEST, tamper));
    leaks
}

/// The attacker chats to the victim and keeps the victim's signed acknowledgement (which the
/// victim sends back over its connection to the attacker).
fn solicit_ack(net: &mut Net) -> Option<Vec<u8>> {
    let victim = net.peers[VICTIM].key();
    let chat = net.peers[ATTACKER].chat(Some(victim), "hi").ok()?;
    let (_, raw) = chat.send.into_iter().next()?;
    let now = net.now;
    let out = net.peers[VICTIM].handle(ATTACKER as LinkId, &raw, now);
    out.send.into_iter().find_map(|(d, b)| {
        let ack = matches!(
            Envelope::open_where(&b, |_| true),
            Ok((_, Body::ChatAck { .. }))
        );
        (d == Dest::Link(ATTACKER as LinkId) && ack).then_some(b)
    })
}

/// The attacker hands the honest peer `raw` (signed by the victim) over its own connection.
fn forward(net: &mut Net, raw: &[u8]) {
    let now = net.now;
    let out = net.peers[HONEST].handle(ATTACKER as LinkId, raw, now);
    net.process(HONEST, out);
}

/// C11: a freshly solicited `ChatAck`, forwarded by the attacker, moved the victim to the
/// attacker's link at the honest peer (a sync, batch or acknowledgement newer than the last
/// rebound its signer to the connection it came over): the honest peer's private chat to the
/// victim and its decryption shares of the victim's cards went to the attacker. A key is now
/// bound to a connection only by answering that connection's own challenge.
#[test]
fn a_forwarded_chat_ack_does_not_move_the_victim_to_the_attackers_link() {
    for seed in [11, 12] {
        let mut net = game(seed);
        let victim = net.peers[VICTIM].key();
        assert_eq!(net.peers[HONEST].link_of(&victim), Some(VICTIM as LinkId));
        let leaks = watch_honest(&mut net, victim);
        // The attacker keeps at it for a long stretch of the game, while the victim draws cards.
        let start = net.peers[HONEST].log_len();
        let mut rounds = 0;
        while net.peers[HONEST].log_len() < start + 150 && rounds < 20_000 {
            rounds += 1;
            if let Some(ack) = solicit_ack(&mut net) {
                forward(&mut net, &ack);
            }
            if rounds % 10 == 1 {
                // The honest peer writes to the victim privately now and then.
                if let Ok(o) = net.peers[HONEST].chat(Some(victim), "for your eyes only") {
                    net.process(HONEST, o);
                }
            }
            let t = net.now + 100;
            net.run_until(t, |_| false);
        }
        let leaks = leaks.borrow();
        let kinds: Vec<&str> = leaks.iter().map(|(k, _)| *k).collect();
        assert!(
            leaks.is_empty(),
            "seed {seed}: the honest peer sent the victim's {} messages to the attacker: {:?}",
            leaks.len(),
            kinds.iter().take(8).collect::<Vec<_>>()
        );
        assert_eq!(
            net.peers[HONEST].link_of(&victim),
            Some(VICTIM as LinkId),
            "seed {seed}"
        );
        // The game is unharmed.
        assert!(net.run_until(net.now + 50_000_000, |n| n.all_over(&[0, 1, 2])));
        assert!(
            net.complaints(HONEST).is_empty(),
            "{:?}",
            net.complaints(HONEST)
        );
    }
}

/// The first hello `raw` of `out` sent to `link`, with its challenge and response.
fn hello_to(out: &[(Dest, Vec<u8>)], link: LinkId) -> Option<(Vec<u8>, Option<[u8; 32]>)> {
    out.iter()
        .find_map(|(d, b)| match Envelope::open_where(b, |_| true) {
            Ok((_, Body::Hello { challenge, .. })) if *d == Dest::Link(link) => {
                Some((b.clone(), challenge))
            }
            _ => None,
        })
}

/// C11 from a second angle: the attacker gets the victim to sign hellos that answer
/// challenges (its own, or the honest peer's relayed), and forwards them; and the victim
/// reloads in the middle of it. Nothing binds the victim anywhere but its own connection.
#[test]
fn the_victims_signed_answers_to_challenges_bind_it_nowhere_else() {
    let mut net = game(13);
    let victim = net.peers[VICTIM].key();
    let attacker = ATTACKER as LinkId;
    const FRESH: LinkId = 9;
    let now = net.now;
    // 1. The attacker challenges the victim over its own connection; the victim answers (a
    // hello signed with the attacker's nonce), which the attacker forwards to the honest peer,
    // over its own connection and over a fresh one.
    let key = ed25519_dalek::SigningKey::from_bytes(&net.configs[ATTACKER].identity_secret);
    let challenge = Envelope::seal(
        &key,
        common::game_id(),
        1 << 45,
        &Body::Hello {
            name: "attacker".into(),
            answer: true,
            challenge: Some([7; 32]),
            response: None,
        },
    );
    let out = net.peers[VICTIM].handle(attacker, &challenge, now);
    let (answer, _) = hello_to(&out.send, attacker).expect("the victim answers a challenge");
    for l in [attacker, FRESH] {
        let out = net.peers[HONEST].handle(l, &answer, now);
        assert_eq!(net.peers[HONEST].link_of(&victim), Some(VICTIM as LinkId));
        assert!(
            hello_to(&out.send, l).is_none(),
            "an answer is not answered"
        );
    }
    // 2. The attacker relays: the victim's acknowledgement over a fresh connection draws the
    // honest peer's challenge for that connection; the attacker hands it to the victim over
    // its own connection to the victim, which is bound to the attacker: no answer.
    let ack = solicit_ack(&mut net).expect("an acknowledgement");
    let now = net.now;
    let out = net.peers[HONEST].handle(FRESH, &ack, now);
    let (honest_challenge, c) = hello_to(&out.send, FRESH).expect("a fresh link is challenged");
    assert!(c.is_some());
    let out = net.peers[VICTIM].handle(attacker, &honest_challenge, now);
    assert!(
        hello_to(&out.send, attacker).is_none(),
        "the victim answered another key's challenge over the attacker's connection"
    );
    // The same challenge re-wrapped in a hello the attacker signs (second look at C11): the
    // victim answers the attacker, and the answer, naming the attacker as its challenger, binds
    // the victim nowhere at the honest peer (before, it bound it to the fresh connection).
    let (_, honest_body) = Envelope::open_where(&honest_challenge, |_| true).unwrap();
    let Body::Hello { challenge: c, .. } = honest_body else {
        panic!("a hello")
    };
    let rewrapped = Envelope::seal(
        &key,
        common::game_id(),
        (1 << 45) + 1,
        &Body::Hello {
            name: "attacker".into(),
            answer: true,
            challenge: c,
            response: None,
        },
    );
    let out = net.peers[VICTIM].handle(attacker, &rewrapped, now);
    let (answer, _) = hello_to(&out.send, attacker).expect("the victim answers the attacker");
    let _ = net.peers[HONEST].handle(FRESH, &answer, now);
    assert_eq!(
        net.peers[HONEST].link_of(&victim),
        Some(VICTIM as LinkId),
        "an answer solicited by the attacker bound the victim to its connection"
    );
    // The victim's hello forwarded as is (a broadcast one, or a replay) binds nothing either.
    let victim_key = ed25519_dalek::SigningKey::from_bytes(&net.configs[VICTIM].identity_secret);
    let replay = Envelope::seal(
        &victim_key,
        common::game_id(),
        net.configs[VICTIM].seq_start,
        &Body::Hello {
            name: net.configs[VICTIM].name.clone(),
            answer: false,
            challenge: None,
            response: None,
        },
    );
    for l in [attacker, FRESH] {
        let _ = net.peers[HONEST].handle(l, &replay, now);
    }
    assert_eq!(net.peers[HONEST].link_of(&victim), Some(VICTIM as LinkId));
    // 3. The victim reloads; the attacker keeps forwarding its acknowledgements. The victim
    // binds its connections again by their challenges, reads its cards and plays on, and
    // nothing for it goes to the attacker.
    let leaks = watch_honest(&mut net, victim);
    let memento = net.peers[VICTIM].memento();
    net.reload(VICTIM, memento);
    let start = net.peers[HONEST].log_len();
    let mut rounds = 0;
    while net.peers[HONEST].log_len() < start + 60 && rounds < 20_000 {
        rounds += 1;
        if let Some(ack) = solicit_ack(&mut net) {
            forward(&mut net, &ack);
        }
        if rounds % 10 == 1 {
            if let Ok(o) = net.peers[HONEST].chat(Some(victim), "for your eyes only") {
                net.process(HONEST, o);
            }
        }
        let t = net.now + 100;
        net.run_until(t, |_| false);
    }
    assert!(leaks.borrow().is_empty(), "{} leaks", leaks.borrow().len());
    assert_eq!(net.peers[HONEST].link_of(&victim), Some(VICTIM as LinkId));
    assert_eq!(
        net.peers[VICTIM].link_of(&net.peers[HONEST].key()),
        Some(HONEST as LinkId),
        "the reloaded victim bound the honest peer again"
    );
    assert!(net.run_until(net.now + 50_000_000, |n| n.all_over(&[0, 1, 2])));
    assert!(
        net.complaints(HONEST).is_empty(),
        "{:?}",
        net.complaints(HONEST)
    );
}

/// The whole relay of the test below: a solicited acknowledgement draws the honest peer's
/// challenge of the attacker's `fresh` connection, relayed to the victim over a fresh connection
/// of the attacker's to it; the victim's answer, handed back, binds the victim to `fresh`.
/// Returns that answer.
fn whole_relay(net: &mut Net, fresh: LinkId) -> Vec<u8> {
    let victim = net.peers[VICTIM].key();
    let ack = solicit_ack(net).expect("an acknowledgement");
    let now = net.now;
    let out = net.peers[HONEST].handle(fresh, &ack, now);
    let (challenge, _) = hello_to(&out.send, fresh).expect("a fresh link is challenged");
    let out = net.peers[VICTIM].handle(fresh, &challenge, now);
    let (answer, _) = hello_to(&out.send, fresh).expect("the victim answers");
    let _ = net.peers[HONEST].handle(fresh, &answer, now);
    assert_eq!(net.peers[HONEST].link_of(&victim), Some(fresh), "the limit");
    answer
}

/// What C11 leaves (PROTOCOL.md, "It still can"): an attacker that relays whole, over a fresh
/// connection to the honest peer and another to the victim, passes the honest peer's challenge
/// to the victim and the victim's answer back; neither can tell that from a reconnection of
/// the other, so the victim is bound to the attacker's fresh connection there. Private chat is
/// sealed to its recipient's key, so the attacker reads none of it. The victim's next message
/// over its own connection draws a challenge there, and its answer binds it back.
#[test]
fn a_whole_relay_over_fresh_connections_binds_until_the_victim_answers_again() {
    let mut net = game(14);
    let victim = net.peers[VICTIM].key();
    const FRESH: LinkId = 9;
    whole_relay(&mut net, FRESH);
    let o = net.peers[HONEST]
        .chat(Some(victim), "relayed")
        .expect("chat");
    assert_eq!(o.send[0].0, Dest::Link(FRESH));
    // ...but a private message is sealed to its recipient's key: the relay reads nothing of it,
    // and the attacker's own peer, handed it, shows nothing.
    let bytes = &o.send[0].1;
    assert!(!bytes.windows(7).any(|w| w == b"relayed"));
    let shown = net.peers[ATTACKER].handle(HONEST as LinkId, bytes, net.now);
    assert!(!shown
        .events
        .iter()
        .any(|e| matches!(e, orbis_protocol::ProtocolEvent::Chat { .. })));
    // The victim's next sync or acknowledgement over its own connection draws a challenge
    // there; its answer binds it back.
    let t = net.now + 5_000;
    net.run_until(t, |n| {
        n.peers[HONEST].link_of(&victim) == Some(VICTIM as LinkId)
    });
    assert_eq!(net.peers[HONEST].link_of(&victim), Some(VICTIM as LinkId));
}

/// The victim's spent answer, replayed over the attacker's connection `fresh` now, binds the
/// victim to nothing there and introduces it to no one.
fn replay_binds_nothing(net: &mut Net, fresh: LinkId, spent: &[u8], victim: PeerKey, what: &str) {
    let now = net.now;
    let out = net.peers[HONEST].handle(fresh, spent, now);
    assert_ne!(net.peers[HONEST].link_of(&victim), Some(fresh), "{what}");
    assert!(!out.events.iter().any(
        |e| matches!(e, orbis_protocol::ProtocolEvent::PeerHello { peer, .. } if *peer == victim)
    ));
}

/// The same relay, then the victim binds back and goes quiet, out of any game (security review
/// of the last note's leftovers). The attacker keeps the victim's spent answer, fills the
/// honest peer's table of names with made-up keys until the victim's name is forgotten, and
/// replays the answer over its fresh connection. Forgetting a name also forgot which of the
/// victim's messages was the last to bind it, so the old answer (to the same challenge, since
/// the connection and session had not changed) bound the absent victim to the attacker again:
/// shown in the room as present, its private chat sent to the attacker. A forgotten name now
/// ends every answer given before.

#[test]
fn a_forgotten_victims_spent_answer_does_not_bind_it_again() {
    use common::strangers::{hello_over, hello_unanswered, stranger};
    let mut net = common::lobby(3, 15);
    let victim = net.peers[VICTIM].key();
    const FRESH: LinkId = 9;
    // The whole relay (the documented limit): the victim is bound to the fresh connection.
    let spent = whole_relay(&mut net, FRESH);
    // The victim says hello again over its own connection and is bound back there; the spent
    // answer replayed binds nothing.
    let o = net.peers[VICTIM].start(net.now);
    net.process(VICTIM, o);
    let t = net.now + 5_000;
    net.run_until(t, |n| {
        n.peers[HONEST].link_of(&victim) == Some(VICTIM as LinkId)
    });
    assert_eq!(net.peers[HONEST].link_of(&victim), Some(VICTIM as LinkId));
    let now = net.now;
    let _ = net.peers[HONEST].handle(FRESH, &spent, now);
    assert_eq!(net.peers[HONEST].link_of(&victim), Some(VICTIM as LinkId));
    // The victim goes away; made-up keys fill the table of names; 76 s later more of them come
    // until the victim's name is forgotten, the last one leaving its place free.
    net.online[VICTIM] = false;
    let mut i = 0u32;
    let mut seq = 1u64;
    let mut next = |seq: &mut u64| {
        i += 1;
        *seq += 2;
        (stranger(80_000 + i), 1_000 + u64::from(i), *seq)
    };
    while net.peers[HONEST].names().len() < 256 {
        let (key, link, s) = next(&mut seq);
        let now = net.now;
        hello_over(&mut net.peers[HONEST], link, &key, "filler", s, now);
    }
    let t = net.now + 76_000;
    net.run_until(t, |_| false);
    for _ in 0..600 {
        if !net.peers[HONEST].names().contains_key(&victim) {
            break;
        }
        let (key, link, s) = next(&mut seq);
        let now = net.now;
        if net.peers[HONEST].names().len() < 256 {
            hello_over(&mut net.peers[HONEST], link, &key, "filler", s, now);
        } else {
            hello_unanswered(&mut net.peers[HONEST], link, &key, s, now);
        }
    }
    assert!(
        !net.peers[HONEST].names().contains_key(&victim),
        "the victim's name was forgotten"
    );
    assert!(net.peers[HONEST].names().len() < 256, "a place is free");
    // The replay.
    replay_binds_nothing(
        &mut net,
        FRESH,
        &spent,
        victim,
        "the spent answer bound the absent victim to the attacker's connection",
    );
    // Second angle: the attacker makes the honest peer forget over 256 more names, so that the
    // victim's last binding is let go too; then every nonce has changed, and the replay still
    // binds nothing.
    let forgotten = |net: &Net| {
        net.peers[HONEST]
            .table_sizes()
            .into_iter()
            .find(|(k, _)| *k == "forgotten_binds")
            .map_or(0, |(_, v)| v)
    };
    let mut let_go = 0;
    for _ in 0..3 {
        let t = net.now + 76_000;
        net.run_until(t, |_| false);
        for _ in 0..300 {
            let before = forgotten(&net);
            let (key, link, s) = next(&mut seq);
            let now = net.now;
            hello_over(&mut net.peers[HONEST], link, &key, "filler", s, now);
            if before == 256 && forgotten(&net) == 256 {
                let_go += 1; // one came in, one (the oldest) was let go
            }
        }
    }
    assert!(forgotten(&net) <= 256);
    assert!(let_go >= 256, "only {let_go} let go");
    // A place made free again (else the replay is refused for a full table, which proves
    // nothing), then the replay.
    let t = net.now + 76_000;
    net.run_until(t, |_| false);
    let (key, link, s) = next(&mut seq);
    let now = net.now;
    hello_unanswered(&mut net.peers[HONEST], link, &key, s, now);
    assert!(net.peers[HONEST].names().len() < 256, "a place is free");
    replay_binds_nothing(
        &mut net,
        FRESH,
        &spent,
        victim,
        "once the victim's last binding was let go, its spent answer bound it again",
    );
    // Honest newcomers are still named.
    let (key, link, s) = next(&mut seq);
    let now = net.now;
    hello_over(&mut net.peers[HONEST], link, &key, "newcomer", s, now);
    assert!(net.peers[HONEST]
        .names()
        .contains_key(&orbis_protocol::PeerKey(key.verifying_key().to_bytes())));
}
