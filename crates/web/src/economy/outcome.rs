//! What just happened in the battle on screen (issue 60: "the siege's result screen looks
//! unchanged"): the last step's rolls, siege, attack on a building, withdraw or landing in
//! words, and the units each side has lost in this battle so far. Both are read from the
//! engine's events as they are logged; nothing here decides anything.

use crate::economy::text;
use orbis_engine::rules::classic::PlayerId;
use orbis_engine::rules::economy::action::EconomyEvent as E;
use orbis_engine::rules::economy::battlefield::{Foe, Site};
use orbis_engine::rules::economy::roll::Loser;
use orbis_engine::rules::economy::state::EconomyState;
use serde::{Deserialize, Serialize};

/// The units each side has lost in one battle, counted from its roll events (UI state).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Losses {
    /// The round and the battle counted.
    pub at: Option<(u32, Site)>,
    pub lost: Vec<(Foe, u32)>,
}

impl Losses {
    fn add(&mut self, f: Foe, n: u32) {
        match self.lost.iter_mut().find(|(x, _)| *x == f) {
            Some((_, m)) => *m += n,
            None => self.lost.push((f, n)),
        }
    }

    /// What `f` has lost in the battle at `site` this round, when anyone there has lost a unit
    /// (`None` before the first loss: "lost 0" beside every name would say nothing).
    pub fn of(&self, round: u32, site: Site, f: Foe) -> Option<u32> {
        (self.at == Some((round, site)) && self.lost.iter().any(|&(_, n)| n > 0)).then(|| {
            self.lost
                .iter()
                .find(|(x, _)| *x == f)
                .map_or(0, |&(_, n)| n)
        })
    }
}

/// Reads one action's events: the battle's loss count, and the line that says what it did to
/// the battle (`None` when it did nothing there: the panel keeps the line before).
pub fn record(g: &EconomyState, losses: &mut Losses, events: &[E]) -> Option<String> {
    let mut lines = vec![];
    for e in events {
        match *e {
            E::BattlePicked { site } => {
                *losses = Losses {
                    at: Some((g.round, site)),
                    lost: vec![],
                };
                continue;
            }
            E::BattleRoll {
                attacker,
                target,
                loser,
                ..
            } => {
                let a = Foe::Player(attacker);
                match loser {
                    Loser::First => losses.add(a, 1),
                    Loser::Second => losses.add(target, 1),
                    Loser::Both => {
                        losses.add(a, 1);
                        losses.add(target, 1);
                    }
                }
            }
            E::InterceptRoll {
                player,
                interceptor,
                loser,
                interceptor_lost,
                ..
            } => {
                let (p, q): (PlayerId, PlayerId) = (player, interceptor);
                if matches!(loser, Loser::First | Loser::Both) {
                    losses.add(Foe::Player(p), 1);
                }
                if interceptor_lost && matches!(loser, Loser::Second | Loser::Both) {
                    losses.add(Foe::Player(q), 1);
                }
            }
            E::InfrastructureRoll { .. }
            | E::SiegeLaid { .. }
            | E::Withdrew { .. }
            | E::Landed { .. } => {}
            _ => continue,
        }
        if let Some(line) = text::event(g, e) {
            lines.push(line);
        }
    }
    (!lines.is_empty()).then(|| lines.join(" "))
}
