//! Orbis peer-to-peer protocol, sans I/O: every peer runs the same deterministic engine on the
//! same signed transcript, so no server decides anything. See `PROTOCOL.md` for the design.
//!
//! * [`wire`] — signed, versioned envelopes and message bodies.
//! * [`chain`] — dice hash chains (commit to the tip, reveal one pre-image per roll).
//! * [`peer`] — the state machine: `handle(link, bytes, now)`, `tick(now)`, local commands.
#![forbid(unsafe_code)]

pub mod chain;
pub mod links;
pub mod peer;
pub mod wire;

pub use links::Links;
pub use peer::{
    CommandError, Config, Dest, Due, HaltReport, LinkId, Next, Output, Peer, ProtocolEvent,
    ReadmitRequest, Violation, Withholding, MAX_BATCH_ACTIONS, MAX_STEP_POSITIONS, STORE_LINK,
};
pub use wire::{
    game_tag, Body, Clock, Control, Controller, Entry, Envelope, PeerKey, SeatSpec, SetupProposal,
};
