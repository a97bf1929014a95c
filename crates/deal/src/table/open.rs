//! Reading cards: a card shown to everyone checked against every share (or the pieces' shares
//! standing in for a seat that left), a card opened once its shares are in, whose shares are
//! still missing; and, at the end, an observer's checks — the published secrets against their
//! keys (a leaver's rebuilt from the others' pieces of it), and every position opened with them.
//!
//! Owns no state of its own: these are `impl Table` blocks over the fields of [`Table`].

use super::*;

impl Table {
    /// A table that holds no seat: it checks every broadcast message and reads what is shown or
    /// drawn face up, as anyone replaying a game's transcript does.
    pub fn observer(game: &[u8], seats: u8, decks: Vec<DeckSpec>) -> Table {
        let (mut t, _) = Table::new(game, seats, seats, decks, [0; 32]);
        t.keys.clear();
        t
    }

    /// Whether this table holds no seat.
    pub fn is_observer(&self) -> bool {
        self.me >= self.seats
    }

    /// Whether `msg` is a true share from seat `from` of a card drawn for seat `holder`, as
    /// anyone can check (the sender's key, or its commitment to its piece of a seat that left):
    /// a share addressed to another, shown to us to prove it was sent, counts only then.
    pub fn checks_out_for(&self, from: u8, holder: u8, msg: &DealMsg) -> bool {
        let (deck, position, ctx, key, share) = match msg {
            DealMsg::Share {
                deck,
                position,
                share,
            } => (
                *deck,
                *position,
                self.deck_context(*deck, b"draw", *position),
                self.keys.get(&from).copied(),
                share,
            ),
            DealMsg::PieceShare {
                deck,
                position,
                leaver,
                share,
            } if self.left.contains(leaver) && *leaver != from && *leaver != holder => (
                *deck,
                *position,
                self.piece_context(*deck, *position, *leaver),
                self.commitment(*leaver, from),
                share,
            ),
            _ => return false,
        };
        let drawn = self
            .draws
            .get(&(deck, position))
            .is_some_and(|d| d.holder == Holder::Seat(holder));
        match (key, self.position(deck, position)) {
            (Some(key), Some(ct)) if drawn => verify_share(&ctx, &key, &ct, share).is_ok(),
            _ => false,
        }
    }

    /// What seat `from` owes the holder of the card at `position` of `deck`: its own share
    /// (`None`), and a piece's share for each seat that left whose key it holds a piece of
    /// (`Some(leaver)`).
    pub fn owed_by(&self, from: u8, deck: u8, position: u16) -> Vec<Option<u8>> {
        let holder = match self.draws.get(&(deck, position)).map(|d| d.holder) {
            Some(Holder::Seat(h)) => Some(h),
            _ => None,
        };
        let mut owed = vec![None];
        owed.extend(
            self.left
                .iter()
                .filter(|&&l| l != from && Some(l) != holder && self.commitment(l, from).is_some())
                .map(|&l| Some(l)),
        );
        owed
    }

    /// Checks the secret key share `seat` published at the end against its key.
    pub fn check_secret(&self, seat: u8, secret: [u8; 32]) -> Result<(), DealError> {
        let key = self.keys.get(&seat).ok_or(DealError::Secret)?;
        match SecretShare::from_bytes(secret) {
            Some(s) if s.key() == *key => Ok(()),
            _ => Err(DealError::Secret),
        }
    }

    /// Our pieces of the keys of the seats that left, as (seat, piece), to publish at the end:
    /// with every other holder's, they rebuild a leaver's secret, so the whole deal can be opened
    /// even though the leaver never published its own. Nothing is left to hide then.
    pub fn left_pieces(&self) -> Vec<(u8, [u8; 32])> {
        self.pieces
            .iter()
            .map(|(&s, y)| (s, y.to_bytes()))
            .collect()
    }

    /// Checks a piece of `owner`'s key share that `holder` published against the commitment
    /// in `owner`'s escrow.
    pub fn check_piece(&self, owner: u8, holder: u8, piece: [u8; 32]) -> Result<(), DealError> {
        let want = self
            .commitment(owner, holder)
            .ok_or(DealError::Escrow("a piece of a key that has none"))?;
        match SecretShare::from_bytes(piece) {
            Some(y) if y.key() == want => Ok(()),
            _ => Err(DealError::Escrow(
                "a published piece does not match its commitment",
            )),
        }
    }

    /// `owner`'s secret key share rebuilt from the pieces every other seat published (by
    /// holder, each checked with [`Table::check_piece`]); `None` while one is missing.
    pub fn rebuild_secret(&self, owner: u8, pieces: &BTreeMap<u8, [u8; 32]>) -> Option<[u8; 32]> {
        let mut sum = SecretShare::from_bytes([0; 32])?;
        for holder in (0..self.seats).filter(|&h| h != owner) {
            sum = sum.add(&SecretShare::from_bytes(*pieces.get(&holder)?)?);
        }
        (Some(&sum.key()) == self.keys.get(&owner)).then(|| sum.to_bytes())
    }

    /// The card at a position, opened with every seat's published secret (in seat order).
    pub fn open_with(&self, deck: u8, position: u16, secrets: &[[u8; 32]]) -> Option<CardId> {
        let ct = self.position(deck, position)?;
        let c1 = ct.points().ok()?.c1;
        let points: Option<Vec<RistrettoPoint>> = secrets
            .iter()
            .map(|s| SecretShare::from_bytes(*s).map(|x| x.0 * c1))
            .collect();
        self.open(deck, &ct, &points?).ok()
    }

    /// Seats whose share of a card we draw has not come, once the deck is dealt and every key
    /// and escrow is in (before that nobody sends a share: [`Table::awaited`] names who holds
    /// the deal up); for a seat that left: the seats whose piece's share has not come. Empty if
    /// we read it already.
    pub fn missing(&self, deck: u8, position: u16) -> Vec<u8> {
        let Some(draw) = self
            .draws
            .get(&(deck, position))
            .filter(|_| self.setup_done())
        else {
            return vec![];
        };
        if self.known.contains_key(&(deck, position)) || self.position(deck, position).is_none() {
            return vec![];
        }
        let mut out = BTreeSet::new();
        for s in 0..self.seats {
            if draw.shares.contains_key(&s) {
                continue;
            }
            if self.left.contains(&s) {
                out.extend(
                    (0..self.seats).filter(|&j| j != s && !draw.stand_ins.contains_key(&(s, j))),
                );
            } else {
                out.insert(s);
            }
        }
        out.into_iter().collect()
    }

    /// Checks a card shown to everyone; returns it. Errors name no seat: the caller names the
    /// revealer.
    pub(super) fn check_reveal(
        &self,
        deck: u8,
        position: u16,
        shares: &[(u8, DecryptionShare)],
        pieces: &[(u8, u8, DecryptionShare)],
    ) -> Result<CardId, Refused> {
        let early = |what| Refused::OutOfTurn {
            seat: self.me,
            what,
        };
        let cheat = |what| {
            Refused::Cheat(Cheat {
                seat: self.me,
                what,
            })
        };
        let ct = self
            .position(deck, position)
            .ok_or(early("a reveal of no card"))?;
        let ctx = self.deck_context(deck, b"draw", position);
        let mut points = vec![];
        for s in 0..self.seats {
            let mut own = shares.iter().filter(|x| x.0 == s);
            match (own.next(), own.next()) {
                (Some((_, d)), None) => {
                    let key = self
                        .keys
                        .get(&s)
                        .ok_or(early("a reveal before every key"))?;
                    points.push(verify_share(&ctx, key, &ct, d).map_err(cheat)?);
                }
                // A seat that left: the shares of its pieces stand in (checking them needs no
                // word of who left, so the leaver's own table, and `orbis verify`, agree).
                // At a table without escrow nothing can stand in: a share left out is a lie,
                // not something to wait for (no commitment will ever come).
                (None, None) if !self.escrowed() => {
                    return Err(cheat(DealError::Length {
                        expected: u32::from(self.seats),
                        got: shares.len() as u32,
                    }))
                }
                (None, None) => {
                    let ctx = self.piece_context(deck, position, s);
                    let mut sum = vec![];
                    for j in (0..self.seats).filter(|&j| j != s) {
                        let d = pieces.iter().find(|x| x.0 == s && x.1 == j).ok_or(cheat(
                            DealError::Length {
                                expected: u32::from(self.seats) - 1,
                                got: pieces.iter().filter(|x| x.0 == s).count() as u32,
                            },
                        ))?;
                        let c = self
                            .commitment(s, j)
                            .ok_or(early("a piece share of no escrow"))?;
                        sum.push(verify_share(&ctx, &c, &ct, &d.2).map_err(cheat)?);
                    }
                    points.push(stand_in(&sum));
                }
                _ => {
                    return Err(cheat(DealError::Length {
                        expected: u32::from(self.seats),
                        got: shares.len() as u32,
                    }))
                }
            }
        }
        self.open(deck, &ct, &points).map_err(cheat)
    }

    pub(super) fn open(
        &self,
        deck: u8,
        ct: &Ciphertext,
        points: &[RistrettoPoint],
    ) -> Result<CardId, DealError> {
        let spec = &self.decks[deck as usize].spec;
        let m = ct.points()?.c2 - points.iter().sum::<RistrettoPoint>();
        let card = card_of(&spec.name, spec.cards, &m)?;
        if spec.layout.is_empty() || spec.layout.contains(&card) {
            Ok(card)
        } else {
            Err(DealError::UnknownCard)
        }
    }

    /// Shows a card we read to everyone (to trade it, or claim a mission): every share of it
    /// with its proof, and the pieces' shares that stood in for seats that left. `None` if we
    /// have not read it.
    pub fn reveal(&self, deck: u8, position: u16) -> Option<DealMsg> {
        let draw = self.draws.get(&(deck, position))?;
        if !self.can_reveal(deck, position) {
            return None;
        }
        let shares: Vec<(u8, DecryptionShare)> =
            draw.shares.iter().map(|(s, x)| (*s, x.0)).collect();
        let pieces = draw
            .stand_ins
            .iter()
            .filter(|((l, _), _)| !draw.shares.contains_key(l))
            .map(|((l, j), x)| (*l, *j, x.0))
            .collect();
        Some(DealMsg::Reveal {
            deck,
            position,
            shares,
            pieces,
        })
    }

    /// Whether we hold every share of a card (or the pieces' shares standing in for a seat's),
    /// so that [`Table::reveal`] can show it.
    pub fn can_reveal(&self, deck: u8, position: u16) -> bool {
        let Some(draw) = self.draws.get(&(deck, position)) else {
            return false;
        };
        self.known.contains_key(&(deck, position))
            && (0..self.seats).all(|s| {
                draw.shares.contains_key(&s)
                    || (0..self.seats)
                        .filter(|&j| j != s)
                        .all(|j| draw.stand_ins.contains_key(&(s, j)))
            })
    }

    pub(super) fn try_open(&mut self, deck: u8, position: u16) {
        let Some(draw) = self.draws.get(&(deck, position)) else {
            return;
        };
        // Each seat's share: its own, or, for a seat that left, the sum of the shares of its
        // pieces from every other seat.
        let mut points = Vec::with_capacity(self.seats as usize);
        for s in 0..self.seats {
            if let Some(x) = draw.shares.get(&s) {
                points.push(x.1);
            } else if self.left.contains(&s) {
                let pieces: Vec<RistrettoPoint> = (0..self.seats)
                    .filter(|&j| j != s)
                    .filter_map(|j| draw.stand_ins.get(&(s, j)).map(|x| x.1))
                    .collect();
                if pieces.len() + 1 < self.seats as usize {
                    return;
                }
                points.push(stand_in(&pieces));
            } else {
                return;
            }
        }
        let Some(ct) = self.position(deck, position) else {
            return;
        };
        if let Ok(card) = self.open(deck, &ct, &points) {
            self.known.insert((deck, position), card);
        }
    }
}
