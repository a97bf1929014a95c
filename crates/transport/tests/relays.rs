//! Rendezvous through real Nostr relays, with no matchbox_server anywhere: `orbis-join` peers find
//! each other through a relay process started here (the `nostr-relay` package from PyPI, which
//! `scripts/nostr-relay.sh` installs), connect over real WebRTC on loopback, and play a whole
//! classic game to one state hash. A sniffer subscribed to the relay checks that nothing it was
//! sent carries the room secret, an SDP or a name in the clear.
//!
//! Set `NOSTR_RELAY` to the relay's executable. Run with
//! `cargo test -p orbis-transport --test relays -- --ignored --nocapture`.

use orbis_transport::relay::{nostr, KIND};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod common;
use common::{agree, Kill};

/// Starts a relay on a free port; returns it and its `ws://` URL.
fn relay(tag: &str) -> (common::relay::Relay, String) {
    let r = common::relay::start(tag, "");
    let url = r.url.clone();
    (r, url)
}

/// Subscribes to every Orbis rendezvous event the relay passes on, whatever its topic.
fn sniff(url: &str) -> Arc<Mutex<Vec<String>>> {
    let seen = Arc::new(Mutex::new(vec![]));
    let (mut ws, _) = tungstenite::connect(url).expect("sniffer connects");
    let req = format!(r#"["REQ","sniff",{{"kinds":[{KIND}]}}]"#);
    ws.send(tungstenite::Message::text(req))
        .expect("sniffer subscribes");
    let s = seen.clone();
    std::thread::spawn(move || {
        while let Ok(m) = ws.read() {
            if let tungstenite::Message::Text(t) = m {
                if let Some(nostr::RelayMsg::Event { event, .. }) = nostr::parse(t.as_str()) {
                    s.lock()
                        .unwrap()
                        .push(serde_json::to_string(&event).unwrap());
                }
            }
        }
    });
    seen
}

fn peer(relays: &str, room: &str, players: usize, i: usize, dir: &Path) -> Kill {
    Kill(
        Command::new(env!("CARGO_BIN_EXE_orbis-join"))
            .args([
                "--relays",
                relays,
                "--room",
                room,
                "--seed",
                "7",
                "--timeout-s",
                "500",
            ])
            .args([
                "--players",
                &players.to_string(),
                "--name",
                &format!("Sniffable{i}"),
            ])
            .arg("--identity")
            .arg(dir.join(format!("peer{i}.key")))
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start orbis-join"),
    )
}

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("orbis-relay-peers-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn game(players: usize) {
    let (_relay, url) = relay(&format!("r{players}"));
    let seen = sniff(&url);
    let room = format!("Zk9yYmlzLXRlc3Qtcm9vbS{players}");
    let dir = temp(&format!("g{players}"));
    let peers = (0..players)
        .map(|i| peer(&url, &room, players, i, &dir))
        .collect();
    agree(peers);
    let seen = seen.lock().unwrap();
    assert!(
        seen.len() >= 2 * players,
        "the sniffer saw the rendezvous ({} events)",
        seen.len()
    );
    for e in seen.iter() {
        for plain in [
            room.as_str(),
            "Sniffable",
            "v=0",
            "fingerprint",
            "candidate",
            "typ host",
            "127.0.0.1",
        ] {
            assert!(
                !e.contains(plain),
                "a relay saw {plain:?} in the clear: {e}"
            );
        }
    }
}

#[test]
#[ignore = "needs a Nostr relay process (NOSTR_RELAY) and real WebRTC on loopback"]
fn two_peers_meet_through_a_relay_and_play_a_game() {
    game(2);
}

#[test]
#[ignore = "needs a Nostr relay process (NOSTR_RELAY) and real WebRTC on loopback"]
fn three_peers_meet_through_a_relay_and_play_a_game() {
    game(3);
}

/// Two relays; the first is killed while the lobby fills: the later peers meet the first through
/// the second relay alone.
#[test]
#[ignore = "needs a Nostr relay process (NOSTR_RELAY) and real WebRTC on loopback"]
fn a_relay_killed_mid_lobby_does_not_stop_the_room() {
    let (r1, u1) = relay("k1");
    let (_r2, u2) = relay("k2");
    let both = format!("{u1},{u2}");
    let room = "a-room-with-two-relays";
    let dir = temp("kill");
    let first = peer(&both, room, 3, 0, &dir);
    std::thread::sleep(Duration::from_secs(3));
    eprintln!("killing relay 1");
    drop(r1);
    // Gone for good: nothing listens on its port any more.
    let addr = u1.trim_start_matches("ws://");
    let t = Instant::now();
    while TcpStream::connect(addr).is_ok() {
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "relay 1 still answers after the kill"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let mut peers = vec![first];
    peers.extend((1..3).map(|i| peer(&both, room, 3, i, &dir)));
    agree(peers);
}

/// Introductions through the mesh: B reaches only relay 1 and C only relay 2, so they never meet
/// on a relay; A reaches both, connects to each, and passes their offers and answers between them
/// over the data channels already open. All three play the game together.
#[test]
#[ignore = "needs a Nostr relay process (NOSTR_RELAY) and real WebRTC on loopback"]
fn peers_on_different_relays_are_introduced_through_the_mesh() {
    let (_r1, u1) = relay("m1");
    let (_r2, u2) = relay("m2");
    let room = "a-room-introduced-through-the-mesh";
    let dir = temp("mesh");
    let a = peer(&format!("{u1},{u2}"), room, 3, 0, &dir);
    std::thread::sleep(Duration::from_secs(1));
    let b = peer(&u1, room, 3, 1, &dir);
    let c = peer(&u2, room, 3, 2, &dir);
    agree(vec![a, b, c]);
}
