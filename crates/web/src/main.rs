//! Orbis in the browser: the classic game, hot-seat and against bots, offline-capable.
//!
//! All rules are in `orbis-engine`; this crate only renders state and turns clicks into engine
//! actions. UI state (`app::Ui`) is kept apart from the game state (`orbis_engine::rules::Game`).

mod app;
mod board;
mod panel;
mod savefile;
mod setup;
mod store;

mod geometry {
    include!(concat!(env!("OUT_DIR"), "/geometry.rs"));
}

fn main() {
    yew::Renderer::<app::App>::new().render();
}
