"""`lift-llvm-ops` then `run-vecz` on kernels from OpenCL C: the kernels are
vectorised (vecz_width=8: whenever possible) and compute what the same kernels
compute unvectorised (vecz_width=1), over ranges and local sizes that are and are
not multiples of the width (the scalar kernel runs the rest, and the last
work-group is partial), and what numpy computes."""

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import arith, func, llvm
from xdsl.dialects.builtin import IntAttr, VectorType

import mux
from dialects import attributes as mux_attrs
from lowering.pipelines import HostPipeline
from lowering.run_vecz import RunVeczPass
from mux.compiler import context, parse_cached
from mux.frontend.languages import to_mlir

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# y = alpha * x + y, out-of-range work-items write nothing; an address computed in
# size_t (i64) with an offset; integer arithmetic, a comparison, a select and
# conversions.
SOURCE = """
#pragma OPENCL FP_CONTRACT OFF
__kernel void saxpy(float alpha, __global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    y[i] = alpha * x[i] + y[i];
}

__kernel void shifted(__global const float *in, __global float *out, ulong shift)
{
    size_t i = get_global_id(0);
    out[i] = in[i + shift] * 2.0f;
}

__kernel void mixed(__global const int *in, __global long *out, int limit)
{
    size_t i = get_global_id(0);
    int v = in[i];
    int w = (v * 3 - (int)i) ^ (v >> 2);
    long r = v < limit ? (long)w : (long)v;
    out[i] = r + (long)(ulong)(uint)v;
}

__kernel void guarded(__global const float *in, __global float *out, ulong n)
{
    size_t i = get_global_id(0);
    if (i < n)
        out[i] = in[i] > 0.5f ? in[i] * 3.0f : in[i] - 1.0f;
}

__kernel void dot_rows(__global const float *a, __global const float *b,
                       __global float *out, ulong n, ulong width)
{
    size_t i = get_global_id(0);
    if (i < width) {
        float sum = 0.0f;
        for (size_t k = 0; k < n; ++k)
            sum += a[k] * b[k * width + i];
        out[i] = sum;
    }
}

__kernel void clamped(__global const float *in, __global float *out, ulong width)
{
    size_t x = get_global_id(0);
    if (x < width) {
        size_t left = x > 0 ? x - 1 : 0;
        size_t right = x + 1 < width - 1 ? x + 1 : width - 1;
        out[x] = in[left] + 2.0f * in[x] + 4.0f * in[right];
    }
}

// Local variables (work-groups of at most 64): work-item l writes its element,
// then reads work-item m's (m = size - 1 - l, the group reversed). A 2-D array
// written at [l % 4][l / 4] (a row GEP then an element GEP) and read through a
// pointer to rows past an element (an element step then a row step).
__kernel void local_rows(__global const float *in, __global float *out)
{
    __local float tile[4][16];
    size_t l = get_local_id(0);
    size_t m = get_local_size(0) - 1 - l;
    tile[l % 4][l / 4] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local float (*rows)[16] = (__local float (*)[16])(&tile[0][0] + m / 4);
    out[get_global_id(0)] = rows[m % 4][0];
}

// A byte array read as floats and as bytes (the top byte of a float: its sign).
__kernel void byte_view(__global const float *in, __global float *out)
{
    __local uchar bytes[4 * 64] __attribute__((aligned(4)));
    __local float *f = (__local float *)bytes;
    size_t l = get_local_id(0);
    size_t m = get_local_size(0) - 1 - l;
    f[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = f[m] + (float)(bytes[4 * l + 3] >> 7);
}

// An array of structs: members at their offsets.
typedef struct { int key; float value; } pair;

__kernel void pairs(__global const float *in, __global float *out)
{
    __local pair items[64];
    size_t l = get_local_id(0);
    size_t m = get_local_size(0) - 1 - l;
    items[l].value = in[get_global_id(0)];
    items[l].key = (int)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = items[m].value + (float)items[m].key;
}

__kernel void triangle(__global const int *in, __global int *out)
{
    size_t i = get_global_id(0);
    int sum = 0;
    for (size_t k = 0; k <= i % 5; ++k)
        sum += in[i] + (int)k;
    out[i] = sum;
}

__kernel void tree(__global const int *in, __global int *out)
{
    __local int s[64];
    size_t lid = get_local_id(0);
    size_t n = get_local_size(0);
    s[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t d = 1;
    int count = 0;
    for (; d < n; d *= 2) {
        if (lid % (2 * d) == 0 && lid + d < n)
            s[lid] += s[lid + d];
        ++count;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = lid == 0 ? s[0] : count * 1000 + (int)d;
}

__kernel void nested(__global const int *in, __global int *out, uint n)
{
    size_t i = get_global_id(0);
    out[i] = 0;
    for (uint a = 0; a < n; ++a)
        for (uint b = 0; b <= a; ++b)
            if ((in[i] + (int)b) % 3 == 0)
                out[i] += (int)a;
}

// clang cannot rotate a loop whose header has a barrier (it would copy it): the
// loop is left after the barrier, at the top of its body.
__kernel void halving(__global const int *in, __global int *out)
{
    __local int s[64];
    size_t lid = get_local_id(0);
    size_t n = get_local_size(0);
    s[lid] = in[get_global_id(0)];
    int rounds = 0;
    for (;;) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (n <= 1)
            break;
        size_t h = (n + 1) / 2;
        int v = 0;
        if (lid + h < n)
            v = s[lid + h];
        barrier(CLK_LOCAL_MEM_FENCE);
        s[lid] += v;
        n = h;
        ++rounds;
    }
    out[get_global_id(0)] = lid == 0 ? s[0] : rounds;
}
"""

CASES = pytest.mark.parametrize(
    ("size", "local"),
    [(8, 8), (64, 16), (100, 12), (37, 37), (5, 5), (256, 64), (203, 1)],
)


def vectorised(
    kernel: str, local_size: int, build_options: str = ""
) -> func.FuncOp | None:
    """The vectorised function of `kernel` for a launch of `local_size`, through
    the host pipeline (without the conversion to LLVM) at width 8; None if it is
    not vectorised."""
    translated = to_mlir(SOURCE, "opencl", "<lift>", build_options)
    module = parse_cached(translated.mlir, f"<lift {build_options}>").clone()
    HostPipeline(
        kernel=kernel, local_sizes=(local_size, 1, 1), vecz_width=8, to_llvm=False
    ).apply(context(), module)
    found = [
        f
        for f in module.ops
        if isinstance(f, func.FuncOp) and mux_attrs.VECZ_DERIVED.get(f) is not None
    ]
    return found[0] if found else None


OUT = object()
"""Where the output buffer goes in `run_both`'s arguments."""


def run_both(programs, kernel: str, fill, args, launch) -> list[np.ndarray]:
    """`kernel`'s output (initially `fill` everywhere, of its type) from each
    program, with `args`, over `launch` (global size, local size)."""
    results = []
    for program in programs.values():
        result = np.full(launch[0], fill)
        program.kernel(kernel)(
            *(result if a is OUT else a for a in args),
            global_size=launch[0],
            local_size=launch[1],
        )
        results.append(result)
    return results


@pytest.fixture(scope="module")
def programs():
    """The program unvectorised (width 1) and vectorised (width 8)."""
    return {
        width: mux.compile(SOURCE, language="opencl", vecz_width=width)
        for width in (1, 8)
    }


@pytest.mark.parametrize("kernel", ["saxpy", "shifted", "mixed", "guarded", "dot_rows"])
def test_imported_kernels_are_vectorised(kernel):
    found = vectorised(kernel, 16)
    assert found is not None, kernel
    ops = {op.name for op in found.walk()}
    # whole vectors in and out, no llvm-level access of a buffer left (the
    # work-item queries' loads of the scheduling structs are define-mux-builtins')
    assert ops & {"vector.load", "vector.maskedload"}, ops  # masked under `if`
    assert ops & {"vector.store", "vector.maskedstore"}, ops
    buffers = [
        op
        for op in found.walk()
        if isinstance(op, llvm.LoadOp | llvm.StoreOp | llvm.GEPOp)
        and op.ptr.type == llvm.LLVMPointerType(IntAttr(1))
    ]
    assert not buffers, buffers


@CASES
def test_saxpy(programs, size, local):
    rng = np.random.default_rng(size)
    x = rng.random(size, np.float32)
    y0 = rng.random(size, np.float32)
    expected = np.float32(2.5) * x + y0
    for width, program in programs.items():
        y = y0.copy()
        program.kernel("saxpy")(
            np.float32(2.5), x, y, global_size=size, local_size=local
        )
        np.testing.assert_array_equal(y, expected, err_msg=f"width {width}")


@pytest.mark.parametrize("kernel", ["saxpy", "guarded", "dot_rows"])
def test_relaxed_math_is_vectorised(kernel):
    """-cl-fast-relaxed-math puts fast-math flags on every float op; they are
    lifted with it (a kernel asking for fast maths is not left scalar), and
    kept on the vector ops."""
    found = vectorised(kernel, 16, "-cl-fast-relaxed-math")
    assert found is not None, kernel
    flagged = [
        op
        for op in found.walk()
        if isinstance(op, arith.MulfOp) and "reassoc" in op.fastmath.data
    ]
    assert flagged and all(isinstance(op.result.type, VectorType) for op in flagged)


def test_relaxed_saxpy():
    program = mux.compile(
        SOURCE, language="opencl", build_options="-cl-fast-relaxed-math"
    )
    rng = np.random.default_rng(7)
    x, y = rng.random(100, np.float32), rng.random(100, np.float32)
    expected = np.float32(2.5) * x + y
    program.kernel("saxpy")(np.float32(2.5), x, y, global_size=100, local_size=12)
    np.testing.assert_allclose(y, expected, rtol=2**-22)


@CASES
def test_shifted(programs, size, local):
    data = np.arange(size + 3, dtype=np.float32) * 0.5
    fill = np.float32(np.nan)
    results = run_both(
        programs, "shifted", fill, [data, OUT, np.uint64(3)], (size, local)
    )
    np.testing.assert_array_equal(results[0], data[3:] * 2)
    np.testing.assert_array_equal(results[1], results[0])


@CASES
def test_mixed(programs, size, local):
    data = np.random.default_rng(size).integers(-1000, 1000, size).astype(np.int32)
    limit = 17
    i = np.arange(size, dtype=np.int64)
    v = data.astype(np.int64)
    w = ((v * 3 - i).astype(np.int32) ^ (data >> 2)).astype(np.int64)
    expected = np.where(v < limit, w, v) + (v & 0xFFFFFFFF)
    fill = np.int64(-1)
    results = run_both(programs, "mixed", fill, [data, OUT, limit], (size, local))
    np.testing.assert_array_equal(results[0], expected)
    np.testing.assert_array_equal(results[1], results[0])


@CASES
def test_guarded(programs, size, local):
    """A branch on the work-item (the guard) and a select-or-branch inside it."""
    data = np.random.default_rng(size).random(size + 4, np.float32)
    n = max(size - 3, 0)
    fill = np.float32(np.nan)
    results = run_both(
        programs, "guarded", fill, [data, OUT, np.uint64(n)], (size, local)
    )
    d = data[:n]
    expected = np.full(size, np.nan, np.float32)
    expected[:n] = np.where(d > 0.5, d * np.float32(3), d - np.float32(1))
    np.testing.assert_array_equal(results[0], expected)
    np.testing.assert_array_equal(results[1], results[0])


@CASES
@pytest.mark.parametrize("n", [1, 7])
def test_dot_rows(programs, size, local, n):
    """A loop (clang's rotated loop: one block) under a guard, its accumulator
    used after it."""
    width = max(size - 2, 1)
    rng = np.random.default_rng(n)
    a = rng.integers(0, 4, n).astype(np.float32)
    b = rng.integers(0, 4, n * width).astype(np.float32)
    fill = np.float32(np.nan)
    results = run_both(
        programs,
        "dot_rows",
        fill,
        [a, b, OUT, np.uint64(n), np.uint64(width)],
        (size, local),
    )
    expected = np.full(size, np.nan, np.float32)
    expected[:width] = a @ b.reshape(n, width)
    np.testing.assert_array_equal(results[0], expected)
    np.testing.assert_array_equal(results[1], results[0])


@CASES
def test_triangle(programs, size, local):
    """A loop whose trip count differs between work-items: lifted, not vectorised
    (run-vecz wants a uniform scf.while condition), still right."""
    data = np.arange(size, dtype=np.int32) * 3 - 7
    fill = np.int32(-1)
    results = run_both(programs, "triangle", fill, [data, OUT], (size, local))
    trips = np.arange(size) % 5 + 1
    expected = data * trips + trips * (trips - 1) // 2
    np.testing.assert_array_equal(results[0], expected)
    np.testing.assert_array_equal(results[1], results[0])


_ACCESSES = {
    "memref.load",
    "memref.store",
    "vector.load",
    "vector.store",
    "vector.maskedload",
    "vector.maskedstore",
}


@pytest.mark.parametrize("name", ["sgemm_naive", "stencil2d"])
def test_example_branches_are_lifted_and_vectorised(name):
    """The OpenCL C twins of the benchmark's kernels with branches: vectorised
    as their MLIR versions are, the cost model choosing the same width and rows
    (sgemm_naive: 16 lanes by 4 rows), with the same accesses (stencil2d's
    clamped neighbours: a masked contiguous load and one load at the clamp each,
    not a load per lane); their results: tests/test_examples_cl.py."""
    found = []
    for suffix, language in ((".cl", "opencl"), (".mlir", "mlir")):
        text = (EXAMPLES / f"{name}{suffix}").read_text()
        module = parse_cached(to_mlir(text, language, name).mlir, name).clone()
        HostPipeline(kernel=name, local_sizes=(16, 16, 1), to_llvm=False).apply(
            context(), module
        )
        derived = [
            f
            for f in module.ops
            if isinstance(f, func.FuncOp) and mux_attrs.VECZ_DERIVED.get(f) is not None
        ]
        accesses = sorted(
            op.name for f in derived for op in f.walk() if op.name in _ACCESSES
        )
        found.append(([f.sym_name.data for f in derived], accesses))
    assert found[0][0] and found[0] == found[1]


@CASES
def test_clamped(programs, size, local):
    """Neighbours clamped at the edges (clang's usub.sat and umin, lifted to
    clamps run-vecz keeps piecewise)."""
    width = max(size - 1, 1)
    data = np.random.default_rng(size).integers(0, 100, size).astype(np.float32)
    fill = np.float32(np.nan)
    results = run_both(
        programs, "clamped", fill, [data, OUT, np.uint64(width)], (size, local)
    )
    x = np.arange(width)
    left, right = np.maximum(x - 1, 0), np.minimum(x + 1, width - 1)
    expected = np.full(size, np.nan, np.float32)
    expected[:width] = data[left] + 2 * data[x] + 4 * data[right]
    np.testing.assert_array_equal(results[0], expected)
    np.testing.assert_array_equal(results[1], results[0])


LOCAL_KERNELS = ["local_rows", "byte_view", "pairs"]


@pytest.mark.parametrize("kernel", LOCAL_KERNELS)
def test_local_variables_are_lifted(kernel):
    """Every access of the local kernels (local arrays of rows, bytes, structs)
    is a memref one, the kernel vectorised (16 work-items: a required size)."""
    module = parse_cached(to_mlir(SOURCE, "opencl", "<lift>").mlir, "<lift>").clone()
    passes = HostPipeline(kernel=kernel, local_sizes=(16, 1, 1), vecz_width=8).passes()
    for one in passes:  # up to run-vecz: after it, work-item-loops runs the
        one.apply(context(), module)  # vectorised kernel between its barriers
        if isinstance(one, RunVeczPass):
            break
    found = [
        f
        for f in module.ops
        if isinstance(f, func.FuncOp) and mux_attrs.VECZ_DERIVED.get(f) is not None
    ]
    assert found, kernel
    left = [op for op in found[0].walk() if isinstance(op, llvm.LoadOp | llvm.StoreOp)]
    assert not left, left


def _reversed_groups(size: int, local: int) -> np.ndarray:
    """Work-item m of each group (m = size - 1 - l), the last group partial."""
    index = np.arange(size)
    for start in range(0, size, local):
        count = min(local, size - start)
        index[start : start + count] = start + np.arange(count)[::-1]
    return index


def _local_expected(kernel: str, data: np.ndarray, local: int) -> np.ndarray:
    """What a local kernel writes: work-item m's input (m = size - 1 - l in each
    group), plus the input's sign (byte_view) or m (pairs)."""
    m = _reversed_groups(len(data), local)
    expected = data[m]
    if kernel == "byte_view":
        expected = expected + (data < 0)
    elif kernel == "pairs":
        expected = expected + (m - np.arange(len(data)) // local * local)
    return expected.astype(np.float32)


@CASES
@pytest.mark.parametrize("kernel", LOCAL_KERNELS)
def test_local_variables(programs, size, local, kernel):
    data = np.random.default_rng(size).integers(-50, 50, size).astype(np.float32)
    data[data == 0] = 1  # the sign of -0.0 is not < 0
    results = run_both(programs, kernel, np.float32(np.nan), [data, OUT], (size, local))
    expected = _local_expected(kernel, data, local)
    np.testing.assert_array_equal(results[0], expected)
    np.testing.assert_array_equal(results[1], results[0])


@CASES
def test_tree(programs, size, local):
    """A loop of several blocks (an `&&` guard in its body, a barrier in its latch)
    behind clang's guard; its counter and its induction variable used after it."""
    data = np.random.default_rng(size).integers(-50, 50, size).astype(np.int32)
    results = run_both(programs, "tree", np.int32(-1), [data, OUT], (size, local))
    expected = np.empty(size, np.int32)
    for start in range(0, size, local):
        m = min(local, size - start)
        steps = (m - 1).bit_length()
        expected[start : start + m] = steps * 1000 + 2**steps
        expected[start] = data[start : start + m].sum()
    np.testing.assert_array_equal(results[0], expected)
    np.testing.assert_array_equal(results[1], results[0])


@CASES
@pytest.mark.parametrize("n", [1, 4])
def test_nested(programs, size, local, n):
    """A loop in a loop, a branch in the inner one."""
    data = np.arange(size, dtype=np.int32) - 3
    results = run_both(
        programs, "nested", np.int32(-1), [data, OUT, np.uint32(n)], (size, local)
    )
    expected = np.zeros(size, np.int32)
    for a in range(n):
        for b in range(a + 1):
            expected += np.where((data + b) % 3 == 0, a, 0).astype(np.int32)
    np.testing.assert_array_equal(results[0], expected)
    np.testing.assert_array_equal(results[1], results[0])


@pytest.mark.parametrize("kernel", ["tree", "nested", "halving"])
def test_loops_of_several_blocks_are_lifted(kernel):
    """Their kernels are one block of scf ops: no llvm branch is left."""
    module = parse_cached(to_mlir(SOURCE, "opencl", "<lift>").mlir, "<lift>").clone()
    passes = HostPipeline(kernel=kernel, local_sizes=(16, 1, 1)).passes()
    for p in passes[: [p.name for p in passes].index("lift-llvm-ops") + 1]:
        p.apply(context(), module)
    (function,) = [
        f
        for f in module.ops
        if isinstance(f, func.FuncOp) and f.sym_name.data == kernel
    ]
    assert len(function.body.blocks) == 1
    assert not any(isinstance(op, llvm.CondBrOp | llvm.BrOp) for op in function.walk())


@pytest.mark.parametrize("kernel", LOCAL_KERNELS)
def test_local_variables_vectorised(kernel):
    """The local kernels with a required work-group size of 16 (run-vecz then
    vectorises them, barriers and all: test_local_variables_are_lifted)."""
    required = "__attribute__((reqd_work_group_size(16, 1, 1))) __kernel"
    source = SOURCE.replace("__kernel", required)
    program = mux.compile(source, language="opencl", vecz_width=8)
    size = 64
    data = np.random.default_rng(3).integers(-50, 50, size).astype(np.float32)
    data[data == 0] = 1
    out = np.full(size, np.nan, np.float32)
    program.kernel(kernel)(data, out, global_size=size, local_size=16)
    np.testing.assert_array_equal(out, _local_expected(kernel, data, 16))


@CASES
def test_halving(programs, size, local):
    """A loop left at the top of its body (a barrier before the test), with a
    barrier, a diamond and a load in the rest; its counter used after it."""
    data = np.random.default_rng(size).integers(-50, 50, size).astype(np.int32)
    results = run_both(programs, "halving", np.int32(-1), [data, OUT], (size, local))
    expected = np.empty(size, np.int32)
    for start in range(0, size, local):
        m = min(local, size - start)
        expected[start : start + m] = (m - 1).bit_length()
        expected[start] = data[start : start + m].sum()
    np.testing.assert_array_equal(results[0], expected)
    np.testing.assert_array_equal(results[1], results[0])
