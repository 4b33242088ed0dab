"""The wrapper `work-item-loops` makes of a kernel: one function per work-group.

`schedule_kernel` builds, for a kernel entry point `@k`, the new entry point
`@k.mux-barrier-wrapper` (it takes `@k`'s attributes and metadata; `@k` becomes
private) and, when `@k` has barriers (or collectives scheduled as barriers,
`lowering.scheduling.group_exchanges`), the functions it calls:

- without barriers, the wrapper runs `@k` (or its vectorised version) in the
  work-item loops of `lowering.scheduling.loop_nest`;
- with barriers, the kernel is split into regions (`lowering.scheduling.regions`),
  its live values get a place in the work-group's live storage
  (`lowering.scheduling.live_values`), each region becomes a function
  `@k.mux-barrier-region.<i>` (`lowering.scheduling.region_functions`), perhaps with
  a bound function `@k.mux-barrier-bound.<i>` (`lowering.scheduling.bounds`), and
  the wrapper allocates the live storage and has one block per region: a memory
  barrier, in checked mode the start of the local-memory shadow's next epoch
  (`@__mux_check_local_epoch`, `lowering.common.local_shadow`: the accesses before
  the barrier no longer race with those after it), the region's exchange if it
  follows a collective, the work-item loops
  calling the region's function, and a `cf.switch` on the region id the last
  work-item returned (0: the kernel returned).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from xdsl.builder import Builder
from xdsl.dialects import arith, cf, func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntElementsAttr,
    ModuleOp,
    StringAttr,
    VectorType,
    i8,
    i32,
    i64,
)
from xdsl.dialects.llvm import AllocaOp, LLVMStructType, LoadOp, StoreOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from dialects import attributes as mux_attrs
from dialects import mux
from dialects.attributes import barrier_schedule
from dialects.mux import BarrierSchedule
from lowering.common import local_shadow
from lowering.common.builders import INDEX, alloca, const, constant_int, from_index
from lowering.common.errors import PassError
from lowering.common.functions import (
    base_name,
    functions,
    mark_internal,
    new_function,
    reachable_from,
)
from lowering.scheduling.bounds import agreeing_returns, build_bound_function
from lowering.scheduling.divergence import DivergenceCheck, prepare_record
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
from lowering.scheduling.loop_nest import (
    VectorKernel,
    WorkGroup,
    work_group_prologue,
    work_group_size,
)
from lowering.scheduling.region_faults import RegionFaults, fault_words
from lowering.scheduling.region_functions import build_region_function
from lowering.scheduling.regions import BARRIER, BarrierSplit, split_at_barriers

WRAPPER_SUFFIX = ".mux-barrier-wrapper"
"""The wrapper of `@k` is `@k.mux-barrier-wrapper`."""
REGION_SUFFIX = ".mux-barrier-region."
"""Region `i` of `@k` is `@k.mux-barrier-region.<i>`."""
BOUND_SUFFIX = ".mux-barrier-bound."
"""The bound function of region `i` of `@k` is `@k.mux-barrier-bound.<i>`."""


def scheduled_ops(sub_group_size: int | None) -> tuple[type[Operation], ...]:
    """The ops a kernel with sub-groups of `sub_group_size` splits at."""
    return (BARRIER, *exchange_ops(sub_group_size != 1))


def schedule_kernel(
    module: ModuleOp,
    kernel: func.FuncOp,
    sub_group_size: int | None,
    checked: bool = False,
) -> list[func.FuncOp]:
    """The new functions for `kernel` with sub-groups of `sub_group_size` (None:
    degenerate): its region functions and bound functions (if it has barriers),
    then the wrapper. `checked`: the wrapper checks that the work-items of a group
    agree on the barrier they reach (`lowering.scheduling.divergence`)."""
    _check_kernel(module, kernel, sub_group_size)
    scheduled = scheduled_ops(sub_group_size)
    checked = checked and any(isinstance(o, scheduled) for o in kernel.walk())
    if checked:
        vector = _vector_kernel(module, kernel)
        prepare_record(kernel, vector[1] if vector is not None else None)
    used = _ops_reachable(module, kernel)
    base = base_name(kernel)
    wrapper, b = _new_wrapper(kernel, base, sub_group_size)
    group = work_group_prologue(b, wrapper, used, sub_group_size)
    args = list(wrapper.args)

    exchanges = make_exchanges(kernel, sub_group_size != 1)
    if not any(isinstance(o, BARRIER) for o in kernel.walk()):
        name = kernel.sym_name.data
        group.run_kernel(
            b,
            lambda inner, _: inner.insert(func.CallOp(name, args, [])),
            _vectorised(module, kernel, args),
        )
        b.insert(func.ReturnOp())
        return [wrapper]

    kernel = _kernel_run_with_barriers(module, kernel, group, b)
    split = split_at_barriers(kernel)
    live = find_live_values(split)
    words = fault_words(kernel)
    for exchange in exchanges.values():
        for slot in exchange.arrays:  # in the live storage, whatever their uses
            live.add(slot)
    live.set_apart(words)  # read by the wrapper when the group ends
    struct = live.struct_type(f"{base}.live")
    regions = [
        build_region_function(split, r, live, struct, f"{base}{REGION_SUFFIX}{r.index}")
        for r in split.regions
    ]
    blocks = _RegionBlocks(module, b, wrapper, group, live, struct, exchanges)
    if words:
        blocks.faults = RegionFaults.build(b, wrapper, blocks.apart[0], blocks.count)
    if checked:
        ops = {barrier: exchange.op for barrier, exchange in exchanges.items()}
        blocks.check = DivergenceCheck.build(b, wrapper, split, ops, group.sizes)
    bounds = blocks.build(b, split, regions)
    return [*regions, *bounds, wrapper]


def _check_kernel(
    module: ModuleOp, kernel: func.FuncOp, sub_group_size: int | None
) -> None:
    """Diagnoses a kernel `work-item-loops` cannot schedule: one that returns
    values, or calls a function with a barrier."""
    name = kernel.sym_name.data
    if kernel.function_type.outputs.data:
        returns = (o for o in kernel.walk() if isinstance(o, func.ReturnOp))
        raise PassError(
            f"work-item-loops: kernel '{name}' returns values",
            next((r for r in returns if r.arguments), kernel),
        )
    fns = functions(module)
    names = reachable_from(module, [name]) - {name}
    scheduled = scheduled_ops(sub_group_size)
    callees = sorted(
        n
        for n in names
        if n in fns and any(isinstance(o, scheduled) for o in fns[n].walk())
    )
    if callees:
        raise PassError(
            f"work-item-loops: kernel '{name}' calls a function with a barrier "
            f"({', '.join(callees)}): run prepare-barriers first",
            kernel,
        )


def _ops_reachable(module: ModuleOp, kernel: func.FuncOp) -> list[type]:
    """The kinds of op in `kernel` and the functions it calls."""
    fns = functions(module)
    names = reachable_from(module, [kernel.sym_name.data])
    return [type(o) for name in names if name in fns for o in fns[name].walk()]


def _new_wrapper(
    kernel: func.FuncOp, base: str, sub_group_size: int | None
) -> tuple[func.FuncOp, Builder]:
    """The wrapper of `kernel`, empty, with the kernel's parameters, attributes and
    metadata ("Newly-created functions steal the mux-kernel attributes from the
    original functions"); `kernel` becomes internal."""
    wrapper, b = new_function(
        base + WRAPPER_SUFFIX,
        kernel.function_type.inputs.data,
        arg_names=[a.name_hint for a in kernel.args],
    )
    wrapper.arg_attrs = kernel.arg_attrs
    mux_attrs.take_is_kernel(wrapper, kernel)
    for accessor in mux_attrs.FUNCTION_ATTRIBUTES:
        accessor.take(wrapper, kernel)
    name = kernel.sym_name.data
    mux_attrs.ORIG_FN.set(wrapper, mux_attrs.ORIG_FN.get(wrapper) or name)
    mux_attrs.BASE_FN_NAME.set(wrapper, base)
    mark_internal(kernel)
    if sub_group_size is not None and (
        sub_group_size != 1 or mux_attrs.REQD_SUB_GROUP_SIZE.get(wrapper)
    ):  # absent: the spec's default, 1
        mux_attrs.SUB_GROUP_SIZE.set(wrapper, sub_group_size)
    return wrapper, b


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
    module: ModuleOp, kernel: func.FuncOp, args: Sequence[SSAValue]
) -> VectorKernel | None:
    """`kernel`'s vectorised version as the loops call it, if it has one."""
    vector = _vector_kernel(module, kernel)
    if vector is None:
        return None
    width, function = vector
    rows = mux_attrs.VECZ_ROWS.get(function) or 1
    name = function.sym_name.data
    return VectorKernel(width, rows, lambda b: b.insert(func.CallOp(name, args, [])))


def _kernel_run_with_barriers(
    module: ModuleOp, kernel: func.FuncOp, group: WorkGroup, b: Builder
) -> func.FuncOp:
    """The kernel whose regions the wrapper runs: `kernel`, or its vectorised
    version alone ("Vector only": no scalar tail with barriers), whose packets of
    `W` work-items the loop over x steps by."""
    vector = _vector_kernel(module, kernel)
    if vector is None:
        return kernel
    name = kernel.sym_name.data
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
    group.x_step = const(b, width)
    return vector_kernel


class _RegionBlocks:
    """The wrapper's body for a kernel with barriers: one block per region, each
    running the region's function for every work-item (their live values in the
    work-group's live storage), then branching on the region id the work-items
    returned (0: the kernel returned). A region with a bound function
    (`lowering.scheduling.bounds`) runs only the work-items it says may do
    something of their own, then the last one. A region after a collective starts
    with the collective itself
    (`lowering.scheduling.group_exchanges.build_exchange`)."""

    def __init__(
        self,
        module: ModuleOp,
        b: Builder,
        wrapper: func.FuncOp,
        group: WorkGroup,
        live: LiveValues,
        struct: LLVMStructType,
        exchanges: dict[mux.WorkGroupBarrierOp, Exchange],
    ):
        self.module, self.group, self.live, self.struct = module, group, live, struct
        self.exchanges = exchanges
        self.args = list(wrapper.args)
        self.wrapper = wrapper
        self.layout = live.layout(struct)
        self.items = work_group_size(b, group.sizes)
        self.count = from_index(b, self.items, i64)
        item_bytes = const(b, self.layout.item_bytes, i64)
        size = b.insert(arith.MuliOp(self.count, item_bytes)).result
        self.storage = b.insert(AllocaOp(size, i8, self.layout.alignment)).res
        self.storage.name_hint = "live"
        self.apart: list[SSAValue] = []
        """The storage of the arrays kept apart (`LiveValues.apart`), if any."""
        if live.apart:
            words = const(b, len(live.apart) * 8, i64)
            size = b.insert(arith.MuliOp(self.count, words)).result
            self.apart = [b.insert(AllocaOp(size, i8, 64)).res]
            self.apart[0].name_hint = "apart"
        self.next_region = alloca(b, i32, "next_region")
        shadow = mux_attrs.LOCAL_SHADOW.get(wrapper)
        self.shadow = None if shadow is None else self.args[shadow]
        """Checked mode's local-memory shadow, whose epoch each barrier starts."""
        self.check: DivergenceCheck | None = None
        self.faults: RegionFaults | None = None
        """Checked mode's bounds faults, reported when the group ends."""
        self.comparing: DivergenceCheck | None = None
        """`check`, while building a region whose work-items may disagree."""
        """Checked mode's comparison of the work-items' region ids."""

    def build(
        self, b: Builder, split: BarrierSplit, functions: list[func.FuncOp]
    ) -> list[func.FuncOp]:
        """The blocks of the regions of `split`, whose functions are `functions`;
        returns the bound functions."""
        bounds: list[func.FuncOp] = []
        blocks = [Block() for _ in functions]
        exit_block = Block()
        for block in [*blocks, exit_block]:
            self.wrapper.body.add_block(block)
        b.insert(cf.BranchOp(blocks[0]))
        for region, function, block in zip(
            split.regions, functions, blocks, strict=True
        ):
            rb = Builder(InsertPoint.at_end(block))
            bound = self._region(rb, region.barrier, region.index, function)
            if bound is not None:
                bounds.append(bound)
            following = self._following(rb)
            cases = list(range(1, len(functions)))
            rb.insert(
                cf.SwitchOp(
                    following,
                    exit_block,
                    [],
                    DenseIntElementsAttr.from_list(
                        VectorType(i32, (len(cases),)), cases
                    ),
                    blocks[1:],
                    [[] for _ in cases],
                )
            )
        eb = Builder(InsertPoint.at_end(exit_block))
        if self.faults is not None:
            self.faults.flush(eb, self.module)
        eb.insert(func.ReturnOp())
        return bounds

    def _region(
        self,
        rb: Builder,
        barrier: mux.WorkGroupBarrierOp | None,
        index: int,
        function: func.FuncOp,
    ) -> func.FuncOp | None:
        """Region `index`, after `barrier`: its memory barrier, exchange and
        work-item loops; returns its bound function if it has one."""
        if barrier is not None:  # "decomposed to just a memory barrier"
            rb.insert(mux.MemBarrierOp(barrier.scope, barrier.semantics))
        if barrier is not None and self.shadow is not None:
            rb.insert(func.CallOp(local_shadow.NEXT_EPOCH, [self.shadow], []))
        if barrier is not None and barrier in self.exchanges:
            group = self.group
            shape = GroupShape(self.items, group.sizes, group.sub_group_size)
            build_exchange(rb, self.exchanges[barrier], shape, self._slot_array)
        schedule = barrier_schedule(barrier) if barrier is not None else None
        schedule = schedule or BarrierSchedule.UNORDERED
        looped = self.group.looped(schedule)
        bound = None
        if looped and self.group.x_step is None:  # packets run whole: no bound
            name = function.sym_name.data.replace(REGION_SUFFIX, BOUND_SUFFIX)
            checked = self.check is not None
            bound = build_bound_function(
                self.module, function, looped[0], name, checked
            )
        span = partial(self._span, bound) if bound is not None else None
        # called twice (the loop over the span, the last work-item), a region
        # whose accesses the race check instruments grows past what LLVM inlines,
        # and a call per work-item would cost more than the checks
        if bound is not None and self.shadow is not None:
            function.attributes["passthrough"] = ArrayAttr([StringAttr("alwaysinline")])
        agree = self.check is None or agreeing_returns(function)
        check = self.comparing = None if agree else self.check
        if check is not None:
            check.start_region(rb, self.next_region)
        call = partial(self._call, function, check)
        self.group.run_region(rb, call, schedule, span)
        copy_carried(
            rb, self.live, self.layout, self.struct, self.storage, self.count, index
        )
        return bound

    def _slot_array(self, b: Builder, slot: SSAValue) -> SSAValue:
        return live_array(b, self.live, self.layout, self.storage, self.count, slot)

    def _call(
        self,
        function: func.FuncOp,
        check: DivergenceCheck | None,
        inner: Builder,
        linear: SSAValue | None,
    ) -> None:
        """The call of a region's function for the work-item of `linear` id, its
        region id compared with the group's if `check`."""
        assert linear is not None
        index = from_index(inner, linear, i64)
        operands = [*self.args, *self.apart, self.storage, index, self.count]
        call = func.CallOp(function.sym_name.data, operands, [i32])
        region = inner.insert(call).res[0]
        if check is None:
            inner.insert(StoreOp(region, self.next_region))
        else:
            check.after_call(inner, region, index, self.next_region)

    def _following(self, b: Builder) -> SSAValue:
        """The region id the work-items returned (checked: the group's, 0 if they
        diverged)."""
        if self.comparing is not None:
            faults = self.faults
            first = partial(faults.flush, module=self.module) if faults else None
            return self.comparing.following(b, self.next_region, first)
        return b.insert(LoadOp(self.next_region, i32)).dereferenced_value

    def _span(self, bound: func.FuncOp, inner: Builder) -> tuple[SSAValue, SSAValue]:
        """The call of a bound function: `lo, hi`."""
        operands = [*self.args, *self.apart, self.storage, self.count]
        span = inner.insert(func.CallOp(bound.sym_name.data, operands, [INDEX] * 2))
        lo, hi = span.res
        lo.name_hint, hi.name_hint = "lo", "hi"
        return lo, hi
