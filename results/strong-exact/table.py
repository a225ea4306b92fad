#!/usr/bin/env python3
"""The table of results/strong-exact/ for the book (docs/src/strong.md): per board and
strategy, gap and exploitability in points of P(win), per seat measured and their mean.

Reads BOARD.jsonl (one line per strategy, both figures and seats complete) and
BOARD-solves.jsonl (one line per certified solve, written by run.py as each finishes); a
figure not yet solved is shown as "not measured", except a gap whose exploitability is
measured: it is at most that (a best response holds the player to no more than the optimal
policy does, where every game ends), shown as "at most". The learned players' rows say how the player
was trained (`exact values`, `exact values outside the core` or `self-play`); of a kind, only the records of the player file
shipped now count (an older file of the same kind was trained again and replaced). Reads
this folder, or $RESULTS_DIR."""
import json
import os
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from run import trained_by  # noqa: E402  (the one definition of a player's kind)

ROOT = pathlib.Path(__file__).resolve().parents[2]
HERE = pathlib.Path(os.environ.get("RESULTS_DIR") or pathlib.Path(__file__).resolve().parent)
ORDER = ["strong", "strong-search", "strong-search-2", "strong-search-3", "safe", "capture",
         "frontmost"]
BOARDS = ["16/8/2/2", "20/10/2/2", "40/20/2/4", "40/20/3/4", "20/10/4/4", "22/11/4/4"]
FIGURES = {"gap": "optimal-policy", "exploitability": "best-response"}


def points(d, bound=None):
    """A figure per seat and its mean; without one, `bound`'s (an upper bound) or "not
    measured"."""
    if not d:
        return f"at most {points(bound)}" if bound else "not measured"
    seats = [f"{100 * d[s]:.3f}" for s in ("A", "B") if s in d]
    mean = sum(d[s] for s in ("A", "B") if s in d) / len(seats)
    return f"{', '.join(seats)}, **{100 * mean:.3f}**" if len(seats) > 1 else f"**{100 * mean:.3f}** (A)"


def label(record, shipped):
    """The row of a record, or None for a superseded player: the strategy, and for a
    learned player how it was trained."""
    if "player" not in record:
        return record["strategy"]
    if record["trained"] == shipped["trained"] and record["player"] != shipped["checksum"]:
        return None
    return f"{record['strategy']} ({record['trained']})"


def figures(board):
    """{row: {"gap": {seat: loss}, "exploitability": {seat: loss}}} for a board."""
    name = board.replace("/", "-")
    player = json.loads((ROOT / "players" / f"strong-{name}-choice.json").read_text())
    shipped = {"checksum": player["checksum"],
               "trained": trained_by(player["training"]["method"])}
    found = {}
    rows = HERE / f"{name}.jsonl"
    if rows.exists():
        for r in map(json.loads, filter(None, rows.read_text().splitlines())):
            row = label(r, shipped)
            if row is None:
                continue
            found[row] = {
                f: {s: r[f][s] for s in r["seats"]} for f in FIGURES}
    solves = HERE / f"{name}-solves.jsonl"
    if solves.exists():
        for r in map(json.loads, filter(None, solves.read_text().splitlines())):
            figure = next(f for f, opponent in FIGURES.items() if opponent == r["opponent"])
            row = label(r, shipped)
            if row is None:
                continue
            entry = found.setdefault(row, {f: {} for f in FIGURES})
            entry[figure][r["seat"]] = r["value"] - r["p_win"]
    return found


print("| board | strategy | gap (A, B, mean) | exploitability (A, B, mean) |")
print("|---|---|---|---|")
for board in BOARDS:
    found = figures(board)
    rows = sorted(found, key=lambda row: (ORDER.index(row.split(" ")[0]),
                                           "self-play" in row))
    for row in rows:
        f = found[row]
        strategy, _, trained = row.partition(" ")
        name = f"`{strategy}` {trained}".strip()
        gap = points(f["gap"], bound=f["exploitability"])
        print(f"| {board} | {name} | {gap} | {points(f['exploitability'])} |")
