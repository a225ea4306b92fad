//! Exact solver on a reduced board: 1..6 against 1..6 on 40/20/2/4 (about 137,000 states).
//!
//! `cargo bench --bench exact`; criterion reports the time of the whole solve (reachable
//! sets, transition matrix, classification, value iteration to 1e-12) and of its two
//! halves separately; and how fast the memory guard refuses the full BwInf board (it
//! must decide before anything large is built).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use wuerfelglueck::dice::Die;
use wuerfelglueck::exact::{ExactError, Model, SolveOptions, estimate_memory, solve_matchup};
use wuerfelglueck::rules::{Board, Profile, Rules};

fn exact_two_pieces(c: &mut Criterion) {
    let board: Board = "40/20/2/4".parse().expect("valid board");
    let rules = Rules::new(board, Profile::BWINF);
    let die = Die::standard();
    let options = SolveOptions {
        max_memory: None,
        ..SolveOptions::default()
    };
    let mut group = c.benchmark_group("exact 1..6 vs 1..6 on 40/20/2/4");
    group.sample_size(20);
    group.bench_function("solve_matchup", |b| {
        b.iter(|| black_box(solve_matchup(&rules, &die, &die, &options).expect("solves")))
    });
    group.bench_function("build", |b| {
        b.iter(|| black_box(Model::build(&rules, &die, &die, &options).expect("builds")))
    });
    let model = Model::build(&rules, &die, &die, &options).expect("builds");
    group.bench_function("iterate", |b| {
        b.iter(|| black_box(model.solve(&options).expect("converges").0))
    });
    group.finish();
}

fn refuse_the_bwinf_board(c: &mut Criterion) {
    let rules = Rules::bwinf();
    let die = Die::standard();
    let options = SolveOptions {
        max_memory: Some(16 << 30),
        ..SolveOptions::default()
    };
    let mut group = c.benchmark_group("memory guard, 1..6 vs 1..6 on the BwInf board");
    group.sample_size(10);
    group.bench_function("estimate_memory", |b| {
        b.iter(|| black_box(estimate_memory(&rules, &die, &die)))
    });
    group.bench_function("refuse solve_matchup", |b| {
        b.iter(|| {
            let refused = solve_matchup(&rules, &die, &die, &options);
            assert!(matches!(refused, Err(ExactError::Memory { .. })));
            black_box(refused)
        })
    });
    group.finish();
}

criterion_group!(benches, exact_two_pieces, refuse_the_bwinf_board);
criterion_main!(benches);
