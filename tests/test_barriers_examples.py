"""The example kernels with work-group barriers, run and compared with numpy:
`reduce` and `scan` (1-D), `sgemm_tiled` and `transpose` (2-D), for local sizes that
divide the global size and local sizes that do not (the last work-group is smaller),
on one thread and on all cores.

Integer results, and float results that only hold small integers, are compared
exactly. Sums of arbitrary floats are compared with a relative tolerance, RTOL: the
kernels add in their own order (a tree in `reduce`, along k tile by tile in
`sgemm_tiled`), numpy and the float64 reference in another, and f32 addition is not
associative. Each f32 operation rounds with a relative error of at most 2**-24 (6e-8);
a sum of positive terms computed in any order is within (number of additions in a
chain) * 6e-8 of the exact value: 10 * 6e-8 for the tree of at most 1024 values of
`reduce`, 64 * 6e-8 = 4e-6 for the products of `sgemm_tiled` with n <= 64. RTOL = 1e-5
is above both, and far below what a lost or doubled term would change (more than 1e-3
of a sum of 1024 values in [0.5, 1)).
"""

from pathlib import Path

import numpy as np
import pytest
from kernels import THREADS, check_sgemm_floats, check_sgemm_integers, size_id

import mux

EXAMPLES = Path(__file__).parent.parent / "examples"
RTOL = 1e-5  # see the module docstring: summation order
# Each kernel as the cost model compiles it (scalar, or vectorised where it pays) and
# vectorised whenever run-vecz can (with barriers: local sizes whose x is a multiple
# of 8).
VECZ_WIDTHS = [0, 8]
VECZ_IDS = ["vecz=auto", "vecz=8"]


def group_starts(n: int, local: int) -> np.ndarray:
    """The first global id of each work-group of a 1-D range."""
    return np.arange(0, n, local)


# --------------------------------------------------------------------------------------
# reduce(input, partial, scratch): one sum per work-group.
# --------------------------------------------------------------------------------------

REDUCE_SIZES = pytest.mark.parametrize(
    ("n", "local"),
    [
        (1, 1),
        (7, 1),
        (10, 3),
        (64, 8),
        (67, 8),
        (100, 16),
        (1000, 64),
        (1024, 64),
        (3000, 1000),  # a local size that is not a power of two
        (2048, 1024),
        (5000, 1024),
    ],
)


@pytest.fixture(scope="module", params=VECZ_WIDTHS, ids=VECZ_IDS)
def reduce(request):
    return mux.load(EXAMPLES / "reduce.mlir", vecz_width=request.param).kernel("reduce")


def run_reduce(kernel, x, local, threads):
    n = len(x)
    partial = np.full(-(-n // local), np.nan, np.float32)
    kernel(
        x,
        partial,
        mux.LocalBuffer(4 * local),
        global_size=n,
        local_size=local,
        threads=threads,
    )
    return partial


@THREADS
@REDUCE_SIZES
def test_reduce_integers(reduce, n, local, threads):
    """Small integers: every partial sum is exact (< 2**24) whatever the order."""
    x = np.random.default_rng(n).integers(0, 100, n).astype(np.float32)
    partial = run_reduce(reduce, x, local, threads)
    expected = np.add.reduceat(x.astype(np.int64), group_starts(n, local))
    np.testing.assert_array_equal(partial, expected)


@THREADS
@REDUCE_SIZES
def test_reduce_floats(reduce, n, local, threads):
    x = np.random.default_rng(n).uniform(0.5, 1.0, n).astype(np.float32)
    partial = run_reduce(reduce, x, local, threads)
    expected = np.add.reduceat(x.astype(np.float64), group_starts(n, local))
    np.testing.assert_allclose(partial, expected, rtol=RTOL)


# --------------------------------------------------------------------------------------
# scan(input, output): inclusive prefix sums of i32 within each work-group.
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=VECZ_WIDTHS, ids=VECZ_IDS)
def scan(request):
    return mux.load(EXAMPLES / "scan.mlir", vecz_width=request.param).kernel("scan")


def scan_model(x: np.ndarray, local: int) -> np.ndarray:
    out = np.empty(len(x), np.int64)
    for start in group_starts(len(x), local):
        out[start : start + local] = np.cumsum(x[start : start + local], dtype=np.int64)
    return out


@THREADS
@pytest.mark.parametrize(
    ("n", "local"),
    [
        (1, 1),
        (8, 1),
        (10, 3),
        (64, 8),
        (70, 8),
        (17, 16),
        (256, 64),
        (1000, 64),
        (700, 255),  # one less than a power of two, and non-uniform
        (1000, 1000),
        (1500, 1000),
        (3072, 1024),
        (2000, 1024),
        (1100, 1023),
    ],
)
def test_scan(scan, n, local, threads):
    x = np.random.default_rng(n + local).integers(-1000, 1000, n).astype(np.int32)
    out = np.full(n, -1, np.int32)
    scan(
        x,
        out,
        global_size=n,
        local_size=local,
        threads=threads,
    )
    np.testing.assert_array_equal(out, scan_model(x, local))


@THREADS
def test_scan_every_local_size_up_to_40(scan, threads):
    """Every local size from 1 to 40, on 97 work-items (uniform only for 1 and 97's
    divisors, so almost all of these share one compiled variant)."""
    n = 97
    x = np.random.default_rng(5).integers(-1000, 1000, n).astype(np.int32)
    for local in range(2, 41):
        out = np.full(n, -1, np.int32)
        scan(
            x,
            out,
            global_size=n,
            local_size=local,
            threads=threads,
        )
        np.testing.assert_array_equal(out, scan_model(x, local), f"local {local}")


# --------------------------------------------------------------------------------------
# sgemm_tiled(a, b, c, n): C = A * B.
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=VECZ_WIDTHS, ids=VECZ_IDS)
def sgemm(request):
    return mux.load(EXAMPLES / "sgemm_tiled.mlir", vecz_width=request.param).kernel(
        "sgemm_tiled"
    )


# (n, global size, local size): n x n ranges whose last work-groups are smaller when
# 16 does not divide n, ranges rounded up to a multiple of 16 (work-items outside the
# matrix), and local sizes smaller than 16 x 16.
SGEMM_SIZES = pytest.mark.parametrize(
    ("n", "global_size", "local_size"),
    [
        (16, (16, 16), (16, 16)),
        (48, (48, 48), (16, 16)),
        (1, (1, 1), (1, 1)),
        (20, (20, 20), (16, 16)),
        (37, (37, 37), (16, 16)),
        (37, (48, 48), (16, 16)),  # rounded up: work-items outside the matrix
        (64, (64, 64), (8, 4)),
        (29, (29, 29), (8, 4)),
        (5, (5, 5), (4, 4)),
    ],
    ids=size_id,
)


@THREADS
@SGEMM_SIZES
def test_sgemm_integers(sgemm, n, global_size, local_size, threads):
    check_sgemm_integers(sgemm, n, global_size, local_size, threads)


@THREADS
@SGEMM_SIZES
def test_sgemm_floats(sgemm, n, global_size, local_size, threads):
    check_sgemm_floats(sgemm, n, global_size, local_size, threads, RTOL)


# --------------------------------------------------------------------------------------
# transpose(input, output, width, height).
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=VECZ_WIDTHS, ids=VECZ_IDS)
def transpose(request):
    return mux.load(EXAMPLES / "transpose.mlir", vecz_width=request.param).kernel(
        "transpose"
    )


@THREADS
@pytest.mark.parametrize(
    ("width", "height", "local_size"),
    [
        (16, 16, (16, 16)),
        (64, 32, (16, 16)),
        (37, 20, (16, 16)),  # non-uniform in both dimensions
        (100, 3, (16, 2)),
        (5, 33, (4, 8)),
        (48, 32, (8, 16)),
        (17, 1, (16, 1)),
        (1, 1, (1, 1)),
        (33, 47, (3, 5)),
    ],
    ids=size_id,
)
def test_transpose(transpose, width, height, local_size, threads):
    image = np.random.default_rng(width * height).random((height, width), np.float32)
    out = np.full(width * height, np.nan, np.float32)
    transpose(
        image.ravel(),
        out,
        width,
        height,
        global_size=(width, height),
        local_size=local_size,
        threads=threads,
    )
    np.testing.assert_array_equal(out.reshape(width, height), image.T)


@THREADS
@pytest.mark.parametrize(("width", "local"), [(64, 16), (40, 16), (7, 3)])
def test_transpose_1d(transpose, width, local, threads):
    """A 1-D range: one row, whose transpose is a column (the same values)."""
    row = np.arange(width, dtype=np.float32)
    out = np.full(width, np.nan, np.float32)
    transpose(row, out, width, 1, global_size=width, local_size=local, threads=threads)
    np.testing.assert_array_equal(out, row)
