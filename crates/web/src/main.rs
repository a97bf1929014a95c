//! Orbis in the browser: the classic game, hot-seat and against bots, offline-capable.
//!
//! All rules are in `orbis-engine`; this crate only renders state and turns clicks into engine
//! actions. UI state (`app::Ui`) is kept apart from the game state (`orbis_engine::rules::Game`).

mod app;
mod board;
mod online;
mod online_orders;
mod orders_ui;
mod orders_view;
mod panel;
mod savefile;
mod setup;
mod store;

mod geometry {
    include!(concat!(env!("OUT_DIR"), "/geometry.rs"));
}

fn main() {
    // If something unexpected breaks, tell the player instead of freezing silently. The game is
    // autosaved after every action, so a reload resumes it.
    std::panic::set_hook(Box::new(|_| {
        if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
            if let Some(body) = doc.body() {
                body.set_inner_html(
                    "<div class=\"boot\" role=\"alert\">Something went wrong in Orbis. \
                     Your game was saved after your last action: reload the page to continue.</div>",
                );
            }
        }
    }));
    yew::Renderer::<app::App>::new().render();
}
