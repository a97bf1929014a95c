//! Games over days over the sockets: [`fetch_all`] reads a game's stored events from every relay
//! until each says it has sent all (EOSE), [`publish`] stores one visit's bundle on every relay,
//! [`refill`] gives a relay what another holds and it lacks. Native and in the browser (`rt`).
//!
//! Invariant: one relay's failure, refusal or silence touches only its own report; nothing a
//! relay sends is trusted before the [`Mailbox`] checked it.

use super::nostr::{self, Event, RelayMsg};
use super::rt;
use super::store::{self, after_refusal, Days, Mailbox, Next, DAYS_KIND, MAX_PART};
use futures::{select, FutureExt, SinkExt, StreamExt};
use futures_timer::Delay;
use rand_chacha::ChaCha20Rng;
use serde::Serialize;
use std::collections::BTreeSet;
use std::time::Duration;

/// How long a relay may take to open its websocket.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(8);
/// How long a relay may take to answer one event (`OK`).
const OK_TIMEOUT: Duration = Duration::from_secs(10);
/// Events asked for per request; older pages follow (`until`) while a page brings new ones.
const PAGE: usize = 500;
/// Pages per relay at most.
const MAX_PAGES: usize = 40;

/// What one relay returned.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RelayReport {
    pub url: String,
    /// Whether its websocket opened.
    pub reached: bool,
    /// Whether it said it had sent everything it holds (EOSE) before the timeout.
    pub complete: bool,
    /// Events it returned, and their content's bytes.
    pub events: usize,
    pub bytes: usize,
    /// Why it did not complete.
    pub error: Option<String>,
}

/// What a game's relays hold: the mailbox (bundles, envelopes, refusals) and each relay's report.
#[derive(Clone, Debug)]
pub struct Fetched {
    pub mailbox: Mailbox,
    pub per_relay: Vec<RelayReport>,
}

impl Fetched {
    /// Every envelope once, in bundle order.
    pub fn envelopes(&self) -> Vec<Vec<u8>> {
        self.mailbox.envelopes()
    }

    /// The relays that returned everything they hold.
    pub fn answered(&self) -> Vec<usize> {
        (0..self.per_relay.len())
            .filter(|&i| self.per_relay[i].complete)
            .collect()
    }
}

/// What storing on one relay came to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Published {
    pub url: String,
    /// Events sent (with retries) and accepted, and the accepted events' content bytes.
    pub sent: usize,
    pub accepted: usize,
    pub bytes: usize,
    /// Whether a bundle had to be wrapped anew (too old, or split smaller).
    pub rewrapped: bool,
    /// Why a bundle was not stored there (the relay's words).
    pub error: Option<String>,
}

/// The request for the game's events, older than `until` if given.
#[derive(Serialize)]
struct Filter<'a> {
    #[serde(rename = "#t")]
    topics: [&'a str; 1],
    kinds: [u32; 1],
    limit: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    until: Option<u64>,
}

fn request(topic: &str, until: Option<u64>) -> String {
    let f = Filter {
        topics: [topic],
        kinds: [DAYS_KIND],
        limit: PAGE,
        until,
    };
    serde_json::to_string(&("REQ", "orbis-days", f)).unwrap_or_default()
}

async fn open(url: &str) -> Result<rt::Ws, String> {
    if !super::valid_url(url) {
        return Err("not a ws:// or wss:// address".into());
    }
    select! {
        r = rt::connect(url).fuse() => r,
        _ = Delay::new(CONNECT_TIMEOUT).fuse() => Err("no answer".to_string()),
    }
}

/// The next parsed frame, `Err` when the socket closed; frames too long or not NIP-01 skipped.
async fn next(ws: &mut rt::Ws) -> Result<RelayMsg, String> {
    loop {
        let Some(frame) = ws.rx.next().await else {
            return Err("connection closed".into());
        };
        if let Some(m) = nostr::parse(&frame) {
            return Ok(m);
        }
    }
}

/// Reads one relay's events of the game, page by page, until EOSE brings nothing new.
async fn read_relay(url: &str, topic: &str, report: &mut RelayReport) -> Vec<Event> {
    report.url = url.to_string();
    let mut ws = match open(url).await {
        Ok(ws) => ws,
        Err(e) => {
            report.error = Some(e);
            return vec![];
        }
    };
    report.reached = true;
    let mut out: Vec<Event> = vec![];
    let mut ids = BTreeSet::new();
    let mut until = None;
    for _ in 0..MAX_PAGES {
        if let Err(e) = ws.tx.send(request(topic, until)).await {
            report.error = Some(e);
            return out;
        }
        let mut fresh = 0;
        let mut oldest = u64::MAX;
        loop {
            match next(&mut ws).await {
                Err(e) => {
                    report.error = Some(e);
                    return out;
                }
                Ok(RelayMsg::Event { event, .. }) => {
                    oldest = oldest.min(event.created_at);
                    if out.len() < store::MAX_EVENTS && ids.insert(event.id.clone()) {
                        fresh += 1;
                        report.events += 1;
                        report.bytes += event.content.len();
                        out.push(*event);
                    }
                }
                Ok(RelayMsg::Eose { .. }) => break,
                Ok(RelayMsg::Closed { message, .. }) => {
                    report.error = Some(format!("closed the request: {message}"));
                    return out;
                }
                Ok(_) => {}
            }
        }
        // A page with nothing new: the relay has sent all it holds (a relay that caps its
        // answers below `PAGE` is asked again for what is older than the oldest it sent).
        if fresh == 0 || oldest == u64::MAX {
            break;
        }
        until = Some(oldest);
    }
    let _ = ws.tx.send(r#"["CLOSE","orbis-days"]"#.to_string()).await;
    report.complete = true;
    out
}

/// Reads the game of room `secret` from every relay (at once), each within `timeout`; a relay
/// that does not finish in time counts as not complete (and is not refilled).
pub async fn fetch_all(relays: &[String], secret: &str, timeout: Duration) -> Fetched {
    let days = Days::new(secret);
    let topic = days.topic().to_string();
    let reads = relays.iter().map(|url| {
        let topic = topic.clone();
        async move {
            let mut report = RelayReport {
                url: url.clone(),
                ..RelayReport::default()
            };
            let events = {
                let read = read_relay(url, &topic, &mut report).fuse();
                futures::pin_mut!(read);
                select! {
                    e = read => Some(e),
                    _ = Delay::new(timeout).fuse() => None,
                }
            };
            match events {
                Some(e) => (report, e),
                None => {
                    report.complete = false;
                    report.error = Some(format!(
                        "no end of stored events within {} s",
                        timeout.as_secs()
                    ));
                    (report, vec![])
                }
            }
        }
    });
    let results = futures::future::join_all(reads).await;
    let mut mailbox = Mailbox::new(days);
    let mut per_relay = vec![];
    for (i, (report, events)) in results.into_iter().enumerate() {
        for e in &events {
            let _ = mailbox.receive(i, e);
        }
        per_relay.push(report);
    }
    Fetched { mailbox, per_relay }
}

/// What to store on one relay: a bundle's envelopes, and the events to send first (the
/// originals of a refill, or the visit's own wrap).
struct Job {
    envelopes: Vec<Vec<u8>>,
    events: Vec<Event>,
}

/// What a relay store needs to wrap anew.
struct Wrapper<'a> {
    days: &'a Days,
    keys: &'a nostr::Keys,
    expiration: u64,
}

impl Wrapper<'_> {
    fn wrap(&self, envelopes: &[Vec<u8>], part: usize, rng: &mut ChaCha20Rng) -> Vec<Event> {
        self.days
            .wrap(
                self.keys,
                envelopes,
                rt::now_s(),
                self.expiration,
                part,
                rng,
            )
            .unwrap_or_default()
    }
}

/// Sends one event and waits for the relay's `OK`: `Ok(())` accepted, `Err(Some(message))`
/// refused, `Err(None)` the connection failed (with the reason in `error`).
async fn send_one(
    ws: &mut rt::Ws,
    e: &Event,
    error: &mut Option<String>,
) -> Result<(), Option<String>> {
    if let Err(why) = ws.tx.send(nostr::publish(e)).await {
        *error = Some(why);
        return Err(None);
    }
    let answer = async {
        loop {
            match next(ws).await? {
                RelayMsg::Ok {
                    id,
                    accepted,
                    message,
                    // nostr-relay names no event in the OK of one it refused: events go one at a
                    // time, so the next OK is this one's.
                } if id == e.id || id.is_empty() => break Ok((accepted, message)),
                _ => {}
            }
        }
    }
    .fuse();
    futures::pin_mut!(answer);
    let r: Result<(bool, String), String> = select! {
        r = answer => r,
        _ = Delay::new(OK_TIMEOUT).fuse() => Err("no answer to an event".to_string()),
    };
    match r {
        Ok((true, _)) => Ok(()),
        // NIP-01: a relay that already holds the event may say so either way.
        Ok((false, m)) if m.starts_with("duplicate") => Ok(()),
        Ok((false, m)) => Err(Some(m)),
        Err(why) => {
            *error = Some(why);
            Err(None)
        }
    }
}

/// Stores `jobs` on one relay, answering refusals as [`after_refusal`] says.
async fn store_on(url: &str, jobs: Vec<Job>, w: &Wrapper<'_>, mut rng: ChaCha20Rng) -> Published {
    let mut p = Published {
        url: url.to_string(),
        ..Published::default()
    };
    let mut ws = match open(url).await {
        Ok(ws) => ws,
        Err(e) => {
            p.error = Some(e);
            return p;
        }
    };
    for job in jobs {
        let mut events = job.events;
        let mut rewrapped = false;
        let mut i = 0;
        let mut tries = 0;
        while i < events.len() {
            p.sent += 1;
            match send_one(&mut ws, &events[i], &mut p.error).await {
                Ok(()) => {
                    p.accepted += 1;
                    p.bytes += events[i].content.len();
                    i += 1;
                    tries = 0;
                }
                Err(None) => return p,
                Err(Some(m)) => {
                    // A relay may slow a connection down after a refusal (nostr-relay sleeps
                    // before each later message, doubling): go on over a new one.
                    ws = match open(url).await {
                        Ok(ws) => ws,
                        Err(e) => {
                            p.error = Some(e);
                            return p;
                        }
                    };
                    match after_refusal(&m, events[i].content.len(), tries, rewrapped) {
                        Next::Retry { after_s } => {
                            tries += 1;
                            Delay::new(Duration::from_secs(after_s)).await;
                        }
                        Next::Rewrap { part } => {
                            events = w.wrap(&job.envelopes, part, &mut rng);
                            rewrapped = true;
                            p.rewrapped = true;
                            i = 0;
                            tries = 0;
                        }
                        Next::GiveUp => {
                            p.error = Some(format!("refused: {m}"));
                            break;
                        }
                    }
                }
            }
        }
    }
    p
}

/// Stores one visit's envelopes on every relay (at once): the same signed events everywhere,
/// signed by a throwaway key from `entropy`, expiring at `expiration` (see [`store::expiration`]).
pub async fn publish(
    relays: &[String],
    secret: &str,
    envelopes: &[Vec<u8>],
    expiration: u64,
    entropy: [u8; 32],
) -> Vec<Published> {
    let days = Days::new(secret);
    let keys = store::visit_keys(&entropy);
    let w = Wrapper {
        days: &days,
        keys: &keys,
        expiration,
    };
    let events = w.wrap(envelopes, MAX_PART, &mut store::rng(&entropy, "publish"));
    let w = &w;
    let stores = relays.iter().enumerate().map(|(i, url)| {
        let job = Job {
            envelopes: envelopes.to_vec(),
            events: events.clone(),
        };
        store_on(
            url,
            vec![job],
            w,
            store::rng(&entropy, &format!("relay {i}")),
        )
    });
    futures::future::join_all(stores).await
}

/// Gives each relay that answered the bundles it lacks: the original events another relay holds,
/// wrapped anew (by a throwaway key from `entropy`) only if it refuses them. One report per relay
/// of `relays` (`None`: nothing to refill there).
pub async fn refill(
    relays: &[String],
    fetched: &Fetched,
    expiration: u64,
    entropy: [u8; 32],
) -> Vec<Option<Published>> {
    let days = fetched.mailbox.days();
    let keys = store::visit_keys(&entropy);
    let w = Wrapper {
        days,
        keys: &keys,
        expiration,
    };
    let w = &w;
    let refills = fetched.mailbox.refills(&fetched.answered());
    let stores = relays.iter().enumerate().map(|(i, url)| {
        let jobs: Vec<Job> = refills
            .iter()
            .filter(|r| r.relay == i)
            .filter_map(|r| {
                Some(Job {
                    envelopes: fetched.mailbox.bundle(&r.bundle)?.envelopes.clone(),
                    events: r.events.clone(),
                })
            })
            .collect();
        async move {
            if jobs.is_empty() {
                return None;
            }
            Some(store_on(url, jobs, w, store::rng(&entropy, &format!("refill {i}"))).await)
        }
    });
    futures::future::join_all(stores).await
}
