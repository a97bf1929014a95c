//! What an orders game holds (season, phase, options, units, centres, orders) and the questions
//! about it that change nothing.

use super::*;

/// Season of a game year.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Season {
    Spring,
    Fall,
}

/// What is being ordered now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Movement,
    Retreat,
    Adjustment,
    /// The game ended: a winner, or a draw (`None`).
    GameOver {
        winner: Option<PowerId>,
    },
}

/// House options from the rules source; all off by default (standard rules).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrdersOptions {
    /// A dislodged unit may not retreat into another power's home centre or owned centre.
    pub no_retreat_into_foreign_territory: bool,
    /// In Fall, two adjacent units of one power and kind may combine into one unit of strength 2
    /// (`A WAR COMBINE A LVN`: the army in Livonia becomes the combined unit). While combining
    /// they defend together with strength 2, cannot be supported, and an attack stronger than 2
    /// dislodges one and cancels the combine.
    pub combine: bool,
    /// Fleets on a coast face one sea (the source's "fleet Tunisia - Ionian sea"): they move,
    /// support and combine only along that sea, retreat only to coasts on it, and a fleet built
    /// on a coast names its sea (`F BRE B FACING MAO`). Starting fleets face the first sea they
    /// border in map order. Two fleets facing the same sea may combine (the source's
    /// `Fleet Stevastopol => combine => Fleet Ankara`).
    pub fleet_facing: bool,
    /// Convoys as source 000 writes them: a convoying fleet attacked by another power's unit
    /// holds and its convoy is aborted; an army moving by convoy has strength 2 ("will have a
    /// power of 2 (from the last convoy fleet)").
    pub source_convoys: bool,
}

/// The whole state of an orders game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrdersState {
    pub map_id: String,
    pub options: OrdersOptions,
    pub year: u16,
    pub season: Season,
    pub phase: Phase,
    /// Units on the board, sorted by province.
    pub units: Vec<Piece>,
    /// Units waiting to retreat (retreat phase only).
    pub dislodged: Vec<Dislodged>,
    /// Provinces left empty by a stand-off in the last movement phase.
    pub contested: Vec<ProvinceId>,
    pub centres: Centres,
    /// Orders submitted this phase, per power.
    pub orders: Vec<Option<Vec<Written>>>,
    pub draw: Vec<bool>,
    /// Under the house option "no retreat into foreign territory" only (else empty): who holds
    /// each province, centre or not. A power starts with its home territory and takes every
    /// province it occupies at the end of a Fall; retreats may not enter another power's.
    pub territory: BTreeMap<ProvinceId, PowerId>,
}

impl OrdersState {
    /// A new game on a built-in map (`"europe-1901"`, `"world"`) with all of its powers,
    /// Spring 1901, standard start.
    pub fn new(map_id: &str, options: OrdersOptions) -> Result<Self, OrdersError> {
        let map = OrdersMap::get(map_id).ok_or_else(|| OrdersError::UnknownMap(map_id.into()))?;
        Self::new_for(map_id, options, map.powers.len() as u8)
    }

    /// A new game for a number of players: the map's setup for that number says which powers
    /// play; the home centres of the others stay neutral.
    pub fn new_for(map_id: &str, options: OrdersOptions, players: u8) -> Result<Self, OrdersError> {
        let map = OrdersMap::get(map_id).ok_or_else(|| OrdersError::UnknownMap(map_id.into()))?;
        let playing = map
            .powers_for(players)
            .ok_or(OrdersError::PlayerCount(players))?;
        let mut units = vec![];
        let mut centres = Centres::new();
        let mut territory = BTreeMap::new();
        for &i in &playing {
            let p = &map.powers[i as usize];
            for &(kind, loc) in &p.start {
                let mut u = Piece::new(i, kind, loc);
                if options.fleet_facing && kind == UnitType::Fleet {
                    u.facing = map.default_facing(loc);
                }
                units.push(u);
            }
            for h in map.homes(i) {
                centres.insert(h, i);
            }
            if options.no_retreat_into_foreign_territory {
                territory.extend(map.home_territory(i).map(|h| (h, i)));
            }
        }
        sort_units(&mut units);
        Ok(OrdersState {
            map_id: map_id.into(),
            options,
            year: 1901,
            season: Season::Spring,
            phase: Phase::Movement,
            units,
            dislodged: vec![],
            contested: vec![],
            centres,
            orders: vec![None; map.powers.len()],
            draw: vec![false; map.powers.len()],
            territory,
        })
    }

    /// The game's map.
    pub fn map(&self) -> &'static OrdersMap {
        OrdersMap::get(&self.map_id).expect("the state was created on a built-in map")
    }

    /// Supply centres owned by a power.
    pub fn centre_count(&self, power: PowerId) -> usize {
        self.centres.values().filter(|&&p| p == power).count()
    }

    /// Whether a retreat of `power` may not enter `p` under the house option: it is another
    /// power's territory and that power still has units (source 000: "if Russian units are all
    /// completely destroyed, then that provinces are no longer occupied").
    pub fn closed_to_retreat(&self, power: PowerId, p: ProvinceId) -> bool {
        self.options.no_retreat_into_foreign_territory
            && self.territory.get(&p).is_some_and(|&o| {
                o != power
                    && (self.units.iter().any(|u| u.power == o)
                        || self.dislodged.iter().any(|d| d.piece.power == o))
            })
    }

    /// Where a dislodged unit of this retreat phase may go (before other retreats are known):
    /// empty, not the attacker's origin, not left empty by a stand-off, not closed by the house
    /// option.
    pub fn retreat_choices(&self, d: &Dislodged) -> Vec<Loc> {
        let closed = |power: PowerId, p: ProvinceId| self.closed_to_retreat(power, p);
        retreat_options(self.map(), d, &self.units, &self.contested, &closed)
    }

    /// The territory a game saved before it was tracked most likely has: with the house option,
    /// the home territory of every power still in the game, then every owned centre.
    pub fn legacy_territory(&self) -> BTreeMap<ProvinceId, PowerId> {
        let mut out = BTreeMap::new();
        if !self.options.no_retreat_into_foreign_territory {
            return out;
        }
        let Some(map) = OrdersMap::get(&self.map_id) else {
            return out; // a damaged save: `check_consistency` names the problem
        };
        for p in 0..map.powers.len() as PowerId {
            if self.alive(p) {
                out.extend(map.home_territory(p).map(|h| (h, p)));
            }
        }
        out.extend(self.centres.iter().map(|(&c, &p)| (c, p)));
        out
    }

    /// A power still has units or centres.
    pub fn alive(&self, power: PowerId) -> bool {
        self.centre_count(power) > 0 || self.units.iter().any(|u| u.power == power)
    }

    /// Builds (positive) or disbands (negative) a power is due in the adjustment phase; builds
    /// only as many as it has free owned home centres.
    pub fn adjustment(&self, power: PowerId) -> i32 {
        let map = self.map();
        let units = self.units.iter().filter(|u| u.power == power).count() as i32;
        let centres = self.centre_count(power) as i32;
        if centres >= units {
            let free = map
                .homes(power)
                .filter(|h| {
                    self.centres.get(h) == Some(&power)
                        && !self.units.iter().any(|u| u.loc.province == *h)
                })
                .count() as i32;
            (centres - units).min(free)
        } else {
            centres - units
        }
    }

    /// Powers that have something to order in the current phase and have not submitted yet
    /// (hot-seat: whose turn it is to write orders).
    pub fn waiting_for(&self) -> Vec<PowerId> {
        let n = self.map().powers.len() as PowerId;
        (0..n)
            .filter(|&p| self.orders[p as usize].is_none())
            .filter(|&p| match self.phase {
                Phase::Movement => self.units.iter().any(|u| u.power == p),
                Phase::Retreat => self.dislodged.iter().any(|d| d.piece.power == p),
                Phase::Adjustment => self.adjustment(p) != 0,
                Phase::GameOver { .. } => false,
            })
            .collect()
    }
}
