#!/usr/bin/env python3
"""Writes the output of `wuerfelglueck COMMAND --help` into the CLI chapter.

Usage: python3 docs/update_cli_help.py [BINARY]   (default: target/release/wuerfelglueck)

Every section headed "### `COMMAND`" in docs/src/cli.md holds one ```text block; it is
replaced by what the binary prints for `COMMAND --help`. tests/docs.rs checks that the
chapter and the binary agree.
"""
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
binary = sys.argv[1] if len(sys.argv) > 1 else str(root / "target/release/wuerfelglueck")
chapter = root / "docs/src/cli.md"
text = chapter.read_text()


def replace(match):
    command = match.group(1)
    out = subprocess.run([binary, command, "--help"], check=True, capture_output=True, text=True)
    return f"### `{command}`\n\n```text\n{out.stdout.rstrip()}\n```"


text = re.sub(r"### `([a-z]+)`\n\n```text\n.*?\n```", replace, text, flags=re.S)
chapter.write_text(text)
