//! The replay of an economy game, phase by phase and battle by battle: the start state and the
//! recorded actions run through the engine's `apply` again (the game's own random stream, which
//! the save carries, gives the same dice), a state kept at the end of every phase of every round
//! and after every battle; each step shows the board as the play screen draws it, the standings
//! and the log lines of that step, read-only.

use crate::economy::{board, panel, text, EMsg, EconomySession, View};
use crate::replay::{RMsg, Steps};
use crate::savefile::History;
use crate::widgets::Speed;
use orbis_engine::codec;
use orbis_engine::rules::economy::action::{EconomyAction, EconomyEvent};
use orbis_engine::rules::economy::phase::Phase;
use orbis_engine::rules::economy::state::EconomyState;
use orbis_engine::rules::Game;
use std::rc::Rc;
use yew::prelude::*;

/// One step: the state at its end, its title and its log lines.
type Step = (EconomyState, String, Vec<String>);

/// An open replay of an economy game.
#[derive(Clone)]
pub struct EconomyReplay {
    steps: Rc<Vec<Step>>,
    /// The step on screen.
    pub step: usize,
    /// The session the board widget reads (nobody to act: no seat is at this device).
    pub shown: EconomySession,
    hash: String,
    /// The whole game's course, for the charts.
    course: Rc<orbis_engine::course::Course>,
}

impl PartialEq for EconomyReplay {
    fn eq(&self, o: &EconomyReplay) -> bool {
        Rc::ptr_eq(&self.steps, &o.steps) && self.step == o.step && self.shown == o.shown
    }
}

fn hash(s: &EconomyState) -> String {
    Game::Economy(s.clone()).state_hash().to_hex()
}

/// What a step that ended in state `s` is called.
fn title(s: &EconomyState, battle: Option<&str>) -> String {
    match (s.phase, battle) {
        (_, Some(b)) => format!("Round {}: {b}", s.round),
        (Phase::Pick(_) | Phase::Place, _) => "The setup".into(),
        (Phase::Over, _) => "The end".into(),
        (p, _) => format!("Round {}: {}", s.round, p),
    }
}

impl EconomyReplay {
    /// Replays `h` from its start; `Err` says why the game `end` cannot be replayed.
    pub fn new(h: &History, end: &EconomyState) -> Result<EconomyReplay, String> {
        let damaged = |e: String| format!("Its history is damaged ({e}).");
        let mut s = match Game::from_save(&h.start) {
            Ok(Game::Economy(s)) => s,
            Ok(_) => return Err(damaged("the start is of another ruleset".into())),
            Err(e) => return Err(damaged(e.to_string())),
        };
        let actions: Vec<EconomyAction> =
            codec::decode(&h.as_vec()).map_err(|e| damaged(e.to_string()))?;
        let mut steps: Vec<Step> = vec![(s.clone(), "The start".into(), vec![])];
        let mut lines = vec![];
        for (i, a) in actions.iter().enumerate() {
            let before = (s.round, s.phase);
            let events = s
                .apply(a)
                .map_err(|e| damaged(format!("action {} is refused: {e}", i + 1)))?;
            lines.extend(events.iter().filter_map(|e| text::event(&s, e)));
            let battle = events.iter().find_map(|e| match e {
                EconomyEvent::BattleClosed { site, .. } => {
                    Some(format!("the battle at {}", text::site(*site)))
                }
                _ => None,
            });
            // The setup's picks are one step; after it, every phase of every round, and every
            // battle of a combat phase.
            let moved = (s.round, s.phase) != before
                && !matches!(
                    (before.1, s.phase),
                    (Phase::Pick(_), Phase::Pick(_) | Phase::Place)
                );
            if moved || battle.is_some() {
                let t = if battle.is_some() {
                    title(&s, battle.as_deref())
                } else {
                    match before.1 {
                        Phase::Pick(_) | Phase::Place => "The setup".to_string(),
                        p => format!("Round {}: {}", before.0, p),
                    }
                };
                steps.push((s.clone(), t, std::mem::take(&mut lines)));
            }
        }
        if !lines.is_empty() {
            let t = title(&s, None);
            steps.push((s.clone(), t, lines));
        }
        if hash(&s) != hash(end) {
            return Err("Its history does not lead to the saved game.".into());
        }
        let course = orbis_engine::course::replay(steps[0].0.clone(), &actions);
        let mut r = EconomyReplay {
            course: Rc::new(course),
            steps: Rc::new(steps),
            step: 0,
            shown: EconomySession::new(s, vec![crate::economy::Seat::Remote; 6]),
            hash: String::new(),
        };
        r.goto(0);
        Ok(r)
    }
}

impl Steps for EconomyReplay {
    fn len(&self) -> usize {
        self.steps.len() - 1
    }

    fn step(&self) -> usize {
        self.step
    }

    fn hash(&self) -> &str {
        &self.hash
    }

    fn goto(&mut self, n: usize) {
        let n = n.min(self.len());
        let (s, _, lines) = &self.steps[n];
        self.step = n;
        self.shown.game = s.clone();
        self.shown.ui.log = lines.iter().rev().cloned().collect();
        self.shown.ui.sel = None;
        self.shown.ui.to = None;
        self.hash = hash(s);
    }

    /// Of the board, only zoom.
    fn board(&mut self, m: RMsg) {
        if let RMsg::Economy(EMsg::Zoom(f)) = m {
            self.shown.update(EMsg::Zoom(f));
        }
    }
}

/// The economy replay screen: the step's title, the board, the standings and the step's lines.
pub fn screen(r: &EconomyReplay, send: Callback<RMsg>, back: Callback<MouseEvent>) -> Html {
    let (n, m) = (r.step, r.len());
    let (_, title, lines) = &r.steps[n];
    let view = View {
        eco: Some(&r.shown),
        send: {
            let send = send.clone();
            Callback::from(move |e: EMsg| send.emit(RMsg::Economy(e)))
        },
        speed: Speed::Normal,
        on_speed: Callback::noop(),
    };
    let next = match r.steps.get(n + 1) {
        Some((_, t, _)) => format!("Next: {t}."),
        None => "The last step recorded.".to_string(),
    };
    html! {
        <>
            { crate::keynav::skip_link(crate::keynav::CONTROLS) }
            <header class="bar">
                <button class="btn small" id="replay-close" onclick={back}>{"✕ Close replay"}</button>
                <h1 class="title">{"Replay"}</h1>
                <span class="turn" id="replay-step">{format!("Step {n} of {m}")}</span>
            </header>
            <main class="play economy-play replay" id="replay" data-step={n.to_string()} data-steps={m.to_string()}
                data-hash={r.hash().to_string()}>
                <div class="layout">
                    <section class="map-wrap">{ board::board(&view) }</section>
                    <aside class="side">
                        <section class="panel prompt" id={crate::keynav::CONTROLS} tabindex="-1">
                            <p id="replay-status" aria-live="polite"><strong>{title.clone()}</strong>{" "}{next}</p>
                            { crate::replay::nav(n, m, "step", &send) }
                        </section>
                        { panel::standings_table(&r.shown) }
                        { charts(r) }
                        <details class="log" open=true>
                            <summary>{"What happened"}</summary>
                            <ol id="replay-log">{ for lines.iter().map(|l| html! { <li>{l.clone()}</li> }) }</ol>
                        </details>
                    </aside>
                </div>
            </main>
        </>
    }
}

/// Countries, units and income per player over the whole game; the dashed line: the round
/// shown.
fn charts(r: &EconomyReplay) -> Html {
    course_charts(&r.shown.game, &r.course)
}

/// An economy game's charts from its course (this replay's and a transcript's); the dashed line
/// at `g`'s round.
pub(super) fn course_charts(g: &EconomyState, course: &orbis_engine::course::Course) -> Html {
    use crate::widgets::chart;
    let who: Vec<chart::Who> = (0..g.players.len())
        .map(|p| chart::Who {
            seat: p,
            name: g.players[p].name.clone(),
            colour: crate::economy::colour(p as u8),
        })
        .collect();
    chart::charts(
        "replay-charts",
        &[
            ("Countries held", "Countries"),
            ("Units in play", "Units"),
            ("Income a round, before upkeep", "MU a round"),
        ],
        "Round (0: the setup; the dashed line: now)",
        Some(course),
        &who,
        Some(g.round),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::economy::Seat;
    use orbis_engine::rules::classic::BotLevel;
    use orbis_engine::rules::economy::options::EconomyOptions;

    #[test]
    fn a_computer_economy_game_replays_step_by_step_to_its_final_hash() {
        let (g, _) =
            EconomyState::new(&["Ann", "Bob", "Cleo"], EconomyOptions::default(), [3; 32]).unwrap();
        let mut s = EconomySession::new(g.clone(), vec![Seat::Computer(BotLevel::Normal); 3]);
        s.history = Some(History::from_start(Game::Economy(g.clone()).to_save()));
        while s.game.round <= 2 && s.game.phase != Phase::Over {
            assert!(s.update(EMsg::BotStep));
        }
        let h = s.history.clone().unwrap();
        let mut r = EconomyReplay::new(&h, &s.game).unwrap();
        assert!(r.len() >= 6, "{} steps", r.len());
        assert_eq!(r.hash(), hash(&g));
        r.update(RMsg::Step(true));
        assert_eq!(r.steps[1].1, "The setup");
        assert!(
            !r.steps[1].2.is_empty(),
            "the picks are in the step's lines"
        );
        r.update(RMsg::Goto(usize::MAX));
        assert_eq!(r.hash(), hash(&s.game));
        r.update(RMsg::Goto(0));
        assert_eq!(r.hash(), hash(&g));
        // A history that does not lead to the save is refused with a reason.
        let other = EconomyState::new(&["X", "Y"], EconomyOptions::default(), [4; 32])
            .unwrap()
            .0;
        assert!(EconomyReplay::new(&h, &other)
            .err()
            .is_some_and(|e| e.contains("does not lead")));
        // The save with its history round-trips through the file, and loads as an economy game.
        let save = Game::Economy(s.game.clone()).to_save();
        let file = crate::savefile::to_replay_file(&save, &h);
        let (_, back) = crate::savefile::split_replay_file(&file).unwrap();
        assert_eq!(back, h);
    }
}
