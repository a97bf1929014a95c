//! Drawing cards: which shares a draw waits for and from whom, our own decryption shares as
//! draws and shuffles fall due, resending them, and standing in for a seat that left with the
//! escrow pieces we hold of its key.
//!
//! Owns no state of its own: an `impl Table` block over the fields of [`Table`].

use super::*;

impl Table {
    pub(super) fn commitment(&self, leaver: u8, holder: u8) -> Option<RistrettoPoint> {
        self.commitments
            .get(&leaver)
            .and_then(|c| c.get(holder as usize).copied().flatten())
    }

    /// The draw a share from `from` is for, if we are to read it.
    pub(super) fn readable(&self, deck: u8, position: u16, from: u8) -> Result<&Draw, Refused> {
        let early = |what| Refused::OutOfTurn { seat: from, what };
        let draw = self
            .draws
            .get(&(deck, position))
            .ok_or(early("a share of a card nobody draws"))?;
        match draw.holder {
            // An observer (replaying a transcript) checks every share it is shown.
            Holder::Seat(h) if h != self.me && !self.is_observer() => {
                Err(early("a share not for us"))
            }
            _ => Ok(draw),
        }
    }

    pub(super) fn draw_mut(&mut self, deck: u8, position: u16) -> &mut Draw {
        self.draws
            .get_mut(&(deck, position))
            .expect("checked by `readable`")
    }

    pub(super) fn previous_done(&self, deck: u8) -> bool {
        self.decks[..deck as usize].iter().all(|d| d.next.is_none())
    }

    pub(super) fn position(&self, deck: u8, position: u16) -> Option<Ciphertext> {
        let d = self.decks.get(deck as usize)?;
        d.next
            .is_none()
            .then(|| d.cards.get(position as usize).copied())?
    }

    /// What is due from us now: our shuffles whose turn it is (decks in order, each seat after
    /// the one before), and our shares of draws on decks that are now fully shuffled.
    pub(super) fn due(&mut self) -> Vec<Out> {
        let Some(joint) = self.joint else {
            return vec![];
        };
        if self.is_observer() {
            return vec![];
        }
        let mut out = vec![];
        // Every escrow is in before the first shuffle (security review A5): a withholder is
        // named before any deck is dealt, and a holder checks its piece before any card could
        // be read.
        if !self.setup_done() {
            return out;
        }
        for deck in 0..self.decks.len() as u8 {
            if !self.previous_done(deck) || self.decks[deck as usize].next != Some(self.me) {
                continue;
            }
            let ctx = self.deck_context(deck, b"shuffle", u16::from(self.me));
            let d = &self.decks[deck as usize];
            let input = deck_digest(&joint, deck, &d.cards);
            let Ok((output, proof)) = shuffle(&ctx, &joint, &d.cards, &mut self.rng(&ctx)) else {
                continue;
            };
            self.shuffled
                .insert((deck, self.me), (input, cards_digest(&output)));
            let next = self.shuffler_after(deck as usize, Some(self.me));
            let d = &mut self.decks[deck as usize];
            d.cards = output.clone();
            d.next = next;
            out.push(Out::Broadcast(DealMsg::Shuffle {
                deck,
                input,
                output,
                proof: Box::new(proof),
            }));
        }
        let waiting: Vec<(u8, u16)> = self
            .draws
            .iter()
            .filter(|(k, d)| !d.shares.contains_key(&self.me) && self.position(k.0, k.1).is_some())
            .map(|(k, _)| *k)
            .collect();
        for (deck, position) in waiting {
            out.extend(self.my_shares(deck, position));
        }
        out
    }

    /// The game says `holder` draws `position` of `deck` (or draws it again, when a hand is
    /// taken over): every participant calls this at the same point of the game. Returns our
    /// share for the holder, now or, if the deck is still being shuffled, when it is dealt.
    pub fn draw(&mut self, deck: u8, position: u16, holder: Holder) -> Vec<Out> {
        match self.draws.get_mut(&(deck, position)) {
            Some(d) if d.holder == holder => return vec![],
            // Drawn again by someone else: the shares are of the same ciphertext, so those in
            // hand still count; ours goes to the new holder.
            Some(d) => {
                d.holder = holder;
                return self.my_shares(deck, position);
            }
            None => {
                self.draws.insert(
                    (deck, position),
                    Draw {
                        holder,
                        shares: BTreeMap::new(),
                        stand_ins: BTreeMap::new(),
                    },
                );
            }
        }
        self.my_shares(deck, position)
    }

    /// Our share of a draw (and our pieces' shares) again, for a holder that lost them. The
    /// same bytes as the first time: the randomness of a proof depends on its statement only.
    pub fn resend(&mut self, deck: u8, position: u16) -> Vec<Out> {
        if self.draws.contains_key(&(deck, position)) {
            self.my_shares(deck, position)
        } else {
            vec![]
        }
    }

    /// Who reads the card at a position, if it was drawn.
    pub fn holder(&self, deck: u8, position: u16) -> Option<Holder> {
        self.draws.get(&(deck, position)).map(|d| d.holder)
    }

    /// Our share of a draw, and our pieces' shares for the seats that left, to whoever reads it.
    pub(super) fn my_shares(&mut self, deck: u8, position: u16) -> Vec<Out> {
        if self.is_observer() {
            self.try_open(deck, position);
            return vec![];
        }
        let Some(ct) = self.position(deck, position).filter(|_| self.setup_done()) else {
            return vec![];
        };
        let Some(holder) = self.draws.get(&(deck, position)).map(|d| d.holder) else {
            return vec![];
        };
        let mut out = vec![];
        let ctx = self.deck_context(deck, b"draw", position);
        if let Ok(mine) = decryption_share(&ctx, &self.secret, &ct, &mut self.rng(&ctx)) {
            if let Some(point) = mine.share.decompress() {
                let me = self.me;
                self.draw_mut(deck, position)
                    .shares
                    .insert(me, (mine, point));
            }
            out.extend(self.address(holder, |_| DealMsg::Share {
                deck,
                position,
                share: mine,
            }));
        }
        let leavers: Vec<u8> = self.pieces.keys().copied().collect();
        for leaver in leavers {
            if holder == Holder::Seat(leaver) {
                continue; // nobody needs to read a leaver's own draw
            }
            let Some(y) = self.pieces.get(&leaver).cloned() else {
                continue;
            };
            let ctx = self.piece_context(deck, position, leaver);
            let Ok(d) = decryption_share(&ctx, &y, &ct, &mut self.rng(&ctx)) else {
                continue;
            };
            if let Some(p) = d.share.decompress() {
                let me = self.me;
                self.draw_mut(deck, position)
                    .stand_ins
                    .insert((leaver, me), (d, p));
            }
            out.extend(self.address(holder, |_| DealMsg::PieceShare {
                deck,
                position,
                leaver,
                share: d,
            }));
        }
        self.try_open(deck, position);
        out
    }

    pub(super) fn address(&self, holder: Holder, msg: impl FnOnce(()) -> DealMsg) -> Option<Out> {
        match holder {
            Holder::Seat(h) if h == self.me => None,
            Holder::Seat(h) => Some(Out::Send(h, msg(()))),
            Holder::Everyone => Some(Out::Broadcast(msg(()))),
        }
    }

    /// The vote dropped `leaver`: every other participant calls this. We unseal our piece of
    /// its key and send the share of that piece for every draw that needs the leaver's share,
    /// now and later. If the piece is wrong, the complaint that proves it goes to everyone. An
    /// error when we hold no piece of its key (a deal of two seats has no escrow, or its escrow
    /// never came): then nobody can stand in for it.
    pub fn stand_in(&mut self, leaver: u8) -> Result<Vec<Out>, DealError> {
        if leaver >= self.seats || !self.left.insert(leaver) {
            return Ok(vec![]);
        }
        if leaver == self.me {
            // Every deck added from now on goes on without us, on every table alike: should we
            // come back, a new deck we shuffled and the others skip us for would be another deck
            // than theirs, and we would name an honest peer for the difference. The decks dealt
            // so far stay as they are here: after a reload we replay the log before our earlier
            // shuffles reach us again.
            self.me_left_at = Some(self.decks.len());
            return Ok(vec![]);
        }
        // A deck it had yet to shuffle goes on without it.
        for i in 0..self.decks.len() {
            if self.decks[i].next == Some(leaver) {
                self.decks[i].next = self.shuffler_after(i, Some(leaver));
            }
        }
        if self.is_observer() {
            return Ok(vec![]);
        }
        // Unsealed and checked when its escrow came (a wrong one was complained of then).
        let y = self
            .held
            .get(&leaver)
            .cloned()
            .ok_or(DealError::Escrow("no piece of the leaver's key"))?;
        self.pieces.insert(leaver, y);
        let mut out = vec![];
        let draws: Vec<(u8, u16)> = self.draws.keys().copied().collect();
        for (deck, position) in draws {
            // Our own share is already out where the deck was whole when the card was drawn;
            // this adds the pieces' shares. A card drawn from a deck that waited for the
            // leaver's shuffle (whole only now that it goes on without it) had no share from
            // anyone yet: ours goes out too. (Before, it was held back here, so such a card
            // stayed face down for good: issue 29, a computer seat's first influence card.)
            let me = self.me;
            let sent = self.draw_mut(deck, position).shares.remove(&me).is_some();
            out.extend(self.my_shares(deck, position).into_iter().filter(|o| {
                !sent
                    || !matches!(
                        o,
                        Out::Send(_, DealMsg::Share { .. }) | Out::Broadcast(DealMsg::Share { .. })
                    )
            }));
        }
        // Our shuffles now due, with our shares of the decks they finish.
        out.extend(self.due());
        Ok(out)
    }
}
