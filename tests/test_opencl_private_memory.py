"""OpenCL C private variables whose address is taken (an `llvm.alloca` from the
importer) keep their values across a barrier: each work-item's copy lives in the
live storage of work-item-loops, as a `memref.alloca`'s does, aligned as the
alloca asks."""

from __future__ import annotations

import numpy as np
import pytest

import mux

SOURCE = """\
struct aligned_pair { char c; int v; } __attribute__((aligned(16)));

void fill(int *values, int n, int seed) {
  for (int k = 0; k < n; ++k)
    values[k] = seed * 10 + k;
}

__kernel void keep(__global int *out, __global uint *alignment) {
  int i = (int)get_global_id(0);
  int values[5];
  struct aligned_pair pair;
  fill(values, 5, i);
  pair.v = i + 7;
  barrier(CLK_LOCAL_MEM_FENCE);
  int sum = 0;
  for (int k = 0; k < 5; ++k)
    sum += values[k];
  out[i] = sum + pair.v;
  alignment[i] = (uint)((size_t)&pair % 16);
}
"""


@pytest.mark.parametrize(("global_size", "local_size"), [(37, 8), (16, 16), (5, 1)])
def test_private_variables_survive_a_barrier(global_size, local_size):
    kernel = mux.compile(SOURCE, language="opencl").kernel("keep")
    out = np.zeros(global_size, np.int32)
    alignment = np.ones(global_size, np.uint32)
    kernel(out, alignment, global_size=global_size, local_size=local_size)
    i = np.arange(global_size)
    np.testing.assert_array_equal(out, 5 * i * 10 + 10 + i + 7)
    assert (alignment == 0).all()
