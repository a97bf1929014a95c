//! The economy ruleset's first game: one round on the real map from a custom start, against
//! one computer player. The start is a real engine state (built by [`start`]) whose seed was
//! chosen so the dice and the computer tell the story below: you recruit an army, Boole plans no
//! move, you win the initiative, two rolls take neutral Ukraine (a Pass, announced, rolls the
//! second), Boole declares with you (the choice of whose goes first, announced), the first roll against
//! Boole's fortified capital is lost, so you withdraw. Every sentence that states a fact about
//! the game is computed from it, and the unit test (`every_step_comes_true_in_order`) replays
//! the lesson through the session's own messages and checks the facts the fixed words assume.
//! The lesson reads the whole session (the draft of plans is UI state).

use super::Step;
use crate::economy::{text, EMsg, EconomySession, Seat};
use orbis_engine::rules::classic::{BotLevel, PlayerId};
use orbis_engine::rules::economy::action::{EconomyAction as A, SetupAction};
use orbis_engine::rules::economy::battlefield::{BattleAction, Foe, Site};
use orbis_engine::rules::economy::get::{RECRUIT_MU, RECRUIT_NO_BASE_MU};
use orbis_engine::rules::economy::map::{EconomyMap, RegionId};
use orbis_engine::rules::economy::options::EconomyOptions;
use orbis_engine::rules::economy::phase::Phase;
use orbis_engine::rules::economy::state::EconomyState;
use orbis_engine::rules::economy::units::{Force, Kind};

/// The player's seat.
pub const ME: PlayerId = 0;
/// Boole, the computer player.
const BOOLE: PlayerId = 1;
/// The seed of the dice and the computer's choices (found by `tests::find_seed`).
pub const SEED: u8 = 7;

pub fn r(key: &str) -> RegionId {
    EconomyMap::get()
        .region(key)
        .expect("a region of the economy map")
}

/// The lesson's game from `seed`: you pick Western Europe, Boole Southern Europe (each a capital
/// with its bases and fortifications); then you hold 12 armies at home and 4 in Northern Europe.
/// Round 1's Get phase, nobody has acted yet.
pub fn start_with(seed: u8) -> EconomyState {
    let map = EconomyMap::get();
    let mut k = [0u8; 32];
    k[0] = seed;
    let (mut g, _) = EconomyState::new(&["Red (you)", "Boole"], EconomyOptions::default(), k)
        .expect("two players");
    let picks = [r("western_europe"), r("southern_europe")];
    while let Phase::Pick(p) = g.phase {
        g.apply(&A::Setup {
            player: p,
            choice: SetupAction::Country(picks[p as usize]),
        })
        .expect("a pick");
    }
    let place = |g: &mut EconomyState, key: &str, armies: u32| {
        let x = &mut g.regions[r(key) as usize];
        x.neutral = Force::default();
        x.forces.clear();
        x.forces.insert(ME, Force { armies, navies: 0 });
        x.owner = Some(ME);
    };
    place(&mut g, "western_europe", 12);
    place(&mut g, "northern_europe", 4);
    for p in 0..2 {
        let owed = g.upkeep(map, p);
        let turn = &mut g.get[p as usize];
        turn.settled = owed.iter().all(|u| u.due == 0);
        turn.owed = owed;
    }
    g
}

/// The region a target names (`#r-ukraine`: "Ukraine"), for the coach's refusals.
pub fn target_name(target: &str) -> Option<String> {
    let key = target.strip_prefix("#r-")?;
    EconomyMap::get().region(key).map(text::region)
}

pub fn start() -> EconomyState {
    start_with(SEED)
}

/// The lesson's session: you at the device, Boole a normal computer player.
pub fn session() -> EconomySession {
    let mut s = EconomySession::new(start(), vec![Seat::Human, Seat::Computer(BotLevel::Normal)]);
    s.ui.log = vec!["The lesson begins.".into()];
    // The lesson's countries, whole on a phone too (Ukraine reaches far north).
    s.ui.view = Some(VIEW);
    s
}

/// The board's view: Western Europe to Ukraine, Northern Europe to Southern Europe.
pub const VIEW: [f32; 4] = [425.0, 10.0, 215.0, 245.0];

/// After a message went to the lesson's screen: a click on a country in the Get phase sets the
/// count to the units there (a move's default), which the recruit field takes too (12 armies,
/// 110 MU, more than the player has); the lesson recruits the one army its words name.
pub fn settle(s: &mut EconomySession, m: &EMsg) {
    if s.game.phase == Phase::Get && matches!(m, EMsg::Click(_)) && s.ui.sel.is_some() {
        s.ui.armies = 1;
        s.ui.navies = 0;
    }
}

/// The messages that change the game, which the lesson's gate judges; the rest (selection
/// cleared, counts, the view, the computer's steps) always pass.
pub fn gated(m: &EMsg) -> bool {
    matches!(
        m,
        EMsg::Click(_)
            | EMsg::DragTo(_)
            | EMsg::Act(_)
            | EMsg::RemovePlan(_)
            | EMsg::PlanCount(..)
            | EMsg::SubmitPlans
            | EMsg::RollOn(..)
            | EMsg::Card(_)
    )
}

fn battle(s: &EconomySession) -> Option<Site> {
    s.game.combat.as_ref()?.battle.as_ref().map(|b| b.site)
}

fn at(key: &str) -> Site {
    Site::Region(r(key))
}

fn drafted(s: &EconomySession, from: &str, to: &str) -> bool {
    s.ui.drafts
        .get(&ME)
        .is_some_and(|d| d.iter().any(|m| (m.from, m.to) == (r(from), r(to))))
        || s.game
            .plans
            .get(&ME)
            .is_some_and(|d| d.iter().any(|m| (m.from, m.to) == (r(from), r(to))))
}

/// The units of the planned move `from` -> `to`, in words ("4 armies").
fn planned(s: &EconomySession, from: &str, to: &str) -> String {
    let find = |d: Option<&Vec<orbis_engine::rules::economy::units::PlannedMove>>| {
        d.and_then(|d| d.iter().find(|m| (m.from, m.to) == (r(from), r(to))))
            .map(|m| Force {
                armies: m.armies,
                navies: m.navies,
            })
    };
    let f = find(s.ui.drafts.get(&ME))
        .or_else(|| find(s.game.plans.get(&ME)))
        .unwrap_or_default();
    crate::economy::text::force(f)
}

fn clicks(m: &EMsg, keys: &[&str]) -> bool {
    matches!(m, EMsg::Click(x) | EMsg::DragTo(x) if keys.iter().any(|k| r(k) == *x))
}

/// The next of `from`, `to` to click for a planned move.
fn pick(s: &EconomySession, from: &'static str, to: &'static str) -> &'static str {
    if s.ui.sel != Some(r(&from[3..])) {
        from
    } else {
        to
    }
}

const DECLARE: [&str; 10] = [
    "#declare-0",
    "#declare-1",
    "#declare-2",
    "#declare-3",
    "#declare-4",
    "#declare-5",
    "#declare-6",
    "#declare-7",
    "#declare-8",
    "#declare-9",
];

/// The declare button (in the panel's order: attacks, then withdraws) that does `want`.
fn declare(s: &EconomySession, want: fn(&BattleAction) -> bool) -> &'static str {
    let g = &s.game;
    let Some(site) = battle(s) else { return "" };
    if g.waiting_for_choice() {
        return "#choose-0";
    }
    if s.actor() != Some(ME) {
        return "";
    }
    let mut options: Vec<BattleAction> = g.possible_actions(site, ME);
    let ways = g.withdraw_options(EconomyMap::get(), site, ME);
    options.extend(ways.iter().map(|&(to, f)| {
        BattleAction::Withdraw(orbis_engine::rules::economy::battlefield::WithdrawOrder::to(to, f))
    }));
    match options.iter().position(want) {
        Some(i) if i < DECLARE.len() => DECLARE[i],
        // Only the Ukraine step's words name Pass (another roll of an attack under way).
        _ => "",
    }
}

/// Your attack under way at the battle (after a roll, before the next).
fn my_assault(s: &EconomySession) -> bool {
    battle(s)
        .and_then(|site| s.game.assault(site))
        .is_some_and(|a| a.attacker == ME)
}

/// When Boole declares an action in the same battle, both are declared at once and the
/// initiative holder (you) chooses whose goes first: the coach says so where it can happen.
const BOTH_DECLARE: &str = " If Boole declares too, pick whose goes first: yours.";

fn holder(s: &EconomySession) -> Option<PlayerId> {
    s.game.combat.as_ref().map(|c| c.holder)
}

fn attack_neutral(a: &BattleAction) -> bool {
    matches!(
        a,
        BattleAction::Attack {
            target: Foe::Neutral,
            kind: Kind::Army
        }
    )
}

fn attack_boole(a: &BattleAction) -> bool {
    matches!(
        a,
        BattleAction::Attack {
            target: Foe::Player(BOOLE),
            kind: Kind::Army
        }
    )
}

fn withdraw_home(a: &BattleAction) -> bool {
    matches!(a, BattleAction::Withdraw(w) if w.to == r("western_europe"))
}

fn declares(m: &EMsg, want: fn(&BattleAction) -> bool) -> bool {
    matches!(m, EMsg::Act(A::Declare { player: ME, action: Some(a) }) if want(a))
        || matches!(
            m,
            EMsg::Act(A::ChooseAction {
                player: ME,
                actor: ME
            })
        )
}

fn mine_at(s: &EconomySession, key: &str) -> u32 {
    s.game.site_force(at(key), Foe::Player(ME)).units()
}

fn log_line(s: &EconomySession, starts: &str) -> String {
    s.ui.log
        .iter()
        .find(|l| l.starts_with(starts))
        .cloned()
        .unwrap_or_default()
}

/// The rolls of yours the log shows.
fn my_rolls(s: &EconomySession) -> usize {
    s.ui.log
        .iter()
        .filter(|l| l.starts_with("Red (you) rolls"))
        .count()
}

#[cfg(test)]
fn last_roll(s: &EconomySession) -> String {
    s.ui.last_roll.clone().unwrap_or_default()
}

fn none(_: &EconomySession, _: &EMsg) -> bool {
    false
}

fn no_target(_: &EconomySession) -> &'static str {
    ""
}

fn no_result(_: &EconomySession, _: &EconomySession) -> String {
    String::new()
}

type EStep = Step<EconomySession, EconomySession, EMsg>;

pub static STEPS: [EStep; 15] = [
    Step {
        title: "Your first economy game",
        says: |_| {
            "You are Red (capital Western Europe) against Boole, a computer. Countries earn MU, \
            money for armies. A round: Get, Planning, Movement, Combat. Press Next."
                .into()
        },
        target: no_target,
        allows: none,
        done: |_, _| true,
        result: no_result,
        look: "",
        rules: "rules-economy-goal",
    },
    Step {
        title: "Pay your upkeep",
        says: |s| {
            let due: u32 = s.game.get[ME as usize].owed.iter().map(|u| u.due).sum();
            format!(
                "You earn 1 MU a country, 1 a road{}. Upkeep: 1 MU a unit over 5 in a country (10 \
                 at your capital). Press Settle upkeep ({due} MU).",
                if s.game.options.continent_bonuses {
                    ", plus whole continents"
                } else {
                    ""
                }
            )
        },
        target: |_| "#pay-upkeep",
        allows: |_, m| matches!(m, EMsg::Act(A::SettleUpkeep { player: ME, .. })),
        done: |_, s| s.game.get[ME as usize].settled,
        result: |a, s| {
            format!(
                "Paid {} MU; {} MU left.",
                a.game.players[ME as usize].mu - s.game.players[ME as usize].mu,
                s.game.players[ME as usize].mu
            )
        },
        look: "",
        rules: "rules-economy-upkeep",
    },
    Step {
        title: "Recruit an army",
        says: |_| {
            format!(
                "An army costs {RECRUIT_MU} MU at a base (one a base a round), \
                 {RECRUIT_NO_BASE_MU} elsewhere. Click Western Europe, then 1 army: {RECRUIT_MU} MU."
            )
        },
        target: |s| {
            if s.ui.sel == Some(r("western_europe")) {
                "#recruit-armies"
            } else {
                "#r-western_europe"
            }
        },
        allows: |_, m| {
            clicks(m, &["western_europe"])
                || matches!(m, EMsg::Act(A::Recruit { player: ME, country, navy_into: None, .. })
                    if *country == r("western_europe"))
        },
        done: |a, s| mine_at(s, "western_europe") > mine_at(a, "western_europe"),
        result: |_, s| {
            format!(
                "Western Europe holds {} armies; {} MU left.",
                mine_at(s, "western_europe"),
                s.game.players[ME as usize].mu
            )
        },
        look: "",
        rules: "rules-economy-get",
    },
    Step {
        title: "Finish the Get phase",
        says: |_| "Press Done with the Get phase.".into(),
        target: |s| {
            if s.game.get[ME as usize].done {
                ""
            } else {
                "#finish-get"
            }
        },
        allows: |_, m| matches!(m, EMsg::Act(A::FinishGet { player: ME })),
        done: |_, s| s.game.phase == Phase::Planning,
        result: |_, _| "Planning: moves stay secret until all are in.".into(),
        look: "",
        rules: "rules-economy-get",
    },
    Step {
        title: "Plan a capture",
        says: |s| {
            format!(
                "Ukraine is neutral ({} army); a country earns 1 MU a round. Click Northern \
                 Europe, then Ukraine.",
                s.game.site_force(at("ukraine"), Foe::Neutral).units()
            )
        },
        target: |s| pick(s, "#r-northern_europe", "#r-ukraine"),
        allows: |_, m| clicks(m, &["northern_europe", "ukraine"]),
        done: |_, s| drafted(s, "northern_europe", "ukraine"),
        result: |_, s| {
            format!(
                "Planned: {} to Ukraine.",
                planned(s, "northern_europe", "ukraine")
            )
        },
        look: "",
        rules: "rules-economy-plan",
    },
    Step {
        title: "Plan an attack",
        says: |_| "Now Boole's capital: click Western Europe, then Southern Europe.".into(),
        target: |s| pick(s, "#r-western_europe", "#r-southern_europe"),
        allows: |_, m| clicks(m, &["western_europe", "southern_europe"]),
        done: |_, s| drafted(s, "western_europe", "southern_europe"),
        result: |_, s| {
            format!(
                "Planned: {} to Southern Europe.",
                planned(s, "western_europe", "southern_europe")
            )
        },
        look: "",
        rules: "rules-economy-plan",
    },
    Step {
        title: "Submit your plans",
        says: |_| "Press Submit 2 planned moves.".into(),
        target: |s| {
            if s.game.plans.contains_key(&ME) {
                ""
            } else {
                "#submit-plans"
            }
        },
        allows: |_, m| matches!(m, EMsg::SubmitPlans),
        done: |_, s| s.game.phase != Phase::Planning && s.game.plans.contains_key(&ME),
        result: |_, s| {
            let n = s.game.plans.get(&BOOLE).map_or(0, |p| p.len());
            format!(
                "Revealed: Boole planned {}.",
                match n {
                    0 => "no move".to_string(),
                    1 => "1 move".to_string(),
                    n => format!("{n} moves"),
                }
            )
        },
        look: "",
        rules: "rules-economy-plan",
    },
    Step {
        title: "Friendly movement, then initiative",
        says: |_| {
            "Units in no plan may move inside your countries; yours all march. Press No moves: \
            on to combat. Then a die each: the highest holds the initiative."
                .into()
        },
        target: |s| {
            if s.game.phase == Phase::Moving && !s.game.moving_done.contains(&ME) {
                "#finish-moving"
            } else {
                ""
            }
        },
        allows: |_, m| matches!(m, EMsg::Act(A::FinishMoving { player: ME })),
        done: |_, s| s.game.phase == Phase::Combat,
        result: |_, s| {
            format!(
                "{} {} the battles' order.",
                log_line(s, "Initiative"),
                if holder(s) == Some(ME) {
                    "You pick"
                } else {
                    "Boole picks"
                }
            )
        },
        look: "",
        rules: "rules-economy-initiative",
    },
    Step {
        title: "Pick the first battle",
        says: |_| "Each ⚔ on the map is a battle. Press Fight at Ukraine.".into(),
        target: |_| "#battle-ukraine",
        allows: |_, m| matches!(m, EMsg::Act(A::PickBattle { player: ME, site }) if *site == at("ukraine")),
        done: |_, s| battle(s) == Some(at("ukraine")),
        result: no_result,
        look: "",
        rules: "rules-economy-combat",
    },
    Step {
        title: "Attack Ukraine",
        says: |_| {
            "A roll: a die each plus bonuses; the lower total loses a unit, a tie both. Odds \
            are under the button. Press the outlined button (then Roll once more, if needed)."
                .into()
        },
        target: |s| {
            if my_assault(s) {
                "#declare-none"
            } else {
                declare(s, attack_neutral)
            }
        },
        allows: |_, m| {
            declares(m, attack_neutral)
                || matches!(
                    m,
                    EMsg::Act(A::Declare {
                        player: ME,
                        action: None
                    })
                )
                || matches!(m, EMsg::RollOn(ME, _))
        },
        done: |_, s| battle(s) != Some(at("ukraine")) && s.game.phase == Phase::Combat,
        result: |a, s| {
            let rolls = my_rolls(s).saturating_sub(my_rolls(a));
            let lost = mine_at(a, "ukraine").saturating_sub(mine_at(s, "ukraine"));
            format!(
                "The neutral army is gone after {}{}: Ukraine is yours at the round's end.",
                if rolls == 1 {
                    "1 roll".to_string()
                } else {
                    format!("{rolls} rolls")
                },
                match lost {
                    0 => String::new(),
                    1 => ", for 1 army of yours".into(),
                    n => format!(", for {n} armies of yours"),
                }
            )
        },
        look: "#r-ukraine",
        rules: "rules-economy-combat",
    },
    Step {
        title: "Pick the next battle",
        says: |_| "Press Fight at Southern Europe.".into(),
        target: |_| "#battle-southern_europe",
        allows: |_, m| matches!(m, EMsg::Act(A::PickBattle { player: ME, site }) if *site == at("southern_europe")),
        done: |_, s| battle(s) == Some(at("southern_europe")),
        result: no_result,
        look: "",
        rules: "rules-economy-combat",
    },
    Step {
        title: "Attack a fortified capital",
        says: |s| {
            format!(
                "Boole's {} armies: +1 defending, +1 fortifications; your {}: +1 for more \
                 units. Press the outlined button.{}",
                s.game
                    .site_force(at("southern_europe"), Foe::Player(BOOLE))
                    .units(),
                mine_at(s, "southern_europe"),
                BOTH_DECLARE
            )
        },
        target: |s| declare(s, attack_boole),
        allows: |_, m| declares(m, attack_boole),
        done: |a, s| {
            let site = at("southern_europe");
            let all = |x: &EconomySession| {
                x.game.site_force(site, Foe::Player(ME)).units()
                    + x.game.site_force(site, Foe::Player(BOOLE)).units()
            };
            all(s) < all(a)
        },
        result: |a, s| {
            let lost = mine_at(a, "southern_europe") > mine_at(s, "southern_europe");
            // The roll itself, with its bonuses, is the battle panel's line above the buttons.
            if lost {
                "You lost this roll (its line says why): walls weigh on every one."
            } else {
                "You won this roll, but walls weigh on every one."
            }
            .into()
        },
        look: "",
        rules: "rules-economy-combat",
    },
    Step {
        title: "Withdraw",
        says: |s| {
            format!(
                "You may withdraw after any roll; Boole may intercept (risk under the button). \
                 Press Withdraw {} to Western Europe, your empty capital.{BOTH_DECLARE}",
                text::force(Force {
                    armies: mine_at(s, "southern_europe"),
                    navies: 0
                })
            )
        },
        target: |s| declare(s, withdraw_home),
        allows: |_, m| declares(m, withdraw_home) || matches!(m, EMsg::Act(A::Intercept { .. })),
        done: |_, s| mine_at(s, "southern_europe") == 0 && mine_at(s, "western_europe") > 0,
        result: |_, s| log_line(s, "Red (you) withdraws"),
        look: "#r-western_europe",
        rules: "rules-economy-withdraw",
    },
    Step {
        title: "The round ends",
        says: |_| "No battle is left: the round ends. Round 1 in short sums it up.".into(),
        target: |s| {
            if s.actor() == Some(ME) && s.game.phase == Phase::Combat && battle(s).is_none() {
                "#stop-moving"
            } else {
                ""
            }
        },
        allows: |_, m| matches!(m, EMsg::Act(A::StopMoving { player: ME })),
        done: |_, s| s.game.round > 1 && s.game.phase == Phase::Get,
        result: |_, s| {
            format!(
                "{} your income is now {}.",
                if s.game.regions[r("ukraine") as usize].owner == Some(ME) {
                    "You captured Ukraine:"
                } else {
                    "Ukraine is not yours:"
                },
                text::income(
                    s.game.income(EconomyMap::get(), ME),
                    s.game.options.continent_bonuses
                ),
            )
        },
        look: "#round-summary",
        rules: "rules-economy-capital",
    },
    Step {
        title: "You know how to play",
        says: |_| {
            "That was a round. Play on, or start a real game against computer players.".into()
        },
        target: no_target,
        allows: |_, _| true,
        done: |_, _| false,
        result: no_result,
        look: "",
        rules: "rules-economy-goal",
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tutorial::Lesson;
    use orbis_engine::rules::economy::battlefield::WithdrawOrder;

    /// The message the control named by `target` sends (as the page's buttons build it).
    fn press(s: &EconomySession, target: &str) -> EMsg {
        let g = &s.game;
        if let Some(k) = target.strip_prefix("#r-") {
            return EMsg::Click(r(k));
        }
        if let Some(k) = target.strip_prefix("#battle-") {
            return EMsg::Act(A::PickBattle {
                player: ME,
                site: at(k),
            });
        }
        if let Some(i) = target.strip_prefix("#declare-") {
            let action = i.parse::<usize>().ok().map(|i| {
                let site = battle(s).expect("a battle");
                let mut options = g.possible_actions(site, ME);
                options.extend(
                    g.withdraw_options(EconomyMap::get(), site, ME)
                        .into_iter()
                        .map(|(to, f)| BattleAction::Withdraw(WithdrawOrder::to(to, f))),
                );
                options[i]
            });
            return EMsg::Act(A::Declare { player: ME, action });
        }
        EMsg::Act(match target {
            "#pay-upkeep" => A::SettleUpkeep {
                player: ME,
                losses: g.plain_settlement(ME),
            },
            "#finish-get" => A::FinishGet { player: ME },
            "#recruit-armies" => A::Recruit {
                player: ME,
                country: s.ui.sel.expect("a country selected"),
                navy_into: None,
                count: s.ui.armies.max(1),
            },
            "#submit-plans" => return EMsg::SubmitPlans,
            "#finish-moving" => A::FinishMoving { player: ME },
            "#choose-0" => A::ChooseAction {
                player: ME,
                actor: ME,
            },
            "#stop-moving" => A::StopMoving { player: ME },
            t => panic!("no control {t}"),
        })
    }

    /// What the coach said and did at one step: its words, the controls it named, its result,
    /// and the game when the step began and when it was done.
    struct Told {
        says: String,
        targets: Vec<String>,
        result: String,
        start: Box<EconomySession>,
        end: Box<EconomySession>,
    }

    /// Follows the coach from the start to the last step: its target, Next once a step is
    /// done, the computer's steps while it names nothing. What it told at each step, in order.
    fn follow(mut s: EconomySession) -> Result<Vec<Told>, String> {
        let steps = &STEPS;
        let mut l = Lesson::new(steps, &s);
        let mut out: Vec<Told> = vec![];
        let mut targets = vec![];
        for _ in 0..400 {
            if l.last(steps) {
                return Ok(out);
            }
            if let Some(r) = &l.result {
                out.push(Told {
                    says: (steps[l.step].says)(&l.start),
                    targets: std::mem::take(&mut targets),
                    result: r.clone(),
                    start: Box::new(l.start.clone()),
                    end: Box::new(s.clone()),
                });
                l.next(steps, &s);
                continue;
            }
            let target = (steps[l.step].target)(&s);
            let m = if target.is_empty() {
                if s.computer_to_act().is_none() {
                    return Err(format!("step {} ({}): stuck", l.step, steps[l.step].title));
                }
                EMsg::BotStep
            } else {
                targets.push(target.to_string());
                press(&s, target)
            };
            if gated(&m) && !l.gate(steps, &s, &m) {
                return Err(format!("step {}: {m:?} refused", l.step));
            }
            s.update(m.clone());
            settle(&mut s, &m);
            if s.ui.error.is_some() {
                return Err(format!("step {}: {m:?}: {:?}", l.step, s.ui.error));
            }
            l.observe(steps, &s);
        }
        Err(format!("step {} not done", l.step))
    }

    /// The facts the coach's fixed words take for granted, step by step (the numbers in its
    /// words are computed from the game): `Err` names the first that did not come true.
    fn story_fits(told: &[Told]) -> Result<(), String> {
        let fact = |ok: bool, what: &str| if ok { Ok(()) } else { Err(what.to_string()) };
        for (i, t) in told.iter().enumerate() {
            // Every control named was one the words name: Pass only where they say so, the
            // choice of whose action goes first only when announced.
            for x in &t.targets {
                if x.starts_with("#choose-") {
                    fact(
                        t.says.contains("whose"),
                        &format!("step {i}: unannounced {x}"),
                    )?;
                }
                if x == "#declare-none" {
                    fact(
                        t.says.contains("Roll once more"),
                        &format!("step {i}: Pass"),
                    )?;
                }
            }
        }
        let (s, e) = (|i: usize| &*told[i].start, |i: usize| &*told[i].end);
        fact(
            told[2].result.contains("Western Europe holds 13"),
            "the recruit",
        )?;
        fact(
            told[7].result.contains("Initiative") && holder(e(7)) == Some(ME),
            "initiative",
        )?;
        fact(holder(s(10)) == Some(ME), "still the initiative")?;
        let sites: Vec<Site> = e(7)
            .game
            .combat
            .as_ref()
            .map_or(vec![], |c| c.tokens.iter().copied().collect());
        fact(
            sites.contains(&at("ukraine")) && sites.contains(&at("southern_europe")),
            "two battles, Ukraine and Southern Europe",
        )?;
        fact(
            told[9].result.contains("neutral army is gone"),
            "Ukraine's battle won",
        )?;
        fact(
            told[11].result.contains("You lost this roll"),
            "the roll lost",
        )?;
        fact(
            last_roll(e(11)).contains("Red (you) loses"),
            "the roll lost, in the battle panel",
        )?;
        fact(mine_at(s(12), "western_europe") == 0, "the capital empty")?;
        fact(told[12].result.contains("withdraws"), "the withdraw")?;
        fact(
            told[13].result.starts_with("You captured Ukraine"),
            "Ukraine captured",
        )?;
        Ok(())
    }

    #[test]
    fn the_start_is_a_consistent_game() {
        let g = start();
        g.check_consistency().unwrap();
        assert_eq!(g.phase, Phase::Get);
        assert_eq!(g.get[ME as usize].owed[0].due, 2);
    }

    #[test]
    fn every_step_comes_true_in_order() {
        let told = follow(session()).unwrap_or_else(|e| panic!("{e}"));
        for (i, t) in told.iter().enumerate() {
            println!("{i} {:?}: {}", t.targets, t.result);
        }
        assert_eq!(told.len(), STEPS.len() - 1);
        story_fits(&told).unwrap_or_else(|e| panic!("the story does not fit: {e}"));
        // Short steps (issue 60): the coach's words and results for the whole round, as the
        // browser test counts them (each step's words once, its result once).
        let last = (STEPS[STEPS.len() - 1].says)(&told[told.len() - 1].end);
        let chars: usize = told
            .iter()
            .map(|t| t.says.chars().count() + t.result.chars().count())
            .sum::<usize>()
            + last.chars().count();
        println!("{chars} characters of coach text");
        // 2,116 in December 2026 (was 5,214 as the browser test counted it).
        assert!(chars <= 2_200, "{chars} characters of coach text");
    }

    /// Prints the seeds whose story fits the coach's words (run with --ignored --nocapture).
    #[test]
    #[ignore]
    fn find_seed() {
        for k in 0..=80u8 {
            let mut s = session();
            s.game = start_with(k);
            match follow(s).map(|t| story_fits(&t)) {
                Ok(Ok(())) => println!("seed {k} fits"),
                Ok(Err(e)) => println!("seed {k}: {e}"),
                Err(e) => println!("seed {k}: {e}"),
            }
        }
    }
}
