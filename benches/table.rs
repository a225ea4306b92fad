//! Throughput of the table simulator, single-threaded, on the BwInf board: four players of
//! 1..6 (every seating), and the two-seat table beside the duel engine it must match.
//!
//! `cargo bench --bench table`; criterion reports the time per chunk (or per 128 chunks) and
//! the throughput in complete games per second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use wuerfelglueck::dice::Die;
use wuerfelglueck::rules::{Rules, Seats};
use wuerfelglueck::sim::{LanesPath, Seating, StreamKey, Table};

/// One chunk at a time (`Table::play_chunk`): the one-game loop.
fn table_games_per_second(c: &mut Criterion) {
    let die = Die::standard();
    let mut group = c.benchmark_group("single-thread table games, bwinf board");
    for players in [4usize, 3, 2] {
        let seats = Seats::new(Rules::bwinf(), players).unwrap();
        let dice = vec![&die; players];
        let table = Table::new(&seats, &dice, 100_000, Seating::All).unwrap();
        let rounds = table.chunk_games() / table.round_games();
        group.throughput(Throughput::Elements(table.chunk_games()));
        let key = StreamKey::new(1);
        let mut chunk = 0u64;
        group.bench_function(format!("{players} x 1..6"), |bench| {
            bench.iter(|| {
                chunk += 1;
                black_box(table.play_chunk(key, chunk, rounds))
            })
        });
    }
    group.finish();
}

/// 128 chunks per iteration through `Table::play_chunks_on` on one thread, on every path
/// this processor runs (AVX-512, AVX2, portable lanes, the one-game loop), side by side: what
/// `table` and `rank --players` run, in groups of 32 chunks as in a long run.
fn table_games_per_second_in_lanes(c: &mut Criterion) {
    const CHUNKS: u64 = 128;
    let die = Die::standard();
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let mut group = c.benchmark_group("single-thread table games, play_chunks, bwinf board");
    group.sample_size(10);
    for players in [4usize, 3, 2] {
        let seats = Seats::new(Rules::bwinf(), players).unwrap();
        let dice = vec![&die; players];
        let table = Table::new(&seats, &dice, 100_000, Seating::All).unwrap();
        group.throughput(Throughput::Elements(CHUNKS * table.chunk_games()));
        let key = StreamKey::new(1);
        for path in LanesPath::ALL.into_iter().filter(|p| p.runs_here()) {
            let mut first = 0u64;
            group.bench_function(format!("{players} x 1..6, {}", path.name()), |bench| {
                bench.iter(|| {
                    first += CHUNKS;
                    let chunks = first..first + CHUNKS;
                    black_box(
                        one_thread
                            .install(|| table.play_chunks_on(path, key, chunks, u64::MAX, &|_| {})),
                    )
                })
            });
        }
    }
    group.finish();
}

criterion_group!(
    benches,
    table_games_per_second,
    table_games_per_second_in_lanes
);
criterion_main!(benches);
