"""The math functions of the builtin library (`link-builtins`, `maths`), run on
edge values and on random ones against numpy references, within the OpenCL C
specification's ULP limits: float and double scalars and vectors, halves (which
are computed in float, so within one ulp of the exact value)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from builtin_kernels import Call, edge_floats, run_calls, ulps

RNG = np.random.default_rng(16)
PI = 4 * np.arctan(np.longdouble(1))
"""pi in numpy's long double (x86's 80 bits)."""


def _random(dtype: type, count: int = 96) -> np.ndarray:
    """Values of every magnitude a test should see, both signs."""
    parts = [
        RNG.uniform(-4, 4, count),
        RNG.uniform(-100, 100, count // 2),
        np.exp(RNG.uniform(-20, 20, count // 2)) * RNG.choice([-1, 1], count // 2),
    ]
    with np.errstate(over="ignore"):  # halves: the largest become infinities
        return np.concatenate(parts).astype(dtype)


def _vectorised(function):
    def apply(*args):
        return np.array(
            [function(*a) for a in zip(*(np.asarray(x, np.float64) for x in args))]
        )

    return apply


def _gamma(x: float) -> float:
    try:
        return math.gamma(x)
    except OverflowError:  # huge x, or x near 0
        return math.copysign(math.inf, x) if abs(x) < 1 else math.inf
    except ValueError:  # a pole: ±0 gives ±inf, negative integers NaN
        return math.copysign(math.inf, x) if x == 0 else math.nan


def _lgamma(x: float) -> float:
    try:
        return math.lgamma(x)
    except (ValueError, OverflowError):
        return math.inf


def _pi_reduced(function):
    """`function(pi * x)` with `x` reduced exactly modulo 2 first, so that the
    reference is exact at integers and halves."""

    def reference(x):
        with np.errstate(invalid="ignore"):
            r = np.fmod(np.asarray(x, np.float64), 2.0)
            angle = PI * r.astype(np.longdouble)  # near 2 pi, double's pi is not enough
            return function(angle, r).astype(np.float64)

    return reference


def _sinpi(angle, r):
    exact = np.isin(np.abs(r), (0.0, 1.0))
    return np.where(exact, np.copysign(0.0, r), np.sin(angle))


def _cospi(angle, r):
    return np.where(np.isin(np.abs(r), (0.5, 1.5)), 0.0, np.cos(angle))


def _tanpi(angle, r):
    odd_half = np.isin(r, (0.5, -1.5))
    other_half = np.isin(r, (-0.5, 1.5))
    zero = np.isin(np.abs(r), (0.0, 1.0))
    signed_zero = np.where(np.abs(r) == 1.0, np.copysign(0.0, -r), np.copysign(0.0, r))
    result = np.where(zero, signed_zero, np.tan(angle))
    return np.where(odd_half, np.inf, np.where(other_half, -np.inf, result))


def _logb(x):
    with np.errstate(divide="ignore"):
        _, exponent = np.frexp(x)
        finite = (exponent - 1).astype(np.float64)
    return np.where(x == 0, -np.inf, np.where(np.isfinite(x), finite, np.abs(x)))


UNARY = {
    # name: (reference on float64, float ulps, double ulps)
    "sqrt": (np.sqrt, 3, 0),
    "rsqrt": (lambda x: 1 / np.sqrt(x), 2, 2),
    "cbrt": (np.cbrt, 2, 2),
    "fabs": (np.abs, 0, 0),
    "floor": (np.floor, 0, 0),
    "ceil": (np.ceil, 0, 0),
    "trunc": (np.trunc, 0, 0),
    "round": (lambda x: np.copysign(np.floor(np.abs(x) + 0.5), x), 0, 0),
    "rint": (np.rint, 0, 0),
    "exp": (np.exp, 3, 3),
    "exp2": (np.exp2, 3, 3),
    "exp10": (lambda x: np.power(10.0, x), 3, 3),
    "expm1": (np.expm1, 3, 3),
    "log": (np.log, 3, 3),
    "log2": (np.log2, 3, 3),
    "log10": (np.log10, 3, 3),
    "log1p": (np.log1p, 2, 2),
    "sin": (np.sin, 4, 4),
    "cos": (np.cos, 4, 4),
    "tan": (np.tan, 5, 5),
    "asin": (np.arcsin, 4, 4),
    "acos": (np.arccos, 4, 4),
    "atan": (np.arctan, 5, 5),
    "sinh": (np.sinh, 4, 4),
    "cosh": (np.cosh, 4, 4),
    "tanh": (np.tanh, 5, 5),
    "asinh": (np.arcsinh, 4, 4),
    "acosh": (np.arccosh, 4, 4),
    "atanh": (np.arctanh, 5, 5),
    "erf": (_vectorised(math.erf), 16, 16),
    "erfc": (_vectorised(math.erfc), 16, 16),
    "tgamma": (_vectorised(_gamma), 16, 16),
    "logb": (_logb, 0, 0),
    "sinpi": (_pi_reduced(_sinpi), 4, 4),
    "cospi": (_pi_reduced(_cospi), 4, 4),
    "tanpi": (_pi_reduced(_tanpi), 6, 6),
    "asinpi": (lambda x: np.arcsin(x) / np.pi, 5, 5),
    "acospi": (lambda x: np.arccos(x) / np.pi, 5, 5),
    "atanpi": (lambda x: np.arctan(x) / np.pi, 5, 5),
}
"""The unary functions: numpy reference and the specification's ULP limits."""

DOUBLE_MISSING = ()
NATIVE = ["sin", "cos", "tan", "exp", "exp2", "exp10", "log", "log2", "log10", "sqrt"]


def _check(name: str, got: np.ndarray, reference: np.ndarray, limit: float, x) -> None:
    error = ulps(got, reference)
    bad = np.flatnonzero(error > limit)
    assert not bad.size, (
        f"{name}: {len(bad)} results beyond {limit} ulp, e.g. {name}({x[bad[0]]!r}) "
        f"= {got[bad[0]]!r}, expected {reference[bad[0]]!r} ({error[bad[0]]} ulp)"
    )
    zeros = (reference == 0) & (got == 0)
    wrong_sign = np.flatnonzero(zeros & (np.signbit(got) != np.signbit(reference)))
    assert not wrong_sign.size, (
        f"{name}({x[wrong_sign[0]]!r}) = {got[wrong_sign[0]]!r}: the wrong zero"
    )


def _unary_inputs(dtype: type, lanes: int) -> np.ndarray:
    x = np.concatenate([edge_floats(dtype), _random(dtype)])
    return np.resize(x, -(-len(x) // lanes) * lanes) if lanes > 1 else x


@pytest.mark.parametrize("lanes", [1, 4, 3])
def test_float_unary_functions_are_within_their_ulp_limits(lanes: int):
    x = _unary_inputs(np.float32, lanes)
    names = list(UNARY)
    outputs = run_calls([Call(f"{n}(a)", "float") for n in names], [x], lanes)
    with np.errstate(all="ignore"):
        for name, got in zip(names, outputs, strict=True):
            reference, limit, _ = UNARY[name]
            _check(name, got, reference(x.astype(np.float64)), limit, x)


def test_native_and_half_functions_are_the_functions():
    x = _unary_inputs(np.float32, 1)
    calls = [Call(f"{p}_{n}(a)", "float") for n in NATIVE for p in ("native", "half")]
    calls += [Call("native_recip(a)", "float"), Call("half_divide(a, 3.0f)", "float")]
    outputs = run_calls(calls, [x])
    with np.errstate(all="ignore"):
        for call, got in zip(calls, outputs, strict=True):
            name = call.expression.split("(")[0].split("_", 1)[1]
            if name in UNARY:
                reference = UNARY[name][0](x.astype(np.float64))
            else:
                wide = x.astype(np.float64)
                reference = 1 / wide if name == "recip" else wide / 3
            _check(call.expression, got, reference, 4 if name != "tan" else 5, x)


def test_double_unary_functions_are_within_their_ulp_limits():
    x = _unary_inputs(np.float64, 2)
    names = list(UNARY)
    outputs = run_calls([Call(f"{n}(a)", "double") for n in names], [x], 2)
    with np.errstate(all="ignore"):
        for name, got in zip(names, outputs, strict=True):
            reference, _, limit = UNARY[name]
            # numpy's double functions are the reference: one ulp of their own
            _check(name, got, reference(x), limit + 1, x)


@pytest.mark.parametrize("lanes", [1, 2])
def test_half_unary_functions_are_within_one_ulp(lanes: int):
    x = _unary_inputs(np.float16, lanes)
    names = list(UNARY)
    outputs = run_calls([Call(f"{n}(a)", "half") for n in names], [x], lanes)
    with np.errstate(all="ignore"):
        for name, got in zip(names, outputs, strict=True):
            reference = UNARY[name][0](x.astype(np.float64))
            limit = 0 if UNARY[name][1] == 0 else 1
            _check(name, got, reference, limit, x)
