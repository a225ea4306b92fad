#!/usr/bin/env bash
# Builds the static site into target/site/: the web app's pages, with wuerfelglueck compiled
# to WebAssembly and run in a Web Worker instead of a server. Any static file server serves
# the folder (e.g. `python3 -m http.server -d target/site`); nothing is fetched from elsewhere.
#
# Installs what it needs if missing: the wasm32-unknown-unknown target (rustup) and the
# wasm-bindgen CLI of exactly the version web/Cargo.toml pins (cargo install). Exits with 3
# where the target cannot be had (a machine whose rustup reaches no server).
set -euo pipefail
cd "$(dirname "$0")/.."

bindgen_version=$(sed -n 's/^wasm-bindgen = "=\(.*\)"/\1/p' web/Cargo.toml)
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  if ! rustup target add wasm32-unknown-unknown; then
    # Exit code 3: this machine cannot build the site (CI and the tests skip it then).
    echo "error: the wasm32-unknown-unknown target is not installed and rustup could not add it" >&2
    exit 3
  fi
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $bindgen_version" ]; then
  cargo install wasm-bindgen-cli --version "$bindgen_version"
fi

cargo build --release --locked --target wasm32-unknown-unknown --manifest-path web/Cargo.toml

site=target/site
rm -rf "$site"
mkdir -p "$site"
wasm-bindgen --target web --no-typescript --out-dir "$site" \
  web/target/wasm32-unknown-unknown/release/wuerfelglueck_web.wasm
cp src/web/pages/index.html src/web/pages/app.js src/web/pages/style.css "$site"/
# The pages' transport: the worker instead of the server's API.
cp web/static/transport.js web/static/worker.js "$site"/

wasm="$site/wuerfelglueck_web_bg.wasm"
echo "built $site: $(wc -c < "$wasm") bytes of WebAssembly, $(gzip -9 < "$wasm" | wc -c) gzipped"
