"""Kernels compiled and run end to end, compared with numpy: 1-, 2- and 3-D ranges,
global offsets, sizes 1 and primes, non-uniform work-groups, every work-item order,
one thread and all of them."""

from pathlib import Path

import numpy as np
import pytest
from kernels import THREADS

import mux

EXAMPLES = Path(__file__).parent.parent / "examples"


@pytest.fixture(scope="module")
def vadd():
    return mux.load(EXAMPLES / "vadd.mlir").kernel("vadd")


@pytest.fixture(scope="module")
def saxpy():
    return mux.load(EXAMPLES / "saxpy.mlir").kernel("saxpy")


@THREADS
@pytest.mark.parametrize(
    ("n", "local"),
    [(1, 1), (7, 3), (64, 16), (97, 8), (1000, 64), (1000, None), (4096, 256)],
)
def test_vadd(vadd, n, local, threads):
    rng = np.random.default_rng(n)
    a, b = rng.random(n, np.float32), rng.random(n, np.float32)
    c = np.zeros(n, np.float32)
    vadd(a, b, c, global_size=n, local_size=local, threads=threads)
    np.testing.assert_array_equal(c, a + b)


@pytest.mark.parametrize("threads", [1, 2])
def test_saxpy_with_offset(saxpy, threads):
    n, offset = 101, 13
    x = np.arange(n + offset, dtype=np.float32)
    y = np.ones(n + offset, np.float32)
    expected = y.copy()
    expected[offset:] = 2.5 * x[offset:] + 1
    saxpy(np.float32(2.5), x, y, global_size=n, local_size=10, global_offset=offset)
    np.testing.assert_allclose(y, expected, rtol=1e-6)


IDS_2D = """
// Writes, for every work-item, its ids into five arrays (row-major over the
// global range, offsets removed): global id x and y, local ids, group ids, and the
// global linear id.
func.func @ids2d(%gx: memref<?xi64, 1>, %gy: memref<?xi64, 1>, %lid: memref<?xi64, 1>,
                 %grp: memref<?xi64, 1>, %lin: memref<?xi64, 1>, %width: index)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %x = mux.get_global_id %d0
  %y = mux.get_global_id %d1
  %ox = mux.get_global_offset %d0
  %oy = mux.get_global_offset %d1
  %rx = arith.subi %x, %ox : index
  %ry = arith.subi %y, %oy : index
  %row = arith.muli %ry, %width : index
  %i = arith.addi %row, %rx : index
  %xi = arith.index_cast %x : index to i64
  %yi = arith.index_cast %y : index to i64
  memref.store %xi, %gx[%i] : memref<?xi64, 1>
  memref.store %yi, %gy[%i] : memref<?xi64, 1>
  %l = mux.get_local_linear_id
  %li = arith.index_cast %l : index to i64
  memref.store %li, %lid[%i] : memref<?xi64, 1>
  %g0 = mux.get_group_id %d0
  %g1 = mux.get_group_id %d1
  %n0 = mux.get_num_groups %d0
  %g = arith.muli %g1, %n0 : index
  %gl = arith.addi %g, %g0 : index
  %gli = arith.index_cast %gl : index to i64
  memref.store %gli, %grp[%i] : memref<?xi64, 1>
  %linear = mux.get_global_linear_id
  %lini = arith.index_cast %linear : index to i64
  memref.store %lini, %lin[%i] : memref<?xi64, 1>
  func.return
}
"""


def _ids_2d_model(global_size, local_size, offset):
    w, h = global_size
    lw, lh = local_size
    y, x = np.mgrid[0:h, 0:w]
    # the actual local size of the last group of a dimension is the remainder
    lsize_x = np.minimum(lw, w - (x // lw) * lw)
    lid = (y % lh) * lsize_x + (x % lw)
    groups_x = -(-w // lw)
    grp = (y // lh) * groups_x + (x // lw)
    return x + offset[0], y + offset[1], lid, grp, y * w + x


@THREADS
@pytest.mark.parametrize(
    ("global_size", "local_size", "offset"),
    [
        ((8, 4), (4, 2), (0, 0)),
        ((13, 7), (4, 3), (0, 0)),  # non-uniform in both dimensions
        ((5, 11), (5, 1), (3, 9)),  # offsets
        ((1, 1), (1, 1), (0, 0)),
        ((31, 17), (8, 8), (2, 1)),  # primes
    ],
)
def test_ids_2d(global_size, local_size, offset, threads):
    kernel = mux.compile(IDS_2D).kernel("ids2d")
    n = global_size[0] * global_size[1]
    outs = [np.full(n, -1, np.int64) for _ in range(5)]
    kernel(
        *outs,
        global_size[0],
        global_size=global_size,
        local_size=local_size,
        global_offset=offset,
        threads=threads,
    )
    expected = _ids_2d_model(global_size, local_size, offset)
    for name, out, want in zip(
        ("gx", "gy", "lid", "grp", "lin"), outs, expected, strict=True
    ):
        np.testing.assert_array_equal(out.reshape(global_size[::-1]), want, name)


IDS_3D = """
// out[z][y][x] = a number built from the work-item's ids and sizes in 3-D:
// group ids, local ids, local sizes, enqueued sizes, and work_dim.
func.func @ids3d(%out: memref<?xi64, 1>, %info: memref<?xi64, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %d2 = arith.constant 2 : i32
  %i = mux.get_global_linear_id
  %lx = mux.get_local_id %d0
  %ly = mux.get_local_id %d1
  %lz = mux.get_local_id %d2
  %sx = mux.get_local_size %d0
  %sy = mux.get_local_size %d1
  %ex = mux.get_enqueued_local_size %d0
  %c100 = arith.constant 100 : index
  %c10000 = arith.constant 10000 : index
  %a = arith.muli %lz, %c10000 : index
  %b = arith.muli %ly, %c100 : index
  %ab = arith.addi %a, %b : index
  %v = arith.addi %ab, %lx : index
  %vi = arith.index_cast %v : index to i64
  memref.store %vi, %out[%i] : memref<?xi64, 1>
  %c0 = arith.constant 0 : index
  %is_first = arith.cmpi eq, %i, %c0 : index
  scf.if %is_first {
    %wd = mux.get_work_dim
    %wdi = arith.extui %wd : i32 to i64
    memref.store %wdi, %info[%c0] : memref<?xi64, 1>
    %gs = mux.get_global_size %d2
    %gsi = arith.index_cast %gs : index to i64
    %c1 = arith.constant 1 : index
    memref.store %gsi, %info[%c1] : memref<?xi64, 1>
    %exi = arith.index_cast %ex : index to i64
    %c2 = arith.constant 2 : index
    memref.store %exi, %info[%c2] : memref<?xi64, 1>
    %d7 = arith.constant 7 : i32
    %dflt = mux.get_local_size %d7
    %dflti = arith.index_cast %dflt : index to i64
    %c3 = arith.constant 3 : index
    memref.store %dflti, %info[%c3] : memref<?xi64, 1>
  }
  func.return
}
"""


@pytest.mark.parametrize("order", ["xyz", "xzy", "yxz", "yzx", "zxy", "zyx"])
@THREADS
def test_ids_3d_every_work_item_order(order, threads):
    source = IDS_3D.replace(
        'mux.kernel = "entry-point"',
        'mux.kernel = "entry-point", '
        f"mux.work_item_order = #mux<work_item_order {order}>",
    )
    kernel = mux.compile(source).kernel("ids3d")
    gs, ls = (6, 5, 7), (4, 2, 3)
    out = np.full(int(np.prod(gs)), -1, np.int64)
    info = np.zeros(4, np.int64)
    kernel(out, info, global_size=gs, local_size=ls, threads=threads)
    z, y, x = np.mgrid[0 : gs[2], 0 : gs[1], 0 : gs[0]]
    expected = (z % ls[2]) * 10000 + (y % ls[1]) * 100 + (x % ls[0])
    np.testing.assert_array_equal(out.reshape(gs[::-1]), expected)
    # work_dim, global size in z, enqueued size in x, a size past dimension 2
    np.testing.assert_array_equal(info, [3, 7, 4, 1])


def test_compiled_code_is_shown(vadd):
    assert "define" in vadd.llvm_ir
    assert "vadd" in vadd.llvm_ir
    assert vadd.assembly.strip()


def test_a_kernel_with_a_required_size():
    source = (
        (EXAMPLES / "vadd.mlir")
        .read_text()
        .replace(
            'mux.kernel = "entry-point"',
            'mux.kernel = "entry-point", '
            "mux.reqd_work_group_size = array<i32: 8, 1, 1>",
        )
    )
    kernel = mux.compile(source).kernel("vadd")
    a = np.arange(64, dtype=np.float32)
    c = np.zeros(64, np.float32)
    kernel(a, a, c, global_size=64)  # local size: the required one
    np.testing.assert_array_equal(c, 2 * a)
    with pytest.raises(mux.LaunchError, match="requires a work-group size"):
        kernel(a, a, c, global_size=64, local_size=16)
    with pytest.raises(mux.LaunchError, match="not a multiple"):
        kernel(a, a, c, global_size=60)


@THREADS
@pytest.mark.parametrize(
    ("size", "local"), [((16, 8), (4, 4)), ((7, 5), (7, 5)), ((33, 9), (8, 3))]
)
def test_example_scale2d(size, local, threads):
    kernel = mux.load(EXAMPLES / "scale2d.mlir").kernel("scale2d")
    width, height = size
    image = np.random.default_rng(1).random(width * height, np.float32)
    out = np.zeros_like(image)
    kernel(image, out, width, 1.5, global_size=size, local_size=local, threads=threads)
    np.testing.assert_array_equal(out, image * np.float32(1.5))


@THREADS
@pytest.mark.parametrize(
    ("size", "local"),
    [((4, 4, 4), (2, 2, 2)), ((5, 3, 7), (2, 3, 4)), ((1, 1, 1), (1, 1, 1))],
)
def test_example_ids3d(size, local, threads):
    kernel = mux.load(EXAMPLES / "ids3d.mlir").kernel("ids3d")
    out = np.full(int(np.prod(size)), -1, np.int32)
    kernel(out, global_size=size, local_size=local, threads=threads)
    z, y, x = np.mgrid[0 : size[2], 0 : size[1], 0 : size[0]]
    n = [-(-s // ls) for s, ls in zip(size, local, strict=True)]
    group = ((z // local[2]) * n[1] + y // local[1]) * n[0] + x // local[0]
    lsize = [
        np.minimum(ls, s - (c // ls) * ls)
        for c, s, ls in zip((x, y, z), size, local, strict=True)
    ]
    loc = ((z % local[2]) * lsize[1] + (y % local[1])) * lsize[0] + (x % local[0])
    np.testing.assert_array_equal(out.reshape(size[::-1]), 1000 * group + loc)


LOCAL_COPY = """
// Each work-item goes through its own slot of a local buffer: no barrier needed.
func.func @local_copy(%input: memref<?xf32, 1>, %output: memref<?xf32, 1>,
                      %scratch: memref<?xf32, 3>)
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  %lid = mux.get_local_id %d
  %v = memref.load %input[%gid] : memref<?xf32, 1>
  %two = arith.constant 2.0 : f32
  %w = arith.mulf %v, %two : f32
  memref.store %w, %scratch[%lid] : memref<?xf32, 3>
  %back = memref.load %scratch[%lid] : memref<?xf32, 3>
  memref.store %back, %output[%gid] : memref<?xf32, 1>
  func.return
}
"""


@THREADS
def test_local_buffer_argument(threads):
    kernel = mux.compile(LOCAL_COPY).kernel("local_copy")
    x = np.arange(100, dtype=np.float32)
    y = np.zeros_like(x)
    kernel(
        x, y, mux.LocalBuffer(32 * 4), global_size=100, local_size=32, threads=threads
    )
    np.testing.assert_array_equal(y, 2 * x)


def test_compiled_kernels_are_cached(vadd):
    assert vadd.compiled((64,)) is vadd.compiled((64,))
    again = mux.load(EXAMPLES / "vadd.mlir").kernel("vadd")
    assert again.compiled((64,)) is vadd.compiled((64,))
    assert vadd.compiled((64,)) is not vadd.compiled(None)


SUBVIEW = """
func.func @shifted(%x: memref<8xi32, 1>) attributes {mux.kernel = "entry-point"} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %s = memref.subview %x[2] [4] [1]
      : memref<8xi32, 1> to memref<4xi32, strided<[1], offset: 2>, 1>
  memref.store %one, %s[%c0] : memref<4xi32, strided<[1], offset: 2>, 1>
  func.return
}
"""


def test_a_module_that_does_not_lower_raises_compile_error():
    # a memref with a strided layout has no bare-pointer form: convert-to-llvm
    # refuses it, and mux.compile finds it (it lowers every kernel, unspecialised)
    with pytest.raises(mux.CompileError, match="only the identity layout"):
        mux.compile(SUBVIEW)
