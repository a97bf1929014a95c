//! Chat: public and private messages, acknowledged per recipient and resent until each
//! acknowledges (or [`CHAT_GIVE_UP_MS`] passes).
//!
//! Owns `Peer::chat` (the outbox and the ids delivered to us).
//!
//! Invariant: chat never touches the game state or the log; the outbox and the delivered ids
//! are bounded ([`MAX_CHAT_OUTBOX`], [`MAX_DELIVERED`]), and only named keys are heard. A
//! public message waits only for the keys in the room (the key of a connection) and the game's
//! participants, and a resend goes once per connection, so a resend costs at most one copy per
//! connection (security review C10). A private message goes only to the connection its
//! recipient is bound to (by answering that connection's challenge), its text sealed to the
//! recipient's key, so a copy that goes astray reveals nothing (security review C11).

use super::*;

/// The chat state of a peer.
#[derive(Clone, Debug)]
pub(super) struct ChatBox {
    /// Our chat messages awaiting acknowledgements, by id (hash of the signed bytes).
    pub(super) outbox: BTreeMap<[u8; 32], OutgoingChat>,
    /// Ids of chat messages delivered to us, so a resend (our ack was lost) is acknowledged again;
    /// the newest [`MAX_DELIVERED`].
    pub(super) delivered: Window<[u8; 32], ()>,
}

/// Chat messages delivered to us whose ids we keep (to acknowledge a resend again).
pub(super) const MAX_DELIVERED: usize = 4096;

impl Default for ChatBox {
    fn default() -> Self {
        ChatBox {
            outbox: BTreeMap::new(),
            delivered: Window::new(MAX_DELIVERED),
        }
    }
}

/// Unacknowledged chat messages we keep resending; older ones are given up first.
pub(super) const MAX_CHAT_OUTBOX: usize = 64;

/// How long we keep resending a chat message to a recipient that does not acknowledge it.
pub(super) const CHAT_GIVE_UP_MS: u64 = 120_000;

/// A chat message of ours that some recipients have not acknowledged yet.
#[derive(Clone, Debug)]
pub(super) struct OutgoingChat {
    pub(super) raw: Vec<u8>,
    pub(super) pending: BTreeSet<PeerKey>,
    pub(super) sent_at: u64,
    pub(super) last_sent: u64,
}

impl Peer {
    /// Sends a chat message to everyone or privately to one peer. It is resent to every
    /// recipient (the peers that said hello, or the one addressed) until each acknowledges it,
    /// so a message sent while a connection is still opening, or lost, still arrives.
    pub fn chat(&mut self, to: Option<PeerKey>, text: &str) -> Result<Output, CommandError> {
        if text.len() > MAX_CHAT_BYTES as usize {
            return Err(CommandError::TooLong);
        }
        let (dest, pending) = match to {
            None => (
                Dest::All,
                // Those we can reach now, the keys bound to a connection: a key that said hello
                // once and went away (or never had a connection of its own) is not waited for,
                // nor are keys no longer the one of a connection (throwaway names on one
                // connection: security review C10).
                self.names
                    .all()
                    .keys()
                    .filter(|k| **k != self.me && self.names.is_bound(k))
                    .copied()
                    .collect(),
            ),
            Some(k) => (
                Dest::Link(self.names.link_of(&k).ok_or(CommandError::UnknownPeer)?),
                BTreeSet::from([k]),
            ),
        };
        // A private message is sealed to its recipient's key, as from ours (security review
        // C11): should a copy reach anyone else, it reveals nothing; re-signed by someone else,
        // it does not open. The ephemeral key comes from our secret
        // and this message's number, never used twice.
        let (text, sealed) = match to {
            None => (text.to_string(), vec![]),
            Some(k) => {
                let mut witness = self.cfg.identity_secret.to_vec();
                witness.extend_from_slice(&self.seq.to_le_bytes());
                let sealed = orbis_deal::sealed::seal(
                    &self.cfg.game_id,
                    &self.me.0,
                    &k.0,
                    &witness,
                    text.as_bytes(),
                )
                .ok_or(CommandError::UnknownPeer)?;
                (String::new(), sealed)
            }
        };
        let raw = self.seal(&Body::Chat { to, text, sealed });
        if self.chat.outbox.len() >= MAX_CHAT_OUTBOX {
            let oldest = self
                .chat
                .outbox
                .iter()
                .min_by_key(|(_, c)| c.sent_at)
                .map(|(id, _)| *id);
            if let Some(id) = oldest {
                self.chat.outbox.remove(&id);
            }
        }
        self.chat.outbox.insert(
            sha256(&raw),
            OutgoingChat {
                raw: raw.clone(),
                pending,
                sent_at: self.now,
                last_sent: self.now,
            },
        );
        Ok(Output {
            send: vec![(dest, raw)],
            events: vec![],
        })
    }

    /// Resends our unacknowledged chat messages, each to the recipients that have not
    /// acknowledged it, at most once per resend period; gives up after [`CHAT_GIVE_UP_MS`].
    pub(super) fn resend_chats(&mut self, now: u64, out: &mut Output) {
        self.chat
            .outbox
            .retain(|_, c| !c.pending.is_empty() && now < c.sent_at + CHAT_GIVE_UP_MS);
        for c in self.chat.outbox.values_mut() {
            if now < c.last_sent + self.cfg.resend_ms {
                continue;
            }
            c.last_sent = now;
            // One copy per connection, however many keys it carries.
            let links: BTreeSet<LinkId> = c
                .pending
                .iter()
                .filter_map(|k| self.names.link_of(k))
                .collect();
            for l in links {
                out.send.push((Dest::Link(l), c.raw.clone()));
            }
        }
    }

    /// Number of our chat messages not yet acknowledged by every recipient.
    pub fn chats_unacknowledged(&self) -> usize {
        self.chat.outbox.len()
    }

    /// A chat message for everyone or for us: shown and acknowledged.
    pub(super) fn on_chat(
        &mut self,
        link: Option<LinkId>,
        sender: PeerKey,
        to: Option<PeerKey>,
        (text, sealed): (String, Vec<u8>),
        raw: &[u8],
        out: &mut Output,
    ) -> bool {
        if sender == self.me {
            // Our own message relayed back.
            return true;
        }
        let known = self.names.is_named(&sender)
            || self
                .run
                .as_ref()
                .is_some_and(|r| r.participant(&sender).is_some());
        if !known {
            // Chat from a key that never said hello (or came when our table of names was
            // full): nobody we could answer or show a name for.
            return true;
        }
        let too_long = text.len() > MAX_CHAT_BYTES as usize
            || sealed.len() > MAX_CHAT_BYTES as usize + orbis_deal::sealed::SEAL_OVERHEAD;
        if too_long {
            Self::reject(out, link, Some(sender), Violation::TooLong);
        } else if to.is_some_and(|k| k != self.me) {
            Self::reject(out, link, Some(sender), Violation::NotForMe);
        } else {
            // A private message's text is sealed to our key.
            let text = if sealed.is_empty() {
                text
            } else {
                let secret = self.key.to_scalar().to_bytes();
                let opened = orbis_deal::sealed::open(
                    &self.cfg.game_id,
                    &sender.0,
                    &self.me.0,
                    &secret,
                    &sealed,
                )
                .and_then(|b| String::from_utf8(b).ok());
                match opened {
                    Some(t) => t,
                    // Not sealed to us, not by its signer (a copy re-signed by someone else),
                    // or changed: nothing to show or acknowledge.
                    None => return true,
                }
            };
            out.events.push(ProtocolEvent::Chat {
                from: sender,
                private: to.is_some(),
                text,
            });
            if let Some(l) = link {
                let id = sha256(raw);
                self.chat.delivered.add(id);
                let ack = self.seal(&Body::ChatAck { id });
                out.send.push((Dest::Link(l), ack));
            }
        }
        true
    }

    /// An acknowledgement of one of our chat messages by one recipient.
    pub(super) fn on_chat_ack(&mut self, sender: PeerKey, id: [u8; 32]) -> bool {
        if let Some(c) = self.chat.outbox.get_mut(&id) {
            c.pending.remove(&sender);
            if c.pending.is_empty() {
                self.chat.outbox.remove(&id);
            }
        }
        // An acknowledgement binds its signer to no connection: one solicited from it and
        // forwarded by another peer must not move its private chat there (security review
        // C11; only a hello answering a connection's challenge binds, see `on_hello`).
        true
    }
}
