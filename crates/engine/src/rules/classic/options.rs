//! The choices a classic game is set up with: colours, seats and computer levels, and the
//! rule options where the sources differ (cards, fortification, defence, missions, selection).

use super::*;

/// The six army colours. Missions name a colour, not a seat.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    bincode::Decode,
)]
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
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    bincode::Decode,
)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, bincode::Decode)]
pub enum SeatKind {
    Human,
    Bot(BotLevel),
}

/// How many dice a defender rolls: a standing per-player preference.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, bincode::Decode)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, bincode::Decode)]
pub enum MissionDeck {
    /// Source 002: the absent colours' "destroy" cards are removed before dealing.
    #[default]
    WithoutAbsentColours,
    /// The whole deck is dealt; an absent colour's card becomes "24 territories".
    AbsentAsTerritories,
}

/// The +2 armies for traded cards showing territories you hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, bincode::Decode)]
pub enum CardBonus {
    /// Source 001: +2 on one such territory, at most once per turn.
    #[default]
    OnePerTurn,
    /// Source 003: +2 on each such territory, every trade.
    EachCard,
}

/// Trade-in value schedules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, bincode::Decode)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, bincode::Decode)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, bincode::Decode)]
pub enum Selection {
    /// Dealt at random.
    #[default]
    Random,
    /// Picked one at a time, in turn.
    Chosen,
}

/// Game options; the defaults are the common board-game rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, bincode::Decode)]
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
