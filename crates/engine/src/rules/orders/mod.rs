//! The orders ruleset: Diplomacy-style simultaneous orders. Every power writes its orders in
//! secret, all are revealed at once and resolved by one deterministic adjudicator.
//!
//! * [`map`] — province maps (land, sea, coasts, supply centres, home centres, starting units).
//! * [`adjudicator`] — the map-independent movement resolver.
//! * [`notation`] — standard order notation.
//!
//! The phase functions ([`movement`], [`retreats`], [`adjustments`]) are pure and are what the
//! `orbis adjudicate` command and the DATC tests call; [`OrdersState`] strings them into a game
//! (Spring and Fall movement, retreats, centre ownership after Fall, adjustments, victory and
//! draws) with the same clone-and-commit `apply` as the classic ruleset.

pub mod adjudicator;
pub mod map;
mod map_file;
pub mod notation;
pub mod view;

use adjudicator::{Geography, Loc, Order, Outcome, Piece, UnitType};
use map::{OrdersMap, PowerId, ProvinceId, ProvinceKind};
use notation::{Spec, Written};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

mod action;
mod check;
mod game;
mod phases;
mod state;
mod targets;

pub use action::*;
pub use phases::*;
pub use state::*;
pub use targets::OrderKind;
