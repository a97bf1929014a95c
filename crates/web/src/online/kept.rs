//! Our last commitment of a simultaneous round (orders or an economy batch), kept in
//! localStorage per room and ruleset so that a reloaded page can commit it again and reveal it:
//! the protocol only keeps it in memory.

use crate::store;
use orbis_engine::codec;

/// What is kept: the game, the round, the payload and its salt.
type Kept = ([u8; 32], u32, Vec<u8>, [u8; 32]);

fn key(kind: &str, room: &str) -> String {
    format!("orbis.p2p.{kind}.{room}")
}

/// Our kept commitment of `kind` ("orders", "economy") in `room`, if it is of game `game`:
/// (round, payload, salt).
pub(super) fn kept(kind: &str, room: &str, game: [u8; 32]) -> Option<(u32, Vec<u8>, [u8; 32])> {
    let b = store::b64_decode(&store::get(&key(kind, room))?)?;
    let (g, round, payload, salt): Kept = codec::decode(&b).ok()?;
    (g == game).then_some((round, payload, salt))
}

/// Keeps our commitment of `kind` in `room` (replacing the one before).
pub(super) fn keep(
    kind: &str,
    room: &str,
    game: [u8; 32],
    round: u32,
    payload: Vec<u8>,
    salt: [u8; 32],
) {
    let k: Kept = (game, round, payload, salt);
    store::set(&key(kind, room), &store::b64_encode(&codec::encode(&k)));
}
