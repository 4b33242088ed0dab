"""The math functions of the builtin library (`link-builtins`, `maths`), run on
edge values and on random ones against numpy references, within the OpenCL C
specification's ULP limits: float and double scalars and vectors, halves (which
are computed in float, so within one ulp of the exact value)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from builtin_kernels import Call, by_type, edge_floats, run_calls, ulps, whole_vectors

import mux

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
    """`function` of Python floats on arrays; NaN where it raises a domain
    error."""

    def safe(*args: float) -> float:
        try:
            return function(*args)
        except ValueError:
            return math.nan

    def apply(*args):
        columns = (np.asarray(x, np.float64) for x in args)
        return np.array([safe(*a) for a in zip(*columns, strict=True)])

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

NATIVE = ["sin", "cos", "tan", "exp", "exp2", "exp10", "log", "log2", "log10", "sqrt"]


def _check(name: str, got: np.ndarray, reference: np.ndarray, limit: float, x) -> None:
    """Within `limit` ulps of `reference` (0: correctly rounded, half an ulp), and
    a zero of the reference's sign where both are zeros."""
    error = ulps(got, reference)
    bad = np.flatnonzero(error > max(limit, 0.5))
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
    return whole_vectors(np.concatenate([edge_floats(dtype), _random(dtype)]), lanes)


UNARY_CASES = [(np.float32, n) for n in (1, 4, 3)] + [(np.float64, 2)]
UNARY_CASES += [(np.float16, n) for n in (1, 2)]


def _unary_limit(name: str, dtype: type) -> float:
    """The function's limit for floats; one more for doubles, whose reference
    (numpy's) has an error of its own; one ulp for halves (computed in float, then
    rounded once), none for the exact functions."""
    _, limit, double_limit = UNARY[name]
    if dtype is np.float64:
        return double_limit + 1
    return min(limit, 1) if dtype is np.float16 else limit


@by_type(("dtype", "lanes"), UNARY_CASES)
def test_unary_functions_are_within_their_ulp_limits(dtype: type, lanes: int):
    x = _unary_inputs(dtype, lanes)
    names = list(UNARY)
    type_ = {np.float16: "half", np.float32: "float", np.float64: "double"}[dtype]
    outputs = run_calls([Call(f"{n}(a)", type_) for n in names], [x], lanes)
    with np.errstate(all="ignore"):
        for name, got in zip(names, outputs, strict=True):
            reference = UNARY[name][0](x.astype(np.float64))
            _check(name, got, reference, _unary_limit(name, dtype), x)


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


def _pairs(dtype: type, lanes: int) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of edge values, then random pairs."""
    edges = edge_floats(dtype)
    x = np.concatenate([np.repeat(edges, len(edges)), _random(dtype)])
    y = np.concatenate([np.tile(edges, len(edges)), _random(dtype)[::-1]])
    return whole_vectors(x, lanes), whole_vectors(y, lanes)


def _powr(x, y):
    invalid = (
        (x < 0)
        | np.isnan(x)
        | np.isnan(y)
        | ((x == 0) & (y == 0))
        | (np.isinf(x) & (y == 0))
        | ((x == 1) & np.isinf(y))
    )
    return np.where(invalid, np.nan, np.power(np.abs(x), y))


def _fdim(x, y):
    return np.where(np.isnan(x) | np.isnan(y), np.nan, np.where(x > y, x - y, 0.0))


def _by_magnitude(pick, tie):
    def reference(x, y):
        ax, ay = np.abs(x), np.abs(y)
        return np.where(pick(ax, ay), x, np.where(pick(ay, ax), y, tie(x, y)))

    return reference


BINARY = {
    # name: (reference on float64, float ulps, whether the sign of a zero counts)
    "pow": (np.power, 16, True),
    "powr": (_powr, 16, True),
    "atan2": (np.arctan2, 6, True),
    "atan2pi": (lambda y, x: np.arctan2(y, x) / np.pi, 6, True),
    "fmin": (np.fmin, 0, False),
    "fmax": (np.fmax, 0, False),
    "fmod": (np.fmod, 0, True),
    "remainder": (_vectorised(math.remainder), 0, True),
    "hypot": (np.hypot, 4, True),
    "copysign": (np.copysign, 0, True),
    "fdim": (_fdim, 0, True),
    "maxmag": (_by_magnitude(np.greater, np.fmax), 0, False),
    "minmag": (_by_magnitude(np.less, np.fmin), 0, False),
}
"""The functions of two floats: numpy reference, ULP limit (float and double)."""


def _check_binary(name, got, reference, limit, signed_zero, x, y):
    if not signed_zero:
        got, reference = got + 0.0, reference + 0.0  # -0 + 0 is +0
    _check(name, got, reference, limit, list(zip(x, y, strict=True)))


@pytest.mark.parametrize(
    ("dtype", "lanes"), [(np.float32, 1), (np.float32, 2), (np.float64, 1)]
)
def test_binary_functions_are_within_their_ulp_limits(dtype: type, lanes: int):
    x, y = _pairs(dtype, lanes)
    type_ = "float" if dtype is np.float32 else "double"
    names = list(BINARY)
    calls = [Call(f"{n}(a, b)", type_) for n in names]
    calls.append(Call("nextafter(a, b)", type_))
    outputs = run_calls(calls, [x, y], lanes)
    extra = 1 if dtype is np.float64 else 0  # numpy's own error
    with np.errstate(all="ignore"):
        for name, got in zip(names, outputs, strict=False):
            reference, limit, signed_zero = BINARY[name]
            expected = reference(x.astype(np.float64), y.astype(np.float64))
            limit = limit + extra if limit else 0
            _check_binary(name, got, expected, limit, signed_zero, x, y)
        expected = np.nextafter(x, y).astype(np.float64)
        _check_binary("nextafter", outputs[-1], expected, 0, True, x, y)


def test_half_binary_functions_round_once_and_nextafter_steps_a_half():
    x, y = _pairs(np.float16, 1)
    names = ["pow", "atan2", "fmod", "hypot", "fdim", "minmag"]
    calls = [Call(f"{n}(a, b)", "half") for n in names]
    calls += [Call("nextafter(a, b)", "half"), Call("fma(a, b, a)", "half")]
    outputs = run_calls(calls, [x, y])
    with np.errstate(all="ignore"):
        for name, got in zip(names, outputs, strict=False):
            reference, limit, signed_zero = BINARY[name]
            expected = reference(x.astype(np.float64), y.astype(np.float64))
            _check_binary(name, got, expected, min(limit, 1), signed_zero, x, y)
        # C's nextafter returns y when x == y (numpy's on halves: x)
        expected = np.where(x == y, y, np.nextafter(x, y)).astype(np.float64)
        _check_binary("nextafter", outputs[-2], expected, 0, True, x, y)
        wide = x.astype(np.float64)
        fma = wide * y.astype(np.float64) + wide  # exact for halves
        _check_binary("fma", outputs[-1], fma, 0, True, x, y)


@pytest.mark.parametrize("lanes", [1, 4])
def test_fma_is_exact_and_mad_is_a_product_then_a_sum(lanes: int):
    x, y = _pairs(np.float32, lanes)
    z = np.roll(x, 7)
    outputs = run_calls(
        [Call("fma(a, b, c)", "float"), Call("mad(a, b, c)", "float")], [x, y, z], lanes
    )
    with np.errstate(all="ignore"):
        wide = [v.astype(np.longdouble) for v in (x, y, z)]
        exact = (wide[0] * wide[1] + wide[2]).astype(np.float64)
        _check_binary("fma", outputs[0], exact, 0, True, x, y)
        twice = ((x * y).astype(np.float32) + z).astype(np.float32)
        np.testing.assert_array_equal(outputs[1], twice)


def _rootn(x, n):
    odd = n % 2 == 1
    with np.errstate(divide="ignore"):
        root = np.power(np.abs(x), 1.0 / n)
    root = np.where(odd, np.copysign(root, x), root)
    return np.where((n == 0) | ((x < 0) & ~odd), np.nan, root)


def _ilogb(x):
    _, exponent = np.frexp(x)
    special = np.where(x == 0, -(2**31), 2**31 - 1)
    return np.where(np.isfinite(x) & (x != 0), exponent - 1, special)


@pytest.mark.parametrize("lanes", [1, 4])
def test_functions_of_an_integer_argument(lanes: int):
    edges = edge_floats(np.float32)
    exponents = np.array([0, 1, -1, 2, 3, -3, 7, 10, -10, 126, -149, 300, -300])
    x = np.repeat(edges, len(exponents))
    n = np.tile(exponents, len(edges)).astype(np.int32)
    x, n = whole_vectors(x, lanes), whole_vectors(n, lanes)
    calls = [
        Call("ldexp(a, b)", "float"),
        Call("pown(a, b)", "float"),
        Call("rootn(a, b)", "float"),
        Call("ilogb(a)", "int"),
    ]
    ldexp, pown, rootn, ilogb = run_calls(calls, [x, n], lanes)
    wide = x.astype(np.float64)
    with np.errstate(all="ignore"):
        _check("ldexp", ldexp, np.ldexp(wide, n), 0, list(zip(x, n, strict=True)))
        _check(
            "pown",
            pown,
            np.power(wide, n.astype(np.float64)),
            16,
            list(zip(x, n, strict=True)),
        )
        _check("rootn", rootn, _rootn(wide, n), 16, list(zip(x, n, strict=True)))
    np.testing.assert_array_equal(ilogb, _ilogb(x))


OUT_POINTER_KERNEL = """
__kernel void k(__global const $T *x_, __global const $T *y_,
                __global $T *frexp_m, __global int *frexp_e,
                __global $T *modf_f, __global $T *modf_i,
                __global $T *fract_f, __global $T *fract_i,
                __global $T *sin_, __global $T *cos_,
                __global $T *rem, __global int *quo,
                __global $T *lgamma_, __global int *sign) {
    size_t i = get_global_id(0);
    $TN x = LOAD(i, x_), y = LOAD(i, y_);
    STORE(frexp(x, (__global $INTN *)frexp_e + i), i, frexp_m);
    STORE(modf(x, (__global $TN *)modf_i + i), i, modf_f);
    STORE(fract(x, (__global $TN *)fract_i + i), i, fract_f);
    STORE(sincos(x, (__global $TN *)cos_ + i), i, sin_);
    STORE(remquo(x, y, (__global $INTN *)quo + i), i, rem);
    STORE(lgamma_r(x, (__global $INTN *)sign + i), i, lgamma_);
}
"""


def _fract(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`fract` from `modf`: a negative fraction moves up by one (and the integral
    part down), to the float below 1 if that rounds to 1."""
    fraction, integral = np.modf(x)
    negative = fraction < 0
    fraction = np.where(negative, (fraction + 1).astype(x.dtype), fraction)
    below_one = np.nextafter(x.dtype.type(1), x.dtype.type(0))
    fraction = np.where(fraction == 1, below_one, fraction)
    return fraction, np.where(negative, integral - 1, integral)


def _remquo(x: float, y: float) -> tuple[float, int]:
    """The remainder and the low 7 bits of the exact quotient it rounds to,
    with its sign (exact, in fractions)."""
    from fractions import Fraction

    if math.isnan(x) or math.isnan(y) or math.isinf(x) or y == 0:
        return math.nan, 0
    remainder = math.remainder(x, y)  # x for an infinite y
    if math.isinf(y):
        return remainder, 0
    quotient = (Fraction(x) - Fraction(remainder)) / Fraction(y)
    bits = abs(int(quotient)) % 128
    return remainder, -bits if (x < 0) != (y < 0) else bits


@pytest.mark.parametrize("lanes", [1, 4])
def test_functions_writing_through_a_pointer(lanes: int):
    x, y = _pairs(np.float32, lanes)
    vector = "" if lanes == 1 else str(lanes)
    source = OUT_POINTER_KERNEL.replace("$TN", f"float{vector}")
    source = source.replace("$T", "float").replace("$INTN", f"int{vector}")
    if lanes == 1:
        macros = "#define LOAD(i, p) p[i]\n#define STORE(v, i, p) p[i] = (v)\n"
    else:
        macros = (
            f"#define LOAD(i, p) vload{lanes}(i, p)\n"
            f"#define STORE(v, i, p) vstore{lanes}(v, i, p)\n"
        )
    program = mux.compile(macros + source, language="opencl")
    floats = [np.zeros_like(x) for _ in range(12)]
    (m, f, i, fr, fi, s, c, r, g), ints = (
        floats[:9],
        [np.zeros(len(x), np.int32) for _ in range(3)],
    )
    e, q, sign = ints
    program.kernel("k")(
        x,
        y,
        m,
        e,
        f,
        i,
        fr,
        fi,
        s,
        c,
        r,
        q,
        g,
        sign,
        global_size=(len(x) // lanes,),
        local_size=(1,),
    )
    expected_m, expected_e = np.frexp(x)
    np.testing.assert_array_equal(m, expected_m)
    np.testing.assert_array_equal(e, np.where(np.isfinite(x), expected_e, 0))
    expected_f, expected_i = np.modf(x)
    _check("modf", f, expected_f.astype(np.float64), 0, x)
    _check("modf's integral part", i, expected_i.astype(np.float64), 0, x)
    expected_fr, expected_fi = _fract(x)
    _check("fract", fr, expected_fr.astype(np.float64), 0, x)
    _check("fract's floor", fi, expected_fi.astype(np.float64), 0, x)
    with np.errstate(all="ignore"):
        _check("sincos", s, np.sin(x.astype(np.float64)), 4, x)
        _check("sincos's cosine", c, np.cos(x.astype(np.float64)), 4, x)
    expected = [_remquo(float(a), float(b)) for a, b in zip(x, y, strict=True)]
    _check(
        "remquo", r, np.array([v for v, _ in expected]), 0, list(zip(x, y, strict=True))
    )
    finite = np.isfinite(r)
    np.testing.assert_array_equal(q[finite], np.array([k for _, k in expected])[finite])
    # lgamma's accuracy is not specified; away from its zeros it is the C library's
    lgamma = np.array([_lgamma(float(v)) for v in x])
    ordinary = ~np.isnan(lgamma) & (np.abs(lgamma) > 1e-3)
    _check("lgamma_r", g[ordinary], lgamma[ordinary], 16, x[ordinary])
    gamma = np.array([_gamma(float(v)) for v in x])
    regular = np.isfinite(x) & (x != np.floor(x)) & (gamma != 0)
    np.testing.assert_array_equal(sign[regular], np.sign(gamma[regular]))


def test_nan_of_a_code_is_a_quiet_nan_with_the_code():
    codes = np.array([0, 1, 5, 0x3FFFFF, 0xFFFFFFFF], np.uint32)
    (out,) = run_calls([Call("nan(a)", "float")], [codes])
    bits = out.view(np.uint32)
    np.testing.assert_array_equal(bits, 0x7FC00000 | (codes & 0x3FFFFF))
