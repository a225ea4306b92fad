#!/usr/bin/env bash
# Executes every notebook in quick mode (WUERFELGLUECK_QUICK=1: small game counts) and fails
# if any cell fails. The notebooks are read from notebooks/ and executed with the kernel's
# working directory there (so `import wg` works), but the executed copies are written to a
# temporary directory: the committed notebooks and their outputs are never touched.
#
# Needs the packages of notebooks/requirements.txt and the Python package wuerfelglueck
# (from the repository root: python3 -m pip install -r notebooks/requirements.txt ./python).
#
# Usage: notebooks/run_all.sh [NOTEBOOK.ipynb ...]   (default: all notebooks)
#        PYTHON=/path/to/python notebooks/run_all.sh  (another interpreter)
#        WUERFELGLUECK_QUICK=0 notebooks/run_all.sh   (full game counts: takes minutes)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
export WUERFELGLUECK_ROOT="$root"
export WUERFELGLUECK_QUICK="${WUERFELGLUECK_QUICK:-1}"
out="$(mktemp -d "${TMPDIR:-/tmp}/wuerfelglueck-notebooks.XXXXXX")"
trap 'rm -rf "$out"' EXIT

if ! "${PYTHON:-python3}" -c "import wuerfelglueck" 2>/dev/null; then
    echo "the Python package wuerfelglueck is not installed: python3 -m pip install ./python" >&2
    exit 1
fi

if [ "$#" -eq 0 ]; then
    set -- "$here"/[0-9]*.ipynb
fi

"${PYTHON:-python3}" - "$here" "$out" "$@" <<'EOF'
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

workdir, out = Path(sys.argv[1]), Path(sys.argv[2])
failed = []
for name in sys.argv[3:]:
    path = Path(name).resolve()
    book = nbformat.read(path, as_version=4)
    client = NotebookClient(book, timeout=1800, kernel_name="python3",
                            resources={"metadata": {"path": str(workdir)}})
    started = time.time()
    try:
        client.execute()
        print(f"ok      {path.name} ({time.time() - started:.0f} s)", flush=True)
    except CellExecutionError as e:
        failed.append(path.name)
        print(f"FAILED  {path.name}\n{e}", flush=True)
    finally:
        nbformat.write(book, out / path.name)
if failed:
    sys.exit(f"{len(failed)} notebook(s) failed: {', '.join(failed)}")
EOF
