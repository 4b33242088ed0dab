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
  image kernels clamp neighbours at a border), and offsets and index casts of
  that (an imported kernel clamps in `i64`, then casts to `index`): a vector of
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

A call of an LLVM intrinsic that applies lane by lane (`llvm.smax.i32`,
`llvm.fabs.f32`: `lowering.common.intrinsics.LANEWISE`) is an elementwise op like
`arith`'s: widened, it calls the intrinsic's overload on vectors (`llvm.smax.v8i32`).

Not vectorised (`mux.vecz_fail` says why): collectives, sub-group and DMA ops,
atomics, calls (of functions, and of the other intrinsics), `scf.while` with a
varying condition, `cf` branches, memrefs that differ between lanes, loads and
stores on memrefs with a layout, and any op of another dialect. Neither are
kernels whose work-item order does not loop dimension 0 innermost (the vector loop
must be the innermost), whose `mux.max_work_dim` is 0, or whose required
work-group size is smaller than `width` in dimension 0.

Before: barriers prepared (`prepare-barriers`: their ids unique, none in a called
function), builtins replaced (`replace-mux-math-decls`, `replace-atomic-funcs`),
metadata attached (work-item order, required work-group size).
After: `work-item-loops` schedules each kernel with `mux.vecz_base` as "Vector +
Scalar" (or "Vector only"); `define-mux-builtins` defines the queries of both
functions alike.

**The package.** `varying.py` finds the values that differ between lanes,
`checks.py` what is refused (`Unsupported`) and `cost_model.py` the width, the rows
and whether vectorising is worth it. `vectoriser.py` builds the new function from
parts that each handle one idea: `values.py` (the forms above, and moving a value
between them), `arithmetic.py`, `memory.py` and `control_flow.py`. The parts are
mixins over `values.PacketValues` rather than objects of their own: they share one
record of what each value of `@k` became and call its operations (`widen`, `lane`,
`splat`) at nearly every step, and `control_flow` runs blocks whose ops any part
emits (`emit`, the vectoriser's dispatch). Each mixin depends on the record only,
never on another mixin.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass

from dialects import attributes as mux_attrs
from lowering.common.compile_options import OptionError, check_vecz_width
from lowering.common.device import HOST
from lowering.common.errors import PassError
from lowering.common.functions import kernel_entry_points
from lowering.run_vecz.checks import Unsupported, check_rows, check_schedule
from lowering.run_vecz.cost_model import (
    DEFAULT_ROWS,
    auto_rows,
    auto_width,
    check_no_barrier_in_while,
    check_worth_it,
)
from lowering.run_vecz.varying import varying_values
from lowering.run_vecz.vectoriser import Vectoriser, vecz_name

__all__ = ["DEFAULT_ROWS", "RunVeczPass", "auto_rows", "auto_width", "vecz_name"]


@dataclass(frozen=True)
class RunVeczPass(ModulePass):
    """Adds to each kernel entry point a version that runs `width` work-items of
    dimension 0 (in each of `rows` rows of dimension 1) at once, for
    `work-item-loops` to use."""

    name = "run-vecz"

    width: int = 0
    """The number of work-items a call of the vectorised kernel runs: a power of 2
    up to 32 (`CompileOptions.vecz_width`'s rule; vectorise whenever possible, the
    spec's `-cl-wfv=always`), 1 for no vectorisation, 0 to let the cost model
    choose the width (`auto_width`) and whether to vectorise at all
    (`check_worth_it`; `-cl-wfv=auto`)."""

    rows: int = 0
    """The number of rows (consecutive work-items of dimension 1) a call of the
    vectorised kernel runs, `width` work-items of dimension 0 in each: a power of 2
    (when the kernel allows it, else an error in `mux.vecz_fail`), 1 for one row, 0
    to let the cost model choose (`auto_rows`)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:  # the compile option's rule, spelled as the pass option
            check_vecz_width(self.width, "width")
        except OptionError as error:
            raise PassError(f"run-vecz: {error}") from None
        if self.rows < 0 or self.rows & (self.rows - 1):
            raise PassError(f"run-vecz: rows must be a power of 2, got {self.rows}")
        if self.width == 1:
            return
        for kernel in kernel_entry_points(op):
            if mux_attrs.VECZ_BASE.get(kernel) is not None:
                continue  # vectorised already
            width = self.width or HOST.vector_width
            try:
                varying = varying_values(kernel)
                width = self.width or auto_width(kernel, varying)
                check_schedule(kernel, width)
                if not self.width:
                    check_no_barrier_in_while(kernel)
                vectoriser, vectorised = _vectorise(kernel, width, self.rows, varying)
                if not self.width:
                    check_worth_it(vectoriser, vectorised)
            except Unsupported as e:
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
) -> tuple[Vectoriser, func.FuncOp]:
    """`kernel` vectorised with `rows` rows (0: the cost model's, `auto_rows`, or one
    row where those are not possible or would leave accesses lane by lane, as
    clamped loads are in rows)."""
    if not rows:
        rows = auto_rows(kernel, varying)
        if rows > 1:
            try:
                vectoriser, vectorised = _vectorise(kernel, width, rows, varying)
            except Unsupported:
                pass
            else:
                if not vectoriser.lane_accesses:
                    return vectoriser, vectorised
                vectorised.erase()
        rows = 1
    if rows > 1:
        check_rows(kernel, rows)
        varying = varying_values(kernel, rows)
    vectoriser = Vectoriser(kernel, width, varying, rows)
    return vectoriser, vectoriser.run()
