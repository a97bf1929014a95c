//! The new-game form of an economy game: players and who plays each seat, the setup, the
//! advanced rules and the round limit, with the one-line summary the other rulesets show.

use crate::widgets::select;
use orbis_engine::rules::classic::BotLevel;
use orbis_engine::rules::economy::options::{EconomyOptions, Setup};
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Who plays a seat of a hot-seat economy game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    Computer(BotLevel),
    /// Online: a seat another page plays (or a computer seat every peer computes alike).
    #[cfg_attr(not(feature = "online"), allow(dead_code))]
    Remote,
}

impl Seat {
    /// One character per seat in `localStorage`.
    pub fn code(self) -> char {
        match self {
            Seat::Human => 'h',
            Seat::Computer(BotLevel::Easy) => 'e',
            Seat::Computer(BotLevel::Normal) => 'n',
            Seat::Computer(BotLevel::Hard) => 'x',
            // Never saved: an online game's record is its transcript.
            Seat::Remote => 'r',
        }
    }

    pub fn from_code(c: char) -> Seat {
        match c {
            'e' => Seat::Computer(BotLevel::Easy),
            'n' => Seat::Computer(BotLevel::Normal),
            'x' => Seat::Computer(BotLevel::Hard),
            _ => Seat::Human,
        }
    }
}

/// The form's state.
#[derive(Clone, PartialEq)]
pub struct EconomyForm {
    /// Name and seat per player (2–6).
    pub players: Vec<(String, Seat)>,
    pub options: EconomyOptions,
}

const NAMES: [&str; 6] = ["Ann", "Bob", "Cleo", "Dev", "Eve", "Finn"];

impl Default for EconomyForm {
    fn default() -> Self {
        EconomyForm {
            players: vec![
                (NAMES[0].into(), Seat::Human),
                (NAMES[1].into(), Seat::Computer(BotLevel::Normal)),
                (NAMES[2].into(), Seat::Computer(BotLevel::Normal)),
            ],
            options: EconomyOptions {
                // A game in an evening: the source has no limit; the form offers one.
                round_limit: None,
                ..EconomyOptions::default()
            },
        }
    }
}

pub fn setup_name(s: Setup) -> &'static str {
    match s {
        Setup::EuropeanCapitals => "European capitals",
        Setup::Continents => "Continents",
        Setup::Cards => "Country cards",
        Setup::Draft => "Draft",
    }
}

/// Whether capitals or continents are picked in this setup, so that dealing them at random
/// means something.
fn random_applies(s: Setup) -> bool {
    matches!(s, Setup::EuropeanCapitals | Setup::Continents)
}

/// Why an option does nothing with the other choices made, if it does nothing: the form greys
/// it and says so, and the summary leaves it out.
fn idle_because(id: &str, o: &EconomyOptions) -> Option<&'static str> {
    match id {
        "eo-middle-east" if !o.continent_bonuses => Some("needs continent bonuses"),
        "eo-canals" if !o.roads => Some("needs roads"),
        "eo-random" if !random_applies(o.setup) => {
            Some("only with the European capitals or continents setup")
        }
        "eo-iceland" if o.setup != Setup::EuropeanCapitals => {
            Some("only with the European capitals setup")
        }
        _ => None,
    }
}

/// The chosen rules in one line.
pub fn summary(o: &EconomyOptions, players: usize) -> String {
    let mut rules = vec![];
    let on = [
        (o.continent_bonuses, "continent bonuses"),
        (
            o.middle_east && o.continent_bonuses,
            "Middle East continent",
        ),
        (o.capitals, "capitals"),
        (o.roads, "roads"),
        (o.bases, "bases"),
        (o.fortifications, "fortifications"),
        (o.canals && o.roads, "canals"),
        (o.influence_cards, "influence cards"),
        (o.neutrals, "neutrals"),
    ];
    for (yes, name) in on {
        if yes {
            rules.push(name);
        }
    }
    if o.setup == Setup::EuropeanCapitals && o.iceland_capital {
        rules.push("Iceland may be a capital");
    }
    let limit = match o.round_limit {
        Some(n) => format!("ends after round {n} on the best score"),
        None => "played to the last player standing".into(),
    };
    format!(
        "Economy · {players} players · {} setup{} · {} · {limit}",
        setup_name(o.setup),
        if o.random_picks && random_applies(o.setup) {
            " (dealt at random)"
        } else {
            ""
        },
        if rules.is_empty() {
            "basic rules only".to_string()
        } else {
            rules.join(", ")
        }
    )
}

/// The economy new-game form.
pub fn setup(f: &EconomyForm, on_edit: Callback<EconomyForm>) -> Html {
    let players_cb = {
        let (f, on_edit) = (f.clone(), on_edit.clone());
        Callback::from(move |n: usize| {
            let mut g = f.clone();
            g.players.truncate(n);
            while g.players.len() < n {
                let i = g.players.len();
                g.players
                    .push((NAMES[i].into(), Seat::Computer(BotLevel::Normal)));
            }
            on_edit.emit(g);
        })
    };
    let seats = f.players.iter().enumerate().map(|(i, (name, seat))| {
        let seat_cb = {
            let (f, on_edit) = (f.clone(), on_edit.clone());
            Callback::from(move |s: Seat| {
                let mut g = f.clone();
                g.players[i].1 = s;
                on_edit.emit(g);
            })
        };
        let name_cb = {
            let (f, on_edit) = (f.clone(), on_edit.clone());
            Callback::from(move |e: Event| {
                let v = e.target_unchecked_into::<HtmlInputElement>().value();
                let mut g = f.clone();
                let v = v.trim();
                g.players[i].0 = if v.is_empty() { NAMES[i].into() } else { v.chars().take(16).collect() };
                on_edit.emit(g);
            })
        };
        html! {
            <div class="row seat-row">
                <input class="name" aria-label={format!("Player {} name", i + 1)} value={name.clone()} onchange={name_cb}/>
                { select(format!("eseat-{i}"), &format!("Who plays {name}"), *seat, vec![
                    (Seat::Human, "Human".to_string()),
                    (Seat::Computer(BotLevel::Easy), "Computer (easy)".to_string()),
                    (Seat::Computer(BotLevel::Normal), "Computer (normal)".to_string()),
                    (Seat::Computer(BotLevel::Hard), "Computer (hard)".to_string()),
                ], seat_cb) }
            </div>
        }
    });
    html! {
        <div class="economy-setup">
            <p class="summary" id="rules-summary">{ summary(&f.options, f.players.len()) }</p>
            { select("eplayers".to_string(), "Players", f.players.len(), (2..=6).map(|n| (n, n.to_string())).collect(), players_cb) }
            { for seats }
            { options_fields(&f.options, {
                let f = f.clone();
                on_edit.reform(move |o| EconomyForm { options: o, ..f.clone() })
            }) }
        </div>
    }
}

/// The economy's rules and setup, as fields (the new-game form and the online lobby).
pub fn options_fields(o: &EconomyOptions, on_edit: Callback<EconomyOptions>) -> Html {
    let setup_cb = {
        let (o, on_edit) = (o.clone(), on_edit.clone());
        Callback::from(move |s: Setup| {
            let mut g = o.clone();
            g.setup = s;
            on_edit.emit(g);
        })
    };
    let limit_cb = {
        let (o, on_edit) = (o.clone(), on_edit.clone());
        Callback::from(move |n: u32| {
            let mut g = o.clone();
            g.round_limit = (n > 0).then_some(n);
            on_edit.emit(g);
        })
    };
    type Flag = fn(&mut EconomyOptions) -> &mut bool;
    let middle_east = format!(
        "Middle East is a continent ({} MU a round)",
        orbis_engine::rules::economy::map::EconomyMap::get()
            .middle_east
            .1
    );
    let flags: [(&str, &str, bool, Flag); 11] = [
        (
            "eo-bonuses",
            "Continent bonuses",
            o.continent_bonuses,
            |o| &mut o.continent_bonuses,
        ),
        ("eo-middle-east", &middle_east, o.middle_east, |o| {
            &mut o.middle_east
        }),
        ("eo-capitals", "Capitals", o.capitals, |o| &mut o.capitals),
        ("eo-roads", "Roads", o.roads, |o| &mut o.roads),
        ("eo-bases", "Army and navy bases", o.bases, |o| &mut o.bases),
        ("eo-forts", "Fortifications", o.fortifications, |o| {
            &mut o.fortifications
        }),
        ("eo-canals", "Canals (need roads)", o.canals, |o| {
            &mut o.canals
        }),
        ("eo-cards", "Influence cards", o.influence_cards, |o| {
            &mut o.influence_cards
        }),
        (
            "eo-random",
            "Deal capitals and continents at random",
            o.random_picks,
            |o| &mut o.random_picks,
        ),
        (
            "eo-neutrals",
            "Neutral armies in unclaimed countries",
            o.neutrals,
            |o| &mut o.neutrals,
        ),
        (
            "eo-iceland",
            "Iceland may be a capital",
            o.iceland_capital,
            |o| &mut o.iceland_capital,
        ),
    ];
    let boxes = flags.into_iter().map(|(id, label, value, flag)| {
        let idle = idle_because(id, o);
        let (o, on_edit) = (o.clone(), on_edit.clone());
        let onchange = Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlInputElement>().checked();
            let mut g = o.clone();
            *flag(&mut g) = v;
            on_edit.emit(g);
        });
        html! {
            <label class={classes!("check", idle.is_some().then_some("idle"))} for={id}>
                <input type="checkbox" id={id} checked={value} disabled={idle.is_some()} {onchange}/>{label}
                if let Some(why) = idle { <span class="why">{format!(" ({why})")}</span> }
            </label>
        }
    });
    html! {
        <>
            { select("esetup".to_string(), "Setup", o.setup, vec![
                (Setup::EuropeanCapitals, "European capitals: pick a country in Europe, fully built".to_string()),
                (Setup::Continents, "Continents: pick a continent, then the standard start".to_string()),
                (Setup::Cards, "Country cards: dealt evenly, then the standard start".to_string()),
                (Setup::Draft, "Draft: pick countries in turn, then the standard start".to_string()),
            ], setup_cb) }
            <fieldset class="options"><legend>{"Advanced rules"}</legend>{ for boxes }</fieldset>
            { select("elimit".to_string(), "Round limit", o.round_limit.unwrap_or(0), vec![
                (0, "None: to the last player standing".to_string()),
                (3, "3 rounds: a quick game".to_string()),
                (10, "10 rounds".to_string()), (20, "20 rounds".to_string()),
                (30, "30 rounds".to_string()), (50, "50 rounds".to_string()),
            ], limit_cb) }
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An option that does nothing with the other choices is greyed with its reason and left
    /// out of the summary; Iceland shows in the summary when it may be a capital.
    #[test]
    fn idle_options_are_greyed_and_the_summary_names_iceland() {
        let mut o = EconomyOptions {
            setup: Setup::EuropeanCapitals,
            iceland_capital: true,
            random_picks: true,
            ..EconomyOptions::default()
        };
        let line = summary(&o, 3);
        assert!(line.contains("Iceland may be a capital"), "{line}");
        assert!(line.contains("(dealt at random)"), "{line}");
        assert_eq!(idle_because("eo-iceland", &o), None);
        o.setup = Setup::Cards;
        let line = summary(&o, 3);
        assert!(
            !line.contains("Iceland") && !line.contains("at random"),
            "{line}"
        );
        assert!(idle_because("eo-iceland", &o).is_some());
        assert!(idle_because("eo-random", &o).is_some());
        o.roads = false;
        o.canals = true;
        assert_eq!(idle_because("eo-canals", &o), Some("needs roads"));
        assert!(!summary(&o, 3).contains("canals"));
    }
}
