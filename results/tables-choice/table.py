#!/usr/bin/env python3
"""The tables of results/tables-choice/*.json for the book (docs/src/strong.md): per table,
each die's strategy and its P(win) with the 95 % interval, beside the fair share 1/N."""
import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
ORDER = ["four-heuristics", "four-safe-vs-frontmost", "four-frontmost-vs-safe",
         "four-safe-vs-capture", "four-capture-vs-safe",
         "three-heuristics", "three-safe-vs-frontmost", "three-frontmost-vs-safe"]

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
