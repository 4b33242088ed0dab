"""`run-vecz`'s cost model (the spec's `VeczPassOptionsAnalysis` leaves it to the
target): how many lanes (`auto_width`) and rows (`auto_rows`) to vectorise a kernel
to, and whether to vectorise it at all, before (`check_no_barrier_in_while`) and
after (`check_worth_it`) vectorising. The measurements behind each rule are in
docs/performance.md, "run-vecz's cost model"."""

from __future__ import annotations

from xdsl.dialects import func, scf
from xdsl.ir import Operation, SSAValue

from dialects import attributes as mux_attrs
from dialects import mux
from lowering.common.device import HOST
from lowering.run_vecz.checks import Unsupported, check_rows, has_barriers
from lowering.run_vecz.vectoriser import Vectoriser

DEFAULT_ROWS = 4


def auto_width(kernel: func.FuncOp, varying: set[SSAValue]) -> int:
    """`HOST.vector_width`, or twice that for a kernel with a loop that carries a
    value differing between lanes, but no wider than the required work-group size
    in x (rounded down to a power of 2, at least 2, and dividing it when the kernel
    has barriers); `HOST.vector_width` without one. Such a loop is a chain of
    dependent operations (`acc = acc + a * b`) whose latency, not the throughput of
    the vector unit, bounds it; twice the lanes are two independent chains per
    step."""
    reqd = mux_attrs.REQD_WORK_GROUP_SIZE.get(kernel)
    wide = 2 * HOST.vector_width
    chains = carries_lanes(kernel, varying)
    if reqd is None:  # packets of 16 would leave groups narrower than 16 scalar
        return HOST.vector_width
    width = wide if chains else HOST.vector_width
    # at most the largest power of 2 in the required size
    width = max(2, min(width, 1 << (reqd[0].bit_length() - 1)))
    if has_barriers(kernel):
        while width > 2 and reqd[0] % width:  # barriers: no scalar tail
            width //= 2
    return width


def carries_lanes(kernel: func.FuncOp, varying: set[SSAValue]) -> bool:
    """Whether a loop of `kernel` carries a value that differs between lanes: an
    `scf.for`, or an `scf.while` (a loop from OpenCL C: `lift-llvm-ops` gives
    clang's rotated loops as do-whiles)."""
    return any(any(a in varying for a in _carried(op)) for op in kernel.walk())


def _carried(op: Operation) -> tuple[SSAValue, ...]:
    if isinstance(op, scf.ForOp):
        return op.body.block.args[1:]
    if isinstance(op, scf.WhileOp):
        return op.before_region.block.args
    return ()


def auto_rows(kernel: func.FuncOp, varying: set[SSAValue]) -> int:
    """`DEFAULT_ROWS` for a kernel with a loop that carries values differing between
    lanes (an inner product) when `check_rows` allows it, else 1. The rows of a
    packet then share the loads that are the same in every row (B's row in
    `C[y][x] = sum A[y][k] * B[k][x]`): each such load serves 4 chains of adds
    instead of 1, and the walk of B down its columns, a TLB miss per step, happens
    once per 4 rows."""
    if not carries_lanes(kernel, varying):
        return 1
    try:
        check_rows(kernel, DEFAULT_ROWS)
    except Unsupported:
        return 1
    return DEFAULT_ROWS


def check_worth_it(vectoriser: Vectoriser, vectorised: func.FuncOp) -> None:
    """The second half of the cost model, after vectorising: lanes loaded and stored
    one by one cost about what the scalar kernel does, plus moving them in and out
    of vectors; when they outnumber the accesses to whole vectors, the scalar kernel
    is kept (`scan`)."""
    lanes, vectors = vectoriser.lane_accesses, vectoriser.vector_accesses
    if lanes > vectors:
        vectorised.erase()
        raise Unsupported(
            f"not worth it: {lanes} accesses lane by lane, {vectors} to whole vectors"
        )


def check_no_barrier_in_while(kernel: func.FuncOp) -> None:
    """The cost model's first half, before vectorising: a barrier in an `scf.while`
    is the step of a tree (`for (s = 1; s < n; s *= 2)`: `reduce`, `scan`), which
    halves or doubles the work-items that do something at each step. The scalar
    kernel is kept: with a constant work-group size LLVM unrolls its steps and folds
    their masks into the bounds of each step's work-item loop, while the vectorised
    kernel runs every packet at every step. A barrier in an `scf.for` with uniform
    bounds is not such a step: in `sgemm_tiled`'s loop over tiles every work-item
    loads and multiplies at every step, and the vectorised kernel is the faster."""
    for op in kernel.walk():
        if isinstance(op, mux.WorkGroupBarrierOp) and _in_while(op):
            raise Unsupported(
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
