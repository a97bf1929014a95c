//! Simulated network for protocol tests: in-memory peers, a seeded scheduler with random delay,
//! reordering, duplication and drops, and hooks for adversaries.
#![allow(dead_code)]

pub mod economy;
pub mod finished;
pub mod strangers;

use orbis_engine::bot;
use orbis_engine::classic::{BotLevel, ClassicOptions, Colour};
use orbis_engine::codec::sha256;
use orbis_engine::dice::{Dice, SeededDice};
use orbis_protocol::{
    Config, Controller, Dest, Output, Peer, PeerKey, ProtocolEvent, SeatSpec, SetupProposal,
};
use std::collections::BTreeMap;

/// How many whole-game schedules a property test tries: `short` by default, `long` when
/// `ORBIS_LONG_TESTS` is set (a nightly-style run: `ORBIS_LONG_TESTS=1 cargo test -p
/// orbis-protocol --test suite schedules`). The seed is fixed, so the short run's schedules are the
/// long run's first ones (issue 63: the three schedule tests were 80 of the suite's 555 test-seconds).
pub fn cases(short: u32, long: u32) -> u32 {
    if std::env::var_os("ORBIS_LONG_TESTS").is_some() {
        long
    } else {
        short
    }
}

/// `n` peers on a perfect network, started (hellos) without proposing.
pub fn lobby(n: usize, seed: u64) -> Net {
    let mut net = Net::new(n, seed, NetParams::perfect());
    for i in 0..n {
        let o = net.peers[i].start(0);
        net.process(i, o);
    }
    net.run_until(500, |_| false);
    net
}

/// Network behaviour.
#[derive(Clone, Copy, Debug)]
pub struct NetParams {
    pub max_delay: u64,
    /// Percent of messages lost.
    pub drop_pct: u32,
    /// Percent of messages delivered twice.
    pub dup_pct: u32,
}

impl NetParams {
    pub fn perfect() -> NetParams {
        NetParams {
            max_delay: 1,
            drop_pct: 0,
            dup_pct: 0,
        }
    }
}

/// What an adversary does to a message leaving peer `from` for peer `to`: the bytes to deliver
/// instead (possibly none, possibly several).
pub type Tamper = Box<dyn FnMut(&mut Peer, usize, usize, Vec<u8>) -> Vec<Vec<u8>>>;

pub struct Net {
    pub peers: Vec<Peer>,
    pub online: Vec<bool>,
    /// Peers whose seat moves the harness plays with the bot.
    pub autoplay: Vec<bool>,
    pub events: Vec<Vec<ProtocolEvent>>,
    pub level: BotLevel,
    pub now: u64,
    pub params: NetParams,
    queue: BTreeMap<(u64, u64), (usize, usize, Vec<u8>)>,
    counter: u64,
    rng: SeededDice,
    pub tamper: Option<(usize, Tamper)>,
    /// A second adversary's tamper, applied after `tamper` (two peers deviating at once).
    pub tamper_also: Option<(usize, Tamper)>,
    pub configs: Vec<Config>,
    pub delivered: u64,
    /// Bytes sent per message kind (first byte of the body's variant index is not visible, so
    /// the harness records total bytes only).
    pub bytes_sent: u64,
}

pub fn game_id() -> [u8; 16] {
    *b"orbis-test-game!"
}

pub fn config(seed: u64, i: usize) -> Config {
    let mut e = b"peer".to_vec();
    e.extend_from_slice(&seed.to_le_bytes());
    e.extend_from_slice(&(i as u64).to_le_bytes());
    let mut c = Config::new(game_id(), &format!("peer{i}"), sha256(&e));
    c.chain_len = 8192;
    c.resend_ms = 300;
    c.missing_ms = 3_000;
    c.turn_grace_ms = 2_000;
    c
}

impl Net {
    /// `n` peers, each with a fresh identity derived from `seed`.
    pub fn new(n: usize, seed: u64, params: NetParams) -> Net {
        let configs: Vec<Config> = (0..n).map(|i| config(seed, i)).collect();
        let peers = configs.iter().cloned().map(Peer::new).collect();
        let mut rs = b"net".to_vec();
        rs.extend_from_slice(&seed.to_le_bytes());
        Net {
            peers,
            online: vec![true; n],
            autoplay: vec![true; n],
            events: vec![vec![]; n],
            level: BotLevel::Normal,
            now: 0,
            params,
            queue: BTreeMap::new(),
            counter: 0,
            rng: SeededDice::new(sha256(&rs)),
            tamper: None,
            tamper_also: None,
            configs,
            delivered: 0,
            bytes_sent: 0,
        }
    }

    pub fn keys(&self) -> Vec<PeerKey> {
        self.peers.iter().map(|p| p.key()).collect()
    }

    /// One seat per peer (seat i played by peer i), plus `bots` protocol-level bot seats.
    pub fn proposal(&self, bots: usize) -> SetupProposal {
        let n = self.peers.len();
        let mut seats: Vec<SeatSpec> = (0..n)
            .map(|i| SeatSpec {
                name: format!("P{i}"),
                colour: Colour::ALL[i],
                controller: Controller::Peer(i as u8),
            })
            .collect();
        for b in 0..bots {
            seats.push(SeatSpec {
                name: format!("Bot{b}"),
                colour: Colour::ALL[n + b],
                controller: Controller::Bot(BotLevel::Normal),
            });
        }
        SetupProposal {
            participants: self.keys(),
            seats,
            options: ClassicOptions::default(),
            orders: None,
            face_down: false,
            stand_in: true,
            economy: None,
            nonce: 1,
            clock: None,
        }
    }

    /// Starts every peer and has peer 0 propose; everyone accepts automatically.
    pub fn start(&mut self, proposal: SetupProposal) {
        for i in 0..self.peers.len() {
            let out = self.peers[i].start(self.now);
            self.process(i, out);
        }
        let out = self.peers[0]
            .propose_setup(proposal)
            .expect("valid proposal");
        self.process(0, out);
    }

    pub fn process(&mut self, i: usize, out: Output) {
        let Output { send, events } = out;
        for (dest, bytes) in send {
            self.bytes_sent += bytes.len() as u64;
            let targets: Vec<usize> = match dest {
                Dest::All => (0..self.peers.len()).filter(|&j| j != i).collect(),
                Dest::Link(l) => vec![l as usize],
            };
            for j in targets {
                if j >= self.peers.len() {
                    continue;
                }
                let mut msgs = match &mut self.tamper {
                    Some((who, f)) if *who == i => f(&mut self.peers[i], i, j, bytes.clone()),
                    _ => vec![bytes.clone()],
                };
                if let Some((who, f)) = &mut self.tamper_also {
                    if *who == i {
                        let peer = &mut self.peers[i];
                        msgs = msgs.into_iter().flat_map(|m| f(peer, i, j, m)).collect();
                    }
                }
                for m in msgs {
                    self.schedule(i, j, m);
                }
            }
        }
        for e in events {
            if let ProtocolEvent::SetupProposed { hash, .. } = &e {
                if let Ok(o) = self.peers[i].accept_setup(*hash) {
                    self.process(i, o);
                }
            }
            self.events[i].push(e);
        }
    }

    /// Peer `i`'s page reloads: everything it had in memory is lost; it starts again from its
    /// stored keys and secrets (`remembered`: what `Peer::memento` returned), with a higher
    /// message counter, and comes back online.
    pub fn reload(&mut self, i: usize, remembered: Vec<Vec<u8>>) {
        let mut cfg = self.configs[i].clone();
        cfg.seq_start = 1 << 40;
        cfg.remembered = remembered;
        self.peers[i] = Peer::new(cfg);
        self.events[i].clear();
        self.online[i] = true;
        let out = self.peers[i].start(self.now);
        self.process(i, out);
    }

    /// Sends raw bytes from `from` to `to` through the network.
    pub fn inject(&mut self, from: usize, to: usize, bytes: Vec<u8>) {
        self.schedule(from, to, bytes);
    }

    fn schedule(&mut self, from: usize, to: usize, bytes: Vec<u8>) {
        if self.rng.below(100) < self.params.drop_pct {
            return;
        }
        let copies = if self.rng.below(100) < self.params.dup_pct {
            2
        } else {
            1
        };
        for _ in 0..copies {
            let at = self.now + 1 + u64::from(self.rng.below(self.params.max_delay.max(1) as u32));
            self.counter += 1;
            self.queue
                .insert((at, self.counter), (from, to, bytes.clone()));
        }
    }

    /// Lets every online autoplaying peer whose turn it is move with the bot.
    fn play(&mut self) {
        for i in 0..self.peers.len() {
            while self.online[i] && self.autoplay[i] && self.peers[i].is_my_turn() {
                // What the seat's player sees: its own face-down cards face up.
                let Some(state) = self.peers[i].view() else {
                    break;
                };
                // A player whose cards are still on their way waits for them.
                if !state.players[state.current as usize].sealed.is_empty() {
                    break;
                }
                let Some(a) = bot::choose(&state, self.level) else {
                    break;
                };
                match self.peers[i].act(a) {
                    Ok(out) => self.process(i, out),
                    Err(e) => panic!("peer {i} could not play {a:?}: {e}"),
                }
            }
        }
    }

    /// Runs the network until `done` holds or `limit_ms` of simulated time passes.
    pub fn run_until(&mut self, limit_ms: u64, mut done: impl FnMut(&Net) -> bool) -> bool {
        const TICK: u64 = 50;
        let mut next_tick = self.now + TICK;
        loop {
            self.play();
            if done(self) {
                return true;
            }
            if self.now > limit_ms {
                return false;
            }
            let next_msg = self.queue.keys().next().copied();
            match next_msg {
                Some(k) if k.0 <= next_tick => {
                    let (from, to, bytes) = self.queue.remove(&k).unwrap_or_default();
                    self.now = self.now.max(k.0);
                    if self.online[to] && self.online[from] {
                        self.delivered += 1;
                        let out = self.peers[to].handle(from as u64, &bytes, self.now);
                        self.process(to, out);
                    }
                }
                _ => {
                    self.now = next_tick;
                    next_tick += TICK;
                    for i in 0..self.peers.len() {
                        if self.online[i] {
                            let out = self.peers[i].tick(self.now);
                            self.process(i, out);
                        }
                    }
                }
            }
        }
    }

    /// True when every peer in `who` has finished the game.
    pub fn all_over(&self, who: &[usize]) -> bool {
        who.iter()
            .all(|&i| self.peers[i].state().is_some_and(|s| s.winner().is_some()))
    }

    pub fn all_started(&self) -> bool {
        self.peers.iter().all(|p| p.state().is_some())
    }

    pub fn hashes(&self, who: &[usize]) -> Vec<Option<String>> {
        who.iter()
            .map(|&i| self.peers[i].state().map(|s| s.state_hash().to_hex()))
            .collect()
    }

    /// Every `Rejected` or `Halted` event seen by `i`.
    pub fn complaints(&self, i: usize) -> Vec<&ProtocolEvent> {
        self.events[i]
            .iter()
            .filter(|e| matches!(e, ProtocolEvent::Rejected { .. } | ProtocolEvent::Halted(_)))
            .collect()
    }
}

/// Peer `from`'s vote for `control` at `at`, signed as its own page would (under a fresh
/// sequence number far above its page's), for `to`'s game.
pub fn signed_vote(
    net: &Net,
    from: usize,
    to: usize,
    at: u64,
    control: orbis_protocol::Control,
) -> Vec<u8> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static SEQ: AtomicU64 = AtomicU64::new(1 << 50);
    let key = ed25519_dalek::SigningKey::from_bytes(&net.configs[from].identity_secret);
    let tag = net.peers[to].game_tag().expect("started");
    let seq = SEQ.fetch_add(1, Ordering::Relaxed);
    orbis_protocol::Envelope::seal(
        &key,
        tag,
        seq,
        &orbis_protocol::Body::Vote {
            at,
            control,
            fixed: None,
        },
    )
}

/// A withholder's tamper: none of the sender's card shares (own or stood-in pieces) addressed to
/// participant `to` leaves it; everything else does.
pub fn withhold_shares_to(to: u8) -> Tamper {
    use orbis_deal::table::DealMsg;
    use orbis_protocol::{Body, Envelope};
    Box::new(move |_: &mut Peer, _, _, bytes: Vec<u8>| {
        match Envelope::open_where(&bytes, |_| true) {
            Ok((
                _,
                Body::Deal {
                    to: Some(t), msg, ..
                },
            )) if t == to && matches!(msg, DealMsg::Share { .. } | DealMsg::PieceShare { .. }) => {
                vec![]
            }
            _ => vec![bytes],
        }
    })
}
