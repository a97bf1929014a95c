//! Which orders stand before any strength is compared: orders illegal on their own or for the
//! map become holds (a move with no possible convoy route, a support or convoy that does not
//! match the other unit's order, a support only a convoy through the supporter itself could
//! use), and each army move is decided to go overland or by convoy (the intent rule).

use super::*;

impl<G: Geography> Resolver<'_, G> {
    /// Marks illegal orders void (they become holds) and decides which moves go by convoy.
    pub(super) fn check_legality(&mut self) {
        let n = self.units.len();
        // Pass 1: orders that are illegal on their own.
        for i in 0..n {
            let u = self.units[i];
            let here = u.loc.province;
            if self.unit_at(here) != Some(i) {
                self.void[i] = true;
                self.orders[i] = Order::Hold;
                continue;
            }
            let legal = match self.orders[i] {
                Order::Hold => true,
                Order::Move { to, .. } => {
                    to.province != here
                        && match u.kind {
                            UnitType::Fleet => self.geo.can_move(u.kind, u.loc, to),
                            UnitType::Army => {
                                to.coast.is_none()
                                    && self.geo.is_land(to.province)
                                    && (self.geo.can_move(u.kind, u.loc, to)
                                        || (self.coastal(here) && self.coastal(to.province)))
                            }
                        }
                }
                Order::SupportHold { target } => {
                    target != here && self.geo.can_reach(u.kind, u.loc, target)
                }
                Order::SupportMove { from, to, .. } => {
                    to != here
                        && from != here
                        && from != to
                        && self.geo.can_reach(u.kind, u.loc, to)
                }
                Order::Convoy { from, to } => {
                    u.kind == UnitType::Fleet
                        && self.geo.is_sea(here)
                        && from != to
                        && self.on_some_route(here, from, to)
                }
                Order::Combine { into } => {
                    into != here
                        && u.strength <= 1
                        && self.geo.can_combine(u.kind, u.loc, into)
                        && self.unit_at(into).is_some_and(|j| {
                            let t = self.units[j];
                            t.power == u.power && t.kind == u.kind && t.strength <= 1
                        })
                }
            };
            if !legal {
                self.void[i] = true;
                self.orders[i] = Order::Hold;
            }
        }
        // Pass 1b: an army move that needs a convoy is illegal when no fleets at sea could form
        // a route at all (DATC 6.D.32); with a possible route it is a legal move that may fail.
        let fleets_at_sea: Vec<usize> = (0..n)
            .filter(|&f| {
                self.units[f].kind == UnitType::Fleet
                    && self.geo.is_sea(self.units[f].loc.province)
                    && self.unit_at(self.units[f].loc.province) == Some(f)
            })
            .collect();
        for i in 0..n {
            if let Order::Move { to, .. } = self.orders[i] {
                let u = self.units[i];
                if u.kind == UnitType::Army
                    && !self.geo.can_move(u.kind, u.loc, to)
                    && !self.chain_over(i, &fleets_at_sea)
                {
                    self.void[i] = true;
                    self.orders[i] = Order::Hold;
                }
            }
        }
        // Pass 2: supports and convoys must match what the other unit was actually ordered.
        for i in 0..n {
            let ok = match self.orders[i] {
                Order::SupportHold { target } => self
                    .unit_at(target)
                    .is_some_and(|j| !matches!(self.orders[j], Order::Move { .. })),
                Order::SupportMove { from, to, coast } => self.unit_at(from).is_some_and(|j| {
                    matches!(self.orders[j], Order::Move { to: t, .. }
                        if t.province == to && (coast.is_none() || t.coast == coast))
                        && !self.only_convoy_is_through(j, i, &fleets_at_sea)
                }),
                Order::Convoy { from, to } => self.unit_at(from).is_some_and(|j| {
                    self.units[j].kind == UnitType::Army
                        && matches!(self.orders[j], Order::Move { to: t, .. } if t.province == to)
                }),
                Order::Combine { into } => {
                    self.unit_at(into)
                        .is_some_and(|j| matches!(self.orders[j], Order::Hold))
                        && !(0..i).any(
                            |k| matches!(self.orders[k], Order::Combine { into: x } if x == into),
                        )
                }
                _ => true,
            };
            if !ok {
                self.void[i] = true;
                self.orders[i] = Order::Hold;
            }
        }
        // Pass 2b: combining units cannot be supported.
        let combining: Vec<Province> = (0..n)
            .filter_map(|i| match self.orders[i] {
                Order::Combine { into } => Some([self.origin(i), into]),
                _ => None,
            })
            .flatten()
            .collect();
        for i in 0..n {
            if let Order::SupportHold { target } = self.orders[i] {
                if combining.contains(&target) {
                    self.void[i] = true;
                    self.orders[i] = Order::Hold;
                }
            }
        }
        // Pass 3: which army moves are convoyed. A move between adjacent provinces is convoyed
        // when asked for explicitly, or when a fleet of the army's own power is ordered to convoy
        // it and a chain of convoy orders exists (the intent rule).
        for i in 0..n {
            if let Order::Move { to, via_convoy } = self.orders[i] {
                let u = self.units[i];
                if u.kind != UnitType::Army {
                    continue;
                }
                let adjacent = self.geo.can_move(u.kind, u.loc, to);
                let chain = self.static_chain(i);
                // An explicit "via convoy" with no convoy route is ignored (DATC 6.G.8).
                self.convoyed[i] = !adjacent || (chain && (via_convoy || self.own_convoy(i)));
            }
        }
    }

    /// The army `j` can reach its destination only by a convoy, and every possible route needs
    /// the fleet `f` (which is busy supporting it instead): such a support is impossible, and
    /// the DATC prefers it void (6.D.31).
    pub(super) fn only_convoy_is_through(
        &self,
        j: usize,
        f: usize,
        fleets_at_sea: &[usize],
    ) -> bool {
        let u = self.units[j];
        let Order::Move { to, .. } = self.orders[j] else {
            return false;
        };
        if u.kind != UnitType::Army || self.geo.can_move(u.kind, u.loc, to) {
            return false;
        }
        let others: Vec<usize> = fleets_at_sea.iter().copied().filter(|&g| g != f).collect();
        !self.chain_over(j, &others)
    }

    pub(super) fn coastal(&self, p: Province) -> bool {
        self.geo.is_land(p) && self.geo.is_coastal(p)
    }

    /// Seas reachable from `p` by a chain of seas that starts next to `p`.
    pub(super) fn seas_from(&self, p: Province) -> Vec<bool> {
        let mut seen = vec![false; 256];
        let mut stack: Vec<Province> = self
            .seas
            .iter()
            .copied()
            .filter(|&s| self.geo.touches(s, p))
            .collect();
        for &s in &stack {
            seen[s as usize] = true;
        }
        while let Some(s) = stack.pop() {
            for &t in &self.seas {
                if !seen[t as usize] && self.geo.touches(s, t) {
                    seen[t as usize] = true;
                    stack.push(t);
                }
            }
        }
        seen
    }

    /// A fleet in sea `p` could be part of some convoy route from `from` to `to` (otherwise its
    /// convoy order is illegal and shows no intent, DATC 6.G.7).
    pub(super) fn on_some_route(&self, p: Province, from: Province, to: Province) -> bool {
        self.seas_from(from)[p as usize] && self.seas_from(to)[p as usize]
    }

    pub(super) fn convoyers(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let from = self.origin(i);
        let to = dest(&self.orders[i]);
        (0..self.units.len()).filter(move |&f| {
            matches!(self.orders[f], Order::Convoy { from: a, to: b } if a == from && Some(b) == to)
        })
    }

    pub(super) fn own_convoy(&self, i: usize) -> bool {
        self.convoyers(i)
            .any(|f| self.units[f].power == self.units[i].power)
    }

    /// A chain of fleets ordered to convoy this move exists, ignoring dislodgements.
    pub(super) fn static_chain(&self, i: usize) -> bool {
        let fleets: Vec<usize> = self.convoyers(i).collect();
        self.chain_over(i, &fleets)
    }

    pub(super) fn chain_over(&self, i: usize, fleets: &[usize]) -> bool {
        let Some(to) = dest(&self.orders[i]) else {
            return false;
        };
        let seas: Vec<Province> = fleets.iter().map(|&f| self.units[f].loc.province).collect();
        convoy_chain(self.geo, self.origin(i), to, &seas)
    }
}
