//! Options that arrive as data from someone else (a request to the server, a page of the
//! static site) and must not reach this machine's files: every option that names a file or
//! a folder is refused, so is a strategy that names a file, and `file` may name only one of
//! the organisers' example files, compiled in.

use super::Error;
use crate::dice::examples::example_dice;
use serde_json::{Map, Value};

/// The options that name files or folders, with why they are refused.
const PATH_OPTIONS: [(&str, &str); 7] = [
    ("store", "no store of solved pairs is kept here"),
    (
        "plot",
        "pictures are drawn by the pages, not written to files",
    ),
    ("overwrite", "no files are written here"),
    ("values-out", "no files are written here"),
    ("values", "no folder named in a request is read"),
    ("policy-out", "no policy files are written here"),
    ("force", "no files are written here"),
];

/// The options that name a strategy, which may name a file (`strong:FILE`, `table:FILE`).
const STRATEGY_OPTIONS: [&str; 6] = [
    "strategy",
    "strategy-a",
    "strategy-b",
    "strategy-c",
    "strategy-d",
    "opponent",
];

/// Checks `options` (keys by the command line's names; `max_rolls` is read as
/// `max-rolls`) so that running them opens no path they name: refuses every path option
/// and every strategy naming a file, and replaces `file` (an example file's name) by its
/// dice as `die`.
pub fn without_paths(options: Map<String, Value>) -> Result<Map<String, Value>, Error> {
    let mut options: Map<String, Value> = options
        .into_iter()
        .map(|(k, v)| (k.replace('_', "-"), v))
        .collect();
    for (key, why) in PATH_OPTIONS {
        if options.contains_key(key) {
            return Err(Error::input(format!("{key}: refused here ({why})")));
        }
    }
    for key in STRATEGY_OPTIONS {
        if let Some(Value::String(s)) = options.get(key)
            && crate::strategy::names_a_file(s)
        {
            return Err(Error::input(format!(
                "{key} {s}: refused here (a strategy naming a FILE reads a file)"
            )));
        }
    }
    if let Some(file) = options.remove("file") {
        let Value::String(name) = &file else {
            return Err(Error::input("file: expected the name of an example file"));
        };
        let dice = example_dice(name).ok_or_else(|| {
            Error::input(format!(
                "file {}: refused here (it reads no files); name an example (wuerfel0.txt to \
                 wuerfel3.txt) or give the dice with \"die\"",
                crate::dice::excerpt(name)
            ))
        })?;
        options.insert("die".into(), dice.into());
    }
    Ok(options)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn vetted(v: Value) -> Result<Map<String, Value>, Error> {
        without_paths(v.as_object().unwrap().clone())
    }

    #[test]
    fn paths_and_strategies_naming_files_are_refused_and_examples_become_dice() {
        for (request, expected) in [
            (json!({"store": "/tmp/x"}), "store: refused here"),
            (json!({"values_out": "/tmp/x"}), "values-out: refused here"),
            (
                json!({"strategy-c": "strong:/etc/passwd"}),
                "strategy-c strong:/etc/passwd",
            ),
            (
                json!({"strategy-d": "table:/etc/passwd"}),
                "strategy-d table:/etc/passwd",
            ),
            (
                json!({"opponent": " strong-search-3:/etc/passwd"}),
                "opponent",
            ),
            (json!({"file": "/etc/passwd"}), "reads no files"),
            (json!({"file": 3}), "expected the name of an example file"),
        ] {
            let refused = vetted(request.clone()).unwrap_err();
            assert!(refused.is_input(), "{request}");
            assert!(
                refused.message.contains(expected),
                "{request}: {}",
                refused.message
            );
        }
        let dice = vetted(json!({"file": "data/wuerfel2.txt", "max_rolls": 5})).unwrap();
        assert_eq!(dice["die"].as_array().unwrap().len(), 5);
        assert_eq!(dice["max-rolls"], 5);
        assert!(vetted(json!({"strategy": "strong", "a": "1..6"})).is_ok());
    }
}
