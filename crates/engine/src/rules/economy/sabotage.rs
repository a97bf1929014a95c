//! Attacks on infrastructure (source 004, "attacking infrastructure action"): an army in a battle
//! attacks a piece of infrastructure where it stands. Hostile players may intercept it: one roll
//! each, the attacking unit at −1, dying if it loses. A survivor rolls a die and destroys the
//! piece on a 6. Capitals cannot be attacked; against defenders in fortifications only the
//! fortifications can, and the interceptors keep their defender status and bonus. Defenders
//! destroying their own infrastructure in the presence of enemies roll as defenders and, if
//! they survive, destroy it without a roll.
//!
//! Invariant: a piece is removed only when it stood there, and only by this action's outcome.

use super::action::EconomyEvent;
use super::battlefield::{Foe, Site, Unit};
use super::infra::Item;
use super::roll::{Loser, Side};
use super::state::EconomyState;
use super::units::Kind;
use crate::dice::Dice;
use crate::rules::classic::PlayerId;

impl EconomyState {
    /// The pieces of infrastructure `p` may attack in the battle at `site`.
    pub fn infrastructure_targets(&self, site: Site, p: PlayerId) -> Vec<Item> {
        let Site::Region(r) = site else { return vec![] };
        // Between two rolls of an attack only attacks and withdraws are declared.
        if self.assault(site).is_some() {
            return vec![];
        }
        if self.site_force(site, Foe::Player(p)).armies == 0 || !self.hostile_present(site, p) {
            return vec![];
        }
        let mut items = self.regions[r as usize].infra.items();
        // Against defenders in fortifications only the fortifications can be attacked.
        let fortified_foe = self.fortified(r)
            && (0..self.players.len() as PlayerId)
                .any(|q| !self.friends(p, q) && self.defenders(q, r).units() > 0);
        if fortified_foe {
            items.retain(|&i| i == Item::Fortifications);
        }
        items
    }

    /// True when `p` is destroying their own `item` with a defender (a country lost while its
    /// fortifications are held keeps all but its roads theirs).
    fn own_by_defender(&self, site: Site, p: PlayerId, item: Item) -> bool {
        let Site::Region(r) = site else { return false };
        let x = &self.regions[r as usize];
        let theirs = if item == Item::Roads {
            x.owner == Some(p)
        } else {
            self.infrastructure_holder(r) == Some(p)
        };
        theirs && self.defenders(p, r).armies > 0
    }

    /// Carries out an attack on `item` by one of `p`'s armies, after the interceptors answered.
    pub(super) fn finish_infrastructure_attack(
        &mut self,
        site: Site,
        p: PlayerId,
        item: Item,
        interceptors: &[PlayerId],
        dice: &mut dyn Dice,
        events: &mut Vec<EconomyEvent>,
    ) {
        let Site::Region(r) = site else { return };
        let own = self.own_by_defender(site, p, item);
        let unit = if own {
            Unit::Defender
        } else {
            self.pick_attacker(site, p, Kind::Army).0
        };
        let mut alive = true;
        for &q in interceptors {
            if self.site_force(site, Foe::Player(q)).armies == 0 {
                continue;
            }
            let me = Side {
                defender: own,
                fortified: own && self.fortified_for(p, r),
                against_infrastructure: true,
                ..Side::plain(0, 0)
            };
            // Interceptors who defend fortifications keep their status and bonus.
            let q_defends = self.fortified_for(q, r) && self.defenders(q, r).armies > 0;
            let loser =
                self.interception_roll(site, p, q, Kind::Army, me, q_defends, true, dice, events);
            if matches!(loser, Loser::First | Loser::Both) {
                alive = false;
                self.take_unit(site, p, Kind::Army, unit);
                break;
            }
        }
        if !alive {
            events.push(EconomyEvent::InfrastructureRoll {
                player: p,
                item,
                die: None,
                destroyed: false,
            });
            return;
        }
        let die = (!own).then(|| dice.d6());
        let destroyed = die.is_none_or(|d| d == 6);
        if destroyed {
            let infra = &mut self.regions[r as usize].infra;
            match item {
                Item::Roads => infra.roads = false,
                Item::Fortifications => infra.fortifications = false,
                Item::Canal => infra.canal = false,
                Item::ArmyBase => infra.army_bases = infra.army_bases.saturating_sub(1),
                Item::NavyBase { water } => {
                    if let Some(i) = infra.navy_bases.iter().position(|&w| w == water) {
                        infra.navy_bases.remove(i);
                    }
                }
                Item::Capital => {}
            }
        }
        events.push(EconomyEvent::InfrastructureRoll {
            player: p,
            item,
            die,
            destroyed,
        });
    }
}

#[cfg(test)]
mod tests;
