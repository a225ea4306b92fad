#!/usr/bin/env bash
# Every record of the real board's part outside its core, made from one values folder, step
# by step; a step whose output is there is skipped and a stopped solve resumes, so the same
# command goes on wherever the last run stopped:
#
#   bash results/real-board/run.sh VALUES_DIR [BINARY]
#
# 1. the part outside the core, 1..6 against 1..6, to 1e-6: VALUES_DIR/1..6 (`solve
#    --layered --part outside-core --values-out`), its report OUT/outside-core-1..6.json;
# 2. GAMES games (default 10,000) of strong against itself graded at every decision the
#    folder holds, and with --against-optimal: OUT/grade-strong-GAMES.json;
# 3. what each of STRATEGIES (default frontmost,capture,safe,strong) gives away to its best
#    response where both sides have a piece home: results/best-response/run.sh with
#    OPTIMAL=VALUES_DIR/1..6, seat A only (B read by the mirror), each strategy graded and its
#    pair's folder removed before the next (EACH=1): OUT/best-response/grade-*.json;
# 4. a player trained with the folder's exact values (the core from TD(0) returns), as
#    results/strong-outside-core/run.sh trains on the smaller boards, on one thread so the
#    same folder gives the same file: OUT/strong-BOARD-choice-outside-core.json; then DUEL
#    games (default 200,000) of it against the shipped player, and the grading of step 2
#    with both: OUT/duel-outside-core-player-vs-strong-DUEL.json,
#    OUT/grade-outside-core-player-GAMES.json;
# 5. the part where both sides have a piece home for 1..6 against 2..7 (the two best dice of
#    wuerfel1.txt): VALUES_DIR/1..6-vs-2..7, its report OUT/both-home-1..6-vs-2..7.json.
#
# OUT (default target/real-board-BOARD) gets the records, which are copied into
# results/real-board/ by hand; BOARD (default 40/20/4/4) and TRAIN_GAMES (default 4,000,000)
# are for trying it on a small board; THREADS (default: every core) are the threads of every
# step but the training. On
# 40/20/4/4 it takes some 60 GB of disk for the values, 22.6 GiB more while a best-response
# pair is solved, and days of two cores (results/real-board/README.md: what it takes).
set -euo pipefail
cd "$(dirname "$0")/../.."
VALUES=${1:?VALUES_DIR, the folder of the values (kept from one run to the next)}
BIN=${2:-target/release/wuerfelglueck}
BOARD=${BOARD:-40/20/4/4}
GAMES=${GAMES:-10000}
DUEL=${DUEL:-200000}
TRAIN_GAMES=${TRAIN_GAMES:-4000000}
STRATEGIES=${STRATEGIES:-frontmost,capture,safe,strong}
IFS=/ read -r TRACK OFFSET PIECES GOALS <<<"$BOARD"
NAME="$TRACK-$OFFSET-$PIECES-$GOALS"
OUT=${OUT:-target/real-board-$NAME}
THREADS=${THREADS:-$(nproc)}
GAME=(--track "$TRACK" --offset "$OFFSET" --pieces "$PIECES" --goal-fields "$GOALS"
    --profile choice)
mkdir -p "$VALUES" "$OUT"
# Writes a command's standard output into FILE only once the command succeeded.
into() { # file, then the command
    local file=$1
    shift
    "$@" >"$file.new"
    mv "$file.new" "$file"
}
solve() { # die of B, part, folder, report
    into "$OUT/$4" "$BIN" solve --a 1..6 --b "$1" "${GAME[@]}" --layered --part "$2" \
        --tolerance 1e-6 --values-out "$VALUES/$3" --threads "$THREADS" --format json
}
OPTIMAL=$VALUES/1..6
solve 1..6 outside-core 1..6 outside-core-1..6.json
GRADE=(grade --values "$OPTIMAL" --games "$GAMES" --threads "$THREADS" --format json)
[ -e "$OUT/grade-strong-$GAMES.json" ] ||
    into "$OUT/grade-strong-$GAMES.json" "$BIN" "${GRADE[@]}" --against-optimal
OPTIMAL=$OPTIMAL EACH=1 SEATS=a TOLERANCE=1e-6 GAMES=$GAMES STRATEGIES=$STRATEGIES \
    OUT="$OUT/best-response" THREADS=$THREADS \
    bash results/best-response/run.sh "$BOARD" "$BIN"
PLAYER=$OUT/strong-$NAME-choice-outside-core.json
[ -e "$PLAYER" ] ||
    into "$OUT/train-$NAME-outside-core.json" "$BIN" train "${GAME[@]}" --seed 1 \
        --games "$TRAIN_GAMES" --hidden 256 --rate 0.1,0.001 --targets exact \
        --values "$OPTIMAL" --positions every-roll --lambda 0 --threads 1 --out "$PLAYER" \
        --format json
[ -e "$OUT/duel-outside-core-player-vs-strong-$DUEL.json" ] ||
    into "$OUT/duel-outside-core-player-vs-strong-$DUEL.json" "$BIN" duel --a 1..6 --b 1..6 \
        "${GAME[@]}" --strategy-a "strong:$PLAYER" --strategy-b strong --games "$DUEL" \
        --seed 24 --threads "$THREADS" --format json
[ -e "$OUT/grade-outside-core-player-$GAMES.json" ] ||
    into "$OUT/grade-outside-core-player-$GAMES.json" "$BIN" "${GRADE[@]}" --graded \
        "strong,strong:$PLAYER,strong-search,strong-search:$PLAYER,strong-search-2,strong-search-2:$PLAYER"
solve 2..7 both-home 1..6-vs-2..7 both-home-1..6-vs-2..7.json
