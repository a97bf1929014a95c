//! An independent review of games over days (issue 61): attacks the author's `days.rs` does not
//! take, by a modified client that signs any message the wire allows and by relays that
//! reorder, withhold, duplicate or split messages between visitors. Each test states what
//! PROTOCOL.md ("Games over days", "What a hostile peer can and cannot do") promises.
//! A test that shows a hole is `#[ignore = "hole: ..."]` with the reason. The three holes found
//! (a, f, f) are fixed; each test says how, and `days_holes.rs` attacks the fixes.

use super::days::{all_agree, clock, lobby, missed_applied, proposal, World, DAY, HOUR, T0};
use ed25519_dalek::SigningKey;
use orbis_protocol::wire::OrdersPayload;
use orbis_protocol::{Body, Clock, CommandError, Control, Envelope, Next, Peer};

/// A message signed by player `i` of `w` with any body (a modified client), at sequence `seq`.
pub(crate) fn forge(w: &World, i: usize, seq: u64, body: &Body) -> Vec<u8> {
    let key = SigningKey::from_bytes(&w.cfgs[i].identity_secret);
    // The game's own id (`game_tag`), from the last stored message, a game message: a body
    // signed under the room's id is another game's and would be dropped unread.
    let game_id = Envelope::open_where(w.store.last().expect("a stored message"), |_| true)
        .expect("a stored message")
        .0
        .game_id;
    Envelope::seal(&key, game_id, seq, body)
}

/// The messages of the visits since `before`, taken out of the common store (a relay that only
/// some visitors reach keeps them).
pub(crate) fn take(w: &mut World, before: usize) -> Vec<Vec<u8>> {
    w.store.drain(before..).collect()
}

pub(crate) fn no_halt(w: &mut World, n: usize) {
    for i in 0..n {
        let s = w.visit(i, |_| vec![]);
        assert!(s.halted.is_none(), "player {i}: {:?}", s.halted);
    }
}

/// Our own orders (a human's choice: all hold, with a draw vote `draw` so two choices differ).
pub(crate) fn hold(p: &mut Peer, salt: u8, draw: bool) -> Vec<orbis_protocol::Output> {
    let Some((_, powers)) = p.orders_due() else {
        return vec![];
    };
    let orders = powers.iter().map(|&pw| (pw, vec![])).collect();
    let mut payload = OrdersPayload::orders(orders);
    payload.draw = vec![(powers[0], draw)];
    vec![p.submit_orders(payload, [salt; 32]).expect("orders")]
}

/// (a) A relay split: 1 (late to reveal) reveals on a store that lacks 0's missed-turn vote
/// and resolves Spring 1901 without it; 2 votes on a store that has 0's vote but lacks 1's
/// reveal, so for 2 the vote passes (1's excuse spent, the phase extended). PROTOCOL.md: a
/// reveal before every voter has voted counts; votes are binding; every honest peer ends on one
/// history and nobody honest is named.
///
/// Observed: HOLE. After the relays are refilled every fresh visit agrees on the position (log
/// 1, the same state hash, excuses [1, 0, 1]: the binding votes win and 1's excuse is spent),
/// but 1's checkpoint for position 1, signed on its split visit (resolved without the control),
/// carries another log head. Every other visitor that reads it freezes (`Peer::suspect`,
/// `CheckpointMismatch` against 1, "freezes a visit instead of halting" in stored mode) and
/// from then on signs nothing: player 0 is told `Next::Reveal` for Fall 1901 visit after visit
/// and never opens its orders, so the game stops for good, with no halt and nobody named (or,
/// once the others vote 0's reveal missed, an honest player spends excuses and ends in civil
/// disorder). 1 also committed Fall orders on the split branch. Needs: a checkpoint of a
/// participant named by a `Missed` control that passed at that position must not count as
/// evidence against the voters' history (as the excluded peer's view already does not, log.rs
/// `compare_checkpoint`), or the late reveal must be ordered against the votes in the
/// store's canonical order everywhere.
///
/// Fixed (days-holes): both. `Peer::visit` reads the store in the order of positions, votes
/// first, so the passed vote decides the round on every visit; a checkpoint at r + 1 of a
/// player a passed `Missed` control names at r no longer counts; a visit that still disagrees
/// once the store is read halts naming the signer (`days_holes.rs`: any read order, and a
/// voter's disagreeing checkpoint still caught).
#[test]
fn a_late_reveal_and_the_missed_vote_split_between_visitors() {
    let mut w = World::new(3, 101);
    lobby(&mut w);
    w.now_s = T0 + HOUR;
    w.play(0);
    w.play(1);
    w.play(2); // last submitter: opens at once
    w.play(0); // opens its own; 1 does not come back in time
    w.now_s = T0 + DAY + 3 * HOUR;
    let before = w.store.len();
    w.play(0); // votes 1 missed
    let vote0 = take(&mut w, before);
    assert!(!vote0.is_empty());
    // 1 reads a relay without 0's vote: it opens its orders and resolves the round.
    let before = w.store.len();
    let s1 = w.play(1);
    assert_eq!(s1.log_len, 1, "1 resolved Spring 1901 with its own reveal");
    let reveal1 = take(&mut w, before);
    // 2 reads a relay with 0's vote but without 1's reveal: it votes too, the vote passes.
    w.private[2] = vote0.clone();
    let s2 = w.play(2);
    assert!(missed_applied(&s2), "{:?}", s2.events);
    w.private[2].clear();
    // Every relay refilled.
    w.store.extend(vote0);
    w.store.extend(reveal1);
    let mut seen = vec![];
    for round in 0..2 {
        for i in 0..3 {
            let s = w.visit(i, |_| vec![]);
            if round == 1 {
                seen.push(s);
            }
        }
    }
    println!(
        "split: log {} excuses {:?} deadline {:?}",
        seen[0].log_len, seen[0].excuses, seen[0].deadline_s
    );
    for (i, s) in seen.iter().enumerate() {
        assert!(s.halted.is_none(), "player {i}: {:?}", s.halted);
        assert_eq!(
            (s.log_len, s.hash),
            (seen[0].log_len, seen[0].hash),
            "player {i}"
        );
        assert_eq!(s.excuses, seen[0].excuses, "player {i}");
    }
    // Nobody is frozen by a checkpoint signed on the split (1's, at position 1): play on.
    for turn in 0..9 {
        w.now_s += HOUR;
        let s = w.play(turn % 3);
        println!(
            "turn {turn}: log {} next {:?} sent {}",
            s.log_len, s.next, s.sent
        );
        assert!(s.halted.is_none(), "{:?}", s.halted);
    }
    let s = all_agree(&mut w, 3);
    assert!(s.log_len >= 2, "the game went on: {}", s.log_len);
}

/// (b) A forged clock in the proposal. PROTOCOL.md: deadlines are computed from the signed
/// clock alone; check_proposal refuses zero lengths and more than 4 excuses; nothing may
/// overflow. A clock at the end of time (start near u64::MAX, every length u32::MAX) must
/// neither panic nor stop the game (early resolution still resolves each phase), and nobody
/// votes a missed turn (the deadline is never reached).
#[test]
fn a_clock_at_the_end_of_time_never_panics_and_bad_clocks_are_refused() {
    let mut w = World::new(3, 102);
    // Refused outright by the proposer's own peer (a modified client would sign it anyway:
    // the others' peers run the same check on accept).
    for bad in [
        Clock::new(T0, 0, 1, 1, 1),
        Clock::new(T0, 1, 0, 1, 1),
        Clock::new(T0, 1, 1, 0, 1),
        Clock {
            excuses: 5,
            ..clock()
        },
    ] {
        let p = proposal(&w.keys, bad);
        let mut peer = Peer::new(w.cfgs[0].clone());
        assert!(peer.propose_setup(p).is_err(), "{bad:?} accepted");
    }
    let mut end = Clock::new(u64::MAX - 5, u32::MAX, u32::MAX, u32::MAX, u32::MAX);
    end.excuses = 4;
    let p = proposal(&w.keys, end);
    let hash = p.hash();
    w.visit(0, |peer| {
        vec![
            peer.propose_setup(p)
                .expect("an end-of-time clock is a legal clock"),
            peer.accept_setup(hash).expect("accept"),
        ]
    });
    for i in 1..3 {
        w.visit(i, |peer| vec![peer.accept_setup(hash).expect("accept")]);
    }
    for _ in 0..2 {
        for i in 0..3 {
            w.visit(i, |_| vec![]);
        }
    }
    w.now_s = u64::MAX / 1000 - 1; // the latest clock a page can hold in ms
    for turn in 0..12 {
        let s = w.play(turn % 3);
        assert!(s.halted.is_none(), "{:?}", s.halted);
        assert!(!missed_applied(&s), "a missed turn before the end of time");
        assert_eq!(s.deadline_s, Some(u64::MAX), "saturated");
    }
    let s = all_agree(&mut w, 3);
    assert!(s.log_len >= 2, "phases still resolve early: {}", s.log_len);
}

/// (c) Missed-turn votes a modified client signs: the missed player voting itself missed, a
/// vote naming a non-participant too, one with an `nth` ahead (an excuse spent twice?), and a
/// replay of a passed vote. PROTOCOL.md: a missed turn needs every other contributor's vote at
/// the same position and `nth`; each passed control spends one excuse once.
#[test]
fn forged_missed_votes_spend_no_excuse_and_a_passed_one_spends_it_once() {
    let mut w = World::new(3, 103);
    lobby(&mut w);
    w.now_s = T0 + HOUR;
    w.play(0);
    w.play(2); // 1 never submits
    w.now_s = T0 + DAY + 3 * HOUR;
    let one = 1u64 << 1;
    let forged = vec![
        // 1 votes itself missed (it is not one of the voters).
        forge(&w, 1, 900_000_001, &vote(0, one, 0)),
        // 2 votes ahead: nth 1 (for a second missed turn that has not happened) ...
        forge(&w, 2, 900_000_002, &vote(0, one, 1)),
        // ... and names a participant that does not exist beside 1.
        forge(&w, 2, 900_000_003, &vote(0, one | (1 << 40), 0)),
        // ... and names 2 itself beside 1 (a co-late player covering itself).
        forge(&w, 2, 900_000_004, &vote(0, one | (1 << 2), 0)),
    ];
    w.store.extend(forged);
    // 0 votes honestly: nothing passes without 2's vote for {1} at nth 0.
    let s = w.play(0);
    assert!(!missed_applied(&s), "{:?}", s.events);
    assert_eq!(s.excuses, vec![1, 1, 1]);
    // 2 votes honestly: it passes once; 1 spends one excuse.
    let s = w.play(2);
    assert!(missed_applied(&s));
    assert_eq!(s.excuses, vec![1, 0, 1]);
    assert_eq!(s.deadline_s, Some(T0 + 2 * DAY));
    // Within the extension, 0's honest vote for nth 1 is not due; 2's early nth-1 vote alone
    // must not pass anything, nor must a replay of the whole store.
    let again = w.store.clone();
    w.store.extend(again);
    for i in [0, 2, 0] {
        // (A fresh visit replays the control that passed; it must not pass a second one.)
        let s = w.visit(i, |_| vec![]);
        assert_eq!(s.excuses, vec![1, 0, 1], "player {i}");
        assert_eq!(s.deadline_s, Some(T0 + 2 * DAY), "player {i}");
        assert!(s.halted.is_none(), "{:?}", s.halted);
    }
    // 1 comes in the extension: the round resolves with its orders.
    w.play(1);
    w.play(0);
    w.play(2);
    let s = all_agree(&mut w, 3);
    assert_eq!((s.log_len, s.excuses), (1, vec![1, 0, 1]));
}

fn vote(at: u64, who: u64, nth: u8) -> Body {
    Body::Vote {
        at,
        control: Control::Missed { who, nth },
        fixed: None,
    }
}

/// (d) Sealed copies a modified client signs: another player's `OrdersKept` for the round
/// (garbage, and one as large as the wire allows) must mean nothing to anyone; the game goes on.
#[test]
fn sealed_copies_of_others_and_garbage_change_nothing() {
    let mut w = World::new(3, 104);
    lobby(&mut w);
    w.now_s = T0 + HOUR;
    w.play(0);
    // 2 signs sealed copies "for" round 0 before its commitment: garbage, oversize, and a copy
    // of 0's own sealed copy re-signed as its own.
    let kept0 = w
        .store
        .iter()
        .find_map(|raw| match Envelope::open_where(raw, |_| true) {
            Ok((_, Body::OrdersKept { sealed, .. })) => Some(sealed),
            _ => None,
        })
        .expect("0's sealed copy");
    let forged = vec![
        forge(
            &w,
            2,
            900_000_001,
            &Body::OrdersKept {
                round: 0,
                sealed: vec![0xAA; 64],
            },
        ),
        forge(
            &w,
            2,
            900_000_002,
            &Body::OrdersKept {
                round: 0,
                sealed: vec![0x55; 20_000],
            },
        ),
        forge(
            &w,
            2,
            900_000_003,
            &Body::OrdersKept {
                round: 0,
                sealed: kept0,
            },
        ),
    ];
    w.store.extend(forged);
    w.play(1);
    w.play(2);
    w.play(0);
    w.play(1);
    let s = all_agree(&mut w, 3);
    assert_eq!(s.log_len, 1);
}

/// (e) Envelopes of another game of the same players in the same room (a rematch: same keys,
/// same room, the same topic on the relays, sequence numbers that collide) mixed into the
/// store. PROTOCOL.md: replayed events give the same game; nobody honest is named.
#[test]
fn a_rematch_in_the_same_room_mixed_into_the_store_changes_nothing() {
    let mut a = World::new(3, 105);
    let mut b = World::new(3, 105); // the same players' keys
    assert_eq!(a.keys, b.keys);
    lobby(&mut a);
    // The rematch: another clock (so another proposal), otherwise the same lobby.
    let p = proposal(&b.keys, Clock::new(T0 + 7, DAY as u32, 600, 600, 600));
    let hash = p.hash();
    b.visit(0, |peer| {
        vec![
            peer.propose_setup(p).expect("proposal"),
            peer.accept_setup(hash).expect("accept"),
        ]
    });
    for i in 1..3 {
        b.visit(i, |peer| vec![peer.accept_setup(hash).expect("accept")]);
    }
    for _ in 0..2 {
        for i in 0..3 {
            b.visit(i, |_| vec![]);
        }
    }
    for w in [&mut a, &mut b] {
        w.now_s = T0 + HOUR;
        for turn in 0..6 {
            w.play(turn % 3);
        }
    }
    let before = all_agree(&mut a, 3);
    let theirs = b.store.clone();
    a.store.extend(theirs);
    for i in 0..3 {
        let s = a.visit(i, |_| vec![]);
        assert!(s.halted.is_none(), "player {i}: {:?}", s.halted);
        assert_eq!((s.log_len, s.hash), (before.log_len, before.hash));
    }
}

/// (f) A relay lost a visit's messages: player 0 submitted on visit A, every relay it reached
/// lost them (or the next visit reads a relay that never had them), and 0's next visit, on the
/// same device, reads a store without its commitment. It must not sign a second, different
/// commitment for the round; once the lost messages come back (a relay refilled), nobody
/// honest may be named a cheater.
///
/// Observed: HOLE. The memento does not remember the commitment we signed, so `Peer::due` says
/// `Next::Submit` again and `submit_orders` signs a second commitment for round 0 (the page
/// would ask the player for orders again; with a fresh random salt even the same orders give
/// another commitment). Once the relay is refilled every visitor halts with
/// `HaltReport::Equivocation` naming player 0, who did nothing wrong. A relay does not even
/// have to lose anything: a visit that closes before its publish reached a relay, or a next
/// visit that reads a relay the first one's bundle has not reached yet, is enough. A fix: keep
/// our signed commitment (and sealed copy) for the round under way in the memento and re-offer
/// those envelopes instead of signing new ones (`visit` would then re-publish them); for a
/// second device without the memento, see the next test.
///
/// Fixed (days-holes): as proposed; the memento carries our orders messages of the last rounds
/// and a visit publishes again the same bytes the store lacks (`days_holes.rs`).
#[test]
fn a_relay_that_lost_our_commitment_does_not_make_us_equivocate() {
    let mut w = World::new(3, 106);
    lobby(&mut w);
    w.now_s = T0 + HOUR;
    let before = w.store.len();
    w.visit(0, |p| hold(p, 1, true));
    let lost = take(&mut w, before);
    assert!(!lost.is_empty());
    // The same device, its memento kept; the player (seeing "your orders are due") enters
    // orders again, a different choice this time.
    w.visit(0, |p| hold(p, 2, false));
    w.play(1);
    w.play(2);
    w.store.extend(lost); // a relay refilled
    for _ in 0..2 {
        no_halt(&mut w, 3);
    }
    all_agree(&mut w, 3);
}

/// (f) The same with the second device PROTOCOL.md offers (the backed-up key, no memento): a
/// relay lost the first device's commitment, the second device submits other orders.
///
/// Observed: HOLE, as above: every visitor halts naming player 0 an equivocator. Without the
/// memento no fix inside the peer can know what the first device signed; the page can only
/// say so. Fixed where the store shows it (issue 61, days-holes): the other players read the
/// first device's commitment on a relay the second device does not reach and have all opened
/// their orders (which an honest page does only once every commitment is in), so the second
/// device is told `Next::Elsewhere`, is offered no orders form and signs nothing; the first
/// device's next visit publishes its commitment again (its memento) and opens it. With no
/// such evidence in the store, see `days_holes.rs`
/// (`a_second_device_with_no_evidence_of_our_commitment_cannot_know`).
#[test]
fn a_second_device_on_a_store_missing_our_commitment_does_not_make_us_equivocate() {
    let mut w = World::new(3, 107);
    lobby(&mut w);
    w.now_s = T0 + HOUR;
    let before = w.store.len();
    w.visit(0, |p| hold(p, 1, true));
    let lost = take(&mut w, before);
    // A relay the others read kept 0's messages; the one the second device reads lost them.
    w.private[1] = lost.clone();
    w.private[2] = lost.clone();
    w.play(1);
    w.play(2); // the last submitter opens its orders at once
    w.play(1); // 1 comes back and opens its own
               // Another browser with the backed-up key: no memento.
    let memento = std::mem::take(&mut w.mementos[0]);
    let s = w.visit(0, |p| {
        assert!(p.committed_elsewhere());
        assert_eq!(p.orders_due(), None, "no orders form");
        let (_, powers) = (0u32, p.my_powers());
        let orders = powers.iter().map(|&pw| (pw, vec![])).collect();
        let refused = p.submit_orders(OrdersPayload::orders(orders), [2; 32]);
        assert!(
            matches!(refused, Err(CommandError::AlreadyCommitted)),
            "{refused:?}"
        );
        vec![]
    });
    assert!(
        matches!(s.next, Some(Next::Elsewhere { .. })),
        "{:?}",
        s.next
    );
    assert_eq!(s.sent, 0, "the second device signs nothing");
    // The first device comes back: its memento's commitment goes out again and opens.
    w.mementos[0] = memento;
    let s = w.visit(0, |_| vec![]);
    assert_eq!(
        s.log_len, 1,
        "Spring 1901 resolved with the first device's orders"
    );
    w.private[1].clear();
    w.private[2].clear();
    w.store.extend(lost); // a relay refilled: changes nothing
    for i in 0..3 {
        let s = w.visit(i, |_| vec![]);
        assert!(s.halted.is_none(), "player {i}: {:?}", s.halted);
    }
    all_agree(&mut w, 3);
}
