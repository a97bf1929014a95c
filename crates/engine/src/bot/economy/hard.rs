//! The economy's `hard` computer player: `normal`'s rules of thumb, with the two choices that
//! decide most games between `normal` players made better.
//! - Its European capital: the free country with the most room to grow, counted as the countries
//!   within two land borders (Ukraine, then Southern Europe, which opens on the Middle East and
//!   Africa; `normal` takes Northern Europe second, boxed in by three capitals).
//! - Its capital's guard: from the first round, half the largest hostile army next to it and
//!   one, the guard `normal` keeps only after round 20. Until then `normal` keeps the whole
//!   threat at home, so every capital on the crowded European board sits on its armies and
//!   nobody grows; `hard` sends the rest out to take the neutral countries around it while
//!   its neighbours wait. Half the threat and one still denies an attacker the +2 of more than
//!   twice as many, and `normal` attacks a fortified capital only with well over twice its
//!   defenders.
//!
//! Everything else (the Get phase, friendly movement, combat) is `normal`'s. It is deterministic
//! from the state alone, so every peer computes the same choice.
//!
//! Measured against three `normal` players (`orbis tournament --ruleset economy --seats
//! hard,normal,normal,normal`), `hard` wins about two games in three; rollouts that chose
//! among plan styles with `normal` playing every seat won no more.

use super::normal::{self, Style};
use crate::rules::classic::PlayerId;
use crate::rules::economy::action::{EconomyAction as A, SetupAction};
use crate::rules::economy::map::{EconomyMap, RegionId};
use crate::rules::economy::options::Setup;
use crate::rules::economy::phase::Phase;
use crate::rules::economy::state::EconomyState;
use std::cmp::Reverse;
use std::collections::BTreeSet;

/// The style `hard` plays `normal`'s rules in: the lighter capital guard from the start.
const STYLE: Style = Style { guard_after: 0 };

/// What seat `p`'s hard bot does now, if it has anything to do.
pub(super) fn hard(s: &EconomyState, p: PlayerId) -> Option<A> {
    if matches!(s.phase, Phase::Pick(_))
        && s.options.setup == Setup::EuropeanCapitals
        && s.to_act().contains(&p)
    {
        let map = EconomyMap::get();
        let c = s
            .choices(map)
            .into_iter()
            .map(|c| c as RegionId)
            .max_by_key(|&c| (room(map, c), map.regions[c as usize].land.len(), Reverse(c)))?;
        return Some(A::Setup {
            player: p,
            choice: SetupAction::Country(c),
        });
    }
    normal::normal_with(s, p, STYLE)
}

/// Countries within two land borders of `c`: where a capital there can grow before it meets
/// anyone.
fn room(map: &EconomyMap, c: RegionId) -> usize {
    let mut near = BTreeSet::new();
    for &n in &map.regions[c as usize].land {
        near.insert(n);
        near.extend(map.regions[n as usize].land.iter().copied());
    }
    near.remove(&c);
    near.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rooms the top comment promises: Ukraine, then Southern Europe, then Northern Europe.
    #[test]
    fn ukraine_then_southern_europe_have_the_most_room() {
        let map = EconomyMap::get();
        let id = |key: &str| {
            (0..map.countries() as RegionId)
                .find(|&c| map.regions[c as usize].key == key)
                .expect("a European country")
        };
        let rooms = [
            "ukraine",
            "southern_europe",
            "northern_europe",
            "scandinavia",
        ]
        .map(|k| room(map, id(k)));
        assert_eq!(rooms, [12, 10, 7, 7]);
    }
}
