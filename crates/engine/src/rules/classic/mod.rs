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

mod action;
mod battle;
mod check;
mod end;
mod game;
mod options;
mod query;
mod sealed;
mod setup;
mod state;
mod turn;

pub use action::*;
pub use battle::{battle_losses, highest_first};
pub use end::mission_cards;
pub use options::*;
pub use sealed::*;
pub use state::*;
