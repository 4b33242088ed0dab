"""The math functions of OpenCL C (its specification, "Math Functions"), for
`half`, `float` and `double` scalars and vectors.

Each is an entry of `FUNCTIONS`: its signature pattern (`definition.match`), how it
is computed, and the type it is computed in (`float_functions.Function`). A `half`
is computed in `float` and rounded back (within every limit of the
specification's half table); a few functions are computed in `double` for `float`
too, where `float` would not meet the limit (the `*pi` functions, `pown`, `rootn`,
`remquo`'s quotient) or where a result needs more bits than `float` has (`fma` of
halves). The computations:

- one `math` op where the dialect has the function (`sqrt`, `exp`, `sin`, ...,
  `rint` is `math.roundeven`); `convert-to-llvm` makes it an LLVM intrinsic or a
  C library call, on vectors too;
- LLVM intrinsics `math` lacks: `exp10`, `ldexp`, `frexp`;
- the C library where neither has it (`hypot`, `remainder`, `logb`, `erfc`,
  `tgamma`, `lgamma`, `lgamma_r`), lane by lane on vectors;
- compositions for the rest (`math_compositions.py`), exact where the function
  is (`fdim`, `maxmag`, `nextafter`, `fract`, `remquo`, ...).

`native_<f>` and `half_<f>` are `<f>` (the specification lets an implementation
give them any accuracy, so the accurate function is one). `rootn` of doubles is
not defined (`1 / n` rounded in double would cost hundreds of ulps on large
results): its calls stay, and are refused by name.
"""

from __future__ import annotations

from xdsl.dialects import math
from xdsl.dialects.builtin import Float16Type

from lowering.common.llvm_types import bit_width, element_type
from lowering.common.mangling import Demangled
from lowering.link_builtins import math_compositions as mc
from lowering.link_builtins.definition import (
    Definition,
    is_int_gentype,
)
from lowering.link_builtins.emit import FLOAT_TYPES, shaped
from lowering.link_builtins.float_functions import Compute, Function, define
from lowering.link_builtins.floats import F64, op_of


def _library(name: str) -> Compute:
    return lambda e, *values: e.c_library(name, values)


MATH_OPS = {
    "sqrt": math.SqrtOp,
    "fabs": math.AbsFOp,
    "floor": math.FloorOp,
    "ceil": math.CeilOp,
    "trunc": math.TruncOp,
    "round": math.RoundOp,
    "rint": math.RoundEvenOp,
    "exp": math.ExpOp,
    "exp2": math.Exp2Op,
    "expm1": math.ExpM1Op,
    "log": math.LogOp,
    "log2": math.Log2Op,
    "log10": math.Log10Op,
    "log1p": math.Log1pOp,
    "sin": math.SinOp,
    "cos": math.CosOp,
    "tan": math.TanOp,
    "asin": math.AsinOp,
    "acos": math.AcosOp,
    "atan": math.AtanOp,
    "sinh": math.SinhOp,
    "cosh": math.CoshOp,
    "tanh": math.TanhOp,
    "asinh": math.AsinhOp,
    "acosh": math.AcoshOp,
    "atanh": math.AtanhOp,
    "cbrt": math.CbrtOp,
    "erf": math.ErfOp,
    "rsqrt": math.RsqrtOp,
}
"""The unary functions that are one `math` op."""

LIBRARY_UNARY = ("erfc", "tgamma", "lgamma", "logb")
LIBRARY_BINARY = ("hypot", "remainder")

FUNCTIONS: dict[str, Function] = {
    **{name: Function("g", op_of(op)) for name, op in MATH_OPS.items()},
    **{name: Function("g", _library(name)) for name in LIBRARY_UNARY},
    **{name: Function("gg", _library(name)) for name in LIBRARY_BINARY},
    "exp10": Function("g", mc.exp10),
    "pow": Function("gg", op_of(math.PowFOp)),
    "powr": Function("gg", mc.powr),
    "pown": Function("gi", mc.pown, F64),
    "rootn": Function("gi", mc.rootn, F64, doubles=False),
    "atan2": Function("gg", op_of(math.Atan2Op)),
    "copysign": Function("gg", op_of(math.CopySignOp)),
    "fmod": Function("gg", mc.fmod),
    "fmin": Function("gs", mc.fmin),
    "fmax": Function("gs", mc.fmax),
    "fdim": Function("gg", mc.fdim),
    "maxmag": Function("gg", mc.maxmag),
    "minmag": Function("gg", mc.minmag),
    "nextafter": Function("gg", mc.nextafter, halves=Float16Type()),
    "fma": Function("ggg", op_of(math.FmaOp), halves=F64),
    "mad": Function("ggg", mc.mad),
    "ldexp": Function("gk", mc.ldexp),
    "ilogb": Function("g", mc.ilogb, result="int"),
    "recip": Function("g", mc.recip),
    "divide": Function("gg", mc.divide),
    "sinpi": Function("g", mc.sinpi, F64),
    "cospi": Function("g", mc.cospi, F64),
    "tanpi": Function("g", mc.tanpi, F64),
    "asinpi": Function("g", mc.over_pi(math.AsinOp), F64),
    "acospi": Function("g", mc.over_pi(math.AcosOp), F64),
    "atanpi": Function("g", mc.over_pi(math.AtanOp), F64),
    "atan2pi": Function("gg", mc.over_pi(math.Atan2Op), F64),
    "frexp": Function("gq", mc.frexp),
    "modf": Function("gp", mc.modf),
    "fract": Function("gp", mc.fract, halves=Float16Type()),
    "sincos": Function("gp", mc.sincos),
    "remquo": Function("ggq", mc.remquo, F64),
    "lgamma_r": Function("gq", mc.lgamma_r, writes=True),
}
"""The math functions, by name (`native_` and `half_` prefixes removed)."""

NATIVE_ONLY = ("recip", "divide")
"""Functions that exist only as `native_<f>` and `half_<f>`."""


def find(d: Demangled) -> Definition | None:
    """The definition of math function `d`, if it is one defined here."""
    if d.name == "nan":
        return _nan(d)
    prefixed = d.name.startswith(("native_", "half_"))
    name = d.name.split("_", 1)[1] if prefixed else d.name
    function = FUNCTIONS.get(name)
    if function is None or (name in NATIVE_ONLY and not prefixed):
        return None
    return define(d, function)


def _nan(d: Demangled) -> Definition | None:
    """`nan(nancode)`: a quiet NaN of the float type of `nancode`'s bits, the code
    in its low significand bits."""
    if len(d.params) != 1 or not is_int_gentype(d.params[0]):
        return None
    codes = d.params[0].llvm_type()
    assert codes is not None  # an integer gentype has one
    bits = bit_width(element_type(codes))
    if not d.params[0].scalar.is_unsigned or bits not in FLOAT_TYPES:
        return None
    result = shaped(codes, FLOAT_TYPES[bits])
    return Definition(result, lambda e, args: mc.nan(e, args[0], result))
