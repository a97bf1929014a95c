//! `orbis`: command-line access to the engine for scripts. Output formats are stable.
//!
//! Arguments are parsed by clap: `orbis --help`, `orbis <command> --help` and `orbis --version`
//! print to stdout and exit 0. A bad argument or a failed command prints one line on stderr,
//! starting `orbis: `, and exits with code 2.

mod adjudicate;
mod tournament;
mod usage;

use clap::{error::ErrorKind, Parser, Subcommand};
use orbis_engine::dice::{parse_seed_hex, Dice, SeededDice};
use orbis_engine::odds::odds_with;
use orbis_engine::rules::classic::{BotLevel, ClassicOptions, DefenceRule};
use orbis_engine::rules::economy::options::EconomyOptions;
use orbis_engine::rules::orders::map::OrdersMap;
use orbis_engine::sim;
use orbis_protocol::peer::Outcome;
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

/// Command-line access to the Orbis engine. Every command prints JSON or plain lines for scripts.
#[derive(Parser, Debug)]
#[command(name = "orbis", version, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Exact odds of a classic battle fought to the end: one JSON object.
    Odds {
        /// Attacking armies (0 to 10000).
        #[arg(value_parser = clap::value_parser!(u32).range(0..=10_000))]
        attackers: u32,
        /// Defending armies (0 to 10000).
        #[arg(value_parser = clap::value_parser!(u32).range(0..=10_000))]
        defenders: u32,
        /// Defender dice: `max` (two, one with a single army), `one` (the defender asked for
        /// one), `two` (two even with one army: the source's option).
        #[arg(long, value_enum, default_value_t = Defence::Max)]
        defender: Defence,
    },
    /// Reproducible d6 rolls from a seed, one per line, as the engine's dice make them.
    Dice {
        /// The seed: 64 hex digits.
        #[arg(long, value_parser = seed_hex)]
        seed: [u8; 32],
        /// How many rolls (0 to 100000000).
        #[arg(long, value_parser = clap::value_parser!(u64).range(0..=100_000_000))]
        count: u64,
    },
    /// Plays whole games between bots: one JSON line a game, then a summary line.
    Simulate {
        /// Ruleset: `classic` or `economy`.
        #[arg(long, default_value = "classic")]
        ruleset: String,
        /// Players at the table (2 to 6).
        #[arg(long, value_parser = clap::value_parser!(u8).range(2..=6))]
        players: u8,
        /// Bot strength.
        #[arg(long, value_parser = bot_level)]
        bot: BotLevel,
        /// Games to play (0 to 1000000).
        #[arg(long, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
        games: u64,
        /// Seed of the first game; game i plays from a seed derived from this and i.
        #[arg(long)]
        seed: u64,
        /// Turns after which a game is stopped without a winner (1 to 1000000; classic, default
        /// 1000). For the economy, rounds after which the game ends on the best score (default
        /// 150, so a stalled game is cheap).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
        max_turns: Option<u32>,
    },
    /// Games between computer players of different levels, seats rotated between games: one
    /// JSON line a game, then a summary with each level's win rate, 95 % interval and time per
    /// decision.
    Tournament {
        /// Ruleset: `classic`, `orders` or `economy`.
        #[arg(long, default_value = "classic")]
        ruleset: String,
        /// Map (orders only): `europe-1901` (7 seats, the default) or `world` (2 to 6 seats).
        #[arg(long)]
        map: Option<String>,
        /// The level of each seat, comma-separated, e.g. `normal,easy,easy,easy` (classic: 2 to 6
        /// seats; orders: one per power, in the map's order).
        #[arg(long, value_delimiter = ',', value_parser = bot_level, required = true)]
        seats: Vec<BotLevel>,
        /// Games to play (0 to 1000000).
        #[arg(long, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
        games: u64,
        /// Seed of the run; game i plays from a seed derived from this and i.
        #[arg(long)]
        seed: u64,
        /// Games played at once (1 to 64); the output is the same whatever this is.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
        jobs: u16,
        /// Turns after which a game is stopped without a winner (1 to 1000000; classic, default
        /// 1000), or the round limit (economy, default 150).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
        max_turns: Option<u32>,
        /// Orders: the last year played before a game is stopped without a result (1901 to
        /// 3000; computer powers accept a draw from 1931 on, so games end before that).
        #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u16).range(1901..=3000))]
        max_year: u16,
        /// Orders: the `hard` computer powers' thinking time, 1 (the default) to 8; each step
        /// searches more candidate order sets, samples and rounds, and takes longer.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=8))]
        think: u32,
    },
    /// Adjudicates orders phases: one JSON phase on stdin, or with --lines one phase a line.
    ///
    /// In: {"map", "phase", "units", "orders", ...}; out: {"units", "dislodged", "results",
    /// "issued", ...}. The formats are documented at the top of crates/cli/src/adjudicate.rs.
    Adjudicate {
        /// Read one JSON phase per input line and write one result per output line; a line that
        /// fails writes {"error": "..."} and the batch goes on.
        #[arg(long)]
        lines: bool,
    },
    /// Checks the transcript of an online game offline: every signature, every message in its
    /// place, the whole game replayed to its last state, every card of a face-down deal opened
    /// with the keys published at the end. Names anyone who cheated; exits 1 if it fails.
    Verify {
        /// The transcript file the game's page exported (`*.orbis-transcript`).
        file: std::path::PathBuf,
    },
    /// Joins a peer-to-peer room as a computer player (runs `orbis-join`; see `orbis join --help`).
    #[command(disable_help_flag = true)]
    Join {
        /// Arguments for `orbis-join`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
}

fn seed_hex(s: &str) -> Result<[u8; 32], String> {
    parse_seed_hex(s).map_err(|e| e.to_string())
}

/// The default of `--max-turns`: 1000 turns for classic games, a 150-round limit for the economy
/// (long enough for games between computer players to end by elimination, short enough that a
/// stalled one is cheap).
fn default_limit(ruleset: &str) -> u32 {
    if ruleset == "economy" {
        150
    } else {
        1000
    }
}

fn bot_level(s: &str) -> Result<BotLevel, String> {
    match s {
        "easy" => Ok(BotLevel::Easy),
        "normal" => Ok(BotLevel::Normal),
        "hard" => Ok(BotLevel::Hard),
        _ => Err("the bot is easy, normal or hard".into()),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_exit(e),
    };
    let mut out = std::io::stdout().lock();
    match run(cli.command, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("orbis: {msg}");
            ExitCode::from(2)
        }
    }
}

/// Help and version go to stdout with exit 0; every other clap error becomes our one line.
fn clap_exit(e: clap::Error) -> ExitCode {
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    eprintln!("orbis: {}", one_line(&e));
    ExitCode::from(2)
}

/// Clap's message without its usage block, on one line, pointing at the right `--help`.
fn one_line(e: &clap::Error) -> String {
    let sub = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .filter(|a| {
            use clap::CommandFactory;
            Cli::command().find_subcommand(a).is_some()
        });
    let help = match sub {
        Some(s) => format!("see `orbis {s} --help`"),
        None => "see `orbis --help`".to_string(),
    };
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        return format!("no command given ({help})");
    }
    let text = e.render().to_string();
    let body = text.split("\n\nUsage:").next().unwrap_or(&text);
    let body = body
        .split("\n\nFor more information")
        .next()
        .unwrap_or(body);
    let body = body.strip_prefix("error: ").unwrap_or(body);
    let words: Vec<&str> = body.split_whitespace().collect();
    format!("{} ({help})", words.join(" "))
}

/// `--defender` of `orbis odds`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum Defence {
    Max,
    One,
    Two,
}

fn run(command: Command, out: &mut dyn std::io::Write) -> Result<(), String> {
    let io = |e: std::io::Error| format!("cannot write output: {e}");
    match command {
        Command::Odds {
            attackers: a,
            defenders: d,
            defender,
        } => {
            let rule = match defender {
                Defence::Max => DefenceRule::Max,
                Defence::One => DefenceRule::One,
                Defence::Two => DefenceRule::Two,
            };
            let o = odds_with(a, d, rule);
            let v = json!({
                "attackers": a,
                "defenders": d,
                "win": o.win,
                "attacker_survivors": o.attacker_survivors,
                "defender_survivors": o.defender_survivors,
            });
            writeln!(out, "{v}").map_err(io)
        }
        Command::Dice { seed, count } => {
            let mut d = SeededDice::new(seed);
            let mut buf = String::new();
            for _ in 0..count {
                buf.push(char::from(b'0' + d.d6()));
                buf.push('\n');
                if buf.len() > 1 << 16 {
                    out.write_all(buf.as_bytes()).map_err(io)?;
                    buf.clear();
                }
            }
            out.write_all(buf.as_bytes()).map_err(io)
        }
        Command::Simulate {
            ruleset,
            players,
            bot,
            games,
            seed,
            max_turns,
        } => {
            let max_turns = max_turns.unwrap_or(default_limit(&ruleset));
            let economy = ruleset == "economy";
            let play = match ruleset.as_str() {
                "classic" => sim::play,
                "economy" => |n, bot, _, seed, rounds| {
                    sim::economy_play(&vec![bot; n], EconomyOptions::default(), seed, rounds)
                },
                other => return Err(format!("unknown ruleset `{other}`: `classic` or `economy`")),
            };
            let start = Instant::now();
            let (mut turns, mut by_limit) = (0u64, 0u64);
            for i in 0..games {
                let r = play(
                    usize::from(players),
                    bot,
                    ClassicOptions::default(),
                    sim::game_seed(seed, i),
                    max_turns,
                )
                .map_err(|e| format!("game {i}: {e}"))?;
                turns += u64::from(r.turns);
                let mut v = json!({"game": i, "winner": r.winner, "turns": r.turns, "actions": r.actions, "state_hash": r.state_hash.to_hex()});
                if economy {
                    let ended = tournament::economy_ending(r.turns, max_turns);
                    by_limit += u64::from(ended == "round limit");
                    v["ended"] = json!(ended);
                }
                writeln!(out, "{v}").map_err(io)?;
            }
            let secs = start.elapsed().as_secs_f64();
            let rate = if secs > 0.0 { games as f64 / secs } else { 0.0 };
            let mut v = json!({"summary": true, "games": games, "turns": turns, "seconds": secs, "games_per_second": rate});
            if economy {
                v["by_elimination"] = json!(games - by_limit);
                v["by_round_limit"] = json!(by_limit);
            }
            writeln!(out, "{v}").map_err(io)
        }
        Command::Tournament {
            ruleset,
            map,
            seats,
            games,
            seed,
            jobs,
            max_turns,
            max_year,
            think,
        } => match (
            ruleset.as_str(),
            max_turns.unwrap_or(default_limit(&ruleset)),
        ) {
            ("classic", max_turns) => {
                if map.is_some() {
                    return Err("--map is for the orders ruleset".into());
                }
                if !(2..=6).contains(&seats.len()) {
                    return Err("--seats takes 2 to 6 levels".into());
                }
                tournament::classic(&seats, games, seed, usize::from(jobs), max_turns, out)
            }
            ("orders", _) => {
                let map_id = map.unwrap_or_else(|| "europe-1901".into());
                let Some(m) = OrdersMap::get(&map_id) else {
                    return Err(format!("unknown map `{map_id}`: `europe-1901` or `world`"));
                };
                if m.powers_for(seats.len() as u8).is_none() || seats.len() > m.powers.len() {
                    let counts: Vec<String> = m.setups.iter().map(|(n, _)| n.to_string()).collect();
                    return Err(format!(
                        "--seats: {} takes {} seats, not {}",
                        map_id,
                        counts.join(" or "),
                        seats.len()
                    ));
                }
                tournament::orders(
                    &map_id,
                    &seats,
                    games,
                    seed,
                    usize::from(jobs),
                    tournament::OrdersLimits { max_year, think },
                    out,
                )
            }
            ("economy", max_turns) => {
                if map.is_some() {
                    return Err("--map is for the orders ruleset".into());
                }
                if !(2..=6).contains(&seats.len()) {
                    return Err("--seats takes 2 to 6 levels".into());
                }
                tournament::economy(&seats, games, seed, usize::from(jobs), max_turns, out)
            }
            (other, _) => Err(format!(
                "unknown ruleset `{other}`: `classic`, `orders` or `economy`"
            )),
        },
        Command::Adjudicate { lines: false } => {
            use std::io::Read;
            let mut input = String::new();
            std::io::stdin()
                .read_to_string(&mut input)
                .map_err(|e| format!("cannot read stdin: {e}"))?;
            let json = adjudicate::run(&input)?;
            writeln!(out, "{json}").map_err(io)
        }
        Command::Adjudicate { lines: true } => {
            let stdin = std::io::stdin().lock();
            adjudicate::run_lines(stdin, out)
        }
        Command::Join { args } => join(&args),
        Command::Verify { file } => verify(&file, out),
    }
}

/// `orbis verify`: the report of a transcript that checks out, or why it does not.
fn verify(file: &std::path::Path, out: &mut dyn std::io::Write) -> Result<(), String> {
    let bytes = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let start = std::time::Instant::now();
    // A halted game's rejection also says where it stopped and whom it names, by seat.
    let checked = orbis_protocol::peer::check(&bytes);
    let why = checked.rejection();
    let r = checked.verdict.map_err(|e| {
        format!(
            "transcript rejected: {}",
            why.unwrap_or_else(|| e.to_string())
        )
    })?;
    let ms = start.elapsed().as_millis();
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    let io = |e: std::io::Error| e.to_string();
    writeln!(out, "transcript verified: {}", file.display()).map_err(io)?;
    let keys: Vec<String> = r.participants.iter().map(|k| k.short()).collect();
    writeln!(out, "participants: {} ({})", keys.len(), keys.join(", ")).map_err(io)?;
    writeln!(
        out,
        "replayed {} log positions to state {}",
        r.positions,
        hex(&r.state_hash)
    )
    .map_err(io)?;
    // How the game ended, as its page says it (the engine's last state).
    match (&r.outcome, r.winner) {
        (Some(o), Some(w)) => writeln!(out, "won by seat {w}: {o}").map_err(io)?,
        (Some(o @ Outcome::Solo { .. }), None) => {
            writeln!(out, "won by a computer power: {o}").map_err(io)?
        }
        (Some(o @ Outcome::Drawn { .. }), _) => writeln!(out, "drawn: {o}").map_err(io)?,
        (Some(o), None) => writeln!(out, "over: {o}").map_err(io)?,
        (None, _) => writeln!(out, "not won (left or halted before the end)").map_err(io)?,
    }
    writeln!(
        out,
        "{} of {} participants signed this last state",
        r.agreed_by.len(),
        r.participants.len()
    )
    .map_err(io)?;
    match r.deal {
        Some(d) if d.keys == r.participants.len() => writeln!(
            out,
            "face-down deal: every key published{}; {} positions opened, every shown card is the one dealt",
            match d.rebuilt {
                0 => String::new(),
                k => format!(
                    " ({k} of a player who left, rebuilt from the others' escrow pieces)"
                ),
            },
            d.opened
        )
        .map_err(io)?,
        Some(d) => writeln!(
            out,
            "face-down deal: {} of {} keys published, so the cards never shown stay hidden (every shown card was checked when shown)",
            d.keys,
            r.participants.len()
        )
        .map_err(io)?,
        None => writeln!(out, "cards dealt face up from the shared seed").map_err(io)?,
    }
    writeln!(out, "checked in {ms} ms").map_err(io)
}

/// `orbis join` runs the native WebRTC peer, `orbis-join` (crate `orbis-transport`), which is
/// built beside this binary; keeping it separate keeps webrtc-rs out of the `orbis` build.
fn join(args: &[String]) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot locate orbis: {e}"))?;
    let peer = exe.with_file_name(format!("orbis-join{}", std::env::consts::EXE_SUFFIX));
    if !peer.exists() {
        return Err(format!(
            "`orbis join` needs {}: build it with `cargo build --release -p orbis-transport`",
            peer.display()
        ));
    }
    let status = std::process::Command::new(&peer)
        .args(args)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", peer.display()))?;
    match status.code() {
        Some(0) => Ok(()),
        Some(code) => Err(format!("the peer stopped with exit code {code}")),
        None => Err("the peer was stopped by a signal".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }
}
