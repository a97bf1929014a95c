//! The end of a round in short (issue 60, second review): for each player, the battles won and
//! lost, the countries gained and lost, the units before and after, and the income and upkeep the
//! next round brings. Built only from the engine's events (`BattleClosed`, `Gained`,
//! `OwnershipLost`, `Income`, `UpkeepDue`) and its figures (`units_in_play`); shown at the top of
//! the panel through the next round's Get phase. UI state: not saved, so a reloaded page shows it
//! from the next round's end on.

use crate::economy::text::{self, region, site};
use crate::economy::{colour, EconomySession};
use orbis_engine::rules::classic::PlayerId;
use orbis_engine::rules::economy::action::EconomyEvent as E;
use orbis_engine::rules::economy::map::RegionId;
use orbis_engine::rules::economy::state::EconomyState;
use std::collections::BTreeMap;
use yew::prelude::*;

/// One player's round.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Line {
    pub won: Vec<String>,
    pub lost: Vec<String>,
    pub gained: Vec<RegionId>,
    pub given_up: Vec<RegionId>,
    /// Units in play when the round began (after its income, before recruits) and at its end.
    pub units: (u32, u32),
    /// The income and the upkeep owed that the next round brings (its first events).
    pub income: Option<u32>,
    pub upkeep: Option<u32>,
}

/// The round being played and the last one that ended.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub round: u32,
    pub lines: BTreeMap<PlayerId, Line>,
    /// The round that ended last, with its lines.
    pub done: Option<(u32, BTreeMap<PlayerId, Line>)>,
}

impl Tally {
    /// Takes one action's events, with `g` the state after them. A new round's first events
    /// (its income, upkeep and the countries the last round's battles gave) close the last one.
    pub fn record(&mut self, g: &EconomyState, events: &[E]) {
        if self.round == 0 {
            self.begin(g);
        }
        let mut closing: Option<(u32, BTreeMap<PlayerId, Line>)> = None;
        for e in events {
            let next = closing.is_some();
            let lines = match &mut closing {
                Some((_, l)) => l,
                None => &mut self.lines,
            };
            match e {
                E::RoundBegan { round } if *round > self.round => {
                    closing = Some((self.round, std::mem::take(&mut self.lines)));
                    self.round = *round;
                }
                E::BattleClosed {
                    site: s,
                    victories,
                    losses,
                } => {
                    for p in victories {
                        lines.entry(*p).or_default().won.push(site(*s));
                    }
                    for p in losses {
                        lines.entry(*p).or_default().lost.push(site(*s));
                    }
                }
                E::Gained { player, region } => {
                    lines.entry(*player).or_default().gained.push(*region)
                }
                E::OwnershipLost { player, region } => {
                    lines.entry(*player).or_default().given_up.push(*region)
                }
                E::Income { player, income } if next => {
                    lines.entry(*player).or_default().income = Some(income.total())
                }
                E::UpkeepDue { player, due } if next => {
                    lines.entry(*player).or_default().upkeep = Some(*due)
                }
                _ => {}
            }
        }
        if let Some((round, mut lines)) = closing {
            for p in g.playing() {
                lines.entry(p).or_default().units.1 = g.units_in_play(p);
            }
            self.done = Some((round, lines));
            self.begin(g);
        }
    }

    /// Units in play as the round begins.
    fn begin(&mut self, g: &EconomyState) {
        self.round = self.round.max(g.round);
        for p in g.playing() {
            self.lines.entry(p).or_default().units.0 = g.units_in_play(p);
        }
    }
}

/// "Ukraine", "Ukraine and Southern Europe", "A, B and C".
fn and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [a] => a.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// One player's round in words.
pub fn words(l: &Line) -> String {
    let mut parts = vec![];
    match (l.won.len(), l.lost.len()) {
        (0, 0) => parts.push("no battle".to_string()),
        (w, n) => {
            if w > 0 {
                parts.push(format!(
                    "won {} ({})",
                    text::count(w, "battle", "battles"),
                    and(&l.won)
                ));
            }
            if n > 0 {
                parts.push(format!(
                    "lost {} ({})",
                    text::count(n, "battle", "battles"),
                    and(&l.lost)
                ));
            }
        }
    }
    let names = |r: &[RegionId]| and(&r.iter().map(|&r| region(r)).collect::<Vec<_>>());
    if !l.gained.is_empty() {
        parts.push(format!("gained {}", names(&l.gained)));
    }
    if !l.given_up.is_empty() {
        parts.push(format!("lost {}", names(&l.given_up)));
    }
    parts.push(format!("units {} → {}", l.units.0, l.units.1));
    if let Some(i) = &l.income {
        parts.push(format!("income next round {i} MU"));
    }
    match l.upkeep {
        Some(0) | None => {}
        Some(u) => parts.push(format!("upkeep owed {u} MU")),
    }
    format!("{}.", text::cap(&parts.join("; ")))
}

/// The box at the top of the panel: the last round in short, through the next round's Get phase.
pub fn view(eco: &EconomySession) -> Html {
    let g = &eco.game;
    let Some((round, lines)) = eco.ui.summary.done.as_ref() else {
        return html! {};
    };
    if *round + 1 != g.round || g.phase != orbis_engine::rules::economy::phase::Phase::Get {
        return html! {};
    }
    let rows = lines.iter().map(|(&p, l)| {
        html! {
            <li data-player={p.to_string()}>
                <span class="swatch" style={format!("background:{}", colour(p))}></span>
                <b>{format!("{}: ", eco.name(p))}</b>{words(l)}
            </li>
        }
    });
    html! {
        <details class="round-summary" id="round-summary" open=true>
            <summary><h3>{format!("Round {round} in short")}</h3></summary>
            <ul>{ for rows }</ul>
        </details>
    }
}
