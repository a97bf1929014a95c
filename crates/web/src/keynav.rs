//! Keyboard moves on the maps, shared by the three boards (classic, orders, economy): an arrow
//! key moves the focus from a region to the neighbour (by the engine's adjacency) that lies most
//! nearly in the arrow's direction on screen, and the skip link that is every game screen's
//! first tab stop. The boards give the centres and neighbours from their map data; nothing
//! here knows a ruleset.

use yew::prelude::*;

/// The direction of an arrow key as a screen vector (y grows downwards), or `None` for any
/// other key.
pub fn arrow(key: &str) -> Option<(f32, f32)> {
    match key {
        "ArrowLeft" => Some((-1.0, 0.0)),
        "ArrowRight" => Some((1.0, 0.0)),
        "ArrowUp" => Some((0.0, -1.0)),
        "ArrowDown" => Some((0.0, 1.0)),
        _ => None,
    }
}

/// Of `neighbours` (an id and its centre), the one whose centre lies closest to the direction
/// `dir` seen from `from`: the smallest angle off the arrow, the nearer one on a tie; only
/// neighbours ahead of `from` (less than 90° off) count, so a key never moves backwards. `wrap`
/// is the width of a map whose east and west edges meet (classic's Alaska–Kamchatka): a
/// neighbour more than half of it away is seen across the edge.
pub fn toward<T: Copy>(
    from: (f32, f32),
    dir: (f32, f32),
    neighbours: impl IntoIterator<Item = (T, (f32, f32))>,
    wrap: Option<f32>,
) -> Option<T> {
    let mut best: Option<(f32, f32, T)> = None;
    for (id, (x, y)) in neighbours {
        let mut dx = x - from.0;
        let dy = y - from.1;
        if let Some(w) = wrap {
            if dx > w / 2.0 {
                dx -= w;
            } else if dx < -w / 2.0 {
                dx += w;
            }
        }
        let along = dx * dir.0 + dy * dir.1;
        if along <= 0.0 {
            continue;
        }
        // The tangent of the angle off the arrow: orders neighbours as the angle does.
        let off = (dx * dir.1 - dy * dir.0).abs() / along;
        let dist = dx * dx + dy * dy;
        if best.is_none_or(|(o, d, _)| off < o - 1e-4 || (off < o + 1e-4 && dist < d)) {
            best = Some((off, dist, id));
        }
    }
    best.map(|b| b.2)
}

/// Moves the keyboard focus to the first element matching the CSS `selector` (an SVG node of a
/// map drawn as markup, which has no id): the orders map's, on the full page.
#[cfg_attr(not(feature = "full"), allow(dead_code))]
pub fn focus_query(selector: &str) {
    use wasm_bindgen::JsCast;
    let el = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(selector).ok().flatten());
    if let Some(s) = el.and_then(|e| e.dyn_into::<web_sys::SvgElement>().ok()) {
        let _ = s.focus();
    }
}

/// The id of a game screen's controls panel, where its skip link goes unless it names another.
pub const CONTROLS: &str = "controls";

/// "Skip to the controls": the first tab stop of every game screen, shown only while it has the
/// focus; it moves the focus past the map's regions to the element `target` (the controls
/// panel, which must be focusable, e.g. `tabindex="-1"`).
pub fn skip_link(target: &'static str) -> Html {
    // A same-page link, as assistive technology knows skip links; the click moves the focus
    // itself, leaving the address (which may hold a room link) as it is.
    let onclick = Callback::from(move |e: MouseEvent| {
        e.prevent_default();
        crate::store::focus(target);
    });
    html! {
        <a class="skip-link" id="skip-to-controls" href={format!("#{target}")} {onclick}>{"Skip to the controls"}</a>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plus of neighbours around the origin, with one more up and to the right.
    fn plus() -> Vec<(char, (f32, f32))> {
        vec![
            ('e', (10.0, 1.0)),
            ('w', (-10.0, -2.0)),
            ('n', (1.0, -10.0)),
            ('s', (-1.0, 12.0)),
            ('x', (8.0, -7.0)),
        ]
    }

    #[test]
    fn each_arrow_picks_the_neighbour_in_its_direction() {
        for (key, want) in [
            ("ArrowRight", 'e'),
            ("ArrowLeft", 'w'),
            ("ArrowUp", 'n'),
            ("ArrowDown", 's'),
        ] {
            let got = toward((0.0, 0.0), arrow(key).unwrap(), plus(), None);
            assert_eq!(got, Some(want), "{key}");
        }
    }

    #[test]
    fn nothing_behind_the_arrow_is_chosen() {
        let only_west = vec![(1, (-5.0, 0.0)), (2, (-3.0, 4.0))];
        assert_eq!(
            toward((0.0, 0.0), (1.0, 0.0), only_west.clone(), None),
            None
        );
        assert_eq!(toward((0.0, 0.0), (0.0, 1.0), only_west, None), Some(2));
        assert_eq!(arrow("Enter"), None);
    }

    #[test]
    fn a_tie_in_angle_goes_to_the_nearer_neighbour() {
        let line = vec![(1, (20.0, 0.0)), (2, (5.0, 0.0))];
        assert_eq!(toward((0.0, 0.0), (1.0, 0.0), line, None), Some(2));
    }

    #[test]
    fn a_wrapping_map_sees_across_its_edge() {
        // Alaska at the west edge, Kamchatka at the east edge of a 1000-wide map.
        let kamchatka = vec![(7, (980.0, 100.0))];
        assert_eq!(
            toward((20.0, 100.0), (-1.0, 0.0), kamchatka.clone(), Some(1000.0)),
            Some(7)
        );
        assert_eq!(
            toward((20.0, 100.0), (1.0, 0.0), kamchatka.clone(), Some(1000.0)),
            None
        );
        assert_eq!(toward((20.0, 100.0), (1.0, 0.0), kamchatka, None), Some(7));
    }
}
