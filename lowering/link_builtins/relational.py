"""The relational functions of OpenCL C (its specification, "Relational
Functions"): the comparisons (`isequal`, `isnotequal`, `isgreater`,
`isgreaterequal`, `isless`, `islessequal`, `islessgreater`, `isordered`,
`isunordered`), the classifications (`isfinite`, `isinf`, `isnan`, `isnormal`,
`signbit`), `any`, `all`, `select` and `bitselect`.

A comparison or classification of scalars returns an `int`, 1 for true and 0 for
false; of vectors, integers of the floats' width (`int4` for `float4`, `long2`
for `double2`, `short8` for `half8`) that are -1 (all bits set) for true. The
comparisons are LLVM's `fcmp` with the predicate the function names, ordered
but for `isnotequal` (true when an operand is a NaN) and `isunordered`.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import i32
from xdsl.ir import Attribute, SSAValue

from lowering.common.llvm_types import bit_width, element_type
from lowering.common.mangling import Demangled
from lowering.link_builtins.definition import (
    Definition,
    is_float_gentype,
    is_gentype,
    is_int_gentype,
    match,
    width,
)
from lowering.link_builtins.emit import Emitter, int_like, lanes
from lowering.link_builtins.floats import INF, compare, fabs, is_inf, is_nan, sign_bit

COMPARISONS = {
    "isequal": "oeq",
    "isnotequal": "une",
    "isgreater": "ogt",
    "isgreaterequal": "oge",
    "isless": "olt",
    "islessequal": "ole",
    "islessgreater": "one",
    "isordered": "ord",
    "isunordered": "uno",
}
"""The comparisons, as LLVM `fcmp` predicates."""

SMALLEST_NORMAL = {16: 2.0**-14, 32: 2.0**-126, 64: 2.0**-1022}


def _is_normal(e: Emitter, x: SSAValue) -> SSAValue:
    smallest = SMALLEST_NORMAL[bit_width(element_type(x.type))]
    magnitude = fabs(e, x)
    above = compare(e, "oge", magnitude, smallest)
    return e.arith(arith.AndIOp, above, compare(e, "olt", magnitude, INF))


CLASSIFICATIONS = {
    "isfinite": lambda e, x: compare(e, "olt", fabs(e, x), INF),
    "isinf": is_inf,
    "isnan": is_nan,
    "isnormal": _is_normal,
    "signbit": sign_bit,
}


def truth(e: Emitter, condition: SSAValue, result: Attribute) -> SSAValue:
    """`i1`s as OpenCL C's truth values: a scalar 1 or 0, vector lanes -1 or 0."""
    if lanes(condition.type):
        return e.cast(arith.ExtSIOp, condition, result)
    return e.cast(arith.ExtUIOp, condition, result)


def _truth_type(gentype: Attribute) -> Attribute:
    return int_like(gentype) if lanes(gentype) else i32


def _float_test(d: Demangled) -> Definition | None:
    if d.name in COMPARISONS and match(d, "gg"):
        predicate = COMPARISONS[d.name]
        test = lambda e, args: e.fcmp(predicate, *args)  # noqa: E731
    elif d.name in CLASSIFICATIONS and match(d, "g"):
        classify = CLASSIFICATIONS[d.name]
        test = lambda e, args: classify(e, args[0])  # noqa: E731
    else:
        return None
    gentype = d.params[0].llvm_type()
    assert gentype is not None
    result = _truth_type(gentype)
    return Definition(result, lambda e, args: truth(e, test(e, args), result))


def _any_all(d: Demangled) -> Definition | None:
    """`any`/`all` of signed integers: whether the top bit of any/all lanes is
    set, as an `int` 1 or 0."""
    if not match(d, "g", is_int_gentype) or d.params[0].scalar.is_unsigned:
        return None
    reduction = "llvm.vector.reduce.or" if d.name == "any" else "llvm.vector.reduce.and"

    def build(e: Emitter, args: list[SSAValue]) -> SSAValue:
        (x,) = args
        if lanes(x.type):
            x = e.intrinsic(reduction, [x], element_type(x.type), [x.type])
        negative = e.icmp("slt", x, e.const(0, x.type))
        return e.cast(arith.ExtUIOp, negative, i32)

    return Definition(i32, build)


def _select(d: Demangled) -> Definition | None:
    """`select(a, b, c)`: `c ? b : a` for scalars, by the top bit of each lane of
    `c` for vectors."""
    if len(d.params) != 3 or not is_gentype(d.params[0]):
        return None
    a, b, c = d.params
    if b.llvm_type() != a.llvm_type() or not is_int_gentype(c) or width(c) != width(a):
        return None
    type_ = a.llvm_type()
    condition = c.llvm_type()
    assert type_ is not None and condition is not None
    if bit_width(element_type(condition)) != bit_width(element_type(type_)):
        return None
    vector = bool(width(a))

    def build(e: Emitter, args: list[SSAValue]) -> SSAValue:
        x, y, z = args
        zero = e.const(0, z.type)
        chosen = e.icmp("slt" if vector else "ne", z, zero)
        return e.select(chosen, y, x)

    return Definition(type_, build)


def _bitselect(d: Demangled) -> Definition | None:
    """`bitselect(a, b, c)`: each bit of `b` where `c`'s is 1, of `a` elsewhere."""
    if not match(d, "ggg", is_gentype):
        return None
    type_ = d.params[0].llvm_type()
    assert type_ is not None
    bits_type = int_like(type_)

    def build(e: Emitter, args: list[SSAValue]) -> SSAValue:
        a, b, c = (e.bitcast(v, bits_type) for v in args)
        ones = e.const(-1, bits_type)
        keep = e.arith(arith.AndIOp, a, e.arith(arith.XOrIOp, c, ones))
        take = e.arith(arith.AndIOp, b, c)
        return e.bitcast(e.arith(arith.OrIOp, keep, take), type_)

    return Definition(type_, build)


def find(d: Demangled) -> Definition | None:
    """The definition of relational function `d`, if it is one."""
    if d.name in ("any", "all"):
        return _any_all(d)
    if d.name == "select":
        return _select(d)
    if d.name == "bitselect":
        return _bitselect(d)
    if d.params and is_float_gentype(d.params[0]):
        return _float_test(d)
    return None
