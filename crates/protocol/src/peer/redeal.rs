//! Withholding the deal (security review A6): who the face-down cards wait for, and starting the
//! deal again without a participant whose key or escrow never came.
//!
//! Owns `DealRun::number` and `members` (which deal of the game runs, among whom) and the
//! mapping between participants and the seats of the deal's table. A participant that keeps
//! back its key, its escrow or a shuffle blocks every card: every peer sees that from the
//! broadcasts it took (`Table::awaited`) and names it as what the game waits for; the vote may
//! drop it where a player (or a computer seat) is blocked on cards. Dropping it then either
//! stands in for it (its key and escrow are in: `deal_control`) or, when its key or escrow never
//! came, starts the deal again among the participants left: no decryption share goes out before
//! every key and escrow is in, so no card has been read, and the engine's slots (positions of
//! the decks) stay the same, only what lies behind them is dealt anew.
//!
//! Invariants: a deal's messages count only in that deal (a later deal's wait for it, an
//! earlier one's are dropped without blame); each deal has fresh keys (a withholder that held
//! escrow pieces of the first deal learns nothing of the second); whether a drop starts the deal
//! again is decided where the drop applies, from the deal messages every peer has exchanged
//! during the pause.

use super::*;
use orbis_deal::table::{Holder, Table};
use orbis_engine::classic::Slot;

impl DealRun {
    /// The seat of participant `p` at this deal's table.
    pub(super) fn seat_of(&self, p: u8) -> Option<u8> {
        self.members.iter().position(|&m| m == p).map(|i| i as u8)
    }

    /// The participant at seat `seat` of this deal's table.
    pub(super) fn participant_of(&self, seat: u8) -> Option<u8> {
        self.members.get(seat as usize).copied()
    }

    /// A holder named by participant, as this deal's table names it (a participant outside the
    /// deal holds nothing: its cards are face up).
    pub(super) fn at_table(&self, h: Holder) -> Holder {
        match h {
            Holder::Seat(p) => self.seat_of(p).map_or(Holder::Everyone, Holder::Seat),
            h => h,
        }
    }

    /// Participants (not dropped) whose part of the deal's setup every card waits for.
    pub(super) fn awaited(&self, excluded: &BTreeSet<u8>) -> Vec<u8> {
        self.table
            .awaited()
            .into_iter()
            .filter_map(|s| self.participant_of(s))
            .filter(|p| !excluded.contains(p))
            .collect()
    }
}

impl Run {
    /// Whether dropping participant `p` starts the deal again without it: its key or (where
    /// the deal escrows) its escrow never came, so nobody could stand in for it, and no card
    /// has been read (shares wait for every key and escrow). Never once a card was shown or the
    /// discards dealt again (then cards were read).
    pub(super) fn redeal_needed(&self, p: u8) -> bool {
        let Some(d) = &self.deal else {
            return false;
        };
        let Some(seat) = d.seat_of(p) else {
            return false;
        };
        let untouched = match &self.state {
            Game::Classic(s) => s
                .sealed
                .as_ref()
                .is_some_and(|x| x.shown.is_empty() && x.decks.len() == 1),
            Game::Economy(s) => s
                .sealed
                .as_ref()
                .is_some_and(|x| x.shown.is_empty() && x.gone.is_empty() && x.decks.len() == 1),
            Game::Orders(_) => false,
        };
        let t = &d.table;
        untouched && (!t.has_key(seat) || (t.escrowed() && !t.has_escrow(seat)))
    }

    /// Starts the deal again among the participants of the deal not dropped (at the position
    /// where the drop applied, on every peer): a new table with fresh keys, and every slot a
    /// seat holds drawn again for its holder.
    pub(super) fn redeal(&mut self) {
        self.shared.clear();
        let decks = match &self.state {
            Game::Classic(s) => match &s.sealed {
                Some(sealed) => deal::decks(sealed),
                None => return,
            },
            Game::Economy(s) => match &s.sealed {
                Some(sealed) => influence_decks(sealed),
                None => return,
            },
            Game::Orders(_) => return,
        };
        // A classic seat's mission first, then its cards (the order its draws were made in).
        let holders: Vec<(Slot, Holder)> = (0..self.proposal.seats.len() as PlayerId)
            .flat_map(|seat| {
                let h = self.holder(seat);
                let mut slots = self.hidden(seat);
                slots.rotate_right(usize::from(self.mission_held(seat)));
                slots.into_iter().map(move |slot| (slot, h))
            })
            .collect();
        let Some(d) = &mut self.deal else { return };
        let members: Vec<u8> = d
            .members
            .iter()
            .copied()
            .filter(|p| !self.excluded.contains(p))
            .collect();
        let number = d.number.saturating_add(1);
        // Every proof of the new deal is bound to it: its number and who deals.
        let mut game = self.tag.to_vec();
        game.extend_from_slice(b"redeal");
        game.push(number);
        game.extend_from_slice(&members);
        let mut seed = d.seed.to_vec();
        seed.push(number);
        let seed = sha256(&seed);
        let n = members.len() as u8;
        let me = self
            .me
            .and_then(|m| members.iter().position(|&x| x == m))
            .map(|i| i as u8);
        let (table, out) = match me {
            Some(me) => Table::new(&game, n, me, decks, seed),
            None => (Table::observer(&game, n, decks), vec![]),
        };
        let table = match self.proposal.stand_in {
            true => table,
            false => table.without_escrow(),
        };
        d.table = table;
        // Slots are the new table's seats: the old deal's messages prove nothing here.
        d.firsts.clear();
        d.diverged = false;
        // The digest covers this deal's messages only (another's are dropped without a trace).
        d.digest = [0; 32];
        d.outbox.extend(out);
        d.number = number;
        d.members = members;
        for (slot, h) in holders {
            d.draw(slot, h);
        }
    }
}

impl Peer {
    /// Whom a classic game waits for: the player to move, or, when that player (or a computer
    /// seat) cannot read its face-down cards, whoever withholds its part of the deal.
    pub(super) fn classic_waiting_on(&self, r: &Run, s: &ClassicState) -> Vec<PeerKey> {
        let parts = &r.proposal.participants;
        let keys = |list: Vec<u8>| -> Vec<PeerKey> {
            list.into_iter()
                .filter_map(|i| parts.get(i as usize).copied())
                .collect()
        };
        let current = &s.players[s.current as usize];
        let sealed = !current.sealed.is_empty() || current.sealed_mission.is_some();
        // What every peer sees from the broadcasts: a key, escrow or shuffle that never came.
        let awaited = match &r.deal {
            Some(d) if sealed => d.awaited(&r.excluded),
            _ => vec![],
        };
        match r.controller(s.current) {
            // Our own seat: the deal blocks us only while we hold a card we cannot read. A deck
            // still waiting for someone's shuffle holds none of our cards yet (long-run seed
            // 4600560: naming its withholder while we could move made us vote it out, and that
            // vote, which the others had no reason to join, held us at this position for good).
            Some(Controller::Peer(p)) if r.me == Some(p) => {
                let at = r.next_index();
                if r.move_waits(&self.me) && Self::bound(r, at, &self.me) {
                    // Our move is out and waits for the vote we cast here to be decided.
                    return Self::bound_on(r, at, &self.me);
                }
                let w = self.withheld_from(p);
                if w.is_empty() {
                    keys(vec![p])
                } else {
                    w
                }
            }
            Some(Controller::Peer(p)) => {
                // What every peer sees comes before what the player to move says: a player
                // whose own escrow or key never reached the others reads no card, and blames
                // whoever has not sent it shares (they wait, rightly, for its part).
                let mut w = keys(awaited);
                if w.is_empty() {
                    w = self.withheld_from(p);
                }
                if w.is_empty() {
                    w = parts.get(p as usize).copied().into_iter().collect();
                }
                w
            }
            // A computer seat shows its cards before it plays on: whoever keeps them face down.
            Some(Controller::Bot(_)) if r.bot_show(s.current) == Some(None) => {
                let Some(d) = &r.deal else { return vec![] };
                let mut w: BTreeSet<u8> = awaited.into_iter().collect();
                for slot in current.sealed_mission.iter().chain(&current.sealed) {
                    w.extend(
                        d.table
                            .missing(slot.deck, slot.position)
                            .into_iter()
                            .filter_map(|x| d.participant_of(x))
                            .filter(|x| !r.excluded.contains(x)),
                    );
                }
                keys(w.into_iter().collect())
            }
            _ => vec![],
        }
    }
}
