//! What the protocol's events do to the online session: proposals and the game's start, the
//! classic game's lines and dice, orders and economy news for their screens, who is missing or
//! back, chat, votes, readmissions, halts; then the messages go out and our own dice reveals
//! and open votes are remembered for a reload (`memento`).

use super::session::*;
use crate::classic::play::Roll;
use crate::store;
use orbis_engine::classic::Event;
use orbis_engine::codec::sha256;
use orbis_engine::view;
use orbis_protocol::{Control, Output, ProtocolEvent};

impl Session {
    /// Handles the events of one output and sends its messages; returns the game lines and roll.
    pub(super) fn absorb(&mut self, o: Output, lines: &mut Vec<String>, roll: &mut Option<Roll>) {
        for e in o.events {
            self.rev += 1;
            match e {
                ProtocolEvent::SetupProposed { hash, proposal, .. } => {
                    if !self.proposals.contains_key(&hash) {
                        self.order.push(hash);
                    }
                    self.proposals.insert(hash, proposal);
                }
                ProtocolEvent::GameStarted { proposal, .. } => {
                    self.started = Some(proposal);
                    lines.push("The online game begins.".into());
                }
                ProtocolEvent::Applied { index, events, .. } => {
                    let s = self.peer.state();
                    let mut rolls = 0;
                    let mut lost = [0, 0];
                    for ev in &events {
                        if let Some(s) = s {
                            lines.push(view::describe(ev, s));
                        }
                        if let Event::Rolled {
                            from,
                            to,
                            attack,
                            defence,
                            attacker_lost,
                            defender_lost,
                        } = ev
                        {
                            rolls += 1;
                            lost = [lost[0] + attacker_lost, lost[1] + defender_lost];
                            *roll = Some(Roll {
                                from: *from,
                                to: *to,
                                attack: attack.clone(),
                                defence: defence.clone(),
                                rolls,
                                step: s.map_or(0, |s| s.step),
                                lost,
                            });
                        }
                    }
                    if rolls > 0 {
                        mark("shown", index);
                    }
                }
                ProtocolEvent::PhaseResolved { events, .. } => self.resolved.push(events),
                ProtocolEvent::EconomyApplied { events, .. } => self.economy_events.extend(events),
                ProtocolEvent::PeerMissing { peer } => {
                    self.missing.insert(peer);
                }
                ProtocolEvent::PeerReturned { peer } => {
                    self.missing.remove(&peer);
                }
                ProtocolEvent::Chat {
                    from,
                    private,
                    text,
                } => {
                    let n = self.name_of(&from);
                    self.chat.push((n, private, text));
                }
                ProtocolEvent::Rejected {
                    peer, violation, ..
                } => {
                    let who = peer.map(|p| self.name_of(&p)).unwrap_or_else(|| "?".into());
                    self.notes
                        .push(format!("Refused a message from {who}: {violation}"));
                }
                ProtocolEvent::ControlApplied { control, .. } => {
                    let what = match control {
                        Control::Drop { peer, .. } => {
                            self.dropped.insert(peer);
                            if self.peer.ended().is_some_and(|(_, k)| k == peer) {
                                // The game ends there (GameEnded follows): no computer plays on.
                                continue;
                            } else if peer == self.peer.key() {
                                "The others handed your seat to the computer while you were away."
                                    .to_string()
                            } else {
                                format!(
                                    "{}'s seat is now played by the computer.",
                                    self.name_of(&peer)
                                )
                            }
                        }
                        Control::SeatToBot { seat, .. } => {
                            format!("Seat {} is now played by the computer.", seat + 1)
                        }
                        Control::Missed { .. } => {
                            "A missed turn was recorded: an excuse spent, or the seat handed to the computer."
                                .to_string()
                        }
                        Control::Readmit { peer, .. } => {
                            self.dropped.remove(&peer);
                            if peer == self.peer.key() {
                                self.asked_back = None;
                                "You are back in the game: your seat is yours again.".to_string()
                            } else {
                                format!(
                                    "{} is back and plays their seat again.",
                                    self.name_of(&peer)
                                )
                            }
                        }
                    };
                    lines.push(what.clone());
                    self.notes.push(what);
                }
                ProtocolEvent::ReadmitRequested {
                    peer,
                    left_present: true,
                } => {
                    self.notes.push(format!(
                        "{} was voted out while connected and asks to come back: let them back \
                         in with the button under the votes if you agree.",
                        self.name_of(&peer)
                    ));
                }
                ProtocolEvent::GameEnded { left, .. } => {
                    let what = format!(
                        "{} left, and this game was dealt face down among too few players for \
                         anyone to stand in for their cards: the game ends here, unwon.",
                        self.name_of(&left)
                    );
                    lines.push(what.clone());
                    self.notes.push(what);
                }
                ProtocolEvent::Halted(orbis_protocol::HaltReport::VotedOutWhilePlaying {
                    at,
                    voters,
                }) => {
                    let who: Vec<String> = voters
                        .iter()
                        .map(|k| format!("{} [{}]", self.name_of(k), fingerprint(k)))
                        .collect();
                    self.notes.push(format!(
                        "The game is halted: {} voted you out at move {at} while you were playing \
                         it. Your seat was not handed over; this game cannot go on with them.",
                        who.join(", ")
                    ));
                }
                ProtocolEvent::Halted(r) => {
                    self.notes.push(format!("The game is halted: {r:?}"));
                }
                ProtocolEvent::RevealWithheld { withholders, .. } => {
                    let who: Vec<String> = withholders
                        .iter()
                        .map(|k| format!("{} [{}]", self.name_of(k), fingerprint(k)))
                        .collect();
                    self.notes.push(format!(
                        "The game cannot start: {} accepted but did not reveal their seed share. \
                         Propose the game again (everyone commits afresh), without them if they \
                         stay silent.",
                        who.join(", ")
                    ));
                }
                ProtocolEvent::GameAbandoned { by, .. } => {
                    self.started = None;
                    self.accepted.clear();
                    self.notes.push(format!(
                        "The game could not begin: {} [{}] accepted a newer proposal before anyone \
                         played. Accept the newer proposal to play.",
                        self.name_of(&by),
                        fingerprint(&by)
                    ));
                }
                _ => {}
            }
        }
        if self.visit.is_some() {
            self.days_keep(o.send.into_iter().map(|(_, raw)| raw).collect());
        } else {
            self.net.send(o.send);
        }
        let memento = self.peer.memento();
        // Our reveals and open votes: a new one changes the whole (a vote can come after the
        // newest reveal, and leaves it when it takes effect).
        let last = (!memento.is_empty()).then(|| sha256(&memento.concat()));
        if last != self.memento_last {
            self.memento_last = last;
            let text: Vec<String> = memento.iter().map(|m| hex(m)).collect();
            store::set(&memento_key(&self.room), &text.join(","));
        }
    }
}
