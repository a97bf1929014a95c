//! The orders map as SVG text: province nodes placed by `web/map/orders-layout.json`, the
//! classic artwork behind the world map, units, and the orders and results drawn as arrows; and
//! the pan and zoom arithmetic of its view box.

use crate::geometry::ORDERS_LAYOUT;
use crate::orders::regions;
pub(super) use crate::orders::svg::{art_paths, esc, n1, target_ring, Layout};
use crate::orders::{power_colour, OrdersSession, Stage};
use orbis_engine::rules::orders::adjudicator::{Loc, Outcome, UnitType};
use orbis_engine::rules::orders::map::{OrdersMap, PowerId, ProvinceKind};
use orbis_engine::rules::orders::notation::{self, Spec, Written};

/// The layout on screen: the region map's if the map has regions and the player has not chosen
/// the schematic view.
pub(super) fn layout(s: &OrdersSession) -> Layout {
    match region_map(s) {
        Some(r) => regions::layout(r),
        None => schematic_layout(&s.game.map_id),
    }
}

/// The regions to draw, unless the schematic view is chosen or the map has none.
pub(super) fn region_map(s: &OrdersSession) -> Option<&'static regions::Regions> {
    if s.schematic {
        None
    } else {
        regions::regions(&s.game.map_id)
    }
}

/// A view around the units and home centres of `p` on the region map, at least a third of the
/// map wide (`None`: the whole map, e.g. on the schematic map or when nothing is left to show).
pub(super) fn focus(s: &OrdersSession, p: PowerId) -> Option<[f32; 4]> {
    region_map(s)?;
    let map = s.map();
    let lay = layout(s);
    let full = lay.view;
    let pts: Vec<(f32, f32)> = s
        .game
        .units
        .iter()
        .filter(|u| u.power == p)
        .map(|u| lay.at(map, u.loc))
        .chain(map.homes(p).map(|h| lay.at(map, Loc::new(h))))
        .collect();
    let (x0, y0, x1, y1) = pts.iter().fold(
        (f32::MAX, f32::MAX, f32::MIN, f32::MIN),
        |(a, b, c, d), &(x, y)| (a.min(x), b.min(y), c.max(x), d.max(y)),
    );
    if pts.is_empty() {
        return None;
    }
    let aspect = full[3] / full[2];
    let w = (x1 - x0 + 140.0)
        .max((y1 - y0 + 140.0) / aspect)
        .max(full[2] / 3.0);
    if w >= full[2] {
        return None;
    }
    let h = w * aspect;
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    Some(pan(full, [cx - w / 2.0, cy - h / 2.0, w, h]))
}

/// Where the arrow `dir` moves the keyboard from the province `key` on the map drawn with `lay`:
/// to the neighbour in that direction (keynav::toward over the engine's adjacency).
pub(super) fn arrow_target(
    map: &'static OrdersMap,
    lay: &Layout,
    key: &str,
    dir: (f32, f32),
) -> Option<&'static str> {
    let p = map.parse_loc(key)?.province;
    let near = map
        .neighbours(p)
        .into_iter()
        .map(|n| (n, lay.at(map, Loc::new(n))));
    let to = crate::keynav::toward(lay.at(map, Loc::new(p)), dir, near, Some(lay.view[2]))?;
    Some(map.key(to))
}

/// Whether the map has regions (then the view can be switched).
pub(super) fn regions_available(s: &OrdersSession) -> bool {
    regions::regions(&s.game.map_id).is_some()
}

pub(super) fn schematic_layout(map_id: &str) -> Layout {
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

/// Appends one order as SVG: moves as arrows, supports and convoys as dashed lines to the middle
/// of the supported move, holds as rings; failed orders in red with ✗ and the result word.
pub(super) fn arrow(
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
    // A ring's or a build's result word, under the unit, and the end of its group.
    let word_below = |out: &mut String| {
        if let Some(word) = word {
            let _ = write!(
                out,
                r#"<text class="oword" x="{}" y="{}">{word}</text>"#,
                n1(from.0),
                n1(from.1 + 31.0)
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
        // A build: the unit to be, drawn as a dashed token of its kind and power with a "+"
        // (a ring with a small "+" was hard to find on a phone).
        Spec::Build | Spec::BuildFacing { .. } => {
            let letter = if w.kind == UnitType::Army { "A" } else { "F" };
            let _ = write!(
                out,
                r#"<g class="{cls} obuild" data-order="{order}"><rect x="{}" y="{}" width="30" height="25" rx="{}" fill="{colour}" fill-opacity=".35" stroke="{colour}" stroke-width="2.5" stroke-dasharray="5 3"/><text class="obuild-unit" x="{}" y="{}">{letter}</text><text class="osym" x="{}" y="{}">+</text>"#,
                n1(from.0 - 15.0),
                n1(from.1 - 12.5),
                if w.kind == UnitType::Army { 4 } else { 12 },
                n1(from.0),
                n1(from.1 + 6.0),
                n1(from.0 + 17.0),
                n1(from.1 - 11.0)
            );
            word_below(out);
        }
        Spec::Hold | Spec::Disband => {
            let sym = if w.spec == Spec::Hold { "" } else { "✗" };
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
            word_below(out);
        }
    }
}

/// The map as SVG markup (one string: far smaller in the wasm than a tree of `html!` nodes, and
/// one DOM update per change). Clicks are delegated: the nearest `[data-key]` is the location.
pub(super) fn board_svg(s: &OrdersSession) -> String {
    use std::fmt::Write;
    let map = s.map();
    let lay = layout(s);
    let me = match s.stage {
        Stage::Enter(p) => Some(p),
        _ => None,
    };
    let mut o = String::with_capacity(48 * 1024);
    let z = s.view.unwrap_or(lay.view);
    let v = lay.view;
    // Phones: province keys grow (in map units) as the view widens past 300 units, up to twice,
    // so that they stay 12 px high or more at the opening zoom of every power of both maps.
    let keys = if crate::widgets::narrow() {
        format!(r#" style="--ok:{}""#, n1((z[2] / 300.0).clamp(1.0, 2.0)))
    } else {
        String::new()
    };
    let _ = write!(
        o,
        r##"<svg class="map omap" viewBox="{} {} {} {}"{keys} role="img" aria-label="Map: {}"><defs><marker id="ah" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#222"/></marker><marker id="ah-fail" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#c1121f"/></marker></defs><rect class="obg" x="{}" y="{}" width="{}" height="{}"/>"##,
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
    let selectable: Vec<u8> = match me {
        Some(p) => {
            let mut v: Vec<u8> = s.orderable(p).iter().map(|u| u.loc.province).collect();
            v.extend(s.build_sites(p));
            v
        }
        None => vec![],
    };
    match region_map(s) {
        Some(r) => regions::base_svg(&mut o, s, r, &lay, &selectable),
        None => schematic_base(&mut o, s, &lay, &selectable),
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
        // While the computer powers think, the last phase's results are no longer the news.
        (Stage::Results, Some(r)) if !s.thinking => {
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
pub(super) fn zoom(full: [f32; 4], v: [f32; 4], f: f32, fx: f32, fy: f32) -> Option<[f32; 4]> {
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
pub(super) fn pan(full: [f32; 4], v: [f32; 4]) -> [f32; 4] {
    [
        v[0].clamp(full[0], full[0] + full[2] - v[2]),
        v[1].clamp(full[1], full[1] + full[3] - v[3]),
        v[2],
        v[3],
    ]
}

/// The schematic map's base: adjacency edges, provinces as circles (seas as boxes) with their
/// keys, supply centres and the split coasts' markers.
fn schematic_base(o: &mut String, s: &OrdersSession, lay: &Layout, selectable: &[u8]) {
    use std::fmt::Write;
    let map = s.map();
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
    let tgts = s.targets();
    for (i, p) in map.provinces.iter().enumerate() {
        let (x, y) = lay.at(map, Loc::new(i as u8));
        // A legal target of the order being entered: a ring under the node.
        if tgts.iter().any(|l| l.province == i as u8) {
            let _ = write!(
                o,
                r#"<circle class="otgt" data-tgt="{}" cx="{}" cy="{}" r="26"/>"#,
                p.key,
                n1(x),
                n1(y)
            );
        }
        let owner = s.game.centres.get(&(i as u8)).copied();
        // Under the house option every province can be someone's territory (closed to others'
        // retreats): tinted like a centre; a hollow star marks one taken from its home power.
        let held = s.game.territory.get(&(i as u8)).copied();
        let owner = owner.or(held);
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
            r#"<g class="onode {kind}{}{}" data-key="{}" tabindex="{}"><title>{}</title>"#,
            if selectable.contains(&(i as u8)) {
                " can"
            } else {
                ""
            },
            if sel { " sel" } else { "" },
            p.key,
            s.tab_stop(selectable, i as u8),
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
        if let Some(h) = held.filter(|&h| p.home != Some(h)) {
            let _ = write!(
                o,
                r#"<text class="otaken" x="{}" y="{}" fill="none" stroke="{}">☆</text>"#,
                n1(x - 13.0),
                n1(y + 17.0),
                power_colour(h)
            );
        }
        o.push_str("</g>");
        for (c, _) in &p.coasts {
            let l = Loc::coast(i as u8, *c);
            let (cx, cy) = lay.at(map, l);
            if tgts.contains(&l) {
                target_ring(o, map, l, cx, cy);
            }
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
}
