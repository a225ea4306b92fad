#!/usr/bin/env bash
# Trains the strong players that ship with wuerfelglueck, one per board, each on one
# thread from seed 1: the same command gives the same file, bit for bit.
#
#   bash players/train.sh [BINARY]        (default: target/release/wuerfelglueck)
#
# Writes players/strong-BOARD-choice.json (two players) and
# players/strong-BOARD-choice-N-players.json (tables), replacing the files there. Times on the
# project's 2-core machine are in docs/src/strong.md.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-target/release/wuerfelglueck}
train() { # track offset pieces goal-fields games [players]
    local players=${6:-2}
    local name="strong-$1-$2-$3-$4-choice.json"
    [ "$players" = 2 ] || name="strong-$1-$2-$3-$4-choice-$players-players.json"
    "$BIN" train --track "$1" --offset "$2" --pieces "$3" --goal-fields "$4" \
        --profile choice --games "$5" --seed 1 --hidden 64 --rate 0.02,0.002 --lambda 0.7 \
        --players "$players" --out "players/$name" --overwrite
}
train 16 8 2 2 2000000
train 20 10 2 2 2000000
train 40 20 2 4 4000000
train 40 20 3 4 3000000
train 20 10 4 4 3000000
train 22 11 4 4 3000000
train 40 20 4 4 3000000
train 40 20 4 4 1500000 3
train 40 20 4 4 1000000 4
