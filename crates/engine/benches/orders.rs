//! Phases adjudicated per second on random dense positions of the Europe map: our resolver and
//! the `diplomacy` crate side by side, on the same phases. Run with
//! `cargo bench -p orbis-engine --bench orders`.

#[path = "../tests/orders_random/mod.rs"]
mod orders_random;

use diplomacy::judge::{MappedMainOrder, Rulebook, Submission};
use orbis_engine::rules::orders::map::OrdersMap;
use orbis_engine::rules::orders::movement;
use orders_random::{random_phase, Rng};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let m = OrdersMap::europe();
    let their_map = diplomacy::geo::standard_map();
    let mut rng = Rng(0x5eed_0f0d_d3a5);
    let phases: Vec<_> = (0..500)
        .map(|_| {
            let (units, orders, texts) = random_phase(m, their_map, &mut rng);
            let ours: Vec<_> = units
                .iter()
                .zip(&orders)
                .map(|(u, w)| (u.power, *w))
                .collect();
            let theirs: Vec<MappedMainOrder> = texts.iter().map(|t| t.parse().unwrap()).collect();
            (units, ours, theirs)
        })
        .collect();
    let rounds = 10;
    let start = Instant::now();
    for _ in 0..rounds {
        for (units, ours, _) in &phases {
            black_box(movement(m, units, ours));
        }
    }
    let ours_rate = (rounds * phases.len()) as f64 / start.elapsed().as_secs_f64();
    let start = Instant::now();
    for _ in 0..rounds {
        for (_, _, theirs) in &phases {
            let sub = Submission::with_inferred_state(their_map, theirs.clone());
            let out = sub.adjudicate(Rulebook::edition_2023());
            black_box(out.orders().count());
        }
    }
    let theirs_rate = (rounds * phases.len()) as f64 / start.elapsed().as_secs_f64();
    println!(
        "orders adjudication, {} random dense Europe phases (20-49 units):",
        phases.len()
    );
    println!("  orbis resolver:   {ours_rate:>10.0} phases/s");
    println!("  diplomacy 0.2.0:  {theirs_rate:>10.0} phases/s");
    println!(
        "  ratio (orbis / diplomacy): {:.2}",
        ours_rate / theirs_rate
    );
}
