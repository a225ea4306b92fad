//! Speed of the learned player on the BwInf board under `choice`, single-threaded.
//!
//! `cargo bench --bench strong`: the time of one decision of `strong`, `strong-search` and
//! `strong-search-2` (positions from games of `strong` against itself, only rolls with at
//! least two legal moves), complete games of `strong` against `strong` and against `safe`
//! per second, and complete games at tables of three and four with the table players.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use std::hint::black_box;
use wuerfelglueck::dice::Die;
use wuerfelglueck::rules::{Board, LegalMoves, Rules, Seats};
use wuerfelglueck::sim::{
    CHUNK_GAMES, CHUNK_PAIRS, Matchup, Seating, StreamKey, Table, play_chunk,
};
use wuerfelglueck::strategy::Strategy;

/// Decisions (positions and the legal moves of a roll, at least two) met in games of
/// `strong` against itself.
fn decisions(rules: &Rules, die: &Die, count: usize) -> Vec<(u64, u64, usize, LegalMoves)> {
    let strong: Strategy = "strong".parse().unwrap();
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
    let mut found = Vec::new();
    while found.len() < count {
        let (mut own, mut other, mut mover) = (1u64, 1u64, 0usize);
        for _ in 0..10_000 {
            let face = die.roll(&mut rng);
            let legal = rules.legal_moves(own, other, mover, face);
            if legal.len() >= 2 {
                found.push((own, other, mover, legal));
            }
            let m = strong.choose(rules, own, other, mover, &legal, &mut rng);
            let turn = rules.roll_with_move(own, other, mover, 0, face, m);
            if turn.won {
                break;
            }
            if turn.passes {
                (own, other, mover) = (turn.other, turn.own, 1 - mover);
            } else {
                (own, other) = (turn.own, turn.other);
            }
        }
    }
    found.truncate(count);
    found
}

fn one_decision(c: &mut Criterion) {
    // The full board's player (self-play, 64 hidden units) and the player of the largest
    // solved board with three pieces (fitted to the exact values, 256 hidden units).
    for board in [Board::BWINF, Board::new(40, 20, 3, 4).unwrap()] {
        decisions_on(c, board);
    }
}

fn decisions_on(c: &mut Criterion, board: Board) {
    let rules = Rules::new(board, "choice".parse().unwrap());
    let die = Die::standard();
    let positions = decisions(&rules, &die, 1024);
    let mut group = c.benchmark_group(format!("one decision, {board} choice"));
    group.throughput(Throughput::Elements(positions.len() as u64));
    for name in ["strong", "strong-search", "strong-search-2", "safe"] {
        let strategy = name.parse::<Strategy>().unwrap().seated([&die, &die], 0);
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        group.bench_function(name, |bench| {
            bench.iter(|| {
                for (own, other, mover, legal) in &positions {
                    black_box(strategy.choose(&rules, *own, *other, *mover, legal, &mut rng));
                }
            })
        });
    }
    group.finish();
}

fn complete_games(c: &mut Criterion) {
    let rules = Rules::new(Board::BWINF, "choice".parse().unwrap());
    let die = Die::standard();
    let mut group = c.benchmark_group("single-thread games, 40/20/4/4 choice, 1..6 vs 1..6");
    group.throughput(Throughput::Elements(CHUNK_GAMES));
    group.sample_size(10);
    for (a, b) in [("strong", "strong"), ("strong", "safe")] {
        let strategies: [Strategy; 2] = [a.parse().unwrap(), b.parse().unwrap()];
        let matchup = Matchup::with_strategies(&rules, [&die, &die], strategies, 100_000).unwrap();
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

fn table_games(c: &mut Criterion) {
    let rules = Rules::new(Board::BWINF, "choice".parse().unwrap());
    let die = Die::standard();
    let mut group = c.benchmark_group("single-thread table games, 40/20/4/4 choice, 1..6");
    group.sample_size(10);
    for players in [3usize, 4] {
        let seats = Seats::new(rules, players).unwrap();
        for others in ["strong", "safe"] {
            let mut strategies: Vec<Strategy> = vec![others.parse().unwrap(); players];
            strategies[0] = "strong".parse().unwrap();
            let dice = vec![&die; players];
            let table = Table::new(&seats, &dice, 100_000, Seating::All)
                .and_then(|t| t.playing(strategies))
                .unwrap();
            let rounds = table.chunk_games() / table.round_games();
            group.throughput(Throughput::Elements(table.chunk_games()));
            let key = StreamKey::new(1);
            let mut chunk = 0u64;
            let name = if others == "strong" {
                format!("{players} x strong")
            } else {
                format!("strong and {} {others}", players - 1)
            };
            group.bench_function(name, |bench| {
                bench.iter(|| {
                    chunk += 1;
                    black_box(table.play_chunk(key, chunk, rounds))
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, one_decision, complete_games, table_games);
criterion_main!(benches);
