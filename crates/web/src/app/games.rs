//! "My games" (issue 61 item 6): every game on this device, the hot-seat autosave and each
//! online room this browser holds a key for, with its ruleset, players, where it stands and,
//! over days, what is due and by when; open or remove each (removal asks first). On the online
//! page also: back up a room's key, restore one from another device, and a calendar file of a
//! game's deadlines; the other pages send the player there for those.

use crate::app::{AppState, Msg};
use crate::games::{self, Record, Room};
use yew::prelude::*;

/// What the hot-seat game is: (ruleset, players, where it stands).
fn hot_seat(app: &AppState) -> Option<(String, String, String)> {
    #[cfg(feature = "full")]
    if let Some(o) = app.orders.as_ref().filter(|o| o.online.is_none()) {
        let m = o.map();
        let here: Vec<&str> = (o.seats.iter().enumerate())
            .filter(|(_, s)| **s == crate::orders::Seat::Human)
            .filter_map(|(i, _)| Some(m.powers.get(i)?.name.as_str()))
            .collect();
        let others = m.powers.len() - here.len();
        let stands = match o.game.phase {
            orbis_engine::rules::orders::Phase::GameOver { .. } => "Game over".to_string(),
            p => format!(
                "{} {} {}",
                crate::orders::season_word(o.game.season),
                o.game.year,
                crate::orders::phase_word(p)
            ),
        };
        return Some((
            format!("Orders: {}", m.name),
            format!(
                "{} on this device; {others} computer or idle",
                here.join(", ")
            ),
            stands,
        ));
    }
    #[cfg(feature = "full")]
    if let Some(e) = app.economy.as_ref().filter(|e| e.online.is_none()) {
        let g = &e.game;
        let names: Vec<String> = (g.players.iter().zip(&e.seats))
            .map(|(p, s)| match s {
                crate::economy::Seat::Computer(_) => format!("{} (computer)", p.name),
                _ => p.name.clone(),
            })
            .collect();
        let stands = if g.phase == orbis_engine::rules::economy::phase::Phase::Over {
            "Game over".to_string()
        } else {
            format!("Round {}", g.round)
        };
        return Some(("Economy".into(), names.join(", "), stands));
    }
    let g = app
        .classic
        .game
        .as_ref()
        .filter(|_| !app.classic.is_online())?;
    let names: Vec<String> = g
        .players
        .iter()
        .map(|p| match p.kind {
            orbis_engine::classic::SeatKind::Human => p.name.clone(),
            orbis_engine::classic::SeatKind::Bot(_) => format!("{} (computer)", p.name),
        })
        .collect();
    use orbis_engine::classic::Phase;
    let stands = match g.phase {
        Phase::GameOver { .. } => "Game over".to_string(),
        Phase::Claim => "Setting up: choosing territories".to_string(),
        Phase::SetupPlace => "Setting up: placing armies".to_string(),
        _ => format!(
            "Turn {}: {} to play",
            g.turn,
            g.players.get(g.current as usize).map_or("", |p| &p.name)
        ),
    };
    Some(("Classic".into(), names.join(", "), stands))
}

/// What the screen asks or shows over the list.
#[derive(Clone, Debug, Default, PartialEq)]
struct Ui {
    /// Removal asked, not yet confirmed: `None` inside is the hot-seat game, else a room.
    asking: Option<Option<String>>,
    /// The room whose key backup is open.
    backup: Option<String>,
    /// What the player typed or scanned into "Restore a game key".
    restore: String,
    /// A restored key that would replace this browser's own in its room: asked first.
    replacing: bool,
    /// The last message (removed, restored, or what went wrong) and whether it is an error.
    note: Option<(bool, String)>,
    /// Bumped to read the list again after a change.
    rev: u32,
}

#[cfg_attr(not(feature = "online"), allow(dead_code))]
enum UMsg {
    Ask(Option<Option<String>>),
    Backup(Option<String>),
    Restore(String),
    Replacing(bool),
    Note(bool, String),
    Changed(String),
}

impl Reducible for Ui {
    type Action = UMsg;
    fn reduce(self: std::rc::Rc<Self>, m: UMsg) -> std::rc::Rc<Self> {
        let mut u = (*self).clone();
        match m {
            UMsg::Ask(a) => {
                u.asking = a;
                u.note = None;
            }
            UMsg::Backup(b) => u.backup = if u.backup == b { None } else { b },
            UMsg::Restore(t) => {
                u.restore = t;
                u.replacing = false;
            }
            UMsg::Replacing(r) => u.replacing = r,
            UMsg::Note(err, t) => u.note = Some((err, t)),
            UMsg::Changed(t) => {
                u.asking = None;
                u.replacing = false;
                u.note = Some((false, t));
                u.rev += 1;
            }
        }
        std::rc::Rc::new(u)
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub app: UseReducerHandle<AppState>,
}

/// Opens an online room: its link's fragment on the online page (this page, or the next).
fn open_room(app: &UseReducerHandle<AppState>, link: &str) {
    if let Some(w) = web_sys::window() {
        let _ = w.location().set_hash(link);
    }
    app.dispatch(Msg::ShowOnline);
}

/// The due line of a game over days: "Your orders: due Tue, 8 Dec, 15:00 (in 14 h)".
fn due_line(r: &Record, now: u64) -> Option<String> {
    let (what, at) = r.due.as_ref()?;
    Some(format!(
        "{what}: by {} ({})",
        games::local_time(*at),
        games::from_now(*at, now)
    ))
}

/// The "My games" screen.
#[function_component(MyGames)]
pub fn my_games(p: &Props) -> Html {
    let ui = use_reducer(|| Ui {
        restore: crate::store::url_param("key").unwrap_or_default(),
        ..Ui::default()
    });
    let app = &p.app;
    let now = games::now_s();
    let rooms = games::rooms();
    let hot = hot_seat(app);
    let confirm = |what: &str, yes: Callback<MouseEvent>| {
        let no = {
            let ui = ui.clone();
            Callback::from(move |_: MouseEvent| ui.dispatch(UMsg::Ask(None)))
        };
        html! {
            <div class="quick-confirm" id="games-confirm" role="alertdialog" aria-labelledby="games-confirm-q">
                <p id="games-confirm-q">{what.to_string()}</p>
                <div class="row">
                    <button class="btn primary" id="games-confirm-yes" onclick={yes}>{"Remove it from this device"}</button>
                    <button class="btn" id="games-confirm-no" onclick={no}>{"Keep it"}</button>
                </div>
            </div>
        }
    };
    let ask = |what: Option<String>| {
        let ui = ui.clone();
        Callback::from(move |_: MouseEvent| ui.dispatch(UMsg::Ask(Some(what.clone()))))
    };
    let hot_row = hot.map(|(ruleset, players, stands)| {
        let open = super::menu::send(app, Msg::Continue);
        let yes = {
            let (app, ui) = (app.clone(), ui.clone());
            Callback::from(move |_: MouseEvent| {
                app.dispatch(Msg::ForgetSave);
                ui.dispatch(UMsg::Changed("The game on this device was removed.".into()));
            })
        };
        html! {
            <li class="game" id="game-hot-seat" data-kind="hot-seat">
                <h3>{format!("{ruleset} · on this device")}</h3>
                <p>{players}</p>
                <p class="stands">{stands}</p>
                <div class="row">
                    <button class="btn primary small" id="game-hot-seat-open" onclick={open}>{"Open"}</button>
                    <button class="btn small" id="game-hot-seat-remove" onclick={ask(None)}>{"Remove"}</button>
                </div>
                if ui.asking == Some(None) {
                    { confirm("Remove this game? It is deleted from this device for good, unless you \
                        exported it (Export save, in the game's menu).", yes) }
                }
            </li>
        }
    });
    let room_row = |r: &Room| {
        let rec = r.record.clone().unwrap_or_default();
        let short = games::short(&r.room);
        let link = if rec.link.is_empty() {
            format!("room={}", r.room)
        } else {
            rec.link.clone()
        };
        let open = {
            let (app, link) = (app.clone(), link.clone());
            Callback::from(move |_: MouseEvent| open_room(&app, &link))
        };
        let yes = {
            let (ui, room) = (ui.clone(), r.room.clone());
            Callback::from(move |_: MouseEvent| {
                games::forget_room(&room);
                ui.dispatch(UMsg::Changed(format!(
                    "Room {} was removed from this device.",
                    games::short(&room)
                )));
            })
        };
        let title = match (rec.ruleset.is_empty(), rec.days) {
            (true, _) => format!("Online room {short}"),
            (false, true) => format!("{} · online, over days · room {short}", rec.ruleset),
            (false, false) => format!("{} · online, live · room {short}", rec.ruleset),
        };
        let backup = {
            let (ui, room) = (ui.clone(), r.room.clone());
            Callback::from(move |_: MouseEvent| ui.dispatch(UMsg::Backup(Some(room.clone()))))
        };
        let asking = ui.asking == Some(Some(r.room.clone()));
        html! {
            <li class="game" data-kind={if rec.days { "days" } else { "live" }} data-room={r.room.clone()}>
                <h3>{title}</h3>
                if !rec.players.is_empty() { <p>{rec.players.clone()}</p> }
                <p class="stands">{ if rec.stands.is_empty() {
                    "Not seen since this list began: open it to see where it stands.".to_string()
                } else { rec.stands.clone() } }</p>
                if let Some(d) = due_line(&rec, now) { <p class="due"><b>{d}</b></p> }
                if rec.seen_s > 0 {
                    <p class="hint">{format!("Last opened here {}.", games::from_now(rec.seen_s, now))}</p>
                }
                <div class="row">
                    <button class="btn primary small game-open" onclick={open}>{"Open"}</button>
                    { online_buttons(&r.room, &rec, backup) }
                    <button class="btn small game-remove" onclick={ask(Some(r.room.clone()))}>{"Remove"}</button>
                </div>
                if asking {
                    { confirm("Remove this game from this device? This browser's key for the room is \
                        deleted: you could not play this seat from here again unless you restore a \
                        backup of the key. The others keep the game; while you are away they can hand \
                        your seat to the computer.", yes) }
                }
                if ui.backup.as_deref() == Some(r.room.as_str()) { { backup_panel(&r.room) } }
            </li>
        }
    };
    let empty = hot_row.is_none() && rooms.is_empty();
    html! {
        <main class="menu games" id="my-games" data-rooms={rooms.len().to_string()} data-rev={ui.rev.to_string()}>
            <div class="menu-card">
                <h1>{"My games"}</h1>
                <p class="tag">{"Every game on this device: the one you play here, and the online rooms this browser has a seat in."}</p>
                if let Some((err, t)) = &ui.note {
                    <p class={if *err { "notice" } else { "note-ok" }} id="games-note" role={if *err { "alert" } else { "status" }}>{t}</p>
                }
                if empty {
                    <p id="games-empty">{"No games yet: start one from the menu, or join a friend's room with Play online."}</p>
                }
                <ul class="games-list" id="games-list">
                    { for hot_row }
                    { for rooms.iter().map(room_row) }
                </ul>
                { restore_section(&ui) }
                <div class="menu-buttons">
                    <button class="btn" id="games-back" onclick={super::menu::send(app, Msg::ShowMenu)}>{"Back"}</button>
                </div>
            </div>
        </main>
    }
}

/// Back up a key and the calendar file: on the online page.
#[cfg(feature = "online")]
fn online_buttons(room: &str, rec: &Record, backup: Callback<MouseEvent>) -> Html {
    let ics = (rec.days && !rec.deadlines.is_empty()).then(|| {
        let (rec, room) = (rec.clone(), room.to_string());
        Callback::from(move |_: MouseEvent| crate::online::days_ics::download(&room, &rec))
    });
    html! {
        <>
            <button class="btn small game-backup" onclick={backup}>{"Back up key"}</button>
            if let Some(onclick) = ics {
                <button class="btn small game-ics" {onclick}>{"Calendar file (.ics)"}</button>
            }
        </>
    }
}

#[cfg(not(feature = "online"))]
fn online_buttons(_: &str, _: &Record, _: Callback<MouseEvent>) -> Html {
    html! {}
}

#[cfg(feature = "online")]
fn backup_panel(room: &str) -> Html {
    crate::online::days_key::backup_panel(room)
}

#[cfg(not(feature = "online"))]
fn backup_panel(_: &str) -> Html {
    html! {}
}

/// "Restore a game key" (online page): paste or scan a code, or choose a key file.
#[cfg(feature = "online")]
fn restore_section(ui: &UseReducerHandle<Ui>) -> Html {
    use crate::online::days_key::{Backup, ONE_AT_A_TIME};
    let typed = {
        let ui = ui.clone();
        Callback::from(move |e: InputEvent| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlTextAreaElement>()
                .value();
            ui.dispatch(UMsg::Restore(v));
        })
    };
    // Restores `text`; `sure`: the player confirmed replacing this browser's own key there.
    let restore = |ui: UseReducerHandle<Ui>, text: String, sure: bool| match Backup::parse(&text) {
        Err(e) => ui.dispatch(UMsg::Note(true, e.to_string())),
        Ok(b) if b.replaces_another() && !sure => ui.dispatch(UMsg::Replacing(true)),
        Ok(b) => {
            b.restore();
            // The key's link, if the page was opened by one, is spent.
            if let Some(w) = web_sys::window() {
                let _ = w.location().set_hash("");
            }
            ui.dispatch(UMsg::Restore(String::new()));
            ui.dispatch(UMsg::Changed(format!(
                "Restored: room {}{}. Open it below to play the same seat. {ONE_AT_A_TIME}",
                games::short(&b.room),
                if b.name.is_empty() {
                    String::new()
                } else {
                    format!(", as {}", b.name)
                }
            )));
        }
    };
    let go = {
        let (ui, text) = (ui.clone(), ui.restore.clone());
        Callback::from(move |_: MouseEvent| restore(ui.clone(), text.clone(), false))
    };
    let replace = {
        let (ui, text) = (ui.clone(), ui.restore.clone());
        Callback::from(move |_: MouseEvent| restore(ui.clone(), text.clone(), true))
    };
    let file = {
        let ui = ui.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            if let Some(f) = input.files().and_then(|f| f.get(0)) {
                let ui = ui.clone();
                let reader = gloo::file::callbacks::read_as_text(
                    &gloo::file::File::from(f),
                    move |r| match r {
                        Ok(t) => {
                            ui.dispatch(UMsg::Restore(t.clone()));
                            restore(ui.clone(), t, false);
                        }
                        Err(e) => ui.dispatch(UMsg::Note(
                            true,
                            format!(
                                "That file could not be read ({e}). Choose the key file again."
                            ),
                        )),
                    },
                );
                // The reader must live until its callback runs; it is small, so let it go.
                std::mem::forget(reader);
            }
            input.set_value("");
        })
    };
    let no = {
        let ui = ui.clone();
        Callback::from(move |_: MouseEvent| ui.dispatch(UMsg::Replacing(false)))
    };
    html! {
        <details class="restore" id="games-restore" open={!ui.restore.is_empty()}>
            <summary>{"Restore a game key from another device"}</summary>
            <p class="hint">{"On the other device: My games, Back up key. Paste its code here, or choose its key file (a scanned QR code opens this page with the code filled in)."}</p>
            <textarea id="restore-code" rows="3" aria-label="The game key" value={ui.restore.clone()} oninput={typed}/>
            <div class="row">
                <button class="btn primary small" id="restore-go" type="button" onclick={go}>{"Restore"}</button>
                <label class="btn small file-btn" for="restore-file">{"Choose a key file…"}
                    <input id="restore-file" type="file" accept=".txt,text/plain" onchange={file}/>
                </label>
            </div>
            if ui.replacing {
                <div class="quick-confirm" id="restore-replace" role="alertdialog">
                    <p>{"This browser already plays another seat in that room. Restoring this key \
                        replaces it: this browser would play the restored seat, and its own seat \
                        would be lost here (unless you backed it up)."}</p>
                    <div class="row">
                        <button class="btn primary" id="restore-replace-yes" onclick={replace}>{"Replace it"}</button>
                        <button class="btn" onclick={no}>{"Keep this browser's seat"}</button>
                    </div>
                </div>
            }
        </details>
    }
}

/// On the lite and full pages: backups, restoring and calendar files are the online page's.
#[cfg(not(feature = "online"))]
fn restore_section(_: &UseReducerHandle<Ui>) -> Html {
    let go =
        Callback::from(|_: MouseEvent| crate::lite::open_online(crate::lite::Open::Games, false));
    html! {
        <p class="hint" id="games-online">
            {"To back up an online game's key, restore one from another device, or get a calendar file of a game's deadlines: "}
            <button class="btn small" id="games-to-online" onclick={go}>{"open My games on the online page"}</button>
        </p>
    }
}
