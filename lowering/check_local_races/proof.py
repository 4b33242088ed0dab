"""Interval classes proven free of races at compile time, whose local accesses
`check-local-races` then leaves unchecked.

A kernel compiled for a launch has a known work-group size, and the index of a
tree reduction's or a scan's local access is arithmetic on the local id and on
loop variables that every work-item of the group shares (`reduce`: `scratch[lid]`
and `scratch[lid + s]` where `lid % 2s == 0`). So this module computes, with
`lowering.common.group_values`, the element every work-item of the group
touches in each local access of an interval class (`intervals`), for every
value the loop variables take (the loops run at compile time), and proves the
class free of races if no element is touched by two work-items, one of them
writing. A loop with no barrier around an access runs all its iterations in
one interval, so the elements of all of them count, each work-item's own (its
induction variable may be the work-item's: sgemm_tiled's loop over a
work-item's share of a tile). It proves only what it can compute: it gives up
on a class (which is then checked as before) when any local access of the
class is not a scalar `memref.load`/`store` of a kernel parameter or
module-scope variable (an atomic, a vector, a pointer), or its index is not
known: a loaded value, a kernel argument, a global id, a loop whose trip is
not fixed; or when the budget of steps of its `GroupValues` is spent (a step
per value computed and per comparison of two accesses for one value of their
loop variables; an access's elements are computed once for each such value,
for all the pairs it is in), which bounds the compile time of a kernel with
many accesses in a loop of many steps.

Where it errs, it errs towards "may race":
- a condition around an access that is not known (a bounds check against a
  buffer's size) is taken as true for every work-item;
- every pair of the class's accesses that may run in one interval is
  compared (`Intervals.together`: one's code runs on into the other's without
  a cut), though the code between them may not be taken;
- the variables of different loops take every combination of their values.

What it must not do is give two accesses of one interval one value of a loop
variable when in that interval they see two. A variable is an argument of a
loop's block, the same in every work-item of the group (its loop is run at
compile time); it changes when its block is entered again. An interval enters
a block at most once between the block's first cut and the block's entry (the
path back to the entry goes through the cut), and not at all between two of
its cuts; so two accesses see one value of the variable if both are in one
*segment* of its block (`Intervals.segment_of`), and the block has a cut.
Accesses of one class that use a variable in different segments (before and
after a loop's barrier: one interval runs the end of an iteration and the
start of the next) are not proven. The variables of a loop without a cut
(`scf.for` or `scf.while`, which is what OpenCL C's loops come in as) are no
such shared values: the loop is run for each work-item, and the elements of
all its iterations are compared (`_iterations`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import MemRefType, NoneAttr
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from dialects import attributes as mux_attrs
from dialects.mux import ADDRESS_SPACE_LOCAL, address_space_of
from lowering.check_local_races.intervals import Intervals
from lowering.common.access_sites import targets
from lowering.common.group_values import (
    MAX_TRIPS,
    GroupValues,
    Values,
    admitted,
    argument_blocks,
    environments,
    guards,
)
from lowering.common.layout import storage
from lowering.common.memory_objects import viewed_buffer

MAX_ELEMENTS = 1 << 22
"""The most (combination of loop values) x (work-item) x (access) evaluations
one class may take; a class that would take more is not proven."""


@dataclass
class _Access:
    """A scalar local access: the parameter it accesses, its element (where
    its memref starts, and its indices, row-major), whether it writes, and the
    conditions around it."""

    op: Operation
    buffer: BlockArgument
    size: int
    """The bytes of an element."""
    offset: int
    """Where the accessed memref starts in `buffer`, in elements."""
    writes: bool
    indices: list[tuple[SSAValue, int]]
    """Each index and its stride in elements."""
    guards: list[tuple[SSAValue, bool]]
    """The conditions of the `scf.if`s around it, and the branch it is in."""
    loops: list[scf.ForOp | scf.WhileOp]
    """The loops without a cut around it, the outermost first (`_iterations`)."""


def race_free(fn: func.FuncOp, intervals: Intervals) -> set[int]:
    """The interval classes of `fn` proven free of races (module docstring)."""
    group = GroupValues.of(fn)
    if group is None:
        return set()
    by_class: dict[int, list[Operation]] = {}
    for op in fn.walk():
        if _local(op):
            by_class.setdefault(intervals.class_of(op), []).append(op)
    return {
        class_ for class_, ops in by_class.items() if _proven(fn, group, intervals, ops)
    }


def _local(op: Operation) -> bool:
    return any(
        address_space_of(target.ref.type) == ADDRESS_SPACE_LOCAL
        for target in targets(op)
    )


def _proven(
    fn: func.FuncOp, group: GroupValues, intervals: Intervals, ops: list[Operation]
) -> bool:
    accesses = [_access(fn, intervals, op) for op in ops]
    known = [a for a in accesses if a is not None]
    if len(known) < len(accesses):
        return False
    sizes: dict[BlockArgument, set[int]] = {}
    for access in known:
        sizes.setdefault(access.buffer, set()).add(access.size)
    if any(len(found) > 1 for found in sizes.values()):
        return False  # elements of different sizes in one buffer
    touched: _Touched = {}
    return all(
        _pair_proven(group, intervals, [a, b], touched)
        for i, a in enumerate(known)
        for b in known[i:]
        if (a.writes or b.writes)
        and a.buffer is b.buffer
        and intervals.together(a.op, b.op)
    )


_Elements = list[tuple[Values, Values, Values]]
"""The elements an access touches, the work-items touching them, and whether
they write (`_touched`)."""

_Touched = dict[
    tuple[Operation, int, frozenset[tuple[BlockArgument, int]]], "_Elements | None"
]
"""`_touched` of an access, for `runs` and the loop variables' values: the
pairs of one class share them (each access is in many pairs)."""


def _pair_proven(
    group: GroupValues, intervals: Intervals, pair: list[_Access], touched: _Touched
) -> bool:
    """Whether no two work-items touch one element, one writing, in the two
    accesses of `pair` (or two work-items in one access, twice the same),
    for every value of their loops' variables."""
    blocks = _variables(group, intervals, pair)
    if blocks is None:
        return False
    combinations = math.prod(len(values) for _, values in blocks)
    if not combinations:
        return True  # a loop whose body never runs
    runs = MAX_ELEMENTS // (combinations * group.work_items * len(pair))
    if runs < 1:
        return False
    return all(
        _disjoint(group, pair, env, runs, touched) for env in environments(blocks)
    )


def _access(fn: func.FuncOp, intervals: Intervals, op: Operation) -> _Access | None:
    """`op` as a scalar access of local memory `fn` is given, if it is one."""
    if not isinstance(op, memref.LoadOp | memref.StoreOp):
        return None
    if mux_attrs.SCHEDULE_ORDERED.get(op):
        return None
    type_ = op.memref.type
    origin = viewed_buffer(fn, op.memref)
    if (
        origin is None
        or not isinstance(type_, MemRefType)
        or not isinstance(type_.layout, NoneAttr)
    ):
        return None
    buffer, offset = origin
    shape = type_.get_shape()
    size = storage(type_.element_type)[0]
    if any(d < 0 for d in shape[1:]) or offset % size:
        return None
    strides = [math.prod(shape[k + 1 :]) for k in range(len(shape))]
    indices = list(zip(op.indices, strides, strict=True))
    writes = isinstance(op, memref.StoreOp)
    loops = [
        parent
        for parent in reversed(_ancestors(op))
        if isinstance(parent, scf.ForOp | scf.WhileOp)
        and not intervals.holds_cut(parent)
    ]
    return _Access(
        op, buffer, size, offset // size, writes, indices, list(guards(op)), loops
    )


def _variables(
    group: GroupValues, intervals: Intervals, accesses: list[_Access]
) -> list[tuple[Block, list[tuple[int, ...]]]] | None:
    """The blocks whose arguments the accesses' indices and conditions use,
    each with the values its arguments take; None if one of them is a loop's
    not run at compile time, or the accesses may see two of its values in one
    interval (module docstring). The arguments of other blocks (the kernel's,
    a branch's) are left unknown."""
    users: dict[Block, list[Operation]] = {}
    for access in accesses:
        roots = [value for value, _ in access.indices] + [c for c, _ in access.guards]
        for block in argument_blocks(roots):
            users.setdefault(block, []).append(access.op)
    found = []
    for block, ops in users.items():
        if not isinstance(block.parent_op(), scf.WhileOp | scf.ForOp):
            continue  # a kernel argument, a branch's: not known, as no variable
        if not any(intervals.holds_cut(op) for op in block.ops):
            continue  # all its iterations run in one interval: `_iterations`
        values = group.loop_values(block)
        if values is None:
            return None
        segments = set()
        for op in ops:
            ancestor = block.find_ancestor_op_in_block(op)
            if ancestor is None or intervals.holds_cut(ancestor):
                return None
            segments.add(intervals.segment_of(ancestor))
        if len(segments) > 1:
            return None
        found.append((block, values))
    return found


def _disjoint(
    group: GroupValues,
    accesses: list[_Access],
    env: dict[BlockArgument, int],
    runs: int,
    touched: _Touched,
) -> bool:
    """Whether, with the loop variables of `env`, no element of a buffer is
    touched by two work-items, one writing; False if an index is not known,
    an access is in more than `runs` iterations of its loops, or the budget
    of `group` is spent (a step per comparison)."""
    if not group.spend(1):
        return False
    by_buffer: dict[BlockArgument, _Elements] = {}
    for access in accesses:
        key = (access.op, runs, frozenset(env.items()))
        if key not in touched:
            touched[key] = _touched(group, access, env, runs)
        found = touched[key]
        if found is None:
            return False
        by_buffer.setdefault(access.buffer, []).extend(found)
    return not any(_shared(parts) for parts in by_buffer.values())


def _touched(
    group: GroupValues, access: _Access, env: dict[BlockArgument, int], runs: int
) -> _Elements | None:
    """The elements `access` touches and the work-items touching them (and
    whether they write), in every iteration of the loops without a cut around
    it (all of which run in one interval); None if an index is not known, or
    there are more than `runs` iterations."""
    iterations = _iterations(group, access, env, runs)
    if iterations is None:
        return None
    found = []
    for values, running in iterations:
        active = admitted(values, access.guards, running)
        element = np.full(group.work_items, access.offset, dtype=np.int64)
        for index, stride in access.indices:
            known = values(index)
            if known is None:
                return None
            element = element + known * stride
        items = group.linear[active]
        writes = np.full(len(items), access.writes)
        found.append((element[active], items, writes))
    return found


def _iterations(
    group: GroupValues, access: _Access, env: dict[BlockArgument, int], runs: int
) -> list[tuple[Callable[[SSAValue], Values | None], Values]] | None:
    """The values in each iteration of the loops without a cut around
    `access` (their variables one per work-item: a loop over a work-item's
    share of a tile), and the work-items still in the loop; one iteration of
    a loop that cannot be run (its variables are then not known); None if
    there would be more than `runs`."""
    found: list[tuple[_Env, Values]] = [
        (dict(env), np.ones(group.work_items, dtype=bool))
    ]
    for loop in access.loops:
        deeper: list[tuple[_Env, Values]] = []
        for outer, active in found:
            trips = _trips(group, loop, outer, active, access.op)
            if trips is None:
                deeper.append((outer, active))  # its variables not known
                continue
            deeper += [(outer | bound, still) for bound, still in trips]
            if len(deeper) > runs:
                return None
        found = deeper
    return [(group.frame(e), a) for e, a in found]


_Env = dict[BlockArgument, "int | Values"]


def _trips(
    group: GroupValues,
    loop: scf.ForOp | scf.WhileOp,
    env: _Env,
    active: Values,
    op: Operation,
) -> list[tuple[_Env, Values]] | None:
    """The arguments of the block of `loop` that holds `op` in each iteration,
    for each work-item, and the work-items in that iteration; None if the
    loop cannot be run (its operands not known, a step not positive, more
    than `MAX_TRIPS` iterations)."""
    if isinstance(loop, scf.ForOp):
        return _for_trips(group, loop, env, active)
    before, after = loop.before_region.block, loop.after_region.block
    condition, yield_ = before.last_op, after.last_op
    if not isinstance(condition, scf.ConditionOp) or not isinstance(
        yield_, scf.YieldOp
    ):
        return None
    in_before = before.find_ancestor_op_in_block(op) is not None
    state = [group.frame(env)(v) for v in loop.arguments]
    found: list[tuple[_Env, Values]] = []
    for _ in range(MAX_TRIPS):
        if not active.any():
            return found
        entered = _bind(before, state)
        if entered is None:
            return None
        values = group.frame(env | entered)
        more = values(condition.condition)
        passed = _bind(after, [values(v) for v in condition.args])
        if in_before:
            found.append((entered, active))
        if more is None or passed is None:
            return None
        active = active & more
        if not in_before:
            found.append((passed, active))
        values = group.frame(env | passed)
        state = [values(v) for v in yield_.operands]
    return None


def _bind(block: Block, values: list[Values | None]) -> _Env | None:
    """`block`'s arguments given `values`, if all are known."""
    if any(v is None for v in values):
        return None
    return {arg: v for arg, v in zip(block.args, values, strict=True) if v is not None}


def _for_trips(
    group: GroupValues, loop: scf.ForOp, env: _Env, active: Values
) -> list[tuple[_Env, Values]] | None:
    """The induction variable of `loop` in each of its iterations, for each
    work-item (`scf.for` compares signed), and the work-items still in it;
    None if its bounds are not known, or its step not positive. Its carried
    values are not known."""
    values = group.frame(env)
    bounds = [values(v) for v in (loop.lb, loop.ub, loop.step)]
    known = [np.broadcast_to(b, active.shape) for b in bounds if b is not None]
    if len(known) < 3:
        return None
    lb, ub, step = known
    if np.any(step[active] <= 0):
        return None
    count = np.where(active & (ub > lb), (ub - lb + step - 1) // step, 0)
    most = int(count.max()) if count.size else 0
    if most > MAX_TRIPS:
        return None
    iv = loop.body.block.args[0]
    return [({iv: lb + k * step}, active & (k < count)) for k in range(most)]


def _ancestors(op: Operation) -> list[Operation]:
    """The ops `op` is nested in, innermost first."""
    found = []
    while (parent := op.parent_op()) is not None:
        found.append(parent)
        op = parent
    return found


def _shared(parts: _Elements) -> bool:
    """Whether an element is touched by two work-items, one of them writing."""
    elements = np.concatenate([p[0] for p in parts])
    if not len(elements):
        return False
    items = np.concatenate([p[1] for p in parts])
    writes = np.concatenate([p[2] for p in parts])
    order = np.lexsort((items, elements))
    elements, items, writes = elements[order], items[order], writes[order]
    starts = np.flatnonzero(np.r_[True, elements[1:] != elements[:-1]])
    ends = np.r_[starts[1:], len(elements)] - 1
    several = items[starts] != items[ends]
    written = np.logical_or.reduceat(writes, starts)
    return bool(np.any(several & written))
