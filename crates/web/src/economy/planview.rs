//! What a planned move meets, in words (issue 60): who defends its target and with how many,
//! its walls, capital and bases, and the chance that the units planned there take it, beside
//! each planned move and, while a move's start is picked, for every region it may go to. All of
//! it comes from the engine (`EconomyState::plan_preview`); this module only words it.

use crate::economy::text::{self, force, region};
use crate::economy::{EMsg, EconomySession, View};
use crate::widgets::glossary::Rules;
use crate::widgets::pct;
use crate::widgets::term::explain;
use orbis_engine::rules::classic::PlayerId;
use orbis_engine::rules::economy::battlefield::Foe;
use orbis_engine::rules::economy::map::{EconomyMap, RegionId};
use orbis_engine::rules::economy::preview::TargetPreview;
use orbis_engine::rules::economy::units::{Kind, PlannedMove};
use yew::prelude::*;

const ECO: Rules = Rules::Economy;

/// Whose units: "Cleo's", "your", "neutral".
fn whose(eco: &EconomySession, p: PlayerId, foe: Foe) -> String {
    match foe {
        Foe::Player(q) if q == p => "your".into(),
        Foe::Player(q) => format!("{}'s", eco.name(q)),
        Foe::Neutral => "neutral".into(),
    }
}

/// Who defends the target, behind what: "Cleo's 7 armies defend it behind walls (…), Cleo's
/// capital, 2 army bases."
pub fn defence(eco: &EconomySession, p: PlayerId, pv: &TargetPreview) -> String {
    let mut s = if pv.defenders.is_empty() {
        match pv.owner {
            Some(q) if q != p && !eco.game.friends(p, q) => {
                format!("{}'s, but nobody defends it", eco.name(q))
            }
            _ => "Nobody defends it".to_string(),
        }
    } else {
        let who: Vec<String> = pv
            .defenders
            .iter()
            .map(|&(foe, f)| format!("{} {}", whose(eco, p, foe), force(f)))
            .collect();
        let n: u32 = pv.defenders.iter().map(|(_, f)| f.units()).sum();
        format!(
            "{} {} it",
            text::cap(&who.join(" and ")),
            if n == 1 { "defends" } else { "defend" }
        )
    };
    if pv.walls {
        s.push_str(" behind walls (fortifications: +1 to every defender's roll)");
    }
    let mut extra = vec![];
    if let Some(q) = pv.capital_of {
        extra.push(if q == p {
            "your capital".to_string()
        } else {
            format!("{}'s capital", eco.name(q))
        });
    }
    if pv.army_bases > 0 {
        extra.push(text::count(
            pv.army_bases as usize,
            "army base",
            "army bases",
        ));
    }
    if pv.navy_bases > 0 {
        extra.push(text::count(
            pv.navy_bases as usize,
            "navy base",
            "navy bases",
        ));
    }
    if !extra.is_empty() {
        s.push_str("; ");
        s.push_str(&extra.join(", "));
    }
    s.push('.');
    s
}

/// The chance the planned units take the target: "Your 5 armies: 3.1% to take it (you can
/// expect to lose about 5)." Empty when there is nobody to fight.
pub fn chance(pv: &TargetPreview) -> String {
    let Some(f) = &pv.fight else {
        return if pv.defenders.is_empty() {
            "Your units walk in, if nobody else comes.".into()
        } else {
            String::new()
        };
    };
    let kind = |n: u32| match f.kind {
        Kind::Army => text::count(n as usize, "army", "armies"),
        Kind::Navy => text::count(n as usize, "navy", "navies"),
    };
    let what = if pv.defenders.len() == 1 {
        "to take it".to_string()
    } else {
        "to beat the first of them".to_string()
    };
    format!(
        "Your {}: {} {what} (you can expect to lose {}).",
        kind(f.attackers),
        pct(f.win),
        crate::economy::battle_odds::about(f.lost.0)
    )
}

/// The words beside a planned move: its target's defence and the chance.
pub fn beside(eco: &EconomySession, p: PlayerId, draft: &[PlannedMove], to: RegionId) -> Html {
    let pv = eco.game.plan_preview(EconomyMap::get(), p, draft, to);
    let odds = chance(&pv);
    let low = pv.fight.as_ref().is_some_and(|f| f.win < 0.5);
    html! {
        <span class="plan-odds" data-to={to.to_string()}>
            {explain(&defence(eco, p, &pv), ECO)}{" "}
            if !odds.is_empty() {
                <strong class={classes!(low.then_some("low"))}>{odds}</strong>
            }
        </span>
    }
}

/// While a move's start is picked: every region its units may go to, each with what it would
/// meet with every unit that can go, as a button that plans the move (as a click on the map).
pub fn targets(v: &View, eco: &EconomySession, p: PlayerId, from: RegionId) -> Html {
    let map = EconomyMap::get();
    let g = &eco.game;
    let draft = eco.ui.drafts.get(&p).cloned().unwrap_or_default();
    let rows = g.destinations(map, p, from).into_iter().map(|to| {
        let f = g.move_default(map, p, from, to, &draft);
        let mut with = draft.clone();
        if f.units() > 0 {
            with.push(PlannedMove {
                from,
                to,
                armies: f.armies,
                navies: f.navies,
            });
        }
        let pv = g.plan_preview(map, p, &with, to);
        let d = v.dispatcher();
        let key = &map.regions[to as usize].key;
        html! {
            <li>
                <button class="btn small" id={format!("target-{key}")}
                    onclick={Callback::from(move |_: MouseEvent| d.dispatch(EMsg::Click(to)))}>
                    {format!("{} ({})", region(to), force(f))}</button>
                {" "}<span class="plan-odds">{explain(&defence(eco, p, &pv), ECO)}{" "}
                    <strong class={classes!(pv.fight.as_ref().is_some_and(|f| f.win < 0.5).then_some("low"))}>{chance(&pv)}</strong></span>
            </li>
        }
    });
    html! {
        <ul class="targets" id="targets">{ for rows }</ul>
    }
}
