#!/usr/bin/env bash
# Tables of three and four under `choice`: the heuristics and the learned table players
# (`strong`) against each other, 1..6 for every seat, every seating equally often, seed 24;
# the tables with `strong` also count each die's decisions (--style). One JSON per table in results/tables-choice/;
# a file already there is kept. Run from the repository root after `cargo build --release`.
# For a small check (tests/results_scripts.rs): OUT=DIR writes there instead of this folder,
# GAMES=N plays N games a table instead of each table's count.
set -euo pipefail
BIN=${BIN:-target/release/wuerfelglueck}
OUT=${OUT:-results/tables-choice}
mkdir -p "$OUT"
run() {
    local name=$1 games=$2
    shift 2
    local out="$OUT/$name.json"
    games=${GAMES:-$games}
    [ -e "$out" ] && return
    local dice=()
    for _ in "$@"; do dice+=(--die 1..6); done
    local strategies=()
    for s in "$@"; do strategies+=(--strategy "$s"); done
    local style=()
    [[ " $* " == *" strong "* ]] && style=(--style)
    "$BIN" table "${dice[@]}" --profile choice "${strategies[@]}" --games "$games" --seed 24 \
        "${style[@]}" --format json > "$out.part"
    mv "$out.part" "$out"
}
run four-heuristics 2400000 safe capture frontmost random
run four-safe-vs-frontmost 2400000 safe frontmost frontmost frontmost
run four-safe-vs-capture 2400000 safe capture capture capture
run four-capture-vs-safe 2400000 capture safe safe safe
run four-frontmost-vs-safe 2400000 frontmost safe safe safe
run three-heuristics 1200000 safe capture frontmost
run three-safe-vs-frontmost 1200000 safe frontmost frontmost
run three-frontmost-vs-safe 1200000 frontmost safe safe
run four-strong-vs-safe 960000 strong safe safe safe
run four-strong-vs-capture 960000 strong capture capture capture
run four-strong-vs-frontmost 960000 strong frontmost frontmost frontmost
run four-strong-mixed 960000 strong safe capture frontmost
run four-safe-vs-strong 960000 safe strong strong strong
run three-strong-vs-safe 600000 strong safe safe
run three-strong-vs-capture 600000 strong capture capture
run three-strong-mixed 600000 strong safe capture
run three-safe-vs-strong 600000 safe strong strong
run four-strong 960000 strong strong strong strong
run three-strong 600000 strong strong strong
