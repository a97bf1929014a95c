//! What the real-network tests share: child processes that die with the test, and the check that
//! every `orbis-join` peer printed the same end of the game.

#![allow(dead_code)]

pub mod relay;

use std::io::{BufRead, BufReader};
use std::process::Child;

/// A child process killed when dropped.
pub struct Kill(pub Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits for every peer's one JSON line (and a clean exit) and checks they agree on the end of
/// the game: state hash, winner, turns and actions.
pub fn agree(peers: Vec<Kill>) {
    let mut lines = vec![];
    for mut p in peers {
        let out = p.0.stdout.take().expect("stdout");
        let line = BufReader::new(out)
            .lines()
            .next()
            .expect("a result line")
            .expect("utf-8");
        println!("{line}");
        assert!(p.0.wait().expect("exit").success());
        lines.push(serde_json::from_str::<serde_json::Value>(&line).expect("json"));
    }
    for l in &lines[1..] {
        for k in ["state_hash", "winner", "turns", "actions"] {
            assert_eq!(l[k], lines[0][k], "{k}");
        }
    }
}
