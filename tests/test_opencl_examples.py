"""The OpenCL C twins of the examples (examples/<name>.cl), brought in through clang,
the LLVM IR importer and lower-to-mux-builtins, compute what the MLIR examples
compute: each pair is launched on the same inputs and NDRange and the outputs are
compared element for element (the twins keep the MLIR's order of float operations:
FP_CONTRACT is off where it matters).

Launch shapes cover partial work-groups, offsets, 1 and 2 dimensions and local size 1.
stencil2d's clamps are LLVM intrinsics (`llvm.usub.sat`, `llvm.umin`: clang's -O1
spelling of `x > 0 ? x - 1 : 0` and of the min); scale_rows' `fmin` is the builtin
library's (`link-builtins`). sgemm_tiled's barriers in a loop found that the
uniformity analysis did not know `llvm.br`'s block arguments; dma_tile's async
copies in a loop, that lower-to-mux-builtins replaced a copy with the count of a
get_local_size call it had already replaced."""

from __future__ import annotations

import numpy as np
import pytest
from example_launches import CASES, EXAMPLES, Case, copies
from kernels import build_options

import mux


@pytest.mark.parametrize(
    "case", CASES, ids=lambda c: f"{c.name}-{c.global_size}-{c.local_size}"
)
def test_the_opencl_c_twin_computes_what_the_mlir_example_computes(case: Case):
    args = case.args()
    ours, theirs = copies(args), copies(args)
    launch = {
        "global_size": case.global_size,
        "local_size": case.local_size,
        "global_offset": case.global_offset,
    }
    mux.load(EXAMPLES / f"{case.name}.mlir").kernel(case.name)(*ours, **launch)
    path = EXAMPLES / f"{case.name}.cl"
    options = " ".join(build_options(path.read_text()))  # what its header states
    twin = mux.load(path, build_options=options)
    twin.kernel(case.name)(*theirs, **launch)
    for mine, twin in zip(ours, theirs, strict=True):
        if isinstance(mine, np.ndarray):
            np.testing.assert_array_equal(twin, mine)
