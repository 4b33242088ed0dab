"""Manifests of more of the `regression` group (UnitCL's ktst_regression_0*.cpp;
`regression.py` has the first ones): builtin ids taken by parameter or stored
through packed structs, rotates, strides of packed records, 3-element vectors,
loops and branches the vectoriser once got wrong. The references are the facts
the tests state (constants, formulas of the element index), in numpy.

Left for the PoCL oracle (`--vs-pocl`): the `75_partial_linearization*` and
the BOSCC kernels `81..84` and `94`, whose tests state their results only as a
C copy of the kernel's control flow."""

from __future__ import annotations

import numpy as np

from . import In, InOut, Launch, Local, Out, Scalar, compare, first_lanes, kts
from .regression import ref_a

I8, U8, U16, I32, U32, I64 = np.int8, np.uint8, np.uint16, np.int32, np.uint32, np.int64
F32, F64 = np.float32, np.float64
N, LN = kts.N, kts.localN
X = np.arange(N)


def _one(*args, global_size=N, local_size=None, **kw) -> list[Launch]:
    return [Launch(args, global_size, local_size, **kw)]


def _vec3(values: np.ndarray) -> np.ndarray:
    """3-element vectors from consecutive scalars, padded to 4 lanes in memory."""
    rows = values.reshape(-1, 3)
    return np.concatenate([rows, np.zeros((rows.shape[0], 1), rows.dtype)], axis=1)


_A3 = _vec3(ref_a(np.arange(3 * N)))

_RANGE, _LOCAL = (32, 16, 4), (8, 4, 2)
"""78's 3-D range: the output is indexed by the SYCL linear id, x slowest."""


def _bytes(records: np.ndarray) -> np.ndarray:
    """A buffer of packed structs, as the runtime takes one: its bytes."""
    return records.reshape(-1).view(I8)


def _packed3(values: np.ndarray) -> np.ndarray:
    """Consecutive scalars a kernel reads or writes with vload3 / vstore3 through
    a pointer to 3-element vectors, as the runtime takes that pointer's buffer
    (4 lanes a row): the same bytes."""
    return values.reshape(-1, 4)


def _id_parameter(local: bool) -> list[Launch]:
    """get_global_id(dim) / get_local_id(dim) for dim 0..3 (3: out of range, 0)."""
    ids = np.indices(_RANGE)
    if local:
        ids = ids % np.array(_LOCAL).reshape(3, 1, 1, 1)
    launches = []
    for dim in range(4):
        expected = ids[dim].reshape(-1) if dim < 3 else np.zeros(ids[0].size)
        launches.append(
            Launch(
                (Scalar(U32(dim)), Out(expected.astype(U32))),
                _RANGE,
                _LOCAL,
                label=f"dim {dim}",
            )
        )
    return launches


def _ids_in_records(fields: int) -> list[Launch]:
    """Each work-item's (get_global_id(0), (1), ...) in a packed record of
    `fields` uints, and the record's size: in a 1-D range only id 0 is not 0."""
    records = np.zeros((N, fields), U32)
    records[:, 0] = X
    return _one(Out(np.full(N, 4 * fields, U32)), Out(_bytes(records)))


def _stride(padded: bool) -> list[Launch]:
    """Packed records of a ulong4 (1, 2, 3, 4) and a uint 5 (and a padding uint
    never written), one per work-item of a 24 x 16 x 4 range, as uints."""
    record = [1, 0, 2, 0, 3, 0, 4, 0, 5] + ([0] if padded else [])
    expected = np.tile(np.array(record, U32), (24 * 16 * 4, 1))
    return _one(Out(_bytes(expected)), global_size=(24, 16, 4), local_size=(4, 4, 4))


def _ones_below_5(count: int, source, result) -> list[Launch]:
    """One work-item compares `count` maths functions of 1 with 5 under
    -cl-fast-relaxed-math (where they may become libm calls): 1 for each below."""
    return _one(
        In(np.ones(count, source)),
        Out(np.ones(count, result)),
        global_size=1,
        local_size=1,
        options="-cl-fast-relaxed-math",
    )


def _lcssa_hashes() -> tuple[np.ndarray, np.ndarray]:
    """106: src[x] = Ref_A(x) as ushort; hash(x) = hash(x - 1) * 40499 +
    src[x - 1] (mod 2^16, hash(0) = 0); dst[x] = src[x] if hash(x) is odd,
    else hash(x)."""
    src = ref_a(np.arange(16)).astype(U16)
    hashes = [0]
    for value in src[:-1]:
        hashes.append((hashes[-1] * 40499 + int(value)) % 65536)
    hash_ = np.array(hashes, U16)
    return src, np.where(hash_ & 1, src, hash_).astype(U16)


def _nested_loops(n: int = 16) -> np.ndarray:
    """76: 1 + the sum over i, j < gid of n * gid * j, for gid < n."""
    gid = np.arange(16, dtype=I64)
    return (1 + gid * n * gid * (gid * (gid - 1) // 2)).astype(I32)


def _varying_load(n: int = 10, meta: int = 1) -> np.ndarray:
    """80: with meta != 0, n * (meta + n) at even ids up to 10, else 0."""
    ids = np.arange(32)
    return np.where((ids <= 10) & (ids % 2 == 0), n * (meta + n), 0).astype(I32)


def _bits_of(expected: np.ndarray):
    """A check that the output has exactly `expected`'s bits (a NaN's payload
    too, which a comparison of floats does not see)."""

    def check(got: np.ndarray) -> str | None:
        return compare(expected.view(I64), got.view(I64))

    return check


def _loop_bypass(bound: int = 16) -> tuple[np.ndarray, np.ndarray]:
    """91: val = x - 33; val + 1 from 4 up; a negative val raised by `bound`
    until it is not negative (its remainder modulo `bound`)."""
    val = (X - 33).astype(I32)
    out = np.where(val >= 4, val + 1, np.where(val < 0, val % bound, val))
    return val, out.astype(I32)


def _divided(r: int = 1234) -> np.ndarray:
    """92: r / ((id * 237) & 15), or r where that is 0."""
    div = (X * 237) & 0xF
    return np.where(div != 0, r // np.maximum(div, 1), r).astype(I32)


def _byval_structs() -> list:
    """103: three {int foo, bar, gee} by value: (2, 1, 2), (4, 3, 5), (6, 9, 7)."""
    record = np.dtype([("foo", I32), ("bar", I32), ("gee", I32)])
    return [np.array(v, record)[()] for v in ((2, 1, 2), (4, 3, 5), (6, 9, 7))]


_NESTED = np.dtype([("s", I8), ("t_s", I8), ("t_t", I8)])
"""107's struct of nested one-char structs: s.s.s.a, t.s.s.s.a, t.t.a."""
_POW_X, _POW_Y = np.array(
    [
        (0x3FAB763F, 0xC38E5D1B),
        (0x3FAA757A, 0xC393E0E4),
        (0x3FA97876, 0xC3947907),
        (0x3FABCCAC, 0xC38E85E1),
        (0x3FAB3503, 0x43987EDA),
        (0x3FABB406, 0xC380ABED),
        (0x3FA9F5E4, 0xC38F0B18),
    ],
    U32,
).T.copy()
_POW = (_POW_X.view(F32).astype(F64) ** _POW_Y.view(F32).astype(F64)).astype(F32)
"""87: pow(x, y) of the CTS's inputs, in double, 16 ulp."""
# 93's int2s (Ref_A(i), 0), as many as the second test reads
_INT2_A = np.stack([ref_a(X[: N // 2 * 3 // 2]), 0 * X[: N // 2 * 3 // 2]], 1)
_BYPASS_IN, _BYPASS_OUT = _loop_bypass()
_NAN_BITS = np.full(3, 0x7FF0000000000001, np.uint64)


_ROTATED = np.array([0xA5C30FF4, 0xA5C30FF4, 0x5C30FF4A, 0xE187FA52], U32)
"""0xA5C30FF4 rotated left by 0, 32, 4 and 7 bits."""

# 68's and 77's 32 "random" bytes
_LOAD16 = np.array(
    [
        [54, 61, 29, 76, 56, 26, 75, 63, 29, 86, 57, 34, 37, 15, 91, 56],
        [51, 48, 19, 95, 20, 78, 73, 32, 75, 51, 8, 29, 56, 34, 85, 45],
    ],
    U8,
).reshape(-1)
_GREATER_A = np.tile(np.array([2.0, 2.0, 1.0, 1.0], F64), 3 * N // 4)
_GREATER_B = np.tile(np.array([1.0, 2.0, 2.0, 1.0], F64), 3 * N // 4)
_GREATER = np.where(_GREATER_A > _GREATER_B, -1, 0).astype(I64)
_LCSSA_SRC, _LCSSA_DST = _lcssa_hashes()

MANIFESTS: dict[str, list[Launch]] = {
    "regression.12_isgreater_double3_vloadstore": _one(
        *(In(_packed3(v)) for v in (_GREATER_A, _GREATER_B)),
        *(Out(_packed3(_GREATER)) for _ in range(2)),
    ),
    # packed float3s (x, x + 0.2f, x + 0.5f) and sizeof a 64-byte struct
    "regression.36_struct_sizeof": _one(
        Out(_packed3(np.stack([X, X + F32(0.2), X + F32(0.5)], 1).astype(F32))),
        Out(np.full(N, 64, U32)),
    ),
    # out[x + 4 y] = in[2 (x + 4 y)] + in[2 (x + 4 y) + 1], a 4 x 4 range
    "regression.68_load16": _one(
        Out(_LOAD16[0::2] + _LOAD16[1::2]),
        In(_LOAD16),
        Scalar(I32(4)),
        global_size=(4, 4),
        local_size=(4, 4),
    ),
    "regression.70_kernel_call_kernel": _one(
        Out(kts.identity(dtype=U32)), In(kts.identity(dtype=U32))
    ),
    "regression.71_global_id_array3": _ids_in_records(3),
    "regression.71_global_id_array4": _ids_in_records(4),
    "regression.71_global_id_elements": _ids_in_records(3),
    "regression.72_rotate_by_variable": _one(
        In(np.full(4, 0xA5C30FF4, U32)),
        In(np.array([0, 32, 4, 7], U32)),
        Out(_ROTATED),
        global_size=4,
    ),
    "regression.73_rotate_by_literal": _one(
        In(np.full(4, 0xA5C30FF4, U32)), Out(_ROTATED), global_size=1
    ),
    "regression.74_stride_aligned": _stride(True),
    "regression.74_stride_misaligned": _stride(False),
    "regression.76_boscc_nested_loops": _one(
        Out(_nested_loops()), Scalar(I32(16)), global_size=16, local_size=16
    ),
    "regression.78_global_id_parameter": _id_parameter(False),
    "regression.78_local_id_parameter": _id_parameter(True),
    # out[get_global_id(0)] = get_global_id(get_global_id(dim)): 0 for dim 0
    # (ids past 0 name dimensions whose id is 0), x otherwise
    "regression.79_global_id_self_parameter": [
        Launch(
            (Scalar(U32(0)), Scalar(U32(dim)), Out((X if dim else 0 * X).astype(U32))),
            N,
            label=f"dim {dim}",
        )
        for dim in range(4)
    ],
    "regression.79_global_id_zero_parameter": _one(
        Scalar(U32(0)), Out(np.zeros(N, U32))
    ),
    "regression.80_varying_load": _one(
        Out(_varying_load()),
        Scalar(I32(10)),
        In(np.array([1], I32)),
        global_size=32,
        local_size=16,
    ),
    # a division by zero whose result is unused: every item stores its id
    # 8 inputs 1..8, their prefix products, by 4 items of two each
    "regression.85_scan_fact": _one(
        Out(np.cumprod(np.arange(1, 9)).astype(I32)),
        In(np.arange(1, 9, dtype=I32)),
        global_size=4,
        local_size=4,
    ),
    "regression.86_store_local": _one(
        Out(np.full(8, 3, I32)), Scalar(I32(3)), global_size=8, local_size=2
    ),
    "regression.87_pow_powr": _one(
        In(_POW_X.view(F32)),
        In(_POW_Y.view(F32)),
        Out(_POW, ulp=16),
        Out(_POW, ulp=16),
        global_size=_POW.size,
    ),
    **{
        f"regression.88_{name}": _one(Out(np.ones(N, F32)), Scalar(I64(N)))
        for name in ("scalar_loop_tail", "vstore_loop")
    },
    "regression.89_multiple_local_memory_kernels": _one(
        In(kts.identity(16)),
        Out(kts.identity(16)),
        global_size=16,
        local_size=1,
        macros={"LOCAL_X": "1"},
    ),
    # item 0 copies the group's local ids out: only the first group's
    "regression.90_offline_local_memcpy": _one(
        Local(LN, I32), Out(kts.identity(LN)), global_size=LN, local_size=LN
    ),
    "regression.90_offline_local_memcpy_fixed": _one(
        Local(17, I32), Out(kts.identity(17)), global_size=17, local_size=17
    ),
    "regression.91_loop_bypass_branch": _one(
        In(_BYPASS_IN), Out(_BYPASS_OUT), Scalar(I32(16))
    ),
    "regression.92_danger_div_hoist": _one(
        Out(_divided()), Scalar(I32(1234)), local_size=LN
    ),
    "regression.92_danger_div_hoist_long": _one(
        Out(_divided()), Scalar(I64(1234)), local_size=LN
    ),
    # out[x] = in[x >> 1].x and in[(3 x) >> 1].x of int2s (Ref_A(i), 0)
    "regression.93_ashr_index_underflow_1": _one(
        In(_INT2_A[: N // 2].astype(I32)), Out(ref_a(X >> 1)), local_size=LN
    ),
    "regression.93_ashr_index_underflow_2": _one(
        In(_INT2_A.astype(I32)),
        Out(ref_a((3 * X[: N // 2]) >> 1)),
        global_size=N // 2,
        local_size=LN,
    ),
    "regression.95_illegal_uniform_stride": _one(
        Out(np.where(X >= 1, ref_a(X - 1), 0).astype(I32)),
        In(ref_a(X)),
        local_size=LN,
    ),
    # every item stores 7 (id * 0 + 7) to element 3
    "regression.98_store_uniform_pointer": _one(
        InOut(np.full(8, 42, I32), np.where(np.arange(8) == 3, 7, 42).astype(I32)),
        Scalar(I32(0)),
        global_size=8,
    ),
    # a NaN's bits (exponent all ones, mantissa 1) through as_double3
    "regression.99_as_double3_inline": _one(
        In(_NAN_BITS.view(I64)),
        Out(_bits_of(_NAN_BITS.view(F64)), F64, 3),
        global_size=1,
        local_size=1,
    ),
    # out[x] = x * 2 + (5 * 10 + 21) from the three structs' (foo - bar) * gee
    "regression.103_byval_struct_align": _one(
        Out((2 * X + 71).astype(I32)),
        Scalar(np.uint64(2**64 - 1)),
        In(ref_a(X)),
        Scalar(np.uint64(2**64 - 1)),
        Scalar(np.array([0xFEFEFEFE], U32).view(I32)[0]),
        *(Scalar(v) for v in _byval_structs()),
    ),
    # s1.t.t.a + v + w = 2 + 7 + 9 and s2.t.s.s.s.a + v + w = 6 + 7 + 9
    "regression.107_byval_struct_align": _one(
        Scalar(np.array((2, 5, 2), _NESTED)[()]),
        Scalar(I32(7)),
        Out(np.full(16, 18, I32)),
        Scalar(np.array((4, 6, 5), _NESTED)[()]),
        Scalar(I32(9)),
        Out(np.full(16, 22, I32)),
        global_size=16,
    ),
    # native_* of 1.0 under -cl-fast-relaxed-math, none reaching 5: all 1
    "regression.109_libm_native_double_input": _ones_below_5(14, F64, U32),
    # the addresses of short3, pointer, float and long4 fields of six structs
    # in a buffer, masked by their alignments less one: all aligned (the
    # structs' contents do not matter: 6 of 96 bytes each)
    "regression.33_struct_param_alignment": _one(
        In(np.zeros(6 * 96, I8)),
        In(np.array([7, 7, 3, 3, 3, 31], np.uint64)),
        Out(np.zeros(6, np.uint64)),
    ),
    # pairs (v1, v2) of positive chars: out = (v2, 0) where v1 + v2 >= 0
    "regression.77_masked_interleaved_group": _one(
        Out(np.stack([_LOAD16[1::2], 0 * _LOAD16[1::2]], 1).reshape(-1).view(I8)),
        In(_LOAD16.view(I8)),
        global_size=16,
        local_size=4,
    ),
    # exp, log, sin, ... (and their native_ forms) of 1 stay below 5
    "regression.97_libm_functions": _ones_below_5(14, F32, F32),
    "regression.97_libm_functions_double": _ones_below_5(7, F64, F64),
    "regression.100_integer_zero_divide": _one(InOut(ref_a(X), X.astype(I32))),
    "regression.101_extract_vec3": _one(
        In(_A3), *(Out(_A3[:, k].copy()) for k in range(3)), local_size=LN
    ),
    "regression.102_shuffle_vec3": _one(
        In(_A3), Out(first_lanes(_A3[:, [1, 2, 0, 3]]), I32, (N, 4)), local_size=LN
    ),
    "regression.104_async_work_group_copy_int3": _one(
        In(_A3),
        Out(first_lanes(_A3), I32, (N, 4)),
        Local(4 * LN, I32),
        local_size=LN,
    ),
    # every item but 0 stores the same three int3s: (10, 10, src[0]),
    # (src[1], 11, 11), (12, src[2], 12)
    "regression.105_alloca_boscc_confuser": _one(
        In(np.arange(1, 33, dtype=I32)),
        Out(np.array([10, 10, 1, 2, 11, 11, 12, 3, 12], I32)),
    ),
    "regression.106_varying_lcssa_phi": _one(
        In(_LCSSA_SRC), Out(_LCSSA_DST), global_size=16
    ),
    "regression.108_absdiff_int": _one(
        In(np.array([0x8C7F0AAC], U32).view(I32)),
        In(np.array([0x1902F8C8], I32)),
        Out(np.array([0x8C83EE1C], U32)),
        global_size=1,
    ),
}
