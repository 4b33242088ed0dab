"""The common functions of OpenCL C (its specification, "Common Functions") on
floats: `clamp`, `min`, `max`, `mix`, `step`, `smoothstep`, `sign`, `degrees`,
`radians`, each from the specification's definition (`clamp` is
`fmin(fmax(x, minval), maxval)`, `mix` is `x + (y - x) * a`, ...). The integer
`clamp`, `min` and `max` are `integer`'s. Halves are computed in float.
"""

from __future__ import annotations

from math import pi

from xdsl.ir import SSAValue

from lowering.common.mangling import Demangled
from lowering.link_builtins.definition import Definition
from lowering.link_builtins.emit import Emitter
from lowering.link_builtins.float_functions import Function, define
from lowering.link_builtins.floats import (
    add,
    compare,
    const,
    div,
    fmax,
    fmin,
    is_nan,
    mul,
    sub,
)


def clamp(e: Emitter, x: SSAValue, low: SSAValue, high: SSAValue) -> SSAValue:
    return fmin(e, fmax(e, x, low), high)


def mix(e: Emitter, x: SSAValue, y: SSAValue, a: SSAValue) -> SSAValue:
    return add(e, x, mul(e, sub(e, y, x), a))


def step(e: Emitter, edge: SSAValue, x: SSAValue) -> SSAValue:
    """0 where `x < edge`, else 1."""
    below = e.fcmp("olt", x, e.splat(edge, x.type))
    return e.select(below, const(e, 0.0, x), const(e, 1.0, x))


def smoothstep(e: Emitter, edge0: SSAValue, edge1: SSAValue, x: SSAValue) -> SSAValue:
    """`t * t * (3 - 2 * t)` with `t = clamp((x - edge0) / (edge1 - edge0), 0,
    1)`."""
    t = div(e, sub(e, x, edge0), sub(e, e.splat(edge1, x.type), edge0))
    t = clamp(e, t, const(e, 0.0, t), const(e, 1.0, t))
    cubic = sub(e, const(e, 3.0, t), mul(e, const(e, 2.0, t), t))
    return mul(e, mul(e, t, t), cubic)


def sign(e: Emitter, x: SSAValue) -> SSAValue:
    """1 for `x > 0`, -1 for `x < 0`, `x` for ±0, 0 for NaN."""
    result = e.select(compare(e, "ogt", x, 0.0), const(e, 1.0, x), x)
    result = e.select(compare(e, "olt", x, 0.0), const(e, -1.0, x), result)
    return e.select(is_nan(e, x), const(e, 0.0, x), result)


def _times(factor: float):
    return lambda e, x: mul(e, x, const(e, factor, x))


FUNCTIONS = {
    "clamp": Function("gss", clamp),
    "min": Function("gs", fmin),
    "max": Function("gs", fmax),
    "mix": Function("ggs", mix),
    "step": Function("sg", step),
    "smoothstep": Function("ssg", smoothstep),
    "sign": Function("g", sign),
    "degrees": Function("g", _times(180 / pi)),
    "radians": Function("g", _times(pi / 180)),
}
"""The common functions; `min` and `max` are `fmin` and `fmax` (the
specification leaves them undefined for NaN and infinite operands)."""


def find(d: Demangled) -> Definition | None:
    """The definition of common function `d` on floats, if it is one."""
    function = FUNCTIONS.get(d.name)
    return define(d, function) if function is not None else None
