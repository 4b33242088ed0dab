#!/usr/bin/env bash
# The main job: sets up .venv if needed, then compiles the vadd kernel
# (examples/vadd.mlir) through the host pipeline, JIT-runs it on a million floats
# and checks the result against numpy.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$repo"
python examples/vadd.py
