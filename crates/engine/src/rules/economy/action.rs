//! What players do in an economy game ([`EconomyAction`]) and what the engine reports back
//! ([`EconomyEvent`]). Every action names the player taking it: most phases are played by
//! everyone at once, so the engine cannot infer who acts from whose turn it is.

use super::battlefield::{BattleAction, Foe, Retreat, Site};
use super::infra::Item;
use super::map::RegionId;
use super::phase::Income;
use super::roll::{Loser, Term};
use super::units::{Force, Kind, PlannedMove};
use crate::map::ContinentId;
use crate::rules::classic::{PlayerId, Slot};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// An action of the economy ruleset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EconomyAction {
    /// A choice while the game is set up.
    Setup {
        player: PlayerId,
        choice: SetupAction,
    },
    /// Pays this round's upkeep. `losses` lists, per country owed, the units given up instead of
    /// paying (one unit per MU not paid); every other MU owed is paid.
    SettleUpkeep {
        player: PlayerId,
        losses: Vec<(RegionId, Force)>,
    },
    /// Recruits `count` units in `country`: armies there, or navies into `navy_into`, one of
    /// its coasts.
    Recruit {
        player: PlayerId,
        country: RegionId,
        navy_into: Option<RegionId>,
        count: u32,
    },
    Build {
        player: PlayerId,
        country: RegionId,
        item: Item,
    },
    /// Destroys one's own infrastructure for half its price.
    Destroy {
        player: PlayerId,
        country: RegionId,
        item: Item,
    },
    /// Turns in three influence cards for 50 MU.
    TradeCards {
        player: PlayerId,
        cards: [RegionId; 3],
    },
    /// Done with the Get phase for this round.
    FinishGet { player: PlayerId },
    /// The round's plans of non-friendly movement, final once submitted.
    SubmitPlans {
        player: PlayerId,
        moves: Vec<PlannedMove>,
    },
    /// "Once a majority of the players have finished the planning phase, the remaining players
    /// will have one minute to complete their plans": the minute is up. The clock runs outside
    /// the engine (the screen, or the peers); a player who has submitted calls time, and those
    /// still planning move nothing this round.
    ClosePlanning { player: PlayerId },
    /// Moves units not in a plan within friendly territory.
    MoveFriendly {
        player: PlayerId,
        from: RegionId,
        to: RegionId,
        force: Force,
    },
    /// Done with friendly movement for this round.
    FinishMoving { player: PlayerId },
    /// The initiative holder picks the next battle.
    PickBattle { player: PlayerId, site: Site },
    /// An action in the battle under way, or `None` to declare none.
    Declare {
        player: PlayerId,
        action: Option<BattleAction>,
    },
    /// The initiative holder picks whose declared action resolves first.
    ChooseAction { player: PlayerId, actor: PlayerId },
    /// A standing order to withdraw from the battle under way (or `None` to cancel it).
    SetRetreat {
        player: PlayerId,
        retreat: Option<Retreat>,
    },
    /// Whether to intercept the withdraw or attack on infrastructure under way.
    Intercept { player: PlayerId, yes: bool },
    /// Offers `with` an alliance, or accepts the one they offered.
    OfferAlliance { player: PlayerId, with: PlayerId },
    /// Ends the alliance with `with`, or withdraws an offer.
    BreakAlliance { player: PlayerId, with: PlayerId },
    /// Gives `region` to the ally `to`, whose units stand there.
    Forfeit {
        player: PlayerId,
        region: RegionId,
        to: PlayerId,
    },
    /// Steals a random influence card from `from` (owed a card, with none left to draw).
    StealCard { player: PlayerId, from: PlayerId },
    /// Leaves the game: armies become neutral.
    Surrender { player: PlayerId },
    /// A navy in `water` blockades the navy base of `country` on it.
    Blockade {
        player: PlayerId,
        country: RegionId,
        water: RegionId,
    },
    EndBlockade {
        player: PlayerId,
        country: RegionId,
        water: RegionId,
    },
    /// Moves active units with movement left on from a region whose battle is over.
    MoveOn {
        player: PlayerId,
        from: RegionId,
        to: RegionId,
        force: Force,
    },
    /// Done moving units on after battles this round.
    StopMoving { player: PlayerId },
    /// Turns in the influence card of `country` to incite a revolution there: two armies of the
    /// player appear, and each takes one risk-free roll against `target`'s armies.
    IncitRevolution {
        player: PlayerId,
        country: RegionId,
        target: Option<Foe>,
    },
    /// The holder shows one of its face-down influence cards (a game dealt face down): the card
    /// at `slot` is `card`. The protocol admits it only with the proof of that, so the engine takes
    /// its word. Allowed in any phase, whoever's move it is: it is no move of the player's and
    /// changes nothing but what is known.
    ShowCard {
        player: PlayerId,
        slot: Slot,
        card: RegionId,
    },
}

impl EconomyAction {
    /// The player taking the action.
    pub fn player(&self) -> PlayerId {
        use EconomyAction::*;
        match *self {
            Setup { player, .. }
            | SettleUpkeep { player, .. }
            | Recruit { player, .. }
            | Build { player, .. }
            | Destroy { player, .. }
            | TradeCards { player, .. }
            | FinishGet { player }
            | SubmitPlans { player, .. }
            | ClosePlanning { player }
            | MoveFriendly { player, .. }
            | FinishMoving { player }
            | PickBattle { player, .. }
            | Declare { player, .. }
            | ChooseAction { player, .. }
            | SetRetreat { player, .. }
            | Intercept { player, .. }
            | MoveOn { player, .. }
            | StopMoving { player }
            | OfferAlliance { player, .. }
            | BreakAlliance { player, .. }
            | Forfeit { player, .. }
            | Surrender { player }
            | StealCard { player, .. }
            | Blockade { player, .. }
            | EndBlockade { player, .. }
            | IncitRevolution { player, .. }
            | ShowCard { player, .. } => player,
        }
    }
}

/// Something that happened in an economy game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EconomyEvent {
    /// The roll for initiative: each roll-off's dice, and who won.
    InitiativeRolled {
        rolls: Vec<Vec<(PlayerId, u8)>>,
        holder: PlayerId,
    },
    CountryPicked {
        player: PlayerId,
        country: RegionId,
    },
    ContinentPicked {
        player: PlayerId,
        continent: ContinentId,
    },
    /// The picks are over: every player places their standard start.
    PlacingBegan,
    Placed {
        player: PlayerId,
    },
    /// A round began with its Get phase.
    RoundBegan {
        round: u32,
    },
    /// A player gained a region that now holds only their units.
    Gained {
        player: PlayerId,
        region: RegionId,
    },
    Income {
        player: PlayerId,
        income: Income,
    },
    /// Upkeep owed this round (before it is settled).
    UpkeepDue {
        player: PlayerId,
        due: u32,
    },
    UpkeepSettled {
        player: PlayerId,
        paid: u32,
        lost: Vec<(RegionId, Force)>,
    },
    Recruited {
        player: PlayerId,
        /// Where the units stand: the country, or the water territory for navies.
        region: RegionId,
        navies: bool,
        count: u32,
        cost: u32,
    },
    Built {
        player: PlayerId,
        country: RegionId,
        item: Item,
    },
    Destroyed {
        player: PlayerId,
        country: RegionId,
        item: Item,
        refund: u32,
    },
    CardsTraded {
        player: PlayerId,
        cards: [RegionId; 3],
        mu: u32,
    },
    GetFinished {
        player: PlayerId,
    },
    /// Everyone finished the Get phase: plans are written now.
    PlanningBegan,
    /// A player's plans are in (how many moves; what they are stays secret until all are in).
    PlansSubmitted {
        player: PlayerId,
        count: u32,
    },
    /// Planning time ran out: `late` players' plans are empty.
    PlanningClosed {
        late: Vec<PlayerId>,
    },
    /// Everyone's plans, shown once all are in; friendly movement begins.
    PlansRevealed {
        plans: BTreeMap<PlayerId, Vec<PlannedMove>>,
    },
    MovedFriendly {
        player: PlayerId,
        from: RegionId,
        to: RegionId,
        force: Force,
    },
    MovingFinished {
        player: PlayerId,
    },
    CombatBegan,
    /// The revolution step: a player without a capital rolls for a country they own.
    RevolutionRoll {
        player: PlayerId,
        country: RegionId,
        die: u8,
    },
    /// A roll of revolutionary units against a player's army.
    RebelRoll {
        country: RegionId,
        against: PlayerId,
        dice: (u8, u8),
        rebels_lost: bool,
        lost: bool,
    },
    /// A revolution ended; its survivors are neutral.
    Revolution {
        country: RegionId,
        neutral: u32,
    },
    OnBorder {
        player: PlayerId,
        from: RegionId,
        to: RegionId,
        force: Force,
    },
    Arrived {
        player: PlayerId,
        from: RegionId,
        to: RegionId,
        force: Force,
    },
    BattleTokens {
        sites: Vec<Site>,
    },
    /// Armies in water without enough navies died.
    Sunk {
        player: PlayerId,
        region: RegionId,
        armies: u32,
    },
    BattlePicked {
        site: Site,
    },
    Declared {
        player: PlayerId,
        action: Option<BattleAction>,
    },
    ActionChosen {
        actor: PlayerId,
    },
    BattleRoll {
        attacker: PlayerId,
        target: Foe,
        kind: Kind,
        /// The attacker's die and the target's.
        dice: (u8, u8),
        /// The totals with modifiers.
        totals: (i32, i32),
        /// The modifiers of each side, one by one.
        terms: (Vec<Term>, Vec<Term>),
        loser: Loser,
    },
    BattleClosed {
        site: Site,
        victories: Vec<PlayerId>,
        losses: Vec<PlayerId>,
    },
    OwnershipLost {
        player: PlayerId,
        region: RegionId,
    },
    CardDrawn {
        player: PlayerId,
        card: RegionId,
    },
    /// Nothing left to draw: a card taken at random from the hand of a player of one's choice.
    CardStolen {
        player: PlayerId,
        from: PlayerId,
        card: RegionId,
    },
    /// A capital was taken: its money and influence cards go to the taker (`cards` counts the
    /// face-down ones too, which [`EconomyEvent::SlotsTaken`] then lists).
    CapitalTaken {
        player: PlayerId,
        from: PlayerId,
        country: RegionId,
        mu: u32,
        cards: u32,
    },
    /// A withdraw toward `to`; with `stay` the survivors will stay, with `break_off` the rest
    /// stay once that many have died.
    WithdrawDeclared {
        player: PlayerId,
        force: Force,
        to: RegionId,
        stay: bool,
        break_off: Option<u32>,
    },
    InterceptAnswered {
        player: PlayerId,
        yes: bool,
    },
    /// A withdrawing unit against an interceptor; the withdrawing player's die first.
    InterceptRoll {
        player: PlayerId,
        interceptor: PlayerId,
        kind: Kind,
        dice: (u8, u8),
        loser: Loser,
        /// The interceptor's unit died: it lost the roll, and the action could cost it one (a
        /// landing without engaged navies cannot).
        interceptor_lost: bool,
    },
    /// The withdraw is over: units that got away (to `to`, unless they stayed), units lost, and
    /// units that stayed without facing interception because it was broken off.
    Withdrew {
        player: PlayerId,
        to: RegionId,
        away: Force,
        lost: Force,
        stayed: bool,
        broken_off: Force,
    },
    AllianceOffered {
        from: PlayerId,
        to: PlayerId,
    },
    AllianceOfferWithdrawn {
        from: PlayerId,
        to: PlayerId,
    },
    AllianceMade {
        a: PlayerId,
        b: PlayerId,
    },
    AllianceBroken {
        by: PlayerId,
        with: PlayerId,
    },
    Forfeited {
        player: PlayerId,
        region: RegionId,
        to: PlayerId,
    },
    /// Neutral armies at sea beyond the neutral navies there drowned.
    NeutralSunk {
        region: RegionId,
        armies: u32,
    },
    /// A player left the game: their units became neutral.
    Surrendered {
        player: PlayerId,
    },
    BlockadeSet {
        player: PlayerId,
        country: RegionId,
        water: RegionId,
    },
    BlockadeEnded {
        player: PlayerId,
        country: RegionId,
        water: RegionId,
    },
    LandingDeclared {
        player: PlayerId,
        armies: u32,
        to: RegionId,
        navies_engaged: bool,
    },
    /// A landing is over: armies ashore, units lost.
    Landed {
        player: PlayerId,
        to: RegionId,
        ashore: u32,
        lost: Force,
    },
    InfrastructureAttackDeclared {
        player: PlayerId,
        item: Item,
    },
    /// The roll against infrastructure (none for one's own, destroyed outright).
    InfrastructureRoll {
        player: PlayerId,
        item: Item,
        die: Option<u8>,
        destroyed: bool,
    },
    SiegeLaid {
        player: PlayerId,
        target: PlayerId,
        region: RegionId,
    },
    SiegeEnded {
        player: PlayerId,
        target: PlayerId,
        region: RegionId,
    },
    MovedOn {
        player: PlayerId,
        from: RegionId,
        to: RegionId,
        force: Force,
    },
    StoppedMoving {
        player: PlayerId,
    },
    RevolutionIncited {
        player: PlayerId,
        country: RegionId,
    },
    /// A revolutionary unit's surprise roll: it risks nothing; `hit` when the target lost a unit.
    IncitedRoll {
        player: PlayerId,
        country: RegionId,
        target: Foe,
        dice: (u8, u8),
        hit: bool,
    },
    /// Withdrawing armies rolled to destroy the roads of the country they left.
    RoadsBurned {
        player: PlayerId,
        country: RegionId,
        dice: Vec<u8>,
        destroyed: bool,
    },
    RetreatSet {
        player: PlayerId,
        retreat: Option<Retreat>,
    },
    CombatEnded,
    /// A player has neither units nor territory left.
    Eliminated {
        player: PlayerId,
    },
    GameOver {
        winner: Option<PlayerId>,
    },
    /// A battle's winner took initiative from its holder.
    InitiativePassed {
        player: PlayerId,
    },
    /// An action declared after a roll ended `attacker`'s attack under way.
    AttackInterrupted {
        attacker: PlayerId,
        by: PlayerId,
    },
    /// A game dealt face down: `player` drew the card at `slot`, which only they can read (the
    /// face-up game reports [`EconomyEvent::CardDrawn`]).
    SlotDrawn {
        player: PlayerId,
        slot: Slot,
    },
    /// A game dealt face down: the last deck was used up, and the discards, `cards` in ascending
    /// order, were laid out as deck number `deck` to be shuffled and dealt.
    InfluenceReshuffled {
        deck: u8,
        cards: Vec<RegionId>,
    },
    /// A game dealt face down: the random card stolen from `from` was a face-down one.
    SlotStolen {
        player: PlayerId,
        from: PlayerId,
        slot: Slot,
    },
    /// A game dealt face down: with a capital, `player` took these face-down cards of `from`
    /// (follows [`EconomyEvent::CapitalTaken`], whose count includes them).
    SlotsTaken {
        player: PlayerId,
        from: PlayerId,
        slots: Vec<Slot>,
    },
    /// `player` showed that the face-down card at `slot` is `card`.
    CardShown {
        player: PlayerId,
        slot: Slot,
        card: RegionId,
    },
}

/// What players choose while the game is set up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SetupAction {
    /// A country: a European capital, or the next country of the draft.
    Country(RegionId),
    Continent(ContinentId),
    /// The standard start: the capital (with the capitals rule), two army bases (with the bases
    /// rule) and 20 armies, all in the player's own countries.
    Place {
        capital: Option<RegionId>,
        bases: Vec<RegionId>,
        armies: Vec<(RegionId, u32)>,
    },
}
