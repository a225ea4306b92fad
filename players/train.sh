#!/usr/bin/env bash
# Trains the strong players that ship with wuerfelglueck, each from seed 1: the same command
# gives the same file, bit for bit (the exact-value players only on one thread: see below).
#
#   bash players/train.sh [BINARY [NAME ...]]   (default: target/release/wuerfelglueck, all)
#
# NAME is a file's board part, e.g. 40-20-3-4 or 40-20-4-4-3-players. Writes
# players/strong-BOARD-choice.json (two players) and players/strong-BOARD-choice-N-players.json
# (tables), replacing the files there. Times on the project's 2-core machine are in
# docs/src/strong.md.
#
# On 16/8/2/2, 20/10/2/2, 40/20/2/4, 40/20/3/4 and 22/11/4/4 the player is fitted to the
# solved game's exact values (`--targets exact`, 256 hidden units; on 40/20/3/4 and 22/11/4/4
# also the position before every roll, `--positions every-roll`); the game is solved first, on every
# thread of the machine, whose order can change the last bits of a midpoint: the shipped
# exact-value files were trained so on two cores, and a run again gives a player trained the
# same way, not necessarily the same bits; runs on one thread (RAYON_NUM_THREADS=1, the solve
# about twice as long) give the same file every time. The player of 20/10/4/4 (solved too)
# has not been fitted yet and still learns by self-play (TD(lambda)), as do those of
# 40/20/4/4, which is beyond the solver.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-target/release/wuerfelglueck}
shift || true
ONLY=("$@")
run() { # name, file, then train's options
    local name=$1 file=$2
    shift 2
    if [ ${#ONLY[@]} -gt 0 ] && [[ " ${ONLY[*]} " != *" $name "* ]]; then
        return
    fi
    "$BIN" train --profile choice --seed 1 "$@" --out "players/$file" --overwrite
}
exact() { # track offset pieces goal-fields games [more of train's options]
    local track=$1 offset=$2 pieces=$3 goal=$4 games=$5
    shift 5
    run "$track-$offset-$pieces-$goal" "strong-$track-$offset-$pieces-$goal-choice.json" --track "$track" \
        --offset "$offset" --pieces "$pieces" --goal-fields "$goal" --games "$games" --hidden 256 \
        --rate 0.1,0.001 --targets exact "$@"
}
self_play() { # track offset pieces goal-fields games [players]
    local players=${6:-2} name="$1-$2-$3-$4" file="strong-$1-$2-$3-$4-choice.json"
    if [ "$players" != 2 ]; then
        name="$name-$players-players"
        file="strong-$1-$2-$3-$4-choice-$players-players.json"
    fi
    run "$name" "$file" --track "$1" --offset "$2" --pieces "$3" --goal-fields "$4" --games "$5" \
        --hidden 64 --rate 0.02,0.002 --lambda 0.7 --players "$players"
}
exact 16 8 2 2 2000000
exact 20 10 2 2 2000000
exact 40 20 2 4 4000000
exact 40 20 3 4 4000000 --positions every-roll
self_play 20 10 4 4 3000000
exact 22 11 4 4 4000000 --positions every-roll
self_play 40 20 4 4 3000000
self_play 40 20 4 4 1500000 3
self_play 40 20 4 4 1000000 4
