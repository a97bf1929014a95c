//! Wire fuzzing as a benchmark-style run (not part of the test suite): feeds a mid-game peer
//! millions of hostile messages and prints how many it handled, how fast, and what it said.
//!
//! `cargo run --release -p orbis-protocol --example fuzz_wire -- [MESSAGES] [THREADS]`
//! (default 10,000,000 on every core). Messages: random bytes; real messages of the game with
//! bits flipped, truncated or extended; and validly signed bodies (by a participant and by a
//! stranger) with random fields: entries, reveals, checkpoints, votes, orders commitments and
//! reveals, proposals, accepts, seed reveals, chat, syncs and batches of any of these. Every
//! `RELOAD` messages, and after each halt (a participant's random entries can be real
//! equivocation), the peer is restored from the mid-game snapshot, so the run stays near a live
//! game. Strangers' messages must never halt it: the run counts halts by who caused them. A panic anywhere stops the run with exit code 1.

// Peers are numbered 0 and 1 and each talks to `1 - i`: indexing reads plainer than iterators.
#![allow(clippy::needless_range_loop)]

use ed25519_dalek::SigningKey;
use orbis_engine::bot;
use orbis_engine::classic::{Action, BotLevel, ClassicOptions, Colour};
use orbis_engine::codec::sha256;
use orbis_protocol::wire::Envelope;
use orbis_protocol::{
    Body, Config, Control, Controller, Dest, Entry, Peer, PeerKey, ProtocolEvent, SeatSpec,
    SetupProposal,
};
use std::collections::BTreeMap;
use std::time::Instant;

const GAME: [u8; 16] = *b"orbis-fuzz-wire!";
const RELOAD: u64 = 20_000;

/// xorshift64*: fast, deterministic per thread.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
    fn some(&mut self, max: u64) -> Vec<u8> {
        let n = self.below(max) as usize;
        self.bytes(n)
    }
    fn arr(&mut self) -> [u8; 32] {
        let mut a = [0u8; 32];
        for b in a.iter_mut() {
            *b = self.next() as u8;
        }
        a
    }
}

fn config(i: u64) -> Config {
    let mut c = Config::new(GAME, &format!("p{i}"), sha256(&i.to_le_bytes()));
    c.chain_len = 4096;
    c.resend_ms = 300;
    c
}

/// Two peers and a bot seat, played by the bots on a perfect in-memory network until 60 log
/// entries; returns peer 0, every message it saw, and peer 1's secret.
fn mid_game() -> (Peer, Vec<Vec<u8>>, [u8; 32]) {
    let mut peers = [Peer::new(config(0)), Peer::new(config(1))];
    let keys: Vec<PeerKey> = peers.iter().map(|p| p.key()).collect();
    let mut queue: Vec<(usize, Vec<u8>)> = vec![];
    let mut seen: Vec<Vec<u8>> = vec![];
    let mut now = 0;
    let push = |queue: &mut Vec<(usize, Vec<u8>)>, from: usize, out: orbis_protocol::Output| {
        for (d, b) in out.send {
            match d {
                Dest::All | Dest::Link(_) => queue.push((1 - from, b)),
            }
        }
        out.events
    };
    let mut events = vec![];
    for i in 0..2 {
        let o = peers[i].start(0);
        events.extend(push(&mut queue, i, o).into_iter().map(|e| (i, e)));
    }
    let proposal = SetupProposal {
        participants: keys.clone(),
        seats: vec![
            SeatSpec {
                name: "A".into(),
                colour: Colour::ALL[0],
                controller: Controller::Peer(0),
            },
            SeatSpec {
                name: "B".into(),
                colour: Colour::ALL[1],
                controller: Controller::Peer(1),
            },
            SeatSpec {
                name: "C".into(),
                colour: Colour::ALL[2],
                controller: Controller::Bot(BotLevel::Easy),
            },
        ],
        options: ClassicOptions::default(),
        orders: None,
        face_down: false,
        stand_in: true,
        economy: None,
        nonce: 7,
        clock: None,
    };
    let o = peers[0].propose_setup(proposal).expect("proposal");
    events.extend(push(&mut queue, 0, o).into_iter().map(|e| (0, e)));
    while peers[0].log_len() < 60 {
        now += 5;
        let batch = std::mem::take(&mut queue);
        for (to, b) in batch {
            if to == 0 {
                seen.push(b.clone());
            }
            let o = peers[to].handle((1 - to) as u64, &b, now);
            events.extend(push(&mut queue, to, o).into_iter().map(|e| (to, e)));
        }
        for (i, e) in std::mem::take(&mut events) {
            if let ProtocolEvent::SetupProposed { hash, .. } = e {
                if let Ok(o) = peers[i].accept_setup(hash) {
                    events.extend(push(&mut queue, i, o).into_iter().map(|e| (i, e)));
                }
            }
        }
        for i in 0..2 {
            while peers[i].is_my_turn() {
                let Some(a) = peers[i]
                    .state()
                    .and_then(|s| bot::choose(s, BotLevel::Easy))
                else {
                    break;
                };
                let Ok(o) = peers[i].act(a) else { break };
                events.extend(push(&mut queue, i, o).into_iter().map(|e| (i, e)));
            }
            let o = peers[i].tick(now);
            events.extend(push(&mut queue, i, o).into_iter().map(|e| (i, e)));
        }
        assert!(
            now < 10_000_000,
            "the warm-up game did not reach 60 entries"
        );
    }
    (peers[0].clone(), seen, config(1).identity_secret)
}

fn random_body(r: &mut Rng, len: u64, head: [u8; 32], keys: &[PeerKey]) -> Body {
    let index = r.below(len + 80);
    let action = match r.below(7) {
        0 => Action::Place {
            territory: r.next() as u8,
            armies: r.next() as u32,
        },
        1 => Action::Attack {
            from: r.next() as u8,
            to: r.next() as u8,
            dice: r.next() as u8,
        },
        2 => Action::Blitz {
            from: r.next() as u8,
            to: r.next() as u8,
            stop_at: r.next() as u32,
        },
        3 => Action::Occupy {
            armies: r.next() as u32,
        },
        4 => Action::Trade {
            cards: [r.next() as u8, r.next() as u8, r.next() as u8],
        },
        5 => Action::EndAttack,
        _ => Action::EndTurn,
    };
    let key = keys[r.below(keys.len() as u64) as usize];
    match r.below(13) {
        0 => Body::Entry(Entry {
            index,
            prev_hash: if r.below(2) == 0 { head } else { r.arr() },
            action,
        }),
        1 => Body::Reveal {
            index,
            roll: r.next() as u32,
            decl: r.arr(),
            preimage: r.arr(),
            next_tip: (r.below(2) == 0).then(|| r.arr()),
        },
        2 => Body::Checkpoint {
            index,
            state_hash: r.arr(),
            log_head: r.arr(),
        },
        3 => Body::Vote {
            at: index,
            fixed: None,
            control: if r.below(2) == 0 {
                Control::Drop {
                    peer: key,
                    level: BotLevel::Easy,
                }
            } else {
                Control::SeatToBot {
                    seat: r.next() as u8,
                    level: BotLevel::Normal,
                }
            },
        },
        4 => Body::OrdersCommit {
            round: index as u32,
            hash: r.arr(),
        },
        5 => Body::OrdersReveal {
            round: index as u32,
            payload: r.some(300),
            salt: r.arr(),
        },
        6 => Body::Hello {
            name: String::from_utf8_lossy(&r.some(80)).into_owned(),
            answer: r.below(2) == 0,
            challenge: (r.below(2) == 0).then(|| r.arr()),
            response: (r.below(2) == 0).then(|| r.arr()),
        },
        7 => Body::Chat {
            to: (r.below(2) == 0).then_some(key),
            text: "x".repeat(r.below(700) as usize),
            sealed: r.some(600),
        },
        8 => Body::ChatAck { id: r.arr() },
        9 => Body::Sync {
            started: r.below(2) == 0,
            have_index: index,
            head: r.arr(),
            deal: r.below(100) as u32,
            deal_digest: r.arr(),
            unread: vec![(r.below(4) as u8, r.below(50) as u16)],
            withheld: vec![r.below(4) as u8],
        },
        10 => Body::Accept {
            proposal: r.arr(),
            seed_commit: r.arr(),
            chain_tip: r.arr(),
            chain_len: r.next() as u32,
        },
        11 => Body::SeedReveal {
            proposal: r.arr(),
            secret: r.arr(),
        },
        _ => Body::Batch {
            items: (0..r.below(6)).map(|_| r.some(200)).collect(),
        },
    }
}

fn run(thread: u64, count: u64, base: &(Peer, Vec<Vec<u8>>, [u8; 32])) -> BTreeMap<String, u64> {
    let (peer0, real, secret) = base;
    let mut r = Rng(0x9e37_79b9_7f4a_7c15 ^ (thread + 1).wrapping_mul(0x1000_0000_01b3));
    let participant = SigningKey::from_bytes(secret);
    let stranger = SigningKey::from_bytes(&[0xee; 32]);
    let keys = [
        PeerKey(participant.verifying_key().to_bytes()),
        PeerKey(stranger.verifying_key().to_bytes()),
        peer0.key(),
    ];
    let (len, head) = (peer0.log_len(), peer0.log_head().unwrap_or([0; 32]));
    let mut tally: BTreeMap<String, u64> = BTreeMap::new();
    let mut peer = peer0.clone();
    let mut now = 1_000_000u64;
    for n in 0..count {
        if n % RELOAD == 0 || peer.halted().is_some() {
            // A participant's random entries can be real equivocation, which halts by design;
            // start again from the snapshot so the rest of the run still reaches a live game.
            peer = peer0.clone();
        }
        now += 1;
        let kind = r.below(4);
        let bytes = match kind {
            0 => r.some(400),
            1 => {
                let mut b = real[r.below(real.len() as u64) as usize].clone();
                match r.below(3) {
                    0 => {
                        for _ in 0..1 + r.below(4) {
                            let i = r.below(b.len() as u64) as usize;
                            b[i] ^= 1 << r.below(8);
                        }
                    }
                    1 => b.truncate(r.below(b.len() as u64) as usize),
                    _ => {
                        let n = 1 + r.below(40) as usize;
                        b.extend(r.bytes(n))
                    }
                }
                b
            }
            _ => {
                let body = random_body(&mut r, len, head, &keys);
                let k = if kind == 2 { &participant } else { &stranger };
                // Game messages under the game's own id, or they are only "another game's".
                let id = match peer.game_tag() {
                    Some(tag) if body.under_game() => tag,
                    _ => GAME,
                };
                Envelope::seal(k, id, r.next(), &body)
            }
        };
        let out = peer.handle(1 + r.below(3), &bytes, now);
        for e in out.events {
            if let ProtocolEvent::Halted(h) = &e {
                let by_stranger = format!("{h:?}").contains(&format!("{:?}", keys[1]));
                *tally
                    .entry(if by_stranger {
                        "Halted by the stranger (must be 0)".into()
                    } else {
                        "Halted by the participant".into()
                    })
                    .or_default() += 1;
                continue;
            }
            let name = format!("{e:?}");
            let name = name
                .split([' ', '(', '{'])
                .next()
                .unwrap_or("?")
                .to_string();
            *tally.entry(name).or_default() += 1;
        }
        if n % 64 == 0 {
            let _ = peer.tick(now);
        }
    }
    // Memory after the flood: every table's size (merged as the largest over threads).
    for (t, n) in peer.table_sizes() {
        tally.insert(format!("table {t} at the end (largest)"), n as u64);
    }
    tally
}

fn main() {
    let mut args = std::env::args().skip(1);
    let count: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000_000);
    let threads: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get() as u64));
    let base = std::sync::Arc::new(mid_game());
    println!(
        "mid-game peer: log length {}, {} real messages to mutate",
        base.0.log_len(),
        base.1.len()
    );
    let start = Instant::now();
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let base = base.clone();
            let share = count / threads + u64::from(t < count % threads);
            std::thread::spawn(move || run(t, share, &base))
        })
        .collect();
    let mut tally: BTreeMap<String, u64> = BTreeMap::new();
    let mut panicked = false;
    for h in handles {
        match h.join() {
            Ok(t) => {
                for (k, v) in t {
                    let e = tally.entry(k.clone()).or_default();
                    if k.starts_with("table ") {
                        *e = (*e).max(v);
                        continue;
                    }
                    *e += v;
                }
            }
            Err(_) => panicked = true,
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!("{count} hostile messages on {threads} threads in {secs:.1} s ({:.0} messages/s); panics: {}", count as f64 / secs, if panicked { "YES" } else { "none" });
    for (k, v) in &tally {
        println!("  {k}: {v}");
    }
    if panicked {
        std::process::exit(1);
    }
}
