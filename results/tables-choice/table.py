#!/usr/bin/env python3
"""The tables of results/tables-choice/*.json for the book (docs/src/strong.md): per table,
each die's strategy and its P(win) with the 95 % interval, beside the fair share 1/N. Reads
this folder, or $RESULTS_DIR."""
import json
import os
import pathlib

HERE = pathlib.Path(os.environ.get("RESULTS_DIR") or pathlib.Path(__file__).resolve().parent)
ORDER = ["four-heuristics", "four-safe-vs-frontmost", "four-frontmost-vs-safe",
         "four-safe-vs-capture", "four-capture-vs-safe",
         "three-heuristics", "three-safe-vs-frontmost", "three-frontmost-vs-safe",
         "four-strong-vs-safe", "four-strong-vs-capture", "four-strong-vs-frontmost",
         "four-strong-mixed", "four-safe-vs-strong",
         "three-strong-vs-safe", "three-strong-vs-capture", "three-strong-mixed",
         "three-safe-vs-strong", "four-strong", "three-strong"]

print("| players | strategies at the table | P(win) of each [95 % interval] | games | mean rolls |")
print("|---|---|---|---|---|")
for name in ORDER:
    path = HERE / f"{name}.json"
    if not path.exists():
        continue
    r = json.loads(path.read_text())
    assert r["unfinished"] == 0, path
    seen, cells = set(), []
    for strategy, p, (lo, hi) in zip(r["strategies"], r["p_win"], r["ci95"]):
        # Equal players share one figure: the first is shown (each has its own interval).
        if strategy in seen:
            continue
        seen.add(strategy)
        count = r["strategies"].count(strategy)
        label = f"`{strategy}`" + (f" (each of {count})" if count > 1 else "")
        cells.append(f"{label} {p:.4f} [{lo:.4f}, {hi:.4f}]")
    print(f"| {r['players']} | {', '.join(r['strategies'])} | {'; '.join(cells)} | "
          f"{r['games']:,} | {r['mean_rolls']:.1f} |")

# How the dice decide at the mixed tables with `strong` (table --style): share of the
# decisions where the situation arose.
SITUATIONS = [("captures", "captures when it can"),
              ("captures_at_a_risk", "captures although riskier"),
              ("safest", "exposes the fewest"),
              ("enters_goal", "enters the goal"),
              ("frontmost", "moves the frontmost")]
columns = []
for name in ["three-strong-mixed", "four-strong-mixed"]:
    path = HERE / f"{name}.json"
    if not path.exists() or not json.loads(path.read_text()).get("style"):
        continue
    r = json.loads(path.read_text())
    for strategy, style in zip(r["strategies"], r["style"]["dice"]):
        columns.append((f"{r['players']} players: `{strategy}`", style))
if columns:
    print()
    print("| situation | " + " | ".join(c for c, _ in columns) + " |")
    print("|---" * (len(columns) + 1) + "|")
    for key, words in SITUATIONS:
        cells = []
        for _, style in columns:
            t = style[key]
            cells.append(f"{100 * t['taken'] / t['decisions']:.1f} %" if t["decisions"] else "-")
        print(f"| {words} | " + " | ".join(cells) + " |")

# Every seat `strong`: what the seat is worth (P(win | seat), the mean over the dice, each
# of which sat in every seat equally often).
rows = []
for name in ["three-strong", "four-strong"]:
    path = HERE / f"{name}.json"
    if not path.exists():
        continue
    r = json.loads(path.read_text())
    n = r["players"]
    seats = [sum(r["per_seat"][s][i] for i in range(n)) / n for s in range(n)]
    # Every game has one winner per seat at most: a seat's wins over all games are binomial.
    half = [1.96 * (p * (1 - p) / r["games"]) ** 0.5 for p in seats]
    rows.append(f"| {n} | " + ", ".join(f"seat {s}: {p:.4f} ± {h:.4f}"
                                        for s, (p, h) in enumerate(zip(seats, half)))
                + f" | {r['games']:,} |")
if rows:
    print()
    print("| players | P(win) by seat, every seat `strong` (seat 0 moves first) | games |")
    print("|---|---|---|")
    print("\n".join(rows))
