//! The matrix-free exact solver on the full BwInf board (40/20/4/4): 1,1,1,6,6,6 against
//! 1,6,6,6,6,6 (about 5e7 states) to a certified width of 1e-9.
//!
//! `cargo bench --bench full_board`; one sample is one whole solve (reachable sets, tables,
//! the "can reach a win" search, value iteration), so ten samples take a few minutes.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use wuerfelglueck::dice::Die;
use wuerfelglueck::exact::SolveOptions;
use wuerfelglueck::exact::matrix_free::solve_full;
use wuerfelglueck::rules::Rules;

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

criterion_group!(benches, full_board);
criterion_main!(benches);
