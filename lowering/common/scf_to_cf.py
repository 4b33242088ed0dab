"""`scf` to `cf`, the first step of `convert-to-llvm`.

xDSL's `convert-scf-to-cf` lowers `scf.if`, `scf.for` and `scf.index_switch`, but
not `scf.while` (kernels use it, `examples/reduce.mlir` for one). `WhileLowering`
adds it, as MLIR's SCFToControlFlow does:

    <ops before>                          <ops before>
    %r = scf.while (%a = %init) {         cf.br ^before(%init)
      <before ops>                      ^before(%a):
      scf.condition(%c) %v             =>  <before ops>
    } do {                                 cf.cond_br %c, ^after(%v), ^rest
    ^bb0(%b):                           ^after(%b):
      <after ops>                          <after ops>
      scf.yield %w                         cf.br ^before(%w)
    }                                   ^rest:
    <ops after, using %r>                  <ops after, using %v>

The results of the loop are the values `scf.condition` forwards, which the `before`
block defines and which dominate the rest.
"""

from __future__ import annotations

from xdsl.dialects import cf, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Region
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import BlockInsertPoint, InsertPoint
from xdsl.transforms.convert_scf_to_cf import ForLowering, IfLowering, SwitchLowering


class WhileLowering(RewritePattern):
    """`scf.while` is a loop of blocks (see the module docstring)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter, /):
        entry = op.parent_block()
        assert entry is not None
        rest = entry.split_before(op)
        before = op.before_region.block
        after = op.after_region.block

        condition = before.last_op
        assert isinstance(condition, scf.ConditionOp)
        results = list(condition.args)
        rewriter.replace(
            condition,
            cf.ConditionalBranchOp(condition.condition, after, results, rest, ()),
        )
        yield_ = after.last_op
        assert isinstance(yield_, scf.YieldOp)
        rewriter.replace(yield_, cf.BranchOp(before, *yield_.operands))

        rewriter.inline_region(op.before_region, BlockInsertPoint.before(rest))
        rewriter.inline_region(op.after_region, BlockInsertPoint.before(rest))
        rewriter.insert(cf.BranchOp(before, *op.arguments), InsertPoint.at_end(entry))
        rewriter.replace(op, [], results)


def lower_scf_to_cf(root: ModuleOp | Region) -> None:
    """xDSL's `convert-scf-to-cf` with `scf.while` added (and without its removal
    of dead ops: a conversion keeps them), on a module or on one region (a
    function's body)."""
    patterns = [SwitchLowering(), IfLowering(), ForLowering(), WhileLowering()]
    applier = GreedyRewritePatternApplier(patterns, dce_enabled=False)
    walker = PatternRewriteWalker(applier)
    if isinstance(root, ModuleOp):
        walker.rewrite_module(root)
    else:
        walker.rewrite_region(root)
