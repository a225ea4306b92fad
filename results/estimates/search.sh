#!/usr/bin/env bash
# The matrix-free solver's search for the reachable states, timed alone: each solve is
# stopped once it has printed how long the search took ("reachable states found in X s"),
# so the set runs in minutes. The cases are the matrix-free solves of the other sets.
#
#     bash results/estimates/search.sh [BINARY] [DIR] [ROWS] [small]     (from the repository root)
#
# Writes DIR/NAME.err (default DIR: target/estimates/logs-search-rows), then the rows of set
# `logs-search-rows` in ROWS (default results/estimates/estimates.jsonl) with extract.py.
# `small`: one search of seconds on 16/8/4/4 instead (set `logs-small-search`), to check
# that the script runs (tests/results_scripts.rs); give it a ROWS outside the repository.
set -euo pipefail
BIN=${1:-target/release/wuerfelglueck}
OUT=${2:-target/estimates/logs-search-rows}
ROWS=${3:-results/estimates/estimates.jsonl}
SMALL=${4:-}
HERE=$(dirname "$0")
mkdir -p "$OUT"
FULL=(--track 40 --offset 20 --pieces 4 --goal-fields 4)
T20=(--track 20 --offset 10 --pieces 4 --goal-fields 4)
search() {
    local name=${1//,/+}
    shift
    "$BIN" solve "$@" --matrix-free >/dev/null 2>"$OUT/$name.err" &
    local pid=$!
    until grep -q "reachable states found in" "$OUT/$name.err" || ! kill -0 "$pid" 2>/dev/null; do
        sleep 0.2
    done
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    grep -m1 "joint indices" "$OUT/$name.err"
    grep -m1 "reachable states found in" "$OUT/$name.err"
}
if [ "$SMALL" = small ]; then
    search 16-8-4-4-1..6-vs-1..6 --a 1..6 --b 1..6 --track 16 --offset 8 --pieces 4 --goal-fields 4 --tolerance 1e-9
    python3 "$HERE/extract.py" logs-small-search "$OUT" "$ROWS"
    exit 0
fi
search full-1..6-vs-1..6 --a 1..6 --b 1..6 "${FULL[@]}" --tolerance 1e-9
search full-1..6-vs-1,1,1,6,6,6 --a 1..6 --b 1,1,1,6,6,6 "${FULL[@]}" --tolerance 1e-9
RAYON_NUM_THREADS=1 search full-1..6-vs-1,1,1,6,6,6-one-thread --a 1..6 --b 1,1,1,6,6,6 "${FULL[@]}" --tolerance 1e-9
search full-1,2,5,6-vs-1..6 --a 1,2,5,6 --b 1..6 "${FULL[@]}" --tolerance 1e-6
search 20-10-4-4-4..9-vs-5..10 --a 4..9 --b 5..10 "${T20[@]}" --tolerance 1e-9
search full-1..6-vs-2..7 --a 1..6 --b 2..7 "${FULL[@]}" --tolerance 1e-9
search full-1..6-vs-4..9 --a 1..6 --b 4..9 "${FULL[@]}" --tolerance 1e-6
search full-3..8-vs-6..11 --a 3..8 --b 6..11 "${FULL[@]}" --tolerance 1e-9
search full-2..7-vs-3..8 --a 2..7 --b 3..8 "${FULL[@]}" --tolerance 1e-6
RAYON_NUM_THREADS=1 search full-1..6-vs-3..8-one-thread --a 1..6 --b 3..8 "${FULL[@]}" --tolerance 1e-6
python3 "$HERE/extract.py" logs-search-rows "$OUT" "$ROWS"
