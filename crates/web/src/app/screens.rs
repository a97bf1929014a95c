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
