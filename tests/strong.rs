//! The learned player `strong`: its files are checked when read, it plays only legal moves
//! and only the game it was trained for, its exact value is what simulation measures, and
//! its training is reproducible.

use proptest::prelude::*;
use proptest::strategy::Strategy as _;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use wuerfelglueck::api::{self, Silent, TrainOptions, TrainSettings};
use wuerfelglueck::rules::Rules;
use wuerfelglueck::strategy::{Strategy, StrongPlayer, Trained, strong::SHIPPED};

mod common;

use common::{die, json, rules, temp_dir};

/// The 16/8/2/2 game under `choice`, 1..6 against 1..6, as command-line options.
const SMALL_GAME: [&str; 12] = [
    "--track",
    "16",
    "--pieces",
    "2",
    "--goal-fields",
    "2",
    "--profile",
    "choice",
    "--a",
    "1..6",
    "--b",
    "1..6",
];

/// The shipped player of the 16/8/2/2 board, as its file's text.
fn small_board_file() -> &'static str {
    SHIPPED
        .iter()
        .find(|(name, _)| *name == "16-8-2-2")
        .map(|(_, text)| *text)
        .expect("a player for 16/8/2/2 ships")
}

fn train_options(out: &std::path::Path, games: u64, seed: u64) -> TrainOptions {
    let map = serde_json::json!({
        "out": out.display().to_string(), "games": games, "seed": seed,
        "track": 16, "pieces": 2, "goal-fields": 2,
    });
    api::from_map("train", map.as_object().unwrap()).unwrap()
}

#[test]
fn every_shipped_player_reads_back_and_names_its_game() {
    let mut tables = Vec::new();
    for (name, text) in SHIPPED {
        let player = Trained::from_json(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut game = player.board().to_string().replace('/', "-");
        if player.players() != 2 {
            game.push_str(&format!("-{}-players", player.players()));
            tables.push(player.players());
        }
        assert_eq!(game, *name);
        assert!(player.profile().choice);
        // What is read is written back byte for byte: nothing is lost or rounded.
        assert_eq!(player.to_json(), *text, "{name}");
    }
    assert_eq!(tables, [3, 4]);
}

#[test]
fn a_damaged_or_foreign_player_file_is_refused_with_the_reason() {
    let text = small_board_file();
    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    let refused = |edit: &dyn Fn(&mut serde_json::Value)| -> String {
        let mut v = value.clone();
        edit(&mut v);
        StrongPlayer::from_json(&v.to_string()).unwrap_err()
    };
    // One weight changed: the checksum no longer matches.
    let why = refused(&|v| {
        let w = v["first_layer"][3].as_f64().unwrap();
        v["first_layer"][3] = serde_json::json!(w + 0.001);
    });
    assert!(why.contains("checksum"), "{why}");
    // Another board written in, checksum unchanged: refused too (the checksum covers it).
    let why = refused(&|v| v["board"] = serde_json::json!("20/10/2/2"));
    assert!(why.contains("checksum"), "{why}");
    let why = refused(&|v| v["version"] = serde_json::json!(2));
    assert!(why.contains("version 2"), "{why}");
    let why = refused(&|v| v["format"] = serde_json::json!("something else"));
    assert!(why.contains("format"), "{why}");
    let why = refused(&|v| {
        v.as_object_mut().unwrap().remove("second_bias");
    });
    assert!(why.contains("not a player file"), "{why}");
    let why = StrongPlayer::from_json(&text[..text.len() / 2]).unwrap_err();
    assert!(why.contains("not a player file"), "{why}");

    // Through the strategy name, the file's name and the reason are reported.
    let dir = temp_dir("strong", "damaged");
    let path = dir.join("damaged.json");
    std::fs::write(&path, text.replace("\"hidden\":", "\"hidden\": ")).unwrap();
    assert!(
        format!("strong:{}", path.display())
            .parse::<Strategy>()
            .is_ok()
    );
    std::fs::write(&path, text.replacen("0.", "1.", 1)).unwrap();
    let err = format!("strong:{}", path.display())
        .parse::<Strategy>()
        .unwrap_err()
        .to_string();
    // The file's name (quoted, shortened to 32 characters) and the reason.
    assert!(
        err.contains("strong:'/") && err.contains("checksum"),
        "{err}"
    );
    // A file far longer than any player is refused without being read whole.
    let long = path.with_extension("long");
    std::fs::File::create(&long)
        .unwrap()
        .set_len(wuerfelglueck::strategy::strong::MAX_FILE_BYTES + 1)
        .unwrap();
    let err = format!("strong:{}", long.display())
        .parse::<Strategy>()
        .unwrap_err()
        .to_string();
    assert!(err.contains("longer than"), "{err}");
    std::fs::remove_file(&long).unwrap();
    // A device (endless) is not read at all.
    let err = "strong:/dev/zero"
        .parse::<Strategy>()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("not a regular file (it is a character device)"),
        "{err}"
    );
    let err = "strong:/no/such/player.json"
        .parse::<Strategy>()
        .unwrap_err()
        .to_string();
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn a_player_is_refused_in_a_game_it_was_not_trained_for() {
    let strong: Strategy = "strong".parse().unwrap();
    let d = die("1..6");
    assert!(
        strong
            .check_game(&rules("16/8/2/2", "choice"), [&d, &d])
            .is_ok()
    );
    // Another profile (capture duty changes which moves are legal), another board.
    for (board, profile) in [("16/8/2/2", "choice+capture-duty"), ("18/9/2/2", "choice")] {
        let why = strong
            .check_game(&rules(board, profile), [&d, &d])
            .unwrap_err();
        assert!(why.contains("no strong player was trained"), "{why}");
    }
    // The command line says so, with a non-zero exit, before any game.
    let (code, _, err) = common::run_captured(&[
        "duel",
        "--a",
        "1..6",
        "--b",
        "1..6",
        "--track",
        "18",
        "--pieces",
        "2",
        "--goal-fields",
        "2",
        "--profile",
        "choice",
        "--strategy",
        "strong",
        "--games",
        "10",
    ]);
    assert_ne!(code, 0);
    assert!(
        err.contains("no strong player was trained for board 18/9/2/2"),
        "{err}"
    );
}

#[test]
fn the_exact_value_of_strong_is_what_simulation_measures() {
    // The exact solver tabulates strong's choice in every reachable state; games played
    // move by move must agree with it within their sampling error.
    let board = [
        &SMALL_GAME[..],
        &["--strategy-a", "strong", "--strategy-b", "safe"][..],
    ]
    .concat();
    let exact = json(&[&["solve", "--format", "json"][..], &board[..]].concat());
    assert_eq!(exact["figures_certified"], true);
    let p = exact["p_a"].as_f64().unwrap();
    let games = 400_000u64;
    let simulated = json(
        &[
            &[
                "duel", "--format", "json", "--games", "400000", "--seed", "24",
            ][..],
            &board[..],
        ]
        .concat(),
    );
    let estimate = simulated["p_a"].as_f64().unwrap();
    // Both openings are played equally often; their variances add, so the binomial
    // standard error of the mean is at most this (no game ends unfinished with 1..6).
    let standard_error = (p * (1.0 - p) / games as f64).sqrt();
    let z = (estimate - p) / standard_error;
    assert!(z.abs() < 4.0, "exact {p}, simulated {estimate}, z = {z:.2}");
    // And the figure says something: strong beats safe on this board.
    assert!(p > 0.5, "{p}");
}

fn any_position(rules: &Rules) -> impl proptest::strategy::Strategy<Value = (u64, u64)> {
    let fields = rules.board().fields();
    let pieces = rules.board().pieces() as usize;
    let mask = move || {
        proptest::collection::btree_set(0..fields, 0..=pieces)
            .prop_map(|s| s.iter().fold(0u64, |m, &f| m | 1u64 << f))
    };
    (mask(), mask())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn strong_only_plays_legal_moves(
        (own, other) in any_position(&rules("40/20/4/4", "choice")),
        mover in 0usize..2,
        face in 1u32..=6,
    ) {
        let rules = rules("40/20/4/4", "choice");
        // Two pieces of different players on one shared track field cannot happen.
        let board = rules.board();
        let shared = board.track_in_other_view(mover, own) & other & board.track_mask();
        prop_assume!(shared == 0);
        let legal = rules.legal_moves(own, other, mover, face);
        let strong: Strategy = "strong".parse().unwrap();
        let chosen = strong.choose(&rules, own, other, mover, &legal, &mut Xoshiro256PlusPlus::seed_from_u64(1));
        match chosen {
            None => prop_assert!(legal.is_empty()),
            Some(m) => prop_assert!(legal.contains(&m)),
        }
    }
}

#[test]
fn training_with_the_same_seed_gives_the_same_player() {
    let dir = temp_dir("strong", "train");
    let run = |name: &str, seed: u64| {
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        let settings = TrainSettings::new(&train_options(&path, 2_000, seed)).unwrap();
        api::train(&settings, &Silent).unwrap();
        std::fs::read_to_string(&path).unwrap()
    };
    let first = run("first.json", 5);
    assert_eq!(first, run("again.json", 5));
    assert_ne!(first, run("other.json", 6));
    // The file trained is a player for its board, and refuses to be overwritten.
    let player = StrongPlayer::from_json(&first).unwrap();
    assert_eq!(player.board().to_string(), "16/8/2/2");
    assert_eq!(player.training().games, 2_000);
    let again = TrainSettings::new(&train_options(&dir.join("first.json"), 2_000, 5));
    assert!(again.unwrap_err().to_string().contains("exists"));
}

/// What a best response gains against the player in `file` in seat A on 16/8/2/2 beyond
/// the game value (0.5: the same die on a symmetric board), exactly.
fn exploitability_on_the_small_board(file: &std::path::Path) -> f64 {
    let strategy = format!("strong:{}", file.display());
    let exact = json(
        &[
            &["solve", "--format", "json", "--tolerance", "1e-9"][..],
            &SMALL_GAME[..],
            &["--strategy-a", &strategy][..],
        ]
        .concat(),
    );
    assert_eq!(exact["figures_certified"], true);
    0.5 - exact["p_a"].as_f64().unwrap()
}

#[test]
fn training_on_the_exact_values_is_reproducible_and_loses_less_than_self_play() {
    let dir = temp_dir("strong", "train-exact");
    let games = 20_000;
    let run = |name: &str, seed: u64, exact: bool| {
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        let mut options = train_options(&path, games, seed);
        if exact {
            options.targets = "exact".into();
        }
        let settings = TrainSettings::new(&options).unwrap();
        // On one thread the solve's midpoints, and so the parameters, are the same.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let report = pool.install(|| api::train(&settings, &Silent)).unwrap();
        assert_eq!(report.targets, if exact { "exact" } else { "self-play" });
        assert_eq!(report.counts.targets > 0, exact);
        path
    };
    let fitted = run("fitted.json", 5, true);
    let again = run("again.json", 5, true);
    let text = std::fs::read_to_string(&fitted).unwrap();
    assert_eq!(text, std::fs::read_to_string(&again).unwrap());
    let player = StrongPlayer::from_json(&text).unwrap();
    assert!(player.training().method.contains("exact values"));
    // The file says how wide the brackets it learnt from were, not only the openings'.
    let widest: f64 = player
        .training()
        .method
        .split("the widest bracket learnt ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .and_then(|number| number.parse().ok())
        .expect("the widest bracket learnt is recorded");
    assert!(widest > 0.0 && widest < 1.0, "{widest}");
    assert!(player.training().command.contains("--targets exact"));
    assert!(!player.training().command.contains("--positions"));
    // Learning the position before every roll too is a recorded setting of its own.
    let path = dir.join("every-roll.json");
    let mut options = train_options(&path, games, 5);
    options.targets = "exact".into();
    options.positions = Some("every-roll".into());
    let every_roll = api::train(&TrainSettings::new(&options).unwrap(), &Silent).unwrap();
    let player = StrongPlayer::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert!(player.training().command.contains("--positions every-roll"));
    assert!(player.training().method.contains("before every roll"));
    assert!(every_roll.counts.targets > every_roll.counts.rolls);
    // The same games of self-play teach less: a best response gains less against the
    // player fitted to the exact values.
    let self_play = run("self-play.json", 5, false);
    let (fitted_loss, self_play_loss) = (
        exploitability_on_the_small_board(&fitted),
        exploitability_on_the_small_board(&self_play),
    );
    assert!(
        fitted_loss >= 0.0 && fitted_loss < self_play_loss,
        "fitted {fitted_loss}, self-play {self_play_loss}"
    );
}

#[test]
fn training_on_exact_values_outside_the_core_learns_the_core_from_returns() {
    let dir = temp_dir("strong", "train-outside-core");
    // The groups where a side has a piece home, solved and written; the core is not.
    let values = dir.join("values");
    let _ = std::fs::remove_dir_all(&values);
    let solved = json(
        &[
            &[
                "solve",
                "--format",
                "json",
                "--tolerance",
                "1e-6",
                "--layered",
            ][..],
            &[
                "--part",
                "outside-core",
                "--values-out",
                values.to_str().unwrap(),
            ][..],
            &SMALL_GAME[..],
        ]
        .concat(),
    );
    assert!(solved["groups"].as_array().unwrap().len() > 1, "{solved}");
    let games = 20_000;
    let run = |name: &str| {
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        let mut options = train_options(&path, games, 5);
        options.targets = "exact".into();
        options.values = Some(values.clone());
        let report = api::train(&TrainSettings::new(&options).unwrap(), &Silent).unwrap();
        assert_eq!(report.targets, "exact");
        // Both kinds of positions were learnt: the core's from their returns.
        assert!(
            report.counts.targets > 0 && report.counts.returns > 0,
            "{:?}",
            report.counts
        );
        assert!(
            report.counts.returns < report.counts.rolls,
            "{:?}",
            report.counts
        );
        path
    };
    let hybrid = run("hybrid.json");
    // The values are read, not solved: the same file again, on any number of threads.
    let text = std::fs::read_to_string(&hybrid).unwrap();
    assert_eq!(text, std::fs::read_to_string(run("again.json")).unwrap());
    let player = StrongPlayer::from_json(&text).unwrap();
    let method = &player.training().method;
    assert!(
        method.contains("where a layered solve holds them"),
        "{method}"
    );
    assert!(method.contains("TD(lambda = 0.7) returns"), "{method}");
    let command = &player.training().command;
    assert!(
        command.contains(&format!("--values {}", values.display())),
        "{command}"
    );
    assert!(!command.contains("--exact-tolerance"), "{command}");
    // Exact values outside the core teach more than the same games of self-play.
    let self_play = dir.join("self-play.json");
    let _ = std::fs::remove_file(&self_play);
    api::train(
        &TrainSettings::new(&train_options(&self_play, games, 5)).unwrap(),
        &Silent,
    )
    .unwrap();
    let (hybrid_loss, self_play_loss) = (
        exploitability_on_the_small_board(&hybrid),
        exploitability_on_the_small_board(&self_play),
    );
    assert!(
        hybrid_loss >= 0.0 && hybrid_loss < self_play_loss,
        "exact outside the core {hybrid_loss}, self-play {self_play_loss}"
    );
    // A folder of another game is refused before any game, naming both games.
    let other = dir.join("other.json");
    let mut options = train_options(&other, 10, 5);
    options.targets = "exact".into();
    options.values = Some(values.clone());
    options.die = "2..7".into();
    let why = api::train(&TrainSettings::new(&options).unwrap(), &Silent)
        .unwrap_err()
        .to_string();
    assert!(why.contains("the files hold the game"), "{why}");
    assert!(!other.exists());
}

#[test]
fn exact_targets_settings_are_refused_where_they_would_mean_nothing() {
    let dir = temp_dir("strong", "train-exact-refused");
    let refused = |extra: serde_json::Value| {
        let mut map = serde_json::json!({
            "out": dir.join("x.json").display().to_string(), "games": 10,
            "track": 16, "pieces": 2, "goal-fields": 2,
        });
        for (k, v) in extra.as_object().unwrap() {
            map[k] = v.clone();
        }
        let options: TrainOptions = api::from_map("train", map.as_object().unwrap()).unwrap();
        TrainSettings::new(&options).unwrap_err().to_string()
    };
    let why = refused(serde_json::json!({"explore": 0.1}));
    assert!(why.contains("belong to --targets exact"), "{why}");
    let why = refused(serde_json::json!({"positions": "every-roll"}));
    assert!(why.contains("belong to --targets exact"), "{why}");
    let why = refused(serde_json::json!({"targets": "exact", "players": 3}));
    assert!(why.contains("two players only"), "{why}");
    let why = refused(serde_json::json!({"targets": "exact", "explore": 1.5}));
    assert!(why.contains("--explore 1.5"), "{why}");
    let why = refused(serde_json::json!({"targets": "exact", "exact-tolerance": 0.0}));
    assert!(why.contains("--exact-tolerance 0"), "{why}");
    let why = refused(serde_json::json!({"max-memory": "1GiB"}));
    assert!(why.contains("belong to --targets exact"), "{why}");
    let folder = dir.display().to_string();
    let why = refused(serde_json::json!({"values": folder}));
    assert!(why.contains("belong to --targets exact"), "{why}");
    let why =
        refused(serde_json::json!({"targets": "exact", "values": folder, "exact-tolerance": 1e-6}));
    assert!(why.contains("solved to its own tolerance"), "{why}");
    let missing = dir.join("no-such-folder").display().to_string();
    let why = refused(serde_json::json!({"targets": "exact", "values": missing}));
    assert!(
        why.contains("no-such-folder") && why.contains("found no folder"),
        "{why}"
    );
    // A solve beyond the memory allowed is refused before it allocates, with the figures.
    let options: TrainOptions = api::from_map(
        "train",
        serde_json::json!({
            "out": dir.join("y.json").display().to_string(), "games": 10, "track": 16,
            "pieces": 2, "goal-fields": 2, "targets": "exact", "max-memory": "64KiB",
        })
        .as_object()
        .unwrap(),
    )
    .unwrap();
    let why = api::train(&TrainSettings::new(&options).unwrap(), &Silent)
        .unwrap_err()
        .to_string();
    assert!(why.contains("more than the limit of 64.0 KiB"), "{why}");
    assert!(!dir.join("y.json").exists());
}

#[test]
fn advise_on_the_full_board_scores_the_moves_with_the_learned_player() {
    use wuerfelglueck::exact::game::position::parse_position;
    let position = "A:2,9,17,27 B:4,12,15,33 turn:A";
    let advise = |rollouts: &str| {
        json(&[
            "advise",
            "--a",
            "1..6",
            "--b",
            "1..6",
            "--position",
            position,
            "--face",
            "3",
            "--rollouts",
            rollouts,
            "--format",
            "json",
        ])
    };
    // Scores alone: no interval is claimed, and the move marked is the one `strong` plays.
    let scored = advise("0");
    assert_eq!(scored["method"], "evaluator");
    assert_eq!(scored["scored_by"], "strong");
    let moves = scored["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    assert!(
        moves
            .iter()
            .all(|m| m["interval"].is_null() && m["strong"] == m["value"])
    );
    let marked: Vec<&str> = moves
        .iter()
        .filter(|m| m["best"] == true)
        .map(|m| m["from"].as_str().unwrap())
        .collect();
    let rules = rules("40/20/4/4", "choice");
    let state = parse_position(&rules, position).unwrap();
    let legal = rules.legal_moves(state.pieces[0], state.pieces[1], 0, 3);
    let (a, b) = (die("1..6"), die("1..6"));
    let strong = "strong".parse::<Strategy>().unwrap().seated([&a, &b], 0);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let played = strong
        .choose(
            &rules,
            state.pieces[0],
            state.pieces[1],
            0,
            &legal,
            &mut rng,
        )
        .unwrap();
    assert_eq!(marked, [rules.board().field_name(played.from.unwrap())]);
    // Simulated: the same scores beside each measured value, which has its interval.
    let simulated = advise("200");
    assert_eq!(simulated["method"], "simulated");
    for (s, e) in simulated["moves"].as_array().unwrap().iter().zip(moves) {
        assert_eq!(s["strong"], e["strong"]);
        let [lo, hi] = [0, 1].map(|i| s["interval"][i].as_f64().unwrap());
        assert!(lo <= s["value"].as_f64().unwrap() && s["value"].as_f64().unwrap() <= hi);
    }
    // One game gives no interval; scores need a player trained for the game.
    let (code, _, err) = common::run_captured(&[
        "advise",
        "--a",
        "1..6",
        "--b",
        "1..6",
        "--position",
        position,
        "--face",
        "3",
        "--rollouts",
        "1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--rollouts 1"), "{err}");
    let (code, _, err) = common::run_captured(&[
        "advise",
        "--a",
        "1..6",
        "--b",
        "1..6",
        "--track",
        "16",
        "--pieces",
        "3",
        "--goal-fields",
        "3",
        "--max-memory",
        "0",
        "--position",
        "A:2 B:5 turn:A",
        "--face",
        "3",
        "--rollouts",
        "0",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("none plays board 16/8/3/3"), "{err}");
}
