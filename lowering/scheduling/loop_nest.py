"""The work-item loops of a work-group: what `work-item-loops`' wrapper runs.

A wrapper (`lowering.scheduling.wrapper`) runs once per work-group. `WorkGroup`
holds what it knows of its group (the local sizes, the work-item order, the
sub-groups), set up by `work_group_prologue`, and builds the loop nests that run a
body once per work-item:

- `run_kernel`: a kernel without barriers, called per work-item in the work-item
  order; if `run-vecz` vectorised it, the loop over x runs whole packets of `W`
  work-items with the vectorised kernel and the scalar kernel for the rest (the
  spec's "Vector + Scalar"; without a rest, "Vector only"), and a vectorised kernel
  of `R` rows steps the loop over y by `R`;
- `run_region`: a barrier region's function, called per work-item with its local
  linear id, in the order the barrier's `schedule` asks (`unordered`: the work-item
  order, `linear`: x innermost, `once`: work-item 0 alone); with a bound function
  (`lowering.scheduling.bounds`) the innermost loop runs only the span it returns,
  and the group's last work-item after the loops.

Before each body the loops set the local ids (`mux.set_local_id`) and, when the
kernel asks for sub-groups, the sub-group id (`mux.set_sub_group_id`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from xdsl.builder import Builder
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import i1, i32
from xdsl.ir import SSAValue

from dialects import attributes as mux_attrs
from dialects import mux
from dialects.mux import BarrierSchedule
from lowering.common.builders import (
    build_for,
    const,
    constant_int,
    from_index,
    linear_id,
)
from lowering.common.errors import PassError

ItemBody = Callable[[Builder, SSAValue | None], object]
"""The body run per work-item: `body(builder, local_linear_id)` (None when the
loops do not compute the linear id); what it returns is not used."""
Span = Callable[[Builder], tuple[SSAValue, SSAValue]]
"""Builds the call of a bound function: `lo, hi` of the innermost looped
dimension."""


@dataclass(frozen=True)
class VectorKernel:
    """A kernel's vectorised version (`run-vecz`), as the loops run it."""

    width: int
    """`W`: the work-items of one packet in x."""
    rows: int
    """`R`: the rows (in y) of one packet."""
    call: Callable[[Builder], object]
    """Builds the call of the vectorised kernel for one packet (what it returns is
    not used)."""


@dataclass
class WorkGroup:
    """What the wrapper knows of its work-group: sizes, order, sub-groups."""

    dims: list[SSAValue]
    """The i32 constants 0, 1, 2."""
    sizes: list[SSAValue]
    zero: SSAValue
    one: SSAValue
    max_dim: int
    order: tuple[int, ...]
    """The looped dimensions, innermost first."""
    sub_groups: bool
    sub_group_size: SSAValue | None = None
    """The maximum sub-group size (index), when sub-groups are not of size 1:
    sub-group `k` is the work-items of local linear ids `[k * M, (k + 1) * M)`."""
    x_step: SSAValue | None = None
    """The step of the loop over x when the body runs a packet of that many
    work-items (a vectorised kernel with barriers); None: 1."""

    def looped(self, schedule: BarrierSchedule) -> list[int]:
        """The dimensions `schedule` loops over, innermost first: not those of one
        work-item (at or beyond `mux.max_work_dim`, or of a constant size 1 but
        dimension 0), whose local id is set to 0 once."""
        if schedule is BarrierSchedule.ONCE:
            return []
        order = (0, 1, 2) if schedule is BarrierSchedule.LINEAR else self.order
        return [
            d
            for d in order
            if d < self.max_dim and (d == 0 or constant_int(self.sizes[d]) != 1)
        ]

    def run_kernel(
        self, b: Builder, body: ItemBody, vector: VectorKernel | None
    ) -> None:
        """Runs `body` (a kernel without barriers, given no linear id) once per
        work-item in the work-item order; with `vector`, its packets where they fit
        (module docstring)."""
        looped = self.looped(BarrierSchedule.UNORDERED)
        if vector is not None and vector.rows > 1 and looped[:2] != [0, 1]:
            raise PassError(
                f"work-item-loops: a vectorised kernel of {vector.rows} rows needs "
                "dimension 1 looped right outside dimension 0 (mux.work_item_order, "
                "mux.max_work_dim)"
            )
        _LoopNest(self, looped, body, linear_id=False, vector=vector).build(b)

    def run_region(
        self,
        b: Builder,
        body: ItemBody,
        schedule: BarrierSchedule,
        bound: Span | None = None,
    ) -> None:
        """Runs `body` once per work-item, with its local linear id, in the order of
        `schedule`; with `bound`, the innermost loop runs `x` in `[lo, hi)` but
        skips the group's last work-item, which runs after the loops whatever the
        span: the wrapper follows its region id."""
        nest = _LoopNest(self, self.looped(schedule), body, linear_id=True, bound=bound)
        nest.build(b)


class _LoopNest:
    """One nest of work-item loops over the dimensions `looped` (innermost first),
    running `body` per work-item: the loop over x is scalar, vectorised (packets of
    `vector`) or bounded (the span of `bound`)."""

    def __init__(
        self,
        group: WorkGroup,
        looped: list[int],
        body: ItemBody,
        linear_id: bool,
        vector: VectorKernel | None = None,
        bound: Span | None = None,
    ):
        self.group, self.looped, self.body = group, looped, body
        self.linear_id = linear_id or group.sub_groups
        """Whether the body gets the local linear id (sub-groups need it)."""
        self.vector = vector
        self.bound = bound
        self.span: tuple[SSAValue, SSAValue] | None = None
        self.ids: dict[int, SSAValue] = {}
        """The local id of each dimension where the body runs."""

    def build(self, b: Builder) -> None:
        for d in range(3):  # a dimension of one work-item: its id is 0
            if d not in self.looped:
                self._set_id(b, d, self.group.zero)
        if self.bound is not None:
            self.span = self.bound(b)
        self._loop(len(self.looped) - 1, b)
        if self.span is not None:
            self._last_item(b)

    def _set_id(self, b: Builder, d: int, value: SSAValue) -> None:
        self.ids[d] = value
        b.insert(mux.SetLocalIdOp(self.group.dims[d], value))

    def _item(self, b: Builder) -> None:
        """One work-item, its ids set: its linear id and sub-group, the body."""
        if not self.linear_id:
            self.body(b, None)
            return
        group = self.group
        linear = linear_id(b, [self.ids[d] for d in range(3)], group.sizes)
        if group.sub_groups:
            sub_group = linear
            if group.sub_group_size is not None:
                sub_group = b.insert(arith.DivUIOp(linear, group.sub_group_size)).result
            b.insert(mux.SetSubGroupIdOp(from_index(b, sub_group, i32)))
        self.body(b, linear)

    def _loop(self, level: int, b: Builder) -> None:
        """The loops of `looped[level]` and the ones inside it."""
        if level < 0:
            self._item(b)
        elif level == 1 and self.vector is not None and self.vector.rows > 1:
            self._packet_rows(b, self.vector)
        elif level == 0 and self.vector is not None:
            self._vector_loop(b, self.vector)
        elif level == 0 and self.span is not None:
            self._bounded_loop(b, self.span)
        else:
            group, d = self.group, self.looped[level]
            step = group.x_step if d == 0 and group.x_step is not None else group.one
            iteration = partial(self._iteration, level)
            build_for(b, group.zero, group.sizes[d], step, iteration, "xyz"[d])

    def _iteration(self, level: int, b: Builder, iv: SSAValue) -> None:
        self._set_id(b, self.looped[level], iv)
        self._loop(level - 1, b)

    def _scalar_x(self, b: Builder, x: SSAValue) -> None:
        """Work-item x of the innermost loop, dimension 0."""
        self._set_id(b, 0, x)
        self._item(b)

    def _vector_loop(self, b: Builder, vector: VectorKernel) -> None:
        """x: the packets of `W` work-items while one fits, then the scalar kernel
        for the rest (none with a constant size, a multiple of `W`: "Vector
        only")."""
        group = self.group
        assert self.looped[0] == 0 and not self.linear_id
        size = constant_int(group.sizes[0])
        step = const(b, vector.width)
        if size is not None and size % vector.width == 0:  # "Vector only"
            self._packets(b, group.sizes[0], step, vector)
            return
        # peel_limit = size - size % width: the work-items of whole packets
        peel = b.insert(arith.RemUIOp(group.sizes[0], step)).result
        limit = b.insert(arith.SubiOp(group.sizes[0], peel)).result
        limit.name_hint = "peel_limit"
        self._packets(b, limit, step, vector)
        build_for(b, limit, group.sizes[0], group.one, self._scalar_x, "x")

    def _packets(
        self, b: Builder, limit: SSAValue, step: SSAValue, vector: VectorKernel
    ) -> None:
        """x = 0, W, 2W, ... below `limit` (`step` is W): the vectorised kernel."""

        def packet(inner: Builder, x: SSAValue) -> None:
            inner.insert(mux.SetLocalIdOp(self.group.dims[0], x))
            vector.call(inner)

        build_for(b, self.group.zero, limit, step, packet, "x")

    def _packet_rows(self, b: Builder, vector: VectorKernel) -> None:
        """y = 0, R, 2R, ...: packets of `W` x `R` work-items, then the scalar
        kernel for the rest of each row."""
        group, width, rows = self.group, vector.width, vector.rows
        size_x, size_y = (constant_int(s) for s in group.sizes[:2])
        if size_x is None or size_y is None or size_y % rows:
            raise PassError(
                f"work-item-loops: a vectorised kernel of {rows} rows needs a "
                "required work-group size whose y is a multiple of them"
            )
        whole = const(b, size_x - size_x % width)
        whole.name_hint = "peel_limit"

        def rest_of_row(inner: Builder, y: SSAValue) -> None:
            self._set_id(inner, 1, y)
            build_for(inner, whole, group.sizes[0], group.one, self._scalar_x, "x")

        def packet_row(inner: Builder, y: SSAValue) -> None:
            self._set_id(inner, 1, y)
            self._packets(inner, whole, const(inner, width), vector)
            if size_x % width:
                end = inner.insert(arith.AddiOp(y, const(inner, rows))).result
                build_for(inner, y, end, group.one, rest_of_row, "y")

        build_for(b, group.zero, group.sizes[1], const(b, rows), packet_row, "y")

    def _bounded_loop(self, b: Builder, span: tuple[SSAValue, SSAValue]) -> None:
        """x in `[lo, hi)` of the span, but for the group's last work-item."""
        group, d = self.group, self.looped[0]
        lo, hi = span
        last = b.insert(arith.SubiOp(group.sizes[d], group.one)).result
        upper = b.insert(arith.MinUIOp(hi, last)).result
        if self.looped[1:]:  # x = size - 1 of the last row runs after the loops
            in_last_row = const(b, True, i1)
            for e in self.looped[1:]:
                end = b.insert(arith.SubiOp(group.sizes[e], group.one))
                same = b.insert(arith.CmpiOp(self.ids[e], end.result, "eq"))
                in_last_row = b.insert(arith.AndIOp(in_last_row, same.result)).result
            upper = b.insert(arith.SelectOp(in_last_row, upper, hi)).result
        build_for(b, lo, upper, group.one, partial(self._iteration, 0), "xyz"[d])

    def _last_item(self, b: Builder) -> None:
        """The group's last work-item, which the loops over the span skip."""
        for d in self.looped:
            last = b.insert(arith.SubiOp(self.group.sizes[d], self.group.one)).result
            self._set_id(b, d, last)
        self._item(b)


def work_group_prologue(
    b: Builder, wrapper: func.FuncOp, used: list[type], sub_group_size: int | None
) -> WorkGroup:
    """The wrapper's constants and sizes, and the sub-group state: with size-1
    sub-groups one per work-item; otherwise the maximum sub-group size is `M =
    min(sub_group_size, enqueued work-group size)` (the enqueued size alone for
    degenerate sub-groups, `sub_group_size` None), and there are
    `ceil(work-group size / M)` sub-groups."""
    reqd = mux_attrs.REQD_WORK_GROUP_SIZE.get(wrapper)
    max_dim = mux_attrs.max_work_dim(wrapper)
    dims = [const(b, d, i32) for d in range(3)]
    sizes: list[SSAValue] = []
    for d in range(3):
        if d >= max_dim:
            sizes.append(const(b, 1))
        elif reqd is not None:
            sizes.append(const(b, reqd[d]))
        else:
            sizes.append(b.insert(mux.GetLocalSizeOp(dims[d])).result)
    sub_groups = any(q in used for q in mux.SUB_GROUP_QUERY_OPS)
    per_sub_group = None
    if sub_group_size != 1:
        enqueued = [
            const(b, 1)
            if d >= max_dim
            else const(b, reqd[d])
            if reqd is not None
            else b.insert(mux.GetEnqueuedLocalSizeOp(dims[d])).result
            for d in range(3)
        ]
        per_sub_group = work_group_size(b, enqueued)
        if sub_group_size is not None:
            limit = const(b, sub_group_size)
            per_sub_group = b.insert(arith.MinUIOp(per_sub_group, limit)).result
        per_sub_group.name_hint = "max_sub_group_size"
    if sub_groups and per_sub_group is None:
        b.insert(mux.SetMaxSubGroupSizeOp(const(b, 1, i32)))
        b.insert(mux.SetNumSubGroupsOp(from_index(b, work_group_size(b, sizes), i32)))
    elif sub_groups:
        assert per_sub_group is not None
        count = work_group_size(b, sizes)
        number = b.insert(arith.CeilDivUIOp(count, per_sub_group)).result
        b.insert(mux.SetMaxSubGroupSizeOp(from_index(b, per_sub_group, i32)))
        b.insert(mux.SetNumSubGroupsOp(from_index(b, number, i32)))
    order = tuple(
        d for d in mux_attrs.work_item_order(wrapper).dimensions if d < max_dim
    )
    return WorkGroup(
        dims,
        sizes,
        const(b, 0),
        const(b, 1),
        max_dim,
        order,
        sub_groups,
        per_sub_group,
    )


def work_group_size(b: Builder, sizes: list[SSAValue]) -> SSAValue:
    count = b.insert(arith.MuliOp(sizes[0], sizes[1])).result
    return b.insert(arith.MuliOp(count, sizes[2])).result
