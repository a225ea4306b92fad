//! Exact solver on a reduced board: 1..6 against 1..6 on 40/20/2/4 (about 137,000 states).
//!
//! `cargo bench --bench exact`; criterion reports the time of the whole solve (reachable
//! sets, transition matrix, classification, value iteration to 1e-12) and of its two
//! halves separately.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use wuerfelglueck::dice::Die;
use wuerfelglueck::exact::{Model, SolveOptions, solve_matchup};
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

criterion_group!(benches, exact_two_pieces);
criterion_main!(benches);
