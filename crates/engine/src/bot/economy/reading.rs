//! What the economy's computer players read off the board, and the style that weighs it: the
//! units hostile to a player in a region, the threat next to a country, a player's countries,
//! whether it is boxed in, how many armies its capital keeps. Shared by `normal` and the ways
//! `hard` plays differently (`finish`), which sit above it.

use crate::rules::classic::PlayerId;
use crate::rules::economy::map::{EconomyMap, RegionId};
use crate::rules::economy::state::EconomyState;
use std::collections::BTreeMap;

/// Armies kept at home when attacking from there, beyond which a stack pays upkeep.
pub(super) const GUARD: u32 = 1;
/// MU kept back for next round's upkeep before recruiting beyond the bases.
pub(super) const RESERVE: u32 = 10;
/// MU beyond which it recruits whatever upkeep costs.
pub(super) const RICH: u32 = 100;
/// Rounds after which it attacks players with more armies than they have, not only with more
/// than twice as many, so that games between equals end.
pub(super) const BOLD_AFTER: u32 = 20;

/// Units hostile to `p` in `r`: other players' who are not allies, and neutral armies.
pub(super) fn hostile(s: &EconomyState, p: PlayerId, r: RegionId) -> u32 {
    let x = &s.regions[r as usize];
    let players: u32 = x
        .forces
        .iter()
        .filter(|(&q, _)| !s.friends(p, q))
        .map(|(_, f)| f.units())
        .sum();
    players + x.neutral.units()
}

/// The largest army one hostile player has next to `r` over land or from its coasts: what could
/// attack it next round. Neutral units never attack, so they are no threat.
pub(super) fn threat(s: &EconomyState, map: &EconomyMap, p: PlayerId, r: RegionId) -> u32 {
    let mut by_player: BTreeMap<PlayerId, u32> = BTreeMap::new();
    for &n in map.neighbours(r) {
        for (&q, f) in &s.regions[n as usize].forces {
            if !s.friends(p, q) {
                *by_player.entry(q).or_default() += f.armies;
            }
        }
    }
    by_player.into_values().max().unwrap_or(0)
}

pub(super) fn countries(s: &EconomyState, map: &EconomyMap, p: PlayerId) -> Vec<RegionId> {
    s.owned(p).filter(|&r| !map.is_water(r)).collect()
}

/// Every country next to `p`'s over land that is not passable is another player's capital: no
/// room left to grow by land.
pub(super) fn boxed(s: &EconomyState, map: &EconomyMap, p: PlayerId) -> bool {
    let capitals: Vec<RegionId> = s.players.iter().filter_map(|x| x.capital).collect();
    countries(s, map, p).into_iter().all(|c| {
        map.regions[c as usize]
            .land
            .iter()
            .all(|&n| s.passable(p, n) || capitals.contains(&n))
    })
}

/// How the bot weighs its capital's safety against growth. `normal` plays the default; the
/// `hard` player a bolder one (see [`super::hard`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Style {
    /// From this round on, the capital keeps half the threat next to it and one more, not the
    /// whole threat (see [`capital_guard`]).
    pub guard_after: u32,
    /// Sail as soon as every land front is another player's capital (no room left by land),
    /// the navy bought before armies.
    pub sail_boxed: bool,
    /// Once rich, buy the navies and armies that end the game (see [`super::finish`]).
    pub finish: bool,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            guard_after: BOLD_AFTER,
            sail_boxed: false,
            finish: false,
        }
    }
}

/// Armies kept in the capital. Early on, as many as the largest army one hostile player has
/// next to it, so that an attack on it gets no bonus for numbers while its defenders roll +1
/// (and +1 more behind fortifications). Later (after the style's `guard_after`), half that and
/// one: enough that an attacker never has the +2 of more than twice as many, and the rest free
/// to end a game between equals.
pub(super) fn capital_guard(
    s: &EconomyState,
    map: &EconomyMap,
    p: PlayerId,
    capital: RegionId,
    style: Style,
) -> u32 {
    let t = threat(s, map, p, capital);
    GUARD.max(if s.round > style.guard_after {
        t / 2 + 1
    } else {
        t
    })
}
