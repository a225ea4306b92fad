//! Plays a duel of 1..6 against 1..6 (BwInf rules, both `frontmost`) on the path that
//! `WUERFELGLUECK_LANES` names, and prints the path and the counts (the same on every
//! path): a small program to compare the paths, e.g. under an emulator that counts
//! instructions. Builds without the default features, so it cross-compiles:
//! `cargo run --release --no-default-features --example duel -- 200000`.
use wuerfelglueck::dice::Die;
use wuerfelglueck::rules::Rules;
use wuerfelglueck::sim::{CHUNK_PAIRS, LanesPath, Matchup, StreamKey, play_chunks};

fn main() {
    let games: u64 = match std::env::args().nth(1).map(|a| a.parse()) {
        None => 200_000,
        Some(Ok(games)) => games,
        Some(Err(e)) => {
            eprintln!("the number of games: {e}");
            std::process::exit(2);
        }
    };
    let path = LanesPath::from_environment().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2);
    });
    let rules = Rules::bwinf();
    let die = Die::standard();
    let matchup = Matchup::new(&rules, [&die, &die], 100_000).unwrap();
    let pairs = games.div_ceil(2);
    let counts = play_chunks(
        &matchup,
        StreamKey::new(7),
        0..pairs.div_ceil(CHUNK_PAIRS),
        pairs,
        &|_| {},
    );
    let total = counts.total();
    println!(
        "path {} games {} a_wins {} b_wins {} unfinished {} rolls {}",
        path.name(),
        total.games,
        total.a_wins,
        total.b_wins,
        total.unfinished,
        total.rolls
    );
}
