//! Presentation helpers: player-readable text for events, missions, cards and phases, computed
//! from public state only. No rules live here; the UI and the CLI may both use it.

use crate::map::Symbol;
use crate::rules::classic::{
    CardId, ClassicState, DefendPref, Event, Mission, Owner, Phase, PlayerId, WinReason,
};

fn player(s: &ClassicState, p: PlayerId) -> String {
    s.players
        .get(p as usize)
        .map(|x| x.name.clone())
        .unwrap_or_else(|| format!("player {}", p + 1))
}

fn owner(s: &ClassicState, o: Owner) -> String {
    match o {
        Owner::Player(p) => player(s, p),
        Owner::Neutral => "the neutral armies".into(),
        Owner::Unclaimed => "nobody".into(),
    }
}

fn dice(d: &[u8]) -> String {
    d.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join("-")
}

fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// One log line for an event. `s` is the state after the event (names do not change).
///
/// ```
/// use orbis_engine::classic::*;
/// let seats = vec![
///     SeatConfig { name: "Ada".into(), colour: Colour::Red, kind: SeatKind::Human },
///     SeatConfig { name: "Bo".into(), colour: Colour::Blue, kind: SeatKind::Human },
/// ];
/// let s = ClassicState::new(seats, ClassicOptions::default(), [1; 32]).unwrap();
/// let e = Event::TurnStarted { player: 0, turn: 1, territories: 4, continents: 2 };
/// assert_eq!(
///     orbis_engine::view::describe(&e, &s),
///     "Turn 1: Ada receives 4 armies for territories and 2 for continents."
/// );
/// ```
pub fn describe(e: &Event, s: &ClassicState) -> String {
    let m = s.map();
    let t = |id| m.name(id);
    match e {
        Event::Claimed {
            player: p,
            territory,
        } => {
            format!("{} claims {}.", player(s, *p), t(*territory))
        }
        Event::Placed {
            player: p,
            territory,
            armies,
        } => format!(
            "{} places {} on {}.",
            player(s, *p),
            plural(*armies, "army", "armies"),
            t(*territory)
        ),
        Event::SetupDone { first } => {
            format!("Setup is complete; {} plays first.", player(s, *first))
        }
        Event::TurnStarted {
            player: p,
            turn,
            territories,
            continents,
        } => {
            let mut line = format!(
                "Turn {turn}: {} receives {} for territories",
                player(s, *p),
                plural(*territories, "army", "armies")
            );
            if *continents > 0 {
                line.push_str(&format!(" and {continents} for continents"));
            }
            line.push('.');
            line
        }
        Event::Traded {
            player: p,
            cards,
            armies,
            bonus,
        } => {
            let names: Vec<String> = cards.iter().map(|&c| card_text(s, c)).collect();
            let mut line = format!(
                "{} trades {} for {}.",
                player(s, *p),
                names.join(", "),
                plural(*armies, "army", "armies")
            );
            if !bonus.is_empty() {
                let names: Vec<String> = bonus.iter().map(|&b| t(b)).collect();
                line.push_str(&format!(" +2 armies on {}.", names.join(", ")));
            }
            line
        }
        Event::Rolled {
            from,
            to,
            attack,
            defence,
            attacker_lost,
            defender_lost,
        } => format!(
            "{} attacks {}: {} against {}; attacker loses {}, defender loses {}.",
            t(*from),
            t(*to),
            dice(attack),
            dice(defence),
            attacker_lost,
            defender_lost
        ),
        Event::Conquered {
            player: p,
            to,
            loser,
            moved,
            ..
        } => format!(
            "{} conquers {} from {} ({} moved in).",
            player(s, *p),
            t(*to),
            owner(s, *loser),
            moved
        ),
        Event::Occupied { to, armies, .. } => {
            format!(
                "{} now holds {}.",
                t(*to),
                plural(*armies, "army", "armies")
            )
        }
        Event::Eliminated {
            player: p,
            by,
            cards,
        } => format!(
            "{} is eliminated by {}{}.",
            player(s, *p),
            player(s, *by),
            if *cards > 0 {
                format!(", who takes {}", plural(*cards, "card", "cards"))
            } else {
                String::new()
            }
        ),
        Event::AttackEnded { player: p } => format!("{} stops attacking.", player(s, *p)),
        Event::Fortified { from, to, armies } => format!(
            "{} moved from {} to {}.",
            plural(*armies, "army", "armies"),
            t(*from),
            t(*to)
        ),
        Event::CardDrawn { player: p } => format!("{} draws a card.", player(s, *p)),
        Event::DefenceSet { player: p, pref } => format!(
            "{} now defends with {}.",
            player(s, *p),
            match pref {
                DefendPref::Max => "as many dice as possible",
                DefendPref::One => "one die",
            }
        ),
        Event::TerritoryDefenceSet {
            player: p,
            territory,
            one,
        } => format!(
            "{} now defends {} with {}.",
            player(s, *p),
            t(*territory),
            if *one {
                "one die"
            } else {
                "their standing choice of dice"
            }
        ),
        Event::Won { player: p, reason } => format!(
            "{} wins the game{}!",
            player(s, *p),
            match reason {
                WinReason::Domination => " by conquering the world".to_string(),
                WinReason::LastStanding => " as the last player standing".to_string(),
                WinReason::Mission(mi) =>
                    format!(" by completing the mission: {}", mission_text(s, mi)),
            }
        ),
        Event::CardDealt { player: p, .. } => {
            format!("The card is face down: only {} can read it.", player(s, *p))
        }
        Event::Reshuffled { cards, .. } => format!(
            "The deck ran out: the {} traded in are shuffled into a new deck.",
            plural(cards.len() as u32, "card", "cards")
        ),
        Event::CardShown {
            player: p, card, ..
        } => {
            format!("{} shows {}.", player(s, *p), card_text(s, *card))
        }
        Event::MissionShown { player: p, mission } => format!(
            "{} shows their mission: {}.",
            player(s, *p),
            mission_text(s, mission)
        ),
        Event::SlotsTaken { from, to, slots } => format!(
            "{} takes {} face down from {}: only {} can read them.",
            player(s, *to),
            plural(slots.len() as u32, "card", "cards"),
            player(s, *from),
            player(s, *to)
        ),
    }
}

/// A mission as a sentence.
pub fn mission_text(s: &ClassicState, mi: &Mission) -> String {
    let m = s.map();
    match mi {
        Mission::Destroy(c) => {
            let who = s
                .players
                .iter()
                .find(|p| p.colour == *c)
                .map(|p| format!(" ({})", p.name))
                .unwrap_or_default();
            format!("Destroy the {} armies{}", c.name(), who)
        }
        Mission::Continents(a, b) => {
            let n = |i: u8| {
                m.continents
                    .get(i as usize)
                    .map(|c| c.name.clone())
                    .unwrap_or_default()
            };
            format!("Conquer {} and {}", n(*a), n(*b))
        }
        Mission::Territories(n) => format!("Occupy {n} territories"),
    }
}

/// Name of a card symbol.
pub fn symbol_name(sym: Option<Symbol>) -> &'static str {
    match sym {
        Some(Symbol::Infantry) => "infantry",
        Some(Symbol::Cavalry) => "cavalry",
        Some(Symbol::Artillery) => "artillery",
        None => "wild",
    }
}

/// A card as text: "Ukraine (cavalry)" or "Wild card".
pub fn card_text(s: &ClassicState, c: CardId) -> String {
    match s.card_territory(c) {
        Some(t) => format!("{} ({})", s.map().name(t), symbol_name(s.card_symbol(c))),
        None => "Wild card".into(),
    }
}

/// Short description of what the current player must do now.
pub fn phase_prompt(s: &ClassicState) -> String {
    let who = player(s, s.current);
    match s.phase {
        Phase::Claim => format!("{who}: claim an unclaimed territory."),
        Phase::SetupPlace => format!(
            "{who}: place an initial army on one of your territories ({} left).",
            s.players[s.current as usize].setup_armies
        ),
        Phase::Reinforce { armies } => format!(
            "{who}: place {} on your territories.",
            plural(armies, "reinforcement", "reinforcements")
        ),
        Phase::Attack => format!("{who}: attack — choose one of your territories, then an enemy neighbour — or end the attack."),
        Phase::Occupy { to, moved, .. } => format!(
            "{who}: {} conquered — choose how many armies to move in (at least {moved}).",
            s.map().name(to)
        ),
        Phase::Fortify => format!("{who}: fortify — move armies between your territories, or end the turn."),
        Phase::GameOver { winner } => format!("{} has won.", player(s, winner)),
    }
}

/// What the current player is doing, said to someone watching it (a computer's turn, or a
/// human's setup placed automatically): "Boole (computer) is attacking." -- never in the words
/// `phase_prompt` addresses to the player.
pub fn phase_watch(s: &ClassicState, computer: bool) -> String {
    let name = player(s, s.current);
    let who = if computer {
        format!("{name} (computer)")
    } else {
        name
    };
    match s.phase {
        Phase::Claim => format!("{who} is claiming a territory."),
        Phase::SetupPlace => format!("{who} is placing initial armies."),
        Phase::Reinforce { armies } => format!(
            "{who} is placing {}.",
            plural(armies, "reinforcement", "reinforcements")
        ),
        Phase::Attack => format!("{who} is attacking."),
        Phase::Occupy { to, .. } => format!(
            "{who} conquered {} and is moving armies in.",
            s.map().name(to)
        ),
        Phase::Fortify => format!("{who} is fortifying (moving armies between territories)."),
        Phase::GameOver { winner } => format!("{} has won.", player(s, winner)),
    }
}

/// Accessible label of a territory: "Ukraine, red, 5 armies".
pub fn territory_label(s: &ClassicState, t: crate::map::TerritoryId) -> String {
    let who = match s.owner[t as usize] {
        Owner::Player(p) => s.players[p as usize].colour.name().to_string(),
        Owner::Neutral => "neutral".into(),
        Owner::Unclaimed => "unclaimed".into(),
    };
    format!(
        "{}, {}, {}",
        s.map().name(t),
        who,
        plural(s.armies[t as usize], "army", "armies")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::{BotLevel, ClassicOptions, Colour, SeatConfig, SeatKind};

    #[test]
    fn every_event_of_whole_games_reads_as_a_sentence() {
        for (seed, missions) in [(1u8, false), (2, true), (3, false)] {
            let seats = [Colour::Red, Colour::Blue, Colour::Green]
                .iter()
                .map(|&c| SeatConfig {
                    name: c.name().into(),
                    colour: c,
                    kind: SeatKind::Bot(BotLevel::Normal),
                })
                .collect();
            let options = ClassicOptions {
                missions,
                ..ClassicOptions::default()
            };
            let mut s = ClassicState::new(seats, options, [seed; 32]).unwrap();
            for _ in 0..20_000 {
                let Some(a) = crate::bot::choose(&s, BotLevel::Normal) else {
                    break;
                };
                for e in s.apply(&a).unwrap() {
                    let line = describe(&e, &s);
                    assert!(line.ends_with('.') || line.ends_with('!'), "{line}");
                    assert!(!line.contains("{"), "{line}");
                }
                assert!(!phase_prompt(&s).is_empty());
                assert!(phase_watch(&s, true).contains("(computer)") || s.winner().is_some());
            }
            assert!(s.winner().is_some(), "the bots finish the game");
            if let Some(m) = &s.players[0].mission {
                assert!(!mission_text(&s, m).is_empty());
            }
        }
    }

    #[test]
    fn territory_labels_name_owner_colour_and_armies() {
        let seats = vec![
            SeatConfig {
                name: "Ada".into(),
                colour: Colour::Red,
                kind: SeatKind::Human,
            },
            SeatConfig {
                name: "Bo".into(),
                colour: Colour::Blue,
                kind: SeatKind::Human,
            },
        ];
        let s = ClassicState::new(seats, ClassicOptions::default(), [9; 32]).unwrap();
        for t in s.map().ids() {
            let label = territory_label(&s, t);
            let n = s.armies[t as usize];
            assert!(label.starts_with(&s.map().name(t)));
            assert!(label.ends_with(&if n == 1 {
                "1 army".to_string()
            } else {
                format!("{n} armies")
            }));
            assert!(["red", "blue", "neutral"]
                .iter()
                .any(|c| label.contains(&format!(", {c}, "))));
        }
        assert_eq!(card_text(&s, 42), "Wild card");
    }
}
