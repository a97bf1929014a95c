//! The classic ruleset's first game: one turn and the start of the next on the real map,
//! against two computer players. The start is a real engine state (built by [`start`]) whose
//! seed was chosen so the dice and the computers' moves tell the story below: Brazil takes
//! Venezuela in two rolls, nobody takes anything of the player's before their next turn, and the
//! card drawn for the conquest completes a set. The unit test replays the lesson on the engine.

use super::Step;
use crate::classic::play::{Classic, Msg};
use orbis_engine::classic::{
    Action, BotLevel, ClassicOptions, ClassicState, Colour, Owner, Phase, PlayerId, SeatConfig,
    SeatKind,
};
use orbis_engine::dice::SeededDice;
use orbis_engine::map::{Map, TerritoryId};

/// The player's seat.
const ME: PlayerId = 0;
/// The seed of the dice and the computers' choices (found by `tests::find_seed`).
const SEED: u8 = 21;

/// Who holds what at the start: (territory, seat, armies). The rest is Curie's (seat 2), 2 each.
const LAYOUT: [(&str, PlayerId, u32); 25] = [
    ("peru", 0, 2),
    ("brazil", 0, 3),
    ("argentina", 0, 2),
    ("north_africa", 0, 3),
    ("egypt", 0, 2),
    ("east_africa", 0, 2),
    ("congo", 0, 4),
    ("south_africa", 0, 1),
    ("madagascar", 0, 1),
    ("venezuela", 1, 2),
    ("central_america", 1, 3),
    ("alaska", 1, 2),
    ("northwest_territory", 1, 2),
    ("alberta", 1, 2),
    ("ontario", 1, 3),
    ("quebec", 1, 2),
    ("western_united_states", 1, 2),
    ("eastern_united_states", 1, 3),
    ("iceland", 1, 2),
    ("great_britain", 1, 3),
    ("western_europe", 1, 3),
    ("kamchatka", 1, 2),
    ("japan", 1, 2),
    ("southern_europe", 2, 3),
    ("middle_east", 2, 3),
];

/// The player's cards at the start (Egypt and South Africa: infantry) and the card on top of
/// the deck, drawn after the conquest (Argentina: infantry again, so three alike).
const HAND: [&str; 2] = ["egypt", "south_africa"];
const TOP: &str = "argentina";

/// The territory a target names (`#t-brazil`: "Brazil"), for the coach's refusals.
pub fn target_name(target: &str) -> Option<String> {
    let map = Map::classic();
    Some(map.name(map.territory(target.strip_prefix("#t-")?)?))
}

fn t(key: &str) -> TerritoryId {
    Map::classic()
        .territory(key)
        .expect("a territory of the classic map")
}

/// The part of the map the lesson plays in (South America, Africa and their neighbours), as the
/// board's view box. Centred west of the middle of that part: a phone's map shows only the
/// middle 310 units of it, which must reach Venezuela (x 273) as well as Congo and Egypt (530).
pub const VIEW: [f32; 4] = [140.0, 130.0, 520.0, 353.0];

/// The lesson's game: the layout above, the player to reinforce, the lesson's turn 1 (the
/// header's counter reads from the lesson's start, though the board is mid-game).
pub fn start() -> ClassicState {
    let seats = [
        ("Red (you)", Colour::Red, SeatKind::Human),
        ("Boole", Colour::Blue, SeatKind::Bot(BotLevel::Normal)),
        ("Curie", Colour::Green, SeatKind::Bot(BotLevel::Normal)),
    ]
    .map(|(name, colour, kind)| SeatConfig {
        name: name.into(),
        colour,
        kind,
    });
    let mut seed = [0u8; 32];
    seed[0] = SEED;
    let mut s = ClassicState::new(seats.to_vec(), ClassicOptions::default(), seed)
        .expect("three seats of different colours");
    for i in 0..s.owner.len() {
        s.owner[i] = Owner::Player(2);
        s.armies[i] = 2;
    }
    for (key, p, n) in LAYOUT {
        s.owner[t(key) as usize] = Owner::Player(p);
        s.armies[t(key) as usize] = n;
    }
    for p in &mut s.players {
        p.setup_armies = 0;
    }
    let hand: Vec<u8> = HAND.iter().map(|k| t(k)).collect();
    s.deck.retain(|c| !hand.contains(c) && *c != t(TOP));
    s.deck.push(t(TOP));
    s.players[ME as usize].hand = hand;
    s.current = ME;
    s.first = ME;
    s.turn = 1;
    s.rng = SeededDice::new(seed);
    let (base, bonus) = s.reinforcements(ME);
    s.phase = Phase::Reinforce {
        armies: base + bonus,
    };
    s
}

/// The messages that change the game (or end the turn), which the lesson's gate judges; the
/// rest (selecting, amounts, the view, the trade dialog) always pass.
pub fn gated(m: &Msg) -> bool {
    matches!(
        m,
        Msg::Click(_) | Msg::Act(_) | Msg::SkipToHuman | Msg::AutoSetup
    )
}

fn game(c: &Classic) -> &ClassicState {
    c.state().expect("the lesson's game")
}

fn armies(s: &ClassicState, key: &str) -> u32 {
    s.armies[t(key) as usize]
}

fn mine(s: &ClassicState, key: &str) -> bool {
    s.owner[t(key) as usize] == Owner::Player(ME)
}

fn clicks(m: &Msg, keys: &[&str]) -> bool {
    matches!(m, Msg::Click(x) if keys.iter().any(|k| t(k) == *x))
}

/// The next of `from`, `to` and `button` to click: the territory to act from, the one to act on,
/// then the panel's button.
fn pick(c: &Classic, from: &'static str, to: &'static str, button: &'static str) -> &'static str {
    let sel = |k: &str| Some(t(k));
    if c.ui.from != sel(from.trim_start_matches("#t-")) {
        from
    } else if c.ui.to != sel(to.trim_start_matches("#t-")) {
        to
    } else {
        button
    }
}

fn none(_: &ClassicState, _: &Msg) -> bool {
    false
}

fn no_target(_: &Classic) -> &'static str {
    ""
}

fn never(_: &ClassicState, _: &ClassicState) -> bool {
    false
}

fn no_result(_: &ClassicState, _: &ClassicState) -> String {
    String::new()
}

pub static STEPS: [Step<Classic, ClassicState, Msg>; 9] = [
    Step {
        title: "Your first game of Orbis",
        says: |_| {
            "The world map has 42 territories. Each one belongs to a player and holds that \
            player's armies: the number on it. You are Red. Boole (Blue) and Curie (Green) are \
            computer players. Whoever takes every territory wins. Each turn has three parts: \
            place new armies, attack, then move armies once. This lesson starts mid-game, at its \
            own turn 1 (the header counts every player's turns), and plays one turn and the \
            start of the next, about four minutes. Press Next."
                .into()
        },
        target: no_target,
        allows: none,
        done: |_, _| true,
        result: no_result,
        look: "",
        rules: "rules-classic-goal",
    },
    Step {
        title: "Place your new armies",
        says: |s| {
            let (base, bonus) = s.reinforcements(ME);
            format!(
                "Each turn starts with new armies: one for every three territories you hold (at \
                 least 3), plus a bonus for each whole continent. You hold {} territories ({base}) \
                 and all of Africa (+{bonus}): {} armies. Put them all where you will attack: \
                 press All, then click Brazil.",
                s.territory_count(ME),
                base + bonus
            )
        },
        target: |c| match game(c).phase {
            Phase::Reinforce { armies } if c.ui.amount < armies => "#place-all",
            _ => "#t-brazil",
        },
        allows: |_, m| clicks(m, &["brazil"]),
        done: |_, s| s.phase == Phase::Attack,
        result: |a, s| {
            format!(
                "Brazil went from {} to {} armies. One strong stack wins battles that many small ones lose.",
                armies(a, "brazil"),
                armies(s, "brazil")
            )
        },
        look: "",
        rules: "rules-classic-reinforce",
    },
    Step {
        title: "Attack Venezuela",
        says: |_| {
            "Venezuela (Boole, 2 armies) is the one territory of South America you lack; the \
            whole continent is worth +2 armies a turn. Click Brazil to attack from it, then \
            Venezuela: the panel shows your chance to conquer. Press Roll. You roll up to 3 dice, \
            the defender up to 2; the highest dice are compared in pairs and the lower of each \
            pair loses an army (the defender wins ties). Roll until Venezuela falls."
                .into()
        },
        target: |c| pick(c, "#t-brazil", "#t-venezuela", "#btn-roll"),
        allows: |s, m| {
            let (b, v) = (t("brazil"), t("venezuela"));
            clicks(m, &["brazil", "venezuela"])
                || matches!(m, Msg::Act(Action::Attack { from, to, dice })
                    if *from == b && *to == v && *dice == s.max_attack_dice(b))
                || matches!(m, Msg::Act(Action::Blitz { from, to, .. }) if *from == b && *to == v)
        },
        done: |_, s| mine(s, "venezuela"),
        result: |a, s| {
            let moved = match s.phase {
                Phase::Occupy { moved, .. } => moved,
                _ => 0,
            };
            let lost = armies(a, "brazil") - armies(s, "brazil") - moved;
            let rolls = s.players[ME as usize].stats.rolls - a.players[ME as usize].stats.rolls;
            format!(
                "Venezuela is yours after {rolls} rolls: you lost {lost} {}, Boole lost 2. The {moved} \
                 armies whose dice you rolled last are in Venezuela already; {} wait in Brazil.",
                if lost == 1 { "army" } else { "armies" },
                armies(s, "brazil")
            )
        },
        look: "",
        rules: "rules-classic-attack",
    },
    Step {
        title: "Move in",
        says: |s| {
            let (moved, max) = match s.phase {
                Phase::Occupy { moved, from, .. } => (moved, moved + s.armies[from as usize] - 1),
                _ => (0, 0),
            };
            format!(
                "The slider sets how many armies Venezuela holds in all: at least the {moved} \
                 already there, at most {max} (one must stay in Brazil). Venezuela borders Boole's \
                 Central America, while Brazil now borders only your own territories, where armies \
                 sit idle, so the slider starts at {max}. Press Move in {max}."
            )
        },
        target: |_| "#btn-occupy",
        allows: |_, m| matches!(m, Msg::Act(Action::Occupy { .. })),
        done: |_, s| s.phase == Phase::Attack,
        result: |_, s| {
            format!(
                "Venezuela holds {} armies and all of South America is yours: +2 armies a turn \
                 from now on. Because you conquered a territory this turn, you draw a card when it ends.",
                armies(s, "venezuela")
            )
        },
        look: "",
        rules: "rules-classic-conquer",
    },
    Step {
        title: "Know when to stop",
        says: |_| {
            "You could attack again from Venezuela, but Central America has 3 armies with all \
            of North America behind it. Attacking with few armies mostly loses them. Press \
            End attack → fortify."
                .into()
        },
        target: |_| "#btn-end-attack",
        allows: |_, m| matches!(m, Msg::Act(Action::EndAttack)),
        done: |_, s| s.phase == Phase::Fortify,
        result: |_, _| {
            "Now you may make one move between two neighbouring territories of yours.".into()
        },
        look: "",
        rules: "rules-classic-fortify",
    },
    Step {
        title: "Fortify",
        says: |s| {
            let n = armies(s, "congo");
            format!(
                "Congo's {n} armies border only your own territories, so they can neither attack \
                 nor be attacked. North Africa faces Boole's Western Europe and Curie's Southern \
                 Europe. Click Congo, then North Africa, then press Move {} (all but one go: one \
                 army always stays). This move ends your turn.",
                n.saturating_sub(1)
            )
        },
        target: |c| pick(c, "#t-congo", "#t-north_africa", "#btn-fortify"),
        allows: |_, m| {
            let (c, n) = (t("congo"), t("north_africa"));
            clicks(m, &["congo", "north_africa"])
                || matches!(m, Msg::Act(Action::Fortify { from, to, .. }) if *from == c && *to == n)
        },
        done: |a, s| s.turn != a.turn,
        result: |_, s| {
            format!(
                "Your turn is over, and you drew a card for your conquest: you hold {} cards.",
                s.players[ME as usize].hand.len()
            )
        },
        look: "",
        rules: "rules-classic-fortify",
    },
    Step {
        title: "The computers play",
        says: |_| {
            "Boole and Curie now take their turns, one action at a time: watch the map and \
            the log, or press Skip to my turn."
                .into()
        },
        target: |c| {
            if c.machine_level().is_some() {
                "#btn-skip"
            } else {
                ""
            }
        },
        allows: |_, m| matches!(m, Msg::SkipToHuman),
        done: |_, s| s.current == ME && matches!(s.phase, Phase::Reinforce { .. }),
        result: |_, s| {
            let (base, bonus) = s.reinforcements(ME);
            format!(
                "Your turn again: {base} armies for {} territories and {bonus} for whole \
                 continents (Africa 3, South America 2): {} in all.",
                s.territory_count(ME),
                base + bonus
            )
        },
        look: "",
        rules: "rules-classic-reinforce",
    },
    Step {
        title: "Trade cards",
        says: |s| {
            format!(
                "Cards show infantry, cavalry or artillery (two are wild). Three alike, or one of \
                 each, make a set you trade for armies at the start of a turn: the first set of \
                 the game is worth 4, then 6, 8, 10, 12, 15 and 5 more each time. A card of a \
                 territory you hold adds 2 armies there. Your three cards are all infantry. Press \
                 Trade cards ({}), then the set.",
                s.players[ME as usize].hand.len()
            )
        },
        target: |c| {
            if c.ui.trade_open {
                ".trade-set"
            } else {
                "#open-trade"
            }
        },
        allows: |_, m| matches!(m, Msg::Act(Action::Trade { .. })),
        done: |a, s| s.sets_traded > a.sets_traded,
        result: |a, s| {
            let (before, after) = match (a.phase, s.phase) {
                (Phase::Reinforce { armies: x }, Phase::Reinforce { armies: y }) => (x, y),
                _ => (0, 0),
            };
            let extra: u32 = (0..s.armies.len())
                .map(|i| s.armies[i].saturating_sub(a.armies[i]))
                .sum();
            format!(
                "The set gave {} armies to place, and {extra} more went straight onto a card's \
                 territory you hold. You have {after} armies to place.",
                after - before
            )
        },
        look: "",
        rules: "rules-classic-cards",
    },
    Step {
        title: "You know how to play",
        says: |_| {
            "That is a whole turn: place, attack, fortify, and cards when you have a set. \
            Place your armies and play this game on, or start a real game: you against two \
            computer players on a fresh map."
                .into()
        },
        target: no_target,
        allows: |_, _| true,
        done: never,
        result: no_result,
        look: "",
        rules: "rules-classic-goal",
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use orbis_engine::bot;

    /// The actions the coach's words ask for at step `i` (the computers' turns for step 6).
    fn play(i: usize, s: &mut ClassicState) {
        let act = |s: &mut ClassicState, a: Action| {
            s.apply(&a)
                .unwrap_or_else(|e| panic!("step {i}: {a:?}: {e}"));
        };
        match i {
            1 => {
                let Phase::Reinforce { armies } = s.phase else {
                    panic!("step 1: {:?}", s.phase)
                };
                act(
                    s,
                    Action::Place {
                        territory: t("brazil"),
                        armies,
                    },
                );
            }
            2 => {
                while !mine(s, "venezuela") {
                    let dice = s.max_attack_dice(t("brazil"));
                    assert!(dice > 0, "Brazil ran out of armies");
                    act(
                        s,
                        Action::Attack {
                            from: t("brazil"),
                            to: t("venezuela"),
                            dice,
                        },
                    );
                }
            }
            3 => {
                let Phase::Occupy { from, moved, .. } = s.phase else {
                    panic!("step 3: {:?}", s.phase)
                };
                let armies = moved + s.armies[from as usize] - 1;
                act(s, Action::Occupy { armies });
            }
            4 => act(s, Action::EndAttack),
            5 => {
                let armies = s.movable(t("congo"));
                act(
                    s,
                    Action::Fortify {
                        from: t("congo"),
                        to: t("north_africa"),
                        armies,
                    },
                );
            }
            6 => {
                while s.current != ME {
                    let a = bot::choose(s, BotLevel::Normal).expect("a computer move");
                    act(s, a);
                }
            }
            7 => {
                let set = s.sets_in_hand(ME)[0];
                act(s, Action::Trade { cards: set });
            }
            _ => {}
        }
    }

    /// Plays the lesson; the rolls of step 2 and whether the player lost a territory.
    fn story(s: &mut ClassicState) -> Vec<String> {
        let mut log = vec![];
        for (i, step) in STEPS.iter().enumerate() {
            let before = s.clone();
            play(i, s);
            if i + 1 < STEPS.len() {
                assert!(
                    (step.done)(&before, s),
                    "step {i} ({}) not done",
                    step.title
                );
            }
            log.push((step.result)(&before, s));
        }
        log
    }

    #[test]
    fn the_start_is_a_consistent_game() {
        let s = start();
        s.check_consistency().unwrap();
        assert_eq!(s.phase, Phase::Reinforce { armies: 6 });
        assert_eq!(s.territory_count(ME), 9);
    }

    #[test]
    fn every_step_comes_true_in_order() {
        let mut s = start();
        let log = story(&mut s);
        for l in &log {
            println!("{l}");
        }
        // The story the coach tells: two rolls, nothing lost, a set of three worth 4 + 2.
        assert!(log[2].contains("after 2 rolls"), "{}", log[2]);
        assert_eq!(s.territory_count(ME), 10, "the computers took a territory");
        assert!(log[7].contains("gave 4 armies"), "{}", log[7]);
        assert!(log[7].contains("2 more"), "{}", log[7]);
    }

    /// Prints the seeds whose story fits the coach's words (run with --ignored --nocapture).
    #[test]
    #[ignore]
    fn find_seed() {
        for k in 0..=255u8 {
            let mut s = start();
            let mut seed = [0u8; 32];
            seed[0] = k;
            s.rng = SeededDice::new(seed);
            let ok = std::panic::catch_unwind(move || {
                let log = story(&mut s);
                log[2].contains("after 2 rolls")
                    && log[2].contains("lost 1 army")
                    && s.territory_count(ME) == 10
            });
            if matches!(ok, Ok(true)) {
                println!("seed {k}");
            }
        }
    }
}
