//! Checking a state read from a save file before anything plays it.

use super::*;

impl ClassicState {
    /// Checks the invariants a loaded save must satisfy; the message says what is wrong.
    pub fn check_consistency(&self) -> Result<(), String> {
        let map = Map::get(&self.map_id).ok_or_else(|| format!("unknown map `{}`", self.map_id))?;
        let t = map.len();
        let n = self.players.len();
        if !(2..=MAX_PLAYERS).contains(&n) {
            return Err(format!("{n} players"));
        }
        if self.owner.len() != t || self.armies.len() != t || self.turn_state.arrived.len() != t {
            return Err("territory tables have the wrong length".into());
        }
        if self.current as usize >= n || self.first as usize >= n {
            return Err("current player out of range".into());
        }
        for (i, o) in self.owner.iter().enumerate() {
            match o {
                Owner::Player(p) if *p as usize >= n => {
                    return Err(format!("territory {i} owned by player {p}"))
                }
                Owner::Unclaimed if self.phase != Phase::Claim => {
                    return Err(format!("territory {i} unclaimed"))
                }
                Owner::Unclaimed => {}
                _ if self.armies[i] == 0 => return Err(format!("territory {i} is empty")),
                _ => {}
            }
        }
        let total = t + WILD_CARDS as usize;
        let mut seen = vec![false; total];
        for &c in self
            .deck
            .iter()
            .chain(&self.discard)
            .chain(self.players.iter().flat_map(|p| &p.hand))
        {
            if c as usize >= total || seen[c as usize] {
                return Err(format!("card {c} is missing or duplicated"));
            }
            seen[c as usize] = true;
        }
        self.check_sealed(total)?;
        // Face down, the cards not in sight are behind slots.
        if self.sealed.is_none() && seen.iter().any(|s| !s) {
            return Err("cards are missing".into());
        }
        let check_t = |x: TerritoryId| {
            if (x as usize) < t {
                Ok(())
            } else {
                Err(format!("territory {x} out of range"))
            }
        };
        match self.phase {
            Phase::Occupy { from, to, .. } => {
                check_t(from)?;
                check_t(to)?;
            }
            Phase::GameOver { winner } if winner as usize >= n => {
                return Err("winner out of range".into())
            }
            _ => {}
        }
        if let Some(s) = self.turn_state.fortify_source {
            check_t(s)?;
        }
        if let Some(Mission::Continents(a, b)) = self
            .players
            .iter()
            .find_map(|p| p.mission.filter(|m| matches!(m, Mission::Continents(..))))
        {
            if a as usize >= map.continents.len() || b as usize >= map.continents.len() {
                return Err("mission names an unknown continent".into());
            }
        }
        Ok(())
    }
}
