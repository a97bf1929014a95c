//! Orbis in the browser: the classic game, hot-seat and against bots, offline-capable.
//!
//! All rules are in `orbis-engine`; this crate only renders state and turns clicks into engine
//! actions. UI state (`app::Ui`) is kept apart from the game state (`orbis_engine::rules::Game`).
//!
//! Three bundles: without features this is the lite first load (classic game only), which hands
//! the orders ruleset and its saves to the full page (`full/`, built with `full`) and online play
//! to the online page (`online/`, built with `online`); the full page hands online play on too.
//! See `lite`.

mod app;
mod classic;
#[cfg(feature = "full")]
mod economy;
mod games;
#[cfg(feature = "full")]
mod help;
mod keynav;
#[cfg(not(feature = "online"))]
mod lite;
#[cfg(feature = "online")]
mod online;
#[cfg(feature = "full")]
mod orders;
#[cfg(feature = "full")]
mod replay;
mod savefile;
mod store;
mod think;
mod tutorial;
mod widgets;

// The orders layout is drawn by the full bundle only.
#[cfg_attr(not(feature = "full"), allow(dead_code))]
mod geometry {
    include!(concat!(env!("OUT_DIR"), "/geometry.rs"));
}

// Talc rather than the standard library's dlmalloc: a smaller page (crates/web/Cargo.toml).
#[cfg(target_family = "wasm")]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    // No panic hook: the pages are built so that a panic traps at once, without its message
    // (scripts/web-toolchain.sh). The pages' start-up script (web/boot.js) catches the trap and
    // tells the player that the game was autosaved after every action and that a reload resumes it.
    yew::Renderer::<app::App>::new().render();
}
