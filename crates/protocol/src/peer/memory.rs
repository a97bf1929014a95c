//! Memory: our own dice reveals and open votes, kept by the caller across a reload
//! ([`Peer::memento`] → [`Config::remembered`]), so a peer that rebuilds its history from the
//! others (in a two-player room, from its only opponent) notices an entry re-signed after its
//! dice were known, and never signs a vote that contradicts one it signed before the reload.
//!
//! Owns `Peer::pins` and `Peer::cast`.
//!
//! Invariants: we never open a roll for a declaration other than the one we opened it for before
//! the reload; a history that asks us to halts, naming the entry's signer, with our earlier
//! signed reveal and the new entry as evidence. A vote we sign again for a control at a position
//! names the batch (`Body::Vote::fixed`) our vote before the reload named, even if a resend has
//! not given that vote back yet: two versions naming different batches are proof of
//! equivocation (`votes`), and an honest page that reloads must never give it.

use super::*;

/// Reveals of ours a memento carries (the most recent ones): a re-signing opponent can only
/// reach back to the rolls since our last reload anyway.
pub const MEMENTO_ROLLS: usize = 16;

/// Our open votes a memento carries (a voter has at most `MAX_OPEN_VOTES` that count).
pub const MEMENTO_VOTES: usize = 8;

/// How many remembered messages are read at most (a caller's store could hold anything).
pub(super) const MEMENTO_READ: usize = 4 * (MEMENTO_ROLLS + MEMENTO_VOTES);

/// A vote we signed before a reload: in which game, at which position, for which control, and
/// which batch it named; and the signed vote.
#[derive(Clone, Debug)]
pub(super) struct Cast {
    game: [u8; 16],
    at: u64,
    control: Control,
    fixed: Option<[u8; 32]>,
    raw: Vec<u8>,
}

/// Our own signed votes among `remembered` (others' messages are ignored).
pub(super) fn load_cast(remembered: &[Vec<u8>], me: PeerKey) -> Vec<Cast> {
    remembered
        .iter()
        .take(MEMENTO_READ)
        .filter_map(|raw| match Envelope::open_where(raw, |_| true) {
            Ok((env, Body::Vote { at, control, fixed })) if env.sender == me => Some(Cast {
                game: env.game_id,
                at,
                control,
                fixed,
                raw: raw.clone(),
            }),
            _ => None,
        })
        .take(MEMENTO_VOTES)
        .collect()
}

/// A roll we opened before a reload: in which game, at which position, for which declaration.
#[derive(Clone, Debug)]
pub(super) struct Pin {
    game: [u8; 16],
    index: u64,
    decl: [u8; 32],
    raw: Vec<u8>,
}

/// Our own signed reveals among `remembered`, by roll number (others' messages are ignored).
pub(super) fn load_pins(remembered: &[Vec<u8>], me: PeerKey) -> BTreeMap<u32, Pin> {
    let mut pins = BTreeMap::new();
    for raw in remembered.iter().take(MEMENTO_READ) {
        if let Ok((
            env,
            Body::Reveal {
                index, roll, decl, ..
            },
        )) = Envelope::open_where(raw, |_| true)
        {
            if env.sender == me {
                pins.insert(
                    roll,
                    Pin {
                        game: env.game_id,
                        index,
                        decl,
                        raw: raw.clone(),
                    },
                );
            }
        }
    }
    pins
}

impl Peer {
    /// Our most recent signed dice reveals in the running game, then our votes there that have
    /// not taken effect, then (over days) our commitments, sealed copies and reveals of orders
    /// of the last rounds: for the caller to keep (e.g. with its autosave, or beside a visit's
    /// keys) and hand back in [`Config::remembered`] after a reload or on the next visit. It
    /// changes whenever we reveal, vote or commit.
    pub fn memento(&self) -> Vec<Vec<u8>> {
        let (Some(r), Some(m)) = (&self.run, self.run.as_ref().and_then(|r| r.me)) else {
            return vec![];
        };
        let mut out: Vec<Vec<u8>> = r
            .reveals
            .values()
            .rev()
            .filter_map(|by| by.get(&m).map(|s| s.raw.clone()))
            .take(MEMENTO_ROLLS)
            .collect();
        out.reverse();
        let me = self.me;
        let votes = r.votes.open_of(&me).rev().take(MEMENTO_VOTES);
        out.extend(
            votes
                .map(<[u8]>::to_vec)
                .collect::<Vec<_>>()
                .into_iter()
                .rev(),
        );
        // Over days, our orders messages of the last rounds (`days`): a later visit publishes
        // them again if the store lost them, instead of signing a second commitment.
        out.extend(self.days_memento());
        out
    }

    /// Puts the votes we signed before a reload back in the game's vote table when the game
    /// (re)starts, before any of its history: they hold us at their position as they did before
    /// (a voter fixes no batch while its vote there is open; review of the memento's votes: a
    /// reloaded voter that was not held fixed a batch the other voter had dropped the target
    /// before, and the two waited on each other), and the next memento carries them even if no
    /// resend gives them back (else a second reload forgot them).
    pub(super) fn restore_cast(&mut self, out: &mut Output) {
        let Some(tag) = self.run.as_ref().map(|r| r.tag) else {
            return;
        };
        if self.cfg.stored {
            // Over days `Peer::visit` reads them with the store, each at its position.
            return;
        }
        let mine: Vec<Vec<u8>> = self
            .cast
            .iter()
            .filter(|c| c.game == tag)
            .map(|c| c.raw.clone())
            .collect();
        for raw in mine {
            let now = self.now;
            out.merge(self.receive(None, &raw, now));
        }
    }

    /// The batch our vote for `control` at `at` named before a reload, if we signed one there
    /// in this game (`None` inside: it named none).
    pub(super) fn cast_before(&self, at: u64, control: &Control) -> Option<Option<[u8; 32]>> {
        let tag = self.run.as_ref()?.tag;
        self.cast
            .iter()
            .find(|c| c.game == tag && c.at == at && c.control == *control)
            .map(|c| c.fixed)
    }

    /// The entry `record` at `index` (declaring `roll` if it rolls) contradicts a reveal we made
    /// before a reload: another declaration at that position or for that roll.
    pub(super) fn pinned_conflict(
        &self,
        index: u64,
        roll: Option<u32>,
        record: &Record,
    ) -> Option<HaltReport> {
        let r = self.run.as_ref()?;
        let here = |p: &&Pin| p.game == r.tag;
        let by_index = self.pins.values().filter(here).find(|p| p.index == index);
        let by_roll = roll.and_then(|k| self.pins.get(&k)).filter(here);
        let pin = by_index.or(by_roll)?;
        let same = pin.index == index
            && pin.decl == record.content
            && roll.is_some_and(|k| self.pins.get(&k).is_some_and(|p| p.decl == pin.decl));
        (!same).then(|| HaltReport::Equivocation {
            peer: record.signer.unwrap_or(self.me),
            index,
            first: pin.decl,
            second: record.content,
            agreed_index: index,
            agreed_head: r.head(),
        })
    }

    /// Our earlier signed reveal that [`Peer::pinned_conflict`] found.
    pub(super) fn pin_evidence(&self, index: u64, roll: u32) -> Option<Vec<u8>> {
        let tag = self.run.as_ref()?.tag;
        self.pins
            .values()
            .find(|p| p.game == tag && p.index == index)
            .or_else(|| self.pins.get(&roll).filter(|p| p.game == tag))
            .map(|p| p.raw.clone())
    }
}
