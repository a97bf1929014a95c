//! The turn outside battle: claiming and placing in the setup, reinforcing, trading sets, and
//! the end and start of a turn (the card for a conquest).

use super::*;

impl ClassicState {
    pub(super) fn claim(
        &mut self,
        t: TerritoryId,
        ev: &mut Vec<Event>,
    ) -> Result<(), ClassicError> {
        if self.phase != Phase::Claim {
            return Err(self.wrong_phase("claim a territory"));
        }
        self.check_territory(t)?;
        if self.owner[t as usize] != Owner::Unclaimed {
            return Err(ClassicError::AlreadyClaimed(self.name(t)));
        }
        let p = self.current;
        self.owner[t as usize] = Owner::Player(p);
        self.armies[t as usize] = 1;
        self.players[p as usize].setup_armies -= 1;
        ev.push(Event::Claimed {
            player: p,
            territory: t,
        });
        if self.owner.contains(&Owner::Unclaimed) {
            self.current = (p + 1) % self.players.len() as PlayerId;
        } else {
            self.phase = Phase::SetupPlace;
            self.current = self.first;
            self.advance_setup(ev, false);
        }
        Ok(())
    }

    /// Moves setup placement to the next player who still has armies, or starts the first turn.
    pub(super) fn advance_setup(&mut self, ev: &mut Vec<Event>, skip_current: bool) {
        let n = self.players.len();
        let start = if skip_current { 1 } else { 0 };
        for k in start..=n {
            let p = ((self.current as usize + k) % n) as PlayerId;
            if self.players[p as usize].setup_armies > 0 {
                self.current = p;
                return;
            }
        }
        ev.push(Event::SetupDone { first: self.first });
        self.current = self.first;
        self.begin_turn(ev);
    }

    pub(super) fn place(
        &mut self,
        t: TerritoryId,
        armies: u32,
        ev: &mut Vec<Event>,
    ) -> Result<(), ClassicError> {
        let p = self.current;
        match self.phase {
            Phase::SetupPlace => {
                self.check_mine(t)?;
                if armies != 1 {
                    return Err(ClassicError::OnlyOneSetupArmy);
                }
                self.armies[t as usize] += 1;
                self.players[p as usize].setup_armies -= 1;
                ev.push(Event::Placed {
                    player: p,
                    territory: t,
                    armies: 1,
                });
                self.advance_setup(ev, true);
            }
            Phase::Reinforce { armies: left } => {
                let cards = self.cards_held(p) as u32;
                if cards >= 5 {
                    return Err(ClassicError::MustTrade { cards });
                }
                self.check_mine(t)?;
                if armies == 0 {
                    return Err(ClassicError::ZeroArmies);
                }
                if armies > left {
                    return Err(ClassicError::NotEnoughToPlace {
                        requested: armies,
                        left,
                    });
                }
                self.armies[t as usize] += armies;
                ev.push(Event::Placed {
                    player: p,
                    territory: t,
                    armies,
                });
                self.phase = if armies == left {
                    Phase::Attack
                } else {
                    Phase::Reinforce {
                        armies: left - armies,
                    }
                };
            }
            _ => return Err(self.wrong_phase("place armies")),
        }
        Ok(())
    }

    pub(super) fn trade(
        &mut self,
        cards: [CardId; 3],
        ev: &mut Vec<Event>,
    ) -> Result<(), ClassicError> {
        let Phase::Reinforce { armies: left } = self.phase else {
            return Err(self.wrong_phase("trade cards (only while placing armies)"));
        };
        let p = self.current;
        let total = self.map().len() as CardId + WILD_CARDS;
        for (i, &c) in cards.iter().enumerate() {
            if c >= total {
                return Err(ClassicError::UnknownCard(c));
            }
            if cards[..i].contains(&c) {
                return Err(ClassicError::DuplicateCard(c));
            }
            if !self.players[p as usize].hand.contains(&c) {
                return Err(ClassicError::CardNotInHand(c));
            }
        }
        if !self.is_set(cards) {
            return Err(ClassicError::NotASet);
        }
        let value = self.next_set_value();
        self.sets_traded += 1;
        let pl = &mut self.players[p as usize];
        pl.hand.retain(|c| !cards.contains(c));
        pl.stats.sets_traded += 1;
        pl.stats.armies_received += value;
        self.discard.extend_from_slice(&cards);
        let mut bonus: Vec<TerritoryId> = cards
            .iter()
            .filter_map(|&c| self.card_territory(c))
            .filter(|&t| self.owner[t as usize] == Owner::Player(p))
            .collect();
        if self.options.card_bonus == CardBonus::OnePerTurn {
            bonus.truncate(usize::from(!self.turn_state.bonus_used));
        }
        for &t in &bonus {
            self.armies[t as usize] += 2;
            self.turn_state.bonus_used = true;
            self.players[p as usize].stats.armies_received += 2;
        }
        ev.push(Event::Traded {
            player: p,
            cards,
            armies: value,
            bonus,
        });
        let hand = self.cards_held(p);
        // A zero-valued set (constant schedule of 0) after an elimination trade leaves nothing to place.
        self.phase = if left + value == 0 && hand < 5 {
            Phase::Attack
        } else {
            Phase::Reinforce {
                armies: left + value,
            }
        };
        Ok(())
    }

    pub(super) fn end_turn(&mut self, dice: &mut dyn Dice, ev: &mut Vec<Event>) {
        let me = self.current;
        if self.turn_state.conquered && self.sealed.is_some() {
            if let Some(slot) = self.draw_sealed(ev) {
                self.players[me as usize].sealed.push(slot);
                ev.push(Event::CardDrawn { player: me });
                ev.push(Event::CardDealt { player: me, slot });
            }
        } else if self.turn_state.conquered {
            if self.deck.is_empty() {
                self.deck = std::mem::take(&mut self.discard);
                shuffle(dice, &mut self.deck);
            }
            if let Some(c) = self.deck.pop() {
                self.players[me as usize].hand.push(c);
                ev.push(Event::CardDrawn { player: me });
            }
        }
        let n = self.players.len() as PlayerId;
        let mut next = (me + 1) % n;
        while !self.players[next as usize].alive {
            next = (next + 1) % n;
        }
        self.current = next;
        self.begin_turn(ev);
    }

    pub(super) fn begin_turn(&mut self, ev: &mut Vec<Event>) {
        self.turn += 1;
        let t = self.owner.len();
        self.turn_state = TurnState {
            arrived: vec![0; t],
            ..TurnState::default()
        };
        let p = self.current;
        // A mission held since an earlier turn of ours has now survived a full round.
        if self.options.missions && self.options.hold_mission_full_round {
            if let (Some(m), Some(since)) = (
                self.players[p as usize].mission,
                self.players[p as usize].mission_since,
            ) {
                if since < self.turn && self.mission_done(p, m) {
                    self.win(p, WinReason::Mission(m), ev);
                    return;
                }
            }
        }
        let (base, bonus) = self.reinforcements(p);
        self.players[p as usize].stats.armies_received += base + bonus;
        ev.push(Event::TurnStarted {
            player: p,
            turn: self.turn,
            territories: base,
            continents: bonus,
        });
        self.phase = Phase::Reinforce {
            armies: base + bonus,
        };
    }
}
