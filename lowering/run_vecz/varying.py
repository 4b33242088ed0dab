"""Which values of a kernel differ between the work-items of a packet, the lanes:
the rules of the package docstring (`lowering.run_vecz`), applied until nothing
changes. Whether a varying value is linear, piecewise or a vector is decided later,
as the vectoriser emits it (it may even turn out uniform: `(x + i) / 16`)."""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects import func, llvm, memref, scf
from xdsl.dialects.builtin import UnrealizedConversionCastOp
from xdsl.ir import SSAValue

from dialects import mux
from lowering.run_vecz.checks import (
    Unsupported,
    check_memref,
    check_supported,
    constant_dimension,
)
from lowering.run_vecz.regions import terminator
from lowering.scheduling.uniformity import VARYING_QUERIES

LANE_QUERIES = tuple(q for q in VARYING_QUERIES if q not in mux.SUB_GROUP_QUERY_OPS)
"""The work-item queries that may differ between lanes (those of the sub-group model
are not vectorised)."""

PER_DIMENSION_QUERIES = (mux.GetLocalIdOp, mux.GetGlobalIdOp)
"""The lane queries of one dimension: they vary in dimension 0 (and, with rows, 1)
only; the others (the linear ids) vary always."""

ADDRESS_OPS = (
    UnrealizedConversionCastOp,
    llvm.GEPOp,
    memref.GetGlobalOp,
    memref.CastOp,
)
"""Ops that compute a buffer's address, as `replace-module-scope-vars` does for the
variables in its buffer: kept, on scalars, when their operands are uniform."""


def varying_values(kernel: func.FuncOp, rows: int = 1) -> set[SSAValue]:
    """The values of `kernel` that may differ between the work-items of a packet
    of `rows` rows. Raises `Unsupported` for what the vectoriser cannot handle."""
    varying: set[SSAValue] = set()

    def mark(values: Iterable[SSAValue], condition: bool) -> bool:
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
            if isinstance(op, PER_DIMENSION_QUERIES):
                dim = constant_dimension(op.dim)
                changed |= mark(op.results, dim == 0 or (dim == 1 and rows > 1))
            elif isinstance(op, LANE_QUERIES):
                changed |= mark(op.results, True)
            elif isinstance(op, scf.IfOp):
                for i, result in enumerate(op.results):
                    yields = [terminator(r).operands[i] for r in op.regions]
                    divergent = op.cond in varying or any(y in varying for y in yields)
                    changed |= mark([result], divergent)
            elif isinstance(op, scf.ForOp):
                yielded = terminator(op.body).operands
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
                    raise Unsupported(
                        "an scf.while whose condition differs between lanes"
                    )
            elif isinstance(op, mux.WorkGroupBarrierOp):
                pass  # at a point every lane reaches (checked when emitted)
            elif isinstance(op, memref.StoreOp):
                check_memref(op.memref)
            elif isinstance(op, ADDRESS_OPS):
                if any(o in varying for o in op.operands):
                    raise Unsupported(
                        f"{op.name} on a value that differs between lanes"
                    )
            elif not isinstance(op, scf.YieldOp | func.ReturnOp):
                check_supported(op)
                changed |= mark(op.results, any(o in varying for o in op.operands))
    return varying


def _mark_while(op: scf.WhileOp, varying: set[SSAValue]) -> bool:
    """The rules for `scf.while`: a `before` argument varies if its initial value or
    the value the `after` region yields for it does; an `after` argument and a result
    if the value `scf.condition` forwards does."""
    added = False
    yielded = terminator(op.after_region).operands
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
