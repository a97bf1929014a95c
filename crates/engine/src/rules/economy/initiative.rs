//! Initiative for a combat phase of the economy ruleset (source 004): who picks the order in
//! which battles are fought and which declared action resolves first.
//!
//! "Each player rolls 1d6, the winner wins initiative. If there is a tie for winner, the players
//! that tied must roll again until a winner is identified." Capitals change who may hold it:
//! players without one cannot; when one of them would win, initiative stays with whoever held it
//! last; if nobody did, the players with a capital roll for it; and if no player has a capital,
//! anyone may hold it.
//!
//! Invariant: the holder is a player passed in, and has a capital whenever any player has one.

use crate::dice::Dice;
use crate::rules::classic::PlayerId;

/// A player taking part in the roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contender {
    pub player: PlayerId,
    pub has_capital: bool,
}

/// The dice rolled for initiative (each roll-off in order) and its outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Initiative {
    /// Every roll-off: the players who rolled and their dice. The first is everyone's roll;
    /// later ones are re-rolls between tied players, or the roll among players with a capital.
    pub rolls: Vec<Vec<(PlayerId, u8)>>,
    pub holder: PlayerId,
    /// The roll went to a player without a capital, so initiative stayed with its last holder.
    pub kept: bool,
}

/// Rolls among `players` until one alone has the highest die.
fn roll_off(
    players: &[PlayerId],
    dice: &mut dyn Dice,
    rolls: &mut Vec<Vec<(PlayerId, u8)>>,
) -> PlayerId {
    let mut left = players.to_vec();
    loop {
        let round: Vec<(PlayerId, u8)> = left.iter().map(|&p| (p, dice.d6())).collect();
        let top = round.iter().map(|&(_, d)| d).max().unwrap_or(0);
        left = round
            .iter()
            .filter(|&&(_, d)| d == top)
            .map(|&(p, _)| p)
            .collect();
        rolls.push(round);
        if left.len() == 1 {
            return left[0];
        }
    }
}

/// Rolls for initiative among `players` (in seat order), `previous` being who held it last.
/// `None` when there is nobody to roll.
pub fn roll(
    players: &[Contender],
    previous: Option<PlayerId>,
    dice: &mut dyn Dice,
) -> Option<Initiative> {
    if players.is_empty() {
        return None;
    }
    let all: Vec<PlayerId> = players.iter().map(|c| c.player).collect();
    let capitals: Vec<PlayerId> = players
        .iter()
        .filter(|c| c.has_capital)
        .map(|c| c.player)
        .collect();
    let mut rolls = Vec::new();
    let winner = roll_off(&all, dice, &mut rolls);
    if capitals.is_empty() || capitals.contains(&winner) {
        return Some(Initiative {
            rolls,
            holder: winner,
            kept: false,
        });
    }
    if let Some(p) = previous.filter(|p| capitals.contains(p)) {
        return Some(Initiative {
            rolls,
            holder: p,
            kept: true,
        });
    }
    let holder = roll_off(&capitals, dice, &mut rolls);
    Some(Initiative {
        rolls,
        holder,
        kept: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dice that show the given faces in order.
    struct Faces(Vec<u8>);

    impl Dice for Faces {
        fn next_u32(&mut self) -> u32 {
            unreachable!("d6 is overridden")
        }
        fn d6(&mut self) -> u8 {
            self.0.remove(0)
        }
    }

    fn c(player: PlayerId, has_capital: bool) -> Contender {
        Contender {
            player,
            has_capital,
        }
    }

    #[test]
    fn the_highest_die_wins() {
        let i = roll(
            &[c(0, true), c(1, true), c(2, true)],
            None,
            &mut Faces(vec![3, 5, 2]),
        )
        .unwrap();
        assert_eq!(i.holder, 1);
        assert_eq!(i.rolls, vec![vec![(0, 3), (1, 5), (2, 2)]]);
        assert!(!i.kept);
    }

    #[test]
    fn only_the_tied_roll_again() {
        let i = roll(
            &[c(0, true), c(1, true), c(2, true)],
            None,
            &mut Faces(vec![6, 2, 6, 4, 4, 1, 5]),
        )
        .unwrap();
        assert_eq!(i.holder, 2);
        assert_eq!(
            i.rolls,
            vec![
                vec![(0, 6), (1, 2), (2, 6)],
                vec![(0, 4), (2, 4)],
                vec![(0, 1), (2, 5)]
            ]
        );
    }

    #[test]
    fn without_a_capital_it_stays_with_the_last_holder() {
        let i = roll(
            &[c(0, true), c(1, false), c(2, true)],
            Some(2),
            &mut Faces(vec![1, 6, 3]),
        )
        .unwrap();
        assert_eq!((i.holder, i.kept), (2, true));
    }

    #[test]
    fn without_a_last_holder_the_players_with_a_capital_roll() {
        // Nobody held it, or its last holder has lost its capital too.
        for previous in [None, Some(1)] {
            let i = roll(
                &[c(0, true), c(1, false), c(2, true)],
                previous,
                &mut Faces(vec![1, 6, 3, 2, 5]),
            )
            .unwrap();
            assert_eq!((i.holder, i.kept), (2, false));
            assert_eq!(i.rolls[1], vec![(0, 2), (2, 5)]);
        }
    }

    #[test]
    fn when_nobody_has_a_capital_anyone_may_hold_it() {
        let i = roll(&[c(0, false), c(1, false)], Some(0), &mut Faces(vec![2, 4])).unwrap();
        assert_eq!((i.holder, i.kept), (1, false));
    }

    #[test]
    fn nobody_to_roll() {
        assert_eq!(roll(&[], None, &mut Faces(vec![])), None);
    }

    #[test]
    fn seeded_rolls_always_end_with_a_holder_who_may_hold_it() {
        let mut d = crate::dice::SeededDice::new([7; 32]);
        for k in 0..500u32 {
            let players: Vec<Contender> = (0..6).map(|p| c(p, (k >> p) & 1 == 1)).collect();
            let i = roll(&players, Some((k % 6) as PlayerId), &mut d).unwrap();
            let any_capital = players.iter().any(|p| p.has_capital);
            assert!(
                !any_capital || players[i.holder as usize].has_capital,
                "{k}: {i:?}"
            );
        }
    }
}
