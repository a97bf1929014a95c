//! The engine's integration tests, one binary, each module one concern. One binary rather than
//! one per file: linking 19 of them cost CI time (issue 63).

#[path = "../classic_common/mod.rs"]
mod classic_common;
#[path = "../datc_support/mod.rs"]
mod datc_support;
#[path = "../orders_random/mod.rs"]
mod orders_random;

mod classic_options;
mod classic_rules;
mod classic_sealed;
mod datc;
mod datc_fj;
mod economy_properties;
mod economy_saves;
mod golden_hashes;
mod lean_decode;
mod old_saves;
mod orders_bots;
mod orders_differential;
mod orders_facing;
mod orders_game;
mod orders_invariants;
mod orders_source;
mod orders_territory;
mod properties;
mod sim;
