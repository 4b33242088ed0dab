"""The math functions of `maths.FUNCTIONS` that are no single op: each takes the
emitter and the call's values (in the type `maths` computes them in) and builds
the function from exact operations, `math` ops and LLVM intrinsics, with the
special cases of the OpenCL C specification ("Edge Case Behavior") as selects.
"""

from __future__ import annotations

from collections.abc import Callable
from math import pi

from xdsl.dialects import arith, llvm, math
from xdsl.dialects.builtin import DenseArrayBase, i32, i64
from xdsl.ir import Attribute, SSAValue

from dialects import llvmx
from lowering.common.llvm_types import bit_width, element_type, pointer_type
from lowering.link_builtins.emit import Emitter, int_like, lanes, shaped
from lowering.link_builtins.floats import (
    INF,
    NAN,
    add,
    both,
    compare,
    const,
    copysign,
    div,
    either,
    fabs,
    fmax,
    fmin,
    frem,
    is_inf,
    is_nan,
    mul,
    neg,
    next_float,
    sign_bit,
    sub,
)

INT_MIN = -(2**31)
INT_MAX = 2**31 - 1


def exp10(e: Emitter, x: SSAValue) -> SSAValue:
    return e.intrinsic("llvm.exp10", [x], x.type)


def fmod(e: Emitter, x: SSAValue, y: SSAValue) -> SSAValue:
    return frem(e, x, y)


def mad(e: Emitter, a: SSAValue, b: SSAValue, c: SSAValue) -> SSAValue:
    """`a * b + c`, rounded twice (the specification lets `mad` trade accuracy
    for speed; an FMA instruction is not on every host)."""
    return add(e, mul(e, a, b), c)


def recip(e: Emitter, x: SSAValue) -> SSAValue:
    return div(e, const(e, 1.0, x), x)


def divide(e: Emitter, x: SSAValue, y: SSAValue) -> SSAValue:
    return div(e, x, y)


def powr(e: Emitter, x: SSAValue, y: SSAValue) -> SSAValue:
    """`pow` for `x >= 0`: NaN for a negative `x`, `0 ** 0`, `inf ** 0`,
    `1 ** inf` and NaN operands; otherwise `pow(|x|, y)`, which makes `-0` the
    `+0` it is here (`pow(-0, -3)` is -inf, `powr(-0, -3)` +inf)."""
    result = e.arith(math.PowFOp, fabs(e, x), y)
    y_zero = compare(e, "oeq", y, 0.0)
    invalid = [
        compare(e, "olt", x, 0.0),
        e.fcmp("uno", x, y),
        both(e, compare(e, "oeq", x, 0.0), y_zero),
        both(e, compare(e, "oeq", x, INF), y_zero),
        both(e, compare(e, "oeq", x, 1.0), is_inf(e, y)),
    ]
    nan = invalid[0]
    for condition in invalid[1:]:
        nan = either(e, nan, condition)
    return e.select(nan, const(e, NAN, x), result)


def _int_float(e: Emitter, n: SSAValue, like: SSAValue) -> SSAValue:
    """The `int`s `n` as floats of `like`'s type (a scalar `n` spread)."""
    return e.cast(arith.SIToFPOp, e.splat(n, int_like(like.type)), like.type)


def pown(e: Emitter, x: SSAValue, n: SSAValue) -> SSAValue:
    """`pow(x, n)`, `n` converted exactly (`maths` computes float's in double)."""
    return e.arith(math.PowFOp, x, _int_float(e, n, x))


def rootn(e: Emitter, x: SSAValue, n: SSAValue) -> SSAValue:
    """`|x| ** (1 / n)` with `x`'s sign for odd `n`; NaN for `n == 0` and for a
    negative `x` with even `n` (computed in double for float, where `1 / n`
    rounded costs far less than a float ulp)."""
    n = e.resize_int(n, element_type(int_like(x.type)), signed=True)
    root = e.arith(
        math.PowFOp, fabs(e, x), div(e, const(e, 1.0, x), _int_float(e, n, x))
    )
    zero = e.const(0, n.type)
    odd = e.icmp("ne", e.arith(arith.AndIOp, n, e.const(1, n.type)), zero)
    root = e.select(odd, copysign(e, root, x), root)
    negative_even = both(
        e, compare(e, "olt", x, 0.0), e.arith(arith.XOrIOp, odd, e.true(odd.type))
    )
    nan = either(e, e.icmp("eq", n, zero), negative_even)
    return e.select(nan, const(e, NAN, x), root)


def fdim(e: Emitter, x: SSAValue, y: SSAValue) -> SSAValue:
    """`x - y` if `x > y`, else +0; NaN if either is one."""
    difference = e.select(e.fcmp("ogt", x, y), sub(e, x, y), const(e, 0.0, x))
    return e.select(e.fcmp("uno", x, y), add(e, x, y), difference)


def _by_magnitude(predicate: str, tie: Callable) -> Callable:
    def build(e: Emitter, x: SSAValue, y: SSAValue) -> SSAValue:
        ax, ay = fabs(e, x), fabs(e, y)
        inner = e.select(e.fcmp(predicate, ay, ax), y, tie(e, x, y))
        return e.select(e.fcmp(predicate, ax, ay), x, inner)

    return build


maxmag = _by_magnitude("ogt", fmax)
"""`x` if `|x| > |y|`, `y` if `|y| > |x|`, else `fmax(x, y)`."""
minmag = _by_magnitude("olt", fmin)
"""`x` if `|x| < |y|`, `y` if `|y| < |x|`, else `fmin(x, y)`."""


def nextafter(e: Emitter, x: SSAValue, y: SSAValue) -> SSAValue:
    """The float after `x` towards `y` (in `x`'s own type: a half's neighbour is
    a half); `y` if they are equal, NaN if either is one."""
    stepped = next_float(e, x, e.fcmp("ogt", y, x))
    result = e.select(e.fcmp("oeq", x, y), y, stepped)
    return e.select(e.fcmp("uno", x, y), add(e, x, y), result)


def ldexp(e: Emitter, x: SSAValue, k: SSAValue) -> SSAValue:
    """`x * 2 ** k` (LLVM's `ldexp`); a scalar `k` for every lane."""
    k = e.splat(k, shaped(x.type, i32))
    return e.intrinsic("llvm.ldexp", [x, k], x.type, [x.type, k.type])


def _frexp(e: Emitter, x: SSAValue) -> tuple[SSAValue, SSAValue]:
    """LLVM's `frexp`: the significand in [0.5, 1) and the exponent."""
    exponent_type = shaped(x.type, i32)
    pair = llvm.LLVMStructType.from_type_list([x.type, exponent_type])
    both_ = e.intrinsic("llvm.frexp", [x], pair, [x.type, exponent_type])
    significand = e.insert(
        llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [0]), both_, x.type)
    )
    exponent = e.insert(
        llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [1]), both_, exponent_type)
    )
    return significand, exponent


def frexp(e: Emitter, x: SSAValue) -> tuple[SSAValue, SSAValue]:
    """The significand and the exponent; 0 as the exponent of a zero, an
    infinity or a NaN (LLVM leaves the last two unspecified)."""
    significand, exponent = _frexp(e, x)
    finite = e.fcmp("olt", fabs(e, x), const(e, INF, x))
    return significand, e.select(finite, exponent, e.const(0, exponent.type))


def ilogb(e: Emitter, x: SSAValue) -> SSAValue:
    """The unbiased exponent; `FP_ILOGB0` (INT_MIN) for zero and `FP_ILOGBNAN`
    (INT_MAX) for NaN and infinity, as our header defines them."""
    _, exponent = _frexp(e, x)
    result = e.arith(arith.SubiOp, exponent, e.const(1, exponent.type))
    result = e.select(compare(e, "oeq", x, 0.0), e.const(INT_MIN, result.type), result)
    special = either(e, is_nan(e, x), is_inf(e, x))
    return e.select(special, e.const(INT_MAX, result.type), result)


def modf(e: Emitter, x: SSAValue) -> tuple[SSAValue, SSAValue]:
    """The fraction, with `x`'s sign (±0 for an infinity), and the integral part."""
    integral = e.arith(math.TruncOp, x)
    fraction = e.select(is_inf(e, x), const(e, 0.0, x), sub(e, x, integral))
    return copysign(e, fraction, x), integral


def fract(e: Emitter, x: SSAValue) -> tuple[SSAValue, SSAValue]:
    """`fmin(x - floor(x), <the float below 1>)` and `floor(x)`; a zero fraction
    (of an integer, or of an infinity) has `x`'s sign, as the fraction of `modf`
    has; NaN for NaN. Computed in `x`'s own type (`maths`): the clamp below 1
    must hold after rounding."""
    floor = e.arith(math.FloorOp, x)
    below_one = 1.0 - 2.0 ** -_significand_bits(x)
    fraction = fmin(e, sub(e, x, floor), const(e, below_one, x))
    zero_or_inf = either(e, compare(e, "oeq", fraction, 0.0), is_inf(e, x))
    fraction = e.select(zero_or_inf, copysign(e, const(e, 0.0, x), x), fraction)
    return e.select(is_nan(e, x), x, fraction), floor


SIGNIFICAND_BITS = {16: 11, 32: 24, 64: 53}
"""The bits of the significand of the floats of each width, the implicit one
included."""


def _significand_bits(x: SSAValue) -> int:
    return SIGNIFICAND_BITS[bit_width(element_type(x.type))]


def sincos(e: Emitter, x: SSAValue) -> tuple[SSAValue, SSAValue]:
    return e.arith(math.SinOp, x), e.arith(math.CosOp, x)


def _pi_times(e: Emitter, t: SSAValue) -> SSAValue:
    return mul(e, const(e, pi, t), t)


def sinpi(e: Emitter, x: SSAValue) -> SSAValue:
    """`sin(pi * x)`: `x` reduced exactly to `t` in [0, 1/2] (period 2, `sin(pi -
    a) = sin(a)`), so that integers give exact zeros, signed as `x`."""
    t = frem(e, fabs(e, x), const(e, 2.0, x))
    flip = compare(e, "ogt", t, 1.0)
    t = e.select(flip, sub(e, t, const(e, 1.0, t)), t)
    t = e.select(compare(e, "ogt", t, 0.5), sub(e, const(e, 1.0, t), t), t)
    s = e.arith(math.SinOp, _pi_times(e, t))
    s = e.select(flip, neg(e, s), s)
    return mul(e, s, copysign(e, const(e, 1.0, x), x))


def cospi(e: Emitter, x: SSAValue) -> SSAValue:
    """`cos(pi * x)`: `x` reduced exactly to `t` in [0, 1/2] (period 2, even,
    `cos(pi - a) = -cos(a)`), then `sin(pi * (1/2 - t))`, exactly +0 at odd
    multiples of 1/2."""
    t = frem(e, fabs(e, x), const(e, 2.0, x))
    t = e.select(compare(e, "ogt", t, 1.0), sub(e, const(e, 2.0, t), t), t)
    negate = compare(e, "ogt", t, 0.5)
    t = e.select(negate, sub(e, const(e, 1.0, t), t), t)
    c = e.arith(math.SinOp, _pi_times(e, sub(e, const(e, 0.5, t), t)))
    return e.select(negate, neg(e, c), c)


def tanpi(e: Emitter, x: SSAValue) -> SSAValue:
    """`sinpi(x) / cospi(x)`: signed zeros at integers and infinities at odd
    multiples of 1/2 as the specification's edge cases say."""
    return div(e, sinpi(e, x), cospi(e, x))


def over_pi(op: type) -> Callable[..., SSAValue]:
    """`op(...) / pi` (`asinpi`, `acospi`, `atanpi`, `atan2pi`)."""

    def build(e: Emitter, *values: SSAValue) -> SSAValue:
        result = e.arith(op, *values)
        return div(e, result, const(e, pi, result))

    return build


def nan(e: Emitter, code: SSAValue, result: Attribute) -> SSAValue:
    """A quiet NaN of type `result` with `code` in the low bits of its
    significand."""
    bits = bit_width(element_type(code.type))
    quiet = {16: 0x7E00, 32: 0x7FC00000, 64: 0x7FF8000000000000}[bits]
    payload = (1 << (SIGNIFICAND_BITS[bits] - 2)) - 1
    masked = e.arith(arith.AndIOp, code, e.const(payload, code.type))
    pattern = e.arith(arith.OrIOp, masked, e.const(quiet, code.type))
    return e.bitcast(pattern, result)


def remquo(e: Emitter, x: SSAValue, y: SSAValue) -> tuple[SSAValue, SSAValue]:
    """`remainder(x, y)` and the low 7 bits of the quotient it rounded to, with
    the quotient's sign (the specification asks for at least 7; the C library's
    `remquof` gives 3). `|x|` is first reduced modulo `128 |y|` (exact), which
    keeps the remainder and those bits; the quotient of what remains is then at
    most 128, rounded from `(m - r) / |y|` (`maths` computes floats in double)."""
    a, b = fabs(e, x), fabs(e, y)
    m = frem(e, a, mul(e, const(e, 128.0, b), b))
    r = e.c_library("remainder", [m, b])
    quotient = e.arith(math.RoundEvenOp, div(e, sub(e, m, r), b))
    bits_type = shaped(x.type, i32)
    finite = compare(e, "olt", quotient, INF)  # not NaN either
    k = e.cast(arith.FPToSIOp, e.select(finite, quotient, const(e, 0.0, x)), bits_type)
    k = e.arith(arith.AndIOp, k, e.const(127, bits_type))
    negative = e.arith(arith.XOrIOp, sign_bit(e, x), sign_bit(e, y))
    k = e.select(negative, e.arith(arith.SubiOp, e.const(0, bits_type), k), k)
    remainder = mul(e, r, copysign(e, const(e, 1.0, x), x))
    return remainder, k


def with_int_pointer(name: str, float_name: str) -> Callable[..., SSAValue]:
    """The C library's `name(x..., int *)` (`lgamma_r`), lane by lane,
    each lane's `int` written to its element of the pointer's array."""

    def build(e: Emitter, *values_and_pointer: SSAValue) -> SSAValue:
        *values, pointer = values_and_pointer
        result = values[0].type
        scalar = element_type(result)
        private = pointer_type(0)
        symbol = float_name if bit_width(scalar) == 32 else name
        e.declare(symbol, [scalar] * len(values) + [private], scalar)
        results = []
        for lane in range(max(lanes(result), 1)):
            scalars = [e.extract(v, lane) if lanes(v.type) else v for v in values]
            address = e.element_pointer(pointer, e.const(lane, i64), i32)
            if address.type != private:
                address = e.insert(llvmx.AddrSpaceCastOp(address, private))
            results.append(e.call(symbol, [*scalars, address], scalar))
        return e.build_vector(results, result)

    return build


lgamma_r = with_int_pointer("lgamma_r", "lgammaf_r")
