//! The face-down deal of a classic game (`SetupProposal::face_down`): this participant's
//! [`Table`] (`orbis_deal`), fed with the deal messages of the others and with the draws the
//! game makes, and the checks that tie the log to it.
//!
//! Owns `Run::deal`, and the claims of withholding (`Run::withheld`, `claimed_unread`,
//! `shared`; judged in `withheld`). A holder's side — reading, the private view, showing a card,
//! claiming a mission — is in `show`; the economy's influence cards in `influence`. How the game
//! and the deal meet:
//! - the engine's state holds slots, never cards (`ClassicState::new_sealed`); each
//!   `CardDealt`, `SlotsTaken` and `Reshuffled` event, and each seat's mission at the start, is
//!   a draw of the table, for the seat's participant alone or, for a seat a computer plays, face
//!   up for everyone;
//! - a `Show` entry enters the log only once the table has checked the reveal of that slot and
//!   the card is the one shown: a participant cannot show (so cannot trade) a card it does not
//!   hold;
//! - a computer seat shows its face-down cards, one `Show` at a time, before it plays on; a
//!   seat handed to a computer (by vote) has its cards drawn again face up; a dropped
//!   participant's key is stood in for by all the others, so its draws go through;
//! - this participant trades face-down cards by revealing them first (in [`Peer::act`]) and
//!   shows its mission as soon as it is done, on its own turn;
//! - a participant's report that its cards wait for others' shares (`Sync::withheld`) is its
//!   claim, not a fact (security review B9): an accused answers it by sending its shares of
//!   those positions to everyone (still addressed to the holder, who opens nothing more with one
//!   share), and a peer that took them no longer names it ([`Peer::withholding`]).
//!
//! Invariants: a deal message that does not check out halts the game naming its sender (its
//! signed bytes are the evidence); so do two different signed keys, escrows (for the same keys)
//! or shuffles (of the same deck) from one participant, with both messages as evidence
//! (security review A4), and an escrow whose piece sealed to us is wrong, with our complaint
//! broadcast as the proof (A5); every key, escrow and shuffle taken is echoed to everyone once,
//! so conflicting ones meet; a message that builds on what we do not hold is kept and makes
//! our `Sync` ask for every deal message the others took (should an echo be lost); a private
//! share travels only over its recipient's own connection, except when its sender answers a
//! claim that it withheld it; the same message arriving twice (a resend, or a reloaded
//! participant making it again) changes nothing.

use super::*;
use orbis_deal::table::{DealMsg, DeckSpec, Holder, Out, Refused, Table};
use orbis_engine::classic::{CardId, SealedDeal, Slot};

/// Deal messages kept to retry when they came before what they follow.
const MAX_WAITING: usize = 1024;

/// Unread positions a `Sync` lists.
pub(super) const MAX_UNREAD: usize = 64;

/// A deal message kept for later: (deal number, sender's participant index, to, message,
/// signed bytes).
pub(super) type Waiting = (u8, u8, Option<u8>, DealMsg, Vec<u8>);

/// This participant's side of a face-down deal.
#[derive(Clone)]
pub(super) struct DealRun {
    pub(super) table: Table,
    /// Messages to sign and send.
    pub(super) outbox: Vec<Out>,
    /// Every broadcast deal message taken, as signed (for `Sync` answers and the transcript).
    pub(super) log: Vec<Vec<u8>>,
    /// Hashes of (sender, message) taken: a copy is ignored.
    taken: BTreeSet<[u8; 32]>,
    /// Hashes of the broadcast messages in `log`. Kept apart from `taken`: a share sent first
    /// to us alone and later to everyone (the same bytes, for a card turned face up) is taken
    /// once but must be logged, or a transcript could not open that card.
    logged: BTreeSet<[u8; 32]>,
    /// The XOR of the hashes in `logged` of this deal's messages (`Sync::deal_digest`): two
    /// peers that each lack a broadcast the other took (lost on the way; a reveal, a share of a
    /// card drawn face up) hold as many messages, so comparing counts alone, neither sent the
    /// other its log, and a `Show` whose reveal one of them lacked stalled the game for good.
    pub(super) digest: [u8; 32],
    /// Messages that came before what they follow: (deal number, sender's participant index,
    /// to, message, signed bytes).
    pub(super) waiting: Vec<Waiting>,
    /// Which deal of the game the table runs: 0, then one more each time the deal started
    /// again without a participant (see `redeal`).
    pub(super) number: u8,
    /// The participants of this deal in participant order: table seat `i` is participant
    /// `members[i]`. Seat numbers inside deal messages are the table's.
    pub(super) members: Vec<u8>,
    /// Our secret seed for the tables of this game (each deal derives its own from it).
    pub(super) seed: [u8; 32],
    /// Secrets published at the end, checked against their keys, with their signed bytes.
    pub(super) secrets: BTreeMap<u8, ([u8; 32], Vec<u8>)>,
    /// Pieces of the keys of participants who left, published at the end: by owner, then by
    /// holder, each checked against its commitment.
    pieces: BTreeMap<u8, BTreeMap<u8, [u8; 32]>>,
    /// The signed messages that published them, by holder (for the transcript).
    pub(super) piece_msgs: BTreeMap<u8, Vec<u8>>,
    /// Secrets of participants who left, rebuilt from every other participant's piece.
    pub(super) rebuilt: BTreeMap<u8, [u8; 32]>,
    /// Whether we published ours.
    published: bool,
    /// The first signed key, escrow and shuffle taken from each seat, by [`slot_of`]: a second,
    /// different one for the same slot halts with both as evidence.
    pub(super) firsts: BTreeMap<(u8, u8, u8), Vec<u8>>,
    /// A waiting message builds on keys, an escrow or a deck we do not hold: our `Sync` asks
    /// for every deal message the others took.
    pub(super) diverged: bool,
}

/// The slot of the deal a broadcast fills, once per seat: its key, its escrow, its shuffle of
/// each deck.
fn slot_of(seat: u8, msg: &DealMsg) -> Option<(u8, u8, u8)> {
    match msg {
        DealMsg::Key(_) => Some((0, seat, 0)),
        DealMsg::Escrow(_) => Some((1, seat, 0)),
        DealMsg::Shuffle { deck, .. } => Some((2, seat, *deck)),
        _ => None,
    }
}

fn msg_hash(number: u8, from: u8, msg: &DealMsg) -> [u8; 32] {
    let mut b = b"orbis-deal-msg".to_vec();
    b.push(number);
    b.push(from);
    b.extend_from_slice(&codec::encode(msg));
    sha256(&b)
}

/// The decks of a face-down game: the territory cards, then the missions.
pub(super) fn decks(s: &SealedDeal) -> Vec<DeckSpec> {
    vec![
        DeckSpec::full(b"territory", s.decks[0].len() as u16),
        DeckSpec::full(b"mission", s.missions.len() as u16),
    ]
}

impl DealRun {
    /// Logs a broadcast message (`to` is `None`) the first time it comes, whether it was taken
    /// now or earlier as a private copy; private messages are never logged.
    fn log_broadcast(&mut self, to: Option<u8>, h: [u8; 32], raw: Vec<u8>) {
        if to.is_none() && self.logged.insert(h) {
            self.log.push(raw);
            for (d, x) in self.digest.iter_mut().zip(h) {
                *d ^= x;
            }
        }
    }

    /// Keeps the checked pieces `from` published, and rebuilds each leaver's secret once every
    /// other participant's piece of it is in.
    fn add_pieces(&mut self, from: u8, pieces: Vec<(u8, [u8; 32])>) {
        for (owner, piece) in pieces {
            if owner == from {
                continue;
            }
            let got = self.pieces.entry(owner).or_default();
            got.insert(from, piece);
            if !self.rebuilt.contains_key(&owner) {
                if let Some(secret) = self.table.rebuild_secret(owner, got) {
                    self.rebuilt.insert(owner, secret);
                }
            }
        }
    }

    /// Our table for a game that starts now, with the draws of the missions (an observer's
    /// table when we play no part).
    pub(super) fn start(r: &Run, me: Option<u8>, identity: &[u8; 32]) -> Option<DealRun> {
        let (decks, missions) = match &r.state {
            Game::Classic(s) => {
                let missions: Vec<(PlayerId, Slot)> = (0..s.players.len() as PlayerId)
                    .filter_map(|i| s.players[i as usize].sealed_mission.map(|m| (i, m)))
                    .collect();
                (decks(s.sealed.as_ref()?), missions)
            }
            Game::Economy(s) => (influence_decks(s.sealed.as_ref()?), vec![]),
            Game::Orders(_) => return None,
        };
        let mut seed = b"orbis-deal-seed".to_vec();
        seed.extend_from_slice(identity);
        seed.extend_from_slice(&r.tag);
        let seed = sha256(&seed);
        let n = r.proposal.participants.len() as u8;
        let (table, out) = match me {
            Some(me) => Table::new(&r.tag, n, me, decks, seed),
            None => (Table::observer(&r.tag, n, decks), vec![]),
        };
        let table = match r.proposal.stand_in {
            true => table,
            false => table.without_escrow(),
        };
        let mut d = DealRun {
            table,
            outbox: out,
            log: vec![],
            taken: BTreeSet::new(),
            logged: BTreeSet::new(),
            digest: [0; 32],
            waiting: vec![],
            number: 0,
            members: (0..n).collect(),
            seed,
            secrets: BTreeMap::new(),
            pieces: BTreeMap::new(),
            piece_msgs: BTreeMap::new(),
            rebuilt: BTreeMap::new(),
            published: false,
            firsts: BTreeMap::new(),
            diverged: false,
        };
        for (seat, slot) in missions {
            d.draw(slot, r.holder(seat));
        }
        Some(d)
    }

    /// `holder` (a participant, or everyone) draws `slot`.
    pub(super) fn draw(&mut self, slot: Slot, holder: Holder) {
        let holder = self.at_table(holder);
        let out = self.table.draw(slot.deck, slot.position, holder);
        self.outbox.extend(out);
    }

    /// A deck of known cards (`layout`) laid out and shuffled anew, as deck number `deck` of
    /// the game: the discards reshuffled (classic's territory cards, the economy's influence).
    pub(super) fn reshuffled(
        &mut self,
        deck: u8,
        name: &[u8],
        cards: u16,
        layout: Vec<u16>,
    ) -> Result<(), String> {
        if deck != self.table.decks() {
            return Err(format!("deck {deck} dealt as deck {}", self.table.decks()));
        }
        let out = self.table.add_deck(DeckSpec {
            layout,
            ..DeckSpec::full(name, cards)
        });
        self.outbox.extend(out);
        Ok(())
    }

    /// The card behind a slot, if we know it.
    pub(super) fn card(&self, slot: Slot) -> Option<CardId> {
        self.table
            .card(slot.deck, slot.position)
            .and_then(|c| CardId::try_from(c).ok())
    }
}

impl Run {
    /// Who reads the cards of `seat`: its participant, or everyone when a computer plays it.
    pub(super) fn holder(&self, seat: PlayerId) -> Holder {
        match self.controller(seat) {
            Some(Controller::Peer(p)) if !self.excluded.contains(&p) => Holder::Seat(p),
            _ => Holder::Everyone,
        }
    }

    /// The deal's side of what the engine just did.
    pub(super) fn deal_events(&mut self, events: &[classic::Event]) -> Result<(), String> {
        let Game::Classic(s) = &self.state else {
            return Ok(());
        };
        let ids = s.sealed.as_ref().map_or(0, |x| x.decks[0].len() as u16);
        let holders: Vec<Holder> = (0..s.players.len() as PlayerId)
            .map(|p| self.holder(p))
            .collect();
        let Some(d) = &mut self.deal else {
            return Ok(());
        };
        for e in events {
            match e {
                classic::Event::CardDealt { player, slot } => {
                    d.draw(*slot, holders[*player as usize]);
                }
                classic::Event::SlotsTaken { to, slots, .. } => {
                    for s in slots {
                        d.draw(*s, holders[*to as usize]);
                    }
                }
                classic::Event::Reshuffled { deck, cards } => {
                    let layout = cards.iter().map(|&c| u16::from(c)).collect();
                    d.reshuffled(*deck, b"territory", ids, layout)?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Whether the deal can go on without participant `p`, whom a vote is dropping: all the
    /// others stand in for its key, which needs an escrow of two holders or more (three
    /// participants or more: with two, its one piece would be the whole key, so there is none;
    /// and a table that chose no stand-in has none, A2) and every holder still there (one who left took its piece with it). Not so, the game
    /// ends where the drop applies (security review A1). A function of the proposal and the
    /// votes, so every peer, and `orbis verify`, decides alike.
    pub(super) fn deal_survives(&self, p: u8) -> bool {
        self.deal.as_ref().is_none_or(|d| {
            !d.members.contains(&p)
                || (d.table.escrowed()
                    && d.members
                        .iter()
                        .all(|x| *x == p || !self.excluded.contains(x)))
        })
    }

    /// A vote handed `seats` to a computer (and, for a drop, excluded participant `dropped`):
    /// their face-down cards are drawn again face up, and all the others stand in for the
    /// dropped participant's key.
    pub(super) fn deal_control(&mut self, seats: &[PlayerId], dropped: Option<u8>) {
        let hidden: Vec<Vec<Slot>> = seats.iter().map(|&s| self.hidden(s)).collect();
        let Some(d) = &mut self.deal else { return };
        if let Some(seat) = dropped.and_then(|p| d.seat_of(p)) {
            // An error: we hold no piece of its key (its escrow never came), so nobody can
            // stand in, and its draws stay unread.
            if let Ok(out) = d.table.stand_in(seat) {
                d.outbox.extend(out);
            }
        }
        for slot in hidden.iter().flatten() {
            let out = d.table.draw(slot.deck, slot.position, Holder::Everyone);
            d.outbox.extend(out);
        }
    }

    /// The next move of a computer seat that still holds face-down cards: show the first one
    /// (`Some(None)`: wait, its card is not public yet). `None`: it holds none.
    pub(super) fn bot_show(&self, seat: PlayerId) -> Option<Option<Action>> {
        let Game::Classic(s) = &self.state else {
            return None;
        };
        let pl = s.players.get(seat as usize)?;
        let slot = pl.sealed_mission.or_else(|| pl.sealed.first().copied())?;
        let card = self.deal.as_ref().and_then(|d| d.card(slot));
        Some(card.map(|card| Action::Show { slot, card }))
    }

    /// Whether a `Show` entry may enter the log: `Some(true)` it shows the card the table
    /// checked at that slot, `Some(false)` another, `None` the reveal has not come yet.
    pub(super) fn show_checks(&self, a: &Action) -> Option<bool> {
        let Action::Show { slot, card } = a else {
            return Some(true);
        };
        let d = self.deal.as_ref()?;
        let known = d.card(*slot)?;
        Some(known == *card)
    }

    /// Positions of our seats' cards we cannot read yet (for `Sync`).
    pub(super) fn unread(&self) -> Vec<(u8, u16)> {
        let (Some(d), Some(me)) = (&self.deal, self.me) else {
            return vec![];
        };
        (0..self.proposal.seats.len() as PlayerId)
            .filter(|&seat| self.holder(seat) == Holder::Seat(me))
            .flat_map(|seat| self.hidden(seat))
            .filter(|slot| d.card(*slot).is_none())
            .map(|slot| (slot.deck, slot.position))
            .take(MAX_UNREAD)
            .collect()
    }

    /// Participants whose shares of our unread cards have not come (the dealt decks only).
    pub(super) fn withheld(&self) -> Vec<u8> {
        let Some(d) = &self.deal else { return vec![] };
        let mut w: BTreeSet<u8> = BTreeSet::new();
        let unread = self.unread();
        for &(deck, position) in &unread {
            w.extend(d.table.missing(deck, position));
        }
        // A key, escrow or shuffle that never came blocks every card (security review A6).
        if !unread.is_empty() {
            w.extend(d.table.awaited());
        }
        w.into_iter()
            .filter_map(|s| d.participant_of(s))
            .filter(|p| !self.excluded.contains(p))
            .collect()
    }

    /// A face-down game waits on the current player, who holds cards it may not be able to
    /// read, or on a computer seat that must show its face-down cards before it plays on: a
    /// vote may then drop another participant (the one withholding its shares, key, escrow or
    /// shuffle). Every peer answers alike (the log decides); whom to drop is the voters' call,
    /// on what they see and what the blocked player reported (`Sync::withheld`), and a target
    /// that withholds nothing refuses it (`Wait::Cards`).
    pub(super) fn waits_on_cards(&self, target: u8) -> bool {
        let Game::Classic(s) = &self.state else {
            return false;
        };
        if self.deal.is_none() || s.winner().is_some() || self.pending.is_some() {
            return false;
        }
        let p = &s.players[s.current as usize];
        let blocked = !p.sealed.is_empty() || p.sealed_mission.is_some();
        let other = match self.controller(s.current) {
            Some(Controller::Peer(c)) => c != target,
            Some(Controller::Bot(_)) => true,
            None => false,
        };
        other && blocked
    }
}

impl Peer {
    /// A deal message from `sender`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn on_deal(
        &mut self,
        link: Option<LinkId>,
        sender: PeerKey,
        number: u8,
        to: Option<u8>,
        msg: DealMsg,
        raw: &[u8],
        out: &mut Output,
    ) {
        let Some(r) = &mut self.run else { return };
        let Some(from) = Self::from_participant(r, out, link, sender) else {
            return;
        };
        // Not for us (a copy that went astray, or an accused showing it sent its share):
        // nobody's fault. Someone replaying a transcript checks it all the same (a halt's
        // evidence may be a private share).
        if to.is_some() && to != r.me && r.me.is_some() {
            if let (Some(h), Some(d)) = (to, &r.deal) {
                let slot = match &msg {
                    DealMsg::Share { deck, position, .. } => Some((*deck, *position, None)),
                    DealMsg::PieceShare {
                        deck,
                        position,
                        leaver,
                        ..
                    } => d
                        .participant_of(*leaver)
                        .map(|l| (*deck, *position, Some(l))),
                    _ => None,
                };
                // Only true shares (anyone can check one against its sender's key or piece
                // commitment: an unchecked one refuted a true claim, independent review of
                // issue 29's fix), of positions that holder holds (so the table stays as small
                // as the deal).
                let checks = match (d.seat_of(from), d.seat_of(h)) {
                    (Some(f), Some(hs)) => d.table.checks_out_for(f, hs, &msg),
                    _ => false,
                };
                if let Some((deck, position, leaver)) =
                    slot.filter(|_| number == d.number && checks)
                {
                    // Passed on to its holder: an accused that shows everyone but the holder
                    // its share (so the others see the claim refuted while the holder still
                    // lacks it) cannot keep the holder's card face down (issue 29). The share
                    // is everyone's to see already, and opens nothing without the holder's own.
                    let to_holder = r
                        .proposal
                        .participants
                        .get(h as usize)
                        .and_then(|k| self.names.link_of(k))
                        .filter(|l| Some(*l) != link);
                    let key = (h, from, deck, position, leaver);
                    if let std::collections::btree_map::Entry::Vacant(e) = r.shared.entry(key) {
                        e.insert(raw.to_vec());
                        if let Some(l) = to_holder {
                            out.send.push((Dest::Link(l), raw.to_vec()));
                        }
                    }
                }
            }
            return;
        }
        let Some(d) = &mut r.deal else { return };
        if number < d.number {
            return; // a message of a deal that started again since: it opens nothing now
        }
        if number == d.number && Some(from) == d.participant_of(d.table.me()) {
            // Our own message again (a resend after our reload): the table makes the very
            // same ones itself.
            let h = msg_hash(number, d.table.me(), &msg);
            if to.is_none() {
                d.taken.insert(h);
            }
            d.log_broadcast(to, h, raw.to_vec());
            return;
        }
        // A later deal's messages wait for it (we have not reached its vote yet).
        d.waiting.push((number, from, to, msg, raw.to_vec()));
        // Taken by `advance`, which the caller runs next.
    }

    /// Takes every waiting message that can be taken now, until none can; true if any was.
    pub(super) fn deal_retry(&mut self, out: &mut Output) -> bool {
        let mut any = false;
        loop {
            let Some(r) = &mut self.run else { return any };
            let excluded = r.excluded.clone();
            let Some(d) = &mut r.deal else { return any };
            if d.waiting.is_empty() {
                d.diverged = false;
                return any;
            }
            let mut progress = false;
            let waiting = std::mem::take(&mut d.waiting);
            let mut keep = vec![];
            let mut cheat = None;
            let mut diverged = false;
            for (number, from, to, msg, raw) in waiting {
                if cheat.is_some() || number > d.number {
                    keep.push((number, from, to, msg, raw));
                    continue;
                }
                // A deal that started again since, or a sender outside this deal: nothing.
                let Some(seat) = d.seat_of(from).filter(|_| number == d.number) else {
                    continue;
                };
                // A share of a participant voted out: the others stand in for it. One made for
                // a deck it alone saw whole (it withheld its shuffle) would not check out, and
                // must not halt the game it left.
                if excluded.contains(&from)
                    && matches!(msg, DealMsg::Share { .. } | DealMsg::PieceShare { .. })
                {
                    continue;
                }
                let h = msg_hash(number, seat, &msg);
                // Taken already, or our own (resent to us after a reload, before we reached
                // its deal): our table makes the very same ones itself.
                if d.taken.contains(&h) || seat == d.table.me() {
                    d.log_broadcast(to, h, raw);
                    continue;
                }
                match d.table.receive(seat, msg.clone()) {
                    Ok(o) => {
                        d.taken.insert(h);
                        if let Some(slot) = slot_of(seat, &msg).filter(|_| to.is_none()) {
                            d.firsts.entry(slot).or_insert_with(|| raw.clone());
                            // Echoed to everyone once, as log entries are: a participant that
                            // sends different keys, escrows or shuffles to different peers is
                            // seen by all of them at once (two escrows that never met would
                            // have an honest holder named when it stands in).
                            out.send.push((Dest::All, raw.clone()));
                        }
                        d.log_broadcast(to, h, raw);
                        d.outbox.extend(o);
                        progress = true;
                    }
                    Err(Refused::OutOfTurn { .. }) => keep.push((number, from, to, msg, raw)),
                    Err(Refused::Diverged { .. }) => {
                        diverged = true;
                        keep.push((number, from, to, msg, raw));
                    }
                    Err(Refused::Cheat(c)) => {
                        // Two signed messages for one slot: the first is evidence too.
                        let first = slot_of(seat, &msg)
                            .filter(|_| matches!(c.what, orbis_deal::DealError::Conflict(_)))
                            .and_then(|s| d.firsts.get(&s).cloned());
                        cheat = Some((c, first.into_iter().chain([raw]).collect(), None));
                    }
                    // A wrong piece sealed to us: our complaint proves it to everyone.
                    Err(Refused::Proved { cheat: c, proof }) => {
                        cheat = Some((c, vec![raw], Some(proof)));
                    }
                }
            }
            if keep.len() > MAX_WAITING {
                keep.drain(..keep.len() - MAX_WAITING);
            }
            d.waiting = keep;
            d.diverged = diverged;
            if let Some((c, mut evidence, proof)) = cheat {
                let peer = d
                    .participant_of(c.seat)
                    .and_then(|p| r.proposal.participants.get(p as usize))
                    .copied()
                    .unwrap_or(PeerKey([0; 32]));
                let report = HaltReport::Cheat {
                    peer,
                    what: c.what.to_string(),
                };
                if let Some(msg) = proof {
                    let body = Body::Deal {
                        deal: d.number,
                        to: None,
                        msg: *msg,
                    };
                    let tag = r.tag;
                    evidence.push(Envelope::seal(&self.key, tag, self.seq, &body));
                    self.seq = self.seq.saturating_add(1);
                }
                self.halt_with(report, evidence, out);
                return any;
            }
            if !progress {
                return any;
            }
            any = true;
        }
    }

    /// Signs and sends what the table has for the others.
    pub(super) fn deal_flush(&mut self, out: &mut Output) {
        let Some(r) = &mut self.run else { return };
        let Some(d) = &mut r.deal else { return };
        let outbox = std::mem::take(&mut d.outbox);
        if outbox.is_empty() {
            return;
        }
        let tag = r.tag;
        let parts = r.proposal.participants.clone();
        let deal = d.number;
        for o in outbox {
            // `to` on the wire: the recipient's participant index.
            let (to, msg) = match o {
                Out::Broadcast(m) => (None, m),
                Out::Send(seat, m) => match d.participant_of(seat) {
                    Some(p) => (Some(p), m),
                    None => continue,
                },
            };
            let h = msg_hash(deal, d.table.me(), &msg);
            let body = Body::Deal { deal, to, msg };
            let raw = Envelope::seal(&self.key, tag, self.seq, &body);
            self.seq = self.seq.saturating_add(1);
            match to {
                None => {
                    d.taken.insert(h);
                    d.log_broadcast(None, h, raw.clone());
                    out.send.push((Dest::All, raw));
                }
                Some(p) => {
                    // Over the recipient's own connection or not at all (it asks again).
                    let link = parts.get(p as usize).and_then(|k| self.names.link_of(k));
                    if let Some(l) = link {
                        out.send.push((Dest::Link(l), raw));
                    }
                }
            }
        }
    }

    /// Publishes our secret key share, once: at the end of the game (won, halted, or left),
    /// so that anyone can check the whole deal. Nothing is left to hide then.
    pub(super) fn publish_secret_into(&mut self, out: &mut Output) {
        let Some(r) = &mut self.run else { return };
        let tag = r.tag;
        let Some(d) = &mut r.deal else { return };
        if d.published || d.table.is_observer() {
            return;
        }
        d.published = true;
        let secret = d.table.secret();
        let deal = d.number;
        let raw = Envelope::seal(&self.key, tag, self.seq, &Body::DealSecret { deal, secret });
        self.seq = self.seq.saturating_add(1);
        d.secrets.insert(d.table.me(), (secret, raw.clone()));
        out.send.push((Dest::All, raw));
        // Our pieces of the keys of those who left, so that theirs can be rebuilt too.
        let pieces = d.table.left_pieces();
        if !pieces.is_empty() {
            let body = Body::DealPieces {
                deal,
                pieces: pieces.clone(),
            };
            let raw = Envelope::seal(&self.key, tag, self.seq, &body);
            self.seq = self.seq.saturating_add(1);
            let me = d.table.me();
            d.piece_msgs.insert(me, raw.clone());
            d.add_pieces(me, pieces);
            out.send.push((Dest::All, raw));
        }
    }

    /// Where a face-down game ended without a winner, and who left it (see
    /// [`ProtocolEvent::GameEnded`]).
    pub fn ended(&self) -> Option<(u64, PeerKey)> {
        let r = self.run.as_ref()?;
        let (at, p) = r.ended?;
        Some((at, *r.proposal.participants.get(p as usize)?))
    }

    /// True when voting `peer` out would end this face-down game unwon: the deal cannot stand
    /// in for its cards (one of two participants, or a second leaver). The page words its vote
    /// button by this.
    pub fn drop_ends_game(&self, peer: &PeerKey) -> bool {
        let Some(r) = self.run.as_ref() else {
            return false;
        };
        r.participant(peer).is_some_and(|p| !r.deal_survives(p))
    }

    /// Publishes our secret key share now (for a player who leaves the game for good).
    pub fn publish_secret(&mut self) -> Output {
        let mut out = Output::default();
        self.publish_secret_into(&mut out);
        out
    }

    /// A secret published by `sender`: kept if it is its key's, else its sender is named.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn on_deal_secret(
        &mut self,
        link: Option<LinkId>,
        sender: PeerKey,
        number: u8,
        secret: [u8; 32],
        raw: &[u8],
        out: &mut Output,
    ) {
        let Some(r) = &mut self.run else { return };
        let Some(p) = Self::from_participant(r, out, link, sender) else {
            return;
        };
        let Some(d) = &mut r.deal else { return };
        // Another deal's secret, or a participant outside this deal: it opens nothing here.
        let Some(from) = d.seat_of(p).filter(|_| number == d.number) else {
            return;
        };
        match d.table.check_secret(from, secret) {
            Ok(()) => {
                d.secrets.entry(from).or_insert((secret, raw.to_vec()));
            }
            Err(e) => Self::reject(
                out,
                link,
                Some(sender),
                Violation::Deal {
                    error: e.to_string(),
                },
            ),
        }
    }

    /// Pieces of the keys of participants who left, published by `sender` at the end: each
    /// checked against its commitment (a wrong one names the sender), and a leaver's secret
    /// rebuilt once every other participant's piece is in.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn on_deal_pieces(
        &mut self,
        link: Option<LinkId>,
        sender: PeerKey,
        number: u8,
        pieces: Vec<(u8, [u8; 32])>,
        raw: &[u8],
        out: &mut Output,
    ) {
        let Some(r) = &mut self.run else { return };
        let Some(p) = Self::from_participant(r, out, link, sender) else {
            return;
        };
        let Some(d) = &mut r.deal else { return };
        let Some(from) = d.seat_of(p).filter(|_| number == d.number) else {
            return;
        };
        let checked = if pieces.len() >= usize::from(d.table.seats()) {
            Err("more pieces than participants".to_string())
        } else {
            // A participant's own key is its secret, published on its own: no piece of it.
            pieces
                .iter()
                .filter(|&&(owner, _)| owner != from)
                .try_for_each(|&(owner, piece)| d.table.check_piece(owner, from, piece))
                .map_err(|e| e.to_string())
        };
        match checked {
            Ok(()) => {
                d.piece_msgs.entry(from).or_insert_with(|| raw.to_vec());
                d.add_pieces(from, pieces);
            }
            Err(error) => Self::reject(out, link, Some(sender), Violation::Deal { error }),
        }
    }
}
