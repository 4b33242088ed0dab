"""`check-access-bounds`: in checked mode, every memory access of a kernel is
checked against the extent of what it addresses; an access out of it is not
done (a load gives 0), the fault is recorded in the check record
(`lowering.common.check_record.report`) and the kernel goes on.

The spec has no such pass (checked mode is ours, issue 17; lower-printf is not
the spec's either); the memories it checks are ir-conventions.rst's address
spaces: 0 private, 1 global, 2 constant, 3 local. The host pipeline runs it
only when `checked` is set, after
`run-vecz` and before `work-item-loops`, so that it sees both the scalar kernel
and its vectorised copy (`mux.vecz_derived`), each of which gets the record as
its last parameter (`mux.check_record`).

What is checked, and against what (`lowering.common.memory_objects`):

- `memref.load`/`store`, `vector.load`/`store`/`maskedload`/`maskedstore` and
  the `atomic` ops on a memref: the row-major linear index against the memref's
  elements, the static shape's or, for a parameter whose leading dimension is
  dynamic (`memref<?xT>`, `memref<?x8xT>`), the size in
  bytes the runtime writes to the record (the numpy array's `nbytes`, the
  `LocalBuffer`'s size). A vector access of a packet is ONE range check of its
  elements (`[i, i + N)`), a masked one too, and only if that fails a
  per-lane check of the active lanes reduced to one condition. A memref
  index is checked linearly (a row index past its row but inside the memref
  is not a fault, as in C);
- `llvm.load`/`store`, `llvmx` volatile loads, atomics and `memcpy` (DMA: by
  this point `define-mux-dma` has made each transfer a `llvmx.memcpy`, whose
  source and destination ranges are both checked): the pointer is traced back
  to every object it may point into (GEPs, casts, selects, phis); the access is
  in bounds if `[p, p + size)` lies within one of them. The check compares the
  addresses at run time, so a pointer moved in a loop needs no analysis.

When the work-group size is known (`mux.reqd_work_group_size`: a kernel
compiled for a launch), a scalar memref access whose index the compiler can
compute for every work-item of the group (`lowering.common.group_values`:
arithmetic on the local id and on loop variables, under the conditions around
the access it can compute) is in bounds if its index is below the extent, OR
the largest index of the group is: a test of values the group shares, which
LLVM takes out of the work-item loops (or folds, for a static extent), so that
reduce's tree steps run as unchecked when the local buffer holds them all, and
a smaller one still faults exactly where an index is past it.

Functions a checked kernel calls are inlined into it first (the extents of the
buffers they are given are then the kernel's); a call left after 32 rounds
(recursion, which OpenCL C forbids) keeps its callee's accesses unchecked.

Never a false report: an access whose object is not known (a pointer loaded
from memory, made from an integer, returned by a call; a memref that is not a
parameter and has no static shape) is left unchecked and listed, with the
reason, in the module's `mux.check_unchecked`.

Each check site (`mux.check_sites`) says what the access is, what it addresses
and where: "store to parameter 'c' (memref<?xf32, 1>) at vadd.mlir:16:3". A
fault records the site, the work-item's global and local ids (in a vectorised
kernel the packet's first work-item's, plus the faulting lane in x), the
element index and the byte offset.

Before: `run-vecz` (vectorised copies made), module-scope variables replaced.
After: every checked access is inside an `scf.if` of its bounds, the fault
branch reporting to the record: in a vectorised kernel at once (a call of the
module's recording function); in a scalar kernel later
(`check_record.DeferredReport`: the fault branch only keeps the work-item's
first fault in private words, so the work-item loops hold no call and LLVM
vectorises them), without barriers at the work-item's return, with barriers
when its work-group ends (`work-item-loops` reads the words, which are marked
`mux.check_fault_word`: `lowering.scheduling.region_faults`). A kernel
without barriers loads each extent from the record once, at its entry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func, llvm, memref, scf, vector
from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    UnrealizedConversionCastOp,
    VectorType,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint

from dialects import attributes as mux_attrs
from dialects import llvmx, mux
from lowering.common import check_record as cr
from lowering.common.access_sites import Target, describe_location, targets
from lowering.common.builders import (
    build_if_else,
    const,
    reduce_vector,
    vector_constant,
)
from lowering.common.functions import calls_in, functions
from lowering.common.group_values import GroupValues
from lowering.common.inlining import inline_call
from lowering.common.layout import storage
from lowering.common.llvm_types import memory_space_number, memref_strides, pointer_type
from lowering.common.memory_objects import (
    MemoryObject,
    memory_object,
    pointer_roots,
)
from lowering.scheduling.wrapper import scheduled_ops

INLINE_ROUNDS = 32


@dataclass(frozen=True)
class CheckAccessBoundsPass(ModulePass):
    """Checks every memory access of each kernel and vectorised kernel against
    the extent of what it addresses (module docstring)."""

    name = "check-access-bounds"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fns = functions(op)
        targets_ = [
            fn
            for fn in fns.values()
            if not fn.is_declaration
            and (
                mux_attrs.is_kernel_entry_point(fn)
                or mux_attrs.VECZ_DERIVED.get(fn) is not None
            )
        ]
        for fn in targets_:
            _inline_calls(fn, fns)
        unchecked: list[str] = list(mux_attrs.CHECK_UNCHECKED.get(op) or ())
        for fn in targets_:
            unchecked += _Checker(fn).run()
        if unchecked:
            mux_attrs.CHECK_UNCHECKED.set(op, tuple(unchecked))


def _inline_calls(fn: func.FuncOp, fns: dict[str, func.FuncOp]) -> None:
    """Inlines the functions `fn` calls, transitively (INLINE_ROUNDS at most)."""
    for _ in range(INLINE_ROUNDS):
        calls = [
            (call, callee)
            for call in calls_in(fn)
            if (callee := fns.get(call.callee.root_reference.data)) is not None
            and not callee.is_declaration
        ]
        if not calls:
            return
        for call, callee in calls:
            inline_call(call, callee, CheckAccessBoundsPass.name)


@dataclass
class _Check:
    """One bounds check of an access: `ok` (i1), the site, and how to compute
    the fault's details in the fault branch: (element, byte offset, lane or
    None) as index values."""

    ok: SSAValue
    site: int
    details: Callable[[Builder], tuple[SSAValue, SSAValue, SSAValue | None]]


@dataclass
class _Checker:
    fn: func.FuncOp
    unchecked: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.record = cr.record_param(self.fn)
        derived = mux_attrs.VECZ_DERIVED.get(self.fn)
        self.vectorised = derived is not None
        self.packet = (
            derived is not None and (mux_attrs.VECZ_ROWS.get(self.fn) or 1) == 1
        )
        self.extents: dict[tuple[int, int], SSAValue] = {}
        self.group = GroupValues.of(self.fn)
        """The kernel's values over its work-group, if its size is known."""
        # a value of the entry would live across the barriers: stored per
        # work-item by work-item-loops, loaded back in each region
        self.hoist = not any(isinstance(o, scheduled_ops(None)) for o in self.fn.walk())
        self.hoisted: Operation | None = None
        """The last op put at the entry (`_extent`), the others before it."""

    def run(self) -> list[str]:
        accesses = [(op, found) for op in self.fn.walk() if (found := targets(op))]
        # a scalar kernel reports its faults later, so that LLVM vectorises
        # its work-item loops (a call in them stops that): when the work-item
        # returns, or with barriers when its work-group ends (work-item-loops
        # reads the private words); a packet's at once (its loop over packets
        # is not LLVM's to vectorise)
        self.deferred = (
            cr.DeferredReport(
                self.fn, self.record, cr.Fault.OUT_OF_BOUNDS, regions=not self.hoist
            )
            if accesses and not self.vectorised
            else None
        )
        for op, found in accesses:
            b = Builder(InsertPoint.before(op))
            checks = [self._check(b, op, target) for target in found]
            if all(c is not None for c in checks):
                self._guard(b, op, [c for c in checks if c is not None])
        if self.deferred is not None and self.hoist:
            self.deferred.finish()
        return self.unchecked

    # -- the checks ------------------------------------------------------------------

    def _check(self, b: Builder, op: Operation, target: Target) -> _Check | None:
        if isinstance(target.ref.type, MemRefType):
            obj = memory_object(self.fn, target.ref)
            if obj is None:
                return self._leave(op, target, "a memref of unknown extent")
            return self._memref_check(b, op, target, obj)
        roots = pointer_roots(self.fn, target.ref)
        if not roots:
            return self._leave(op, target, "a pointer whose base is not known")
        if any(not self._dominates(r) for r in roots):
            return self._leave(op, target, "a base defined outside the entry block")
        return self._pointer_check(b, op, target, roots)

    def _leave(self, op: Operation, target: Target, why: str) -> None:
        self.unchecked.append(
            f"{target.verb} {target.ref.type} at {describe_location(op)} in "
            f"'{self.fn.sym_name.data}': {why}"
        )
        return None

    def _dominates(self, obj: MemoryObject) -> bool:
        entry = self.fn.body.blocks.first
        value = obj.value
        owner = value.owner
        return owner is entry or (
            isinstance(owner, Operation) and owner.parent_block() is entry
        )

    def _site(self, op: Operation, target: Target, what: str) -> int:
        where = describe_location(op)
        packet = " (vectorised kernel)" if self.vectorised else ""
        return cr.add_site(self.fn, f"{target.verb} {what} at {where}{packet}")

    def _bytes(self, b: Builder, obj: MemoryObject) -> SSAValue:
        """The object's size in bytes (i64)."""
        if obj.static_bytes is not None:
            return const(b, obj.static_bytes, i64)
        assert obj.param is not None
        return self._extent(b, obj.param, 0)

    def _extent(self, b: Builder, param: int, element: int) -> SSAValue:
        """Parameter `param`'s extent: for `element` 0 its bytes (i64), else
        its count of `element`-byte elements (index). In a kernel without
        barriers, computed once at its entry: a load at each access is
        repeated after every store and report (LLVM cannot tell the record
        from the buffers). With barriers, at the access (`hoist`)."""
        key = (param, element)
        if key in self.extents:
            return self.extents[key]
        if self.hoist:  # at the entry, after the extents computed before
            entry = self.fn.body.blocks.first
            assert entry is not None
            last = self.hoisted
            b = Builder(
                InsertPoint.after(last) if last else InsertPoint.at_start(entry)
            )
        if element == 0:
            word = const(b, cr.param_word(param))
            load = b.insert(memref.LoadOp.get(self.record, [word]))
            mux_attrs.INVARIANT_LOAD.set(load, True)  # the runtime wrote it
            value = load.res
        else:
            size = b.insert(arith.IndexCastOp(self._extent(b, param, 0), IndexType()))
            value = b.insert(arith.DivUIOp(size.result, const(b, element))).result
        if self.hoist:
            self.extents[key] = value
            self.hoisted = value.owner if isinstance(value.owner, Operation) else None
        return value

    def _memref_check(
        self, b: Builder, op: Operation, target: Target, obj: MemoryObject
    ) -> _Check:
        type_ = target.ref.type
        assert isinstance(type_, MemRefType)
        element = storage(type_.element_type)[0]
        if obj.static_bytes is not None:
            count = const(b, obj.static_bytes // element)
        else:
            assert obj.param is not None
            count = self._extent(b, obj.param, element)
        linear = _linear(b, target.indices, type_)
        site = self._site(op, target, obj.what)
        lanes = target.lanes
        if target.mask is not None:
            return self._masked_check(
                b, linear, count, target.mask, lanes, element, site
            )
        ok = _range_ok(b, linear, count, lanes)
        largest = None
        if lanes == 1 and self.group is not None:
            largest = self.group.largest(linear, op)
        if largest is not None:
            # no work-item's index is above `largest`: past it, the extent
            # holds them all, a test of values the group shares, which LLVM
            # takes out of the work-item loops (or folds, the extent static)
            whole = _ult(b, const(b, largest), count)
            ok = b.insert(arith.OrIOp(whole, ok)).result

        def details(f: Builder) -> tuple[SSAValue, SSAValue, SSAValue | None]:
            inside = _ult(f, linear, count)
            first = f.insert(arith.SelectOp(inside, count, linear)).result
            offset = f.insert(arith.MuliOp(first, const(f, element))).result
            if lanes > 1:
                lane = f.insert(arith.SubiOp(first, linear)).result
            else:  # a packet's access of one lane (run-vecz's) names its lane
                made_by = mux_attrs.VECZ_LANE.get(op)
                lane = None if made_by is None else const(f, made_by)
            return first, offset, lane

        return _Check(ok, site, details)

    def _masked_check(
        self,
        b: Builder,
        linear: SSAValue,
        count: SSAValue,
        mask: SSAValue,
        lanes: int,
        element: int,
        site: int,
    ) -> _Check:
        """The active lanes of a masked packet access, each in bounds: first
        the whole packet, one scalar range check (a packet inside its object
        is in bounds whatever its mask), and only if that fails lane by lane
        (a packet across the object's end, its lanes past it inactive)."""
        vtype = VectorType(i64, [lanes])

        def outside(f: Builder) -> tuple[SSAValue, SSAValue]:
            """The active lanes out of bounds (vector<i1>), and the lanes."""
            iota = vector_constant(f, vtype, list(range(lanes)))
            start = _splat(f, f.insert(arith.IndexCastOp(linear, i64)).result, vtype)
            limit = _splat(f, f.insert(arith.IndexCastOp(count, i64)).result, vtype)
            indices = f.insert(arith.AddiOp(start, iota)).result
            # xDSL's arith.cmpi gives one i1: the vector comparison is llvm's
            uge = IntegerAttr(llvm.ICmpPredicateFlag("uge").to_int(), i64)
            past = f.insert(llvm.ICmpOp(indices, limit, uge)).res
            return f.insert(arith.AndIOp(past, mask)).result, iota

        def lane_by_lane(inner: Builder) -> list[SSAValue]:
            any_bad = reduce_vector(inner, outside(inner)[0], "or", i1)
            return [inner.insert(arith.XOrIOp(any_bad, const(inner, 1, i1))).result]

        whole = _range_ok(b, linear, count, lanes)
        inside = build_if_else(
            b, whole, [i1], lambda y: [const(y, 1, i1)], lane_by_lane
        )
        ok = inside.results[0]

        def details(f: Builder) -> tuple[SSAValue, SSAValue, SSAValue | None]:
            bad, iota = outside(f)
            none = vector_constant(f, vtype, [lanes] * lanes)
            chosen = f.insert(llvmx.SelectOp(bad, iota, none)).res
            lane64 = reduce_vector(f, chosen, "minui", i64)
            lane = f.insert(arith.IndexCastOp(lane64, IndexType())).result
            first = f.insert(arith.AddiOp(linear, lane)).result
            offset = f.insert(arith.MuliOp(first, const(f, element))).result
            return first, offset, lane

        return _Check(ok, site, details)

    def _pointer_check(
        self, b: Builder, op: Operation, target: Target, roots: list[MemoryObject]
    ) -> _Check:
        """`[p, p + width)` inside one of `roots`, compared as addresses."""
        address = b.insert(llvm.PtrToIntOp(target.ref, i64)).output
        width = target.width
        width = const(b, width, i64) if isinstance(width, int) else cr.to_i64(b, width)
        oks: list[SSAValue] = []
        offsets: list[SSAValue] = []
        sizes: list[SSAValue] = []
        for obj in roots:
            base = b.insert(llvm.PtrToIntOp(self._pointer(b, obj), i64)).output
            offset = b.insert(arith.SubiOp(address, base)).result
            size = self._bytes(b, obj)
            end = b.insert(arith.AddiOp(offset, width)).result
            oks.append(_and(b, _ule(b, offset, size), _ule(b, end, size)))
            offsets.append(offset)
            sizes.append(size)
        ok = oks[0]
        for other in oks[1:]:
            ok = b.insert(arith.OrIOp(ok, other)).result
        what = " or ".join(obj.what for obj in roots)
        site = self._site(op, target, what)
        # the element index in the accessed type's units, or for a copy (whose
        # width is a value) in the buffer's elements
        fixed = target.width if isinstance(target.width, int) else 0
        base_type = roots[0].value.type
        if not fixed and isinstance(base_type, MemRefType):
            fixed = storage(base_type.element_type)[0]

        def details(f: Builder) -> tuple[SSAValue, SSAValue, SSAValue | None]:
            offset = f.insert(arith.IndexCastOp(offsets[0], IndexType())).result
            if not isinstance(target.width, int):  # a copy: its first byte out
                size = f.insert(arith.IndexCastOp(sizes[0], IndexType())).result
                offset = f.insert(arith.SelectOp(_ule(f, offset, size), size, offset))
                offset = offset.result
            if fixed <= 0:
                return offset, offset, None
            first = f.insert(arith.DivSIOp(offset, const(f, fixed))).result
            return first, offset, None

        return _Check(ok, site, details)

    def _pointer(self, b: Builder, obj: MemoryObject) -> SSAValue:
        value = obj.value
        type_ = value.type
        if isinstance(type_, MemRefType):
            pointer = pointer_type(memory_space_number(type_))
            cast = UnrealizedConversionCastOp.get([value], [pointer])
            value = b.insert(cast).results[0]
        if obj.offset:  # a local variable: its place in the buffer
            pointer = value.type
            assert isinstance(pointer, llvm.LLVMPointerType)
            gep = llvm.GEPOp(value, [obj.offset], i8, result_type=pointer)
            value = b.insert(gep).result
        return value

    # -- the guard -------------------------------------------------------------------

    def _guard(self, b: Builder, op: Operation, checks: Sequence[_Check]) -> None:
        """`op` inside `scf.if` of its checks; the fault branch reports the first
        check that failed and yields zeros."""
        ok = checks[0].ok
        for check in checks[1:]:
            ok = _and(b, ok, check.ok)
        types = list(op.result_types)
        fault = Block()
        inner = Builder(InsertPoint.at_end(fault))
        self._report_first(inner, list(checks))
        inner.insert(scf.YieldOp(*[_zero(inner, t) for t in types]))
        then = Block()
        guard = b.insert(scf.IfOp(ok, types, Region(then), Region(fault)))
        for old, new in zip(op.results, guard.results, strict=True):
            old.replace_all_uses_with(new)
        op.detach()
        then.add_op(op)
        then.add_op(scf.YieldOp(*op.results))

    def _report_first(self, b: Builder, checks: list[_Check]) -> None:
        check = checks[0]
        if len(checks) == 1:
            self._report(b, check)
            return
        then, otherwise = Block(), Block()
        self._report_first(Builder(InsertPoint.at_end(then)), checks[1:])
        then.add_op(scf.YieldOp())
        self._report(Builder(InsertPoint.at_end(otherwise)), check)
        otherwise.add_op(scf.YieldOp())
        b.insert(scf.IfOp(check.ok, [], Region(then), Region(otherwise)))

    def _report(self, b: Builder, check: _Check) -> None:
        element, offset, lane = check.details(b)
        if self.deferred is not None:
            self.deferred.note(b, check.site, element, offset)
            return
        cr.report_call(
            b,
            self.fn,
            self.record,
            cr.Fault.OUT_OF_BOUNDS,
            check.site,
            a=element,
            b=offset,
            lane=lane if self.packet else None,
        )


# -- small builders ------------------------------------------------------------------


def _linear(b: Builder, indices: Sequence[SSAValue], type_: MemRefType) -> SSAValue:
    """The row-major linear index of `indices` in `type_`."""
    strides = memref_strides(type_)
    linear: SSAValue | None = None
    for index, stride in zip(indices, strides, strict=True):
        term = (
            index
            if stride == 1
            else b.insert(arith.MuliOp(index, const(b, stride))).result
        )
        linear = term if linear is None else b.insert(arith.AddiOp(linear, term)).result
    return linear if linear is not None else const(b, 0)


def _range_ok(b: Builder, linear: SSAValue, count: SSAValue, lanes: int) -> SSAValue:
    """`[linear, linear + lanes)` inside `[0, count)` (index values, unsigned:
    the first test keeps a huge `linear` whose end wraps around out)."""
    ok = _ult(b, linear, count)
    if lanes > 1:
        end = b.insert(arith.AddiOp(linear, const(b, lanes))).result
        ok = _and(b, ok, _ule(b, end, count))
    return ok


def _id(
    b: Builder, op: type[mux.GetGlobalIdOp | mux.GetLocalIdOp], dim: int
) -> SSAValue:
    return b.insert(op(const(b, dim, i32))).result


def _ult(b: Builder, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    return b.insert(arith.CmpiOp(lhs, rhs, "ult")).result


def _ule(b: Builder, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    return b.insert(arith.CmpiOp(lhs, rhs, "ule")).result


def _and(b: Builder, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    return b.insert(arith.AndIOp(lhs, rhs)).result


def _splat(b: Builder, value: SSAValue, type_: VectorType) -> SSAValue:
    return b.insert(vector.BroadcastOp(value, type_)).vector


def _zero(b: Builder, type_) -> SSAValue:
    """0 of `type_`: what a load out of bounds gives."""
    if isinstance(type_, IntegerType | IndexType):
        return const(b, 0, type_)
    if isinstance(type_, VectorType):
        element = type_.element_type
        count = 1
        for size in type_.get_shape():
            count *= size
        if isinstance(element, IntegerType | IndexType):
            return vector_constant(b, type_, [0] * count)
        return vector_constant(b, type_, [0.0] * count)
    if isinstance(type_, AnyFloat):
        return b.insert(arith.ConstantOp(FloatAttr(0.0, type_))).result
    return b.insert(llvm.ZeroOp.create(result_types=[type_])).results[0]
