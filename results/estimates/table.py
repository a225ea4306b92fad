#!/usr/bin/env python3
"""Compares the estimates of each solve in logs/ (written by run.sh) with what it took.

For memory: the estimate of the plan line against the largest resident set (`time -v`).
Before the sweeps: the estimated time of the state search (until the plan line), of the
sparse solver's matrix (from the plan line to the end of the build) and of the game solver's
classification, against the times taken (logs written before these estimates existed show
"-").
For time: every progress line with an estimate of the time still to go, as "at t s: about
r s more"; the run then ended at T s (the JSON `seconds`, the whole solve), so the line was
right by the ratio (T - t) / r: 1 is exact, 2 means the run took twice the time left that the
line said. The table shows the first estimate and those nearest to a quarter and a half of
the run, and the first estimate from the openings' narrowing.

    python3 results/estimates/table.py [logs|logs-fresh]
"""
import json
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
# The estimates of what runs before the first sweep, each with what the run then took.
SEARCH = re.compile(r"finding the reachable states, about (?P<r>[0-9.]+) (?P<unit>s|min|h) \(estimate\)")
FOUND = re.compile(r"reachable states found in (?P<t>[0-9.]+) s")
MATRIX = re.compile(r"building the matrix, about (?P<r>[0-9.]+) (?P<unit>s|min|h) \(estimate\)")
CLASSIFY = re.compile(r"classifying the states, about (?P<r>[0-9.]+) (?P<unit>s|min|h) \(estimate\)")
LINE = re.compile(r"(?P<t>[0-9.]+) s; about (?P<n>\d+) more sweeps, (?P<r>[0-9.]+) (?P<unit>s|min|h) \((?P<basis>[^)]*)\)")
UNITS = {"s": 1, "min": 60, "h": 3600}


def size_in_bytes(text):
    number, unit = text.split()
    return float(number) * {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}[unit]


def preparation(text, result):
    """The estimates before the first sweep against the times taken: the search (until the
    plan line), the sparse matrix (from the plan line to the end of the build), the game's
    classification (the build)."""
    cells = []
    build = result.get("build_seconds")
    search, found = SEARCH.search(text), FOUND.search(text)
    if search and found:
        said = float(search["r"]) * UNITS[search["unit"]]
        took = float(found["t"])
        cells.append(f"search {said:.1f} / {took:.1f} s ({took / said:.2f})")
        matrix = MATRIX.search(text)
        if matrix and build:
            said = float(matrix["r"]) * UNITS[matrix["unit"]]
            took = build - took
            cells.append(f"matrix {said:.1f} / {took:.1f} s ({took / said:.2f})")
    classify = CLASSIFY.search(text)
    if classify and build:
        said = float(classify["r"]) * UNITS[classify["unit"]]
        cells.append(f"classification {said:.1f} / {build:.1f} s ({build / said:.2f})")
    return "; ".join(cells) or "-"


def main():
    logs = HERE / (sys.argv[1] if len(sys.argv) > 1 else "logs")
    print("| solve | states | memory: estimate, measured (ratio) | before the sweeps: said / took (ratio) | end | estimates of the time left: at t, said / took (ratio) |")
    print("|---|---:|---|---|---:|---|")
    for err in sorted(logs.glob("*.err")):
        text = err.read_text()
        if "Maximum resident set size" not in text:
            continue  # still running, or stopped
        result = json.loads(err.with_suffix(".json").read_text())
        end = result["seconds"]
        rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1)) * 1024
        peak = re.search(r"about ([0-9.]+ [KMGT]?i?B) at the peak", text)
        estimate = size_in_bytes(peak.group(1)) if peak else None
        memory = (f"{estimate / 2**30:.2f} GiB, {rss / 2**30:.2f} GiB ({rss / estimate:.2f})"
                  if estimate else f"-, {rss / 2**30:.2f} GiB")
        said = []
        for m in LINE.finditer(text):
            t = float(m["t"])
            r = float(m["r"]) * UNITS[m["unit"]]
            if r > 0:
                said.append((t, r, "narrowing" in m["basis"]))
        picks = []
        if said:
            picks.append(said[0])
            for share in (0.25, 0.5):
                picks.append(min(said, key=lambda s: abs(s[0] - share * end)))
            picks.append(next((s for s in said if s[2]), None))
        cells = []
        for s in dict.fromkeys(p for p in picks if p):
            t, r, narrowing = s
            kind = "N" if narrowing else "U"
            cells.append(f"{t:.0f} s {kind}: {r:.0f} / {end - t:.0f} s ({(end - t) / r:.2f})")
        print(f"| {err.stem} | {result.get('states', '-')} | {memory} | {preparation(text, result)} | {end:.0f} s | {'; '.join(cells)} |")
    print()
    print("U: from the usual work at the pace so far; N: from the openings' narrowing.")


if __name__ == "__main__":
    main()
