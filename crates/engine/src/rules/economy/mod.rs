//! The economy ruleset (source 004: money, upkeep, simultaneous plans, initiative, battles and
//! infrastructure), in progress. So far:
//! - [`map`]: its board, the classic countries plus water territories;
//! - [`roll`]: one roll of a battle with its modifiers;
//! - [`initiative`]: the roll for initiative;
//! - [`state`]: the state as far as it goes (ownership, units, infrastructure, money, alliances)
//!   with the Get phase's income and upkeep.
//!
//! Its actions and phases come next (issue 11); until then no game of this ruleset can be
//! started, and nothing outside this module uses it.
//!
//! Where the source is unclear, the choices made are listed in `RULES.md` beside this file.

pub mod initiative;
pub mod map;
pub mod map_file;
pub mod roll;
pub mod state;
