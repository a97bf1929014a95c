//! Stable link ids for a transport's peer ids, shared by the native and browser transports.

use crate::LinkId;
use std::collections::BTreeMap;

/// Gives each transport-level peer id a small link id on first sight, and maps it back.
#[derive(Clone, Debug)]
pub struct Links<P> {
    ids: BTreeMap<P, LinkId>,
    peers: BTreeMap<LinkId, P>,
    next: LinkId,
}

impl<P: Ord + Clone> Default for Links<P> {
    fn default() -> Self {
        Links {
            ids: BTreeMap::new(),
            peers: BTreeMap::new(),
            next: 1,
        }
    }
}

impl<P: Ord + Clone> Links<P> {
    /// The link id of `p`, assigning the next one (from 1) the first time `p` is seen.
    pub fn link(&mut self, p: P) -> LinkId {
        if let Some(l) = self.ids.get(&p) {
            return *l;
        }
        let l = self.next;
        self.next += 1;
        self.ids.insert(p.clone(), l);
        self.peers.insert(l, p);
        l
    }

    /// The peer behind link `l`, if it was ever seen.
    pub fn peer(&self, l: LinkId) -> Option<&P> {
        self.peers.get(&l)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_and_map_back() {
        let mut links = Links::default();
        assert_eq!(links.link("a"), 1);
        assert_eq!(links.link("b"), 2);
        assert_eq!(links.link("a"), 1);
        assert_eq!(links.peer(2), Some(&"b"));
        assert_eq!(links.peer(3), None);
    }
}
