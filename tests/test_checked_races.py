"""Checked mode's race check on local memory (`check-local-races`, issue 17):
injected races are caught, naming both work-items, both accesses and the
byte; kernels without races run clean and compute what they compute unchecked
(every example kernel with local memory, MLIR and OpenCL C, local atomics by
every work-item, barriers in loops, neighbouring bytes of one word)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from kernels import build_options
from test_opencl_examples import CASES, EXAMPLES, Case, copies

import mux

LOCAL_MEMORY = ("reduce", "scan", "transpose", "sgemm_tiled", "dma_tile")
"""The examples that use local memory."""


def launch(kernel: mux.Kernel, args: list, case: Case) -> None:
    kernel(
        *args,
        global_size=case.global_size,
        local_size=case.local_size,
        global_offset=case.global_offset,
    )


def load(path: Path, **options) -> mux.Program:
    if path.suffix == ".cl":
        options["build_options"] = " ".join(build_options(path.read_text()))
    return mux.load(path, **options)


@pytest.mark.parametrize("language", ["mlir", "cl"])
@pytest.mark.parametrize(
    "case",
    [c for c in CASES if c.name in LOCAL_MEMORY],
    ids=lambda c: f"{c.name}-{c.global_size}-{c.local_size}",
)
def test_example_runs_clean_checked(case: Case, language: str):
    args = case.args()
    plain, checked = copies(args), copies(args)
    path = EXAMPLES / f"{case.name}.{language}"
    launch(load(path).kernel(case.name), plain, case)
    launch(load(path, checked=True).kernel(case.name), checked, case)
    for mine, theirs in zip(plain, checked, strict=True):
        if isinstance(mine, np.ndarray):
            np.testing.assert_array_equal(theirs, mine)


def without_loop_barrier(path: Path, tmp_path: Path) -> Path:
    """reduce with the barrier of its loop taken out."""
    text = path.read_text()
    if path.suffix == ".mlir":
        text = re.sub(r"\n *mux\.work_group_barrier id\(1\)[^\n]*", "", text)
    else:
        head, tail = text.split("scratch[lid] += scratch[lid + stride];")
        text = (
            head
            + "scratch[lid] += scratch[lid + stride];"
            + tail.replace("barrier(CLK_LOCAL_MEM_FENCE);", "", 1)
        )
    racy = tmp_path / path.name
    racy.write_text(text)
    return racy


def run_racy(program: mux.Program, name: str, *args, **sizes) -> str:
    with pytest.raises(mux.KernelError) as caught:
        program.kernel(name)(*args, **sizes)
    return str(caught.value)


@pytest.mark.parametrize("language", ["mlir", "cl"])
def test_reduce_without_its_loop_barrier_races(language: str, tmp_path: Path):
    racy = without_loop_barrier(EXAMPLES / f"reduce.{language}", tmp_path)
    data = np.arange(16, dtype=np.float32)
    out = np.zeros(1, np.float32)
    message = run_racy(
        load(racy, checked=True),
        "reduce",
        data,
        out,
        mux.LocalBuffer(4 * 16),
        global_size=(16,),
        local_size=(16,),
    )
    # one work-group, so that the first race is always this one: work-item 2
    # adds scratch[3] into scratch[2], which work-item 0 has read in the same
    # interval (its scratch[0] += scratch[1] + ..., no barrier between)
    assert message.startswith("kernel 'reduce': data race on local memory: store to ")
    assert "local parameter 'scratch'" in message
    assert "by the work-item of global id (2, 0, 0), local id (2, 0, 0)" in message
    assert "load from local parameter 'scratch'" in message
    assert "by the work-item of global id (0, 0, 0), local id (0, 0, 0)" in message
    assert "(byte offset 8, 4 bytes)" in message
    assert racy.name in message


KERNEL = """
func.func @k(%out: memref<?xi32, 1>, %tile: memref<?xi32, 3>)
    attributes {{mux.kernel = "entry-point"}} {{
  %d0 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %lid = mux.get_local_id %d0
  %gid = mux.get_global_id %d0
  %n = mux.get_local_size %d0
  %v = arith.index_cast %gid : index to i32
{body}
  func.return
}}
"""


STORE_MINE = """
  memref.store %v, %tile[%lid] : memref<?xi32, 3>
"""
CHANGE_MINE = """
  %held = memref.load %tile[%lid] : memref<?xi32, 3>
  %one = arith.constant 1 : i32
  %changed = arith.addi %held, %one : i32
  memref.store %changed, %tile[%lid] : memref<?xi32, 3>
"""
"""A write of a value the element does not hold: a store of the value held
already (a uniform write) is no race, and local memory starts with whatever
an earlier launch left there, so a race test's writes must change it."""
READ_NEXT = """
  %next = arith.addi %lid, %c1 : index
  %wrapped = arith.remui %next, %n : index
  %x = memref.load %tile[%wrapped] : memref<?xi32, 3>
  memref.store %x, %out[%gid] : memref<?xi32, 1>
"""
BARRIER = """
  mux.work_group_barrier id({id}) scope(work_group) semantics(acq_rel|work_group_memory)
"""


def run_kernel(
    body: str, checked: bool = True, groups: int = 4, local: int = 8
) -> np.ndarray:
    program = mux.compile(KERNEL.format(body=body), checked=checked)
    out = np.zeros(groups * local, np.int32)
    kernel = program.kernel("k")
    kernel(
        out,
        mux.LocalBuffer(4 * local),
        global_size=(groups * local,),
        local_size=(local,),
    )
    return out


def race(body: str, groups: int = 1) -> str:
    """The message of the race in `body` (one work-group: the first race
    found is then always the same one)."""
    with pytest.raises(mux.KernelError) as caught:
        run_kernel(body, groups=groups)
    return str(caught.value)


def test_two_work_items_writing_one_element():
    message = race("""
  %half = arith.divui %lid, %c2 : index
  %held = memref.load %tile[%half] : memref<?xi32, 3>
  %one = arith.constant 1 : i32
  %changed = arith.addi %held, %one : i32
  memref.store %changed, %tile[%half] : memref<?xi32, 3>
""")
    assert "store to local parameter 'tile'" in message
    assert "local id (1, 0, 0)" in message and "local id (0, 0, 0)" in message
    assert "(byte offset 0, 4 bytes)" in message


def test_reading_a_neighbours_element_without_a_barrier():
    message = race(CHANGE_MINE + READ_NEXT)
    # work-item 0 reads tile[1] before work-item 1 writes it
    assert message.count("local parameter 'tile'") == 2
    assert "store to local parameter 'tile'" in message
    assert "load from local parameter 'tile'" in message
    assert "local id (1, 0, 0)" in message and "local id (0, 0, 0)" in message


NEIGHBOUR_WITH_BARRIER = STORE_MINE + BARRIER.format(id=0) + READ_NEXT


def test_a_read_past_a_barrier_on_a_path_not_taken_is_checked():
    # the reads after a barrier in a store-free interval are not checked;
    # a barrier in a branch nobody takes leaves the store and the read in one
    # interval, so this read is checked, and races
    never = "  %never = arith.cmpi ugt, %lid, %n : index\n  scf.if %never {\n"
    message = race(CHANGE_MINE + never + BARRIER.format(id=0) + "  }\n" + READ_NEXT)
    assert "store to local parameter 'tile'" in message
    assert "load from local parameter 'tile'" in message


def test_a_barrier_between_is_no_race():
    out = run_kernel(NEIGHBOUR_WITH_BARRIER)
    np.testing.assert_array_equal(out, run_kernel(NEIGHBOUR_WITH_BARRIER, False))


def test_an_atomic_and_a_plain_access_race():
    message = race("""
  %one = arith.constant 1 : i32
  %first = arith.cmpi eq, %lid, %c0 : index
  scf.if %first {
    %held = memref.load %tile[%c0] : memref<?xi32, 3>
    %changed = arith.addi %held, %one : i32
    memref.store %changed, %tile[%c0] : memref<?xi32, 3>
  }
  %old = atomic.rmw add monotonic %tile[%c0], %one : memref<?xi32, 3>
""")
    assert "atomic on local parameter 'tile'" in message
    assert "store to local parameter 'tile'" in message
    assert "local id (1, 0, 0)" in message and "local id (0, 0, 0)" in message


ATOMICS_BY_ALL = """
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %first = arith.cmpi eq, %lid, %c0 : index
  scf.if %first {
    memref.store %zero, %tile[%c0] : memref<?xi32, 3>
  }
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %old = atomic.rmw add monotonic %tile[%c0], %one : memref<?xi32, 3>
  %again = atomic.rmw add monotonic %tile[%c0], %one : memref<?xi32, 3>
  mux.work_group_barrier id(1) scope(work_group) semantics(acq_rel | work_group_memory)
  %x = memref.load %tile[%c0] : memref<?xi32, 3>
  memref.store %x, %out[%gid] : memref<?xi32, 1>
"""


def test_atomics_on_local_memory_by_every_work_item_are_no_race():
    np.testing.assert_array_equal(run_kernel(ATOMICS_BY_ALL), np.full(32, 16))


BARRIER_IN_A_LOOP = (
    """
  %steps = arith.constant 5 : index
  scf.for %i = %c0 to %steps step %c1 {
    %w = arith.index_cast %i : index to i32
    memref.store %w, %tile[%lid] : memref<?xi32, 3>
"""
    + BARRIER.format(id=0)
    + READ_NEXT
    + BARRIER.format(id=1)
    + "  }\n"
)


def test_a_barrier_in_a_loop_is_no_race():
    np.testing.assert_array_equal(run_kernel(BARRIER_IN_A_LOOP), np.full(32, 4))


def test_the_same_loop_without_its_second_barrier_races():
    body = BARRIER_IN_A_LOOP.replace(BARRIER.format(id=1), "")
    message = race(body)
    # the next iteration's store to tile[1] by work-item 1 follows work-item
    # 0's load of it, across no barrier
    assert "store to local parameter 'tile'" in message
    assert "load from local parameter 'tile'" in message


def barriers_in_a_loop(count: int) -> str:
    """`count` barriers, one per iteration of a loop."""
    return (
        f"""
  %count = arith.constant {count} : index
  scf.for %i = %c0 to %count step %c1 {{
"""
        + BARRIER.format(id=7)
        + "  }\n"
    )


@pytest.mark.parametrize("count", [255, 256, 257, 512])
def test_an_access_a_multiple_of_256_barriers_later_is_no_race(count: int):
    # the shadow's words carry the epoch's low 8 bits: a word of epoch 0
    # would look like one of epoch 256 had the words not been zeroed when
    # the epoch left its block of 256
    out = run_kernel(STORE_MINE + barriers_in_a_loop(count) + READ_NEXT)
    ids = np.arange(32).reshape(4, 8)
    np.testing.assert_array_equal(out, np.roll(ids, -1, axis=1).ravel())


def test_a_race_after_300_barriers_is_caught():
    message = race(
        barriers_in_a_loop(300)
        + """
  memref.store %v, %tile[%c0] : memref<?xi32, 3>
"""
    )
    assert "store to local parameter 'tile'" in message
    assert "(byte offset 0, 4 bytes)" in message


def test_a_word_written_and_one_of_its_bytes_read_race():
    # a byte access makes the kernel's cells a byte: the word's write and the
    # read of its byte 2 meet in that byte's word. The write stores what the
    # word held plus one: a store of the value held already is no race (a
    # uniform write), and local memory starts with whatever it holds
    message = race("""
  %is0 = arith.cmpi eq, %lid, %c0 : index
  scf.if %is0 {
    %held = memref.load %tile[%c0] : memref<?xi32, 3>
    %one = arith.constant 1 : i32
    %other = arith.addi %held, %one : i32
    memref.store %other, %tile[%c0] : memref<?xi32, 3>
  }
  %is1 = arith.cmpi eq, %lid, %c1 : index
  scf.if %is1 {
    %p = builtin.unrealized_conversion_cast %tile : memref<?xi32, 3> to !llvm.ptr<3>
    %b = llvm.getelementptr %p[2] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %x = llvm.load %b : !llvm.ptr<3> -> i8
  }
""")
    assert "store to local parameter 'tile'" in message
    assert "load from local parameter 'tile'" in message


BYTES = """
func.func @k(%out: memref<?xi8, 1>, %bytes: memref<?xi8, 3>)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %lid = mux.get_local_id %d0
  %gid = mux.get_global_id %d0
  %v = arith.index_cast %gid : index to i8
  memref.store %v, %bytes[%lid] : memref<?xi8, 3>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %x = memref.load %bytes[%lid] : memref<?xi8, 3>
  memref.store %x, %out[%gid] : memref<?xi8, 1>
  func.return
}
"""


def test_neighbouring_bytes_of_one_word_are_no_race():
    out = np.zeros(32, np.int8)
    program = mux.compile(BYTES, checked=True)
    program.kernel("k")(out, mux.LocalBuffer(8), global_size=(32,), local_size=(8,))
    np.testing.assert_array_equal(out, np.arange(32, dtype=np.int8))


def test_a_race_in_every_work_group_is_reported_once_with_the_count():
    message = race(
        """
  memref.store %v, %tile[%c0] : memref<?xi32, 3>
""",
        groups=4,
    )
    assert re.search(r"\((\d+) more faults in this launch\)", message)


SUB_GROUP_NEIGHBOUR = """
  memref.store %v, %tile[%lid] : memref<?xi32, 3>
  mux.sub_group_barrier id(0) scope(sub_group) semantics(acq_rel | work_group_memory)
  %other = arith.xori %lid, %c1 : index
  %x = memref.load %tile[%other] : memref<?xi32, 3>
  memref.store %x, %out[%gid] : memref<?xi32, 1>
"""


def test_a_sub_group_barrier_orders_its_sub_group():
    """Sub-groups of 4: work-items 2k and 2k + 1 are in one sub-group, whose
    barrier orders their accesses (work-item-loops schedules it as a barrier of
    the group, and so does the check)."""
    program = mux.compile(
        KERNEL.format(body=SUB_GROUP_NEIGHBOUR), checked=True, sub_group_size=4
    )
    out = np.zeros(32, np.int32)
    program.kernel("k")(out, mux.LocalBuffer(32), global_size=(32,), local_size=(8,))
    np.testing.assert_array_equal(out, np.arange(32) ^ 1)


def test_sub_groups_of_one_work_item_do_not_order_two():
    """Sub-groups of one work-item (the default): the sub-group barrier orders
    nothing between work-items 0 and 1, a race."""
    message = race(SUB_GROUP_NEIGHBOUR)
    assert "store to local parameter 'tile'" in message
    assert "load from local parameter 'tile'" in message


UNIFORM_WRITES = """
  %seven = arith.constant 7 : i32
  memref.store %seven, %tile[%c0] : memref<?xi32, 3>
  %x = memref.load %tile[%c0] : memref<?xi32, 3>
  memref.store %x, %out[%gid] : memref<?xi32, 1>
"""


def test_work_items_writing_one_value_is_no_race():
    """Uniform writes (oclgrind's default): every work-item stores 7 to one
    element and reads it back (UnitCL's regression.86_store_local)."""
    np.testing.assert_array_equal(run_kernel(UNIFORM_WRITES), np.full(32, 7))


COLLECTIVES = """
__kernel void k(__global const int *x, __global int *out) {
  size_t i = get_global_id(0);
  int v = x[i];
  size_t last = get_local_size(0) - 1;
  out[i] = work_group_reduce_add(v) + 3 * work_group_scan_inclusive_max(v)
           + 5 * work_group_scan_exclusive_add(v) + 7 * work_group_broadcast(v, last);
}
"""


@pytest.mark.parametrize("local_size", [1, 16, 20])
def test_software_collectives_fold_in_order_and_are_no_race(local_size: int):
    """`replace-wgc`'s accumulators are read and written by every work-item
    between two barriers, ordered by the linear schedule (`mux.schedule_ordered`):
    checked, that is no race, and the results are those of the unchecked build."""
    x = np.random.default_rng(1).integers(-50, 50, 60).astype(np.int32)
    results = []
    for checked in (False, True):
        program = mux.compile(
            COLLECTIVES,
            language="opencl",
            build_options="-cl-std=CL2.0",
            software_wgc=True,
            checked=checked,
        )
        out = np.zeros_like(x)
        program.kernel("k")(x, out, global_size=(60,), local_size=(local_size,))
        results.append(out)
    np.testing.assert_array_equal(results[1], results[0])
    expected = []
    for group in np.split(x, range(local_size, x.size, local_size)):
        expected.append(
            group.sum()
            + 3 * np.maximum.accumulate(group)
            + 5 * (np.cumsum(group) - group)
            + 7 * group[-1]
        )
    np.testing.assert_array_equal(results[0], np.concatenate(expected))
