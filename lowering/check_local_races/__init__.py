"""`check-local-races`: checked mode's data-race check on local memory (issue 17).

The spec has no such pass (checked mode is ours, as lower-printf is; the
model is oclgrind's data-race check): two work-items of a group touching the
same local byte between the same two barriers, at least one writing, not both
atomically, is a race, since only a barrier orders them (mux-compiler-spec.rst,
"Memory and Control Barriers": `__mux_work_group_barrier` waits for all
invocations of the work-group and orders their memory accesses). It runs in the
host pipeline only when checked (`HostPipeline.checked`), after `run-vecz` and
`check-access-bounds` (which inlines the functions a kernel calls: their
accesses are then the kernel's; it must neither inline this pass's functions
nor check the shadow, a parameter the runtime does not know), before
`work-item-loops`.

For each kernel entry point that accesses local memory (address space 3):

- a parameter `%shadow: memref<?xi64>` is appended (`mux.local_shadow` gives its
  index; `add-kernel-wrapper` allocates it with the work-group's local memory,
  as one block: `lowering.common.local_shadow`), with a word per cell of
  `2**mux.local_cell` bytes (`cells.cell_shift`: the largest cell every
  access of the kernel covers whole), and the check record
  (`lowering.common.check_record.record_param`);
- before each access (`memref`, `vector`, `llvm` loads and stores, `atomic` and
  `llvmx` atomics, `llvmx.memcpy` to or from local memory), its check, with its
  access word (its kind, the local linear id, the tag of the shadow's epoch,
  its check site: "store to local parameter 'scratch' at reduce.cl:19:18"):
  inline for an access of one cell (the cell's word loaded and compared; only
  if the access changes it, the word stored or updated, `functions.step`), a
  call of `@__mux_check_local_access` for more cells. If the check finds an
  earlier access it races with, the access reports `Fault.LOCAL_RACE` with
  both work-items, both sites, the byte offset of the access in what it
  accesses (the parameter its address is traced to; else the work-group's
  local memory) (`a`) and its size (`b`);
- but a read in a barrier interval where nothing writes local memory or
  accesses it atomically (`intervals`: the kernel's code cut at the barriers
  of the group, in connected pieces): a read races only with a write, and
  such a read is left unchecked (transpose's and sgemm_tiled's reads of their
  tiles);
- and any access of a class of intervals proven free of races at compile
  time (`proof`: with the work-group size known, as it is for a launch, the
  element each work-item touches, computed for every value of the loop
  variables: reduce's and scan's tree steps).

The epochs are not the kernel's to count: the barrier wrapper of
`work-item-loops` starts the shadow's next epoch after each barrier
(`local_shadow`), so the work-item loops keep no per-work-item counter and the
regions keep their bound functions.

**No false report.** The work-item loops run every work-item of the group to a
barrier before any runs past it, and the wrapper starts the next epoch
between the two, which makes the accesses before the barrier count as empty:
a race is only reported between accesses of one barrier interval. A cell is
always accessed whole, so it holds what a byte's word would. A sub-group op
that is no barrier of the group (sub-groups of one work-item) starts no epoch
and orders nothing. Accesses in a function the kernel still calls are not
checked (they are not in the shadow: races there are missed, not invented).

**Packets.** `run-vecz`'s copy of a kernel (a packet of lanes, `packets`) is
kept when every local access of it that needs a check is a contiguous vector
access (`vector.load`/`store`, masked or not, of whole cells): each active lane
is then checked as its work-item is in the scalar kernel, lanes in order, by
`@__mux_check_local_lanes` (lane `i` is the work-item of local linear id
`mux.get_local_linear_id` + `i`, its race reported with its ids), or at once,
as vectors, for lanes of one cell each unless one races (`packets`), and the
packet gets the shadow as the kernel does (`work-item-loops` passes the
kernel's parameters to both, and its wrapper starts the epochs of both). A
packet with any other local access (a scalar one, uniform or made for one
lane: which lanes make it is not known), of several rows, or whose lanes are
not whole cells, is dropped (`mux.vecz_fail` says why) and the kernel runs
scalar: checking such an access for lane 0 alone would miss races, for every
lane invent them (lanes masked off).

Before: `lift-llvm-ops` (accesses as `memref` ops where they can be),
`prepare-barriers` (barriers in the kernel, numbered), `replace-module-scope-vars`
(module-scope locals as a parameter), `check-access-bounds` in checked mode.
After: `work-item-loops` (starts the epochs), `add-kernel-wrapper` (allocates
the local memory and the shadow).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func, llvm, memref, vector
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    UnrealizedConversionCastOp,
    i64,
)
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint

from dialects import atomic, llvmx, mux
from dialects import attributes as mux_attrs
from dialects.mux import ADDRESS_SPACE_LOCAL, address_space_of
from lowering.check_local_races import functions, packets
from lowering.check_local_races.cells import cell_shift
from lowering.check_local_races.intervals import interval_classes
from lowering.check_local_races.proof import race_free
from lowering.common import local_shadow as ls
from lowering.common.access_sites import describe_location, targets
from lowering.common.builders import build_if, build_if_else, const
from lowering.common.check_record import add_site, record_param, to_i64
from lowering.common.functions import (
    append_arguments,
    calls_in,
    kernel_entry_points,
)
from lowering.common.functions import (
    functions as module_functions,
)
from lowering.common.layout import storage

ATOMICS = (
    atomic.RMWOp,
    atomic.CmpXchgOp,
    atomic.LoadOp,
    atomic.StoreOp,
    llvmx.AtomicRMWOp,
    llvmx.CmpXchgOp,
)


@dataclass
class _Access:
    """A local-memory access: its kind, address (a memref and indices, or a
    pointer), size (bytes, or a value) and what the message calls it."""

    op: Operation
    kind: int
    address: SSAValue
    indices: Sequence[SSAValue]
    size: int | SSAValue
    verb: str
    lanes: int = 1
    """A vector's elements (a packet's lanes, `packets`)."""
    mask: SSAValue | None = None
    """Its active lanes (a packet's masked access)."""


@dataclass(frozen=True)
class CheckLocalRacesPass(ModulePass):
    """Checks every local-memory access of each kernel for races (checked mode)."""

    name = "check-local-races"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        work = [(k, _to_check(k, _accesses(k))) for k in kernel_entry_points(op)]
        work = [(k, a) for k, a in work if a]
        if work:
            functions.define(op)
        for kernel, accesses in work:
            shift = cell_shift(kernel, accesses)
            packet = _packet(op, kernel, shift)
            _instrument(kernel, accesses, shift)
            if packet is not None:
                packets.define(op)
                _instrument(*packet, shift)


def _packet(
    module: ModuleOp, kernel: func.FuncOp, shift: int
) -> tuple[func.FuncOp, list[_Access]] | None:
    """The copy `run-vecz` made of `kernel` and its accesses to check, if
    `packets` checks them exactly; else it is dropped (`_keep_scalar`)."""
    packet = packets.packet_of(module, kernel)
    if packet is None:
        _keep_scalar(module, kernel, "")
        return None
    accesses = _to_check(packet, _accesses(packet))
    why = packets.why_scalar(packet, accesses, shift)
    if why is not None:
        _keep_scalar(module, kernel, f": {why}")
        return None
    return packet, accesses


def _keep_scalar(module: ModuleOp, kernel: func.FuncOp, why: str) -> None:
    """Unlinks and erases the copy `run-vecz` made of `kernel`: the work-item
    loops then run the scalar kernel, whose accesses are checked."""
    link = mux_attrs.VECZ_BASE.get(kernel)
    if link is None:
        return
    width, name = link
    mux_attrs.VECZ_BASE.drop(kernel)
    reason = "checked mode: local-memory accesses are checked work-item by work-item"
    mux_attrs.VECZ_FAIL.set(kernel, (width, reason + why))
    copy = module_functions(module).get(name)
    called = {c.callee.root_reference.data for c in calls_in(module)}
    if copy is not None and name not in called:
        copy.detach()
        copy.erase()


def _accesses(fn: func.FuncOp) -> list[_Access]:
    masked = packets.is_packet(fn)
    return [a for op in fn.walk() for a in _local_accesses(op, masked)]


def _to_check(fn: func.FuncOp, accesses: list[_Access]) -> list[_Access]:
    """`accesses` but those that cannot race: the reads in an interval class
    (`intervals`) where no local memory is written or accessed atomically, and
    the accesses of a class proven free of races (`proof`)."""
    intervals = interval_classes(fn.body)
    if intervals is None:
        return accesses
    writing = {intervals.class_of(op) for op in fn.walk() if _writes_local(op)}
    proven = race_free(fn, intervals)
    return [
        a
        for a in accesses
        if (a.kind != ls.READ or intervals.class_of(a.op) in writing)
        and intervals.class_of(a.op) not in proven
    ]


def _writes_local(op: Operation) -> bool:
    """Whether `op` writes local memory or accesses it atomically, checked or
    not (masked, ordered by the schedule)."""
    return any(
        address_space_of(target.ref.type) == ADDRESS_SPACE_LOCAL
        and _kind(op, number) != ls.READ
        for number, target in enumerate(targets(op))
    )


def _local_accesses(op: Operation, masked: bool) -> list[_Access]:
    """The local-memory accesses `op` makes (`access_sites.targets`: a copy
    makes two). A masked access is left out unless `masked` (a packet's,
    which `packets` checks on its active lanes): it touches only some lanes;
    so is one the barrier schedule orders (`mux.schedule_ordered`:
    `replace-wgc`'s folds, which every work-item makes in turn by design)."""
    if mux_attrs.SCHEDULE_ORDERED.get(op):
        return []
    found = []
    for number, target in enumerate(targets(op)):
        type_ = target.ref.type
        local = address_space_of(type_) == ADDRESS_SPACE_LOCAL
        if not local or (target.mask is not None and not masked):
            continue
        size = target.width
        if isinstance(type_, MemRefType):
            size = target.lanes * storage(type_.element_type)[0]
        kind = _kind(op, number)
        access = _Access(op, kind, target.ref, target.indices, size, target.verb)
        access.lanes, access.mask = target.lanes, target.mask
        if _addressable(access):
            found.append(access)
    return found


def _kind(op: Operation, number: int) -> int:
    """How `op` accesses its `number`th target: atomically, a write, a read."""
    if isinstance(op, ATOMICS) or (
        isinstance(op, llvm.LoadOp | llvm.StoreOp) and _ordered(op.ordering)
    ):
        return ls.ATOMIC
    if isinstance(op, llvmx.MemcpyOp):
        return ls.WRITE if number == 0 else ls.READ
    if isinstance(
        op, memref.StoreOp | vector.StoreOp | vector.MaskedStoreOp | llvm.StoreOp
    ):
        return ls.WRITE
    return ls.READ


def _ordered(ordering: IntegerAttr | None) -> bool:
    """Whether an `llvm.load`/`store` of this `ordering` is atomic."""
    return ordering is not None and ordering.value.data != 0


def _addressable(access: _Access) -> bool:
    """Whether the address of `access` is computed here: a pointer, or a memref
    with the identity layout and static strides (as `convert-to-llvm` wants)."""
    type_ = access.address.type
    if not isinstance(type_, MemRefType):
        return True
    shape = type_.get_shape()
    return isinstance(type_.layout, NoneAttr) and all(d >= 0 for d in shape[1:])


def _instrument(fn: func.FuncOp, accesses: list[_Access], shift: int) -> None:
    """The shadow parameter and the checks of `accesses` in `fn`, a
    kernel or its packet (which take the same parameters: `work-item-loops`
    passes the kernel's to both)."""
    shadow = append_arguments(fn, [ls.SHADOW_TYPE])[0]
    shadow.name_hint = "local_shadow"
    mux_attrs.LOCAL_SHADOW.set(fn, len(fn.args) - 1)
    mux_attrs.LOCAL_CELL.set(fn, shift)
    record = record_param(fn)
    for access in accesses:
        _check(fn, access, shadow, record, shift)


def _check(
    fn: func.FuncOp, access: _Access, shadow: SSAValue, record: SSAValue, shift: int
) -> None:
    """The check of `access`: inline for an access of one cell, else a call;
    and the report if it races."""
    b = Builder(InsertPoint.before(access.op))
    site = add_site(fn, _site_text(fn, access))
    address = _address(b, access)
    if packets.is_packet(fn):  # lane 0's word, the lanes' added by the check
        word = _access_word(b, access, shadow, site)
        values = [shadow, record, address, word, _offset_base(b, fn, access, shadow)]
        packets.check_lanes(b, access, values, site, shift)
        return
    size = _size(b, access.size)
    word = _access_word(b, access, shadow, site)
    if access.size == 1 << shift:
        race = _check_cell(functions.I64(b), shadow, address, word, shift)
    else:
        args = [shadow, address, size, word, const(b, shift, i64)]
        race = b.insert(func.CallOp(functions.ACCESS, args, [i64])).results[0]
    racing = b.insert(arith.CmpiOp(race, const(b, 0, i64), "ne")).result

    def reported(inner: Builder) -> None:
        base = _offset_base(inner, fn, access, shadow)
        offset = inner.insert(arith.SubiOp(address, base)).result
        at = const(inner, site, i64)
        args = [record, race, offset, size, at, const(inner, 0, i64)]
        inner.insert(func.CallOp(functions.REPORT, args, []))

    build_if(b, racing, reported)


def _offset_base(
    b: Builder, fn: func.FuncOp, access: _Access, shadow: SSAValue
) -> SSAValue:
    """The address (an i64) a report gives the access's byte offset from: the
    variable's or parameter's start, else the work-group's local memory's."""
    root = _origin(fn, access.address)[1]
    if root is not None:
        return _as_integer(b, root)
    return b.insert(memref.LoadOp.get(shadow, [const(b, ls.BASE)])).res


def _access_word(b: Builder, access: _Access, shadow: SSAValue, site: int) -> SSAValue:
    """The word `access` leaves in a cell nobody accessed (`local_shadow`): its
    kind, work-item, site, the tag of the shadow's epoch; `UNIFORM` if it
    stores the value held already."""
    item = b.insert(mux.GetLocalLinearIdOp()).result
    item = b.insert(arith.IndexCastOp(item, i64)).result
    item = b.insert(arith.ShLIOp(item, const(b, ls.FIRST_ID, i64))).result
    word = const(b, ls.access_word(access.kind, 0, site), i64)
    word = b.insert(arith.OrIOp(item, word)).result
    epoch = b.insert(memref.LoadOp.get(shadow, [const(b, ls.EPOCH)])).res
    tag = b.insert(arith.ShLIOp(epoch, const(b, ls.TAG_SHIFT, i64))).result
    tag = b.insert(arith.AndIOp(tag, const(b, ls.TAG_MASK, i64))).result
    word = b.insert(arith.OrIOp(word, tag)).result
    same = _same_value(b, access.op) if access.kind == ls.WRITE else None
    if same is not None:
        flag = const(b, ls.UNIFORM, i64)
        flag = b.insert(arith.SelectOp(same, flag, const(b, 0, i64))).result
        word = b.insert(arith.OrIOp(word, flag)).result
    return word


def _check_cell(
    n: functions.I64, shadow: SSAValue, address: SSAValue, word: SSAValue, shift: int
) -> SSAValue:
    """The inline check of an access of one cell; the race (0: none). Unless
    the access leaves the cell's word as it is, the word becomes the access's
    if it is of an older epoch (the first access of the cell since the
    barrier: no race; a uniform write leaves it empty), else its update
    (`functions.step`). An access outside the block uses the `SCRATCH` word
    instead (the bounds check reports it), its race ignored: no branch."""
    b = n.b
    base = b.insert(memref.LoadOp.get(shadow, [const(b, ls.BASE)])).res
    cell = n.op(arith.ShRUIOp, n.op(arith.SubiOp, address, base), shift)
    cells = b.insert(memref.LoadOp.get(shadow, [const(b, ls.CELLS)])).res
    inside = n.cmp("ult", cell, cells)
    index = n.select(inside, n.op(arith.AddiOp, cell, ls.HEADER_WORDS), n.c(ls.SCRATCH))
    at = b.insert(arith.IndexCastOp(index, IndexType())).result
    old = b.insert(memref.LoadOp.get(shadow, [at])).res

    def update(slow: Builder) -> list[SSAValue]:
        k = functions.I64(slow)
        new, race = functions.step(k, old, word)
        slow.insert(memref.StoreOp.get(new, shadow, [at]))
        return [race]

    def first(first: Builder) -> list[SSAValue]:
        k = functions.I64(first)
        uniform = k.cmp("ne", k.op(arith.AndIOp, word, ls.UNIFORM), 0)
        first.insert(memref.StoreOp.get(k.select(uniform, k.c(0), word), shadow, [at]))
        return [k.c(0)]

    def changed(slow: Builder) -> list[SSAValue]:
        k = functions.I64(slow)
        fresh = k.cmp("ne", functions.current(k, old, word), 0)
        return list(build_if_else(slow, fresh, [i64], update, first).results)

    same = functions.unchanged(n, old, word)
    race = build_if_else(b, same, [i64], lambda e: [const(e, 0, i64)], changed)
    return n.select(inside, race.results[0], n.c(0))


def _same_value(b: Builder, op: Operation) -> SSAValue | None:
    """Whether the scalar store `op` writes the value its element holds already
    (an i1), None for other writes: its element is loaded before the store."""
    if isinstance(op, memref.StoreOp):
        value = op.value
        load = memref.LoadOp.get(op.memref, op.indices)
    elif isinstance(op, llvm.StoreOp):
        value = op.value
        load = llvm.LoadOp(op.ptr, value.type)
    else:
        return None
    type_ = value.type
    if not isinstance(type_, IntegerType | IndexType | AnyFloat):
        return None
    held = b.insert(load).results[0]
    if isinstance(type_, AnyFloat):  # bit for bit: a NaN is itself
        bits = IntegerType(type_.bitwidth)
        held = b.insert(arith.BitcastOp(held, bits)).result
        value = b.insert(arith.BitcastOp(value, bits)).result
    return b.insert(arith.CmpiOp(held, value, "eq")).result


def _size(b: Builder, size: int | SSAValue) -> SSAValue:
    return const(b, size, i64) if isinstance(size, int) else to_i64(b, size)


def _as_integer(b: Builder, address: SSAValue) -> SSAValue:
    """A local memref's bare pointer (what `convert-to-llvm` makes of it) or a
    local pointer, as an i64."""
    if isinstance(address.type, MemRefType):
        bare = llvm.LLVMPointerType(IntAttr(ADDRESS_SPACE_LOCAL))
        cast = b.insert(UnrealizedConversionCastOp.get([address], [bare]))
        address = cast.results[0]
    return b.insert(llvm.PtrToIntOp(address, i64)).results[0]


def _address(b: Builder, access: _Access) -> SSAValue:
    """The address of `access` as an i64: its memref's bare pointer plus the
    row-major offset of the element, or its pointer."""
    value = _as_integer(b, access.address)
    type_ = access.address.type
    if not isinstance(type_, MemRefType) or not access.indices:
        return value
    shape = type_.get_shape()
    linear = access.indices[0]
    for dim, index in zip(shape[1:], access.indices[1:], strict=True):
        linear = b.insert(arith.MuliOp(linear, const(b, dim))).result
        linear = b.insert(arith.AddiOp(linear, index)).result
    linear = b.insert(arith.IndexCastOp(linear, i64)).result
    element = storage(type_.element_type)[0]
    offset = b.insert(arith.MuliOp(linear, const(b, element, i64))).result
    return b.insert(arith.AddiOp(value, offset)).result


def _site_text(fn: func.FuncOp, access: _Access) -> str:
    what = _origin(fn, access.address)[0]
    return f"{access.verb} {what} at {describe_location(access.op)}"


def _origin(fn: func.FuncOp, value: SSAValue) -> tuple[str, SSAValue | None]:
    """What local memory `value` points into, as a message names it, and the
    value that is its start (None: not known): a module-scope local variable
    (its address, which `replace-module-scope-vars` marks), a local parameter,
    or the buffer of the module-scope local variables."""
    while True:
        owner = value.owner
        if isinstance(owner, Operation) and (
            variable := mux_attrs.LOCAL_VARIABLE.get(owner)
        ):
            return f"local variable '{variable.name}'", value
        if isinstance(value, BlockArgument):
            if value.owner is not fn.body.blocks.first:
                return "local memory", None
            local_vars = mux_attrs.LOCAL_VARS_PARAM.get(fn)
            if local_vars is not None and value.index == local_vars.index:
                return "the module-scope local variables", value
            name = value.name_hint or f"arg{value.index}"
            return f"local parameter '{name}'", value
        owner = value.owner
        if isinstance(owner, UnrealizedConversionCastOp | llvmx.AddrSpaceCastOp):
            value = owner.operands[0]
        elif isinstance(owner, llvm.GEPOp):
            value = owner.ptr
        else:
            return "local memory", None
