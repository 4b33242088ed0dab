"""Manifests of the vecz `task_05` .. `task_15` groups (UnitCL's
ktst_vecz_tasks_task_05.cpp .. _15.cpp): loops with static and uniform trip
counts, branches on the item or the group, masked loads, stores, scatters and
gathers, user functions, shuffles, relationals, insert/extract of vector
elements, interleaved loads and conversions. The kts reference functions and
buffer helpers are `vecz_tasks`'s."""

from __future__ import annotations

import numpy as np

from . import In, InOut, Launch, Out, Scalar, compare, first_lanes, kts
from .vecz_tasks import (
    A4,
    F32,
    FLOAT,
    I32,
    NEGATIVE_OFFSET,
    U32,
    XF,
    N,
    X,
    counter,
    one,
    ramp,
    ref,
    vec,
)

MANIFESTS: dict[str, list[Launch]] = {}

LN = kts.localN
LID = X % LN


def _static_trip(uniform: bool, floats: bool) -> list[Launch]:
    """Each work-item sums 256 terms a(p) * i + b(p) (ints) or 1.5 x(p) + y(p)
    (floats), p = i, plus the local id when `uniform`."""
    extra = LN if uniform else 0
    # one row of terms per work-item: the output has one element per item
    p = np.arange(256)[None, :] + (LID if uniform else 0 * LID)[:, None]
    count = 256 + extra
    if floats:
        x_in, y_in = (
            np.arange(count, dtype=F32) - F32(3),
            np.arange(count, dtype=F32) * 2,
        )
        terms = F32(1.5) * x_in[p] + y_in[p]
        out = np.add.accumulate(terms, axis=1, dtype=F32)[:, -1]
        args = (In(x_in), In(y_in), Out(out.astype(F32)), Scalar(F32(1.5)))
    else:
        a, b = ramp("A", count), ramp("B", count)
        i = np.arange(256)[None, :]
        out = (a[p].astype(np.int64) * i + b[p]).sum(1).astype(np.int64)
        out = ((out + 2**31) % 2**32 - 2**31).astype(I32)
        args = (In(a), In(b), Out(out))
    return [Launch(args, N, LN if uniform else None, macros={"TRIPS": "256"})]


def _two_launches(make) -> list[Launch]:
    """Tests that run the kernel twice, with C = 1 and C = N + 1."""
    return [make(c) for c in (1, N + 1)]


def _half_to_float() -> Out:
    bits = np.array(
        [
            *range(16),
            *(0x0001, 0x000A, 0x4015, 0xC0BF, 0x0004, 0x4042, 0xC023, 0x000F),
            *(0x0000, 0x8000, 0x4001, 0xC001, 0x7C00, 0xFC00, 0x7C01, 0xFC01),
        ],
        np.uint16,
    )
    expected = bits.view(np.float16).astype(F32)

    def check(got: np.ndarray) -> str | None:
        return compare(expected, got.view(F32), ulp=0)  # NaN matches any NaN

    return In(bits), Out(check, U32, 32)


def _convolution() -> np.ndarray:
    x = XF
    total = np.zeros(N, F32)
    acc = np.zeros(N, F32)
    for i in (-1, 0, 1):
        weight = x - F32(i)
        total += weight
        acc += weight * (np.arange(N, dtype=F32) + F32(i) - F32(3))
    with np.errstate(divide="ignore", invalid="ignore"):
        out = acc / total
    out[0] = out[-1] = 0  # the filter does not fit at the ends
    return out.astype(F32)


def _loops() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """If-in-loop sums: over i <= x of (i odd ? 2 b(x) : 3 a(x)); over all i of
    (x odd ? 2 b(i) : 3 a(i)); and the sibling loops' two sums either side of x."""
    a, b = ref("A").astype(np.int64), ref("B").astype(np.int64)
    steps = np.where(np.arange(N) & 1, b * 2, a * 3)
    if_in_loop = np.array(
        [np.where(np.arange(x + 1) & 1, b[x] * 2, a[x] * 3).sum() for x in X]
    )
    uniform = np.where(X & 1, (b * 2).sum(), (a * 3).sum())
    tail = np.where(np.arange(N) & 1, a * -5, b * 17)
    sibling = np.array([steps[: x + 1].sum() + tail[x + 1 :].sum() for x in X])
    return if_in_loop.astype(I32), uniform.astype(I32), sibling.astype(I32)


_IF_IN_LOOP, _IF_UNIFORM, _SIBLING = _loops()
_STRIDE_SUMS = {
    s: int(
        ref("A", np.arange(128 * 128)).reshape(128, 128)[:, ::s].astype(np.int64).sum()
    )
    for s in (1, 2, 3, 4)
}
_MINUS33 = (X - 33).astype(I32)
_EVERY_4TH = np.zeros((4 * N, 4), I32)
_EVERY_4TH[::4] = A4 * 2  # out[4 tid] = in[tid] * 2
_EVEN_ITEMS = np.where(LID % 2 == 0, ref("A"), -1).astype(I32)

MANIFESTS.update(
    {
        "task_05.01_sum_static_trip": _static_trip(False, False),
        "task_05.02_saxpy_static_trip": _static_trip(False, True),
        "task_05.03_sum_static_trip_uniform": _static_trip(True, False),
        "task_05.04_saxpy_static_trip_uniform": _static_trip(True, True),
        "task_06.01_copy_if_constant": [
            Launch((In(ref("A")), Out(ref("A")), Scalar(I32(42))), N, label="42"),
            Launch(
                (In(ref("A")), Out(np.zeros(N, I32)), Scalar(I32(17))), N, label="17"
            ),
        ],
        "task_06.02_copy_if_even_group": one(
            In(ref("A")),
            Out(np.where((X // LN) % 2 == 0, ref("A"), -1).astype(I32)),
            local_size=LN,
        ),
        "task_07.01_copy_if_even_item": one(
            In(ref("A")), Out(_EVEN_ITEMS), local_size=LN
        ),
        "task_07.02_copy_if_nested_item": one(
            In(ref("A")),
            Out(np.where(LID % 4 == 0, -ref("A"), 0).astype(I32)),
            Out(np.where(LID % 2 == 0, ref("A"), 0).astype(I32)),
            local_size=LN,
        ),
        "task_07.03_add_no_nan": one(
            In(NEGATIVE_OFFSET), In(FLOAT), Out(NEGATIVE_OFFSET + FLOAT), local_size=LN
        ),
        "task_07.04_convolution": one(
            In(NEGATIVE_OFFSET), Out(_convolution()), macros={"FILTER_SIZE": "1"}
        ),
        "task_07.05_ternary_pointer": one(
            In(ref("Odd")),
            In(np.ones(N, I32)),
            In(np.full(N, -1, I32)),
            Out(ref("Ternary")),
        ),
        "task_07.06_copy_if_even_item_phi": one(
            In(ref("A")), Out(_EVEN_ITEMS), local_size=LN
        ),
        "task_07.07_masked_loop_uniform": one(
            In(ref("A")),
            Out(
                np.where((X >= 2) & (X <= 6), ref("A", np.arange(16)).sum(), 0).astype(
                    I32
                )
            ),
            Scalar(I32(16)),
        ),
        "task_07.08_masked_loop_varying": one(
            In(ref("A")),
            Out(
                np.array(
                    [
                        ref("A", np.arange(x, x + 16)).sum() if x + 16 <= N else 0
                        for x in X
                    ],
                    I32,
                )
            ),
            Scalar(I32(16)),
        ),
        "task_07.09_control_dep_packetization": _two_launches(
            lambda c: Launch(
                (
                    In(ref("A")),
                    Out(np.where(c != X, ref("A") * 2, 0).astype(I32)),
                    Scalar(U32(c)),
                ),
                N,
                LN,
                label=f"C = {c}",
            )
        ),
        "task_07.10_control_dep_scalarization": [
            Launch((In(A4), Out(_EVERY_4TH)), N, LN, label=label)
            for label in ("first", "second")
        ],
        "task_07.11_copy_if_even_item_early_return": one(
            In(ref("A")), Out(_EVEN_ITEMS), local_size=LN
        ),
        "task_07.12_scalar_masked_load": _two_launches(
            lambda c: Launch(
                (
                    In(ref("A")),
                    Out(np.where(c == X, ref("A")[0] * 2, 0).astype(I32)),
                    Scalar(U32(c)),
                ),
                N,
                None if c == 1 else LN,
                label=f"C = {c}",
            )
        ),
        **{
            f"task_07.{name}": _two_launches(
                lambda c, varying=varying: Launch(
                    (
                        Out(np.where(c != X, c + (X if varying else 0), 0).astype(I32)),
                        Scalar(U32(c)),
                    ),
                    N,
                    LN,
                    label=f"C = {c}",
                )
            )
            for name, varying in (
                ("13_scalar_masked_store_uniform", False),
                ("14_scalar_masked_store_varying", True),
            )
        },
        "task_07.15_normalize_range": one(
            In(_MINUS33),
            Out(np.where(_MINUS33 + 16 < 0, _MINUS33 % 16, _MINUS33 + 16).astype(I32)),
            Scalar(I32(16)),
        ),
        "task_07.16_normalize_range_while": one(
            In(_MINUS33),
            Out(np.where(_MINUS33 < 0, _MINUS33 % 16, _MINUS33).astype(I32)),
            Scalar(I32(16)),
        ),
        "task_07.17_if_in_loop": one(In(ref("A")), In(ref("B")), Out(_IF_IN_LOOP)),
        "task_07.18_if_in_uniform_loop": one(
            In(ref("A")), In(ref("B")), Out(_IF_UNIFORM)
        ),
        "task_07.19_nested_loops": one(
            In(ref("A", np.arange(N * N))),
            In((1 + X % 4).astype(I32)),
            Out(
                np.array([_STRIDE_SUMS[1 + x % 4] for x in X])
                .astype(np.int64)
                .astype(I32)
            ),
            Scalar(I32(128)),
            Scalar(I32(128)),
        ),
        "task_07.20_sibling_loops": one(In(ref("A")), In(ref("B")), Out(_SIBLING)),
        **{
            f"task_07.{name}": one(*_half_to_float(), global_size=32)
            for name in (
                "21_convert_half_to_float_impl",
                "22_convert_half_to_float_builtin",
                "23_convert_half_to_float_nested_ifs",
                "24_convert_half_to_float_vload",
            )
        },
    }
)


_PERMUTATION = np.random.default_rng(1).permutation(N).astype(I32)
_SCATTERED = np.empty(N, I32)
_SCATTERED[_PERMUTATION] = np.where(X % 3 == 0, 42, ref("A"))  # b[index[x]] = ...
_STRIDE3 = np.where(np.arange(3 * N) % 3 == 0, np.arange(3 * N), 1).astype(I32)
_STRIDE3[:3] = 13
_SQUARES = (X * X).astype(I32)
_NEG = _SQUARES[::-1] + _SQUARES  # in[size - x] + in[x], x = 0 masked to 13
_NEG[0] = 13
_FOO_A = ref("A").astype(np.int64) * (ref("B").astype(np.int64) - 1)
_FOO_ALPHA = 17 * (ref("B").astype(np.int64) - 1)

MANIFESTS.update(
    {
        "task_08.01_user_fn_identity": one(In(ref("A")), Out(ref("A")), local_size=LN),
        "task_08.02_user_fn_sext": one(
            Out((-2 * X).astype(I32)), In((2 * X).astype(np.int16))
        ),
        "task_08.03_user_fn_two_contexts": one(
            Out((_FOO_A + _FOO_ALPHA).astype(I32)),
            In(ref("A")),
            In(ref("B")),
            Scalar(I32(17)),
        ),
        "task_09.01_masked_interleaved_store": one(
            In(ref("A")),
            Out(
                np.where(np.arange(2 * N) == 24, ref("A", np.array([12]))[0], 0).astype(
                    I32
                )
            ),
        ),
        "task_09.02_masked_interleaved_load": one(
            In(ramp("A", 2 * N)),
            Out(np.where(X == 12, ref("A", np.array([24]))[0], 0).astype(I32)),
        ),
        "task_09.03_masked_scatter": one(
            In(ref("A")), Out(_SCATTERED), In(_PERMUTATION)
        ),
        "task_09.04_masked_gather": one(
            In(ref("A")),
            In(_PERMUTATION),
            Out(np.where(X % 3 != 0, ref("A", _PERMUTATION), 42).astype(I32)),
        ),
        "task_09.05_masked_argument_stride": one(
            In(np.arange(3 * N, dtype=I32)), Out(_STRIDE3), Scalar(I32(3))
        ),
        "task_09.06_masked_negative_stride": one(
            In(_SQUARES), Out(_NEG), Scalar(I32(N - 1))
        ),
        "task_09.07_masked_negative_argument_stride": one(
            In(_SQUARES), Out(_NEG), Scalar(I32(-1)), Scalar(I32(N - 1))
        ),
        **{
            f"task_09.08_phi_memory{suffix}": one(
                In(ref("A")), Out(ref("A")), Scalar(I32(16)), global_size=N - 15
            )
            for suffix in ("", "2")
        },
        "task_09.09_masked_vector_load": one(
            In(ramp("A", N + 7)),
            Out(np.where(X & 7, 1, ref("A")).astype(I32)),
            Scalar(U32(7)),
        ),
    }
)


_SPECIAL_F = np.array([0.0, -1.0, np.inf, np.nan, 0.0], F32)
_SPECIAL_F.view(I32)[4] = 12  # a denormal
_SPECIAL_D = np.array([0.0, -1.0, np.inf, np.nan, 0.0], np.float64)
_SPECIAL_D.view(np.int64)[4] = 12
_CLASSES = {  # of 0, -1, inf, nan, a denormal
    "isfinite": [1, 1, 0, 0, 1],
    "isinf": [0, 0, 1, 0, 0],
    "isnormal": [0, 1, 0, 0, 0],
    "isnan": [0, 0, 0, 1, 0],
    "signbit": [0, 1, 0, 0, 0],
}


def _relational(in_type: str, function: str) -> Launch:
    """Scalars give 1 for true; vectors -1 (all bits) in each lane."""
    special = _SPECIAL_D if in_type.startswith("double") else _SPECIAL_F
    truth = np.array(_CLASSES[function])
    if in_type.endswith("4"):
        index = (X[:, None] + np.arange(4)) % 5
        data, result = special[index], -truth[index]
        out_type = "long4" if in_type == "double4" else "int4"
        dtype = np.int64 if in_type == "double4" else I32
    else:
        data, result, out_type, dtype = special[X % 5], truth[X % 5], "int", I32
    return Launch(
        (In(data), Out(result.astype(dtype))),
        N,
        macros={"IN_TY": in_type, "OUT_TY": out_type, "FUNC": function},
        label=f"{function}({in_type})",
    )


_INTERLEAVED = np.array(
    [
        *(54, 61, 29, 76, 56, 26, 75, 63, 29, 86, 57, 34, 37, 15, 91, 56),
        *(51, 48, 19, 95, 20, 78, 73, 32, 75, 51, 8, 29, 56, 34, 85, 45, 33, 55),
    ],
    I32,
)
_I2 = np.arange(16) * 2
_BALANCE_IN = (np.arange(4, dtype=F32)[:, None] * 8 - np.arange(4, dtype=F32)).astype(
    F32
)
_B = ref("B").astype(np.int64)
_B3 = _B[:, None] * 3 - np.arange(3)


def _interleaved(count: int, expected: np.ndarray) -> list[Launch]:
    args = (Out(expected.astype(I32)), In(_INTERLEAVED[:count]), Scalar(I32(4)))
    return [Launch(args, (4, 4), (4, 4))]


MANIFESTS.update(
    {
        "task_10.01_shuffle_constant": one(
            In(A4),
            In(vec(ramp("A", 2 * N), 2)),
            Out(np.stack([ref("A", 2 * X + 1), ref("A", 4 * X + 2)], 1)),
        ),
        "task_10.02_shuffle_runtime": one(
            In(A4),
            In(vec(ramp("A", 2 * N), 2)),
            Scalar((0, 1, 1, 0)),
            Scalar((11098, 6)),
            Out(np.stack([ref("A", 2 * X + 1), ref("A", 4 * X + 2)], 1)),
        ),
        "task_10.03_vector_loop": one(In(ref("A")), Out(ref("A"))),
        "task_10.04_onearg_relationals": [
            _relational(in_type, function)
            for function in _CLASSES
            for in_type in ("float", "double", "float4", "double4")
        ],
        "task_10.05_atomic_cmpxchg_builtin": counter(-1, LN, I32),
        "task_10.06_noinline_kernels": one(In(ref("A")), Out(ref("A"))),
        "task_10.07_break_loop": one(In(np.zeros(N, I32)), In(ref("A")), Out(ref("A"))),
        "task_10.08_insertelement_constant_index": one(
            In(A4), Out(np.where(np.arange(4) == 2, 42, A4).astype(I32))
        ),
        "task_10.09_insertelement_runtime_index": one(
            In(A4),
            Out(np.where(np.arange(4) == (X % 4)[:, None], 42, A4).astype(I32)),
            In((X % 4).astype(I32)),
        ),
        "task_10.10_extractelement_constant_index": one(
            In(A4),
            Out(
                np.stack(
                    [np.full(N, 4), np.full(N, 4), A4[:, 0], np.full(N, 4)], 1
                ).astype(I32)
            ),
        ),
        "task_10.11_extractelement_runtime_index": one(
            In(A4),
            Out(
                np.stack(
                    [np.full(N, 4), np.full(N, 4), A4[:, 0], np.full(N, 4)], 1
                ).astype(I32)
            ),
            In((X % 4).astype(I32)),
        ),
        "task_10.12_intptr_cast": one(
            In(ramp("A", 4 * N).view(np.int8)), Out(ref("A"))
        ),
        "task_10.13_intptr_cast_phi": one(
            In(ramp("A", 4 * N).view(np.int8)), Out(ref("A")), global_size=N // 4
        ),
        **{
            f"task_11.{stem}": one(In(ref("A")), Out(ref("A")))
            for stem in (
                "01_kernel_signature",
                "02_kernel_signature_noinline_before",
                "03_kernel_signature_noinline_after",
                "04_kernel_signature_noinline_functions",
            )
        },
        "task_12.01_interleaved_load_4": _interleaved(
            32, _INTERLEAVED[_I2 + 1] - _INTERLEAVED[_I2]
        ),
        "task_12.02_interleaved_load_5": _interleaved(
            34, sum(_INTERLEAVED[_I2 + k] for k in range(4))
        ),
        "task_12.03_interleaved_load_6": _interleaved(
            34, (_INTERLEAVED[_I2 + 3] << 1) - _INTERLEAVED[_I2 + 2]
        ),
        "task_14.01_balance": [
            Launch(
                (Scalar(F32(0.5)), InOut(_BALANCE_IN, np.zeros((4, 4), F32))),
                (4, 4),
                (4, 4),
            )
        ],
        "task_14.02_negate": [
            Launch((In(_BALANCE_IN), Out(-_BALANCE_IN)), (4, 4), (4, 4))
        ],
        "task_15.01_convert": one(In(_B), Out(_B.astype(F32)), local_size=2),
        "task_15.02_convert2": one(
            In(_B[:, None] * 2 - np.arange(2)),
            Out((_B[:, None] * 2 - np.arange(2)).astype(F32)),
            local_size=2,
        ),
        "task_15.03_convert3": one(
            In(ref("B", np.arange(3 * N)).astype(np.int64)),
            Out(ref("B", np.arange(3 * N)).astype(F32)),
            local_size=2,
        ),
        "task_15.04_convert4": one(
            In(_B[:, None] * 4 - np.arange(4)),
            Out((_B[:, None] * 4 - np.arange(4)).astype(F32)),
            local_size=2,
        ),
        # long3 (3 Ref_B(x) - i) to float3: 3-element vectors, 4 lanes in memory
        "task_15.05_convert3": one(
            In(vec(_B3.reshape(-1), 3)),
            Out(first_lanes(vec(_B3.astype(F32).reshape(-1), 3)), F32, (N, 4)),
            local_size=2,
        ),
    }
)
