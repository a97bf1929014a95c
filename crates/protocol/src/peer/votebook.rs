//! The table of votes a running game holds: each control voted for at a log position, with the
//! signed vote of every voter, and whether it took effect. `votes` decides who may vote and what
//! a complete vote does; this module only keeps the table and its bounds, so they can be tested
//! on their own (issue 30, "Shape").
//!
//! Owns `Run::votes`. Invariants: a vote set is keyed by its position and its control's hash
//! (`control_hash`) and holds at most one signed vote per voter; a set nobody votes for any more
//! is removed unless it took effect; a voter's open votes are counted without its seconds of
//! readmissions their target signed ([`VoteBook::open_votes_of`]), so a flood of requests never
//! uses up the quota a voter needs to vote a withholder out (security review B8).

use super::*;

/// Votes for one control at one position.
#[derive(Clone, Debug)]
pub(super) struct VoteSet {
    pub(super) control: Control,
    /// Each voter's signed vote.
    pub(super) voters: BTreeMap<PeerKey, Vec<u8>>,
    /// The batch each voter that had fixed one at this (economy) position said it fixed
    /// (`Body::Vote::fixed`): the control applies only to that batch.
    pub(super) fixed: BTreeMap<PeerKey, [u8; 32]>,
    /// A second signed version of a voter's vote here, naming another batch (the first is in
    /// `voters`): proof of equivocation once the control completes. One kept per set.
    pub(super) conflict: Option<(PeerKey, Vec<u8>)>,
    /// Whether the control took effect at its position.
    pub(super) applied: bool,
}

impl VoteSet {
    /// Whether this is a vote for a readmission its target signed (seconding it costs no quota).
    fn seconds(&self) -> bool {
        matches!(self.control, Control::Readmit { peer, .. } if self.voters.contains_key(&peer))
    }
}

/// The hash a control is kept under at its position.
pub(super) fn control_hash(c: &Control) -> [u8; 32] {
    let mut b = b"orbis-control".to_vec();
    b.extend_from_slice(&codec::encode(c));
    sha256(&b)
}

/// Votes by position and control hash.
#[derive(Clone, Debug, Default)]
pub(super) struct VoteBook {
    sets: BTreeMap<(u64, [u8; 32]), VoteSet>,
}

impl VoteBook {
    /// The vote sets at position `at`, in control-hash order.
    pub(super) fn at(&self, at: u64) -> impl Iterator<Item = (&[u8; 32], &VoteSet)> {
        self.sets
            .range((at, [0; 32])..=(at, [0xff; 32]))
            .map(|((_, h), v)| (h, v))
    }

    /// The vote set for `control` at `at`.
    pub(super) fn get(&self, at: u64, control: &Control) -> Option<&VoteSet> {
        self.sets.get(&(at, control_hash(control)))
    }

    /// Whether `voter` voted for `control` at `at`.
    pub(super) fn has_voted(&self, at: u64, control: &Control, voter: &PeerKey) -> bool {
        self.get(at, control)
            .is_some_and(|v| v.voters.contains_key(voter))
    }

    /// The open (not applied) votes of `voter`, its seconds of signed readmissions not counted.
    pub(super) fn open_votes_of(&self, voter: &PeerKey) -> usize {
        self.sets
            .values()
            .filter(|v| !v.applied && v.voters.contains_key(voter) && !v.seconds())
            .count()
    }

    /// `voter`'s signed votes that have not taken effect, by position.
    pub(super) fn open_of<'a>(
        &'a self,
        voter: &'a PeerKey,
    ) -> impl DoubleEndedIterator<Item = &'a [u8]> + 'a {
        self.sets
            .values()
            .filter(|v| !v.applied)
            .filter_map(move |v| v.voters.get(voter).map(Vec::as_slice))
    }

    /// Whether `target` signed, at `at`, an open request to be readmitted other than `control`.
    pub(super) fn other_request(&self, at: u64, control: &Control, target: &PeerKey) -> bool {
        let h = control_hash(control);
        self.at(at).any(|(k, v)| {
            *k != h
                && !v.applied
                && matches!(v.control, Control::Readmit { peer, .. } if peer == *target)
                && v.voters.contains_key(target)
        })
    }

    /// `voter`'s signed vote for `control` at `at`, when it names another batch than `fixed`:
    /// one voter signed two votes that apply at different points (for different peers).
    pub(super) fn conflicting(
        &self,
        at: u64,
        control: &Control,
        voter: &PeerKey,
        fixed: Option<[u8; 32]>,
    ) -> Option<&[u8]> {
        let v = self.get(at, control)?;
        let first = v.voters.get(voter)?;
        (v.fixed.get(voter).copied() != fixed).then_some(first.as_slice())
    }

    /// Keeps `raw`, a second version of `voter`'s vote for `control` at `at` (the first one
    /// kept, if there is already one).
    pub(super) fn note_conflict(&mut self, at: u64, control: &Control, voter: PeerKey, raw: &[u8]) {
        if let Some(v) = self.sets.get_mut(&(at, control_hash(control))) {
            v.conflict.get_or_insert_with(|| (voter, raw.to_vec()));
        }
    }

    /// Records `voter`'s signed vote for `control` at `at` (cast at the batch `fixed`, if any);
    /// false if it had voted for it there.
    pub(super) fn add(
        &mut self,
        at: u64,
        control: Control,
        (voter, fixed): (PeerKey, Option<[u8; 32]>),
        raw: &[u8],
    ) -> bool {
        let v = self
            .sets
            .entry((at, control_hash(&control)))
            .or_insert(VoteSet {
                control,
                voters: BTreeMap::new(),
                fixed: BTreeMap::new(),
                conflict: None,
                applied: false,
            });
        if v.voters.contains_key(&voter) {
            return false;
        }
        v.voters.insert(voter, raw.to_vec());
        if let Some(d) = fixed {
            v.fixed.insert(voter, d);
        }
        true
    }

    /// Marks `control` at `at` as having taken effect.
    pub(super) fn mark_applied(&mut self, at: u64, control: &Control) {
        if let Some(v) = self.sets.get_mut(&(at, control_hash(control))) {
            v.applied = true;
        }
    }

    /// Takes `voter`'s open votes at `from` and later out (it was dropped there: its later votes
    /// are no longer a voter's); sets left without a voter go.
    pub(super) fn withdraw(&mut self, voter: &PeerKey, from: u64) {
        self.sets.retain(|(a, _), v| {
            if *a >= from && !v.applied {
                v.voters.remove(voter);
                v.fixed.remove(voter);
                if v.conflict.as_ref().is_some_and(|(k, _)| k == voter) {
                    v.conflict = None;
                }
            }
            v.applied || !v.voters.is_empty()
        });
    }

    /// Keeps the sets at `next` and later, those that took effect, and those up to `memory`
    /// positions back that `keep` asks for (votes about us); forgets the rest.
    pub(super) fn prune(&mut self, next: u64, memory: u64, keep: impl Fn(&Control) -> bool) {
        self.sets.retain(|(a, _), v| {
            *a >= next || v.applied || (a.saturating_add(memory) >= next && keep(&v.control))
        });
    }

    /// Vote sets held.
    pub(super) fn len(&self) -> usize {
        self.sets.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(i: u8) -> PeerKey {
        PeerKey([i; 32])
    }

    fn drop_of(i: u8) -> Control {
        Control::Drop {
            peer: key(i),
            level: BotLevel::Easy,
        }
    }

    fn readmit_of(i: u8, tip: u8) -> Control {
        Control::Readmit {
            peer: key(i),
            tip: [tip; 32],
        }
    }

    #[test]
    fn a_voter_votes_once_per_control_and_position() {
        let mut b = VoteBook::default();
        assert!(b.add(5, drop_of(9), (key(1), None), b"v1"));
        assert!(!b.add(5, drop_of(9), (key(1), None), b"v1 again"));
        assert!(b.add(6, drop_of(9), (key(1), None), b"v1 at 6"));
        assert!(b.add(5, drop_of(9), (key(2), None), b"v2"));
        assert_eq!(b.len(), 2);
        let v = b.get(5, &drop_of(9)).expect("a set at 5");
        assert_eq!(v.voters.get(&key(1)).map(Vec::as_slice), Some(&b"v1"[..]));
        assert!(b.has_voted(5, &drop_of(9), &key(2)));
        assert!(!b.has_voted(5, &drop_of(8), &key(2)));
        assert_eq!(b.at(5).count(), 1);
        assert_eq!(b.at(7).count(), 0);
    }

    #[test]
    fn seconds_of_signed_requests_do_not_count_against_a_voters_quota() {
        let mut b = VoteBook::default();
        for t in 0..40 {
            // Each target asks back once, and our voter seconds it.
            b.add(3, readmit_of(100 + t, t), (key(100 + t), None), b"request");
            b.add(3, readmit_of(100 + t, t), (key(1), None), b"second");
        }
        assert_eq!(b.open_votes_of(&key(1)), 0);
        // A request nobody's target signed is an ordinary vote.
        b.add(3, readmit_of(7, 0), (key(1), None), b"unsigned request");
        b.add(3, drop_of(8), (key(1), None), b"drop");
        assert_eq!(b.open_votes_of(&key(1)), 2);
        // Once applied, a vote is no longer open.
        b.mark_applied(3, &drop_of(8));
        assert_eq!(b.open_votes_of(&key(1)), 1);
    }

    #[test]
    fn a_target_has_one_open_request_per_position() {
        let mut b = VoteBook::default();
        b.add(4, readmit_of(7, 1), (key(7), None), b"request");
        assert!(!b.other_request(4, &readmit_of(7, 1), &key(7)));
        assert!(b.other_request(4, &readmit_of(7, 2), &key(7)));
        assert!(!b.other_request(5, &readmit_of(7, 2), &key(7)));
        // A request for it that it did not sign is not its request.
        b.add(6, readmit_of(7, 1), (key(1), None), b"someone else's");
        assert!(!b.other_request(6, &readmit_of(7, 2), &key(7)));
    }

    #[test]
    fn a_dropped_voter_leaves_only_its_earlier_and_applied_votes() {
        let mut b = VoteBook::default();
        b.add(2, drop_of(8), (key(9), None), b"before");
        b.add(4, drop_of(8), (key(9), None), b"applied");
        b.add(4, drop_of(8), (key(1), None), b"applied too");
        b.mark_applied(4, &drop_of(8));
        b.add(4, drop_of(7), (key(9), None), b"open here");
        b.add(4, drop_of(7), (key(1), None), b"an honest vote");
        b.add(6, drop_of(6), (key(9), None), b"alone later");
        b.withdraw(&key(9), 4);
        assert!(b.has_voted(2, &drop_of(8), &key(9)));
        assert!(b.has_voted(4, &drop_of(8), &key(9)));
        assert!(!b.has_voted(4, &drop_of(7), &key(9)));
        assert!(b.has_voted(4, &drop_of(7), &key(1)));
        assert!(b.get(6, &drop_of(6)).is_none());
        assert_eq!(b.len(), 3);
    }

    #[test]
    fn passed_positions_keep_only_applied_votes_and_recent_ones_asked_for() {
        let mut b = VoteBook::default();
        for at in 0..200 {
            b.add(at, drop_of(8), (key(1), None), b"spam");
            b.add(at, drop_of(9), (key(1), None), b"about us");
        }
        b.mark_applied(10, &drop_of(8));
        b.prune(150, 64, |c| *c == drop_of(9));
        // 150..200 both; 86..150 about us; 10 applied.
        assert_eq!(b.len(), 50 * 2 + 64 + 1);
        assert!(b.get(85, &drop_of(9)).is_none());
        assert!(b.get(86, &drop_of(9)).is_some());
        assert!(b.get(10, &drop_of(8)).is_some());
        assert!(b.get(11, &drop_of(8)).is_none());
    }
}
