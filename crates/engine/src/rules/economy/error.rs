//! Why an economy action was refused, in words a player understands. The state is unchanged
//! whenever one of these is returned.

use super::battlefield::Site;
use super::infra::Item;
use super::map::{EconomyMap, RegionId};
use super::phase::Phase;
use super::units::Kind;
use crate::map::ContinentId;
use crate::rules::classic::PlayerId;
use serde::{Deserialize, Serialize};
use std::fmt;

/// An advanced rule that can be switched off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rule {
    Capitals,
    Roads,
    Bases,
    Fortifications,
    Canals,
    InfluenceCards,
}

/// What applying an economy action gives: its events, or why it was refused.
pub type Events = Result<Vec<super::action::EconomyEvent>, EconomyError>;

/// Why an economy action was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EconomyError {
    /// An economy game seats 2 to 6 players.
    PlayerCount(u32),
    /// Another player picks now.
    NotYourPick(PlayerId),
    /// A country picked where a continent is asked for, or the other way round.
    WrongPick,
    CountryNotOpen(RegionId),
    ContinentNotOpen(ContinentId),
    ChooseCapital,
    /// The standard start places this many army bases.
    ChooseBases(u32),
    PlaceArmies {
        placed: u32,
        want: u32,
    },
    UnknownPlayer(PlayerId),
    UnknownRegion(RegionId),
    /// The player surrendered or was eliminated.
    NotPlaying(PlayerId),
    WrongPhase(Phase),
    /// The player already finished this phase.
    AlreadyDone,
    /// Time can be called on planning only once most players have submitted, by one of them.
    PlanningClockNotRunning,
    /// Recruiting and building wait until the upkeep is settled.
    UpkeepFirst,
    UpkeepAlreadySettled,
    /// Losses listed for a country that owes no upkeep.
    NoUpkeepThere(RegionId),
    /// A country listed twice.
    Repeated(RegionId),
    /// More units given up in a country than MU owed there.
    TooManyLosses {
        country: RegionId,
        due: u32,
    },
    /// Units given up that are not there.
    NotThere(RegionId),
    /// Upkeep cannot be paid for units not linked to the capital: they must be given up.
    Unlinked(RegionId),
    CannotAfford {
        cost: u32,
        have: u32,
    },
    NotYours(RegionId),
    /// Recruiting beyond the bases of a country one holds only by its fortifications.
    BesiegedBeyondBases(RegionId),
    NotACountry(RegionId),
    /// A navy recruited into a water territory that is not a coast of the country.
    NotACoast {
        country: RegionId,
        water: RegionId,
    },
    /// Navies recruited without a base go only into friendly or contested water.
    HostileWater(RegionId),
    /// The navy base there is blockaded.
    Blockaded {
        country: RegionId,
        water: RegionId,
    },
    ZeroUnits,
    RuleOff(Rule),
    AlreadyBuilt {
        country: RegionId,
        item: Item,
    },
    NotBuilt {
        country: RegionId,
        item: Item,
    },
    NoCanalSite(RegionId),
    CanalNeedsRoads(RegionId),
    /// Capitals are moved by building one elsewhere, never sold.
    TooManyBases(RegionId),
    CardNotHeld(RegionId),
    /// Only the initiative holder does that.
    NotInitiative(PlayerId),
    BattleUnderway,
    NoBattleThere(Site),
    NoBattle,
    NothingToDeclare,
    ActionNotPossible,
    NoChoiceToMake,
    NothingToIntercept,
    InterceptionUnderway,
    NotInBattle,
    CannotWithdrawThere(RegionId),
    CannotMoveOn {
        from: RegionId,
        to: RegionId,
    },
    NoBaseToBlockade {
        country: RegionId,
        water: RegionId,
    },
    NoNavyFree(RegionId),
    AlreadyAllies(PlayerId),
    NoCardToSteal,
    StealFirst,
    NoCardsToSteal(PlayerId),
    NotAllies(PlayerId),
    /// A territory is forfeited only to an ally whose units stand in it.
    NoAllyThere(RegionId),
    OutOfReach {
        from: RegionId,
        to: RegionId,
        kind: Kind,
    },
    PlanRepeated {
        from: RegionId,
        to: RegionId,
    },
    /// Units in contested regions take no plans: they are active in combat anyway.
    ContestedNoPlans(RegionId),
    /// A move within friendly territory is made in friendly movement, not planned.
    FriendlyNeedsNoPlan(RegionId),
    /// Friendly movement starts and ends in friendly territory that is not contested.
    NotFriendly(RegionId),
    /// Those units are in a plan, moved already, or not there.
    NotFree(RegionId),
    SameCardTwice(RegionId),
    /// Showing a card in a game whose influence cards are dealt face up.
    NothingFaceDown,
    /// That position is not a face-down card of the player's.
    NotYourSlot,
    /// The card was not laid out in that slot's deck.
    UnknownCard(RegionId),
    /// The card is known to be elsewhere already.
    DuplicateCard(RegionId),
    /// A card not among the player's known cards, while they hold face-down ones: it must be
    /// shown before it is traded or spent.
    CardNotShown(RegionId),
    /// A move picked to start where the player has no units (`move_start`).
    NoUnitsThere(RegionId),
    /// Every unit of the player's there is in a planned move already.
    AllPlanned(RegionId),
    /// The player's units there reach no region a plan may go to (only friendly ones).
    NothingToPlan(RegionId),
}

fn name(r: RegionId) -> String {
    EconomyMap::get()
        .regions
        .get(r as usize)
        .map_or_else(|| format!("region {r}"), |x| x.name.clone())
}

impl fmt::Display for EconomyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use EconomyError::*;
        match self {
            PlayerCount(n) => write!(f, "An economy game needs 2 to 6 players, not {n}."),
            NotYourPick(p) => write!(f, "It is player {}'s turn to pick.", p + 1),
            WrongPick => write!(f, "This setup asks for the other kind of pick (a country or a continent)."),
            CountryNotOpen(r) => write!(f, "{} cannot be picked: choose one of the free countries offered.", name(*r)),
            ContinentNotOpen(c) => write!(
                f,
                "{} cannot be picked: choose a continent nobody holds yet.",
                EconomyMap::get().base.continents.get(*c as usize).map_or("That continent", |x| x.name.as_str())
            ),
            ChooseCapital => write!(f, "Choose the country of your capital."),
            ChooseBases(n) => write!(f, "Choose the countries of your {n} army bases."),
            PlaceArmies { placed, want } => write!(f, "Place {want} armies, not {placed}."),
            UnknownPlayer(p) => write!(f, "There is no player number {p} in this game."),
            UnknownRegion(r) => write!(f, "There is no region number {r} on this map."),
            NotPlaying(_) => write!(f, "You are no longer in this game."),
            WrongPhase(Phase::Over) => write!(f, "The game is over."),
            WrongPhase(p) => write!(f, "You can't do that during {p}."),
            AlreadyDone => write!(f, "You have finished this phase; wait for the others."),
            PlanningClockNotRunning => write!(
                f,
                "The minute to finish plans starts once most players have submitted theirs, and \
                 only they can call time: submit your plans and wait."
            ),
            UpkeepFirst => write!(f, "Settle your upkeep first, then recruit or build."),
            UpkeepAlreadySettled => write!(f, "Your upkeep for this round is already settled."),
            NoUpkeepThere(r) => write!(f, "{} owes no upkeep this round.", name(*r)),
            Repeated(r) => write!(f, "{} is listed twice.", name(*r)),
            TooManyLosses { country, due } => write!(
                f,
                "{} owes {due} MU: give up at most {due} units there.",
                name(*country)
            ),
            NotThere(r) => write!(f, "You do not have those units in {}.", name(*r)),
            Unlinked(r) => write!(
                f,
                "{} is cut off from your capital: its upkeep cannot be paid, so give up the units it owes.",
                name(*r)
            ),
            CannotAfford { cost, have } => {
                write!(f, "That costs {cost} MU and you have {have} MU.")
            }
            NotYours(r) => write!(f, "You do not own {}.", name(*r)),
            BesiegedBeyondBases(r) => write!(
                f,
                "You no longer own {}: your units in its fortifications keep its bases, so you \
                 may recruit there only as many units as its bases allow this round.",
                name(*r)
            ),
            NotACountry(r) => write!(f, "{} is water: choose a country.", name(*r)),
            NotACoast { country, water } => {
                write!(f, "{} is not a coast of {}.", name(*water), name(*country))
            }
            HostileWater(r) => write!(
                f,
                "{} is neither friendly nor contested: navies go there only from a navy base on it.",
                name(*r)
            ),
            Blockaded { country, water } => write!(
                f,
                "The navy base of {} on {} is blockaded and recruits nothing.",
                name(*country),
                name(*water)
            ),
            ZeroUnits => write!(f, "Choose at least one unit."),
            RuleOff(rule) => write!(
                f,
                "This game is played without {}.",
                match rule {
                    Rule::Capitals => "capitals",
                    Rule::Roads => "roads",
                    Rule::Bases => "bases",
                    Rule::Fortifications => "fortifications",
                    Rule::Canals => "canals",
                    Rule::InfluenceCards => "influence cards",
                }
            ),
            AlreadyBuilt { country, item } => {
                write!(f, "{} already has {}.", name(*country), item.name())
            }
            NotBuilt { country, item } => {
                write!(f, "{} has no {} of yours.", name(*country), item.name().trim_start_matches("a ").trim_start_matches("an "))
            }
            NoCanalSite(r) => write!(f, "No canal can be built in {}.", name(*r)),
            CanalNeedsRoads(r) => write!(f, "Build roads in {} before a canal.", name(*r)),
            TooManyBases(r) => write!(f, "{} has as many bases as it can hold.", name(*r)),
            OutOfReach { from, to, kind } => write!(
                f,
                "{} cannot reach {} from {} this round.",
                match kind {
                    Kind::Army => "Armies",
                    Kind::Navy => "Navies",
                },
                name(*to),
                name(*from)
            ),
            PlanRepeated { from, to } => write!(
                f,
                "The move from {} to {} is planned twice: plan it once with all its units.",
                name(*from),
                name(*to)
            ),
            ContestedNoPlans(r) => write!(
                f,
                "Units in {} are in a fight: they take no plans, and are active in combat anyway.",
                name(*r)
            ),
            FriendlyNeedsNoPlan(r) => write!(
                f,
                "{} is friendly: move there during friendly movement, without a plan.",
                name(*r)
            ),
            NotFriendly(r) => write!(
                f,
                "{} is not friendly territory at peace: friendly movement stays within your own and your allies' territory.",
                name(*r)
            ),
            NotFree(r) => write!(
                f,
                "You do not have that many units in {} free to move: some are in plans or have moved already.",
                name(*r)
            ),
            NotInitiative(p) => write!(f, "Player {} holds initiative and decides that.", p + 1),
            BattleUnderway => write!(f, "Finish the battle under way first."),
            NoBattleThere(site) => write!(
                f,
                "There is no battle to fight {}.",
                match site {
                    Site::Region(r) => format!("in {}", name(*r)),
                    Site::Border(a, b) => format!("on the border of {} and {}", name(*a), name(*b)),
                }
            ),
            NoBattle => write!(f, "No battle is being fought: the initiative holder picks one first."),
            NothingToDeclare => write!(f, "You have nothing to declare in this battle now."),
            ActionNotPossible => write!(f, "That action is not possible in this battle now."),
            NoChoiceToMake => write!(f, "There is no choice between declared actions to make now."),
            NothingToIntercept => write!(f, "There is nothing for you to intercept now."),
            InterceptionUnderway => write!(f, "Wait until the players asked about intercepting have answered."),
            NotInBattle => write!(f, "You have no units in this battle."),
            CannotWithdrawThere(r) => write!(
                f,
                "Your units here cannot withdraw to {}: units go back where they came from, or, if they have not moved this round, to a bordering region.",
                name(*r)
            ),
            CannotMoveOn { from, to } => write!(
                f,
                "Those units cannot move on from {} to {}: only units that came with a plan or held contested ground, with movement left, move on after their battle is over.",
                name(*from),
                name(*to)
            ),
            NoBaseToBlockade { country, water } => write!(
                f,
                "There is no hostile navy base of {} on {} for you to blockade (or end a blockade of).",
                name(*country),
                name(*water)
            ),
            NoNavyFree(w) => write!(
                f,
                "You have no navy in {} free to blockade: each blockade takes one navy.",
                name(*w)
            ),
            StealFirst => write!(
                f,
                "Combat is over; a player owed an influence card is choosing whom to steal it from."
            ),
            NoCardToSteal => write!(f, "You are not owed an influence card to steal now."),
            NoCardsToSteal(q) => write!(f, "Player {} holds no influence card to steal.", q + 1),
            AlreadyAllies(q) => write!(f, "You are already allied with player {}.", q + 1),
            NotAllies(q) => write!(f, "You are not allied with player {}.", q + 1),
            NoAllyThere(r) => write!(
                f,
                "Your ally has no units in {}: a territory is forfeited only to an ally who stands in it.",
                name(*r)
            ),
            CardNotHeld(r) => write!(f, "You do not hold the {} card.", name(*r)),
            SameCardTwice(r) => write!(f, "The {} card is listed twice.", name(*r)),
            NothingFaceDown => write!(f, "This game's influence cards are dealt face up: there is nothing to show."),
            NotYourSlot => write!(f, "That is not one of your face-down influence cards."),
            UnknownCard(r) => write!(f, "The {} card was not dealt in that deck.", name(*r)),
            DuplicateCard(r) => write!(f, "The {} card is already known to be elsewhere.", name(*r)),
            CardNotShown(r) => write!(
                f,
                "You hold no face-up {} card: show your face-down influence cards before you trade or spend one.",
                name(*r)
            ),
            NoUnitsThere(r) => write!(
                f,
                "You can't start a move from {}: none of your units are there. Start from a region with your units (your colour and a count).",
                name(*r)
            ),
            AllPlanned(r) => write!(
                f,
                "Every unit of yours in {} is in a planned move already: change that move's count in the list of planned moves.",
                name(*r)
            ),
            NothingToPlan(r) => write!(
                f,
                "Your units in {} can reach only your own land: moves there are made after planning, in friendly movement, without a plan.",
                name(*r)
            ),
        }
    }
}

impl std::error::Error for EconomyError {}
