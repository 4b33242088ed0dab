"""The geometric functions of OpenCL C (its specification, "Geometric Functions"):
`dot`, `cross`, `length`, `distance`, `normalize` and their `fast_` forms, on
float scalars and vectors of 2, 3 or 4 lanes (`cross`: 3 and 4).

`length`, `distance` and `normalize` of `half` and `float` are computed in
double, where the sum of the squares can neither overflow nor underflow (a
float's square is within double's range), then rounded once: correctly rounded
but for the last rounding. For `double` the components are first scaled by a
power of two that brings the largest near 1 (exact), and the length scaled back.
`normalize` returns its argument when it is all zeros and, when some lane is
infinite, normalises the vector of ±1 (infinite lanes) and ±0 (the others), as
the specification says. The `fast_` forms are the same functions (the
specification only bounds their error).
"""

from __future__ import annotations

from xdsl.dialects import arith, llvm, math
from xdsl.dialects.builtin import i32
from xdsl.ir import SSAValue

from lowering.common.mangling import Demangled
from lowering.link_builtins.definition import Definition, width
from lowering.link_builtins.emit import Emitter, lanes
from lowering.link_builtins.float_functions import Function, define
from lowering.link_builtins.floats import (
    F64,
    add,
    compare,
    const,
    copysign,
    div,
    fabs,
    fmax,
    is_inf,
    mul,
    sub,
)
from lowering.link_builtins.math_compositions import frexp, ldexp


def _lanes_of(e: Emitter, x: SSAValue) -> list[SSAValue]:
    return [e.extract(x, lane) for lane in range(lanes(x.type))] or [x]


def _any(e: Emitter, conditions: SSAValue) -> SSAValue:
    """One `i1`: whether any lane of `conditions` is true."""
    result, *rest = _lanes_of(e, conditions)
    for lane in rest:
        result = e.arith(arith.OrIOp, result, lane)
    return result


def dot(e: Emitter, x: SSAValue, y: SSAValue) -> SSAValue:
    """The sum of the lanes' products, in lane order."""
    total, *rest = _lanes_of(e, mul(e, x, y))
    for lane in rest:
        total = add(e, total, lane)
    return total


def _scale(e: Emitter, p: SSAValue) -> tuple[SSAValue, SSAValue | None]:
    """`p` scaled by a power of two so that its largest lane is in [0.5, 1), and
    the exponent undoing it; `p` as it is (and no exponent) when it was extended
    from a narrower float, whose squares fit in double."""
    if isinstance(p.owner, llvm.FPExtOp):
        return p, None
    largest, *rest = _lanes_of(e, fabs(e, p))
    for lane in rest:
        largest = fmax(e, largest, lane)
    _, exponent = frexp(e, largest)
    minus = e.arith(arith.SubiOp, e.const(0, i32), exponent)
    return ldexp(e, p, minus), exponent


def length(e: Emitter, p: SSAValue) -> SSAValue:
    scaled, exponent = _scale(e, p)
    root = e.arith(math.SqrtOp, dot(e, scaled, scaled))
    return root if exponent is None else ldexp(e, root, exponent)


def distance(e: Emitter, p0: SSAValue, p1: SSAValue) -> SSAValue:
    return length(e, sub(e, p0, p1))


def normalize(e: Emitter, p: SSAValue) -> SSAValue:
    infinite = is_inf(e, p)
    signs = e.select(infinite, const(e, 1.0, p), const(e, 0.0, p))
    p = e.select(e.splat(_any(e, infinite), infinite.type), copysign(e, signs, p), p)
    scaled, _ = _scale(e, p)
    root = e.arith(math.SqrtOp, dot(e, scaled, scaled))
    result = div(e, scaled, e.splat(root, scaled.type))
    return e.select(compare(e, "oeq", root, 0.0), p, result)


def cross(e: Emitter, p0: SSAValue, p1: SSAValue) -> SSAValue:
    """`(y0 z1 - z0 y1, z0 x1 - x0 z1, x0 y1 - y0 x1)`, and 0 in a fourth lane."""
    x0, y0, z0 = _lanes_of(e, p0)[:3]
    x1, y1, z1 = _lanes_of(e, p1)[:3]
    values = [
        sub(e, mul(e, y0, z1), mul(e, z0, y1)),
        sub(e, mul(e, z0, x1), mul(e, x0, z1)),
        sub(e, mul(e, x0, y1), mul(e, y0, x1)),
    ]
    if lanes(p0.type) == 4:
        values.append(const(e, 0.0, x0))
    return e.build_vector(values, p0.type)


FUNCTIONS = {
    "dot": Function("gg", dot, result="scalar"),
    "length": Function("g", length, F64, result="scalar"),
    "distance": Function("gg", distance, F64, result="scalar"),
    "normalize": Function("g", normalize, F64),
    "cross": Function("gg", cross),
}


FAST = ("fast_length", "fast_distance", "fast_normalize")


def find(d: Demangled) -> Definition | None:
    """The definition of geometric function `d`, if it is one."""
    function = FUNCTIONS.get(d.name.removeprefix("fast_"))
    if function is None or not d.params or width(d.params[0]) > 4:
        return None
    if d.name.startswith("fast_") and d.name not in FAST:
        return None
    if d.name == "cross" and width(d.params[0]) not in (3, 4):
        return None
    return define(d, function)
