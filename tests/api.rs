//! `api::execute` runs every command as the command line does: the same options (by the
//! command line's names, with its defaults) give the same JSON as `--format json`.

use serde_json::{Map, Value, json};
use wuerfelglueck::api;
use wuerfelglueck::cli::{Cli, run};

/// A small case of every command: its options as `api::execute` takes them (the command
/// line's option names; an array is one option per element, `true` a switch).
fn case(command: &str) -> Value {
    let board = json!({"track": 16, "pieces": 2, "goal-fields": 2});
    let mut options = match command {
        "duel" => json!({"a": "1..6", "b": "1,1,1,6,6,6", "games": 200, "threads": 1}),
        "table" => json!({"die": ["1..6", "2..7", "1,1,1,6,6,6"], "games": 60, "threads": 1}),
        "solve" => json!({"a": "1..6", "b": "1,1,1,6,6,6", "threads": 1}),
        "rank" => json!({
            "die": ["1..6", "1,1,1,6,6,6", "2..7"],
            "games": 100,
            "threads": 1,
        }),
        "advise" => json!({
            "a": "1..6",
            "b": "1..6",
            "offset": 8,
            "position": "A:3,10 B:A,5 turn:A",
            "face": 4,
        }),
        "play" => json!({"a": "1..6", "b": "1,1,1,6,6,6", "seed": 3}),
        "wubbel" | "pig" => {
            return json!({
                "goal": 12,
                "query": "0,0",
                "compare": true,
                "hold": [4, 6],
                "simulate": 200,
            });
        }
        "converge" => json!({
            "a": "1..6",
            "b": "1,1,1,6,6,6",
            "reps": 2,
            "min-games": 100,
            "max-games": 400,
            "threads": 1,
        }),
        "search" => {
            return json!({
                "faces": 2,
                "values": "5..6",
                "track": 12,
                "offset": 6,
                "pieces": 1,
                "goal-fields": 1,
                "confirm": 2,
                "threads": 1,
            });
        }
        "train" => {
            // Both runs write the same file (the second replaces the first, as asked).
            let out =
                std::env::temp_dir().join(format!("wg-api-train-{}.json", std::process::id()));
            json!({"out": out.display().to_string(), "overwrite": true, "games": 300})
        }
        other => panic!("no case for {other}"),
    };
    let map = options.as_object_mut().unwrap();
    for (key, value) in board.as_object().unwrap() {
        // `converge` plays two pieces by default (its own default, which is checked here).
        if !(command == "converge" && key == "pieces") {
            map.insert(key.clone(), value.clone());
        }
    }
    options
}

/// The command line of `options`: `--key value`, once per element of an array.
fn command_line(command: &str, options: &Map<String, Value>) -> Vec<String> {
    let mut args = vec!["wuerfelglueck".to_string(), command.to_string()];
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    for (key, value) in options {
        match value {
            Value::Bool(true) => args.push(format!("--{key}")),
            Value::Array(items) => {
                for item in items {
                    args.extend([format!("--{key}"), text(item)]);
                }
            }
            v => args.extend([format!("--{key}"), text(v)]),
        }
    }
    args.extend(["--format".to_string(), "json".to_string()]);
    args
}

/// `json` without the fields that are timings (they differ from run to run).
fn without_timings(json: Value) -> Value {
    match json {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(k, _)| k != "seconds" && !k.ends_with("_seconds") && !k.ends_with("_ms"))
                .map(|(k, v)| (k, without_timings(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_timings).collect()),
        other => other,
    }
}

/// Whether `a` and `b` are the same JSON, numbers within `tolerance`.
fn same(a: &Value, b: &Value, tolerance: f64) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x == y || (x.as_f64().unwrap() - y.as_f64().unwrap()).abs() <= tolerance
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y, tolerance))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same(v, w, tolerance)))
        }
        (x, y) => x == y,
    }
}

/// `api::execute` and the command line agree on `command`'s small case.
fn agrees_with_the_command_line(command: &str) {
    agrees_on(command, &case(command));
}

/// `api::execute` and the command line agree on `command` with `options`.
fn agrees_on(command: &str, options: &Value) {
    let options = options.as_object().unwrap();
    let output =
        api::execute(command, options, &api::Silent).unwrap_or_else(|e| panic!("{command}: {e}"));
    let from_api: Value = serde_json::from_str(&output.json).unwrap();

    let args = command_line(command, options);
    let cli = Cli::try_parse_args(&args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    let mut out = Vec::new();
    run(cli, &mut out).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    let from_cli: Value = serde_json::from_slice(&out).unwrap();

    let (from_api, from_cli) = (without_timings(from_api), without_timings(from_cli));
    // The exact solve of `advise` sweeps on all threads: two runs agree within the solver's
    // tolerance (1e-9), not to the last bit. Everything else is the same to the bit.
    let tolerance = if command == "advise" { 1e-9 } else { 0.0 };
    assert!(
        same(&from_api, &from_cli, tolerance),
        "{command}: api::execute and {args:?}\n{from_api}\n{from_cli}"
    );
}

macro_rules! agreement {
    ($($name:ident: $command:literal,)*) => {
        $(
            #[test]
            fn $name() {
                agrees_with_the_command_line($command);
            }
        )*

        #[test]
        fn every_command_has_a_case() {
            let cases = [$($command),*];
            assert_eq!(cases.len(), api::COMMANDS.len());
            for command in api::COMMANDS {
                assert!(cases.contains(&command), "{command}: no case");
            }
        }
    };
}

agreement! {
    duel_agrees: "duel",
    table_agrees: "table",
    solve_agrees: "solve",
    rank_agrees: "rank",
    advise_agrees: "advise",
    play_agrees: "play",
    wubbel_agrees: "wubbel",
    pig_agrees: "pig",
    converge_agrees: "converge",
    search_agrees: "search",
    train_agrees: "train",
}

/// `solve` with `--position` or `--part` gives the report it names, not the openings'
/// figures: through `api::execute` as on the command line.
#[test]
fn solve_of_a_position_or_of_a_part_agrees_with_the_command_line() {
    let game = json!({
        "a": "1..6", "b": "1,2,2,4,5,6", "track": 16, "offset": 8, "pieces": 2,
        "goal-fields": 2, "profile": "choice", "threads": 1,
    });
    let with = |extra: Value| {
        let mut options = game.as_object().unwrap().clone();
        options.extend(extra.as_object().unwrap().clone());
        Value::Object(options)
    };
    let position = with(json!({"position": "A:5,a B:3 turn:A", "tolerance": 1e-10}));
    agrees_on("solve", &position);
    let output = api::execute("solve", position.as_object().unwrap(), &api::Silent).unwrap();
    let report: Value = serde_json::from_str(&output.json).unwrap();
    assert!(report["interval"].is_array(), "{report}");
    let part = with(json!({"layered": true, "part": "both-home", "tolerance": 1e-9}));
    agrees_on("solve", &part);
    let output = api::execute("solve", part.as_object().unwrap(), &api::Silent).unwrap();
    let report: Value = serde_json::from_str(&output.json).unwrap();
    assert!(
        report["groups"].as_array().is_some_and(|g| !g.is_empty()),
        "{report}"
    );
}

#[test]
fn wubbel_and_pig_keep_their_own_defaults() {
    let options = Map::new();
    let game = |command: &str| -> Value {
        let mut options = options.clone();
        options.insert("goal".into(), json!(12));
        let output = api::execute(command, &options, &api::Silent).unwrap();
        serde_json::from_str(&output.json).unwrap()
    };
    let (wubbel, pig) = (game("wubbel"), game("pig"));
    assert_ne!(wubbel["bust"], pig["bust"], "{wubbel} {pig}");
}

#[test]
fn an_unknown_option_is_refused_by_its_name() {
    for command in api::COMMANDS {
        let mut options = case(command).as_object().unwrap().clone();
        options.insert("no-such-option".into(), json!(1));
        let e = api::execute(command, &options, &api::Silent).unwrap_err();
        assert!(e.is_input(), "{command}: {e}");
        assert!(e.message.contains("'no-such-option'"), "{command}: {e}");
    }
}

#[test]
fn an_unknown_command_is_refused() {
    let e = api::execute("no-such-command", &Map::new(), &api::Silent).unwrap_err();
    assert!(e.is_input(), "{e}");
    assert!(e.message.contains("'no-such-command'"), "{e}");
    assert!(e.message.contains("search"), "{e}");
}
