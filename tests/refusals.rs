//! The refusals the documentation promises (`docs/src/refusals.md`), run as written: each
//! must end with exit code 2 (never a signal) and the documented message.

mod common;

use common::binary;

/// Splits a command line as a shell would for the documented examples: blanks separate
/// words, double quotes group them.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut started) = (false, false);
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                started = true;
            }
            c if c.is_whitespace() && !quoted => {
                if started {
                    out.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    assert!(!quoted, "unbalanced quotes in {line}");
    if started {
        out.push(word);
    }
    out
}

/// Every ```refusal block: the arguments after `$ wuerfelglueck` and the message after
/// `error:`.
fn documented() -> Vec<(Vec<String>, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/refusals.md");
    let text = std::fs::read_to_string(path).unwrap();
    let mut found = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "```refusal" {
            continue;
        }
        let command = lines.next().unwrap();
        let message = lines.next().unwrap();
        assert_eq!(lines.next().map(str::trim), Some("```"), "{command}");
        let args = command
            .strip_prefix("$ wuerfelglueck ")
            .or_else(|| command.strip_prefix("$ wuerfelglueck"))
            .unwrap_or_else(|| panic!("not a command: {command}"));
        let message = message
            .strip_prefix("error: ")
            .unwrap_or_else(|| panic!("not an error line: {message}"));
        found.push((words(args), message.to_string()));
    }
    found
}

#[test]
fn the_quoting_of_the_examples_is_read_as_a_shell_reads_it() {
    assert_eq!(
        words(r#"advise --position "A:3,10 B:A,5" --face 4"#),
        ["advise", "--position", "A:3,10 B:A,5", "--face", "4"]
    );
    assert_eq!(words(""), Vec::<String>::new());
}

#[test]
fn every_documented_refusal_is_refused_as_documented() {
    let refusals = documented();
    assert!(
        refusals.len() >= 10,
        "{} refusals documented",
        refusals.len()
    );
    for (args, message) in refusals {
        let out = binary()
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        // `code()` is None when a signal (an abort) ended the process.
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(&message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
