//! Who is who in the room: the names keys announced in their hellos, and the connection each key
//! is bound to.
//!
//! Owns the names (at most [`MAX_NAMES`]), the one-to-one binding of keys to connections, each
//! key's binding number (the sequence number of the hello that last bound it), the binding
//! numbers of forgotten keys (at most [`MAX_NAMES`], oldest first), the nonce epoch, and when
//! each connection was last challenged. *Which* name to forget, and whether a hello proved its
//! key, are the lobby's to decide (`lobby::on_hello`, `Peer::forget_a_name`): they need the
//! running game and our identity.
//!
//! Invariants ([`Names::check`], after every step of the adversary harness):
//! - a connection binds one key and a key one connection (`links` and `key_links` are inverse);
//! - a key is bound only by a hello numbered above every hello that bound it before, whether its
//!   name is still kept or was forgotten (so a spent answer never binds again: security review
//!   C11, `a_forgotten_victims_spent_answer_does_not_bind_it_again`);
//! - every named or bound key has its binding number, and a key is never both kept and
//!   forgotten;
//! - when a forgotten key's binding number is let go, the nonce epoch moves on, so every answer
//!   given before binds nothing.

use super::window::Window;
use crate::wire::PeerKey;
use crate::LinkId;
use std::collections::BTreeMap;

/// Names kept from hellos: far more than a room holds, few enough that throwaway keys saying
/// hello cannot grow the table (or the list public chat is resent to) without bound. When it is
/// full, a newcomer's hello takes the place of a key that is not in the room, or not heard from
/// within `lobby::PRESENCE_MS` (never a participant of the running game): security review C10.
pub(super) const MAX_NAMES: usize = 256;

/// The room's names and the bindings of keys to connections (see the module comment).
#[derive(Clone, Debug)]
pub(super) struct Names {
    names: BTreeMap<PeerKey, String>,
    links: BTreeMap<LinkId, PeerKey>,
    key_links: BTreeMap<PeerKey, LinkId>,
    /// Sequence number of the hello that last bound each key (only a newer one binds it again).
    bind_seq: BTreeMap<PeerKey, u64>,
    /// The binding numbers of forgotten keys: an answer a forgotten key gave before still binds
    /// nothing.
    forgotten: Window<PeerKey, u64>,
    /// Mixed into every connection's nonce (`Peer::link_nonce`), and moved on whenever
    /// `forgotten` lets a key go.
    epoch: u64,
    /// When we last challenged each connection outside a hello's answer.
    challenged: BTreeMap<LinkId, u64>,
}

impl Names {
    /// An empty table.
    pub(super) fn new() -> Names {
        Names {
            names: BTreeMap::new(),
            links: BTreeMap::new(),
            key_links: BTreeMap::new(),
            bind_seq: BTreeMap::new(),
            forgotten: Window::new(MAX_NAMES),
            epoch: 0,
            challenged: BTreeMap::new(),
        }
    }

    /// The names kept, by key.
    pub(super) fn all(&self) -> &BTreeMap<PeerKey, String> {
        &self.names
    }

    /// Whether `k` has a name kept.
    pub(super) fn is_named(&self, k: &PeerKey) -> bool {
        self.names.contains_key(k)
    }

    /// Whether no other name fits until one is forgotten.
    pub(super) fn full(&self) -> bool {
        self.names.len() >= MAX_NAMES
    }

    /// The key bound to connection `l`.
    pub(super) fn key_on(&self, l: LinkId) -> Option<PeerKey> {
        self.links.get(&l).copied()
    }

    /// The connection `k` is bound to.
    pub(super) fn link_of(&self, k: &PeerKey) -> Option<LinkId> {
        self.key_links.get(k).copied()
    }

    /// Whether `k` is bound to some connection now (in the room).
    pub(super) fn is_bound(&self, k: &PeerKey) -> bool {
        self.key_links.contains_key(k)
    }

    /// Whether `k` is bound to connection `l`.
    pub(super) fn bound_to(&self, k: &PeerKey, l: LinkId) -> bool {
        self.links.get(&l) == Some(k)
    }

    /// The nonce epoch (see the module comment).
    pub(super) fn epoch(&self) -> u64 {
        self.epoch
    }

    /// Binds `k` to connection `l` for a hello numbered `seq` that answered `l`'s challenge:
    /// only if `k` is not bound there yet and `seq` is above every number that bound `k`
    /// before (kept or forgotten). The connection's earlier key, and `k`'s earlier connection,
    /// are unbound. True if it bound.
    pub(super) fn bind(&mut self, k: PeerKey, l: LinkId, seq: u64) -> bool {
        let last = self
            .bind_seq
            .get(&k)
            .or_else(|| self.forgotten.get(&k))
            .copied();
        if self.bound_to(&k, l) || last.is_some_and(|s| seq <= s) {
            return false;
        }
        self.bind_seq.insert(k, seq);
        self.forgotten.remove(&k);
        if let Some(old) = self.key_links.insert(k, l) {
            self.links.remove(&old);
        }
        if let Some(old) = self.links.insert(l, k) {
            self.key_links.remove(&old);
        }
        true
    }

    /// Keeps `name` for `k`, if `k` is bound and the table has room for it.
    pub(super) fn set_name(&mut self, k: PeerKey, name: String) {
        if self.is_bound(&k) && (!self.full() || self.is_named(&k)) {
            self.names.insert(k, name);
        }
    }

    /// Forgets `k`'s name and binding; its binding number is kept among the forgotten ones
    /// (the oldest of which is let go, moving the nonce epoch on, when there are too many).
    pub(super) fn forget(&mut self, k: &PeerKey) {
        self.names.remove(k);
        if let Some(s) = self.bind_seq.remove(k) {
            if self.forgotten.insert(*k, s).is_some() {
                self.epoch += 1;
            }
        }
        if let Some(l) = self.key_links.remove(k) {
            self.links.remove(&l);
        }
    }

    /// Whether connection `l` may be challenged at `now` (at most once per `period`); if so,
    /// remembers that it was.
    pub(super) fn may_challenge(&mut self, l: LinkId, now: u64, period: u64) -> bool {
        if self
            .challenged
            .get(&l)
            .is_some_and(|&t| now < t.saturating_add(period))
        {
            return false;
        }
        self.challenged.insert(l, now);
        true
    }

    /// The size of each table, for `Peer::table_sizes`.
    pub(super) fn sizes(&self) -> [(&'static str, usize); 5] {
        [
            ("names", self.names.len()),
            ("challenged", self.challenged.len()),
            ("bind_seq", self.bind_seq.len()),
            ("forgotten_binds", self.forgotten.len()),
            ("key_links", self.key_links.len()),
        ]
    }

    /// The invariants of the module comment that can be read off the tables; the first broken
    /// one, if any.
    pub(super) fn check(&self) -> Result<(), String> {
        if self.links.len() != self.key_links.len()
            || self
                .links
                .iter()
                .any(|(l, k)| self.key_links.get(k) != Some(l))
        {
            return Err("names: connections and keys are not bound one to one".into());
        }
        if let Some(k) = self
            .names
            .keys()
            .chain(self.key_links.keys())
            .find(|k| !self.bind_seq.contains_key(k))
        {
            return Err(format!(
                "names: {k:?} is named or bound without a binding number"
            ));
        }
        if let Some(k) = self
            .bind_seq
            .keys()
            .find(|k| self.forgotten.get(k).is_some())
        {
            return Err(format!("names: {k:?} is both kept and forgotten"));
        }
        if self.names.len() > MAX_NAMES || self.forgotten.len() > MAX_NAMES {
            return Err("names: a table is over its bound".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn key(i: u8) -> PeerKey {
        PeerKey([i; 32])
    }

    #[test]
    fn a_key_binds_only_with_a_newer_hello_even_once_forgotten() {
        let mut n = Names::new();
        assert!(n.bind(key(1), 1, 10));
        assert!(!n.bind(key(1), 1, 11), "already bound there");
        assert!(!n.bind(key(1), 2, 10), "the same hello again");
        assert!(n.bind(key(1), 2, 11));
        assert_eq!(n.key_on(1), None, "its old connection is free");
        n.forget(&key(1));
        assert!(!n.is_bound(&key(1)));
        assert!(!n.bind(key(1), 3, 11), "a spent answer of a forgotten key");
        assert!(n.bind(key(1), 3, 12));
        n.check().unwrap();
    }

    #[test]
    fn letting_a_forgotten_key_go_moves_the_epoch_on() {
        let mut n = Names::new();
        for i in 0..=MAX_NAMES as u32 {
            let k = PeerKey(sha(i));
            assert!(n.bind(k, i.into(), 1));
            n.forget(&k);
            assert_eq!(n.epoch(), u64::from(i == MAX_NAMES as u32));
        }
        assert_eq!(n.sizes()[3], ("forgotten_binds", MAX_NAMES));
        n.check().unwrap();
    }

    #[test]
    fn a_full_table_takes_no_new_name() {
        let mut n = Names::new();
        for i in 0..MAX_NAMES as u32 {
            n.bind(PeerKey(sha(i)), i.into(), 1);
            n.set_name(PeerKey(sha(i)), "x".into());
        }
        assert!(n.full());
        let k = key(0xee);
        n.bind(k, 9_999, 1);
        n.set_name(k, "late".into());
        assert!(!n.is_named(&k));
        n.set_name(PeerKey(sha(0)), "renamed".into());
        assert_eq!(n.all()[&PeerKey(sha(0))], "renamed");
        n.check().unwrap();
    }

    fn sha(i: u32) -> [u8; 32] {
        orbis_engine::codec::sha256(&i.to_le_bytes())
    }

    #[derive(Clone, Debug)]
    enum Op {
        Bind(u8, u8, u8),
        Name(u8),
        Forget(u8),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (0..12u8, 0..6u8, 0..8u8).prop_map(|(k, l, s)| Op::Bind(k, l, s)),
            (0..12u8).prop_map(Op::Name),
            (0..12u8).prop_map(Op::Forget),
        ]
    }

    proptest! {
        /// Any sequence of bindings, names and forgets keeps every invariant, and a key never
        /// binds twice with one hello number.
        #[test]
        fn any_sequence_keeps_the_invariants(ops in prop::collection::vec(op(), 0..200)) {
            let mut n = Names::new();
            let mut spent = std::collections::BTreeSet::new();
            for o in ops {
                match o {
                    Op::Bind(k, l, s) => {
                        if n.bind(key(k), l.into(), s.into()) {
                            prop_assert!(spent.insert((k, s)), "hello {s} of {k} bound twice");
                        }
                    }
                    Op::Name(k) => n.set_name(key(k), format!("{k}")),
                    Op::Forget(k) => n.forget(&key(k)),
                }
                prop_assert_eq!(n.check(), Ok(()));
            }
        }
    }
}
