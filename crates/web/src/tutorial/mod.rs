//! "Learn to play" (issue 60, item 2): a first game per ruleset, played on that ruleset's own
//! screens with a coach panel beside them. A lesson is data ([`Step`]s in `classic.rs`, ...) run by
//! a small step machine ([`Lesson`]): each step says what to do and why, names the control to use
//! (highlighted, and exposed as `data-target` so the browser test follows only the coach), waits
//! for a predicate on the engine state, then explains the result. Messages that would leave the
//! script are refused with a word from the coach, so the fixed start and seed tell the same story
//! every time. The lesson's game is never autosaved: leaving it finds the player's own game.
//!
//! The scripts are on the full page only (the lite page's "Learn to play" opens it there, as it
//! does How to play): the lite first load stays as small as it was.
#![cfg_attr(not(feature = "full"), allow(dead_code))]

#[cfg(feature = "full")]
pub mod classic;
#[cfg(feature = "full")]
pub mod economy;
#[cfg(feature = "full")]
pub mod orders;
#[cfg(all(test, feature = "full"))]
mod summary_check;

use crate::widgets::glossary::Rules;
use crate::widgets::term::explain;
use yew::prelude::*;

/// One step of a lesson. `S`: the ruleset's screen state (game and UI, for the next target);
/// `G`: the engine state the predicates read; `M`: the screen's messages.
pub struct Step<S: 'static, G: 'static, M: 'static> {
    pub title: &'static str,
    /// What to do and why, for someone who never played.
    pub says: fn(&G) -> String,
    /// The CSS selector of the control to use now ("" when the coach waits for Next or the
    /// computer players).
    pub target: fn(&S) -> &'static str,
    /// Whether a game-changing message belongs to this step (others are refused).
    pub allows: fn(&G, &M) -> bool,
    /// The step is done: the state at the step's start, and now.
    pub done: fn(&G, &G) -> bool,
    /// What happened, explained (same arguments as `done`).
    pub result: fn(&G, &G) -> String,
    /// Where the result shows on the screen (a map region: `#r-western_europe`), brought into
    /// view with it (a phone's map scrolls there); "" for nowhere in particular.
    pub look: &'static str,
    /// Its section of How to play (`rules-classic-attack`).
    pub rules: &'static str,
}

/// Which lesson.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Course {
    Classic,
    Orders,
    Economy,
}

/// Where a lesson is: the step, the state when it began, the result once it is done, and the
/// coach's word about a refused action.
#[derive(Clone, PartialEq)]
pub struct Lesson<G> {
    pub step: usize,
    pub start: G,
    pub result: Option<String>,
    pub notice: Option<String>,
}

impl<G: Clone> Lesson<G> {
    pub fn new<S, M>(steps: &[Step<S, G, M>], g: &G) -> Self {
        let mut l = Lesson {
            step: 0,
            start: g.clone(),
            result: None,
            notice: None,
        };
        l.observe(steps, g);
        l
    }

    /// May `m` go on to the game? Refused messages leave a notice saying what the coach waits for.
    pub fn gate<S, M>(&mut self, steps: &[Step<S, G, M>], now: &G, m: &M) -> bool {
        let st = &steps[self.step];
        let ok = if self.result.is_some() {
            false
        } else {
            (st.allows)(now, m)
        };
        self.notice = (!ok).then(|| {
            if self.result.is_some() {
                "Read what happened, then press Next.".into()
            } else {
                format!(
                    "Not yet: this lesson waits for \"{}\". Use the control highlighted in purple.",
                    st.title
                )
            }
        });
        ok
    }

    /// After the game changed: is the step done?
    pub fn observe<S, M>(&mut self, steps: &[Step<S, G, M>], now: &G) {
        let st = &steps[self.step];
        if self.result.is_none() && (st.done)(&self.start, now) {
            self.result = Some((st.result)(&self.start, now));
            self.notice = None;
        }
    }

    /// Next: on to the following step, from the state as it is now.
    pub fn next<S, M>(&mut self, steps: &[Step<S, G, M>], now: &G) {
        if self.step + 1 < steps.len() {
            self.step += 1;
            self.start = now.clone();
            self.result = None;
            self.notice = None;
            self.observe(steps, now);
        }
    }

    pub fn last<S, M>(&self, steps: &[Step<S, G, M>]) -> bool {
        self.step + 1 == steps.len()
    }
}

/// What the coach does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Coach {
    Start(Course),
    Next,
    /// Back to the first page (the player's own game, if any, as it was).
    Leave,
    /// Leave, then a quick game of the same ruleset.
    PlayReal,
    /// How to play at the step's section.
    Rules,
}

/// The coach panel for `steps` at `lesson`, with `s` the screen state; `name` says which region
/// or province a map target is (a refusal names what to click); `rules`: the ruleset whose
/// terms the words explain where they appear (a tap on "upkeep" says what it is), so that the
/// steps stay short.
pub fn panel<S, G: Clone, M>(
    steps: &[Step<S, G, M>],
    lesson: &Lesson<G>,
    s: &S,
    send: Callback<Coach>,
    name: fn(&str) -> Option<String>,
    rules: Rules,
) -> Html {
    let st = &steps[lesson.step];
    let on = |c: Coach| {
        let send = send.clone();
        Callback::from(move |_: MouseEvent| send.emit(c))
    };
    let last = lesson.last(steps);
    let target = if lesson.result.is_some() || last {
        ""
    } else {
        (st.target)(s)
    };
    let wait_next = lesson.result.is_some() && !last;
    let target = if wait_next { "#coach-next" } else { target };
    let highlight = highlight(target);
    // A refusal names the place to click when the coach waits for one on the map.
    let notice = lesson.notice.as_ref().map(|w| match name(target) {
        Some(n) if lesson.result.is_none() => format!(
            "Not yet: click {n}, outlined in purple on the map. This lesson waits for \"{}\".",
            st.title
        ),
        _ => w.clone(),
    });
    let n = steps.len();
    // Keyed by step: a coach folded to its title line on a phone opens again at the next step.
    html! {
        <aside class="coach" id="coach" aria-label="Coach" data-step={lesson.step.to_string()}
            data-target={target} data-last={if last { "1" } else { "0" }}>
            <style>{highlight}</style>
            <details class="coach-fold" open=true key={lesson.step}>
                <summary class="coach-head">
                    <span class="coach-count">{format!("Step {} of {}", lesson.step + 1, n)}</span>
                    <h2 id="coach-title">{st.title}</h2>
                </summary>
                <p id="coach-says">{explain(&(st.says)(&lesson.start), rules)}</p>
                if !target.is_empty() && target != "#coach-next" {
                    <p class="coach-key"><span class="coach-swatch" aria-hidden="true"></span>
                        {"The purple outline marks what to click now."}</p>
                }
                if let Some(r) = lesson.result.as_ref().filter(|r| !r.is_empty()) {
                    <p class="coach-result" id="coach-result" role="status"><b>{"What happened: "}</b>{explain(r, rules)}</p>
                }
                if let Some(w) = &notice {
                    <p class="coach-notice" id="coach-notice" role="alert">{w}</p>
                }
                <div class="row">
                    if wait_next {
                        <button class="btn primary" id="coach-next" onclick={on(Coach::Next)}>{"Next"}</button>
                    }
                    if last {
                        <button class="btn primary" id="coach-real" onclick={on(Coach::PlayReal)}>{"Play a real game"}</button>
                    }
                    <button class="btn small" id="coach-rules" data-anchor={st.rules} onclick={on(Coach::Rules)}>{"Rules of this step"}</button>
                    <button class="btn small" id="coach-leave" onclick={on(Coach::Leave)}>{"Leave the lesson"}</button>
                </div>
            </details>
            <Follow target={AttrValue::from(if wait_next && !st.look.is_empty() { st.look } else { target })} />
        </aside>
    }
}

/// The rule that marks the control the coach names, by its selector (no hook in the screens
/// needed). Purple and thick, unlike the amber keyboard focus and the screens' own dashed
/// target outlines, so that the one thing to click now never looks like the others.
fn highlight(target: &str) -> String {
    match target {
        "" => String::new(),
        t if t.starts_with("#t-") || t.starts_with("#r-") => {
            format!("{t} .shape{{stroke:#7209b7;stroke-width:8px;stroke-dasharray:none}}")
        }
        // A province of the orders map (`[data-key="PAR"]`): its outline, and its key written
        // large (the map's three letters are small), which the coach's words name in full.
        t if t.starts_with("[data-key=") => {
            let key = t.trim_start_matches("[data-key=").trim_end_matches(']');
            format!(
                "svg.omap {t} path,svg.omap {t} circle{{stroke:#7209b7;stroke-width:6px}}\
                 svg.omap .okey[data-k={key}]{{font-size:24px;fill:#7209b7;stroke-width:4px}}"
            )
        }
        t => format!("{t}{{outline:4px solid #7209b7;outline-offset:2px}}"),
    }
}

#[derive(Properties, PartialEq)]
struct FollowProps {
    target: AttrValue,
}

/// Keeps the control the coach names in sight: when it lies outside the window, or under the
/// coach (a phone's coach sits at the bottom), the page scrolls it into view above the coach.
/// Runs once per target, after the screen has drawn it.
#[function_component]
fn Follow(p: &FollowProps) -> Html {
    use_effect_with(p.target.clone(), |t| {
        let t = t.to_string();
        let timer = gloo::timers::callback::Timeout::new(60, move || reveal(&t));
        move || drop(timer)
    });
    html! {}
}

fn reveal(target: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    // A result under long words (a phone's coach scrolls): the coach shows its end, the result
    // and Next.
    if let (Some(c), Some(_)) = (
        doc.get_element_by_id("coach"),
        doc.get_element_by_id("coach-result"),
    ) {
        c.set_scroll_top(c.scroll_height());
    }
    if target.is_empty() || target.starts_with("#coach") {
        return;
    }
    let (Ok(Some(el)), Some(win)) = (doc.query_selector(target), web_sys::window()) else {
        return;
    };
    let height = win
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    // The coach covers the window from its top down when it sits at the bottom (a phone).
    let limit = doc
        .get_element_by_id("coach")
        .map(|c| c.get_bounding_client_rect().top())
        .filter(|&top| top > height / 3.0)
        .unwrap_or(height);
    let r = el.get_bounding_client_rect();
    // A region of a map: the part of it the map shows, and the page scrolls.
    if let Ok(Some(svg)) = el.closest("svg") {
        let m = svg.get_bounding_client_rect();
        let (top, bottom) = (r.top().max(m.top()), r.bottom().min(m.bottom()));
        if top < 0.0 || bottom > limit - 4.0 {
            // Its middle to the middle of the window above the coach, with as much of the
            // map around it as the page allows.
            win.scroll_by_with_x_and_y(0.0, (top + bottom) / 2.0 - limit / 2.0);
        }
        return;
    }
    if r.top() < 0.0 || r.bottom() > limit - 4.0 {
        // Scroll-margin (style-tutorial.css) keeps it clear of the coach.
        el.scroll_into_view_with_bool(false);
    }
}
