//! The days store's core: wrapping, checking, reassembling, refilling, and every hostile event
//! refused by its reason.

use super::*;
use proptest::prelude::*;

const SECRET: &str = "Zm9vYmFyYmF6cXV4cXV1eA";
const NOW: u64 = 1_800_000_000;

fn days() -> Days {
    Days::new(SECRET)
}

fn keys(b: u8) -> Keys {
    visit_keys(&[b; 32])
}

fn wrap(d: &Days, k: &Keys, env: &[Vec<u8>], at: u64, part: usize) -> Vec<Event> {
    d.wrap(
        k,
        env,
        at,
        expiration(None, at),
        part,
        &mut rng(&[at as u8; 32], "t"),
    )
    .unwrap()
}

/// Envelopes of about `size` bytes in all, each different.
fn envelopes(n: usize, size: usize, salt: u8) -> Vec<Vec<u8>> {
    (0..n)
        .map(|i| {
            let mut h = Sha256::new();
            h.update([salt, i as u8]);
            let seed: [u8; 32] = h.finalize().into();
            (0..size / n).map(|j| seed[j % 32] ^ (j as u8)).collect()
        })
        .collect()
}

#[test]
fn a_small_bundle_is_one_event_with_topic_and_expiration() {
    let d = days();
    let env = envelopes(3, 600, 1);
    let ev = wrap(&d, &keys(1), &env, NOW, MAX_PART);
    assert_eq!(ev.len(), 1);
    let e = &ev[0];
    assert_eq!(e.kind, DAYS_KIND);
    assert_eq!(e.tag("t"), Some(d.topic()));
    assert_eq!(
        e.tag("expiration"),
        Some((NOW + UNKNOWN_END_S + KEEP_AFTER_S).to_string().as_str())
    );
    assert_eq!(e.tag("part"), None);
    assert_eq!(e.verify(), Ok(()));
    // The topic is stable, not the day's rendezvous topic, and another room's differs.
    assert_eq!(Days::new(SECRET).topic(), d.topic());
    assert_ne!(Days::new("another room").topic(), d.topic());
    assert_ne!(Room::new(SECRET).topic(NOW / 86_400), d.topic());
    let mut m = Mailbox::new(d);
    assert_eq!(m.receive(0, e), Ok(true));
    assert_eq!(m.bundles().len(), 1);
    assert_eq!(m.bundles()[0].envelopes, env);
    assert_eq!(m.bundles()[0].created_at, NOW);
    assert_eq!(m.envelopes(), env);
    assert_eq!(m.held_on(0), 1);
    assert_eq!(m.incomplete(), 0);
}

#[test]
fn a_big_bundle_is_split_into_parts_and_joined_in_any_order() {
    let d = days();
    let env = envelopes(7, 50_000, 2);
    let ev = wrap(&d, &keys(1), &env, NOW, MAX_PART);
    assert!(ev.len() >= 4, "{} parts", ev.len());
    for e in &ev {
        assert!(e.content.len() <= MAX_PART, "{}", e.content.len());
        // Each frame fits what the relay code parses.
        assert!(nostr::publish(e).len() <= nostr::MAX_FRAME);
        assert_eq!(e.tag("part").map(str::len), Some(32));
    }
    let mut m = Mailbox::new(days());
    for e in ev.iter().skip(1).rev() {
        assert_eq!(m.receive(0, e), Ok(true));
    }
    assert_eq!(m.bundles().len(), 0, "a part missing: nothing yet");
    assert_eq!(m.incomplete(), 1);
    assert_eq!(m.receive(0, &ev[0]), Ok(true));
    assert_eq!(m.incomplete(), 0);
    assert_eq!(m.envelopes(), env);
    // Smaller parts after a refusal: the same bundle.
    let small = wrap(&d, &keys(1), &env, NOW + 5, SMALL_PART);
    assert!(small.len() > ev.len());
    assert!(small.iter().all(|e| e.content.len() <= SMALL_PART));
    for e in &small {
        m.receive(1, e).unwrap();
    }
    assert_eq!(m.bundles().len(), 1, "one bundle, two copies");
    assert_eq!(m.bundles()[0].created_at, NOW);
    assert_eq!(m.held_on(0), 1);
    assert_eq!(m.held_on(1), 1);
}

#[test]
fn bundles_come_in_time_order_and_envelopes_once() {
    let d = days();
    let a = envelopes(2, 100, 3);
    let mut b = envelopes(2, 100, 4);
    b.push(a[0].clone());
    let mut m = Mailbox::new(days());
    for e in wrap(&d, &keys(2), &b, NOW + 10, MAX_PART) {
        m.receive(0, &e).unwrap();
    }
    for e in wrap(&d, &keys(1), &a, NOW, MAX_PART) {
        m.receive(0, &e).unwrap();
    }
    let all = m.envelopes();
    assert_eq!(
        all,
        vec![a[0].clone(), a[1].clone(), b[0].clone(), b[1].clone()]
    );
}

/// Every kind of hostile event is refused by its reason, and nothing it carries is taken.
#[test]
fn hostile_events_are_refused_by_reason() {
    let d = days();
    let env = envelopes(2, 300, 5);
    let good = wrap(&d, &keys(1), &env, NOW, MAX_PART).remove(0);
    let mut m = Mailbox::new(days());
    let mut expect = BTreeMap::new();
    let mut refuse = |m: &mut Mailbox, e: &Event, why: Refused| {
        assert_eq!(m.receive(0, e), Err(why), "{why:?}");
        *expect.entry(why).or_insert(0u64) += 1;
        assert_eq!(m.refused(), &expect);
    };
    // A bad signature (a valid one of another event).
    let mut bad = good.clone();
    bad.sig = wrap(&d, &keys(1), &env, NOW + 1, MAX_PART)[0].sig.clone();
    refuse(&mut m, &bad, Refused::BadSignature);
    // A changed field: the id is no longer its hash.
    let mut bad = good.clone();
    bad.created_at += 1;
    refuse(&mut m, &bad, Refused::BadId);
    // Another room's event, and one re-tagged with our topic.
    let other = wrap(&Days::new("elsewhere"), &keys(1), &env, NOW, MAX_PART).remove(0);
    refuse(&mut m, &other, Refused::WrongTopic);
    let mut moved = other.clone();
    moved.tags[0][1] = d.topic().to_string();
    refuse(&mut m, &moved, Refused::Garbage);
    // Garbage content, and our content re-signed by another key (its seal names the signer).
    let mut bad = good.clone();
    bad.content = "AAAA".repeat(30);
    refuse(&mut m, &bad, Refused::Garbage);
    let mut bad = good.clone();
    bad.content = "not base64 !".into();
    refuse(&mut m, &bad, Refused::Garbage);
    let resigned = Event::sign(
        &keys(9),
        NOW,
        DAYS_KIND,
        good.tags.clone(),
        good.content.clone(),
        &[0; 32],
    );
    refuse(&mut m, &resigned, Refused::Garbage);
    // Oversized and wrong kind.
    let mut bad = good.clone();
    bad.content = "A".repeat(MAX_PART + 1);
    refuse(&mut m, &bad, Refused::Oversized);
    let mut bad = good.clone();
    bad.kind = 1;
    refuse(&mut m, &bad, Refused::WrongKind);
    // Malformed part tags.
    for t in [
        vec!["part"],
        vec!["part", "xyz", "0", "2"],
        vec!["part", &"a".repeat(32), "2", "2"],
        vec!["part", &"a".repeat(32), "0", "0"],
        vec!["part", &"a".repeat(32), "0", "9999"],
        vec!["part", &"A".repeat(32), "0", "2"],
        vec!["part", &"a".repeat(32), "-1", "2"],
    ] {
        let mut bad = good.clone();
        bad.tags.push(t.iter().map(|s| s.to_string()).collect());
        refuse(&mut m, &bad, Refused::BadPart);
    }
    // A part moved to another place in its bundle does not open.
    let parts = wrap(&d, &keys(1), &envelopes(3, 40_000, 6), NOW, MAX_PART);
    let mut bad = parts[1].clone();
    bad.tags[2][2] = "0".into();
    refuse(&mut m, &bad, Refused::Garbage);
    // A room member (who holds the key) sealing parts whose id is not their bundle's.
    let forged: Vec<Event> = {
        let k = keys(3);
        let bytes = encode(&env);
        let id = "ab".repeat(16);
        let halves = [&bytes[..10], &bytes[10..]];
        (0..2)
            .map(|i| {
                let tag: PartTag = Some((id.clone(), i as u16, 2));
                let content = d
                    .room
                    .seal_bytes(halves[i], &d.aad(&k.public, &tag), [i as u8; 24]);
                let tags = vec![
                    vec!["t".into(), d.topic().into()],
                    vec!["part".into(), id.clone(), i.to_string(), "2".into()],
                ];
                Event::sign(&k, NOW, DAYS_KIND, tags, content, &[0; 32])
            })
            .collect()
    };
    assert_eq!(m.receive(0, &forged[0]), Ok(true));
    refuse(&mut m, &forged[1], Refused::BadBundle);
    // A signer's second event for a part it already filled.
    let again = wrap(&d, &keys(3), &env, NOW, 200);
    assert!(again.len() >= 2);
    assert_eq!(m.receive(0, &again[0]), Ok(true));
    let other_bytes = wrap(&d, &keys(3), &envelopes(2, 300, 7), NOW, 200);
    let mut conflict = other_bytes[1].clone();
    // Same signer, same bundle id and place: only its signer could make it.
    conflict.tags[2] = again[1].tags[2].clone();
    let tag = part_tag(&conflict).unwrap();
    conflict.content = d
        .room
        .seal_bytes(b"other", &d.aad(&conflict.pubkey, &tag), [5; 24]);
    let k = keys(3);
    let conflict = Event::sign(
        &k,
        NOW,
        DAYS_KIND,
        conflict.tags,
        conflict.content,
        &[0; 32],
    );
    assert_eq!(m.receive(0, &again[1]), Ok(true));
    refuse(&mut m, &conflict, Refused::Conflict);
    for e in &again[2..] {
        assert_eq!(m.receive(0, e), Ok(true));
    }
    // None of it became a bundle but the member's honest one.
    assert_eq!(m.bundles().len(), 1);
    assert_eq!(m.envelopes(), env);
    // The genuine event, from two relays: taken once, the second copy a duplicate.
    assert_eq!(m.receive(0, &good), Ok(true));
    assert_eq!(m.receive(1, &good), Ok(false));
    assert_eq!(m.receive(1, &good), Ok(false));
    assert_eq!(m.duplicates, 2);
    assert_eq!(m.held_on(1), 1);
}

#[test]
fn a_full_mailbox_refuses_more() {
    let d = days();
    let mut m = Mailbox::new(days());
    // Fill it with cheap placeholders, then a real event is refused as full.
    let placeholder = Event::sign(&keys(1), 0, 1, vec![], String::new(), &[0; 32]);
    for i in 0..MAX_EVENTS {
        m.events.insert(
            format!("{i}"),
            Held {
                event: placeholder.clone(),
                plain: vec![],
                relays: BTreeSet::new(),
            },
        );
    }
    let e = wrap(&d, &keys(1), &envelopes(1, 10, 8), NOW, MAX_PART).remove(0);
    assert_eq!(m.receive(0, &e), Err(Refused::Full));
}

/// A relay that lost events is refilled with the original events of a copy another relay holds;
/// a relay that answered nothing (unreachable, timed out) is not; a rewrapped copy counts.
#[test]
fn relays_missing_bundles_are_refilled_with_the_originals() {
    let d = days();
    let a = wrap(&d, &keys(1), &envelopes(2, 300, 9), NOW, MAX_PART);
    let b = wrap(&d, &keys(2), &envelopes(5, 40_000, 10), NOW + 60, MAX_PART);
    let mut m = Mailbox::new(days());
    // Relay 0 has everything; relay 1 lost `a` and a part of `b`; relay 2 never answered.
    for e in a.iter().chain(&b) {
        m.receive(0, e).unwrap();
    }
    for e in b.iter().skip(1) {
        m.receive(1, e).unwrap();
    }
    assert_eq!((m.held_on(0), m.held_on(1), m.held_on(2)), (2, 0, 0));
    let r = m.refills(&[0, 1]);
    assert_eq!(r.len(), 2);
    assert_eq!(r[0].relay, 1);
    assert_eq!(r[0].events, a);
    assert_eq!(
        r[1].events, b,
        "every part of the copy, the ones it has too"
    );
    // Once relay 1 holds a copy (here a rewrapped one, as after `too old`), nothing to refill.
    let env_a = m.bundle(&r[0].bundle).unwrap().envelopes.clone();
    for e in wrap(&d, &keys(7), &env_a, NOW + 99_999, MAX_PART) {
        m.receive(1, &e).unwrap();
    }
    m.receive(1, &b[0]).unwrap();
    assert!(m.refills(&[0, 1]).is_empty());
    assert_eq!(m.refills(&[0, 1, 2]).len(), 2);
    assert_eq!(m.bundles().len(), 2);
}

#[test]
fn refusals_are_answered_by_kind() {
    assert_eq!(
        after_refusal("rate-limited: slow down", 100, 0, false),
        Next::Retry { after_s: 1 }
    );
    assert_eq!(
        after_refusal("rate-limited: x", 100, 2, false),
        Next::Retry { after_s: 4 }
    );
    assert_eq!(
        after_refusal("rate-limited: x", 100, MAX_TRIES, false),
        Next::GiveUp
    );
    assert_eq!(
        after_refusal("invalid: 1700000000 is too old", 100, 0, false),
        Next::Rewrap { part: MAX_PART }
    );
    assert_eq!(
        after_refusal("invalid: 1700000000 is too old", 100, 0, true),
        Next::GiveUp
    );
    assert_eq!(
        after_refusal(
            "invalid: 280 characters should be enough for anybody",
            9000,
            0,
            false
        ),
        Next::Rewrap { part: SMALL_PART }
    );
    assert_eq!(
        after_refusal("invalid: too large", 3000, 0, false),
        Next::GiveUp
    );
    assert_eq!(
        after_refusal("blocked: not on white-list", 9000, 0, false),
        Next::GiveUp
    );
    assert_eq!(
        after_refusal("pow: difficulty 20", 100, 0, false),
        Next::GiveUp
    );
}

#[test]
fn expiration_is_the_last_deadline_plus_thirty_days() {
    assert_eq!(expiration(Some(NOW), 5), NOW + 30 * 86_400);
    assert_eq!(expiration(None, NOW), NOW + 395 * 86_400);
    let e = wrap(&days(), &keys(1), &[vec![1]], NOW, MAX_PART);
    assert!(e[0]
        .tags
        .contains(&vec!["expiration".into(), (NOW + 395 * 86_400).to_string()]));
}

#[test]
fn bundle_bytes_round_trip_and_garbage_is_no_bundle() {
    let env = envelopes(4, 1000, 11);
    assert_eq!(decode(&encode(&env)), Some(env.clone()));
    let mut long = encode(&env);
    long.push(0);
    assert_eq!(decode(&long), None, "trailing bytes");
    assert_eq!(decode(&[0xff; 9]), None);
    assert_eq!(decode(&[]), None);
    assert_eq!(decode(&encode(&[])), Some(vec![]));
}

proptest! {
    #[test]
    fn garbage_events_never_panic(content in ".{0,300}", part in proptest::collection::vec(".{0,40}", 0..5), kind in 7460u32..7464) {
        let d = days();
        let mut tags = vec![vec!["t".to_string(), d.topic().to_string()]];
        let mut p = vec!["part".to_string()];
        p.extend(part);
        tags.push(p);
        let e = Event::sign(&keys(1), NOW, kind, tags, content, &[0; 32]);
        let mut m = Mailbox::new(d);
        let _ = m.receive(0, &e);
        let _ = m.refills(&[0, 1]);
    }

    #[test]
    fn garbage_bundles_never_panic(b in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = decode(&b);
    }
}
