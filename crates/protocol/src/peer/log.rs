//! The log: classic entries (one signed action per position from the seat's controller),
//! their verification and application, checkpoints, and halting with evidence.
//!
//! Owns `Run::log`, `heads`, `candidates`, `checkpoints`, `their_checkpoints`, and `Peer::halted`
//! with its evidence.
//!
//! Invariant: a position is applied once, from the first valid entry for it; two different
//! signed entries for one position are equivocation and halt every honest peer with both as
//! evidence; a checkpoint that disagrees with ours halts (after a grace period in which an
//! equivocation may explain it). Entries are relayed as received so every peer sees the same
//! transcript.

use super::*;

/// How many log positions past our own we buffer entries, reveals and checkpoints for.
pub(super) const MAX_AHEAD: u64 = 64;

pub(super) fn is_random(a: &Action) -> bool {
    matches!(a, Action::Attack { .. } | Action::Blitz { .. })
}

pub(super) fn content_hash(e: &Entry) -> [u8; 32] {
    let mut b = b"orbis-entry".to_vec();
    b.extend_from_slice(&codec::encode(e));
    sha256(&b)
}

/// Log head after entry `index`, including any controls decided at that position.
pub(super) fn next_head(
    head: &[u8; 32],
    index: u64,
    controls: &[Control],
    action: &Action,
) -> [u8; 32] {
    let mut b = b"orbis-log".to_vec();
    b.extend_from_slice(head);
    b.extend_from_slice(&codec::encode(&(index, controls, action)));
    sha256(&b)
}

#[derive(Clone, Debug)]
pub(super) struct Candidate {
    pub(super) signer: PeerKey,
    pub(super) entry: Entry,
    pub(super) content: [u8; 32],
    pub(super) raw: Vec<u8>,
    pub(super) link: Option<LinkId>,
}

/// Another peer's checkpoint: (peer, state hash, log head).
pub(super) type TheirCheckpoint = (PeerKey, [u8; 32], [u8; 32], Vec<u8>);

/// Engine legality check without consuming real dice.
pub(super) fn legal(state: &ClassicState, action: &Action) -> Result<(), String> {
    let mut s = state.clone();
    s.apply_with(action, &mut SeededDice::new([0; 32]))
        .map(|_| ())
        .map_err(|e| e.to_string())
}

impl Peer {
    /// Plays an action for our seat. In a game dealt face down, a trade first shows the
    /// face-down cards it uses (a reveal to everyone, then a `Show` entry for each).
    pub fn act(&mut self, action: Action) -> Result<Output, CommandError> {
        let shows = self.shows_for(&action)?;
        if shows.is_empty() {
            return self.act_now(action);
        }
        // Check the whole trade on a copy first, so that nothing is shown for a trade that
        // would be refused.
        if let Some(r) = &self.run {
            if let Game::Classic(s) = &r.state {
                let mut s = s.clone();
                for a in shows.iter().chain([&action]) {
                    s.apply_with(a, &mut SeededDice::new([0; 32]))
                        .map_err(|e| CommandError::Illegal(e.to_string()))?;
                }
            }
        }
        let mut out = Output::default();
        for a in shows {
            if let Action::Show { slot, .. } = a {
                self.reveal_slot(slot, &mut out);
            }
            out.merge(self.act_now(a)?);
        }
        out.merge(self.act_now(action)?);
        Ok(out)
    }

    /// Plays one action for our seat as it is.
    pub(super) fn act_now(&mut self, action: Action) -> Result<Output, CommandError> {
        let r = self.running(false)?;
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

    /// Keeps a message that cannot be judged before the game starts.
    /// Admits a message about log position `index`: before the game runs it is kept for later;
    /// too far ahead it is too early to judge (a long resend arriving out of order) and is dropped
    /// to come again; otherwise it records how far `sender` has got. `Some(r)`: stop, returning `r`.
    pub(super) fn admit_at(
        &mut self,
        link: Option<LinkId>,
        raw: &[u8],
        sender: PeerKey,
        index: u64,
    ) -> Option<bool> {
        if self.run.is_none() {
            return Some(self.defer(link, sender, raw));
        }
        if index >= self.log_len() + MAX_AHEAD {
            return Some(false);
        }
        if let Some(r) = &mut self.run {
            r.note_reached(sender, index);
        }
        None
    }

    pub(super) fn halt(&mut self, report: HaltReport, out: &mut Output) {
        self.halt_with(report, vec![], out);
    }

    /// Halts, and hands the signed messages that prove why to everyone (now, and to anyone who
    /// asks later), so every honest peer stops and names the same culprit even if the relays
    /// that would have shown it were lost.
    pub(super) fn halt_with(
        &mut self,
        report: HaltReport,
        evidence: Vec<Vec<u8>>,
        out: &mut Output,
    ) {
        self.suspect = None;
        if self.halted.is_none() {
            let mut evidence = evidence;
            if let Some(r) = &mut self.run {
                // Proof of an equivocation we kept goes with whatever we halt on: without it,
                // our transcript's replay resolves that round with the version we held and
                // names an honest peer's checkpoint (long-run seed 7003866).
                let next = r.next_index();
                let kept = std::mem::take(&mut r.deferred_halts);
                r.halted_on_proof = kept.iter().any(|d| d.at <= next);
                let kept = kept.into_iter().flat_map(|d| d.evidence);
                evidence.splice(0..0, kept);
            }
            self.halted = Some(report.clone());
            out.events.push(ProtocolEvent::Halted(report));
            for raw in &evidence {
                out.send.push((Dest::All, raw.clone()));
            }
            self.evidence = evidence;
            // The game is dead: nothing is left to hide, and its transcript can be checked.
            self.publish_secret_into(out);
        }
    }

    pub(super) fn on_entry(
        &mut self,
        link: Option<LinkId>,
        sender: PeerKey,
        e: Entry,
        raw: &[u8],
        out: &mut Output,
    ) {
        let Some(r) = &mut self.run else { return };
        // Only a participant that plays a seat may put entries in the log: anyone else's are
        // refused before they are kept, relayed or compared, so a stranger's key can neither
        // fill our tables nor make anyone halt.
        if !r.participant(&sender).is_some_and(|p| r.plays_a_seat(p)) {
            Self::reject(out, link, Some(sender), Violation::NotParticipant);
            return;
        }
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

    /// Applies everything that can be applied: bot moves, buffered entries, completed rolls.
    pub(super) fn advance(&mut self, out: &mut Output) {
        // The log and the deal wait on each other: a move draws a card whose shares may have
        // come already; a computer's move waits for its cards to be turned face up.
        self.thoughts.restart();
        loop {
            self.advance_log(out);
            if !self.deal_retry(out) {
                break;
            }
        }
        // What the moves just applied asked of the deal, and a mission now done.
        self.deal_flush(out);
        self.claim_mission(out);
    }

    fn advance_log(&mut self, out: &mut Output) {
        loop {
            if self.halted.is_some() || self.suspect.is_some() {
                return;
            }
            let Some(r) = &mut self.run else { return };
            if r.over() {
                return;
            }
            let at = r.next_index();
            if r.since.0 != at {
                // A position reached through a resend starts its clock on arrival like any
                // other (security review B7: the sender of the resend chooses when that is).
                // Only a peer catching up on the game it just (re)joined takes the votes it
                // finds complete as history, decided while it was away.
                let history = self.in_batch
                    && r.joined
                        .is_some_and(|t| self.now < t.saturating_add(self.cfg.missing_ms));
                r.since = (at, self.now, !history);
            }
            let grace = (self.cfg.turn_grace_ms, self.cfg.missing_ms / 2);
            Self::readmit_due(r, at);
            if let Some((report, evidence)) =
                Self::apply_votes(r, at, self.me, self.now, grace, &self.missing, out)
            {
                self.halt_with(report, evidence, out);
                return;
            }
            let Some(r) = &mut self.run else { return };
            if r.ended.is_some() {
                // A leaver the deal cannot go on without: nothing is left to hide.
                self.publish_secret_into(out);
                return;
            }
            // A fork resolving the round without our votes (`probe_heads`) takes the first
            // version of an equivocator's orders: what a voter that went on without the drop
            // would have taken.
            if !self.probing && self.judge_proof(at, out) {
                return;
            }
            if !self.probing && self.held_by_vote(at) {
                return;
            }
            let Some(r) = &mut self.run else { return };
            if matches!(r.state, Game::Orders(_)) {
                if self.advance_orders(out) {
                    continue;
                }
                return;
            }
            if matches!(r.state, Game::Economy(_)) {
                if self.advance_economy(out) {
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
                    let action = match r.bot_show(seat) {
                        Some(Some(show)) => show,
                        // Its face-down cards are being turned face up.
                        Some(None) => return,
                        // No move, or one thought elsewhere that is not in yet.
                        None => match self.thoughts.classic(classic!(r), level, self.probing) {
                            Some(Some(a)) => a,
                            _ => return,
                        },
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
                            // Kept: no honest engine signs a move illegal in the state its
                            // prev hash names, and a second, legal one from the same seat here
                            // is then equivocation (long-run seed 3000057: the others halted on
                            // the two versions, and their evidence was bytes we had seen).
                            if r.refused.is_none() {
                                r.refused = Some((index, c.content, c.raw.clone()));
                            }
                            Self::reject(
                                out,
                                c.link,
                                Some(c.signer),
                                Violation::Illegal { index, error },
                            );
                        } else if r.show_checks(&c.entry.action) == Some(false) {
                            let error = "shows a card it does not hold".to_string();
                            Self::reject(
                                out,
                                c.link,
                                Some(c.signer),
                                Violation::Illegal { index, error },
                            );
                        } else if r.show_checks(&c.entry.action).is_none() {
                            // Its reveal has not come yet: judge it when it has.
                            r.candidates.entry(index).or_default().push(c);
                        } else {
                            chosen = Some(c);
                        }
                    }
                    let Some(c) = chosen else { return };
                    if let Some((_, first, raw)) = r
                        .refused
                        .as_ref()
                        .filter(|(at, first, _)| *at == index && *first != c.content)
                        .cloned()
                    {
                        let report = HaltReport::Equivocation {
                            peer: c.signer,
                            index,
                            first,
                            second: c.content,
                            agreed_index: index,
                            agreed_head: r.head(),
                        };
                        self.halt_with(report, vec![raw, c.raw], out);
                        return;
                    }
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
            let roll = r.roll_count + 1;
            if let Some(report) =
                self.pinned_conflict(index, is_random(&action).then_some(roll), &record)
            {
                let evidence = [self.pin_evidence(index, roll), record.raw.clone()]
                    .into_iter()
                    .flatten()
                    .collect();
                self.halt_with(report, evidence, out);
                return;
            }
            let Some(r) = &mut self.run else { return };
            let decl = record.content;
            if is_random(&action) {
                let pending = PendingRoll {
                    index,
                    roll,
                    decl,
                    action,
                    seat,
                    record,
                    since: self.now,
                };
                if !self.open_roll(pending, out) {
                    return;
                }
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

    /// Appends an applied entry to the log, with its events and, at a turn end, a checkpoint.
    pub(super) fn record(
        &mut self,
        index: u64,
        seat: PlayerId,
        action: Action,
        rec: Record,
        events: Vec<classic::Event>,
        out: &mut Output,
    ) {
        let Some(r) = &mut self.run else { return };
        if let Err(e) = r.deal_events(&events) {
            self.halt(HaltReport::Internal(e), out);
            return;
        }
        let mut rec = rec;
        rec.controls = std::mem::take(&mut r.controls_here);
        let head = next_head(&r.head(), index, &rec.controls, &action);
        r.log.push(rec);
        r.push_head(head);
        Self::prune_votes(r, self.me);
        // Checkpoints already received for positions we have now passed are kept until we
        // reach them exactly; drop stale buffers.
        r.future_reveals.retain(|i, _| *i > index);
        // Past this position the applied entry is what a later one is compared with.
        r.refused = r.refused.take().filter(|(i, ..)| *i > index);
        out.events.push(ProtocolEvent::Applied {
            index,
            seat,
            action,
            events,
        });
        let winner = match &r.state {
            Game::Classic(s) => s.winner(),
            // Only the classic ruleset ends a turn by winning.
            _ => None,
        };
        let turn_end = matches!(action, Action::EndTurn) || winner.is_some();
        self.progress();
        self.checkpoint(turn_end, head, out);
        if let Some(w) = winner {
            out.events.push(ProtocolEvent::GameOver { winner: w });
            self.publish_secret_into(out);
        }
    }

    /// At a turn end, signs and sends our checkpoint; then compares every checkpoint received
    /// for a position we have now reached.
    pub(super) fn checkpoint(&mut self, turn_end: bool, head: [u8; 32], out: &mut Output) {
        if turn_end {
            let Some(r) = &mut self.run else { return };
            let at = r.next_index();
            let state_hash = r.state_hash();
            r.checkpoints.insert(at, state_hash);
            // Catching up over days, we sign none: one for where we stand once caught up.
            if r.me.is_some() && !self.quiet {
                r.days.checkpointed.insert(at);
                let raw = self.seal(&Body::Checkpoint {
                    index: at,
                    state_hash,
                    log_head: head,
                });
                if let Some(r) = &mut self.run {
                    r.last_checkpoints.insert(self.me, (at, raw.clone()));
                }
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

    pub(super) fn compare_checkpoint(
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
        if index
            .checked_sub(1)
            .is_some_and(|at| super::days::named_missed(r, at, &peer))
        {
            // Over days, a player voted missed at the round before may have resolved it
            // without the vote (a relay split between its late reveal and the votes): the
            // votes decide, its checkpoint there does not (`days`).
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
            let body = self.sync_body();
            let raw = self.seal(&body);
            out.send.push((Dest::All, raw));
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn on_checkpoint(
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
        if Self::from_participant(r, out, link, sender).is_none() {
            return;
        }
        if sender == self.me {
            r.days.checkpointed.insert(index);
            return;
        }
        if r.last_checkpoints
            .get(&sender)
            .is_none_or(|(i, _)| index > *i)
        {
            r.last_checkpoints.insert(sender, (index, raw.to_vec()));
        }
        let next = r.next_index();
        if index <= next {
            self.compare_checkpoint(sender, index, state_hash, log_head, raw.to_vec(), out);
        } else if index < next + MAX_AHEAD {
            // Kept until we get there: the same one again adds nothing, and two different ones
            // from one sender already show it disagrees with itself, so a sender signing more
            // cannot grow the list (each is looked at while a vote holds us: `held_by_vote`).
            let list = r.their_checkpoints.entry(index).or_default();
            let theirs = list.iter().filter(|(k, ..)| *k == sender);
            let same = theirs
                .clone()
                .any(|(_, s, h, _)| (*s, *h) == (state_hash, log_head));
            if !same && theirs.count() < 2 {
                list.push((sender, state_hash, log_head, raw.to_vec()));
            }
        } else {
            Self::reject(out, link, Some(sender), Violation::TooFarAhead { index });
        }
    }
}
