//! The combat phase's prompts: who holds initiative and which battle it picks, who may declare
//! what (attacks, withdraws, landings, sieges, attacks on infrastructure), interceptions, the
//! holder's choice of whose action goes first, moving on after the battles, stolen cards,
//! revolutions, and blockades (open in every phase). Every option is one the engine lists.

use crate::economy::battle_odds;
use crate::economy::controls::{act, btn, move_picker, parse_count};
use crate::economy::text::{self, region};
use crate::economy::{EMsg, EconomySession, View};
use crate::widgets::glossary::Rules;
use crate::widgets::term::{explain, Term};
use orbis_engine::rules::classic::PlayerId;
use orbis_engine::rules::economy::action::EconomyAction as A;
use orbis_engine::rules::economy::battlefield::{
    BattleAction, Foe, Intercepted, Site, WithdrawOrder,
};
use orbis_engine::rules::economy::map::{EconomyMap, RegionId};
use orbis_engine::rules::economy::phase::Phase;
use yew::prelude::*;

const ECO: Rules = Rules::Economy;

pub fn combat(v: &View, eco: &EconomySession, p: PlayerId) -> Html {
    let g = &eco.game;
    let map = EconomyMap::get();
    let Some(c) = &g.combat else { return html! {} };
    let last = eco
        .ui
        .last_roll
        .as_ref()
        .map(|r| html! { <p class="roll" id="last-roll">{r}</p> });
    let holder = eco.name(c.holder).to_string();
    if !c.steals.is_empty() {
        let victims = g.steal_victims(p).into_iter().map(|q| {
            btn(
                v,
                format!("steal-{q}"),
                format!("Steal from {}", eco.name(q)),
                A::StealCard { player: p, from: q },
            )
        });
        return html! { <div id="steal"><p>{"You are owed an influence card and none is left to draw: steal one."}</p>
        <div class="choices">{ for victims }</div></div> };
    }
    let Some(b) = &c.battle else {
        if c.tokens.is_empty() {
            let mv = eco.picked_move().map(|(from, to, force)| A::MoveOn {
                player: p,
                from,
                to,
                force,
            });
            let movable: Vec<String> = g.movable(map, p).into_iter().map(region).collect();
            // A player with nothing to move is asked only because they hold an influence card.
            let cards = g.options.influence_cards && g.cards_held(p) > 0;
            return html! {
                <div id="move-on">
                    if movable.is_empty() {
                        <p>{explain("No battle is left. You may still incite a revolution with an influence card, or press Done to end the combat phase.", ECO)}</p>
                    } else {
                        <p>{"The battles are over. Units with movement left may move on."}</p>
                        <p>{format!("Units that can move: {}.", movable.join(", "))}</p>
                        if cards { <p>{explain("You may also incite a revolution with an influence card.", ECO)}</p> }
                        { move_picker(v, eco, "Move on") }
                    }
                    if let Some(a) = mv { { btn(v, "move-on-go".into(), "Move on".into(), a) } }
                    <button class="btn primary" id="stop-moving" onclick={act(v, A::StopMoving { player: p })}>{"Done"}</button>
                </div>
            };
        }
        let sites = c.tokens.iter().map(|&s| {
            let id = match s {
                Site::Region(r) => format!("battle-{}", map.regions[r as usize].key),
                Site::Border(a, b2) => format!(
                    "battle-{}-{}",
                    map.regions[a as usize].key, map.regions[b2 as usize].key
                ),
            };
            btn(
                v,
                id,
                format!("Fight at {}", text::site(s)),
                A::PickBattle { player: p, site: s },
            )
        });
        return html! {
            <div id="pick-battle">{ for last }
                <p>{explain("You hold the initiative: pick the next battle.", ECO)}</p>
                <div class="choices">{ for sites }</div>
            </div>
        };
    };
    let title = html! { <>
        <h3 id="battle-site">{format!("Battle at {}", text::site(b.site))}</h3>
        { forces(eco, b.site) }
    </> };
    if let Some(w) = &b.pending {
        return html! {
            <div id="intercept">{ title }{ for last }
                <p>{explain(&format!("{}: {}. Intercept?", eco.name(w.player), text::intercepted(g, &w.what)), ECO)}</p>
                <p class="hint">{ match w.what {
                    Intercepted::Landing { navies_engaged: false, .. } =>
                        "Your navies roll against each landing army; without its navies engaged, a landing cannot sink them.",
                    _ => "An interception counts as an attack: your units roll against theirs one by one, and a roll yours loses costs you that unit.",
                } }</p>
                { battle_odds::escape(g, b.site, w.player, &w.what, p) }
                { btn(v, "intercept-yes".into(), "Intercept".into(), A::Intercept { player: p, yes: true }) }
                { btn(v, "intercept-no".into(), "Let them go".into(), A::Intercept { player: p, yes: false }) }
            </div>
        };
    }
    if g.waiting_for_choice() {
        let actors = b
            .declared
            .iter()
            .filter_map(|(&q, a)| a.as_ref().map(|a| (q, *a)))
            .map(|(q, a)| {
                btn(
                    v,
                    format!("choose-{q}"),
                    format!("{}: {}", eco.name(q), text::action(g, &a)),
                    A::ChooseAction {
                        player: p,
                        actor: q,
                    },
                )
            });
        return html! {
            <div id="choose-action">{ title }{ for last }
                <p>{explain("You hold the initiative: choose whose action resolves first.", ECO)}</p>
                <p class="hint" id="choose-why">{"Several players declared an action in this battle at the same moment. The one you pick is carried out first (its rolls, its withdraw); striking first often decides a battle, so pick your own unless another's helps you."}</p>
                <div class="choices">{ for actors }</div>
            </div>
        };
    }
    // Declarations: attacks, withdraws, landings, sieges, attacks on infrastructure.
    let mut options: Vec<BattleAction> = g.possible_actions(b.site, p);
    let ways = g.withdraw_options(map, b.site, p);
    for &(to, f) in &ways {
        options.push(BattleAction::Withdraw(WithdrawOrder {
            burn_roads: eco.ui.burn && f.armies > 0,
            stay: eco.ui.stay,
            ..WithdrawOrder::to(to, f)
        }));
    }
    for (to, armies) in g.landing_options(map, b.site, p) {
        options.push(BattleAction::Land {
            armies,
            to,
            navies_engaged: false,
        });
        if g.site_force(b.site, Foe::Player(p)).navies > 0 {
            options.push(BattleAction::Land {
                armies,
                to,
                navies_engaged: true,
            });
        }
    }
    options.extend(
        g.siege_targets(b.site, p)
            .into_iter()
            .map(|target| BattleAction::Siege { target }),
    );
    options.extend(
        g.infrastructure_targets(b.site, p)
            .into_iter()
            .map(|item| BattleAction::AttackInfrastructure { item }),
    );
    let under_way = g.assault(b.site);
    // The attack under way in one short line (the class is read by the browser tests); what
    // may happen between rolls is what the buttons below offer.
    let assault = under_way.map(|a| {
        let them = match a.target {
            Foe::Player(q) if q == p => "your".to_string(),
            Foe::Player(q) => format!("{}'s", eco.name(q)),
            Foe::Neutral => "the neutral".to_string(),
        };
        let k = text::kind(a.kind);
        match a.attacker == p {
            true => format!("You are attacking {them} {k}."),
            false => format!("{} is attacking {them} {k}.", eco.name(a.attacker)),
        }
    });
    // The attack under way, fought on from here, as the player asked sees it.
    let going = under_way.map(|a| {
        battle_odds::attack(
            g,
            b.site,
            a.attacker,
            a.target,
            a.kind,
            p,
            "odds-going".into(),
        )
    });
    // Infrastructure in one's own country is destroyed, not attacked (a defender that survives
    // any interception destroys it without rolling a 6).
    let own = matches!(b.site, Site::Region(r) if g.regions[r as usize].owner == Some(p));
    // At one device an attack may be declared and rolled on at once (`EMsg::AttackToEnd`);
    // online each roll is a round among the players' pages.
    let to_end = eco.online.is_none();
    let mut attacks = vec![];
    let mut withdraws = vec![];
    let mut others = vec![];
    for (i, a) in options.iter().enumerate() {
        let label = match a {
            BattleAction::AttackInfrastructure { item } if own => {
                format!("Destroy your own {}", text::item_bare(*item))
            }
            _ => text::action(g, a),
        };
        let declare = A::Declare {
            player: p,
            action: Some(*a),
        };
        // Each choice with what it costs: an attack's odds, a withdraw's or landing's price if
        // intercepted, what a siege or an attack on a building does.
        match *a {
            BattleAction::Attack { target, kind } => {
                let once = btn(
                    v,
                    format!("declare-{i}"),
                    if to_end { "One roll".into() } else { label.clone() },
                    declare.clone(),
                );
                let end = to_end.then(|| {
                    let d = v.dispatcher();
                    let act = declare;
                    // The main action, unless an attack is under way: then rolling it on is.
                    let class = classes!("btn", under_way.is_none().then_some("primary"));
                    html! { <button class={class} id={format!("declare-{i}-end")}
                        aria-label={format!("{label}, rolling to the end")}
                        onclick={Callback::from(move |_: MouseEvent| d.dispatch(EMsg::AttackToEnd(act.clone())))}>
                        {"Roll to the end"}</button> }
                });
                attacks.push(html! {
                    <div class="attack-choice">
                        if to_end { <span class="attack-label">{format!("{label}:")}</span> }
                        { for end }{ once }
                        { battle_odds::attack(g, b.site, p, target, kind, p, format!("odds-{i}")) }</div>
                });
            }
            BattleAction::Withdraw(w) => withdraws.push(html! {
                <div class="choice">{ btn(v, format!("declare-{i}"), label, declare) }
                    { battle_odds::escape(g, b.site, p, &Intercepted::Withdraw(w), p) }</div>
            }),
            BattleAction::Land { armies, to, navies_engaged } => withdraws.push(html! {
                <div class="choice">{ btn(v, format!("declare-{i}"), label, declare) }{ battle_odds::escape(g, b.site, p,
                    &Intercepted::Landing { armies, to, navies_engaged }, p) }</div>
            }),
            BattleAction::Siege { target } => others.push(html! {
                <div class="choice">{ btn(v, format!("declare-{i}"), label, declare) }<p class="hint">{explain(&format!(
                    "No dice: {0}'s units stay behind their walls, but while besieged they cannot \
                     pay their upkeep or withdraw until they attack out, and then without their \
                     defender and fortification bonuses. You cannot use these fortifications \
                     yourself meanwhile.", eco.name(target)), ECO)}</p></div>
            }),
            BattleAction::AttackInfrastructure { item } => others.push(html! {
                <div class="choice">{ btn(v, format!("declare-{i}"), label, declare) }<p class="hint">{
                    if own {
                        "Your own: gone at once, unless an enemy here intercepts and wins.".to_string()
                    } else {
                        format!("One of your armies tries to knock down the {}: each enemy here may \
                            intercept it first (it rolls −1 and dies if it loses or ties); if it \
                            survives, a 6 destroys them.", text::item_bare(item))
                    }
                }</p></div>
            }),
        }
    }
    // Rolling on without a click per roll (one engine action per roll all the same; online,
    // one pass sent per roll, as the Pass button sends it).
    let roll_on = (under_way.is_some() && eco.ui.rolling.is_none())
        .then(|| roll_on(v, p, eco.online.is_some()));
    let note = eco
        .ui
        .roll_note
        .as_ref()
        .filter(|(round, at, _)| (*round, *at) == (g.round, b.site))
        .map(|(_, _, n)| html! { <p class="roll-note" id="roll-note" role="status">{n}</p> });
    let declared: Vec<String> = b
        .declared
        .keys()
        .map(|&q| eco.name(q).to_string())
        .collect();
    // Burning the roads and staying change every withdraw button's action: set once, folded
    // away with what they mean (most withdraws need neither).
    let flags = (!ways.is_empty()).then(|| {
        let (burn, stay) = (eco.ui.burn, eco.ui.stay);
        let d = v.dispatcher();
        let d2 = v.dispatcher();
        html! {
            <details class="withdraw-flags" id="withdraw-flags" open={burn || stay}>
                <summary>{"Withdraw options"}</summary>
                <label class="check" for="w-burn"><input type="checkbox" id="w-burn" checked={burn}
                    onchange={Callback::from(move |_: Event| d.dispatch(EMsg::WithdrawFlags(!burn, stay)))}/>
                    {"Withdrawing armies "}<Term id="burn" text="burn the roads"/></label>
                <p class="hint">{"Each army leaving for a country with roads rolls a die: a 6 destroys the roads of the country left behind, so the enemy cannot use them."}</p>
                <label class="check" for="w-stay"><input type="checkbox" id="w-stay" checked={stay}
                    onchange={Callback::from(move |_: Event| d2.dispatch(EMsg::WithdrawFlags(burn, !stay)))}/>
                    <Term id="stay" text="Stay after the interception"/></label>
                <p class="hint">{"The units that survive being intercepted stay in this battle instead of leaving."}</p>
            </details>
        }
    });
    // Sieges and attacks on buildings: named in the summary, explained inside.
    let more = (!others.is_empty()).then(|| {
        let named: Vec<String> = options
            .iter()
            .filter(|a| {
                matches!(
                    a,
                    BattleAction::Siege { .. } | BattleAction::AttackInfrastructure { .. }
                )
            })
            .map(|a| match a {
                BattleAction::AttackInfrastructure { item } if own => {
                    format!("destroy your own {}", text::item_bare(*item))
                }
                a => {
                    let t = text::action(g, a);
                    t[..1].to_lowercase() + &t[1..]
                }
            })
            .collect();
        html! { <details class="more-choices" id="more-choices">
        <summary>{format!("Or: {}", named.join(", "))}</summary>
        <div class="choices">{ for others }</div></details> }
    });
    let pass = match under_way {
        Some(a) if a.attacker == p => "Roll once more",
        Some(_) => "Pass: it rolls once more",
        None => "No action",
    };
    html! {
        <div id="declare">{ title }{ for last }
            if let Some(a) = assault { <p class="assault">{a}</p> }
            { for going }
            { for note }
            { for roll_on }
            <div class="choices attack-choices">{ for attacks }</div>
            <div class="choices">{ for withdraws }</div>
            { for flags }
            { for more }
            <div class="choices">
                <button class="btn" id="declare-none" onclick={act(v, A::Declare { player: p, action: None })}>{pass}</button>
            </div>
            <details class="battle-more" id="battle-more"><summary>{"About this battle"}</summary>
                <p class="hint">{explain(&format!("{holder} holds the initiative: when two players declare at once, {holder} picks whose action goes first."), ECO)}</p>
                if !declared.is_empty() { <p class="hint">{format!("Declared so far: {}.", declared.join(", "))}</p> }
                <p class="hint">{explain("An attack goes one roll at a time; after each roll its defender may interrupt with an attack of their own and anyone may withdraw.", ECO)}</p>
            </details>
        </div>
    }
}

/// Who fights at `site` and with what: each player's units, which of them defend the country
/// (there since planning) and whether behind fortifications or besieged, and what each side has
/// lost in this battle so far (`outcome`), so a roll's result shows in the list itself.
fn forces(eco: &EconomySession, site: Site) -> Html {
    let g = &eco.game;
    let region = match site {
        Site::Region(r) => Some(r),
        Site::Border(..) => None,
    };
    let lost = |f: Foe| {
        eco.ui
            .losses
            .of(g.round, site, f)
            .map_or(String::new(), |n| format!(", lost {n}"))
    };
    // "defending (+1) behind fortifications (+1)": the two bonuses a defender adds to every roll.
    let defends = |q: Option<PlayerId>, all: bool, some: String| -> Html {
        let walls = region.is_some_and(|r| q.map_or(g.fortified(r), |q| g.fortified_for(q, r)));
        let besieged = region.is_some_and(|r| q.is_some_and(|q| g.besieged_for(q, r)));
        html! { <>
            {if all { ", ".to_string() } else { format!(", {some} ") }}<Term id="defending" text="defending"/>{" (+1)"}
            if walls { {" behind "}<Term id="fortifications" text="fortifications"/>{" (+1)"} }
            if besieged { {", "}<Term id="besiege" text="besieged"/> }
        </> }
    };
    let mut rows: Vec<Html> = (0..g.players.len() as PlayerId)
        .filter_map(|q| {
            let f = g.site_force(site, Foe::Player(q));
            (f.units() > 0).then(|| {
                let defending = region.map(|r| g.defenders(q, r)).unwrap_or_default();
                let you = match eco.actor() == Some(q) {
                    true => text::you_after(eco.name(q)),
                    false => "",
                };
                // One span after the swatch: the list's rows lay out their children in a row.
                html! { <li><span class="swatch" style={format!("background:{}", crate::economy::colour(q))}></span>
                    <span>{format!("{}{you}: {}", eco.name(q), text::force(f))}
                    if defending.units() > 0 {
                        { defends(Some(q), defending.units() == f.units(), text::force(defending)) }
                    }
                    {lost(Foe::Player(q))}</span></li> }
            })
        })
        .collect();
    let neutral = g.site_force(site, Foe::Neutral);
    if neutral.units() > 0 {
        rows.push(
            html! { <li><span>{format!("Neutrals: {}", text::force(neutral))}
            { defends(None, true, String::new()) }{lost(Foe::Neutral)}</span></li> },
        );
    }
    html! { <ul class="forces" id="battle-forces">{ for rows }</ul> }
}

/// *"At any point during the combat phase you can turn in one influence card to incite a
/// revolution"*: whatever the combat prompt is and whoever it waits for (a computer included),
/// every human at this device who holds a card may (online: this page's own player, when the
/// game waits on it). Not while an interception is being answered (the engine refuses it then).
pub fn revolutions_at_hand(v: &View, eco: &EconomySession, actor: Option<PlayerId>) -> Html {
    let g = &eco.game;
    if !g.options.influence_cards || g.phase != Phase::Combat || g.interception_underway() {
        return html! {};
    }
    let holders: Vec<PlayerId> = if eco.online.is_some() {
        actor.into_iter().collect()
    } else {
        (0..g.players.len() as PlayerId)
            .filter(|&q| eco.seats.get(q as usize) == Some(&crate::economy::Seat::Human))
            .collect()
    };
    let shown = holders
        .into_iter()
        .filter(|&q| !g.players[q as usize].cards.is_empty())
        .map(|q| revolutions(v, eco, q));
    html! { <>{ for shown }</> }
}

/// One player's influence cards as revolutions to incite.
fn revolutions(v: &View, eco: &EconomySession, p: PlayerId) -> Html {
    let g = &eco.game;
    let buttons = g.players[p as usize].cards.iter().flat_map(|&c| {
        let rs = &g.regions[c as usize];
        let mut targets: Vec<Option<Foe>> = rs
            .forces
            .keys()
            .filter(|&&q| !g.friends(p, q))
            .map(|&q| Some(Foe::Player(q)))
            .collect();
        if rs.neutral.armies > 0 {
            targets.push(Some(Foe::Neutral));
        }
        if targets.is_empty() {
            targets.push(None);
        }
        targets.into_iter().map(move |t| {
            let label = match t {
                Some(f) => format!(
                    "Incite a revolution in {} against {}",
                    region(c),
                    text::foe(g, f)
                ),
                None => format!("Incite a revolution in {}", region(c)),
            };
            // One button per target: the country's key and whom the revolution strikes.
            let whom = match t {
                Some(Foe::Player(q)) => format!("-p{q}"),
                Some(Foe::Neutral) => "-neutral".into(),
                None => String::new(),
            };
            let id = format!("incite-{}{whom}", EconomyMap::get().regions[c as usize].key);
            btn(
                v,
                id,
                label,
                A::IncitRevolution {
                    player: p,
                    country: c,
                    target: t,
                },
            )
        })
    });
    let n = g.players[p as usize].cards.len();
    html! { <details class="revolutions" id={format!("revolutions-{p}")}>
        <summary>{format!("{}: incite a revolution ({})", eco.name(p), text::count(n, "influence card", "influence cards"))}</summary>
        <p class="hint">{explain("Each influence card names a country. Played now, it starts a revolution there: two armies of yours appear in that country and each first rolls once against the foe you pick, at no risk to it. The card is then spent.", ECO)}</p>
    <div class="choices">{ for buttons }</div></details> }
}

/// Blockades of hostile navy bases by one's navies in their waters, and their end.
pub fn blockades(v: &View, eco: &EconomySession, p: PlayerId) -> Html {
    let g = &eco.game;
    if !g.options.bases || matches!(g.phase, Phase::Pick(_) | Phase::Place) {
        return html! {};
    }
    let map = EconomyMap::get();
    let mut buttons = vec![];
    for (w, rs) in g.regions.iter().enumerate() {
        let w = w as RegionId;
        if rs.forces.get(&p).is_none_or(|f| f.navies == 0) {
            continue;
        }
        for &c in &map.regions[w as usize].shore {
            let hostile = g.regions[c as usize]
                .owner
                .is_some_and(|o| !g.friends(p, o));
            let base = g.regions[c as usize].infra.navy_bases.contains(&w);
            let mine = g
                .blockades
                .iter()
                .any(|b| b.by == p && b.country == c && b.water == w);
            if base && hostile && !mine {
                buttons.push(btn(
                    v,
                    format!("blockade-{c}-{w}"),
                    format!("Blockade the navy base of {} from {}", region(c), region(w)),
                    A::Blockade {
                        player: p,
                        country: c,
                        water: w,
                    },
                ));
            }
        }
    }
    for b in g.blockades.iter().filter(|b| b.by == p) {
        buttons.push(btn(
            v,
            format!("end-blockade-{}-{}", b.country, b.water),
            format!("End the blockade of {}", region(b.country)),
            A::EndBlockade {
                player: p,
                country: b.country,
                water: b.water,
            },
        ));
    }
    if buttons.is_empty() {
        return html! {};
    }
    html! { <details class="blockades" id="blockades" open=true><summary>{"Blockades"}</summary>
    <div class="choices">{ for buttons }</div></details> }
}

/// The buttons that roll the attack under way on: to its end, or until `p` has lost the number
/// of units in the box.
fn roll_on(v: &View, p: PlayerId, online: bool) -> Html {
    let d = v.dispatcher();
    let to_end = Callback::from(move |_: MouseEvent| d.dispatch(EMsg::RollOn(p, None)));
    let d = v.dispatcher();
    // The box is read when the button is pressed (no state to keep between the two).
    let until = Callback::from(move |_: MouseEvent| {
        let raw = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|doc| doc.get_element_by_id("roll-stop"))
            .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(e).ok())
            .map(|e| e.value())
            .unwrap_or_default();
        match parse_count(&raw, 1) {
            Ok(n) => d.dispatch(EMsg::RollOn(p, Some(n))),
            Err(m) => d.dispatch(EMsg::Refuse(m)),
        }
    });
    html! {
        <div class="roll-on" id="roll-on">
            <p class="hint">{ if online {
                "Roll on without a click per roll: your page passes for you after each roll, while the others in the battle decide on their own pages. It stops by itself when the attack is over or someone else's choice changes the battle (an interruption, a withdraw), and with its Stop button."
            } else {
                "Stops by itself at the attack's end or when someone else has a choice (to interrupt, to withdraw)."
            } }</p>
            <div class="row">
                <button class="btn primary" id="roll-on-end" onclick={to_end}>{"Roll until the attack ends"}</button>
            </div>
            <div class="row">
                // No noun after the number: "1 units" would be wrong and the input has no
                // state to agree with.
                <label for="roll-stop">{"Roll until I have lost this many units:"}</label>
                <input id="roll-stop" class="num" type="number" min="1" value="2"/>
                <button class="btn" id="roll-on-stop" onclick={until}>{"Roll"}</button>
            </div>
        </div>
    }
}
