"""The functions `check-local-races` calls, defined once in the module, and
the word update it inlines (`step`).

`@__mux_check_local_access(%shadow, %address, %bytes, %access, %shift) -> i64`
checks and records an access of `%bytes` bytes at `%address` (an integer), a
whole number of cells of `2**%shift` bytes, by the access word `%access`
(`lowering.common.local_shadow`: kind, work-item, site, tag); it returns 0, or
the word of the earlier access it races with (its kind, its work-item, its
site) for the first cell that races. An address outside the work-group's
local memory is not checked (an access out of bounds is the bounds check's to
report) and leaves the shadow alone. (An access of one cell is checked inline
instead.)

`@__mux_check_local_epoch(%shadow)`, called by the barrier wrapper after each
barrier (and by the kernel wrapper at the group's start): starts the next
epoch, `EPOCH` + 1, and zeroes the cells' words when its tag comes back to 0
(`local_shadow`).

`@__mux_report_local_race`: the report of a race, out of line and cold.

A cell's word `old` (of this epoch: a word of another tag is 0, `current`) and
the access `new` (kind `k`, work-item `v`, site `s`) give, when `old` is 0,
`new`; when every work-item in `old` is `v` (the same work-item again), the
stronger of the two accesses (`k >= kind(old)`: `new`, else `old`); otherwise
(another work-item `o` accessed it) a race unless both are reads or both atomic,
in which case `old` gets `SHARED` with `v` and `s` second (if it had no second
yet). Merging a work-item's accesses into its strongest loses some races (a
work-item's atomic then read, and another's plain read), never invents one: the
word only ever claims accesses that happened. A write of the value the cell
holds already (`UNIFORM`: several work-items storing one value, oclgrind's
"uniform writes") is no race: it takes a written cell over, and leaves any other
as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    ArrayAttr,
    IndexType,
    ModuleOp,
    StringAttr,
    i1,
    i32,
    i64,
)
from xdsl.ir import Operation, SSAValue

from dialects import mux
from lowering.common import local_shadow as ls
from lowering.common.builders import (
    build_for,
    build_for_carrying,
    build_if,
    build_if_else,
    const,
)
from lowering.common.check_record import RECORD_TYPE, Fault, report
from lowering.common.functions import functions, mark_internal, new_function

ACCESS = ls.ACCESS
NEXT_EPOCH = ls.NEXT_EPOCH
REPORT = "__mux_report_local_race"


class I64:
    """Terse i64 arithmetic at a builder."""

    def __init__(self, b: Builder):
        self.b = b

    def c(self, value: int) -> SSAValue:
        return const(self.b, value, i64)

    def op(self, cls: type, x: SSAValue, y: SSAValue | int) -> SSAValue:
        y = self.c(y) if isinstance(y, int) else y
        return self.b.insert(cls(x, y)).result

    def field(self, word: SSAValue, shift: int, mask: int) -> SSAValue:
        return self.op(arith.AndIOp, self.op(arith.ShRUIOp, word, shift), mask)

    def cmp(self, pred: str, x: SSAValue, y: SSAValue | int) -> SSAValue:
        y = self.c(y) if isinstance(y, int) else y
        return self.b.insert(arith.CmpiOp(x, y, pred)).result

    def not_(self, x: SSAValue) -> SSAValue:
        return self.b.insert(arith.XOrIOp(x, const(self.b, True, i1))).result

    def select(self, cond: SSAValue, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.b.insert(arith.SelectOp(cond, x, y)).result


def define(module: ModuleOp) -> None:
    """Adds the three functions to `module` unless it has them."""
    have = functions(module)
    for name, build in ((ACCESS, _access), (NEXT_EPOCH, _epoch), (REPORT, _report)):
        if name not in have:
            fn = build()
            mark_internal(fn)
            module.body.block.add_op(fn)


def _access() -> func.FuncOp:
    fn, b = new_function(
        ACCESS,
        [ls.SHADOW_TYPE, i64, i64, i64, i64],
        [i64],
        ["shadow", "address", "bytes", "access", "shift"],
    )
    shadow, address, size, access, shift = fn.args
    n = I64(b)
    base = _load(b, shadow, const(b, ls.BASE))
    offset = n.op(arith.SubiOp, address, base)
    end = n.op(arith.AddiOp, offset, size)
    inside = n.op(
        arith.AndIOp,
        n.cmp("ule", end, _load(b, shadow, const(b, ls.BYTES))),
        n.cmp("ule", offset, end),  # no wrap-around: offset >= 0
    )

    def check(inner: Builder) -> list[SSAValue]:
        m = I64(inner)
        first = m.op(arith.ShRUIOp, offset, shift)
        first = inner.insert(arith.IndexCastOp(first, IndexType())).result
        first = inner.insert(arith.AddiOp(first, const(inner, ls.HEADER_WORDS)))
        count = m.op(arith.ShRUIOp, size, shift)
        count = inner.insert(arith.IndexCastOp(count, IndexType())).result

        def cell(body: Builder, i: SSAValue, found: list[SSAValue]) -> list[SSAValue]:
            at = body.insert(arith.AddiOp(first.result, i)).result
            n = I64(body)
            old = _load(body, shadow, at)
            same = unchanged(n, old, access)

            def update(slow: Builder) -> list[SSAValue]:
                k = I64(slow)
                new, race = step(k, current(k, old, access), access)
                slow.insert(memref.StoreOp.get(new, shadow, [at]))
                return [k.select(k.cmp("ne", found[0], 0), found[0], race)]

            kept = build_if_else(body, same, [i64], lambda _: [found[0]], update)
            return [kept.results[0]]

        loop = build_for_carrying(
            inner, const(inner, 0), count, const(inner, 1), [const(inner, 0, i64)], cell
        )
        return [loop.results[0]]

    result = build_if_else(b, inside, [i64], check, lambda e: [const(e, 0, i64)])
    b.insert(func.ReturnOp(result.results[0]))
    return fn


def unchanged(n: I64, old: SSAValue, access: SSAValue) -> SSAValue:
    """Whether `access` leaves the word `old` as it is (an i1): the same access
    again, or one more read (atomic access) of a cell several work-items read
    (accessed atomically) in this epoch; the common case of a loop over local
    memory, which needs no update."""
    keep = ls.KIND_MASK | ls.SHARED | ls.TAG_MASK
    shared = n.op(arith.OrIOp, n.op(arith.AndIOp, access, keep), ls.SHARED)
    return n.op(
        arith.OrIOp,
        n.cmp("eq", old, access),
        n.cmp("eq", n.op(arith.AndIOp, old, keep), shared),
    )


def current(n: I64, old: SSAValue, access: SSAValue) -> SSAValue:
    """The word `old` as `access` sees it: 0 (empty) if it is of another
    epoch than `access` (its tag differs)."""
    tag = n.op(arith.XOrIOp, old, access)
    same = n.cmp("eq", n.op(arith.AndIOp, tag, ls.TAG_MASK), 0)
    return n.select(same, old, n.c(0))


def step(n: I64, old: SSAValue, new: SSAValue) -> tuple[SSAValue, SSAValue]:
    """The cell's next word and the race (0: none) when `new` meets `old` (of
    the epoch of `new`, or 0)."""
    kind = n.op(arith.AndIOp, old, ls.KIND_MASK)
    k = n.op(arith.AndIOp, new, ls.KIND_MASK)
    v = n.field(new, ls.FIRST_ID, ls.ID_MASK)
    first = n.field(old, ls.FIRST_ID, ls.ID_MASK)
    second = n.field(old, ls.SECOND_ID, ls.ID_MASK)
    shared = n.cmp("ne", n.op(arith.AndIOp, old, ls.SHARED), 0)
    empty = n.cmp("eq", old, 0)
    other_first = n.cmp("ne", first, v)
    other_second = n.op(arith.AndIOp, shared, n.cmp("ne", second, v))
    others = n.op(arith.OrIOp, other_first, other_second)
    others = n.op(arith.AndIOp, others, n.not_(empty))
    mine = n.select(n.cmp("uge", k, kind), new, old)
    compatible = n.op(arith.AndIOp, n.cmp("eq", k, kind), n.cmp("ne", k, ls.WRITE))
    site = n.field(new, ls.FIRST_SITE, ls.SITE_MASK)
    joined = n.op(arith.OrIOp, old, ls.SHARED)
    joined = n.op(arith.OrIOp, joined, n.op(arith.ShLIOp, v, ls.SECOND_ID))
    joined = n.op(arith.OrIOp, joined, n.op(arith.ShLIOp, site, ls.SECOND_SITE))
    joined = n.select(shared, old, joined)
    with_others = n.select(compatible, joined, old)
    word = n.select(empty, new, n.select(others, with_others, mine))
    # the other work-item and its site: the first one's unless it is `v`
    other = n.select(other_first, first, second)
    other_site = n.select(
        other_first,
        n.field(old, ls.FIRST_SITE, ls.SITE_MASK),
        n.field(old, ls.SECOND_SITE, ls.SITE_MASK),
    )
    race = n.op(arith.OrIOp, kind, n.op(arith.ShLIOp, other, ls.FIRST_ID))
    race = n.op(arith.OrIOp, race, n.op(arith.ShLIOp, other_site, ls.FIRST_SITE))
    racing = n.op(arith.AndIOp, others, n.not_(compatible))
    race = n.select(racing, race, n.c(0))
    # a uniform write changes no byte: it takes a written byte over (its
    # writer's later reads are of its own write), and leaves the others alone
    uniform = n.cmp("ne", n.op(arith.AndIOp, new, ls.UNIFORM), 0)
    written = n.cmp("eq", kind, ls.WRITE)
    clean = n.op(arith.AndIOp, new, ~ls.UNIFORM)
    word = n.select(uniform, n.select(written, clean, old), word)
    return word, n.select(uniform, n.c(0), race)


def _epoch() -> func.FuncOp:
    """Starts the next epoch: `EPOCH` + 1, and the cells zeroed when its tag
    comes back to 0 (a word of that tag could be of an older epoch)."""
    fn, b = new_function(NEXT_EPOCH, [ls.SHADOW_TYPE], [], ["shadow"])
    shadow = fn.args[0]
    at = const(b, ls.EPOCH)
    n = I64(b)
    epoch = n.op(arith.AddiOp, _load(b, shadow, at), 1)
    tag = n.op(arith.AndIOp, epoch, (1 << ls.TAG_BITS) - 1)

    def zero(inner: Builder) -> None:
        cells = _load(inner, shadow, const(inner, ls.CELLS))
        count = inner.insert(arith.IndexCastOp(cells, IndexType())).result
        first = const(inner, ls.HEADER_WORDS)
        end = inner.insert(arith.AddiOp(first, count)).result
        zero_word = const(inner, 0, i64)

        def clear(body: Builder, i: SSAValue) -> None:
            body.insert(memref.StoreOp.get(zero_word, shadow, [i]))

        build_for(inner, first, end, const(inner, 1), clear)

    build_if(b, n.cmp("eq", tag, 0), zero)
    b.insert(memref.StoreOp.get(epoch, shadow, [at]))
    b.insert(func.ReturnOp())
    return fn


def _load(b: Builder, shadow: SSAValue, index: SSAValue) -> SSAValue:
    return b.insert(memref.LoadOp.get(shadow, [index])).res


def _report() -> func.FuncOp:
    """`@__mux_report_local_race(%record, %race, %offset, %bytes, %site,
    %lane)`: reports the race of this work-item's access at `%site` with the
    access `%race` (`check_record.report`): the byte offset in what is
    accessed (`a`), the access's size (`b`), the other work-item's ids (from
    its local linear id) and site. This work-item is the one running, `%lane`
    added to its ids in x: a lane of a packet (`packets`), 0 in a scalar
    kernel."""
    types = [RECORD_TYPE, i64, i64, i64, i64, i64]
    names = ["record", "race", "offset", "bytes", "site", "lane"]
    fn, b = new_function(REPORT, types, [], names)
    # out of line and cold, as check_record's recorders: the checks inline in
    # the work-item loops stay small
    fn.attributes["passthrough"] = ArrayAttr(
        [StringAttr("noinline"), StringAttr("cold")]
    )
    record, race, offset, size, site, lane = fn.args
    n = I64(b)
    linear = n.field(race, ls.FIRST_ID, ls.ID_MASK)
    linear = b.insert(arith.IndexCastOp(linear, IndexType())).result
    sizes = _ids(b, mux.GetLocalSizeOp)
    rows = b.insert(arith.DivUIOp(linear, sizes[0])).result
    other: list[SSAValue] = [
        b.insert(arith.RemUIOp(linear, sizes[0])).result,
        b.insert(arith.RemUIOp(rows, sizes[1])).result,
        b.insert(arith.DivUIOp(rows, sizes[1])).result,
    ]
    report(
        b,
        record,
        Fault.LOCAL_RACE,
        site,
        global_id=_lane_ids(b, mux.GetGlobalIdOp, lane),
        local_id=_lane_ids(b, mux.GetLocalIdOp, lane),
        a=offset,
        b=size,
        site2=_site(n, race),
        global_id2=_global_ids(b, other),
        local_id2=other,
    )
    b.insert(func.ReturnOp())
    return fn


def _site(n: I64, race: SSAValue) -> SSAValue:
    """The other access's site, -1 (the runtime says it is unknown) if it did
    not fit its field."""
    site = n.field(race, ls.FIRST_SITE, ls.SITE_MASK)
    return n.select(n.cmp("eq", site, ls.UNKNOWN_SITE), n.c(-1), site)


def _ids(b: Builder, query: Callable[[SSAValue], Operation]) -> list[SSAValue]:
    return [b.insert(query(const(b, d, i32))).results[0] for d in range(3)]


def _lane_ids(
    b: Builder, query: Callable[[SSAValue], Operation], lane: SSAValue
) -> list[SSAValue]:
    """The ids of the work-item running, `lane` (an i64) added in x."""
    ids = _ids(b, query)
    lane = b.insert(arith.IndexCastOp(lane, IndexType())).result
    ids[0] = b.insert(arith.AddiOp(ids[0], lane)).result
    return ids


def _global_ids(b: Builder, local: Sequence[SSAValue]) -> list[SSAValue]:
    """Global ids of the work-item of this group at `local`: `group *
    enqueued size + offset + local`, per dimension."""
    groups = _ids(b, mux.GetGroupIdOp)
    sizes = _ids(b, mux.GetEnqueuedLocalSizeOp)
    offsets = _ids(b, mux.GetGlobalOffsetOp)
    ids = []
    for d in range(3):
        start = b.insert(arith.MuliOp(groups[d], sizes[d])).result
        start = b.insert(arith.AddiOp(start, offsets[d])).result
        ids.append(b.insert(arith.AddiOp(start, local[d])).result)
    return ids
