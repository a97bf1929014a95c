//! Thin adapter between a matchbox WebRTC socket (one reliable channel) and the sans-I/O
//! [`orbis_protocol::Peer`]: it only maps matchbox peer ids to link ids and moves bytes. The same
//! code runs natively (webrtc-rs, the `orbis-join` bot peer) and in the browser (the web crate's
//! online play); the caller drives the socket's future with its own executor.
//!
//! Peers find each other either through a `matchbox_server` (a room URL) or through public Nostr
//! relays ([`relay`]: what a static page with no server of ours uses).
#![forbid(unsafe_code)]

pub mod relay;

use matchbox_socket::{PeerId, PeerState, RtcIceServerConfig, WebRtcSocket};
use orbis_protocol::{Dest, LinkId, Links};
use std::future::Future;
use std::sync::{Arc, Mutex};

pub use matchbox_socket::Error;

/// What happened on the socket since the last poll.
#[derive(Debug, Default)]
pub struct Polled {
    /// Connections that just opened (send them a hello: call `Peer::start` again).
    pub connected: Vec<LinkId>,
    pub disconnected: Vec<LinkId>,
    /// Received messages, in arrival order.
    pub messages: Vec<(LinkId, Vec<u8>)>,
}

/// How the socket's message loop ended: `Ok` when the signalling server closed the connection,
/// `Err` with the reason when it failed.
pub type Ended = Result<(), String>;

/// How peers find each other.
#[derive(Clone, Debug)]
pub enum Rendezvous {
    /// A `matchbox_server` room URL, e.g. `ws://127.0.0.1:3536/my-room`.
    Server(String),
    /// Nostr relays and a room secret.
    Relays(relay::RelayConfig),
}

/// ICE servers: STUN and TURN URLs, with the TURN server's user and credential. matchbox 0.15
/// takes one ICE server entry, so every URL goes into it; STUN URLs ignore the credentials.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ice {
    pub urls: Vec<String>,
    pub username: Option<String>,
    pub credential: Option<String>,
}

/// Public STUN servers the page uses unless told otherwise, so peers behind ordinary NATs
/// connect directly.
pub const DEFAULT_STUN: [&str; 2] = [
    "stun:stun.l.google.com:19302",
    "stun:stun.cloudflare.com:3478",
];

/// A matchbox socket with stable link ids.
pub struct Transport {
    socket: WebRtcSocket,
    links: Links<PeerId>,
    /// Set when the socket's future finished; the socket is not touched afterwards.
    ended: Arc<Mutex<Option<Ended>>>,
    /// The relay rendezvous's status and quiet switch, when peers meet through relays.
    relays: Option<Arc<relay::Shared>>,
    /// The room secret, when peers meet through relays (invite codes are bound to it).
    room: Option<String>,
}

impl Transport {
    /// Joins a room through a signalling server or relays, with these ICE servers (`None`:
    /// matchbox's defaults).
    pub fn connect(
        rendezvous: Rendezvous,
        ice: Option<Ice>,
    ) -> (Transport, impl Future<Output = Result<(), Error>>) {
        let room = match &rendezvous {
            Rendezvous::Relays(cfg) => Some(cfg.secret.clone()),
            Rendezvous::Server(_) => None,
        };
        let (mut builder, relays) = match rendezvous {
            Rendezvous::Server(url) => (WebRtcSocket::builder(url), None),
            Rendezvous::Relays(cfg) => {
                let (b, shared) = relay::RelaySignallerBuilder::new(cfg);
                (
                    WebRtcSocket::builder("")
                        .signaller_builder(Arc::new(b))
                        // Keep-alives exist for a signalling websocket; the relay task keeps its own.
                        .signaling_keep_alive_interval(None),
                    Some(shared),
                )
            }
        };
        if let Some(ice) = ice {
            builder = builder.ice_server(RtcIceServerConfig {
                urls: ice.urls,
                username: ice.username,
                credential: ice.credential,
            });
        }
        // Channel 0 carries the protocol; through relays, channel 1 carries rendezvous events
        // between neighbours, so a newcomer connected to anyone meets the rest (`relay` module).
        builder = builder.add_reliable_channel();
        if relays.is_some() {
            builder = builder.add_reliable_channel();
        }
        let (socket, fut) = builder.build();
        let ended = Arc::new(Mutex::new(None));
        let e = ended.clone();
        let fut = async move {
            let r = fut.await;
            if let Ok(mut e) = e.lock() {
                *e = Some(r.as_ref().map(|_| ()).map_err(|err| err.to_string()));
            }
            r
        };
        (
            Transport {
                socket,
                links: Links::default(),
                ended,
                relays,
                room,
            },
            fut,
        )
    }

    /// How the socket's future ended, once it has.
    pub fn ended(&self) -> Option<Ended> {
        self.ended.lock().ok().and_then(|e| e.clone())
    }

    /// Collects connection changes and received messages.
    pub fn poll(&mut self) -> Polled {
        let mut out = Polled::default();
        if self.ended().is_some() {
            return out;
        }
        if let Ok(changes) = self.socket.try_update_peers() {
            if changes.iter().any(|(_, s)| *s == PeerState::Connected) {
                if let Some(r) = &self.relays {
                    r.kick();
                }
            }
            for (p, state) in changes {
                let l = self.links.link(p);
                match state {
                    PeerState::Connected => out.connected.push(l),
                    PeerState::Disconnected => out.disconnected.push(l),
                }
            }
        }
        if let Ok(ch) = self.socket.get_channel_mut(0) {
            for (p, packet) in ch.receive() {
                let l = self.links.link(p);
                out.messages.push((l, packet.to_vec()));
            }
        }
        self.pump_mesh();
        out
    }

    /// Moves rendezvous events between the relay task and the mesh channel.
    fn pump_mesh(&mut self) {
        let Some(shared) = self.relays.clone() else {
            return;
        };
        let connected: Vec<PeerId> = self.socket.connected_peers().collect();
        let Ok(ch) = self.socket.get_channel_mut(1) else {
            return;
        };
        for (p, packet) in ch.receive() {
            shared.mesh_received(p, &packet);
        }
        for (skip, json) in shared.take_mesh_out() {
            for p in connected.iter().filter(|p| Some(**p) != skip) {
                let _ = ch.try_send(json.clone().into_bytes().into(), *p);
            }
        }
    }

    /// Sends what the protocol asked for.
    pub fn send(&mut self, sends: Vec<(Dest, Vec<u8>)>) {
        if self.ended().is_some() {
            return;
        }
        let connected: Vec<PeerId> = self.socket.connected_peers().collect();
        let Ok(ch) = self.socket.get_channel_mut(0) else {
            return;
        };
        for (dest, bytes) in sends {
            match dest {
                Dest::All => {
                    for p in &connected {
                        let _ = ch.try_send(bytes.clone().into(), *p);
                    }
                }
                Dest::Link(l) => {
                    if let Some(p) = self.links.peer(l) {
                        let _ = ch.try_send(bytes.into(), *p);
                    }
                }
            }
        }
    }

    /// The relay rendezvous's status, when peers meet through relays.
    pub fn relay_status(&self) -> Option<relay::Status> {
        self.relays.as_ref().map(|r| r.status())
    }

    /// Stops (or resumes) the relay hellos: quiet once the game runs with every seat connected,
    /// so an idle game sends the shared relays nothing.
    pub fn set_quiet(&self, quiet: bool) {
        if let Some(r) = &self.relays {
            r.set_quiet(quiet)
        }
    }

    /// Makes an invitation (through relays only): its offer code appears in the relay status.
    pub fn invite(&self) -> Result<(), String> {
        match &self.relays {
            Some(r) => {
                r.invite();
                Ok(())
            }
            None => Err(
                "Invite codes need a room that meets through relays (no signalling server set)."
                    .into(),
            ),
        }
    }

    /// The guest's answer code for our invitation; `Err` says what is wrong with it.
    pub fn answer_invite(&self, code: &str) -> Result<(), String> {
        match (&self.relays, &self.room) {
            (Some(r), Some(room)) => r.answer(code, room),
            _ => Err(
                "Invite codes need a room that meets through relays (no signalling server set)."
                    .into(),
            ),
        }
    }

    /// Whether a connected link's traffic goes through a TURN relay (`None` while unknown).
    pub fn is_relayed(&self, link: LinkId) -> Option<bool> {
        self.links
            .peer(link)
            .and_then(|p| self.socket.is_relayed(*p))
    }

    /// How a link stands: `None` when it is not connected; `Some(None)` while the path is not
    /// known yet; `Some(Some(true))` through a TURN relay, `Some(Some(false))` direct.
    pub fn link_state(&self, link: LinkId) -> Option<Option<bool>> {
        let p = self.links.peer(link)?;
        self.socket
            .connected_peers()
            .any(|c| c == *p)
            .then(|| self.socket.is_relayed(*p))
    }

    /// For each open connection, whether it goes through a TURN relay (`None` while unknown).
    pub fn link_kinds(&self) -> Vec<Option<bool>> {
        self.socket
            .connected_peers()
            .map(|p| self.socket.is_relayed(p))
            .collect()
    }

    /// Number of open connections.
    pub fn connected(&self) -> usize {
        self.socket.connected_peers().count()
    }
}
