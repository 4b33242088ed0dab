"""Work-group collectives scheduled natively by `work-item-loops`, run and compared
exactly with the numpy model (`tests/group_model.py`).

One kernel per element type holds every collective the type allows (reduce and both
scans of every operation, broadcast from kernel-argument ids), each writing its own
slice of the output; a boolean kernel has the logical operations, any and all. Each
kernel is compiled once per local size that divides the global size, and once for
all the launches whose last work-groups are smaller, then run 1-D, 2-D and 3-D,
on one thread and on all.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from group_model import (
    FLOAT_KINDS,
    INTEGER_KINDS,
    LOGICAL_KINDS,
    collective,
    groups,
)
from kernels import THREADS, launch_id, one_case_per_slice, work_group_collective

import mux

# (global size, local size, broadcast source as local ids): dividing and not
# dividing the global size, 1-D, 2-D and 3-D; the source is inside the smallest
# work-group.
LAUNCHES = [
    ((64,), (16,), (5, 0, 0)),
    ((37,), (8,), (4, 0, 0)),
    ((11, 8), (4, 3), (2, 1, 0)),
    ((6, 6, 5), (4, 4, 3), (1, 1, 1)),
]
# A 2-D local size dividing the global size: one more compiled variant per kernel,
# so for two of the types only.
UNIFORM_2D = ((8, 6), (4, 3), (3, 2, 0))
LAUNCH = pytest.mark.parametrize(
    ("global_size", "local_size", "source"),
    LAUNCHES,
    ids=[launch_id(g, lo) for g, lo, _ in LAUNCHES],
)

TYPES = {
    "i32": (np.int32, INTEGER_KINDS),
    "i64": (np.int64, INTEGER_KINDS),
    "f32": (np.float32, FLOAT_KINDS),
    "f64": (np.float64, FLOAT_KINDS),
}
_SCANS = ("reduce", "scan_inclusive", "scan_exclusive")


def _cases(type_name: str) -> list[tuple[str, str | None]]:
    """The (collective, operation) of each output slice of the kernel."""
    if type_name == "bool":
        return [(c, k) for c in _SCANS for k in LOGICAL_KINDS] + [
            ("any", None),
            ("all", None),
        ]
    return [(c, k) for c in _SCANS for k in TYPES[type_name][1]] + [("broadcast", None)]


def _source(type_name: str) -> str:
    """A kernel writing `out[c * total + global_linear_id]` for each case `c`."""
    element = "i32" if type_name == "bool" else type_name
    prologue = [
        f"func.func @k(%in: memref<?x{element}, 1>, %out: memref<?x{element}, 1>, "
        "%total: index, %bx: index, %by: index, %bz: index) "
        'attributes {mux.kernel = "entry-point"} {',
        "  %gid = mux.get_global_linear_id",
        f"  %v0 = memref.load %in[%gid] : memref<?x{element}, 1>",
    ]
    operand, type_ = "%v0", element
    if type_name == "bool":
        prologue += [
            "  %zero = arith.constant 0 : i32",
            "  %v = arith.cmpi ne, %v0, %zero : i32",
        ]
        operand, type_ = "%v", "i1"
    cases = []
    for c, (name, kind) in enumerate(_cases(type_name)):
        operations = [f"%r{c} = {work_group_collective(name, kind, c, operand, type_)}"]
        if type_name == "bool":
            operations.append(f"%w{c} = arith.extui %r{c} : i1 to i32")
        cases.append((operations, f"%w{c}" if type_name == "bool" else f"%r{c}"))
    return one_case_per_slice("\n".join(prologue), cases, element=element)


@cache
def _kernel(type_name: str) -> mux.Kernel:
    return mux.compile(_source(type_name)).kernel("k")


def _inputs(type_name: str, n: int, rng: np.random.Generator) -> np.ndarray:
    if type_name == "bool":
        return (rng.random(n) < 0.8).astype(np.int32)
    dtype = TYPES[type_name][0]
    if type_name in ("f32", "f64"):
        magnitude = rng.uniform(0.5, 2.0, n)
        return (magnitude * rng.choice([-1.0, 1.0], n)).astype(dtype)
    info = np.iinfo(dtype)
    # the full range: negative values have the top bit set (umin/umax see them large)
    return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)


def expected(
    type_name: str,
    values: np.ndarray,
    global_size: tuple[int, ...],
    local_size: tuple[int, ...],
    source: tuple[int, int, int],
) -> np.ndarray:
    """The model's output of the kernel: one row per case."""
    cases = _cases(type_name)
    out = np.zeros((len(cases), len(values)), dtype=values.dtype)
    operands = values != 0 if type_name == "bool" else values
    for ids, (sx, sy, _) in groups(global_size, local_size):
        linear = (source[2] * sy + source[1]) * sx + source[0]
        for c, (name, kind) in enumerate(cases):
            results = collective(name, operands[ids], kind, linear)
            out[c, ids] = results
    return out


@pytest.mark.parametrize("type_name", [*TYPES, "bool"])
@LAUNCH
@THREADS
def test_work_group_collectives(type_name, global_size, local_size, source, threads):
    check(type_name, global_size, local_size, source, threads)


@pytest.mark.parametrize("type_name", ["i64", "f32"])
@THREADS
def test_work_group_collectives_uniform_2d(type_name, threads):
    check(type_name, *UNIFORM_2D, threads)


def check(type_name, global_size, local_size, source, threads) -> None:
    """Runs the kernel of `type_name` once and compares every case with the model."""
    k = _kernel(type_name)
    total = int(np.prod(global_size))
    rng = np.random.default_rng(total)
    values = _inputs(type_name, total, rng)
    cases = _cases(type_name)
    out = np.zeros(len(cases) * total, dtype=values.dtype)
    k(
        values,
        out,
        total,
        *source,
        global_size=global_size,
        local_size=local_size,
        threads=threads,
    )
    want = expected(type_name, values, global_size, local_size, source)
    got = out.reshape(len(cases), total)
    for c, (name, kind) in enumerate(cases):
        np.testing.assert_array_equal(got[c], want[c], err_msg=f"{name} {kind}")


def test_model_float_sum_is_left_to_right():
    """The model's (and the native implementation's) fadd is the sequential sum,
    which differs from numpy's pairwise sum on these values."""
    values = np.array([1e8, 1.0, -1e8, 1.0] * 4, dtype=np.float32)
    total = collective("reduce", values, "fadd")[0]
    sequential = np.float32(-0.0)
    for v in values:
        sequential = np.float32(sequential + v)
    assert total == sequential


KERNEL_IN_LOOP = """
func.func @loop(%out: memref<?xi32, 1>, %n: index)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %gid = mux.get_global_id %d0
  %lid = mux.get_local_id %d0
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %lid32 = arith.index_cast %lid : index to i32
  %init = arith.constant 0 : i32
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (i32) {
    %i32 = arith.index_cast %i : index to i32
    %x = arith.addi %lid32, %i32 : i32
    %s = mux.work_group_scan_inclusive add id(0) %x : i32
    %next = arith.addi %acc, %s : i32
    scf.yield %next : i32
  }
  memref.store %sum, %out[%gid] : memref<?xi32, 1>
  func.return
}
"""


@THREADS
def test_collective_in_a_loop(threads):
    """A collective inside an `scf.for` whose carried value crosses it."""
    k = mux.compile(KERNEL_IN_LOOP).kernel("loop")
    n, local, trips = 20, 6, 3
    out = np.zeros(n, dtype=np.int32)
    k(out, trips, global_size=n, local_size=local, threads=threads)
    want = np.zeros(n, dtype=np.int32)
    for start in range(0, n, local):
        lids = np.arange(min(local, n - start))
        for i in range(trips):
            want[start : start + len(lids)] += np.cumsum(lids + i)
    np.testing.assert_array_equal(out, want)
