"""`cf` to `llvm`.

`cf.br` and `cf.cond_br` are `llvm.br` and `llvm.cond_br`, passing the successors
their arguments as llvm values (the successors' block arguments change type in
`func.py`, with the function). `cf.switch` is `llvmx.switch`, whose flag is an
`i32` or `i64`: a narrower flag is sign-extended to the next of them, and the case
values, signed numbers of the flag's width, compare as before (`index` flags are
`i64`). xDSL 0.74 cannot build a `cf.switch` on a flag wider than 64 bits: its case
values would not fit its dense attribute.

`cf.assert %cond, "msg"` is a conditional branch to a block holding only
`llvm.unreachable`: the kernel promises that the condition holds, and LLVM may
assume it does. A failed assertion is then undefined behaviour, as with `assert` in
a C kernel compiled with NDEBUG. The other choices are worse on the host: a trap
would kill the process that runs the JIT (and the runtime promises that bad input
never does), and printing the message needs a device printf we do not have.
"""

from __future__ import annotations

from xdsl.dialects import cf, llvm
from xdsl.dialects.builtin import i32, i64
from xdsl.ir import Block
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from dialects import llvmx
from lowering.common.llvm_types import bit_width
from lowering.to_llvm.building import resize_integer
from lowering.to_llvm.values import llvm_operands, llvm_value


class BranchToLLVM(RewritePattern):
    """`cf.br` is `llvm.br`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.BranchOp, rewriter: PatternRewriter, /):
        arguments = llvm_operands(op, rewriter)
        rewriter.replace(op, llvm.BrOp(op.successor, *arguments))


class CondBranchToLLVM(RewritePattern):
    """`cf.cond_br` is `llvm.cond_br`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: cf.ConditionalBranchOp, rewriter: PatternRewriter, /
    ):
        condition = llvm_value(op.cond, rewriter)
        then_arguments = [llvm_value(v, rewriter) for v in op.then_arguments]
        else_arguments = [llvm_value(v, rewriter) for v in op.else_arguments]
        new = llvm.CondBrOp(
            condition, op.then_block, then_arguments, op.else_block, else_arguments
        )
        rewriter.replace(op, new)


class SwitchToLLVM(RewritePattern):
    """`cf.switch` is `llvmx.switch` on an `i32` or `i64` flag."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.SwitchOp, rewriter: PatternRewriter, /):
        flag = llvm_value(op.flag, rewriter)
        width = bit_width(flag.type)
        if width not in (32, 64):
            wide = i32 if width < 32 else i64
            flag = resize_integer(rewriter, flag, wide, signed=True)
        # xDSL keeps the case values as signed numbers of the flag's width (an i8
        # 200 is -56), which the sign-extended flag compares equal to.
        values = list(op.case_values.get_values()) if op.case_values else []
        default_operands = [llvm_value(v, rewriter) for v in op.default_operands]
        case_operands = [
            [llvm_value(v, rewriter) for v in operands] for operands in op.case_operand
        ]
        new = llvmx.SwitchOp(
            flag,
            op.default_block,
            default_operands,
            values,
            op.case_blocks,
            case_operands,
        )
        rewriter.replace(op, new)


class AssertToLLVM(RewritePattern):
    """`cf.assert` branches to `llvm.unreachable` when the condition is false (see
    the module docstring)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.AssertOp, rewriter: PatternRewriter, /):
        condition = llvm_value(op.arg, rewriter)
        block = op.parent_block()
        assert block is not None
        rest = block.split_before(op)
        failed = Block([llvm.UnreachableOp()])
        region = block.parent_region()
        assert region is not None  # a block of the function being converted
        region.insert_block_after(failed, block)
        rewriter.insert(
            llvm.CondBrOp(condition, rest, [], failed, []), InsertPoint.at_end(block)
        )
        rewriter.erase(op)


PATTERNS: list[RewritePattern] = [
    BranchToLLVM(),
    CondBranchToLLVM(),
    SwitchToLLVM(),
    AssertToLLVM(),
]
"""The patterns converting the `cf` dialect."""
