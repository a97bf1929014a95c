//! The economy ruleset (source 004: money, upkeep, simultaneous plans, initiative, battles and
//! infrastructure), in progress. So far:
//! - [`map`]: its board, the classic countries plus water territories;
//! - [`roll`]: one roll of a battle with its modifiers;
//! - [`initiative`]: the roll for initiative;
//! - [`state`]: the state (ownership, units, infrastructure, money, cards, alliances) with the
//!   Get phase's income and upkeep;
//! - [`phase`]: where a round stands, and each player's progress through the Get phase;
//! - [`action`] and [`error`]: what players do, what the engine reports, why it refuses;
//! - [`game`]: `apply`, the one way the state changes;
//! - [`setup`]: the four setups and the standard start;
//! - [`get`]: the Get phase (ownership, income, upkeep, recruiting, infrastructure, cards);
//! - [`movement`]: how far units go in a round (thirds of a move, roads, canals);
//! - [`plan`]: the planning phase and friendly movement;
//! - [`combat`] and [`battle`]: the combat phase, and one battle in it;
//! - [`withdraw`]: withdrawing from a battle, standing orders to, and interception;
//! - [`end`]: elimination, the last player standing, the round limit and its score.
//!
//! Planning, movement and combat come next (issue 11); until then no game of this ruleset can be
//! started from outside this module.
//!
//! Where the source is unclear, the choices made are listed in `RULES.md` beside this file.

pub mod action;
pub mod battle;
pub mod combat;
pub mod end;
pub mod error;
pub mod game;
pub mod get;
pub mod initiative;
pub mod map;
pub mod map_file;
pub mod movement;
pub mod phase;
pub mod plan;
pub mod roll;
pub mod setup;
pub mod state;
pub mod withdraw;
