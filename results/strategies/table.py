"""Prints the round-robin tables of docs/src/choice.md from the JSON files run.sh writes
(in this folder, or in $RESULTS_DIR)."""
import json
import os

NAMES = ["frontmost", "rearmost", "capture", "safe", "random"]
HERE = os.environ.get("RESULTS_DIR") or os.path.dirname(os.path.abspath(__file__))

for profile, label in [("choice", "`choice`"), ("choice_capture-duty", "`choice+capture-duty`")]:
    print(f"Profile {label}:\n")
    print("| row vs column | " + " | ".join(NAMES) + " | mean |")
    print("|---" * (len(NAMES) + 2) + "|")
    for a in NAMES:
        cells, others = [], []
        for b in NAMES:
            path = os.path.join(HERE, profile, f"{a}-vs-{b}.json")
            if os.path.exists(path):
                d = json.load(open(path))
                p, (lo, hi) = d["p_a"], d["ci95"]
                first, second = d["p_a_if_a_starts"], d["p_a_if_b_starts"]
            else:
                d = json.load(open(os.path.join(HERE, profile, f"{b}-vs-{a}.json")))
                # Only the mirrored duel was played; every game ended, so the row's figures
                # are the complements (the Wilson interval is symmetric under k -> n - k).
                assert d["unfinished"] == 0, path
                p, lo, hi = d["p_b"], 1 - d["ci95"][1], 1 - d["ci95"][0]
                first, second = 1 - d["p_a_if_b_starts"], 1 - d["p_a_if_a_starts"]
            if a != b:
                others.append(p)
            cells.append(f"{p:.3f} [{lo:.3f}, {hi:.3f}]<br>{first:.3f} / {second:.3f}")
        print(f"| **{a}** | " + " | ".join(cells) + f" | {sum(others) / len(others):.3f} |")
    print()
