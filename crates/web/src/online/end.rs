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
    /// Offers the game's transcript as a file, `orbis-game-XXXXXXXX.orbis-transcript`: the
    /// start of the game's proposal hash, easy to type after `orbis verify` and, unlike the
    /// room's name, no part of a secret (the file may be shared to be checked).
    pub(super) fn download_transcript(&mut self) {
        if let Some(bytes) = self.peer.transcript() {
            store::download(&transcript_name(self.started), &bytes);
        }
    }
}

/// The transcript's file name for the game started by proposal `started`.
pub(super) fn transcript_name(started: Option<[u8; 32]>) -> String {
    let id: String = started
        .unwrap_or_default()
        .iter()
        .take(4)
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("orbis-game-{id}.orbis-transcript")
}

/// The transcript's download button, and its replay, once the game is over or halted.
pub(super) fn transcript_button(
    s: &Session,
    onclick: Callback<MouseEvent>,
    replay: Callback<MouseEvent>,
) -> Html {
    let over = s.peer.game().is_some_and(|g| g.is_over()) || s.peer.ended().is_some();
    if !over && s.peer.halted().is_none() {
        return html! {};
    }
    html! {
        <p class="transcript">
            <button class="btn small" id="download-transcript" {onclick}>{"Download the game's transcript"}</button>
            <button class="btn small" id="replay-transcript" onclick={replay}>{"Replay this game"}</button>
            <span class="hint">{" Every signed move, die and card of this game: anyone can check it offline with "}<code>{"orbis verify"}</code>{"."}</span>
        </p>
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn transcript_names_are_plain_and_hold_no_room_secret() {
        let name = super::transcript_name(Some([0xab; 32]));
        assert_eq!(name, "orbis-game-abababab.orbis-transcript");
        assert!(name.is_ascii());
    }
}
