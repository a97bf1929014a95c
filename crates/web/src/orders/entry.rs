//! Order entry at the device: what a click on the map means for the unit selected and the kind
//! of order chosen, the draft checked by the engine, the prompt, the places the order may name
//! (the engine's `legal_targets`, highlighted on the map) and how many units have orders.

use super::*;
use orbis_engine::rules::orders::adjudicator::Coast;
use orbis_engine::rules::orders::OrderKind;

/// What a tap on the map means for the selected unit's move ([`OrdersSession::move_tap`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveTap {
    /// Write the move (or retreat) to this place.
    Go(Loc),
    /// The unit can reach two coasts of this province: ask which.
    Coast(ProvinceId),
    /// Another unit of the player's, which this one cannot move to: select it instead.
    Select(Loc),
    /// Not a place the unit may go: the message that says why and where it may.
    Refuse(String),
}

/// A named coast in words.
pub fn coast_word(c: Coast) -> &'static str {
    match c {
        Coast::North => "North coast",
        Coast::South => "South coast",
        Coast::East => "East coast",
        Coast::West => "West coast",
    }
}

impl OrdersSession {
    /// Combining can be ordered now (house option, Fall movement).
    pub fn can_combine(&self) -> bool {
        self.game.options.combine
            && self.game.season == Season::Fall
            && self.game.phase == Phase::Movement
    }

    /// Units this power can order now (the engine's query).
    pub fn orderable(&self, p: PowerId) -> Vec<Piece> {
        self.game.orderable_units(p)
    }

    /// Home centres where this power may build now (the engine's query).
    pub fn build_sites(&self, p: PowerId) -> Vec<ProvinceId> {
        self.game.build_sites(p)
    }

    /// Adds (or replaces) an order in the draft, if the engine accepts the draft with it.
    pub(super) fn add(&mut self, p: PowerId, w: Written) -> bool {
        let mut draft: Vec<Written> = self
            .draft
            .iter()
            .copied()
            .filter(|x| x.at.province != w.at.province)
            .collect();
        draft.push(w);
        let mut probe = self.game.clone();
        match probe.apply(&OrdersAction::Submit {
            power: p,
            orders: draft.clone(),
        }) {
            Ok(_) => {
                draft.sort_by_key(|x| self.map().loc_name(x.at));
                self.draft = draft;
                self.error = None;
                self.sel = None;
                self.mode = Mode::Move;
                true
            }
            Err(e) => {
                self.error = Some(e.to_string());
                false
            }
        }
    }

    /// Adds the computer's `orders` for the units (in adjustments: the builds or disbands still
    /// due) that have no order in the draft yet; the player's own orders stay. Returns how many
    /// were added.
    pub(super) fn fill_missing(&mut self, p: PowerId, orders: Vec<Written>) -> usize {
        let due = match self.game.phase {
            Phase::Adjustment => self.game.adjustment(p).unsigned_abs() as usize,
            _ => usize::MAX,
        };
        let mut added = 0;
        for w in orders {
            if self.draft.len() >= due {
                break;
            }
            if self.draft.iter().any(|x| x.at.province == w.at.province) {
                continue;
            }
            // One the engine refuses beside the player's orders is left out (the player's stay).
            if self.add(p, w) {
                added += 1;
            }
        }
        if added > 0 {
            self.error = None;
        }
        added
    }

    pub(super) fn unit_at(&self, province: ProvinceId) -> Option<Piece> {
        self.game
            .units
            .iter()
            .copied()
            .find(|u| u.loc.province == province)
    }

    pub(super) fn click(&mut self, p: PowerId, key: &str) {
        let map = self.map();
        let Some(loc) = map.parse_loc(key) else {
            return;
        };
        self.error = None;
        let Some(sel) = self.sel else {
            if self.game.phase == Phase::Adjustment && self.build_sites(p).contains(&loc.province) {
                self.sel = Some(Loc::new(loc.province));
                return;
            }
            if let Some(u) = self
                .orderable(p)
                .into_iter()
                .find(|u| u.loc.province == loc.province)
            {
                if self.game.phase == Phase::Adjustment {
                    self.add(
                        p,
                        Written {
                            kind: u.kind,
                            at: u.loc,
                            spec: Spec::Disband,
                        },
                    );
                } else {
                    self.sel = Some(u.loc);
                    self.mode = Mode::Move;
                }
            }
            return;
        };
        if self.game.phase == Phase::Adjustment {
            // A build site is selected: clicking a coast of it builds a fleet there.
            if loc.province == sel.province && loc.coast.is_some() {
                self.add(
                    p,
                    Written {
                        kind: UnitType::Fleet,
                        at: loc,
                        spec: Spec::Build,
                    },
                );
            } else {
                self.sel = None;
            }
            return;
        }
        let Some(unit) = self
            .orderable(p)
            .into_iter()
            .find(|u| u.loc.province == sel.province)
        else {
            self.sel = None;
            return;
        };
        let kind = unit.kind;
        let spec = match self.mode {
            Mode::Move | Mode::Coast(_) if loc.province == sel.province => {
                if self.game.phase == Phase::Movement {
                    Spec::Hold
                } else {
                    self.sel = None;
                    self.mode = Mode::Move;
                    return;
                }
            }
            // Only a place the engine says the unit may go is written: any other tap is
            // refused with why, before it can cost a season as a void order.
            Mode::Move | Mode::Coast(_) => match self.move_tap(p, unit, loc) {
                MoveTap::Go(to) if self.game.phase == Phase::Retreat => Spec::Retreat { to },
                MoveTap::Go(to) => Spec::Move {
                    to,
                    via_convoy: false,
                },
                MoveTap::Coast(prov) => {
                    self.mode = Mode::Coast(prov);
                    return;
                }
                MoveTap::Select(l) => {
                    self.sel = Some(l);
                    self.mode = Mode::Move;
                    return;
                }
                MoveTap::Refuse(why) => {
                    self.mode = Mode::Move;
                    self.error = Some(why);
                    return;
                }
            },
            Mode::SupportPick => match self.unit_at(loc.province) {
                Some(t) => {
                    self.mode = Mode::SupportTo(t.loc);
                    return;
                }
                None => {
                    self.error = Some("Click the unit to support (there is none there).".into());
                    return;
                }
            },
            Mode::SupportTo(t) => {
                let tk = self.unit_at(t.province).map(|u| u.kind);
                if loc.province == t.province {
                    Spec::SupportHold {
                        kind: tk,
                        target: t,
                    }
                } else {
                    Spec::SupportMove {
                        kind: tk,
                        from: t,
                        to: Loc::new(loc.province),
                    }
                }
            }
            Mode::ConvoyPick => match self.unit_at(loc.province) {
                Some(t) if t.kind == UnitType::Army => {
                    self.mode = Mode::ConvoyTo(t.loc);
                    return;
                }
                _ => {
                    self.error = Some("Click the army to convoy.".into());
                    return;
                }
            },
            Mode::ConvoyTo(a) => Spec::Convoy {
                from: a,
                to: Loc::new(loc.province),
            },
            Mode::CombinePick => match self.unit_at(loc.province) {
                Some(t) if loc.province != sel.province => Spec::Combine { into: t.loc },
                _ => {
                    self.error = Some("Combine: click the unit to merge into.".into());
                    return;
                }
            },
        };
        self.add(
            p,
            Written {
                kind,
                at: unit.loc,
                spec,
            },
        );
    }

    /// Text of the prompt for the selected unit.
    pub fn prompt(&self) -> String {
        let map = self.map();
        match (self.sel, self.mode) {
            (None, _) => match self.game.phase {
                Phase::Movement => "Click one of your units to order it.".into(),
                Phase::Retreat => "Click a dislodged unit, then where it retreats.".into(),
                Phase::Adjustment => {
                    "Click a home centre to build in, or one of your units to disband it.".into()
                }
                Phase::GameOver { .. } => String::new(),
            },
            (Some(s), _) if self.game.phase == Phase::Adjustment => format!(
                "Build in {}: choose the unit below (for a fleet on a two-coast province, click a coast).",
                map.loc_name(s)
            ),
            (Some(s), Mode::Coast(p)) => format!(
                "{}: which coast of {}? A fleet sails to one coast of it: choose below, or click the coast's circle on the map.",
                map.loc_name(s),
                map.provinces[p as usize].name
            ),
            (Some(s), Mode::Move) if self.game.phase == Phase::Retreat => {
                let open: Vec<String> = self
                    .game
                    .dislodged
                    .iter()
                    .find(|d| d.piece.loc == s)
                    .map(|d| self.game.retreat_choices(d))
                    .unwrap_or_default()
                    .into_iter()
                    .map(|l| map.loc_name(l))
                    .collect();
                if open.is_empty() {
                    format!("{}: nowhere to retreat to; disband it.", map.loc_name(s))
                } else {
                    format!(
                        "{}: click where it retreats ({}), or disband it.",
                        map.loc_name(s),
                        open.join(", ")
                    )
                }
            }
            (Some(s), Mode::Move) => format!(
                "{}: click a highlighted province to move there, click the unit again to hold, or choose an order below.",
                map.loc_name(s)
            ),
            (Some(_), Mode::SupportPick | Mode::ConvoyPick | Mode::CombinePick)
                if self.targets().is_empty() =>
            {
                match self.mode {
                    Mode::SupportPick => "Support: no unit is in reach of this one to support. Cancel, or order it otherwise.",
                    Mode::ConvoyPick => "Convoy: no army on a coast that this fleet and the fleets at sea joined to it could carry. Cancel, or order it otherwise.",
                    _ => "Combine: no unit of yours of the same kind in reach to merge into. Cancel, or order it otherwise.",
                }
                .into()
            }
            (Some(_), Mode::SupportPick) => {
                "Support: click the unit to support (the highlighted units are in reach).".into()
            }
            (Some(_), Mode::SupportTo(t)) => format!(
                "Support {}: click where it moves (highlighted: where both units can go), or click it again to support it holding.",
                map.loc_name(t)
            ),
            (Some(_), Mode::ConvoyPick) => {
                "Convoy: click the army to carry (highlighted).".into()
            }
            (Some(_), Mode::ConvoyTo(a)) => format!(
                "Convoy {}: click its destination (highlighted: the coasts the fleets at sea can carry it to).",
                map.loc_name(a)
            ),
            (Some(s), Mode::CombinePick) => format!(
                "Combine {}: click the neighbouring unit of yours it merges into.",
                map.loc_name(s)
            ),
        }
    }

    pub fn is_sea(&self, p: ProvinceId) -> bool {
        self.map().provinces[p as usize].kind == ProvinceKind::Sea
    }

    /// What the map highlights for the order being entered: where the selected unit may move or
    /// retreat, the units it may support or convoy, then where the named unit may go, from the
    /// engine's `legal_targets` (nothing while no unit is selected, and in adjustments, where
    /// the build sites are marked instead).
    pub fn targets(&self) -> Vec<Loc> {
        let (Stage::Enter(_), Some(sel)) = (self.stage, self.sel) else {
            return vec![];
        };
        if !matches!(self.game.phase, Phase::Movement | Phase::Retreat) {
            return vec![];
        }
        let kind = match self.mode {
            Mode::Move => OrderKind::Move,
            Mode::SupportPick => OrderKind::SupportUnit,
            Mode::SupportTo(t) => OrderKind::SupportTo {
                supported: t.province,
            },
            Mode::ConvoyPick => OrderKind::ConvoyArmy,
            Mode::ConvoyTo(a) => OrderKind::ConvoyTo { army: a.province },
            Mode::CombinePick => OrderKind::Combine,
            Mode::Coast(p) => {
                // Only the coasts asked about.
                let mut t = self.game.legal_targets(sel.province, OrderKind::Move);
                t.retain(|l| l.province == p);
                return t;
            }
        };
        self.game.legal_targets(sel.province, kind)
    }

    /// What a tap on `loc` means for the move (or retreat) of power `p`'s selected `unit`,
    /// decided from the engine's `legal_targets`: a place it may go is taken (a province's only
    /// coast it can reach, for a fleet; an army ignores coasts); a province with two coasts it
    /// can reach asks which; another unit of the player's that it cannot move to is selected
    /// instead; anything else is refused, saying why and where it may go. (An army's move by
    /// convoy is among the engine's places when fleets at sea could carry it.)
    pub fn move_tap(&self, p: PowerId, unit: Piece, loc: Loc) -> MoveTap {
        let legal = self.game.legal_targets(unit.loc.province, OrderKind::Move);
        let loc = match unit.kind {
            UnitType::Army => Loc::new(loc.province),
            UnitType::Fleet => loc,
        };
        if legal.contains(&loc) {
            return MoveTap::Go(loc);
        }
        let coasts: Vec<Loc> = legal
            .iter()
            .copied()
            .filter(|l| l.province == loc.province)
            .collect();
        match (loc.coast, coasts.as_slice()) {
            (None, [one]) => return MoveTap::Go(*one),
            (None, [_, _, ..]) => return MoveTap::Coast(loc.province),
            _ => {}
        }
        if let Some(u) = self
            .orderable(p)
            .into_iter()
            .find(|u| u.loc.province == loc.province)
        {
            return MoveTap::Select(u.loc);
        }
        MoveTap::Refuse(self.refusal(unit, loc, &legal))
    }

    /// Why `unit` may not move (or retreat) to `to`, and where it may (`legal`), in words.
    fn refusal(&self, unit: Piece, to: Loc, legal: &[Loc]) -> String {
        let map = self.map();
        let kind_of = |p: ProvinceId| map.provinces[p as usize].kind;
        let place = |l: Loc| {
            let prov = &map.provinces[l.province as usize];
            let the = if prov.kind == ProvinceKind::Sea {
                "the "
            } else {
                ""
            };
            match l.coast {
                Some(c) => format!("{the}{}'s {}", prov.name, coast_word(c).to_lowercase()),
                None => format!("{the}{}", prov.name),
            }
        };
        let here = map.provinces[unit.loc.province as usize].name.clone();
        let what = match unit.kind {
            UnitType::Army => "army",
            UnitType::Fleet => "fleet",
        };
        let retreat = self.game.phase == Phase::Retreat;
        let why = match (unit.kind, kind_of(to.province)) {
            (UnitType::Army, ProvinceKind::Sea) => "armies stay on land".to_string(),
            (UnitType::Fleet, ProvinceKind::Land) => {
                "fleets stay at sea and along the coasts".to_string()
            }
            _ if retreat => "a retreat goes one step, into an empty province that the attack did \
                 not come from and that no bounce left empty"
                .to_string(),
            (UnitType::Fleet, _) if to.coast.is_some() => {
                "that coast is not one sea step from where the fleet is".to_string()
            }
            (UnitType::Fleet, _) => {
                format!("a fleet moves one step, to a sea or a coast that {here} touches by water")
            }
            (UnitType::Army, _)
                if kind_of(unit.loc.province) == ProvinceKind::Coast
                    && kind_of(to.province) == ProvinceKind::Coast =>
            {
                format!(
                    "it is not next to {here}, and no fleets at sea now could carry it there \
                     (a convoy)"
                )
            }
            (UnitType::Army, _) => format!("it is not next to {here}: a unit moves one step"),
        };
        let verb = if retreat { "retreat" } else { "go" };
        let names: Vec<String> = legal.iter().map(|&l| place(l)).collect();
        let then = match (names.as_slice(), retreat) {
            ([], true) => "It has nowhere to retreat to: press Disband.".to_string(),
            ([], false) => {
                "It can't move anywhere now: tap it again to hold, or give it another order."
                    .to_string()
            }
            ([one], _) => format!("It can {verb} to {one} (highlighted)."),
            ([rest @ .., last], _) => format!(
                "It can {verb} to {} or {last} (highlighted).",
                rest.join(", ")
            ),
        };
        format!(
            "The {what} in {here} can't {verb} to {}: {why}. {then}",
            place(to)
        )
    }

    /// The coasts the selected fleet is asked to choose between, with their words ("North
    /// coast"), while a move into a province with two coasts waits for one.
    pub fn coast_choices(&self) -> Vec<(Loc, &'static str)> {
        if !matches!(self.mode, Mode::Coast(_)) {
            return vec![];
        }
        self.targets()
            .into_iter()
            .filter_map(|l| Some((l, coast_word(l.coast?))))
            .collect()
    }

    /// "3 of 5 units ordered" for power `p` at the device (in a retreat phase "1 of 1 retreat
    /// ordered", in adjustments "1 of 2 builds chosen" or disbands).
    pub fn progress(&self, p: PowerId) -> String {
        let plural = |n: usize, one: &str, many: &str| {
            if n == 1 {
                one.to_string()
            } else {
                many.to_string()
            }
        };
        let units: Vec<ProvinceId> = self.orderable(p).iter().map(|u| u.loc.province).collect();
        match self.game.phase {
            Phase::Adjustment => {
                let due = self.game.adjustment(p);
                let builds = due > 0;
                let done = self
                    .draft
                    .iter()
                    .filter(|w| {
                        if builds {
                            matches!(w.spec, Spec::Build | Spec::BuildFacing { .. })
                        } else {
                            w.spec == Spec::Disband
                        }
                    })
                    .count();
                let n = due.unsigned_abs() as usize;
                let what = if builds {
                    plural(n, "build", "builds")
                } else {
                    plural(n, "disband", "disbands")
                };
                format!("{done} of {n} {what} chosen")
            }
            phase => {
                let done = self
                    .draft
                    .iter()
                    .filter(|w| units.contains(&w.at.province))
                    .count();
                let n = units.len();
                let what = if phase == Phase::Retreat {
                    plural(n, "retreat", "retreats")
                } else {
                    plural(n, "unit", "units")
                };
                format!("{done} of {n} {what} ordered")
            }
        }
    }

    /// A province's `tabindex` on the map: one tab stop (the selected province, else each unit
    /// the player can order, else the first province); arrows reach the rest. (Here rather than
    /// in `map`, which both map drawings use, so that `regions` need not import `map`.)
    pub fn tab_stop(&self, selectable: &[u8], id: u8) -> &'static str {
        let stop = match self.sel {
            Some(l) => l.province == id,
            None if !selectable.is_empty() => selectable.contains(&id),
            None => id == 0,
        };
        if stop {
            "0"
        } else {
            "-1"
        }
    }
}
