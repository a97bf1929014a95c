//! The classic ruleset in the browser: the board, the side panel and the options form.

pub mod board;
pub mod options;
pub mod panel;
