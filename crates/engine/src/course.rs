//! The course of a game, per player, read off its history (the start state and the actions
//! applied since, replayed with `apply`): what the statistics charts draw. Nothing is kept in
//! any game state, so saves and state hashes are untouched.
//!
//! A sample is taken each time the game's clock moves on (a classic turn, an economy round, an
//! orders year) with the state as the previous one ended, and one more of the state reached
//! (the game's end, or where it stands now). Every value is an integer.

use crate::rules::classic::{Action, ClassicState};
use crate::rules::orders::{OrdersAction, OrdersState};

/// What a ruleset's state reports to a [`Recorder`].
pub trait Tallied: Clone {
    type Action;
    /// Replays one action; `false` when the engine refuses it (the course stops there).
    fn step(&mut self, a: &Self::Action) -> bool;
    /// The game's clock: classic turns started, economy rounds started, the orders year.
    fn clock(&self) -> u32;
    /// Number of players (orders: powers of the map).
    fn players(&self) -> usize;
    /// Player `p`'s measures now, in the ruleset's order (see each implementation).
    fn tally(&self, p: usize) -> Vec<u32>;
}

/// Samples of every measure of every player.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Course {
    /// The clock at each sample: the turn, round or year that had ended (or, for the last
    /// sample, the one under way).
    pub at: Vec<u32>,
    /// `lines[m][p][i]`: measure `m` of player `p` at sample `i`.
    pub lines: Vec<Vec<Vec<u32>>>,
}

impl Course {
    fn push<S: Tallied>(&mut self, at: u32, s: &S) {
        let tallies: Vec<Vec<u32>> = (0..s.players()).map(|p| s.tally(p)).collect();
        self.push_tallies(at, &tallies);
    }

    /// A sample of every player's measures (`tallies[p][m]`).
    fn push_tallies(&mut self, at: u32, tallies: &[Vec<u32>]) {
        self.at.push(at);
        for (p, t) in tallies.iter().enumerate() {
            for (m, &v) in t.iter().enumerate() {
                if self.lines.len() <= m {
                    self.lines.push(vec![vec![]; tallies.len()]);
                }
                self.lines[m][p].push(v);
            }
        }
    }

    /// The largest value of measure `m` (0 for none).
    pub fn max(&self, m: usize) -> u32 {
        self.lines
            .get(m)
            .into_iter()
            .flatten()
            .flatten()
            .copied()
            .max()
            .unwrap_or(0)
    }
}

/// Replays a history action by action and samples it; fed more actions as the game goes on,
/// so a page replays each action once.
#[derive(Clone, Debug)]
pub struct Recorder<S> {
    state: S,
    course: Course,
    /// Actions applied so far.
    pub applied: usize,
    /// The last action moved the clock on (the state is already sampled).
    fresh: bool,
    /// An action was refused: nothing more is applied.
    stopped: bool,
}

impl<S: Tallied> Recorder<S> {
    pub fn new(start: S) -> Recorder<S> {
        Recorder {
            state: start,
            course: Course::default(),
            applied: 0,
            fresh: false,
            stopped: false,
        }
    }

    /// Applies `a`, sampling the state when the clock moves on; `false` once refused.
    pub fn feed(&mut self, a: &S::Action) -> bool {
        let before = self.state.clock();
        if self.stopped || !self.state.step(a) {
            self.stopped = true;
            return false;
        }
        self.applied += 1;
        self.fresh = self.state.clock() != before;
        if self.fresh {
            self.course.push(before, &self.state);
        }
        true
    }

    /// Applies every action of `actions` after the ones already applied (a history that grew).
    pub fn catch_up(&mut self, actions: &[S::Action]) {
        for a in actions.iter().skip(self.applied) {
            if !self.feed(a) {
                break;
            }
        }
    }

    /// The state reached.
    pub fn state(&self) -> &S {
        &self.state
    }

    /// The samples so far, with the state reached as the last one (unless the last action
    /// just sampled it).
    pub fn course(&self) -> Course {
        let mut c = self.course.clone();
        if !self.fresh || c.at.is_empty() {
            c.push(self.state.clock(), &self.state);
        }
        c
    }
}

/// Samples a game from its states as they come, one after each move, when its actions alone do
/// not replay it (an online game: its dice are the table's, drawn from the beacon). The samples
/// are `Recorder`'s: the state as each clock value ended, then the state reached.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sampler {
    course: Course,
    /// The clock and the tallies of the last state observed.
    last: Option<(u32, Vec<Vec<u32>>)>,
    /// The last state observed moved the clock on (it is already sampled).
    fresh: bool,
}

impl Sampler {
    /// Notes the state after one more move (or after several: a state between is then not
    /// seen, and the sample of a clock value that ended is the first state after it).
    pub fn observe<S: Tallied>(&mut self, s: &S) {
        let clock = s.clock();
        let tallies: Vec<Vec<u32>> = (0..s.players()).map(|p| s.tally(p)).collect();
        self.fresh = false;
        if let Some((before, _)) = &self.last {
            if *before != clock {
                self.course.push_tallies(*before, &tallies);
                self.fresh = true;
            }
        }
        self.last = Some((clock, tallies));
    }

    /// The samples so far, with the last state observed as the last one.
    pub fn course(&self) -> Course {
        let mut c = self.course.clone();
        if let Some((clock, tallies)) = &self.last {
            if !self.fresh || c.at.is_empty() {
                c.push_tallies(*clock, tallies);
            }
        }
        c
    }
}

/// The course of a game known by its states, the start first (an online game's positions).
pub fn sampled<'a, S: Tallied + 'a>(states: impl IntoIterator<Item = &'a S>) -> Course {
    let mut r = Sampler::default();
    for s in states {
        r.observe(s);
    }
    r.course()
}

/// The course of a whole history: `start`, then `actions` until one is refused.
pub fn replay<S: Tallied>(start: S, actions: &[S::Action]) -> Course {
    let mut r = Recorder::new(start);
    r.catch_up(actions);
    r.course()
}

/// Classic: territories, armies on the board, and the armies a turn starting now would bring
/// (territories and continents, without cards). A player out of the game has none.
impl Tallied for ClassicState {
    type Action = Action;
    fn step(&mut self, a: &Action) -> bool {
        self.apply(a).is_ok()
    }
    fn clock(&self) -> u32 {
        self.turn
    }
    fn players(&self) -> usize {
        self.players.len()
    }
    fn tally(&self, p: usize) -> Vec<u32> {
        let id = p as crate::classic::PlayerId;
        let territories = self.territory_count(id);
        let armies = self
            .territories_of(id)
            .map(|t| self.armies[t as usize])
            .sum();
        let income = if self.players[p].alive && territories > 0 {
            let (base, bonus) = self.reinforcements(id);
            base + bonus
        } else {
            0
        };
        vec![territories, armies, income]
    }
}

/// Orders: supply centres and units of each power of the map.
impl Tallied for OrdersState {
    type Action = OrdersAction;
    fn step(&mut self, a: &OrdersAction) -> bool {
        self.apply(a).is_ok()
    }
    fn clock(&self) -> u32 {
        u32::from(self.year)
    }
    fn players(&self) -> usize {
        self.map().powers.len()
    }
    fn tally(&self, p: usize) -> Vec<u32> {
        let power = p as crate::rules::orders::map::PowerId;
        let units = self.units.iter().filter(|u| u.power == power).count();
        vec![self.centre_count(power) as u32, units as u32]
    }
}

/// Economy: countries owned, units in play and income (before upkeep) per round.
#[cfg(feature = "economy")]
impl Tallied for crate::rules::economy::state::EconomyState {
    type Action = crate::rules::economy::action::EconomyAction;
    fn step(&mut self, a: &Self::Action) -> bool {
        self.apply(a).is_ok()
    }
    fn clock(&self) -> u32 {
        self.round
    }
    fn players(&self) -> usize {
        self.players.len()
    }
    fn tally(&self, p: usize) -> Vec<u32> {
        use crate::rules::economy::map::EconomyMap;
        let map = EconomyMap::get();
        let id = p as crate::classic::PlayerId;
        let countries = (0..map.countries())
            .filter(|&r| self.regions[r].owner == Some(id))
            .count() as u32;
        vec![
            countries,
            self.units_in_play(id),
            self.income(map, id).total(),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::{BotLevel, ClassicOptions, Colour, Phase, SeatConfig, SeatKind};
    use crate::rules::orders::Phase as OrdersPhase;

    /// Checks what every course keeps: one sample per clock value, in order, every line as
    /// long as `at`, and the last sample the tally of the state reached (labelled with the
    /// clock it ended, or the one under way).
    fn check<S: Tallied>(c: &Course, end: &S) {
        assert!(c.at.windows(2).all(|w| w[0] < w[1]), "{:?}", c.at);
        assert!(*c.at.last().unwrap() <= end.clock());
        for p in 0..end.players() {
            let last: Vec<u32> = c.lines.iter().map(|m| *m[p].last().unwrap()).collect();
            assert_eq!(last, end.tally(p));
            assert!(c.lines.iter().all(|m| m[p].len() == c.at.len()));
        }
    }

    #[test]
    fn a_classic_game_is_sampled_at_every_turn() {
        let seats = [Colour::Red, Colour::Blue, Colour::Green]
            .iter()
            .map(|&c| SeatConfig {
                name: c.name().into(),
                colour: c,
                kind: SeatKind::Bot(BotLevel::Normal),
            })
            .collect();
        let start = ClassicState::new(seats, ClassicOptions::default(), [7; 32]).unwrap();
        let (mut s, mut actions) = (start.clone(), vec![]);
        while !matches!(s.phase, Phase::GameOver { .. }) {
            let a = crate::bot::choose(&s, BotLevel::Normal).unwrap();
            s.apply(&a).unwrap();
            actions.push(a);
        }
        let c = replay(start.clone(), &actions);
        check(&c, &s);
        // Sample 0 is the board after the setup; then one sample after every turn.
        let last = *c.at.last().unwrap();
        assert!(last + 1 >= s.turn);
        assert_eq!(c.at, (0..=last).collect::<Vec<_>>());
        assert_eq!(c.lines.len(), 3);
        for i in 0..c.at.len() {
            let held: u32 = c.lines[0].iter().map(|l| l[i]).sum();
            assert_eq!(held, 42, "every territory is held at sample {i}");
        }
        // The winner holds the world; the others have nothing left.
        let w = s.winner().unwrap() as usize;
        assert_eq!(*c.lines[0][w].last().unwrap(), 42);
        for p in (0..3).filter(|&p| p != w) {
            assert_eq!(
                c.lines.iter().map(|m| *m[p].last().unwrap()).sum::<u32>(),
                0
            );
        }
        // After the setup every player had its 35 armies on the board (three players).
        assert!(c.lines[1].iter().all(|l| l[0] == 35), "{:?}", c.lines[1]);
        // Fed as the game goes, with a look at the course between, it is the same course.
        let start_again = start.clone();
        let mut r = Recorder::new(start);
        for (i, a) in actions.iter().enumerate() {
            assert!(r.feed(a));
            if i % 97 == 0 {
                check(&r.course(), r.state());
            }
        }
        assert_eq!(r.course(), c);
        // Known by its states (an online game's positions), the same course.
        let mut states = vec![start_again.clone()];
        for a in &actions {
            let mut next = states.last().unwrap().clone();
            next.apply(a).unwrap();
            states.push(next);
        }
        assert_eq!(sampled(&states), c);
        // A refused action stops the course where it stood.
        let mut r2 = Recorder::new(s.clone());
        assert!(!r2.feed(&actions[0]));
        assert_eq!(r2.course().at, vec![s.turn]);
    }

    #[test]
    fn an_orders_game_is_sampled_every_year() {
        let mut s = OrdersState::new_for("europe-1901", Default::default(), 7).unwrap();
        let start = s.clone();
        let bots: Vec<_> = (0..7).map(|p| (p, BotLevel::Normal)).collect();
        let mut actions = vec![];
        let mut phase = 0u32;
        while !matches!(s.phase, OrdersPhase::GameOver { .. }) && s.year <= 1905 {
            let salt = crate::sim::orders_salt([3; 32], phase);
            for a in crate::bot::orders::phase_actions(&s, &bots, &salt) {
                s.apply(&a).unwrap();
                actions.push(a);
            }
            s.apply(&OrdersAction::Adjudicate).unwrap();
            actions.push(OrdersAction::Adjudicate);
            phase += 1;
        }
        let c = replay(start, &actions);
        check(&c, &s);
        // The last adjudication, the winter of 1905, ended that year.
        assert_eq!(c.at, vec![1901, 1902, 1903, 1904, 1905]);
        // Each power starts with its 3 (Russia 4) home centres and takes more in 1901.
        let after_1901: u32 = c.lines[0].iter().map(|l| l[0]).sum();
        assert!((23..=34).contains(&after_1901), "{after_1901}");
        for p in 0..7 {
            assert!(c.lines[0][p].iter().all(|&n| n <= 18));
        }
    }

    #[cfg(feature = "economy")]
    #[test]
    fn an_economy_game_is_sampled_every_round() {
        use crate::rules::economy::options::EconomyOptions;
        use crate::rules::economy::state::EconomyState;
        let options = EconomyOptions {
            round_limit: Some(4),
            ..EconomyOptions::default()
        };
        let (mut s, _) = EconomyState::new(&["A", "B", "C"], options, [9; 32]).unwrap();
        let start = s.clone();
        let mut actions = vec![];
        while s.phase != crate::rules::economy::phase::Phase::Over {
            let p = s.to_act()[0];
            let a = crate::bot::economy::choose(&s, p, BotLevel::Normal).unwrap();
            s.apply(&a).unwrap();
            actions.push(a);
        }
        let c = replay(start, &actions);
        check(&c, &s);
        assert_eq!(c.lines.len(), 3);
        assert_eq!(c.at[0], 0, "the setup, then one sample per round");
        // After the setup every player holds countries, units and an income.
        for m in 0..3 {
            assert!(
                c.lines[m].iter().all(|l| l[0] > 0),
                "measure {m}: {:?}",
                c.lines[m]
            );
        }
    }
}
