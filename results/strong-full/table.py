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

print()
print("| strong-search against | P(strong-search wins) [95 % interval] | when it starts / when it does not | games |")
print("|---|---|---|---|")
for opponent in ["strong", "safe"]:
    path = HERE / f"strong-search-vs-{opponent}.json"
    if path.exists():
        r = json.loads(path.read_text())
        assert r["unfinished"] == 0, path
        lo, hi = r["ci95"]
        print(f"| `{opponent}` | {r['p_a']:.4f} [{lo:.4f}, {hi:.4f}] | "
              f"{r['p_a_if_a_starts']:.4f} / {r['p_a_if_b_starts']:.4f} | {r['games']:,} |")

print()
print("| file | ranking with both players `strong` (mean P; opponents beaten) | undecided pairs |")
print("|---|---|---|")
for n in range(4):
    path = HERE / f"rank-wuerfel{n}.json"
    if path.exists():
        r = json.loads(path.read_text())
        order = " > ".join(f"{d['die']} ({d['mean_p']:.3f}; {d['beaten']})" for d in r["ranking"])
        print(f"| `wuerfel{n}.txt` | {order} | {len(r['undecided'])} |")
