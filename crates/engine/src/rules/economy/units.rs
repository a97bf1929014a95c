//! Units and their movement as data: a player's armies and navies in one place, the kinds of
//! unit, the movement a unit has left, and a planned move. How far units go is in
//! [`super::movement`]; plans are checked in [`super::plan`].

use super::map::RegionId;
use serde::{Deserialize, Serialize};

/// One player's units in one region.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Force {
    pub armies: u32,
    pub navies: u32,
}

impl Force {
    /// Armies and navies together.
    pub fn units(self) -> u32 {
        self.armies.saturating_add(self.navies)
    }
}

/// A whole move, in thirds.
pub const FULL: u8 = 3;

/// Which kind of unit moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    Army,
    Navy,
}

/// What movement a unit has left this round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Allowance {
    /// Thirds of the normal move left.
    pub thirds: u8,
    /// The road movement is still unused (armies only).
    pub road: bool,
}

impl Allowance {
    /// A unit that has not moved this round.
    pub const FRESH: Allowance = Allowance {
        thirds: FULL,
        road: true,
    };

    /// A unit with no movement left this round.
    pub const SPENT: Allowance = Allowance {
        thirds: 0,
        road: false,
    };

    /// True when no step at all is left.
    pub fn spent(self) -> bool {
        self.thirds == 0 && !self.road
    }
}

/// One planned non-friendly movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedMove {
    pub from: RegionId,
    /// The first non-friendly region the units enter.
    pub to: RegionId,
    pub armies: u32,
    pub navies: u32,
}

impl PlannedMove {
    pub fn force(&self) -> Force {
        Force {
            armies: self.armies,
            navies: self.navies,
        }
    }
}

impl Force {
    /// Units of `kind`.
    pub fn of(self, kind: Kind) -> u32 {
        match kind {
            Kind::Army => self.armies,
            Kind::Navy => self.navies,
        }
    }

    /// Adds `n` units of `kind`.
    pub fn add(&mut self, kind: Kind, n: u32) {
        match kind {
            Kind::Army => self.armies = self.armies.saturating_add(n),
            Kind::Navy => self.navies = self.navies.saturating_add(n),
        }
    }

    /// Takes one unit of `kind` away, if there is one.
    pub fn minus_one(&mut self, kind: Kind) {
        match kind {
            Kind::Army => self.armies = self.armies.saturating_sub(1),
            Kind::Navy => self.navies = self.navies.saturating_sub(1),
        }
    }
}
