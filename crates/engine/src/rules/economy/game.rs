//! The one way an economy game changes: [`EconomyState::apply`] checks the player, then hands the
//! action to the phase that owns it, on a copy of the state that replaces the original only when
//! the action succeeds.

use super::action::{EconomyAction, EconomyEvent};
use super::error::EconomyError;
use super::map::EconomyMap;
use super::state::{EconomyState, Standing};
use crate::dice::Dice;

impl EconomyState {
    /// Applies `action`, drawing randomness from the game's own stream. On an error the state
    /// is untouched.
    pub fn apply(&mut self, action: &EconomyAction) -> Result<Vec<EconomyEvent>, EconomyError> {
        let mut next = self.clone();
        let mut rng = next.rng.clone();
        let events = next.step(EconomyMap::get(), action, &mut rng)?;
        next.rng = rng;
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
        *self = next;
        Ok(events)
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
        match action {
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
            &MoveFriendly {
                from, to, force, ..
            } => self.move_friendly(map, p, from, to, force),
            FinishMoving { .. } => self.finish_moving(map, p, dice),
            &PickBattle { site, .. } => self.pick_battle(map, p, site, dice),
            &Declare { action, .. } => self.declare(map, p, action, dice),
            &ChooseAction { actor, .. } => self.choose_action(map, p, actor, dice),
        }
    }
}
