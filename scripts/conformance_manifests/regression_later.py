"""Manifests of more of the `regression` group (UnitCL's ktst_regression_0*.cpp;
`regression.py` has the first ones): builtin ids taken by parameter or stored
through packed structs, rotates, strides of packed records, 3-element vectors,
loops and branches the vectoriser once got wrong. The references are the facts
the tests state (constants, formulas of the element index), in numpy.

Left for the PoCL oracle (`--vs-pocl`): the `75_partial_linearization*` and
`81..84` BOSCC kernels, whose tests state their results only as a C copy of
the kernel's control flow."""

from __future__ import annotations

import numpy as np

from . import In, InOut, Launch, Local, Out, Scalar, first_lanes, kts
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


_ROTATED = np.array([0xA5C30FF4, 0xA5C30FF4, 0x5C30FF4A, 0xE187FA52], U32)
"""0xA5C30FF4 rotated left by 0, 32, 4 and 7 bits."""

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
