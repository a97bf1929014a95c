//! The classic ruleset in the browser: its state and messages (`play`), the board, the side
//! panel and the options form.

pub mod board;
pub mod options;
pub mod panel;
pub mod play;
pub mod setup;
