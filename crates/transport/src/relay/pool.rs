//! The relay connections: one loop per relay URL, each connecting, subscribing to the room's topic,
//! publishing what it is given and passing on what arrives, and retrying with back-off when the
//! relay refuses, drops or never answers.
//!
//! Invariant: a relay's failure touches only its own loop and status line; the others go on.

use super::nostr::{self, RelayMsg};
use super::rt;
use super::{deliver, Inbox, Shared, Source};
use super::{RelayState, KIND};
use futures::channel::mpsc::UnboundedReceiver;
use futures::{select, FutureExt, SinkExt, StreamExt};
use futures_timer::Delay;
use std::sync::Arc;
use std::time::Duration;

/// How long a relay may take to open its websocket.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(8);
/// Back-off after a failure: 1, 2, 4 … seconds, at most this.
const MAX_BACKOFF_S: u64 = 30;
/// Events a relay is sent while it is (re)connecting, kept for when it opens; older ones are
/// dropped (the other relays carry them, and stale signals are useless anyway).
const QUEUE: usize = 32;

/// Whether `url` can name a relay.
pub fn valid_url(url: &str) -> bool {
    (url.starts_with("wss://") || url.starts_with("ws://"))
        && url.len() > 6
        && !url.contains(char::is_whitespace)
}

/// The subscription to the room's `topics` at `now` (replacing any before: one subscription id).
pub fn subscription(topics: &[String], now: u64) -> String {
    nostr::subscribe("orbis", KIND, topics, now.saturating_sub(60))
}

/// Runs the loop of relay `i` until `out` closes. Events of the room arrive in `inbox`; the
/// topics subscribed to are the shared ones when it connects, then those the main loop sends.
pub async fn relay_loop(
    i: usize,
    url: String,
    mut out: UnboundedReceiver<String>,
    mut inbox: Inbox,
    shared: Arc<Shared>,
) {
    if !valid_url(&url) {
        shared.set_state(
            i,
            RelayState::Failed("not a ws:// or wss:// address".into()),
        );
        // Keep draining so the sender never blocks on a dead relay.
        while out.next().await.is_some() {}
        return;
    }
    let mut queued: Vec<String> = vec![];
    let mut failures: u32 = 0;
    loop {
        shared.set_state(i, RelayState::Connecting);
        let opened = select! {
            r = rt::connect(&url).fuse() => r,
            _ = Delay::new(CONNECT_TIMEOUT).fuse() => Err("no answer".to_string()),
        };
        let reason = match opened {
            Err(e) => e,
            Ok(mut ws) => {
                shared.set_state(i, RelayState::Open);
                let mut frames = vec![subscription(&shared.topics(), rt::now_s())];
                frames.append(&mut queued);
                let mut reason = None;
                for f in frames {
                    if let Err(e) = ws.tx.send(f).await {
                        reason = Some(e);
                        break;
                    }
                    shared.count_frame(i);
                }
                match reason {
                    Some(r) => r,
                    None => {
                        failures = 0;
                        match session(i, &mut ws, &mut out, &mut inbox, &shared).await {
                            None => return,
                            Some(r) => r,
                        }
                    }
                }
            }
        };
        failures = failures.saturating_add(1);
        let wait = (1u64 << failures.min(5)).min(MAX_BACKOFF_S);
        shared.set_state(
            i,
            RelayState::Failed(format!("{reason}; retrying in {wait} s")),
        );
        let mut backoff = Delay::new(Duration::from_secs(wait)).fuse();
        loop {
            select! {
                _ = backoff => break,
                m = out.next() => match m {
                    None => return,
                    Some(m) => {
                        if queued.len() >= QUEUE { queued.remove(0); }
                        queued.push(m);
                    }
                },
            }
        }
    }
}

/// One open connection: until it drops (`Some(reason)`) or `out` closes (`None`).
async fn session(
    i: usize,
    ws: &mut rt::Ws,
    out: &mut UnboundedReceiver<String>,
    inbox: &mut Inbox,
    shared: &Shared,
) -> Option<String> {
    loop {
        select! {
            frame = ws.rx.next().fuse() => {
                let Some(frame) = frame else { return Some("connection closed".into()) };
                if frame.len() > nostr::MAX_FRAME {
                    shared.drop_event("oversized");
                    continue;
                }
                match nostr::parse(&frame) {
                    Some(RelayMsg::Event { event, .. }) => deliver(inbox, shared, Source::Relay(i), event),
                    Some(RelayMsg::Ok { accepted: false, message, .. }) => shared.note(i, format!("refused an event: {message}")),
                    Some(RelayMsg::Notice { message }) => shared.note(i, format!("notice: {message}")),
                    Some(RelayMsg::Closed { message, .. }) => return Some(format!("closed the subscription: {message}")),
                    Some(RelayMsg::Ok { .. } | RelayMsg::Eose { .. }) => {}
                    None => shared.drop_event("malformed"),
                }
            }
            m = out.next() => {
                let m = m?;
                if let Err(e) = ws.tx.send(m).await {
                    return Some(e);
                }
                shared.count_frame(i);
            }
        }
    }
}
