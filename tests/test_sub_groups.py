"""Sub-groups of size 1 (the spec's default), 4, 8 and 16: consecutive work-items in
local linear order, the last one of a work-group possibly partial. One kernel uses
every sub-group query, collective and shuffle and a sub-group barrier, each writing
its own slice of the output; it is compiled once per sub-group size and local size
and compared with the numpy model (`tests/group_model.py`). Shuffle operands reach
beyond the sub-group, so out-of-range lanes are checked too.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import pytest
from group_model import collective, groups, shuffle, sub_groups
from kernels import THREADS, launch_id, one_case_per_slice

import mux
from mux.errors import CompileError

SIZES = [1, 4, 8, 16]
# (global size, local size): local sizes that are multiples of every sub-group size
# and that are not, uniform and non-uniform, 1-D and 2-D.
LAUNCHES = [((64,), (16,)), ((48,), (12,)), ((37,), (12,)), ((10, 7), (4, 3))]

CASES = [
    "sub_group_id",
    "sub_group_size",
    "sub_group_local_id",
    "num_sub_groups",
    "max_sub_group_size",
    "reduce_add",
    "reduce_umax",
    "scan_inclusive_add",
    "scan_exclusive_mul",
    "any",
    "all",
    "broadcast",
    "shuffle",
    "shuffle_up",
    "shuffle_down",
    "shuffle_xor",
    "barrier",
]

SOURCE = """
func.func @k(%in: memref<?xi32, 1>, %in2: memref<?xi32, 1>, %lanes: memref<?xi32, 1>,
             %out: memref<?xi32, 1>, %total: index, %source: i32,
             %local: memref<?xi32, 3>) attributes {mux.kernel = "entry-point"} {
  %gid = mux.get_global_linear_id
  %v = memref.load %in[%gid] : memref<?xi32, 1>
  %w = memref.load %in2[%gid] : memref<?xi32, 1>
  %lane = memref.load %lanes[%gid] : memref<?xi32, 1>
  %zero = arith.constant 0 : i32
  %positive = arith.cmpi sgt, %v, %zero : i32
  %r0 = mux.get_sub_group_id
  %r1 = mux.get_sub_group_size
  %r2 = mux.get_sub_group_local_id
  %r3 = mux.get_num_sub_groups
  %r4 = mux.get_max_sub_group_size
  %r5 = mux.sub_group_reduce add %v : i32
  %r6 = mux.sub_group_reduce umax %v : i32
  %r7 = mux.sub_group_scan_inclusive add %v : i32
  %r8 = mux.sub_group_scan_exclusive mul %v : i32
  %any = mux.sub_group_any %positive
  %r9 = arith.extui %any : i1 to i32
  %all = mux.sub_group_all %positive
  %r10 = arith.extui %all : i1 to i32
  %r11 = mux.sub_group_broadcast %v, %source : i32
  %r12 = mux.sub_group_shuffle %v, %lane : i32
  %r13 = mux.sub_group_shuffle_up %w, %v, %lane : i32
  %r14 = mux.sub_group_shuffle_down %v, %w, %lane : i32
  %r15 = mux.sub_group_shuffle_xor %v, %lane : i32
  // the barrier: each work-item reads the next one's value in its sub-group
  %lid = mux.get_local_linear_id
  memref.store %v, %local[%lid] : memref<?xi32, 3>
  mux.sub_group_barrier id(0) scope(sub_group) semantics(acq_rel | work_group_memory)
  %one = arith.constant 1 : i32
  %next = arith.addi %r2, %one : i32
  %wrapped = arith.remui %next, %r1 : i32
  %r2i = arith.index_cast %r2 : i32 to index
  %start = arith.subi %lid, %r2i : index
  %wrappedi = arith.index_cast %wrapped : i32 to index
  %at = arith.addi %start, %wrappedi : index
  %r16 = memref.load %local[%at] : memref<?xi32, 3>
"""


def _source() -> str:
    return one_case_per_slice(SOURCE, [([], f"%r{c}") for c in range(len(CASES))])


@cache
def _kernel(size: int) -> mux.Kernel:
    return mux.compile(_source(), sub_group_size=size).kernel("k")


def model(values, others, lanes, source, global_size, local_size, size):
    """The expected output rows, one per case."""
    out = np.zeros((len(CASES), len(values)), dtype=np.int32)
    most = min(size, math.prod(local_size))  # of the enqueued work-group size
    for ids, _ in groups(global_size, local_size):
        n = len(ids)
        for k, part in enumerate(sub_groups(n, most)):
            members = ids[part]
            v, w, lane = values[members], others[members], lanes[members]
            count = len(members)
            rows = {
                "sub_group_id": k,
                "sub_group_size": count,
                "sub_group_local_id": np.arange(count),
                "num_sub_groups": -(-n // most),
                "max_sub_group_size": most,
                "reduce_add": collective("reduce", v, "add"),
                "reduce_umax": collective("reduce", v, "umax"),
                "scan_inclusive_add": collective("scan_inclusive", v, "add"),
                "scan_exclusive_mul": collective("scan_exclusive", v, "mul"),
                "any": collective("any", v > 0),
                "all": collective("all", v > 0),
                "broadcast": collective("broadcast", v, source=source),
                "shuffle": shuffle("shuffle", v, None, lane, most),
                "shuffle_up": shuffle("shuffle_up", w, v, lane, most),
                "shuffle_down": shuffle("shuffle_down", v, w, lane, most),
                "shuffle_xor": shuffle("shuffle_xor", v, None, lane, most),
                "barrier": np.roll(v, -1),
            }
            for c, case in enumerate(CASES):
                out[c, members] = rows[case]
    return out


@pytest.mark.parametrize("size", SIZES, ids=[f"size={s}" for s in SIZES])
@pytest.mark.parametrize(
    ("global_size", "local_size"),
    LAUNCHES,
    ids=[launch_id(g, lo) for g, lo in LAUNCHES],
)
@THREADS
def test_sub_groups(size, global_size, local_size, threads):
    k = _kernel(size)
    total = math.prod(global_size)
    rng = np.random.default_rng(size * 1000 + total)
    values = rng.integers(-(2**31), 2**31 - 1, total, dtype=np.int32)
    values[rng.random(total) < 0.3] = 3  # small ones too, and positives for `all`
    others = rng.integers(-100, 100, total, dtype=np.int32)
    lanes = rng.integers(0, 2 * size + 2, total, dtype=np.int32)  # some out of range
    most = min(size, math.prod(local_size))
    smallest = min(
        len(range(n)[p])
        for _, dims in groups(global_size, local_size)
        for n in [math.prod(dims)]
        for p in sub_groups(n, most)
    )
    source = min(2, smallest - 1)
    out = np.zeros(len(CASES) * total, dtype=np.int32)
    local = mux.LocalBuffer(4 * math.prod(local_size))
    k(
        values,
        others,
        lanes,
        out,
        total,
        source,
        local,
        global_size=global_size,
        local_size=local_size,
        threads=threads,
    )
    want = model(values, others, lanes, source, global_size, local_size, size)
    got = out.reshape(len(CASES), total)
    for c, case in enumerate(CASES):
        np.testing.assert_array_equal(got[c], want[c], err_msg=case)


def test_shuffle_model_edges():
    """The model's index rules at the edges, M = 4, a partial sub-group of 3."""
    v = np.array([10, 11, 12])
    prev = np.array([20, 21, 22])
    up = shuffle("shuffle_up", prev, v, np.array([1, 4, 5]), 4)
    # 0 - 1 = -1: prev of 3, beyond the partial sub-group: own; 1 - 4 = -3: prev of
    # 1; 2 - 5 = -3: prev of 1
    assert list(up) == [10, 21, 21]
    down = shuffle("shuffle_down", v, prev, np.array([1, 4, 8]), 4)
    # 0 + 1: curr of 1; 1 + 4 = 5: next of 1; 2 + 8 = 10 >= 2M: own
    assert list(down) == [11, 21, 12]
    xor = shuffle("shuffle_xor", v, None, np.array([1, 3, 2]), 4)
    # 0 ^ 1 = 1; 1 ^ 3 = 2; 2 ^ 2 = 0
    assert list(xor) == [11, 12, 10]


REQUIRED = """
func.func @k(%out: memref<?xi32, 1>)
    attributes {mux.kernel = "entry-point", mux.reqd_sub_group_size = SIZE : i32} {
  %gid = mux.get_global_linear_id
  %s = mux.get_sub_group_size
  %r = mux.sub_group_reduce add %s : i32
  memref.store %r, %out[%gid] : memref<?xi32, 1>
  func.return
}
"""


def test_required_sub_group_size_is_honoured():
    """A kernel requiring sub-groups of 8 has them, whatever the program's size."""
    k = mux.compile(REQUIRED.replace("SIZE", "8"), sub_group_size=4).kernel("k")
    assert k.sub_group_size == 8
    out = np.zeros(20, dtype=np.int32)
    k(out, global_size=20, local_size=20, threads=1)
    # sub-groups of 8, 8 and 4: each sums its sizes
    np.testing.assert_array_equal(out, [64] * 16 + [16] * 4)


def test_required_sub_group_size_the_device_lacks():
    with pytest.raises(CompileError, match="requires sub-group size 3"):
        k = mux.compile(REQUIRED.replace("SIZE", "3")).kernel("k")
        k(np.zeros(4, dtype=np.int32), global_size=4, local_size=4)


def test_sub_group_size_option_must_be_a_device_size():
    with pytest.raises(CompileError, match="sub_group_size"):
        mux.compile(REQUIRED.replace("SIZE", "8"), sub_group_size=3)


def test_queries():
    k = mux.compile(_source(), sub_group_size=8).kernel("k")
    assert k.query_sub_group_size_for_local_size(16) == 8
    assert k.query_sub_group_size_for_local_size(2, 2) == 4
    assert k.query_sub_group_size_for_local_size(5, 2, 1) == 8
    with pytest.raises(ValueError):
        k.query_sub_group_size_for_local_size(0)
    assert k.query_local_size_for_sub_group_count(3) == (24, 1, 1)
    assert k.query_local_size_for_sub_group_count(129) == (0, 0, 0)
    assert k.query_max_sub_group_count() == 128
    one = mux.compile(_source()).kernel("k")
    assert one.query_sub_group_size_for_local_size(16) == 1
    assert one.query_max_sub_group_count() == 1024
    fixed = mux.compile(
        REQUIRED.replace("SIZE", "4").replace(
            "mux.reqd_sub_group_size",
            "mux.reqd_work_group_size = array<i32: 10, 1, 1>, mux.reqd_sub_group_size",
        )
    ).kernel("k")
    assert fixed.query_max_sub_group_count() == 3
    assert fixed.query_local_size_for_sub_group_count(3) == (10, 1, 1)
    assert fixed.query_local_size_for_sub_group_count(2) == (0, 0, 0)


DEGENERATE = """
func.func @k(%in: memref<?xi32, 1>, %out: memref<?xi32, 1>, %total: index)
    attributes {mux.kernel = "entry-point"} {
  %gid = mux.get_global_linear_id
  %v = memref.load %in[%gid] : memref<?xi32, 1>
  %r0 = mux.sub_group_scan_inclusive add %v : i32
  %r1 = mux.get_sub_group_size
  %r2 = mux.get_sub_group_local_id
  %one = arith.constant 1 : i32
  %r3 = mux.sub_group_shuffle_down %v, %v, %one : i32
  %c1 = arith.constant 1 : index
  %i1 = arith.addi %gid, %total : index
  %i2 = arith.addi %i1, %total : index
  %i3 = arith.addi %i2, %total : index
  memref.store %r0, %out[%gid] : memref<?xi32, 1>
  memref.store %r1, %out[%i1] : memref<?xi32, 1>
  memref.store %r2, %out[%i2] : memref<?xi32, 1>
  memref.store %r3, %out[%i3] : memref<?xi32, 1>
  func.return
}
"""


def test_degenerate_sub_groups():
    """After `degenerate-sub-groups`, one sub-group spans each work-group (the
    maximum sub-group size being the enqueued work-group size)."""
    from lowering.degenerate_sub_groups import DegenerateSubGroupsPass
    from mux.compiler import context, parse

    module = parse(DEGENERATE)
    DegenerateSubGroupsPass().apply(context(), module)
    k = mux.compile(str(module)).kernel("k")
    n, local = 22, 8
    values = np.arange(1, n + 1, dtype=np.int32) * 3
    out = np.zeros(4 * n, dtype=np.int32)
    k(values, out, n, global_size=n, local_size=local, threads=1)
    got = out.reshape(4, n)
    for start in range(0, n, local):
        part = slice(start, min(start + local, n))
        v = values[part]
        size = len(v)
        np.testing.assert_array_equal(got[0, part], np.cumsum(v))
        np.testing.assert_array_equal(got[1, part], size)
        np.testing.assert_array_equal(got[2, part], np.arange(size))
        want = shuffle("shuffle_down", v, v, np.ones(size, dtype=np.int32), local)
        np.testing.assert_array_equal(got[3, part], want)
