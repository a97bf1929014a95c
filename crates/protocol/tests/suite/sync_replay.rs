//! A participant's `Sync` from an earlier game of the same room, replayed in this one. A `Sync`
//! was signed under the room's id, so it held in every game of the room: its position raised
//! what we knew its sender had reached (in a classic game, what lets a voter bound by its own
//! vote go), and its `withheld` report named, in its sender's name, whoever it named then. A
//! started peer's `Sync` is now signed under the game's own id (`Body::under_game`); one under
//! the room's id or another game's is dropped without blame, and only a started peer's `Sync`
//! carries a `withheld` report (one from before the start, replayed, cleared a standing claim).

use crate::common;

use common::{game_id, Net, NetParams};
use ed25519_dalek::SigningKey;
use orbis_engine::classic::BotLevel;
use orbis_protocol::wire::{game_tag, Envelope};
use orbis_protocol::{Body, Control, PeerKey, ProtocolEvent};

const T: usize = 2; // the slow player, voted out

/// Peer `from`'s `Sync` as its page signs one once its game has started, under `id`.
fn old_sync(net: &Net, from: usize, id: [u8; 16], have_index: u64, withheld: Vec<u8>) -> Vec<u8> {
    let key = SigningKey::from_bytes(&net.configs[from].identity_secret);
    let body = Body::Sync {
        started: true,
        have_index,
        head: [3; 32],
        deal: 0,
        deal_digest: [0; 32],
        unread: vec![],
        withheld,
    };
    // A number the earlier game used; nothing in this game is under it.
    Envelope::seal(&key, id, 1 << 44, &body)
}

/// Runs a classic game of three until peers 0 and 1 have waited on T (not playing) for 2 s.
fn stuck_on_t(seed: u64) -> Net {
    let mut net = Net::new(3, seed, NetParams::perfect());
    let p = net.proposal(0);
    net.start(p);
    net.autoplay[T] = false;
    let t = net.peers[T].key();
    let mut since = None;
    for _ in 0..100_000 {
        let until = net.now + 100;
        net.run_until(until, |_| false);
        let stuck = [0, 1].iter().all(|&i| net.peers[i].waiting_on() == vec![t]);
        match (stuck, since) {
            (true, None) => since = Some(net.now),
            (true, Some(s)) if net.now - s >= 2_000 => return net,
            (false, _) => since = None,
            _ => {}
        }
    }
    panic!("never stuck on T");
}

fn claims(net: &Net, i: usize) -> Vec<(PeerKey, Vec<PeerKey>)> {
    net.events[i]
        .iter()
        .filter_map(|e| match e {
            ProtocolEvent::WithheldClaimed { by, against } => Some((*by, against.clone())),
            _ => None,
        })
        .collect()
}

/// Peer 1's `Sync` of an earlier game named T as withholding; replayed to peer 0 under the
/// room's id or under that game's own id, it names nobody. The same report signed for this
/// game is a claim (so the test can tell the difference), and peer 1's `Sync` from before the
/// game started (empty `withheld`, under the room's id) does not clear it.
#[test]
fn an_earlier_games_withheld_report_names_nobody_here() {
    let mut net = stuck_on_t(7);
    // Peer 1 is away: only what T sends in its name reaches peer 0.
    net.online[1] = false;
    let at = net.peers[0].log_len();
    let earlier = game_tag(&game_id(), &[9; 32]);
    let before = net.peers[0].other_games;
    for id in [game_id(), earlier] {
        let raw = old_sync(&net, 1, id, at, vec![T as u8]);
        net.inject(T, 0, raw);
    }
    let until = net.now + 500;
    net.run_until(until, |_| false);
    assert_eq!(
        claims(&net, 0),
        vec![],
        "a replayed report was taken as a claim"
    );
    assert_eq!(
        net.peers[0].other_games,
        before + 2,
        "both dropped as other games'"
    );
    assert!(
        net.complaints(0).is_empty(),
        "nobody blamed: {:?}",
        net.complaints(0)
    );
    // Control: the same report, signed for this game.
    let tag = net.peers[0].game_tag().expect("started");
    let raw = old_sync(&net, 1, tag, at, vec![T as u8]);
    net.inject(T, 0, raw);
    let until = net.now + 500;
    net.run_until(until, |_| false);
    assert_eq!(
        claims(&net, 0),
        vec![(net.peers[1].key(), vec![net.peers[T].key()])],
        "this game's report is a claim"
    );
    // Peer 1's `Sync` from before its game started (under the room's id, `withheld` empty) does
    // not clear its claim: the same claim made again is not new.
    let key = SigningKey::from_bytes(&net.configs[1].identity_secret);
    let lobby = Body::Sync {
        started: false,
        have_index: 0,
        head: [0; 32],
        deal: 0,
        deal_digest: [0; 32],
        unread: vec![],
        withheld: vec![],
    };
    net.inject(T, 0, Envelope::seal(&key, game_id(), 1 << 43, &lobby));
    let mut again = old_sync(&net, 1, tag, at, vec![T as u8]);
    let until = net.now + 200;
    net.run_until(until, |_| false);
    // The same report under another number (bytes that are not a duplicate).
    let Ok((_, body)) = Envelope::open_where(&again, |_| true) else {
        unreachable!()
    };
    again = Envelope::seal(&key, tag, (1 << 44) + 1, &body);
    net.inject(T, 0, again);
    let until = net.now + 200;
    net.run_until(until, |_| false);
    assert_eq!(
        claims(&net, 0).len(),
        1,
        "a lobby Sync cleared peer 1's claim"
    );
}

/// Classic: peer 0 votes slow T out at `at` while peer 1, the other voter, is away; peer 0 is
/// bound by its vote (it must not take T's late move: peer 1 may vote too, and would refuse
/// it). T replays to peer 0 a `Sync` peer 1 signed in an earlier game of the room, far past
/// `at`, then moves. Before the fix peer 0 read the replay as "peer 1 moved past `at` without
/// voting", let its vote go and took T's move, which peer 1 would refuse: a split. Now peer 0
/// stays at `at`, and once peer 1 is back and votes too, T is dropped there on both.
#[test]
fn an_earlier_games_sync_lets_no_bound_voter_go() {
    for seed in [7u64, 8, 9] {
        let mut net = stuck_on_t(seed);
        let at = net.peers[0].log_len();
        let t = net.peers[T].key();
        let drop = Control::Drop {
            peer: t,
            level: BotLevel::Normal,
        };
        net.online[1] = false;
        let o = net.peers[0].vote(drop).expect("vote taken");
        net.process(0, o);
        for id in [game_id(), game_tag(&game_id(), &[9; 32])] {
            let raw = old_sync(&net, 1, id, at + 20, vec![]);
            net.inject(T, 0, raw);
        }
        // T's late move, after the replays.
        let s = net.peers[T].view().expect("started");
        let a = orbis_engine::bot::choose(&s, BotLevel::Normal).expect("T can move");
        let o = net.peers[T].act(a).expect("T's move is legal");
        net.process(T, o);
        let until = net.now + 1_000;
        net.run_until(until, |_| false);
        assert_eq!(
            net.peers[0].log_len(),
            at,
            "seed {seed}: peer 0 let its vote go and took T's late move"
        );
        // Peer 1 is back and votes too: T is dropped at `at` on both.
        net.online[1] = true;
        let o = net.peers[1].vote(drop).expect("vote taken");
        net.process(1, o);
        let until = net.now + 20_000;
        let agreed = net.run_until(until, |n| {
            n.peers[0].log_len() > at + 1 && n.peers[1].log_len() > at + 1
        });
        assert!(agreed, "seed {seed}: the game did not go on");
        let dropped = |i: usize| {
            net.events[i].iter().any(|e| {
                matches!(e, ProtocolEvent::ControlApplied { at: x, control } if *x == at && *control == drop)
            })
        };
        assert!(
            dropped(0) && dropped(1),
            "seed {seed}: T not dropped at {at} on both"
        );
        let n = net.peers[0].log_len().min(net.peers[1].log_len());
        let until = net.now + 20_000;
        net.run_until(until, |n2| {
            n2.peers[0].log_len() >= n + 2 && n2.peers[1].log_len() >= n + 2
        });
        // Nobody but T (whose late move peer 1 refuses) is blamed, and nobody halts.
        for i in [0, 1] {
            let blamed: Vec<_> = net
                .complaints(i)
                .into_iter()
                .filter(|e| !matches!(e, ProtocolEvent::Rejected { peer: Some(p), .. } if *p == t))
                .collect();
            assert!(blamed.is_empty(), "seed {seed}, peer {i}: {blamed:?}");
        }
    }
}
