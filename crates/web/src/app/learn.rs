//! The lessons' hooks in the app ("Learn to play", `tutorial`): starting one on the ruleset's
//! own screen, the coach's buttons, and a screen's messages passing the lesson's gate. The
//! lesson's game is never autosaved, so leaving reads the player's own saved game again. The
//! lessons are on the full page: the lite page's "Learn to play" opens them there.

use super::{AppState, Msg, Screen};
use crate::classic::play as classic;
use crate::tutorial::Coach;
#[cfg(feature = "full")]
use crate::tutorial::{self, Course, Lesson};
use yew::prelude::*;

/// The lesson the lite page asked the full page for (`open=learn`).
const COURSE_KEY: &str = "orbis.learn.course";

/// The lesson asked for with `open=learn` (the classic one unless the lite page named another).
#[cfg(feature = "full")]
pub(super) fn asked_course() -> Course {
    let asked = crate::store::get(COURSE_KEY);
    crate::store::remove(COURSE_KEY);
    match asked.as_deref() {
        Some("Orders") => Course::Orders,
        Some("Economy") => Course::Economy,
        _ => Course::Classic,
    }
}

/// The lesson under way.
#[derive(Clone, PartialEq)]
pub enum Tutor {
    #[cfg(feature = "full")]
    Classic(Box<Lesson<orbis_engine::classic::ClassicState>>),
    /// The orders lesson reads the whole session (the draft, the selection, the results).
    #[cfg(feature = "full")]
    Orders(Box<Lesson<crate::orders::OrdersSession>>),
    /// The economy lesson reads the whole session too (the plans drafted are UI state).
    #[cfg(feature = "full")]
    Economy(Box<Lesson<crate::economy::EconomySession>>),
}

impl AppState {
    /// The lite page: every coach's button opens the full page's lesson.
    #[cfg(not(feature = "full"))]
    pub(super) fn coach(&mut self, c: Coach) {
        // Which lesson, for the full page to start (`asked_course`).
        if let Coach::Start(course) = c {
            crate::store::set(COURSE_KEY, &format!("{course:?}"));
        }
        self.screen = Screen::Replay; // "Loading Orbis…" while the full page loads
        crate::lite::open_full(crate::lite::Open::Learn, false);
    }

    #[cfg(feature = "full")]
    pub(super) fn coach(&mut self, c: Coach) {
        use crate::widgets::Nav;
        match c {
            Coach::Start(Course::Classic) => {
                let g = tutorial::classic::start();
                self.orders = None;
                self.economy = None;
                self.help = None;
                self.classic.lesson = true;
                self.classic.history = None;
                self.classic.log = vec!["The lesson begins.".into()];
                self.tutor = Some(Tutor::Classic(Box::new(Lesson::new(
                    &tutorial::classic::STEPS,
                    &g,
                ))));
                self.classic.start_with(g, false);
                self.classic.ui.view = tutorial::classic::VIEW;
                self.screen = Screen::Play;
            }
            Coach::Start(Course::Orders) => {
                let o = tutorial::orders::session();
                self.classic.game = None;
                self.economy = None;
                self.help = None;
                self.tutor = Some(Tutor::Orders(Box::new(Lesson::new(
                    &tutorial::orders::STEPS,
                    &o,
                ))));
                self.orders = Some(o);
                self.screen = Screen::OrdersPlay;
            }
            Coach::Start(Course::Economy) => {
                let e = tutorial::economy::session();
                self.classic.game = None;
                self.orders = None;
                self.help = None;
                self.tutor = Some(Tutor::Economy(Box::new(Lesson::new(
                    &tutorial::economy::STEPS,
                    &e,
                ))));
                self.economy = Some(e);
                self.screen = Screen::EconomyPlay;
            }
            Coach::Next if matches!(self.tutor, Some(Tutor::Economy(_))) => {
                if let (Some(Tutor::Economy(l)), Some(e)) = (&mut self.tutor, &self.economy) {
                    l.next(&tutorial::economy::STEPS, e)
                }
            }
            Coach::Next => match (&mut self.tutor, &self.classic.game, &self.orders) {
                (Some(Tutor::Classic(l)), Some(g), _) => l.next(&tutorial::classic::STEPS, g),
                (Some(Tutor::Orders(l)), _, Some(o)) => l.next(&tutorial::orders::STEPS, o),
                _ => {}
            },
            Coach::Leave => self.leave_lesson(),
            Coach::PlayReal => {
                let orders = matches!(self.tutor, Some(Tutor::Orders(_)));
                let economy = matches!(self.tutor, Some(Tutor::Economy(_)));
                self.leave_lesson();
                if economy {
                    self.new_economy_game(&super::start::quick_economy_form());
                } else if orders {
                    self.new_orders_game(&super::start::quick_orders_form());
                } else {
                    self.new_classic_game(&crate::classic::play::SetupForm::default());
                }
            }
            Coach::Rules => {
                let anchor = match &self.tutor {
                    Some(Tutor::Classic(l)) => tutorial::classic::STEPS[l.step].rules,
                    Some(Tutor::Orders(l)) => tutorial::orders::STEPS[l.step].rules,
                    Some(Tutor::Economy(l)) => tutorial::economy::STEPS[l.step].rules,
                    None => "",
                };
                self.nav(Nav::Rules);
                // How to play draws on the next render: then its section takes the focus.
                gloo::timers::callback::Timeout::new(50, move || crate::store::focus(anchor))
                    .forget();
            }
        }
    }

    /// Back to the first page with the player's own saved game (if any) as it was.
    pub(super) fn leave_lesson(&mut self) {
        if self.tutor.is_some() {
            *self = AppState::load_state(true);
        }
        self.show_menu();
    }

    /// A classic message during a lesson: refused unless the step asks for it; the step checked
    /// after it.
    pub(super) fn lesson_classic(&mut self, m: classic::Msg) {
        #[cfg(feature = "full")]
        if let Some(Tutor::Classic(l)) = &mut self.tutor {
            let steps = &tutorial::classic::STEPS;
            if let Some(g) = self.classic.game.as_ref() {
                if tutorial::classic::gated(&m) && !l.gate(steps, g, &m) {
                    return;
                }
            }
            self.classic.update(m);
            if let Some(g) = self.classic.game.as_ref() {
                l.observe(steps, g);
            }
            return;
        }
        self.classic.update(m)
    }

    /// An orders message during the orders lesson (false: no such lesson, the app handles it):
    /// refused unless the step asks for it; the other powers' scripted orders go in with the
    /// player's; the step checked after it. Never autosaved.
    #[cfg(feature = "full")]
    pub(super) fn lesson_orders(&mut self, m: &crate::orders::OMsg) -> bool {
        let (Some(Tutor::Orders(l)), Some(o)) = (&mut self.tutor, &mut self.orders) else {
            return false;
        };
        let steps = &tutorial::orders::STEPS;
        if tutorial::orders::gated(m) && !l.gate(steps, o, m) {
            return true;
        }
        tutorial::orders::update(o, m.clone());
        l.observe(steps, o);
        true
    }
}

impl AppState {
    /// An economy message during the economy lesson (false: no such lesson, the app handles
    /// it): refused unless the step asks for it; the step checked after it. Never autosaved.
    #[cfg(feature = "full")]
    pub(super) fn lesson_economy(&mut self, m: &crate::economy::EMsg) -> bool {
        let (Some(Tutor::Economy(l)), Some(e)) = (&mut self.tutor, &mut self.economy) else {
            return false;
        };
        let steps = &tutorial::economy::STEPS;
        if tutorial::economy::gated(m) && !l.gate(steps, e, m) {
            return true;
        }
        e.update(m.clone());
        tutorial::economy::settle(e, m);
        l.observe(steps, e);
        true
    }
}

/// The coach beside the screen, when a lesson is under way.
pub(super) fn coach_panel(app: &UseReducerHandle<AppState>) -> Html {
    #[cfg(feature = "full")]
    if let (Some(Tutor::Classic(l)), Screen::Play) = (&app.tutor, app.screen) {
        let d = app.dispatcher();
        let send = Callback::from(move |c| d.dispatch(Msg::Coach(c)));
        return tutorial::panel(
            &tutorial::classic::STEPS,
            l,
            &app.classic,
            send,
            tutorial::classic::target_name,
            crate::widgets::glossary::Rules::Classic,
        );
    }
    #[cfg(feature = "full")]
    if let (Some(Tutor::Orders(l)), Some(o), Screen::OrdersPlay) =
        (&app.tutor, &app.orders, app.screen)
    {
        let d = app.dispatcher();
        let send = Callback::from(move |c| d.dispatch(Msg::Coach(c)));
        return tutorial::panel(
            &tutorial::orders::STEPS,
            l,
            o,
            send,
            tutorial::orders::target_name,
            crate::widgets::glossary::Rules::Orders,
        );
    }
    #[cfg(feature = "full")]
    if let (Some(Tutor::Economy(l)), Some(e), Screen::EconomyPlay) =
        (&app.tutor, &app.economy, app.screen)
    {
        let d = app.dispatcher();
        let send = Callback::from(move |c| d.dispatch(Msg::Coach(c)));
        return tutorial::panel(
            &tutorial::economy::STEPS,
            l,
            e,
            send,
            tutorial::economy::target_name,
            crate::widgets::glossary::Rules::Economy,
        );
    }
    let _ = (app, Msg::ShowMenu);
    html! {}
}
