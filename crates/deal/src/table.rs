//! The deal as one participant runs it, sans-I/O: the caller passes in what the other
//! participants sent (already authenticated: the protocol signs and orders every message) and
//! sends out what this returns. In order:
//! 1. every participant publishes its key share with its proof;
//! 2. once all keys are in, every participant publishes the escrow of its share (so that all the
//!    others can stand in for it later), and seat 0 shuffles the first deck;
//! 3. each deck is shuffled by every seat in turn, each shuffle checked by everyone;
//! 4. then draws: when the game says seat `h` draws position `p` of a deck, every other seat
//!    sends `h` alone its decryption share of that position, and `h` reads the card.
//!
//! Owns the keys, the decks and which cards this participant has read. Invariant: a message
//! that does not check out is refused with a [`Cheat`] naming its sender and what failed, and
//! changes nothing; this participant knows the card at a position only if it drew it or the
//! card was revealed.

use crate::cipher::{open_deck, CardId, Ciphertext};
use crate::error::DealError;
use crate::escrow::{
    escrow, open_piece, stand_in, verify_complaint, verify_escrow, Complaint, Escrow, Unsealed,
};
use crate::keys::{joint_key, PublicShare, SecretShare};
use crate::share::{decryption_share, open, verify_reveal, verify_share, DecryptionShare, Reveal};
use crate::shuffle::{shuffle, verify_shuffle, ShuffleProof};
use curve25519_dalek::ristretto::RistrettoPoint;
use rand_core6::CryptoRngCore;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A deck to deal: its name (part of every card's identity) and its number of cards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckSpec {
    pub name: Vec<u8>,
    pub cards: CardId,
}

/// A message of the deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DealMsg {
    Key(PublicShare),
    Escrow(Escrow),
    Shuffle {
        deck: u8,
        output: Vec<Ciphertext>,
        proof: Box<ShuffleProof>,
    },
    /// Sent to the drawer alone.
    Share {
        deck: u8,
        position: u16,
        share: DecryptionShare,
    },
    /// A card shown to everyone by its holder.
    Reveal {
        deck: u8,
        position: u16,
        reveal: Reveal,
    },
    /// Standing in for `leaver`: the share of our piece of its key, sent to the drawer alone.
    PieceShare {
        deck: u8,
        position: u16,
        leaver: u8,
        share: DecryptionShare,
    },
    /// The piece of `leaver`'s key sealed to us is wrong, and this proves it.
    Complaint {
        leaver: u8,
        complaint: Complaint,
    },
}

/// What to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Out {
    /// To every participant.
    Broadcast(DealMsg),
    /// To one participant only.
    Send(u8, DealMsg),
}

/// A participant whose message does not check out, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cheat {
    pub seat: u8,
    pub what: DealError,
}

/// Why a message cannot be taken now (not a lie: it came too early or twice, or is not ours).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    Cheat(Cheat),
    /// Out of turn or out of order: the protocol delivers in order, so this is a peer's fault
    /// too, but it proves nothing about the cryptography.
    OutOfTurn {
        seat: u8,
        what: &'static str,
    },
}

struct Deck {
    spec: DeckSpec,
    /// The deck as it stands after the last shuffle so far.
    cards: Vec<Ciphertext>,
    /// How many seats have shuffled it.
    shuffled: u8,
}

/// A draw under way: who draws, and the shares received so far (kept with their proofs, so
/// that the holder can show the card to everyone later).
struct Draw {
    holder: u8,
    shares: BTreeMap<u8, (DecryptionShare, RistrettoPoint)>,
    /// Shares of pieces of a leaver's key: (leaver, piece holder).
    stand_ins: BTreeMap<(u8, u8), RistrettoPoint>,
}

/// One participant's side of the deal.
pub struct Table {
    game: Vec<u8>,
    seats: u8,
    me: u8,
    secret: SecretShare,
    keys: BTreeMap<u8, RistrettoPoint>,
    joint: Option<RistrettoPoint>,
    escrows: BTreeMap<u8, Escrow>,
    /// Each escrow's piece commitments, by owner then by holder.
    commitments: BTreeMap<u8, Vec<Option<RistrettoPoint>>>,
    /// Seats that left: all the others stand in for them.
    left: BTreeSet<u8>,
    /// Our pieces of the keys of seats that left.
    pieces: BTreeMap<u8, SecretShare>,
    decks: Vec<Deck>,
    draws: BTreeMap<(u8, u16), Draw>,
    /// Cards this participant knows: its own draws, and revealed cards.
    known: BTreeMap<(u8, u16), CardId>,
}

impl Table {
    /// A participant at seat `me` of `seats` in game `game`, dealing `decks`. Returns the table
    /// and the key share to broadcast.
    pub fn new(
        game: &[u8],
        seats: u8,
        me: u8,
        decks: Vec<DeckSpec>,
        rng: &mut impl CryptoRngCore,
    ) -> (Table, Vec<Out>) {
        let secret = SecretShare::generate(rng);
        let mut t = Table {
            game: game.to_vec(),
            seats,
            me,
            keys: BTreeMap::new(),
            joint: None,
            escrows: BTreeMap::new(),
            commitments: BTreeMap::new(),
            left: BTreeSet::new(),
            pieces: BTreeMap::new(),
            decks: decks
                .into_iter()
                .map(|spec| Deck {
                    cards: open_deck(&spec.name, spec.cards),
                    spec,
                    shuffled: 0,
                })
                .collect(),
            draws: BTreeMap::new(),
            known: BTreeMap::new(),
            secret,
        };
        let public = t.secret.public(&t.context(b"key", me, 0), rng);
        t.keys.insert(me, t.secret.key());
        (t, vec![Out::Broadcast(DealMsg::Key(public))])
    }

    fn context(&self, what: &[u8], a: u8, b: u16) -> Vec<u8> {
        let mut c = self.game.clone();
        c.push(0);
        c.extend_from_slice(what);
        c.push(a);
        c.extend_from_slice(&b.to_le_bytes());
        c
    }

    fn deck_context(&self, deck: u8, what: &[u8], n: u16) -> Vec<u8> {
        let mut c = self.context(what, deck, n);
        c.extend_from_slice(&self.decks[deck as usize].spec.name);
        c
    }

    /// Every key is in and every deck shuffled by every seat: draws may begin.
    pub fn ready(&self) -> bool {
        self.joint.is_some()
            && self.escrows.len() + 1 >= self.seats as usize
            && self.decks.iter().all(|d| d.shuffled == self.seats)
    }

    /// The card at `position` of `deck`, if this participant knows it.
    pub fn card(&self, deck: u8, position: u16) -> Option<CardId> {
        self.known.get(&(deck, position)).copied()
    }

    /// The ciphertexts of `deck` as dealt (after every shuffle).
    pub fn deck(&self, deck: u8) -> Option<&[Ciphertext]> {
        self.decks.get(deck as usize).map(|d| d.cards.as_slice())
    }

    /// Takes a message from seat `from`. Returns what to send in answer.
    pub fn receive(
        &mut self,
        from: u8,
        msg: DealMsg,
        rng: &mut impl CryptoRngCore,
    ) -> Result<Vec<Out>, Refused> {
        let cheat = |what| Refused::Cheat(Cheat { seat: from, what });
        let early = |what| Refused::OutOfTurn { seat: from, what };
        if from >= self.seats || from == self.me {
            return Err(early("a message from no other seat"));
        }
        match msg {
            DealMsg::Key(p) => {
                if self.keys.contains_key(&from) {
                    return Err(early("a second key"));
                }
                let key = p.verify(&self.context(b"key", from, 0)).map_err(cheat)?;
                self.keys.insert(from, key);
                if self.keys.len() < self.seats as usize {
                    return Ok(vec![]);
                }
                let keys: Vec<RistrettoPoint> = self.keys.values().copied().collect();
                self.joint = Some(joint_key(&keys));
                let ctx = self.context(b"escrow", self.me, 0);
                let e = escrow(&ctx, &self.secret, self.me, &keys, rng);
                let mut out = vec![Out::Broadcast(DealMsg::Escrow(e))];
                out.extend(self.my_shuffles(rng));
                Ok(out)
            }
            DealMsg::Escrow(e) => {
                let key = *self
                    .keys
                    .get(&from)
                    .ok_or(early("an escrow before its key"))?;
                if self.escrows.contains_key(&from) {
                    return Err(early("a second escrow"));
                }
                let c = verify_escrow(from, &key, self.seats as usize, &e).map_err(cheat)?;
                self.commitments.insert(from, c);
                self.escrows.insert(from, e);
                Ok(vec![])
            }
            DealMsg::Shuffle {
                deck,
                output,
                proof,
            } => {
                let joint = self.joint.ok_or(early("a shuffle before every key"))?;
                let d = self
                    .decks
                    .get(deck as usize)
                    .ok_or(early("a shuffle of no deck"))?;
                if d.shuffled != from || !self.previous_done(deck) {
                    return Err(early("a shuffle out of turn"));
                }
                let ctx = self.deck_context(deck, b"shuffle", u16::from(from));
                verify_shuffle(&ctx, &joint, &d.cards, &output, &proof).map_err(cheat)?;
                let d = &mut self.decks[deck as usize];
                d.cards = output;
                d.shuffled += 1;
                Ok(self.my_shuffles(rng))
            }
            DealMsg::Share {
                deck,
                position,
                share,
            } => {
                let ct = self
                    .position(deck, position)
                    .ok_or(early("a share of no card"))?;
                let key = *self
                    .keys
                    .get(&from)
                    .ok_or(early("a share before its key"))?;
                let Some(draw) = self.draws.get(&(deck, position)) else {
                    return Err(early("a share of a card nobody draws"));
                };
                if draw.holder != self.me || draw.shares.contains_key(&from) {
                    return Err(early("a share not for us, or twice"));
                }
                let ctx = self.deck_context(deck, b"draw", position);
                let point = verify_share(&ctx, &key, &ct, &share).map_err(cheat)?;
                let draw = self.draws.get_mut(&(deck, position)).expect("checked");
                draw.shares.insert(from, (share, point));
                self.try_open(deck, position);
                Ok(vec![])
            }
            DealMsg::PieceShare {
                deck,
                position,
                leaver,
                share,
            } => {
                let ct = self
                    .position(deck, position)
                    .ok_or(early("a share of no card"))?;
                let commitment = self
                    .commitments
                    .get(&leaver)
                    .and_then(|c| c.get(from as usize).copied().flatten())
                    .ok_or(early("a piece share of no escrow"))?;
                let Some(draw) = self.draws.get(&(deck, position)) else {
                    return Err(early("a share of a card nobody draws"));
                };
                if draw.holder != self.me || draw.stand_ins.contains_key(&(leaver, from)) {
                    return Err(early("a share not for us, or twice"));
                }
                let ctx = self.piece_context(deck, position, leaver);
                let point = verify_share(&ctx, &commitment, &ct, &share).map_err(cheat)?;
                let draw = self.draws.get_mut(&(deck, position)).expect("checked");
                draw.stand_ins.insert((leaver, from), point);
                self.try_open(deck, position);
                Ok(vec![])
            }
            DealMsg::Complaint { leaver, complaint } => {
                let key = *self
                    .keys
                    .get(&from)
                    .ok_or(early("a complaint before its key"))?;
                let piece = self
                    .escrows
                    .get(&leaver)
                    .and_then(|e| e.pieces.iter().find(|p| p.to == from).copied())
                    .ok_or(early("a complaint about no escrow"))?;
                let ctx = self.context(b"escrow", leaver, 0);
                match verify_complaint(&ctx, leaver, &piece, &key, &complaint) {
                    // Proved: the leaver sealed a wrong piece.
                    Ok(()) => Err(Refused::Cheat(Cheat {
                        seat: leaver,
                        what: DealError::Escrow("sealed a wrong piece of its key"),
                    })),
                    Err(what) => Err(cheat(what)),
                }
            }
            DealMsg::Reveal {
                deck,
                position,
                reveal,
            } => {
                let ct = self
                    .position(deck, position)
                    .ok_or(early("a reveal of no card"))?;
                let ctx = self.deck_context(deck, b"draw", position);
                let keys: Vec<RistrettoPoint> = self.keys.values().copied().collect();
                let spec = &self.decks[deck as usize].spec;
                // A forged share in a reveal is the revealer's lie, whoever it claims made it.
                let card = verify_reveal(&ctx, &keys, &spec.name, spec.cards, &ct, &reveal)
                    .map_err(|(_, what)| cheat(what))?;
                self.known.insert((deck, position), card);
                Ok(vec![])
            }
        }
    }

    fn previous_done(&self, deck: u8) -> bool {
        self.decks[..deck as usize]
            .iter()
            .all(|d| d.shuffled == self.seats)
    }

    fn position(&self, deck: u8, position: u16) -> Option<Ciphertext> {
        let d = self.decks.get(deck as usize)?;
        (d.shuffled == self.seats).then(|| d.cards.get(position as usize).copied())?
    }

    /// Our shuffles that are due now: decks in order, each seat after the one before.
    fn my_shuffles(&mut self, rng: &mut impl CryptoRngCore) -> Vec<Out> {
        let Some(joint) = self.joint else {
            return vec![];
        };
        let mut out = vec![];
        for deck in 0..self.decks.len() as u8 {
            if !self.previous_done(deck) || self.decks[deck as usize].shuffled != self.me {
                continue;
            }
            let ctx = self.deck_context(deck, b"shuffle", u16::from(self.me));
            let d = &self.decks[deck as usize];
            let Ok((output, proof)) = shuffle(&ctx, &joint, &d.cards, rng) else {
                continue;
            };
            let d = &mut self.decks[deck as usize];
            d.cards = output.clone();
            d.shuffled += 1;
            out.push(Out::Broadcast(DealMsg::Shuffle {
                deck,
                output,
                proof: Box::new(proof),
            }));
        }
        out
    }

    /// The game says seat `holder` draws `position` of `deck`: every participant calls this at
    /// the same point of the game. Returns our share for the holder (nothing if we hold it).
    pub fn draw(
        &mut self,
        deck: u8,
        position: u16,
        holder: u8,
        rng: &mut impl CryptoRngCore,
    ) -> Result<Vec<Out>, DealError> {
        let ct = self.position(deck, position).ok_or(DealError::Length {
            expected: u32::from(position) + 1,
            got: 0,
        })?;
        let ctx = self.deck_context(deck, b"draw", position);
        let mine = decryption_share(&ctx, &self.secret, &ct, rng)?;
        let mut draw = Draw {
            holder,
            shares: BTreeMap::new(),
            stand_ins: BTreeMap::new(),
        };
        let mut out = vec![];
        if holder != self.me {
            out.push(Out::Send(
                holder,
                DealMsg::Share {
                    deck,
                    position,
                    share: mine,
                },
            ));
        } else {
            let point = mine
                .share
                .decompress()
                .ok_or(DealError::NotAPoint("our own share"))?;
            draw.shares.insert(self.me, (mine, point));
        }
        self.draws.insert((deck, position), draw);
        out.extend(self.piece_shares(deck, position, rng)?);
        self.try_open(deck, position);
        Ok(out)
    }

    /// The vote dropped `leaver`: every other participant calls this. We unseal our piece of
    /// its key and send the share of that piece for every draw that needs the leaver's share,
    /// now and later. If the piece is wrong, the complaint that proves it goes to everyone.
    pub fn stand_in(
        &mut self,
        leaver: u8,
        rng: &mut impl CryptoRngCore,
    ) -> Result<Vec<Out>, DealError> {
        if leaver == self.me || leaver >= self.seats || !self.left.insert(leaver) {
            return Ok(vec![]);
        }
        let piece = self
            .escrows
            .get(&leaver)
            .and_then(|e| e.pieces.iter().find(|p| p.to == self.me).copied())
            .ok_or(DealError::Escrow("no piece of the leaver's key"))?;
        let ctx = self.context(b"escrow", leaver, 0);
        match open_piece(&ctx, leaver, &piece, &self.secret, rng)? {
            Unsealed::Wrong(complaint) => {
                return Ok(vec![Out::Broadcast(DealMsg::Complaint {
                    leaver,
                    complaint,
                })])
            }
            Unsealed::Piece(y) => self.pieces.insert(leaver, y),
        };
        let mut out = vec![];
        let draws: Vec<(u8, u16)> = self.draws.keys().copied().collect();
        for (deck, position) in draws {
            out.extend(self.piece_shares(deck, position, rng)?);
            self.try_open(deck, position);
        }
        Ok(out)
    }

    fn piece_context(&self, deck: u8, position: u16, leaver: u8) -> Vec<u8> {
        let mut c = self.deck_context(deck, b"piece", position);
        c.push(leaver);
        c
    }

    /// The shares of our pieces of leavers' keys for one draw, sent to its holder (kept when we
    /// hold it). Nobody stands in for a leaver's own draw: nobody needs to read it.
    fn piece_shares(
        &mut self,
        deck: u8,
        position: u16,
        rng: &mut impl CryptoRngCore,
    ) -> Result<Vec<Out>, DealError> {
        let Some(draw) = self.draws.get(&(deck, position)) else {
            return Ok(vec![]);
        };
        let holder = draw.holder;
        let ct = self
            .position(deck, position)
            .ok_or(DealError::UnknownCard)?;
        let mut out = vec![];
        let mut kept = vec![];
        for (&leaver, y) in &self.pieces {
            if leaver == holder {
                continue;
            }
            let d = decryption_share(&self.piece_context(deck, position, leaver), y, &ct, rng)?;
            if holder == self.me {
                let p = d
                    .share
                    .decompress()
                    .ok_or(DealError::NotAPoint("our own share"))?;
                kept.push((leaver, p));
            } else {
                out.push(Out::Send(
                    holder,
                    DealMsg::PieceShare {
                        deck,
                        position,
                        leaver,
                        share: d,
                    },
                ));
            }
        }
        if let Some(draw) = self.draws.get_mut(&(deck, position)) {
            for (leaver, p) in kept {
                draw.stand_ins.insert((leaver, self.me), p);
            }
        }
        Ok(out)
    }

    /// Shows a card we drew to everyone (to trade it, or claim a mission): every share of it
    /// with its proof. `None` if we did not draw it or have not read it yet, and (for now) when
    /// it was read with the help of stand-ins, whose pieces' proofs a reveal does not carry.
    pub fn reveal(&self, deck: u8, position: u16) -> Option<DealMsg> {
        let draw = self.draws.get(&(deck, position))?;
        if draw.holder != self.me
            || !self.known.contains_key(&(deck, position))
            || draw.shares.len() < self.seats as usize
        {
            return None;
        }
        Some(DealMsg::Reveal {
            deck,
            position,
            reveal: Reveal {
                shares: draw.shares.values().map(|x| x.0).collect(),
            },
        })
    }

    fn try_open(&mut self, deck: u8, position: u16) {
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
                    .filter_map(|j| draw.stand_ins.get(&(s, j)).copied())
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
        let spec = &self.decks[deck as usize].spec;
        if let Ok(card) = open(&spec.name, spec.cards, &ct, &points) {
            self.known.insert((deck, position), card);
        }
    }
}
