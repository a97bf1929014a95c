//! The economy's round summary (`economy::summary`) checked on the lesson's game: the test
//! lives here because it starts from the lesson's position, and tutorial may import economy,
//! never the other way round (scripts/check-cycles.py).

#[cfg(test)]
mod tests {
    use crate::economy::summary::{words, Tally};
    use crate::tutorial::economy::{r, start};
    use orbis_engine::rules::economy::action::EconomyEvent as E;
    use orbis_engine::rules::economy::battlefield::Site;
    use orbis_engine::rules::economy::phase::Income;

    /// A round's battles and the next round's first events make one line per player; the
    /// next round's own battles start a new tally.
    #[test]
    fn a_round_in_short() {
        let mut g = start();
        let mut t = Tally::default();
        t.record(&g, &[]);
        t.record(
            &g,
            &[E::BattleClosed {
                site: Site::Region(r("ukraine")),
                victories: vec![0],
                losses: vec![],
            }],
        );
        g.round = 2;
        t.record(
            &g,
            &[
                E::RoundBegan { round: 2 },
                E::Gained {
                    player: 0,
                    region: r("ukraine"),
                },
                E::Income {
                    player: 0,
                    income: Income {
                        countries: 3,
                        roads: 1,
                        bonuses: 0,
                    },
                },
                E::UpkeepDue { player: 0, due: 2 },
            ],
        );
        let (round, lines) = t.done.clone().expect("round 1 closed");
        assert_eq!(round, 1);
        assert_eq!(
            words(&lines[&0]),
            "Won 1 battle (Ukraine); gained Ukraine; units 16 → 16; income next round 4 MU; \
             upkeep owed 2 MU."
        );
        assert_eq!(words(&lines[&1]), "No battle; units 5 → 5.");
        assert!(t.lines.values().all(|l| l.won.is_empty()));
    }
}
