"""Checked mode's barrier divergence (issue 17, `lowering/scheduling/divergence.py`):
work-items of one group that reach different barriers, or leave the kernel while
others wait at one, make the launch raise `mux.KernelError` naming both barriers and
both work-items (the first to reach the lower region id, the kernel's return being
0, and the first to reach the higher one); the group stops there, the others run
on, nothing hangs.

Each divergent kernel is checked for the message (the barriers' places, the
work-items' ids); every example kernel with barriers and the uniform-barrier kernels
of tests/test_barriers.py run checked without a report and give the unchecked
results, in 1, 2 and 3 dimensions, local size 1 and non-uniform ranges.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from kernels import check_sgemm_integers, size_id
from test_barriers import SEQUENCE, expand

import mux

EXAMPLES = Path(__file__).parent.parent / "examples"
BARRIER = "scope(work_group) semantics(acq_rel | work_group_memory)"


def checked(source: str, name: str, language: str = "mlir") -> mux.Kernel:
    return mux.compile(source, checked=True, language=language).kernel(name)


def line_of(source: str, text: str) -> int:
    """The line (from 1) of `source` holding `text`."""
    return next(i for i, line in enumerate(source.splitlines(), 1) if text in line)


def divergence(
    kernel: mux.Kernel, *args, global_size, local_size, threads: int = 1
) -> str:
    """The message of the KernelError `kernel` raises."""
    with pytest.raises(mux.KernelError) as caught:
        kernel(*args, global_size=global_size, local_size=local_size, threads=threads)
    message = str(caught.value)
    assert "reached different barriers" in message, message
    return message


def item(global_id: tuple[int, int, int], local_id: tuple[int, int, int]) -> str:
    return re.escape(f"global id {global_id}, local id {local_id}")


# --------------------------------------------------------------------------------------
# Divergent kernels.
# --------------------------------------------------------------------------------------

BRANCH = f"""
func.func @branch(%out: memref<?xi32, 1>) attributes {{mux.kernel = "entry-point"}} {{
  %d0 = arith.constant 0 : i32
  %gid = mux.get_global_id %d0
  %lid = mux.get_local_id %d0
  %c2 = arith.constant 2 : index
  %lt = arith.cmpi ult, %lid, %c2 : index
  scf.if %lt {{
    mux.work_group_barrier id(1) {BARRIER}
  }}
  %c = arith.constant 1 : i32
  memref.store %c, %out[%gid] : memref<?xi32, 1>
  func.return
}}
"""


@pytest.mark.parametrize("threads", [1, 4])
def test_barrier_in_a_branch(threads):
    """Work-items 0 and 1 of each group of 4 reach the barrier, 2 and 3 return: one
    report per group, work-item 2 against work-item 0."""
    kernel = checked(BRANCH, "branch")
    out = np.zeros(8, np.int32)
    message = divergence(kernel, out, global_size=8, local_size=4, threads=threads)
    barrier = f"the barrier at <source>:{line_of(BRANCH, 'work_group_barrier')}:5"
    assert re.search(
        rf"kernel 'branch': .*the work-item of global id \((2|6), 0, 0\), local id "
        rf"\(2, 0, 0\) reached the return of kernel 'branch', the work-item of "
        rf"global id \((0|4), 0, 0\), local id \(0, 0, 0\) reached "
        rf"{re.escape(barrier)} \(the work-group stopped there\) \(1 more fault in",
        message,
    ), message
    # the work-items that returned stored; those at the barrier stopped there
    assert list(out) == [0, 0, 1, 1] * 2


def test_barrier_in_a_branch_opencl_c():
    source = """
__kernel void part(__global int *out)
{
    size_t lid = get_local_id(0);
    if (lid >= 3)
        barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = 1;
}
"""
    kernel = checked(source, "part", language="opencl")
    out = np.zeros(5, np.int32)
    message = divergence(kernel, out, global_size=5, local_size=5)
    line = line_of(source, "barrier(")
    assert re.search(
        rf"{item((0, 0, 0), (0, 0, 0))} reached the return of kernel 'part', the "
        rf"work-item of {item((3, 0, 0), (3, 0, 0))} reached the barrier at "
        rf"\S+:{line}:9",
        message,
    ), message


EARLY_RETURN = f"""
func.func @early(%out: memref<?xi32, 1>, %local: memref<?xi32, 3>)
    attributes {{mux.kernel = "entry-point"}} {{
  %d0 = arith.constant 0 : i32
  %gid = mux.get_global_id %d0
  %lid = mux.get_local_id %d0
  %c3 = arith.constant 3 : index
  %leave = arith.cmpi eq, %lid, %c3 : index
  cf.cond_br %leave, ^out, ^stay
^stay:
  %v = arith.index_cast %lid : index to i32
  memref.store %v, %local[%lid] : memref<?xi32, 3>
  mux.work_group_barrier id(0) {BARRIER}
  memref.store %v, %out[%gid] : memref<?xi32, 1>
  func.return
^out:
  func.return
}}
"""


def test_early_return_before_a_barrier():
    """Work-item 3 of each group of 6 returns before the barrier the others wait
    at, in 2 dimensions (the group's work-item 3 is local (3, 0))."""
    kernel = checked(EARLY_RETURN, "early")
    out = np.zeros((2, 12), np.int32)
    message = divergence(
        kernel,
        out,
        mux.LocalBuffer(4 * 6),
        global_size=(12, 2),
        local_size=(6, 1),
    )
    line = line_of(EARLY_RETURN, "work_group_barrier")
    assert re.search(
        rf"{item((3, 0, 0), (3, 0, 0))} reached the return of kernel 'early', the "
        rf"work-item of {item((0, 0, 0), (0, 0, 0))} reached the barrier at "
        rf"<source>:{line}:3",
        message,
    ), message


LOOP = f"""
func.func @loop(%out: memref<?xi32, 1>) attributes {{mux.kernel = "entry-point"}} {{
  %d0 = arith.constant 0 : i32
  %gid = mux.get_global_id %d0
  %lid = mux.get_local_id %d0
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %n = scf.for %i = %c0 to %lid step %c1 iter_args(%acc = %zero) -> (i32) {{
    mux.work_group_barrier id(0) {BARRIER}
    %one = arith.constant 1 : i32
    %next = arith.addi %acc, %one : i32
    scf.yield %next : i32
  }}
  memref.store %n, %out[%gid] : memref<?xi32, 1>
  func.return
}}
"""


def test_barrier_in_a_loop_of_varying_trip_count():
    """Work-item 0 runs no iteration (it returns), work-item 1 one (it waits at the
    barrier): caught at the first region, in 3 dimensions."""
    kernel = checked(LOOP, "loop")
    out = np.zeros(4 * 2 * 2, np.int32)
    message = divergence(kernel, out, global_size=(4, 2, 2), local_size=(4, 1, 2))
    line = line_of(LOOP, "work_group_barrier")
    assert re.search(
        rf"{item((0, 0, 0), (0, 0, 0))} reached the return of kernel 'loop', the "
        rf"work-item of {item((1, 0, 0), (1, 0, 0))} reached the barrier at "
        rf"<source>:{line}:5",
        message,
    ), message


HALVES = f"""
func.func @halves(%out: memref<?xi32, 1>) attributes {{mux.kernel = "entry-point"}} {{
  %d1 = arith.constant 1 : i32
  %lid = mux.get_local_id %d1
  %n = mux.get_local_size %d1
  %c2 = arith.constant 2 : index
  %half = arith.divui %n, %c2 : index
  %low = arith.cmpi ult, %lid, %half : index
  scf.if %low {{
    mux.work_group_barrier id(0) {BARRIER}
  }} else {{
    mux.work_group_barrier id(1) {BARRIER}
  }}
  func.return
}}
"""


def test_two_barriers_one_per_half():
    """The low half of each group (in y) reaches one barrier, the high half the
    other: the first work-item of each half is reported."""
    kernel = checked(HALVES, "halves")
    out = np.zeros(1, np.int32)
    message = divergence(kernel, out, global_size=(3, 8), local_size=(3, 4))
    lines = [i for i, t in enumerate(HALVES.splitlines(), 1) if "group_barrier" in t]
    assert re.search(
        rf"{item((0, 0, 0), (0, 0, 0))} reached the barrier at "
        rf"<source>:{lines[0]}:5, the work-item of {item((0, 2, 0), (0, 2, 0))} "
        rf"reached the barrier at <source>:{lines[1]}:5",
        message,
    ), message


def test_the_bound_of_a_guard_does_not_hide_a_divergence():
    """Work-item 0 alone reaches the barrier: unchecked, the region's bound function
    would run only it and the last one (whose return the wrapper follows)."""
    source = f"""
func.func @lonely(%s: memref<64xi32, 3>) attributes {{mux.kernel = "entry-point",
    mux.reqd_work_group_size = array<i32: 64, 1, 1>, mux.max_work_dim = 1 : i32}} {{
  %x = arith.constant 0 : i32
  %lid = mux.get_local_id %x
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %lid, %c0 : index
  scf.if %first {{
    %one = arith.constant 1 : i32
    memref.store %one, %s[%lid] : memref<64xi32, 3>
    mux.work_group_barrier id(0) {BARRIER}
  }}
  func.return
}}
"""
    kernel = checked(source, "lonely")
    message = divergence(kernel, mux.LocalBuffer(256), global_size=64, local_size=64)
    assert re.search(
        rf"{item((1, 0, 0), (1, 0, 0))} reached the return of kernel 'lonely', the "
        rf"work-item of {item((0, 0, 0), (0, 0, 0))} reached the barrier",
        message,
    ), message


def test_a_collective_reached_by_part_of_the_group():
    source = """
func.func @sum(%in: memref<?xf32, 1>, %out: memref<?xf32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %gid = mux.get_global_id %d0
  %lid = mux.get_local_id %d0
  %c1 = arith.constant 1 : index
  %some = arith.cmpi uge, %lid, %c1 : index
  scf.if %some {
    %v = memref.load %in[%gid] : memref<?xf32, 1>
    %s = mux.work_group_reduce fadd id(1) %v : f32
    memref.store %s, %out[%gid] : memref<?xf32, 1>
  }
  func.return
}
"""
    kernel = checked(source, "sum")
    x = np.ones(4, np.float32)
    message = divergence(kernel, x, x.copy(), global_size=4, local_size=4)
    line = line_of(source, "work_group_reduce")
    assert f"reached work_group_reduce at <source>:{line}:5" in message, message


# --------------------------------------------------------------------------------------
# No false report.
# --------------------------------------------------------------------------------------


def test_uniform_barriers_run_as_unchecked():
    """A kernel of tests/test_barriers.py (three barriers, live values, a private
    array), checked and unchecked, local size 1 and a non-uniform range."""
    source = expand(SEQUENCE)
    for n, local in [(8, 1), (67, 8)]:
        results = []
        for check in (False, True):
            k = mux.compile(source, checked=check).kernel("sequence")
            x = np.arange(n, dtype=np.int32)
            out = np.zeros(n, np.int32)
            private = np.zeros(n, np.float32)
            k(
                x,
                out,
                private,
                mux.LocalBuffer(4 * local),
                global_size=n,
                local_size=local,
            )
            results.append((out, private))
        np.testing.assert_array_equal(results[0][0], results[1][0])
        np.testing.assert_array_equal(results[0][1], results[1][1])


def load(name: str, suffix: str, checked_mode: bool, vecz: int = 0) -> mux.Kernel:
    path = EXAMPLES / f"{name}.{suffix}"
    return mux.load(path, checked=checked_mode, vecz_width=vecz).kernel(name)


@pytest.mark.parametrize("vecz", [0, 8])
@pytest.mark.parametrize("suffix", ["mlir", "cl"])
@pytest.mark.parametrize(("n", "local"), [(1, 1), (67, 8), (100, 10), (512, 256)])
def test_reduce(suffix, vecz, n, local):
    """reduce's tree (its regions have bound functions) and its vectorised packets
    (vecz=8, local sizes a multiple of 8)."""
    x = np.random.default_rng(n).random(n, dtype=np.float32)
    outputs = []
    for check in (False, True):
        partial = np.zeros(-(-n // local), np.float32)
        kernel = load("reduce", suffix, check, vecz)
        kernel(x, partial, mux.LocalBuffer(4 * local), global_size=n, local_size=local)
        outputs.append(partial)
    np.testing.assert_array_equal(outputs[0], outputs[1])


@pytest.mark.parametrize("suffix", ["mlir", "cl"])
@pytest.mark.parametrize(("n", "local"), [(1, 1), (10, 3), (300, 128)])
def test_scan(suffix, n, local):
    x = np.random.default_rng(n).integers(0, 100, n).astype(np.int32)
    outputs = []
    for check in (False, True):
        out = np.zeros(n, np.int32)
        load("scan", suffix, check)(x, out, global_size=n, local_size=local)
        outputs.append(out)
    np.testing.assert_array_equal(outputs[0], outputs[1])
    starts = range(0, n, local)
    expected = np.concatenate([np.cumsum(x[s : s + local]) for s in starts])
    np.testing.assert_array_equal(outputs[1], expected)


@pytest.mark.parametrize("suffix", ["mlir", "cl"])
@pytest.mark.parametrize(
    ("n", "global_size", "local_size"),
    [(37, (48, 48), (16, 16)), (5, (5, 5), (4, 4))],
    ids=size_id,
)
def test_sgemm_tiled(suffix, n, global_size, local_size):
    kernel = load("sgemm_tiled", suffix, True)
    check_sgemm_integers(kernel, n, global_size, local_size, None)


@pytest.mark.parametrize("suffix", ["mlir", "cl"])
def test_transpose(suffix):
    width, height = 33, 47
    image = np.random.default_rng(0).random((height, width), np.float32)
    out = np.full(width * height, np.nan, np.float32)
    kernel = load("transpose", suffix, True)
    kernel(image.ravel(), out, width, height, global_size=(33, 47), local_size=(3, 5))
    np.testing.assert_array_equal(out.reshape(width, height), image.T)


UNIFORM_3D = f"""
func.func @rotate(%out: memref<?xi32, 1>, %local: memref<?xi32, 3>, %steps: index)
    attributes {{mux.kernel = "entry-point"}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %lin = mux.get_local_linear_id
  %gid = mux.get_global_linear_id
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %d2 = arith.constant 2 : i32
  %s0 = mux.get_local_size %d0
  %s1 = mux.get_local_size %d1
  %s2 = mux.get_local_size %d2
  %s01 = arith.muli %s0, %s1 : index
  %size = arith.muli %s01, %s2 : index
  %x = arith.index_cast %lin : index to i32
  %r = scf.for %i = %c0 to %steps step %c1 iter_args(%v = %x) -> (i32) {{
    memref.store %v, %local[%lin] : memref<?xi32, 3>
    mux.work_group_barrier id(0) {BARRIER}
    %next = arith.addi %lin, %c1 : index
    %j = arith.remui %next, %size : index
    %w = memref.load %local[%j] : memref<?xi32, 3>
    mux.work_group_barrier id(1) {BARRIER}
    scf.yield %w : i32
  }}
  memref.store %r, %out[%gid] : memref<?xi32, 1>
  func.return
}}
"""


@pytest.mark.parametrize(
    ("global_size", "local_size"),
    [((4, 3, 2), (4, 3, 2)), ((5, 3, 3), (2, 2, 2)), ((3, 1, 2), (1, 1, 1))],
    ids=size_id,
)
def test_barriers_in_a_uniform_loop_3d(global_size, local_size):
    """Each step passes every work-item's value to the previous one of its group:
    after `steps` steps work-item l holds (l + steps) % size, checked as unchecked,
    in partial groups too."""
    steps = 3
    outputs = []
    for check in (False, True):
        kernel = mux.compile(UNIFORM_3D, checked=check).kernel("rotate")
        out = np.full(int(np.prod(global_size)), -1, np.int32)
        local = mux.LocalBuffer(4 * int(np.prod(local_size)))
        kernel(out, local, steps, global_size=global_size, local_size=local_size)
        outputs.append(out)
    np.testing.assert_array_equal(outputs[0], outputs[1])
    assert (outputs[1] >= 0).all()
