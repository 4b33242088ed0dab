"""Region functions: each barrier region cloned into a function of one work-item.

`build_region_function` clones a region's blocks (`lowering.scheduling.regions`) into

    @<kernel>.mux-barrier-region.<i>(<kernel params>, %live: !llvm.ptr,
                                     %item: i64, %items: i64) -> i32

which runs the region for work-item `%item` of `%items` and returns the index of the
region to run next, 0 when the kernel returned ("Each subkernel returns an integer ID
that maps to the barriers"). Within it each use of a kernel value takes it from where
`lowering.scheduling.live_values` keeps it: the value itself where its definition
dominates the use in the region, a load from the live storage `%live` for a stored
value, a clone of its cheap definition (in a prologue at the function's start) for a
rematerialisable one, the address of its field for a private array. Each stored
value is stored right after its definition.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    IndexType,
    MemRefType,
    UnrealizedConversionCastOp,
    i32,
    i64,
)
from xdsl.dialects.llvm import GEPOp, LLVMPointerType, LLVMStructType, LoadOp, StoreOp
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from dialects.attributes import CHECK_BOOKKEEPING
from lowering.common.builders import POINTER, build_if, const
from lowering.common.layout import from_memory, to_memory
from lowering.scheduling.live_values import LiveValues, field_array
from lowering.scheduling.regions import (
    BARRIER,
    BarrierRegion,
    BarrierSplit,
    outer_operands,
)


class _RegionBuilder:
    """Clones one region into its function, with the live struct's loads and
    stores."""

    def __init__(
        self,
        split: BarrierSplit,
        region: BarrierRegion,
        live: LiveValues,
        struct: LLVMStructType,
        fn: func.FuncOp,
    ):
        self.split, self.region, self.live, self.struct = split, region, live, struct
        self.fn = fn
        self.layout = live.layout(struct)
        entry = fn.body.blocks.first
        assert entry is not None
        self.entry = entry
        *params, self.storage, self.item, self.items = entry.args
        if live.apart:
            *params, self.apart = params
        self.field_arrays: dict[int, SSAValue] = {}
        self.rematerialised: dict[SSAValue, SSAValue] = {}
        self.prologue_end: Operation | None = None
        """The last op of the prologue of rematerialised values."""
        self.values: dict[SSAValue, SSAValue] = dict(
            zip(split.kernel.args, params, strict=True)
        )
        self.blocks: dict[Block, Block] = {region.start: entry}
        for block in region.blocks[1:]:
            clone = Block(arg_types=[a.type for a in block.args])
            self.blocks[block] = clone
            fn.body.add_block(clone)
            for arg, new in zip(block.args, clone.args, strict=True):
                new.name_hint = arg.name_hint
                self.values[arg] = new

    def _array(self, array: SSAValue) -> SSAValue:
        """A private array of the kernel: its field in the live storage, addressed
        once, at the start of the function, when the region first uses it. The
        address ops open the prologue if it is still empty, so that rematerialised
        addresses into the array (`_rematerialise`) come after them."""
        if array not in self.values:
            field_array = self._field_array(self.live.field_of(array))
            b = Builder(
                InsertPoint.after(field_array.op)
                if isinstance(field_array, OpResult)
                else InsertPoint.at_start(self.entry)
            )
            address = self._from_struct_address(b, array)
            self.values[array] = address
            if self.prologue_end is None:
                self.prologue_end = address.op
        return self.values[array]

    def _apart_words(self) -> None:
        """The arrays kept apart (`LiveValues.apart`), each this function's own
        `memref<1xi64>` (so that LLVM keeps it in a register), zeroed at its
        start and copied to the work-item's word in `%apart` before each
        return (`_copy_apart`): a work-item's faults in this region."""
        b = Builder(InsertPoint.at_start(self.entry))
        zero, first = const(b, 0, i64), const(b, 0)
        for array in self.live.apart:
            alloca = b.insert(memref.AllocaOp.get(i64, shape=[1]))
            store = b.insert(memref.StoreOp.get(zero, alloca.memref, [first]))
            for op in (alloca, store):
                CHECK_BOOKKEEPING.set(op, True)
            self.values[array] = alloca.memref

    def _copy_apart(self, b: Builder) -> None:
        """This region's faults added to the work-item's words in `%apart`:
        its count (the last word) to the count, the first fault (the others)
        kept if the work-item has none there yet (`%apart`'s first word 0).
        Nothing is stored without a fault, so that the work-item loops hold
        no store of their own."""
        first = const(b, 0)
        words = [
            b.insert(memref.LoadOp.get(self.values[array], [first])).res
            for array in self.live.apart
        ]
        *kept, count = words
        faulted = b.insert(arith.CmpiOp(count, const(b, 0, i64), "ne")).result

        def store(inner: Builder) -> None:
            counted = self._apart_word(inner, len(kept))
            old = inner.insert(LoadOp(counted, i64)).dereferenced_value
            total = inner.insert(arith.AddiOp(old, count)).result
            inner.insert(StoreOp(total, counted))
            site = self._apart_word(inner, 0)
            old = inner.insert(LoadOp(site, i64)).dereferenced_value
            none = arith.CmpiOp(old, const(inner, 0, i64), "eq")

            def keep(innermost: Builder) -> None:
                for word, value in enumerate(kept):
                    self._store_apart(innermost, word, value)

            build_if(inner, inner.insert(none).result, keep)

        CHECK_BOOKKEEPING.set(build_if(b, faulted, store), True)

    def _apart_word(self, b: Builder, word: int) -> SSAValue:
        start = b.insert(arith.MuliOp(const(b, word, i64), self.items)).result
        at = b.insert(arith.AddiOp(start, self.item)).result
        gep = GEPOp.from_mixed_indices(self.apart, [at], i64, inbounds=True)
        return b.insert(gep).result

    def _store_apart(self, b: Builder, word: int, value: SSAValue) -> None:
        b.insert(StoreOp(value, self._apart_word(b, word)))

    def _field_array(self, index: int) -> SSAValue:
        """The array of field `index` (at the start of the function, once)."""
        if index not in self.field_arrays:
            first = self.entry.first_op
            b = Builder(
                InsertPoint.before(first) if first else InsertPoint.at_end(self.entry)
            )
            array = field_array(b, self.layout, index, self.storage, self.items)
            if array is not self.storage:
                array.name_hint = f"field{index}"
            self.field_arrays[index] = array
        return self.field_arrays[index]

    def _address(
        self, b: Builder, value: SSAValue, index: int | None = None
    ) -> OpResult:
        """The address of this work-item's field of `value` (of the work-group's,
        element 0, for a uniform value); field `index` if given."""
        index = self.live.field_of(value) if index is None else index
        field_type = self.struct.types.data[index]
        item = 0 if value in self.live.uniform else self.item
        gep = GEPOp.from_mixed_indices(
            self._field_array(index), [item], field_type, inbounds=True
        )
        return b.insert(gep).result

    def _from_struct_address(self, b: Builder, array: SSAValue) -> OpResult:
        if isinstance(array.type, LLVMPointerType):  # an llvm.alloca's: as it is
            result = self._address(b, array)
        else:
            cast = UnrealizedConversionCastOp.get(
                [self._address(b, array)], [array.type]
            )
            result = b.insert(cast).results[0]
        result.name_hint = array.name_hint
        return result

    def _store(self, b: Builder, original: SSAValue, value: SSAValue) -> None:
        index = self.live.store_field(original)
        field_type = self.struct.types.data[index]
        if isinstance(value.type, IndexType):
            value = b.insert(arith.IndexCastOp(value, i64)).result
        elif isinstance(value.type, MemRefType):
            value = b.insert(
                UnrealizedConversionCastOp.get([value], [field_type])
            ).results[0]
        value = to_memory(b, value)
        b.insert(StoreOp(value, self._address(b, original, index)))

    def _load(self, b: Builder, original: SSAValue) -> SSAValue:
        field_type = self.struct.types.data[self.live.field_of(original)]
        value = b.insert(
            LoadOp(self._address(b, original), field_type)
        ).dereferenced_value
        if isinstance(original.type, IndexType):
            value = b.insert(arith.IndexCastOp(value, IndexType())).result
        elif isinstance(original.type, MemRefType):
            value = b.insert(
                UnrealizedConversionCastOp.get([value], [original.type])
            ).results[0]
        else:
            value = from_memory(b, value, original.type)
        value.name_hint = original.name_hint
        return value

    def _rematerialise(self, value: SSAValue) -> SSAValue:
        """`value` recomputed once per function, in the prologue at the start of
        its entry block (its ops depend on the parameters and the addresses of the
        private arrays alone)."""
        if value in self.live.kernel_args:
            return self.values[value]
        if self.live.is_array(value):
            return self._array(value)
        if value in self.rematerialised:
            return self.rematerialised[value]
        assert isinstance(value, OpResult)
        operands = {o: self._rematerialise(o) for o in value.op.operands}
        clone = value.op.clone(value_mapper=operands)
        Rewriter.insert_op(
            clone,
            InsertPoint.after(self.prologue_end)
            if self.prologue_end is not None
            else InsertPoint.at_start(self.entry),
        )
        self.prologue_end = clone
        for original, new in zip(value.op.results, clone.results, strict=True):
            self.rematerialised[original] = new
        return self.rematerialised[value]

    def _resolve(self, b: Builder, top: Operation, block: Block) -> dict:
        """The values `top` uses, in the region function, at `top`'s place."""
        mapping: dict[SSAValue, SSAValue] = {}
        for value in outer_operands(top):
            if self.live.is_array(value):
                mapping[value] = self._array(value)
            elif value in self.live.kernel_args or self.region.dominates(
                value, top, block
            ):
                mapping[value] = self.values[value]
            elif self.live.is_stored(value):
                mapping[value] = self._load(b, value)
            else:
                mapping[value] = self._rematerialise(value)
        return mapping

    def build(self) -> None:
        exits = self.split.exits
        if self.live.apart:
            self._apart_words()
        for block in self.region.blocks:
            clone = self.blocks[block]
            b = Builder(InsertPoint.at_end(clone))
            for arg in block.args:
                if self.live.is_stored(arg):
                    self._store(b, arg, self.values[arg])
            for top in block.ops:
                if isinstance(top, BARRIER | func.ReturnOp) and self.live.apart:
                    self._copy_apart(b)
                if isinstance(top, BARRIER):
                    assert block in exits
                    b.insert(func.ReturnOp(const(b, exits[block], i32)))
                    break
                if isinstance(top, func.ReturnOp):
                    b.insert(func.ReturnOp(const(b, 0, i32)))
                    break
                if top.results and self.live.is_array(top.results[0]):
                    continue  # the array is the struct's field
                mapping = self._resolve(b, top, block)
                new = b.insert(
                    top.clone(value_mapper=mapping, block_mapper=self.blocks)
                )
                for original, result in zip(top.results, new.results, strict=True):
                    self.values[original] = result
                    if self.live.is_stored(original):
                        self._store(b, original, result)


def build_region_function(
    split: BarrierSplit,
    region: BarrierRegion,
    live: LiveValues,
    struct: LLVMStructType,
    name: str,
) -> func.FuncOp:
    """`@name(<kernel params>, %live: !llvm.ptr, %item: i64, %items: i64) -> i32`
    running `region` for work-item `%item` (its local linear id) of `%items`, whose
    live values are in the storage `%live` (`live_values.LiveLayout`); with
    arrays kept apart (`LiveValues.apart`), their storage's address `%apart`
    comes before `%live`."""
    apart = [POINTER] if live.apart else []
    inputs = [*split.kernel.function_type.inputs.data, *apart, POINTER, i64, i64]
    fn = func.FuncOp(name, (inputs, [i32]), visibility="private")
    entry = fn.body.blocks.first
    assert entry is not None
    for arg, original in zip(entry.args, split.kernel.args, strict=False):
        arg.name_hint = original.name_hint
    for arg, hint in zip(entry.args[-3:], ("live", "item", "items"), strict=True):
        arg.name_hint = hint
    _RegionBuilder(split, region, live, struct, fn).build()
    return fn
