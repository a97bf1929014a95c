//! Revolutions incited by influence cards (source 004, "Influence Cards"): "At any point during the
//! combat phase you can turn in one influence card to incite a revolution in the country pictured
//! on the influence card. The revolutionary units created are entirely under your control." Two
//! armies of the player appear there; each takes one roll against a foe there without risk of
//! death; then a battle token lies there and combat goes on.
//!
//! Invariant: the card goes to the discard pile; the two armies are the player's own from then on.

use super::action::EconomyEvent;
use super::battlefield::{Arrival, Foe, Site};
use super::combat::REVOLUTIONARIES;
use super::error::{EconomyError, Events, Rule};
use super::map::{EconomyMap, RegionId};
use super::phase::Phase;
use super::roll::{self, Loser, Side};
use super::state::EconomyState;
use super::units::{Allowance, Force, Kind};
use crate::dice::Dice;
use crate::rules::classic::PlayerId;

impl EconomyState {
    /// `p` turns in the card of `country` for a revolution there; the revolutionaries' two
    /// surprise rolls go against `target`'s armies, if it has any there.
    pub(super) fn incite(
        &mut self,
        map: &EconomyMap,
        p: PlayerId,
        country: RegionId,
        target: Option<Foe>,
        dice: &mut dyn Dice,
    ) -> Events {
        if !self.options.influence_cards {
            return Err(EconomyError::RuleOff(Rule::InfluenceCards));
        }
        if self.phase != Phase::Combat {
            return Err(EconomyError::WrongPhase(self.phase));
        }
        if self.interception_underway() {
            return Err(EconomyError::InterceptionUnderway);
        }
        if !self.players[p as usize].cards.contains(&country) {
            return Err(self.card_missing(p, country));
        }
        let site = Site::Region(country);
        if let Some(foe) = target {
            let hostile = match foe {
                Foe::Player(q) => !self.friends(p, q),
                Foe::Neutral => true,
            };
            if !hostile || self.site_force(site, foe).armies == 0 {
                return Err(EconomyError::ActionNotPossible);
            }
        }
        let me = &mut self.players[p as usize];
        me.cards.retain(|&c| c != country);
        self.discard.push(country);
        let rebels = Force {
            armies: REVOLUTIONARIES,
            navies: 0,
        };
        self.add_units(p, country, rebels);
        self.combat_mut().arrivals.push(Arrival {
            player: p,
            region: country,
            from: country,
            force: rebels,
            left: Allowance {
                thirds: 0,
                road: false,
            },
            amphibious: false,
            withdrawn: false,
        });
        let mut events = vec![EconomyEvent::RevolutionIncited { player: p, country }];
        // Each revolutionary unit takes one roll, at no risk to itself.
        for _ in 0..REVOLUTIONARIES {
            let Some(foe) = target.filter(|&f| self.site_force(site, f).armies > 0) else {
                break;
            };
            let mine = self.site_force(site, Foe::Player(p)).units();
            let theirs = self.site_force(site, foe).units();
            let (unit, defender) = match foe {
                Foe::Player(q) => self.pick_target(site, q, Kind::Army),
                Foe::Neutral => (super::battlefield::Unit::Defender, true),
            };
            let fortified = defender
                && match foe {
                    Foe::Player(q) => self.fortified_for(q, country),
                    Foe::Neutral => self.fortified(country),
                };
            let a = Side::plain(dice.d6(), mine);
            let d = Side {
                defender,
                fortified,
                ..Side::plain(dice.d6(), theirs)
            };
            let loser = roll::resolve(&a, &d);
            let hit = matches!(loser, Loser::Second | Loser::Both);
            if hit {
                match foe {
                    Foe::Player(q) => self.take_unit(site, q, Kind::Army, unit),
                    Foe::Neutral => {
                        let x = &mut self.regions[country as usize];
                        x.neutral.minus_one(Kind::Army);
                    }
                }
            }
            // The rolls count for the battle in this country only ("Once those actions are
            // taken place a battle token at that location"), never for one under way elsewhere.
            let mut pairs = vec![(p, foe)];
            if let Foe::Player(q) = foe {
                pairs.push((q, Foe::Player(p)));
            }
            let c = self.combat_mut();
            match c.battle.as_mut().filter(|b| b.site == site) {
                Some(b) => b.fought.extend(pairs),
                None => c.fought_before.entry(country).or_default().extend(pairs),
            }
            events.push(EconomyEvent::IncitedRoll {
                player: p,
                country,
                target: foe,
                dice: (a.die, d.die),
                hit,
            });
        }
        self.combat_mut().tokens.insert(site);
        // A battle under way there starts a new round of declarations with the newcomers.
        if let Some(b) = self.combat_mut().battle.as_mut() {
            if b.site == site {
                b.declared.clear();
            }
        }
        if self.combat.as_ref().is_some_and(|c| c.battle.is_some()) {
            self.after_declarations(map, dice, &mut events);
        } else {
            self.lift_idle_tokens(map, dice, &mut events);
        }
        Ok(events)
    }
}

#[cfg(test)]
mod tests;
