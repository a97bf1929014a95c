//! The classic game on screen: the engine state, UI-only state (selection, amounts, view box,
//! log, hot-seat viewer), the classic screens' messages and how each changes that state. Every
//! game change goes through the engine's `apply`; in an online game actions go to the protocol
//! instead (`submit`, taken by the online screen's next tick) and come back as a [`Sync`].

use crate::store;
use crate::widgets::{clock_ms, record_bot_ms, Nav, Sender};
use orbis_engine::bot;
use orbis_engine::classic::{
    Action, BotLevel, ClassicOptions, ClassicState, Colour, DefendPref, Event, Phase, PlayerId,
    SeatConfig, SeatKind,
};
use orbis_engine::map::TerritoryId;
use orbis_engine::view;
#[cfg(feature = "online")]
use std::cell::RefCell;
use yew::prelude::*;

pub use crate::widgets::Speed;

/// A seat on the new-game screen.
#[derive(Clone, PartialEq)]
pub struct SeatForm {
    pub name: String,
    pub colour: Colour,
    pub kind: SeatKind,
    /// Defender dice preference at the start (changeable during play).
    pub defend: DefendPref,
}

#[derive(Clone, PartialEq)]
pub struct SetupForm {
    pub seats: Vec<SeatForm>,
    pub options: ClassicOptions,
}

pub const BOT_NAMES: [&str; 6] = ["Ada", "Boole", "Curie", "Dijkstra", "Euler", "Fermat"];

impl Default for SetupForm {
    fn default() -> Self {
        SetupForm {
            seats: vec![
                SeatForm {
                    name: "Player 1".into(),
                    colour: Colour::Red,
                    kind: SeatKind::Human,
                    defend: DefendPref::Max,
                },
                SeatForm {
                    name: BOT_NAMES[1].into(),
                    colour: Colour::Blue,
                    kind: SeatKind::Bot(BotLevel::Normal),
                    defend: DefendPref::Max,
                },
                SeatForm {
                    name: BOT_NAMES[2].into(),
                    colour: Colour::Green,
                    kind: SeatKind::Bot(BotLevel::Normal),
                    defend: DefendPref::Max,
                },
            ],
            options: ClassicOptions::default(),
        }
    }
}

/// The dice of the last roll, for display.
#[derive(Clone, PartialEq)]
pub struct Roll {
    pub from: TerritoryId,
    pub to: TerritoryId,
    pub attack: Vec<u8>,
    pub defence: Vec<u8>,
    pub rolls: u32,
    pub step: u32,
    /// Armies the attacker and the defender lost in this action's rolls (the engine's count).
    pub lost: [u32; 2],
}

/// UI-only state.
#[derive(Clone, PartialEq)]
pub struct Ui {
    pub from: Option<TerritoryId>,
    pub to: Option<TerritoryId>,
    pub hover: Option<TerritoryId>,
    pub amount: u32,
    pub dice: u8,
    pub stop_at: u32,
    pub trade_open: bool,
    pub picked: Vec<u8>,
    pub tab: Tab,
    /// Pan/zoom: x, y, width, height of the SVG view box.
    pub view: [f32; 4],
    /// The winner's dialog was put aside to look at the final board.
    pub winner_closed: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Log,
    Stats,
}

impl Default for Ui {
    fn default() -> Self {
        Ui {
            from: None,
            to: None,
            hover: None,
            amount: 1,
            dice: 3,
            stop_at: 1,
            trade_open: false,
            picked: vec![],
            tab: Tab::Log,
            view: crate::geometry::VIEWBOX,
            winner_closed: false,
        }
    }
}

pub fn is_setup(p: Phase) -> bool {
    matches!(p, Phase::Claim | Phase::SetupPlace)
}

/// The classic game and its UI state.
#[derive(Clone, PartialEq)]
pub struct Classic {
    /// The classic game being played (saved and hashed as a `Game::Classic`).
    pub game: Option<ClassicState>,
    /// Hex SHA-256 of the canonical `Game` encoding, refreshed after every change.
    pub hash: String,
    /// The new-game form.
    pub form: SetupForm,
    pub ui: Ui,
    pub log: Vec<String>,
    /// The engine's explanation of the last refused action.
    pub error: Option<String>,
    /// The human whose hand and mission are on screen (hot-seat privacy).
    pub viewer: Option<PlayerId>,
    pub roll: Option<Roll>,
    pub speed: Speed,
    /// Humans who asked for their setup armies to be placed automatically.
    pub auto_setup: Vec<PlayerId>,
    /// Inside a run of many actions (skip, automatic setup): autosave once at the end.
    pub batch: bool,
    /// "Skip to my turn" in the browser: the computers play on without the watchable pace, each
    /// move thought in the worker (the app's effect), until a human is to play.
    pub skipping: bool,
    /// The play screen is the one shown (the pass-the-device curtain only covers it).
    pub on_screen: bool,
    /// Online game: this browser's seat; actions go through the protocol, not `apply`.
    #[cfg(feature = "online")]
    pub remote: Option<Seat>,
    /// The start state and every action since, for a replay (`None`: a game saved before
    /// histories were kept, or one too long to keep).
    pub history: Option<crate::savefile::History>,
    /// A lesson's game ("Learn to play"): never autosaved over the player's own.
    pub lesson: bool,
}

/// Messages of the classic screens.
#[derive(Clone)]
pub enum Msg {
    /// Leave for another screen (the app's to handle).
    Nav(Nav),
    EditForm(SetupForm),
    Click(TerritoryId),
    Hover(Option<TerritoryId>),
    Act(Action),
    /// A computer's choice, thought in the worker (`think::classic`) for the state at `step`,
    /// and how long it took (ms): played if the game is still where it was asked.
    BotAct(u32, Option<Action>, f64),
    SkipToHuman,
    AutoSetup,
    Reveal,
    SetAmount(u32),
    SetDice(u8),
    SetStop(u32),
    ClearSelection,
    OpenTrade(bool),
    PickCard(u8),
    SetSpeed(Speed),
    SetTab(Tab),
    SetView([f32; 4]),
    /// Zooms the current view by a factor about a fraction (x, y) of it: the wheel's step, applied
    /// to the view as it is when the step arrives, so that steps faster than renders all count.
    ZoomAt(f32, f32, f32),
    DismissError,
    /// Put the winner's dialog aside (`false`: show it again).
    CloseWinner(bool),
}

/// What a classic view gets: the state to draw and where its messages go.
pub struct View<'a> {
    pub st: &'a Classic,
    pub send: Callback<Msg>,
}

impl std::ops::Deref for View<'_> {
    type Target = Classic;
    fn deref(&self) -> &Classic {
        self.st
    }
}

impl View<'_> {
    pub fn dispatcher(&self) -> Sender<Msg> {
        Sender(self.send.clone())
    }
}

/// What the app needs to know about this browser's seat in an online game.
#[cfg(feature = "online")]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Seat {
    /// The seat this browser plays (its first seat), if it has one.
    pub me: Option<PlayerId>,
    /// The protocol lets us act now (our turn, no roll pending, not halted, not on autoplay).
    pub can_act: bool,
    /// The game ended unwon: a player left a face-down game nobody could stand in for.
    pub ended: bool,
}

/// A protocol state change for the classic screens: the new engine state and what to show.
#[cfg(feature = "online")]
#[derive(Clone)]
pub struct Sync {
    pub game: ClassicState,
    pub seat: Seat,
    pub lines: Vec<String>,
    pub roll: Option<Roll>,
    pub hash: String,
}

#[cfg(feature = "online")]
thread_local! {
    /// Actions chosen on the board or panel, waiting for the next tick to go through `Peer::act`.
    static QUEUE: RefCell<Vec<Action>> = const { RefCell::new(Vec::new()) };
}

/// Online game: queues an action for the protocol instead of applying it locally.
#[cfg(feature = "online")]
fn submit(a: Action) {
    QUEUE.with(|q| q.borrow_mut().push(a));
}

/// The actions queued since the last call (the online screen's tick sends them).
#[cfg(feature = "online")]
pub fn take_queued() -> Vec<Action> {
    QUEUE.with(|q| std::mem::take(&mut *q.borrow_mut()))
}

impl Classic {
    /// No game yet; the speed comes from the last session.
    pub fn new() -> Classic {
        Classic {
            game: None,
            hash: String::new(),
            form: SetupForm::default(),
            ui: Ui::default(),
            log: vec![],
            error: None,
            viewer: None,
            roll: None,
            speed: store::get(store::SPEED_KEY)
                .map(|k| Speed::from_key(&k))
                .unwrap_or(Speed::Normal),
            auto_setup: vec![],
            batch: false,
            skipping: false,
            on_screen: false,
            #[cfg(feature = "online")]
            remote: None,
            history: None,
            lesson: false,
        }
    }

    pub fn state(&self) -> Option<&ClassicState> {
        self.game.as_ref()
    }

    pub fn humans(&self) -> Vec<PlayerId> {
        self.state()
            .map(|s| {
                (0..s.players.len() as PlayerId)
                    .filter(|&p| s.players[p as usize].kind == SeatKind::Human)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Hot-seat: keep the viewer when there is one human; otherwise a human seat must be
    /// revealed through the pass-the-device screen.
    pub fn update_viewer(&mut self) {
        #[cfg(feature = "online")]
        if let Some(o) = self.remote {
            self.viewer = o.me;
            return;
        }
        let humans = self.humans();
        let Some(s) = self.state() else { return };
        if humans.len() == 1 {
            self.viewer = Some(humans[0]);
        } else if humans.len() >= 2
            && is_setup(s.phase)
            && !s.options.missions
            && humans.contains(&s.current)
        {
            self.viewer = Some(s.current);
        }
    }

    /// True when the pass-the-device screen must hide the board.
    pub fn curtain(&self) -> Option<PlayerId> {
        let s = self.state()?;
        if self.is_online() {
            return None;
        }
        if matches!(s.phase, Phase::GameOver { .. }) || !self.on_screen {
            return None;
        }
        let humans = self.humans();
        (humans.len() >= 2 && humans.contains(&s.current) && self.viewer != Some(s.current))
            .then_some(s.current)
    }

    /// The seat that may act from this screen now (a human who is the viewer).
    pub fn my_turn(&self) -> bool {
        #[cfg(feature = "online")]
        if let Some(o) = self.remote {
            return o.can_act && self.state().is_some_and(|s| o.me == Some(s.current));
        }
        match self.state() {
            Some(s) => {
                self.curtain().is_none()
                    && s.players[s.current as usize].kind == SeatKind::Human
                    && self.viewer == Some(s.current)
                    && !matches!(s.phase, Phase::GameOver { .. })
                    && !(is_setup(s.phase) && self.auto_setup.contains(&s.current))
            }
            None => false,
        }
    }

    /// The bot level that acts for the current seat now, if the machine plays it.
    pub fn machine_level(&self) -> Option<BotLevel> {
        let s = self.state()?;
        if matches!(s.phase, Phase::GameOver { .. }) {
            return None;
        }
        match s.players[s.current as usize].kind {
            SeatKind::Bot(l) => Some(l),
            SeatKind::Human if is_setup(s.phase) && self.auto_setup.contains(&s.current) => {
                Some(BotLevel::Normal)
            }
            SeatKind::Human => None,
        }
    }

    /// The online game ended unwon (a player left a face-down game of two): nobody moves again.
    pub fn ended_online(&self) -> bool {
        #[cfg(feature = "online")]
        return self.remote.is_some_and(|o| o.ended);
        #[cfg(not(feature = "online"))]
        false
    }

    /// An online game is on screen (never in the lite bundle).
    pub fn is_online(&self) -> bool {
        #[cfg(feature = "online")]
        return self.remote.is_some();
        #[cfg(not(feature = "online"))]
        false
    }

    /// Autosaves the classic game (not an online one: the transcript is the record).
    pub fn save(&mut self) {
        if self.is_online() {
            return; // the transcript is the record; keep the local autosave untouched
        }
        if let Some(g) = &self.game {
            self.hash = crate::savefile::state_hash(g);
            if self.lesson {
                return;
            }
            let save = crate::savefile::to_save(g);
            match &self.history {
                Some(h) => store::set(
                    store::HISTORY_KEY,
                    &store::b64_encode(&crate::savefile::to_replay_file(&save, h)),
                ),
                None => store::remove(store::HISTORY_KEY),
            }
            store::set(store::SAVE_KEY, &store::b64_encode(&save));
            let start = self.log.len().saturating_sub(300);
            store::set(store::LOG_KEY, &self.log[start..].join("\n"));
        }
    }

    /// The file "Export save" offers: the save with its history when there is one.
    pub fn export_bytes(&self) -> Option<Vec<u8>> {
        let save = crate::savefile::to_save(self.game.as_ref()?);
        Some(match &self.history {
            Some(h) => crate::savefile::to_replay_file(&save, h),
            None => save,
        })
    }

    /// Shows `g` (a new game, a loaded save or the autosave) with fresh UI state; a new game
    /// starts its history, a loaded one keeps the history set before (or none).
    pub fn start_with(&mut self, g: ClassicState, fresh: bool) {
        if fresh {
            self.history = Some(crate::savefile::History::new(&g));
        }
        self.game = Some(g);
        self.ui = Ui::default();
        self.viewer = None;
        self.roll = None;
        self.error = None;
        self.auto_setup.clear();
        if fresh {
            self.log = vec!["A new game begins.".into()];
        }
        self.update_viewer();
        self.save();
    }

    /// Applies one engine action; records the log and the dice; autosaves.
    pub fn apply(&mut self, a: Action) -> bool {
        // A trade made closes the trade dialog (online the action only goes to the protocol
        // here, and the phase does not change, so nothing else would close it).
        if matches!(a, Action::Trade { .. }) {
            self.ui.trade_open = false;
            self.ui.picked.clear();
        }
        #[cfg(feature = "online")]
        if self.remote.is_some() {
            submit(a);
            return true;
        }
        let Some(g) = self.game.as_mut() else {
            return false;
        };
        let before = g.phase;
        // The classic state's own apply: same rules and randomness as `Game::apply`, without
        // linking other rulesets into the browser bundle.
        match g.apply(&a) {
            Ok(events) => {
                if self.history.as_mut().is_some_and(|h| !h.push(&a)) {
                    self.history = None; // too long to keep: the game plays on without it
                }
                let s = &*g;
                let mut rolls = 0;
                let mut lost = [0, 0];
                for e in &events {
                    self.log.push(view::describe(e, s));
                    if let Event::Rolled {
                        from,
                        to,
                        attack,
                        defence,
                        attacker_lost,
                        defender_lost,
                    } = e
                    {
                        rolls += 1;
                        lost = [lost[0] + attacker_lost, lost[1] + defender_lost];
                        self.roll = Some(Roll {
                            from: *from,
                            to: *to,
                            attack: attack.clone(),
                            defence: defence.clone(),
                            rolls,
                            step: s.step,
                            lost,
                        });
                    }
                }
                if self.log.len() > 600 {
                    self.log.drain(..200);
                }
                self.error = None;
                let after = s.phase;
                self.after_change(before, after);
                if !self.batch {
                    self.save();
                }
                true
            }
            Err(e) => {
                self.error = Some(e.to_string());
                false
            }
        }
    }

    pub fn after_change(&mut self, before: Phase, after: Phase) {
        let s = self.game.as_ref().unwrap();
        let phase_kind = |p: Phase| std::mem::discriminant(&p);
        if phase_kind(before) != phase_kind(after) {
            self.ui.from = None;
            self.ui.to = None;
            self.ui.trade_open = false;
            self.ui.picked.clear();
            if let Phase::Occupy { from, moved, .. } = after {
                self.ui.amount = moved + s.armies[from as usize] - 1;
            }
            if let Phase::Reinforce { .. } = after {
                self.ui.amount = 1;
            }
            // After moving in, keep attacking from the conquered territory if it can.
            if let (Phase::Occupy { to, .. }, Phase::Attack) = (before, after) {
                if s.armies[to as usize] >= 2 && !s.attack_targets(to).is_empty() {
                    self.ui.from = Some(to);
                }
            }
        }
        if let Some(f) = self.ui.from {
            let mine = s.owner[f as usize] == orbis_engine::classic::Owner::Player(s.current);
            let ok = match after {
                Phase::Attack => mine && s.armies[f as usize] >= 2,
                Phase::Fortify => mine && s.movable(f) > 0,
                _ => false,
            };
            if !ok {
                self.ui.from = None;
                self.ui.to = None;
            }
        }
        if let (Some(f), Some(t)) = (self.ui.from, self.ui.to) {
            let still = match after {
                Phase::Attack => s.attack_targets(f).contains(&t),
                Phase::Fortify => s.fortify_targets(f).contains(&t),
                _ => false,
            };
            if !still {
                self.ui.to = None;
            }
        }
        self.ui
            .picked
            .retain(|c| s.players[s.current as usize].hand.contains(c));
        self.update_viewer();
    }

    pub fn bot_step(&mut self) -> bool {
        let Some(level) = self.machine_level() else {
            return false;
        };
        let t0 = clock_ms();
        let Some(a) = bot::choose(self.state().unwrap(), level) else {
            return false;
        };
        record_bot_ms(&format!("{level:?}").to_lowercase(), clock_ms() - t0);
        self.apply(a)
    }

    pub fn on_click(&mut self, t: TerritoryId) {
        if !self.my_turn() {
            return;
        }
        let s = self.state().unwrap().clone();
        let me = s.current;
        let mine = s.owner[t as usize] == orbis_engine::classic::Owner::Player(me);
        match s.phase {
            Phase::Claim => {
                self.apply(Action::Claim { territory: t });
            }
            Phase::SetupPlace => {
                self.apply(Action::Place {
                    territory: t,
                    armies: 1,
                });
            }
            Phase::Reinforce { armies } => {
                let n = self.ui.amount.clamp(1, armies.max(1));
                self.apply(Action::Place {
                    territory: t,
                    armies: n,
                });
            }
            Phase::Attack => {
                if let Some(f) = self.ui.from {
                    if s.attack_targets(f).contains(&t) {
                        self.ui.to = Some(t);
                        self.ui.dice = s.max_attack_dice(f);
                        self.error = None;
                        return;
                    }
                }
                if mine && s.armies[t as usize] >= 2 {
                    self.ui.from = if self.ui.from == Some(t) {
                        None
                    } else {
                        Some(t)
                    };
                    self.ui.to = None;
                    self.ui.stop_at = 1;
                    self.error = if self.ui.from.is_some() && s.attack_targets(t).is_empty() {
                        Some(format!("{} has no enemy neighbours.", s.map().name(t)))
                    } else {
                        None
                    };
                } else if mine {
                    self.error = Some(format!(
                        "{} needs at least two armies to attack (one must stay behind).",
                        s.map().name(t)
                    ));
                } else if let Some(f) = self.ui.from {
                    self.error = Some(format!(
                        "{} does not border {}.",
                        s.map().name(f),
                        s.map().name(t)
                    ));
                } else {
                    self.error =
                        Some("First choose one of your territories to attack from.".into());
                }
            }
            Phase::Fortify => {
                if let Some(f) = self.ui.from {
                    if s.fortify_targets(f).contains(&t) {
                        self.ui.to = Some(t);
                        self.ui.amount = s.movable(f);
                        self.error = None;
                        return;
                    }
                }
                if mine && s.movable(t) > 0 {
                    self.ui.from = if self.ui.from == Some(t) {
                        None
                    } else {
                        Some(t)
                    };
                    self.ui.to = None;
                    self.error = None;
                } else if mine {
                    self.error = Some(format!("No armies can leave {}.", s.map().name(t)));
                } else {
                    self.error = Some(format!("{} is not yours.", s.map().name(t)));
                }
            }
            Phase::Occupy { .. } | Phase::GameOver { .. } => {}
        }
    }

    /// Starts a new local game from `form`; `Err` is the engine's reason for refusing it.
    pub fn new_game(&mut self, form: &SetupForm) -> Result<(), String> {
        #[cfg(feature = "online")]
        {
            self.remote = None; // a local game after an online one
        }
        let seats = form
            .seats
            .iter()
            .map(|s| SeatConfig {
                name: if s.name.trim().is_empty() {
                    s.colour.name().to_string()
                } else {
                    s.name.trim().to_string()
                },
                colour: s.colour,
                kind: s.kind,
            })
            .collect();
        match ClassicState::new(seats, form.options.clone(), store::new_seed()) {
            Ok(s) => {
                self.start_with(s, true);
                for (i, seat) in form.seats.iter().enumerate() {
                    if seat.defend != DefendPref::Max {
                        self.apply(Action::SetDefence {
                            player: i as PlayerId,
                            pref: seat.defend,
                        });
                    }
                }
            }
            Err(e) => return Err(e.to_string()),
        }
        Ok(())
    }

    /// Handles one message of the classic screens. `Nav` is the app's to handle.
    pub fn update(&mut self, msg: Msg) {
        match msg {
            Msg::Nav(_) => {}
            Msg::EditForm(f) => self.form = f,
            Msg::Click(t) => self.on_click(t),
            Msg::Hover(t) => self.ui.hover = t,
            Msg::Act(a) => {
                if self.my_turn()
                    || matches!(
                        a,
                        Action::SetDefence { .. } | Action::SetTerritoryDefence { .. }
                    )
                {
                    self.apply(a);
                }
            }
            Msg::BotAct(step, a, ms) => {
                let level = self.machine_level();
                if let (Some(level), Some(a), true) =
                    (level, a, self.state().is_some_and(|s| s.step == step))
                {
                    record_bot_ms(&format!("{level:?}").to_lowercase(), ms);
                    self.apply(a);
                }
                if self.machine_level().is_none() {
                    self.skipping = false;
                }
            }
            Msg::SkipToHuman if cfg!(target_arch = "wasm32") => {
                // The page answers meanwhile: each move is thought in the worker.
                self.skipping = self.machine_level().is_some();
            }
            Msg::SkipToHuman => {
                // Many actions at once: save once at the end.
                self.batch = true;
                let mut n = 0;
                while n < 20000 && self.bot_step() {
                    n += 1;
                }
                self.batch = false;
                self.save();
            }
            Msg::AutoSetup => {
                if let Some(s) = self.state() {
                    if is_setup(s.phase) && self.my_turn() {
                        let me = s.current;
                        self.auto_setup.push(me);
                        if cfg!(target_arch = "wasm32") {
                            // The page answers meanwhile: each placement is thought in the
                            // worker (the app's effect, without the pace while anyone's setup
                            // is placed automatically).
                            return;
                        }
                        self.batch = true;
                        let mut n = 0;
                        while n < 5000
                            && self.state().is_some_and(|s| is_setup(s.phase))
                            && self.bot_step()
                        {
                            n += 1;
                        }
                        self.batch = false;
                        self.save();
                    }
                }
            }
            Msg::Reveal => {
                if let Some(p) = self.curtain() {
                    self.viewer = Some(p);
                    self.ui.from = None;
                    self.ui.to = None;
                    self.ui.picked.clear();
                    self.ui.trade_open = false;
                }
            }
            Msg::SetAmount(n) => self.ui.amount = n,
            Msg::SetDice(d) => self.ui.dice = d,
            Msg::SetStop(n) => self.ui.stop_at = n.max(1),
            Msg::ClearSelection => {
                self.ui.from = None;
                self.ui.to = None;
                self.error = None;
            }
            Msg::OpenTrade(o) => {
                self.ui.trade_open = o;
                self.ui.picked.clear();
            }
            Msg::PickCard(c) => {
                if let Some(i) = self.ui.picked.iter().position(|&x| x == c) {
                    self.ui.picked.remove(i);
                } else if self.ui.picked.len() < 3 {
                    self.ui.picked.push(c);
                }
            }
            Msg::SetSpeed(sp) => {
                self.speed = sp;
                store::set(store::SPEED_KEY, sp.key());
            }
            Msg::SetTab(t) => self.ui.tab = t,
            Msg::SetView(v) => self.ui.view = v,
            Msg::ZoomAt(f, x, y) => self.ui.view = crate::widgets::zoom(self.ui.view, f, x, y),
            Msg::DismissError => self.error = None,
            Msg::CloseWinner(c) => self.ui.winner_closed = c,
        }
    }

    /// The protocol moved an online game on: its state, this browser's seat and what to show.
    #[cfg(feature = "online")]
    pub fn online_sync(&mut self, sync: Sync) {
        let before = self.state().map(|s| s.phase);
        self.remote = Some(sync.seat);
        self.history = None; // the transcript is the record
        self.viewer = sync.seat.me;
        self.game = Some(sync.game);
        self.hash = sync.hash;
        self.log.extend(sync.lines);
        if self.log.len() > 600 {
            self.log.drain(..200);
        }
        if sync.roll.is_some() {
            self.roll = sync.roll;
        }
        let after = self.state().map(|s| s.phase).unwrap();
        self.after_change(before.unwrap_or(after), after);
    }
}

#[cfg(test)]
mod tests;
