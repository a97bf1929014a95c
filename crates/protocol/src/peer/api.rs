//! The peer's public vocabulary: where bytes go ([`Dest`]), what a call produced ([`Output`]),
//! how a peer is configured ([`Config`]) and what it reports ([`ProtocolEvent`], [`Violation`],
//! [`HaltReport`], [`CommandError`]).
//!
//! Invariant: nothing here holds state; every type is plain data the caller may keep or show.

use super::*;
use orbis_engine::rules::economy::action::{EconomyAction, EconomyEvent};

/// The transport's name for a connection (the adapter maps its own peer ids to these).
pub type LinkId = u64;

/// The link a game over days feeds stored messages through ([`Config::stored`]): everything a
/// visit reads comes from the store, over no connection of its own.
pub const STORE_LINK: LinkId = u64::MAX;

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
    pub(crate) fn merge(&mut self, other: Output) {
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
    /// How long the game may wait on our own move or orders (from when it began to) before a
    /// vote that hands our seat over is accepted by us (votes sooner than that halt us naming
    /// the voters); keep it below the time the other players' interfaces wait before they offer
    /// the vote.
    pub turn_grace_ms: u64,
    /// Economy game: how long a declaration window (after each battle roll, or an
    /// interception question) stays open for our seats before our silence is a pass.
    pub declare_ms: u64,
    /// Economy game: the planning "minute": how long after commitments covering a majority
    /// of the players are in our own late seats still may plan.
    pub planning_ms: u64,
    /// What [`Peer::memento`] returned before a reload (our own signed dice reveals and open
    /// votes): the peer halts rather than open one of those rolls for another declaration, and
    /// a vote it signs again names the batch its earlier one named.
    pub remembered: Vec<Vec<u8>>,
    /// A game over days (see `days`): every message goes to a store and every visit is a fresh
    /// peer fed the whole store ([`Peer::visit`]). No hellos, `Sync` heartbeats, resends or
    /// acknowledgements, no `PeerMissing`; `now` is UTC milliseconds (the missed-turn votes
    /// read it against the deadlines of the setup's [`Clock`](crate::wire::Clock)).
    pub stored: bool,
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
            turn_grace_ms: 60_000,
            declare_ms: 8_000,
            planning_ms: 60_000,
            remembered: vec![],
            stored: false,
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
    /// A message of the face-down deal that does not check out (after the game, when it can
    /// no longer halt anything: a secret that is not its key's).
    Deal {
        error: String,
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
    /// A vote from a peer whose vote the control does not need (not a contributor, or the
    /// peer the control is about).
    NotAVoter,
    /// More setup proposals from one peer (or in all) than a lobby keeps.
    TooManyProposals,
    /// More open votes from one peer than [`MAX_OPEN_VOTES`](crate::peer::MAX_OPEN_VOTES).
    TooManyVotes,
    /// Economy game: a seat the sender plays had spent
    /// [`MAX_STEP_POSITIONS`](crate::peer::MAX_STEP_POSITIONS) positions in one step of many
    /// actions (its Get phase, friendly movement, moving on) without ending it: its batch for
    /// the seat at position `round` is void and the seat makes the step's default move.
    StepHeld {
        round: u32,
        seat: PlayerId,
        positions: u32,
    },
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
            Violation::Deal { error } => write!(f, "the deal: {error}"),
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
            Violation::NotAVoter => f.write_str("voted on a control that is not its to vote on"),
            Violation::TooManyVotes => f.write_str("too many open votes"),
            Violation::TooManyProposals => f.write_str("too many setup proposals"),
            Violation::StepHeld {
                round,
                seat,
                positions,
            } => write!(
                f,
                "held seat {seat}'s step for {positions} positions without ending it (round {round})"
            ),
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
    /// `voters` voted us out at log position `at` while we were playing it: the game had
    /// waited on our part there for less than our grace period since it began to
    /// (`Config::turn_grace_ms` for a move or orders, half of `missing_ms` for a dice reveal),
    /// or our part was in (our reveal, our orders, our side of the deal). We do not hand our
    /// seat over; their votes are the evidence.
    VotedOutWhilePlaying { at: u64, voters: Vec<PeerKey> },
    /// `peer` sent a message of the face-down deal that does not check out (a shuffle that
    /// drops or copies a card, a false decryption share, a card shown as another…); `what`
    /// says which proof failed. Its signed message is the evidence.
    Cheat { peer: PeerKey, what: String },
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
    /// Every participant accepted proposal `proposal` and we revealed our seed share, but these
    /// participants have not revealed theirs for `missing_ms`: the game cannot start. Accepting
    /// another proposal (fresh commitments) starts over; a withholder can stall a lobby but
    /// never choose among outcomes it has seen, since every proposal gets new shares.
    RevealWithheld {
        proposal: [u8; 32],
        withholders: Vec<PeerKey>,
    },
    /// The game of `proposal` began here but can never run: participant `by` accepted a newer
    /// proposal before anyone else played it. We are back in the lobby (the newer proposal is
    /// announced again with `SetupProposed`).
    GameAbandoned {
        proposal: [u8; 32],
        by: PeerKey,
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
    /// Economy game: log position `index` was played: the actions the engine took (in the
    /// order applied, computer seats' included) and its events.
    EconomyApplied {
        index: u64,
        actions: Vec<EconomyAction>,
        events: Vec<EconomyEvent>,
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
    /// A face-down game ended at log position `at`: the vote dropped `left`, and nobody can
    /// stand in for its key share (two participants have no escrow, since its one piece would
    /// be the whole key; or a holder of a piece had left before). No card of its can be read
    /// again, so the game stops there, unwon; every secret still there is published.
    GameEnded {
        at: u64,
        left: PeerKey,
    },
    Halted(HaltReport),
    /// Participant `peer`, left out of the game, asks to be let back in (its own signed
    /// readmission at the position the game is on; once per time it was left out).
    /// `left_present`: it was dropped while connected (a withholder, or a player who idled at
    /// an open page), so a person decides; otherwise a page may second it at once. The request
    /// is also in [`Peer::readmit_requests`](crate::Peer::readmit_requests).
    ReadmitRequested {
        peer: PeerKey,
        left_present: bool,
    },
    /// Participant `by` claims that its face-down cards wait for shares `against` withhold (its
    /// `Sync`): a claim, not something we saw (security review B9). An accused that sent its
    /// shares sends them again to everyone, which refutes the claim for every peer that takes
    /// them ([`Peer::withholding`](crate::Peer::withholding) then no longer lists it).
    WithheldClaimed {
        by: PeerKey,
        against: Vec<PeerKey>,
    },
}

/// Whom a participant's face-down cards wait for ([`Peer::withholding`](crate::Peer::withholding)).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Withholding {
    /// What we see ourselves: shares of our own cards that never came, or a key, escrow or
    /// shuffle that never came (every peer sees those broadcasts).
    pub observed: Vec<PeerKey>,
    /// What that participant claims and the accused has not refuted by sending its shares to
    /// everyone.
    pub claimed: Vec<PeerKey>,
}

/// A left-out participant's request to be let back in, open at the position the game is on
/// ([`Peer::readmit_requests`](crate::Peer::readmit_requests)): vote for `control` to second it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadmitRequest {
    pub peer: PeerKey,
    pub control: Control,
    /// It was dropped while connected: not to be seconded without a person deciding.
    pub left_present: bool,
    /// We voted for it already.
    pub seconded: bool,
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
    /// Economy: our influence cards are still being dealt (the deal lacks a participant's
    /// key, escrow or shuffle); we play once they are ([`Peer::waiting_on`] names who).
    CardsBeingDealt,
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for CommandError {}
