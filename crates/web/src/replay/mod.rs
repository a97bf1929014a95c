//! The replay of a game (issue 31), a screen of its own on the full page. A classic game (this
//! module) steps action by action; an orders game (`orders`) phase by phase; an economy game
//! (`economy`) phase by phase and battle by battle. The start state
//! and the recorded actions (`savefile::History`) are run through the engine's `apply` again, and
//! the player steps through them action by action, forward and back, with the board and the log
//! in sync. The board is the play screen's widget, shown read-only: only pan and zoom reach it.
//!
//! Stepping back starts again from the nearest checkpoint (a state kept every `EVERY` actions),
//! so no step replays more than `EVERY` actions.

use crate::classic::board::{board, DragRef};
use crate::classic::play::{Classic, Msg as CMsg, Roll, View};
use crate::savefile::{self, History};
use orbis_engine::classic::{Action, ClassicState, Phase};
use orbis_engine::view;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

pub mod economy;
pub mod orders;
#[cfg(feature = "online")]
pub mod transcript;

/// What every replay does: steps after the start, the one on screen and its state hash, and
/// the screen's step messages; each replay adds its board's messages (pan, zoom, hover).
pub trait Steps {
    /// Number of steps after the start.
    fn len(&self) -> usize;
    /// The step on screen.
    fn step(&self) -> usize;
    /// The state hash on screen.
    fn hash(&self) -> &str;
    /// Shows the state after `n` steps (clamped).
    fn goto(&mut self, n: usize);
    /// A message of the board on screen (only pan, zoom and the like reach a replay's board).
    fn board(&mut self, m: RMsg);
    /// Handles one message of the replay screen.
    fn update(&mut self, m: RMsg) {
        match m {
            RMsg::Goto(n) => self.goto(n),
            RMsg::Step(true) => self.goto(self.step() + 1),
            RMsg::Step(false) => self.goto(self.step().saturating_sub(1)),
            m => self.board(m),
        }
    }
}

/// The replay on screen, of any ruleset.
#[allow(clippy::large_enum_variant)] // one at a time, while the replay is open
#[derive(Clone, PartialEq)]
pub enum Viewer {
    Classic(Replay),
    Orders(orders::OrdersReplay),
    Economy(economy::EconomyReplay),
    /// An online game's transcript (online page only).
    #[cfg(feature = "online")]
    Transcript(transcript::TranscriptReplay),
}

impl Viewer {
    /// The replay behind it.
    fn steps(&self) -> &dyn Steps {
        match self {
            Viewer::Classic(r) => r,
            Viewer::Orders(r) => r,
            Viewer::Economy(r) => r,
            #[cfg(feature = "online")]
            Viewer::Transcript(r) => r,
        }
    }

    fn steps_mut(&mut self) -> &mut dyn Steps {
        match self {
            Viewer::Classic(r) => r,
            Viewer::Orders(r) => r,
            Viewer::Economy(r) => r,
            #[cfg(feature = "online")]
            Viewer::Transcript(r) => r,
        }
    }

    /// Number of steps (actions, phases or positions).
    pub fn len(&self) -> usize {
        self.steps().len()
    }

    /// The state hash on screen.
    pub fn hash(&self) -> &str {
        self.steps().hash()
    }

    /// Handles one message of the replay screen.
    pub fn update(&mut self, m: RMsg) {
        self.steps_mut().update(m)
    }

    /// The replay screen. `back`: leaves it; `send`: its messages.
    pub fn screen(
        &self,
        send: Callback<RMsg>,
        back: Callback<MouseEvent>,
        drag: Rc<DragRef>,
    ) -> Html {
        match self {
            Viewer::Classic(r) => screen(r, send, back, drag),
            Viewer::Orders(r) => orders::screen(r, send, back),
            Viewer::Economy(r) => economy::screen(r, send, back),
            #[cfg(feature = "online")]
            Viewer::Transcript(r) => transcript::screen(r, send, back, drag),
        }
    }
}

/// A checkpoint every this many actions.
const EVERY: usize = 64;

/// Log lines shown before the current action's (and after it).
const CONTEXT: usize = 5;

/// What the replay computed once: never changes while it is open.
struct Data {
    actions: Vec<Action>,
    /// `checkpoints[i]`: the state before action `i * EVERY`.
    checkpoints: Vec<ClassicState>,
    /// Every action's log lines, in order.
    lines: Vec<String>,
    /// `lines[first[i]..first[i + 1]]` are action `i`'s lines (`actions.len() + 1` entries).
    first: Vec<usize>,
    /// The whole game's course, for the charts.
    course: orbis_engine::course::Course,
}

/// Messages of the replay screen.
#[derive(Clone)]
pub enum RMsg {
    /// Show the state after this many actions.
    Goto(usize),
    /// One action forward (`true`) or back.
    Step(bool),
    /// A message of the board widget (only pan and zoom are taken).
    Board(CMsg),
    /// A message of the orders board (only pan, zoom and the map style are taken).
    Orders(crate::orders::OMsg),
    /// A message of the economy board (only zoom is taken).
    Economy(crate::economy::EMsg),
}

/// An open replay: the recorded game and the step on screen.
#[derive(Clone)]
pub struct Replay {
    data: Rc<Data>,
    /// Actions applied to the start state for the board on screen.
    pub step: usize,
    /// The state on screen, as the board widget reads it.
    pub shown: Classic,
}

impl PartialEq for Replay {
    fn eq(&self, o: &Replay) -> bool {
        Rc::ptr_eq(&self.data, &o.data) && self.step == o.step && self.shown == o.shown
    }
}

impl Replay {
    /// Replays `h` from its start state; `Err` says why this game cannot be replayed (the
    /// history is damaged, or does not lead to `end`, the saved game).
    pub fn new(h: &History, end: &ClassicState) -> Result<Replay, String> {
        let damaged = |e: String| format!("Its history is damaged ({e}).");
        let start = match savefile::from_save(&h.start) {
            Ok(Some(s)) => s,
            Ok(None) => return Err(damaged("the start is of another format".into())),
            Err(e) => return Err(damaged(e.to_string())),
        };
        let actions = h.decode_actions().map_err(damaged)?;
        let mut s = start.clone();
        let (mut checkpoints, mut lines, mut first) = (vec![], vec![], vec![]);
        for (i, a) in actions.iter().enumerate() {
            if i % EVERY == 0 {
                checkpoints.push(s.clone());
            }
            first.push(lines.len());
            let events = s
                .apply(a)
                .map_err(|e| damaged(format!("action {} is refused: {e}", i + 1)))?;
            lines.extend(events.iter().map(|e| view::describe(e, &s)));
        }
        first.push(lines.len());
        if savefile::state_hash(&s) != savefile::state_hash(end) {
            return Err("Its history does not lead to the saved game.".into());
        }
        if checkpoints.is_empty() {
            checkpoints.push(s);
        }
        let course = orbis_engine::course::replay(start, &actions);
        let mut r = Replay {
            data: Rc::new(Data {
                actions,
                checkpoints,
                lines,
                first,
                course,
            }),
            step: 0,
            shown: Classic::new(),
        };
        r.goto(0);
        Ok(r)
    }
}

impl Steps for Replay {
    /// Number of actions recorded.
    fn len(&self) -> usize {
        self.data.actions.len()
    }

    fn step(&self) -> usize {
        self.step
    }

    fn hash(&self) -> &str {
        &self.shown.hash
    }

    /// Shows the state after `n` actions (clamped to the game).
    fn goto(&mut self, n: usize) {
        let n = n.min(self.len());
        let c = (n / EVERY).min(self.data.checkpoints.len() - 1);
        let mut s = self.data.checkpoints[c].clone();
        for a in &self.data.actions[c * EVERY..n] {
            // Every action was applied once already when the replay opened.
            let _ = s.apply(a);
        }
        self.step = n;
        // The last action's battle marked on the board, as the play screen marks the last roll.
        self.shown.roll = match n.checked_sub(1).map(|i| &self.data.actions[i]) {
            Some(Action::Attack { from, to, .. } | Action::Blitz { from, to, .. }) => Some(Roll {
                from: *from,
                to: *to,
                attack: vec![],
                defence: vec![],
                rolls: 0,
                step: s.step,
                lost: [0, 0],
            }),
            _ => None,
        };
        self.shown.hash = savefile::state_hash(&s);
        self.shown.game = Some(s);
    }

    fn board(&mut self, m: RMsg) {
        match m {
            RMsg::Board(CMsg::SetView(v)) => self.shown.ui.view = v,
            RMsg::Board(CMsg::ZoomAt(f, x, y)) => {
                self.shown.ui.view = crate::widgets::zoom(self.shown.ui.view, f, x, y)
            }
            RMsg::Board(CMsg::Hover(t)) => self.shown.ui.hover = t,
            _ => {}
        }
    }
}

/// The replay screen. `back`: leaves it; `send`: its messages.
pub fn screen(
    r: &Replay,
    send: Callback<RMsg>,
    back: Callback<MouseEvent>,
    drag: Rc<DragRef>,
) -> Html {
    let Some(s) = r.shown.game.as_ref() else {
        return html! {};
    };
    let d = &r.data;
    let (n, m) = (r.step, r.len());
    let board_send = {
        let send = send.clone();
        Callback::from(move |c: CMsg| send.emit(RMsg::Board(c)))
    };
    let who = &s.players[s.current as usize].name;
    let status = match s.phase {
        Phase::GameOver { winner } => format!("{} has won.", s.players[winner as usize].name),
        Phase::Claim => format!("{who} claims a territory."),
        Phase::SetupPlace => format!("{who} places an army."),
        Phase::Reinforce { armies } => {
            format!("Turn {}: {who} reinforces ({armies} to place).", s.turn)
        }
        Phase::Attack => format!("Turn {}: {who} attacks.", s.turn),
        Phase::Occupy { .. } => format!("Turn {}: {who} moves in.", s.turn),
        Phase::Fortify => format!("Turn {}: {who} fortifies.", s.turn),
    };
    // The current action's lines, with a few before and the next ones after (dimmed).
    let (cur_a, cur_b) = if n == 0 {
        (0, 0)
    } else {
        (d.first[n - 1], d.first[n])
    };
    let from = cur_a.saturating_sub(CONTEXT);
    let to = (cur_b + CONTEXT).min(d.lines.len());
    let log = (from..to).map(|i| {
        let class = if (cur_a..cur_b).contains(&i) {
            "cur"
        } else if i >= cur_b {
            "next"
        } else {
            ""
        };
        html! { <li class={class}>{d.lines[i].clone()}</li> }
    });
    html! {
        <>
            { crate::keynav::skip_link(crate::keynav::CONTROLS) }
            <header class="bar">
                <button class="btn small" id="replay-close" onclick={back}>{"✕ Close replay"}</button>
                <h1 class="title">{"Replay"}</h1>
                <span class="turn" id="replay-step">{format!("Action {n} of {m}")}</span>
            </header>
            <main class="play replay" id="replay" data-step={n.to_string()} data-steps={m.to_string()}
                data-hash={r.hash().to_string()}>
                { board(&View { st: &r.shown, send: board_send }, drag) }
                <aside class="side">
                    <section class="prompt" id={crate::keynav::CONTROLS} tabindex="-1">
                        <p id="replay-status" aria-live="polite">{status}</p>
                        { nav(n, m, "action", &send) }
                    </section>
                    <section class="tabs" tabindex="0" aria-label="Log">
                        <ul class="log replay-log" id="replay-log">{ for log }</ul>
                    </section>
                    { classic_charts(s, &d.course) }
                </aside>
            </main>
        </>
    }
}

/// A classic game's charts from its course (this replay's and a transcript's); the dashed line
/// at `s`'s turn.
fn classic_charts(s: &ClassicState, course: &orbis_engine::course::Course) -> Html {
    crate::widgets::chart::charts(
        "replay-charts",
        &[
            ("Territories held", "Territories"),
            ("Armies on the board", "Armies"),
            (
                "Income: armies a turn would bring (without cards)",
                "Armies a turn",
            ),
        ],
        "Turn (0: after the setup; the dashed line: now)",
        Some(course),
        &players(s),
        Some(s.turn),
    )
}

/// The players of a classic game, as the charts name and draw them.
fn players(s: &ClassicState) -> Vec<crate::widgets::chart::Who> {
    let who = s.players.iter().enumerate();
    who.map(|(i, p)| crate::widgets::chart::Who {
        seat: i,
        name: p.name.clone(),
        colour: crate::widgets::colour_css(p.colour),
    })
    .collect()
}

/// The step controls every replay shows: to the start, back, forward, to the end, a scrubber
/// and the keys' hint; `unit` names a step ("action", "phase", "step").
pub(crate) fn nav(n: usize, m: usize, unit: &str, send: &Callback<RMsg>) -> Html {
    let go = |to: usize| {
        let send = send.clone();
        Callback::from(move |_: MouseEvent| send.emit(RMsg::Goto(to)))
    };
    let scrub = {
        let send = send.clone();
        Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<HtmlInputElement>().value();
            send.emit(RMsg::Goto(v.parse().unwrap_or(0)));
        })
    };
    html! {
        <>
            <div class="row replay-nav" role="group" aria-label="Step through the game">
                <button class="btn small" id="replay-start" disabled={n == 0} onclick={go(0)} aria-label="To start">{"« Start"}</button>
                <button class="btn small" id="replay-back" disabled={n == 0} onclick={go(n.saturating_sub(1))} aria-label={format!("Back one {unit}")}>{"◀ Back"}</button>
                <button class="btn small primary" id="replay-next" disabled={n == m} onclick={go(n + 1)} aria-label={format!("Next: forward one {unit}")}>{"Next ▶"}</button>
                <button class="btn small" id="replay-end" disabled={n == m} onclick={go(m)} aria-label="To end">{"End »"}</button>
            </div>
            <input type="range" id="replay-scrub" aria-label={crate::widgets::cap(unit)} min="0" max={m.to_string()}
                value={n.to_string()} oninput={scrub} />
            <p class="hint keys-hint">{"Keys: ← and → step, Home and End jump."}</p>
        </>
    }
}

/// The replay message for a key, if it is one of the replay's (`len`: the number of steps).
pub fn key_msg(key: &str, len: usize) -> Option<RMsg> {
    match key {
        "ArrowRight" => Some(RMsg::Step(true)),
        "ArrowLeft" => Some(RMsg::Step(false)),
        "Home" => Some(RMsg::Goto(0)),
        "End" => Some(RMsg::Goto(len)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use orbis_engine::classic::{BotLevel, ClassicOptions, Colour, SeatConfig, SeatKind};

    #[test]
    fn a_bot_game_replayed_from_the_start_reaches_its_final_hash() {
        let seats = [Colour::Red, Colour::Blue, Colour::Green]
            .iter()
            .map(|&c| SeatConfig {
                name: c.name().into(),
                colour: c,
                kind: SeatKind::Bot(BotLevel::Normal),
            })
            .collect();
        let mut s = ClassicState::new(seats, ClassicOptions::default(), [5; 32]).unwrap();
        let mut h = History::new(&s);
        while !matches!(s.phase, Phase::GameOver { .. }) {
            let a = orbis_engine::bot::choose(&s, BotLevel::Normal).unwrap();
            s.apply(&a).unwrap();
            assert!(h.push(&a));
        }
        let file = savefile::to_replay_file(&savefile::to_save(&s), &h);
        println!(
            "finished bot game, {} actions: save {} B, save with history {} B",
            h.count,
            savefile::to_save(&s).len(),
            file.len()
        );
        let mut r = Replay::new(&h, &s).unwrap();
        let start = savefile::from_save(&h.start).unwrap().unwrap();
        assert_eq!(r.hash(), savefile::state_hash(&start));
        r.update(RMsg::Goto(usize::MAX));
        assert_eq!(r.step, h.count as usize);
        assert_eq!(r.hash(), savefile::state_hash(&s));
        // Back one, from a checkpoint, then forward again.
        r.update(RMsg::Step(false));
        let back = r.hash().to_string();
        r.update(RMsg::Step(true));
        assert_eq!(r.hash(), savefile::state_hash(&s));
        r.goto(r.len() - 1);
        assert_eq!(r.hash(), back);
        r.update(RMsg::Goto(0));
        assert_eq!(r.hash(), savefile::state_hash(&start));
        // A history that leads elsewhere is refused with a reason.
        let other = savefile::from_save(&h.start).unwrap().unwrap();
        assert!(Replay::new(&h, &other).is_err());
    }
}
