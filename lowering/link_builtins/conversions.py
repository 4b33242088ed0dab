"""The explicit conversions of OpenCL C (its specification, "Explicit
Conversions"): `convert_<type><n>[_sat][_rte|_rtz|_rtp|_rtn](x)`, between every
pair of scalar or vector types of `n` lanes.

- **Rounding**: to an integer the default is `_rtz`; to a float `_rte`. A float
  rounded to an integer is first rounded to an integral float by the mode
  (`roundeven`, `trunc`, `ceil`, `floor`), then converted. An integer or float
  rounded to a narrower float is rounded to nearest even by LLVM (`sitofp`,
  `fptrunc`), then, for the directed modes, moved to the neighbouring float when
  that rounding went the wrong way, which a comparison with the exact value tells
  (`directed`). Halves are made from doubles through float rounded to odd
  (`Emitter.resize_float`), from integers through double.
- **Saturation** (`_sat`, integer results only): out-of-range values become the
  nearest representable one and NaN becomes 0 (LLVM's `fptosi.sat`/`fptoui.sat`
  for floats, a clamp in the wider of the two widths for integers). Without it an
  integer is truncated or extended by its source's sign, and an out-of-range
  float gives what the host's conversion instruction gives.
"""

from __future__ import annotations

import re

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    i1,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue

from lowering.common.llvm_types import bit_width, element_type
from lowering.common.mangling import Demangled
from lowering.link_builtins.definition import Definition, is_gentype, width
from lowering.link_builtins.emit import Emitter, is_float, shaped
from lowering.link_builtins.floats import F64, compare, next_float, sign_bit

DESTINATIONS: dict[str, tuple[Attribute, bool]] = {
    "char": (i8, True),
    "uchar": (i8, False),
    "short": (i16, True),
    "ushort": (i16, False),
    "int": (i32, True),
    "uint": (i32, False),
    "long": (i64, True),
    "ulong": (i64, False),
    "half": (Float16Type(), True),
    "float": (Float32Type(), True),
    "double": (Float64Type(), True),
}
"""OpenCL C's scalar types: LLVM type, and whether signed."""

NAME = re.compile(
    r"convert_(?P<type>[a-z]+?)(?P<lanes>2|3|4|8|16)?(?P<sat>_sat)?"
    r"(?:_(?P<mode>rte|rtz|rtp|rtn))?"
)
SIGNIFICAND_BITS = {16: 11, 32: 24, 64: 53}

INTEGRAL = {"rte": math.RoundEvenOp, "rtp": math.CeilOp, "rtn": math.FloorOp}
"""How a float is made integral before a conversion to an integer, by mode
(`rtz` is what the conversion does itself)."""


def directed(
    e: Emitter, nearest: SSAValue, above: SSAValue, below: SSAValue, mode: str
) -> SSAValue:
    """`nearest` (rounded to nearest even) rounded by `mode` instead, given
    whether it is `above` or `below` the exact value: one float further when
    nearest rounding went the way `mode` forbids."""
    if mode == "rte":
        return nearest
    if mode == "rtp":
        step, up = below, e.true(nearest.type)
    elif mode == "rtn":
        step, up = above, e.const(0, shaped(nearest.type, i1))
    else:  # rtz: towards zero (up from a negative float or -0)
        up = sign_bit(e, nearest)
        step = e.select(up, below, above)
    return e.select(step, next_float(e, nearest, up), nearest)


def float_to_float(e: Emitter, x: SSAValue, element: Attribute, mode: str) -> SSAValue:
    """Floats to floats of type `element`, rounded by `mode`."""
    if bit_width(element) >= bit_width(element_type(x.type)):
        return e.resize_float(x, element)
    nearest = e.resize_float(x, element)
    if mode == "rte":
        return nearest
    back = e.resize_float(nearest, element_type(x.type))
    return directed(e, nearest, e.fcmp("ogt", back, x), e.fcmp("olt", back, x), mode)


def int_to_float(
    e: Emitter, x: SSAValue, signed: bool, element: Attribute, mode: str
) -> SSAValue:
    """Integers (signed or not) to floats of type `element`, rounded by `mode`."""
    bits = bit_width(element_type(x.type))
    if isinstance(element, Float16Type):
        return float_to_float(e, _int_to_double(e, x, signed), element, mode)
    to_float = arith.SIToFPOp if signed else arith.UIToFPOp
    nearest = e.cast(to_float, x, shaped(x.type, element))
    if mode == "rte" or bits - signed <= SIGNIFICAND_BITS[bit_width(element)]:
        return nearest  # exact
    # The float back as an integer, unless it is 2^(bits - signed) (the one
    # rounding above the largest integer), where the conversion would overflow.
    beyond = compare(e, "oge", nearest, 2.0 ** (bits - signed))
    to_int = arith.FPToSIOp if signed else arith.FPToUIOp
    back = e.cast(to_int, nearest, x.type)
    greater = e.icmp("sgt" if signed else "ugt", back, x)
    less = e.icmp("slt" if signed else "ult", back, x)
    above = e.select(beyond, e.true(beyond.type), greater)
    below = e.select(beyond, e.const(0, beyond.type), less)
    return directed(e, nearest, above, below, mode)


def _int_to_double(e: Emitter, x: SSAValue, signed: bool) -> SSAValue:
    """Integers as doubles, exactly: wider ones first clamped to ±2^20, beyond
    which every integer rounds alike to a half in every mode."""
    if bit_width(element_type(x.type)) > 32:
        limit = e.const(1 << 20, x.type)
        if signed:
            x = e.arith(arith.MaxSIOp, x, e.const(-(1 << 20), x.type))
            x = e.arith(arith.MinSIOp, x, limit)
        else:
            x = e.arith(arith.MinUIOp, x, limit)
    to_float = arith.SIToFPOp if signed else arith.UIToFPOp
    return e.cast(to_float, x, shaped(x.type, F64))


def float_to_int(
    e: Emitter, x: SSAValue, element: Attribute, signed: bool, sat: bool, mode: str
) -> SSAValue:
    """Floats to integers of type `element`, made integral by `mode`, saturated
    with `sat`."""
    if isinstance(element_type(x.type), Float16Type):
        x = e.resize_float(x, Float32Type())
    if mode in INTEGRAL:
        x = e.arith(INTEGRAL[mode], x)
    result = shaped(x.type, element)
    if sat:
        name = "llvm.fptosi.sat" if signed else "llvm.fptoui.sat"
        return e.intrinsic(name, [x], result, [result, x.type])
    return e.cast(arith.FPToSIOp if signed else arith.FPToUIOp, x, result)


def int_to_int(
    e: Emitter,
    x: SSAValue,
    source_signed: bool,
    element: Attribute,
    signed: bool,
    sat: bool,
) -> SSAValue:
    """Integers to integers of type `element`: with `sat` clamped (in the source's
    width) to the destination's range, then truncated or extended by the source's
    sign."""
    if sat:
        x = _clamp_to(e, x, source_signed, bit_width(element), signed)
    return e.resize_int(x, element, source_signed)


def _clamp_to(
    e: Emitter, x: SSAValue, source_signed: bool, bits: int, signed: bool
) -> SSAValue:
    """`x` clamped to the range of `bits`-bit integers (`signed` or not), where
    that range is narrower than the source's."""
    source_bits = bit_width(element_type(x.type))
    highest = (1 << (bits - signed)) - 1
    if highest < (1 << (source_bits - source_signed)) - 1:
        minimum = arith.MinSIOp if source_signed else arith.MinUIOp
        x = e.arith(minimum, x, e.const(highest, x.type))
    if source_signed:
        lowest = -(1 << (bits - 1)) if signed else 0
        if lowest > -(1 << (source_bits - 1)):
            x = e.arith(arith.MaxSIOp, x, e.const(lowest, x.type))
    return x


def find(d: Demangled) -> Definition | None:
    """The definition of conversion `d`, if it is one."""
    found = NAME.fullmatch(d.name)
    if found is None or found["type"] not in DESTINATIONS or len(d.params) != 1:
        return None
    (source,) = d.params
    lanes = int(found["lanes"] or 0)
    if not is_gentype(source) or width(source) != lanes:
        return None
    element, signed = DESTINATIONS[found["type"]]
    sat = bool(found["sat"])
    if sat and not isinstance(element, IntegerType):
        return None
    source_type = source.llvm_type()
    assert source_type is not None
    source_signed = not source.scalar.is_unsigned
    to_float = not isinstance(element, IntegerType)
    mode = found["mode"] or ("rte" if to_float else "rtz")

    def build(e: Emitter, args: list[SSAValue]) -> SSAValue:
        (x,) = args
        if is_float(x.type):
            if to_float:
                return float_to_float(e, x, element, mode)
            return float_to_int(e, x, element, signed, sat, mode)
        if to_float:
            return int_to_float(e, x, source_signed, element, mode)
        return int_to_int(e, x, source_signed, element, signed, sat)

    return Definition(shaped(source_type, element), build)
