//! The menu and the new-game screen.

use crate::app::{AppState, Msg, SeatForm, SetupForm, BOT_NAMES};
use orbis_engine::classic::{
    BotLevel, CardSchedule, ClassicOptions, Colour, DefendPref, FortifyRule, SeatKind, Selection,
};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

pub fn colour_css(c: Colour) -> &'static str {
    match c {
        Colour::Red => "#d62839",
        Colour::Blue => "#1f6fe5",
        Colour::Green => "#2a9d4b",
        Colour::Yellow => "#f0c02f",
        Colour::Grey => "#8d939c",
        Colour::Black => "#2d2d33",
    }
}

/// The logo, relative to the page (the full bundle's page is in `full/`).
const ICON: &str = if cfg!(feature = "full") {
    "../icons/icon.svg"
} else {
    "icons/icon.svg"
};

#[cfg(feature = "full")]
fn orders_setup(app: &UseReducerHandle<AppState>) -> Html {
    crate::orders_view::setup(app)
}

/// Lite bundle: the orders ruleset is set up on the full page (`Msg::SetRuleset` goes there).
#[cfg(not(feature = "full"))]
fn orders_setup(_: &UseReducerHandle<AppState>) -> Html {
    crate::lite::leaving()
}

fn cap(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
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
    let quick = crate::panel::send(app, Msg::QuickStart);
    let setup = crate::panel::send(app, Msg::ShowSetup);
    let cont = crate::panel::send(app, Msg::Continue);
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
                    <button class="btn" id="play-online" onclick={crate::panel::send(app, Msg::ShowOnline)}>{"Play online…"}</button>
                    { import_button(app, "import-menu") }
                </div>
            </div>
        </main>
    }
}

/// A labelled `<select>` over `choices`; emits the chosen value. The generic part is a thin
/// wrapper so the markup is compiled once (smaller wasm).
fn select<T: Copy + PartialEq + 'static>(
    id: String,
    label: &str,
    value: T,
    choices: Vec<(T, String)>,
    on: Callback<T>,
) -> Html {
    let current = choices.iter().position(|c| c.0 == value).unwrap_or(0);
    let vals: Vec<T> = choices.iter().map(|c| c.0).collect();
    let names: Vec<String> = choices.into_iter().map(|c| c.1).collect();
    select_index(
        id,
        label,
        current,
        names,
        Callback::from(move |i: usize| on.emit(vals[i])),
    )
}

fn select_index(
    id: String,
    label: &str,
    current: usize,
    names: Vec<String>,
    on: Callback<usize>,
) -> Html {
    let n = names.len();
    let onchange = Callback::from(move |e: Event| {
        let s: HtmlSelectElement = e.target_unchecked_into();
        if let Ok(i) = s.value().parse::<usize>() {
            if i < n {
                on.emit(i);
            }
        }
    });
    html! {
        <label class="field" for={id.clone()}><span>{label}</span>
            <select id={id} {onchange}>
                { for names.iter().enumerate().map(|(i, name)| html! {
                    <option value={i.to_string()} selected={i == current}>{name.clone()}</option>
                }) }
            </select>
        </label>
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

    let back = crate::panel::send(app, Msg::ShowMenu);
    let start = crate::panel::send(app, Msg::Start);
    html! {
        <main class="setup">
            <h1>{"New game"}</h1>
            if let Some(n) = &app.notice { <p class="notice" role="alert">{n}</p> }
            <div class="row ruleset" role="group" aria-label="Ruleset">
                <button class={classes!("btn", (!app.setup_orders).then_some("on"))} id="ruleset-classic"
                    onclick={crate::panel::send(app, Msg::SetRuleset(false))}>{"Classic (dice)"}</button>
                <button class={classes!("btn", app.setup_orders.then_some("on"))} id="ruleset-orders"
                    onclick={crate::panel::send(app, Msg::SetRuleset(true))}>{"Orders (simultaneous)"}</button>
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

/// The classic rule options as form fields (new-game screen and the online lobby); emits the
/// edited options. `players` decides whether the neutral-army fields apply.
pub fn options_fields(
    options: &ClassicOptions,
    players: usize,
    on: Callback<ClassicOptions>,
) -> Html {
    let n = players;
    let o = options.clone();
    let opt = |f: fn(&mut ClassicOptions, u32)| {
        let o = options.clone();
        let on = on.clone();
        Callback::from(move |v: u32| {
            let mut x = o.clone();
            f(&mut x, v);
            on.emit(x);
        })
    };
    let sched_val = match o.cards {
        CardSchedule::Escalating => 0,
        CardSchedule::PlusOne => 1,
        CardSchedule::FourThenFive => 2,
        CardSchedule::Constant(_) => 3,
    };
    let constant = match o.cards {
        CardSchedule::Constant(v) => v,
        _ => 10,
    };
    let fort_val = match o.fortify {
        FortifyRule::OneToOneAdjacent => 0,
        FortifyRule::OneToManyAdjacent => 1,
        FortifyRule::ManyToManyAdjacent => 2,
        FortifyRule::ManyToManyConnected => 3,
    };
    let num_input = |id: &str, label: &str, value: u32, min: u32, max: u32, cb: Callback<u32>| {
        let oninput = Callback::from(move |e: InputEvent| {
            if let Ok(v) = e
                .target_unchecked_into::<HtmlInputElement>()
                .value()
                .parse::<u32>()
            {
                cb.emit(v.clamp(min, max));
            }
        });
        html! {
            <label class="field" for={id.to_string()}><span>{label}</span>
                <input id={id.to_string()} type="number" min={min.to_string()} max={max.to_string()}
                    value={value.to_string()} {oninput}/>
            </label>
        }
    };
    let check = |id: &str, label: &str, value: bool, cb: Callback<u32>| {
        let onchange = Callback::from(move |e: Event| {
            let c = e.target_unchecked_into::<HtmlInputElement>().checked();
            cb.emit(c as u32);
        });
        html! {
            <label class="check" for={id.to_string()}>
                <input id={id.to_string()} type="checkbox" checked={value} {onchange}/>
                <span>{label}</span>
            </label>
        }
    };
    html! {
        <>
                { select("opt-cards".into(), "Card trade-in values", sched_val, vec![
                    (0u32, "Escalating: 4, 6, 8, 10, 12, 15, +5…".to_string()),
                    (1, "Plus one: 4, 5, 6, 7…".to_string()),
                    (2, "4, then 5 for every set".to_string()),
                    (3, "Constant value".to_string()),
                ], opt(|f, v| f.cards = match v {
                    0 => CardSchedule::Escalating,
                    1 => CardSchedule::PlusOne,
                    2 => CardSchedule::FourThenFive,
                    _ => CardSchedule::Constant(match f.cards { CardSchedule::Constant(c) => c, _ => 10 }),
                })) }
                if sched_val == 3 {
                    { num_input("opt-constant", "Constant set value", constant, 1, 60,
                        opt(|f, v| f.cards = CardSchedule::Constant(v))) }
                }
                { select("opt-fortify".into(), "Fortify", fort_val, vec![
                    (0u32, "One move to an adjacent territory".to_string()),
                    (1, "From one territory to any adjacent ones".to_string()),
                    (2, "Any moves between adjacent territories".to_string()),
                    (3, "Any moves along connected territories".to_string()),
                ], opt(|f, v| f.fortify = match v {
                    0 => FortifyRule::OneToOneAdjacent,
                    1 => FortifyRule::OneToManyAdjacent,
                    2 => FortifyRule::ManyToManyAdjacent,
                    _ => FortifyRule::ManyToManyConnected,
                })) }
                { select("opt-selection".into(), "Territories", if o.selection == Selection::Random { 0u32 } else { 1 }, vec![
                    (0u32, "Dealt at random".to_string()),
                    (1, "Chosen in turn".to_string()),
                ], opt(|f, v| f.selection = if v == 0 { Selection::Random } else { Selection::Chosen })) }
                { check("opt-missions", "Secret missions", o.missions, opt(|f, v| f.missions = v == 1)) }
                if o.missions {
                    { check("opt-hold", "A mission must hold for a full round", o.hold_mission_full_round,
                        opt(|f, v| f.hold_mission_full_round = v == 1)) }
                }
                if n >= 3 {
                    { num_input("opt-neutral-t", "Neutral territories", o.neutral_territories as u32, 0, 20,
                        opt(|f, v| f.neutral_territories = v as u8)) }
                    { num_input("opt-neutral-a", "Armies per neutral territory", o.neutral_armies as u32, 1, 10,
                        opt(|f, v| f.neutral_armies = v as u8)) }
                } else {
                    <p class="hint">{"Two-player games always include a neutral army."}</p>
                }
                <p class="hint">{"Each player's defender dice can also be changed during play."}</p>
        </>
    }
}

/// The rules of a classic game in one line, so every player sees what a proposal agrees to.
#[cfg(feature = "full")] // the online lobby
pub fn options_summary(o: &ClassicOptions) -> String {
    let cards = match o.cards {
        CardSchedule::Escalating => "escalating card sets".to_string(),
        CardSchedule::PlusOne => "card sets +1 each".to_string(),
        CardSchedule::FourThenFive => "card sets 4, then 5".to_string(),
        CardSchedule::Constant(v) => format!("card sets worth {v}"),
    };
    let fortify = match o.fortify {
        FortifyRule::OneToOneAdjacent => "one adjacent fortify move",
        FortifyRule::OneToManyAdjacent => "fortify from one territory to adjacent ones",
        FortifyRule::ManyToManyAdjacent => "any adjacent fortify moves",
        FortifyRule::ManyToManyConnected => "fortify along connected territories",
    };
    let selection = match o.selection {
        Selection::Random => "territories dealt at random",
        Selection::Chosen => "territories chosen in turn",
    };
    let goal = match (o.missions, o.hold_mission_full_round) {
        (false, _) => "world domination".to_string(),
        (true, false) => "secret missions".to_string(),
        (true, true) => "secret missions held a full round".to_string(),
    };
    let mut s = format!("Rules: {cards}, {fortify}, {selection}, {goal}");
    if o.neutral_territories > 0 {
        s += &format!(
            ", {} neutral territories of {} armies",
            o.neutral_territories, o.neutral_armies
        );
    }
    s + "."
}
