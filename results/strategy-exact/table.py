"""The book's table of rankings (docs/src/choice.md) under `bwinf` and `choice` side by
side, from the `ranking-BOARD-PROFILE-FILE.json` records written by run.sh.
Usage: python3 results/strategy-exact/table.py BOARD (e.g. 40-20-2-4); the records are read
from this folder, or from $RESULTS_DIR."""
import json
import os
import sys

here = os.environ.get("RESULTS_DIR") or os.path.dirname(os.path.abspath(__file__))
board = sys.argv[1]
print(f"| file | `bwinf` (frontmost) | `choice`, both optimal |")
print("|---|---|---|")
for n in range(4):
    cells = []
    for profile in ("bwinf", "choice"):
        with open(os.path.join(here, f"ranking-{board}-{profile}-wuerfel{n}.json")) as f:
            record = json.load(f)
        # Every pair solved exactly, none simulated in its place.
        assert all(m in (None, "exact") for row in record["method"] for m in row), board
        cells.append(" > ".join(f"{r['die']} ({r['mean_p']:.3f})" for r in record["ranking"]))
    print(f"| `wuerfel{n}.txt` | {cells[0]} | {cells[1]} |")
