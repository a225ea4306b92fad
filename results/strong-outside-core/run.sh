#!/usr/bin/env bash
# A player trained with exact values outside the core only, on a board where everything is
# known, and its loss measured exactly:
#
#   bash results/strong-outside-core/run.sh BOARD [BINARY]   (BOARD: 40/20/3/4 or 22/11/4/4)
#
# 1. the groups where a side has a piece home, solved to 1e-6 and written to
#    target/outside-core-BOARD (`solve --layered --part outside-core --values-out`; a stopped
#    run resumes there);
# 2. the player trained on them as the shipped exact-value player of the board was trained
#    (seed 1, 4,000,000 games, 256 hidden units, step sizes 0.1 to 0.001, every roll's
#    position), the core learnt from TD(lambda) returns ending in the exact values:
#    results/strong-outside-core/strong-BOARD-choice.json;
# 3. its exploitability in seat A, without and with two rolls of look-ahead, by
#    results/strong-exact/run.py --player (records in results/strong-exact/BOARD-solves.jsonl,
#    marked `exact values outside the core`; table.py shows them beside the shipped players).
#
# GAMES sets the training games, HIDDEN the hidden units (1 to 256, the default), LAMBDA the
# lambda of the returns in the core (default: the train command's); OUT a folder for
# everything (values, player, reports and the exploitability records) instead of the places
# above.
set -euo pipefail
cd "$(dirname "$0")/../.."
BOARD=${1:?BOARD, e.g. 40/20/3/4}
BIN=${2:-target/release/wuerfelglueck}
GAMES=${GAMES:-4000000}
HIDDEN=${HIDDEN:-256}
IFS=/ read -r TRACK OFFSET PIECES GOALS <<<"$BOARD"
NAME="$TRACK-$OFFSET-$PIECES-$GOALS"
GAME=(--track "$TRACK" --offset "$OFFSET" --pieces "$PIECES" --goal-fields "$GOALS" --profile choice)
if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT"
    HERE=$OUT VALUES="$OUT/outside-core-$NAME" RECORDS=(--out-dir "$OUT")
else
    HERE=results/strong-outside-core VALUES="target/outside-core-$NAME" RECORDS=()
fi
PLAYER="$HERE/strong-$NAME-choice.json"
"$BIN" solve --a 1..6 --b 1..6 "${GAME[@]}" --layered --part outside-core --tolerance 1e-6 \
    --values-out "$VALUES" --format json >"$HERE/solve-$NAME.json"
if [ ! -e "$PLAYER" ]; then
    "$BIN" train "${GAME[@]}" --seed 1 --games "$GAMES" --hidden "$HIDDEN" --rate 0.1,0.001 \
        --targets exact --values "$VALUES" --positions every-roll ${LAMBDA:+--lambda "$LAMBDA"} \
        --out "$PLAYER" \
        --format json >"$HERE/train-$NAME.json"
fi
python3 results/strong-exact/run.py "$BOARD" strong strong-search-2 --seat a \
    --opponent best-response --player "$PLAYER" --binary "$BIN" "${RECORDS[@]}"
