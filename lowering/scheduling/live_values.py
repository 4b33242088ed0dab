"""Live values: what crosses a barrier, and where it is kept between regions.

compiler-utils-passes.rst, "WorkItemLoopsPass": "We collect all values that are
defined within one region, which have uses in any other region ... We also collect
values that are defined within one region and used in the same region, but where
the definition does not dominate the use" (a barrier in a loop). Those values live
in a per-work-item struct; "Barrier Tidying" recomputes cheap values instead of
storing them.

`find_live_values` classifies every use of a barrier split
(`lowering.scheduling.regions`), region by region: the definition dominates it
within the region (use the value), it is cheap (clone its definition there:
constants, work-item queries, casts and integer arithmetic but division, of those),
or it must be in the live struct (stored right after its definition, loaded right
before the use, as the spec does: "stores are always created immediately after the
definitions"). A private array (`memref.alloca`, `llvm.alloca`) used across a
barrier lives in the struct itself: its memref is the address of its field. So does
one an address crossing a barrier points into: the address is recomputed from the
field when it can be (`private_address`), else kept, pointing into the field. A
stored value the same for every work-item (`lowering.scheduling.uniformity`) has
one copy per work-group.

The live storage of a work-group is a struct of arrays (`LiveLayout`): field `k` of
every work-item one after the other, so that the work-item loops read and write a
field at consecutive addresses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeGuard

from xdsl.builder import Builder
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    ArrayAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    VectorType,
    i8,
    i64,
)
from xdsl.dialects.llvm import (
    AllocaOp,
    GEPOp,
    LLVMArrayType,
    LLVMPointerType,
    LLVMStructType,
    LoadOp,
    SelectOp,
    StoreOp,
)
from xdsl.dialects.llvm import ConstantOp as LLVMConstantOp
from xdsl.ir import Attribute, Block, BlockArgument, OpResult, SSAValue

from dialects import mux
from dialects.mux import AnyFloat, address_space_of
from lowering.common.builders import const
from lowering.common.cfg import incoming, reachable
from lowering.common.errors import PassError
from lowering.common.layout import memory_type, storage
from lowering.scheduling.regions import (
    BARRIER,
    BarrierRegion,
    BarrierSplit,
    defining_block,
    outer_operands,
)
from lowering.scheduling.uniformity import analyse

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


def _field_type(type_: Attribute) -> Attribute:
    """The type a live value has in the live struct (an `i1` is a byte:
    `lowering.common.layout.memory_type`)."""
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


def private_array(value: SSAValue) -> TypeGuard[OpResult]:
    """Whether `value` is a private array of a work-item: a `memref.alloca`, or an
    `llvm.alloca` of a constant count (OpenCL C's private variables whose address
    is taken, as the importer gives them). Across a barrier each work-item's lives
    in its own field of the live storage, not on a region function's stack."""
    if not isinstance(value, OpResult):
        return False
    if isinstance(value.op, memref.AllocaOp):
        return True
    return isinstance(value.op, AllocaOp) and _alloca_count(value.op) is not None


def private_address(
    value: SSAValue, rematerialisable: Callable[[SSAValue], bool]
) -> OpResult | None:
    """The private array (`private_array`) `value` points into when it is the
    array itself or a chain of `llvm.getelementptr`s from it whose dynamic indices
    are `rematerialisable`, else None.

    Such an address is recomputed after a barrier from the array's field in the
    live storage, where the work-item's copy is: a pointer kept in the live storage
    instead would point where the array was when it was taken, the stack of a
    region function that has returned (`&s.y` taken before a barrier and
    dereferenced after it, UnitCL's barrier_store_mask)."""
    while isinstance(value, OpResult) and isinstance(value.op, GEPOp):
        if not all(rematerialisable(i) for i in value.op.ssa_indices):
            return None
        value = value.op.ptr
    return value if private_array(value) else None


def _pointed_arrays(pointer: SSAValue) -> set[OpResult]:
    """The private arrays a pointer kept in the live storage may point into: its
    bases through `llvm.getelementptr`s, selects and block arguments (phis). They
    live in the live storage too, so that the pointer still points at the
    work-item's copy after the region that took it returned. A pointer loaded from
    memory or returned by a call is not followed: a private array whose address is
    stored in memory across a barrier stays unsupported."""
    arrays: set[OpResult] = set()
    seen: set[SSAValue] = set()
    work = [pointer] if isinstance(pointer.type, LLVMPointerType) else []
    while work:
        value = work.pop()
        if value in seen:
            continue
        seen.add(value)
        if private_array(value):
            arrays.add(value)
        elif isinstance(value, BlockArgument):
            work += incoming(value) or []
        elif isinstance(value.owner, GEPOp):
            work.append(value.owner.ptr)
        elif isinstance(value.owner, arith.SelectOp | SelectOp):
            work += value.owner.operands[1:]
    return arrays


def _alloca_count(op: AllocaOp) -> int | None:
    size = op.size.owner
    if isinstance(size, LLVMConstantOp | arith.ConstantOp):
        value = size.value
        if isinstance(value, IntegerAttr):
            return value.value.data
    return None


def _array_field_type(array: OpResult) -> Attribute:
    """The field holding a private array: an `!llvm.array` of its elements; for an
    `llvm.alloca`, of `vector<A x i8>` chunks, A its alignment (the alloca's own,
    which may exceed its type's: `__attribute__((aligned(16)))`), so that every
    work-item's copy is as aligned as the kernel's loads may assume."""
    if isinstance(array.op, AllocaOp):
        count = _alloca_count(array.op)
        assert count is not None
        size, natural = storage(array.op.elem_type)
        requested = array.op.alignment.value.data if array.op.alignment else 0
        align = max(natural, requested, 1)
        chunks = max(1, -(-size * count // align))
        return LLVMArrayType(chunks, VectorType(IntegerType(8), [align]))
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
    return LLVMArrayType(count, _field_type(type_.element_type))


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
    apart: list[OpResult] = field(default_factory=list)
    """Private arrays of one i64 kept out of the struct, in a storage of their
    own (`set_apart`): checked mode's fault words, which the wrapper reads
    when the group ends (`lowering.scheduling.region_faults`). Array `k` of it
    is `items` words, one per work-item; the region functions take its address
    (`%apart`) and have their own copy of each word. Apart, nothing indexes the
    struct by work-item for them, and LLVM keeps its fields at constant
    offsets (the uniform values) in registers (SROA)."""
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
        self._kept: set[SSAValue] = set()

    def rematerialisable(self, value: SSAValue) -> bool:
        """Whether `value` is recomputed where it is used: a kernel argument, a
        cheap op (`_REMATERIALISABLE`) of rematerialisable operands, or an address
        into a private array (`private_address`)."""
        known = self._rematerialisable.get(value)
        if known is None:
            known = (
                value in self.kernel_args
                or private_address(value, self.rematerialisable) is not None
                or (
                    isinstance(value, OpResult)
                    and isinstance(value.op, _REMATERIALISABLE)
                    and all(self.rematerialisable(o) for o in value.op.operands)
                )
            )
            self._rematerialisable[value] = known
        return known

    def keep(self, value: SSAValue) -> None:
        """Keeps `value`, used where its definition does not dominate the use, in
        the live storage: the value itself, or, for a rematerialisable one, the
        private arrays its recomputation addresses (`private_address`)."""
        if value in self._kept:
            return
        self._kept.add(value)
        if not self.rematerialisable(value):
            self.add(value)
            for array in _pointed_arrays(value):
                self.add(array)
            return
        array = private_address(value, self.rematerialisable)
        if array is not None:
            self.add(array)
        elif isinstance(value, OpResult) and value not in self.kernel_args:
            for operand in value.op.operands:
                self.keep(operand)

    def add(self, value: SSAValue) -> None:
        if private_array(value):
            if value not in self._arrays:
                self._arrays.add(value)
                self.arrays.append(value)
        elif value not in self._stored:
            self._stored.add(value)
            self.stored.append(value)

    def is_stored(self, value: SSAValue) -> bool:
        return value in self._stored

    def set_apart(self, arrays: list[SSAValue]) -> None:
        """Keeps `arrays` (private `memref<1xi64>` arrays) apart (`apart`),
        whatever their uses."""
        for array in arrays:
            assert isinstance(array, OpResult) and private_array(array), array
            if array in self._arrays and array in self.arrays:
                self.arrays.remove(array)
            self._arrays.add(array)
            self.apart.append(array)

    def is_array(self, value: SSAValue) -> bool:
        return value in self._arrays

    def struct_type(self, name: str) -> LLVMStructType:
        """The fields of one work-item, in field order (`field_of`)."""
        fields = [_field_type(v.type) for v in self.stored]
        for array in self.arrays:
            fields.append(_array_field_type(array))
        fields += [_field_type(v.type) for v in self.carried]
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
        assert isinstance(value, OpResult), value  # not stored: a private array
        return len(self.stored) + self.arrays.index(value)

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


def find_live_values(split: BarrierSplit) -> LiveValues:
    """The values some use cannot reach but through the live struct."""
    live = LiveValues(set(split.kernel.args))
    loaded_in: dict[SSAValue, set[int]] = {}
    for region in split.regions:
        for block in region.blocks:
            for top in block.ops:
                if isinstance(top, BARRIER):
                    continue
                for value in outer_operands(top):
                    if region.dominates(value, top, block):
                        continue
                    live.keep(value)
                    if live.is_stored(value):
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
        block = defining_block(value)
        stored_in = {r.index for r in split.regions if block in r.blocks}
        both = stored_in & loaded_in.get(value, set())
        if not both:
            live.uniform.add(value)
        elif not any(
            _reloaded_after_store(split, split.regions[r], value, block) for r in both
        ):
            live.uniform.add(value)
            live.carried[value] = stored_in


def _reloaded_after_store(
    split: BarrierSplit, region: BarrierRegion, value: SSAValue, home: Block | None
) -> bool:
    """Whether, in `region`, a block that loads `value` can be reached from `home`,
    the block that defines (and stores) it, without passing a barrier."""

    def edges(block: Block) -> list[Block]:
        return [s for s in split.successors(block) if s in region.dominators]

    after = reachable(edges(home), edges) if home is not None else set()
    return any(
        value in outer_operands(top) and not region.dominates(value, top, block)
        for block in after
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
