"""The example kernels the benchmark suite adds (scripts/bench.py), run and compared
with numpy: `sgemm_naive` and `stencil2d`, 2-D ranges, local sizes that divide the
global size and local sizes that do not (the last work-groups are smaller), ranges
rounded up past the data (work-items outside it write nothing), on one thread and on
all cores.

`stencil2d` adds its five values in a fixed order and multiplies by 0.2 in f32, as the
numpy model below does, so it is compared exactly. `sgemm_naive` adds its products
along k in order; the float64 reference adds them exactly, so, as in
test_barriers_examples.py, it is compared with a relative tolerance (n <= 64 products
of positive terms: at most 64 * 6e-8 = 4e-6 apart), or exactly on small integers.
"""

from pathlib import Path

import numpy as np
import pytest
from kernels import (
    THREADS,
    check_sgemm_floats,
    check_sgemm_integers,
    run_sgemm,
    size_id,
)

import mux

EXAMPLES = Path(__file__).parent.parent / "examples"
RTOL = 1e-5

# --------------------------------------------------------------------------------------
# sgemm_naive(a, b, c, n): C = A * B, one work-item per element of C.
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sgemm_naive():
    return mux.load(EXAMPLES / "sgemm_naive.mlir").kernel("sgemm_naive")


SGEMM_SIZES = pytest.mark.parametrize(
    ("n", "global_size", "local_size"),
    [
        (1, (1, 1), (1, 1)),
        (16, (16, 16), (16, 16)),
        (64, (64, 64), (16, 16)),
        (37, (37, 37), (16, 16)),  # non-uniform in both dimensions
        (37, (48, 48), (16, 16)),  # rounded up: work-items outside the matrix
        (29, (29, 29), (8, 4)),
        (5, (5, 5), (4, 4)),
        (33, (33, 33), (33, 1)),
    ],
    ids=size_id,
)


@THREADS
@SGEMM_SIZES
def test_sgemm_naive_integers(sgemm_naive, n, global_size, local_size, threads):
    check_sgemm_integers(sgemm_naive, n, global_size, local_size, threads)


@THREADS
@SGEMM_SIZES
def test_sgemm_naive_floats(sgemm_naive, n, global_size, local_size, threads):
    check_sgemm_floats(sgemm_naive, n, global_size, local_size, threads, RTOL)


def test_sgemm_naive_is_a_plain_dot_product_in_k_order(sgemm_naive):
    """The sum along k in order, in f32: the same as numpy's sequential model."""
    n = 24
    rng = np.random.default_rng(7)
    a = rng.random((n, n), np.float32)
    b = rng.random((n, n), np.float32)
    c = run_sgemm(sgemm_naive, a, b, (n, n), (8, 8), 1)
    expected = np.zeros((n, n), np.float32)
    for k in range(n):
        expected += a[:, k : k + 1] * b[k : k + 1, :]
    np.testing.assert_array_equal(c, expected)


# --------------------------------------------------------------------------------------
# stencil2d(input, output, width, height): 5-point average, clamped borders.
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def stencil2d():
    return mux.load(EXAMPLES / "stencil2d.mlir").kernel("stencil2d")


def stencil_model(image: np.ndarray) -> np.ndarray:
    """The kernel's sum, in its order, over the image padded with its edge pixels."""
    p = np.pad(image, 1, mode="edge")
    total = p[:-2, 1:-1] + p[1:-1, :-2]  # up + left
    total += p[1:-1, 1:-1]  # + center
    total += p[1:-1, 2:]  # + right
    total += p[2:, 1:-1]  # + down
    return total * np.float32(0.2)


@THREADS
@pytest.mark.parametrize(
    ("width", "height", "global_size", "local_size"),
    [
        (16, 16, (16, 16), (16, 16)),
        (64, 32, (64, 32), (16, 16)),
        (37, 20, (37, 20), (16, 16)),  # non-uniform in both dimensions
        (37, 20, (48, 32), (16, 16)),  # rounded up: work-items outside the image
        (100, 3, (100, 3), (16, 2)),
        (5, 33, (5, 33), (4, 8)),
        (1, 1, (1, 1), (1, 1)),  # every neighbour is the pixel itself
        (1, 9, (1, 9), (1, 4)),  # one column: left and right are the pixel
        (9, 1, (9, 1), (4, 1)),  # one row: up and down are the pixel
        (33, 47, (33, 47), (3, 5)),
    ],
    ids=size_id,
)
def test_stencil2d(stencil2d, width, height, global_size, local_size, threads):
    image = np.random.default_rng(width * height).random((height, width), np.float32)
    out = np.full(width * height, np.nan, np.float32)
    stencil2d(
        image.ravel(),
        out,
        width,
        height,
        global_size=global_size,
        local_size=local_size,
        threads=threads,
    )
    np.testing.assert_array_equal(out.reshape(height, width), stencil_model(image))


def test_stencil2d_constant_image_is_unchanged(stencil2d):
    """The average of five equal values, border pixels included (clamping, not
    zero padding): 5 * 2.5 * 0.2 rounds back to 2.5 in f32."""
    width, height = 40, 24
    image = np.full(width * height, 2.5, np.float32)
    out = np.zeros_like(image)
    stencil2d(image, out, width, height, global_size=(width, height), local_size=(8, 8))
    np.testing.assert_array_equal(out, image)


def test_stencil2d_corner_pixel(stencil2d):
    """Pixel (0, 0) of a 3 x 3 ramp: up and left are clamped to the pixel itself."""
    image = np.arange(9, dtype=np.float32)  # rows [0 1 2] [3 4 5] [6 7 8]
    out = np.zeros_like(image)
    stencil2d(image, out, 3, 3, global_size=(3, 3), local_size=(3, 3))
    # up = 0 (clamped), left = 0 (clamped), center 0, right 1, down 3
    assert out[0] == np.float32(4.0) * np.float32(0.2)
    # the center pixel: 1 + 3 + 4 + 5 + 7 = 20
    assert out[4] == np.float32(20.0) * np.float32(0.2)
