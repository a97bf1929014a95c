//! Starting, resuming and autosaving a game of each ruleset, and the quick games of the menu:
//! one click to a game against computer players with each ruleset's form defaults.

use super::{AppState, Ruleset, Screen};
use crate::classic::play::SetupForm;
#[cfg(feature = "full")]
use crate::store;
use orbis_engine::classic::ClassicState;
#[cfg(feature = "full")]
use orbis_engine::rules::Game;

impl AppState {
    /// Shows a classic game: new, loaded or the autosave.
    pub(super) fn start_classic(&mut self, g: ClassicState, fresh: bool) {
        #[cfg(feature = "full")]
        {
            self.orders = None;
            self.economy = None;
        }
        self.screen = Screen::Play;
        self.has_save = true;
        self.sync_screen();
        self.classic.start_with(g, fresh);
    }

    pub(super) fn new_classic_game(&mut self, form: &SetupForm) {
        match self.classic.new_game(form) {
            Ok(()) => {
                #[cfg(feature = "full")]
                {
                    self.orders = None;
                    self.economy = None;
                }
                self.notice = None;
                self.screen = Screen::Play;
                self.has_save = true;
            }
            Err(e) => self.notice = Some(e),
        }
    }

    /// Starts (or resumes) an orders game; `seats` per power of the map (missing: human).
    #[cfg(feature = "full")]
    pub(super) fn start_orders(
        &mut self,
        g: orbis_engine::rules::orders::OrdersState,
        seats: Vec<crate::orders::Seat>,
        history: Option<crate::savefile::History>,
    ) {
        let mut o = crate::orders::OrdersSession::new(g, seats);
        o.history = history;
        self.classic.game = None;
        self.economy = None;
        self.orders = Some(o);
        self.screen = Screen::OrdersPlay;
        self.has_save = true;
        self.notice = None;
        self.classic.error = None;
        self.save();
    }

    #[cfg(feature = "full")]
    pub(super) fn new_orders_game(&mut self, f: &crate::orders::OrdersForm) {
        let g = orbis_engine::rules::orders::OrdersState::new_for(
            &f.map_id,
            f.options.clone(),
            f.players,
        );
        match g {
            Ok(g) => {
                let start = Game::Orders(g.clone()).to_save();
                let h = crate::savefile::History::from_start(start);
                self.start_orders(g, f.seats.clone(), Some(h));
                if let Some(o) = self.orders.as_mut().filter(|o| o.effort != f.think) {
                    o.effort = f.think;
                    self.save();
                }
            }
            Err(e) => self.notice = Some(e.to_string()),
        }
    }

    /// Starts (or resumes) an economy game; `seats` per player (missing: human).
    #[cfg(feature = "full")]
    pub(super) fn start_economy(
        &mut self,
        g: orbis_engine::rules::economy::state::EconomyState,
        seats: Vec<crate::economy::Seat>,
        history: Option<crate::savefile::History>,
    ) {
        let mut e = crate::economy::EconomySession::new(g, seats);
        e.history = history;
        self.classic.game = None;
        self.orders = None;
        self.economy = Some(e);
        self.screen = Screen::EconomyPlay;
        self.has_save = true;
        self.notice = None;
        self.classic.error = None;
        self.save();
    }

    #[cfg(feature = "full")]
    pub(super) fn new_economy_game(&mut self, f: &crate::economy::EconomyForm) {
        let names: Vec<&str> = f.players.iter().map(|(n, _)| n.as_str()).collect();
        let seed = store::new_seed();
        match orbis_engine::rules::economy::state::EconomyState::new(
            &names,
            f.options.clone(),
            seed,
        ) {
            Ok((g, events)) => {
                let start = Game::Economy(g.clone()).to_save();
                let h = crate::savefile::History::from_start(start);
                self.start_economy(g, f.players.iter().map(|p| p.1).collect(), Some(h));
                if let Some(e) = self.economy.as_mut() {
                    e.log_events(&events);
                }
                self.save();
            }
            Err(e) => self.notice = Some(crate::economy::text::cap(&e.to_string())),
        }
    }

    /// An orders game is loaded (never in the lite bundle).
    pub(super) fn has_orders_game(&self) -> bool {
        #[cfg(feature = "full")]
        return self.orders.is_some();
        #[cfg(not(feature = "full"))]
        false
    }

    /// Autosaves the game on screen (an online one is never saved: its transcript is the record).
    #[cfg(feature = "full")]
    pub(super) fn save(&mut self) {
        // A lesson's game is never saved over the player's own.
        if self.classic.is_online() || self.tutor.is_some() {
            return;
        }
        if let Some(o) = &self.orders {
            let g = Game::Orders(o.game.clone());
            self.orders_hash = g.state_hash().to_hex();
            let save = g.to_save();
            match &o.history {
                Some(h) => store::set(
                    store::HISTORY_KEY,
                    &store::b64_encode(&crate::savefile::to_replay_file(&save, h)),
                ),
                None => store::remove(store::HISTORY_KEY),
            }
            store::set(store::SAVE_KEY, &store::b64_encode(&save));
            store::set(store::ORDERS_UI_KEY, &store::b64_encode(&o.ui_bytes()));
            let codes: String = o.seats.iter().map(|s| s.code()).collect();
            store::set(store::ORDERS_SEATS_KEY, &codes);
            return;
        }
        if let Some(e) = &self.economy {
            let g = Game::Economy(e.game.clone());
            self.economy_hash = g.state_hash().to_hex();
            let save = g.to_save();
            match &e.history {
                Some(h) => store::set(
                    store::HISTORY_KEY,
                    &store::b64_encode(&crate::savefile::to_replay_file(&save, h)),
                ),
                None => store::remove(store::HISTORY_KEY),
            }
            store::set(store::SAVE_KEY, &store::b64_encode(&save));
            store::set(store::ECONOMY_UI_KEY, &store::b64_encode(&e.ui_bytes()));
            let codes: String = e.seats.iter().map(|s| s.code()).collect();
            store::set(store::ECONOMY_SEATS_KEY, &codes);
            return;
        }
        self.classic.save();
    }

    /// An economy game is loaded (never in the lite bundle).
    pub(super) fn has_economy_game(&self) -> bool {
        #[cfg(feature = "full")]
        return self.economy.is_some();
        #[cfg(not(feature = "full"))]
        false
    }

    /// A quick game of `r` from the menu: the human plays one seat, every other seat is a
    /// `normal` computer, everything else is the ruleset's form default. The custom forms are left
    /// as the player set them. The lite page has no orders or economy: it opens the full page,
    /// which starts the game (`open=quick-orders`, `open=quick-economy`).
    pub(super) fn quick_start(&mut self, r: Ruleset) {
        match r {
            Ruleset::Classic => self.new_classic_game(&SetupForm::default()),
            #[cfg(feature = "full")]
            Ruleset::Orders => {
                let f = quick_orders_form();
                self.new_orders_game(&f);
            }
            #[cfg(feature = "full")]
            Ruleset::Economy => {
                let f = quick_economy_form();
                self.new_economy_game(&f);
            }
            #[cfg(not(feature = "full"))]
            Ruleset::Orders | Ruleset::Economy => {
                self.screen = Screen::OrdersPlay;
                crate::lite::open_full(
                    if r == Ruleset::Orders {
                        crate::lite::Open::QuickOrders
                    } else {
                        crate::lite::Open::QuickEconomy
                    },
                    false,
                );
            }
        }
    }
}

/// The power a quick orders game gives the human: France, whose borders are easy to read and
/// which the How to play examples use.
#[cfg(feature = "full")]
pub const QUICK_POWER: &str = "FRANCE";

/// The orders form's defaults (Europe 1901, seven powers) with the human at France and the other
/// six powers played by `normal` computers.
#[cfg(feature = "full")]
pub fn quick_orders_form() -> crate::orders::OrdersForm {
    use orbis_engine::rules::classic::BotLevel;
    let mut f = crate::orders::OrdersForm::default();
    let map = f.map();
    f.seats = map
        .powers
        .iter()
        .map(|p| {
            if p.key == QUICK_POWER {
                crate::orders::Seat::Human
            } else {
                crate::orders::Seat::Computer(BotLevel::Normal)
            }
        })
        .collect();
    f
}

/// The economy form's defaults: one human and two `normal` computers, the standard rules.
#[cfg(feature = "full")]
pub fn quick_economy_form() -> crate::economy::EconomyForm {
    use orbis_engine::rules::classic::BotLevel;
    let mut f = crate::economy::EconomyForm::default();
    for (i, p) in f.players.iter_mut().enumerate() {
        p.1 = if i == 0 {
            crate::economy::Seat::Human
        } else {
            crate::economy::Seat::Computer(BotLevel::Normal)
        };
    }
    f
}
