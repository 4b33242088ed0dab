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
`%live`, a struct of arrays with one element per work-item. The wrapper
allocates the storage, and has one block per region: a `mux.mem_barrier` with the
semantics of the barrier that leads there ("the control aspect of the barrier has been
satisfied by the loops, so it has been decomposed to just a memory barrier"), the
work-item loops calling the region's function, and a `cf.switch` on the id returned.
The barrier's `schedule` picks the loops of the region after it: `unordered` (the
work-item order), `linear` (x innermost), `once` (work-item 0 alone).

A region whose side effects are guarded by a condition on the local id x of the
innermost looped dimension (`if (2 * d * (x + 1) - 1 < n)`, the steps of a tree) also
gets a bound function `@k.mux-barrier-bound.<i>(<params>, %live, %items) -> (lo, hi)`
(`lowering/scheduling/bounds.py`): its work-item loop runs x in `[lo, hi)` but for
the group's last work-item, which runs after the loops in any case; the others would
have done nothing of their own.

Barriers are uniform (mux-compiler-spec.rst: "the behaviour is undefined unless all
invocations in the group reach this point"): the region that runs next is the one the
last work-item of the loops returned. If work-items of one group disagree (a barrier
reached non-uniformly), the others' choice is ignored: their remaining work is lost
or they run a region they did not reach. With the option `checked` (checked mode,
docs/checked.md) the wrapper compares them instead: a kernel with barriers gets the
check record parameter (`mux.check_record`), the wrapper keeps the least and the
greatest region id of each region it runs, and different ids are reported as a
divergent barrier (`lowering/scheduling/divergence.py`), after which the group
stops. Regions whose work-items cannot disagree are not compared, and a bound
function is made only where the work-items it skips agree with those that run.

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
(`lowering/scheduling/group_exchanges.py`). Results equal a sequential fold in local
linear order: a floating-point reduction is the left-to-right sum.

The machinery is in `lowering/scheduling/`: `wrapper.py` builds the wrapper,
`loop_nest.py` its work-item loops, `regions.py` splits the kernel at its barriers,
`live_values.py` keeps what crosses them, `region_functions.py` makes the region
functions, `uniformity.py` finds the live values one copy per work-group serves.

Before: kernel entry points (`transfer-kernel-metadata` or `encode-kernel-metadata`);
barriers and work-group collectives in the kernel itself, with unique ids
(`prepare-barriers` inlines functions that contain them).
After: each entry point is a `.mux-barrier-wrapper` that runs once per work-group;
no `mux.work_group_barrier` or work-group collective remains in it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from dialects import attributes as mux_attrs
from lowering.common.compile_options import OptionError, check_sub_group_size
from lowering.common.errors import PassError
from lowering.common.functions import kernel_entry_points
from lowering.common.scf_to_cf import lower_scf_to_cf
from lowering.scheduling.wrapper import schedule_kernel, scheduled_ops


@dataclass(frozen=True)
class WorkItemLoopsPass(ModulePass):
    """Wraps each kernel entry point in loops over the work-items of a work-group,
    one loop nest per barrier region."""

    name = "work-item-loops"

    sub_group_size: int = 1
    """The sub-group size of kernels without a `mux.reqd_sub_group_size` (the
    spec's default is 1)."""

    checked: bool = False
    """Checked mode (issue 17): work-items of a group that reach different barriers
    are reported in the check record (`lowering.scheduling.divergence`)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:  # the compile option's rule, spelled as the pass option
            check_sub_group_size(self.sub_group_size, "sub-group-size")
        except OptionError as error:
            raise PassError(f"work-item-loops: {error}") from None
        kernels = kernel_entry_points(op)
        if self.builds_barrier_regions(op):
            lower_scf_to_cf(op)  # barrier regions are found on the CFG
        for kernel in kernels:
            size = self._size(kernel)
            for new in schedule_kernel(op, kernel, size, self.checked):
                op.body.block.insert_op_after(new, kernel)
                kernel = new

    def builds_barrier_regions(self, op: ModuleOp) -> bool:
        """Whether the pass will split a kernel of `op` into barrier regions: some
        entry point holds a barrier or an op scheduled as one (a work-group
        collective, a sub-group exchange across work-items)."""
        return any(
            isinstance(o, scheduled_ops(self._size(k)))
            for k in kernel_entry_points(op)
            for o in k.walk()
        )

    def _size(self, kernel: func.FuncOp) -> int | None:
        """The sub-group size of `kernel`: its required one, else the pass's; None
        for degenerate sub-groups (one per work-group, `degenerate-sub-groups`)."""
        if mux_attrs.DEGENERATE_SUBGROUPS.get(kernel):
            return None
        return mux_attrs.REQD_SUB_GROUP_SIZE.get(kernel) or self.sub_group_size
