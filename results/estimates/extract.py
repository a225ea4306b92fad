#!/usr/bin/env python3
"""Turns the logs of run.sh and search.sh (a folder of NAME.err, stderr with the `time -v`
figures, and NAME.json, the solve's result) into rows of estimates.jsonl: one JSON object a
run, with every figure the logs held in compact form (see README.md for the fields).

    python3 results/estimates/extract.py SET DIR [OUT]

SET names the set in the rows (`logs`, `logs-fresh`, ...: the folders the runs of the book
were written to); rows of that set already in OUT (default results/estimates/estimates.jsonl)
are replaced, the others kept, and the file is sorted by set and name. A name's `+` is
written `,` (the dice as the solve prints them: run.sh names its files without commas).
"""
import json
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
UNITS = {"s": 1, "min": 60, "h": 3600}
PREFIX = re.compile(r"^(solve|exact \d+/\d+: \S+ vs \S+): ")
JOINT = re.compile(r"^(?P<n>\d+) joint indices")
SEARCH = re.compile(r"finding the reachable states, about (?P<r>[0-9.]+) (?P<unit>s|min|h) \(estimate\)")
FOUND = re.compile(r"^(?P<states>\d+) reachable states found in (?P<t>[0-9.]+) s(?P<note> \([^)]*times the estimate\))?; (?P<solver>.*?) solver")
PEAK = re.compile(r"about (?P<peak>[0-9.]+ [KMGT]?i?B) at the peak(?:, (?P<chain>[0-9.]+ [KMGT]?i?B) if the pair's chain)?")
MATRIX = re.compile(r"building the matrix, about (?P<r>[0-9.]+) (?P<unit>s|min|h) \(estimate\)")
CLASSIFY = re.compile(r"classifying the states, about (?P<r>[0-9.]+) (?P<unit>s|min|h) \(estimate\)")
CLASSIFIED = re.compile(r"^(?P<states>\d+) reachable states classified after (?P<t>[0-9.]+) s")
PROGRESS = re.compile(
    r"^(?:block (?P<block>\d+) of (?P<of>\d+), (?P<work>[0-9.]+) sweep equivalents"
    r"|openings, (?P<owork>[0-9.]+) sweep equivalents"
    r"|value sweep (?P<sweep>\d+)), width (?P<width>\S+), (?P<t>[0-9.]+) s"
    r"(?:; about (?P<more>\d+) more sweeps?, (?P<r>[0-9.]+) (?P<unit>s|min|h) \((?P<basis>[^)]*)\))?$"
)
TIME_V = {
    "Command being timed": ("command", lambda v: v.strip('"')),
    "Maximum resident set size (kbytes)": ("rss_kbytes", int),
    "Elapsed (wall clock) time (h:mm:ss or m:ss)": ("elapsed", str),
    "User time (seconds)": ("user_seconds", float),
    "System time (seconds)": ("system_seconds", float),
    "Exit status": ("exit_status", int),
}


def basis(text):
    """U: the usual work at the pace so far; N: the openings' narrowing; F: the first
    value's blocks."""
    if "narrowing" in text:
        return "N"
    if "first value" in text:
        return "F"
    if "usual work" in text:
        return "U"
    raise ValueError(f"unknown basis {text!r}")


def seconds(m):
    return float(m["r"]) * UNITS[m["unit"]] if m else None


def parse(err):
    row = {"progress": [], "other": []}
    time_v = {}
    for line in err.read_text().splitlines():
        if line.startswith("\t"):
            key, _, value = line.strip().partition(": ")
            if key in TIME_V:
                field, kind = TIME_V[key]
                time_v[field] = kind(value)
            continue
        prefix = PREFIX.match(line)
        text = line[prefix.end():] if prefix else line
        if prefix and prefix.group(1) != "solve":
            row["pair"] = prefix.group(1)
        if m := PROGRESS.match(text):
            if m["block"]:
                what = ["block", int(m["block"]), int(m["of"]), float(m["work"])]
            elif m["owork"]:
                what = ["openings", None, None, float(m["owork"])]
            else:
                what = ["value sweep", int(m["sweep"]), None, None]
            estimate = [int(m["more"]), seconds(m), basis(m["basis"])] if m["r"] else []
            row["progress"].append(what + [m["width"], float(m["t"])] + estimate)
            continue
        used = False
        if m := JOINT.match(text):
            row["joint_indices"] = int(m["n"])
            used = True
        if m := FOUND.match(text):
            row["states"] = int(m["states"])
            row["search_took_s"] = float(m["t"])
            row["solver"] = m["solver"]
            if m["note"]:
                row["search_note"] = m["note"].strip(" ()")
            used = True
        if m := CLASSIFIED.match(text):
            row["states"] = int(m["states"])
            row["classified_after_s"] = float(m["t"])
            used = True
        if m := PEAK.search(text):
            row["memory_estimate"] = m["peak"]
            if m["chain"]:
                row["memory_with_chain_estimate"] = m["chain"]
        for field, pattern in (("search", SEARCH), ("matrix", MATRIX), ("classify", CLASSIFY)):
            if m := pattern.search(text):
                row[f"{field}_estimate_s"] = seconds(m)
        if not used:
            row["other"].append(line)
    # The preamble lines are held in the fields above; keep verbatim only what is not.
    row["other"] = [l for l in row["other"] if not (PEAK.search(l) or SEARCH.search(l)
                                                   or CLASSIFY.search(l))]
    if not row["other"]:
        del row["other"]
    row["time_v"] = time_v or None
    return row


def script_commands():
    """The command of each run in run.sh and search.sh (`BIN` for the binary), by name: for
    the logs without `time -v` figures."""
    commands = {}
    for script, sub in (("run.sh", "solve"), ("search.sh", "solve")):
        arrays = {}
        for line in (HERE / script).read_text().splitlines():
            line = line.strip()
            if m := re.match(r"^(\w+)=\((.*)\)$", line):
                arrays[m[1]] = m[2]
                continue
            m = re.match(r"^(RAYON_NUM_THREADS=1 )?(run|search) (\S+) (.*)$", line)
            if not m:
                continue
            args = re.sub(r'"\$\{(\w+)\[@\]\}"', lambda a: arrays[a[1]], m[4])
            extra = " --matrix-free" if m[2] == "search" else " --format json"
            commands.setdefault((script, m[3].replace("+", ",")),
                                f"{m[1] or ''}BIN {sub} {args}{extra}")
    return commands


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    name_of_set, folder = sys.argv[1], pathlib.Path(sys.argv[2])
    out = pathlib.Path(sys.argv[3]) if len(sys.argv) > 3 else HERE / "estimates.jsonl"
    rows = []
    if out.exists():
        rows = [json.loads(l) for l in out.read_text().splitlines() if l.strip()]
        rows = [r for r in rows if r["set"] != name_of_set]
    for err in sorted(folder.glob("*.err")):
        row = {"set": name_of_set, "name": err.stem.replace("+", ",")}
        row.update(parse(err))
        timed = (row["time_v"] or {}).get("command")
        script = "search.sh" if name_of_set in ("logs-search-rows", "logs-small-search") else "run.sh"
        row["command"] = timed or script_commands().get((script, row["name"]))
        result = err.with_suffix(".json")
        row["result"] = json.loads(result.read_text()) if result.exists() and result.stat().st_size else None
        rows.append(row)
    rows.sort(key=lambda r: (r["set"], r["name"]))
    with open(out, "w") as f:
        for row in rows:
            f.write(json.dumps(row, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
