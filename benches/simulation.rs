//! Throughput of the Monte Carlo engine, single-threaded, on the BwInf board.
//!
//! `cargo bench --bench simulation`; criterion reports time per chunk of
//! `CHUNK_GAMES` games and the throughput in games per second (the `bwinf` fast path, and
//! the strategies' path under `choice`), and the time of a whole ranking of
//! `data/wuerfel0.txt`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use wuerfelglueck::dice::Die;
use wuerfelglueck::rank::{SimulationPlan, simulate_tournament};
use wuerfelglueck::rules::{Board, Rules};
use wuerfelglueck::sim::{
    CHUNK_GAMES, CHUNK_PAIRS, LanesPath, Matchup, Stopping, StreamKey, play_chunk, play_chunks_on,
};
use wuerfelglueck::strategy::Strategy;

/// One chunk of games of `matchup` per iteration, each from the next chunk's random stream.
fn bench_chunks(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    matchup: &Matchup<'_>,
) {
    let key = StreamKey::new(1);
    let mut chunk = 0u64;
    group.bench_function(name, |bench| {
        bench.iter(|| {
            chunk += 1;
            black_box(play_chunk(matchup, key, chunk, CHUNK_PAIRS))
        })
    });
}

/// One chunk at a time (`play_chunk`): the one-game loop.
fn games_per_second(c: &mut Criterion) {
    let rules = Rules::bwinf();
    let mut group = c.benchmark_group("single-thread games, bwinf board");
    group.throughput(Throughput::Elements(CHUNK_GAMES));
    for (a, b) in [("1..6", "1..6"), ("1..20", "1,1,1,6,6,6")] {
        let die_a: Die = a.parse().unwrap();
        let die_b: Die = b.parse().unwrap();
        let matchup = Matchup::new(&rules, [&die_a, &die_b], 100_000).unwrap();
        bench_chunks(&mut group, &format!("{a} vs {b}"), &matchup);
    }
    group.finish();
}

/// 128 chunks per iteration through `play_chunks_on` on one thread, on every path this
/// processor runs (AVX-512, AVX2, portable lanes, the one-game loop), side by side: what
/// `duel`, `rank` and `search` run, in groups of 32 chunks as in a long run.
fn games_per_second_in_lanes(c: &mut Criterion) {
    const CHUNKS: u64 = 128;
    let rules = Rules::bwinf();
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let mut group = c.benchmark_group("single-thread games, play_chunks, bwinf board");
    group.sample_size(20);
    group.throughput(Throughput::Elements(CHUNKS * CHUNK_GAMES));
    for (a, b) in [("1..6", "1..6"), ("1..20", "1,1,1,6,6,6")] {
        let die_a: Die = a.parse().unwrap();
        let die_b: Die = b.parse().unwrap();
        let matchup = Matchup::new(&rules, [&die_a, &die_b], 100_000).unwrap();
        let key = StreamKey::new(1);
        for path in LanesPath::ALL.into_iter().filter(|p| p.runs_here()) {
            let mut first = 0u64;
            group.bench_function(format!("{a} vs {b}, {}", path.name()), |bench| {
                bench.iter(|| {
                    first += CHUNKS;
                    let chunks = first..first + CHUNKS;
                    black_box(
                        one_thread.install(|| {
                            play_chunks_on(path, &matchup, key, chunks, u64::MAX, &|_| {})
                        }),
                    )
                })
            });
        }
    }
    group.finish();
}

/// The strategies' path under `choice`: every roll lists the legal moves and a strategy
/// picks one (the `bwinf` fast path above does not).
fn games_per_second_with_strategies(c: &mut Criterion) {
    let rules = Rules::new(Board::BWINF, "choice".parse().unwrap());
    let die: Die = "1..6".parse().unwrap();
    let mut group = c.benchmark_group("single-thread games, choice, 1..6 vs 1..6");
    group.throughput(Throughput::Elements(CHUNK_GAMES));
    for (a, b) in [
        ("frontmost", "frontmost"),
        ("safe", "capture"),
        ("random", "rearmost"),
    ] {
        let strategies: [Strategy; 2] = [a.parse().unwrap(), b.parse().unwrap()];
        let matchup = Matchup::with_strategies(&rules, [&die, &die], strategies, 100_000).unwrap();
        bench_chunks(&mut group, &format!("{a} vs {b}"), &matchup);
    }
    group.finish();
}

/// The whole ranking of `data/wuerfel0.txt` (15 pairs) at a fixed number of games per pair,
/// on all cores: the library path behind `rank data/wuerfel0.txt --games 20000`.
fn rank_wuerfel0(c: &mut Criterion) {
    let rules = Rules::bwinf();
    let dice = wuerfelglueck::dice::read_dice_file(std::path::Path::new("data/wuerfel0.txt"))
        .expect("run from the crate root");
    let plan = SimulationPlan {
        stopping: Stopping::games(20_000).unwrap(),
        seed: 1,
        max_rolls: 100_000,
    };
    let mut group = c.benchmark_group("rank data/wuerfel0.txt, all cores");
    group.sample_size(10);
    group.throughput(Throughput::Elements(15 * 20_000));
    group.bench_function("20000 games per pair", |bench| {
        bench.iter(|| {
            black_box(simulate_tournament(
                &rules,
                &dice,
                &plan,
                &|_| {},
                &|_, _| {},
            ))
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    games_per_second,
    games_per_second_in_lanes,
    games_per_second_with_strategies,
    rank_wuerfel0
);
criterion_main!(benches);
