#!/usr/bin/env bash
# What each player gives away to its best response from the entries into the part where both
# sides have a piece home (die 1..6 against 1..6):
#
#   bash results/best-response/run.sh BOARD [BINARY]   (BOARD: e.g. 40/20/3/4 or 40/20/4/4)
#
# 1. that part with both sides optimal, to TOLERANCE (default 1e-9), into OUT/optimal;
# 2. for each strategy of STRATEGIES (default frontmost,capture,safe,strong) on each side of
#    SEATS (default "a b"), the part with it fixed there and the other side optimal, into
#    OUT/a-NAME and OUT/b-NAME (`solve --layered --part both-home --strategy-a NAME`); with
#    SEATS=a, `grade` reads B's figures from A's pairs by the mirror (both sides roll 1..6),
#    half the solves;
# 3. `grade` of GAMES games (default 10,000) of strong against itself with --against-optimal
#    and every pair as --best-response: OUT/grade-BOARD-GAMES.json.
#
# Every solve writes its groups as it goes (--values-out) and a stopped run resumes at the
# first unfinished group: run it again with the same OUT. Each solve's report is OUT/*.json,
# its progress OUT/*.log and its resources OUT/*.time (`/usr/bin/time -v`). OUT defaults to
# target/best-response-BOARD; THREADS (default 1) are each solve's threads.
#
# OPTIMAL=DIR takes the optimal values from DIR, a folder that already holds the part (such as
# the one of `--part outside-core`, graded with `--part both-home`), instead of solving step 1. EACH=1 grades each strategy as
# soon as its pairs are solved, into OUT/grade-BOARD-GAMES-NAME.json, then removes the pairs'
# folders (on 40/20/4/4 a pair takes 21 GiB) and skips the strategy on a later run.
set -euo pipefail
cd "$(dirname "$0")/../.."
BOARD=${1:?BOARD, e.g. 40/20/3/4}
BIN=${2:-target/release/wuerfelglueck}
GAMES=${GAMES:-10000}
TOLERANCE=${TOLERANCE:-1e-9}
THREADS=${THREADS:-1}
STRATEGIES=${STRATEGIES:-frontmost,capture,safe,strong}
SEATS=${SEATS:-a b}
IFS=/ read -r TRACK OFFSET PIECES GOALS <<<"$BOARD"
NAME="$TRACK-$OFFSET-$PIECES-$GOALS"
OUT=${OUT:-target/best-response-$NAME}
mkdir -p "$OUT"
PART=(--a 1..6 --b 1..6 --track "$TRACK" --offset "$OFFSET" --pieces "$PIECES"
    --goal-fields "$GOALS" --profile choice --layered --part both-home
    --tolerance "$TOLERANCE" --threads "$THREADS")
solve() {
    local name=$1
    shift
    /usr/bin/time -v -o "$OUT/$name.time" "$BIN" solve "${PART[@]}" "$@" \
        --values-out "$OUT/$name" --format json >"$OUT/$name.json" 2>>"$OUT/$name.log"
}
for seat in $SEATS; do
    if [[ "$seat" != a && "$seat" != b ]]; then
        echo "SEATS: expected a, b or both, got $seat" >&2
        exit 2
    fi
done
if [ -n "${OPTIMAL:-}" ]; then
    if [ ! -d "$OPTIMAL" ]; then
        echo "OPTIMAL: $OPTIMAL is not a folder of values" >&2
        exit 2
    fi
else
    OPTIMAL=$OUT/optimal
    solve optimal
fi
grade() { # output, graded strategies, then the pairs as --best-response options
    local out=$1 graded=$2
    shift 2
    "$BIN" grade --values "$OPTIMAL" --part both-home --games "$GAMES" --against-optimal \
        --graded "$graded" "$@" --format json >"$out.new"
    mv "$out.new" "$out"
}
RESPONSES=()
GRADED=strong,strong-search,strong-search-2
IFS=, read -r -a NAMES <<<"$STRATEGIES"
for s in "${NAMES[@]}"; do
    if [[ ",$GRADED," != *",$s,"* ]]; then
        GRADED="$GRADED,$s"
    fi
    ONE=$OUT/grade-$NAME-$GAMES-$s.json
    if [ "${EACH:-0}" = 1 ] && [ -e "$ONE" ]; then
        continue
    fi
    PAIRS=()
    for seat in $SEATS; do
        solve "$seat-$s" "--strategy-$seat" "$s"
        PAIRS+=(--best-response "$OUT/$seat-$s")
    done
    if [ "${EACH:-0}" = 1 ]; then
        grade "$ONE" "$s" "${PAIRS[@]}"
        for seat in $SEATS; do
            rm -r "$OUT/$seat-$s"
        done
    else
        RESPONSES+=("${PAIRS[@]}")
    fi
done
if [ "${EACH:-0}" != 1 ]; then
    grade "$OUT/grade-$NAME-$GAMES.json" "$GRADED" "${RESPONSES[@]}"
fi
