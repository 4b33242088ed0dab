"""`atomic` to `llvm`.

Each op addresses its element as `memref.load` does (`memory.element_address`: the
GEP over the bare pointer; an `!llvm.ptr` address is its own pointer), then:

- `atomic.rmw` is `llvmx.atomicrmw` of its operation and ordering;
- `atomic.cmpxchg` is `llvmx.cmpxchg` (weak or not, both orderings), whose
  `!llvm.struct<(T, i1)>` result gives the old value and the success flag through
  two `llvm.extractvalue`s;
- `atomic.load` and `atomic.store` are `llvm.load` and `llvm.store` with their
  ordering (xDSL keeps it on the op; `mux.backend.op_translators` emits it,
  since xDSL's own translation drops it);
- `atomic.fence` is `llvmx.fence`.

Every access gets the natural alignment of its type (its size: LLVM requires an
alignment on atomic loads and stores, and an atomic that is not aligned to its size
is not lock-free on the host). No sync scope is emitted (the spec: the atomic
instructions "shall not have a `syncscope` argument"), so every atomic is
system-wide, which is what work-groups running on several threads need.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import DenseArrayBase, i1, i64
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from dialects import atomic, llvmx
from lowering.common.llvm_types import natural_alignment
from lowering.to_llvm.memory import convert_load, convert_store, element_address
from lowering.to_llvm.values import llvm_operands, replace_op

ORDERING_CODES = {name: code for code, name in llvm.ATOMIC_ORDERING_KEYWORDS.items()}
"""The `ordering` numbers of xDSL's `llvm.load`/`llvm.store`, by ordering name."""


class RMWToLLVM(RewritePattern):
    """`atomic.rmw` is `llvmx.atomicrmw`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: atomic.RMWOp, rewriter: PatternRewriter, /):
        base, *indices, value = llvm_operands(op, rewriter)
        pointer = element_address(rewriter, op.base, base, indices)
        rmw = llvmx.AtomicRMWOp(
            op.kind.data,
            pointer,
            value,
            op.ordering,
            alignment=natural_alignment(value.type),
        )
        replace_op(rewriter, op, [rewriter.insert(rmw).res])


class CmpXchgToLLVM(RewritePattern):
    """`atomic.cmpxchg` is `llvmx.cmpxchg` and the two fields of its result."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: atomic.CmpXchgOp, rewriter: PatternRewriter, /):
        base, *indices, cmp, new = llvm_operands(op, rewriter)
        pointer = element_address(rewriter, op.base, base, indices)
        cmpxchg = rewriter.insert(
            llvmx.CmpXchgOp(
                pointer,
                cmp,
                new,
                op.success_ordering,
                op.failure_ordering,
                weak=op.weak is not None,
                alignment=natural_alignment(cmp.type),
            )
        )
        fields = [
            rewriter.insert(
                llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [i]), cmpxchg, t)
            ).res
            for i, t in enumerate((cmp.type, i1))
        ]
        replace_op(rewriter, op, fields)


class LoadToLLVM(RewritePattern):
    """`atomic.load` is an atomic `llvm.load`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: atomic.LoadOp, rewriter: PatternRewriter, /):
        ordering = ORDERING_CODES[op.ordering.data.value]
        convert_load(op, rewriter, op.base, ordering=ordering)


class StoreToLLVM(RewritePattern):
    """`atomic.store` is an atomic `llvm.store`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: atomic.StoreOp, rewriter: PatternRewriter, /):
        ordering = ORDERING_CODES[op.ordering.data.value]
        convert_store(op, rewriter, op.base, ordering=ordering)


class FenceToLLVM(RewritePattern):
    """`atomic.fence` is `llvmx.fence`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: atomic.FenceOp, rewriter: PatternRewriter, /):
        rewriter.replace(op, llvmx.FenceOp(op.ordering))


PATTERNS: list[RewritePattern] = [
    RMWToLLVM(),
    CmpXchgToLLVM(),
    LoadToLLVM(),
    StoreToLLVM(),
    FenceToLLVM(),
]
"""The patterns converting the `atomic` ops."""
