#!/usr/bin/env bash
# Guest instructions per game of each path on 64-bit ARM, counted by QEMU's user-mode
# emulation: a proxy, not a speed. Run from the repository's root; needs qemu-user,
# gcc-aarch64-linux-gnu, libc6-dev-arm64-cross and the rustup target
# aarch64-unknown-linux-gnu. Prints one line per path and number of games. GAMES (default
# 200000, the measured run) sets the games of the second count.
set -euo pipefail
here=results/neon-instructions
out=target/aarch64
mkdir -p "$out"
gcc -O2 -Wall -shared -fPIC -o "$out/libinsn_count.so" "$here/insn_count.c"
CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
  cargo build --release --no-default-features --example duel \
  --target aarch64-unknown-linux-gnu --target-dir "$out"
duel=$out/aarch64-unknown-linux-gnu/release/examples/duel
# 2 games: the start-up, subtracted from the measured games' count.
for games in 2 "${GAMES:-200000}"; do
  for path in neon portable scalar; do
    RAYON_NUM_THREADS=1 WUERFELGLUECK_LANES=$path \
      qemu-aarch64 -L /usr/aarch64-linux-gnu -plugin "$out/libinsn_count.so" -d plugin \
      "$duel" "$games" 2>&1 | paste -sd' '
  done
done
