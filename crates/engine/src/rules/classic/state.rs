//! What a classic game holds: ids, owners, players with their hands and missions, the phase,
//! the turn's bookkeeping and the whole state.

use super::*;

/// Seat index, 0-based in seating order.
pub type PlayerId = u8;
/// Card index: 0..42 are the territory cards (same index as the territory), 42 and 43 are wild.
pub type CardId = u8;

/// Number of wild cards in the deck.
pub const WILD_CARDS: u8 = 2;
/// Most players in one game.
pub const MAX_PLAYERS: usize = 6;

/// Who holds a territory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, bincode::Decode)]
pub enum Owner {
    /// Not yet claimed (territory selection in progress).
    Unclaimed,
    Player(PlayerId),
    /// Neutral armies only defend.
    Neutral,
}

/// A secret mission.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, bincode::Decode)]
pub enum Mission {
    /// Eliminate the armies of this colour (by anyone's hand).
    Destroy(Colour),
    /// Own every territory of both continents (continent indices of the map).
    Continents(u8, u8),
    /// Own this many territories.
    Territories(u8),
}

/// Running totals per player, for the statistics screen.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, bincode::Decode)]
pub struct Stats {
    pub rolls: u32,
    pub armies_killed: u32,
    pub armies_lost: u32,
    pub conquests: u32,
    pub sets_traded: u32,
    pub armies_received: u32,
}

/// A seat in a running game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, bincode::Decode)]
pub struct Player {
    pub name: String,
    pub colour: Colour,
    pub kind: SeatKind,
    pub defend: DefendPref,
    /// Territories (sorted) where this player asked to defend with one die; cleared for a
    /// territory when it changes hands.
    pub one_die: Vec<TerritoryId>,
    pub alive: bool,
    /// Cards everyone knows: every card in a game dealt face up; shown cards in one dealt face
    /// down (see [`SealedDeal`]).
    pub hand: Vec<CardId>,
    pub mission: Option<Mission>,
    /// Turn number at which the mission condition started holding continuously.
    pub mission_since: Option<u32>,
    /// Initial armies still to place during setup.
    pub setup_armies: u32,
    pub stats: Stats,
    /// Face-down cards: slots of the dealt decks that only this player can read.
    pub sealed: Vec<Slot>,
    /// A face-down mission, until its holder shows it.
    pub sealed_mission: Option<Slot>,
}

/// What the current player is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, bincode::Decode)]
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
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, bincode::Decode)]
pub struct TurnState {
    pub conquered: bool,
    pub bonus_used: bool,
    /// Fortify: armies that arrived in each territory this turn (they cannot move again).
    pub arrived: Vec<u32>,
    /// Fortify: the source used so far (one-to-many) or any move made (one-to-one).
    pub fortify_source: Option<TerritoryId>,
}

/// The whole state of a classic game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, bincode::Decode)]
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
    /// `Some`: the cards and missions were dealt face down by the participants (`deck` is then
    /// empty; see [`SealedDeal`]).
    pub sealed: Option<SealedDeal>,
}
