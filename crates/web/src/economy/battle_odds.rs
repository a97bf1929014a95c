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

/// An average number of units as a player reads it (issue 60: "losing 6.9" read as a riddle):
/// "none", "less than 1", "about 7".
pub fn about(x: f64) -> String {
    if x < 0.05 {
        "none".into()
    } else if x < 0.5 {
        "less than 1".into()
    } else {
        format!("about {}", x.round() as u32)
    }
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
    // One line: the chance to win rolled to the end, then the average losses. The attack under
    // way is named just above it (the panel's "You are attacking …").
    let lead = if going {
        "Rolled on to the end"
    } else {
        "If you attack to the end"
    };
    let of_them = if them == "you" {
        "yours".to_string()
    } else {
        text::foe(g, target)
    };
    let wipe = match attacker == "you" {
        true => format!(
            "{lead}, the chance you destroy all {} of {of_them}: ",
            units(kind, target_units)
        ),
        false => format!(
            "{lead}, the chance {attacker} destroys all {} of {of_them}: ",
            units(kind, target_units)
        ),
    };
    // Verbs agree with "you", "the neutrals" or a name: "you lose", "the neutrals add",
    // "Bob loses".
    let neutrals = text::foe(g, Foe::Neutral);
    let s_of = |who: &str| {
        if who == "you" || *who == neutrals {
            ""
        } else {
            "s"
        }
    };
    let your = if attacker == "you" { "your " } else { "" };
    let losses = format!(
        "If fought to the end, {attacker} can expect to lose {} of {your}{} here, and {them} {} of {}.",
        about(lost_a),
        units(kind, attacker_units),
        about(lost_t),
        target_units,
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
    // Visible: the chance and the losses; the battle's list of forces says who defends behind
    // fortifications (+1 and +1), and how each roll works folds away (issue 60: a round's panel
    // text had grown to 5,600 characters, most of it these paragraphs on every screen).
    html! {
        <div class="attack-box battle-odds" id={id}>
            <div class="odds">{wipe}<b>{pct(odds.win())}</b></div>
            <p class="hint">{losses}</p>
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
    // What the units are called, and what the mover does, in the line below.
    let (getaway, noun, doing) = match *what {
        Intercepted::Withdraw(w) => (
            Getaway::Withdraw(w),
            match (w.force.armies, w.force.navies) {
                (_, 0) => "armies",
                (0, _) => "navies",
                _ => "units",
            },
            "withdraw",
        ),
        Intercepted::Landing {
            armies,
            navies_engaged,
            ..
        } => (
            Getaway::Land {
                armies,
                navies_engaged,
            },
            "armies",
            "land",
        ),
        Intercepted::Infrastructure { .. } => return html! {},
    };
    let fought = g
        .combat
        .as_ref()
        .and_then(|c| c.battle.as_ref())
        .is_some_and(|b| b.fought.iter().any(|&(q, _)| q == p));
    let loss_note = (fought && matches!(what, Intercepted::Withdraw(_)) && viewer == p)
        .then_some(" Leaving after fighting counts as a lost battle.");
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
    // Said as what the mover keeps (issue 60: "a 0.1% chance that all get away; on average you
    // lose 3.9 of them" read as a riddle to a new player).
    let keep = about(odds.units as f64 - lost);
    let lose = |x: f64| match about(x).as_str() {
        "none" => "no unit".to_string(),
        a if x.round() as u32 <= 1 => format!("{a} unit"),
        a => format!("{a} units"),
    };
    let line = if viewer == p {
        let they = who.join(" and ");
        format!(
            "If you {doing}: you can expect to keep {keep} of your {} {noun}. {} may intercept \
             them (attack them as they leave), and would lose {}{} doing it.",
            odds.units,
            text::cap(&they),
            lose(theirs),
            if who.len() == 1 { "" } else { " together" },
        )
    } else {
        format!(
            "If you intercept: {mover} can expect to keep {keep} of {} {noun}, and you would lose {}.",
            odds.units,
            lose(theirs),
        )
    };
    html! { <p class="hint escape-odds">{line}{ for loss_note }</p> }
}
