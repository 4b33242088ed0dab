"""Manifests of the `precision` group (UnitCL's ktst_precision.cpp), single and
double precision: maths builtins against references computed here in a wider
type (double for float, x87 long double for double: numpy's `longdouble`),
within the ulps the tests allow, and the exact results the tests state for
rounding modes, denormals and constants. The half-precision kernels have no
manifest yet.

Inputs the tests draw at random (kts's GenerateFloatData: random finite bit
patterns, then 0, -0, both infinities and NaNs) are drawn here the same way
from a fixed seed."""

from __future__ import annotations

import math

import numpy as np

from . import In, Launch, Out, Scalar

I8, I32, U32, I64, U64 = np.int8, np.int32, np.uint32, np.int64, np.uint64
F32, F64 = np.float32, np.float64


def _one(*args, global_size, local_size=None, **kw) -> list[Launch]:
    return [Launch(args, global_size, local_size, **kw)]


def _bits(dtype, *patterns: int) -> np.ndarray:
    """Floats of `dtype` from their bit patterns."""
    unsigned = U64 if np.dtype(dtype).itemsize == 8 else U32
    return np.array(patterns, unsigned).view(dtype)


def random_floats(dtype, count: int, seed: int) -> np.ndarray:
    """Random finite floats of every magnitude (random bit patterns), with 0, -0,
    +-infinity and NaNs of several payloads among them."""
    rng = np.random.default_rng(seed)
    unsigned = U64 if np.dtype(dtype).itemsize == 8 else U32
    info = np.iinfo(unsigned)
    values = rng.integers(0, info.max, count, dtype=unsigned, endpoint=True)
    values = values.view(dtype)
    values[~np.isfinite(values)] = dtype(1.5)
    inf, nan = dtype(np.inf), dtype(np.nan)
    edges = np.array([0.0, -0.0, inf, -inf, nan, -nan], dtype)
    values[: edges.size] = edges
    return rng.permutation(values)


def _of_double(fn, x: np.ndarray, pole: float = np.nan) -> np.ndarray:
    """fn of each float in double, rounded to float: infinity where it overflows,
    `pole` where Python's math refuses it (a pole or outside the domain)."""
    with np.errstate(all="ignore"):
        return np.array([c_call(fn, float(v), pole=pole) for v in x], F64).astype(F32)


def c_call(fn, *args: float, pole: float = math.nan) -> float:
    """`fn(*args)` of Python's math as C gives it: infinity where Python raises
    an overflow, `pole` where it refuses the input (a pole, or outside the
    domain: NaN)."""
    try:
        return fn(*args)
    except OverflowError:
        return math.inf
    except ValueError:
        return pole


def _tgamma_pole(v: float) -> float:
    """C's tgamma where Python's math.gamma refuses: +-0 -> +-inf; negative
    integers and -inf -> NaN."""
    return math.copysign(math.inf, v) if v == 0 else math.nan


def _sincos(dtype, seed: int) -> list[Launch]:
    """sin and cos of 128 random values, 4 ulp, in groups of 16 (the `_local`
    kernels require it)."""
    x = random_floats(dtype, 128, seed)
    if dtype is F32:
        sin, cos = (_of_double(f, x) for f in (math.sin, math.cos))
    else:
        wide = x.astype(np.longdouble)
        with np.errstate(invalid="ignore"):
            sin, cos = (f(wide).astype(F64) for f in (np.sin, np.cos))
    return _one(In(x), Out(sin), Out(cos), global_size=x.size, local_size=16)


def _tgamma() -> np.ndarray:
    """The test's boundary cases and their neighbours, and values in between."""
    special = np.array([1.8e-6, 36.0, -87.0, 2.0, -100.0], F32)
    around = [special, np.nextafter(special, F32(np.inf))]
    around.append(np.nextafter(special, F32(-np.inf)))
    rng = np.random.default_rng(85)
    spread = rng.uniform(-50, 50, 4096).astype(F32)
    return np.concatenate([random_floats(F32, 4096, 85), spread, *around])


_POW = [
    (0x3FE68916486FC659, 0x409D807D465CDBA5, 0x043CD984BA25C315),
    (0x3FE6965DCE5DB957, 0xC09EDE2FD8959CD0, 0x7DFC4A45ECA67233),
    (0x3FF5C9415BCF0E2A, 0xC09C597F8214F74F, 0x0D6FB7865F5A5847),
    (0x3FF563F1817987E4, 0x40A07AA63DF47685, 0x7727E603AB04A097),
    (0x3FF571193CA843CE, 0x4098D60C97D05248, 0x69E432ACD4602312),
    (0x3FF5B395C8074F92, 0xC0946F3211D5F53A, 0x1BFE7F0CA3CCDCFF),
    (0x3FF5E124309AE9D4, 0xC09EF9C49B949A1C, 0x07FE377C6A2D7BF0),
    (0x3FF5F0DFE9487BB0, 0xC09B2A94170D7029, 0x0E6F10480D8AD105),
    (0x3FF67C98FF145DA5, 0xC09E2B9D5D27F252, 0x04AE61170D1C68D8),
    (0x29B4C1257162C100, 0x3FECB3F5C779C8BA, 0x2C002E19C3D8BDCA),
    (0x41FEDDC8713E7B83, 0x4001B79B3D833F11, 0x447F4DB8DC6A93F0),
    (0x165E7A512B9C3420, 0x3FAA351886D030F0, 0x3DCF121D46673250),
    (0x7B7F9E543DEDDCF0, 0xBFE2E7BF30A589C8, 0x1CBFBBAC958B85E6),
    (0x30D583B5BE30B8B8, 0xBFFFEC47423EC5F8, 0x5E0F9C9AE75A7D77),
    (0x4599CFFF90D958BF, 0x4018A851782CB994, 0x62E087A183EBA8DF),
    (0xFFEFFFFFFFFFFFFF, 0x3FF0000000000000, 0xFFEFFFFFFFFFFFFF),
    (0x3FF5E92BAA52528A, 0x40A0D69C3F9FD885, 0x7D08025A7DA98980),
    (0x3FF5F6610EE72F73, 0x40A13746EDC29098, 0x7EDFAF6F1CEF3DCC),
]
"""pow(x, y) = z, 16 ulp: (x, y, z) bit patterns as the test states them."""

_DENORMS = [
    (0x00400000, 0x3F000000, 0x00200000),
    (0x00400000, 0x3E000000, 0x00080000),
    (0x00400000, 0x3E99999A, 0x00133333),
    (0x00001803, 0x3F000000, 0x00000C02),
    (0x00180000, 0x4D040401, 0x0CC60602),
]
"""A denormal times a normal float = the product, 1 ulp: bit patterns."""

_DIVIDE_RELAXED = [
    (0x7FC00000, 0x7FC00000, 0x7FC00000),
    (0xA1FCBD7C, 0x2EFF9BA9, 0xB27D20B3),
    (0x2FB75FE2, 0xC4C8FFCD, 0xAA698D75),
    (0x380B4A11, 0x7FC00000, 0x7FC00000),
    (0xCEC6F557, 0x44CC6FA1, 0xC9792405),
    (0x7FC00000, 0xB57B0CED, 0x7FC00000),
]
"""x / y = z under -cl-fast-relaxed-math, 2 ulp: bit patterns (three float2s)."""


def _columns(dtype, rows) -> list[np.ndarray]:
    return [_bits(dtype, *column) for column in zip(*rows, strict=True)]


def _flushed_or(product: np.ndarray, normal: np.ndarray):
    """-cl-denorms-are-zero: the product, or what a flushed denormal gives (the
    normal operand, +0 or -0), element by element, 1 ulp."""

    def check(got: np.ndarray) -> str | None:
        near = np.abs(got.view(I32).astype(I64) - product.view(I32)) <= 1
        ok = near | (got == normal) | (got == 0)
        bad = np.flatnonzero(~ok)
        if not bad.size:
            return None
        i = int(bad[0])
        return f"element {i}: expected {product[i]!r} (or flushed), got {got[i]!r}"

    return check


_A, _B, _C = _columns(F32, _DENORMS)
_X, _Y, _Z = _columns(F64, _POW)
_L, _R, _Q = (c.reshape(-1, 2) for c in _columns(F32, _DIVIDE_RELAXED))


def tgamma(v: float) -> float:
    """C's tgamma of a double: Python's math.gamma, with C's values where it
    refuses (`_tgamma_pole`) or overflows."""
    return c_call(math.gamma, v, pole=_tgamma_pole(v))


def _of_gamma(x: np.ndarray) -> np.ndarray:
    """tgamma of each float in double, rounded to float."""
    values = [tgamma(float(v)) for v in x]
    with np.errstate(over="ignore"):  # beyond FLT_MAX: infinity, as in float
        return np.array(values, F64).astype(F32)


_LGAMMA = np.array([0.0, 1.0, 3.14, 5.15, 6.01, 7.89], F32)
_TGAMMA = _tgamma()

MANIFESTS: dict[str, list[Launch]] = {
    "precision.01_pow_func": _one(
        In(_X), In(_Y), Out(_Z, ulp=16), global_size=len(_POW)
    ),
    "precision.02_denorms": [
        Launch((In(_A), In(_B), Out(_C, ulp=1)), len(_DENORMS), label="denormals"),
        Launch(
            (In(_A), In(_B), Out(_flushed_or(_C, _B), F32, len(_DENORMS))),
            len(_DENORMS),
            options="-cl-denorms-are-zero",
            label="-cl-denorms-are-zero",
        ),
    ],
    # FLT_MIN / 2^32 * 2^32 in double (unsuffixed constants are double)
    "precision.17_double_constant": _one(
        Out(np.array([np.finfo(F32).tiny], F32), ulp=0), global_size=1
    ),
    # remquo(x, inf): the quotient is 0
    "precision.84_double_remquo": _one(
        Out(np.array([0], I32)),
        Scalar(F64(-4.1757451841279743e225)),
        Scalar(F64(np.inf)),
        global_size=1,
    ),
    "precision.85_single_tgamma": _one(
        In(_TGAMMA),
        Out(_of_gamma(_TGAMMA), ulp=16),
        global_size=_TGAMMA.size,
    ),
    "precision.86_single_lgamma": _one(
        In(_LGAMMA),
        Out(_of_double(math.lgamma, _LGAMMA, math.inf), ulp=16),
        global_size=_LGAMMA.size // 2,
    ),
    "precision.87_single_sincos": _sincos(F32, 87),
    "precision.87_single_sincos_local": _sincos(F32, 88),
    "precision.87_double_sincos": _sincos(F64, 89),
    "precision.87_double_sincos_local": _sincos(F64, 90),
    "precision.91_double_convert_char_rtn": _one(
        In(np.array([-3.5], F64)), Out(np.array([-4], I8)), global_size=1
    ),
    "precision.91_double_convert_char_rtp": _one(
        In(np.array([-3.5], F64)), Out(np.array([-3], I8)), global_size=1
    ),
    "precision.93_divide_relaxed": _one(
        In(_L),
        In(_R),
        Out(_Q, ulp=2),
        global_size=len(_DIVIDE_RELAXED) // 2,
        options="-cl-fast-relaxed-math",
    ),
}
