//! What the economy's computer players use, counted from their own decisions: how often each
//! tool of the rules (navies, landings, sieges, roads, cards, revolutions, alliances …) is
//! chosen, so `orbis tournament --ruleset economy` can report it per game.

use orbis_engine::rules::economy::action::EconomyAction as A;
use orbis_engine::rules::economy::battlefield::BattleAction;
use orbis_engine::rules::economy::infra::Item;
use orbis_engine::rules::economy::map::EconomyMap;
use std::collections::BTreeMap;

/// Adds what `a` uses to `tally`.
pub fn count(a: &A, tally: &mut BTreeMap<&'static str, u64>) {
    let map = EconomyMap::get();
    let mut add = |k: &'static str, n: u64| {
        if n > 0 {
            *tally.entry(k).or_default() += n;
        }
    };
    match a {
        A::Recruit {
            navy_into, count, ..
        } => add(
            if navy_into.is_some() {
                "navies_recruited"
            } else {
                "armies_recruited"
            },
            u64::from(*count),
        ),
        A::Build { item, .. } => add(
            match item {
                Item::Roads => "roads_built",
                Item::Fortifications => "fortifications_built",
                Item::Canal => "canals_built",
                Item::ArmyBase => "army_bases_built",
                Item::NavyBase { .. } => "navy_bases_built",
                Item::Capital => "capitals_rebuilt",
            },
            1,
        ),
        A::Destroy { .. } => add("infrastructure_sold", 1),
        A::TradeCards { .. } => add("cards_traded", 1),
        A::SubmitPlans { moves, .. } => {
            add("planned_moves", moves.len() as u64);
            let from_sea = moves
                .iter()
                .filter(|m| map.is_water(m.from) && !map.is_water(m.to) && m.armies > 0);
            add("amphibious_attacks", from_sea.count() as u64);
            let naval = moves.iter().filter(|m| m.navies > 0);
            add("naval_moves", naval.count() as u64);
        }
        A::Declare {
            action: Some(b), ..
        } => add(
            match b {
                BattleAction::Attack { .. } => "attacks",
                BattleAction::Withdraw(_) => "withdraws",
                BattleAction::AttackInfrastructure { .. } => "infrastructure_attacks",
                BattleAction::Siege { .. } => "sieges",
                BattleAction::Land { .. } => "landings",
            },
            1,
        ),
        A::IncitRevolution { .. } => add("revolutions_incited", 1),
        A::OfferAlliance { .. } => add("alliance_offers", 1),
        A::BreakAlliance { .. } => add("alliances_broken", 1),
        A::Blockade { .. } => add("blockades", 1),
        A::Forfeit { .. } => add("forfeits", 1),
        A::Surrender { .. } => add("surrenders", 1),
        _ => {}
    }
}
