//! Application state: which screen is shown, the game (engine state), and UI-only state
//! (selection, amounts, view box, log). Every game change goes through the engine's `apply`.

pub mod menu;

use crate::store;
use orbis_engine::bot;
use orbis_engine::classic::{
    Action, BotLevel, ClassicOptions, ClassicState, Colour, DefendPref, Event, Phase, PlayerId,
    SeatConfig, SeatKind,
};
use orbis_engine::map::TerritoryId;
#[cfg(feature = "full")]
use orbis_engine::rules::Game;
use orbis_engine::view;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    Menu,
    Setup,
    Play,
    /// A game of the orders ruleset (lite bundle: on the way to the full page).
    OrdersPlay,
    /// Peer-to-peer play (`online.rs`): lobby, then the board driven through the protocol
    /// (lite bundle: on the way to the full page).
    Online,
}

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
        }
    }
}

#[derive(Clone, PartialEq)]
pub struct AppState {
    pub screen: Screen,
    /// The classic game being played (saved and hashed as a `Game::Classic`).
    pub game: Option<ClassicState>,
    /// Hex SHA-256 of the canonical `Game` encoding, refreshed after every change.
    pub hash: String,
    pub form: SetupForm,
    pub ui: Ui,
    pub log: Vec<String>,
    /// A message on the menu (e.g. a save that could not be loaded).
    pub notice: Option<String>,
    /// The engine's explanation of the last refused action.
    pub error: Option<String>,
    /// The human whose hand and mission are on screen (hot-seat privacy).
    pub viewer: Option<PlayerId>,
    pub roll: Option<Roll>,
    pub speed: Speed,
    /// Humans who asked for their setup armies to be placed automatically.
    pub auto_setup: Vec<PlayerId>,
    pub has_save: bool,
    /// Inside a run of many actions (skip, automatic setup): autosave once at the end.
    pub batch: bool,
    /// The setup screen shows the orders ruleset (else the classic one).
    pub setup_orders: bool,
    #[cfg(feature = "full")]
    pub oform: crate::orders::OrdersForm,
    /// A game of the orders ruleset (then `game` is `None`).
    #[cfg(feature = "full")]
    pub orders: Option<crate::orders::OrdersSession>,
    /// Online game: this browser's seat; actions go through the protocol, not `apply`.
    #[cfg(feature = "full")]
    pub online: Option<crate::online::Seat>,
}

#[derive(Clone)]
pub enum Msg {
    ShowMenu,
    ShowSetup,
    EditForm(SetupForm),
    QuickStart,
    Start,
    Continue,
    Import(Result<Vec<u8>, String>),
    Click(TerritoryId),
    Hover(Option<TerritoryId>),
    Act(Action),
    BotStep,
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
    DismissError,
    SetRuleset(bool),
    #[cfg(feature = "full")]
    OrdersForm(crate::orders::OrdersForm),
    #[cfg(feature = "full")]
    Orders(crate::orders::OMsg),
    ShowOnline,
    #[cfg(feature = "full")]
    OnlineSync(Box<crate::online::Sync>),
    /// The protocol's orders game changed (state, results, who has committed).
    #[cfg(feature = "full")]
    OnlineOrders(Box<crate::online::orders::OrdersSync>),
}

pub use crate::savefile::to_save as save_bytes;

/// A save file as this bundle reads it.
#[allow(clippy::large_enum_variant)] // short-lived, one per load
pub enum Loaded {
    Classic(ClassicState),
    #[cfg(feature = "full")]
    Orders(orbis_engine::rules::orders::OrdersState),
    /// Lite bundle: a game of the orders ruleset, for the full page to read.
    #[cfg(not(feature = "full"))]
    FullPage,
}

/// Reads a save file of any ruleset, with the engine's checks and messages.
pub fn load_bytes(bytes: &[u8]) -> Result<Loaded, String> {
    match crate::savefile::from_save(bytes) {
        Ok(Some(g)) => Ok(Loaded::Classic(g)),
        #[cfg(feature = "full")]
        Ok(None) => match Game::from_save(bytes) {
            Ok(Game::Orders(g)) => Ok(Loaded::Orders(g)),
            Ok(Game::Classic(g)) => Ok(Loaded::Classic(g)),
            Err(e) => Err(e.to_string()),
        },
        #[cfg(not(feature = "full"))]
        Ok(None) => Ok(Loaded::FullPage),
        Err(e) => Err(e.to_string()),
    }
}

pub fn is_setup(p: Phase) -> bool {
    matches!(p, Phase::Claim | Phase::SetupPlace)
}

impl AppState {
    /// Startup: resume the autosave if there is one, else the menu (with a message if the save
    /// is unreadable).
    pub fn load() -> AppState {
        let mut st = AppState {
            screen: Screen::Menu,
            game: None,
            hash: String::new(),
            form: SetupForm::default(),
            ui: Ui::default(),
            log: vec![],
            notice: None,
            error: None,
            viewer: None,
            roll: None,
            speed: store::get(store::SPEED_KEY)
                .map(|k| Speed::from_key(&k))
                .unwrap_or(Speed::Normal),
            auto_setup: vec![],
            has_save: false,
            batch: false,
            setup_orders: false,
            #[cfg(feature = "full")]
            oform: Default::default(),
            #[cfg(feature = "full")]
            orders: None,
            #[cfg(feature = "full")]
            online: None,
        };
        if let Some(text) = store::get(store::SAVE_KEY) {
            let loaded = store::b64_decode(&text)
                .ok_or_else(|| "the saved text is not valid".to_string())
                .and_then(|b| load_bytes(&b));
            match loaded {
                Ok(Loaded::Classic(g)) => {
                    st.log = store::get(store::LOG_KEY)
                        .map(|l| l.lines().map(String::from).collect())
                        .unwrap_or_default();
                    st.start_with(g, false);
                }
                #[cfg(not(feature = "full"))]
                Ok(Loaded::FullPage) => {
                    st.screen = Screen::OrdersPlay;
                    crate::lite::open_full(crate::lite::Open::Resume, true);
                    return st;
                }
                #[cfg(feature = "full")]
                Ok(Loaded::Orders(g)) => {
                    let seats = store::get(store::ORDERS_SEATS_KEY).unwrap_or_default();
                    let ui = store::get(store::ORDERS_UI_KEY).and_then(|t| store::b64_decode(&t));
                    st.start_orders(g, seats.chars().map(|c| c != '0').collect());
                    if let (Some(o), Some(b)) = (st.orders.as_mut(), ui) {
                        o.restore_ui(&b);
                        st.save();
                    }
                }
                Err(e) => {
                    st.notice = Some(format!(
                        "Your saved game could not be loaded ({e}). Start a new game or import a save file."
                    ));
                    store::set("orbis.save.unreadable", &text);
                    store::remove(store::SAVE_KEY);
                }
            }
        }
        #[cfg(feature = "full")]
        if crate::online::online_in_url() {
            st.screen = Screen::Online;
        } else {
            // Sent here by the lite page (`lite::open_full`): show what the player chose, once.
            match store::url_param("open").as_deref() {
                Some("online") => st.screen = Screen::Online,
                Some("orders") => {
                    st.screen = Screen::Setup;
                    st.setup_orders = true;
                }
                _ => {}
            }
            forget_open_param();
        }
        #[cfg(not(feature = "full"))]
        if store::url_param("room").is_some() || store::url_param("offer").is_some() {
            st.screen = Screen::Online;
            crate::lite::open_full(crate::lite::Open::Resume, true);
        }
        st
    }

    /// Starts (or resumes) an orders game; `human` per power of the map (missing: human).
    #[cfg(feature = "full")]
    fn start_orders(&mut self, g: orbis_engine::rules::orders::OrdersState, mut human: Vec<bool>) {
        human.resize(g.map().powers.len(), true);
        store::set(
            store::ORDERS_SEATS_KEY,
            &human
                .iter()
                .map(|&h| if h { '1' } else { '0' })
                .collect::<String>(),
        );
        self.game = None;
        self.orders = Some(crate::orders::OrdersSession::new(g, human));
        self.screen = Screen::OrdersPlay;
        self.has_save = true;
        self.notice = None;
        self.error = None;
        self.save();
    }

    #[cfg(feature = "full")]
    fn new_orders_game(&mut self) {
        let f = self.oform.clone();
        let g = orbis_engine::rules::orders::OrdersState::new_for(
            &f.map_id,
            f.options.clone(),
            f.players,
        );
        match g {
            Ok(g) => self.start_orders(g, f.human.clone()),
            Err(e) => self.notice = Some(e.to_string()),
        }
    }

    fn start_with(&mut self, g: ClassicState, fresh: bool) {
        #[cfg(feature = "full")]
        {
            self.orders = None;
        }
        self.game = Some(g);
        self.screen = Screen::Play;
        self.ui = Ui::default();
        self.viewer = None;
        self.roll = None;
        self.error = None;
        self.auto_setup.clear();
        self.has_save = true;
        if fresh {
            self.log = vec!["A new game begins.".into()];
        }
        self.update_viewer();
        self.save();
    }

    pub fn state(&self) -> Option<&ClassicState> {
        self.game.as_ref()
    }

    fn humans(&self) -> Vec<PlayerId> {
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
    fn update_viewer(&mut self) {
        #[cfg(feature = "full")]
        if let Some(o) = self.online {
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
        if matches!(s.phase, Phase::GameOver { .. }) || self.screen != Screen::Play {
            return None;
        }
        let humans = self.humans();
        (humans.len() >= 2 && humans.contains(&s.current) && self.viewer != Some(s.current))
            .then_some(s.current)
    }

    /// The seat that may act from this screen now (a human who is the viewer).
    pub fn my_turn(&self) -> bool {
        #[cfg(feature = "full")]
        if let Some(o) = self.online {
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

    /// An online game is on screen (never in the lite bundle).
    fn is_online(&self) -> bool {
        #[cfg(feature = "full")]
        return self.online.is_some();
        #[cfg(not(feature = "full"))]
        false
    }

    /// An orders game is loaded (never in the lite bundle).
    fn has_orders_game(&self) -> bool {
        #[cfg(feature = "full")]
        return self.orders.is_some();
        #[cfg(not(feature = "full"))]
        false
    }

    fn save(&mut self) {
        if self.is_online() {
            return; // the transcript is the record; keep the local autosave untouched
        }
        #[cfg(feature = "full")]
        if let Some(o) = &self.orders {
            let g = Game::Orders(o.game.clone());
            self.hash = g.state_hash().to_hex();
            store::set(store::SAVE_KEY, &store::b64_encode(&g.to_save()));
            store::set(store::ORDERS_UI_KEY, &store::b64_encode(&o.ui_bytes()));
            return;
        }
        if let Some(g) = &self.game {
            self.hash = crate::savefile::state_hash(g);
            store::set(store::SAVE_KEY, &store::b64_encode(&save_bytes(g)));
            let start = self.log.len().saturating_sub(300);
            store::set(store::LOG_KEY, &self.log[start..].join("\n"));
        }
    }

    /// Applies one engine action; records the log and the dice; autosaves.
    fn apply(&mut self, a: Action) -> bool {
        #[cfg(feature = "full")]
        if self.online.is_some() {
            crate::online::submit(a);
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
                let s = &*g;
                let mut rolls = 0;
                for e in &events {
                    self.log.push(view::describe(e, s));
                    if let Event::Rolled {
                        from,
                        to,
                        attack,
                        defence,
                        ..
                    } = e
                    {
                        rolls += 1;
                        self.roll = Some(Roll {
                            from: *from,
                            to: *to,
                            attack: attack.clone(),
                            defence: defence.clone(),
                            rolls,
                            step: s.step,
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

    fn after_change(&mut self, before: Phase, after: Phase) {
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

    fn bot_step(&mut self) -> bool {
        let Some(level) = self.machine_level() else {
            return false;
        };
        let Some(a) = bot::choose(self.state().unwrap(), level) else {
            return false;
        };
        self.apply(a)
    }

    fn on_click(&mut self, t: TerritoryId) {
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

    fn new_game(&mut self, form: &SetupForm) {
        #[cfg(feature = "full")]
        {
            self.online = None; // a local game after an online one
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
                self.notice = None;
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
            Err(e) => self.notice = Some(e.to_string()),
        }
    }
}

/// Drops `open=` (see `lite::open_full`) from the address, so a reload resumes the game instead.
#[cfg(feature = "full")]
fn forget_open_param() {
    if cfg!(not(target_arch = "wasm32")) {
        return; // native unit tests: no browser
    }
    let Some(w) = web_sys::window() else {
        return;
    };
    let loc = w.location();
    let Ok(q) = web_sys::UrlSearchParams::new_with_str(&loc.search().unwrap_or_default()) else {
        return;
    };
    if q.get("open").is_none() {
        return;
    }
    q.delete("open");
    let q = String::from(q.to_string());
    let url = format!(
        "{}{}{}",
        loc.pathname().unwrap_or_default(),
        if q.is_empty() {
            String::new()
        } else {
            format!("?{q}")
        },
        loc.hash().unwrap_or_default()
    );
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

impl Reducible for AppState {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        let mut st = (*self).clone();
        match msg {
            #[cfg(feature = "full")]
            Msg::ShowMenu if st.online.is_some() || st.screen == Screen::Online => {
                let _ = web_sys::window().map(|w| w.location().set_hash(""));
                let mut fresh = AppState::load();
                fresh.screen = Screen::Menu;
                fresh.has_save = fresh.game.is_some();
                st = fresh;
            }
            Msg::ShowOnline => {
                st.screen = Screen::Online;
                #[cfg(not(feature = "full"))]
                crate::lite::open_full(crate::lite::Open::Online, false);
            }
            #[cfg(feature = "full")]
            Msg::OnlineSync(sync) => {
                let sync = *sync;
                let before = st.state().map(|s| s.phase);
                st.online = Some(sync.seat);
                st.viewer = sync.seat.me;
                st.game = Some(sync.game);
                st.hash = sync.hash;
                st.log.extend(sync.lines);
                if st.log.len() > 600 {
                    st.log.drain(..200);
                }
                if sync.roll.is_some() {
                    st.roll = sync.roll;
                }
                let after = st.state().map(|s| s.phase).unwrap();
                st.after_change(before.unwrap_or(after), after);
            }
            #[cfg(feature = "full")]
            Msg::OnlineOrders(o) => {
                let o = *o;
                st.online = Some(crate::online::Seat {
                    me: None,
                    can_act: false,
                });
                st.game = None;
                st.hash = o.hash;
                match st.orders.as_mut() {
                    Some(s) if s.online.is_some() => {
                        if !o.resolved.is_empty() {
                            s.online_resolved(o.game, &o.resolved);
                        }
                    }
                    _ => {
                        st.orders = Some(crate::orders::OrdersSession::new_online(o.game, &o.mine))
                    }
                }
                if let Some(s) = st.orders.as_mut() {
                    s.online_status(o.sent, o.committed, o.waiting);
                }
            }
            Msg::ShowMenu => {
                st.screen = Screen::Menu;
                st.has_save = st.game.is_some() || st.has_orders_game();
            }
            Msg::ShowSetup => st.screen = Screen::Setup,
            Msg::EditForm(f) => st.form = f,
            Msg::QuickStart => st.new_game(&SetupForm::default()),
            #[cfg(feature = "full")]
            Msg::Start if st.setup_orders => st.new_orders_game(),
            Msg::Start => {
                let f = st.form.clone();
                st.new_game(&f);
            }
            Msg::Continue => {
                if st.has_orders_game() {
                    st.screen = Screen::OrdersPlay;
                } else if st.game.is_some() {
                    st.screen = Screen::Play;
                }
            }
            Msg::Import(Ok(bytes)) => match load_bytes(&bytes) {
                Ok(Loaded::Classic(g)) => {
                    st.notice = None;
                    st.log = vec!["Game loaded from a save file.".into()];
                    st.start_with(g, false);
                }
                #[cfg(feature = "full")]
                Ok(Loaded::Orders(g)) => st.start_orders(g, vec![]),
                // The full page opens it as the autosave, as the full bundle's import would.
                #[cfg(not(feature = "full"))]
                Ok(Loaded::FullPage) => {
                    store::set(store::SAVE_KEY, &store::b64_encode(&bytes));
                    store::remove(store::LOG_KEY);
                    store::remove(store::ORDERS_SEATS_KEY); // every power human, as on import
                    store::remove(store::ORDERS_UI_KEY);
                    st.screen = Screen::OrdersPlay;
                    crate::lite::open_full(crate::lite::Open::Resume, false);
                }
                Err(e) => {
                    st.screen = Screen::Menu;
                    st.notice = Some(format!("That file could not be loaded: {e}."));
                }
            },
            Msg::Import(Err(e)) => {
                st.screen = Screen::Menu;
                st.notice = Some(format!("That file could not be read: {e}."));
            }
            Msg::Click(t) => st.on_click(t),
            Msg::Hover(t) => st.ui.hover = t,
            Msg::Act(a) => {
                if st.my_turn() || matches!(a, Action::SetDefence { .. }) {
                    st.apply(a);
                }
            }
            Msg::BotStep => {
                st.bot_step();
            }
            Msg::SkipToHuman => {
                // Many actions at once: save once at the end.
                st.batch = true;
                let mut n = 0;
                while n < 20000 && st.bot_step() {
                    n += 1;
                }
                st.batch = false;
                st.save();
            }
            Msg::AutoSetup => {
                if let Some(s) = st.state() {
                    if is_setup(s.phase) && st.my_turn() {
                        let me = s.current;
                        st.auto_setup.push(me);
                        st.batch = true;
                        let mut n = 0;
                        while n < 5000
                            && st.state().is_some_and(|s| is_setup(s.phase))
                            && st.bot_step()
                        {
                            n += 1;
                        }
                        st.batch = false;
                        st.save();
                    }
                }
            }
            Msg::Reveal => {
                if let Some(p) = st.curtain() {
                    st.viewer = Some(p);
                    st.ui.from = None;
                    st.ui.to = None;
                    st.ui.picked.clear();
                    st.ui.trade_open = false;
                }
            }
            Msg::SetAmount(n) => st.ui.amount = n,
            Msg::SetDice(d) => st.ui.dice = d,
            Msg::SetStop(n) => st.ui.stop_at = n.max(1),
            Msg::ClearSelection => {
                st.ui.from = None;
                st.ui.to = None;
                st.error = None;
            }
            Msg::OpenTrade(o) => {
                st.ui.trade_open = o;
                st.ui.picked.clear();
            }
            Msg::PickCard(c) => {
                if let Some(i) = st.ui.picked.iter().position(|&x| x == c) {
                    st.ui.picked.remove(i);
                } else if st.ui.picked.len() < 3 {
                    st.ui.picked.push(c);
                }
            }
            Msg::SetSpeed(sp) => {
                st.speed = sp;
                store::set(store::SPEED_KEY, sp.key());
            }
            Msg::SetTab(t) => st.ui.tab = t,
            Msg::SetView(v) => st.ui.view = v,
            Msg::DismissError => st.error = None,
            Msg::SetRuleset(o) => {
                st.setup_orders = o;
                #[cfg(not(feature = "full"))]
                if o {
                    st.screen = Screen::OrdersPlay;
                    crate::lite::open_full(crate::lite::Open::Orders, false);
                }
            }
            #[cfg(feature = "full")]
            Msg::OrdersForm(f) => st.oform = f,
            #[cfg(feature = "full")]
            Msg::Orders(m) => {
                let before = st.orders.as_ref().map(|o| o.stage);
                let changed = st.orders.as_mut().is_some_and(|o| o.update(m));
                let shown = before == Some(crate::orders::Stage::Results)
                    || st.orders.as_ref().map(|o| o.stage) == Some(crate::orders::Stage::Results);
                if changed || (shown && before != st.orders.as_ref().map(|o| o.stage)) {
                    st.save();
                }
            }
        }
        // Keep the game mutable only through apply.
        Rc::new(st)
    }
}

#[function_component(App)]
pub fn app() -> Html {
    let app = use_reducer(AppState::load);
    let drag = use_memo((), |_| crate::classic::board::DragRef::default());

    // Bots (and automatic setup placement) act one engine action at a time, at a watchable pace.
    {
        let d = app.dispatcher();
        let step = app.state().map(|s| s.step);
        let machine = app.screen == Screen::Play && app.machine_level().is_some();
        let delay = if app.state().is_some_and(|s| is_setup(s.phase)) {
            30
        } else {
            app.speed.delay_ms()
        };
        use_effect_with((step, machine, delay), move |&(_, machine, delay)| {
            let timer = machine.then(|| {
                gloo::timers::callback::Timeout::new(delay, move || d.dispatch(Msg::BotStep))
            });
            move || drop(timer)
        });
    }

    let hash = app.hash.clone();
    #[cfg(not(feature = "full"))]
    let ophase = None;
    #[cfg(feature = "full")]
    let ophase = app.orders.as_ref().map(|o| {
        use orbis_engine::rules::orders::Phase as P;
        match o.game.phase {
            P::Movement => "orders-movement",
            P::Retreat => "orders-retreat",
            P::Adjustment => "orders-adjustment",
            P::GameOver { .. } => "over",
        }
    });
    let phase = app
        .state()
        .map(|s| match s.phase {
            Phase::Claim => "claim",
            Phase::SetupPlace => "setup",
            Phase::Reinforce { .. } => "reinforce",
            Phase::Attack => "attack",
            Phase::Occupy { .. } => "occupy",
            Phase::Fortify => "fortify",
            Phase::GameOver { .. } => "over",
        })
        .or(ophase)
        .unwrap_or("none");
    let screen = match app.screen {
        Screen::Menu => "menu",
        Screen::Setup => "setup",
        Screen::Play | Screen::OrdersPlay => "play",
        Screen::Online => "online",
    };
    #[cfg(not(feature = "full"))]
    let stage = String::new();
    #[cfg(feature = "full")]
    let stage = app
        .orders
        .as_ref()
        .map(|o| match o.stage {
            crate::orders::Stage::Curtain(p) => {
                format!("curtain-{}", o.map().powers[p as usize].key)
            }
            crate::orders::Stage::Enter(p) => {
                format!("enter-{}", o.map().powers[p as usize].key)
            }
            crate::orders::Stage::Results => "results".into(),
        })
        .unwrap_or_default();
    let current = app
        .state()
        .map(|s| s.current.to_string())
        .unwrap_or_default();
    let turn = app.state().map(|s| s.turn.to_string()).unwrap_or_default();
    let body = match app.screen {
        Screen::Menu => crate::app::menu::menu(&app),
        Screen::Setup => crate::app::menu::setup_screen(&app),
        Screen::Play => crate::classic::panel::play_screen(&app, drag),
        #[cfg(feature = "full")]
        Screen::OrdersPlay => crate::orders::view::play(&app),
        #[cfg(feature = "full")]
        Screen::Online => html! { <crate::online::Online app={app.clone()} drag={drag.clone()} /> },
        #[cfg(not(feature = "full"))]
        Screen::OrdersPlay | Screen::Online => crate::lite::leaving(),
    };
    html! {
        <div id="root" class={classes!("app", format!("screen-{screen}"))}
            data-state-hash={hash} data-phase={phase} data-screen={screen}
            data-current={current} data-turn={turn} data-stage={stage}
            data-my-turn={if app.my_turn() { "1" } else { "0" }}>
            { body }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(st: Rc<AppState>, msg: Msg) -> Rc<AppState> {
        st.reduce(msg)
    }

    #[test]
    fn quick_start_setup_and_a_human_turn() {
        let mut st = Rc::new(AppState::load());
        assert!(st.screen == Screen::Menu);
        st = run(st, Msg::QuickStart);
        assert!(st.screen == Screen::Play);
        st = run(st, Msg::SkipToHuman);
        st = run(st, Msg::AutoSetup);
        st = run(st, Msg::SkipToHuman);
        let s = st.state().unwrap().clone();
        assert!(st.my_turn());
        let Phase::Reinforce { armies } = s.phase else {
            panic!("expected reinforcement, got {:?}", s.phase)
        };
        // Clicking an enemy territory is refused with the engine's explanation.
        let enemy = s
            .map()
            .ids()
            .find(|&t| s.owner[t as usize] != orbis_engine::classic::Owner::Player(s.current))
            .unwrap();
        st = run(st, Msg::Click(enemy));
        assert!(st.error.is_some());
        let mine = s.territories_of(s.current).next().unwrap();
        st = run(st, Msg::SetAmount(armies));
        st = run(st, Msg::Click(mine));
        assert_eq!(st.state().unwrap().phase, Phase::Attack);
        assert_eq!(
            st.state().unwrap().armies[mine as usize],
            s.armies[mine as usize] + armies
        );
        st = run(st, Msg::Act(Action::EndTurn));
        assert!(!st.my_turn());
        assert!(st.log.iter().any(|l| l.contains("places")));
    }

    #[test]
    fn hot_seat_hides_the_board_between_humans() {
        let mut form = SetupForm::default();
        form.seats.truncate(2);
        form.seats[1].kind = SeatKind::Human;
        let mut st = Rc::new(AppState::load());
        st = run(st, Msg::EditForm(form));
        st = run(st, Msg::Start);
        for _ in 0..4 {
            st = run(st, Msg::AutoSetup);
        }
        let mut curtains = 0;
        for _ in 0..4 {
            if let Some(p) = st.curtain() {
                curtains += 1;
                assert!(!st.my_turn(), "nobody acts behind the curtain");
                st = run(st, Msg::Reveal);
                assert_eq!(st.viewer, Some(p));
            }
            let s = st.state().unwrap().clone();
            let Phase::Reinforce { armies } = s.phase else {
                panic!("{:?}", s.phase)
            };
            st = run(st, Msg::SetAmount(armies));
            st = run(st, Msg::Click(s.territories_of(s.current).next().unwrap()));
            st = run(st, Msg::Act(Action::EndTurn));
        }
        assert!(curtains >= 3);
    }

    #[test]
    fn bots_only_game_finishes() {
        let mut form = SetupForm::default();
        form.seats[0].kind = SeatKind::Bot(BotLevel::Easy);
        let mut st = Rc::new(AppState::load());
        st = run(st, Msg::EditForm(form));
        st = run(st, Msg::Start);
        st = run(st, Msg::SkipToHuman);
        assert!(matches!(st.state().unwrap().phase, Phase::GameOver { .. }));
        assert!(st.log.iter().any(|l| l.contains("wins the game")));
    }

    /// The save used by the end-to-end trade test: a human at reinforcement holding five
    /// cards. `ORBIS_WRITE_FIXTURES=1 cargo test -p orbis-web` rewrites it.
    #[test]
    fn forced_trade_fixture() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/e2e/fixtures/trade.orbis"
        );
        if std::env::var_os("ORBIS_WRITE_FIXTURES").is_some() {
            let mut st = Rc::new(AppState::load());
            st = run(st, Msg::QuickStart);
            st = run(st, Msg::SkipToHuman);
            st = run(st, Msg::AutoSetup);
            st = run(st, Msg::SkipToHuman);
            let mut g = st.game.clone().unwrap();
            let s = &mut g;
            let me = s.current as usize;
            let cards: Vec<u8> = s.deck.iter().copied().filter(|&c| c < 42).take(5).collect();
            s.deck.retain(|c| !cards.contains(c));
            s.players[me].hand = cards;
            std::fs::create_dir_all(std::path::Path::new(path).parent().unwrap()).unwrap();
            std::fs::write(path, save_bytes(&g)).unwrap();
        }
        let Ok(Loaded::Classic(g)) = load_bytes(&std::fs::read(path).unwrap()) else {
            panic!("the fixture is a classic game")
        };
        let s = &g;
        assert!(matches!(s.phase, Phase::Reinforce { .. }));
        assert_eq!(s.players[s.current as usize].kind, SeatKind::Human);
        assert_eq!(s.players[s.current as usize].hand.len(), 5);
        assert!(!s.sets_in_hand(s.current).is_empty());
    }
}
