"""The arithmetic of group collectives, shared by every pass that defines them.

mux-compiler-spec.rst, "reduce and scan builtins": the group operation is one of
add/fadd, mul/fmul, smin/umin/fmin, smax/umax/fmax, and/or/xor,
logical_and/logical_or/logical_xor, and "exclusive scans perform the operation over
the operation's identity value and all but the final invocation in the group".

`combine(b, kind, lhs, rhs)` builds the operation on two values (scalars or vectors
of the same type) and `identity(b, kind, type)` the identity value, so that
`work-item-loops` (native work-group and sub-group collectives), `replace-wgc` (the
spec's software version) and the vec-group definitions all compute the same thing.

- `fmin`/`fmax` are `arith.minnumf`/`maxnumf` (OpenCL's `fmin`/`fmax`: a NaN operand
  yields the other one); their identities are +inf and -inf.
- `fadd`'s identity is -0.0 (x + -0.0 == x for every x, +0.0 included).
- Logical operations take `i1` (the dialect's verifier checks it), so they are the
  bitwise ones on booleans, with identities true, false, false.
"""

from __future__ import annotations

import math

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue

from dialects.mux import GroupOperation, GroupOperationAttr

_OPS: dict[
    GroupOperation,
    type[arith.SignlessIntegerBinaryOperation | arith.FloatingPointLikeBinaryOperation],
] = {
    GroupOperation.ADD: arith.AddiOp,
    GroupOperation.FADD: arith.AddfOp,
    GroupOperation.MUL: arith.MuliOp,
    GroupOperation.FMUL: arith.MulfOp,
    GroupOperation.SMIN: arith.MinSIOp,
    GroupOperation.UMIN: arith.MinUIOp,
    GroupOperation.FMIN: arith.MinnumfOp,
    GroupOperation.SMAX: arith.MaxSIOp,
    GroupOperation.UMAX: arith.MaxUIOp,
    GroupOperation.FMAX: arith.MaxnumfOp,
    GroupOperation.AND: arith.AndIOp,
    GroupOperation.OR: arith.OrIOp,
    GroupOperation.XOR: arith.XOrIOp,
    GroupOperation.LOGICAL_AND: arith.AndIOp,
    GroupOperation.LOGICAL_OR: arith.OrIOp,
    GroupOperation.LOGICAL_XOR: arith.XOrIOp,
}


def group_id(op: Operation) -> int:
    """The `id` of a barrier or a collective (its integer property), which tells
    the barriers of a work-group apart."""
    attr = op.properties["id"]
    assert isinstance(attr, IntegerAttr), attr
    return attr.value.data


def group_operation(op: Operation) -> GroupOperation:
    """The operation of a reduce or scan (its `op` property)."""
    attr = op.properties["op"]
    assert isinstance(attr, GroupOperationAttr), attr
    return attr.data


def combine(b: Builder, kind: GroupOperation, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    """`lhs <kind> rhs`, built at `b`."""
    return b.insert(_OPS[kind](lhs, rhs)).result


def identity_value(kind: GroupOperation, element: Attribute) -> int | float:
    """The identity of `kind` on `element` (an integer, index or float type), as a
    Python number: signed for integers (all ones is -1)."""
    if isinstance(element, AnyFloat):
        return {
            GroupOperation.FADD: -0.0,
            GroupOperation.FMUL: 1.0,
            GroupOperation.FMIN: math.inf,
            GroupOperation.FMAX: -math.inf,
        }[kind]
    width = 64 if isinstance(element, IndexType) else _width(element)
    return {
        GroupOperation.ADD: 0,
        GroupOperation.MUL: 1,
        GroupOperation.SMIN: (1 << (width - 1)) - 1,
        GroupOperation.UMIN: -1,
        GroupOperation.SMAX: -(1 << (width - 1)),
        GroupOperation.UMAX: 0,
        GroupOperation.AND: -1,
        GroupOperation.OR: 0,
        GroupOperation.XOR: 0,
        GroupOperation.LOGICAL_AND: -1,
        GroupOperation.LOGICAL_OR: 0,
        GroupOperation.LOGICAL_XOR: 0,
    }[kind]


def identity(b: Builder, kind: GroupOperation, type: Attribute) -> SSAValue:
    """The identity of `kind` as a constant of `type` (a scalar or a vector, which
    gets it in every lane), built at `b`."""
    if isinstance(type, VectorType):
        value = identity_value(kind, type.element_type)
        attr = DenseIntOrFPElementsAttr.from_list(
            type, [value] * math.prod(type.get_shape())
        )
        return b.insert(arith.ConstantOp(attr, type)).result
    value = identity_value(kind, type)
    if isinstance(type, AnyFloat):
        return b.insert(arith.ConstantOp(FloatAttr(value, type))).result
    assert isinstance(type, IntegerType | IndexType), type  # else ints or indices
    return b.insert(arith.ConstantOp(IntegerAttr(int(value), type))).result


def _width(element: Attribute) -> int:
    assert isinstance(element, IntegerType), element
    return element.width.data
