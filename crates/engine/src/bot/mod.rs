//! Computer opponents: the classic ruleset's here (`easy`, `normal`, `hard`), the orders
//! ruleset's in [`orders`], the economy's in [`economy`].
//!
//! A bot picks one action at a time from the state alone. Its randomness comes from a ChaCha
//! stream seeded by the game seed and the action counter, so every peer that runs the same game
//! computes the same bot moves.

use crate::codec::sha256;
use crate::dice::{Dice, SeededDice};
use crate::map::TerritoryId;
use crate::odds::win_chance;
use crate::rules::classic::{Action, BotLevel, ClassicState, FortifyRule, Owner, Phase, PlayerId};

#[cfg(feature = "economy")]
pub mod economy;
mod hard;
pub mod orders;
mod plan;

/// The bot's own random stream for the current decision.
fn bot_dice(s: &ClassicState) -> SeededDice {
    let mut seed_input = Vec::with_capacity(48);
    seed_input.extend_from_slice(&s.rng.seed());
    seed_input.extend_from_slice(b"orbis-bot");
    seed_input.extend_from_slice(&s.step.to_le_bytes());
    SeededDice::new(sha256(&seed_input))
}

fn pick<T: Copy>(d: &mut dyn Dice, items: &[T]) -> Option<T> {
    (!items.is_empty()).then(|| items[d.below(items.len() as u32) as usize])
}

/// The action the current player's bot takes now. `None` only when the game is over.
pub fn choose(s: &ClassicState, level: BotLevel) -> Option<Action> {
    if matches!(s.phase, Phase::GameOver { .. }) {
        return None;
    }
    let mut d = bot_dice(s);
    Some(match level {
        BotLevel::Easy => easy(s, &mut d),
        BotLevel::Normal => normal(s, &mut d),
        BotLevel::Hard => hard::hard(s, &mut d),
    })
}

fn me(s: &ClassicState) -> PlayerId {
    s.current
}

fn mine(s: &ClassicState) -> Vec<TerritoryId> {
    s.territories_of(me(s)).collect()
}

fn unclaimed(s: &ClassicState) -> Vec<TerritoryId> {
    s.map()
        .ids()
        .filter(|&t| s.owner[t as usize] == Owner::Unclaimed)
        .collect()
}

fn attacks(s: &ClassicState) -> Vec<(TerritoryId, TerritoryId)> {
    mine(s)
        .into_iter()
        .flat_map(|f| s.attack_targets(f).into_iter().map(move |t| (f, t)))
        .collect()
}

fn is_border(s: &ClassicState, t: TerritoryId) -> bool {
    let o = s.owner[t as usize];
    s.map().territories[t as usize]
        .adjacent
        .iter()
        .any(|&n| s.owner[n as usize] != o)
}

fn occupy_range(s: &ClassicState) -> Option<(TerritoryId, TerritoryId, u32, u32)> {
    match s.phase {
        Phase::Occupy { from, to, moved } => {
            Some((from, to, moved, moved + s.armies[from as usize] - 1))
        }
        _ => None,
    }
}

/// Moves every army it may into the conquest while it faces enemies, the fewest otherwise.
fn push_on(s: &ClassicState) -> Action {
    let (_, to, lo, hi) = occupy_range(s).expect("occupy phase");
    Action::Occupy {
        armies: if is_border(s, to) { hi } else { lo },
    }
}

/// Attacks `from → to` with every die allowed, or ends the attacks when there is no choice.
fn attack_or_end(s: &ClassicState, choice: Option<(TerritoryId, TerritoryId)>) -> Action {
    match choice {
        Some((from, to)) => Action::Attack {
            from,
            to,
            dice: s.max_attack_dice(from),
        },
        None => Action::EndAttack,
    }
}

fn reinforce_left(s: &ClassicState) -> Option<u32> {
    match s.phase {
        Phase::Reinforce { armies } => Some(armies),
        _ => None,
    }
}

/// Mostly random legal play that attacks only with the odds on its side, so games finish.
fn easy(s: &ClassicState, d: &mut dyn Dice) -> Action {
    let p = me(s);
    match s.phase {
        Phase::Claim => Action::Claim {
            territory: pick(d, &unclaimed(s)).unwrap_or(0),
        },
        Phase::SetupPlace => Action::Place {
            territory: pick(d, &mine(s)).unwrap_or(0),
            armies: 1,
        },
        Phase::Reinforce { armies } => {
            let sets = s.sets_in_hand(p);
            let hand = s.cards_held(p);
            if !sets.is_empty() && (hand >= 5 || armies == 0 || d.below(2) == 0) {
                return Action::Trade { cards: sets[0] };
            }
            // A random share on a random border territory: no plan, armies spread thin.
            let borders: Vec<_> = mine(s).into_iter().filter(|&t| is_border(s, t)).collect();
            let t = pick(d, &borders).or_else(|| pick(d, &mine(s))).unwrap_or(0);
            Action::Place {
                territory: t,
                armies: 1 + d.below(armies),
            }
        }
        Phase::Attack => {
            // Attacks where the odds favour it (the exact odds of fighting the battle to the
            // end), picked at random among those (one roll per action, so a big battle takes
            // many: no random stop here), and ends its attacks when none is left. Beginner-
            // friendly (no plan, no continent or card sense), but its games end.
            let favoured: Vec<_> = attacks(s)
                .into_iter()
                .filter(|&(from, to)| {
                    let a = s.armies[from as usize] - 1;
                    let dfn = s.armies[to as usize];
                    win_chance(a, dfn, s.defence_rule(to)) > 0.5
                })
                .collect();
            attack_or_end(s, pick(d, &favoured))
        }
        // The heap follows its conquest while the new territory faces enemies.
        Phase::Occupy { .. } => push_on(s),
        Phase::Fortify => {
            if s.turn_state.fortify_source.is_some() || d.below(2) == 0 {
                return Action::EndTurn;
            }
            let sources: Vec<_> = mine(s)
                .into_iter()
                .filter(|&t| !s.fortify_targets(t).is_empty())
                .collect();
            match pick(d, &sources) {
                Some(from) => {
                    let to = pick(d, &s.fortify_targets(from)).expect("non-empty");
                    Action::Fortify {
                        from,
                        to,
                        armies: 1 + d.below(s.movable(from)),
                    }
                }
                None => Action::EndTurn,
            }
        }
        Phase::GameOver { .. } => Action::EndTurn,
    }
}

/// How much `p` wants territory `t`: continents it nearly holds, small continents, and
/// breaking an opponent's continent.
fn desire(s: &ClassicState, p: PlayerId, t: TerritoryId) -> i64 {
    let map = s.map();
    let c = map.territories[t as usize].continent as usize;
    let cont = &map.continents[c];
    let size = cont.territories.len() as i64;
    let owned = cont
        .territories
        .iter()
        .filter(|&&x| s.owner[x as usize] == Owner::Player(p))
        .count() as i64;
    let mut score = 100 * owned / size + 30 * i64::from(cont.bonus) / size;
    if let Owner::Player(q) = s.owner[t as usize] {
        if q != p && s.owns_continent(q, c) {
            score += 60;
        }
        // Finishing off a weak player takes their cards.
        if s.territory_count(q) <= 2 {
            score += 40;
        }
    }
    score
}

/// Enemy armies adjacent to `t`.
fn threat(s: &ClassicState, t: TerritoryId) -> u32 {
    let o = s.owner[t as usize];
    s.map().territories[t as usize]
        .adjacent
        .iter()
        .filter(|&&n| s.owner[n as usize] != o)
        .map(|&n| s.armies[n as usize])
        .sum()
}

fn best_by<T: Copy>(items: &[T], mut key: impl FnMut(T) -> i64) -> Option<T> {
    let mut best: Option<(i64, T)> = None;
    for &x in items {
        let k = key(x);
        if best.is_none_or(|(b, _)| k > b) {
            best = Some((k, x));
        }
    }
    best.map(|(_, x)| x)
}

/// The set `p` trades now, if it holds one: whenever a set is available (set values only grow,
/// and armies now beat armies later), the one with most of its own territories and fewest wilds.
fn trade(s: &ClassicState, p: PlayerId) -> Option<Action> {
    let sets = s.sets_in_hand(p);
    let set = best_by(&sets, |set| {
        set.iter()
            .filter(|&&c| {
                s.card_territory(c)
                    .is_some_and(|t| s.owner[t as usize] == Owner::Player(p))
            })
            .count() as i64
            - set
                .iter()
                .filter(|&&c| s.card_territory(c).is_none())
                .count() as i64
                * 2
    })?;
    Some(Action::Trade { cards: set })
}

/// Planned play: reinforcements where the best chain of conquests starts, attacks along it at
/// exact odds (see [`plan`]), the stack moving on with each conquest, sensible trades.
fn normal(s: &ClassicState, d: &mut dyn Dice) -> Action {
    planned(s, d, plan::NORMAL)
}

/// `normal`'s play with the chain weights `w`.
fn planned(s: &ClassicState, d: &mut dyn Dice, w: plan::Weights) -> Action {
    let p = me(s);
    match s.phase {
        Phase::Claim => {
            let opts = unclaimed(s);
            let t = best_by(&opts, |t| {
                let adj_own = s.map().territories[t as usize]
                    .adjacent
                    .iter()
                    .filter(|&&n| s.owner[n as usize] == Owner::Player(p))
                    .count() as i64;
                desire(s, p, t) * 4 + adj_own * 10 + i64::from(d.below(8))
            });
            Action::Claim {
                territory: t.unwrap_or(0),
            }
        }
        Phase::SetupPlace | Phase::Reinforce { .. } => {
            if let Some(left) = reinforce_left(s) {
                if let Some(trade) = trade(s, p) {
                    return trade;
                }
                if left == 0 {
                    return Action::EndAttack; // unreachable in practice: Reinforce{0} always holds a set
                }
            }
            let own = mine(s);
            let borders: Vec<_> = own.iter().copied().filter(|&t| is_border(s, t)).collect();
            let cands = if borders.is_empty() {
                own.clone()
            } else {
                borders
            };
            // Where the best chain of conquests starts (with these armies on it), or else
            // where an attack pays most.
            let launch = match reinforce_left(s) {
                Some(left) if s.phase != Phase::SetupPlace => plan::best_path(s, w, p, left),
                _ => None,
            };
            let t = launch
                .map(|x| x.launch)
                .or_else(|| {
                    best_by(&cands, |t| {
                        // Where an attack pays: the most wanted weak neighbour, next to armies of ours.
                        let strike = s.map().territories[t as usize]
                            .adjacent
                            .iter()
                            .filter(|&&n| s.owner[n as usize] != Owner::Player(p))
                            .map(|&n| desire(s, p, n) * 2 - 3 * i64::from(s.armies[n as usize]))
                            .max()
                            .unwrap_or(0);
                        strike + i64::from(s.armies[t as usize])
                    })
                })
                .unwrap_or(0);
            let armies = reinforce_left(s).unwrap_or(1);
            Action::Place {
                territory: t,
                armies: if s.phase == Phase::SetupPlace {
                    1
                } else {
                    armies
                },
            }
        }
        Phase::Attack => {
            // The first battle of the best chain of conquests; once the turn's card is earned,
            // only a chain worth going on for.
            attack_or_end(s, plan::next_attack(s, w, p))
        }
        // The whole stack moves on while the conquest faces enemies: a chain goes on from there
        // (leaving armies behind to guard what it came from measured worse: 87 % against 85 %).
        Phase::Occupy { .. } => push_on(s),
        Phase::Fortify => {
            if s.turn_state.fortify_source.is_some()
                && s.options.fortify != FortifyRule::OneToOneAdjacent
            {
                return Action::EndTurn;
            }
            // Move the largest idle interior stack towards the most threatened border it can reach.
            let interior: Vec<_> = mine(s)
                .into_iter()
                .filter(|&t| !is_border(s, t) && s.movable(t) > 0)
                .collect();
            let Some(from) = best_by(&interior, |t| i64::from(s.movable(t))) else {
                return Action::EndTurn;
            };
            let targets = s.fortify_targets(from);
            let border_targets: Vec<_> = targets
                .iter()
                .copied()
                .filter(|&t| is_border(s, t))
                .collect();
            let pool = if border_targets.is_empty() {
                targets
            } else {
                border_targets
            };
            match best_by(&pool, |t| {
                i64::from(threat(s, t)) - i64::from(s.armies[t as usize])
            }) {
                Some(to) => Action::Fortify {
                    from,
                    to,
                    armies: s.movable(from),
                },
                None => Action::EndTurn,
            }
        }
        Phase::GameOver { .. } => Action::EndTurn,
    }
}
