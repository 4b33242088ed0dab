"""The check record of checked mode: the buffer a checked kernel writes its first
fault to, and the IR that writes it (issue 17).

A checked kernel (`CompileOptions.checked`) takes one more parameter, the
*record*, a `memref<?xi64, 1>` the runtime allocates per launch (`mux.checked`),
fills with the launch's facts and reads afterwards, raising `mux.KernelError`
if a fault was recorded. The function attribute `mux.check_record` gives the
parameter's index (`record_param` appends it); it comes after lower-printf's
buffer when the kernel prints, so the runtime appends it to the packed
arguments after that buffer.

The record, in 64-bit words (the constants below):

- `KIND`: the `Fault` of the first fault, 0 (`Fault.NONE`) if none. The first
  fault wins: `report` swaps it from 0 atomically; a later fault only counts.
- `COUNT`: how many faults were reported (atomically added).
- `SITE` .. `B`: the first fault's site (an index into the
  module's `mux.check_sites`, what `add_site` returned), the faulting work-item's global
  id (x, y, z) and local id (x, y, z), two operands whose meaning is the kind's
  (out of bounds: the element index and the byte offset);
- `SITE2` .. `LOCAL_ID2`: a second site and work-item, for faults between two
  of them (a divergent barrier: the other barrier; a race: the other access);
- `SCRATCH` .. `HEADER_WORDS`: where the details of a fault that lost the race
  for `KIND` are written, which nobody reads: `report` writes the details
  without a branch (the address is selected), so that it is straight-line code
  wherever it is called, before or inside the work-item loops;
- from `HEADER_WORDS` on, `PARAM_WORDS` words per kernel parameter (its index
  among the kernel's own parameters, as the runtime lists them): the base
  address and the size in bytes of a buffer argument (0 for others), written by
  the runtime before the launch (`param_word`).

The caller of `report` decides when a fault happens (it builds the branch to
the code `report` emits) and gives the values: `mux.get_global_id` /
`get_local_id` results before `work-item-loops`, the loop's own ids inside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum

from xdsl.builder import Builder
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    i32,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint

from dialects import atomic, mux
from dialects.attributes import CHECK_FAULT_WORD, CHECK_RECORD, CHECK_SITES
from lowering.common.builders import build_if, const
from lowering.common.functions import append_arguments


class Fault(IntEnum):
    """What went wrong: the record's word `KIND`."""

    NONE = 0
    OUT_OF_BOUNDS = 1
    DIVERGENT_BARRIER = 2
    LOCAL_RACE = 3


RECORD_TYPE = MemRefType(i64, [DYNAMIC_INDEX], memory_space=IntegerAttr(1, i64))
"""The record parameter's type: i64 words in global memory."""

KIND = 0
COUNT = 1
SITE = 2
GLOBAL_ID = 3
"""Three words: x, y, z."""
LOCAL_ID = 6
A = 9
B = 10
SITE2 = 11
GLOBAL_ID2 = 12
LOCAL_ID2 = 15
DETAILS = SITE
"""The first word of a fault's details (SITE .. LOCAL_ID2)."""
DETAIL_WORDS = 16
SCRATCH = DETAILS + DETAIL_WORDS
"""Where the details of a fault that did not win `KIND` go (never read)."""
HEADER_WORDS = SCRATCH + DETAIL_WORDS
PARAM_WORDS = 2
"""Per kernel parameter: base address, size in bytes."""
PARAM_BASE = 0
PARAM_SIZE = 1


def param_word(index: int, field: int = PARAM_SIZE) -> int:
    """The word of the record holding `field` (`PARAM_BASE`, `PARAM_SIZE`) of
    kernel parameter `index`."""
    return HEADER_WORDS + PARAM_WORDS * index + field


def record_words(params: int) -> int:
    """The record's length in words for a kernel of `params` parameters."""
    return HEADER_WORDS + PARAM_WORDS * params


def record_param(fn: func.FuncOp) -> SSAValue:
    """The record parameter of `fn` (`mux.check_record`), appended to its
    parameters (and the attribute set) if it has none yet. Its callers are
    the caller's business: a function called with the record must be given
    it at each call."""
    index = CHECK_RECORD.get(fn)
    if index is None:
        index = len(fn.function_type.inputs.data)
        append_arguments(fn, [RECORD_TYPE])
        CHECK_RECORD.set(fn, index)
    entry = fn.body.blocks.first
    assert entry is not None, "the record of a declaration"
    return entry.args[index]


def add_site(fn: func.FuncOp, text: str) -> int:
    """Adds `text` (what a message says about where the check is) to the site
    table of the module holding `fn` (`mux.check_sites`, one table for all the
    module's functions); returns its index, the site number `report` takes.
    An equal text already there is reused."""
    module = _module(fn)
    table = CHECK_SITES.get(module) or ()
    if text in table:
        return table.index(text)
    CHECK_SITES.set(module, (*table, text))
    return len(table)


def sites(op: Operation) -> tuple[str, ...]:
    """The site table of the module `op` is (or is in): the runtime's."""
    return CHECK_SITES.get(_module(op)) or ()


def _module(op: Operation) -> ModuleOp:
    while not isinstance(op, ModuleOp):
        parent = op.parent_op()
        assert parent is not None, "a check site of a function outside a module"
        op = parent
    return op


def report(
    builder: Builder,
    record: SSAValue,
    kind: Fault,
    site: int | SSAValue,
    *,
    global_id: Sequence[SSAValue],
    local_id: Sequence[SSAValue],
    a: SSAValue | None = None,
    b: SSAValue | None = None,
    site2: int | SSAValue | None = None,
    global_id2: Sequence[SSAValue] = (),
    local_id2: Sequence[SSAValue] = (),
) -> None:
    """Emits, at `builder`, the straight-line IR recording a fault of `kind` at
    `site`: `KIND` swapped from 0 to `kind` atomically, `COUNT` incremented,
    the details written to the record if the swap won, else to its scratch
    words. Ids and operands are index or integer values (up to 3 ids, the
    missing ones 0; integers narrower than 64 bits are zero-extended).
    The caller branches to this code when the fault happens."""
    operand_b, bld = b, builder
    zero = const(bld, 0, i64)
    kind_value = const(bld, int(kind), i64)
    swap = atomic.CmpXchgOp(
        "monotonic", "monotonic", record, [const(bld, KIND)], zero, kind_value
    )
    bld.insert(swap)
    one = const(bld, 1, i64)
    bld.insert(atomic.RMWOp("add", "monotonic", record, [const(bld, COUNT)], one))
    won, lost = const(bld, DETAILS), const(bld, SCRATCH)
    details = bld.insert(arith.SelectOp(swap.success, won, lost)).result
    fields: list[tuple[int, SSAValue | None]] = [
        (SITE, const(bld, site, i64) if isinstance(site, int) else site),
        (A, a),
        (B, operand_b),
    ]
    fields += _ids(GLOBAL_ID, global_id) + _ids(LOCAL_ID, local_id)
    if site2 is not None:  # a value: a site found at run time (a race's other)
        second = const(bld, site2, i64) if isinstance(site2, int) else site2
        fields.append((SITE2, second))
    fields += _ids(GLOBAL_ID2, global_id2) + _ids(LOCAL_ID2, local_id2)
    for word, value in fields:
        if value is None:
            continue
        offset = const(bld, word - DETAILS)
        at = bld.insert(arith.AddiOp(details, offset)).result
        bld.insert(memref.StoreOp.get(to_i64(bld, value), record, [at]))


def report_call(
    builder: Builder,
    fn: func.FuncOp,
    record: SSAValue,
    kind: Fault,
    site: int | SSAValue,
    *,
    a: SSAValue | None = None,
    b: SSAValue | None = None,
    lane: SSAValue | None = None,
) -> None:
    """`report`, out of line, of a fault by the work-item running (before
    `work-item-loops`: its ids are the function's `mux.get_global_id` /
    `get_local_id`, `lane` added to both in x for a vectorised kernel's lane):
    a call of the module's recording function for `kind`, made on first use
    and marked `noinline` and `cold`. Each check then costs a compare and a
    branch, and the code around it stays small enough for LLVM to inline the
    barrier regions into the work-item loops and vectorise them. The call is
    emitted at `builder`, inside `fn`; `site` may be a value (an index or
    integer), a site found at run time."""
    callee = _report_function(_module(fn), kind)
    zero = const(builder, 0, i64)
    site_value = const(builder, site, i64) if isinstance(site, int) else site
    values = [site_value, a or zero, b or zero, lane or zero]
    arguments = [record, *(to_i64(builder, v) for v in values)]
    builder.insert(func.CallOp(callee.sym_name.data, arguments, []))


def _report_function(module: ModuleOp, kind: Fault) -> func.FuncOp:
    name = f"__mux_check_report_{kind.name.lower()}"
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == name:
            return op
    fn = func.FuncOp(
        name, ([RECORD_TYPE, i64, i64, i64, i64], []), visibility="private"
    )
    never_inlined = [StringAttr("noinline"), StringAttr("cold")]
    fn.attributes["passthrough"] = ArrayAttr(never_inlined)
    record, site, a, b, lane = fn.body.block.args
    inner = Builder(InsertPoint.at_end(fn.body.block))
    lane = inner.insert(arith.IndexCastOp(lane, IndexType())).result
    ids: list[list[SSAValue]] = []
    for query in (mux.GetGlobalIdOp, mux.GetLocalIdOp):
        dims: list[SSAValue] = [
            inner.insert(query(const(inner, d, i32))).result for d in range(3)
        ]
        dims[0] = inner.insert(arith.AddiOp(dims[0], lane)).result
        ids.append(dims)
    report(inner, record, kind, site, global_id=ids[0], local_id=ids[1], a=a, b=b)
    inner.insert(func.ReturnOp())
    module.body.block.add_op(fn)
    return fn


def _ids(first: int, values: Sequence[SSAValue]) -> list[tuple[int, SSAValue | None]]:
    return [(first + d, v) for d, v in enumerate(values[:3])]


def to_i64(b: Builder, value: SSAValue) -> SSAValue:
    """An index or integer value as an i64 (zero-extended if narrower)."""
    type_ = value.type
    if isinstance(type_, IndexType):
        return b.insert(arith.IndexCastOp(value, i64)).result
    assert isinstance(type_, IntegerType), type_
    if type_.bitwidth < 64:
        return b.insert(arith.ExtUIOp(value, i64)).result
    return value


class DeferredReport:
    """A work-item's first fault kept in private words (`WORDS`: site + 1,
    `a`, `b`: 0 while none; and how many it made) and reported later. The fault
    branches then hold no call, only stores to private memory that LLVM keeps
    in registers or turns into masked stores: the work-item loops around them
    still vectorise. The faults of a work-item are its own, so its first is
    the one in program order.

    In a kernel without barriers the words are reported, by `report_call`,
    when the work-item returns (`finish`); the first fault of a work-group is
    then the lowest work-item's to return. In a kernel with barriers
    (`regions`) each word is marked (`mux.check_fault_word`), not zeroed
    here, and `work-item-loops` reports them when the work-group ends
    (`lowering.scheduling.region_faults`): each region function has its own
    words, a work-item that faulted adds them to its words in the wrapper's,
    and the group records its lowest faulting work-item's first fault."""

    WORDS = SITE_WORD, A_WORD, B_WORD, COUNT_WORD = range(4)
    """The words, in `slots` order (site + 1, element, byte offset, count)."""

    def __init__(
        self, fn: func.FuncOp, record: SSAValue, kind: Fault, regions: bool = False
    ) -> None:
        self.fn, self.record, self.kind = fn, record, kind
        entry = fn.body.blocks.first
        assert entry is not None, "a fault of a declaration"
        b = Builder(InsertPoint.at_start(entry))
        self.slots = [
            b.insert(memref.AllocaOp.get(i64, shape=[1])).memref for _ in self.WORDS
        ]
        for word, slot in enumerate(self.slots):
            if regions:
                assert isinstance(slot.owner, Operation)
                CHECK_FAULT_WORD.set(slot.owner, word)
        if regions:  # work-item-loops zeroes the count before each region
            return
        zero, first = const(b, 0, i64), const(b, 0)
        for slot in self.slots:
            b.insert(memref.StoreOp.get(zero, slot, [first]))

    def note(self, b: Builder, site: int, a: SSAValue, b_: SSAValue) -> None:
        """At a fault (inside its branch): counted, kept if it is the
        work-item's first."""
        first = const(b, 0)
        counted = self.slots[self.COUNT_WORD]
        count = b.insert(memref.LoadOp.get(counted, [first])).res
        more = b.insert(arith.AddiOp(count, const(b, 1, i64))).result
        b.insert(memref.StoreOp.get(more, counted, [first]))
        none = b.insert(arith.CmpiOp(count, const(b, 0, i64), "eq")).result

        def keep(inner: Builder) -> None:
            values = (const(inner, site + 1, i64), a, b_)
            for slot, value in zip(self.slots, values, strict=False):
                inner.insert(memref.StoreOp.get(to_i64(inner, value), slot, [first]))

        build_if(b, none, keep)

    def finish(self) -> None:
        """Before each return of the function: the kept fault reported (its
        other faults added to the record's count)."""
        returns = [o for o in self.fn.walk() if isinstance(o, func.ReturnOp)]
        for ret in returns:
            if ret.parent_op() is not self.fn:
                continue
            b = Builder(InsertPoint.before(ret))
            first = const(b, 0)
            site, a, b_, count = (
                b.insert(memref.LoadOp.get(slot, [first])).res for slot in self.slots
            )
            kept = b.insert(arith.CmpiOp(site, const(b, 0, i64), "ne")).result

            def report(inner: Builder, site=site, a=a, b_=b_, count=count) -> None:
                one = const(inner, 1, i64)
                number = inner.insert(arith.SubiOp(site, one)).result
                report_call(inner, self.fn, self.record, self.kind, number, a=a, b=b_)
                others = inner.insert(arith.SubiOp(count, one)).result
                at = const(inner, COUNT)
                rmw = atomic.RMWOp("add", "monotonic", self.record, [at], others)
                inner.insert(rmw)

            build_if(b, kept, report)
