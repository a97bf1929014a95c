//! Games over days: players are never online together. Every visit is a fresh `Peer` (stored
//! mode) with its player's stored configuration and memento, fed the whole store, acting once,
//! its new messages appended to the store; no two peers are ever alive at once
//! (`World::visit`). An orders game on Europe 1901 (three players, four computer powers) over
//! two game years with retreats and builds, missed turns (an excuse, then civil disorder, then
//! the seat taken back), and the deviations of issue 61: a withheld reveal, a submission after
//! the deadline, replayed old envelopes, different envelopes to different visitors, a clock
//! hours off. `--nocapture` prints bytes and messages per phase and per game.

use orbis_engine::bot;
use orbis_engine::classic::BotLevel;
use orbis_engine::codec::sha256;
use orbis_engine::rules::orders::map::PowerId;
use orbis_engine::rules::orders::notation;
use orbis_engine::rules::orders::{OrdersState, Phase};
use orbis_engine::rules::Game;
use orbis_protocol::wire::OrdersPayload;
use orbis_protocol::{
    Body, Clock, Config, Control, Envelope, HaltReport, Next, Peer, PeerKey, ProtocolEvent,
    SetupProposal,
};
use std::collections::BTreeMap;

/// Simulated UTC start (s) and the clock's lengths.
pub(crate) const T0: u64 = 1_800_000_000;
pub(crate) const DAY: u64 = 86_400;
pub(crate) const HOUR: u64 = 3_600;

/// What a visit saw, once its peer is gone.
#[allow(dead_code)]
#[derive(Clone, Debug)]
pub struct Seen {
    pub log_len: u64,
    pub hash: Option<[u8; 32]>,
    pub next: Option<Next>,
    pub halted: Option<HaltReport>,
    pub events: Vec<ProtocolEvent>,
    pub left_out: bool,
    pub excuses: Vec<u8>,
    pub deadline_s: Option<u64>,
    pub phase: Option<Phase>,
    pub sent: usize,
}

/// The store and the players' own devices (configuration and memento), and figures.
pub struct World {
    pub store: Vec<Vec<u8>>,
    /// Messages only player `i`'s visits read (a relay only it reaches): equivocation.
    pub private: Vec<Vec<Vec<u8>>>,
    pub cfgs: Vec<Config>,
    pub mementos: Vec<Vec<Vec<u8>>>,
    pub keys: Vec<PeerKey>,
    pub visits: u64,
    /// Simulated UTC now (s); each player's clock is `now_s + skew[i]`.
    pub now_s: u64,
    pub skew: Vec<i64>,
    /// Per stored message: the round it was stored at (the visitor's log length), its kind and
    /// size.
    pub figures: Vec<(u64, &'static str, usize)>,
}

fn kind(raw: &[u8]) -> &'static str {
    match Envelope::open_where(raw, |_| true).map(|(_, b)| b) {
        Ok(Body::Propose(_)) => "propose",
        Ok(Body::Accept { .. }) => "accept",
        Ok(Body::SeedReveal { .. }) => "seed reveal",
        Ok(Body::OrdersCommit { .. }) => "commit",
        Ok(Body::OrdersKept { .. }) => "kept copy",
        Ok(Body::OrdersReveal { .. }) => "reveal",
        Ok(Body::Checkpoint { .. }) => "checkpoint",
        Ok(Body::Vote { .. }) => "vote",
        Ok(_) => "other",
        Err(_) => "undecodable",
    }
}

impl World {
    pub fn new(n: usize, seed: u64) -> World {
        let cfgs: Vec<Config> = (0..n)
            .map(|i| {
                let mut e = b"days".to_vec();
                e.extend_from_slice(&seed.to_le_bytes());
                e.push(i as u8);
                let mut c = Config::new([7; 16], &format!("player{i}"), sha256(&e));
                c.stored = true;
                c.chain_len = 256;
                c
            })
            .collect();
        let keys = cfgs.iter().map(|c| Peer::new(c.clone()).key()).collect();
        World {
            store: vec![],
            private: vec![vec![]; n],
            cfgs,
            mementos: vec![vec![]; n],
            keys,
            visits: 0,
            now_s: T0 - DAY,
            skew: vec![0; n],
            figures: vec![],
        }
    }

    /// One visit of player `i`: a fresh peer fed the store (and what only it reaches), what is
    /// due done by itself, then `act`; its new messages are stored. The peer is gone after.
    pub fn visit(
        &mut self,
        i: usize,
        act: impl FnOnce(&mut Peer) -> Vec<orbis_protocol::Output>,
    ) -> Seen {
        self.visits += 1;
        let mut cfg = self.cfgs[i].clone();
        cfg.seq_start = self.visits * 1_000_000;
        cfg.remembered = self.mementos[i].clone();
        let now_ms = (self.now_s as i64 + self.skew[i]) as u64 * 1000;
        let mut peer = Peer::new(cfg);
        let mut view = self.store.clone();
        view.extend(self.private[i].iter().cloned());
        let mut out = peer.visit(&view, now_ms);
        for o in act(&mut peer) {
            out.merge_public(o);
        }
        let round = peer.log_len();
        let mut sent = 0;
        for (_, raw) in &out.send {
            if !self.store.contains(raw) {
                self.figures.push((round, kind(raw), raw.len()));
                self.store.push(raw.clone());
                sent += 1;
            }
        }
        self.mementos[i] = peer.memento();
        let due = peer.due();
        let excuses = due
            .as_ref()
            .map_or(vec![], |d| d.excuses_left.iter().map(|(_, n)| *n).collect());
        Seen {
            log_len: peer.log_len(),
            hash: peer.state_hash(),
            next: due.as_ref().map(|d| d.next),
            halted: peer.halted().cloned(),
            events: out.events,
            left_out: peer.left_out(),
            excuses,
            deadline_s: due.as_ref().map(|d| d.deadline_s),
            phase: due.as_ref().map(|d| d.phase),
            sent,
        }
    }

    /// A visit that submits our orders if they are due (a computer of `level` writes them).
    pub fn play(&mut self, i: usize) -> Seen {
        self.visit(i, |p| submit(p, i).into_iter().collect())
    }
}

/// Adds `o`'s messages and events to an output (`Output::merge` is the crate's own).
trait Merge {
    fn merge_public(&mut self, o: orbis_protocol::Output);
}

impl Merge for orbis_protocol::Output {
    fn merge_public(&mut self, o: orbis_protocol::Output) {
        self.send.extend(o.send);
        self.events.extend(o.events);
    }
}

fn orders_state(p: &Peer) -> &OrdersState {
    match p.game() {
        Some(Game::Orders(s)) => s,
        _ => panic!("not an orders game"),
    }
}

/// France and Germany's scripted 1901, so that Fall 1901 dislodges France's army in Burgundy
/// (a retreat phase): Germany takes it with support.
fn script(round: u32, power: PowerId) -> Option<&'static [&'static str]> {
    match (round, power) {
        (0, FRANCE) => Some(&["A PAR - BUR"]),
        (0, GERMANY) => Some(&["A MUN - RUH", "A BER - MUN"]),
        (1, FRANCE) => Some(&["A BUR H"]),
        (1, GERMANY) => Some(&["A MUN - BUR", "A RUH S A MUN - BUR"]),
        _ => None,
    }
}

const FRANCE: PowerId = 1;
const GERMANY: PowerId = 2;

/// Our orders for the phase under way, written by a computer, if they are due.
pub(crate) fn submit(p: &mut Peer, i: usize) -> Option<orbis_protocol::Output> {
    let (round, powers) = p.orders_due()?;
    if powers.is_empty() {
        return None;
    }
    let s = orders_state(p).clone();
    let mut salt = [i as u8 + 1; 32];
    salt[..4].copy_from_slice(&round.to_le_bytes());
    let map = s.map();
    let orders = powers
        .iter()
        .map(|&pw| match script(round, pw) {
            Some(lines) => (
                pw,
                lines
                    .iter()
                    .map(|l| notation::parse(map, l).expect("scripted order"))
                    .collect(),
            ),
            None => (pw, bot::orders::orders_for(&s, pw, BotLevel::Normal, &salt)),
        })
        .collect();
    Some(
        p.submit_orders(OrdersPayload::orders(orders), salt)
            .expect("legal orders"),
    )
}

/// Europe 1901 over days: players 0..n on the first seats, computers on the rest.
pub(crate) fn proposal(keys: &[PeerKey], clock: Clock) -> SetupProposal {
    SetupProposal::orders_game(
        "europe-1901",
        7,
        keys.to_vec(),
        |i| format!("S{i}"),
        BotLevel::Easy,
        Some(clock),
        61,
    )
}

pub(crate) fn clock() -> Clock {
    Clock::new(
        T0,
        DAY as u32,
        (6 * HOUR) as u32,
        (6 * HOUR) as u32,
        (2 * HOUR) as u32,
    )
}

/// The lobby over visits: 0 proposes and accepts, 1 and 2 accept (2 reveals its seed share at
/// once: everyone has accepted), then 0 and 1 come back to reveal theirs. Nobody is online
/// with anyone.
pub(crate) fn lobby(w: &mut World) {
    let p = proposal(&w.keys, clock());
    let hash = p.hash();
    let s = w.visit(0, |peer| {
        vec![
            peer.propose_setup(p).expect("proposal"),
            peer.accept_setup(hash).expect("accept"),
        ]
    });
    assert_eq!(s.log_len, 0);
    for i in 1..w.keys.len() {
        let s = w.visit(i, |peer| vec![peer.accept_setup(hash).expect("accept")]);
        assert!(s.hash.is_none(), "no game before every seed share is open");
    }
    // Everyone accepted; the last accepter opened its share. The others open theirs on their
    // next visit (by themselves), and the game starts for each once all are open.
    let n = w.keys.len();
    w.visit(0, |p| {
        let d = p.lobby_due().expect("a lobby under way");
        assert_eq!((d.accepted.len(), d.revealed.len()), (n, 2));
        vec![]
    });
    for i in 1..n - 1 {
        w.visit(i, |_| vec![]);
    }
    for i in 0..w.keys.len() {
        let s = w.visit(i, |_| vec![]);
        assert!(s.hash.is_some(), "player {i}: the game started");
    }
}

fn print_figures(w: &World, title: &str) {
    let mut per_round: BTreeMap<u64, (usize, usize)> = BTreeMap::new();
    let mut per_kind: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for &(r, k, n) in &w.figures {
        let e = per_round.entry(r).or_default();
        e.0 += 1;
        e.1 += n;
        let e = per_kind.entry(k).or_default();
        e.0 += 1;
        e.1 += n;
    }
    let total: usize = w.figures.iter().map(|f| f.2).sum();
    println!(
        "{title}: {} messages, {total} bytes stored in {} visits",
        w.figures.len(),
        w.visits
    );
    for (r, (m, b)) in per_round {
        println!("  stored at round {r:>2}: {m:>3} messages {b:>6} bytes");
    }
    for (k, (m, b)) in per_kind {
        println!("  {k:<12} {m:>4} messages {b:>7} bytes");
    }
}

#[test]
fn an_orders_game_over_days_runs_by_visits_alone() {
    let mut w = World::new(3, 1);
    lobby(&mut w);
    let mut phases = vec![];
    let mut turn = 0;
    while w.visit(0, |_| vec![]).log_len < 12 && turn < 200 {
        w.now_s += HOUR;
        let s = w.play(turn % 3);
        assert!(s.halted.is_none(), "{:?}", s.halted);
        phases.push(s.phase);
        turn += 1;
    }
    let seen: Vec<Seen> = (0..3).map(|i| w.visit(i, |_| vec![])).collect();
    assert!(seen
        .iter()
        .all(|s| s.hash == seen[0].hash && s.log_len == seen[0].log_len));
    print_figures(&w, "plain game");
    assert!(phases.contains(&Some(Phase::Retreat)), "{phases:?}");
}

pub(crate) fn missed_applied(s: &Seen) -> bool {
    s.events.iter().any(|e| {
        matches!(
            e,
            ProtocolEvent::ControlApplied {
                control: Control::Missed { .. },
                ..
            }
        )
    })
}

/// Every player visits once (doing what is due), then every fresh visit agrees on the log and
/// the state.
pub(crate) fn all_agree(w: &mut World, n: usize) -> Seen {
    for i in 0..n {
        w.visit(i, |_| vec![]);
    }
    let seen: Vec<Seen> = (0..n).map(|i| w.visit(i, |_| vec![])).collect();
    for s in &seen {
        assert!(s.halted.is_none(), "{:?}", s.halted);
        assert_eq!((s.log_len, s.hash), (seen[0].log_len, seen[0].hash));
    }
    seen[0].clone()
}

#[test]
fn a_missed_turn_spends_an_excuse_then_civil_disorder_then_the_seat_comes_back() {
    let mut w = World::new(3, 2);
    lobby(&mut w);
    // Spring 1901: 0 and 1 submit; 2 does not come.
    w.now_s = T0 + HOUR;
    w.play(0);
    w.play(1);
    // Before deadline + grace nobody votes.
    w.now_s = T0 + DAY + HOUR;
    assert!(!missed_applied(&w.play(0)));
    // Past it: 0 and 1 visit, each votes; the second vote spends 2's excuse and extends the
    // phase by one length.
    w.now_s = T0 + DAY + 3 * HOUR;
    w.play(0);
    let s = w.play(1);
    assert!(missed_applied(&s), "{:?}", s.events);
    assert_eq!((s.log_len, s.excuses.clone()), (0, vec![1, 1, 0]));
    assert_eq!(s.deadline_s, Some(T0 + 2 * DAY));
    // 2 comes within the extension: its orders count; the others come back to open theirs.
    w.now_s = T0 + DAY + 5 * HOUR;
    w.play(2);
    w.play(0);
    let s = w.play(1);
    assert_eq!(s.log_len, 1, "Spring 1901 resolved with 2's orders");
    assert_eq!(
        s.deadline_s,
        Some(T0 + 3 * DAY),
        "the schedule keeps the extension"
    );
    // Fall 1901: 2 misses again, no excuse left: civil disorder.
    w.play(0);
    w.play(1);
    w.now_s = T0 + 3 * DAY + 3 * HOUR;
    w.play(0);
    let s = w.play(1);
    assert!(missed_applied(&s));
    // Without 2 every commitment is in: 1 opened its orders in that visit, 0 comes back.
    let s0 = w.play(0);
    assert_eq!(s0.log_len, 2, "Fall 1901 resolved without 2: Germany held");
    let two = w.visit(2, |_| vec![]);
    assert!(two.left_out);
    assert_eq!(two.next, Some(Next::LeftOut));
    // No retreat: Germany's scripted attack on Burgundy never happened.
    assert_ne!(s0.phase, Some(Phase::Retreat));
    // 2 takes its seat back: its request, then the others second it on their visits.
    w.now_s += HOUR;
    w.visit(2, |p| vec![p.ask_back().expect("ask back")]);
    w.play(0);
    w.play(1);
    let mut back = false;
    for turn in 0..30 {
        w.now_s += HOUR;
        let s = w.play(turn % 3);
        assert!(s.halted.is_none(), "{:?}", s.halted);
        if turn % 3 == 2 && !s.left_out && s.log_len >= 4 {
            back = true;
        }
    }
    assert!(back, "2 plays its seat again");
    let s = all_agree(&mut w, 3);
    assert!(s.log_len >= 5, "{}", s.log_len);
    print_figures(&w, "missed turns");
}

#[test]
fn a_withheld_reveal_is_a_missed_turn_and_a_late_reveal_within_the_extension_counts() {
    let mut w = World::new(3, 3);
    lobby(&mut w);
    w.now_s = T0 + HOUR;
    w.play(0);
    w.play(1);
    w.play(2); // the last submitter opens its orders at once
    w.play(0); // 0 comes back and opens its own; 1 never comes back
    w.now_s = T0 + DAY + 3 * HOUR;
    w.play(0);
    let s = w.play(2);
    assert!(missed_applied(&s));
    assert_eq!((s.log_len, s.excuses.clone()), (0, vec![1, 0, 1]));
    w.now_s = T0 + DAY + 4 * HOUR;
    let s = w.play(1);
    assert_eq!(
        s.log_len, 1,
        "1's late reveal within the extension resolves the phase"
    );
    all_agree(&mut w, 3);
}

#[test]
fn a_clock_hours_off_cannot_cut_anyone_short_alone() {
    let mut w = World::new(3, 4);
    lobby(&mut w);
    w.skew[0] = 30 * HOUR as i64; // player 0's clock is 30 hours ahead
    w.now_s = T0 + HOUR;
    w.play(1);
    // 0's clock says the deadline has long passed: it submits and votes 2's turn missed.
    let s = w.play(0);
    assert!(!missed_applied(&s));
    // 1 visits with a true clock: no vote; 2 comes in time; the phase resolves normally.
    w.play(1);
    w.play(2);
    w.play(1);
    w.play(0);
    let s = all_agree(&mut w, 3);
    assert_eq!(s.log_len, 1);
    assert_eq!(s.excuses, vec![1, 1, 1], "nobody spent an excuse");
}

#[test]
fn a_submission_after_the_vote_does_not_count() {
    let mut w = World::new(3, 5);
    lobby(&mut w);
    w.now_s = T0 + HOUR;
    w.play(0);
    w.play(1);
    w.now_s = T0 + DAY + 3 * HOUR;
    w.play(0);
    w.play(1); // 2's excuse spent, phase extended to T0 + 2 days
               // 2 misses the extension too; 0 and 1 vote again: civil disorder.
    w.now_s = T0 + 2 * DAY + 3 * HOUR;
    w.play(0);
    let s = w.play(1);
    assert!(missed_applied(&s));
    // 2 submits now, after the vote: moot (it is out); its seat is the computer's.
    let late = w.play(2);
    assert!(late.left_out);
    w.play(0);
    let s = all_agree(&mut w, 3);
    assert_eq!(s.log_len, 1);
    assert_eq!(s.excuses, vec![1, 1, 0]);
}

#[test]
fn replayed_duplicated_and_shuffled_stores_give_the_same_game() {
    let mut w = World::new(3, 6);
    lobby(&mut w);
    for turn in 0..12 {
        w.now_s += HOUR;
        w.play(turn % 3);
    }
    let s = all_agree(&mut w, 3);
    assert!(s.log_len >= 2);
    // The store replayed: every message twice, in reverse, and shuffled.
    let mut twice = w.store.clone();
    twice.extend(w.store.iter().rev().cloned());
    let mut shuffled = w.store.clone();
    let n = shuffled.len();
    for i in 0..n {
        let j = (sha256(&(i as u64).to_le_bytes())[0] as usize * 7919 + i) % n;
        shuffled.swap(i, j);
    }
    for store in [twice, shuffled] {
        w.store = store;
        let again = w.visit(1, |_| vec![]);
        assert_eq!((again.log_len, again.hash), (s.log_len, s.hash));
        assert_eq!(again.sent, 0, "nothing new to sign");
    }
}

#[test]
fn different_envelopes_to_different_visitors_halt_everyone_naming_the_sender() {
    let mut w = World::new(3, 7);
    lobby(&mut w);
    w.now_s = T0 + HOUR;
    w.play(0);
    w.play(1);
    // 2 signs two different orders for Spring 1901: one only 0 reads, the other only 1 reads.
    let two = w.keys[2];
    let mut versions = vec![];
    for (k, reader) in [(1u8, 0usize), (2, 1)] {
        let before = w.store.len();
        // A modified client: it drops its memento (an honest one publishes the first
        // commitment again instead of signing another).
        w.mementos[2].clear();
        w.visit(2, |p| {
            let (_, powers) = p.orders_due().expect("due");
            let orders = powers.iter().map(|&pw| (pw, vec![])).collect();
            let mut payload = OrdersPayload::orders(orders);
            payload.draw = vec![(powers[0], k == 1)];
            vec![p.submit_orders(payload, [k; 32]).expect("orders")]
        });
        let mine: Vec<Vec<u8>> = w.store.drain(before..).collect();
        w.private[reader].extend(mine.iter().cloned());
        versions.push(mine);
    }
    assert_ne!(versions[0], versions[1]);
    w.play(0);
    w.play(1);
    // A relay refilled: everyone reads both.
    for v in versions {
        w.store.extend(v);
    }
    for i in 0..2 {
        let s = w.visit(i, |_| vec![]);
        match s.halted {
            Some(HaltReport::Equivocation { peer, .. }) => assert_eq!(peer, two),
            other => panic!("player {i}: {other:?}"),
        }
    }
}

#[test]
fn two_players_missing_together_are_voted_in_one_control() {
    let mut w = World::new(3, 8);
    lobby(&mut w);
    w.now_s = T0 + HOUR;
    w.play(0);
    // Neither 1 nor 2 comes: one control names both, and its voters are the others (here 0).
    w.now_s = T0 + DAY + 3 * HOUR;
    let s = w.play(0);
    assert!(missed_applied(&s), "{:?}", s.events);
    assert_eq!((s.log_len, s.excuses.clone()), (0, vec![1, 0, 0]));
    assert_eq!(s.deadline_s, Some(T0 + 2 * DAY));
    w.play(1);
    w.play(2);
    w.play(0);
    w.play(1);
    let s = all_agree(&mut w, 3);
    assert_eq!(s.log_len, 1);
}
