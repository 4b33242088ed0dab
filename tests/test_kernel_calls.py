"""A kernel that calls another kernel (issue 13, point 3).

OpenCL C: "It is just a regular function call if a __kernel function is called by
another kernel function." Launching the caller runs the callee's body in each of the
caller's work-items, with the caller's work-item builtins; a barrier in the callee is
a barrier of the caller's work-group. Both kernels stay launchable on their own from
the same Program. Compared with numpy over 1-D and 2-D ranges, uniform and not.
"""

import numpy as np
import pytest

import mux
from lowering.pipelines import HostPipeline
from mux.backend.jit import compile_ir
from mux.backend.llvm_ir import translate
from mux.compiler import _with_hook, context

# `ids` writes, for each work-item, `2 * a[i]` plus its local ids and local size in
# x (i: the row-major global index); `twice` calls it and adds 1 to what it wrote.
# With sizes under 100, every field of the result can be read back.
IDS = """
func.func @ids(%a: memref<?xi64, 1>, %b: memref<?xi64, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %gx = mux.get_global_id %d0
  %gy = mux.get_global_id %d1
  %w = mux.get_global_size %d0
  %row = arith.muli %gy, %w : index
  %i = arith.addi %row, %gx : index
  %lx = mux.get_local_id %d0
  %ly = mux.get_local_id %d1
  %sx = mux.get_local_size %d0
  %c100 = arith.constant 100 : index
  %c10000 = arith.constant 10000 : index
  %c1000000 = arith.constant 1000000 : index
  %y100 = arith.muli %ly, %c100 : index
  %s10000 = arith.muli %sx, %c10000 : index
  %ids0 = arith.addi %lx, %y100 : index
  %ids1 = arith.addi %ids0, %s10000 : index
  %idsi = arith.index_cast %ids1 : index to i64
  %x = memref.load %a[%i] : memref<?xi64, 1>
  %c2 = arith.constant 2 : i64
  %m = arith.muli %x, %c2 : i64
  %million = arith.index_cast %c1000000 : index to i64
  %scaled = arith.muli %m, %million : i64
  %v = arith.addi %scaled, %idsi : i64
  memref.store %v, %b[%i] : memref<?xi64, 1>
  func.return
}
func.func @twice(%a: memref<?xi64, 1>, %b: memref<?xi64, 1>)
    attributes {mux.kernel = "entry-point"} {
  func.call @ids(%a, %b) : (memref<?xi64, 1>, memref<?xi64, 1>) -> ()
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %gx = mux.get_global_id %d0
  %gy = mux.get_global_id %d1
  %w = mux.get_global_size %d0
  %row = arith.muli %gy, %w : index
  %i = arith.addi %row, %gx : index
  %v = memref.load %b[%i] : memref<?xi64, 1>
  %one = arith.constant 1 : i64
  %v1 = arith.addi %v, %one : i64
  memref.store %v1, %b[%i] : memref<?xi64, 1>
  func.return
}
"""

# `mirror` writes each row of its work-group's tile of `a`, reversed in x, to `b`
# through local memory (a barrier between the writes and the reads). `round_trip`
# mirrors `a` into `b`, waits at its own barrier (the local buffer is reused), and
# mirrors `b` into `c`: `c == a`, `b` the mirrored tiles.
MIRROR = """
func.func @mirror(%a: memref<?xi64, 1>, %b: memref<?xi64, 1>, %tmp: memref<?xi64, 3>)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %gx = mux.get_global_id %d0
  %gy = mux.get_global_id %d1
  %w = mux.get_global_size %d0
  %row = arith.muli %gy, %w : index
  %i = arith.addi %row, %gx : index
  %lx = mux.get_local_id %d0
  %ly = mux.get_local_id %d1
  %sx = mux.get_local_size %d0
  %lrow = arith.muli %ly, %sx : index
  %l = arith.addi %lrow, %lx : index
  %x = memref.load %a[%i] : memref<?xi64, 1>
  memref.store %x, %tmp[%l] : memref<?xi64, 3>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %c1 = arith.constant 1 : index
  %last = arith.subi %sx, %c1 : index
  %rx = arith.subi %last, %lx : index
  %r = arith.addi %lrow, %rx : index
  %y = memref.load %tmp[%r] : memref<?xi64, 3>
  memref.store %y, %b[%i] : memref<?xi64, 1>
  func.return
}
func.func @round_trip(%a: memref<?xi64, 1>, %b: memref<?xi64, 1>,
                      %c: memref<?xi64, 1>, %tmp: memref<?xi64, 3>)
    attributes {mux.kernel = "entry-point"} {
  func.call @mirror(%a, %b, %tmp)
      : (memref<?xi64, 1>, memref<?xi64, 1>, memref<?xi64, 3>) -> ()
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  func.call @mirror(%b, %c, %tmp)
      : (memref<?xi64, 1>, memref<?xi64, 1>, memref<?xi64, 3>) -> ()
  func.return
}
"""

SHAPES = [
    ((64,), (16,)),
    ((37,), (8,)),  # non-uniform: the last group has 5 work-items
    ((16, 6), (8, 3)),
    ((13, 7), (4, 3)),  # non-uniform in x and y
]
SHAPE_IDS = ["1d", "1d-nonuniform", "2d", "2d-nonuniform"]


def _grid(global_size, local_size):
    """Local ids and local sizes in x of every work-item, as (rows, columns) arrays
    (1-D: one row)."""
    gx, lx_size = global_size[0], local_size[0]
    gy, ly_size = (*global_size, 1)[1], (*local_size, 1)[1]
    y, x = np.meshgrid(np.arange(gy), np.arange(gx), indexing="ij")
    sx = np.minimum(lx_size, gx - (x // lx_size) * lx_size)
    return x % lx_size, y % ly_size, sx


def _ids_expected(a, global_size, local_size):
    lx, ly, sx = _grid(global_size, local_size)
    return 2 * a * 1_000_000 + (lx + 100 * ly + 10_000 * sx).ravel()


def _mirror_expected(a, global_size, local_size):
    gx, lx_size = global_size[0], local_size[0]
    gy = (*global_size, 1)[1]
    rows = a.reshape(gy, gx)
    out = np.empty_like(rows)
    for start in range(0, gx, lx_size):
        tile = rows[:, start : start + lx_size]
        out[:, start : start + lx_size] = tile[:, ::-1]
    return out.ravel()


@pytest.fixture(scope="module")
def ids_program():
    return mux.compile(IDS)


@pytest.fixture(scope="module")
def mirror_program():
    return mux.compile(MIRROR)


@pytest.mark.parametrize(("global_size", "local_size"), SHAPES, ids=SHAPE_IDS)
def test_caller_runs_the_callee_per_work_item(ids_program, global_size, local_size):
    n = int(np.prod(global_size))
    a = np.arange(n, dtype=np.int64) * 3 + 1
    b = np.zeros(n, np.int64)
    ids_program.kernel("twice")(a, b, global_size=global_size, local_size=local_size)
    np.testing.assert_array_equal(b, _ids_expected(a, global_size, local_size) + 1)


@pytest.mark.parametrize(("global_size", "local_size"), SHAPES, ids=SHAPE_IDS)
def test_callee_still_launches_alone(ids_program, global_size, local_size):
    n = int(np.prod(global_size))
    a = np.arange(n, dtype=np.int64) * 3 + 1
    b = np.zeros(n, np.int64)
    ids_program.kernel("twice")(a, b, global_size=global_size, local_size=local_size)
    b[:] = 0
    ids_program.kernel("ids")(a, b, global_size=global_size, local_size=local_size)
    np.testing.assert_array_equal(b, _ids_expected(a, global_size, local_size))


@pytest.mark.parametrize(("global_size", "local_size"), SHAPES, ids=SHAPE_IDS)
@pytest.mark.parametrize("vecz_width", [0, 1], ids=["vecz", "scalar"])
def test_barrier_in_the_callee(global_size, local_size, vecz_width):
    program = mux.compile(MIRROR, vecz_width=vecz_width)
    n = int(np.prod(global_size))
    rng = np.random.default_rng(n)
    a = rng.integers(0, 1000, n, dtype=np.int64)
    b, c = np.zeros(n, np.int64), np.zeros(n, np.int64)
    scratch = mux.LocalBuffer(8 * int(np.prod(local_size)))
    program.kernel("round_trip")(
        a, b, c, scratch, global_size=global_size, local_size=local_size
    )
    np.testing.assert_array_equal(b, _mirror_expected(a, global_size, local_size))
    np.testing.assert_array_equal(c, a)
    b[:] = 0
    program.kernel("mirror")(
        a, b, scratch, global_size=global_size, local_size=local_size
    )
    np.testing.assert_array_equal(b, _mirror_expected(a, global_size, local_size))


def test_callee_required_size_is_its_own_launches_only():
    """The callee's `reqd_work_group_size` constrains its own launches; called, it
    runs in the caller's work-groups and sees their size."""
    source = IDS.replace(
        'attributes {mux.kernel = "entry-point"} {\n  %d0',
        'attributes {mux.kernel = "entry-point", '
        "mux.reqd_work_group_size = array<i32: 4, 1, 1>} {\n  %d0",
        1,
    ).replace(
        "@twice(%a: memref<?xi64, 1>, %b: memref<?xi64, 1>)\n    attributes "
        '{mux.kernel = "entry-point"}',
        "@twice(%a: memref<?xi64, 1>, %b: memref<?xi64, 1>)\n    attributes "
        '{mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 8, 1, 1>}',
    )
    assert source.count("reqd_work_group_size") == 2
    program = mux.compile(source)
    a = np.arange(32, dtype=np.int64)
    b = np.zeros(32, np.int64)
    program.kernel("twice")(a, b, global_size=32)
    np.testing.assert_array_equal(b, _ids_expected(a, (32,), (8,)) + 1)
    program.kernel("ids")(a, b, global_size=32)
    np.testing.assert_array_equal(b, _ids_expected(a, (32,), (4,)))
    with pytest.raises(mux.LaunchError, match="requires a work-group size"):
        program.kernel("ids")(a, b, global_size=32, local_size=8)


# `sums` writes its work-group's sum plus its sub-group's: collectives, scheduled
# like barriers, in a kernel that `outer` calls.
SUMS = """
func.func @sums(%x: memref<?xi32, 1>, %y: memref<?xi32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %g = mux.get_global_linear_id
  %v = memref.load %x[%g] : memref<?xi32, 1>
  %r = mux.work_group_reduce add id(0) %v : i32
  %s = mux.sub_group_reduce add %v : i32
  %t = arith.addi %r, %s : i32
  memref.store %t, %y[%g] : memref<?xi32, 1>
  func.return
}
func.func @outer(%x: memref<?xi32, 1>, %y: memref<?xi32, 1>)
    attributes {mux.kernel = "entry-point"} {
  func.call @sums(%x, %y) : (memref<?xi32, 1>, memref<?xi32, 1>) -> ()
  func.return
}
"""


@pytest.mark.parametrize(
    "options",
    [{}, {"software_wgc": True}, {"sub_group_size": 4}, {"vecz_width": 1}],
    ids=["native", "software-wgc", "sub-groups-of-4", "scalar"],
)
def test_collectives_in_the_callee(options):
    n, local = 22, 8  # the last work-group has 6 work-items
    x = np.arange(n, dtype=np.int32) * 5 - 7
    size = options.get("sub_group_size", 1)
    expected = np.empty(n, np.int32)
    for start in range(0, n, local):
        group = x[start : start + local]
        for i in range(len(group)):
            sub = group[i // size * size : (i // size + 1) * size]
            expected[start + i] = group.sum() + sub.sum()
    program = mux.compile(SUMS, **options)
    for name in ("outer", "sums"):
        y = np.zeros(n, np.int32)
        program.kernel(name)(x, y, global_size=n, local_size=local)
        np.testing.assert_array_equal(y, expected, err_msg=name)


RECURSIVE = """
func.func @helper(%n: index) {
  func.call @count(%n) : (index) -> ()
  func.return
}
func.func @count(%n: index) attributes {mux.kernel = "entry-point"} {
  %c0 = arith.constant 0 : index
  %more = arith.cmpi ugt, %n, %c0 : index
  scf.if %more {
    %c1 = arith.constant 1 : index
    %m = arith.subi %n, %c1 : index
    func.call @CALLEE(%m) : (index) -> ()
  }
  func.return
}
func.func @caller(%n: index) attributes {mux.kernel = "entry-point"} {
  func.call @count(%n) : (index) -> ()
  func.return
}
"""


@pytest.mark.parametrize(
    ("callee", "cycle"),
    [("count", "'count' -> 'count'"), ("helper", "'count' -> 'helper' -> 'count'")],
    ids=["itself", "through-a-helper"],
)
def test_recursive_kernel_is_a_compile_error(callee, cycle):
    # mux.compile lowers every kernel (`count` and `caller`, which calls it), so
    # the cycle is found there, before any launch.
    with pytest.raises(mux.CompileError, match=f"recursion.*{cycle}"):
        mux.compile(RECURSIVE.replace("CALLEE", callee))


def _whole_module(program, source: str) -> None:
    """Makes each kernel of `program` run its entry hook out of the whole-module
    pipeline (`mux-opt -p host`: every kernel an entry point), JIT-compiled once."""
    module = mux.compiler.parse(source)
    HostPipeline().apply(context(), module)
    jit = compile_ir(translate(module))
    for name in program.kernels:
        compiled = _with_hook(jit, f"{name}.host-entry-hook")
        program.kernel(name).compiled = lambda local_size=None, c=compiled: c


@pytest.mark.parametrize(("global_size", "local_size"), SHAPES, ids=SHAPE_IDS)
def test_whole_module_pipeline(global_size, local_size):
    """Without a kernel to single out, every kernel is an entry point: the caller's
    hook runs the callee's body, barriers included, and the callee has its own."""
    n = int(np.prod(global_size))
    rng = np.random.default_rng(n)
    a = rng.integers(0, 1000, n, dtype=np.int64)
    b, c = np.zeros(n, np.int64), np.zeros(n, np.int64)
    sizes = {"global_size": global_size, "local_size": local_size}

    program = mux.compile(IDS)
    _whole_module(program, IDS)
    program.kernel("twice")(a, b, **sizes)
    np.testing.assert_array_equal(b, _ids_expected(a, global_size, local_size) + 1)
    program.kernel("ids")(a, b, **sizes)
    np.testing.assert_array_equal(b, _ids_expected(a, global_size, local_size))

    program = mux.compile(MIRROR)
    _whole_module(program, MIRROR)
    scratch = mux.LocalBuffer(8 * int(np.prod(local_size)))
    program.kernel("round_trip")(a, b, c, scratch, **sizes)
    np.testing.assert_array_equal(b, _mirror_expected(a, global_size, local_size))
    np.testing.assert_array_equal(c, a)
    b[:] = 0
    program.kernel("mirror")(a, b, scratch, **sizes)
    np.testing.assert_array_equal(b, _mirror_expected(a, global_size, local_size))
