#!/usr/bin/env bash
# The lambda of the core's returns: on 40/20/2/4 (or BOARD), the groups outside the core
# solved to 1e-6, then a player trained on them with lambda 0.7, 0 and 1 (1,000,000 games
# each, or GAMES; otherwise as run.sh trains), and the exploitability in points (seat A) of
# strong and strong-search with each. One line per player and strategy on stdout; the files
# go to WORK (default: a new temporary folder).
#
#   bash results/strong-outside-core/lambda-40-20-2-4.sh [BINARY] > lambda-40-20-2-4.txt
set -euo pipefail
B=${1:-wuerfelglueck}
case "$B" in /*) ;; */*) B="$PWD/$B" ;; esac
BOARD=${BOARD:-40/20/2/4}
GAMES=${GAMES:-1000000}
IFS=/ read -r TRACK OFFSET PIECES GOALS <<<"$BOARD"
G=(--track "$TRACK" --offset "$OFFSET" --pieces "$PIECES" --goal-fields "$GOALS" --profile choice)
WORK=${WORK:-$(mktemp -d)}
mkdir -p "$WORK"
cd "$WORK"
"$B" solve --a 1..6 --b 1..6 "${G[@]}" --layered --part outside-core --tolerance 1e-6 \
    --values-out v --format json >solve.json 2>/dev/null
for lam in 0.7 0 1; do
    "$B" train "${G[@]}" --seed 1 --games "$GAMES" --hidden 256 --rate 0.1,0.001 --lambda "$lam" \
        --targets exact --values v --positions every-roll --out "p-$lam.json" --overwrite \
        --format json >"t-$lam.json" 2>/dev/null
    for s in strong strong-search; do
        "$B" solve --a 1..6 --b 1..6 "${G[@]}" --tolerance 1e-9 --strategy-a "$s:p-$lam.json" \
            --format json 2>/dev/null |
            python3 -c "import json,sys;d=json.load(sys.stdin);print('lambda $lam $s exploitability', round(100*(0.5-d['p_a']),3))"
    done
done
