"""Helpers shared by the notebooks: find the repository (for the dice files), quick mode,
a temporary directory and two statistics helpers. The computations themselves call the
Python package `wuerfelglueck` (`pip install ./python`, see the README).

Quick mode (environment variable WUERFELGLUECK_QUICK=1, set by run_all.sh) shrinks every
game count so that all notebooks run in a minute or two; the committed outputs come from
full runs.
"""

from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path

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
TMP = Path(tempfile.mkdtemp(prefix="wuerfelglueck-nb-"))


def temp_file(name: str) -> Path:
    """A path in this session's temporary directory (never inside the repository)."""
    return TMP / name


Z95 = 1.959963984540054


def normal_cdf(x: float) -> float:
    """Standard normal distribution function."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))
