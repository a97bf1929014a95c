//! What a page shows of an economy game beyond its state: the seats this peer plays now, and
//! when the window open for them closes by itself (`economy::economy_timers` closes it; this
//! only reads the same clocks, so a page's countdown is the protocol's own).
//!
//! Owns nothing; reads `Run`. Invariant: `economy_deadline` is the moment, on the clock the
//! caller passes to `tick`, at which `economy_timers` commits our pass or empty plans.

use super::*;
use orbis_engine::rules::economy::phase::Phase as EcoPhase;

impl Peer {
    /// Economy game: the seats this peer plays now (its proposal's seats, without those handed
    /// to the computer).
    pub fn economy_seats(&self) -> Vec<PlayerId> {
        let Some(r) = &self.run else { return vec![] };
        r.me.filter(|m| !r.excluded.contains(m))
            .map_or(vec![], |m| r.seats_of(m))
    }

    /// Economy game: whether our influence cards cannot be dealt yet because the deal lacks a
    /// participant's key, escrow or shuffle ([`Peer::waiting_on`] names whom): we commit
    /// nothing until they are, and [`Peer::submit_economy`] refuses with
    /// [`CommandError::CardsBeingDealt`].
    pub fn economy_dealing(&self) -> bool {
        let Some(r) = &self.run else { return false };
        !r.over()
            && r.me
                .is_some_and(|m| !r.excluded.contains(&m) && r.dealing_to(m))
    }

    /// Economy game: whether a computer seat's influence cards cannot be dealt yet because the
    /// deal lacks a participant's key, escrow or shuffle ([`Peer::waiting_on`] names whom): the
    /// game stops for them as for a player's own, and we commit nothing until they are (unless
    /// the deal waits on us).
    pub fn economy_computers_dealing(&self) -> bool {
        let Some(r) = &self.run else { return false };
        !r.over()
            && r.me
                .is_some_and(|m| !r.excluded.contains(&m) && !r.dealing_to(m) && r.holds_back(m))
    }

    /// Economy game: when (on the `tick` clock) the window open for our seats closes by itself —
    /// a declaration window `Config::declare_ms` after the position began, the planning minute
    /// `Config::planning_ms` after commitments covering a majority were in — while we have not
    /// committed. `None` when no such window is open for us.
    pub fn economy_deadline(&self) -> Option<u64> {
        let (r, _, round) = self.round_owed()?;
        self.economy_due()?;
        let s = self.economy_state()?;
        let battle = s.combat.as_ref().and_then(|c| c.battle.as_ref());
        match (s.phase, battle) {
            (EcoPhase::Combat, Some(b)) if b.pending.is_some() || !s.waiting_for_choice() => {
                Some(r.since.1.saturating_add(self.cfg.declare_ms))
            }
            (EcoPhase::Planning, _) => r
                .orders
                .get(&round)
                .and_then(|o| o.majority_at)
                .map(|t| t.saturating_add(self.cfg.planning_ms)),
            _ => None,
        }
    }
}
