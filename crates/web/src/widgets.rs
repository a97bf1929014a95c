//! Small pieces every screen draws with: player colours and patterns, SVG path text and
//! numbers, the map's zoom, the computer players' pace.

use crate::geometry::VIEWBOX;
pub mod chart;
pub mod glossary;
pub mod term;
use orbis_engine::classic::Colour;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// Sends a view's messages (the shape of a reducer's dispatcher, so views read the same).
#[derive(Clone)]
pub struct Sender<M>(pub Callback<M>);

impl<M> Sender<M> {
    pub fn dispatch(&self, m: M) {
        self.0.emit(m);
    }
}

/// Where a screen asks to go; every ruleset's messages carry it and the app routes it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Nav {
    Menu,
    Setup,
    /// Back to the game in progress.
    Continue,
    /// The replay of the autosaved game (the full page's viewer).
    Replay,
    /// How to play, over the screen shown (the full page's; the lite page sends the player there).
    Rules,
}

pub fn colour_css(c: Colour) -> &'static str {
    match c {
        Colour::Red => "#d62839",
        Colour::Blue => "#1f6fe5",
        Colour::Green => "#2a9d4b",
        Colour::Yellow => "#f0c02f",
        Colour::Grey => "#8d939c",
        Colour::Black => "#2d2d33",
    }
}

/// Tenths of a unit as SVG number text ("12.5", "-.5", "3").
pub(crate) fn tenths(out: &mut String, v: i64) {
    use std::fmt::Write;
    if v < 0 {
        out.push('-');
    }
    let a = v.unsigned_abs();
    let _ = match (a / 10, a % 10) {
        (0, 0) => write!(out, "0"),
        (0, f) => write!(out, ".{f}"),
        (i, 0) => write!(out, "{i}"),
        (i, f) => write!(out, "{i}.{f}"),
    };
}

/// Decodes one territory's binary outline (see build.rs) into SVG path data.
pub(crate) fn outline(bytes: &[u8]) -> String {
    let mut i = 0;
    let mut next = || {
        let (mut v, mut shift) = (0u64, 0);
        while i < bytes.len() {
            let b = bytes[i];
            i += 1;
            v |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                break;
            }
        }
        ((v >> 1) as i64) ^ -((v & 1) as i64)
    };
    let mut d = String::new();
    for _ in 0..next() {
        let n = next();
        // The file holds fifths of a map unit; the path data, tenths.
        let mut point = || 2 * next();
        d.push('M');
        tenths(&mut d, point());
        d.push(' ');
        tenths(&mut d, point());
        d.push('l');
        for k in 0..(n - 1) * 2 {
            let v = point();
            if k > 0 && v >= 0 {
                d.push(' ');
            }
            tenths(&mut d, v);
        }
        d.push('z');
    }
    d
}

/// A chance as a percentage with one decimal, never rounded to a certainty it is not (">99.9%",
/// "<0.1%"): the classic attack box's and the economy battle panel's format. Integer formatting
/// only: the float formatter would add kilobytes to the wasm.
pub fn pct(p: f64) -> String {
    let t = (p * 1000.0).round() as u32;
    if t >= 1000 && p < 1.0 {
        ">99.9%".into()
    } else if t == 0 && p > 0.0 {
        "<0.1%".into()
    } else {
        format!("{}.{}%", t / 10, t % 10)
    }
}

pub fn cap(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// One seat of a hot-seat "who plays each seat" box: its colour, its name and the select that
/// changes who plays it.
#[cfg(feature = "full")]
pub struct SeatRow {
    pub colour: &'static str,
    pub name: String,
    pub select: Html,
}

/// A hot-seat "who plays each seat" box (economy seats, orders powers), changeable during the
/// game: `open` when the page asks, with `notice` (element id, text) above the rows when the
/// seats are not known.
#[cfg(feature = "full")]
pub fn seats_box(
    id: &str,
    summary: &str,
    open: bool,
    notice: Option<(&str, &str)>,
    rows: Vec<SeatRow>,
) -> Html {
    html! {
        <details class="seats-box" id={id.to_string()} {open}><summary>{summary}</summary>
            if let Some((nid, text)) = notice {
                <p class="notice" id={nid.to_string()}>{text}</p>
            }
            { for rows.into_iter().map(|r| html! {
                <div class="row"><span class="swatch" style={format!("background:{}", r.colour)}></span>
                    <span class="seat-name">{r.name}</span>{r.select}</div>
            }) }
        </details>
    }
}

/// A labelled `<select>` over `choices`; emits the chosen value. The generic part is a thin
/// wrapper so the markup is compiled once (smaller wasm).
pub fn select<T: Copy + PartialEq + 'static>(
    id: String,
    label: &str,
    value: T,
    choices: Vec<(T, String)>,
    on: Callback<T>,
) -> Html {
    let current = choices.iter().position(|c| c.0 == value).unwrap_or(0);
    let vals: Vec<T> = choices.iter().map(|c| c.0).collect();
    let names: Vec<String> = choices.into_iter().map(|c| c.1).collect();
    select_index(
        id,
        label,
        current,
        names,
        Callback::from(move |i: usize| on.emit(vals[i])),
    )
}

pub fn select_index(
    id: String,
    label: &str,
    current: usize,
    names: Vec<String>,
    on: Callback<usize>,
) -> Html {
    let n = names.len();
    let onchange = Callback::from(move |e: Event| {
        let s: HtmlSelectElement = e.target_unchecked_into();
        if let Ok(i) = s.value().parse::<usize>() {
            if i < n {
                on.emit(i);
            }
        }
    });
    html! {
        <label class="field" for={id.clone()}><span>{label}</span>
            <select id={id} {onchange}>
                { for names.iter().enumerate().map(|(i, name)| html! {
                    <option value={i.to_string()} selected={i == current}>{name.clone()}</option>
                }) }
            </select>
        </label>
    }
}

/// The page's high-resolution clock in milliseconds (`performance.now()`; 0 natively, where
/// the unit tests run).
pub fn clock_ms() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        let perf = js_sys::Reflect::get(&js_sys::global(), &"performance".into()).ok();
        let now = perf
            .as_ref()
            .and_then(|p| js_sys::Reflect::get(p, &"now".into()).ok())
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        if let (Some(p), Some(f)) = (perf, now) {
            return f.call0(&p).ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
        }
    }
    0.0
}

/// Keeps, per computer player (`name`: a level, `orders-<level>` for the orders ruleset's
/// phase orders, `online-…` for an online game's computer seats, `think::online::name`), the
/// decisions taken, their total, the slowest and each time in
/// `window.__orbisBots` (read by the end-to-end harness, which prints it: a figure, never an
/// assertion).
pub fn record_bot_ms(name: &str, ms: f64) {
    #[cfg(target_arch = "wasm32")]
    {
        use js_sys::Reflect;
        use wasm_bindgen::JsCast;
        let g = js_sys::global();
        let key = wasm_bindgen::JsValue::from_str("__orbisBots");
        let all = Reflect::get(&g, &key)
            .ok()
            .filter(|v| v.is_object())
            .unwrap_or_else(|| {
                let o: wasm_bindgen::JsValue = js_sys::Object::new().into();
                let _ = Reflect::set(&g, &key, &o);
                o
            });
        let entry = Reflect::get(&all, &name.into())
            .ok()
            .filter(|v| v.is_object())
            .unwrap_or_else(|| {
                let o: wasm_bindgen::JsValue = js_sys::Object::new().into();
                let _ = Reflect::set(&all, &name.into(), &o);
                o
            });
        let num = |k: &str| {
            Reflect::get(&entry, &k.into())
                .ok()
                .and_then(|v| v.as_f64())
                .unwrap_or(0.0)
        };
        let (n, total, max) = (num("decisions"), num("ms"), num("slowest_ms"));
        let _ = Reflect::set(&entry, &"decisions".into(), &(n + 1.0).into());
        let _ = Reflect::set(&entry, &"ms".into(), &(total + ms).into());
        let _ = Reflect::set(&entry, &"slowest_ms".into(), &max.max(ms).into());
        // Each time too (the first 400), for a median.
        let times = Reflect::get(&entry, &"times".into())
            .ok()
            .and_then(|v| v.dyn_into::<js_sys::Array>().ok())
            .unwrap_or_else(|| {
                let a = js_sys::Array::new();
                let _ = Reflect::set(&entry, &"times".into(), &a);
                a
            });
        if times.length() < 400 {
            times.push(&ms.into());
        }
    }
    let _ = (name, ms);
}

/// How fast computer players act on screen (shared by every ruleset's screens).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Speed {
    Slow,
    Normal,
    Fast,
}

impl Speed {
    pub fn delay_ms(self) -> u32 {
        match self {
            Speed::Slow => 900,
            Speed::Normal => 380,
            Speed::Fast => 90,
        }
    }
    pub fn key(self) -> &'static str {
        match self {
            Speed::Slow => "slow",
            Speed::Normal => "normal",
            Speed::Fast => "fast",
        }
    }
    pub fn from_key(k: &str) -> Speed {
        match k {
            "slow" => Speed::Slow,
            "fast" => Speed::Fast,
            _ => Speed::Normal,
        }
    }
}

/// A player's fill: `fill` with the motif of seat `seat` (none, stripes, dots, bars, crosses,
/// columns) drawn in `ink` — colour-blind safe, the same motifs on every map.
pub fn pattern(id: String, fill: &str, ink: &str, seat: usize) -> Html {
    let motif = match seat % 6 {
        0 => html! {},
        1 => html! { <path d="M0 8 L8 0" stroke={ink.to_string()} stroke-width="2.2"/> },
        2 => html! { <circle cx="4" cy="4" r="1.6" fill={ink.to_string()}/> },
        3 => html! { <path d="M0 4 H8" stroke={ink.to_string()} stroke-width="2"/> },
        4 => html! { <path d="M0 0 L8 8 M8 0 L0 8" stroke={ink.to_string()} stroke-width="1.4"/> },
        _ => html! { <path d="M4 0 V8" stroke={ink.to_string()} stroke-width="2"/> },
    };
    html! {
        <pattern id={id} width="8" height="8" patternUnits="userSpaceOnUse">
            <rect width="8" height="8" fill={fill.to_string()}/>
            { motif }
        </pattern>
    }
}

/// A number with one decimal, without the float formatter (keeps the wasm small).
pub fn f1(v: f32) -> String {
    let mut s = String::new();
    tenths(&mut s, (v * 10.0).round() as i64);
    s
}

/// Phones: the map fills its box (`slice`) so army counts stay legible; pan to see the rest.
pub fn narrow() -> bool {
    if cfg!(not(target_arch = "wasm32")) {
        return false;
    }
    web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|v| v.as_f64())
        .is_some_and(|w| w < 820.0)
}

/// `v` scaled by `f` about the point at fractions (`fx`, `fy`) of it, kept on the map.
pub fn zoom(v: [f32; 4], f: f32, fx: f32, fy: f32) -> [f32; 4] {
    let most = if narrow() {
        VIEWBOX[2] * 2.6
    } else {
        VIEWBOX[2]
    };
    let w = (v[2] * f).clamp(VIEWBOX[2] / 6.0, most);
    let h = w * VIEWBOX[3] / VIEWBOX[2];
    let x = v[0] + (v[2] - w) * fx;
    let y = v[1] + (v[3] - h) * fy;
    clamp_view([x, y, w, h])
}

/// `v` moved back so that at least a third of the map stays in it.
pub fn clamp_view(v: [f32; 4]) -> [f32; 4] {
    let axis = |p: f32, size: f32, o: f32, full: f32| {
        let (lo, hi) = (o - size * 0.3, o + full - size * 0.7);
        if lo > hi {
            o + full / 2.0 - size / 2.0
        } else {
            p.clamp(lo, hi)
        }
    };
    [
        axis(v[0], v[2], VIEWBOX[0], VIEWBOX[2]),
        axis(v[1], v[3], VIEWBOX[1], VIEWBOX[3]),
        v[2],
        v[3],
    ]
}
