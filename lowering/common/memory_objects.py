"""The memory objects an access may address, for checked mode
(`check-access-bounds`; `viewed_buffer` also for the race proof of
`check-local-races`): a kernel buffer parameter, the module-scope local
buffer, a private array, and the pointers traced back to them.

An *object* is a value whose memory has an extent the checked kernel can know:

- an entry-block argument of the function: a buffer parameter (a memref: a
  static shape's bytes, or for a dynamic leading dimension, `memref<?xT>` or
  `memref<?x8xT>`, the size in bytes the runtime writes to the check record),
  or a struct passed by value (`mux.byval`);
- a `memref.alloca` or `llvm.alloca` of a static size (a private array);
- a module-scope local variable: the address `replace-module-scope-vars` gives
  it, whose op records the variable (`mux.local_variable`), is an object of the
  variable's size, `offset` bytes into the buffer of those variables (the
  parameter it is computed from, which the whole function has: the address is
  computed before each use). A pointer traced back past it, or to the buffer
  another way, is checked against the whole buffer;
- a memref of static shape, whatever it is a view of (the module-scope local
  buffer `replace-module-scope-vars` makes, a cast of a pointer); a view of a
  local variable's address (through casts only) is named by the variable.

`pointer_roots` traces an `!llvm.ptr` back to the objects it may point into,
through GEPs, casts (`builtin.unrealized_conversion_cast`, `addrspacecast`),
selects, and block arguments (CFG predecessors, `scf.for` iteration values):
all the possible bases. A pointer with one path to something else (a pointer
loaded from memory, returned by a call, made from an integer) has no roots
(None): the access is left unchecked, never reported.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, func, llvm, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    MemRefType,
    UnrealizedConversionCastOp,
    i8,
)
from xdsl.ir import BlockArgument, Operation, SSAValue

from dialects import attributes as mux_attrs
from dialects import llvmx
from dialects.mux import ADDRESS_SPACE_LOCAL
from lowering.common.builders import constant_int
from lowering.common.cfg import incoming
from lowering.common.layout import storage
from lowering.common.llvm_types import memory_space_number


@dataclass(frozen=True)
class MemoryObject:
    """An object an access is checked against: `value` (a memref or pointer the
    function has everywhere) and `offset` bytes further, its start; what a
    message calls it (`what`), and its extent: `static_bytes`, or the size the
    runtime writes for parameter `param`."""

    value: SSAValue
    what: str
    static_bytes: int | None = None
    param: int | None = None
    offset: int = 0


def entry_parameter(fn: func.FuncOp, value: SSAValue) -> int | None:
    """The index of `value` among `fn`'s parameters, None if it is not one."""
    if isinstance(value, BlockArgument) and value.block is fn.body.blocks.first:
        return value.index
    return None


def _name(value: SSAValue, default: str) -> str:
    return value.name_hint or default


def memory_object(fn: func.FuncOp, value: SSAValue) -> MemoryObject | None:
    """The object `value` is (a memref of known extent, a parameter, a private
    array), None if its extent is not known."""
    type_ = value.type
    param = entry_parameter(fn, value)
    if isinstance(type_, MemRefType):
        shape = type_.get_shape()
        element = storage(type_.element_type)[0]
        local_vars = mux_attrs.LOCAL_VARS_PARAM.get(fn)
        if param is not None and local_vars is not None and local_vars.index == param:
            what = f"the module-scope local variables ({type_})"
        elif param is not None:
            what = f"parameter '{_name(value, f'arg{param}')}' ({type_})"
        elif (variable := _viewed_variable(value)) is not None:
            what = _variable_text(variable)
        elif memory_space_number(type_) == ADDRESS_SPACE_LOCAL:
            what = f"local variable '{_name(value, 'local memory')}' ({type_})"
        else:
            what = f"private array '{_name(value, 'private memory')}' ({type_})"
        if DYNAMIC_INDEX not in shape:
            count = 1
            for size in shape:
                count *= size
            return MemoryObject(value, what, static_bytes=count * element)
        if param is not None and DYNAMIC_INDEX not in shape[1:]:
            return MemoryObject(value, what, param=param)
        return None
    if param is not None:
        byval = mux_attrs.byval_type(fn, param)
        if byval is None:
            return None
        what = f"parameter '{_name(value, f'arg{param}')}' (by value)"
        return MemoryObject(value, what, static_bytes=storage(byval)[0])
    owner = value.owner
    if isinstance(owner, llvm.AllocaOp):
        count = constant_int(owner.size)
        if count is None:
            return None
        what = f"private array '{_name(value, 'private memory')}'"
        return MemoryObject(value, what, static_bytes=count * _alloca_bytes(owner))
    return None


def _alloca_bytes(op: llvm.AllocaOp) -> int:
    return storage(op.elem_type)[0]


def local_variable(value: SSAValue) -> mux_attrs.LocalVariable | None:
    """The module-scope local variable `value` is the address of, as
    `replace-module-scope-vars` recorded it on the op giving it; None if it is
    not such an address."""
    owner = value.owner
    if not isinstance(owner, Operation):
        return None
    return mux_attrs.LOCAL_VARIABLE.get(owner)


def _viewed_variable(value: SSAValue) -> mux_attrs.LocalVariable | None:
    """The local variable `value` is the address of, through casts (the same
    address: a view of it); None if none."""
    while (variable := local_variable(value)) is None:
        owner = value.owner
        if not isinstance(owner, UnrealizedConversionCastOp) or len(owner.inputs) != 1:
            return None
        value = owner.inputs[0]
    return variable


def viewed_buffer(fn: func.FuncOp, value: SSAValue) -> tuple[BlockArgument, int] | None:
    """The buffer parameter of `fn` that `value` is a view of, through casts
    (the same address), and the view's byte offset in it: 0 for the parameter
    itself, a module-scope local variable's own offset for its address (as
    `_variable_object` checks it); None for any other pointer arithmetic."""
    while entry_parameter(fn, value) is None:
        if local_variable(value) is not None:
            found = _variable_object(fn, value)
            if found is None or not isinstance(found.value, BlockArgument):
                return None
            return found.value, found.offset
        owner = value.owner
        if not isinstance(owner, UnrealizedConversionCastOp) or len(owner.inputs) != 1:
            return None
        value = owner.inputs[0]
    assert isinstance(value, BlockArgument)
    return value, 0


def _variable_text(variable: mux_attrs.LocalVariable) -> str:
    return f"local variable '{variable.name}' ({variable.type})"


def _variable_object(fn: func.FuncOp, value: SSAValue) -> MemoryObject | None:
    """`value`, the address of a module-scope local variable, as that variable:
    `offset` bytes into the buffer parameter the address is computed from (a
    cast, the pass's GEP of the offset, a cast); None if it is not such an
    address or its buffer is not a parameter."""
    variable = local_variable(value)
    if variable is None:
        return None
    buffer, offset = value, 0
    while entry_parameter(fn, buffer) is None:
        owner = buffer.owner
        if isinstance(owner, UnrealizedConversionCastOp) and len(owner.inputs) == 1:
            buffer = owner.inputs[0]
        elif isinstance(owner, llvm.GEPOp) and (step := _i8_step(owner)) is not None:
            offset += step
            buffer = owner.ptr
        else:
            return None
    if offset != variable.offset or not isinstance(buffer.type, MemRefType):
        return None
    what = _variable_text(variable)
    return MemoryObject(buffer, what, static_bytes=variable.size, offset=offset)


def _i8_step(gep: llvm.GEPOp) -> int | None:
    """The bytes a GEP of one constant index over i8 adds (the pass's GEP of a
    variable's offset); None for another GEP."""
    indices = gep.rawConstantIndices.get_values()
    if gep.elem_type != i8 or gep.ssa_indices or len(indices) != 1:
        return None
    return int(indices[0])


def pointer_roots(fn: func.FuncOp, pointer: SSAValue) -> list[MemoryObject] | None:
    """The objects `pointer` may point into (module docstring); None if one of
    its possible bases is not an object."""
    seen: set[SSAValue] = set()
    roots: list[MemoryObject] = []
    work = [pointer]
    while work:
        value = work.pop()
        if value in seen:
            continue
        seen.add(value)
        if (found := _root(fn, value)) is not None:
            if found not in roots:
                roots.append(found)
            continue
        sources = _sources(fn, value)
        if sources is None:
            return None
        work += reversed(sources)  # popped in their order
    return roots


def _root(fn: func.FuncOp, value: SSAValue) -> MemoryObject | None:
    """`value` as an object a pointer is based on: a parameter, an alloca."""
    owner = value.owner
    if entry_parameter(fn, value) is not None or isinstance(
        owner, llvm.AllocaOp | memref.AllocaOp
    ):
        return memory_object(fn, value)
    return _variable_object(fn, value)


def _sources(fn: func.FuncOp, value: SSAValue) -> list[SSAValue] | None:
    """The values `value` is derived from, keeping its base; None if unknown."""
    owner = value.owner
    if isinstance(owner, llvm.GEPOp):
        return [owner.ptr]
    if isinstance(owner, UnrealizedConversionCastOp) and len(owner.inputs) == 1:
        return [owner.inputs[0]]
    if isinstance(owner, llvmx.AddrSpaceCastOp):
        return [owner.arg]
    if isinstance(owner, arith.SelectOp | llvm.SelectOp):
        return [owner.operands[1], owner.operands[2]]
    if isinstance(owner, llvmx.SelectOp):
        return [owner.true_value, owner.false_value]
    if isinstance(value, BlockArgument):
        return _block_argument_sources(fn, value)
    return None


def _block_argument_sources(
    fn: func.FuncOp, value: BlockArgument
) -> list[SSAValue] | None:
    parent = value.block.parent_op()
    if parent is fn:
        return incoming(value)
    if isinstance(parent, scf.ForOp) and value.index >= 1:
        at = value.index - 1
        yielded = value.block.last_op
        if not isinstance(yielded, scf.YieldOp):
            return None
        return [parent.iter_args[at], yielded.operands[at]]
    return None
