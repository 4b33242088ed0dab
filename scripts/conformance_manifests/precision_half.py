"""Manifests of the half-precision kernels of the `precision` group (UnitCL's
ktst_precision.cpp, its HalfOperatorTest and HalfMathBuiltins fixtures): one
launch per vector width the fixture runs (`TYPE` half, half2 ... half16, through
vloadN/vstoreN for the operators), on every combination of the half edge cases
(NaNs, infinities, zeros, denormals, the largest values) followed by random
halves of every bit pattern, each result within the test's ulps of its
reference.

The references are computed here in double from the halves' exact values and
rounded once to half (`Out`'s ulps are then counted from the correctly rounded
result; fma's double sum is corrected where it sits on a half tie, `_fma`).
The int arguments (ldexp's exponents, pown's powers) are drawn here. No
manifest yet: remquo, lgamma and lgamma_r, mix and smoothstep (any ulps),
powr, rootn, nan, the `_scalar` forms, and the edge-case kernels 88..92."""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import product

import numpy as np

from . import In, Launch, Out, compare
from .precision import c_call, tgamma

F16, F64, U16, I32 = np.float16, np.float64, np.uint16, np.int32

EDGES = [
    0x7C01, 0xFC01, 0x7C00, 0xFC00, 0x0000, 0x8000, 0x3C00, 0xBC00, 0x4000,
    0xC000, 0x0001, 0x8001, 0x0002, 0x8002, 0x03FF, 0x83FF, 0x07FF, 0x87FF,
    0x0400, 0x8400, 0x01A3, 0x81A3, 0x02C9, 0x82C9, 0x7BFF, 0xFBFF,
]  # fmt: skip
"""The half edge cases: NaNs, infinities, zeros, +-1, +-2, the smallest and
largest denormals, the smallest normal, two denormals, the largest finite."""

RANDOM = 8192
"""Random halves after the edge cases (kts's default, "wimpy", input size)."""

MATH_WIDTHS = (1, 2, 4, 8, 16)
OPERATOR_WIDTHS = (1, 2, 3, 4, 8, 16)


def inputs(arity: int, width: int, seed: int) -> list[np.ndarray]:
    """`arity` input buffers: every combination of the edge cases, then random
    bit patterns, to a multiple of 4 work-items of `width` lanes."""
    rows = np.array(list(product(EDGES, repeat=arity)), U16).reshape(-1, arity)
    rng = np.random.default_rng(seed)
    random = rng.integers(0, 0xFFFF, (RANDOM, arity), U16, endpoint=True)
    values = np.concatenate([rows, random])
    pad = -len(values) % (4 * width)
    values = np.concatenate([values, random[:pad]])
    return [values[:, k].view(F16) for k in range(arity)]


Reference = Callable[..., np.ndarray]


def _launches(
    fn: Reference,
    arity: int,
    ulp: int,
    operator: bool = False,
    outputs: int = 1,
    int_input: int | None = None,
    undefined: Reference | None = None,
    alternative: Reference | None = None,
) -> list[Launch]:
    """A launch per vector width: `arity` inputs (input `int_input` of ints,
    `INT_TYPE`), `outputs` outputs, halves within `ulp` of `fn` of the inputs
    (halves as doubles) or ints (where `fn` gives ints), but where `undefined`
    of the inputs is true: the spec leaves those results undefined. A result
    equal to `alternative` of the inputs (another one the spec allows) passes."""
    launches = []
    widths = OPERATOR_WIDTHS if operator else MATH_WIDTHS
    for width in widths:
        data = inputs(arity, width, seed=width)
        if int_input is not None:
            data[int_input] = _ints(data[int_input].size, seed=width)
        wide = [d.astype(F64) if d.dtype == F16 else d for d in data]
        with np.errstate(all="ignore"):  # NaNs, poles, overflows to infinity
            results = fn(*wide)
            results = results if outputs > 1 else (results,)
            expected = [_as_output(r) for r in results]
            free = None if undefined is None else undefined(*wide)
            other = None if alternative is None else _as_output(alternative(*wide))
        shape = (-1,) if operator or width == 1 else (-1, width)
        args = [In(d.reshape(shape)) for d in data]
        args += [_output(e.reshape(shape), ulp, free, other) for e in expected]
        macros = {"TYPE": "half" if width == 1 else f"half{width}"}
        macros |= {"FLOAT_TYPE": macros["TYPE"], "INT_TYPE": "int"}
        if width != 1:
            macros |= {"LOAD_FUNC": f"vload{width}", "STORE_FUNC": f"vstore{width}"}
            macros["INT_TYPE"] = f"int{width}"
        items = data[0].size // width
        launches.append(Launch(tuple(args), items, macros=macros, label=f"{width}"))
    return launches


def _output(
    expected: np.ndarray,
    ulp: int,
    free: np.ndarray | None,
    other: np.ndarray | None,
) -> Out:
    """`expected` within `ulp`, anything where `free` is true, `other` (exactly)
    where it is given."""
    if free is None and other is None:
        return Out(expected, ulp=ulp)
    free = np.zeros(expected.size, bool) if free is None else free
    defined = ~free.reshape(expected.shape)
    allowed = expected if other is None else other.reshape(expected.shape)

    def check(got: np.ndarray) -> str | None:
        alike = (got == allowed) | (np.isnan(got) & np.isnan(allowed))
        checked = defined if other is None else defined & ~alike
        return compare(expected[checked], got[checked], ulp)

    return Out(check, expected.dtype, expected.shape)


def _ints(count: int, seed: int) -> np.ndarray:
    """Exponents and powers for the int arguments: -40..40, with the extremes."""
    values = np.random.default_rng(seed).integers(-40, 40, count, endpoint=True)
    values[:4] = [0, 1, -1, 2**31 - 1][: min(4, count)]
    return values.astype(I32)


def _as_output(result) -> np.ndarray:
    result = np.asarray(result)
    if np.issubdtype(result.dtype, np.integer):
        return result.astype(I32)
    return result.astype(F64).astype(F16)


def _elementwise(fn) -> Reference:
    """A reference from a scalar function of Python floats (math's)."""

    def apply(*arrays: np.ndarray) -> np.ndarray:
        return np.array([c_call(fn, *v) for v in zip(*arrays, strict=True)], F64)

    return apply


def _pi_reduced(fn) -> Reference:
    """fn(pi x) from x reduced modulo 2 first (exactly), so pi x is accurate."""
    return lambda x: fn(np.pi * np.fmod(x, 2.0))


def _magnitude(pick_larger: bool) -> Reference:
    """maxmag / minmag: the input of larger (smaller) magnitude; fmax (fmin) of
    both when the magnitudes are equal or one is NaN."""

    def apply(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        ax, ay = np.abs(x), np.abs(y)
        first = ax > ay if pick_larger else ax < ay
        second = ay > ax if pick_larger else ay < ax
        tie = np.fmax(x, y) if pick_larger else np.fmin(x, y)
        return np.where(first, x, np.where(second, y, tie))

    return apply


def _logb(x: np.ndarray) -> np.ndarray:
    """The unbiased exponent of x as a float (denormals' own exponent)."""
    exponent = (np.frexp(x)[1] - 1).astype(F64)
    special = np.where(x == 0, -np.inf, np.where(np.isnan(x), np.nan, np.inf))
    return np.where(np.isfinite(x) & (x != 0), exponent, special)


def _round(x: np.ndarray) -> np.ndarray:
    """Halfway cases away from zero."""
    return np.copysign(np.floor(np.abs(x) + 0.5), x)


def _sign(x: np.ndarray) -> np.ndarray:
    """1 or -1; a zero its own sign; 0 for NaN."""
    return np.where(np.isnan(x), 0.0, np.where(x == 0, x, np.copysign(1.0, x)))


def _fdim(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.where(np.isnan(x) | np.isnan(y), np.nan, np.where(x > y, x - y, 0.0))


def _nextafter(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The next half after x toward y (in half, not in double)."""
    return np.nextafter(x.astype(F16), y.astype(F16)).astype(F64)


def _hypot(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """An infinite input gives +infinity, even with a NaN (C99's Annex F)."""
    return np.where(np.isinf(x) | np.isinf(y), np.inf, np.hypot(x, y))


def _ilogb(x: np.ndarray) -> np.ndarray:
    """The exponent as an int: INT_MIN for zeros, INT_MAX for NaN and infinity
    (the values the test picks of those C allows)."""
    exponent = np.frexp(x)[1] - 1
    special = np.where(x == 0, np.iinfo(I32).min, np.iinfo(I32).max)
    return np.where(np.isfinite(x) & (x != 0), exponent, special).astype(I32)


def _frexp(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The mantissa in [0.5, 1) and the exponent; x itself and 0 for zeros,
    infinities and NaNs."""
    mantissa, exponent = np.frexp(x)
    finite = np.isfinite(x)
    return np.where(finite, mantissa, x), np.where(finite, exponent, 0).astype(I32)


def _fract(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """min(x - floor(x), the largest half below 1) and floor(x); +-0 and x for
    infinities, NaN and NaN for NaN (as modf)."""
    floor = np.floor(x)
    below_one = float(np.nextafter(F16(1), F16(0)))
    fract = np.fmin(x - floor, below_one)
    fract = np.where(np.isinf(x), np.copysign(0.0, x), fract)
    return np.where(np.isnan(x), x, fract), floor


def _modf(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The fractional and integral parts, both with x's sign."""
    fractional, integral = np.modf(x)
    return np.copysign(fractional, x), integral


def _tanpi(x: np.ndarray) -> np.ndarray:
    """tan(pi x), odd, of period 1: |x| reduced by its nearest integer (ties to
    even), so that the poles n + 1/2 give +infinity for even n and -infinity
    for odd n, as the spec says."""
    r = np.abs(x) - np.rint(np.abs(x))
    sign = np.copysign(1.0, x) * np.copysign(1.0, r)
    return sign * np.tan(np.abs(r) * np.pi)


def _fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a * b + c rounded once: a * b is exact in double; the sum's rounding
    error (two-sum, exact) breaks a tie of the half rounding that the double
    sum may have landed on, by moving it one double ulp toward the exact value."""
    ab = a * b
    s = ab + c
    b_virtual = s - ab
    error = (ab - (s - b_virtual)) + (c - b_virtual)
    toward = np.where(error > 0, np.inf, -np.inf)
    nudge = np.isfinite(s) & np.isfinite(error) & (error != 0)
    return np.where(nudge, np.nextafter(s, toward), s)


def _any_nan(*values: np.ndarray) -> np.ndarray:
    return np.any([np.isnan(v) for v in values], axis=0)


def _clamp_undefined(x: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    return _any_nan(x, low, high) | (low > high)


def _mad(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """The product rounded to half, plus c (exact in double), rounded once."""
    return (a * b).astype(F16).astype(F64) + c


def _mad_undefined(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """A product a half denormal: the spec leaves its handling open."""
    product = np.abs(a * b)
    return (product > 0) & (product < float(np.finfo(F16).tiny))


def _sincos(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.sin(x), np.cos(x)


_OPERATORS = {
    "03_half_add": (np.add, 2, 0),
    "04_half_sub": (np.subtract, 2, 0),
    "05_half_mul": (np.multiply, 2, 0),
    "06_half_div": (np.divide, 2, 0),
    "07_half_recip": (lambda x: 1.0 / x, 1, 0),
}
"""stem -> (reference, inputs, ulps), HalfOperatorTest (widths 1, 2, 3, 4, 8, 16)."""

_MATH = {
    "09_half_exp10": (lambda x: 10.0**x, 1, 2),
    "10_half_exp": (np.exp, 1, 2),
    "11_half_exp2": (np.exp2, 1, 2),
    "12_half_expm1": (np.expm1, 1, 2),
    "13_half_fabs": (np.abs, 1, 0),
    "14_half_copysign": (np.copysign, 2, 0),
    "15_half_floor": (np.floor, 1, 0),
    "16_half_ceil": (np.ceil, 1, 0),
    "17_half_sqrt": (np.sqrt, 1, 0),
    "19_half_rsqrt": (lambda x: 1.0 / np.sqrt(x), 1, 1),
    "20_half_sinpi": (_pi_reduced(np.sin), 1, 2),
    "21_half_cospi": (_pi_reduced(np.cos), 1, 2),
    "23_half_log2": (np.log2, 1, 2),
    "24_half_log10": (np.log10, 1, 2),
    "25_half_log": (np.log, 1, 2),
    "26_half_fmax": (np.fmax, 2, 0),
    "27_half_fmin": (np.fmin, 2, 0),
    "28_half_maxmag": (_magnitude(True), 2, 0),
    "29_half_minmag": (_magnitude(False), 2, 0),
    "30_half_trunc": (np.trunc, 1, 0),
    "33_half_fmod": (np.fmod, 2, 0),
    "34_half_round": (_round, 1, 0),
    "35_half_rint": (np.rint, 1, 0),
    "36_half_remainder": (_elementwise(math.remainder), 2, 0),
    "38_half_fdim": (_fdim, 2, 0),
    "40_half_logb": (_logb, 1, 0),
    "42_half_nextafter": (_nextafter, 2, 0),
    "44_half_log1p": (np.log1p, 1, 2),
    "45_half_cbrt": (np.cbrt, 1, 2),
    "46_half_hypot": (_hypot, 2, 2),
    "49_half_sign": (_sign, 1, 0),
    "50_half_degrees": (np.degrees, 1, 2),
    "51_half_radians": (np.radians, 1, 2),
    "56_half_asin": (np.arcsin, 1, 2),
    "57_half_acos": (np.arccos, 1, 2),
    "58_half_atan": (np.arctan, 1, 2),
    "59_half_sin": (np.sin, 1, 2),
    "60_half_cos": (np.cos, 1, 2),
    "61_half_tan": (np.tan, 1, 2),
    "62_half_asinh": (np.arcsinh, 1, 2),
    "63_half_acosh": (np.arccosh, 1, 2),
    "64_half_atanh": (np.arctanh, 1, 2),
    "65_half_asinpi": (lambda x: np.arcsin(x) / np.pi, 1, 2),
    "66_half_acospi": (lambda x: np.arccos(x) / np.pi, 1, 2),
    "67_half_atanpi": (lambda x: np.arctan(x) / np.pi, 1, 2),
    "72_half_erfc": (_elementwise(math.erfc), 1, 4),
    "73_half_erf": (_elementwise(math.erf), 1, 4),
    "77_half_sinh": (np.sinh, 1, 2),
    "78_half_cosh": (np.cosh, 1, 2),
    "79_half_tanh": (np.tanh, 1, 2),
    "80_half_pow": (np.power, 2, 4),
}
"""stem -> (reference, inputs, ulps), HalfMathBuiltins (widths 1, 2, 4, 8, 16)."""

_WITH_OUTPUT_ARGUMENT = {
    "18_half_frexp": (_frexp, 0),
    "39_half_fract": (_fract, 0),
    "41_half_modf": (_modf, 0),
    "70_half_sincos": (_sincos, 2),
}
"""stem -> (reference of two results, ulps): the second result is written
through the kernel's pointer argument (global, `_local`, `_private`)."""

MANIFESTS: dict[str, list[Launch]] = {
    **{
        f"precision.{stem}": _launches(fn, arity, ulp, operator=True)
        for stem, (fn, arity, ulp) in _OPERATORS.items()
    },
    **{
        f"precision.{stem}": _launches(fn, arity, ulp, operator=False)
        for stem, (fn, arity, ulp) in _MATH.items()
    },
    **{
        f"precision.{stem}{suffix}": _launches(fn, 1, ulp, outputs=2)
        for stem, (fn, ulp) in _WITH_OUTPUT_ARGUMENT.items()
        for suffix in ("", "_local", "_private")
    },
    "precision.08_half_ldexp": _launches(np.ldexp, 2, 0, int_input=1),
    "precision.22_half_ilogb": _launches(_ilogb, 1, 0),
    # max(x, y) = y if x < y else x; min(x, y) = y if y < x else x;
    # step(edge, x) = 0 if x < edge else 1: undefined with a NaN
    "precision.47_half_max": _launches(
        lambda x, y: np.where(x < y, y, x), 2, 0, undefined=_any_nan
    ),
    "precision.48_half_min": _launches(
        lambda x, y: np.where(y < x, y, x), 2, 0, undefined=_any_nan
    ),
    "precision.54_half_step": _launches(
        lambda edge, x: np.where(x < edge, 0.0, 1.0), 2, 0, undefined=_any_nan
    ),
    "precision.52_half_clamp": _launches(
        lambda x, low, high: np.minimum(np.maximum(x, low), high),
        3,
        0,
        undefined=_clamp_undefined,
    ),
    # mad: a multiply and an add each rounded, or an fma rounded once
    "precision.32_half_mad": _launches(
        _mad, 3, 0, undefined=_mad_undefined, alternative=_fma
    ),
    "precision.43_half_fma": _launches(_fma, 3, 0),
    "precision.71_half_tanpi": _launches(_tanpi, 1, 2),
    "precision.76_half_tgamma": _launches(_elementwise(tgamma), 1, 4),
    "precision.82_half_pown": _launches(np.power, 2, 4, int_input=1),
}
