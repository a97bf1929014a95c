//! The economy ruleset in an online room. The protocol runs the game (one commit-reveal round per
//! log position among the players the engine waits for; every peer applies the batches alike and
//! computes the computer seats); this module carries the batches from the economy screens to the
//! protocol and the protocol's state and events back to them.
//!
//! The economy screens are the hot-seat ones with `EconomySession::online` set: this browser
//! plays only its own seats, finishing a step queues its batch (`crate::economy::online`), and
//! the position is played once every awaited player's batch is revealed.

use orbis_engine::rules::classic::PlayerId;
use orbis_engine::rules::economy::action::{EconomyAction, EconomyEvent};
use orbis_engine::rules::economy::state::EconomyState;
use orbis_protocol::{CommandError, Output, Peer};

/// What the app needs after a protocol step of an economy game.
#[derive(Clone, Debug)]
pub struct EconomySync {
    /// The state after every position played so far.
    pub game: EconomyState,
    /// The seats this browser plays.
    pub mine: Vec<PlayerId>,
    /// The events of the positions played since the last sync, oldest first.
    pub events: Vec<EconomyEvent>,
    /// Names of who has committed at this position, and of who it waits for.
    pub committed: Vec<String>,
    pub waiting: Vec<String>,
    /// Our batch for this position is committed (also after a reload).
    pub sent: bool,
    /// When the open window for our seats closes by itself (ms since 1970, as this page
    /// reckons it): a declaration window's silence is a pass, the planning minute's end moves
    /// our late seats nothing.
    pub deadline: Option<i64>,
    /// Our influence cards cannot be dealt yet: the deal lacks the part of someone in
    /// `waiting`, and nobody plays on until it comes.
    pub dealing: Option<crate::economy::online::Dealing>,
    pub hash: String,
}

/// Commits the queued batches (one per position reaches the protocol; each was chosen at the
/// position whose state had taken `steps` actions, and one whose position has passed is refused
/// as too late), and after a reload commits our stored batch of the current position again
/// (the same payload and salt: the commitment the others hold, even when their resync handed it
/// back to us before we could).
pub(super) fn commit_queued(
    peer: &mut Peer,
    room: &str,
    game: [u8; 32],
    queued: Vec<(u32, Vec<EconomyAction>)>,
) -> Vec<Result<Output, CommandError>> {
    let mut out = vec![];
    let round = peer.log_len() as u32;
    if let Some((r, payload, salt)) = super::kept::kept("economy", room, game) {
        if r == round && !peer.has_my_orders(round) {
            out.push(peer.commit_orders(round, payload, salt));
        }
    }
    let steps = peer.economy_state().map(|s| s.steps);
    if peer.economy_dealing() || peer.economy_computers_dealing() {
        // Not refused: sent as soon as our cards are dealt (the screen says why it waits).
        for q in queued {
            crate::economy::online::queue(q);
        }
        return out;
    }
    for (at, actions) in queued {
        if steps != Some(at) {
            out.push(Err(CommandError::NotYourTurn));
            continue;
        }
        // Without randomness a batch is not sealed at all (a salt of zeros would let anyone
        // test guesses against the commitment); the session could not have started without it.
        let Some(s) = super::entropy::random::<32>() else {
            out.push(Err(CommandError::Illegal(
                "this browser gives no randomness".into(),
            )));
            continue;
        };
        // The bytes committed: with the reveals of the face-down cards the batch shows.
        let payload = match peer.economy_payload(actions.clone()) {
            Ok(p) => p,
            Err(e) => {
                out.push(Err(e));
                continue;
            }
        };
        let r = peer.submit_economy(actions, s);
        if r.is_ok() {
            super::kept::keep("economy", room, game, round, payload, s);
        }
        out.push(r);
    }
    out
}

/// What a sync showed: log length (and how many of our face-down cards we read: one read
/// since changes the screen), sent, committed, waiting, the window's deadline, our seats.
pub type Shown = (
    (u64, usize, Option<crate::economy::online::Dealing>),
    bool,
    Vec<String>,
    Vec<String>,
    Option<i64>,
    Vec<PlayerId>,
);
