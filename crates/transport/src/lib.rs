//! Thin adapter between a matchbox WebRTC socket (one reliable channel) and the sans-I/O
//! [`orbis_protocol::Peer`]: it only maps matchbox peer ids to link ids and moves bytes.
#![forbid(unsafe_code)]

use matchbox_socket::{MessageLoopFuture, PeerId, PeerState, WebRtcSocket};
use orbis_protocol::{Dest, LinkId, Links};

/// What happened on the socket since the last poll.
#[derive(Debug, Default)]
pub struct Polled {
    /// Connections that just opened (send them a hello: call `Peer::start` again).
    pub connected: Vec<LinkId>,
    pub disconnected: Vec<LinkId>,
    /// Received messages, in arrival order.
    pub messages: Vec<(LinkId, Vec<u8>)>,
}

/// A matchbox socket with stable link ids.
pub struct Transport {
    socket: WebRtcSocket,
    links: Links<PeerId>,
}

impl Transport {
    /// Joins `room_url` (e.g. `ws://127.0.0.1:3536/my-room`). The returned future drives the
    /// connections and must be polled alongside the game loop.
    pub fn new(room_url: &str) -> (Transport, MessageLoopFuture) {
        let (socket, fut) = WebRtcSocket::new_reliable(room_url);
        (
            Transport {
                socket,
                links: Links::default(),
            },
            fut,
        )
    }

    /// Collects connection changes and received messages.
    pub fn poll(&mut self) -> Polled {
        let mut out = Polled::default();
        let Ok(changes) = self.socket.try_update_peers() else {
            return out;
        };
        for (p, state) in changes {
            let l = self.links.link(p);
            match state {
                PeerState::Connected => out.connected.push(l),
                PeerState::Disconnected => out.disconnected.push(l),
            }
        }
        let Ok(ch) = self.socket.get_channel_mut(0) else {
            return out;
        };
        let received = ch.receive();
        for (p, packet) in received {
            let l = self.links.link(p);
            out.messages.push((l, packet.to_vec()));
        }
        out
    }

    /// Sends what the protocol asked for.
    pub fn send(&mut self, sends: Vec<(Dest, Vec<u8>)>) {
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
