//! Bot arena over real WebRTC on loopback: a local `matchbox_server` and three `orbis-join`
//! peers play a whole classic game, its cards and missions dealt face down among them, and must
//! agree on the final state hash and winner; each one's transcript then checks out offline.
//!
//! Needs `matchbox_server` 0.15 (`cargo install matchbox_server --locked --version 0.15.0`);
//! set `MATCHBOX_SERVER` to its path if it is not on `PATH`. Run with
//! `cargo test -p orbis-transport -- --ignored --nocapture`.

use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{agree, Kill};

#[test]
#[ignore = "needs a matchbox_server binary and real WebRTC on loopback"]
fn three_native_peers_play_a_game_over_webrtc() {
    arena(false);
}

/// Peer 2 is killed mid-game and restarted with the same identity file; it catches up and all
/// three still agree.
#[test]
#[ignore = "needs a matchbox_server binary and real WebRTC on loopback"]
fn a_killed_native_peer_restarts_and_catches_up() {
    arena(true);
}

fn arena(reload: bool) {
    let server = std::env::var("MATCHBOX_SERVER").unwrap_or_else(|_| "matchbox_server".into());
    let port = 35_000 + (std::process::id() % 2_000) as u16 + u16::from(reload) * 2_000;
    let addr = format!("127.0.0.1:{port}");
    let _server = Kill(
        Command::new(&server)
            .arg(&addr)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start matchbox_server (set MATCHBOX_SERVER)"),
    );
    let t = Instant::now();
    while TcpStream::connect(&addr).is_err() {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "server did not start"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let url = format!("ws://{addr}/arena-{}-{reload}", std::process::id());
    let dir = std::env::temp_dir().join(format!("orbis-arena-{}-{reload}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let delay = if reload { "40" } else { "0" };
    let spawn = |i: usize| {
        Kill(
            Command::new(env!("CARGO_BIN_EXE_orbis-join"))
                .args([&url, "--players", "3", "--seed", "7", "--timeout-s", "600"])
                .args(["--name", &format!("native{i}"), "--move-delay-ms", delay])
                .arg("--identity")
                .arg(dir.join(format!("peer{i}.key")))
                .arg("--transcript")
                .arg(dir.join(format!("peer{i}.orbis-transcript")))
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn()
                .expect("start orbis-join"),
        )
    };
    let mut peers: Vec<Kill> = (0..3).map(spawn).collect();
    if reload {
        std::thread::sleep(Duration::from_secs(6));
        eprintln!("killing peer 2");
        peers.pop();
        std::thread::sleep(Duration::from_secs(2));
        peers.push(spawn(2));
    }
    agree(peers);
    for i in 0..3 {
        let bytes =
            std::fs::read(dir.join(format!("peer{i}.orbis-transcript"))).expect("a transcript");
        let r = orbis_protocol::peer::verify(&bytes).unwrap_or_else(|e| panic!("peer {i}: {e}"));
        assert!(r.winner.is_some(), "peer {i}'s transcript ends the game");
        let d = r.deal.expect("dealt face down");
        println!(
            "peer {i}: transcript verified, {} positions, {} secrets, {} cards opened",
            r.positions, d.keys, d.opened
        );
    }
}
