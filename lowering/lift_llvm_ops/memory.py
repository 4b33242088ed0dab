"""An imported kernel's loads and stores as `memref.load`/`memref.store`: the address
of an `llvm.load`/`llvm.store` as a memref and an index into it.

**An address** is a base pointer and a byte offset from it. The base is a pointer
that is a `builtin.unrealized_conversion_cast` of a memref with the identity
layout: a buffer argument's `memref<?xT, AS>` (the importer's cast at entry), or a
local variable as `replace-module-scope-vars` gives it (its byte buffer, or the
variable's `memref<16x16xf32, 3>` cast from a pointer into that buffer). From the
base, a chain of `llvm.getelementptr`s adds, for each GEP:

- its first index times the size of its type (`storage`: LLVM's natural layout,
  `lowering.common.layout`), then
- for each further index, stepping into that type: an index into an
  `!llvm.array` times the size of its element, a constant member of an
  `!llvm.struct` that member's offset.

The indices are `i64` values (clang's for spir64) or constants. So `tile[ly][k]`
of `__local float tile[16][16]` (`gep %tile[%ly] : !llvm.array<16 x f32>` then
`gep [%k] : f32`) is the base plus `ly * 64 + k * 4` bytes, and a row step after
an element step is too.

**An access of type `T`** (an integer or a float of `s` bytes in memory, an `i1`
one) at such an address is a `memref.load`/`memref.store` at the flat index
`sum(index * (its bytes / s)) + constant / s` (in `i64`, then `index`) of a 1-D
view of `T`s of the base: the memref itself if it is 1-D of `T` (a buffer
argument), else
`builtin.unrealized_conversion_cast %base : !llvm.ptr<AS> to memref<K x T, AS>` (K
the base memref's bytes / s, `?` for a dynamic 1-D one), right before the access,
the view `replace-module-scope-vars` makes of its buffer: a memref is a bare
pointer for `convert-to-llvm`, so the view is the base pointer, and the access
`base + index * s`.

That is the address the GEPs computed, exactly, when `s` divides every multiple of
the sum (each GEP type's size, each member offset): refused otherwise (an `f32` at
`gep [%i] : i16` steps of 2 bytes, an `i64` at an odd `f32` element). The memref
access assumes `T`'s natural alignment, as an `llvm.load` without `alignment`
does: an access whose `alignment` is smaller (a packed struct's member) is
refused. Atomic, volatile and nontemporal accesses are refused too, and what is
refused stays as it was, with its GEPs.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects import arith, llvm, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    UnrealizedConversionCastOp,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from lowering.common.layout import member_offsets, storage
from lowering.common.llvm_types import ConversionError


@dataclass(frozen=True)
class _Base:
    """A pointer that is the cast of `ref`, a memref of the identity layout."""

    ref: SSAValue


@dataclass(frozen=True)
class _Step:
    """The pointer `gep` computes: `parent` plus the sum of `terms` ((an i64 index,
    the bytes it counts)) plus `offset` bytes."""

    parent: SSAValue
    gep: llvm.GEPOp
    terms: tuple[tuple[SSAValue, int], ...]
    offset: int


class Addresses:
    """The addresses of a kernel's pointers, noted as the ops defining them are
    seen (in order), and its accesses as memref ones."""

    def __init__(self) -> None:
        self.pointers: dict[SSAValue, _Base | _Step] = {}
        self.indices: dict[tuple[SSAValue, int], SSAValue | None] = {}
        """The flat index of a pointer in units of s bytes (an i64, computed
        before its GEP; None for the base), by (pointer, s)."""

    def note(self, op: Operation) -> None:
        """Notes the address `op` defines, if it is a base or a step from one."""
        if isinstance(op, UnrealizedConversionCastOp):
            self.note_base(op)
        elif isinstance(op, llvm.GEPOp) and op.ptr in self.pointers:
            step = _step(op)
            if step is not None:
                self.pointers[op.result] = step

    def note_base(self, op: UnrealizedConversionCastOp) -> None:
        if len(op.inputs) != 1 or len(op.outputs) != 1:
            return
        type_ = op.inputs[0].type
        if (
            isinstance(type_, MemRefType)
            and isinstance(type_.layout, NoneAttr)
            and isinstance(op.outputs[0].type, llvm.LLVMPointerType)
        ):
            self.pointers[op.outputs[0]] = _Base(op.inputs[0])

    def access(self, op: llvm.LoadOp | llvm.StoreOp) -> Operation | None:
        """The memref access replacing `op` (its view and index inserted before
        it), or None to keep `op`."""
        if op.ptr not in self.pointers or (op.ordering and op.ordering.value.data):
            return None
        if isinstance(op, llvm.StoreOp) and (op.volatile_ or op.nontemporal):
            return None
        type_ = (
            op.dereferenced_value.type if isinstance(op, llvm.LoadOp) else op.value.type
        )
        size = _element_size(type_)
        if size is None or not self.fits(op.ptr, size):
            return None
        if op.alignment is not None and op.alignment.value.data < storage(type_)[1]:
            return None
        view = self.view(op, type_, size)
        if view is None:
            return None
        at = _as_index(op, self.index(op.ptr, size))
        if isinstance(op, llvm.LoadOp):
            return memref.LoadOp.get(view, [at])
        return memref.StoreOp.get(op.value, view, [at])

    def base_of(self, pointer: SSAValue) -> tuple[SSAValue, _Base]:
        found = self.pointers[pointer]
        while isinstance(found, _Step):
            pointer, found = found.parent, self.pointers[found.parent]
        return pointer, found

    def fits(self, pointer: SSAValue, size: int) -> bool:
        """Whether every multiple in the sum of `pointer`'s address is one of
        `size` bytes."""
        found = self.pointers[pointer]
        while isinstance(found, _Step):
            if found.offset % size or any(b % size for _, b in found.terms):
                return False
            found = self.pointers[found.parent]
        return True

    def view(self, before: Operation, type_: Attribute, size: int) -> SSAValue | None:
        """The 1-D memref of `type_` at the base of `before`'s address."""
        assert isinstance(before, llvm.LoadOp | llvm.StoreOp)
        pointer, base = self.base_of(before.ptr)
        ref_type = base.ref.type
        assert isinstance(ref_type, MemRefType)
        shape = ref_type.get_shape()
        if len(shape) == 1 and ref_type.element_type == type_:
            return base.ref
        if any(n < 0 for n in shape):
            if len(shape) != 1:
                return None
            count = DYNAMIC_INDEX  # a dynamic 1-D buffer: as many as it holds
        else:
            try:
                bytes_ = prod(shape) * storage(ref_type.element_type)[0]
            except ConversionError:  # an element type with no size
                return None
            count = bytes_ // size
        view_type = MemRefType(type_, [count], NoneAttr(), ref_type.memory_space)
        cast = UnrealizedConversionCastOp.get([pointer], [view_type])
        Rewriter.insert_op(cast, InsertPoint.before(before))
        return cast.results[0]

    def index(self, pointer: SSAValue, size: int) -> SSAValue | None:
        """`pointer`'s flat index in units of `size` bytes (fits), computed right
        before its GEP (its indices are defined there, and it is before every use
        of the pointer); None for 0."""
        key = (pointer, size)
        if key not in self.indices:
            found = self.pointers[pointer]
            if isinstance(found, _Base):
                self.indices[key] = None
            else:
                self.indices[key] = _sum(
                    found.gep, self.index(found.parent, size), found, size
                )
        return self.indices[key]


def _sum(
    before: Operation, start: SSAValue | None, step: _Step, size: int
) -> SSAValue | None:
    """`start` + `step`'s terms and offset in units of `size` bytes, inserted
    before `before`."""
    total = start

    def insert(op: Operation) -> SSAValue:
        Rewriter.insert_op(op, InsertPoint.before(before))
        return op.results[0]

    parts = [
        v if b == size else insert(arith.MuliOp(v, _constant(before, b // size)))
        for v, b in step.terms
    ]
    if step.offset:
        parts.append(_constant(before, step.offset // size))
    for part in parts:
        total = part if total is None else insert(arith.AddiOp(total, part))
    return total


def _constant(before: Operation, value: int) -> SSAValue:
    op = arith.ConstantOp(IntegerAttr(value, i64))
    Rewriter.insert_op(op, InsertPoint.before(before))
    return op.result


def _step(op: llvm.GEPOp) -> _Step | None:
    """The address `op` computes from its pointer, if its indices are i64 values
    or constants and step into arrays and structs only."""
    ssa = iter(op.ssa_indices)
    terms: list[tuple[SSAValue, int]] = []
    offset = 0
    type_: Attribute | None = None  # the type the next index steps into
    try:
        for raw in op.rawConstantIndices.iter_values():
            if type_ is None:
                type_, bytes_ = op.elem_type, storage(op.elem_type)[0]
            elif isinstance(type_, llvm.LLVMArrayType):
                type_ = type_.type
                bytes_ = storage(type_)[0]
            elif isinstance(type_, llvm.LLVMStructType) and raw != llvm.GEP_USE_SSA_VAL:
                offset += member_offsets(type_)[raw]
                type_ = type_.types.data[raw]
                continue
            else:
                return None
            if raw == llvm.GEP_USE_SSA_VAL:
                index = next(ssa)
                if index.type != i64:
                    return None
                terms.append((index, bytes_))
            else:
                offset += raw * bytes_
    except ConversionError:  # a type with no size
        return None
    return _Step(op.ptr, op, tuple(terms), offset)


def _element_size(type_: Attribute) -> int | None:
    """The bytes of an access of `type_`, if it is an integer (an `i1` is a byte
    in memory, for memrefs as for `llvm.load`: `layout.memory_type`) or a float;
    None for a vector or a pointer."""
    if isinstance(type_, IntegerType | AnyFloat):
        return storage(type_)[0]
    return None


def _as_index(before: Operation, index: SSAValue | None) -> SSAValue:
    """`index` (an i64; None for 0) as an `index`, computed before `before`."""
    if index is None:
        new: Operation = arith.ConstantOp(IntegerAttr(0, IndexType()))
    else:
        owner = index.owner
        if isinstance(owner, arith.IndexCastOp) and isinstance(
            owner.input.type, IndexType
        ):
            return owner.input  # index -> i64 -> index: the index itself
        new = arith.IndexCastOp(index, IndexType())
    Rewriter.insert_op(new, InsertPoint.before(before))
    return new.results[0]
