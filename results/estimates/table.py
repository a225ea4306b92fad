#!/usr/bin/env python3
"""Compares the estimates of each solve of a set in estimates.jsonl (extracted by
extract.py from the logs run.sh wrote) with what it took.

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

    python3 results/estimates/table.py [SET] [--data FILE]

SET: `logs` (the default), `logs-fresh`, `logs-games`, `logs-search`, `logs-faces`,
`logs-check`, `logs-sweeps`, `logs-first-value` (or the same without `logs-`); FILE: the
rows (default results/estimates/estimates.jsonl). A run without `time -v` figures or without
its result is left out (still running, or stopped).
"""
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent


def size_in_bytes(text):
    number, unit = text.split()
    return float(number) * {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}[unit]


def preparation(row, result):
    """The estimates before the first sweep against the times taken: the search (until the
    plan line), the sparse matrix (from the plan line to the end of the build), the game's
    classification (the build)."""
    cells = []
    build = result.get("build_seconds")
    said, took = row.get("search_estimate_s"), row.get("search_took_s")
    if said is not None and took is not None:
        cells.append(f"search {said:.1f} / {took:.1f} s ({took / said:.2f})")
        said = row.get("matrix_estimate_s")
        if said is not None and build:
            took = build - took
            cells.append(f"matrix {said:.1f} / {took:.1f} s ({took / said:.2f})")
    said = row.get("classify_estimate_s")
    if said is not None and build:
        cells.append(f"classification {said:.1f} / {build:.1f} s ({build / said:.2f})")
    return "; ".join(cells) or "-"


def main():
    args = sys.argv[1:]
    data = HERE / "estimates.jsonl"
    if "--data" in args:
        at = args.index("--data")
        data = pathlib.Path(args[at + 1])
        del args[at:at + 2]
    wanted = args[0] if args else "logs"
    if wanted != "logs" and not wanted.startswith("logs-"):
        wanted = f"logs-{wanted}"
    rows = [json.loads(l) for l in data.read_text().splitlines() if l.strip()]
    rows = [r for r in rows if r["set"] == wanted]
    if not rows:
        sys.exit(f"no runs of the set {wanted!r} in {data}")
    print("| solve | states | memory: estimate, measured (ratio) | before the sweeps: said / took (ratio) | end | estimates of the time left: at t, said / took (ratio) |")
    print("|---|---:|---|---|---:|---|")
    first_value = False
    for row in sorted(rows, key=lambda r: r["name"]):
        time_v, result = row["time_v"] or {}, row["result"]
        if "rss_kbytes" not in time_v or result is None:
            continue  # still running, or stopped
        end = result["seconds"]
        rss = time_v["rss_kbytes"] * 1024
        estimate = size_in_bytes(row["memory_estimate"]) if "memory_estimate" in row else None
        memory = (f"{estimate / 2**30:.2f} GiB, {rss / 2**30:.2f} GiB ({rss / estimate:.2f})"
                  if estimate else f"-, {rss / 2**30:.2f} GiB")
        said = []
        # A progress line: [what, index, of, work, width, t, more sweeps, r seconds, basis];
        # the last three where it estimates the time left. Lines of "1 more sweep" are
        # left out, as the table always did (it read "more sweeps").
        for line in row["progress"]:
            if len(line) < 9 or line[6] == 1:
                continue
            t, r, basis = line[5], line[7], line[8]
            if r > 0:
                said.append((t, r, basis))
        picks = []
        if said:
            picks.append(said[0])
            for share in (0.25, 0.5):
                picks.append(min(said, key=lambda s: abs(s[0] - share * end)))
            picks.append(next((s for s in said if s[2] == "N"), None))
        cells = []
        first_value = first_value or any(p and p[2] == "F" for p in picks)
        for s in dict.fromkeys(p for p in picks if p):
            t, r, kind = s
            cells.append(f"{t:.0f} s {kind}: {r:.0f} / {end - t:.0f} s ({(end - t) / r:.2f})")
        print(f"| {row['name']} | {result.get('states', '-')} | {memory} | {preparation(row, result)} | {end:.0f} s | {'; '.join(cells)} |")
    print()
    print("U: from the usual work at the pace so far; N: from the openings' narrowing"
          + ("; F: from the first value's blocks." if first_value else "."))


if __name__ == "__main__":
    main()
