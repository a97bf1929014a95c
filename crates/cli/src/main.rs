//! `orbis`: command-line access to the engine for scripts. Output formats are stable.
//!
//! Errors print one line on stderr and exit with code 2.

mod adjudicate;

use orbis_engine::dice::{parse_seed_hex, Dice, SeededDice};
use orbis_engine::odds::odds;
use orbis_engine::rules::classic::{BotLevel, ClassicOptions};
use orbis_engine::sim;
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage:
  orbis odds <ATTACKERS> <DEFENDERS>
  orbis dice --seed <64 hex digits> --count <N>
  orbis simulate --players <2..6> --bot <easy|normal> --games <N> --seed <u64> [--max-turns T]
  orbis adjudicate < phase.json
  orbis join (<signalling-url>/<room> | --relays ws://…[,…] --room <secret>) [--bot easy|normal] [--name N] [--players N] [--seed S]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut out = std::io::stdout().lock();
    match run(&args, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("orbis: {msg}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String], out: &mut dyn std::io::Write) -> Result<(), String> {
    let io = |e: std::io::Error| format!("cannot write output: {e}");
    match args.first().map(String::as_str) {
        Some("odds") => {
            let [a, d] = positional::<2>(&args[1..])?;
            let a: u32 = number(&a, "ATTACKERS", 0, 10_000)?;
            let d: u32 = number(&d, "DEFENDERS", 0, 10_000)?;
            let o = odds(a, d);
            let v = json!({
                "attackers": a,
                "defenders": d,
                "win": o.win,
                "attacker_survivors": o.attacker_survivors,
                "defender_survivors": o.defender_survivors,
            });
            writeln!(out, "{v}").map_err(io)
        }
        Some("dice") => {
            let flags = Flags::parse(&args[1..], &["--seed", "--count"])?;
            let seed =
                parse_seed_hex(flags.required("--seed")?).map_err(|e| format!("--seed: {e}"))?;
            let count: u64 = number(flags.required("--count")?, "--count", 0, 100_000_000)?;
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
        Some("simulate") => {
            let flags = Flags::parse(
                &args[1..],
                &["--players", "--bot", "--games", "--seed", "--max-turns"],
            )?;
            let players: usize = number(flags.required("--players")?, "--players", 2, 6)?;
            let level = match flags.required("--bot")? {
                "easy" => BotLevel::Easy,
                "normal" => BotLevel::Normal,
                other => return Err(format!("--bot must be easy or normal, not `{other}`")),
            };
            let games: u64 = number(flags.required("--games")?, "--games", 0, 1_000_000)?;
            let seed: u64 = number(flags.required("--seed")?, "--seed", 0, u64::MAX)?;
            let max_turns: u32 = match flags.get("--max-turns") {
                Some(t) => number(t, "--max-turns", 1, 1_000_000)?,
                None => 1000,
            };
            let start = Instant::now();
            let mut turns = 0u64;
            for i in 0..games {
                let r = sim::play(
                    players,
                    level,
                    ClassicOptions::default(),
                    sim::game_seed(seed, i),
                    max_turns,
                )
                .map_err(|e| format!("game {i}: {e}"))?;
                turns += u64::from(r.turns);
                let v = json!({"game": i, "winner": r.winner, "turns": r.turns, "actions": r.actions, "state_hash": r.state_hash.to_hex()});
                writeln!(out, "{v}").map_err(io)?;
            }
            let secs = start.elapsed().as_secs_f64();
            let rate = if secs > 0.0 { games as f64 / secs } else { 0.0 };
            let v = json!({"summary": true, "games": games, "turns": turns, "seconds": secs, "games_per_second": rate});
            writeln!(out, "{v}").map_err(io)
        }
        Some("adjudicate") => {
            use std::io::Read;
            let mut input = String::new();
            std::io::stdin()
                .read_to_string(&mut input)
                .map_err(|e| format!("cannot read stdin: {e}"))?;
            let json = adjudicate::run(&input)?;
            writeln!(out, "{json}").map_err(io)
        }
        Some("join") => join(&args[1..]),
        Some("-h" | "--help" | "help") => writeln!(out, "{USAGE}").map_err(io),
        Some(other) => Err(format!("unknown command `{other}`\n{USAGE}")),
        None => Err(format!("no command given\n{USAGE}")),
    }
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

fn positional<const N: usize>(args: &[String]) -> Result<[String; N], String> {
    <[String; N]>::try_from(args.to_vec())
        .map_err(|_| format!("expected {N} arguments, got {}\n{USAGE}", args.len()))
}

fn number<T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy>(
    s: &str,
    what: &str,
    min: T,
    max: T,
) -> Result<T, String> {
    let v: T = s
        .trim()
        .parse()
        .map_err(|_| format!("{what} must be a whole number, not `{s}`"))?;
    if v < min || v > max {
        return Err(format!("{what} must be between {min} and {max}, not {v}"));
    }
    Ok(v)
}

/// `--name value` pairs, each allowed name at most once.
struct Flags<'a>(Vec<(&'a str, &'a str)>);

impl<'a> Flags<'a> {
    fn parse(args: &'a [String], allowed: &[&str]) -> Result<Self, String> {
        let mut pairs = vec![];
        let mut it = args.iter();
        while let Some(name) = it.next() {
            let name = name.as_str();
            if !allowed.contains(&name) {
                return Err(format!("unknown option `{name}`\n{USAGE}"));
            }
            let value = it.next().ok_or_else(|| format!("{name} needs a value"))?;
            if pairs.iter().any(|(n, _)| *n == name) {
                return Err(format!("{name} given twice"));
            }
            pairs.push((name, value.as_str()));
        }
        Ok(Flags(pairs))
    }

    fn get(&self, name: &str) -> Option<&'a str> {
        self.0.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }

    fn required(&self, name: &str) -> Result<&'a str, String> {
        self.get(name)
            .ok_or_else(|| format!("{name} is required\n{USAGE}"))
    }
}
