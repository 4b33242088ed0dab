"""The memory accesses of a kernel, as checked mode sees them
(`check-access-bounds`): what each op reads or writes, and where it is in the
source.

`targets(op)` gives, for an op that accesses memory, one `Target` per range
it touches (a `memcpy` two: its destination and its source), empty for any
other op.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import llvm, memref, vector
from xdsl.dialects.builtin import FileLineColLoc, VectorType
from xdsl.ir import Attribute, Operation, SSAValue

from dialects import atomic, llvmx
from lowering.common.layout import memory_type, storage
from lowering.common.llvm_types import ConversionError, bit_width, element_type


@dataclass(frozen=True)
class Target:
    """One range an access touches: `ref`, a memref (with `indices`, `lanes`
    consecutive elements from there, the active ones `mask`'s) or a pointer
    (`width` bytes from it: an int, or an integer value for a `memcpy`)."""

    verb: str
    ref: SSAValue
    indices: Sequence[SSAValue] = ()
    lanes: int = 1
    mask: SSAValue | None = None
    width: int | SSAValue = 0


def access_bytes(type_: Attribute) -> int:
    """The bytes a load or store of a `type_` value touches: its store size (a
    3-element vector's 3 elements, not its padded 4), else its storage."""
    scalar = memory_type(type_)
    if isinstance(scalar, VectorType):
        lanes = scalar.get_shape()[0]
        return -(-bit_width(element_type(scalar)) * lanes // 8)
    try:
        return -(-bit_width(scalar) // 8)
    except (
        ConversionError,
        AssertionError,
        ValueError,
        TypeError,
        NotImplementedError,
    ):
        return storage(type_)[0]  # a struct or an array: no bit width


def _lanes(type_: Attribute) -> int:
    return type_.get_shape()[0] if isinstance(type_, VectorType) else 1


def targets(op: Operation) -> list[Target]:
    """The ranges `op` accesses (module docstring)."""
    if isinstance(op, memref.LoadOp):
        return [Target("load from", op.memref, op.indices)]
    if isinstance(op, memref.StoreOp):
        return [Target("store to", op.memref, op.indices)]
    if isinstance(op, vector.LoadOp):
        return [Target("load from", op.base, op.indices, _lanes(op.result.type))]
    if isinstance(op, vector.StoreOp):
        return [Target("store to", op.base, op.indices, _lanes(op.vector.type))]
    if isinstance(op, vector.MaskedLoadOp):
        lanes = _lanes(op.result.type)
        return [Target("load from", op.base, op.indices, lanes, op.mask)]
    if isinstance(op, vector.MaskedStoreOp):
        lanes = _lanes(op.value_to_store.type)
        return [Target("store to", op.base, op.indices, lanes, op.mask)]
    return _atomic_targets(op) or _pointer_targets(op)


def _atomic_targets(op: Operation) -> list[Target]:
    if isinstance(op, atomic.RMWOp | atomic.CmpXchgOp | atomic.LoadOp | atomic.StoreOp):
        value = op.results[0] if op.results else op.operands[0]
        verb = "atomic on"
        if op.indices or not isinstance(op.base.type, llvm.LLVMPointerType):
            return [Target(verb, op.base, op.indices)]
        return [Target(verb, op.base, width=access_bytes(value.type))]
    if isinstance(op, llvmx.AtomicRMWOp):
        return [Target("atomic on", op.ptr, width=access_bytes(op.val.type))]
    if isinstance(op, llvmx.CmpXchgOp):
        return [Target("atomic on", op.ptr, width=access_bytes(op.cmp.type))]
    return []


def _pointer_targets(op: Operation) -> list[Target]:
    if isinstance(op, llvm.LoadOp | llvmx.VolatileLoadOp):
        return [Target("load from", op.ptr, width=access_bytes(op.results[0].type))]
    if isinstance(op, llvm.StoreOp):
        return [Target("store to", op.ptr, width=access_bytes(op.value.type))]
    if isinstance(op, llvmx.MemcpyOp):
        return [
            Target("copy (DMA transfer or memcpy) to", op.dst, width=op.len),
            Target("copy (DMA transfer or memcpy) from", op.src, width=op.len),
        ]
    return []


def describe_location(op: Operation) -> str:
    """`file:line:col` of `op`, or of the closest op holding it that has a
    location (an op a pass made may have none)."""
    at: Operation | None = op
    while at is not None:
        loc = at.location
        if isinstance(loc, FileLineColLoc):
            return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
        at = at.parent_op()
    return "an unknown location"
