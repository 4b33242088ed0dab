"""What `run-vecz` refuses to vectorise: `Unsupported`, whose message
`mux.vecz_fail` records, and the checks of a whole kernel (the schedule
`work-item-loops` must be able to run, packets of rows) and of single ops (the
ops and memrefs the vectoriser handles). Refusals that depend on how a value is
carried over the lanes are raised where the vectoriser meets them."""

from __future__ import annotations

from xdsl.dialects import func, llvm, memref
from xdsl.dialects.builtin import MemRefType, NoneAttr
from xdsl.ir import Operation, SSAValue

from dialects import attributes as mux_attrs
from dialects import mux
from lowering.common.builders import constant_int
from lowering.common.intrinsics import lanewise_base
from lowering.scheduling.uniformity import VARYING_QUERIES

UNIFORM_QUERIES = tuple(
    q for q in mux.QUERY_OPS if q not in (*VARYING_QUERIES, *mux.SUB_GROUP_QUERY_OPS)
)
"""The work-item queries that are the same in every lane: all but those that vary
between work-items and those of the sub-group model (not vectorised)."""


class Unsupported(Exception):
    """The kernel has something this vectoriser does not handle (the message)."""


def has_barriers(kernel: func.FuncOp) -> bool:
    return any(isinstance(op, mux.WorkGroupBarrierOp) for op in kernel.walk())


def is_elementwise(op: Operation) -> bool:
    """Whether `op` is an `arith` or `math` op without regions, or a call of an
    LLVM intrinsic that applies lane by lane (`llvm.smax.i32`: `lanewise_base`):
    its results depend on its operands only, and it applies to vectors lane by
    lane."""
    if isinstance(op, llvm.CallIntrinsicOp):
        return lanewise_intrinsic(op) is not None
    return op.name.split(".")[0] in ("arith", "math") and not op.regions


def lanewise_intrinsic(op: llvm.CallIntrinsicOp) -> str | None:
    """The intrinsic a lane-wise call calls, without its overload (`llvm.smax`)."""
    if op.ress is None:
        return None
    return lanewise_base(op.intrin.data, [arg.type for arg in op.args])


def check_schedule(kernel: func.FuncOp, width: int) -> None:
    """Raises unless `work-item-loops` can run the kernel `width` lanes at a time."""
    if mux_attrs.max_work_dim(kernel) < 1:
        raise Unsupported("mux.max_work_dim is 0")
    order = mux_attrs.work_item_order(kernel).dimensions
    if order[0] != 0:
        raise Unsupported("the work-item order does not loop dimension 0 innermost")
    reqd = mux_attrs.REQD_WORK_GROUP_SIZE.get(kernel)
    if reqd is not None and reqd[0] < width:
        raise Unsupported(
            f"the required work-group size {reqd[0]} in dimension 0 is smaller "
            f"than the width"
        )
    if has_barriers(kernel) and (reqd is None or reqd[0] % width):
        raise Unsupported(
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
            raise Unsupported(
                f"a barrier with the {schedule.value} schedule (the region after it "
                "relies on work-items running one after another)"
            )
    if kernel.body.blocks.first is not kernel.body.blocks.last:
        raise Unsupported("the kernel has more than one block (cf branches)")


def check_rows(kernel: func.FuncOp, rows: int) -> None:
    """Raises unless `work-item-loops` can run packets of `rows` rows: no barriers
    (their live values are per work-item of one row), a required work-group size
    whose y is a multiple of `rows`, dimension 1 looped right outside dimension 0."""
    if has_barriers(kernel):
        raise Unsupported("packets of more than one row with barriers")
    reqd = mux_attrs.REQD_WORK_GROUP_SIZE.get(kernel)
    if reqd is None or reqd[1] % rows:
        raise Unsupported(
            f"packets of {rows} rows need a required work-group size whose y is a "
            "multiple of it"
        )
    if mux_attrs.max_work_dim(kernel) < 2:
        raise Unsupported(f"packets of {rows} rows in a kernel of 1 dimension")
    if mux_attrs.work_item_order(kernel).dimensions[:2] != (0, 1):
        raise Unsupported("the work-item order does not loop dimension 1 second")


def check_supported(op: Operation) -> None:
    """Raises unless `op` (not a work-item query that varies, not control flow) is
    one the vectoriser handles: a uniform query, a load, `memref.dim`, or an
    elementwise op."""
    if isinstance(op, (*UNIFORM_QUERIES, memref.LoadOp, memref.DimOp)):
        if isinstance(op, memref.LoadOp | memref.DimOp):
            check_memref(op.operands[0])
        return
    if is_elementwise(op):
        return
    if isinstance(op, llvm.CallIntrinsicOp):
        raise Unsupported(f"a call of the LLVM intrinsic {op.intrin.data}")
    raise Unsupported(f"{op.name} is not vectorised")


def check_memref(ref: SSAValue) -> None:
    """Raises unless `ref` is a memref without a layout."""
    type_ = ref.type
    if not isinstance(type_, MemRefType) or not isinstance(type_.layout, NoneAttr):
        raise Unsupported(f"an access to a memref with a layout ({type_})")


def constant_dimension(dim: SSAValue) -> int:
    """The dimension of a work-item query, which must be a constant."""
    value = constant_int(dim)
    if value is None:
        raise Unsupported("a work-item query of a dimension that is not a constant")
    return value
