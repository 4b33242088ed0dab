"""Building blocks on floats, scalars or vectors, shared by the families of
`link-builtins`: the classifications (`is_nan`, `is_inf`), exact operations
(`fabs`, `copysign`, `fmin`, `fmax`), stepping to the neighbouring float
(`next_float`), and computing in a wider type (`widened`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, llvm, math
from xdsl.dialects.builtin import Float32Type, Float64Type
from xdsl.ir import Attribute, SSAValue

from lowering.common.llvm_types import bit_width, element_type
from lowering.link_builtins.emit import Emitter, int_like, is_float

F32 = Float32Type()
F64 = Float64Type()
INF = float("inf")
NAN = float("nan")


def const(e: Emitter, value: float, like: SSAValue) -> SSAValue:
    """`value` in `like`'s type (a splat on vectors)."""
    return e.const(value, like.type)


def op_of(cls: type) -> Callable[..., SSAValue]:
    """A builder of the `arith` or `math` op `cls` on its values."""
    return lambda e, *values: e.arith(cls, *values)


add = op_of(arith.AddfOp)
sub = op_of(arith.SubfOp)
mul = op_of(arith.MulfOp)
div = op_of(arith.DivfOp)
neg = op_of(arith.NegfOp)
copysign = op_of(math.CopySignOp)
fabs = op_of(math.AbsFOp)
fmin = op_of(arith.MinnumfOp)
"""OpenCL C's `fmin`: the other operand when one is a NaN (LLVM's `minnum`)."""
fmax = op_of(arith.MaxnumfOp)
"""OpenCL C's `fmax`: the other operand when one is a NaN (LLVM's `maxnum`)."""


def frem(e: Emitter, x: SSAValue, y: SSAValue) -> SSAValue:
    """C's `fmod`: exact (LLVM's `frem`; xDSL 0.74 has no `arith.remf`)."""
    return e.insert(llvm.FRemOp(x, e.splat(y, x.type)))


def is_nan(e: Emitter, x: SSAValue) -> SSAValue:
    return e.fcmp("uno", x, x)


def is_inf(e: Emitter, x: SSAValue) -> SSAValue:
    return e.fcmp("oeq", fabs(e, x), const(e, INF, x))


def compare(e: Emitter, predicate: str, x: SSAValue, y: float) -> SSAValue:
    """`x <predicate> y` for a number `y`."""
    return e.fcmp(predicate, x, const(e, y, x))


def either(e: Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    return e.arith(arith.OrIOp, a, b)


def both(e: Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    return e.arith(arith.AndIOp, a, b)


def sign_bit(e: Emitter, x: SSAValue) -> SSAValue:
    """Whether the sign bit of `x` is set (-0 and NaNs included)."""
    bits = e.bitcast(x, int_like(x.type))
    return e.icmp("slt", bits, e.const(0, bits.type))


def step_bits(e: Emitter, x: SSAValue, steps: SSAValue | int) -> SSAValue:
    """The float whose bits are `x`'s plus `steps` (an integer of `x`'s bits, or a
    number): one step away from zero for +1, towards zero for -1, for finite
    non-zero floats and infinities (towards zero only)."""
    bits_type = int_like(x.type)
    bits = e.bitcast(x, bits_type)
    if isinstance(steps, int):
        steps = e.const(steps, bits_type)
    return e.bitcast(e.arith(arith.AddiOp, bits, steps), x.type)


def next_float(e: Emitter, x: SSAValue, up: SSAValue) -> SSAValue:
    """The float next to `x` (finite or infinite, not a NaN), above it where `up`
    and below it elsewhere; from a zero, the smallest denormal of that side."""
    bits_type = int_like(x.type)
    # Away from zero (+1 on the bits) when the step goes the way of x's sign.
    away = e.arith(arith.XOrIOp, up, sign_bit(e, x))
    one, minus_one = e.const(1, bits_type), e.const(-1, bits_type)
    stepped = step_bits(e, x, e.select(away, one, minus_one))
    zero = compare(e, "oeq", x, 0.0)
    smallest = e.bitcast(one, x.type)
    tiny = e.select(up, smallest, neg(e, smallest))
    return e.select(zero, tiny, stepped)


def widened(
    e: Emitter,
    values: Sequence[SSAValue],
    wide: Attribute,
    compute: Callable[..., SSAValue],
) -> SSAValue:
    """`compute` on `values` whose floats are first extended to `wide` where that
    is wider (`wide` f32: halves are computed in float), its result rounded back
    to the first value's element type."""
    narrow = element_type(values[0].type)
    widen = bit_width(wide) > bit_width(narrow)
    args = [
        e.resize_float(v, wide) if widen and is_float(v.type) else v for v in values
    ]
    result = compute(e, *args)
    if not widen or not is_float(result.type):
        return result
    return e.resize_float(result, narrow)
