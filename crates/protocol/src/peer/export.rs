//! The transcript of a game and its offline check (`orbis verify`): every signed message that
//! made the game — the lobby, the log with its votes and dice, the deal, the secrets published
//! at the end, each participant's last checkpoint, and the evidence of a halt — replayed by a
//! peer that plays no part.
//!
//! Owns nothing of a running peer. Invariant: [`verify`] trusts no byte of the file: every
//! message is checked by its signature and by the same code that checked it live, so a file
//! passes only if every participant's messages are exactly what they signed, and a cheat in it
//! is named as the live game would have named it.

use super::*;
use orbis_engine::classic::{SealedDeal, Slot, MISSION_DECK};
use orbis_engine::rules::economy::end::Score;
use orbis_engine::rules::economy::map::EconomyMap;
use orbis_engine::rules::economy::phase::Phase as EconomyPhase;

/// First bytes of a transcript file.
pub const TRANSCRIPT_MAGIC: [u8; 8] = *b"ORBISTRN";
/// Format of the transcript file.
pub const TRANSCRIPT_VERSION: u16 = 1;

/// A game's transcript: the room's id and the signed messages, in an order the replay takes.
///
/// On file: the magic, the version (2 bytes, little-endian), the room id, then each message as
/// its length (4 bytes, little-endian) and its bytes. Not one codec value: a long game's
/// transcript outgrows the codec's size limit, while each message stays within it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transcript {
    pub room: [u8; 16],
    pub messages: Vec<Vec<u8>>,
}

/// Largest transcript file read (a game of tens of thousands of moves fits).
pub const MAX_TRANSCRIPT_BYTES: usize = 256 << 20;

impl Transcript {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = TRANSCRIPT_MAGIC.to_vec();
        b.extend_from_slice(&TRANSCRIPT_VERSION.to_le_bytes());
        b.extend_from_slice(&self.room);
        for m in &self.messages {
            b.extend_from_slice(&(m.len() as u32).to_le_bytes());
            b.extend_from_slice(m);
        }
        b
    }

    /// Reads a transcript file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Transcript, VerifyError> {
        let bad = |what: &str| VerifyError::Format(what.to_string());
        if bytes.len() > MAX_TRANSCRIPT_BYTES {
            return Err(bad("larger than any transcript"));
        }
        if bytes.len() < 26 || bytes[..8] != TRANSCRIPT_MAGIC {
            return Err(bad("not an Orbis transcript"));
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != TRANSCRIPT_VERSION {
            return Err(VerifyError::Format(format!(
                "format {version} (this version of Orbis reads format {TRANSCRIPT_VERSION})"
            )));
        }
        let mut room = [0u8; 16];
        room.copy_from_slice(&bytes[10..26]);
        let mut messages = vec![];
        let mut rest = &bytes[26..];
        while !rest.is_empty() {
            if rest.len() < 4 {
                return Err(bad("cut short"));
            }
            let n = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]) as usize;
            if rest.len() - 4 < n {
                return Err(bad("cut short"));
            }
            messages.push(rest[4..4 + n].to_vec());
            rest = &rest[4 + n..];
        }
        Ok(Transcript { room, messages })
    }
}

/// What [`verify`] found in a transcript that checks out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Each participant's key and name (from its hello, when the transcript has one).
    pub participants: Vec<PeerKey>,
    /// Log positions replayed.
    pub positions: u64,
    /// The state hash after them.
    pub state_hash: [u8; 32],
    /// The winner's seat, if the game was won by a seat (a classic or economy game's winner,
    /// the seat playing an orders game's winning power).
    pub winner: Option<PlayerId>,
    /// How the game ended, read from the engine's last state; `None` while it is not over (left,
    /// or halted before the end).
    pub outcome: Option<Outcome>,
    /// Participants whose last checkpoint signs this very state.
    pub agreed_by: Vec<PeerKey>,
    /// Face-down games: the keys published, and the dealt positions they opened.
    pub deal: Option<DealReport>,
}

/// How a finished game ended, as its page says it: read from the engine's last state (the
/// verifier decides nothing of the rules itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A classic game: the seat that won.
    Won { seat: PlayerId, name: String },
    /// An orders game won outright: the power with its supply centres, of the map's.
    Solo {
        power: OrdersPower,
        centres: usize,
        of: usize,
    },
    /// An orders game drawn: every surviving power accepted the draw (these powers).
    Drawn { powers: Vec<OrdersPower> },
    /// An economy game won by the last player standing (the others eliminated or surrendered).
    LastStanding { player: PlayerId, name: String },
    /// An economy game the round limit (`rounds`) ended: the best score won (income, then money,
    /// then units: the engine's ranking).
    BestScore {
        player: PlayerId,
        name: String,
        rounds: u32,
        score: Score,
    },
    /// An economy game that ended with no player left.
    NobodyLeft,
}

/// A power of an orders game, with the seat that plays it (none: a computer power of the map).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrdersPower {
    pub power: PowerId,
    pub name: String,
    pub seat: Option<PlayerId>,
}

impl fmt::Display for OrdersPower {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.seat {
            Some(s) => write!(f, "{} (seat {s})", self.name),
            None => write!(f, "{} (a computer power)", self.name),
        }
    }
}

impl Outcome {
    /// Reads how the game ended from its state; `None` while it is not over. `powers` gives an
    /// orders game's power of each seat.
    fn of(g: &Game, powers: &[PowerId]) -> Option<Outcome> {
        match g {
            Game::Classic(s) => s.winner().map(|w| Outcome::Won {
                seat: w,
                name: s.players[w as usize].name.clone(),
            }),
            Game::Orders(s) => {
                let Phase::GameOver { winner } = s.phase else {
                    return None;
                };
                let map = s.map();
                let power = |p: PowerId| OrdersPower {
                    power: p,
                    name: map.powers[p as usize].name.clone(),
                    seat: powers.iter().position(|&x| x == p).map(|i| i as PlayerId),
                };
                Some(match winner {
                    Some(w) => Outcome::Solo {
                        power: power(w),
                        centres: s.centre_count(w),
                        of: map.centres().count(),
                    },
                    // The engine draws the game when every surviving power accepts.
                    None => Outcome::Drawn {
                        powers: (0..map.powers.len() as PowerId)
                            .filter(|&p| s.alive(p) && s.draw[p as usize])
                            .map(power)
                            .collect(),
                    },
                })
            }
            Game::Economy(s) => {
                if s.phase != EconomyPhase::Over {
                    return None;
                }
                let name = |p: PlayerId| s.players[p as usize].name.clone();
                // The engine names the last player standing when only one is left, else (the
                // round limit passed) the best score among those still playing.
                Some(match (s.winner, s.playing().count()) {
                    (None, _) => Outcome::NobodyLeft,
                    (Some(p), 1) => Outcome::LastStanding {
                        player: p,
                        name: name(p),
                    },
                    (Some(p), _) => Outcome::BestScore {
                        player: p,
                        name: name(p),
                        rounds: s.options.round_limit.unwrap_or(s.round),
                        score: s.score(EconomyMap::get(), p),
                    },
                })
            }
        }
    }

    /// The winning seat, if a seat won.
    pub fn seat(&self) -> Option<PlayerId> {
        match self {
            Outcome::Won { seat, .. } => Some(*seat),
            Outcome::Solo { power, .. } => power.seat,
            Outcome::LastStanding { player, .. } | Outcome::BestScore { player, .. } => {
                Some(*player)
            }
            Outcome::Drawn { .. } | Outcome::NobodyLeft => None,
        }
    }
}

/// The outcome as the game's page says it, in one sentence without its full stop.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Won { name, .. } => write!(f, "{name} has won"),
            Outcome::Solo {
                power, centres, of, ..
            } => write!(
                f,
                "{} wins with {centres} of {of} supply centres",
                power.name
            ),
            Outcome::Drawn { powers } => {
                let names: Vec<String> = powers.iter().map(|p| p.to_string()).collect();
                write!(f, "The game is drawn between {}", and_list(&names))
            }
            Outcome::LastStanding { name, .. } => {
                write!(f, "{name} wins as the last player standing")
            }
            Outcome::BestScore {
                name,
                rounds,
                score,
                ..
            } => write!(
                f,
                "{name} wins on the best score when the round limit ended the game after {rounds} \
                 rounds (income {}, {} MU, {} units)",
                score.income, score.mu, score.units
            ),
            Outcome::NobodyLeft => f.write_str("Nobody wins: no player is left"),
        }
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// What [`verify`] found of a face-down deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DealReport {
    /// Participants' secret keys known at the end: published by their owners, or rebuilt from
    /// the others' pieces (of participants who left).
    pub keys: usize,
    /// Of those, the keys rebuilt from pieces.
    pub rebuilt: usize,
    /// Dealt positions opened with them (0 unless every key is known); each shown card was
    /// checked against its position.
    pub opened: usize,
}

/// Why a transcript does not check out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// Not a transcript file, or one of another format.
    Format(String),
    /// Message `index` of the file is not what its signer signed, or is out of place.
    Message { index: usize, what: String },
    /// The replay caught a participant cheating.
    Cheat { peer: Option<PeerKey>, what: String },
    /// The transcript never starts a game.
    NoGame,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Format(e) => write!(f, "not a transcript of this version: {e}"),
            VerifyError::Message { index, what } => write!(f, "message {index}: {what}"),
            VerifyError::Cheat {
                peer: Some(p),
                what,
            } => write!(f, "participant {p} cheated: {what}"),
            VerifyError::Cheat { peer: None, what } => write!(f, "the game halted: {what}"),
            VerifyError::NoGame => f.write_str("the transcript never starts a game"),
        }
    }
}

impl Peer {
    /// The transcript of the game so far (finished, halted or left), for `orbis verify`.
    pub fn transcript(&self) -> Option<Vec<u8>> {
        let r = self.run.as_ref()?;
        let mut groups = self.sync_groups(false, 0, [0; 32]).into_iter();
        // The lobby first, then the deal (so that the shuffles are in before the first card),
        // then the log, then what closes the game.
        let mut messages: Vec<Vec<u8>> = groups.next().unwrap_or_default();
        if let Some(d) = &r.deal {
            messages.extend(d.log.iter().cloned());
        }
        let mut groups: Vec<Vec<Vec<u8>>> = groups.collect();
        // Voted out while playing (at the position we are on, or one we had already played):
        // our history goes first, as we played it, and the votes come last as the halt's
        // evidence (in the position's group, the replay would apply them there and then refuse
        // our own messages after them: long-run seeds 8000098, 8000359 and 8000599, a lone
        // opponent's drop).
        if let Some(HaltReport::VotedOutWhilePlaying { .. }) = &self.halted {
            for g in &mut groups {
                g.retain(|m| !self.evidence.contains(m));
            }
        }
        // A halt on kept proof of an equivocation in the round we were on: the proof goes
        // before that round's messages, as it came before we could resolve it, so the replay
        // keeps it and stops there too (after them, the replay would resolve the round first).
        let proof_first = r.halted_on_proof && self.halted.is_some();
        if let (true, Some(g)) = (proof_first, groups.last_mut()) {
            g.splice(0..0, self.evidence.iter().cloned());
        }
        messages.extend(groups.into_iter().flatten());
        if let Some(d) = &r.deal {
            messages.extend(d.secrets.values().map(|(_, raw)| raw.clone()));
            messages.extend(d.piece_msgs.values().cloned());
        }
        messages.extend(r.last_checkpoints.values().map(|(_, raw)| raw.clone()));
        if !proof_first {
            messages.extend(self.evidence.iter().cloned());
        }
        Some(
            Transcript {
                room: self.cfg.game_id,
                messages,
            }
            .to_bytes(),
        )
    }
}

/// Where the replay of a transcript that does not check out stopped, and whom its verdict
/// names, by seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stop {
    /// Log positions replayed when the game stopped (the position the replay screen ends on).
    pub positions: u64,
    /// The seats of the participant the verdict names, by name (an orders seat with its power);
    /// empty when it names nobody, or one who plays no seat.
    pub seats: Vec<String>,
}

/// [`verify`]'s verdict and, for one that does not check out once the replay began, where the
/// game stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    pub verdict: Result<Report, VerifyError>,
    pub stop: Option<Stop>,
}

impl Checked {
    /// Why the file does not check out, in words (`None` when it does): the error, whom it names
    /// with their seats, and after how many log positions the game stopped.
    pub fn rejection(&self) -> Option<String> {
        let e = self.verdict.as_ref().err()?;
        let Some(stop) = &self.stop else {
            return Some(e.to_string());
        };
        let n = stop.positions;
        Some(match e {
            VerifyError::Cheat {
                peer: Some(p),
                what,
            } => {
                let seats = match stop.seats.as_slice() {
                    [] => String::new(),
                    s => format!(" ({})", s.join(", ")),
                };
                format!("participant {p}{seats} cheated: {what} (the game stopped after {n} log positions)")
            }
            VerifyError::Cheat { peer: None, what } => {
                format!("the game halted after {n} log positions: {what}")
            }
            e => format!("{e} (the replay stopped after {n} log positions)"),
        })
    }
}

/// Checks a transcript offline: every signature, every message in place, the whole game
/// replayed (dice, deal, votes) to its last state, and, for a game dealt face down, every card
/// opened with the secrets published at the end.
pub fn verify(bytes: &[u8]) -> Result<Report, VerifyError> {
    check(bytes).verdict
}

/// [`verify`], also saying where a game that does not check out stopped and whom it names.
pub fn check(bytes: &[u8]) -> Checked {
    let mut stop = None;
    let verdict = check_into(bytes, &mut stop);
    Checked {
        stop: stop.filter(|_| verdict.is_err()),
        verdict,
    }
}

/// Where `peer`'s replay stands, naming `named`'s seats.
fn stop_at(peer: &Peer, named: Option<&PeerKey>) -> Stop {
    let Some(r) = peer.run.as_ref() else {
        return Stop {
            positions: 0,
            seats: vec![],
        };
    };
    let who = named.and_then(|k| r.proposal.participants.iter().position(|p| p == k));
    let seats = r
        .proposal
        .seats
        .iter()
        .enumerate()
        .filter(|(_, s)| who.is_some_and(|i| s.controller == Controller::Peer(i as u8)))
        .map(|(j, s)| match (&r.state, r.powers.get(j)) {
            (Game::Orders(o), Some(&p)) => {
                format!("{}, {}", s.name, o.map().powers[p as usize].name)
            }
            _ => s.name.clone(),
        })
        .collect();
    Stop {
        positions: r.next_index(),
        seats,
    }
}

fn check_into(bytes: &[u8], stop: &mut Option<Stop>) -> Result<Report, VerifyError> {
    let t = Transcript::from_bytes(bytes)?;
    // Every signature, and the log's entries in order. A second entry for a position the file
    // already holds is not out of place: it is a halt's evidence (an equivocation), which the
    // replay judges and names as the live game did (security review C14).
    let mut opened = Vec::with_capacity(t.messages.len());
    let mut last_entry: Option<u64> = None;
    let mut positions_seen = BTreeSet::new();
    for (i, raw) in t.messages.iter().enumerate() {
        let (env, body) =
            Envelope::open_where(raw, |_| true).map_err(|(_, e)| VerifyError::Message {
                index: i,
                what: e.to_string(),
            })?;
        if let Body::Entry(e) = &body {
            let again = positions_seen.contains(&(env.game_id, e.index));
            positions_seen.insert((env.game_id, e.index));
            if !again && last_entry.is_some_and(|l| e.index <= l) {
                return Err(VerifyError::Message {
                    index: i,
                    what: format!("entry {} is out of place", e.index),
                });
            }
            last_entry = Some(last_entry.map_or(e.index, |l| l.max(e.index)));
        }
        opened.push((env, body));
    }
    // Replay by a peer that plays no part.
    let mut cfg = Config::new(t.room, "verifier", sha256(b"orbis verify"));
    cfg.missing_ms = u64::MAX / 4;
    cfg.resend_ms = u64::MAX / 4;
    let mut peer = Peer::new(cfg);
    let mut links: BTreeMap<PeerKey, LinkId> = BTreeMap::new();
    let mut halted = None;
    let mut refused = None;
    for (i, (raw, (env, _))) in t.messages.iter().zip(&opened).enumerate() {
        let n = links.len() as LinkId;
        let link = *links.entry(env.sender).or_insert(n);
        let out = peer.handle(link, raw, i as u64);
        for e in out.events {
            match e {
                ProtocolEvent::Halted(h) => halted = halted.or(Some(h)),
                ProtocolEvent::Rejected {
                    peer: Some(p),
                    violation,
                    ..
                } => refused = refused.or(Some((i, p, violation))),
                _ => {}
            }
        }
    }
    // A checkpoint that disagrees with the replay, and no equivocation in the file to explain
    // it: the live peer halted on it once its wait for such an explanation ran out (a timer the
    // replay never runs), naming the checkpoint's signer (security review C14).
    // Likewise kept proof of an equivocation in a round the replay could not resolve: the live
    // peer halted on it once its wait for a drop of the equivocator ran out.
    let kept = peer.run.as_ref().and_then(|r| r.deferred_halts.first());
    let kept = kept.map(|d| d.report.clone());
    if let Some(h) = halted
        .or_else(|| peer.suspect.take().map(|(report, _, _)| report))
        .or(kept)
    {
        let e = halt_error(h);
        let named = match &e {
            VerifyError::Cheat { peer, .. } => peer.as_ref(),
            _ => None,
        };
        *stop = Some(stop_at(&peer, named));
        return Err(e);
    }
    *stop = Some(stop_at(&peer, None));
    if let Some((index, p, v)) = refused {
        return Err(VerifyError::Message {
            index,
            what: format!("refused, signed by {p}: {v}"),
        });
    }
    let r = peer.run.as_ref().ok_or(VerifyError::NoGame)?;
    // Every message of the game is signed under its id, every lobby message under the room's.
    for (i, (env, body)) in opened.iter().enumerate() {
        let want = if body.under_game() { r.tag } else { t.room };
        if env.game_id != want {
            return Err(VerifyError::Message {
                index: i,
                what: "signed for another game".into(),
            });
        }
    }
    let state_hash = r.state_hash();
    let positions = r.next_index();
    let agreed_by = opened
        .iter()
        .filter_map(|(env, body)| match body {
            Body::Checkpoint {
                index,
                state_hash: h,
                ..
            } if *index == positions && *h == state_hash => Some(env.sender),
            _ => None,
        })
        .collect();
    let outcome = Outcome::of(&r.state, &r.powers);
    let winner = outcome.as_ref().and_then(Outcome::seat);
    let deal = match (&r.state, &r.deal) {
        (g, Some(d)) => Some(check_deal(g, d)?),
        _ => None,
    };
    Ok(Report {
        participants: r.proposal.participants.clone(),
        positions,
        state_hash,
        winner,
        outcome,
        agreed_by,
        deal,
    })
}

fn halt_error(h: HaltReport) -> VerifyError {
    let peer = match &h {
        HaltReport::Equivocation { peer, .. }
        | HaltReport::CheckpointMismatch { peer, .. }
        | HaltReport::Cheat { peer, .. } => Some(*peer),
        _ => None,
    };
    let what = match h {
        HaltReport::Cheat { what, .. } => what,
        // Same history, another state: the signer lied, since the state follows from the log.
        HaltReport::CheckpointMismatch {
            index,
            ours,
            theirs,
            ..
        } if ours.1 == theirs.1 => {
            format!("its checkpoint after {index} entries signs another state than the log gives")
        }
        // Another history: the signer lied, or signed what an equivocator told it, and the
        // file leaves out the equivocator's second entry (an honest peer's transcript of such
        // a game holds both, and names the equivocator instead).
        HaltReport::CheckpointMismatch { index, .. } => format!(
            "its checkpoint after {index} entries signs another history than this transcript's \
             log (or the transcript leaves out the second entry of an equivocation)"
        ),
        HaltReport::Equivocation {
            index,
            agreed_index,
            ..
        } => format!(
            "it signed two different entries for log position {index} (every honest peer \
             agrees on the log up to position {agreed_index})"
        ),
        h => format!("{h:?}"),
    };
    VerifyError::Cheat { peer, what }
}

/// The deal's secret keys known at the end, in seat order: published by their owners, or
/// rebuilt from the others' pieces (of participants who left); and how many were rebuilt.
fn known_keys(d: &DealRun) -> (BTreeMap<u8, [u8; 32]>, usize) {
    let mut keys: BTreeMap<u8, [u8; 32]> = d.secrets.iter().map(|(&k, v)| (k, v.0)).collect();
    let mut rebuilt = 0;
    for (&k, &secret) in &d.rebuilt {
        if let std::collections::btree_map::Entry::Vacant(e) = keys.entry(k) {
            e.insert(secret);
            rebuilt += 1;
        }
    }
    (keys, rebuilt)
}

/// With every secret known: the card (a mission's index, for the mission deck) behind every
/// dealt position of the game's decks. `None` while a key is missing.
fn open_all(g: &Game, d: &DealRun) -> Option<BTreeMap<Slot, u16>> {
    let (keys, _) = known_keys(d);
    if keys.len() < usize::from(d.table.seats()) {
        return None;
    }
    let secrets: Vec<[u8; 32]> = keys.into_values().collect();
    let decks: Vec<(u8, usize)> = match g {
        Game::Classic(s) => {
            let sealed = s.sealed.as_ref()?;
            let mut decks = vec![(MISSION_DECK, sealed.missions.len())];
            for (k, cards) in sealed.decks.iter().enumerate() {
                decks.push((SealedDeal::deck_number(k), cards.len()));
            }
            decks
        }
        Game::Economy(s) => {
            let sealed = s.sealed.as_ref()?;
            (0..sealed.decks.len())
                .map(|k| (k as u8, sealed.decks[k].len()))
                .collect()
        }
        Game::Orders(_) => return None,
    };
    let mut cards = BTreeMap::new();
    for (deck, len) in decks {
        for position in 0..len as u16 {
            if let Some(card) = d.table.open_with(deck, position, &secrets) {
                cards.insert(Slot { deck, position }, card);
            }
        }
    }
    Some(cards)
}

/// With every secret known (published, or rebuilt from the others' pieces): opens every dealt
/// position and checks each shown card against it.
fn check_deal(g: &Game, d: &DealRun) -> Result<DealReport, VerifyError> {
    let (keys, rebuilt) = known_keys(d);
    let mut report = DealReport {
        keys: keys.len(),
        rebuilt,
        opened: 0,
    };
    let shown: Vec<(Slot, u16)> = match g {
        Game::Classic(s) => s.sealed.as_ref().map_or(vec![], |x| {
            x.shown.iter().map(|(s, c)| (*s, u16::from(*c))).collect()
        }),
        Game::Economy(s) => s.sealed.as_ref().map_or(vec![], |x| {
            x.shown.iter().map(|(s, c)| (*s, u16::from(*c))).collect()
        }),
        Game::Orders(_) => vec![],
    };
    let Some(cards) = open_all(g, d) else {
        return Ok(report);
    };
    for (slot, card) in &shown {
        if cards.get(slot) != Some(card) {
            let Slot { deck, position } = *slot;
            return Err(VerifyError::Cheat {
                peer: None,
                what: format!("card {card} was shown at {deck}:{position}, which holds another"),
            });
        }
    }
    report.opened = cards.len();
    Ok(report)
}

/// A transcript replayed for a viewer: the state at the start and after every log position, and
/// the file's verdict.
#[derive(Clone, Debug)]
pub struct Replayed {
    /// `states[0]` is the game as it began, `states[i]` the state after position `i`.
    pub states: Vec<Game>,
    /// What [`verify`] says of the same file: its report, or why it does not check out (a
    /// halted game's cause, naming whom it names).
    pub verdict: Result<Report, VerifyError>,
    /// For a verdict that does not check out: where the game stopped and whom it names.
    pub stop: Option<Stop>,
    /// A game dealt face down: its deal's keys known at the end, of how many.
    pub keys: Option<(usize, usize)>,
    /// With every key of a face-down deal known: the card (a mission's index, for the mission
    /// deck) behind every dealt position, so a viewer can turn every hand face up. Empty
    /// otherwise.
    pub cards: BTreeMap<Slot, u16>,
}

/// Replays a transcript position by position for a viewer (the replay screen of the online
/// page). The same peer that checks a file replays it; messages that do not open are skipped
/// here, and [`verify`]'s verdict on the file is given beside the states, so a viewer shows a
/// damaged or halted game as far as it went, with the reason.
pub fn replay(bytes: &[u8]) -> Result<Replayed, VerifyError> {
    let t = Transcript::from_bytes(bytes)?;
    let mut cfg = Config::new(t.room, "viewer", sha256(b"orbis replay"));
    cfg.missing_ms = u64::MAX / 4;
    cfg.resend_ms = u64::MAX / 4;
    let mut peer = Peer::new(cfg);
    // The state after every position, also of positions one message resolved together (the
    // computer seats' positions that follow a player's).
    peer.keep_states = true;
    let mut links: BTreeMap<PeerKey, LinkId> = BTreeMap::new();
    for (i, raw) in t.messages.iter().enumerate() {
        let Ok((env, _)) = Envelope::open_where(raw, |_| true) else {
            continue;
        };
        let n = links.len() as LinkId;
        let link = *links.entry(env.sender).or_insert(n);
        let _ = peer.handle(link, raw, i as u64);
    }
    let r = peer.run.as_mut().ok_or(VerifyError::NoGame)?;
    let states = r.snapshots.take().ok_or(VerifyError::NoGame)?;
    let (keys, cards) = match (&r.state, &r.deal) {
        (g, Some(d)) => (
            Some((known_keys(d).0.len(), usize::from(d.table.seats()))),
            open_all(g, d).unwrap_or_default(),
        ),
        _ => (None, BTreeMap::new()),
    };
    let Checked { verdict, stop } = check(bytes);
    Ok(Replayed {
        states,
        verdict,
        stop,
        keys,
        cards,
    })
}
