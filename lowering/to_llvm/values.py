"""The values of `convert-to-llvm`'s patterns, across the conversion.

Patterns run in any order, so an op may be converted before or after the ops that
define its operands. As in MLIR's dialect conversion, a pattern reads its operands
through `llvm_operands`, which casts a value still of a source type (`index`,
`memref`) to its llvm type with `builtin.unrealized_conversion_cast`, and replaces
the op through `replace_op`, which casts its llvm results back to the source types
for the users not converted yet. Once every op is converted, each cast meets its
inverse and `reconcile_unrealized_casts` removes both.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    UnrealizedConversionCastOp,
)
from xdsl.dialects.utils.fast_math import FastMathAttrBase
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from lowering.common.dispatch import op_name
from lowering.common.llvm_types import convert_type


def matches(op: Operation, source: type[Operation] | str) -> bool:
    """Whether `op` is a `source` op: an op class, or an op name."""
    if isinstance(source, str):
        return op_name(op) == source
    return isinstance(op, source)


def llvm_value(value: SSAValue, rewriter: PatternRewriter) -> SSAValue:
    """`value` with its llvm type: the value itself when its type is already an
    llvm type, the llvm value it was cast from when its producer is converted
    already, and otherwise a new cast inserted at the rewriter's insertion point."""
    target = convert_type(value.type)
    if target == value.type:
        return value
    owner = value.owner
    if (
        isinstance(owner, UnrealizedConversionCastOp)
        and len(owner.inputs) == 1
        and owner.inputs[0].type == target
    ):
        return owner.inputs[0]
    cast = rewriter.insert(UnrealizedConversionCastOp.get([value], [target]))
    return cast.results[0]


def llvm_operands(op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
    """The operands of `op` with their llvm types (see `llvm_value`)."""
    return [llvm_value(operand, rewriter) for operand in op.operands]


def replace_op(
    rewriter: PatternRewriter, op: Operation, results: Sequence[SSAValue]
) -> None:
    """Replaces `op` by `results`, llvm values built by a pattern, casting each back
    to the type of the result it replaces for the users not converted yet."""
    replacements: list[SSAValue] = []
    for old, new in zip(op.results, results, strict=True):
        if new.name_hint is None:
            new.name_hint = old.name_hint
        if new.type != old.type:
            cast = UnrealizedConversionCastOp.get([new], [old.type])
            new = rewriter.insert(cast).results[0]
        replacements.append(new)
    rewriter.replace(op, [], replacements)


def fastmath(op: Operation) -> llvm.FastMathAttr:
    """The fast-math flags of `op` (arith's, math's and vector's `fastmath`) as
    llvm's."""
    flags = op.properties.get("fastmath")
    assert flags is None or isinstance(flags, FastMathAttrBase), flags
    return llvm.FastMathAttr(flags.data if flags is not None else None)


def overflow_flags(op: Operation) -> llvm.OverflowAttr:
    """The nsw/nuw flags of `op` (arith's `overflowFlags`) as llvm's."""
    flags = op.properties.get("overflowFlags")
    assert flags is None or isinstance(flags, arith.IntegerOverflowAttr), flags
    if flags is None or not flags.data:
        return llvm.OverflowAttr(None)
    return llvm.OverflowAttr([llvm.OverflowFlag(flag.value) for flag in flags.data])
