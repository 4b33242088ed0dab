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


POINTERS = """\
struct pair { char c; int v; };

__kernel void field(__global int *out, __global uint *address) {
  int i = (int)get_global_id(0);
  struct pair s;
  s.v = i + 12;
  int *v = &s.v;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = *v;
  address[i] = (uint)((size_t)v % 4);
}

__kernel void pick(__global int *out, __global const int *index) {
  int i = (int)get_global_id(0);
  int values[4];
  for (int k = 0; k < 4; ++k)
    values[k] = i * 4 + k;
  int *p = &values[index[i]];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = *p;
}

__kernel void choose(__global int *out, int k) {
  int i = (int)get_global_id(0);
  int a[2], b[2];
  a[0] = i;
  a[1] = i + 100;
  b[0] = -i;
  b[1] = -i - 100;
  int *p = (i & 1) ? &a[k] : &b[k];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = *p;
}
"""
"""Pointers into private variables taken before a barrier and dereferenced after
it: recomputed from the variable's copy in the live storage (`field`, `choose`'s
`&a[k]` before the select), or kept there with the variable they point into
(`pick`'s index is loaded; `choose`'s select depends on the work-item)."""


@pytest.mark.parametrize(("global_size", "local_size"), [(37, 8), (16, 16)])
def test_pointers_into_private_variables_survive_a_barrier(global_size, local_size):
    program = mux.compile(POINTERS, language="opencl")
    i = np.arange(global_size)
    sizes = {"global_size": global_size, "local_size": local_size}
    out = np.zeros(global_size, np.int32)
    address = np.ones(global_size, np.uint32)
    program.kernel("field")(out, address, **sizes)
    np.testing.assert_array_equal(out, i + 12)
    assert (address == 0).all()
    index = (i * 7 % 4).astype(np.int32)
    program.kernel("pick")(out, index, **sizes)
    np.testing.assert_array_equal(out, 4 * i + index)
    program.kernel("choose")(out, np.int32(1), **sizes)
    np.testing.assert_array_equal(out, np.where(i & 1, i + 100, -i - 100))
