//! The economy ruleset (source 004: money, upkeep, simultaneous plans, initiative, battles and
//! infrastructure), in progress: so far its board, [`map`], the classic countries plus water
//! territories; one roll of a battle with its modifiers, [`roll`]; and the roll for
//! [`initiative`]. Its state, actions and phases come next (issue 11); until then no game of this
//! ruleset can be started, and nothing outside this module uses it.
//!
//! Where the source is unclear, the choices made are listed in `RULES.md` beside this file.

pub mod initiative;
pub mod map;
pub mod map_file;
pub mod roll;
