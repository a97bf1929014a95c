//! The play screen: header, map, the prompt and controls of the current phase, the viewer's
//! hand and mission, trade dialog, pass-the-device screen, log, statistics and winner screen.

use crate::classic::board::{board, DragRef};
use crate::classic::play::{is_setup, Msg, Speed, Tab, View};
use crate::widgets::glossary::Rules;
use crate::widgets::term::{explain, Term};
use crate::widgets::Nav;
use crate::widgets::{chart, colour_css, pct};
use orbis_engine::classic::{
    Action, ClassicState, DefenceRule, DefendPref, Owner, Phase, PlayerId, SeatKind,
};
use orbis_engine::odds::odds_with;
use orbis_engine::view;
use std::rc::Rc;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

type H<'a> = View<'a>;

/// A click handler that sends `msg` (one non-generic helper keeps the wasm small).
pub fn send(app: &H, msg: Msg) -> Callback<MouseEvent> {
    let d = app.dispatcher();
    Callback::from(move |_: MouseEvent| d.dispatch(msg.clone()))
}

fn act(app: &H, a: Action) -> Callback<MouseEvent> {
    send(app, Msg::Act(a))
}

fn swatch(s: &ClassicState, p: PlayerId) -> Html {
    let pl = &s.players[p as usize];
    html! { <span class={classes!("swatch", format!("seat-{p}"))} style={format!("background:{}", colour_css(pl.colour))} aria-hidden="true"></span> }
}

fn slider(id: &str, label: String, value: u32, min: u32, max: u32, app: &H) -> Html {
    let d = app.dispatcher();
    let oninput = Callback::from(move |e: InputEvent| {
        if let Ok(v) = e
            .target_unchecked_into::<HtmlInputElement>()
            .value()
            .parse::<u32>()
        {
            d.dispatch(Msg::SetAmount(v));
        }
    });
    html! {
        <label class="slider" for={id.to_string()}>
            <span>{label}</span>
            <input id={id.to_string()} type="range" min={min.to_string()} max={max.to_string()}
                value={value.clamp(min, max).to_string()} {oninput} disabled={min == max}/>
            <output>{value.clamp(min, max)}</output>
        </label>
    }
}

fn dice_view(app: &H, s: &ClassicState) -> Html {
    let Some(r) = &app.roll else { return html! {} };
    // The engine reports both sides' dice sorted from high to low, so pairs line up.
    let (a, d) = (&r.attack, &r.defence);
    let pairs = a.len().min(d.len());
    let die = |v: u8, side: &str, i: usize| {
        let res = if i < pairs {
            let att_wins = a[i] > d[i];
            match (side, att_wins) {
                ("a", true) | ("d", false) => "won",
                _ => "lost",
            }
        } else {
            "unpaired"
        };
        html! { <span class={classes!("die", side.to_string(), res)} aria-label={format!("{v} ({res})")}>{v}</span> }
    };
    html! {
        <div class="dice" key={r.step.to_string()} aria-live="polite">
            // Who rolled: a computer's attack looks like the player's own otherwise.
            <div class="dice-title">{format!("{}{} → {}{}", match s.owner[r.from as usize] {
                    Owner::Player(p) => format!("{} attacks: ", s.players[p as usize].name),
                    _ => String::new(),
                }, s.map().name(r.from), s.map().name(r.to),
                if r.rolls > 1 { format!(" (last of {} rolls)", r.rolls) } else { String::new() })}</div>
            <div class="dice-row"><span class="who">{"Attack"}</span>{ for a.iter().enumerate().map(|(i, &v)| die(v, "a", i)) }</div>
            <div class="dice-row"><span class="who">{"Defence"}</span>{ for d.iter().enumerate().map(|(i, &v)| die(v, "d", i)) }</div>
            <p class="dice-lost" id="dice-lost">{format!("{}{} lost {}, {} lost {}.",
                if r.rolls > 1 { format!("In {} rolls: ", r.rolls) } else { String::new() },
                s.map().name(r.from), armies(r.lost[0]), s.map().name(r.to), armies(r.lost[1]))}</p>
            // The player's own roll only: a computer's turn leaves the page where the player keeps it.
            if app.my_turn() { <InSight /> }
        </div>
    }
}

fn armies(n: u32) -> String {
    format!("{n} {}", if n == 1 { "army" } else { "armies" })
}

/// Keeps a roll's dice in sight: drawn again for each roll (the dice box is keyed by it), it
/// scrolls them into view when they lie below the window or under a lesson's coach docked at
/// the bottom of a phone (whose scroll margin, style-tutorial.css, keeps them above it).
#[function_component]
fn InSight() -> Html {
    use_effect_with((), |_| {
        let doc = web_sys::window().and_then(|w| w.document());
        let height = web_sys::window()
            .and_then(|w| w.inner_height().ok())
            .and_then(|h| h.as_f64())
            .unwrap_or(0.0);
        if let (Some(doc), true) = (doc, height > 0.0) {
            // The coach covers the window from its top down when it sits at the bottom.
            let limit = doc
                .get_element_by_id("coach")
                .map(|c| c.get_bounding_client_rect().top())
                .filter(|&top| top > height / 3.0)
                .unwrap_or(height);
            if let Ok(Some(el)) = doc.query_selector(".side .dice") {
                if el.get_bounding_client_rect().bottom() > limit {
                    el.scroll_into_view_with_bool(false);
                }
            }
        }
    });
    html! {}
}

fn controls(app: &H, s: &ClassicState) -> Html {
    let ui = &app.ui;
    let me = s.current;
    let hand = s.players[me as usize].hand.len();
    match s.phase {
        Phase::Claim | Phase::SetupPlace => html! {
            <div class="controls">
                <button class="btn" id="auto-place" onclick={send(app, Msg::AutoSetup)}>
                    { if s.phase == Phase::Claim { "Claim and place the rest for me" } else { "Place my remaining armies for me" } }
                </button>
            </div>
        },
        Phase::Reinforce { armies } => {
            let amount = ui.amount.clamp(1, armies.max(1));
            html! {
                <div class="controls">
                    { slider("place-amount", "Armies per click".into(), amount, 1, armies.max(1), app) }
                    <div class="row">
                        <button class="btn small" id="place-all" onclick={send(app, Msg::SetAmount(armies))}>{"All"}</button>
                        <button class="btn small" onclick={send(app, Msg::SetAmount(1))}>{"One"}</button>
                        if hand >= 3 {
                            <button class="btn" id="open-trade" onclick={send(app, Msg::OpenTrade(true))}>
                                {format!("Trade cards ({hand})")}</button>
                        }
                    </div>
                </div>
            }
        }
        Phase::Attack => {
            let sel = match (ui.from, ui.to) {
                (Some(f), Some(t)) => {
                    let a = s.armies[f as usize];
                    let dd = s.armies[t as usize];
                    let max = s.max_attack_dice(f);
                    let dice = ui.dice.clamp(1, max.max(1));
                    let stop = ui.stop_at.clamp(1, a.saturating_sub(1).max(1));
                    // The odds assume the defender keeps its current choice of dice.
                    let rule = s.defence_rule(t);
                    let whole = odds_with(a - 1, dd, rule).win;
                    let blitz = odds_with(a.saturating_sub(stop), dd, rule).win;
                    let why = match rule {
                        DefenceRule::One => ", by the defender's choice",
                        DefenceRule::Two if dd == 1 => ", two even with one army",
                        _ => "",
                    };
                    let dchoice = (1..=max).map(|k| {
                        html! { <button class={classes!("btn", "small", (k == dice).then_some("on"))}
                            aria-pressed={(k == dice).to_string()} id={format!("dice-{k}")}
                            onclick={send(app, Msg::SetDice(k))}>{format!("{k}")}</button> }
                    });
                    let ds = app.dispatcher();
                    let onstop = Callback::from(move |e: InputEvent| {
                        if let Ok(v) = e
                            .target_unchecked_into::<HtmlInputElement>()
                            .value()
                            .parse::<u32>()
                        {
                            ds.dispatch(Msg::SetStop(v));
                        }
                    });
                    html! {
                        <div class="attack-box">
                            <div class="matchup"><b>{s.map().name(f)}</b>{format!(" ({a}) → ")}<b>{s.map().name(t)}</b>{format!(" ({dd}, {} {}{why})", s.defence_dice(t), if s.defence_dice(t) == 1 { "die" } else { "dice" })}</div>
                            <div class="odds" id="odds">{"Chance to conquer (fighting to the end): "}<b>{pct(whole)}</b></div>
                            <div class="row"><span>{"Dice:"}</span>{ for dchoice }
                                <button class="btn primary" id="btn-roll" onclick={act(app, Action::Attack { from: f, to: t, dice })}>{"Roll"}</button>
                            </div>
                            <div class="row">
                                <label for="stop-at">{"Blitz, stop at"}</label>
                                <input id="stop-at" type="number" min="1" max={a.saturating_sub(1).max(1).to_string()} value={stop.to_string()} oninput={onstop} class="num"/>
                                <span>{"armies"}</span>
                                <button class="btn primary" id="btn-blitz" onclick={act(app, Action::Blitz { from: f, to: t, stop_at: stop })}>
                                    {format!("Blitz ({})", pct(blitz))}</button>
                            </div>
                        </div>
                    }
                }
                (Some(f), None) => {
                    html! { <p class="hint">{format!("Attacking from {}: choose a highlighted enemy territory.", s.map().name(f))}</p> }
                }
                _ => {
                    html! { <p class="hint">{"Choose one of your territories with two or more armies."}</p> }
                }
            };
            html! {
                <div class="controls">
                    { sel }
                    <div class="row">
                        <button class="btn" id="btn-end-attack" onclick={act(app, Action::EndAttack)}>{"End attack → fortify"}</button>
                        <button class="btn" id="btn-end-turn" onclick={act(app, Action::EndTurn)}>{"End turn"}</button>
                    </div>
                </div>
            }
        }
        Phase::Occupy { from, to, moved } => {
            let max = moved + s.armies[from as usize] - 1;
            let v = ui.amount.clamp(moved, max);
            html! {
                <div class="controls">
                    { slider("occupy-amount", format!("Armies in {} (at least {moved})", s.map().name(to)), v, moved, max, app) }
                    <button class="btn primary" id="btn-occupy" onclick={act(app, Action::Occupy { armies: v })}>{format!("Move in {v}")}</button>
                </div>
            }
        }
        Phase::Fortify => {
            let sel = match (ui.from, ui.to) {
                (Some(f), Some(t)) => {
                    let max = s.movable(f).max(1);
                    let v = ui.amount.clamp(1, max);
                    html! {
                        <div class="attack-box">
                            <div class="matchup"><b>{s.map().name(f)}</b>{" → "}<b>{s.map().name(t)}</b></div>
                            { slider("fortify-amount", "Armies to move".into(), v, 1, max, app) }
                            <button class="btn primary" id="btn-fortify" onclick={act(app, Action::Fortify { from: f, to: t, armies: v })}>{format!("Move {v}")}</button>
                        </div>
                    }
                }
                (Some(f), None) => {
                    html! { <p class="hint">{format!("Moving from {}: choose a highlighted territory.", s.map().name(f))}</p> }
                }
                _ => {
                    html! { <p class="hint">{"Choose a territory to move armies from, or end your turn."}</p> }
                }
            };
            html! {
                <div class="controls">
                    { sel }
                    <button class="btn" id="btn-end-turn" onclick={act(app, Action::EndTurn)}>{"End turn"}</button>
                </div>
            }
        }
        Phase::GameOver { .. } => html! {},
    }
}

fn hand_view(app: &H, s: &ClassicState, p: PlayerId) -> Html {
    let pl = &s.players[p as usize];
    let mission = if s.options.missions {
        match &pl.mission {
            Some(m) => {
                html! { <p class="mission" id="mission"><b>{"Mission: "}</b>{view::mission_text(s, m)}</p> }
            }
            // Dealt face down and not read yet: the other players' shares are on their way.
            None if pl.sealed_mission.is_some() => {
                html! { <p class="hint" id="mission">{"Your mission is being dealt: the other players' pages are sending what you need to read it."}</p> }
            }
            None => html! {},
        }
    } else {
        html! {}
    };
    let coming = pl.sealed.len();
    let d = app.dispatcher();
    let defend = pl.defend;
    let ondef = Callback::from(move |e: Event| {
        let v = e.target_unchecked_into::<HtmlSelectElement>().value();
        let pref = if v == "one" {
            DefendPref::One
        } else {
            DefendPref::Max
        };
        d.dispatch(Msg::Act(Action::SetDefence { player: p, pref }));
    });
    html! {
        <section class="hand" id="hand" data-hand-owner={pl.name.clone()} aria-label={format!("{}'s cards", pl.name)}>
            <h2>{format!("Cards of {} ({})", pl.name, pl.hand.len() + coming)}</h2>
            if pl.hand.is_empty() && coming == 0 { <p class="hint">{"No cards yet: conquer a territory this turn to draw one."}</p> }
            if coming > 0 {
                <p class="hint" id="cards-coming">{format!("{coming} more {} being dealt to you face down: the other players' pages are sending what you need to read {}.",
                    if coming == 1 { "card is" } else { "cards are" }, if coming == 1 { "it" } else { "them" })}</p>
            }
            <ul class="cards">{ for pl.hand.iter().map(|&c| html! {
                <li class={classes!("card", view::symbol_name(s.card_symbol(c)))}>{view::card_text(s, c)}</li>
            }) }</ul>
            { mission }
            <label class="field inline" for="defend"><span>{"When attacked, roll"}</span>
                <select id="defend" onchange={ondef}>
                    <option value="max" selected={defend == DefendPref::Max}>{"as many dice as possible"}</option>
                    <option value="one" selected={defend == DefendPref::One}>{"one die"}</option>
                </select>
            </label>
            if defend == DefendPref::Max { { one_die_territories(app, s, p) } }
        </section>
    }
}

/// The territories where `p` asked to roll one die whatever their standing choice: each with a
/// button to withdraw it, and a list to add another of theirs.
fn one_die_territories(app: &H, s: &ClassicState, p: PlayerId) -> Html {
    let pl = &s.players[p as usize];
    let map = s.map();
    let others: Vec<_> = s
        .territories_of(p)
        .filter(|t| pl.one_die.binary_search(t).is_err())
        .collect();
    let d = app.dispatcher();
    let candidates = others.clone();
    let onadd = Callback::from(move |e: Event| {
        let v = e.target_unchecked_into::<HtmlSelectElement>().value();
        if let Some(&territory) = v.parse::<usize>().ok().and_then(|i| candidates.get(i)) {
            d.dispatch(Msg::Act(Action::SetTerritoryDefence {
                territory,
                one: true,
            }));
        }
    });
    html! {
        <div class="one-die" id="one-die">
            <span>{"One die only in:"}</span>
            if pl.one_die.is_empty() { <span class="hint">{" no territory"}</span> }
            { for pl.one_die.iter().filter(|&&t| s.owner[t as usize] == Owner::Player(p)).map(|&t| html! {
                <button class="btn small chip" title="Roll as many dice as possible here again"
                    id={format!("one-die-{}", map.territories[t as usize].key)}
                    onclick={act(app, Action::SetTerritoryDefence { territory: t, one: false })}>
                    {format!("{} ×", map.name(t))}</button>
            }) }
            if !others.is_empty() {
                <select id="one-die-add" aria-label="Roll one die in another territory" onchange={onadd}>
                    <option value="" selected=true>{"Add a territory…"}</option>
                    { for others.iter().enumerate().map(|(i, &t)| html! {
                        <option value={i.to_string()}>{map.name(t)}</option>
                    }) }
                </select>
            }
        </div>
    }
}

fn trade_dialog(app: &H, s: &ClassicState) -> Html {
    let me = s.current;
    let hand = &s.players[me as usize].hand;
    let forced = hand.len() >= 5;
    let picked = &app.ui.picked;
    let sets = s.sets_in_hand(me);
    let value = s.next_set_value();
    let cards = hand.iter().map(|&c| {
        let on = picked.contains(&c);
        html! {
            <li><button class={classes!("card", "pick", view::symbol_name(s.card_symbol(c)), on.then_some("on"))}
                aria-pressed={on.to_string()} onclick={send(app, Msg::PickCard(c))}>{view::card_text(s, c)}</button></li>
        }
    });
    let trade_picked = if picked.len() == 3 {
        let c = [picked[0], picked[1], picked[2]];
        html! { <button class="btn primary" id="trade-picked" onclick={act(app, Action::Trade { cards: c })}>{"Trade the selected cards"}</button> }
    } else {
        html! { <button class="btn" disabled=true>{format!("Select {} more", 3 - picked.len())}</button> }
    };
    let quick = sets.iter().take(4).map(|set| {
        let names: Vec<String> = set.iter().map(|&c| view::card_text(s, c)).collect();
        html! { <button class="btn small trade-set" onclick={act(app, Action::Trade { cards: *set })}>{format!("Trade {}", names.join(" + "))}</button> }
    });
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="trade-title" id="trade-dialog">
            <div class="dialog">
                <h2 id="trade-title">{"Trade cards"}</h2>
                <p>{format!("The next set is worth {value} armies.")}
                    if forced { <b>{" You hold five or more cards and must trade before placing armies."}</b> }</p>
                if let Some(e) = &app.error { <p class="error" role="alert">{e}</p> }
                <ul class="cards">{ for cards }</ul>
                <div class="row">{ trade_picked }</div>
                if !sets.is_empty() { <div class="sets">{ for quick }</div> } else { <p class="hint">{"No set in your hand: three alike, one of each, or two plus a wild card."}</p> }
                if !forced {
                    <div class="row"><button class="btn" id="close-trade" onclick={send(app, Msg::OpenTrade(false))}>{"Close"}</button></div>
                }
            </div>
        </div>
    }
}

/// Territories, armies and income per player over the game, as charts.
fn charts_view(s: &ClassicState, h: Option<&crate::savefile::History>, id: &str) -> Html {
    let who: Vec<chart::Who> = s
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| chart::Who {
            seat: i,
            name: p.name.clone(),
            colour: colour_css(p.colour),
        })
        .collect();
    chart::charts(
        id,
        &[
            ("Territories held", "Territories"),
            ("Armies on the board", "Armies"),
            (
                "Income: armies a turn would bring (without cards)",
                "Armies a turn",
            ),
        ],
        "Turn (0: after the setup)",
        chart::classic_course(h).as_ref(),
        &who,
        None,
    )
}

/// The statistics: tables of now, charts of the game so far (`charts`: their element id).
fn stats_view(s: &ClassicState, h: Option<&crate::savefile::History>, charts: &str) -> Html {
    let rows = s.players.iter().enumerate().map(|(i, p)| {
        let t = s.territory_count(i as PlayerId);
        let a: u32 = s.territories_of(i as PlayerId).map(|x| s.armies[x as usize]).sum();
        html! {
            <tr class={classes!((!p.alive).then_some("dead"))}>
                <td>{swatch(s, i as PlayerId)}{p.name.clone()}</td><td>{t}</td><td>{a}</td><td>{s.cards_held(i as PlayerId)}</td>
                <td>{p.stats.conquests}</td><td>{p.stats.armies_killed}</td><td>{p.stats.armies_lost}</td><td>{p.stats.sets_traded}</td>
            </tr>
        }
    });
    let map = s.map();
    let conts = map.continents.iter().enumerate().map(|(c, k)| {
        let holder = s.players.iter().enumerate().find(|(i, _)| s.owns_continent(*i as PlayerId, c));
        html! {
            <tr><td>{k.name.clone()}</td><td>{format!("+{}", k.bonus)}</td><td>{k.territories.len()}</td>
                <td>{ match holder { Some((i, p)) => html! { <>{swatch(s, i as PlayerId)}{p.name.clone()}</> }, None => html! {"—"} } }</td></tr>
        }
    });
    html! {
        <>
        <table class="stats" id="stats">
            <thead><tr><th>{"Player"}</th><th title="Territories">{"Terr."}</th><th>{"Armies"}</th><th>{"Cards"}</th>
                <th title="Conquests">{"Conq."}</th><th title="Enemy armies destroyed">{"Killed"}</th><th title="Armies lost">{"Lost"}</th><th title="Sets traded">{"Sets"}</th></tr></thead>
            <tbody>{ for rows }</tbody>
        </table>
        <table class="stats continents">
            <thead><tr><th>{"Continent"}</th><th>{"Bonus"}</th><th title="Territories">{"Terr."}</th><th>{"Held by"}</th></tr></thead>
            <tbody>{ for conts }</tbody>
        </table>
        <p class="hint">{format!("Next card set: {} armies.", s.next_set_value())}</p>
        { charts_view(s, h, charts) }
        </>
    }
}

fn players_bar(s: &ClassicState) -> Html {
    html! {
        <ul class="players" aria-label="Players">
            { for s.players.iter().enumerate().map(|(i, p)| {
                let cur = i as PlayerId == s.current;
                let kind = match p.kind { SeatKind::Human => "", SeatKind::Bot(_) => " (bot)" };
                html! {
                    <li class={classes!(cur.then_some("current"), (!p.alive).then_some("dead"))}
                        aria-current={if cur { "true" } else { "false" }}>
                        { swatch(s, i as PlayerId) }
                        <span>{format!("{}{kind}", p.name)}</span>
                        <small title="territories · cards">{format!(" {} · {}", s.territory_count(i as PlayerId), s.cards_held(i as PlayerId))}</small>
                    </li>
                }
            }) }
        </ul>
    }
}

pub fn play_screen(app: &H, drag: Rc<DragRef>) -> Html {
    let Some(g) = app.game.as_ref() else {
        return html! {};
    };
    let s = g;
    let speed_cb = {
        let d = app.dispatcher();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            d.dispatch(Msg::SetSpeed(Speed::from_key(&v)));
        })
    };
    let export = {
        let bytes = app.export_bytes().unwrap_or_default();
        Callback::from(move |_: MouseEvent| crate::store::download("orbis-game.orbis", &bytes))
    };
    let curtain = app.curtain();
    let my_turn = app.my_turn();
    let machine = app.machine_level().is_some();
    let cur = &s.players[s.current as usize];
    let prompt = if app.ended_online() {
        "This game has ended, unwon: a player left (see the log).".to_string()
    } else if my_turn || matches!(s.phase, Phase::GameOver { .. }) {
        view::phase_prompt(s)
    } else if machine {
        view::phase_watch(s, matches!(cur.kind, SeatKind::Bot(_)))
    } else {
        format!("Waiting for {}.", cur.name)
    };
    let show_trade = my_turn
        && matches!(s.phase, Phase::Reinforce { .. })
        && (app.ui.trade_open || cur.hand.len() >= 5);
    let header = html! {
        <header class="bar">
            <button class="btn small" id="menu-btn" onclick={send(app, Msg::Nav(Nav::Menu))} aria-label="Menu">{"☰ Menu"}</button>
            <button class="btn small" id="rules-btn" onclick={send(app, Msg::Nav(Nav::Rules))}>{"? How to play"}</button>
            <h1 class="title">{"Orbis"}</h1>
            <span class="turn" id="turn">
                // The count of every player's turn, said so; none yet while setting up.
                if is_setup(s.phase) { {"Setting up"} } else {
                    <Term id="turn" />{format!(" {}", s.turn)}
                }
            </span>
            <label class="speed" for="speed"><span>{"Bot speed"}</span>
                <select id="speed" onchange={speed_cb}>
                    { for [Speed::Slow, Speed::Normal, Speed::Fast].iter().map(|sp| html! {
                        <option value={sp.key()} selected={*sp == app.speed}>{sp.key()}</option>
                    }) }
                </select>
            </label>
            <button class="btn small" id="btn-skip" disabled={!machine || is_setup(s.phase) && !matches!(cur.kind, SeatKind::Bot(_))} onclick={send(app, Msg::SkipToHuman)}>{"Skip to my turn"}</button>
            <button class="btn small" id="export" onclick={export}>{"Export save"}</button>
        </header>
    };
    if let Some(p) = curtain {
        let name = s.players[p as usize].name.clone();
        return html! {
            <>
                { header }
                <main class="curtain" id="curtain" role="dialog" aria-modal="true" aria-labelledby="curtain-title">
                    <div class="dialog">
                        <h2 id="curtain-title">{format!("Pass the device to {name}")}</h2>
                        <p>{"The board, cards and missions are hidden until they are ready."}</p>
                        { players_bar(s) }
                        <p></p><button class="btn primary" id="btn-reveal" onclick={send(app, Msg::Reveal)}>{format!("I am {name} — show my turn")}</button>
                    </div>
                </main>
            </>
        };
    }
    let winner = match s.phase {
        Phase::GameOver { .. } if app.ui.winner_closed => html! {},
        Phase::GameOver { winner } => {
            let w = &s.players[winner as usize];
            let reason = app
                .log
                .iter()
                .rev()
                .find(|l| l.contains(" wins the game"))
                .cloned()
                .unwrap_or_default();
            html! {
                <div class="overlay" role="dialog" aria-modal="true" id="winner" aria-labelledby="winner-title">
                    <div class="dialog">
                        <h2 id="winner-title">{format!("{} wins!", w.name)}</h2>
                        <p>{reason}</p>
                        { stats_view(s, app.history.as_ref(), "winner-charts") }
                        if app.is_online() {
                            <p class="hint" id="winner-online">{"To play again with the same players, close this and press \"Play again in this room\" in the room bar below the board."}</p>
                        }
                        <div class="row">
                            if !app.is_online() {
                                <button class="btn primary" onclick={send(app, Msg::Nav(Nav::Setup))}>{"New game"}</button>
                            }
                            if app.history.is_some() {
                                <button class="btn" id="winner-replay" onclick={send(app, Msg::Nav(Nav::Replay))}>{"Replay"}</button>
                            }
                            <button class="btn" id="winner-menu" onclick={send(app, Msg::Nav(Nav::Menu))}>{"Menu"}</button>
                            <button class="btn" id="winner-close" onclick={send(app, Msg::CloseWinner(true))}>{"See the board"}</button>
                        </div>
                    </div>
                </div>
            }
        }
        _ => html! {},
    };
    let tab = app.ui.tab;
    let log = html! {
        <ul class="log" id="log" aria-live="polite" tabindex="0" aria-label="Log">
            { for app.log.iter().rev().take(80).map(|l| html! { <li>{l.clone()}</li> }) }
        </ul>
    };
    html! {
        <>
            // The territories are tab stops (42 on the world map): the first stop skips them.
            { crate::keynav::skip_link(crate::keynav::CONTROLS) }
            { header }
            <main class="play">
                { board(app, drag) }
                <aside class="side">
                    { players_bar(s) }
                    <section id={crate::keynav::CONTROLS} tabindex="-1" class={classes!("prompt", my_turn.then_some("mine"))} style={format!("--cur:{}", colour_css(cur.colour))}>
                        <p id="prompt" aria-live="polite">{explain(&prompt, Rules::Classic)}</p>
                        if let Some(e) = &app.error {
                            <p class="error" role="alert" id="error">{e}<button class="x" aria-label="Dismiss" onclick={send(app, Msg::DismissError)}>{"×"}</button></p>
                        }
                        if my_turn { { controls(app, s) } }
                        if app.ui.winner_closed && matches!(s.phase, Phase::GameOver { .. }) {
                            <button class="btn small" id="winner-again" onclick={send(app, Msg::CloseWinner(false))}>{"Show the result"}</button>
                        }
                    </section>
                    { dice_view(app, s) }
                    if let Some(v) = app.viewer { { hand_view(app, s, v) } }
                    <section class="tabs">
                        <div class="row" role="tablist">
                            <button role="tab" class={classes!("tab", (tab == Tab::Log).then_some("on"))} aria-selected={(tab == Tab::Log).to_string()} onclick={send(app, Msg::SetTab(Tab::Log))}>{"Log"}</button>
                            <button role="tab" id="tab-stats" class={classes!("tab", (tab == Tab::Stats).then_some("on"))} aria-selected={(tab == Tab::Stats).to_string()} onclick={send(app, Msg::SetTab(Tab::Stats))}>{"Statistics"}</button>
                        </div>
                        { if tab == Tab::Log { log } else { stats_view(s, app.history.as_ref(), "charts") } }
                    </section>
                </aside>
            </main>
            if show_trade { { trade_dialog(app, s) } }
            { winner }
        </>
    }
}
