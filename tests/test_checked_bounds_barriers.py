"""Checked mode's bounds checks in a kernel with barriers (issue 17,
`check-access-bounds`): a fault before a barrier, after it, or both, in several
work-items and work-groups, is not done and is reported with the right site,
element, byte offset and work-item, the others counted ("N more faults in this
launch"), whatever the way the report is made (docs/checked.md, "What happens at
a fault": the first fault recorded is described; one thread runs the groups in
order and a group's region runs its work-items in order, so with `threads=1` the
first recorded is the lowest work-item of the first region that faults; a
work-item's own faults are described in the order it made them).

The kernel copies `src[g]` to local memory, waits at a barrier and writes its
right neighbour's copy (`tmp[l + 1]`) to `out[g]`: a short `src` faults before
the barrier (the last work-items of the range), a `tmp` of one element per
work-item after it (the last work-item of each group)."""

from __future__ import annotations

import numpy as np
import pytest
from test_checked import fault_of

import mux

SHIFT = """
func.func @shift(%src: memref<?xf32, 1>, %out: memref<?xf32, 1>, %tmp: memref<?xf32, 3>)
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %g = mux.get_global_id %d
  %l = mux.get_local_id %d
  %v = memref.load %src[%g] : memref<?xf32, 1>
  memref.store %v, %tmp[%l] : memref<?xf32, 3>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %one = arith.constant 1 : index
  %n = arith.addi %l, %one : index
  %w = memref.load %tmp[%n] : memref<?xf32, 3>
  memref.store %w, %out[%g] : memref<?xf32, 1>
  func.return
}
"""
BEFORE = "load from parameter 'src' (memref<?xf32, 1 : i64>) at shift.mlir:7:3"
AFTER = "load from parameter 'tmp' (memref<?xf32, 3 : i64>) at shift.mlir:12:3"
GROUP = 8
GLOBAL = 32


def shift() -> mux.Kernel:
    """The kernel, scalar: a packet of it, which run-vecz makes and the race
    check keeps, reports a faulting packet access once, as a vectorised
    kernel's (test_checked_packets)."""
    program = mux.compile(SHIFT, checked=True, vecz_width=1, name="shift.mlir")
    return program.kernel("shift")


def launch(src: int, tmp: int, threads: int | None = 1) -> tuple[str, np.ndarray]:
    """The fault's message and `out` after a launch with `src` elements and
    `tmp` elements of local memory per group."""
    out = np.full(GLOBAL, -1, np.float32)
    source = np.arange(1, src + 1, dtype=np.float32)
    local = mux.LocalBuffer(4 * tmp)
    launch = {"global_size": GLOBAL, "local_size": GROUP, "threads": threads}
    return fault_of(shift(), source, out, local, **launch), out


def check_out(out: np.ndarray, src: int, tmp: int) -> None:
    """`out` is what the kernel writes, each faulting load giving 0 (a group's
    last work-item reads `tmp[GROUP]`, which nobody writes, if it is in
    bounds: not compared)."""
    g = np.arange(GLOBAL)
    copied = np.where(g < src, g + 1, 0).astype(np.float32)
    right = np.where(g % GROUP + 1 < GROUP, np.roll(copied, -1), 0)
    expected = np.where(g % GROUP + 1 < tmp, right, 0).astype(np.float32)
    written = (g % GROUP + 1 < GROUP) | (tmp <= GROUP)
    np.testing.assert_array_equal(out[written], expected[written])


def test_faults_before_the_barrier_in_several_work_items():
    message, out = launch(src=GLOBAL - 3, tmp=GROUP + 1)
    assert BEFORE in message
    assert "element 29 (byte offset 116)" in message
    assert "global id (29, 0, 0), local id (5, 0, 0)" in message
    assert message.endswith("(2 more faults in this launch)")
    check_out(out, GLOBAL - 3, GROUP + 1)


def test_faults_after_the_barrier_in_every_group():
    message, out = launch(src=GLOBAL, tmp=GROUP)
    assert AFTER in message
    assert "element 8 (byte offset 32)" in message
    assert "global id (7, 0, 0), local id (7, 0, 0)" in message
    assert message.endswith("(3 more faults in this launch)")
    check_out(out, GLOBAL, GROUP)


def test_faults_on_both_sides_of_the_barrier():
    # groups 0-2: work-item 7 after the barrier; group 3: 29-31 before it and
    # 31 after it. The first group's comes first.
    message, out = launch(src=GLOBAL - 3, tmp=GROUP)
    assert AFTER in message
    assert "global id (7, 0, 0), local id (7, 0, 0)" in message
    assert message.endswith("(6 more faults in this launch)")
    check_out(out, GLOBAL - 3, GROUP)


def test_a_work_item_faulting_on_both_sides_is_described_by_its_first():
    # one group, one element short: work-item 7 faults before the barrier and
    # after it (tmp[8])
    source = np.arange(1, GROUP, dtype=np.float32)
    out, local = np.full(GROUP, -1, np.float32), mux.LocalBuffer(4 * GROUP)
    launch = {"global_size": GROUP, "local_size": GROUP, "threads": 1}
    message = fault_of(shift(), source, out, local, **launch)
    assert BEFORE in message
    assert "element 7 (byte offset 28)" in message
    assert "global id (7, 0, 0), local id (7, 0, 0)" in message
    assert message.endswith("(1 more fault in this launch)")


@pytest.mark.parametrize("threads", [None, 2])
def test_the_count_is_right_with_several_threads(threads: int | None):
    message, out = launch(src=GLOBAL - 3, tmp=GROUP, threads=threads)
    assert BEFORE in message or AFTER in message
    assert message.endswith("(6 more faults in this launch)")
    check_out(out, GLOBAL - 3, GROUP)


GUARDED = """
func.func @guarded(%out: memref<?xf32, 1>, %tmp: memref<?xf32, 3>)
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %g = mux.get_global_id %d
  %l = mux.get_local_id %d
  %zero = arith.constant 0.0 : f32
  memref.store %zero, %tmp[%l] : memref<?xf32, 3>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %six = arith.constant 6 : index
  %active = arith.cmpi uge, %l, %six : index
  scf.if %active {
    %four = arith.constant 4 : index
    %k = arith.addi %l, %four : index
    %v = memref.load %tmp[%k] : memref<?xf32, 3>
    memref.store %v, %out[%g] : memref<?xf32, 1>
  }
  func.return
}
"""


def test_a_fault_in_a_guarded_region_is_counted_in_every_group():
    # the region after the barrier runs the work-items its guard lets in
    # (a bound function): 6 and 7 of each group load past `tmp`; scalar, as
    # `shift`
    program = mux.compile(GUARDED, checked=True, vecz_width=1, name="g.mlir")
    kernel = program.kernel("guarded")
    out = np.ones(GLOBAL, np.float32)
    launch = {"global_size": GLOBAL, "local_size": GROUP, "threads": 1}
    message = fault_of(kernel, out, mux.LocalBuffer(4 * GROUP), **launch)
    assert (
        "load from parameter 'tmp' (memref<?xf32, 3 : i64>) at g.mlir:15:5" in message
    )
    assert "element 10 (byte offset 40)" in message
    assert "global id (6, 0, 0), local id (6, 0, 0)" in message
    assert message.endswith("(7 more faults in this launch)")
    np.testing.assert_array_equal(out, np.where(np.arange(GLOBAL) % GROUP >= 6, 0, 1))


BARRIER = "scope(work_group) semantics(acq_rel | work_group_memory)"
EARLY = f"""
func.func @early(%out: memref<?xi32, 1>) attributes {{mux.kernel = "entry-point"}} {{
  %d = arith.constant 0 : i32
  %g = mux.get_global_id %d
  %l = mux.get_local_id %d
  %one = arith.constant 1 : i32
  memref.store %one, %out[%g] : memref<?xi32, 1>
  %c2 = arith.constant 2 : index
  %lt = arith.cmpi ult, %l, %c2 : index
  scf.if %lt {{
    mux.work_group_barrier id(1) {BARRIER}
  }}
  func.return
}}
"""


def test_a_fault_before_a_divergence_is_recorded_first():
    # every group diverges at the barrier; the last one's work-items 29-31
    # stored past `out` before: their fault is recorded first, the
    # divergences are counted
    kernel = mux.compile(EARLY, checked=True, name="e.mlir").kernel("early")
    out = np.zeros(GLOBAL - 3, np.int32)
    message = fault_of(kernel, out, global_size=GLOBAL, local_size=GROUP, threads=1)
    assert "reached different barriers" in message  # groups 0-2 first
    assert message.endswith("(6 more faults in this launch)")  # 4 + 3 - 1
    out = np.zeros(GROUP - 3, np.int32)
    message = fault_of(kernel, out, global_size=GROUP, local_size=GROUP, threads=1)
    assert "store to parameter 'out' (memref<?xi32, 1 : i64>) at e.mlir:7:3" in message
    assert "global id (5, 0, 0), local id (5, 0, 0)" in message
    assert message.endswith("(3 more faults in this launch)")  # 6, 7, divergence
    np.testing.assert_array_equal(out, np.ones(GROUP - 3, np.int32))
