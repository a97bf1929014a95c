//! The lite bundle's door to the full page (`full/`, the build with the `full` feature): the
//! orders ruleset, online play, room links and saves of orders games open there, so the first
//! load carries only the classic game. The page's query string and hash go along (room name,
//! signalling server, seed); `open=` tells the full page which screen to show.

use yew::prelude::*;

/// What the full page should show first.
#[derive(Clone, Copy)]
pub enum Open {
    /// The autosave (an orders game) or a room link: the full page finds it by itself.
    Resume,
    /// The online lobby.
    Online,
    /// The new-game screen with the orders ruleset chosen.
    Orders,
}

/// Leaves for the full page. `replace`: the lite page should not stay in the history (it would
/// only send the player on again).
pub fn open_full(what: Open, replace: bool) {
    if cfg!(not(target_arch = "wasm32")) {
        return; // native unit tests: no browser
    }
    let Some(loc) = web_sys::window().map(|w| w.location()) else {
        return;
    };
    let mut search = loc.search().unwrap_or_default();
    let open = match what {
        Open::Resume => "",
        Open::Online => "open=online",
        Open::Orders => "open=orders",
    };
    if !open.is_empty() {
        search = if search.len() > 1 {
            format!("{search}&{open}")
        } else {
            format!("?{open}")
        };
    }
    let url = format!("full/{search}{}", loc.hash().unwrap_or_default());
    let _ = if replace {
        loc.replace(&url)
    } else {
        loc.assign(&url)
    };
}

/// Shown while the full page loads.
pub fn leaving() -> Html {
    html! { <div class="boot" id="leaving">{"Loading Orbis…"}</div> }
}
