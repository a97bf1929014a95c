//! The menu and the new-game screen.

use crate::app::{classic_view, AppState, Msg, Ruleset};
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
    let d = app.dispatcher();
    crate::orders::view::setup(
        &app.oform,
        Callback::from(move |f| d.dispatch(Msg::OrdersForm(f))),
    )
}

/// Lite bundle: the orders ruleset is set up on the full page (`Msg::SetRuleset` goes there).
#[cfg(not(feature = "full"))]
fn orders_setup(_: &UseReducerHandle<AppState>) -> Html {
    crate::lite::leaving()
}

#[cfg(feature = "full")]
fn economy_setup(app: &UseReducerHandle<AppState>) -> Html {
    let d = app.dispatcher();
    crate::economy::form::setup(
        &app.eform,
        Callback::from(move |f| d.dispatch(Msg::EconomyForm(f))),
    )
}

/// Lite bundle: the economy is set up on the full page (`Msg::SetRuleset` goes there).
#[cfg(not(feature = "full"))]
fn economy_setup(_: &UseReducerHandle<AppState>) -> Html {
    crate::lite::leaving()
}

/// Opens How to play (`Nav::Rules`: the ruleset of the game, or of the setup screen).
fn rules() -> Msg {
    Msg::Classic(crate::classic::play::Msg::Nav(crate::widgets::Nav::Rules))
}

/// Starts a lesson ("Learn to play", `tutorial`).
fn learn(course: crate::tutorial::Course) -> Msg {
    Msg::Coach(crate::tutorial::Coach::Start(course))
}

/// A click handler that sends `msg` to the app.
pub fn send(app: &UseReducerHandle<AppState>, msg: Msg) -> Callback<MouseEvent> {
    let d = app.dispatcher();
    Callback::from(move |_: MouseEvent| d.dispatch(msg.clone()))
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

/// "Replay this game" for the autosaved game, or why it has none.
fn replay_entry(app: &UseReducerHandle<AppState>) -> Html {
    #[cfg(feature = "full")]
    let (game, history) = match (&app.orders, &app.economy) {
        (_, Some(e)) => (e.online.is_none(), e.history.is_some()),
        (Some(o), _) => (o.online.is_none(), o.history.is_some()),
        _ => (app.classic.game.is_some(), app.classic.history.is_some()),
    };
    #[cfg(not(feature = "full"))]
    let (game, history) = (app.classic.game.is_some(), app.classic.history.is_some());
    let replay = Msg::Classic(crate::classic::play::Msg::Nav(crate::widgets::Nav::Replay));
    if !app.has_save || !game {
        html! {}
    } else if history {
        html! { <button class="btn" id="menu-replay" onclick={send(app, replay)}>{"Replay this game"}</button> }
    } else {
        html! { <span class="hint" id="no-replay">{format!("No replay: {}", crate::app::NO_HISTORY)}</span> }
    }
}

#[derive(Properties, PartialEq)]
struct QuickProps {
    app: UseReducerHandle<AppState>,
}

/// The quick-game buttons. With a game in progress (the one Continue resumes) a click first
/// asks: the quick game replaces it; "Keep playing" goes back to it instead.
#[function_component]
fn QuickGames(p: &QuickProps) -> Html {
    let app = &p.app;
    let asking = use_state(|| None::<(Ruleset, &'static str)>);
    let button = |id: &'static str, r: Ruleset, name: &'static str, who: &'static str| {
        let onclick = {
            let (app, asking, playing) = (app.clone(), asking.clone(), app.has_save);
            Callback::from(move |_: MouseEvent| {
                if playing {
                    asking.set(Some((r, name)));
                } else {
                    app.dispatch(Msg::QuickStart(r));
                }
            })
        };
        html! {
            <button class="btn primary quick" {id} {onclick}>
                <b>{name}</b><span>{who}</span>
            </button>
        }
    };
    let confirm = asking.map(|(r, name)| {
        let (a1, s1) = (app.clone(), asking.clone());
        let (a2, s2) = (app.clone(), asking.clone());
        let s3 = asking.clone();
        html! {
            <div class="quick-confirm" id="quick-confirm" role="alertdialog" aria-labelledby="quick-confirm-q">
                <p id="quick-confirm-q"><b>{format!("Start a quick {name} game?")}</b>{
                    " Your game in progress will be replaced: it is not kept anywhere unless you \
                      exported it."}</p>
                <div class="row">
                    <button class="btn primary" id="quick-confirm-yes" onclick={Callback::from(move |_: MouseEvent| {
                        s1.set(None);
                        a1.dispatch(Msg::QuickStart(r));
                    })}>{format!("Replace it with a new {name} game")}</button>
                    <button class="btn" id="quick-confirm-keep" onclick={Callback::from(move |_: MouseEvent| {
                        s2.set(None);
                        a2.dispatch(Msg::Continue);
                    })}>{"Keep playing my game"}</button>
                    <button class="btn" id="quick-confirm-back" onclick={Callback::from(move |_: MouseEvent| s3.set(None))}>{"Back"}</button>
                </div>
            </div>
        }
    });
    html! {
        <section class="quick-games" aria-labelledby="quick-title">
            <h2 id="quick-title">{"Quick game"}</h2>
            <p class="hint">{"One click: you against computer players (level normal), standard rules."}</p>
            { button("quick-start", Ruleset::Classic, "Classic", "Dice battles · you and 2 computers") }
            { button("quick-orders", Ruleset::Orders, "Orders",
                "Secret orders, Europe 1901 · you are France, 6 computers") }
            { button("quick-economy", Ruleset::Economy, "Economy",
                "Money, plans and battles · you and 2 computers") }
            { for confirm }
        </section>
    }
}

pub fn menu(app: &UseReducerHandle<AppState>) -> Html {
    let setup = send(app, Msg::ShowSetup);
    let cont = send(app, Msg::Continue);
    html! {
        <main class="menu">
            <div class="menu-card">
                <h1 class="logo"><img src={ICON} alt="" width="56" height="56"/>{"Orbis"}</h1>
                <p class="tag">{"Conquer the world — on one device, against friends or computer opponents. Works offline."}</p>
                if let Some(n) = &app.notice {
                    <p class="notice" role="alert" id="notice">{n}</p>
                }
                <div class="menu-buttons">
                    if app.has_save {
                        <button class="btn primary continue" id="continue" onclick={cont}>{"Continue your game"}</button>
                    }
                    { replay_entry(app) }
                    <QuickGames app={app.clone()} />
                    <button class="btn" id="new-game" onclick={setup}>{"New game… (choose rules and players)"}</button>
                    <button class="btn" id="play-online" onclick={send(app, Msg::ShowOnline)}>{"Play online…"}</button>
                    <button class="btn" id="my-games" onclick={send(app, Msg::ShowGames)}>{"My games"}</button>
                    { import_button(app, "import-menu") }
                    <section class="learn-choice" aria-labelledby="learn-title">
                        <h2 id="learn-title">{"Learn to play: a first game with a coach"}</h2>
                        <div class="row">
                            <button class="btn" id="learn-to-play" onclick={send(app, learn(crate::tutorial::Course::Classic))}>{"Classic"}</button>
                            <button class="btn" id="learn-orders" onclick={send(app, learn(crate::tutorial::Course::Orders))}>{"Orders"}</button>
                            <button class="btn" id="learn-economy" onclick={send(app, learn(crate::tutorial::Course::Economy))}>{"Economy"}</button>
                        </div>
                    </section>
                    <button class="btn" id="how-to-play" onclick={send(app, rules())}>{"How to play"}</button>
                </div>
            </div>
        </main>
    }
}

pub fn setup_screen(app: &UseReducerHandle<AppState>) -> Html {
    let r = app.setup_ruleset;
    let back = send(app, Msg::ShowMenu);
    let start = send(app, Msg::Start);
    html! {
        <main class="setup">
            <h1>{"New game"}</h1>
            if let Some(n) = &app.notice { <p class="notice" role="alert">{n}</p> }
            <div class="row ruleset" role="group" aria-label="Ruleset">
                <button class={classes!("btn", (r == Ruleset::Classic).then_some("on"))} id="ruleset-classic"
                    onclick={send(app, Msg::SetRuleset(Ruleset::Classic))}>{"Classic (dice)"}</button>
                <button class={classes!("btn", (r == Ruleset::Orders).then_some("on"))} id="ruleset-orders"
                    onclick={send(app, Msg::SetRuleset(Ruleset::Orders))}>{"Orders (simultaneous)"}</button>
                <button class={classes!("btn", (r == Ruleset::Economy).then_some("on"))} id="ruleset-economy"
                    onclick={send(app, Msg::SetRuleset(Ruleset::Economy))}>{"Economy (money and plans)"}</button>
            </div>
            { match r {
                Ruleset::Orders => orders_setup(app),
                Ruleset::Economy => economy_setup(app),
                Ruleset::Classic => crate::classic::setup::setup_form(&classic_view(app)),
            } }
            <div class="row">
                <button class="btn" onclick={back}>{"Back"}</button>
                <button class="btn" id="setup-how-to-play" onclick={send(app, rules())}>{"How to play"}</button>
                <button class="btn primary" id="start-game" onclick={start}>{"Start game"}</button>
            </div>
        </main>
    }
}
