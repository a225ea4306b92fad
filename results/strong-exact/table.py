#!/usr/bin/env python3
"""The table of results/strong-exact/*.jsonl for the book (docs/src/strong.md): per board and
strategy, gap and exploitability in points of P(win), per seat measured and their mean."""
import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
ORDER = ["strong", "strong-search", "safe", "capture", "frontmost"]
BOARDS = ["16/8/2/2", "20/10/2/2", "40/20/2/4", "40/20/3/4", "20/10/4/4", "22/11/4/4"]


def points(d):
    seats = [f"{100 * d[s]:.3f}" for s in ("A", "B") if s in d]
    return f"{', '.join(seats)}, **{100 * d['mean']:.3f}**" if len(seats) > 1 else f"**{100 * d['mean']:.3f}** (A)"


print("| board | strategy | gap (A, B, mean) | exploitability (A, B, mean) |")
print("|---|---|---|---|")
for board in BOARDS:
    path = HERE / (board.replace("/", "-") + ".jsonl")
    if not path.exists():
        continue
    rows = {r["strategy"]: r for r in map(json.loads, path.read_text().splitlines()) if r}
    for name in ORDER:
        if name in rows:
            r = rows[name]
            print(f"| {board} | `{name}` | {points(r['gap'])} | {points(r['exploitability'])} |")
