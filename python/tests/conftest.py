"""Shared fixtures: the repository root and the release binary (the CLI the package is
compared with). WUERFELGLUECK_BIN names another binary; without one, the tests that need it
build it with cargo."""

import contextlib
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def binary(root) -> Path:
    """The release binary (WUERFELGLUECK_BIN, else target/release, built if missing)."""
    path = Path(os.environ.get("WUERFELGLUECK_BIN", root / "target" / "release" / "wuerfelglueck"))
    if not path.exists():
        subprocess.run(["cargo", "build", "--release"], cwd=root, check=True)
    return path


@contextlib.contextmanager
def serving(binary: Path, *options: str):
    """`wuerfelglueck serve` on an ephemeral port of 127.0.0.1 with `options`; yields its
    address (`http://127.0.0.1:PORT`, read from the line it prints) and stops it after."""
    process = subprocess.Popen([str(binary), "serve", "--bind", "127.0.0.1:0", *options],
                               stderr=subprocess.PIPE, text=True)
    try:
        line = process.stderr.readline()
        address = re.search(r"http://[0-9.:]+", line)
        assert address, line
        yield address.group(0)
    finally:
        process.terminate()
        process.wait(timeout=10)


@contextlib.contextmanager
def static_site(root: Path):
    """The static site (target/site, built by web/build-static.sh if missing) served by a
    plain static file server on an ephemeral port of 127.0.0.1; yields its address. Skips
    where the site cannot be built (no WebAssembly target)."""
    import functools
    import http.server
    import threading

    site = root / "target" / "site"
    if not (site / "wuerfelglueck_web_bg.wasm").exists():
        built = subprocess.run(["bash", "web/build-static.sh"], cwd=root)
        if built.returncode == 3:
            pytest.skip("the static site needs the wasm32-unknown-unknown target, which this "
                        "machine cannot install")
        assert built.returncode == 0, "web/build-static.sh failed"

    class Quiet(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                          ".wasm": "application/wasm", ".js": "text/javascript"}

        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def cli(root, binary):
    """Runs the CLI; returns a function args -> parsed JSON (raises on a non-zero exit)."""

    def run(*args, expect_error=False):
        done = subprocess.run([str(binary), *map(str, args)], cwd=root,
                              capture_output=True, text=True)
        if expect_error:
            assert done.returncode != 0, done.stdout
            return done.stderr.strip().removeprefix("error: ")
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    return run


def without_timing(d: dict) -> dict:
    """A result without the fields that measure time."""
    d = dict(d)
    for key in ("seconds", "build_seconds", "solve_seconds"):
        d.pop(key, None)
    if isinstance(d.get("exact"), dict):
        d["exact"] = without_timing(d["exact"])
    return d
