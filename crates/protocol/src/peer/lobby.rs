//! Lobby: hellos' names, setup proposals, accepts (each a commitment to a seed share and a dice
//! chain), seed reveals, and the start of the game once every participant has revealed.
//!
//! Owns `Peer::proposals`, `accepts`, `seed_reveals`, `my_accept` and the messages deferred until
//! a game runs (`early`).
//!
//! Invariant: a game starts only from a proposal every participant signed an accept for, with a
//! seed that mixes every participant's revealed share (each checked against its commitment), so
//! no single peer chooses it; before that no log message is judged, only kept (bounded).

use super::*;

/// Buffered messages received before the game started.
pub(super) const MAX_EARLY: usize = 4096;

pub(super) fn seed_commitment(secret: &[u8; 32]) -> [u8; 32] {
    let mut b = b"orbis-seed-commit".to_vec();
    b.extend_from_slice(secret);
    sha256(&b)
}

/// An opened seed share and its signed message.
pub(super) type SeedShare = ([u8; 32], Vec<u8>);

#[derive(Clone, Debug)]
pub(super) struct Accepted {
    pub(super) seed_commit: [u8; 32],
    pub(super) chain_tip: [u8; 32],
    pub(super) chain_len: u32,
    pub(super) raw: Vec<u8>,
}

pub(super) fn seat_configs(p: &SetupProposal) -> Vec<SeatConfig> {
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
pub(super) fn new_game(p: &SetupProposal, seed: [u8; 32]) -> Result<(Game, Vec<PowerId>), String> {
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

    pub(super) fn defer(&mut self, link: Option<LinkId>, raw: &[u8]) -> bool {
        if self.early.len() < MAX_EARLY {
            self.early.push((link, raw.to_vec()));
            true
        } else {
            false
        }
    }

    pub(super) fn try_lobby(&mut self, out: &mut Output) {
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

    pub(super) fn begin(&mut self, hash: [u8; 32], p: SetupProposal, out: &mut Output) {
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
    pub(super) fn replay_early(&mut self, out: &mut Output) {
        let early = std::mem::take(&mut self.early);
        for (l, raw) in early {
            // These were marked as consumed when deferred; let them through the dedup set again.
            self.seen.remove(&sha256(&raw));
            let now = self.now;
            let o = self.receive(l, &raw, now);
            out.merge(o);
        }
    }
}
