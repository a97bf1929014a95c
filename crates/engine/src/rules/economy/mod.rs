//! The economy ruleset (source 004: money, upkeep, simultaneous plans, initiative, battles and
//! infrastructure). Data first, then the rules that change it:
//! - data: [`map`] (the board: countries and water territories), [`units`] (forces, kinds of
//!   unit, movement left, planned moves), [`options`] (setup, advanced rules, round limit),
//!   [`infra`] (infrastructure and its prices), [`phase`] (where a round stands, the Get phase's
//!   ledger), [`battlefield`] (what a combat phase holds), [`action`] and [`error`] (what players
//!   do, what the engine reports, why it refuses), [`state`] (the whole game, with income,
//!   upkeep and links to the capital);
//! - rules: [`game`] (`apply`, the one way the state changes, and who acts now), [`setup`] (the
//!   four setups and the standard start), [`get`] (ownership, income, upkeep, recruiting,
//!   infrastructure, cards), [`movement`] (how far units go: thirds of a move, roads, canals),
//!   [`plan`] (planning and friendly movement), [`combat`] (revolutions, initiative, plans carried
//!   out, battle tokens, the end of combat), [`battle`] (declarations and attacks), [`withdraw`]
//!   (withdraws, standing orders, interception), [`sabotage`] (attacks on infrastructure),
//!   [`siege`], [`landing`] (amphibious landings), [`onward`] (moves after a battle), [`revolt`]
//!   (revolutions by influence card), [`blockade`], [`diplomacy`] (alliances, forfeits,
//!   surrender), [`facedown`] (influence cards dealt face down online, with their data in [`sealed`]), [`end`] (elimination, last player standing, round limit), with [`roll`] (one
//!   roll and its modifiers) and [`initiative`]; [`odds`] (exact odds of an attack, a withdraw
//!   or a landing, read by the screens); [`preview`] (where a move may start, and what a planned
//!   move meets: defenders, walls, the odds, for the planning screen); [`check`] reads a state from a save file and
//!   says what is wrong with it.
//!
//! Data modules never import rule modules, so imports only point down (`scripts/check-cycles.py`).
//!
//! Where the source is unclear, the choices made are listed in `RULES.md` beside this file.

pub mod action;
pub mod battle;
pub mod battlefield;
pub mod blockade;
pub mod check;
pub mod combat;
pub mod diplomacy;
pub mod end;
pub mod error;
pub mod facedown;
pub mod game;
pub mod get;
pub mod infra;
pub mod initiative;
pub mod landing;
pub mod map;
pub mod map_file;
pub mod movement;
pub mod odds;
pub mod onward;
pub mod options;
pub mod phase;
pub mod plan;
pub mod preview;
pub mod revolt;
pub mod roll;
pub mod sabotage;
pub mod sealed;
pub mod setup;
pub mod siege;
pub mod state;
pub mod units;
pub mod withdraw;
