//! The views of online play's connection: the join form (create a room, join one, Settings) and
//! the lobby's connection details. What they show comes from `online_net`; what the buttons do is
//! the online screen's `join` callback.

use crate::online::net::{self, NetSettings, Typed};
use orbis_transport::relay::Status;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The room's secret as the lobby shows it: enough to compare links by eye.
pub fn short_room(room: &str) -> String {
    if room.chars().count() > 12 {
        format!("{}…", room.chars().take(8).collect::<String>())
    } else {
        room.to_string()
    }
}

/// Which room the player asks for.
pub enum Target {
    /// A new room with a fresh secret.
    Create,
    /// The room of a link.
    Room(String),
    /// The room of a host's invite (offer) code, joined through the code.
    Code(String),
}

/// What the join form asks of the online screen: join with this name and these typed settings
/// (`None`: the saved ones).
pub struct JoinRequest {
    pub target: Target,
    pub name: String,
    pub typed: Option<Typed>,
}

#[derive(Properties, PartialEq)]
pub struct JoinProps {
    /// Back to the menu.
    pub on_leave: Callback<()>,
    pub join: Callback<JoinRequest>,
    /// The room in the page's link, if any.
    pub room: Option<String>,
    /// An invite code in the page's link (`#offer=…`), if any.
    pub code: Option<String>,
    pub name: String,
    pub net: NetSettings,
    /// What went wrong with the last attempt.
    pub error: Option<String>,
}

/// What the player has typed so far (kept here, so a redraw, e.g. to show an error, keeps it).
#[derive(Clone, PartialEq)]
struct Draft {
    name: String,
    room: String,
    code: String,
    relays: String,
    signal: String,
    stun: String,
    turn: String,
    turn_user: String,
    turn_pass: String,
}

impl Draft {
    fn typed(&self) -> Typed {
        Typed {
            relays: self.relays.clone(),
            signal: self.signal.clone(),
            stun: self.stun.clone(),
            turn: self.turn.clone(),
            turn_user: self.turn_user.clone(),
            turn_pass: self.turn_pass.clone(),
        }
    }
}

/// The join form: "Create a new room", or join the room of a link; Settings for relays, a
/// signalling server, STUN and TURN.
#[function_component(JoinForm)]
pub fn join_form(p: &JoinProps) -> Html {
    let draft = use_state(|| Draft {
        name: p.name.clone(),
        room: p.room.clone().unwrap_or_default(),
        code: p.code.clone().unwrap_or_default(),
        relays: p.net.relays.join(", "),
        signal: p.net.signal.clone().unwrap_or_default(),
        stun: p.net.stun.join(", "),
        turn: p.net.turn.clone().unwrap_or_default(),
        turn_user: p.net.turn_user.clone(),
        turn_pass: p.net.turn_pass.clone(),
    });
    // An input bound to one field of the draft.
    let field = |id: &'static str,
                 kind: &'static str,
                 get: fn(&Draft) -> &String,
                 set: fn(&mut Draft, String)| {
        let draft2 = draft.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            let v = e
                .target_dyn_into::<web_sys::HtmlInputElement>()
                .map(|i| i.value())
                .unwrap_or_default();
            let mut d = (*draft2).clone();
            set(&mut d, v);
            draft2.set(d);
        });
        html! { <input id={id} type={kind} value={get(&draft).clone()} {oninput} autocomplete="off"/> }
    };
    let create = {
        let join = p.join.clone();
        let draft = draft.clone();
        Callback::from(move |_: MouseEvent| {
            join.emit(JoinRequest {
                target: Target::Create,
                name: draft.name.clone(),
                typed: Some(draft.typed()),
            })
        })
    };
    let onsubmit = {
        let join = p.join.clone();
        let draft = draft.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            join.emit(JoinRequest {
                target: Target::Room(draft.room.clone()),
                name: draft.name.clone(),
                typed: Some(draft.typed()),
            })
        })
    };
    let by_code = {
        let join = p.join.clone();
        let draft = draft.clone();
        Callback::from(move |_: MouseEvent| {
            join.emit(JoinRequest {
                target: Target::Code(draft.code.clone()),
                name: draft.name.clone(),
                typed: Some(draft.typed()),
            })
        })
    };
    let code_input = {
        let draft = draft.clone();
        Callback::from(move |e: InputEvent| {
            let v = e
                .target_dyn_into::<web_sys::HtmlTextAreaElement>()
                .map(|i| i.value())
                .unwrap_or_default();
            let mut d = (*draft).clone();
            d.code = v;
            draft.set(d);
        })
    };
    let has_code = p.code.is_some();
    let has_room = p.room.is_some();
    html! {
        <main class="menu online" id="online">
            <form class="menu-card online-join" {onsubmit} novalidate=true>
                <h1>{"Play online"}</h1>
                <p class="tag">{"Create a room and send its link to your friends, or open a friend's link. You play over a direct peer-to-peer connection; no server decides anything."}</p>
                <label>{"Your name "}{ field("online-name", "text", |d| &d.name, |d, v| d.name = v) }</label>
                if let Some(e) = &p.error { <p class="notice" role="alert" id="online-error">{e}</p> }
                if !has_room {
                    <div class="menu-buttons">
                        <button class="btn primary" id="online-create" type="button" onclick={create.clone()}>{"Create a new room"}</button>
                    </div>
                }
                <fieldset class="online-room">
                    <legend>{ if has_room { "Join your friend's room" } else { "Or join a friend's room" } }</legend>
                    <label>{"Room (the part of the link after #room=) "}{ field("online-room", "text", |d| &d.room, |d, v| d.room = v) }</label>
                    <button class={classes!("btn", has_room.then_some("primary"))} id="online-join" type="submit">{"Join room"}</button>
                    if has_room {
                        <button class="btn" id="online-create" type="button" onclick={create}>{"Create a new room instead"}</button>
                    }
                </fieldset>
                <details class="online-room" id="online-by-code" open={has_code}>
                    <summary>{"Join by code (when the relays cannot be reached)"}</summary>
                    <label>{"The invite code your host sent you "}
                        <textarea id="online-code" rows="3" value={draft.code.clone()} oninput={code_input} autocomplete="off"/></label>
                    <button class={classes!("btn", has_code.then_some("primary"))} id="online-join-code" type="button" onclick={by_code}>{"Join by code"}</button>
                </details>
                <details id="online-settings">
                    <summary>{"Settings"}</summary>
                    <p class="hint">{"Players find each other through public Nostr relays, which see only an unreadable room tag and encrypted messages. Use your own relay, or on your own network a matchbox signalling server, if the defaults are blocked."}</p>
                    <label>{"Relays (comma-separated; empty: the defaults) "}{ field("online-relays", "text", |d| &d.relays, |d, v| d.relays = v) }</label>
                    <label>{"Signalling server (replaces the relays) "}{ field("online-signal", "text", |d| &d.signal, |d, v| d.signal = v) }</label>
                    <label>{"STUN servers (comma-separated; empty on a network of your own) "}{ field("online-stun", "text", |d| &d.stun, |d, v| d.stun = v) }</label>
                    <label>{"TURN server (when direct connections are blocked), e.g. turn:turn.example.org:3478 "}{ field("online-turn", "text", |d| &d.turn, |d, v| d.turn = v) }</label>
                    <label>{"TURN user "}{ field("online-turn-user", "text", |d| &d.turn_user, |d, v| d.turn_user = v) }</label>
                    <label>{"TURN password "}{ field("online-turn-pass", "password", |d| &d.turn_pass, |d, v| d.turn_pass = v) }</label>
                </details>
                <div class="menu-buttons">
                    <button class="btn" type="button" onclick={p.on_leave.reform(|_: MouseEvent| ())}>{"Back"}</button>
                </div>
            </form>
        </main>
    }
}

/// The lobby's "Connection details": each relay's state and what was refused (a debug view).
pub fn relay_details(st: &Status, via_relays: bool) -> Html {
    if !via_relays {
        return html! {};
    }
    let dropped: Vec<String> = st.dropped.iter().map(|(k, v)| format!("{k} {v}")).collect();
    html! {
        <details class="online-details" id="online-details">
            <summary>{"Connection details"}</summary>
            <ul>
                { for st.relays.iter().map(|r| html! {
                    <li class="relay" data-state={net::relay_state(r)}>
                        {format!("{} — {}", r.url, net::relay_state(r))}
                        if let Some(n) = &r.note { {format!(" · {n}")} }
                    </li>
                }) }
            </ul>
            <p class="hint" id="online-counts">{format!("Events sent {} (hellos {}), accepted {}, dropped: {}",
                st.events_sent, st.hellos_sent, st.events_accepted,
                if dropped.is_empty() { "none".to_string() } else { dropped.join(", ") })}</p>
        </details>
    }
}

/// An invite code as a QR code (SVG), for a phone's camera.
pub fn qr(text: &str) -> Html {
    match qrcode::QrCode::with_error_correction_level(text.as_bytes(), qrcode::EcLevel::L) {
        Ok(code) => {
            let svg = code
                .render::<qrcode::render::svg::Color>()
                .min_dimensions(160, 160)
                .quiet_zone(true)
                .build();
            html! { <div class="qr" aria-label="The code as a QR code">{ Html::from_html_unchecked(svg.into()) }</div> }
        }
        Err(_) => html! {},
    }
}

/// A code with its Copy button, its link and its QR code.
fn code_box(id: &'static str, code: &str, link: Option<String>) -> Html {
    let copy = {
        let code = code.to_string();
        Callback::from(move |_: MouseEvent| {
            if let Some(w) = web_sys::window() {
                let _ = w.navigator().clipboard().write_text(&code);
            }
        })
    };
    html! {
        <div class="invite-code">
            <textarea id={id} readonly=true rows="4" value={code.to_string()}/>
            <button class="btn small" type="button" onclick={copy}>{"Copy code"}</button>
            if let Some(l) = link { <a class="invite-link" href={l.clone()} id={format!("{id}-link")}>{"Link with the code"}</a> }
            { qr(code) }
        </div>
    }
}

/// "Invite by code": for a friend whose network blocks the relays. The host makes an offer code
/// and pastes the guest's answer; a guest who joined by code sees the answer to send back.
/// `answer` is the host's answer field callback: (text) → error to show.
pub fn invite_panel(
    st: &Status,
    guest: bool,
    connected: usize,
    make: Callback<MouseEvent>,
    answer: Callback<String>,
    local_error: Option<String>,
    page: &str,
) -> Html {
    let error = local_error.or_else(|| st.invite_error.clone());
    if guest {
        return html! {
            <section class="invite" id="invite">
                if let Some(e) = &error { <p class="notice" role="alert" id="invite-error">{e}</p> }
                if connected == 0 {
                    if let Some(a) = &st.answer {
                        <p>{"Send this answer code back to whoever invited you; you are in once they paste it."}</p>
                        { code_box("invite-answer-code", a, None) }
                    } else if error.is_none() {
                        <p class="hint">{"Preparing your answer code…"}</p>
                    }
                }
            </section>
        };
    }
    let onsubmit = Callback::from(move |e: SubmitEvent| {
        e.prevent_default();
        let text = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("invite-answer"))
            .and_then(|e| e.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
            .map(|t| t.value())
            .unwrap_or_default();
        answer.emit(text);
    });
    html! {
        <details class="invite" id="invite" open={st.invite.is_some() || error.is_some()}>
            <summary>{"Invite by code (for a friend who cannot reach the relays)"}</summary>
            <button class="btn small" id="invite-make" type="button" onclick={make}>{"Make an invite code"}</button>
            if let Some(e) = &error { <p class="notice" role="alert" id="invite-error">{e}</p> }
            if let Some(code) = &st.invite {
                <p>{"Send this code to your friend (it lasts 15 minutes). They choose \"Join by code\" and send you back an answer code."}</p>
                <p class="hint" id="invite-warning">{"The code carries the room's secret: anyone who sees it can join the room or change the code. Send it only to your friend, over a channel you trust, and check their key's fingerprint in the lobby."}</p>
                { code_box("invite-code", code, Some(format!("{page}#offer={code}"))) }
                <form class="invite-answer" {onsubmit}>
                    <label>{"Their answer code "}<textarea id="invite-answer" rows="3"/></label>
                    <button class="btn small primary" id="invite-connect" type="submit">{"Connect"}</button>
                </form>
            }
        </details>
    }
}
