//! What a combat phase holds, as data: battle sites, units that arrived or stand on borders,
//! victories and losses, the battle under way with its declarations, standing orders to withdraw
//! and a withdraw waiting for interceptors. The rules that change them are in [`super::combat`],
//! [`super::battle`] and [`super::withdraw`].

use super::infra::Item;
use super::map::RegionId;
use super::units::{Allowance, Force, Kind};
use crate::rules::classic::PlayerId;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Where a battle is fought.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Site {
    Region(RegionId),
    /// The border between two regions (the lower id first), where hostile units crossing it in
    /// opposite directions meet.
    Border(RegionId, RegionId),
}

impl Site {
    /// The border between `a` and `b`.
    pub fn border(a: RegionId, b: RegionId) -> Site {
        Site::Border(a.min(b), a.max(b))
    }
}

/// Units that entered a region during this combat phase: they are not its defenders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arrival {
    pub player: PlayerId,
    pub region: RegionId,
    pub from: RegionId,
    pub force: Force,
    /// Movement left after arriving.
    pub left: Allowance,
    /// Armies that came ashore from water: amphibious units (−1).
    pub amphibious: bool,
    /// They got here by withdrawing: they have crossed their last border this round.
    pub withdrawn: bool,
}

/// Units standing on a border, in a border battle, on their way from `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    pub player: PlayerId,
    pub from: RegionId,
    pub to: RegionId,
    pub force: Force,
    pub left: Allowance,
}

/// Victories and losses in this round's battles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub victories: u32,
    pub losses: u32,
}

/// The state of a combat phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combat {
    /// Who holds initiative.
    pub holder: PlayerId,
    pub tokens: BTreeSet<Site>,
    pub border: Vec<Group>,
    pub arrivals: Vec<Arrival>,
    /// The battle being fought, if the holder has picked one.
    pub battle: Option<Battle>,
    pub record: BTreeMap<PlayerId, Record>,
    /// Sieges that stood at some point this round: (region, besieger, besieged).
    pub sieged: BTreeSet<(RegionId, PlayerId, PlayerId)>,
    /// Regions contested when combat began: the units holding them are active.
    pub contested_at_start: BTreeSet<RegionId>,
    /// Players who have stopped moving units on after battles this round.
    pub onward_done: BTreeSet<PlayerId>,
    /// The round's influence cards have been handed out.
    pub cards_dealt: bool,
    /// Players owed a card with none left to draw, who choose whom to steal from, in turn.
    pub steals: Vec<PlayerId>,
    /// Who fought whom in a country before its battle was picked (an incited revolution's
    /// surprise rolls): they count for that battle only.
    pub fought_before: BTreeMap<RegionId, BTreeSet<(PlayerId, Foe)>>,
}

/// Whom a unit fights: a player, or the neutral units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Foe {
    Player(PlayerId),
    Neutral,
}

/// An action declared in a battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BattleAction {
    /// Attack `target`'s units of `kind` with one's own of that kind.
    Attack { target: Foe, kind: Kind },
    /// Withdraw (see [`super::withdraw`]).
    Withdraw(WithdrawOrder),
    /// An army attacks a piece of infrastructure here (see [`super::sabotage`]).
    AttackInfrastructure { item: Item },
    /// Besiege `target`'s defenders in fortifications (see [`super::siege`]).
    Siege { target: PlayerId },
    /// Land `armies` from this water onto `to` (see [`super::landing`]).
    Land {
        armies: u32,
        to: RegionId,
        navies_engaged: bool,
    },
}

/// A battle being fought.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battle {
    pub site: Site,
    /// This round of declarations: each player's action, or `None` for none.
    pub declared: BTreeMap<PlayerId, Option<BattleAction>>,
    /// Who fought whom here, for victories and losses.
    pub fought: BTreeSet<(PlayerId, Foe)>,
    /// Players who withdrew after fighting here: the battle is their loss.
    pub withdrew: BTreeSet<PlayerId>,
    /// Players who have attacked in this battle (besieged units must, before withdrawing).
    pub attacked: BTreeSet<PlayerId>,
    /// Standing orders to withdraw.
    pub retreats: BTreeMap<PlayerId, Retreat>,
    /// Players whose units withdrew and stayed here: they may not do so again in this battle
    /// (so a battle always moves on).
    pub stayed: BTreeSet<PlayerId>,
    /// A withdraw waiting for the interceptors' answers.
    pub pending: Option<Pending>,
    /// The attack under way, fought one roll at a time: after each roll the players are asked
    /// whether to declare (a defender's attack interrupts it, anyone may withdraw); when all
    /// pass, it rolls again.
    pub assault: Option<Assault>,
}

/// An attack under way: `attacker`'s units of `kind` against `target`'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assault {
    pub attacker: PlayerId,
    pub target: Foe,
    pub kind: Kind,
}

impl Battle {
    pub fn new(site: Site) -> Battle {
        Battle {
            site,
            declared: BTreeMap::new(),
            fought: BTreeSet::new(),
            withdrew: BTreeSet::new(),
            attacked: BTreeSet::new(),
            retreats: BTreeMap::new(),
            stayed: BTreeSet::new(),
            pending: None,
            assault: None,
        }
    }
}

/// Which of a player's units in a battle: they differ in their modifiers and records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Unit {
    /// From this arrival (index into the combat's arrivals).
    Arrival(usize),
    /// Moved in during friendly movement.
    Moved,
    /// There since the planning phase.
    Defender,
    /// From this group on a border (index into the combat's border groups).
    Group(usize),
}

/// A standing order: withdraw to `to` once one's units in the battle are `at` or fewer; with
/// `stay`, the units that survive the interception stay (the attack is over all the same).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Retreat {
    pub at: u32,
    pub to: RegionId,
    pub stay: bool,
}

/// A withdraw of `force` toward `to`: units that came from `to` go first, then defenders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WithdrawOrder {
    pub force: Force,
    pub to: RegionId,
    /// The armies that get away roll to destroy the roads of the country they leave.
    pub burn_roads: bool,
    /// "At the end of the withdraw the units that withdrew may also choose to stay in the
    /// territory": the survivors stay where they are, and the action is over.
    pub stay: bool,
    /// "The player that declared the withdraw can also break it off at any time": once this many
    /// of the withdrawing units have died, the rest stay and face no more interception.
    pub break_off: Option<u32>,
}

impl WithdrawOrder {
    /// A plain withdraw: everyone goes, no roads burnt.
    pub fn to(to: RegionId, force: Force) -> WithdrawOrder {
        WithdrawOrder {
            force,
            to,
            burn_roads: false,
            stay: false,
            break_off: None,
        }
    }
}

/// An action that hostile players may intercept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Intercepted {
    Withdraw(WithdrawOrder),
    /// An army attacks a piece of infrastructure.
    Infrastructure {
        item: Item,
    },
    /// Armies land from water onto `to`, their navies engaged or not.
    Landing {
        armies: u32,
        to: RegionId,
        navies_engaged: bool,
    },
}

/// An action waiting for the hostile players to say whether they intercept it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub player: PlayerId,
    pub what: Intercepted,
    /// Each possible interceptor's answer so far.
    pub answers: BTreeMap<PlayerId, bool>,
}

impl Pending {
    /// `player`'s `what`; nobody has answered yet.
    pub fn new(player: PlayerId, what: Intercepted) -> Pending {
        Pending {
            player,
            what,
            answers: BTreeMap::new(),
        }
    }

    /// The units that can be intercepted: the withdrawing ones, or the one attacking army.
    pub fn units(&self) -> Force {
        match self.what {
            Intercepted::Withdraw(w) => w.force,
            Intercepted::Infrastructure { .. } => Force {
                armies: 1,
                navies: 0,
            },
            // Only navies intercept a landing.
            Intercepted::Landing { .. } => Force {
                armies: 0,
                navies: 1,
            },
        }
    }
}
