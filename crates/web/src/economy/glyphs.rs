//! Where the economy board looks and how its marks are laid out: the part of the map a game opens
//! on (the players' area), the size of the marks on screen, and the place of each unit count and
//! icon around a region's label point so that none covers another.
//!
//! The marks keep one size on screen whatever the zoom (a glyph of `GLYPH_PX` pixels, so counts
//! and icons are readable at the opening zoom without zooming in), except when the whole world
//! is on a small board, where they keep their size on the map (`MOST_UNITS`) rather than cover
//! Europe. Sizes are worked out from the board's size on screen.

use crate::geometry::VIEWBOX;
use crate::widgets::clamp_view;
use orbis_engine::rules::classic::PlayerId;
use yew::prelude::*;

/// A glyph's size on screen, in CSS pixels (counts are drawn at 0.96 of it: 12.5 px).
pub const GLYPH_PX: f32 = 13.0;

/// The largest glyph in map units (the size at the whole map on a desktop before issue 60).
const MOST_UNITS: f32 = 11.0;

/// The board's size on screen in CSS pixels: the drawn board's, or, before it is drawn, what the
/// page's layout gives it (web/style-more.css: the side panel of 380 px beside it and the bar
/// above; on a narrow screen 52% of the height and at least 780 px wide).
pub fn board_px() -> (f32, f32) {
    #[cfg(target_arch = "wasm32")]
    {
        let w = web_sys::window();
        let drawn = w
            .as_ref()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("board"))
            .map(|el| el.get_bounding_client_rect())
            .filter(|r| r.width() > 1.0 && r.height() > 1.0);
        if let Some(r) = drawn {
            return (r.width() as f32, r.height() as f32);
        }
        let px = |v: Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>, or: f64| {
            v.ok().and_then(|v| v.as_f64()).unwrap_or(or) as f32
        };
        let (iw, ih) = w.map_or((1280.0, 800.0), |w| {
            (px(w.inner_width(), 1280.0), px(w.inner_height(), 800.0))
        });
        if iw <= 760.0 {
            (iw.max(780.0), ih * 0.52)
        } else {
            ((iw - 400.0).max(200.0), (ih - 52.0).max(200.0))
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    (890.0, 750.0)
}

#[derive(Properties, PartialEq)]
pub struct WatchProps {
    pub on: Callback<()>,
}

/// Says when the window changes size (the board is drawn again: its marks' size in map units
/// depends on the board's size on screen). Draws nothing.
#[function_component(ResizeWatch)]
pub fn resize_watch(p: &WatchProps) -> Html {
    let on = p.on.clone();
    use_effect_with((), move |_| {
        #[cfg(target_arch = "wasm32")]
        let listener = {
            use wasm_bindgen::{closure::Closure, JsCast};
            let f = Closure::<dyn Fn()>::new(move || on.emit(()));
            if let Some(w) = web_sys::window() {
                let _ = w.add_event_listener_with_callback("resize", f.as_ref().unchecked_ref());
            }
            f
        };
        #[cfg(not(target_arch = "wasm32"))]
        drop(on);
        move || {
            #[cfg(target_arch = "wasm32")]
            if let Some(w) = web_sys::window() {
                use wasm_bindgen::JsCast;
                let _ = w.remove_event_listener_with_callback(
                    "resize",
                    listener.as_ref().unchecked_ref(),
                );
            }
        }
    });
    html! {}
}

/// The box [left, top, right, bottom] of an outline's path data as `widgets::outline` writes it:
/// each ring "M x y", then relative "l dx dy …" steps, closed by "z" (numbers are separated by
/// a space or start with their minus sign).
pub fn path_box(d: &str) -> Option<[f32; 4]> {
    let mut b: Option<[f32; 4]> = None;
    for ring in d.split('M').filter(|r| !r.trim().is_empty()) {
        let ring = ring.trim_end().trim_end_matches('z');
        let mut nums = vec![];
        for word in ring.replace('l', " ").split_whitespace() {
            let mut start = 0;
            for (i, c) in word.char_indices() {
                if c == '-' && i > start {
                    nums.push(word[start..i].parse::<f32>().ok()?);
                    start = i;
                }
            }
            nums.push(word[start..].parse::<f32>().ok()?);
        }
        let (mut x, mut y) = (0.0, 0.0);
        for (k, pair) in nums.chunks_exact(2).enumerate() {
            if k == 0 {
                (x, y) = (pair[0], pair[1]);
            } else {
                x += pair[0];
                y += pair[1];
            }
            b = Some(match b {
                None => [x, y, x, y],
                Some([a, c, e, f]) => [a.min(x), c.min(y), e.max(x), f.max(y)],
            });
        }
    }
    b
}

/// The view that frames `boxes` (map units) on a board of `px` pixels: their bounding box with
/// a margin, at least a quarter of the map wide, at the board's proportions; the whole map when
/// there is nothing to frame or the frame would be as wide.
pub fn frame(boxes: impl IntoIterator<Item = [f32; 4]>, px: (f32, f32)) -> [f32; 4] {
    let mut b: Option<[f32; 4]> = None;
    for [a, c, e, f] in boxes {
        b = Some(match b {
            None => [a, c, e, f],
            Some(o) => [o[0].min(a), o[1].min(c), o[2].max(e), o[3].max(f)],
        });
    }
    let Some([x0, y0, x1, y1]) = b else {
        return VIEWBOX;
    };
    let margin = (0.08 * (x1 - x0).max(y1 - y0)).max(20.0);
    let mut w = (x1 - x0 + 2.0 * margin).max(VIEWBOX[2] / 4.0);
    let mut h = y1 - y0 + 2.0 * margin;
    let aspect = px.0.max(1.0) / px.1.max(1.0);
    if w / h < aspect {
        w = h * aspect;
    } else {
        h = w / aspect;
    }
    if w >= VIEWBOX[2] {
        return VIEWBOX;
    }
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    clamp_view([cx - w / 2.0, cy - h / 2.0, w, h])
}

/// The glyph size in map units for `view` on a board of `px` pixels: `GLYPH_PX` on screen, but
/// never more than `MOST_UNITS` on the map.
pub fn glyph_units(view: [f32; 4], px: (f32, f32)) -> f32 {
    let scale = (px.0 / view[2]).min(px.1 / view[3]).max(0.01);
    (GLYPH_PX / scale).min(MOST_UNITS)
}

/// What is drawn at a region's label point.
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// A player's (or the neutrals') units: "3", "2N", "3+2N".
    Units(Option<PlayerId>, String),
    /// An icon of the region's buildings or state: ★ ▲ ⚓ ═ ▣ ≈ ◎ ⊗.
    Icon(char),
    /// A battle to fight here (⚔).
    Token,
}

/// A mark placed: its centre and size in map units.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
    pub mark: Mark,
}

/// Icons on one row, at most.
const ICONS_PER_ROW: usize = 4;

/// A region's marks laid out around (0, 0) in glyph units (1 = the glyph size): the battle
/// token and the unit counts on one row centred on the label point, the icons in rows of at most
/// four under it (centred on the point when there are no counts). Boxes never overlap: each
/// has its own cell with a gap.
pub fn cluster(marks: &[Mark]) -> Vec<Placed> {
    const ROW: f32 = 1.3;
    const GAP: f32 = 0.2;
    let width = |m: &Mark| match m {
        Mark::Units(_, t) => 0.6 + 0.62 * t.chars().count() as f32,
        Mark::Icon(_) => 1.15,
        Mark::Token => 1.2,
    };
    let top: Vec<&Mark> = marks
        .iter()
        .filter(|m| !matches!(m, Mark::Icon(_)))
        .collect();
    let icons: Vec<&Mark> = marks
        .iter()
        .filter(|m| matches!(m, Mark::Icon(_)))
        .collect();
    let mut rows: Vec<Vec<&Mark>> = vec![];
    if !top.is_empty() {
        rows.push(top);
    }
    rows.extend(icons.chunks(ICONS_PER_ROW).map(<[_]>::to_vec));
    // The first row's middle on the label point (the counts, where arrows start and end).
    let mut out = vec![];
    for (k, row) in rows.iter().enumerate() {
        let y = k as f32 * (ROW + 0.05);
        let total: f32 = row.iter().map(|m| width(m)).sum::<f32>() + GAP * (row.len() - 1) as f32;
        let mut x = -total / 2.0;
        for m in row {
            let w = width(m);
            out.push(Placed {
                x: x + w / 2.0,
                y,
                w,
                h: ROW - 0.1,
                mark: (*m).clone(),
            });
            x += w + GAP;
        }
    }
    // Icons alone: centred on the point.
    if marks.iter().all(|m| matches!(m, Mark::Icon(_))) && rows.len() > 1 {
        let shift = (rows.len() - 1) as f32 * (ROW + 0.05) / 2.0;
        for p in &mut out {
            p.y -= shift;
        }
    }
    out
}

/// The box [left, top, right, bottom] of placed marks.
fn extent(ps: &[Placed]) -> Option<[f32; 4]> {
    ps.iter().fold(None, |b, p| {
        let q = [
            p.x - p.w / 2.0,
            p.y - p.h / 2.0,
            p.x + p.w / 2.0,
            p.y + p.h / 2.0,
        ];
        Some(match b {
            None => q,
            Some(o) => [
                o[0].min(q[0]),
                o[1].min(q[1]),
                o[2].max(q[2]),
                o[3].max(q[3]),
            ],
        })
    })
}

/// Whether two boxes [left, top, right, bottom] overlap.
pub fn overlaps(a: [f32; 4], b: [f32; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

/// Shifts of a cluster from its label point, in glyph units, nearest first: a grid of half
/// glyphs up to `REACH` away.
fn shifts() -> Vec<(f32, f32)> {
    const REACH: i32 = 9;
    let mut out: Vec<(i32, i32)> = (-REACH..=REACH)
        .flat_map(|i| (-REACH..=REACH).map(move |j| (i, j)))
        .filter(|&(i, j)| i * i + j * j <= REACH * REACH)
        .collect();
    // Nearest first; on a tie, below before above and right before left (a fixed order).
    out.sort_by_key(|&(i, j)| (i * i + j * j, -j, -i));
    out.into_iter()
        .map(|(i, j)| (i as f32 * 0.5, j as f32 * 0.5))
        .collect()
}

/// Every region's marks on the map: each region's cluster (`cluster`, scaled by the glyph size
/// `s`) at its label point, or, where that would cover a cluster already placed (regions in id
/// order), at the nearest shift around it that covers none (as it is, when none is free).
/// Deterministic: the same marks and size give the same places.
pub fn lay_out(regions: &[((f32, f32), Vec<Mark>)], s: f32) -> Vec<Vec<Placed>> {
    let shifts = shifts();
    let mut taken: Vec<[f32; 4]> = vec![];
    let mut out = vec![];
    for ((x, y), marks) in regions {
        let base = cluster(marks);
        let Some(b) = extent(&base) else {
            out.push(vec![]);
            continue;
        };
        let at = |(dx, dy): (f32, f32)| {
            [
                x + (b[0] + dx) * s,
                y + (b[1] + dy) * s,
                x + (b[2] + dx) * s,
                y + (b[3] + dy) * s,
            ]
        };
        let (dx, dy) = shifts
            .iter()
            .copied()
            .find(|&d| !taken.iter().any(|&t| overlaps(t, at(d))))
            .unwrap_or((0.0, 0.0));
        taken.push(at((dx, dy)));
        out.push(
            base.into_iter()
                .map(|p| Placed {
                    x: x + (p.x + dx) * s,
                    y: y + (p.y + dy) * s,
                    w: p.w * s,
                    h: p.h * s,
                    mark: p.mark,
                })
                .collect(),
        );
    }
    out
}

/// The box [left, top, right, bottom] of a placed mark.
pub fn placed_box(p: &Placed) -> [f32; 4] {
    [
        p.x - p.w / 2.0,
        p.y - p.h / 2.0,
        p.x + p.w / 2.0,
        p.y + p.h / 2.0,
    ]
}

/// A region's name tag: its centre and size in map units.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tag {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

/// A name tag's size in glyph units for a name of `chars` characters (its text is drawn at
/// 0.95 of the glyph size: 12.4 px on screen).
fn tag_size(chars: usize) -> (f32, f32) {
    (0.95 * 0.58 * chars as f32 + 0.7, 1.4)
}

/// Name tags for regions: each `(label point, characters of its name, shown)` gets a tag just
/// above its marks where it covers no mark of `taken` (boxes in map units), at the nearest free
/// shift around that place. Tags shown at once (the selected region, where its units may go)
/// also cover none of each other; the others are shown one at a time (the region under the
/// pointer or the keyboard's focus) and cover none of the shown ones. Deterministic.
pub fn place_names(taken: &[[f32; 4]], names: &[((f32, f32), usize, bool)], s: f32) -> Vec<Tag> {
    let shifts = shifts();
    let mut out = vec![None; names.len()];
    let mut busy: Vec<[f32; 4]> = taken.to_vec();
    for shown in [true, false] {
        for (i, &((x, y), chars, on)) in names.iter().enumerate() {
            if on != shown {
                continue;
            }
            let (w, h) = tag_size(chars);
            let (w, h) = (w * s, h * s);
            // Above the counts' row, which sits on the label point.
            let (x0, y0) = (x, y - 1.45 * s);
            let at = |(dx, dy): (f32, f32)| {
                let (cx, cy) = (x0 + dx * s, y0 + dy * s);
                [cx - w / 2.0, cy - h / 2.0, cx + w / 2.0, cy + h / 2.0]
            };
            let d = shifts
                .iter()
                .copied()
                .find(|&d| !busy.iter().any(|&t| overlaps(t, at(d))))
                .unwrap_or((0.0, 0.0));
            let b = at(d);
            if shown {
                busy.push(b);
            }
            out[i] = Some(Tag {
                x: (b[0] + b[2]) / 2.0,
                y: (b[1] + b[3]) / 2.0,
                w,
                h,
            });
        }
    }
    out.into_iter().map(Option::unwrap_or_default).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_box_reads_relative_steps_and_minus_signs() {
        let b = path_box("M10 20l5-3 .5 6-10.5 0zM100 100l1 1z").unwrap();
        assert_eq!(b, [5.0, 17.0, 101.0, 101.0]);
    }

    /// The frame holds every box, keeps the board's proportions, and falls back to the map.
    #[test]
    fn the_frame_holds_the_players_area_at_the_boards_proportions() {
        let boxes = [[400.0, 100.0, 450.0, 140.0], [470.0, 120.0, 520.0, 200.0]];
        let v = frame(boxes, (890.0, 750.0));
        assert!(v[0] <= 400.0 && v[1] <= 100.0 && v[0] + v[2] >= 520.0 && v[1] + v[3] >= 200.0);
        assert!((v[2] / v[3] - 890.0 / 750.0).abs() < 0.01, "{v:?}");
        assert!(v[2] < VIEWBOX[2] / 2.0, "{v:?}");
        assert_eq!(frame([], (890.0, 750.0)), VIEWBOX);
        assert_eq!(frame([[0.0, 0.0, 990.0, 400.0]], (890.0, 750.0)), VIEWBOX);
    }

    /// No two marks of a region overlap, nor those of regions whose label points are close:
    /// the second cluster moves to a free place around its point; the layout is the same each
    /// time.
    #[test]
    fn marks_never_overlap() {
        let full = vec![
            Mark::Token,
            Mark::Units(Some(0), "12".into()),
            Mark::Units(Some(1), "3+2N".into()),
            Mark::Units(None, "1".into()),
            Mark::Icon('★'),
            Mark::Icon('▲'),
            Mark::Icon('▲'),
            Mark::Icon('⚓'),
            Mark::Icon('═'),
            Mark::Icon('▣'),
        ];
        let small = vec![
            Mark::Units(Some(2), "7".into()),
            Mark::Icon('★'),
            Mark::Icon('▣'),
        ];
        let regions = vec![
            ((100.0, 50.0), full.clone()),
            ((112.0, 54.0), small.clone()),
            ((200.0, 50.0), small),
        ];
        let laid = lay_out(&regions, 4.0);
        let boxes: Vec<[f32; 4]> = laid
            .iter()
            .flatten()
            .map(|p| {
                [
                    p.x - p.w / 2.0,
                    p.y - p.h / 2.0,
                    p.x + p.w / 2.0,
                    p.y + p.h / 2.0,
                ]
            })
            .collect();
        assert_eq!(boxes.len(), 10 + 3 + 3);
        for i in 0..boxes.len() {
            for j in 0..i {
                assert!(
                    !overlaps(boxes[i], boxes[j]),
                    "{:?} {:?}",
                    boxes[i],
                    boxes[j]
                );
            }
        }
        // The lone region keeps its label point: its counts are centred on it.
        assert_eq!((laid[2][0].x, laid[2][0].y), (200.0, 50.0));
        assert_eq!(laid, lay_out(&regions, 4.0));
    }

    /// Name tags cover no mark, and the tags shown together cover none of each other.
    #[test]
    fn name_tags_cover_no_mark_nor_each_other() {
        let full = vec![
            Mark::Units(Some(0), "12".into()),
            Mark::Icon('★'),
            Mark::Icon('▲'),
            Mark::Icon('▣'),
        ];
        let regions = vec![
            ((100.0, 50.0), full.clone()),
            ((104.0, 44.0), full.clone()),
            ((130.0, 50.0), full),
        ];
        let s = 4.0;
        let taken: Vec<[f32; 4]> = lay_out(&regions, s)
            .iter()
            .flatten()
            .map(placed_box)
            .collect();
        let names = [
            ((100.0, 50.0), 15, true),
            ((104.0, 44.0), 12, true),
            ((130.0, 50.0), 20, false),
        ];
        let tags = place_names(&taken, &names, s);
        let b = |t: &Tag| {
            [
                t.x - t.w / 2.0,
                t.y - t.h / 2.0,
                t.x + t.w / 2.0,
                t.y + t.h / 2.0,
            ]
        };
        for t in &tags {
            assert!(t.w > 0.0);
            for m in &taken {
                assert!(!overlaps(b(t), *m), "{t:?} covers {m:?}");
            }
        }
        assert!(!overlaps(b(&tags[0]), b(&tags[1])));
        assert_eq!(tags, place_names(&taken, &names, s));
    }
}
