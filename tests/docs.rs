//! The book says what the program does: the CLI chapter's `--help` sections are the
//! binary's own (`python3 docs/update_cli_help.py` writes them anew).

mod common;

use common::binary;

#[test]
fn the_cli_chapter_shows_every_command_help_as_the_binary_prints_it() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/cli.md");
    let chapter = std::fs::read_to_string(path).unwrap();
    let mut sections = Vec::new();
    for part in chapter.split("\n### `").skip(1) {
        let (command, rest) = part.split_once('`').unwrap();
        let block = rest
            .split_once("```text\n")
            .and_then(|(_, b)| b.split_once("\n```"))
            .map(|(b, _)| b)
            .unwrap_or_else(|| panic!("{command}: no ```text block"));
        let out = binary().args([command, "--help"]).output().unwrap();
        assert!(out.status.success(), "{command} --help");
        let help = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            block.trim_end(),
            help.trim_end(),
            "docs/src/cli.md, `{command}`: run python3 docs/update_cli_help.py"
        );
        sections.push(command.to_string());
    }
    let commands: Vec<String> = wuerfelglueck::cli::Cli::definition()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    for command in &commands {
        assert!(
            sections.contains(command),
            "docs/src/cli.md has no section for `{command}`"
        );
    }
}

/// The README's layout table names every folder of `src/`, so a new one cannot go
/// unmentioned.
#[test]
fn the_readme_layout_names_every_folder_of_src() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let layout = readme
        .split_once("## Repository layout")
        .map(|(_, rest)| rest.split("\n## ").next().unwrap_or(rest))
        .expect("the README has a layout section");
    let mut folders = 0;
    for entry in std::fs::read_dir(format!("{root}/src")).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            let name = entry.file_name().into_string().unwrap();
            assert!(
                layout.contains(&format!("| `src/{name}/` |")),
                "README.md's layout table does not name src/{name}/"
            );
            folders += 1;
        }
    }
    assert!(folders >= 10, "{folders} folders");
}

/// Every test the refusals chapter names as the check of a file kind or a resource exists,
/// so the chapter's tables cannot name a test that was renamed or removed.
#[test]
fn the_tests_the_refusals_chapter_names_exist() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let chapter = std::fs::read_to_string(root.join("docs/src/refusals.md")).unwrap();
    let mut sources = String::new();
    let mut folders = vec![
        root.join("src"),
        root.join("tests"),
        root.join("python/tests"),
    ];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs" || e == "py") {
                sources.push_str(&std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut named = 0;
    for row in chapter.lines().filter(|l| l.starts_with('|')) {
        let checked_by = row.trim_end_matches('|').rsplit('|').next().unwrap_or("");
        for name in checked_by.split('`').skip(1).step_by(2) {
            // Test names: lowercase words joined by underscores (paths and options skipped).
            let is_test_name = name.contains('_')
                && name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            if is_test_name {
                assert!(
                    sources.contains(&format!("fn {name}("))
                        || sources.contains(&format!("def {name}(")),
                    "docs/src/refusals.md names the test {name}, which does not exist"
                );
                named += 1;
            }
        }
    }
    assert!(named >= 30, "{named} tests named");
}
