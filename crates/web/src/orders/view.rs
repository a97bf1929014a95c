//! Screens of the orders ruleset: setup, the schematic map (provinces as nodes placed by
//! `web/map/orders-layout.json`, adjacency as thin edges, units as A/F badges), order entry,
//! the pass-the-device screen and the results drawn as arrows.

use crate::geometry::{ORDERS_LAYOUT, OUTLINES, SHAPES};
use crate::orders::{
    phase_word, power_colour, season_word, Mode, OMsg, OrdersForm, OrdersSession, Stage, View,
};
use crate::widgets::Nav;
use orbis_engine::rules::orders::adjudicator::{Loc, Outcome, UnitType};
use orbis_engine::rules::orders::map::{OrdersMap, PowerId, ProvinceKind};
use orbis_engine::rules::orders::notation::{self, Spec, Written};
use orbis_engine::rules::orders::Phase;
use std::collections::BTreeMap;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

type H<'a> = View<'a>;

/// A click handler that sends `m` (one non-generic helper keeps the wasm small).
fn om(app: &H, m: OMsg) -> Callback<MouseEvent> {
    let d = app.dispatcher();
    Callback::from(move |_: MouseEvent| d.dispatch(m.clone()))
}

/// Node positions of a map: location key → (x, y); view box; scale of the classic artwork
/// drawn behind (0: none).
struct Layout {
    view: [f32; 4],
    art: f32,
    pos: BTreeMap<&'static str, (f32, f32)>,
}

fn layout(map_id: &str) -> Layout {
    let (view, art, nodes) = ORDERS_LAYOUT
        .iter()
        .find(|(id, ..)| *id == map_id)
        .map(|(_, v, a, n)| (*v, *a, *n))
        .unwrap_or(([0.0, 0.0, 1000.0, 800.0], 0.0, &[]));
    Layout {
        view,
        art,
        pos: nodes.iter().map(|&(k, x, y)| (k, (x, y))).collect(),
    }
}

impl Layout {
    fn at(&self, map: &OrdersMap, l: Loc) -> (f32, f32) {
        let key = map.loc_name(l);
        self.pos
            .get(key.as_str())
            .or_else(|| self.pos.get(map.key(l.province)))
            .copied()
            .unwrap_or((0.0, 0.0))
    }
}

/// A coordinate with one decimal, without the float formatter (kilobytes in the wasm).
fn n1(v: f32) -> String {
    let mut s = String::new();
    crate::widgets::tenths(&mut s, (v * 10.0).round() as i64);
    s
}

// ---------------------------------------------------------------- setup

/// The orders new-game form: map, players, which powers are human, house options.
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
            g.human = vec![true; m.powers.len()];
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
                g.human[p as usize] = v == "human";
                edit(g);
            })
        };
        let human = f.human.get(p as usize).copied().unwrap_or(true);
        let pw = &map.powers[p as usize];
        html! {
            <fieldset class="seat" style={format!("--seat:{}", power_colour(p))}>
                <legend>{pw.name.clone()}</legend>
                <label class="field" for={format!("opower-{}", pw.key)}><span>{"Played by"}</span>
                    <select id={format!("opower-{}", pw.key)} onchange={cb}>
                        <option value="human" selected={human}>{"Human (hot-seat)"}</option>
                        <option value="cd" selected={!human}>{"Nobody (civil disorder: units hold)"}</option>
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
                <p class="hint">{"Every power writes its orders in secret; all are revealed and resolved at once (Diplomacy rules)."}</p>
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
            </section>
            <section class="panel-box options">
                <h2>{"House options"}</h2>
                { check("opt-noretreat", "No retreat into another power's home or owned centre", f.options.no_retreat_into_foreign_territory, |g, v| g.options.no_retreat_into_foreign_territory = v) }
                { check("opt-combine", "Combine: two adjacent units may merge in Fall (A WAR COMBINE A LVN)", f.options.combine, |g, v| g.options.combine = v) }
                { check("opt-facing", "Fleets face a sea: a fleet on a coast moves, supports and retreats only along its sea (build F BRE B FACING MAO)", f.options.fleet_facing, |g, v| g.options.fleet_facing = v) }
            </section>
        </>
    }
}

// ---------------------------------------------------------------- board

/// Decoded outlines of the classic artwork, for the world orders map's background.
fn art_paths() -> &'static [String] {
    static P: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    P.get_or_init(|| {
        SHAPES
            .iter()
            .map(|&(_, off, len, _, _)| {
                crate::widgets::outline(&OUTLINES[off as usize..(off + len) as usize])
            })
            .collect()
    })
}

/// Escapes text for the SVG markup.
fn esc(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Appends one order as SVG: moves as arrows, supports and convoys as dashed lines to the middle
/// of the supported move, holds as rings; failed orders in red with ✗ and the result word.
fn arrow(
    out: &mut String,
    lay: &Layout,
    map: &OrdersMap,
    w: &Written,
    power: PowerId,
    outcome: Option<Outcome>,
    units_at: &dyn Fn(Loc) -> Loc,
) {
    use std::fmt::Write;
    let from = lay.at(map, w.at);
    let failed = matches!(outcome, Some(o) if o != Outcome::Ok);
    let colour = if failed {
        "#c1121f"
    } else {
        power_colour(power)
    };
    let cls = if failed { "oarrow failed" } else { "oarrow" };
    let word = outcome.map(|o| o.word()).filter(|w| *w != "ok");
    let order = esc(&notation::print(map, w));
    let mut line = |a: (f32, f32), b: (f32, f32), dashed: bool, head: bool| {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let cut = if head { 17.0 } else { 4.0 };
        let s = 10.0 / len;
        let e = ((len - cut) / len).max(0.0);
        let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
        let _ = write!(
            out,
            r#"<g class="{cls}" data-order="{order}"><line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{colour}"{}{}/>"#,
            n1(a.0 + dx * s),
            n1(a.1 + dy * s),
            n1(a.0 + dx * e),
            n1(a.1 + dy * e),
            if dashed {
                r#" stroke-dasharray="6 4""#
            } else {
                ""
            },
            match (head, failed) {
                (false, _) => "",
                (true, false) => r#" marker-end="url(#ah)""#,
                (true, true) => r#" marker-end="url(#ah-fail)""#,
            }
        );
        if failed {
            let _ = write!(
                out,
                r#"<text class="ofail" x="{}" y="{}">✗</text>"#,
                n1(mid.0),
                n1(mid.1 + 6.0)
            );
        }
        if let Some(word) = word {
            let _ = write!(
                out,
                r#"<text class="oword" x="{}" y="{}">{word}</text>"#,
                n1(mid.0),
                n1(mid.1 - 9.0)
            );
        }
        out.push_str("</g>");
    };
    let mid = |a: Loc, b: Loc| {
        let (a, b) = (lay.at(map, a), lay.at(map, b));
        ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
    };
    match w.spec {
        Spec::Move { to, .. } | Spec::Retreat { to } => line(from, lay.at(map, to), false, true),
        Spec::SupportHold { target, .. } => line(from, lay.at(map, units_at(target)), true, false),
        Spec::SupportMove { from: f, to, .. } => line(from, mid(units_at(f), to), true, false),
        Spec::Convoy { from: f, to } => line(from, mid(f, to), true, false),
        Spec::Combine { into } => line(from, lay.at(map, into), true, true),
        Spec::Hold | Spec::Build | Spec::BuildFacing { .. } | Spec::Disband => {
            let sym = match w.spec {
                Spec::Hold => "",
                Spec::Build | Spec::BuildFacing { .. } => "+",
                _ => "✗",
            };
            let _ = write!(
                out,
                r#"<g class="{cls}" data-order="{order}"><circle cx="{}" cy="{}" r="19" fill="none" stroke="{colour}" stroke-width="2.5"/>"#,
                n1(from.0),
                n1(from.1)
            );
            if !sym.is_empty() {
                let _ = write!(
                    out,
                    r#"<text class="osym" x="{}" y="{}">{sym}</text>"#,
                    n1(from.0 + 18.0),
                    n1(from.1 - 12.0)
                );
            }
            if let Some(word) = word {
                let _ = write!(
                    out,
                    r#"<text class="oword" x="{}" y="{}">{word}</text>"#,
                    n1(from.0),
                    n1(from.1 + 31.0)
                );
            }
            out.push_str("</g>");
        }
    }
}

/// The map as SVG markup (one string: far smaller in the wasm than a tree of `html!` nodes, and
/// one DOM update per change). Clicks are delegated: the nearest `[data-key]` is the location.
fn board_svg(s: &OrdersSession) -> String {
    use std::fmt::Write;
    let map = s.map();
    let lay = layout(&s.game.map_id);
    let me = match s.stage {
        Stage::Enter(p) => Some(p),
        _ => None,
    };
    let mut o = String::with_capacity(48 * 1024);
    let z = s.view.unwrap_or(lay.view);
    let v = lay.view;
    let _ = write!(
        o,
        r##"<svg class="map omap" viewBox="{} {} {} {}" role="img" aria-label="Map: {}"><defs><marker id="ah" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#222"/></marker><marker id="ah-fail" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#c1121f"/></marker></defs><rect class="obg" x="{}" y="{}" width="{}" height="{}"/>"##,
        n1(z[0]),
        n1(z[1]),
        n1(z[2]),
        n1(z[3]),
        esc(&map.name),
        n1(v[0]),
        n1(v[1]),
        n1(v[2]),
        n1(v[3])
    );
    if lay.art > 0.0 {
        let _ = write!(o, r#"<g class="oart" transform="scale({})">"#, n1(lay.art));
        for d in art_paths() {
            let _ = write!(o, r#"<path d="{d}"/>"#);
        }
        o.push_str("</g>");
    }
    // Adjacency edges, each once: land borders solid, fleet-only links dashed.
    let mut edges = String::new();
    let mut sea_edges = String::new();
    for (i, p) in map.provinces.iter().enumerate() {
        let a = lay.at(map, Loc::new(i as u8));
        for &j in &p.army {
            if (j as usize) > i {
                let b = lay.at(map, Loc::new(j));
                let _ = write!(edges, "M{} {}L{} {}", n1(a.0), n1(a.1), n1(b.0), n1(b.1));
            }
        }
        for fl in map.fleet_locs(i as u8) {
            let a = lay.at(map, fl);
            for t in map.fleet_targets(fl) {
                if (t.province as usize) > i
                    && !(p.army.contains(&t.province) && fl.coast.is_none() && t.coast.is_none())
                {
                    let b = lay.at(map, *t);
                    let _ = write!(
                        sea_edges,
                        "M{} {}L{} {}",
                        n1(a.0),
                        n1(a.1),
                        n1(b.0),
                        n1(b.1)
                    );
                }
            }
        }
    }
    let _ = write!(
        o,
        r#"<path class="oedge" d="{edges}"/><path class="oedge sea" d="{sea_edges}"/>"#
    );
    let selectable: Vec<u8> = match me {
        Some(p) => {
            let mut v: Vec<u8> = s.orderable(p).iter().map(|u| u.loc.province).collect();
            v.extend(s.build_sites(p));
            v
        }
        None => vec![],
    };
    for (i, p) in map.provinces.iter().enumerate() {
        let (x, y) = lay.at(map, Loc::new(i as u8));
        let owner = s.game.centres.get(&(i as u8)).copied();
        let kind = match p.kind {
            ProvinceKind::Sea => "sea",
            ProvinceKind::Land => "land",
            ProvinceKind::Coast => "coast",
        };
        let sel = s.sel.is_some_and(|l| l.province == i as u8);
        let fill = match (p.kind, owner) {
            (ProvinceKind::Sea, _) => "#a9cde9".to_string(),
            (_, Some(o)) => format!("{}55", power_colour(o)),
            _ => "#efe6cf".to_string(),
        };
        let _ = write!(
            o,
            r#"<g class="onode {kind}{}{}" data-key="{}" tabindex="-1"><title>{}</title>"#,
            if selectable.contains(&(i as u8)) {
                " can"
            } else {
                ""
            },
            if sel { " sel" } else { "" },
            p.key,
            esc(&p.name)
        );
        if p.kind == ProvinceKind::Sea {
            let _ = write!(
                o,
                r#"<rect x="{}" y="{}" width="40" height="28" rx="10" fill="{fill}"/>"#,
                n1(x - 20.0),
                n1(y - 14.0)
            );
        } else {
            let _ = write!(
                o,
                r#"<circle cx="{}" cy="{}" r="18" fill="{fill}"/>"#,
                n1(x),
                n1(y)
            );
        }
        let _ = write!(
            o,
            r#"<text class="okey" x="{}" y="{}">{}</text>"#,
            n1(x),
            n1(y - 20.0),
            p.key
        );
        if p.centre {
            let _ = write!(
                o,
                r#"<circle class="ocentre" cx="{}" cy="{}" r="5" fill="{}"/>"#,
                n1(x + 13.0),
                n1(y + 13.0),
                owner.map(power_colour).unwrap_or("#fff")
            );
        }
        o.push_str("</g>");
        for (c, _) in &p.coasts {
            let l = Loc::coast(i as u8, *c);
            let (cx, cy) = lay.at(map, l);
            let _ = write!(
                o,
                r#"<g class="ocoast" data-key="{}"><line class="ocoastline" x1="{}" y1="{}" x2="{}" y2="{}"/><circle cx="{}" cy="{}" r="8"/><text x="{}" y="{}">{}</text></g>"#,
                map.loc_name(l),
                n1(x),
                n1(y),
                n1(cx),
                n1(cy),
                n1(cx),
                n1(cy),
                n1(cx),
                n1(cy + 3.0),
                c.abbrev().to_ascii_lowercase()
            );
        }
    }
    // Units: A/F badges in the power's colour; dislodged units offset with a red dashed border.
    o.push_str(r#"<g class="ounits">"#);
    let pieces = s
        .game
        .units
        .iter()
        .map(|u| (u, false))
        .chain(s.game.dislodged.iter().map(|d| (&d.piece, true)));
    for (u, dislodged) in pieces {
        let (mut x, mut y) = lay.at(map, u.loc);
        if dislodged {
            x += 14.0;
            y += 12.0;
        }
        let letter = match u.kind {
            UnitType::Army => "A",
            UnitType::Fleet => "F",
        };
        // House option "fleets face a sea": a short tick from the fleet towards its sea, and the
        // sea in the tooltip.
        let facing = u.facing.map(|sea| {
            let (sx, sy) = lay.at(map, Loc::new(sea));
            let (dx, dy) = (sx - x, sy - y);
            let len = (dx * dx + dy * dy).sqrt().max(1.0);
            (sea, x + dx / len * 26.0, y + dy / len * 26.0)
        });
        if let Some((_, ex, ey)) = facing {
            let _ = write!(
                o,
                r#"<line class="ofacing" x1="{}" y1="{}" x2="{}" y2="{}"/><circle class="ofacing" cx="{}" cy="{}" r="3.5"/>"#,
                n1(x),
                n1(y),
                n1(ex),
                n1(ey),
                n1(ex),
                n1(ey)
            );
        }
        let title = match facing {
            Some((sea, _, _)) => format!(
                "<title>{letter} {} facing {}</title>",
                map.loc_name(u.loc),
                esc(&map.provinces[sea as usize].name)
            ),
            None => String::new(),
        };
        let _ = write!(
            o,
            r#"<g class="ounit{}" data-unit="{letter} {}" data-power="{}"{}>{title}<rect x="{}" y="{}" width="22" height="18" rx="{}" fill="{}"/><text x="{}" y="{}">{letter}{}</text></g>"#,
            if dislodged { " dislodged" } else { "" },
            map.loc_name(u.loc),
            map.powers[u.power as usize].key,
            facing
                .map(|(sea, _, _)| format!(r#" data-facing="{}""#, map.key(sea)))
                .unwrap_or_default(),
            n1(x - 11.0),
            n1(y - 9.0),
            if u.kind == UnitType::Army { 3 } else { 9 },
            power_colour(u.power),
            n1(x),
            n1(y + 4.5),
            if u.strength > 1 { "2" } else { "" }
        );
    }
    o.push_str("</g>");
    // Arrows: the draft of the power at the device, or the last results for everybody.
    o.push_str(r#"<g class="oarrows">"#);
    let unit_loc = |l: Loc| -> Loc {
        s.game
            .units
            .iter()
            .chain(s.game.dislodged.iter().map(|d| &d.piece))
            .find(|u| u.loc.province == l.province)
            .map(|u| u.loc)
            .unwrap_or(l)
    };
    match (s.stage, &s.last) {
        (Stage::Enter(p), _) => {
            for w in &s.draft {
                arrow(&mut o, &lay, map, w, p, None, &unit_loc);
            }
        }
        (Stage::Results, Some(r)) => {
            for res in &r.results {
                arrow(
                    &mut o,
                    &lay,
                    map,
                    &res.order,
                    res.power,
                    Some(res.outcome),
                    &|l| l,
                );
            }
        }
        _ => {}
    }
    o.push_str("</g></svg>");
    o
}

/// Zooms `v` by `f` (< 1: in) around the fraction (fx, fy) of it, within the map `full`.
fn zoom(full: [f32; 4], v: [f32; 4], f: f32, fx: f32, fy: f32) -> Option<[f32; 4]> {
    let w = (v[2] * f).clamp(full[2] / 6.0, full[2]);
    let h = w * full[3] / full[2];
    if w >= full[2] {
        return None;
    }
    Some(pan(
        full,
        [v[0] + (v[2] - w) * fx, v[1] + (v[3] - h) * fy, w, h],
    ))
}

/// Keeps a view inside the map.
fn pan(full: [f32; 4], v: [f32; 4]) -> [f32; 4] {
    [
        v[0].clamp(full[0], full[0] + full[2] - v[2]),
        v[1].clamp(full[1], full[1] + full[3] - v[3]),
        v[2],
        v[3],
    ]
}

/// Drag in progress: pointer position and view at the start; whether it moved (then the click
/// that ends it is not an order).
type DragState = (Option<(f64, f64, [f32; 4])>, bool);

thread_local! {
    static DRAG: std::cell::Cell<DragState> = const { std::cell::Cell::new((None, false)) };
}

fn board(app: &H, s: &OrdersSession) -> Html {
    let full = layout(&s.game.map_id).view;
    let v = s.view.unwrap_or(full);
    let onclick = {
        let d = app.dispatcher();
        Callback::from(move |e: MouseEvent| {
            use wasm_bindgen::JsCast;
            if DRAG.with(|c| c.get().1) {
                return;
            }
            let key = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|el| el.closest("[data-key]").ok().flatten())
                .and_then(|el| el.get_attribute("data-key"));
            if let Some(k) = key {
                d.dispatch(OMsg::Click(k));
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
            d.dispatch(OMsg::View(zoom(full, v, f, fx as f32, fy as f32)));
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
    html! {
        <>
            <div class="omap-host" {onclick} {onwheel} {onpointerdown} {onpointermove}
                onpointerup={onpointerup.clone()} onpointercancel={onpointerup.clone()} onpointerleave={onpointerup}>
                { Html::from_html_unchecked(board_svg(s).into()) }
            </div>
            <div class="zoom">
                { zbtn("+", "Zoom in", 1.0 / 1.4) }
                { zbtn("−", "Zoom out", 1.4) }
                { zbtn("⤢", "Whole map", 0.0) }
            </div>
        </>
    }
}

// ---------------------------------------------------------------- panel

fn power_chip(s: &OrdersSession, p: PowerId) -> Html {
    let map = s.map();
    let units = s.game.units.iter().filter(|u| u.power == p).count();
    html! {
        <li class={classes!((!s.game.alive(p)).then_some("dead"))} data-power={map.powers[p as usize].key.clone()}>
            <span class="swatch" style={format!("background:{}", power_colour(p))}></span>
            {map.powers[p as usize].name.clone()}
            <b class="osc" title="supply centres">{s.game.centre_count(p)}</b>
            <span class="hint">{format!("{units} unit{}", if units == 1 { "" } else { "s" })}</span>
        </li>
    }
}

fn results_list(s: &OrdersSession) -> Html {
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
            <h3>{format!("Results: {}", r.title)}</h3>
            <ul id="oresults">
                { for list.into_iter().map(|(text, o)| {
                    let ok = o.outcome == Outcome::Ok;
                    html! {
                        <li class={classes!(if ok { "ok" } else { "fail" })}>
                            <span class="swatch" style={format!("background:{}", power_colour(o.power))}></span>
                            <code>{text}</code>
                            <b>{if ok { "ok".to_string() } else { format!("✗ {}", o.outcome.word()) }}</b>
                        </li>
                    }
                }) }
            </ul>
            { for r.notes.iter().map(|n| html! { <p class="hint">{n.clone()}</p> }) }
        </section>
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
        html! { <p class="oadj" id="oadj">{text}</p> }
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
            <p id="prompt">{format!("{name}: {} orders", phase_word(phase))}</p>
            {adj}
            <p class="hint" id="ohint">{s.prompt()}</p>
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
            <h3>{"Your orders"}</h3>
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
            crate::store::download("orbis-orders.orbis", &bytes)
        })
    };
    let playing: Vec<PowerId> = (0..map.powers.len() as PowerId)
        .filter(|&p| g.alive(p) || map.homes(p).any(|h| g.centres.get(&h) == Some(&p)))
        .collect();
    let header = html! {
        <header class="bar">
            <button class="btn small" id="menu-btn" onclick={om(app, OMsg::Nav(Nav::Menu))} aria-label="Menu">{"☰ Menu"}</button>
            <span class="title">{"Orbis"}</span>
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
                </div>
            }
        }
        _ => html! {},
    };
    html! {
        <>
            {header}
            <div class="play oplay">
                <div class="map-wrap">
                    if show_map {
                        { board(app, s) }
                        {over}
                    } else {
                        <div class="ocover"><p>{"Orders are hidden. Pass the device."}</p></div>
                    }
                </div>
                <aside class="side">
                    <ul class="players" id="ocentres">{ for playing.iter().map(|&p| power_chip(s, p)) }</ul>
                    {side}
                    if s.stage == Stage::Results {
                        {results_list(s)}
                    } else if s.last.is_some() && matches!(s.stage, Stage::Enter(_)) {
                        <details class="olast"><summary>{"Last results"}</summary>{results_list(s)}</details>
                    }
                    <p class="hint olegend">{"Legend: ○ land, ▭ sea, blue ring = coast, small dot = supply centre (owner's colour); grey lines are land borders, dashed blue lines fleet-only links; arrows are moves, dashed lines supports and convoys; red ✗ = the order failed."}</p>
                </aside>
            </div>
        </>
    }
}
