//! Helpers shared by the classic rule tests: scripted dice and hand-made boards.
#![allow(dead_code)]

use orbis_engine::dice::Dice;
use orbis_engine::map::Map;
use orbis_engine::rules::classic::*;
use orbis_engine::TerritoryId;

/// Dice that return the listed faces in order (for exact scenarios).
pub struct Faces(pub Vec<u8>);
impl Dice for Faces {
    fn next_u32(&mut self) -> u32 {
        // d6 = below(6) + 1 = x % 6 + 1 for x in the unbiased zone.
        u32::from(self.0.remove(0) - 1)
    }
}

pub fn t(key: &str) -> TerritoryId {
    Map::classic()
        .territory(key)
        .unwrap_or_else(|| panic!("no territory {key}"))
}

pub fn seats(n: usize) -> Vec<SeatConfig> {
    default_seats(n, SeatKind::Human)
}

/// A 3-player game in its first reinforcement phase with a hand-made board: player 0 owns the
/// listed territories, player 1 the rest except player 2's `others`.
pub fn board(
    mine: &[(&str, u32)],
    theirs: &[(&str, u32)],
    options: ClassicOptions,
) -> ClassicState {
    let mut s = ClassicState::new(seats(3), options, [1; 32]).unwrap();
    let n = Map::classic().len();
    for i in 0..n {
        s.owner[i] = Owner::Player(2);
        s.armies[i] = 1;
    }
    for (k, a) in mine {
        s.owner[t(k) as usize] = Owner::Player(0);
        s.armies[t(k) as usize] = *a;
    }
    for (k, a) in theirs {
        s.owner[t(k) as usize] = Owner::Player(1);
        s.armies[t(k) as usize] = *a;
    }
    for p in &mut s.players {
        p.setup_armies = 0;
    }
    s.current = 0;
    s.phase = Phase::Attack;
    s
}

/// The same board in player 0's reinforcement phase with `armies` to place and `hand`.
pub fn in_reinforce(mut s: ClassicState, armies: u32, hand: Vec<CardId>) -> ClassicState {
    s.phase = Phase::Reinforce { armies };
    s.deck.retain(|c| !hand.contains(c));
    s.players[0].hand = hand;
    s
}
