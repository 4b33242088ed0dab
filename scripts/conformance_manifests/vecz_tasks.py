"""Manifests of the vecz `task_*` groups (UnitCL's ktst_vecz_tasks_task_*.cpp):
small kernels written to exercise the vectoriser: copies, arithmetic, builtins,
selects, uniform and varying values. UnitCL's reference functions (kts's Ref_*)
are the functions of the element index x below, in the C types the tests use
(int, or float computed in float)."""

from __future__ import annotations

import numpy as np

from . import In, Launch, Out, Scalar, kts

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
