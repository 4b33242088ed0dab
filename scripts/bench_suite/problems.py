"""The benchmark's problems: each kernel of the suite at a size, with its data,
launch, numpy reference and the arguments of each implementation; `check`
compares a result with the reference."""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Local:
    """A local-memory kernel argument of `nbytes` per work-group: `mux.LocalBuffer`
    for mux, `pyopencl.LocalMemory` for PoCL."""

    nbytes: int


@dataclass
class Problem:
    """One kernel of the suite at one size.

    `name` is the kernel's name in `examples/<name>.mlir` and its OpenCL C twin
    `examples/<name>.cl`, whose kernels take the same arguments:
    `kernel_args(inputs, output)` gives them, with buffers in place of the arrays for
    PoCL. `c_args` gives the arguments of C function `c_function` (arrays become
    pointers), `numpy` computes the result into `output` with numpy.
    """

    name: str
    title: str
    size: str
    global_size: tuple[int, ...]
    local_size: tuple[int, ...]
    inputs: list[np.ndarray]
    output: np.ndarray
    """The initial content of the output buffer (NaN or -1 where the kernel writes,
    so that a missing write shows; the data itself for an in-place kernel)."""
    expected: np.ndarray
    rtol: float
    """Relative tolerance of the check; 0: exact."""
    kernel_args: Callable[[list[Any], Any], tuple[Any, ...]]
    c_function: str
    c_argtypes: tuple[Any, ...]
    c_args: Callable[[list[np.ndarray], np.ndarray], tuple[Any, ...]]
    numpy: Callable[[list[np.ndarray], np.ndarray], None]
    work: float
    """Bytes moved (at least) or floating-point operations of one run."""
    unit: str
    """GB/s or GFLOP/s: what `work` per second is."""
    reset_output: bool = False
    """In place: the output is restored from `output` before every run (untimed)."""


P, F32, I64 = ctypes.c_void_p, ctypes.c_float, ctypes.c_int64


def _floats(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.random(n, np.float32)


def _pow2(n: int) -> str:
    return f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 else str(n)


def vadd_problem(n: int) -> Problem:
    rng = np.random.default_rng(1)
    a, b = _floats(rng, n), _floats(rng, n)
    return Problem(
        name="vadd",
        title="vadd f32",
        size=_pow2(n),
        global_size=(n,),
        local_size=(min(n, 256),),
        inputs=[a, b],
        output=np.full(n, np.nan, np.float32),
        expected=a + b,
        rtol=0.0,
        kernel_args=lambda i, out: (i[0], i[1], out),
        c_function="vadd",
        c_argtypes=(P, P, P, I64),
        c_args=lambda i, out: (i[0], i[1], out, n),
        numpy=lambda i, out: np.add(i[0], i[1], out=out),
        work=3 * 4 * n,
        unit="GB/s",
    )


def saxpy_problem(n: int) -> Problem:
    rng = np.random.default_rng(2)
    x, y = _floats(rng, n), _floats(rng, n)
    alpha = np.float32(2.5)

    def numpy_saxpy(i: list[np.ndarray], out: np.ndarray) -> None:
        out += alpha * i[0]

    return Problem(
        name="saxpy",
        title="saxpy f32",
        size=_pow2(n),
        global_size=(n,),
        local_size=(min(n, 256),),
        inputs=[x],
        output=y,
        # gcc and PoCL may fuse the multiply and the add (one rounding instead of two)
        expected=float(alpha) * x.astype(np.float64) + y,
        rtol=1e-6,
        kernel_args=lambda i, out: (alpha, i[0], out),
        c_function="saxpy",
        c_argtypes=(F32, P, P, I64),
        c_args=lambda i, out: (alpha, i[0], out, n),
        numpy=numpy_saxpy,
        work=3 * 4 * n,
        unit="GB/s",
        reset_output=True,
    )


def reduce_problem(n: int) -> Problem:
    group = 256
    x = _floats(np.random.default_rng(3), n)
    return Problem(
        name="reduce",
        title="reduce f32, local tree",
        size=f"{_pow2(n)}, wg {group}",
        global_size=(n,),
        local_size=(group,),
        inputs=[x],
        output=np.full(n // group, np.nan, np.float32),
        expected=x.astype(np.float64).reshape(-1, group).sum(axis=1),
        # 256 positive terms added in different orders: within 256 * 6e-8 = 1.5e-5
        rtol=1e-4,
        kernel_args=lambda i, out: (i[0], out, Local(4 * group)),
        c_function="reduce",
        c_argtypes=(P, P, I64, I64),
        c_args=lambda i, out: (i[0], out, n, group),
        numpy=lambda i, out: np.sum(i[0].reshape(-1, group), axis=1, out=out),
        work=4 * n + 4 * (n // group),
        unit="GB/s",
    )


def _sgemm_problem(n: int, name: str, title: str) -> Problem:
    rng = np.random.default_rng(4)
    a, b = _floats(rng, n * n), _floats(rng, n * n)
    expected = a.reshape(n, n).astype(np.float64) @ b.reshape(n, n).astype(np.float64)

    def numpy_sgemm(i: list[np.ndarray], out: np.ndarray) -> None:
        np.matmul(i[0].reshape(n, n), i[1].reshape(n, n), out=out.reshape(n, n))

    return Problem(
        name=name,
        title=title,
        size=f"{n}^3",
        global_size=(n, n),
        local_size=(min(n, 16), min(n, 16)),
        inputs=[a, b],
        output=np.full(n * n, np.nan, np.float32),
        expected=expected.ravel(),
        # n positive products added in different orders: within n * 6e-8
        rtol=1e-4,
        kernel_args=lambda i, out: (i[0], i[1], out, np.uint64(n)),
        c_function="sgemm",
        c_argtypes=(P, P, P, I64),
        c_args=lambda i, out: (i[0], i[1], out, n),
        numpy=numpy_sgemm,
        work=2.0 * n**3,
        unit="GFLOP/s",
    )


def sgemm_tiled_problem(n: int) -> Problem:
    return _sgemm_problem(n, "sgemm_tiled", "sgemm f32, local tiles")


def sgemm_naive_problem(n: int) -> Problem:
    return _sgemm_problem(n, "sgemm_naive", "sgemm f32, naive")


def scan_problem(n: int) -> Problem:
    group = 256
    x = np.random.default_rng(5).integers(-1000, 1000, n).astype(np.int32)

    def numpy_scan(i: list[np.ndarray], out: np.ndarray) -> None:
        np.cumsum(
            i[0].reshape(-1, group), axis=1, dtype=np.int32, out=out.reshape(-1, group)
        )

    return Problem(
        name="scan",
        title="scan i32 per group",
        size=f"{_pow2(n)}, wg {group}",
        global_size=(n,),
        local_size=(group,),
        inputs=[x],
        output=np.full(n, -1, np.int32),
        expected=np.cumsum(x.reshape(-1, group), axis=1, dtype=np.int64).ravel(),
        rtol=0.0,
        kernel_args=lambda i, out: (i[0], out),
        c_function="scan",
        c_argtypes=(P, P, I64, I64),
        c_args=lambda i, out: (i[0], out, n, group),
        numpy=numpy_scan,
        work=2 * 4 * n,
        unit="GB/s",
    )


def _stencil_numpy(image: np.ndarray, out: np.ndarray) -> None:
    """The kernel's sum, in its order, over the image padded with its edge pixels."""
    p = np.pad(image, 1, mode="edge")
    np.add(p[:-2, 1:-1], p[1:-1, :-2], out=out)  # up + left
    out += p[1:-1, 1:-1]  # + center
    out += p[1:-1, 2:]  # + right
    out += p[2:, 1:-1]  # + down
    out *= np.float32(0.2)


def stencil2d_problem(side: int) -> Problem:
    width = height = side
    image = _floats(np.random.default_rng(6), width * height)
    expected = np.empty((height, width), np.float32)
    _stencil_numpy(image.reshape(height, width), expected)
    return Problem(
        name="stencil2d",
        title="stencil2d f32, 5-point",
        size=f"{side}^2, wg 16x16",
        global_size=(width, height),
        local_size=(16, 16),
        inputs=[image],
        output=np.full(width * height, np.nan, np.float32),
        expected=expected.ravel(),
        rtol=1e-6,
        kernel_args=lambda i, out: (i[0], out, np.uint64(width), np.uint64(height)),
        c_function="stencil2d",
        c_argtypes=(P, P, I64, I64),
        c_args=lambda i, out: (i[0], out, width, height),
        numpy=lambda i, out: _stencil_numpy(
            i[0].reshape(height, width), out.reshape(height, width)
        ),
        work=2 * 4 * width * height,
        unit="GB/s",
    )


def transpose_problem(side: int) -> Problem:
    width = height = side
    image = _floats(np.random.default_rng(7), width * height)

    def numpy_transpose(i: list[np.ndarray], out: np.ndarray) -> None:
        np.copyto(out.reshape(width, height), i[0].reshape(height, width).T)

    return Problem(
        name="transpose",
        title="transpose f32, local tile",
        size=f"{side}^2",
        global_size=(width, height),
        local_size=(16, 16),
        inputs=[image],
        output=np.full(width * height, np.nan, np.float32),
        expected=image.reshape(height, width).T.ravel(),
        rtol=0.0,
        kernel_args=lambda i, out: (i[0], out, np.uint64(width), np.uint64(height)),
        c_function="transpose",
        c_argtypes=(P, P, I64, I64),
        c_args=lambda i, out: (i[0], out, width, height),
        numpy=numpy_transpose,
        work=2 * 4 * width * height,
        unit="GB/s",
    )


@dataclass(frozen=True)
class Spec:
    """A kernel of the suite: its problem builder and three sizes."""

    build: Callable[[int], Problem]
    full: int
    quick: int
    latency: int
    """The size of the compile-latency launch: a few work-groups of the benchmark's
    local size, all full (the same specialised variant)."""


SUITE: dict[str, Spec] = {
    "vadd": Spec(vadd_problem, 1 << 24, 1 << 14, 1024),
    "saxpy": Spec(saxpy_problem, 1 << 24, 1 << 14, 1024),
    "reduce": Spec(reduce_problem, 1 << 24, 1 << 14, 1024),
    "sgemm_tiled": Spec(sgemm_tiled_problem, 1024, 64, 32),
    "sgemm_naive": Spec(sgemm_naive_problem, 1024, 64, 32),
    "scan": Spec(scan_problem, 1 << 22, 1 << 14, 1024),
    "stencil2d": Spec(stencil2d_problem, 4096, 128, 32),
    "transpose": Spec(transpose_problem, 4096, 128, 32),
}


# --------------------------------------------------------------------------------------
# Checking a result.
# --------------------------------------------------------------------------------------


def check(result: np.ndarray, expected: np.ndarray, rtol: float) -> tuple[bool, str]:
    """(passed, a short description) of `result` against `expected`."""
    if result.shape != expected.shape:
        return False, f"shape {result.shape}, expected {expected.shape}"
    got = result.astype(np.float64)
    want = expected.astype(np.float64)
    # with a tolerance, NaN is bad too: a comparison with NaN is false
    bad = (got != want) if rtol == 0 else ~(np.abs(got - want) <= rtol * np.abs(want))
    if not bad.any():
        if rtol == 0:
            return True, "exact"
        scale = np.maximum(np.abs(want), np.finfo(np.float64).tiny)
        return True, f"max rel err {float(np.max(np.abs(got - want) / scale)):.1e}"
    first = int(np.argmax(bad))
    return False, (
        f"{int(bad.sum())} of {bad.size} elements wrong, first at {first}: "
        f"{result[first]!r}, expected {expected[first]!r}"
    )
