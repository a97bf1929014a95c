//! The economy's `hard` computer player: `normal`'s rules of thumb, with the three choices that
//! decide most games between `normal` players made better.
//! - Its European capital: the free country with the most room to grow, counted as the countries
//!   within two land borders (Ukraine, then Southern Europe, which opens on the Middle East and
//!   Africa; `normal` takes Northern Europe second, boxed in by three capitals).
//! - Its capital's guard: from round 6, half the largest hostile army next to it and one, the
//!   guard `normal` keeps only after round 20. Until then `normal` keeps the whole threat at
//!   home, so every capital on the crowded European board sits on its armies and nobody grows;
//!   `hard` sends the rest out to take the neutral countries around it while its neighbours
//!   wait. Half the threat and one still denies an attacker the +2 of more than twice as many,
//!   and `normal` attacks a fortified capital only with well over twice its defenders. The
//!   first five rounds it keeps the whole threat, as `normal` does: while capitals hold little
//!   more than their five start armies, an all-out attack (which `easy` makes) would take one
//!   defended by half the threat more often than not.
//! - Boxed in (every land front another player's capital, as for the last to pick, left with
//!   Scandinavia between Northern Europe and Ukraine), it sails at once: a navy base and navies
//!   bought before armies, and spare armies boarding for Great Britain, Iceland and beyond,
//!   where `normal` would wait for money it never has and for land fronts that never open.
//! - It finishes its games (see [`super::finish`]). Once rich (100 MU), where `normal` hoards:
//!   against a player whose last armies stand on water of its own, a navy base on that water
//!   from its own coast, navies into it (they stay there, where only navies could hurt them),
//!   then armies planned in, no more than its navies; against the weakest country a hostile
//!   player owns or stands in (a fortified last capital, a siege), armies recruited around it
//!   until more than twice its defenders can attack that same round. It storms a siege at more
//!   than twice the besieged armies, not three times. Between four `hard` players every game
//!   of the 100 of seed 5 ends by elimination (61 before; four `normal` players: 95).
//!
//! Everything else (the Get phase, plans, friendly movement, combat) is `normal`'s. It is
//! deterministic from the state alone, so every peer computes the same choice.
//!
//! Against three `normal` players (`orbis tournament --ruleset economy --seats
//! hard,normal,normal,normal`, seats rotated) it wins about four games in five: nearly every
//! game from Ukraine, nine in ten from Southern Europe, half from Scandinavia. Rollouts that
//! chose among plan styles with `normal` playing every seat, tried before, won no more than
//! `normal` itself (a quarter).

use super::normal;
use super::reading::Style;
use crate::rules::classic::PlayerId;
use crate::rules::economy::action::{EconomyAction as A, SetupAction};
use crate::rules::economy::map::{EconomyMap, RegionId};
use crate::rules::economy::options::Setup;
use crate::rules::economy::phase::Phase;
use crate::rules::economy::state::EconomyState;
use std::cmp::Reverse;
use std::collections::BTreeSet;

/// The style `hard` plays `normal`'s rules in: the lighter capital guard after five rounds, to
/// sea as soon as it is boxed in, and money spent on finishing the game.
const STYLE: Style = Style {
    guard_after: 5,
    sail_boxed: true,
    finish: true,
};

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

    /// Scandinavia between two other capitals is boxed in; Southern Europe, with the Middle East
    /// free, is not; nor is Scandinavia once Northern Europe is nobody's capital.
    #[test]
    fn scandinavia_between_two_capitals_is_boxed_in() {
        use crate::rules::economy::options::EconomyOptions;
        let map = EconomyMap::get();
        let id = |key: &str| {
            (0..map.countries() as RegionId)
                .find(|&c| map.regions[c as usize].key == key)
                .expect("a European country")
        };
        let mut s = EconomyState::empty(map, &["a", "b", "c", "d"], EconomyOptions::default());
        let seats = [
            "scandinavia",
            "northern_europe",
            "ukraine",
            "southern_europe",
        ];
        for (p, key) in seats.iter().enumerate() {
            s.regions[id(key) as usize].owner = Some(p as PlayerId);
            s.players[p].capital = Some(id(key));
        }
        assert!(super::super::reading::boxed(&s, map, 0));
        assert!(!super::super::reading::boxed(&s, map, 3));
        s.players[1].capital = None;
        assert!(!super::super::reading::boxed(&s, map, 0));
    }
}
