#!/usr/bin/env python3
"""The table of results/strong-full/*.json for the book (docs/src/strong.md)."""
import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
print("| strong against | P(strong wins) [95 % interval] | when strong starts / when it does not | games | mean rolls |")
print("|---|---|---|---|---|")
for opponent in ["frontmost", "rearmost", "capture", "safe", "random", "strong"]:
    path = HERE / f"strong-vs-{opponent}.json"
    if not path.exists():
        continue
    r = json.loads(path.read_text())
    lo, hi = r["ci95"]
    assert r["unfinished"] == 0, path
    print(f"| `{opponent}` | {r['p_a']:.4f} [{lo:.4f}, {hi:.4f}] | "
          f"{r['p_a_if_a_starts']:.4f} / {r['p_a_if_b_starts']:.4f} | {r['games']:,} | "
          f"{r['mean_rolls']:.1f} |")
