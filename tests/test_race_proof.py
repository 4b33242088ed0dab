"""The compile-time proof that an interval class cannot race
(`lowering/check_local_races/proof.py`) on the shapes it is for (a tree
reduction, a scan, a tile), and its refusals: a real race, a work-group of two
dimensions an index of one cannot tell apart, indices it cannot compute, a loop
variable seen in two iterations of one interval; its budget; and the examples
it is for, proven at launch sizes other than the benchmark's and run checked
as they run unchecked."""

from __future__ import annotations

import numpy as np
import pytest
from example_launches import EXAMPLES
from kernels import build_options
from script_modules import load_script
from xdsl.dialects import func, memref

import mux
from lowering.check_local_races.intervals import interval_classes
from lowering.check_local_races.proof import race_free
from lowering.common import group_values
from mux.compiler import parse_cached

HEAD = """
func.func @k(%out: memref<?xi32, 1>, %n: index, %tile: memref<?xi32, 3>)
    attributes {{mux.kernel = "entry-point"{size}}} {{
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %lid = mux.get_local_id %d0
  %lsize = mux.get_local_size %d0
  %gid = mux.get_global_id %d0
{body}
  func.return
}}
"""

BARRIER = "  mux.work_group_barrier id({}) scope(work_group) semantics(acq_rel)\n"

TREE = (
    """
  %x = arith.index_cast %lid : index to i32
  memref.store %x, %tile[%lid] : memref<?xi32, 3>
"""
    + BARRIER.format(0)
    + """
  %last = scf.while (%stride = %c1) : (index) -> index {{
    %more = arith.cmpi ult, %stride, %lsize : index
    scf.condition(%more) %stride : index
  }} do {{
  ^bb0(%s: index):
    %step = arith.muli %s, %c{factor} : index
    %rem = arith.remui %lid, %step : index
    %head = arith.cmpi eq, %rem, %c0 : index
    %other = arith.addi %lid, %s : index
    %inside = arith.cmpi ult, %other, %lsize : index
    %active = arith.andi %head, %inside : i1
    scf.if %active {{
      %mine = memref.load %tile[%lid] : memref<?xi32, 3>
      %theirs = memref.load %tile[%other] : memref<?xi32, 3>
      %sum = arith.addi %mine, %theirs : i32
      memref.store %sum, %tile[%lid] : memref<?xi32, 3>
    }}
"""
    + BARRIER.format(1)
    + """
    %next = arith.muli %s, %c2 : index
    scf.yield %next : index
  }}
"""
)
"""A tree reduction's steps (`examples/reduce.mlir`): with `factor` 2 the
work-items that add `tile[lid + s]` into `tile[lid]` are those with `lid % 2s
== 0`; with 1, every work-item, and `lid` reads what `lid - s` writes."""


def proven(body: str, size: tuple[int, int, int] | None = (16, 1, 1)) -> list[bool]:
    """For each local access of `@k` in order, whether its class is proven."""
    attribute = ""
    if size is not None:
        attribute = ", mux.reqd_work_group_size = array<i32: {}, {}, {}>".format(*size)
    module = parse_cached(HEAD.format(size=attribute, body=body), "<k>")
    fn = next(op for op in module.ops if isinstance(op, func.FuncOp))
    intervals = interval_classes(fn.body)
    assert intervals is not None
    free = race_free(fn, intervals)
    return [
        intervals.class_of(op) in free
        for op in fn.walk()
        if isinstance(op, memref.LoadOp | memref.StoreOp)
        and op.memref.name_hint == "tile"
    ]


def test_a_tree_reduction_is_proven():
    assert proven(TREE.format(factor=2)) == [True] * 4


def test_a_tree_step_that_reads_what_another_work_item_writes_is_not():
    # the first store is alone in its interval: proven
    assert proven(TREE.format(factor=1)) == [True, False, False, False]


def test_the_proof_needs_the_work_group_size():
    assert proven(TREE.format(factor=2), size=None) == [False] * 4


def test_a_second_dimension_shares_each_element():
    # work-items (x, 0) and (x, 1) both store to tile[x]
    assert proven(TREE.format(factor=2), size=(16, 2, 1)) == [False] * 4


SWEEPS = (
    """
  %lid1 = arith.addi %lid, %c1 : index
  %lid2 = arith.muli %lid1, %c2 : index
  %x = arith.index_cast %lid : index to i32
  memref.store %x, %tile[%lid] : memref<?xi32, 3>
"""
    + BARRIER.format(0)
    + """
  %p = scf.while (%d = %c1) : (index) -> index {
    %more = arith.cmpi ult, %d, %lsize : index
    scf.condition(%more) %d : index
  } do {
  ^bb0(%d2: index):
    %end = arith.muli %d2, %lid2 : index
    %i = arith.subi %end, %c1 : index
    %active = arith.cmpi ult, %i, %lsize : index
    scf.if %active {
      %j = arith.subi %i, %d2 : index
      %left = memref.load %tile[%j] : memref<?xi32, 3>
      %mine = memref.load %tile[%i] : memref<?xi32, 3>
      %sum = arith.addi %mine, %left : i32
      memref.store %sum, %tile[%i] : memref<?xi32, 3>
    }
"""
    + BARRIER.format(1)
    + """
    %next = arith.muli %d2, %c2 : index
    scf.yield %next : index
  }
  %start = arith.divui %p, %c4 : index
  %done = scf.while (%d = %start) : (index) -> index {
    %more = arith.cmpi ugt, %d, %c0 : index
    scf.condition(%more) %d : index
  } do {
  ^bb0(%d3: index):
    %end = arith.muli %d3, %lid2 : index
    %i = arith.subi %end, %c1 : index
    %j = arith.addi %i, %d3 : index
    %active = arith.cmpi ult, %j, %lsize : index
    scf.if %active {
      %prefix = memref.load %tile[%i] : memref<?xi32, 3>
      %mine = memref.load %tile[%j] : memref<?xi32, 3>
      %sum = arith.addi %mine, %prefix : i32
      memref.store %sum, %tile[%j] : memref<?xi32, 3>
    }
"""
    + BARRIER.format(2)
    + """
    %next = arith.divui %d3, %c2 : index
    scf.yield %next : index
  }
  %result = memref.load %tile[%lid] : memref<?xi32, 3>
"""
)
"""A work-efficient scan's up-sweep and down-sweep (`examples/scan.mlir`): one
class, since the up-sweep's last interval runs into the down-sweep, but no two
of their steps in one interval."""


@pytest.mark.parametrize("size", [16, 13, 1])
def test_a_scan_is_proven(size: int):
    assert proven(SWEEPS, size=(size, 1, 1)) == [True] * 8


@pytest.mark.parametrize(
    ("indices", "expected"), [("%y, %lid", True), ("%c0, %lid", False)]
)
def test_a_tile_of_two_dimensions(indices: str, expected: bool):
    # element y * 8 + x is work-item (x, y)'s alone; row 0 is every row's
    source = HEAD.replace("memref<?xi32, 3>", "memref<4x8xi32, 3>").format(
        size=", mux.reqd_work_group_size = array<i32: 8, 4, 1>",
        body=f"""
  %y = mux.get_local_id %d1
  %x = arith.index_cast %lid : index to i32
  memref.store %x, %tile[{indices}] : memref<4x8xi32, 3>
""",
    )
    module = parse_cached(source, "<k>")
    fn = next(op for op in module.ops if isinstance(op, func.FuncOp))
    intervals = interval_classes(fn.body)
    assert intervals is not None
    assert bool(race_free(fn, intervals)) == expected


@pytest.mark.parametrize(
    "moved",
    [
        "%n",  # a kernel argument
        "%gid",  # which group runs is not known
        "%loaded",  # a value in memory
    ],
)
def test_an_index_it_cannot_compute_is_not_proven(moved: str):
    # tile[lid + moved]: one element per work-item whatever `moved` is (a
    # race-free kernel), but the proof does not know it
    body = (
        """
  %held = memref.load %tile[%c0] : memref<?xi32, 3>
  %loaded = arith.index_cast %held : i32 to index
"""
        + BARRIER.format(0)
        + f"""
  %at = arith.addi %lid, {moved} : index
  %x = arith.index_cast %lid : index to i32
  memref.store %x, %tile[%at] : memref<?xi32, 3>
"""
    )
    assert proven(body) == [True, False]
    assert proven(body.replace(f"%lid, {moved}", "%lid, %c4")) == [True, True]


LOOP = (
    """
  scf.for %s = %c1 to %c{stop} step %c1 {{
    %mine = arith.cmpi eq, %lid, %s : index
    scf.if %mine {{
      %x = arith.index_cast %lid : index to i32
      memref.store %x, %tile[%lid] : memref<?xi32, 3>
    }}
"""
    + BARRIER.format(0)
    + """
    %first = arith.cmpi eq, %lid, %c0 : index
    scf.if %first {{
      %at = arith.addi %s, %c1 : index
      %y = memref.load %tile[%at] : memref<?xi32, 3>
      memref.store %y, %out[%s] : memref<?xi32, 1>
    }}
  }}
"""
)
"""Work-item `s` stores to `tile[s]`; after the barrier, work-item 0 reads
`tile[s + 1]`, which in the same interval (the loop's back edge) work-item
`s + 1` stores to: a race, though not for any one value of `s`."""


def test_a_loop_variable_on_both_sides_of_a_barrier_is_not_proven():
    assert proven(LOOP.format(stop=8)) == [False, False]


def test_that_race_is_reported():
    source = HEAD.format(
        size=", mux.reqd_work_group_size = array<i32: 16, 1, 1>",
        body=LOOP.format(stop=8),
    )
    kernel = mux.compile(source, checked=True).kernel("k")
    with pytest.raises(mux.KernelError) as caught:
        kernel(
            np.zeros(16, np.int32),
            0,
            mux.LocalBuffer(64),
            global_size=(16,),
            local_size=(16,),
        )
    assert "race" in str(caught.value)


def test_a_loop_whose_trip_is_not_known_is_not_proven():
    body = TREE.format(factor=2).replace("%stride, %lsize", "%stride, %n")
    assert proven(body) == [True, False, False, False]


SHARE = """
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  scf.for %e = %lid to %c64 step %c{step} {{
    %x = arith.index_cast %e : index to i32
    memref.store %x, %tile[%e] : memref<?xi32, 3>
  }}
"""
"""Each work-item stores its share of a tile in a loop with no barrier (its
iterations all in one interval): elements lid, lid + step, ... below 64."""


@pytest.mark.parametrize(("step", "expected"), [(16, True), (8, False)])
def test_a_work_items_share_of_a_tile(step: int, expected: bool):
    # step 16 in a group of 16: element e is work-item e % 16's alone; step 8:
    # work-items 0 and 8 both store to element 8
    assert proven(SHARE.format(step=step)) == [expected]


def test_the_iterations_of_a_loop_in_one_interval_are_all_compared():
    # tile[lid + k] for k = 0..3: one work-item's k = 1 is the next one's k = 0,
    # though for any one k the elements are distinct
    body = """
  %c3 = arith.constant 3 : index
  scf.for %k = %c0 to %c3 step %c1 {
    %at = arith.addi %lid, %k : index
    %x = arith.index_cast %k : index to i32
    memref.store %x, %tile[%at] : memref<?xi32, 3>
  }
"""
    assert proven(body) == [False]
    assert proven(body.replace("%c3 step", "%c1 step")) == [True]


def test_a_memref_moved_by_pointer_arithmetic_is_not_proven():
    # %moved starts an element further: its [lid] is tile[lid + 1], which the
    # next work-item stores to as its tile[lid]
    body = """
  %p = builtin.unrealized_conversion_cast %tile : memref<?xi32, 3> to !llvm.ptr<3>
  %q = llvm.getelementptr %p[4] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  %moved = builtin.unrealized_conversion_cast %q : !llvm.ptr<3> to memref<?xi32, 3>
  %x = arith.index_cast %lid : index to i32
  memref.store %x, %tile[%lid] : memref<?xi32, 3>
  %y = memref.load %moved[%lid] : memref<?xi32, 3>
  memref.store %y, %out[%lid] : memref<?xi32, 1>
"""
    assert proven(body) == [False]


WHILE_SHARE = """
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %stride = arith.constant {step} : index
  %end = scf.while (%e = %lid) : (index) -> index {{
    %more = arith.cmpi ult, %e, %c64 : index
    scf.condition(%more) %e : index
  }} do {{
  ^bb0(%f: index):
    %x = arith.index_cast %f : index to i32
    memref.store %x, %tile[%f] : memref<?xi32, 3>
    %next = arith.addi %f, %stride : index
    scf.yield %next : index
  }}
"""
"""A work-item's share as an `scf.while` (OpenCL C's `for` loops come out of
the front-end so): elements lid, lid + step, ... below 64."""

DO_WHILE_SHARE = """
  %c64 = arith.constant 64 : index
  %stride = arith.constant {step} : index
  %end = scf.while (%e = %lid) : (index) -> index {{
    %x = arith.index_cast %e : index to i32
    memref.store %x, %tile[%e] : memref<?xi32, 3>
    %next = arith.addi %e, %stride : index
    %more = arith.cmpi ult, %next, %c64 : index
    scf.condition(%more) %next : index
  }} do {{
  ^bb0(%f: index):
    scf.yield %f : index
  }}
"""
"""The same share as a do-while: the body in the loop's `before` region."""


@pytest.mark.parametrize("loop", [WHILE_SHARE, DO_WHILE_SHARE])
@pytest.mark.parametrize(("step", "expected"), [(16, True), (8, False)])
def test_a_work_items_share_in_a_while_loop(loop: str, step: int, expected: bool):
    assert proven(loop.format(step=step)) == [expected]


def test_a_module_scope_variable_reached_through_casts_and_its_gep():
    # what replace-module-scope-vars makes of a second variable (at byte 64),
    # cast to another shape before the access, as the OpenCL C front-end's
    # code is: its elements start at element 16 of the buffer
    variable = (
        '{mux.local_variable = {name = "v", offset = 64 : i64, size = 64 : i64,'
        " type = memref<16xi32, 3>}}"
    )
    body = f"""
  %p = builtin.unrealized_conversion_cast %tile : memref<?xi32, 3> to !llvm.ptr<3>
  %q = llvm.getelementptr %p[64] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  %v = builtin.unrealized_conversion_cast %q
    : !llvm.ptr<3> to memref<16xi32, 3> {variable}
  %r = builtin.unrealized_conversion_cast %v : memref<16xi32, 3> to !llvm.ptr<3>
  %w = builtin.unrealized_conversion_cast %r : !llvm.ptr<3> to memref<4x4xi32, 3>
  %x = arith.index_cast %lid : index to i32
  memref.store %x, %tile[%lid] : memref<?xi32, 3>
  %c3 = arith.constant 3 : index
  %y = memref.load %w[%c3, %c0] : memref<4x4xi32, 3>
  memref.store %y, %out[%lid] : memref<?xi32, 1>
"""
    # element 16 + 12 = 28: no work-item of 16 stores there
    assert proven(body) == [True]
    # element 16 + 0, which work-item 16 of a group of 32 stores to
    assert proven(body.replace("%c3, %c0", "%c0, %c0"), size=(32, 1, 1)) == [False]


def many_accesses(count: int, trips: int) -> str:
    """`count` read-modify-writes of elements `lid * count + k + s` in a loop of
    `trips` steps `s` with a barrier: every work-item's elements its own in
    each step, so every pair of the `2 * count` accesses is compared for each
    of the `trips` values of `s`."""
    steps = "".join(
        f"""
    %k{k} = arith.constant {k} : index
    %a{k} = arith.addi %m, %k{k} : index
    %v{k} = memref.load %tile[%a{k}] : memref<?xi32, 3>
    memref.store %v{k}, %tile[%a{k}] : memref<?xi32, 3>
"""
        for k in range(count)
    )
    return (
        f"""
  %cn = arith.constant {count} : index
  %ct = arith.constant {trips} : index
  %m0 = arith.muli %lid, %cn : index
  scf.for %s = %c0 to %ct step %c1 {{
    %m = arith.addi %m0, %s : index
{steps}"""
        + BARRIER.format(0).replace("  mux", "    mux")
        + "  }\n"
    )


def test_a_class_of_many_accesses_is_proven_within_the_budget():
    # 8 x 2 accesses, 100 values of `s`: each access's elements computed once
    # for each `s` and shared by its 15 pairs (each pair's own computations
    # would take more steps than the budget)
    assert proven(many_accesses(8, 100)) == [True] * 16


def test_a_spent_budget_proves_nothing(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(group_values, "MAX_STEPS", 1000)
    assert proven(many_accesses(8, 100)) == [False] * 16
    assert proven(TREE.format(factor=2)) == [True] * 4


RNG = np.random.default_rng(29)


def _floats(n: int) -> np.ndarray:
    return RNG.standard_normal(n).astype(np.float32)


PROVEN_LAUNCHES = [
    ("reduce", (96,), (3,)),
    ("reduce", (96,), (32,)),
    ("scan", (96,), (3,)),
    ("scan", (128,), (64,)),
    ("sgemm_tiled", (24, 24), (8, 4)),
    ("transpose", (24, 16), (8, 4)),
]
"""Uniform launches (so the kernel is compiled for its work-group size) of
the examples whose races the proof rules out, at sizes other than the
benchmark's: odd, not powers of two, two dimensions of different sizes."""


def proven_launch_args(
    name: str, global_size: tuple[int, ...], local_size: tuple[int, ...]
) -> list:
    if name == "reduce":
        n, groups = global_size[0], global_size[0] // local_size[0]
        return [
            _floats(n),
            np.zeros(groups, np.float32),
            mux.LocalBuffer(4 * local_size[0]),
        ]
    if name == "scan":
        return [
            RNG.integers(-9, 9, global_size[0], dtype=np.int32),
            np.zeros(global_size[0], np.int32),
        ]
    if name == "sgemm_tiled":
        n = global_size[0]
        return [
            _floats(n * n),
            _floats(n * n),
            np.zeros(n * n, np.float32),
            np.uint64(n),
        ]
    width, height = global_size
    return [
        _floats(width * height),
        np.zeros(width * height, np.float32),
        np.uint64(width),
        np.uint64(height),
    ]


@pytest.mark.parametrize("language", ["mlir", "cl"])
@pytest.mark.parametrize(("name", "global_size", "local_size"), PROVEN_LAUNCHES)
def test_the_examples_are_proven_and_run_clean_checked(
    name: str, global_size: tuple[int, ...], local_size: tuple[int, ...], language: str
):
    path = EXAMPLES / f"{name}.{language}"
    options = " ".join(build_options(path.read_text())) if language == "cl" else ""
    args = proven_launch_args(name, global_size, local_size)
    outputs = []
    for checked in (False, True):
        kernel = mux.load(path, build_options=options, checked=checked).kernel(name)
        copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        kernel(*copies, global_size=global_size, local_size=local_size)
        outputs.append([a for a in copies if isinstance(a, np.ndarray)])
    for unchecked, checked in zip(*outputs, strict=True):
        np.testing.assert_array_equal(checked, unchecked)
    # no local access is race-checked: the proof covers every interval
    assert "check_local" not in kernel.compiled(local_size).llvm_ir


def test_the_proof_agrees_with_the_run_time_check():
    # scripts/fuzz_races.py: random kernels launched checked with the proof and
    # without it report the same races (a longer campaign is the script's)
    report = load_script("fuzz_races").campaign(count=10, seed=0)
    assert not report.disagree, report.summary()
    assert report.raced and report.all_proven, report.summary()
