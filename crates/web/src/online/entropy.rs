//! The page's secure randomness (`crypto.getRandomValues`), read in one place for keys, room
//! secrets, rendezvous keys and sealed orders. Fails closed: nothing is ever made from zeros
//! (issue 30, item 13).

/// Fresh bytes from `crypto.getRandomValues`; `None` when the browser gives none. Fails
/// closed: keys, room secrets and commitments are never made from zeros (issue 30, item 13).
pub(super) fn random<const N: usize>() -> Option<[u8; N]> {
    let mut e = [0u8; N];
    web_sys::window()?
        .crypto()
        .ok()?
        .get_random_values_with_u8_array(&mut e)
        .ok()?;
    Some(e)
}

/// What a player is told when the browser gives no secure randomness.
pub(super) const NO_RANDOMNESS: &str = "This browser gives no secure random numbers, which online play needs for its keys, dice and sealed orders: update it or open the game in another browser.";
