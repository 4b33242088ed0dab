"""Checked mode's race check in `run-vecz`'s packets
(`lowering/check_local_races/packets.py`): a kernel with a required work-group
size whose local accesses are contiguous vector accesses in its packets keeps
them, and each lane is checked as its work-item is in the scalar kernel: the
same races, the same messages, naming the lane's work-item."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import func

import mux
from dialects import attributes as mux_attrs
from lowering.pipelines import HostPipeline
from mux.compiler import context, parse_cached

KERNEL = """
func.func @k(%out: memref<?xi32, 1>, %tile: memref<?xi32, 3>)
    attributes {{mux.kernel = "entry-point",
                 mux.reqd_work_group_size = array<i32: {size}, 1, 1>}} {{
  %d0 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1 : i32
  %lid = mux.get_local_id %d0
  %gid = mux.get_global_id %d0
  %v = arith.index_cast %lid : index to i32
{body}
  func.return
}}
"""

# The bodies index `tile` with the global id, the local id in the one
# work-group these tests run: `check-local-races` proves nothing of an index
# computed from a global id (`proof`: which group runs is not known at compile
# time), so the accesses stay checked, in packets, which these tests are about.
READ_AT = """
  %at = arith.addi %gid, %c{step} : index
  %x = memref.load %tile[%at] : memref<?xi32, 3>
  memref.store %x, %out[%gid] : memref<?xi32, 1>
"""
CHANGE_MINE = """
  %held = memref.load %tile[%gid] : memref<?xi32, 3>
  %changed = arith.addi %held, %one : i32
  memref.store %changed, %tile[%gid] : memref<?xi32, 3>
"""
"""A write that changes the element (a store of the value held is a uniform
write, no race)."""
ODD = """
  %parity = arith.remui %lid, %c2 : index
  %odd = arith.cmpi eq, %parity, %c1 : index
"""
INIT = """
  memref.store %v, %tile[%gid] : memref<?xi32, 3>
  %c16 = arith.constant 16 : index
  %above = arith.addi %gid, %c16 : index
  memref.store %v, %tile[%above] : memref<?xi32, 3>
"""
"""Every element a neighbour may read given a value (local memory starts with
whatever was there)."""
BARRIER = """
  mux.work_group_barrier id({id}) scope(work_group) semantics(acq_rel|work_group_memory)
"""


def kernel_source(body: str, size: int = 16) -> str:
    return KERNEL.format(body=body, size=size)


def packet_after_the_check(source: str) -> func.FuncOp | None:
    """The packet of `@k` after `check-local-races` (checked, width 8), None if
    the pass dropped it."""
    module = parse_cached(source, "<k>").clone()
    pipeline = HostPipeline(
        kernel="k", vecz_width=8, checked=True, stop="check-local-races"
    )
    pipeline.apply(context(), module)
    kernel = next(f for f in module.ops if isinstance(f, func.FuncOp))
    if mux_attrs.VECZ_BASE.get(kernel) is None:
        return None
    (packet,) = [
        f
        for f in module.ops
        if isinstance(f, func.FuncOp) and mux_attrs.VECZ_DERIVED.get(f) is not None
    ]
    return packet


def assert_kept(body: str, size: int = 16) -> None:
    packet = packet_after_the_check(kernel_source(body, size))
    assert packet is not None
    calls = [
        op.callee.string_value() for op in packet.walk() if isinstance(op, func.CallOp)
    ]
    assert "__mux_check_local_lanes" in calls


def run(
    body: str, width: int, checked: bool = True, size: int = 16, elements: int = 32
) -> np.ndarray:
    """`@k` with `body` over one work-group of `size` work-items, `tile` of
    `elements` elements."""
    source = kernel_source(body, size)
    program = mux.compile(source, checked=checked, vecz_width=width)
    out = np.zeros(size, np.int32)
    program.kernel("k")(
        out, mux.LocalBuffer(4 * elements), global_size=(size,), local_size=(size,)
    )
    return out


def race(body: str, width: int, size: int = 16, elements: int = 32) -> str:
    with pytest.raises(mux.KernelError) as caught:
        run(body, width, size=size, elements=elements)
    return str(caught.value)


def same_race_as_scalar(body: str, size: int = 16, elements: int = 32) -> str:
    """The race message of `body` in packets of 8, which must be the scalar
    kernel's (work-item by work-item) word for word."""
    assert_kept(body, size)
    message = race(body, 8, size, elements)
    assert message == race(body, 1, size, elements)
    return message


def test_a_race_between_neighbours_in_one_packet():
    # work-item 1 changes tile[1], which work-item 0 has read
    message = same_race_as_scalar(READ_AT.format(step=1) + CHANGE_MINE)
    assert "store to local parameter 'tile'" in message
    assert "(byte offset 4, 4 bytes)" in message
    assert "global id (1, 0, 0), local id (1, 0, 0), and load from" in message
    assert message.endswith(
        "global id (0, 0, 0), local id (0, 0, 0), with no barrier between them "
        "(14 more faults in this launch)"
    )


def test_a_race_between_two_packets():
    # work-item 8 (lane 0 of the second packet) changes tile[8], which
    # work-item 0 (lane 0 of the first) has read
    message = same_race_as_scalar(READ_AT.format(step=8) + CHANGE_MINE)
    assert (
        "(byte offset 32, 4 bytes) by the work-item of global id (8, 0, 0)" in message
    )
    assert "local id (0, 0, 0), with no barrier" in message


MASKED_CHANGE = (
    ODD
    + """
  scf.if %odd {
"""
    + CHANGE_MINE
    + "  }\n"
)


def test_a_race_between_a_packet_and_the_scalar_tail():
    # 12 work-items: a packet of 8, then work-items 8..11 one by one; from
    # work-item 7 on, each reads its right neighbour's element and changes its
    # own: work-item 8 (scalar) changes tile[8], which lane 7 has read
    body = f"""
  %c7 = arith.constant 7 : index
  %late = arith.cmpi uge, %lid, %c7 : index
  scf.if %late {{
{READ_AT.format(step=1)}{CHANGE_MINE}  }}
"""
    message = same_race_as_scalar(body, size=12)
    assert (
        "(byte offset 32, 4 bytes) by the work-item of global id (8, 0, 0)" in message
    )
    assert "local id (7, 0, 0), with no barrier between them (3 more faults" in message


def test_a_masked_packet_across_the_end_of_local_memory():
    # tile has 12 elements: the second packet's cells 12..15 are outside the
    # block (its lanes there masked off), so its lanes are checked one by one;
    # work-items 7..10 read their right neighbour's element and change their
    # own: work-item 8 changes tile[8], which work-item 7 has read
    body = f"""
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %from = arith.cmpi uge, %lid, %c7 : index
  %below = arith.cmpi ult, %lid, %c11 : index
  %some = arith.andi %from, %below : i1
  scf.if %some {{
{READ_AT.format(step=1)}{CHANGE_MINE}  }}
"""
    message = same_race_as_scalar(body, elements=12)
    assert (
        "(byte offset 32, 4 bytes) by the work-item of global id (8, 0, 0)" in message
    )
    assert "local id (7, 0, 0), with no barrier between them (2 more faults" in message


def test_a_masked_store_races_in_its_active_lanes():
    message = same_race_as_scalar(READ_AT.format(step=1) + MASKED_CHANGE)
    assert "by the work-item of global id (1, 0, 0)" in message
    assert "(7 more faults in this launch)" in message


def test_masked_lanes_are_not_checked():
    # the odd lanes read their right neighbour and change their own element:
    # no two work-items touch one element, unless masked-off lanes count
    body = INIT + BARRIER.format(id=0)
    body += ODD + "  scf.if %odd {\n" + READ_AT.format(step=1) + CHANGE_MINE + "  }\n"
    assert_kept(body)
    np.testing.assert_array_equal(run(body, 8), run(body, 8, checked=False))


def test_a_uniform_write_compares_each_lanes_element():
    # every lane stores the value its element holds: no race (lane 0's held
    # value for every lane would see one in lanes 1..6)
    body = """
  memref.store %v, %tile[%lid] : memref<?xi32, 3>
  %next = arith.addi %lid, %c1 : index
  %w = arith.addi %v, %one : i32
  memref.store %w, %tile[%next] : memref<?xi32, 3>
"""
    assert_kept(body)
    np.testing.assert_array_equal(run(body, 8), run(body, 8, checked=False))


def test_a_write_of_another_value_in_some_lanes_races():
    # the odd lanes store lid + 101 to tile[lid + 1], which holds lid + 1:
    # work-item 1's store to tile[2] races with work-item 2's
    body = """
  memref.store %v, %tile[%lid] : memref<?xi32, 3>
  %next = arith.addi %lid, %c1 : index
  %two = arith.constant 2 : i32
  %hundred = arith.constant 100 : i32
  %bit = arith.remui %v, %two : i32
  %plus = arith.muli %bit, %hundred : i32
  %w = arith.addi %v, %one : i32
  %value = arith.addi %w, %plus : i32
  memref.store %value, %tile[%next] : memref<?xi32, 3>
"""
    assert_kept(body)
    message = race(body, 8)
    assert "(byte offset 8, 4 bytes) by the work-item of global id (1, 0, 0)" in message
    assert "local id (2, 0, 0), with no barrier" in message


def test_a_barrier_between_is_no_race():
    body = INIT + BARRIER.format(id=0) + READ_AT.format(step=1)
    assert_kept(body)
    np.testing.assert_array_equal(run(body, 8), run(body, 8, checked=False))


def test_barriers_in_a_loop_start_epochs_in_packets():
    body = (
        INIT
        + """
  %steps = arith.constant 5 : index
  scf.for %i = %c0 to %steps step %c1 {
    %s = arith.index_cast %i : index to i32
    %w = arith.addi %s, %v : i32
    memref.store %w, %tile[%lid] : memref<?xi32, 3>
"""
        + BARRIER.format(id=0)
        + READ_AT.format(step=1)
        + BARRIER.format(id=1)
        + "  }\n"
    )
    assert_kept(body)
    np.testing.assert_array_equal(run(body, 8), run(body, 8, checked=False))
    without = body.replace(BARRIER.format(id=1), "")
    assert "load from local parameter 'tile'" in race(without, 8)


TILE_2D = """
func.func @k(%out: memref<?xi32, 1>, %tile: memref<4x33xi32, 3>)
    attributes {{mux.kernel = "entry-point",
                 mux.reqd_work_group_size = array<i32: 16, 4, 1>}} {{
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %lx = mux.get_local_id %d0
  %ly = mux.get_local_id %d1
  %gx = mux.get_global_id %d0
  %gy = mux.get_global_id %d1
  %v = arith.index_cast %gx : index to i32
  %c64 = arith.constant 64 : index
  %row = arith.muli %gy, %c64 : index
  %at = arith.addi %row, %gx : index
  %x1 = arith.addi %lx, %c1 : index
  %x16 = arith.addi %lx, %c16 : index
{body}
  func.return
}}
"""
ROW_1_READS_NEXT = """
  %is_row_1 = arith.cmpi eq, %ly, %c1 : index
  scf.if %is_row_1 {
    %x = memref.load %tile[%ly, %x1] : memref<4x33xi32, 3>
    memref.store %x, %out[%at] : memref<?xi32, 1>
  }
"""
STORE_2D = "  memref.store %v, %tile[%ly, %lx] : memref<4x33xi32, 3>\n"


def test_a_race_in_the_second_row_names_the_lanes_ids():
    source = TILE_2D.format(body=ROW_1_READS_NEXT + STORE_2D)
    # one work-group: the first race is always this one
    assert packet_after_the_check(source) is not None
    program = mux.compile(source, checked=True, vecz_width=8)
    with pytest.raises(mux.KernelError) as caught:
        program.kernel("k")(
            np.zeros(64 * 64, np.int32),
            mux.LocalBuffer(4 * 4 * 33),
            global_size=(16, 4),
            local_size=(16, 4),
            global_offset=(32, 8),
        )
    message = str(caught.value)
    # work-item (1, 1) stores tile[1][1], which work-item (0, 1) has read
    assert (
        "(byte offset 136, 4 bytes) by the work-item of global id (33, 9, 0), "
        in message
    )
    assert "local id (1, 1, 0), and load from" in message
    assert "global id (32, 9, 0), local id (0, 1, 0), with no barrier" in message


def test_a_tile_through_local_memory_runs_clean():
    right = "  memref.store %v, %tile[%ly, %x16] : memref<4x33xi32, 3>\n"
    body = (
        STORE_2D
        + right
        + BARRIER.format(id=0)
        + """
  %a = memref.load %tile[%ly, %lx] : memref<4x33xi32, 3>
  %b = memref.load %tile[%ly, %x1] : memref<4x33xi32, 3>
  %sum = arith.addi %a, %b : i32
  memref.store %sum, %out[%at] : memref<?xi32, 1>
"""
    )
    source = TILE_2D.format(body=body)
    assert packet_after_the_check(source) is not None
    outs = []
    for checked in (True, False):
        out = np.zeros(64 * 64, np.int32)
        mux.compile(source, checked=checked, vecz_width=8).kernel("k")(
            out, mux.LocalBuffer(4 * 4 * 33), global_size=(64, 64), local_size=(16, 4)
        )
        outs.append(out)
    np.testing.assert_array_equal(*outs)


def test_a_packet_with_a_scalar_local_access_is_dropped():
    # tile[lid / 2] is loaded lane by lane: which lane makes each load is not
    # the check's to guess, so the kernel runs scalar (the load needs a check:
    # its barrier interval has a store)
    body = (
        CHANGE_MINE
        + """
  %half = arith.divui %lid, %c2 : index
  %x = memref.load %tile[%half] : memref<?xi32, 3>
  memref.store %x, %out[%gid] : memref<?xi32, 1>
"""
    )
    source = kernel_source(body)
    assert packet_after_the_check(source) is None
    module = parse_cached(source, "<k>").clone()
    HostPipeline(
        kernel="k", vecz_width=8, checked=True, stop="check-local-races"
    ).apply(context(), module)
    kernel = next(f for f in module.ops if isinstance(f, func.FuncOp))
    fail = mux_attrs.VECZ_FAIL.get(kernel)
    assert fail is not None and "not one contiguous vector access" in fail[1]
