"""`define-mux-builtins`: the spec's DefineMuxBuiltinsPass.

compiler-utils-passes.rst, "DefineMuxBuiltinsPass", and the "Defining mux Builtins"
phase of compiler-pipeline-overview.txt: every mux builtin gets its definition, by
default from the scheduling structs that `add-sched-params` passed in. Here each
work-item query and setter op is replaced, where it stands, by loads and stores of the
fields of MuxWorkItemInfo (`%wi`) and MuxWorkGroupInfo (`%wg`) of its function and by
arithmetic, as in the spec's pseudo code:

    __mux_get_local_id(i)  = i >= 3 ? 0 : wi->local_id[i]
    __mux_get_group_id(i)  = i >= 3 ? 0 : wg->group_id[i]
    __mux_get_global_id(i) = group_id(i) * enqueued_local_size(i) + local_id(i)
                             + global_offset(i)

"If a definition of a mux builtin requires calls to other mux builtins which themselves
need defining, such dependencies" are defined in turn: `get_global_id` is rewritten
into `get_group_id`, `get_local_id`, ... ops, which the same walk then defines.

Defaults for a dimension out of range (the spec's "`i >= 3 ? 0 : ...`"): 0 for ids and
offsets, 1 for sizes and counts. A constant dimension is resolved at compile time; a
runtime one gets a bounds check (`select`) that never reads out of the array.
**Required work-group sizes.** In a function that runs only for kernels with one
and the same `mux.reqd_work_group_size` (the entry points that reach it through
calls all have that size), `get_local_size` and `get_enqueued_local_size` of a
constant dimension are that size, a constant: such a kernel runs only full
work-groups (the spec's "the work-group size that must be used", which the runtime
enforces: the global size must be a multiple of it). Constant sizes let LLVM know
the trip counts and strides of everything indexed by them. `encode-kernel-metadata`
gives a kernel this attribute when it is compiled for one local size.

**Sub-groups.** The sub-group id, count and maximum size come from
MuxWorkItemInfo, where `work-item-loops` set them. In a function that only entry
points scheduled with sub-groups of the spec's default size 1 reach
(`mux.sub_group_size`, absent meaning 1), `get_sub_group_size` is 1 and
`get_sub_group_local_id` is 0, and the sub-group collectives and shuffles are the
invocation's own ("A definition of these mux builtins for where the sub-group size
is 1 is provided by ... the DefineMuxBuiltinsPass", compiler-utils-passes.rst,
"Sub-groups"): any, all, reduce, inclusive scan and broadcast return their operand,
an exclusive scan the operation's identity, shuffle and shuffle_xor their `%val`
(any other invocation is out of range, whose result is the invocation's own value,
as with larger sub-groups), shuffle_up `%prev` if `%delta` is 1 else `%curr`,
shuffle_down `%next` if `%delta` is 1 else `%curr`. Elsewhere (sub-groups of `M`
consecutive local linear ids, whose collectives `work-item-loops` scheduled):
`get_sub_group_local_id = local_linear_id - sub_group_id * M` and
`get_sub_group_size = min(M, work-group size - sub_group_id * M)`.

`isftz`, `usefast` and `isembeddedprofile`, if `replace-mux-math-decls` has not
replaced them, are false.

**Memory barriers** (mux-compiler-spec.rst, "Memory and Control Barriers"): a
`mux.mem_barrier scope(...) semantics(...)` orders this invocation's memory accesses
as seen by the others of its scope. It becomes an `llvmx.fence` of its ordering
(acquire, release, acq_rel or seq_cst), or nothing when there is no ordering to keep
(`relaxed`) or no other invocation to observe it (scope `work_item`). A
`mux.sub_group_barrier` has, with sub-groups of size 1, no other invocation to wait
for: only its memory part is left, by the same rule. (`mux.work_group_barrier` is
`work-item-loops`' business: it leaves a `mux.mem_barrier` between the work-item
loops, which this pass then defines.)

**Vec-group collectives** (`mux.vec_group_*`, across the lanes of one invocation's
vector) are defined here too, by lane extractions and the group operation
(`lowering/common/vec_group.py`): none remains after this pass.

Before: `add-sched-params`. After: no work-item query or setter, `mux.mem_barrier`
or `mux.sub_group_barrier` remains (work-group barriers, collectives and DMA are
defined by other stages).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp, i32
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from dialects import attributes as mux_attrs
from dialects import llvmx, mux
from dialects.scheduling import WORK_GROUP_INFO, WORK_ITEM_INFO
from lowering.common.builders import const, constant_int
from lowering.common.dispatch import TypeDispatch
from lowering.common.errors import PassError
from lowering.common.functions import (
    enclosing_function,
    kernel_entry_points,
    reachable_from,
)
from lowering.common.group_ops import identity
from lowering.common.structs import StructFields
from lowering.common.vec_group import DefineVecGroup

# (struct, field, default) of the queries that read one element of an array field.
_ARRAY_FIELDS: dict[type[Operation], tuple[str, str, int]] = {
    mux.GetLocalIdOp: ("wi", "local_id", 0),
    mux.GetGroupIdOp: ("wg", "group_id", 0),
    mux.GetNumGroupsOp: ("wg", "num_groups", 1),
    mux.GetGlobalOffsetOp: ("wg", "global_offset", 0),
    mux.GetLocalSizeOp: ("wg", "local_size", 1),
    mux.GetEnqueuedLocalSizeOp: ("wg", "enqueued_local_size", 1),
    mux.GetGlobalSizeOp: ("wg", "global_size", 1),
}
# The i32 queries that read one field.
_I32_FIELDS: dict[type[Operation], tuple[str, str]] = {
    mux.GetWorkDimOp: ("wg", "work_dim"),
    mux.GetSubGroupIdOp: ("wi", "sub_group_id"),
    mux.GetNumSubGroupsOp: ("wi", "num_sub_groups"),
    mux.GetMaxSubGroupSizeOp: ("wi", "max_sub_group_size"),
}
_SETTERS: dict[type[Operation], str] = {
    mux.SetSubGroupIdOp: "sub_group_id",
    mux.SetNumSubGroupsOp: "num_sub_groups",
    mux.SetMaxSubGroupSizeOp: "max_sub_group_size",
}
_CONSTANTS: dict[type[Operation], int] = {
    mux.IsFtzOp: 0,
    mux.UseFastOp: 0,
    mux.IsEmbeddedProfileOp: 0,
}


# The fence of each ordering of MemSemantics.
_FENCES: dict[mux.MemSemantics, llvmx.AtomicOrdering] = {
    mux.MemSemantics.ACQUIRE: llvmx.AtomicOrdering.ACQUIRE,
    mux.MemSemantics.RELEASE: llvmx.AtomicOrdering.RELEASE,
    mux.MemSemantics.ACQ_REL: llvmx.AtomicOrdering.ACQ_REL,
    mux.MemSemantics.SEQ_CST: llvmx.AtomicOrdering.SEQ_CST,
}


def required_sizes(module: ModuleOp) -> dict[str, tuple[int, ...]]:
    """For each function that only entry points with the same required work-group
    size reach (themselves included), that size."""
    sizes: dict[str, set[tuple[int, ...] | None]] = {}
    for entry in kernel_entry_points(module):
        size = mux_attrs.REQD_WORK_GROUP_SIZE.get(entry)
        for name in reachable_from(module, [entry.sym_name.data]):
            sizes.setdefault(name, set()).add(size)
    return {
        name: size
        for name, found in sizes.items()
        if len(found) == 1 and (size := next(iter(found))) is not None
    }


_LOCAL_SIZES = (mux.GetLocalSizeOp, mux.GetEnqueuedLocalSizeOp)


def larger_sub_groups(module: ModuleOp) -> set[str]:
    """The functions an entry point scheduled with sub-groups larger than 1 reaches
    (`mux.sub_group_size` above 1, or degenerate sub-groups); the others have the
    spec's default size 1."""
    larger: set[str] = set()
    for entry in kernel_entry_points(module):
        size = mux_attrs.SUB_GROUP_SIZE.get(entry) or 1
        if size != 1 or mux_attrs.DEGENERATE_SUBGROUPS.get(entry):
            larger |= reachable_from(module, [entry.sym_name.data])
    return larger


_SUB_GROUP_SIZE_QUERIES = (mux.GetSubGroupSizeOp, mux.GetSubGroupLocalIdOp)
_OWN_OPERAND = (
    mux.SubGroupAnyOp,
    mux.SubGroupAllOp,
    mux.SubGroupReduceOp,
    mux.SubGroupScanInclusiveOp,
    mux.SubGroupBroadcastOp,
    mux.SubGroupShuffleOp,
    mux.SubGroupShuffleXorOp,
)
_SUB_GROUP_OPS = (
    *_OWN_OPERAND,
    mux.SubGroupScanExclusiveOp,
    mux.SubGroupShuffleUpOp,
    mux.SubGroupShuffleDownOp,
)


@dataclass(frozen=True)
class DefineSubGroupBuiltin(RewritePattern):
    """Defines `get_sub_group_size`, `get_sub_group_local_id` and the sub-group
    collectives and shuffles (see the module docstring)."""

    larger: set[str]
    """The functions with sub-groups larger than 1 (`larger_sub_groups`)."""

    source: ClassVar[tuple[type[Operation], ...]] = (
        _SUB_GROUP_SIZE_QUERIES + _SUB_GROUP_OPS
    )
    """The ops it defines (`lowering.common.dispatch`)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, self.source):
            return
        holder = enclosing_function(op)
        fn = None if holder is None else holder.sym_name.data
        b = Builder(InsertPoint.before(op))
        if fn not in self.larger:
            rewriter.replace(op, [], [_size_one(b, op)])
        elif isinstance(op, _SUB_GROUP_SIZE_QUERIES):
            rewriter.replace(op, [], [_sub_group_query(b, op)])
        else:
            raise PassError(
                f"define-mux-builtins: {op.name} in '{fn}' with sub-groups of more "
                "than one work-item: work-item-loops schedules these in the kernel "
                "(run prepare-barriers and work-item-loops first)",
                op,
            )


def _size_one(b: Builder, op: Operation) -> SSAValue:
    """The definition of a sub-group query, collective or shuffle with sub-groups of
    size 1."""
    if isinstance(op, mux.GetSubGroupSizeOp):
        return const(b, 1, i32)
    if isinstance(op, mux.GetSubGroupLocalIdOp):
        return const(b, 0, i32)
    if isinstance(op, _OWN_OPERAND):
        return op.operands[0]
    if isinstance(op, mux.SubGroupScanExclusiveOp):
        return identity(b, op.op.data, op.result.type)
    assert isinstance(op, mux.SubGroupShuffleUpOp | mux.SubGroupShuffleDownOp)
    other = op.prev if isinstance(op, mux.SubGroupShuffleUpOp) else op.next
    curr = op.curr
    one = b.insert(arith.CmpiOp(op.delta, const(b, 1, i32), "eq")).result
    return b.insert(arith.SelectOp(one, other, curr)).result


def _sub_group_query(b: Builder, op: Operation) -> SSAValue:
    """`get_sub_group_local_id` or `get_sub_group_size` with sub-groups of `M`
    consecutive local linear ids, in terms of the other queries."""
    sub_group = b.insert(mux.GetSubGroupIdOp()).results[0]
    most = b.insert(mux.GetMaxSubGroupSizeOp()).results[0]
    start = b.insert(arith.MuliOp(sub_group, most)).result
    if isinstance(op, mux.GetSubGroupLocalIdOp):
        linear = b.insert(mux.GetLocalLinearIdOp()).results[0]
        linear = b.insert(arith.IndexCastOp(linear, i32)).result
        return b.insert(arith.SubiOp(linear, start)).result
    dims = [const(b, d, i32) for d in range(3)]
    sizes = [_query(b, mux.GetLocalSizeOp, d) for d in dims]
    count = b.insert(arith.MuliOp(sizes[0], sizes[1])).result
    count = b.insert(arith.MuliOp(count, sizes[2])).result
    count = b.insert(arith.IndexCastOp(count, i32)).result
    rest = b.insert(arith.SubiOp(count, start)).result
    return b.insert(arith.MinUIOp(most, rest)).result


@dataclass(frozen=True)
class DefineBuiltin(RewritePattern):
    """Replaces one work-item query or setter by its definition."""

    required: dict[str, tuple[int, ...]]
    """The required work-group size of the functions that have one
    (`required_sizes`)."""

    source: ClassVar[tuple[type[Operation], ...]] = (
        *_ARRAY_FIELDS,
        *_I32_FIELDS,
        *_SETTERS,
        *_CONSTANTS,
        mux.SetLocalIdOp,
        mux.GetGlobalIdOp,
        mux.GetLocalLinearIdOp,
        mux.GetGlobalLinearIdOp,
    )
    """The ops it defines (`lowering.common.dispatch`)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        kind = type(op)
        if kind not in self.source:
            return
        b = Builder(InsertPoint.before(op))
        if kind in _CONSTANTS:
            value = const(b, _CONSTANTS[kind], op.results[0].type)
            rewriter.replace(op, [], [value])
            return
        structs, fn = _structs_of(op, b)
        result: SSAValue | None
        if kind in _I32_FIELDS:
            struct, field = _I32_FIELDS[kind]
            result = structs[struct].load(field)
        elif kind in _SETTERS:
            structs["wi"].store(op.operands[0], _SETTERS[kind])
            result = None
        elif (
            kind in _LOCAL_SIZES
            and fn in self.required
            and (dim := constant_int(op.operands[0])) is not None
            and 0 <= dim < 3
        ):
            result = const(b, self.required[fn][dim])
        elif kind in _ARRAY_FIELDS:
            struct, field, default = _ARRAY_FIELDS[kind]
            result = _element(b, structs[struct], field, op.operands[0], default)
        elif kind is mux.SetLocalIdOp:
            _store_element(b, structs["wi"], "local_id", op.operands[0], op.operands[1])
            result = None
        elif kind is mux.GetGlobalIdOp:
            result = _global_id(b, op.operands[0])
        elif kind is mux.GetLocalLinearIdOp:
            result = _local_linear_id(b)
        else:
            result = _global_linear_id(b)
        if result is None:
            rewriter.erase(op)
        else:
            rewriter.replace(op, [], [result])


class DefineMemoryBarrier(RewritePattern):
    """Replaces a memory barrier, or a sub-group barrier (sub-groups of size 1: its
    memory part only), by the fence of its ordering, or by nothing when it is
    relaxed or its scope is the work-item alone."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: mux.MemBarrierOp | mux.SubGroupBarrierOp, rewriter: PatternRewriter
    ) -> None:
        ordering = op.semantics.ordering
        if ordering is None or op.scope.data is mux.MemScope.WORK_ITEM:
            rewriter.erase(op)
        else:
            rewriter.replace(op, llvmx.FenceOp(_FENCES[ordering]))


def _structs_of(op: Operation, b: Builder) -> tuple[dict[str, StructFields], str]:
    """The scheduling structs of the function holding `op`, and its name."""
    fn = enclosing_function(op)
    indices = None if fn is None else mux_attrs.SCHEDULED_FN.get(fn)
    if fn is None or indices is None:
        where = "" if fn is None else f" in '{fn.sym_name.data}'"
        raise PassError(
            f"define-mux-builtins: {op.name}{where} needs the scheduling parameters: "
            "run add-sched-params first",
            op,
        )
    entry = fn.body.blocks.first
    assert entry is not None  # the function of an op
    args = entry.args
    structs = {
        "wi": StructFields(b, args[indices[0]], WORK_ITEM_INFO),
        "wg": StructFields(b, args[indices[1]], WORK_GROUP_INFO),
    }
    return structs, fn.sym_name.data


def _element(
    b: Builder, struct: StructFields, field: str, dim: SSAValue, default: int
) -> SSAValue:
    """`dim >= 3 ? default : struct->field[dim]`, without reading out of bounds."""
    constant = constant_int(dim)
    if constant is not None:
        if 0 <= constant < 3:
            return struct.load(field, constant)
        return const(b, default)
    in_range = b.insert(arith.CmpiOp(dim, const(b, 3, i32), "ult")).result
    safe = b.insert(arith.SelectOp(in_range, dim, const(b, 0, i32))).result
    value = struct.load(field, safe)
    return b.insert(arith.SelectOp(in_range, value, const(b, default))).result


def _store_element(
    b: Builder, struct: StructFields, field: str, dim: SSAValue, value: SSAValue
) -> None:
    constant = constant_int(dim)
    if constant is None or not 0 <= constant < 3:
        raise PassError(
            f"define-mux-builtins: mux.set_local_id needs a constant dimension 0 to 2"
            f"{'' if constant is None else f', got {constant}'}"
        )
    struct.store(value, field, constant)


def _query(b: Builder, op_type: type, dim: SSAValue) -> SSAValue:
    return b.insert(op_type(dim)).results[0]


def _global_id(b: Builder, dim: SSAValue) -> SSAValue:
    group = _query(b, mux.GetGroupIdOp, dim)
    size = _query(b, mux.GetEnqueuedLocalSizeOp, dim)
    local = _query(b, mux.GetLocalIdOp, dim)
    offset = _query(b, mux.GetGlobalOffsetOp, dim)
    start = b.insert(arith.MuliOp(group, size)).result
    id_ = b.insert(arith.AddiOp(start, local)).result
    return b.insert(arith.AddiOp(id_, offset)).result


def _linearise(b: Builder, ids: list[SSAValue], sizes: list[SSAValue]) -> SSAValue:
    """`(ids[2] * sizes[1] + ids[1]) * sizes[0] + ids[0]`."""
    linear = ids[2]
    for d in (1, 0):
        linear = b.insert(arith.MuliOp(linear, sizes[d])).result
        linear = b.insert(arith.AddiOp(linear, ids[d])).result
    return linear


def _local_linear_id(b: Builder) -> SSAValue:
    dims = [const(b, d, i32) for d in range(3)]
    ids = [_query(b, mux.GetLocalIdOp, d) for d in dims]
    sizes = [_query(b, mux.GetLocalSizeOp, d) for d in dims]
    return _linearise(b, ids, sizes)


def _global_linear_id(b: Builder) -> SSAValue:
    dims = [const(b, d, i32) for d in range(3)]
    ids = []
    for d in dims:
        id_ = _query(b, mux.GetGlobalIdOp, d)
        offset = _query(b, mux.GetGlobalOffsetOp, d)
        ids.append(b.insert(arith.SubiOp(id_, offset)).result)
    sizes = [_query(b, mux.GetGlobalSizeOp, d) for d in dims]
    return _linearise(b, ids, sizes)


@dataclass(frozen=True)
class DefineMuxBuiltinsPass(ModulePass):
    """Replaces every work-item query and setter by loads, stores and arithmetic on
    the scheduling structs, and memory and sub-group barriers by fences."""

    name = "define-mux-builtins"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = TypeDispatch(
            [
                DefineBuiltin(required_sizes(op)),
                DefineSubGroupBuiltin(larger_sub_groups(op)),
                DefineMemoryBarrier(),
                DefineVecGroup(),
            ]
        )
        PatternRewriteWalker(patterns).rewrite_module(op)
