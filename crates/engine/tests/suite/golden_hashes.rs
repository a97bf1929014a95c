//! Golden hashes: fixed sets of classic bot games, random orders phases and whole orders games,
//! each reduced to a hash and compared with `tests/golden/hashes.txt`. A refactoring must leave
//! them identical; a deliberate rules change updates the file (`ORBIS_GOLDEN_WRITE=1 cargo test
//! -p orbis-engine --test suite golden_hashes`) and says why in its commit.

use crate::orders_random;

use orbis_engine::codec::{self, sha256};
use orbis_engine::rules::classic::{BotLevel, ClassicOptions};
use orbis_engine::rules::orders::map::OrdersMap;
use orbis_engine::rules::orders::{movement, OrdersAction, OrdersOptions, OrdersState, Phase};
use orbis_engine::sim;
use orders_random::*;

fn hex(h: &[u8; 32]) -> String {
    h.iter().map(|b| format!("{b:02x}")).collect()
}

fn lines() -> Vec<String> {
    let mut out = vec![];
    for players in 2..=6 {
        for (name, level) in [("easy", BotLevel::Easy), ("normal", BotLevel::Normal)] {
            for g in 0..2 {
                let r = sim::play(
                    players,
                    level,
                    ClassicOptions::default(),
                    sim::game_seed(7, g),
                    400,
                )
                .unwrap();
                out.push(format!(
                    "classic {players} {name} {g} {}",
                    r.state_hash.to_hex()
                ));
            }
        }
    }
    let m = OrdersMap::europe();
    let their = diplomacy::geo::standard_map();
    let mut rng = Rng(0x0bb1_5ca1_ab1e);
    for k in 0..200 {
        let (units, orders, _) = random_phase(m, their, &mut rng);
        let pairs: Vec<_> = units
            .iter()
            .zip(&orders)
            .map(|(u, w)| (u.power, *w))
            .collect();
        let r = movement(m, &units, &pairs);
        out.push(format!("phase {k} {}", hex(&sha256(&codec::encode(&r)))));
    }
    for g in 0..3u64 {
        let mut rng = Rng(0x5eed_0000 + g);
        let mut s = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
        for _ in 0..40 {
            if matches!(s.phase, Phase::GameOver { .. }) {
                break;
            }
            for power in s.waiting_for() {
                let mine: Vec<_> = s
                    .units
                    .iter()
                    .filter(|u| u.power == power)
                    .copied()
                    .collect();
                let list = if matches!(s.phase, Phase::Movement) {
                    random_orders(m, their, &mut rng, &mine)
                } else {
                    vec![]
                };
                let submit = |list| OrdersAction::Submit {
                    power,
                    orders: list,
                };
                if s.apply(&submit(list)).is_err() {
                    s.apply(&submit(vec![])).unwrap();
                }
            }
            s.apply(&OrdersAction::Adjudicate).unwrap();
        }
        out.push(format!(
            "orders-game {g} {}",
            hex(&sha256(&codec::encode(&s)))
        ));
    }
    out
}

#[test]
fn hashes_of_fixed_games_are_unchanged() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/hashes.txt");
    let got = lines().join("\n") + "\n";
    if std::env::var_os("ORBIS_GOLDEN_WRITE").is_some() {
        std::fs::write(path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(path).unwrap();
    for (g, w) in got.lines().zip(want.lines()) {
        assert_eq!(g, w);
    }
    assert_eq!(got.lines().count(), want.lines().count());
}
