//! Influence cards dealt face down.
use super::*;
