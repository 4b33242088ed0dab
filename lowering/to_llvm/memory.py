"""Memory accesses in `convert-to-llvm`: the address of the element an access names,
and the loads and stores that `memref`, `vector` and `atomic` ops become.

Those ops name an element by a memref (a bare pointer once converted) and one index
per dimension, or by an `!llvm.ptr` alone (the `atomic` ops accept one). The
element's address is a GEP over the bare pointer (`building.element_pointer`). A
value goes to and from memory in its memory type (`lowering.common.layout`: a
boolean is a byte there), so every load and store converts through `to_memory` and
`from_memory`; types without booleans are unchanged by both.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import llvm
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from dialects import attributes as mux_attrs
from lowering.common.layout import from_memory, memory_type, to_memory
from lowering.common.llvm_types import convert_type, natural_alignment
from lowering.to_llvm.building import element_pointer
from lowering.to_llvm.values import llvm_operands, replace_op


def element_address(
    rewriter: PatternRewriter,
    address: SSAValue,
    base: SSAValue,
    indices: Sequence[SSAValue],
) -> SSAValue:
    """The llvm pointer to element `indices` (llvm values) of the memref `address`,
    whose bare pointer is `base`. An `!llvm.ptr` address is its own pointer."""
    if not isinstance(address.type, MemRefType):
        assert not indices, "an !llvm.ptr address takes no indices"
        return base
    return element_pointer(rewriter, base, address.type, indices)


def convert_load(
    op: Operation,
    rewriter: PatternRewriter,
    address: SSAValue,
    *,
    alignment: int | None = None,
    ordering: int = 0,
) -> None:
    """Replaces `op`, whose operands are `address` and the indices of an element,
    by the element's address and an `llvm.load` of `op`'s result in its memory
    type. `alignment` is by default that type's natural one; `ordering` is an
    atomic ordering code of `llvm.load` (0: not atomic)."""
    base, *indices = llvm_operands(op, rewriter)
    pointer = element_address(rewriter, address, base, indices)
    result_type = convert_type(op.results[0].type)
    stored = memory_type(result_type)
    if alignment is None:
        alignment = natural_alignment(stored)
    load = rewriter.insert(llvm.LoadOp(pointer, stored, alignment, ordering))
    if mux_attrs.INVARIANT_LOAD.get(op):
        mux_attrs.INVARIANT_LOAD.set(load, True)
    value = from_memory(rewriter, load.dereferenced_value, result_type)
    replace_op(rewriter, op, [value])


def convert_store(
    op: Operation,
    rewriter: PatternRewriter,
    address: SSAValue,
    *,
    alignment: int | None = None,
    ordering: int = 0,
    nontemporal: bool = False,
) -> None:
    """Replaces `op`, whose operands are the value to store, `address` and the
    indices of an element, by the element's address and an `llvm.store` of the
    value in its memory type. `alignment` is by default that type's natural one;
    `ordering` is an atomic ordering code of `llvm.store` (0: not atomic)."""
    value, base, *indices = llvm_operands(op, rewriter)
    pointer = element_address(rewriter, address, base, indices)
    value = to_memory(rewriter, value)
    if alignment is None:
        alignment = natural_alignment(value.type)
    store = llvm.StoreOp(
        value, pointer, alignment, ordering=ordering, nontemporal=nontemporal
    )
    rewriter.replace(op, store)
