//! Wire format: a signed [`Envelope`] around a versioned [`Body`], all encoded with the engine's
//! canonical codec (bincode 2, size-limited, trailing bytes rejected).
//!
//! The envelope's outer layout never changes between protocol versions; the body travels as bytes
//! and is only decoded when the version matches, so a peer from another version gets a clear
//! "unknown version" instead of a decode error.

use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
/// The face-down deal's messages, carried in [`Body::Deal`].
pub use orbis_deal::table::DealMsg;
use orbis_engine::classic::{Action, BotLevel, ClassicOptions, Colour};
use orbis_engine::codec::{self, sha256};
use orbis_engine::rules::economy::action::EconomyAction;
use orbis_engine::rules::economy::options::EconomyOptions;
use orbis_engine::rules::orders::map::PowerId;
use orbis_engine::rules::orders::notation::Written;
use orbis_engine::rules::orders::OrdersOptions;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Protocol version carried by every envelope.
pub const PROTOCOL_VERSION: u16 = 10;
/// Longest chat message, in bytes of UTF-8.
pub const MAX_CHAT_BYTES: u32 = 500;
/// Longest simultaneous-orders payload, in bytes.
pub const MAX_ORDERS_BYTES: u32 = 64 * 1024;
/// Longest player name, in bytes of UTF-8.
pub const MAX_NAME_BYTES: u32 = 64;

/// A peer's identity: its ed25519 public key.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct PeerKey(pub [u8; 32]);

impl PeerKey {
    /// Short hexadecimal form for logs and reports.
    pub fn short(&self) -> String {
        self.0[..4].iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl fmt::Debug for PeerKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PeerKey({})", self.short())
    }
}

impl fmt::Display for PeerKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.short())
    }
}

/// An ed25519 signature; serde has no impl for `[u8; 64]`, so it travels as two halves.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Sig(pub [u8; 32], pub [u8; 32]);

impl Sig {
    fn from_bytes(b: [u8; 64]) -> Sig {
        let mut lo = [0u8; 32];
        let mut hi = [0u8; 32];
        lo.copy_from_slice(&b[..32]);
        hi.copy_from_slice(&b[32..]);
        Sig(lo, hi)
    }

    fn to_bytes(self) -> [u8; 64] {
        let mut b = [0u8; 64];
        b[..32].copy_from_slice(&self.0);
        b[32..].copy_from_slice(&self.1);
        b
    }
}

/// What a seat is played by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Controller {
    /// The participant at this index of [`SetupProposal::participants`] signs the seat's actions.
    Peer(u8),
    /// Every peer computes the seat's actions with the engine's bot.
    Bot(BotLevel),
}

/// One seat of a proposed game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatSpec {
    pub name: String,
    pub colour: Colour,
    pub controller: Controller,
}

/// A game setup that every participant must sign before the seed is drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupProposal {
    /// Peers that sign the setup, contribute to the seed and reveal dice; this order is the order
    /// of their contributions in every hash.
    pub participants: Vec<PeerKey>,
    pub seats: Vec<SeatSpec>,
    /// Options of the classic ruleset (unused when `orders` is set).
    pub options: ClassicOptions,
    /// `Some`: the game is the orders ruleset on this map instead of the classic game. Seat `i`
    /// plays the `i`-th power the map deals for `seats.len()` players.
    pub orders: Option<OrdersSetup>,
    /// `Some`: the game is the economy ruleset with these options (setup included) instead of
    /// the classic game; seat `i` is the engine's player `i` (see `peer/economy.rs`).
    pub economy: Option<EconomyOptions>,
    /// Classic game: the cards and missions are dealt face down by the participants (see
    /// `orbis_deal`), so that nobody reads another's hand; `false` deals them from the shared
    /// seed, readable by every peer.
    pub face_down: bool,
    /// Face down, three participants or more: each escrows pieces of its key with the others,
    /// so that all the others together can stand in for a player who leaves (and, together,
    /// could read its hand at any moment). `false`: no escrow, so nobody but its holder can
    /// ever read a hand, and the game ends, unwon, if a player leaves (security review A2).
    pub stand_in: bool,
    /// Distinguishes otherwise identical re-proposals.
    pub nonce: u64,
    /// `Some`: a game played over days (orders ruleset): its deadlines, a fixed schedule every
    /// peer computes from the log (`peer/clock.rs`); `None`: a live game.
    pub clock: Option<Clock>,
}

/// The clock of a game played over days, in the signed setup: every deadline is computed from
/// it and the log alone (`Peer::due`), so no peer's clock decides when a phase ends; a peer's
/// clock only decides when it offers a missed-turn vote (see PROTOCOL.md "Games over days").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// When the first phase starts (UTC seconds since the epoch).
    pub start_s: u64,
    /// Length of a movement phase, of a retreat phase and of a build (adjustment) phase, in s.
    pub movement_s: u32,
    pub retreat_s: u32,
    pub build_s: u32,
    /// How long after a deadline a page waits before it offers the missed-turn vote (covers a
    /// late visit to open one's orders and clocks a little off).
    pub grace_s: u32,
    /// A phase resolves as soon as every reveal is in, before its deadline (the schedule does
    /// not move). `false`: it resolves at its deadline at the earliest (`Peer::due` says when).
    pub early: bool,
    /// Missed turns each participant is excused (0–4): each extends the phase once.
    pub excuses: u8,
}

impl Clock {
    /// A clock with the defaults of DAYS.md: early resolution, one excuse.
    pub fn new(start_s: u64, movement_s: u32, retreat_s: u32, build_s: u32, grace_s: u32) -> Clock {
        Clock {
            start_s,
            movement_s,
            retreat_s,
            build_s,
            grace_s,
            early: true,
            excuses: 1,
        }
    }
}

/// The orders ruleset's choices in a setup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrdersSetup {
    /// A built-in map id (`"europe-1901"`, `"world"`).
    pub map: String,
    pub options: OrdersOptions,
    /// The power of each seat, chosen in the lobby; `None`: drawn at random, by the game's
    /// shared seed, from the powers nobody chose. Empty: every seat plays the power the map's
    /// setup lists at its position.
    pub powers: Vec<Option<PowerId>>,
}

/// What one participant reveals in an orders-game round, per power it plays: the written orders,
/// and whether the power accepts a draw. Both are secret until the reveal, so draw acceptance is
/// as simultaneous as the orders.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrdersPayload {
    /// Written orders per power.
    pub orders: Vec<(PowerId, Vec<Written>)>,
    /// Draw votes per power: `true` accepts a draw, `false` declines (or withdraws an earlier
    /// acceptance). A power left out keeps the vote it had.
    pub draw: Vec<(PowerId, bool)>,
}

impl OrdersPayload {
    /// Orders only, no draw votes.
    pub fn orders(orders: Vec<(PowerId, Vec<Written>)>) -> OrdersPayload {
        OrdersPayload {
            orders,
            draw: vec![],
        }
    }
}

/// Format of the orders payload bytes: its first byte. Format 1 (protocol version 1) was the bare
/// list of orders; format 2 adds draw votes. Another first byte is refused as undecodable, so a
/// payload from a newer client is void (and its sender named), never misread.
pub const ORDERS_FORMAT: u8 = 2;

/// Encodes an orders-game payload (the bytes committed to and revealed).
pub fn encode_orders(payload: &OrdersPayload) -> Vec<u8> {
    codec::encode(&(ORDERS_FORMAT, payload))
}

/// Decodes an orders-game payload.
pub fn decode_orders(bytes: &[u8]) -> Result<OrdersPayload, String> {
    match bytes.first() {
        Some(&ORDERS_FORMAT) => codec::decode::<(u8, OrdersPayload)>(bytes)
            .map(|(_, p)| p)
            .map_err(|e| e.to_string()),
        Some(f) => Err(format!("orders payload format {f} is not known")),
        None => Err("empty orders payload".into()),
    }
}

/// Format byte of an economy payload (a batch of actions for one log position).
pub const ECONOMY_FORMAT: u8 = 1;

/// Encodes an economy-game payload: the actions one participant plays at one log position, for
/// the seats it controls (the bytes committed to and revealed).
pub fn encode_economy(actions: &[EconomyAction]) -> Vec<u8> {
    codec::encode(&(ECONOMY_FORMAT, actions))
}

/// Format byte of an economy payload that also shows face-down influence cards: the actions,
/// then the reveal (every share, with its proof) of each card it shows.
pub const ECONOMY_SHOWS_FORMAT: u8 = 2;

/// Encodes an economy-game payload with the reveals of the face-down cards its `ShowCard`
/// actions show (and of computer seats' cards it can read); without reveals, the plain format.
pub fn encode_economy_with(actions: &[EconomyAction], reveals: &[DealMsg]) -> Vec<u8> {
    if reveals.is_empty() {
        return encode_economy(actions);
    }
    codec::encode(&(ECONOMY_SHOWS_FORMAT, actions, reveals))
}

/// Decodes an economy-game payload.
pub fn decode_economy(bytes: &[u8]) -> Result<Vec<EconomyAction>, String> {
    decode_economy_with(bytes).map(|(a, _)| a)
}

/// Decodes an economy-game payload with its reveals (none in the plain format).
pub fn decode_economy_with(bytes: &[u8]) -> Result<(Vec<EconomyAction>, Vec<DealMsg>), String> {
    match bytes.first() {
        Some(&ECONOMY_FORMAT) => codec::decode::<(u8, Vec<EconomyAction>)>(bytes)
            .map(|(_, p)| (p, vec![]))
            .map_err(|e| e.to_string()),
        Some(&ECONOMY_SHOWS_FORMAT) => {
            codec::decode::<(u8, Vec<EconomyAction>, Vec<DealMsg>)>(bytes)
                .map(|(_, p, r)| (p, r))
                .map_err(|e| e.to_string())
        }
        Some(f) => Err(format!("economy payload format {f} is not known")),
        None => Err("empty economy payload".into()),
    }
}

impl SetupProposal {
    /// An orders game on `map` with `seats` seats: `participants` play the first ones (seat `i`
    /// named `name(i)`, in the colours' order), computers of `level` the rest; over days with
    /// `clock`, live with `None`. `nonce` tells re-proposals apart. Set `orders.powers` after
    /// for a choice of powers other than the map's deal.
    pub fn orders_game(
        map: &str,
        seats: usize,
        participants: Vec<PeerKey>,
        name: impl Fn(usize) -> String,
        level: BotLevel,
        clock: Option<Clock>,
        nonce: u64,
    ) -> SetupProposal {
        let humans = participants.len();
        SetupProposal {
            participants,
            seats: (0..seats)
                .map(|i| SeatSpec {
                    name: name(i),
                    colour: Colour::ALL[i % Colour::ALL.len()],
                    controller: if i < humans {
                        Controller::Peer(i as u8)
                    } else {
                        Controller::Bot(level)
                    },
                })
                .collect(),
            options: ClassicOptions::default(),
            orders: Some(OrdersSetup {
                map: map.into(),
                options: OrdersOptions::default(),
                powers: vec![],
            }),
            face_down: false,
            stand_in: true,
            economy: None,
            nonce,
            clock,
        }
    }

    /// Hash that `Accept` messages sign.
    pub fn hash(&self) -> [u8; 32] {
        // A classic or orders proposal with a stand-in escrow hashes as before either field
        // existed (version 5), so the games of a given room and nonce stay the games they were;
        // any other hashes whole, under a tag of its own.
        let mut b;
        if self.stand_in && self.economy.is_none() && self.clock.is_none() {
            b = b"orbis-setup".to_vec();
            b.extend_from_slice(&codec::encode(&(
                &self.participants,
                &self.seats,
                &self.options,
                &self.orders,
                self.face_down,
                self.nonce,
            )));
        } else if self.clock.is_none() {
            // Every field but the clock, in order: the encoding of the struct before it had one.
            b = b"orbis-setup-6".to_vec();
            b.extend_from_slice(&codec::encode(&(
                &self.participants,
                &self.seats,
                &self.options,
                &self.orders,
                &self.economy,
                self.face_down,
                self.stand_in,
                self.nonce,
            )));
        } else {
            b = b"orbis-setup-days".to_vec();
            b.extend_from_slice(&codec::encode(self));
        }
        sha256(&b)
    }
}

/// A decision the remaining participants take unanimously when someone stops answering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Control {
    /// `peer` no longer contributes dice and every seat it played is played by a bot.
    Drop { peer: PeerKey, level: BotLevel },
    /// A seat played by a peer is handed to a bot (its player stays a dice contributor).
    SeatToBot { seat: u8, level: BotLevel },
    /// `peer`, dropped or with seats handed to a bot, is back: it plays its seats again and, if
    /// it was dropped, contributes dice again from the chain whose tip it names here (its chain
    /// for the next roll; it signs this control itself, so the tip is its own commitment).
    Readmit { peer: PeerKey, tip: [u8; 32] },
    /// A game over days: the participants of `who` (bit `i`: participant `i`) missed the
    /// deadline of the phase voted at (not committed, or not revealed once everyone had
    /// committed, by deadline + grace on each voter's clock); every other contributor votes it.
    /// `nth`: how many of these already passed at that position. Each of them spends an excuse
    /// (the phase is extended by one length), or, with none left, the phase resolves without it
    /// (its powers hold, retreats disband, builds are waived) and a computer (`normal`) plays its
    /// seats from the next phase on (see `peer/days.rs`).
    Missed { who: u64, nth: u8 },
}

/// A signed entry of the game log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Position in the log (bot actions occupy positions too, though they are never sent).
    pub index: u64,
    /// Log head before this entry, binding it to one history.
    pub prev_hash: [u8; 32],
    pub action: Action,
}

/// Every message of the protocol.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Body {
    /// Announces a name on a connection; `answer` marks the reply to another peer's hello.
    /// A key is bound to a connection only by a hello over it whose `response` answers the nonce
    /// the receiver sent as `challenge` over that very connection (a forwarded message carries no
    /// valid binding to any other connection: security review C11). A broadcast hello carries
    /// neither; a challenge or response goes over one connection only.
    Hello {
        name: String,
        answer: bool,
        /// The sender's nonce for this connection: "sign it back to be bound here".
        challenge: Option<[u8; 32]>,
        /// The answer to the receiver's challenge over this connection: a hash of the
        /// challenger's key and its nonce (`peer::lobby::link_response`).
        response: Option<[u8; 32]>,
    },
    /// Proposes a setup; anyone may.
    Propose(SetupProposal),
    /// Signs a proposal and commits to a seed share and to the tip of a dice hash chain.
    Accept {
        proposal: [u8; 32],
        seed_commit: [u8; 32],
        chain_tip: [u8; 32],
        chain_len: u32,
    },
    /// Opens the seed share once every participant has accepted.
    SeedReveal {
        proposal: [u8; 32],
        secret: [u8; 32],
    },
    /// An action of the seat whose turn it is.
    Entry(Entry),
    /// The next pre-image of the sender's dice chain, for the roll declared at log `index` by
    /// the entry whose content hash is `decl` (a reveal opens the dice of that declaration only).
    /// Near the end of a chain, `next_tip` commits to the tip of the sender's next chain (of the
    /// same length), which takes over after the last element: games never run out of dice.
    Reveal {
        index: u64,
        roll: u32,
        decl: [u8; 32],
        preimage: [u8; 32],
        next_tip: Option<[u8; 32]>,
    },
    /// State hash and log head after `index` log entries, sent after every turn.
    Checkpoint {
        index: u64,
        state_hash: [u8; 32],
        log_head: [u8; 32],
    },
    /// "Send me what I am missing": the lobby transcript if not started, log from `have_index`.
    /// `head` is the requester's log head there, so a responder whose history differs (a fork
    /// made by an equivocating seat) sends a window of its recent entries that exposes it.
    Sync {
        started: bool,
        have_index: u64,
        head: [u8; 32],
        /// Messages of the face-down deal the requester has taken (a responder that has more
        /// sends them all); 0 while the requester holds a deal message built on keys, an escrow
        /// or a deck it does not hold, so that every responder sends it every deal message and
        /// the conflicting ones meet.
        deal: u32,
        /// The XOR of the hashes of the messages of the current deal the requester has taken:
        /// a responder whose own differs sends it every deal message too (each may lack a
        /// different one, with as many messages as the other).
        deal_digest: [u8; 32],
        /// Positions the requester holds but cannot read yet: their shares are sent again.
        unread: Vec<(u8, u16)>,
        /// Participants (indices) whose shares of those positions have not come: every peer
        /// shows them as what the game waits for when the requester must play.
        withheld: Vec<u8>,
    },
    /// Simultaneous orders: commitment to H(round ‖ payload ‖ salt).
    OrdersCommit { round: u32, hash: [u8; 32] },
    /// Simultaneous orders: the committed payload, after every commitment arrived.
    OrdersReveal {
        round: u32,
        payload: Vec<u8>,
        salt: [u8; 32],
    },
    /// Chat to everyone (`to: None`, in `text`) or privately to one peer (`to: Some`, its
    /// text sealed to that peer's key in `sealed`, `text` empty: a copy that reaches anyone
    /// else reveals nothing; security review C11).
    Chat {
        to: Option<PeerKey>,
        text: String,
        sealed: Vec<u8>,
    },
    /// A vote to take `control` at log position `at` (the position the voter is stuck on).
    /// Binding: the voter resolves `at` only with the control, unless the vote can no longer pass.
    /// `fixed`: in an economy game, the declaration of the batch the voter had fixed at `at`
    /// when it voted (its roll waiting on a reveal), else `None`. Such a vote applies only to
    /// that batch, so a peer that takes it before the voter's reveal (resent or relayed out of
    /// order) fixes the batch first instead of dropping the target before it (issue 30).
    Vote {
        at: u64,
        control: Control,
        fixed: Option<[u8; 32]>,
    },
    /// Several signed messages to be handled in this order (resends to a lagging peer, so that
    /// votes are seen before the dice they affect).
    Batch { items: Vec<Vec<u8>> },
    /// "Your chat message reached me": `id` is the SHA-256 of the chat's signed bytes. The sender
    /// resends a chat to each recipient until it is acknowledged (chat is not in the transcript).
    ChatAck { id: [u8; 32] },
    /// A message of the face-down deal: to everyone, or (`to`: a participant's index) to one
    /// participant alone, over its own connection only (a decryption share nobody else may see).
    /// `deal`: which deal of the game (0, then one more each time the deal started again without
    /// a participant whose key or escrow never came); seats inside `msg` are that deal's (its
    /// participants in participant order).
    Deal {
        deal: u8,
        to: Option<u8>,
        msg: DealMsg,
    },
    /// At the end of a game dealt face down (won, halted or left): the sender's secret key
    /// share of deal `deal`, so that anyone can open every card dealt and check the whole deal.
    DealSecret { deal: u8, secret: [u8; 32] },
    /// At the end of a game dealt face down, from each participant still there: its pieces of
    /// the key shares of participants who left deal `deal` (owner's seat in that deal, piece), so
    /// that every other participant's pieces together rebuild those keys and the whole deal can
    /// be opened.
    DealPieces {
        deal: u8,
        pieces: Vec<(u8, [u8; 32])>,
    },
    /// A game over days: the sender's own orders (payload and salt) for `round`, sealed to its
    /// own key, kept in the store beside its commitment, so that any later visit of the sender
    /// (another device with its backed-up key, or its keeper) can reveal them. Nobody else can
    /// open it; others keep nothing of it.
    OrdersKept { round: u32, sealed: Vec<u8> },
}

impl Body {
    /// A message of a running game (log, dice, checkpoints, orders rounds, votes): it is signed
    /// under the game's own id ([`game_tag`]), so it means nothing in another game of the same
    /// room. Lobby messages, chat and resends are signed under the room's id.
    pub fn is_game(&self) -> bool {
        matches!(
            self,
            Body::Entry(_)
                | Body::Reveal { .. }
                | Body::Checkpoint { .. }
                | Body::OrdersCommit { .. }
                | Body::OrdersReveal { .. }
                | Body::Vote { .. }
                | Body::Deal { .. }
                | Body::DealSecret { .. }
                | Body::DealPieces { .. }
                | Body::OrdersKept { .. }
        )
    }

    /// Signed under the running game's id: a game message ([`Body::is_game`]), or the `Sync` of
    /// a peer whose game has started, whose position, head and `withheld` report speak of that
    /// game. Under the room's id, a participant's `Sync` from an earlier game of the room,
    /// replayed in this one, claimed that participant had reached a later position (which let
    /// a voter bound by its own vote go, in a classic game) and named whoever it named then as
    /// withholding cards here.
    pub fn under_game(&self) -> bool {
        self.is_game() || matches!(self, Body::Sync { started: true, .. })
    }
}

/// The id game messages are signed under: the room's id and the accepted proposal's hash, so
/// two games in one room (each proposal carries a fresh nonce) never accept each other's
/// messages.
pub fn game_tag(room: &[u8; 16], proposal: &[u8; 32]) -> [u8; 16] {
    let mut b = b"orbis-game-tag".to_vec();
    b.extend_from_slice(room);
    b.extend_from_slice(proposal);
    let h = codec::sha256(&b);
    let mut t = [0u8; 16];
    t.copy_from_slice(&h[..16]);
    t
}

/// The outer, version-stable message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope {
    pub version: u16,
    pub game_id: [u8; 16],
    pub sender: PeerKey,
    /// Per-sender message number; one body per (sender, seq).
    pub seq: u64,
    /// Encoded [`Body`].
    pub body: Vec<u8>,
    pub signature: Sig,
}

fn signed_bytes(
    version: u16,
    game_id: &[u8; 16],
    sender: &PeerKey,
    seq: u64,
    body: &[u8],
) -> Vec<u8> {
    let mut b = b"orbis-p2p-envelope".to_vec();
    b.extend_from_slice(&codec::encode(&(version, game_id, sender, seq, body)));
    b
}

/// Commitment to simultaneous orders.
pub fn orders_commitment(round: u32, payload: &[u8], salt: &[u8; 32]) -> [u8; 32] {
    let mut b = b"orbis-orders".to_vec();
    b.extend_from_slice(&round.to_le_bytes());
    b.extend_from_slice(&codec::encode(&payload));
    b.extend_from_slice(salt);
    sha256(&b)
}

/// Why bytes from a link were not accepted as a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireError {
    Undecodable(String),
    UnknownVersion(u16),
    WrongGame,
    BadSignature,
    /// Valid envelope, undecodable body.
    BadBody(String),
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::Undecodable(e) => write!(f, "undecodable message: {e}"),
            WireError::UnknownVersion(v) => write!(
                f,
                "protocol version {v} is not understood (this peer speaks {PROTOCOL_VERSION})"
            ),
            WireError::WrongGame => f.write_str("message belongs to another game"),
            WireError::BadSignature => f.write_str("signature does not verify"),
            WireError::BadBody(e) => write!(f, "undecodable message body: {e}"),
        }
    }
}

impl Envelope {
    /// Signs `body` as message `seq` of `key` in game `game_id` and encodes it.
    pub fn seal(key: &SigningKey, game_id: [u8; 16], seq: u64, body: &Body) -> Vec<u8> {
        let sender = PeerKey(key.verifying_key().to_bytes());
        let body = codec::encode(body);
        let sig = key.sign(&signed_bytes(
            PROTOCOL_VERSION,
            &game_id,
            &sender,
            seq,
            &body,
        ));
        codec::encode(&Envelope {
            version: PROTOCOL_VERSION,
            game_id,
            sender,
            seq,
            body,
            signature: Sig::from_bytes(sig.to_bytes()),
        })
    }

    /// Decodes and authenticates bytes. On error the claimed sender (if the envelope decoded) is
    /// returned too, so a report can name it.
    pub fn open(
        bytes: &[u8],
        game_id: &[u8; 16],
    ) -> Result<(Envelope, Body), (Option<PeerKey>, WireError)> {
        Self::open_where(bytes, |id| id == game_id)
    }

    /// Decodes bytes whose signature this peer has already checked (with
    /// [`Envelope::open_where`]), without checking it again: for messages kept in memory only.
    pub(crate) fn decode_verified(bytes: &[u8]) -> Option<(Envelope, Body)> {
        let env: Envelope = codec::decode(bytes).ok()?;
        let body: Body = codec::decode(&env.body).ok()?;
        Some((env, body))
    }

    /// [`Envelope::open`] for any id `fits` accepts (a room's id, or one of its games').
    pub fn open_where(
        bytes: &[u8],
        fits: impl Fn(&[u8; 16]) -> bool,
    ) -> Result<(Envelope, Body), (Option<PeerKey>, WireError)> {
        let env: Envelope =
            codec::decode(bytes).map_err(|e| (None, WireError::Undecodable(e.to_string())))?;
        let who = Some(env.sender);
        if env.version != PROTOCOL_VERSION {
            return Err((who, WireError::UnknownVersion(env.version)));
        }
        if !fits(&env.game_id) {
            return Err((who, WireError::WrongGame));
        }
        let vk =
            VerifyingKey::from_bytes(&env.sender.0).map_err(|_| (who, WireError::BadSignature))?;
        let sig = Signature::from_bytes(&env.signature.to_bytes());
        vk.verify_strict(
            &signed_bytes(env.version, &env.game_id, &env.sender, env.seq, &env.body),
            &sig,
        )
        .map_err(|_| (who, WireError::BadSignature))?;
        let body: Body =
            codec::decode(&env.body).map_err(|e| (who, WireError::BadBody(e.to_string())))?;
        Ok((env, body))
    }
}

/// The answer to `challenger`'s challenge `c`: it names the challenger, so that an answer
/// solicited by one key (which relayed another's challenge inside its own hello) proves
/// nothing to the other (second look at security review C11).
pub fn link_response(challenger: &PeerKey, c: &[u8; 32]) -> [u8; 32] {
    let mut b = b"orbis-link-response".to_vec();
    b.extend_from_slice(&codec::encode(challenger));
    b.extend_from_slice(c);
    sha256(&b)
}
