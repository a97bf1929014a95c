//! Computer players for the economy ruleset: `easy` here, a random legal action for whatever the
//! player has to do now; `normal` in [`normal`], a heuristic (income, upkeep, weak neighbours, a
//! guarded capital), with its expeditions at sea in [`navy`] and its rarer tools in [`tactics`];
//! and `hard` in [`hard`], `normal`'s rules with a roomier capital, a lighter guard on it, an
//! early navy when boxed in, and its money spent on finishing the game ([`finish`]).
//! Every candidate is checked by applying it to a copy of the state, so a bot never sends an
//! illegal action.
//!
//! Its randomness comes from a ChaCha stream seeded by the game seed, the action counter and the
//! seat, so every peer computes the same moves.

use super::pick;
use crate::codec::sha256;
use crate::dice::{Dice, SeededDice};
use crate::rules::classic::{BotLevel, PlayerId};
use crate::rules::economy::action::{EconomyAction as A, SetupAction};
use crate::rules::economy::battlefield::{BattleAction, Foe, WithdrawOrder};
use crate::rules::economy::infra::Item;
use crate::rules::economy::map::{EconomyMap, RegionId};
use crate::rules::economy::options::Setup;
use crate::rules::economy::phase::Phase;
use crate::rules::economy::setup::{START_ARMIES, START_BASES};
use crate::rules::economy::state::EconomyState;
use crate::rules::economy::units::{Allowance, Kind, PlannedMove};
use std::collections::BTreeMap;

mod finish;
mod hard;
mod navy;
mod normal;
mod reading;
mod tactics;

/// What seat `p`'s bot of `level` does now, if it has anything to do.
pub fn choose(s: &EconomyState, p: PlayerId, level: BotLevel) -> Option<A> {
    match level {
        BotLevel::Easy => easy(s, p),
        BotLevel::Normal => normal::normal(s, p),
        BotLevel::Hard => hard::hard(s, p),
    }
}

/// The actions the bot of `level` takes for its seats `seats` at one step, in turn, until the
/// step is over (the engine waits for other players than at the start, or the phase or round
/// moved on) or a die is to be rolled: online play sends a step's choices (the Get phase's
/// purchases, friendly moves) as one batch. Dice are stand-ins: the batch stops at the first
/// action that rolls, whose result the caller's real dice decide.
pub fn batch(s: &EconomyState, seats: &[PlayerId], level: BotLevel) -> Vec<A> {
    let mut draft = s.clone();
    let mut out = vec![];
    // A step takes at most a few dozen choices; the bound only stops a bot that repeats itself.
    for _ in 0..256 {
        let Some(&p) = draft.to_act().iter().find(|p| seats.contains(p)) else {
            break;
        };
        let Some(a) = choose(&draft, p, level) else {
            break;
        };
        let mut dice = SeededDice::new([0; 32]);
        if draft.apply_with(&a, &mut dice).is_err() {
            break;
        }
        out.push(a);
        if dice.position() > 0 || !s.same_step(&draft) {
            break;
        }
    }
    out
}

/// The bot's own random stream for seat `p`'s next decision.
fn bot_dice(s: &EconomyState, p: PlayerId) -> SeededDice {
    let mut input = Vec::with_capacity(48);
    input.extend_from_slice(&s.rng.seed());
    input.extend_from_slice(b"orbis-economy-bot");
    input.extend_from_slice(&s.steps.to_le_bytes());
    input.push(p);
    SeededDice::new(sha256(&input))
}

/// What seat `p`'s easy bot does now, if it has anything to do.
pub fn easy(s: &EconomyState, p: PlayerId) -> Option<A> {
    if !s.to_act().contains(&p) {
        return None;
    }
    let map = EconomyMap::get();
    let d = &mut bot_dice(s, p);
    let legal = |a: &A| s.clone().apply(a).is_ok();
    let action = match s.phase {
        Phase::Pick(_) => {
            let c = pick(d, &s.choices(map))?;
            let choice = match s.options.setup {
                Setup::Continents => SetupAction::Continent(c as u8),
                _ => SetupAction::Country(c as RegionId),
            };
            A::Setup { player: p, choice }
        }
        Phase::Place => place(s, p, d),
        Phase::Get => get(s, p, d, legal),
        Phase::Planning => {
            let moves = plans(s, map, p, d);
            let a = A::SubmitPlans { player: p, moves };
            if legal(&a) {
                a
            } else {
                A::SubmitPlans {
                    player: p,
                    moves: vec![],
                }
            }
        }
        Phase::Moving => {
            // Now and then a navy blockades a hostile navy base on its water.
            let candidates: Vec<(RegionId, RegionId)> = (0..map.regions.len() as RegionId)
                .filter(|&w| map.is_water(w) && s.units_of(p, w).navies > s.blockading(p, w))
                .flat_map(|w| map.regions[w as usize].shore.iter().map(move |&c| (c, w)))
                .collect();
            let a = pick(d, &candidates).map(|(country, water)| A::Blockade {
                player: p,
                country,
                water,
            });
            match a {
                Some(a) if d.below(2) == 0 && legal(&a) => a,
                _ => A::FinishMoving { player: p },
            }
        }
        Phase::Combat => combat(s, p, d)?,
        Phase::Over => return None,
    };
    Some(action)
}

fn countries(s: &EconomyState, map: &EconomyMap, p: PlayerId) -> Vec<RegionId> {
    s.owned(p).filter(|&r| !map.is_water(r)).collect()
}

fn place(s: &EconomyState, p: PlayerId, d: &mut dyn Dice) -> A {
    let map = EconomyMap::get();
    let mine = countries(s, map, p);
    let capital = if s.options.capitals {
        pick(d, &mine)
    } else {
        None
    };
    let bases = if s.options.bases {
        (0..START_BASES).filter_map(|_| pick(d, &mine)).collect()
    } else {
        vec![]
    };
    let mut armies: BTreeMap<RegionId, u32> = BTreeMap::new();
    for _ in 0..START_ARMIES {
        if let Some(c) = pick(d, &mine) {
            *armies.entry(c).or_default() += 1;
        }
    }
    A::Setup {
        player: p,
        choice: SetupAction::Place {
            capital,
            bases,
            armies: armies.into_iter().collect(),
        },
    }
}

fn get(s: &EconomyState, p: PlayerId, d: &mut dyn Dice, legal: impl Fn(&A) -> bool) -> A {
    let map = EconomyMap::get();
    if !s.get[p as usize].settled {
        return A::SettleUpkeep {
            player: p,
            losses: s.plain_settlement(p),
        };
    }
    let finish = A::FinishGet { player: p };
    if d.below(3) == 0 {
        return finish;
    }
    let mine = countries(s, map, p);
    for _ in 0..10 {
        let Some(c) = pick(d, &mine) else { break };
        let coasts = &map.regions[c as usize].shore;
        let a = match d.below(4) {
            0 => A::Recruit {
                player: p,
                country: c,
                navy_into: None,
                count: 1 + d.below(3),
            },
            1 => A::Recruit {
                player: p,
                country: c,
                navy_into: pick(d, coasts),
                count: 1,
            },
            2 => {
                let items = [
                    Item::Roads,
                    Item::Fortifications,
                    Item::Canal,
                    Item::ArmyBase,
                    Item::Capital,
                ];
                let mut item = pick(d, &items).unwrap_or(Item::Roads);
                if let (Some(w), true) = (pick(d, coasts), d.below(4) == 0) {
                    item = Item::NavyBase { water: w };
                }
                A::Build {
                    player: p,
                    country: c,
                    item,
                }
            }
            _ => {
                let cards = &s.players[p as usize].cards;
                if cards.len() < 3 {
                    continue;
                }
                A::TradeCards {
                    player: p,
                    cards: [cards[0], cards[1], cards[2]],
                }
            }
        };
        if legal(&a) {
            return a;
        }
    }
    finish
}

fn plans(s: &EconomyState, map: &EconomyMap, p: PlayerId, d: &mut dyn Dice) -> Vec<PlannedMove> {
    let mut moves = vec![];
    for from in 0..map.regions.len() as RegionId {
        let here = s.units_of(p, from);
        if here.units() == 0 || s.contested(from) || d.below(2) == 0 {
            continue;
        }
        let (kind, n) = if here.armies > 0 && (here.navies == 0 || d.below(2) == 0) {
            (Kind::Army, here.armies)
        } else {
            (Kind::Navy, here.navies)
        };
        let from_friendly = s.passable(p, from);
        let targets: Vec<RegionId> = s
            .reach(map, p, kind, from, Allowance::FRESH, |r| s.passable(p, r))
            .into_iter()
            .map(|(r, _)| r)
            .filter(|&r| !(from_friendly && s.passable(p, r)))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let Some(to) = pick(d, &targets) else {
            continue;
        };
        let count = 1 + d.below(n);
        let (armies, navies) = match kind {
            Kind::Army => (count, 0),
            Kind::Navy => (0, count),
        };
        moves.push(PlannedMove {
            from,
            to,
            armies,
            navies,
        });
    }
    moves
}

fn combat(s: &EconomyState, p: PlayerId, d: &mut dyn Dice) -> Option<A> {
    let c = s.combat.as_ref()?;
    if c.cards_dealt {
        return Some(A::StealCard {
            player: p,
            from: pick(d, &s.steal_victims(p))?,
        });
    }
    let pending = c.battle.as_ref().is_some_and(|b| b.pending.is_some());
    let cards = &s.players[p as usize].cards;
    if !pending && !cards.is_empty() && d.below(10) == 0 {
        let country = pick(d, cards)?;
        let site = crate::rules::economy::battlefield::Site::Region(country);
        let foes: Vec<Foe> = (0..s.players.len() as PlayerId)
            .filter(|&q| !s.friends(p, q))
            .map(Foe::Player)
            .chain([Foe::Neutral])
            .filter(|&f| s.site_force(site, f).armies > 0)
            .collect();
        return Some(A::IncitRevolution {
            player: p,
            country,
            target: pick(d, &foes),
        });
    }
    let map = EconomyMap::get();
    let Some(b) = &c.battle else {
        if c.tokens.is_empty() {
            // Move on after the battles, or stop.
            let from = pick(d, &s.movable(map, p));
            let moves = from.map(|f| (f, s.onward_options(map, p, f)));
            return Some(match moves {
                Some((from, options)) if d.below(2) == 0 && !options.is_empty() => {
                    let (to, force) = pick(d, &options)?;
                    A::MoveOn {
                        player: p,
                        from,
                        to,
                        force,
                    }
                }
                _ => A::StopMoving { player: p },
            });
        }
        let tokens: Vec<_> = c.tokens.iter().copied().collect();
        return Some(A::PickBattle {
            player: p,
            site: pick(d, &tokens)?,
        });
    };
    if b.pending.is_some() {
        return Some(A::Intercept {
            player: p,
            yes: d.below(2) == 0,
        });
    }
    if s.waiting_for_choice() {
        let actors: Vec<PlayerId> = b
            .declared
            .iter()
            .filter(|(_, a)| a.is_some())
            .map(|(&q, _)| q)
            .collect();
        return Some(A::ChooseAction {
            player: p,
            actor: pick(d, &actors)?,
        });
    }
    let mut options: Vec<Option<BattleAction>> = s
        .possible_actions(b.site, p)
        .into_iter()
        .map(Some)
        .collect();
    if let Some((to, force)) = pick(d, &s.withdraw_options(map, b.site, p)) {
        // Now and then the easy bot stays after the interception, or breaks off after a loss.
        let battle = s.combat.as_ref().and_then(|c| c.battle.as_ref());
        let stay = !battle.is_some_and(|b| b.stayed.contains(&p)) && d.below(4) == 0;
        options.push(Some(BattleAction::Withdraw(WithdrawOrder {
            burn_roads: !stay && d.below(2) == 0,
            stay,
            break_off: (d.below(4) == 0).then_some(1),
            ..WithdrawOrder::to(to, force)
        })));
    }
    if let Some((to, armies)) = pick(d, &s.landing_options(map, b.site, p)) {
        let navies_engaged = s.site_force(b.site, Foe::Player(p)).navies > 0 && d.below(2) == 0;
        options.push(Some(BattleAction::Land {
            armies: 1 + d.below(armies),
            to,
            navies_engaged,
        }));
    }
    if let Some(target) = pick(d, &s.siege_targets(b.site, p)) {
        options.push(Some(BattleAction::Siege { target }));
    }
    if let Some(item) = pick(d, &s.infrastructure_targets(b.site, p)) {
        options.push(Some(BattleAction::AttackInfrastructure { item }));
    }
    options.push(None);
    Some(A::Declare {
        player: p,
        action: pick(d, &options)?,
    })
}
