//! What players do ([`Action`]), what the engine reports ([`Event`]) and why it refuses
//! ([`ClassicError`], [`SetupError`]), each error worded for the player.

use super::*;

/// Everything a player can do. (`bincode::Decode`: a replay reads a save's actions with
/// `codec::decode_lean`, the same bytes as serde's encoding, without serde's decoding.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, bincode::Decode)]
pub enum Action {
    /// Setup, chosen territories: take an unclaimed territory.
    Claim { territory: TerritoryId },
    /// Setup: one army at a time. Reinforcement: any number up to what is left.
    Place { territory: TerritoryId, armies: u32 },
    /// Trade a set of three cards. The first card (in the order given) that shows a territory
    /// you own receives the +2 bonus, once per turn.
    Trade { cards: [CardId; 3] },
    /// One roll with `dice` attacking dice.
    Attack {
        from: TerritoryId,
        to: TerritoryId,
        dice: u8,
    },
    /// Roll with the most dice until the territory falls, or the attacking territory is down to
    /// `stop_at` armies (at least 1).
    Blitz {
        from: TerritoryId,
        to: TerritoryId,
        stop_at: u32,
    },
    /// After a conquest: the conquered territory ends up holding `armies` armies in total.
    Occupy { armies: u32 },
    /// Stop attacking and go to fortification.
    EndAttack,
    /// Move armies between your territories as the fortify rule allows.
    Fortify {
        from: TerritoryId,
        to: TerritoryId,
        armies: u32,
    },
    /// End the turn (from the attack or fortify phase).
    EndTurn,
    /// Change a player's standing choice of defence dice (any time, by that player).
    SetDefence { player: PlayerId, pref: DefendPref },
    /// The owner of a territory asks to defend it with one die (or withdraws the request),
    /// whatever their standing choice; any time, by that player.
    SetTerritoryDefence { territory: TerritoryId, one: bool },
    /// Face-down game: show the card (or mission) behind one of your slots to everyone, to
    /// trade it or to claim the mission. For a mission, `card` is its index in the deal's
    /// mission deck.
    Show { slot: Slot, card: CardId },
}

/// How a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WinReason {
    Domination,
    Mission(Mission),
    LastStanding,
}

/// What happened, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    Claimed {
        player: PlayerId,
        territory: TerritoryId,
    },
    Placed {
        player: PlayerId,
        territory: TerritoryId,
        armies: u32,
    },
    SetupDone {
        first: PlayerId,
    },
    TurnStarted {
        player: PlayerId,
        turn: u32,
        territories: u32,
        continents: u32,
    },
    Traded {
        player: PlayerId,
        cards: [CardId; 3],
        armies: u32,
        /// Territories that received +2 (at most one unless the bonus is per card).
        bonus: Vec<TerritoryId>,
    },
    Rolled {
        from: TerritoryId,
        to: TerritoryId,
        attack: Vec<u8>,
        defence: Vec<u8>,
        attacker_lost: u32,
        defender_lost: u32,
    },
    Conquered {
        player: PlayerId,
        from: TerritoryId,
        to: TerritoryId,
        loser: Owner,
        moved: u32,
    },
    Occupied {
        from: TerritoryId,
        to: TerritoryId,
        armies: u32,
    },
    Eliminated {
        player: PlayerId,
        by: PlayerId,
        cards: u32,
    },
    AttackEnded {
        player: PlayerId,
    },
    Fortified {
        from: TerritoryId,
        to: TerritoryId,
        armies: u32,
    },
    CardDrawn {
        player: PlayerId,
    },
    DefenceSet {
        player: PlayerId,
        pref: DefendPref,
    },
    TerritoryDefenceSet {
        player: PlayerId,
        territory: TerritoryId,
        one: bool,
    },
    Won {
        player: PlayerId,
        reason: WinReason,
    },
    /// Face-down game: `player` drew the card at `slot` (only they can read it).
    CardDealt {
        player: PlayerId,
        slot: Slot,
    },
    /// Face-down game: the deck ran out and the discards, `cards`, are dealt again as `deck`.
    Reshuffled {
        deck: u8,
        cards: Vec<CardId>,
    },
    CardShown {
        player: PlayerId,
        slot: Slot,
        card: CardId,
    },
    MissionShown {
        player: PlayerId,
        mission: Mission,
    },
    /// Face-down game: the conqueror takes these slots from the eliminated player's hand.
    SlotsTaken {
        from: PlayerId,
        to: PlayerId,
        slots: Vec<Slot>,
    },
}

/// An illegal action, with a message a player understands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClassicError {
    GameOver,
    WrongPhase {
        action: String,
        phase: String,
    },
    UnknownTerritory(TerritoryId),
    UnknownPlayer(PlayerId),
    NotYours(String),
    AlreadyClaimed(String),
    OnlyOneSetupArmy,
    ZeroArmies,
    NotEnoughToPlace {
        requested: u32,
        left: u32,
    },
    MustTrade {
        cards: u32,
    },
    UnknownCard(CardId),
    CardNotInHand(CardId),
    DuplicateCard(CardId),
    NotASet,
    NotAdjacent {
        from: String,
        to: String,
    },
    OwnTerritory(String),
    NeedTwoArmies(String),
    BadDice {
        dice: u8,
        max: u8,
    },
    BlitzThreshold {
        armies: u32,
        stop_at: u32,
    },
    OccupyRange {
        min: u32,
        max: u32,
        requested: u32,
    },
    SameTerritory,
    NotConnected {
        from: String,
        to: String,
    },
    TooManyToMove {
        territory: String,
        requested: u32,
        movable: u32,
    },
    OneSourceOnly {
        source: String,
    },
    FortifyUsed,
    /// Show: the game's cards are dealt face up.
    NothingFaceDown,
    /// Show: that position is not a face-down card of yours.
    NotYourSlot,
}

impl fmt::Display for ClassicError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ClassicError::*;
        match self {
            GameOver => write!(f, "The game is over."),
            WrongPhase { action, phase } => write!(f, "You can't {action} now: {phase}."),
            UnknownTerritory(t) => write!(f, "There is no territory number {t} on this map."),
            UnknownPlayer(p) => write!(f, "There is no player number {p} in this game."),
            NotYours(t) => write!(f, "{t} is not yours."),
            AlreadyClaimed(t) => write!(f, "{t} has already been claimed."),
            OnlyOneSetupArmy => write!(f, "During setup you place one army at a time."),
            ZeroArmies => write!(f, "Choose at least one army."),
            NotEnoughToPlace { requested, left } => {
                write!(f, "You have only {left} armies left to place, not {requested}.")
            }
            MustTrade { cards } => write!(f, "You hold {cards} cards: trade in a set before placing armies."),
            UnknownCard(c) => write!(f, "There is no card number {c}."),
            CardNotInHand(c) => write!(f, "Card {c} is not in your hand."),
            DuplicateCard(c) => write!(f, "Card {c} is listed twice."),
            NotASet => write!(
                f,
                "Those cards are not a set: trade three alike, one of each, or any two with a wild card."
            ),
            NotAdjacent { from, to } => write!(f, "{from} does not border {to}."),
            OwnTerritory(t) => write!(f, "{t} is already yours: attack an enemy territory."),
            NeedTwoArmies(t) => write!(f, "{t} needs at least two armies to attack (one must stay behind)."),
            BadDice { dice, max } => write!(f, "You can roll 1 to {max} dice from there, not {dice}."),
            BlitzThreshold { armies, stop_at } => {
                write!(f, "The attacking territory has {armies} armies, not more than the stop level of {stop_at}.")
            }
            OccupyRange { min, max, requested } => {
                write!(f, "Move between {min} and {max} armies into the conquered territory, not {requested}.")
            }
            SameTerritory => write!(f, "Choose two different territories."),
            NotConnected { from, to } => write!(f, "There is no path of your own territories from {from} to {to}."),
            TooManyToMove { territory, requested, movable } => write!(
                f,
                "Only {movable} armies can leave {territory} (one stays, and armies move once per turn), not {requested}."
            ),
            OneSourceOnly { source } => write!(f, "With this fortify rule, this turn's moves must all come from {source}."),
            FortifyUsed => write!(f, "You have already made your fortify move this turn."),
            NothingFaceDown => write!(f, "The cards of this game are dealt face up: there is nothing to show."),
            NotYourSlot => write!(f, "That face-down card is not in your hand."),
        }
    }
}

impl std::error::Error for ClassicError {}

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    PlayerCount(usize),
    DuplicateColour(Colour),
    UnknownMap(String),
    TooManyNeutrals(u8),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::PlayerCount(n) => {
                write!(f, "A classic game needs 2 to 6 players, not {n}.")
            }
            SetupError::DuplicateColour(c) => write!(f, "Two players chose {}.", c.name()),
            SetupError::UnknownMap(m) => write!(f, "There is no map called `{m}`."),
            SetupError::TooManyNeutrals(n) => {
                write!(f, "{n} neutral territories leave too few for the players.")
            }
        }
    }
}

impl std::error::Error for SetupError {}
