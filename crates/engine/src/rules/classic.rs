//! The classic ruleset: reinforce / attack / fortify on the 42-territory world map, with cards,
//! trade-in schedules, secret missions, fortification variants and neutral armies.
//!
//! Where the rule sources differ, [`ClassicOptions`] chooses. Every state change goes through
//! [`ClassicState::apply`]; an illegal action returns a [`ClassicError`] and changes nothing
//! (the step runs on a copy that is committed only on success).

use crate::codec::{self, StateHash};
use crate::dice::{shuffle, Dice, SeededDice};
use crate::map::{Map, Symbol, TerritoryId};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Seat index, 0-based in seating order.
pub type PlayerId = u8;
/// Card index: 0..42 are the territory cards (same index as the territory), 42 and 43 are wild.
pub type CardId = u8;

/// Number of wild cards in the deck.
pub const WILD_CARDS: u8 = 2;
/// Most players in one game.
pub const MAX_PLAYERS: usize = 6;

/// The six army colours. Missions name a colour, not a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Colour {
    Red,
    Blue,
    Green,
    Yellow,
    Grey,
    Black,
}

impl Colour {
    /// All colours in the order seats take them by default.
    pub const ALL: [Colour; 6] = [
        Colour::Red,
        Colour::Blue,
        Colour::Green,
        Colour::Yellow,
        Colour::Grey,
        Colour::Black,
    ];

    /// Lower-case English name.
    pub fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Blue => "blue",
            Colour::Green => "green",
            Colour::Yellow => "yellow",
            Colour::Grey => "grey",
            Colour::Black => "black",
        }
    }
}

/// Skill of a computer player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum BotLevel {
    /// Random legal play.
    Easy,
    /// Heuristic play using exact odds.
    Normal,
    /// Plans its armies: every capture valued (continents, eliminations, cards) and weighed by
    /// the exact odds.
    Hard,
}

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatKind {
    Human,
    Bot(BotLevel),
}

/// How many dice a defender rolls: a standing per-player preference.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum DefendPref {
    /// Two dice when the territory has two or more armies, else one.
    #[default]
    Max,
    /// Always one die.
    One,
}

/// How many dice a territory's defender rolls, before the territory's armies cap it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefenceRule {
    /// One die.
    One,
    /// Two dice with two or more armies, one with one army.
    Max,
    /// Two dice even with one army (source 001, an option).
    Two,
}

impl DefenceRule {
    /// Dice rolled by `armies` defending armies (at least one).
    pub fn dice(self, armies: u32) -> u8 {
        match self {
            DefenceRule::One => 1,
            DefenceRule::Max => armies.clamp(1, 2) as u8,
            DefenceRule::Two => 2,
        }
    }
}

/// The mission cards dealt when fewer than six colours play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum MissionDeck {
    /// Source 002: the absent colours' "destroy" cards are removed before dealing.
    #[default]
    WithoutAbsentColours,
    /// The whole deck is dealt; an absent colour's card becomes "24 territories".
    AbsentAsTerritories,
}

/// The +2 armies for traded cards showing territories you hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum CardBonus {
    /// Source 001: +2 on one such territory, at most once per turn.
    #[default]
    OnePerTurn,
    /// Source 003: +2 on each such territory, every trade.
    EachCard,
}

/// Trade-in value schedules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum CardSchedule {
    /// 4, 6, 8, 10, 12, 15, then +5 per set.
    #[default]
    Escalating,
    /// 4, 5, 6, 7, …
    PlusOne,
    /// 4, then 5 for every later set.
    FourThenFive,
    /// Every set is worth the same.
    Constant(u32),
}

impl CardSchedule {
    /// Value of the `n`-th set traded in this game (0-based).
    pub fn value(self, n: u32) -> u32 {
        match self {
            CardSchedule::Escalating => match n {
                0..=4 => 4 + 2 * n,
                _ => 15 + 5 * (n - 5),
            },
            CardSchedule::PlusOne => 4 + n,
            CardSchedule::FourThenFive => {
                if n == 0 {
                    4
                } else {
                    5
                }
            }
            CardSchedule::Constant(v) => v,
        }
    }
}

/// Which fortification moves are allowed at the end of a turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum FortifyRule {
    /// One move from one territory to one adjacent territory.
    #[default]
    OneToOneAdjacent,
    /// Moves from one territory into any number of adjacent territories.
    OneToManyAdjacent,
    /// Any number of moves between adjacent territories.
    ManyToManyAdjacent,
    /// Any number of moves along paths of your own territories.
    ManyToManyConnected,
}

/// How territories are distributed at the start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Selection {
    /// Dealt at random.
    #[default]
    Random,
    /// Picked one at a time, in turn.
    Chosen,
}

/// Game options; the defaults are the common board-game rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassicOptions {
    pub cards: CardSchedule,
    pub fortify: FortifyRule,
    pub selection: Selection,
    /// Secret missions replace world domination as the goal.
    pub missions: bool,
    /// A non-destroy mission must still hold at the start of your next turn.
    pub hold_mission_full_round: bool,
    /// Neutral territories in games of 3+ players (2-player games always have a neutral).
    pub neutral_territories: u8,
    /// Armies on each neutral territory in games of 3+ players.
    pub neutral_armies: u8,
    /// Which mission cards are dealt when fewer than six colours play.
    pub mission_deck: MissionDeck,
    /// A defender rolls two dice even with one army, unless they asked for one (source 001).
    pub defend_two_with_one: bool,
    /// The +2 for traded cards: once per turn, or for each card.
    pub card_bonus: CardBonus,
}

impl Default for ClassicOptions {
    fn default() -> Self {
        ClassicOptions {
            cards: CardSchedule::Escalating,
            fortify: FortifyRule::OneToOneAdjacent,
            selection: Selection::Random,
            missions: false,
            hold_mission_full_round: false,
            neutral_territories: 0,
            neutral_armies: 3,
            mission_deck: MissionDeck::WithoutAbsentColours,
            defend_two_with_one: false,
            card_bonus: CardBonus::OnePerTurn,
        }
    }
}

/// A seat as chosen on the new-game screen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatConfig {
    pub name: String,
    pub colour: Colour,
    pub kind: SeatKind,
}

/// Who holds a territory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Owner {
    /// Not yet claimed (territory selection in progress).
    Unclaimed,
    Player(PlayerId),
    /// Neutral armies only defend.
    Neutral,
}

/// A secret mission.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mission {
    /// Eliminate the armies of this colour (by anyone's hand).
    Destroy(Colour),
    /// Own every territory of both continents (continent indices of the map).
    Continents(u8, u8),
    /// Own this many territories.
    Territories(u8),
}

/// Running totals per player, for the statistics screen.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    pub rolls: u32,
    pub armies_killed: u32,
    pub armies_lost: u32,
    pub conquests: u32,
    pub sets_traded: u32,
    pub armies_received: u32,
}

/// A seat in a running game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub name: String,
    pub colour: Colour,
    pub kind: SeatKind,
    pub defend: DefendPref,
    /// Territories (sorted) where this player asked to defend with one die; cleared for a
    /// territory when it changes hands.
    pub one_die: Vec<TerritoryId>,
    pub alive: bool,
    pub hand: Vec<CardId>,
    pub mission: Option<Mission>,
    /// Turn number at which the mission condition started holding continuously.
    pub mission_since: Option<u32>,
    /// Initial armies still to place during setup.
    pub setup_armies: u32,
    pub stats: Stats,
}

/// What the current player is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Setup: pick an unclaimed territory.
    Claim,
    /// Setup: place one initial army.
    SetupPlace,
    /// Trade cards and place `armies` reinforcements.
    Reinforce {
        armies: u32,
    },
    /// Attack, or end attacking.
    Attack,
    /// A territory was just conquered with `moved` armies; move more in or confirm.
    Occupy {
        from: TerritoryId,
        to: TerritoryId,
        moved: u32,
    },
    /// Fortify, or end the turn.
    Fortify,
    GameOver {
        winner: PlayerId,
    },
}

/// Everything a player can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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

/// Armies each player starts with, by number of players (2 players: 40, … 6 players: 20).
pub fn initial_armies(players: usize) -> u32 {
    match players {
        2 => 40,
        3 => 35,
        4 => 30,
        5 => 25,
        _ => 20,
    }
}

/// Per-turn bookkeeping, reset when a turn starts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnState {
    pub conquered: bool,
    pub bonus_used: bool,
    /// Fortify: armies that arrived in each territory this turn (they cannot move again).
    pub arrived: Vec<u32>,
    /// Fortify: the source used so far (one-to-many) or any move made (one-to-one).
    pub fortify_source: Option<TerritoryId>,
}

/// The whole state of a classic game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassicState {
    pub map_id: String,
    pub options: ClassicOptions,
    pub players: Vec<Player>,
    pub owner: Vec<Owner>,
    pub armies: Vec<u32>,
    pub phase: Phase,
    pub current: PlayerId,
    /// First player of the first turn.
    pub first: PlayerId,
    /// Number of turns started so far (1 during the first turn).
    pub turn: u32,
    /// Number of actions applied successfully; seeds bot choices.
    pub step: u32,
    pub deck: Vec<CardId>,
    pub discard: Vec<CardId>,
    pub sets_traded: u32,
    pub turn_state: TurnState,
    pub rng: SeededDice,
}

const CONTINENT_PAIRS: [(&str, &str); 6] = [
    ("asia", "south_america"),
    ("asia", "africa"),
    ("north_america", "africa"),
    ("north_america", "australia"),
    ("europe", "south_america"),
    ("europe", "australia"),
];

impl ClassicState {
    /// Sets up a new game on the classic map: deals territories (or prepares for picking),
    /// neutrals, missions and the card deck, and picks the first player, all from `seed`.
    pub fn new(
        seats: Vec<SeatConfig>,
        options: ClassicOptions,
        seed: [u8; 32],
    ) -> Result<Self, SetupError> {
        Self::new_on("classic", seats, options, seed)
    }

    /// As [`ClassicState::new`] on a named built-in map.
    pub fn new_on(
        map_id: &str,
        seats: Vec<SeatConfig>,
        options: ClassicOptions,
        seed: [u8; 32],
    ) -> Result<Self, SetupError> {
        let map = Map::get(map_id).ok_or_else(|| SetupError::UnknownMap(map_id.to_string()))?;
        let n = seats.len();
        if !(2..=MAX_PLAYERS).contains(&n) {
            return Err(SetupError::PlayerCount(n));
        }
        for (i, s) in seats.iter().enumerate() {
            if seats[..i].iter().any(|o| o.colour == s.colour) {
                return Err(SetupError::DuplicateColour(s.colour));
            }
        }
        let t = map.len();
        let neutral_count = if n == 2 {
            t / 3
        } else {
            options.neutral_territories as usize
        };
        if neutral_count + n > t {
            return Err(SetupError::TooManyNeutrals(neutral_count as u8));
        }
        let mut rng = SeededDice::new(seed);
        let start = initial_armies(n);
        let players: Vec<Player> = seats
            .into_iter()
            .map(|s| Player {
                name: s.name,
                colour: s.colour,
                kind: s.kind,
                defend: DefendPref::Max,
                one_die: vec![],
                alive: true,
                hand: vec![],
                mission: None,
                mission_since: None,
                setup_armies: start,
                stats: Stats::default(),
            })
            .collect();
        let mut order: Vec<TerritoryId> = map.ids().collect();
        shuffle(&mut rng, &mut order);
        let mut owner = vec![Owner::Unclaimed; t];
        let mut armies = vec![0u32; t];
        for &id in &order[..neutral_count] {
            owner[id as usize] = Owner::Neutral;
            armies[id as usize] = if n == 2 {
                1
            } else {
                u32::from(options.neutral_armies.max(1))
            };
        }
        if n == 2 {
            // The 2-player neutral gets a player's share of armies, spread at random.
            let neutral: Vec<TerritoryId> = order[..neutral_count].to_vec();
            for _ in 0..start.saturating_sub(neutral_count as u32) {
                let pick = neutral[rng.below(neutral.len() as u32) as usize];
                armies[pick as usize] += 1;
            }
        }
        let first = rng.below(n as u32) as PlayerId;
        let mut state = ClassicState {
            map_id: map_id.to_string(),
            options,
            players,
            owner,
            armies,
            phase: Phase::Claim,
            current: first,
            first,
            turn: 0,
            step: 0,
            deck: (0..t as CardId + WILD_CARDS).collect(),
            discard: vec![],
            sets_traded: 0,
            turn_state: TurnState {
                arrived: vec![0; t],
                ..TurnState::default()
            },
            rng,
        };
        let mut deck = std::mem::take(&mut state.deck);
        shuffle(&mut state.rng, &mut deck);
        state.deck = deck;
        if state.options.missions {
            state.deal_missions(map);
        }
        if state.options.selection == Selection::Random {
            for (k, &id) in order[neutral_count..].iter().enumerate() {
                let p = ((first as usize + k) % n) as PlayerId;
                state.owner[id as usize] = Owner::Player(p);
                state.armies[id as usize] = 1;
                state.players[p as usize].setup_armies -= 1;
            }
            state.phase = Phase::SetupPlace;
            // Nobody can have zero armies left here (42 territories, at most 40 dealt to one).
        }
        Ok(state)
    }

    fn deal_missions(&mut self, map: &Map) {
        let colours: Vec<Colour> = self.players.iter().map(|p| p.colour).collect();
        let mut deck = mission_cards(map, self.options.mission_deck, &colours);
        shuffle(&mut self.rng, &mut deck);
        for (i, &dealt) in deck.iter().enumerate().take(self.players.len()) {
            let mut m = dealt;
            if let Mission::Destroy(c) = m {
                let present = self.players.iter().any(|p| p.colour == c);
                if c == self.players[i].colour || !present {
                    m = Mission::Territories(24);
                }
            }
            self.players[i].mission = Some(m);
        }
    }

    /// The map this game is played on.
    pub fn map(&self) -> &'static Map {
        Map::get(&self.map_id).unwrap_or_else(Map::classic)
    }

    /// The player whose turn it is (or who must act in setup).
    pub fn current_player(&self) -> PlayerId {
        self.current
    }

    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<PlayerId> {
        match self.phase {
            Phase::GameOver { winner } => Some(winner),
            _ => None,
        }
    }

    /// Who must sign an action: the current player, or the named player for `SetDefence`.
    pub fn actor(&self, action: &Action) -> PlayerId {
        match action {
            Action::SetDefence { player, .. } => *player,
            Action::SetTerritoryDefence { territory, .. } => {
                match self.owner.get(*territory as usize) {
                    Some(Owner::Player(p)) => *p,
                    _ => self.current,
                }
            }
            _ => self.current,
        }
    }

    /// SHA-256 of the canonical encoding.
    pub fn state_hash(&self) -> StateHash {
        codec::hash_of(self)
    }

    /// Territories owned by `p`.
    pub fn territories_of(&self, p: PlayerId) -> impl Iterator<Item = TerritoryId> + '_ {
        self.owner
            .iter()
            .enumerate()
            .filter(move |(_, o)| **o == Owner::Player(p))
            .map(|(i, _)| i as TerritoryId)
    }

    /// Number of territories owned by `p`.
    pub fn territory_count(&self, p: PlayerId) -> u32 {
        self.owner
            .iter()
            .filter(|o| **o == Owner::Player(p))
            .count() as u32
    }

    /// True when `p` owns every territory of continent `c`.
    pub fn owns_continent(&self, p: PlayerId, c: usize) -> bool {
        self.map().continents[c]
            .territories
            .iter()
            .all(|&t| self.owner[t as usize] == Owner::Player(p))
    }

    /// Reinforcements at the start of a turn: (from territories, from continents).
    pub fn reinforcements(&self, p: PlayerId) -> (u32, u32) {
        let base = (self.territory_count(p) / 3).max(3);
        let bonus = (0..self.map().continents.len())
            .filter(|&c| self.owns_continent(p, c))
            .map(|c| self.map().continents[c].bonus)
            .sum();
        (base, bonus)
    }

    /// Value of the next set to be traded.
    pub fn next_set_value(&self) -> u32 {
        self.options.cards.value(self.sets_traded)
    }

    /// Symbol of a card, `None` for a wild card.
    pub fn card_symbol(&self, c: CardId) -> Option<Symbol> {
        self.map().territories.get(c as usize).map(|t| t.card)
    }

    /// Territory shown on a card, `None` for a wild card.
    pub fn card_territory(&self, c: CardId) -> Option<TerritoryId> {
        ((c as usize) < self.map().len()).then_some(c)
    }

    /// True when three cards form a tradeable set.
    pub fn is_set(&self, cards: [CardId; 3]) -> bool {
        let syms: Vec<Option<Symbol>> = cards.iter().map(|&c| self.card_symbol(c)).collect();
        let wilds = syms.iter().filter(|s| s.is_none()).count();
        if wilds >= 1 {
            return true; // any two plus a wild (two wilds plus anything also qualifies)
        }
        let (a, b, c) = (syms[0], syms[1], syms[2]);
        (a == b && b == c) || (a != b && b != c && a != c)
    }

    /// Every set that can be made from `p`'s hand (card triples in hand order).
    pub fn sets_in_hand(&self, p: PlayerId) -> Vec<[CardId; 3]> {
        let hand = &self.players[p as usize].hand;
        let mut out = vec![];
        for i in 0..hand.len() {
            for j in i + 1..hand.len() {
                for k in j + 1..hand.len() {
                    let s = [hand[i], hand[j], hand[k]];
                    if self.is_set(s) {
                        out.push(s);
                    }
                }
            }
        }
        out
    }

    /// Most dice the attacker may roll from `from` (0 if it cannot attack).
    pub fn max_attack_dice(&self, from: TerritoryId) -> u8 {
        self.armies
            .get(from as usize)
            .map_or(0, |&a| a.saturating_sub(1).min(3) as u8)
    }

    /// How the holder of `to` defends it: one die if they asked for one (standing choice or
    /// for this territory), else as many as the armies and the options allow.
    pub fn defence_rule(&self, to: TerritoryId) -> DefenceRule {
        if let Some(Owner::Player(p)) = self.owner.get(to as usize) {
            let pl = &self.players[*p as usize];
            if pl.defend == DefendPref::One || pl.one_die.binary_search(&to).is_ok() {
                return DefenceRule::One;
            }
        }
        if self.options.defend_two_with_one {
            DefenceRule::Two
        } else {
            DefenceRule::Max
        }
    }

    /// Dice the owner of `to` rolls in defence.
    pub fn defence_dice(&self, to: TerritoryId) -> u8 {
        self.defence_rule(to).dice(self.armies[to as usize])
    }

    /// Enemy territories `from` can attack right now.
    pub fn attack_targets(&self, from: TerritoryId) -> Vec<TerritoryId> {
        if self.owner.get(from as usize) != Some(&Owner::Player(self.current))
            || self.armies[from as usize] < 2
        {
            return vec![];
        }
        self.map().territories[from as usize]
            .adjacent
            .iter()
            .copied()
            .filter(|&t| self.owner[t as usize] != Owner::Player(self.current))
            .collect()
    }

    /// Armies that may still leave `t` during fortification.
    pub fn movable(&self, t: TerritoryId) -> u32 {
        let a = self.armies[t as usize];
        a.saturating_sub(self.turn_state.arrived[t as usize].max(1))
    }

    /// Territories that armies from `from` may fortify this turn under the game's rule.
    pub fn fortify_targets(&self, from: TerritoryId) -> Vec<TerritoryId> {
        let me = Owner::Player(self.current);
        if self.phase != Phase::Fortify
            || self.owner.get(from as usize) != Some(&me)
            || self.movable(from) == 0
        {
            return vec![];
        }
        match self.options.fortify {
            FortifyRule::OneToOneAdjacent if self.turn_state.fortify_source.is_some() => {
                return vec![]
            }
            FortifyRule::OneToManyAdjacent
                if self.turn_state.fortify_source.is_some_and(|s| s != from) =>
            {
                return vec![]
            }
            _ => {}
        }
        if self.options.fortify == FortifyRule::ManyToManyConnected {
            let mut seen = vec![false; self.owner.len()];
            let mut stack = vec![from];
            seen[from as usize] = true;
            let mut out = vec![];
            while let Some(t) = stack.pop() {
                for &n in &self.map().territories[t as usize].adjacent {
                    if !seen[n as usize] && self.owner[n as usize] == me {
                        seen[n as usize] = true;
                        stack.push(n);
                        out.push(n);
                    }
                }
            }
            out.sort_unstable();
            out
        } else {
            self.map().territories[from as usize]
                .adjacent
                .iter()
                .copied()
                .filter(|&n| self.owner[n as usize] == me)
                .collect()
        }
    }

    /// Applies an action with the game's own dice stream.
    pub fn apply(&mut self, action: &Action) -> Result<Vec<Event>, ClassicError> {
        let mut next = self.clone();
        let mut rng = next.rng.clone();
        let events = next.step(action, &mut rng)?;
        next.rng = rng;
        *self = next;
        Ok(events)
    }

    /// Applies an action drawing randomness from `dice` instead of the game's stream.
    pub fn apply_with(
        &mut self,
        action: &Action,
        dice: &mut dyn Dice,
    ) -> Result<Vec<Event>, ClassicError> {
        let mut next = self.clone();
        let events = next.step(action, dice)?;
        *self = next;
        Ok(events)
    }

    fn name(&self, t: TerritoryId) -> String {
        self.map().name(t)
    }

    fn check_territory(&self, t: TerritoryId) -> Result<(), ClassicError> {
        if (t as usize) < self.owner.len() {
            Ok(())
        } else {
            Err(ClassicError::UnknownTerritory(t))
        }
    }

    fn check_mine(&self, t: TerritoryId) -> Result<(), ClassicError> {
        self.check_territory(t)?;
        if self.owner[t as usize] == Owner::Player(self.current) {
            Ok(())
        } else {
            Err(ClassicError::NotYours(self.name(t)))
        }
    }

    fn phase_text(&self) -> String {
        let who = &self.players[self.current as usize].name;
        match self.phase {
            Phase::Claim => format!("{who} is claiming territories"),
            Phase::SetupPlace => format!("{who} is placing initial armies"),
            Phase::Reinforce { armies } => format!("{who} has {armies} reinforcements to place"),
            Phase::Attack => format!("{who} is attacking"),
            Phase::Occupy { .. } => {
                format!("{who} must first move armies into the conquered territory")
            }
            Phase::Fortify => format!("{who} is fortifying"),
            Phase::GameOver { .. } => "the game is over".into(),
        }
    }

    fn wrong_phase(&self, action: &str) -> ClassicError {
        ClassicError::WrongPhase {
            action: action.into(),
            phase: self.phase_text(),
        }
    }

    fn step(&mut self, action: &Action, dice: &mut dyn Dice) -> Result<Vec<Event>, ClassicError> {
        if matches!(self.phase, Phase::GameOver { .. }) {
            return Err(ClassicError::GameOver);
        }
        let mut ev = vec![];
        match *action {
            Action::SetDefence { player, pref } => {
                if player as usize >= self.players.len() {
                    return Err(ClassicError::UnknownPlayer(player));
                }
                self.players[player as usize].defend = pref;
                ev.push(Event::DefenceSet { player, pref });
            }
            Action::SetTerritoryDefence { territory, one } => {
                let Some(&owner) = self.owner.get(territory as usize) else {
                    return Err(ClassicError::UnknownTerritory(territory));
                };
                let Owner::Player(player) = owner else {
                    return Err(ClassicError::NotYours(
                        self.map().territories[territory as usize].name.clone(),
                    ));
                };
                let list = &mut self.players[player as usize].one_die;
                match (list.binary_search(&territory), one) {
                    (Err(i), true) => list.insert(i, territory),
                    (Ok(i), false) => {
                        list.remove(i);
                    }
                    _ => {}
                }
                ev.push(Event::TerritoryDefenceSet {
                    player,
                    territory,
                    one,
                });
            }
            Action::Claim { territory } => self.claim(territory, &mut ev)?,
            Action::Place { territory, armies } => self.place(territory, armies, &mut ev)?,
            Action::Trade { cards } => self.trade(cards, &mut ev)?,
            Action::Attack { from, to, dice: n } => {
                if self.phase != Phase::Attack {
                    return Err(self.wrong_phase("attack"));
                }
                self.check_attack(from, to)?;
                let max = self.max_attack_dice(from);
                if n == 0 || n > max {
                    return Err(ClassicError::BadDice { dice: n, max });
                }
                self.roll(from, to, n, dice, &mut ev);
            }
            Action::Blitz { from, to, stop_at } => {
                if self.phase != Phase::Attack {
                    return Err(self.wrong_phase("attack"));
                }
                self.check_attack(from, to)?;
                let stop_at = stop_at.max(1);
                if self.armies[from as usize] <= stop_at {
                    return Err(ClassicError::BlitzThreshold {
                        armies: self.armies[from as usize],
                        stop_at,
                    });
                }
                while self.phase == Phase::Attack
                    && self.owner[to as usize] != Owner::Player(self.current)
                    && self.armies[from as usize] > stop_at
                {
                    let n = self.max_attack_dice(from);
                    self.roll(from, to, n, dice, &mut ev);
                }
            }
            Action::Occupy { armies } => {
                let Phase::Occupy { from, to, moved } = self.phase else {
                    return Err(self.wrong_phase("move into a conquered territory"));
                };
                let max = moved + self.armies[from as usize] - 1;
                if armies < moved || armies > max {
                    return Err(ClassicError::OccupyRange {
                        min: moved,
                        max,
                        requested: armies,
                    });
                }
                self.finish_occupy(from, to, armies - moved, &mut ev);
            }
            Action::EndAttack => {
                if self.phase != Phase::Attack {
                    return Err(self.wrong_phase("end the attack phase"));
                }
                self.phase = Phase::Fortify;
                ev.push(Event::AttackEnded {
                    player: self.current,
                });
            }
            Action::Fortify { from, to, armies } => {
                self.fortify(from, to, armies, dice, &mut ev)?
            }
            Action::EndTurn => {
                if !matches!(self.phase, Phase::Attack | Phase::Fortify) {
                    return Err(self.wrong_phase("end your turn"));
                }
                self.end_turn(dice, &mut ev);
            }
        }
        self.step += 1;
        Ok(ev)
    }

    fn claim(&mut self, t: TerritoryId, ev: &mut Vec<Event>) -> Result<(), ClassicError> {
        if self.phase != Phase::Claim {
            return Err(self.wrong_phase("claim a territory"));
        }
        self.check_territory(t)?;
        if self.owner[t as usize] != Owner::Unclaimed {
            return Err(ClassicError::AlreadyClaimed(self.name(t)));
        }
        let p = self.current;
        self.owner[t as usize] = Owner::Player(p);
        self.armies[t as usize] = 1;
        self.players[p as usize].setup_armies -= 1;
        ev.push(Event::Claimed {
            player: p,
            territory: t,
        });
        if self.owner.contains(&Owner::Unclaimed) {
            self.current = (p + 1) % self.players.len() as PlayerId;
        } else {
            self.phase = Phase::SetupPlace;
            self.current = self.first;
            self.advance_setup(ev, false);
        }
        Ok(())
    }

    /// Moves setup placement to the next player who still has armies, or starts the first turn.
    fn advance_setup(&mut self, ev: &mut Vec<Event>, skip_current: bool) {
        let n = self.players.len();
        let start = if skip_current { 1 } else { 0 };
        for k in start..=n {
            let p = ((self.current as usize + k) % n) as PlayerId;
            if self.players[p as usize].setup_armies > 0 {
                self.current = p;
                return;
            }
        }
        ev.push(Event::SetupDone { first: self.first });
        self.current = self.first;
        self.begin_turn(ev);
    }

    fn place(
        &mut self,
        t: TerritoryId,
        armies: u32,
        ev: &mut Vec<Event>,
    ) -> Result<(), ClassicError> {
        let p = self.current;
        match self.phase {
            Phase::SetupPlace => {
                self.check_mine(t)?;
                if armies != 1 {
                    return Err(ClassicError::OnlyOneSetupArmy);
                }
                self.armies[t as usize] += 1;
                self.players[p as usize].setup_armies -= 1;
                ev.push(Event::Placed {
                    player: p,
                    territory: t,
                    armies: 1,
                });
                self.advance_setup(ev, true);
            }
            Phase::Reinforce { armies: left } => {
                let cards = self.players[p as usize].hand.len() as u32;
                if cards >= 5 {
                    return Err(ClassicError::MustTrade { cards });
                }
                self.check_mine(t)?;
                if armies == 0 {
                    return Err(ClassicError::ZeroArmies);
                }
                if armies > left {
                    return Err(ClassicError::NotEnoughToPlace {
                        requested: armies,
                        left,
                    });
                }
                self.armies[t as usize] += armies;
                ev.push(Event::Placed {
                    player: p,
                    territory: t,
                    armies,
                });
                self.phase = if armies == left {
                    Phase::Attack
                } else {
                    Phase::Reinforce {
                        armies: left - armies,
                    }
                };
            }
            _ => return Err(self.wrong_phase("place armies")),
        }
        Ok(())
    }

    fn trade(&mut self, cards: [CardId; 3], ev: &mut Vec<Event>) -> Result<(), ClassicError> {
        let Phase::Reinforce { armies: left } = self.phase else {
            return Err(self.wrong_phase("trade cards (only while placing armies)"));
        };
        let p = self.current;
        let total = self.map().len() as CardId + WILD_CARDS;
        for (i, &c) in cards.iter().enumerate() {
            if c >= total {
                return Err(ClassicError::UnknownCard(c));
            }
            if cards[..i].contains(&c) {
                return Err(ClassicError::DuplicateCard(c));
            }
            if !self.players[p as usize].hand.contains(&c) {
                return Err(ClassicError::CardNotInHand(c));
            }
        }
        if !self.is_set(cards) {
            return Err(ClassicError::NotASet);
        }
        let value = self.next_set_value();
        self.sets_traded += 1;
        let pl = &mut self.players[p as usize];
        pl.hand.retain(|c| !cards.contains(c));
        pl.stats.sets_traded += 1;
        pl.stats.armies_received += value;
        self.discard.extend_from_slice(&cards);
        let mut bonus: Vec<TerritoryId> = cards
            .iter()
            .filter_map(|&c| self.card_territory(c))
            .filter(|&t| self.owner[t as usize] == Owner::Player(p))
            .collect();
        if self.options.card_bonus == CardBonus::OnePerTurn {
            bonus.truncate(usize::from(!self.turn_state.bonus_used));
        }
        for &t in &bonus {
            self.armies[t as usize] += 2;
            self.turn_state.bonus_used = true;
            self.players[p as usize].stats.armies_received += 2;
        }
        ev.push(Event::Traded {
            player: p,
            cards,
            armies: value,
            bonus,
        });
        let hand = self.players[p as usize].hand.len();
        // A zero-valued set (constant schedule of 0) after an elimination trade leaves nothing to place.
        self.phase = if left + value == 0 && hand < 5 {
            Phase::Attack
        } else {
            Phase::Reinforce {
                armies: left + value,
            }
        };
        Ok(())
    }

    fn check_attack(&self, from: TerritoryId, to: TerritoryId) -> Result<(), ClassicError> {
        self.check_mine(from)?;
        self.check_territory(to)?;
        if self.owner[to as usize] == Owner::Player(self.current) {
            return Err(ClassicError::OwnTerritory(self.name(to)));
        }
        if !self.map().adjacent(from, to) {
            return Err(ClassicError::NotAdjacent {
                from: self.name(from),
                to: self.name(to),
            });
        }
        if self.armies[from as usize] < 2 {
            return Err(ClassicError::NeedTwoArmies(self.name(from)));
        }
        Ok(())
    }

    /// One roll; on conquest moves the rolled dice in and enters the occupy phase.
    fn roll(
        &mut self,
        from: TerritoryId,
        to: TerritoryId,
        n: u8,
        dice: &mut dyn Dice,
        ev: &mut Vec<Event>,
    ) {
        let d = self.defence_dice(to);
        let mut attack: Vec<u8> = (0..n).map(|_| dice.d6()).collect();
        let mut defence: Vec<u8> = (0..d).map(|_| dice.d6()).collect();
        attack.sort_unstable_by(|a, b| b.cmp(a));
        defence.sort_unstable_by(|a, b| b.cmp(a));
        let (al, dl) = battle_losses(&attack, &defence);
        // Two dice defending one army (an option) can lose two comparisons: the army dies once.
        let dl = dl.min(self.armies[to as usize]);
        self.armies[from as usize] -= al;
        self.armies[to as usize] -= dl;
        let me = self.current;
        let loser = self.owner[to as usize];
        {
            let s = &mut self.players[me as usize].stats;
            s.rolls += 1;
            s.armies_killed += dl;
            s.armies_lost += al;
        }
        if let Owner::Player(q) = loser {
            let s = &mut self.players[q as usize].stats;
            s.armies_killed += al;
            s.armies_lost += dl;
        }
        ev.push(Event::Rolled {
            from,
            to,
            attack,
            defence,
            attacker_lost: al,
            defender_lost: dl,
        });
        if self.armies[to as usize] > 0 {
            return;
        }
        // Conquest: move in the dice that survived this roll (all of them, unless two defence
        // dice were rolled by one army).
        if let Owner::Player(q) = loser {
            self.players[q as usize].one_die.retain(|&t| t != to);
        }
        self.owner[to as usize] = Owner::Player(me);
        let moved = u32::from(n) - al;
        self.armies[to as usize] = moved;
        self.armies[from as usize] -= moved;
        self.turn_state.conquered = true;
        self.players[me as usize].stats.conquests += 1;
        ev.push(Event::Conquered {
            player: me,
            from,
            to,
            loser,
            moved,
        });
        if let Owner::Player(q) = loser {
            if self.territory_count(q) == 0 {
                self.eliminate(q, ev);
            }
        }
        if self.check_winners(ev) {
            return;
        }
        self.phase = Phase::Occupy { from, to, moved };
        if self.armies[from as usize] == 1 {
            self.finish_occupy(from, to, 0, ev);
        }
    }

    fn eliminate(&mut self, q: PlayerId, ev: &mut Vec<Event>) {
        let me = self.current;
        let cards = std::mem::take(&mut self.players[q as usize].hand);
        self.players[q as usize].alive = false;
        ev.push(Event::Eliminated {
            player: q,
            by: me,
            cards: cards.len() as u32,
        });
        self.players[me as usize].hand.extend(cards);
    }

    fn finish_occupy(
        &mut self,
        from: TerritoryId,
        to: TerritoryId,
        extra: u32,
        ev: &mut Vec<Event>,
    ) {
        self.armies[from as usize] -= extra;
        self.armies[to as usize] += extra;
        ev.push(Event::Occupied {
            from,
            to,
            armies: self.armies[to as usize],
        });
        // Cards taken from an eliminated player: at 6 or more, trade down to 4 or fewer now.
        let cards = self.players[self.current as usize].hand.len();
        self.phase = if cards >= 6 {
            Phase::Reinforce { armies: 0 }
        } else {
            Phase::Attack
        };
    }

    fn fortify(
        &mut self,
        from: TerritoryId,
        to: TerritoryId,
        armies: u32,
        dice: &mut dyn Dice,
        ev: &mut Vec<Event>,
    ) -> Result<(), ClassicError> {
        if self.phase != Phase::Fortify {
            return Err(self.wrong_phase("fortify"));
        }
        self.check_mine(from)?;
        self.check_mine(to)?;
        if from == to {
            return Err(ClassicError::SameTerritory);
        }
        if armies == 0 {
            return Err(ClassicError::ZeroArmies);
        }
        let rule = self.options.fortify;
        match (rule, self.turn_state.fortify_source) {
            (FortifyRule::OneToOneAdjacent, Some(_)) => return Err(ClassicError::FortifyUsed),
            (FortifyRule::OneToManyAdjacent, Some(s)) if s != from => {
                return Err(ClassicError::OneSourceOnly {
                    source: self.name(s),
                })
            }
            _ => {}
        }
        if rule == FortifyRule::ManyToManyConnected {
            if !self.fortify_targets(from).contains(&to) {
                return Err(ClassicError::NotConnected {
                    from: self.name(from),
                    to: self.name(to),
                });
            }
        } else if !self.map().adjacent(from, to) {
            return Err(ClassicError::NotAdjacent {
                from: self.name(from),
                to: self.name(to),
            });
        }
        let movable = self.movable(from);
        if armies > movable {
            return Err(ClassicError::TooManyToMove {
                territory: self.name(from),
                requested: armies,
                movable,
            });
        }
        self.armies[from as usize] -= armies;
        self.armies[to as usize] += armies;
        self.turn_state.arrived[to as usize] += armies;
        self.turn_state.fortify_source = Some(from);
        ev.push(Event::Fortified { from, to, armies });
        if rule == FortifyRule::OneToOneAdjacent {
            self.end_turn(dice, ev);
        }
        Ok(())
    }

    fn end_turn(&mut self, dice: &mut dyn Dice, ev: &mut Vec<Event>) {
        let me = self.current;
        if self.turn_state.conquered {
            if self.deck.is_empty() {
                self.deck = std::mem::take(&mut self.discard);
                shuffle(dice, &mut self.deck);
            }
            if let Some(c) = self.deck.pop() {
                self.players[me as usize].hand.push(c);
                ev.push(Event::CardDrawn { player: me });
            }
        }
        let n = self.players.len() as PlayerId;
        let mut next = (me + 1) % n;
        while !self.players[next as usize].alive {
            next = (next + 1) % n;
        }
        self.current = next;
        self.begin_turn(ev);
    }

    fn begin_turn(&mut self, ev: &mut Vec<Event>) {
        self.turn += 1;
        let t = self.owner.len();
        self.turn_state = TurnState {
            arrived: vec![0; t],
            ..TurnState::default()
        };
        let p = self.current;
        // A mission held since an earlier turn of ours has now survived a full round.
        if self.options.missions && self.options.hold_mission_full_round {
            if let (Some(m), Some(since)) = (
                self.players[p as usize].mission,
                self.players[p as usize].mission_since,
            ) {
                if since < self.turn && self.mission_done(p, m) {
                    self.win(p, WinReason::Mission(m), ev);
                    return;
                }
            }
        }
        let (base, bonus) = self.reinforcements(p);
        self.players[p as usize].stats.armies_received += base + bonus;
        ev.push(Event::TurnStarted {
            player: p,
            turn: self.turn,
            territories: base,
            continents: bonus,
        });
        self.phase = Phase::Reinforce {
            armies: base + bonus,
        };
    }

    fn mission_done(&self, p: PlayerId, m: Mission) -> bool {
        match m {
            Mission::Destroy(c) => self.players.iter().any(|q| q.colour == c && !q.alive),
            Mission::Continents(a, b) => {
                self.owns_continent(p, a as usize) && self.owns_continent(p, b as usize)
            }
            Mission::Territories(n) => self.territory_count(p) >= u32::from(n),
        }
    }

    fn win(&mut self, p: PlayerId, reason: WinReason, ev: &mut Vec<Event>) {
        self.phase = Phase::GameOver { winner: p };
        ev.push(Event::Won { player: p, reason });
    }

    /// After a conquest: domination, last standing, and missions (current player first).
    fn check_winners(&mut self, ev: &mut Vec<Event>) -> bool {
        let me = self.current;
        if self.owner.iter().all(|o| *o == Owner::Player(me)) {
            self.win(me, WinReason::Domination, ev);
            return true;
        }
        if self.players.iter().filter(|p| p.alive).count() == 1 {
            self.win(me, WinReason::LastStanding, ev);
            return true;
        }
        if !self.options.missions {
            return false;
        }
        let n = self.players.len();
        for k in 0..n {
            let p = ((me as usize + k) % n) as PlayerId;
            let pl = &self.players[p as usize];
            let Some(m) = pl.mission else { continue };
            if !pl.alive {
                continue;
            }
            let done = self.mission_done(p, m);
            let immediate =
                !self.options.hold_mission_full_round || matches!(m, Mission::Destroy(_));
            if done && immediate {
                self.win(p, WinReason::Mission(m), ev);
                return true;
            }
            let turn = self.turn;
            let pl = &mut self.players[p as usize];
            pl.mission_since = if done {
                pl.mission_since.or(Some(turn))
            } else {
                None
            };
        }
        false
    }

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
        if seen.iter().any(|s| !s) {
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

/// Losses (attacker, defender) for sorted-descending dice: highest against highest, ties to the defender.
pub fn battle_losses(attack: &[u8], defence: &[u8]) -> (u32, u32) {
    let mut al = 0;
    let mut dl = 0;
    for (a, d) in attack.iter().zip(defence) {
        if a > d {
            dl += 1;
        } else {
            al += 1;
        }
    }
    (al, dl)
}

/// The mission cards shuffled and dealt for a game of these colours: a "destroy" card per colour
/// (per colour at the table with [`MissionDeck::WithoutAbsentColours`]), the continent pairs the
/// map has, and "24 territories".
pub fn mission_cards(map: &Map, deck: MissionDeck, colours: &[Colour]) -> Vec<Mission> {
    let mut cards: Vec<Mission> = Colour::ALL
        .iter()
        .filter(|c| deck == MissionDeck::AbsentAsTerritories || colours.contains(c))
        .map(|&c| Mission::Destroy(c))
        .collect();
    for (a, b) in CONTINENT_PAIRS {
        if let (Some(x), Some(y)) = (
            map.continents.iter().position(|c| c.key == a),
            map.continents.iter().position(|c| c.key == b),
        ) {
            cards.push(Mission::Continents(x as u8, y as u8));
        }
    }
    cards.push(Mission::Territories(24));
    cards
}

/// Seats with default names and colours, all of one kind; handy for tests and the CLI.
pub fn default_seats(n: usize, kind: SeatKind) -> Vec<SeatConfig> {
    (0..n)
        .map(|i| SeatConfig {
            name: format!("Player {}", i + 1),
            colour: Colour::ALL[i % 6],
            kind,
        })
        .collect()
}
