"""How values lie in memory: booleans as bytes, sizes and alignments.

The passes that place values in memory (live values across barriers, module-scope
locals, packed kernel arguments, group exchanges) and the memref conversion agree
through this module.
"""

from __future__ import annotations

from typing import Protocol

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    IntegerAttr,
    IntegerType,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue

from dialects.llvmx import PackedStructType
from lowering.common.llvm_types import (
    bit_width,
    convert_type,
    element_type,
    natural_alignment,
    value_attr,
)

BOOLEAN_MEMORY_BITS = 8
"""The bits an `i1` takes in memory: one byte, holding 0 or 1."""


def memory_type(type_: Attribute) -> Attribute:
    """The type a value of the llvm type `type_` has in memory: `i1` is `i8` (0 or
    1), `vector<N x i1>` is `vector<N x i8>`, every other type is itself.

    This is the one place that decides how booleans are laid out in memory, and
    every path that puts a value in memory goes through it: the memref and vector
    conversions (the element type of every GEP, load, store, masked access, private
    array and global), the live storage of `work-item-loops`, the packed arguments
    of `add-kernel-wrapper`, and `storage`'s sizes. A byte per element is numpy's
    `bool` and C's `_Bool`, so a `memref<?xi1>` is a numpy bool array; LLVM itself
    stores an `i1` in a byte but packs a `<N x i1>` into N bits, which would make a
    vector access to N booleans touch N / 8 bytes. So a value of `i1` type is
    widened before it is stored (`to_memory`) and compared with 0 after it is
    loaded (`from_memory`). (The `atomic` ops refuse `i1`: LLVM has no 1-bit
    atomics.)"""
    if type_ == IntegerType(1):
        return IntegerType(BOOLEAN_MEMORY_BITS)
    if isinstance(type_, VectorType) and type_.element_type == IntegerType(1):
        return VectorType(IntegerType(BOOLEAN_MEMORY_BITS), type_.get_shape())
    return type_


class _Inserter(Protocol):
    def insert(self, op: Operation, /) -> Operation: ...


def to_memory(b: _Inserter, value: SSAValue) -> SSAValue:
    """`value` as it is stored (`memory_type`): an `i1` (or vector of them)
    zero-extended to a byte; any other value as it is."""
    stored = memory_type(value.type)
    if stored == value.type:
        return value
    return b.insert(llvm.ZExtOp(value, stored)).results[0]


def from_memory(b: _Inserter, value: SSAValue, type_: Attribute) -> SSAValue:
    """The value of llvm type `type_` that `value`, loaded as `memory_type(type_)`,
    holds: for an `i1`, whether the byte is not 0 (as numpy reads a bool); any
    other value as it is."""
    if memory_type(type_) == type_:
        return value
    zero = b.insert(llvm.ConstantOp(value_attr(0, value.type), value.type)).results[0]
    ne = IntegerAttr(llvm.ICmpPredicateFlag("ne").to_int(), i64)
    return b.insert(llvm.ICmpOp(value, zero, ne)).results[0]


def round_up(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


def storage(type_: Attribute) -> tuple[int, int]:
    """(size, alignment) in bytes of a value of `type_` in memory (as its
    `memory_type`: an `i1` is a byte): an integer, index, float, vector or pointer
    is aligned to its size rounded up to a power of two (a 3-element vector as a
    4-element one), and its size is rounded up to that alignment, as in an array;
    `!llvm.array` and `!llvm.struct` have LLVM's natural layout, a packed struct
    (`!llvmx.packed_struct`) none: its members' sizes, aligned to 1."""
    if isinstance(type_, llvm.LLVMArrayType):
        size, alignment = storage(type_.type)
        return size * type_.size.data, alignment
    if isinstance(type_, PackedStructType):  # no padding, aligned to 1
        return sum(storage(member)[0] for member in type_.types.data), 1
    if isinstance(type_, llvm.LLVMStructType):
        members = type_.types.data
        offsets = member_offsets(type_)
        end = offsets[-1] + storage(members[-1])[0] if members else 0
        alignment = max((storage(m)[1] for m in members), default=1)
        return round_up(end, alignment), alignment
    scalar = memory_type(convert_type(type_))
    alignment = natural_alignment(scalar)
    lanes = scalar.get_shape()[0] if isinstance(scalar, VectorType) else 1
    bits = bit_width(element_type(scalar)) * lanes
    return round_up(max(1, -(-bits // 8)), alignment), alignment


def member_offsets(type_: llvm.LLVMStructType) -> list[int]:
    """The offset in bytes of each member of the struct `type_` in LLVM's natural
    layout: each at the next multiple of its alignment."""
    offsets, offset = [], 0
    for member in type_.types.data:
        size, align = storage(member)
        offset = round_up(offset, align)
        offsets.append(offset)
        offset += size
    return offsets
