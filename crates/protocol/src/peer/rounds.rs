//! Commit-reveal rounds of simultaneous orders: each participant commits a hash of its payload
//! and salt, and reveals only once every required participant has committed. The orders
//! ruleset runs one round per phase; classic games carry generic rounds.
//!
//! Owns `Run::orders` (per round: commitments, reveals, our own payload) and the orders-game
//! advance (adjudication of a phase once all reveals are in). Proof of a participant's two
//! versions of one round is judged in `equivocation.rs`.
//!
//! Invariant: nobody's orders are revealed before everyone's are committed, a reveal must match
//! its commitment, and an orders phase is resolved from exactly the revealed payloads (illegal
//! orders are void and their sender named), identically on every peer. Commitments and reveals
//! are echoed to everyone; two different signed commitments (or reveals) of one participant for
//! one round are equivocation and halt every honest peer naming it, with both as evidence, unless
//! the log drops that participant at or before the round (proof about a round not yet resolved
//! is judged when it is: `Peer::judge_proof`).

use super::*;

/// Open simultaneous-orders rounds.
pub(super) const MAX_ROUNDS: usize = 64;

/// Orders game: log head after the phase of round `index`, resolved from the reveals whose
/// hash is `content`.
pub(super) fn next_head_orders(
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

/// Orders revealed before their commitment arrived: (payload, salt, raw, link).
pub(super) type EarlyOrders = (Vec<u8>, [u8; 32], Vec<u8>, Option<LinkId>);

#[derive(Clone, Debug, Default)]
pub(super) struct OrdersRound {
    pub(super) commits: BTreeMap<u8, ([u8; 32], Vec<u8>)>,
    pub(super) reveals: BTreeMap<u8, (Vec<u8>, Vec<u8>)>,
    /// Reveals that came before their sender's commitment: the first two different ones of
    /// each participant (a true one and a false one are what decides between playing on and
    /// equivocation, so neither may push the other out).
    pub(super) early_reveals: BTreeMap<u8, Vec<EarlyOrders>>,
    pub(super) mine: Option<(Vec<u8>, [u8; 32])>,
    pub(super) revealed: bool,
    pub(super) announced_commits: bool,
    /// When the last commitment came: reveals are due from then.
    pub(super) complete_at: Option<u64>,
    pub(super) done: bool,
    /// Economy planning: when commitments covering a majority of the players were first in
    /// (the planning minute runs from then).
    pub(super) majority_at: Option<u64>,
    /// The first signed reveal of each participant that did not open its commitment (what it
    /// opens, and the message): refused, and kept so that its true reveal, arriving after it,
    /// is the equivocation it would be had it arrived first.
    pub(super) mismatched: BTreeMap<u8, ([u8; 32], Vec<u8>)>,
}

impl Peer {
    /// Orders game: the power each seat plays, in seat order.
    pub fn seat_powers(&self) -> Vec<PowerId> {
        self.run.as_ref().map_or(vec![], |r| r.powers.clone())
    }

    /// The game under way, our participant number and the current round (= log position),
    /// when we play in it and have not committed for that round yet (orders and economy games).
    pub(super) fn round_owed(&self) -> Option<(&Run, u8, u32)> {
        let r = self.run.as_ref()?;
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
        Some((r, m, round))
    }

    /// Orders game: the current round (= phase index) and the powers this peer must write orders
    /// for in it, when it has not committed yet. An empty list means nothing to order (the
    /// peer commits empty orders by itself). `None` too over days while another device's
    /// commitment of ours is known to exist ([`Peer::committed_elsewhere`]).
    pub fn orders_due(&self) -> Option<(u32, Vec<PowerId>)> {
        if self.committed_elsewhere() {
            return None;
        }
        let (r, m, round) = self.round_owed()?;
        let Game::Orders(s) = &r.state else {
            return None;
        };
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

    /// Commits to simultaneous orders for `round`; they are revealed automatically once every
    /// participant has committed. `salt` must be fresh entropy. Over days, refused while the
    /// store shows our commitment from another device that this visit cannot see
    /// ([`Peer::committed_elsewhere`]).
    pub fn commit_orders(
        &mut self,
        round: u32,
        payload: Vec<u8>,
        salt: [u8; 32],
    ) -> Result<Output, CommandError> {
        if self.committed_elsewhere() {
            return Err(CommandError::AlreadyCommitted);
        }
        self.commit_again(round, payload, salt)
    }

    /// [`Peer::commit_orders`], also where another device's commitment is known to exist: a
    /// visit committing again what the store kept of ours (its sealed copy, its reveal), the
    /// same commitment as the one lost.
    pub(super) fn commit_again(
        &mut self,
        round: u32,
        payload: Vec<u8>,
        salt: [u8; 32],
    ) -> Result<Output, CommandError> {
        self.running(false)?;
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
        // Our own commitment from before a reload: only the same one may go out again (another
        // would be an equivocation, and halt the game naming us).
        if r.me.is_some_and(|m| {
            r.orders
                .get(&round)
                .and_then(|o| o.commits.get(&m))
                .is_some_and(|(h, _)| *h != hash)
        }) {
            return Err(CommandError::AlreadyCommitted);
        }
        r.orders.entry(round).or_default().mine = Some((payload, salt));
        let raw = self.seal(&Body::OrdersCommit { round, hash });
        // Over days, a copy sealed to ourselves goes to the store too: any later visit of ours
        // (another device, our keeper) opens it and reveals (`days`).
        let kept = if self.cfg.stored {
            self.seal_kept(round, &payload_of(&self.run, round), &salt)
        } else {
            None
        };
        let mut out = self.local(raw);
        if let Some(k) = kept {
            out.merge(self.local(k));
        }
        Ok(out)
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
        let r = self.running(false)?;
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

    /// Orders game: a round is a log position, admitted like one (dropped to come again when too
    /// far ahead; otherwise it shows how far the sender has got). Classic generic rounds are
    /// only limited in number (see `on_orders_commit`).
    pub(super) fn admit_round(&mut self, sender: PeerKey, round: u32) -> Option<bool> {
        let r = self.run.as_mut()?;
        if matches!(r.state, Game::Classic(_)) {
            return None;
        }
        if u64::from(round) >= r.next_index() + MAX_AHEAD {
            return Some(false);
        }
        r.note_reached(sender, u64::from(round));
        None
    }

    /// The log every honest peer shares when round `round` is found equivocated: the positions
    /// before it (an orders or economy round is a log position, and peers may have resolved it
    /// differently before the second version reached them); a classic game's generic rounds
    /// leave the log alone, so all of it.
    fn agreed_before(r: &Run, round: u32) -> (u64, [u8; 32]) {
        if matches!(r.state, Game::Classic(_)) {
            Self::agreed_at(r, u64::MAX)
        } else {
            Self::agreed_at(r, u64::from(round))
        }
    }

    /// The log every honest peer shares when something signed for log position `at` is found
    /// equivocated: the positions before it (or all of ours, if we are not past it yet).
    pub(super) fn agreed_at(r: &Run, at: u64) -> (u64, [u8; 32]) {
        let at = at.min(r.next_index());
        (at, r.heads.get(at as usize).copied().unwrap_or([0; 32]))
    }

    pub(super) fn on_orders_commit(
        &mut self,
        link: Option<LinkId>,
        sender: PeerKey,
        round: u32,
        hash: [u8; 32],
        raw: &[u8],
        out: &mut Output,
    ) {
        let Some(r) = &mut self.run else { return };
        let Some(p) = Self::from_participant(r, out, link, sender) else {
            return;
        };
        if r.orders_moot(p, u64::from(round)) {
            // Dropped at or before this round: its orders here no longer count, and two
            // different ones it signs here (now, or long after) prove nothing that matters.
            return;
        }
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
        let agreed = Self::agreed_before(r, round);
        let o = r.orders.entry(round).or_default();
        match o.commits.get(&p) {
            Some((h, _)) if *h == hash => return,
            Some((first, first_raw)) => {
                // Two signed commitments for one round: proof that the sender told peers
                // different things (it may have sent each to other peers), as two entries for
                // one log position are. Everyone halts naming it, with both as evidence.
                let report = HaltReport::Equivocation {
                    peer: sender,
                    index: u64::from(round),
                    first: *first,
                    second: hash,
                    agreed_index: agreed.0,
                    agreed_head: agreed.1,
                };
                let evidence = vec![first_raw.clone(), raw.to_vec()];
                self.halt_on_round_equivocation(sender, round, report, evidence, out);
                return;
            }
            None => {}
        }
        o.commits.insert(p, (hash, raw.to_vec()));
        // Echo every new commitment to everyone (as log entries are), so a participant that
        // commits to different payloads towards different peers is seen by all of them.
        if link.is_some() && !self.cfg.stored {
            out.send.push((Dest::All, raw.to_vec()));
        }
        for (payload, salt, raw, l) in o.early_reveals.remove(&p).unwrap_or_default() {
            self.on_orders_reveal(l, sender, round, payload, salt, &raw, out);
        }
        self.progress();
        self.orders_step(round, out);
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn on_orders_reveal(
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
        let Some(p) = Self::from_participant(r, out, link, sender) else {
            return;
        };
        if r.orders_moot(p, u64::from(round)) {
            // Dropped at or before this round: its orders here no longer count, and two
            // different ones it signs here (now, or long after) prove nothing that matters.
            return;
        }
        if payload.len() > MAX_ORDERS_BYTES as usize {
            Self::reject(out, link, Some(sender), Violation::TooLong);
            return;
        }
        let classic = matches!(r.state, Game::Classic(_));
        if classic && !r.orders.contains_key(&round) && r.orders.len() >= MAX_ROUNDS {
            return;
        }
        let agreed = Self::agreed_before(r, round);
        let o = r.orders.entry(round).or_default();
        let Some((hash, commit_raw)) = o.commits.get(&p) else {
            // Its commitment is still on the way (reordering): hold the reveal until it lands.
            // Two different ones at most, each kept (review of the fix for seed 5104826: one
            // overwriting the other let the order of arrival decide again).
            let held = o.early_reveals.entry(p).or_default();
            if held.len() < 2 && !held.iter().any(|(_, _, r, _)| r == raw) {
                held.push((payload, salt, raw.to_vec(), link));
            }
            return;
        };
        let opens = orders_commitment(round, &payload, &salt);
        if let Some((_, first_raw)) = o.reveals.get(&p) {
            if opens != *hash {
                // A second signed reveal for the round, of other orders than the one that
                // opened its commitment: the sender told some peer another story. Equivocation.
                let report = HaltReport::Equivocation {
                    peer: sender,
                    index: u64::from(round),
                    first: *hash,
                    second: opens,
                    agreed_index: agreed.0,
                    agreed_head: agreed.1,
                };
                // The commitment too: without it the two reveals prove nothing to a peer (or
                // `verify`) that has not reached the round, since our transcript's rounds stop
                // at our position (economy long-run seed 4100159: a halted peer's transcript
                // verified, naming nobody).
                let evidence = vec![commit_raw.clone(), first_raw.clone(), raw.to_vec()];
                self.halt_on_round_equivocation(sender, round, report, evidence, out);
            }
            return;
        }
        if opens != *hash {
            // Kept (the first per participant and round), so that the order in which the two
            // reveals arrive does not decide the outcome: a peer that took the true one first
            // halts on this one, and one given this first halts when the true one comes
            // (economy long-run seed 5104826: refused and forgotten here, it left that peer to
            // play the round on while the others halted, and stall naming them).
            o.mismatched.entry(p).or_insert((opens, raw.to_vec()));
            Self::reject(out, link, Some(sender), Violation::OrdersMismatch { round });
            return;
        }
        if let Some((second, bad_raw)) = o.mismatched.get(&p) {
            let report = HaltReport::Equivocation {
                peer: sender,
                index: u64::from(round),
                first: *hash,
                second: *second,
                agreed_index: agreed.0,
                agreed_head: agreed.1,
            };
            let evidence = vec![commit_raw.clone(), raw.to_vec(), bad_raw.clone()];
            self.halt_on_round_equivocation(sender, round, report, evidence, out);
            return;
        }
        o.reveals.insert(p, (payload, raw.to_vec()));
        // Echoed like commitments: another peer that was told another commitment sees this
        // reveal does not open it (and a peer that missed it still gets it).
        if link.is_some() && !self.cfg.stored {
            out.send.push((Dest::All, raw.to_vec()));
        }
        self.progress();
        self.orders_step(round, out);
    }

    pub(super) fn orders_step(&mut self, round: u32, out: &mut Output) {
        let Some(r) = &mut self.run else { return };
        // An economy round's participants are those the engine awaits at that position: judged
        // only once we are there (and its predecessor's dice are in).
        let economy = matches!(r.state, Game::Economy(_));
        if economy && (u64::from(round) != r.next_index() || r.pending.is_some()) {
            return;
        }
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
            o.complete_at = Some(self.now);
            out.events.push(ProtocolEvent::OrdersCommitted { round });
        }
        // Over days, not while a visit reads the store (`days`), nor again once ours is stored.
        let shown = me.is_some_and(|m| o.reveals.contains_key(&m));
        if let (false, false, false, Some((payload, salt)), Some(m)) =
            (o.revealed, self.quiet, shown, o.mine.clone(), me)
        {
            o.revealed = true;
            let raw = Envelope::seal(
                &self.key,
                r.tag,
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
    pub(super) fn empty_salt(&self, round: u32) -> [u8; 32] {
        let mut b = b"orbis-empty-orders".to_vec();
        b.extend_from_slice(&self.cfg.chain_secret);
        b.extend_from_slice(&round.to_le_bytes());
        sha256(&b)
    }

    /// Orders game, at the current position (round = phase index): commits empty orders by
    /// ourselves when none of our powers has anything to order, reveals once every required
    /// participant has committed, and resolves the phase once every reveal is in. True when
    /// something changed that may let the game go further.
    pub(super) fn advance_orders(&mut self, out: &mut Output) -> bool {
        let Some(r) = &self.run else { return false };
        let index = r.next_index();
        let round = index as u32;
        let salt = self.empty_salt(round);
        let empty = encode_orders(&OrdersPayload::default());
        let empty_hash = orders_commitment(round, &empty, &salt);
        let elsewhere = self.committed_elsewhere();
        let Some(r) = &mut self.run else { return false };
        if let (Some(m), Game::Orders(s)) = (r.me.filter(|m| !r.excluded.contains(m)), &r.state) {
            let waiting = s.waiting_for();
            let idle = !r.powers_of(m).iter().any(|p| waiting.contains(p));
            let o = r.orders.entry(round).or_default();
            if o.mine.is_none() {
                match o.commits.get(&m) {
                    // Our own empty commitment from before a reload: we can reveal it again.
                    Some((h, _)) if *h == empty_hash => o.mine = Some((empty, salt)),
                    None if idle && !self.quiet && !elsewhere => {
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
        let kind = match &r.state {
            Game::Orders(s) => s.phase,
            _ => Phase::Movement,
        };
        // A seat in civil disorder this round holds: no computer orders for it yet (`days`).
        let disorder: Vec<PowerId> = r
            .powers
            .iter()
            .copied()
            .filter(|p| r.in_disorder(index, *p))
            .collect();
        // Computer powers: seats of the proposal given to a computer, or handed to one since.
        let computers: Vec<(PowerId, BotLevel)> = (0..r.proposal.seats.len())
            .filter_map(|i| match r.controller(i as PlayerId) {
                Some(Controller::Bot(level)) => r.powers.get(i).map(|&p| (p, level)),
                _ => None,
            })
            .filter(|(p, _)| !disorder.contains(p))
            .collect();
        let mut content = b"orbis-orders-phase".to_vec();
        content.extend_from_slice(&round.to_le_bytes());
        // Computer powers order from the board and the revealed payloads (their salt): every
        // peer computes the same orders, and nobody could foresee their random part before
        // committing. Thought before anything is applied, so a caller thinking them elsewhere
        // (`think`) stops the phase here, whole; they read the board, never the orders entered.
        let mut phase_content = content.clone();
        for (p, payload) in &reveals {
            phase_content.extend_from_slice(&codec::encode(&(p, payload)));
        }
        let salt = sha256(&phase_content);
        let Game::Orders(s) = &r.state else {
            return false;
        };
        let Some(mut thought) = self.thoughts.orders(s, &computers, &salt, self.probing) else {
            return false;
        };
        let Game::Orders(s) = &mut r.state else {
            return false;
        };
        let mut violations = vec![];
        let mut draws = vec![];
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
        // Computer powers' orders (thought above) after every reveal; their draw votes follow
        // `bot::orders::accepts_draw`.
        debug_assert_eq!(salt, sha256(&content));
        let waiting = s.waiting_for();
        for &(power, level) in &computers {
            if waiting.contains(&power) {
                let orders = thought
                    .remove(&power)
                    .unwrap_or_else(|| bot::orders::orders_for(s, power, level, &salt));
                if let Err(e) = s.apply(&OrdersAction::Submit { power, orders }) {
                    self.halt(
                        HaltReport::Internal(format!("computer orders refused: {e}")),
                        out,
                    );
                    return false;
                }
            }
            if s.alive(power) {
                draws.retain(|&(q, _)| q != power);
                draws.push((power, bot::orders::accepts_draw(s, power)));
            }
        }
        // Draw votes, after the orders (so illegal ones are still named) and before the
        // adjudication: a draw every survivor accepts ends the game in the phase they accept it.
        // A surviving power nobody plays (neither a peer nor a computer) cannot accept, as in
        // hot-seat civil disorder, so an acceptance it held while it had a player is withdrawn.
        // Declines go first, then acceptances (each in participant order): the votes of a phase
        // are simultaneous, so a standing acceptance withdrawn now cannot complete a draw.
        let played: Vec<PowerId> = plays
            .iter()
            .flat_map(|(now, _)| now.clone())
            .chain(computers.iter().map(|c| c.0))
            .collect();
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
        r.days_resolved(index, kind);
        let controls = std::mem::take(&mut r.controls_here);
        let head = next_head_orders(&r.head(), index, &controls, &content);
        r.log.push(Record {
            content,
            signer: None,
            raw: None,
            controls,
        });
        r.push_head(head);
        for (peer, violation) in violations {
            Self::reject(out, None, peer, violation);
        }
        out.events
            .push(ProtocolEvent::PhaseResolved { index, events });
        self.progress();
        self.checkpoint(true, head, out);
        true
    }
}

/// Our own payload for `round` (what `commit_orders` just kept), for its sealed copy.
fn payload_of(run: &Option<Run>, round: u32) -> Vec<u8> {
    run.as_ref()
        .and_then(|r| r.orders.get(&round))
        .and_then(|o| o.mine.as_ref())
        .map_or(vec![], |(p, _)| p.clone())
}
