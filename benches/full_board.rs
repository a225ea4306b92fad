//! The matrix-free exact solver on the full BwInf board (40/20/4/4): 1,1,1,6,6,6 against
//! 1,6,6,6,6,6 (about 5e7 states) to a certified width of 1e-9.
//!
//! `cargo bench --bench full_board`; one sample is one whole solve (reachable sets, tables,
//! the "can reach a win" search, value iteration), so ten samples take a few minutes. A
//! second group solves 1..6 vs 1..6 on 20/10/4/4 (2.6e7 states, 0.8 GB, about 30 s a
//! sample); `cargo bench --bench full_board -- 20/10` runs it alone. The 7 GB solve of
//! 1..6 vs 1..6 on the BwInf board is the CLI's `solve --a 1..6 --b 1..6`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use wuerfelglueck::dice::Die;
use wuerfelglueck::exact::SolveOptions;
use wuerfelglueck::exact::matrix_free::solve_full;
use wuerfelglueck::rules::{Board, Profile, Rules};

fn full_board(c: &mut Criterion) {
    let rules = Rules::bwinf();
    let a: Die = "1,1,1,6,6,6".parse().expect("valid die");
    let b: Die = "1,6,6,6,6,6".parse().expect("valid die");
    let options = SolveOptions {
        tolerance: 1e-9,
        max_sweeps: 10_000,
        max_memory: None,
    };
    let mut group = c.benchmark_group("matrix-free 1,1,1,6,6,6 vs 1,6,6,6,6,6 on 40/20/4/4");
    group.sample_size(10);
    group.bench_function("solve_full", |bench| {
        bench.iter(|| black_box(solve_full(&rules, &a, &b, &options).expect("solves")))
    });
    group.finish();
}

fn standard_dice_on_20_10_4_4(c: &mut Criterion) {
    let board: Board = "20/10/4/4".parse().expect("valid board");
    let rules = Rules::new(board, Profile::BWINF);
    let die = Die::standard();
    let options = SolveOptions {
        tolerance: 1e-9,
        max_sweeps: 10_000,
        max_memory: None,
    };
    let mut group = c.benchmark_group("matrix-free 1..6 vs 1..6 on 20/10/4/4");
    group.sample_size(10);
    group.bench_function("solve_full", |bench| {
        bench.iter(|| black_box(solve_full(&rules, &die, &die, &options).expect("solves")))
    });
    group.finish();
}

criterion_group!(benches, full_board, standard_dice_on_20_10_4_4);
criterion_main!(benches);
