//! The adjudicator on maps that are not Europe: it only sees the [`Geography`].
use super::*;

/// Land provinces 0..n in a ring (each borders its two neighbours), plus sea `n` touching all.
struct Ring(u8);

impl Geography for Ring {
    fn can_move(&self, kind: UnitType, from: Loc, to: Loc) -> bool {
        let n = self.0;
        let (a, b) = (from.province, to.province);
        match kind {
            UnitType::Army => a < n && b < n && ((a + 1) % n == b || (b + 1) % n == a),
            UnitType::Fleet => (a == n) != (b == n),
        }
    }
    fn can_reach(&self, kind: UnitType, from: Loc, to: Province) -> bool {
        self.can_move(kind, from, Loc::new(to))
    }
    fn is_sea(&self, p: Province) -> bool {
        p == self.0
    }
    fn is_land(&self, p: Province) -> bool {
        p < self.0
    }
    fn is_coastal(&self, p: Province) -> bool {
        p < self.0
    }
    fn touches(&self, a: Province, b: Province) -> bool {
        (a == self.0) != (b == self.0) && a <= self.0 && b <= self.0
    }
}

fn army(power: u8, p: Province) -> Piece {
    Piece::new(power, UnitType::Army, Loc::new(p))
}

fn mv(p: Province) -> Order {
    Order::Move {
        to: Loc::new(p),
        via_convoy: false,
    }
}

#[test]
fn circular_movement_on_a_ring() {
    let g = Ring(5);
    let units = [army(0, 0), army(1, 1), army(2, 2)];
    // 0 -> 1 -> 2 -> 0 is not a circle on a ring of 5 (2 and 0 do not border), so 2's move is
    // void and the others bounce behind it.
    let r = adjudicate(&g, &units, &[mv(1), mv(2), mv(0)]);
    assert_eq!(
        r.outcomes,
        [Outcome::Bounce, Outcome::Bounce, Outcome::Void]
    );
    let g = Ring(3);
    let r = adjudicate(&g, &units, &[mv(1), mv(2), mv(0)]);
    assert_eq!(r.outcomes, [Outcome::Ok; 3]);
    assert_eq!(
        r.moved_to,
        [Some(Loc::new(1)), Some(Loc::new(2)), Some(Loc::new(0))]
    );
}

#[test]
fn supported_attack_dislodges_and_records_the_attacker() {
    let g = Ring(6);
    let units = [army(0, 0), army(0, 2), army(1, 1)];
    let r = adjudicate(
        &g,
        &units,
        &[
            mv(1),
            Order::SupportMove {
                from: 0,
                to: 1,
                coast: None,
            },
            Order::Hold,
        ],
    );
    assert_eq!(r.outcomes, [Outcome::Ok, Outcome::Ok, Outcome::Dislodged]);
    assert_eq!(r.dislodged_by[2], Some((0, false)));
}

#[test]
fn convoy_across_the_sea_and_stand_off() {
    let g = Ring(6);
    let fleet = Piece::new(0, UnitType::Fleet, Loc::new(6));
    let units = [army(0, 0), fleet, army(1, 4)];
    let r = adjudicate(
        &g,
        &units,
        &[mv(3), Order::Convoy { from: 0, to: 3 }, mv(3)],
    );
    // Both reach province 3 with strength 1: a stand-off that leaves 3 contested.
    assert_eq!(r.outcomes, [Outcome::Bounce, Outcome::Ok, Outcome::Bounce]);
    assert_eq!(r.contested, [3]);
    let r = adjudicate(&g, &units, &[mv(3), Order::Hold, Order::Hold]);
    assert_eq!(r.outcomes[0], Outcome::NoConvoy);
}
