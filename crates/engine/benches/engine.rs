//! Figures for the issue notes: exact odds and whole bot games.
//! Run with `cargo bench -p orbis-engine` (or `scripts/bench.sh`).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use orbis_engine::odds::odds;
use orbis_engine::rules::classic::{BotLevel, ClassicOptions};
use orbis_engine::sim::{game_seed, play};

fn bench_odds(c: &mut Criterion) {
    c.bench_function("odds 100 100", |b| {
        b.iter(|| odds(black_box(100), black_box(100)))
    });
    c.bench_function("odds 10 10", |b| {
        b.iter(|| odds(black_box(10), black_box(10)))
    });
}

fn bench_games(c: &mut Criterion) {
    let mut g = c.benchmark_group("4-player game");
    g.sample_size(20);
    for (name, level) in [
        ("easy (max 300 turns)", BotLevel::Easy),
        ("normal", BotLevel::Normal),
    ] {
        let mut i = 0u64;
        g.bench_function(name, |b| {
            b.iter(|| {
                i += 1;
                play(4, level, ClassicOptions::default(), game_seed(99, i), 300).unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench_odds, bench_games);
criterion_main!(benches);
