"""`work-item-loops`: the spec's WorkItemLoopsPass.

compiler-utils-passes.rst, "WorkItemLoopsPass": "adding explicit parallelism to
implicitly parallel SIMT kernels ... by wrapping each kernel up in a triple-nested loop
over all work-items in the work-group. Thus, kernels scheduled by this pass can be
invoked once per work-group." For each kernel entry point `@k` without barriers it
creates

    func.func @k.mux-barrier-wrapper(<k's parameters>) {   // the new entry point
      for z in [0, local_size(2)):  mux.set_local_id 2, z
        for y in [0, local_size(1)):  mux.set_local_id 1, y
          for x in [0, local_size(0)):  mux.set_local_id 0, x
            func.call @k(<parameters>)
    }

- The loops nest in the kernel's work-item order (`mux.work_item_order`, innermost
  dimension first, `xyz` by default).
- With a `mux.reqd_work_group_size` the bounds are constants (LLVM then knows the trip
  counts and vectorises); otherwise they are `mux.get_local_size`, the actual size of
  this work-group (smaller for the last one of a non-uniform range).
- Dimensions at or beyond `mux.max_work_dim` have one work-item: no loop, the local
  id is set to 0 once.
- Sub-groups have the spec's default size 1, unless the pass option
  `sub_group_size`, the kernel's `mux.reqd_sub_group_size` (which wins) or
  `mux.degenerate_subgroups` (one sub-group per work-group) says otherwise. With
  size 1, if the kernel (or a function it calls) uses a sub-group query, the wrapper
  sets the maximum sub-group size (1), the number of sub-groups (the work-group
  size) and, per work-item, the sub-group id (the local linear id); the sub-group
  collectives are the work-item's own (`define-mux-builtins`). With a size `S > 1`,
  sub-groups are consecutive local linear ids: the maximum sub-group size is `M =
  min(S, enqueued work-group size)` (the enqueued size for degenerate sub-groups),
  sub-group `k` is the work-items `[k * M, min((k + 1) * M, work-group size))`, the
  wrapper sets `ceil(work-group size / M)` sub-groups and the sub-group id `linear id
  / M`; the sub-group collectives, the four shuffles and `mux.sub_group_barrier` are
  scheduled like the work-group collectives below, folded per sub-group. The size
  used is recorded as `mux.sub_group_size` on the wrapper (absent: 1).

**Vectorised kernels** (compiler-utils-passes.rst, "Vector + Scalar"): a kernel
without barriers that `run-vecz` vectorised (`mux.vecz_base = [W, "@v"]`) has its
loop over x split: `@v` runs the whole packets of `W` work-items (x = 0, W, 2W, ...
below `peel_limit = local_size(0) - local_size(0) % W`), the scalar kernel the rest.
"The vector work-items are executed first, followed by the scalar work-items." With
a constant local size that is a multiple of `W` (a required work-group size), there
is no scalar loop: the spec's "Vector only" mode. A vectorised kernel of `R` rows
(`mux.vecz_rows = R`, ours) runs packets of `W` x `R` work-items: the loop over y
steps by `R`, and after each packet row the scalar kernel runs the rest of each of
its `R` rows.

**Barriers** (compiler-pipeline-overview.txt, "Barrier Scheduling"): "all work-items
in the work-group need to execute the first barrier region before beginning the
second". A kernel with `mux.work_group_barrier`s has its `scf` lowered to `cf`, is
split into barrier regions, and each region becomes a function
`@k.mux-barrier-region.<i>(<params>, %live: !llvm.ptr, %item: i64, %items: i64) -> i32`
that runs it for work-item `%item` and returns the region to run next (0: the kernel
returned); the values crossing a barrier live in the work-group's live storage
`%live`, a struct of arrays with one element per work-item
(`lowering/barrier_regions.py` has the analysis and the layout). The wrapper
allocates the storage, and has one block per region: a `mux.mem_barrier` with the
semantics of the barrier that leads there ("the control aspect of the barrier has been
satisfied by the loops, so it has been decomposed to just a memory barrier"), the
work-item loops calling the region's function, and a `cf.switch` on the id returned.
The barrier's `schedule` picks the loops of the region after it: `unordered` (the
work-item order), `linear` (x innermost), `once` (work-item 0 alone).

A region whose side effects are guarded by a condition on the local id x of the
innermost looped dimension (`if (2 * d * (x + 1) - 1 < n)`, the steps of a tree) also
gets a bound function `@k.mux-barrier-bound.<i>(<params>, %live, %items) -> (lo, hi)`
(`lowering/active_items.py`): its work-item loop runs x in `[lo, hi)` but for the
group's last work-item, which runs after the loops in any case; the others would
have done nothing of their own.

Barriers are uniform (mux-compiler-spec.rst: "the behaviour is undefined unless all
invocations in the group reach this point"): the region that runs next is the one the
last work-item of the loops returned. If work-items of one group disagree (a barrier
reached non-uniformly), the others' choice is ignored: their remaining work is lost
or they run a region they did not reach; nothing else is checked.

"Newly-created functions steal the mux-kernel attributes from the original
functions": the wrapper takes `@k`'s entry-point attribute and metadata, records
`mux.orig_fn` and `mux.base_fn_name`; `@k` and the region functions are private, to
be inlined by LLVM.

**Work-group collectives** (and sub-group ones with sub-groups larger than 1) are
scheduled natively, as the host target does: each is
a barrier (every work-item must have given its operand before any gets the result),
so its operands go into slots of the live storage before it, the region ends there,
and between the work-item loops of the two regions the wrapper folds the operands of
the whole work-group in local linear order (reduce, any, all: one result; scans: an
accumulator threaded from the identity; broadcast: the operand of the work-item at
the ids) into the result slot the next region loads
(`lowering/group_exchanges.py`). Results equal a sequential fold in local linear
order: a floating-point reduction is the left-to-right sum.

Before: kernel entry points (`transfer-kernel-metadata` or `encode-kernel-metadata`);
barriers and work-group collectives in the kernel itself, with unique ids
(`prepare-barriers` inlines functions that contain them).
After: each entry point is a `.mux-barrier-wrapper` that runs once per work-group;
no `mux.work_group_barrier` or work-group collective remains in it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, cf, func
from xdsl.dialects.builtin import (
    DenseIntElementsAttr,
    IndexType,
    ModuleOp,
    VectorType,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.dialects.llvm import AllocaOp, LLVMStructType, LoadOp, StoreOp
from xdsl.ir import Block, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint

from dialects import attributes as mux_attrs
from dialects import mux
from dialects.attributes import barrier_schedule
from dialects.mux import BarrierSchedule
from lowering.common.builders import alloca, build_for, const, constant_int, from_index
from lowering.common.errors import PassError
from lowering.common.functions import (
    base_name,
    functions,
    kernel_entry_points,
    mark_internal,
    new_function,
    reachable_from,
)
from lowering.common.scf_to_cf import lower_scf_to_cf
from lowering.scheduling.bounds import build_bound_function
from lowering.scheduling.group_exchanges import (
    Exchange,
    GroupShape,
    build_exchange,
    exchange_ops,
    make_exchanges,
)
from lowering.scheduling.live_values import (
    LiveValues,
    copy_carried,
    find_live_values,
    live_array,
)
from lowering.scheduling.region_functions import build_region_function
from lowering.scheduling.regions import BARRIER, BarrierSplit, split_at_barriers

INDEX = IndexType()
SUFFIX = ".mux-barrier-wrapper"
REGION_SUFFIX = ".mux-barrier-region."
BOUND_SUFFIX = ".mux-barrier-bound."


@dataclass(frozen=True)
class WorkItemLoopsPass(ModulePass):
    """Wraps each kernel entry point in loops over the work-items of a work-group,
    one loop nest per barrier region."""

    name = "work-item-loops"

    sub_group_size: int = 1
    """The sub-group size of kernels without a `mux.reqd_sub_group_size` (the
    spec's default is 1)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.sub_group_size < 1:
            raise PassError(
                f"work-item-loops: sub-group-size must be positive, got "
                f"{self.sub_group_size}"
            )
        kernels = kernel_entry_points(op)
        if any(
            isinstance(o, _scheduled(self._size(k))) for k in kernels for o in k.walk()
        ):
            lower_scf_to_cf(op)  # barrier regions are found on the CFG
        for kernel in kernels:
            for new in _schedule(op, kernel, self._size(kernel)):
                op.body.block.insert_op_after(new, kernel)
                kernel = new

    def _size(self, kernel: func.FuncOp) -> int | None:
        """The sub-group size of `kernel`: its required one, else the pass's; None
        for degenerate sub-groups (one per work-group, `degenerate-sub-groups`)."""
        if mux_attrs.DEGENERATE_SUBGROUPS.get(kernel):
            return None
        return mux_attrs.REQD_SUB_GROUP_SIZE.get(kernel) or self.sub_group_size


def _scheduled(sub_group_size: int | None) -> tuple[type, ...]:
    """The ops a kernel with sub-groups of `sub_group_size` splits at."""
    return (BARRIER, *exchange_ops(sub_group_size != 1))


def _ops_reachable(module: ModuleOp, kernel: func.FuncOp) -> list[type]:
    fns = functions(module)
    names = reachable_from(module, [kernel.sym_name.data])
    return [type(o) for name in names if name in fns for o in fns[name].walk()]


def _callees_with_barriers(
    module: ModuleOp, kernel: func.FuncOp, sub_group_size: int | None
) -> list[str]:
    fns = functions(module)
    names = reachable_from(module, [kernel.sym_name.data]) - {kernel.sym_name.data}
    scheduled = _scheduled(sub_group_size)
    return sorted(
        n
        for n in names
        if n in fns and any(isinstance(o, scheduled) for o in fns[n].walk())
    )


@dataclass
class _WorkGroup:
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

    def run(
        self,
        b: Builder,
        body: Callable[[Builder, SSAValue | None], None],
        schedule: BarrierSchedule = BarrierSchedule.UNORDERED,
        linear_id: bool = True,
        vector: tuple[int, int, Callable[[Builder], None]] | None = None,
        active: Callable[[Builder], tuple[SSAValue, SSAValue]] | None = None,
    ) -> None:
        """Runs `body(builder, local_linear_id)` once per work-item, in the order of
        `schedule`: unordered is the work-item order, linear is x innermost, once is
        work-item 0 alone. Without `linear_id` (and sub-groups, which need it), the
        body gets None. With `vector` (a width `W`, a number of rows `R` and a body
        for `W` work-items in each of `R` rows; dimension 0 innermost, no linear id)
        the loop over x runs that body at x = 0, W, 2W, ... while a whole packet of
        `W` work-items fits, and `body` for the rest (the spec's "Vector + Scalar"
        scheduling); with `R` > 1 the loop over y steps by `R` (constant sizes, y a
        multiple of `R`, else a PassError), the rest of each of the `R` rows
        scalar. With `active` (returning `lo, hi` for the innermost looped
        dimension: `lowering.scheduling.bounds`), the innermost loop runs `x` in
        `[lo, hi)` but skips the group's last work-item, which runs after the
        loops, whatever the span: the wrapper follows its region id."""
        ids: dict[int, SSAValue] = {}
        looped = self.looped(schedule)
        for d in range(3):
            if d not in looped:
                b.insert(mux.SetLocalIdOp(self.dims[d], self.zero))
                ids[d] = self.zero
        span = active(b) if active is not None else None
        if vector is not None and vector[1] > 1 and looped[:2] != [0, 1]:
            raise PassError(
                f"work-item-loops: a vectorised kernel of {vector[1]} rows needs "
                "dimension 1 looped right outside dimension 0 (mux.work_item_order, "
                "mux.max_work_dim)"
            )

        def innermost(inner: Builder) -> None:
            if not (linear_id or self.sub_groups):
                body(inner, None)
                return
            linear = inner.insert(arith.MuliOp(ids[2], self.sizes[1])).result
            linear = inner.insert(arith.AddiOp(linear, ids[1])).result
            linear = inner.insert(arith.MuliOp(linear, self.sizes[0])).result
            linear = inner.insert(arith.AddiOp(linear, ids[0])).result
            if self.sub_groups:
                sub_group = linear
                if self.sub_group_size is not None:
                    sub_group = inner.insert(
                        arith.DivUIOp(linear, self.sub_group_size)
                    ).result
                inner.insert(mux.SetSubGroupIdOp(from_index(inner, sub_group, i32)))
            body(inner, linear)

        def loop(level: int, inner: Builder) -> None:
            if level < 0:
                innermost(inner)
                return
            d = looped[level]

            def loop_body(body_builder: Builder, iv: SSAValue) -> None:
                ids[d] = iv
                body_builder.insert(mux.SetLocalIdOp(self.dims[d], iv))
                loop(level - 1, body_builder)

            if level == 1 and vector is not None and vector[1] > 1:
                packet_rows(inner, *vector)
                return
            if level == 0 and vector is not None:
                assert d == 0 and not (linear_id or self.sub_groups)
                width, _, vector_body = vector
                size = constant_int(self.sizes[0])
                step = const(inner, width)
                if size is not None and size % width == 0:  # "Vector only"
                    packets(inner, self.sizes[0], step, vector_body)
                    return
                # peel_limit = size - size % width: the work-items of whole packets
                peel = inner.insert(arith.RemUIOp(self.sizes[0], step)).result
                limit = inner.insert(arith.SubiOp(self.sizes[0], peel)).result
                limit.name_hint = "peel_limit"
                packets(inner, limit, step, vector_body)
                build_for(inner, limit, self.sizes[0], self.one, scalar_x, "x")
                return
            if level == 0 and span is not None:
                lo, hi = span
                outer = looped[1:]
                last = inner.insert(arith.SubiOp(self.sizes[d], self.one)).result
                upper = inner.insert(arith.MinUIOp(hi, last)).result
                if outer:  # x = size - 1 of the last row runs after the loops
                    in_last_row = const(inner, True, i1)
                    for e in outer:
                        end = inner.insert(arith.SubiOp(self.sizes[e], self.one))
                        same = inner.insert(arith.CmpiOp(ids[e], end.result, "eq"))
                        in_last_row = inner.insert(
                            arith.AndIOp(in_last_row, same.result)
                        ).result
                    upper = inner.insert(arith.SelectOp(in_last_row, upper, hi)).result
                build_for(inner, lo, upper, self.one, loop_body, "xyz"[d])
                return
            step = self.x_step if d == 0 and self.x_step is not None else self.one
            build_for(inner, self.zero, self.sizes[d], step, loop_body, "xyz"[d])

        def scalar_x(body_builder: Builder, x: SSAValue) -> None:
            """Work-item x of the innermost loop, dimension 0."""
            ids[0] = x
            body_builder.insert(mux.SetLocalIdOp(self.dims[0], x))
            innermost(body_builder)

        def packets(
            inner: Builder, limit: SSAValue, step: SSAValue, vector_body: Callable
        ) -> None:
            """x = 0, W, 2W, ... below `limit` (`step` is W): the vectorised
            kernel."""

            def packet(body_builder: Builder, x: SSAValue) -> None:
                body_builder.insert(mux.SetLocalIdOp(self.dims[0], x))
                vector_body(body_builder)

            build_for(inner, self.zero, limit, step, packet, "x")

        def packet_rows(
            inner: Builder, width: int, rows: int, vector_body: Callable
        ) -> None:
            """y = 0, R, 2R, ...: packets of `W` x `R` work-items, then the scalar
            kernel for the rest of each row."""
            size_x, size_y = (constant_int(s) for s in self.sizes[:2])
            if size_x is None or size_y is None or size_y % rows:
                raise PassError(
                    f"work-item-loops: a vectorised kernel of {rows} rows needs a "
                    "required work-group size whose y is a multiple of them"
                )
            whole = const(inner, size_x - size_x % width)
            whole.name_hint = "peel_limit"

            def rest_of_row(body_builder: Builder, y: SSAValue) -> None:
                ids[1] = y
                body_builder.insert(mux.SetLocalIdOp(self.dims[1], y))
                build_for(body_builder, whole, self.sizes[0], self.one, scalar_x, "x")

            def packet_row(body_builder: Builder, y: SSAValue) -> None:
                ids[1] = y
                body_builder.insert(mux.SetLocalIdOp(self.dims[1], y))
                packets(body_builder, whole, const(body_builder, width), vector_body)
                if size_x % width:
                    last = const(body_builder, rows)
                    end = body_builder.insert(arith.AddiOp(y, last)).result
                    build_for(body_builder, y, end, self.one, rest_of_row, "y")

            build_for(
                inner, self.zero, self.sizes[1], const(inner, rows), packet_row, "y"
            )

        def last_item(inner: Builder) -> None:
            """The group's last work-item, which the loops over `span` skip."""
            for d in looped:
                ids[d] = inner.insert(arith.SubiOp(self.sizes[d], self.one)).result
                inner.insert(mux.SetLocalIdOp(self.dims[d], ids[d]))
            innermost(inner)

        loop(len(looped) - 1, b)
        if span is not None:
            last_item(b)

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


def _prologue(
    b: Builder, wrapper: func.FuncOp, used: list[type], sub_group_size: int | None
) -> _WorkGroup:
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
        per_sub_group = _work_group_size(b, enqueued)
        if sub_group_size is not None:
            limit = const(b, sub_group_size)
            per_sub_group = b.insert(arith.MinUIOp(per_sub_group, limit)).result
        per_sub_group.name_hint = "max_sub_group_size"
    if sub_groups and per_sub_group is None:
        b.insert(mux.SetMaxSubGroupSizeOp(const(b, 1, i32)))
        b.insert(mux.SetNumSubGroupsOp(from_index(b, _work_group_size(b, sizes), i32)))
    elif sub_groups:
        assert per_sub_group is not None
        count = _work_group_size(b, sizes)
        number = b.insert(arith.CeilDivUIOp(count, per_sub_group)).result
        b.insert(mux.SetMaxSubGroupSizeOp(from_index(b, per_sub_group, i32)))
        b.insert(mux.SetNumSubGroupsOp(from_index(b, number, i32)))
    order = tuple(
        d for d in mux_attrs.work_item_order(wrapper).dimensions if d < max_dim
    )
    return _WorkGroup(
        dims,
        sizes,
        const(b, 0),
        const(b, 1),
        max_dim,
        order,
        sub_groups,
        per_sub_group,
    )


def _work_group_size(b: Builder, sizes: list[SSAValue]) -> SSAValue:
    count = b.insert(arith.MuliOp(sizes[0], sizes[1])).result
    return b.insert(arith.MuliOp(count, sizes[2])).result


def _vector_kernel(
    module: ModuleOp, kernel: func.FuncOp
) -> tuple[int, func.FuncOp] | None:
    """The width and the function of `kernel`'s vectorised version (`run-vecz`),
    if it has one."""
    link = mux_attrs.VECZ_BASE.get(kernel)
    if link is None:
        return None
    width, name = link
    vector = functions(module).get(name)
    if vector is None:
        raise PassError(
            f"work-item-loops: kernel '{kernel.sym_name.data}' names a vectorised "
            f"version '{name}' (mux.vecz_base) the module does not have"
        )
    return width, vector


def _vectorised(
    module: ModuleOp, kernel: func.FuncOp, args: list[SSAValue]
) -> tuple[int, int, Callable[[Builder], None]] | None:
    """The width and rows of `kernel`'s vectorised version and a body calling it, if
    it has one."""
    vector = _vector_kernel(module, kernel)
    if vector is None:
        return None
    width, function = vector
    rows = mux_attrs.VECZ_ROWS.get(function) or 1
    name = function.sym_name.data
    return width, rows, lambda b: b.insert(func.CallOp(name, args, []))


def _schedule(
    module: ModuleOp, kernel: func.FuncOp, sub_group_size: int | None
) -> list[func.FuncOp]:
    """The new functions for `kernel` with sub-groups of `sub_group_size` (None:
    degenerate): its region functions (if it has barriers), then the wrapper."""
    name = kernel.sym_name.data
    if kernel.function_type.outputs.data:
        returns = (o for o in kernel.walk() if isinstance(o, func.ReturnOp))
        raise PassError(
            f"work-item-loops: kernel '{name}' returns values",
            next((r for r in returns if r.arguments), kernel),
        )
    used = _ops_reachable(module, kernel)
    if callees := _callees_with_barriers(module, kernel, sub_group_size):
        raise PassError(
            f"work-item-loops: kernel '{name}' calls a function with a barrier "
            f"({', '.join(callees)}): run prepare-barriers first",
            kernel,
        )

    base = base_name(kernel)
    wrapper, b = new_function(
        base + SUFFIX,
        kernel.function_type.inputs.data,
        arg_names=[a.name_hint for a in kernel.args],
    )
    wrapper.arg_attrs = kernel.arg_attrs
    mux_attrs.take_is_kernel(wrapper, kernel)
    for accessor in mux_attrs.FUNCTION_ATTRIBUTES:
        accessor.take(wrapper, kernel)
    mux_attrs.ORIG_FN.set(wrapper, mux_attrs.ORIG_FN.get(wrapper) or name)
    mux_attrs.BASE_FN_NAME.set(wrapper, base)
    mark_internal(kernel)
    if sub_group_size is not None and (
        sub_group_size != 1 or mux_attrs.REQD_SUB_GROUP_SIZE.get(wrapper)
    ):  # absent: the spec's default, 1
        mux_attrs.SUB_GROUP_SIZE.set(wrapper, sub_group_size)
    group = _prologue(b, wrapper, used, sub_group_size)
    args = list(wrapper.args)

    exchanges = make_exchanges(kernel, sub_group_size != 1)
    if not any(isinstance(o, BARRIER) for o in kernel.walk()):
        group.run(
            b,
            lambda inner, _: inner.insert(func.CallOp(name, args, [])),
            linear_id=False,
            vector=_vectorised(module, kernel, args),
        )
        b.insert(func.ReturnOp())
        return [wrapper]

    vector = _vector_kernel(module, kernel)
    if vector is not None:  # "Vector only": no scalar tail with barriers
        width, vector_kernel = vector
        if (mux_attrs.VECZ_ROWS.get(vector_kernel) or 1) > 1:
            raise PassError(
                f"work-item-loops: kernel '{name}' has barriers and a vectorised "
                "version of more than one row (mux.vecz_rows): packets with barriers "
                "are one row",
                kernel,
            )
        size = constant_int(group.sizes[0])
        if size is None or size % width:
            raise PassError(
                f"work-item-loops: kernel '{name}' has barriers and a vectorised "
                f"version of width {width}, but no required work-group size whose x "
                "is a multiple of it (a vectorised kernel with barriers runs alone)",
                kernel,
            )
        kernel = vector_kernel
        group.x_step = const(b, width)
    split = split_at_barriers(kernel)
    live = find_live_values(split)
    for exchange in exchanges.values():
        for slot in exchange.arrays:  # in the live storage, whatever their uses
            live.add(slot)
    struct = live.struct_type(f"{base}.live")
    regions = [
        build_region_function(split, r, live, struct, f"{base}{REGION_SUFFIX}{r.index}")
        for r in split.regions
    ]
    bounds = _dispatch(
        module, b, wrapper, group, split, regions, live, struct, exchanges
    )
    return [*regions, *bounds, wrapper]


def _dispatch(
    module: ModuleOp,
    b: Builder,
    wrapper: func.FuncOp,
    group: _WorkGroup,
    split: BarrierSplit,
    regions: list[func.FuncOp],
    live: LiveValues,
    struct: LLVMStructType,
    exchanges: dict[mux.WorkGroupBarrierOp, Exchange],
) -> list[func.FuncOp]:
    """The wrapper's body with barriers: one block per region, each running the
    region's function for every work-item (their live structs in one array), then
    branching on the region id the work-items returned (0: the kernel returned).
    A region with a bound function (`lowering.scheduling.bounds`) runs only the
    work-items it says may do something of their own, then the last one; the bound
    functions are returned.
    A region after a collective starts with the collective itself
    (`lowering.scheduling.group_exchanges.build_exchange`)."""
    layout = live.layout(struct)
    items = _work_group_size(b, group.sizes)
    count = from_index(b, items, i64)
    size = b.insert(arith.MuliOp(count, const(b, layout.item_bytes, i64))).result
    storage = b.insert(AllocaOp(size, i8, layout.alignment)).res
    storage.name_hint = "live"
    next_region = alloca(b, i32, "next_region")
    bounds: list[func.FuncOp] = []
    args = list(wrapper.args)
    blocks = [Block() for _ in regions]
    exit_block = Block()
    for block in [*blocks, exit_block]:
        wrapper.body.add_block(block)
    b.insert(cf.BranchOp(blocks[0]))

    for region, function, block in zip(split.regions, regions, blocks, strict=True):
        rb = Builder(InsertPoint.at_end(block))
        barrier = region.barrier
        if barrier is not None:  # "decomposed to just a memory barrier"
            rb.insert(mux.MemBarrierOp(barrier.scope, barrier.semantics))
        if barrier in exchanges:
            shape = GroupShape(items, group.sizes, group.sub_group_size)
            build_exchange(
                rb,
                exchanges[barrier],
                shape,
                lambda eb, slot: live_array(eb, live, layout, storage, count, slot),
            )

        def call(inner: Builder, linear: SSAValue | None, function=function) -> None:
            assert linear is not None
            index = from_index(inner, linear, i64)
            result = inner.insert(
                func.CallOp(
                    function.sym_name.data, [*args, storage, index, count], [i32]
                )
            ).res[0]
            inner.insert(StoreOp(result, next_region))

        schedule = barrier_schedule(barrier) if barrier is not None else None
        schedule = schedule or BarrierSchedule.UNORDERED
        looped = group.looped(schedule)
        bound = None
        if looped and group.x_step is None:  # packets run whole: no bound
            name = function.sym_name.data.replace(REGION_SUFFIX, BOUND_SUFFIX)
            bound = build_bound_function(module, function, looped[0], name)
        if bound is not None:
            bounds.append(bound)

        def active(inner: Builder, bound=bound) -> tuple[SSAValue, SSAValue]:
            assert bound is not None
            name = bound.sym_name.data
            span = inner.insert(func.CallOp(name, [*args, storage, count], [INDEX] * 2))
            lo, hi = span.res
            lo.name_hint, hi.name_hint = "lo", "hi"
            return lo, hi

        group.run(rb, call, schedule, active=active if bound is not None else None)
        copy_carried(rb, live, layout, struct, storage, count, region.index)
        following = rb.insert(LoadOp(next_region, i32)).dereferenced_value
        cases = list(range(1, len(regions)))
        rb.insert(
            cf.SwitchOp(
                following,
                exit_block,
                [],
                DenseIntElementsAttr.from_list(VectorType(i32, (len(cases),)), cases),
                blocks[1:],
                [[] for _ in cases],
            )
        )
    Builder(InsertPoint.at_end(exit_block)).insert(func.ReturnOp())
    return bounds
