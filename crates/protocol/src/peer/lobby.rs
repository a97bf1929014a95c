//! Lobby: hellos' names, setup proposals, accepts (each a commitment to a seed share and a dice
//! chain), seed reveals, and the start of the game once every participant has revealed.
//!
//! Owns `Peer::proposals`, `accepts`, `seed_reveals`, `my_accept`, the messages deferred until
//! a game runs (`early`), and the handshake of hellos; the names and bindings those hellos make
//! are kept in `names::Names`, which keeps their invariants.
//!
//! Invariant on connections: a key is bound to a connection (where its private chat and
//! decryption shares go) only by a hello over it that answers our challenge for that very
//! connection, so no message solicited from a peer and forwarded by another moves it (security
//! review C11).
//!
//! Invariant: a game starts only from a proposal every participant signed an accept for, with a
//! seed that mixes every participant's revealed share (each checked against its commitment), so
//! no single peer chooses it; before that no log message is judged, only kept (bounded). Every
//! table here has a named bound a stranger cannot push past ([`MAX_PROPOSALS`],
//! [`MAX_PROPOSALS_PER_PEER`], [`MAX_EARLY`], [`MAX_NAMES`]); what leaves a table leaves `seen`
//! and `seqs` too; keys in the room (ours, or the key of a connection) and a running game's
//! participants are preferred over others when a table is full; a deferred message is verified
//! once (security review C10).

use super::*;

/// The lobby state of a peer, kept after the start so a `Sync` can repeat the lobby transcript.
#[derive(Clone, Debug, Default)]
pub(super) struct Lobby {
    pub(super) proposals: BTreeMap<[u8; 32], (SetupProposal, Vec<u8>)>,
    pub(super) accepts: BTreeMap<[u8; 32], BTreeMap<PeerKey, Accepted>>,
    pub(super) seed_reveals: BTreeMap<[u8; 32], BTreeMap<PeerKey, SeedShare>>,
    /// The proposal we accepted (we commit to one seed share and chain only once).
    pub(super) my_accept: Option<[u8; 32]>,
    /// Hashes of the proposals kept per signer, oldest first (at most [`MAX_PROPOSALS_PER_PEER`]).
    pub(super) proposers: BTreeMap<PeerKey, Vec<[u8; 32]>>,
    /// Messages that cannot be judged before the game starts (bounded by `MAX_EARLY`), with
    /// their signature already checked: they are run again whenever the lobby moves, never
    /// verified again (security review C10).
    pub(super) early: Vec<Deferred>,
    /// Deferred messages per signer (at most [`MAX_EARLY_PER_PEER`] each).
    pub(super) early_per: BTreeMap<PeerKey, usize>,
    /// Sequence number of the accept that set `my_accept` (a reloaded peer learns its own
    /// accepts from a transcript; the newest one counts).
    pub(super) my_accept_seq: u64,
    /// When we revealed our share for `my_accept`, and whether a withholder was reported.
    pub(super) revealed_at: Option<(u64, bool)>,
    /// Proposals whose game we dropped because a participant moved on before it began.
    pub(super) abandoned: BTreeSet<[u8; 32]>,
}

/// A message kept until the game starts: where it came from and its bytes, whose signature
/// checked out when it came.
#[derive(Clone, Debug)]
pub(super) struct Deferred {
    pub(super) link: Option<LinkId>,
    pub(super) raw: Vec<u8>,
    /// Its signer (counted in `early_per`).
    pub(super) sender: PeerKey,
    /// What it waits for: only that runs it again.
    pub(super) waits: Awaits,
}

/// What a deferred message needs before it can be judged. A new proposal or accept runs again
/// only the messages that waited for it, so a stream of proposals costs a bounded amount of
/// work each, not a pass over every buffered message (issue 59, item 5: about 10 ms a proposal
/// in a debug build with the buffer full).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Awaits {
    /// The game: every game message before the start.
    Start,
    /// An accept: the proposal it accepts.
    Proposal([u8; 32]),
    /// A seed reveal: its signer's accept of that proposal.
    Accept([u8; 32], PeerKey),
}

/// Buffered messages received before the game started.
pub(super) const MAX_EARLY: usize = 4096;
/// Of those, from one signer: a game's opening needs a few dozen per peer.
pub(super) const MAX_EARLY_PER_PEER: usize = 256;

/// A secret of ours for one proposal only (`tag` names its use): seed shares and dice chains are
/// never reused across proposals or games, yet a reloaded peer derives the same ones again.
pub(super) fn per_proposal(tag: &[u8], secret: &[u8; 32], proposal: &[u8; 32]) -> [u8; 32] {
    let mut b = tag.to_vec();
    b.extend_from_slice(secret);
    b.extend_from_slice(proposal);
    sha256(&b)
}

pub(super) fn seed_commitment(secret: &[u8; 32]) -> [u8; 32] {
    let mut b = b"orbis-seed-commit".to_vec();
    b.extend_from_slice(secret);
    sha256(&b)
}

/// An opened seed share and its signed message.
pub(super) type SeedShare = ([u8; 32], Vec<u8>);

#[derive(Clone, Debug)]
pub(super) struct Accepted {
    /// Its message number: a participant's newest accept is the one it stands by.
    pub(super) seq: u64,
    pub(super) seed_commit: [u8; 32],
    pub(super) chain_tip: [u8; 32],
    pub(super) chain_len: u32,
    pub(super) raw: Vec<u8>,
}

fn me_in(p: &SetupProposal, me: PeerKey) -> bool {
    p.participants.contains(&me)
}

/// Setup proposals kept from one signer (its newest), and in all: a lobby needs a few; more are
/// not kept, so a key that sends thousands cannot grow our tables.
pub(super) const MAX_PROPOSALS_PER_PEER: usize = 4;
pub(super) const MAX_PROPOSALS: usize = 64;
/// How long a key stays present without a message: a full table of names forgets keys silent
/// for longer first.
pub(super) const PRESENCE_MS: u64 = 75_000;

impl Peer {
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
        let Some((p, _)) = self.lobby.proposals.get(&hash) else {
            return Err(CommandError::UnknownProposal);
        };
        if !p.participants.contains(&self.me) {
            return Err(CommandError::NotParticipant);
        }
        if self.lobby.my_accept == Some(hash) {
            return Ok(Output::default());
        }
        // Accepting another proposal abandons the one accepted before (whose reveal may be
        // withheld): this peer will only ever start the proposal it accepted last. The shares
        // are new, so nothing seen of the old one helps anyone choose the new outcome.
        self.use_chain_of(hash);
        let raw = self.seal(&Body::Accept {
            proposal: hash,
            seed_commit: seed_commitment(&self.seed_share(&hash)),
            chain_tip: self.chain.tip(),
            chain_len: self.chain.len(),
        });
        Ok(self.local(raw))
    }

    /// Our seed share for proposal `hash`.
    pub(super) fn seed_share(&self, hash: &[u8; 32]) -> [u8; 32] {
        per_proposal(b"orbis-seed-share", &self.cfg.seed_secret, hash)
    }

    /// Makes our dice chain the one for proposal `hash` (built once per proposal).
    pub(super) fn use_chain_of(&mut self, hash: [u8; 32]) {
        if self.chain_for != Some(hash) {
            self.chain_for = Some(hash);
            self.chain = HashChain::new(self.chain_secret_of(&hash), self.cfg.chain_len);
            self.later_chains.clear();
        }
    }

    /// The secret under our first dice chain for proposal `hash`.
    pub(super) fn chain_secret_of(&self, hash: &[u8; 32]) -> [u8; 32] {
        per_proposal(b"orbis-chain", &self.cfg.chain_secret, hash)
    }

    /// A participant of our game signed an accept for another proposal after its accept of
    /// ours: it gave up on our game before starting it (say our last seed reveal reached us but
    /// not it, and the room proposed again). If nobody but us has shown any sign of playing, the
    /// game can never run: we drop it and go back to the lobby, where that proposal can be
    /// accepted. Once anyone else has played, nothing is dropped (a seat that walks away from a
    /// running game is voted out instead).
    fn maybe_abandon(&mut self, sender: PeerKey, seq: u64, proposal: [u8; 32], out: &mut Output) {
        let Some(r) = &self.run else { return };
        let ours = r.proposal_hash;
        if proposal == ours
            || sender == self.me
            || !r.proposal.participants.contains(&sender)
            || r.reached.keys().any(|k| *k != self.me)
        {
            return;
        }
        let before = self.lobby.accepts.get(&ours).and_then(|m| m.get(&sender));
        if before.is_none_or(|a| seq <= a.seq) {
            return;
        }
        self.run = None;
        self.lobby.abandoned.insert(ours);
        self.lobby.my_accept = None;
        self.lobby.revealed_at = None;
        out.events.push(ProtocolEvent::GameAbandoned {
            proposal: ours,
            by: sender,
        });
        if let Some((p, _)) = self.lobby.proposals.get(&proposal) {
            out.events.push(ProtocolEvent::SetupProposed {
                by: sender,
                hash: proposal,
                proposal: p.clone(),
            });
        }
    }

    /// Names the participants who accepted our proposal but have not revealed their seed
    /// share `missing_ms` after we revealed ours (once per accepted proposal).
    pub(super) fn check_withheld(&mut self, out: &mut Output) {
        let (Some(h), Some((at, false))) = (self.lobby.my_accept, self.lobby.revealed_at) else {
            return;
        };
        if self.run.is_some() || self.now < at.saturating_add(self.cfg.missing_ms) {
            return;
        }
        let Some((p, _)) = self.lobby.proposals.get(&h) else {
            return;
        };
        let revs = self.lobby.seed_reveals.get(&h);
        let withholders: Vec<PeerKey> = p
            .participants
            .iter()
            .filter(|k| !revs.is_some_and(|m| m.contains_key(*k)))
            .copied()
            .collect();
        self.lobby.revealed_at = Some((at, true));
        if !withholders.is_empty() {
            out.events.push(ProtocolEvent::RevealWithheld {
                proposal: h,
                withholders,
            });
        }
    }

    /// Keeps a message that cannot be judged before the game starts: at most
    /// [`MAX_EARLY_PER_PEER`] per signer and [`MAX_EARLY`] in all (each is checked again
    /// whenever the lobby moves, so the bound is also a bound on that work).
    pub(super) fn defer(&mut self, link: Option<LinkId>, sender: PeerKey, raw: &[u8]) -> bool {
        self.defer_until(link, sender, raw, Awaits::Start)
    }

    /// As [`Peer::defer`], for a message that `waits` for a proposal or an accept.
    pub(super) fn defer_until(
        &mut self,
        link: Option<LinkId>,
        sender: PeerKey,
        raw: &[u8],
        waits: Awaits,
    ) -> bool {
        let theirs = self.lobby.early_per.get(&sender).copied().unwrap_or(0);
        if self.lobby.early.len() < MAX_EARLY && theirs < MAX_EARLY_PER_PEER {
            *self.lobby.early_per.entry(sender).or_insert(0) += 1;
            self.lobby.early.push(Deferred {
                link,
                raw: raw.to_vec(),
                sender,
                waits,
            });
            true
        } else {
            false
        }
    }

    pub(super) fn try_lobby(&mut self, out: &mut Output) {
        if self.run.is_some() {
            return;
        }
        let hashes: Vec<[u8; 32]> = self.lobby.proposals.keys().copied().collect();
        for h in hashes {
            let Some((p, _)) = self.lobby.proposals.get(&h) else {
                continue;
            };
            let p = p.clone();
            if (p.participants.contains(&self.me) && self.lobby.my_accept != Some(h))
                || self.lobby.abandoned.contains(&h)
            {
                // A participant starts only the proposal it accepted last.
                continue;
            }
            let acc = self.lobby.accepts.get(&h);
            let all_accepted = p
                .participants
                .iter()
                .all(|k| acc.is_some_and(|m| m.contains_key(k)));
            if !all_accepted {
                continue;
            }
            let mine_revealed = self
                .lobby
                .seed_reveals
                .get(&h)
                .is_some_and(|m| m.contains_key(&self.me));
            if self.lobby.my_accept == Some(h) && !mine_revealed && !self.quiet {
                let secret = self.seed_share(&h);
                let raw = self.seal(&Body::SeedReveal {
                    proposal: h,
                    secret,
                });
                out.send.push((Dest::All, raw.clone()));
                self.lobby
                    .seed_reveals
                    .entry(h)
                    .or_default()
                    .insert(self.me, (secret, raw));
                self.lobby.revealed_at = Some((self.now, false));
            }
            let revs = self.lobby.seed_reveals.get(&h);
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

    pub(super) fn begin(&mut self, hash: [u8; 32], p: SetupProposal, out: &mut Output) {
        let mut b = b"orbis-game-seed".to_vec();
        b.extend_from_slice(&hash);
        for k in &p.participants {
            if let Some((s, _)) = self.lobby.seed_reveals.get(&hash).and_then(|m| m.get(k)) {
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
        let acc = self.lobby.accepts.get(&hash);
        let mut chains = vec![];
        let mut chain_lens = vec![];
        for k in &p.participants {
            let a = acc.and_then(|m| m.get(k));
            chains.push((0, a.map_or([0; 32], |a| a.chain_tip)));
            chain_lens.push(a.map_or(0, |a| a.chain_len));
        }
        if me_in(&p, self.me) {
            self.use_chain_of(hash);
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
            tag: game_tag(&self.cfg.game_id, &hash),
            proposal: p,
            proposal_hash: hash,
            me,
            state,
            powers,
            log: vec![],
            heads: vec![sha256(&g)],
            snapshots: None,
            roll_count: 0,
            pending: None,
            economy: None,
            held: Held::new(),
            reveals: BTreeMap::new(),
            future_reveals: BTreeMap::new(),
            chains,
            chain_ends: chain_lens.clone(),
            chain_next: vec![None; chain_lens.len()],
            chain_lens,
            candidates: BTreeMap::new(),
            refused: None,
            checkpoints: BTreeMap::new(),
            their_checkpoints: BTreeMap::new(),
            orders: BTreeMap::new(),
            excluded: BTreeSet::new(),
            dropped_at: BTreeMap::new(),
            deferred_halts: Vec::new(),
            halted_on_proof: false,
            bot_seats: BTreeMap::new(),
            readmits: BTreeMap::new(),
            left_present: BTreeSet::new(),
            asked: BTreeSet::new(),
            votes: VoteBook::default(),
            controls_here: vec![],
            voted_rolling: BTreeSet::new(),
            reached: BTreeMap::new(),
            since: (0, self.now, !self.in_batch),
            joined: self.in_batch.then_some(self.now),
            deal: None,
            last_checkpoints: BTreeMap::new(),
            sync_heads: BTreeMap::new(),
            withheld: BTreeMap::new(),
            claimed_unread: BTreeMap::new(),
            claim_seqs: BTreeMap::new(),
            shared: BTreeMap::new(),
            ended: None,
            days: DaysRun::default(),
        });
        if let Some(r) = &mut self.run {
            if self.keep_states {
                r.snapshots = Some(vec![r.state.clone()]);
            }
            r.deal = DealRun::start(r, me, &self.cfg.identity_secret);
        }
        self.deal_flush(out);
        self.progress();
        out.events.push(ProtocolEvent::GameStarted {
            proposal: hash,
            seed,
        });
        self.restore_cast(out);
        self.advance(out);
        self.replay_early(out);
    }

    /// Runs every deferred message again (the game started); those still premature are
    /// deferred again.
    pub(super) fn replay_early(&mut self, out: &mut Output) {
        self.replay_waiting(out, |_| true);
    }

    /// Runs again the deferred messages that waited for what `came` says; the others stay.
    pub(super) fn replay_waiting(&mut self, out: &mut Output, came: impl Fn(Awaits) -> bool) {
        let (early, keep): (Vec<Deferred>, Vec<Deferred>) = std::mem::take(&mut self.lobby.early)
            .into_iter()
            .partition(|d| came(d.waits));
        if early.is_empty() {
            self.lobby.early = keep;
            return;
        }
        for d in &early {
            if let Some(n) = self.lobby.early_per.get_mut(&d.sender) {
                *n = n.saturating_sub(1);
            }
        }
        self.lobby.early_per.retain(|_, n| *n > 0);
        self.lobby.early = keep;
        self.deferred_runs += early.len() as u64;
        for d in early {
            if self.halted.is_some() {
                return;
            }
            // These were marked as consumed when deferred; let them through the dedup set again.
            let id = sha256(&d.raw);
            self.seen.remove(&id);
            let now = self.now;
            // Its signature checked out when it came: decoded again, not verified again.
            let o = match Envelope::decode_verified(&d.raw) {
                Some((env, body)) => self.receive_opened(d.link, &d.raw, id, env, body, now),
                None => self.receive(d.link, &d.raw, now),
            };
            out.merge(o);
        }
    }

    /// A hello: the handshake that binds a key to a connection (security review C11).
    ///
    /// Each peer has a nonce for each of its connections (`link_nonce`), sent over that
    /// connection alone as a hello's `challenge`. A hello binds its signer to the connection it
    /// came over, and names it, only if its `response` is our nonce for that connection, and it
    /// is newer than the hello that last bound the signer (or comes over the connection already
    /// bound to it). A signed message solicited from a peer and forwarded over another
    /// connection (a chat acknowledgement, a sync, a hello) carries no valid response for that
    /// connection, so it never moves the peer's private chat or decryption shares there; a
    /// replayed old hello answers a challenge of a connection that is gone.
    ///
    /// The handshake: a broadcast hello (no challenge) is answered with our challenge if its
    /// signer is not bound to that connection yet; a challenge is answered with its response
    /// (and ours, if we still need one). Answers are answered only when they carry a challenge,
    /// and we challenge back in an answer only when it brought no response, so two peers stop
    /// after at most four hellos. A connection bound to one key ignores hellos of another (a
    /// forwarded hello): we neither answer their challenges (so nobody can relay another
    /// peer's challenge to us over its own connection and our answer back) nor challenge them.
    pub(super) fn on_hello(
        &mut self,
        link: Option<LinkId>,
        sender: PeerKey,
        seq: u64,
        name: String,
        (answer, challenge, response): (bool, Option<[u8; 32]>, Option<[u8; 32]>),
        out: &mut Output,
    ) -> bool {
        if name.len() > MAX_NAME_BYTES as usize {
            Self::reject(out, link, Some(sender), Violation::TooLong);
            return true;
        }
        // Hellos are per connection: ours coming back, or one inside a batch, binds nothing;
        // over days there are no connections.
        let Some(l) = link.filter(|_| sender != self.me && !self.in_batch && !self.cfg.stored)
        else {
            return true;
        };
        if self.names.key_on(l).is_some_and(|k| k != sender) {
            return true; // another key's connection: a forwarded hello
        }
        let known = self.names.is_named(&sender)
            || self
                .run
                .as_ref()
                .is_some_and(|r| r.participant(&sender).is_some());
        if !known && self.names.full() && !self.forget_a_name() {
            // A full table of names, everyone in it present: a newcomer's hello binds nothing
            // and is remembered by nothing (throwaway keys must not grow our tables; finding 8).
            return true;
        }
        let proven = response == Some(crate::wire::link_response(&self.me, &self.link_nonce(l)));
        // Only a hello newer than every one that bound this key before binds it, the key's
        // forgotten bindings included: before, forgetting a name let an answer it had spent
        // bind it again (`a_forgotten_victims_spent_answer_does_not_bind_it_again`).
        if proven && self.names.bind(sender, l, seq) {
            out.events.push(ProtocolEvent::PeerHello {
                link: l,
                peer: sender,
                name: name.clone(),
            });
            // Its request that came before it was bound here, answered where it just proved
            // itself (see `resync`).
            if let Some(ask) = self.unanswered.remove(&sender) {
                self.answer_request(l, sender, &ask, out);
            }
        }
        let bound = self.names.bound_to(&sender, l);
        if bound {
            self.last_heard.insert(sender, self.now);
            self.names.set_name(sender, name);
        }
        // Challenge back unless bound, or this answer brought a response that failed (no
        // second round: two peers never ping-pong).
        let failed = answer && response.is_some();
        let ask = !(bound || failed);
        if !answer || challenge.is_some() || ask {
            let raw = self.seal(&Body::Hello {
                name: self.cfg.name.clone(),
                answer: true,
                challenge: ask.then(|| self.link_nonce(l)),
                // Bound to whoever signed the challenge: one relayed inside another key's
                // hello is answered for that key, which binds us nowhere else.
                response: challenge.map(|c| crate::wire::link_response(&sender, &c)),
            });
            out.send.push((Dest::Link(l), raw));
        }
        // Hellos are per connection; they are not stored, so a resent one is handled again.
        false
    }

    /// Our nonce for connection `l` (see [`Peer::on_hello`]): derived from our identity
    /// secret, so nobody else can foresee it, and from this session's first message number,
    /// so a reloaded peer (which starts above its earlier numbers) challenges afresh; and
    /// from the names' epoch (`Names::epoch`), so that once a forgotten key's last binding is let go, no answer it
    /// gave before binds it.
    pub(super) fn link_nonce(&self, l: LinkId) -> [u8; 32] {
        let mut b = b"orbis-link-challenge".to_vec();
        b.extend_from_slice(&self.cfg.identity_secret);
        b.extend_from_slice(&self.cfg.game_id);
        b.extend_from_slice(&self.cfg.seq_start.to_le_bytes());
        b.extend_from_slice(&l.to_le_bytes());
        b.extend_from_slice(&self.names.epoch().to_le_bytes());
        sha256(&b)
    }

    /// Challenges connection `l` (a key heard over it that is not bound there), at most once
    /// per half resend period.
    pub(super) fn challenge(&mut self, l: LinkId, out: &mut Output) {
        if !self
            .names
            .may_challenge(l, self.now, self.cfg.resend_ms / 2)
        {
            return;
        }
        let raw = self.seal(&Body::Hello {
            name: self.cfg.name.clone(),
            answer: true,
            challenge: Some(self.link_nonce(l)),
            response: None,
        });
        out.send.push((Dest::Link(l), raw));
    }

    /// Forgets the name of the key least recently heard from among those not in the room, or
    /// not heard from within [`PRESENCE_MS`]; never ours, never a participant of the running
    /// game. False if there is none.
    fn forget_a_name(&mut self) -> bool {
        let now = self.now;
        let gone = self
            .names
            .all()
            .keys()
            .filter(|k| **k != self.me)
            .filter(|k| self.run.as_ref().is_none_or(|r| r.participant(k).is_none()))
            .map(|k| (self.last_heard.get(k).copied().unwrap_or(0), *k))
            .filter(|(t, k)| !self.in_room(k) || now >= t.saturating_add(PRESENCE_MS))
            .min();
        let Some((_, k)) = gone else { return false };
        self.names.forget(&k);
        self.last_heard.remove(&k);
        true
    }

    /// A setup proposal: checked like every peer checks it, then kept by its hash.
    pub(super) fn on_propose(
        &mut self,
        link: Option<LinkId>,
        sender: PeerKey,
        p: SetupProposal,
        raw: &[u8],
        out: &mut Output,
    ) -> bool {
        if let Err(e) = check_proposal(&p) {
            Self::reject(out, link, Some(sender), Violation::BadProposal(e));
            return true;
        }
        let hash = p.hash();
        // While a game runs, only its participants' proposals matter (the room may have moved
        // on before anyone else played it: see `maybe_abandon`).
        let stranger = self
            .run
            .as_ref()
            .is_some_and(|r| r.participant(&sender).is_none());
        if self.lobby.proposals.contains_key(&hash) || stranger {
            // Kept already (under whichever signature came first), or a stranger's while a game
            // runs: nothing of it is kept (security review C10).
            self.unkept = true;
            return true;
        }
        // A signer's newest proposals replace its oldest (a host may propose again after
        // changing the options); the one we accepted is kept.
        let mine = self.lobby.my_accept;
        let older = self.lobby.proposers.get(&sender);
        if older.is_some_and(|o| o.len() >= MAX_PROPOSALS_PER_PEER) {
            if let Some(gone) = older.and_then(|o| o.iter().find(|h| Some(**h) != mine)) {
                self.forget_proposal(*gone);
            }
        }
        if self.lobby.proposals.len() >= MAX_PROPOSALS {
            // A full table: a key in the room (the key of a connection) pushes out a proposal
            // of a key that is not (security review C10); anyone else's is refused.
            let gone = self.in_room(&sender).then(|| {
                self.lobby
                    .proposers
                    .iter()
                    .filter(|(k, _)| !self.in_room(k))
                    .flat_map(|(_, hs)| hs.iter())
                    .find(|h| Some(**h) != mine)
                    .copied()
            });
            match gone.flatten() {
                Some(h) => self.forget_proposal(h),
                None => {
                    Self::reject(out, link, Some(sender), Violation::TooManyProposals);
                    return true;
                }
            }
        }
        self.lobby.proposers.entry(sender).or_default().push(hash);
        // Not progress: a stream of proposals must not hold back our `Sync` requests.
        self.lobby.proposals.insert(hash, (p.clone(), raw.to_vec()));
        out.events.push(ProtocolEvent::SetupProposed {
            by: sender,
            hash,
            proposal: p,
        });
        self.try_lobby(out);
        self.replay_waiting(out, |w| w == Awaits::Proposal(hash));
        true
    }

    /// Whether `k` is in the room: ours, or the key of one of our connections now (a connection binds
    /// one key at a time, so throwaway keys on one connection are one key in the room).
    pub(super) fn in_room(&self, k: &PeerKey) -> bool {
        *k == self.me || self.names.is_bound(k)
    }

    /// Drops proposal `h` from the lobby with its accepts and seed reveals, and forgets their
    /// ids (a copy that comes again is judged again), so `seen` and `seqs` stay as small as the
    /// lobby (security review C10).
    pub(super) fn forget_proposal(&mut self, h: [u8; 32]) {
        let mut raws = vec![];
        if let Some((_, raw)) = self.lobby.proposals.remove(&h) {
            raws.push(raw);
        }
        if let Some(m) = self.lobby.accepts.remove(&h) {
            raws.extend(m.into_values().map(|a| a.raw));
        }
        if let Some(m) = self.lobby.seed_reveals.remove(&h) {
            raws.extend(m.into_values().map(|(_, raw)| raw));
        }
        self.lobby.proposers.retain(|_, hs| {
            hs.retain(|x| *x != h);
            !hs.is_empty()
        });
        for raw in raws {
            self.forget(&raw);
        }
    }

    /// An accept: a participant's signature on a proposal with its seed and chain commitments.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn on_accept(
        &mut self,
        link: Option<LinkId>,
        sender: PeerKey,
        seq: u64,
        proposal: [u8; 32],
        seed_commit: [u8; 32],
        chain_tip: [u8; 32],
        chain_len: u32,
        raw: &[u8],
        out: &mut Output,
    ) -> bool {
        if self.run.is_some() {
            self.maybe_abandon(sender, seq, proposal, out);
            if self.run.is_some() {
                // Kept only if it may matter later (a proposal we have not seen yet).
                return self.lobby.proposals.contains_key(&proposal);
            }
        }
        let Some((p, _)) = self.lobby.proposals.get(&proposal) else {
            // Proposal not seen yet: keep the message for later.
            return self.defer_until(link, sender, raw, Awaits::Proposal(proposal));
        };
        if !p.participants.contains(&sender) {
            Self::reject(out, link, Some(sender), Violation::NotParticipant);
            return true;
        }
        if sender == self.me && (self.lobby.my_accept.is_none() || seq >= self.lobby.my_accept_seq)
        {
            self.lobby.my_accept = Some(proposal);
            self.lobby.my_accept_seq = seq;
        }
        let slot = self.lobby.accepts.entry(proposal).or_default();
        // Only a new accept is progress: the same accept resent under new sequence numbers
        // must not keep us from asking for what we miss (security review, finding 6).
        if let std::collections::btree_map::Entry::Vacant(e) = slot.entry(sender) {
            e.insert(Accepted {
                seq,
                seed_commit,
                chain_tip,
                chain_len,
                raw: raw.to_vec(),
            });
            self.progress();
        } else {
            // Its accept is kept already: another one keeps nothing (security review C10).
            self.unkept = true;
        }
        self.try_lobby(out);
        self.replay_waiting(out, |w| w == Awaits::Accept(proposal, sender));
        true
    }

    /// A seed share opened: it must match the commitment in the sender's accept.
    pub(super) fn on_seed_reveal(
        &mut self,
        link: Option<LinkId>,
        sender: PeerKey,
        proposal: [u8; 32],
        secret: [u8; 32],
        raw: &[u8],
        out: &mut Output,
    ) -> bool {
        if self.run.is_some() {
            self.unkept = true;
            return true;
        }
        let Some(acc) = self
            .lobby
            .accepts
            .get(&proposal)
            .and_then(|m| m.get(&sender))
        else {
            return self.defer_until(link, sender, raw, Awaits::Accept(proposal, sender));
        };
        if seed_commitment(&secret) != acc.seed_commit {
            Self::reject(out, link, Some(sender), Violation::SeedMismatch);
            return true;
        }
        let slot = self.lobby.seed_reveals.entry(proposal).or_default();
        if let std::collections::btree_map::Entry::Vacant(e) = slot.entry(sender) {
            e.insert((secret, raw.to_vec()));
            self.progress();
        }
        self.try_lobby(out);
        true
    }
}
