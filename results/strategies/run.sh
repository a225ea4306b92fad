#!/bin/sh
# The round robin of the heuristic strategies on the full board (docs/src/choice.md):
# every pair of strategies (each also against itself), die 1..6 for both players, both
# openings (each duel starts A in half of the games), under `choice` and
# `choice+capture-duty`. One JSON file per duel: PROFILE/A-vs-B.json.
# Usage: results/strategies/run.sh [BINARY] (default target/release/wuerfelglueck)
# For a small check (tests/results_scripts.rs): OUT=DIR writes there instead of this folder,
# GAMES=N plays N games a duel instead of to a precision of 0.001, BOARD="--track 16 ..."
# adds board options.
set -eu
bin=${1:-target/release/wuerfelglueck}
here=${OUT:-$(dirname "$0")}
games="--precision 0.001"
[ -n "${GAMES:-}" ] && games="--games $GAMES"
strategies="frontmost rearmost capture safe random"
for profile in choice choice+capture-duty; do
    dir="$here/$(echo "$profile" | tr '+' '_')"
    mkdir -p "$dir"
    i=0
    for a in $strategies; do
        j=0
        for b in $strategies; do
            if [ "$j" -ge "$i" ]; then
                # shellcheck disable=SC2086
                "$bin" duel --a 1..6 --b 1..6 --profile "$profile" ${BOARD:-} \
                    --strategy-a "$a" --strategy-b "$b" \
                    $games --seed 11 --format json > "$dir/$a-vs-$b.json"
            fi
            j=$((j + 1))
        done
        i=$((i + 1))
    done
done
