//! How a classic game is won: world domination or a secret mission, and the mission deck.

use super::*;

const CONTINENT_PAIRS: [(&str, &str); 6] = [
    ("asia", "south_america"),
    ("asia", "africa"),
    ("north_america", "africa"),
    ("north_america", "australia"),
    ("europe", "south_america"),
    ("europe", "australia"),
];

impl ClassicState {
    pub(super) fn mission_done(&self, p: PlayerId, m: Mission) -> bool {
        match m {
            Mission::Destroy(c) => self.players.iter().any(|q| q.colour == c && !q.alive),
            Mission::Continents(a, b) => {
                self.owns_continent(p, a as usize) && self.owns_continent(p, b as usize)
            }
            Mission::Territories(n) => self.territory_count(p) >= u32::from(n),
        }
    }

    pub(super) fn win(&mut self, p: PlayerId, reason: WinReason, ev: &mut Vec<Event>) {
        self.phase = Phase::GameOver { winner: p };
        ev.push(Event::Won { player: p, reason });
    }

    /// After a conquest: domination, last standing, and missions (current player first).
    pub(super) fn check_winners(&mut self, ev: &mut Vec<Event>) -> bool {
        let me = self.current;
        if self.owner.iter().all(|o| *o == Owner::Player(me)) {
            self.win(me, WinReason::Domination, ev);
            return true;
        }
        if self.players.iter().filter(|p| p.alive).count() == 1 {
            self.win(me, WinReason::LastStanding, ev);
            return true;
        }
        if !self.options.missions {
            return false;
        }
        let n = self.players.len();
        for k in 0..n {
            let p = ((me as usize + k) % n) as PlayerId;
            let pl = &self.players[p as usize];
            let Some(m) = pl.mission else { continue };
            if !pl.alive {
                continue;
            }
            let done = self.mission_done(p, m);
            let immediate =
                !self.options.hold_mission_full_round || matches!(m, Mission::Destroy(_));
            if done && immediate {
                self.win(p, WinReason::Mission(m), ev);
                return true;
            }
            let turn = self.turn;
            let pl = &mut self.players[p as usize];
            pl.mission_since = if done {
                pl.mission_since.or(Some(turn))
            } else {
                None
            };
        }
        false
    }
}

/// The mission cards shuffled and dealt for a game of these colours: a "destroy" card per colour
/// (per colour at the table with [`MissionDeck::WithoutAbsentColours`]), the continent pairs the
/// map has, and "24 territories".
pub fn mission_cards(map: &Map, deck: MissionDeck, colours: &[Colour]) -> Vec<Mission> {
    let mut cards: Vec<Mission> = Colour::ALL
        .iter()
        .filter(|c| deck == MissionDeck::AbsentAsTerritories || colours.contains(c))
        .map(|&c| Mission::Destroy(c))
        .collect();
    for (a, b) in CONTINENT_PAIRS {
        if let (Some(x), Some(y)) = (
            map.continents.iter().position(|c| c.key == a),
            map.continents.iter().position(|c| c.key == b),
        ) {
            cards.push(Mission::Continents(x as u8, y as u8));
        }
    }
    cards.push(Mission::Territories(24));
    cards
}
