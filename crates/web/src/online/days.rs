//! Games over days on the online page (issue 61, the page's part): what "My games" is told of
//! this room ([`note`]), and the lobby's choice between a live game and one over days, with its
//! clock ([`Draft`], [`choice`]).
//!
//! Only the orders ruleset goes over days for now: classic and economy dice are rolled by every
//! player's page together (each roll's seed needs everyone's contribution after the attack is
//! declared), so every player must be there at each roll. The form says so instead of hiding
//! the choice.

use super::session::Session;
use crate::games;
use orbis_protocol::Controller;

/// What "My games" should say of this room now: kept whenever it changes.
pub(super) fn note(s: &Session) {
    let mut r = games::record(&s.room).unwrap_or_default();
    let hash = super::session::window()
        .location()
        .hash()
        .unwrap_or_default();
    let mut link = hash.trim_start_matches('#').to_string();
    // Relays or a signalling server the page's query names go along: the room lives there.
    for k in ["relays", "signal"] {
        if let Some(v) = crate::store::url_param(k).filter(|_| !link.contains(&format!("{k}="))) {
            link.push_str(&format!("&{k}={}", js_sys::encode_uri_component(&v)));
        }
    }
    if link.contains("room=") {
        r.link = link;
    } else if r.link.is_empty() {
        r.link = format!("room={}", s.room);
    }
    let p = s.started.and_then(|h| s.proposals.get(&h));
    match p {
        None => {
            r.ruleset.clear();
            r.players.clear();
            r.stands = if s.proposals.is_empty() {
                "In the room's lobby: no game proposed yet".into()
            } else {
                "In the room's lobby: a game is proposed".into()
            };
        }
        Some(p) => {
            use orbis_engine::rules::Game;
            r.ruleset = match (&p.orders, &p.economy) {
                (Some(o), _) => format!(
                    "Orders: {}",
                    orbis_engine::rules::orders::map::OrdersMap::get(&o.map)
                        .map_or(o.map.clone(), |m| m.name.clone())
                ),
                (None, Some(_)) => "Economy".into(),
                (None, None) => "Classic".into(),
            };
            let mut people = vec![];
            let mut computers = 0;
            for (i, seat) in p.seats.iter().enumerate() {
                match seat.controller {
                    Controller::Peer(j) => {
                        let who = p
                            .participants
                            .get(j as usize)
                            .map(|k| s.name_of(k))
                            .unwrap_or_default();
                        people.push(format!("{who} ({})", super::seat_label(p, i)));
                    }
                    Controller::Bot(_) => computers += 1,
                }
            }
            if computers > 0 {
                people.push(match computers {
                    1 => "1 computer".to_string(),
                    n => format!("{n} computers"),
                });
            }
            r.players = people.join(", ");
            r.stands = match s.peer.game() {
                _ if s.peer.ended().is_some() => "Ended: a player left".into(),
                Some(g) if g.is_over() => "Game over".into(),
                Some(Game::Orders(o)) => format!(
                    "{} {} {}",
                    crate::orders::season_word(o.season),
                    o.year,
                    crate::orders::phase_word(o.phase)
                ),
                Some(Game::Economy(e)) => format!("Round {}", e.round),
                Some(Game::Classic(c)) => {
                    let whose = p
                        .seats
                        .get(c.current as usize)
                        .map(|seat| seat.name.clone())
                        .unwrap_or_default();
                    format!("Turn {}: {whose} to play", c.turn)
                }
                None => "Starting".into(),
            };
        }
    }
    // A game with a clock (over days): what is due from this player and by when, and the
    // deadline for the calendar file.
    match s.peer.due() {
        Some(d) => {
            r.days = true;
            let phase = format!(
                "{} {} {}",
                crate::orders::season_word(d.season),
                d.year,
                crate::orders::phase_word(d.phase)
            );
            r.add_deadline(&phase, d.deadline_s);
            r.due = match d.next {
                orbis_protocol::Next::Submit { by_s } => Some(("Your orders".into(), by_s)),
                orbis_protocol::Next::ComeBack { by_s } => {
                    Some(("Come back to open your orders".into(), by_s))
                }
                // Nothing of ours: the game waits on the others.
                orbis_protocol::Next::Wait { until_s } => {
                    Some(("The others' orders".into(), until_s))
                }
                _ => None,
            };
        }
        None => {
            // A room over days before its game starts: where its lobby stands.
            r.days = s.visit.is_some();
            r.due = None;
            if let Some(l) = s.peer.lobby_due() {
                let n = l.participants.len();
                r.stands = if l.accepted.len() < n {
                    format!(
                        "Over days, in the lobby: {} of {n} accepted",
                        l.accepted.len()
                    )
                } else {
                    "Over days: starts on the players' next visits".into()
                };
            }
        }
    }
    r.seen_s = games::now_s();
    games::put(&s.room, &r);
}
