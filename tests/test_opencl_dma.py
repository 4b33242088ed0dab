"""OpenCL C's async copies, run: kernels that copy a tile into local memory, compute
on it and copy it out (async_work_group_copy), gather and scatter a column
(async_work_group_strided_copy), wait on several events at once, reuse one event
for a chain of copies and after a wait, and copy 2-D and 3-D blocks
(cl_khr_extended_async_copies), compared with numpy over 1-D and 2-D ranges,
global sizes that are not a multiple of the local size, and local size 1.

Each kernel goes through clang, the LLVM IR importer, lower-to-mux-builtins (the
DMA ops) and define-mux-dma (copies by work-item 0, waits as barriers). The gentype
is a build option (-DT=...): scalars and vectors, 3-component vectors taking 4
components' room. Buffers are arrays of the scalar type, cast to `T *` in the
kernel (the runtime takes no vector buffers)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

import mux

RNG = np.random.default_rng(23)

TILE = """
// Each work-group's slice of `in` plus itself reversed, into `out`: copied in,
// summed, written back to the tile, copied out.
__kernel void tile(__global const S *in, __global S *out, __local S *scratch) {
  __local T *tile = (__local T *)scratch;
  size_t n = get_local_size(0);
  size_t base = get_global_id(0) - get_local_id(0);
  event_t e = async_work_group_copy(tile, (__global const T *)in + base, n, 0);
  wait_group_events(1, &e);
  size_t i = get_local_id(0);
  T v = tile[n - 1 - i] + tile[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  tile[i] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy((__global T *)out + base, tile, n, e);  // reused
  wait_group_events(1, &e);
}
"""

COLUMN = """
// Work-group g gathers column g of a row-major matrix of `columns` columns (one
// row per work-item), adds it to itself upside down, and scatters it to column g
// of `out`.
__kernel void column(__global const S *in, __global S *out, __local S *scratch,
                     ulong columns) {
  __local T *column = (__local T *)scratch;
  size_t n = get_local_size(0);
  size_t g = get_group_id(0);
  prefetch((__global const T *)in + g, n);
  event_t e = async_work_group_strided_copy(column, (__global const T *)in + g, n,
                                            columns, 0);
  wait_group_events(1, &e);
  size_t i = get_local_id(0);
  T v = column[i] + column[n - 1 - i];
  barrier(CLK_LOCAL_MEM_FENCE);
  column[i] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_strided_copy((__global T *)out + g, column, n, columns, 0);
  wait_group_events(1, &e);
}
"""

SEVERAL = """
// Three slices in through three events waited on together, a + b * reversed c
// out; the first slice comes in a loop of one-element copies that share one event.
__kernel void several(__global const int *a, __global const int *b,
                      __global const int *c, __global int *out, __local int *la,
                      __local int *lb, __local int *lc) {
  size_t n = get_local_size(0);
  size_t base = get_global_id(0) - get_local_id(0);
  event_t events[3];
  event_t first = 0;
  for (size_t k = 0; k < n; ++k)
    first = async_work_group_copy(la + k, a + base + k, 1, first);
  events[0] = first;
  events[1] = async_work_group_copy(lb, b + base, n, 0);
  events[2] = async_work_group_copy(lc, c + base, n, 0);
  wait_group_events(3, events);
  size_t i = get_local_id(0);
  out[base + i] = la[i] + lb[i] * lc[n - 1 - i];
}
"""

BLOCK_2D = """
// A 2-D range over an image of `width` columns: each work-group's block comes in
// with async_work_group_copy_2D2D (a line per local row), is transposed within
// the block's rows, plus one, and goes out the same way.
__kernel void block2d(__global const int *in, __global int *out, __local int *block,
                      ulong width) {
  size_t w = get_local_size(0), h = get_local_size(1);
  size_t x0 = get_global_id(0) - get_local_id(0);
  size_t y0 = get_global_id(1) - get_local_id(1);
  size_t origin = y0 * width + x0;
  event_t e = async_work_group_copy_2D2D(block, 0, in, origin, sizeof(int), w, h,
                                         width, w, 0);
  wait_group_events(1, &e);
  size_t x = get_local_id(0), y = get_local_id(1);
  int v = block[y * w + (w - 1 - x)] + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  block[y * w + x] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy_2D2D(out, origin, block, 0, sizeof(int), w, h, w,
                                 width, 0);
  wait_group_events(1, &e);
}
"""

BOX_3D = """
// A 1-D range: work-group g copies planes 2g and 2g + 1 of a `depth` x `rows` x
// `cols` box (a `w` x `h` corner of each, w = local size) with
// async_work_group_copy_3D3D into a packed local block, negates it, and writes it
// to the same place in `out`.
__kernel void box3d(__global const float *in, __global float *out,
                    __local float *box, ulong rows, ulong cols, ulong h) {
  size_t w = get_local_size(0);
  size_t g = get_group_id(0);
  size_t plane = rows * cols;
  event_t e = async_work_group_copy_3D3D(box, 0, in, 2 * g * plane, sizeof(float),
                                         w, h, 2, cols, plane, w, w * h, 0);
  wait_group_events(1, &e);
  for (size_t k = get_local_id(0); k < 2 * w * h; k += w)
    box[k] = -box[k];
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy_3D3D(out, 2 * g * plane, box, 0, sizeof(float), w, h, 2,
                                 w, w * h, cols, plane, e);
  wait_group_events(1, &e);
}
"""


@dataclass(frozen=True)
class Gentype:
    name: str
    scalar: str
    dtype: type
    lanes: int
    """Components in memory (a 3-component vector takes 4)."""
    used: int
    """Components computed on."""


GENTYPES = [
    Gentype("char", "char", np.int8, 1, 1),
    Gentype("uchar2", "uchar", np.uint8, 2, 2),
    Gentype("short3", "short", np.int16, 4, 3),
    Gentype("int", "int", np.int32, 1, 1),
    Gentype("uint4", "uint", np.uint32, 4, 4),
    Gentype("long8", "long", np.int64, 8, 8),
    Gentype("float", "float", np.float32, 1, 1),
    Gentype("float3", "float", np.float32, 4, 3),
    Gentype("double2", "double", np.float64, 2, 2),
    Gentype("half16", "half", np.float16, 16, 16),
]
SHAPES_1D = [((100,), (16,)), ((64,), (64,)), ((7,), (1,))]
"""(global size, local size): a partial last work-group, one full one, size 1."""


def program(source: str, gentype: Gentype | None = None) -> mux.Program:
    options = "-cl-std=CL1.2"
    if gentype is not None:
        options += f" -DT={gentype.name} -DS={gentype.scalar}"
        if gentype.scalar == "half":
            source = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n" + source
    return mux.compile(source, language="opencl", build_options=options)


def values(count: int, dtype: type) -> np.ndarray:
    if np.issubdtype(dtype, np.floating):
        return RNG.integers(-100, 100, count).astype(dtype) / 4
    info = np.iinfo(dtype)
    return RNG.integers(max(info.min, -1000), min(info.max, 1000), count, dtype=dtype)


def groups(global_size: int, local_size: int):
    for base in range(0, global_size, local_size):
        yield base, min(local_size, global_size - base)


@pytest.mark.parametrize("shape", SHAPES_1D, ids=str)
@pytest.mark.parametrize("gentype", GENTYPES, ids=lambda g: g.name)
def test_tile_in_compute_out(gentype: Gentype, shape):
    (size,), (local,) = shape
    data = values(size * gentype.lanes, gentype.dtype)
    out = np.zeros_like(data)
    kernel = program(TILE, gentype).kernel("tile")
    tile = mux.LocalBuffer(local * gentype.lanes * data.itemsize)
    kernel(data, out, tile, global_size=shape[0], local_size=shape[1])
    items, result = data.reshape(size, gentype.lanes), out.reshape(size, gentype.lanes)
    expected = np.zeros_like(items)
    for base, n in groups(size, local):
        expected[base : base + n] = (
            items[base : base + n][::-1] + items[base : base + n]
        )
    used = gentype.used
    np.testing.assert_array_equal(result[:, :used], expected[:, :used])


@pytest.mark.parametrize("shape", SHAPES_1D, ids=str)
@pytest.mark.parametrize("gentype", GENTYPES[::3], ids=lambda g: g.name)
def test_strided_gather_and_scatter(gentype: Gentype, shape):
    (size,), (local,) = shape
    columns = -(-size // local)
    data = values(local * columns * gentype.lanes, gentype.dtype)
    out = np.zeros_like(data)
    kernel = program(COLUMN, gentype).kernel("column")
    column = mux.LocalBuffer(local * gentype.lanes * data.itemsize)
    kernel(
        data, out, column, np.uint64(columns), global_size=(size,), local_size=(local,)
    )
    matrix = data.reshape(local, columns, gentype.lanes)
    expected = np.zeros_like(matrix)
    for g, (_, n) in enumerate(groups(size, local)):
        expected[:n, g] = matrix[:n, g] + matrix[:n, g][::-1]
    used = gentype.used
    got = out.reshape(local, columns, gentype.lanes)
    np.testing.assert_array_equal(got[..., :used], expected[..., :used])


@pytest.mark.parametrize("shape", SHAPES_1D, ids=str)
def test_wait_on_several_events_one_of_them_chained(shape):
    (size,), (local,) = shape
    a, b, c = (values(size, np.int32) for _ in range(3))
    out = np.zeros(size, np.int32)
    kernel = program(SEVERAL).kernel("several")
    buffers = [mux.LocalBuffer(4 * local) for _ in range(3)]
    kernel(a, b, c, out, *buffers, global_size=(size,), local_size=(local,))
    expected = np.zeros(size, np.int32)
    for base, n in groups(size, local):
        window = slice(base, base + n)
        expected[window] = a[window] + b[window] * c[window][::-1]
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize(
    "shape", [((20, 12), (8, 4)), ((16, 8), (16, 8)), ((6, 5), (1, 1))], ids=str
)
def test_2d_blocks(shape):
    (width, height), (lw, lh) = shape
    data = values(width * height, np.int32)
    out = np.zeros_like(data)
    kernel = program(BLOCK_2D).kernel("block2d")
    kernel(
        data,
        out,
        mux.LocalBuffer(4 * lw * lh),
        np.uint64(width),
        global_size=(width, height),
        local_size=(lw, lh),
    )
    image = data.reshape(height, width)
    expected = np.zeros_like(image)
    for y0, h in groups(height, lh):
        for x0, w in groups(width, lw):
            block = image[y0 : y0 + h, x0 : x0 + w]
            expected[y0 : y0 + h, x0 : x0 + w] = block[:, ::-1] + 1
    np.testing.assert_array_equal(out.reshape(height, width), expected)


@pytest.mark.parametrize("local", [4, 1])
def test_3d_boxes(local):
    depth, rows, cols, h = 6, 5, 7, 3
    data = values(depth * rows * cols, np.float32)
    out = np.zeros_like(data)
    kernel = program(BOX_3D).kernel("box3d")
    box = mux.LocalBuffer(4 * 2 * local * h)
    groups_ = depth // 2
    kernel(
        data,
        out,
        box,
        np.uint64(rows),
        np.uint64(cols),
        np.uint64(h),
        global_size=(groups_ * local,),
        local_size=(local,),
    )
    expected = np.zeros((depth, rows, cols), np.float32)
    expected[:, :h, :local] = -data.reshape(depth, rows, cols)[:, :h, :local]
    np.testing.assert_array_equal(out.reshape(depth, rows, cols), expected)
