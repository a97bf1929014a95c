//! Checking a state read from a save file (and dropping what older saves held in vain).

use super::*;

impl OrdersState {
    /// Drops seas from the territory table. Saves made before fleets at sea stopped taking
    /// territory hold such entries; they meant nothing (no army retreats to sea), so a save
    /// that has them loads without them.
    pub fn forget_sea_territory(&mut self) {
        if let Some(map) = OrdersMap::get(&self.map_id) {
            self.territory.retain(|&p, _| {
                map.provinces
                    .get(p as usize)
                    .is_none_or(|x| x.kind != ProvinceKind::Sea)
            });
        }
    }

    /// Checks the invariants of a state read from a save or a peer.
    pub fn check_consistency(&self) -> Result<(), String> {
        let map =
            OrdersMap::get(&self.map_id).ok_or_else(|| format!("unknown map `{}`", self.map_id))?;
        let n = map.powers.len();
        if self.orders.len() != n || self.draw.len() != n {
            return Err("power tables have the wrong length".into());
        }
        let mut seen = BTreeSet::new();
        for u in &self.units {
            if u.power as usize >= n
                || !map.can_stand(u.kind, u.loc)
                || !(1..=2).contains(&u.strength)
            {
                return Err(format!("unit at {} is invalid", map.loc_name(u.loc)));
            }
            if !seen.insert(u.loc.province) {
                return Err(format!("two units in {}", map.key(u.loc.province)));
            }
            if let Some(s) = u.facing {
                if u.kind != UnitType::Fleet
                    || !self.options.fleet_facing
                    || !map.seas_of(u.loc).contains(&s)
                {
                    return Err(format!(
                        "unit at {} faces a sea it cannot face",
                        map.loc_name(u.loc)
                    ));
                }
            }
        }
        for (&c, &p) in &self.centres {
            if (c as usize) >= map.len() || !map.provinces[c as usize].centre || p as usize >= n {
                return Err("bad supply centre entry".into());
            }
        }
        if !self.options.no_retreat_into_foreign_territory && !self.territory.is_empty() {
            return Err("territory is tracked without the house option".into());
        }
        for (&t, &p) in &self.territory {
            if (t as usize) >= map.len()
                || map.provinces[t as usize].kind == ProvinceKind::Sea
                || p as usize >= n
            {
                return Err("bad territory entry".into());
            }
        }
        Ok(())
    }
}
