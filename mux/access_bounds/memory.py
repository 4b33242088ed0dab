"""The memory a kernel accesses, and what each access addresses in it.

`Memory.of` finds, once per kernel, what the analysis checks (`Buffer`): the buffer
parameters (arrays and `LocalBuffer`s, whose sizes come with each launch), the
module-scope variables the kernel gets with `memref.get_global`, and the private
arrays (`memref.alloca`) of static shape. It follows every use of their memrefs:
the memref of an access (`ACCESS_OPS`), a side of a DMA transfer (`DMA_TRANSFERS`), a
cast to the buffer's bare pointer and `llvm.getelementptr`s of that pointer. A buffer
used in any other way (passed to a call, stored, ...) `escapes`: the analysis cannot
see all its accesses, and its extent is unknown.

What an access covers: a memref access at indices covers the element at the
row-major linearisation of its indices (`strides`), and a vector access its lanes
after it (`lanes`); each static dimension is checked on its own too. A DMA transfer
covers, on each side, the bytes `dma_bytes` gives from its pointer. Messages name a
buffer by its `label`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from xdsl.dialects import func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    MemRefType,
    NoneAttr,
    VectorType,
)
from xdsl.ir import Operation, SSAValue

from dialects import attributes as mux_attrs
from dialects import mux
from dialects.mux import ADDRESS_SPACE_LOCAL, address_space_of
from lowering.common.layout import storage
from mux.access_bounds.intervals import Itv, width_of
from mux.arguments import Param

ACCESS_OPS = {
    "memref.load": "memref",
    "memref.store": "memref",
    "vector.load": "base",
    "vector.store": "base",
    "vector.maskedload": "base",
    "vector.maskedstore": "base",
    "atomic.rmw": "base",
    "atomic.cmpxchg": "base",
    "atomic.load": "base",
    "atomic.store": "base",
}
"""Ops that access one element (or a vector's lanes) of a memref at indices, and
the name of their memref operand."""

DMA_TRANSFERS = tuple(op.name for op in mux.DMA_TRANSFER_OPS)
"""The DMA transfers: `dst` and `src` are a memref or a pointer, sizes and strides
in bytes (`dma_bytes`)."""

Key = tuple[int, int | None]
"""What is checked: (buffer index, None) for a buffer's elements (linearised),
(buffer index, d) for the indices of its static dimension d."""


@dataclass(eq=False)
class Buffer:
    """Memory the analysis checks: a buffer parameter (its position among the
    runtime's parameters, `param`), or a variable of static shape (`fixed`
    elements): a module-scope `memref.global` the kernel gets with
    `memref.get_global`, or a private array (`memref.alloca`). `values` are the
    memrefs that name it, `dims` the static size of each dimension (None: dynamic),
    `strides` (in elements) its row-major linearisation; `escapes` if the analysis
    does not see all its accesses."""

    index: int
    """Its number in `Memory.buffers`: keys are (index, None) for its elements,
    (index, d) for the indices of its static dimension d."""
    label: str
    type: MemRefType
    strides: tuple[int, ...] | None
    itemsize: int
    escapes: bool = False
    position: int = -1
    param: Param | None = None
    fixed: int | None = None
    values: list[SSAValue] = field(default_factory=list)

    @property
    def dims(self) -> tuple[int | None, ...]:
        return tuple(None if d == DYNAMIC_INDEX else d for d in self.type.get_shape())


@dataclass
class Memory:
    """What one kernel's analysis checks, found once (`Memory.of`)."""

    buffers: list[Buffer] = field(default_factory=list)
    by_value: dict[SSAValue, Buffer] = field(default_factory=dict)
    """The buffer each memref names."""
    pointers: dict[SSAValue, int] = field(default_factory=dict)
    """The buffer (index) each pointer derived from a buffer's memref is into:
    its value in an environment is its offset in bytes."""
    scalars: list[tuple[int, int, int]] = field(default_factory=list)
    """(position, argument number, width) of the integer scalar parameters."""

    @staticmethod
    def of(fn: func.FuncOp, params: Sequence[Param]) -> Memory:
        """The buffers and scalar parameters of kernel `fn` (none if it is only
        declared), and how each buffer's memref is used."""
        memory = Memory()
        if fn.is_declaration:
            return memory
        for position, arg in _buffer_args(fn, params):
            type_ = arg.type
            param = params[position]
            if isinstance(type_, MemRefType):
                buffer = memory._add(f"argument '{param.name}'", type_, [arg])
                buffer.position, buffer.param = position, param
            elif (w := width_of(type_)) is not None:
                memory.scalars.append((position, arg.index, w))
        memory._add_variables(fn)
        for buffer in memory.buffers:
            for value in buffer.values:
                memory.by_value[value] = buffer
                if not _follow(value, buffer.index, memory.pointers):
                    buffer.escapes = True
        return memory

    def _add_variables(self, fn: func.FuncOp) -> None:
        """The module-scope variables and private arrays of static shape: one
        buffer per variable, however many `memref.get_global`s name it."""
        globals_: dict[str, list[SSAValue]] = {}
        for op in fn.walk():
            if op.name not in ("memref.get_global", "memref.alloca"):
                continue
            type_ = op.results[0].type
            if not isinstance(type_, MemRefType) or any(
                d == DYNAMIC_INDEX for d in type_.get_shape()
            ):
                continue
            name = None
            if isinstance(op, memref.GetGlobalOp):
                name = op.name_.string_value()
                if name in globals_:
                    globals_[name].append(op.results[0])
                    continue
                globals_[name] = [op.results[0]]
            buffer = self._add(_variable_label(op, type_), type_, [op.results[0]])
            buffer.fixed = math.prod(type_.get_shape())
            if name is not None:
                buffer.values = globals_[name]  # later get_globals join it

    def _add(self, label: str, type_: MemRefType, values: list[SSAValue]) -> Buffer:
        buffer = Buffer(
            len(self.buffers),
            label,
            type_,
            _strides(type_),
            itemsize(type_.element_type),
            values=values,
        )
        self.buffers.append(buffer)
        return buffer


def _buffer_args(fn: func.FuncOp, params: Sequence[Param]):
    """(position among the runtime's parameters, block argument) of each parameter,
    skipping the module-scope variables' buffer as `kernel_params` does."""
    local_vars = mux_attrs.LOCAL_VARS_PARAM.get(fn)
    hidden = -1 if local_vars is None else local_vars.index
    args = [a for i, a in enumerate(fn.args) if i != hidden]
    return list(zip(range(len(params)), args, strict=True))


def _follow(value: SSAValue, index: int, pointers: dict[SSAValue, int]) -> bool:
    """Whether every use of buffer `index`'s memref or pointer `value` is one the
    analysis evaluates: the memref of an access, an operand `dst`/`src` of a DMA
    transfer, a cast of the memref to its bare pointer, a `llvm.getelementptr` of
    the pointer. Records in `pointers` which buffer each derived pointer is into."""
    for use in value.uses:
        op = use.operation
        name = op.name
        base = ACCESS_OPS.get(name)
        if base is not None:
            if getattr(op, base) is not value:
                return False
            if name in ("memref.store", "atomic.store") and op.operands[0] is value:
                return False
            continue
        if name in DMA_TRANSFERS:
            if use.index > 1:  # a size: not a pointer
                return False
            continue
        derived = (
            name == "builtin.unrealized_conversion_cast"
            and len(op.operands) == 1
            and len(op.results) == 1
        ) or (name == "llvm.getelementptr" and use.index == 0)
        if not derived:
            return False
        pointers[op.results[0]] = index
        if not _follow(op.results[0], index, pointers):
            return False
    return True


def _strides(type_: MemRefType) -> tuple[int, ...] | None:
    """Row-major strides in elements, None if a dimension after the first is
    dynamic or the layout is not the identity (the runtime passes a bare pointer)."""
    if not isinstance(type_.layout, NoneAttr):
        return None
    shape = type_.get_shape()
    if any(d == DYNAMIC_INDEX for d in shape[1:]):
        return None
    strides, step = [], 1
    for d in reversed(shape):
        strides.append(step)
        step *= max(d, 1)
    return tuple(reversed(strides))


def lanes(op: Operation) -> int:
    """Elements one access covers: the vector's lanes for vector loads and stores."""
    if op.name in ("vector.load", "vector.maskedload"):
        type_ = op.results[0].type
    elif op.name == "vector.store":
        type_ = op.operands[0].type
    elif op.name == "vector.maskedstore":
        type_ = op.operands[-1].type
    else:
        return 1
    assert isinstance(type_, VectorType)
    return math.prod(type_.get_shape())


def dma_bytes(
    offset: Itv, width: Itv, lines: Sequence[tuple[Itv, Itv]]
) -> Itv | Literal[False]:
    """The bytes a DMA transfer covers on one side, from the pointer's offset in
    its buffer: `width` bytes on each of the `count` lines `stride` bytes apart
    (per (count, stride) of `lines`: rows, then planes). False if it copies
    nothing; None if a value is unknown. Sizes are the unsigned values of the
    spec's size_t."""
    if width == (0, 0) or any(count == (0, 0) for count, _ in lines):
        return False
    if offset is None or width is None:
        return None
    hi = offset[1] + width[1] - 1
    for count, stride in lines:
        if count is None or stride is None:
            return None
        hi += max(count[1] - 1, 0) * stride[1]
    return (offset[0], hi)


def type_text(type_: MemRefType) -> str:
    """A memref type as a kernel writes it (`memref<?x8xf32, 1>`)."""
    space = address_space_of(type_)
    dims = "".join("?x" if d == DYNAMIC_INDEX else f"{d}x" for d in type_.get_shape())
    return f"memref<{dims}{type_.element_type}{f', {space}' if space else ''}>"


def _variable_label(op: Operation, type_: MemRefType) -> str:
    """How a message names a variable: "local variable 'tile'
    (memref<16x16xf32, 3>)", "private array 'acc' (memref<4xi32>)"."""
    space = address_space_of(type_)
    text = type_text(type_)
    if isinstance(op, memref.GetGlobalOp):
        name = op.name_.string_value()
        kind = "local variable" if space == ADDRESS_SPACE_LOCAL else "variable"
        return f"{kind} '{name}' ({text})"
    hint = op.results[0].name_hint
    named = f" '{hint}'" if hint else ""
    return f"private array{named} ({text})"


def scalar_size(element: Any) -> int | None:
    """The bytes of an integer or float type, or of a vector of them in memory (a
    3-element one as 4: a `float3*` steps 16 bytes), None for another type."""
    scalar = element.element_type if isinstance(element, VectorType) else element
    if width_of(scalar) is None and str(scalar) not in ("f16", "bf16", "f32", "f64"):
        return None
    return itemsize(element)


def itemsize(element: Any) -> int:
    """The bytes of a buffer's element as the compiled kernel addresses it
    (`lowering.common.layout.storage`: an `i1` is a byte, a vector of 3 takes 4
    lanes, an `i24` 4 bytes), so that element counts agree with the GEPs."""
    return storage(element)[0]
