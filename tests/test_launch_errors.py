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
        (1, 1.5, "argument 'n': expected an i32 scalar, got float 1.5"),
        (3, "x", "argument 'x': expected an f32 scalar, got str 'x'"),
        (4, np.zeros(1), "argument 'size': expected an index scalar, got an array"),
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
    with pytest.raises(mux.KernelNotFound, match=r"no kernel 'nope' \(kernels: vadd\)"):
        mux.load(EXAMPLES / "vadd.mlir").kernel("nope")
    assert issubclass(mux.KernelNotFound, KeyError)
    with pytest.raises(mux.KernelNotFound) as error:
        mux.compile("builtin.module {}").kernel("vadd")
    assert str(error.value) == "no kernel 'vadd' (kernels: none)"


def test_a_kernel_without_a_body_is_a_compile_error():
    with pytest.raises(mux.CompileError, match="kernel 'decl' has no body"):
        mux.compile(
            "func.func private @decl(memref<?xf32, 1>)\n"
            '    attributes {mux.kernel = "entry-point"}'
        )


# --------------------------------------------------------------------------------------
# mux.max_work_dim: the NDRange may have that many dimensions at most.
# --------------------------------------------------------------------------------------

MAX_WORK_DIM_1 = """
func.func @row(%out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point",
    mux.max_work_dim = 1 : i32} {
  %d0 = arith.constant 0 : i32
  %i = mux.get_global_linear_id
  %one = arith.constant 1 : i32
  memref.store %one, %out[%i] : memref<?xi32, 1>
  func.return
}
"""


@pytest.mark.parametrize(
    "sizes",
    [
        {"global_size": (4, 4), "local_size": (2, 2)},
        {"global_size": (4, 4), "local_size": (4, 1)},
        {"global_size": (4, 1, 1)},
    ],
)
def test_max_work_dim_bounds_the_dimensions_of_the_range(sizes):
    kernel = mux.compile(MAX_WORK_DIM_1).kernel("row")
    out = np.zeros(16, np.int32)
    _refused(
        kernel, (out,), r"mux.max_work_dim = 1.*2|mux.max_work_dim = 1.*3", **sizes
    )


def test_max_work_dim_allows_its_dimensions():
    kernel = mux.compile(MAX_WORK_DIM_1).kernel("row")
    out = np.zeros(16, np.int32)
    kernel(out, global_size=16, local_size=4)
    np.testing.assert_array_equal(out, np.ones(16, np.int32))


# --------------------------------------------------------------------------------------
# Sizes and offsets fit the device's size_t (mux.runtime.SIZE_MAX): nothing wraps.
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sizes", "match"),
    [
        ({"global_offset": 2**64 + 1}, "global_offset: .* over the device's maximum"),
        ({"global_offset": 2**63}, "global_offset: .* over the device's maximum"),
        ({"global_size": np.uint64(2**64 - 1)}, "global_size: .* over the device's"),
        ({"global_size": 2**63}, "global_size: .* over the device's maximum"),
        ({"global_offset": 2**63 - 4}, "global_offset \\+ global_size: .* dimension 0"),
        (
            {"global_size": (8, 2), "global_offset": (0, 2**63 - 2)},
            "global_offset \\+ global_size: .* dimension 1",
        ),
        ({"global_size": (2**32, 2**32)}, "global_size: .* work-items, over"),
        ({"global_size": True}, "global_size: .* not a bool"),
        ({"global_offset": False}, "global_offset: .* not a bool"),
        ({"local_size": np.True_}, "local_size: .* not a bool"),
        ({"global_size": 8.0}, "global_size: an int or 1 to 3 ints"),
    ],
)
def test_sizes_and_offsets_fit_the_device(vadd, buffers, sizes, match):
    sizes.setdefault("global_size", 8)
    _refused(vadd, buffers, match, **sizes)


def test_numpy_offsets_apply_to_every_dimension():
    kernel = mux.load(EXAMPLES / "ids3d.mlir").kernel("ids3d")
    out = np.full(4 * 4, -1, np.int32)
    kernel(out, global_size=(4, 4), local_size=(2, 2), global_offset=np.int64(3))
    assert (out >= 0).all()


# --------------------------------------------------------------------------------------
# LocalBuffer and 0-d arrays.
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("nbytes", "error", "match"),
    [
        (None, TypeError, "LocalBuffer: a number of bytes .*, got NoneType None"),
        ("64", TypeError, "LocalBuffer: a number of bytes .*, got str '64'"),
        (2.5, TypeError, "LocalBuffer: a number of bytes .*, got float 2.5"),
        (True, TypeError, "LocalBuffer: a number of bytes .*, got bool True"),
        (np.float32(8), TypeError, "LocalBuffer: a number of bytes"),
        (0, ValueError, "LocalBuffer: a positive number of bytes, got 0"),
        (-64, ValueError, "LocalBuffer: a positive number of bytes, got -64"),
    ],
)
def test_local_buffer_sizes_are_checked_when_made(nbytes, error, match):
    with pytest.raises(error, match=match):
        mux.LocalBuffer(nbytes)


def test_local_buffer_takes_numpy_integers():
    buffer = mux.LocalBuffer(np.int64(64))
    assert buffer.nbytes == 64 and type(buffer.nbytes) is int


def test_local_buffer_smaller_than_a_static_local_memref():
    kernel = mux.compile(STATIC.replace("memref<8xf32, 3>", "memref<2x4xf32, 3>"))
    kernel = kernel.kernel("static")
    out = np.zeros(16, np.float32)
    _refused(kernel, (out, mux.LocalBuffer(31)), "a local buffer of 31 bytes; .* 32")
    kernel(out, mux.LocalBuffer(32), global_size=1)


def test_zero_dimensional_arrays_are_not_buffers(vadd, buffers):
    a, b, _ = buffers
    c = np.zeros((), np.float32)
    _refused(
        vadd, (a, b, c), "argument 'c': a 0-d array is not a buffer", global_size=1
    )


def test_zero_dimensional_arrays_are_scalars():
    kernel = mux.compile(SCALARS).kernel("scalars")
    out = np.zeros(4, np.int32)
    kernel(out, np.array(9, np.int16), 1, np.array(1.0), 3, global_size=4)
    np.testing.assert_array_equal(out, [9] * 4)


# --------------------------------------------------------------------------------------
# Scalar arguments: C's implicit conversions.
# --------------------------------------------------------------------------------------

STORE_SCALARS = """
func.func @store(%fo: memref<?xf32, 1>, %ho: memref<?xf16, 1>, %io: memref<?xi64, 1>,
                 %x: f32, %h: f16, %s: index, %n: i32, %b: i1, %small: i8, %d: f64,
                 %do: memref<?xf64, 1>)
    attributes {mux.kernel = "entry-point"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  memref.store %x, %fo[%c0] : memref<?xf32, 1>
  memref.store %h, %ho[%c0] : memref<?xf16, 1>
  memref.store %d, %do[%c0] : memref<?xf64, 1>
  %s64 = arith.index_cast %s : index to i64
  memref.store %s64, %io[%c0] : memref<?xi64, 1>
  %n64 = arith.extsi %n : i32 to i64
  memref.store %n64, %io[%c1] : memref<?xi64, 1>
  %b64 = arith.extui %b : i1 to i64
  memref.store %b64, %io[%c2] : memref<?xi64, 1>
  %small64 = arith.extsi %small : i8 to i64
  memref.store %small64, %io[%c3] : memref<?xi64, 1>
  func.return
}
"""

SCALAR_NAMES = ("x", "h", "s", "n", "b", "small", "d")
DEFAULTS = {"x": 0.0, "h": 0.0, "s": 0, "n": 0, "b": False, "small": 0, "d": 0.0}


@pytest.fixture(scope="module")
def store():
    return mux.compile(STORE_SCALARS).kernel("store")


def _store(kernel, **values):
    """Runs `store` with `values` for some scalars; the stored (x, h, s, n, b, small,
    d)."""
    fo, ho = np.zeros(1, np.float32), np.zeros(1, np.float16)
    io, do = np.zeros(4, np.int64), np.zeros(1, np.float64)
    scalars = [values.get(name, DEFAULTS[name]) for name in SCALAR_NAMES]
    kernel(fo, ho, io, *scalars[:6], scalars[6], do, global_size=1)
    return fo[0], ho[0], io[0], io[1], io[2], io[3], do[0]


def _bits(value):
    return np.asarray(value).tobytes()


@pytest.mark.parametrize(
    ("name", "value", "stored"),
    [
        # Integers of any Python or numpy type whose value fits.
        ("s", np.int32(-5), -5),
        ("s", np.uint8(200), 200),
        ("s", np.uint64(2**64 - 1), -1),
        ("s", 2**63, -(2**63)),
        ("n", np.uint32(2**32 - 1), -1),
        ("n", np.int64(-7), -7),
        ("small", np.uint16(255), -1),
        ("b", True, 1),
        ("b", np.True_, 1),
        ("b", np.False_, 0),
        ("b", 1, 1),
        # Reals for floats, rounded to the nearest as C does.
        ("x", np.float64(0.1), np.float32(0.1)),
        ("x", 0.1, np.float32(0.1)),
        ("x", np.int64(16777217), np.float32(16777216)),
        # One rounding, not two (through f64 this would be 2**60, a tie to even).
        ("x", 2**60 + 2**36 + 1, np.float32(2**60 + 2**37)),
        ("x", np.uint64(2**64 - 1), np.float32(2**64)),
        ("x", np.float16(1.5), np.float32(1.5)),
        ("x", float("inf"), np.float32("inf")),
        ("x", 3.4028235e38, np.finfo(np.float32).max),
        ("h", 0.1, np.float16(0.1)),
        ("h", 65519, np.float16(65504)),
        ("h", np.int8(-3), np.float16(-3)),
        ("d", np.float32(0.1), np.float64(np.float32(0.1))),
        ("d", 2**53 + 1, np.float64(2**53)),
        ("d", np.longdouble(0.25), 0.25),
    ],
)
def test_scalars_convert_as_c_does(store, name, value, stored):
    result = _store(store, **{name: value})[SCALAR_NAMES.index(name)]
    assert _bits(result) == _bits(np.asarray(stored, np.asarray(result).dtype)), (
        result,
        stored,
    )


def test_a_nan_stays_a_nan(store):
    x, h, *_, d = _store(store, x=np.float64("nan"), h=float("nan"), d=np.nan)
    assert np.isnan(x) and np.isnan(h) and np.isnan(d)


@pytest.mark.parametrize(
    ("name", "value", "match"),
    [
        ("s", True, "argument 's': expected an index scalar, got bool True"),
        ("s", np.True_, "argument 's': expected an index scalar, got a numpy bool"),
        (
            "s",
            2**64,
            "2\\*\\*64|18446744073709551616 is out of range for index: an "
            "integer from -9223372036854775808 to 18446744073709551615",
        ),
        ("s", -(2**63) - 1, "out of range for index"),
        (
            "n",
            np.float32(1),
            "argument 'n': expected an i32 scalar, got a numpy float32",
        ),
        (
            "n",
            np.uint64(2**63),
            "9223372036854775808 is out of range for i32: an "
            "integer from -2147483648 to 4294967295",
        ),
        ("n", 1.0, "argument 'n': expected an i32 scalar, got float 1.0"),
        ("small", -129, "-129 is out of range for i8: an integer from -128 to 255"),
        ("b", 2, "argument 'b': 2 is out of range for i1: 0, 1 or a bool"),
        ("b", -1, "argument 'b': -1 is out of range for i1"),
        ("b", 0.0, "argument 'b': expected an i1 scalar, got float 0.0"),
        ("x", True, "argument 'x': expected an f32 scalar, got bool True"),
        ("x", np.False_, "argument 'x': expected an f32 scalar, got a numpy bool"),
        (
            "x",
            1e39,
            "argument 'x': 1e\\+39 is out of range for f32: finite values "
            "are within ±3.4028235e\\+38",
        ),
        ("x", 2**200, "out of range for f32"),
        ("x", 1j, "argument 'x': expected an f32 scalar, got complex 1j"),
        ("x", np.complex64(1), "expected an f32 scalar, got a numpy complex64"),
        (
            "h",
            65520.0,
            "65520.0 is out of range for f16: finite values are within ±65504",
        ),
        pytest.param("d", 10**400, "out of range for f64", id="d-10**400"),
        ("d", "1.0", "argument 'd': expected an f64 scalar, got str '1.0'"),
    ],
)
def test_scalars_out_of_range_or_of_the_wrong_kind(store, name, value, match):
    with pytest.raises(mux.LaunchError, match=match):
        _store(store, **{name: value})
