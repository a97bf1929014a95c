//! `hard`, the orders ruleset's strongest computer power: a search with the project's own
//! adjudicator over order sets drawn from `normal`'s valuation, after Albert's iterated best
//! response (no learned weights).
//!
//! Movement ([`search`]): every power whose units can meet ours gets a few candidate order
//! sets ([`candidates`]: `normal`'s procedure with a wider choice of alternatives); a few
//! rounds of best response estimate how likely each power is to play each of its sets (every
//! power answers the others' likely sets, as judged by the adjudicator and each power's own
//! place values); our set is the best against the others' likely sets and against every
//! neighbour grabbing the centres next to it, then improved one unit at a time (another move, a
//! hold, a support) against the same sets. Our own place values are
//! [`Values::by_kind`]: spread along each kind's own moves, with a march towards the nearest
//! centre we do not own.
//!
//! Retreats go to the best place, avoiding one another power's dislodged unit could also retreat
//! to (both would be disbanded) when another is nearly as good; builds and disbands take the best
//! and the least valuable places, with no random alternative. Draws: `normal`'s rule
//! ([`super::accepts_draw`]).
//!
//! Integers only, and every choice from the phase's dice (`super::dice_for`), so every peer and
//! the wasm build compute the same orders.

mod candidates;
mod search;

use super::values::Values;
use super::{adjust, retreats};
use crate::dice::Dice;
use crate::rules::orders::map::{PowerId, ProvinceId};
use crate::rules::orders::notation::Written;
use crate::rules::orders::{OrdersState, Phase};

/// How long `hard` thinks: 1 the default; each step up adds candidates, samples and rounds.
#[derive(Clone, Copy, Debug)]
pub(super) struct Effort {
    /// Candidate order sets for our power and for each other power near us.
    pub ours: usize,
    pub theirs: usize,
    /// Rounds of best response.
    pub rounds: usize,
    /// Profiles of the other powers' orders each candidate is judged against.
    pub samples: usize,
    /// Passes of one-unit improvements.
    pub passes: usize,
}

impl Effort {
    fn of(effort: u32) -> Effort {
        let e = effort.clamp(1, 8) as usize;
        Effort {
            ours: 6 + 4 * e,
            theirs: 3 + 2 * e,
            rounds: 2 + 2 * e,
            samples: 2 + e,
            passes: e.min(3),
        }
    }
}

/// `hard`'s orders for `power` in the current phase; `effort` see [`super::orders_thinking`].
pub(super) fn orders(
    s: &OrdersState,
    power: PowerId,
    d: &mut dyn Dice,
    effort: u32,
) -> Vec<Written> {
    match s.phase {
        Phase::Movement => search::movement(s, power, d, Effort::of(effort)),
        Phase::Retreat => {
            let v = Values::by_kind(s, power);
            // Places another power's dislodged unit may also retreat to: a bounce there
            // disbands both units.
            let contested: Vec<ProvinceId> = s
                .dislodged
                .iter()
                .filter(|x| x.piece.power != power)
                .flat_map(|x| s.retreat_choices(x))
                .map(|l| l.province)
                .collect();
            retreats(s, power, d, 0, |k, l| {
                let x = v.of(k, l);
                if contested.contains(&l.province) {
                    x - x.abs() / 2 - 1
                } else {
                    x
                }
            })
        }
        Phase::Adjustment => {
            let v = Values::by_kind(s, power);
            adjust(s, power, d, 0, |k, l| v.of(k, l))
        }
        Phase::GameOver { .. } => vec![],
    }
}
