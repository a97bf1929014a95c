//! One roll of a battle in the economy ruleset: each side rolls 1d6, modifiers are added, the
//! lower total loses and equal totals both lose (source 004, "Each player rolls 1d6"). This
//! module owns the modifiers and the defender's 6; which units fight, and what a loss costs,
//! belong to the battle that calls it.
//!
//! Invariant: [`resolve`] depends only on the two [`Side`]s it is given, so every peer that
//! agrees on the dice agrees on the outcome.

/// One side of a roll: the die it rolled and what modifies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Side {
    /// The die as rolled, 1 to 6.
    pub die: u8,
    /// Units this side has involved in the battle (for "more units" and "more than twice as many").
    pub units: u32,
    /// Countries this side attacks from, counting friendly units that have held the place under
    /// attack since the planning phase as one more ("+1 for each country above 1").
    pub flanks: u32,
    /// The rolling unit is a defender: it has been in the territory since the beginning of the
    /// planning phase and is not attacking.
    pub defender: bool,
    /// The rolling unit defends in a country with fortifications.
    pub fortified: bool,
    /// The rolling unit is an army attacking a land territory from water.
    pub amphibious: bool,
    /// The rolling unit performs an attacking infrastructure action.
    pub against_infrastructure: bool,
}

impl Side {
    /// A side rolling `die` with `units` units and no other modifier.
    pub fn plain(die: u8, units: u32) -> Side {
        Side {
            die,
            units,
            flanks: 1,
            defender: false,
            fortified: false,
            amphibious: false,
            against_infrastructure: false,
        }
    }
}

/// Who loses a roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Loser {
    First,
    Second,
    /// Equal totals: both sides lose.
    Both,
}

/// One modifier of a roll, as the screens spell it out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Term {
    /// +1: more units involved than the other side.
    MoreUnits,
    /// +2: more than twice as many units.
    MoreThanTwice,
    /// +1 per country attacked from above one.
    Flanks(u32),
    /// +1: a defender.
    Defender,
    /// +1: a defender in fortifications.
    Fortified,
    /// −1: an army attacking a land territory from water.
    Amphibious,
    /// −1: an attack on infrastructure.
    AgainstInfrastructure,
}

impl Term {
    /// What the term adds to the die.
    pub fn value(self) -> i32 {
        match self {
            Term::MoreUnits | Term::Defender | Term::Fortified => 1,
            Term::MoreThanTwice => 2,
            Term::Flanks(n) => n.min(i32::MAX as u32) as i32,
            Term::Amphibious | Term::AgainstInfrastructure => -1,
        }
    }
}

/// `me`'s modifiers against `other`, one by one.
///
/// "+1 if they have more units and +2 if they have more than twice as many": Orbis reads the +2
/// as replacing the +1, not adding to it (RULES.md). A defender in fortifications gets both its
/// +1 as a defender and the fortifications' +1.
pub fn terms(me: &Side, other: &Side) -> Vec<Term> {
    let mut t = vec![];
    if u64::from(me.units) > 2 * u64::from(other.units) {
        t.push(Term::MoreThanTwice);
    } else if me.units > other.units {
        t.push(Term::MoreUnits);
    }
    if me.flanks > 1 {
        t.push(Term::Flanks(me.flanks - 1));
    }
    if me.defender {
        t.push(Term::Defender);
        if me.fortified {
            t.push(Term::Fortified);
        }
    }
    if me.amphibious {
        t.push(Term::Amphibious);
    }
    if me.against_infrastructure {
        t.push(Term::AgainstInfrastructure);
    }
    t
}

/// The sum of `me`'s modifiers against `other` ([`terms`]).
pub fn modifier(me: &Side, other: &Side) -> i32 {
    terms(me, other).into_iter().map(Term::value).sum()
}

/// The outcome of one roll between `a` and `b`.
///
/// "Defenders who roll a 6 automatically win": a defender whose die shows 6 wins whatever the
/// other total. When both sides are defenders and both roll 6, neither wins outright and the
/// totals decide as usual (RULES.md).
pub fn resolve(a: &Side, b: &Side) -> Loser {
    let six = |s: &Side| s.defender && s.die == 6;
    match (six(a), six(b)) {
        (true, false) => return Loser::Second,
        (false, true) => return Loser::First,
        _ => {}
    }
    let ta = i32::from(a.die) + modifier(a, b);
    let tb = i32::from(b.die) + modifier(b, a);
    match ta.cmp(&tb) {
        std::cmp::Ordering::Less => Loser::First,
        std::cmp::Ordering::Greater => Loser::Second,
        std::cmp::Ordering::Equal => Loser::Both,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defender(die: u8, units: u32) -> Side {
        Side {
            defender: true,
            ..Side::plain(die, units)
        }
    }

    #[test]
    fn lower_loses_and_equal_both_lose() {
        assert_eq!(
            resolve(&Side::plain(2, 3), &Side::plain(5, 3)),
            Loser::First
        );
        assert_eq!(
            resolve(&Side::plain(5, 3), &Side::plain(2, 3)),
            Loser::Second
        );
        assert_eq!(resolve(&Side::plain(4, 3), &Side::plain(4, 3)), Loser::Both);
    }

    #[test]
    fn more_units_and_more_than_twice_as_many() {
        let (a, b) = (Side::plain(3, 4), Side::plain(3, 3));
        assert_eq!((modifier(&a, &b), modifier(&b, &a)), (1, 0));
        assert_eq!(resolve(&a, &b), Loser::Second);
        // Exactly twice is "more", not "more than twice".
        assert_eq!(modifier(&Side::plain(1, 6), &Side::plain(1, 3)), 1);
        assert_eq!(modifier(&Side::plain(1, 7), &Side::plain(1, 3)), 2);
        // The +2 replaces the +1.
        assert_eq!(modifier(&Side::plain(1, 100), &Side::plain(1, 1)), 2);
    }

    #[test]
    fn flanks_add_one_per_country_above_one() {
        let a = Side {
            flanks: 3,
            ..Side::plain(2, 2)
        };
        let b = Side::plain(4, 2);
        assert_eq!(modifier(&a, &b), 2);
        assert_eq!(resolve(&a, &b), Loser::Both);
        assert_eq!(modifier(&Side { flanks: 0, ..b }, &a), 0);
    }

    #[test]
    fn defenders_get_one_more_and_fortifications_another() {
        let att = Side::plain(4, 2);
        assert_eq!(modifier(&defender(3, 2), &att), 1);
        assert_eq!(resolve(&att, &defender(3, 2)), Loser::Both);
        let fort = Side {
            fortified: true,
            ..defender(2, 2)
        };
        assert_eq!(modifier(&fort, &att), 2);
        assert_eq!(resolve(&att, &fort), Loser::Both);
        // Fortifications help only a defender.
        assert_eq!(
            modifier(
                &Side {
                    fortified: true,
                    ..att
                },
                &fort
            ),
            0
        );
    }

    #[test]
    fn a_defenders_six_always_wins() {
        // Even against an attacker whose total is higher.
        let strong = Side {
            flanks: 4,
            ..Side::plain(6, 10)
        };
        assert_eq!(resolve(&strong, &defender(6, 1)), Loser::First);
        assert_eq!(resolve(&defender(6, 1), &strong), Loser::Second);
        // An attacker's 6 is just a 6.
        assert_eq!(resolve(&Side::plain(6, 1), &defender(5, 1)), Loser::Both);
        // Two defenders' sixes cancel out: the totals decide.
        assert_eq!(resolve(&defender(6, 3), &defender(6, 1)), Loser::Second);
        assert_eq!(resolve(&defender(6, 2), &defender(6, 2)), Loser::Both);
    }

    #[test]
    fn amphibious_and_infrastructure_attacks_roll_one_less() {
        let b = Side::plain(3, 2);
        let amph = Side {
            amphibious: true,
            ..Side::plain(4, 2)
        };
        assert_eq!(modifier(&amph, &b), -1);
        assert_eq!(resolve(&amph, &b), Loser::Both);
        let infra = Side {
            against_infrastructure: true,
            ..Side::plain(3, 2)
        };
        assert_eq!(resolve(&infra, &b), Loser::First);
    }

    #[test]
    fn every_pair_of_dice_has_one_outcome_and_the_sides_mirror() {
        for da in 1..=6u8 {
            for db in 1..=6u8 {
                for (ua, ub) in [(1, 1), (2, 1), (3, 1), (1, 5)] {
                    for (dfa, dfb) in [(false, false), (true, false), (false, true)] {
                        let a = Side {
                            defender: dfa,
                            ..Side::plain(da, ua)
                        };
                        let b = Side {
                            defender: dfb,
                            ..Side::plain(db, ub)
                        };
                        let mirrored = match resolve(&b, &a) {
                            Loser::First => Loser::Second,
                            Loser::Second => Loser::First,
                            Loser::Both => Loser::Both,
                        };
                        assert_eq!(resolve(&a, &b), mirrored, "{a:?} {b:?}");
                    }
                }
            }
        }
    }
}
