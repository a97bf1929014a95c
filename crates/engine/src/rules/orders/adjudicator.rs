//! A map-independent movement adjudicator in the style of L. Kruijswijk's "The Math of
//! Adjudication": hold, attack, defend and prevent strengths; every decision resolved
//! recursively; dependency cycles detected by guessing both ways, with the backup rule (circular
//! movement succeeds; convoy paradoxes are broken by the Szykman rule: the convoyed armies in the
//! paradox are treated as not convoyed).
//!
//! The adjudicator only sees units, orders and a [`Geography`]; the rest of the ruleset
//! (retreats, adjustments, maps, notation) lives around it.

use serde::{Deserialize, Serialize};

/// One coast of a province with several coasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Coast {
    North,
    South,
    East,
    West,
}

impl Coast {
    /// Standard abbreviation: `NC`, `SC`, `EC`, `WC`.
    pub fn abbrev(self) -> &'static str {
        match self {
            Coast::North => "NC",
            Coast::South => "SC",
            Coast::East => "EC",
            Coast::West => "WC",
        }
    }

    /// Parses `NC`, `SC`, `EC`, `WC` (any case).
    pub fn parse(s: &str) -> Option<Coast> {
        match s.to_ascii_uppercase().as_str() {
            "NC" => Some(Coast::North),
            "SC" => Some(Coast::South),
            "EC" => Some(Coast::East),
            "WC" => Some(Coast::West),
            _ => None,
        }
    }
}

/// Index of a province in its map.
pub type Province = u8;

/// Army or fleet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum UnitType {
    Army,
    Fleet,
}

impl UnitType {
    /// `A` or `F`.
    pub fn letter(self) -> char {
        match self {
            UnitType::Army => 'A',
            UnitType::Fleet => 'F',
        }
    }
}

/// A place a unit can stand: a province, and for fleets in provinces with several coasts, a coast.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Loc {
    pub province: Province,
    pub coast: Option<Coast>,
}

impl Loc {
    /// A province without a coast.
    pub fn new(province: Province) -> Loc {
        Loc {
            province,
            coast: None,
        }
    }

    /// A named coast of a province.
    pub fn coast(province: Province, coast: Coast) -> Loc {
        Loc {
            province,
            coast: Some(coast),
        }
    }
}

/// What the adjudicator needs to know about a map.
pub trait Geography {
    /// A unit of this kind at `from` can move to `to` in one step (coast-exact for fleets).
    fn can_move(&self, kind: UnitType, from: Loc, to: Loc) -> bool;
    /// A unit of this kind at `from` can move to some location of province `to` (support reach).
    fn can_reach(&self, kind: UnitType, from: Loc, to: Province) -> bool;
    /// A unit of this kind at `from` may combine with one in `into` (house option "combine"):
    /// where it could support, unless the map says more.
    fn can_combine(&self, kind: UnitType, from: Loc, into: Province) -> bool {
        self.can_reach(kind, from, into)
    }
    /// Fleets here can convoy.
    fn is_sea(&self, p: Province) -> bool;
    /// Armies can stand here.
    fn is_land(&self, p: Province) -> bool;
    /// Armies and fleets can both stand here.
    fn is_coastal(&self, p: Province) -> bool;
    /// A fleet in `a` could move to some location of `b` (used for convoy chains).
    fn touches(&self, a: Province, b: Province) -> bool;
}

/// A unit on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Piece {
    pub power: u8,
    pub kind: UnitType,
    pub loc: Loc,
    /// 1 for an ordinary unit; 2 for a combined unit (house option "combine").
    pub strength: u8,
    /// The sea a fleet on a coast faces (house option "fleets face a sea"); `None` for armies,
    /// fleets at sea and every unit when the option is off. The adjudicator itself ignores it:
    /// the ruleset restricts the [`Geography`] it is given instead.
    pub facing: Option<Province>,
}

impl Piece {
    /// An ordinary unit (strength 1).
    pub fn new(power: u8, kind: UnitType, loc: Loc) -> Piece {
        Piece {
            power,
            kind,
            loc,
            strength: 1,
            facing: None,
        }
    }

    fn base(&self) -> u32 {
        u32::from(self.strength.max(1))
    }
}

/// A movement-phase order of one unit (the unit is implied by its position in the list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Order {
    Hold,
    /// Move; `via_convoy` asks for a convoy even between adjacent provinces.
    Move {
        to: Loc,
        via_convoy: bool,
    },
    /// Support the unit in `target` to stay where it is.
    SupportHold {
        target: Province,
    },
    /// Support the unit in `from` moving to `to` (and to `coast` there, if given).
    SupportMove {
        from: Province,
        to: Province,
        coast: Option<Coast>,
    },
    /// Convoy the army in `from` to `to`.
    Convoy {
        from: Province,
        to: Province,
    },
    /// House option "combine": merge into the unit of the same power and kind in `into`, which
    /// holds. Both defend together with strength 2 and cannot be supported; unless one of them is
    /// dislodged, the unit in `into` becomes a single unit of strength 2.
    Combine {
        into: Province,
    },
}

/// Why an order succeeded or failed, as reported to players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Outcome {
    /// The order was carried out (a hold held, a move moved, a support was given, a convoy stood).
    Ok,
    /// The move was stopped (stand-off, stronger defence, head-to-head loss).
    Bounce,
    /// The support was cut.
    Cut,
    /// The unit was dislodged (whatever its order).
    Dislodged,
    /// The order was illegal or matched no unit's actual order; the unit held.
    Void,
    /// The army had no successful convoy route.
    NoConvoy,
}

impl Outcome {
    /// The result word used by `orbis adjudicate`.
    pub fn word(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Bounce => "bounce",
            Outcome::Cut => "cut",
            Outcome::Dislodged => "dislodged",
            Outcome::Void => "void",
            Outcome::NoConvoy => "no convoy",
        }
    }
}

/// The result of a movement phase, indexed like the input units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolution {
    pub outcomes: Vec<Outcome>,
    /// The unit moved to this location.
    pub moved_to: Vec<Option<Loc>>,
    /// The unit was dislodged by a unit coming from this province, and whether that one came by
    /// convoy (a unit may then retreat to the attacker's origin).
    pub dislodged_by: Vec<Option<(Province, bool)>>,
    /// Provinces left empty by a stand-off: no retreat there.
    pub contested: Vec<Province>,
    /// The order after legality checks (illegal orders become holds).
    pub effective: Vec<Order>,
    /// The unit merged into the unit in this province (house option "combine").
    pub combined_into: Vec<Option<Province>>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Unresolved,
    Guessing,
    Resolved,
}

struct Resolver<'a, G: Geography> {
    geo: &'a G,
    /// Added to the attack and prevent strength of an army moving by convoy (house option
    /// "convoys as the source writes them": such an army "will have a power of 2").
    convoy_bonus: u32,
    units: &'a [Piece],
    orders: Vec<Order>,
    void: Vec<bool>,
    /// Move orders that go by convoy.
    convoyed: Vec<bool>,
    /// Unit index standing in each province.
    at: Vec<Option<usize>>,
    /// Move orders into each province.
    into: Vec<Vec<usize>>,
    /// Decisions: `i` is the main decision of unit `i` (move succeeds / support given / not
    /// dislodged); `n + i` is the convoy-path decision of unit `i`.
    state: Vec<State>,
    res: Vec<bool>,
    deps: Vec<usize>,
    /// The sea provinces of the map.
    seas: Vec<Province>,
}

fn dest(o: &Order) -> Option<Province> {
    match o {
        Order::Move { to, .. } => Some(to.province),
        _ => None,
    }
}

/// Adjudicates a movement phase. `orders[i]` is the order of `units[i]`; at most one unit per
/// province is expected (later duplicates are ignored).
pub fn adjudicate<G: Geography>(geo: &G, units: &[Piece], orders: &[Order]) -> Resolution {
    adjudicate_with(geo, units, orders, 0)
}

/// [`adjudicate`], with `convoy_bonus` added to the attack and prevent strength of every army
/// that moves by convoy (0 under the standard rules).
pub fn adjudicate_with<G: Geography>(
    geo: &G,
    units: &[Piece],
    orders: &[Order],
    convoy_bonus: u32,
) -> Resolution {
    let n = units.len();
    let max_p = units
        .iter()
        .map(|u| u.loc.province as usize)
        .chain(orders.iter().filter_map(|o| match o {
            Order::Move { to, .. } => Some(to.province as usize),
            Order::SupportHold { target } => Some(*target as usize),
            Order::SupportMove { from, to, .. } | Order::Convoy { from, to } => {
                Some((*from).max(*to) as usize)
            }
            Order::Combine { into } => Some(*into as usize),
            Order::Hold => None,
        }))
        .max()
        .unwrap_or(0)
        + 1;
    let mut at = vec![None; max_p];
    for (i, u) in units.iter().enumerate() {
        if at[u.loc.province as usize].is_none() {
            at[u.loc.province as usize] = Some(i);
        }
    }
    let mut r = Resolver {
        geo,
        convoy_bonus,
        units,
        orders: orders
            .iter()
            .copied()
            .chain(std::iter::repeat(Order::Hold))
            .take(n)
            .collect(),
        void: vec![false; n],
        convoyed: vec![false; n],
        at,
        into: vec![vec![]; max_p],
        state: vec![State::Unresolved; 2 * n],
        res: vec![false; 2 * n],
        deps: vec![],
        seas: (0..=u8::MAX).filter(|&p| geo.is_sea(p)).collect(),
    };
    r.check_legality();
    for i in 0..n {
        if let Some(d) = dest(&r.orders[i]) {
            r.into[d as usize].push(i);
        }
    }
    let main: Vec<bool> = (0..n).map(|i| r.resolve(i)).collect();
    let path: Vec<bool> = (0..n)
        .map(|i| match r.orders[i] {
            Order::Move { .. } => r.resolve(n + i),
            _ => true,
        })
        .collect();
    let mut moved_to = vec![None; n];
    let mut dislodged_by = vec![None; n];
    for i in 0..n {
        if let Order::Move { to, .. } = r.orders[i] {
            if main[i] {
                moved_to[i] = Some(to);
                if let Some(j) = r.at[to.province as usize] {
                    let j_moved = matches!(r.orders[j], Order::Move { .. }) && main[j];
                    if !j_moved {
                        dislodged_by[j] = Some((units[i].loc.province, r.convoyed[i]));
                    }
                }
            }
        }
    }
    let mut contested = vec![];
    for p in 0..max_p {
        let occupied = moved_to
            .iter()
            .any(|m| m.is_some_and(|l| l.province as usize == p))
            || r.at[p].is_some_and(|j| moved_to[j].is_none() && dislodged_by[j].is_none());
        if occupied || r.into[p].is_empty() {
            continue;
        }
        let standoff = r.into[p].iter().any(|&k| {
            if main[k] || !path[k] {
                return false;
            }
            // A unit that lost a head-to-head battle does not contest the winner's origin.
            match r.head_to_head(k) {
                Some(j) => !main[j],
                None => true,
            }
        });
        if standoff {
            contested.push(p as Province);
        }
    }
    let mut combined_into = vec![None; n];
    for i in 0..n {
        if let Order::Combine { into } = r.orders[i] {
            if let Some(j) = r.at[into as usize] {
                if dislodged_by[i].is_none() && dislodged_by[j].is_none() {
                    combined_into[i] = Some(into);
                }
            }
        }
    }
    let mut outcomes = vec![Outcome::Ok; n];
    for i in 0..n {
        outcomes[i] = if dislodged_by[i].is_some() {
            Outcome::Dislodged
        } else if r.void[i] {
            Outcome::Void
        } else {
            match r.orders[i] {
                Order::Move { .. } if main[i] => Outcome::Ok,
                Order::Move { .. } if !path[i] => Outcome::NoConvoy,
                Order::Move { .. } => Outcome::Bounce,
                Order::SupportHold { .. } | Order::SupportMove { .. } if !main[i] => Outcome::Cut,
                _ => Outcome::Ok,
            }
        };
    }
    Resolution {
        outcomes,
        moved_to,
        dislodged_by,
        contested,
        effective: r.orders,
        combined_into,
    }
}

/// Whether fleets standing in `seas` form a chain from `from` to `to`: a first fleet next to
/// `from`, each next fleet next to the one before, a last fleet next to `to`.
pub fn convoy_chain<G: Geography>(
    geo: &G,
    from: Province,
    to: Province,
    seas: &[Province],
) -> bool {
    let mut seen = vec![false; seas.len()];
    let mut stack: Vec<usize> = vec![];
    for (k, &p) in seas.iter().enumerate() {
        if geo.touches(p, from) {
            seen[k] = true;
            stack.push(k);
        }
    }
    while let Some(k) = stack.pop() {
        let p = seas[k];
        if geo.touches(p, to) {
            return true;
        }
        for (m, &q) in seas.iter().enumerate() {
            if !seen[m] && geo.touches(p, q) {
                seen[m] = true;
                stack.push(m);
            }
        }
    }
    false
}

impl<G: Geography> Resolver<'_, G> {
    fn unit_at(&self, p: Province) -> Option<usize> {
        self.at.get(p as usize).copied().flatten()
    }

    fn origin(&self, i: usize) -> Province {
        self.units[i].loc.province
    }

    /// The unit this move meets head to head (moving the other way, neither convoyed).
    fn head_to_head(&self, i: usize) -> Option<usize> {
        let d = dest(&self.orders[i])?;
        let j = self.unit_at(d)?;
        if self.convoyed[i] || self.convoyed[j] {
            return None;
        }
        (dest(&self.orders[j]) == Some(self.origin(i))).then_some(j)
    }

    fn resolve(&mut self, d: usize) -> bool {
        match self.state[d] {
            State::Resolved => return self.res[d],
            State::Guessing => {
                // Always recorded, even when already listed: the caller must learn that its
                // answer rests on a guess.
                self.deps.push(d);
                return self.res[d];
            }
            State::Unresolved => {}
        }
        let old = self.deps.len();
        self.res[d] = false;
        self.state[d] = State::Guessing;
        let first = self.decide(d);
        if self.deps.len() == old {
            if self.state[d] != State::Resolved {
                self.res[d] = first;
                self.state[d] = State::Resolved;
            }
            return first;
        }
        if self.deps[old] != d {
            // Part of a cycle that started elsewhere: keep the guess-based answer for now.
            self.deps.push(d);
            self.res[d] = first;
            return first;
        }
        // `d` starts a cycle: try the other guess.
        for k in old..self.deps.len() {
            let x = self.deps[k];
            self.state[x] = State::Unresolved;
        }
        self.deps.truncate(old);
        self.res[d] = true;
        self.state[d] = State::Guessing;
        let second = self.decide(d);
        if first == second {
            for k in old..self.deps.len() {
                let x = self.deps[k];
                self.state[x] = State::Unresolved;
            }
            self.deps.truncate(old);
            self.res[d] = first;
            self.state[d] = State::Resolved;
            return first;
        }
        self.backup_rule(old);
        self.resolve(d)
    }

    /// Called when both guesses give different answers: a convoy paradox or circular movement.
    fn backup_rule(&mut self, old: usize) {
        let n = self.units.len();
        let cycle: Vec<usize> = self.deps[old..].to_vec();
        self.deps.truncate(old);
        let paths: Vec<usize> = cycle.iter().copied().filter(|&x| x >= n).collect();
        for &x in &cycle {
            self.state[x] = State::Unresolved;
        }
        if !paths.is_empty() {
            // Szykman rule: the convoys in the paradox fail.
            for x in paths {
                self.res[x] = false;
                self.state[x] = State::Resolved;
            }
        } else {
            let moves: Vec<usize> = cycle
                .iter()
                .copied()
                .filter(|&x| matches!(self.orders[x], Order::Move { .. }))
                .collect();
            if moves.is_empty() {
                for x in cycle {
                    self.res[x] = false;
                    self.state[x] = State::Resolved;
                }
            } else {
                // Circular movement: every move in the circle succeeds.
                for x in moves {
                    self.res[x] = true;
                    self.state[x] = State::Resolved;
                }
            }
        }
    }

    fn decide(&mut self, d: usize) -> bool {
        let n = self.units.len();
        if d >= n {
            return self.decide_path(d - n);
        }
        let i = d;
        match self.orders[i] {
            Order::Move { to, .. } => self.decide_move(i, to.province),
            Order::SupportHold { .. } | Order::SupportMove { .. } => self.decide_support(i),
            Order::Hold | Order::Convoy { .. } | Order::Combine { .. } => !self.dislodged(i),
        }
    }

    fn path(&mut self, i: usize) -> bool {
        if self.convoyed[i] {
            let n = self.units.len();
            self.resolve(n + i)
        } else {
            true
        }
    }

    fn decide_path(&mut self, i: usize) -> bool {
        if !self.convoyed[i] {
            return true;
        }
        let candidates: Vec<usize> = self.convoyers(i).collect();
        let mut standing = vec![];
        for f in candidates {
            if self.resolve(f) {
                standing.push(f);
            }
        }
        self.chain_over(i, &standing)
    }

    /// A unit that does not move successfully is dislodged when a move into its province succeeds.
    fn dislodged(&mut self, i: usize) -> bool {
        let p = self.origin(i) as usize;
        let movers = self.into[p].clone();
        for k in movers {
            if self.resolve(k) {
                return true;
            }
        }
        false
    }

    fn decide_support(&mut self, s: usize) -> bool {
        let here = self.origin(s) as usize;
        let into_here = match self.orders[s] {
            Order::SupportMove { to, .. } => Some(to),
            _ => None,
        };
        let movers = self.into[here].clone();
        for &k in &movers {
            if self.units[k].power == self.units[s].power {
                continue;
            }
            if into_here == Some(self.origin(k)) {
                continue;
            }
            if self.path(k) {
                return false;
            }
        }
        for k in movers {
            if self.resolve(k) {
                return false;
            }
        }
        true
    }

    fn supports(&mut self, i: usize, exclude_power: Option<u8>) -> u32 {
        let from = self.origin(i);
        let Some(to) = dest(&self.orders[i]) else {
            return 0;
        };
        let mut count = 0;
        for s in 0..self.units.len() {
            if matches!(self.orders[s], Order::SupportMove { from: a, to: b, .. } if a == from && b == to)
                && Some(self.units[s].power) != exclude_power
                && self.resolve(s)
            {
                count += 1;
            }
        }
        count
    }

    fn attack_strength(&mut self, i: usize) -> u32 {
        if !self.path(i) {
            return 0;
        }
        let to = dest(&self.orders[i]).expect("attack strength of a move");
        let base = self.mover_base(i);
        let Some(j) = self.unit_at(to) else {
            return base + self.supports(i, None);
        };
        let h2h = self.head_to_head(i).is_some();
        if !h2h && matches!(self.orders[j], Order::Move { .. }) && self.resolve(j) {
            return base + self.supports(i, None);
        }
        if self.units[j].power == self.units[i].power {
            return 0;
        }
        base + self.supports(i, Some(self.units[j].power))
    }

    fn hold_strength(&mut self, p: Province) -> u32 {
        let Some(j) = self.unit_at(p) else {
            return 0;
        };
        let base = self.units[j].base();
        if matches!(self.orders[j], Order::Move { .. }) {
            return if self.resolve(j) { 0 } else { base };
        }
        if self.combining(p) {
            // The two combining units stand together and cannot be supported.
            return 2;
        }
        let mut count = base;
        for s in 0..self.units.len() {
            if matches!(self.orders[s], Order::SupportHold { target } if target == p)
                && self.resolve(s)
            {
                count += 1;
            }
        }
        count
    }

    fn defend_strength(&mut self, j: usize) -> u32 {
        self.units[j].base() + self.supports(j, None)
    }

    /// A unit in `p` is combining (either end of a combine order).
    fn combining(&self, p: Province) -> bool {
        (0..self.units.len()).any(|i| match self.orders[i] {
            Order::Combine { into } => into == p || self.origin(i) == p,
            _ => false,
        })
    }

    fn prevent_strength(&mut self, k: usize) -> u32 {
        if !self.path(k) {
            return 0;
        }
        if let Some(j) = self.head_to_head(k) {
            if self.resolve(j) {
                return 0;
            }
        }
        self.mover_base(k) + self.supports(k, None)
    }

    /// A moving unit's own strength: its base, plus the convoy bonus when it goes by convoy.
    fn mover_base(&self, i: usize) -> u32 {
        self.units[i].base()
            + if self.convoyed[i] {
                self.convoy_bonus
            } else {
                0
            }
    }

    fn decide_move(&mut self, i: usize, to: Province) -> bool {
        if !self.path(i) {
            return false;
        }
        let attack = self.attack_strength(i);
        if let Some(j) = self.head_to_head(i) {
            if attack <= self.defend_strength(j) {
                return false;
            }
        } else if attack <= self.hold_strength(to) {
            return false;
        }
        let rivals: Vec<usize> = self.into[to as usize]
            .iter()
            .copied()
            .filter(|&k| k != i)
            .collect();
        for k in rivals {
            if attack <= self.prevent_strength(k) {
                return false;
            }
        }
        true
    }
}

mod legality;
#[cfg(test)]
mod tests;
