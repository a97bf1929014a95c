//! Screens of the orders ruleset: setup, the schematic map (provinces as nodes placed by
//! `web/map/orders-layout.json`, adjacency as thin edges, units as A/F badges), order entry,
//! the pass-the-device screen and the results drawn as arrows.

use crate::orders::map::{arrow_target, board_svg, layout, pan, regions_available, zoom};
use crate::orders::{
    phase_word, power_colour, season_word, Mode, OMsg, OrdersForm, OrdersSession, Seat, Stage, View,
};
use crate::widgets::glossary::Rules;
use crate::widgets::term::{explain, Term};
use crate::widgets::Nav;
use orbis_engine::rules::classic::BotLevel;
use orbis_engine::rules::orders::adjudicator::{Loc, Outcome, UnitType};
use orbis_engine::rules::orders::map::{OrdersMap, PowerId, ProvinceKind};
use orbis_engine::rules::orders::notation::{self};
use orbis_engine::rules::orders::Phase;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

type H<'a> = View<'a>;

/// A click handler that sends `m` (one non-generic helper keeps the wasm small).
fn om(app: &H, m: OMsg) -> Callback<MouseEvent> {
    let d = app.dispatcher();
    Callback::from(move |_: MouseEvent| d.dispatch(m.clone()))
}

// ---------------------------------------------------------------- setup

/// The orders new-game form: map, players, who plays each power (a human, a computer or
/// nobody), house options.
pub fn setup(f: &OrdersForm, on_edit: Callback<OrdersForm>) -> Html {
    let f = f.clone();
    let edit = move |f: OrdersForm| on_edit.emit(f);
    let map = f.map();
    let map_cb = {
        let (f, edit) = (f.clone(), edit.clone());
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            let mut g = f.clone();
            g.map_id = v;
            let m = g.map();
            g.players = if m.setups.is_empty() {
                m.powers.len() as u8
            } else {
                m.setups.iter().map(|s| s.0).max().unwrap_or(2)
            };
            g.seats = vec![Seat::Human; m.powers.len()];
            edit(g);
        })
    };
    let players_cb = {
        let (f, edit) = (f.clone(), edit.clone());
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            let mut g = f.clone();
            g.players = v.parse().unwrap_or(g.players);
            edit(g);
        })
    };
    let powers = f.powers().into_iter().map(|p| {
        let cb = {
            let (f, edit) = (f.clone(), edit.clone());
            Callback::from(move |e: Event| {
                let v = e.target_unchecked_into::<HtmlSelectElement>().value();
                let mut g = f.clone();
                if let Some(seat) = g.seats.get_mut(p as usize) {
                    *seat = Seat::from_form(&v);
                }
                edit(g);
            })
        };
        let seat = f.seats.get(p as usize).copied().unwrap_or(Seat::Human);
        let opt = |s: Seat, label: &'static str| {
            html! { <option value={s.form_value()} selected={seat == s}>{label}</option> }
        };
        let pw = &map.powers[p as usize];
        html! {
            <fieldset class="seat" style={format!("--seat:{}", power_colour(p))}>
                <legend>{pw.name.clone()}</legend>
                <label class="field" for={format!("opower-{}", pw.key)}><span>{"Played by"}</span>
                    <select id={format!("opower-{}", pw.key)} onchange={cb}>
                        { opt(Seat::Human, "Human (hot-seat)") }
                        { opt(Seat::Computer(BotLevel::Hard), "Computer (hard)") }
                        { opt(Seat::Computer(BotLevel::Normal), "Computer (normal)") }
                        { opt(Seat::Computer(BotLevel::Easy), "Computer (easy)") }
                        { opt(Seat::Idle, "Nobody (civil disorder: units hold)") }
                    </select>
                </label>
            </fieldset>
        }
    });
    let check =
        |id: &'static str, label: &'static str, on: bool, set: fn(&mut OrdersForm, bool)| {
            let (f, edit) = (f.clone(), edit.clone());
            let cb = Callback::from(move |e: Event| {
                let v = e.target_unchecked_into::<HtmlInputElement>().checked();
                let mut g = f.clone();
                set(&mut g, v);
                edit(g);
            });
            html! {
                <label class="check" for={id}>
                    <input type="checkbox" id={id} checked={on} onchange={cb}/>{label}
                </label>
            }
        };
    html! {
        <>
            <section class="panel-box">
                <h2>{"Orders game"}</h2>
                <p class="hint">{explain("Every power writes its orders in secret; all are revealed and resolved at once (Diplomacy rules).", Rules::Orders)}</p>
                <div class="row">
                    <label class="field" for="omap"><span>{"Map"}</span>
                        <select id="omap" onchange={map_cb}>
                            { for OrdersMap::builtin_ids().map(|id| html! {
                                <option value={id} selected={id == f.map_id}>
                                    {OrdersMap::get(id).map(|m| m.name.clone()).unwrap_or_default()}
                                </option>
                            }) }
                        </select>
                    </label>
                    if !map.setups.is_empty() {
                        <label class="field" for="oplayers"><span>{"Players"}</span>
                            <select id="oplayers" onchange={players_cb}>
                                { for map.setups.iter().map(|(n, _)| html! {
                                    <option value={n.to_string()} selected={*n == f.players}>{n.to_string()}</option>
                                }) }
                            </select>
                        </label>
                    }
                </div>
                <div class="seats">{ for powers }</div>
                { think_time(&f, edit.clone()) }
            </section>
            <section class="panel-box options">
                <h2>{"House options"}</h2>
                { check("opt-noretreat", "No retreat into another power's territory (its home provinces, and what it held at the end of a Fall)", f.options.no_retreat_into_foreign_territory, |g, v| g.options.no_retreat_into_foreign_territory = v) }
                { check("opt-combine", "Combine: two adjacent units may merge in Fall (A WAR COMBINE A LVN)", f.options.combine, |g, v| g.options.combine = v) }
                { check("opt-facing", "Fleets face a sea: a fleet on a coast moves, supports and retreats only along its sea (build F BRE B FACING MAO)", f.options.fleet_facing, |g, v| g.options.fleet_facing = v) }
                { check("opt-source-convoys", "Convoys as the source has them: a convoying fleet that is attacked holds and its convoy fails; a convoyed army attacks with strength 2", f.options.source_convoys, |g, v| g.options.source_convoys = v) }
            </section>
        </>
    }
}

/// "Computer thinking time", while a power is played by the hard computer (the only one that
/// thinks longer when given time).
fn think_time(f: &OrdersForm, edit: impl Fn(OrdersForm) + 'static) -> Html {
    let hard = f
        .powers()
        .iter()
        .any(|&p| f.seats.get(p as usize) == Some(&Seat::Computer(BotLevel::Hard)));
    if !hard {
        return html! {};
    }
    let cb = {
        let f = f.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            let mut g = f.clone();
            g.think = v.parse().unwrap_or(1);
            edit(g);
        })
    };
    html! {
        <>
            <div class="row">
                <label class="field" for="othink"><span>{"Computer thinking time"}</span>
                    <select id="othink" onchange={cb}>
                        { for crate::orders::THINK_TIMES.iter().map(|&(n, words)| html! {
                            <option value={n.to_string()} selected={n == f.think}>{words}</option>
                        }) }
                    </select>
                </label>
            </div>
            <p class="hint">{"How long the hard computer powers think over their orders each turn: longer makes them stronger. The map keeps answering while they think."}</p>
        </>
    }
}

// ---------------------------------------------------------------- board

/// Drag in progress: pointer position and view at the start; whether it moved (then the click
/// that ends it is not an order).
type DragState = (Option<(f64, f64, [f32; 4])>, bool);

thread_local! {
    static DRAG: std::cell::Cell<DragState> = const { std::cell::Cell::new((None, false)) };
}

/// The board: the map with units, centres and the last results' arrows, pan and zoom.
pub fn board(app: &H, s: &OrdersSession) -> Html {
    let full = layout(s).view;
    let v = s.view.unwrap_or(full);
    let onclick = {
        let d = app.dispatcher();
        Callback::from(move |e: MouseEvent| {
            use wasm_bindgen::JsCast;
            if DRAG.with(|c| c.get().1) {
                return;
            }
            // A province's key or supply centre (drawn over the regions, so that they are never
            // hidden) is that province: a click on "POR" is Portugal wherever the text reaches.
            let key = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|el| el.closest("[data-key],[data-k]").ok().flatten())
                .and_then(|el| el.get_attribute("data-key").or(el.get_attribute("data-k")));
            if let Some(k) = key {
                d.dispatch(OMsg::Click(k));
            }
        })
    };
    // The keyboard on a focused province: Enter or Space clicks it, arrows go to a neighbour.
    let onkeydown = {
        let d = app.dispatcher();
        let (map, lay) = (s.map(), layout(s));
        Callback::from(move |e: KeyboardEvent| {
            use wasm_bindgen::JsCast;
            let Some(key) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|el| el.get_attribute("data-key"))
            else {
                return;
            };
            if e.key() == "Enter" || e.key() == " " {
                e.prevent_default();
                d.dispatch(OMsg::Click(key));
            } else if let Some(dir) = crate::keynav::arrow(&e.key()) {
                e.prevent_default();
                if let Some(to) = arrow_target(map, &lay, &key, dir) {
                    crate::keynav::focus_query(&format!(r#"svg.omap [data-key="{to}"]"#));
                }
            }
        })
    };
    // Scale from screen pixels to map units (the SVG keeps its aspect ratio: "meet").
    fn scale(e: &MouseEvent, v: [f32; 4]) -> (f64, f64, f64) {
        use wasm_bindgen::JsCast;
        let Some(el) = e
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return (1.0, 0.5, 0.5);
        };
        let r = el.get_bounding_client_rect();
        let k = (v[2] as f64 / r.width().max(1.0)).max(v[3] as f64 / r.height().max(1.0));
        let fx = ((e.client_x() as f64 - r.left()) / r.width().max(1.0)).clamp(0.0, 1.0);
        let fy = ((e.client_y() as f64 - r.top()) / r.height().max(1.0)).clamp(0.0, 1.0);
        (k, fx, fy)
    }
    let onwheel = {
        let d = app.dispatcher();
        Callback::from(move |e: WheelEvent| {
            e.prevent_default();
            let f = if e.delta_y() > 0.0 { 1.15 } else { 1.0 / 1.15 };
            let (_, fx, fy) = scale(&e, v);
            d.dispatch(OMsg::ZoomAt(f, fx as f32, fy as f32));
        })
    };
    let onpointerdown = Callback::from(move |e: PointerEvent| {
        DRAG.with(|c| c.set((Some((e.client_x() as f64, e.client_y() as f64, v)), false)));
    });
    let onpointermove = {
        let d = app.dispatcher();
        Callback::from(move |e: PointerEvent| {
            let (down, moved) = DRAG.with(|c| c.get());
            let Some((x0, y0, sv)) = down else {
                return;
            };
            let (dx, dy) = (e.client_x() as f64 - x0, e.client_y() as f64 - y0);
            if !moved && dx.abs() + dy.abs() <= 6.0 {
                return;
            }
            DRAG.with(|c| c.set((down, true)));
            if sv[2] >= full[2] {
                return; // the whole map is on screen: nothing to pan
            }
            let (k, _, _) = scale(&e, sv);
            let nv = [
                sv[0] - (dx * k) as f32,
                sv[1] - (dy * k) as f32,
                sv[2],
                sv[3],
            ];
            d.dispatch(OMsg::View(Some(pan(full, nv))));
        })
    };
    let onpointerup = Callback::from(move |_: PointerEvent| {
        DRAG.with(|c| c.set((None, c.get().1)));
    });
    let zbtn = |label: &'static str, aria: &'static str, f: f32| {
        let d = app.dispatcher();
        let onclick = Callback::from(move |_: MouseEvent| {
            let nv = if f == 0.0 {
                None
            } else {
                zoom(full, v, f, 0.5, 0.5)
            };
            d.dispatch(OMsg::View(nv));
        });
        html! { <button class="zbtn" aria-label={aria} title={aria} {onclick}>{label}</button> }
    };
    // The region map or the schematic one (provinces as nodes, adjacency as lines).
    let style_btn = {
        let d = app.dispatcher();
        let to = !s.schematic;
        let onclick = Callback::from(move |_: MouseEvent| d.dispatch(OMsg::Schematic(to)));
        let (label, title) = if s.schematic {
            ("Regions", "Show the map of regions")
        } else {
            ("Schematic", "Show the schematic map (provinces as nodes)")
        };
        html! { <button class="zbtn ostyle" id="omapstyle" {title} {onclick}>{label}</button> }
    };
    html! {
        <>
            <div class="omap-host" {onclick} {onkeydown} {onwheel} {onpointerdown} {onpointermove}
                onpointerup={onpointerup.clone()} onpointercancel={onpointerup.clone()} onpointerleave={onpointerup}>
                { Html::from_html_unchecked(board_svg(s).into()) }
            </div>
            <div class="zoom">
                { zbtn("+", "Zoom in", 1.0 / 1.4) }
                { zbtn("−", "Zoom out", 1.4) }
                { zbtn("⤢", "Whole map", 0.0) }
                if regions_available(s) {
                    { style_btn }
                }
            </div>
        </>
    }
}

// ---------------------------------------------------------------- panel

/// The game so far as charts (supply centres and units per power, from the game's history),
/// opened by itself once the game is over.
fn stats(s: &OrdersSession) -> Html {
    use crate::widgets::chart;
    let course = chart::orders_course(s.history.as_ref());
    let map = s.map();
    let who = (0..map.powers.len()).map(|p| chart::Who {
        seat: p,
        name: map.powers[p].name.clone(),
        colour: power_colour(p as PowerId),
    });
    let who = chart::present(course.as_ref(), who.collect());
    html! {
        <details class="ostats" id="ostats" open={matches!(s.game.phase, Phase::GameOver { .. })}>
            <summary>{"Statistics"}</summary>
            { chart::charts("ocharts", &[("Supply centres per power", "Centres"), ("Units on the board", "Units")],
                "Year (at its end)", course.as_ref(), &who, None) }
        </details>
    }
}

/// A power with its supply centres and units.
pub fn power_chip(s: &OrdersSession, p: PowerId) -> Html {
    let map = s.map();
    let units = s.game.units.iter().filter(|u| u.power == p).count();
    html! {
        <li class={classes!((!s.game.alive(p)).then_some("dead"))} data-power={map.powers[p as usize].key.clone()}>
            <span class="swatch" style={format!("background:{}", power_colour(p))}></span>
            {map.powers[p as usize].name.clone()}
            { match s.seats.get(p as usize) {
                Some(Seat::Computer(l)) if s.online.is_none() => html! {
                    <span class="hint ocomputer">{format!(" (computer, {})", Seat::Computer(*l).form_value())}</span>
                },
                Some(Seat::Idle) if s.online.is_none() => html! {
                    // Tapped, "no player" says what that means: its units stay where they are.
                    <span class="hint">{" ("}<Term id="civil-disorder" text="no player"/>{")"}</span>
                },
                _ => html! {},
            } }
            <b class="osc" title="supply centres">{s.game.centre_count(p)}</b>
            <span class="hint">{format!("{units} unit{}", if units == 1 { "" } else { "s" })}</span>
        </li>
    }
}

/// Hot-seat: who plays each power, changeable during the game. Open, with a notice, when the
/// game came with no seats (an imported save makes every power human).
fn seats_box(app: &H, s: &OrdersSession, playing: &[PowerId]) -> Html {
    let map = s.map();
    let row = |p: PowerId| {
        let d = app.dispatcher();
        let pw = &map.powers[p as usize];
        crate::widgets::SeatRow {
            colour: power_colour(p),
            name: pw.name.clone(),
            select: crate::widgets::select(
                format!("oseat-{}", pw.key),
                "",
                s.seats.get(p as usize).copied().unwrap_or(Seat::Human),
                vec![
                    (Seat::Human, "Human".to_string()),
                    (
                        Seat::Computer(BotLevel::Hard),
                        "Computer (hard)".to_string(),
                    ),
                    (
                        Seat::Computer(BotLevel::Normal),
                        "Computer (normal)".to_string(),
                    ),
                    (
                        Seat::Computer(BotLevel::Easy),
                        "Computer (easy)".to_string(),
                    ),
                    (Seat::Idle, "Nobody (units hold)".to_string()),
                ],
                Callback::from(move |seat| d.dispatch(OMsg::SetSeat(p, seat))),
            ),
        }
    };
    crate::widgets::seats_box(
        "oseats",
        "Who plays each power",
        s.seats_open,
        s.seats_unknown.then_some(("oseats-unknown", "This game was loaded from a file, which does not say who plays each power: every power is human for now. Hand the computer's powers back to the computer here.")),
        playing.iter().map(|&p| row(p)).collect(),
    )
}

/// The last phase's orders and how each fared.
pub fn results_list(s: &OrdersSession) -> Html {
    let Some(r) = &s.last else {
        return html! {};
    };
    let map = s.map();
    let mut list: Vec<(String, &orbis_engine::rules::orders::OrderResult)> = r
        .results
        .iter()
        .map(|o| (notation::print(map, &o.order), o))
        .collect();
    list.sort_by(|a, b| (a.1.power, &a.0).cmp(&(b.1.power, &b.0)));
    html! {
        <section class="oresults">
            <h2>{format!("Results: {}", r.title)}</h2>
            <ul id="oresults">
                { for list.into_iter().map(|(text, o)| {
                    let ok = o.outcome == Outcome::Ok;
                    html! {
                        <li class={classes!(if ok { "ok" } else { "fail" })}>
                            <span class="swatch" style={format!("background:{}", power_colour(o.power))}></span>
                            <code>{text}</code>
                            <b>{if ok { html! {"ok"} } else { html! { <>{"✗ "}{explain(o.outcome.word(), Rules::Orders)}</> } }}</b>
                        </li>
                    }
                }) }
            </ul>
            { for r.notes.iter().map(|n| html! { <p class="hint">{explain(n, Rules::Orders)}</p> }) }
        </section>
    }
}

/// "Which coast?" with a button per coast, while a fleet's move into a province with two
/// coasts it can reach waits for one (a button is the coast's click: the circles are small on
/// a phone).
fn coast_question(app: &H, s: &OrdersSession) -> Html {
    let coasts = s.coast_choices();
    if coasts.is_empty() {
        return html! {};
    }
    let map = s.map();
    html! {
        <div class="row ocoast" id="ocoast" role="group" aria-labelledby="ocoast-q">
            <b id="ocoast-q">{"Which coast?"}</b>
            { for coasts.into_iter().map(|(l, word)| {
                let key = map.loc_name(l);
                let id = format!("o-coast-{}", key.rsplit('/').next().unwrap_or("").to_lowercase());
                html! { <button class="btn small" {id} onclick={om(app, OMsg::Click(key))}>{word}</button> }
            }) }
        </div>
    }
}

fn entry_panel(app: &H, s: &OrdersSession, p: PowerId) -> Html {
    let map = s.map();
    let name = map.powers[p as usize].name.clone();
    let phase = s.game.phase;
    let mut buttons = vec![];
    if let Some(sel) = s.sel {
        match phase {
            Phase::Movement => {
                let fleet_at_sea = s
                    .game
                    .units
                    .iter()
                    .any(|u| u.loc == sel && u.kind == UnitType::Fleet)
                    && s.is_sea(sel.province);
                buttons.push(html! { <button class="btn small" id="o-hold" onclick={om(app, OMsg::Hold)}>{"Hold"}</button> });
                buttons.push(html! { <button class={classes!("btn", "small", matches!(s.mode, Mode::SupportPick | Mode::SupportTo(_)).then_some("on"))} id="o-support" onclick={om(app, OMsg::SetMode(Mode::SupportPick))}>{"Support…"}</button> });
                if fleet_at_sea {
                    buttons.push(html! { <button class={classes!("btn", "small", matches!(s.mode, Mode::ConvoyPick | Mode::ConvoyTo(_)).then_some("on"))} id="o-convoy" onclick={om(app, OMsg::SetMode(Mode::ConvoyPick))}>{"Convoy…"}</button> });
                }
                if s.can_combine() {
                    buttons.push(html! { <button class={classes!("btn", "small", (s.mode == Mode::CombinePick).then_some("on"))} id="o-combine" onclick={om(app, OMsg::SetMode(Mode::CombinePick))}>{"Combine…"}</button> });
                }
            }
            Phase::Retreat => {
                buttons.push(html! { <button class="btn small" id="o-disband" onclick={om(app, OMsg::Disband)}>{"Disband"}</button> });
            }
            Phase::Adjustment => {
                let prov = &map.provinces[sel.province as usize];
                buttons.push(html! { <button class="btn small" id="o-build-army" onclick={om(app, OMsg::Build(UnitType::Army, Loc::new(sel.province)))}>{"Build army"}</button> });
                if prov.kind == ProvinceKind::Coast {
                    for l in map.fleet_locs(sel.province) {
                        let seas = map.seas_of(l);
                        if s.game.options.fleet_facing && seas.len() > 1 {
                            // House option: the new fleet faces the sea the player picks.
                            for sea in seas {
                                let label = format!(
                                    "Build fleet ({} facing {})",
                                    map.loc_name(l),
                                    map.key(sea)
                                );
                                let id =
                                    format!("o-build-fleet-{}", map.key(sea).to_ascii_lowercase());
                                buttons.push(html! { <button class="btn small" {id} onclick={om(app, OMsg::BuildFacing(l, sea))}>{label}</button> });
                            }
                        } else {
                            let label = format!("Build fleet ({})", map.loc_name(l));
                            buttons.push(html! { <button class="btn small" onclick={om(app, OMsg::Build(UnitType::Fleet, l))}>{label}</button> });
                        }
                    }
                }
            }
            Phase::GameOver { .. } => {}
        }
        buttons.push(html! { <button class="btn small" id="o-cancel" onclick={om(app, OMsg::Cancel)}>{"Cancel"}</button> });
    }
    let adj = if phase == Phase::Adjustment {
        let n = s.game.adjustment(p);
        let text = if n > 0 {
            format!(
                "You may build {n} unit{} (in free home centres you own).",
                if n == 1 { "" } else { "s" }
            )
        } else {
            format!(
                "You must disband {} unit{}.",
                -n,
                if n == -1 { "" } else { "s" }
            )
        };
        html! { <p class="oadj" id="oadj">{explain(&text, Rules::Orders)}</p> }
    } else {
        html! {}
    };
    let text_cb = {
        let d = app.dispatcher();
        Callback::from(move |e: InputEvent| {
            d.dispatch(OMsg::Text(
                e.target_unchecked_into::<HtmlInputElement>().value(),
            ))
        })
    };
    let key_cb = {
        let d = app.dispatcher();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" {
                d.dispatch(OMsg::Type)
            }
        })
    };
    let ordered: Vec<u8> = s.draft.iter().map(|w| w.at.province).collect();
    let missing: Vec<String> = if phase == Phase::Adjustment {
        vec![]
    } else {
        s.orderable(p)
            .iter()
            .filter(|u| !ordered.contains(&u.loc.province))
            .map(|u| notation::print_unit(map, u.kind, u.loc))
            .collect()
    };
    let default = match phase {
        Phase::Retreat => "disband",
        _ => "hold",
    };
    let voted = s.draw_vote(p);
    html! {
        <div class="prompt mine" style={format!("--cur:{}", power_colour(p))}>
            <p id="prompt">{format!("{name}: {}", match phase {
                Phase::Retreat => "retreats",
                Phase::Adjustment => "builds and disbands",
                _ => "orders",
            })}</p>
            {adj}
            <p class="ocount" id="ocount" aria-live="polite">{s.progress(p)}</p>
            <p class="hint" id="ohint">{explain(&s.prompt(), Rules::Orders)}</p>
            { coast_question(app, s) }
            <div class="row">{ for buttons }</div>
            <div class="row otype">
                <input id="order-text" type="text" placeholder="e.g. A PAR - BUR" value={s.text.clone()}
                    oninput={text_cb} onkeydown={key_cb} autocomplete="off" spellcheck="false"
                    aria-label="Type an order in standard notation"/>
                <button class="btn small" id="order-add" onclick={om(app, OMsg::Type)}>{"Add"}</button>
            </div>
            if let Some(e) = &s.error {
                <p class="error" role="alert" id="oerror">{e.clone()}</p>
            }
            <h2>{"Your orders"}</h2>
            // Hot-seat only: online, a human seat's orders are the player's own.
            if s.online.is_none() {
                <p class="row osuggest">
                    <button class="btn small" id="o-suggest" disabled={s.suggesting.is_some()}
                        aria-describedby="osuggest-hint" onclick={om(app, OMsg::Suggest)}>
                        { if s.suggesting.is_some() { "The computer is thinking…" } else { "What would the computer do?" } }
                    </button>
                    <span class="hint" id="osuggest-hint">{"Fills in orders for your units that have none yet, as the computer would; change any before you submit."}</span>
                </p>
            }
            <ul class="odraft" id="odraft">
                { for s.draft.iter().enumerate().map(|(i, w)| html! {
                    <li><code>{notation::print(map, w)}</code>
                        <button class="x" aria-label="Remove" onclick={om(app, OMsg::Remove(i))}>{"✕"}</button></li>
                }) }
            </ul>
            if !missing.is_empty() {
                <p class="hint">{format!("Without orders ({default}): {}", missing.join(", "))}</p>
            }
            <div class="row">
                <button class="btn primary" id="o-submit" onclick={om(app, OMsg::Submit)}>{"Submit orders"}</button>
                <label class="check" for="o-draw">
                    <input type="checkbox" id="o-draw" checked={voted}
                        onchange={{ let d = app.dispatcher(); Callback::from(move |e: Event| {
                            d.dispatch(OMsg::Draw(e.target_unchecked_into::<HtmlInputElement>().checked()))
                        }) }}/>{"Accept a draw"}
                </label>
            </div>
        </div>
    }
}

/// Online, between entries: our orders are committed (or we have none this phase), or the last
/// results are on screen with the way on to our next orders.
fn online_panel(app: &H, s: &OrdersSession) -> Html {
    let g = &s.game;
    let Some(o) = &s.online else {
        return html! {};
    };
    let next = s.first_waiting();
    let text = if o.sent {
        "Your orders are committed; they are revealed when everyone has committed.".to_string()
    } else if next.is_some() {
        if s.last.is_some() {
            "All orders were revealed and resolved."
        } else {
            "Ready."
        }
        .to_string()
    } else {
        "Nothing to order for you in this phase.".to_string()
    };
    html! {
        <div class="prompt" id="oonline" data-sent={if o.sent { "1" } else { "0" }}>
            <p id="prompt">{text}</p>
            if !o.sent && next.is_some() {
                <button class="btn primary" id="o-continue" onclick={om(app, OMsg::Continue)}>
                    {format!("Continue to {} {} {}", season_word(g.season), g.year, phase_word(g.phase))}
                </button>
            }
            if o.sent {
                <ul class="odraft" id="ocommitted-orders">
                    { for s.online_payload().orders.iter().flat_map(|(_, l)| l.iter()).map(|w| html! {
                        <li><code>{notation::print(s.map(), w)}</code></li>
                    }) }
                </ul>
                if s.online_payload().draw.iter().any(|&(_, a)| a) {
                    <p class="hint" id="odraw-sent">{"You accept a draw (revealed with the orders)."}</p>
                }
            }
            <p class="hint" id="ocommitted">{format!("Committed: {}", if o.committed.is_empty() { "nobody yet".to_string() } else { o.committed.join(", ") })}</p>
            if !o.waiting.is_empty() {
                <p class="hint" id="owaiting">{format!("Waiting for: {}", o.waiting.join(", "))}</p>
            }
            if let Some(e) = &s.error { <p class="error" role="alert">{e.clone()}</p> }
        </div>
    }
}

pub fn play(app: &H) -> Html {
    let Some(s) = app.orders else {
        return html! {};
    };
    let map = s.map();
    let g = &s.game;
    let title = match g.phase {
        Phase::GameOver { .. } => "Game over".to_string(),
        ph => format!("{} {} — {}", season_word(g.season), g.year, phase_word(ph)),
    };
    let export = {
        let g = g.clone();
        Callback::from(move |_: MouseEvent| {
            let bytes = orbis_engine::rules::Game::Orders(g.clone()).to_save();
            crate::store::download(
                &format!(
                    "orbis-orders-{}-{}.orbis",
                    season_word(g.season).to_lowercase(),
                    g.year
                ),
                &bytes,
            )
        })
    };
    let playing: Vec<PowerId> = (0..map.powers.len() as PowerId)
        .filter(|&p| g.alive(p) || map.homes(p).any(|h| g.centres.get(&h) == Some(&p)))
        .collect();
    let header = html! {
        <header class="bar">
            <button class="btn small" id="menu-btn" onclick={om(app, OMsg::Nav(Nav::Menu))} aria-label="Menu">{"☰ Menu"}</button>
            <button class="btn small" id="rules-btn" onclick={om(app, OMsg::Nav(Nav::Rules))}>{"? How to play"}</button>
            <h1 class="title">{"Orbis"}</h1>
            <span class="turn" id="oseason">{title}</span>
            <button class="btn small" onclick={export}>{"Export save"}</button>
        </header>
    };
    let side = match s.stage {
        Stage::Curtain(p) => html! {
            <div class="prompt ocurtain" style={format!("--cur:{}", power_colour(p))}>
                <p id="prompt">{format!("Pass the device to {}.", map.powers[p as usize].name)}</p>
                <p class="hint">{"The other powers must not look: orders are secret until everyone has submitted."}</p>
                <button class="btn primary" id="o-reveal" onclick={om(app, OMsg::Reveal)}>
                    {format!("I am {} — show my orders", map.powers[p as usize].name)}
                </button>
            </div>
        },
        Stage::Enter(p) => entry_panel(app, s, p),
        Stage::Results if s.thinking => html! {
            <div class="prompt">
                <p id="prompt" role="status">{"All your orders are in. The computer powers are writing theirs…"}</p>
                <p class="hint">{"The map still answers while they think: the phase is resolved as soon as their orders are in."}</p>
            </div>
        },
        Stage::Results if s.online.is_some() && !matches!(g.phase, Phase::GameOver { .. }) => {
            online_panel(app, s)
        }
        Stage::Results => {
            let over = match g.phase {
                Phase::GameOver { winner: Some(w) } => Some(format!(
                    "{} wins with {} supply centres!",
                    map.powers[w as usize].name,
                    g.centre_count(w)
                )),
                Phase::GameOver { winner: None } => Some("The game is drawn.".into()),
                _ => None,
            };
            html! {
                <div class="prompt">
                    if let Some(o) = over {
                        <p id="prompt" class="owinner">{o}</p>
                    } else {
                        <p id="prompt">{ if s.last.is_some() { "All orders are in and resolved." } else { "Ready." } }</p>
                        <button class="btn primary" id="o-continue" onclick={om(app, OMsg::Continue)}>
                            {format!("Continue to {} {} {}", season_word(g.season), g.year, phase_word(g.phase))}
                        </button>
                    }
                    if let Some(e) = &s.error { <p class="error" role="alert">{e.clone()}</p> }
                </div>
            }
        }
    };
    let show_map = !matches!(s.stage, Stage::Curtain(_));
    let over = match g.phase {
        Phase::GameOver { winner } => {
            let text = match winner {
                Some(w) => format!(
                    "{} wins with {} of {} supply centres!",
                    map.powers[w as usize].name,
                    g.centre_count(w),
                    map.centres().count()
                ),
                None => "The game is drawn.".to_string(),
            };
            html! {
                <div class="ogameover" id="ogameover" role="dialog" aria-label="Game over">
                    <h2>{text}</h2>
                    <ul class="players">{ for playing.iter().map(|&p| power_chip(s, p)) }</ul>
                    <button class="btn primary" onclick={om(app, OMsg::Nav(Nav::Setup))}>{"New game"}</button>
                    if s.history.is_some() {
                        <button class="btn" id="oreplay" onclick={om(app, OMsg::Nav(Nav::Replay))}>{"Replay"}</button>
                    }
                </div>
            }
        }
        _ => html! {},
    };
    html! {
        <>
            // One tab stop on the map, but the skip link still leads past it to the orders.
            { crate::keynav::skip_link(crate::keynav::CONTROLS) }
            {header}
            <main class="play oplay">
                <div class="map-wrap">
                    if show_map {
                        { board(app, s) }
                        {over}
                    } else {
                        <div class="ocover"><p>{"Orders are hidden. Pass the device."}</p></div>
                    }
                </div>
                <aside class="side" id={crate::keynav::CONTROLS} tabindex="-1">
                    <ul class="players" id="ocentres">{ for playing.iter().map(|&p| power_chip(s, p)) }</ul>
                    {side}
                    if s.stage == Stage::Results {
                        {results_list(s)}
                    } else if s.last.is_some() && matches!(s.stage, Stage::Enter(_)) {
                        <details class="olast"><summary>{"Last results"}</summary>{results_list(s)}</details>
                    }
                    <p class="hint olegend">
                        if regions_available(s) && !s.schematic {
                            {"Legend: a supply centre's region in its owner's colour and pattern, small dot = supply centre (owner's colour), grey land is not played; click a coast's circle (nc, sc, ec) for a fleet on that coast; arrows are moves, dashed lines supports and convoys; red ✗ = the order failed."}
                        } else {
                            {"Legend: ○ land, ▭ sea, blue ring = coast, small dot = supply centre (owner's colour); grey lines are land borders, dashed blue lines fleet-only links; arrows are moves, dashed lines supports and convoys; red ✗ = the order failed."}
                        }
                        if s.game.options.no_retreat_into_foreign_territory { {" A tinted province is a power's territory: other powers cannot retreat into it; ☆ marks one it took over."} }
                    </p>
                    { stats(s) }
                    if s.online.is_none() { { seats_box(app, s, &playing) } }
                </aside>
            </main>
        </>
    }
}
