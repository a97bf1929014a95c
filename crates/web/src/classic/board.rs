//! The world map as SVG: owner colour plus a per-player pattern and badge shape (colour-blind
//! safe), army counts, continent tint, sea lanes, highlights, pan/zoom, keyboard navigation.

use crate::classic::play::{Msg, View};
use crate::geometry::{ART, OUTLINES, SEA, SHAPES, VIEWBOX};
use crate::keynav;
use crate::widgets::colour_css;
use crate::widgets::{clamp_view, f1, narrow, outline, pattern, zoom};
use orbis_engine::classic::{ClassicState, Owner, Phase};
use orbis_engine::map::TerritoryId;
use orbis_engine::view;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

const CONTINENT_TINT: [&str; 6] = [
    "#e9c46a", "#e76f51", "#6c8ebf", "#a77d4f", "#7fb069", "#b084cc",
];

/// Geometry of each territory, in map order: (path, label x, label y). Decoded once.
fn geometry(s: &ClassicState) -> Vec<(&'static str, f32, f32)> {
    static PATHS: std::sync::OnceLock<Vec<(&'static str, &'static str, f32, f32)>> =
        std::sync::OnceLock::new();
    let all = PATHS.get_or_init(|| {
        SHAPES
            .iter()
            .map(|&(k, off, len, x, y)| {
                let d: &'static str = Box::leak(
                    outline(&OUTLINES[off as usize..(off + len) as usize]).into_boxed_str(),
                );
                (k, d, x, y)
            })
            .collect()
    });
    s.map()
        .territories
        .iter()
        .map(|t| {
            all.iter()
                .find(|x| x.0 == t.key)
                .map(|x| (x.1, x.2, x.3))
                .unwrap_or(("", 0.0, 0.0))
        })
        .collect()
}

fn badge(seat: usize, x: f32, y: f32, r: f32, fill: &str, stroke: &str) -> Html {
    let style = format!("fill:{fill};stroke:{stroke}");
    let poly = |pts: &[(f32, f32)]| {
        let p: Vec<String> = pts
            .iter()
            .map(|(a, b)| format!("{},{}", f1(x + a * r), f1(y + b * r)))
            .collect();
        html! { <polygon class="badge" points={p.join(" ")} style={style.clone()}/> }
    };
    match seat {
        // Neutral and unclaimed: a wide pill, unlike any player's shape.
        6 => html! {
            <rect class="badge" x={f1(x - r * 1.25)} y={f1(y - r * 0.8)} width={f1(r * 2.5)}
                height={f1(r * 1.6)} rx={f1(r * 0.8)} style={style}/>
        },
        0 => html! { <circle class="badge" cx={f1(x)} cy={f1(y)} r={f1(r)} style={style}/> },
        1 => poly(&[(-0.9, -0.9), (0.9, -0.9), (0.9, 0.9), (-0.9, 0.9)]),
        2 => poly(&[(0.0, -1.25), (1.25, 0.0), (0.0, 1.25), (-1.25, 0.0)]),
        3 => poly(&[
            (-0.55, -1.0),
            (0.55, -1.0),
            (1.1, 0.0),
            (0.55, 1.0),
            (-0.55, 1.0),
            (-1.1, 0.0),
        ]),
        4 => poly(&[
            (-1.0, -0.95),
            (1.0, -0.95),
            (1.0, 0.3),
            (0.0, 1.2),
            (-1.0, 0.3),
        ]),
        _ => poly(&[
            (-0.45, -1.05),
            (0.45, -1.05),
            (1.05, -0.45),
            (1.05, 0.45),
            (0.45, 1.05),
            (-0.45, 1.05),
            (-1.05, 0.45),
            (-1.05, -0.45),
        ]),
    }
}

/// Pattern definitions: one per seat, drawn over the owner colour.
fn defs(s: &ClassicState) -> Html {
    let pats = s.players.iter().enumerate().map(|(i, p)| {
        let c = colour_css(p.colour);
        let ink = if matches!(
            p.colour,
            orbis_engine::classic::Colour::Yellow | orbis_engine::classic::Colour::Grey
        ) {
            "rgba(0,0,0,.28)"
        } else {
            "rgba(255,255,255,.33)"
        };
        pattern(format!("pat-{i}"), c, ink, i)
    });
    html! { <defs>{ for pats }</defs> }
}

#[derive(Default)]
struct Drag {
    down: Cell<Option<(f64, f64)>>,
    start_view: Cell<[f32; 4]>,
    moved: Cell<bool>,
    /// Pointers currently down (id, x, y), for pinch zoom.
    pointers: std::cell::RefCell<Vec<(i32, f64, f64)>>,
    /// Distance between two pinching pointers at the start, and the view then.
    pinch: Cell<Option<(f64, [f32; 4])>>,
}

fn spread(p: &[(i32, f64, f64)]) -> f64 {
    ((p[0].1 - p[1].1).powi(2) + (p[0].2 - p[1].2).powi(2))
        .sqrt()
        .max(1.0)
}

pub fn board(app: &View, drag: Rc<DragRef>) -> Html {
    let Some(g) = app.game.as_ref() else {
        return html! {};
    };
    let s = g;
    let map = s.map();
    let geo = geometry(s);
    let d = app.dispatcher();
    let ui = &app.ui;
    let my_turn = app.my_turn();
    let (targets, sources): (Vec<TerritoryId>, Vec<TerritoryId>) = if my_turn {
        match (s.phase, ui.from) {
            (Phase::Attack, Some(f)) => (s.attack_targets(f), vec![f]),
            (Phase::Fortify, Some(f)) => (s.fortify_targets(f), vec![f]),
            (Phase::Occupy { from, to, .. }, _) => (vec![to], vec![from]),
            _ => (vec![], vec![]),
        }
    } else if let Some(r) = &app.roll {
        if matches!(s.phase, Phase::Attack | Phase::Occupy { .. }) {
            (vec![r.to], vec![r.from])
        } else {
            (vec![], vec![])
        }
    } else {
        (vec![], vec![])
    };
    let neighbours: Vec<TerritoryId> = ui
        .hover
        .map(|h| map.territories[h as usize].adjacent.clone())
        .unwrap_or_default();
    // Territory names: all of them once zoomed in (two presses of +), and always those the
    // player is dealing with (chosen, pointed at, the highlighted targets), so that the words
    // of the panel and the log ("Attacking from Congo") can be found on the map. Drawn as large
    // on screen at any zoom as at the lesson's (a view 520 wide).
    let all_names = ui.view[2] <= VIEWBOX[2] * 0.6;
    let name_size = 7.0 * (ui.view[2] / 520.0).max(1.0);
    let named: Vec<TerritoryId> = (0..map.territories.len() as TerritoryId)
        .filter(|t| {
            all_names
                || ui.from == Some(*t)
                || ui.to == Some(*t)
                || ui.hover == Some(*t)
                || targets.contains(t)
                || sources.contains(t)
        })
        .collect();

    // Lines: sea lanes (from the artwork) or, in the fallback, every adjacency.
    let lines: Html = if ART {
        SEA.iter()
            .map(|(_, _, dd)| html! { <path class="sea" d={*dd}/> })
            .collect()
    } else {
        let mut v = vec![];
        for (a, t) in map.territories.iter().enumerate() {
            for &b in &t.adjacent {
                if (b as usize) <= a {
                    continue;
                }
                let (_, x1, y1) = geo[a];
                let (_, x2, y2) = geo[b as usize];
                if (x1 - x2).abs() > 500.0 {
                    // Wraps around the world (Alaska–Kamchatka): two stubs off the edges.
                    let (l, r) = if x1 < x2 {
                        ((x1, y1), (x2, y2))
                    } else {
                        ((x2, y2), (x1, y1))
                    };
                    v.push(html! { <path class="sea" d={format!("M{} {} L{} {}", f1(l.0), f1(l.1), f1(VIEWBOX[0]), f1(l.1))}/> });
                    v.push(html! { <path class="sea" d={format!("M{} {} L{} {}", f1(r.0), f1(r.1), f1(VIEWBOX[0] + VIEWBOX[2]), f1(r.1))}/> });
                } else {
                    v.push(html! { <path class="sea" d={format!("M{} {} L{} {}", f1(x1), f1(y1), f1(x2), f1(y2))}/> });
                }
            }
        }
        v.into_iter().collect()
    };

    let under: Html = if ART {
        map.territories
            .iter()
            .enumerate()
            .map(|(i, t)| {
                html! { <path class="tint" d={geo[i].0} style={format!("stroke:{}", CONTINENT_TINT[t.continent as usize % 6])}/> }
            })
            .collect()
    } else {
        html! {}
    };

    let terrs = map.territories.iter().enumerate().map(|(i, t)| {
        let id = i as TerritoryId;
        let (path, lx, ly) = geo[i];
        let owner = s.owner[i];
        let (fill, owner_attr, seat) = match owner {
            Owner::Player(p) => (format!("url(#pat-{p})"), format!("p{p}"), Some(p as usize)),
            Owner::Neutral => ("#cdbf9f".to_string(), "neutral".into(), None),
            Owner::Unclaimed => ("#eceae4".to_string(), "none".into(), None),
        };
        let mine = matches!(owner, Owner::Player(p) if Some(p) == app.viewer);
        let classes = classes!(
            "terr",
            sources.contains(&id).then_some("sel"),
            targets.contains(&id).then_some("target"),
            neighbours.contains(&id).then_some("nb"),
            (ui.hover == Some(id)).then_some("hover"),
            mine.then_some("mine"),
        );
        let label = view::territory_label(s, id);
        let onclick = {
            let d = d.clone();
            let drag = drag.clone();
            Callback::from(move |_: MouseEvent| {
                if !drag.0.moved.get() {
                    d.dispatch(Msg::Click(id))
                }
            })
        };
        let onkeydown = {
            let d = d.clone();
            let view = ui.view;
            // Arrows: to the neighbour in that direction (label points, the map's adjacency).
            let near: Vec<(String, (f32, f32))> = t
                .adjacent
                .iter()
                .map(|&a| {
                    let (_, x, y) = geo[a as usize];
                    (map.territories[a as usize].key.clone(), (x, y))
                })
                .collect();
            let at = (lx, ly);
            Callback::from(move |e: KeyboardEvent| {
                let key = e.key();
                if let Some(dir) = keynav::arrow(&key) {
                    e.prevent_default();
                    let near = near.iter().map(|(k, c)| (k.as_str(), *c));
                    if let Some(to) = keynav::toward(at, dir, near, Some(VIEWBOX[2])) {
                        crate::store::focus(&format!("t-{to}"));
                    }
                    return;
                }
                match key.as_str() {
                "Enter" | " " => {
                    e.prevent_default();
                    d.dispatch(Msg::Click(id));
                }
                "Escape" => d.dispatch(Msg::ClearSelection),
                "+" | "=" => d.dispatch(Msg::SetView(zoom(view, 1.0 / 1.3, 0.5, 0.5))),
                "-" => d.dispatch(Msg::SetView(zoom(view, 1.3, 0.5, 0.5))),
                _ => {}
                }
            })
        };
        // Pointing at a territory outlines it, its neighbours and its name; a finger does not
        // point (a tap left that outline stuck on the last territory touched).
        let enter = {
            let d = d.clone();
            Callback::from(move |e: PointerEvent| {
                if e.pointer_type() != "touch" {
                    d.dispatch(Msg::Hover(Some(id)))
                }
            })
        };
        let leave = {
            let d = d.clone();
            Callback::from(move |_: PointerEvent| d.dispatch(Msg::Hover(None)))
        };
        // The keyboard's focus does the same; a tap's focus does not.
        let enter2 = {
            let d = d.clone();
            Callback::from(move |e: FocusEvent| {
                let keys = e
                    .target_dyn_into::<web_sys::Element>()
                    .is_some_and(|el| el.matches(":focus-visible").unwrap_or(true));
                if keys {
                    d.dispatch(Msg::Hover(Some(id)))
                }
            })
        };
        let leave2 = {
            let d = d.clone();
            Callback::from(move |_: FocusEvent| d.dispatch(Msg::Hover(None)))
        };
        let armies = s.armies[i];
        let adj: String = t.adjacent.iter().map(|&a| map.territories[a as usize].key.as_str()).collect::<Vec<_>>().join(" ");
        let shape = if path.is_empty() {
            html! { <circle class="shape" cx={f1(lx)} cy={f1(ly)} r="24" style={format!("fill:{fill}")}/> }
        } else {
            html! { <path class="shape" d={path} style={format!("fill:{fill}")}/> }
        };
        let r = if armies >= 100 { 13.0 } else { 11.0 };
        let (bfill, bstroke, tcol) = match owner {
            Owner::Player(p) => {
                let c = colour_css(s.players[p as usize].colour);
                let dark = !matches!(s.players[p as usize].colour, orbis_engine::classic::Colour::Yellow);
                (c, "#fff", if dark { "#fff" } else { "#111" })
            }
            Owner::Neutral => ("#8a7d60", "#fff", "#fff"),
            Owner::Unclaimed => ("#fff", "#999", "#555"),
        };
        html! {
            <g id={format!("t-{}", t.key)} class={classes} tabindex="0" role="button"
                aria-label={label.clone()} data-key={t.key.clone()} data-owner={owner_attr}
                data-armies={armies.to_string()} data-adj={adj} data-mine={if mine {"1"} else {"0"}}
                onclick={onclick} onkeydown={onkeydown}
                onpointerenter={enter} onpointerleave={leave} onfocus={enter2} onblur={leave2}>
                <title>{label}</title>
                { shape }
                if owner != Owner::Unclaimed {
                    { badge(seat.map_or(6, |p| p % 6), lx, ly, r, bfill, bstroke) }
                    <text x={f1(lx)} y={f1(ly + 4.0)} class="count" style={format!("fill:{tcol}")}>{armies.to_string()}</text>
                }
            </g>
        }
    });

    let v = ui.view;
    let slice = narrow();
    let onwheel = {
        let d = d.clone();
        Callback::from(move |e: WheelEvent| {
            e.prevent_default();
            let factor = if e.delta_y() > 0.0 { 1.15 } else { 1.0 / 1.15 };
            let (fx, fy) = rel(&e);
            d.dispatch(Msg::ZoomAt(factor, fx, fy));
        })
    };
    let onpointerdown = {
        let drag = drag.clone();
        Callback::from(move |e: PointerEvent| {
            let (x, y) = (e.client_x() as f64, e.client_y() as f64);
            let mut ps = drag.0.pointers.borrow_mut();
            ps.retain(|p| p.0 != e.pointer_id());
            ps.push((e.pointer_id(), x, y));
            if ps.len() == 2 {
                drag.0.pinch.set(Some((spread(&ps), v)));
                drag.0.moved.set(true);
            } else {
                drag.0.down.set(Some((x, y)));
                drag.0.start_view.set(v);
                drag.0.moved.set(false);
            }
        })
    };
    let onpointermove = {
        let drag = drag.clone();
        let d = d.clone();
        Callback::from(move |e: PointerEvent| {
            {
                let mut ps = drag.0.pointers.borrow_mut();
                if let Some(p) = ps.iter_mut().find(|p| p.0 == e.pointer_id()) {
                    p.1 = e.client_x() as f64;
                    p.2 = e.client_y() as f64;
                }
                if let (Some((d0, sv)), true) = (drag.0.pinch.get(), ps.len() >= 2) {
                    d.dispatch(Msg::SetView(zoom(sv, (d0 / spread(&ps)) as f32, 0.5, 0.5)));
                    return;
                }
            }
            if let Some((x0, y0)) = drag.0.down.get() {
                let (dx, dy) = (e.client_x() as f64 - x0, e.client_y() as f64 - y0);
                if dx.abs() + dy.abs() > 6.0 {
                    drag.0.moved.set(true);
                }
                if drag.0.moved.get() {
                    let Some(el) = e
                        .current_target()
                        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    else {
                        return;
                    };
                    let rect = el.get_bounding_client_rect();
                    let sv = drag.0.start_view.get();
                    let (sx, sy) = (
                        sv[2] as f64 / rect.width().max(1.0),
                        sv[3] as f64 / rect.height().max(1.0),
                    );
                    let scale = if slice { sx.min(sy) } else { sx.max(sy) };
                    let nv = [
                        sv[0] - (dx * scale) as f32,
                        sv[1] - (dy * scale) as f32,
                        sv[2],
                        sv[3],
                    ];
                    d.dispatch(Msg::SetView(clamp_view(nv)));
                }
            }
        })
    };
    let onpointerup = {
        let drag = drag.clone();
        Callback::from(move |e: PointerEvent| {
            let mut ps = drag.0.pointers.borrow_mut();
            ps.retain(|p| p.0 != e.pointer_id());
            drag.0.pinch.set(None);
            match ps.first() {
                // One finger left after a pinch: pan from here.
                Some(&(_, x, y)) => {
                    drag.0.down.set(Some((x, y)));
                    drag.0.start_view.set(v);
                }
                None => drag.0.down.set(None),
            }
            // `moved` is cleared on the next pointerdown, so the click after a drag is ignored.
        })
    };
    let zoom_btn = |label: &'static str, aria: &'static str, f: f32| {
        let d = d.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            let nv = if f == 0.0 {
                if narrow() {
                    zoom(VIEWBOX, 2.6, 0.5, 0.5)
                } else {
                    VIEWBOX
                }
            } else {
                zoom(v, f, 0.5, 0.5)
            };
            d.dispatch(Msg::SetView(nv));
        });
        html! { <button class="zbtn" aria-label={aria} title={aria} {onclick}>{label}</button> }
    };
    html! {
        <div class="map-wrap">
            <svg class="map" id="map" viewBox={format!("{} {} {} {}", f1(v[0]), f1(v[1]), f1(v[2]), f1(v[3]))}
                preserveAspectRatio={if slice { "xMidYMid slice" } else { "xMidYMid meet" }} role="group" aria-label="World map"
                {onwheel} {onpointerdown} {onpointermove} onpointerup={onpointerup.clone()}
                onpointercancel={onpointerup.clone()} onpointerleave={onpointerup}>
                { defs(s) }
                <rect class="ocean" x={f1(VIEWBOX[0] - 2000.0)} y={f1(VIEWBOX[1] - 2000.0)}
                    width={f1(VIEWBOX[2] + 4000.0)} height={f1(VIEWBOX[3] + 4000.0)}/>
                <g class="lines">{ lines }</g>
                <g class="under">{ under }</g>
                { for terrs }
                if !named.is_empty() {
                    <g class="names" aria-hidden="true" style={format!("font-size:{}px", f1(name_size))}>{ for named.iter().map(|&i| html! {
                        <text x={f1(geo[i as usize].1)} y={f1(geo[i as usize].2 + 13.0 + name_size)} class="name">{map.territories[i as usize].name.clone()}</text>
                    }) }</g>
                }
            </svg>
            <div class="zoom">
                { zoom_btn("+", "Zoom in", 1.0 / 1.3) }
                { zoom_btn("−", "Zoom out", 1.3) }
                { zoom_btn("⤢", "Whole map", 0.0) }
            </div>
        </div>
    }
}

/// Pointer position as a fraction of the element's box.
fn rel(e: &WheelEvent) -> (f32, f32) {
    let Some(el) = e
        .current_target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return (0.5, 0.5);
    };
    let r = el.get_bounding_client_rect();
    (
        ((e.client_x() as f64 - r.left()) / r.width().max(1.0)) as f32,
        ((e.client_y() as f64 - r.top()) / r.height().max(1.0)) as f32,
    )
}

/// Drag state shared between renders (kept out of the reducer: it changes on every pointer move).
#[derive(Default)]
pub struct DragRef(Drag);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_without_the_float_formatter() {
        assert_eq!(f1(12.5), "12.5");
        assert_eq!(f1(-0.5), "-.5");
        assert_eq!(f1(3.0), "3");
        assert_eq!(f1(0.0), "0");
        assert_eq!(f1(-2000.0), "-2000");
    }

    #[test]
    fn every_territory_has_an_outline() {
        let map = orbis_engine::map::Map::classic();
        for t in &map.territories {
            let shape = SHAPES.iter().find(|s| s.0 == t.key);
            assert!(shape.is_some(), "no shape for {}", t.key);
            let &(_, off, len, _, _) = shape.unwrap();
            if ART {
                let d = outline(&OUTLINES[off as usize..(off + len) as usize]);
                assert!(d.starts_with('M') && d.ends_with('z'), "{}: {d:.40}", t.key);
            }
        }
    }

    #[test]
    fn views_stay_on_the_map() {
        let v = zoom(VIEWBOX, 0.5, 0.0, 0.0);
        assert!(v[2] < VIEWBOX[2]);
        let out = clamp_view([-1e6, -1e6, v[2], v[3]]);
        assert!(out[0] >= VIEWBOX[0] - v[2] * 0.3 - 0.01);
        let wide = clamp_view([0.0, 0.0, VIEWBOX[2] * 3.0, VIEWBOX[3] * 3.0]);
        assert!(wide[0] < 0.0, "a view wider than the map is centred");
    }
}
