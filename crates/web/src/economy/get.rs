//! The Get phase's panel: upkeep owed and settled, then recruiting and building in the country
//! clicked, and influence cards to trade. Prices, what can be built and what upkeep costs come
//! from the engine (`recruit_cost`, `base_capacity`, `build_options`, `upkeep`); this file words
//! them.

use crate::economy::controls::{act, btn, parse_count, send};
use crate::economy::text::{self, force, region};
use crate::economy::{EMsg, EconomySession, View};
use crate::widgets::glossary::Rules;
use crate::widgets::term::{explain, Term};
use orbis_engine::rules::classic::PlayerId;
use orbis_engine::rules::economy::action::EconomyAction as A;
use orbis_engine::rules::economy::infra::Item;
use orbis_engine::rules::economy::map::EconomyMap;
use orbis_engine::rules::economy::phase::BaseKey;
use web_sys::HtmlInputElement;
use yew::prelude::*;

const ECO: Rules = Rules::Economy;

pub fn get(v: &View, eco: &EconomySession, p: PlayerId) -> Html {
    let g = &eco.game;
    let turn = &g.get[p as usize];
    if !turn.settled {
        let losses = g.plain_settlement(p);
        let lines = turn.owed.iter().map(|u| {
            let lose = losses.iter().find(|(c, _)| *c == u.country).map(|(_, f)| *f);
            html! {
                <li>{format!("{}: {} units, {} MU", region(u.country), u.units, u.due)}
                    if !u.linked { <strong>{" — not linked to your capital: cannot be paid"}</strong> }
                    if let Some(f) = lose { <strong class="loss">{format!(" — you lose {}", force(f))}</strong> }
                </li>
            }
        });
        let due: u32 = turn.owed.iter().map(|u| u.due).sum();
        let income = g.income(EconomyMap::get(), p);
        return html! {
            <div id="upkeep">
                <p>{explain(&format!("Income this round: {}: {}.",
                    text::income(income, g.options.continent_bonuses), text::income_rule(g.options.continent_bonuses)), ECO)}</p>
                if turn.owed.is_empty() {
                    <p>{explain("No upkeep is owed this round.", ECO)}</p>
                } else {
                    <p>{explain(&format!("Upkeep owed: {due} MU."), ECO)}</p>
                    <ul class="owed">{ for lines }</ul>
                }
                { btn(v, "pay-upkeep".into(), "Settle upkeep".into(), A::SettleUpkeep { player: p, losses }) }
            </div>
        };
    }
    html! {
        <div id="get">
            <p>{"Click one of your countries to recruit or build there."}</p>
            { recruit_build(v, eco, p) }
            { cards(v, eco, p) }
            <button class="btn primary" id="finish-get" onclick={act(v, A::FinishGet { player: p })}>{"Done with the Get phase"}</button>
        </div>
    }
}

fn recruit_build(v: &View, eco: &EconomySession, p: PlayerId) -> Html {
    let g = &eco.game;
    let map = EconomyMap::get();
    let Some(c) = eco.ui.sel.filter(|&c| !map.is_water(c)) else {
        return html! {};
    };
    if g.regions[c as usize].owner != Some(p) {
        return html! { <p>{format!("{} is not yours.", region(c))}</p> };
    }
    let mu = g.players[p as usize].mu;
    // The count never asks for more than the player can pay (the engine's figure): a click on a
    // country sets it to one (`EMsg::Click`), and a count left from a recruit the MU no longer
    // cover comes down to what they do.
    let most = g.recruit_max(p, BaseKey::Army(c));
    let n = eco.ui.armies.clamp(1, most.max(1));
    let (army_cost, cheap) = g.recruit_cost(p, BaseKey::Army(c), n);
    // Why the price rises with the count (issue 60): the first units come at the base price,
    // one a round per base, the rest cost more; the figures are the engine's.
    let key = BaseKey::Army(c);
    let left = g.base_capacity(p, key);
    let price = |k: u32| g.recruit_cost(p, key, k).0;
    let dear = price(left + 1) - price(left);
    let why = match (g.regions[c as usize].infra.army_bases, left) {
        (0, _) => format!("No army base here: each army costs {dear} MU (an army base recruits one a round at the base price)."),
        (_, 0) => format!("The base price is used up here this round: each army costs {dear} MU."),
        (_, k) => format!(
            "This round {} at the base price ({} MU each, one per army base here), then {dear} MU each.",
            text::count(k as usize, "army", "armies"),
            price(1)
        ),
    };
    let too_many = format!(
        "You have {mu} MU: that pays for {} here. Type {most} or fewer.",
        text::count(most as usize, "army", "armies")
    );
    let onchange = {
        let d = v.dispatcher();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            let refuse = |m: String| {
                input.set_value(&n.to_string());
                d.dispatch(EMsg::Refuse(m))
            };
            match parse_count(&input.value(), 1) {
                Ok(x) if x <= most => d.dispatch(EMsg::Count(x, 0)),
                Ok(_) => refuse(too_many.clone()),
                Err(m) => refuse(m),
            }
        })
    };
    let recruit = if most == 0 {
        html! { <p class="hint" id="recruit-none"><strong>{format!(
            "You have {mu} MU, and an army here costs {} MU: you cannot recruit here this round.",
            price(1)
        )}</strong>{" Trade influence cards or sell infrastructure for MU, or finish the Get phase."}</p> }
    } else {
        html! {
            <div class="row">
                <label class="field" for="recruit-n"><span>{"Recruit"}</span>
                    <input id="recruit-n" type="number" min="1" max={most.to_string()} value={n.to_string()} {onchange}/></label>
                { btn(v, "recruit-armies".into(), format!("{}: {army_cost} MU ({cheap} at base price)", text::count(n as usize, "army", "armies")),
                    A::Recruit { player: p, country: c, navy_into: None, count: n }) }
            </div>
        }
    };
    let mut rows = vec![
        recruit,
        html! { <p class="hint" id="recruit-price">{explain(&why, ECO)}</p> },
    ];
    for &w in &map.regions[c as usize].shore {
        let (cost, cheap) = g.recruit_cost(p, BaseKey::Navy(c, w), n);
        let id = format!("recruit-navies-{w}");
        let label = format!(
            "{} into {}: {cost} MU ({cheap} at base price)",
            text::count(n as usize, "navy", "navies"),
            region(w)
        );
        // What the player cannot pay for is shown greyed with its price, as builds are.
        rows.push(if n > g.recruit_max(p, BaseKey::Navy(c, w)) {
            html! { <button class="btn" id={id} disabled=true title={format!("You have {mu} MU.")}>{label}</button> }
        } else {
            btn(
                v,
                id,
                label,
                A::Recruit {
                    player: p,
                    country: c,
                    navy_into: Some(w),
                    count: n,
                },
            )
        });
    }
    let infra = &g.regions[c as usize].infra;
    let mut standing = infra.items();
    if g.players[p as usize].capital == Some(c) {
        standing.push(Item::Capital);
    }
    // What the rules let the player build here now (the engine's list: a second army base adds
    // to the first); what the player cannot pay for is shown greyed, with its price.
    let builds = g.build_options(map, p, c).into_iter().map(|i| {
        let id = format!("build-{}", text::item(i).replace(' ', "-"));
        let more = match i {
            Item::ArmyBase if infra.army_bases > 0 => "another army base".to_string(),
            Item::NavyBase { water } if infra.navy_bases.contains(&water) => {
                format!("another navy base on {}", region(water))
            }
            i => text::item(i),
        };
        let label = format!("Build {more} ({} MU)", i.price());
        if i.price() > mu {
            html! { <button class="btn" id={id} disabled=true
            title={format!("You have {mu} MU.")}>{label}</button> }
        } else {
            btn(
                v,
                id,
                label,
                A::Build {
                    player: p,
                    country: c,
                    item: i,
                },
            )
        }
    });
    let built: Vec<String> = standing
        .iter()
        .map(|&i| match i {
            Item::ArmyBase if infra.army_bases > 1 => format!("{} army bases", infra.army_bases),
            i => text::item(i),
        })
        .collect();
    let sells = standing.clone().into_iter().map(|i| {
        btn(
            v,
            format!("sell-{}", text::item(i).replace(' ', "-")),
            format!("Sell {} (+{} MU)", text::item(i), i.refund()),
            A::Destroy {
                player: p,
                country: c,
                item: i,
            },
        )
    });
    html! {
        <div class="country" id="country-panel">
            <h3>{region(c)}</h3>
            { for rows }
            <p class="hint" id="built">{ if built.is_empty() { "Nothing is built here yet.".to_string() } else { format!("Built here: {}.", built.join(", ")) } }</p>
            <div class="choices builds">{ for builds }</div>
            if !built.is_empty() {
                <details><summary>{"Sell infrastructure"}</summary><div class="choices">{ for sells }</div></details>
            }
        </div>
    }
}

fn cards(v: &View, eco: &EconomySession, p: PlayerId) -> Html {
    let g = &eco.game;
    let held = &g.players[p as usize].cards;
    // Dealt face down (online) and not yet read: its shares are still on their way.
    let dealing = g.players[p as usize].sealed.len();
    if !g.options.influence_cards || (held.is_empty() && dealing == 0) {
        return html! {};
    }
    // While the deal itself waits for someone (the note above the panel says who), "a moment"
    // would be a promise the page cannot keep.
    let blocked = eco.online.as_ref().is_some_and(|o| o.dealing.is_some());
    let when = match (blocked, dealing) {
        (false, 1) => "it shows here in a moment",
        (false, _) => "they show here in a moment",
        (true, 1) => "it shows once the deal is whole (see above)",
        (true, _) => "they show once the deal is whole (see above)",
    };
    let dealing = (dealing > 0).then(|| {
        html! { <p class="hint" id="cards-dealing">{match dealing {
            1 => format!("1 more card is being dealt to you face down: {when}."),
            n => format!("{n} more cards are being dealt to you face down: {when}."),
        }}</p> }
    });
    let chosen = &eco.ui.cards;
    let toggles = held.iter().map(|&c| {
        let on = chosen.contains(&c);
        html! { <button class={classes!("btn", "card", on.then_some("on"))} aria-pressed={on.to_string()}
            onclick={send(v, EMsg::Card(c))}>{region(c)}</button> }
    });
    let trade = (chosen.len() == 3).then(|| {
        btn(
            v,
            "trade-cards".into(),
            "Trade these three for 50 MU".into(),
            A::TradeCards {
                player: p,
                cards: [chosen[0], chosen[1], chosen[2]],
            },
        )
    });
    html! {
        <div class="cards" id="cards"><h3><Term id="influence-card" text="Influence cards"/></h3>
            <p class="hint">{explain("Each card names a country. Trade three here for 50 MU, or keep them: in the combat phase one starts a revolution in its country.", ECO)}</p>
            <div class="choices">{ for toggles }</div>{ for dealing }{ for trade }</div>
    }
}
