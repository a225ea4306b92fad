#!/usr/bin/env python3
"""A table of the layered solver's runs on MPI ranks (the JSON reports scaling.sh writes):
per run, the seconds of all groups, of their sweeps and of the rest (classification,
ghost planning, gathering), the sweeps, the core's sweeps and seconds per sweep, the time per
state and sweep of the whole group count, and the states sent between ranks per state and
sweep; of the groups the run solved (those it read back from --values-out, solved by an
earlier run, are left out). Usage: summarize.py REPORT.json..."""
import json
import sys


def row(path):
    report = json.load(open(path))
    groups = [g for g in report["groups"] if not g.get("resumed")]
    total = sum(g["seconds"] for g in groups)
    sweeping = sum(g["sweep_seconds"] for g in groups)
    state_sweeps = sum(g["states"] * g["sweeps"] for g in groups)
    ghosts = sum((g.get("ranks") or {}).get("ghost_states", 0) * g["sweeps"] for g in groups)
    ranks = max([(g.get("ranks") or {}).get("ranks", 1) for g in groups])
    core = max(groups, key=lambda g: g["states"])
    return (
        f"| {path.split('/')[-1]} | {ranks} | {total:.1f} | {sweeping:.1f} | {total - sweeping:.1f} "
        f"| {sum(g['sweeps'] for g in groups)} | {core['states']:,} | {core['sweeps']} "
        f"| {core['sweep_seconds'] / core['sweeps']:.2f} | {sweeping / state_sweeps * 1e9:.0f} "
        f"| {ghosts / state_sweeps:.3f} | {16 * ghosts / state_sweeps:.1f} |"
    )


print(
    "| report | ranks | s, all groups | s, sweeps | s, the rest | sweeps | largest group "
    "| its sweeps | its s per sweep | ns per state and sweep (wall) | states sent per state "
    "and sweep | bytes sent per state and sweep |"
)
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for path in sys.argv[1:]:
    print(row(path))
