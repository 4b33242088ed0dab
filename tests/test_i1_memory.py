"""Booleans in memory: an `i1` element is a byte holding 0 or 1 (numpy's `bool`), on
every path (`lowering.common.layout.memory_type`).

Each kernel runs at several `vecz_width`s (0: the cost model's choice, 1: scalar, 4,
8) and launch shapes (sizes that are not a multiple of the width, a last work-group
smaller than the others, local size 1, 2-D), and its output bytes are compared with
numpy's: a vectorised access to `vector<8xi1>` in LLVM's own layout packs eight
booleans into one byte (a store of [1,0,0,1,1,1,0,1] writes 185). Bytes past the
global size must stay as they were.
"""

import numpy as np
import pytest

import mux

WIDTHS = (0, 1, 4, 8)

SHAPES_1D = ((37, 8), (64, 16), (5, 1), (100, 20))
"""(global size, local size): a last group of 5, full groups, local size 1, groups
that are not a multiple of 8."""

GUARD = 7
"""Elements after the global size, which a kernel must not write."""

SENTINEL = 0xA5


def _bools(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.random(n) < 0.5


def _output(n: int) -> np.ndarray:
    """A bool array of `n` elements and `GUARD` more, all bytes `SENTINEL`."""
    return np.full(n + GUARD, SENTINEL, np.uint8).view(np.bool_)


def _check(out: np.ndarray, want: np.ndarray) -> None:
    """`out`'s first elements are `want`'s, as bytes 0 or 1; its guard is intact."""
    n = len(want)
    got = out.view(np.uint8)
    assert got[:n].tolist() == want.astype(np.uint8).tolist()
    assert got[n:].tolist() == [SENTINEL] * GUARD


def _groups(global_size: int, local_size: int) -> list[slice]:
    return [
        slice(start, min(start + local_size, global_size))
        for start in range(0, global_size, local_size)
    ]


# --------------------------------------------------------------------------------------
# Global memory.
# --------------------------------------------------------------------------------------

NOT = """
func.func @not(%a: memref<?xi1, 1>, %b: memref<?xi1, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %true = arith.constant true
  %g = mux.get_global_id %d0
  %v = memref.load %a[%g] : memref<?xi1, 1>
  %n = arith.xori %v, %true : i1
  memref.store %n, %b[%g] : memref<?xi1, 1>
  func.return
}
"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize(("global_size", "local_size"), SHAPES_1D)
def test_global_load_store(width: int, global_size: int, local_size: int):
    rng = np.random.default_rng(global_size)
    a = _bools(rng, global_size)
    b = _output(global_size)
    kernel = mux.compile(NOT, vecz_width=width).kernel("not")
    kernel(a, b, global_size=global_size, local_size=local_size)
    _check(b, ~a)


def test_the_issue_pattern():
    """The store of the issue: [1,0,0,1,1,1,0,1] is 8 bytes, not the byte 185."""
    a = np.array([0, 1, 1, 0, 0, 0, 1, 0] * 2, dtype=np.bool_)
    b = _output(16)
    mux.compile(NOT).kernel("not")(a, b, global_size=16, local_size=16)
    _check(b, ~a)


@pytest.mark.parametrize("width", WIDTHS)
def test_any_nonzero_byte_is_true(width: int):
    """A byte other than 0 or 1 in a bool array (a `view` of integer data) reads as
    true, as numpy reads it; what the kernel stores is 0 or 1."""
    raw = np.array([0, 1, 2, 255, 128, 0, 3, 1, 0, 64, 0, 0, 9, 1, 0, 200], np.uint8)
    b = _output(16)
    mux.compile(NOT, vecz_width=width).kernel("not")(
        raw.view(np.bool_), b, global_size=16, local_size=16
    )
    _check(b, raw == 0)


# A comparison stored, loaded back and used (a select), under the mask of a
# divergent `if` (masked vector loads and stores).
COMPARE = """
func.func @compare(%x: memref<?xf32, 1>, %flags: memref<?xi1, 1>,
                   %y: memref<?xf32, 1>, %n: index)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %g = mux.get_global_id %d0
  %in = arith.cmpi ult, %g, %n : index
  scf.if %in {
    %v = memref.load %x[%g] : memref<?xf32, 1>
    %p = arith.cmpf ogt, %v, %zero : f32
    memref.store %p, %flags[%g] : memref<?xi1, 1>
    %q = memref.load %flags[%g] : memref<?xi1, 1>
    %s = arith.select %q, %v, %zero : f32
    memref.store %s, %y[%g] : memref<?xf32, 1>
  }
  func.return
}
"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize(("global_size", "local_size"), SHAPES_1D)
def test_masked_compare_store_load(width: int, global_size: int, local_size: int):
    rng = np.random.default_rng(global_size)
    x = rng.standard_normal(global_size).astype(np.float32)
    n = global_size - 3  # the last lanes of the last packet are masked off
    flags = _output(global_size)
    y = np.full(global_size, -7.0, np.float32)
    kernel = mux.compile(COMPARE, vecz_width=width).kernel("compare")
    kernel(x, flags, y, n, global_size=global_size, local_size=local_size)
    want = np.concatenate([x[:n] > 0, np.full(3, True)])
    got = flags.view(np.uint8)
    assert got[:n].tolist() == want[:n].astype(np.uint8).tolist()
    assert got[n:].tolist() == [SENTINEL] * (3 + GUARD)
    assert np.array_equal(y[:n], np.where(x[:n] > 0, x[:n], 0))
    assert np.all(y[n:] == -7.0)


# 2-D: rows of 13 booleans (not a multiple of any width), each xor-ed with its row's
# flag (uniform along a row).
ROWS = """
func.func @rows(%a: memref<?x13xi1, 1>, %row_flags: memref<?xi1, 1>,
                %b: memref<?x13xi1, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %x = mux.get_global_id %d0
  %y = mux.get_global_id %d1
  %v = memref.load %a[%y, %x] : memref<?x13xi1, 1>
  %f = memref.load %row_flags[%y] : memref<?xi1, 1>
  %r = arith.xori %v, %f : i1
  memref.store %r, %b[%y, %x] : memref<?x13xi1, 1>
  func.return
}
"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("local_size", [(8, 2), (13, 1), (1, 1), (4, 4)])
def test_2d(width: int, local_size: tuple[int, int]):
    rng = np.random.default_rng(13)
    height = 6
    a = _bools(rng, height * 13).reshape(height, 13)
    flags = _bools(rng, height)
    b = _output(height * 13)
    kernel = mux.compile(ROWS, vecz_width=width).kernel("rows")
    kernel(a, flags, b[: height * 13], global_size=(13, height), local_size=local_size)
    _check(b, (a ^ flags[:, None]).ravel())


# --------------------------------------------------------------------------------------
# Local memory, live values across a barrier, DMA.
# --------------------------------------------------------------------------------------

# Each work-group reverses its booleans through local memory: a `LocalBuffer`
# argument, or a module-scope local array.
REVERSE_ARG = """
func.func @reverse(%a: memref<?xi1, 1>, %b: memref<?xi1, 1>, %s: memref<?xi1, 3>)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : index
  %g = mux.get_global_id %d0
  %l = mux.get_local_id %d0
  %n = mux.get_local_size %d0
  %v = memref.load %a[%g] : memref<?xi1, 1>
  memref.store %v, %s[%l] : memref<?xi1, 3>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %last = arith.subi %n, %c1 : index
  %m = arith.subi %last, %l : index
  %w = memref.load %s[%m] : memref<?xi1, 3>
  memref.store %w, %b[%g] : memref<?xi1, 1>
  func.return
}
"""
REVERSE_GLOBAL = """
"memref.global"() <{sym_name = "scratch", type = memref<64xi1, 3>, initial_value,
                    sym_visibility = "private"}> : () -> ()
func.func @reverse(%a: memref<?xi1, 1>, %b: memref<?xi1, 1>)
    attributes {mux.kernel = "entry-point"} {
  %s = memref.get_global @scratch : memref<64xi1, 3>
  %d0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : index
  %g = mux.get_global_id %d0
  %l = mux.get_local_id %d0
  %n = mux.get_local_size %d0
  %v = memref.load %a[%g] : memref<?xi1, 1>
  memref.store %v, %s[%l] : memref<64xi1, 3>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %last = arith.subi %n, %c1 : index
  %m = arith.subi %last, %l : index
  %w = memref.load %s[%m] : memref<64xi1, 3>
  memref.store %w, %b[%g] : memref<?xi1, 1>
  func.return
}
"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize(("global_size", "local_size"), SHAPES_1D)
@pytest.mark.parametrize("where", ["argument", "module"])
def test_local_memory(width: int, global_size: int, local_size: int, where: str):
    rng = np.random.default_rng(global_size)
    a = _bools(rng, global_size)
    b = _output(global_size)
    if where == "argument":
        kernel = mux.compile(REVERSE_ARG, vecz_width=width).kernel("reverse")
        kernel(a, b, mux.LocalBuffer(local_size), global_size=global_size,
               local_size=local_size)  # fmt: skip
    else:
        kernel = mux.compile(REVERSE_GLOBAL, vecz_width=width).kernel("reverse")
        kernel(a, b, global_size=global_size, local_size=local_size)
    groups = _groups(global_size, local_size)
    want = np.concatenate([a[group][::-1] for group in groups])
    _check(b, want)


# Booleans that cross a barrier in the live storage: one loaded per work-item (a
# vector in a vectorised kernel), one loaded from a uniform address (one copy per
# work-group, which the bound function of the region after the barrier reads).
LIVE = """
func.func @live(%a: memref<?xi1, 1>, %flags: memref<?xi1, 1>, %x: memref<?xf32, 1>,
                %b: memref<?xi1, 1>, %s: memref<?xf32, 3>)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %true = arith.constant true
  %g = mux.get_global_id %d0
  %l = mux.get_local_id %d0
  %p = memref.load %a[%g] : memref<?xi1, 1>
  %flag = memref.load %flags[%c0] : memref<?xi1, 1>
  %v = memref.load %x[%g] : memref<?xf32, 1>
  memref.store %v, %s[%l] : memref<?xf32, 3>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %w = memref.load %s[%l] : memref<?xf32, 3>
  %neg = arith.negf %w : f32
  %r = arith.select %p, %w, %neg : f32
  memref.store %r, %x[%g] : memref<?xf32, 1>
  %np = arith.xori %p, %true : i1
  memref.store %np, %b[%g] : memref<?xi1, 1>
  %few = arith.cmpi ult, %l, %c3 : index
  %act = arith.andi %few, %flag : i1
  scf.if %act {
    memref.store %p, %b[%g] : memref<?xi1, 1>
  }
  func.return
}
"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize(("global_size", "local_size"), SHAPES_1D)
@pytest.mark.parametrize("flag", [False, True])
def test_live_across_barrier(width: int, global_size: int, local_size: int, flag):
    rng = np.random.default_rng(global_size)
    a = _bools(rng, global_size)
    x = rng.standard_normal(global_size).astype(np.float32)
    want_x = np.where(a, x, -x)
    b = _output(global_size)
    kernel = mux.compile(LIVE, vecz_width=width).kernel("live")
    kernel(a, np.array([flag]), x, b, mux.LocalBuffer(4 * local_size),
           global_size=global_size, local_size=local_size)  # fmt: skip
    want = ~a
    if flag:
        for group in _groups(global_size, local_size):
            first = slice(group.start, min(group.start + 3, group.stop))
            want[first] = a[first]
    _check(b, want)
    assert np.array_equal(x, want_x)


# DMA of booleans: each work-group's tile into local memory, negated there, and back.
DMA = """
"memref.global"() <{sym_name = "tile", type = memref<64xi1, 3>, initial_value,
                    sym_visibility = "private"}> : () -> ()
func.func @dma(%input: memref<?xi1, 1>, %output: memref<?xi1, 1>)
    attributes {mux.kernel = "entry-point"} {
  %tile = memref.get_global @tile : memref<64xi1, 3>
  %d0 = arith.constant 0 : i32
  %true = arith.constant true
  %group = mux.get_group_id %d0
  %size = mux.get_enqueued_local_size %d0
  %n = mux.get_local_size %d0
  %x0 = arith.muli %group, %size : index
  %o = arith.index_cast %x0 : index to i64
  %in = builtin.unrealized_conversion_cast %input : memref<?xi1, 1> to !llvm.ptr<1>
  %src = llvm.getelementptr %in[%o] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
  %read = mux.dma_read_1d %tile, %src width(%n) : memref<64xi1, 3>, !llvm.ptr<1>
  mux.dma_wait %read
  %l = mux.get_local_id %d0
  %v = memref.load %tile[%l] : memref<64xi1, 3>
  %w = arith.xori %v, %true : i1
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  memref.store %w, %tile[%l] : memref<64xi1, 3>
  mux.work_group_barrier id(1) scope(work_group) semantics(acq_rel | work_group_memory)
  %out = builtin.unrealized_conversion_cast %output : memref<?xi1, 1> to !llvm.ptr<1>
  %dst = llvm.getelementptr %out[%o] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
  %write = mux.dma_write_1d %dst, %tile width(%n) : !llvm.ptr<1>, memref<64xi1, 3>
  mux.dma_wait %write
  func.return
}
"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize(("global_size", "local_size"), SHAPES_1D)
def test_dma(width: int, global_size: int, local_size: int):
    """DMA copies bytes: `width` booleans are `width` bytes, in both layouts the
    kernel's own loads and stores see."""
    rng = np.random.default_rng(global_size)
    a = _bools(rng, global_size)
    b = _output(global_size)
    kernel = mux.compile(DMA, vecz_width=width).kernel("dma")
    kernel(a, b, global_size=global_size, local_size=local_size)
    _check(b, ~a)


# Work-group collectives on booleans read from and written to bool arrays: their
# operands and results cross the barriers in the live storage (native) or in a
# module-scope accumulator (software).
COLLECTIVES = """
func.func @any_all(%a: memref<?xi1, 1>, %any: memref<?xi1, 1>, %all: memref<?xi1, 1>,
                   %xor: memref<?xi1, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %g = mux.get_global_id %d0
  %v = memref.load %a[%g] : memref<?xi1, 1>
  %r0 = mux.work_group_any id(0) %v
  memref.store %r0, %any[%g] : memref<?xi1, 1>
  %r1 = mux.work_group_all id(1) %v
  memref.store %r1, %all[%g] : memref<?xi1, 1>
  %r2 = mux.work_group_scan_inclusive logical_xor id(2) %v : i1
  memref.store %r2, %xor[%g] : memref<?xi1, 1>
  func.return
}
"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize(("global_size", "local_size"), SHAPES_1D)
@pytest.mark.parametrize("software", [False, True])
def test_collectives(width: int, global_size: int, local_size: int, software: bool):
    rng = np.random.default_rng(global_size)
    a = rng.random(global_size) < 0.9  # some groups all true
    outputs = [_output(global_size) for _ in range(3)]
    program = mux.compile(COLLECTIVES, vecz_width=width, software_wgc=software)
    program.kernel("any_all")(
        a, *outputs, global_size=global_size, local_size=local_size
    )
    groups = _groups(global_size, local_size)
    want_any = np.concatenate([np.full(g.stop - g.start, a[g].any()) for g in groups])
    want_all = np.concatenate([np.full(g.stop - g.start, a[g].all()) for g in groups])
    want_xor = np.concatenate([np.logical_xor.accumulate(a[g]) for g in groups])
    for out, want in zip(outputs, (want_any, want_all, want_xor), strict=True):
        _check(out, want)


# --------------------------------------------------------------------------------------
# Scalar arguments, atomics, and the vector memory ops themselves.
# --------------------------------------------------------------------------------------

SELECT = """
func.func @select(%a: memref<?xi1, 1>, %flag: i1, %b: memref<?xi1, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %g = mux.get_global_id %d0
  %v = memref.load %a[%g] : memref<?xi1, 1>
  %r = arith.xori %v, %flag : i1
  memref.store %r, %b[%g] : memref<?xi1, 1>
  func.return
}
"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("flag", [False, True])
def test_scalar_argument(width: int, flag: bool):
    """An `i1` argument is a byte of the packed arguments."""
    rng = np.random.default_rng(3)
    a = _bools(rng, 37)
    b = _output(37)
    kernel = mux.compile(SELECT, vecz_width=width).kernel("select")
    kernel(a, flag, b, global_size=37, local_size=8)
    _check(b, a ^ flag)


@pytest.mark.parametrize(
    "body",
    [
        "%r = atomic.rmw or monotonic %a[%g], %t : memref<?xi1, 1>",
        "atomic.store monotonic %t, %a[%g] : memref<?xi1, 1>",
        "%r = atomic.load monotonic %a[%g] : memref<?xi1, 1>",
        "%r, %ok = atomic.cmpxchg monotonic monotonic %a[%g], %t, %t : memref<?xi1, 1>",
    ],
)
def test_atomics_refuse_i1(body: str):
    """LLVM has no 1-bit atomics: the `atomic` ops refuse `i1` with a diagnostic
    (an atomic on a bool array would be an `i8` one on the byte)."""
    source = f"""
func.func @k(%a: memref<?xi1, 1>) attributes {{mux.kernel = "entry-point"}} {{
  %d0 = arith.constant 0 : i32
  %t = arith.constant true
  %g = mux.get_global_id %d0
  {body}
  func.return
}}"""
    with pytest.raises(mux.CompileError, match="8, 16, 32 or 64 bits, got i1"):
        mux.compile(source).kernel("k")(np.zeros(8, np.bool_), global_size=8)


def test_vectorised_ir_moves_bytes():
    """The vectorised kernel's LLVM IR loads and stores `<8 x i8>`, never `<8 x i1>`
    (a bitmask in memory)."""
    ir = mux.compile(NOT, vecz_width=8).kernel("not").compiled((16,)).llvm_ir
    assert "<8 x i8>" in ir
    assert "load <8 x i1>" not in ir
    assert "store <8 x i1>" not in ir
