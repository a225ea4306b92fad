#!/usr/bin/env python3
"""The loss of the learned players and the heuristics against optimal play, exactly, on the
boards where the game with choices is solved: for each strategy and seat, its *gap* (the game
value minus what it achieves against the optimal pair's own policy) and its *exploitability*
(what a best response gains against it beyond the game value), in P(win), each averaged over
the two openings by the solver. Every figure is a certified solve (`solve --profile choice`).

    python3 results/strong-exact/run.py BOARD [STRATEGY ...] [--seat a|both] [--binary B]

BOARD is TRACK/OFFSET/PIECES/GOAL (e.g. 40/20/3/4); the strategies default to strong,
strong-search, safe, capture and frontmost. With the same die on a symmetric board both seats
give the same figures; `--seat a` measures seat A only (for the boards whose solves take many
minutes). Appends one JSON line per strategy to results/strong-exact/BOARD.jsonl as soon as it
is measured, so an interrupted run keeps what it finished, and skips what the file already has.
"""
import argparse
import json
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
DIE = "1..6"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("board")
    ap.add_argument("strategies", nargs="*",
                    default=["strong", "strong-search", "safe", "capture", "frontmost"])
    ap.add_argument("--seat", choices=["a", "both"], default="both")
    ap.add_argument("--binary", default=str(ROOT / "target/release/wuerfelglueck"))
    args = ap.parse_args()
    track, offset, pieces, goals = args.board.split("/")
    name = args.board.replace("/", "-")
    out = ROOT / "results/strong-exact" / f"{name}.jsonl"
    policy = ROOT / "target" / f"optimal-{name}.policy"
    done = set()
    if out.exists():
        done = {json.loads(line)["strategy"] for line in out.read_text().splitlines() if line}

    def solve(*extra):
        cmd = [args.binary, "solve", "--a", DIE, "--b", DIE, "--track", track, "--offset", offset,
               "--pieces", pieces, "--goal-fields", goals, "--profile", "choice",
               "--tolerance", "1e-9", "--format", "json", *extra]
        started = time.time()
        result = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
        assert result["figures_certified"], (cmd, result)
        print(f"  {' '.join(extra)}: {time.time() - started:.0f} s", file=sys.stderr, flush=True)
        return result

    value_file = policy.with_suffix(".value.json")
    if not (policy.exists() and value_file.exists()):
        policy.parent.mkdir(exist_ok=True)
        policy.unlink(missing_ok=True)
        optimal = solve("--policy-out", str(policy))
        value_file.write_text(json.dumps({"p_a": optimal["p_a"], "p_b": optimal["p_b"]}))
    value = json.loads(value_file.read_text())
    table = f"table:{policy}"
    seats = ["A"] if args.seat == "a" else ["A", "B"]
    for strategy in args.strategies:
        if strategy in done:
            continue
        gap, exploit = {}, {}
        for seat in seats:
            mine, theirs = ("--strategy-a", "--strategy-b") if seat == "A" else ("--strategy-b", "--strategy-a")
            key = "p_a" if seat == "A" else "p_b"
            gap[seat] = value[key] - solve(mine, strategy, theirs, table)[key]
            exploit[seat] = value[key] - solve(mine, strategy)[key]
        row = {
            "board": args.board, "die": DIE, "strategy": strategy, "value": value,
            "seats": seats,
            "gap": {**gap, "mean": sum(gap.values()) / len(gap)},
            "exploitability": {**exploit, "mean": sum(exploit.values()) / len(exploit)},
        }
        with out.open("a") as f:
            f.write(json.dumps(row) + "\n")
        print(f"{args.board} {strategy}: gap {100 * row['gap']['mean']:.3f} points, "
              f"exploitability {100 * row['exploitability']['mean']:.3f} points", flush=True)


if __name__ == "__main__":
    main()
