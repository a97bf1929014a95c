//! The sans-I/O peer: feed it `(link, bytes, now)` and local commands, send what it returns.
//!
//! Everything a peer accepts is kept as the original signed bytes, so it can relay entries (which
//! exposes equivocation), answer `Sync` requests from lagging or rejoining peers with the
//! transcript, and never needs anyone's word for anything.
//!
//! [`Peer`] is the one entry point (`handle`, `tick`, commands); this module authenticates and
//! de-duplicates messages and routes each to the module that owns its concern:
//!
//! | module | owns |
//! |---|---|
//! | [`api`] | the public types: [`Output`], [`Config`], [`ProtocolEvent`], errors |
//! | `run` | the running game: engine state, applied log, per-concern tables |
//! | `lobby` | hellos' names, proposals, accepts, seed reveals, the start |
//! | `log` | classic entries, checkpoints, halting with evidence |
//! | `beacon` | dice chains and reveals |
//! | `rounds` | commit-reveal of simultaneous orders (orders phases, generic rounds) |
//! | `economy` | the economy ruleset: each engine step a round of action batches, its dice |
//! | `batch` | an economy position's batch: built, completed with defaults, applied |
//! | `votes` | drop / seat-to-bot controls |
//! | `deal`, `redeal` | the face-down deal, and starting it again without a withholder |
//! | `chat` | chat and its acknowledgements |
//! | `resync` | answering `Sync` with the transcript |
//! | `dispatch` | routing an authenticated message to its module |
//! | `waiting` | what the game waits for, and on whom |
//! | `think` | computer moves the caller thinks (a page's Web Worker) |
//!
//! Invariant kept here: a message is handled at most once (by the hash of its bytes), a sender
//! never reuses a sequence number for different content, and a message that could not be judged
//! yet is not marked seen, so it is handled when it comes again.

use crate::chain::{step_n, HashChain};
use crate::wire::game_tag;
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

/// The classic state of a run; the caller returns when the game is of another ruleset (classic
/// code paths are only reached for classic games).
macro_rules! classic {
    ($r:expr) => {
        match &mut $r.state {
            Game::Classic(s) => s,
            _ => return,
        }
    };
}

pub mod api;
mod batch;
mod beacon;
mod chat;
mod clock;
mod days;
mod deal;
mod dispatch;
mod economy;
mod economy_view;
mod equivocation;
mod export;
mod influence;
mod lobby;
mod log;
mod memory;
mod names;
mod redeal;
mod resync;
mod rounds;
mod run;
mod setup;
mod show;
mod think;
mod votebook;
mod votes;
mod waiting;
mod window;
mod withheld;

pub use api::*;
use batch::*;
pub use batch::{MAX_BATCH_ACTIONS, MAX_STEP_POSITIONS};
use beacon::*;
use chat::*;
pub use clock::{deadlines, phase_length, Due, Next};
use days::*;
pub use days::{missed_indices, LobbyDue, DISORDER_LEVEL};
use deal::*;
use economy::*;
pub use export::{
    check, replay, verify, Checked, DealReport, OrdersPower, Outcome, Replayed, Report, Stop,
    Transcript, VerifyError, TRANSCRIPT_MAGIC,
};
use influence::*;
use lobby::*;
use log::*;
pub use memory::MEMENTO_ROLLS;
use memory::*;
use names::*;
use rounds::*;
pub use run::game_hash;
use run::*;
pub use setup::check_proposal;
use setup::*;
pub use think::Thought;
use think::Thoughts;
use votebook::*;
pub use votes::{MAX_OPEN_VOTES, PROBE_EVERY_MS};
use window::Window;

/// Messages kept in the junk window (see `Peer::junk`): about 0.5 MB at most.
pub(super) const MAX_JUNK: usize = 8192;

/// Refused messages per participant whose sequence numbers are kept taken.
pub(super) const MAX_REFUSED_SEQS: u32 = 65_536;

/// The protocol state machine of one peer. Cloning it forks the peer (for tests and tools).
#[derive(Clone)]
pub struct Peer {
    cfg: Config,
    key: SigningKey,
    me: PeerKey,
    seq: u64,
    chain: HashChain,
    /// The proposal `chain` belongs to (each proposal gets its own chains).
    chain_for: Option<[u8; 32]>,
    /// Rolls we opened before a reload (see `memory`).
    pins: BTreeMap<u32, Pin>,
    /// Votes we signed before a reload (see `memory`).
    cast: Vec<Cast>,
    /// Our chains after the first, built when first needed.
    later_chains: BTreeMap<u32, HashChain>,
    /// The room's names and which connection each key is bound to (see `names`): a key is
    /// bound to a connection only by answering that connection's challenge (security review
    /// C11), so private messages (chat, decryption shares) go only where their recipient
    /// proved itself.
    names: Names,
    seen: BTreeSet<[u8; 32]>,
    /// Messages refused, dropped or kept for nothing (hellos, sync requests, batches, chat):
    /// remembered so that a copy costs no signature check, in a window of [`MAX_JUNK`] (oldest
    /// forgotten first), so a flood of them does not grow our memory.
    junk: Window<[u8; 32], ()>,
    seqs: BTreeMap<(PeerKey, u64), [u8; 32]>,
    my_hello: Option<Vec<u8>>,
    /// Refused messages of each participant whose sequence numbers we keep (bounded).
    refused_seqs: BTreeMap<PeerKey, u32>,
    /// Proposals, accepts, seed reveals and deferred messages (see `lobby`).
    lobby: Lobby,
    run: Option<Run>,
    halted: Option<HaltReport>,
    last_progress: Option<u64>,
    last_heard: BTreeMap<PeerKey, u64>,
    missing: BTreeSet<PeerKey>,
    now: u64,
    in_batch: bool,
    last_answer: BTreeMap<LinkId, u64>,
    /// Each participant's last `Sync` that came over a connection it is not bound to, answered
    /// over the next connection it proves itself on (see `resync`).
    unanswered: BTreeMap<PeerKey, resync::SyncAsk>,
    /// Signed messages proving why we halted.
    evidence: Vec<Vec<u8>>,
    /// A checkpoint disagreed: the halt report, its evidence and when, while we look for an
    /// equivocation that explains it.
    suspect: Option<(HaltReport, Vec<Vec<u8>>, u64)>,
    /// Our chat messages awaiting acknowledgements, and the ids of those delivered to us.
    chat: ChatBox,
    /// Messages dropped as exact duplicates (network duplication, relays, resends, replays).
    pub duplicates: u64,
    /// Messages of another game in this room (signed under another game's id), dropped.
    pub other_games: u64,
    /// Set by a handler that used a message but keeps nothing of it (a proposal while a game
    /// runs): it goes to the junk window, not to `seen` (security review C10).
    unkept: bool,
    /// A viewer's replay (`export::replay`): the running game keeps its state after every log
    /// position (`Run::snapshots`).
    keep_states: bool,
    /// Signatures checked (each message once, however often the lobby moves: security review
    /// C10), for tests and a debug view.
    pub signature_checks: u64,
    /// Deferred messages run again (each new proposal or accept runs only those that waited
    /// for it; the start runs them all): tests read it to bound the lobby's work.
    pub deferred_runs: u64,
    /// Positions of our face-down cards we cannot read, with when we last asked for their
    /// shares (or first saw them unread): one still unread a resend period later is asked for
    /// again, whether or not the game moves on (a reloaded page's mission, read before the
    /// reload, blocks no move, so no stall ever asked for it).
    unread_asked: BTreeMap<(u8, u16), u64>,
    /// A fork of this peer resolving a position past our own open vote there, to learn the log
    /// head that resolution gives (see `votes::held_by_vote`); never set on a real peer.
    probing: bool,
    /// The last such probe, so a stream of messages while we are held costs at most one fork
    /// per [`PROBE_EVERY_MS`].
    probed: Option<votes::Probed>,
    /// When `tick` last looked whether our own open vote still holds us.
    held_looked: u64,
    /// The classic position our own vote holds us at, and when we first saw each voter we wait
    /// on move past it (see `votes::held_by_vote`).
    past_seen: Option<(u64, BTreeMap<PeerKey, u64>)>,
    /// Stored mode, while a visit reads the store: we sign nothing until it is all read
    /// (`days`: [`Peer::caught_up`]).
    quiet: bool,
    /// Computer moves the caller thinks (see `think`).
    thoughts: Thoughts,
    /// Over days, the round at which our player said no other device of theirs sent orders
    /// (`days`: [`Peer::not_sent_elsewhere`]).
    overruled: Option<u64>,
}

impl Peer {
    /// A peer with the given configuration; nothing is sent until [`Peer::start`].
    pub fn new(cfg: Config) -> Peer {
        let key = SigningKey::from_bytes(&cfg.identity_secret);
        let me = PeerKey(key.verifying_key().to_bytes());
        let chain = HashChain::new(cfg.chain_secret, cfg.chain_len);
        let pins = load_pins(&cfg.remembered, me);
        let cast = load_cast(&cfg.remembered, me);
        Peer {
            seq: cfg.seq_start,
            cfg,
            key,
            me,
            chain,
            chain_for: None,
            pins,
            cast,
            later_chains: BTreeMap::new(),
            names: Names::new(),
            seen: BTreeSet::new(),
            junk: Window::new(MAX_JUNK),
            seqs: BTreeMap::new(),
            my_hello: None,
            refused_seqs: BTreeMap::new(),
            lobby: Lobby::default(),
            run: None,
            halted: None,
            last_progress: None,
            last_heard: BTreeMap::new(),
            missing: BTreeSet::new(),
            now: 0,
            in_batch: false,
            last_answer: BTreeMap::new(),
            unanswered: BTreeMap::new(),
            evidence: vec![],
            suspect: None,
            chat: ChatBox::default(),
            duplicates: 0,
            other_games: 0,
            signature_checks: 0,
            deferred_runs: 0,
            unkept: false,
            probing: false,
            probed: None,
            held_looked: 0,
            past_seen: None,
            quiet: false,
            keep_states: false,
            unread_asked: BTreeMap::new(),
            thoughts: Thoughts::default(),
            overruled: None,
        }
    }

    /// This peer's public key.
    pub fn key(&self) -> PeerKey {
        self.me
    }

    /// The link a peer's messages last came over, if any.
    pub fn link_of(&self, k: &PeerKey) -> Option<LinkId> {
        self.names.link_of(k)
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

    /// The id the running game's messages are signed under ([`game_tag`]).
    pub fn game_tag(&self) -> Option<[u8; 16]> {
        self.run.as_ref().map(|r| r.tag)
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

    /// Entries in each of our tables, for a debug view and for tests that check a flood of
    /// hostile messages leaves them bounded.
    pub fn table_sizes(&self) -> Vec<(&'static str, usize)> {
        let mut t = vec![
            ("seen", self.seen.len()),
            ("junk", self.junk.len()),
            ("seqs", self.seqs.len()),
            ("last_heard", self.last_heard.len()),
            ("unanswered", self.unanswered.len()),
            ("proposals", self.lobby.proposals.len()),
            ("proposers", self.lobby.proposers.len()),
            (
                "accepts",
                self.lobby.accepts.values().map(BTreeMap::len).sum(),
            ),
            ("early", self.lobby.early.len()),
        ];
        t.extend(self.names.sizes());
        if let Some(r) = &self.run {
            t.extend([
                ("log", r.log.len()),
                ("votes", r.votes.len()),
                ("candidates", r.candidates.values().map(Vec::len).sum()),
                ("future_reveals", r.future_reveals.len()),
                ("rounds", r.orders.len()),
                ("their_checkpoints", r.their_checkpoints.len()),
            ]);
        }
        t
    }

    /// The invariants of our tables that can be read off them (today those of `names`: keys
    /// and connections bound one to one, every bound key's binding number kept); the first
    /// broken one. The adversary harness checks it after every step.
    pub fn check_tables(&self) -> Result<(), String> {
        self.names.check()
    }

    /// Names announced by peers.
    pub fn names(&self) -> &BTreeMap<PeerKey, String> {
        self.names.all()
    }

    fn seal(&mut self, body: &Body) -> Vec<u8> {
        let id = self.id_for(body);
        let raw = Envelope::seal(&self.key, id, self.seq, body);
        self.seq = self.seq.saturating_add(1);
        raw
    }

    /// The id `body` is signed under: the running game's tag for game messages and a started
    /// peer's `Sync` ([`Body::under_game`]), else the room's.
    fn id_for(&self, body: &Body) -> [u8; 16] {
        match &self.run {
            Some(r) if body.under_game() => r.tag,
            _ => self.cfg.game_id,
        }
    }

    /// Ids a received message may carry: the room's, or (game messages) the running game's.
    /// Game messages before a start are kept and checked again once the game is known.
    fn id_fits(&self, id: &[u8; 16]) -> bool {
        *id == self.cfg.game_id || self.run.as_ref().is_some_and(|r| r.tag == *id)
    }

    /// The guard every game command starts with: not halted, a game running and (when
    /// `live`) not over. Ruleset and seat checks follow in each command.
    fn running(&self, live: bool) -> Result<&Run, CommandError> {
        if self.halted.is_some() {
            return Err(CommandError::Halted);
        }
        let r = self.run.as_ref().ok_or(CommandError::NotStarted)?;
        if live && r.over() {
            return Err(CommandError::GameOver);
        }
        Ok(r)
    }

    /// Announces this peer; call once when the transport is up (and again after reconnecting).
    pub fn start(&mut self, now_ms: u64) -> Output {
        self.now = now_ms;
        self.last_progress = Some(now_ms);
        let raw = self.seal(&Body::Hello {
            name: self.cfg.name.clone(),
            answer: false,
            challenge: None,
            response: None,
        });
        self.my_hello = Some(raw.clone());
        Output {
            send: vec![(Dest::All, raw)],
            events: vec![],
        }
    }

    /// Broadcasts our own message and processes it as if received.
    fn local(&mut self, raw: Vec<u8>) -> Output {
        // A command: the caller has read what it meant to read.
        self.quiet = false;
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
        if self.cfg.stored && from == STORE_LINK {
            // Catching up: nothing is signed until `caught_up`.
            self.quiet = true;
        }
        self.receive(Some(from), bytes, now_ms)
    }

    /// Timers: resend requests after a stall, missing-peer detection.
    pub fn tick(&mut self, now_ms: u64) -> Output {
        self.now = self.now.max(now_ms);
        let mut out = Output::default();
        // Over days there is no connection to keep or heartbeat to send: a visit does what is
        // due in `caught_up`.
        if self.halted.is_some() || self.cfg.stored {
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
        if self.proof_overdue() {
            // No drop of the equivocator came: the round counts, and we hold proof it
            // equivocated in it (`Peer::judge_proof`).
            self.advance(&mut out);
            if self.halted.is_some() {
                return out;
            }
        }
        if self.holds_open_vote() && now_ms >= self.held_looked.saturating_add(PROBE_EVERY_MS) {
            // What lets our vote go may have come within one probe period of the last look
            // (no more often: a page ticks at every poll, and `advance` retries the deal).
            self.held_looked = now_ms;
            self.advance(&mut out);
        }
        self.check_withheld(&mut out);
        self.economy_timers(&mut out);
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
            let body = self.sync_body();
            let raw = self.seal(&body);
            out.send.push((Dest::All, raw));
            self.unread_asked.clear();
        } else if !over && self.unread_overdue(now_ms) {
            let body = self.sync_body();
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

    /// The sender's participant index in the running game `r`; a message of anyone else is
    /// refused (the prelude of every in-game handler).
    fn from_participant(
        r: &Run,
        out: &mut Output,
        link: Option<LinkId>,
        sender: PeerKey,
    ) -> Option<u8> {
        let p = r.participant(&sender);
        if p.is_none() {
            Self::reject(out, link, Some(sender), Violation::NotParticipant);
        }
        p
    }

    fn receive(&mut self, link: Option<LinkId>, bytes: &[u8], now: u64) -> Output {
        let mut out = Output::default();
        if self.halted.is_some() {
            // Still answer requests, with the evidence only.
            if let (Some(l), Ok((_, Body::Sync { .. }))) =
                (link, Envelope::open_where(bytes, |id| self.id_fits(id)))
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
        if self.seen.contains(&id) || self.junk.contains(&id) {
            self.duplicates += 1;
            if let (Some(l), true) = (link, self.chat.delivered.contains(&id)) {
                // A resent chat: our acknowledgement was lost (or is still on its way).
                let raw = self.seal(&Body::ChatAck { id });
                out.send.push((Dest::Link(l), raw));
            }
            return out;
        }
        let room = self.cfg.game_id;
        self.signature_checks += 1;
        let (env, body) = match Envelope::open_where(bytes, |_| true) {
            Ok(x) if x.1.under_game() || x.0.game_id == room => x,
            Ok((env, _)) => {
                self.remember_junk(id);
                Self::reject(
                    &mut out,
                    link,
                    Some(env.sender),
                    Violation::Wire(WireError::WrongGame),
                );
                return out;
            }
            Err((who, e)) => {
                self.remember_junk(id);
                Self::reject(&mut out, link, who, Violation::Wire(e));
                return out;
            }
        };
        self.receive_opened(link, bytes, id, env, body, now)
    }

    /// [`Peer::receive`] after the signature checked out (deferred messages come back here,
    /// never to be verified again: security review C10).
    fn receive_opened(
        &mut self,
        link: Option<LinkId>,
        bytes: &[u8],
        id: [u8; 32],
        env: Envelope,
        body: Body,
        now: u64,
    ) -> Output {
        let mut out = Output::default();
        let room = self.cfg.game_id;
        let sender = env.sender;
        if body.under_game()
            && (env.game_id == room || (self.run.is_some() && !self.id_fits(&env.game_id)))
        {
            // A game message of another game: one of this room under its own id (replayed, or
            // from an earlier session), or an old one under the room's. It is nobody's evidence
            // of anything here: dropped without blame. (Before our game starts, game messages
            // wait and are checked once its id is known; a started peer's `Sync` is answered,
            // and says nothing more until we run its game.)
            self.remember_junk(id);
            self.other_games += 1;
            return out;
        }
        let body_hash = sha256(&env.body);
        match self.seqs.get(&(sender, env.seq)) {
            // A deal message under a used number goes on to the deal, which takes a copy once
            // and holds two different keys, escrows or shuffles of one slot as proof of
            // cheating, with both signed messages (security review A4): refused here, the second
            // would never meet the first.
            // So do a dice reveal and a log entry: a forged pre-image, or an entry the engine
            // refuses, under the number of the sender's true one (sent to one peer, the true
            // one to the others) is refused by the beacon or the log, which check each on its
            // own (two signed entries for one position are equivocation there), and the true
            // one, relayed by the others, still counts. Refused here, it left that one peer
            // stalled at that position while the others played on, waited on it and voted it
            // out (issue 30 D, `tests/adversary/`:
            // `a_forged_reveal_under_the_true_ones_number_stalls_nobody`; entries: seed 24 of
            // its harness, `SplitEntries`). So does a checkpoint: a false one under the number
            // of the true one, relayed as a halted peer's evidence, is what makes us halt too
            // (refused here, the peer it was not sent to waited for ever on the halted ones:
            // seed 21 of the harness, `SplitCheckpoints`, once C11's hellos moved its timing).
            // So do a round's commitment and reveal: another one under the same number, sent
            // to one peer, is the equivocation `rounds` names (refused here, the victim played
            // the round with the one version and the others with the other, and each named the
            // other's checkpoint: `split_commitments_halt_every_honest_peer_naming_the_sender`).
            // So does a vote: the vote table holds one per voter, control and position whatever
            // its number. Refused here, whether a vote counted depended on whether it came
            // before or after another message under its number: a spam vote for a later
            // position, taken live before the round reveal sent under the same number, was
            // refused by `orbis verify`, which replays the transcript's reveal first (economy
            // long-run seed 5000133). So do the end of game's deal secret and pieces: each is
            // checked against its commitment, so only the true one counts, and refused here, a
            // vote taken before the secret under its number cost `verify` that sender's secret.
            Some(h)
                if *h != body_hash
                    && !matches!(
                        body,
                        Body::Deal { .. }
                            | Body::Reveal { .. }
                            | Body::Entry(_)
                            | Body::Checkpoint { .. }
                            | Body::OrdersCommit { .. }
                            | Body::OrdersReveal { .. }
                            | Body::Vote { .. }
                            | Body::DealSecret { .. }
                            | Body::DealPieces { .. }
                    ) =>
            {
                self.remember_junk(id);
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
            if self.names.bound_to(&sender, l) {
                self.last_heard.insert(sender, now);
                if self.missing.remove(&sender) {
                    out.events
                        .push(ProtocolEvent::PeerReturned { peer: sender });
                }
            }
        }
        if let (Some(l), false) = (link, self.in_batch) {
            // Messages that are never relayed suggest which connection reaches their signer
            // now (a peer can be reachable on a newer connection than its hello's). They bind
            // nothing: any of them can be solicited from its signer and forwarded by another
            // peer over that peer's own connection (security review C11: a forwarded chat
            // acknowledgement moved the victim's private chat and decryption shares there).
            // A free connection is challenged instead; only its signer can answer.
            let named = self.names.is_named(&sender)
                || self
                    .run
                    .as_ref()
                    .is_some_and(|r| r.participant(&sender).is_some());
            if matches!(
                body,
                Body::Sync { .. } | Body::Batch { .. } | Body::ChatAck { .. }
            ) && named
                && sender != self.me
                && self.names.link_of(&sender) != Some(l)
                && self.names.key_on(l).is_none()
            {
                self.challenge(l, &mut out);
            }
        }
        // Only what changes our state is remembered for good; the rest (and anything refused)
        // goes to the bounded junk window (security review, finding 8).
        let keep = !matches!(
            body,
            Body::Hello { .. }
                | Body::Sync { .. }
                | Body::Batch { .. }
                | Body::Chat { .. }
                | Body::ChatAck { .. }
        );
        let before = out.events.len();
        self.unkept = false;
        let consumed = self.dispatch(link, sender, env.seq, body, bytes, &mut out);
        let keep = keep && !std::mem::take(&mut self.unkept);
        if consumed {
            let refused = out.events[before..].iter().any(
                |e| matches!(e, ProtocolEvent::Rejected { peer: Some(p), .. } if *p == sender),
            );
            if keep && !refused {
                self.seen.insert(id);
                self.seqs.insert((sender, env.seq), body_hash);
            } else {
                self.remember_junk(id);
                // A participant's refused message keeps its sequence number taken, so it
                // cannot send other bytes under that number later (up to a bound per
                // participant; a stranger's refused messages are not worth any memory).
                let participant = self
                    .run
                    .as_ref()
                    .is_some_and(|r| r.participant(&sender).is_some());
                if refused && participant {
                    let n = self.refused_seqs.entry(sender).or_insert(0);
                    if *n < MAX_REFUSED_SEQS {
                        *n += 1;
                        self.seqs.insert((sender, env.seq), body_hash);
                    }
                }
            }
        }
        out
    }

    /// Forgets a message kept until now (its table entry is gone): its id moves to the junk
    /// window and its sequence number is free again.
    pub(super) fn forget(&mut self, raw: &[u8]) {
        let id = sha256(raw);
        if self.seen.remove(&id) {
            self.remember_junk(id);
        }
        if let Some((env, _)) = Envelope::decode_verified(raw) {
            self.seqs.remove(&(env.sender, env.seq));
        }
    }

    /// Remembers a message in the bounded junk window.
    fn remember_junk(&mut self, id: [u8; 32]) {
        self.junk.add(id);
    }
}
