//! The online session over days (issue 61 item 2): its timer step (the visit once the store is
//! read, then the player's commands and what the peer does after them, then our messages to the
//! relays), "Send again", the lobby's switch between live and over days, and the room bar's box
//! that says what is due and by when, in words for a player who never read the rules.

use super::days_visit::{hellos, utc_ms};
use super::session::Session;
use crate::store;
use orbis_protocol::PeerKey;
use std::cell::RefCell;
use std::rc::Rc;

impl Session {
    /// Our messages of a game over days: kept to be stored on the relays.
    pub(super) fn days_keep(&mut self, sends: Vec<Vec<u8>>) {
        let room = self.room.clone();
        if let Some(v) = self.visit.as_mut() {
            let before = v.pending.len();
            v.add(&room, sends);
            self.acted |= v.pending.len() != before;
        }
    }

    /// The timer step of a game over days: the store once read (the visit), the player's
    /// commands (then what the peer does after them: the last submitter reveals at once, the
    /// last to accept opens its seed share), and what is pending to the relays.
    pub(super) fn days_step(&mut self) {
        let room = self.room.clone();
        let now = utc_ms();
        let Some(v) = self.visit.as_mut() else { return };
        if v.take_sent(&room) {
            self.rev += 1;
        }
        let fetched = v.fetched.borrow_mut().take();
        let (mut lines, mut roll) = (std::mem::take(&mut self.lines), None);
        if let Some(f) = fetched {
            let fetch_ms = (js_sys::Date::now() - v.fetch_t0).max(0.0) as u64;
            if f.answered().is_empty() {
                let why: Vec<String> = f
                    .per_relay
                    .iter()
                    .map(|r| format!("{}: {}", r.url, r.error.clone().unwrap_or_default()))
                    .collect();
                v.fetch_error = Some(format!(
                    "No relay sent this game ({}). You may be offline: check your connection \
                     and press “Read again”.",
                    why.join("; ")
                ));
                self.rev += 1;
                return;
            }
            let mut all = f.envelopes();
            for m in &v.pending {
                if !all.contains(m) {
                    all.push(m.clone());
                }
            }
            v.visitors = hellos(&all);
            v.refill(&f);
            let t = js_sys::Date::now();
            let out = self.peer.visit(&all, now);
            let catch_ms = (js_sys::Date::now() - t).max(0.0) as u64;
            let v = self.visit.as_mut().expect("visit");
            v.figures = (all.len(), fetch_ms, catch_ms);
            v.ready = true;
            let me = self.peer.key();
            if !v.visitors.contains_key(&me) {
                // So that whoever proposes the game finds us.
                let hello = self.peer.start(now);
                self.days_keep(hello.send.into_iter().map(|(_, raw)| raw).collect());
            }
            self.absorb(out, &mut lines, &mut roll);
            figures(all.len(), fetch_ms, catch_ms);
            self.rev += 1;
        }
        if !self.visit.as_ref().is_some_and(|v| v.ready) {
            return;
        }
        if matches!(self.peer.game(), Some(orbis_engine::rules::Game::Orders(_))) {
            self.orders_step(lines, roll);
            (lines, roll) = (vec![], None);
        }
        // After a command of ours (absorbed: `days_keep`), what the peer does next.
        if std::mem::take(&mut self.acted) {
            let out = self.peer.caught_up(now);
            self.absorb(out, &mut lines, &mut roll);
            if matches!(self.peer.game(), Some(orbis_engine::rules::Game::Orders(_))) {
                self.orders_step(lines, roll);
            }
        }
        let v = self.visit.as_mut().expect("visit");
        if v.publish_error.is_none() {
            v.publish(&room);
        }
    }

    /// The player's "Send again" (or "Read again" after a failed read).
    pub(super) fn days_retry(&mut self) {
        let room = self.room.clone();
        if let Some(v) = self.visit.as_mut() {
            if v.ready {
                v.publish_error = None;
                v.publish(&room);
            } else {
                v.fetch(&room);
            }
        }
        self.rev += 1;
    }
}

/// The visit's figures for the browser test and the notes (`window.__orbisDays`): messages read,
/// ms to read them from the relays and to catch up.
fn figures(messages: usize, fetch_ms: u64, catch_up_ms: u64) {
    let o = js_sys::Object::new();
    for (k, v) in [
        ("messages", messages as f64),
        ("fetch_ms", fetch_ms as f64),
        ("catch_up_ms", catch_up_ms as f64),
    ] {
        let _ = js_sys::Reflect::set(&o, &k.into(), &v.into());
    }
    if let Some(w) = web_sys::window() {
        let _ = js_sys::Reflect::set(&w, &"__orbisDays".into(), &o);
    }
}

/// "Spring 1901", or "Fall 1901 retreats" (the phase named when it is not the orders').
fn phase_name(d: &orbis_protocol::Due) -> String {
    let mut w = format!("{} {}", crate::orders::season_word(d.season), d.year);
    if d.phase != orbis_engine::rules::orders::Phase::Movement {
        w = format!("{w} {}", crate::orders::phase_word(d.phase));
    }
    w
}

/// A deadline in the player's own time: "Tue, 9 Dec, 14:00 (your time, in 14 h)".
fn when(at: u64) -> String {
    format!(
        "{} (your time, {})",
        crate::games::local_time(at),
        crate::games::from_now(at, utc_ms() / 1000)
    )
}

/// What the game over days waits for, for a player who never read the rules.
fn due_words(s: &Session) -> Option<String> {
    use orbis_protocol::Next;
    let me = s.peer.key();
    if let Some(d) = s.peer.due() {
        let phase = phase_name(&d);
        let mut others: Vec<PeerKey> = d.submitted.iter().chain(&d.waiting_on).copied().collect();
        others.sort();
        others.dedup();
        others.retain(|k| *k != me);
        let ins = d.submitted.iter().filter(|k| **k != me).count();
        let waiting: Vec<String> = d
            .waiting_on
            .iter()
            .filter(|k| **k != me)
            .map(|k| s.name_of(k))
            .collect();
        let n = others.len();
        // An if-chain, not a match: the protocol may name more cases (the last words below).
        return Some(if let Next::Submit { by_s } = d.next {
            format!(
                "{phase}: give your orders by {}. The others have {ins} of {n} in.",
                when(by_s)
            )
        } else if let Next::ComeBack { by_s } = d.next {
            format!(
                "Sealed. Come back after the others have submitted, by {}, to open your orders; \
                 if you don't, they count as a missed turn. {phase}: the others have {ins} of {n} in.",
                when(by_s)
            )
        } else if d.next == (Next::Reveal { lost: true }) {
            format!(
                "{phase}: everyone has submitted, but this browser holds neither your orders nor \
                 their sealed copy, so they count as a missed turn."
            )
        } else if d.next == (Next::Reveal { lost: false }) {
            format!("{phase}: everyone has submitted; your orders open now.")
        } else if let Next::Wait { until_s } = d.next {
            if waiting.is_empty() {
                format!(
                    "{phase}: nothing is due from you. The phase ends by {} at the latest.",
                    when(until_s)
                )
            } else {
                format!(
                    "{phase}: nothing is due from you. Waiting for {}; the phase ends by {} at the latest.",
                    waiting.join(", "),
                    when(until_s)
                )
            }
        } else if d.next == Next::LeftOut {
            "The computer plays your country: you missed a turn with no excuse left. Take your \
             seat back below; the others' pages agree on their next visits."
                .into()
        } else if d.next == Next::Over {
            "This game is over.".into()
        } else {
            // Our orders were sent from another device of ours, and the relays read do not
            // have them (the protocol's `Next::Elsewhere`).
            format!(
                "{phase}: your orders for this turn were sent from another device. Open the \
                 game there by {}, or they count as a missed turn; this device shows them once \
                 the relays have them.",
                when(d.vote_after_s)
            )
        });
    }
    if let Some(l) = s.peer.lobby_due() {
        let n = l.participants.len();
        let missing: Vec<String> = l
            .participants
            .iter()
            .filter(|k| !l.accepted.contains(k))
            .map(|k| s.name_of(k))
            .collect();
        return Some(if !missing.is_empty() {
            format!(
                "{} of {n} players have accepted. Waiting for {}: send them the link; the game \
                 starts after everyone has accepted and visited once more.",
                l.accepted.len(),
                missing.join(", ")
            )
        } else if !l.revealed.contains(&me) {
            "Everyone has accepted: this visit opens your share of the game's random seed."
                .to_string()
        } else {
            let late: Vec<String> = l
                .participants
                .iter()
                .filter(|k| !l.revealed.contains(k))
                .map(|k| s.name_of(k))
                .collect();
            format!(
                "Everyone has accepted. The game starts when {} visit{} once more (each page \
                 opens its share of the game's random seed by itself): come back then to give \
                 your first orders.",
                late.join(", "),
                if late.len() == 1 { "s" } else { "" }
            )
        });
    }
    None
}

/// The box of a game over days in the room bar: what is due and by when, the relays' news,
/// "Send again" after a failure, and the calendar file.
pub(super) fn panel(s: &Session, retry: yew::Callback<yew::MouseEvent>) -> yew::Html {
    use yew::html;
    let Some(v) = &s.visit else {
        return html! {};
    };
    let status = if let Some(e) = &v.fetch_error {
        html! { <p class="notice" role="alert" id="days-error">{e.clone()}
        <button class="btn small" id="days-retry" onclick={retry.clone()}>{"Read again"}</button></p> }
    } else if !v.ready {
        html! { <p class="hint" id="days-reading">{format!("Reading the game from {} relay{}…", v.relays.len(), if v.relays.len() == 1 { "" } else { "s" })}</p> }
    } else if let Some(e) = &v.publish_error {
        html! { <p class="notice" role="alert" id="days-error">{e.clone()}
        <button class="btn small" id="days-retry" onclick={retry.clone()}>{"Send again"}</button></p> }
    } else if v.publishing || !v.pending.is_empty() {
        html! { <p class="hint" id="days-sending">{"Sending your moves to the relays… keep this page open a moment."}</p> }
    } else if let Some((ok, n)) = v.stored_on {
        html! { <p class="hint" id="days-stored" data-ok={ok.to_string()}>{format!(
        "Your moves are stored on {ok} of {n} relay{}: you can close this page.", if n == 1 { "" } else { "s" })}</p> }
    } else {
        html! {}
    };
    let due = if v.ready { due_words(s) } else { None };
    let lobby = s.peer.game().is_none() && s.peer.lobby_due().is_none();
    let record = crate::games::record(&s.room).filter(|r| !r.deadlines.is_empty());
    let ics = record.map(|r| {
        let room = s.room.clone();
        yew::Callback::from(move |_: yew::MouseEvent| super::days_ics::download(&room, &r))
    });
    let next = s
        .peer
        .due()
        .map(|d| format!("{:?}", d.next))
        .unwrap_or_default();
    html! {
        // The whole width of the room's status row (a flex row of small items).
        <div class="days-visit" id="days-visit" style="flex: 1 1 100%" data-ready={if v.ready { "1" } else { "0" }}
            data-pending={v.pending.len().to_string()} data-next={next}>
            if let Some(d) = due { <p id="days-due" role="status"><b>{d}</b></p> }
            if v.ready && lobby {
                <p class="hint" id="days-lobby">{"Nobody needs to be here at the same time. Send the link \
                    (Copy link) to the players: each opens it once, which leaves their name in this room; \
                    then whoever proposes the game finds them under “Players here”. Each player's page \
                    keeps its moves, sealed, on the relays."}</p>
            }
            { status }
            if let Some(on) = ics {
                <button class="btn small" id="days-ics" onclick={on}>{"Add the deadlines to my calendar (.ics)"}</button>
            }
        </div>
    }
}

/// The lobby's choice of live or over days: the draft, and a room without a game that changes
/// mode opens again in the other one (a peer over days keeps no connection; a live one does).
pub(super) fn choose(session: &Rc<RefCell<Option<Session>>>, d: super::days_clock::Draft) {
    let mut g = session.borrow_mut();
    let Some(s) = g.as_mut() else { return };
    let switch = d.over_days != s.visit.is_some() && s.started.is_none();
    s.days = d.clone();
    s.rev += 1;
    if !switch {
        return;
    }
    let (room, name) = (s.room.clone(), s.peer_name());
    let settings = super::net::current(store::url_param);
    let hash = super::session::window()
        .location()
        .hash()
        .unwrap_or_default()
        .trim_start_matches('#')
        .replace("&days=1", "");
    let hash = if d.over_days {
        format!("{hash}&days=1")
    } else {
        hash
    };
    let _ = super::session::window().location().set_hash(&hash);
    if let Some(mut n) = Session::new(&room, &name, &settings, None, d.over_days) {
        n.days = d;
        n.ruleset = s.ruleset.clone();
        *s = n;
    }
}
