"""`replace-wgc`: the spec's ReplaceWGCPass, software work-group collectives.

compiler-utils-passes.rst, "ReplaceWGCPass": "provides software implementations of
the ComputeMux work-group collective builtins ... This pass makes heavy use of
barriers ... it **must** be run before any barrier analysis or materialization e.g.,
the PrepareBarriersPass and WorkItemLoopsPass. This pass introduces global variables
into the module qualified with the local/Workgroup address space and therefore
**must** be run before any pass that materializes `__local` variables in another
form, e.g., the ReplaceLocalModuleScopeVariablesPass." The semantics are those of
mux-compiler-spec.rst, "Group operation builtins": any/all, broadcast from the
invocation at local id (x, y, z), reduce, and inclusive and exclusive scans "over the
operation's identity value and all but the final invocation", in local linear order.

**One accumulator per element type.** Each element type `T` of a collective gets one
module-scope variable in local memory,

    "memref.global"() <{sym_name = "wgc_accumulator_f32",
                        type = memref<1xf32, 3>, initial_value, ...}> : () -> ()

and every collective is a few work-group barriers around loads and stores of it. The
work-items of a work-group run each barrier region one after the other (the host
target's `work-item-loops`, whose `linear` barrier schedule runs them in local linear
order), so a fold needs no array of the operands and no atomics: work-item `i`
combines its operand into the accumulator, which holds the fold of work-items
`0..i-1`. `%lid` is `mux.get_local_linear_id`, `%acc` the accumulator, `⊕` the
operation (`group_ops.combine`), `e` its identity (`group_ops.identity`):

    reduce ⊕ (any: logical_or, all: logical_and)
        mux.work_group_barrier id(<the op's>) ... schedule(linear)
        %prev = select(%lid == 0, e, load %acc[0])
        store (%prev ⊕ %x), %acc[0]
        mux.work_group_barrier id(<new>) ...
        %result = load %acc[0]

    scan_inclusive ⊕ / scan_exclusive ⊕
        mux.work_group_barrier id(<the op's>) ... schedule(linear)
        %prev = select(%lid == 0, e, load %acc[0])
        %mine = %prev ⊕ %x
        store %mine, %acc[0]
        %result = %mine (inclusive) or %prev (exclusive)

    broadcast %x from (%lx, %ly, %lz)
        %from = (%lz * get_local_size(1) + %ly) * get_local_size(0) + %lx
        mux.work_group_barrier id(<the op's>) ...
        scf.if %lid == %from { store %x, %acc[0] }
        mux.work_group_barrier id(<new>) ...
        %result = load %acc[0]

The fold's load and store of the accumulator carry `mux.schedule_ordered`: all
work-items make them between the same two barriers, which OpenCL C would call a
data race, and which the `linear` schedule orders; checked mode's race check
(`check-local-races`) leaves them out.

The barriers are `scope(work_group) semantics(acq_rel | work_group_memory)`. Each
collective *starts* with a barrier and writes the accumulator only after it, and
every work-item reads it before reaching the next collective's first barrier, so
consecutive collectives (and one collective in a loop) share the accumulator with no
barrier at their end. The fold is in local linear order whatever the kernel's
work-item order: a float reduce or scan gives the sequential left fold `((e ⊕ x0) ⊕
x1) ⊕ ...` exactly. Work: one load, one operation and one store per work-item (an
array of the operands folded by every work-item would cost `n` per work-item, `n²`
per group); memory: one element per type (8 bytes for `i64`), whatever the
work-group size.

The first barrier takes the collective's barrier id; the others get ids above every
id of their function, so the ids of a function stay unique (`prepare-barriers`
renumbers all of them in program order anyway).

Rejected, with a diagnostic: a collective outside a `func.func` (the accumulators are
`memref.global`s, which `replace-module-scope-vars` materialises in `func.func`s), an
element type with no memory layout (`si32`, ...), and a module whose functions already
have their local-variables buffer (`mux.local_vars_param`): the accumulators would
never be materialised.

Before: kernel metadata. After: no work-group collective remains; there are new
`mux.work_group_barrier`s (some with a `linear` schedule) and local-memory
`memref.global`s `wgc_accumulator_<type>`; `replace-module-scope-vars`,
`prepare-barriers` and `work-item-loops` run after it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StringAttr,
    UnitAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from dialects import attributes as mux_attrs
from dialects import mux
from dialects.mux import GroupOperation
from lowering.common.builders import build_if, const
from lowering.common.errors import PassError
from lowering.common.group_ops import combine, identity
from lowering.common.layout import storage
from lowering.common.llvm_types import ConversionError
from lowering.prepare_barriers import barrier_like_ops

BARRIER_SEMANTICS = (mux.MemSemantics.ACQ_REL, mux.MemSemantics.WORK_GROUP_MEMORY)
"""The accumulator is local memory: the barriers order work-group memory."""

ACCUMULATOR_PREFIX = "wgc_accumulator_"

_FOLDS: dict[type[Operation], GroupOperation | None] = {
    mux.WorkGroupAnyOp: GroupOperation.LOGICAL_OR,
    mux.WorkGroupAllOp: GroupOperation.LOGICAL_AND,
    mux.WorkGroupReduceOp: None,  # the op's own
    mux.WorkGroupScanInclusiveOp: None,
    mux.WorkGroupScanExclusiveOp: None,
}


@dataclass(frozen=True)
class ReplaceWGCPass(ModulePass):
    """Replaces every work-group collective by barriers around loads and stores of
    a local-memory accumulator of its type, folded in local linear order."""

    name = "replace-wgc"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        collectives = [o for o in op.walk() if isinstance(o, _COLLECTIVES)]
        if not collectives:
            return
        _check_before_local_variables(op)
        # every diagnostic before any change
        located = [(c, _function_of(c)) for c in collectives]
        for collective, fn in located:
            _alignment(collective.results[0].type, collective, fn)
        accumulators = _Accumulators(op)
        next_ids: dict[func.FuncOp, int] = {}
        for collective, fn in located:
            type_ = collective.results[0].type
            accumulator = accumulators.get(type_, collective, fn)
            if fn not in next_ids:
                next_ids[fn] = _max_barrier_id(fn) + 1
            ids = _Ids(collective, next_ids[fn])
            _replace(collective, accumulator, ids)
            next_ids[fn] = ids.next


_COLLECTIVES: tuple[type[Operation], ...] = mux.WORK_GROUP_COLLECTIVE_OPS
_SCANS = mux.WorkGroupScanInclusiveOp | mux.WorkGroupScanExclusiveOp


def _describe(op: Operation, fn: Operation | None) -> str:
    name = getattr(fn, "sym_name", None)
    where = f" in '{name.data}'" if isinstance(name, StringAttr) else ""
    return f"{op.name}{where}"


def _function_of(op: Operation) -> func.FuncOp:
    """The `func.func` holding `op`; a diagnostic if the nearest symbol (a
    function of another dialect, the module) is not one."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp | ModuleOp):
        if isinstance(getattr(parent, "sym_name", None), StringAttr):
            break
        parent = parent.parent_op()
    if not isinstance(parent, func.FuncOp):
        raise PassError(
            f"replace-wgc: {_describe(op, parent)}: only collectives in a func.func "
            "can be replaced (their local variables are materialised there)"
        )
    return parent


def _check_before_local_variables(module: ModuleOp) -> None:
    for fn in module.walk():
        if isinstance(fn, func.FuncOp) and mux_attrs.LOCAL_VARS_PARAM.get(fn):
            raise PassError(
                f"replace-wgc: '{fn.sym_name.data}' has its local variables buffer "
                "already (mux.local_vars_param): run replace-wgc before "
                "replace-module-scope-vars, or its accumulators are never allocated"
            )


def _max_barrier_id(fn: func.FuncOp) -> int:
    ids = [_id(o) for o in barrier_like_ops(fn)]
    return max(ids, default=-1)


def _id(op: Operation) -> int:
    id_ = op.properties["id"]
    assert isinstance(id_, IntegerAttr)
    return id_.value.data


def _alignment(type_: Attribute, op: Operation, fn: func.FuncOp) -> int:
    """The alignment of an accumulator of `type_`; a diagnostic if it has no memory
    layout."""
    try:
        return storage(type_)[1]
    except ConversionError as error:
        raise PassError(
            f"replace-wgc: {_describe(op, fn)}: {error}: it cannot be kept in "
            "local memory"
        ) from None


class _Accumulators:
    """The module's accumulators, one per element type, created on first use."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.names = {
            name.data
            for o in module.ops
            if isinstance(name := getattr(o, "sym_name", None), StringAttr)
        }
        self.globals: dict[Attribute, memref.GlobalOp] = {}

    def get(self, type_: Attribute, op: Operation, fn: func.FuncOp) -> memref.GlobalOp:
        if type_ in self.globals:
            return self.globals[type_]
        alignment = _alignment(type_, op, fn)
        name = ACCUMULATOR_PREFIX + str(type_)
        suffix = 0
        while name in self.names:  # a symbol of the module has that name already
            suffix += 1
            name = f"{ACCUMULATOR_PREFIX}{type_}_{suffix}"
        self.names.add(name)
        memref_type = MemRefType(
            type_, [1], NoneAttr(), IntegerAttr(mux.ADDRESS_SPACE_LOCAL, i64)
        )
        variable = memref.GlobalOp.get(
            StringAttr(name), memref_type, UnitAttr(), alignment=alignment
        )
        block = self.module.body.block
        if self.globals:  # after the previous one, in order of first use
            last = list(self.globals.values())[-1]
            block.insert_op_after(variable, last)
        elif block.first_op is None:
            block.add_op(variable)
        else:
            block.insert_op_before(variable, block.first_op)
        self.globals[type_] = variable
        return variable


class _Ids:
    """The barrier ids of one collective's barriers: its own first, then new ones."""

    def __init__(self, op: Operation, next_id: int):
        self.own: int | None = _id(op)
        self.next = next_id

    def take(self) -> int:
        if self.own is not None:
            own, self.own = self.own, None
            return own
        self.next += 1
        return self.next - 1


def _barrier(
    b: Builder, ids: _Ids, schedule: mux.BarrierSchedule | None = None
) -> None:
    b.insert(
        mux.WorkGroupBarrierOp(
            ids.take(), mux.MemScope.WORK_GROUP, BARRIER_SEMANTICS, schedule
        )
    )


def _replace(op: Operation, accumulator: memref.GlobalOp, ids: _Ids) -> None:
    b = Builder(InsertPoint.before(op))
    value = op.operands[0]
    if isinstance(op, mux.WorkGroupBroadcastOp):
        result = _broadcast(b, op, accumulator, ids)
    else:
        kind = _FOLDS[type(op)]
        if kind is None:
            assert isinstance(op, mux.WorkGroupReduceOp | _SCANS)
            kind = op.op.data
        _barrier(b, ids, mux.BarrierSchedule.LINEAR)
        acc, zero, lid = _accumulator_and_id(b, accumulator)
        first = b.insert(arith.CmpiOp(lid, zero, "eq")).result
        first.name_hint = "first"
        start = identity(b, kind, value.type)
        load = b.insert(memref.LoadOp.get(acc, [zero]))
        stored = load.res
        prev = b.insert(arith.SelectOp(first, start, stored)).result
        prev.name_hint = "prev"
        mine = combine(b, kind, prev, value)
        mine.name_hint = "fold"
        store = b.insert(memref.StoreOp.get(mine, acc, [zero]))
        for access in (load, store):  # ordered by the linear schedule: no race
            mux_attrs.SCHEDULE_ORDERED.set(access, True)
        if isinstance(op, mux.WorkGroupScanInclusiveOp):
            result = mine
        elif isinstance(op, mux.WorkGroupScanExclusiveOp):
            result = prev
        else:
            _barrier(b, ids)
            result = b.insert(memref.LoadOp.get(acc, [zero])).res
    if op.results[0].name_hint:
        result.name_hint = op.results[0].name_hint
    Rewriter.replace_op(op, [], [result])


def _accumulator_and_id(
    b: Builder, accumulator: memref.GlobalOp
) -> tuple[SSAValue, SSAValue, SSAValue]:
    """The accumulator's memref, the index 0 and the local linear id."""
    get = memref.GetGlobalOp(accumulator.sym_name.data, accumulator.type)
    acc = b.insert(get).memref
    acc.name_hint = "acc"
    zero = const(b, 0)
    lid = b.insert(mux.GetLocalLinearIdOp()).result
    lid.name_hint = "lid"
    return acc, zero, lid


def _broadcast(
    b: Builder, op: mux.WorkGroupBroadcastOp, accumulator: memref.GlobalOp, ids: _Ids
) -> SSAValue:
    _barrier(b, ids)
    acc, zero, lid = _accumulator_and_id(b, accumulator)
    sizes = [b.insert(mux.GetLocalSizeOp(const(b, d, i32))).result for d in range(2)]
    source = b.insert(arith.MuliOp(op.local_id_z, sizes[1])).result
    source = b.insert(arith.AddiOp(source, op.local_id_y)).result
    source = b.insert(arith.MuliOp(source, sizes[0])).result
    source = b.insert(arith.AddiOp(source, op.local_id_x)).result
    source.name_hint = "from"
    is_source = b.insert(arith.CmpiOp(lid, source, "eq")).result
    is_source.name_hint = "is_from"
    build_if(
        b,
        is_source,
        lambda inner: inner.insert(memref.StoreOp.get(op.value, acc, [zero])),
    )
    _barrier(b, ids)
    return b.insert(memref.LoadOp.get(acc, [zero])).res
