//! An orders game over days played by `orbis-join --days` visits alone, through two REAL relay
//! processes (`nostr-relay`, sqlite): three players with three identity files, each visit a
//! process of its own, run one after another (never two at once), from the proposal through two
//! game years of Europe 1901; then each player's `--watch` visit prints the same log length and
//! state hash. Prints bytes and events stored per phase and per game, and the time to catch up
//! the whole game from the relays.
//!
//! Set `NOSTR_RELAY` to the relay's executable. Run with
//! `cargo test -p orbis-transport --test days_join -- --ignored --nocapture`.

use orbis_transport::relay::new_secret;
use std::path::Path;
use std::process::{Command, Stdio};

mod common;
use common::relay::start;

fn orbis_join(args: &[&str], key: &Path) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_orbis-join"))
        .args(args)
        .arg("--identity")
        .arg(key)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("run orbis-join");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "orbis-join {args:?} failed:\n{stderr}{stdout}"
    );
    eprint!("  {stderr}");
    serde_json::from_str(stdout.lines().last().unwrap_or("")).unwrap_or(serde_json::Value::Null)
}

fn show_key(key: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_orbis-join"))
        .arg("--show-key")
        .arg("--identity")
        .arg(key)
        .output()
        .expect("run orbis-join");
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

#[test]
#[ignore = "needs a Nostr relay process (NOSTR_RELAY)"]
fn three_players_play_two_orders_years_by_orbis_join_visits() {
    let big = "max_event_size: 65536";
    let r0 = start("join0", big);
    let r1 = start("join1", big);
    let relays = format!("{},{}", r0.url, r1.url);
    let room = new_secret([62; 16]);
    let dir = std::env::temp_dir().join(format!("orbis-days-join-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let ids: Vec<_> = (0..3).map(|i| dir.join(format!("player{i}.key"))).collect();
    let keys: Vec<String> = ids.iter().map(|p| show_key(p)).collect();
    let all = keys.join(",");
    let base = [
        "--days", "--relays", &relays, "--room", &room, "--bot", "easy",
    ];
    let visit = |i: usize, extra: &[&str]| {
        let name = format!("Player{i}");
        let mut a: Vec<&str> = base.to_vec();
        a.extend(["--name", &name]);
        a.extend(extra);
        orbis_join(&a, &ids[i])
    };
    // Per phase (the one under way when the visit began): visits, messages, events, bytes.
    let mut per_phase: Vec<(String, (usize, u64, u64, u64))> = vec![];
    let mut phase = "lobby".to_string();
    let mut visits = 0;
    let mut last = serde_json::Value::Null;
    for turn in 0..240 {
        let i = turn % 3;
        let v = if turn == 0 {
            visit(0, &["--propose", &all])
        } else {
            visit(i, &[])
        };
        visits += 1;
        assert_eq!(v["halted"], false, "{v}");
        if per_phase.last().is_none_or(|(p, _)| *p != phase) {
            per_phase.push((phase.clone(), Default::default()));
        }
        let e = &mut per_phase.last_mut().unwrap().1;
        e.0 += 1;
        e.1 += v["published_messages"].as_u64().unwrap();
        e.2 += v["published_events"].as_u64().unwrap();
        e.3 += v["published_bytes"].as_u64().unwrap();
        let now = v["phase"].as_str().unwrap().to_string();
        if !now.is_empty() {
            phase = now;
        }
        println!("visit {visits} by player {i}: {v}");
        last = v;
        if phase.contains("1903") {
            break;
        }
    }
    assert!(
        phase.contains("1903"),
        "two game years in 240 visits: {last}"
    );
    // Each player looks without acting: the same game.
    let seen: Vec<serde_json::Value> = (0..3).map(|i| visit(i, &["--watch"])).collect();
    for s in &seen {
        println!("watch: {s}");
        assert_eq!(s["state_hash"], seen[0]["state_hash"]);
        assert_eq!(s["log_len"], seen[0]["log_len"]);
        assert_eq!(s["published_messages"], 0);
    }
    assert!(!seen[0]["state_hash"].as_str().unwrap().is_empty());
    println!("per phase (phase under way at the visit: visits, messages, events, bytes stored):");
    let mut total = (0, 0, 0, 0);
    for (p, (v, m, e, b)) in &per_phase {
        println!("  {p:<28} {v:>3} visits {m:>4} messages {e:>3} events {b:>7} bytes");
        total = (total.0 + v, total.1 + m, total.2 + e, total.3 + b);
    }
    let w = &seen[0];
    println!(
        "game: {} visits, {} messages in {} events ({} bytes of content) on each relay; a watch visit caught up {} positions in {} ms (fetch {} ms from 2 relays, replay {} ms)",
        total.0,
        w["stored_messages"],
        w["stored_events"],
        w["stored_bytes"],
        w["log_len"],
        w["fetch_ms"].as_u64().unwrap() + w["catch_up_ms"].as_u64().unwrap(),
        w["fetch_ms"],
        w["catch_up_ms"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
