//! The Monte Carlo engine: symmetry, reproducibility, games that never end, stopping rules.

use wuerfelglueck::dice::Die;
use wuerfelglueck::rules::{Board, Profile, Rules};
use wuerfelglueck::sim::{DuelCounts, Matchup, Stopping, StreamKey, run_duel};

fn die(s: &str) -> Die {
    s.parse().unwrap()
}

fn duel(
    rules: &Rules,
    a: &Die,
    b: &Die,
    stopping: Stopping,
    seed: u64,
    max_rolls: u64,
) -> DuelCounts {
    let matchup = Matchup::new(rules, [a, b], max_rolls).unwrap();
    run_duel(&matchup, StreamKey::new(seed), stopping, &|_| {}).unwrap()
}

#[test]
fn identical_dice_win_half_the_games_within_four_sigma() {
    let rules = Rules::bwinf();
    for (faces, seed) in [("1..6", 1), ("1,1,1,6,6,6", 2), ("1..20", 3)] {
        let d = die(faces);
        let n = 100_000;
        let counts = duel(&rules, &d, &d, Stopping::games(n).unwrap(), seed, 100_000);
        let total = counts.total();
        assert_eq!(total.games, n);
        assert_eq!(total.unfinished, 0, "{faces}: every game ends");
        // By symmetry P(A wins) = 1/2 exactly; the estimate's standard error is sqrt(1/4n).
        let sigma = (0.25 / n as f64).sqrt();
        let p = counts.p_a();
        assert!(
            (p - 0.5).abs() <= 4.0 * sigma,
            "{faces}: p = {p}, 4 sigma = {}",
            4.0 * sigma
        );
        // Paired starts: each die started exactly half the games.
        assert_eq!(counts.a_started.games, n / 2);
        assert_eq!(counts.b_started.games, n / 2);
    }
}

#[test]
fn the_same_seed_gives_the_same_counts_on_one_and_two_threads() {
    let rules = Rules::bwinf();
    let (a, b) = (die("1..6"), die("0..9"));
    let on = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                duel(
                    &rules,
                    &a,
                    &b,
                    Stopping::games(50_000).unwrap(),
                    42,
                    100_000,
                )
            })
    };
    let one = on(1);
    assert_eq!(one, on(2));
    assert_ne!(
        one,
        duel(
            &rules,
            &a,
            &b,
            Stopping::games(50_000).unwrap(),
            43,
            100_000
        )
    );
}

#[test]
fn the_starting_player_matters_and_is_reported() {
    // On a short board the first move is a real advantage: the two conditional figures of
    // identical dice lie on either side of 1/2 (checked at 5 sigma each).
    let rules = Rules::new(Board::new(8, 4, 1, 1).unwrap(), Profile::BWINF);
    let d = die("1..6");
    let counts = duel(
        &rules,
        &d,
        &d,
        Stopping::games(200_000).unwrap(),
        5,
        100_000,
    );
    let n = counts.a_started.games as f64;
    let sigma = (0.25 / n).sqrt();
    let p_first = counts.a_started.a_wins as f64 / n;
    let p_second = counts.b_started.a_wins as f64 / n;
    assert!(p_first > 0.5 + 5.0 * sigma, "{p_first}");
    assert!(p_second < 0.5 - 5.0 * sigma, "{p_second}");
}

#[test]
fn a_die_of_only_sixes_does_not_hang() {
    let rules = Rules::bwinf();
    // Only 6s against only 0s: pieces step by 6 until nothing can move; nobody ever wins.
    let counts = duel(
        &rules,
        &die("6"),
        &die("0"),
        Stopping::games(2_000).unwrap(),
        1,
        100_000,
    );
    let total = counts.total();
    assert_eq!(total.a_wins + total.b_wins, 0);
    assert_eq!(total.unfinished, 2_000);
    assert_eq!(
        total.endless, 2_000,
        "recognised as never-ending, not run to the cap"
    );
    // Against an ordinary die the 6-only die gets stuck with the turn: also never-ending,
    // unless the ordinary die wins first.
    let counts = duel(
        &rules,
        &die("6"),
        &die("1..6"),
        Stopping::games(2_000).unwrap(),
        1,
        100_000,
    );
    let total = counts.total();
    assert_eq!(total.a_wins + total.b_wins + total.unfinished, 2_000);
    assert_eq!(total.unfinished, total.endless);
}

#[test]
fn games_at_the_roll_cap_are_unfinished_not_won() {
    let rules = Rules::bwinf();
    let d = die("1..6");
    let counts = duel(&rules, &d, &d, Stopping::games(1_000).unwrap(), 1, 10);
    let total = counts.total();
    assert_eq!(
        (total.a_wins, total.b_wins),
        (0, 0),
        "no game ends within 10 rolls"
    );
    assert_eq!(total.unfinished, 1_000);
    assert_eq!(total.endless, 0);
}

#[test]
fn the_precision_rule_reaches_its_half_width() {
    let rules = Rules::bwinf();
    for (a, b) in [("1..6", "1..6"), ("1..6", "1,1,1,6,6,6")] {
        let h = 0.004;
        let counts = duel(
            &rules,
            &die(a),
            &die(b),
            Stopping::precision(h).unwrap(),
            9,
            100_000,
        );
        let ci = counts.ci95_a();
        assert!(ci.half_width() <= h, "{a} vs {b}: {ci:?}");
        // And it does not play more than the worst case needs (rounded up to a chunk).
        let worst = wuerfelglueck::sim::worst_case_games(h).unwrap();
        assert!(
            counts.total().games <= worst,
            "{} > {worst}",
            counts.total().games
        );
    }
}
