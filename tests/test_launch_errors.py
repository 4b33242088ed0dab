"""Bad launches and bad modules raise `mux.LaunchError` / `mux.CompileError` naming
the problem, before anything runs: a refused launch leaves every buffer untouched."""

import re
from pathlib import Path

import numpy as np
import pytest

import mux

EXAMPLES = Path(__file__).parent.parent / "examples"

SCALARS = """
func.func @scalars(%out: memref<?xi32, 1>, %n: i32, %small: i8, %x: f32, %size: index)
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %i = mux.get_global_id %d
  memref.store %n, %out[%i] : memref<?xi32, 1>
  func.return
}
"""

STATIC = """
func.func @static(%out: memref<16xf32, 1>, %tile: memref<8xf32, 3>)
    attributes {mux.kernel = "entry-point"} {
  func.return
}
"""


@pytest.fixture(scope="module")
def vadd():
    return mux.load(EXAMPLES / "vadd.mlir").kernel("vadd")


@pytest.fixture
def buffers():
    a = np.arange(8, dtype=np.float32)
    return a, a.copy(), np.full(8, 7.0, np.float32)


def _refused(kernel, args, match, **sizes):
    """The launch raises LaunchError matching `match`, and no array changed."""
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    before = [a.copy() for a in arrays]
    sizes.setdefault("global_size", 8)
    with pytest.raises(mux.LaunchError, match=match):
        kernel(*args, **sizes)
    for old, new in zip(before, arrays, strict=True):
        np.testing.assert_array_equal(old, new)


def test_wrong_argument_count(vadd, buffers):
    a, b, _ = buffers
    _refused(vadd, (a, b), re.escape("vadd takes 3 arguments (a, b, c), got 2"))


def test_wrong_dtype_names_the_argument(vadd, buffers):
    a, b, c = buffers
    _refused(
        vadd, (a, b.astype(np.float64), c), "argument 'b': expected an array of f32"
    )


def test_not_an_array(vadd, buffers):
    a, b, _ = buffers
    _refused(vadd, (a, b, [0.0] * 8), "argument 'c': expected a contiguous f32 array")


def test_non_contiguous_array(vadd, buffers):
    a, b, _ = buffers
    strided = np.zeros(16, np.float32)[::2]
    _refused(vadd, (a, b, strided), "argument 'c': the array is not C-contiguous")


def test_read_only_output(vadd, buffers):
    a, b, c = buffers
    c.flags.writeable = False
    _refused(vadd, (a, b, c), "argument 'c': the array is read-only")


@pytest.mark.parametrize(
    ("index", "value", "match"),
    [
        (1, 2**32, "argument 'n': 4294967296 is out of range for i32"),
        (1, -(2**31) - 1, "argument 'n': -2147483649 is out of range for i32"),
        (2, 256, "argument 'small': 256 is out of range for i8"),
        (1, 1.5, "argument 'n': expected a i32 scalar, got float 1.5"),
        (3, "x", "argument 'x': expected a f32 scalar, got str 'x'"),
        (3, np.float64(1), "argument 'x': expected a f32 scalar, got a numpy float64"),
        (4, np.zeros(1), "argument 'size': expected a index scalar, got an array"),
    ],
)
def test_bad_scalars(index, value, match):
    kernel = mux.compile(SCALARS).kernel("scalars")
    out = np.zeros(8, np.int32)
    args = [out, 1, 1, 1.0, 1]
    args[index] = value
    _refused(kernel, args, match)


def test_scalars_accept_both_signs_of_a_signless_integer():
    kernel = mux.compile(SCALARS).kernel("scalars")
    out = np.zeros(4, np.int32)
    kernel(out, 2**32 - 1, -128, np.float32(1), 3, global_size=4)
    np.testing.assert_array_equal(out, [-1] * 4)


@pytest.mark.parametrize(
    ("sizes", "match"),
    [
        ({"global_size": 0}, "global_size: sizes must be positive"),
        ({"global_size": -4}, "global_size: sizes must be positive"),
        ({"global_size": (2, 2, 2, 2)}, "global_size: an int or 1 to 3 ints"),
        ({"global_size": 8, "local_size": 0}, "local_size: sizes must be positive"),
        ({"global_size": 8, "local_size": (2, 2)}, "local_size: 2 dimensions"),
        ({"global_size": 2048, "local_size": 2048}, "over the device maximum"),
        ({"global_size": (64, 64), "local_size": (64, 32)}, "over the device maximum"),
        ({"global_size": 8, "global_offset": -1}, "global_offset: sizes must be"),
        ({"global_size": 8, "threads": 0}, "threads: a positive int"),
    ],
)
def test_bad_sizes(vadd, buffers, sizes, match):
    _refused(vadd, buffers, match, **sizes)


def test_static_buffer_too_small_and_local_buffers():
    kernel = mux.compile(STATIC).kernel("static")
    small = np.zeros(15, np.float32)
    _refused(
        kernel,
        (small, mux.LocalBuffer(32)),
        re.escape("argument 'out': the array has 15 elements"),
    )
    ok = np.zeros(16, np.float32)
    _refused(kernel, (ok, np.zeros(8, np.float32)), "argument 'tile': expected a mux")
    _refused(kernel, (ok, mux.LocalBuffer(16)), "a local buffer of 16 bytes")
    _refused(
        kernel, (ok, mux.LocalBuffer(1 << 20)), "local memory: the arguments ask for"
    )


def test_compile_errors_carry_the_diagnostic():
    with pytest.raises(mux.CompileError, match="MemSemantics sets at most one"):
        mux.compile(
            "func.func @k() {\n"
            "  mux.mem_barrier scope(device) semantics(acquire | release)\n"
            "  func.return\n}"
        )
    with pytest.raises(mux.CompileError, match="'fadd' on i32"):
        mux.compile(
            "func.func @k(%x: i32) {\n"
            "  %r = mux.sub_group_reduce fadd %x : i32\n  func.return\n}"
        )
    with pytest.raises(mux.CompileError, match="unknown mux attribute"):
        mux.compile("func.func @k() attributes {mux.kernle} {\n  func.return\n}")


def test_unknown_kernel():
    with pytest.raises(KeyError, match=r"no kernel 'nope' \(kernels: vadd\)"):
        mux.load(EXAMPLES / "vadd.mlir").kernel("nope")
