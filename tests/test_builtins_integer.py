"""The integer functions of the builtin library (`link-builtins`, `integer`) on
every integer type, scalars and vectors, against Python's exact integers: the
limits, zero, ±1, bit patterns and random values, all pairs of them."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from builtin_kernels import DTYPES, Call, by_type, run_calls, whole_vectors

RNG = np.random.default_rng(15)

TYPES = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong"]


def _bits(type_: str) -> int:
    return np.dtype(DTYPES[type_]).itemsize * 8


def _signed(type_: str) -> bool:
    return not type_.startswith("u")


def _range(type_: str) -> tuple[int, int]:
    bits = _bits(type_)
    return (
        (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
        if _signed(type_)
        else (0, (1 << bits) - 1)
    )


def _unsigned(type_: str) -> str:
    return type_ if type_.startswith("u") else "u" + type_


def _wrap(value: int, type_: str) -> int:
    bits = _bits(type_)
    value &= (1 << bits) - 1
    if _signed(type_) and value >> (bits - 1):
        value -= 1 << bits
    return value


def _clamp(value: int, type_: str) -> int:
    low, high = _range(type_)
    return min(max(value, low), high)


def _inputs(type_: str, lanes: int) -> list[np.ndarray]:
    low, high = _range(type_)
    edges = sorted({low, low + 1, high, high - 1, 0, 1, 2, 3, high // 3, low // 2})
    edges = [e for e in edges if low <= e <= high]
    x = np.repeat(np.array(edges, object), len(edges))
    y = np.tile(np.array(edges, object), len(edges))
    random = RNG.integers(low, high, size=(3, 64), dtype=DTYPES[type_], endpoint=True)
    x, y = np.concatenate([x, random[0]]), np.concatenate([y, random[1]])
    z = np.concatenate([np.roll(x[:-64], 3), random[2]])
    return [whole_vectors(v, lanes).astype(DTYPES[type_]) for v in (x, y, z)]


def _rotate(x: int, n: int, type_: str) -> int:
    bits = _bits(type_)
    u, s = x % (1 << bits), n % bits
    return _wrap((u << s) | (u >> (bits - s)), type_)


def _mul_hi(x: int, y: int, type_: str) -> int:
    return _wrap((x * y) >> _bits(type_), type_)


FUNCTIONS: dict[str, tuple[str, Callable, str]] = {
    # name: (call, reference on Python ints (x, y, z, type), result type ("": same))
    "abs": ("abs(a)", lambda x, y, z, t: abs(x), "unsigned"),
    "abs_diff": ("abs_diff(a, b)", lambda x, y, z, t: abs(x - y), "unsigned"),
    "add_sat": ("add_sat(a, b)", lambda x, y, z, t: _clamp(x + y, t), ""),
    "sub_sat": ("sub_sat(a, b)", lambda x, y, z, t: _clamp(x - y, t), ""),
    "hadd": ("hadd(a, b)", lambda x, y, z, t: (x + y) >> 1, ""),
    "rhadd": ("rhadd(a, b)", lambda x, y, z, t: (x + y + 1) >> 1, ""),
    "clz": (
        "clz(a)",
        lambda x, y, z, t: _bits(t) - (x % (1 << _bits(t))).bit_length(),
        "",
    ),
    "ctz": (
        "ctz(a)",
        lambda x, y, z, t: _bits(t) if x == 0 else ((x & -x).bit_length() - 1),
        "",
    ),
    "popcount": (
        "popcount(a)",
        lambda x, y, z, t: bin(x % (1 << _bits(t))).count("1"),
        "",
    ),
    "rotate": ("rotate(a, b)", lambda x, y, z, t: _rotate(x, y, t), ""),
    "mul_hi": ("mul_hi(a, b)", lambda x, y, z, t: _mul_hi(x, y, t), ""),
    "mad_hi": ("mad_hi(a, b, c)", lambda x, y, z, t: _mul_hi(x, y, t) + z, ""),
    "mad_sat": ("mad_sat(a, b, c)", lambda x, y, z, t: _clamp(x * y + z, t), ""),
    "min": ("min(a, b)", lambda x, y, z, t: min(x, y), ""),
    "max": ("max(a, b)", lambda x, y, z, t: max(x, y), ""),
    "clamp": (
        "clamp(a, min(b, c), max(b, c))",
        lambda x, y, z, t: min(max(x, min(y, z)), max(y, z)),
        "",
    ),
}
"""Every function on every type; `mul24`, `mad24` and `upsample` have tests of
their own (they take some types only)."""

WIDER = {
    "char": "short",
    "uchar": "ushort",
    "short": "int",
    "ushort": "uint",
    "int": "long",
    "uint": "ulong",
}


def _check(name: str, got: np.ndarray, expected: list[int], result: str, args) -> None:
    want = np.array([_wrap(v, result) for v in expected], object).astype(DTYPES[result])
    bad = np.flatnonzero(got != want)
    assert not bad.size, (
        f"{name}{tuple(int(a[bad[0]]) for a in args)} = {got[bad[0]]}, expected "
        f"{want[bad[0]]} ({len(bad)} wrong)"
    )


VECTORS = [("int", 4), ("uchar", 3), ("long", 2), ("short", 8), ("ulong", 16)]
CASES = [(t, 1) for t in TYPES] + VECTORS


@by_type(("type_", "lanes"), CASES)
def test_integer_functions_are_exact(type_: str, lanes: int):
    x, y, z = _inputs(type_, lanes)
    results = {
        n: _unsigned(type_) if r == "unsigned" else type_
        for n, (_, _, r) in FUNCTIONS.items()
    }
    calls = [
        Call(expression, results[n]) for n, (expression, _, _) in FUNCTIONS.items()
    ]
    extra = []
    if type_ in ("int", "uint"):
        extra = [
            ("mul24", Call("mul24(a, b)", type_)),
            ("mad24", Call("mad24(a, b, c)", type_)),
        ]
    if type_ in WIDER:
        lo = f"as_{_unsigned(type_)}{lanes if lanes > 1 else ''}(b)"
        extra.append(("upsample", Call(f"upsample(a, {lo})", WIDER[type_])))
    # ctz is OpenCL C 2.0's
    options = "-cl-std=CL2.0"
    outputs = run_calls([*calls, *(c for _, c in extra)], [x, y, z], lanes, options)
    values = [[int(v) for v in a] for a in (x, y, z)]
    for (name, (_, reference, _)), got in zip(FUNCTIONS.items(), outputs, strict=False):
        expected = [reference(a, b, c, type_) for a, b, c in zip(*values, strict=True)]
        _check(name, got, expected, results[name], (x, y, z))
    for (name, call), got in zip(extra, outputs[len(calls) :], strict=True):
        if name == "upsample":
            bits = _bits(type_)
            expected = [
                (a << bits) | (b % (1 << bits)) for a, b, _ in zip(*values, strict=True)
            ]
        elif name == "mul24":
            expected = [a * b for a, b, _ in zip(*values, strict=True)]
        else:
            expected = [a * b + c for a, b, c in zip(*values, strict=True)]
        _check(name, got, expected, call.result, (x, y, z))
