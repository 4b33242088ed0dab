"""`run-vecz`: kernels vectorised across work-items (`vecz_width=8`: whenever
possible, whatever the cost model would choose) give numpy's results, over 1-, 2-
and 3-D ranges, offsets, local sizes that are and are not multiples of the width
(the scalar kernel runs the rest), with divergent control flow, loops, contiguous,
strided and uniform accesses; and the kernels it cannot vectorise say why."""

import numpy as np
import pytest
from xdsl.dialects import func

import mux
from dialects import attributes as mux_attrs
from lowering.pipelines import HostPipeline
from mux.compiler import context, parse_cached

# out[i] = (x odd ? x / 3 + in[2x]: -in[x]) + sum(k for k < n), x = get_global_id 0,
# for x < limit: a varying `if` with results and a division under its mask, a
# strided (lane by lane) load, a contiguous masked load, a loop whose accumulator
# differs between lanes, a contiguous masked store.
MIXED = """
func.func @mixed(%in: memref<?xi32, 1>, %out: memref<?xi32, 1>, %n: index,
                 %limit: index) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %three = arith.constant 3 : i32
  %x = mux.get_global_id %d0
  %inside = arith.cmpi ult, %x, %limit : index
  scf.if %inside {
    %odd = arith.remui %x, %c2 : index
    %is_odd = arith.cmpi eq, %odd, %c1 : index
    %v = scf.if %is_odd -> (i32) {
      %xi = arith.index_cast %x : index to i32
      %q = arith.divui %xi, %three : i32
      %x2 = arith.muli %x, %c2 : index
      %w = memref.load %in[%x2] : memref<?xi32, 1>
      %r = arith.addi %q, %w : i32
      scf.yield %r : i32
    } else {
      %w = memref.load %in[%x] : memref<?xi32, 1>
      %zero = arith.constant 0 : i32
      %r = arith.subi %zero, %w : i32
      scf.yield %r : i32
    }
    %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %v) -> (i32) {
      %ki = arith.index_cast %k : index to i32
      %next = arith.addi %acc, %ki : i32
      scf.yield %next : i32
    }
    memref.store %s, %out[%x] : memref<?xi32, 1>
  }
  func.return
}
"""


def mixed_expected(data: np.ndarray, n: int, limit: int, size: int) -> np.ndarray:
    out = np.full(size, -7, np.int32)
    x = np.arange(min(size, limit))
    odd = x % 2 == 1
    values = np.where(odd, x // 3 + data[(2 * x) % len(data)], -data[x])
    out[: len(x)] = values + n * (n - 1) // 2
    return out


def vectorised_for(
    source: str, kernel: str, local_sizes, vecz_width: int = 0
) -> func.FuncOp:
    """The vectorised function of `kernel` in `source`, through the host pipeline
    (without the conversion to LLVM) for a launch of `local_sizes`."""
    module = parse_cached(source, f"<{kernel}>").clone()
    pipeline = HostPipeline(
        kernel=kernel, local_sizes=local_sizes, vecz_width=vecz_width, to_llvm=False
    )
    pipeline.apply(context(), module)
    (vectorised,) = [
        f
        for f in module.ops
        if isinstance(f, func.FuncOp) and mux_attrs.VECZ_DERIVED.get(f) is not None
    ]
    return vectorised


@pytest.fixture(scope="module")
def mixed():
    return mux.compile(MIXED, vecz_width=8).kernel("mixed")


@pytest.mark.parametrize(
    ("size", "local", "limit"),
    [(1, 1, 1), (8, 8, 8), (37, 16, 30), (64, 24, 64), (100, 5, 77), (256, 64, 200)],
)
def test_mixed_control_flow(mixed, size, local, limit):
    data = np.arange(2 * size, dtype=np.int32) * 5 - 3
    out = np.full(size, -7, np.int32)
    mixed(data, out, 4, limit, global_size=size, local_size=local)
    np.testing.assert_array_equal(out, mixed_expected(data, 4, limit, size))


def test_mixed_is_vectorised_and_agrees_with_the_scalar_kernel():
    module = parse_cached(MIXED, "<mixed>").clone()
    HostPipeline(kernel="mixed", to_llvm=False).apply(context(), module)
    names = [f.sym_name.data for f in module.ops if isinstance(f, func.FuncOp)]
    assert "__vecz_v8_mixed" in names
    data = np.arange(400, dtype=np.int32) * 7 - 100
    results = []
    for width in (1, 4, 8, 16):
        out = np.full(200, -7, np.int32)
        kernel = mux.compile(MIXED, vecz_width=width).kernel("mixed")
        kernel(data, out, 3, 190, global_size=200, local_size=40)
        results.append(out)
    for out in results:
        np.testing.assert_array_equal(out, mixed_expected(data, 3, 190, 200))


# 3-D: out[z][y][x] = in[z][y][x] * (y + 1) + z, a 3-D memref indexed by the global
# ids (rows of 32, planes of 4 rows); dimension 0 is the only one vectorised (y and
# z are uniform in a packet).
CUBE = """
func.func @cube(%in: memref<?x4x32xf32, 1>, %out: memref<?x4x32xf32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %d2 = arith.constant 2 : i32
  %c1 = arith.constant 1 : index
  %x = mux.get_global_id %d0
  %y = mux.get_global_id %d1
  %z = mux.get_global_id %d2
  %v = memref.load %in[%z, %y, %x] : memref<?x4x32xf32, 1>
  %y1 = arith.addi %y, %c1 : index
  %yi = arith.index_cast %y1 : index to i32
  %yf = arith.sitofp %yi : i32 to f32
  %zi = arith.index_cast %z : index to i32
  %zf = arith.sitofp %zi : i32 to f32
  %m = arith.mulf %v, %yf : f32
  %r = arith.addf %m, %zf : f32
  memref.store %r, %out[%z, %y, %x] : memref<?x4x32xf32, 1>
  func.return
}
"""


@pytest.mark.parametrize(
    ("size", "local"),
    [((19, 4, 3), (9, 2, 1)), ((32, 4, 2), (16, 2, 2)), ((13, 3, 4), None)],
)
def test_cube_3d(size, local):
    kernel = mux.compile(CUBE, vecz_width=8).kernel("cube")
    x, y, z = size
    data = np.random.default_rng(1).random((z, 4, 32), np.float32)
    out = np.zeros((z, 4, 32), np.float32)
    kernel(data, out, global_size=size, local_size=local)
    ys = np.arange(y, dtype=np.float32)[None, :, None] + 1
    zs = np.arange(z, dtype=np.float32)[:, None, None]
    expected = np.zeros_like(out)
    expected[:, :y, :x] = data[:, :y, :x] * ys + zs
    np.testing.assert_array_equal(out, expected)


# With a global offset: the ids start at the offset, and so do the packets.
def test_offset_and_uniform_store_under_mask():
    source = """
    func.func @k(%out: memref<?xi64, 1>, %flag: memref<?xi64, 1>, %n: index)
        attributes {mux.kernel = "entry-point"} {
      %d0 = arith.constant 0 : i32
      %x = mux.get_global_id %d0
      %l = mux.get_local_id %d0
      %big = arith.cmpi uge, %x, %n : index
      scf.if %big {
        %c0 = arith.constant 0 : index
        %one = arith.constant 1 : i64
        memref.store %one, %flag[%c0] : memref<?xi64, 1>
      }
      %xi = arith.index_cast %x : index to i64
      %li = arith.index_cast %l : index to i64
      %s = arith.muli %xi, %li : i64
      memref.store %s, %out[%x] : memref<?xi64, 1>
      func.return
    }
    """
    kernel = mux.compile(source, vecz_width=8).kernel("k")
    out = np.zeros(120, np.int64)
    flag = np.zeros(1, np.int64)
    kernel(out, flag, 200, global_size=100, local_size=20, global_offset=20)
    x = np.arange(20, 120)
    np.testing.assert_array_equal(out[20:], x * (x % 20))
    assert flag[0] == 0
    kernel(out, flag, 110, global_size=100, local_size=20, global_offset=20)
    assert flag[0] == 1


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        (
            """
            func.func @k(%a: memref<?xindex, 1>)
                attributes {mux.kernel = "entry-point"} {
              %d0 = arith.constant 0 : i32
              %x = mux.get_global_id %d0
              %c1 = arith.constant 1 : index
              %r = scf.while (%i = %x) : (index) -> index {
                %more = arith.cmpi ult, %i, %x : index
                scf.condition(%more) %i : index
              } do {
              ^bb0(%j: index):
                %next = arith.addi %j, %c1 : index
                scf.yield %next : index
              }
              memref.store %r, %a[%x] : memref<?xindex, 1>
              func.return
            }""",
            "an scf.while whose condition differs between lanes",
        ),
        (
            """
            func.func @k(%a: memref<?xi32, 1>) attributes {mux.kernel = "entry-point",
                mux.work_item_order = #mux<work_item_order yxz>} {
              func.return
            }""",
            "the work-item order does not loop dimension 0 innermost",
        ),
        (
            """
            func.func @k(%a: memref<?xi32, 1>) attributes {mux.kernel = "entry-point",
                mux.reqd_work_group_size = array<i32: 1, 1, 1>} {
              func.return
            }""",
            "the required work-group size 1 in dimension 0 is smaller than the width",
        ),
        (
            """
            func.func @k(%a: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
              %d0 = arith.constant 0 : i32
              %x = mux.get_global_id %d0
              %v = memref.load %a[%x] : memref<?xi32, 1>
              %f = arith.constant false
              %n = llvm.call_intrinsic "llvm.ctlz.i32"(%v, %f) : (i32, i1) -> i32
              memref.store %n, %a[%x] : memref<?xi32, 1>
              func.return
            }""",
            "a call of the LLVM intrinsic llvm.ctlz.i32",
        ),
    ],
)
def test_not_vectorised_says_why(source, reason):
    module = parse_cached(source, "<k>").clone()
    HostPipeline(kernel="k", to_llvm=False).apply(context(), module)
    functions = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
    kernel = functions["k"]
    assert mux_attrs.VECZ_FAIL.get(kernel)[1] == reason


# Clamped neighbours: in[max(x - 3, lo)] + 10 * in[min(x + 3, hi)], the clamps taking
# effect in the middle of a packet, signed and unsigned, under a divergent `if`.
CLAMPS = """
func.func @clamps(%in: memref<?xi32, 1>, %out: memref<?xi32, 1>, %n: index,
                  %lo: index, %hi: index) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : index
  %ten = arith.constant 10 : i32
  %x = mux.get_global_id %d0
  %inside = arith.cmpi ult, %x, %n : index
  scf.if %inside {
    %xm = arith.subi %x, %c3 : index
    %left = arith.maxsi %xm, %lo : index
    %xp = arith.addi %x, %c3 : index
    %right = arith.minui %xp, %hi : index
    %l = memref.load %in[%left] : memref<?xi32, 1>
    %r = memref.load %in[%right] : memref<?xi32, 1>
    %r10 = arith.muli %r, %ten : i32
    %sum = arith.addi %l, %r10 : i32
    memref.store %sum, %out[%x] : memref<?xi32, 1>
  }
  func.return
}
"""


@pytest.mark.parametrize(
    ("size", "local", "n", "lo", "hi"),
    [(64, 16, 64, 0, 63), (61, 16, 59, 5, 50), (40, 8, 40, 11, 20), (9, 9, 9, 0, 8)],
)
def test_clamped_loads(size, local, n, lo, hi):
    kernel = mux.compile(CLAMPS, vecz_width=8).kernel("clamps")
    data = (np.arange(size, dtype=np.int32) * 7) % 13
    out = np.full(size, -1, np.int32)
    kernel(data, out, n, lo, hi, global_size=size, local_size=local)
    x = np.arange(n)
    expected = out.copy()
    expected[:n] = data[np.maximum(x - 3, lo)] + 10 * data[np.minimum(x + 3, hi)]
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize(
    ("reqd", "chains", "width"),
    [(None, False, 8), (None, True, 8), (256, False, 8), (256, True, 16), (4, True, 4)],
)
def test_auto_width(reqd, chains, width):
    """The cost model: 8 lanes, 16 for a loop carrying a value that differs between
    lanes (two independent chains), never more than the required size in x."""
    attrs = (
        "" if reqd is None else f", mux.reqd_work_group_size = array<i32: {reqd}, 1, 1>"
    )
    init = "%x" if chains else "%c0"
    source = f"""
    func.func @k(%a: memref<?xi64, 1>, %n: index)
        attributes {{mux.kernel = "entry-point"{attrs}}} {{
      %d0 = arith.constant 0 : i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %x = mux.get_global_id %d0
      %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = {init}) -> (index) {{
        %next = arith.addi %acc, %i : index
        scf.yield %next : index
      }}
      %s64 = arith.index_cast %s : index to i64
      memref.store %s64, %a[%x] : memref<?xi64, 1>
      func.return
    }}"""
    module = parse_cached(source, "<k>").clone()
    HostPipeline(kernel="k", to_llvm=False).apply(context(), module)
    functions = {f.sym_name.data for f in module.ops if isinstance(f, func.FuncOp)}
    assert f"__vecz_v{width}_k" in functions


def test_index_elements():
    """Memrefs of `index` are accessed lane by lane (vector lanes of index are i64)."""
    source = """
    func.func @k(%a: memref<?xindex, 1>, %b: memref<?xindex, 1>)
        attributes {mux.kernel = "entry-point"} {
      %d0 = arith.constant 0 : i32
      %x = mux.get_global_id %d0
      %v = memref.load %a[%x] : memref<?xindex, 1>
      %w = arith.addi %v, %x : index
      memref.store %w, %b[%x] : memref<?xindex, 1>
      func.return
    }"""
    kernel = mux.compile(source, vecz_width=8).kernel("k")
    a = np.arange(50, dtype=np.int64) * 3
    b = np.zeros(50, np.int64)
    kernel(a, b, global_size=50, local_size=25)
    np.testing.assert_array_equal(b, a + np.arange(50))


# A loop whose bounds differ between lanes (a triangle: work-item x sums in[x..2x)
# by steps of s, under a divergent `if`), carrying a value, with a divergent `if`
# inside: lanes leave the loop at different iterations.
TRIANGLE = """
func.func @triangle(%in: memref<?xi32, 1>, %out: memref<?xi32, 1>, %s: index,
                    %limit: index) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0 : i32
  %x = mux.get_global_id %d0
  %inside = arith.cmpi ult, %x, %limit : index
  scf.if %inside {
    %end = arith.muli %x, %c2 : index
    %sum = scf.for %i = %x to %end step %s iter_args(%acc = %zero) -> (i32) {
      %v = memref.load %in[%i] : memref<?xi32, 1>
      %odd = arith.remui %i, %c2 : index
      %c1 = arith.constant 1 : index
      %is_odd = arith.cmpi eq, %odd, %c1 : index
      %w = scf.if %is_odd -> (i32) {
        %twice = arith.addi %v, %v : i32
        scf.yield %twice : i32
      } else {
        scf.yield %v : i32
      }
      %next = arith.addi %acc, %w : i32
      scf.yield %next : i32
    }
    memref.store %sum, %out[%x] : memref<?xi32, 1>
  }
  func.return
}
"""


@pytest.mark.parametrize(
    ("size", "local", "step", "limit"),
    [(40, 8, 1, 40), (57, 19, 3, 50), (64, 64, 2, 33)],
)
def test_divergent_loop(size, local, step, limit):
    kernel = mux.compile(TRIANGLE, vecz_width=8).kernel("triangle")
    data = np.arange(2 * size, dtype=np.int32) % 17
    out = np.full(size, -1, np.int32)
    kernel(data, out, step, limit, global_size=size, local_size=local)
    expected = out.copy()
    for x in range(min(size, limit)):
        i = np.arange(x, 2 * x, step)
        expected[x] = np.sum(np.where(i % 2 == 1, 2 * data[i], data[i]))
    np.testing.assert_array_equal(out, expected)


# Many ops on lanes that differ, each result stored: the vectorised kernel must give
# the scalar kernel's results bit for bit (same operations, same order, per lane).
MANY_OPS = """
func.func @ops(%f: memref<?xf32, 1>, %d: memref<?xf64, 1>, %i: memref<?xi32, 1>,
               %s: memref<?xi16, 1>, %of: memref<?xf32, 1>, %od: memref<?xf64, 1>,
               %oi: memref<?xi32, 1>, %os: memref<?xi16, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %x = mux.get_global_id %d0
  %a = memref.load %f[%x] : memref<?xf32, 1>
  %b = memref.load %d[%x] : memref<?xf64, 1>
  %n = memref.load %i[%x] : memref<?xi32, 1>
  %h = memref.load %s[%x] : memref<?xi16, 1>
  // floats: math, comparisons, selects, conversions
  %sq = math.sqrt %a : f32
  %ex = math.exp %a : f32
  %ab = math.absf %a : f32
  %fl = math.floor %b : f64
  %big = arith.cmpf ogt, %a, %ab : f32
  %pick = arith.select %big, %sq, %ex : f32
  %ext = arith.extf %pick : f32 to f64
  %mix = arith.addf %ext, %fl : f64
  %tr = arith.truncf %mix : f64 to f32
  %neg = arith.negf %tr : f32
  %mn = arith.minimumf %neg, %a : f32
  %mx = arith.maxnumf %mn, %ab : f32
  %toi = arith.fptosi %mx : f32 to i32
  %tou = arith.fptoui %ab : f32 to i32
  // integers: arithmetic, shifts, bit ops, comparisons, extensions
  %three = arith.constant 3 : i32
  %m = arith.muli %n, %three : i32
  %q = arith.divsi %m, %three : i32
  %r = arith.remsi %n, %three : i32
  %sh = arith.shli %n, %three : i32
  %shr = arith.shrsi %n, %three : i32
  %xo = arith.xori %sh, %shr : i32
  %an = arith.andi %xo, %m : i32
  %lt = arith.cmpi slt, %n, %r : i32
  %sel = arith.select %lt, %an, %q : i32
  %mi = arith.minsi %sel, %toi : i32
  %ma = arith.maxui %mi, %tou : i32
  %hx = arith.extsi %h : i16 to i32
  %sum = arith.addi %ma, %hx : i32
  %tr16 = arith.trunci %sum : i32 to i16
  %back = arith.sitofp %sum : i32 to f32
  %fin = arith.addf %back, %mx : f32
  %dd = arith.uitofp %tou : i32 to f64
  %fd = arith.mulf %dd, %b : f64
  memref.store %fin, %of[%x] : memref<?xf32, 1>
  memref.store %fd, %od[%x] : memref<?xf64, 1>
  memref.store %sum, %oi[%x] : memref<?xi32, 1>
  memref.store %tr16, %os[%x] : memref<?xi16, 1>
  func.return
}
"""


def test_many_ops_agree_with_the_scalar_kernel():
    n = 203
    rng = np.random.default_rng(5)
    f = (rng.standard_normal(n) * 4).astype(np.float32)
    d = rng.standard_normal(n) * 100
    i = rng.integers(-1000, 1000, n).astype(np.int32)
    s = rng.integers(-300, 300, n).astype(np.int16)
    outputs = []
    for width in (1, 8, 16):
        out = [np.zeros(n, np.float32), np.zeros(n, np.float64), np.zeros(n, np.int32)]
        out.append(np.zeros(n, np.int16))
        kernel = mux.compile(MANY_OPS, vecz_width=width).kernel("ops")
        kernel(f, d, i, s, *out, global_size=n, local_size=29 if width == 1 else 58)
        outputs.append(out)
    for vectorised in outputs[1:]:
        for scalar, vector_result in zip(outputs[0], vectorised, strict=True):
            np.testing.assert_array_equal(vector_result, scalar)
    module = parse_cached(MANY_OPS, "<ops>").clone()
    HostPipeline(kernel="ops", vecz_width=8, to_llvm=False).apply(context(), module)
    names = {f.sym_name.data for f in module.ops if isinstance(f, func.FuncOp)}
    assert "__vecz_v8_ops" in names


# Each work-group copies the whole of `in` to its own part of `out`, each work-item
# taking every (work-group size)-th element from its linear local id, as tiled
# kernels load their tiles: a loop from a linear lower bound. With the local size
# known (a launch that divides the global size), its induction variable is linear
# and its first lane's value a multiple of the width: the quotient and remainder by
# 16 are then uniform and linear, and every access is to a whole vector.
# out[g * n + e] = in[e] + 1000 * (e / 16) + e % 16.
SPREAD = """
func.func @spread(%in: memref<?xi32, 1>, %out: memref<?xi32, 1>, %n: index)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : index
  %c1000 = arith.constant 1000 : i32
  %lx = mux.get_local_id %d0
  %ly = mux.get_local_id %d1
  %sx = mux.get_local_size %d0
  %sy = mux.get_local_size %d1
  %g = mux.get_group_id %d0
  %row = arith.muli %ly, %sx : index
  %l = arith.addi %row, %lx : index
  %count = arith.muli %sx, %sy : index
  %first = arith.muli %g, %n : index
  scf.for %e = %l to %n step %count {
    %i = arith.divui %e, %c16 : index
    %j = arith.remui %e, %c16 : index
    %back = arith.muli %i, %c16 : index
    %k = arith.addi %back, %j : index
    %v = memref.load %in[%k] : memref<?xi32, 1>
    %ii = arith.index_cast %i : index to i32
    %ji = arith.index_cast %j : index to i32
    %hi = arith.muli %ii, %c1000 : i32
    %w = arith.addi %v, %hi : i32
    %x = arith.addi %w, %ji : i32
    %at = arith.addi %first, %e : index
    memref.store %x, %out[%at] : memref<?xi32, 1>
  }
  func.return
}
"""


@pytest.mark.parametrize("width", [8, 16])
@pytest.mark.parametrize(
    ("groups", "local", "n"),
    [
        (3, (16, 2), 100),  # 32 work-items, n not a multiple of them
        (2, (8, 3), 50),
        (2, (24, 1), 70),  # x not a multiple of 16: packets of 16 and a scalar tail
        (2, (12, 2), 64),  # x not a multiple of 8 either
        (1, (16, 1), 5),  # fewer elements than work-items
    ],
)
def test_loop_from_a_linear_bound(width, groups, local, n):
    data = np.arange(n, dtype=np.int32) * 3 - 7
    e = np.arange(n)
    expected = (data + 1000 * (e // 16) + e % 16).astype(np.int32)
    kernel = mux.compile(SPREAD, vecz_width=width).kernel("spread")
    # a launch of whole work-groups (compiled for that local size) and one whose
    # last work-group is narrower (compiled for any local size)
    for groups_run, size_x in (
        (groups, groups * local[0]),
        (groups + 1, groups * local[0] + 1),
    ):
        out = np.full(groups_run * n + 3, -1, np.int32)
        kernel(data, out, n, global_size=(size_x, local[1]), local_size=local)
        np.testing.assert_array_equal(
            out[: groups_run * n], np.tile(expected, groups_run)
        )
        np.testing.assert_array_equal(out[groups_run * n :], -1)


def test_loop_from_a_linear_bound_accesses_whole_vectors():
    vectorised = vectorised_for(SPREAD, "spread", (16, 2))
    assert vectorised.sym_name.data == "__vecz_v8_spread"
    names = [op.name for op in vectorised.walk()]
    assert names.count("vector.maskedload") == 1
    assert names.count("vector.maskedstore") == 1
    assert "memref.load" not in names and "memref.store" not in names
    assert "arith.divui" in names  # lane 0's quotient, once per iteration


# SPREAD's loop under a condition that differs between lanes, carrying a sum: the
# work-items with lx % 3 == 1 skip it. An iteration runs the body only if a lane is
# active (lane 0, whose values the loop counts, is not always one).
# out[g * n + e] as in SPREAD for the elements of the work-items that run the loop,
# sums[g * count + l] = the sum of their in[e].
GUARDED_SPREAD = """
func.func @guarded_spread(%in: memref<?xi32, 1>, %out: memref<?xi32, 1>,
                          %sums: memref<?xi32, 1>, %n: index)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %c1000 = arith.constant 1000 : i32
  %zero = arith.constant 0 : i32
  %lx = mux.get_local_id %d0
  %ly = mux.get_local_id %d1
  %sx = mux.get_local_size %d0
  %sy = mux.get_local_size %d1
  %g = mux.get_group_id %d0
  %row = arith.muli %ly, %sx : index
  %l = arith.addi %row, %lx : index
  %count = arith.muli %sx, %sy : index
  %first = arith.muli %g, %n : index
  %third = arith.remui %lx, %c3 : index
  %runs = arith.cmpi ne, %third, %c1 : index
  scf.if %runs {
    %total = scf.for %e = %l to %n step %count iter_args(%acc = %zero) -> (i32) {
      %i = arith.divui %e, %c16 : index
      %j = arith.remui %e, %c16 : index
      %back = arith.muli %i, %c16 : index
      %k = arith.addi %back, %j : index
      %v = memref.load %in[%k] : memref<?xi32, 1>
      %ii = arith.index_cast %i : index to i32
      %ji = arith.index_cast %j : index to i32
      %hi = arith.muli %ii, %c1000 : i32
      %w = arith.addi %v, %hi : i32
      %x = arith.addi %w, %ji : i32
      %at = arith.addi %first, %e : index
      memref.store %x, %out[%at] : memref<?xi32, 1>
      %next = arith.addi %acc, %v : i32
      scf.yield %next : i32
    }
    %groups_before = arith.muli %g, %count : index
    %slot = arith.addi %groups_before, %l : index
    memref.store %total, %sums[%slot] : memref<?xi32, 1>
  }
  func.return
}
"""


@pytest.mark.parametrize("width", [8, 16])
@pytest.mark.parametrize(
    ("groups", "local", "n"), [(3, (16, 2), 100), (2, (8, 3), 50), (2, (24, 1), 70)]
)
def test_loop_from_a_linear_bound_under_a_mask(width, groups, local, n):
    data = np.arange(n, dtype=np.int32) * 3 - 7
    count = local[0] * local[1]
    e = np.arange(n)
    l_of_e = e % count
    runs = (l_of_e % local[0]) % 3 != 1
    part = np.where(runs, data + 1000 * (e // 16) + e % 16, -1).astype(np.int32)
    linear_ids = np.arange(count)
    sums = np.array([data[i::count].sum() for i in linear_ids], np.int32)
    sums = np.where((linear_ids % local[0]) % 3 != 1, sums, -1).astype(np.int32)
    kernel = mux.compile(GUARDED_SPREAD, vecz_width=width).kernel("guarded_spread")
    out = np.full(groups * n, -1, np.int32)
    got = np.full(groups * count, -1, np.int32)
    kernel(
        data, out, got, n, global_size=(groups * local[0], local[1]), local_size=local
    )
    np.testing.assert_array_equal(out, np.tile(part, groups))
    np.testing.assert_array_equal(got, np.tile(sums, groups))


@pytest.mark.parametrize("width", [8, 16])
def test_loop_from_a_linear_bound_under_a_mask_accesses_whole_vectors(width):
    """With groups of 16x2 (the first lane's value a multiple of 8 and of 16), the
    guarded loop is the scalar loop of `emit_linear_for`, not an `scf.while` on
    vectors, and its load is to a whole vector."""
    vectorised = vectorised_for(GUARDED_SPREAD, "guarded_spread", (16, 2), width)
    names = [op.name for op in vectorised.walk()]
    assert names.count("vector.maskedload") == 1
    assert "scf.while" not in names


# Packets of rows (`run-vecz`'s `rows`, chosen by the cost model for a loop carrying
# per-lane values): out[y][x] = w[y] * (in[y][x] + in[y][x + 1] + ... + in[y][x+n-1])
# for x < width, y < height. `in[y][x + k]` is contiguous in each row and differs
# between rows (a vector load per row), `w[y]` is the same along each row (a scalar
# load per row), the store is one vector per row.
ROWS = """
func.func @rows(%in: memref<?x64xi32, 1>, %w: memref<?xi32, 1>,
                %out: memref<?x64xi32, 1>, %n: index, %width: index,
                %height: index) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %x = mux.get_global_id %d0
  %y = mux.get_global_id %d1
  %x_in = arith.cmpi ult, %x, %width : index
  %y_in = arith.cmpi ult, %y, %height : index
  %inside = arith.andi %x_in, %y_in : i1
  scf.if %inside {
    %wy = memref.load %w[%y] : memref<?xi32, 1>
    %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i32) {
      %at = arith.addi %x, %k : index
      %v = memref.load %in[%y, %at] : memref<?x64xi32, 1>
      %vw = arith.muli %v, %wy : i32
      %next = arith.addi %acc, %vw : i32
      scf.yield %next : i32
    }
    memref.store %s, %out[%y, %x] : memref<?x64xi32, 1>
  }
  func.return
}
"""


@pytest.mark.parametrize(
    ("local", "rows"),
    [
        ((16, 4), 4),
        ((12, 4), 4),  # packets of 8 and the rest of each row scalar
        ((24, 8), 4),  # two packet rows per group, a scalar rest of 8 per row
        ((8, 8), 4),
        ((16, 2), 1),  # y not a multiple of 4: one row
    ],
)
def test_rows(local, rows):
    width, height, n = 37, 19, 9
    rng = np.random.default_rng(3)
    data = rng.integers(-50, 50, (height + 8, 64)).astype(np.int32)
    weights = rng.integers(-3, 4, height + 8).astype(np.int32)
    sums = np.array(
        [[data[y, x : x + n].sum() for x in range(64 - n)] for y in range(height)]
    )
    expected = np.full((height + 8, 64), -1, np.int32)
    expected[:height, :width] = (weights[:height, None] * sums)[:, :width]
    kernel = mux.compile(ROWS).kernel("rows")
    whole = tuple(-(-s // g) * g for s, g in zip((width, height), local, strict=True))
    for global_size in (whole, (width, height)):  # whole groups, and not
        out = np.full((height + 8, 64), -1, np.int32)
        kernel(
            data,
            weights,
            out,
            n,
            width,
            height,
            global_size=global_size,
            local_size=local,
        )
        np.testing.assert_array_equal(out, expected)
    vectorised = vectorised_for(ROWS, "rows", local)
    assert (mux_attrs.VECZ_ROWS.get(vectorised) or 1) == rows
    names = [op.name for op in vectorised.walk()]
    assert names.count("vector.maskedload") == rows  # in[y + j][x + k], per row
    assert names.count("vector.maskedstore") == rows  # out[y + j][x], per row
    assert names.count("memref.load") == rows  # w[y + j], per row


# A loop over taps with a clamped neighbour: out[y][x] = in[y][max(x - 1, 0)] +
# in[y][x] + in[y][x + 1], summed by a loop (a chain of adds, so the cost model
# would take rows). The clamped load is a whole vector in one row but lane by lane
# in rows: the cost model keeps one row.
TAPS = """
func.func @taps(%in: memref<?x40xi32, 1>, %out: memref<?x32xi32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0 : i32
  %x = mux.get_global_id %d0
  %y = mux.get_global_id %d1
  %s = scf.for %t = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (i32) {
    %xt = arith.addi %x, %t : index
    %xm = arith.subi %xt, %c1 : index
    %at = arith.maxsi %xm, %c0 : index
    %v = memref.load %in[%y, %at] : memref<?x40xi32, 1>
    %next = arith.addi %acc, %v : i32
    scf.yield %next : i32
  }
  memref.store %s, %out[%y, %x] : memref<?x32xi32, 1>
  func.return
}
"""


def test_rows_fall_back_to_one_row_for_clamped_loads():
    vectorised = vectorised_for(TAPS, "taps", (16, 4))
    assert mux_attrs.VECZ_ROWS.get(vectorised) is None
    names = [op.name for op in vectorised.walk()]
    assert "memref.load" in names and "vector.maskedload" in names  # the clamp
    rng = np.random.default_rng(9)
    data = rng.integers(-9, 9, (8, 40)).astype(np.int32)
    left = np.concatenate([data[:, :1], data[:, :31]], axis=1)
    expected = left + data[:, :32] + data[:, 1:33]
    out = np.full((8, 32), -1, np.int32)
    kernel = mux.compile(TAPS).kernel("taps")
    kernel(data, out, global_size=(32, 8), local_size=(16, 4))
    np.testing.assert_array_equal(out, expected)


LANEWISE_INTRINSICS = """
func.func @k(%in: memref<?xi32, 1>, %f: memref<?xf32, 1>, %out: memref<?xi32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %x = mux.get_global_id %d0
  %v = memref.load %in[%x] : memref<?xi32, 1>
  %lo = arith.constant -3 : i32
  %hi = arith.constant 40 : i32
  %m = llvm.call_intrinsic "llvm.sadd.sat.i32"(%v, %lo) : (i32, i32) -> i32
  %c = llvm.call_intrinsic "llvm.umin.i32"(%m, %hi) : (i32, i32) -> i32
  %s = llvm.call_intrinsic "llvm.usub.sat.i32"(%c, %hi) : (i32, i32) -> i32
  %u = llvm.call_intrinsic "llvm.uadd.sat.i32"(%lo, %hi) : (i32, i32) -> i32
  %r = arith.addi %c, %s : i32
  %t = arith.addi %r, %u : i32
  memref.store %t, %out[%x] : memref<?xi32, 1>
  %g = memref.load %f[%x] : memref<?xf32, 1>
  %a = llvm.call_intrinsic "llvm.fabs.f32"(%g) {fastmathFlags = #llvm.fastmath<nnan>}
      : (f32) -> f32
  memref.store %a, %f[%x] : memref<?xf32, 1>
  func.return
}
"""


def test_lanewise_llvm_intrinsics_are_widened_to_their_vector_overloads():
    """`llvm.sadd.sat.i32` on a value that differs between lanes is
    `llvm.sadd.sat.v8i32` on the vector of them (vecz widens intrinsics so); on
    uniform operands it stays one scalar call. (`lift-llvm-ops` gives the min/max
    and `usub.sat` calls as `arith` ops first.) Results as numpy computes them,
    the tail included."""
    module = parse_cached(LANEWISE_INTRINSICS, "<k>").clone()
    HostPipeline(kernel="k", to_llvm=False, vecz_width=8).apply(context(), module)
    functions = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
    assert mux_attrs.VECZ_BASE.get(functions["k"]) is not None
    printed = str(functions["__vecz_v8_k"])
    assert '"llvm.sadd.sat.v8i32"' in printed and '"llvm.fabs.v8f32"' in printed
    assert '"llvm.uadd.sat.i32"' in printed  # uniform: one scalar call
    x = np.arange(-20, 80, dtype=np.int32)
    f = np.linspace(-3, 3, x.size).astype(np.float32)
    out = np.zeros_like(x)
    kernel = mux.compile(LANEWISE_INTRINSICS, vecz_width=8).kernel("k")
    kernel(x, f, out, global_size=x.size, local_size=20)
    clamped = np.minimum((x - 3).astype(np.uint32), 40)  # no overflow to saturate
    # uadd.sat(2^32 - 3, 40) saturates to 2^32 - 1
    expected = clamped + np.maximum(clamped.astype(np.int64) - 40, 0) + (2**32 - 1)
    np.testing.assert_array_equal(out, expected.astype(np.uint32).view(np.int32))
    np.testing.assert_array_equal(
        f, np.abs(np.linspace(-3, 3, x.size, dtype=np.float32))
    )
