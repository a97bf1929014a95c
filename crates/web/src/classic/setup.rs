//! The classic new-game form: seats and rules.

use crate::classic::options::options_fields;
use crate::classic::play::{Msg, SeatForm, SetupForm, View, BOT_NAMES};
use crate::widgets::{cap, colour_css, select};
use orbis_engine::classic::{BotLevel, ClassicOptions, Colour, DefendPref, SeatKind};
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The classic new-game form: players (name, kind, colour, defender dice) and the rules.
pub fn setup_form(app: &View) -> Html {
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
                    (SeatKind::Bot(BotLevel::Hard), "Computer (hard)".to_string()),
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

    html! {
        <>
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
        </>
    }
}
