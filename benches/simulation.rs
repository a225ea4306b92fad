//! Throughput of the Monte Carlo engine, single-threaded, on the BwInf board.
//!
//! `cargo bench --bench simulation`; criterion reports time per chunk of
//! `CHUNK_GAMES` games and the throughput in games per second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use wuerfelglueck::dice::Die;
use wuerfelglueck::rules::Rules;
use wuerfelglueck::sim::{CHUNK_GAMES, CHUNK_PAIRS, Matchup, StreamKey, play_chunk};

fn games_per_second(c: &mut Criterion) {
    let rules = Rules::bwinf();
    let mut group = c.benchmark_group("single-thread games, bwinf board");
    group.throughput(Throughput::Elements(CHUNK_GAMES));
    for (a, b) in [("1..6", "1..6"), ("1..20", "1,1,1,6,6,6")] {
        let die_a: Die = a.parse().unwrap();
        let die_b: Die = b.parse().unwrap();
        let matchup = Matchup {
            rules: &rules,
            dice: [&die_a, &die_b],
            max_rolls: 100_000,
        };
        let key = StreamKey::new(1);
        let mut chunk = 0u64;
        group.bench_function(format!("{a} vs {b}"), |bench| {
            bench.iter(|| {
                chunk += 1;
                black_box(play_chunk(&matchup, key, chunk, CHUNK_PAIRS))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, games_per_second);
criterion_main!(benches);
