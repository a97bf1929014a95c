//! Hot-seat play of the economy ruleset (source 004).
//!
//! All rules are in `orbis_engine::rules::economy`: this module keeps UI state (who is at the
//! device, the plans being drafted, the selection on the map, the log) and turns the panel's
//! choices into `EconomyAction`s. The panel offers what the engine lists (`withdraw_options`,
//! `landing_options`, `onward_options`, …) and every action is applied by the engine on a copy,
//! so what the screen accepts is exactly what the rules accept; a refusal is shown as the
//! engine's own message.
//!
//! Invariant: `game` changes only through `EconomyState::apply`; plans drafted by one player
//! are on screen only between that player's "show my plans" and their submission.

pub mod battle_odds;
pub mod board;
pub mod combat;
pub mod controls;
pub mod form;
pub mod get;
pub mod glyphs;
pub mod online;
pub mod outcome;
pub mod panel;
pub mod place;
pub mod planview;
pub mod rollon;
pub mod summary;
pub mod text;

pub use form::{EconomyForm, Seat};

use crate::widgets::{clock_ms, record_bot_ms, Nav, Sender};
use orbis_engine::bot::economy::choose;
use orbis_engine::rules::classic::{BotLevel, PlayerId};
use orbis_engine::rules::economy::action::{EconomyAction as A, EconomyEvent};
use orbis_engine::rules::economy::battlefield::Site;
use orbis_engine::rules::economy::map::{EconomyMap, RegionId};
use orbis_engine::rules::economy::phase::{BaseKey, Phase};
use orbis_engine::rules::economy::state::EconomyState;
use orbis_engine::rules::economy::units::{Force, PlannedMove};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use yew::Callback;

/// Player colours, by seat (colour-blind safe with the patterns of `board`).
pub const COLOURS: [&str; 6] = [
    "#d62839", "#1f6fe5", "#2a9d4b", "#e0a800", "#8a4fbf", "#f07f2e",
];

pub fn colour(p: PlayerId) -> &'static str {
    COLOURS[p as usize % COLOURS.len()]
}

/// How long the last players have to plan once a majority has submitted (source 004: "one
/// minute").
pub const PLANNING_MINUTE_MS: i64 = 60_000;

/// UI state of an economy game: none of it is a rule.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Ui {
    /// The region selected on the map (a country to recruit in, the start of a move).
    pub sel: Option<RegionId>,
    /// The second region of a move.
    pub to: Option<RegionId>,
    /// How many armies and navies the move or recruit takes.
    pub armies: u32,
    pub navies: u32,
    /// Plans drafted, per player, until submitted.
    pub drafts: BTreeMap<PlayerId, Vec<PlannedMove>>,
    /// Planning: the player whose plans are on screen (after "pass the device").
    pub shown: Option<PlayerId>,
    /// Influence cards chosen to trade.
    pub cards: Vec<RegionId>,
    /// Newest first.
    pub log: Vec<String>,
    pub error: Option<String>,
    /// When the planning minute ends (ms since 1970), once a majority has submitted.
    pub deadline: Option<i64>,
    /// What the last action did in the battle on screen (its rolls, spelled out).
    pub last_roll: Option<String>,
    /// The units each side has lost in that battle.
    #[serde(default)]
    pub losses: outcome::Losses,
    /// The standard start being drafted.
    pub place: place::PlaceDraft,
    /// What a click on the map adds to it.
    #[serde(default)]
    pub place_tool: place::PlaceTool,
    /// Withdraw buttons burn the roads of the country left behind / stay after interception.
    pub burn: bool,
    pub stay: bool,
    /// The part of the map on screen (zoom), `None` for the players' area; not saved.
    #[serde(skip)]
    pub view: Option<[f32; 4]>,
    /// Where a mouse drag on the map began (a move dragged from there to where it ends).
    #[serde(skip)]
    pub drag: Option<RegionId>,
    /// The game came from a file, which holds no seats: every seat is human until someone says
    /// otherwise, and the seats box says so until a seat is set; not saved.
    #[serde(skip)]
    pub seats_unknown: bool,
    /// The seats box was opened for unknown seats: it stays open while seats are set (closing it
    /// under the player's pointer after the first choice would hide the others); not saved.
    #[serde(skip)]
    pub seats_open: bool,
    /// Why rolling on stopped, with the round and the battle it stopped in (shown while that
    /// battle lasts); not saved.
    #[serde(skip)]
    pub roll_note: Option<(u32, Site, String)>,
    /// The attack this page rolls on (`rollon`): online pass after pass; at one device waiting
    /// for a computer's choice, thought in the worker, between rolls; not saved.
    #[serde(skip)]
    pub rolling: Option<rollon::Rolling>,
    /// "Skip to my turn" in the browser: the computers play on without the pace, each action
    /// thought in the worker (`hooks::use_economy_timers`), until a human must act; not saved.
    #[serde(skip)]
    pub skipping: bool,
    /// "Suggest a placement" in the browser: the normal computer's placement for this player,
    /// being thought in the worker (`hooks::use_economy_timers`); not saved.
    #[serde(skip)]
    pub suggesting: Option<PlayerId>,
    /// At one device: this player declared an attack at this battle to be rolled to its end
    /// once it begins (after the others' declarations); not saved.
    #[serde(skip)]
    pub attack_to_end: Option<(PlayerId, Site)>,
    /// The round so far and the last one in short (`summary`); not saved.
    #[serde(skip)]
    pub summary: summary::Tally,
}

#[derive(Clone, PartialEq)]
pub struct EconomySession {
    pub game: EconomyState,
    pub seats: Vec<Seat>,
    pub ui: Ui,
    /// An online game (`online`): the agreed state and our batch; `None` at one device.
    pub online: Option<online::OnlineEconomy>,
    /// The start and every action since, for a replay (`None`: an older save, or online).
    pub history: Option<crate::savefile::History>,
}

/// Messages of the economy screens.
#[derive(Clone, Debug)]
pub enum EMsg {
    /// A region of the map was clicked.
    Click(RegionId),
    /// A mouse button went down on a region (a move may be dragged from it).
    DragFrom(RegionId),
    /// The button came up over a region: a drag from another region picks that move, as two
    /// clicks would.
    DragTo(RegionId),
    /// Clears the selection.
    Cancel,
    /// An action the panel built from the engine's own options.
    Act(A),
    /// Sets how many armies and navies the next move or recruit takes.
    Count(u32, u32),
    RemovePlan(usize),
    /// Sets the armies and navies of the planned move at this place in the draft.
    PlanCount(usize, u32, u32),
    /// Submits the shown player's draft.
    SubmitPlans,
    /// Lifts the pass-the-device screen for this player.
    Reveal(PlayerId),
    /// Toggles an influence card to trade.
    Card(RegionId),
    /// Fills the placement draft with the normal computer player's placement.
    SuggestPlace(PlayerId),
    /// The normal computer's placement for this player, thought in the worker at this step of
    /// the game: it fills the draft if the game is still there.
    Suggested(u32, PlayerId, Option<A>),
    /// The placement draft changed.
    Place(place::PlaceDraft),
    /// Chooses what a click on the map places.
    PlaceTool(place::PlaceTool),
    /// A computer seat takes its next action, thought on this thread (the unit tests'; the
    /// page sends `BotAct`).
    #[cfg_attr(not(test), allow(dead_code))]
    BotStep,
    /// A computer's choice, thought in the worker (`think::economy`) at this step of the game
    /// for this seat and level, and how long it took (ms): played if the game is still there.
    BotAct(u32, PlayerId, BotLevel, Option<A>, f64),
    /// Sets how the withdraw buttons read: burn the roads, stay after interception.
    WithdrawFlags(bool, bool),
    /// Computer players take every action they can now, until a human must act.
    Skip,
    /// Hands a player's seat to a human or a computer player (an imported save has no seats).
    SetSeat(PlayerId, Seat),
    /// Zooms the map by this factor about the selection (or the middle); `None` resets it.
    Zoom(Option<f32>),
    /// The window changed size: the board is drawn again (its marks are sized for it).
    Resized,
    /// Shows a refusal the page itself makes (a count box holding something that is no count).
    Refuse(String),
    /// Online: takes back our choices not yet sent at this position.
    Undo,
    /// The planning clock ticked (the screen shows the countdown; at 0 time is called).
    Tick,
    Nav(Nav),
    /// This player lets the attack under way roll on: to its end, or until they have lost this
    /// many units (`rollon`).
    RollOn(PlayerId, Option<u32>),
    /// Stops the rolling on (online: no more passes are sent for it).
    StopRolling,
    /// At one device: declares this attack and rolls it on to its end once it begins, as
    /// "Roll until the attack ends" would (one click for the usual attack).
    AttackToEnd(A),
}

/// What an economy view gets: the session, where its messages go, and the computer players'
/// pace (shared with the classic game's setting).
pub struct View<'a> {
    pub eco: Option<&'a EconomySession>,
    pub send: Callback<EMsg>,
    pub speed: crate::widgets::Speed,
    pub on_speed: Callback<crate::widgets::Speed>,
}

impl View<'_> {
    pub fn dispatcher(&self) -> Sender<EMsg> {
        Sender(self.send.clone())
    }
}

/// Milliseconds since 1970 (the planning clock; 0 natively).
pub fn now_ms() -> i64 {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Date::now() as i64
    }
    #[cfg(not(target_arch = "wasm32"))]
    0
}

impl EconomySession {
    /// A game at this device; no seats (a file imported here, or handed over by the lite page,
    /// which stores none) makes every seat human and says so (`Ui::seats_unknown`).
    pub fn new(game: EconomyState, mut seats: Vec<Seat>) -> EconomySession {
        let seats_unknown = seats.is_empty();
        seats.resize(game.players.len(), Seat::Human);
        let mut s = EconomySession {
            game,
            seats,
            ui: Ui::default(),
            online: None,
            history: None,
        };
        s.ui.seats_unknown = seats_unknown;
        s.ui.seats_open = seats_unknown;
        s.ui.log.push("The game begins.".into());
        s
    }

    pub fn map(&self) -> &'static EconomyMap {
        EconomyMap::get()
    }

    pub fn name(&self, p: PlayerId) -> &str {
        &self.game.players[p as usize].name
    }

    /// The computer seat that acts next, if any.
    pub fn computer_to_act(&self) -> Option<(PlayerId, BotLevel)> {
        // Online, every peer computes the computer seats inside the protocol.
        if self.online.is_some() {
            return None;
        }
        self.game
            .to_act()
            .into_iter()
            .find_map(|p| match self.seats.get(p as usize) {
                Some(Seat::Computer(l)) => Some((p, *l)),
                _ => None,
            })
    }

    /// The human players the game waits for.
    pub fn humans_to_act(&self) -> Vec<PlayerId> {
        self.game
            .to_act()
            .into_iter()
            .filter(|&p| self.seats.get(p as usize) == Some(&Seat::Human))
            .collect()
    }

    /// The human whose choices the panel shows: in planning only the one who has lifted the
    /// pass-the-device screen; else the first human the game waits for.
    pub fn actor(&self) -> Option<PlayerId> {
        // Online, only our own seats are on this screen: no curtain.
        if self.online.is_some() {
            let due = self.online_due();
            return self.game.to_act().into_iter().find(|p| due.contains(p));
        }
        let humans = self.humans_to_act();
        if self.game.phase == Phase::Planning && self.lone_human().is_none() {
            return self.ui.shown.filter(|p| humans.contains(p));
        }
        humans.first().copied()
    }

    /// The one human at this device, when only one player still playing is human: nobody else
    /// is there to hide plans from, so planning needs no pass-the-device screen.
    pub fn lone_human(&self) -> Option<PlayerId> {
        let mut humans = self
            .game
            .playing()
            .filter(|&p| self.seats.get(p as usize) == Some(&Seat::Human));
        match (humans.next(), humans.next()) {
            (Some(p), None) => Some(p),
            _ => None,
        }
    }

    /// The human who should take the device next during planning (behind the curtain).
    pub fn next_planner(&self) -> Option<PlayerId> {
        if self.game.phase != Phase::Planning || self.actor().is_some() || self.online.is_some() {
            return None;
        }
        self.humans_to_act().first().copied()
    }

    /// Applies `a`; logs its events, or shows the engine's refusal. True when the game changed.
    pub fn act(&mut self, a: &A) -> bool {
        if self.online.is_some() {
            return self.online_act(a);
        }
        match self.game.apply(a) {
            Ok(events) => {
                if self.history.as_mut().is_some_and(|h| !h.push(a)) {
                    self.history = None; // too long to keep
                }
                self.ui.error = None;
                self.record(&events);
                true
            }
            Err(e) => {
                self.ui.error = Some(text::cap(&e.to_string()));
                false
            }
        }
    }

    /// Logs events that happened outside `act` (the game's creation).
    pub fn log_events(&mut self, events: &[EconomyEvent]) {
        self.record(events);
    }

    fn record(&mut self, events: &[EconomyEvent]) {
        self.ui.summary.record(&self.game, events);
        for e in events {
            if matches!(e, EconomyEvent::PlansRevealed { .. }) {
                self.ui.drafts.clear();
                self.ui.deadline = None;
                self.ui.shown = None;
            }
            // The last roll box belongs to the battle being fought: a new battle (or a new
            // round's) starts without the roll of one before.
            if matches!(
                e,
                EconomyEvent::BattlePicked { .. } | EconomyEvent::PlanningBegan
            ) {
                self.ui.last_roll = None;
            }
            // A country picked in the Get phase is no move's start.
            if matches!(e, EconomyEvent::PlanningBegan) {
                self.ui.sel = None;
                self.ui.to = None;
            }
            let Some(line) = text::event(&self.game, e) else {
                continue;
            };
            self.ui.log.insert(0, line);
        }
        // What the action did to the battle on screen, and each side's losses there.
        if let Some(line) = outcome::record(&self.game, &mut self.ui.losses, events) {
            self.ui.last_roll = Some(line);
        }
        self.ui.log.truncate(200);
        self.keep_clock();
    }

    /// Starts the planning minute once a majority has submitted (the engine accepts time
    /// called from then on), at this device only when a human who has submitted is waiting:
    /// computer players submit at once and never wait, so a human planning alone against them
    /// has no clock (RULES.md, reading 75). Online, the protocol keeps the minute.
    fn keep_clock(&mut self) {
        if self.game.phase != Phase::Planning {
            self.ui.deadline = None;
            return;
        }
        let waiting =
            self.game.plans.keys().any(|&p| {
                self.online.is_some() || self.seats.get(p as usize) == Some(&Seat::Human)
            });
        if self.ui.deadline.is_none() && waiting && self.game.planning_clock_runs() {
            self.ui.deadline = Some(now_ms() + PLANNING_MINUTE_MS);
        }
    }

    /// Seconds left to plan, once the clock runs.
    pub fn seconds_left(&self) -> Option<i64> {
        self.ui
            .deadline
            .map(|d| ((d - now_ms()).max(0) + 999) / 1000)
    }

    /// Handles a message; true when the game itself changed (to autosave).
    pub fn update(&mut self, msg: EMsg) -> bool {
        let before = self.actor();
        let changed = self.handle(msg);
        let changed = self.attack_rolls_on() || changed;
        // Rolling on at one device goes on after a computer's choice came from the worker.
        let changed = self.local_roll() || changed;
        if self.computer_to_act().is_none() {
            self.ui.skipping = false;
        }
        if self.game.phase != Phase::Place {
            self.ui.suggesting = None;
        }
        // Another player at the device: the last player's refusal and selection are theirs,
        // not the next player's (a computer's move in between leaves them, `bot_step`).
        if before.is_some() && self.actor() != before {
            self.ui.error = None;
            self.ui.sel = None;
            self.ui.to = None;
        }
        changed
    }

    fn handle(&mut self, msg: EMsg) -> bool {
        match msg {
            EMsg::Click(r) => {
                self.click(r);
                false
            }
            EMsg::DragFrom(r) => {
                self.ui.drag = self.moving().then_some(r);
                false
            }
            EMsg::DragTo(to) => {
                if let Some(from) = self.ui.drag.take().filter(|&f| f != to) {
                    if self.moving() {
                        self.ui.sel = None;
                        self.ui.to = None;
                        self.click(from);
                        // A start the engine refuses keeps its reason on screen.
                        if self.ui.sel == Some(from) {
                            self.click(to);
                        }
                    }
                }
                false
            }
            EMsg::Cancel => {
                self.ui.sel = None;
                self.ui.to = None;
                self.ui.error = None;
                false
            }
            EMsg::Act(a) => {
                let ok = self.act(&a);
                if ok {
                    self.ui.place = Default::default();
                    self.ui.to = None;
                    if self.game.phase != Phase::Get {
                        self.ui.sel = None;
                    }
                    self.ui.cards.clear();
                }
                ok
            }
            EMsg::Count(a, n) => {
                self.ui.armies = a;
                self.ui.navies = n;
                self.ui.error = None;
                false
            }
            EMsg::Refuse(m) => {
                self.ui.error = Some(m);
                false
            }
            EMsg::RemovePlan(i) => {
                if let Some(p) = self.actor() {
                    let d = self.ui.drafts.entry(p).or_default();
                    if i < d.len() {
                        d.remove(i);
                    }
                }
                self.ui.error = None;
                false
            }
            EMsg::PlanCount(i, armies, navies) => {
                self.plan_count(i, armies, navies);
                false
            }
            EMsg::SubmitPlans => {
                let Some(p) = self.actor() else { return false };
                let moves = self.ui.drafts.get(&p).cloned().unwrap_or_default();
                let ok = self.act(&A::SubmitPlans { player: p, moves });
                if ok {
                    self.ui.shown = None;
                    self.ui.sel = None;
                    self.ui.to = None;
                }
                ok
            }
            EMsg::Reveal(p) => {
                // One device: the minute of a late player counts from when they take it, not
                // while the device was being passed.
                if let Some(d) = &mut self.ui.deadline {
                    *d = (*d).max(now_ms() + PLANNING_MINUTE_MS);
                }
                self.ui.shown = Some(p);
                self.ui.sel = None;
                self.ui.to = None;
                false
            }
            EMsg::Card(c) => {
                if let Some(i) = self.ui.cards.iter().position(|&x| x == c) {
                    self.ui.cards.remove(i);
                } else if self.ui.cards.len() < 3 {
                    self.ui.cards.push(c);
                }
                false
            }
            EMsg::SuggestPlace(p) if cfg!(target_arch = "wasm32") => {
                // The page answers meanwhile: the placement is thought in the worker.
                self.ui.suggesting = Some(p);
                false
            }
            EMsg::Suggested(steps, p, a) => {
                if self.game.steps == steps && self.ui.suggesting == Some(p) {
                    self.ui.suggesting = None;
                    if let Some(d) = a.as_ref().and_then(place::PlaceDraft::from_action) {
                        self.ui.place = d;
                    }
                }
                false
            }
            EMsg::SuggestPlace(p) => {
                if let Some(d) = choose(&self.game, p, BotLevel::Normal)
                    .as_ref()
                    .and_then(place::PlaceDraft::from_action)
                {
                    self.ui.place = d;
                }
                false
            }
            EMsg::Place(d) => {
                self.ui.place = d;
                self.ui.error = None;
                false
            }
            EMsg::PlaceTool(t) => {
                self.ui.place_tool = t;
                false
            }
            EMsg::BotStep => self.bot_step(),
            EMsg::BotAct(steps, p, level, a, ms) => {
                if self.game.steps != steps || self.computer_to_act() != Some((p, level)) {
                    return false;
                }
                if let Some(r) = self.ui.rolling.as_mut() {
                    r.rolls += 1;
                }
                self.bot_play(p, level, a, ms)
            }
            EMsg::Tick => {
                // Online, the protocol closes the planning minute by itself.
                if self.seconds_left() == Some(0) && self.online.is_none() {
                    self.call_time()
                } else {
                    false
                }
            }
            EMsg::WithdrawFlags(burn, stay) => {
                self.ui.burn = burn;
                self.ui.stay = stay;
                false
            }
            EMsg::Skip if cfg!(target_arch = "wasm32") => {
                // The page answers meanwhile: each action is thought in the worker.
                self.ui.skipping = self.computer_to_act().is_some();
                false
            }
            EMsg::Skip => {
                let mut changed = false;
                for _ in 0..20_000 {
                    if self.computer_to_act().is_none() || !self.bot_step() {
                        break;
                    }
                    changed = true;
                }
                changed
            }
            EMsg::SetSeat(_, _) if self.online.is_some() => false,
            EMsg::Undo => {
                self.online_undo();
                false
            }
            EMsg::SetSeat(p, seat) => {
                if let Some(x) = self.seats.get_mut(p as usize) {
                    *x = seat;
                    self.ui.shown = None;
                    self.ui.seats_unknown = false;
                }
                self.keep_clock();
                true
            }
            EMsg::Zoom(f) => {
                self.ui.view = f.map(|f| self.zoomed(f));
                false
            }
            EMsg::Nav(_) | EMsg::Resized => false,
            EMsg::RollOn(p, until) => self.roll_on(p, until),
            EMsg::StopRolling => {
                self.stop_rolling();
                false
            }
            EMsg::AttackToEnd(a) => {
                let site = self
                    .game
                    .combat
                    .as_ref()
                    .and_then(|c| c.battle.as_ref())
                    .map(|b| b.site);
                let ok = self.act(&a);
                if let (true, Some(site), A::Declare { player, .. }) = (ok, site, a) {
                    self.ui.attack_to_end = Some((player, site));
                }
                ok
            }
        }
    }

    /// An attack declared with "Roll to the end" (`EMsg::AttackToEnd`): once it is under way
    /// it rolls on (`roll_on`); forgotten when the battle ends or moves on, or the player is
    /// asked to declare again without it having begun. True when the game changed.
    fn attack_rolls_on(&mut self) -> bool {
        let Some((p, site)) = self.ui.attack_to_end else {
            return false;
        };
        let battle = self.game.combat.as_ref().and_then(|c| c.battle.as_ref());
        let Some(b) = battle.filter(|b| b.site == site) else {
            self.ui.attack_to_end = None;
            return false;
        };
        match self.game.assault(site) {
            Some(a) if a.attacker == p => {
                self.ui.attack_to_end = None;
                self.roll_on(p, None)
            }
            _ if !b.declared.contains_key(&p) && self.humans_to_act().contains(&p) => {
                self.ui.attack_to_end = None;
                false
            }
            _ => false,
        }
    }

    /// The planning minute is up. *"The plans that players have written at this point are
    /// final"*: each late player at this device submits what they have written so far; then,
    /// if anyone is still late (nothing written), a player who has submitted calls time.
    fn call_time(&mut self) -> bool {
        self.ui.shown = None;
        let late: Vec<PlayerId> = self
            .humans_to_act()
            .into_iter()
            .filter(|p| self.ui.drafts.get(p).is_some_and(|d| !d.is_empty()))
            .collect();
        let mut changed = false;
        for p in late {
            let moves = self.ui.drafts.get(&p).cloned().unwrap_or_default();
            let n = moves.len();
            // Said before the plans' own lines (the log shows the newest first).
            let line = format!(
                "Time is up: the {} written by {} {} final.",
                text::count(n, "plan", "plans"),
                self.name(p),
                if n == 1 { "is" } else { "are" }
            );
            self.ui.log.insert(0, line);
            if self.act(&A::SubmitPlans { player: p, moves }) {
                changed = true;
            } else {
                // A refusal logs nothing (it is the player's message): the line is still first.
                self.ui.log.remove(0);
            }
        }
        if self.game.phase != Phase::Planning {
            return changed;
        }
        let Some(&p) = self.game.plans.keys().next() else {
            return changed;
        };
        self.act(&A::ClosePlanning { player: p }) || changed
    }

    fn bot_step(&mut self) -> bool {
        let Some((p, level)) = self.computer_to_act() else {
            return false;
        };
        let t = clock_ms();
        let a = choose(&self.game, p, level);
        self.bot_play(p, level, a, clock_ms() - t)
    }

    /// Plays a computer's choice `a` (chosen in `ms`), or its fallback.
    fn bot_play(&mut self, p: PlayerId, level: BotLevel, a: Option<A>, ms: f64) -> bool {
        record_bot_ms(
            match level {
                BotLevel::Easy => "economy-easy",
                BotLevel::Normal => "economy-normal",
                BotLevel::Hard => "economy-hard",
            },
            ms,
        );
        match a {
            Some(a) => {
                let before = self.ui.error.clone();
                let ok = self.act(&a);
                // A computer's action, taken or refused, is its own business: the player's
                // message stays until the player acts (a computer placing its start while the
                // player placed theirs wiped "All 20 armies are placed" a moment after the click).
                self.ui.error = before;
                if !ok {
                    // Never stall: a computer that cannot act passes where it can.
                    return self.bot_fallback(p);
                }
                true
            }
            None => self.bot_fallback(p),
        }
    }

    /// A computer seat with nothing the engine accepts finishes its part of the phase.
    fn bot_fallback(&mut self, p: PlayerId) -> bool {
        let tries = [
            A::FinishGet { player: p },
            A::SubmitPlans {
                player: p,
                moves: vec![],
            },
            A::FinishMoving { player: p },
            A::StopMoving { player: p },
            A::Declare {
                player: p,
                action: None,
            },
            A::Intercept {
                player: p,
                yes: false,
            },
        ];
        let before = self.ui.error.clone();
        for a in tries {
            if self.act(&a) {
                return true;
            }
        }
        self.ui.error = before;
        false
    }

    /// Whether a pick on the map is a move now: planning, friendly movement, or moving on.
    fn moving(&self) -> bool {
        matches!(self.game.phase, Phase::Planning | Phase::Moving)
            || self
                .game
                .to_move_on(self.map())
                .contains(&self.actor().unwrap_or(u8::MAX))
    }

    fn click(&mut self, r: RegionId) {
        self.ui.error = None;
        let map = self.map();
        match self.game.phase {
            Phase::Pick(p) if self.seats.get(p as usize) == Some(&Seat::Human) => {
                use orbis_engine::rules::economy::action::SetupAction;
                use orbis_engine::rules::economy::map::RegionKind;
                use orbis_engine::rules::economy::options::Setup;
                let choice = match (self.game.options.setup, map.regions[r as usize].kind) {
                    (Setup::Continents, RegionKind::Land { continent }) => {
                        SetupAction::Continent(continent)
                    }
                    (_, RegionKind::Land { .. }) => SetupAction::Country(r),
                    _ => return,
                };
                self.act(&A::Setup { player: p, choice });
            }
            // The standard start: a click on one of the player's countries adds what the
            // chosen tool places (the table beside it shows the draft and can correct it).
            Phase::Place => {
                let Some(p) = self.actor() else { return };
                if self.game.regions[r as usize].owner != Some(p) {
                    self.ui.error = Some(format!(
                        "{} is not one of your countries: place your start in your own.",
                        text::region(r)
                    ));
                    return;
                }
                if let Err(e) = self.ui.place.click(r, self.ui.place_tool) {
                    self.ui.error = Some(e);
                }
            }
            _ => {
                // A move is chosen by two clicks: from, then to; a third click starts again.
                let moving = self.moving();
                match (self.ui.sel, self.ui.to) {
                    (Some(from), None) if moving && from != r => {
                        self.ui.to = Some(r);
                        let mut f = self.move_default(from, r);
                        if f.units() == 0 && self.game.phase == Phase::Planning {
                            // Nothing can go: tried with every unit there, the engine says why.
                            f = self.game.units_of(self.actor().unwrap_or(u8::MAX), from);
                        }
                        self.ui.armies = f.armies;
                        self.ui.navies = f.navies;
                        // A picked plan is planned at once, with every unit that can go (the
                        // draft's row changes the count): no move is left half-made under a
                        // submit button that would leave it out. A refused one stays picked,
                        // with the engine's reason.
                        if self.game.phase == Phase::Planning {
                            self.add_plan();
                        }
                    }
                    _ => {
                        // A move's start: the engine says whether one may begin here, and why
                        // not (no units of the player's there, all in plans, contested…).
                        if let Err(e) = self.may_start(r) {
                            self.ui.sel = None;
                            self.ui.to = None;
                            self.ui.error = Some(e);
                            return;
                        }
                        self.ui.sel = Some(r);
                        self.ui.to = None;
                        if let Some(p) = self.actor() {
                            let f = if self.game.phase == Phase::Get {
                                // A recruit, not a move: one army, or none when the engine
                                // says the player cannot pay for one (the panel says why).
                                let most = self.game.recruit_max(p, BaseKey::Army(r));
                                Force {
                                    armies: most.min(1),
                                    navies: 0,
                                }
                            } else {
                                self.game.regions[r as usize]
                                    .forces
                                    .get(&p)
                                    .copied()
                                    .unwrap_or_default()
                            };
                            self.ui.armies = f.armies;
                            self.ui.navies = f.navies;
                        }
                    }
                }
            }
        }
    }

    /// Whether a click on `r` may select it now (as a move's start, in planning and friendly
    /// movement, from the engine's `move_start`; in combat, only to move on after a battle), or
    /// why not in the player's words.
    fn may_start(&self, r: RegionId) -> Result<(), String> {
        let Some(p) = self.actor() else { return Ok(()) };
        match self.game.phase {
            Phase::Planning | Phase::Moving => {
                let drafted = match self.game.phase {
                    Phase::Planning => self.ui.drafts.get(&p).map_or(&[][..], Vec::as_slice),
                    _ => &[],
                };
                self.game
                    .move_start(self.map(), p, r, drafted)
                    .map(|_| ())
                    .map_err(|e| text::cap(&e.to_string()))
            }
            Phase::Combat if !self.moving() => Err(format!(
                "{}: the map shows where battles are; pick battles and actions in the panel.",
                text::region(r)
            )),
            _ => Ok(()),
        }
    }

    /// The count a move picked from `from` to `to` takes unless the player changes it: every
    /// unit that can make it, as the engine says (planning and friendly movement: less what
    /// the draft already takes; moving on after battles: what `onward_options` offers).
    fn move_default(&self, from: RegionId, to: RegionId) -> Force {
        let Some(p) = self.actor() else {
            return Force::default();
        };
        let map = self.map();
        match self.game.phase {
            Phase::Planning | Phase::Moving => {
                let drafted = self.ui.drafts.get(&p).map_or(&[][..], Vec::as_slice);
                self.game.move_default(map, p, from, to, drafted)
            }
            _ => self
                .game
                .onward_options(map, p, from)
                .into_iter()
                .find_map(|(x, f)| (x == to).then_some(f))
                .unwrap_or_default(),
        }
    }

    /// Sets the counts of the `i`th planned move, if the engine would accept the plans with
    /// them; else says why and leaves the draft as it was.
    fn plan_count(&mut self, i: usize, armies: u32, navies: u32) {
        let Some(p) = self.actor() else { return };
        let mut draft = self.ui.drafts.get(&p).cloned().unwrap_or_default();
        let Some(m) = draft.get_mut(i) else { return };
        m.armies = armies;
        m.navies = navies;
        self.keep_draft(p, draft);
    }

    /// Keeps `draft` as `p`'s plans if the engine would accept them submitted (checked on a
    /// clone of the game), clearing the error; else says why and keeps the old draft. Whether
    /// it was kept.
    fn keep_draft(&mut self, p: PlayerId, draft: Vec<PlannedMove>) -> bool {
        let check = A::SubmitPlans {
            player: p,
            moves: draft.clone(),
        };
        match self.game.clone().apply(&check) {
            Ok(_) => {
                self.ui.drafts.insert(p, draft);
                self.ui.error = None;
                true
            }
            Err(e) => {
                self.ui.error = Some(text::cap(&e.to_string()));
                false
            }
        }
    }

    /// The move picked on the map (from, to) with the counts set, once both ends are chosen.
    pub fn picked_move(&self) -> Option<(RegionId, RegionId, Force)> {
        let (from, to) = (self.ui.sel?, self.ui.to?);
        let force = Force {
            armies: self.ui.armies,
            navies: self.ui.navies,
        };
        Some((from, to, force))
    }

    /// The view zoomed by `f` about the selected region, or else the middle of the view.
    fn zoomed(&self, f: f32) -> [f32; 4] {
        let v = board::view(self);
        let (fx, fy) = match self.ui.sel {
            Some(r) => {
                let (x, y) = board::anchor(r);
                (
                    ((x - v[0]) / v[2]).clamp(0.0, 1.0),
                    ((y - v[1]) / v[3]).clamp(0.0, 1.0),
                )
            }
            None => (0.5, 0.5),
        };
        crate::widgets::zoom(v, f, fx, fy)
    }

    /// Adds the selected move to the draft, if the engine would accept the plans with it.
    fn add_plan(&mut self) {
        let (Some(p), Some((from, to, force))) = (self.actor(), self.picked_move()) else {
            self.ui.error = Some("Click the region to move from, then the one to move to.".into());
            return;
        };
        let mv = PlannedMove {
            from,
            to,
            armies: force.armies,
            navies: force.navies,
        };
        let mut draft = self.ui.drafts.get(&p).cloned().unwrap_or_default();
        draft.push(mv);
        if self.keep_draft(p, draft) {
            self.ui.sel = None;
            self.ui.to = None;
        }
    }

    /// The bytes of the UI state kept beside the autosave.
    pub fn ui_bytes(&self) -> Vec<u8> {
        orbis_engine::codec::encode(&self.ui)
    }

    pub fn restore_ui(&mut self, bytes: &[u8]) {
        if let Ok(ui) = orbis_engine::codec::decode::<Ui>(bytes) {
            // Not saved: whether the seats are known comes from how the game was opened.
            self.ui = Ui {
                seats_unknown: self.ui.seats_unknown,
                seats_open: self.ui.seats_open,
                ..ui
            };
        }
    }
}

#[cfg(test)]
mod revolution_tests;
#[cfg(test)]
mod tests;
