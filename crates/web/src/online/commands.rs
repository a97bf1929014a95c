//! The player's commands on the online screen: proposing a game (classic, or orders with the
//! players' picks of powers), accepting one, asking for one's seat back, voting a seat to the
//! computer, chat. Each goes through the protocol peer and notes what the screen shows.

use super::session::*;
use crate::classic::play::BOT_NAMES;
use orbis_engine::classic::{BotLevel, ClassicOptions, Colour};
use orbis_engine::rules::orders::map::{OrdersMap, PowerId};
use orbis_protocol::{Controller, PeerKey, SeatSpec, SetupProposal};
use std::collections::BTreeMap;

impl Session {
    /// Participants (sorted: the same order on every peer) bound to seats, then bot seats.
    /// `orders`: the orders ruleset on that map (Europe: 7 seats, the others bots; world: the
    /// players and `bots` more seats, 2 to 6).
    pub(super) fn propose_ruleset(&mut self, orders: Option<&str>) {
        let bots = self.bots;
        let Some(map_id) = orders else {
            self.propose();
            return;
        };
        let mut keys = self.next_players();
        let total = seat_count(map_id, keys.len(), bots);
        keys.truncate(total);
        let powers = OrdersMap::get(map_id)
            .map_or(vec![], |m| chosen_powers(m, total, &keys, &self.power_pick));
        let seats: Vec<SeatSpec> = (0..total)
            .map(|i| SeatSpec {
                name: keys
                    .get(i)
                    .map(|k| self.name_of(k).trim_end_matches(" (you)").to_string())
                    .unwrap_or_else(|| "Computer".into()),
                colour: Colour::ALL[i % Colour::ALL.len()],
                controller: if i < keys.len() {
                    Controller::Peer(i as u8)
                } else {
                    // The orders ruleset's computer levels: easy, normal and hard.
                    Controller::Bot(self.bot_level)
                },
            })
            .collect();
        let p = SetupProposal {
            participants: keys,
            seats,
            options: ClassicOptions::default(),
            orders: Some(orbis_protocol::wire::OrdersSetup {
                map: map_id.to_string(),
                options: Default::default(),
                powers,
            }),
            face_down: false,
            stand_in: true,
            economy: None,
            nonce: now_ms() as u64,
            // Over days: the clock starts now (UTC).
            clock: self
                .visit
                .as_ref()
                .and_then(|_| self.days.clock(super::days_visit::utc_ms() / 1000)),
        };
        self.send_proposal(p);
    }

    /// An economy game: the participants (sorted: the same order on every peer) on the first
    /// seats, then the computer seats, 2 to 6 in all; seat `i` is the engine's player `i`.
    pub(super) fn propose_economy(&mut self) {
        let mut keys = self.next_players();
        keys.truncate(6);
        let total = (keys.len() + self.bots).clamp(2, 6);
        let seats: Vec<SeatSpec> = (0..total)
            .map(|i| match keys.get(i) {
                Some(k) => SeatSpec {
                    name: self.name_of(k).trim_end_matches(" (you)").to_string(),
                    colour: Colour::ALL[i],
                    controller: Controller::Peer(i as u8),
                },
                None => SeatSpec {
                    name: BOT_NAMES[i % 6].to_string(),
                    colour: Colour::ALL[i],
                    controller: Controller::Bot(self.bot_level),
                },
            })
            .collect();
        let p = SetupProposal {
            participants: keys,
            seats,
            options: ClassicOptions::default(),
            orders: None,
            // Influence cards dealt by the players among themselves (security: no page can
            // read another's cards or the pile).
            face_down: self.economy_options.influence_cards,
            stand_in: self.stand_in,
            economy: Some(self.economy_options.clone()),
            nonce: now_ms() as u64,
            clock: None,
        };
        self.send_proposal(p);
    }

    /// Participants (sorted: the same order on every peer) bound to seats, then bot seats.
    pub(super) fn propose(&mut self) {
        let bots = self.bots;
        let mut keys = self.next_players();
        keys.truncate(6);
        let mut seats: Vec<SeatSpec> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| SeatSpec {
                name: self.name_of(k).trim_end_matches(" (you)").to_string(),
                colour: Colour::ALL[i],
                controller: Controller::Peer(i as u8),
            })
            .collect();
        for _ in 0..bots.min(6 - seats.len()) {
            let i = seats.len();
            seats.push(SeatSpec {
                name: BOT_NAMES[i % 6].to_string(),
                colour: Colour::ALL[i],
                controller: Controller::Bot(self.bot_level),
            });
        }
        let p = SetupProposal {
            participants: keys,
            seats,
            options: self.options.clone(),
            orders: None,
            // Cards and missions dealt by the players among themselves: no page can read
            // another's hand.
            face_down: true,
            stand_in: self.stand_in,
            economy: None,
            nonce: now_ms() as u64,
            clock: None,
        };
        self.send_proposal(p);
    }

    /// Proposes `p` to the room, or notes why the protocol refused it.
    fn send_proposal(&mut self, p: SetupProposal) {
        let mut lines = vec![];
        let mut roll = None;
        match self.peer.propose_setup(p) {
            Ok(o) => self.absorb(o, &mut lines, &mut roll),
            Err(e) => self.notes.push(format!("Proposal refused: {e}")),
        }
        self.rev += 1;
    }

    pub(super) fn accept(&mut self, h: [u8; 32]) {
        let mut lines = vec![];
        let mut roll = None;
        match self.peer.accept_setup(h) {
            Ok(o) => {
                // Accepting a proposal abandons the one accepted before (new commitments).
                self.accepted.clear();
                self.accepted.insert(h);
                self.absorb(o, &mut lines, &mut roll)
            }
            Err(e) => self.notes.push(format!("Cannot accept: {e}")),
        }
        self.rev += 1;
    }

    /// Whether the player asked for its seat back and the request is out.
    pub(super) fn asking_back(&self) -> bool {
        self.asked_back.is_some()
    }

    /// The player asks for its seat back (see `readmissions`).
    pub(super) fn take_seat_back(&mut self) {
        if self.peer.left_out() && self.asked_back.is_none() {
            self.asked_back = Some(u64::MAX);
            self.notes.push(
                "Asking the others to hand your seat back: it returns between your turns once \
                 they agree."
                    .into(),
            );
        }
        self.rev += 1;
    }

    /// The computer level that takes a dropped player's seats: `hard` in the orders ruleset (a
    /// power in civil disorder should not hand the game to its neighbours), else `normal`.
    pub(super) fn drop_level(&self) -> BotLevel {
        match self.peer.game() {
            Some(orbis_engine::rules::Game::Orders(_)) => BotLevel::Hard,
            _ => BotLevel::Normal,
        }
    }

    /// Votes to hand a missing peer's seats to the computer (it stops rolling dice too),
    /// seconding an open vote to do so as it stands (`Peer::drop_vote`).
    pub(super) fn vote_drop(&mut self, peer: PeerKey) {
        let mut lines = vec![];
        let mut roll = None;
        let control = self.peer.drop_vote(peer, self.drop_level());
        match self.peer.vote(control) {
            Ok(o) => self.absorb(o, &mut lines, &mut roll),
            Err(e) => self.notes.push(format!("Vote not taken: {e}")),
        }
        self.lines.extend(lines);
        self.rev += 1;
    }

    /// Seconds `peer`'s request to be let back in: the player's decision for one dropped while
    /// connected (security review B8; others' requests are seconded by the page).
    pub(super) fn vote_readmit(&mut self, peer: PeerKey) {
        let mut lines = vec![];
        let mut roll = None;
        let req = self
            .peer
            .readmit_requests()
            .into_iter()
            .find(|r| r.peer == peer);
        match req.map(|r| self.peer.vote(r.control)) {
            Some(Ok(o)) => self.absorb(o, &mut lines, &mut roll),
            Some(Err(e)) => self.notes.push(format!("Vote not taken: {e}")),
            None => self
                .notes
                .push("That request is no longer open.".to_string()),
        }
        self.lines.extend(lines);
        self.rev += 1;
    }

    pub(super) fn chat(&mut self, to: Option<PeerKey>, text: &str) {
        let mut lines = vec![];
        let mut roll = None;
        match self.peer.chat(to, text) {
            Ok(o) => {
                let whom = to.map(|k| format!(" → {}", self.name_of(&k)));
                self.chat.push((
                    format!("you{}", whom.clone().unwrap_or_default()),
                    to.is_some(),
                    text.to_string(),
                ));
                self.absorb(o, &mut lines, &mut roll);
            }
            Err(e) => self.notes.push(format!("Chat not sent: {e}")),
        }
        self.rev += 1;
    }
}

/// Seats of the next orders proposal on `map_id` (Europe: 7; world: the players and the
/// computer seats, 2 to 6).
pub(super) fn seat_count(map_id: &str, players: usize, bots: usize) -> usize {
    if map_id == "europe-1901" {
        7
    } else {
        (players + bots).clamp(2, 6)
    }
}

/// The power of each seat as the proposal names it: the players' picks (seats in `keys` order,
/// then the computer seats), `None` for "random", for a power not in play with that many
/// seats, and for a power already picked by an earlier seat.
pub(super) fn chosen_powers(
    map: &OrdersMap,
    seats: usize,
    keys: &[PeerKey],
    picks: &BTreeMap<PeerKey, PowerId>,
) -> Vec<Option<PowerId>> {
    let in_play = map.powers_for(seats as u8).unwrap_or_default();
    let mut taken = vec![];
    (0..seats)
        .map(|i| {
            let p = keys.get(i).and_then(|k| picks.get(k)).copied();
            let p = p.filter(|p| in_play.contains(p) && !taken.contains(p));
            taken.extend(p);
            p
        })
        .collect()
}
