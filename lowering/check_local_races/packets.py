"""The race check of a packet: `run-vecz`'s copy of a kernel, kept in checked
mode when every local access of it that needs a check is one this module
checks exactly (`why_scalar`), checked lane by lane (`check_lanes`).

**Lanes and work-items.** A packet of `W` lanes (one row: `mux.vecz_rows`
absent or 1) runs the work-items `x, x + 1, ..., x + W - 1` of dimension 0,
`x` being its `mux.get_local_id 0` (`run-vecz`); `work-item-loops` runs
packets at `x = 0, W, 2W, ...` within one row of the group (`loop_nest`:
the loop over x steps by `W` up to a multiple of `W`, with y and z fixed), so
lane `i` is the work-item of local linear id `l + i` and of ids `(x + i, y,
z)`, `l` being the packet's `mux.get_local_linear_id` (lane 0's: the queries
of a packet are defined as the scalar kernel's, for its first work-item).

**What is checked exactly.** A `vector.load`/`store`, `vector.maskedload`/
`maskedstore` of a memref in a packet is `run-vecz`'s contiguous access
(`run_vecz.memory`: it makes no other vector access, and refuses kernels
with their own vector accesses): lane `i` accesses the element `i` after the
indices' (row-major), the element its work-item accesses in the scalar
kernel, if the lane is active (its mask bit). Each active lane is checked as
the scalar kernel checks its work-item's access, lanes in order: the cell
check with the lane's access word (the packet's local linear id plus `i`),
at the same site, and a race reports the lane's ids. A store is a uniform
write in lane `i` when lane `i`'s element holds the value it stores (bit for
bit: the packet's elements are loaded before the store, under its mask).

**Vectorised where it can be.** Lanes of one cell each touch consecutive
cells, none another's, so checking them in order is checking them at once:
their cells' words are loaded as a vector, each lane's update is computed as
the scalar check computes it (`functions.unchanged`, `current` and `step`,
on vectors), and unless an active lane races, the new words are stored as a
vector, with no call. If one races, or the cells are not all in the block,
`LANES` checks the lanes one by one (and reports the races in lane order).

**What is not.** A scalar access to local memory in a packet (a uniform one,
made by every active lane, or one made for a single lane) does not say which
lanes make it: checking it for lane 0 only would lose races, for every lane
could invent them (lanes masked off). A packet with one is dropped, as is a
packet of several rows, of more than 64 lanes, or whose lanes' elements are
not whole cells of the kernel's shadow.

`@__mux_check_local_lanes(%shadow, %record, %address, %bytes, %lanes,
%active, %uniform, %access, %shift, %base, %site)`: for each lane `i <
%lanes` whose bit is set in `%active`, the check of `%bytes` bytes at
`%address + i * %bytes` (`@__mux_check_local_access`) with the access word
`%access` (lane 0's) plus `i` in its work-item, `UNIFORM` if bit `i` of
`%uniform` is set; a race reports it (`__mux_report_local_race`, the byte
offset from `%base`, lane `i`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from xdsl.builder import Builder
from xdsl.dialects import arith, func, llvm, memref, vector
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    VectorType,
    i1,
    i64,
)
from xdsl.ir import Operation, SSAValue

from dialects import attributes as mux_attrs
from dialects import llvmx
from lowering.check_local_races import functions
from lowering.check_local_races.cells import cell_shift
from lowering.common import local_shadow as ls
from lowering.common.builders import (
    build_for,
    build_if,
    build_if_else,
    const,
    reduce_vector,
    vector_constant,
)
from lowering.common.check_record import RECORD_TYPE
from lowering.common.functions import functions as module_functions
from lowering.common.functions import mark_internal, new_function

LANES = "__mux_check_local_lanes"

MAX_LANES = 64
"""The lanes' bits travel in an i64."""

VECTOR_ACCESSES = (
    vector.LoadOp,
    vector.StoreOp,
    vector.MaskedLoadOp,
    vector.MaskedStoreOp,
)


class Access(Protocol):
    """What this module reads of an access of `check-local-races`."""

    op: Operation
    kind: int
    address: SSAValue
    indices: Sequence[SSAValue]
    size: int | SSAValue
    lanes: int
    mask: SSAValue | None


@dataclass
class _Lane:
    """One lane's share of a packet access, as `cells.cell_shift` reads it."""

    op: Operation
    address: SSAValue
    indices: Sequence[SSAValue]
    size: int | SSAValue


def packet_of(module: ModuleOp, kernel: func.FuncOp) -> func.FuncOp | None:
    """The copy `run-vecz` made of `kernel` (None: none)."""
    link = mux_attrs.VECZ_BASE.get(kernel)
    return None if link is None else module_functions(module).get(link[1])


def is_packet(fn: func.FuncOp) -> bool:
    return mux_attrs.VECZ_DERIVED.get(fn) is not None


def why_scalar(
    packet: func.FuncOp, accesses: Sequence[Access], shift: int
) -> str | None:
    """Why `packet` cannot be kept, given the local accesses of it that need a
    check (`check-local-races` filters them) and the kernel's cells of
    `2**shift` bytes; None if each is a lane access `check_lanes` checks
    exactly."""
    why = _why_not_packet(packet)
    if why is not None:
        return why
    for access in accesses:
        why = _why_not_lanes(packet, access, shift)
        if why is not None:
            return f"{why} ({access.op.name})"
    return None


def _why_not_packet(packet: func.FuncOp) -> str | None:
    """Why `packet` is not one row of lanes taking its kernel's parameters
    (the shadow is appended to both: it must be at one index)."""
    rows = mux_attrs.VECZ_ROWS.get(packet) or 1
    if rows > 1:
        return f"a packet of {rows} rows"
    kernel = mux_attrs.VECZ_DERIVED.get(packet)
    module = packet.parent_op()
    if kernel is None or not isinstance(module, ModuleOp):
        return "a packet of no kernel"
    scalar = module_functions(module).get(kernel[1])
    if scalar is None or scalar.function_type != packet.function_type:
        return "a packet whose parameters are not its kernel's"
    return None


def _why_not_lanes(packet: func.FuncOp, access: Access, shift: int) -> str | None:
    op = access.op
    if not isinstance(op, VECTOR_ACCESSES) or not isinstance(
        access.address.type, MemRefType
    ):
        return "a local access that is not one contiguous vector access"
    if access.lanes > MAX_LANES or not isinstance(access.size, int):
        return f"a local access of more than {MAX_LANES} lanes"
    lane = _Lane(op, access.address, access.indices, access.size // access.lanes)
    if cell_shift(packet, [lane]) < shift:
        return "a local access whose lanes are not whole cells"
    if access.kind == ls.WRITE and _element(op) is None:
        return "a local store of elements neither integers nor floats"
    return None


def _element(op: Operation) -> IntegerType | AnyFloat | None:
    """The element type of a vector access, if integer or float."""
    assert isinstance(op, VECTOR_ACCESSES)
    type_ = op.base.type
    assert isinstance(type_, MemRefType)
    element = type_.element_type
    return element if isinstance(element, IntegerType | AnyFloat) else None


def check_lanes(
    b: Builder,
    access: Access,
    values: Sequence[SSAValue],
    site: int,
    shift: int,
) -> None:
    """At `b`, before the packet access `access`: the check of each of its
    active lanes, lanes in order. `values`: the shadow, the record, the
    access's address (lane 0's, an i64), its access word (lane 0's) and the
    address its byte offsets are from. A lane of one cell is checked by the
    vectorised `_check_cells` where it can be; else `LANES` is called."""
    assert isinstance(access.size, int)
    same = _same_values(b, access.op) if access.kind == ls.WRITE else None
    lanes = _Lanes(access, values, site, shift, same)
    if access.size // access.lanes == 1 << shift:
        _check_cells(b, lanes)
    else:
        lanes.call(b)


@dataclass
class _Lanes:
    """The check of a packet access's lanes: what `check_lanes` was given,
    and the lanes that store the value held (a vector of i1; None: a load)."""

    access: Access
    values: Sequence[SSAValue]
    site: int
    shift: int
    same: SSAValue | None

    def call(self, b: Builder) -> None:
        """The call of `LANES`: every active lane checked in turn."""
        shadow, record, address, word, base = self.values
        access = self.access
        assert isinstance(access.size, int)
        lanes = access.lanes
        every = const(b, (1 << lanes) - 1, i64)
        active = every if access.mask is None else _bits(b, access.mask)
        uniform = const(b, 0, i64) if self.same is None else _bits(b, self.same)
        sizes = (access.size // lanes, lanes)
        args = [shadow, record, address, *(const(b, s, i64) for s in sizes)]
        args += [active, uniform, word, const(b, self.shift, i64), base]
        args.append(const(b, self.site, i64))
        b.insert(func.CallOp(LANES, args, []))


def _check_cells(b: Builder, lanes: _Lanes) -> None:
    """The lanes of an access of one cell each, at consecutive cells inside
    the block: the lanes touch different cells, so checking them in order is
    checking them at once, as vectors: their cells' words loaded, each lane's
    update computed as its scalar check computes it (`functions.unchanged`,
    `current`, `step`), and unless an active lane races, the words stored.
    Otherwise (the race is reported lane by lane, in order), or when the
    cells are not all in the block, `LANES`."""
    shadow, address = lanes.values[0], lanes.values[2]
    n = functions.I64(b)
    count = lanes.access.lanes
    block = _load(b, shadow, ls.BASE)
    cells = _load(b, shadow, ls.CELLS)
    first = n.op(arith.ShRUIOp, n.op(arith.SubiOp, address, block), lanes.shift)
    end = n.op(arith.AddiOp, first, count)
    inside = n.op(arith.AndIOp, n.cmp("ult", first, cells), n.cmp("ule", end, cells))

    def vectorised(inner: Builder) -> list[SSAValue]:
        m = functions.I64(inner)
        at = m.op(arith.AddiOp, first, ls.HEADER_WORDS)
        at = inner.insert(arith.IndexCastOp(at, IndexType())).result
        v = _Vector(inner, count)
        old = inner.insert(vector.LoadOp(shadow, [at], v.type)).result
        words = _lane_words(v, lanes)
        changed = v.not_(functions.unchanged(v, old, words))
        if lanes.access.mask is not None:
            changed = v.op(arith.AndIOp, changed, lanes.access.mask)
        new, race = functions.step(v, functions.current(v, old, words), words)
        racing = v.op(arith.AndIOp, changed, v.cmp("ne", race, 0))

        def stored(q: Builder) -> list[SSAValue]:
            w = _Vector(q, count)
            q.insert(vector.StoreOp(w.select(changed, new, old), shadow, [at]))
            return []

        any_racing = reduce_vector(inner, racing, "or", i1)
        build_if_else(inner, any_racing, [], _called(lanes), stored)
        return []

    build_if_else(b, inside, [], vectorised, _called(lanes))


def _called(lanes: _Lanes) -> Callable[[Builder], list[SSAValue]]:
    def call(b: Builder) -> list[SSAValue]:
        lanes.call(b)
        return []

    return call


def _lane_words(v: _Vector, lanes: _Lanes) -> SSAValue:
    """Each lane's access word: lane 0's plus the lane in its work-item,
    `UNIFORM` where it stores the value held."""
    word = lanes.values[3]
    ids = [i << ls.FIRST_ID for i in range(lanes.access.lanes)]
    words = v.op(arith.AddiOp, v.splat(word), v.lanes(ids))
    if lanes.same is None:
        return words
    return v.op(arith.OrIOp, words, v.select(lanes.same, v.c(ls.UNIFORM), v.c(0)))


class _Vector(functions.I64):
    """`functions.I64` on vectors of `count` i64 (conditions: of i1), so that
    the word updates of the scalar check apply to a packet's lanes at once."""

    def __init__(self, b: Builder, count: int):
        super().__init__(b)
        self.type = VectorType(i64, [count])
        self.count = count

    def c(self, value: int) -> SSAValue:
        return self.lanes([value] * self.count)

    def lanes(self, values: list[int]) -> SSAValue:
        return vector_constant(self.b, self.type, values)

    def splat(self, value: SSAValue) -> SSAValue:
        return self.b.insert(vector.BroadcastOp(value, self.type)).vector

    def cmp(self, pred: str, x: SSAValue, y: SSAValue | int) -> SSAValue:
        y = self.c(y) if isinstance(y, int) else y
        flag = IntegerAttr(llvm.ICmpPredicateFlag(pred).to_int(), i64)
        return self.b.insert(llvm.ICmpOp(x, y, flag)).res

    def not_(self, x: SSAValue) -> SSAValue:
        ones = vector_constant(self.b, VectorType(i1, [self.count]), [1] * self.count)
        return self.b.insert(arith.XOrIOp(x, ones)).result

    def select(self, cond: SSAValue, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.b.insert(llvmx.SelectOp(cond, x, y)).res


def _load(b: Builder, shadow: SSAValue, word: int) -> SSAValue:
    return b.insert(memref.LoadOp.get(shadow, [const(b, word)])).res


def _bits(b: Builder, lanes: SSAValue) -> SSAValue:
    """A vector of i1 as an i64 whose bit `i` is lane `i`."""
    type_ = lanes.type
    assert isinstance(type_, VectorType)
    count = type_.get_shape()[0]
    words = VectorType(i64, [count])
    powers = vector_constant(b, words, [1 << i for i in range(count)])
    zeros = vector_constant(b, words, [0] * count)
    chosen = b.insert(llvmx.SelectOp(lanes, powers, zeros)).res
    return reduce_vector(b, chosen, "or", i64)


def _same_values(b: Builder, op: Operation) -> SSAValue:
    """Per lane (a vector of i1), whether the vector store `op` stores the
    value its lane's element holds already, bit for bit (a NaN is itself): the
    elements it stores to are loaded first, under its mask."""
    if isinstance(op, vector.MaskedStoreOp):
        value, mask = op.value_to_store, op.mask
    else:
        assert isinstance(op, vector.StoreOp)
        value, mask = op.vector, None
    type_ = value.type
    assert isinstance(type_, VectorType)
    base, indices = op.base, op.indices
    if mask is None:
        held = b.insert(vector.LoadOp(base, indices, type_)).result
    else:  # masked-off lanes read as the value stored: not looked at anyway
        held = b.insert(vector.MaskedLoadOp(base, indices, mask, value, type_)).result
    element = _element(op)
    if isinstance(element, AnyFloat):
        bits = VectorType(IntegerType(element.bitwidth), type_.get_shape())
        held = b.insert(arith.BitcastOp(held, bits)).result
        value = b.insert(arith.BitcastOp(value, bits)).result
    eq = IntegerAttr(llvm.ICmpPredicateFlag("eq").to_int(), i64)
    return b.insert(llvm.ICmpOp(held, value, eq)).res


def define(module: ModuleOp) -> None:
    """Adds `LANES` to `module` unless it has it."""
    if LANES not in module_functions(module):
        fn = _lanes()
        mark_internal(fn)
        module.body.block.add_op(fn)


def _lanes() -> func.FuncOp:
    names = ["shadow", "record", "address", "bytes", "lanes", "active"]
    names += ["uniform", "access", "shift", "base", "site"]
    types = [ls.SHADOW_TYPE, RECORD_TYPE, *[i64] * (len(names) - 2)]
    fn, b = new_function(LANES, types, [], names)
    shadow, record, address, size, lanes, active, uniform, access, shift, base, site = (
        fn.args
    )
    count = b.insert(arith.IndexCastOp(lanes, IndexType())).result

    def lane(body: Builder, i: SSAValue) -> None:
        n = functions.I64(body)
        k = body.insert(arith.IndexCastOp(i, i64)).result
        bit = n.op(arith.ShLIOp, n.c(1), k)

        def check(inner: Builder) -> None:
            m = functions.I64(inner)
            at = m.op(arith.AddiOp, address, m.op(arith.MuliOp, k, size))
            word = m.op(arith.AddiOp, access, m.op(arith.ShLIOp, k, ls.FIRST_ID))
            same = m.cmp("ne", m.op(arith.AndIOp, uniform, bit), 0)
            word = m.op(arith.OrIOp, word, m.select(same, m.c(ls.UNIFORM), m.c(0)))
            args = [shadow, at, size, word, shift]
            race = inner.insert(func.CallOp(functions.ACCESS, args, [i64])).results[0]

            def reported(r: Builder) -> None:
                offset = r.insert(arith.SubiOp(at, base)).result
                args = [record, race, offset, size, site, k]
                r.insert(func.CallOp(functions.REPORT, args, []))

            build_if(inner, m.cmp("ne", race, 0), reported)

        build_if(body, n.cmp("ne", n.op(arith.AndIOp, active, bit), 0), check)

    build_for(b, const(b, 0), count, const(b, 1), lane)
    b.insert(func.ReturnOp())
    return fn
