//! Turns the map artwork (`web/map/classic-map.json`, generated from Natural Earth outlines) into
//! Rust statics, so the wasm needs no JSON parser at run time. Without the artwork, a fallback of
//! labelled circles at rough positions is generated.

use std::fmt::Write as _;
use std::path::Path;

const FALLBACK: &[(&str, f32, f32)] = &[
    ("alaska", 60.0, 90.0),
    ("northwest_territory", 165.0, 85.0),
    ("greenland", 330.0, 50.0),
    ("alberta", 150.0, 140.0),
    ("ontario", 220.0, 145.0),
    ("quebec", 290.0, 145.0),
    ("western_united_states", 160.0, 205.0),
    ("eastern_united_states", 245.0, 210.0),
    ("central_america", 185.0, 275.0),
    ("venezuela", 255.0, 320.0),
    ("peru", 260.0, 395.0),
    ("brazil", 325.0, 370.0),
    ("argentina", 280.0, 470.0),
    ("iceland", 415.0, 100.0),
    ("scandinavia", 495.0, 80.0),
    ("great_britain", 420.0, 165.0),
    ("northern_europe", 495.0, 160.0),
    ("western_europe", 430.0, 235.0),
    ("southern_europe", 510.0, 225.0),
    ("ukraine", 580.0, 130.0),
    ("north_africa", 460.0, 320.0),
    ("egypt", 540.0, 295.0),
    ("east_africa", 595.0, 370.0),
    ("congo", 535.0, 400.0),
    ("south_africa", 550.0, 480.0),
    ("madagascar", 640.0, 470.0),
    ("ural", 670.0, 110.0),
    ("siberia", 735.0, 70.0),
    ("yakutsk", 820.0, 55.0),
    ("kamchatka", 910.0, 70.0),
    ("irkutsk", 810.0, 120.0),
    ("mongolia", 825.0, 170.0),
    ("japan", 925.0, 195.0),
    ("afghanistan", 665.0, 185.0),
    ("china", 775.0, 225.0),
    ("middle_east", 610.0, 255.0),
    ("india", 705.0, 275.0),
    ("siam", 790.0, 295.0),
    ("indonesia", 810.0, 390.0),
    ("new_guinea", 905.0, 380.0),
    ("western_australia", 830.0, 485.0),
    ("eastern_australia", 915.0, 470.0),
];

fn lit(s: &str) -> String {
    format!("{s:?}")
}

/// Tolerance of the outline simplification, in map units (the map is 1000 units wide).
const EPS: f64 = 0.6;

fn numbers(s: &str) -> Vec<f64> {
    let b = s.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'-' || c == b'.' || c.is_ascii_digit() {
            let start = i;
            i += 1;
            let mut dot = c == b'.';
            while i < b.len() && (b[i].is_ascii_digit() || (b[i] == b'.' && !dot)) {
                dot |= b[i] == b'.';
                i += 1;
            }
            out.push(s[start..i].parse().unwrap_or(0.0));
        } else {
            i += 1;
        }
    }
    out
}

fn dp(pts: &[(f64, f64)], keep: &mut [bool], a: usize, b: usize) {
    if b <= a + 1 {
        return;
    }
    let (ax, ay) = pts[a];
    let (bx, by) = pts[b];
    let (dx, dy) = (bx - ax, by - ay);
    let len = (dx * dx + dy * dy).sqrt();
    let mut best = (0.0, a);
    for (i, &(x, y)) in pts.iter().enumerate().take(b).skip(a + 1) {
        let d = if len < 1e-9 {
            ((x - ax).powi(2) + (y - ay).powi(2)).sqrt()
        } else {
            ((x - ax) * dy - (y - ay) * dx).abs() / len
        };
        if d > best.0 {
            best = (d, i);
        }
    }
    if best.0 > EPS {
        keep[best.1] = true;
        dp(pts, keep, a, best.1);
        dp(pts, keep, best.1, b);
    }
}

fn varint(out: &mut Vec<u8>, v: i64) {
    let mut z = ((v << 1) ^ (v >> 63)) as u64;
    loop {
        let b = (z & 0x7f) as u8;
        z >>= 7;
        if z == 0 {
            out.push(b);
            break;
        }
        out.push(b | 0x80);
    }
}

/// Binary outline: ring count, then per ring the point count, the first point and the deltas
/// (fifths of a map unit, zigzag varints). Smaller than SVG text once gzipped. Fifths, not tenths:
/// the rounding moves a point by at most 0.1 unit, well inside the simplification's tolerance
/// ([`EPS`]), and the outlines are 1.5 KB gzipped smaller (the lite page's wasm carries them).
fn encode(rings: &[Vec<(i64, i64)>], out: &mut Vec<u8>) {
    varint(out, rings.len() as i64);
    for r in rings {
        varint(out, r.len() as i64);
        varint(out, r[0].0);
        varint(out, r[0].1);
        for w in r.windows(2) {
            varint(out, w[1].0 - w[0].0);
            varint(out, w[1].1 - w[0].1);
        }
    }
}

/// Simplifies an outline of the form `M x y l dx dy … z` (repeated), dropping specks.
fn simplify(d: &str) -> Vec<Vec<(i64, i64)>> {
    let mut rings: Vec<Vec<(f64, f64)>> = vec![];
    for part in d.split('M').filter(|p| !p.trim().is_empty()) {
        let n = numbers(part);
        if n.len() < 2 {
            continue;
        }
        let (mut x, mut y) = (n[0], n[1]);
        let mut ring = vec![(x, y)];
        for c in n[2..].chunks(2) {
            if c.len() == 2 {
                x += c[0];
                y += c[1];
                ring.push((x, y));
            }
        }
        rings.push(ring);
    }
    let extent = |r: &Vec<(f64, f64)>| {
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for &(x, y) in r {
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
        (x1 - x0).max(y1 - y0)
    };
    let biggest = rings.iter().map(extent).fold(0.0, f64::max);
    let mut out = vec![];
    for r in &rings {
        if extent(r) < 2.0 && extent(r) < biggest {
            continue;
        }
        let mut keep = vec![false; r.len()];
        keep[0] = true;
        let last = r.len() - 1;
        keep[last] = true;
        // Split the closed ring at its farthest point from the start so both halves simplify.
        let far = (0..r.len())
            .max_by(|&i, &j| {
                let di = (r[i].0 - r[0].0).powi(2) + (r[i].1 - r[0].1).powi(2);
                let dj = (r[j].0 - r[0].0).powi(2) + (r[j].1 - r[0].1).powi(2);
                di.partial_cmp(&dj).unwrap()
            })
            .unwrap_or(0);
        keep[far] = true;
        dp(r, &mut keep, 0, far);
        dp(r, &mut keep, far, last);
        let mut pts: Vec<(i64, i64)> = r
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(p, _)| ((p.0 * 5.0).round() as i64, (p.1 * 5.0).round() as i64))
            .collect();
        pts.dedup();
        if pts.len() < 3 {
            continue;
        }
        out.push(pts);
    }
    out
}

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap();
    let art = Path::new(&manifest).join("../../web/map/classic-map.json");
    println!("cargo:rerun-if-changed={}", art.display());
    println!("cargo:rerun-if-changed=build.rs");
    let mut out = String::new();
    let parsed = std::fs::read_to_string(&art)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok());
    match parsed {
        Some(v) => {
            let vb: Vec<f64> = v["viewBox"]
                .as_array()
                .map(|a| a.iter().filter_map(|x| x.as_f64()).collect())
                .unwrap_or_else(|| vec![0.0, 0.0, 1000.0, 600.0]);
            writeln!(out, "pub const ART: bool = true;").unwrap();
            writeln!(
                out,
                "pub const VIEWBOX: [f32; 4] = [{:.1}, {:.1}, {:.1}, {:.1}];",
                vb[0], vb[1], vb[2], vb[3]
            )
            .unwrap();
            writeln!(out, "pub static SHAPES: &[(&str, u32, u32, f32, f32)] = &[").unwrap();
            let mut bin = vec![];
            if let Some(ts) = v["territories"].as_object() {
                for (k, t) in ts {
                    let start = bin.len();
                    encode(&simplify(t["d"].as_str().unwrap_or("")), &mut bin);
                    let lx = t["label"][0].as_f64().unwrap_or(0.0);
                    let ly = t["label"][1].as_f64().unwrap_or(0.0);
                    writeln!(
                        out,
                        "({}, {start}, {}, {lx:.1}, {ly:.1}),",
                        lit(k),
                        bin.len() - start
                    )
                    .unwrap();
                }
            }
            writeln!(out, "];").unwrap();
            let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("outlines.bin");
            std::fs::write(&dest, &bin).unwrap();
            writeln!(
                out,
                "pub static OUTLINES: &[u8] = include_bytes!({:?});",
                dest.display().to_string()
            )
            .unwrap();
            writeln!(out, "pub static SEA: &[(&str, &str, &str)] = &[").unwrap();
            if let Some(ls) = v["seaLinks"].as_array() {
                for l in ls {
                    writeln!(
                        out,
                        "({}, {}, {}),",
                        lit(l["a"].as_str().unwrap_or("")),
                        lit(l["b"].as_str().unwrap_or("")),
                        lit(l["d"].as_str().unwrap_or(""))
                    )
                    .unwrap();
                }
            }
            writeln!(out, "];").unwrap();
        }
        None => {
            writeln!(out, "pub const ART: bool = false;").unwrap();
            writeln!(
                out,
                "pub const VIEWBOX: [f32; 4] = [0.0, 0.0, 1000.0, 560.0];"
            )
            .unwrap();
            writeln!(out, "pub static SHAPES: &[(&str, u32, u32, f32, f32)] = &[").unwrap();
            for (k, x, y) in FALLBACK {
                writeln!(out, "({}, 0, 0, {x:.1}, {y:.1}),", lit(k)).unwrap();
            }
            writeln!(out, "];").unwrap();
            writeln!(out, "pub static OUTLINES: &[u8] = &[];").unwrap();
            writeln!(out, "pub static SEA: &[(&str, &str, &str)] = &[];").unwrap();
        }
    }
    orders_layout(&manifest, &mut out);
    economy_waters(&manifest, &mut out);
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("geometry.rs");
    std::fs::write(dest, out).unwrap();
}

/// Node positions of the orders maps (`web/map/orders-layout.json`, written by
/// `tools/orders-layout.py`): `ORDERS_LAYOUT` = (map id, view box, scale of the classic artwork
/// drawn behind (0: none),
/// [(location key, x, y)]).
fn orders_layout(manifest: &str, out: &mut String) {
    let path = Path::new(manifest).join("../../web/map/orders-layout.json");
    println!("cargo:rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(&path).expect("web/map/orders-layout.json");
    let v: serde_json::Value = serde_json::from_str(&text).expect("orders-layout.json is JSON");
    writeln!(
        out,
        "pub type LayoutNodes = &'static [(&'static str, f32, f32)];"
    )
    .unwrap();
    writeln!(
        out,
        "pub static ORDERS_LAYOUT: &[(&str, [f32; 4], f32, LayoutNodes)] = &["
    )
    .unwrap();
    for (id, m) in v.as_object().expect("an object of maps") {
        let vb: Vec<f64> = m["viewBox"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|x| x.as_f64())
            .collect();
        write!(
            out,
            "({}, [{:.1}, {:.1}, {:.1}, {:.1}], {:.2}, &[",
            lit(id),
            vb[0],
            vb[1],
            vb[2],
            vb[3],
            m["artScale"].as_f64().unwrap_or(0.0)
        )
        .unwrap();
        for (k, p) in m["nodes"].as_object().unwrap() {
            let x = p[0].as_f64().unwrap();
            let y = p[1].as_f64().unwrap();
            write!(out, "({}, {x:.1}, {y:.1}),", lit(k)).unwrap();
        }
        writeln!(out, "]),").unwrap();
    }
    writeln!(out, "];").unwrap();
}

/// The economy map's water territories drawn as sea regions (`web/map/economy-waters.json`,
/// written by `web/map/make-waters.py`): `WATERS` = (water key, offset, length in
/// `WATER_OUTLINES`, label x, label y), outlines encoded as the countries' are.
fn economy_waters(manifest: &str, out: &mut String) {
    let path = Path::new(manifest).join("../../web/map/economy-waters.json");
    println!("cargo:rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(&path).expect("web/map/economy-waters.json");
    let v: serde_json::Value = serde_json::from_str(&text).expect("economy-waters.json is JSON");
    let mut bin = vec![];
    writeln!(out, "pub static WATERS: &[(&str, u32, u32, f32, f32)] = &[").unwrap();
    for (k, w) in v.as_object().expect("an object of waters") {
        let start = bin.len();
        encode(&simplify(w["d"].as_str().unwrap_or("")), &mut bin);
        let x = w["x"].as_f64().unwrap_or(0.0);
        let y = w["y"].as_f64().unwrap_or(0.0);
        writeln!(
            out,
            "({}, {start}, {}, {x:.1}, {y:.1}),",
            lit(k),
            bin.len() - start
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("waters.bin");
    std::fs::write(&dest, &bin).unwrap();
    writeln!(
        out,
        "pub static WATER_OUTLINES: &[u8] = include_bytes!({:?});",
        dest.display().to_string()
    )
    .unwrap();
}
