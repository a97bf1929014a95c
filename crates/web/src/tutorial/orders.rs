//! The orders ruleset's first game: one year (Spring, Fall, the retreat and the winter builds)
//! as France on the real Europe map. The start is a custom engine state (built by [`start`]):
//! only the units the story needs are on the board, and France already holds Spain, so the
//! lesson fits in five minutes. The adjudicator has no dice: the other powers' orders are
//! scripted ([`script`]) and submitted with the player's, so every result is the same every
//! time. The unit test replays the lesson through the orders screen's own messages.

use super::Step;
use crate::orders::{Mode, OMsg, OrdersSession, Seat, Stage};
use orbis_engine::rules::orders::adjudicator::{Loc, Outcome, Piece, UnitType};
use orbis_engine::rules::orders::map::{OrdersMap, PowerId, ProvinceId};
use orbis_engine::rules::orders::notation::{self, Spec, Written};
use orbis_engine::rules::orders::{OrdersAction, OrdersOptions, OrdersState, Phase, Season};

fn map() -> &'static OrdersMap {
    OrdersMap::europe()
}

fn p(key: &str) -> ProvinceId {
    map().province(key).expect("a province of the Europe map")
}

fn power(key: &str) -> PowerId {
    map().power(key).expect("a power of the Europe map")
}

/// The province a target names (`[data-key="PAR"]`: "Paris"), for the coach's refusals.
pub fn target_name(target: &str) -> Option<String> {
    let key = target.strip_prefix("[data-key=\"")?.strip_suffix("\"]")?;
    let id = map().province(key)?;
    Some(map().provinces[id as usize].name.clone())
}

/// The player's power.
fn me() -> PowerId {
    power("FRANCE")
}

/// The lesson's game: Spring 1901 on the Europe map with France's four units (a fleet already
/// in the Mid-Atlantic Ocean), one German army and two English fleets; France holds Spain too.
pub fn start() -> OrdersState {
    let mut g = OrdersState::new("europe-1901", OrdersOptions::default())
        .expect("the Europe map is built in");
    let unit = |who: &str, kind: UnitType, at: &str| Piece::new(power(who), kind, Loc::new(p(at)));
    g.units = vec![
        unit("FRANCE", UnitType::Fleet, "MAO"),
        unit("FRANCE", UnitType::Army, "BRE"),
        unit("FRANCE", UnitType::Army, "PAR"),
        unit("FRANCE", UnitType::Army, "MAR"),
        unit("GERMANY", UnitType::Army, "MUN"),
        unit("ENGLAND", UnitType::Fleet, "ENG"),
        unit("ENGLAND", UnitType::Fleet, "IRI"),
    ];
    g.units
        .sort_by_key(|u| (u.loc.province, u.loc.coast, u.power));
    g.centres.insert(p("SPA"), me());
    g
}

/// Who plays: France at this device; the others are nobody's (their units hold unless the
/// script orders them).
pub fn seats() -> Vec<Seat> {
    (0..map().powers.len() as PowerId)
        .map(|x| if x == me() { Seat::Human } else { Seat::Idle })
        .collect()
}

/// A new session of the lesson's game.
pub fn session() -> OrdersSession {
    let mut o = OrdersSession::new(start(), seats());
    // France and its neighbours, from the Irish Sea to Munich and Portugal: the provinces the
    // lesson names, their keys larger than on the whole map.
    o.view = Some([0.0, 395.0, 450.0, 345.0]);
    o
}

/// The other powers' orders for this phase: Germany tries Burgundy twice; in Fall England
/// attacks the Mid-Atlantic with support.
pub fn script(g: &OrdersState) -> Vec<OrdersAction> {
    let w = |kind, at: &str, spec| Written {
        kind,
        at: Loc::new(p(at)),
        spec,
    };
    let mv = |kind, at: &str, to: &str| {
        w(
            kind,
            at,
            Spec::Move {
                to: Loc::new(p(to)),
                via_convoy: false,
            },
        )
    };
    let submit = |who: &str, orders: Vec<Written>| OrdersAction::Submit {
        power: power(who),
        orders,
    };
    if g.phase != Phase::Movement {
        return vec![];
    }
    let mut out = vec![submit("GERMANY", vec![mv(UnitType::Army, "MUN", "BUR")])];
    if g.season == Season::Fall {
        out.push(submit(
            "ENGLAND",
            vec![
                mv(UnitType::Fleet, "ENG", "MAO"),
                w(
                    UnitType::Fleet,
                    "IRI",
                    Spec::SupportMove {
                        kind: Some(UnitType::Fleet),
                        from: Loc::new(p("ENG")),
                        to: Loc::new(p("MAO")),
                    },
                ),
            ],
        ));
    }
    out
}

/// A message to the lesson's screen: the scripted orders go in just before the player's.
pub fn update(o: &mut OrdersSession, m: OMsg) -> bool {
    if matches!(m, OMsg::Submit) {
        for a in script(&o.game) {
            // The script fits the story's board (the unit test checks it).
            let _ = o.game.apply(&a);
        }
    }
    o.update(m)
}

/// The messages that change the game or the draft, which the lesson's gate judges; the rest
/// (the view, zoom, cancel, the typed text box) always pass.
pub fn gated(m: &OMsg) -> bool {
    !matches!(
        m,
        OMsg::Cancel
            | OMsg::Text(_)
            | OMsg::View(_)
            | OMsg::ZoomAt(..)
            | OMsg::Schematic(_)
            | OMsg::Nav(_)
            | OMsg::Reveal
    )
}

fn clicks(m: &OMsg, keys: &[&str]) -> bool {
    matches!(m, OMsg::Click(k) if keys.iter().any(|x| map().parse_loc(k).map(|l| l.province) == Some(p(x))))
}

/// The selector of a province on the orders map.
fn at(key: &'static str) -> &'static str {
    match key {
        "MAR" => "[data-key=\"MAR\"]",
        "GAS" => "[data-key=\"GAS\"]",
        "PAR" => "[data-key=\"PAR\"]",
        "BUR" => "[data-key=\"BUR\"]",
        "MAO" => "[data-key=\"MAO\"]",
        "BRE" => "[data-key=\"BRE\"]",
        "POR" => "[data-key=\"POR\"]",
        _ => "",
    }
}

/// The draft's order of the unit in `at`, if any.
fn drafted(o: &OrdersSession, key: &str) -> Option<Spec> {
    o.draft
        .iter()
        .find(|w| w.at.province == p(key))
        .map(|w| w.spec)
}

fn moves(o: &OrdersSession, from: &str, to: &str) -> bool {
    matches!(drafted(o, from), Some(Spec::Move { to: t, .. }) if t.province == p(to))
}

fn selected(o: &OrdersSession, key: &str) -> bool {
    o.sel.map(|l| l.province) == Some(p(key))
}

/// Click the unit in `from`, then `to`.
fn order_move(o: &OrdersSession, from: &'static str, to: &'static str) -> &'static str {
    if selected(o, from) {
        at(to)
    } else {
        at(from)
    }
}

/// The results (the adjudicator's own lines, as the results list shows them) of the units
/// in `keys`, in that order.
fn lines(o: &OrdersSession, keys: &[&str]) -> String {
    let Some(r) = &o.last else {
        return String::new();
    };
    let mut out = vec![];
    for k in keys {
        for x in r.results.iter().filter(|x| x.order.at.province == p(k)) {
            let word = if x.outcome == Outcome::Ok {
                "ok".to_string()
            } else {
                format!("✗ {}", x.outcome.word())
            };
            out.push(format!("{} {word}", notation::print(map(), &x.order)));
        }
    }
    out.join("; ")
}

fn units_of(g: &OrdersState, who: PowerId) -> usize {
    g.units.iter().filter(|u| u.power == who).count()
}

/// Continue from the results, else `then`.
fn after_results(o: &OrdersSession, then: &'static str) -> &'static str {
    if o.stage == Stage::Results {
        "#o-continue"
    } else {
        then
    }
}

fn none(_: &OrdersSession, _: &OMsg) -> bool {
    false
}

fn no_target(_: &OrdersSession) -> &'static str {
    ""
}

fn no_result(_: &OrdersSession, _: &OrdersSession) -> String {
    String::new()
}

pub static STEPS: [Step<OrdersSession, OrdersSession, OMsg>; 9] = [
    Step {
        title: "Orders: your first game",
        says: |_| {
            "You are France (blue) on the map of Europe in 1901. This lesson starts from a \
            position made for it: only the units its story needs are on the board, and France \
            already holds Spain. Every power writes orders for all its units in secret; then all \
            orders are revealed and carried out at once, with no dice: the stronger side wins, a \
            tie changes nothing. You will move, bounce, convoy, support, retreat and build: about \
            five minutes. Here you are told the other powers' orders; in a real game you guess \
            (or ask them). Two marks on the map: a thick purple outline is the coach's, what to \
            click now; yellow dashed patches are the game's own, every place the unit you \
            selected may go. The map writes provinces as three letters: Paris is PAR. Press Next."
                .into()
        },
        target: no_target,
        allows: none,
        done: |_, _| true,
        result: no_result,
        look: "",
        rules: "rules-orders-goal",
    },
    Step {
        title: "Move",
        says: |_| {
            "An army moves one step, into a neighbouring land province. Gascony (GAS), next to \
            Marseilles (MAR), is empty: click your army in Marseilles, then Gascony. From there \
            it can help in Burgundy (BUR) next season."
                .into()
        },
        target: |o| order_move(o, "MAR", "GAS"),
        allows: |_, m| clicks(m, &["MAR", "GAS"]),
        done: |_, o| moves(o, "MAR", "GAS"),
        result: |_, _| {
            "The order A MAR - GAS (army Marseilles to Gascony) is in your list. Nothing moves \
            yet: orders are carried out when every power has written them."
                .into()
        },
        look: "",
        rules: "rules-orders-move",
    },
    Step {
        title: "Bounce",
        says: |_| {
            "Germany's army in Munich (MUN) is ordered into Burgundy (BUR) this spring. Order \
            your army in Paris (PAR) there too: click Paris, then Burgundy. Two units of equal strength (1 each) \
            entering one province bounce: neither gets in, and both stay where they were."
                .into()
        },
        target: |o| order_move(o, "PAR", "BUR"),
        allows: |_, m| clicks(m, &["PAR", "BUR"]),
        done: |_, o| moves(o, "PAR", "BUR"),
        result: |_, _| "The order A PAR - BUR (army Paris to Burgundy) is in your list.".into(),
        look: "",
        rules: "rules-orders-move",
    },
    Step {
        title: "Convoy",
        says: |_| {
            "A fleet at sea can carry an army across it. Your fleet in the Mid-Atlantic Ocean \
            (MAO) will convoy the army in Brest (BRE) to Portugal (POR), a supply centre nobody \
            holds. Click the fleet, press Convoy…, click the army in Brest, then Portugal. Then \
            give the army its own order: click Brest, then Portugal."
                .into()
        },
        target: |o| {
            if !matches!(drafted(o, "MAO"), Some(Spec::Convoy { .. })) {
                match (selected(o, "MAO"), o.mode) {
                    (false, _) => at("MAO"),
                    (true, Mode::ConvoyPick) => at("BRE"),
                    (true, Mode::ConvoyTo(_)) => at("POR"),
                    (true, _) => "#o-convoy",
                }
            } else {
                order_move(o, "BRE", "POR")
            }
        },
        allows: |_, m| {
            clicks(m, &["MAO", "BRE", "POR"]) || matches!(m, OMsg::SetMode(Mode::ConvoyPick))
        },
        done: |_, o| {
            matches!(drafted(o, "MAO"), Some(Spec::Convoy { .. })) && moves(o, "BRE", "POR")
        },
        result: |_, _| {
            "Both orders are in: F MAO C A BRE - POR (the fleet convoys Brest's army to \
            Portugal) and A BRE - POR. A convoy needs both, the fleet's and the army's."
                .into()
        },
        look: "",
        rules: "rules-orders-convoy",
    },
    Step {
        title: "Submit: Spring 1901",
        says: |_| {
            "Units without an order hold. Press Submit orders: the other powers' orders are \
            revealed and the adjudicator resolves them all together. Spring's results then show \
            beside the map, while the header already names the next season, Fall 1901."
                .into()
        },
        target: |_| "#o-submit",
        allows: |_, m| matches!(m, OMsg::Submit),
        done: |_, o| o.game.season == Season::Fall && o.last.is_some(),
        result: |_, o| {
            format!(
                "Spring 1901's results: {}. Marseilles' army is in Gascony and the army from \
                 Brest sailed to Portugal. Paris and Munich bounced (1 against 1): both stayed. \
                 Watch out: England's fleets in the English Channel (ENG) and the Irish Sea (IRI) \
                 border your fleet in the Mid-Atlantic.",
                lines(o, &["MAR", "PAR", "MUN", "MAO", "BRE"])
            )
        },
        look: "",
        rules: "rules-orders-move",
    },
    Step {
        title: "Support: Fall 1901",
        says: |_| {
            "Fall 1901. Germany tries Burgundy again, and England will attack your fleet in the \
            Mid-Atlantic: the Channel's fleet moves in, supported by the Irish Sea's (2 against \
            your 1). You cannot save it this year; see what happens to a beaten unit. A unit can \
            support another's move instead of moving: each support adds 1 to the move's \
            strength. Press Continue, click the army in Gascony (GAS), press Support…, click the \
            army in Paris (PAR), then Burgundy (BUR). Then order Paris to Burgundy (click Paris, \
            then Burgundy) and press Submit orders."
                .into()
        },
        target: |o| {
            if o.stage == Stage::Results {
                return "#o-continue";
            }
            if !matches!(drafted(o, "GAS"), Some(Spec::SupportMove { .. })) {
                match (selected(o, "GAS"), o.mode) {
                    (false, _) => at("GAS"),
                    (true, Mode::SupportPick) => at("PAR"),
                    (true, Mode::SupportTo(_)) => at("BUR"),
                    (true, _) => "#o-support",
                }
            } else if !moves(o, "PAR", "BUR") {
                order_move(o, "PAR", "BUR")
            } else {
                "#o-submit"
            }
        },
        allows: |o, m| {
            let ready = matches!(drafted(o, "GAS"), Some(Spec::SupportMove { .. }))
                && moves(o, "PAR", "BUR");
            matches!(m, OMsg::Continue if o.stage == Stage::Results)
                || clicks(m, &["GAS", "PAR", "BUR"])
                || matches!(m, OMsg::SetMode(Mode::SupportPick))
                || (ready && matches!(m, OMsg::Submit))
        },
        done: |_, o| o.game.phase == Phase::Retreat,
        result: |_, o| {
            format!(
                "Fall 1901's results: {}. Paris, supported, had strength 2 against Munich's 1: it \
                 took Burgundy. England's attack on your fleet had strength 2 against 1: it is \
                 dislodged (beaten out of its province).",
                lines(o, &["PAR", "GAS", "MUN", "ENG", "IRI", "MAO"])
            )
        },
        look: "",
        rules: "rules-orders-support",
    },
    Step {
        title: "Retreat",
        says: |_| {
            "A dislodged unit must retreat to an empty neighbouring province (not where the \
            attack came from) or be disbanded. Press Continue, click your fleet in the \
            Mid-Atlantic (MAO), then Brest (BRE), your home port, and press Submit orders."
                .into()
        },
        target: |o| {
            after_results(
                o,
                if matches!(drafted(o, "MAO"), Some(Spec::Retreat { .. })) {
                    "#o-submit"
                } else {
                    order_move(o, "MAO", "BRE")
                },
            )
        },
        allows: |o, m| {
            matches!(m, OMsg::Continue if o.stage == Stage::Results)
                || clicks(m, &["MAO", "BRE"])
                || (matches!(drafted(o, "MAO"), Some(Spec::Retreat { .. }))
                    && matches!(m, OMsg::Submit))
        },
        done: |_, o| o.game.phase == Phase::Adjustment,
        result: |_, o| {
            format!(
                "{}. The year is over: each unit standing in a supply centre takes it for its \
                 power. Portugal is France's: {} centres and {} units.",
                lines(o, &["MAO"]),
                o.game.centre_count(me()),
                units_of(&o.game, me())
            )
        },
        look: "",
        rules: "rules-orders-retreat",
    },
    Step {
        title: "Build",
        says: |_| {
            "After Fall, a power with more supply centres than units builds the difference, each \
            new unit in a home centre it holds that is empty. Press Continue, click Paris (PAR), \
            press Build army, then Submit orders."
                .into()
        },
        target: |o| {
            after_results(
                o,
                if matches!(drafted(o, "PAR"), Some(Spec::Build)) {
                    "#o-submit"
                } else if selected(o, "PAR") {
                    "#o-build-army"
                } else {
                    at("PAR")
                },
            )
        },
        allows: |o, m| {
            matches!(m, OMsg::Continue if o.stage == Stage::Results)
                || clicks(m, &["PAR"])
                || matches!(m, OMsg::Build(UnitType::Army, l) if l.province == p("PAR"))
                || (matches!(drafted(o, "PAR"), Some(Spec::Build)) && matches!(m, OMsg::Submit))
        },
        done: |_, o| o.game.year == 1902,
        result: |_, o| {
            format!(
                "{}. France has {} units for {} centres, and the header says Spring 1902: a new \
                 year. Whoever holds 18 supply centres wins.",
                lines(o, &["PAR"]),
                units_of(&o.game, me()),
                o.game.centre_count(me())
            )
        },
        look: "",
        rules: "rules-orders-adjust",
    },
    Step {
        title: "You know how to play",
        says: |_| {
            "That is a year of orders: move, bounce, convoy, support, retreat and build. Play \
            this game on, or start a real game against six computer powers."
                .into()
        },
        target: no_target,
        allows: |_, _| true,
        done: |_, _| false,
        result: no_result,
        look: "",
        rules: "rules-orders-goal",
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tutorial::Lesson;

    /// Follows the coach: sends what its target names (a province or a button) until the step
    /// is done, as the browser test does.
    fn follow(o: &mut OrdersSession, i: usize) -> usize {
        let st = &STEPS[i];
        let start = o.clone();
        let mut n = 0;
        while !(st.done)(&start, o) {
            let t = (st.target)(o);
            let m = if let Some(k) = t.strip_prefix("[data-key=\"") {
                OMsg::Click(k.trim_end_matches("\"]").into())
            } else {
                match t {
                    "#o-continue" => OMsg::Continue,
                    "#o-submit" => OMsg::Submit,
                    "#o-convoy" => OMsg::SetMode(Mode::ConvoyPick),
                    "#o-support" => OMsg::SetMode(Mode::SupportPick),
                    "#o-build-army" => OMsg::Build(UnitType::Army, Loc::new(p("PAR"))),
                    _ => panic!("step {i}: no target"),
                }
            };
            assert!((st.allows)(o, &m), "step {i} refuses its own target {t}");
            update(o, m);
            assert_eq!(o.error, None, "step {i}: {t}");
            n += 1;
            assert!(n < 12, "step {i} ({}) never done", st.title);
        }
        n
    }

    #[test]
    fn the_start_is_a_consistent_game() {
        let o = session();
        o.game.check_consistency().unwrap();
        assert_eq!(o.stage, Stage::Enter(me()));
    }

    #[test]
    fn every_step_comes_true_in_order() {
        let mut o = session();
        let mut lesson = Lesson::new(&STEPS, &o);
        let (mut clicks, mut log) = (0, vec![]);
        for (i, st) in STEPS.iter().enumerate().take(STEPS.len() - 1).skip(1) {
            lesson.next(&STEPS, &o);
            assert_eq!(lesson.step, i);
            assert!(lesson.result.is_none(), "step {i} done before it began");
            clicks += follow(&mut o, i);
            lesson.observe(&STEPS, &o);
            let r = lesson.result.clone().expect("a result");
            println!("{}: {r}", st.title);
            log.push(r);
        }
        // The story the coach tells, in the adjudicator's words and from the engine.
        assert!(log[3].contains("A PAR - BUR ✗ bounce"), "{}", log[3]);
        assert!(log[3].contains("A BRE - POR ok"), "{}", log[3]);
        assert!(log[4].contains("A PAR - BUR ok"), "{}", log[4]);
        assert!(log[4].contains("F MAO H ✗ dislodged"), "{}", log[4]);
        // The words name the season whose results they show (the header names the next), and
        // England's attack was announced before it came.
        assert!(log[3].starts_with("Spring 1901's results"), "{}", log[3]);
        assert!(log[4].contains("F ENG - MAO ok"), "{}", log[4]);
        assert!((STEPS[5].says)(&o).contains("England will attack"));
        assert!(log[5].contains("F MAO R BRE ok"), "{}", log[5]);
        assert!(log[6].contains("A PAR B ok"), "{}", log[6]);
        assert_eq!(o.game.year, 1902);
        assert_eq!(o.game.centre_count(me()), 5);
        assert_eq!(units_of(&o.game, me()), 5);
        assert!(o
            .game
            .units
            .iter()
            .any(|u| u.loc.province == p("BUR") && u.power == me()));
        assert!(o
            .game
            .units
            .iter()
            .any(|u| u.loc.province == p("POR") && u.power == me()));
        assert!(o
            .game
            .units
            .iter()
            .any(|u| u.loc.province == p("BRE") && u.power == me()));
        println!("{clicks} clicks");
    }

    #[test]
    fn other_actions_are_refused() {
        let mut o = session();
        let mut lesson = Lesson::new(&STEPS, &o);
        lesson.next(&STEPS, &o);
        assert!(!lesson.gate(&STEPS, &o, &OMsg::Click("PAR".into())));
        assert!(lesson.notice.is_some());
        assert!(!lesson.gate(&STEPS, &o, &OMsg::Submit));
        assert!(lesson.gate(&STEPS, &o, &OMsg::Click("MAR".into())));
        update(&mut o, OMsg::Click("MAR".into()));
        assert!(gated(&OMsg::Submit) && !gated(&OMsg::Cancel));
    }
}
