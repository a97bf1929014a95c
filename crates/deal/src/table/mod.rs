//! The deal as one participant runs it, sans-I/O: the caller passes in what the other
//! participants sent (already authenticated: the protocol signs and orders every message) and
//! sends out what this returns. In order:
//! 1. every participant publishes its key share with its proof;
//! 2. once all keys are in, every participant publishes the escrow of its share (so that all the
//!    others can stand in for it later; with two seats there is none, since its one piece would
//!    be the whole share, handed to the opponent); each holder unseals and checks its piece as
//!    the escrow comes, and proves a wrong one with a complaint;
//! 3. once every escrow is in (security review A5), seat 0 shuffles the first deck; each deck
//!    is shuffled by every seat in turn, each shuffle checked by everyone; more decks
//!    can be added later (the discards, reshuffled) and are shuffled the same way; a seat that
//!    left before its turn is skipped;
//! 4. draws: when the game says seat `h` draws position `p` of a deck, every other seat sends
//!    `h` alone its decryption share of that position (once every key and escrow is in, so that
//!    no card is read before anyone could be stood in for), and `h` reads the card; a card drawn
//!    face up (a computer's) has every share sent to everyone; a card drawn again by someone
//!    else (a hand taken over) is read by its new holder the same way.
//!
//! Owns the keys, the decks and which cards this participant has read. Invariants: a message
//! that does not check out is refused with a [`Cheat`] naming its sender and what failed, and
//! changes nothing; a second, different key, escrow (for the same keys) or shuffle (of the same
//! deck) from one seat is a [`Cheat`] too (`DealError::Conflict`: the caller keeps both signed
//! messages as evidence), while a message that builds on keys, an escrow or a deck we do not hold
//! is set aside ([`Refused::Diverged`]), never blamed on its sender; this participant knows the card at a position only if it drew it or the
//! card was shown. All randomness comes from the table's secret seed and the statement being
//! proved, so the same seed makes the same messages again after a reload, and no nonce serves
//! two statements.

use crate::cipher::{card_of, card_point, CardId, Ciphertext, Points};
use crate::error::DealError;
use crate::escrow::{
    escrow, holders_digest, open_piece, stand_in, verify_complaint, verify_escrow, Complaint,
    Escrow, Unsealed,
};
use crate::keys::{joint_key, PublicShare, SecretShare};
use crate::share::{decryption_share, verify_share, DecryptionShare};
use crate::shuffle::{shuffle, verify_shuffle, ShuffleProof};
use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::traits::Identity;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};

mod draws;
mod open;
mod rng;

use rng::{rng_for, TableRng};

/// A deck to deal: its name (part of every card's identity), the number of card ids it draws
/// from, and the cards laid out face up before the shuffles (empty: every id, in order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckSpec {
    pub name: Vec<u8>,
    pub cards: CardId,
    pub layout: Vec<CardId>,
}

impl DeckSpec {
    /// Every card `0..cards` of deck `name`.
    pub fn full(name: &[u8], cards: CardId) -> DeckSpec {
        DeckSpec {
            name: name.to_vec(),
            cards,
            layout: vec![],
        }
    }

    fn face_up(&self) -> Vec<Ciphertext> {
        let ids: Vec<CardId> = if self.layout.is_empty() {
            (0..self.cards).collect()
        } else {
            self.layout.clone()
        };
        ids.into_iter()
            .map(|id| {
                Points {
                    c1: RistrettoPoint::identity(),
                    c2: card_point(&self.name, id),
                }
                .compress()
            })
            .collect()
    }
}

/// A message of the deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DealMsg {
    Key(PublicShare),
    Escrow(Escrow),
    /// A seat's shuffle of a deck. `input` names the deck it shuffled ([`deck_digest`]: the
    /// joint key and the deck as it stood), so that a participant holding another deck (someone
    /// sent different keys or shuffles to different peers) sets it aside instead of naming this
    /// honest shuffler a cheat; two different shuffles of the same input from one seat are proof
    /// that it cheated.
    Shuffle {
        deck: u8,
        input: [u8; 32],
        output: Vec<Ciphertext>,
        proof: Box<ShuffleProof>,
    },
    /// Sent to the drawer alone (to everyone for a card drawn face up).
    Share {
        deck: u8,
        position: u16,
        share: DecryptionShare,
    },
    /// A card shown to everyone by its holder: a share of every seat, and for a seat that left,
    /// the shares of the pieces of its key that stood in for it (`(leaver, from, share)`).
    Reveal {
        deck: u8,
        position: u16,
        shares: Vec<(u8, DecryptionShare)>,
        pieces: Vec<(u8, u8, DecryptionShare)>,
    },
    /// Standing in for `leaver`: the share of our piece of its key, sent to the drawer alone
    /// (to everyone for a card drawn face up).
    PieceShare {
        deck: u8,
        position: u16,
        leaver: u8,
        share: DecryptionShare,
    },
    /// The piece of `leaver`'s key sealed to us is wrong, and this proves it: sent as soon as
    /// the escrow came. `escrow` is the digest of the escrow it is about ([`Escrow::digest`]),
    /// so a participant that was sent another escrow by the same owner sets the complaint aside
    /// (and finds the owner's two escrows) instead of naming the complainer.
    Complaint {
        leaver: u8,
        escrow: [u8; 32],
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
    /// A message that builds on keys, an escrow or a deck we do not hold: its sender may be
    /// honest, and someone sent different peers different messages. Keep it, and ask the
    /// others for every deal message they took: the two conflicting ones will meet.
    Diverged {
        seat: u8,
        what: &'static str,
    },
    /// `cheat.seat`'s escrow sealed us a wrong piece: `proof` (our complaint) proves it to
    /// everyone; broadcast it. The escrow is not taken.
    Proved {
        cheat: Cheat,
        proof: Box<DealMsg>,
    },
}

/// Who reads a drawn card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Holder {
    Seat(u8),
    /// Face up: every share goes to everyone.
    Everyone,
}

#[derive(Clone)]
struct Deck {
    spec: DeckSpec,
    /// The deck as it stands after the last shuffle so far.
    cards: Vec<Ciphertext>,
    /// The seat whose shuffle comes next (`None`: dealt). Seats shuffle in seat order; a seat
    /// that left before its turn is skipped (every other seat decides that at the same point of
    /// the game, when the vote drops it).
    next: Option<u8>,
}

/// A draw: who reads it, and the shares received so far (kept with their proofs, so that the
/// holder can show the card to everyone later).
#[derive(Clone)]
struct Draw {
    holder: Holder,
    shares: BTreeMap<u8, (DecryptionShare, RistrettoPoint)>,
    /// Shares of pieces of a leaver's key: (leaver, piece holder).
    stand_ins: BTreeMap<(u8, u8), (DecryptionShare, RistrettoPoint)>,
}

/// One participant's side of the deal.
#[derive(Clone)]
pub struct Table {
    game: Vec<u8>,
    seats: u8,
    me: u8,
    seed: [u8; 32],
    secret: SecretShare,
    keys: BTreeMap<u8, RistrettoPoint>,
    joint: Option<RistrettoPoint>,
    escrows: BTreeMap<u8, Escrow>,
    /// Every key share taken, as sent (a second, different one is proof of cheating).
    key_msgs: BTreeMap<u8, PublicShare>,
    /// Every shuffle taken, by (deck, seat): the digests of its input and its output.
    shuffled: BTreeMap<(u8, u8), ([u8; 32], [u8; 32])>,
    /// Our piece of each other seat's key, unsealed and checked when its escrow came.
    held: BTreeMap<u8, SecretShare>,
    /// Each escrow's piece commitments, by owner then by holder.
    commitments: BTreeMap<u8, Vec<Option<RistrettoPoint>>>,
    /// Seats that left: all the others stand in for them.
    left: BTreeSet<u8>,
    /// How many decks there were when we ourselves left (voted out), if we did.
    me_left_at: Option<usize>,
    /// Our pieces of the keys of seats that left.
    pieces: BTreeMap<u8, SecretShare>,
    decks: Vec<Deck>,
    draws: BTreeMap<(u8, u16), Draw>,
    /// Cards this participant knows: its own draws, and shown cards.
    known: BTreeMap<(u8, u16), CardId>,
    /// Whether the table chose a stand-in escrow (see [`Table::without_escrow`]).
    stand_in: bool,
}

impl Table {
    /// A participant at seat `me` of `seats` in game `game`, dealing `decks`, its key share and
    /// every random choice derived from `seed` (keep it secret; the same seed after a reload
    /// makes the same key and messages). Returns the table and the key share to broadcast.
    pub fn new(
        game: &[u8],
        seats: u8,
        me: u8,
        decks: Vec<DeckSpec>,
        seed: [u8; 32],
    ) -> (Table, Vec<Out>) {
        let secret = SecretShare::generate(&mut rng_for(&seed, b"secret", &[]));
        let mut t = Table {
            game: game.to_vec(),
            seats,
            me,
            seed,
            keys: BTreeMap::new(),
            joint: None,
            escrows: BTreeMap::new(),
            key_msgs: BTreeMap::new(),
            shuffled: BTreeMap::new(),
            held: BTreeMap::new(),
            commitments: BTreeMap::new(),
            left: BTreeSet::new(),
            me_left_at: None,
            pieces: BTreeMap::new(),
            decks: vec![],
            draws: BTreeMap::new(),
            known: BTreeMap::new(),
            stand_in: true,
            secret,
        };
        for d in decks {
            t.push_deck(d);
        }
        let ctx = t.context(b"key", me, 0);
        let public = t.secret.public(&ctx, &mut t.rng(&ctx));
        t.keys.insert(me, t.secret.key());
        (t, vec![Out::Broadcast(DealMsg::Key(public))])
    }

    fn push_deck(&mut self, spec: DeckSpec) {
        let cards = spec.face_up();
        // An empty deck (no missions) has nothing to shuffle.
        let next = if cards.is_empty() {
            None
        } else {
            self.shuffler_after(self.decks.len(), None)
        };
        self.decks.push(Deck { cards, spec, next });
    }

    /// The randomness for the statement `context`.
    fn rng(&self, context: &[u8]) -> TableRng {
        rng_for(&self.seed, b"nonce", context)
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

    fn piece_context(&self, deck: u8, position: u16, leaver: u8) -> Vec<u8> {
        let mut c = self.deck_context(deck, b"piece", position);
        c.push(leaver);
        c
    }

    /// This participant's seat.
    pub fn me(&self) -> u8 {
        self.me
    }

    /// Every key is in and every deck shuffled by every seat: every draw can be read.
    pub fn ready(&self) -> bool {
        self.joint.is_some()
            && (!self.escrowed() || self.escrows.len() + 1 >= self.seats as usize)
            && self.decks.iter().all(|d| d.next.is_none())
    }

    /// Whether this deal escrows key shares: only if the table chose a stand-in, and with
    /// enough seats that no piece is a whole share (see [`crate::escrow::MIN_HOLDERS`]).
    pub fn escrowed(&self) -> bool {
        self.stand_in && self.seats as usize > crate::escrow::MIN_HOLDERS
    }

    /// The same table without a stand-in escrow (the table's choice, security review A2):
    /// nobody, not even all the others together, can rebuild a seat's key, so no hand can be
    /// read by anyone but its holder; the price is that nobody can stand in for a seat that
    /// leaves. Call it on a table just made, before any message reaches it.
    pub fn without_escrow(mut self) -> Table {
        self.stand_in = false;
        self
    }

    /// Whether `seat`'s escrow has come (so that the others can stand in for it). Our own seat
    /// counts as escrowed: we send ours the moment the keys are in. A peer that reloads replays
    /// the log before the others' keys reach it again, and it must not decide alone, from a
    /// table still filling, that the deal starts again without it (it could then never be let
    /// back in).
    pub fn has_escrow(&self, seat: u8) -> bool {
        self.escrows.contains_key(&seat) || (seat == self.me && !self.is_observer())
    }

    /// Whether `seat`'s key share has come.
    pub fn has_key(&self, seat: u8) -> bool {
        self.keys.contains_key(&seat)
    }

    /// Number of seats of this deal.
    pub fn seats(&self) -> u8 {
        self.seats
    }

    /// Every key is in and, where the deal escrows, every other seat's escrow: only then do we
    /// send decryption shares. So no card is read before the others could stand in for any
    /// seat, and a deal that lacks a key or an escrow can start again without its seat having
    /// shown anyone anything.
    fn setup_done(&self) -> bool {
        let others = usize::from(self.seats) - usize::from(!self.is_observer());
        self.joint.is_some() && (!self.escrowed() || self.escrows.len() >= others)
    }

    /// Seats whose part of the deal's setup the cards wait for: a missing key, a missing
    /// escrow once the keys are in, and the seat whose shuffle is due (seats that left are
    /// skipped). Empty once every deck is dealt.
    pub fn awaited(&self) -> Vec<u8> {
        let mut out: BTreeSet<u8> = (0..self.seats).filter(|s| !self.has_key(*s)).collect();
        if out.is_empty() && self.escrowed() {
            out.extend((0..self.seats).filter(|&s| s != self.me && !self.escrows.contains_key(&s)));
        }
        if out.is_empty() {
            out.extend(self.decks.iter().find_map(|d| d.next));
        }
        out.into_iter().collect()
    }

    /// The first seat after `seat` (from the first seat for `None`) that shuffles `deck`: one
    /// that has not left. We count as left on our own table only for decks added after we did
    /// (see [`Table::stand_in`]).
    fn shuffler_after(&self, deck: usize, seat: Option<u8>) -> Option<u8> {
        let from = seat.map_or(0, |s| s + 1);
        let gone = |s: &u8| {
            self.left.contains(s) && (*s != self.me || self.me_left_at.is_some_and(|n| deck >= n))
        };
        (from..self.seats).find(|s| !gone(s))
    }

    /// The card at `position` of `deck`, if this participant knows it.
    pub fn card(&self, deck: u8, position: u16) -> Option<CardId> {
        self.known.get(&(deck, position)).copied()
    }

    /// The ciphertexts of `deck` as dealt so far.
    pub fn deck(&self, deck: u8) -> Option<&[Ciphertext]> {
        self.decks.get(deck as usize).map(|d| d.cards.as_slice())
    }

    /// Number of decks.
    pub fn decks(&self) -> u8 {
        self.decks.len() as u8
    }

    /// Adds deck number [`Table::decks`] (every participant at the same point of the game), to
    /// be shuffled by every seat after the decks before it. Returns our shuffle if it is due.
    pub fn add_deck(&mut self, spec: DeckSpec) -> Vec<Out> {
        self.push_deck(spec);
        self.due()
    }

    /// The secret of our key share, published at the end so that anyone can check the deal.
    pub fn secret(&self) -> [u8; 32] {
        self.secret.to_bytes()
    }

    /// Takes a message from seat `from`. Returns what to send in answer.
    pub fn receive(&mut self, from: u8, msg: DealMsg) -> Result<Vec<Out>, Refused> {
        let cheat = |what| Refused::Cheat(Cheat { seat: from, what });
        let early = |what| Refused::OutOfTurn { seat: from, what };
        if from >= self.seats || from == self.me {
            return Err(early("a message from no other seat"));
        }
        match msg {
            DealMsg::Key(p) => {
                match self.key_msgs.get(&from) {
                    Some(k) if *k != p => {
                        return Err(cheat(DealError::Conflict("two different keys")))
                    }
                    Some(_) => return Err(early("a second key")),
                    None => {}
                }
                let key = p.verify(&self.context(b"key", from, 0)).map_err(cheat)?;
                self.keys.insert(from, key);
                self.key_msgs.insert(from, p);
                if self.keys.len() < self.seats as usize {
                    return Ok(vec![]);
                }
                let keys: Vec<RistrettoPoint> = self.keys.values().copied().collect();
                self.joint = Some(joint_key(&keys));
                if self.is_observer() {
                    return Ok(vec![]);
                }
                let mut out = vec![];
                let ctx = self.context(b"escrow", self.me, 0);
                // No escrow with two seats (its one piece would be our whole share), nor where
                // the table chose none.
                let made = match self.escrowed() {
                    true => escrow(&ctx, &self.secret, self.me, &keys, &mut self.rng(&ctx)).ok(),
                    false => None,
                };
                if let Some(e) = made {
                    // Our own commitments too: a reveal may carry shares of our pieces.
                    let c = verify_escrow(&ctx, self.me, &self.secret.key(), keys.len(), &e);
                    if let Ok(c) = c {
                        self.commitments.insert(self.me, c);
                    }
                    out.push(Out::Broadcast(DealMsg::Escrow(e)));
                }
                out.extend(self.due());
                Ok(out)
            }
            DealMsg::Escrow(e) => {
                if !self.escrowed() {
                    return Err(cheat(DealError::Escrow(
                        "an escrow at a table that has none",
                    )));
                }
                if self.joint.is_none() {
                    return Err(early("an escrow before every key"));
                }
                let key = *self
                    .keys
                    .get(&from)
                    .ok_or(early("an escrow before its key"))?;
                match self.escrows.get(&from) {
                    // Two escrows for the same keys: the owner told peers different things.
                    Some(old) if *old != e && old.holders == e.holders => {
                        return Err(cheat(DealError::Conflict("two different escrows")))
                    }
                    Some(_) => return Err(early("a second escrow")),
                    None => {}
                }
                let keys: Vec<RistrettoPoint> = self.keys.values().copied().collect();
                if e.holders != holders_digest(&keys) {
                    return Err(Refused::Diverged {
                        seat: from,
                        what: "an escrow sealed to keys we do not hold",
                    });
                }
                let ctx = self.context(b"escrow", from, 0);
                let c = verify_escrow(&ctx, from, &key, self.seats as usize, &e).map_err(cheat)?;
                // Our piece, unsealed and checked now (security review A5): a wrong one is
                // proved at once, before any shuffle, so before any card could be read.
                if !self.is_observer() {
                    let piece = e
                        .pieces
                        .iter()
                        .find(|p| p.to == self.me)
                        .copied()
                        .ok_or(cheat(DealError::Escrow("no piece for us")))?;
                    let opened = open_piece(&ctx, from, &piece, &self.secret, &mut self.rng(&ctx))
                        .map_err(cheat)?;
                    match opened {
                        Unsealed::Piece(y) => {
                            self.held.insert(from, y);
                        }
                        Unsealed::Wrong(complaint) => {
                            return Err(Refused::Proved {
                                cheat: Cheat {
                                    seat: from,
                                    what: DealError::Escrow("sealed a wrong piece of its key"),
                                },
                                proof: Box::new(DealMsg::Complaint {
                                    leaver: from,
                                    escrow: e.digest(),
                                    complaint,
                                }),
                            })
                        }
                    }
                }
                self.commitments.insert(from, c);
                self.escrows.insert(from, e);
                // The last escrow lets the shuffles start, and our shares of the draws so far
                // go out.
                Ok(self.due())
            }
            DealMsg::Shuffle {
                deck,
                input,
                output,
                proof,
            } => {
                let joint = self.joint.ok_or(early("a shuffle before every key"))?;
                let d = self
                    .decks
                    .get(deck as usize)
                    .ok_or(early("a shuffle of no deck"))?;
                let out_digest = cards_digest(&output);
                match self.shuffled.get(&(deck, from)) {
                    // The same deck shuffled twice, two ways: the shuffler told peers
                    // different things.
                    Some((i, o)) if *i == input && *o != out_digest => {
                        return Err(cheat(DealError::Conflict(
                            "two different shuffles of one deck",
                        )))
                    }
                    // Another deck (another history: the conflict is upstream), or the same.
                    Some(_) => return Err(early("a second shuffle of one deck")),
                    None => {}
                }
                // Every escrow is in before the first shuffle (security review A5).
                if !self.setup_done() {
                    return Err(early("a shuffle before every escrow"));
                }
                if d.next != Some(from) || !self.previous_done(deck) {
                    return Err(early("a shuffle out of turn"));
                }
                if input != deck_digest(&joint, deck, &d.cards) {
                    return Err(Refused::Diverged {
                        seat: from,
                        what: "a shuffle of a deck we do not hold",
                    });
                }
                let ctx = self.deck_context(deck, b"shuffle", u16::from(from));
                verify_shuffle(&ctx, &joint, &d.cards, &output, &proof).map_err(cheat)?;
                self.shuffled.insert((deck, from), (input, out_digest));
                let next = self.shuffler_after(deck as usize, Some(from));
                let d = &mut self.decks[deck as usize];
                d.cards = output;
                d.next = next;
                Ok(self.due())
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
                let draw = self.readable(deck, position, from)?;
                if draw.shares.contains_key(&from) {
                    return Err(early("a share twice"));
                }
                let ctx = self.deck_context(deck, b"draw", position);
                let point = verify_share(&ctx, &key, &ct, &share).map_err(cheat)?;
                self.draw_mut(deck, position)
                    .shares
                    .insert(from, (share, point));
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
                    .commitment(leaver, from)
                    .ok_or(early("a piece share of no escrow"))?;
                let draw = self.readable(deck, position, from)?;
                if draw.stand_ins.contains_key(&(leaver, from)) {
                    return Err(early("a piece share twice"));
                }
                let ctx = self.piece_context(deck, position, leaver);
                let point = verify_share(&ctx, &commitment, &ct, &share).map_err(cheat)?;
                self.draw_mut(deck, position)
                    .stand_ins
                    .insert((leaver, from), (share, point));
                self.try_open(deck, position);
                Ok(vec![])
            }
            DealMsg::Complaint {
                leaver,
                escrow,
                complaint,
            } => {
                let key = *self
                    .keys
                    .get(&from)
                    .ok_or(early("a complaint before its key"))?;
                let e = self
                    .escrows
                    .get(&leaver)
                    .ok_or(early("a complaint about no escrow"))?;
                if e.digest() != escrow {
                    // The owner sent us another escrow than the complainer: not the
                    // complainer's lie. The two escrows will meet.
                    return Err(Refused::Diverged {
                        seat: from,
                        what: "a complaint about an escrow we do not hold",
                    });
                }
                let piece = e
                    .pieces
                    .iter()
                    .find(|p| p.to == from)
                    .copied()
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
                shares,
                pieces,
            } => {
                let card = self
                    .check_reveal(deck, position, &shares, &pieces)
                    .map_err(|e| match e {
                        // A forged share in a reveal is the revealer's lie, whoever made it.
                        Refused::Cheat(c) => cheat(c.what),
                        e => e,
                    })?;
                self.known.insert((deck, position), card);
                Ok(vec![])
            }
        }
    }
}

/// The digest a shuffle names as its input: the joint key, the deck's number and its
/// ciphertexts as they stood before the shuffle.
pub fn deck_digest(joint: &RistrettoPoint, deck: u8, cards: &[Ciphertext]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"orbis-deal deck\0");
    h.update(joint.compress().as_bytes());
    h.update([deck]);
    h.update(cards_digest(cards));
    h.finalize().into()
}

fn cards_digest(cards: &[Ciphertext]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update((cards.len() as u64).to_le_bytes());
    for c in cards {
        h.update(c.c1.as_bytes());
        h.update(c.c2.as_bytes());
    }
    h.finalize().into()
}
