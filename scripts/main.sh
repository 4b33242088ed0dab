#!/usr/bin/env bash
# The main job: sets up .venv if needed, then shows a kernel through mux-opt: the
# vadd example is parsed, verified (ops and mux. attributes) and printed back, and the
# reduce example, with barriers in a loop, is printed in the generic form.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$repo"
echo "== mux-opt examples/vadd.mlir"
mux-opt examples/vadd.mlir
echo "== mux-opt --print-op-generic examples/reduce.mlir (the barriers)"
mux-opt --print-op-generic examples/reduce.mlir | grep 'mux\.'
echo "main job: ok"
