"""LLVM intrinsics by name: the type-mangled name of an overload, and which
intrinsics apply lane by lane.

An overloaded intrinsic's name ends with the types it is overloaded on
(`llvm.smax.i32`, `llvm.smax.v8i32`): `convert-to-llvm` builds such names for the
ops it turns into intrinsic calls (`intrinsic_name`), and `run-vecz` renames a
call of a lane-wise one on scalars to its overload on vectors (`lanewise_base`),
as vecz widens `llvm.smax.i32` to `llvm.smax.v8i32`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import BFloat16Type, IntegerType, VectorType
from xdsl.ir import Attribute

from lowering.common.llvm_types import LLVM_FLOAT_TYPES, ConversionError

_INTEGER_LANEWISE = (
    "smax smin umax umin sadd.sat ssub.sat uadd.sat usub.sat ctpop bitreverse bswap"
)
_FLOAT_LANEWISE = (
    "fabs sqrt fma fmuladd minnum maxnum minimum maximum copysign floor ceil trunc "
    "rint nearbyint round roundeven"
)
LANEWISE = frozenset(
    f"llvm.{name}" for name in f"{_INTEGER_LANEWISE} {_FLOAT_LANEWISE}".split()
)
"""The intrinsics overloaded on one type, the result's, whose operands are all of
that type and which apply to vectors lane by lane (LangRef: "the operation is
performed element-wise" for their vector overloads). Intrinsics with an `immarg`
operand (`llvm.abs`, `llvm.ctlz`: an `i1` that stays scalar) are not among them."""


def type_suffix(type_: Attribute) -> str:
    """The mangling of `type_` in an intrinsic's name: `i32`, `f16`, `v4f32`."""
    if isinstance(type_, VectorType):
        return f"v{type_.get_shape()[0]}{type_suffix(type_.element_type)}"
    if isinstance(type_, IntegerType):
        return f"i{type_.width.data}"
    if isinstance(type_, BFloat16Type):
        return "bf16"
    if isinstance(type_, LLVM_FLOAT_TYPES):
        return f"f{type_.bitwidth}"
    raise ConversionError(f"{type_}: no LLVM intrinsic is overloaded on this type")


def intrinsic_name(base: str, *types: Attribute) -> str:
    """The name of the overload of LLVM intrinsic `base` on `types`: `llvm.smin`
    on `vector<4xi32>` is `llvm.smin.v4i32`, `llvm.ldexp` on f32 and i32
    `llvm.ldexp.f32.i32`. xDSL's translation declares the callee of
    `llvm.call_intrinsic` under the name as given, so it must be the full one."""
    return ".".join([base, *map(type_suffix, types)])


def lanewise_base(name: str, operand_types: list[Attribute]) -> str | None:
    """`llvm.smax` for a call of `llvm.smax.i32` on scalars of that type: the
    intrinsic without its overload, when it is one of `LANEWISE` and its operands
    are all of the scalar type its name is overloaded on; None otherwise."""
    base, _, suffix = name.rpartition(".")
    if base not in LANEWISE or not operand_types:
        return None
    scalar = operand_types[0]
    if isinstance(scalar, VectorType) or any(t != scalar for t in operand_types):
        return None
    try:
        return base if type_suffix(scalar) == suffix else None
    except ConversionError:
        return None
