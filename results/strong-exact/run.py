#!/usr/bin/env python3
"""The loss of the learned players and the heuristics against optimal play, exactly, on the
boards where the game with choices is solved: for each strategy and seat, its *gap* (the game
value minus what it achieves against the optimal pair's own policy) and its *exploitability*
(what a best response gains against it beyond the game value), in P(win), each averaged over
the two openings by the solver. Every figure is a certified solve (`solve --profile choice`).

    python3 results/strong-exact/run.py BOARD [STRATEGY ...] [--seat a|both]
        [--opponent both|optimal-policy|best-response] [--binary B] [--out-dir DIR]

BOARD is TRACK/OFFSET/PIECES/GOAL (e.g. 40/20/3/4); the strategies default to strong,
strong-search, safe, capture and frontmost (strong-search-2 and -3 on request). With the same die on a symmetric board both seats
give the same figures; `--seat a` measures seat A only (for the boards whose solves take many
minutes). `--opponent best-response` measures the exploitability alone, which needs no
optimal policy (so the policy's own solve is skipped); `--opponent optimal-policy` the gap
alone. Each solve is appended to results/strong-exact/BOARD-solves.jsonl as soon as it is
certified (one JSON line: strategy, seat, opponent, P(win) of the strategy's seat, its bounds,
seconds), so an interrupted run keeps every solve it finished; a solve already in the file is
not repeated. `table.py` assembles the figures from these lines. `--out-dir` writes the lines
(and the policy) to another folder: tests/results_scripts.rs runs
`16/8/2/2 safe --seat a --opponent best-response` there.

`strong` and `strong-search` are played from the board's player file in players/ (as
`strong:FILE`, so the figure is that file's even if the binary was built with another), or
from `--player FILE`, and their records name the file's checksum (`player`) and how it was
trained (`trained`: `exact values`, `exact values outside the core` or `self-play`): a player
trained again is measured again, and the records of the one before stay for comparison.
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
    ap.add_argument("--opponent", choices=["both", "optimal-policy", "best-response"],
                    default="both")
    ap.add_argument("--binary", default=str(ROOT / "target/release/wuerfelglueck"))
    ap.add_argument("--out-dir", default=None)
    ap.add_argument("--player", default=None,
                    help="the player file of strong and strong-search (default: players/)")
    args = ap.parse_args()
    track, offset, pieces, goals = args.board.split("/")
    name = args.board.replace("/", "-")
    out_dir = pathlib.Path(args.out_dir) if args.out_dir else ROOT / "results/strong-exact"
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / f"{name}-solves.jsonl"
    policy = (out_dir if args.out_dir else ROOT / "target") / f"optimal-{name}.policy"
    player_file = (pathlib.Path(args.player).resolve() if args.player
                   else ROOT / "players" / f"strong-{name}-choice.json")

    def player_of(strategy):
        """(what the solver plays, the player's checksum, how it was trained) of a strategy."""
        if strategy != "strong" and not strategy.startswith("strong-search"):
            return strategy, None, None
        player = json.loads(player_file.read_text())
        trained = trained_by(player["training"]["method"])
        return f"{strategy}:{player_file}", player["checksum"], trained

    done = set()
    if out.exists():
        done = {(r["strategy"], r["seat"], r["opponent"], r.get("player"))
                for r in map(json.loads, out.read_text().splitlines()) if r}

    def solve(*extra):
        cmd = [args.binary, "solve", "--a", DIE, "--b", DIE, "--track", track, "--offset", offset,
               "--pieces", pieces, "--goal-fields", goals, "--profile", "choice",
               "--tolerance", "1e-9", "--format", "json", *extra]
        started = time.time()
        # The solver's progress (sizes, estimates, sweeps) goes on to this script's stderr.
        result = json.loads(subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout)
        assert result["figures_certified"], (cmd, result)
        print(f"  {' '.join(extra)}: {time.time() - started:.0f} s", file=sys.stderr, flush=True)
        return result

    value_file = policy.with_suffix(".value.json")
    needs_policy = args.opponent != "best-response"
    if needs_policy and not (policy.exists() and value_file.exists()):
        policy.parent.mkdir(exist_ok=True)
        policy.unlink(missing_ok=True)
        optimal = solve("--policy-out", str(policy))
        value_file.write_text(json.dumps({"p_a": optimal["p_a"], "p_b": optimal["p_b"]}))
    # The game value for the figures: the policy solve's, or by symmetry (the same die on a
    # symmetric board, the openings averaged) 0.5 for either seat when only exploitability
    # is measured; table.py recomputes every figure from the recorded P(win).
    # Without the policy solve the value comes from the mirror symmetry, which holds only
    # where B's start is half a track from A's (the same die on both sides): refused
    # elsewhere rather than recorded wrong. It also assumes that optimal play ends every
    # game (true on every board solved so far with 1..6: P(A wins | A starts) = (1 + v) / 2).
    if not value_file.exists() and 2 * int(offset) != int(track):
        sys.exit(f"{args.board}: not symmetric (offset {offset}, track {track}); run the "
                 "policy solve first (--opponent both or optimal-policy) for the game value")
    value_from = "policy solve" if value_file.exists() else "symmetry"
    value = (json.loads(value_file.read_text()) if value_file.exists()
             else {"p_a": 0.5, "p_b": 0.5})
    seats = ["A"] if args.seat == "a" else ["A", "B"]
    for strategy in args.strategies:
        played, checksum, trained = player_of(strategy)
        for seat in seats:
            mine, theirs = ("--strategy-a", "--strategy-b") if seat == "A" else ("--strategy-b", "--strategy-a")
            key = "p_a" if seat == "A" else "p_b"
            for opponent, extra in [("optimal-policy", [theirs, f"table:{policy}"]),
                                    ("best-response", [])]:
                if ((strategy, seat, opponent, checksum) in done
                        or args.opponent not in ("both", opponent)):
                    continue
                result = solve(mine, played, *extra)
                record = {
                    "board": args.board, "die": DIE, "strategy": strategy, "seat": seat,
                    "opponent": opponent, "value": value[key], "value_from": value_from,
                    "p_win": result[key],
                    "bounds": result["bounds"][key], "seconds": result["seconds"],
                }
                if checksum:
                    record.update(player=checksum, trained=trained)
                with out.open("a") as f:
                    f.write(json.dumps(record) + "\n")
                what = "gap" if opponent == "optimal-policy" else "exploitability"
                print(f"{args.board} {strategy} seat {seat}: {what} "
                      f"{100 * (value[key] - result[key]):.3f} points", flush=True)


def trained_by(method):
    """How a player file's training record says it was trained."""
    if "where a layered solve holds them" in method:
        return "exact values outside the core"
    return "exact values" if "exact values" in method else "self-play"


if __name__ == "__main__":
    main()
