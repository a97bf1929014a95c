//! "Another device" (issue 61 item 7): this game's key backed up as a code (with a QR code and
//! a file), and restored in another browser so it plays the same seat.
//!
//! The key is what the online page keeps per room (`games::room_keys`): the identity a reload
//! rejoins with (`session::identity`), the reveals and votes it must remember (the memento), the
//! sealed orders or plans it must open again (`kept`), and the game's record for "My games";
//! with the room's link and the player's name. A code is `orbis-key-1:` and the base64url of
//! those (the engine's canonical encoding) followed by 4 bytes of their SHA-256, so a code
//! damaged in copying is refused with a message, never half restored.
//!
//! Two browsers with one key are one player to everyone else: if both play at once, the first
//! time they sign different things for one step every page halts the game naming that seat
//! (equivocation, PROTOCOL.md "Agreement"). The page says so wherever a key is made or
//! restored ([`ONE_AT_A_TIME`]).

use crate::games;
use crate::store;
use orbis_engine::codec;
use serde::{Deserialize, Serialize};
use yew::prelude::*;

/// What every code starts with (the version in it).
const PREFIX: &str = "orbis-key-1:";
/// Longer codes leave out the remembered reveals (the memento), which only guard a reload in
/// the middle of a live game's roll: a QR code of more than about 2,900 characters is not read
/// by phone cameras.
const QR_MAX: usize = 2_000;

/// What the player must know before using a key in two browsers.
pub const ONE_AT_A_TIME: &str = "Play this seat in one browser at a time. If the game is open in \
    two browsers with this key, both sign moves for the same seat: the first time they differ \
    (two different orders for one phase, say), every player's page stops the game and names \
    this seat as having signed two versions. Close the game on the other device first, or \
    remove it there (My games, Remove) if you are moving for good.";

/// A backed-up key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Backup {
    pub room: String,
    /// The room's link after `#` (with its relays).
    pub link: String,
    /// The player's name in the room.
    pub name: String,
    /// The room's keys: (`what`, value) of `orbis.p2p.<what>.<room>`.
    pub items: Vec<(String, String)>,
}

/// Why a code was refused, in words a player can act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyError {
    Empty,
    /// A room's link or something else that is not a key.
    Foreign(String),
    /// A key, but damaged (or of a later version of Orbis).
    Damaged,
}

impl std::fmt::Display for KeyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeyError::Empty => write!(f, "Paste the game key (it starts with {PREFIX}), or choose the key file."),
            KeyError::Foreign(what) => write!(f, "This is not a game key: {what} A key starts with {PREFIX}; make one on the other device with \"Back up this game's key\"."),
            KeyError::Damaged => write!(f, "This game key is damaged: a part is missing or changed. Copy the whole code again (or use the key file), then restore it."),
        }
    }
}

fn b64url(data: &[u8]) -> String {
    store::b64_encode(data)
        .trim_end_matches('=')
        .replace('+', "-")
        .replace('/', "_")
}

fn unb64url(text: &str) -> Option<Vec<u8>> {
    if text
        .bytes()
        .any(|c| !(c.is_ascii_alphanumeric() || c == b'-' || c == b'_'))
    {
        return None;
    }
    store::b64_decode(&text.replace('-', "+").replace('_', "/"))
}

fn check(bytes: &[u8]) -> [u8; 4] {
    let mut t = b"orbis-key".to_vec();
    t.extend_from_slice(bytes);
    let h = codec::sha256(&t);
    [h[0], h[1], h[2], h[3]]
}

impl Backup {
    /// The key of `room` as this browser holds it (`None`: it holds none).
    pub fn of(room: &str, name: &str) -> Option<Backup> {
        let end = format!(".{room}");
        let mut items: Vec<(String, String)> = games::room_keys(room)
            .into_iter()
            .filter_map(|k| {
                let what = k
                    .strip_prefix("orbis.p2p.")?
                    .strip_suffix(&end)?
                    .to_string();
                Some((what, store::get(&k)?))
            })
            .collect();
        // The record is "My games"' own, rebuilt on the first visit: a shorter code, a QR
        // code a camera reads more easily.
        items.retain(|(w, _)| w != "game");
        items.sort();
        if !items.iter().any(|(w, _)| w == "id") {
            return None;
        }
        let link = games::record(room)
            .map(|r| r.link)
            .filter(|l| !l.is_empty())
            .unwrap_or_else(|| format!("room={room}"));
        Some(Backup {
            room: room.to_string(),
            link,
            name: name.to_string(),
            items,
        })
    }

    /// The code: short enough for a QR code (the memento is left out of a longer one).
    pub fn code(&self) -> String {
        let make = |b: &Backup| {
            let mut bytes = codec::encode(b);
            let c = check(&bytes);
            bytes.extend_from_slice(&c);
            format!("{PREFIX}{}", b64url(&bytes))
        };
        let code = make(self);
        if code.len() <= QR_MAX {
            return code;
        }
        let mut lean = self.clone();
        lean.items.retain(|(w, _)| w != "memento");
        make(&lean)
    }

    /// Reads a code as typed, pasted, scanned (a link ending `#key=…`) or read from a key file
    /// (its line that starts with the prefix).
    pub fn parse(text: &str) -> Result<Backup, KeyError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(KeyError::Empty);
        }
        let code = text
            .split(|c: char| c.is_whitespace() || c == '#' || c == '&')
            .find_map(|w| w.strip_prefix("key=").unwrap_or(w).strip_prefix(PREFIX));
        let Some(code) = code else {
            return Err(KeyError::Foreign(if text.contains("room=") {
                "it is a room's link (open it to join the room).".into()
            } else if text.starts_with("orbis-key-") {
                "it was made by a later version of Orbis: reload this page to update it.".into()
            } else {
                "it does not start as a key does.".into()
            }));
        };
        let bytes = unb64url(code).ok_or(KeyError::Damaged)?;
        if bytes.len() < 5 {
            return Err(KeyError::Damaged);
        }
        let (body, sum) = bytes.split_at(bytes.len() - 4);
        if check(body) != sum {
            return Err(KeyError::Damaged);
        }
        let b: Backup = codec::decode(body).map_err(|_| KeyError::Damaged)?;
        let id_ok = b
            .items
            .iter()
            .any(|(w, v)| w == "id" && v.len() == 64 && v.bytes().all(|c| c.is_ascii_hexdigit()));
        let room_ok = !b.room.is_empty()
            && !b.room.contains(['.', '#', '&', '?', '/'])
            && !b.room.contains(char::is_whitespace);
        let items_ok = b.items.iter().all(|(w, _)| {
            !w.is_empty() && w.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
        });
        if !(id_ok && room_ok && items_ok) {
            return Err(KeyError::Damaged);
        }
        Ok(b)
    }

    /// Whether this browser already holds another key for the room (restoring replaces it: the
    /// seat this browser had there is lost to it).
    pub fn replaces_another(&self) -> bool {
        let mine = store::get(&format!("{}{}", games::ID_PREFIX, self.room));
        let theirs = self.items.iter().find(|(w, _)| w == "id").map(|(_, v)| v);
        mine.is_some() && mine.as_ref() != theirs
    }

    /// Keeps the key in this browser, in place of anything it held for the room.
    pub fn restore(&self) {
        games::forget_room(&self.room);
        for (what, v) in &self.items {
            store::set(&format!("orbis.p2p.{what}.{}", self.room), v);
        }
        let mut r = games::record(&self.room).unwrap_or_default();
        r.link = self.link.clone();
        games::put(&self.room, &r);
        if store::get(super::session::NAME_KEY).is_none() && !self.name.is_empty() {
            store::set(super::session::NAME_KEY, &self.name);
        }
    }

    /// The key file's text: what it is, the code, and how to use it.
    pub fn file_text(&self) -> String {
        format!(
            "Orbis game key for room {room} ({name}).\r\n\
             Keep it secret: whoever has it plays your seat.\r\n\
             To play this seat in another browser: open Orbis there, Play online, My games,\r\n\
             Restore a game key, and choose this file (or paste the line below).\r\n\r\n{code}\r\n",
            room = super::form::short_room(&self.room),
            name = self.name,
            code = self.code()
        )
    }
}

/// The online page's address without its fragment (a scanned key link opens it).
fn page_url() -> String {
    let loc = super::session::window().location();
    format!(
        "{}{}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default()
    )
}

/// "Back up this game's key": the code with its Copy button, the key file and a QR code whose
/// link restores it on the phone that scans it. `None` when this browser holds no key for the
/// room.
pub fn backup_panel(room: &str) -> Html {
    let name = store::get(super::session::NAME_KEY).unwrap_or_default();
    let Some(b) = Backup::of(room, &name) else {
        return html! { <p class="notice" role="alert">{"This browser holds no key for this room."}</p> };
    };
    let code = b.code();
    let copy = {
        let code = code.clone();
        Callback::from(move |_: MouseEvent| {
            let _ = super::session::window()
                .navigator()
                .clipboard()
                .write_text(&code);
        })
    };
    let file = {
        let (text, short) = (
            b.file_text(),
            super::form::short_room(room).replace('…', ""),
        );
        Callback::from(move |_: MouseEvent| {
            store::download(&format!("orbis-key-{short}.txt"), text.as_bytes())
        })
    };
    html! {
        <div class="key-backup" id="key-backup">
            <p>{"To play this seat from another browser (a phone, another computer), take this key \
                there: scan the QR code, or copy the code or the file, then in Orbis there choose \
                Play online, My games, Restore a game key."}</p>
            <p class="hint">{"Keep it secret: whoever has this key plays your seat."}</p>
            <p class="notice" id="key-one-at-a-time">{ONE_AT_A_TIME}</p>
            <textarea id="key-code" readonly=true rows="3" aria-label="Your game key" value={code.clone()}/>
            <div class="row">
                <button class="btn small" type="button" id="key-copy" onclick={copy}>{"Copy the key"}</button>
                <button class="btn small" type="button" id="key-file" onclick={file}>{"Save the key as a file"}</button>
            </div>
            { super::form::qr(&format!("{}#key={code}", page_url())) }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct BarProps {
    pub room: String,
}

/// The room bar's "Play from another device": the backup, made when the player opens it (its
/// QR code is drawn once, not at every redraw of the room).
#[function_component(KeyInBar)]
pub fn key_in_bar(p: &BarProps) -> Html {
    let open = use_state(|| false);
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let panel = use_memo((p.room.clone(), *open), |(room, open)| {
        if *open {
            backup_panel(room)
        } else {
            html! {}
        }
    });
    html! {
        <div class="online-key" id="online-key">
            <button class="btn small" id="online-key-toggle" aria-expanded={if *open { "true" } else { "false" }} onclick={toggle}>
                { if *open { "Hide the key" } else { "Play from another device: back up this game's key" } }
            </button>
            { (*panel).clone() }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Backup {
        Backup {
            room: "k3J9sQ2vX8bN1mP4rT6wYa".into(),
            link: "room=k3J9sQ2vX8bN1mP4rT6wYa&relays=ws://127.0.0.1:7000".into(),
            name: "Ann".into(),
            items: vec![
                ("game".into(), "link\troom=k3J9\n".into()),
                ("id".into(), "ab".repeat(32)),
                ("memento".into(), "cd".repeat(2_000)),
            ],
        }
    }

    #[test]
    fn a_code_restores_what_was_backed_up_and_a_long_memento_is_left_out() {
        let b = sample();
        let code = b.code();
        assert!(
            code.starts_with(PREFIX) && code.len() <= QR_MAX,
            "{}",
            code.len()
        );
        let back = Backup::parse(&code).unwrap();
        let mut lean = b.clone();
        lean.items.retain(|(w, _)| w != "memento");
        assert_eq!(back, lean);
        // A short memento stays.
        let mut short = b.clone();
        short.items[2].1 = "cd".repeat(40);
        assert_eq!(Backup::parse(&short.code()).unwrap(), short);
        // From a file's text or a scanned link.
        assert_eq!(Backup::parse(&lean.file_text()).unwrap(), lean);
        let link = format!(
            "https://example.org/orbis/online/#{}",
            code.replacen(PREFIX, &format!("key={PREFIX}"), 1)
        );
        assert_eq!(Backup::parse(&link).unwrap(), lean);
    }

    #[test]
    fn garbage_and_foreign_codes_are_refused_with_a_reason() {
        let code = sample().code();
        assert_eq!(Backup::parse("  "), Err(KeyError::Empty));
        assert!(matches!(
            Backup::parse("hello world"),
            Err(KeyError::Foreign(_))
        ));
        assert!(matches!(
            Backup::parse("https://example.org/orbis/online/#room=abc"),
            Err(KeyError::Foreign(w)) if w.contains("room's link")
        ));
        assert!(
            matches!(Backup::parse("orbis-key-9:AAAA"), Err(KeyError::Foreign(w)) if w.contains("later version"))
        );
        // One character changed, one dropped, the end cut off.
        let mut changed = code.clone().into_bytes();
        let i = changed.len() / 2;
        changed[i] = if changed[i] == b'A' { b'B' } else { b'A' };
        assert_eq!(
            Backup::parse(&String::from_utf8(changed).unwrap()),
            Err(KeyError::Damaged)
        );
        let mut dropped = code.clone();
        dropped.remove(code.len() / 3);
        assert_eq!(Backup::parse(&dropped), Err(KeyError::Damaged));
        assert_eq!(
            Backup::parse(&code[..code.len() - 10]),
            Err(KeyError::Damaged)
        );
        assert_eq!(Backup::parse(&format!("{code}!")), Err(KeyError::Damaged));
        // Well formed, but not a key's contents: no identity.
        let mut no_id = sample();
        no_id.items.retain(|(w, _)| w != "id");
        assert_eq!(Backup::parse(&no_id.code()), Err(KeyError::Damaged));
        for e in [
            KeyError::Empty,
            KeyError::Damaged,
            KeyError::Foreign("x.".into()),
        ] {
            assert!(e.to_string().len() > 40);
        }
    }
}
