//! Thin adapter between a matchbox WebRTC socket (one reliable channel) and the sans-I/O
//! [`orbis_protocol::Peer`]: it only maps matchbox peer ids to link ids and moves bytes. The same
//! code runs natively (webrtc-rs, the `orbis-join` bot peer) and in the browser (the web crate's
//! online play); the caller drives the socket's future with its own executor.
#![forbid(unsafe_code)]

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

/// A matchbox socket with stable link ids.
pub struct Transport {
    socket: WebRtcSocket,
    links: Links<PeerId>,
    /// Set when the socket's future finished; the socket is not touched afterwards.
    ended: Arc<Mutex<Option<Ended>>>,
}

impl Transport {
    /// Joins `room_url` (e.g. `ws://127.0.0.1:3536/my-room`) with matchbox's default ICE servers.
    /// The returned future drives the connections and must be polled alongside the game loop.
    pub fn new(room_url: &str) -> (Transport, impl Future<Output = Result<(), Error>>) {
        Transport::with_ice_servers(room_url, None)
    }

    /// As [`Transport::new`], with these ICE server URLs instead of matchbox's defaults (`Some`
    /// empty list: host candidates only).
    pub fn with_ice_servers(
        room_url: &str,
        ice: Option<&[String]>,
    ) -> (Transport, impl Future<Output = Result<(), Error>>) {
        let mut builder = WebRtcSocket::builder(room_url);
        if let Some(urls) = ice {
            builder = builder.ice_server(RtcIceServerConfig {
                urls: urls.to_vec(),
                ..Default::default()
            });
        }
        let (socket, fut) = builder.add_reliable_channel().build();
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
            for (p, state) in changes {
                let l = self.links.link(p);
                match state {
                    PeerState::Connected => out.connected.push(l),
                    PeerState::Disconnected => out.disconnected.push(l),
                }
            }
        }
        let Ok(ch) = self.socket.get_channel_mut(0) else {
            return out;
        };
        for (p, packet) in ch.receive() {
            let l = self.links.link(p);
            out.messages.push((l, packet.to_vec()));
        }
        out
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

    /// Number of open connections.
    pub fn connected(&self) -> usize {
        self.socket.connected_peers().count()
    }
}
