"""The integer functions of OpenCL C (its specification, "Integer Functions"), on
signed and unsigned scalars and vectors of every width, computed in the element's
own width as the specification defines them:

- `abs` (an unsigned result: `abs(INT_MIN)` is 2^31), `abs_diff` (`|x - y|`
  without overflow), `add_sat`/`sub_sat` (LLVM's saturating intrinsics), `hadd`
  (`(x + y) >> 1`) and `rhadd` (`(x + y + 1) >> 1`) without overflow;
- `clz`, `ctz`, `popcount` (`math` ops, defined at 0), `rotate` (LLVM's funnel
  shift, the count modulo the width);
- `mul_hi` and `mad_hi` (the product in twice the width, its high half), `mad_sat`
  (`a * b + c` in twice the width, clamped), `mul24` and `mad24` (the 32-bit
  product: the specification leaves operands beyond 24 bits undefined);
- `upsample(hi, lo)` (`hi << n | lo`, in twice the width), and `min`, `max`,
  `clamp` on integers (`clamp` is `min(max(x, minval), maxval)`).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Attribute, SSAValue

from lowering.common.llvm_types import bit_width, element_type
from lowering.common.mangling import Demangled
from lowering.link_builtins.definition import (
    Definition,
    is_int_gentype,
    match,
)
from lowering.link_builtins.emit import Emitter, shaped

IntCompute = Callable[..., SSAValue]
"""(emitter, signed, *values) -> the result."""


def _min(e: Emitter, signed: bool, x: SSAValue, y: SSAValue) -> SSAValue:
    return e.arith(arith.MinSIOp if signed else arith.MinUIOp, x, y)


def _max(e: Emitter, signed: bool, x: SSAValue, y: SSAValue) -> SSAValue:
    return e.arith(arith.MaxSIOp if signed else arith.MaxUIOp, x, y)


def _shift_right(e: Emitter, signed: bool, x: SSAValue, n: int) -> SSAValue:
    cls = arith.ShRSIOp if signed else arith.ShRUIOp
    return e.arith(cls, x, e.const(n, x.type))


def _add(e: Emitter, x: SSAValue, y: SSAValue) -> SSAValue:
    return e.arith(arith.AddiOp, x, y)


def _halving(rounding: type) -> IntCompute:
    """`hadd` (`rounding` and) or `rhadd` (or): `(x >> 1) + (y >> 1)` plus the
    carry of the low bits."""

    def build(e: Emitter, signed: bool, x: SSAValue, y: SSAValue) -> SSAValue:
        halves = _add(e, _shift_right(e, signed, x, 1), _shift_right(e, signed, y, 1))
        low = e.arith(arith.AndIOp, e.arith(rounding, x, y), e.const(1, x.type))
        return _add(e, halves, low)

    return build


def _abs(e: Emitter, signed: bool, x: SSAValue) -> SSAValue:
    return e.arith(math.AbsIOp, x) if signed else x


def _abs_diff(e: Emitter, signed: bool, x: SSAValue, y: SSAValue) -> SSAValue:
    greater = e.icmp("sgt" if signed else "ugt", x, y)
    forward = e.arith(arith.SubiOp, x, y)
    backward = e.arith(arith.SubiOp, y, x)
    return e.select(greater, forward, backward)


def _saturating(operation: str) -> IntCompute:
    def build(e: Emitter, signed: bool, x: SSAValue, y: SSAValue) -> SSAValue:
        name = f"llvm.{'s' if signed else 'u'}{operation}.sat"
        return e.intrinsic(name, [x, y], x.type)

    return build


def _widen(e: Emitter, signed: bool, x: SSAValue) -> SSAValue:
    """`x` in integers of twice its width."""
    wide = IntegerType(2 * bit_width(element_type(x.type)))
    return e.resize_int(x, wide, signed)


def _mul_hi(e: Emitter, signed: bool, x: SSAValue, y: SSAValue) -> SSAValue:
    bits = bit_width(element_type(x.type))
    product = e.arith(arith.MuliOp, _widen(e, signed, x), _widen(e, signed, y))
    high = _shift_right(e, signed, product, bits)
    return e.resize_int(high, element_type(x.type), signed)


def _mad_hi(
    e: Emitter, signed: bool, a: SSAValue, b: SSAValue, c: SSAValue
) -> SSAValue:
    return _add(e, _mul_hi(e, signed, a, b), c)


def _mad_sat(
    e: Emitter, signed: bool, a: SSAValue, b: SSAValue, c: SSAValue
) -> SSAValue:
    """`a * b + c` exactly in twice the width (it fits: |a * b| < 2^(2n - 2) and
    |c| < 2^n), clamped to the element's range, whose bounds are made in the
    element's width and extended."""
    element = element_type(a.type)
    bits = bit_width(element)
    total = _add(
        e,
        e.arith(arith.MuliOp, _widen(e, signed, a), _widen(e, signed, b)),
        _widen(e, signed, c),
    )
    highest = (1 << (bits - 1)) - 1 if signed else -1
    high = _widen(e, signed, e.const(highest, a.type))
    clamped = _min(e, signed, total, high)
    if signed:
        low = _widen(e, signed, e.const(-(1 << (bits - 1)), a.type))
        clamped = _max(e, signed, clamped, low)
    return e.resize_int(clamped, element, signed)


def _multiply_add(
    e: Emitter, signed: bool, a: SSAValue, b: SSAValue, c: SSAValue
) -> SSAValue:
    return _add(e, e.arith(arith.MuliOp, a, b), c)


def _rotate(e: Emitter, signed: bool, x: SSAValue, n: SSAValue) -> SSAValue:
    return e.intrinsic("llvm.fshl", [x, x, n], x.type)


def _clamp(
    e: Emitter, signed: bool, x: SSAValue, low: SSAValue, high: SSAValue
) -> SSAValue:
    return _min(e, signed, _max(e, signed, x, low), high)


def _op(cls: type) -> IntCompute:
    return lambda e, signed, *values: e.arith(cls, *values)


FUNCTIONS: dict[str, tuple[str, IntCompute]] = {
    "abs": ("g", _abs),
    "abs_diff": ("gg", _abs_diff),
    "add_sat": ("gg", _saturating("add")),
    "sub_sat": ("gg", _saturating("sub")),
    "hadd": ("gg", _halving(arith.AndIOp)),
    "rhadd": ("gg", _halving(arith.OrIOp)),
    "clz": ("g", _op(math.CountLeadingZerosOp)),
    "ctz": ("g", _op(math.CountTrailingZerosOp)),
    "popcount": ("g", _op(math.CtPopOp)),
    "rotate": ("gg", _rotate),
    "mul_hi": ("gg", _mul_hi),
    "mad_hi": ("ggg", _mad_hi),
    "mad_sat": ("ggg", _mad_sat),
    "mul24": ("gg", _op(arith.MuliOp)),
    "mad24": ("ggg", _multiply_add),
    "min": ("gs", _min),
    "max": ("gs", _max),
    "clamp": ("gss", _clamp),
}
"""Each integer function: its pattern (`definition.match`) and computation."""


def _upsample(d: Demangled) -> Definition | None:
    """`upsample(hi, lo)`: `hi` widened (by its sign), shifted up by the width,
    or-ed with `lo` (unsigned) widened."""
    if len(d.params) != 2 or not all(is_int_gentype(p) for p in d.params):
        return None
    hi, lo = d.params
    hi_type, lo_type = hi.llvm_type(), lo.llvm_type()
    assert hi_type is not None and lo_type is not None
    bits = bit_width(element_type(hi_type))
    if hi_type != lo_type or not lo.scalar.is_unsigned or bits > 32:
        return None
    result = shaped(hi_type, IntegerType(2 * bits))
    signed = not hi.scalar.is_unsigned

    def build(e: Emitter, args: list[SSAValue]) -> SSAValue:
        high = _widen(e, signed, args[0])
        shifted = e.arith(arith.ShLIOp, high, e.const(bits, result))
        return e.arith(arith.OrIOp, shifted, _widen(e, False, args[1]))

    return Definition(result, build)


def find(d: Demangled) -> Definition | None:
    """The definition of integer function `d`, if it is one."""
    if d.name == "upsample":
        return _upsample(d)
    entry = FUNCTIONS.get(d.name)
    if entry is None:
        return None
    pattern, compute = entry
    if not match(d, pattern, is_int_gentype):
        return None
    type_: Attribute | None = d.params[0].llvm_type()
    assert type_ is not None
    signed = not d.params[0].scalar.is_unsigned
    return Definition(type_, lambda e, args: compute(e, signed, *args))
