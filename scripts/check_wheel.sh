#!/usr/bin/env bash
# Checks that the project installs as a wheel (issue 19): from `git archive` of HEAD
# (what a fresh clone has: only committed files), builds a wheel, installs it, not
# editable, into a fresh virtual environment under a temporary directory, and runs
# the installed commands and `import mux` from outside the source tree.
#
#   scripts/check_wheel.sh [python]     (default: python3 on PATH)
#
# Needs network access for the dependencies (xdsl, llvmlite, numpy) and the build
# backend (setuptools). Takes about a minute, mostly the dependencies' download:
# not part of scripts/test.sh.
set -euo pipefail
python=${1:-python3}
repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

git -C "$repo" archive --format=tar HEAD | tar -x -C "$work" --one-top-level=src
"$python" -m venv "$work/venv"
venv="$work/venv/bin"
"$venv/pip" install -q --upgrade pip
"$venv/pip" wheel -q --no-deps -w "$work/dist" "$work/src"
"$venv/pip" install -q "$work"/dist/*.whl

cd "$work"  # away from the sources: only the installed wheel can be imported
"$venv/mux-opt" --help >/dev/null
"$venv/mux-explore" --help >/dev/null
cp "$work/src/examples/vadd.mlir" "$work/vadd.mlir"
"$venv/mux-run" vadd.mlir vadd --global 8 --local 4 range:8 ones:8 zeros:8 \
    --out out.npz
"$venv/python" -c "import numpy as np; c = np.load('out.npz')['c']; \
assert list(c) == list(range(1, 9)), c"
"$venv/python" - "$work/vadd.mlir" <<'PY'
import subprocess
import sys

import numpy as np

import mux

installed = mux.__file__
assert "/venv/" in installed, f"mux imported from {installed}, not the wheel"
kernel = mux.load(sys.argv[1]).kernel("vadd")
a = np.arange(1000, dtype=np.float32)
b = np.ones(1000, dtype=np.float32)
c = np.zeros(1000, dtype=np.float32)
kernel(a, b, c, global_size=1000, local_size=10)
assert np.array_equal(c, a + b), "vadd from the wheel does not match numpy"
# the packaged data files: the OpenCL C header and the explorer's page assets
from importlib.resources import files

assert files("mux.frontend").joinpath("include").is_dir()
assert files("mux.explorer").joinpath("page.css").is_file()
assert files("mux.explorer").joinpath("page.js").is_file()
mux.explore(sys.argv[1], output="page.html")
print("import mux, a launch and mux.explore from the wheel: ok")
PY
echo "check_wheel: ok (wheel $(basename "$work"/dist/*.whl))"
