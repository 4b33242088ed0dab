"""Kernel arguments of OpenCL C kernels that are not plain buffers or scalars,
against numpy: buffers of vectors (`int4*`, `float4*`, `float3*`: arrays whose last
axis is the lanes, 4 for a 3-element vector), vectors passed by value (`float4 s`:
a tuple or 1-D array) and structs passed by value (a numpy record of
`Param.dtype`, or its bytes), over 1-D and 2-D launches, sizes that are not a
multiple of the local size, and local size 1; and the LaunchErrors of arguments
that do not fit, which name the argument and write nothing (mux.arguments)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import mux

RNG = np.random.default_rng(23)
INPUTS = Path(__file__).parent / "filecheck" / "import" / "Inputs"

SOURCE = """
#pragma OPENCL FP_CONTRACT OFF

typedef struct {
  int scale;
  float bias;
  char tag;
  long offset;
  float4 dir;
} params_t;

kernel void int4_ops(global const int4 *a, global int4 *b, int4 c, int n) {
  int i = get_global_id(0);
  if (i < n) b[i] = a[i] * c + a[i].wzyx;
}

kernel void float4_2d(global const float4 *in, global float4 *out, int w, int h,
                      float4 s) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < w && y < h) out[y * w + x] = in[y * w + x] * s + (float)y;
}

kernel void float3_axpy(global const float3 *x, global float3 *y, float a, int n) {
  int i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}

kernel void with_struct(global const float *x, global float4 *out, params_t p) {
  int i = get_global_id(0);
  out[i] = p.dir * (x[i] * p.scale + p.bias) + (float)(p.offset + p.tag);
}

kernel void uchar4_swap(global const uchar4 *in, global uchar4 *out) {
  int i = get_global_id(0);
  out[i] = in[i].zyxw;
}
"""


@pytest.fixture(scope="module")
def program() -> mux.Program:
    return mux.compile(SOURCE, language="opencl", name="arguments.cl")


# ----------------------------------------------------------------------------------
# Buffers of vectors and vectors by value.
# ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "global_size", "local_size"),
    [(1000, 1000, 64), (37, 40, 8), (13, 13, 1), (5, 5, 5)],
)
def test_int4_buffers_and_an_int4_by_value(program, n, global_size, local_size):
    kernel = program.kernel("int4_ops")
    a = RNG.integers(-1000, 1000, (n, 4), dtype=np.int32)
    b = np.full((n, 4), 7, np.int32)
    c = np.array([3, -1, 0, 2], np.int32)
    kernel(a, b, c, n, global_size=global_size, local_size=local_size)
    np.testing.assert_array_equal(b, a * c + a[:, ::-1])
    # a tuple of Python ints is a vector too, and so is a list
    kernel(a, b, (1, 2, 3, 4), n, global_size=global_size, local_size=local_size)
    np.testing.assert_array_equal(b, a * [1, 2, 3, 4] + a[:, ::-1])


@pytest.mark.parametrize(
    ("w", "h", "local_size"), [(16, 8, (8, 4)), (13, 7, (4, 2)), (5, 3, (1, 1))]
)
def test_float4_buffers_as_a_matrix_in_2d(program, w, h, local_size):
    kernel = program.kernel("float4_2d")
    data = RNG.standard_normal((h, w, 4)).astype(np.float32)  # any shape (..., 4)
    out = np.zeros_like(data)
    s = np.array([0.5, -2.0, 1.25, 3.0], np.float32)
    global_size = tuple(
        -(-n // size) * size for n, size in zip((w, h), local_size, strict=True)
    )
    kernel(data, out, w, h, s, global_size=global_size, local_size=local_size)
    rows = np.arange(h, dtype=np.float32)[:, None, None]
    np.testing.assert_array_equal(out, data * s + rows)


@pytest.mark.parametrize(("n", "local_size"), [(100, 16), (33, 8), (7, 1)])
def test_float3_buffers_take_four_lanes_each(program, n, local_size):
    kernel = program.kernel("float3_axpy")
    assert kernel.params[0].dtype == np.dtype((np.float32, (4,)))
    x = RNG.standard_normal((n, 4)).astype(np.float32)
    y = RNG.standard_normal((n, 4)).astype(np.float32)
    expected = np.float32(1.5) * x[:, :3] + y[:, :3]
    global_size = -(-n // local_size) * local_size
    kernel(x, y, 1.5, n, global_size=global_size, local_size=local_size)
    np.testing.assert_array_equal(y[:, :3], expected)  # the 4th lane is padding


def test_uchar4_buffers(program):
    kernel = program.kernel("uchar4_swap")
    data = RNG.integers(0, 256, (64, 4), dtype=np.uint8)
    out = np.zeros_like(data)
    kernel(data, out, global_size=64, local_size=16)
    np.testing.assert_array_equal(out, data[:, [2, 1, 0, 3]])


# ----------------------------------------------------------------------------------
# Structs by value.
# ----------------------------------------------------------------------------------


def struct_expected(x: np.ndarray, scale, bias, tag, offset, direction) -> np.ndarray:
    inner = x * np.float32(scale) + np.float32(bias)
    return np.asarray(direction, np.float32) * inner[:, None] + np.float32(offset + tag)


@pytest.mark.parametrize(("n", "local_size"), [(256, 32), (10, 1)])
def test_a_struct_by_value_as_a_numpy_record(program, n, local_size):
    kernel = program.kernel("with_struct")
    dtype = kernel.params[2].dtype
    # int at 0, float at 4, char at 8, long at 16, float4 at 32 (16-aligned): 48 bytes
    assert dtype.itemsize == 48
    assert [dtype.fields[f"f{i}"][1] for i in range(5)] == [0, 4, 8, 16, 32]
    record = np.zeros((), dtype)[()]
    record["f0"], record["f1"], record["f2"], record["f3"] = 3, 0.25, -5, 1 << 20
    record["f4"] = [1.0, -1.0, 0.5, 2.0]
    x = RNG.standard_normal(n).astype(np.float32)
    out = np.zeros((n, 4), np.float32)
    kernel(x, out, record, global_size=n, local_size=local_size)
    expected = struct_expected(x, 3, 0.25, -5, 1 << 20, [1.0, -1.0, 0.5, 2.0])
    np.testing.assert_array_equal(out, expected)


def test_a_struct_by_value_as_a_record_of_ones_own_type_or_bytes(program):
    kernel = program.kernel("with_struct")
    own = np.dtype(
        {
            "names": ["scale", "bias", "tag", "offset", "dir"],
            "formats": ["<i4", "<f4", "i1", "<i8", ("<f4", (4,))],
            "offsets": [0, 4, 8, 16, 32],
            "itemsize": 48,
        }
    )
    record = np.array((2, -1.0, 1, 7, (0.0, 1.0, 2.0, 3.0)), own)  # a 0-d array
    x = np.arange(16, dtype=np.float32)
    out = np.zeros((16, 4), np.float32)
    kernel(x, out, record, global_size=16, local_size=4)
    expected = struct_expected(x, 2, -1.0, 1, 7, [0.0, 1.0, 2.0, 3.0])
    np.testing.assert_array_equal(out, expected)
    out[:] = 0
    kernel(x, out, record.tobytes(), global_size=16, local_size=4)
    np.testing.assert_array_equal(out, expected)


def test_a_struct_the_kernel_writes_is_each_work_items_own():
    # byval.ll's write_struct adds its global id to its struct's first member and
    # stores it: each work-item starts from the caller's value.
    program = mux.load(INPUTS / "byval.ll")
    kernel = program.kernel("write_struct")
    record = np.zeros((), kernel.params[1].dtype)[()]
    record["f0"] = 100
    out = np.zeros(1000, np.int32)
    kernel(out, record, global_size=1000, local_size=10)
    np.testing.assert_array_equal(out, 100 + np.arange(1000))
    assert record["f0"] == 100  # the caller's record is the caller's
    read = program.kernel("read_struct")
    record["f3"] = -(1 << 40)
    longs = np.zeros(37, np.int64)
    read(longs, record, global_size=37, local_size=5)
    np.testing.assert_array_equal(longs, -(1 << 40) + np.arange(37))


# ----------------------------------------------------------------------------------
# Arguments that do not fit: LaunchError naming the argument, nothing written.
# ----------------------------------------------------------------------------------

N = 8
INTS = np.zeros((N, 4), np.int32)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            (np.zeros((N, 4), np.float32), INTS, (1, 2, 3, 4), N),
            "argument 'a': expected an array of i32, got an array of float32",
        ),
        (
            (np.zeros(N * 4, np.int32), INTS, (1, 2, 3, 4), N),
            "argument 'a': a buffer of vector<4xi32> is an array whose last axis "
            "has its 4 lanes: got shape (32,) (a.reshape(-1, 4))",
        ),
        (
            (INTS, INTS, (1, 2, 3), N),
            "argument 'c': expected a vector<4xi32> as a tuple, list or 1-D array "
            "of 4 numbers, got 3 values",
        ),
        (
            (INTS, INTS, 5, N),
            "argument 'c': expected a vector<4xi32> as a tuple, list or 1-D array "
            "of 4 numbers, got int 5",
        ),
        (
            (INTS, INTS, (1, 2, 2**40, 4), N),
            "argument 'c': lane 2: 1099511627776 is out of range for i32",
        ),
        (
            (INTS, INTS, np.ones((2, 4), np.int32), N),
            "argument 'c': expected a vector<4xi32> as a tuple, list or 1-D array "
            "of 4 numbers, got an array of shape (2, 4)",
        ),
    ],
)
def test_wrong_vector_arguments(program, args, message):
    out = args[1]
    before = out.copy()
    with pytest.raises(mux.LaunchError) as error:
        program.kernel("int4_ops")(*args, global_size=N, local_size=4)
    assert message in str(error.value)
    np.testing.assert_array_equal(out, before)


def test_a_float3_buffer_has_four_lanes_not_three(program):
    x = np.zeros((N, 3), np.float32)
    with pytest.raises(mux.LaunchError) as error:
        program.kernel("float3_axpy")(x, x.copy(), 1.0, N, global_size=N)
    assert (
        "argument 'x': a buffer of vector<3xf32> is an array whose last axis has "
        "its 4 lanes (the 4th lane of a 3-element vector is padding): got shape "
        "(8, 3) (a.reshape(-1, 4))"
    ) in str(error.value)


def test_a_float3_by_value_takes_three_or_four_numbers():
    # v sits at 16 in the packed arguments, 16 bytes wide, and w after it at 32
    program = mux.compile(
        """
        kernel void f(global float *out, float3 v, float w) {
          int i = get_global_id(0);
          out[i] = v.x + v.y * 10.0f + v.z * 100.0f + w * i;
        }
        """,
        language="opencl",
    )
    kernel = program.kernel("f")
    out = np.zeros(6, np.float32)
    kernel(out, (1.0, 2.0, 3.0), 1000.0, global_size=6, local_size=2)
    np.testing.assert_array_equal(out, 321.0 + 1000.0 * np.arange(6))
    padded = np.array([4.0, 5.0, 6.0, 99.0], np.float32)  # a row of a float3 array
    kernel(out, padded, 1.0, global_size=6, local_size=3)
    np.testing.assert_array_equal(out, 654.0 + np.arange(6))
    with pytest.raises(mux.LaunchError, match=r"of 3 \(or 4\) numbers, got 2"):
        kernel(out, (1.0, 2.0), 1.0, global_size=6)


PACKED = np.dtype(  # numpy's default: no padding, so the members are misplaced
    [("a", "<i4"), ("b", "<f4"), ("c", "i1"), ("d", "<i8"), ("v", "<f4", (4,))]
)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            (3, 0.5, 1, 2, (1.0, 2.0, 3.0, 4.0)),
            "argument 'p': expected a numpy record of the struct's layout (48 "
            "bytes: i32 at 0, f32 at 4, i8 at 8, i64 at 16, f32 at 32, f32 at 36, "
            "f32 at 40, f32 at 44; `param.dtype` is one) or 48 bytes, got tuple",
        ),
        (b"\0" * 40, "or 48 bytes, got 40 bytes"),
        (np.zeros((), PACKED)[()], "has 33 bytes, the struct 48"),
        (
            np.zeros(
                (), np.dtype({"names": ["a"], "formats": ["<i8"], "itemsize": 48})
            )[()],
            "has int64 at offset 0, the struct i32",
        ),
        (
            np.zeros(
                (),
                np.dtype(
                    {
                        "names": ["a", "b", "c", "d"],
                        "formats": ["<i4", "<f4", "i1", "<i8"],
                        "offsets": [0, 4, 8, 9],  # d misplaced
                        "itemsize": 48,
                    }
                ),
            )[()],
            "has nothing at offset 16, the struct i64",
        ),
        (np.float32(1.0), "got a numpy float32 scalar"),
    ],
)
def test_wrong_struct_arguments(program, value, message):
    out = np.zeros((N, 4), np.float32)
    with pytest.raises(mux.LaunchError) as error:
        program.kernel("with_struct")(
            np.zeros(N, np.float32), out, value, global_size=N
        )
    assert message in str(error.value)
    assert not out.any()


def test_kernel_repr_and_dtypes_describe_the_parameters(program):
    kernel = program.kernel("with_struct")
    assert "p: !llvm.ptr (byval !llvm.struct<(i32, f32, i8, i64, vector<4xf32>)>)" in (
        repr(kernel)
    )
    assert program.kernel("int4_ops").params[2].dtype == np.dtype((np.int32, (4,)))
    # np.zeros(n, dtype) of a vector buffer's dtype is n vectors
    assert np.zeros(5, program.kernel("int4_ops").params[0].dtype).shape == (5, 4)


# ----------------------------------------------------------------------------------
# MLIR kernels with memrefs of vectors: the same forms, and bounds counted in vectors.
# ----------------------------------------------------------------------------------

COPY = """
func.func @shift(%a: memref<?xvector<4xf32>, 1>, %b: memref<?xvector<3xf32>, 1>,
                 %s: vector<4xf32>) attributes {mux.kernel = "entry-point"} {
  %x = arith.constant 0 : i32
  %i = mux.get_global_id %x
  %v = memref.load %a[%i] : memref<?xvector<4xf32>, 1>
  %w = arith.addf %v, %s : vector<4xf32>
  %t = vector.shuffle %w, %w [0, 1, 2] : vector<4xf32>, vector<4xf32>
  memref.store %t, %b[%i] : memref<?xvector<3xf32>, 1>
  func.return
}
"""


def test_mlir_memrefs_of_vectors_are_checked_in_vectors():
    kernel = mux.compile(COPY).kernel("shift")
    a = RNG.standard_normal((10, 4)).astype(np.float32)
    b = np.full((10, 4), -1.0, np.float32)
    kernel(a, b, (1.0, 2.0, 3.0, 4.0), global_size=10, local_size=5)
    np.testing.assert_array_equal(b[:, :3], a[:, :3] + np.float32([1.0, 2.0, 3.0]))
    assert (b[:, 3] == -1.0).all()  # a 3-element store leaves the padding lane
    with pytest.raises(mux.LaunchError) as error:
        kernel(a[:9].copy(), b, (1.0, 2.0, 3.0, 4.0), global_size=10)
    assert (
        "argument 'a': the array has 9 elements of vector<4xf32>, the launch needs "
        "10: work-item (9) accesses element 9"
    ) in str(error.value)
    with pytest.raises(mux.LaunchError) as error:
        kernel(a, b[:9].copy(), (1.0, 2.0, 3.0, 4.0), global_size=10)
    assert "argument 'b': the array has 9 elements of vector<3xf32>" in str(error.value)


def test_a_pointer_to_structs_takes_a_structured_array():
    # the importer sees bytes (memref<?xi8>): the array's bytes are the buffer
    kernel = mux.compile(
        """
        typedef struct { int a; float b; } pair_t;
        kernel void k(global const pair_t *in, global float *out) {
          int i = get_global_id(0);
          out[i] = in[i].a * in[i].b;
        }
        """,
        language="opencl",
    ).kernel("k")
    pairs = np.zeros(8, np.dtype([("a", "<i4"), ("b", "<f4")]))
    pairs["a"], pairs["b"] = np.arange(8), 0.5
    out = np.zeros(8, np.float32)
    kernel(pairs, out, global_size=8, local_size=4)
    np.testing.assert_array_equal(out, np.arange(8) * np.float32(0.5))
    kernel(pairs.view(np.uint8), out, global_size=8, local_size=4)  # its bytes
    np.testing.assert_array_equal(out, np.arange(8) * np.float32(0.5))


# A DMA through a pointer into a float4 buffer (llvm.getelementptr over
# vector<4xf32>, as an imported kernel has it): its bytes are checked too.
DMA4 = """
"memref.global"() <{sym_name = "tile", type = memref<16xvector<4xf32>, 3>,
                    initial_value, sym_visibility = "private"}> : () -> ()
func.func @dma4(%input: memref<?xvector<4xf32>, 1>, %output: memref<?xvector<4xf32>, 1>)
    attributes {mux.kernel = "entry-point"} {
  %tile = memref.get_global @tile : memref<16xvector<4xf32>, 3>
  %d0 = arith.constant 0 : i32
  %sixteen = arith.constant 16 : index
  %group = mux.get_group_id %d0
  %size = mux.get_enqueued_local_size %d0
  %n = mux.get_local_size %d0
  %x0 = arith.muli %group, %size : index
  %o = arith.index_cast %x0 : index to i64
  %bytes = arith.muli %n, %sixteen : index
  %in = builtin.unrealized_conversion_cast %input
      : memref<?xvector<4xf32>, 1> to !llvm.ptr<1>
  %src = llvm.getelementptr %in[%o] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, vector<4xf32>
  %read = mux.dma_read_1d %tile, %src width(%bytes)
      : memref<16xvector<4xf32>, 3>, !llvm.ptr<1>
  mux.dma_wait %read
  %l = mux.get_local_id %d0
  %i = mux.get_global_id %d0
  %v = memref.load %tile[%l] : memref<16xvector<4xf32>, 3>
  memref.store %v, %output[%i] : memref<?xvector<4xf32>, 1>
  func.return
}
"""


def test_a_dma_from_a_float4_buffer_is_checked_in_vectors():
    kernel = mux.compile(DMA4).kernel("dma4")
    data = RNG.standard_normal((40, 4)).astype(np.float32)
    out = np.zeros_like(data)
    kernel(data, out, global_size=40, local_size=16)  # 16, 16, 8
    np.testing.assert_array_equal(out, data)
    with pytest.raises(mux.LaunchError) as error:
        kernel(data[:39].copy(), out, global_size=40, local_size=16)
    assert (
        "argument 'input': the array has 39 elements of vector<4xf32>, the launch "
        "needs at least 40: work-item (39) accesses element 39"
    ) in str(error.value)


@pytest.mark.parametrize(
    ("type_", "message"),
    [
        ("i24", "parameter 'a': the runtime cannot pass an i24"),
        ("vector<4xi24>", "parameter 'a': the runtime cannot pass a vector<4xi24>"),
        (
            "memref<?xvector<2xi24>, 1>",
            "parameter 'a': no numpy type for vector<2xi24>",
        ),
    ],
)
def test_types_numpy_has_no_twin_for_are_refused_by_name(type_, message):
    source = (
        f'func.func @k(%a: {type_}) attributes {{mux.kernel = "entry-point"}} {{\n'
        "  func.return\n}"
    )
    with pytest.raises(mux.CompileError) as error:
        mux.compile(source).kernel("k")
    assert str(error.value) == f"kernel 'k': {message}"


FLOAT3_SHUFFLES = """\
__kernel void k(float3 v, __global float3 *out, __global const float4 *in,
                __global float2 *pairs) {
  size_t i = get_global_id(0);
  out[i] = v;
  float4 x = in[i];
  pairs[i] = x.wy + (float2)(v.z, x.x);
}
"""


def test_float3_stores_and_swizzles():
    """clang widens each float3 to four lanes with a poison one (a shuffle mask
    lane the backend prints as `poison`); four work-items storing the same float3
    side by side once made LLVM's x86 shuffle combiner abort the process."""
    kernel = mux.compile(FLOAT3_SHUFFLES, language="opencl").kernel("k")
    n = 18
    out = np.zeros((n, 4), np.float32)
    data = np.arange(n * 4, dtype=np.float32).reshape(n, 4)
    pairs = np.zeros((n, 2), np.float32)
    kernel((1.0, 2.0, 3.0), out, data, pairs, global_size=n, local_size=4)
    assert (out[:, :3] == [1.0, 2.0, 3.0]).all()
    np.testing.assert_array_equal(pairs[:, 0], data[:, 3] + 3.0)
    np.testing.assert_array_equal(pairs[:, 1], data[:, 1] + data[:, 0])


def test_a_buffer_of_wide_vectors_must_be_aligned():
    """A float16 buffer is 64-byte aligned in OpenCL C, and the kernel's loads may
    be aligned ones: a numpy array 16 bytes past a boundary is refused before the
    launch (it would fault), `mux.aligned` makes an aligned copy; a float buffer
    needs only 4."""
    kernel = mux.compile(
        "__kernel void k(__global float16 *a) { a[get_global_id(0)] *= 2.0f; }",
        language="opencl",
    ).kernel("k")
    raw = np.zeros(16 * 9, np.float32)
    skip = (-raw.ctypes.data % 64) // 4 + 4  # 16 bytes past a 64-byte boundary
    misaligned = raw[skip : skip + 16 * 8].reshape(8, 16)
    with pytest.raises(mux.LaunchError, match="not aligned to 64 bytes"):
        kernel(misaligned, global_size=8)
    data = mux.aligned(np.arange(128, dtype=np.float32).reshape(8, 16))
    assert data.ctypes.data % 128 == 0 and data.shape == (8, 16)
    kernel(data, global_size=8)
    np.testing.assert_array_equal(data, np.arange(128).reshape(8, 16) * 2.0)
    scalars = mux.compile(
        "__kernel void k(__global float *a) { a[get_global_id(0)] *= 2.0f; }",
        language="opencl",
    ).kernel("k")
    offset = np.ones(9, np.float32)[1:]  # 4-byte aligned only
    scalars(offset, global_size=8)
    assert (offset == 2.0).all()
