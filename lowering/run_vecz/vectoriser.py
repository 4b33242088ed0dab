"""`Vectoriser`: builds the vectorised copy of one kernel, op by op, from the parts
of the package (its arithmetic, memory and control flow mixins over the value
record `PacketValues`); `emit` dispatches each op of the kernel to its part."""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import func, memref, scf
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import DiagnosticException, VerifyException

from dialects import attributes as mux_attrs
from dialects import mux
from lowering.common.builders import constant_int
from lowering.common.functions import mark_internal
from lowering.run_vecz.arithmetic import Arithmetic
from lowering.run_vecz.checks import Unsupported
from lowering.run_vecz.control_flow import ControlFlow
from lowering.run_vecz.memory import Memory
from lowering.run_vecz.values import Linear
from lowering.run_vecz.varying import LANE_QUERIES, PER_DIMENSION_QUERIES


def vecz_name(kernel_name: str, width: int, rows: int = 1) -> str:
    """The vectorised kernel's name: vecz's `__vecz_v<W>_k`, `__vecz_v<W>x<R>_k`
    with rows."""
    shape = f"{width}x{rows}" if rows > 1 else f"{width}"
    return f"__vecz_v{shape}_{kernel_name}"


class Vectoriser(Arithmetic, Memory, ControlFlow):
    """The vectorised copy of `kernel` (`run`) for packets of `width` lanes in each
    of `rows` rows, `varying` the values that differ between lanes."""

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
            raise Unsupported(f"the vectorised kernel does not verify: {e}") from e
        return new

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
                raise Unsupported(
                    "a barrier under a condition that differs between lanes"
                )
            self.emit_uniform(b, op)
        elif isinstance(op, memref.LoadOp):
            self.emit_load(b, op, mask)
        elif isinstance(op, memref.StoreOp):
            self.emit_store(b, op, mask)
        elif all(r not in self.varying for r in op.results):
            self.emit_uniform(b, op)
        elif isinstance(op, LANE_QUERIES):
            (result,) = self.emit_uniform(b, op)
            self.linear[op.results[0]] = self.query_lanes(op, result)
            if isinstance(op, mux.GetLocalIdOp) and constant_int(op.dim) == 0:
                self.aligned[result] = self.width  # packets start at multiples of W
        elif self.became_uniform(op):
            self.emit_uniform(b, op)
            self.varying.difference_update(op.results)
        elif not self.emit_linear(b, op):
            self.emit_varying(b, op, mask)

    def query_lanes(self, op: Operation, result: SSAValue) -> Linear:
        """A work-item query that differs between lanes, lane 0's value `result`: an
        id of dimension 0 (1 to the next lane) or 1 (1 to the next row), or the
        local linear id (1 to the next lane, the row's size to the next row)."""
        if isinstance(op, PER_DIMENSION_QUERIES):
            return (
                Linear(result, 0, 1) if constant_int(op.dim) == 1 else Linear(result, 1)
            )
        if self.rows == 1:
            return Linear(result, 1)
        reqd = mux_attrs.REQD_WORK_GROUP_SIZE.get(self.kernel)
        if not isinstance(op, mux.GetLocalLinearIdOp) or reqd is None:
            raise Unsupported(f"{op.name} with packets of more than one row")
        return Linear(result, 1, reqd[0])
