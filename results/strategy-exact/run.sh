#!/bin/sh
# The exact figures of "The game with choices" in the book (docs/src/choice.md).
# 1. die 1..6 against 1..6 under `choice`: both optimal (with how they play, --style),
#    optimal against frontmost (both ways) and both frontmost, on every board solved;
# 2. the rankings of the four BwInf files under `bwinf` and under `choice` (both players
#    optimal), every pair solved exactly; solved pairs are kept in store-BOARD/ so an
#    interrupted run resumes where it stopped.
# Usage: results/strategy-exact/run.sh [BINARY] [BOARDS...]
#   (default target/release/wuerfelglueck; boards as TRACK-OFFSET-PIECES-GOAL)
# Run from the repository root. OUT=DIR writes there instead of this folder (a small check:
# tests/results_scripts.rs runs board 16-8-2-2).
set -eu
bin=${1:-target/release/wuerfelglueck}
[ $# -gt 0 ] && shift
boards=${*:-"40-20-1-4 16-8-2-2 20-10-2-2 40-20-2-4"}
here=${OUT:-$(dirname "$0")}
mkdir -p "$here"
for board in $boards; do
    set -- $(echo "$board" | tr '-' ' ')
    geometry="--track $1 --offset $2 --pieces $3 --goal-fields $4"
    for pair in optimal-optimal optimal-frontmost frontmost-optimal frontmost-frontmost; do
        a=${pair%-*}
        b=${pair#*-}
        out="$here/1..6-vs-1..6-$board-$a-vs-$b.json"
        [ -s "$out" ] && continue
        # How the optimal pair plays (--style) is told of the optimal pair only.
        style=""
        [ "$pair" = optimal-optimal ] && style="--style"
        # shellcheck disable=SC2086
        "$bin" solve --a 1..6 --b 1..6 $geometry --profile choice --tolerance 1e-9 \
            --strategy-a "$a" --strategy-b "$b" $style --format json > "$out.part"
        mv "$out.part" "$out"
    done
    for profile in bwinf choice; do
        for file in data/wuerfel0.txt data/wuerfel1.txt data/wuerfel2.txt data/wuerfel3.txt; do
            name=$(basename "$file" .txt)
            out="$here/ranking-$board-$profile-$name.json"
            [ -s "$out" ] && continue
            # shellcheck disable=SC2086
            "$bin" rank "$file" --exact $geometry --profile "$profile" --tolerance 1e-9 \
                --store "$here/store-$board" --format json > "$out.part"
            mv "$out.part" "$out"
        done
    done
done
