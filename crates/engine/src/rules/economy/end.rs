//! How an economy game ends. The source has no victory condition; Orbis provides two (RULES.md):
//! the last player standing wins, and with a round limit the game stops after that many rounds
//! and the best score wins.
//!
//! Invariant: once the phase is `Over` no action applies, and `winner` names a player still
//! playing (or nobody, when no player is left).

use super::action::EconomyEvent;
use super::map::{EconomyMap, RegionId};
use super::phase::Phase;
use super::state::{EconomyState, Standing};
use crate::rules::classic::PlayerId;
use serde::{Deserialize, Serialize};

/// What ranks players when the round limit ends a game: income first, then money, then units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Score {
    /// MU the player's territories bring each round.
    pub income: u32,
    pub mu: u32,
    pub units: u32,
}

impl EconomyState {
    /// `p`'s score now.
    pub fn score(&self, map: &EconomyMap, p: PlayerId) -> Score {
        Score {
            income: self.income(map, p).total(),
            mu: self.players[p as usize].mu,
            units: self.units_in_territories(p),
        }
    }

    /// `p`'s units standing in territories (land and water).
    fn units_in_territories(&self, p: PlayerId) -> u32 {
        self.regions
            .iter()
            .filter_map(|x| x.forces.get(&p))
            .map(|f| f.units())
            .sum()
    }

    /// All of `p`'s units: in territories and, during combat, on the borders they are
    /// fighting across (which no territory counts).
    pub fn units_in_play(&self, p: PlayerId) -> u32 {
        let on_borders: u32 = self
            .combat
            .iter()
            .flat_map(|c| &c.border)
            .filter(|g| g.player == p)
            .map(|g| g.force.units())
            .sum();
        self.units_in_territories(p) + on_borders
    }

    /// True while a withdraw, landing or attack on infrastructure waits for the interceptors'
    /// answers (nothing else may be declared or incited then).
    pub fn interception_underway(&self) -> bool {
        self.combat
            .as_ref()
            .and_then(|c| c.battle.as_ref())
            .is_some_and(|b| b.pending.is_some())
    }

    /// True when `p` has neither a unit nor a country left. Empty water it was the last to
    /// occupy brings no income and holds nothing: it does not keep a player in the game.
    fn wiped_out(&self, map: &EconomyMap, p: PlayerId) -> bool {
        self.regions.iter().enumerate().all(|(r, x)| {
            !x.forces.contains_key(&p) && (x.owner != Some(p) || map.is_water(r as RegionId))
        })
    }

    /// As a round begins: players with nothing left are eliminated, and the game ends when at
    /// most one player is left or the round limit has passed. True when it is over.
    pub(super) fn check_end(&mut self, map: &EconomyMap, events: &mut Vec<EconomyEvent>) -> bool {
        for p in 0..self.players.len() as PlayerId {
            if self.players[p as usize].standing == Standing::Playing && self.wiped_out(map, p) {
                self.players[p as usize].standing = Standing::Eliminated;
                events.push(EconomyEvent::Eliminated { player: p });
            }
        }
        let playing: Vec<PlayerId> = self.playing().collect();
        let winner = match playing.as_slice() {
            [] => None,
            [p] => Some(*p),
            _ => match self.options.round_limit {
                Some(limit) if self.round > limit => playing
                    .iter()
                    .copied()
                    .max_by_key(|&p| (self.score(map, p), std::cmp::Reverse(p))),
                _ => return false,
            },
        };
        self.phase = Phase::Over;
        self.winner = winner;
        events.push(EconomyEvent::GameOver { winner });
        true
    }

    /// Regions `p` owns.
    pub fn owned(&self, p: PlayerId) -> impl Iterator<Item = RegionId> + '_ {
        (0..self.regions.len() as RegionId)
            .filter(move |&r| self.regions[r as usize].owner == Some(p))
    }
}

#[cfg(test)]
mod tests {
    use super::super::action::EconomyAction as A;
    use super::super::battlefield::Site;
    use super::super::battlefield::{BattleAction, Foe};
    use super::super::combat::tests::{act, game, mv, r, to_combat};
    use super::super::units::Kind;
    use super::*;

    #[test]
    fn the_last_player_standing_wins() {
        let mut s = game(&["Ann", "Bob"]);
        // Ann takes Northern Europe, Bob's only country, destroying his three armies.
        to_combat(
            &mut s,
            vec![vec![mv("western_europe", "northern_europe", 5, 0)], vec![]],
            vec![6, 1],
        );
        let ne = Site::Region(r("northern_europe"));
        act(
            &mut s,
            A::PickBattle {
                player: 0,
                site: ne,
            },
            vec![],
        )
        .unwrap();
        act(
            &mut s,
            A::Declare {
                player: 1,
                action: None,
            },
            vec![],
        )
        .unwrap();
        let ev = act(
            &mut s,
            A::Declare {
                player: 0,
                action: Some(BattleAction::Attack {
                    target: Foe::Player(1),
                    kind: Kind::Army,
                }),
            },
            vec![6, 1, 6, 1, 6, 1],
        )
        .unwrap();
        assert!(ev.contains(&EconomyEvent::Eliminated { player: 1 }));
        assert!(ev.contains(&EconomyEvent::GameOver { winner: Some(0) }));
        assert_eq!(s.phase, Phase::Over);
        assert_eq!(s.winner, Some(0));
        assert_eq!(s.players[1].standing, Standing::Eliminated);
        assert_eq!(
            s.apply(&A::FinishGet { player: 0 }),
            Err(super::super::error::EconomyError::WrongPhase(Phase::Over))
        );
    }

    #[test]
    fn a_round_limit_ends_the_game_on_the_best_score() {
        let mut s = game(&["Ann", "Bob"]);
        s.options.round_limit = Some(1);
        // Nobody moves: round 2 would begin, so the game ends. Ann and Bob each own one country
        // (income 1 + 1 road for Bob); Bob wins on income.
        s.regions[r("northern_europe") as usize].infra.roads = true;
        let ev = to_combat(&mut s, vec![vec![], vec![]], vec![6, 1]);
        assert!(ev.contains(&EconomyEvent::GameOver { winner: Some(1) }));
        assert_eq!(
            s.score(EconomyMap::get(), 1),
            Score {
                income: 2,
                mu: 10,
                units: 3
            }
        );
    }
}
