//! Prints mean rolls per game and games/s for a quick look: `cargo run --release --example rolls_per_game`.
use wuerfelglueck::dice::Die;
use wuerfelglueck::rules::Rules;
use wuerfelglueck::sim::{Matchup, StreamKey, play_chunk};

fn main() {
    let rules = Rules::bwinf();
    let die = Die::standard();
    let matchup = Matchup::new(&rules, [&die, &die], 100_000).unwrap();
    let start = std::time::Instant::now();
    let mut total = wuerfelglueck::sim::DuelCounts::default();
    for chunk in 0..400 {
        total = total + play_chunk(&matchup, StreamKey::new(7), chunk, 512);
    }
    let t = total.total();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "games {} mean rolls {:.1} games/s {:.0}",
        t.games,
        t.rolls as f64 / t.games as f64,
        t.games as f64 / secs
    );
}
