#!/usr/bin/env bash
# The estimates a long solve prints (states, memory, time still to go) against what the run
# then took: each solve's progress lines and `/usr/bin/time -v` figures (stderr) go to
# DIR/NAME.err, its JSON result to DIR/NAME.json; extract.py then writes one row a solve to
# ROWS (the set's earlier rows replaced), and `python3 table.py logs-SET` compares them.
#
#     bash results/estimates/run.sh [BINARY] [SET] [DIR] [ROWS]     (from the repository root)
#
# BINARY: default target/release/wuerfelglueck. DIR: where the logs go, default
# target/estimates/logs-SET (logs stay out of the repository). ROWS: default
# results/estimates/estimates.jsonl, where the rows of the book's runs are.
#
# `tuned` (the default): the seven solves the estimates were tuned on (set `logs`).
# `fresh`: six solves none of the estimates was tuned on (other dice, other boards), set
# `logs-fresh` (`python3 table.py logs-fresh`).
# `games`: four games with choices none of the estimates was tuned on (`logs-games`):
# they check the game solver's usual work by pieces and its later trust in the narrowing.
# `search`: eight solves none of the above contains (`logs-search`): they check the
# estimates of what runs before the first sweep (the state search, the sparse matrix, the
# game's classification), which were fitted to the three sets above, two of them on one
# thread.
# `faces`: three sparse solves with dice of two to six distinct faces (`logs-faces`):
# they check the sparse search's estimate per face, chosen after `search`.
# `check`: two sparse solves run after the sparse matrix's estimate per face was chosen (after
# `faces`), `logs-check`.
# `sweeps`: three solves with dice of few faces, run after the usual work was made to depend
# on the faces (after `check`), `logs-sweeps`.
# `small`: one solve of seconds on 14/7/4/4 (set `logs-small`), to check that the scripts run
# (tests/results_scripts.rs); give it a ROWS outside the repository.
set -euo pipefail
BIN=${1:-target/release/wuerfelglueck}
SET=${2:-tuned}
NAME=logs
[ "$SET" = tuned ] || NAME=logs-$SET
OUT=${3:-target/estimates/$NAME}
ROWS=${4:-results/estimates/estimates.jsonl}
HERE=$(dirname "$0")
mkdir -p "$OUT"
# File names without commas: the dice's commas become `+` (extract.py writes them back).
run() {
    local name=${1//,/+}
    shift
    /usr/bin/time -v "$BIN" solve "$@" --format json >"$OUT/$name.json" 2>"$OUT/$name.err"
}
extract() {
    python3 "$HERE/extract.py" "$NAME" "$OUT" "$ROWS"
}
FULL=(--track 40 --offset 20 --pieces 4 --goal-fields 4)
T20=(--track 20 --offset 10 --pieces 4 --goal-fields 4)
if [ "$SET" = small ]; then
    run 14-7-4-4-1..6-vs-1..6 --a 1..6 --b 1..6 --track 14 --offset 7 --pieces 4 --goal-fields 4 --tolerance 1e-4
    extract
    exit 0
fi
if [ "$SET" = fresh ]; then
    run full-1..6-vs-2..7 --a 1..6 --b 2..7 "${FULL[@]}" --tolerance 1e-9
    run full-3..8-vs-6..11 --a 3..8 --b 6..11 "${FULL[@]}" --tolerance 1e-9
    run full-1..6-vs-4..9-1e-6 --a 1..6 --b 4..9 "${FULL[@]}" --tolerance 1e-6
    run 20-10-4-4-2..7-vs-4..9 --a 2..7 --b 4..9 "${T20[@]}" --tolerance 1e-9
    run choice-24-12-3-4 --a 1..6 --b 1..6 --track 24 --offset 12 --pieces 3 --goal-fields 4 --profile choice --tolerance 1e-9
    run choice-30-15-3-4-1..6-vs-2..7 --a 1..6 --b 2..7 --track 30 --offset 15 --pieces 3 --goal-fields 4 --profile choice --tolerance 1e-9
    extract
    exit 0
fi
if [ "$SET" = search ]; then
    T24=(--track 24 --offset 12 --pieces 4 --goal-fields 4)
    run full-2..7-vs-3..8-1e-6 --a 2..7 --b 3..8 "${FULL[@]}" --tolerance 1e-6
    RAYON_NUM_THREADS=1 run full-1..6-vs-3..8-1e-6-one-thread --a 1..6 --b 3..8 "${FULL[@]}" --tolerance 1e-6
    run full-1,1,1,6,6,6-vs-3..8-1e-6 --a 1,1,1,6,6,6 --b 3..8 "${FULL[@]}" --tolerance 1e-6
    run 24-12-4-4-1..6-vs-3..8-1e-6 --a 1..6 --b 3..8 "${T24[@]}" --tolerance 1e-6
    run 22-11-4-4-2..7-vs-2..7-1e-6 --a 2..7 --b 2..7 --track 22 --offset 11 --pieces 4 --goal-fields 4 --tolerance 1e-6
    CHOICE=(--profile choice --tolerance 1e-6)
    run choice-32-16-3-4-1e-6 --a 1..6 --b 1..6 --track 32 --offset 16 --pieces 3 --goal-fields 4 "${CHOICE[@]}"
    RAYON_NUM_THREADS=1 run choice-26-13-3-4-2..7-vs-3..8-1e-6-one-thread --a 2..7 --b 3..8 --track 26 --offset 13 --pieces 3 --goal-fields 4 "${CHOICE[@]}"
    run choice-18-9-4-4-1e-6 --a 1..6 --b 1..6 --track 18 --offset 9 --pieces 4 --goal-fields 4 "${CHOICE[@]}"
    extract
    exit 0
fi
if [ "$SET" = faces ]; then
    run full-1,1,1,1,6,6-vs-2..7-1e-6 --a 1,1,1,1,6,6 --b 2..7 "${FULL[@]}" --tolerance 1e-6
    run 22-11-4-4-1,3,6-vs-2,4,6-1e-6 --a 1,3,6 --b 2,4,6 --track 22 --offset 11 --pieces 4 --goal-fields 4 --tolerance 1e-6
    run 24-12-4-4-1,2,6-vs-1..6-1e-6 --a 1,2,6 --b 1..6 --track 24 --offset 12 --pieces 4 --goal-fields 4 --tolerance 1e-6
    extract
    exit 0
fi
if [ "$SET" = check ]; then
    run 20-10-4-4-1,6-vs-3..8-1e-6 --a 1,6 --b 3..8 "${T20[@]}" --tolerance 1e-6
    run full-1,6-vs-1,2,3,4,6-1e-6 --a 1,6 --b 1,2,3,4,6 "${FULL[@]}" --tolerance 1e-6
    extract
    exit 0
fi
if [ "$SET" = sweeps ]; then
    T24=(--track 24 --offset 12 --pieces 4 --goal-fields 4)
    run full-1,1,6-vs-2..7-1e-6 --a 1,1,6 --b 2..7 "${FULL[@]}" --tolerance 1e-6
    run 24-12-4-4-1,3,6-vs-1..6-1e-6 --a 1,3,6 --b 1..6 "${T24[@]}" --tolerance 1e-6
    run 24-12-4-4-1,4,6-vs-2,3,6 --a 1,4,6 --b 2,3,6 "${T24[@]}" --tolerance 1e-9
    extract
    exit 0
fi
if [ "$SET" = games ]; then
    CHOICE=(--profile choice --tolerance 1e-9)
    run choice-28-14-3-4-1..6-vs-3..8 --a 1..6 --b 3..8 --track 28 --offset 14 --pieces 3 --goal-fields 4 "${CHOICE[@]}"
    run choice-16-8-4-4 --a 1..6 --b 1..6 --track 16 --offset 8 --pieces 4 --goal-fields 4 "${CHOICE[@]}"
    run choice-20-10-3-4-2..7-vs-1..6 --a 2..7 --b 1..6 --track 20 --offset 10 --pieces 3 --goal-fields 4 "${CHOICE[@]}"
    run choice-36-18-3-4 --a 1..6 --b 1..6 --track 36 --offset 18 --pieces 3 --goal-fields 4 "${CHOICE[@]}"
    extract
    exit 0
fi
run full-1..6-vs-1..6 --a 1..6 --b 1..6 "${FULL[@]}" --tolerance 1e-9
run full-1..6-vs-1,1,1,6,6,6-matrix-free --a 1..6 --b 1,1,1,6,6,6 "${FULL[@]}" --tolerance 1e-9 --matrix-free
run full-1..6-vs-1,1,1,6,6,6-sparse --a 1..6 --b 1,1,1,6,6,6 "${FULL[@]}" --tolerance 1e-9
run full-1,2,5,6-vs-1..6-1e-6 --a 1,2,5,6 --b 1..6 "${FULL[@]}" --tolerance 1e-6
run 20-10-4-4-4..9-vs-5..10-matrix-free --a 4..9 --b 5..10 "${T20[@]}" --tolerance 1e-9 --matrix-free
run 20-10-4-4-1..6-vs-1..6-sparse --a 1..6 --b 1..6 "${T20[@]}" --tolerance 1e-9
run choice-30-15-3-4 --a 1..6 --b 1..6 --track 30 --offset 15 --pieces 3 --goal-fields 4 --profile choice --tolerance 1e-9
extract
