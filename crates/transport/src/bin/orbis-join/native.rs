//! The native bot peer (see `main.rs`).

use futures::{pin_mut, select, FutureExt};
use futures_timer::Delay;
use orbis_engine::bot;
use orbis_engine::classic::{BotLevel, ClassicOptions, Colour};
use orbis_engine::codec::sha256;
use orbis_engine::rules::economy::phase::Phase as EcoPhase;
use orbis_engine::rules::Game;
use orbis_protocol::wire::DealMsg;
use orbis_protocol::{
    Body, Config, Control, Controller, Dest, Envelope, Output, Peer, PeerKey, ProtocolEvent,
    SeatSpec, SetupProposal,
};
use orbis_transport::relay::RelayConfig;
use orbis_transport::{Ice, Rendezvous, Transport};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[path = "days.rs"]
mod days;

/// Joins a peer-to-peer Orbis room as a computer player, meeting the others through a
/// matchbox_server or through Nostr relays.
#[derive(clap::Parser, Debug)]
///
/// Which games it accepts: without --players, any proposal of the room that includes this peer,
/// gives it a seat and is of a ruleset it plays (classic or economy, whatever the options, the
/// map, the other seats and the number of players; --ruleset narrows that to one); with
/// --players N --seed S, only the very game it proposes itself. Anyone in the room (whoever
/// holds its secret) can make such a proposal.
#[command(name = "orbis-join", version, max_term_width = 100)]
struct Args {
    /// `ws://host:port/room` of a matchbox_server (leave out when meeting through relays).
    #[arg(
        value_name = "SIGNALLING-URL",
        default_value = "",
        hide_default_value = true
    )]
    url: String,
    /// Nostr relays to meet through, comma-separated (with --room).
    #[arg(long, value_delimiter = ',', value_parser = relay_url)]
    relays: Vec<String>,
    /// The room secret shared by everyone in the room (with --relays). A generated secret may
    /// begin with `-` (its alphabet is base64url's), so a value that does is taken as the secret,
    /// not as an option.
    #[arg(
        long,
        default_value = "",
        hide_default_value = true,
        allow_hyphen_values = true
    )]
    room: String,
    /// STUN/TURN URLs, comma-separated (default: public STUN through relays, host candidates
    /// only through a signalling server).
    #[arg(long, value_delimiter = ',')]
    ice: Option<Vec<String>>,
    /// Bot strength: easy, normal or hard.
    #[arg(long = "bot", default_value = "normal", value_parser = bot_level)]
    level: BotLevel,
    /// The name the others see.
    #[arg(long, default_value = "bot")]
    name: String,
    /// Start by itself once this many `orbis-join` peers are in the room (2 to 6).
    #[arg(long, value_parser = players)]
    players: Option<usize>,
    /// Nonce of the proposal made with --players (required with it: give every orbis-join of the
    /// room the same number, one a stranger cannot guess).
    #[arg(long)]
    seed: Option<u64>,
    /// Accept only proposals of this ruleset: classic or economy (default: either).
    #[arg(long, value_parser = ruleset)]
    ruleset: Option<Ruleset>,
    /// Give up after this many seconds.
    #[arg(long = "timeout-s", default_value_t = 600)]
    timeout_s: u64,
    /// File holding this peer's secret; reused on restart so the peer can rejoin its game.
    #[arg(long)]
    identity: Option<String>,
    /// Pause before each of our own moves, in milliseconds (to watch a game, or to test a
    /// reload mid-game).
    #[arg(long = "move-delay-ms", default_value_t = 0)]
    move_delay_ms: u64,
    /// When the game is over, write its transcript here (check it with `orbis verify`).
    #[arg(long)]
    transcript: Option<String>,
    /// For tests only: play a deal withholder, never sending this peer's shuffles of a
    /// face-down deal (nor any resend, which would carry them), so that the pages' account of a
    /// stopped deal and their vote can be tried over a real network. Nothing it does is beyond
    /// what a modified client could do.
    #[arg(long = "test-withhold-shuffles", hide = true)]
    withhold_shuffles: bool,
    /// A game over days (orders, through --relays and --room, with --identity): one visit. Read
    /// the game from the relays, do what is due (the lobby, open our seed share or orders, vote
    /// a missed turn, our powers' orders by the computer player), store this visit's messages
    /// on every relay, print what is due and by when, exit. Run it from cron.
    #[arg(long)]
    days: bool,
    /// With --days: catch up and print what is due, but sign and store nothing.
    #[arg(long, requires = "days")]
    watch: bool,
    /// Print this identity's peer key (for --propose) and exit.
    #[arg(long = "show-key")]
    show_key: bool,
    /// With --days: propose an orders game over days (Europe 1901) to these players, by their
    /// peer keys (--show-key), comma-separated, ours among them; they take the first powers in
    /// this order, the computer (--bot) the rest.
    #[arg(long, value_delimiter = ',', value_parser = peer_key, requires = "days")]
    propose: Vec<[u8; 32]>,
    /// With --propose: hours for a movement phase, a retreat phase, a build phase, and the grace
    /// after a deadline before a missed turn is voted.
    #[arg(long = "movement-h", default_value_t = 24.0)]
    movement_h: f64,
    #[arg(long = "retreat-h", default_value_t = 6.0)]
    retreat_h: f64,
    #[arg(long = "build-h", default_value_t = 6.0)]
    build_h: f64,
    #[arg(long = "grace-h", default_value_t = 2.0)]
    grace_h: f64,
}

fn peer_key(s: &str) -> Result<[u8; 32], String> {
    orbis_engine::dice::parse_seed_hex(s.trim()).map_err(|e| format!("{s} is not a peer key: {e}"))
}

/// What this peer sends: everything, or (`--test-withhold-shuffles`) all but its shuffles.
fn outgoing(sends: Vec<(Dest, Vec<u8>)>, args: &Args) -> Vec<(Dest, Vec<u8>)> {
    if !args.withhold_shuffles {
        return sends;
    }
    sends
        .into_iter()
        .filter(|(_, bytes)| {
            !matches!(
                Envelope::open_where(bytes, |_| true),
                Ok((
                    _,
                    Body::Deal {
                        msg: DealMsg::Shuffle { .. },
                        ..
                    } | Body::Batch { .. }
                ))
            )
        })
        .collect()
}

fn relay_url(s: &str) -> Result<String, String> {
    let s = s.trim();
    if s.starts_with("ws://") || s.starts_with("wss://") {
        Ok(s.to_string())
    } else {
        Err(format!("{s} is not a ws:// or wss:// address"))
    }
}

fn bot_level(s: &str) -> Result<BotLevel, String> {
    match s {
        "easy" => Ok(BotLevel::Easy),
        "normal" => Ok(BotLevel::Normal),
        "hard" => Ok(BotLevel::Hard),
        other => Err(format!("unknown bot level {other} (easy, normal or hard)")),
    }
}

/// The rulesets the computer player plays online.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ruleset {
    Classic,
    Economy,
}

fn ruleset(s: &str) -> Result<Ruleset, String> {
    match s {
        "classic" => Ok(Ruleset::Classic),
        "economy" => Ok(Ruleset::Economy),
        other => Err(format!("unknown ruleset {other} (classic or economy)")),
    }
}

fn players(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (2..=6).contains(&n) => Ok(n),
        _ => Err("--players must be 2 to 6".into()),
    }
}

/// Parses the command line: help and version print and exit 0; a bad argument prints one line
/// and exits 2 (`Err` carries that line).
fn parse() -> Result<Args, String> {
    parse_from(std::env::args_os())
}

/// [`parse`] from the given arguments (the program name first).
fn parse_from<I, T>(argv: I) -> Result<Args, String>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::error::ErrorKind;
    use clap::Parser;
    let mut a = match Args::try_parse_from(argv) {
        Ok(a) => a,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            let _ = e.print();
            std::process::exit(0);
        }
        Err(e) => {
            let text = e.render().to_string();
            let body = text.split("\n\nUsage:").next().unwrap_or(&text);
            let body = body
                .split("\n\nFor more information")
                .next()
                .unwrap_or(body);
            let body = body.strip_prefix("error: ").unwrap_or(body);
            let words: Vec<&str> = body.split_whitespace().collect();
            return Err(format!("{} (see `orbis-join --help`)", words.join(" ")));
        }
    };
    if a.show_key && a.identity.is_none() {
        return Err("--show-key needs --identity FILE".into());
    }
    if a.days
        && (a.identity.is_none() || a.relays.is_empty() || a.room.is_empty() || !a.url.is_empty())
    {
        return Err("--days needs --relays ws://…[,…] --room <secret> --identity FILE (the same file every visit)".into());
    }
    if a.show_key {
        return Ok(a);
    }
    // A default nonce would let anyone in the room propose the game the bots wait for.
    if a.players.is_some() && a.seed.is_none() {
        return Err("--players needs --seed S: the same number for every orbis-join of the room, one a stranger cannot guess".into());
    }
    // `--ice ''` means host candidates only.
    a.ice = a.ice.map(|urls| {
        urls.into_iter()
            .map(|u| u.trim().to_string())
            .filter(|u| !u.is_empty())
            .collect()
    });
    match (a.url.is_empty(), a.relays.is_empty(), a.room.is_empty()) {
        (false, true, true) => {}
        (true, false, false) => {}
        (false, _, _) => return Err("give either a signalling URL or --relays with --room, not both".into()),
        (true, false, true) => return Err("--relays needs --room <secret>".into()),
        (true, true, false) => return Err("--room needs --relays <ws://…>[,…]".into()),
        (true, true, true) => return Err("give a signalling URL (ws://host:port/room) or --relays ws://…[,…] --room <secret> (see `orbis-join --help`)".into()),
    }
    Ok(a)
}

/// Whether this peer can play `p` as its options say: a classic or economy game (the bot plays
/// no orders) in which it controls a seat, and with `--players N` exactly the game it would propose itself
/// (N participants, nonce `--seed`, one seat each). Anything else is refused with the reason,
/// so a stranger's proposal cannot put the bot into a game it was not started for.
fn acceptable(p: &SetupProposal, me: &PeerKey, args: &Args) -> Result<(), String> {
    let Some(i) = p.participants.iter().position(|k| k == me) else {
        return Err("it does not include this peer".into());
    };
    if p.orders.is_some() {
        return Err("the computer player plays the classic and economy rulesets only".into());
    }
    if !p
        .seats
        .iter()
        .any(|s| s.controller == Controller::Peer(i as u8))
    {
        return Err("it gives this peer no seat".into());
    }
    let theirs = if p.economy.is_some() {
        Ruleset::Economy
    } else {
        Ruleset::Classic
    };
    if args.ruleset.is_some_and(|r| r != theirs) {
        return Err(format!(
            "it is a game of the {} ruleset, and --ruleset asks for another",
            if theirs == Ruleset::Economy {
                "economy"
            } else {
                "classic"
            }
        ));
    }
    if let (Some(n), Some(seed)) = (args.players, args.seed) {
        // Exactly the game it would propose itself: N participants, one seat each, the default
        // options dealt face down, nonce `--seed`; a stranger's other options are refused.
        if p.participants.len() != n || *p != proposal(&p.participants, seed) {
            return Err(format!(
                "--players {n} --seed {seed} expects the game it proposes itself: {n} players with one seat each, the default options dealt face down and nonce {seed}"
            ));
        }
    }
    Ok(())
}

fn proposal(keys: &[PeerKey], seed: u64) -> SetupProposal {
    SetupProposal {
        participants: keys.to_vec(),
        seats: (0..keys.len())
            .map(|i| SeatSpec {
                name: format!("Bot {}", i + 1),
                colour: Colour::ALL[i],
                controller: Controller::Peer(i as u8),
            })
            .collect(),
        options: ClassicOptions::default(),
        orders: None,
        face_down: true,
        stand_in: true,
        economy: None,
        nonce: seed,
        clock: None,
    }
}

pub fn main() -> ExitCode {
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("orbis-join: {e}");
            return ExitCode::from(2);
        }
    };
    if args.show_key {
        return days::show_key(&args);
    }
    if args.days {
        return days::visit(&args);
    }
    let entropy = match identity(args.identity.as_deref()) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    // The game id names the room; through relays, the room secret (which peers share) does.
    let room_name = if args.url.is_empty() {
        format!("relays:{}", args.room)
    } else {
        args.url.clone()
    };
    let room_hash = sha256(room_name.as_bytes());
    let mut game_id = [0u8; 16];
    game_id.copy_from_slice(&room_hash[..16]);
    let mut cfg = Config::new(game_id, &args.name, entropy);
    cfg.resend_ms = 500;
    cfg.missing_ms = 10_000;
    // Above any message number a previous run with the same identity used.
    cfg.seq_start = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64 * 1000);
    let (transport, socket_loop) = if args.url.is_empty() {
        let fresh = match fresh_secret(getrandom::fill) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        };
        let cfg = RelayConfig {
            relays: args.relays.clone(),
            secret: args.room.clone(),
            entropy: fresh,
            invite: None,
        };
        // Public STUN servers by default, as the page uses: peers met through public relays are
        // usually behind NATs.
        let ice = Ice {
            urls: args
                .ice
                .clone()
                .unwrap_or_else(|| orbis_transport::DEFAULT_STUN.map(String::from).to_vec()),
            ..Ice::default()
        };
        Transport::connect(Rendezvous::Relays(cfg), Some(ice))
    } else {
        let ice = args.ice.clone().map(|urls| Ice {
            urls,
            ..Ice::default()
        });
        Transport::connect(Rendezvous::Server(args.url.clone()), ice)
    };
    let socket_loop = socket_loop.fuse();
    pin_mut!(socket_loop);
    let game = run(transport, Peer::new(cfg), &args).fuse();
    pin_mut!(game);
    futures::executor::block_on(async {
        select! {
            r = game => r,
            r = socket_loop => {
                eprintln!("socket closed: {r:?}");
                ExitCode::FAILURE
            }
        }
    })
}

async fn run(mut net: Transport, mut peer: Peer, args: &Args) -> ExitCode {
    let t0 = Instant::now();
    let now = |t0: Instant| t0.elapsed().as_millis() as u64;
    let mut proposed = false;
    let mut to_accept: Vec<([u8; 32], Vec<PeerKey>)> = vec![];
    let mut done_at: Option<u64> = None;
    // Our own attack declarations: log index -> time declared; and declaration-to-dice times.
    let mut declared: std::collections::BTreeMap<u64, Instant> = Default::default();
    let mut roll_ms: Vec<f64> = vec![];
    // Peers whose connection went silent (we second the others' votes to drop them).
    let mut missing: std::collections::BTreeSet<PeerKey> = Default::default();
    loop {
        Delay::new(Duration::from_millis(2)).await;
        let t = now(t0);
        if t > args.timeout_s * 1000 {
            eprintln!("timed out");
            return ExitCode::FAILURE;
        }
        // Stop the relay hellos while the game runs with everyone here; resume when one is missing.
        let parts = peer.participants().len();
        net.set_quiet(parts > 0 && missing.is_empty() && net.connected() + 1 >= parts);
        let mut outs: Vec<Output> = vec![];
        let polled = net.poll();
        if !polled.connected.is_empty() {
            outs.push(peer.start(t));
        }
        for (l, bytes) in polled.messages {
            outs.push(peer.handle(l, &bytes, t));
        }
        outs.push(peer.tick(t));
        // A bot player seconds another player's vote to hand a missing peer's seats to a bot
        // (it never starts one: that is the humans' call). Votes seen in an earlier round; its
        // own vote goes through the event loop below, so a vote it completes is reported.
        // It also seconds a returning player's own request to be let back in, unless that
        // player was dropped while connected (a withholder: that is the humans' call too), and
        // asks to be let back in itself when it finds its seat played by a bot.
        let requests = peer.readmit_requests();
        for (control, voters, _) in peer.open_votes() {
            let second = match control {
                Control::Drop { peer: p, .. } => missing.contains(&p) && !voters.is_empty(),
                Control::Readmit { .. } => requests
                    .iter()
                    .any(|r| r.control == control && !r.left_present),
                Control::SeatToBot { .. } | Control::Missed { .. } => false,
            };
            if second && !voters.contains(&peer.key()) {
                match peer.vote(control) {
                    Ok(o) => outs.push(o),
                    Err(e) => eprintln!("cannot vote: {e}"),
                }
            }
        }
        if peer.left_out() {
            if let Ok(o) = peer.ask_back() {
                outs.push(o);
            }
        }
        if let Some(n) = args.players {
            let mut keys: Vec<PeerKey> = peer.names().keys().copied().collect();
            keys.push(peer.key());
            keys.sort();
            keys.dedup();
            if !proposed && peer.state().is_none() && keys.len() >= n && keys[0] == peer.key() {
                keys.truncate(n);
                proposed = true;
                match peer.propose_setup(proposal(&keys, args.seed.unwrap_or_default())) {
                    Ok(o) => outs.push(o),
                    Err(e) => eprintln!("proposal refused: {e}"),
                }
            }
        }
        loop {
            // Accept a proposal once we have met every participant ourselves.
            let ready: Vec<[u8; 32]> = to_accept
                .iter()
                .filter(|(_, parts)| {
                    parts
                        .iter()
                        .all(|k| *k == peer.key() || peer.names().contains_key(k))
                })
                .map(|(h, _)| *h)
                .collect();
            to_accept.retain(|(h, _)| !ready.contains(h));
            for h in ready {
                match peer.accept_setup(h) {
                    Ok(o) => outs.push(o),
                    // A restarted peer sees the proposal again while replaying its game.
                    Err(orbis_protocol::CommandError::AlreadyStarted) => {}
                    Err(e) => eprintln!("cannot accept: {e}"),
                }
            }
            let Some(o) = outs.pop() else { break };
            for e in &o.events {
                match e {
                    ProtocolEvent::Applied { index, .. } => {
                        if let Some(t) = declared.remove(index) {
                            roll_ms.push(t.elapsed().as_secs_f64() * 1000.0);
                        }
                    }
                    ProtocolEvent::SetupProposed { hash, proposal, by } => {
                        match acceptable(proposal, &peer.key(), args) {
                            Ok(()) => to_accept.push((*hash, proposal.participants.clone())),
                            Err(why) => eprintln!("not accepting the proposal of {by}: {why}"),
                        }
                    }
                    ProtocolEvent::GameStarted { seed, .. } => {
                        eprintln!("game started, seed {}", hex(seed));
                    }
                    ProtocolEvent::Rejected {
                        peer: p, violation, ..
                    } => {
                        eprintln!("refused a message from {p:?}: {violation}");
                    }
                    ProtocolEvent::Halted(r) => eprintln!("game halted: {r:?}"),
                    ProtocolEvent::RevealWithheld { withholders, .. } => {
                        eprintln!("the game cannot start: no seed reveal from {withholders:?}")
                    }
                    ProtocolEvent::GameAbandoned { by, .. } => {
                        eprintln!(
                            "game abandoned before it began: {by:?} accepted a newer proposal"
                        )
                    }
                    ProtocolEvent::PeerMissing { peer: p } => {
                        eprintln!("{p} is missing");
                        missing.insert(*p);
                    }
                    ProtocolEvent::PeerReturned { peer: p } => {
                        eprintln!("{p} is back");
                        missing.remove(p);
                    }
                    ProtocolEvent::ControlApplied { control, .. } => {
                        eprintln!("vote passed: {control:?}");
                    }
                    ProtocolEvent::Chat { from, text, .. } => eprintln!("<{from}> {text}"),
                    _ => {}
                }
            }
            net.send(outgoing(o.send, args));
        }
        let mut outs_after: Vec<Output> = vec![];
        if args.move_delay_ms > 0 && peer.is_my_turn() {
            Delay::new(Duration::from_millis(args.move_delay_ms)).await;
        }
        while peer.is_my_turn() {
            // Our own cards face up; with cards still on their way, wait for them.
            let Some(a) = peer
                .view()
                .filter(|v| v.players[v.current as usize].sealed.is_empty())
                .and_then(|v| bot::choose(&v, args.level))
            else {
                break;
            };
            let index = peer.log_len();
            let random = matches!(
                a,
                orbis_engine::classic::Action::Attack { .. }
                    | orbis_engine::classic::Action::Blitz { .. }
            );
            match peer.act(a) {
                Ok(o) => {
                    if random {
                        declared.insert(index, Instant::now());
                    }
                    outs_after.push(o);
                }
                Err(e) => {
                    eprintln!("bot move refused: {e}");
                    break;
                }
            }
        }
        // Economy game: the bot's choices for our seats at this position, as one batch.
        // From our own view: the face-down influence cards we read turned face up.
        if let (Some((_, due)), Some(s)) = (peer.economy_due(), peer.economy_view()) {
            let batch = bot::economy::batch(&s, &due, args.level);
            let mut salt = [0u8; 32];
            if !batch.is_empty() && getrandom::fill(&mut salt).is_ok() {
                match peer.submit_economy(batch, salt) {
                    Ok(o) => outs_after.push(o),
                    Err(e) => eprintln!("bot batch refused: {e}"),
                }
            }
        }
        for o in outs_after.drain(..) {
            for e in &o.events {
                if let ProtocolEvent::Applied { index, .. } = e {
                    if let Some(t) = declared.remove(index) {
                        roll_ms.push(t.elapsed().as_secs_f64() * 1000.0);
                    }
                }
            }
            net.send(outgoing(o.send, args));
        }
        if peer.halted().is_some() {
            return ExitCode::FAILURE;
        }
        let over = match peer.game() {
            Some(Game::Classic(s)) => s.winner().is_some(),
            Some(Game::Economy(s)) => s.phase == EcoPhase::Over,
            _ => false,
        };
        if over && done_at.is_none() {
            done_at = Some(t);
        }
        // Linger a little so slower peers can still ask us for what they miss.
        if done_at.is_some_and(|d| t >= d + 3_000) {
            if let (Some(f), Some(bytes)) = (&args.transcript, peer.transcript()) {
                if let Err(e) = std::fs::write(f, bytes) {
                    eprintln!("cannot write the transcript to {f}: {e}");
                    return ExitCode::FAILURE;
                }
            }
            if let Some(Game::Economy(s)) = peer.game() {
                println!(
                    "{{\"ruleset\":\"economy\",\"winner\":{},\"rounds\":{},\"positions\":{},\"state_hash\":\"{}\"}}",
                    s.winner.map_or("null".to_string(), |w| w.to_string()),
                    s.round,
                    peer.log_len(),
                    peer.state_hash().map(|h| hex(&h)).unwrap_or_default()
                );
                return ExitCode::SUCCESS;
            }
            let s = peer.state().expect("started");
            let w = s.winner().expect("over");
            roll_ms.sort_by(f64::total_cmp);
            let pct = |q: f64| -> f64 {
                if roll_ms.is_empty() {
                    return 0.0;
                }
                let i = ((roll_ms.len() as f64 - 1.0) * q).round() as usize;
                roll_ms[i.min(roll_ms.len() - 1)]
            };
            println!(
                "{{\"winner\":{w},\"winner_name\":{:?},\"turns\":{},\"actions\":{},\"state_hash\":\"{}\",\"own_rolls\":{},\"roll_ms_median\":{:.2},\"roll_ms_p95\":{:.2}}}",
                s.players[w as usize].name,
                s.turn,
                peer.log_len(),
                s.state_hash().to_hex(),
                roll_ms.len(),
                pct(0.5),
                pct(0.95)
            );
            return ExitCode::SUCCESS;
        }
    }
}

/// The operating system's source of secure randomness, as `getrandom::fill` (a parameter so the
/// tests can make it fail).
type Fill = fn(&mut [u8]) -> Result<(), getrandom::Error>;

/// 32 fresh secret bytes from `fill`, or the error the player sees: never a secret made of zeros
/// or anything else predictable when the system has no secure randomness (fail closed).
fn fresh_secret(fill: Fill) -> Result<[u8; 32], String> {
    let mut e = [0u8; 32];
    fill(&mut e).map_err(|_| "no operating-system randomness".to_string())?;
    Ok(e)
}

/// This peer's secret entropy: read from `path` if it exists, else fresh (and saved there).
fn identity(path: Option<&str>) -> Result<[u8; 32], String> {
    identity_from(path, getrandom::fill)
}

/// [`identity`] with fresh entropy from `fill`.
fn identity_from(path: Option<&str>, fill: Fill) -> Result<[u8; 32], String> {
    if let Some(p) = path {
        if let Ok(text) = std::fs::read_to_string(p) {
            return orbis_engine::dice::parse_seed_hex(&text)
                .map_err(|e| format!("identity file {p}: {e}"));
        }
    }
    let e = fresh_secret(fill)?;
    if let Some(p) = path {
        std::fs::write(p, hex(&e)).map_err(|err| format!("cannot write {p}: {err}"))?;
    }
    Ok(e)
}

fn hex(b: &[u8; 32]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn key(b: u8) -> PeerKey {
        PeerKey([b; 32])
    }

    /// A system without secure randomness stops `orbis-join` with a message: no identity, room
    /// key or secret is made from zeros, and no identity file is written.
    #[test]
    fn no_secret_without_operating_system_randomness() {
        fn broken(_: &mut [u8]) -> Result<(), getrandom::Error> {
            Err(getrandom::Error::UNSUPPORTED)
        }
        assert_eq!(
            fresh_secret(broken).unwrap_err(),
            "no operating-system randomness"
        );
        let dir = std::env::temp_dir().join(format!("orbis-join-rng-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("identity");
        let path = file.to_str().unwrap();
        assert_eq!(
            identity_from(Some(path), broken).unwrap_err(),
            "no operating-system randomness"
        );
        assert!(!file.exists(), "nothing saved");
        // With randomness: a fresh identity, saved and read back the same.
        let made = identity_from(Some(path), getrandom::fill).unwrap();
        assert_ne!(made, [0; 32]);
        assert_eq!(identity_from(Some(path), broken).unwrap(), made);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn accepts_only_what_its_options_allow() {
        let args = Args::try_parse_from(["orbis-join", "ws://x/y"]).unwrap();
        let me = key(2);
        let p = proposal(&[key(1), me], 9);
        assert!(acceptable(&p, &me, &args).is_ok());
        assert!(acceptable(&p, &key(3), &args).is_err(), "not a participant");
        let mut orders = p.clone();
        orders.orders = Some(orbis_protocol::wire::OrdersSetup {
            map: "europe-1901".into(),
            options: Default::default(),
            powers: vec![],
        });
        assert!(acceptable(&orders, &me, &args)
            .unwrap_err()
            .contains("classic"));
        let mut seatless = p.clone();
        seatless.seats[1].controller = Controller::Bot(BotLevel::Easy);
        assert!(acceptable(&seatless, &me, &args)
            .unwrap_err()
            .contains("no seat"));
        // Issue 59, item 5: it can be told the ruleset it accepts.
        let economy_only =
            Args::try_parse_from(["orbis-join", "ws://x/y", "--ruleset", "economy"]).unwrap();
        assert!(acceptable(&p, &me, &economy_only)
            .unwrap_err()
            .contains("classic ruleset"));
        let mut economy = p.clone();
        economy.economy = Some(Default::default());
        assert!(acceptable(&economy, &me, &economy_only).is_ok());
        assert!(
            acceptable(&economy, &me, &args).is_ok(),
            "either by default"
        );
        assert!(
            parse_from(["orbis-join", "ws://x/y", "--ruleset", "orders"])
                .unwrap_err()
                .contains("classic or economy")
        );
        let auto =
            Args::try_parse_from(["orbis-join", "ws://x/y", "--players", "2", "--seed", "9"])
                .unwrap();
        assert!(acceptable(&p, &me, &auto).is_ok());
        let other = proposal(&[key(1), me], 10);
        assert!(acceptable(&other, &me, &auto).is_err(), "another nonce");
        // Issue 30, item 13: a stranger who guesses the nonce still cannot change the game.
        let mut face_up = p.clone();
        face_up.face_down = false;
        assert!(acceptable(&face_up, &me, &auto).is_err(), "dealt face up");
        let mut options = p.clone();
        options.options.missions = !options.options.missions;
        assert!(acceptable(&options, &me, &auto).is_err(), "other options");
        // And there is no default nonce to guess.
        assert!(parse_from(["orbis-join", "ws://x/y", "--players", "2", "--seed", "9"]).is_ok());
        assert!(parse_from(["orbis-join", "ws://x/y", "--players", "2"])
            .unwrap_err()
            .contains("--players needs --seed"));
    }

    /// A room secret as the page generates it may begin with `-` (base64url): it is the secret,
    /// not an unknown option (the e2e test's `orbis-join` once refused a room so named).
    #[test]
    fn a_room_secret_beginning_with_a_hyphen_is_the_secret() {
        let a = parse_from([
            "orbis-join",
            "--relays",
            "ws://127.0.0.1:1",
            "--room",
            "-8Kq_x",
        ])
        .unwrap();
        assert_eq!(a.room, "-8Kq_x");
    }
}
