"""Checked mode: barrier divergence, caught by `work-item-loops{checked=true}`.

mux-compiler-spec.rst: a barrier's behaviour "is undefined unless all invocations in
the group reach this point". The wrapper (`lowering.scheduling.wrapper`) runs a
region's function for each work-item and follows the region id they return (0: the
kernel returned); unchecked, it follows the last work-item's and ignores the others'.
Checked, the loops keep the least and the greatest id returned, and the first
work-item that returned each, without a branch (selects on values LLVM keeps in
registers, so the loops still vectorise); after them the ids are compared:

    %r = func.call @k.mux-barrier-region.<i>(...)        // per work-item %item
    llvm.store %r, %next_region
    %less = arith.cmpi slt, %r, %least                   // from 2^31 - 1
    %least, %least_item = select %less, (%r, %item), (%least, %least_item)
    (the same for %greatest, from -1)
    ...                                                  // after the loops
    scf.if (%least != %greatest) {
      <report DIVERGENT_BARRIER: the site of %least and %least_item's ids,
                                 the site of %greatest and %greatest_item's ids>
    }
    cf.switch (%least != %greatest ? 0 : %next_region)   // a divergent group stops

A divergence is recorded (`lowering.common.check_record.report`: the first fault of
the launch wins, the others count: one per divergent group) with the sites of both
barriers (the module's `mux.check_sites`: "the barrier at file:line:col", a
collective's or sub-group operation's name, "the return of kernel '<name>'" for 0)
and both work-items' global and local ids. The region's loops have run every
work-item (each was reached), then a group that diverged stops: its wrapper
returns, so what follows is defined and cannot hang (following either id would run
work-items in a region they never reached, on live values never written); the
launch raises `mux.KernelError` afterwards.

A region whose work-items cannot disagree needs no comparison, and its loops are
those of unchecked mode: where every branch on a value that differs between
work-items leads to one region id only (`bounds.agreeing_returns`: straight-line
code between two barriers, a loop around barriers whose trip count is uniform). That
analysis takes loads from uniform addresses as uniform, as the bound functions do,
which holds without data races (a race on local memory is checked mode's third
check). Every other region is compared, and every schedule by the same code:
`unordered` and `linear` compare every work-item; `once` runs work-item 0 alone,
whose id is the group's by the schedule's own contract (the others would do the
same), so there is nothing to compare; a vectorised kernel's packet returns one id
for its work-items, compared per packet (named by its first work-item). A region
with a bound function (`lowering.scheduling.bounds`) skips work-items: checked, it
has one only where every work-item that passes the guard returns one and the same
region, so the skipped ones agree with the ones that run (`build_bound_function`'s
`checked`). Collectives and sub-group operations scheduled as barriers (and so
`dma_wait`, when it is one) are barriers here too: a sub-group barrier that
sub-groups reach at different places is legal OpenCL but cannot be scheduled by one
loop nest per region, so it is reported as well (the site names the sub-group
operation).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import FileLineColLoc, i32, i64
from xdsl.dialects.llvm import LoadOp, StoreOp
from xdsl.ir import Operation, SSAValue

from dialects import attributes as mux_attrs
from dialects import mux
from lowering.common.builders import (
    INDEX,
    alloca,
    build_if,
    const,
)
from lowering.common.check_record import Fault, add_site, record_param, report
from lowering.scheduling.regions import BarrierSplit


def return_site(kernel: str) -> str:
    """The site of region id 0: the kernel returned."""
    return f"the return of kernel '{kernel}'"


def barrier_site(barrier: mux.WorkGroupBarrierOp, scheduled: type[Operation] | None):
    """What a message says of `barrier`: "the barrier at file:line:col" ("barrier
    <id>" without a location: ids are the compiler's, `prepare-barriers`), or the
    name of the collective or sub-group operation `scheduled` as it
    (`group_exchanges`)."""
    loc = barrier.location
    if scheduled is not None:
        what = scheduled.name.removeprefix("mux.")
    elif isinstance(loc, FileLineColLoc):
        what = "the barrier"
    else:
        return f"barrier {barrier.id.value.data}"
    if isinstance(loc, FileLineColLoc):
        what += f" at {loc.filename.data}:{loc.line.data}:{loc.column.data}"
    return what


def prepare_record(kernel: func.FuncOp, vector: func.FuncOp | None) -> None:
    """Gives `kernel` (and its vectorised version, whose regions the wrapper may run
    instead) the record parameter, before the wrapper copies its parameters."""
    record_param(kernel)
    if vector is not None and mux_attrs.CHECK_RECORD.get(vector) is None:
        record_param(vector)


@dataclass
class DivergenceCheck:
    """The wrapper's state for the check: the record, the site of each region id,
    and per region run the least and the greatest region id returned and the
    first work-items that returned them (`slots`, allocas LLVM keeps in
    registers)."""

    record: SSAValue
    sites: list[int]
    """Site `sites[i]` is region id `i`'s."""
    sizes: list[SSAValue]
    slots: tuple[SSAValue, SSAValue, SSAValue, SSAValue]
    """The least id (i32), its work-item (i64), the greatest id, its work-item."""

    @staticmethod
    def build(
        b: Builder,
        wrapper: func.FuncOp,
        split: BarrierSplit,
        scheduled: dict[mux.WorkGroupBarrierOp, type[Operation]],
        sizes: list[SSAValue],
    ) -> DivergenceCheck:
        """The check of `wrapper`, running the regions of `split`; `scheduled`:
        the op each barrier made for a collective stands for."""
        index = mux_attrs.CHECK_RECORD.get(wrapper)
        assert index is not None, "prepare_record gave the kernel its record"
        kernel = split.kernel  # in the module, whose table the sites go to
        sites = [add_site(kernel, return_site(mux_attrs.ORIG_FN.get(wrapper) or ""))]
        for region in split.regions[1:]:
            assert region.barrier is not None
            text = barrier_site(region.barrier, scheduled.get(region.barrier))
            sites.append(add_site(kernel, text))
        least, least_item = alloca(b, i32, "least_region"), alloca(b, i64, "least_item")
        greatest = alloca(b, i32, "greatest_region")
        greatest_item = alloca(b, i64, "greatest_item")
        slots = least, least_item, greatest, greatest_item
        return DivergenceCheck(wrapper.args[index], sites, sizes, slots)

    def start_region(self, b: Builder, next_region: SSAValue) -> None:
        """Before a region's loops: no id returned yet (least above every id,
        greatest below)."""
        least, _, greatest, _ = self.slots
        b.insert(StoreOp(const(b, 2**31 - 1, i32), least))
        b.insert(StoreOp(const(b, -1, i32), greatest))

    def after_call(
        self, b: Builder, region: SSAValue, item: SSAValue, next_region: SSAValue
    ) -> None:
        """After the call of a region's function for the work-item of linear id
        `item` (i64) that returned `region`: the least and greatest ids so far
        and their first work-items, without a branch (module docstring)."""
        b.insert(StoreOp(region, next_region))
        least, least_item, greatest, greatest_item = self.slots
        for bound, bound_item, predicate in (
            (least, least_item, "slt"),
            (greatest, greatest_item, "sgt"),
        ):
            old = b.insert(LoadOp(bound, i32)).dereferenced_value
            old_item = b.insert(LoadOp(bound_item, i64)).dereferenced_value
            beyond = b.insert(arith.CmpiOp(region, old, predicate)).result
            new = b.insert(arith.SelectOp(beyond, region, old)).result
            new_item = b.insert(arith.SelectOp(beyond, item, old_item)).result
            b.insert(StoreOp(new, bound))
            b.insert(StoreOp(new_item, bound_item))

    def following(
        self,
        b: Builder,
        next_region: SSAValue,
        before: Callable[[Builder], None] | None = None,
    ) -> SSAValue:
        """The region to run next: the group's, or 0 (stop) if its work-items
        returned different ids, which is then reported (after what `before`
        emits: the group's earlier faults)."""
        group = b.insert(LoadOp(next_region, i32)).dereferenced_value
        least, least_item, greatest, greatest_item = (
            b.insert(LoadOp(slot, t)).dereferenced_value
            for slot, t in zip(self.slots, (i32, i64) * 2, strict=True)
        )
        diverged = b.insert(arith.CmpiOp(least, greatest, "ne")).result
        pairs = (least, least_item), (greatest, greatest_item)

        def report_it(cold: Builder) -> None:
            if before is not None:
                before(cold)
            self._report(cold, *pairs)

        build_if(b, diverged, report_it)
        stop = const(b, 0, i32)
        return b.insert(arith.SelectOp(diverged, stop, group)).result

    def _report(
        self,
        b: Builder,
        first: tuple[SSAValue, SSAValue],
        second: tuple[SSAValue, SSAValue],
    ) -> None:
        """Records that the work-item `first[1]` (a local linear id) reached the
        region `first[0]`, and `second[1]` the region `second[0]`."""
        ids = [item_ids(b, self.sizes, item) for _, item in (first, second)]
        report(
            b,
            self.record,
            Fault.DIVERGENT_BARRIER,
            self._site(b, first[0]),
            global_id=ids[0][0],
            local_id=ids[0][1],
            site2=self._site(b, second[0]),
            global_id2=ids[1][0],
            local_id2=ids[1][1],
        )

    def _site(self, b: Builder, region: SSAValue) -> SSAValue:
        """The site of region id `region` (i32), `sites[region]`, as an i64: an
        addition when the sites are consecutive (they are new texts), else a
        chain of selects."""
        base = self.sites[0]
        if self.sites == list(range(base, base + len(self.sites))):
            offset = b.insert(arith.ExtUIOp(region, i64)).result
            return b.insert(arith.AddiOp(offset, const(b, base, i64))).result
        site = const(b, base, i64)
        for index, number in enumerate(self.sites[1:], start=1):
            is_it = b.insert(arith.CmpiOp(region, const(b, index, i32), "eq")).result
            number_value = const(b, number, i64)
            site = b.insert(arith.SelectOp(is_it, number_value, site)).result
        return site


def item_ids(
    b: Builder, sizes: Sequence[SSAValue], item: SSAValue
) -> tuple[list[SSAValue], list[SSAValue]]:
    """The global and local ids (x, y, z) of the work-item of local linear id
    `item` (i64) in a group of `sizes`, emitted in the wrapper after a region's
    loops: its global ids are the last work-item's (its ids are still set)
    moved by the difference of local ids, the same group."""
    linear = b.insert(arith.IndexCastOp(item, INDEX)).result
    x = b.insert(arith.RemUIOp(linear, sizes[0])).result
    rows = b.insert(arith.DivUIOp(linear, sizes[0])).result
    y = b.insert(arith.RemUIOp(rows, sizes[1])).result
    z = b.insert(arith.DivUIOp(rows, sizes[1])).result
    local = [b.insert(mux.GetLocalIdOp(const(b, d, i32))).result for d in range(3)]
    glob = [b.insert(mux.GetGlobalIdOp(const(b, d, i32))).result for d in range(3)]
    item_local: list[SSAValue] = [x, y, z]
    item_global: list[SSAValue] = [
        b.insert(arith.AddiOp(b.insert(arith.SubiOp(g, lo)).result, f)).result
        for g, lo, f in zip(glob, local, item_local, strict=True)
    ]
    return item_global, item_local
