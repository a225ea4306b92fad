#!/usr/bin/env bash
# The layered game solver on 1, 2 and 4 MPI ranks (one thread each), die A against die B,
# to 1e-9: a JSON report per run (each group's states, sweeps, seconds of its sweeps, and
# the states sent between ranks a sweep) and, where GNU time is installed, the wall time and
# the peak per run (the last line of each run's log, and a row of OUT_DIR/runs.csv:
# report,ranks,wall_seconds,peak_kib). The logs (each group's line, stderr) stay in OUT_DIR;
# results/mpi/ keeps the reports and runs.csv.
# Usage: results/mpi/scaling.sh BINARY OUT_DIR A B BOARD_OPTIONS...
#   e.g. results/mpi/scaling.sh target/release/wuerfelglueck /tmp/24-12-3-4 1..6 2..7 --track 24 --pieces 3
# (reports OUT_DIR/A-vs-B-ranksN.json, e.g. 1..6-vs-2..7-ranks2.json)
# The binary must be built with `--features mpi`.
# Environment: RANKS (default "1 2 4"); TOLERANCE (default 1e-9); VALUES_FROM=DIR, a folder
# of the groups outside the core (`solve --layered --part outside-core --values-out DIR` of
# these dice, board and tolerance): each run then starts from a copy of it in
# OUT_DIR/values-ranksN (given as --values-out, removed after the run), reads those groups
# back and solves the core alone.
set -euo pipefail
bin=$1 out=$2 a=$3 b=$4
shift 4
mkdir -p "$out"
# Named by the dice alone (as the folders here keep them): one OUT_DIR per board.
name="$a-vs-$b"
for ranks in ${RANKS:-1 2 4}; do
  report="$out/$name-ranks$ranks.json"
  launcher=()
  if [ "$ranks" -gt 1 ]; then
    launcher=(mpirun --allow-run-as-root --oversubscribe -np "$ranks")
  fi
  timer=()
  if [ -x /usr/bin/time ]; then
    timer=(/usr/bin/time -f "ranks $ranks: %e s wall, %M KiB peak of the largest rank")
  fi
  values=()
  if [ -n "${VALUES_FROM:-}" ]; then
    rm -rf "$out/values-ranks$ranks"
    cp -r "$VALUES_FROM" "$out/values-ranks$ranks"
    values=(--values-out "$out/values-ranks$ranks")
  fi
  "${timer[@]}" "${launcher[@]}" "$bin" solve --a "$a" --b "$b" --profile choice --layered "$@" \
    "${values[@]}" --tolerance "${TOLERANCE:-1e-9}" --threads 1 --format json \
    > "$report" 2> "$out/$name-ranks$ranks.log"
  if [ -n "${VALUES_FROM:-}" ]; then
    rm -rf "$out/values-ranks$ranks"
  fi
  tail -n 1 "$out/$name-ranks$ranks.log"
  if [ ${#timer[@]} -gt 0 ]; then
    [ -f "$out/runs.csv" ] || echo "report,ranks,wall_seconds,peak_kib" > "$out/runs.csv"
    tail -n 1 "$out/$name-ranks$ranks.log" |
      sed -E "s/^ranks ([0-9]+): ([0-9.]+) s wall, ([0-9]+) KiB peak.*/$name-ranks\1,\1,\2,\3/" \
      >> "$out/runs.csv"
  fi
done
