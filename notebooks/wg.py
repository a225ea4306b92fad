"""Helpers shared by the notebooks: find the repository, build the binary if it is
missing, run it and read its JSON or CSV output.

Quick mode (environment variable WUERFELGLUECK_QUICK=1, set by run_all.sh) shrinks every
game count so that all notebooks run in a minute or two; the committed outputs come from
full runs.
"""

from __future__ import annotations

import io
import json
import math
import os
import shlex
import subprocess
import tempfile
from pathlib import Path

import pandas as pd

QUICK = os.environ.get("WUERFELGLUECK_QUICK", "") not in ("", "0")


def pick(full, quick):
    """The full-mode value, or the quick-mode value under WUERFELGLUECK_QUICK=1."""
    return quick if QUICK else full


def _find_root() -> Path:
    env = os.environ.get("WUERFELGLUECK_ROOT")
    if env:
        return Path(env).resolve()
    here = Path.cwd().resolve()
    for d in [here, *here.parents]:
        cargo = d / "Cargo.toml"
        if cargo.exists() and 'name = "wuerfelglueck"' in cargo.read_text():
            return d
    raise RuntimeError(
        "cannot find the wuerfelglueck repository above " + str(here)
        + "; set WUERFELGLUECK_ROOT"
    )


ROOT = _find_root()
BIN = ROOT / "target" / "release" / "wuerfelglueck"
TMP = Path(tempfile.mkdtemp(prefix="wuerfelglueck-nb-"))


def ensure_binary() -> Path:
    """Builds target/release/wuerfelglueck with cargo if it does not exist."""
    if not BIN.exists():
        subprocess.run(["cargo", "build", "--release"], cwd=ROOT, check=True)
    return BIN


def command(args) -> str:
    """The command line as a user would type it (from the repository root)."""
    return "wuerfelglueck " + " ".join(shlex.quote(str(a)) for a in args)


def run(args, show: bool = True) -> str:
    """Runs the binary from the repository root; prints the command; returns stdout."""
    ensure_binary()
    args = [str(a) for a in args]
    if show:
        print("$", command(args))
    done = subprocess.run([str(BIN), *args], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{command(args)} failed ({done.returncode}): {done.stderr}")
    return done.stdout


def run_json(args, show: bool = True):
    """Runs the binary with --format json and parses the output."""
    return json.loads(run([*args, "--format", "json"], show))


def run_csv(args, show: bool = True) -> pd.DataFrame:
    """Runs the binary with --format csv and reads the output as a data frame."""
    return pd.read_csv(io.StringIO(run([*args, "--format", "csv"], show)))


def temp_file(name: str) -> Path:
    """A path in this session's temporary directory (never inside the repository)."""
    return TMP / name


Z95 = 1.959963984540054


def normal_cdf(x: float) -> float:
    """Standard normal distribution function."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))
