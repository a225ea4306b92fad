#!/usr/bin/env bash
# The choice of the exact-value training's settings, measured on 40/20/2/4: each line trains a
# player with `train --targets exact` (seed 1, the settings named) and solves exactly what a
# best response gains against it in seat A (the game value is 0.5 by symmetry). One JSON line
# per setting is appended to grid-40-20-2-4.jsonl.
#
#   bash results/strong-training/grid.sh [BINARY]   (default: target/release/wuerfelglueck)
#
# About 40 minutes on two idle cores. The 512-unit line needs a build whose MAX_HIDDEN
# (src/strategy/network.rs) is 512; with the shipped limit of 256 it is refused and skipped.
#
# For a small check (tests/results_scripts.rs): OUT=FILE appends there instead, BOARD="..."
# trains and solves on another board (default "--track 40 --offset 20 --pieces 2
# --goal-fields 4"), GAMES=N trains on N games, MEASURES=N runs the first N lines only.
set -euo pipefail
BIN=${1:-target/release/wuerfelglueck}
case $BIN in /*) ;; */*) BIN=$PWD/$BIN ;; esac
if [ -n "${OUT:-}" ]; then
    touch "$OUT"
    OUT=$(cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT")
fi
cd "$(dirname "$0")/../.."
OUT=${OUT:-results/strong-training/grid-40-20-2-4.jsonl}
read -r -a BOARD <<< "${BOARD:---track 40 --offset 20 --pieces 2 --goal-fields 4}"
MEASURED=0
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
measure() { # label, then train's options
    local label=$1
    shift
    MEASURED=$((MEASURED + 1))
    if [ -n "${MEASURES:-}" ] && [ "$MEASURED" -gt "$MEASURES" ]; then
        return
    fi
    local options=("$@")
    if [ -n "${GAMES:-}" ]; then
        for i in "${!options[@]}"; do
            [ "${options[$i]}" = --games ] && options[i + 1]=$GAMES
        done
    fi
    set -- "${options[@]}"
    local started=$SECONDS
    if ! "$BIN" train "${BOARD[@]}" --targets exact "$@" \
        --out "$DIR/p.json" --overwrite > "$DIR/train.txt" 2>&1; then
        echo "$label: not trained: $(tail -1 "$DIR/train.txt")" >&2
        return
    fi
    local seconds=$((SECONDS - started))
    "$BIN" solve --a 1..6 --b 1..6 "${BOARD[@]}" --profile choice --tolerance 1e-9 --format json \
        --strategy-a "strong${SEARCH:-}:$DIR/p.json" 2>/dev/null |
        python3 -c 'import json, sys
r = json.load(sys.stdin)
assert r["figures_certified"]
print(json.dumps({"setting": sys.argv[1], "options": sys.argv[2], "train_seconds": int(sys.argv[3]),
                  "exploitability_points": round(100 * (0.5 - r["p_a"]), 4)}))' \
        "$label${SEARCH:+ with one roll of look-ahead}" "$*" "$seconds" | tee -a "$OUT"
}
measure "64 units, 1M games, rate 0.02 to 0.002" --games 1000000 --hidden 64 --rate 0.02,0.002
measure "64 units, 4M games, rate 0.02 to 0.002" --games 4000000 --hidden 64 --rate 0.02,0.002
measure "128 units, 1M games, rate 0.02 to 0.002" --games 1000000 --hidden 128 --rate 0.02,0.002
measure "64 units, 1M games, random moves 0.2" --games 1000000 --hidden 64 --rate 0.02,0.002 --explore 0.2
measure "64 units, 1M games, no random moves" --games 1000000 --hidden 64 --rate 0.02,0.002 --explore 0
measure "64 units, 1M games, rate 0.01 to 0.001" --games 1000000 --hidden 64 --rate 0.01,0.001
measure "64 units, 1M games, rate 0.05 to 0.002" --games 1000000 --hidden 64 --rate 0.05,0.002
measure "64 units, 1M games, rate 0.1 to 0.002" --games 1000000 --hidden 64 --rate 0.1,0.002
measure "64 units, 1M games, rate 0.2 to 0.002" --games 1000000 --hidden 64 --rate 0.2,0.002
measure "64 units, 1M games, rate 0.1 to 0.01" --games 1000000 --hidden 64 --rate 0.1,0.01
measure "64 units, 1M games, rate 0.1 to 0.0005" --games 1000000 --hidden 64 --rate 0.1,0.0005
measure "64 units, 4M games, rate 0.1 to 0.001" --games 4000000 --hidden 64 --rate 0.1,0.001
SEARCH=-search measure "64 units, 4M games, rate 0.1 to 0.001" --games 4000000 --hidden 64 --rate 0.1,0.001
measure "128 units, 1M games, rate 0.1 to 0.001" --games 1000000 --hidden 128 --rate 0.1,0.001
measure "256 units, 1M games, rate 0.1 to 0.001" --games 1000000 --hidden 256 --rate 0.1,0.001
measure "512 units, 1M games, rate 0.1 to 0.001" --games 1000000 --hidden 512 --rate 0.1,0.001
SEARCH=-search measure "256 units, 1M games, rate 0.1 to 0.001" --games 1000000 --hidden 256 --rate 0.1,0.001
measure "64 units, 1M games, rate 0.1 to 0.001, the position before every roll too" --games 1000000 --hidden 64 --rate 0.1,0.001 --positions every-roll
SEARCH=-search measure "64 units, 1M games, rate 0.1 to 0.001, the position before every roll too" --games 1000000 --hidden 64 --rate 0.1,0.001 --positions every-roll
measure "256 units, 1M games, rate 0.1 to 0.001, the position before every roll too" --games 1000000 --hidden 256 --rate 0.1,0.001 --positions every-roll
SEARCH=-search measure "256 units, 1M games, rate 0.1 to 0.001, the position before every roll too" --games 1000000 --hidden 256 --rate 0.1,0.001 --positions every-roll
