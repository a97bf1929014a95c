//! The replay of an orders game, phase by phase: the start state and the recorded actions run
//! through the engine's `apply` again, a state kept after every adjudication (an orders game has
//! tens of phases, not thousands of actions), each shown with that phase's results as the play
//! screen shows them (the board with its arrows, the results list), read-only.

use crate::orders::view::{board, power_chip, results_list};
use crate::orders::{OMsg, OrdersSession, Resolved, Stage, View};
use crate::replay::{RMsg, Steps};
use crate::savefile::History;
use orbis_engine::codec;
use orbis_engine::rules::orders::{OrdersAction, OrdersState, Phase};
use orbis_engine::rules::Game;
use std::rc::Rc;
use yew::prelude::*;

/// One step: the state after a phase and that phase's results (`None`: the start, or orders
/// submitted since the last phase).
type Step = (OrdersState, Option<Resolved>);

/// An open replay of an orders game.
#[derive(Clone)]
pub struct OrdersReplay {
    steps: Rc<Vec<Step>>,
    /// The step on screen.
    pub step: usize,
    /// The session the board widget reads (results stage: nothing to order).
    pub shown: OrdersSession,
    hash: String,
    /// The whole game's course, for the charts.
    course: Rc<orbis_engine::course::Course>,
}

impl PartialEq for OrdersReplay {
    fn eq(&self, o: &OrdersReplay) -> bool {
        Rc::ptr_eq(&self.steps, &o.steps) && self.step == o.step && self.shown == o.shown
    }
}

fn hash(s: &OrdersState) -> String {
    Game::Orders(s.clone()).state_hash().to_hex()
}

impl OrdersReplay {
    /// Replays `h` from its start; `Err` says why the game `end` cannot be replayed.
    pub fn new(h: &History, end: &OrdersSession) -> Result<OrdersReplay, String> {
        let damaged = |e: String| format!("Its history is damaged ({e}).");
        let mut s = match Game::from_save(&h.start) {
            Ok(Game::Orders(s)) => s,
            Ok(_) => return Err(damaged("the start is of another ruleset".into())),
            Err(e) => return Err(damaged(e.to_string())),
        };
        let actions: Vec<OrdersAction> =
            codec::decode(&h.as_vec()).map_err(|e| damaged(e.to_string()))?;
        let mut steps = vec![(s.clone(), None)];
        let (mut events, mut since) = (vec![], 0);
        for (i, a) in actions.iter().enumerate() {
            let (year, season) = (s.year, s.season);
            let over = matches!(s.phase, Phase::GameOver { .. });
            let ev = s
                .apply(a)
                .map_err(|e| damaged(format!("action {} is refused: {e}", i + 1)))?;
            events.extend(ev);
            since += 1;
            let ended = !over && matches!(s.phase, Phase::GameOver { .. });
            if matches!(a, OrdersAction::Adjudicate) || ended {
                steps.push((s.clone(), Some(end.summarise(year, season, &events))));
                events.clear();
                since = 0;
            }
        }
        if since > 0 {
            steps.push((s.clone(), None)); // orders in, the phase not resolved yet
        }
        if hash(&s) != hash(&end.game) {
            return Err("Its history does not lead to the saved game.".into());
        }
        let course = orbis_engine::course::replay(steps[0].0.clone(), &actions);
        let mut shown = OrdersSession::new(s, vec![]);
        shown.online = None;
        let mut r = OrdersReplay {
            course: Rc::new(course),
            steps: Rc::new(steps),
            step: 0,
            shown,
            hash: String::new(),
        };
        r.goto(0);
        Ok(r)
    }
}

impl Steps for OrdersReplay {
    /// Number of steps after the start (phases resolved).
    fn len(&self) -> usize {
        self.steps.len() - 1
    }

    fn step(&self) -> usize {
        self.step
    }

    fn hash(&self) -> &str {
        &self.hash
    }

    /// Shows the state after `n` phases (clamped).
    fn goto(&mut self, n: usize) {
        let n = n.min(self.len());
        let (s, last) = &self.steps[n];
        self.step = n;
        self.shown.game = s.clone();
        self.shown.last = last.clone();
        self.shown.stage = Stage::Results;
        self.shown.sel = None;
        self.hash = hash(s);
    }

    fn board(&mut self, m: RMsg) {
        match m {
            RMsg::Orders(OMsg::View(v)) => self.shown.view = v,
            RMsg::Orders(OMsg::ZoomAt(f, x, y)) => self.shown.zoom_at(f, x, y),
            RMsg::Orders(OMsg::Schematic(b)) => self.shown.schematic = b,
            _ => {}
        }
    }
}

/// The orders replay screen: "Spring 1902 movement", the board with that phase's arrows, the
/// results list and the step controls.
pub fn screen(r: &OrdersReplay, send: Callback<RMsg>, back: Callback<MouseEvent>) -> Html {
    let s = &r.shown;
    let g = &s.game;
    let map = s.map();
    let (n, m) = (r.step, r.len());
    let title = match (&s.last, n) {
        (_, 0) => "The start".to_string(),
        (Some(l), _) => l.title.clone(),
        (None, _) => "Orders written, not yet resolved".to_string(),
    };
    let view = View {
        orders: Some(s),
        send: {
            let send = send.clone();
            Callback::from(move |o: OMsg| send.emit(RMsg::Orders(o)))
        },
    };
    let next = match g.phase {
        Phase::GameOver { .. } => "The game is over.".to_string(),
        ph => format!(
            "Next: {} {} {}.",
            crate::orders::season_word(g.season),
            g.year,
            crate::orders::phase_word(ph)
        ),
    };
    let powers = (0..map.powers.len() as u8).filter(|&p| g.alive(p));
    html! {
        <>
            { crate::keynav::skip_link(crate::keynav::CONTROLS) }
            <header class="bar">
                <button class="btn small" id="replay-close" onclick={back}>{"✕ Close replay"}</button>
                <h1 class="title">{"Replay"}</h1>
                <span class="turn" id="replay-step">{format!("Phase {n} of {m}")}</span>
            </header>
            <main class="play oplay replay" id="replay" data-step={n.to_string()} data-steps={m.to_string()}
                data-hash={r.hash().to_string()}>
                <div class="map-wrap">{ board(&view, s) }</div>
                <aside class="side">
                    <ul class="players">{ for powers.map(|p| power_chip(s, p)) }</ul>
                    <section class="prompt" id={crate::keynav::CONTROLS} tabindex="-1">
                        <p id="replay-status" aria-live="polite"><strong>{title}</strong>{" "}{next}</p>
                        { crate::replay::nav(n, m, "phase", &send) }
                    </section>
                    { results_list(s) }
                    { charts(r) }
                </aside>
            </main>
        </>
    }
}

/// Supply centres and units per power over the whole game; the dashed line: the year shown.
fn charts(r: &OrdersReplay) -> Html {
    course_charts(r.shown.map(), &r.course, r.shown.game.year)
}

/// An orders game's charts from its course (this replay's and a transcript's); the dashed line
/// at `year`.
pub(super) fn course_charts(
    map: &orbis_engine::rules::orders::map::OrdersMap,
    course: &orbis_engine::course::Course,
    year: u16,
) -> Html {
    use crate::widgets::chart;
    let who = (0..map.powers.len()).map(|p| chart::Who {
        seat: p,
        name: map.powers[p].name.clone(),
        colour: crate::orders::power_colour(p as u8),
    });
    let who = chart::present(Some(course), who.collect());
    chart::charts(
        "replay-charts",
        &[
            ("Supply centres per power", "Centres"),
            ("Units on the board", "Units"),
        ],
        "Year (at its end; the dashed line: now)",
        Some(course),
        &who,
        Some(u32::from(year)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orders::Seat;
    use orbis_engine::rules::classic::BotLevel;
    use orbis_engine::rules::orders::OrdersOptions;

    #[test]
    fn a_computer_orders_game_replays_phase_by_phase_to_its_final_hash() {
        let g = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
        let start = Game::Orders(g.clone()).to_save();
        let mut s = OrdersSession::new(g.clone(), vec![Seat::Computer(BotLevel::Easy); 7]);
        s.history = Some(History::from_start(start));
        for _ in 0..10 {
            s.update(OMsg::Continue);
        }
        let h = s.history.clone().unwrap();
        assert!(h.count > 10, "the phases were recorded ({})", h.count);
        let mut r = OrdersReplay::new(&h, &s).unwrap();
        assert!(r.len() >= 5, "{} phases", r.len());
        assert_eq!(r.hash(), hash(&g));
        r.update(RMsg::Goto(1));
        assert_eq!(r.shown.last.as_ref().unwrap().title, "Spring 1901 movement");
        r.update(RMsg::Goto(usize::MAX));
        assert_eq!(r.hash(), hash(&s.game));
        r.update(RMsg::Goto(0));
        assert_eq!(r.hash(), hash(&g));
        // A save with its history round-trips through the file.
        let file = crate::savefile::to_replay_file(&Game::Orders(s.game.clone()).to_save(), &h);
        let (_, back) = crate::savefile::split_replay_file(&file).unwrap();
        assert_eq!(back, h);
    }
}
