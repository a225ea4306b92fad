#!/usr/bin/env python3
"""The table of results/strong-full/*.json for the book (docs/src/strong.md)."""
import json
import os
import pathlib

HERE = pathlib.Path(os.environ.get("RESULTS_DIR") or pathlib.Path(__file__).resolve().parent)
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
print("| look-ahead player | against | P(it wins) [95 % interval] | when it starts / when it does not | games |")
print("|---|---|---|---|---|")
for player, opponents in [("strong-search", ["strong", "safe"]),
                          ("strong-search-2", ["strong", "strong-search", "safe"])]:
    for opponent in opponents:
        path = HERE / f"{player}-vs-{opponent}.json"
        if path.exists():
            r = json.loads(path.read_text())
            assert r["unfinished"] == 0, path
            lo, hi = r["ci95"]
            print(f"| `{player}` | `{opponent}` | {r['p_a']:.4f} [{lo:.4f}, {hi:.4f}] | "
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

print()
SITUATIONS = [
    ("captures", "a capture is on offer: it captures"),
    ("captures_at_a_risk", "every capture exposes more own pieces than the safest move: it captures anyway"),
    ("safest", "the moves expose different numbers of own pieces: it exposes the fewest"),
    ("enters_goal", "a piece can move into the goal: it does"),
    ("frontmost", "any choice: it moves the frontmost piece"),
]
columns = [(p, who) for p in (2, 3, 4) for who in ("optimal", "strong")
           if (HERE / f"style-40-20-{p}-4-{who}.json").exists()]
reports = {c: json.loads((HERE / f"style-40-20-{c[0]}-4-{c[1]}.json").read_text()) for c in columns}
print("| situation (both players, as often as 200,000 games met it) | "
      + " | ".join(f"40/20/{p}/4 {who}" for p, who in columns) + " |")
print("|---" * (len(columns) + 1) + "|")
for key, words in SITUATIONS:
    cells = []
    for c in columns:
        players = reports[c]["style"]["players"]
        taken = sum(p[key]["taken"] for p in players)
        decisions = sum(p[key]["decisions"] for p in players)
        cells.append(f"{100 * taken / decisions:.1f} %")
    print(f"| {words} | " + " | ".join(cells) + " |")
