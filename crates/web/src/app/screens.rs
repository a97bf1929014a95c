//! Screens the root component shows that belong to no ruleset: the online screen and the replay.

#[cfg(feature = "full")]
use crate::app::menu;
#[cfg(feature = "online")]
use crate::app::{classic_view, economy_view, orders_view};
#[cfg(feature = "full")]
use crate::app::{AppState, Msg};
#[cfg(feature = "full")]
use std::rc::Rc;
#[cfg(feature = "full")]
use yew::prelude::*;

/// The replay screen, back to the game (or the menu) when closed.
#[cfg(feature = "full")]
pub fn replay_screen(
    app: &UseReducerHandle<AppState>,
    drag: Rc<crate::classic::board::DragRef>,
) -> Html {
    let Some(r) = &app.replay else {
        return html! {};
    };
    let d = app.dispatcher();
    let send = Callback::from(move |m| d.dispatch(Msg::Replay(m)));
    r.screen(send, menu::send(app, Msg::Continue), drag)
}

/// The online screen, with the game the protocol runs drawn by its ruleset's screen.
#[cfg(feature = "online")]
pub fn online_screen(
    app: &UseReducerHandle<AppState>,
    drag: Rc<crate::classic::board::DragRef>,
) -> Html {
    use crate::online::{Report, Showing};
    let d = app.dispatcher();
    let on_event = Callback::from(move |e: Report| match e {
        Report::Classic(s) => d.dispatch(Msg::OnlineSync(s)),
        Report::Orders(o) => d.dispatch(Msg::OnlineOrders(o)),
        Report::Economy(e) => d.dispatch(Msg::OnlineEconomy(e)),
        Report::Replay(b) => d.dispatch(Msg::OpenTranscript(b)),
        Report::Leave => d.dispatch(Msg::ShowMenu),
        Report::Lobby => d.dispatch(Msg::OnlineLobby),
    });
    let (showing, game) = if app.orders.as_ref().is_some_and(|o| o.online.is_some()) {
        (
            Showing::Orders,
            crate::orders::view::play(&orders_view(app)),
        )
    } else if app.economy.as_ref().is_some_and(|e| e.online.is_some()) {
        (
            Showing::Economy,
            crate::economy::panel::play(&economy_view(app)),
        )
    } else if app.classic.game.is_some() {
        (
            Showing::Classic,
            crate::classic::panel::play_screen(&classic_view(app), drag),
        )
    } else {
        (Showing::Nothing, html! {})
    };
    html! { <crate::online::Online {on_event} {showing} {game} /> }
}

/// The online screen's orders game changed: the orders screens follow the protocol's state.
#[cfg(feature = "online")]
pub(super) fn online_orders(st: &mut AppState, o: crate::online::orders::OrdersSync) {
    st.classic.remote = Some(crate::classic::play::Seat {
        me: None,
        can_act: false,
        ended: false,
    });
    st.classic.game = None;
    st.orders_hash = o.hash;
    match st.orders.as_mut() {
        Some(s) if s.online.is_some() => {
            if !o.resolved.is_empty() {
                s.online_resolved(o.game, &o.resolved);
            }
        }
        _ => st.orders = Some(crate::orders::OrdersSession::new_online(o.game, &o.mine)),
    }
    if let Some(s) = st.orders.as_mut() {
        s.online_status(o.sent, o.committed, o.waiting);
    }
}

/// The online screen's economy game changed: the economy screens follow the protocol's state.
#[cfg(feature = "online")]
pub(super) fn online_economy(st: &mut AppState, e: crate::online::economy::EconomySync) {
    // Never autosaved (`save`): the transcript is an online game's record.
    st.classic.remote = Some(crate::classic::play::Seat {
        me: None,
        can_act: false,
        ended: false,
    });
    st.classic.game = None;
    st.orders = None;
    st.economy_hash = e.hash;
    match st.economy.as_mut() {
        Some(s) if s.online.is_some() => {
            if !e.events.is_empty() || s.online.as_ref().is_some_and(|o| o.confirmed != e.game) {
                s.online_played(e.game, &e.events);
            }
        }
        _ => {
            let mut s = crate::economy::EconomySession::new_online(e.game, &e.mine);
            s.log_events(&e.events);
            st.economy = Some(s);
        }
    }
    if let Some(s) = st.economy.as_mut() {
        s.online_status(
            e.mine,
            e.sent,
            e.committed,
            e.waiting,
            e.deadline,
            e.dealing,
        );
    }
}

/// Opens the replay of an online game's transcript, or says on the room's screen why not.
#[cfg(feature = "online")]
pub(super) fn open_transcript(st: &mut AppState, bytes: &[u8]) {
    match crate::replay::transcript::TranscriptReplay::new(bytes) {
        Ok(r) => {
            st.replay = Some(crate::replay::Viewer::Transcript(r));
            st.screen = crate::app::Screen::Replay;
        }
        Err(e) => st.notice = Some(format!("This game cannot be replayed: {e}")),
    }
}
