//! How an online session finds its peers, as the player set it: relays or a signalling server,
//! STUN and TURN servers; their defaults, validation with messages a player can act on, and the
//! connection status the lobby shows. No protocol logic: the transport does the work.
//!
//! Where the settings come from, first match wins: the page URL (`?relays=wss://…,wss://…`,
//! `?signal=ws://…`, `?ice=stun:…`), then what this browser saved in Settings, then the defaults
//! (the public relays in `orbis_transport::relay::DEFAULT_RELAYS`, the public STUN servers in
//! `orbis_transport::DEFAULT_STUN`). A signalling server, when set, replaces the relays.

use crate::store;
use orbis_transport::relay::{valid_url, RelayConfig, RelayState, Status, DEFAULT_RELAYS};
use orbis_transport::{Ice, Rendezvous, DEFAULT_STUN};

const RELAYS_KEY: &str = "orbis.p2p.relays";
const SIGNAL_KEY: &str = "orbis.p2p.signal";
const ICE_KEY: &str = "orbis.p2p.ice.v2";
const TURN_KEY: &str = "orbis.p2p.turn";
const TURN_USER_KEY: &str = "orbis.p2p.turn.user";
const TURN_PASS_KEY: &str = "orbis.p2p.turn.pass";

/// The network settings of a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetSettings {
    pub relays: Vec<String>,
    /// A matchbox_server URL; when set, it replaces the relays.
    pub signal: Option<String>,
    pub stun: Vec<String>,
    pub turn: Option<String>,
    pub turn_user: String,
    pub turn_pass: String,
}

fn list(s: &str) -> Vec<String> {
    s.split([',', ' ', '\n'])
        .map(str::trim)
        .filter(|u| !u.is_empty())
        .map(String::from)
        .collect()
}

/// The settings in force before the player changes anything: page URL, saved, defaults.
pub fn current(param: impl Fn(&str) -> Option<String>) -> NetSettings {
    let saved = |k: &str| store::get(k).filter(|s| !s.trim().is_empty());
    NetSettings {
        relays: param("relays")
            .or_else(|| saved(RELAYS_KEY))
            .map(|s| list(&s))
            .filter(|l| !l.is_empty())
            .unwrap_or_else(|| DEFAULT_RELAYS.iter().map(|s| s.to_string()).collect()),
        signal: param("signal").or_else(|| saved(SIGNAL_KEY)),
        stun: param("ice")
            .or_else(|| saved(ICE_KEY))
            .map(|s| list(&s))
            .unwrap_or_else(|| DEFAULT_STUN.iter().map(|s| s.to_string()).collect()),
        turn: saved(TURN_KEY),
        turn_user: saved(TURN_USER_KEY).unwrap_or_default(),
        turn_pass: saved(TURN_PASS_KEY).unwrap_or_default(),
    }
}

/// The settings form's fields, as typed.
pub struct Typed {
    pub relays: String,
    pub signal: String,
    pub stun: String,
    pub turn: String,
    pub turn_user: String,
    pub turn_pass: String,
}

/// Checks what the player typed; `Err` says what is wrong and how to put it right.
pub fn parse(t: &Typed) -> Result<NetSettings, String> {
    let relays = list(&t.relays);
    if let Some(bad) = relays.iter().find(|u| !valid_url(u)) {
        return Err(format!(
            "“{bad}” is not a relay address: relay addresses start with wss:// (or ws:// on your own network). Correct it in Settings, or clear the field to use the default relays."
        ));
    }
    let signal = Some(t.signal.trim().to_string()).filter(|s| !s.is_empty());
    if let Some(bad) = signal.as_deref().filter(|s| !valid_url(s)) {
        return Err(format!(
            "“{bad}” is not a signalling server address: it starts with ws:// or wss://, e.g. ws://192.168.1.10:3536. Correct it in Settings, or clear it to meet through relays."
        ));
    }
    let stun = list(&t.stun);
    if let Some(bad) = stun
        .iter()
        .find(|u| !u.starts_with("stun:") && !u.starts_with("stuns:"))
    {
        return Err(format!(
            "“{bad}” is not a STUN server: STUN addresses start with stun:, e.g. stun:stun.example.org:3478. Correct it in Settings."
        ));
    }
    let turn = Some(t.turn.trim().to_string()).filter(|s| !s.is_empty());
    if let Some(bad) = turn
        .as_deref()
        .filter(|u| !u.starts_with("turn:") && !u.starts_with("turns:"))
    {
        return Err(format!(
            "“{bad}” is not a TURN server: TURN addresses start with turn: or turns:, e.g. turn:turn.example.org:3478. Correct it in Settings."
        ));
    }
    if turn.is_some() && (t.turn_user.trim().is_empty() || t.turn_pass.is_empty()) {
        return Err(
            "A TURN server needs its user name and password: fill both in Settings.".into(),
        );
    }
    Ok(NetSettings {
        relays: if relays.is_empty() {
            DEFAULT_RELAYS.iter().map(|s| s.to_string()).collect()
        } else {
            relays
        },
        signal,
        stun,
        turn,
        turn_user: t.turn_user.trim().to_string(),
        turn_pass: t.turn_pass.clone(),
    })
}

/// What a room link must carry besides the room so that a friend who opens it meets this page:
/// the signalling server, or relays other than the defaults (`&signal=…`, `&relays=…`, as the
/// page URL's own parameters read them; `param` tells what the address already names, which
/// stays where it is). Empty with the defaults.
pub fn link_params(n: &NetSettings, param: impl Fn(&str) -> Option<String>) -> String {
    let enc = |s: &str| String::from(js_sys::encode_uri_component(s));
    if let Some(sig) = &n.signal {
        if param("signal").as_deref() != Some(sig.as_str()) {
            return format!("&signal={}", enc(sig));
        }
        return String::new();
    }
    let defaults: Vec<String> = DEFAULT_RELAYS.iter().map(|s| s.to_string()).collect();
    if n.relays == defaults || param("relays").is_some_and(|r| list(&r) == n.relays) {
        return String::new();
    }
    format!("&relays={}", enc(&n.relays.join(",")))
}

/// Saves what the player chose in Settings (what came from the page URL is not saved).
pub fn save(n: &NetSettings, param: impl Fn(&str) -> Option<String>) {
    let defaults: Vec<String> = DEFAULT_RELAYS.iter().map(|s| s.to_string()).collect();
    if param("relays").is_none() {
        store::set(
            RELAYS_KEY,
            &if n.relays == defaults {
                String::new()
            } else {
                n.relays.join(",")
            },
        );
    }
    if param("signal").is_none() {
        store::set(SIGNAL_KEY, n.signal.as_deref().unwrap_or_default());
    }
    if param("ice").is_none() {
        store::set(ICE_KEY, &n.stun.join(","));
    }
    store::set(TURN_KEY, n.turn.as_deref().unwrap_or_default());
    store::set(TURN_USER_KEY, &n.turn_user);
    store::set(TURN_PASS_KEY, &n.turn_pass);
}

impl NetSettings {
    /// The game id's name for a room: the same on every peer of the room (`orbis join` too).
    pub fn room_name(&self, room: &str) -> String {
        match &self.signal {
            Some(s) => format!("{}/{}", s.trim_end_matches('/'), room),
            None => format!("relays:{room}"),
        }
    }

    /// How the transport meets the room's peers; `entropy` is fresh per session; `invite` is
    /// the host's offer code when joining by code.
    pub fn rendezvous(&self, room: &str, entropy: [u8; 32], invite: Option<String>) -> Rendezvous {
        match &self.signal {
            Some(_) => Rendezvous::Server(self.room_name(room)),
            None => Rendezvous::Relays(RelayConfig {
                relays: self.relays.clone(),
                secret: room.to_string(),
                entropy,
                invite,
            }),
        }
    }

    /// The single ICE entry matchbox 0.15 takes: every STUN URL and the TURN URL, with the TURN
    /// credentials (STUN ignores them).
    pub fn ice(&self) -> Ice {
        let mut urls = self.stun.clone();
        urls.extend(self.turn.clone());
        Ice {
            urls,
            username: self.turn.as_ref().map(|_| self.turn_user.clone()),
            credential: self.turn.as_ref().map(|_| self.turn_pass.clone()),
        }
    }
}

/// One line on how the relays stand, and an alert when none can be reached. Players found are
/// those heard through the relays lately, and at least those connected now (who may have gone
/// quiet on the relays).
pub fn relay_summary(s: &Status, connected: usize) -> (String, Option<String>) {
    let found = s.peers.max(connected);
    let open = s
        .relays
        .iter()
        .filter(|r| r.state == RelayState::Open)
        .count();
    let line = format!(
        "Relays: {open} of {} open · {found} player{} found",
        s.relays.len(),
        if found == 1 { "" } else { "s" }
    );
    let alert = s.all_failed().then(|| {
        format!(
            "No relay could be reached ({} tried, still retrying), so nobody can find this room. Check your internet connection, or leave the room and set relays you can reach in Settings (on a network of your own, a signalling server). Connection details below say what each relay answered.",
            s.relays.len()
        )
    });
    (line, alert)
}

/// The player-facing words for one relay's state.
pub fn relay_state(r: &orbis_transport::relay::RelayStatus) -> String {
    match &r.state {
        RelayState::Connecting => "connecting".into(),
        RelayState::Open => "open".into(),
        RelayState::Failed(e) => format!("down ({e})"),
    }
}
