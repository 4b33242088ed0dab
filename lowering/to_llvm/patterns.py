"""Pattern classes shared by the dialect modules of `convert-to-llvm`.

Most ops map to one llvm op and differ only in which: `IntegerBinaryToLLVM`,
`FloatOpToLLVM` and `CastToLLVM` (one llvm op each, on the shared machinery of
`OneOpToLLVM`), `IntrinsicToLLVM` and `RoundingDivisionToLLVM` are instantiated
from tables in the dialect modules. A
pattern's `source` is an op class, or an op name for the ops of dialects xDSL does
not define (see `index.py`).
"""

from __future__ import annotations

from abc import abstractmethod
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
class OneOpToLLVM(RewritePattern):
    """A `source` op becomes one llvm op of class `target`, built by `build` from
    the op and its operands with their llvm types; `target`'s one result replaces
    the op's. The base of the patterns below, which differ only in `build`."""

    source: type[Operation] | str
    target: type[Operation]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not matches(op, self.source):
            return
        new = self.build(op, llvm_operands(op, rewriter))
        replace_op(rewriter, op, [rewriter.insert(new).results[0]])

    @abstractmethod
    def build(self, op: Operation, operands: list[SSAValue]) -> Operation:
        """The llvm op replacing `op`, whose operands are `operands` converted."""


@dataclass(frozen=True)
class IntegerBinaryToLLVM(OneOpToLLVM):
    """A `source` op on two integers (or vectors of them) becomes the llvm op
    `target`, with arith's nsw/nuw flags where both ops have them."""

    def build(self, op: Operation, operands: list[SSAValue]) -> Operation:
        if issubclass(self.target, llvm.ArithmeticBinOpOverflow):
            return self.target(*operands, overflow=overflow_flags(op))
        return self.target(*operands)


@dataclass(frozen=True)
class FloatOpToLLVM(OneOpToLLVM):
    """A `source` op on floats (or vectors of them) becomes the llvm op `target`
    (`llvm.fadd`, `llvm.fneg`, an `llvm.intr.*` op, ...) with the same fast-math
    flags."""

    def build(self, op: Operation, operands: list[SSAValue]) -> Operation:
        return self.target(*operands, fast_math=fastmath(op))


@dataclass(frozen=True)
class CastToLLVM(OneOpToLLVM):
    """A `source` cast becomes the llvm cast `target` to the llvm result type."""

    def build(self, op: Operation, operands: list[SSAValue]) -> Operation:
        (operand,) = operands
        return self.target(operand, convert_type(op.results[0].type))


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
