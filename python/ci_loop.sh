#!/usr/bin/env bash
# Runs the Python suite N times the way CI does (.ci/run): each run in a fresh virtual
# environment with the wheel, notebooks/requirements.txt, pytest, dask, distributed and selenium
# installed from the package registry (pip's cache makes that quick after the first run),
# then `pytest -q python/tests` against the installed wheel. The wheel and the CLI (which
# the suite compares the package with) are built once, before the first run.
#
#   python/ci_loop.sh 20        # from anywhere in the repository
#
# Prints one line per run (pass/FAIL, seconds) and a summary; exits 1 if any run failed.
# The log of a failed run is kept (its path is printed); CARGO_TARGET_DIR is honoured.
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:?usage: python/ci_loop.sh N (the number of runs)}"
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "ci_loop.sh: N must be a whole number >= 1, got '$n'" >&2; exit 2; }

work="$(mktemp -d "${TMPDIR:-/tmp}/wuerfelglueck-loop.XXXXXX")"
trap 'rm -rf "$work/venv" "$work/build" "$work/wheels"; rmdir "$work" 2>/dev/null || true' EXIT

echo "== once: the CLI and the wheel"
cargo build --release --quiet
export WUERFELGLUECK_BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/wuerfelglueck"
python3 -m venv "$work/build"
"$work/build/bin/python" -m pip install --quiet --upgrade pip
"$work/build/bin/python" -m pip wheel --quiet --no-deps --wheel-dir "$work/wheels" ./python
wheel=$(ls "$work"/wheels/wuerfelglueck-*.whl)

ms() { echo $(( $(date +%s%N) / 1000000 )); }
passed=0
total_ms=0
for run in $(seq 1 "$n"); do
  started=$(ms)
  log="$work/run-$run.log"
  rm -rf "$work/venv"
  if { python3 -m venv "$work/venv" &&
       "$work/venv/bin/python" -m pip install --quiet --upgrade pip &&
       "$work/venv/bin/python" -m pip install --quiet "$wheel" \
           -r notebooks/requirements.txt pytest dask distributed selenium &&
       "$work/venv/bin/pytest" -q python/tests; } >"$log" 2>&1; then
    result=pass
    passed=$((passed + 1))
    rm -f "$log"
  else
    result="FAIL (log: $log)"
  fi
  took=$(( $(ms) - started ))
  total_ms=$(( total_ms + took ))
  printf 'run %d/%d: %s in %d.%01d s\n' "$run" "$n" "$result" $((took / 1000)) $((took % 1000 / 100))
done
printf '== %d of %d runs passed; %d s per run on average (fresh venv + install + pytest)\n' \
  "$passed" "$n" $((total_ms / n / 1000))
[ "$passed" -eq "$n" ]
