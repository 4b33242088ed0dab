"""The DMA builtins end to end (`define-mux-dma` in the host pipeline), against numpy.

Each transfer kernel works on bytes in a 1-D NDRange. Work-group g:
- read: fills its local buffer with 0xA5, then reads from `input + g * src_group`
  into it (the op's strides and counts), waits, and dumps the whole local buffer to
  `output[g * local_bytes ...]`, so bytes the copy must not touch are checked too;
- write: fills its local buffer with `(7 g + i) mod 256`, then writes it to
  `output + g * dst_group`, waits; the rest of `output` keeps numpy's 0x5A.
The numpy reference copies `width` bytes per row, rows and planes at their byte
strides on each side (mux-compiler-spec.rst, `__mux_dma_read_3D` and friends).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from kernels import THREADS

import mux
from mux.runtime import default_local_size

FILL, SENTINEL = 0xA5, 0x5A

# The size operands of each kind of transfer, as the op spells them.
OPERANDS = {
    1: "width(%width)",
    2: "width(%width) dst_stride(%dst_line) src_stride(%src_line) height(%height)",
    3: (
        "width(%width) dst_line_stride(%dst_line) src_line_stride(%src_line) "
        "height(%height) dst_plane_stride(%dst_plane) src_plane_stride(%src_plane) "
        "depth(%depth)"
    ),
}

HEADER = """
func.func @{name}(%input: memref<?xi8, 1>, %output: memref<?xi8, 1>,
                  %local: memref<?xi8, 3>, %local_bytes: index, %group_stride: index,
                  %width: index, %dst_line: index, %src_line: index, %height: index,
                  %dst_plane: index, %src_plane: index, %depth: index)
    attributes {{mux.kernel = "entry-point"}} {{
  %d0 = arith.constant 0 : i32
  %lid = mux.get_local_id %d0
  %n = mux.get_local_size %d0
  %group = mux.get_group_id %d0
  scf.for %i = %lid to %local_bytes step %n {{
    {fill}
    memref.store %v, %local[%i] : memref<?xi8, 3>
  }}
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %offset = arith.muli %group, %group_stride : index
  %offset64 = arith.index_cast %offset : index to i64
"""

READ = """
  %in = builtin.unrealized_conversion_cast %input : memref<?xi8, 1> to !llvm.ptr<1>
  %src = llvm.getelementptr %in[%offset64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
  %e = mux.dma_read_{dims}d %local, %src {operands} : memref<?xi8, 3>, !llvm.ptr<1>
  mux.dma_wait %e
  %base = arith.muli %group, %local_bytes : index
  scf.for %i = %lid to %local_bytes step %n {{
    %v = memref.load %local[%i] : memref<?xi8, 3>
    %at = arith.addi %base, %i : index
    memref.store %v, %output[%at] : memref<?xi8, 1>
  }}
  func.return
}}
"""

WRITE = """
  %out = builtin.unrealized_conversion_cast %output : memref<?xi8, 1> to !llvm.ptr<1>
  %dst = llvm.getelementptr %out[%offset64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
  %e = mux.dma_write_{dims}d %dst, %local {operands} : !llvm.ptr<1>, memref<?xi8, 3>
  mux.dma_wait %e
  func.return
}}
"""

READ_FILL = f"%v = arith.constant {FILL - 256} : i8"
WRITE_FILL = """%seven = arith.constant 7 : index
    %g7 = arith.muli %group, %seven : index
    %k = arith.addi %g7, %i : index
    %k64 = arith.index_cast %k : index to i64
    %v = arith.trunci %k64 : i64 to i8"""


def kernel_source(direction: str, dims: int) -> str:
    name = f"{direction}_{dims}d"
    fill = READ_FILL if direction == "read" else WRITE_FILL
    body = READ if direction == "read" else WRITE
    return HEADER.format(name=name, fill=fill) + body.format(
        dims=dims, operands=OPERANDS[dims]
    )


@pytest.fixture(scope="module")
def program():
    sources = [kernel_source(d, n) for d in ("read", "write") for n in (1, 2, 3)]
    return mux.compile("\n".join(sources))


# --------------------------------------------------------------------------------------
# The numpy reference.
# --------------------------------------------------------------------------------------


def reference_copy(dst, dst_at, src, src_at, width, lines):
    """`width` bytes per row; `lines` is [(count, dst stride, src stride)], outer
    first."""
    for point in itertools.product(*(range(count) for count, _, _ in lines)):
        d = dst_at + sum(i * ds for i, (_, ds, _) in zip(point, lines, strict=True))
        s = src_at + sum(i * ss for i, (_, _, ss) in zip(point, lines, strict=True))
        dst[d : d + width] = src[s : s + width]


def extent(width, lines, side):
    """The bytes a transfer spans on one side (1: dst, 2: src)."""
    return width + sum((line[0] - 1) * line[side] for line in lines)


# (dims, width, [(count, dst stride, src stride)]): strides differ from the width and
# between the two sides, in both directions.
SHAPES = {
    "1d": (1, 37, []),
    "2d-dst-wider": (2, 12, [(5, 20, 13)]),
    "2d-src-wider": (2, 9, [(4, 11, 31)]),
    "3d": (3, 5, [(4, 30, 50), (3, 8, 11)]),
    "3d-planes-packed": (3, 6, [(3, 6 * 2, 40), (2, 6, 17)]),
}
LAUNCHES = [(64, 16), (50, 16), (7, 3), (24, None)]


def _arguments(dims, width, lines):
    """The size operands in kernel order: width, dst/src line strides, height,
    dst/src plane strides, depth (1 and 0 where the op has none)."""
    padded = [(1, 0, 0)] * (3 - dims) + list(lines)
    (depth, dst_plane, src_plane), (height, dst_line, src_line) = padded
    return [width, dst_line, src_line, height, dst_plane, src_plane, depth]


def _groups(global_size, local_size):
    local = local_size or default_local_size((global_size,))[0]
    return -(-global_size // local)


@THREADS
@pytest.mark.parametrize(("global_size", "local_size"), LAUNCHES)
@pytest.mark.parametrize("shape", SHAPES)
def test_read(program, shape, global_size, local_size, threads):
    dims, width, lines = SHAPES[shape]
    kernel = program.kernel(f"read_{dims}d")
    local_bytes = extent(width, lines, 1) + 3
    group_stride = extent(width, lines, 2) + 5  # source regions of groups differ
    groups = _groups(global_size, local_size)
    rng = np.random.default_rng(global_size)
    source = rng.integers(0, 256, groups * group_stride, dtype=np.uint8)
    output = np.zeros(groups * local_bytes, dtype=np.uint8)
    kernel(
        source,
        output,
        mux.LocalBuffer(local_bytes),
        local_bytes,
        group_stride,
        *_arguments(dims, width, lines),
        global_size=global_size,
        local_size=local_size,
        threads=threads,
    )
    expected = np.full_like(output, FILL)
    for g in range(groups):
        reference_copy(
            expected, g * local_bytes, source, g * group_stride, width, lines
        )
    np.testing.assert_array_equal(output, expected)


@THREADS
@pytest.mark.parametrize(("global_size", "local_size"), LAUNCHES)
@pytest.mark.parametrize("shape", SHAPES)
def test_write(program, shape, global_size, local_size, threads):
    dims, width, lines = SHAPES[shape]
    # a write's destination is global: swap the reference's sides
    lines = [(count, src, dst) for count, dst, src in lines]
    kernel = program.kernel(f"write_{dims}d")
    local_bytes = extent(width, lines, 2) + 3
    group_stride = extent(width, lines, 1) + 5  # destinations do not overlap
    groups = _groups(global_size, local_size)
    output = np.full(groups * group_stride + 7, SENTINEL, dtype=np.uint8)
    kernel(
        np.zeros(1, dtype=np.uint8),
        output,
        mux.LocalBuffer(local_bytes),
        local_bytes,
        group_stride,
        *_arguments(dims, width, lines),
        global_size=global_size,
        local_size=local_size,
        threads=threads,
    )
    expected = np.full_like(output, SENTINEL)
    for g in range(groups):
        local = ((7 * g + np.arange(local_bytes)) % 256).astype(np.uint8)
        reference_copy(expected, g * group_stride, local, 0, width, lines)
    np.testing.assert_array_equal(output, expected)


def test_empty_transfers_copy_nothing(program):
    """A width, height or depth of 0 is a transfer of no byte."""
    kernel = program.kernel("write_3d")
    for sizes in ([0, 4, 4, 2, 8, 8, 2], [4, 4, 4, 0, 8, 8, 2], [4, 4, 4, 2, 8, 8, 0]):
        output = np.full(64, SENTINEL, dtype=np.uint8)
        kernel(
            np.zeros(1, dtype=np.uint8),
            output,
            mux.LocalBuffer(16),
            16,
            32,
            *sizes,
            global_size=8,
            local_size=4,
        )
        np.testing.assert_array_equal(output, SENTINEL)


# --------------------------------------------------------------------------------------
# Once per work-group.
# --------------------------------------------------------------------------------------

# Work-item k overwrites element k of the source, then the work-group reads the whole
# source with a DMA. The kernel races on purpose (changing a DMA's source while it is
# in flight is undefined), to show who copied: the copy is done by work-item 0 alone,
# when it reaches the DMA, before work-items 1.. (which run after it in the work-item
# loop) have written their marks. Had every work-item copied, the last copy would
# have seen every mark.
ONCE = """
func.func @once(%input: memref<?xi32, 1>, %output: memref<?xi32, 1>,
                %local: memref<?xi32, 3>) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %lid = mux.get_local_id %d0
  %n = mux.get_local_size %d0
  %mark = arith.constant 1000 : i32
  memref.store %mark, %input[%lid] : memref<?xi32, 1>
  %four = arith.constant 4 : index
  %bytes = arith.muli %n, %four : index
  %e = mux.dma_read_1d %local, %input width(%bytes) : memref<?xi32, 3>, memref<?xi32, 1>
  mux.dma_wait %e
  %v = memref.load %local[%lid] : memref<?xi32, 3>
  memref.store %v, %output[%lid] : memref<?xi32, 1>
  func.return
}
"""


@pytest.mark.parametrize("n", [1, 5, 64])
def test_the_copy_is_done_once_per_work_group(n):
    kernel = mux.compile(ONCE).kernel("once")
    source = np.arange(n, dtype=np.int32)
    output = np.zeros(n, dtype=np.int32)
    kernel(source, output, mux.LocalBuffer(4 * n), global_size=n, local_size=n)
    expected = np.arange(n, dtype=np.int32)
    expected[0] = 1000  # work-item 0 marked its element before it copied
    np.testing.assert_array_equal(output, expected)
    np.testing.assert_array_equal(source, 1000)  # every work-item ran


# --------------------------------------------------------------------------------------
# examples/dma_tile.mlir
# --------------------------------------------------------------------------------------

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "dma_tile.mlir"
TILE = 16


def mirrored_tiles(image: np.ndarray) -> np.ndarray:
    """Each TILE x TILE tile (smaller at the right and bottom edges) mirrored left to
    right, times 2."""
    out = np.empty_like(image)
    height, width = image.shape
    for y in range(0, height, TILE):
        for x in range(0, width, TILE):
            tile = image[y : y + TILE, x : x + TILE]
            out[y : y + TILE, x : x + TILE] = 2 * tile[:, ::-1]
    return out


@pytest.fixture(scope="module")
def dma_tile():
    return mux.load(EXAMPLE).kernel("dma_tile")


@THREADS
@pytest.mark.parametrize(
    ("width", "height"), [(64, 32), (16, 16), (50, 37), (7, 20), (100, 3)]
)
def test_dma_tile_example(dma_tile, width, height, threads):
    image = np.random.default_rng(width).random((height, width), np.float32)
    output = np.zeros_like(image)
    dma_tile(
        image,
        output,
        width,
        global_size=(width, height),
        local_size=(TILE, TILE),
        threads=threads,
    )
    np.testing.assert_array_equal(output, mirrored_tiles(image))
