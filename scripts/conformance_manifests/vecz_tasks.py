"""Manifests of the vecz `task_01` .. `task_04` groups (their ktst_*.cpp):
small kernels written to exercise the vectoriser: copies, arithmetic, builtins,
selects, uniform and varying values. UnitCL's reference functions (kts's Ref_*)
are the functions of the element index x below, in the C types the tests use
(int, or float computed in float)."""

from __future__ import annotations

import numpy as np

from . import In, InOut, Launch, Out, Scalar, first_lanes, kts

I32, U32, F32 = np.int32, np.uint32, np.float32
N = kts.N
X = np.arange(N)
XF = X.astype(F32)


def ref(name: str, x: np.ndarray = X) -> np.ndarray:
    """kts's integer Ref_<name> of each x."""
    i = x.astype(np.int64)
    values = {
        "Identity": i,
        "A": 3 * i - 42,
        "B": 5 * i + 42,
        "PlusOne": i + 1,
        "MinusOne": i - 1,
        "Triple": 3 * i,
        "Opposite": -i,
        "Odd": i & 1,
    }
    if name in values:
        return values[name].astype(I32)
    if name == "Add":
        return ref("A", x) + ref("B", x)
    if name == "Mul":
        return ref("PlusOne", x) * ref("MinusOne", x)
    if name == "FMA":
        return ref("Mul", x) + ref("Triple", x)
    if name == "Ternary":
        return np.where(ref("Odd", x) != 0, 1, -1).astype(I32)
    raise KeyError(name)


NEGATIVE_OFFSET = XF - F32(3)  # Ref_NegativeOffset
FLOAT = XF * F32(2)  # Ref_Float


def one(*args, global_size=N, local_size=None, **kw) -> list[Launch]:
    return [Launch(args, global_size, local_size, **kw)]


def _mulhi() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a = (0x7FFF0000 + ref("A").astype(np.int64)).astype(I32)
    b = (0x43210000 + ref("B").astype(np.int64)).astype(I32)
    high = (a.astype(np.int64) * b.astype(np.int64)) >> 32
    return a, b, (high + ref("Odd")).astype(I32)


def _clz(x: np.ndarray) -> np.ndarray:
    """Leading zero bits of each 32-bit x (32 for 0)."""
    bits = np.zeros(x.size, U32)
    for k in range(32):
        bits += (x.astype(np.uint64) < (1 << (31 - k))).astype(U32)
    return bits


_A, _B, _MULHI = _mulhi()
_HALVES = ((X % 2) * 0.5).astype(F32)

MANIFESTS: dict[str, list[Launch]] = {
    "task_01.01_copy": one(In(ref("A")), Out(ref("A"))),
    "task_01.02_add": one(In(ref("A")), In(ref("B")), Out(ref("Add"))),
    "task_01.03_mul_fma": one(
        In(ref("PlusOne")),
        In(ref("MinusOne")),
        In(ref("Triple")),
        Out(ref("Mul")),
        Out(ref("FMA")),
    ),
    "task_01.04_ternary": one(
        In(ref("Odd")), Scalar(I32(1)), Scalar(I32(-1)), Out(ref("Ternary"))
    ),
    "task_01.05_broadcast": one(Out(ref("Identity"))),
    "task_01.06_broadcast_uniform": one(Out(np.full(N, 42, I32)), Scalar(I32(41))),
    "task_01.07_mulhi": one(In(_A), In(_B), In(ref("Odd")), Out(_MULHI)),
    "task_02.01_abs_builtin": one(
        In(ref("Opposite")), Out(ref("Identity").astype(U32))
    ),
    "task_02.02_dot_builtin": one(
        In(FLOAT), In(NEGATIVE_OFFSET), Out(NEGATIVE_OFFSET * FLOAT)
    ),
    "task_02.03_distance_builtin": one(
        In(FLOAT), In(NEGATIVE_OFFSET), Out(np.abs(NEGATIVE_OFFSET - FLOAT))
    ),
    "task_02.04_fabs_builtin": one(In(NEGATIVE_OFFSET), Out(np.abs(NEGATIVE_OFFSET))),
    "task_02.05_clz_builtin": one(In(X.astype(U32)), Out(_clz(X))),
    "task_02.06_clamp_builtin": one(
        In(FLOAT), Out(np.zeros(N, F32)), Scalar(F32(0)), Scalar(F32(0))
    ),
    "task_02.07_length_builtin": one(In(FLOAT), Out(np.abs(FLOAT))),
    "task_02.08_barrier_add": one(
        In(ref("A", np.arange(16))),
        In(ref("B", np.arange(16))),
        Out(np.ones(16, I32)),
        global_size=16,
        local_size=8,
        macros={"ARRAY_SIZE": "16"},
    ),
    "task_02.09_printf_add": one(
        In(ref("A", np.arange(16))),
        In(ref("B", np.arange(16))),
        Out(ref("Add", np.arange(16))),
        Out(np.zeros(16, I32)),
        global_size=16,
        macros={"ARRAY_SIZE": "16"},
    ),
    "task_02.10_modf_builtin": one(
        In(XF + _HALVES), Out(_HALVES.astype(F32)), Out(XF.copy())
    ),
}


def vec(values: np.ndarray, lanes: int) -> np.ndarray:
    """A buffer of `lanes`-element vectors from consecutive scalars (kts's
    BuildVec<n>Reference1D); 3 lanes are padded to 4 in memory."""
    rows = values.reshape(-1, lanes)
    if lanes != 3:
        return rows
    return np.concatenate([rows, np.zeros((rows.shape[0], 1), rows.dtype)], axis=1)


def ramp(name: str, count: int) -> np.ndarray:
    return ref(name, np.arange(count))


def counter(start: int, count: int, dtype) -> list[Launch]:
    """`count` work-items increment a counter from `start`: it ends at start +
    count, and the values they got back are start .. start + count - 1 in some
    order."""

    def each_once(got: np.ndarray) -> str | None:
        expected = np.arange(start, start + count)
        if np.array_equal(np.sort(got), expected):
            return None
        last = start + count - 1
        return f"the values returned are {sorted(got.tolist())}, not {start}..{last}"

    counter = InOut(np.array([start], dtype), np.array([start + count], dtype))
    args = (counter, Out(each_once, dtype, count))
    return [Launch(args, count, count)]


A4 = vec(ramp("A", 4 * N), 4)
_NEG4 = vec(np.arange(4 * N, dtype=F32) - F32(3), 4)
_FLOAT4 = vec(np.arange(4 * N, dtype=F32) * F32(2), 4)
_TRANSPOSED = np.empty((4 * N, 4), I32)
for _i in range(4 * N):
    _base = (_i - _i % 4) * 4 + _i % 4
    _TRANSPOSED[_i] = ref("A", np.array([_base, _base + 4, _base + 8, _base + 12]))
_BYTES_A = ref("A").view(np.uint8).reshape(N, 4)
_SIGNS3 = np.stack([-(X & 1), -(X & 2), -X], axis=1).astype(I32)
_SIGNS3_ANY = np.stack([-(X & 1), -(X & 2), 0 * X], axis=1).astype(I32)
"""all3's and any3's int3s, packed (the kernels vload3 them; the runtime takes
a pointer to int3 as rows of 4 lanes: the same bytes): -(x & 1), -(x & 2), and
-x or 0."""


def _msb(values: np.ndarray) -> np.ndarray:
    """Whether each int has its most significant bit set (OpenCL C's all/any)."""
    return values < 0


def _v2s2v2s(int4s: np.ndarray) -> np.ndarray:
    """Per row, s = the sum as uint, then (s + 1)(s + 2)(s + 3)(s + 4) mod 2^32."""
    s = int4s.astype(np.int64).sum(1) % 2**32
    product = np.ones(s.size, dtype=object)
    for k in range(1, 5):
        product = product * (s + k).astype(object) % 2**32
    return product.astype(np.int64).astype(U32).view(I32)


_MODF_IN = (np.arange(4 * N) + (np.arange(4 * N) % 2) * 0.5).astype(F32)

MANIFESTS.update(
    {
        "task_03.01_copy4": one(In(A4), Out(A4.copy())),
        "task_03.02_add4": one(
            In(A4), In(vec(ramp("B", 4 * N), 4)), Out(vec(ramp("Add", 4 * N), 4))
        ),
        "task_03.03_abs4_builtin": one(In(_NEG4), Out(np.abs(_NEG4))),
        "task_03.04_dot4_builtin": one(
            In(_NEG4), In(_FLOAT4), Out((_NEG4 * _FLOAT4).sum(1, dtype=F32))
        ),
        "task_03.05_distance4_builtin": one(
            In(_NEG4),
            In(_FLOAT4),
            Out(np.sqrt(((_NEG4 - _FLOAT4) ** 2).sum(1, dtype=F32))),
        ),
        "task_03.06_ternary4": one(
            In(vec(ramp("Odd", 4 * N), 4)),
            Scalar((1, 1, 1, 1)),
            Scalar((-1, -1, -1, -1)),
            Out(np.full((N, 4), -1, I32)),  # the vector select tests the top bit
        ),
        "task_03.07_transpose4": one(In(vec(ramp("A", 16 * N), 4)), Out(_TRANSPOSED)),
        "task_03.08_clz4_builtin": one(
            In(vec(np.arange(4 * N, dtype=U32), 4)), Out(vec(_clz(np.arange(4 * N)), 4))
        ),
        "task_03.09_clamp4_builtin": one(
            In(_FLOAT4), Out(np.zeros((N, 4), F32)), Scalar(F32(0)), Scalar(F32(0))
        ),
        "task_03.10_s2v_int": one(
            In(ref("A")), Out(np.repeat(ref("A")[:, None], 4, 1))
        ),
        "task_03.11_sum_reduce4": one(In(A4), Out(A4.sum(1, dtype=I32))),
        # uint sum of an int4 s, then (s + 1)(s + 2)(s + 3)(s + 4) as uint
        "task_03.12_v2s2v2s": one(In(A4), Out(_v2s2v2s(A4))),
        "task_03.13_copy2": one(
            In(vec(ramp("A", 2 * N), 2)), Out(vec(ramp("A", 2 * N), 2))
        ),
        "task_03.14_add2": one(
            In(vec(ramp("A", 2 * N), 2)),
            In(vec(ramp("B", 2 * N), 2)),
            Out(vec(ramp("Add", 2 * N), 2)),
        ),
        "task_03.15_copy3": one(
            In(vec(ramp("A", 3 * N), 3)),
            Out(first_lanes(vec(ramp("A", 3 * N), 3)), I32, (N, 4)),
        ),
        "task_03.16_add3": one(
            In(vec(ramp("A", 3 * N), 3)),
            In(vec(ramp("B", 3 * N), 3)),
            Out(first_lanes(vec(ramp("Add", 3 * N), 3)), I32, (N, 4)),
        ),
        "task_03.17_length4_builtin": one(
            In(_FLOAT4), Out(np.sqrt((_FLOAT4 * _FLOAT4).sum(1, dtype=F32)))
        ),
        "task_03.20_all3": one(
            In(_SIGNS3.reshape(-1, 4)), Out(_msb(_SIGNS3).all(1).astype(I32))
        ),
        "task_03.21_any3": one(
            In(_SIGNS3_ANY.reshape(-1, 4)), Out(_msb(_SIGNS3_ANY).any(1).astype(I32))
        ),
        "task_03.19_add4_i32_tid": one(
            In(A4), In(vec(ramp("B", 4 * N), 4)), Out(vec(ramp("Add", 4 * N), 4))
        ),
        "task_03.22_as_uchar4_uint": one(In(ref("A").view(U32)), Out(_BYTES_A.copy())),
        "task_03.23_as_uint_uchar4": one(In(_BYTES_A.copy()), Out(ref("A").view(U32))),
        "task_03.24_as_uint4_float4": one(
            In(vec(ramp("A", 4 * N), 4).view(F32)), Out(A4.view(U32))
        ),
        "task_03.25_as_ushort2_uchar4": one(
            In(_BYTES_A.copy()), Out(ref("A").view(np.uint16).reshape(N, 2))
        ),
        "task_03.26_atom_inc_builtin_int": counter(42, kts.localN, I32),
        "task_03.26_atom_inc_builtin_long": counter(42, kts.localN, np.int64),
        "task_03.27_atomic_inc_builtin": counter(42, kts.localN, I32),
        "task_03.29_modf4_builtin": one(
            In(vec(_MODF_IN, 4)),
            Out(vec(((np.arange(4 * N) % 2) * 0.5).astype(F32), 4)),
            Out(vec(np.arange(4 * N, dtype=F32), 4)),
        ),
    }
)


def _merged(names: list[str], block: int) -> np.ndarray:
    """The arguments `names` merged into one buffer, `block` elements of each in
    turn (N for one after the other, the local size for interleaved groups)."""
    parts = [ref(name).reshape(-1, block) for name in names]
    return np.stack(parts, axis=1).reshape(-1)


def _mul_fma(block: int, merged_inputs: bool) -> list[Launch]:
    """(x + 1)(x - 1) and that plus 3x, from three inputs merged into one buffer
    (`_merged`) to two outputs, or from three inputs to two outputs merged."""
    names = ["PlusOne", "MinusOne", "Triple"]
    if merged_inputs:
        args = (In(_merged(names, block)), Out(ref("Mul")), Out(ref("FMA")))
    else:
        args = (*(In(ref(n)) for n in names), Out(_merged(["Mul", "FMA"], block)))
    return one(*args, local_size=kts.localN)


def _work_items() -> np.ndarray:
    """Each work-item's {uint4 global id, uint4 group id} (groups of 16), as the
    bytes of the structs the kernel writes."""
    info = np.zeros((N, 8), U32)
    info[:, 0] = X
    info[:, 4] = X // kts.localN
    return info.view(np.uint8).reshape(-1)


def _samples() -> np.ndarray:
    """Two channels of 16 float samples: channel 1 holds i / 16, channel 0 zeros."""
    samples = np.zeros((2, 16), F32)
    samples[1] = np.arange(16) / 16
    return samples.view(np.uint8).reshape(-1)


_STRUCT3 = np.array((2, 1, 2), dtype=[("foo", I32), ("bar", I32), ("gee", I32)])[()]
_REVERSED = (N - 1 - X).astype(U32)
_PLUS4 = np.concatenate([np.zeros(4, I32), ref("A")])
_PLUS28 = np.concatenate([np.zeros(28, I32), ref("A")])

MANIFESTS.update(
    {
        "task_04.01_copy_constant_offset": one(In(ref("A")), Out(_PLUS4)),
        "task_04.02_copy_uniform_offset": one(
            In(ref("A")), Out(_PLUS28), Scalar(I32(7))
        ),
        "task_04.03_mul_fma_uniform_offset_load": _mul_fma(N, merged_inputs=True),
        "task_04.04_mul_fma_uniform_offset_store": _mul_fma(N, merged_inputs=False),
        "task_04.05_scatter": one(
            In(ref("A")),
            Out(
                np.where(np.arange(2 * N) % 2 == 0, ref("A", np.arange(2 * N) // 2), 0)
            ),
        ),
        "task_04.06_gather": one(In(ramp("A", 2 * N)), Out(ref("A", 2 * X))),
        "task_04.07_mul_fma_uniform_addr_load": _mul_fma(
            kts.localN, merged_inputs=True
        ),
        "task_04.08_mul_fma_uniform_addr_store": _mul_fma(
            kts.localN, merged_inputs=False
        ),
        "task_04.09_copy4_scalarized": one(In(ramp("A", 4 * N)), Out(ramp("A", 4 * N))),
        "task_04.10_alloca": one(Out(ref("Identity"))),
        "task_04.11_byval_struct": one(
            Out((X * 2 + 1 * 2).astype(I32)), Scalar(_STRUCT3)
        ),
        "task_04.12_work_item": one(Out(_work_items()), local_size=kts.localN),
        "task_04.13_struct_offset": one(
            Out(_samples()), Scalar(I32(1)), global_size=16
        ),
        "task_04.14_alloca4": one(Out(np.repeat(X[:, None], 4, 1).astype(I32))),
        **{
            f"task_04.{n}": one(In(ref("A")), Out(ref("A", N - 1 - X)), In(_REVERSED))
            for n in ("15_scatter_offset", "16_gather_offset")
        },
        "task_04.17_local_array": one(In(ref("A")), Out(ref("A")), local_size=1),
        "task_04.18_private_array": one(
            In(ref("A")), Out(np.full(N, ref("A", np.arange(16)).sum(), I32))
        ),
    }
)
