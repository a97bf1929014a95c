//! The one way a classic game changes: [`ClassicState::apply`] runs the action on a copy that
//! replaces the state only on success; `step` hands each action to the phase that owns it.

use super::*;

impl ClassicState {
    /// Applies an action with the game's own dice stream.
    pub fn apply(&mut self, action: &Action) -> Result<Vec<Event>, ClassicError> {
        let mut next = self.clone();
        let mut rng = next.rng.clone();
        let events = next.step(action, &mut rng)?;
        next.rng = rng;
        *self = next;
        Ok(events)
    }

    /// Applies an action drawing randomness from `dice` instead of the game's stream.
    pub fn apply_with(
        &mut self,
        action: &Action,
        dice: &mut dyn Dice,
    ) -> Result<Vec<Event>, ClassicError> {
        let mut next = self.clone();
        let events = next.step(action, dice)?;
        *self = next;
        Ok(events)
    }

    pub(super) fn name(&self, t: TerritoryId) -> String {
        self.map().name(t)
    }

    pub(super) fn check_territory(&self, t: TerritoryId) -> Result<(), ClassicError> {
        if (t as usize) < self.owner.len() {
            Ok(())
        } else {
            Err(ClassicError::UnknownTerritory(t))
        }
    }

    pub(super) fn check_mine(&self, t: TerritoryId) -> Result<(), ClassicError> {
        self.check_territory(t)?;
        if self.owner[t as usize] == Owner::Player(self.current) {
            Ok(())
        } else {
            Err(ClassicError::NotYours(self.name(t)))
        }
    }

    pub(super) fn phase_text(&self) -> String {
        let who = &self.players[self.current as usize].name;
        match self.phase {
            Phase::Claim => format!("{who} is claiming territories"),
            Phase::SetupPlace => format!("{who} is placing initial armies"),
            Phase::Reinforce { armies } => format!("{who} has {armies} reinforcements to place"),
            Phase::Attack => format!("{who} is attacking"),
            Phase::Occupy { .. } => {
                format!("{who} must first move armies into the conquered territory")
            }
            Phase::Fortify => format!("{who} is fortifying"),
            Phase::GameOver { .. } => "the game is over".into(),
        }
    }

    pub(super) fn wrong_phase(&self, action: &str) -> ClassicError {
        ClassicError::WrongPhase {
            action: action.into(),
            phase: self.phase_text(),
        }
    }

    pub(super) fn step(
        &mut self,
        action: &Action,
        dice: &mut dyn Dice,
    ) -> Result<Vec<Event>, ClassicError> {
        if matches!(self.phase, Phase::GameOver { .. }) {
            return Err(ClassicError::GameOver);
        }
        let mut ev = vec![];
        match *action {
            Action::SetDefence { player, pref } => {
                if player as usize >= self.players.len() {
                    return Err(ClassicError::UnknownPlayer(player));
                }
                self.players[player as usize].defend = pref;
                ev.push(Event::DefenceSet { player, pref });
            }
            Action::SetTerritoryDefence { territory, one } => {
                let Some(&owner) = self.owner.get(territory as usize) else {
                    return Err(ClassicError::UnknownTerritory(territory));
                };
                let Owner::Player(player) = owner else {
                    return Err(ClassicError::NotYours(
                        self.map().territories[territory as usize].name.clone(),
                    ));
                };
                let list = &mut self.players[player as usize].one_die;
                match (list.binary_search(&territory), one) {
                    (Err(i), true) => list.insert(i, territory),
                    (Ok(i), false) => {
                        list.remove(i);
                    }
                    _ => {}
                }
                ev.push(Event::TerritoryDefenceSet {
                    player,
                    territory,
                    one,
                });
            }
            Action::Claim { territory } => self.claim(territory, &mut ev)?,
            Action::Place { territory, armies } => self.place(territory, armies, &mut ev)?,
            Action::Trade { cards } => self.trade(cards, &mut ev)?,
            Action::Attack { from, to, dice: n } => {
                if self.phase != Phase::Attack {
                    return Err(self.wrong_phase("attack"));
                }
                self.check_attack(from, to)?;
                let max = self.max_attack_dice(from);
                if n == 0 || n > max {
                    return Err(ClassicError::BadDice { dice: n, max });
                }
                self.roll(from, to, n, dice, &mut ev);
            }
            Action::Blitz { from, to, stop_at } => {
                if self.phase != Phase::Attack {
                    return Err(self.wrong_phase("attack"));
                }
                self.check_attack(from, to)?;
                let stop_at = stop_at.max(1);
                if self.armies[from as usize] <= stop_at {
                    return Err(ClassicError::BlitzThreshold {
                        armies: self.armies[from as usize],
                        stop_at,
                    });
                }
                while self.phase == Phase::Attack
                    && self.owner[to as usize] != Owner::Player(self.current)
                    && self.armies[from as usize] > stop_at
                {
                    let n = self.max_attack_dice(from);
                    self.roll(from, to, n, dice, &mut ev);
                }
            }
            Action::Occupy { armies } => {
                let Phase::Occupy { from, to, moved } = self.phase else {
                    return Err(self.wrong_phase("move into a conquered territory"));
                };
                let max = moved + self.armies[from as usize] - 1;
                if armies < moved || armies > max {
                    return Err(ClassicError::OccupyRange {
                        min: moved,
                        max,
                        requested: armies,
                    });
                }
                self.finish_occupy(from, to, armies - moved, &mut ev);
            }
            Action::EndAttack => {
                if self.phase != Phase::Attack {
                    return Err(self.wrong_phase("end the attack phase"));
                }
                self.phase = Phase::Fortify;
                ev.push(Event::AttackEnded {
                    player: self.current,
                });
            }
            Action::Fortify { from, to, armies } => {
                self.fortify(from, to, armies, dice, &mut ev)?
            }
            Action::Show { slot, card } => self.show(slot, card, &mut ev)?,
            Action::EndTurn => {
                if !matches!(self.phase, Phase::Attack | Phase::Fortify) {
                    return Err(self.wrong_phase("end your turn"));
                }
                self.end_turn(dice, &mut ev);
            }
        }
        self.step += 1;
        Ok(ev)
    }
}
