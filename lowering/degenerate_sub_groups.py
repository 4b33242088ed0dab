"""`degenerate-sub-groups`: the spec's DegenerateSubGroupPass.

mux-compiler-spec.rst, "Function Attributes": `"mux-degenerate-subgroups"` "marks
the function as using degenerate sub-groups (i.e. one sub-group for the entire local
work-group)". The pass makes every kernel entry point so, and the functions it calls:
each sub-group builtin becomes its work-group counterpart.

    get_sub_group_id            -> 0
    get_num_sub_groups          -> 1
    get_max_sub_group_size      -> the enqueued work-group size (i32)
    get_sub_group_size          -> the work-group size (i32)
    get_sub_group_local_id      -> get_local_linear_id (i32)
    sub_group_any/all/reduce/scan_* -> work_group_any/all/reduce/scan_* (fresh ids)
    sub_group_broadcast %v, %lid -> work_group_broadcast %v, x, y, z, the local ids
                                   of linear id %lid in this work-group
    sub_group_barrier           -> work_group_barrier (same scope, semantics,
                                   schedule)

The four shuffles have no work-group counterpart: they stay, and `work-item-loops`,
seeing `mux.degenerate_subgroups` on the kernel, schedules them over the whole
work-group, with the enqueued work-group size as the maximum sub-group size.
Work-group sizes are the ones of the work-group running (smaller for the last one of
a non-uniform range), the maximum the enqueued one, as for other sub-group sizes.

A kernel with a `mux.reqd_sub_group_size` is a diagnostic: its sub-groups have that
size, not the work-group's.

Before: kernel metadata; before `prepare-barriers`, which numbers the new
work-group collectives and barriers with the others. After: each entry point carries
`mux.degenerate_subgroups`; no sub-group query, collective or barrier remains in the
functions entry points reach (shuffles do).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, ModuleOp, i32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from dialects import attributes as mux_attrs
from dialects import mux
from dialects.mux import GroupOperation
from lowering.common.builders import const
from lowering.common.errors import PassError
from lowering.common.functions import functions, kernel_entry_points, reachable_from
from lowering.common.group_ops import group_id, group_operation

_COLLECTIVES: dict[
    type[Operation], Callable[[GroupOperation, int, SSAValue], Operation]
] = {
    mux.SubGroupReduceOp: mux.WorkGroupReduceOp,
    mux.SubGroupScanInclusiveOp: mux.WorkGroupScanInclusiveOp,
    mux.SubGroupScanExclusiveOp: mux.WorkGroupScanExclusiveOp,
}
_ANY_ALL: dict[type[Operation], Callable[[int, SSAValue], Operation]] = {
    mux.SubGroupAnyOp: mux.WorkGroupAnyOp,
    mux.SubGroupAllOp: mux.WorkGroupAllOp,
}
_WITH_ID = (
    mux.WorkGroupBarrierOp,
    mux.SubGroupBarrierOp,
    *mux.WORK_GROUP_COLLECTIVE_OPS,
)


@dataclass(frozen=True)
class DegenerateSubGroupsPass(ModulePass):
    """Makes every kernel entry point use one sub-group per work-group."""

    name = "degenerate-sub-groups"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        entries = kernel_entry_points(op)
        for entry in entries:
            required = mux_attrs.REQD_SUB_GROUP_SIZE.get(entry)
            if required is not None:
                raise PassError(
                    f"degenerate-sub-groups: kernel '{entry.sym_name.data}' requires "
                    f"sub-group size {required}: its sub-groups cannot span the "
                    "work-group"
                )
        fns = functions(op)
        names = reachable_from(op, [e.sym_name.data for e in entries])
        for name in sorted(names):
            if name in fns:
                _rewrite(fns[name])
        for entry in entries:
            mux_attrs.DEGENERATE_SUBGROUPS.set(entry, True)


def _rewrite(fn: Operation) -> None:
    ids = [group_id(o) for o in fn.walk() if isinstance(o, _WITH_ID)]
    next_id = max(ids, default=-1) + 1
    for op in list(fn.walk()):
        b = Builder(InsertPoint.before(op))
        new: Operation | SSAValue | None = None
        if isinstance(op, mux.GetSubGroupIdOp):
            new = const(b, 0, i32)
        elif isinstance(op, mux.GetNumSubGroupsOp):
            new = const(b, 1, i32)
        elif isinstance(op, mux.GetMaxSubGroupSizeOp):
            new = _count(b, mux.GetEnqueuedLocalSizeOp)
        elif isinstance(op, mux.GetSubGroupSizeOp):
            new = _count(b, mux.GetLocalSizeOp)
        elif isinstance(op, mux.GetSubGroupLocalIdOp):
            linear = b.insert(mux.GetLocalLinearIdOp()).results[0]
            new = b.insert(arith.IndexCastOp(linear, i32)).result
        elif type(op) in _COLLECTIVES:
            new = b.insert(
                _COLLECTIVES[type(op)](group_operation(op), next_id, op.operands[0])
            )
        elif type(op) in _ANY_ALL:
            new = b.insert(_ANY_ALL[type(op)](next_id, op.operands[0]))
        elif isinstance(op, mux.SubGroupBroadcastOp):
            new = b.insert(
                mux.WorkGroupBroadcastOp(
                    next_id, op.value, _local_ids(b, op.sub_group_local_id)
                )
            )
        elif isinstance(op, mux.SubGroupBarrierOp):
            schedule = op.schedule.data if op.schedule is not None else None
            new = b.insert(
                mux.WorkGroupBarrierOp(next_id, op.scope, op.semantics, schedule)
            )
        else:
            continue
        if isinstance(new, Operation) and isinstance(new, _WITH_ID):
            next_id += 1
        results = list(new.results) if isinstance(new, Operation) else [new]
        for original, result in zip(op.results, results, strict=False):
            result.name_hint = original.name_hint
            original.replace_all_uses_with(result)
        Rewriter.erase_op(op)


def _count(b: Builder, query: type[mux._RankedQueryOp]) -> SSAValue:
    """The product of `query` in x, y and z, as an i32."""
    sizes = [b.insert(query(const(b, d, i32))).results[0] for d in range(3)]
    count = b.insert(arith.MuliOp(sizes[0], sizes[1])).result
    count = b.insert(arith.MuliOp(count, sizes[2])).result
    return b.insert(arith.IndexCastOp(count, i32)).result


def _local_ids(b: Builder, linear: SSAValue) -> list[SSAValue]:
    """The local ids x, y, z of local linear id `linear` (i32) in this work-group."""
    wide = b.insert(arith.ExtUIOp(linear, i64)).result
    index = b.insert(arith.IndexCastOp(wide, IndexType())).result
    sx, sy = (b.insert(mux.GetLocalSizeOp(const(b, d, i32))).results[0] for d in (0, 1))
    x = b.insert(arith.RemUIOp(index, sx)).result
    rest = b.insert(arith.DivUIOp(index, sx)).result
    y = b.insert(arith.RemUIOp(rest, sy)).result
    z = b.insert(arith.DivUIOp(rest, sy)).result
    return [x, y, z]
