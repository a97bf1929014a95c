//! The application: which screen is open, routing between screens, and the root component.
//!
//! Each ruleset keeps its own state and messages (`classic::play`, `orders`); the online screen
//! drives them through the protocol. This module holds only what no ruleset owns: the screen, the
//! menu's notice, whether a save exists, the setup screen's ruleset choice, and the messages that
//! move between screens (start, continue, import, leave).

mod games;
mod hooks;
mod learn;
pub mod menu;
mod screens;
mod start;

use crate::classic::play::{self as classic, is_setup, Classic};
use crate::savefile::{load_bytes, load_with_history, Loaded};
use crate::store;
use crate::widgets::term::RulesLink;
use crate::widgets::Nav;
use orbis_engine::classic::Phase;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    Menu,
    Setup,
    Play,
    /// A game of the orders ruleset (lite bundle: on the way to the full page).
    OrdersPlay,
    /// Peer-to-peer play (`online`): lobby, then the board driven through the protocol
    /// (lite and full bundles: on the way to the online page).
    Online,
    /// A game of the economy ruleset (lite bundle: on the way to the full page).
    EconomyPlay,
    /// The replay of the autosaved classic game (lite bundle: on the way to the full page).
    Replay,
    /// "My games": every game on this device (`games`).
    Games,
}

/// The ruleset the new-game screen shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ruleset {
    Classic,
    Orders,
    Economy,
}

#[derive(Clone, PartialEq)]
pub struct AppState {
    pub screen: Screen,
    /// The classic game and its screens' state.
    pub classic: Classic,
    /// A message on the menu (e.g. a save that could not be loaded).
    pub notice: Option<String>,
    pub has_save: bool,
    /// The ruleset the setup screen shows.
    pub setup_ruleset: Ruleset,
    /// Hex state hash of the orders game on screen.
    #[cfg(feature = "full")]
    pub orders_hash: String,
    #[cfg(feature = "full")]
    pub oform: crate::orders::OrdersForm,
    /// A game of the orders ruleset (then the classic game is `None`).
    #[cfg(feature = "full")]
    pub orders: Option<crate::orders::OrdersSession>,
    #[cfg(feature = "full")]
    pub eform: crate::economy::EconomyForm,
    /// A game of the economy ruleset (then the other two are `None`).
    #[cfg(feature = "full")]
    pub economy: Option<crate::economy::EconomySession>,
    /// Hex state hash of the economy game on screen.
    #[cfg(feature = "full")]
    pub economy_hash: String,
    /// The replay on screen (`Screen::Replay`).
    #[cfg(feature = "full")]
    pub replay: Option<crate::replay::Viewer>,
    /// How to play, open over the screen (which stays as it was), at this ruleset.
    #[cfg(feature = "full")]
    pub help: Option<crate::help::Book>,
    /// The section How to play opens at (a term's link), if any.
    #[cfg(feature = "full")]
    pub help_at: Option<&'static str>,
    /// A lesson under way ("Learn to play"), on the screen of its ruleset.
    pub tutor: Option<learn::Tutor>,
    /// The saved game was left unread at the start (the page opened for a new-game form or the
    /// online lobby): it is read when the player goes to the menu.
    pub save_unread: bool,
}

#[derive(Clone)]
pub enum Msg {
    ShowMenu,
    ShowSetup,
    /// A game of this ruleset against computer players, with the form's defaults.
    QuickStart(Ruleset),
    Start,
    Continue,
    Import(Result<Vec<u8>, String>),
    ShowOnline,
    /// "My games".
    ShowGames,
    /// Removes the hot-seat game from this device (asked in "My games").
    ForgetSave,
    SetRuleset(Ruleset),
    /// A message of the classic screens.
    Classic(classic::Msg),
    #[cfg(feature = "full")]
    OrdersForm(crate::orders::OrdersForm),
    #[cfg(feature = "full")]
    Orders(crate::orders::OMsg),
    #[cfg(feature = "full")]
    EconomyForm(crate::economy::EconomyForm),
    #[cfg(feature = "full")]
    Economy(crate::economy::EMsg),
    /// The protocol's classic game changed.
    #[cfg(feature = "online")]
    OnlineSync(Box<classic::Sync>),
    /// The protocol's orders game changed (state, results, who has committed).
    #[cfg(feature = "online")]
    OnlineOrders(Box<crate::online::orders::OrdersSync>),
    /// The protocol's economy game changed (state, events, who has committed).
    #[cfg(feature = "online")]
    OnlineEconomy(Box<crate::online::economy::EconomySync>),
    /// Replay an online game's transcript.
    #[cfg(feature = "online")]
    OpenTranscript(Vec<u8>),
    /// Back to the room's lobby after an online game: its screen goes.
    #[cfg(feature = "online")]
    OnlineLobby,
    /// A message of the replay screen.
    #[cfg(feature = "full")]
    Replay(crate::replay::RMsg),
    /// A key pressed on the replay screen (its name, as `KeyboardEvent.key`).
    #[cfg(feature = "full")]
    ReplayKey(&'static str),
    /// Back from How to play to the screen under it.
    #[cfg(feature = "full")]
    CloseRules,
    /// How to play at a section (its element id): a term's link (`widgets::term`).
    RulesAt(&'static str),
    /// The coach of a lesson ("Learn to play").
    Coach(crate::tutorial::Coach),
}

/// The orders screens' view of the app.
#[cfg(feature = "full")]
pub fn orders_view(app: &UseReducerHandle<AppState>) -> crate::orders::View<'_> {
    let d = app.dispatcher();
    crate::orders::View {
        orders: app.orders.as_ref(),
        send: Callback::from(move |m| d.dispatch(Msg::Orders(m))),
    }
}

/// The economy screens' view of the app.
#[cfg(feature = "full")]
pub fn economy_view(app: &UseReducerHandle<AppState>) -> crate::economy::View<'_> {
    let d = app.dispatcher();
    let d2 = app.dispatcher();
    crate::economy::View {
        eco: app.economy.as_ref(),
        send: Callback::from(move |m| d.dispatch(Msg::Economy(m))),
        speed: app.classic.speed,
        on_speed: Callback::from(move |s| d2.dispatch(Msg::Classic(classic::Msg::SetSpeed(s)))),
    }
}

/// The classic screens' view of the app: the classic state, with messages wrapped for the app.
pub fn classic_view(app: &UseReducerHandle<AppState>) -> classic::View<'_> {
    let d = app.dispatcher();
    classic::View {
        st: &app.classic,
        send: Callback::from(move |m| d.dispatch(Msg::Classic(m))),
    }
}

impl AppState {
    /// Startup: resume the autosave if there is one, else the menu (with a message if the save
    /// is unreadable).
    pub fn load() -> AppState {
        Self::load_state(false)
    }

    /// [`AppState::load`]; `menu`: for the menu, so the saved game is read even where the
    /// address still names a room (a `?room=` the hash cannot clear).
    fn load_state(menu: bool) -> AppState {
        let mut st = AppState {
            screen: Screen::Menu,
            classic: Classic::new(),
            notice: None,
            has_save: false,
            setup_ruleset: Ruleset::Classic,
            #[cfg(feature = "full")]
            orders_hash: String::new(),
            #[cfg(feature = "full")]
            oform: Default::default(),
            #[cfg(feature = "full")]
            orders: None,
            #[cfg(feature = "full")]
            eform: Default::default(),
            #[cfg(feature = "full")]
            economy: None,
            #[cfg(feature = "full")]
            economy_hash: String::new(),
            #[cfg(feature = "full")]
            replay: None,
            #[cfg(feature = "full")]
            help: None,
            #[cfg(feature = "full")]
            help_at: None,
            tutor: None,
            save_unread: false,
        };
        let room = store::url_param("room").is_some() || store::url_param("offer").is_some();
        let open = store::url_param("open");
        // The online page opened for its lobby (a room link, or "Play online…" on another page)
        // reads no saved game: the lobby needs none, and the page's first part holds only what
        // shows the menu and the lobby (tools/split-online.py); reading a save runs the rest.
        // The save is read when the player goes to the menu (`show_menu` loads the state again).
        let lobby =
            cfg!(feature = "online") && !menu && (room || open.as_deref() == Some("online"));
        // So does the full page opened for a new-game form ("New game…" and a ruleset on the lite
        // page): its first part holds the menu and the forms, not the games (tools/split-page.py).
        let form = cfg!(feature = "full")
            && !menu
            && !room
            && matches!(open.as_deref(), Some("orders" | "economy"));
        st.save_unread = (lobby || form) && store::get(store::SAVE_KEY).is_some();
        if let Some(text) = store::get(store::SAVE_KEY).filter(|_| !lobby && !form) {
            let loaded = store::b64_decode(&text)
                .ok_or_else(|| "the saved text is not valid".to_string())
                .and_then(|b| load_bytes(&b));
            match loaded {
                Ok(Loaded::Classic(g)) => {
                    // The history, if it belongs to this very save.
                    st.classic.history = hooks::autosave_history(&text);
                    st.classic.log = store::get(store::LOG_KEY)
                        .map(|l| l.lines().map(String::from).collect())
                        .unwrap_or_default();
                    st.start_classic(g, false);
                }
                // A first visit shows the menu (its Continue sends the player on).
                #[cfg(not(feature = "full"))]
                Ok(Loaded::FullPage) if !menu && !store::was_playing() => st.has_save = true,
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
                    st.start_orders(
                        g,
                        seats.chars().map(crate::orders::Seat::from_code).collect(),
                        hooks::autosave_history(&text),
                    );
                    if let (Some(o), Some(b)) = (st.orders.as_mut(), ui) {
                        o.restore_ui(&b);
                        st.save();
                    }
                }
                #[cfg(feature = "full")]
                Ok(Loaded::Economy(g)) => {
                    let seats = store::get(store::ECONOMY_SEATS_KEY).unwrap_or_default();
                    let ui = store::get(store::ECONOMY_UI_KEY).and_then(|t| store::b64_decode(&t));
                    st.start_economy(
                        *g,
                        seats.chars().map(crate::economy::Seat::from_code).collect(),
                        hooks::autosave_history(&text),
                    );
                    if let (Some(e), Some(b)) = (st.economy.as_mut(), ui) {
                        e.restore_ui(&b);
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
        // "My games", asked for on another page or by a scanned key's link (`#key=…`).
        if open.as_deref() == Some("games") || store::url_param("key").is_some() {
            st.screen = Screen::Games;
        }
        // A new visit (not a reload, nor a hand-over between the pages in this tab) opens on
        // the menu, its "Continue your game" first, rather than inside the saved game.
        let game = matches!(
            st.screen,
            Screen::Play | Screen::OrdersPlay | Screen::EconomyPlay
        );
        if game && !menu && !store::was_playing() {
            st.screen = Screen::Menu;
        }
        if room || open.as_deref() == Some("online") {
            st.screen = Screen::Online;
            // A room link or the lobby, opened on a page without online play (a link of an
            // earlier version may name the full page): on to the online page.
            #[cfg(not(feature = "online"))]
            crate::lite::open_online(crate::lite::Open::Resume, true);
        }
        #[cfg(feature = "full")]
        if !room {
            // Sent here by another page (`lite`): show what the player chose, once.
            if open.as_deref() == Some("orders") {
                st.screen = Screen::Setup;
                st.setup_ruleset = Ruleset::Orders;
            }
            if open.as_deref() == Some("economy") {
                st.screen = Screen::Setup;
                st.setup_ruleset = Ruleset::Economy;
            }
            // A quick game chosen on the lite page.
            if open.as_deref() == Some("quick-orders") {
                st.quick_start(Ruleset::Orders);
            }
            if open.as_deref() == Some("quick-economy") {
                st.quick_start(Ruleset::Economy);
            }
            if open.as_deref() == Some("replay") {
                st.open_replay();
            }
            // How to play, asked for on the lite page: over the autosaved game, or the menu.
            if open.as_deref() == Some("rules") {
                st.nav(Nav::Rules);
                // At a term's section, from a term's link on the lite page.
                if let Some(at) = store::url_param("at") {
                    st.rules_at(&at);
                }
            }
            // Learn to play, asked for on the lite page.
            if open.as_deref() == Some("learn") {
                st.coach(crate::tutorial::Coach::Start(learn::asked_course()));
            }
            // Not while leaving for the online page, which reads it.
            if cfg!(feature = "online") || open.as_deref() != Some("online") {
                hooks::forget_open_param();
            }
        }
        st.sync_screen();
        st
    }

    /// Opens the replay of the classic game (the full page's viewer; the lite page sends the
    /// player there), or says on the menu why it cannot be replayed.
    fn open_replay(&mut self) {
        #[cfg(not(feature = "full"))]
        {
            self.screen = Screen::Replay;
            crate::lite::open_full(crate::lite::Open::Replay, false);
        }
        #[cfg(feature = "full")]
        {
            let c = &self.classic;
            let opened = match (&c.game, &c.history, &self.orders) {
                _ if self.economy.is_some() => match self.economy.as_ref().and_then(|e| {
                    e.history
                        .as_ref()
                        .filter(|_| e.online.is_none())
                        .map(|h| (e, h))
                }) {
                    Some((e, h)) => crate::replay::economy::EconomyReplay::new(h, &e.game)
                        .map(crate::replay::Viewer::Economy),
                    None => Err(NO_HISTORY.into()),
                },
                (_, _, Some(o)) => match &o.history {
                    Some(h) => crate::replay::orders::OrdersReplay::new(h, o)
                        .map(crate::replay::Viewer::Orders),
                    None => Err(NO_HISTORY.into()),
                },
                (Some(g), Some(h), _) => {
                    crate::replay::Replay::new(h, g).map(crate::replay::Viewer::Classic)
                }
                (Some(_), None, _) => Err(NO_HISTORY.into()),
                (None, _, _) => Err("There is no game to replay.".into()),
            };
            match opened {
                Ok(r) => {
                    self.replay = Some(r);
                    self.screen = Screen::Replay;
                }
                Err(e) => {
                    self.notice = Some(format!("This game cannot be replayed: {e}"));
                    self.show_menu();
                }
            }
        }
    }

    /// The state hash of the game on screen (`data-state-hash`).
    pub fn hash(&self) -> String {
        #[cfg(feature = "full")]
        if let (Screen::Replay, Some(r)) = (self.screen, &self.replay) {
            return r.hash().to_string();
        }
        #[cfg(feature = "full")]
        if self.orders.is_some() {
            return self.orders_hash.clone();
        }
        #[cfg(feature = "full")]
        if self.economy.is_some() {
            return self.economy_hash.clone();
        }
        self.classic.hash.clone()
    }

    /// Keeps the classic state told whether its play screen is the one shown.
    fn sync_screen(&mut self) {
        self.classic.on_screen = self.screen == Screen::Play;
        // A reload of this tab resumes a game on screen; from the menu it shows the menu.
        let game = matches!(
            self.screen,
            Screen::Play | Screen::OrdersPlay | Screen::EconomyPlay
        );
        if self.screen == Screen::Menu || (game && self.tutor.is_none()) {
            store::mark_playing(game);
        }
    }

    /// How to play at a term's section (`at`, one of the glossary's anchors): over the screen on
    /// the full page, on the full page from the lite one.
    fn rules_at(&mut self, at: &str) {
        #[cfg(feature = "full")]
        {
            let known = crate::widgets::glossary::anchor(at);
            self.help =
                Some(crate::help::Book::from_anchor(at).unwrap_or(crate::help::Book::Classic));
            self.help_at = known;
        }
        #[cfg(not(feature = "full"))]
        crate::lite::open_full_rules(at);
    }

    fn nav(&mut self, n: Nav) {
        match n {
            Nav::Menu => self.leave_lesson(),
            Nav::Setup => self.screen = Screen::Setup,
            Nav::Replay => self.open_replay(),
            // The full page shows How to play over the screen, at the game's ruleset; the lite
            // page carries no rules text and opens it there (the game is autosaved).
            #[cfg(feature = "full")]
            Nav::Rules => {
                self.help_at = None;
                self.help = Some(if self.economy.is_some() {
                    crate::help::Book::Economy
                } else if self.orders.is_some() {
                    crate::help::Book::Orders
                } else if self.screen == Screen::Setup {
                    match self.setup_ruleset {
                        Ruleset::Classic => crate::help::Book::Classic,
                        Ruleset::Orders => crate::help::Book::Orders,
                        Ruleset::Economy => crate::help::Book::Economy,
                    }
                } else {
                    crate::help::Book::Classic
                })
            }
            #[cfg(not(feature = "full"))]
            Nav::Rules => crate::lite::open_full(crate::lite::Open::Rules, false),
            Nav::Continue => {
                // The lite page's menu for an orders or economy game: on to the full page.
                #[cfg(not(feature = "full"))]
                if self.classic.game.is_none() && self.has_save {
                    // On screen while the full page loads (`sync_screen` marks the tab playing,
                    // so the full page resumes the game rather than show its menu).
                    self.screen = Screen::OrdersPlay;
                    crate::lite::open_full(crate::lite::Open::Resume, false);
                    return;
                }
                if self.classic.is_online() {
                    // Back from the replay of an online game: to its room.
                    self.screen = Screen::Online;
                } else if self.has_economy_game() {
                    self.screen = Screen::EconomyPlay;
                } else if self.has_orders_game() {
                    self.screen = Screen::OrdersPlay;
                } else if self.classic.game.is_some() {
                    self.screen = Screen::Play;
                }
            }
        }
    }

    fn show_menu(&mut self) {
        #[cfg(feature = "online")]
        if self.classic.is_online() || self.screen == Screen::Online {
            let _ = web_sys::window().map(|w| w.location().set_hash(""));
            *self = AppState::load_state(true);
        }
        // Unless a game was started since.
        let playing =
            self.classic.game.is_some() || self.has_orders_game() || self.has_economy_game();
        if self.save_unread && !playing {
            *self = AppState::load_state(true);
        }
        self.screen = Screen::Menu;
        // Any saved game: an orders or economy game leaves `classic.game` empty (the menu hid
        // Continue for those after the lobby's Back).
        self.has_save =
            self.classic.game.is_some() || self.has_orders_game() || self.has_economy_game();
    }
}

impl Reducible for AppState {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        let mut st = (*self).clone();
        match msg {
            Msg::ShowMenu => st.nav(Nav::Menu),
            Msg::ShowSetup => st.nav(Nav::Setup),
            Msg::Continue => st.nav(Nav::Continue),
            Msg::Classic(classic::Msg::Nav(n)) => st.nav(n),
            #[cfg(feature = "full")]
            Msg::Orders(crate::orders::OMsg::Nav(n)) => st.nav(n),
            #[cfg(feature = "full")]
            Msg::Economy(crate::economy::EMsg::Nav(n)) => st.nav(n),
            Msg::Classic(m) => st.lesson_classic(m),
            Msg::Coach(c) => st.coach(c),
            Msg::ShowOnline => {
                st.screen = Screen::Online;
                #[cfg(not(feature = "online"))]
                crate::lite::open_online(crate::lite::Open::Online, false);
            }
            #[cfg(feature = "online")]
            Msg::OnlineSync(sync) => st.classic.online_sync(*sync),
            #[cfg(feature = "online")]
            Msg::OnlineLobby => {
                st.classic.game = None;
                st.classic.remote = None;
                st.orders = None;
                st.economy = None;
                st.screen = Screen::Online;
            }
            #[cfg(feature = "online")]
            Msg::OnlineEconomy(e) => screens::online_economy(&mut st, *e),
            #[cfg(feature = "online")]
            Msg::OpenTranscript(b) => screens::open_transcript(&mut st, &b),
            #[cfg(feature = "online")]
            Msg::OnlineOrders(o) => screens::online_orders(&mut st, *o),
            Msg::QuickStart(r) => st.quick_start(r),
            Msg::ShowGames => st.screen = Screen::Games,
            Msg::ForgetSave => {
                crate::games::forget_save();
                st = AppState::load_state(true);
                st.screen = Screen::Games;
            }
            #[cfg(feature = "full")]
            Msg::Start if st.setup_ruleset == Ruleset::Orders => {
                let f = st.oform.clone();
                st.new_orders_game(&f)
            }
            #[cfg(feature = "full")]
            Msg::Start if st.setup_ruleset == Ruleset::Economy => {
                let f = st.eform.clone();
                st.new_economy_game(&f)
            }
            Msg::Start => {
                let f = st.classic.form.clone();
                st.new_classic_game(&f);
            }
            Msg::Import(Ok(bytes)) => match load_with_history(&bytes) {
                Ok((Loaded::Classic(g), history)) => {
                    st.notice = None;
                    st.classic.history = history;
                    st.classic.log = vec!["Game loaded from a save file.".into()];
                    st.start_classic(g, false);
                }
                #[cfg(feature = "full")]
                Ok((Loaded::Orders(g), h)) => st.start_orders(g, vec![], h),
                #[cfg(feature = "full")]
                Ok((Loaded::Economy(g), h)) => st.start_economy(*g, vec![], h),
                // The full page opens it as the autosave, as the full bundle's import would.
                #[cfg(not(feature = "full"))]
                Ok((Loaded::FullPage, h)) => {
                    // A file with a history: the save as the autosave, the file beside it.
                    match crate::savefile::split_replay_file(&bytes).filter(|_| h.is_some()) {
                        Some((save, _)) => {
                            store::set(store::SAVE_KEY, &store::b64_encode(save));
                            store::set(store::HISTORY_KEY, &store::b64_encode(&bytes));
                        }
                        None => {
                            store::set(store::SAVE_KEY, &store::b64_encode(&bytes));
                            store::remove(store::HISTORY_KEY);
                        }
                    }
                    store::remove(store::LOG_KEY);
                    store::remove(store::ORDERS_SEATS_KEY); // every power human, as on import
                    store::remove(store::ORDERS_UI_KEY);
                    store::remove(store::ECONOMY_SEATS_KEY);
                    store::remove(store::ECONOMY_UI_KEY);
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
            Msg::SetRuleset(r) => {
                st.setup_ruleset = r;
                #[cfg(not(feature = "full"))]
                if r != Ruleset::Classic {
                    st.screen = Screen::OrdersPlay;
                    crate::lite::open_full(
                        if r == Ruleset::Orders {
                            crate::lite::Open::Orders
                        } else {
                            crate::lite::Open::Economy
                        },
                        false,
                    );
                }
            }
            #[cfg(feature = "full")]
            Msg::Replay(m) => {
                if let Some(r) = st.replay.as_mut() {
                    r.update(m);
                }
            }
            #[cfg(feature = "full")]
            Msg::ReplayKey(k) => {
                if let Some(r) = st.replay.as_mut() {
                    if let Some(m) = crate::replay::key_msg(k, r.len()) {
                        r.update(m);
                    }
                }
            }
            #[cfg(feature = "full")]
            Msg::CloseRules => {
                st.help = None;
                st.help_at = None;
            }
            Msg::RulesAt(at) => st.rules_at(at),
            #[cfg(feature = "full")]
            Msg::OrdersForm(f) => st.oform = f,
            #[cfg(feature = "full")]
            Msg::EconomyForm(f) => st.eform = f,
            #[cfg(feature = "full")]
            Msg::Economy(m) if st.lesson_economy(&m) => {}
            #[cfg(feature = "full")]
            Msg::Economy(m) => {
                if st.economy.as_mut().is_some_and(|e| e.update(m)) {
                    st.save();
                } else if let Some(e) = st.economy.as_ref().filter(|e| e.online.is_none()) {
                    // UI state only (a draft, a selection): kept beside the autosave.
                    store::set(store::ECONOMY_UI_KEY, &store::b64_encode(&e.ui_bytes()));
                }
            }
            #[cfg(feature = "full")]
            Msg::Orders(m) if st.lesson_orders(&m) => {}
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
        st.sync_screen();
        Rc::new(st)
    }
}

/// Why a game has no Replay.
pub const NO_HISTORY: &str =
    "it was saved before Orbis kept a game's history (or its history grew too long to keep).";

#[function_component(App)]
pub fn app() -> Html {
    let app = use_reducer(AppState::load);
    let drag = use_memo((), |_| crate::classic::board::DragRef::default());
    // A rules term's link, for every `Term` on every screen: How to play at its section.
    let rules_link = {
        let d = app.dispatcher();
        use_memo((), move |_| {
            RulesLink(Callback::from(move |at| d.dispatch(Msg::RulesAt(at))))
        })
    };
    let c = &app.classic;

    // Bots (and automatic setup placement) act one engine action at a time, at a watchable pace.
    {
        let d = app.dispatcher();
        let step = c.state().map(|s| s.step);
        // Not while How to play is open over the game: the player is reading.
        let machine = app.screen == Screen::Play && c.machine_level().is_some() && !help_open(&app);
        let setup = c.state().is_some_and(|s| is_setup(s.phase));
        let delay = if c.skipping || setup && !c.auto_setup.is_empty() {
            // "Skip to my turn", or a player's setup placed for them (which the page did at
            // once before the computer moved to the worker): as fast as the worker answers.
            0
        } else if setup {
            30
        } else {
            c.speed.delay_ms()
        };
        // The computer thinks in the worker (crate::think), so the page answers meanwhile; its
        // choice is played if the game is still at this step when it comes.
        let h = app.clone();
        use_effect_with((step, machine, delay), move |&(_, machine, delay)| {
            let c = &h.classic;
            let job = machine.then(|| c.state().cloned().zip(c.machine_level()));
            let timer = job.flatten().map(|(s, level)| {
                gloo::timers::callback::Timeout::new(delay, move || {
                    let step = s.step;
                    crate::think::classic(&s, level, move |a, ms| {
                        d.dispatch(Msg::Classic(classic::Msg::BotAct(step, a, ms)))
                    })
                })
            });
            move || drop(timer)
        });
    }

    hooks::use_economy_timers(&app);
    hooks::use_orders_computers(&app);
    hooks::use_replay_keys(&app);
    hooks::use_board_scroll(&app);

    let hash = app.hash();
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
    #[cfg(feature = "full")]
    let ophase = ophase.or_else(|| {
        app.economy.as_ref().map(|e| {
            use orbis_engine::rules::economy::phase::Phase as P;
            match e.game.phase {
                P::Pick(_) => "economy-pick",
                P::Place => "economy-place",
                P::Get => "economy-get",
                P::Planning => "economy-planning",
                P::Moving => "economy-moving",
                P::Combat => "economy-combat",
                P::Over => "over",
            }
        })
    });
    let phase = c
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
        _ if help_open(&app) => "help",
        Screen::Menu => "menu",
        Screen::Setup => "setup",
        Screen::Play | Screen::OrdersPlay | Screen::EconomyPlay => "play",
        Screen::Online => "online",
        Screen::Replay => "replay",
        Screen::Games => "games",
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
            // The computer powers are writing their orders (in the worker).
            crate::orders::Stage::Results if o.thinking => "thinking".into(),
            crate::orders::Stage::Results => "results".into(),
        })
        .unwrap_or_default();
    let current = c.state().map(|s| s.current.to_string()).unwrap_or_default();
    let turn = c.state().map(|s| s.turn.to_string()).unwrap_or_default();
    let body = match app.screen {
        Screen::Menu => menu::menu(&app),
        Screen::Setup => menu::setup_screen(&app),
        Screen::Games => html! { <games::MyGames app={app.clone()} /> },
        Screen::Play => crate::classic::panel::play_screen(&classic_view(&app), drag),
        #[cfg(feature = "full")]
        Screen::OrdersPlay => crate::orders::view::play(&orders_view(&app)),
        #[cfg(not(feature = "full"))]
        Screen::OrdersPlay | Screen::EconomyPlay | Screen::Replay => crate::lite::leaving(),
        #[cfg(feature = "full")]
        Screen::Replay => screens::replay_screen(&app, drag),
        #[cfg(feature = "full")]
        Screen::EconomyPlay => crate::economy::panel::play(&economy_view(&app)),
        #[cfg(feature = "online")]
        Screen::Online => screens::online_screen(&app, drag),
        #[cfg(not(feature = "online"))]
        Screen::Online => crate::lite::leaving(),
    };
    // How to play is drawn over the screen, which stays mounted but hidden (web/style-help.css):
    // an online game keeps its connection, and Back finds every screen as it was.
    #[cfg(feature = "full")]
    let help = match app.help {
        Some(book) => {
            let d = app.dispatcher();
            let on_back = Callback::from(move |_| d.dispatch(Msg::CloseRules));
            let at = app.help_at;
            html! { <crate::help::HowToPlay {book} {on_back} {at} /> }
        }
        None => html! {},
    };
    #[cfg(not(feature = "full"))]
    let help = html! {};
    html! {
        <div id="root" class={classes!("app", format!("screen-{screen}"), help_open(&app).then_some("help-open"), app.tutor.is_some().then_some("lesson-on"))}
            data-state-hash={hash} data-phase={phase} data-screen={screen}
            data-current={current} data-turn={turn} data-stage={stage}
            data-my-turn={if c.my_turn() { "1" } else { "0" }}>
            if crate::think::stale() {
                <div class="error" id="stale-worker" role="alert">
                    {"Orbis was updated while this page was open. Reload the page to get the new version: until then the computer players think on this page, which may pause it for a moment. "}
                    <button class="btn small" id="stale-reload" onclick={Callback::from(|_: MouseEvent| {
                        if let Some(w) = web_sys::window() {
                            let _ = w.location().reload();
                        }
                    })}>{"Reload"}</button>
                </div>
            }
            { help }
            { learn::coach_panel(&app) }
            <ContextProvider<RulesLink> context={(*rules_link).clone()}>
                { body }
            </ContextProvider<RulesLink>>
        </div>
    }
}

/// How to play is open over the screen (never on the lite page, which has no rules text).
fn help_open(app: &AppState) -> bool {
    #[cfg(feature = "full")]
    return app.help.is_some();
    #[cfg(not(feature = "full"))]
    {
        let _ = app;
        false
    }
}
