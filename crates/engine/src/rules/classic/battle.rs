//! Attacks, conquest and moving in, eliminating a player, and fortifying.

use super::*;

impl ClassicState {
    pub(super) fn check_attack(
        &self,
        from: TerritoryId,
        to: TerritoryId,
    ) -> Result<(), ClassicError> {
        self.check_mine(from)?;
        self.check_territory(to)?;
        if self.owner[to as usize] == Owner::Player(self.current) {
            return Err(ClassicError::OwnTerritory(self.name(to)));
        }
        if !self.map().adjacent(from, to) {
            return Err(ClassicError::NotAdjacent {
                from: self.name(from),
                to: self.name(to),
            });
        }
        if self.armies[from as usize] < 2 {
            return Err(ClassicError::NeedTwoArmies(self.name(from)));
        }
        Ok(())
    }

    /// One roll; on conquest moves the rolled dice in and enters the occupy phase.
    pub(super) fn roll(
        &mut self,
        from: TerritoryId,
        to: TerritoryId,
        n: u8,
        dice: &mut dyn Dice,
        ev: &mut Vec<Event>,
    ) {
        let d = self.defence_dice(to);
        let mut attack: Vec<u8> = (0..n).map(|_| dice.d6()).collect();
        let mut defence: Vec<u8> = (0..d).map(|_| dice.d6()).collect();
        highest_first(&mut attack);
        highest_first(&mut defence);
        let (al, dl) = battle_losses(&attack, &defence);
        // Two dice defending one army (an option) can lose two comparisons: the army dies once.
        let dl = dl.min(self.armies[to as usize]);
        self.armies[from as usize] -= al;
        self.armies[to as usize] -= dl;
        let me = self.current;
        let loser = self.owner[to as usize];
        {
            let s = &mut self.players[me as usize].stats;
            s.rolls += 1;
            s.armies_killed += dl;
            s.armies_lost += al;
        }
        if let Owner::Player(q) = loser {
            let s = &mut self.players[q as usize].stats;
            s.armies_killed += al;
            s.armies_lost += dl;
        }
        ev.push(Event::Rolled {
            from,
            to,
            attack,
            defence,
            attacker_lost: al,
            defender_lost: dl,
        });
        if self.armies[to as usize] > 0 {
            return;
        }
        // Conquest: move in the dice that survived this roll (all of them, unless two defence
        // dice were rolled by one army).
        if let Owner::Player(q) = loser {
            self.players[q as usize].one_die.retain(|&t| t != to);
        }
        self.owner[to as usize] = Owner::Player(me);
        let moved = u32::from(n) - al;
        self.armies[to as usize] = moved;
        self.armies[from as usize] -= moved;
        self.turn_state.conquered = true;
        self.players[me as usize].stats.conquests += 1;
        ev.push(Event::Conquered {
            player: me,
            from,
            to,
            loser,
            moved,
        });
        if let Owner::Player(q) = loser {
            if self.territory_count(q) == 0 {
                self.eliminate(q, ev);
            }
        }
        if self.check_winners(ev) {
            return;
        }
        self.phase = Phase::Occupy { from, to, moved };
        if self.armies[from as usize] == 1 {
            self.finish_occupy(from, to, 0, ev);
        }
    }

    pub(super) fn eliminate(&mut self, q: PlayerId, ev: &mut Vec<Event>) {
        let me = self.current;
        let cards = std::mem::take(&mut self.players[q as usize].hand);
        let slots = std::mem::take(&mut self.players[q as usize].sealed);
        self.players[q as usize].alive = false;
        ev.push(Event::Eliminated {
            player: q,
            by: me,
            cards: (cards.len() + slots.len()) as u32,
        });
        self.players[me as usize].hand.extend(cards);
        if !slots.is_empty() {
            self.players[me as usize].sealed.extend(&slots);
            ev.push(Event::SlotsTaken {
                from: q,
                to: me,
                slots,
            });
        }
    }

    pub(super) fn finish_occupy(
        &mut self,
        from: TerritoryId,
        to: TerritoryId,
        extra: u32,
        ev: &mut Vec<Event>,
    ) {
        self.armies[from as usize] -= extra;
        self.armies[to as usize] += extra;
        ev.push(Event::Occupied {
            from,
            to,
            armies: self.armies[to as usize],
        });
        // Cards taken from an eliminated player: at 6 or more, trade down to 4 or fewer now.
        let cards = self.cards_held(self.current);
        self.phase = if cards >= 6 {
            Phase::Reinforce { armies: 0 }
        } else {
            Phase::Attack
        };
    }

    pub(super) fn fortify(
        &mut self,
        from: TerritoryId,
        to: TerritoryId,
        armies: u32,
        dice: &mut dyn Dice,
        ev: &mut Vec<Event>,
    ) -> Result<(), ClassicError> {
        if self.phase != Phase::Fortify {
            return Err(self.wrong_phase("fortify"));
        }
        self.check_mine(from)?;
        self.check_mine(to)?;
        if from == to {
            return Err(ClassicError::SameTerritory);
        }
        if armies == 0 {
            return Err(ClassicError::ZeroArmies);
        }
        let rule = self.options.fortify;
        match (rule, self.turn_state.fortify_source) {
            (FortifyRule::OneToOneAdjacent, Some(_)) => return Err(ClassicError::FortifyUsed),
            (FortifyRule::OneToManyAdjacent, Some(s)) if s != from => {
                return Err(ClassicError::OneSourceOnly {
                    source: self.name(s),
                })
            }
            _ => {}
        }
        if rule == FortifyRule::ManyToManyConnected {
            if !self.fortify_targets(from).contains(&to) {
                return Err(ClassicError::NotConnected {
                    from: self.name(from),
                    to: self.name(to),
                });
            }
        } else if !self.map().adjacent(from, to) {
            return Err(ClassicError::NotAdjacent {
                from: self.name(from),
                to: self.name(to),
            });
        }
        let movable = self.movable(from);
        if armies > movable {
            return Err(ClassicError::TooManyToMove {
                territory: self.name(from),
                requested: armies,
                movable,
            });
        }
        self.armies[from as usize] -= armies;
        self.armies[to as usize] += armies;
        self.turn_state.arrived[to as usize] += armies;
        self.turn_state.fortify_source = Some(from);
        ev.push(Event::Fortified { from, to, armies });
        if rule == FortifyRule::OneToOneAdjacent {
            self.end_turn(dice, ev);
        }
        Ok(())
    }
}

/// Sorts dice highest first, as `battle_losses` takes them.
pub fn highest_first(dice: &mut [u8]) {
    crate::short_sort::sort_by(dice, |a, b| a > b);
}

/// Losses (attacker, defender) for sorted-descending dice: highest against highest, ties to the defender.
pub fn battle_losses(attack: &[u8], defence: &[u8]) -> (u32, u32) {
    let mut al = 0;
    let mut dl = 0;
    for (a, d) in attack.iter().zip(defence) {
        if a > d {
            dl += 1;
        } else {
            al += 1;
        }
    }
    (al, dl)
}
