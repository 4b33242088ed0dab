"""Pieces shared by the execution tests: how they parametrise launches, how they
build kernels that test many cases at once, and how they run the sgemm examples.

`one_case_per_slice` writes the text of a kernel that computes one value per case
and stores case `c`'s at `out[c * total + global linear id]`, so that one launch
checks every case (the collectives and sub-group tests); `work_group_collective`
spells one work-group collective for such a kernel. `run_sgemm` launches an
`sgemm(a, b, c, n)` example kernel and returns C as an n x n matrix;
`check_sgemm_integers` and `check_sgemm_floats` compare it with numpy.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pytest

import mux
from mux.frontend.build_options import stated_build_options

# Every launch on one thread and on all the cores.
THREADS = pytest.mark.parametrize(
    "threads", [1, None], ids=["threads=1", "threads=all"]
)


def size_id(value):
    """Test ids: 16x16 for a size tuple."""
    return "x".join(map(str, value)) if isinstance(value, tuple) else None


def launch_id(global_size: Sequence[int], local_size: Sequence[int]) -> str:
    """Test ids: 11x8/4x3 for a global and a local size."""
    return "x".join(map(str, global_size)) + "/" + "x".join(map(str, local_size))


def one_case_per_slice(
    prologue: str,
    cases: Iterable[tuple[Sequence[str], str]],
    *,
    element: str = "i32",
    total: str = "%total",
    gid: str = "%gid",
) -> str:
    """The text of a kernel that opens with `prologue` (its signature and first
    operations, defining `%out: memref<?x{element}, 1>`, the number of work-items
    `total` and the global linear id `gid`) and then, for each case `c`, runs its
    operations (`cases[c]` is the lines and the value to store) and stores the value
    at `%out[c * total + gid]`."""
    lines = [prologue]
    for c, (operations, value) in enumerate(cases):
        lines += [f"  {line}" for line in operations]
        lines += [
            f"  %c{c} = arith.constant {c} : index",
            f"  %b{c} = arith.muli %c{c}, {total} : index",
            f"  %i{c} = arith.addi %b{c}, {gid} : index",
            f"  memref.store {value}, %out[%i{c}] : memref<?x{element}, 1>",
        ]
    lines += ["  func.return", "}"]
    return "\n".join(lines)


def work_group_collective(
    name: str, kind: str | None, c: int, operand: str, type_: str
) -> str:
    """Collective `name` (reduce, scan_inclusive, scan_exclusive of operation `kind`;
    any, all; broadcast from the local ids %bx, %by, %bz) of `operand` with id `c`."""
    if name in ("any", "all"):
        return f"mux.work_group_{name} id({c}) {operand}"
    if name == "broadcast":
        return f"mux.work_group_broadcast id({c}) {operand}, %bx, %by, %bz : {type_}"
    return f"mux.work_group_{name} {kind} id({c}) {operand} : {type_}"


def run_sgemm(
    kernel: mux.Kernel, a: np.ndarray, b: np.ndarray, global_size, local_size, threads
) -> np.ndarray:
    """C = A B by `kernel(a, b, c, n)` for n x n matrices of f32; C starts as NaN,
    so an element no work-item writes shows."""
    n = a.shape[0]
    c = np.full(n * n, np.nan, np.float32)
    kernel(
        a.ravel(),
        b.ravel(),
        c,
        n,
        global_size=global_size,
        local_size=local_size,
        threads=threads,
    )
    return c.reshape(n, n)


def check_sgemm_integers(kernel: mux.Kernel, n, global_size, local_size, threads):
    """Small integers in f32: every sum is exact, so C is compared exactly."""
    rng = np.random.default_rng(n)
    a = rng.integers(-8, 9, (n, n)).astype(np.float32)
    b = rng.integers(-8, 9, (n, n)).astype(np.float32)
    c = run_sgemm(kernel, a, b, global_size, local_size, threads)
    np.testing.assert_array_equal(c, a.astype(np.int64) @ b.astype(np.int64))


def check_sgemm_floats(kernel: mux.Kernel, n, global_size, local_size, threads, rtol):
    """Floats in [0, 1): C within `rtol` of the float64 product (the kernel adds
    in another order)."""
    rng = np.random.default_rng(n + 1)
    a = rng.random((n, n), np.float32)
    b = rng.random((n, n), np.float32)
    c = run_sgemm(kernel, a, b, global_size, local_size, threads)
    np.testing.assert_allclose(
        c, a.astype(np.float64) @ b.astype(np.float64), rtol=rtol
    )


build_options = stated_build_options
"""The build options an OpenCL C example's header states (one home: the front-end,
where the benchmark finds it too)."""
