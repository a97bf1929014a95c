//! A bounded table that forgets its oldest entry first: the junk window of message ids, the ids
//! of chat delivered to us, and the binding numbers of forgotten keys.
//!
//! Invariant: at most `cap` entries, and the order of insertion agrees with the table (every
//! key is in both once), so a flood of new entries only ever pushes out the oldest.

use std::collections::{BTreeMap, VecDeque};

/// A map of at most `cap` entries, oldest forgotten first.
#[derive(Clone, Debug)]
pub(super) struct Window<K, V> {
    map: BTreeMap<K, V>,
    order: VecDeque<K>,
    cap: usize,
}

impl<K: Ord + Clone, V> Window<K, V> {
    /// An empty window of at most `cap` entries.
    pub(super) fn new(cap: usize) -> Self {
        Window {
            map: BTreeMap::new(),
            order: VecDeque::new(),
            cap,
        }
    }

    /// Puts `k` in with `v` (a key already in keeps its place and takes the new value). The
    /// entry pushed out, if the window was full.
    pub(super) fn insert(&mut self, k: K, v: V) -> Option<(K, V)> {
        if let Some(old) = self.map.get_mut(&k) {
            *old = v;
            return None;
        }
        self.map.insert(k.clone(), v);
        self.order.push_back(k);
        if self.order.len() > self.cap {
            let gone = self.order.pop_front()?;
            let v = self.map.remove(&gone)?;
            return Some((gone, v));
        }
        None
    }

    /// The value of `k`, if it is in.
    pub(super) fn get(&self, k: &K) -> Option<&V> {
        self.map.get(k)
    }

    /// Whether `k` is in.
    pub(super) fn contains(&self, k: &K) -> bool {
        self.map.contains_key(k)
    }

    /// Takes `k` out (a scan of the window: only for small windows or rare calls).
    pub(super) fn remove(&mut self, k: &K) {
        if self.map.remove(k).is_some() {
            self.order.retain(|x| x != k);
        }
    }

    /// Entries in the window.
    pub(super) fn len(&self) -> usize {
        self.map.len()
    }
}

impl<K: Ord + Clone> Window<K, ()> {
    /// Puts id `k` in; true if it was not in yet.
    pub(super) fn add(&mut self, k: K) -> bool {
        let new = !self.contains(&k);
        self.insert(k, ());
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_oldest_goes_first_and_a_key_already_in_keeps_its_place() {
        let mut w = Window::new(2);
        assert_eq!(w.insert(1, 'a'), None);
        assert_eq!(w.insert(2, 'b'), None);
        assert_eq!(w.insert(1, 'c'), None, "already in: keeps its place");
        assert_eq!(w.insert(3, 'd'), Some((1, 'c')));
        assert_eq!(w.get(&2), Some(&'b'));
        w.remove(&2);
        assert_eq!(w.insert(4, 'e'), None);
        assert_eq!(w.len(), 2);
    }

    proptest! {
        /// Whatever goes in and out, the window stays within its bound and its order agrees
        /// with its table.
        #[test]
        fn the_window_stays_bounded_and_in_step(ops in prop::collection::vec((any::<bool>(), 0..40u8), 0..300)) {
            let mut w = Window::new(16);
            for (add, k) in ops {
                if add { w.add(k); } else { w.remove(&k); }
                prop_assert!(w.len() <= 16);
                prop_assert_eq!(w.order.len(), w.map.len());
                prop_assert!(w.order.iter().all(|k| w.map.contains_key(k)));
            }
        }
    }
}
