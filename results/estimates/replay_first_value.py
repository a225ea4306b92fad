#!/usr/bin/env python3
"""Applies the estimate of the second value's pass (one value at a time: `W`'s work still to
go is `V`'s work on the blocks still to sweep, scaled by `W`'s work against `V`'s on the
blocks `W` has finished) to the lines a run printed, for a run made before the estimator had
it. The lines come about once a minute, so each block's work is known to a line's tenth of a
sweep equivalent: a reconstruction, not the estimator itself (which sees every sweep).

    python3 results/estimates/replay_first_value.py RUN END_SECONDS [BLOCKS_PER_VALUE]

RUN: a run's name in estimates.jsonl (`full-1..12-vs-1..20-released-4e-6`), or a log file
of such a run (its stderr).

Prints, for every line of `W`'s pass before its opening block, the time said and taken."""
import json
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent


def block_lines(run):
    """(block, sweep equivalents, seconds) of each line of a block."""
    if pathlib.Path(run).is_file():
        lines = []
        for line in open(run):
            m = re.search(r"block (\d+) of \d+, ([\d.]+) sweep equivalents, width \S+, ([\d.]+) s", line)
            if m:
                lines.append((int(m.group(1)), float(m.group(2)), float(m.group(3))))
        return lines
    for line in (HERE / "estimates.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row["name"] == run:
            return [(p[1], p[3], p[5]) for p in row["progress"] if p[0] == "block"]
    sys.exit(f"no run {run!r} in estimates.jsonl, and no such file")


def main():
    log, end = sys.argv[1], float(sys.argv[2])
    per_value = int(sys.argv[3]) if len(sys.argv) > 3 else 25
    lines = block_lines(log)
    # The work (sweep equivalents) at the first line of each block.
    first_seen = {}
    for block, work, _ in lines:
        first_seen.setdefault(block, work)
    w_blocks = [b for b in first_seen if b > per_value]
    v_end = first_seen[min(w_blocks)]

    def v_from(k):
        """V's work on its blocks k and after."""
        later = [b for b in first_seen if k <= b <= per_value]
        return v_end - first_seen[min(later)] if later else 0.0

    for i, (block, work, t) in enumerate(lines):
        if block <= per_value:
            continue
        k = block - per_value
        done_w = first_seen[block] - v_end
        done_v = v_from(1) - v_from(k)
        scale = done_w / done_v if done_v > 0 and done_w > 0 else 1.0
        own = (v_from(k) - v_from(k + 1)) * scale
        had = work - first_seen[block]
        left = scale * v_from(k + 1) + max(own - had, 0.1)
        # The pace over the last sweep equivalent of lines.
        j = i
        while j > 0 and work - lines[j][1] < 1.0:
            j -= 1
        pace = (t - lines[j][2]) / (work - lines[j][1])
        said = left * pace
        print(f"{t:7.0f} s block {block}: {left:.2f} sweep equivalents left, said {said:5.0f} s,"
              f" took {end - t:5.0f} s, ratio {(end - t) / said:.2f}")


if __name__ == "__main__":
    main()
