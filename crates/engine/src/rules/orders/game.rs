//! The one way an orders game changes: [`OrdersState::apply`] on a copy; submissions, then
//! adjudication and the phase that follows.

use super::*;

impl OrdersState {
    /// Applies an action; on error nothing changes.
    pub fn apply(&mut self, action: &OrdersAction) -> Result<Vec<OrdersEvent>, OrdersError> {
        let mut next = self.clone();
        let events = next.step(action)?;
        *self = next;
        Ok(events)
    }

    pub(super) fn phase_name(&self) -> String {
        match self.phase {
            Phase::Movement => "movement phase".into(),
            Phase::Retreat => "retreat phase".into(),
            Phase::Adjustment => "adjustment phase".into(),
            Phase::GameOver { .. } => "end of the game".into(),
        }
    }

    pub(super) fn step(&mut self, action: &OrdersAction) -> Result<Vec<OrdersEvent>, OrdersError> {
        if matches!(self.phase, Phase::GameOver { .. }) {
            return Err(OrdersError::GameOver);
        }
        let map = self.map();
        let mut ev = vec![];
        match action {
            OrdersAction::Submit { power, orders } => {
                let power = *power;
                if power as usize >= map.powers.len() {
                    return Err(OrdersError::UnknownPower(power));
                }
                if !self.alive(power) {
                    return Err(OrdersError::Out(map.powers[power as usize].name.clone()));
                }
                let mut seen = BTreeSet::new();
                for w in orders {
                    self.check_submission(map, power, w)?;
                    if !seen.insert(w.at.province) {
                        return Err(OrdersError::TwoOrders {
                            unit: notation::print_unit(map, w.kind, w.at),
                        });
                    }
                }
                self.orders[power as usize] = Some(orders.clone());
                ev.push(OrdersEvent::Submitted { power });
            }
            OrdersAction::Draw { power, accept } => {
                if *power as usize >= map.powers.len() {
                    return Err(OrdersError::UnknownPower(*power));
                }
                self.draw[*power as usize] = *accept;
                ev.push(OrdersEvent::DrawVote {
                    power: *power,
                    accept: *accept,
                });
                let all = (0..map.powers.len() as PowerId)
                    .filter(|&p| self.alive(p))
                    .all(|p| self.draw[p as usize]);
                if all {
                    self.phase = Phase::GameOver { winner: None };
                    ev.push(OrdersEvent::Drawn);
                }
            }
            OrdersAction::Adjudicate => self.adjudicate(map, &mut ev),
        }
        Ok(ev)
    }

    pub(super) fn check_submission(
        &self,
        map: &OrdersMap,
        power: PowerId,
        w: &Written,
    ) -> Result<(), OrdersError> {
        let text = notation::print(map, w);
        let wrong = || OrdersError::WrongPhase {
            order: text.clone(),
            phase: self.phase_name(),
        };
        let owner_of = |list: Vec<Piece>| -> Result<(), OrdersError> {
            match list.into_iter().find(|u| u.loc.province == w.at.province) {
                None => Err(OrdersError::NoUnit {
                    order: text.clone(),
                }),
                Some(u) if u.power != power => Err(OrdersError::NotYours {
                    order: text.clone(),
                }),
                Some(_) => Ok(()),
            }
        };
        match (self.phase, w.spec) {
            (Phase::Movement, Spec::Combine { .. })
                if !self.options.combine || self.season != Season::Fall =>
            {
                Err(OrdersError::NoCombine {
                    order: text.clone(),
                })
            }
            (
                Phase::Movement,
                Spec::Retreat { .. } | Spec::Disband | Spec::Build | Spec::BuildFacing { .. },
            ) => Err(wrong()),
            (Phase::Movement, _) => owner_of(self.units.clone()),
            (Phase::Retreat, Spec::Retreat { .. } | Spec::Move { .. } | Spec::Disband) => {
                owner_of(self.dislodged.iter().map(|d| d.piece).collect())
            }
            (Phase::Retreat, _) => Err(wrong()),
            (Phase::Adjustment, Spec::Build | Spec::BuildFacing { .. }) => {
                let facing = self.options.fleet_facing;
                if build_facing(map, w, facing).is_some() {
                    return Ok(());
                }
                let seas = if facing && w.kind == UnitType::Fleet {
                    let seas: Vec<&str> = map.seas_of(w.at).iter().map(|&s| map.key(s)).collect();
                    seas.join(", ")
                } else {
                    String::new()
                };
                Err(OrdersError::Facing {
                    order: text.clone(),
                    seas,
                })
            }
            (Phase::Adjustment, Spec::Disband) => owner_of(self.units.clone()),
            (Phase::Adjustment, _) => Err(wrong()),
            (Phase::GameOver { .. }, _) => Err(OrdersError::GameOver),
        }
    }

    pub(super) fn all_orders(&mut self) -> Vec<(PowerId, Written)> {
        let mut out = vec![];
        for (p, o) in self.orders.iter_mut().enumerate() {
            if let Some(list) = o.take() {
                out.extend(list.into_iter().map(|w| (p as PowerId, w)));
            }
        }
        out
    }

    pub(super) fn adjudicate(&mut self, map: &OrdersMap, ev: &mut Vec<OrdersEvent>) {
        let orders = self.all_orders();
        let phase = self.phase;
        match phase {
            Phase::Movement => {
                let combine = self.options.combine && self.season == Season::Fall;
                let facing = self.options.fleet_facing;
                let house = House {
                    combine,
                    fleet_facing: facing,
                    source_convoys: self.options.source_convoys,
                };
                let r = movement_rules(map, &self.units, &orders, house);
                ev.push(OrdersEvent::Resolved {
                    year: self.year,
                    season: self.season,
                    phase,
                    results: r.results,
                });
                self.units = r.units;
                self.dislodged = r.dislodged;
                self.contested = r.contested;
                if self.dislodged.is_empty() {
                    self.after_movement(map, ev);
                } else {
                    self.start(Phase::Retreat, ev);
                }
            }
            Phase::Retreat => {
                // Resolved against the phase's own state (the house option counts the dislodged
                // units as their power's), then the retreat tables are cleared.
                let closed = |power: PowerId, p: ProvinceId| self.closed_to_retreat(power, p);
                let r = retreats_house(
                    map,
                    &self.units,
                    &self.dislodged,
                    &self.contested,
                    &closed,
                    self.options.fleet_facing,
                    &orders,
                );
                self.dislodged.clear();
                self.contested.clear();
                self.units = r.units;
                ev.push(OrdersEvent::Resolved {
                    year: self.year,
                    season: self.season,
                    phase,
                    results: r.results,
                });
                self.after_movement(map, ev);
            }
            Phase::Adjustment => {
                let facing = self.options.fleet_facing;
                let r = adjustments_house(map, &self.units, &self.centres, facing, &orders);
                self.units = r.units;
                ev.push(OrdersEvent::Resolved {
                    year: self.year,
                    season: self.season,
                    phase,
                    results: r.results,
                });
                self.year += 1;
                self.season = Season::Spring;
                self.start(Phase::Movement, ev);
            }
            Phase::GameOver { .. } => {}
        }
    }

    pub(super) fn start(&mut self, phase: Phase, ev: &mut Vec<OrdersEvent>) {
        self.phase = phase;
        ev.push(OrdersEvent::PhaseStarted {
            year: self.year,
            season: self.season,
            phase,
        });
    }

    /// After the movement (and retreats, if any): Spring goes to Fall; Fall updates centres,
    /// checks victory and goes to adjustments when someone must build or disband.
    pub(super) fn after_movement(&mut self, map: &OrdersMap, ev: &mut Vec<OrdersEvent>) {
        if self.season == Season::Spring {
            self.season = Season::Fall;
            self.start(Phase::Movement, ev);
            return;
        }
        let alive_before: Vec<bool> = (0..map.powers.len() as PowerId)
            .map(|p| self.alive(p))
            .collect();
        for u in &self.units {
            let p = u.loc.province;
            // Only land is territory: a fleet at sea holds nothing (and a save with a sea in
            // the territory table would be refused on load).
            if self.options.no_retreat_into_foreign_territory
                && map.provinces[p as usize].kind != ProvinceKind::Sea
            {
                self.territory.insert(p, u.power);
            }
            if map.provinces[p as usize].centre {
                let from = self.centres.get(&p).copied();
                if from != Some(u.power) {
                    self.centres.insert(p, u.power);
                    ev.push(OrdersEvent::CentreTaken {
                        province: p,
                        from,
                        to: u.power,
                    });
                }
            }
        }
        for (p, was) in alive_before.iter().enumerate() {
            if *was && !self.alive(p as PowerId) {
                ev.push(OrdersEvent::Eliminated {
                    power: p as PowerId,
                });
            }
        }
        if let Some(w) =
            (0..map.powers.len() as PowerId).find(|&p| self.centre_count(p) >= map.victory as usize)
        {
            self.phase = Phase::GameOver { winner: Some(w) };
            ev.push(OrdersEvent::Won { power: w });
            return;
        }
        let needs_adjustment = (0..map.powers.len() as PowerId).any(|p| self.adjustment(p) != 0);
        if needs_adjustment {
            self.start(Phase::Adjustment, ev);
        } else {
            self.year += 1;
            self.season = Season::Spring;
            self.start(Phase::Movement, ev);
        }
    }
}
