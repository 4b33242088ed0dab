"""Manifests of the vecz `task_*` groups (UnitCL's ktst_vecz_tasks_task_*.cpp):
small kernels written to exercise the vectoriser: copies, arithmetic, builtins,
selects, uniform and varying values. UnitCL's reference functions (kts's Ref_*)
are the functions of the element index x below, in the C types the tests use
(int, or float computed in float)."""

from __future__ import annotations

import numpy as np

from . import In, InOut, Launch, Out, Scalar, compare, first_lanes, kts

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


def _one(*args, global_size=N, local_size=None, **kw) -> list[Launch]:
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
    "task_01.01_copy": _one(In(ref("A")), Out(ref("A"))),
    "task_01.02_add": _one(In(ref("A")), In(ref("B")), Out(ref("Add"))),
    "task_01.03_mul_fma": _one(
        In(ref("PlusOne")),
        In(ref("MinusOne")),
        In(ref("Triple")),
        Out(ref("Mul")),
        Out(ref("FMA")),
    ),
    "task_01.04_ternary": _one(
        In(ref("Odd")), Scalar(I32(1)), Scalar(I32(-1)), Out(ref("Ternary"))
    ),
    "task_01.05_broadcast": _one(Out(ref("Identity"))),
    "task_01.06_broadcast_uniform": _one(Out(np.full(N, 42, I32)), Scalar(I32(41))),
    "task_01.07_mulhi": _one(In(_A), In(_B), In(ref("Odd")), Out(_MULHI)),
    "task_02.01_abs_builtin": _one(
        In(ref("Opposite")), Out(ref("Identity").astype(U32))
    ),
    "task_02.02_dot_builtin": _one(
        In(FLOAT), In(NEGATIVE_OFFSET), Out(NEGATIVE_OFFSET * FLOAT)
    ),
    "task_02.03_distance_builtin": _one(
        In(FLOAT), In(NEGATIVE_OFFSET), Out(np.abs(NEGATIVE_OFFSET - FLOAT))
    ),
    "task_02.04_fabs_builtin": _one(In(NEGATIVE_OFFSET), Out(np.abs(NEGATIVE_OFFSET))),
    "task_02.05_clz_builtin": _one(In(X.astype(U32)), Out(_clz(X))),
    "task_02.06_clamp_builtin": _one(
        In(FLOAT), Out(np.zeros(N, F32)), Scalar(F32(0)), Scalar(F32(0))
    ),
    "task_02.07_length_builtin": _one(In(FLOAT), Out(np.abs(FLOAT))),
    "task_02.08_barrier_add": _one(
        In(ref("A", np.arange(16))),
        In(ref("B", np.arange(16))),
        Out(np.ones(16, I32)),
        global_size=16,
        local_size=8,
        macros={"ARRAY_SIZE": "16"},
    ),
    "task_02.09_printf_add": _one(
        In(ref("A", np.arange(16))),
        In(ref("B", np.arange(16))),
        Out(ref("Add", np.arange(16))),
        Out(np.zeros(16, I32)),
        global_size=16,
        macros={"ARRAY_SIZE": "16"},
    ),
    "task_02.10_modf_builtin": _one(
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


def _ramp(name: str, count: int) -> np.ndarray:
    return ref(name, np.arange(count))


def _counter(start: int, count: int, dtype) -> list[Launch]:
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


_A4 = vec(_ramp("A", 4 * N), 4)
_NEG4 = vec(np.arange(4 * N, dtype=F32) - F32(3), 4)
_FLOAT4 = vec(np.arange(4 * N, dtype=F32) * F32(2), 4)
_TRANSPOSED = np.empty((4 * N, 4), I32)
for _i in range(4 * N):
    _base = (_i - _i % 4) * 4 + _i % 4
    _TRANSPOSED[_i] = ref("A", np.array([_base, _base + 4, _base + 8, _base + 12]))
_BYTES_A = ref("A").view(np.uint8).reshape(N, 4)
_MODF_IN = (np.arange(4 * N) + (np.arange(4 * N) % 2) * 0.5).astype(F32)

MANIFESTS.update(
    {
        "task_03.01_copy4": _one(In(_A4), Out(_A4.copy())),
        "task_03.02_add4": _one(
            In(_A4), In(vec(_ramp("B", 4 * N), 4)), Out(vec(_ramp("Add", 4 * N), 4))
        ),
        "task_03.03_abs4_builtin": _one(In(_NEG4), Out(np.abs(_NEG4))),
        "task_03.04_dot4_builtin": _one(
            In(_NEG4), In(_FLOAT4), Out((_NEG4 * _FLOAT4).sum(1, dtype=F32))
        ),
        "task_03.05_distance4_builtin": _one(
            In(_NEG4),
            In(_FLOAT4),
            Out(np.sqrt(((_NEG4 - _FLOAT4) ** 2).sum(1, dtype=F32))),
        ),
        "task_03.06_ternary4": _one(
            In(vec(_ramp("Odd", 4 * N), 4)),
            Scalar((1, 1, 1, 1)),
            Scalar((-1, -1, -1, -1)),
            Out(np.full((N, 4), -1, I32)),  # the vector select tests the top bit
        ),
        "task_03.07_transpose4": _one(In(vec(_ramp("A", 16 * N), 4)), Out(_TRANSPOSED)),
        "task_03.08_clz4_builtin": _one(
            In(vec(np.arange(4 * N, dtype=U32), 4)), Out(vec(_clz(np.arange(4 * N)), 4))
        ),
        "task_03.09_clamp4_builtin": _one(
            In(_FLOAT4), Out(np.zeros((N, 4), F32)), Scalar(F32(0)), Scalar(F32(0))
        ),
        "task_03.10_s2v_int": _one(
            In(ref("A")), Out(np.repeat(ref("A")[:, None], 4, 1))
        ),
        "task_03.11_sum_reduce4": _one(In(_A4), Out(_A4.sum(1, dtype=I32))),
        "task_03.13_copy2": _one(
            In(vec(_ramp("A", 2 * N), 2)), Out(vec(_ramp("A", 2 * N), 2))
        ),
        "task_03.14_add2": _one(
            In(vec(_ramp("A", 2 * N), 2)),
            In(vec(_ramp("B", 2 * N), 2)),
            Out(vec(_ramp("Add", 2 * N), 2)),
        ),
        "task_03.15_copy3": _one(
            In(vec(_ramp("A", 3 * N), 3)),
            Out(first_lanes(vec(_ramp("A", 3 * N), 3)), I32, (N, 4)),
        ),
        "task_03.16_add3": _one(
            In(vec(_ramp("A", 3 * N), 3)),
            In(vec(_ramp("B", 3 * N), 3)),
            Out(first_lanes(vec(_ramp("Add", 3 * N), 3)), I32, (N, 4)),
        ),
        "task_03.17_length4_builtin": _one(
            In(_FLOAT4), Out(np.sqrt((_FLOAT4 * _FLOAT4).sum(1, dtype=F32)))
        ),
        "task_03.19_add4_i32_tid": _one(
            In(_A4), In(vec(_ramp("B", 4 * N), 4)), Out(vec(_ramp("Add", 4 * N), 4))
        ),
        "task_03.22_as_uchar4_uint": _one(In(ref("A").view(U32)), Out(_BYTES_A.copy())),
        "task_03.23_as_uint_uchar4": _one(In(_BYTES_A.copy()), Out(ref("A").view(U32))),
        "task_03.24_as_uint4_float4": _one(
            In(vec(_ramp("A", 4 * N), 4).view(F32)), Out(_A4.view(U32))
        ),
        "task_03.25_as_ushort2_uchar4": _one(
            In(_BYTES_A.copy()), Out(ref("A").view(np.uint16).reshape(N, 2))
        ),
        "task_03.26_atom_inc_builtin_int": _counter(42, kts.localN, I32),
        "task_03.26_atom_inc_builtin_long": _counter(42, kts.localN, np.int64),
        "task_03.27_atomic_inc_builtin": _counter(42, kts.localN, I32),
        "task_03.29_modf4_builtin": _one(
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
        "task_04.01_copy_constant_offset": _one(In(ref("A")), Out(_PLUS4)),
        "task_04.02_copy_uniform_offset": _one(
            In(ref("A")), Out(_PLUS28), Scalar(I32(7))
        ),
        "task_04.03_mul_fma_uniform_offset_load": _one(
            In(_merged(["PlusOne", "MinusOne", "Triple"], N)),
            Out(ref("Mul")),
            Out(ref("FMA")),
            local_size=kts.localN,
        ),
        "task_04.04_mul_fma_uniform_offset_store": _one(
            In(ref("PlusOne")),
            In(ref("MinusOne")),
            In(ref("Triple")),
            Out(_merged(["Mul", "FMA"], N)),
            local_size=kts.localN,
        ),
        "task_04.05_scatter": _one(
            In(ref("A")),
            Out(
                np.where(np.arange(2 * N) % 2 == 0, ref("A", np.arange(2 * N) // 2), 0)
            ),
        ),
        "task_04.06_gather": _one(In(_ramp("A", 2 * N)), Out(ref("A", 2 * X))),
        "task_04.07_mul_fma_uniform_addr_load": _one(
            In(_merged(["PlusOne", "MinusOne", "Triple"], kts.localN)),
            Out(ref("Mul")),
            Out(ref("FMA")),
            local_size=kts.localN,
        ),
        "task_04.08_mul_fma_uniform_addr_store": _one(
            In(ref("PlusOne")),
            In(ref("MinusOne")),
            In(ref("Triple")),
            Out(_merged(["Mul", "FMA"], kts.localN)),
            local_size=kts.localN,
        ),
        "task_04.09_copy4_scalarized": _one(
            In(_ramp("A", 4 * N)), Out(_ramp("A", 4 * N))
        ),
        "task_04.10_alloca": _one(Out(ref("Identity"))),
        "task_04.11_byval_struct": _one(
            Out((X * 2 + 1 * 2).astype(I32)), Scalar(_STRUCT3)
        ),
        "task_04.12_work_item": _one(Out(_work_items()), local_size=kts.localN),
        "task_04.13_struct_offset": _one(
            Out(_samples()), Scalar(I32(1)), global_size=16
        ),
        "task_04.14_alloca4": _one(Out(np.repeat(X[:, None], 4, 1).astype(I32))),
        **{
            f"task_04.{n}": _one(In(ref("A")), Out(ref("A", N - 1 - X)), In(_REVERSED))
            for n in ("15_scatter_offset", "16_gather_offset")
        },
        "task_04.17_local_array": _one(In(ref("A")), Out(ref("A")), local_size=1),
        "task_04.18_private_array": _one(
            In(ref("A")), Out(np.full(N, ref("A", np.arange(16)).sum(), I32))
        ),
    }
)


LN = kts.localN
LID = X % LN


def _static_trip(uniform: bool, floats: bool) -> list[Launch]:
    """Each work-item sums 256 terms a(p) * i + b(p) (ints) or 1.5 x(p) + y(p)
    (floats), p = i, plus the local id when `uniform`."""
    extra = LN if uniform else 0
    p = np.arange(256)[None, :] + (LID[:, None] if uniform else 0)
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
        a, b = _ramp("A", count), _ramp("B", count)
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
_EVERY_4TH[::4] = _A4 * 2  # out[4 tid] = in[tid] * 2
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
        "task_06.02_copy_if_even_group": _one(
            In(ref("A")),
            Out(np.where((X // LN) % 2 == 0, ref("A"), -1).astype(I32)),
            local_size=LN,
        ),
        "task_07.01_copy_if_even_item": _one(
            In(ref("A")), Out(_EVEN_ITEMS), local_size=LN
        ),
        "task_07.02_copy_if_nested_item": _one(
            In(ref("A")),
            Out(np.where(LID % 4 == 0, -ref("A"), 0).astype(I32)),
            Out(np.where(LID % 2 == 0, ref("A"), 0).astype(I32)),
            local_size=LN,
        ),
        "task_07.03_add_no_nan": _one(
            In(NEGATIVE_OFFSET), In(FLOAT), Out(NEGATIVE_OFFSET + FLOAT), local_size=LN
        ),
        "task_07.04_convolution": _one(
            In(NEGATIVE_OFFSET), Out(_convolution()), macros={"FILTER_SIZE": "1"}
        ),
        "task_07.05_ternary_pointer": _one(
            In(ref("Odd")),
            In(np.ones(N, I32)),
            In(np.full(N, -1, I32)),
            Out(ref("Ternary")),
        ),
        "task_07.06_copy_if_even_item_phi": _one(
            In(ref("A")), Out(_EVEN_ITEMS), local_size=LN
        ),
        "task_07.07_masked_loop_uniform": _one(
            In(ref("A")),
            Out(
                np.where((X >= 2) & (X <= 6), ref("A", np.arange(16)).sum(), 0).astype(
                    I32
                )
            ),
            Scalar(I32(16)),
        ),
        "task_07.08_masked_loop_varying": _one(
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
            Launch((In(_A4), Out(_EVERY_4TH)), N, LN, label=label)
            for label in ("first", "second")
        ],
        "task_07.11_copy_if_even_item_early_return": _one(
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
        "task_07.15_normalize_range": _one(
            In(_MINUS33),
            Out(np.where(_MINUS33 + 16 < 0, _MINUS33 % 16, _MINUS33 + 16).astype(I32)),
            Scalar(I32(16)),
        ),
        "task_07.16_normalize_range_while": _one(
            In(_MINUS33),
            Out(np.where(_MINUS33 < 0, _MINUS33 % 16, _MINUS33).astype(I32)),
            Scalar(I32(16)),
        ),
        "task_07.17_if_in_loop": _one(In(ref("A")), In(ref("B")), Out(_IF_IN_LOOP)),
        "task_07.18_if_in_uniform_loop": _one(
            In(ref("A")), In(ref("B")), Out(_IF_UNIFORM)
        ),
        "task_07.19_nested_loops": _one(
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
        "task_07.20_sibling_loops": _one(In(ref("A")), In(ref("B")), Out(_SIBLING)),
        **{
            f"task_07.{name}": _one(*_half_to_float(), global_size=32)
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
        "task_08.01_user_fn_identity": _one(In(ref("A")), Out(ref("A")), local_size=LN),
        "task_08.02_user_fn_sext": _one(
            Out((-2 * X).astype(I32)), In((2 * X).astype(np.int16))
        ),
        "task_08.03_user_fn_two_contexts": _one(
            Out((_FOO_A + _FOO_ALPHA).astype(I32)),
            In(ref("A")),
            In(ref("B")),
            Scalar(I32(17)),
        ),
        "task_09.01_masked_interleaved_store": _one(
            In(ref("A")),
            Out(
                np.where(np.arange(2 * N) == 24, ref("A", np.array([12]))[0], 0).astype(
                    I32
                )
            ),
        ),
        "task_09.02_masked_interleaved_load": _one(
            In(_ramp("A", 2 * N)),
            Out(np.where(X == 12, ref("A", np.array([24]))[0], 0).astype(I32)),
        ),
        "task_09.03_masked_scatter": _one(
            In(ref("A")), Out(_SCATTERED), In(_PERMUTATION)
        ),
        "task_09.04_masked_gather": _one(
            In(ref("A")),
            In(_PERMUTATION),
            Out(np.where(X % 3 != 0, ref("A", _PERMUTATION), 42).astype(I32)),
        ),
        "task_09.05_masked_argument_stride": _one(
            In(np.arange(3 * N, dtype=I32)), Out(_STRIDE3), Scalar(I32(3))
        ),
        "task_09.06_masked_negative_stride": _one(
            In(_SQUARES), Out(_NEG), Scalar(I32(N - 1))
        ),
        "task_09.07_masked_negative_argument_stride": _one(
            In(_SQUARES), Out(_NEG), Scalar(I32(-1)), Scalar(I32(N - 1))
        ),
        **{
            f"task_09.08_phi_memory{suffix}": _one(
                In(ref("A")), Out(ref("A")), Scalar(I32(16)), global_size=N - 15
            )
            for suffix in ("", "2")
        },
        "task_09.09_masked_vector_load": _one(
            In(_ramp("A", N + 7)),
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


def _interleaved(count: int, expected: np.ndarray) -> list[Launch]:
    args = (Out(expected.astype(I32)), In(_INTERLEAVED[:count]), Scalar(I32(4)))
    return [Launch(args, (4, 4), (4, 4))]


MANIFESTS.update(
    {
        "task_10.01_shuffle_constant": _one(
            In(_A4),
            In(vec(_ramp("A", 2 * N), 2)),
            Out(np.stack([ref("A", 2 * X + 1), ref("A", 4 * X + 2)], 1)),
        ),
        "task_10.02_shuffle_runtime": _one(
            In(_A4),
            In(vec(_ramp("A", 2 * N), 2)),
            Scalar((0, 1, 1, 0)),
            Scalar((11098, 6)),
            Out(np.stack([ref("A", 2 * X + 1), ref("A", 4 * X + 2)], 1)),
        ),
        "task_10.03_vector_loop": _one(In(ref("A")), Out(ref("A"))),
        "task_10.04_onearg_relationals": [
            _relational(in_type, function)
            for function in _CLASSES
            for in_type in ("float", "double", "float4", "double4")
        ],
        "task_10.05_atomic_cmpxchg_builtin": _counter(-1, LN, I32),
        "task_10.06_noinline_kernels": _one(In(ref("A")), Out(ref("A"))),
        "task_10.07_break_loop": _one(
            In(np.zeros(N, I32)), In(ref("A")), Out(ref("A"))
        ),
        "task_10.08_insertelement_constant_index": _one(
            In(_A4), Out(np.where(np.arange(4) == 2, 42, _A4).astype(I32))
        ),
        "task_10.09_insertelement_runtime_index": _one(
            In(_A4),
            Out(np.where(np.arange(4) == (X % 4)[:, None], 42, _A4).astype(I32)),
            In((X % 4).astype(I32)),
        ),
        "task_10.10_extractelement_constant_index": _one(
            In(_A4),
            Out(
                np.stack(
                    [np.full(N, 4), np.full(N, 4), _A4[:, 0], np.full(N, 4)], 1
                ).astype(I32)
            ),
        ),
        "task_10.11_extractelement_runtime_index": _one(
            In(_A4),
            Out(
                np.stack(
                    [np.full(N, 4), np.full(N, 4), _A4[:, 0], np.full(N, 4)], 1
                ).astype(I32)
            ),
            In((X % 4).astype(I32)),
        ),
        "task_10.12_intptr_cast": _one(
            In(_ramp("A", 4 * N).view(np.int8)), Out(ref("A"))
        ),
        "task_10.13_intptr_cast_phi": _one(
            In(_ramp("A", 4 * N).view(np.int8)), Out(ref("A")), global_size=N // 4
        ),
        **{
            f"task_11.{stem}": _one(In(ref("A")), Out(ref("A")))
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
        "task_15.01_convert": _one(In(_B), Out(_B.astype(F32)), local_size=2),
        "task_15.02_convert2": _one(
            In(_B[:, None] * 2 - np.arange(2)),
            Out((_B[:, None] * 2 - np.arange(2)).astype(F32)),
            local_size=2,
        ),
        "task_15.03_convert3": _one(
            In(ref("B", np.arange(3 * N)).astype(np.int64)),
            Out(ref("B", np.arange(3 * N)).astype(F32)),
            local_size=2,
        ),
        "task_15.04_convert4": _one(
            In(_B[:, None] * 4 - np.arange(4)),
            Out((_B[:, None] * 4 - np.arange(4)).astype(F32)),
            local_size=2,
        ),
    }
)
