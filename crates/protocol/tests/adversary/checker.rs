//! The checker: what must hold of the honest peers after every step and at the end of a run.

use super::*;

/// Every table a stranger or a participant can grow stays within its bound (PROTOCOL.md, "A
/// stranger cannot: grow a peer's tables without bound").
pub(super) fn check_tables(seed: u64, devs: &[Dev], p: &Peer, n: usize) {
    let t: BTreeMap<_, _> = p.table_sizes().into_iter().collect();
    // Orders and economy games keep every position's round (the transcript's part of the log):
    // the table grows with the log, never ahead of it; a classic game's generic rounds are
    // limited.
    let rounds = match p.game() {
        Some(Game::Classic(_)) | None => 64,
        _ => 64 + p.log_len() as usize,
    };
    let bounds = [
        ("proposals", 64),
        ("proposers", 64),
        ("names", 256),
        ("forgotten_binds", 256),
        ("early", 4096),
        ("junk", 8192),
        // Open votes: at most 32 per voter, and those about us kept 64 positions.
        ("votes", 32 * n + 64 + n),
        ("rounds", rounds),
        ("their_checkpoints", 4 * n),
    ];
    for (k, b) in bounds {
        if let Some(&v) = t.get(k) {
            if v > b {
                fail(seed, devs, format!("table {k}: {v} > {b} ({t:?})"));
            }
        }
    }
    if let Err(e) = p.check_tables() {
        fail(seed, devs, e);
    }
}

/// After the run: the checker, on the honest peers only.
pub(super) fn check(
    seed: u64,
    devs: &[Dev],
    net: &Net,
    #[allow(dead_code)] me: usize,
    honest: &[usize],
    _applied: &BTreeMap<Dev, u64>,
    seats: &[(usize, u8)],
) {
    let keys = net.keys();
    let adv = keys[me];
    let is_honest = |k: &PeerKey| honest.iter().any(|&i| keys[i] == *k);
    let f = |w: String| fail(seed, devs, format!("(adversary {me}) {w}"));
    if std::env::var("ORBIS_ADV_TRACE").is_ok() {
        for &i in honest {
            for e in &net.events[i] {
                if matches!(
                    e,
                    ProtocolEvent::ControlApplied { .. }
                        | ProtocolEvent::Halted(_)
                        | ProtocolEvent::Rejected { .. }
                        | ProtocolEvent::WithheldClaimed { .. }
                        | ProtocolEvent::GameEnded { .. }
                ) {
                    println!("peer {i}: {e:?}");
                }
            }
        }
        println!("keys {:?}", keys);
    }
    // No divergence: the same log head at every common position (up to where an equivocation
    // was found, which every honest peer shares), the same state at the same length. With one
    // honest peer (the lone opponent's table, issue 59) there is no pair to compare: what
    // speaks for it is below (its events, its halt, its transcript, which `orbis verify`
    // replays from the signed messages alone, and the cards the adversary cannot read).
    let mut agreed = u64::MAX;
    for &i in honest {
        if let Some(HaltReport::Equivocation { agreed_index, .. }) = net.peers[i].halted() {
            agreed = agreed.min(*agreed_index);
        }
    }
    for (x, &i) in honest.iter().enumerate() {
        for &j in &honest[x + 1..] {
            let (pi, pj) = (&net.peers[i], &net.peers[j]);
            let common = pi.log_len().min(pj.log_len()).min(agreed);
            for at in [common / 2, common] {
                if pi.head_at(at) != pj.head_at(at) {
                    f(format!("peers {i} and {j} diverge at {at} (of {common})"));
                }
            }
            if pi.log_len() == pj.log_len()
                && agreed == u64::MAX
                && pi.halted().is_none()
                && pj.halted().is_none()
                && pi.state_hash() != pj.state_hash()
            {
                f(format!(
                    "peers {i} and {j}: other states at {}",
                    pi.log_len()
                ));
            }
        }
    }
    for &i in honest {
        let p = &net.peers[i];
        for e in &net.events[i] {
            match e {
                // No honest peer dropped or handed to a bot.
                ProtocolEvent::ControlApplied {
                    control: Control::Drop { peer, .. },
                    at,
                } if is_honest(peer) => f(format!("peer {i}: honest {peer:?} dropped at {at}")),
                ProtocolEvent::ControlApplied {
                    control: Control::SeatToBot { seat, .. },
                    at,
                } if honest.contains(&(*seat as usize)) => f(format!(
                    "peer {i}: honest seat {seat} handed to a bot at {at}"
                )),
                ProtocolEvent::GameEnded { left, .. } if is_honest(left) => {
                    f(format!("peer {i}: game ended blaming honest {left:?}"))
                }
                // No honest peer named for a message it signed.
                ProtocolEvent::Rejected {
                    peer: Some(k),
                    violation,
                    ..
                } if is_honest(k) && !benign(violation) => {
                    f(format!("peer {i} rejects honest {k:?}: {violation:?}"))
                }
                _ => {}
            }
        }
        // No honest peer named a cheater.
        match p.halted() {
            None => {}
            Some(HaltReport::Equivocation { peer, .. })
            | Some(HaltReport::CheckpointMismatch { peer, .. })
            | Some(HaltReport::Cheat { peer, .. })
                if *peer != adv =>
            {
                f(format!("peer {i} halted naming {peer:?}: {:?}", p.halted()))
            }
            Some(HaltReport::VotedOutWhilePlaying { voters, .. })
                if voters.iter().any(is_honest) =>
            {
                f(format!("peer {i} halted naming honest voters: {voters:?}"))
            }
            Some(
                HaltReport::Equivocation { .. }
                | HaltReport::CheckpointMismatch { .. }
                | HaltReport::Cheat { .. }
                | HaltReport::VotedOutWhilePlaying { .. },
            ) => {}
            Some(h @ HaltReport::Internal(_)) => f(format!("peer {i}: {h:?}")),
        }
        // Issue 59's harm: in a game of two humans, while it runs, the lone opponent reads no
        // card (nor mission) of the honest seat that is still face down in the honest peer's own
        // state (which shows a card only by its own move, applied before anyone learns of it).
        // Only there: with more seats a player can hold cards the adversary once read by right
        // (a computer's it stood in for, its own taken by whoever knocked it out).
        let a = &net.peers[me];
        let running = |p: &Peer| p.ended().is_none() && p.game().is_some_and(|g| !g.is_over());
        let two = match p.game() {
            Some(Game::Classic(s)) => s.players.len() == 2,
            Some(Game::Economy(s)) => s.players.len() == 2,
            _ => false,
        };
        if two && running(p) && running(a) && p.halted().is_none() {
            for &(_, seat) in seats.iter().filter(|x| x.0 == i) {
                let slots: Vec<_> = match p.game() {
                    Some(Game::Classic(s)) => s.players.get(seat as usize).map_or(vec![], |x| {
                        x.sealed.iter().chain(&x.sealed_mission).copied().collect()
                    }),
                    Some(Game::Economy(s)) => s
                        .players
                        .get(seat as usize)
                        .map_or(vec![], |x| x.sealed.clone()),
                    _ => vec![],
                };
                if let Some(slot) = slots.iter().find(|&&x| a.read(x).is_some()) {
                    f(format!(
                        "the adversary (log {}) reads honest seat {seat}'s card {slot:?}, face \
                         down at peer {i} (log {})",
                        a.log_len(),
                        p.log_len()
                    ));
                }
            }
        }
        // Honest transcripts verify and name the cheater of a halted game.
        if let Some(t) = p.transcript() {
            match (verify(&t), p.halted()) {
                (Ok(_), None) => {}
                (Ok(_), Some(HaltReport::VotedOutWhilePlaying { .. })) => {}
                (Err(VerifyError::Cheat { peer: Some(k), .. }), Some(_)) if k == adv => {}
                (
                    Err(VerifyError::Cheat {
                        peer: Some(k),
                        what,
                    }),
                    _,
                ) if k != adv => f(format!("peer {i}'s transcript names {k:?}: {what}")),
                (Ok(r), h) => f(format!(
                    "peer {i}'s transcript verifies though it halted {h:?}: agreed by {:?} of {:?}",
                    r.agreed_by, r.participants
                )),
                (r, h) => f(format!(
                    "peer {i}'s transcript: {r:?}, halted {h:?} (log {})",
                    p.log_len()
                )),
            }
        }
    }
}

/// Refusals that blame nobody: a message whose signature was never checked (the adversary
/// flipped bytes of an honest message it relayed) names only its claimed sender, which is no
/// evidence of anything (PROTOCOL.md, Wire: "validly signed ones name their signer").
pub(super) fn benign(v: &Violation) -> bool {
    use orbis_protocol::wire::WireError;
    matches!(
        v,
        Violation::Wire(
            WireError::BadSignature | WireError::Undecodable(_) | WireError::UnknownVersion(_)
        )
    )
}
