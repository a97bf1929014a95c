//! The orders maps drawn as regions: one polygon per province (seas included), from a data file
//! written by `tools/mapgen/europe.mjs` from Natural Earth outlines. The file is parsed and
//! checked against the engine's map when first used; a file that does not fit the map is not
//! used (the schematic map is drawn instead).
//!
//! Format, one item a line (`#` starts a comment):
//! - `view X Y W H`: the view box;
//! - `p KEY X Y PATH`: a province, where its unit stands and its outline as SVG path data;
//! - `c KEY/COAST X Y`: the clickable marker of one coast of a split-coast province;
//! - `n PATH`: land that belongs to no province (drawn, not played);
//! - `w PATH`: lakes, water that belongs to no province (the Caspian; drawn as lakes over the
//!   seas and under the land, not played, not clickable as a sea);
//! - `art S`, then `a KEY X Y TERRITORY`: a land province drawn as that territory of the classic
//!   artwork (which the page already has), scaled by S. Seas are drawn first, land over them, so
//!   a sea's outline may run under the land.

use crate::geometry::SHAPES;
use crate::orders::svg::{art_paths, esc, n1, target_ring, Layout};
use crate::orders::{power_colour, OrdersSession, POWER_COLOURS};
use orbis_engine::rules::orders::adjudicator::Loc;
use orbis_engine::rules::orders::map::{OrdersMap, ProvinceKind};
use std::collections::BTreeMap;

/// A map's regions, as read from its data file.
#[derive(Debug)]
pub struct Regions {
    pub view: [f32; 4],
    /// Province key → (unit point, outline path data, or the name of a territory of the classic
    /// artwork).
    pub provinces: BTreeMap<String, ((f32, f32), String)>,
    /// Provinces drawn as territories of the classic artwork.
    pub art_keys: std::collections::BTreeSet<String>,
    /// Scale of the classic artwork's territories.
    pub art: f32,
    /// Location key of a split coast (`STP/NC`) → its marker.
    pub coasts: BTreeMap<String, (f32, f32)>,
    /// Land of no province.
    pub neutral: String,
    /// Lakes: water of no province.
    pub lakes: String,
}

/// The region data files of the built-in maps.
const FILES: &[(&str, &str)] = &[
    (
        "europe-1901",
        include_str!("../../../../web/map/orders-europe.txt"),
    ),
    (
        "world",
        include_str!("../../../../web/map/orders-world.txt"),
    ),
];

/// A decimal number such as `-12.5` (parsed by hand: the standard float parser would add
/// kilobytes to the wasm).
fn num(t: Option<&str>, what: &str) -> Result<f32, String> {
    let err = || format!("{what}: a number expected");
    let t = t.ok_or_else(err)?;
    let (neg, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let (int, frac) = t.split_once('.').unwrap_or((t, ""));
    if int.is_empty() || int.len() > 6 || frac.len() > 3 {
        return Err(err());
    }
    let mut v: i64 = 0;
    for b in int.bytes().chain(frac.bytes()) {
        if !b.is_ascii_digit() {
            return Err(err());
        }
        v = v * 10 + i64::from(b - b'0');
    }
    let v = v as f32 / [1.0, 10.0, 100.0, 1000.0][frac.len()];
    Ok(if neg { -v } else { v })
}

/// Checks SVG path data: closed subpaths of moves and lines only, numbers in between.
fn path_ok(d: &str) -> bool {
    d.starts_with('M')
        && d.ends_with('z')
        && d.bytes()
            .all(|b| b.is_ascii_digit() || b" .-MLlz".contains(&b))
        && d.bytes().filter(u8::is_ascii_digit).count() >= 6
}

/// Parses a region file (the format is in the module's documentation).
pub fn parse(text: &str) -> Result<Regions, String> {
    let mut view = None;
    let mut r = Regions {
        view: [0.0; 4],
        provinces: BTreeMap::new(),
        coasts: BTreeMap::new(),
        neutral: String::new(),
        lakes: String::new(),
        art_keys: Default::default(),
        art: 1.0,
    };
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = format!("line {}", i + 1);
        let mut w = line.splitn(5, ' ');
        match w.next() {
            Some("view") => {
                let v = [
                    num(w.next(), &at)?,
                    num(w.next(), &at)?,
                    num(w.next(), &at)?,
                    num(w.next(), &at)?,
                ];
                if v[2] <= 0.0 || v[3] <= 0.0 {
                    return Err(format!("{at}: an empty view box"));
                }
                view = Some(v);
            }
            Some("p") => {
                let key = w.next().unwrap_or_default().to_string();
                let x = num(w.next(), &at)?;
                let y = num(w.next(), &at)?;
                let d = w.next().unwrap_or_default().to_string();
                if key.is_empty() || !path_ok(&d) {
                    return Err(format!("{at}: province {key} has no valid outline"));
                }
                if r.provinces.insert(key.clone(), ((x, y), d)).is_some() {
                    return Err(format!("{at}: province {key} twice"));
                }
            }
            Some("art") => {
                r.art = num(w.next(), &at)?;
                if r.art <= 0.0 {
                    return Err(format!("{at}: a scale expected"));
                }
            }
            Some("a") => {
                let key = w.next().unwrap_or_default().to_string();
                let x = num(w.next(), &at)?;
                let y = num(w.next(), &at)?;
                let name = w.next().unwrap_or_default().to_string();
                if key.is_empty()
                    || name.is_empty()
                    || !name.bytes().all(|b| b == b'_' || b.is_ascii_lowercase())
                {
                    return Err(format!("{at}: province {key} has no territory"));
                }
                r.art_keys.insert(key.clone());
                if r.provinces.insert(key.clone(), ((x, y), name)).is_some() {
                    return Err(format!("{at}: province {key} twice"));
                }
            }
            Some("c") => {
                let key = w.next().unwrap_or_default().to_string();
                let x = num(w.next(), &at)?;
                let y = num(w.next(), &at)?;
                if !key.contains('/') || r.coasts.insert(key.clone(), (x, y)).is_some() {
                    return Err(format!("{at}: bad or repeated coast {key}"));
                }
            }
            Some("n") => {
                let d = line[1..].trim();
                if !d.is_empty() && !path_ok(d) {
                    return Err(format!("{at}: bad neutral outline"));
                }
                r.neutral.push_str(d);
            }
            Some("w") => {
                let d = line[1..].trim();
                if !d.is_empty() && !path_ok(d) {
                    return Err(format!("{at}: bad lake outline"));
                }
                r.lakes.push_str(d);
            }
            _ => return Err(format!("{at}: unknown line")),
        }
    }
    r.view = view.ok_or("no view box")?;
    let inside = |(x, y): (f32, f32)| {
        let v = r.view;
        x >= v[0] && y >= v[1] && x <= v[0] + v[2] && y <= v[1] + v[3]
    };
    if let Some((k, _)) = r
        .provinces
        .iter()
        .map(|(k, (p, _))| (k, *p))
        .chain(r.coasts.iter().map(|(k, p)| (k, *p)))
        .find(|(_, p)| !inside(*p))
    {
        return Err(format!("{k}: its point is outside the view box"));
    }
    Ok(r)
}

/// Checks that the regions are those of `map`: every province once, no other, and a marker for
/// every coast of a split-coast province.
pub fn check(r: &Regions, map: &OrdersMap) -> Result<(), String> {
    for (i, p) in map.provinces.iter().enumerate() {
        if !r.provinces.contains_key(&p.key) {
            return Err(format!("{}: no region", p.key));
        }
        for (c, _) in &p.coasts {
            let key = map.loc_name(Loc::coast(i as u8, *c));
            if !r.coasts.contains_key(&key) {
                return Err(format!("{key}: no coast marker"));
            }
        }
    }
    if let Some(k) = r
        .provinces
        .keys()
        .find(|k| !map.provinces.iter().any(|p| &p.key == *k))
    {
        return Err(format!("{k}: not a province of {}", map.name));
    }
    Ok(())
}

/// The regions of a built-in map, parsed and checked once; `None` if it has none (or its file
/// does not fit the engine's map).
pub fn regions(map_id: &str) -> Option<&'static Regions> {
    type Cache = std::sync::OnceLock<Vec<(&'static str, Regions)>>;
    static ALL: Cache = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        FILES
            .iter()
            .filter_map(|&(id, text)| {
                let map = OrdersMap::get(id)?;
                let r = parse(text).ok()?;
                check(&r, map).ok()?;
                Some((id, r))
            })
            .collect()
    })
    .iter()
    .find(|(id, _)| *id == map_id)
    .map(|(_, r)| r)
}

/// Node positions for arrows and units on the region map: unit points and coast markers.
pub(super) fn layout(r: &'static Regions) -> Layout {
    let pos = r
        .provinces
        .iter()
        .map(|(k, (p, _))| (k.as_str(), *p))
        .chain(r.coasts.iter().map(|(k, p)| (k.as_str(), *p)))
        .collect();
    Layout {
        view: r.view,
        art: 0.0,
        pos,
    }
}

/// Fill patterns of the powers' regions: the power's colour, light, with a motif per power
/// (none, stripes, dots, bars, crosses, columns; as `widgets::pattern`) so that owners are told
/// apart without colour.
fn patterns(o: &mut String) {
    use std::fmt::Write;
    o.push_str("<defs>");
    for (i, c) in POWER_COLOURS.iter().enumerate() {
        let motif = match i % 6 {
            0 => String::new(),
            1 => format!(r#"<path d="M0 8L8 0" stroke="{c}" stroke-width="1.6"/>"#),
            2 => format!(r#"<circle cx="4" cy="4" r="1.4" fill="{c}"/>"#),
            3 => format!(r#"<path d="M0 4H8" stroke="{c}" stroke-width="1.5"/>"#),
            4 => format!(r#"<path d="M0 0L8 8M8 0L0 8" stroke="{c}" stroke-width="1"/>"#),
            _ => format!(r#"<path d="M4 0V8" stroke="{c}" stroke-width="1.5"/>"#),
        };
        let _ = write!(
            o,
            r#"<pattern id="opat{i}" width="8" height="8" patternUnits="userSpaceOnUse"><rect width="8" height="8" fill="{c}" fill-opacity=".42"/><g opacity=".55">{motif}</g></pattern>"#
        );
    }
    o.push_str("</defs>");
}

/// Appends the regions (provinces filled by their owner's pattern, seas, lakes, neutral land), the
/// province keys, supply centre markers and the split coasts' markers; units and arrows are
/// drawn over them by `board_svg`. `selectable`: provinces the player at the device may click.
pub(super) fn base_svg(
    o: &mut String,
    s: &OrdersSession,
    r: &Regions,
    lay: &Layout,
    selectable: &[u8],
) {
    use std::fmt::Write;
    let map = s.map();
    patterns(o);
    let _ = write!(o, r#"<path class="oneutral" d="{}"/>"#, r.neutral);
    let mut sel_path = None;
    // Where the order being entered may point (the engine's legal targets), outlined over
    // the regions.
    let tgts = s.targets();
    let mut tgt_paths = vec![];
    // Seas first: land is drawn over them.
    let order = map
        .provinces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.kind == ProvinceKind::Sea)
        .chain(
            map.provinces
                .iter()
                .enumerate()
                .filter(|(_, p)| p.kind != ProvinceKind::Sea),
        );
    let mut lakes = Some(r.lakes.as_str()).filter(|l| !l.is_empty());
    for (i, p) in order {
        // Lakes over the seas (whose cells may run under the land), under the land: they take
        // the clicks there, so that no sea is chosen through a lake.
        if p.kind != ProvinceKind::Sea {
            if let Some(d) = lakes.take() {
                let _ = write!(
                    o,
                    r#"<g class="olake"><title>Water of no province (not played)</title><path d="{d}"/></g>"#
                );
            }
        }
        let Some((_, d)) = r.provinces.get(&p.key) else {
            continue;
        };
        let id = i as u8;
        let owner = s
            .game
            .centres
            .get(&id)
            .or(s.game.territory.get(&id))
            .copied();
        let kind = match p.kind {
            ProvinceKind::Sea => "sea",
            ProvinceKind::Land => "land",
            ProvinceKind::Coast => "coast",
        };
        let fill = match (p.kind, owner) {
            (ProvinceKind::Sea, _) => String::new(),
            (_, Some(o)) => format!(
                r#" style="fill:url(#opat{})""#,
                o as usize % POWER_COLOURS.len()
            ),
            _ => String::new(),
        };
        // A territory of the artwork: its decoded outline, scaled.
        let (d, scale) = if r.art_keys.contains(&p.key) {
            let k = SHAPES.iter().position(|&(t, ..)| t == d).unwrap_or(0);
            let d = art_paths().get(k).map(String::as_str).unwrap_or("");
            (d, format!(r#" transform="scale({})""#, n1(r.art)))
        } else {
            (d.as_str(), String::new())
        };
        if s.sel.is_some_and(|l| l.province == id) {
            sel_path = Some((d, scale.clone()));
        }
        if tgts.iter().any(|l| l.province == id) {
            tgt_paths.push((p.key.as_str(), d, scale.clone()));
        }
        let (x, y) = lay.at(map, Loc::new(id));
        let _ = write!(
            o,
            r#"<g class="onode oreg {kind}{}" data-key="{}" data-at="{} {}" tabindex="{}"><title>{}</title><path d="{d}"{scale}{fill}/>"#,
            if selectable.contains(&id) { " can" } else { "" },
            p.key,
            n1(x),
            n1(y),
            s.tab_stop(selectable, id),
            esc(&p.name)
        );
        // Under the house option every province can be someone's territory: a hollow star
        // marks one taken from its home power.
        if let Some(h) = s
            .game
            .territory
            .get(&id)
            .copied()
            .filter(|&h| p.home != Some(h))
        {
            let _ = write!(
                o,
                r#"<text class="otaken" x="{}" y="{}" fill="none" stroke="{}">☆</text>"#,
                n1(x - 15.0),
                n1(y + 16.0),
                power_colour(h)
            );
        }
        o.push_str("</g>");
    }
    for (key, d, scale) in tgt_paths {
        let _ = write!(o, r#"<path class="otgt" data-tgt="{key}" d="{d}"{scale}/>"#);
    }
    if let Some((d, scale)) = sel_path {
        let _ = write!(o, r#"<path class="oselreg" d="{d}"{scale}/>"#);
    }
    // Keys and supply centres, above every region.
    o.push_str(r#"<g class="olabels">"#);
    for (i, p) in map.provinces.iter().enumerate() {
        let (x, y) = lay.at(map, Loc::new(i as u8));
        let _ = write!(
            o,
            r#"<text class="okey{}" data-k="{}" x="{}" y="{}">{}</text>"#,
            if p.kind == ProvinceKind::Sea {
                " sea"
            } else {
                ""
            },
            p.key,
            n1(x),
            n1(y + 21.0),
            p.key
        );
        if p.centre {
            let owner = s.game.centres.get(&(i as u8)).copied();
            let _ = write!(
                o,
                r#"<circle class="ocentre" data-k="{}" cx="{}" cy="{}" r="4.5" fill="{}"/>"#,
                p.key,
                n1(x + 15.0),
                n1(y + 11.0),
                owner.map(power_colour).unwrap_or("#fff")
            );
        }
    }
    o.push_str("</g>");
    for (i, p) in map.provinces.iter().enumerate() {
        for (c, _) in &p.coasts {
            let l = Loc::coast(i as u8, *c);
            let (cx, cy) = lay.at(map, l);
            if tgts.contains(&l) {
                target_ring(o, map, l, cx, cy);
            }
            let _ = write!(
                o,
                r#"<g class="ocoast" data-key="{}"><title>{}</title><circle cx="{}" cy="{}" r="9"/><text x="{}" y="{}">{}</text></g>"#,
                map.loc_name(l),
                esc(&format!("{} ({})", p.name, map.loc_name(l))),
                n1(cx),
                n1(cy),
                n1(cx),
                n1(cy + 3.0),
                c.abbrev().to_ascii_lowercase()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rings of path data written as `Mx y l dx dy ... z` (absolute start, relative steps).
    fn rings(d: &str) -> Vec<Vec<(f64, f64)>> {
        let mut out = vec![];
        for sub in d.split('M').filter(|s| !s.is_empty()) {
            let sub = sub.trim_end_matches('z');
            let mut nums = vec![];
            let mut cur = String::new();
            for ch in sub.chars() {
                if ch == ' ' || ch == 'l' || (ch == '-' && !cur.is_empty()) {
                    if !cur.is_empty() {
                        nums.push(cur.parse::<f64>().unwrap());
                    }
                    cur = if ch == '-' { "-".into() } else { String::new() };
                } else {
                    cur.push(ch);
                }
            }
            if !cur.is_empty() {
                nums.push(cur.parse::<f64>().unwrap());
            }
            assert!(nums.len() >= 6 && nums.len() % 2 == 0, "{sub}");
            let mut p = (nums[0], nums[1]);
            let mut ring = vec![p];
            for c in nums[2..].chunks(2) {
                p = (p.0 + c[0], p.1 + c[1]);
                ring.push(p);
            }
            out.push(ring);
        }
        out
    }

    fn area(r: &[(f64, f64)]) -> f64 {
        let n = r.len();
        (0..n)
            .map(|i| {
                let (a, b) = (r[i], r[(i + 1) % n]);
                a.0 * b.1 - b.0 * a.1
            })
            .sum::<f64>()
            / 2.0
    }

    fn inside(p: (f64, f64), rings: &[Vec<(f64, f64)>]) -> bool {
        let mut c = false;
        for r in rings {
            for i in 0..r.len() {
                let (a, b) = (r[i], r[(i + r.len() - 1) % r.len()]);
                if (a.1 > p.1) != (b.1 > p.1) && p.0 < (b.0 - a.0) * (p.1 - a.1) / (b.1 - a.1) + a.0
                {
                    c = !c;
                }
            }
        }
        c
    }

    #[test]
    fn europe_regions_cover_every_province_with_valid_polygons() {
        let map = OrdersMap::get("europe-1901").unwrap();
        let r = parse(FILES[0].1).expect("the Europe region file parses");
        check(&r, map).expect("the regions are the engine's provinces");
        assert!(regions("europe-1901").is_some());
        assert_eq!(map.provinces.len(), 75);
        let keys: Vec<&str> = r.provinces.keys().map(|k| k.as_str()).collect();
        let mut engine: Vec<&str> = map.provinces.iter().map(|p| p.key.as_str()).collect();
        engine.sort();
        assert_eq!(keys, engine);
        let v = r.view;
        for (k, ((x, y), d)) in &r.provinces {
            let rs = rings(d);
            assert!(!rs.is_empty(), "{k}: no ring");
            let total: f64 = rs.iter().map(|r| area(r)).sum::<f64>().abs();
            assert!(total > 20.0, "{k}: area {total}");
            for ring in &rs {
                assert!(ring.len() >= 3, "{k}: a degenerate ring");
                for &(px, py) in ring {
                    let (px, py) = (px as f32, py as f32);
                    assert!(
                        px >= v[0] - 0.5
                            && py >= v[1] - 0.5
                            && px <= v[0] + v[2] + 0.5
                            && py <= v[1] + v[3] + 0.5,
                        "{k}: ({px}, {py}) outside the view"
                    );
                }
            }
            assert!(
                inside((*x as f64, *y as f64), &rs),
                "{k}: unit point outside"
            );
        }
        assert_eq!(r.coasts.len(), 6);
        clicks_land_where_aimed(map, &r);
    }

    /// A click lands on the province the player aims at (issue 60: Spain's coast markers took
    /// clicks inside Spain, Portugal's unit and centre stood on the Spanish border): every land
    /// province's unit point (where its unit and key are drawn) lies in its own region and in no
    /// other, nor under a coast marker; every split coast's marker (a disk of radius 9 and its
    /// stroke, drawn over the regions) stands at sea, on a sea its coast borders, touching its
    /// province, and covers no land of another province and little of its own. (The key and supply centre drawn at the
    /// unit point are that province for a click: `.olabels [data-k]`.)
    fn clicks_land_where_aimed(map: &OrdersMap, r: &Regions) {
        const R: f64 = 9.0 + 0.8;
        type Rings = Vec<Vec<(f64, f64)>>;
        let land: Vec<(&str, Rings)> = map
            .provinces
            .iter()
            .filter(|p| p.kind != ProvinceKind::Sea)
            .map(|p| (p.key.as_str(), rings(&r.provinces[&p.key].1)))
            .collect();
        let disk = |(x, y): (f32, f32)| {
            let (x, y) = (x as f64, y as f64);
            let mut pts = vec![(x, y)];
            for ring in 1..=4 {
                let rr = R * ring as f64 / 4.0;
                for i in 0..32 {
                    let a = i as f64 * std::f64::consts::PI / 16.0;
                    pts.push((x + rr * a.cos(), y + rr * a.sin()));
                }
            }
            pts
        };
        for (k, rs) in &land {
            let (x, y) = r.provinces[*k].0;
            let pt = (x as f64, y as f64);
            let holders: Vec<&str> = land
                .iter()
                .filter(|(_, rs)| inside(pt, rs))
                .map(|(k, _)| *k)
                .collect();
            assert_eq!(holders, vec![*k], "{k}: its unit point is in {holders:?}");
            assert!(inside(pt, rs));
            for (c, &(cx, cy)) in &r.coasts {
                let d = ((cx as f64 - pt.0).powi(2) + (cy as f64 - pt.1).powi(2)).sqrt();
                assert!(d > R, "{k}: its unit point is under the marker of {c}");
            }
        }
        for (c, &at) in &r.coasts {
            let loc = map.parse_loc(c).expect("a coast of the map");
            // Land of its own province under it: at most a little (an island off a crowded
            // coast; a click there is its province's anyway).
            let mut own = 0;
            for p in disk(at) {
                match land.iter().find(|(_, rs)| inside(p, rs)) {
                    Some((k, _)) if *k == &c[..3] => own += 1,
                    Some((k, _)) => panic!("{c}: its marker covers land of {k} at {p:?}"),
                    None => {}
                }
            }
            assert!(
                own <= 8,
                "{c}: its marker covers {own} of 129 points of its own land"
            );
            let seas = map.seas_of(loc);
            let sea = map.provinces.iter().enumerate().find(|(_, p)| {
                p.kind == ProvinceKind::Sea
                    && inside((at.0 as f64, at.1 as f64), &rings(&r.provinces[&p.key].1))
            });
            let (i, s) = sea.unwrap_or_else(|| panic!("{c}: its marker is not at sea"));
            assert!(
                seas.contains(&(i as u8)),
                "{c}: its marker is in {}, which its coast does not border",
                s.key
            );
            let own = rings(&r.provinces[&c[..3]].1);
            let touches = (0..32).any(|i| {
                let a = i as f64 * std::f64::consts::PI / 16.0;
                inside(
                    (
                        at.0 as f64 + (R + 3.0) * a.cos(),
                        at.1 as f64 + (R + 3.0) * a.sin(),
                    ),
                    &own,
                )
            });
            assert!(touches, "{c}: its marker does not touch {}", &c[..3]);
        }
    }

    #[test]
    fn world_regions_are_the_artwork_territories_and_18_seas() {
        let map = OrdersMap::get("world").unwrap();
        let r = parse(FILES[1].1).expect("the world region file parses");
        check(&r, map).expect("the regions are the engine's provinces");
        assert!(regions("world").is_some());
        assert_eq!(r.provinces.len(), map.provinces.len());
        assert_eq!(r.art_keys.len(), 42);
        for p in &map.provinces {
            let ((x, y), d) = &r.provinces[&p.key];
            if p.kind == ProvinceKind::Sea {
                let rs = rings(d);
                assert!(
                    rs.iter().map(|r| area(r)).sum::<f64>().abs() > 100.0,
                    "{}",
                    p.key
                );
                assert!(inside((*x as f64, *y as f64), &rs), "{}: unit point", p.key);
            } else {
                assert!(r.art_keys.contains(&p.key), "{}", p.key);
            }
        }
    }

    /// Lakes are water of no province, drawn apart: the Caspian is a lake on both maps, inside no
    /// sea's region and no land province's (it used to be drawn as the sea whose Voronoi cell
    /// lay under it, and could be clicked as that sea), and Russia beyond the Europe board is
    /// neutral land, not sea (it used to be the Barents, Bothnia and Black seas' cells).
    #[test]
    fn lakes_are_water_of_no_province() {
        for (i, caspian) in [(0, (983.7, 505.2)), (1, (791.4, 259.2))] {
            let r = parse(FILES[i].1).unwrap();
            let lakes = rings(&r.lakes);
            assert!(
                inside(caspian, &lakes),
                "{}: the Caspian is a lake",
                FILES[i].0
            );
            for (k, ((x, y), d)) in &r.provinces {
                if r.art_keys.contains(k) {
                    continue;
                }
                let rs = rings(d);
                assert!(
                    !inside(caspian, &rs),
                    "{}: the Caspian is in {k}",
                    FILES[i].0
                );
                assert!(
                    !inside((*x as f64, *y as f64), &lakes),
                    "{k}: unit point in a lake"
                );
                // No lake's vertex lies inside a region (they may share a coast).
                for ring in &lakes {
                    let n = ring.len() as f64;
                    let c = ring
                        .iter()
                        .fold((0.0, 0.0), |a, p| (a.0 + p.0 / n, a.1 + p.1 / n));
                    for &p in ring {
                        // A point just inside the lake, off its outline.
                        let q = (p.0 + (c.0 - p.0) * 0.02, p.1 + (c.1 - p.1) * 0.02);
                        if inside(q, std::slice::from_ref(ring)) {
                            assert!(!inside(q, &rs), "{k} holds lake water at {q:?}");
                        }
                    }
                }
            }
        }
        let eu = parse(FILES[0].1).unwrap();
        let russia = (901.1, 194.8); // 55°E 58°N
        assert!(inside(russia, &rings(&eu.neutral)));
        assert!(eu
            .provinces
            .values()
            .all(|(_, d)| !inside(russia, &rings(d))));
    }

    #[test]
    fn bad_region_files_are_refused() {
        let map = OrdersMap::get("europe-1901").unwrap();
        assert!(parse("p ADR 1 2 M0 0l1 0 0 1z").is_err(), "no view box");
        assert!(parse("view 0 0 10 10\np ADR 1 2 <script>").is_err());
        assert!(parse("view 0 0 10 10\np ADR 1 2 M0 0l1 0 0 1z\np ADR 1 2 M0 0l1 0 0 1z").is_err());
        assert!(parse("view 0 0 10 10\np ADR 50 2 M0 0l1 0 0 1z").is_err());
        let one = parse("view 0 0 10 10\np ADR 1 2 M0 0l1 0 0 1z").unwrap();
        assert!(check(&one, map).is_err(), "74 provinces missing");
    }
}
