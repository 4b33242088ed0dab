"""`run-vecz`: the spec's RunVeczPass, a whole-function vectoriser.

compiler-utils-passes.rst, "RunVeczPass": "This vectorizes the kernel to a SIMD width
specified when the pass is created. In our case this is typically local size in the
first dimension ... If successful, this will return a new vectorized kernel function
created in the LLVM module". The spec's vectoriser, vecz, is an LLVM pass; this one
works on the kernel's structured form (`scf`, `arith`, `math`, `memref`, `mux`), before
`work-item-loops`, which runs the vectorised kernel over the work-items of dimension 0
`width` at a time and the scalar kernel over the rest ("Vector + Scalar",
"Work-group scheduling (vectorized and scalar loops)").

For a kernel entry point `@k` it adds `@__vecz_v<W>_k` (vecz's naming), which runs
the `W` work-items `x, x + 1, ..., x + W - 1` of dimension 0 at once, `x` being its
`mux.get_local_id 0`. `@k` gets `mux.vecz_base = [W, "__vecz_v<W>_k"]` and the new
function `mux.vecz_derived = [W, "k"]` (the spec's `!codeplay_ca_vecz.base` and
`.derived`); a kernel it cannot vectorise gets `mux.vecz_fail = [W, "<why>"]`
(`!codeplay_ca_vecz.base.fail`) and stays scalar.

**Rows.** With `rows = R > 1` (option `rows`, or the cost model's `auto_rows` for a
kernel whose loops carry values that differ between lanes: an inner product), the
new function `@__vecz_v<W>x<R>_k` (`mux.vecz_rows = R`) runs `R` rows of `W`:
the work-items `(x + i, y + j)`, `i < W`, `j < R`, in lane `i + W * j`, `y` being
its `mux.get_local_id 1`. That is a packet of work-items unrolled and jammed in y:
a load that is the same in every row (`B[k][x + i]`) is made once for the `R`
rows, a load that is the same along each row (`A[y + j][k]`) once per row, and the
`R` chains of adds are independent. It needs a required work-group size whose y is
a multiple of `R`, dimension 1 looped right outside dimension 0, and no barriers;
the cost model falls back to one row otherwise, and when rows would leave accesses
lane by lane (clamped loads are whole vectors in one row only).

How each value of `@k` is carried over the `W` lanes:

- **uniform** (the same in every lane): one scalar, computed as in `@k`. Constants,
  arguments, work-group queries, `get_local_id`/`get_global_id` of dimension 2 and,
  for packets of one row, of dimension 1, loads from a uniform address, and pure ops
  (`arith`, `math`) of uniform operands.
- **linear**: `base + stride * i + row_stride * j` in lane `i + W * j` for an
  integer `base` (lane 0's value), a constant `stride` and a `row_stride` that is a
  constant or a uniform scalar: `get_local_id 0`, `get_global_id 0` and the linear
  ids (stride 1), with rows `get_local_id 1` and `get_global_id 1` (row stride 1),
  and sums, differences and products by constants of those (products by a uniform
  scalar too, for values that are the same along a row: `y * n`). An access
  `m[u..., base + lane]` with `u` the same along a row is contiguous: one
  `vector.load`/`store` per row, or one for all rows when the rows read the same
  elements. A load at an address the same along each row is one scalar load per
  row. With a required work-group size, a small alignment analysis knows lane 0's
  `get_local_id 0` is a multiple of `W`, so `(x + i) / 16` is uniform and `(x + i) %
  16` linear for `W` dividing 16.
- **piecewise**: a linear value clamped by a uniform one (`maxsi(x - 1, 0)`, as
  image kernels clamp neighbours at a border), and offsets of that: a vector of
  i1 says where the linear value wins. A load at it is one masked contiguous load
  and, if a lane takes the clamp, one load there.
- **varying**: a `vector<W x T>` (`index` lanes are `i64`): any other op of a
  varying operand, widened to vectors; comparisons are `llvm.icmp`/`llvmx.fcmp`
  (xDSL 0.74's `arith.cmpi` gives one `i1`), selects on a vector of conditions
  `llvmx.select`, casts the `llvm` ones (xDSL's `arith` casts take scalars). Loads
  and stores at other addresses are done lane by lane.

Control flow is kept where it is uniform and replaced by masks where it is not:

- An `scf.if` on a uniform condition stays an `scf.if`.
- An `scf.if` on a varying condition runs both branches, each under its mask (the
  enclosing mask and the condition, or its negation); its results are selected lane
  by lane. A branch is skipped when no lane of its mask is active (`scf.if` on an
  `or` reduction of the mask, vecz's "BOSCC"): inside it at least one lane is active,
  so a load from a uniform address is one any active lane would do. Loads and stores
  under a mask are `vector.maskedload`/`maskedstore` or lane by lane, lanes in
  order.
- An `scf.for` with uniform bounds stays one (all lanes iterate alike); its
  `iter_args` are scalars or vectors as their values are. One from a linear lower
  bound (`for e = lid; e < n; e += count`) keeps a linear induction variable: one
  scalar loop over lane 0's values, the body under the mask of the lanes below `n`.
  One whose bounds differ between lanes otherwise becomes an `scf.while` on vectors
  of the induction variable and the `iter_args`, running while a lane iterates, its
  body under the mask of those that do. An `scf.while` must have a uniform
  condition.

**Barriers.** A barrier must be at a point every lane reaches (not under a varying
`scf.if` or in a loop with varying bounds), with the `unordered` schedule (the
`linear` and `once` schedules of `replace-wgc` run work-items one after another, which
a packet does not), and the kernel must have a required
work-group size whose x is a multiple of the width: `work-item-loops` then runs the
vectorised kernel alone, its barrier regions over packets of work-items (the spec's
"Vector only"; a scalar tail with barriers would need the two kernels' regions run
in step).

Not vectorised (`mux.vecz_fail` says why): collectives, sub-group and DMA ops,
atomics, calls, `scf.while` with a varying condition, `cf` branches, memrefs that
differ between lanes, loads and stores on memrefs with a layout, and any op of
another dialect. Neither are kernels whose work-item order does not loop dimension 0
innermost (the vector loop must be the innermost), whose `mux.max_work_dim` is 0, or
whose required work-group size is smaller than `width` in dimension 0.

Before: barriers prepared (`prepare-barriers`: their ids unique, none in a called
function), builtins replaced (`replace-mux-math-decls`, `replace-atomic-funcs`),
metadata attached (work-item order, required work-group size).
After: `work-item-loops` schedules each kernel with `mux.vecz_base` as "Vector +
Scalar" (or "Vector only"); `define-mux-builtins` defines the queries of both
functions alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func, llvm, memref, scf, vector
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    UnrealizedConversionCastOp,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import DiagnosticException, VerifyException

from dialects import attributes as mux_attrs
from dialects import llvmx, mux
from lowering.common.builders import const, constant_int
from lowering.common.device import HOST
from lowering.common.errors import PassError
from lowering.common.functions import kernel_entry_points, mark_internal
from lowering.to_llvm.arith import CASTS

_LINEAR_QUERIES = (mux.GetLocalLinearIdOp, mux.GetGlobalLinearIdOp)
_PER_DIMENSION_QUERIES = (mux.GetLocalIdOp, mux.GetGlobalIdOp)
_UNIFORM_QUERIES = tuple(
    q
    for q in mux.QUERY_OPS
    if q not in (*_LINEAR_QUERIES, *_PER_DIMENSION_QUERIES, *mux.SUB_GROUP_QUERY_OPS)
)


_MAX_ALIGNMENT = 1 << 32

_INTEGER_DIVISIONS = (
    arith.DivSIOp,
    arith.DivUIOp,
    arith.RemSIOp,
    arith.RemUIOp,
    arith.CeilDivSIOp,
    arith.CeilDivUIOp,
    arith.FloorDivSIOp,
)


class _Unsupported(Exception):
    """The kernel has something this vectoriser does not handle (the message)."""


def vecz_name(kernel_name: str, width: int, rows: int = 1) -> str:
    shape = f"{width}x{rows}" if rows > 1 else f"{width}"
    return f"__vecz_v{shape}_{kernel_name}"


@dataclass(frozen=True)
class RunVeczPass(ModulePass):
    """Adds to each kernel entry point a version that runs `width` work-items of
    dimension 0 (in each of `rows` rows of dimension 1) at once, for
    `work-item-loops` to use."""

    name = "run-vecz"

    width: int = 0
    """The number of work-items a call of the vectorised kernel runs: a power of 2
    (vectorise whenever possible, the spec's `-cl-wfv=always`), 1 for no
    vectorisation, 0 to let the cost model choose the width (`auto_width`) and
    whether to vectorise at all (`_check_worth_it`; `-cl-wfv=auto`)."""

    rows: int = 0
    """The number of rows (consecutive work-items of dimension 1) a call of the
    vectorised kernel runs, `width` work-items of dimension 0 in each: a power of 2
    (when the kernel allows it, else an error in `mux.vecz_fail`), 1 for one row, 0
    to let the cost model choose (`auto_rows`)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for option, value in (("width", self.width), ("rows", self.rows)):
            if value < 0 or value & (value - 1):
                raise PassError(f"run-vecz: {option} must be a power of 2, got {value}")
        if self.width == 1:
            return
        for kernel in kernel_entry_points(op):
            if mux_attrs.VECZ_BASE.get(kernel) is not None:
                continue  # vectorised already
            width = self.width or HOST.vector_width
            try:
                varying = _varying_values(kernel)
                width = self.width or auto_width(kernel, varying)
                _check_schedule(kernel, width)
                if not self.width:
                    _check_no_barrier_in_while(kernel)
                vectoriser, vectorised = _vectorise(kernel, width, self.rows, varying)
                if not self.width:
                    _check_worth_it(vectoriser, vectorised)
            except _Unsupported as e:
                mux_attrs.VECZ_FAIL.set(kernel, (width, str(e)))
                continue
            op.body.block.insert_op_after(vectorised, kernel)
            name = vectorised.sym_name.data
            mux_attrs.VECZ_BASE.set(kernel, (width, name))
            mux_attrs.VECZ_DERIVED.set(vectorised, (width, kernel.sym_name.data))
            if vectoriser.rows > 1:
                mux_attrs.VECZ_ROWS.set(vectorised, vectoriser.rows)


def _vectorise(
    kernel: func.FuncOp, width: int, rows: int, varying: set[SSAValue]
) -> tuple[_Vectoriser, func.FuncOp]:
    """`kernel` vectorised with `rows` rows (0: the cost model's, `auto_rows`, or one
    row where those are not possible or would leave accesses lane by lane, as
    clamped loads are in rows)."""
    if not rows:
        rows = auto_rows(kernel, varying)
        if rows > 1:
            try:
                vectoriser, vectorised = _vectorise(kernel, width, rows, varying)
            except _Unsupported:
                pass
            else:
                if not vectoriser.lane_accesses:
                    return vectoriser, vectorised
                vectorised.erase()
        rows = 1
    if rows > 1:
        _check_rows(kernel, rows)
        varying = _varying_values(kernel, rows)
    vectoriser = _Vectoriser(kernel, width, varying, rows)
    return vectoriser, vectoriser.run()


def auto_width(kernel: func.FuncOp, varying: set[SSAValue]) -> int:
    """The cost model (the spec's `VeczPassOptionsAnalysis` leaves it to the target):
    `HOST.vector_width`, or twice that for a kernel with a loop that carries a value
    differing between lanes, but no wider than the required work-group size in x
    (rounded down to a power of 2, at least 2, and dividing it when the kernel has
    barriers); `HOST.vector_width` without one. Such a loop is a chain of dependent
    operations (`acc = acc + a * b`) whose latency, not the throughput of the vector
    unit, bounds it; twice the lanes are two independent chains per step (measured
    on `sgemm_naive`: 420 -> 300 ms)."""
    reqd = mux_attrs.REQD_WORK_GROUP_SIZE.get(kernel)
    wide = 2 * HOST.vector_width
    chains = _carries_lanes(kernel, varying)
    if reqd is None:  # packets of 16 would leave groups narrower than 16 scalar
        return HOST.vector_width
    width = wide if chains else HOST.vector_width
    # at most the largest power of 2 in the required size
    width = max(2, min(width, 1 << (reqd[0].bit_length() - 1)))
    if any(isinstance(op, mux.WorkGroupBarrierOp) for op in kernel.walk()):
        while width > 2 and reqd[0] % width:  # barriers: no scalar tail
            width //= 2
    return width


def _carries_lanes(kernel: func.FuncOp, varying: set[SSAValue]) -> bool:
    """Whether a loop of `kernel` carries a value that differs between lanes."""
    return any(
        isinstance(op, scf.ForOp) and any(a in varying for a in op.body.block.args[1:])
        for op in kernel.walk()
    )


DEFAULT_ROWS = 4


def auto_rows(kernel: func.FuncOp, varying: set[SSAValue]) -> int:
    """The cost model's rows: `DEFAULT_ROWS` for a kernel with a loop that carries
    values differing between lanes (an inner product) when `_check_rows` allows it,
    else 1. The rows of a packet then share the loads that are the same in every
    row (B's row in `C[y][x] = sum A[y][k] * B[k][x]`): each such load serves 4
    chains of adds instead of 1, and the walk of B down its columns, a TLB miss per
    step, happens once per 4 rows (`sgemm_naive` in the bench: 276-370 -> 30-41 ms;
    2 rows: 58 ms)."""
    if not _carries_lanes(kernel, varying):
        return 1
    try:
        _check_rows(kernel, DEFAULT_ROWS)
    except _Unsupported:
        return 1
    return DEFAULT_ROWS


def _check_rows(kernel: func.FuncOp, rows: int) -> None:
    """Raises unless `work-item-loops` can run packets of `rows` rows: no barriers
    (their live values are per work-item of one row), a required work-group size
    whose y is a multiple of `rows`, dimension 1 looped right outside dimension 0."""
    if any(isinstance(op, mux.WorkGroupBarrierOp) for op in kernel.walk()):
        raise _Unsupported("packets of more than one row with barriers")
    reqd = mux_attrs.REQD_WORK_GROUP_SIZE.get(kernel)
    if reqd is None or reqd[1] % rows:
        raise _Unsupported(
            f"packets of {rows} rows need a required work-group size whose y is a "
            "multiple of it"
        )
    if mux_attrs.max_work_dim(kernel) < 2:
        raise _Unsupported(f"packets of {rows} rows in a kernel of 1 dimension")
    if mux_attrs.work_item_order(kernel).dimensions[:2] != (0, 1):
        raise _Unsupported("the work-item order does not loop dimension 1 second")


def _check_worth_it(vectoriser: _Vectoriser, vectorised: func.FuncOp) -> None:
    """The second half of the cost model, after vectorising: lanes loaded and stored
    one by one cost about what the scalar kernel does, plus moving them in and out
    of vectors; when they outnumber the accesses to whole vectors, the scalar kernel
    is kept (measured: `scan` 10.5 -> 13.7 ms vectorised, with compile times 5 times
    longer)."""
    lanes, vectors = vectoriser.lane_accesses, vectoriser.vector_accesses
    if lanes > vectors:
        vectorised.erase()
        raise _Unsupported(
            f"not worth it: {lanes} accesses lane by lane, {vectors} to whole vectors"
        )


def _check_no_barrier_in_while(kernel: func.FuncOp) -> None:
    """The cost model's first half, before vectorising: a barrier in an `scf.while`
    is the step of a tree (`for (s = 1; s < n; s *= 2)`: `reduce`, `scan`), which
    halves or doubles the work-items that do something at each step. The scalar
    kernel is kept: with a constant work-group size LLVM unrolls its steps and folds
    their masks into the bounds of each step's work-item loop, while the vectorised
    kernel runs every packet at every step (`reduce`: 6.4 ms scalar, 31 ms
    vectorised). A barrier in an `scf.for` with uniform bounds is not such a step:
    `sgemm_tiled`'s loop over tiles, where every work-item loads and multiplies at
    every step, runs 5 times faster vectorised (183 -> 35 ms)."""
    for op in kernel.walk():
        if isinstance(op, mux.WorkGroupBarrierOp) and _in_while(op):
            raise _Unsupported(
                "not worth it: a barrier in an scf.while (a tree's steps: LLVM "
                "unrolls the scalar kernel's steps and folds their masks)"
            )


def _in_while(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        if isinstance(parent, scf.WhileOp):
            return True
        parent = parent.parent_op()
    return False


def _check_schedule(kernel: func.FuncOp, width: int) -> None:
    """Raises unless `work-item-loops` can run the kernel `width` lanes at a time."""
    if mux_attrs.max_work_dim(kernel) < 1:
        raise _Unsupported("mux.max_work_dim is 0")
    order = mux_attrs.work_item_order(kernel).dimensions
    if order[0] != 0:
        raise _Unsupported("the work-item order does not loop dimension 0 innermost")
    reqd = mux_attrs.REQD_WORK_GROUP_SIZE.get(kernel)
    if reqd is not None and reqd[0] < width:
        raise _Unsupported(
            f"the required work-group size {reqd[0]} in dimension 0 is smaller "
            f"than the width"
        )
    if any(isinstance(op, mux.WorkGroupBarrierOp) for op in kernel.walk()) and (
        reqd is None or reqd[0] % width
    ):
        raise _Unsupported(
            "barriers, and no required work-group size whose x is a multiple of the "
            "width (work-item-loops runs a vectorised kernel with barriers alone, "
            "without a scalar tail)"
        )
    for op in kernel.walk():
        if (
            isinstance(op, mux.WorkGroupBarrierOp)
            and (schedule := mux_attrs.barrier_schedule(op))
            is not mux.BarrierSchedule.UNORDERED
        ):
            raise _Unsupported(
                f"a barrier with the {schedule.value} schedule (the region after it "
                "relies on work-items running one after another)"
            )
    if kernel.body.blocks.first is not kernel.body.blocks.last:
        raise _Unsupported("the kernel has more than one block (cf branches)")


def _constant_dimension(dim: SSAValue) -> int:
    value = constant_int(dim)
    if value is None:
        raise _Unsupported("a work-item query of a dimension that is not a constant")
    return value


# --------------------------------------------------------------------------------------
# Which values differ between the lanes.
# --------------------------------------------------------------------------------------


def _varying_values(kernel: func.FuncOp, rows: int = 1) -> set[SSAValue]:
    """The values of `kernel` that may differ between the work-items of a packet
    (the rules of the module docstring, applied until nothing changes). Raises
    _Unsupported for what the vectoriser cannot handle."""
    varying: set[SSAValue] = set()

    def mark(values, condition: bool) -> bool:
        added = False
        if condition:
            for v in values:
                if v not in varying:
                    varying.add(v)
                    added = True
        return added

    changed = True
    while changed:
        changed = False
        for op in kernel.body.walk():
            if isinstance(op, _PER_DIMENSION_QUERIES):
                dim = _constant_dimension(op.dim)
                changed |= mark(op.results, dim == 0 or (dim == 1 and rows > 1))
            elif isinstance(op, _LINEAR_QUERIES):
                changed |= mark(op.results, True)
            elif isinstance(op, scf.IfOp):
                for i, result in enumerate(op.results):
                    yields = [_yield(r).operands[i] for r in op.regions]
                    divergent = op.cond in varying or any(y in varying for y in yields)
                    changed |= mark([result], divergent)
            elif isinstance(op, scf.ForOp):
                yielded = _yield(op.body).operands
                if any(o in varying for o in (op.lb, op.ub, op.step)):
                    # lanes iterate differently: everything the loop carries varies
                    changed |= mark([*op.body.block.args, *op.results], True)
                    continue
                args = op.body.block.args[1:]
                for init, arg, result, value in zip(
                    op.iter_args, args, op.results, yielded, strict=True
                ):
                    changed |= mark([arg, result], init in varying or value in varying)
            elif isinstance(op, scf.WhileOp):
                changed |= _mark_while(op, varying)
            elif isinstance(op, scf.ConditionOp):
                if op.condition in varying:
                    raise _Unsupported(
                        "an scf.while whose condition differs between lanes"
                    )
            elif isinstance(op, mux.WorkGroupBarrierOp):
                pass  # at a point every lane reaches (checked when emitted)
            elif isinstance(op, memref.StoreOp):
                _check_memref(op.memref)
            elif isinstance(op, _ADDRESS_OPS):
                if any(o in varying for o in op.operands):
                    raise _Unsupported(
                        f"{op.name} on a value that differs between lanes"
                    )
            elif not isinstance(op, scf.YieldOp | func.ReturnOp):
                _check_supported(op)
                changed |= mark(op.results, any(o in varying for o in op.operands))
    return varying


def _index_elements(ref: SSAValue) -> bool:
    type_ = ref.type
    return isinstance(type_, MemRefType) and isinstance(type_.element_type, IndexType)


def _mark_while(op: scf.WhileOp, varying: set[SSAValue]) -> bool:
    """The rules for `scf.while`: a `before` argument varies if its initial value or
    the value the `after` region yields for it does; an `after` argument and a result
    if the value `scf.condition` forwards does."""
    added = False
    yielded = _yield(op.after_region).operands
    for init, arg, value in zip(
        op.arguments, op.before_region.block.args, yielded, strict=True
    ):
        if arg not in varying and (init in varying or value in varying):
            varying.add(arg)
            added = True
    condition = op.before_region.block.last_op
    assert isinstance(condition, scf.ConditionOp)
    for value, arg, result in zip(
        condition.args, op.after_region.block.args, op.res, strict=True
    ):
        if value in varying and arg not in varying:
            varying.update((arg, result))
            added = True
    return added


def _any(mask: SSAValue) -> Operation:
    """Whether a lane of `mask` is 1: its `or` reduction (an i1)."""
    return vector.ReductionOp.create(
        operands=[mask],
        result_types=[i1],
        properties={
            "kind": vector.CombiningKindAttr(vector.CombiningKindFlag.OR),
            "fastmath": vector.FastMathFlagsAttr("none"),
        },
    )


def _has_ops(region: Region) -> bool:
    """Whether `region` has ops other than its terminator."""
    return bool(region.blocks) and region.block.first_op is not region.block.last_op


def _yielded(region: Region) -> list[SSAValue]:
    return list(_yield(region).operands) if region.blocks else []


def _yield(region: Region) -> Operation:
    terminator = region.block.last_op
    assert terminator is not None
    return terminator


def _check_supported(op: Operation) -> None:
    if isinstance(op, (*_UNIFORM_QUERIES, memref.LoadOp, memref.DimOp)):
        if isinstance(op, memref.LoadOp | memref.DimOp):
            _check_memref(op.operands[0])
        return
    if op.name.split(".")[0] in ("arith", "math") and not op.regions:
        return
    raise _Unsupported(f"{op.name} is not vectorised")


def _check_memref(ref: SSAValue) -> None:
    type_ = ref.type
    if not isinstance(type_, MemRefType) or not isinstance(type_.layout, NoneAttr):
        raise _Unsupported(f"an access to a memref with a layout ({type_})")


_ADDRESS_OPS = (
    UnrealizedConversionCastOp,
    llvm.GEPOp,
    memref.GetGlobalOp,
    memref.CastOp,
)
"""Ops that compute a buffer's address, as `replace-module-scope-vars` does for the
variables in its buffer: kept, on scalars, when their operands are uniform."""


# --------------------------------------------------------------------------------------
# Building the vectorised kernel.
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Linear:
    """`base + stride * i + row_stride * j` in the lane of work-item `(x + i, y + j)`
    of the packet: `base` a scalar of the new function (lane 0's value), `stride` a
    constant, `row_stride` a constant or a scalar of the new function (`y * n`)."""

    base: SSAValue
    stride: int
    row_stride: int | SSAValue = 0


def _zero(row_stride: int | SSAValue) -> bool:
    return isinstance(row_stride, int) and row_stride == 0


@dataclass(frozen=True)
class _Piecewise:
    """`cond ? linear : other` lane by lane, `other` a uniform scalar: a linear value
    clamped by a uniform one, as image kernels clamp neighbours at a border
    (`maxsi(x - 1, 0)`); `cond` (a vector of i1) is where the linear value wins."""

    cond: SSAValue
    linear: _Linear
    other: SSAValue


_CLAMPS: dict[type[Operation], str] = {
    # the linear operand wins where it compares so with the uniform one
    arith.MaxSIOp: "sge",
    arith.MaxUIOp: "uge",
    arith.MinSIOp: "sle",
    arith.MinUIOp: "ule",
}


class _Vectoriser:
    def __init__(
        self, kernel: func.FuncOp, width: int, varying: set[SSAValue], rows: int = 1
    ):
        self.kernel = kernel
        self.width = width
        self.rows = rows
        self.count = width * rows
        """Lanes: `width` work-items of dimension 0 in each of `rows` of dimension 1,
        row after row (lane `i + width * j` is work-item `(x + i, y + j)`)."""
        self.varying = set(varying)
        self.uniform: dict[SSAValue, SSAValue] = {}
        self.linear: dict[SSAValue, _Linear] = {}
        self.piecewise: dict[SSAValue, _Piecewise] = {}
        self.vectors: dict[SSAValue, SSAValue] = {}
        self.widened: dict[tuple[SSAValue, Block], SSAValue] = {}
        self.aligned: dict[SSAValue, int] = {}
        """Scalars of the new function known to be multiples of a power of 2 beyond
        what `alignment` finds from their definitions (packet starts, loop ivs)."""
        self.vector_accesses = 0
        """Loads and stores of whole vectors (contiguous or clamped)."""
        self.lane_accesses = 0
        """Loads and stores done lane by lane."""

    # -- entry ------------------------------------------------------------------------

    def run(self) -> func.FuncOp:
        kernel = self.kernel
        name = vecz_name(kernel.sym_name.data, self.width, self.rows)
        new = func.FuncOp(name, kernel.function_type)
        new.arg_attrs = kernel.arg_attrs
        mark_internal(new)
        for old, arg in zip(kernel.args, new.args, strict=True):
            arg.name_hint = old.name_hint
            self.uniform[old] = arg
        b = Builder(InsertPoint.at_end(new.body.block))
        self.emit_block(b, kernel.body.block, None)
        try:
            new.verify()
        except (VerifyException, DiagnosticException) as e:  # pragma: no cover
            raise _Unsupported(f"the vectorised kernel does not verify: {e}") from e
        return new

    def emit_block(self, b: Builder, block: Block, mask: SSAValue | None) -> None:
        """Emits the ops of `block` but its terminator, under `mask` (None: every
        lane is active)."""
        for op in block.ops:
            if op is block.last_op and isinstance(op, scf.YieldOp):
                return
            self.emit(b, op, mask)

    # -- value shapes -----------------------------------------------------------------

    def is_uniform(self, value: SSAValue) -> bool:
        return value not in self.varying

    def scalar(self, value: SSAValue) -> SSAValue:
        return self.uniform[value]

    def vector_type(self, type_: Attribute) -> VectorType:
        if isinstance(type_, IndexType):
            type_ = i64
        if not isinstance(type_, IntegerType | AnyFloat):
            raise _Unsupported(f"a value of type {type_} differs between lanes")
        return VectorType(type_, [self.count])

    def lanes(
        self, b: Builder, type_: Attribute, stride: int, row_stride: int = 0
    ) -> SSAValue:
        """The constant vector of `type_` whose lane `i + width * j` is
        `i * stride + j * row_stride`."""
        vtype = self.vector_type(type_)
        values = [
            i * stride + j * row_stride
            for j in range(self.rows)
            for i in range(self.width)
        ]
        element = vtype.get_element_type()
        if isinstance(element, IntegerType):
            # The lanes' arithmetic wraps, as the scalar `arith` ops it stands for
            # do: a stride near the type's limit gives the two's complement values.
            width = element.width.data
            half = 1 << (width - 1)
            values = [(v + half) % (1 << width) - half for v in values]
        attr = DenseIntOrFPElementsAttr.from_list(vtype, values)
        return b.insert(arith.ConstantOp(attr, vtype)).result

    def splat(self, b: Builder, scalar: SSAValue, count: int | None = None) -> SSAValue:
        """`scalar` in every lane (in `count` lanes, if given)."""
        if isinstance(scalar.type, IndexType):
            scalar = b.insert(arith.IndexCastOp(scalar, i64)).result
        vtype = self.vector_type(scalar.type)
        if count is not None:
            vtype = VectorType(vtype.get_element_type(), [count])
        return b.insert(vector.BroadcastOp(scalar, vtype)).vector

    def widen(self, b: Builder, value: SSAValue) -> SSAValue:
        """`value` as a vector of its lanes."""
        if value in self.vectors:
            return self.vectors[value]
        assert b.insertion_point.block is not None
        key = (value, b.insertion_point.block)
        if key not in self.widened:
            if value in self.linear:
                self.widened[key] = self.materialise(b, self.linear[value])
            elif value in self.piecewise:
                piecewise = self.piecewise[value]
                linear = self.materialise(b, piecewise.linear)
                other = self.splat(b, piecewise.other)
                select = llvmx.SelectOp(piecewise.cond, linear, other)
                self.widened[key] = b.insert(select).res
            else:
                self.widened[key] = self.splat(b, self.scalar(value))
        return self.widened[key]

    def materialise(self, b: Builder, linear: _Linear) -> SSAValue:
        base = self.splat(b, linear.base)
        type_, rs = linear.base.type, linear.row_stride
        if isinstance(rs, int):
            steps = self.lanes(b, type_, linear.stride, rs)
        else:  # the lanes' steps in x, plus row_stride times their row
            rows = self.lanes(b, type_, 0, 1)
            down = b.insert(arith.MuliOp(self.splat(b, rs), rows)).result
            across = self.lanes(b, type_, linear.stride)
            steps = b.insert(arith.AddiOp(across, down)).result
        return b.insert(arith.AddiOp(base, steps)).result

    def row_step(self, b: Builder, linear: _Linear, row: int) -> SSAValue | int:
        """`row * row_stride`: a constant, or a scalar."""
        rs = linear.row_stride
        if isinstance(rs, int):
            return row * rs
        if row == 1:
            return rs
        return b.insert(arith.MuliOp(rs, const(b, row, rs.type))).result

    def row_arith(
        self, b: Builder, kind: type[Operation], lhs, rhs, type_: Attribute
    ) -> int | SSAValue:
        """`lhs <kind> rhs` of two row strides (constants or scalars of `type_`)."""
        if isinstance(lhs, int) and isinstance(rhs, int):
            return {arith.AddiOp: lhs + rhs, arith.SubiOp: lhs - rhs}.get(
                kind, lhs * rhs
            )
        if kind is arith.MuliOp and 1 in (lhs, rhs):
            return rhs if lhs == 1 else lhs
        if kind is arith.MuliOp and 0 in (lhs, rhs):
            return 0
        if kind is not arith.MuliOp and _zero(rhs):
            return lhs
        if kind is arith.AddiOp and _zero(lhs):
            return rhs
        values = [const(b, v, type_) if isinstance(v, int) else v for v in (lhs, rhs)]
        return b.insert(kind(*values)).results[0]

    def lane(self, b: Builder, value: SSAValue, lane: int) -> SSAValue:
        """Lane `lane` of `value`, a scalar of its original type."""
        if self.is_uniform(value):
            return self.scalar(value)
        if value in self.linear:
            linear = self.linear[value]
            i, j = lane % self.width, lane // self.width
            down = self.row_step(b, linear, j)
            step = i * linear.stride + (down if isinstance(down, int) else 0)
            offset = b.insert(arith.ConstantOp(IntegerAttr(step, linear.base.type)))
            value = b.insert(arith.AddiOp(linear.base, offset)).result
            if not isinstance(down, int):
                value = b.insert(arith.AddiOp(value, down)).result
            return value
        vec = self.widen(b, value)
        element = vec.type.get_element_type()
        scalar = b.insert(vector.ExtractOp(vec, [lane], element)).result
        if isinstance(value.type, IndexType):
            scalar = b.insert(arith.IndexCastOp(scalar, IndexType())).result
        return scalar

    def set_vector(self, original: SSAValue, new: SSAValue) -> None:
        new.name_hint = original.name_hint
        self.vectors[original] = new

    # -- ops --------------------------------------------------------------------------

    def emit(self, b: Builder, op: Operation, mask: SSAValue | None) -> None:
        if isinstance(op, func.ReturnOp):
            b.insert(func.ReturnOp())
        elif isinstance(op, scf.IfOp):
            self.emit_if(b, op, mask)
        elif isinstance(op, scf.ForOp):
            self.emit_for(b, op, mask)
        elif isinstance(op, scf.WhileOp):
            self.emit_while(b, op, mask)
        elif isinstance(op, mux.WorkGroupBarrierOp):
            if mask is not None:
                raise _Unsupported(
                    "a barrier under a condition that differs between lanes"
                )
            self.emit_uniform(b, op)
        elif isinstance(op, memref.LoadOp):
            self.emit_load(b, op, mask)
        elif isinstance(op, memref.StoreOp):
            self.emit_store(b, op, mask)
        elif all(r not in self.varying for r in op.results):
            self.emit_uniform(b, op)
        elif isinstance(op, (*_PER_DIMENSION_QUERIES, *_LINEAR_QUERIES)):
            (result,) = self.emit_uniform(b, op)
            self.linear[op.results[0]] = self.query_lanes(op, result)
            if isinstance(op, mux.GetLocalIdOp) and constant_int(op.dim) == 0:
                self.aligned[result] = self.width  # packets start at multiples of W
        elif self.became_uniform(op):
            self.emit_uniform(b, op)
            self.varying.difference_update(op.results)
        elif not self.emit_linear(b, op):
            self.emit_varying(b, op, mask)

    def query_lanes(self, op: Operation, result: SSAValue) -> _Linear:
        """A work-item query that differs between lanes, lane 0's value `result`: an
        id of dimension 0 (1 to the next lane) or 1 (1 to the next row), or the
        local linear id (1 to the next lane, the row's size to the next row)."""
        if isinstance(op, _PER_DIMENSION_QUERIES):
            return (
                _Linear(result, 0, 1)
                if constant_int(op.dim) == 1
                else _Linear(result, 1)
            )
        if self.rows == 1:
            return _Linear(result, 1)
        reqd = mux_attrs.REQD_WORK_GROUP_SIZE.get(self.kernel)
        if not isinstance(op, mux.GetLocalLinearIdOp) or reqd is None:
            raise _Unsupported(f"{op.name} with packets of more than one row")
        return _Linear(result, 1, reqd[0])

    def became_uniform(self, op: Operation) -> bool:
        """Whether `op`, an `arith` or `math` op the analysis found varying, has
        only uniform operands as emitted: the lanes of a linear value may cancel out
        (`(x0 + lane) / 16` is `x0 / 16` for `x0` a multiple of 16 and W <= 16)."""
        return (
            op.name.split(".")[0] in ("arith", "math")
            and not op.regions
            and all(self.is_uniform(o) for o in op.operands)
        )

    def known_int(self, value: SSAValue) -> int | None:
        """The value of `value`, a scalar of the new function, if it is known: a
        constant, or the local size of a kernel with a required work-group size
        (`work-item-loops` and `define-mux-builtins` use that size)."""
        constant = constant_int(value)
        if constant is not None:
            return constant
        op = value.owner
        if not isinstance(op, mux.GetLocalSizeOp | mux.GetEnqueuedLocalSizeOp):
            return None
        reqd = mux_attrs.REQD_WORK_GROUP_SIZE.get(self.kernel)
        dim = constant_int(op.dim)
        if reqd is None or dim is None or not 0 <= dim < len(reqd):
            return None
        return reqd[dim]

    def alignment(self, value: SSAValue) -> int:
        """A power of 2 (at most 2^32) that divides `value`, a scalar integer of the
        new function, from the ops that define it: constants, sums, products, the
        packet's first local id, the required work-group size."""
        if value in self.aligned:
            return self.aligned[value]
        op = value.owner
        found = 1
        constant = constant_int(value)
        if constant is not None:
            found = constant & -constant if constant else _MAX_ALIGNMENT
        elif isinstance(op, arith.MuliOp):
            found = self.alignment(op.lhs) * self.alignment(op.rhs)
        elif isinstance(op, arith.AddiOp | arith.SubiOp):
            found = min(self.alignment(op.lhs), self.alignment(op.rhs))
        elif isinstance(op, arith.IndexCastOp):
            found = self.alignment(op.input)
        elif (size := self.known_int(value)) is not None:
            found = size & -size
        found = min(found, _MAX_ALIGNMENT)
        self.aligned[value] = found
        return found

    def emit_uniform(self, b: Builder, op: Operation) -> list[SSAValue]:
        """`op` once, on scalars."""
        new = op.clone(value_mapper=self.uniform)
        b.insert(new)
        for old, result in zip(op.results, new.results, strict=True):
            self.uniform[old] = result
        return list(new.results)

    def emit_linear(self, b: Builder, op: Operation) -> bool:
        """`op` on linear and uniform operands, if its result is linear too (or
        uniform: the lanes may cancel out); a clamp of a linear value by a uniform
        one, or an offset or a multiple of a clamp, is piecewise."""
        if isinstance(op, tuple(_CLAMPS)):
            return self.emit_clamp(b, op)
        if not isinstance(
            op, arith.AddiOp | arith.SubiOp | arith.MuliOp | arith.IndexCastOp
        ):
            return False
        operands = list(op.operands)
        if isinstance(op, arith.IndexCastOp):
            (source,) = operands
            narrower = not isinstance(op.result.type, IndexType)
            if source not in self.linear or not narrower:
                return False  # a sign extension of a linear value may not be linear
            linear = self.linear[source]
            base = b.insert(arith.IndexCastOp(linear.base, op.result.type)).result
            rs = linear.row_stride
            if not isinstance(rs, int):
                rs = b.insert(arith.IndexCastOp(rs, op.result.type)).result
            self.linear[op.result] = _Linear(base, linear.stride, rs)
            return True
        piecewise = [o for o in operands if o in self.piecewise]
        if piecewise and all(
            o in self.piecewise or self.is_uniform(o) for o in operands
        ):
            if len(piecewise) > 1:
                return False
            (old,) = piecewise
            forms = [
                self.piecewise[o] if o is old else self.scalar(o) for o in operands
            ]
            linear = self.combine(
                b,
                type(op),
                *(f.linear if isinstance(f, _Piecewise) else f for f in forms),
            )
            if not isinstance(linear, _Linear):
                return False
            others = [f.other if isinstance(f, _Piecewise) else f for f in forms]
            other = b.insert(type(op)(*others)).results[0]
            self.piecewise[op.results[0]] = _Piecewise(
                self.piecewise[old].cond, linear, other
            )
            return True
        if not all(o in self.linear or self.is_uniform(o) for o in operands):
            return False
        forms = [
            self.linear[o] if o in self.linear else self.scalar(o) for o in operands
        ]
        result = self.combine(b, type(op), *forms)
        if result is None:
            return False
        if isinstance(result, _Linear):
            if result.base.name_hint is None:  # lane 0's value: the original's name
                result.base.name_hint = op.results[0].name_hint
            self.linear[op.results[0]] = result
        else:
            self.uniform[op.results[0]] = result  # the lanes cancel out
            self.varying.discard(op.results[0])
        return True

    def combine(
        self, b: Builder, kind: type[Operation], lhs, rhs
    ) -> _Linear | SSAValue | None:
        """`lhs <kind> rhs` (add, sub or mul) of linear values and uniform scalars:
        linear, a uniform scalar, or None when it is not linear."""
        if kind is arith.MuliOp:
            if not isinstance(lhs, _Linear):
                lhs, rhs = rhs, lhs
            if isinstance(rhs, _Linear):
                return None
            factor = constant_int(rhs)
            if factor is None and lhs.stride:
                return None  # the step between lanes would not be a constant
            base = b.insert(arith.MuliOp(lhs.base, rhs)).result
            type_ = base.type
            if factor is not None:
                row_stride = self.row_arith(b, kind, lhs.row_stride, factor, type_)
                return _Linear(base, lhs.stride * factor, row_stride)
            row_stride = self.row_arith(b, kind, lhs.row_stride, rhs, type_)
            return _Linear(base, 0, row_stride)  # the same in a row: `y * n`
        bases = [f.base if isinstance(f, _Linear) else f for f in (lhs, rhs)]
        sign = -1 if kind is arith.SubiOp else 1
        stride = (lhs.stride if isinstance(lhs, _Linear) else 0) + sign * (
            rhs.stride if isinstance(rhs, _Linear) else 0
        )
        base = b.insert(kind(bases[0], bases[1])).results[0]
        row_stride = self.row_arith(
            b,
            kind,
            *(f.row_stride if isinstance(f, _Linear) else 0 for f in (lhs, rhs)),
            base.type,
        )
        if stride or not _zero(row_stride):
            return _Linear(base, stride, row_stride)
        return base

    def emit_clamp(self, b: Builder, op: Operation) -> bool:
        """`max`/`min` of a linear value and a uniform one: piecewise, the lanes
        where the linear value wins in a vector of i1."""
        lhs, rhs = op.operands
        if lhs not in self.linear:
            lhs, rhs = rhs, lhs
        if lhs not in self.linear or not self.is_uniform(rhs):
            return False
        predicate = _CLAMPS[type(op)]
        flag = IntegerAttr(llvm.ICmpPredicateFlag(predicate).to_int(), i64)
        cond = b.insert(llvm.ICmpOp(self.widen(b, lhs), self.widen(b, rhs), flag)).res
        self.piecewise[op.results[0]] = _Piecewise(
            cond, self.linear[lhs], self.scalar(rhs)
        )
        return True

    def emit_varying(self, b: Builder, op: Operation, mask: SSAValue | None) -> None:
        """`op` on vectors of its operands' lanes. An integer division under a mask
        divides by 1 in the inactive lanes (a division by 0 or an overflowing one
        there must not trap)."""
        if self.emit_linear_division(b, op):
            return
        operands = [self.widen(b, o) for o in op.operands]
        if mask is not None and isinstance(op, _INTEGER_DIVISIONS):
            ones = self.splat(
                b,
                b.insert(arith.ConstantOp(IntegerAttr(1, op.operands[1].type))).result,
            )
            operands[1] = b.insert(llvmx.SelectOp(mask, operands[1], ones)).res
        if isinstance(op, arith.CmpiOp):
            name = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
            predicate = IntegerAttr(llvm.ICmpPredicateFlag(name).to_int(), i64)
            result = b.insert(llvm.ICmpOp(operands[0], operands[1], predicate)).res
        elif isinstance(op, arith.CmpfOp):
            name = arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]
            if name in ("false", "true"):
                result = self.splat(b, const(b, name == "true", i1))
            else:
                result = b.insert(llvmx.FCmpOp(name, operands[0], operands[1])).res
        elif isinstance(op, arith.SelectOp) and not self.is_uniform(op.cond):
            result = b.insert(llvmx.SelectOp(*operands)).res
        elif isinstance(op, arith.SelectOp):
            cond = self.scalar(op.cond)
            result = b.insert(arith.SelectOp(cond, operands[1], operands[2])).result
        elif isinstance(op, arith.IndexCastOp):
            result = self.resize(b, op, operands[0])
        elif type(op) in CASTS:  # xDSL 0.74's arith casts take scalars only
            target = self.vector_type(op.results[0].type)
            result = b.insert(CASTS[type(op)](operands[0], target)).results[0]
        else:
            result_types = [self.vector_type(r.type) for r in op.results]
            new = op.create(
                operands=operands,
                result_types=result_types,
                properties=dict(op.properties),
                attributes=dict(op.attributes),
            )
            b.insert(new)
            (result,) = new.results
        self.set_vector(op.results[0], result)

    def emit_linear_division(self, b: Builder, op: Operation) -> bool:
        """`divui`/`remui` of a linear value of stride 1 by a uniform `d`: one
        scalar division of lane 0's value, `base = q0 * d + r0`; lane `l` is `r0 + l`
        past `q0 * d`, less than `d + W`, so its quotient past `q0` is below `2W`:
        found by subtracting `W * d`, `W/2 * d`, ..., `d` where they fit (a vector
        division is a scalar division per lane, 64-bit ones costing tens of cycles:
        `reduce`'s `lid % step`)."""
        if not isinstance(op, arith.DivUIOp | arith.RemUIOp):
            return False
        lhs, rhs = op.operands
        linear = self.linear.get(lhs)
        if (
            linear is None
            or linear.stride != 1
            or not _zero(linear.row_stride)
            or not self.is_uniform(rhs)
        ):
            return False
        type_ = lhs.type
        d = self.scalar(rhs)
        divisor = self.known_int(d)
        if (
            divisor is not None
            and divisor > 0
            and divisor % self.width == 0
            and self.alignment(linear.base) % self.width == 0
        ):
            # `base` and `d` multiples of W: `base % d + W - 1 < d`, the lanes share
            # lane 0's quotient and their remainders are consecutive
            if isinstance(op, arith.DivUIOp):
                quotient = b.insert(arith.DivUIOp(linear.base, d)).result
                quotient.name_hint = op.result.name_hint
                self.uniform[op.result] = quotient
                self.varying.discard(op.result)
            else:
                r0 = b.insert(arith.RemUIOp(linear.base, d)).result
                r0.name_hint = op.result.name_hint
                self.linear[op.result] = _Linear(r0, 1)
                self.aligned[r0] = self.width
            return True
        r0 = b.insert(arith.RemUIOp(linear.base, d)).result
        rest = b.insert(arith.AddiOp(self.splat(b, r0), self.lanes(b, type_, 1))).result
        quotient = None
        if isinstance(op, arith.DivUIOp):
            quotient = self.splat(b, b.insert(arith.DivUIOp(linear.base, d)).result)
        bits = 64 if isinstance(type_, IndexType) else type_.width.data
        uge = IntegerAttr(llvm.ICmpPredicateFlag("uge").to_int(), i64)
        k = self.width
        while k >= 1:
            # k * d, or the largest value if it overflows (then nothing is >= it)
            fits = b.insert(
                arith.CmpiOp(d, const(b, ((1 << bits) - 1) // k, type_), "ule")
            ).result
            product = b.insert(arith.MuliOp(d, const(b, k, type_))).result
            largest = const(b, -1, type_)
            step = b.insert(arith.SelectOp(fits, product, largest)).result
            steps = self.splat(b, step)
            over = b.insert(llvm.ICmpOp(rest, steps, uge)).res
            less = b.insert(arith.SubiOp(rest, steps)).result
            rest = b.insert(llvmx.SelectOp(over, less, rest)).res
            if quotient is not None:
                more = b.insert(
                    arith.AddiOp(quotient, self.splat(b, const(b, k, type_)))
                ).result
                quotient = b.insert(llvmx.SelectOp(over, more, quotient)).res
            k //= 2
        self.set_vector(op.results[0], quotient if quotient is not None else rest)
        return True

    def resize(self, b: Builder, op: Operation, operand: SSAValue) -> SSAValue:
        """An index cast on a vector (index lanes are i64): an extension, a
        truncation or nothing."""
        source = operand.type.get_element_type()
        target = self.vector_type(op.results[0].type)
        to_width = target.get_element_type().width.data
        from_width = source.width.data
        if to_width == from_width:
            return operand
        if to_width < from_width:
            return b.insert(llvm.TruncOp(operand, target)).res
        return b.insert(llvm.SExtOp(operand, target)).res  # index_cast: signed

    # -- memory -----------------------------------------------------------------------

    def contiguous(self, ref: SSAValue, indices) -> bool:
        """The lanes of each row at consecutive elements: the last index linear of
        stride 1, the others the same along a row (and elements that are not
        `index`, whose lanes are i64)."""
        if not indices or _index_elements(ref):
            return False
        *outer, last = indices
        linear = self.linear.get(last)
        return (
            linear is not None
            and linear.stride == 1
            and all(self.along_row(i) for i in outer)
        )

    def along_row(self, value: SSAValue) -> bool:
        """Whether `value` is the same in the lanes of a row (it may differ between
        rows)."""
        return self.is_uniform(value) or (
            value in self.linear and self.linear[value].stride == 0
        )

    def same_in_rows(self, value: SSAValue) -> bool:
        """Whether `value` is the same in every row (its lanes may differ)."""
        return value not in self.linear or _zero(self.linear[value].row_stride)

    def row_indices(self, b: Builder, indices, row: int) -> list[SSAValue]:
        """The scalar indices of the first lane of row `row`: uniform ones as they
        are, linear ones lane 0's value plus `row * row_stride`."""
        found = []
        for index in indices:
            if self.is_uniform(index):
                found.append(self.scalar(index))
                continue
            linear = self.linear[index]
            value = linear.base
            if row and not _zero(linear.row_stride):
                step = self.row_step(b, linear, row)
                if isinstance(step, int):
                    step = const(b, step, value.type)
                value = b.insert(arith.AddiOp(value, step)).result
            found.append(value)
        return found

    # -- rows of lanes (packets of more than one row) ---------------------------------

    def shuffle(self, b: Builder, v1: SSAValue, v2: SSAValue, picks) -> SSAValue:
        element = v1.type.get_element_type()
        result_type = VectorType(element, [len(picks)])
        picked = DenseArrayBase.from_list(i32, list(picks))
        return b.insert(llvm.ShuffleVectorOp(v1, v2, picked, result_type)).res

    def row_of(self, b: Builder, lanes: SSAValue, row: int) -> SSAValue:
        """The `width` lanes of row `row`."""
        return self.shuffle(
            b, lanes, lanes, range(row * self.width, (row + 1) * self.width)
        )

    def any_row(self, b: Builder, mask: SSAValue) -> SSAValue:
        """The lanes `i` of a row active in some row."""
        found = self.row_of(b, mask, 0)
        for row in range(1, self.rows):
            found = b.insert(arith.OrIOp(found, self.row_of(b, mask, row))).result
        return found

    def join_rows(self, b: Builder, rows: list[SSAValue]) -> SSAValue:
        """One vector of all lanes from a vector per row (or one for every row)."""
        if len(rows) == 1:
            picks = [i for _ in range(self.rows) for i in range(self.width)]
            return self.shuffle(b, rows[0], rows[0], picks)
        while len(rows) > 1:
            size = rows[0].type.get_shape()[0]
            rows = [
                self.shuffle(b, rows[k], rows[k + 1], range(2 * size))
                for k in range(0, len(rows), 2)
            ]
        return rows[0]

    def emit_load(self, b: Builder, op: memref.LoadOp, mask: SSAValue | None) -> None:
        ref = self.scalar(op.memref)
        if self.is_uniform(op.res):  # a uniform address: one load
            self.emit_uniform(b, op)
            return
        if all(self.is_uniform(i) for i in op.indices):
            # indices that turned out uniform as emitted: one load too (a lane is
            # active wherever the vectorised kernel runs code)
            self.emit_uniform(b, op)
            self.varying.discard(op.res)
            return
        vtype = self.vector_type(op.res.type)
        if self.contiguous(ref, op.indices):
            self.vector_accesses += 1
            self.set_vector(op.res, self.contiguous_load(b, op, ref, mask))
            return
        if self.rows > 1 and all(self.along_row(i) for i in op.indices):
            self.vector_accesses += 1
            self.set_vector(op.res, self.row_load(b, op, ref, mask))
            return
        if self.clamped(op.indices) and not _index_elements(ref):
            self.vector_accesses += 1
            self.set_vector(op.res, self.clamped_load(b, op, ref, vtype, mask))
            return
        # lane by lane
        self.lane_accesses += 1
        result = self.zeros(b, vtype)
        for lane in range(self.count):

            def load(inner: Builder, lane=lane, current=result) -> SSAValue:
                indices = [self.lane(inner, i, lane) for i in op.indices]
                value = inner.insert(memref.LoadOp.get(ref, indices)).res
                if isinstance(value.type, IndexType):
                    value = inner.insert(arith.IndexCastOp(value, i64)).result
                return inner.insert(vector.InsertOp(value, current, [lane])).result

            result = self.if_lane(b, mask, lane, load, result)
        self.set_vector(op.res, result)

    def contiguous_load(
        self, b: Builder, op: memref.LoadOp, ref: SSAValue, mask: SSAValue | None
    ) -> SSAValue:
        """A vector load per row, or one for all rows when the rows load the same
        elements (B's row in an inner product over a packet of rows)."""
        shared = all(self.same_in_rows(i) for i in op.indices)
        if self.rows == 1:
            rows, masks = [0], [mask]
        elif shared:
            rows, masks = [0], [None if mask is None else self.any_row(b, mask)]
        else:
            rows = list(range(self.rows))
            masks = [None if mask is None else self.row_of(b, mask, r) for r in rows]
        rtype = VectorType(
            self.vector_type(op.res.type).get_element_type(), [self.width]
        )
        parts = []
        for row, row_mask in zip(rows, masks, strict=True):
            indices = self.row_indices(b, op.indices, row)
            if row_mask is None:
                parts.append(b.insert(vector.LoadOp(ref, indices, rtype)).result)
            else:
                zeros = self.zeros(b, rtype)
                load = vector.MaskedLoadOp(ref, indices, row_mask, zeros, rtype)
                parts.append(b.insert(load).result)
        return parts[0] if self.rows == 1 else self.join_rows(b, parts)

    def row_load(
        self, b: Builder, op: memref.LoadOp, ref: SSAValue, mask: SSAValue | None
    ) -> SSAValue:
        """A load at an address that is the same along each row (`A[y][k]` in an
        inner product): one scalar load per row, if a lane of the row is active,
        splat over the row."""
        rtype = VectorType(
            self.vector_type(op.res.type).get_element_type(), [self.width]
        )
        parts = []
        for row in range(self.rows):

            def load(inner: Builder, row=row) -> SSAValue:
                indices = self.row_indices(inner, op.indices, row)
                value = inner.insert(memref.LoadOp.get(ref, indices)).res
                return self.splat(inner, value, self.width)

            if mask is None:
                parts.append(load(b))
                continue
            then = Block()
            inner = Builder(InsertPoint.at_end(then))
            inner.insert(scf.YieldOp(load(inner)))
            otherwise = Block()
            skipped = Builder(InsertPoint.at_end(otherwise))
            skipped.insert(scf.YieldOp(self.zeros(skipped, rtype)))
            active = b.insert(_any(self.row_of(b, mask, row))).results[0]
            guarded = scf.IfOp(active, [rtype], Region(then), Region(otherwise))
            parts.append(b.insert(guarded).results[0])
        return self.join_rows(b, parts)

    def clamped(self, indices) -> bool:
        """The last index piecewise, contiguous where it is linear; the others
        uniform."""
        if not indices:
            return False
        *outer, last = indices
        piecewise = self.piecewise.get(last)
        return (
            piecewise is not None
            and piecewise.linear.stride == 1
            and _zero(piecewise.linear.row_stride)
            and self.rows == 1
            and all(self.is_uniform(i) for i in outer)
        )

    def clamped_load(
        self, b: Builder, op: memref.LoadOp, ref: SSAValue, vtype, mask
    ) -> SSAValue:
        """A load at a clamped index: a masked contiguous load for the lanes where
        the index is linear, and one load at the clamp, if a lane (an active one)
        takes it, for the others."""
        *outer, last = op.indices
        piecewise = self.piecewise[last]
        outer = [self.scalar(i) for i in outer]
        linear_lanes = piecewise.cond
        other_lanes = self.negate(b, piecewise.cond)
        if mask is not None:
            linear_lanes = b.insert(arith.AndIOp(mask, linear_lanes)).result
            other_lanes = b.insert(arith.AndIOp(mask, other_lanes)).result
        zeros = self.zeros(b, vtype)
        indices = [*outer, piecewise.linear.base]
        linear = vector.MaskedLoadOp(ref, indices, linear_lanes, zeros, vtype)
        linear_value = b.insert(linear).result
        then = Block()
        inner = Builder(InsertPoint.at_end(then))
        value = inner.insert(memref.LoadOp.get(ref, [*outer, piecewise.other])).res
        inner.insert(scf.YieldOp(self.splat(inner, value)))
        otherwise = Block()
        Builder(InsertPoint.at_end(otherwise)).insert(scf.YieldOp(zeros))
        any_other = b.insert(_any(other_lanes)).results[0]
        other = b.insert(
            scf.IfOp(any_other, [vtype], Region(then), Region(otherwise))
        ).results[0]
        select = llvmx.SelectOp(piecewise.cond, linear_value, other)
        return b.insert(select).res

    def emit_store(self, b: Builder, op: memref.StoreOp, mask: SSAValue | None) -> None:
        ref = self.scalar(op.memref)
        if all(self.is_uniform(o) for o in op.operands):  # the same store in every lane
            self.emit_uniform(b, op)
            return
        if self.contiguous(ref, op.indices):
            self.vector_accesses += 1
            value = self.widen(b, op.value)
            for row in range(self.rows):  # a vector per row, in order
                part, row_mask = value, mask
                if self.rows > 1:
                    part = self.row_of(b, value, row)
                    row_mask = None if mask is None else self.row_of(b, mask, row)
                indices = self.row_indices(b, op.indices, row)
                if row_mask is None:
                    b.insert(vector.StoreOp(part, ref, indices))
                else:
                    b.insert(vector.MaskedStoreOp(ref, indices, row_mask, part))
            return
        self.lane_accesses += 1
        for lane in range(self.count):  # lane by lane, in order

            def store(inner: Builder, lane=lane) -> None:
                value = self.lane(inner, op.value, lane)
                indices = [self.lane(inner, i, lane) for i in op.indices]
                inner.insert(memref.StoreOp.get(value, ref, indices))

            self.if_lane(b, mask, lane, store, None)

    def zeros(self, b: Builder, vtype: VectorType) -> SSAValue:
        element = vtype.get_element_type()
        zero = 0.0 if isinstance(element, AnyFloat) else 0
        attr = DenseIntOrFPElementsAttr.from_list(vtype, [zero] * vtype.get_shape()[0])
        return b.insert(arith.ConstantOp(attr, vtype)).result

    def if_lane(self, b: Builder, mask, lane: int, body, current):
        """`body(builder)` (which returns the new value of `current`, if any) for
        lane `lane`: directly without a mask, else under `scf.if` on its mask bit."""
        if mask is None:
            return body(b)
        bit = b.insert(vector.ExtractOp(mask, [lane], i1)).result
        then = Block()
        inner = Builder(InsertPoint.at_end(then))
        value = body(inner)
        if current is None:
            inner.insert(scf.YieldOp())
            b.insert(scf.IfOp(bit, [], Region(then)))
            return None
        inner.insert(scf.YieldOp(value))
        otherwise = Block()
        Builder(InsertPoint.at_end(otherwise)).insert(scf.YieldOp(current))
        new = b.insert(scf.IfOp(bit, [current.type], Region(then), Region(otherwise)))
        return new.results[0]

    # -- control flow -----------------------------------------------------------------

    def result_type(self, value: SSAValue) -> Attribute:
        return value.type if self.is_uniform(value) else self.vector_type(value.type)

    def yielded(self, b: Builder, values, targets) -> list[SSAValue]:
        """`values` in the form of `targets` (uniform: scalars, else vectors)."""
        return [
            self.scalar(v) if self.is_uniform(t) else self.widen(b, v)
            for v, t in zip(values, targets, strict=True)
        ]

    def branch(self, region: Region, mask, results) -> Region:
        """A new region running `region` under `mask`, yielding `results`' forms."""
        block = Block()
        inner = Builder(InsertPoint.at_end(block))
        if region.blocks:
            self.emit_block(inner, region.block, mask)
        values = _yielded(region)
        inner.insert(scf.YieldOp(*self.yielded(inner, values, results)))
        return Region(block)

    def emit_if(self, b: Builder, op: scf.IfOp, mask: SSAValue | None) -> None:
        if self.is_uniform(op.cond):
            types = [self.result_type(r) for r in op.results]
            then = self.branch(op.true_region, mask, op.results)
            otherwise = (
                self.branch(op.false_region, mask, op.results)
                if op.false_region.blocks or op.results
                else Region()
            )
            new = b.insert(scf.IfOp(self.scalar(op.cond), types, then, otherwise))
            self.map_args(op.results, new.results)
            return
        cond = self.widen(b, op.cond)
        values = []
        for region in op.regions:
            if not _has_ops(region):  # nothing to run: its yields, if any
                values.append([self.widen(b, v) for v in _yielded(region)])
                continue
            branch_mask = self.negate(b, cond) if region is op.false_region else cond
            if mask is not None:
                branch_mask = b.insert(arith.AndIOp(mask, branch_mask)).result
            values.append(self.masked_branch(b, op, region, branch_mask))
        for old, then_value, else_value in zip(op.results, *values, strict=True):
            select = b.insert(llvmx.SelectOp(cond, then_value, else_value)).res
            self.set_vector(old, select)

    def masked_branch(self, b: Builder, op: scf.IfOp, region: Region, mask) -> list:
        """Runs `region` under `mask` if a lane of it is active; its results as
        vectors (zeros when no lane ran it)."""
        types = [self.vector_type(r.type) for r in op.results]
        active = b.insert(_any(mask))
        then = self.branch(region, mask, op.results)
        otherwise = Region()
        if types:  # zeros for lanes none of which ran the branch
            block = Block()
            zb = Builder(InsertPoint.at_end(block))
            zb.insert(scf.YieldOp(*(self.zeros(zb, t) for t in types)))
            otherwise = Region(block)
        new = b.insert(scf.IfOp(active.results[0], types, then, otherwise))
        return list(new.results)

    def emit_divergent_for(
        self, b: Builder, op: scf.ForOp, mask: SSAValue | None
    ) -> None:
        """A loop whose bounds differ between lanes: an `scf.while` on vectors that
        runs while a lane still iterates (`iv < ub`, signed, as `scf.for`), the body
        under the mask of the lanes that do; the others keep their values."""
        iv, *args = op.body.block.args
        ub, step = self.widen(b, op.ub), self.widen(b, op.step)
        inits = [self.widen(b, v) for v in (op.lb, *op.iter_args)]
        types = [v.type for v in inits]
        slt = IntegerAttr(llvm.ICmpPredicateFlag("slt").to_int(), i64)

        def iterating(inner: Builder, ivs: SSAValue) -> SSAValue:
            lanes = inner.insert(llvm.ICmpOp(ivs, ub, slt)).res
            if mask is not None:
                lanes = inner.insert(arith.AndIOp(mask, lanes)).result
            return lanes

        before = Block(arg_types=types)
        inner = Builder(InsertPoint.at_end(before))
        running = inner.insert(_any(iterating(inner, before.args[0]))).results[0]
        inner.insert(scf.ConditionOp(running, *before.args))
        after = Block(arg_types=types)
        inner = Builder(InsertPoint.at_end(after))
        lanes = iterating(inner, after.args[0])
        self.set_vector(iv, after.args[0])
        for old, new in zip(args, after.args[1:], strict=True):
            self.set_vector(old, new)
        kept = self.masked_body(inner, op, lanes, after.args[1:])
        next_iv = inner.insert(arith.AddiOp(after.args[0], step)).result
        inner.insert(scf.YieldOp(next_iv, *kept))
        new = b.insert(scf.WhileOp(inits, types, Region(before), Region(after)))
        for old, result in zip(op.results, new.res[1:], strict=True):
            self.set_vector(old, result)

    def emit_linear_for(
        self, b: Builder, op: scf.ForOp, mask: SSAValue | None, start: _Linear
    ) -> None:
        """A loop from a linear lower bound (`for e = lid; e < n; e += count`, each
        work-item taking every count-th element): lane `l` counts `lb_l + m * step`,
        lane 0's count plus `stride * l`, so the induction variable stays linear. One
        scalar loop over lane 0's values (the lane that iterates longest, its bound
        the lowest) runs the body under the mask of the lanes still below `ub`;
        the others keep their values, as in `emit_divergent_for`. Without an
        enclosing mask lane 0 is active in every iteration; under one, lane 0 may be
        inactive, and an iteration runs the body only if a lane is active (so that a
        load the body makes once for all lanes is one that an active lane makes)."""
        iv, *args = op.body.block.args
        inits = [self.widen(b, v) for v in op.iter_args]
        types = [v.type for v in inits]
        block = Block(arg_types=[IndexType(), *types])
        lane0, *olds = block.args
        lane0.name_hint = iv.name_hint
        self.aligned[lane0] = min(
            self.alignment(start.base), self.alignment(self.scalar(op.step))
        )
        self.linear[iv] = _Linear(lane0, start.stride, start.row_stride)
        for old, new in zip(args, olds, strict=True):
            self.set_vector(old, new)
        inner = Builder(InsertPoint.at_end(block))
        slt = IntegerAttr(llvm.ICmpPredicateFlag("slt").to_int(), i64)
        ivs = self.materialise(inner, self.linear[iv])
        lanes = inner.insert(llvm.ICmpOp(ivs, self.widen(inner, op.ub), slt)).res
        if mask is None:
            kept = self.masked_body(inner, op, lanes, olds)
        else:
            lanes = inner.insert(arith.AndIOp(mask, lanes)).result
            active = inner.insert(_any(lanes)).results[0]
            then = Block()
            then_builder = Builder(InsertPoint.at_end(then))
            then_builder.insert(
                scf.YieldOp(*self.masked_body(then_builder, op, lanes, olds))
            )
            otherwise = Block()
            Builder(InsertPoint.at_end(otherwise)).insert(scf.YieldOp(*olds))
            guarded = scf.IfOp(active, types, Region(then), Region(otherwise))
            kept = list(inner.insert(guarded).results)
        inner.insert(scf.YieldOp(*kept))
        bounds = [start.base, self.scalar(op.ub), self.scalar(op.step)]
        new = b.insert(scf.ForOp(*bounds, inits, Region(block)))
        for old, result in zip(op.results, new.results, strict=True):
            self.set_vector(old, result)

    def masked_body(
        self, b: Builder, op: scf.ForOp, lanes: SSAValue, olds
    ) -> list[SSAValue]:
        """The body of loop `op` under `lanes` (the lanes still iterating): the
        values it carries on, new in `lanes` and `olds` in the other lanes."""
        self.emit_block(b, op.body.block, lanes)
        values = [self.widen(b, v) for v in _yield(op.body).operands]
        return [
            b.insert(llvmx.SelectOp(lanes, new, old)).res
            for new, old in zip(values, olds, strict=True)
        ]

    def negate(self, b: Builder, mask: SSAValue) -> SSAValue:
        """The lanes not in `mask`."""
        true = self.splat(b, const(b, 1, i1))
        return b.insert(arith.XOrIOp(mask, true)).result

    def map_args(self, olds, news) -> None:
        """`news` stand for `olds` (block arguments, results), scalars for the
        uniform ones, vectors for the others."""
        for old, new in zip(olds, news, strict=True):
            if self.is_uniform(old):
                self.uniform[old] = new
            else:
                self.set_vector(old, new)

    def emit_while(self, b: Builder, op: scf.WhileOp, mask: SSAValue | None) -> None:
        """A loop whose condition is uniform: every lane iterates alike, carrying
        scalars or vectors as its values are."""
        before_args = op.before_region.block.args
        after_args = op.after_region.block.args
        inits = self.yielded(b, op.arguments, before_args)
        before = Block(arg_types=[self.result_type(a) for a in before_args])
        self.map_args(before_args, before.args)
        inner = Builder(InsertPoint.at_end(before))
        condition = op.before_region.block.last_op
        assert isinstance(condition, scf.ConditionOp)
        for child in op.before_region.block.ops:
            if child is not condition:
                self.emit(inner, child, mask)
        forwarded = self.yielded(inner, condition.args, after_args)
        inner.insert(scf.ConditionOp(self.scalar(condition.condition), *forwarded))
        after = Block(arg_types=[self.result_type(a) for a in after_args])
        self.map_args(after_args, after.args)
        inner = Builder(InsertPoint.at_end(after))
        self.emit_block(inner, op.after_region.block, mask)
        values = _yield(op.after_region).operands
        inner.insert(scf.YieldOp(*self.yielded(inner, values, before_args)))
        types = [self.result_type(r) for r in op.res]
        new = b.insert(scf.WhileOp(inits, types, Region(before), Region(after)))
        self.map_args(op.res, new.res)

    def emit_for(self, b: Builder, op: scf.ForOp, mask: SSAValue | None) -> None:
        start = self.linear.get(op.lb)
        if (
            start is not None
            and start.stride > 0
            and isinstance(start.row_stride, int)
            and start.row_stride >= 0
            and self.is_uniform(op.ub)
            and self.is_uniform(op.step)
        ):
            self.emit_linear_for(b, op, mask, start)
            return
        if not all(self.is_uniform(v) for v in (op.lb, op.ub, op.step)):
            self.emit_divergent_for(b, op, mask)
            return
        args = op.body.block.args[1:]
        inits = self.yielded(b, op.iter_args, args)
        block = Block(arg_types=[IndexType(), *(self.result_type(a) for a in args)])
        block.args[0].name_hint = op.body.block.args[0].name_hint
        self.uniform[op.body.block.args[0]] = block.args[0]
        self.map_args(args, block.args[1:])
        inner = Builder(InsertPoint.at_end(block))
        self.emit_block(inner, op.body.block, mask)
        values = _yield(op.body).operands
        inner.insert(scf.YieldOp(*self.yielded(inner, values, args)))
        bounds = [self.scalar(v) for v in (op.lb, op.ub, op.step)]
        new_for = b.insert(scf.ForOp(*bounds, inits, Region(block)))
        self.map_args(op.results, new_for.results)
