"""`check-local-races`: checked mode's data-race check on local memory (issue 17).

The spec has no such pass (oclgrind's data-race check is the model: two
work-items of a group touching the same local byte between the same two
barriers, at least one writing, not both atomically). It runs in the host
pipeline only when checked (`HostPipeline.checked`), after `lift-llvm-ops`
and before `run-vecz`.

For each kernel entry point that accesses local memory (address space 3):

- a parameter `%shadow: memref<?xi64>` is appended (`mux.local_shadow` gives its
  index; `add-kernel-wrapper` allocates it with the work-group's local memory,
  as one block: `lowering.common.local_shadow`), and the check record
  (`lowering.common.check_record.record_param`);
- before each access (`memref`, `vector`, `llvm` loads and stores, `atomic` and
  `llvmx` atomics, `llvmx.memcpy` to or from local memory), a call of
  `@__mux_check_local_access` with the access's address, size and word (its
  kind, the local linear id, its check site: "store to local parameter
  'scratch' at reduce.cl:19:18"); if it returns an earlier access it races
  with, the access reports `Fault.LOCAL_RACE` with both work-items, both sites,
  the byte offset in the work-group's local memory (`a`) and the access's size
  (`b`);
- before each barrier-like op (`prepare-barriers`' barriers, work-group
  collectives, and the sub-group ops `work-item-loops` schedules as barriers
  when sub-groups are wider than one work-item) `DIRTY` is set, and after it
  `@__mux_check_local_epoch` clears the shadow if `DIRTY` is set.

**No false report.** The work-item loops run every work-item of the group to a
barrier before any runs past it, so the first work-item past a barrier clears
the accesses before it, and a race is only reported between accesses of one
barrier interval. Clearing only forgets: at a sub-group op that is not a
barrier of the group (sub-groups of one work-item), each work-item clears the
others' accesses, which loses races (across sub-groups, between such ops) but
never makes one up. Accesses in a function the kernel calls are not checked
(they are not in the shadow: races there are missed, not invented).

**Scalar.** A kernel with checks stays scalar: `run-vecz` refuses calls. A
packet of work-items would read a byte's word in every lane before any lane
writes it, and miss the races between lanes, the commonest kind (neighbours).

Before: `lift-llvm-ops` (accesses as `memref` ops where they can be),
`prepare-barriers` (barriers in the kernel, numbered), `replace-module-scope-vars`
(module-scope locals as a parameter). After: `run-vecz`, `work-item-loops`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func, llvm, memref, vector
from xdsl.dialects.builtin import (
    FileLineColLoc,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    UnrealizedConversionCastOp,
    i64,
)
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint

from dialects import atomic, llvmx, mux
from dialects import attributes as mux_attrs
from dialects.mux import ADDRESS_SPACE_LOCAL, address_space_of
from lowering.check_local_races import functions
from lowering.common import local_shadow as ls
from lowering.common.builders import build_if, const
from lowering.common.check_record import add_site, record_param
from lowering.common.functions import append_arguments, kernel_entry_points
from lowering.common.layout import storage
from lowering.prepare_barriers import INLINED


@dataclass
class _Access:
    """A local-memory access: its kind, address (a memref and indices, or a
    pointer), size (bytes, or a value) and what the message calls it."""

    op: Operation
    kind: int
    address: SSAValue
    indices: Sequence[SSAValue]
    size: int | SSAValue
    verb: str


@dataclass(frozen=True)
class CheckLocalRacesPass(ModulePass):
    """Checks every local-memory access of each kernel for races (checked mode)."""

    name = "check-local-races"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        work = [(k, _accesses(k)) for k in kernel_entry_points(op)]
        work = [(k, a) for k, a in work if a]
        if work:
            functions.define(op)
        for kernel, accesses in work:
            _instrument(kernel, accesses)


def _accesses(fn: func.FuncOp) -> list[_Access]:
    return [a for op in fn.walk() for a in _local_accesses(op)]


def _local_accesses(op: Operation) -> list[_Access]:
    """The local-memory accesses `op` makes (a copy makes two)."""
    found: list[_Access] = []

    def add(kind: int, address: SSAValue, indices, type_or_size, verb: str) -> None:
        if address_space_of(address.type) != ADDRESS_SPACE_LOCAL:
            return
        size = type_or_size
        if isinstance(type_or_size, Attribute):
            size = storage(type_or_size)[0]
        found.append(_Access(op, kind, address, tuple(indices), size, verb))

    if isinstance(op, memref.LoadOp):
        add(ls.READ, op.memref, op.indices, op.res.type, "load from")
    elif isinstance(op, memref.StoreOp):
        add(ls.WRITE, op.memref, op.indices, op.value.type, "store to")
    elif isinstance(op, vector.LoadOp):
        add(ls.READ, op.base, op.indices, op.result.type, "vector load from")
    elif isinstance(op, vector.StoreOp):
        add(ls.WRITE, op.base, op.indices, op.vector.type, "vector store to")
    elif isinstance(op, llvm.LoadOp | llvmx.VolatileLoadOp):
        if isinstance(op, llvm.LoadOp) and _ordered(op.ordering):
            add(ls.ATOMIC, op.ptr, (), op.results[0].type, "atomic load from")
        else:
            add(ls.READ, op.ptr, (), op.results[0].type, "load from")
    elif isinstance(op, llvm.StoreOp):
        if _ordered(op.ordering):
            add(ls.ATOMIC, op.ptr, (), op.value.type, "atomic store to")
        else:
            add(ls.WRITE, op.ptr, (), op.value.type, "store to")
    elif isinstance(op, atomic.RMWOp | atomic.LoadOp | atomic.StoreOp):
        value = op.result if isinstance(op, atomic.RMWOp | atomic.LoadOp) else op.value
        add(ls.ATOMIC, op.base, op.indices, value.type, "atomic access to")
    elif isinstance(op, atomic.CmpXchgOp):
        add(ls.ATOMIC, op.base, op.indices, op.cmp.type, "atomic exchange on")
    elif isinstance(op, llvmx.AtomicRMWOp):
        add(ls.ATOMIC, op.ptr, (), op.val.type, "atomic access to")
    elif isinstance(op, llvmx.CmpXchgOp):
        add(ls.ATOMIC, op.ptr, (), op.cmp.type, "atomic exchange on")
    elif isinstance(op, llvmx.MemcpyOp):
        add(ls.WRITE, op.dst, (), op.len, "copy to")
        add(ls.READ, op.src, (), op.len, "copy from")
    return [a for a in found if _addressable(a)]


def _ordered(ordering: IntegerAttr | None) -> bool:
    """Whether an `llvm.load`/`store` of this `ordering` is atomic."""
    return ordering is not None and ordering.value.data != 0


def _addressable(access: _Access) -> bool:
    """Whether the address of `access` is computed here: a pointer, or a memref
    with the identity layout and static strides (as `convert-to-llvm` wants)."""
    type_ = access.address.type
    if not isinstance(type_, MemRefType):
        return True
    shape = type_.get_shape()
    return isinstance(type_.layout, NoneAttr) and all(d >= 0 for d in shape[1:])


def _instrument(fn: func.FuncOp, accesses: list[_Access]) -> None:
    shadow = append_arguments(fn, [ls.SHADOW_TYPE])[0]
    shadow.name_hint = "local_shadow"
    mux_attrs.LOCAL_SHADOW.set(fn, len(fn.args) - 1)
    record = record_param(fn)
    barriers = [op for op in fn.walk() if isinstance(op, INLINED)]
    for access in accesses:
        _check(fn, access, shadow, record)
    for barrier in barriers:
        before = Builder(InsertPoint.before(barrier))
        before.insert(
            memref.StoreOp.get(const(before, 1, i64), shadow, [const(before, ls.DIRTY)])
        )
        after = Builder(InsertPoint.after(barrier))
        after.insert(func.CallOp(functions.EPOCH, [shadow], []))


def _check(
    fn: func.FuncOp, access: _Access, shadow: SSAValue, record: SSAValue
) -> None:
    """The call checking `access`, and the report if it races."""
    b = Builder(InsertPoint.before(access.op))
    site = add_site(fn, _site_text(fn, access))
    address = _address(b, access)
    size = _size(b, access.size)
    item = b.insert(mux.GetLocalLinearIdOp()).result
    item = b.insert(arith.IndexCastOp(item, i64)).result
    item = b.insert(arith.ShLIOp(item, const(b, ls.FIRST_ID, i64))).result
    word = const(b, ls.access_word(access.kind, 0, site), i64)
    word = b.insert(arith.OrIOp(item, word)).result
    call = b.insert(func.CallOp(functions.ACCESS, [shadow, address, size, word], [i64]))
    race = call.results[0]
    racing = b.insert(arith.CmpiOp(race, const(b, 0, i64), "ne")).result

    def reported(inner: Builder) -> None:
        at = const(inner, site, i64)
        args = [shadow, record, race, address, size, at]
        inner.insert(func.CallOp(functions.REPORT, args, []))

    build_if(b, racing, reported)


def _size(b: Builder, size: int | SSAValue) -> SSAValue:
    if isinstance(size, int):
        return const(b, size, i64)
    type_ = size.type
    if isinstance(type_, IndexType):
        return b.insert(arith.IndexCastOp(size, i64)).result
    assert isinstance(type_, IntegerType)
    if type_.bitwidth < 64:
        return b.insert(arith.ExtUIOp(size, i64)).result
    return size


def _address(b: Builder, access: _Access) -> SSAValue:
    """The address of `access` as an i64: a memref's bare pointer (what
    `convert-to-llvm` makes of it) plus the row-major offset of the element."""
    address = access.address
    type_ = address.type
    pointer = address
    if isinstance(type_, MemRefType):
        bare = llvm.LLVMPointerType(IntAttr(ADDRESS_SPACE_LOCAL))
        pointer = b.insert(UnrealizedConversionCastOp.get([address], [bare]))
        pointer = pointer.results[0]
    value = b.insert(llvm.PtrToIntOp(pointer, i64)).results[0]
    if not isinstance(type_, MemRefType) or not access.indices:
        return value
    shape = type_.get_shape()
    linear = access.indices[0]
    for dim, index in zip(shape[1:], access.indices[1:], strict=True):
        linear = b.insert(arith.MuliOp(linear, const(b, dim))).result
        linear = b.insert(arith.AddiOp(linear, index)).result
    linear = b.insert(arith.IndexCastOp(linear, i64)).result
    element = storage(type_.element_type)[0]
    offset = b.insert(arith.MuliOp(linear, const(b, element, i64))).result
    return b.insert(arith.AddiOp(value, offset)).result


def _site_text(fn: func.FuncOp, access: _Access) -> str:
    return f"{access.verb} {_origin(fn, access.address)} at {_where(fn, access.op)}"


def _origin(fn: func.FuncOp, value: SSAValue) -> str:
    """What local memory `value` points into, as a message names it."""
    while True:
        if isinstance(value, BlockArgument):
            if value.owner is not fn.body.blocks.first:
                return "local memory"
            local_vars = mux_attrs.LOCAL_VARS_PARAM.get(fn)
            if local_vars is not None and value.index == local_vars.index:
                return "module-scope local memory"
            return f"local parameter '{value.name_hint or f'arg{value.index}'}'"
        owner = value.owner
        if isinstance(owner, UnrealizedConversionCastOp | llvmx.AddrSpaceCastOp):
            value = owner.operands[0]
        elif isinstance(owner, llvm.GEPOp):
            value = owner.ptr
        else:
            return "local memory"


def _where(fn: func.FuncOp, op: Operation | None) -> str:
    """`file:line:col` of `op` or the closest op holding it that has one."""
    while op is not None:
        if isinstance(op.location, FileLineColLoc):
            loc = op.location
            return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
        op = op.parent_op()
    return f"kernel '{fn.sym_name.data}'"
