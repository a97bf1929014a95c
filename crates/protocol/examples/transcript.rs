//! Plays a whole classic game dealt face down among simulated peers (in memory, as the protocol
//! tests do) and writes peer 0's transcript, for `orbis verify` and its benchmark
//! (`scripts/bench-verify.sh`).
//!
//! `cargo run --release -p orbis-protocol --example transcript -- PLAYERS SEED FILE`
//!
//! Or a game of the other rulesets (`tests/common/finished.rs`), for the CLI's fixtures:
//! `... -- orders-solo|orders-draw|economy|economy-limit|economy-halted SEED FILE`: an orders
//! game won outright, or drawn; an economy game to the last player standing, or to a round
//! limit of 3; an economy game halted on a participant's equivocation (peer 0's transcript).

#[path = "../tests/common/mod.rs"]
mod common;

use common::{Net, NetParams};
use orbis_engine::classic::ClassicOptions;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [players, seed, file] = args.as_slice() else {
        eprintln!("usage: transcript PLAYERS|orders-solo|orders-draw|economy|economy-limit|economy-halted SEED FILE");
        std::process::exit(2);
    };
    if let Some(net) = other_ruleset(players, seed.parse().expect("seed: a number")) {
        let t = net.peers[0].transcript().expect("a game ran");
        std::fs::write(file, &t).expect("write the transcript");
        println!(
            "{players}: {} log positions, {} bytes of transcript",
            net.peers[0].log_len(),
            t.len()
        );
        return;
    }
    let n: usize = players.parse().expect("players: 2 to 6");
    let seed: u64 = seed.parse().expect("seed: a number");
    let mut net = Net::new(n, seed, NetParams::perfect());
    let mut p = net.proposal(0);
    p.face_down = true;
    p.options = ClassicOptions {
        missions: true,
        ..ClassicOptions::default()
    };
    net.start(p);
    let all: Vec<usize> = (0..n).collect();
    let start = std::time::Instant::now();
    assert!(
        net.run_until(600_000_000, |x| x.all_over(&all)),
        "the game did not end"
    );
    net.run_until(net.now + 2_000, |_| false);
    let t = net.peers[0].transcript().expect("a game ran");
    std::fs::write(file, &t).expect("write the transcript");
    println!(
        "{n} players: {} log positions, {} bytes of transcript, {} messages on the wire ({} bytes), played in {} ms",
        net.peers[0].log_len(),
        t.len(),
        net.delivered,
        net.bytes_sent,
        start.elapsed().as_millis()
    );
}

/// A game of another ruleset, by name.
fn other_ruleset(name: &str, seed: u64) -> Option<Net> {
    use common::finished::*;
    Some(match name {
        "orders-solo" => orders_solo(seed),
        "orders-draw" => orders_draw(seed),
        "economy" => economy_to_end(seed, 1_000),
        "economy-limit" => economy_to_end(seed, 3),
        "economy-halted" => economy_halted(seed).0,
        _ => return None,
    })
}
