"""Manifests of the `regression` group (UnitCL's ktst_regression_0*.cpp): kernels
that once broke a compiler (casts, shuffles, vector loads, selects, strides,
allocas, barriers in 2-D and 3-D ranges...), each with the inputs and the
expected outputs its test states. `kts.ref_a` / `ref_b` are UnitCL's Ref_A and
Ref_B (3x - 42, 5x + 42); `vec4(f)` fills a 4-lane buffer element x from f at
4x .. 4x + 3, as kts's BuildVec4Reference1D does."""

from __future__ import annotations

import numpy as np

from . import In, InOut, Launch, Local, Out, Scalar, kts

I16, I32, I64, U32, U64 = np.int16, np.int32, np.int64, np.uint32, np.uint64
F32, F64 = np.float32, np.float64
N, LN = kts.N, kts.localN
X = np.arange(N)


def ref_a(x: np.ndarray) -> np.ndarray:
    return (3 * x - 42).astype(I32)


def ref_b(x: np.ndarray) -> np.ndarray:
    return (5 * x + 42).astype(I32)


def vec4(fn, count: int = N) -> np.ndarray:
    return fn(np.arange(4 * count)).reshape(count, 4)


def splat4(values: np.ndarray) -> np.ndarray:
    return np.repeat(values[:, None], 4, axis=1)


def _one(*args, global_size=N, local_size=None, **kw) -> list[Launch]:
    return [Launch(args, global_size, local_size, **kw)]


def _group_info(lanes: int) -> np.ndarray:
    """Group g's (id 0, id 1, id 2, linear id) of an 8 x 4 x 2 range in 4 x 2 x 1
    groups (2 x 2 x 2 of them), twice over for 8 lanes."""
    rows = [(g0, g1, g2, g2 * 4 + g1 * 2 + g0) for g2, g1, g0 in np.ndindex(2, 2, 2)]
    return np.tile(np.array(rows, I32), (1, lanes // 4))


_MAD_SAT = np.array(
    [
        (6, 0x5972C40A98CEEF9A, 0, 0x7FFFFFFFFFFFFFFF),
        (3037000499, 3037000499, 1, 0x7FFFFFFE9EA1DC2A),
        (6, 3, 0x7FFFFFFFFFFFFFFF, 0x7FFFFFFFFFFFFFFF),
        (
            0x7FFFFFFFFFFFFFFF,
            0x7FFFFFFFFFFFFFFF,
            0x7FFFFFFFFFFFFFFF,
            0x7FFFFFFFFFFFFFFF,
        ),
        (-(2**63), 1, -1, -(2**63)),
        (4406688104284751, -1, 619354410, -4406687484930341),
    ],
    dtype=object,
)
"""mad_sat(a, b, c) = saturate(a * b + c) on long: (a, b, c, result) rows."""


def _mad_sat_columns() -> list[np.ndarray]:
    rows = _MAD_SAT[X % len(_MAD_SAT)]
    return [np.array(list(rows[:, k]), I64) for k in range(4)]


_SQUARES = (X * X).astype(I32)
_CLEAR4 = np.array([180, 181, 182, 183], I32)
_A4 = splat4(ref_a(X))
_LATE = X >= 125


def _select_late(even: bool, a: np.ndarray, clear: np.ndarray) -> np.ndarray:
    """From x = 125 on, `a` at even (or odd) x; `clear` elsewhere."""
    keep = _LATE & ((X % 2 == 0) == even)
    if a.ndim == 1:
        return np.where(keep, a, clear).astype(I32)
    return np.where(keep[:, None], a, clear[None, :]).astype(I32)


MANIFESTS: dict[str, list[Launch]] = {
    "regression.01_pointer_to_long_cast": _one(In(kts.identity()), macros={"N": "256"}),
    "regression.02_work_dim": _one(Out(np.ones(N, U32))),
    "regression.03_shuffle_cast": _one(
        In(np.full(16, 7, I16)),
        Out(np.where(np.arange(8 * N) % 8 == 3, 7, 0).astype(I16).reshape(N, 8)),
    ),
    "regression.04_shuffle_copy": _one(
        In(np.arange(2 * N, dtype=I32).reshape(N, 2)),
        Out(
            np.where(np.arange(8 * N) % 8 == 0, np.arange(8 * N) // 8 * 2, 0)
            .astype(I32)
            .reshape(N, 8)
        ),
    ),
    "regression.05_bit_shift": _one(In(kts.identity()), Out((X << 3).astype(I32))),
    "regression.06_cross_elem4_zero": _one(
        In(vec4(lambda y: (2.0 * y).astype(F32))),
        In(vec4(lambda y: (2.0 * y).astype(F32))),
        Out(np.zeros((N, 4), F32)),
    ),
    "regression.07_mad_sat_long": _one(
        *(In(c) for c in _mad_sat_columns()[:3]), Out(_mad_sat_columns()[3])
    ),
    "regression.08_mem2reg_bitcast": _one(Out(np.ones(N, I32))),
    "regression.09_mem2reg_store": _one(Out(np.full(N, 42, U64))),
    "regression.10_dont_mask_workitem_builtins": _one(
        In(((X + 2) * 3).astype(I32)),
        Out(np.where(X % LN > 0, (X + 2) * 3, 42).astype(I32)),
        local_size=LN,
    ),
    "regression.11_interleavedgroupcombine_safety": _one(
        *(
            In(np.tile(np.array(row, F64), (N, 1)))
            for row in (
                (1, 2, 3, 4),
                (2, 3, 4, 5),
                (3, 4, 5, 6),
                (4, 5, 6, 7),
                (2, 5, 2, 7),
            )
        ),
        Out(np.tile(np.array([-7.0, -11.0, -80.0, -27.0]), (N, 1))),
    ),
    "regression.13_varying_alloca": _one(
        In(np.stack([X[:64], X[:64] + 1, X[:64] - 1, 2 * X[:64]], 1).astype(I32)),
        Out(np.stack([X[:64], X[:64] + 1, X[:64] - 1, 2 * X[:64]], 1).astype(I32)),
        global_size=64,
    ),
    "regression.14_argument_stride": _one(
        In(np.arange(3 * N, dtype=I32)),
        Out(np.where(np.arange(3 * N) % 3 == 0, np.arange(3 * N), 1).astype(I32)),
        Scalar(I32(3)),
    ),
    "regression.15_negative_stride": _one(
        In(_SQUARES), Out(_SQUARES[::-1] + _SQUARES), Scalar(I32(N - 1))
    ),
    "regression.16_negative_argument_stride": _one(
        In(_SQUARES),
        Out(_SQUARES[::-1] + _SQUARES),
        Scalar(I32(-1)),
        Scalar(I32(N - 1)),
    ),
    "regression.17_scalar_select_transform": _one(
        In(_A4),
        In(splat4(ref_b(X))),
        Out(np.where((X % 2 == 0)[:, None], _A4, splat4(ref_b(X))).astype(I32)),
    ),
    "regression.17_scalar_select_transform_2": _one(
        In(ref_a(X)),
        Out(_select_late(True, ref_a(X), np.full(N, 180))),
        Out(_select_late(False, ref_a(X), np.full(N, 180))),
        Scalar(I32(180)),
    ),
    "regression.17_scalar_select_transform_3": _one(
        In(_A4),
        Out(_select_late(True, _A4, _CLEAR4)),
        Out(_select_late(False, _A4, _CLEAR4)),
        Scalar(tuple(int(v) for v in _CLEAR4)),
    ),
    "regression.18_uniform_alloca": _one(
        In(ref_a(np.arange(2))),
        Out(
            np.where(
                np.arange(2 * N) < 2,
                ref_a(np.arange(2 * N)),
                np.where(np.arange(2 * N) % 2 == 0, 11, 13),
            ).astype(I32)
        ),
    ),
    "regression.19_memcpy_optimization": _one(
        In(np.stack([X, X + 11, X + 12, X + 13], 1).astype(I32)),
        Out(np.stack([X, X + 11, X + 12, X + 13], 1).astype(I32)),
    ),
    **{
        f"regression.20_group_barrier_{n}": _one(
            Out(_group_info(lanes)),
            global_size=(8, 4, 2),
            local_size=(4, 2, 1),
            macros={"GROUP_RANGE_1D": "2", "GROUP_RANGE_2D": "2"}
            | ({"LOCAL_ITEMS_1D": "4", "LOCAL_ITEMS_2D": "2"} if lanes == 8 else {}),
        )
        for n, lanes in ((0, 4), (1, 4), (2, 8), (3, 8))
    },
    "regression.20_group_barrier_4": _one(
        Out(np.full(2, 7, I32)),
        global_size=(4, 2),
        local_size=(2, 2),
        macros={"LOCAL_ITEMS_1D": "2", "GROUP_RANGE_1D": "2"},
    ),
    "regression.21_unaligned_load": _one(
        In(np.arange(3 * N, dtype=I32)), Out(np.arange(3 * N, dtype=I32))
    ),
    "regression.22_unaligned_load2": _one(
        In(np.arange(2 * N, dtype=I32)), Out(np.arange(2 * N, dtype=I32))
    ),
    "regression.23_shuffle_copy": _one(
        In(np.arange(1, 33, dtype=I32)),
        Out(np.array([10, 10, 1, 2, 11, 11, 12, 3, 12], I32)),
    ),
    "regression.24_memop_loop_dep": _one(
        In(vec4(ref_a)), Out(vec4(ref_a)), Scalar(I32(0)), Scalar(I32(1))
    ),
    "regression.25_multiple_inlining": _one(
        In(ref_a(X)), Out(ref_a(X)), kernel="multiple_inlining"
    ),
}


def _masked_addresses(masks: list[int], **kw) -> list[Launch]:
    """Kernels that write `address & mask` of variables: all 0 when each is as
    aligned as its mask says."""
    mask = np.array(masks, U64)
    return [Launch((In(mask), Out(np.zeros(mask.size, U64))), N, **kw)]


_LOCAL_ALIGNMENT = {  # masks of TYPE, TYPE[], TYPE2[], TYPE3[], TYPE4[], TYPE8/16[]
    "short": [1, 1, 3, 7, 7, 15, 31],
    "int": [3, 3, 7, 15, 15, 31, 63],
    "double": [7, 7, 15, 31, 31, 63, 127],
}
_MEMBER_ALIGNMENT = {
    "char16": 15,
    "char8": 7,
    "short3": 7,
    "short4": 7,
    "int3": 11,
    "int8": 31,
    "double3": 31,
    "double8": 63,
}


def _sums_of(reps: int, items: int, times: int) -> np.ndarray:
    """Work-item x's sum of the identity at x * reps .. x * reps + reps - 1."""
    return (np.arange(items * reps).reshape(items, reps).sum(1) * times).astype(I32)


MANIFESTS.update(
    {
        "regression.27_divergent_atomics": _one(
            Out(np.array([2 * LN], U32)), global_size=LN, local_size=LN
        ),
        "regression.28_uniform_atomics": _one(
            Out(np.array([LN], I32)), global_size=LN, local_size=LN
        ),
        "regression.29_divergent_memfence": _one(Scalar(I32(1)), Out(kts.identity())),
        "regression.30_local_alignment": [
            launch
            for size in range(2, 11)
            for name, masks in _LOCAL_ALIGNMENT.items()
            for launch in _masked_addresses(
                masks,
                macros={"SIZE": str(size), "TYPE": name}
                | {f"TYPE{n}": f"{name}{n}" for n in (2, 3, 4, 8, 16)},
                label=f"{size} {name}",
            )
        ],
        **{
            f"regression.31_local_struct_alignment{suffix}": [
                launch
                for align in (8, 16, 32, 64, 128, 256)
                for launch in _masked_addresses(
                    [align - 1] * 3,
                    macros={"ALIGN": str(align)},
                    label=f"align {align}",
                )
            ]
            for suffix in ("", "2", "3")
        },
        "regression.32_struct_member_alignment": [
            launch
            for name, mask in _MEMBER_ALIGNMENT.items()
            for launch in _masked_addresses(
                [mask, 7, 63], macros={"TYPE": name}, label=name
            )
        ],
        "regression.34_codegen_1": _one(
            *[In(np.arange(4096, dtype=I32))] * 3,
            Out(_sums_of(4, 1024, 3)),
            In(np.full(3, 4096, I32)),
            Scalar(I32(4)),
            global_size=1024,
            local_size=512,
        ),
        "regression.34_codegen_2": _one(
            In(np.arange(2048, dtype=I32)),
            Out(_sums_of(4, 512, 1)),
            Scalar(I32(2048)),
            Scalar(I32(4)),
            global_size=512,
            local_size=256,
        ),
        "regression.35_constant_struct_alignment": _masked_addresses([3, 7, 15]),
    }
)


def _fract_floor() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x = (i % 12) * 1.1 in double, its fract and its floor."""
    x = (np.arange(3 * N) % 12) * 1.1
    return x, x - np.floor(x), np.floor(x)


def _shuffle_float16() -> tuple[np.ndarray, np.ndarray]:
    source = np.zeros((2, 16), F32)
    source[1] = [0, 1, 2, 4, 8, 16, 32, 64, -0.0, -1, -2, -4, -8, -16, -32, -64]
    dest = np.zeros((2, 16), F32)
    dest[1] = [-2, 0, -4, 0, -0.0, 0, 0, 0, -0.0, 0, -0.0, -1, 0, 32, 16, 0]
    return source, dest


_CONVERTS = ("", "_rte", "_rtz", "_rtn", "_rtp", "_sat", "_sat_rte", "_sat_rtz")
_CONVERTS += ("_sat_rtn", "_sat_rtp")


def _convert3(out_type: str, in_type: str) -> list[Launch]:
    """Chars (0..127) or uchars (x mod 256) widened to (u)short by the file's
    CONVERT_FUNCTION, in every rounding and saturation form."""
    x = np.arange(3 * N)
    source = (
        np.minimum(x, 127).astype(np.int8) if in_type == "char" else x.astype(np.uint8)
    )
    dtype = I16 if out_type == "short" else np.uint16
    return [
        Launch(
            (In(source), Out(source.astype(dtype))),
            N,
            macros={"CONVERT_FUNCTION": f"convert_{out_type}3{suffix}"},
            label=f"convert_{out_type}3{suffix}",
        )
        for suffix in _CONVERTS
    ]


def _mad_sat3(signed: bool) -> list[Launch]:
    x = np.arange(3 * N) % 65535
    y = x - 32768 if signed else x
    low, high = (-32768, 32767) if signed else (0, 65535)
    dtype = I16 if signed else np.uint16
    data = y.astype(dtype)
    return _one(*[In(data)] * 3, Out(np.clip(y * y + y, low, high).astype(dtype)))


_X40, _FRACT, _FLOOR = _fract_floor()
_SOURCE41, _DEST41 = _shuffle_float16()
_CHAR8 = np.arange(10, 18, dtype=np.int8).reshape(1, 8)
_CHAR16 = np.zeros((1, 16), np.int8)
_CHAR16[0, 5], _CHAR16[0, 11] = 13, 17

MANIFESTS.update(
    {
        "regression.37_cfc": _one(
            In(ref_a(np.arange(N // 2))),
            Out(np.where(X < N // 2, X, ref_a(X % 32)).astype(I32)),
            Scalar(I32(N // 2)),
            macros={"CHUNK_SIZE": "32"},
        ),
        "regression.38_attribute_align": [
            launch
            for align in (8, 16, 32, 64, 128, 256)
            for launch in _masked_addresses(
                [align - 1] * 3 + [2 * align - 1] * 3,
                macros={"ALIGN1": str(align), "ALIGN2": str(2 * align)},
                label=f"align {align}",
            )
        ],
        "regression.39_struct_helper_func": _masked_addresses([7, 7]),
        "regression.40_fract_double3": _one(In(_X40), Out(_FRACT), Out(_FLOOR)),
        "regression.41_shuffle_copy": _one(In(_SOURCE41), Out(_DEST41), global_size=1),
        "regression.42_shuffle_function_call": _one(
            In(_CHAR8), Out(_CHAR16), global_size=1
        ),
        "regression.43_scatter_gather": _one(
            Scalar(I32(64)),
            In(((X + 1) * 7).astype(U32)),
            Out((np.arange(N + 1) * 7).astype(U32)),
        ),
        "regression.44_short3_char3_codegen": _convert3("short", "char"),
        "regression.44_short3_uchar3_codegen": _convert3("short", "uchar"),
        "regression.44_ushort3_char3_codegen": _convert3("ushort", "char"),
        "regression.44_ushort3_uchar3_codegen": _convert3("ushort", "uchar"),
        "regression.45_mad_sat_short3_codegen": _mad_sat3(True),
        "regression.45_mad_sat_ushort3_codegen": _mad_sat3(False),
        "regression.46_local_vecalign": _one(Out(np.zeros(N, U64))),
        "regression.47_packed_struct": _one(Out(np.full(N, 2, U64))),
    }
)


def _pairs_swapped() -> np.ndarray:
    return (X ^ 1).astype(I32)


def _kernel_arg_phi() -> np.ndarray:
    """888 bytes: 'A' every 8th, 'B' at the other multiples of 4, else 0."""
    x = np.arange(23 * 8 + 8 * 16 + 4 * 9 * 16)
    return np.where(x % 8 == 0, ord("A"), np.where(x % 4 == 0, ord("B"), 0)).astype(
        np.uint8
    )


_RANGES_60 = (((12, 1), (2, 1)), ((6, 2), (2, 1)), ((2, 6), (1, 2)))
_RANGES_60 += (((6, 2), (3, 2)), ((4, 3), (4, 1)), ((4, 3), (2, 1)))
_G32 = np.arange(32)

MANIFESTS.update(
    {
        "regression.49_local_select": _one(
            Out(np.ones(N, I32)), local_size=LN, macros={"SIZE": str(LN)}
        ),
        "regression.50_local_atomic": _one(
            Out(np.full(N // LN, LN, U32)), local_size=LN
        ),
        "regression.51_local_phi": _one(
            Out(np.arange(N // LN, dtype=I32)), local_size=LN, macros={"SIZE": str(LN)}
        ),
        "regression.52_nested_loop_using_kernel_arg": _one(
            In(np.full(N, 42, I32)), Out(np.full(N, 42, I32))
        ),
        "regression.53_kernel_arg_phi": _one(
            Out(_kernel_arg_phi()),
            Scalar(I32(16)),
            global_size=(23, 9),
            local_size=(1, 9),
            macros={"SIZE": "45", "LOOPS": "5"},
        ),
        "regression.54_negative_comparison": _one(
            Out((4.0 * np.arange(4)).astype(F32)),
            Scalar(I32(10)),
            Scalar(I32(10)),
            global_size=4,
            local_size=4,
        ),
        "regression.56_local_vec_mem": _one(
            Out(np.array([2.0], F32)),
            Local(4, F32),
            In(np.array([2.0], F32)),
            global_size=1,
            local_size=1,
        ),
        "regression.57_attribute_aligned": _one(
            Scalar(I32(0x3FF)),
            Out(
                np.stack([np.full(32, 0x3FF), _G32 & 0xDEADBEEF], 1)
                .reshape(-1)
                .astype(I32)
            ),
            global_size=32,
            local_size=4,
        ),
        "regression.59_right_shift": _one(
            Out(np.array([-5], I64)),
            In(np.array([-5], I64)),
            In(np.array([0], I64)),
            global_size=1,
        ),
        **{
            f"regression.60_multiple_dimensions_{n}": [
                Launch(
                    (Out(np.arange(12, dtype=I32)),),
                    global_size,
                    local_size,
                    label=f"{global_size} in {local_size}",
                )
                for global_size, local_size in _RANGES_60
            ]
            for n in (0, 1)
        },
        "regression.61_sycl_barrier": _one(
            InOut(kts.identity(), _pairs_swapped()), Local(2, I32), local_size=2
        ),
        "regression.62_sycl_barrier": _one(
            *[InOut(kts.identity(), _pairs_swapped()), Local(2, I32)] * 4, local_size=2
        ),
        "regression.63_barrier_shift_loop_reduced": _one(
            Out(np.array([23], np.uint8)), global_size=1
        ),
        "regression.64_explicit_copy_rotate_compare": [
            Launch(
                (
                    Local(local, I32),
                    Local(local, I32),
                    In((X % local).astype(I32)),
                    In((X % local).astype(I32)),
                    Out(np.ones(N, I32)),
                ),
                N,
                local,
                label=f"local {local}",
            )
            for local in (1, 2, 4, 8, 16, 32)
        ],
        "regression.65_fract_double": _one(
            In(_X40[:12]), Out(_FRACT[:12]), Out(_FLOOR[:12]), global_size=12
        ),
        "regression.66_loop_diverge": _one(
            Out(np.full(16, 15, U32)), Scalar(I32(1)), global_size=16, local_size=4
        ),
    }
)
