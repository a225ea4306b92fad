#!/usr/bin/env bash
# The learned player on the real board: 40/20/4/4 under choice, 1..6 against 1..6, strong
# against each heuristic and against itself, 1,000,000 games per duel (each side starts
# half of them), seed 24. One JSON file per duel in results/strong-full/; a duel whose file
# exists is skipped, so an interrupted run resumes.
#
#   bash results/strong-full/run.sh [BINARY]      (default: target/release/wuerfelglueck)
#   python3 results/strong-full/table.py          (the table of the book's chapter)
#
# For a small check (tests/results_scripts.rs): OUT=DIR writes there instead of this folder,
# GAMES=N plays N games a duel or ranked pair instead of each run's count or precision.
set -euo pipefail
BIN=${1:-target/release/wuerfelglueck}
case $BIN in /*) ;; */*) BIN=$PWD/$BIN ;; esac
if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT"
    OUT=$(cd "$OUT" && pwd)
fi
cd "$(dirname "$0")/../.."
OUT=${OUT:-results/strong-full}
ranked=(--precision 0.002)
[ -n "${GAMES:-}" ] && ranked=(--games "$GAMES")
for opponent in frontmost rearmost capture safe random strong; do
    out="$OUT/strong-vs-$opponent.json"
    [ -e "$out" ] && continue
    "$BIN" duel --a 1..6 --b 1..6 --profile choice --strategy-a strong --strategy-b "$opponent" \
        --games "${GAMES:-1000000}" --seed 24 --format json > "$out.part"
    mv "$out.part" "$out"
done

# The look-ahead player against the plain one and against safe (ten times slower a game).
for opponent in strong safe; do
    out="$OUT/strong-search-vs-$opponent.json"
    [ -e "$out" ] && continue
    "$BIN" duel --a 1..6 --b 1..6 --profile choice --strategy-a strong-search \
        --strategy-b "$opponent" --games "${GAMES:-200000}" --seed 24 --format json > "$out.part"
    mv "$out.part" "$out"
done

# Two rolls of look-ahead against the plain player, one roll and safe (twenty times the
# work of a strong-search decision, so fewer games).
for opponent in strong strong-search safe; do
    out="$OUT/strong-search-2-vs-$opponent.json"
    [ -e "$out" ] && continue
    "$BIN" duel --a 1..6 --b 1..6 --profile choice --strategy-a strong-search-2 \
        --strategy-b "$opponent" --games "${GAMES:-100000}" --seed 24 --format json > "$out.part"
    mv "$out.part" "$out"
done

# The example files ranked with both players strong, every pair to +-0.002.
for n in 0 1 2 3; do
    out="$OUT/rank-wuerfel$n.json"
    [ -e "$out" ] && continue
    "$BIN" rank "data/wuerfel$n.txt" --profile choice --strategy strong "${ranked[@]}" \
        --seed 24 --format json > "$out.part"
    mv "$out.part" "$out"
done

# How strong decides (duel --style: both players the same), beside the optimal pair's own
# policy where it is solved (its policy file from results/strong-exact/run.py 40/20/P/4).
for pieces in 2 3 4; do
    for player in strong optimal; do
        out="$OUT/style-40-20-$pieces-4-$player.json"
        strategy=strong
        if [ "$player" = optimal ]; then
            strategy="table:target/optimal-40-20-$pieces-4.policy"
            [ -e "${strategy#table:}" ] || continue
        fi
        [ -e "$out" ] && continue
        "$BIN" duel --a 1..6 --b 1..6 --pieces "$pieces" --profile choice --strategy "$strategy" \
            --games "${GAMES:-200000}" --seed 24 --style --format json > "$out.part"
        mv "$out.part" "$out"
    done
done
