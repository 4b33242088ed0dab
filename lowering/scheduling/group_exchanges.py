"""Collectives and shuffles scheduled natively by `work-item-loops`.

A collective is a barrier: every invocation of its group must have given its operand
before any gets the result. So `work-item-loops` schedules it as one, what the host
target does for work-group collectives (issue #6): in the kernel's CFG,

    %r = mux.work_group_reduce add id(3) %v : i32

becomes (`make_exchanges`)

    %v.slot = memref.alloca() : memref<1xi32>    // at the kernel's entry
    %r.slot = memref.alloca() : memref<1xi32>
    ...
    memref.store %v, %v.slot[%c0]
    mux.work_group_barrier id(3) scope(work_group) semantics(relaxed)
    %r = memref.load %r.slot[%c0]

The slots are private arrays used across a barrier, so `live_values` gives them
their storage in the live storage: one element per work-item, element `i` that of
the work-item of local linear id `i`. The region before the collective ends with the
operand stored; between the work-item loops of the two regions, the wrapper runs
`build_exchange`, which reads the operands of the whole work-group and writes every
work-item's result; the region after it loads the result.

What the wrapper computes, the group being the work-items `[start, end)` of
consecutive local linear ids (the work-group; a sub-group of `M` work-items, the
last one possibly partial), `x` the operand of work-item `i`:

- reduce, any (`logical_or`), all (`logical_and`): `acc = identity`, then
  `acc = acc <op> x[i]` for `i` from `start` up, the result of every work-item;
- inclusive scan: work-item `i` gets `acc` after folding `x[i]`; exclusive scan:
  before, so the first one gets the identity;
- broadcast: `x[start + l]`, `l` the linear id of the (uniform) local ids
  (work-group) or the sub-group local id (sub-group), read from the first
  work-item's slot;
- shuffles: the spec's index rules (see `_shuffle_source`) with `M` the maximum
  sub-group size; an index out of range, or beyond the end of a partial sub-group,
  gives the work-item its own `%val` (shuffle, shuffle_xor) or `%curr` (shuffle_up,
  shuffle_down).

So every result equals a sequential fold in local linear order, from the identity
(`lowering.common.group_ops`): a floating-point reduction is the left-to-right sum
`((identity + x0) + x1) + ...`, the same on every run and for every number of
threads, but not necessarily the numpy pairwise sum.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import IndexType, MemRefType, i1, i64
from xdsl.dialects.llvm import GEPOp, LoadOp, StoreOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from dialects import mux
from dialects.mux import GroupOperation, MemScope
from lowering.common.builders import (
    build_for,
    build_for_carrying,
    const,
    linear_id,
)
from lowering.common.errors import PassError
from lowering.common.group_ops import (
    combine,
    group_id,
    group_operation,
    identity,
)
from lowering.common.layout import from_memory, memory_type, to_memory

WORK_GROUP_EXCHANGES: tuple[type[Operation], ...] = mux.WORK_GROUP_COLLECTIVE_OPS
"""The work-group collectives: always scheduled as barriers."""

SUB_GROUP_EXCHANGES: tuple[type[Operation], ...] = (
    mux.SubGroupAnyOp,
    mux.SubGroupAllOp,
    mux.SubGroupBroadcastOp,
    mux.SubGroupReduceOp,
    mux.SubGroupScanInclusiveOp,
    mux.SubGroupScanExclusiveOp,
    mux.SubGroupShuffleOp,
    mux.SubGroupShuffleUpOp,
    mux.SubGroupShuffleDownOp,
    mux.SubGroupShuffleXorOp,
    mux.SubGroupBarrierOp,
)
"""The sub-group operations scheduled as barriers when sub-groups have more than one
work-item (with size 1 they are the work-item's own, `define-mux-builtins`)."""

_FOLDS: dict[type[Operation], GroupOperation] = {
    mux.WorkGroupAnyOp: GroupOperation.LOGICAL_OR,
    mux.WorkGroupAllOp: GroupOperation.LOGICAL_AND,
    mux.SubGroupAnyOp: GroupOperation.LOGICAL_OR,
    mux.SubGroupAllOp: GroupOperation.LOGICAL_AND,
}
_WITH_ID = (mux.WorkGroupBarrierOp, mux.SubGroupBarrierOp, *WORK_GROUP_EXCHANGES)
_INCLUSIVE = (mux.WorkGroupScanInclusiveOp, mux.SubGroupScanInclusiveOp)
_EXCLUSIVE = (mux.WorkGroupScanExclusiveOp, mux.SubGroupScanExclusiveOp)


@dataclass
class Exchange:
    """One collective, shuffle or sub-group barrier, scheduled as a barrier."""

    op: type[Operation]
    operation: GroupOperation | None
    """The group operation of a reduce or scan (logical_or/and for any/all)."""
    slots: list[SSAValue]
    """One `memref.alloca` per operand of the op, in operand order."""
    result: SSAValue | None
    """The slot of the result; None if nothing uses it."""

    @property
    def sub_group(self) -> bool:
        return self.op in SUB_GROUP_EXCHANGES

    @property
    def arrays(self) -> list[SSAValue]:
        return [*self.slots, *([self.result] if self.result is not None else [])]


def exchange_ops(sub_groups: bool) -> tuple[type[Operation], ...]:
    """The ops scheduled as barriers: work-group collectives, and the sub-group
    operations too when `sub_groups` (a sub-group size other than 1)."""
    return WORK_GROUP_EXCHANGES + (SUB_GROUP_EXCHANGES if sub_groups else ())


def make_exchanges(
    kernel: func.FuncOp, sub_groups: bool
) -> dict[mux.WorkGroupBarrierOp, Exchange]:
    """Replaces each exchange op of `kernel` (a CFG) by its slots, the stores of its
    operands, a `mux.work_group_barrier` and the load of its result (see the module
    docstring). Returns the new barriers and what each exchanges."""
    entry = kernel.body.blocks.first
    assert entry is not None
    ops = [o for o in kernel.walk() if isinstance(o, exchange_ops(sub_groups))]
    ids = [group_id(o) for o in kernel.walk() if isinstance(o, _WITH_ID)]
    next_id = max(ids, default=-1) + 1
    exchanges: dict[mux.WorkGroupBarrierOp, Exchange] = {}
    for op in ops:
        block = op.parent_block()
        if block is None or block.parent is not kernel.body:
            holder = op.parent_op()
            raise PassError(
                f"work-item-loops: {op.name} in kernel '{kernel.sym_name.data}' is "
                f"inside {holder.name if holder else 'a region'}: only group "
                "operations in the kernel's own control-flow graph can be scheduled"
            )
        at_entry = Builder(InsertPoint.at_start(entry))
        b = Builder(InsertPoint.before(op))
        zero = const(b, 0)
        slots = []
        for operand in op.operands:
            slot = at_entry.insert(memref.AllocaOp.get(operand.type, shape=[1])).memref
            slot.name_hint = f"{operand.name_hint}.slot" if operand.name_hint else None
            b.insert(memref.StoreOp.get(operand, slot, [zero]))
            slots.append(slot)
        if isinstance(op, mux.SubGroupBarrierOp):
            barrier = mux.WorkGroupBarrierOp(
                next_id,
                op.scope,
                op.semantics,
                op.schedule.data if op.schedule else None,
            )
            next_id += 1
        else:
            if "id" in op.properties:
                id_ = group_id(op)
            else:
                id_, next_id = next_id, next_id + 1
            # the exchange orders no memory: relaxed (no fence between the loops)
            barrier = mux.WorkGroupBarrierOp(id_, MemScope.WORK_GROUP, [])
        barrier.location = op.location  # where a checked-mode message points
        b.insert(barrier)
        result_slot = None
        if op.results and op.results[0].uses:
            original = op.results[0]
            result_slot = at_entry.insert(
                memref.AllocaOp.get(original.type, shape=[1])
            ).memref
            if original.name_hint:
                result_slot.name_hint = f"{original.name_hint}.slot"
            zero_after = const(b, 0)
            load = b.insert(memref.LoadOp.get(result_slot, [zero_after]))
            load.res.name_hint = original.name_hint
            original.replace_all_uses_with(load.res)
        operation = _FOLDS.get(type(op))
        if operation is None and "op" in op.properties:
            operation = group_operation(op)
        exchanges[barrier] = Exchange(type(op), operation, slots, result_slot)
        op.detach()
        op.erase()
    return exchanges


# --------------------------------------------------------------------------------------
# The wrapper's side.
# --------------------------------------------------------------------------------------


@dataclass
class GroupShape:
    """What the wrapper knows of the work-group when it runs an exchange."""

    count: SSAValue
    """The work-items of this work-group (index)."""
    sizes: list[SSAValue]
    """Its local sizes in x, y, z (index)."""
    sub_group_size: SSAValue | None
    """The maximum sub-group size `M` (index): sub-group `k` is the work-items
    `[k * M, min((k + 1) * M, count))`."""


def _element_type(slot: SSAValue) -> Attribute:
    type_ = slot.type
    assert isinstance(type_, MemRefType)
    element = type_.element_type
    return i64 if isinstance(element, IndexType) else element


class _Arrays:
    """Element access to the live storage arrays of an exchange's slots, whose
    elements have the memory type of the slot's (`types.memory_type`)."""

    def __init__(self, b: Builder, address_of: Callable[[Builder, SSAValue], SSAValue]):
        self.address_of = address_of
        self.bases: dict[SSAValue, SSAValue] = {}
        self.b = b

    def _element(self, b: Builder, slot: SSAValue, item: SSAValue) -> SSAValue:
        if slot not in self.bases:
            self.bases[slot] = self.address_of(self.b, slot)
        index = b.insert(arith.IndexCastOp(item, i64)).result
        gep = GEPOp.from_mixed_indices(
            self.bases[slot], [index], memory_type(_element_type(slot)), inbounds=True
        )
        return b.insert(gep).result

    def load(self, b: Builder, slot: SSAValue, item: SSAValue) -> SSAValue:
        address = self._element(b, slot, item)
        type_ = _element_type(slot)
        value = b.insert(LoadOp(address, memory_type(type_))).dereferenced_value
        return from_memory(b, value, type_)

    def store(
        self, b: Builder, slot: SSAValue, item: SSAValue, value: SSAValue
    ) -> None:
        b.insert(StoreOp(to_memory(b, value), self._element(b, slot, item)))


def build_exchange(
    b: Builder,
    exchange: Exchange,
    shape: GroupShape,
    address_of: Callable[[Builder, SSAValue], SSAValue],
) -> None:
    """The wrapper's part of `exchange`, at `b`: reads the operands every work-item
    stored, writes every work-item's result. `address_of(builder, slot)` is the
    address of the array holding `slot` for each work-item in the live storage."""
    if exchange.result is None:
        return  # a sub-group barrier, or a result nobody uses
    arrays = _Arrays(b, address_of)
    zero = const(b, 0)
    step = shape.sub_group_size if exchange.sub_group else shape.count
    assert step is not None

    def group(gb: Builder, start: SSAValue) -> None:
        end = gb.insert(arith.AddiOp(start, step)).result
        end = gb.insert(arith.MinUIOp(end, shape.count)).result
        _build_group(gb, exchange, arrays, start, end, shape)

    # one iteration per work-group, or per sub-group
    build_for(b, zero, shape.count, step, group)


def _build_group(
    b: Builder,
    exchange: Exchange,
    arrays: _Arrays,
    start: SSAValue,
    end: SSAValue,
    shape: GroupShape,
) -> None:
    """The exchange for the group of work-items `[start, end)`."""
    op = exchange.op
    one = const(b, 1)
    result = exchange.result
    assert result is not None
    value_slot = exchange.slots[0]
    type_ = _element_type(value_slot)

    def fill(value: SSAValue) -> None:
        def body(fb: Builder, item: SSAValue) -> None:
            arrays.store(fb, result, item, value)

        build_for(b, start, end, one, body)

    if exchange.operation is not None and op not in _INCLUSIVE + _EXCLUSIVE:
        kind = exchange.operation  # reduce, any, all

        def fold(fb: Builder, item: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
            value = arrays.load(fb, value_slot, item)
            return [combine(fb, kind, acc[0], value)]

        (total,) = build_for_carrying(
            b, start, end, one, [identity(b, kind, type_)], fold
        ).results
        fill(total)
    elif op in _INCLUSIVE + _EXCLUSIVE:
        kind = exchange.operation
        assert kind is not None
        inclusive = op in _INCLUSIVE

        def scan(fb: Builder, item: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
            value = arrays.load(fb, value_slot, item)
            following = combine(fb, kind, acc[0], value)
            arrays.store(fb, result, item, following if inclusive else acc[0])
            return [following]

        build_for_carrying(b, start, end, one, [identity(b, kind, type_)], scan)
    elif op is mux.WorkGroupBroadcastOp:
        x, y, z = (arrays.load(b, s, start) for s in exchange.slots[1:])
        x, y, z = (
            b.insert(arith.IndexCastOp(v, IndexType())).result for v in (x, y, z)
        )
        linear = linear_id(b, (x, y, z), shape.sizes)
        fill(arrays.load(b, value_slot, _clamped(b, start, linear, end)))
    elif op is mux.SubGroupBroadcastOp:
        lid = arrays.load(b, exchange.slots[1], start)
        lid = b.insert(arith.ExtUIOp(lid, i64)).result
        lid = b.insert(arith.IndexCastOp(lid, IndexType())).result
        fill(arrays.load(b, value_slot, _clamped(b, start, lid, end)))
    else:  # a shuffle: each work-item its own source

        def shuffle(fb: Builder, item: SSAValue) -> None:
            value = _shuffle(fb, exchange, arrays, item, start, end, shape)
            arrays.store(fb, result, item, value)

        build_for(b, start, end, one, shuffle)


def _clamped(b: Builder, start: SSAValue, offset: SSAValue, end: SSAValue) -> SSAValue:
    """`start + offset`, kept below `end` (a broadcast from a work-item outside the
    group is undefined; this keeps it from reading outside the storage)."""
    index = b.insert(arith.AddiOp(start, offset)).result
    last = b.insert(arith.SubiOp(end, const(b, 1))).result
    return b.insert(arith.MinUIOp(index, last)).result


def _shuffle(
    b: Builder,
    exchange: Exchange,
    arrays: _Arrays,
    item: SSAValue,
    start: SSAValue,
    end: SSAValue,
    shape: GroupShape,
) -> SSAValue:
    """The result of a shuffle for work-item `item` of the sub-group `[start, end)`,
    by the spec's rules (mux-compiler-spec.rst, "Sub-group shuffle builtins"), with
    `M` the maximum sub-group size. Indices are computed in i64, the operand `%lid`,
    `%xor_val` or `%delta` taken unsigned."""
    op = exchange.op
    slots = exchange.slots
    size = b.insert(arith.SubiOp(end, start)).result
    size = b.insert(arith.IndexCastOp(size, i64)).result
    assert shape.sub_group_size is not None
    big_m = b.insert(arith.IndexCastOp(shape.sub_group_size, i64)).result
    local = b.insert(arith.SubiOp(item, start)).result
    local = b.insert(arith.IndexCastOp(local, i64)).result
    operand = arrays.load(b, slots[-1], item)  # lid, xor_val or delta (i32)
    operand = b.insert(arith.ExtUIOp(operand, i64)).result
    own = arrays.load(b, slots[1] if op is mux.SubGroupShuffleUpOp else slots[0], item)
    zero64 = const(b, 0, i64)

    def pick(valid: SSAValue, source: SSAValue, index: SSAValue) -> SSAValue:
        """`source[start + index]` if `valid`, else the work-item's own value."""
        safe = b.insert(arith.SelectOp(valid, index, zero64)).result
        safe = b.insert(arith.IndexCastOp(safe, IndexType())).result
        safe = b.insert(arith.AddiOp(start, safe)).result
        value = arrays.load(b, source, safe)
        return b.insert(arith.SelectOp(valid, value, own)).result

    def below(lhs: SSAValue, rhs: SSAValue, predicate: str = "ult") -> SSAValue:
        return b.insert(arith.CmpiOp(lhs, rhs, predicate)).result

    if op in (mux.SubGroupShuffleOp, mux.SubGroupShuffleXorOp):
        index = operand
        if op is mux.SubGroupShuffleXorOp:
            index = b.insert(arith.XOrIOp(local, operand)).result
        return pick(below(index, size), slots[0], index)
    if op is mux.SubGroupShuffleUpOp:  # (prev, curr, delta)
        index = b.insert(arith.SubiOp(local, operand)).result  # signed
        forward = below(index, zero64, "sge")
        wrapped = b.insert(arith.AddiOp(index, big_m)).result
        source_index = b.insert(arith.SelectOp(forward, index, wrapped)).result
        # below `size` (<= M) unsigned: 0 <= index < M, or -M <= index < 0 (a
        # smaller index wraps to a negative source index, a huge unsigned one)
        valid = below(source_index, size)
        valid_curr = b.insert(arith.AndIOp(valid, forward)).result
        not_forward = b.insert(arith.XOrIOp(forward, const(b, 1, i1))).result
        valid_prev = b.insert(arith.AndIOp(valid, not_forward)).result
        from_curr = pick(valid_curr, slots[1], source_index)
        from_prev = pick(valid_prev, slots[0], source_index)
        return b.insert(arith.SelectOp(forward, from_curr, from_prev)).result
    assert op is mux.SubGroupShuffleDownOp  # (curr, next, delta)
    index = b.insert(arith.AddiOp(local, operand)).result  # unsigned, no overflow
    forward = below(index, big_m)
    wrapped = b.insert(arith.SubiOp(index, big_m)).result
    source_index = b.insert(arith.SelectOp(forward, index, wrapped)).result
    valid = below(source_index, size)  # also index < 2M, as size <= M
    not_forward = b.insert(arith.XOrIOp(forward, const(b, 1, i1))).result
    from_curr = pick(
        b.insert(arith.AndIOp(valid, forward)).result, slots[0], source_index
    )
    from_next = pick(
        b.insert(arith.AndIOp(valid, not_forward)).result, slots[1], source_index
    )
    return b.insert(arith.SelectOp(forward, from_curr, from_next)).result
