#!/usr/bin/env python3
"""How much the heuristics lose to optimal play, exactly, on the boards where the game with
choices is solved: for each heuristic, in each seat, its *gap* (the game value minus what it
achieves against the optimal pair's own policy) and its *exploitability* (what a best response
gains against it beyond the game value), both in P(win), averaged over the two openings.

    python3 results/heuristics-exact/run.py [BINARY] [--boards B,...] [--out FILE]

(default binary: target/release/wuerfelglueck). Writes results/heuristics-exact/heuristics.json
(or FILE) and prints the table of the book's chapter "The game with choices". Every figure is
a certified solve (`solve --profile choice`). `--boards 16/8/2/2` solves that board alone (of
16/8/2/2, 20/10/2/2 and 40/20/2/4: a check of seconds, tests/results_scripts.rs).
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
ARGS = argparse.ArgumentParser()
ARGS.add_argument("binary", nargs="?", default=str(ROOT / "target/release/wuerfelglueck"))
ARGS.add_argument("--boards", default="16/8/2/2,20/10/2/2,40/20/2/4")
ARGS.add_argument("--out", default=str(ROOT / "results/heuristics-exact/heuristics.json"))
OPTIONS = ARGS.parse_args()
BINARY = OPTIONS.binary
BOARDS = [(b, int(b.split("/")[0]), int(b.split("/")[2]), int(b.split("/")[3]))
          for b in OPTIONS.boards.split(",")]
HEURISTICS = ["frontmost", "rearmost", "capture", "safe", "random"]
DIE = "1..6"


def solve(track, pieces, goals, *extra):
    args = [BINARY, "solve", "--a", DIE, "--b", DIE, "--track", str(track), "--pieces",
            str(pieces), "--goal-fields", str(goals), "--profile", "choice", "--format", "json",
            *extra]
    done = subprocess.run(args, check=True, capture_output=True, text=True)
    result = json.loads(done.stdout)
    assert result["figures_certified"], (args, result)
    return result


def main():
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, track, pieces, goals in BOARDS:
            policy = pathlib.Path(tmp) / f"{track}.policy"
            optimal = solve(track, pieces, goals, "--policy-out", str(policy))
            value = {"A": optimal["p_a"], "B": optimal["p_b"]}
            table = f"table:{policy}"
            for h in HEURISTICS:
                # Seat A plays h; B plays the optimal pair's policy (gap) or best responds.
                against_policy_a = solve(track, pieces, goals, "--strategy-a", h, "--strategy-b", table)
                best_response_a = solve(track, pieces, goals, "--strategy-a", h)
                against_policy_b = solve(track, pieces, goals, "--strategy-a", table, "--strategy-b", h)
                best_response_b = solve(track, pieces, goals, "--strategy-b", h)
                gap = [value["A"] - against_policy_a["p_a"], value["B"] - against_policy_b["p_b"]]
                exploit = [value["A"] - best_response_a["p_a"], value["B"] - best_response_b["p_b"]]
                rows.append({
                    "board": name, "die": DIE, "strategy": h,
                    "value": value,
                    "gap": {"A": gap[0], "B": gap[1], "mean": sum(gap) / 2},
                    "exploitability": {"A": exploit[0], "B": exploit[1], "mean": sum(exploit) / 2},
                })
                print(f"{name} {h}: gap {100 * sum(gap) / 2:.2f} points, "
                      f"exploitability {100 * sum(exploit) / 2:.2f} points", file=sys.stderr)
    out = pathlib.Path(OPTIONS.out)
    out.write_text(json.dumps(rows, indent=2) + "\n")
    print("| board | strategy | gap (A, B, mean) | exploitability (A, B, mean) |")
    print("|---|---|---|---|")
    for r in rows:
        g, e = r["gap"], r["exploitability"]
        print(f"| {r['board']} | `{r['strategy']}` | {100 * g['A']:.2f}, {100 * g['B']:.2f}, "
              f"**{100 * g['mean']:.2f}** | {100 * e['A']:.2f}, {100 * e['B']:.2f}, "
              f"**{100 * e['mean']:.2f}** |")


if __name__ == "__main__":
    main()
