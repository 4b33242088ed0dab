"""The cell size of a kernel's shadow (`lowering.common.local_shadow`): the
largest power of two `g` (at most `MAX_CELL`) such that every checked local
access of the kernel provably starts at a multiple of `g` in the work-group's
block of local memory and has a size that is a multiple of `g`. Each cell is
then only ever accessed as a whole, and a word per cell tells the same races
as a word per byte: none invented, none lost.

What is proven: a local parameter starts at a multiple of `BLOCK_ALIGNMENT`
in the block, the module-scope variables' buffer at a multiple of its
alignment (`add-kernel-wrapper`); a memref access is at its memref's start
plus index times element size; casts keep the address; a GEP adds constant
offsets and multiples of the sizes its indices step over. Anything else (an
address from a load, a select or a block argument, a size known only at run
time) proves nothing: `g` is then 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import MemRefType, UnrealizedConversionCastOp
from xdsl.ir import BlockArgument, Operation, SSAValue

from dialects import attributes as mux_attrs
from dialects import llvmx
from dialects.mux import ADDRESS_SPACE_LOCAL, address_space_of
from lowering.common.layout import member_offsets, storage
from lowering.common.llvm_types import ConversionError
from lowering.common.local_shadow import BLOCK_ALIGNMENT

MAX_CELL = 8
"""Bytes: cells of a long or a double at most; larger cells would only save
memory, as a vector access then covers several cells anyway."""


class _Access(Protocol):
    """What `cell_shift` reads of an access of `check-local-races`."""

    op: Operation
    address: SSAValue
    indices: Sequence[SSAValue]
    size: int | SSAValue


def cell_shift(fn: func.FuncOp, accesses: Sequence[_Access]) -> int:
    """log2 of the cell size of `fn`'s shadow, given its checked `accesses`."""
    cell = MAX_CELL
    for access in accesses:
        cell = min(cell, _granule(fn, access))
    return cell.bit_length() - 1


def _power_of_two_in(n: int) -> int:
    """The largest power of two dividing `n` (0: any, as large as needed)."""
    return n & -n if n else MAX_CELL


def _granule(fn: func.FuncOp, access: _Access) -> int:
    """The largest power of two that divides the access's size and its offset
    in the block, as far as proven."""
    if not isinstance(access.size, int):
        return 1
    cell = min(_power_of_two_in(access.size), _start(fn, access.address))
    type_ = access.address.type
    if isinstance(type_, MemRefType) and access.indices:
        cell = min(cell, _power_of_two_in(storage(type_.element_type)[0]))
    return cell


def _start(fn: func.FuncOp, value: SSAValue) -> int:
    """A power of two the offset of `value` (a local memref or pointer) in the
    block is a multiple of: what it is cast from or a GEP steps from, back to a
    local parameter."""
    cell = MAX_CELL
    while True:
        if isinstance(value, BlockArgument):
            local = address_space_of(value.type) == ADDRESS_SPACE_LOCAL
            if value.owner is not fn.body.blocks.first or not local:
                return 1
            local_vars = mux_attrs.LOCAL_VARS_PARAM.get(fn)
            if local_vars is not None and value.index == local_vars.index:
                return min(cell, _power_of_two_in(local_vars.alignment))
            return min(cell, BLOCK_ALIGNMENT)
        owner = value.owner
        if isinstance(owner, UnrealizedConversionCastOp | llvmx.AddrSpaceCastOp):
            value = owner.operands[0]
        elif isinstance(owner, llvm.GEPOp):
            cell = min(cell, _gep_granule(owner))
            value = owner.ptr
        else:
            return 1


def _gep_granule(op: llvm.GEPOp) -> int:
    """A power of two the bytes `op` adds to its pointer are a multiple of: a
    constant index times the size it steps over, a member's offset, or any
    multiple of the size a variable index steps over."""
    cell = MAX_CELL
    type_ = None  # the type the next index steps into
    try:
        for raw in op.rawConstantIndices.iter_values():
            if type_ is None:
                type_ = op.elem_type
            elif isinstance(type_, llvm.LLVMArrayType):
                type_ = type_.type
            elif isinstance(type_, llvm.LLVMStructType) and raw != llvm.GEP_USE_SSA_VAL:
                cell = min(cell, _power_of_two_in(member_offsets(type_)[raw]))
                type_ = type_.types.data[raw]
                continue
            else:
                return 1
            size = storage(type_)[0]
            step = size if raw == llvm.GEP_USE_SSA_VAL else raw * size
            cell = min(cell, _power_of_two_in(step))
    except ConversionError:  # a type with no size
        return 1
    return cell
