//! Peer-to-peer play in the browser: a matchbox WebRTC socket (one reliable channel) feeding the
//! sans-I/O protocol [`Peer`] from a timer. The game state shown on the board is the protocol's
//! engine state; the board and panel send their actions here (`submit`) instead of applying them.
//!
//! Settings: the room comes from the page URL (`#room=SECRET` or `?room=SECRET`; "Create a room"
//! makes a random 128-bit secret), how peers meet from `online_net` (public Nostr relays by
//! default, a signalling server when one is set; STUN and TURN servers). The identity (key entropy) and name are
//! kept in localStorage per room, so a reload rejoins with the same seat. How long a silent peer
//! takes to count as missing (after which the others may vote to hand its seats to a bot) is
//! `?missing_ms=N` or localStorage `orbis.p2p.missing_ms` (default 10 s; tests use a short one).

mod absorb;
mod commands;
pub mod course;
mod days;
mod days_clock;
pub mod days_ics;
pub mod days_key;
mod days_step;
mod days_visit;
mod deal;
pub mod economy;
mod end;
mod entropy;
pub mod form;
mod kept;
mod lobby;
use lobby::on_session;
pub mod net;
pub mod orders;
mod powers;
mod session;
mod steps;

use crate::classic::play::Sync;
use crate::online::form::{invite_panel, relay_details, short_room, JoinForm, JoinRequest, Target};
use crate::store;
use orbis_engine::classic::BotLevel;
use orbis_protocol::{Control, Controller, PeerKey, SetupProposal};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use entropy::{random, NO_RANDOMNESS};
pub use session::room_in_url;
use session::*;

/// What the online screen tells the app.
pub enum Report {
    /// The protocol's classic game changed.
    Classic(Box<Sync>),
    /// The protocol's orders game changed.
    Orders(Box<crate::online::orders::OrdersSync>),
    /// The protocol's economy game changed.
    Economy(Box<crate::online::economy::EconomySync>),
    /// The player asked to replay the game's transcript.
    Replay(Vec<u8>),
    /// The player left the online screen.
    Leave,
    /// Back to the room's lobby after a game: the finished game leaves the screen.
    Lobby,
}

/// Which game the app has ready to show for the running room.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Showing {
    Nothing,
    Classic,
    Orders,
    Economy,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    /// Protocol changes and leaving, for the app.
    pub on_event: Callback<Report>,
    /// Which game the app has ready for the running room, and its screen (drawn by the app).
    pub showing: Showing,
    pub game: Html,
}

/// How long a player found through the relays may stay unconnected before the lobby says why.
const UNREACHED_MS: u64 = 20_000;

/// The value of the input with this id ("" when there is none).
fn input_value(id: &str) -> String {
    window()
        .document()
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
        .map(|i| i.value())
        .unwrap_or_default()
}

/// A computer level as the page names it.
fn level_name(l: BotLevel) -> &'static str {
    match l {
        BotLevel::Easy => "easy",
        BotLevel::Normal => "normal",
        BotLevel::Hard => "hard",
    }
}

/// The "Play online" screen: join form, lobby, then the board driven through the protocol.
#[function_component(Online)]
pub fn online(props: &Props) -> Html {
    let session: Rc<RefCell<Option<Session>>> = use_mut_ref(|| None);
    let rev = use_state(|| 0u64);
    let on_event = props.on_event.clone();
    // Back to the menu: the app leaves the online screen.
    let to_menu = {
        let e = on_event.clone();
        Callback::from(move |()| e.emit(Report::Leave))
    };

    // What went wrong with the last join attempt, shown above the buttons.
    let error = use_state(|| None::<String>);
    // Join a room (`None`: create one with a fresh secret): from the form, or at once when this
    // browser already has a key for the room in the link. Every click either joins or says why not.
    let join = {
        let session = session.clone();
        let rev = rev.clone();
        let error = error.clone();
        Callback::from(
            move |JoinRequest {
                      target,
                      name,
                      typed,
                  }: JoinRequest| {
                let settings = if let Some(typed) = typed {
                    match net::parse(&typed) {
                        Ok(n) => {
                            net::save(&n, store::url_param);
                            n
                        }
                        Err(e) => {
                            error.set(Some(e));
                            return;
                        }
                    }
                } else {
                    net::current(store::url_param)
                };
                let mut invite = None;
                let room = match target {
                    Target::Create => None,
                    Target::Room(r) => Some(r),
                    Target::Code(text) => {
                        let now = (now_ms() / 1000.0) as u64;
                        match orbis_transport::relay::invite::decode(&text, now) {
                            Err(e) => {
                                error.set(Some(e.to_string()));
                                return;
                            }
                            Ok(c) if c.kind != orbis_transport::relay::invite::Kind::Offer => {
                                error.set(Some(
                                    orbis_transport::relay::invite::CodeError::WrongKind(c.kind)
                                        .to_string(),
                                ));
                                return;
                            }
                            Ok(_) if settings.signal.is_some() => {
                                error.set(Some("Invite codes work when players meet through relays: clear the signalling server in Settings.".into()));
                                return;
                            }
                            Ok(c) => {
                                invite = Some(text);
                                Some(c.room)
                            }
                        }
                    }
                };
                let room = match room.map(|r| r.trim().trim_start_matches("#room=").to_string()) {
                    Some(r) if r.is_empty() => {
                        error.set(Some("Type the room from your friend's link (the part after #room=), or create a new room.".into()));
                        return;
                    }
                    Some(r)
                        if r.contains(char::is_whitespace) || r.contains(['#', '&', '?', '/']) =>
                    {
                        error.set(Some(format!("“{r}” is not a room: paste only the part of the link after #room=, or open the link itself.")));
                        return;
                    }
                    Some(r) => r,
                    None => match random() {
                        Some(r) => orbis_transport::relay::new_secret(r),
                        None => {
                            error.set(Some(NO_RANDOMNESS.into()));
                            return;
                        }
                    },
                };
                let name = if name.trim().is_empty() {
                    "Player".to_string()
                } else {
                    name.trim().to_string()
                };
                store::set(NAME_KEY, &name);
                error.set(None);
                // A game over days (its link says so): the page visits it (`days_visit`).
                let over_days = store::url_param("days").as_deref() == Some("1");
                let Some(s) = Session::new(&room, &name, &settings, invite, over_days) else {
                    error.set(Some(NO_RANDOMNESS.into()));
                    return;
                };
                // Relays or a signalling server set in Settings go into the link too: a
                // friend who opens it must meet this page where it listens.
                let extra = net::link_params(&settings, |k| {
                    let q = window().location().search().unwrap_or_default();
                    web_sys::UrlSearchParams::new_with_str(&q)
                        .ok()
                        .and_then(|p| p.get(k))
                });
                let days = if over_days { "&days=1" } else { "" };
                let _ = window()
                    .location()
                    .set_hash(&format!("room={room}{extra}{days}"));
                *session.borrow_mut() = Some(s);
                rev.set(*rev + 1);
            },
        )
    };
    {
        let join = join.clone();
        use_effect_with((), move |_| {
            if let Some(room) = room_in_url() {
                if store::get(&id_key(&room)).is_some() {
                    join.emit(JoinRequest {
                        target: Target::Room(room),
                        name: store::get(NAME_KEY).unwrap_or_default(),
                        typed: None,
                    });
                }
            }
        });
    }
    // The protocol timer.
    {
        let session = session.clone();
        let rev = rev.clone();
        let d = on_event.clone();
        use_effect_with((), move |_| {
            let iv = gloo::timers::callback::Interval::new(15, move || {
                let mut g = session.borrow_mut();
                let Some(s) = g.as_mut() else { return };
                let before = s.rev;
                let sync = s.step();
                let osync = s.orders_sync.take();
                let esync = s.economy_sync.take();
                let after = s.rev;
                drop(g);
                if let Some(sync) = sync {
                    d.emit(Report::Classic(Box::new(sync)));
                }
                if let Some(o) = osync {
                    d.emit(Report::Orders(Box::new(o)));
                }
                if let Some(e) = esync {
                    d.emit(Report::Economy(Box::new(e)));
                }
                if after != before {
                    // "My games" says where this room's game stands.
                    if let Some(s) = session.borrow().as_ref() {
                        days::note(s);
                    }
                    rev.set(after);
                }
            });
            move || drop(iv)
        });
    }

    // The chat addressee lives in the session, not in the DOM: while players arrived and Yew
    // patched the option list, the browser's selection drifted off "Everyone" (the e2e test saw
    // a message meant for everyone go privately to the last player listed). The select shows the
    // session's choice after every render.
    {
        let session = session.clone();
        use_effect(move || {
            let v = session
                .borrow()
                .as_ref()
                .and_then(|s| s.chat_to.filter(|k| s.peer.names().contains_key(k)))
                .map(|k| hex(&k.0))
                .unwrap_or_default();
            if let Some(sel) = window()
                .document()
                .and_then(|d| d.get_element_by_id("chat-to"))
                .and_then(|e| e.dyn_into::<web_sys::HtmlSelectElement>().ok())
            {
                if sel.value() != v {
                    sel.set_value(&v);
                }
            }
        });
    }

    let g = session.borrow();
    let Some(s) = g.as_ref() else {
        return html! {
            <JoinForm on_leave={to_menu.clone()} {join} room={room_in_url()} code={store::url_param("offer")} name={store::get(NAME_KEY).unwrap_or_default()}
                net={net::current(store::url_param)} error={(*error).clone()}/>
        };
    };

    let me = s.peer.key();
    let mut present: Vec<PeerKey> = s.peer.names().keys().copied().collect();
    // Over days: everyone who left a hello in the room's store.
    present.extend(s.visit.iter().flat_map(|v| v.visitors.keys().copied()));
    present.push(me);
    present.sort();
    present.dedup();
    let connected = s.net.connected();
    let closed = s.net.ended().map(|r| match r {
        Ok(()) => "The connection to the signalling server closed: check that it still runs, then reload the page.".to_string(),
        Err(e) => format!("The signalling server could not be reached ({e}). Check its address in Settings (leave the room first), or clear it to meet through relays."),
    });
    let relays = s.net.relay_status();
    let (relay_line, relay_alert) = relays.as_ref().map_or((None, None), |st| {
        let (l, a) = net::relay_summary(st, connected);
        // A guest who joined by code, or a peer already connected, does not need the relays.
        (Some(l), a.filter(|_| !s.guest && connected == 0))
    });
    let unreached = s.unreached_since.filter(|since| s.t() >= since + UNREACHED_MS).and(relays.as_ref()).map(|st| {
        let n = st.peers.saturating_sub(connected);
        format!("Found {n} player{} through the relays but could not connect directly: your network or theirs may block direct connections. Add a TURN server in Settings (leave the room, open Settings, join again), or play on the same network.",
            if n == 1 { "" } else { "s" })
    });
    let links = s.net.link_kinds();
    let direct = links.iter().filter(|k| **k == Some(false)).count();
    let relayed = links.iter().filter(|k| **k == Some(true)).count();
    let take_back = {
        let session = session.clone();
        let rev = rev.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(s) = session.borrow_mut().as_mut() {
                s.take_seat_back();
            }
            rev.set(*rev + 1);
        })
    };
    let copy = {
        Callback::from(move |_: MouseEvent| {
            let href = window().location().href().unwrap_or_default();
            let _ = window().navigator().clipboard().write_text(&href);
        })
    };
    // Back to the join form (to change Settings, or another room); the link's room is dropped so
    // the form does not join it again at once.
    let leave = {
        let session = session.clone();
        let rev = rev.clone();
        Callback::from(move |_: MouseEvent| {
            let loc = window().location();
            let url = format!(
                "{}{}",
                loc.pathname().unwrap_or_default(),
                loc.search().unwrap_or_default()
            );
            if let Ok(h) = window().history() {
                let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
            }
            *session.borrow_mut() = None;
            rev.set(*rev + 1);
        })
    };
    let make_invite = on_session(&session, &rev, |s| {
        s.invite_msg = s.net.invite().err();
    });
    let answer_invite = {
        let session = session.clone();
        let rev = rev.clone();
        Callback::from(move |text: String| {
            if let Some(s) = session.borrow_mut().as_mut() {
                s.invite_msg = s.net.answer_invite(&text).err();
            }
            rev.set(*rev + 1);
        })
    };
    // The page without its fragment: invite links add `#offer=…` to it.
    let page_url = {
        let loc = window().location();
        format!(
            "{}{}{}",
            loc.origin().unwrap_or_default(),
            loc.pathname().unwrap_or_default(),
            loc.search().unwrap_or_default()
        )
    };
    let chat_send = {
        let session = session.clone();
        let rev = rev.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let text = input_value("chat-text");
            if text.trim().is_empty() {
                return;
            }
            if let Some(s) = session.borrow_mut().as_mut() {
                let to = s.chat_to.filter(|k| s.peer.names().contains_key(k));
                s.chat(to, text.trim());
            }
            if let Some(i) = window()
                .document()
                .and_then(|d| d.get_element_by_id("chat-text"))
                .and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
            {
                i.set_value("");
            }
            rev.set(*rev + 1);
        })
    };
    let waiting: Vec<String> = s.peer.waiting_on().iter().map(|k| s.name_of(k)).collect();
    // After the timeout: vote to hand each missing participant's seats to the computer, with the
    // tally of the open vote (every other dice-rolling participant must agree).
    let open = s.peer.open_votes();
    let overdue = s.overdue();
    let votable: Vec<PeerKey> = s.missing.iter().chain(overdue.iter()).copied().collect();
    let votes = html! {
        <ul class="online-votes" id="online-votes">
        { for votable.iter().filter(|k| !s.dropped.contains(k) && s.started.is_some() && s.peer.game().is_some_and(|g| !g.is_over())
            && s.proposals.get(&s.started.unwrap_or_default()).is_some_and(|p| p.participants.contains(k)))
            .map(|k| {
            let name = s.name_of(k);
            // The vote a click signs (`vote_drop`): an open one as it stands, or a new one.
            let drop = s.peer.drop_vote(*k, s.drop_level());
            let tally = open.iter().find(|(c, _, _)| *c == drop);
            let (have, need) = tally.map_or((vec![], vec![]), |(_, v, n)| (v.clone(), n.clone()));
            let voted = have.contains(&me);
            if tally.is_none() && !s.peer.can_vote(&drop) {
                // A vote cast where the game does not wait on them would never apply: say when
                // it will (the game reaches their turn, or their part of a roll or the cards).
                return html! {
                    <li class="vote-later" data-peer-name={name.clone()}>
                        {format!("{name} is away: once the game waits on {name}, you can hand their seat to the computer. Play on meanwhile.")}
                    </li>
                };
            }
            let onclick = {
                let k = *k;
                on_session(&session, &rev, move |s| s.vote_drop(k))
            };
            html! {
                <li class="vote" data-peer-name={name.clone()}>
                    <button class="btn small vote-drop" disabled={voted} {onclick}>
                        { if s.peer.drop_ends_game(k) {
                            // Nobody can stand in for a leaver's face-down cards at two.
                            format!("End the game without {name}")
                        } else if let Control::Drop { level: l @ (BotLevel::Easy | BotLevel::Hard), .. } = drop {
                            // Another client opened the vote at this level: say so.
                            format!("Hand {name}'s seat to the computer ({})", level_name(l))
                        } else {
                            format!("Hand {name}'s seat to the computer")
                        } }
                    </button>
                    if tally.is_some() {
                        <span class="tally">{format!(" {} of {} votes{}", have.len(), need.len(),
                            if voted { " (yours included)" } else { "" })}</span>
                    }
                </li>
            }
        }) }
        </ul>
    };
    // Requests to come back from players dropped while connected (security review B8): the
    // player decides; they are shown whether or not the game is paused.
    let requests = html! {
        <ul class="online-votes" id="online-readmits">
        { for s.peer.readmit_requests().into_iter().filter(|r| r.left_present).map(|r| {
            let name = s.name_of(&r.peer);
            let onclick = {
                let k = r.peer;
                on_session(&session, &rev, move |s| s.vote_readmit(k))
            };
            html! {
                <li class="vote" data-peer-name={name.clone()}>
                    <span>{format!("{name} was voted out while connected and asks to come back. ")}</span>
                    <button class="btn small vote-readmit" disabled={r.seconded} {onclick}>
                        {format!("Let {name} back in")}
                    </button>
                </li>
            }
        }) }
        </ul>
    };
    let over = s.peer.game().is_some_and(|g| g.is_over()) || s.peer.ended().is_some();
    // Back to the lobby with the same players (the app drops the finished game's screen).
    let play_again = {
        let session = session.clone();
        let rev = rev.clone();
        let e = on_event.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(s) = session.borrow_mut().as_mut() {
                s.play_again();
            }
            e.emit(Report::Lobby);
            rev.set(*rev + 1);
        })
    };
    let paused = !over && (!s.missing.is_empty() || !overdue.is_empty());
    let status = html! {
        <div class="online-status" id="online-status">
            <span>{ if s.visit.is_some() { format!("Room {} · over days", short_room(&s.room)) }
                else { format!("Room {} · {} connected", short_room(&s.room), connected) } }</span>
            <button class="btn small" id="copy-link" onclick={copy}>{"Copy link"}</button>
            if s.started.is_none() {
                <button class="btn small" id="online-leave" onclick={leave}>{"Leave for another room"}</button>
            }
            if s.visit.is_some() {
                { days_step::panel(s, on_session(&session, &rev, |s| s.days_retry())) }
            } else {
            <p class="hint" id="online-links">
                { if connected == 0 { "Searching for players…".to_string() } else {
                    format!("{direct} direct{}{}", if relayed > 0 { format!(", {relayed} through TURN") } else { String::new() },
                        if direct + relayed < connected { format!(", {} connecting", connected - direct - relayed) } else { String::new() }) } }
                if let Some(l) = &relay_line { {" · "}{l} }
            </p>
            if let Some(c) = &closed { <p class="notice" role="alert" id="online-error">{c}</p> }
            if let Some(a) = &relay_alert { <p class="notice" role="alert" id="online-error">{a}</p> }
            if let Some(u) = &unreached { <p class="notice" role="alert" id="online-unreached">{u}</p> }
            if let Some(st) = relays.as_ref().filter(|_| s.via_relays) {
                { invite_panel(st, s.guest, connected, make_invite, answer_invite, s.invite_msg.clone(), &page_url) }
            }
            if let Some(st) = &relays { { relay_details(st, s.via_relays) } }
            }
            <days_key::KeyInBar room={s.room.clone()} />
            if paused {
                if !s.missing.is_empty() {
                    <p class="notice" id="online-paused" role="status">{format!("Paused — missing: {}",
                        s.missing.iter().map(|k| s.name_of(k)).collect::<Vec<_>>().join(", "))}</p>
                }
                if !overdue.is_empty() {
                    <p class="notice" id="online-overdue" role="status">{format!(
                        "{}: connected but not playing for a while. You may hand the seat to the computer.",
                        overdue.iter().map(|k| s.name_of(k)).collect::<Vec<_>>().join(", "))}</p>
                }
                { votes }
            }
            { requests }
            if s.peer.left_out() {
                <div class="notice" id="online-left-out" role="status">
                    if s.asking_back() {
                        <p>{"Asking the others to hand your seat back: it returns between your turns once every \
                            other player has agreed (their pages do it by themselves while they are connected)."}</p>
                    } else {
                        <p>{"The computer plays your seat: the others handed it over while you were away."}</p>
                        <button class="btn small" id="take-seat-back" onclick={take_back}>{"Take my seat back"}</button>
                    }
                </div>
            }
            if let Some(h) = s.peer.halted() { <p class="notice" role="alert" id="online-halted">{end::halt_text(s, h)}</p> }
            { end::transcript_button(s, on_session(&session, &rev, |s| s.download_transcript()), {
                let (session, d) = (session.clone(), props.on_event.clone());
                Callback::from(move |_: MouseEvent| {
                    let bytes = session.borrow().as_ref().and_then(|s| s.peer.transcript());
                    if let Some(b) = bytes {
                        d.emit(Report::Replay(b));
                    }
                })
            }) }
            if over {
                <button class="btn primary small" id="play-again" onclick={play_again.clone()}>{"Play again in this room"}</button>
            }
            if let Some(n) = s.withheld_note() { <p class="notice" id="online-withheld" role="status">{n}</p> }
            if s.started.is_some() && !waiting.is_empty() {
                <p class="hint">{format!("Waiting for {}", waiting.join(", "))}</p>
            }
        </div>
    };
    let chat_to = {
        let session = session.clone();
        Callback::from(move |e: yew::Event| {
            let v = e
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .map(|s| s.value())
                .unwrap_or_default();
            if let Some(s) = session.borrow_mut().as_mut() {
                s.chat_to = unhex32(&v).map(PeerKey);
            }
        })
    };
    let chat = html! {
        <section class="online-chat" aria-label="Chat">
            <ul id="chat-log">
                { for s.chat.iter().rev().take(30).collect::<Vec<_>>().into_iter().rev().map(|(who, private, text)| html! {
                    <li class={classes!(private.then_some("private"))}><b>{who}</b>{if *private { " (private): " } else { ": " }}{text}</li>
                }) }
            </ul>
            <form onsubmit={chat_send}>
                <select id="chat-to" aria-label="To" onchange={chat_to}>
                    <option value="" selected={s.chat_to.is_none()}>{"Everyone"}</option>
                    { for present.iter().filter(|k| **k != me).map(|k| html! {
                        <option value={hex(&k.0)} selected={s.chat_to == Some(*k)}>{s.name_of(k)}</option>
                    }) }
                </select>
                <input id="chat-text" maxlength="200" placeholder="Message" aria-label="Message"/>
                <button class="btn small" id="chat-send" type="submit">{"Send"}</button>
            </form>
        </section>
    };
    let notes = html! {
        <ul class="online-notes">{ for s.notes.iter().rev().take(3).map(|n| html!{<li>{n}</li>}) }</ul>
    };
    let attrs_started = if s.started.is_some() { "1" } else { "0" };
    let log_len = s.peer.log_len().to_string();
    // Hellos this page has sent to the relays (the e2e test checks a running game sends none).
    let hellos = relays.as_ref().map_or(0, |r| r.hellos_sent).to_string();

    // The room bar under a running game: in the page's flow (never over the game's controls),
    // folded to this line when the player wants the room for the board.
    let bar_title = match &s.visit {
        Some(_) => format!(
            "Room {} · over days — what is due, and the room",
            short_room(&s.room)
        ),
        None => format!(
            "Room {} · {connected} connected{} — chat and room",
            short_room(&s.room),
            if paused { " · paused" } else { "" }
        ),
    };
    if s.started.is_some() && matches!(props.showing, Showing::Orders | Showing::Economy) {
        let economy = props.showing == Showing::Economy;
        let auto = on_session(&session, &rev, |s| {
            s.autoplay = !s.autoplay;
            s.rev += 1;
        });
        return html! {
            <div class={classes!("online-play", if props.showing == Showing::Orders { "online-orders" } else { "online-economy" })} id="online" data-started={attrs_started} data-log-len={log_len.clone()} data-hellos={hellos.clone()}
                data-paused={if paused { "1" } else { "0" }} data-autoplay={if s.autoplay { "1" } else { "0" }}>
                { props.game.clone() }
                // A landmark of its own (axe-core's `region`: everything on the page in one).
                <aside class="online-room" aria-label="The room: status, notes and chat">
                <details class="online-bar" open=true>
                    <summary>{ bar_title.clone() }</summary>
                    { status }
                    if economy && !over {
                        <button class="btn small" id="autoplay" aria-pressed={if s.autoplay { "true" } else { "false" }} onclick={auto}>
                            { if s.autoplay { "Stop playing for me" } else { "Let the computer play my seat" } }
                        </button>
                    }
                    { notes }
                    { chat }
                </details>
                </aside>
            </div>
        };
    }

    if s.started.is_some() && props.showing == Showing::Classic {
        let auto = on_session(&session, &rev, |s| {
            s.autoplay = !s.autoplay;
            s.rev += 1;
        });
        return html! {
            <div class="online-play" id="online" data-started={attrs_started} data-log-len={log_len.clone()} data-hellos={hellos.clone()}
                data-paused={if paused { "1" } else { "0" }} data-autoplay={if s.autoplay { "1" } else { "0" }}>
                { props.game.clone() }
                // A landmark of its own (axe-core's `region`: everything on the page in one).
                <aside class="online-room" aria-label="The room: status, notes and chat">
                <details class="online-bar" open=true>
                    <summary>{ bar_title.clone() }</summary>
                    { status }
                    if s.peer.ended().is_none() {
                        <button class="btn small" id="autoplay" aria-pressed={if s.autoplay { "true" } else { "false" }} onclick={auto}>
                            { if s.autoplay { "Stop playing for me" } else { "Let the computer play my seat" } }
                        </button>
                    }
                    { notes }
                    { chat }
                </details>
                </aside>
            </div>
        };
    }

    // Lobby.
    let seats_next = (present.len().min(6) + s.bots).min(6);
    let proposals = s.order.iter().rev().take(3).map(|h| {
        let p = &s.proposals[h];
        let mine = p.participants.contains(&me);
        let accepted = s.accepted.contains(h);
        let onclick = {
            let h = *h;
            on_session(&session, &rev, move |s| s.accept(h))
        };
        html! {
            <li class="proposal">
                <p>{match (&p.orders, &p.economy) {
                    (Some(o), _) => format!("Orders game on the {} map, {} seats:",
                        orbis_engine::rules::orders::map::OrdersMap::get(&o.map).map_or(o.map.clone(), |m| m.name.clone()),
                        p.seats.len()),
                    (None, Some(_)) => format!("Economy game, {} seats:", p.seats.len()),
                    (None, None) => format!("Classic game, {} seats:", p.seats.len()),
                }}</p>
                if let Some(e) = &p.economy { <p class="hint rules-summary">{crate::economy::form::summary(e, p.seats.len())}</p> }
                if p.orders.is_none() && p.economy.is_none() { <p class="hint rules-summary">{crate::classic::options::options_summary(&p.options, p.seats.len())}</p> }
                if p.orders.is_none() && p.economy.as_ref().is_none_or(|o| o.influence_cards) { <p class="hint proposal-deal">{deal::proposal_deal(p.face_down, p.stand_in, s.stand_in)}</p> }
                <ol>{ for p.seats.iter().enumerate().map(|(i, seat)| html!{
                    <li>{format!("{} ({}) — {}", seat.name, seat_label(p, i), match seat.controller {
                        Controller::Peer(i) => p.participants.get(i as usize).map(|k| format!("{} [{}]", s.name_of(k), fingerprint(k))).unwrap_or_default(),
                        Controller::Bot(l) => format!("computer ({})", level_name(l)),
                    })}</li>
                }) }</ol>
                if mine && !accepted {
                    <button class="btn primary accept" {onclick}>{"Accept and start"}</button>
                } else if accepted {
                    <span class="hint">{"Accepted — waiting for the others."}</span>
                }
            </li>
        }
    });
    html! {
        <main class="menu online" id="online" data-started={attrs_started} data-log-len={log_len.clone()} data-hellos={hellos.clone()}
            data-peers={present.len().to_string()} data-room-url={s.room_url.clone()}
            data-chat-pending={s.peer.chats_unacknowledged().to_string()}>
            <div class="menu-card online-lobby">
                <h1>{"Play online"}</h1>
                { status }
                <h2>{"Players here"}</h2>
                <ul id="online-peers">{ for present.iter().map(|k| {
                    let how = if *k == me || s.visit.is_some() { String::new() } else {
                        match s.peer.link_of(k).and_then(|l| s.net.link_state(l)) {
                            None => " — not connected".into(),
                            Some(None) => " — connecting".into(),
                            Some(Some(false)) => " — direct".into(),
                            Some(Some(true)) => " — through TURN".into(),
                        }
                    };
                    let fp = fingerprint(k);
                    let pick = (*k != me && s.started.is_none()).then(|| {
                        let k = *k;
                        let on = on_session(&session, &rev, move |s| {
                            if !s.left_out.remove(&k) {
                                s.left_out.insert(k);
                            }
                            s.rev += 1;
                        });
                        html! {
                            <label class="pick" title="In the next proposal">
                                <input type="checkbox" class="pick-player" checked={!s.left_out.contains(&k)} onclick={on}/>
                                {"play"}
                            </label>
                        }
                    });
                    html!{ <li data-fingerprint={fp.clone()}>{s.name_of(k)}<span class="hint">{how}</span><span class="fp" title="Key fingerprint: ask your friends to read theirs to you">{format!(" [{fp}]")}</span>{ for pick }</li> }
                }) }</ul>
                { lobby::new_game(s, &session, &rev, &present, seats_next) }
                <ul id="online-proposals">{ for proposals }</ul>
                { notes }
                { chat }
                <button class="btn" type="button" id="online-menu" onclick={to_menu.reform(|_: MouseEvent| ())}>{"Leave to the menu"}</button>
            </div>
        </main>
    }
}

/// What a proposed seat is shown as: its colour (classic) or the power it plays (orders).
fn seat_label(p: &SetupProposal, i: usize) -> String {
    use orbis_engine::rules::orders::map::OrdersMap;
    match &p.orders {
        None => p
            .seats
            .get(i)
            .map_or(String::new(), |s| s.colour.name().to_string()),
        Some(o) => OrdersMap::get(&o.map)
            .and_then(|m| {
                let power = match o.powers.get(i) {
                    Some(Some(p)) => *p,
                    // Drawn when the game starts, from the shared seed.
                    Some(None) => return Some("random power".into()),
                    None => *m.powers_for(p.seats.len() as u8)?.get(i)?,
                };
                Some(m.powers.get(power as usize)?.name.clone())
            })
            .unwrap_or_default(),
    }
}
