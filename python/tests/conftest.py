"""Shared fixtures: the repository root and the release binary (the CLI the package is
compared with). WUERFELGLUECK_BIN names another binary; without one, the tests that need it
build it with cargo."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def cli(root):
    """Runs the CLI; returns a function args -> parsed JSON (raises on a non-zero exit)."""
    binary = Path(os.environ.get("WUERFELGLUECK_BIN", root / "target" / "release" / "wuerfelglueck"))
    if not binary.exists():
        subprocess.run(["cargo", "build", "--release"], cwd=root, check=True)

    def run(*args, expect_error=False):
        done = subprocess.run([str(binary), *map(str, args)], cwd=root,
                              capture_output=True, text=True)
        if expect_error:
            assert done.returncode != 0, done.stdout
            return done.stderr.strip().removeprefix("error: ")
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    return run


def without_timing(d: dict) -> dict:
    """A result without the fields that measure time."""
    d = dict(d)
    for key in ("seconds", "build_seconds", "solve_seconds"):
        d.pop(key, None)
    if isinstance(d.get("exact"), dict):
        d["exact"] = without_timing(d["exact"])
    return d
