//! The Orbis rules engine: pure, deterministic, no I/O.
//!
//! * [`map`] — territories, adjacency, continents (RON data files, validated on load).
//! * [`dice`] — every random draw goes through a [`dice::Dice`] source.
//! * [`codec`] — canonical bincode encoding and SHA-256 state hashes.
//! * [`rules`] — one module per ruleset; [`rules::Game`] dispatches `apply(action)`.
//! * [`odds`] — exact battle odds.
//! * [`bot`] — deterministic computer opponents.
//! * [`sim`] — whole bot games, used by the CLI, benchmarks and determinism checks.
#![forbid(unsafe_code)]

pub mod bot;
pub mod codec;
pub mod course;
pub mod dice;
pub mod map;
mod map_file;
pub mod odds;
pub mod rules;
mod short_sort;
pub mod sim;
pub mod view;

pub use codec::StateHash;
pub use map::{Map, TerritoryId};
pub use rules::classic;
