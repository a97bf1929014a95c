//! The menu and the new-game screen.

use crate::app::{AppState, Msg, SeatForm, SetupForm, BOT_NAMES};
use crate::classic::options::options_fields;
use crate::widgets::{cap, colour_css, select};
use orbis_engine::classic::{BotLevel, ClassicOptions, Colour, DefendPref, SeatKind};
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The logo, relative to the page (the full bundle's page is in `full/`).
const ICON: &str = if cfg!(feature = "full") {
    "../icons/icon.svg"
} else {
    "icons/icon.svg"
};

#[cfg(feature = "full")]
fn orders_setup(app: &UseReducerHandle<AppState>) -> Html {
    crate::orders::view::setup(app)
}

/// Lite bundle: the orders ruleset is set up on the full page (`Msg::SetRuleset` goes there).
#[cfg(not(feature = "full"))]
fn orders_setup(_: &UseReducerHandle<AppState>) -> Html {
    crate::lite::leaving()
}

/// A file input that reads a save file and dispatches `Msg::Import`.
pub fn import_button(app: &UseReducerHandle<AppState>, id: &str) -> Html {
    let d = app.dispatcher();
    let onchange = Callback::from(move |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            let d = d.clone();
            let reader =
                gloo::file::callbacks::read_as_bytes(&gloo::file::File::from(file), move |res| {
                    d.dispatch(Msg::Import(res.map_err(|e| e.to_string())))
                });
            // The reader must live until its callback runs; it is small, so let it go.
            std::mem::forget(reader);
        }
        input.set_value("");
    });
    html! {
        <label class="btn file-btn" for={id.to_string()}>{"Import save…"}
            <input id={id.to_string()} type="file" accept=".orbis,application/octet-stream" {onchange} />
        </label>
    }
}

pub fn menu(app: &UseReducerHandle<AppState>) -> Html {
    let quick = crate::classic::panel::send(app, Msg::QuickStart);
    let setup = crate::classic::panel::send(app, Msg::ShowSetup);
    let cont = crate::classic::panel::send(app, Msg::Continue);
    html! {
        <main class="menu">
            <div class="menu-card">
                <h1 class="logo"><img src={ICON} alt="" width="56" height="56"/>{"Orbis"}</h1>
                <p class="tag">{"Conquer the world — on one device, against friends or computer opponents. Works offline."}</p>
                if let Some(n) = &app.notice {
                    <p class="notice" role="alert" id="notice">{n}</p>
                }
                <div class="menu-buttons">
                    if app.game.is_some() {
                        <button class="btn primary" id="continue" onclick={cont}>{"Continue game"}</button>
                    }
                    <button class="btn primary" id="quick-start" onclick={quick}>{"Quick start"}</button>
                    <span class="hint">{"You against two computer opponents, standard rules."}</span>
                    <button class="btn" id="new-game" onclick={setup}>{"New game…"}</button>
                    <button class="btn" id="play-online" onclick={crate::classic::panel::send(app, Msg::ShowOnline)}>{"Play online…"}</button>
                    { import_button(app, "import-menu") }
                </div>
            </div>
        </main>
    }
}

pub fn setup_screen(app: &UseReducerHandle<AppState>) -> Html {
    let d = app.dispatcher();
    let form = app.form.clone();
    let edit = {
        let d = d.clone();
        move |f: SetupForm| d.dispatch(Msg::EditForm(f))
    };
    let n = form.seats.len();

    let seat_count = {
        let form = form.clone();
        let edit = edit.clone();
        Callback::from(move |k: usize| {
            let mut f = form.clone();
            while f.seats.len() < k {
                let used: Vec<Colour> = f.seats.iter().map(|s| s.colour).collect();
                let colour = *Colour::ALL.iter().find(|c| !used.contains(c)).unwrap();
                f.seats.push(SeatForm {
                    name: BOT_NAMES[f.seats.len()].into(),
                    colour,
                    kind: SeatKind::Bot(BotLevel::Normal),
                    defend: DefendPref::Max,
                });
            }
            f.seats.truncate(k);
            edit(f);
        })
    };

    let seats = form.seats.iter().enumerate().map(|(i, seat)| {
        let name_cb = {
            let form = form.clone();
            let edit = edit.clone();
            Callback::from(move |e: InputEvent| {
                let v = e.target_unchecked_into::<HtmlInputElement>().value();
                let mut f = form.clone();
                f.seats[i].name = v.chars().take(24).collect();
                edit(f);
            })
        };
        let kind_cb = {
            let form = form.clone();
            let edit = edit.clone();
            Callback::from(move |k: SeatKind| {
                let mut f = form.clone();
                f.seats[i].kind = k;
                edit(f);
            })
        };
        let defend_cb = {
            let form = form.clone();
            let edit = edit.clone();
            Callback::from(move |d: DefendPref| {
                let mut f = form.clone();
                f.seats[i].defend = d;
                edit(f);
            })
        };
        let colour_cb = {
            let form = form.clone();
            let edit = edit.clone();
            Callback::from(move |c: Colour| {
                let mut f = form.clone();
                // Colours are unique: swap with the seat that had it.
                let old = f.seats[i].colour;
                for s in f.seats.iter_mut() {
                    if s.colour == c {
                        s.colour = old;
                    }
                }
                f.seats[i].colour = c;
                edit(f);
            })
        };
        html! {
            <fieldset class="seat" style={format!("--seat:{}", colour_css(seat.colour))}>
                <legend>{format!("Seat {}", i + 1)}</legend>
                <label class="field" for={format!("seat-name-{i}")}><span>{"Name"}</span>
                    <input id={format!("seat-name-{i}")} value={seat.name.clone()} oninput={name_cb} maxlength="24"/>
                </label>
                { select(format!("seat-kind-{i}"), "Player", seat.kind, vec![
                    (SeatKind::Human, "Human".to_string()),
                    (SeatKind::Bot(BotLevel::Easy), "Computer (easy)".to_string()),
                    (SeatKind::Bot(BotLevel::Normal), "Computer (normal)".to_string()),
                ], kind_cb) }
                { select(format!("seat-colour-{i}"), "Colour", seat.colour,
                    Colour::ALL.iter().map(|&c| (c, cap(c.name()))).collect(), colour_cb) }
                { select(format!("seat-defend-{i}"), "Defender dice", seat.defend, vec![
                    (DefendPref::Max, "As many as possible".to_string()),
                    (DefendPref::One, "Always one".to_string()),
                ], defend_cb) }
            </fieldset>
        }
    });

    let back = crate::classic::panel::send(app, Msg::ShowMenu);
    let start = crate::classic::panel::send(app, Msg::Start);
    html! {
        <main class="setup">
            <h1>{"New game"}</h1>
            if let Some(n) = &app.notice { <p class="notice" role="alert">{n}</p> }
            <div class="row ruleset" role="group" aria-label="Ruleset">
                <button class={classes!("btn", (!app.setup_orders).then_some("on"))} id="ruleset-classic"
                    onclick={crate::classic::panel::send(app, Msg::SetRuleset(false))}>{"Classic (dice)"}</button>
                <button class={classes!("btn", app.setup_orders.then_some("on"))} id="ruleset-orders"
                    onclick={crate::classic::panel::send(app, Msg::SetRuleset(true))}>{"Orders (simultaneous)"}</button>
            </div>
            if app.setup_orders {
                { orders_setup(app) }
            } else {
            <section class="panel-box">
                { select("seat-count".into(), "Players", n, (2..=6).map(|k| (k, k.to_string())).collect(), seat_count) }
                <div class="seats">{ for seats }</div>
            </section>
            <section class="panel-box options">
                <h2>{"Rules"}</h2>
                { options_fields(&form.options, n, {
                    let form = form.clone();
                    let edit = edit.clone();
                    Callback::from(move |o: ClassicOptions| {
                        let mut f = form.clone();
                        f.options = o;
                        edit(f);
                    })
                }) }
            </section>
            }
            <div class="row">
                <button class="btn" onclick={back}>{"Back"}</button>
                <button class="btn primary" id="start-game" onclick={start}>{"Start game"}</button>
            </div>
        </main>
    }
}
