"""Work-group barriers, case by case: small kernels, each compared with a numpy model
of what its work-groups compute.

One kernel per case the barrier implementation (`work-item-loops`) must handle:
(a) barriers in sequence with values live across them, a private array among them;
(b) a barrier in an `scf.for` with loop-carried values and a trip count from an
argument; (c) barriers in both branches of a uniform `scf.if`; (d) nested loops with
barriers at two depths; (e) a barrier as the first and as the last statement;
(f) uniform early returns before, between and after barriers; (g) a loop whose live
values cross a barrier against the same loop without barriers; (h) work-item ids
queried after a barrier, in 2-D; and several kernels with barriers in one module.

The kernels communicate through a local buffer: each work-item reads the value of a
neighbour in its work-group (the next or the previous one, wrapping around), which is
only right if every work-item of the group has reached the barrier before. Values are
integers (or floats that hold small integers), so results are compared exactly.
Each kernel is compiled once per module (a uniform local size gets its own compiled
variant, all non-uniform launches share one), then run for every case.
"""

import numpy as np
import pytest
from kernels import THREADS, size_id

import mux

# (global size, local size): local sizes 1 to 1024, dividing the global size (uniform
# work-groups) or not (the last work-group is smaller).
SIZES_1D = pytest.mark.parametrize(
    ("n", "local"),
    [
        (8, 1),
        (10, 3),
        (64, 8),
        (67, 8),
        (40, 16),
        (128, 64),
        (200, 64),
        (3000, 1024),
    ],
)
# The kernels below write `SEMANTICS` after a barrier's id, for this.
BARRIER = "scope(work_group) semantics(acq_rel | work_group_memory)"
# Lines the kernels below share, written in them as one word on a line of its own.
FRAGMENTS = {
    # the work-item's global id %gid and local id %lid in dimension %d, and the size
    # %n of its work-group
    "IDS": """
%gid = mux.get_global_id %d
%lid = mux.get_local_id %d
%n = mux.get_local_size %d
""",
    # %ri, the local id of the next work-item of the group, wrapping around (%c1 is 1)
    "RIGHT": """
%lid1 = arith.addi %lid, %c1 : index
%ri = arith.remui %lid1, %n : index
""",
    # %li, the local id of the previous work-item of the group, wrapping around
    "LEFT": """
%nm1 = arith.subi %n, %c1 : index
%lidn = arith.addi %lid, %nm1 : index
%li = arith.remui %lidn, %n : index
""",
}


def expand(source: str) -> str:
    """`source` with its barriers' `SEMANTICS` and its `FRAGMENTS` written out."""
    lines = []
    for line in source.replace("SEMANTICS", BARRIER).splitlines():
        word = line.strip()
        if word in FRAGMENTS:
            indent = line[: len(line) - len(line.lstrip())]
            lines += [indent + part for part in FRAGMENTS[word].strip().splitlines()]
        else:
            lines.append(line)
    return "\n".join(lines) + "\n"


def kernel(source: str, name: str) -> mux.Kernel:
    return mux.compile(expand(source)).kernel(name)


def kernel_fixture(source: str, name: str):
    """A fixture named `name`: kernel `name` of `source`, compiled once per module."""

    @pytest.fixture(scope="module", name=name)
    def compiled() -> mux.Kernel:
        return kernel(source, name)

    return compiled


def local_i32(local: int) -> mux.LocalBuffer:
    """A local buffer of one i32 per work-item."""
    return mux.LocalBuffer(4 * local)


def run(k: mux.Kernel, *args, n: int, local: int, threads: int | None) -> None:
    """Runs a 1-D kernel whose last argument is a local buffer of one i32 per
    work-item."""
    k(*args, local_i32(local), global_size=n, local_size=local, threads=threads)


def groups(n: int, local: int) -> list[slice]:
    """The work-groups of a 1-D range of `n` work-items, as slices."""
    return [slice(start, min(start + local, n)) for start in range(0, n, local)]


def right(values: np.ndarray) -> np.ndarray:
    """What each work-item of a group reads at local[(lid + 1) % size]."""
    return np.roll(values, -1)


def left(values: np.ndarray) -> np.ndarray:
    """What each work-item of a group reads at local[(lid + size - 1) % size]."""
    return np.roll(values, 1)


def inputs(n: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed + n).integers(-100, 100, n).astype(np.int32)


# --------------------------------------------------------------------------------------
# (a) Barriers in sequence; live values; a private array across barriers.
# --------------------------------------------------------------------------------------

SEQUENCE = """
// Three barriers in a row. The ids and the loaded value are defined before the first
// barrier and used after the last; `right` crosses one barrier. The private array `p`
// (one per work-item) is written before the barriers, read and written between them,
// and read after them.
func.func @sequence(%input: memref<?xi32, 1>, %output: memref<?xi32, 1>,
                    %private_out: memref<?xf32, 1>, %local: memref<?xi32, 3>)
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  IDS
  %v = memref.load %input[%gid] : memref<?xi32, 1>
  // p[k] = v * (k + 1)
  %p = memref.alloca() : memref<4xf32>
  %vf = arith.sitofp %v : i32 to f32
  scf.for %k = %c0 to %c4 step %c1 {
    %k1 = arith.addi %k, %c1 : index
    %k1i = arith.index_cast %k1 : index to i32
    %k1f = arith.sitofp %k1i : i32 to f32
    %pk = arith.mulf %vf, %k1f : f32
    memref.store %pk, %p[%k] : memref<4xf32>
  }
  memref.store %v, %local[%lid] : memref<?xi32, 3>
  mux.work_group_barrier id(0) SEMANTICS
  RIGHT
  %right = memref.load %local[%ri] : memref<?xi32, 3>
  mux.work_group_barrier id(1) SEMANTICS
  // p[0] += p[3]
  %p0 = memref.load %p[%c0] : memref<4xf32>
  %p3 = memref.load %p[%c3] : memref<4xf32>
  %p03 = arith.addf %p0, %p3 : f32
  memref.store %p03, %p[%c0] : memref<4xf32>
  %three = arith.constant 3 : i32
  %r3 = arith.muli %right, %three : i32
  %mixed = arith.addi %r3, %v : i32
  memref.store %mixed, %local[%lid] : memref<?xi32, 3>
  mux.work_group_barrier id(2) SEMANTICS
  LEFT
  %from_left = memref.load %local[%li] : memref<?xi32, 3>
  // output = from_left - v + 1000 * lid
  %diff = arith.subi %from_left, %v : i32
  %lidi = arith.index_cast %lid : index to i32
  %thousand = arith.constant 1000 : i32
  %tag = arith.muli %lidi, %thousand : i32
  %result = arith.addi %diff, %tag : i32
  memref.store %result, %output[%gid] : memref<?xi32, 1>
  // private_out = p[0] + 10 p[1] + 100 p[2] + 1000 p[3]
  %q0 = memref.load %p[%c0] : memref<4xf32>
  %q1 = memref.load %p[%c1] : memref<4xf32>
  %q2 = memref.load %p[%c2] : memref<4xf32>
  %q3 = memref.load %p[%c3] : memref<4xf32>
  %ten = arith.constant 10.0 : f32
  %hundred = arith.constant 100.0 : f32
  %thousandf = arith.constant 1000.0 : f32
  %t1 = arith.mulf %q1, %ten : f32
  %t2 = arith.mulf %q2, %hundred : f32
  %t3 = arith.mulf %q3, %thousandf : f32
  %s01 = arith.addf %q0, %t1 : f32
  %s012 = arith.addf %s01, %t2 : f32
  %s0123 = arith.addf %s012, %t3 : f32
  memref.store %s0123, %private_out[%gid] : memref<?xf32, 1>
  func.return
}
"""


sequence = kernel_fixture(SEQUENCE, "sequence")


@THREADS
@SIZES_1D
def test_barriers_in_sequence(sequence, n, local, threads):
    x = inputs(n)
    out = np.full(n, -1, np.int32)
    private = np.full(n, np.nan, np.float32)
    run(sequence, x, out, private, n=n, local=local, threads=threads)
    expected = np.empty(n, np.int64)
    for group in groups(n, local):
        v = x[group].astype(np.int64)
        mixed = 3 * right(v) + v
        expected[group] = left(mixed) - v + 1000 * np.arange(len(v))
    np.testing.assert_array_equal(out, expected)
    # p = [5v, 2v, 3v, 4v] after p[0] += p[3]: exact in f32 for |v| <= 100
    np.testing.assert_array_equal(private, (5 + 20 + 300 + 4000) * x.astype(np.float32))


# --------------------------------------------------------------------------------------
# (b) A barrier in an scf.for with loop-carried values; the trip count an argument.
# --------------------------------------------------------------------------------------

LOOP = """
// `trips` iterations; in each one, every work-item publishes its current value, reads
// its right neighbour's after a barrier, and waits again before the next iteration
// overwrites local memory. `cur` moves one place to the left per iteration (plus the
// iteration number); `acc` sums what was read, weighted.
func.func @loop(%input: memref<?xi32, 1>, %out_acc: memref<?xi32, 1>,
                %out_cur: memref<?xi32, 1>, %trips: index, %local: memref<?xi32, 3>)
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  IDS
  RIGHT
  %v = memref.load %input[%gid] : memref<?xi32, 1>
  %acc, %cur = scf.for %it = %c0 to %trips step %c1
      iter_args(%a = %zero, %x = %v) -> (i32, i32) {
    memref.store %x, %local[%lid] : memref<?xi32, 3>
    mux.work_group_barrier id(0) SEMANTICS
    %neighbour = memref.load %local[%ri] : memref<?xi32, 3>
    mux.work_group_barrier id(1) SEMANTICS
    %iti = arith.index_cast %it : index to i32
    %x_next = arith.addi %neighbour, %iti : i32
    %weight = arith.addi %iti, %one : i32
    %weighted = arith.muli %neighbour, %weight : i32
    %a_next = arith.addi %a, %weighted : i32
    scf.yield %a_next, %x_next : i32, i32
  }
  memref.store %acc, %out_acc[%gid] : memref<?xi32, 1>
  memref.store %cur, %out_cur[%gid] : memref<?xi32, 1>
  func.return
}
"""


loop = kernel_fixture(LOOP, "loop")


@THREADS
@SIZES_1D
@pytest.mark.parametrize("trips", [0, 1, 5])
def test_barrier_in_a_loop(loop, trips, n, local, threads):
    x = inputs(n)
    acc = np.full(n, -1, np.int32)
    cur = np.full(n, -1, np.int32)
    run(loop, x, acc, cur, trips, n=n, local=local, threads=threads)
    want_acc, want_cur = np.empty(n, np.int64), np.empty(n, np.int64)
    for group in groups(n, local):
        a, c = np.zeros(group.stop - group.start, np.int64), x[group].astype(np.int64)
        for it in range(trips):
            neighbour = right(c)
            c = neighbour + it
            a = a + neighbour * (it + 1)
        want_acc[group], want_cur[group] = a, c
    np.testing.assert_array_equal(acc, want_acc)
    np.testing.assert_array_equal(cur, want_cur)


# --------------------------------------------------------------------------------------
# (c) Barriers in a uniform scf.if: both branches.
# --------------------------------------------------------------------------------------

BRANCH = """
// `mode` 0: every work-group takes the else branch; 1: the then branch; 2: the groups
// with an odd group id take the then branch, the others the else branch (uniform in
// each group, different across groups). Each branch has two barriers and its own
// communication pattern; its result is used after the scf.if.
func.func @branch(%input: memref<?xi32, 1>, %output: memref<?xi32, 1>, %mode: i32,
                  %local: memref<?xi32, 3>)
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  IDS
  %group = mux.get_group_id %d
  %v = memref.load %input[%gid] : memref<?xi32, 1>
  memref.store %v, %local[%lid] : memref<?xi32, 3>
  mux.work_group_barrier id(0) SEMANTICS
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %is_then = arith.cmpi eq, %mode, %one : i32
  %is_odd_mode = arith.cmpi eq, %mode, %two : i32
  %parity = arith.remui %group, %c2 : index
  %odd = arith.cmpi eq, %parity, %c1 : index
  %odd_then = arith.andi %is_odd_mode, %odd : i1
  %cond = arith.ori %is_then, %odd_then : i1
  %nm1 = arith.subi %n, %c1 : index
  %r = scf.if %cond -> (i32) {
    // then: a = right neighbour; local = 2a; b = the value two to the right; b + a
    RIGHT
    %a = memref.load %local[%ri] : memref<?xi32, 3>
    mux.work_group_barrier id(1) SEMANTICS
    %a2 = arith.muli %a, %two : i32
    memref.store %a2, %local[%lid] : memref<?xi32, 3>
    mux.work_group_barrier id(2) SEMANTICS
    %i2 = arith.addi %lid, %c2 : index
    %ri2 = arith.remui %i2, %n : index
    %b = memref.load %local[%ri2] : memref<?xi32, 3>
    %sum = arith.addi %b, %a : i32
    scf.yield %sum : i32
  } else {
    // else: a = left neighbour; local = a + 100; b = left neighbour's; b - v
    %il = arith.addi %lid, %nm1 : index
    %li = arith.remui %il, %n : index
    %a = memref.load %local[%li] : memref<?xi32, 3>
    mux.work_group_barrier id(3) SEMANTICS
    %hundred = arith.constant 100 : i32
    %a100 = arith.addi %a, %hundred : i32
    memref.store %a100, %local[%lid] : memref<?xi32, 3>
    mux.work_group_barrier id(4) SEMANTICS
    %b = memref.load %local[%li] : memref<?xi32, 3>
    %diff = arith.subi %b, %v : i32
    scf.yield %diff : i32
  }
  %thousand = arith.constant 1000 : i32
  %v1000 = arith.muli %v, %thousand : i32
  %result = arith.addi %r, %v1000 : i32
  memref.store %result, %output[%gid] : memref<?xi32, 1>
  func.return
}
"""


branch = kernel_fixture(BRANCH, "branch")


@THREADS
@SIZES_1D
@pytest.mark.parametrize("mode", [0, 1, 2], ids=["else", "then", "odd-groups-then"])
def test_barriers_in_a_uniform_if(branch, mode, n, local, threads):
    x = inputs(n)
    out = np.full(n, -1, np.int32)
    run(branch, x, out, mode, n=n, local=local, threads=threads)
    expected = np.empty(n, np.int64)
    for index, group in enumerate(groups(n, local)):
        v = x[group].astype(np.int64)
        if mode == 1 or (mode == 2 and index % 2 == 1):
            a = right(v)
            r = np.roll(2 * a, -2) + a
        else:
            a = left(v)
            r = left(a + 100) - v
        expected[group] = r + 1000 * v
    np.testing.assert_array_equal(out, expected)


# --------------------------------------------------------------------------------------
# (d) Nested loops with barriers at two depths.
# --------------------------------------------------------------------------------------

NESTED = """
// `outer` iterations of: publish acc + v, read the right neighbour's (two barriers),
// then `inner` iterations of: publish t, add the left neighbour's (two barriers).
func.func @nested(%input: memref<?xi32, 1>, %output: memref<?xi32, 1>,
                  %outer: index, %inner: index, %local: memref<?xi32, 3>)
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  IDS
  %v = memref.load %input[%gid] : memref<?xi32, 1>
  RIGHT
  LEFT
  %acc = scf.for %i = %c0 to %outer step %c1 iter_args(%a = %zero) -> (i32) {
    %t0 = arith.addi %a, %v : i32
    memref.store %t0, %local[%lid] : memref<?xi32, 3>
    mux.work_group_barrier id(0) SEMANTICS
    %s = memref.load %local[%ri] : memref<?xi32, 3>
    mux.work_group_barrier id(1) SEMANTICS
    %t = scf.for %j = %c0 to %inner step %c1 iter_args(%u = %s) -> (i32) {
      memref.store %u, %local[%lid] : memref<?xi32, 3>
      mux.work_group_barrier id(2) SEMANTICS
      %l = memref.load %local[%li] : memref<?xi32, 3>
      mux.work_group_barrier id(3) SEMANTICS
      %ji = arith.index_cast %j : index to i32
      %ul = arith.addi %u, %l : i32
      %u_next = arith.addi %ul, %ji : i32
      scf.yield %u_next : i32
    }
    %ii = arith.index_cast %i : index to i32
    %at = arith.addi %a, %t : i32
    %a_next = arith.addi %at, %ii : i32
    scf.yield %a_next : i32
  }
  memref.store %acc, %output[%gid] : memref<?xi32, 1>
  func.return
}
"""


nested = kernel_fixture(NESTED, "nested")


@THREADS
@SIZES_1D
@pytest.mark.parametrize(("outer", "inner"), [(0, 2), (2, 0), (1, 1), (3, 2)])
def test_nested_loops_with_barriers(nested, outer, inner, n, local, threads):
    x = inputs(n)
    out = np.full(n, -1, np.int32)
    run(nested, x, out, outer, inner, n=n, local=local, threads=threads)
    expected = np.empty(n, np.int64)
    for group in groups(n, local):
        v = x[group].astype(np.int64)
        a = np.zeros_like(v)
        for i in range(outer):
            t = right(a + v)
            for j in range(inner):
                t = t + left(t) + j
            a = a + t + i
        expected[group] = a
    # i32 arithmetic wraps around; so does the cast of the int64 model
    np.testing.assert_array_equal(out, expected.astype(np.int32))


# --------------------------------------------------------------------------------------
# (e) A barrier as the first and as the last statement of the kernel.
# --------------------------------------------------------------------------------------

FIRST_LAST = """
func.func @first_last(%input: memref<?xi32, 1>, %output: memref<?xi32, 1>,
                      %local: memref<?xi32, 3>)
    attributes {mux.kernel = "entry-point"} {
  mux.work_group_barrier id(0) SEMANTICS
  %d = arith.constant 0 : i32
  %c1 = arith.constant 1 : index
  IDS
  %v = memref.load %input[%gid] : memref<?xi32, 1>
  memref.store %v, %local[%lid] : memref<?xi32, 3>
  mux.work_group_barrier id(1) SEMANTICS
  RIGHT
  %r = memref.load %local[%ri] : memref<?xi32, 3>
  memref.store %r, %output[%gid] : memref<?xi32, 1>
  mux.work_group_barrier id(2) SEMANTICS
  func.return
}
"""

ONLY_BARRIERS = """
// Nothing but barriers around one store.
func.func @only_barriers(%x: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  mux.work_group_barrier id(0) SEMANTICS
  mux.work_group_barrier id(1) SEMANTICS
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  %v = memref.load %x[%gid] : memref<?xi32, 1>
  %one = arith.constant 1 : i32
  %w = arith.addi %v, %one : i32
  memref.store %w, %x[%gid] : memref<?xi32, 1>
  mux.work_group_barrier id(2) SEMANTICS
  mux.work_group_barrier id(3) SEMANTICS
  func.return
}
"""


first_last = kernel_fixture(FIRST_LAST, "first_last")
only_barriers = kernel_fixture(ONLY_BARRIERS, "only_barriers")


@THREADS
@SIZES_1D
def test_barrier_first_and_last(first_last, only_barriers, n, local, threads):
    x = inputs(n)
    out = np.full(n, -1, np.int32)
    run(first_last, x, out, n=n, local=local, threads=threads)
    expected = np.empty(n, np.int64)
    for group in groups(n, local):
        expected[group] = right(x[group])
    np.testing.assert_array_equal(out, expected)

    y = x.copy()
    only_barriers(y, global_size=n, local_size=local, threads=threads)
    np.testing.assert_array_equal(y, x + 1)


# --------------------------------------------------------------------------------------
# (f) Early returns: uniform ones before and between barriers, divergent ones after the
# last barrier.
# --------------------------------------------------------------------------------------

EARLY_RETURN = """
// Every work-item first writes its input to output. Then, by `mode`:
//   0: no early return: output = left neighbour's (right + v) + 2000 (three barriers);
//   1: every work-item returns before the first barrier;
//   2: every work-item returns between the first and the second barrier, after writing
//      output = right neighbour's v + 1000;
//   3: the work-groups with an odd group id return before the first barrier, the
//      others run to the end (uniform in each group).
func.func @early_return(%input: memref<?xi32, 1>, %output: memref<?xi32, 1>,
                        %mode: i32, %local: memref<?xi32, 3>)
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  IDS
  %group = mux.get_group_id %d
  %v = memref.load %input[%gid] : memref<?xi32, 1>
  memref.store %v, %output[%gid] : memref<?xi32, 1>
  %m1 = arith.constant 1 : i32
  %m2 = arith.constant 2 : i32
  %m3 = arith.constant 3 : i32
  %is1 = arith.cmpi eq, %mode, %m1 : i32
  %is2 = arith.cmpi eq, %mode, %m2 : i32
  %is3 = arith.cmpi eq, %mode, %m3 : i32
  %parity = arith.remui %group, %c2 : index
  %odd = arith.cmpi eq, %parity, %c1 : index
  %odd3 = arith.andi %is3, %odd : i1
  %return_now = arith.ori %is1, %odd3 : i1
  cf.cond_br %return_now, ^done, ^first
^first:
  memref.store %v, %local[%lid] : memref<?xi32, 3>
  mux.work_group_barrier id(0) SEMANTICS
  RIGHT
  %right = memref.load %local[%ri] : memref<?xi32, 3>
  %k1000 = arith.constant 1000 : i32
  %r1000 = arith.addi %right, %k1000 : i32
  memref.store %r1000, %output[%gid] : memref<?xi32, 1>
  cf.cond_br %is2, ^done, ^second
^second:
  mux.work_group_barrier id(1) SEMANTICS
  %rv = arith.addi %right, %v : i32
  memref.store %rv, %local[%lid] : memref<?xi32, 3>
  mux.work_group_barrier id(2) SEMANTICS
  LEFT
  %from_left = memref.load %local[%li] : memref<?xi32, 3>
  %k2000 = arith.constant 2000 : i32
  %l2000 = arith.addi %from_left, %k2000 : i32
  memref.store %l2000, %output[%gid] : memref<?xi32, 1>
  func.return
^done:
  func.return
}
"""

RETURN_AFTER = """
// After the last barrier the work-items part ways: the odd ones return in one block,
// the even ones in another, after a divergent scf.if.
func.func @return_after(%input: memref<?xi32, 1>, %output: memref<?xi32, 1>,
                        %local: memref<?xi32, 3>)
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  IDS
  %v = memref.load %input[%gid] : memref<?xi32, 1>
  memref.store %v, %local[%lid] : memref<?xi32, 3>
  mux.work_group_barrier id(0) SEMANTICS
  RIGHT
  %right = memref.load %local[%ri] : memref<?xi32, 3>
  %parity = arith.remui %lid, %c2 : index
  %odd = arith.cmpi eq, %parity, %c1 : index
  cf.cond_br %odd, ^odd, ^even
^odd:
  %two = arith.constant 2 : i32
  %r2 = arith.muli %right, %two : i32
  memref.store %r2, %output[%gid] : memref<?xi32, 1>
  func.return
^even:
  %rv = arith.addi %right, %v : i32
  memref.store %rv, %output[%gid] : memref<?xi32, 1>
  %quarter = arith.remui %lid, %c4 : index
  %fourth = arith.cmpi eq, %quarter, %c0 : index
  scf.if %fourth {
    %seven = arith.constant 7 : i32
    %r7 = arith.addi %rv, %seven : i32
    memref.store %r7, %output[%gid] : memref<?xi32, 1>
  }
  func.return
}
"""


early_return = kernel_fixture(EARLY_RETURN, "early_return")
return_after = kernel_fixture(RETURN_AFTER, "return_after")


@THREADS
@SIZES_1D
@pytest.mark.parametrize(
    "mode", [0, 1, 2, 3], ids=["none", "before", "between", "odd-groups"]
)
def test_uniform_early_return(early_return, mode, n, local, threads):
    x = inputs(n)
    out = np.full(n, -1, np.int32)
    run(early_return, x, out, mode, n=n, local=local, threads=threads)
    expected = np.empty(n, np.int64)
    for index, group in enumerate(groups(n, local)):
        v = x[group].astype(np.int64)
        if mode == 1 or (mode == 3 and index % 2 == 1):
            expected[group] = v
        elif mode == 2:
            expected[group] = right(v) + 1000
        else:
            expected[group] = left(right(v) + v) + 2000
    np.testing.assert_array_equal(out, expected)


@THREADS
@SIZES_1D
def test_divergent_return_after_the_last_barrier(return_after, n, local, threads):
    x = inputs(n)
    out = np.full(n, -1, np.int32)
    run(return_after, x, out, n=n, local=local, threads=threads)
    expected = np.empty(n, np.int64)
    for group in groups(n, local):
        v = x[group].astype(np.int64)
        lid = np.arange(len(v))
        r = right(v)
        expected[group] = np.where(lid % 2 == 1, 2 * r, r + v + 7 * (lid % 4 == 0))
    np.testing.assert_array_equal(out, expected)


# --------------------------------------------------------------------------------------
# (g) Live values across a barrier in a loop: the same answer as without the barrier.
# --------------------------------------------------------------------------------------

LIVE_VALUES = """
// Values of many types cross the barriers: an i1, an i8, an i16, an i32, an i64, an
// index, an f32 and an f64, some defined before the loop and used after it, some
// carried by the loop. Each work-item only ever reads its own slot of local memory, so
// the result does not depend on the barriers: the same kernel without them (the test
// removes the barrier lines) must give the same answer.
func.func @live_values(%input: memref<?xi32, 1>, %out_i: memref<?xi32, 1>,
                       %out_f: memref<?xf32, 1>, %out_l: memref<?xi64, 1>,
                       %trips: index, %local: memref<?xi32, 3>)
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gid = mux.get_global_id %d
  %lid = mux.get_local_id %d
  %v = memref.load %input[%gid] : memref<?xi32, 1>
  %f = arith.sitofp %v : i32 to f32
  %h = arith.extf %f : f32 to f64
  %gid64 = arith.index_cast %gid : index to i64
  %v64 = arith.extsi %v : i32 to i64
  %w = arith.muli %v64, %gid64 : i64
  %one = arith.constant 1 : i32
  %low = arith.andi %v, %one : i32
  %b = arith.trunci %low : i32 to i1
  %byte = arith.trunci %v : i32 to i8
  %short = arith.trunci %v : i32 to i16
  %half = arith.constant 0.5 : f32
  %three = arith.constant 3 : i32
  %two = arith.constant 2 : i32
  %a, %x, %y, %flag = scf.for %it = %c0 to %trips step %c1
      iter_args(%a0 = %v, %x0 = %f, %y0 = %w, %flag0 = %b) -> (i32, f32, i64, i1) {
    memref.store %a0, %local[%lid] : memref<?xi32, 3>
    mux.work_group_barrier id(0) SEMANTICS
    %back = memref.load %local[%lid] : memref<?xi32, 3>
    %iti = arith.index_cast %it : index to i32
    // a = flag ? 3 a + it : a - 2 it
    %a3 = arith.muli %back, %three : i32
    %a3i = arith.addi %a3, %iti : i32
    %it2 = arith.muli %iti, %two : i32
    %am = arith.subi %back, %it2 : i32
    %a1 = arith.select %flag0, %a3i, %am : i32
    // x = x * 0.5 + it
    %itf = arith.sitofp %iti : i32 to f32
    %xh = arith.mulf %x0, %half : f32
    %x1 = arith.addf %xh, %itf : f32
    mux.work_group_barrier id(1) SEMANTICS
    // y = y + a; flag = flag xor (a & 1)
    %a64 = arith.extsi %a1 : i32 to i64
    %y1 = arith.addi %y0, %a64 : i64
    %alow = arith.andi %a1, %one : i32
    %abit = arith.trunci %alow : i32 to i1
    %flag1 = arith.xori %flag0, %abit : i1
    scf.yield %a1, %x1, %y1, %flag1 : i32, f32, i64, i1
  }
  // out_i = a + flag + lid + byte + short
  %flagi = arith.extui %flag : i1 to i32
  %lidi = arith.index_cast %lid : index to i32
  %bytei = arith.extsi %byte : i8 to i32
  %shorti = arith.extsi %short : i16 to i32
  %s1 = arith.addi %a, %flagi : i32
  %s2 = arith.addi %s1, %lidi : i32
  %s3 = arith.addi %s2, %bytei : i32
  %s4 = arith.addi %s3, %shorti : i32
  memref.store %s4, %out_i[%gid] : memref<?xi32, 1>
  // out_f = x + (f32)(2 h)
  %h2 = arith.addf %h, %h : f64
  %h2f = arith.truncf %h2 : f64 to f32
  %xf = arith.addf %x, %h2f : f32
  memref.store %xf, %out_f[%gid] : memref<?xf32, 1>
  // out_l = y + gid
  %yl = arith.addi %y, %gid64 : i64
  memref.store %yl, %out_l[%gid] : memref<?xi64, 1>
  func.return
}
"""


@pytest.fixture(scope="module")
def live_values():
    with_barriers = expand(LIVE_VALUES)
    without = "\n".join(
        line for line in with_barriers.splitlines() if "work_group_barrier" not in line
    )
    assert "work_group_barrier" in with_barriers
    return (
        mux.compile(with_barriers).kernel("live_values"),
        mux.compile(without).kernel("live_values"),
    )


def _live_values_model(x: np.ndarray, trips: int):
    """The kernel's arithmetic in numpy, element-wise, with its types: the same
    operations in the same order, so f32 results are bit for bit the same."""
    gid = np.arange(len(x), dtype=np.int64)
    a = x.copy()
    xf = x.astype(np.float32)
    y = x.astype(np.int64) * gid
    flag = (x & 1).astype(bool)
    for it in range(trips):
        a = np.where(flag, a * np.int32(3) + np.int32(it), a - np.int32(2 * it))
        xf = xf * np.float32(0.5) + np.float32(it)
        y = y + a.astype(np.int64)
        flag = flag ^ (a & 1).astype(bool)
    return a, xf, y, flag


@THREADS
@SIZES_1D
@pytest.mark.parametrize("trips", [0, 1, 4])
def test_live_values_across_a_barrier_in_a_loop(live_values, trips, n, local, threads):
    x = inputs(n)
    results = []
    for variant in live_values:
        outs = (
            np.full(n, -1, np.int32),
            np.full(n, np.nan, np.float32),
            np.full(n, -1, np.int64),
        )
        run(variant, x, *outs, trips, n=n, local=local, threads=threads)
        results.append(outs)
    with_barriers, without = results
    for got, want in zip(with_barriers, without, strict=True):
        np.testing.assert_array_equal(got, want)

    a, xf, y, flag = _live_values_model(x, trips)
    lid = np.concatenate([np.arange(g.stop - g.start) for g in groups(n, local)])
    byte = x.astype(np.int8).astype(np.int32)
    short = x.astype(np.int16).astype(np.int32)
    np.testing.assert_array_equal(with_barriers[0], a + flag + lid + byte + short)
    np.testing.assert_array_equal(
        with_barriers[1], xf + (2 * x.astype(np.float64)).astype(np.float32)
    )
    np.testing.assert_array_equal(with_barriers[2], y + np.arange(n))


# --------------------------------------------------------------------------------------
# (h) Work-item ids after a barrier, in 2-D.
# --------------------------------------------------------------------------------------

IDS_AFTER = """
// Ids queried before the barriers and used after them (kept or recomputed by the
// compiler, they must be right either way) and ids queried after them. Each work-item
// also publishes its global ids, packed as 1000 * x + y, and reads the next
// work-item's (in local linear order, wrapping around) after a barrier.
// Outputs are at the global linear id; `ids` has 8 values per work-item.
func.func @ids_after(%ids: memref<?xi64, 1>, %local: memref<?xi64, 3>)
    attributes {mux.kernel = "entry-point"} {
  mux.work_group_barrier id(0) SEMANTICS
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  %x = mux.get_global_id %d0
  %y = mux.get_global_id %d1
  %lx = mux.get_local_id %d0
  %ly = mux.get_local_id %d1
  %sx = mux.get_local_size %d0
  %sy = mux.get_local_size %d1
  %row = arith.muli %ly, %sx : index
  %l = arith.addi %row, %lx : index
  %x1000 = arith.muli %x, %c1000 : index
  %packed = arith.addi %x1000, %y : index
  %packed64 = arith.index_cast %packed : index to i64
  memref.store %packed64, %local[%l] : memref<?xi64, 3>
  mux.work_group_barrier id(1) SEMANTICS
  %count = arith.muli %sx, %sy : index
  %l1 = arith.addi %l, %c1 : index
  %next = arith.remui %l1, %count : index
  %neighbour = memref.load %local[%next] : memref<?xi64, 3>
  mux.work_group_barrier id(2) SEMANTICS
  %x2 = mux.get_global_id %d0
  %y2 = mux.get_global_id %d1
  %lx2 = mux.get_local_id %d0
  %ly2 = mux.get_local_id %d1
  %gx = mux.get_group_id %d0
  %gy = mux.get_group_id %d1
  %linear = mux.get_local_linear_id
  %i = mux.get_global_linear_id
  %c8 = arith.constant 8 : index
  %base = arith.muli %i, %c8 : index
  // 0, 1: global ids from before the barriers; 2, 3: from after them
  // 4: local ids, 1000 * lx + ly, before; 5: the same after; 6: local linear id
  //    after, plus 1000000 * (1000 * group x + group y); 7: the neighbour's packed ids
  %x_64 = arith.index_cast %x : index to i64
  %y_64 = arith.index_cast %y : index to i64
  %x2_64 = arith.index_cast %x2 : index to i64
  %y2_64 = arith.index_cast %y2 : index to i64
  %lx1000 = arith.muli %lx, %c1000 : index
  %lxy = arith.addi %lx1000, %ly : index
  %lxy_64 = arith.index_cast %lxy : index to i64
  %lx2_1000 = arith.muli %lx2, %c1000 : index
  %lxy2 = arith.addi %lx2_1000, %ly2 : index
  %lxy2_64 = arith.index_cast %lxy2 : index to i64
  %c1000000 = arith.constant 1000000 : index
  %gx1000 = arith.muli %gx, %c1000 : index
  %gxy = arith.addi %gx1000, %gy : index
  %gtag = arith.muli %gxy, %c1000000 : index
  %tagged = arith.addi %gtag, %linear : index
  %tagged_64 = arith.index_cast %tagged : index to i64
  %i0 = arith.addi %base, %c1 : index
  %i1 = arith.addi %i0, %c1 : index
  %i2 = arith.addi %i1, %c1 : index
  %i3 = arith.addi %i2, %c1 : index
  %i4 = arith.addi %i3, %c1 : index
  %i5 = arith.addi %i4, %c1 : index
  %i6 = arith.addi %i5, %c1 : index
  memref.store %x_64, %ids[%base] : memref<?xi64, 1>
  memref.store %y_64, %ids[%i0] : memref<?xi64, 1>
  memref.store %x2_64, %ids[%i1] : memref<?xi64, 1>
  memref.store %y2_64, %ids[%i2] : memref<?xi64, 1>
  memref.store %lxy_64, %ids[%i3] : memref<?xi64, 1>
  memref.store %lxy2_64, %ids[%i4] : memref<?xi64, 1>
  memref.store %tagged_64, %ids[%i5] : memref<?xi64, 1>
  memref.store %neighbour, %ids[%i6] : memref<?xi64, 1>
  func.return
}
"""


ids_after = kernel_fixture(IDS_AFTER, "ids_after")


def _ids_after_model(global_size, local_size, offset):
    (w, h), (lw, lh), (ox, oy) = global_size, local_size, offset
    y, x = np.mgrid[0:h, 0:w]
    lx, ly = x % lw, y % lh
    gx, gy = x // lw, y // lh
    # actual sizes: the last group of a row or a column is smaller
    sx = np.minimum(lw, w - gx * lw)
    sy = np.minimum(lh, h - gy * lh)
    linear = ly * sx + lx
    following = (linear + 1) % (sx * sy)
    nx = gx * lw + following % sx + ox
    ny = gy * lh + following // sx + oy
    return np.stack(
        [
            x + ox,
            y + oy,
            x + ox,
            y + oy,
            1000 * lx + ly,
            1000 * lx + ly,
            1000000 * (1000 * gx + gy) + linear,
            1000 * nx + ny,
        ],
        axis=-1,
    )


@THREADS
@pytest.mark.parametrize(
    ("global_size", "local_size", "offset"),
    [
        ((8, 4), (4, 2), (0, 0)),
        ((13, 7), (4, 3), (0, 0)),  # non-uniform in both dimensions
        ((16, 16), (16, 16), (0, 0)),
        ((17, 9), (8, 8), (0, 0)),
        ((5, 11), (1, 3), (3, 9)),  # offsets
        ((1, 1), (1, 1), (0, 0)),
        ((64, 3), (64, 1), (2, 1)),
        ((100, 30), (32, 32), (0, 0)),  # 1024 work-items per full group
    ],
    ids=size_id,
)
def test_ids_after_a_barrier_2d(ids_after, global_size, local_size, offset, threads):
    check_ids_after(ids_after, global_size, local_size, offset, threads)


@THREADS
@pytest.mark.parametrize("order", ["yxz", "zyx"])
def test_ids_after_a_barrier_other_work_item_orders(order, threads):
    """The work-item loops follow the kernel's work-item order (y innermost, ...): the
    ids, and who is whose neighbour, must not depend on it."""
    source = IDS_AFTER.replace(
        'mux.kernel = "entry-point"',
        'mux.kernel = "entry-point", '
        f"mux.work_item_order = #mux<work_item_order {order}>",
    )
    assert order in source
    check_ids_after(kernel(source, "ids_after"), (13, 7), (4, 3), (1, 2), threads)


def check_ids_after(ids_kernel, global_size, local_size, offset, threads):
    w, h = global_size
    ids = np.full(w * h * 8, -1, np.int64)
    ids_kernel(
        ids,
        mux.LocalBuffer(8 * local_size[0] * local_size[1]),
        global_size=global_size,
        local_size=local_size,
        global_offset=offset,
        threads=threads,
    )
    expected = _ids_after_model(global_size, local_size, offset)
    np.testing.assert_array_equal(ids.reshape(h, w, 8), expected)


# --------------------------------------------------------------------------------------
# Several kernels with barriers in one module.
# --------------------------------------------------------------------------------------


@THREADS
def test_several_kernels_with_barriers_in_one_module(threads):
    """Each kernel of the module is compiled (and runs) on its own."""
    program = mux.compile(expand(FIRST_LAST + ONLY_BARRIERS))
    n, local = 67, 8
    x = inputs(n)
    out = np.full(n, -1, np.int32)
    run(program.kernel("first_last"), x, out, n=n, local=local, threads=threads)
    expected = np.empty(n, np.int64)
    for group in groups(n, local):
        expected[group] = right(x[group])
    np.testing.assert_array_equal(out, expected)
    y = x.copy()
    program.kernel("only_barriers")(y, global_size=n, local_size=local, threads=threads)
    np.testing.assert_array_equal(y, x + 1)


# --------------------------------------------------------------------------------------
# Values the same for every work-item, kept once per work-group.
# --------------------------------------------------------------------------------------

# The divisions are not recomputed after the barriers: `scale` (uniform, stored in
# region 0 and read in regions 1 and 2) has one copy for the work-group; `mine`
# (each work-item's) one per work-item.
UNIFORM = """
func.func @uniform(%in: memref<?xi32, 1>, %out: memref<?xi32, 1>, %k: i32,
                   %local: memref<?xi32, 3>) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : index
  %two = arith.constant 2 : i32
  %scale = arith.divsi %k, %two : i32
  %gid = mux.get_global_id %d0
  %lid = mux.get_local_id %d0
  %size = mux.get_local_size %d0
  %x = memref.load %in[%gid] : memref<?xi32, 1>
  %mine = arith.divsi %x, %two : i32
  memref.store %x, %local[%lid] : memref<?xi32, 3>
  mux.work_group_barrier id(0) SEMANTICS
  %next = arith.addi %lid, %c1 : index
  %wrapped = arith.remui %next, %size : index
  %theirs = memref.load %local[%wrapped] : memref<?xi32, 3>
  %scaled = arith.muli %theirs, %scale : i32
  mux.work_group_barrier id(1) SEMANTICS
  %sum = arith.addi %scaled, %mine : i32
  %result = arith.addi %sum, %scale : i32
  memref.store %result, %out[%gid] : memref<?xi32, 1>
  func.return
}
"""


@THREADS
@pytest.mark.parametrize(("n", "local"), [(64, 16), (67, 8), (5, 5), (100, 1)])
def test_uniform_values_across_barriers(n, local, threads):
    x = inputs(n)
    out = np.full(n, -1, np.int32)
    run(
        kernel(UNIFORM, "uniform"),
        x,
        out,
        np.int32(9),
        n=n,
        local=local,
        threads=threads,
    )
    scale = 9 // 2
    expected = np.empty(n, np.int64)
    for group in groups(n, local):
        mine = np.trunc(x[group] / 2).astype(np.int64)
        expected[group] = right(x[group]) * scale + mine + scale
    np.testing.assert_array_equal(out, expected)
