//! Security review B8: readmission must not block the vote on a withholder. A participant that
//! was dropped asked to be let back in 32 times at one position (each request with another dice
//! tip), every page seconded each request automatically, and so every honest voter had its 32
//! open votes used up: its vote to drop a withholder was refused as `TooManyVotes`. Now a target
//! has one open readmission per position (a second, different one it signs is refused) and
//! seconding a readmission the target signed does not count against the quota; and a
//! participant dropped while connected (a withholder) is not let back in by the pages on their
//! own: the request is surfaced for a person to decide (`Peer::readmit_requests`,
//! `ProtocolEvent::ReadmitRequested`).

use crate::common;

use common::{Net, NetParams};
use orbis_engine::classic::BotLevel;
use orbis_engine::codec::sha256;
use orbis_protocol::{Control, ProtocolEvent, Violation};

const A: usize = 2; // dropped, then floods readmission requests
const W: usize = 3; // withholds its move, connected

fn drop_of(net: &Net, i: usize) -> Control {
    Control::Drop {
        peer: net.peers[i].key(),
        level: BotLevel::Normal,
    }
}

/// Runs until every peer in `voters` waits on `target` alone, then past the grace, and has them
/// vote it out; returns once the drop applied on each of them.
fn vote_out(net: &mut Net, voters: &[usize], target: usize) {
    let key = net.peers[target].key();
    assert!(
        net.run_until(net.now + 600_000, |n| voters
            .iter()
            .all(|&i| n.peers[i].waiting_on() == vec![key])),
        "never waits on peer {target}"
    );
    net.run_until(net.now + 3_500, |_| false);
    let c = drop_of(net, target);
    for &i in voters {
        let o = net.peers[i].vote(c).expect("vote accepted");
        net.process(i, o);
    }
    assert!(
        net.run_until(net.now + 20_000, |n| voters.iter().all(|&i| n.events[i]
            .iter()
            .any(
                |e| matches!(e, ProtocolEvent::ControlApplied { control, .. } if *control == c)
            ))),
        "peer {target} was never dropped"
    );
    // The votes reach the target too before anyone plays on.
    net.run_until(net.now + 100, |_| false);
}

/// Every readmission request an honest page would second by itself: today's clients seconded
/// every open readmission its target had signed.
fn second_requests(net: &mut Net, voters: &[usize]) -> usize {
    let mut n = 0;
    for &i in voters {
        for req in net.peers[i].readmit_requests() {
            if req.left_present {
                continue; // a person decides
            }
            if let Ok(o) = net.peers[i].vote(req.control) {
                net.process(i, o);
                n += 1;
            }
        }
    }
    n
}

/// A (dropped while away) comes back and asks to be let back in 32 times at the position where
/// the game waits on W, which holds its move while connected; the honest pages second what they
/// are shown; then they vote W out. Before the fix their votes were refused (`TooManyVotes`)
/// and W held the game forever.
#[test]
fn readmission_requests_do_not_block_the_vote_on_a_withholder() {
    let mut net = Net::new(4, 31, NetParams::perfect());
    let p = net.proposal(0);
    net.start(p);
    assert!(net.run_until(10_000_000, |n| n.peers[0].log_len() >= 20));
    // A's page closes; the others vote it out once it is missing.
    net.online[A] = false;
    vote_out(&mut net, &[0, 1, W], A);
    // A's page reloads, still out; W now holds its own moves.
    net.reload(A, vec![]);
    net.autoplay[W] = false;
    let w = net.peers[W].key();
    assert!(
        net.run_until(net.now + 600_000, |n| {
            [0, 1].iter().all(|&i| n.peers[i].waiting_on() == vec![w])
                && n.peers[A].log_len() == n.peers[0].log_len()
                && n.peers[A].left_out()
        }),
        "never waits on W with A caught up"
    );
    // A asks back 32 times, each with another tip.
    let a = net.peers[A].key();
    for t in 0..32u32 {
        let c = Control::Readmit {
            peer: a,
            tip: sha256(&t.to_le_bytes()),
        };
        if let Ok(o) = net.peers[A].vote(c) {
            net.process(A, o);
        }
    }
    net.run_until(net.now + 200, |_| false);
    let seconded = second_requests(&mut net, &[0, 1]);
    net.run_until(net.now + 200, |_| false);
    // The honest voters can still drop W.
    vote_out(&mut net, &[0, 1], W);
    // One request per target at one position: the others are refused, naming A.
    assert!(seconded <= 2, "seconded {seconded} requests");
    for i in [0, 1] {
        assert!(net.events[i].iter().any(|e| matches!(e,
            ProtocolEvent::Rejected { peer: Some(p), violation: Violation::TooManyVotes, .. } if *p == a)));
    }
    for i in [0, 1] {
        assert!(
            !net.events[i].iter().any(|e| matches!(e,
                ProtocolEvent::Rejected { peer: Some(p), .. } if *p != a)),
            "peer {i}: {:?}",
            net.complaints(i)
        );
    }
}

/// Second angle: the flood spread over the positions ahead (each position's first request from
/// A), and a hostile voter's own votes for readmissions of A with tips A never signed: neither
/// uses up an honest voter's quota, and neither grows the vote table past its bound.
#[test]
fn readmissions_spread_ahead_or_voted_by_others_do_not_block_the_vote_either() {
    let mut net = Net::new(4, 32, NetParams::perfect());
    let p = net.proposal(0);
    net.start(p);
    assert!(net.run_until(10_000_000, |n| n.peers[0].log_len() >= 20));
    net.online[A] = false;
    vote_out(&mut net, &[0, 1, W], A);
    net.reload(A, vec![]);
    net.autoplay[W] = false;
    let w = net.peers[W].key();
    assert!(net.run_until(net.now + 600_000, |n| {
        [0, 1].iter().all(|&i| n.peers[i].waiting_on() == vec![w])
            && n.peers[A].log_len() == n.peers[0].log_len()
            && n.peers[A].left_out()
    }));
    let a = net.peers[A].key();
    let at = net.peers[0].log_len();
    // A: one request at each of the 63 positions ahead; W: 40 votes for A's readmission with
    // made-up tips, at this position.
    for k in 0..63u64 {
        let c = Control::Readmit {
            peer: a,
            tip: sha256(&k.to_le_bytes()),
        };
        let raw = common::signed_vote(&net, A, 0, at + k, c);
        for to in [0, 1] {
            net.inject(A, to, raw.clone());
        }
    }
    for k in 0..40u64 {
        let c = Control::Readmit {
            peer: a,
            tip: sha256(&(1000 + k).to_le_bytes()),
        };
        let raw = common::signed_vote(&net, W, 0, at, c);
        for to in [0, 1] {
            net.inject(W, to, raw.clone());
        }
    }
    net.run_until(net.now + 200, |_| false);
    second_requests(&mut net, &[0, 1]);
    for i in [0, 1] {
        let votes = net.peers[i]
            .table_sizes()
            .into_iter()
            .find(|(n, _)| *n == "votes")
            .map_or(0, |(_, n)| n);
        assert!(votes <= 64 + 32 + 4, "peer {i}: {votes} votes kept");
    }
    vote_out(&mut net, &[0, 1], W);
}

/// A participant dropped while it was connected (a withholder) that asks back is not let back in
/// by the pages on their own: every honest peer surfaces its request as one for a person to
/// decide; one dropped while away is surfaced as one a page may second.
#[test]
fn a_withholder_that_asks_back_is_left_to_a_person() {
    let mut net = Net::new(3, 33, NetParams::perfect());
    let p = net.proposal(0);
    net.start(p);
    assert!(net.run_until(10_000_000, |n| n.peers[0].log_len() >= 20));
    // Peer 2 idles on its turn while connected and is voted out.
    net.autoplay[2] = false;
    vote_out(&mut net, &[0, 1], 2);
    net.autoplay[2] = true;
    // The two others take their time over each move, so the game waits on them.
    net.autoplay[0] = false;
    net.autoplay[1] = false;
    // It asks back at once; the others see a request for a person.
    let k = net.peers[2].key();
    assert!(
        net.run_until(net.now + 600_000, |n| n.peers[2].left_out()
            && n.peers[2].log_len() == n.peers[0].log_len()),
        "{} {} {} {:?}",
        net.peers[2].left_out(),
        net.peers[2].log_len(),
        net.peers[0].log_len(),
        net.peers[2].halted()
    );
    let mut asked = false;
    for _ in 0..200 {
        if let Ok(o) = net.peers[2].ask_back() {
            net.process(2, o);
        }
        net.run_until(net.now + 50, |_| false);
        if [0, 1].iter().all(|&i| {
            net.peers[i]
                .readmit_requests()
                .iter()
                .any(|r| r.peer == k && r.left_present)
        }) {
            asked = true;
            break;
        }
    }
    assert!(asked, "the request never surfaced");
    for i in [0, 1] {
        assert!(net.events[i].iter().any(|e| matches!(e,
            ProtocolEvent::ReadmitRequested { peer, left_present: true } if *peer == k)));
        assert_eq!(second_requests(&mut net, &[i]), 0);
    }
    // A person decides: both vote for it, and it is back.
    for _ in 0..400 {
        if !net.peers[2].left_out() {
            break;
        }
        if let Ok(o) = net.peers[2].ask_back() {
            net.process(2, o);
        }
        for i in [0, 1] {
            for r in net.peers[i].readmit_requests() {
                if let Ok(o) = net.peers[i].vote(r.control) {
                    net.process(i, o);
                }
            }
        }
        net.run_until(net.now + 50, |_| false);
    }
    assert!(!net.peers[2].left_out(), "never let back in");
}
