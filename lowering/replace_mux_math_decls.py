"""`replace-mux-math-decls{ftz=... fast=... embedded=...}`: the spec's
ReplaceMuxMathDeclsPass.

compiler-utils-passes.rst, "ReplaceMuxMathDeclsPass": `__mux_isftz`, `__mux_usefast`
and `__mux_isembeddedprofile` get "a function body ... returning a constant value",
set from parameters of the pass (derived from hardware features like denormal
support, or from compilation flags like fast-math), so that later optimisation removes
the control flow they guard. Here the ops `mux.isftz`, `mux.usefast` and
`mux.isembeddedprofile` are replaced by `arith.constant` of those values.

The host CPU keeps denormals and implements the full profile: the defaults are all
false.

Before: nothing (it can run first; the spec runs it after linking builtins). After:
none of the three ops remains.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i1
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from dialects import mux


@dataclass
class ReplaceWithConstant(RewritePattern):
    values: dict[type, bool]

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self,
        op: mux.IsFtzOp | mux.UseFastOp | mux.IsEmbeddedProfileOp,
        rewriter: PatternRewriter,
    ) -> None:
        value = self.values[type(op)]
        rewriter.replace(op, arith.ConstantOp(IntegerAttr(int(value), i1)))


@dataclass(frozen=True)
class ReplaceMuxMathDeclsPass(ModulePass):
    """Replaces `mux.isftz`, `mux.usefast` and `mux.isembeddedprofile` by
    constants."""

    name = "replace-mux-math-decls"

    ftz: bool = False
    """Whether the device flushes floating-point denormals to zero."""
    fast: bool = False
    """Whether maths builtins may use faster, less accurate algorithms."""
    embedded: bool = False
    """Whether the device implements the OpenCL 1.2 embedded profile."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        values = {
            mux.IsFtzOp: self.ftz,
            mux.UseFastOp: self.fast,
            mux.IsEmbeddedProfileOp: self.embedded,
        }
        PatternRewriteWalker(ReplaceWithConstant(values)).rewrite_module(op)
