//! Turns the map artwork (`web/map/classic-map.json`, generated from Natural Earth outlines) into
//! Rust statics, so the wasm needs no JSON parser at run time. Without the artwork, a fallback of
//! labelled circles at rough positions is generated.

use std::fmt::Write as _;
use std::path::Path;

const FALLBACK: &[(&str, f32, f32)] = &[
    ("alaska", 60.0, 90.0), ("northwest_territory", 165.0, 85.0), ("greenland", 330.0, 50.0),
    ("alberta", 150.0, 140.0), ("ontario", 220.0, 145.0), ("quebec", 290.0, 145.0),
    ("western_united_states", 160.0, 205.0), ("eastern_united_states", 245.0, 210.0),
    ("central_america", 185.0, 275.0), ("venezuela", 255.0, 320.0), ("peru", 260.0, 395.0),
    ("brazil", 325.0, 370.0), ("argentina", 280.0, 470.0), ("iceland", 415.0, 100.0),
    ("scandinavia", 495.0, 80.0), ("great_britain", 420.0, 165.0), ("northern_europe", 495.0, 160.0),
    ("western_europe", 430.0, 235.0), ("southern_europe", 510.0, 225.0), ("ukraine", 580.0, 130.0),
    ("north_africa", 460.0, 320.0), ("egypt", 540.0, 295.0), ("east_africa", 595.0, 370.0),
    ("congo", 535.0, 400.0), ("south_africa", 550.0, 480.0), ("madagascar", 640.0, 470.0),
    ("ural", 670.0, 110.0), ("siberia", 735.0, 70.0), ("yakutsk", 820.0, 55.0),
    ("kamchatka", 910.0, 70.0), ("irkutsk", 810.0, 120.0), ("mongolia", 825.0, 170.0),
    ("japan", 925.0, 195.0), ("afghanistan", 665.0, 185.0), ("china", 775.0, 225.0),
    ("middle_east", 610.0, 255.0), ("india", 705.0, 275.0), ("siam", 790.0, 295.0),
    ("indonesia", 810.0, 390.0), ("new_guinea", 905.0, 380.0), ("western_australia", 830.0, 485.0),
    ("eastern_australia", 915.0, 470.0),
];

fn lit(s: &str) -> String {
    format!("{s:?}")
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
            writeln!(out, "pub const VIEWBOX: [f32; 4] = [{:.1}, {:.1}, {:.1}, {:.1}];", vb[0], vb[1], vb[2], vb[3]).unwrap();
            writeln!(out, "pub static SHAPES: &[(&str, &str, f32, f32)] = &[").unwrap();
            if let Some(ts) = v["territories"].as_object() {
                for (k, t) in ts {
                    let d = t["d"].as_str().unwrap_or("");
                    let lx = t["label"][0].as_f64().unwrap_or(0.0);
                    let ly = t["label"][1].as_f64().unwrap_or(0.0);
                    writeln!(out, "({}, {}, {lx:.1}, {ly:.1}),", lit(k), lit(d)).unwrap();
                }
            }
            writeln!(out, "];").unwrap();
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
            writeln!(out, "pub const VIEWBOX: [f32; 4] = [0.0, 0.0, 1000.0, 560.0];").unwrap();
            writeln!(out, "pub static SHAPES: &[(&str, &str, f32, f32)] = &[").unwrap();
            for (k, x, y) in FALLBACK {
                writeln!(out, "({}, \"\", {x:.1}, {y:.1}),", lit(k)).unwrap();
            }
            writeln!(out, "];").unwrap();
            writeln!(out, "pub static SEA: &[(&str, &str, &str)] = &[];").unwrap();
        }
    }
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("geometry.rs");
    std::fs::write(dest, out).unwrap();
}
