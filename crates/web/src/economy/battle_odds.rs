//! The odds of a battle's choices in words, as the classic attack box shows them: the chance an
//! attack fought to the end wipes out the other side and what each side loses on average, what
//! each roll adds to each die (fortifications spelled out), and what a withdraw or a landing
//! costs if it is intercepted. Every number comes from the engine (`economy::odds`); this file
//! only words it.

use crate::economy::text;
use crate::widgets::pct;
use orbis_engine::rules::classic::PlayerId;
use orbis_engine::rules::economy::battlefield::{Foe, Intercepted, Pending, Site};
use orbis_engine::rules::economy::odds::{AttackOdds, Ending, EscapeOdds, Getaway};
use orbis_engine::rules::economy::roll::{self, Side};
use orbis_engine::rules::economy::state::EconomyState;
use orbis_engine::rules::economy::units::Kind;
use yew::prelude::*;

/// An average number of units, one decimal.
fn avg(x: f64) -> String {
    let t = (x * 10.0).round().max(0.0) as u32;
    format!("{}.{}", t / 10, t % 10)
}

fn units(kind: Kind, n: u32) -> String {
    match kind {
        Kind::Army => text::count(n as usize, "army", "armies"),
        Kind::Navy => text::count(n as usize, "navy", "navies"),
    }
}

/// What one side adds to its die, in words ("+1 more units, +1 flanks"; "nothing").
fn adds(me: &Side, other: &Side) -> String {
    let ts = roll::terms(me, other);
    if ts.is_empty() {
        return "nothing".into();
    }
    let words: Vec<String> = ts.into_iter().map(text::term).collect();
    format!(
        "{} (total {:+})",
        words.join(", "),
        roll::modifier(me, other)
    )
}

/// `who` in a sentence: "you" for the player reading, else the player's name.
fn name(g: &EconomyState, viewer: PlayerId, f: Foe) -> String {
    match f {
        Foe::Player(q) if q == viewer => "you".into(),
        f => text::foe(g, f),
    }
}

/// The odds box of `p`'s attack on `target` with units of `kind` at `site`, read by `viewer`:
/// the attack `p` may declare, or the one under way (fought on from here).
pub fn attack(
    g: &EconomyState,
    site: Site,
    p: PlayerId,
    target: Foe,
    kind: Kind,
    viewer: PlayerId,
    id: String,
) -> Html {
    let going = g
        .assault(site)
        .is_some_and(|a| (a.attacker, a.target, a.kind) == (p, target, kind));
    let Some(odds) = g.attack_odds::<f64>(site, p, target, kind) else {
        return html! {};
    };
    let AttackOdds {
        attacker_units,
        target_units,
        next: (a, d),
        ..
    } = odds;
    let attacker = name(g, viewer, Foe::Player(p));
    let them = name(g, viewer, target);
    let (lost_a, lost_t) = odds.expected_losses();
    let withdrew = odds.chance(|e| matches!(e, Ending::Withdrew(_)));
    let both = odds.chance(|e| e == Ending::BothGone);
    let lead = match (going, p == viewer) {
        (false, _) => "If you attack and roll to the end",
        (true, true) => "If you roll on to the end",
        (true, false) => "If this attack rolls on to the end",
    };
    let wipe = format!(
        "{lead}, the chance that {attacker} destroy{} all {} of {}: ",
        if attacker == "you" { "" } else { "s" },
        units(kind, target_units),
        if them == "you" {
            "yours".to_string()
        } else {
            text::foe(g, target)
        }
    );
    // Verbs agree with "you" or a name: "you lose", "Bob loses".
    let s_of = |who: &str| if who == "you" { "" } else { "s" };
    let losses = format!(
        "On average {attacker} lose{} {} of {} units here and {them} lose{} {}.",
        s_of(&attacker),
        avg(lost_a),
        attacker_units,
        s_of(&them),
        avg(lost_t),
    );
    let extra = [
        (both > 0.0005).then(|| {
            format!(
                "{} that the last units of both fall in the same roll",
                pct(both)
            )
        }),
        (withdrew > 0.0005).then(|| {
            format!(
                "{} that a standing order to withdraw ends it first",
                pct(withdrew)
            )
        }),
    ];
    let extra: Vec<String> = extra.into_iter().flatten().collect();
    let roll_line = format!(
        "Each roll, one unit against one: {attacker} roll{0} a die and add{0} {1}; {them} add{2} {3}. The lower total loses its unit, equal totals both lose.",
        s_of(&attacker),
        adds(&a, &d),
        s_of(&them),
        adds(&d, &a),
    );
    let six = d.defender.then(|| {
        format!(
            "{} defend{}: a defender's 6 always wins the roll.",
            text::cap(&them),
            s_of(&them)
        )
    });
    let walls = d.fortified.then(|| {
        "Fortifications: defenders behind them add +1 for the walls on top of +1 for defending. \
         Attacking them usually costs more units than it kills; a siege rolls no dice: besieged \
         units cannot pay their upkeep or withdraw until they attack out, and attacking out they \
         roll without their defender and fortification bonuses."
            .to_string()
    });
    let weak = a
        .amphibious
        .then(|| "Armies attacking from the water are amphibious: −1 on every roll.".to_string());
    // Visible: the chance, the losses and, behind walls, the one warning a new player needs;
    // how each roll works folds away (issue 60: a round's panel text had grown to 5,600
    // characters, most of it these paragraphs repeated on every screen of a battle).
    let wall_warning = d.fortified.then(|| {
        format!(
            "Behind fortifications: {them} add{} +1 for defending and +1 for the walls to every roll.",
            s_of(&them)
        )
    });
    html! {
        <div class="attack-box battle-odds" id={id}>
            <div class="odds">{wipe}<b>{pct(odds.win())}</b></div>
            <p class="hint">{losses}</p>
            if let Some(w) = wall_warning { <p class="hint fortified-note">{w}</p> }
            <details class="odds-why">
                <summary>{"How the dice work here"}</summary>
                if !extra.is_empty() { <p class="hint">{format!("Also {}.", extra.join("; "))}</p> }
                <p class="hint">{"The odds assume nobody withdraws or interrupts."}</p>
                <p class="hint">{roll_line}</p>
                if let Some(s) = six { <p class="hint">{s}</p> }
                if let Some(w) = walls { <p class="hint">{w}</p> }
                if let Some(w) = weak { <p class="hint">{w}</p> }
            </details>
        </div>
    }
}

/// What `p`'s withdraw or landing costs if every player who may intercept it does, read by
/// `viewer` (the withdrawing player, or an interceptor deciding).
pub fn escape(
    g: &EconomyState,
    site: Site,
    p: PlayerId,
    what: &Intercepted,
    viewer: PlayerId,
) -> Html {
    let interceptors = g.interceptors(site, &Pending::new(p, *what));
    let (getaway, verb) = match *what {
        Intercepted::Withdraw(w) => (Getaway::Withdraw(w), "get away"),
        Intercepted::Landing {
            armies,
            navies_engaged,
            ..
        } => (
            Getaway::Land {
                armies,
                navies_engaged,
            },
            "get ashore",
        ),
        Intercepted::Infrastructure { .. } => return html! {},
    };
    let fought = g
        .combat
        .as_ref()
        .and_then(|c| c.battle.as_ref())
        .is_some_and(|b| b.fought.iter().any(|&(q, _)| q == p));
    let loss_note = (fought && matches!(what, Intercepted::Withdraw(_)) && viewer == p)
        .then_some(" Leaving after fighting counts this battle as a loss for you.");
    if interceptors.is_empty() {
        return html! { <p class="hint escape-odds">{"Nobody here can intercept: every unit goes."}{ for loss_note }</p> };
    }
    let Some(odds): Option<EscapeOdds<f64>> = g.escape_odds(site, p, getaway, &interceptors) else {
        return html! {};
    };
    let who: Vec<String> = interceptors
        .iter()
        .map(|&q| name(g, viewer, Foe::Player(q)))
        .collect();
    let (lost, theirs) = odds.expected_losses();
    let mover = name(g, viewer, Foe::Player(p));
    let line = if viewer == p {
        let they = who.join(" and ");
        let one = who.len() == 1;
        format!(
            "If {they} intercept{}: a {} chance that all {} {verb}; on average you lose {} of them and {they} {} {}{}.",
            if one { "s" } else { "" },
            pct(odds.all_away()),
            odds.units,
            avg(lost),
            if one { "loses" } else { "lose" },
            avg(theirs),
            if one { "" } else { " together" },
        )
    } else {
        format!(
            "If you intercept: {mover} lose{} {} of {} units on average and you lose {}; a {} chance that all {verb}.",
            if mover == "you" { "" } else { "s" },
            avg(lost),
            odds.units,
            avg(theirs),
            pct(odds.all_away()),
        )
    };
    html! { <p class="hint escape-odds">{line}{ for loss_note }</p> }
}
