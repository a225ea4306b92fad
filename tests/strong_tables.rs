//! `strong` at tables of three and four: its training is reproducible, its files say the
//! table they were trained for and are refused anywhere else, it plays only legal moves,
//! and the shipped players win more than the heuristics they sit with.

use proptest::prelude::*;
use proptest::strategy::Strategy as _;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use wuerfelglueck::api::{self, Silent, TrainOptions, TrainSettings};
use wuerfelglueck::rules::{MAX_SEATS, Seats};
use wuerfelglueck::strategy::{Strategy, StrongPlayer, Threats, Trained};

mod common;

use common::{json, rules, run_captured, temp_dir};

fn train_options(out: &std::path::Path, players: usize, seed: u64) -> TrainOptions {
    let map = serde_json::json!({
        "out": out.display().to_string(), "games": 2_000, "seed": seed, "players": players,
        "track": 16, "pieces": 2, "goal-fields": 2,
    });
    api::from_map("train", map.as_object().unwrap()).unwrap()
}

/// Trains a player for a table of `players` on 16/8/2/2 (2,000 games) into `dir/name`.
fn trained(dir: &std::path::Path, name: &str, players: usize, seed: u64) -> String {
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    let settings = TrainSettings::new(&train_options(&path, players, seed)).unwrap();
    api::train(&settings, &Silent).unwrap();
    std::fs::read_to_string(&path).unwrap()
}

#[test]
fn training_at_a_table_is_reproducible_and_the_file_names_the_table() {
    let dir = temp_dir("strong-tables", "train");
    let first = trained(&dir, "first.json", 3, 5);
    assert_eq!(first, trained(&dir, "again.json", 3, 5));
    assert_ne!(first, trained(&dir, "other.json", 3, 6));
    let player = match Trained::from_json(&first).unwrap() {
        Trained::Table(p) => p,
        Trained::Duel(_) => panic!("a table player was expected"),
    };
    assert_eq!(player.players(), 3);
    assert_eq!(player.board().to_string(), "16/8/2/2");
    assert!(player.training().command.contains("--players 3"));
    // Read back, written again byte for byte.
    assert_eq!(player.to_json(), first);
    // A player for two refuses the file, saying what it is.
    let why = StrongPlayer::from_json(&first).unwrap_err();
    assert!(why.contains("table of 3"), "{why}");
    // A table of 5 or an offset that does not seat three are refused before training.
    let map = serde_json::json!({"out": dir.join("x.json").display().to_string(), "players": 5});
    let options: TrainOptions = api::from_map("train", map.as_object().unwrap()).unwrap();
    let why = TrainSettings::new(&options).unwrap_err().to_string();
    assert!(why.contains("--players 5"), "{why}");
    let map = serde_json::json!({
        "out": dir.join("x.json").display().to_string(), "players": 3, "offset": 10,
    });
    let options: TrainOptions = api::from_map("train", map.as_object().unwrap()).unwrap();
    let why = TrainSettings::new(&options).unwrap_err().to_string();
    assert!(
        why.contains("--players 3") && why.contains("offset"),
        "{why}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_damaged_table_player_file_is_refused_with_the_reason() {
    let dir = temp_dir("strong-tables", "damaged");
    let text = trained(&dir, "player.json", 4, 1);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let refused = |edit: &dyn Fn(&mut serde_json::Value)| -> String {
        let mut v = value.clone();
        edit(&mut v);
        Trained::from_json(&v.to_string()).unwrap_err()
    };
    // The seats, the output biases and the features are covered by the checksum.
    for edit in [
        &(|v: &mut serde_json::Value| v["players"] = serde_json::json!(3))
            as &dyn Fn(&mut serde_json::Value),
        &|v| {
            v.as_object_mut().unwrap().remove("players");
        },
        &|v| v["second_bias"][1] = serde_json::json!(0.5),
        &|v| v["features"] = serde_json::json!("fields+waiting+threatened+race+contact/2"),
    ] {
        let why = refused(edit);
        assert!(why.contains("checksum"), "{why}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn strong_plays_only_at_the_table_it_was_trained_for() {
    let dir = temp_dir("strong-tables", "refused");
    trained(&dir, "three.json", 3, 1);
    let file = format!("strong:{}", dir.join("three.json").display());
    let board = ["--track", "16", "--pieces", "2", "--goal-fields", "2"];
    let table = |dice: usize, strategy: &str| -> (i32, String, String) {
        let mut args = vec!["table", "--profile", "choice", "--games", "600"];
        for _ in 0..dice {
            args.extend(["--die", "1..6"]);
        }
        args.extend(board);
        args.extend(["--strategy", strategy]);
        run_captured(&args)
    };
    // Its own table: played.
    let (code, _, err) = table(3, &file);
    assert_eq!(code, 0, "{err}");
    // A table of four, and the shipped players on a board they were not trained for.
    for (dice, strategy) in [(4, file.as_str()), (3, "strong")] {
        let (code, _, err) = table(dice, strategy);
        assert_ne!(code, 0);
        assert!(err.contains("no learned player for this table"), "{err}");
    }
    // The refusal names the table's board, the file and the board its player plays: not
    // the shipped players, which are not asked for.
    let (_, _, err) = table(4, &file);
    let three = dir.join("three.json").display().to_string();
    assert!(
        err.contains("board 16/8/2/2 with profile bwinf+choice, 4 seats")
            && err.contains(&format!(
                "the player of {three} plays 16/8/2/2 with profile bwinf+choice at a table of 3"
            ))
            && !err.contains("shipped"),
        "{err}"
    );
    // strong-search stays a player for two.
    let (code, _, err) = table(3, "strong-search");
    assert_ne!(code, 0);
    assert!(err.contains("games of two players"), "{err}");
    // The table player is refused in a duel, naming the table it plays.
    let strategy: Strategy = file.parse().unwrap();
    let d = common::die("1..6");
    let why = strategy
        .check_game(&rules("16/8/2/2", "choice"), [&d, &d])
        .unwrap_err();
    assert!(why.contains("at a table of 3"), "{why}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_shipped_table_players_beat_safe_at_their_tables() {
    // One strong among safe players, every seating: strong's 95 % interval lies above
    // every safe player's.
    for players in [3usize, 4] {
        let mut args = vec!["table", "--profile", "choice", "--format", "json"];
        for _ in 0..players {
            args.extend(["--die", "1..6"]);
        }
        args.extend(["--strategy", "strong"]);
        for _ in 1..players {
            args.extend(["--strategy", "safe"]);
        }
        args.extend(["--games", "12000", "--seed", "7"]);
        let v = json(&args);
        let ci = |i: usize| {
            let c = &v["ci95"][i];
            (c[0].as_f64().unwrap(), c[1].as_f64().unwrap())
        };
        let (strong_lo, _) = ci(0);
        for i in 1..players {
            let (_, safe_hi) = ci(i);
            assert!(strong_lo > safe_hi, "{players} players: {v}");
        }
        assert_eq!(v["strategies"][0], "strong");
    }
}

/// A position at a table of four on 40/20/4/4: each seat's pieces (at most four, on its
/// track and goal fields, in its own numbering).
fn any_table_position() -> impl proptest::strategy::Strategy<Value = [u64; 4]> {
    let mask = || {
        proptest::collection::btree_set(0u32..44, 0..=4)
            .prop_map(|s| s.iter().fold(0u64, |m, &f| m | 1u64 << f))
    };
    [mask(), mask(), mask(), mask()]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn strong_at_a_table_only_plays_legal_moves(
        pieces in any_table_position(),
        mover in 0usize..4,
        face in 1u32..=6,
    ) {
        let seats = Seats::new(rules("40/20/4/4", "choice"), 4).unwrap();
        // Two seats' pieces on one track field cannot happen.
        let track = seats.board().track_mask();
        for a in 0..4 {
            for b in a + 1..4 {
                prop_assume!(seats.track_for(a, 0, pieces[a]) & seats.track_for(b, 0, pieces[b]) & track == 0);
            }
        }
        let legal = seats.legal_moves(&pieces, mover, face);
        let strong: Strategy = "strong".parse().unwrap();
        let reach = [Threats::unresolved(); MAX_SEATS];
        let chosen = strong.choose_at_table(
            &seats, &pieces, mover, &legal, &reach, &mut Xoshiro256PlusPlus::seed_from_u64(1),
        );
        match chosen {
            None => prop_assert!(legal.is_empty()),
            Some(m) => prop_assert!(legal.contains(&m)),
        }
    }
}
