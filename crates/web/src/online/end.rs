//! The end of an online game as the page shows it: why a halted game stopped, in words, with
//! what to do; and the game's transcript to download, which anyone can check offline with
//! `orbis verify`.

use super::session::Session;
use crate::store;
use orbis_protocol::HaltReport;
use yew::prelude::*;

/// Why the game stopped, for the player: who is named and what to do next.
pub(super) fn halt_text(s: &Session, h: &HaltReport) -> String {
    let next = "The game cannot go on: download its transcript below as proof, and start a new \
                game without that player.";
    match h {
        HaltReport::Equivocation { peer, index, .. } => format!(
            "{} sent two different moves for move {index}: the game stopped. {next}",
            s.name_of(peer)
        ),
        HaltReport::CheckpointMismatch { peer, index, .. } => format!(
            "{}'s page reports a different game after move {index}: one of you runs a modified \
             page or another version of Orbis. {next}",
            s.name_of(peer)
        ),
        HaltReport::VotedOutWhilePlaying { voters, .. } => format!(
            "{} handed your seat to the computer while you were still playing it. Start a new \
             game if you want to go on.",
            voters
                .iter()
                .map(|k| s.name_of(k))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        HaltReport::Cheat { peer, what } => format!(
            "{} cheated in the deal of the cards ({what}): the game stopped. {next}",
            s.name_of(peer)
        ),
        HaltReport::Internal(e) => format!(
            "The game stopped on an error of this page ({e}). Reload the page to rejoin; if it \
             stops again, download the transcript and report it."
        ),
    }
}

impl Session {
    /// Offers the game's transcript as a file (`orbis-ROOM.orbis-transcript`).
    pub(super) fn download_transcript(&mut self) {
        if let Some(bytes) = self.peer.transcript() {
            let name = format!(
                "orbis-{}.orbis-transcript",
                super::form::short_room(&self.room)
            );
            store::download(&name, &bytes);
        }
    }
}

/// The transcript's download button, once the game is over or halted.
pub(super) fn transcript_button(s: &Session, onclick: Callback<MouseEvent>) -> Html {
    let over = s.peer.game().is_some_and(|g| g.is_over()) || s.peer.ended().is_some();
    if !over && s.peer.halted().is_none() {
        return html! {};
    }
    html! {
        <p class="transcript">
            <button class="btn small" id="download-transcript" {onclick}>{"Download the game's transcript"}</button>
            <span class="hint">{" Every signed move, die and card of this game: anyone can check it offline with "}<code>{"orbis verify"}</code>{"."}</span>
        </p>
    }
}
