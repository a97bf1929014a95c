//! What a setup proposal makes: its check (`check_proposal`, which every peer and
//! `orbis-join` apply before accepting), the engine's seats, and the game it starts from the
//! agreed seed (each ruleset's initial state, and the orders ruleset's powers).
//!
//! Owns nothing; pure functions of the proposal and the seed. Invariant: every peer builds the
//! very same game from the same proposal and seed, and a proposal that could not start a game
//! is refused before anyone accepts it.

use super::*;

pub(super) fn seat_configs(p: &SetupProposal) -> Vec<SeatConfig> {
    p.seats
        .iter()
        .map(|s| SeatConfig {
            name: s.name.clone(),
            colour: s.colour,
            kind: match s.controller {
                Controller::Peer(_) => SeatKind::Human,
                Controller::Bot(l) => SeatKind::Bot(l),
            },
        })
        .collect()
}

/// Structural checks every peer applies to a proposal.
pub fn check_proposal(p: &SetupProposal) -> Result<(), String> {
    let n = p.participants.len();
    if n == 0 || n > 16 {
        return Err(format!("{n} participants (1 to 16 allowed)"));
    }
    if p.participants.iter().collect::<BTreeSet<_>>().len() != n {
        return Err("a participant is listed twice".into());
    }
    for s in &p.seats {
        if s.name.len() > MAX_NAME_BYTES as usize {
            return Err("seat name too long".into());
        }
        if let Controller::Peer(i) = s.controller {
            if i as usize >= n {
                return Err(format!("seat controlled by unknown participant {i}"));
            }
        }
    }
    if p.face_down && p.orders.is_some() {
        return Err("an orders game has no cards to deal face down".into());
    }
    if p.face_down && p.economy.as_ref().is_some_and(|o| !o.influence_cards) {
        return Err("an economy game without influence cards has none to deal face down".into());
    }
    if p.orders.is_some() && p.economy.is_some() {
        return Err("a game is of one ruleset: orders or economy, not both".into());
    }
    if let Some(c) = &p.clock {
        // Over days only the orders ruleset for now: classic and economy dice need every
        // contributor at each roll (PROTOCOL.md, "Games over days").
        if p.orders.is_none() {
            return Err("only an orders game can be played over days".into());
        }
        if c.excuses > 4 {
            return Err(format!(
                "{} excused missed turns (0 to 4 allowed)",
                c.excuses
            ));
        }
        if c.movement_s == 0 || c.retreat_s == 0 || c.build_s == 0 {
            return Err("every phase of a game over days needs a length".into());
        }
    }
    new_game(p, [0; 32]).map(|_| ())
}

/// The initial state of a proposal's game, and (orders ruleset) the power of each seat.
pub(super) fn new_game(p: &SetupProposal, seed: [u8; 32]) -> Result<(Game, Vec<PowerId>), String> {
    if let Some(options) = &p.economy {
        return economy_game(p, options, seed).map(|s| (s, vec![]));
    }
    match &p.orders {
        None if p.face_down => {
            ClassicState::new_sealed("classic", seat_configs(p), p.options.clone(), seed)
                .map(|s| (Game::Classic(s), vec![]))
                .map_err(|e| e.to_string())
        }
        None => ClassicState::new(seat_configs(p), p.options.clone(), seed)
            .map(|s| (Game::Classic(s), vec![]))
            .map_err(|e| e.to_string()),
        Some(o) => {
            // Orders are resolved without dice: the seed is not used.
            let n = u8::try_from(p.seats.len()).map_err(|_| "too many seats".to_string())?;
            let map = OrdersMap::get(&o.map).ok_or_else(|| format!("unknown map `{}`", o.map))?;
            let powers = map
                .powers_for(n)
                .ok_or_else(|| format!("the {} map has no setup for {n} players", map.name))?;
            let powers = seat_powers(map, &powers, &o.powers, seed)?;
            let s =
                OrdersState::new_for(&o.map, o.options.clone(), n).map_err(|e| e.to_string())?;
            Ok((Game::Orders(s), powers))
        }
    }
}

/// The power of each seat: those the proposal names (each one of the map's powers in play, no
/// two alike), the others drawn from the rest by a shuffle seeded with the game seed, which is
/// committed and revealed by every participant, so nobody chooses the draw.
pub(super) fn seat_powers(
    map: &OrdersMap,
    in_play: &[PowerId],
    chosen: &[Option<PowerId>],
    seed: [u8; 32],
) -> Result<Vec<PowerId>, String> {
    if chosen.is_empty() {
        return Ok(in_play.to_vec());
    }
    if chosen.len() != in_play.len() {
        return Err(format!(
            "{} powers chosen for {} seats",
            chosen.len(),
            in_play.len()
        ));
    }
    let named: Vec<PowerId> = chosen.iter().flatten().copied().collect();
    for (i, p) in named.iter().enumerate() {
        let name = || {
            map.powers
                .get(*p as usize)
                .map_or(format!("power {p}"), |x| x.name.clone())
        };
        if !in_play.contains(p) {
            return Err(format!(
                "{} is not in play with {} seats",
                name(),
                in_play.len()
            ));
        }
        if named[..i].contains(p) {
            return Err(format!("{} is chosen for two seats", name()));
        }
    }
    let mut free: Vec<PowerId> = in_play
        .iter()
        .copied()
        .filter(|p| !named.contains(p))
        .collect();
    let mut b = b"orbis-seat-powers".to_vec();
    b.extend_from_slice(&seed);
    orbis_engine::dice::shuffle(&mut SeededDice::new(sha256(&b)), &mut free);
    let mut free = free.into_iter();
    Ok(chosen
        .iter()
        .map(|c| c.or_else(|| free.next()).unwrap_or_default())
        .collect())
}
