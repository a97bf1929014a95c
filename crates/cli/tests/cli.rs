//! Runs the real `orbis` binary.

use std::process::{Command, Output};

fn orbis(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_orbis"))
        .args(args)
        .output()
        .expect("run orbis")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn odds_prints_exact_json() {
    let o = orbis(&["odds", "1", "1"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["attackers"], 1);
    assert_eq!(v["defenders"], 1);
    assert!((v["win"].as_f64().unwrap() - 15.0 / 36.0).abs() < 1e-12);
    let surv = v["attacker_survivors"].as_array().unwrap();
    assert_eq!(surv.len(), 2);
    assert!((surv[0].as_f64().unwrap() - 21.0 / 36.0).abs() < 1e-12);
    let big = orbis(&["odds", "100", "100"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&big).trim()).unwrap();
    assert_eq!(v["attacker_survivors"].as_array().unwrap().len(), 101);
}

#[test]
fn odds_follow_the_defenders_dice() {
    let win = |args: &[&str]| {
        let o = orbis(args);
        assert!(o.status.success(), "{args:?}");
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        v["win"].as_f64().unwrap()
    };
    // Two attacking armies against one defender rolling two dice: one roll decides, and the
    // defender survives only by winning both comparisons (1 - 581/1296).
    let two = win(&["odds", "2", "1", "--defender", "two"]);
    assert!((two - (1.0 - 581.0 / 1296.0)).abs() < 1e-12, "{two}");
    assert_eq!(
        win(&["odds", "2", "1"]),
        win(&["odds", "2", "1", "--defender", "one"])
    );
    assert!(win(&["odds", "5", "4", "--defender", "one"]) > win(&["odds", "5", "4"]));
    let bad = orbis(&["odds", "3", "3", "--defender", "three"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("possible values: max, one, two"));
}

#[test]
fn dice_are_reproducible_d6_values() {
    let seed = "0123456789abcdef".repeat(4);
    let a = orbis(&["dice", "--seed", &seed, "--count", "600"]);
    let b = orbis(&["dice", "--count", "600", "--seed", &seed]);
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
    let vals: Vec<u8> = stdout(&a).lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(vals.len(), 600);
    assert!(vals.iter().all(|v| (1..=6).contains(v)));
    for face in 1..=6 {
        assert!(
            vals.iter().filter(|&&v| v == face).count() > 60,
            "face {face} is rare"
        );
    }
    // Same derivation as the engine's dice.
    use orbis_engine::dice::{Dice, SeededDice};
    let mut d = SeededDice::new(orbis_engine::dice::parse_seed_hex(&seed).unwrap());
    assert_eq!(vals[..20], (0..20).map(|_| d.d6()).collect::<Vec<_>>()[..]);
}

#[test]
fn simulate_is_deterministic_apart_from_timing() {
    let args = [
        "simulate",
        "--players",
        "4",
        "--bot",
        "normal",
        "--games",
        "3",
        "--seed",
        "11",
        "--max-turns",
        "300",
    ];
    let a = stdout(&orbis(&args));
    let b = stdout(&orbis(&args));
    let strip = |s: &str| {
        s.lines()
            .filter(|l| !l.contains("\"summary\""))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&a), strip(&b));
    let lines: Vec<serde_json::Value> = a
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    for g in &lines[..3] {
        assert_eq!(g["state_hash"].as_str().unwrap().len(), 64);
        assert!(g["turns"].as_u64().unwrap() > 0);
    }
    assert_eq!(lines[3]["games"], 3);
    assert!(lines[3]["games_per_second"].as_f64().unwrap() > 0.0);
}

#[test]
fn economy_games_are_simulated_with_the_same_contract() {
    let args = [
        "simulate",
        "--ruleset",
        "economy",
        "--players",
        "4",
        "--bot",
        "easy",
        "--games",
        "3",
        "--seed",
        "5",
        "--max-turns",
        "30",
    ];
    let a = stdout(&orbis(&args));
    let b = stdout(&orbis(&args));
    let games = |s: &str| {
        s.lines()
            .filter(|l| !l.contains("\"summary\""))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(games(&a), games(&b));
    let lines: Vec<serde_json::Value> = a
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    for g in &lines[..3] {
        assert_eq!(g["state_hash"].as_str().unwrap().len(), 64);
        // Rounds played: at most the limit, then the round that would begin ends the game.
        let rounds = g["turns"].as_u64().unwrap();
        assert!((1..=31).contains(&rounds), "{g}");
        assert!(g["winner"].as_u64().unwrap() < 4);
    }
    assert_eq!(lines[3]["games"], 3);
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    for args in [
        vec![],
        vec!["fly"],
        vec!["odds", "x", "1"],
        vec!["odds", "1"],
        vec!["dice", "--seed", "abc", "--count", "1"],
        vec!["dice", "--seed"],
        vec!["dice", "--count", "3"],
        vec![
            "simulate",
            "--players",
            "9",
            "--bot",
            "easy",
            "--games",
            "1",
            "--seed",
            "1",
        ],
        vec![
            "simulate",
            "--players",
            "3",
            "--bot",
            "expert",
            "--games",
            "1",
            "--seed",
            "1",
        ],
        vec![
            "simulate",
            "--players",
            "3",
            "--bot",
            "easy",
            "--games",
            "1",
            "--seed",
            "-1",
        ],
        vec!["simulate", "--players", "3", "--players", "3"],
        vec![
            "simulate",
            "--ruleset",
            "chess",
            "--players",
            "3",
            "--bot",
            "easy",
            "--games",
            "1",
            "--seed",
            "1",
        ],
        vec![
            "simulate",
            "--ruleset",
            "economy",
            "--players",
            "3",
            "--bot",
            "expert",
            "--games",
            "1",
            "--seed",
            "1",
        ],
        vec![
            "simulate",
            "--ruleset",
            "economy",
            "--players",
            "7",
            "--bot",
            "easy",
            "--games",
            "1",
            "--seed",
            "1",
        ],
    ] {
        let o = orbis(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.starts_with("orbis: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
}

#[test]
fn join_hands_over_to_the_native_peer() {
    // `orbis-join` is built beside `orbis` by `cargo test --workspace` (the transport crate's tests
    // need it); its argument errors come back
    // through `orbis join` as exit code 2.
    let o = orbis(&["join", "ws://127.0.0.1:1/room", "--players", "9"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("--players must be 2 to 6"), "{err}");
}

#[test]
fn every_command_has_help_and_the_tool_a_version() {
    for sub in ["odds", "dice", "simulate", "tournament", "adjudicate"] {
        let o = orbis(&[sub, "--help"]);
        assert!(o.status.success(), "{sub}");
        let text = stdout(&o);
        assert!(
            text.contains(&format!("Usage: orbis {sub}")),
            "{sub}: {text}"
        );
    }
    // `orbis join --help` is the native peer's own help.
    let o = orbis(&["join", "--help"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("Usage: orbis-join"), "{}", stdout(&o));
    let o = orbis(&["--version"]);
    assert!(o.status.success());
    assert!(stdout(&o).starts_with("orbis "));
    let o = orbis(&["--help"]);
    assert!(stdout(&o).contains("simulate"));
}

#[test]
fn argument_errors_are_one_line_pointing_at_the_right_help() {
    for (args, help) in [
        (vec!["odds", "1"], "orbis odds --help"),
        (vec!["simulate", "--players", "3"], "orbis simulate --help"),
        (vec!["adjudicate", "--bogus"], "orbis adjudicate --help"),
        (vec!["fly"], "orbis --help"),
        (vec![], "orbis --help"),
    ] {
        let o = orbis(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty());
        let err = String::from_utf8(o.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(help), "{args:?}: {err}");
    }
}

#[test]
fn adjudicate_lines_answers_one_line_per_phase() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_orbis"))
        .args(["adjudicate", "--lines"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let phase = r#"{"units": {"FRANCE": ["A PAR"]}, "orders": {"FRANCE": ["A PAR - BUR"]}}"#;
    {
        let mut stdin = child.stdin.take().unwrap();
        for _ in 0..3 {
            writeln!(stdin, "{phase}").unwrap();
        }
        writeln!(stdin, "not json").unwrap();
    }
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[2]["units"]["FRANCE"][0], "A BUR");
    assert!(lines[3]["error"].is_string());
}

#[test]
fn tournament_prints_a_line_a_game_and_a_summary_per_level() {
    let args = [
        "tournament",
        "--seats",
        "normal,easy,easy",
        "--games",
        "6",
        "--seed",
        "3",
    ];
    let (text, lines) = json_run(&args);
    assert_eq!(lines.len(), 7);
    for (g, l) in lines[..6].iter().enumerate() {
        assert_eq!(l["game"], g);
        let seats = l["seats"].as_array().unwrap();
        assert_eq!(seats.len(), 3);
        // Seats rotate: the normal bot sits in seat g mod 3 ... counted from the right.
        assert_eq!(seats[(3 - g % 3) % 3], "normal", "{l}");
        match l["winner"].as_u64() {
            Some(w) => assert_eq!(l["winner_bot"], seats[w as usize]),
            None => assert!(l["winner_bot"].is_null()),
        }
    }
    let s = &lines[6];
    assert_eq!(s["summary"], true);
    let bots = s["bots"].as_object().unwrap();
    assert_eq!(bots["normal"]["games"], 6);
    assert_eq!(bots["easy"]["games"], 12);
    let wins: u64 = bots.values().map(|b| b["wins"].as_u64().unwrap()).sum();
    assert_eq!(wins, s["ended"].as_u64().unwrap());
    for b in bots.values() {
        let (lo, hi) = (
            b["ci95"][0].as_f64().unwrap(),
            b["ci95"][1].as_f64().unwrap(),
        );
        let r = b["win_rate"].as_f64().unwrap();
        assert!(lo <= r && r <= hi, "{b}");
        assert!(b["ms_per_decision"].as_f64().is_some());
    }
    // Same arguments, more jobs: the same games (only timings may differ).
    let mut more = args.to_vec();
    more.extend(["--jobs", "3"]);
    let two = stdout(&orbis(&more));
    let games = |t: &str| t.lines().take(6).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(games(&text), games(&two));
    // Bad arguments: one line, exit 2.
    for bad in [
        vec![
            "tournament",
            "--seats",
            "normal",
            "--games",
            "1",
            "--seed",
            "1",
        ],
        vec![
            "tournament",
            "--seats",
            "normal,expert",
            "--games",
            "1",
            "--seed",
            "1",
        ],
        vec![
            "tournament",
            "--ruleset",
            "orders",
            "--seats",
            "normal,easy",
            "--games",
            "1",
            "--seed",
            "1",
        ],
    ] {
        let o = orbis(&bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}

/// Runs `orbis` with `args`, which must succeed: its output and that output's JSON lines.
fn json_run(args: &[&str]) -> (String, Vec<serde_json::Value>) {
    let out = orbis(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    let lines = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    (text, lines)
}

/// Each of these argument lines fails with one line on stderr and exit code 2.
fn assert_refused(lines: &[&str]) {
    for line in lines {
        let args: Vec<&str> = line.split_whitespace().collect();
        let o = orbis(&args);
        assert_eq!(o.status.code(), Some(2), "{line}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{line}: {err}");
    }
}

#[test]
fn economy_tournament_rotates_seats_and_names_the_winner() {
    let args =
        "tournament --ruleset economy --seats normal,easy,easy --games 3 --seed 2 --max-turns 20";
    let args: Vec<&str> = args.split_whitespace().collect();
    let (_, lines) = json_run(&args);
    assert_eq!(lines.len(), 4);
    for (g, l) in lines[..3].iter().enumerate() {
        let seats = l["seats"].as_array().unwrap();
        assert_eq!(seats[(3 - g % 3) % 3], "normal", "{l}");
        assert!(l["winner"].as_u64().unwrap() < 3);
    }
    let s = &lines[3];
    assert_eq!(s["ruleset"], "economy");
    assert_eq!(s["games"], 3);
    assert_eq!(s["bots"]["normal"]["games"], 3);
    // How each game ended, counted in the summary, and what each level used per game.
    let by_limit = lines[..3]
        .iter()
        .filter(|l| l["ended"] == "round limit")
        .count() as u64;
    assert!(lines[..3]
        .iter()
        .all(|l| l["ended"] == "elimination" || l["ended"] == "round limit"));
    assert_eq!(s["by_round_limit"], by_limit);
    assert_eq!(s["by_elimination"], 3 - by_limit);
    assert!(s["bots"]["normal"]["used_per_game"]["planned_moves"].as_f64() > Some(0.0));
}

#[test]
fn economy_hard_computer_players_play_tournaments() {
    let args = "tournament --ruleset economy --seats hard,normal --games 2 --seed 3 --max-turns 12";
    let args: Vec<&str> = args.split_whitespace().collect();
    let (_, lines) = json_run(&args);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[2]["bots"]["hard"]["games"], 2);
}

#[test]
fn orders_tournament_prints_solos_draws_and_centres() {
    let args =
        "tournament --ruleset orders --map world --seats normal,easy,easy --games 3 --seed 2";
    let args: Vec<&str> = args.split_whitespace().collect();
    let (text, lines) = json_run(&args);
    assert_eq!(lines.len(), 4);
    for (g, l) in lines[..3].iter().enumerate() {
        assert_eq!(l["game"], g);
        assert_eq!(l["map"], "world");
        assert_eq!(l["seats"].as_array().unwrap().len(), 3);
        assert_eq!(l["powers"].as_array().unwrap().len(), 3);
        let centres = l["centres"].as_array().unwrap();
        assert_eq!(centres.len(), 3);
        let drawn = l["drawn"].as_bool().unwrap();
        match l["winner"].as_u64() {
            Some(w) => {
                assert!(!drawn);
                assert_eq!(l["winner_bot"], l["seats"][w as usize]);
            }
            None => assert!(l["winner_bot"].is_null()),
        }
        assert!(l["year"].as_u64().unwrap() >= 1901);
        assert_eq!(l["state_hash"].as_str().unwrap().len(), 64);
    }
    let s = &lines[3];
    assert_eq!(
        (s["summary"].as_bool(), s["ruleset"].as_str()),
        (Some(true), Some("orders"))
    );
    let bots = s["bots"].as_object().unwrap();
    assert_eq!(bots["normal"]["games"], 3);
    assert_eq!(bots["easy"]["games"], 6);
    for b in bots.values() {
        assert_eq!(b["solos"], b["wins"]);
        assert!(b["draws"].as_u64().is_some() && b["mean_centres"].as_f64().is_some());
        assert!(b["ms_per_decision"].as_f64().is_some());
    }
    let mut more = args.clone();
    more.extend(["--jobs", "2"]);
    let two = stdout(&orbis(&more));
    let games = |t: &str| t.lines().take(3).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(games(&text), games(&two));
    assert_refused(&[
        "tournament --ruleset orders --seats normal,easy --games 1 --seed 1",
        "tournament --ruleset orders --map mars --seats normal,easy --games 1 --seed 1",
        "tournament --ruleset orders --map world --seats normal --games 1 --seed 1",
        "tournament --ruleset chess --seats normal,easy --games 1 --seed 1",
        "tournament --ruleset economy --seats hard --games 1 --seed 1",
        "tournament --ruleset orders --seats normal,easy --games 1 --seed 1 --max-year 1800",
        "tournament --map world --seats normal,easy --games 1 --seed 1",
    ]);
}

/// `tests/data/face-down-3.orbis-transcript`: a whole 3-player game dealt face down, written by
/// `cargo run -p orbis-protocol --example transcript -- 3 1 FILE` (protocol version 10; regenerate it the same way when the version changes).
const TRANSCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/face-down-3.orbis-transcript"
);

/// `tests/data/{orders-solo-2,orders-draw-3,economy-3,economy-round-limit-3,economy-halted-3}.orbis-transcript`:
/// finished games of the other rulesets, and a halted one, written by `cargo run -p
/// orbis-protocol --example transcript -- orders-solo 1 FILE` (`orders-draw 2`, `economy 1`,
/// `economy-limit 11`, `economy-halted 13`; regenerate them the same way when the protocol
/// version changes).
fn fixture(name: &str) -> String {
    format!(
        "{}/tests/data/{name}.orbis-transcript",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Issue 64: how a finished game ended, as its page says it, for every ruleset (`orbis verify`
/// said "not won" of every orders and economy game); a halted game says where it stopped and
/// whom it names, never who won.
#[test]
fn verify_reports_how_each_ruleset_ended() {
    let report = |name: &str| {
        let o = orbis(&["verify", &fixture(name)]);
        let text = stdout(&o);
        assert!(
            o.status.success(),
            "{name}: {text}{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            text.contains("participants signed this last state"),
            "{text}"
        );
        text
    };
    let line = |text: &str| text.lines().nth(3).unwrap_or_default().to_string();
    assert_eq!(
        line(&report("orders-solo-2")),
        "won by seat 0: North America wins with 20 of 30 supply centres"
    );
    assert_eq!(
        line(&report("orders-draw-3")),
        "drawn: The game is drawn between South America (seat 0), Europe (seat 1) and Africa (seat 2)"
    );
    assert_eq!(
        line(&report("economy-3")),
        "won by seat 2: P2 wins as the last player standing"
    );
    assert!(
        line(&report("economy-round-limit-3")).starts_with(
            "won by seat 0: P0 wins on the best score when the round limit ended the game after 3 rounds (income "
        ),
        "{}",
        report("economy-round-limit-3")
    );
    assert_eq!(line(&report("face-down-3")), "won by seat 1: P1 has won");
    // Halted: rejected, naming the cheater with its seat, and where the game stopped.
    let o = orbis(&["verify", &fixture("economy-halted-3")]);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!o.status.success());
    assert!(
        err.contains("transcript rejected: participant a537b5a8 (P2) cheated: it signed two different entries for log position 8"),
        "{err}"
    );
    assert!(
        err.contains("(the game stopped after 8 log positions)"),
        "{err}"
    );
    assert!(!err.contains("won"), "{err}");
}

#[test]
fn verify_checks_a_clean_transcript_and_names_a_changed_message() {
    let o = orbis(&["verify", TRANSCRIPT]);
    let text = stdout(&o);
    assert!(
        o.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(text.contains("transcript verified"), "{text}");
    assert!(
        text.contains("3 of 3 participants signed this last state"),
        "{text}"
    );
    assert!(text.contains("every shown card is the one dealt"), "{text}");
    // One byte changed in the middle of the file.
    let mut bytes = std::fs::read(TRANSCRIPT).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x20;
    let bad =
        std::env::temp_dir().join(format!("orbis-bad-{}.orbis-transcript", std::process::id()));
    std::fs::write(&bad, &bytes).unwrap();
    let o = orbis(&["verify", bad.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!o.status.success());
    assert!(err.contains("transcript rejected: message"), "{err}");
    std::fs::remove_file(&bad).ok();
    // Not a transcript at all.
    let o = orbis(&["verify", concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("not an Orbis transcript"));
}
