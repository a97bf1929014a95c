//! The economy's events and choices in words: the log's lines, the battle rolls with every
//! modifier spelled out, and the labels of the panel's buttons.

use orbis_engine::rules::classic::PlayerId;
use orbis_engine::rules::economy::action::EconomyEvent as E;
use orbis_engine::rules::economy::battlefield::{BattleAction, Foe, Intercepted, Site};
use orbis_engine::rules::economy::infra::Item;
use orbis_engine::rules::economy::map::{EconomyMap, RegionId};
use orbis_engine::rules::economy::roll::{Loser, Term};
use orbis_engine::rules::economy::state::EconomyState;
use orbis_engine::rules::economy::units::{Force, Kind};

pub use crate::widgets::cap;

pub fn region(r: RegionId) -> String {
    EconomyMap::get()
        .regions
        .get(r as usize)
        .map_or_else(|| format!("region {r}"), |x| x.name.clone())
}

pub fn site(s: Site) -> String {
    match s {
        Site::Region(r) => region(r),
        Site::Border(a, b) => format!("the border of {} and {}", region(a), region(b)),
    }
}

fn who(s: &EconomyState, p: PlayerId) -> String {
    s.players
        .get(p as usize)
        .map_or_else(|| format!("Player {}", p + 1), |x| x.name.clone())
}

/// " (you)" after the name of the player at the device, unless the name says so already (the
/// lesson names its player "Red (you)").
pub fn you_after(name: &str) -> &'static str {
    if name.ends_with("(you)") {
        ""
    } else {
        " (you)"
    }
}

pub fn foe(s: &EconomyState, f: Foe) -> String {
    match f {
        Foe::Player(p) => who(s, p),
        Foe::Neutral => "the neutrals".into(),
    }
}

/// The possessive of a foe: "Ann's", "the neutral".
fn foe_owns(s: &EconomyState, f: Foe) -> String {
    match f {
        Foe::Player(p) => format!("{}'s", who(s, p)),
        Foe::Neutral => "the neutral".into(),
    }
}

/// `n` and the noun in the number it takes ("1 plan", "2 plans").
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A round's income in the panel's words: "3 MU (2 countries, 1 road)", with the continent
/// bonuses when the game plays with them (a bonus is MU, a continent's whole bonus).
pub fn income(i: orbis_engine::rules::economy::phase::Income, bonuses: bool) -> String {
    let mut parts = vec![
        count(i.countries as usize, "country", "countries"),
        count(i.roads as usize, "road", "roads"),
    ];
    if bonuses || i.bonuses > 0 {
        parts.push(format!("{} MU of continent bonuses", i.bonuses));
    }
    format!("{} MU ({})", i.total(), parts.join(", "))
}

/// Where income comes from, for a game with or without continent bonuses.
pub fn income_rule(bonuses: bool) -> &'static str {
    if bonuses {
        "1 MU for each country and each road you own, and the bonus of each continent you hold whole"
    } else {
        "1 MU for each country and each road you own"
    }
}

pub fn force(f: Force) -> String {
    let plural = |n: u32, one: &str, many: &str| count(n as usize, one, many);
    match (f.armies, f.navies) {
        (a, 0) => plural(a, "army", "armies"),
        (0, n) => plural(n, "navy", "navies"),
        (a, n) => format!(
            "{} and {}",
            plural(a, "army", "armies"),
            plural(n, "navy", "navies")
        ),
    }
}

/// One unit of a kind: "army", "navy".
pub fn unit(k: Kind) -> &'static str {
    match k {
        Kind::Army => "army",
        Kind::Navy => "navy",
    }
}

/// The verb after a foe: "Ann rolls", "the neutrals roll".
fn rolls(f: Foe) -> &'static str {
    if f == Foe::Neutral {
        "roll"
    } else {
        "rolls"
    }
}

/// "Ann loses an army", "the neutrals lose a navy".
fn loses(s: &EconomyState, f: Foe, what: &str, k: Kind) -> String {
    let verb = if f == Foe::Neutral { "lose" } else { "loses" };
    let noun = format!("{what}{}", unit(k));
    let a = if noun.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{} {verb} {a} {noun}", foe(s, f))
}

pub fn kind(k: Kind) -> &'static str {
    match k {
        Kind::Army => "armies",
        Kind::Navy => "navies",
    }
}

pub fn item(i: Item) -> String {
    match i {
        Item::NavyBase { water } => format!("a navy base on {}", region(water)),
        other => other.name().to_string(),
    }
}

/// A piece of infrastructure named without its article, after "your own" ("your own army
/// base", "your own navy base on the North Sea").
pub fn item_bare(i: Item) -> String {
    match i {
        Item::Roads => "roads".into(),
        Item::Fortifications => "fortifications".into(),
        Item::Canal => "canal".into(),
        Item::ArmyBase => "army base".into(),
        Item::NavyBase { water } => format!("navy base on {}", region(water)),
        Item::Capital => "capital".into(),
    }
}

/// A modifier as the rules word it.
pub fn term(t: Term) -> String {
    match t {
        Term::MoreUnits => "+1 more units".into(),
        Term::MoreThanTwice => "+2 more than twice as many".into(),
        Term::Flanks(n) => format!("+{n} flanks"),
        Term::Defender => "+1 defender".into(),
        Term::Fortified => "+1 fortifications".into(),
        Term::Amphibious => "−1 amphibious".into(),
        Term::AgainstInfrastructure => "−1 against infrastructure".into(),
    }
}

fn terms(ts: &[Term]) -> String {
    if ts.is_empty() {
        "no modifier".into()
    } else {
        ts.iter().map(|&t| term(t)).collect::<Vec<_>>().join(", ")
    }
}

/// What a battle action does, for its button.
pub fn action(s: &EconomyState, a: &BattleAction) -> String {
    match *a {
        BattleAction::Attack { target, kind: k } => {
            format!("Attack {} {}", foe_owns(s, target), kind(k))
        }
        BattleAction::Withdraw(w) => {
            let mut t = format!("Withdraw {} to {}", force(w.force), region(w.to));
            if w.stay {
                t.push_str(", then stay");
            }
            if w.burn_roads {
                t.push_str(", burning the roads");
            }
            t
        }
        BattleAction::AttackInfrastructure { item: i } => format!("Attack {}", item(i)),
        BattleAction::Siege { target } => format!("Besiege {}", who(s, target)),
        BattleAction::Land {
            armies,
            to,
            navies_engaged,
        } => format!(
            "Land {} on {}{}",
            force(Force { armies, navies: 0 }),
            region(to),
            if navies_engaged {
                ", navies engaged"
            } else {
                ""
            }
        ),
    }
}

/// An action waiting for interceptors, as its battle action reads.
pub fn intercepted(s: &EconomyState, i: &Intercepted) -> String {
    let a = match *i {
        Intercepted::Withdraw(w) => BattleAction::Withdraw(w),
        Intercepted::Infrastructure { item } => BattleAction::AttackInfrastructure { item },
        Intercepted::Landing {
            armies,
            to,
            navies_engaged,
        } => BattleAction::Land {
            armies,
            to,
            navies_engaged,
        },
    };
    action(s, &a)
}

/// A line of the log for an event, if it is worth one.
pub fn event(s: &EconomyState, e: &E) -> Option<String> {
    let w = |p: PlayerId| who(s, p);
    Some(match e {
        E::InitiativeRolled { holder, rolls } => {
            let dice: Vec<String> = rolls
                .last()
                .map(|r| r.iter().map(|(p, d)| format!("{} {d}", w(*p))).collect())
                .unwrap_or_default();
            // The dice after the holder, not in brackets: a name may carry its own ("Red (you)").
            match dice.is_empty() {
                true => format!("Initiative: {}.", w(*holder)),
                false => format!("Initiative: {}. The dice: {}.", w(*holder), dice.join(", ")),
            }
        }
        E::CountryPicked { player, country } => {
            format!("{} picks {}.", w(*player), region(*country))
        }
        E::ContinentPicked { player, continent } => format!(
            "{} picks {}.",
            w(*player),
            EconomyMap::get()
                .base
                .continents
                .get(*continent as usize)
                .map_or("a continent", |c| c.name.as_str())
        ),
        E::PlacingBegan => "Every player places their start.".into(),
        E::Placed { player } => format!("{} has placed their start.", w(*player)),
        E::RoundBegan { round } => format!("Round {round} begins: the Get phase."),
        E::Income { player, income } => format!("{} earns {} MU.", w(*player), income.total()),
        E::UpkeepSettled { player, paid, lost } => {
            let lost: u32 = lost.iter().map(|(_, f)| f.units()).sum();
            if lost > 0 {
                format!(
                    "{} pays {paid} MU upkeep and loses {lost} units.",
                    w(*player)
                )
            } else {
                format!("{} pays {paid} MU upkeep.", w(*player))
            }
        }
        E::Recruited {
            player,
            region: r,
            navies,
            count: n,
            cost,
        } => format!(
            "{} recruits {} in {} for {cost} MU.",
            w(*player),
            if *navies {
                count(*n as usize, "navy", "navies")
            } else {
                count(*n as usize, "army", "armies")
            },
            region(*r)
        ),
        E::Built {
            player,
            country,
            item: i,
        } => format!(
            "{} builds {} in {}.",
            w(*player),
            item(*i),
            region(*country)
        ),
        E::Destroyed {
            player,
            country,
            item: i,
            refund,
        } => format!(
            "{} sells {} in {} for {refund} MU.",
            w(*player),
            item(*i),
            region(*country)
        ),
        E::CardsTraded { player, mu, .. } => {
            format!("{} trades three influence cards for {mu} MU.", w(*player))
        }
        E::GetFinished { player } => format!("{} is done with the Get phase.", w(*player)),
        E::PlanningBegan => "Planning: every player writes their plans in secret.".into(),
        E::PlansSubmitted { player, .. } => format!("{} has submitted their plans.", w(*player)),
        E::PlanningClosed { late } if !late.is_empty() => format!(
            "Time is up: {} moves nothing this round.",
            late.iter().map(|&p| w(p)).collect::<Vec<_>>().join(", ")
        ),
        E::PlansRevealed { plans } => {
            let n: usize = plans.values().map(Vec::len).sum();
            format!(
                "The plans are revealed: {}. Friendly movement.",
                count(n, "move", "moves")
            )
        }
        E::MovedFriendly {
            player,
            from,
            to,
            force: f,
        } => format!(
            "{} moves {} from {} to {}.",
            w(*player),
            force(*f),
            region(*from),
            region(*to)
        ),
        E::CombatBegan => "The combat phase begins.".into(),
        E::BattleTokens { sites } if !sites.is_empty() => format!(
            "Battles at {}.",
            sites
                .iter()
                .map(|&x| site(x))
                .collect::<Vec<_>>()
                .join("; ")
        ),
        E::BattlePicked { site: x } => format!("The battle at {} begins.", site(*x)),
        E::Declared {
            player,
            action: Some(a),
        } => format!("{} declares: {}.", w(*player), action(s, a)),
        E::Declared {
            player,
            action: None,
        } => format!("{} declares nothing.", w(*player)),
        E::BattleRoll {
            attacker,
            target,
            kind: k,
            dice,
            totals,
            terms: (ta, tt),
            loser,
        } => {
            let out = match loser {
                Loser::First => loses(s, Foe::Player(*attacker), "", *k),
                Loser::Second => loses(s, *target, "", *k),
                Loser::Both => "both lose a unit".into(),
            };
            format!(
                "{} rolls {} ({}) = {}; {} {} {} ({}) = {}: {out}.",
                w(*attacker),
                dice.0,
                terms(ta),
                totals.0,
                foe(s, *target),
                rolls(*target),
                dice.1,
                terms(tt),
                totals.1
            )
        }
        E::BattleClosed { site: x, .. } => format!("The battle at {} is over.", site(*x)),
        E::OwnershipLost { player, region: r } => {
            format!("{} no longer holds {}.", w(*player), region(*r))
        }
        E::Gained { player, region: r } => format!("{} gains {}.", w(*player), region(*r)),
        E::CardDrawn { player, .. } => format!("{} draws an influence card.", w(*player)),
        E::CardStolen { player, from, .. } => {
            format!("{} steals an influence card from {}.", w(*player), w(*from))
        }
        // Face down (online): nobody but the holder knows the card yet.
        E::SlotDrawn { player, .. } => {
            format!("{} draws an influence card, face down.", w(*player))
        }
        E::SlotStolen { player, from, .. } => format!(
            "{} steals a face-down influence card from {}.",
            w(*player),
            w(*from)
        ),
        // `CapitalTaken` (just before) counts them with the others.
        E::SlotsTaken { .. } => return None,
        E::CardShown { player, card, .. } => format!(
            "{} shows the influence card of {}.",
            w(*player),
            region(*card)
        ),
        E::InfluenceReshuffled { cards, .. } => format!(
            "The {} discarded influence cards are shuffled into a new pile.",
            cards.len()
        ),
        E::CapitalTaken {
            player,
            from,
            country,
            mu,
            cards,
        } => format!(
            "{} takes {}'s capital {} with {mu} MU and {cards} cards.",
            w(*player),
            w(*from),
            region(*country)
        ),
        E::InterceptRoll {
            player,
            interceptor,
            kind: k,
            dice,
            loser,
            interceptor_lost,
        } => {
            // An interception counts as an attack: a losing interceptor loses the unit it
            // intercepted with (except against a landing whose navies stay out of it). The
            // same words for a withdraw, a landing and an attack on infrastructure.
            let out = match (loser, interceptor_lost) {
                (Loser::First, _) | (Loser::Both, false) => loses(s, Foe::Player(*player), "", *k),
                (Loser::Second, true) => loses(s, Foe::Player(*interceptor), "intercepting ", *k),
                (Loser::Second, false) => format!("{}'s unit gets through", w(*player)),
                (Loser::Both, true) => "both lose a unit".into(),
            };
            format!(
                "Interception: {} rolls {}, {} rolls {}: {out}.",
                w(*player),
                dice.0,
                w(*interceptor),
                dice.1
            )
        }
        E::Withdrew {
            player,
            to,
            away,
            lost,
            stayed,
            ..
        } => {
            if *stayed {
                format!("{} withdrew and stayed; lost {}.", w(*player), force(*lost))
            } else {
                format!(
                    "{} withdraws {} to {}; lost {}.",
                    w(*player),
                    force(*away),
                    region(*to),
                    force(*lost)
                )
            }
        }
        E::AllianceOffered { from, to } => format!("{} offers {} an alliance.", w(*from), w(*to)),
        E::AllianceOfferWithdrawn { from, to } => {
            format!("{} withdraws the alliance offered to {}.", w(*from), w(*to))
        }
        E::AllianceMade { a, b } => format!("{} and {} are allies.", w(*a), w(*b)),
        E::AllianceBroken { by, with } => {
            format!("{} breaks the alliance with {}.", w(*by), w(*with))
        }
        E::Forfeited {
            player,
            region: r,
            to,
        } => {
            format!("{} gives {} to {}.", w(*player), region(*r), w(*to))
        }
        E::Surrendered { player } => format!("{} surrenders.", w(*player)),
        E::BlockadeSet {
            player, country, ..
        } => {
            format!(
                "{} blockades the navy base of {}.",
                w(*player),
                region(*country)
            )
        }
        E::BlockadeEnded { country, .. } => {
            format!("The blockade of {} is over.", region(*country))
        }
        E::Landed {
            player,
            to,
            ashore,
            lost,
        } => format!(
            "{} lands {} on {}; lost {}.",
            w(*player),
            count(*ashore as usize, "army", "armies"),
            region(*to),
            force(*lost)
        ),
        // What stands afterwards, said outright: the battle's forces look the same after it.
        E::InfrastructureRoll {
            player,
            item: i,
            die,
            destroyed,
        } => {
            let (them, they, stand) = match item_bare(*i).ends_with('s') {
                true => ("them", "they", "stand"),
                false => ("it", "it", "stands"),
            };
            match (die, destroyed) {
                (None, true) => format!("{} destroys {}.", w(*player), item(*i)),
                (Some(_), true) => format!(
                    "{} rolls 6 against the {}: destroyed.",
                    w(*player),
                    item_bare(*i)
                ),
                (Some(d), false) => format!(
                    "{} rolls {d} against the {} (only a 6 destroys {them}): {they} still {stand}.",
                    w(*player),
                    item_bare(*i)
                ),
                (None, false) => format!(
                    "{}'s army falls to the interception: the {} still {stand}.",
                    w(*player),
                    item_bare(*i)
                ),
            }
        }
        E::SiegeLaid {
            player,
            target,
            region: r,
        } => format!(
            "{} besieges {} in {}: no dice; {}'s units there cannot pay upkeep or withdraw until they attack out.",
            w(*player),
            w(*target),
            region(*r),
            w(*target)
        ),
        E::SiegeEnded { region: r, .. } => format!("The siege of {} is over.", region(*r)),
        E::MovedOn {
            player,
            from,
            to,
            force: f,
        } => format!(
            "{} moves {} on from {} to {}.",
            w(*player),
            force(*f),
            region(*from),
            region(*to)
        ),
        E::RevolutionIncited { player, country } => {
            format!(
                "{} incites a revolution in {}.",
                w(*player),
                region(*country)
            )
        }
        // The dice alone: the engine's event has no modifiers (the defenders' +1, more units),
        // so the outcome is said in words.
        E::IncitedRoll {
            player,
            country,
            target,
            dice,
            hit,
        } => format!(
            "One of {}'s revolutionaries in {} rolls {}, {} {} {}: {}.",
            w(*player),
            region(*country),
            dice.0,
            foe(s, *target),
            rolls(*target),
            dice.1,
            if *hit {
                loses(s, *target, "", Kind::Army)
            } else {
                "a miss, at no risk to the revolutionaries".into()
            }
        ),
        E::RevolutionRoll {
            player,
            country,
            die,
        } => format!(
            "{} holds no capital and rolls {die} for {}: {}",
            w(*player),
            region(*country),
            if *die == 6 {
                "a revolution breaks out!"
            } else {
                "calm."
            }
        ),
        E::RebelRoll {
            country,
            against,
            dice,
            rebels_lost,
            lost,
        } => format!(
            "The rebels in {} roll {}, {} rolls {}: {}.",
            region(*country),
            dice.0,
            w(*against),
            dice.1,
            match (rebels_lost, lost) {
                (true, true) => "both lose an army".into(),
                (false, true) => loses(s, Foe::Player(*against), "", Kind::Army),
                (true, false) => "the rebels lose one".into(),
                (false, false) => "a miss, at no risk to the rebels".into(),
            }
        ),
        E::NeutralSunk { region: r, armies } => format!(
            "{} in {}: too few neutral navies to carry {}.",
            count(
                *armies as usize,
                "neutral army drowns",
                "neutral armies drown"
            ),
            region(*r),
            if *armies == 1 { "it" } else { "them" }
        ),
        E::Revolution { country, neutral } => format!(
            "Revolution in {}: {neutral} neutral armies remain.",
            region(*country)
        ),
        E::RoadsBurned {
            country, destroyed, ..
        } if *destroyed => format!("The roads of {} are burnt.", region(*country)),
        E::Sunk {
            player,
            region: r,
            armies,
        } => format!(
            "{armies} of {}'s armies drown in {}.",
            w(*player),
            region(*r)
        ),
        E::CombatEnded => "The combat phase is over.".into(),
        E::Eliminated { player } => format!("{} is eliminated.", w(*player)),
        E::GameOver { winner: Some(p) } => format!("{} wins the game!", w(*p)),
        E::GameOver { winner: None } => "The game is over.".into(),
        E::InitiativePassed { player } => format!("{} takes the initiative.", w(*player)),
        // The attacker's own next declaration also ends its attack: that is breaking off, not
        // an interruption.
        E::AttackInterrupted { attacker, by } if attacker == by => {
            format!("{} breaks off the attack.", w(*by))
        }
        E::AttackInterrupted { attacker, by } => {
            format!("{} interrupts {}'s attack.", w(*by), w(*attacker))
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use orbis_engine::rules::economy::options::EconomyOptions;

    /// An attacker's own next declaration ends its attack too: the log says it broke off, not
    /// that it interrupted itself.
    #[test]
    fn an_attacker_breaks_off_its_own_attack_and_a_defender_interrupts_it() {
        let map = orbis_engine::rules::economy::map::EconomyMap::get();
        let s = EconomyState::empty(map, &["Ann", "Bob"], EconomyOptions::default());
        let own = E::AttackInterrupted { attacker: 1, by: 1 };
        assert_eq!(
            event(&s, &own).as_deref(),
            Some("Bob breaks off the attack.")
        );
        let other = E::AttackInterrupted { attacker: 0, by: 1 };
        assert_eq!(
            event(&s, &other).as_deref(),
            Some("Bob interrupts Ann's attack.")
        );
        assert_eq!(item_bare(Item::ArmyBase), "army base");
        assert_eq!(item(Item::ArmyBase), "an army base");
    }

    /// Every roll of a revolution is in the log, with its dice and what it did.
    #[test]
    fn revolution_rolls_are_told() {
        let map = orbis_engine::rules::economy::map::EconomyMap::get();
        let s = EconomyState::empty(map, &["Ann", "Bob"], EconomyOptions::default());
        let ne = map.region("northern_europe").unwrap();
        let said = |e: E| event(&s, &e).unwrap();
        assert_eq!(
            said(E::IncitedRoll {
                player: 0,
                country: ne,
                target: Foe::Neutral,
                dice: (5, 2),
                hit: true
            }),
            "One of Ann's revolutionaries in Northern Europe rolls 5, the neutrals roll 2: the neutrals lose an army."
        );
        assert_eq!(
            said(E::IncitedRoll {
                player: 0,
                country: ne,
                target: Foe::Player(1),
                dice: (1, 4),
                hit: false
            }),
            "One of Ann's revolutionaries in Northern Europe rolls 1, Bob rolls 4: a miss, at no risk to the revolutionaries."
        );
        assert_eq!(
            said(E::RevolutionRoll {
                player: 1,
                country: ne,
                die: 6
            }),
            "Bob holds no capital and rolls 6 for Northern Europe: a revolution breaks out!"
        );
        assert_eq!(
            said(E::RebelRoll {
                country: ne,
                against: 1,
                dice: (3, 3),
                rebels_lost: true,
                lost: true
            }),
            "The rebels in Northern Europe roll 3, Bob rolls 3: both lose an army."
        );
        assert_eq!(
            said(E::NeutralSunk {
                region: ne,
                armies: 2
            }),
            "2 neutral armies drown in Northern Europe: too few neutral navies to carry them."
        );
        assert_eq!(
            said(E::NeutralSunk {
                region: ne,
                armies: 1
            }),
            "1 neutral army drowns in Northern Europe: too few neutral navies to carry it."
        );
    }
}
