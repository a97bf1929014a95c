//! Line charts of a game's course (issue 60, item 9): one inline SVG per measure, a line per
//! player in the player's colour AND with its own dash and marker (the colour-blind patterns
//! the maps use), labelled axes, one legend of names for all the charts, and each chart's
//! numbers as a table for screen readers and anyone who wants them.
//!
//! Hand-written: plotters with its SVG backend, measured for this page, added far more than
//! this file (see the commit that added it). The numbers come from the engine
//! (`orbis_engine::course`), replayed from the game's history; [`course_of`] keeps the replay
//! between renders so a page replays each action once.

use orbis_engine::course::{Course, Recorder, Tallied};
use std::any::Any;
use std::cell::RefCell;
use std::fmt::Write;
use yew::prelude::*;

/// The drawing's size in its own units: it scales to the width it is given (a phone's 390 px
/// as a desktop's side panel), so the text stays about 11 px high.
const W: i64 = 320;
const H: i64 = 160;
/// The plot's box inside it: room for the y ticks on the left, the x ticks and the x axis's
/// name below.
const LEFT: i64 = 34;
const RIGHT: i64 = W - 10;
const TOP: i64 = 10;
const BOTTOM: i64 = H - 30;

/// A player in the charts: its seat (which picks the dash and marker), name and colour.
#[derive(Clone, PartialEq)]
pub struct Who {
    pub seat: usize,
    pub name: String,
    pub colour: &'static str,
}

/// Line styles: six players a game (classic, economy), seven powers (orders).
const KINDS: usize = 7;

/// The dash of seat `seat`'s line (solid, dashed, dotted, dash-dot, long dash, dash-dot-dot,
/// sparse dots).
fn dash(seat: usize) -> &'static str {
    ["", "7 3", "2 2.5", "9 3 2 3", "13 4", "6 2 2 2 2 2", "1 4"][seat % KINDS]
}

/// The marker of seat `seat` at (x, y), in tenths of a unit, as path data: circle, square,
/// triangle, diamond (filled), cross, plus, a triangle pointing down (stroked).
fn marker(d: &mut String, seat: usize, x: i64, y: i64) {
    let p = |d: &mut String, v: i64| {
        crate::widgets::tenths(d, v);
        d.push(' ');
    };
    let r = 32;
    d.push('M');
    match seat % KINDS {
        0 => {
            p(d, x - r);
            p(d, y);
            d.push_str("a3.2 3.2 0 1 0 6.4 0a3.2 3.2 0 1 0 -6.4 0");
        }
        1 => {
            p(d, x - r + 4);
            p(d, y - r + 4);
            d.push_str("h5.6v5.6h-5.6z");
        }
        2 => {
            p(d, x);
            p(d, y - r - 6);
            d.push_str("l3.8 6.4h-7.6z");
        }
        3 => {
            p(d, x);
            p(d, y - r - 6);
            d.push_str("l3.8 3.8l-3.8 3.8l-3.8 -3.8z");
        }
        4 => {
            p(d, x - r + 4);
            p(d, y - r + 4);
            d.push_str("l5.6 5.6m0 -5.6l-5.6 5.6");
        }
        5 => {
            p(d, x - r - 4);
            p(d, y);
            d.push_str("h7.2m-3.6 -3.6v7.2");
        }
        _ => {
            p(d, x);
            p(d, y + r + 6);
            d.push_str("l3.8 -6.4h-7.6z");
        }
    }
}

/// Filled markers (circle, square, triangle, diamond) or stroked ones (the others).
fn filled(seat: usize) -> bool {
    seat % KINDS < 4
}

/// A tick step for values up to `max`: 1, 2 or 5 times a power of ten, at most `most` ticks.
fn step(span: u32, most: u32) -> u32 {
    let mut unit = 1u32;
    loop {
        for k in [1, 2, 5] {
            let s = unit.saturating_mul(k);
            if span / s < most {
                return s;
            }
        }
        unit = unit.saturating_mul(10);
    }
}

/// The sample, in tenths of a drawing unit: x from the clock, y from the value.
struct Scale {
    x0: u32,
    xspan: u32,
    ymax: u32,
}

impl Scale {
    fn x(&self, at: u32) -> i64 {
        let f = i64::from(at.saturating_sub(self.x0));
        LEFT * 10 + f * (RIGHT - LEFT) * 10 / i64::from(self.xspan.max(1))
    }
    fn y(&self, v: u32) -> i64 {
        BOTTOM * 10 - i64::from(v) * (BOTTOM - TOP) * 10 / i64::from(self.ymax.max(1))
    }
}

fn num(v: i64) -> String {
    let mut s = String::new();
    crate::widgets::tenths(&mut s, v);
    s
}

/// `t` safe inside SVG or HTML text and attributes.
fn esc(out: &mut String, t: &str) {
    for c in t.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

/// One player's line and markers (in `(fill, stroke)` of its marker kind) as SVG.
fn line(o: &mut String, w: &Who, d: &str, marks: &str) {
    let (fill, stroke, width) = if filled(w.seat) {
        (w.colour, "#1d232b", ".6")
    } else {
        ("none", w.colour, "1.8")
    };
    let _ = write!(
        o,
        r#"<path class="chart-line" d="{d}" stroke="{}" stroke-dasharray="{}" fill="none" stroke-width="2" stroke-linejoin="round"/><path d="{marks}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>"#,
        w.colour,
        dash(w.seat)
    );
}

/// One chart: measure `m` of `course` for `who`, titled `title`, its y axis named `y_name`
/// and the clock `x_name` ("Turn", "Round", "Year"); `mark`: the clock of the step a replay
/// shows. The drawing and the table's rows are text (far less code in the page than an
/// element per mark); the figure and the table's `<details>` are elements, so a table left
/// open stays open as the game goes on.
#[allow(clippy::too_many_arguments)]
fn chart(
    id: &str,
    (title, y_name): (&str, &str),
    x_name: &str,
    course: &Course,
    m: usize,
    who: &[Who],
    mark: Option<u32>,
) -> Html {
    let at = &course.at;
    let (Some(&x0), Some(&x1)) = (at.first(), at.last()) else {
        return html! {};
    };
    let top = course.max(m).max(1);
    let ystep = step(top, 5);
    // The y axis ends on a tick at or above the largest value.
    let ymax = top.div_ceil(ystep) * ystep;
    let sc = Scale {
        x0,
        xspan: x1 - x0,
        ymax,
    };
    let cap = format!("{id}-cap");
    let mut o = String::new();
    let _ = write!(
        o,
        r#"<svg viewBox="0 0 {W} {H}" role="img" aria-labelledby="{cap}"><desc>"#
    );
    // The last values in words, for a screen reader's first pass.
    let _ = write!(o, "{title} from {x_name} {x0} to {x1}; at the end: ");
    for (i, w) in who.iter().enumerate() {
        let v = course.lines[m][w.seat].last().copied().unwrap_or(0);
        esc(
            &mut o,
            &format!("{}{} {v}", if i > 0 { ", " } else { "" }, w.name),
        );
    }
    let _ = write!(
        o,
        r#".</desc><rect x="{LEFT}" y="{TOP}" width="{}" height="{}" class="chart-bg"/><path class="chart-grid" d=""#,
        RIGHT - LEFT,
        BOTTOM - TOP
    );
    for v in (0..=ymax).step_by(ystep as usize) {
        let _ = write!(o, "M{LEFT} {}H{RIGHT}", num(sc.y(v)));
    }
    o.push_str(r#""/>"#);
    for v in (0..=ymax).step_by(ystep as usize) {
        let _ = write!(
            o,
            r#"<text x="{}" y="{}" class="ytick">{v}</text>"#,
            LEFT - 4,
            num(sc.y(v) + 35)
        );
    }
    let xstep = step((x1 - x0).max(1), 6);
    let first_tick = x0.div_ceil(xstep) * xstep;
    for x in std::iter::once(x0).chain(
        (first_tick..=x1)
            .step_by(xstep as usize)
            .filter(|&x| x != x0),
    ) {
        let _ = write!(
            o,
            r#"<text x="{}" y="{}" class="xtick">{x}</text>"#,
            num(sc.x(x)),
            BOTTOM + 12
        );
    }
    let _ = write!(
        o,
        r#"<text x="{}" y="{}" class="xname">{x_name}</text><text transform="rotate(-90)" x="{}" y="9" class="yname">{y_name}</text>"#,
        (LEFT + RIGHT) / 2,
        H - 4,
        -(TOP + BOTTOM) / 2
    );
    if let Some(x) = mark.map(|x| x.clamp(x0, x1)) {
        let _ = write!(
            o,
            r#"<path class="chart-now" d="M{} {TOP}V{BOTTOM}"/>"#,
            num(sc.x(x))
        );
    }
    // Markers on every sample when there are few, else on about a dozen of them (and the last).
    let every = at.len().div_ceil(12).max(1);
    // Players with equal values would hide each other's lines: each is drawn a little apart
    // (1.2 units a player, about a pixel), and the table holds the exact numbers.
    let middle = who.len() as i64 - 1;
    for (k, w) in who.iter().enumerate() {
        let values = &course.lines[m][w.seat];
        let (mut d, mut marks) = (String::new(), String::new());
        let apart = (2 * k as i64 - middle) * 6;
        for (i, (&x, &v)) in at.iter().zip(values).enumerate() {
            let (px, py) = (sc.x(x), sc.y(v) + apart);
            let _ = write!(
                d,
                "{}{} {}",
                if i == 0 { 'M' } else { 'L' },
                num(px),
                num(py)
            );
            if i % every == 0 || i + 1 == at.len() {
                marker(&mut marks, w.seat, px, py);
            }
        }
        line(&mut o, w, &d, &marks);
    }
    o.push_str("</svg>");
    html! {
        <figure class="chart" id={id.to_string()} data-lines={who.len().to_string()}>
            <figcaption id={cap}>{title}</figcaption>
            { Html::from_html_unchecked(o.into()) }
            <details class="chart-table"><summary>{format!("{title}: the numbers")}</summary>
                { Html::from_html_unchecked(table(x_name, course, m, who).into()) }
            </details>
        </figure>
    }
}

/// The numbers behind a chart as a table (at most about 20 rows: evenly spaced samples, the
/// last always).
fn table(x_name: &str, course: &Course, m: usize, who: &[Who]) -> String {
    let mut o = format!(r#"<table class="stats"><thead><tr><th>{x_name}</th>"#);
    for w in who {
        o.push_str("<th>");
        esc(&mut o, &w.name);
        o.push_str("</th>");
    }
    o.push_str("</tr></thead><tbody>");
    let n = course.at.len();
    let every = n.div_ceil(20).max(1);
    for i in (0..n).filter(|i| i % every == 0 || i + 1 == n) {
        let _ = write!(o, "<tr><td>{}</td>", course.at[i]);
        for w in who {
            let _ = write!(o, "<td>{}</td>", course.lines[m][w.seat][i]);
        }
        o.push_str("</tr>");
    }
    o.push_str("</tbody></table>");
    o
}

/// The legend: each player's line and marker beside its name.
fn legend(who: &[Who]) -> Html {
    let mut o = String::from(r#"<ul class="chart-legend" aria-label="Players in the charts">"#);
    for w in who {
        let mut marks = String::new();
        marker(&mut marks, w.seat, 140, 60);
        o.push_str(r#"<li><svg viewBox="0 0 28 12" aria-hidden="true">"#);
        line(&mut o, w, "M1 6H27", &marks);
        o.push_str("</svg>");
        esc(&mut o, &w.name);
        o.push_str("</li>");
    }
    o.push_str("</ul>");
    Html::from_html_unchecked(o.into())
}

/// Every measure of `course` as a chart, with `titles` (caption, y axis: in the ruleset's order
/// of measures), under one legend. `id`: the block's element id.
pub fn charts(
    id: &str,
    titles: &[(&str, &str)],
    x_name: &str,
    course: Option<&Course>,
    who: &[Who],
    mark: Option<u32>,
) -> Html {
    let Some(c) = course.filter(|c| !c.at.is_empty()) else {
        return html! {
            <p class="hint" id={id.to_string()}>{"No charts for this game: they are drawn from the game's history, and this one was saved without it (a game from an older version, an online game, or one too long to keep)."}</p>
        };
    };
    html! {
        <section class="charts" id={id.to_string()} aria-label="The game so far, as charts">
            { legend(who) }
            { for titles.iter().enumerate().filter(|(m, _)| *m < c.lines.len()).map(|(m, t)| {
                chart(&format!("{id}-{m}"), *t, x_name, c, m, who, mark)
            }) }
        </section>
    }
}

/// A course being kept: the start it began from and its recorder.
type Kept = Option<(Vec<u8>, Box<dyn Any>)>;

thread_local! {
    /// The last course replayed (one game is open at a time, so one is enough).
    static KEPT: RefCell<Kept> = const { RefCell::new(None) };
}

/// The course of the game whose history starts at the save `start` and has the `actions`;
/// the replay is kept, so the next call replays only the actions added since. `None` when the
/// start cannot be read.
pub fn course_of<S: Tallied + 'static>(
    start: &[u8],
    actions: &[S::Action],
    read: impl FnOnce(&[u8]) -> Option<S>,
) -> Option<Course> {
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        let kept = k
            .take()
            .filter(|(s, _)| s == start)
            .and_then(|(_, r)| r.downcast::<Recorder<S>>().ok())
            .filter(|r| r.applied <= actions.len());
        let mut r = match kept {
            Some(r) => r,
            None => Box::new(Recorder::new(read(start)?)),
        };
        r.catch_up(actions);
        let c = r.course();
        *k = Some((start.to_vec(), r));
        Some(c)
    })
}

thread_local! {
    /// The course of the online game this page plays, sampled from its positions by the online
    /// screen (an online game keeps no history: its dice are the table's); `None` without one.
    static ONLINE: RefCell<Option<Course>> = const { RefCell::new(None) };
}

/// Sets (or, with `None`, forgets) the course of the online game this page plays.
#[cfg(feature = "online")]
pub fn set_online(c: Option<Course>) {
    ONLINE.with(|o| *o.borrow_mut() = c);
}

/// The course of the online game this page plays, if any.
fn online() -> Option<Course> {
    ONLINE.with(|o| o.borrow().clone())
}

/// A classic game's course, from its history (`None`: no history, or one that cannot be read);
/// an online game's (which has none) from its positions.
pub fn classic_course(h: Option<&crate::savefile::History>) -> Option<Course> {
    let Some(h) = h else { return online() };
    let actions = h.decode_actions().ok()?;
    course_of(&h.start, &actions, |b| {
        crate::savefile::from_save(b).ok().flatten()
    })
}

/// An orders game's course (supply centres, units), from its history.
#[cfg(feature = "full")]
pub fn orders_course(h: Option<&crate::savefile::History>) -> Option<Course> {
    use orbis_engine::rules::{orders::OrdersAction, Game};
    let Some(h) = h else { return online() };
    let actions: Vec<OrdersAction> = orbis_engine::codec::decode(&h.as_vec()).ok()?;
    course_of(&h.start, &actions, |b| match Game::from_save(b) {
        Ok(Game::Orders(s)) => Some(s),
        _ => None,
    })
}

/// An economy game's course (countries, units, income), from its history.
#[cfg(feature = "full")]
pub fn economy_course(h: Option<&crate::savefile::History>) -> Option<Course> {
    use orbis_engine::rules::{economy::action::EconomyAction, Game};
    let Some(h) = h else { return online() };
    let actions: Vec<EconomyAction> = orbis_engine::codec::decode(&h.as_vec()).ok()?;
    course_of(&h.start, &actions, |b| match Game::from_save(b) {
        Ok(Game::Economy(s)) => Some(s),
        _ => None,
    })
}

/// Notes one more state of a game known by its states (an online game's positions).
#[cfg(feature = "online")]
pub fn observe(s: &mut orbis_engine::course::Sampler, g: &orbis_engine::rules::Game) {
    use orbis_engine::rules::Game;
    match g {
        Game::Classic(c) => s.observe(c),
        Game::Orders(o) => s.observe(o),
        Game::Economy(e) => s.observe(e),
    }
}

/// The course of a game known by its states, the start first (a transcript's positions,
/// played with the table's dice: its actions alone do not replay it).
#[cfg(feature = "online")]
pub fn of_states(states: &[orbis_engine::rules::Game]) -> Course {
    let mut s = orbis_engine::course::Sampler::default();
    for g in states {
        observe(&mut s, g);
    }
    s.course()
}

/// The players of `who` who had anything at some point of the course (the powers of an
/// orders map nobody played stay out of its charts; a power eliminated since stays in).
#[cfg(feature = "full")]
pub fn present(c: Option<&Course>, who: Vec<Who>) -> Vec<Who> {
    who.into_iter()
        .filter(|w| c.is_none_or(|c| c.lines.iter().any(|m| m[w.seat].iter().any(|&v| v > 0))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::savefile::History;
    use orbis_engine::classic::{
        BotLevel, ClassicOptions, ClassicState, Colour, Phase, SeatConfig, SeatKind,
    };

    #[test]
    fn a_growing_history_is_charted_as_a_whole_replay_of_it() {
        let seats = [Colour::Red, Colour::Yellow]
            .iter()
            .map(|&c| SeatConfig {
                name: format!("<{}>", c.name()),
                colour: c,
                kind: SeatKind::Bot(BotLevel::Normal),
            })
            .collect();
        let mut s = ClassicState::new(seats, ClassicOptions::default(), [2; 32]).unwrap();
        let start = s.clone();
        let mut h = History::new(&s);
        let mut actions = vec![];
        while !matches!(s.phase, Phase::GameOver { .. }) {
            let a = orbis_engine::bot::choose(&s, BotLevel::Normal).unwrap();
            s.apply(&a).unwrap();
            assert!(h.push(&a));
            actions.push(a);
            // The page asks at every render; the kept replay goes on from where it was.
            if actions.len() % 50 == 0 {
                let whole = orbis_engine::course::replay(start.clone(), &actions);
                assert_eq!(classic_course(Some(&h)), Some(whole));
            }
        }
        let c = classic_course(Some(&h)).unwrap();
        assert_eq!(c, orbis_engine::course::replay(start, &actions));
        assert_eq!(classic_course(None), None);
        // Another game's history is replayed from its own start.
        let other = History::new(
            &ClassicState::new(
                vec![
                    SeatConfig {
                        name: "A".into(),
                        colour: Colour::Red,
                        kind: SeatKind::Human,
                    },
                    SeatConfig {
                        name: "B".into(),
                        colour: Colour::Blue,
                        kind: SeatKind::Human,
                    },
                ],
                ClassicOptions::default(),
                [3; 32],
            )
            .unwrap(),
        );
        assert_eq!(classic_course(Some(&other)).unwrap().at, vec![0]);
        // The table: a header per player (names escaped), at most about 20 rows, the last one
        // the end.
        let who: Vec<Who> = s
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| Who {
                seat: i,
                name: p.name.clone(),
                colour: crate::widgets::colour_css(p.colour),
            })
            .collect();
        let t = table("Turn", &c, 0, &who);
        assert!(t.contains("<th>&lt;red&gt;</th>"), "{t}");
        let rows = t.matches("<tr><td>").count();
        assert!(
            rows <= 21 && rows >= c.at.len().min(11),
            "{rows} rows of {}",
            c.at.len()
        );
        let last = format!("<tr><td>{}</td>", c.at.last().unwrap());
        assert!(t.contains(&last), "the last sample is always a row: {t}");
    }

    #[test]
    fn ticks_are_one_two_or_five_times_a_power_of_ten() {
        assert_eq!(step(4, 5), 1);
        assert_eq!(step(42, 5), 10);
        assert_eq!(step(9, 5), 2);
        assert_eq!(step(180, 5), 50);
        assert_eq!(step(1, 6), 1);
    }
}
