"""What clang -O1 makes of OpenCL C, brought in by the LLVM IR importer, runs as numpy
computes it: private arrays (allocas), vector constants (`splat`), LLVM intrinsics,
structs and initialised `__constant` variables (issue 15, session 23). Each kernel
is small and written for the one feature; the launches have partial and whole
work-groups."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import mux

RNG = np.random.default_rng(23)


def run(
    source: str,
    kernel: str,
    *args,
    global_size: int,
    local_size: int = 4,
    checked: bool = False,
):
    program = mux.compile(
        source, language="opencl", name=f"{kernel}.cl", checked=checked
    )
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


INPUTS = Path(__file__).parent / "filecheck" / "import" / "Inputs"


def test_llvm_intrinsics_compute_what_llvm_defines():
    """tests/filecheck/import/Inputs/intrinsics.ll: each work-item's seven integer
    results and one float (see the file)."""
    program = mux.compile((INPUTS / "intrinsics.ll").read_text(), language="llvm")
    edges = [0, 1, -1, 4, 5, 6, -3, -4, 99, 100, 101, 2**31 - 1, -(2**31)]
    x = np.array(edges + list(RNG.integers(-500, 500, 19)), np.int32)
    out = np.zeros(7 * x.size, np.int32)
    fout = np.zeros(x.size, np.float32)
    program.kernel("intrinsics")(x, out, fout, global_size=x.size, local_size=8)
    wide = x.astype(np.int64)
    unsigned = wide & 0xFFFFFFFF
    bits = np.array([32 - int(u).bit_length() for u in unsigned])
    saturated = np.where((wide < 0) | (wide >= 5), wide - 5, 0)  # unsigned 64-bit
    lanes = np.maximum(x[:, None] + np.arange(4, dtype=np.int32), 0).sum(axis=1)
    expected = np.stack(
        [
            np.maximum(wide, -3),
            np.minimum(unsigned, 100),
            bits,
            np.abs(wide),
            saturated,
            lanes,
            wide,
        ],
        axis=1,
    )
    np.testing.assert_array_equal(out.reshape(-1, 7), expected.astype(np.int32))
    floats = x.astype(np.float32)
    np.testing.assert_array_equal(fout, np.abs(floats * np.float32(0.5) + 1))


STRUCTS = """\
typedef struct { char tag[3]; short2 v; int n; float f; } Entry;
__constant Entry table[2] = {{"ab", (short2)(1, 2), 42, 0.5f},
                             {"cd", (short2)(-3, 4), -7, 2.5f}};
typedef struct { struct { int a; int b; } in; long c; } Outer;
__attribute__((noinline)) int bump(Outer o) {
  o.in.a += 5;  // the callee's own copy
  return o.in.a + o.in.b + (int)o.c;
}
__attribute__((noinline)) int first(Outer *o) { return o->in.a; }
__kernel void structs(__global int *out, int k) {
  size_t g = get_global_id(0);
  Outer o = {{(int)g, k}, 100};
  Entry e = table[(g + k) & 1];
  out[g] = bump(o) * 1000 + first(&o) + e.tag[1] + e.v.y * e.n + (int)(e.f * 2);
}
"""


@pytest.mark.parametrize("checked", [False, True], ids=["unchecked", "checked"])
@pytest.mark.parametrize("k", [0, 1])
def test_a_constant_table_of_structs_and_a_struct_passed_by_value(k, checked):
    """`__constant` structs with strings, vectors and padding in their
    initialiser; a struct argument (`byval`) the callee changes leaves the
    caller's unchanged; nested structs clang names before it defines them.
    Checked mode checks the loads and stores of whole structs too."""
    n = 9
    out = np.zeros(n, np.int32)
    run(STRUCTS, "structs", out, np.int32(k), global_size=n, checked=checked)
    g = np.arange(n)
    entry = np.where((g + k) & 1, ord("d") + 4 * -7 + 5, ord("b") + 2 * 42 + 1)
    np.testing.assert_array_equal(out, (g + 5 + k + 100) * 1000 + g + entry)


def test_structs_in_llvm_ir():
    """tests/filecheck/import/Inputs/structs.ll: a struct that names one defined
    below it, a byval argument the callee changes, a __constant table of structs,
    and an array of packed structs `<{ i8, i32 }>` (5 bytes each, no padding)."""
    program = mux.compile((INPUTS / "structs.ll").read_text(), language="llvm")
    n = 7
    out = np.zeros(n, np.int32)
    packed = np.zeros(n * 5, np.int8)
    program.kernel("structs")(out, packed, global_size=n, local_size=4)
    g = np.arange(n)
    tag = np.where(g & 1, ord("d"), ord("b"))
    expected = (g + 5) * 1000 + g + tag * np.where(g & 1, 4, 2)
    np.testing.assert_array_equal(out, expected)
    layout = np.dtype([("tag", np.int8), ("sum", "<i4")])  # numpy's packed record
    assert layout.itemsize == 5
    records = packed.view(layout)
    np.testing.assert_array_equal(records["tag"], tag)
    np.testing.assert_array_equal(records["sum"], expected)
