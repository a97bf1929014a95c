//! The one way an economy game changes: [`EconomyState::apply`] checks the player, then hands the
//! action to the phase that owns it, on a copy of the state that replaces the original only when
//! the action succeeds.

use super::action::{EconomyAction, EconomyEvent};
use super::error::EconomyError;
use super::infra::Item;
use super::map::EconomyMap;
use super::phase::Phase;
use super::state::{EconomyState, Standing};
use crate::dice::Dice;
use crate::rules::classic::PlayerId;

impl EconomyState {
    /// Applies `action`, drawing randomness from the game's own stream. On an error the state
    /// is untouched.
    pub fn apply(&mut self, action: &EconomyAction) -> Result<Vec<EconomyEvent>, EconomyError> {
        let mut next = self.clone();
        let mut rng = next.rng.clone();
        let events = next.step(EconomyMap::get(), action, &mut rng)?;
        next.rng = rng;
        next.steps += 1;
        *self = next;
        Ok(events)
    }

    /// Applies `action` with randomness from `dice` (the peer-to-peer beacon).
    pub fn apply_with(
        &mut self,
        action: &EconomyAction,
        dice: &mut dyn Dice,
    ) -> Result<Vec<EconomyEvent>, EconomyError> {
        let mut next = self.clone();
        let events = next.step(EconomyMap::get(), action, dice)?;
        next.steps += 1;
        *self = next;
        Ok(events)
    }

    /// Whether `later` (this state after some of one player's actions) is still at the same
    /// step: the same phase and round, and the engine waits for the same players. Online, a
    /// player's batch of actions for one log position ends where this stops holding (going on
    /// would play the next step before anyone else saw it).
    pub fn same_step(&self, later: &EconomyState) -> bool {
        later.phase == self.phase && later.round == self.round && later.to_act() == self.to_act()
    }

    /// The players who have something to do now: whose pick it is, who has not finished the
    /// phase, who must declare in the battle under way, or the initiative holder.
    pub fn to_act(&self) -> Vec<PlayerId> {
        let all = self.playing();
        match self.phase {
            Phase::Pick(p) => vec![p],
            Phase::Place => all.filter(|p| !self.placed.contains(p)).collect(),
            Phase::Get => all.filter(|&p| !self.get[p as usize].done).collect(),
            Phase::Planning => all.filter(|p| !self.plans.contains_key(p)).collect(),
            Phase::Moving => all.filter(|p| !self.moving_done.contains(p)).collect(),
            Phase::Combat => {
                let Some(c) = &self.combat else { return vec![] };
                match &c.battle {
                    None if !c.steals.is_empty() => vec![c.steals[0]],
                    None if c.tokens.is_empty() => self.to_move_on(EconomyMap::get()),
                    None => vec![c.holder],
                    Some(b) if b.pending.is_some() => {
                        let w = b.pending.as_ref().expect("checked");
                        self.interceptors(b.site, w)
                            .into_iter()
                            .filter(|q| !w.answers.contains_key(q))
                            .collect()
                    }
                    Some(_) if self.waiting_for_choice() => vec![c.holder],
                    Some(b) => self
                        .declarers(b.site)
                        .into_iter()
                        .filter(|p| !b.declared.contains_key(p))
                        .collect(),
                }
            }
            Phase::Over => vec![],
        }
    }

    fn step(
        &mut self,
        map: &EconomyMap,
        action: &EconomyAction,
        dice: &mut dyn Dice,
    ) -> Result<Vec<EconomyEvent>, EconomyError> {
        use EconomyAction::*;
        let p = action.player();
        let Some(player) = self.players.get(p as usize) else {
            return Err(EconomyError::UnknownPlayer(p));
        };
        if player.standing != Standing::Playing {
            return Err(EconomyError::NotPlaying(p));
        }
        // Once the round's cards are out, only the thefts they are owed remain of the combat.
        let stealing = self.combat.as_ref().is_some_and(|c| c.cards_dealt);
        // Showing a card is no move: allowed then too, as in any phase and whoever is awaited.
        if stealing && !matches!(action, StealCard { .. } | ShowCard { .. }) {
            return Err(EconomyError::StealFirst);
        }
        let mut events = match action {
            Setup { choice, .. } => self.setup_action(map, p, choice),
            SettleUpkeep { losses, .. } => self.settle_upkeep(p, losses),
            &Recruit {
                country,
                navy_into,
                count,
                ..
            } => self.recruit(map, p, country, navy_into, count),
            &Build { country, item, .. } => self.build(map, p, country, item),
            &Destroy { country, item, .. } => self.destroy(map, p, country, item),
            &TradeCards { cards, .. } => self.trade_cards(p, cards),
            FinishGet { .. } => self.finish_get(p),
            SubmitPlans { moves, .. } => self.submit_plans(map, p, moves),
            ClosePlanning { .. } => self.close_planning(p),
            &MoveFriendly {
                from, to, force, ..
            } => self.move_friendly(map, p, from, to, force),
            FinishMoving { .. } => self.finish_moving(map, p, dice),
            &PickBattle { site, .. } => self.pick_battle(map, p, site, dice),
            &Declare { action, .. } => self.declare(map, p, action, dice),
            &ChooseAction { actor, .. } => self.choose_action(map, p, actor, dice),
            &SetRetreat { retreat, .. } => self.set_retreat(p, retreat),
            &Intercept { yes, .. } => self.intercept(map, p, yes, dice),
            &MoveOn {
                from, to, force, ..
            } => self.move_on(map, p, from, to, force, dice),
            StopMoving { .. } => self.stop_moving(map, p, dice),
            &Blockade { country, water, .. } => self.blockade(map, p, country, water),
            &OfferAlliance { with, .. } => self.offer_alliance(p, with),
            &BreakAlliance { with, .. } => self.break_alliance(p, with),
            &Forfeit { region, to, .. } => self.forfeit(map, p, region, to),
            Surrender { .. } => self.surrender(map, p, dice),
            &StealCard { from, .. } => self.steal_card(map, p, from, dice),
            &EndBlockade { country, water, .. } => self.end_blockade(p, country, water),
            &IncitRevolution {
                country, target, ..
            } => self.incite(map, p, country, target, dice),
            &ShowCard { slot, card, .. } => self.show_card(p, slot, card),
        }?;
        // The upkeep owed follows the capital, the links and who controls what until it is
        // settled (RULES.md, reading 19).
        let relinks = matches!(
            action,
            Destroy {
                item: Item::Capital,
                ..
            } | OfferAlliance { .. }
                | BreakAlliance { .. }
                | Forfeit { .. }
                | Surrender { .. }
        );
        if relinks {
            self.refresh_upkeep(map, &mut events);
        }
        Ok(events)
    }
}
