//! Hot-seat play of the orders ruleset (Diplomacy-style simultaneous orders).
//!
//! All rules are in `orbis_engine::rules::orders`: this module keeps UI state (who is at the
//! device, the orders being drafted, the last results), turns clicks and typed notation into
//! `Written` orders and checks every draft by asking the engine (`OrdersAction::Submit` on a
//! copy of the state), so what the panel accepts is exactly what the engine accepts.

mod entry;
mod form;
pub mod map;
mod online;
pub mod regions;
mod svg;
pub mod view;

pub use form::{OrdersForm, Seat, THINK_TIMES};
use online::submit;
#[cfg(feature = "online")]
pub use online::take_queued;
pub use online::OnlineOrders;

use crate::widgets::{clock_ms, record_bot_ms, Nav, Sender};
use orbis_engine::bot;
use orbis_engine::rules::classic::BotLevel;
use orbis_engine::rules::orders::adjudicator::{Loc, Piece, UnitType};
use orbis_engine::rules::orders::map::{OrdersMap, PowerId, ProvinceId, ProvinceKind};
use orbis_engine::rules::orders::notation::{self, Spec, Written};
use orbis_engine::rules::orders::{
    OrderResult, OrdersAction, OrdersEvent, OrdersState, Phase, Season,
};
use orbis_engine::StateHash;
use yew::Callback;

/// Colours of the powers, by index on the map (Europe: England pink, France blue, as on
/// webDiplomacy; England was a dark blue a new player could not tell from France's).
pub const POWER_COLOURS: [&str; 7] = [
    "#d6589b", "#2f86d6", "#5a5a5a", "#2e9e3e", "#d0342c", "#8a4fbf", "#e0a800",
];

pub fn power_colour(p: PowerId) -> &'static str {
    POWER_COLOURS[p as usize % POWER_COLOURS.len()]
}

/// Where the hot-seat flow stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stage {
    /// "Pass the device to …": nothing private on screen.
    Curtain(PowerId),
    /// This power is entering its orders.
    Enter(PowerId),
    /// All orders are in: the last adjudication is shown to everybody.
    Results,
}

/// What the next map click means while a unit is selected.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    Move,
    SupportPick,
    SupportTo(Loc),
    ConvoyPick,
    ConvoyTo(Loc),
    /// House option "combine": the next click names the unit to merge into.
    CombinePick,
    /// A fleet's move (or retreat) into this province, which has two coasts it can reach: the
    /// next click (a coast's circle, or a "North coast" button) says which.
    Coast(ProvinceId),
}

/// The last adjudicated phase, for the arrows and the results list.
#[derive(Clone, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
pub struct Resolved {
    pub title: String,
    pub phase: Phase,
    pub results: Vec<OrderResult>,
    pub notes: Vec<String>,
}

#[derive(Clone, PartialEq)]
pub struct OrdersSession {
    pub game: OrdersState,
    /// Per power of the map: who plays it (online: `Human` for this browser's powers only).
    pub seats: Vec<Seat>,
    pub stage: Stage,
    pub draft: Vec<Written>,
    /// The selected unit (or, in adjustments, the home centre to build in).
    pub sel: Option<Loc>,
    pub mode: Mode,
    pub text: String,
    pub error: Option<String>,
    pub last: Option<Resolved>,
    /// The part of the map on screen (zoom and pan), `None` for the whole map.
    pub view: Option<[f32; 4]>,
    /// The schematic view (provinces as nodes) instead of the region map.
    pub schematic: bool,
    /// Online (peer-to-peer): only this browser's powers are `human`; no pass-the-device screen;
    /// submitted orders go to the protocol and the phase is resolved when every peer's orders
    /// are revealed (see `online_orders`).
    pub online: Option<OnlineOrders>,
    /// The start and every action since, for a replay (`None`: an older save, or online).
    pub history: Option<crate::savefile::History>,
    /// The game came with no seats (a file imported here, or handed over by the lite page, which
    /// stores none): every power is human until a seat is set, and the panel says so.
    pub seats_unknown: bool,
    /// The seats box was opened for unknown seats: it stays open while seats are set.
    pub seats_open: bool,
    /// Hot-seat in the browser: every human has ordered and the computer powers are thinking
    /// in the worker (`computers_job`); their orders come back as `OMsg::ComputersOrdered`.
    pub thinking: bool,
    /// This power asked "What would the computer do?" and the worker is writing its orders
    /// (`suggest_job`); they come back as `OMsg::Suggested`.
    pub suggesting: Option<PowerId>,
    /// How long the `hard` computer powers think (the engine's `effort`; the setup form's
    /// "Computer thinking time"); kept with the UI state (`ui_bytes`).
    pub effort: u32,
}

/// The computer powers' job for the worker: the state, the powers with their levels, the salt,
/// `hard`'s thinking time.
pub type Job = (OrdersState, Vec<(PowerId, BotLevel)>, Vec<u8>, u32);

/// The strongest orders level the engine offers: what "What would the computer do?" shows.
pub const SUGGEST_LEVEL: BotLevel = BotLevel::Hard;

/// Messages of the orders screens.
#[derive(Clone, Debug)]
pub enum OMsg {
    Reveal,
    Click(String),
    SetMode(Mode),
    Hold,
    Disband,
    Build(UnitType, Loc),
    /// Build a fleet facing a sea (house option "fleets face a sea").
    BuildFacing(Loc, ProvinceId),
    Cancel,
    Text(String),
    Type,
    Remove(usize),
    Submit,
    Continue,
    Draw(bool),
    View(Option<[f32; 4]>),
    /// Zooms the current view by a factor about a fraction (x, y) of it (the wheel's step: applied
    /// to the view as it is when it arrives, so that steps faster than renders all count).
    ZoomAt(f32, f32, f32),
    /// Show the schematic view (`true`) or the region map.
    Schematic(bool),
    /// Hot-seat: who plays this power from now on.
    SetSeat(PowerId, Seat),
    /// Leave for another screen (the app's to handle).
    Nav(Nav),
    /// The computer powers' orders for the phase whose state hashed to this, thought in the
    /// worker, and how long they took (ms).
    ComputersOrdered(StateHash, Vec<OrdersAction>, f64),
    /// "What would the computer do?": fills in the computer's orders for the current power's
    /// units that have none in the draft yet.
    Suggest,
    /// The computer's orders for this power in the phase whose state hashed to this.
    Suggested(StateHash, PowerId, Vec<Written>),
}

/// What an orders view gets: the session to draw and where its messages go.
pub struct View<'a> {
    pub orders: Option<&'a OrdersSession>,
    pub send: Callback<OMsg>,
}

impl View<'_> {
    pub fn dispatcher(&self) -> Sender<OMsg> {
        Sender(self.send.clone())
    }
}

pub fn phase_word(p: Phase) -> &'static str {
    match p {
        Phase::Movement => "movement",
        Phase::Retreat => "retreats",
        Phase::Adjustment => "adjustments",
        Phase::GameOver { .. } => "game over",
    }
}

pub fn season_word(s: Season) -> &'static str {
    match s {
        Season::Spring => "Spring",
        Season::Fall => "Fall",
    }
}

impl OrdersSession {
    /// A game at this device; no seats (a file imported here, or handed over by the lite page)
    /// makes every power human and says so (`seats_unknown`).
    pub fn new(game: OrdersState, mut seats: Vec<Seat>) -> OrdersSession {
        let seats_unknown = seats.is_empty();
        seats.resize(game.map().powers.len(), Seat::Human);
        let mut s = OrdersSession {
            game,
            seats,
            stage: Stage::Results,
            draft: vec![],
            sel: None,
            mode: Mode::Move,
            text: String::new(),
            error: None,
            last: None,
            view: None,
            schematic: false,
            online: None,
            history: None,
            seats_unknown,
            seats_open: seats_unknown,
            thinking: false,
            suggesting: None,
            effort: 1,
        };
        match s.first_waiting() {
            Some(p) => s.hand_to(p),
            None => s.stage = Stage::Results,
        }
        s
    }

    /// Whether `p` accepts a draw: online, the vote about to be committed; hot-seat, the
    /// engine's.
    pub fn draw_vote(&self, p: PowerId) -> bool {
        let votes = self.online.as_ref().map_or(&self.game.draw, |o| &o.draw);
        votes.get(p as usize).copied().unwrap_or(false)
    }

    /// Zooms the view on screen by `f` (< 1: in) about the fraction (x, y) of it.
    pub fn zoom_at(&mut self, f: f32, x: f32, y: f32) {
        let full = map::layout(self).view;
        self.view = map::zoom(full, self.view.unwrap_or(full), f, x, y);
    }

    pub fn map(&self) -> &'static OrdersMap {
        self.game.map()
    }

    /// UI state worth keeping across a reload: the last results and whether they are on screen
    /// (bytes for `localStorage`; the game itself is in the save file).
    pub fn ui_bytes(&self) -> Vec<u8> {
        orbis_engine::codec::encode(&(&self.last, self.stage == Stage::Results, self.effort))
    }

    /// Restores what [`OrdersSession::ui_bytes`] kept; ignores anything unreadable (bytes of
    /// a page before the thinking time was kept: the quick one).
    pub fn restore_ui(&mut self, bytes: &[u8]) {
        use orbis_engine::codec::decode;
        let read = decode::<(Option<Resolved>, bool, u32)>(bytes)
            .or_else(|_| decode::<(Option<Resolved>, bool)>(bytes).map(|(l, s)| (l, s, 1)));
        if let Ok((last, showing, effort)) = read {
            self.effort = effort.clamp(1, 8);
            if showing && last.is_some() {
                self.stage = Stage::Results;
            }
            self.last = last;
        }
    }

    /// Applies an action to the game and records it in the history.
    fn act(&mut self, a: &OrdersAction) -> Result<Vec<OrdersEvent>, String> {
        let events = self.game.apply(a).map_err(|e| e.to_string())?;
        if self.history.as_mut().is_some_and(|h| !h.push(a)) {
            self.history = None; // too long to keep
        }
        Ok(events)
    }

    /// Hot-seat: `p` is played by `seat` from now on. A power handed to the computer (or to
    /// nobody) while the device waits for it gives up its unsent orders, and the game moves on
    /// as after a submission. True when the seats or the game changed (autosave).
    fn set_seat(&mut self, p: PowerId, seat: Seat) -> bool {
        let Some(x) = self.seats.get_mut(p as usize) else {
            return false;
        };
        *x = seat;
        self.seats_unknown = false;
        match self.stage {
            Stage::Curtain(q) | Stage::Enter(q) if q == p && seat != Seat::Human => {
                self.advance();
            }
            // The others handed to the computer: the one left needs no curtain.
            Stage::Curtain(q) => self.hand_to(q),
            _ => {}
        }
        true
    }

    /// Hot-seat with one human at the device (every other power a computer's or nobody's):
    /// nobody to hide the orders from.
    fn alone(&self) -> bool {
        let humans = (0..self.seats.len() as PowerId)
            .filter(|&p| self.is_human(p) && self.game.alive(p))
            .count();
        self.online.is_none() && humans <= 1
    }

    /// The device goes to `p`: behind the pass-the-device screen when several humans share it,
    /// else straight to its orders.
    fn hand_to(&mut self, p: PowerId) {
        if self.alone() {
            self.enter(p);
        } else {
            self.stage = Stage::Curtain(p);
        }
    }

    /// `p` enters its orders, from a clean draft.
    fn enter(&mut self, p: PowerId) {
        self.stage = Stage::Enter(p);
        self.suggesting = None;
        self.draft.clear();
        self.sel = None;
        self.error = None;
        // Phones: the power's part of the map, large enough to read and click.
        if crate::widgets::narrow() {
            self.view = map::focus(self, p);
        }
    }

    fn is_human(&self, p: PowerId) -> bool {
        self.seats.get(p as usize) == Some(&Seat::Human)
    }

    /// The computer powers of a hot-seat game, with their levels.
    pub fn computers(&self) -> Vec<(PowerId, BotLevel)> {
        self.seats
            .iter()
            .enumerate()
            .filter_map(|(p, s)| match s {
                Seat::Computer(l) => Some((p as PowerId, *l)),
                _ => None,
            })
            .collect()
    }

    /// The first power played here that still owes orders this phase.
    pub fn first_waiting(&self) -> Option<PowerId> {
        self.game
            .waiting_for()
            .into_iter()
            .find(|&p| self.is_human(p))
    }

    /// Moves on after a submission or after the results were read: the next human who owes
    /// orders, else the engine adjudicates. Returns true when the game state changed.
    fn advance(&mut self) -> bool {
        self.suggesting = None;
        self.draft.clear();
        self.sel = None;
        self.mode = Mode::Move;
        self.text.clear();
        self.error = None;
        if matches!(self.game.phase, Phase::GameOver { .. }) {
            self.stage = Stage::Results;
            return false;
        }
        if self.online.is_some() {
            // Our powers one after the other, then everything goes out in one commitment.
            if let Some(p) = self.first_waiting() {
                self.stage = Stage::Enter(p);
                return false;
            }
            let payload = self.online_payload();
            if let Some(o) = self.online.as_mut() {
                if !o.sent && !payload.orders.is_empty() {
                    o.sent = true;
                    submit(payload);
                }
            }
            self.stage = Stage::Results;
            return false;
        }
        if let Some(p) = self.first_waiting() {
            self.hand_to(p);
            return false;
        }
        // The computer powers order now, after every human: their random part is drawn from
        // the humans' orders (as online from the revealed orders), the rest from the board.
        let computers = self.computers();
        if !computers.is_empty() && cfg!(target_arch = "wasm32") {
            // In the browser they think in the worker, and the page answers meanwhile.
            self.stage = Stage::Results;
            self.thinking = true;
            return false;
        }
        let t0 = clock_ms();
        let actions =
            bot::orders::phase_actions_thinking(&self.game, &computers, &self.salt(), self.effort);
        if !computers.is_empty() {
            // Every computer power's orders for the phase, together: a figure for the e2e
            // harness (`window.__orbisBots["orders-phase"]`).
            record_bot_ms("orders-phase", clock_ms() - t0);
        }
        self.resolve(actions)
    }

    /// The seed of the computer powers' random part: the orders already in (the humans').
    fn salt(&self) -> Vec<u8> {
        orbis_engine::codec::encode(&self.game.orders)
    }

    /// What the worker needs to write the computer powers' orders, while they are thinking:
    /// the state's hash (to know the answer is for this very phase), the state, the computer
    /// powers and the salt.
    pub fn computers_job(&self) -> Option<(StateHash, Job)> {
        self.thinking.then(|| {
            let job = (
                self.game.clone(),
                self.computers(),
                self.salt(),
                self.effort,
            );
            (orbis_engine::codec::hash_of(&self.game), job)
        })
    }

    /// What the worker needs to write the orders "What would the computer do?" shows.
    pub fn suggest_job(&self) -> Option<(StateHash, PowerId, OrdersState, Vec<u8>)> {
        let p = self.suggesting?;
        Some((
            orbis_engine::codec::hash_of(&self.game),
            p,
            self.game.clone(),
            self.salt(),
        ))
    }

    /// The computer powers' orders are in: they are submitted, the phase adjudicated and its
    /// results shown. Returns true when the game state changed.
    fn resolve(&mut self, actions: Vec<OrdersAction>) -> bool {
        let (year, season) = (self.game.year, self.game.season);
        let mut events = vec![];
        for a in actions {
            if matches!(self.game.phase, Phase::GameOver { .. }) {
                break;
            }
            match self.act(&a) {
                Ok(ev) => events.extend(ev),
                Err(e) => self.error = Some(format!("A computer power's orders were refused: {e}")),
            }
        }
        let adjudicated = if matches!(self.game.phase, Phase::GameOver { .. }) {
            Ok(vec![])
        } else {
            self.act(&OrdersAction::Adjudicate)
        };
        match adjudicated.map(|ev| {
            events.extend(ev);
            events
        }) {
            Ok(events) => {
                self.last = Some(self.summarise(year, season, &events));
                self.stage = Stage::Results;
                true
            }
            Err(e) => {
                self.error = Some(e.to_string());
                self.stage = Stage::Results;
                false
            }
        }
    }

    /// The results of a phase from its events, as the results list shows them.
    pub fn summarise(&self, year: u16, season: Season, events: &[OrdersEvent]) -> Resolved {
        let map = self.map();
        let mut out = Resolved {
            title: format!("{} {year}", season_word(season)),
            phase: Phase::Movement,
            results: vec![],
            notes: vec![],
        };
        let mut first = true;
        for e in events {
            match e {
                OrdersEvent::Resolved {
                    year,
                    season,
                    phase,
                    results,
                } if first => {
                    first = false;
                    out.title = format!("{} {year} {}", season_word(*season), phase_word(*phase));
                    out.phase = *phase;
                    out.results = results.clone();
                }
                OrdersEvent::Resolved { phase, .. } => out
                    .notes
                    .push(format!("Then the {} were resolved.", phase_word(*phase))),
                OrdersEvent::CentreTaken { province, from, to } => out.notes.push(format!(
                    "{} takes {}{}.",
                    map.powers[*to as usize].name,
                    map.provinces[*province as usize].name,
                    from.map(|f| format!(" from {}", map.powers[f as usize].name))
                        .unwrap_or_default()
                )),
                OrdersEvent::Eliminated { power } => out.notes.push(format!(
                    "{} is eliminated.",
                    map.powers[*power as usize].name
                )),
                OrdersEvent::Won { power } => out.notes.push(format!(
                    "{} wins the game!",
                    map.powers[*power as usize].name
                )),
                OrdersEvent::Drawn => {
                    out.title = "The game is drawn".into();
                    out.notes
                        .push("Every surviving power accepted a draw.".into());
                }
                _ => {}
            }
        }
        // Online, the draw votes revealed so far (hot-seat players see their own at entry).
        let accepting: Vec<&str> = (0..map.powers.len() as PowerId)
            .filter(|&p| self.online.is_some() && self.game.draw[p as usize])
            .filter(|&p| self.game.alive(p))
            .map(|p| map.powers[p as usize].name.as_str())
            .collect();
        if !accepting.is_empty() && !events.contains(&OrdersEvent::Drawn) {
            out.notes.push(format!(
                "A draw is accepted by {}; it needs every surviving power (a computer power accepts once its position is hopeless, or from 1931 on).",
                accepting.join(", ")
            ));
        }
        out
    }

    /// Handles a message; returns true when the game state changed (autosave).
    pub fn update(&mut self, msg: OMsg) -> bool {
        let me = match self.stage {
            Stage::Enter(p) => Some(p),
            _ => None,
        };
        match msg {
            OMsg::Reveal => {
                if let Stage::Curtain(p) = self.stage {
                    self.enter(p);
                }
            }
            OMsg::Continue => {
                if self.stage == Stage::Results
                    && !self.thinking
                    && !self.online.as_ref().is_some_and(|o| o.sent)
                {
                    return self.advance();
                }
            }
            OMsg::ComputersOrdered(key, actions, ms) => {
                let now = orbis_engine::codec::hash_of(&self.game);
                if !self.thinking || key != now {
                    return false;
                }
                self.thinking = false;
                record_bot_ms("orders-phase", ms);
                // Per phase type too (issue 62's figures): every computer power's orders.
                record_bot_ms(&format!("orders-phase-{}", phase_word(self.game.phase)), ms);
                return self.resolve(actions);
            }
            OMsg::Suggest => {
                // Offline only: online, a human seat's orders are the player's own.
                if me.is_some() && self.online.is_none() {
                    self.suggesting = me;
                    self.error = None;
                }
            }
            OMsg::Suggested(key, p, orders) => {
                let now = orbis_engine::codec::hash_of(&self.game);
                if self.suggesting != Some(p) || me != Some(p) || key != now {
                    return false;
                }
                self.suggesting = None;
                // The player's own orders stay: only units without one get the computer's.
                if self.fill_missing(p, orders) == 0 {
                    self.error = Some(
                        "Every unit already has an order, so nothing was changed. To see the \
                         computer's choice for a unit, remove its order (✕) and ask again."
                            .into(),
                    );
                }
                self.sel = None;
                self.mode = Mode::Move;
            }
            OMsg::Cancel => {
                self.sel = None;
                self.mode = Mode::Move;
                self.error = None;
            }
            OMsg::Text(t) => self.text = t,
            OMsg::View(v) => self.view = v,
            OMsg::ZoomAt(f, x, y) => self.zoom_at(f, x, y),
            OMsg::Schematic(on) => {
                self.schematic = on;
                self.view = None;
            }
            OMsg::Nav(_) => {}
            OMsg::SetSeat(..) if self.online.is_some() => {}
            OMsg::SetSeat(p, seat) => return self.set_seat(p, seat),
            _ if me.is_none() => {}
            OMsg::Click(k) => self.click(me.unwrap_or(0), &k),
            OMsg::SetMode(m) => {
                if self.sel.is_some() {
                    self.mode = m;
                }
            }
            OMsg::Hold | OMsg::Disband => {
                if let (Some(p), Some(sel)) = (me, self.sel) {
                    if let Some(u) = self.orderable(p).into_iter().find(|u| u.loc == sel) {
                        let spec = if matches!(msg, OMsg::Hold) {
                            Spec::Hold
                        } else {
                            Spec::Disband
                        };
                        self.add(
                            p,
                            Written {
                                kind: u.kind,
                                at: u.loc,
                                spec,
                            },
                        );
                    }
                }
            }
            OMsg::Build(kind, at) => {
                if let Some(p) = me {
                    self.add(
                        p,
                        Written {
                            kind,
                            at,
                            spec: Spec::Build,
                        },
                    );
                }
            }
            OMsg::BuildFacing(at, sea) => {
                if let Some(p) = me {
                    self.add(
                        p,
                        Written {
                            kind: UnitType::Fleet,
                            at,
                            spec: Spec::BuildFacing { sea },
                        },
                    );
                }
            }
            OMsg::Type => {
                if let Some(p) = me {
                    let text = self.text.clone();
                    let mut all_ok = true;
                    for line in text.split([';', '\n']).filter(|l| !l.trim().is_empty()) {
                        match notation::parse(self.map(), line) {
                            Ok(w) => all_ok &= self.add(p, w),
                            Err(e) => {
                                self.error = Some(format!("{}: {e}", line.trim()));
                                all_ok = false;
                            }
                        }
                        if !all_ok {
                            break;
                        }
                    }
                    if all_ok {
                        self.text.clear();
                    }
                }
            }
            OMsg::Remove(i) => {
                if i < self.draft.len() {
                    self.draft.remove(i);
                }
            }
            OMsg::Submit => {
                if let Some(p) = me {
                    let r = self.act(&OrdersAction::Submit {
                        power: p,
                        orders: self.draft.clone(),
                    });
                    return match r {
                        Ok(_) => {
                            self.advance();
                            true
                        }
                        Err(e) => {
                            self.error = Some(e.to_string());
                            false
                        }
                    };
                }
            }
            // Online, the vote goes out with the orders (see `online_payload`).
            OMsg::Draw(accept) if self.online.is_some() => {
                if let (Some(p), Some(o)) = (me, self.online.as_mut()) {
                    if let Some(v) = o.draw.get_mut(p as usize) {
                        *v = accept;
                        return true;
                    }
                }
            }
            OMsg::Draw(accept) => {
                if let Some(p) = me {
                    match self.act(&OrdersAction::Draw { power: p, accept }) {
                        Ok(ev) => {
                            if ev.iter().any(|e| matches!(e, OrdersEvent::Drawn)) {
                                self.last = Some(Resolved {
                                    title: "The game is drawn".into(),
                                    phase: self.game.phase,
                                    results: vec![],
                                    notes: vec!["Every surviving power accepted a draw.".into()],
                                });
                                self.stage = Stage::Results;
                            }
                            return true;
                        }
                        Err(e) => self.error = Some(e.to_string()),
                    }
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests;
