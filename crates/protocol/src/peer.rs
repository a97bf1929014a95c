//! The sans-I/O peer: feed it `(link, bytes, now)` and local commands, send what it returns.
//!
//! Everything a peer accepts is kept as the original signed bytes, so it can relay entries (which
//! exposes equivocation), answer `Sync` requests from lagging or rejoining peers with the
//! transcript, and never needs anyone's word for anything.

use crate::chain::{step_n, HashChain};
use crate::wire::{
    decode_orders, encode_orders, orders_commitment, Body, Control, Controller, Entry, Envelope,
    OrdersPayload, PeerKey, SetupProposal, WireError, MAX_CHAT_BYTES, MAX_NAME_BYTES,
    MAX_ORDERS_BYTES,
};
use ed25519_dalek::SigningKey;
use orbis_engine::bot;
use orbis_engine::classic::{self, Action, BotLevel, ClassicState, PlayerId, SeatConfig, SeatKind};
use orbis_engine::codec::{self, sha256};
use orbis_engine::dice::SeededDice;
use orbis_engine::rules::orders::map::{OrdersMap, PowerId};
use orbis_engine::rules::orders::{OrdersAction, OrdersEvent, OrdersState, Phase};
use orbis_engine::rules::Game;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The classic state of a run; the caller returns when the game is an orders game (classic
/// code paths are only reached for classic games).
macro_rules! classic {
    ($r:expr) => {
        match &mut $r.state {
            Game::Classic(s) => s,
            Game::Orders(_) => return,
        }
    };
}

/// The transport's name for a connection (the adapter maps its own peer ids to these).
pub type LinkId = u64;

/// Where to send bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dest {
    /// Every connected peer.
    All,
    /// One connection.
    Link(LinkId),
}

/// What one call produced.
#[derive(Debug, Default)]
pub struct Output {
    pub send: Vec<(Dest, Vec<u8>)>,
    pub events: Vec<ProtocolEvent>,
}

impl Output {
    fn merge(&mut self, other: Output) {
        self.send.extend(other.send);
        self.events.extend(other.events);
    }
}

/// Settings and caller-supplied entropy (the peer draws no randomness itself).
#[derive(Clone, Debug)]
pub struct Config {
    /// Room identity; messages of other games are refused.
    pub game_id: [u8; 16],
    pub name: String,
    /// ed25519 secret key (kept by the caller, e.g. in localStorage, to rejoin).
    pub identity_secret: [u8; 32],
    /// Seed share for the lobby's commit-reveal.
    pub seed_secret: [u8; 32],
    /// Secret at the bottom of this peer's dice hash chain.
    pub chain_secret: [u8; 32],
    /// Number of rolls the chain supports.
    pub chain_len: u32,
    /// First message number; a reloaded peer must start above its previous session's numbers
    /// (e.g. milliseconds since the epoch × 1000).
    pub seq_start: u64,
    /// Without progress for this long, ask everyone for what is missing (covers lost messages).
    pub resend_ms: u64,
    /// Nothing heard from a participant's connection for this long ⇒ `PeerMissing`.
    pub missing_ms: u64,
}

impl Config {
    /// A configuration with default timings and chain length.
    pub fn new(game_id: [u8; 16], name: &str, entropy: [u8; 32]) -> Config {
        let derive = |tag: &[u8]| {
            let mut b = tag.to_vec();
            b.extend_from_slice(&entropy);
            sha256(&b)
        };
        Config {
            game_id,
            name: name.to_string(),
            identity_secret: derive(b"identity"),
            seed_secret: derive(b"seed"),
            chain_secret: derive(b"chain"),
            chain_len: 16_384,
            seq_start: 0,
            resend_ms: 1_000,
            missing_ms: 5_000,
        }
    }
}

/// A message that was refused, and why. Validly signed messages name their signer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    Wire(WireError),
    /// Two different messages with the same sequence number.
    SeqReused {
        seq: u64,
    },
    /// The signer is not a participant of the game.
    NotParticipant,
    BadProposal(String),
    /// A seed share that does not open its commitment.
    SeedMismatch,
    /// An entry from a peer who does not control the seat that must act at `index`.
    OutOfTurn {
        index: u64,
    },
    /// An entry whose previous-hash is not this log's head.
    WrongPrevHash {
        index: u64,
    },
    /// An action the engine refuses.
    Illegal {
        index: u64,
        error: String,
    },
    /// Too far ahead of this peer's log to buffer.
    TooFarAhead {
        index: u64,
    },
    /// A dice pre-image that is not the next element of the sender's committed chain.
    BadReveal {
        index: u64,
        roll: u32,
    },
    /// A second, different orders commitment for a round.
    OrdersCommitChanged {
        round: u32,
    },
    /// Revealed orders that do not match the commitment.
    OrdersMismatch {
        round: u32,
    },
    /// Revealed orders (orders ruleset) that the engine refuses, or for a power the sender does
    /// not play: those orders are void (the units hold) and the sender is named.
    IllegalOrders {
        round: u32,
        error: String,
    },
    TooLong,
    /// A private chat message addressed to someone else.
    NotForMe,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::Wire(e) => e.fmt(f),
            Violation::SeqReused { seq } => write!(f, "reused message number {seq}"),
            Violation::NotParticipant => f.write_str("not a participant of this game"),
            Violation::BadProposal(e) => write!(f, "invalid setup proposal: {e}"),
            Violation::SeedMismatch => f.write_str("seed share does not match its commitment"),
            Violation::OutOfTurn { index } => write!(f, "acted out of turn at log index {index}"),
            Violation::WrongPrevHash { index } => {
                write!(f, "entry {index} does not extend this game's log")
            }
            Violation::Illegal { index, error } => write!(f, "illegal action at {index}: {error}"),
            Violation::TooFarAhead { index } => write!(f, "entry {index} is too far ahead"),
            Violation::BadReveal { index, roll } => {
                write!(f, "forged dice reveal for roll {roll} (log index {index})")
            }
            Violation::OrdersCommitChanged { round } => {
                write!(f, "changed its orders commitment in round {round}")
            }
            Violation::OrdersMismatch { round } => {
                write!(
                    f,
                    "revealed orders that do not match its commitment in round {round}"
                )
            }
            Violation::IllegalOrders { round, error } => {
                write!(f, "revealed illegal orders in round {round}: {error}")
            }
            Violation::TooLong => f.write_str("message field too long"),
            Violation::NotForMe => f.write_str("private message addressed to another peer"),
        }
    }
}

/// Why the game stopped for good on this peer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HaltReport {
    /// `peer` signed two different entries (content hashes `first`, `second`) for log
    /// position `index`. Our log up to `agreed_index` (≤ `index`; head `agreed_head`) is
    /// shared by every honest peer: compare with [`Peer::head_at`].
    Equivocation {
        peer: PeerKey,
        index: u64,
        first: [u8; 32],
        second: [u8; 32],
        agreed_index: u64,
        agreed_head: [u8; 32],
    },
    /// `peer` reports a different state or history after `index` entries.
    CheckpointMismatch {
        peer: PeerKey,
        index: u64,
        ours: ([u8; 32], [u8; 32]),
        theirs: ([u8; 32], [u8; 32]),
    },
    /// The engine refused a bot move or the dice chain ran out: a bug, not an attack.
    Internal(String),
}

/// Something for the UI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProtocolEvent {
    /// A message was dropped. `peer` is the signer when the signature verified (or the claimed
    /// sender otherwise); `link` is where it came from.
    Rejected {
        link: Option<LinkId>,
        peer: Option<PeerKey>,
        violation: Violation,
    },
    PeerHello {
        link: LinkId,
        peer: PeerKey,
        name: String,
    },
    SetupProposed {
        by: PeerKey,
        hash: [u8; 32],
        proposal: SetupProposal,
    },
    GameStarted {
        proposal: [u8; 32],
        seed: [u8; 32],
    },
    /// Log entry `index` was applied.
    Applied {
        index: u64,
        seat: PlayerId,
        action: Action,
        events: Vec<classic::Event>,
    },
    GameOver {
        winner: PlayerId,
    },
    PeerMissing {
        peer: PeerKey,
    },
    PeerReturned {
        peer: PeerKey,
    },
    /// Orders game: the phase of round `index` was resolved with everyone's revealed orders
    /// (the engine's events: results, centres taken, next phase...).
    PhaseResolved {
        index: u64,
        events: Vec<OrdersEvent>,
    },
    /// Every participant committed orders for `round`.
    OrdersCommitted {
        round: u32,
    },
    /// Everyone's orders for `round`, in participant order.
    OrdersRevealed {
        round: u32,
        orders: Vec<(PeerKey, Vec<u8>)>,
    },
    Chat {
        from: PeerKey,
        private: bool,
        text: String,
    },
    /// Every required voter agreed: `control` took effect at log position `at`.
    ControlApplied {
        at: u64,
        control: Control,
    },
    Halted(HaltReport),
}

/// Why a local command was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    NotStarted,
    AlreadyStarted,
    Halted,
    NotYourTurn,
    /// Waiting for the dice of the previous attack.
    RollPending,
    Illegal(String),
    BadProposal(String),
    UnknownProposal,
    NotParticipant,
    TooLong,
    AlreadyCommitted,
    UnknownPeer,
    GameOver,
    /// The control is already in effect, or this peer does not vote on it.
    NotAVoter,
    /// The command belongs to the other ruleset.
    WrongRuleset,
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for CommandError {}

/// How many log positions past our own we buffer entries, reveals and checkpoints for.
const MAX_AHEAD: u64 = 64;
/// Buffered messages received before the game started.
const MAX_EARLY: usize = 4096;
/// Open simultaneous-orders rounds.
const MAX_ROUNDS: usize = 64;
/// Positions before our log end that a `Sync` answer repeats to a requester that is ahead of us.
const SYNC_LOOKBACK: u64 = 4;
/// Positions before the requester's log end that a `Sync` answer repeats when its head there
/// differs from ours.
const FORK_LOOKBACK: u64 = 64;
/// Messages in one resend batch, and the bytes we put in one (small enough for one WebRTC
/// data-channel message everywhere).
const MAX_BATCH_ITEMS: usize = 8192;
const BATCH_BYTES: usize = 48 * 1024;
/// Unacknowledged chat messages we keep resending; older ones are given up first.
const MAX_CHAT_OUTBOX: usize = 64;
/// How long we keep resending a chat message to a recipient that does not acknowledge it.
const CHAT_GIVE_UP_MS: u64 = 120_000;

fn is_random(a: &Action) -> bool {
    matches!(a, Action::Attack { .. } | Action::Blitz { .. })
}

fn content_hash(e: &Entry) -> [u8; 32] {
    let mut b = b"orbis-entry".to_vec();
    b.extend_from_slice(&codec::encode(e));
    sha256(&b)
}

/// Log head after entry `index`, including any controls decided at that position.
fn next_head(head: &[u8; 32], index: u64, controls: &[Control], action: &Action) -> [u8; 32] {
    let mut b = b"orbis-log".to_vec();
    b.extend_from_slice(head);
    b.extend_from_slice(&codec::encode(&(index, controls, action)));
    sha256(&b)
}

/// Orders game: log head after the phase of round `index`, resolved from the reveals whose
/// hash is `content`.
fn next_head_orders(
    head: &[u8; 32],
    index: u64,
    controls: &[Control],
    content: &[u8; 32],
) -> [u8; 32] {
    let mut b = b"orbis-log-orders".to_vec();
    b.extend_from_slice(head);
    b.extend_from_slice(&codec::encode(&(index, controls, content)));
    sha256(&b)
}

fn control_hash(c: &Control) -> [u8; 32] {
    let mut b = b"orbis-control".to_vec();
    b.extend_from_slice(&codec::encode(c));
    sha256(&b)
}

fn seed_commitment(secret: &[u8; 32]) -> [u8; 32] {
    let mut b = b"orbis-seed-commit".to_vec();
    b.extend_from_slice(secret);
    sha256(&b)
}

/// A log position that has been applied.
#[derive(Clone, Debug)]
struct Record {
    content: [u8; 32],
    signer: Option<PeerKey>,
    /// Original signed bytes (`None` for bot seats, which nobody sends).
    raw: Option<Vec<u8>>,
    /// Controls decided at this position (their votes are in `Run::votes`).
    controls: Vec<Control>,
}

/// Votes for one control at one position.
#[derive(Clone, Debug)]
struct VoteSet {
    control: Control,
    voters: BTreeMap<PeerKey, Vec<u8>>,
    applied: bool,
}

#[derive(Clone, Debug)]
struct Candidate {
    signer: PeerKey,
    entry: Entry,
    content: [u8; 32],
    raw: Vec<u8>,
    link: Option<LinkId>,
}

#[derive(Clone, Debug)]
struct PendingRoll {
    index: u64,
    roll: u32,
    decl: [u8; 32],
    action: Action,
    seat: PlayerId,
    record: Record,
}

#[derive(Clone, Debug)]
struct StoredReveal {
    preimage: [u8; 32],
    raw: Vec<u8>,
}

#[derive(Clone, Debug)]
struct UnverifiedReveal {
    roll: u32,
    preimage: [u8; 32],
    next_tip: Option<[u8; 32]>,
    raw: Vec<u8>,
    link: Option<LinkId>,
}

/// Orders revealed before their commitment arrived: (payload, salt, raw, link).
type EarlyOrders = (Vec<u8>, [u8; 32], Vec<u8>, Option<LinkId>);
/// Another peer's checkpoint: (peer, state hash, log head).
type TheirCheckpoint = (PeerKey, [u8; 32], [u8; 32], Vec<u8>);
/// An opened seed share and its signed message.
type SeedShare = ([u8; 32], Vec<u8>);

#[derive(Clone, Debug, Default)]
struct OrdersRound {
    commits: BTreeMap<u8, ([u8; 32], Vec<u8>)>,
    reveals: BTreeMap<u8, (Vec<u8>, Vec<u8>)>,
    early_reveals: BTreeMap<u8, EarlyOrders>,
    mine: Option<(Vec<u8>, [u8; 32])>,
    revealed: bool,
    announced_commits: bool,
    done: bool,
}

#[derive(Clone, Debug)]
struct Accepted {
    seed_commit: [u8; 32],
    chain_tip: [u8; 32],
    chain_len: u32,
    raw: Vec<u8>,
}

/// A running game.
#[derive(Clone)]
struct Run {
    proposal: SetupProposal,
    proposal_hash: [u8; 32],
    me: Option<u8>,
    state: Game,
    /// Orders game: the power each seat plays.
    powers: Vec<PowerId>,
    log: Vec<Record>,
    /// `heads[i]` = log head after `i` entries.
    heads: Vec<[u8; 32]>,
    roll_count: u32,
    pending: Option<PendingRoll>,
    reveals: BTreeMap<u64, BTreeMap<u8, StoredReveal>>,
    future_reveals: BTreeMap<u64, BTreeMap<u8, Vec<UnverifiedReveal>>>,
    /// Last verified (roll, pre-image) per participant; starts at (0, tip).
    chains: Vec<(u32, [u8; 32])>,
    chain_lens: Vec<u32>,
    /// Roll number of the last element of each participant's current chain.
    chain_ends: Vec<u32>,
    /// Announced tip of each participant's next chain.
    chain_next: Vec<Option<[u8; 32]>>,
    candidates: BTreeMap<u64, Vec<Candidate>>,
    /// Our (state hash, log head) at each turn end.
    checkpoints: BTreeMap<u64, [u8; 32]>,
    their_checkpoints: BTreeMap<u64, Vec<TheirCheckpoint>>,
    orders: BTreeMap<u32, OrdersRound>,
    /// Participants dropped by vote: they no longer contribute dice.
    excluded: BTreeSet<u8>,
    /// Seats handed to a bot by vote.
    bot_seats: BTreeMap<PlayerId, BotLevel>,
    /// Votes by position and control hash.
    votes: BTreeMap<(u64, [u8; 32]), VoteSet>,
    /// Controls applied at the current position, to be recorded with its entry.
    controls_here: Vec<Control>,
    /// Highest log position each peer has shown it reached (from any indexed message it signed).
    reached: BTreeMap<PeerKey, u64>,
}

impl Run {
    fn participant(&self, k: &PeerKey) -> Option<u8> {
        self.proposal
            .participants
            .iter()
            .position(|p| p == k)
            .map(|i| i as u8)
    }

    fn head(&self) -> [u8; 32] {
        self.heads.last().copied().unwrap_or([0; 32])
    }

    fn next_index(&self) -> u64 {
        self.log.len() as u64
    }

    fn controller(&self, seat: PlayerId) -> Option<Controller> {
        if let Some(l) = self.bot_seats.get(&seat) {
            return Some(Controller::Bot(*l));
        }
        self.proposal.seats.get(seat as usize).map(|s| s.controller)
    }

    /// Participants whose dice count.
    fn contributors(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.proposal.participants.len() as u8).filter(|i| !self.excluded.contains(i))
    }

    /// Who must vote for `c`: every contributing participant except the one it is about.
    fn voters(&self, c: &Control) -> Vec<PeerKey> {
        let target = match c {
            Control::Drop { peer, .. } => Some(*peer),
            Control::SeatToBot { seat, .. } => match self.controller(*seat) {
                Some(Controller::Peer(p)) => self.proposal.participants.get(p as usize).copied(),
                _ => None,
            },
        };
        self.contributors()
            .filter_map(|i| self.proposal.participants.get(i as usize).copied())
            .filter(|k| Some(*k) != target)
            .collect()
    }

    /// Whether `c` still makes sense (not already in effect).
    fn control_valid(&self, c: &Control) -> bool {
        match c {
            Control::Drop { peer, .. } => self
                .participant(peer)
                .is_some_and(|p| !self.excluded.contains(&p)),
            Control::SeatToBot { seat, .. } => {
                matches!(self.controller(*seat), Some(Controller::Peer(_)))
            }
        }
    }

    /// The game has ended.
    fn over(&self) -> bool {
        match &self.state {
            Game::Classic(s) => s.winner().is_some(),
            Game::Orders(s) => matches!(s.phase, Phase::GameOver { .. }),
        }
    }

    /// The hash exchanged in checkpoints (the classic state's own hash, so that classic hashes
    /// stay those of `ClassicState::state_hash`).
    fn state_hash(&self) -> [u8; 32] {
        match &self.state {
            Game::Classic(s) => s.state_hash().0,
            Game::Orders(_) => self.state.state_hash().0,
        }
    }

    /// Orders game: participants whose orders a round waits for (dropped ones no longer count).
    /// Classic generic rounds: every participant.
    fn orders_required(&self) -> Vec<u8> {
        match self.state {
            Game::Orders(_) => self.contributors().collect(),
            Game::Classic(_) => (0..self.proposal.participants.len() as u8).collect(),
        }
    }

    /// Orders game: the powers participant `p` orders now (seats handed to a bot excluded).
    fn powers_of(&self, p: u8) -> Vec<PowerId> {
        (0..self.proposal.seats.len())
            .filter(|&i| self.controller(i as PlayerId) == Some(Controller::Peer(p)))
            .filter_map(|i| self.powers.get(i).copied())
            .collect()
    }

    fn note_reached(&mut self, k: PeerKey, at: u64) {
        let e = self.reached.entry(k).or_insert(0);
        *e = (*e).max(at);
    }
}

/// A chat message of ours that some recipients have not acknowledged yet.
#[derive(Clone, Debug)]
struct OutgoingChat {
    raw: Vec<u8>,
    pending: BTreeSet<PeerKey>,
    sent_at: u64,
    last_sent: u64,
}

/// The protocol state machine of one peer. Cloning it forks the peer (for tests and tools).
#[derive(Clone)]
pub struct Peer {
    cfg: Config,
    key: SigningKey,
    me: PeerKey,
    seq: u64,
    chain: HashChain,
    /// Our chains after the first, built when first needed.
    later_chains: BTreeMap<u32, HashChain>,
    links: BTreeMap<LinkId, PeerKey>,
    key_links: BTreeMap<PeerKey, LinkId>,
    names: BTreeMap<PeerKey, String>,
    seen: BTreeSet<[u8; 32]>,
    seqs: BTreeMap<(PeerKey, u64), [u8; 32]>,
    my_hello: Option<Vec<u8>>,
    proposals: BTreeMap<[u8; 32], (SetupProposal, Vec<u8>)>,
    accepts: BTreeMap<[u8; 32], BTreeMap<PeerKey, Accepted>>,
    seed_reveals: BTreeMap<[u8; 32], BTreeMap<PeerKey, SeedShare>>,
    my_accept: Option<[u8; 32]>,
    early: Vec<(Option<LinkId>, Vec<u8>)>,
    run: Option<Run>,
    halted: Option<HaltReport>,
    last_progress: Option<u64>,
    last_heard: BTreeMap<PeerKey, u64>,
    missing: BTreeSet<PeerKey>,
    now: u64,
    in_batch: bool,
    last_answer: BTreeMap<LinkId, u64>,
    /// Signed messages proving why we halted.
    evidence: Vec<Vec<u8>>,
    /// A checkpoint disagreed: the halt report, its evidence and when, while we look for an
    /// equivocation that explains it.
    suspect: Option<(HaltReport, Vec<Vec<u8>>, u64)>,
    /// Our chat messages awaiting acknowledgements, by id (hash of the signed bytes).
    chat_outbox: BTreeMap<[u8; 32], OutgoingChat>,
    /// Ids of chat messages delivered to us, so a resend (our ack was lost) is acknowledged again.
    chats_in: BTreeSet<[u8; 32]>,
    /// Messages dropped as exact duplicates (network duplication, relays, resends, replays).
    pub duplicates: u64,
}

impl Peer {
    /// A peer with the given configuration; nothing is sent until [`Peer::start`].
    pub fn new(cfg: Config) -> Peer {
        let key = SigningKey::from_bytes(&cfg.identity_secret);
        let me = PeerKey(key.verifying_key().to_bytes());
        let chain = HashChain::new(cfg.chain_secret, cfg.chain_len);
        Peer {
            seq: cfg.seq_start,
            cfg,
            key,
            me,
            chain,
            later_chains: BTreeMap::new(),
            links: BTreeMap::new(),
            key_links: BTreeMap::new(),
            names: BTreeMap::new(),
            seen: BTreeSet::new(),
            seqs: BTreeMap::new(),
            my_hello: None,
            proposals: BTreeMap::new(),
            accepts: BTreeMap::new(),
            seed_reveals: BTreeMap::new(),
            my_accept: None,
            early: vec![],
            run: None,
            halted: None,
            last_progress: None,
            last_heard: BTreeMap::new(),
            missing: BTreeSet::new(),
            now: 0,
            in_batch: false,
            last_answer: BTreeMap::new(),
            evidence: vec![],
            suspect: None,
            chat_outbox: BTreeMap::new(),
            chats_in: BTreeSet::new(),
            duplicates: 0,
        }
    }

    /// This peer's public key.
    pub fn key(&self) -> PeerKey {
        self.me
    }

    /// The link a peer's messages last came over, if any.
    pub fn link_of(&self, k: &PeerKey) -> Option<LinkId> {
        self.key_links.get(k).copied()
    }

    /// The participants of the running game (empty before it starts).
    pub fn participants(&self) -> Vec<PeerKey> {
        self.run
            .as_ref()
            .map_or(vec![], |r| r.proposal.participants.clone())
    }

    /// The classic game state, once started (`None` for an orders game: see [`Peer::game`]).
    pub fn state(&self) -> Option<&ClassicState> {
        match self.run.as_ref().map(|r| &r.state) {
            Some(Game::Classic(s)) => Some(s),
            _ => None,
        }
    }

    /// The game state of either ruleset, once started.
    pub fn game(&self) -> Option<&Game> {
        self.run.as_ref().map(|r| &r.state)
    }

    /// The state hash peers exchange in checkpoints (classic: `ClassicState::state_hash`;
    /// orders: `Game::state_hash`).
    pub fn state_hash(&self) -> Option<[u8; 32]> {
        self.run.as_ref().map(|r| r.state_hash())
    }

    /// Orders game: the power each seat plays, in seat order.
    pub fn seat_powers(&self) -> Vec<PowerId> {
        self.run.as_ref().map_or(vec![], |r| r.powers.clone())
    }

    /// Orders game: the current round (= phase index) and the powers this peer must write orders
    /// for in it, when it has not committed yet. An empty list means nothing to order (the
    /// peer commits empty orders by itself).
    pub fn orders_due(&self) -> Option<(u32, Vec<PowerId>)> {
        let r = self.run.as_ref()?;
        let Game::Orders(s) = &r.state else {
            return None;
        };
        if self.halted.is_some() || r.over() {
            return None;
        }
        let m = r.me.filter(|m| !r.excluded.contains(m))?;
        let round = r.next_index() as u32;
        if r.orders
            .get(&round)
            .is_some_and(|o| o.mine.is_some() || o.commits.contains_key(&m))
        {
            return None;
        }
        let waiting = s.waiting_for();
        let mine = r
            .powers_of(m)
            .into_iter()
            .filter(|p| waiting.contains(p))
            .collect();
        Some((round, mine))
    }

    /// Orders game: the powers this peer orders now (seats handed to a bot excluded).
    pub fn my_powers(&self) -> Vec<PowerId> {
        let Some(r) = &self.run else { return vec![] };
        r.me.map_or(vec![], |m| r.powers_of(m))
    }

    /// True when this peer holds the payload of its own commitment for `round` (so it can
    /// reveal it). After a reload it does not: committing the same payload and salt again
    /// restores it (the commitment is identical, so nobody sees a change).
    pub fn has_my_orders(&self, round: u32) -> bool {
        self.run
            .as_ref()
            .and_then(|r| r.orders.get(&round))
            .is_some_and(|o| o.mine.is_some())
    }

    /// Orders game: participants that have committed orders for the current round.
    pub fn orders_committed(&self) -> Vec<PeerKey> {
        let Some(r) = &self.run else { return vec![] };
        let round = r.next_index() as u32;
        r.orders.get(&round).map_or(vec![], |o| {
            o.commits
                .keys()
                .filter_map(|i| r.proposal.participants.get(*i as usize).copied())
                .collect()
        })
    }

    /// Number of applied log entries.
    pub fn log_len(&self) -> u64 {
        self.run.as_ref().map_or(0, |r| r.next_index())
    }

    /// Current log head (hash of the whole history).
    pub fn log_head(&self) -> Option<[u8; 32]> {
        self.run.as_ref().map(|r| r.head())
    }

    /// Why the game stopped, if it did.
    pub fn halted(&self) -> Option<&HaltReport> {
        self.halted.as_ref()
    }

    /// Log head after the first `index` entries (to compare halt reports between peers).
    pub fn head_at(&self, index: u64) -> Option<[u8; 32]> {
        self.run
            .as_ref()
            .and_then(|r| r.heads.get(index as usize).copied())
    }

    /// Names announced by peers.
    pub fn names(&self) -> &BTreeMap<PeerKey, String> {
        &self.names
    }

    /// True when the seat to act is ours and no roll is pending: call [`Peer::act`].
    pub fn is_my_turn(&self) -> bool {
        let Some(r) = &self.run else { return false };
        let Game::Classic(s) = &r.state else {
            return false;
        };
        if self.halted.is_some() || self.suspect.is_some() || r.pending.is_some() || r.over() {
            return false;
        }
        matches!((r.controller(s.current), r.me), (Some(Controller::Peer(p)), Some(m)) if p == m)
    }

    /// Participants the game is waiting for (to act or to reveal dice).
    pub fn waiting_on(&self) -> Vec<PeerKey> {
        let Some(r) = &self.run else { return vec![] };
        let parts = &r.proposal.participants;
        if let Some(p) = &r.pending {
            let have = r.reveals.get(&p.index);
            return r
                .contributors()
                .filter(|i| have.is_none_or(|m| !m.contains_key(i)))
                .filter_map(|i| parts.get(i as usize).copied())
                .collect();
        }
        if r.over() {
            return vec![];
        }
        match &r.state {
            Game::Classic(s) => match r.controller(s.current) {
                Some(Controller::Peer(p)) => parts.get(p as usize).copied().into_iter().collect(),
                _ => vec![],
            },
            Game::Orders(_) => {
                // Commitments first, then reveals.
                let round = r.next_index() as u32;
                let o = r.orders.get(&round);
                let req = r.orders_required();
                let committed = |i: &u8| o.is_some_and(|o| o.commits.contains_key(i));
                let all_committed = req.iter().all(committed);
                req.iter()
                    .filter(|i| {
                        if all_committed {
                            !o.is_some_and(|o| o.reveals.contains_key(i))
                        } else {
                            !committed(i)
                        }
                    })
                    .filter_map(|&i| parts.get(i as usize).copied())
                    .collect()
            }
        }
    }

    /// Votes open at the position the game is on (not yet in effect): each control with the
    /// peers that voted for it and the peers whose votes it needs, for a tally in the UI.
    pub fn open_votes(&self) -> Vec<(Control, Vec<PeerKey>, Vec<PeerKey>)> {
        let Some(r) = &self.run else { return vec![] };
        let at = r.next_index();
        r.votes
            .range((at, [0; 32])..=(at, [0xff; 32]))
            .filter(|(_, v)| !v.applied && r.control_valid(&v.control))
            .map(|(_, v)| {
                (
                    v.control,
                    v.voters.keys().copied().collect(),
                    r.voters(&v.control),
                )
            })
            .collect()
    }

    /// Our pre-image for roll `k` (chain `j` covers rolls `j*len+1 ..= (j+1)*len`), and, in the
    /// last 16 rolls of a chain, the tip of the next one.
    fn own_element(&mut self, k: u32) -> Option<([u8; 32], Option<[u8; 32]>)> {
        let len = self.chain.len();
        if k == 0 {
            return None;
        }
        let j = (k - 1) / len;
        let i = k - j * len;
        let x = self.own_chain(j).get(i)?;
        let next = (i.saturating_add(16) > len).then(|| self.own_chain(j + 1).tip());
        Some((x, next))
    }

    fn own_chain(&mut self, j: u32) -> &HashChain {
        if j == 0 {
            return &self.chain;
        }
        self.later_chains.retain(|k, _| k + 1 >= j);
        let (secret, len) = (self.cfg.chain_secret, self.chain.len());
        self.later_chains.entry(j).or_insert_with(|| {
            let mut b = b"orbis-next-chain".to_vec();
            b.extend_from_slice(&secret);
            b.extend_from_slice(&j.to_le_bytes());
            HashChain::new(sha256(&b), len)
        })
    }

    fn seal(&mut self, body: &Body) -> Vec<u8> {
        let raw = Envelope::seal(&self.key, self.cfg.game_id, self.seq, body);
        self.seq = self.seq.saturating_add(1);
        raw
    }

    /// Announces this peer; call once when the transport is up (and again after reconnecting).
    pub fn start(&mut self, now_ms: u64) -> Output {
        self.now = now_ms;
        self.last_progress = Some(now_ms);
        let raw = self.seal(&Body::Hello {
            name: self.cfg.name.clone(),
            answer: false,
        });
        self.my_hello = Some(raw.clone());
        Output {
            send: vec![(Dest::All, raw)],
            events: vec![],
        }
    }

    /// Proposes a setup to everyone (this peer does not accept it implicitly).
    pub fn propose_setup(&mut self, proposal: SetupProposal) -> Result<Output, CommandError> {
        if self.run.is_some() {
            return Err(CommandError::AlreadyStarted);
        }
        check_proposal(&proposal).map_err(CommandError::BadProposal)?;
        let raw = self.seal(&Body::Propose(proposal));
        Ok(self.local(raw))
    }

    /// Signs proposal `hash`, committing to our seed share and dice chain.
    pub fn accept_setup(&mut self, hash: [u8; 32]) -> Result<Output, CommandError> {
        if self.run.is_some() {
            return Err(CommandError::AlreadyStarted);
        }
        let Some((p, _)) = self.proposals.get(&hash) else {
            return Err(CommandError::UnknownProposal);
        };
        if !p.participants.contains(&self.me) {
            return Err(CommandError::NotParticipant);
        }
        if self.my_accept.is_some_and(|h| h != hash) {
            return Err(CommandError::AlreadyCommitted);
        }
        if self.my_accept == Some(hash) {
            return Ok(Output::default());
        }
        let raw = self.seal(&Body::Accept {
            proposal: hash,
            seed_commit: seed_commitment(&self.cfg.seed_secret),
            chain_tip: self.chain.tip(),
            chain_len: self.chain.len(),
        });
        Ok(self.local(raw))
    }

    /// Plays an action for our seat.
    pub fn act(&mut self, action: Action) -> Result<Output, CommandError> {
        if self.halted.is_some() {
            return Err(CommandError::Halted);
        }
        let Some(r) = &self.run else {
            return Err(CommandError::NotStarted);
        };
        let Game::Classic(s) = &r.state else {
            return Err(CommandError::WrongRuleset);
        };
        if r.pending.is_some() {
            return Err(CommandError::RollPending);
        }
        if !self.is_my_turn() || s.actor(&action) != s.current {
            return Err(CommandError::NotYourTurn);
        }
        legal(s, &action).map_err(CommandError::Illegal)?;
        let entry = Entry {
            index: r.next_index(),
            prev_hash: r.head(),
            action,
        };
        let raw = self.seal(&Body::Entry(entry));
        Ok(self.local(raw))
    }

    /// Commits to simultaneous orders for `round`; they are revealed automatically once every
    /// participant has committed. `salt` must be fresh entropy.
    pub fn commit_orders(
        &mut self,
        round: u32,
        payload: Vec<u8>,
        salt: [u8; 32],
    ) -> Result<Output, CommandError> {
        if self.halted.is_some() {
            return Err(CommandError::Halted);
        }
        let Some(r) = &mut self.run else {
            return Err(CommandError::NotStarted);
        };
        if r.me.is_none() {
            return Err(CommandError::NotParticipant);
        }
        if payload.len() > MAX_ORDERS_BYTES as usize {
            return Err(CommandError::TooLong);
        }
        if r.orders.get(&round).is_some_and(|o| o.mine.is_some()) {
            return Err(CommandError::AlreadyCommitted);
        }
        let hash = orders_commitment(round, &payload, &salt);
        r.orders.entry(round).or_default().mine = Some((payload, salt));
        let raw = self.seal(&Body::OrdersCommit { round, hash });
        Ok(self.local(raw))
    }

    /// Orders game: commits this peer's orders for the current phase (one list per power it
    /// plays; powers left out hold / disband / waive builds as the engine's defaults say) and its
    /// powers' draw votes. They are checked with the engine first and revealed once every
    /// participant has committed.
    pub fn submit_orders(
        &mut self,
        orders: OrdersPayload,
        salt: [u8; 32],
    ) -> Result<Output, CommandError> {
        if self.halted.is_some() {
            return Err(CommandError::Halted);
        }
        let Some(r) = &self.run else {
            return Err(CommandError::NotStarted);
        };
        let Game::Orders(s) = &r.state else {
            return Err(CommandError::WrongRuleset);
        };
        if r.over() {
            return Err(CommandError::GameOver);
        }
        let Some(m) = r.me.filter(|m| !r.excluded.contains(m)) else {
            return Err(CommandError::NotParticipant);
        };
        let mine = r.powers_of(m);
        let mut check = s.clone();
        let powers = orders.orders.iter().map(|(p, _)| p);
        for power in powers.chain(orders.draw.iter().map(|(p, _)| p)) {
            if !mine.contains(power) {
                return Err(CommandError::Illegal(format!(
                    "power {power} is not played by this peer"
                )));
            }
        }
        for (power, list) in &orders.orders {
            check
                .apply(&OrdersAction::Submit {
                    power: *power,
                    orders: list.clone(),
                })
                .map_err(|e| CommandError::Illegal(e.to_string()))?;
        }
        let round = r.next_index() as u32;
        self.commit_orders(round, encode_orders(&orders), salt)
    }

    /// Sends a chat message to everyone or privately to one peer. It is resent to every
    /// recipient (the peers that said hello, or the one addressed) until each acknowledges it,
    /// so a message sent while a connection is still opening, or lost, still arrives.
    pub fn chat(&mut self, to: Option<PeerKey>, text: &str) -> Result<Output, CommandError> {
        if text.len() > MAX_CHAT_BYTES as usize {
            return Err(CommandError::TooLong);
        }
        let (dest, pending) = match to {
            None => (
                Dest::All,
                self.names
                    .keys()
                    .filter(|k| **k != self.me)
                    .copied()
                    .collect(),
            ),
            Some(k) => (
                Dest::Link(*self.key_links.get(&k).ok_or(CommandError::UnknownPeer)?),
                BTreeSet::from([k]),
            ),
        };
        let raw = self.seal(&Body::Chat {
            to,
            text: text.to_string(),
        });
        if self.chat_outbox.len() >= MAX_CHAT_OUTBOX {
            let oldest = self
                .chat_outbox
                .iter()
                .min_by_key(|(_, c)| c.sent_at)
                .map(|(id, _)| *id);
            if let Some(id) = oldest {
                self.chat_outbox.remove(&id);
            }
        }
        self.chat_outbox.insert(
            sha256(&raw),
            OutgoingChat {
                raw: raw.clone(),
                pending,
                sent_at: self.now,
                last_sent: self.now,
            },
        );
        Ok(Output {
            send: vec![(dest, raw)],
            events: vec![],
        })
    }

    /// Resends our unacknowledged chat messages, each to the recipients that have not
    /// acknowledged it, at most once per resend period; gives up after [`CHAT_GIVE_UP_MS`].
    fn resend_chats(&mut self, now: u64, out: &mut Output) {
        self.chat_outbox
            .retain(|_, c| !c.pending.is_empty() && now < c.sent_at + CHAT_GIVE_UP_MS);
        for c in self.chat_outbox.values_mut() {
            if now < c.last_sent + self.cfg.resend_ms {
                continue;
            }
            c.last_sent = now;
            for k in &c.pending {
                if let Some(l) = self.key_links.get(k) {
                    out.send.push((Dest::Link(*l), c.raw.clone()));
                }
            }
        }
    }

    /// Number of our chat messages not yet acknowledged by every recipient.
    pub fn chats_unacknowledged(&self) -> usize {
        self.chat_outbox.len()
    }

    /// Broadcasts our own message and processes it as if received.
    fn local(&mut self, raw: Vec<u8>) -> Output {
        let mut out = Output {
            send: vec![(Dest::All, raw.clone())],
            events: vec![],
        };
        let now = self.now;
        out.merge(self.receive(None, &raw, now));
        out
    }

    /// Bytes from a connection.
    pub fn handle(&mut self, from: LinkId, bytes: &[u8], now_ms: u64) -> Output {
        self.now = self.now.max(now_ms);
        self.receive(Some(from), bytes, now_ms)
    }

    /// Timers: resend requests after a stall, missing-peer detection.
    pub fn tick(&mut self, now_ms: u64) -> Output {
        self.now = self.now.max(now_ms);
        let mut out = Output::default();
        if self.halted.is_some() {
            return out;
        }
        if let Some((_, _, since)) = &self.suspect {
            if now_ms >= since.saturating_add(self.cfg.resend_ms.saturating_mul(2)) {
                if let Some((report, evidence, _)) = self.suspect.take() {
                    self.halt_with(report, evidence, &mut out);
                }
                return out;
            }
        }
        self.resend_chats(now_ms, &mut out);
        let over = self.run.as_ref().is_some_and(|r| r.over());
        if let Some(r) = &self.run {
            if !over {
                for k in r.proposal.participants.clone() {
                    if k == self.me {
                        continue;
                    }
                    let heard = *self.last_heard.entry(k).or_insert(now_ms);
                    if now_ms.saturating_sub(heard) >= self.cfg.missing_ms && self.missing.insert(k)
                    {
                        out.events.push(ProtocolEvent::PeerMissing { peer: k });
                    }
                }
            }
        }
        let last = *self.last_progress.get_or_insert(now_ms);
        if !over && now_ms.saturating_sub(last) >= self.cfg.resend_ms {
            self.last_progress = Some(now_ms);
            if self.run.is_none() {
                if let Some(h) = &self.my_hello {
                    out.send.push((Dest::All, h.clone()));
                }
            }
            let body = Body::Sync {
                started: self.run.is_some(),
                have_index: self.log_len(),
                head: self.log_head().unwrap_or([0; 32]),
            };
            let raw = self.seal(&body);
            out.send.push((Dest::All, raw));
        }
        out
    }

    fn progress(&mut self) {
        self.last_progress = Some(self.now);
    }

    fn reject(out: &mut Output, link: Option<LinkId>, peer: Option<PeerKey>, v: Violation) {
        out.events.push(ProtocolEvent::Rejected {
            link,
            peer,
            violation: v,
        });
    }

    fn receive(&mut self, link: Option<LinkId>, bytes: &[u8], now: u64) -> Output {
        let mut out = Output::default();
        if self.halted.is_some() {
            // Still answer requests, with the evidence only.
            if let (Some(l), Ok((_, Body::Sync { .. }))) =
                (link, Envelope::open(bytes, &self.cfg.game_id))
            {
                let last = self.last_answer.get(&l).copied();
                if last.is_none_or(|t| now >= t + self.cfg.resend_ms / 2) {
                    self.last_answer.insert(l, now);
                    for raw in &self.evidence {
                        out.send.push((Dest::Link(l), raw.clone()));
                    }
                }
            }
            return out;
        }
        let id = sha256(bytes);
        if self.seen.contains(&id) {
            self.duplicates += 1;
            if let (Some(l), true) = (link, self.chats_in.contains(&id)) {
                // A resent chat: our acknowledgement was lost (or is still on its way).
                let raw = self.seal(&Body::ChatAck { id });
                out.send.push((Dest::Link(l), raw));
            }
            return out;
        }
        let (env, body) = match Envelope::open(bytes, &self.cfg.game_id) {
            Ok(x) => x,
            Err((who, e)) => {
                self.seen.insert(id);
                Self::reject(&mut out, link, who, Violation::Wire(e));
                return out;
            }
        };
        let sender = env.sender;
        let body_hash = sha256(&env.body);
        match self.seqs.get(&(sender, env.seq)) {
            Some(h) if *h != body_hash => {
                self.seen.insert(id);
                Self::reject(
                    &mut out,
                    link,
                    Some(sender),
                    Violation::SeqReused { seq: env.seq },
                );
                return out;
            }
            _ => {}
        }
        if sender == self.me && env.seq >= self.seq {
            self.seq = env.seq.saturating_add(1);
        }
        if let Some(l) = link {
            if self.links.get(&l) == Some(&sender) {
                self.last_heard.insert(sender, now);
                if self.missing.remove(&sender) {
                    out.events
                        .push(ProtocolEvent::PeerReturned { peer: sender });
                }
            }
        }
        if let (Some(l), false) = (link, self.in_batch) {
            // Messages that are never relayed show which connection reaches their signer now;
            // chat goes there (a peer can be reachable on a newer connection than its hello's).
            if matches!(
                body,
                Body::Sync { .. } | Body::Batch { .. } | Body::ChatAck { .. }
            ) {
                self.key_links.insert(sender, l);
            }
        }
        let consumed = self.dispatch(link, sender, body, bytes, &mut out);
        if consumed {
            self.seen.insert(id);
            self.seqs.insert((sender, env.seq), body_hash);
        }
        out
    }

    /// Handles an authenticated message; false if it was neither used nor refused (it may come
    /// again and be useful then).
    fn dispatch(
        &mut self,
        link: Option<LinkId>,
        sender: PeerKey,
        body: Body,
        raw: &[u8],
        out: &mut Output,
    ) -> bool {
        match body {
            Body::Hello { name, answer } => {
                if name.len() > MAX_NAME_BYTES as usize {
                    Self::reject(out, link, Some(sender), Violation::TooLong);
                    return true;
                }
                if let Some(l) = link {
                    let fresh = self.links.insert(l, sender) != Some(sender);
                    self.key_links.insert(sender, l);
                    self.last_heard.insert(sender, self.now);
                    self.names.insert(sender, name.clone());
                    if fresh {
                        out.events.push(ProtocolEvent::PeerHello {
                            link: l,
                            peer: sender,
                            name,
                        });
                    }
                    if !answer && sender != self.me {
                        // Introduce ourselves back (answers are not answered, so no ping-pong).
                        let raw = self.seal(&Body::Hello {
                            name: self.cfg.name.clone(),
                            answer: true,
                        });
                        out.send.push((Dest::Link(l), raw));
                    }
                }
                // Hellos are per connection; they are not stored, so a resent one is handled again.
                false
            }
            Body::Propose(p) => {
                if let Err(e) = check_proposal(&p) {
                    Self::reject(out, link, Some(sender), Violation::BadProposal(e));
                    return true;
                }
                let hash = p.hash();
                if self.proposals.contains_key(&hash) {
                    return true;
                }
                self.proposals.insert(hash, (p.clone(), raw.to_vec()));
                self.progress();
                out.events.push(ProtocolEvent::SetupProposed {
                    by: sender,
                    hash,
                    proposal: p,
                });
                self.try_lobby(out);
                self.replay_early(out);
                true
            }
            Body::Accept {
                proposal,
                seed_commit,
                chain_tip,
                chain_len,
            } => {
                if self.run.is_some() {
                    return true;
                }
                let Some((p, _)) = self.proposals.get(&proposal) else {
                    // Proposal not seen yet: keep the message for later.
                    return self.defer(link, raw);
                };
                if !p.participants.contains(&sender) {
                    Self::reject(out, link, Some(sender), Violation::NotParticipant);
                    return true;
                }
                if sender == self.me {
                    self.my_accept = Some(proposal);
                }
                self.accepts
                    .entry(proposal)
                    .or_default()
                    .entry(sender)
                    .or_insert(Accepted {
                        seed_commit,
                        chain_tip,
                        chain_len,
                        raw: raw.to_vec(),
                    });
                self.progress();
                self.try_lobby(out);
                self.replay_early(out);
                true
            }
            Body::SeedReveal { proposal, secret } => {
                if self.run.is_some() {
                    return true;
                }
                let Some(acc) = self.accepts.get(&proposal).and_then(|m| m.get(&sender)) else {
                    return self.defer(link, raw);
                };
                if seed_commitment(&secret) != acc.seed_commit {
                    Self::reject(out, link, Some(sender), Violation::SeedMismatch);
                    return true;
                }
                self.seed_reveals
                    .entry(proposal)
                    .or_default()
                    .entry(sender)
                    .or_insert((secret, raw.to_vec()));
                self.progress();
                self.try_lobby(out);
                true
            }
            Body::Sync {
                started,
                have_index,
                head,
            } => {
                if let Some(l) = link {
                    // At most one answer per connection per half resend period: a cheap request
                    // must not make us resend the whole game over and over.
                    let last = self.last_answer.get(&l).copied();
                    if last.is_none_or(|t| self.now >= t + self.cfg.resend_ms / 2) {
                        self.last_answer.insert(l, self.now);
                        self.answer_sync(l, started, have_index, head, out);
                    }
                }
                true
            }
            Body::Chat { to, text } => {
                if sender == self.me {
                    // Our own message relayed back.
                    return true;
                }
                if text.len() > MAX_CHAT_BYTES as usize {
                    Self::reject(out, link, Some(sender), Violation::TooLong);
                } else if to.is_some_and(|k| k != self.me) {
                    Self::reject(out, link, Some(sender), Violation::NotForMe);
                } else {
                    out.events.push(ProtocolEvent::Chat {
                        from: sender,
                        private: to.is_some(),
                        text,
                    });
                    if let Some(l) = link {
                        let id = sha256(raw);
                        self.chats_in.insert(id);
                        let ack = self.seal(&Body::ChatAck { id });
                        out.send.push((Dest::Link(l), ack));
                    }
                }
                true
            }
            Body::ChatAck { id } => {
                if let Some(c) = self.chat_outbox.get_mut(&id) {
                    c.pending.remove(&sender);
                    if c.pending.is_empty() {
                        self.chat_outbox.remove(&id);
                    }
                }
                // Acknowledgements are not stored: each is a fresh message.
                false
            }
            Body::Entry(e) => {
                if let Some(done) = self.admit_at(link, raw, sender, e.index) {
                    return done;
                }
                self.on_entry(link, sender, e, raw, out);
                self.advance(out);
                true
            }
            Body::Reveal {
                index,
                roll,
                preimage,
                next_tip,
            } => {
                if let Some(done) = self.admit_at(link, raw, sender, index) {
                    return done;
                }
                let u = UnverifiedReveal {
                    roll,
                    preimage,
                    next_tip,
                    raw: raw.to_vec(),
                    link,
                };
                self.on_reveal(sender, index, u, out);
                self.advance(out);
                true
            }
            Body::Checkpoint {
                index,
                state_hash,
                log_head,
            } => {
                if let Some(done) = self.admit_at(link, raw, sender, index) {
                    return done;
                }
                self.on_checkpoint(link, sender, index, state_hash, log_head, raw, out);
                self.advance(out);
                true
            }
            Body::Vote { at, control } => {
                if self.run.is_none() {
                    return self.defer(link, raw);
                }
                if at >= self.log_len() + MAX_AHEAD {
                    return false;
                }
                self.on_vote(link, sender, at, control, raw, out);
                true
            }
            Body::Batch { items } => {
                // One level only: a batch inside a batch is ignored.
                if self.in_batch || items.len() > MAX_BATCH_ITEMS {
                    return true;
                }
                self.in_batch = true;
                for item in items {
                    let now = self.now;
                    let o = self.receive(link, &item, now);
                    out.merge(o);
                }
                self.in_batch = false;
                true
            }
            Body::OrdersCommit { round, hash } => {
                if self.run.is_none() {
                    return self.defer(link, raw);
                }
                if let Some(done) = self.admit_round(sender, round) {
                    return done;
                }
                self.on_orders_commit(link, sender, round, hash, raw, out);
                self.advance(out);
                true
            }
            Body::OrdersReveal {
                round,
                payload,
                salt,
            } => {
                if self.run.is_none() {
                    return self.defer(link, raw);
                }
                if let Some(done) = self.admit_round(sender, round) {
                    return done;
                }
                self.on_orders_reveal(link, sender, round, payload, salt, raw, out);
                self.advance(out);
                true
            }
        }
    }

    /// Keeps a message that cannot be judged before the game starts.
    /// Admits a message about log position `index`: before the game runs it is kept for later;
    /// too far ahead it is too early to judge (a long resend arriving out of order) and is dropped
    /// to come again; otherwise it records how far `sender` has got. `Some(r)`: stop, returning `r`.
    fn admit_at(
        &mut self,
        link: Option<LinkId>,
        raw: &[u8],
        sender: PeerKey,
        index: u64,
    ) -> Option<bool> {
        if self.run.is_none() {
            return Some(self.defer(link, raw));
        }
        if index >= self.log_len() + MAX_AHEAD {
            return Some(false);
        }
        if let Some(r) = &mut self.run {
            r.note_reached(sender, index);
        }
        None
    }

    /// Orders game: a round is a log position, admitted like one (dropped to come again when too
    /// far ahead; otherwise it shows how far the sender has got). Classic generic rounds are
    /// only limited in number (see `on_orders_commit`).
    fn admit_round(&mut self, sender: PeerKey, round: u32) -> Option<bool> {
        let r = self.run.as_mut()?;
        if !matches!(r.state, Game::Orders(_)) {
            return None;
        }
        if u64::from(round) >= r.next_index() + MAX_AHEAD {
            return Some(false);
        }
        r.note_reached(sender, u64::from(round));
        None
    }

    fn defer(&mut self, link: Option<LinkId>, raw: &[u8]) -> bool {
        if self.early.len() < MAX_EARLY {
            self.early.push((link, raw.to_vec()));
            true
        } else {
            false
        }
    }

    fn try_lobby(&mut self, out: &mut Output) {
        if self.run.is_some() {
            return;
        }
        let hashes: Vec<[u8; 32]> = self.proposals.keys().copied().collect();
        for h in hashes {
            let Some((p, _)) = self.proposals.get(&h) else {
                continue;
            };
            let p = p.clone();
            let acc = self.accepts.get(&h);
            let all_accepted = p
                .participants
                .iter()
                .all(|k| acc.is_some_and(|m| m.contains_key(k)));
            if !all_accepted {
                continue;
            }
            let mine_revealed = self
                .seed_reveals
                .get(&h)
                .is_some_and(|m| m.contains_key(&self.me));
            if self.my_accept == Some(h) && !mine_revealed {
                let raw = self.seal(&Body::SeedReveal {
                    proposal: h,
                    secret: self.cfg.seed_secret,
                });
                out.send.push((Dest::All, raw.clone()));
                self.seed_reveals
                    .entry(h)
                    .or_default()
                    .insert(self.me, (self.cfg.seed_secret, raw));
            }
            let revs = self.seed_reveals.get(&h);
            let all_revealed = p
                .participants
                .iter()
                .all(|k| revs.is_some_and(|m| m.contains_key(k)));
            if all_revealed {
                self.begin(h, p, out);
                return;
            }
        }
    }

    fn begin(&mut self, hash: [u8; 32], p: SetupProposal, out: &mut Output) {
        let mut b = b"orbis-game-seed".to_vec();
        b.extend_from_slice(&hash);
        for k in &p.participants {
            if let Some((s, _)) = self.seed_reveals.get(&hash).and_then(|m| m.get(k)) {
                b.extend_from_slice(s);
            }
        }
        let seed = sha256(&b);
        let (state, powers) = match new_game(&p, seed) {
            Ok(s) => s,
            Err(e) => {
                self.halt(HaltReport::Internal(e), out);
                return;
            }
        };
        let acc = self.accepts.get(&hash);
        let mut chains = vec![];
        let mut chain_lens = vec![];
        for k in &p.participants {
            let a = acc.and_then(|m| m.get(k));
            chains.push((0, a.map_or([0; 32], |a| a.chain_tip)));
            chain_lens.push(a.map_or(0, |a| a.chain_len));
        }
        let mut g = b"orbis-log-genesis".to_vec();
        g.extend_from_slice(&hash);
        g.extend_from_slice(&seed);
        let me = p
            .participants
            .iter()
            .position(|k| *k == self.me)
            .map(|i| i as u8);
        self.run = Some(Run {
            proposal: p,
            proposal_hash: hash,
            me,
            state,
            powers,
            log: vec![],
            heads: vec![sha256(&g)],
            roll_count: 0,
            pending: None,
            reveals: BTreeMap::new(),
            future_reveals: BTreeMap::new(),
            chains,
            chain_ends: chain_lens.clone(),
            chain_next: vec![None; chain_lens.len()],
            chain_lens,
            candidates: BTreeMap::new(),
            checkpoints: BTreeMap::new(),
            their_checkpoints: BTreeMap::new(),
            orders: BTreeMap::new(),
            excluded: BTreeSet::new(),
            bot_seats: BTreeMap::new(),
            votes: BTreeMap::new(),
            controls_here: vec![],
            reached: BTreeMap::new(),
        });
        self.progress();
        out.events.push(ProtocolEvent::GameStarted {
            proposal: hash,
            seed,
        });
        self.advance(out);
        self.replay_early(out);
    }

    /// Runs deferred messages again now that more is known; those still premature are deferred
    /// again.
    fn replay_early(&mut self, out: &mut Output) {
        let early = std::mem::take(&mut self.early);
        for (l, raw) in early {
            // These were marked as consumed when deferred; let them through the dedup set again.
            self.seen.remove(&sha256(&raw));
            let now = self.now;
            let o = self.receive(l, &raw, now);
            out.merge(o);
        }
    }

    fn halt(&mut self, report: HaltReport, out: &mut Output) {
        self.halt_with(report, vec![], out);
    }

    /// Halts, and hands the signed messages that prove why to everyone (now, and to anyone who
    /// asks later), so every honest peer stops and names the same culprit even if the relays
    /// that would have shown it were lost.
    fn halt_with(&mut self, report: HaltReport, evidence: Vec<Vec<u8>>, out: &mut Output) {
        self.suspect = None;
        if self.halted.is_none() {
            self.halted = Some(report.clone());
            out.events.push(ProtocolEvent::Halted(report));
            for raw in &evidence {
                out.send.push((Dest::All, raw.clone()));
            }
            self.evidence = evidence;
        }
    }

    fn on_entry(
        &mut self,
        link: Option<LinkId>,
        sender: PeerKey,
        e: Entry,
        raw: &[u8],
        out: &mut Output,
    ) {
        let Some(r) = &mut self.run else { return };
        let content = content_hash(&e);
        let next = r.next_index();
        let pending_at = r.pending.as_ref().map(|p| (p.index, p.record.clone()));
        let settled = if e.index < next {
            r.log.get(e.index as usize).cloned()
        } else {
            match &pending_at {
                Some((i, rec)) if *i == e.index => Some(rec.clone()),
                _ => None,
            }
        };
        if let Some(rec) = settled {
            if rec.content == content {
                return; // the same entry again (replay or resend): harmless
            }
            if rec.signer == Some(sender) {
                let report = HaltReport::Equivocation {
                    peer: sender,
                    index: e.index,
                    first: rec.content,
                    second: content,
                    agreed_index: e.index,
                    agreed_head: r.heads.get(e.index as usize).copied().unwrap_or([0; 32]),
                };
                let evidence = rec.raw.into_iter().chain([raw.to_vec()]).collect();
                self.halt_with(report, evidence, out);
            } else {
                Self::reject(
                    out,
                    link,
                    Some(sender),
                    Violation::OutOfTurn { index: e.index },
                );
            }
            return;
        }
        if e.index >= next + MAX_AHEAD {
            Self::reject(
                out,
                link,
                Some(sender),
                Violation::TooFarAhead { index: e.index },
            );
            return;
        }
        let agreed_index = e.index.min(next);
        let agreed = r
            .heads
            .get(agreed_index as usize)
            .copied()
            .unwrap_or([0; 32]);
        let list = r.candidates.entry(e.index).or_default();
        if let Some(c) = list.iter().find(|c| c.signer == sender) {
            if c.content != content {
                let report = HaltReport::Equivocation {
                    peer: sender,
                    index: e.index,
                    first: c.content,
                    second: content,
                    agreed_index,
                    agreed_head: agreed,
                };
                let evidence = vec![c.raw.clone(), raw.to_vec()];
                self.halt_with(report, evidence, out);
            }
            return;
        }
        list.push(Candidate {
            signer: sender,
            entry: e,
            content,
            raw: raw.to_vec(),
            link,
        });
        // Echo every new entry to everyone, so one seat cannot tell different peers different
        // things without all of them noticing.
        if link.is_some() {
            out.send.push((Dest::All, raw.to_vec()));
        }
        self.advance(out);
    }

    fn on_reveal(&mut self, sender: PeerKey, index: u64, u: UnverifiedReveal, out: &mut Output) {
        let Some(r) = &mut self.run else { return };
        let (link, roll) = (u.link, u.roll);
        let Some(p) = r.participant(&sender) else {
            Self::reject(out, link, Some(sender), Violation::NotParticipant);
            return;
        };
        if let Some(s) = r.reveals.get(&index).and_then(|m| m.get(&p)) {
            if s.preimage != u.preimage {
                Self::reject(
                    out,
                    link,
                    Some(sender),
                    Violation::BadReveal { index, roll },
                );
            }
            return;
        }
        let pending_here = r.pending.as_ref().is_some_and(|x| x.index == index);
        if pending_here {
            if Self::verify_reveal(r, p, index, u, out) {
                self.progress();
                self.advance(out);
            }
            return;
        }
        if index < r.next_index() {
            // A position that was not a roll, or whose roll completed without this value.
            Self::reject(
                out,
                link,
                Some(sender),
                Violation::BadReveal { index, roll },
            );
            return;
        }
        if index >= r.next_index() + MAX_AHEAD {
            Self::reject(out, link, Some(sender), Violation::TooFarAhead { index });
            return;
        }
        let list = r
            .future_reveals
            .entry(index)
            .or_default()
            .entry(p)
            .or_default();
        if list.len() < 4 {
            list.push(u);
        }
    }

    /// Checks a reveal against the pending roll and the sender's chain; stores it if good.
    fn verify_reveal(
        r: &mut Run,
        p: u8,
        index: u64,
        u: UnverifiedReveal,
        out: &mut Output,
    ) -> bool {
        let Some(pend) = &r.pending else { return false };
        let Some(&(mut last_k, mut last_x)) = r.chains.get(p as usize) else {
            return false;
        };
        let i = p as usize;
        let len = r.chain_lens.get(i).copied().unwrap_or(0);
        let end = r.chain_ends.get(i).copied().unwrap_or(0);
        let next = r.chain_next.get(i).copied().flatten();
        // Past the end of the current chain: continue on the announced next one, whose tip
        // stands for roll `end`.
        let mut switched = false;
        let mut ok = true;
        if u.roll > end {
            match next {
                Some(tip) if u.roll <= end.saturating_add(len) => {
                    (last_k, last_x) = (end, tip);
                    switched = true;
                }
                _ => ok = false,
            }
        }
        let ok = ok
            && pend.index == index
            && u.roll == pend.roll
            && u.roll > last_k
            && step_n(&u.preimage, u.roll - last_k) == last_x;
        let who = r.proposal.participants.get(p as usize).copied();
        if !ok {
            Self::reject(
                out,
                u.link,
                who,
                Violation::BadReveal {
                    index,
                    roll: u.roll,
                },
            );
            return false;
        }
        if let Some(c) = r.chains.get_mut(i) {
            *c = (u.roll, u.preimage);
        }
        if switched {
            if let Some(e) = r.chain_ends.get_mut(i) {
                *e = end.saturating_add(len);
            }
            if let Some(n) = r.chain_next.get_mut(i) {
                *n = None;
            }
        }
        if let (Some(t), Some(n)) = (u.next_tip, r.chain_next.get_mut(i)) {
            if n.is_none() {
                *n = Some(t);
            }
        }
        r.reveals.entry(index).or_default().insert(
            p,
            StoredReveal {
                preimage: u.preimage,
                raw: u.raw,
            },
        );
        true
    }

    /// Applies everything that can be applied: bot moves, buffered entries, completed rolls.
    fn advance(&mut self, out: &mut Output) {
        loop {
            if self.halted.is_some() || self.suspect.is_some() {
                return;
            }
            let Some(r) = &mut self.run else { return };
            if r.over() {
                return;
            }
            let at = r.next_index();
            Self::apply_votes(r, at, out);
            if Self::bound(r, at, &self.me) {
                return;
            }
            if matches!(r.state, Game::Orders(_)) {
                if self.advance_orders(out) {
                    continue;
                }
                return;
            }
            if let Some(p) = &r.pending {
                let have = r.reveals.get(&p.index);
                let contributors: Vec<u8> = r.contributors().collect();
                if !contributors
                    .iter()
                    .all(|i| have.is_some_and(|m| m.contains_key(i)))
                {
                    return;
                }
                // Roll seed: the declaration and the contributors' pre-images in participant order.
                let mut b = b"orbis-roll".to_vec();
                b.extend_from_slice(&p.decl);
                for i in contributors {
                    if let Some(s) = have.and_then(|m| m.get(&i)) {
                        b.extend_from_slice(&s.preimage);
                    }
                }
                let seed = sha256(&b);
                let p = match r.pending.take() {
                    Some(p) => p,
                    None => return,
                };
                r.roll_count = p.roll;
                match classic!(r).apply_with(&p.action, &mut SeededDice::new(seed)) {
                    Ok(events) => {
                        self.record(p.index, p.seat, p.action, p.record, events, out);
                    }
                    Err(e) => {
                        self.halt(HaltReport::Internal(format!("roll refused: {e}")), out);
                        return;
                    }
                }
                continue;
            }
            let index = r.next_index();
            let seat = classic!(r).current;
            let (action, record) = match r.controller(seat) {
                Some(Controller::Bot(level)) => {
                    let Some(action) = bot::choose(classic!(r), level) else {
                        return;
                    };
                    let e = Entry {
                        index,
                        prev_hash: r.head(),
                        action,
                    };
                    let rec = Record {
                        content: content_hash(&e),
                        signer: None,
                        raw: None,
                        controls: vec![],
                    };
                    (action, rec)
                }
                Some(Controller::Peer(pi)) => {
                    let Some(key) = r.proposal.participants.get(pi as usize).copied() else {
                        return;
                    };
                    let cands = r.candidates.remove(&index).unwrap_or_default();
                    let mut chosen = None;
                    for c in cands {
                        if c.signer != key {
                            Self::reject(
                                out,
                                c.link,
                                Some(c.signer),
                                Violation::OutOfTurn { index },
                            );
                        } else if chosen.is_some() {
                            // A second entry by the same seat has already halted the game as
                            // equivocation; nothing more to do with it.
                        } else if c.entry.prev_hash != r.head() {
                            Self::reject(
                                out,
                                c.link,
                                Some(c.signer),
                                Violation::WrongPrevHash { index },
                            );
                        } else if classic!(r).actor(&c.entry.action) != seat {
                            Self::reject(
                                out,
                                c.link,
                                Some(c.signer),
                                Violation::OutOfTurn { index },
                            );
                        } else if let Err(error) = legal(classic!(r), &c.entry.action) {
                            Self::reject(
                                out,
                                c.link,
                                Some(c.signer),
                                Violation::Illegal { index, error },
                            );
                        } else {
                            chosen = Some(c);
                        }
                    }
                    let Some(c) = chosen else { return };
                    let rec = Record {
                        content: c.content,
                        signer: Some(c.signer),
                        raw: Some(c.raw),
                        controls: vec![],
                    };
                    (c.entry.action, rec)
                }
                None => {
                    self.halt(
                        HaltReport::Internal(format!("no controller for seat {seat}")),
                        out,
                    );
                    return;
                }
            };
            if is_random(&action) {
                let roll = r.roll_count + 1;
                r.pending = Some(PendingRoll {
                    index,
                    roll,
                    decl: record.content,
                    action,
                    seat,
                    record,
                });
                // Reveals that arrived before the declaration.
                if let Some(buf) = r.future_reveals.remove(&index) {
                    for (p, list) in buf {
                        for u in list {
                            if r.reveals.get(&index).is_some_and(|m| m.contains_key(&p)) {
                                break;
                            }
                            Self::verify_reveal(r, p, index, u, out);
                        }
                    }
                }
                if let Some(m) = r.me.filter(|m| !r.excluded.contains(m)) {
                    if !r.reveals.get(&index).is_some_and(|x| x.contains_key(&m)) {
                        let Some((x, next_tip)) = self.own_element(roll) else {
                            self.halt(HaltReport::Internal("dice chain exhausted".into()), out);
                            return;
                        };
                        let raw = Envelope::seal(
                            &self.key,
                            self.cfg.game_id,
                            self.seq,
                            &Body::Reveal {
                                index,
                                roll,
                                preimage: x,
                                next_tip,
                            },
                        );
                        self.seq = self.seq.saturating_add(1);
                        out.send.push((Dest::All, raw.clone()));
                        let r = match &mut self.run {
                            Some(r) => r,
                            None => return,
                        };
                        // Our own reveal goes through the same bookkeeping as everyone's.
                        let u = UnverifiedReveal {
                            roll,
                            preimage: x,
                            next_tip,
                            raw,
                            link: None,
                        };
                        Self::verify_reveal(r, m, index, u, out);
                    }
                }
                self.progress();
                continue;
            }
            match classic!(r).apply(&action) {
                Ok(events) => self.record(index, seat, action, record, events, out),
                Err(e) => {
                    // Entries were checked above, so only a bot can get here.
                    self.halt(
                        HaltReport::Internal(format!("bot move {action:?} refused: {e}")),
                        out,
                    );
                    return;
                }
            }
        }
    }

    /// Applies every control whose votes are complete at position `at`.
    fn apply_votes(r: &mut Run, at: u64, out: &mut Output) {
        loop {
            let mut changed = false;
            let keys: Vec<(u64, [u8; 32])> = r
                .votes
                .range((at, [0; 32])..=(at, [0xff; 32]))
                .map(|(k, _)| *k)
                .collect();
            for k in keys {
                let Some(v) = r.votes.get(&k) else { continue };
                if v.applied || !r.control_valid(&v.control) {
                    continue;
                }
                let c = v.control;
                if !r.voters(&c).iter().all(|k| v.voters.contains_key(k)) {
                    continue;
                }
                match c {
                    Control::Drop { peer, level } => {
                        if let Some(p) = r.participant(&peer) {
                            r.excluded.insert(p);
                            for (i, s) in r.proposal.seats.iter().enumerate() {
                                if s.controller == Controller::Peer(p) {
                                    r.bot_seats.insert(i as PlayerId, level);
                                }
                            }
                        }
                    }
                    Control::SeatToBot { seat, level } => {
                        r.bot_seats.insert(seat, level);
                    }
                }
                if let Some(v) = r.votes.get_mut(&k) {
                    v.applied = true;
                }
                r.controls_here.push(c);
                out.events
                    .push(ProtocolEvent::ControlApplied { at, control: c });
                changed = true;
            }
            if !changed {
                return;
            }
        }
    }

    /// True while `me` has voted for a control at `at` that has not passed but still can: a
    /// vote fails for good once a required voter has shown it moved past `at` without voting.
    fn bound(r: &Run, at: u64, me: &PeerKey) -> bool {
        r.votes
            .range((at, [0; 32])..=(at, [0xff; 32]))
            .any(|(_, v)| {
                !v.applied
                    && v.voters.contains_key(me)
                    && r.control_valid(&v.control)
                    && r.voters(&v.control)
                        .iter()
                        .filter(|k| !v.voters.contains_key(k))
                        .all(|k| r.reached.get(k).is_none_or(|&x| x <= at))
            })
    }

    fn on_vote(
        &mut self,
        link: Option<LinkId>,
        sender: PeerKey,
        at: u64,
        control: Control,
        raw: &[u8],
        out: &mut Output,
    ) {
        let me = self.me;
        let Some(r) = &mut self.run else { return };
        if r.participant(&sender).is_none() {
            Self::reject(out, link, Some(sender), Violation::NotParticipant);
            return;
        }
        r.note_reached(sender, at);
        let key = (at, control_hash(&control));
        let next = r.next_index();
        if at < next {
            // A position we already passed. If the vote completes there and is about us, the
            // others went on without us: our history is no longer theirs.
            let v = r.votes.entry(key).or_insert(VoteSet {
                control,
                voters: BTreeMap::new(),
                applied: false,
            });
            v.voters.entry(sender).or_insert_with(|| raw.to_vec());
            let about_me = match control {
                Control::Drop { peer, .. } => peer == me,
                Control::SeatToBot { seat, .. } => {
                    r.proposal.seats.get(seat as usize).map(|s| s.controller)
                        == r.me.map(Controller::Peer)
                }
            };
            let (have, applied) = (v.voters.clone(), v.applied);
            let complete = r.voters(&control).iter().all(|k| have.contains_key(k));
            if about_me && complete && !applied {
                self.halt(
                    HaltReport::Internal(format!(
                        "the other players dropped this peer at log position {at}; reload to watch"
                    )),
                    out,
                );
            }
            return;
        }
        if !r.votes.contains_key(&key) && r.votes.len() >= 4096 {
            return;
        }
        r.votes
            .entry(key)
            .or_insert(VoteSet {
                control,
                voters: BTreeMap::new(),
                applied: false,
            })
            .voters
            .entry(sender)
            .or_insert_with(|| raw.to_vec());
        self.progress();
        self.advance(out);
    }

    /// Votes for a control at the position the game is stuck on (typically after
    /// [`ProtocolEvent::PeerMissing`]). It takes effect when every other contributing
    /// participant has voted the same.
    pub fn vote(&mut self, control: Control) -> Result<Output, CommandError> {
        if self.halted.is_some() {
            return Err(CommandError::Halted);
        }
        let Some(r) = &self.run else {
            return Err(CommandError::NotStarted);
        };
        if r.over() {
            return Err(CommandError::GameOver);
        }
        if !r.control_valid(&control) || !r.voters(&control).contains(&self.me) {
            return Err(CommandError::NotAVoter);
        }
        let at = r.next_index();
        if r.votes
            .get(&(at, control_hash(&control)))
            .is_some_and(|v| v.voters.contains_key(&self.me))
        {
            return Ok(Output::default());
        }
        let raw = self.seal(&Body::Vote { at, control });
        Ok(self.local(raw))
    }

    /// Appends an applied entry to the log, with its events and, at a turn end, a checkpoint.
    fn record(
        &mut self,
        index: u64,
        seat: PlayerId,
        action: Action,
        rec: Record,
        events: Vec<classic::Event>,
        out: &mut Output,
    ) {
        let Some(r) = &mut self.run else { return };
        let mut rec = rec;
        rec.controls = std::mem::take(&mut r.controls_here);
        let head = next_head(&r.head(), index, &rec.controls, &action);
        r.log.push(rec);
        r.heads.push(head);
        // Checkpoints already received for positions we have now passed are kept until we
        // reach them exactly; drop stale buffers.
        r.future_reveals.retain(|i, _| *i > index);
        out.events.push(ProtocolEvent::Applied {
            index,
            seat,
            action,
            events,
        });
        let winner = match &r.state {
            Game::Classic(s) => s.winner(),
            Game::Orders(_) => None,
        };
        let turn_end = matches!(action, Action::EndTurn) || winner.is_some();
        self.progress();
        self.checkpoint(turn_end, head, out);
        if let Some(w) = winner {
            out.events.push(ProtocolEvent::GameOver { winner: w });
        }
    }

    /// At a turn end, signs and sends our checkpoint; then compares every checkpoint received
    /// for a position we have now reached.
    fn checkpoint(&mut self, turn_end: bool, head: [u8; 32], out: &mut Output) {
        if turn_end {
            let Some(r) = &mut self.run else { return };
            let at = r.next_index();
            let state_hash = r.state_hash();
            r.checkpoints.insert(at, state_hash);
            if r.me.is_some() {
                let raw = self.seal(&Body::Checkpoint {
                    index: at,
                    state_hash,
                    log_head: head,
                });
                out.send.push((Dest::All, raw));
            }
        }
        if let Some(r) = &mut self.run {
            let later = r.their_checkpoints.split_off(&(r.next_index() + 1));
            let due = std::mem::replace(&mut r.their_checkpoints, later);
            for (i, list) in due {
                for (k, s, h, raw) in list {
                    self.compare_checkpoint(k, i, s, h, raw, out);
                }
            }
        }
    }

    fn compare_checkpoint(
        &mut self,
        peer: PeerKey,
        index: u64,
        state_hash: [u8; 32],
        log_head: [u8; 32],
        raw: Vec<u8>,
        out: &mut Output,
    ) {
        let Some(r) = &self.run else { return };
        if r.participant(&peer)
            .is_some_and(|p| r.excluded.contains(&p))
        {
            // A dropped peer went its own way (e.g. it resolved with the reveal it withheld
            // from us); its view no longer counts.
            return;
        }
        let our_head = r.heads.get(index as usize).copied().unwrap_or([0; 32]);
        let our_state = r.checkpoints.get(&index).copied().unwrap_or([0; 32]);
        if (our_head != log_head || our_state != state_hash) && self.suspect.is_none() {
            // Our histories differ. Usually that is an equivocating seat whose two entries have
            // not both reached us yet: freeze, ask for recent history, and halt naming that seat
            // if it shows up; name this peer only if nothing does.
            let report = HaltReport::CheckpointMismatch {
                peer,
                index,
                ours: (our_state, our_head),
                theirs: (state_hash, log_head),
            };
            self.suspect = Some((report, vec![raw], self.now));
            let body = Body::Sync {
                started: true,
                have_index: self.log_len(),
                head: self.log_head().unwrap_or([0; 32]),
            };
            let raw = self.seal(&body);
            out.send.push((Dest::All, raw));
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn on_checkpoint(
        &mut self,
        link: Option<LinkId>,
        sender: PeerKey,
        index: u64,
        state_hash: [u8; 32],
        log_head: [u8; 32],
        raw: &[u8],
        out: &mut Output,
    ) {
        let Some(r) = &mut self.run else { return };
        if r.participant(&sender).is_none() {
            Self::reject(out, link, Some(sender), Violation::NotParticipant);
            return;
        }
        if sender == self.me {
            return;
        }
        let next = r.next_index();
        if index <= next {
            self.compare_checkpoint(sender, index, state_hash, log_head, raw.to_vec(), out);
        } else if index < next + MAX_AHEAD {
            r.their_checkpoints.entry(index).or_default().push((
                sender,
                state_hash,
                log_head,
                raw.to_vec(),
            ));
        } else {
            Self::reject(out, link, Some(sender), Violation::TooFarAhead { index });
        }
    }

    fn on_orders_commit(
        &mut self,
        link: Option<LinkId>,
        sender: PeerKey,
        round: u32,
        hash: [u8; 32],
        raw: &[u8],
        out: &mut Output,
    ) {
        let Some(r) = &mut self.run else { return };
        let Some(p) = r.participant(&sender) else {
            Self::reject(out, link, Some(sender), Violation::NotParticipant);
            return;
        };
        let classic = matches!(r.state, Game::Classic(_));
        if classic && !r.orders.contains_key(&round) && r.orders.len() >= MAX_ROUNDS {
            Self::reject(
                out,
                link,
                Some(sender),
                Violation::TooFarAhead {
                    index: round as u64,
                },
            );
            return;
        }
        let o = r.orders.entry(round).or_default();
        match o.commits.get(&p) {
            Some((h, _)) if *h == hash => return,
            Some(_) => {
                Self::reject(
                    out,
                    link,
                    Some(sender),
                    Violation::OrdersCommitChanged { round },
                );
                return;
            }
            None => {}
        }
        o.commits.insert(p, (hash, raw.to_vec()));
        if let Some((payload, salt, raw, l)) = o.early_reveals.remove(&p) {
            self.on_orders_reveal(l, sender, round, payload, salt, &raw, out);
        }
        self.progress();
        self.orders_step(round, out);
    }

    #[allow(clippy::too_many_arguments)]
    fn on_orders_reveal(
        &mut self,
        link: Option<LinkId>,
        sender: PeerKey,
        round: u32,
        payload: Vec<u8>,
        salt: [u8; 32],
        raw: &[u8],
        out: &mut Output,
    ) {
        let Some(r) = &mut self.run else { return };
        let Some(p) = r.participant(&sender) else {
            Self::reject(out, link, Some(sender), Violation::NotParticipant);
            return;
        };
        if payload.len() > MAX_ORDERS_BYTES as usize {
            Self::reject(out, link, Some(sender), Violation::TooLong);
            return;
        }
        let classic = matches!(r.state, Game::Classic(_));
        if classic && !r.orders.contains_key(&round) && r.orders.len() >= MAX_ROUNDS {
            return;
        }
        let o = r.orders.entry(round).or_default();
        if o.reveals.contains_key(&p) {
            return;
        }
        let Some((hash, _)) = o.commits.get(&p) else {
            // Its commitment is still on the way (reordering): hold the reveal until it lands.
            o.early_reveals
                .insert(p, (payload, salt, raw.to_vec(), link));
            return;
        };
        if orders_commitment(round, &payload, &salt) != *hash {
            Self::reject(out, link, Some(sender), Violation::OrdersMismatch { round });
            return;
        }
        o.reveals.insert(p, (payload, raw.to_vec()));
        self.progress();
        self.orders_step(round, out);
    }

    fn orders_step(&mut self, round: u32, out: &mut Output) {
        let Some(r) = &mut self.run else { return };
        let req = r.orders_required();
        let me = r.me;
        let Some(o) = r.orders.get_mut(&round) else {
            return;
        };
        if o.done || !req.iter().all(|i| o.commits.contains_key(i)) {
            return;
        }
        if !o.announced_commits {
            o.announced_commits = true;
            out.events.push(ProtocolEvent::OrdersCommitted { round });
        }
        if let (false, Some((payload, salt)), Some(m)) = (o.revealed, o.mine.clone(), me) {
            o.revealed = true;
            let raw = Envelope::seal(
                &self.key,
                self.cfg.game_id,
                self.seq,
                &Body::OrdersReveal {
                    round,
                    payload: payload.clone(),
                    salt,
                },
            );
            self.seq = self.seq.saturating_add(1);
            out.send.push((Dest::All, raw.clone()));
            o.reveals.insert(m, (payload, raw));
        }
        if req.iter().all(|i| o.reveals.contains_key(i)) {
            o.done = true;
            let orders = req
                .iter()
                .filter_map(|&i| {
                    let k = r.proposal.participants.get(i as usize).copied()?;
                    let (pl, _) = o.reveals.get(&i)?;
                    Some((k, pl.clone()))
                })
                .collect();
            out.events
                .push(ProtocolEvent::OrdersRevealed { round, orders });
        }
    }

    /// Salt for the empty orders a peer commits by itself when it has nothing to order; derived
    /// from its secret so that a reloaded peer can still reveal them.
    fn empty_salt(&self, round: u32) -> [u8; 32] {
        let mut b = b"orbis-empty-orders".to_vec();
        b.extend_from_slice(&self.cfg.chain_secret);
        b.extend_from_slice(&round.to_le_bytes());
        sha256(&b)
    }

    /// Orders game, at the current position (round = phase index): commits empty orders by
    /// ourselves when none of our powers has anything to order, reveals once every required
    /// participant has committed, and resolves the phase once every reveal is in. True when
    /// something changed that may let the game go further.
    fn advance_orders(&mut self, out: &mut Output) -> bool {
        let Some(r) = &self.run else { return false };
        let index = r.next_index();
        let round = index as u32;
        let salt = self.empty_salt(round);
        let empty = encode_orders(&OrdersPayload::default());
        let empty_hash = orders_commitment(round, &empty, &salt);
        let Some(r) = &mut self.run else { return false };
        if let (Some(m), Game::Orders(s)) = (r.me.filter(|m| !r.excluded.contains(m)), &r.state) {
            let waiting = s.waiting_for();
            let idle = !r.powers_of(m).iter().any(|p| waiting.contains(p));
            let o = r.orders.entry(round).or_default();
            if o.mine.is_none() {
                match o.commits.get(&m) {
                    // Our own empty commitment from before a reload: we can reveal it again.
                    Some((h, _)) if *h == empty_hash => o.mine = Some((empty, salt)),
                    None if idle => {
                        match self.commit_orders(round, empty, salt) {
                            Ok(o) => out.merge(o),
                            Err(e) => {
                                self.halt(HaltReport::Internal(format!("empty orders: {e}")), out);
                                return false;
                            }
                        }
                        return true;
                    }
                    _ => {}
                }
            }
        }
        self.orders_step(round, out);
        let Some(r) = &mut self.run else { return false };
        let req = r.orders_required();
        let Some(o) = r.orders.get(&round) else {
            return false;
        };
        if !o.done {
            return false;
        }
        let reveals: Vec<(u8, Vec<u8>)> = req
            .iter()
            .filter_map(|i| o.reveals.get(i).map(|(pl, _)| (*i, pl.clone())))
            .collect();
        // Per participant: the powers it orders now, and those it was seated with.
        let plays: Vec<(Vec<PowerId>, Vec<PowerId>)> = reveals
            .iter()
            .map(|(p, _)| {
                let seated = r
                    .proposal
                    .seats
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.controller == Controller::Peer(*p))
                    .filter_map(|(i, _)| r.powers.get(i).copied())
                    .collect();
                (r.powers_of(*p), seated)
            })
            .collect();
        let parts = r.proposal.participants.clone();
        let Game::Orders(s) = &mut r.state else {
            return false;
        };
        let mut violations = vec![];
        let mut draws = vec![];
        let mut content = b"orbis-orders-phase".to_vec();
        content.extend_from_slice(&round.to_le_bytes());
        for ((p, payload), (now, seated)) in reveals.iter().zip(&plays) {
            content.extend_from_slice(&codec::encode(&(p, payload)));
            let who = parts.get(*p as usize).copied();
            let payload = match decode_orders(payload) {
                Ok(l) => l,
                Err(e) => {
                    violations.push((
                        who,
                        Violation::IllegalOrders {
                            round,
                            error: format!("undecodable orders: {e}"),
                        },
                    ));
                    continue;
                }
            };
            for (power, accept) in payload.draw {
                if now.contains(&power) {
                    // A power named twice: its last vote counts.
                    draws.retain(|&(q, _)| q != power);
                    draws.push((power, accept));
                } else if !seated.contains(&power) {
                    violations.push((
                        who,
                        Violation::IllegalOrders {
                            round,
                            error: format!("a draw vote for power {power}, which it does not play"),
                        },
                    ));
                }
            }
            for (power, orders) in payload.orders {
                if !now.contains(&power) {
                    // Orders for a seat handed to a bot since are void without blame.
                    if !seated.contains(&power) {
                        violations.push((
                            who,
                            Violation::IllegalOrders {
                                round,
                                error: format!("orders for power {power}, which it does not play"),
                            },
                        ));
                    }
                    continue;
                }
                let submit = |orders: Vec<_>| OrdersAction::Submit { power, orders };
                if let Err(e) = s.apply(&submit(orders.clone())) {
                    // Keep every order the engine accepts; the others are void and their units
                    // hold (retreat: disband; builds: waived), as an illegal order does on paper.
                    let mut kept = vec![];
                    for w in orders {
                        let mut t = kept.clone();
                        t.push(w);
                        if s.clone().apply(&submit(t.clone())).is_ok() {
                            kept = t;
                        }
                    }
                    let _ = s.apply(&submit(kept));
                    violations.push((
                        who,
                        Violation::IllegalOrders {
                            round,
                            error: e.to_string(),
                        },
                    ));
                }
            }
        }
        // Draw votes, after the orders (so illegal ones are still named) and before the
        // adjudication: a draw every survivor accepts ends the game in the phase they accept it.
        // A surviving power no peer plays now (a computer seat: civil disorder) cannot accept,
        // as in hot-seat play, so an acceptance it held while it had a player is withdrawn.
        // Declines go first, then acceptances (each in participant order): the votes of a phase
        // are simultaneous, so a standing acceptance withdrawn now cannot complete a draw.
        let played: Vec<PowerId> = plays.iter().flat_map(|(now, _)| now.clone()).collect();
        let n = s.map().powers.len() as PowerId;
        let withdrawn: Vec<(PowerId, bool)> = (0..n)
            .filter(|p| !played.contains(p) && s.alive(*p) && s.draw[*p as usize])
            .map(|p| (p, false))
            .collect();
        let (yes, no): (Vec<_>, Vec<_>) = draws.into_iter().partition(|&(_, a)| a);
        let mut events = vec![];
        for (power, accept) in withdrawn.into_iter().chain(no).chain(yes) {
            if matches!(s.phase, Phase::GameOver { .. }) {
                break;
            }
            match s.apply(&OrdersAction::Draw { power, accept }) {
                Ok(ev) => events.extend(ev),
                Err(e) => {
                    self.halt(HaltReport::Internal(format!("draw vote refused: {e}")), out);
                    return false;
                }
            }
        }
        let adjudicated = if matches!(s.phase, Phase::GameOver { .. }) {
            Ok(vec![])
        } else {
            s.apply(&OrdersAction::Adjudicate)
        };
        match adjudicated {
            Ok(ev) => events.extend(ev),
            Err(e) => {
                self.halt(
                    HaltReport::Internal(format!("adjudication refused: {e}")),
                    out,
                );
                return false;
            }
        };
        let content = sha256(&content);
        let controls = std::mem::take(&mut r.controls_here);
        let head = next_head_orders(&r.head(), index, &controls, &content);
        r.log.push(Record {
            content,
            signer: None,
            raw: None,
            controls,
        });
        r.heads.push(head);
        for (peer, violation) in violations {
            Self::reject(out, None, peer, violation);
        }
        out.events
            .push(ProtocolEvent::PhaseResolved { index, events });
        self.progress();
        self.checkpoint(true, head, out);
        true
    }

    /// Resends to `link` whatever it may be missing: the lobby transcript, log entries from
    /// `have`, the dice reveals of those positions and open orders rounds.
    fn answer_sync(
        &mut self,
        link: LinkId,
        started: bool,
        have: u64,
        head: [u8; 32],
        out: &mut Output,
    ) {
        // Groups are kept whole inside one batch, so a lagging peer sees the votes of a
        // position before its dice and entry.
        let mut groups: Vec<Vec<Vec<u8>>> = vec![];
        if !started {
            let only = self.run.as_ref().map(|r| r.proposal_hash);
            let mut g = vec![];
            for (h, (_, raw)) in &self.proposals {
                if only.is_none_or(|o| o == *h) {
                    g.push(raw.clone());
                }
            }
            for (h, m) in &self.accepts {
                if only.is_none_or(|o| o == *h) {
                    g.extend(m.values().map(|a| a.raw.clone()));
                }
            }
            for (h, m) in &self.seed_reveals {
                if only.is_none_or(|o| o == *h) {
                    g.extend(m.values().map(|(_, raw)| raw.clone()));
                }
            }
            groups.push(g);
        }
        if let Some(r) = &self.run {
            let pending = r.pending.as_ref().map(|p| p.index);
            let orders_game = matches!(r.state, Game::Orders(_));
            // If our histories may differ, go back a little so that an entry a seat signed
            // differently for each of us reaches the requester, which then sees both.
            let next = r.next_index();
            let from = if have > next {
                next.saturating_sub(SYNC_LOOKBACK)
            } else if started && r.heads.get(have as usize) != Some(&head) {
                have.saturating_sub(FORK_LOOKBACK)
            } else {
                have
            };
            for i in from..=next {
                let mut g = vec![];
                for (_, v) in r.votes.range((i, [0; 32])..=(i, [0xff; 32])) {
                    g.extend(v.voters.values().cloned());
                }
                if let Some(m) = r.reveals.get(&i) {
                    g.extend(m.values().map(|s| s.raw.clone()));
                }
                let rec = if Some(i) == pending {
                    r.pending.as_ref().map(|p| &p.record)
                } else {
                    r.log.get(i as usize)
                };
                if let Some(raw) = rec.and_then(|x| x.raw.as_ref()) {
                    g.push(raw.clone());
                }
                if orders_game {
                    // Orders game: position i is round i.
                    if let Some(o) = u32::try_from(i).ok().and_then(|n| r.orders.get(&n)) {
                        g.extend(o.commits.values().map(|(_, raw)| raw.clone()));
                        g.extend(o.reveals.values().map(|(_, raw)| raw.clone()));
                    }
                }
                groups.push(g);
            }
            if !orders_game {
                let mut g = vec![];
                for o in r.orders.values() {
                    g.extend(o.commits.values().map(|(_, raw)| raw.clone()));
                    g.extend(o.reveals.values().map(|(_, raw)| raw.clone()));
                }
                groups.push(g);
            }
        }
        let mut batch: Vec<Vec<u8>> = vec![];
        let mut size = 0;
        for g in groups {
            let gs: usize = g.iter().map(|x| x.len()).sum();
            if !batch.is_empty()
                && (size + gs > BATCH_BYTES || batch.len() + g.len() > MAX_BATCH_ITEMS)
            {
                let raw = self.seal(&Body::Batch {
                    items: std::mem::take(&mut batch),
                });
                out.send.push((Dest::Link(link), raw));
                size = 0;
            }
            size += gs;
            batch.extend(g);
        }
        if !batch.is_empty() {
            let raw = self.seal(&Body::Batch { items: batch });
            out.send.push((Dest::Link(link), raw));
        }
    }
}

/// Engine legality check without consuming real dice.
fn legal(state: &ClassicState, action: &Action) -> Result<(), String> {
    let mut s = state.clone();
    s.apply_with(action, &mut SeededDice::new([0; 32]))
        .map(|_| ())
        .map_err(|e| e.to_string())
}

fn seat_configs(p: &SetupProposal) -> Vec<SeatConfig> {
    p.seats
        .iter()
        .map(|s| SeatConfig {
            name: s.name.clone(),
            colour: s.colour,
            kind: match s.controller {
                Controller::Peer(_) => SeatKind::Human,
                Controller::Bot(l) => SeatKind::Bot(l),
            },
        })
        .collect()
}

/// Structural checks every peer applies to a proposal.
pub fn check_proposal(p: &SetupProposal) -> Result<(), String> {
    let n = p.participants.len();
    if n == 0 || n > 16 {
        return Err(format!("{n} participants (1 to 16 allowed)"));
    }
    if p.participants.iter().collect::<BTreeSet<_>>().len() != n {
        return Err("a participant is listed twice".into());
    }
    for s in &p.seats {
        if s.name.len() > MAX_NAME_BYTES as usize {
            return Err("seat name too long".into());
        }
        if let Controller::Peer(i) = s.controller {
            if i as usize >= n {
                return Err(format!("seat controlled by unknown participant {i}"));
            }
        }
    }
    new_game(p, [0; 32]).map(|_| ())
}

/// The initial state of a proposal's game, and (orders ruleset) the power of each seat.
fn new_game(p: &SetupProposal, seed: [u8; 32]) -> Result<(Game, Vec<PowerId>), String> {
    match &p.orders {
        None => ClassicState::new(seat_configs(p), p.options.clone(), seed)
            .map(|s| (Game::Classic(s), vec![]))
            .map_err(|e| e.to_string()),
        Some(o) => {
            // Orders are resolved without dice: the seed is not used.
            let n = u8::try_from(p.seats.len()).map_err(|_| "too many seats".to_string())?;
            let map = OrdersMap::get(&o.map).ok_or_else(|| format!("unknown map `{}`", o.map))?;
            let powers = map
                .powers_for(n)
                .ok_or_else(|| format!("the {} map has no setup for {n} players", map.name))?;
            let s =
                OrdersState::new_for(&o.map, o.options.clone(), n).map_err(|e| e.to_string())?;
            Ok((Game::Orders(s), powers))
        }
    }
}
