//! The replay of an online game from its transcript (the file `orbis verify` checks), position by
//! position: the protocol replays the signed messages as a peer that plays no part
//! (`orbis_protocol::peer::replay`), keeping the state after every log position, and says
//! whether the file checks out — or why the game stopped and whom that names. Each position is
//! drawn with its ruleset's board, read-only. Online page only (it needs the protocol).
//!
//! A classic game's hands are listed beside the board. Dealt face down, they are turned face up
//! once every participant's deal key is in the file (published at the end, or rebuilt from a
//! leaver's escrow pieces): until then the viewer sees what the table saw.

use crate::classic::board::DragRef;
use crate::classic::play::{Classic, Msg as CMsg, View as CView};
use crate::economy::{EMsg, EconomySession, Seat, View as EView};
use crate::orders::{OrdersSession, Stage, View as OView};
use crate::replay::{RMsg, Steps};
use crate::widgets::Speed;
use orbis_engine::classic::{ClassicState, Slot};
use orbis_engine::codec::StateHash;
use orbis_engine::rules::economy::state::EconomyState;
use orbis_engine::rules::Game;
use orbis_engine::view;
use orbis_protocol::peer::{game_hash, replay, Checked, Replayed, VerifyError};
use std::collections::BTreeMap;
use std::rc::Rc;
use yew::prelude::*;

/// An open replay of a transcript.
#[derive(Clone)]
pub struct TranscriptReplay {
    states: Rc<Vec<Game>>,
    /// A face-down deal's cards, by dealt position, once every key is known (else empty).
    cards: Rc<BTreeMap<Slot, u16>>,
    /// A face-down deal: its keys in the file, of how many.
    keys: Option<(usize, usize)>,
    /// The file's verdict in words.
    pub verdict: String,
    /// Whether the file checks out.
    pub sound: bool,
    /// The position on screen.
    pub step: usize,
    classic: Classic,
    orders: Option<OrdersSession>,
    economy: Option<EconomySession>,
    hash: String,
    /// The whole game's course, for the charts (sampled from the positions: the dice were the
    /// table's, so the actions alone would not replay it).
    course: Rc<orbis_engine::course::Course>,
}

impl PartialEq for TranscriptReplay {
    fn eq(&self, o: &TranscriptReplay) -> bool {
        Rc::ptr_eq(&self.states, &o.states)
            && self.step == o.step
            && self.classic == o.classic
            && self.orders == o.orders
            && self.economy == o.economy
    }
}

/// The verdict of `orbis verify` on the file, as the replay screen says it: how a finished game
/// ended, or where a halted one stopped and whom it names.
fn verdict(v: &Checked) -> (bool, String) {
    match &v.verdict {
        Ok(r) => (
            true,
            format!(
                "Every signature and move checks out: {} positions, the last state signed by {} of {} players.{}",
                r.positions,
                r.agreed_by.len(),
                r.participants.len(),
                r.outcome.as_ref().map_or(String::new(), |o| format!(" {o}."))
            ),
        ),
        Err(VerifyError::Cheat { .. }) => (
            false,
            format!("The game stopped here: {}.", v.rejection().unwrap_or_default()),
        ),
        Err(VerifyError::Message { .. }) => (
            false,
            format!(
                "The file does not check out from its {}.",
                v.rejection().unwrap_or_default()
            ),
        ),
        Err(e) => (false, format!("The file does not check out: {e:?}.")),
    }
}

impl TranscriptReplay {
    /// Replays a transcript file; `Err` says why it cannot be opened at all.
    pub fn new(bytes: &[u8]) -> Result<TranscriptReplay, String> {
        let Replayed {
            states,
            verdict: v,
            stop,
            keys,
            cards,
        } = replay(bytes).map_err(|e| match e {
            VerifyError::Format(f) => format!("It is not a game transcript ({f})."),
            VerifyError::NoGame => "The transcript never starts a game.".to_string(),
            e => format!("{e:?}"),
        })?;
        let (sound, verdict) = verdict(&Checked { verdict: v, stop });
        let course = Rc::new(crate::widgets::chart::of_states(&states));
        let mut r = TranscriptReplay {
            states: Rc::new(states),
            cards: Rc::new(cards),
            keys,
            verdict,
            sound,
            step: 0,
            classic: Classic::new(),
            orders: None,
            economy: None,
            hash: String::new(),
            course,
        };
        r.goto(0);
        Ok(r)
    }
}

impl Steps for TranscriptReplay {
    /// Number of positions after the start.
    fn len(&self) -> usize {
        self.states.len() - 1
    }

    fn step(&self) -> usize {
        self.step
    }

    fn hash(&self) -> &str {
        &self.hash
    }

    /// Shows the state after `n` positions (clamped).
    fn goto(&mut self, n: usize) {
        let n = n.min(self.len());
        self.step = n;
        let g = &self.states[n];
        self.hash = StateHash(game_hash(g)).to_hex();
        match g {
            Game::Classic(s) => {
                self.classic.game = Some(face_up(s, &self.cards));
                self.classic.hash = self.hash.clone();
            }
            Game::Orders(s) => match self.orders.as_mut() {
                Some(o) => o.game = s.clone(),
                None => {
                    let mut o = OrdersSession::new(s.clone(), vec![]);
                    o.stage = Stage::Results;
                    self.orders = Some(o);
                }
            },
            Game::Economy(s) => {
                let s = economy_face_up(s, &self.cards);
                match self.economy.as_mut() {
                    Some(e) => e.game = s,
                    None => self.economy = Some(EconomySession::new(s, vec![Seat::Remote; 6])),
                }
            }
        }
    }

    /// Of the boards, only pan and zoom.
    fn board(&mut self, m: RMsg) {
        match m {
            RMsg::Board(CMsg::SetView(v)) => self.classic.ui.view = v,
            RMsg::Board(CMsg::ZoomAt(f, x, y)) => {
                self.classic.ui.view = crate::widgets::zoom(self.classic.ui.view, f, x, y)
            }
            RMsg::Orders(crate::orders::OMsg::View(v)) => {
                if let Some(o) = self.orders.as_mut() {
                    o.view = v;
                }
            }
            RMsg::Orders(crate::orders::OMsg::ZoomAt(f, x, y)) => {
                if let Some(o) = self.orders.as_mut() {
                    o.zoom_at(f, x, y);
                }
            }
            RMsg::Economy(EMsg::Zoom(f)) => {
                if let Some(e) = self.economy.as_mut() {
                    e.update(EMsg::Zoom(f));
                }
            }
            _ => {}
        }
    }
}

/// The game's course per player, each ruleset's measures (the replays' own charts); the dashed
/// line: the position shown.
fn charts(r: &TranscriptReplay, g: &Game) -> Html {
    match g {
        Game::Classic(s) => super::classic_charts(s, &r.course),
        Game::Orders(s) => super::orders::course_charts(s.map(), &r.course, s.year),
        Game::Economy(s) => super::economy::course_charts(s, &r.course),
    }
}

/// `s` with every face-down card and mission turned face up from the opened deal (a copy for
/// the screen: the hash shown is the state's own).
fn face_up(s: &ClassicState, cards: &BTreeMap<Slot, u16>) -> ClassicState {
    let mut up = s.clone();
    for (p, pl) in s.players.iter().enumerate() {
        for slot in pl.sealed.iter().chain(&pl.sealed_mission) {
            if let Some(&card) = cards.get(slot) {
                if let Ok(card) = u8::try_from(card) {
                    up.peek(p as u8, *slot, card);
                }
            }
        }
    }
    up
}

/// An economy state with every face-down influence card turned face up from the opened deal (the
/// standings and each player's cards then show them).
fn economy_face_up(s: &EconomyState, cards: &BTreeMap<Slot, u16>) -> EconomyState {
    let mut up = s.clone();
    for (p, pl) in s.players.iter().enumerate() {
        for slot in &pl.sealed {
            if let Some(Ok(card)) = cards.get(slot).map(|&c| u8::try_from(c)) {
                up.peek(p as u8, *slot, card);
            }
        }
    }
    up
}

/// Every player's cards and mission at the position on screen, with a line on whether a
/// face-down deal could be opened.
fn hands(r: &TranscriptReplay, s: &ClassicState) -> Html {
    let note = match r.keys {
        Some((k, n)) if k == n => {
            "Dealt face down: every player's key was published at the end, so every card is shown here.".to_string()
        }
        Some((k, n)) => format!(
            "Dealt face down: {k} of {n} players' keys are in this file, so the cards nobody showed stay face down."
        ),
        None => "Dealt face up: every hand is as the table saw it.".to_string(),
    };
    html! {
        <section class="hands" id="replay-hands" aria-label="Every player's cards">
            <h3>{"Cards"}</h3>
            <p class="hint" id="replay-deal">{ note }</p>
            <ul>{ for s.players.iter().map(|pl| {
                let hidden = pl.sealed.len();
                let mission = match (&pl.mission, pl.sealed_mission) {
                    (Some(m), _) => format!(" · mission: {}", view::mission_text(s, m)),
                    (None, Some(_)) => " · mission face down".to_string(),
                    (None, None) => String::new(),
                };
                html! {
                    <li data-player={pl.name.clone()}>
                        <b>{ format!("{}: ", pl.name) }</b>
                        if pl.hand.is_empty() && hidden == 0 { {"no cards"} }
                        { for pl.hand.iter().map(|&c| html! {
                            <span class={classes!("card", "mini", view::symbol_name(s.card_symbol(c)))}>{ view::card_text(s, c) }</span>
                        }) }
                        if hidden > 0 { <span class="card mini down">{ format!("{hidden} face down") }</span> }
                        { mission }
                    </li>
                }
            }) }</ul>
        </section>
    }
}

/// The transcript replay screen: the position, the file's verdict, the board and the controls.
pub fn screen(
    r: &TranscriptReplay,
    send: Callback<RMsg>,
    back: Callback<MouseEvent>,
    drag: Rc<DragRef>,
) -> Html {
    let (n, m) = (r.step, r.len());
    let board = match &r.states[n] {
        Game::Classic(_) => {
            let send = send.clone();
            let view = CView {
                st: &r.classic,
                send: Callback::from(move |c: CMsg| send.emit(RMsg::Board(c))),
            };
            crate::classic::board::board(&view, drag)
        }
        Game::Orders(_) => r.orders.as_ref().map_or(html! {}, |o| {
            let send = send.clone();
            let view = OView {
                orders: Some(o),
                send: Callback::from(move |x| send.emit(RMsg::Orders(x))),
            };
            html! { <div class="map-wrap">{ crate::orders::view::board(&view, o) }</div> }
        }),
        Game::Economy(_) => r.economy.as_ref().map_or(html! {}, |e| {
            let send = send.clone();
            let view = EView {
                eco: Some(e),
                send: Callback::from(move |x| send.emit(RMsg::Economy(x))),
                speed: Speed::Normal,
                on_speed: Callback::noop(),
            };
            html! { <section class="map-wrap">{ crate::economy::board::board(&view) }</section> }
        }),
    };
    let over = r.states[n].is_over();
    // Where the game stands, in the words of its own screens.
    let stand = match &r.states[n] {
        Game::Classic(s) => format!(
            "Turn {}: {} to play.",
            s.turn, s.players[s.current as usize].name
        ),
        Game::Orders(s) => format!(
            "{} {}, {}.",
            crate::orders::season_word(s.season),
            s.year,
            crate::orders::phase_word(s.phase)
        ),
        Game::Economy(s) => format!("Round {}: {}.", s.round, s.phase),
    };
    let standings = r
        .economy
        .as_ref()
        .filter(|_| matches!(r.states[n], Game::Economy(_)))
        .map(crate::economy::panel::standings_table);
    let cards = match (&r.states[n], &r.classic.game) {
        (Game::Classic(_), Some(s)) => Some(hands(r, s)),
        _ => None,
    };
    html! {
        <>
            { crate::keynav::skip_link(crate::keynav::CONTROLS) }
            <header class="bar">
                <button class="btn small" id="replay-close" onclick={back}>{"✕ Close replay"}</button>
                <h1 class="title">{"Replay of an online game"}</h1>
                <span class="turn" id="replay-step">{format!("Position {n} of {m}")}</span>
            </header>
            <main class="play replay transcript-replay" id="replay" data-step={n.to_string()} data-steps={m.to_string()}
                data-hash={r.hash().to_string()} data-sound={if r.sound { "1" } else { "0" }}>
                { board }
                <aside class="side">
                    <section class="prompt" id={crate::keynav::CONTROLS} tabindex="-1">
                        <p id="replay-status" aria-live="polite">{ match (n, over) {
                            (0, _) => format!("The game as it began. {stand}"),
                            (_, true) => format!("After position {n}: the game is over."),
                            _ => format!("After position {n}. {stand}"),
                        } }</p>
                        { crate::replay::nav(n, m, "position", &send) }
                        <p class={classes!("verdict", (!r.sound).then_some("error"))} id="replay-verdict" role="status">{ r.verdict.clone() }</p>
                    </section>
                    { for standings }
                    { for cards }
                    { charts(r, &r.states[n]) }
                </aside>
            </main>
        </>
    }
}
