//! The `normal` economy player's less common tools, each a small rule of thumb: alliances while
//! three or more play (never down to the last two, whose game must end), blockades of hostile
//! navy bases, sieges of fortified defenders it cannot yet storm, and landings from contested
//! water.

use crate::rules::classic::PlayerId;
use crate::rules::economy::action::EconomyAction as A;
use crate::rules::economy::battlefield::{BattleAction, Foe, Site};
use crate::rules::economy::map::{EconomyMap, RegionId};
use crate::rules::economy::state::EconomyState;

/// Two players share a border over land.
fn neighbours(s: &EconomyState, map: &EconomyMap, p: PlayerId, q: PlayerId) -> bool {
    (0..map.countries() as RegionId)
        .filter(|&c| s.regions[c as usize].owner == Some(p))
        .any(|c| {
            map.regions[c as usize]
                .land
                .iter()
                .any(|&n| s.regions[n as usize].owner == Some(q))
        })
}

/// Alliances "when they pay", in the Get phase: with three or more players left, accept an
/// offer from (or offer one to) a player who shares no border with it and is not the leader by
/// income, so both can turn on others; break every alliance once only two players are left
/// (allies never fight, so their game could not end) or when the ally has become the leader.
pub(super) fn diplomacy(s: &EconomyState, map: &EconomyMap, p: PlayerId) -> Vec<A> {
    let left: Vec<PlayerId> = s.playing().collect();
    let income = |q: PlayerId| s.income(map, q).total();
    let leader = left.iter().copied().max_by_key(|&q| (income(q), q));
    let mut out = vec![];
    for &q in left.iter().filter(|&&q| q != p) {
        let allied = s.friends(p, q);
        if allied && (left.len() <= 2 || (leader == Some(q) && income(q) > income(p))) {
            out.push(A::BreakAlliance { player: p, with: q });
        }
    }
    if left.len() >= 3 && s.alliances.iter().all(|&(a, b)| a != p && b != p) {
        let fits = |q: PlayerId| q != p && leader != Some(q) && !neighbours(s, map, p, q);
        // An offer waiting for it first, else its own to the most distant fit.
        if let Some(&(q, _)) = s
            .alliance_offers
            .iter()
            .find(|&&(q, to)| to == p && fits(q))
        {
            out.push(A::OfferAlliance { player: p, with: q });
        } else if !s.alliance_offers.iter().any(|&(from, _)| from == p) {
            if let Some(&q) = left.iter().find(|&&q| fits(q)) {
                out.push(A::OfferAlliance { player: p, with: q });
            }
        }
    }
    out
}

/// Blockades of hostile navy bases on water where it has a navy to spare.
pub(super) fn blockades(s: &EconomyState, map: &EconomyMap, p: PlayerId) -> Vec<A> {
    let mut out = vec![];
    for country in 0..map.countries() as RegionId {
        for &water in &s.regions[country as usize].infra.navy_bases {
            let navies = s.units_of(p, water).navies;
            if navies > s.blockading(p, water) {
                out.push(A::Blockade {
                    player: p,
                    country,
                    water,
                });
            }
        }
    }
    out
}

/// In a battle: a siege of fortified defenders too strong to storm (with no more than `storm`
/// times their armies; it cuts them from their capital, so their upkeep goes unpaid), kept up
/// by declaring nothing else unless its own armies there are besieged and more than upkeep
/// spares (then it fights on, see the caller); or a landing from
/// contested water onto a weakly held or friendly coast.
pub(super) fn battle_choice(
    s: &EconomyState,
    map: &EconomyMap,
    p: PlayerId,
    site: Site,
    storm: u32,
) -> Option<Option<BattleAction>> {
    let mine = s.site_force(site, Foe::Player(p));
    if let Site::Region(r) = site {
        let besieging: Vec<PlayerId> = s.regions[r as usize]
            .sieges
            .iter()
            .filter(|&&(a, _)| a == p)
            .map(|&(_, b)| b)
            .collect();
        let strong = |q: PlayerId| mine.armies > storm * s.site_force(site, Foe::Player(q)).armies;
        // Besieged itself, its armies there beyond the upkeep-free ones are lost next round
        // (their upkeep cannot be paid): waiting only bleeds them, so it storms instead.
        let free = if s.players[p as usize].capital == Some(r) {
            10
        } else {
            5
        };
        let bleeding = s.besieged_for(p, r) && mine.units() > free;
        if besieging.iter().any(|&q| !strong(q)) && !bleeding {
            // Keep the siege: any other action would end it.
            return Some(None);
        }
        if let Some(q) = s
            .siege_targets(site, p)
            .into_iter()
            .find(|&q| !strong(q) && mine.armies > 0 && !bleeding)
        {
            return Some(Some(BattleAction::Siege { target: q }));
        }
    }
    let hostile = |c: RegionId| -> u32 {
        let x = &s.regions[c as usize];
        x.forces
            .iter()
            .filter(|(&q, _)| !s.friends(p, q))
            .map(|(_, f)| f.armies)
            .sum::<u32>()
            + x.neutral.armies
    };
    let theirs_at_sea: u32 = (0..s.players.len() as PlayerId)
        .filter(|&q| !s.friends(p, q))
        .map(|q| s.site_force(site, Foe::Player(q)).navies)
        .sum();
    let landing = s
        .landing_options(map, site, p)
        .into_iter()
        .filter(|&(c, n)| s.friendly(p, c) || 2 * hostile(c) < n)
        .min_by_key(|&(c, _)| (hostile(c), c));
    landing.map(|(to, armies)| {
        Some(BattleAction::Land {
            armies,
            to,
            navies_engaged: mine.navies > theirs_at_sea,
        })
    })
}
