"""Checked mode: the bounds faults of a kernel with barriers, reported when
its work-group ends, by `work-item-loops`.

`check-access-bounds` keeps a work-item's first bounds fault and its count in
private words, with no call (`lowering.common.check_record.DeferredReport`,
the allocas marked `mux.check_fault_word`). Here they are kept apart from the
live storage (`LiveValues.apart`): each region function has its own copy of
the words, zeroed at its start (LLVM keeps them in registers), and before
each return, if the work-item faulted in the region, adds its count to the
work-item's word in the wrapper's storage `%apart` and keeps its first fault
there if it has none yet (`region_functions._copy_apart`). A work-item without
faults stores nothing, so the work-item loops hold neither a call nor a store
of their own, and LLVM vectorises them as it does unchecked. Those ops are
marked `mux.check_bookkeeping`, which the bound functions take as doing
nothing (a work-item they skip makes no access, so no fault).

The wrapper zeroes the words it reads (first fault, count) when the group
starts, and when the group ends (its return, or a divergence, before that is
reported) looks for faults in a loop over the work-items:

    %faults, %first = sum of %count[i], least i with %count[i] != 0
    scf.if (%faults != 0) {
      func.call @__mux_check_report_region_out_of_bounds(%record,
          %site[%first], %element[%first], %offset[%first], %first, %faults)
    }

The fault a group records is then its lowest faulting work-item's first, in
program order (the kernel without barriers records its lowest work-item's
too: the last region runs them in order); the others are counted.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr, i32, i64
from xdsl.dialects.llvm import GEPOp, LoadOp, StoreOp
from xdsl.ir import Block, SSAValue
from xdsl.rewriter import InsertPoint

from dialects import atomic, mux
from dialects import attributes as mux_attrs
from lowering.common.builders import INDEX, build_if, const
from lowering.common.check_record import (
    COUNT,
    RECORD_TYPE,
    DeferredReport,
    Fault,
    report,
)
from lowering.scheduling.divergence import item_ids


def fault_words(kernel: func.FuncOp) -> list[SSAValue]:
    """The private words of `kernel`'s deferred bounds faults, in
    `DeferredReport` order; none if it has none."""
    words: dict[int, SSAValue] = {}
    for op in kernel.walk():
        word = mux_attrs.CHECK_FAULT_WORD.get(op)
        if word is not None:
            words[word] = op.results[0]
    return [words[w] for w in sorted(words)]


@dataclass
class RegionFaults:
    """The wrapper's side: the record, the words' arrays and the work-group's
    count of work-items."""

    record: SSAValue
    arrays: list[SSAValue]
    items: SSAValue
    """The count of work-items, an index."""

    @staticmethod
    def build(
        b: Builder, wrapper: func.FuncOp, apart: SSAValue, count: SSAValue
    ) -> RegionFaults:
        """The state of `wrapper`, whose fault words are in the storage
        `apart` (`LiveValues.apart`: word `k` of work-item `i` at `k * count +
        i`) of a work-group of `count` (i64) work-items; no work-item has a
        fault yet (their first words and counts zeroed)."""
        index = mux_attrs.CHECK_RECORD.get(wrapper)
        assert index is not None, "check-access-bounds gave the kernel its record"
        arrays = []
        for word in DeferredReport.WORDS:
            start = b.insert(arith.MuliOp(const(b, word, i64), count)).result
            gep = GEPOp.from_mixed_indices(apart, [start], i64, inbounds=True)
            arrays.append(b.insert(gep).result)
        items = b.insert(arith.IndexCastOp(count, INDEX)).result
        state = RegionFaults(wrapper.args[index], arrays, items)
        state._zero(b, (DeferredReport.SITE_WORD, DeferredReport.COUNT_WORD))
        return state

    def flush(self, b: Builder, module: ModuleOp) -> None:
        """When the group returns or stops at a divergence (before it is
        reported): the faults counted and the lowest faulting work-item found
        (a loop over the work-items, which LLVM vectorises); if any, its first
        fault reported and the others counted, by a call of the module's cold
        function, and the counts zeroed."""
        zero, none = const(b, 0, i64), const(b, -1, i64)
        block = Block(arg_types=[INDEX, i64, i64])
        loop = scf.ForOp(const(b, 0), self.items, const(b, 1), [zero, none], block)
        b.insert(loop)
        inner = Builder(InsertPoint.at_end(block))
        index, faults, first = block.args
        item = inner.insert(arith.IndexCastOp(index, i64)).result
        at = self._address(inner, DeferredReport.COUNT_WORD, item)
        count = inner.insert(LoadOp(at, i64)).dereferenced_value
        more = inner.insert(arith.AddiOp(faults, count)).result
        faulted = inner.insert(arith.CmpiOp(count, const(inner, 0, i64), "ne"))
        candidate = arith.SelectOp(faulted.result, item, const(inner, -1, i64))
        candidate = inner.insert(candidate).result
        lowest = inner.insert(arith.MinUIOp(first, candidate)).result
        inner.insert(scf.YieldOp(more, lowest))
        faults, first = loop.results
        any_ = b.insert(arith.CmpiOp(faults, zero, "ne")).result
        build_if(b, any_, lambda cold: self._report(cold, module, faults, first))

    def _report(
        self, b: Builder, module: ModuleOp, faults: SSAValue, item: SSAValue
    ) -> None:
        site, a, b_ = (
            b.insert(LoadOp(self._address(b, word, item), i64)).dereferenced_value
            for word in _KEPT
        )
        arguments = [self.record, site, a, b_, item, faults]
        b.insert(func.CallOp(_report_function(module).sym_name.data, arguments, []))
        self._zero(b, (DeferredReport.COUNT_WORD,))

    def _zero(self, b: Builder, words: tuple[int, ...]) -> None:
        """`words` of every work-item zeroed (a loop, which LLVM makes a
        memset)."""
        block = Block(arg_types=[INDEX])
        loop = scf.ForOp(const(b, 0), self.items, const(b, 1), [], block)
        b.insert(loop)
        inner = Builder(InsertPoint.at_end(block))
        item = inner.insert(arith.IndexCastOp(block.args[0], i64)).result
        for word in words:
            address = self._address(inner, word, item)
            inner.insert(StoreOp(const(inner, 0, i64), address))
        inner.insert(scf.YieldOp())

    def _address(self, b: Builder, word: int, item: SSAValue) -> SSAValue:
        at = self.arrays[word]
        return b.insert(GEPOp.from_mixed_indices(at, [item], i64, inbounds=True)).result


_KEPT = (DeferredReport.SITE_WORD, DeferredReport.A_WORD, DeferredReport.B_WORD)
"""The words of a work-item's first fault."""


REPORT = "__mux_check_report_region_out_of_bounds"


def _report_function(module: ModuleOp) -> func.FuncOp:
    """`@__mux_check_report_region_out_of_bounds(%record, %site, %a, %b, %item,
    %faults)`, made on first use, `noinline` and `cold`: reports the bounds
    fault at site `%site - 1` (element `%a`, byte offset `%b`) of the work-item
    of local linear id `%item`, and `%faults - 1` more."""
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == REPORT:
            return op
    fn = func.FuncOp(REPORT, ([RECORD_TYPE, *[i64] * 5], []), visibility="private")
    never_inlined = [StringAttr("noinline"), StringAttr("cold")]
    fn.attributes["passthrough"] = ArrayAttr(never_inlined)
    record, site, a, b_, item, faults = fn.body.block.args
    b = Builder(InsertPoint.at_end(fn.body.block))
    sizes = [b.insert(mux.GetLocalSizeOp(const(b, d, i32))).result for d in range(3)]
    one = const(b, 1, i64)
    number = b.insert(arith.SubiOp(site, one)).result
    global_id, local_id = item_ids(b, sizes, item)
    kind = Fault.OUT_OF_BOUNDS
    report(b, record, kind, number, global_id=global_id, local_id=local_id, a=a, b=b_)
    others = b.insert(arith.SubiOp(faults, one)).result
    b.insert(atomic.RMWOp("add", "monotonic", record, [const(b, COUNT)], others))
    b.insert(func.ReturnOp())
    module.body.block.add_op(fn)
    return fn
