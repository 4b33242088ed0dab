"""Barrier regions and live values: the analysis half of `work-item-loops`.

compiler-utils-passes.rst, "WorkItemLoopsPass": "we traverse the CFG and build
inter-barrier regions. We start traversal at the beginning of the function, and at the
barriers, and we end whenever we encounter another barrier or a return statement. We
collect all values that are defined within one region, which have uses in any other
region ... We also collect values that are defined within one region and used in the
same region, but where the definition does not dominate the use" (a barrier in a
loop). Those values live in a per-work-item struct; "Barrier Tidying" recomputes
cheap values instead of storing them.

Here, on a kernel whose body is a CFG (`scf` already lowered to `cf`):

1. `split_at_barriers` splits each block after its `mux.work_group_barrier`, so that
   a barrier always ends a block (`barrier; cf.br ^continuation`). Region 0 starts at
   the entry block, region `i` at the continuation of the `i`-th barrier; a region is
   the blocks reachable from its start without passing a barrier.
2. `LiveValues` classifies every use, region by region: the definition dominates it
   within the region (use the value), it is cheap (clone its definition there:
   constants, work-item queries, casts and integer arithmetic but division, of
   those), or it must be in the live struct (stored right after its definition,
   loaded right before the use, as the spec does: "stores are always created
   immediately after the definitions").
   A private array (`memref.alloca`) used across a barrier lives in the struct
   itself: its memref is the address of its field.
3. `build_region_function` clones a region's blocks into
   `@<kernel>.mux-barrier-region.<i>(<kernel params>, %live: !llvm.ptr) -> i32`, which
   returns the index of the region to run next, 0 when the kernel returned ("Each
   subkernel returns an integer ID that maps to the barriers").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from xdsl.builder import Builder
from xdsl.dialects import arith, cf, func, memref
from xdsl.dialects.builtin import (
    ArrayAttr,
    IndexType,
    IntAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    UnrealizedConversionCastOp,
    VectorType,
    i8,
    i32,
    i64,
)
from xdsl.dialects.llvm import (
    GEPOp,
    LLVMArrayType,
    LLVMPointerType,
    LLVMStructType,
    LoadOp,
    StoreOp,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from dialects import mux
from dialects.mux import AnyFloat, address_space_of
from lowering.common.builders import POINTER, const
from lowering.common.cfg import dominators, reverse_post_order, successors
from lowering.common.errors import PassError
from lowering.common.layout import from_memory, memory_type, storage, to_memory
from lowering.scheduling.uniformity import analyse

BARRIER = mux.WorkGroupBarrierOp

# Ops whose result is recomputed where it is needed instead of being stored.
_CHEAP_CASTS = (
    arith.IndexCastOp,
    arith.ExtSIOp,
    arith.ExtUIOp,
    arith.TruncIOp,
    arith.SIToFPOp,
    arith.UIToFPOp,
    arith.FPToSIOp,
    arith.FPToUIOp,
    arith.ExtFOp,
    arith.TruncFOp,
    arith.BitcastOp,
)
# Integer arithmetic of a cycle or two: index computations such as `id * 2` or
# `row - local_row` are recomputed from their operands rather than kept per
# work-item. Divisions and remainders are not (tens of cycles each).
_CHEAP_ARITHMETIC = (
    arith.AddiOp,
    arith.SubiOp,
    arith.MuliOp,
    arith.AndIOp,
    arith.OrIOp,
    arith.XOrIOp,
    arith.ShLIOp,
    arith.ShRUIOp,
    arith.ShRSIOp,
    arith.CmpiOp,
    arith.SelectOp,
    arith.MinUIOp,
    arith.MaxUIOp,
    arith.MinSIOp,
    arith.MaxSIOp,
)
_REMATERIALISABLE = (
    arith.ConstantOp,
    *mux.QUERY_OPS,
    *_CHEAP_CASTS,
    *_CHEAP_ARITHMETIC,
)


@dataclass
class Region:
    """The blocks run between two barriers (or the entry, or a return)."""

    index: int
    start: Block
    barrier: mux.WorkGroupBarrierOp | None
    """The barrier the region starts after; None for the entry region."""
    blocks: list[Block] = field(default_factory=list)
    """Reverse post-order from `start`: a block comes after its dominators."""
    dominators: dict[Block, set[Block]] = field(default_factory=dict)
    positions: dict[Block, dict[Operation, int]] = field(default_factory=dict)
    """Each block's ops -> their index in it, filled on first use (the blocks are
    not changed once split; xDSL's `get_operation_index` walks the block)."""

    def position(self, op: Operation, block: Block) -> int:
        positions = self.positions.get(block)
        if positions is None:
            positions = {o: i for i, o in enumerate(block.ops)}
            self.positions[block] = positions
        return positions[op]


@dataclass
class BarrierSplit:
    kernel: func.FuncOp
    regions: list[Region]
    exits: dict[Block, int]
    """Each block ending with a barrier -> the index of the region after it."""


def split_at_barriers(kernel: func.FuncOp) -> BarrierSplit:
    """Splits the blocks of `kernel` after each barrier; finds the regions."""
    body = kernel.body
    barriers = [op for op in kernel.walk() if isinstance(op, BARRIER)]
    for barrier in barriers:
        block = barrier.parent_block()
        if block is None or block.parent is not body:
            holder = barrier.parent_op()
            raise PassError(
                f"work-item-loops: a barrier in kernel '{kernel.sym_name.data}' is "
                f"inside {holder.name if holder else 'a region'}: only barriers in "
                "the kernel's own control-flow graph can be scheduled",
                barrier,
            )
    entry = body.blocks.first
    assert entry is not None
    regions = [Region(0, entry, None)]
    exits: dict[Block, int] = {}
    for barrier in barriers:
        block = barrier.parent_block()
        assert block is not None and barrier.next_op is not None
        continuation = block.split_before(barrier.next_op)
        block.add_op(cf.BranchOp(continuation))
        regions.append(Region(len(regions), continuation, barrier))
        exits[block] = len(regions) - 1
    for region in regions:
        edges = partial(_region_successors, exits=exits)
        region.blocks = reverse_post_order(region.start, edges)
        region.dominators = dominators(region.blocks, edges)
    return BarrierSplit(kernel, regions, exits)


def _region_successors(block: Block, exits: dict[Block, int]) -> list[Block]:
    return [] if block in exits else successors(block)


def _top_level(op: Operation, block: Block) -> Operation:
    """The op of `block` that holds `op` (itself, or an ancestor)."""
    while op.parent_block() is not block:
        parent = op.parent_op()
        assert parent is not None
        op = parent
    return op


def _defining_block(value: SSAValue) -> Block | None:
    if isinstance(value, BlockArgument):
        return value.block
    assert isinstance(value, OpResult)
    return value.op.parent_block()


def _dominates(region: Region, value: SSAValue, user: Operation, block: Block) -> bool:
    """Whether the definition of `value` dominates `user` (an op of `block`) within
    `region`."""
    home = _defining_block(value)
    if home is None or home not in region.dominators:
        return False
    if home is block:
        if isinstance(value, BlockArgument):
            return True
        assert isinstance(value, OpResult)
        return region.position(value.op, block) < region.position(user, block)
    return home in region.dominators[block]


def _outer_operands(top: Operation) -> list[SSAValue]:
    """The values `top` and the ops nested in it use but do not define."""
    inner = {r for op in top.walk() for r in op.results}
    inner |= {
        a for op in top.walk() for reg in op.regions for b in reg.blocks for a in b.args
    }
    seen: dict[SSAValue, None] = {}
    for op in top.walk():
        for operand in op.operands:
            if operand not in inner:
                seen[operand] = None
    return list(seen)


def _llvm_type(type_: Attribute) -> Attribute:
    """The type a live value has in the live struct (an `i1` is a byte:
    `types.memory_type`)."""
    if isinstance(type_, IndexType):
        return i64
    if isinstance(type_, IntegerType | AnyFloat | VectorType | LLVMPointerType):
        return memory_type(type_)
    if isinstance(type_, MemRefType):
        space = address_space_of(type_)
        return (
            LLVMPointerType() if space in (0, None) else LLVMPointerType(IntAttr(space))
        )
    raise PassError(f"work-item-loops: a value of type {type_} lives across a barrier")


@dataclass
class LiveValues:
    """What crosses barriers, and how: the fields of the per-work-item struct."""

    kernel_args: set[SSAValue]
    stored: list[SSAValue] = field(default_factory=list)
    """Values stored after their definition and loaded before their uses."""
    arrays: list[OpResult] = field(default_factory=list)
    """Private arrays (memref.alloca) whose storage is a field of the struct."""
    uniform: set[SSAValue] = field(default_factory=set)
    """Stored values that are the same for every work-item
    (`lowering.scheduling.uniformity`): one copy serves the work-group, element 0 of
    their array."""
    carried: dict[SSAValue, set[int]] = field(default_factory=dict)
    """Uniform values that some region both loads and stores (a loop-carried value
    across a barrier in the loop) -> the regions that store them. Their stores go to
    a second field, `next_field`, copied to the first after the work-item loops of
    each of those regions (`copy_carried`), so that every work-item of the region
    loads the value of the previous region, not one a work-item before it stored."""

    def __post_init__(self) -> None:
        self._stored: set[SSAValue] = set()
        self._arrays: set[SSAValue] = set()
        self._rematerialisable: dict[SSAValue, bool] = {}

    def rematerialisable(self, value: SSAValue) -> bool:
        """Whether `value` is recomputed where it is used: a kernel argument, or a
        cheap op (`_REMATERIALISABLE`) of rematerialisable operands."""
        known = self._rematerialisable.get(value)
        if known is None:
            known = value in self.kernel_args or (
                isinstance(value, OpResult)
                and isinstance(value.op, _REMATERIALISABLE)
                and all(self.rematerialisable(o) for o in value.op.operands)
            )
            self._rematerialisable[value] = known
        return known

    def add(self, value: SSAValue) -> None:
        if isinstance(value, OpResult) and isinstance(value.op, memref.AllocaOp):
            if value not in self._arrays:
                self._arrays.add(value)
                self.arrays.append(value)
        elif value not in self._stored:
            self._stored.add(value)
            self.stored.append(value)

    def is_stored(self, value: SSAValue) -> bool:
        return value in self._stored

    def is_array(self, value: SSAValue) -> bool:
        return value in self._arrays

    def struct_type(self, name: str) -> LLVMStructType:
        """The fields of one work-item, in field order (`field_of`)."""
        fields = [_llvm_type(v.type) for v in self.stored]
        for array in self.arrays:
            fields.append(_array_storage(array))
        fields += [_llvm_type(v.type) for v in self.carried]
        return LLVMStructType(StringAttr(name), ArrayAttr(fields))

    def layout(self, struct: LLVMStructType) -> LiveLayout:
        """Where each field of `struct` is kept: see `LiveLayout`."""
        fields = struct.types.data
        sizes = [storage(f) for f in fields]
        order = sorted(range(len(fields)), key=lambda i: -sizes[i][1])
        starts = [0] * len(fields)
        offset = 0
        for i in order:
            starts[i] = offset
            offset += sizes[i][0]
        alignment = max([LIVE_ALIGNMENT, *(a for _, a in sizes)])
        return LiveLayout(starts, offset, alignment)

    def field_of(self, value: SSAValue) -> int:
        if value in self._stored:
            return self.stored.index(value)
        return len(self.stored) + self.arrays.index(value)  # type: ignore[arg-type]

    def next_field(self, value: SSAValue) -> int:
        """The field a carried value's stores go to (see `carried`)."""
        return len(self.stored) + len(self.arrays) + list(self.carried).index(value)

    def store_field(self, value: SSAValue) -> int:
        return self.next_field(value) if value in self.carried else self.field_of(value)


LIVE_ALIGNMENT = 64
"""The least alignment of the live storage: a cache line, and the widest vector."""


@dataclass(frozen=True)
class LiveLayout:
    """The live storage of a work-group, a struct of arrays: field `k` of every
    work-item, one after the other, from byte `starts[k] * items` (`items`: the
    work-items of the group), work-item `i`'s at index `i` of that array.

    So the work-item loops read and write a field at consecutive addresses, which
    LLVM vectorises with plain vector loads and stores (an array of structs needs
    gathers and scatters). Fields are placed by decreasing alignment, and each size
    is a multiple of its alignment, so every array is aligned."""

    starts: list[int]
    item_bytes: int
    """The bytes of one work-item's fields: the storage is `item_bytes * items`."""
    alignment: int


def field_array(
    b: Builder, layout: LiveLayout, index: int, storage: SSAValue, items: SSAValue
) -> SSAValue:
    """The address of field `index`'s array in the live storage `storage` of
    `items` (i64) work-items: element `i` is work-item `i`'s (`LiveLayout`)."""
    start = layout.starts[index]
    if start == 0:
        return storage
    offset = b.insert(arith.MuliOp(items, const(b, start, i64))).result
    return b.insert(
        GEPOp.from_mixed_indices(storage, [offset], i8, inbounds=True)
    ).result


def _array_storage(array: OpResult) -> Attribute:
    type_ = array.type
    assert isinstance(type_, MemRefType)
    if not type_.has_static_shape():
        raise PassError(
            f"work-item-loops: a private array of dynamic shape {type_} lives across "
            "a barrier"
        )
    count = 1
    for d in type_.get_shape():
        count *= d
    return LLVMArrayType(count, _llvm_type(type_.element_type))


def find_live_values(split: BarrierSplit) -> LiveValues:
    """The values some use cannot reach but through the live struct."""
    live = LiveValues(set(split.kernel.args))
    loaded_in: dict[SSAValue, set[int]] = {}
    for region in split.regions:
        for block in region.blocks:
            for top in block.ops:
                if isinstance(top, BARRIER):
                    continue
                for value in _outer_operands(top):
                    if _dominates(region, value, top, block):
                        continue
                    if not live.rematerialisable(value):
                        live.add(value)
                        loaded_in.setdefault(value, set()).add(region.index)
    _share_uniform(split, live, loaded_in)
    return live


def _share_uniform(
    split: BarrierSplit, live: LiveValues, loaded_in: dict[SSAValue, set[int]]
) -> None:
    """Finds the stored values one copy per work-group can hold: uniform ones
    (`lowering.scheduling.uniformity`). In a region that both stores and loads one (a
    loop-carried value across a barrier in the loop), a work-item would read the
    copy another work-item of the same region already updated: such a value is
    `carried` (stored to a second copy) unless, within the region, a load can follow
    its store in one run of a work-item, which needs the value it stored itself:
    then it stays per work-item."""
    uniformity = analyse(split.kernel)
    for value in live.stored:
        if not uniformity.is_uniform(value):
            continue
        block = _defining_block(value)
        stored_in = {r.index for r in split.regions if block in r.blocks}
        both = stored_in & loaded_in.get(value, set())
        if not both:
            live.uniform.add(value)
        elif not any(
            _load_after_store(split.regions[r], value, block, split.exits) for r in both
        ):
            live.uniform.add(value)
            live.carried[value] = stored_in


def _load_after_store(
    region: Region, value: SSAValue, home: Block | None, exits: dict[Block, int]
) -> bool:
    """Whether, in `region`, a block that loads `value` can be reached from `home`,
    the block that defines (and stores) it, without passing a barrier."""
    seen: set[Block] = set()
    work = list(_region_successors(home, exits)) if home is not None else []
    while work:
        block = work.pop()
        if block in seen or block not in region.dominators:
            continue
        seen.add(block)
        work += _region_successors(block, exits)
    return any(
        value in _outer_operands(top) and not _dominates(region, value, top, block)
        for block in seen
        for top in block.ops
    )


def copy_carried(
    b: Builder,
    live: LiveValues,
    layout: LiveLayout,
    struct: LLVMStructType,
    storage: SSAValue,
    items: SSAValue,
    region: int,
) -> None:
    """After the work-item loops of `region`: each carried value it stored goes from
    its `next_field` to its field (element 0 of both), where the next region reads
    it."""
    for value, regions in live.carried.items():
        if region not in regions:
            continue
        source, target = (
            field_array(b, layout, f, storage, items)
            for f in (live.next_field(value), live.field_of(value))
        )
        type_ = struct.types.data[live.next_field(value)]
        carried = b.insert(LoadOp(source, type_)).dereferenced_value
        b.insert(StoreOp(carried, target))


# --------------------------------------------------------------------------------------
# Region functions.
# --------------------------------------------------------------------------------------


class _RegionBuilder:
    """Clones one region into its function, with the live struct's loads and
    stores."""

    def __init__(
        self,
        split: BarrierSplit,
        region: Region,
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
        once, at the start of the function, when the region first uses it."""
        if array not in self.values:
            field_array = self._field_array(self.live.field_of(array))
            b = Builder(
                InsertPoint.after(field_array.op)
                if isinstance(field_array, OpResult)
                else InsertPoint.at_start(self.entry)
            )
            self.values[array] = self._from_struct_address(b, array)
        return self.values[array]

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
    ) -> SSAValue:
        """The address of this work-item's field of `value` (of the work-group's,
        element 0, for a uniform value); field `index` if given."""
        index = self.live.field_of(value) if index is None else index
        field_type = self.struct.types.data[index]
        item = 0 if value in self.live.uniform else self.item
        gep = GEPOp.from_mixed_indices(
            self._field_array(index), [item], field_type, inbounds=True
        )
        return b.insert(gep).result

    def _from_struct_address(self, b: Builder, array: SSAValue) -> SSAValue:
        cast = UnrealizedConversionCastOp.get([self._address(b, array)], [array.type])
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
        its entry block (its ops depend on the parameters alone)."""
        if value in self.live.kernel_args:
            return self.values[value]
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
        for value in _outer_operands(top):
            if self.live.is_array(value):
                mapping[value] = self._array(value)
            elif value in self.live.kernel_args or _dominates(
                self.region, value, top, block
            ):
                mapping[value] = self.values[value]
            elif self.live.is_stored(value):
                mapping[value] = self._load(b, value)
            else:
                mapping[value] = self._rematerialise(value)
        return mapping

    def build(self) -> None:
        exits = self.split.exits
        for block in self.region.blocks:
            clone = self.blocks[block]
            b = Builder(InsertPoint.at_end(clone))
            for arg in block.args:
                if self.live.is_stored(arg):
                    self._store(b, arg, self.values[arg])
            for top in block.ops:
                if isinstance(top, BARRIER):
                    assert block in exits
                    b.insert(func.ReturnOp(const(b, exits[block], i32)))
                    break
                if isinstance(top, func.ReturnOp):
                    b.insert(func.ReturnOp(const(b, 0, i32)))
                    break
                if isinstance(top, memref.AllocaOp) and self.live.is_array(top.memref):
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
    region: Region,
    live: LiveValues,
    struct: LLVMStructType,
    name: str,
) -> func.FuncOp:
    """`@name(<kernel params>, %live: !llvm.ptr, %item: i64, %items: i64) -> i32`
    running `region` for work-item `%item` (its local linear id) of `%items`, whose
    live values are in the storage `%live` (`LiveLayout`)."""
    inputs = [*split.kernel.function_type.inputs.data, POINTER, i64, i64]
    fn = func.FuncOp(name, (inputs, [i32]), visibility="private")
    entry = fn.body.blocks.first
    assert entry is not None
    for arg, original in zip(entry.args, split.kernel.args, strict=False):
        arg.name_hint = original.name_hint
    for arg, hint in zip(entry.args[-3:], ("live", "item", "items"), strict=True):
        arg.name_hint = hint
    _RegionBuilder(split, region, live, struct, fn).build()
    return fn


def live_array(
    b: Builder,
    live: LiveValues,
    layout: LiveLayout,
    storage_ptr: SSAValue,
    items: SSAValue,
    value: SSAValue,
) -> SSAValue:
    """The address of the array of `value`'s field in the live storage `storage_ptr`
    of `items` (i64) work-items: element `i` is work-item `i`'s. For the wrapper,
    which reads and writes the fields of every work-item between two regions (the
    work-group collectives of `lowering.scheduling.group_exchanges`)."""
    return field_array(b, layout, live.field_of(value), storage_ptr, items)
