"""Pattern classes shared by the dialect modules of `convert-to-llvm`.

Most ops map to one llvm op and differ only in which: `IntegerBinaryToLLVM`,
`FloatBinaryToLLVM`, `FloatUnaryToLLVM`, `CastToLLVM`, `IntrinsicToLLVM` and
`RoundingDivisionToLLVM` are instantiated from tables in the dialect modules. A
pattern's `source` is an op class, or an op name for the ops of dialects xDSL does
not define (see `index.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    IntegerType,
)
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from lowering.common.llvm_types import convert_type
from lowering.to_llvm.building import call_intrinsic, constant
from lowering.to_llvm.values import (
    fastmath,
    llvm_operands,
    matches,
    overflow_flags,
    replace_op,
)


@dataclass(frozen=True)
class IntegerBinaryToLLVM(RewritePattern):
    """A `source` op on two integers (or vectors of them) becomes the llvm op
    `target`, with arith's nsw/nuw flags where both ops have them."""

    source: type[Operation] | str
    target: type[Operation]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not matches(op, self.source):
            return
        lhs, rhs = llvm_operands(op, rewriter)
        if issubclass(self.target, llvm.ArithmeticBinOpOverflow):
            new = self.target(lhs, rhs, overflow=overflow_flags(op))
        else:
            new = self.target(lhs, rhs)
        replace_op(rewriter, op, [rewriter.insert(new).results[0]])


@dataclass(frozen=True)
class FloatBinaryToLLVM(RewritePattern):
    """A `source` op on two floats (or vectors of them) becomes the llvm op
    `target`, with the same fast-math flags."""

    source: type[Operation]
    target: type[Operation]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, self.source):
            return
        lhs, rhs = llvm_operands(op, rewriter)
        new = self.target(lhs, rhs, fast_math=fastmath(op))
        replace_op(rewriter, op, [rewriter.insert(new).results[0]])


@dataclass(frozen=True)
class FloatUnaryToLLVM(RewritePattern):
    """A `source` op on one float (or vector of them) becomes the llvm op `target`
    (`llvm.fneg` or an `llvm.intr.*` op), with the same fast-math flags."""

    source: type[Operation]
    target: type[Operation]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, self.source):
            return
        (operand,) = llvm_operands(op, rewriter)
        new = self.target(operand, fast_math=fastmath(op))
        replace_op(rewriter, op, [rewriter.insert(new).results[0]])


@dataclass(frozen=True)
class CastToLLVM(RewritePattern):
    """A `source` cast becomes the llvm cast `target` to the llvm result type."""

    source: type[Operation]
    target: type[Operation]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, self.source):
            return
        (operand,) = llvm_operands(op, rewriter)
        new = self.target(operand, convert_type(op.results[0].type))
        replace_op(rewriter, op, [rewriter.insert(new).results[0]])


@dataclass(frozen=True)
class IntrinsicToLLVM(RewritePattern):
    """A `source` op becomes a call of LLVM intrinsic `intrinsic`, overloaded on the
    result type. `false_flag` appends the `i1 false` that `llvm.abs`, `llvm.ctlz`
    and `llvm.cttz` take (the result is then defined for every input)."""

    source: type[Operation] | str
    intrinsic: str
    false_flag: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not matches(op, self.source):
            return
        args = llvm_operands(op, rewriter)
        if self.false_flag:
            args.append(constant(rewriter, 0, IntegerType(1)))
        result_type = convert_type(op.results[0].type)
        result = call_intrinsic(rewriter, self.intrinsic, args, result_type)
        replace_op(rewriter, op, [result])


@dataclass(frozen=True)
class RoundingDivisionToLLVM(RewritePattern):
    """A `source` division rounding down or up is `build` on its operands
    (`floor_div_signed`, `ceil_div_signed` or `ceil_div_unsigned`)."""

    source: type[Operation] | str
    build: Callable[[PatternRewriter, SSAValue, SSAValue], SSAValue]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not matches(op, self.source):
            return
        lhs, rhs = llvm_operands(op, rewriter)
        replace_op(rewriter, op, [self.build(rewriter, lhs, rhs)])
