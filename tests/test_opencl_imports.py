"""What clang -O1 makes of OpenCL C, brought in by the LLVM IR importer, runs as numpy
computes it: private arrays (allocas), vector constants (`splat`), LLVM intrinsics,
structs and initialised `__constant` variables (issue 15, session 23). Each kernel
is small and written for the one feature; the launches have partial and whole
work-groups."""

from __future__ import annotations

import numpy as np
import pytest

import mux

RNG = np.random.default_rng(23)


def run(source: str, kernel: str, *args, global_size: int, local_size: int = 4):
    program = mux.compile(source, language="opencl", name=f"{kernel}.cl")
    program.kernel(kernel)(*args, global_size=global_size, local_size=local_size)


PRIVATE_WINDOW = """\
__kernel void private_window(__global const int *in, __global int *out, int k) {
  size_t g = get_global_id(0);
  int w[8];
  for (int i = 0; i < 8; ++i)
    w[i] = in[g * 8 + i];
  out[g] = w[k & 7] * 3 + w[(g + k) & 7];
}
"""


@pytest.mark.parametrize("k", [0, 5, 13])
def test_a_private_array_indexed_at_run_time(k):
    n = 10
    x = RNG.integers(-1000, 1000, n * 8, dtype=np.int32)
    out = np.zeros(n, np.int32)
    run(PRIVATE_WINDOW, "private_window", x, out, np.int32(k), global_size=n)
    rows = x.reshape(n, 8)
    g = np.arange(n)
    np.testing.assert_array_equal(out, rows[g, k & 7] * 3 + rows[g, (g + k) & 7])


SPLAT_OPS = """\
__kernel void splat_ops(__global const int *in, __global float *out) {
  size_t g = get_global_id(0);
  int4 v = (int4)(in[4 * g], in[4 * g + 1], in[4 * g + 2], in[4 * g + 3]);
  int4 r = (v + 1) << 1;
  float4 f = 0.5f - (float4)((float)r.x, (float)r.y, (float)r.z, (float)r.w);
  out[4 * g] = f.x; out[4 * g + 1] = f.y; out[4 * g + 2] = f.z; out[4 * g + 3] = f.w;
}
"""


def test_vector_splat_constants():
    x = RNG.integers(-1000, 1000, 4 * 6, dtype=np.int32)
    out = np.zeros(x.size, np.float32)
    run(SPLAT_OPS, "splat_ops", x, out, global_size=6)
    np.testing.assert_array_equal(out, np.float32(0.5) - ((x + 1) << 1))
