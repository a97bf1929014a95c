//! Pieces shared by the orders map's drawings (the schematic map in `map`, the region map in
//! `regions`): where each location is drawn, and numbers and text for SVG markup.

use crate::geometry::{OUTLINES, SHAPES};
use orbis_engine::rules::orders::adjudicator::Loc;
use orbis_engine::rules::orders::map::OrdersMap;
use std::collections::BTreeMap;

/// Node positions of a map: location key → (x, y); view box; scale of the classic artwork
/// drawn behind (0: none).
pub(crate) struct Layout {
    pub(crate) view: [f32; 4],
    pub(crate) art: f32,
    pub(crate) pos: BTreeMap<&'static str, (f32, f32)>,
}

impl Layout {
    pub(crate) fn at(&self, map: &OrdersMap, l: Loc) -> (f32, f32) {
        let key = map.loc_name(l);
        self.pos
            .get(key.as_str())
            .or_else(|| self.pos.get(map.key(l.province)))
            .copied()
            .unwrap_or((0.0, 0.0))
    }
}

/// A coordinate with one decimal, without the float formatter (kilobytes in the wasm).
pub(crate) fn n1(v: f32) -> String {
    let mut s = String::new();
    crate::widgets::tenths(&mut s, (v * 10.0).round() as i64);
    s
}

/// Escapes text for the SVG markup.
/// The ring around a coast's marker that says a selected order may name that coast (the same
/// on the region map and the schematic one).
pub(crate) fn target_ring(o: &mut String, map: &OrdersMap, l: Loc, cx: f32, cy: f32) {
    use std::fmt::Write;
    let _ = write!(
        o,
        r#"<circle class="otgtc" data-tgt="{}" cx="{}" cy="{}" r="13"/>"#,
        map.loc_name(l),
        n1(cx),
        n1(cy)
    );
}

pub(crate) fn esc(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Decoded outlines of the classic artwork (in the order of `SHAPES`): the world orders map's
/// background, and its land regions.
pub(crate) fn art_paths() -> &'static [String] {
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
