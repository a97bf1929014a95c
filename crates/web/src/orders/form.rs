//! The setup form of an orders game: the map, the number of players and who plays each power.

use orbis_engine::rules::classic::BotLevel;
use orbis_engine::rules::orders::map::{OrdersMap, PowerId};
use orbis_engine::rules::orders::OrdersOptions;

/// Setup form of an orders game.
#[derive(Clone, PartialEq)]
pub struct OrdersForm {
    pub map_id: String,
    /// Players on the world map (2–6); Europe always has 7 powers.
    pub players: u8,
    /// Per power of the map: who plays it.
    pub seats: Vec<Seat>,
    pub options: OrdersOptions,
    /// How long the `hard` computer powers think (the engine's `effort`, [`THINK_TIMES`]).
    pub think: u32,
}

/// The thinking times the setup form offers for `hard` computer powers: the engine's `effort`
/// and its words. Measured natively (docs/figures.md): a movement phase's orders take a median
/// of 24, 108 and 689 ms (slowest 69, 686 and 1,864 ms), and each step wins more games.
pub const THINK_TIMES: [(u32, &str); 3] = [
    (1, "Quick"),
    (3, "Careful (slower, stronger)"),
    (8, "Very careful (can take several seconds a turn)"),
];

/// Who plays a power in a hot-seat orders game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    /// A computer player (`orbis_engine::bot::orders`).
    Computer(BotLevel),
    /// Nobody: civil disorder, the units hold.
    Idle,
}

impl Seat {
    /// One character per seat in `localStorage` ("1" human and "0" civil disorder, as saves
    /// before computer powers wrote them; "e", "n" and "h" computer levels).
    pub fn code(self) -> char {
        match self {
            Seat::Human => '1',
            Seat::Idle => '0',
            Seat::Computer(BotLevel::Easy) => 'e',
            Seat::Computer(BotLevel::Normal) => 'n',
            Seat::Computer(BotLevel::Hard) => 'h',
        }
    }

    /// The value of the setup form's option (`human`, `hard`, `normal`, `easy`, `cd`).
    pub fn form_value(self) -> &'static str {
        match self {
            Seat::Human => "human",
            Seat::Idle => "cd",
            Seat::Computer(BotLevel::Easy) => "easy",
            Seat::Computer(BotLevel::Normal) => "normal",
            Seat::Computer(BotLevel::Hard) => "hard",
        }
    }

    pub fn from_form(v: &str) -> Seat {
        match v {
            "cd" => Seat::Idle,
            "easy" => Seat::Computer(BotLevel::Easy),
            "normal" => Seat::Computer(BotLevel::Normal),
            "hard" => Seat::Computer(BotLevel::Hard),
            _ => Seat::Human,
        }
    }

    pub fn from_code(c: char) -> Seat {
        match c {
            '0' => Seat::Idle,
            'e' => Seat::Computer(BotLevel::Easy),
            'n' => Seat::Computer(BotLevel::Normal),
            'h' => Seat::Computer(BotLevel::Hard),
            _ => Seat::Human,
        }
    }
}

impl Default for OrdersForm {
    fn default() -> Self {
        OrdersForm {
            map_id: "europe-1901".into(),
            players: 7,
            seats: vec![Seat::Human; 7],
            options: OrdersOptions::default(),
            think: 1,
        }
    }
}

impl OrdersForm {
    pub fn map(&self) -> &'static OrdersMap {
        OrdersMap::get(&self.map_id).unwrap_or_else(OrdersMap::europe)
    }
    /// The powers that play with this form's player count.
    pub fn powers(&self) -> Vec<PowerId> {
        let m = self.map();
        m.powers_for(self.players)
            .unwrap_or_else(|| (0..m.powers.len() as PowerId).collect())
    }
}
