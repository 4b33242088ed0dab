"""Pattern classes shared by the dialect modules of `convert-to-llvm`.

Most ops map to one llvm op and differ only in which: `IntegerBinaryToLLVM`,
`FloatUnaryToLLVM`, `FloatBinaryToLLVM` and `CastToLLVM` (one llvm op each, on the
shared machinery of `OneOpToLLVM`), `IntrinsicToLLVM` and `RoundingDivisionToLLVM`
are instantiated from tables in the dialect modules. A
pattern's `source` is an op class, or an op name for the ops of dialects xDSL does
not define (see `index.py`).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    IntegerType,
)
from xdsl.ir import Attribute, Operation, SSAValue
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
    the op's. The base of the patterns below, which differ only in `build` (and in
    the type of their `target`, what `build` calls it with)."""

    source: type[Operation] | str

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

    target: (
        type[llvm.ArithmeticBinOperation]
        | type[llvm.ArithmeticBinOpOverflow]
        | type[llvm.ArithmeticBinOpExact]
        | type[llvm.ArithmeticBinOpDisjoint]
    )

    def build(self, op: Operation, operands: list[SSAValue]) -> Operation:
        lhs, rhs = operands
        if issubclass(self.target, llvm.ArithmeticBinOpOverflow):
            return self.target(lhs, rhs, overflow=overflow_flags(op))
        return self.target(lhs, rhs)


class FloatUnaryOp(Protocol):
    """The class of an llvm op on one float (`llvm.fneg`, `llvm.intr.sqrt`, ...)."""

    def __call__(
        self, arg: SSAValue, /, *, fast_math: llvm.FastMathAttr
    ) -> Operation: ...


class FloatBinaryOp(Protocol):
    """The class of an llvm op on two floats (`llvm.fadd`, `llvm.intr.pow`, ...)."""

    def __call__(
        self, lhs: SSAValue, rhs: SSAValue, /, *, fast_math: llvm.FastMathAttr
    ) -> Operation: ...


@dataclass(frozen=True)
class FloatUnaryToLLVM(OneOpToLLVM):
    """A `source` op on a float (or a vector of them) becomes the llvm op `target`
    with the same fast-math flags."""

    target: FloatUnaryOp

    def build(self, op: Operation, operands: list[SSAValue]) -> Operation:
        (operand,) = operands
        return self.target(operand, fast_math=fastmath(op))


@dataclass(frozen=True)
class FloatBinaryToLLVM(OneOpToLLVM):
    """A `source` op on two floats (or vectors of them) becomes the llvm op
    `target` with the same fast-math flags."""

    target: FloatBinaryOp

    def build(self, op: Operation, operands: list[SSAValue]) -> Operation:
        lhs, rhs = operands
        return self.target(lhs, rhs, fast_math=fastmath(op))


@dataclass(frozen=True)
class CastToLLVM(OneOpToLLVM):
    """A `source` cast becomes the llvm cast `target` to the llvm result type."""

    target: Callable[[SSAValue, Attribute], Operation]

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
