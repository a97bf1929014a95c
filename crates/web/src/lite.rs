//! The doors between the pages, in the bundles that lack something. The lite page (no features)
//! sends the orders ruleset and its saves to the full page (`full/`, feature `full`); both send
//! online play and room links to the online page (`online/`, feature `online`). So the first load
//! carries only the classic game, and only a player who goes online downloads the protocol, the
//! deal's cryptography and the WebRTC transport. The page's query string and hash go along (room
//! name, signalling server, seed); `open=` tells the next page which screen to show.

use yew::prelude::*;

/// What the next page should show first.
#[derive(Clone, Copy)]
pub enum Open {
    /// The autosave (an orders game) or a room link: the next page finds it by itself.
    Resume,
    /// The online lobby.
    Online,
    /// "My games" on the online page (key backups, restoring, calendar files).
    Games,
    /// The replay of the autosaved classic game (the lite page's only).
    #[cfg_attr(feature = "full", allow(dead_code))]
    Replay,
    /// The new-game screen with the orders ruleset chosen (the lite page's only).
    #[cfg_attr(feature = "full", allow(dead_code))]
    Orders,
    /// The new-game screen with the economy ruleset chosen (the lite page's only).
    #[cfg_attr(feature = "full", allow(dead_code))]
    Economy,
    /// A quick game of the orders ruleset against computer powers (the lite page's only).
    #[cfg_attr(feature = "full", allow(dead_code))]
    QuickOrders,
    /// A quick game of the economy against computer players (the lite page's only).
    #[cfg_attr(feature = "full", allow(dead_code))]
    QuickEconomy,
    /// Learn to play, the classic lesson (the lite page's only: the lessons are on the full page).
    #[cfg_attr(feature = "full", allow(dead_code))]
    Learn,
    /// How to play (the lite page's only: its text is on the full page).
    #[cfg_attr(feature = "full", allow(dead_code))]
    Rules,
}

/// Leaves for the full page (orders ruleset). `replace`: this page should not stay in the
/// history (it would only send the player on again).
#[cfg(not(feature = "full"))]
pub fn open_full(what: Open, replace: bool) {
    go("full/", what, replace);
}

/// Leaves for How to play on the full page, at a term's section (`at`, an element id such as
/// `rules-classic-fortify`): a term's link on the lite page.
#[cfg(not(feature = "full"))]
pub fn open_full_rules(at: &str) {
    let at: String = at
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    go_with("full/", Open::Rules, &format!("at={at}"), false);
}

/// Leaves for the online page, which sits next to the full page (`online/`).
pub fn open_online(what: Open, replace: bool) {
    go(
        if cfg!(feature = "full") {
            "../online/"
        } else {
            "online/"
        },
        what,
        replace,
    );
}

fn go(dir: &str, what: Open, replace: bool) {
    go_with(dir, what, "", replace);
}

/// [`go`], with `extra` (`name=value`) added to the query.
fn go_with(dir: &str, what: Open, extra: &str, replace: bool) {
    if cfg!(not(target_arch = "wasm32")) {
        return; // native unit tests: no browser
    }
    let Some(loc) = web_sys::window().map(|w| w.location()) else {
        return;
    };
    let mut search = loc.search().unwrap_or_default();
    let mut open = match what {
        Open::Resume => "",
        Open::Online => "open=online",
        Open::Games => "open=games",
        Open::Orders => "open=orders",
        Open::Economy => "open=economy",
        Open::Replay => "open=replay",
        Open::Rules => "open=rules",
        Open::Learn => "open=learn",
        Open::QuickOrders => "open=quick-orders",
        Open::QuickEconomy => "open=quick-economy",
    }
    .to_string();
    if !extra.is_empty() {
        open = format!("{open}&{extra}");
    }
    if !open.is_empty() && !search.contains(&open) {
        search = if search.len() > 1 {
            format!("{search}&{open}")
        } else {
            format!("?{open}")
        };
    }
    let url = format!("{dir}{search}{}", loc.hash().unwrap_or_default());
    let _ = if replace {
        loc.replace(&url)
    } else {
        loc.assign(&url)
    };
}

/// Shown while the next page loads.
pub fn leaving() -> Html {
    html! { <div class="boot" id="leaving">{"Loading Orbis…"}</div> }
}
