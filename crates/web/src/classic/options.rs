//! The classic ruleset's options as a form (new game, online lobby) and as a one-line summary.

use crate::widgets::select;
use orbis_engine::classic::{
    CardBonus, CardSchedule, ClassicOptions, FortifyRule, MissionDeck, Selection,
};
use web_sys::HtmlInputElement;
use yew::prelude::*;

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
    // Source 002: "constant value: 4 armies".
    let constant = match o.cards {
        CardSchedule::Constant(v) => v,
        _ => 4,
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
                    _ => CardSchedule::Constant(match f.cards { CardSchedule::Constant(c) => c, _ => 4 }),
                })) }
                if sched_val == 3 {
                    { num_input("opt-constant", "Constant set value", constant, 1, 60,
                        opt(|f, v| f.cards = CardSchedule::Constant(v))) }
                }
                { select("opt-bonus".into(), "+2 armies for traded cards you hold", o.card_bonus, vec![
                    (CardBonus::OnePerTurn, "On one territory, once a turn".to_string()),
                    (CardBonus::EachCard, "On each such territory, every trade".to_string()),
                ], {
                    let (o, on) = (options.clone(), on.clone());
                    Callback::from(move |b| on.emit(ClassicOptions { card_bonus: b, ..o.clone() }))
                }) }
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
                    if n < 6 {
                        { select("opt-mission-deck".into(), "Missions to destroy absent colours", o.mission_deck, vec![
                            (MissionDeck::WithoutAbsentColours, "Removed before dealing".to_string()),
                            (MissionDeck::AbsentAsTerritories, "Dealt, and become \"24 territories\"".to_string()),
                        ], {
                            let (o, on) = (options.clone(), on.clone());
                            Callback::from(move |d| on.emit(ClassicOptions { mission_deck: d, ..o.clone() }))
                        }) }
                    }
                }
                { check("opt-two-dice", "Defenders roll two dice even with one army", o.defend_two_with_one,
                    opt(|f, v| f.defend_two_with_one = v == 1)) }
                if n >= 3 {
                    { num_input("opt-neutral-t", "Neutral territories", o.neutral_territories as u32, 0, 20,
                        opt(|f, v| f.neutral_territories = v as u8)) }
                    { num_input("opt-neutral-a", "Armies per neutral territory", o.neutral_armies as u32, 1, 10,
                        opt(|f, v| f.neutral_armies = v as u8)) }
                } else {
                    <p class="hint">{"Two-player games always include a neutral army."}</p>
                }
                <p class="hint">{"Each player's defender dice can also be changed during play, for all their territories or one at a time."}</p>
                <p class="hint rules-summary" id="opt-summary">{options_summary(options, n)}</p>
        </>
    }
}

/// The rules of a classic game in one line, so every player sees what a game or a proposal
/// agrees to; `players` at the table decides whether the mission deck matters.
pub fn options_summary(o: &ClassicOptions, players: usize) -> String {
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
    let goal = match (o.missions && players < 6, o.mission_deck) {
        (false, _) => goal,
        (true, MissionDeck::WithoutAbsentColours) => goal + " (absent colours' cards removed)",
        (true, MissionDeck::AbsentAsTerritories) => {
            goal + " (absent colours' cards become 24 territories)"
        }
    };
    let bonus = match o.card_bonus {
        CardBonus::OnePerTurn => "+2 for one held card a turn",
        CardBonus::EachCard => "+2 for each held card",
    };
    let defence = if o.defend_two_with_one {
        "defenders roll two dice even with one army"
    } else {
        "defenders roll two dice, one with a single army"
    };
    let mut s = format!("Rules: {cards}, {bonus}, {fortify}, {selection}, {goal}, {defence}");
    if o.neutral_territories > 0 {
        s += &format!(
            ", {} neutral territories of {} armies",
            o.neutral_territories, o.neutral_armies
        );
    }
    s + "."
}
