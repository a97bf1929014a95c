//! `orbis-join --days`: one visit to an orders game played over days (issue 61): read the whole
//! game from the room's relays, catch up as a fresh peer in stored mode, do what is due (accept
//! or start the lobby, open our seed share or our orders, vote a missed turn, write our powers'
//! orders with the computer player), store this visit's messages as one bundle on every relay,
//! give relays what they lack, print what is due and by when, and exit. Run it from cron every
//! ten minutes to keep a seat (or a game) moving; it holds no more authority than a page.

use super::{hex, identity, Args};
use orbis_engine::bot;
use orbis_engine::codec::sha256;
use orbis_engine::rules::Game;
use orbis_protocol::wire::OrdersPayload;
use orbis_protocol::{
    Body, Clock, Config, Controller, Envelope, Next, Output, Peer, PeerKey, ProtocolEvent,
    SetupProposal,
};
use orbis_transport::relay::{store, store_net};
use std::collections::BTreeSet;
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// The peer configuration of this identity in this room (the same every visit).
fn config(args: &Args, entropy: [u8; 32]) -> Config {
    let h = sha256(format!("relays:{}", args.room).as_bytes());
    let mut game_id = [0u8; 16];
    game_id.copy_from_slice(&h[..16]);
    let mut cfg = Config::new(game_id, &args.name, entropy);
    cfg.stored = true;
    cfg
}

/// `orbis-join --show-key`: this identity's peer key, for whoever proposes the game.
pub fn show_key(args: &Args) -> ExitCode {
    match identity(args.identity.as_deref()) {
        Ok(e) => {
            println!("{}", hex(&Peer::new(config(args, e)).key().0));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// The orders game `--propose` starts: Europe 1901, the participants on the first powers in the
/// order given, the computer (`--bot`) on the rest, the clock of the options.
fn proposal(keys: &[PeerKey], args: &Args, start_s: u64) -> SetupProposal {
    let h = |hours: f64| (hours * 3600.0).round().max(60.0) as u32;
    SetupProposal::orders_game(
        "europe-1901",
        7,
        keys.to_vec(),
        |i| format!("Seat {}", i + 1),
        args.level,
        Some(Clock::new(
            start_s,
            h(args.movement_h),
            h(args.retreat_h),
            h(args.build_h),
            h(args.grace_h),
        )),
        args.seed.unwrap_or(start_s),
    )
}

/// Whether a visit accepts `p`: an orders game over days that gives this peer a seat (and, with
/// `--seed`, of that nonce).
fn acceptable(p: &SetupProposal, me: &PeerKey, args: &Args) -> Result<(), String> {
    let Some(i) = p.participants.iter().position(|k| k == me) else {
        return Err("it does not include this peer".into());
    };
    if p.orders.is_none() || p.clock.is_none() {
        return Err("over days, the computer player plays orders games with a clock only".into());
    }
    if !p
        .seats
        .iter()
        .any(|s| s.controller == Controller::Peer(i as u8))
    {
        return Err("it gives this peer no seat".into());
    }
    if args.seed.is_some_and(|s| s != p.nonce) {
        return Err(format!(
            "its nonce is not --seed {}",
            args.seed.unwrap_or(0)
        ));
    }
    Ok(())
}

/// A UTC time as `YYYY-MM-DD HH:MM UTC` (civil from days, H. Hinnant's algorithm).
fn utc(s: u64) -> String {
    let days = (s / 86_400) as i64;
    let rem = s % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        (rem % 3600) / 60
    )
}

/// One line on what the game waits for, for the player.
fn due_line(peer: &Peer) -> String {
    if let Some(d) = peer.due() {
        let when = format!("{:?} {} {:?}", d.season, d.year, d.phase);
        let of = format!(
            "{} submitted, {} opened, waiting on {}",
            d.submitted.len(),
            d.revealed.len(),
            d.waiting_on.len()
        );
        return match d.next {
            Next::Submit { by_s } => format!("{when}: orders due by {} ({of}).", utc(by_s)),
            Next::ComeBack { by_s } => format!("{when}: our orders are in; run again after the others have submitted, by {}, to open them, or they count as a missed turn ({of}).", utc(by_s)),
            Next::Reveal { lost } if lost => format!("{when}: everyone has submitted, but this device holds neither our orders nor their sealed copy: they count as a missed turn."),
            Next::Reveal { .. } => format!("{when}: everyone has submitted; our orders open on the next run."),
            Next::Wait { until_s } => format!("{when}: nothing due from us; the phase ends by {} at the latest ({of}).", utc(until_s)),
            Next::Elsewhere { by_s } => format!("{when}: our orders for this phase were sent from another device (every other player has opened theirs), but the relays have not given them to this one: open the game there by {}, or they count as a missed turn; this device opens them once the relays have them ({of}).", utc(by_s)),
            Next::Over if peer.halted().is_some() => format!("{when}: the game stopped: {:?}.", peer.halted()),
            Next::LeftOut => format!("{when}: a computer plays our seat (a missed turn with no excuse left); this run asked the others to hand it back."),
            Next::Over => format!("{when}: the game is over."),
        };
    }
    if let Some(l) = peer.lobby_due() {
        return format!(
            "Lobby: {} of {} accepted, {} of {} opened their seed share (each must run once more after everyone accepted).",
            l.accepted.len(),
            l.participants.len(),
            l.revealed.len(),
            l.participants.len()
        );
    }
    "No game yet: nobody proposed one that includes this identity (see --propose).".into()
}

/// Whether the messages of `raw` belong in the store (not a per-connection message).
fn storable(raw: &[u8]) -> bool {
    !matches!(
        Envelope::open_where(raw, |_| true).map(|(_, b)| b),
        Ok(Body::Hello { .. } | Body::Sync { .. } | Body::ChatAck { .. }) | Err(_)
    )
}

/// The memento kept between visits beside the identity file.
fn memento_path(args: &Args) -> Option<String> {
    args.identity.as_ref().map(|p| format!("{p}.memento"))
}

/// One visit.
pub fn visit(args: &Args) -> ExitCode {
    let entropy = match identity(args.identity.as_deref()) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let mut visit_entropy = [0u8; 32];
    if getrandom::fill(&mut visit_entropy).is_err() {
        eprintln!("no operating-system randomness");
        return ExitCode::FAILURE;
    }
    let timeout = Duration::from_secs(args.timeout_s.clamp(5, 120));
    let t = Instant::now();
    let fetched =
        futures::executor::block_on(store_net::fetch_all(&args.relays, &args.room, timeout));
    let fetch_ms = t.elapsed().as_millis();
    for r in &fetched.per_relay {
        if let Some(e) = &r.error {
            eprintln!("relay {}: {e}", r.url);
        }
    }
    if fetched.answered().is_empty() {
        eprintln!("no relay sent the game: nothing done (try again later, or check --relays)");
        return ExitCode::FAILURE;
    }
    for (why, n) in fetched.mailbox.refused() {
        eprintln!("refused {n} stored event(s): {}", why.as_str());
    }
    let stored = fetched.envelopes();
    let have: BTreeSet<[u8; 32]> = stored.iter().map(|b| sha256(b)).collect();
    let mut cfg = config(args, entropy);
    let now = now_ms();
    // Above every message number an earlier visit used.
    cfg.seq_start = now.saturating_mul(1000);
    let memento = memento_path(args);
    cfg.remembered = memento
        .as_ref()
        .and_then(|p| std::fs::read(p).ok())
        .and_then(|b| store::decode(&b))
        .unwrap_or_default();
    let t = Instant::now();
    let mut peer = Peer::new(cfg);
    let mut outs: Vec<Output> = vec![peer.visit(&stored, now)];
    let catch_up_ms = t.elapsed().as_millis();
    for e in &outs[0].events {
        match e {
            ProtocolEvent::Rejected {
                peer: p, violation, ..
            } => {
                eprintln!("refused a stored message of {p:?}: {violation}")
            }
            ProtocolEvent::Halted(r) => eprintln!("game halted: {r:?}"),
            _ => {}
        }
    }
    if !args.watch {
        act(&mut peer, args, now, &mut outs);
    }
    let mut bundle: Vec<Vec<u8>> = vec![];
    for o in outs {
        for (_, raw) in o.send {
            if storable(&raw) && !have.contains(&sha256(&raw)) && !bundle.contains(&raw) {
                bundle.push(raw);
            }
        }
    }
    let expiration = store::expiration(None, now / 1000);
    let (mut published, mut pub_events, mut pub_bytes) = (0usize, 0usize, 0usize);
    if !args.watch && !bundle.is_empty() {
        let res = futures::executor::block_on(store_net::publish(
            &args.relays,
            &args.room,
            &bundle,
            expiration,
            visit_entropy,
        ));
        for p in &res {
            match &p.error {
                Some(e) => eprintln!("relay {}: {e}", p.url),
                None => published += 1,
            }
            pub_events = pub_events.max(p.accepted);
            pub_bytes = pub_bytes.max(p.bytes);
        }
        if published == 0 {
            eprintln!("no relay stored this visit's messages: run again later");
        }
    }
    let mut refilled = 0;
    if !args.watch {
        let mut e2 = visit_entropy;
        e2[0] ^= 0xff;
        for p in
            futures::executor::block_on(store_net::refill(&args.relays, &fetched, expiration, e2))
                .into_iter()
                .flatten()
        {
            refilled += p.accepted;
            if let Some(e) = &p.error {
                eprintln!("refilling relay {}: {e}", p.url);
            }
        }
        if let Some(path) = &memento {
            if let Err(e) = std::fs::write(path, store::encode(&peer.memento())) {
                eprintln!("cannot write {path}: {e}");
            }
        }
    }
    eprintln!("{}", due_line(&peer));
    let due = peer.due();
    let stored_events: usize = fetched.mailbox.bundles().iter().map(|b| b.events).sum();
    let stored_bytes: usize = fetched.mailbox.bundles().iter().map(|b| b.bytes).sum();
    println!(
        "{{\"log_len\":{},\"state_hash\":\"{}\",\"phase\":\"{}\",\"deadline_s\":{},\"next\":\"{}\",\"stored_bundles\":{},\"stored_events\":{},\"stored_bytes\":{},\"stored_messages\":{},\"fetch_ms\":{fetch_ms},\"catch_up_ms\":{catch_up_ms},\"published_messages\":{},\"published_events\":{pub_events},\"published_bytes\":{pub_bytes},\"relays_stored\":{published},\"refilled_events\":{refilled},\"halted\":{}}}",
        peer.log_len(),
        peer.state_hash().map(|h| hex(&h)).unwrap_or_default(),
        due.as_ref().map(|d| format!("{:?} {} {:?}", d.season, d.year, d.phase)).unwrap_or_default(),
        due.as_ref().map_or(0, |d| d.deadline_s),
        due.as_ref().map(|d| format!("{:?}", d.next)).unwrap_or_default().replace('"', "'"),
        fetched.mailbox.bundles().len(),
        stored_events,
        stored_bytes,
        stored.len(),
        if args.watch { 0 } else { bundle.len() },
        peer.halted().is_some(),
    );
    if peer.halted().is_some() {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// What this visit does beyond what [`Peer::visit`] did by itself: the lobby (propose, accept),
/// our powers' orders written by the computer player, asking our seat back.
fn act(peer: &mut Peer, args: &Args, now: u64, outs: &mut Vec<Output>) {
    let me = peer.key();
    if peer.game().is_none() && peer.lobby_due().is_none() {
        let proposed: Vec<([u8; 32], SetupProposal)> = outs[0]
            .events
            .iter()
            .filter_map(|e| match e {
                ProtocolEvent::SetupProposed { hash, proposal, .. } => {
                    Some((*hash, SetupProposal::clone(proposal)))
                }
                _ => None,
            })
            .collect();
        let mut pick = None;
        for (h, p) in &proposed {
            match acceptable(p, &me, args) {
                Ok(()) if pick.is_none() => pick = Some(*h),
                Ok(()) => {}
                Err(why) => eprintln!("not accepting a proposal: {why}"),
            }
        }
        if pick.is_none() && !args.propose.is_empty() {
            let keys: Vec<PeerKey> = args.propose.iter().map(|k| PeerKey(*k)).collect();
            if !keys.contains(&me) {
                eprintln!("--propose must list this identity's own key (see --show-key)");
                return;
            }
            let p = proposal(&keys, args, now / 1000);
            let h = p.hash();
            match peer.propose_setup(p) {
                Ok(o) => outs.push(o),
                Err(e) => eprintln!("proposal refused: {e}"),
            }
            pick = Some(h);
        }
        if let Some(h) = pick {
            match peer.accept_setup(h) {
                Ok(o) => outs.push(o),
                Err(e) => eprintln!("cannot accept: {e}"),
            }
        }
    }
    if peer.left_out() {
        if let Ok(o) = peer.ask_back() {
            outs.push(o);
        }
    }
    if let Some((_, powers)) = peer.orders_due() {
        let Some(Game::Orders(s)) = peer.game() else {
            return;
        };
        let s = s.clone();
        let (mut salt, mut think) = ([0u8; 32], [0u8; 32]);
        if powers.is_empty()
            || getrandom::fill(&mut salt).is_err()
            || getrandom::fill(&mut think).is_err()
        {
            return;
        }
        let orders = powers
            .iter()
            .map(|&p| (p, bot::orders::orders_for(&s, p, args.level, &think)))
            .collect();
        match peer.submit_orders(OrdersPayload::orders(orders), salt) {
            Ok(o) => outs.push(o),
            Err(e) => eprintln!("our orders were refused: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(extra: &[&str]) -> Args {
        let mut a = vec![
            "orbis-join",
            "--days",
            "--relays",
            "ws://127.0.0.1:1",
            "--room",
            "r",
            "--identity",
            "f",
        ];
        a.extend(extra);
        super::super::parse_from(a).unwrap()
    }

    /// A visit accepts only an orders game over days that seats it (and of its --seed).
    #[test]
    fn accepts_orders_games_over_days_that_seat_it() {
        let keys = [PeerKey([1; 32]), PeerKey([2; 32])];
        let a = args(&[]);
        let p = proposal(&keys, &a, 1_800_000_000);
        assert!(acceptable(&p, &keys[1], &a).is_ok());
        assert!(
            acceptable(&p, &PeerKey([3; 32]), &a).is_err(),
            "not a participant"
        );
        let mut live = p.clone();
        live.clock = None;
        assert!(acceptable(&live, &keys[0], &a)
            .unwrap_err()
            .contains("clock"));
        let mut seatless = p.clone();
        seatless.seats[1].controller = Controller::Bot(a.level);
        assert!(acceptable(&seatless, &keys[1], &a)
            .unwrap_err()
            .contains("no seat"));
        assert!(
            acceptable(&p, &keys[0], &args(&["--seed", "5"])).is_err(),
            "another nonce"
        );
        let c = p.clock.unwrap();
        assert_eq!(
            (c.movement_s, c.retreat_s, c.build_s, c.grace_s),
            (86_400, 21_600, 21_600, 7_200)
        );
        assert_eq!(p.seats.len(), 7);
        // --days needs the relays, the room and an identity file.
        assert!(super::super::parse_from([
            "orbis-join",
            "--days",
            "--relays",
            "ws://x",
            "--room",
            "r"
        ])
        .unwrap_err()
        .contains("--identity"));
        assert!(super::super::parse_from(["orbis-join", "--show-key"]).is_err());
    }

    #[test]
    fn utc_dates() {
        assert_eq!(utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc(1_800_000_000), "2027-01-15 08:00 UTC");
        assert_eq!(utc(951_782_400), "2000-02-29 00:00 UTC");
    }
}
