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
