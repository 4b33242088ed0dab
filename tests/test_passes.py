"""Properties of the passes that hold for every op of a kind, checked over all of
them (lit tests show individual cases)."""

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32

from dialects import mux
from lowering.add_sched_params import AddSchedParamsPass
from lowering.define_mux_builtins import DefineMuxBuiltinsPass

_WORK_ITEM_OPS = (*mux.QUERY_OPS, *mux.SETTER_OPS)


def _function_using(op_type: type, runtime_dim: bool) -> ModuleOp:
    """A function whose body is one `op_type` (operands from constants or args)."""
    fn = func.FuncOp("f", ([i32], []))
    block = fn.body.block
    dim = block.args[0] if runtime_dim else None
    constant = arith.ConstantOp(IntegerAttr(1, i32))
    block.add_op(constant)
    dim = dim or constant.result
    if issubclass(op_type, mux._RankedQueryOp):
        op = op_type(dim)
    elif op_type is mux.SetLocalIdOp:
        index = arith.ConstantOp.from_int_and_width(5, mux.IndexType())
        block.add_op(index)
        op = op_type(constant, index)
    elif op_type in mux.SETTER_OPS:
        op = op_type(constant)
    else:
        op = op_type()
    block.add_ops([op, func.ReturnOp()])
    return ModuleOp([fn])


# A setter's dimension is always a constant (work-item-loops makes them).
_CASES = [
    (op_type, runtime)
    for op_type in _WORK_ITEM_OPS
    for runtime in (False, True)
    if not (runtime and op_type is mux.SetLocalIdOp)
]


@pytest.mark.parametrize(
    ("op_type", "runtime_dim"),
    _CASES,
    ids=[f"{t.name}-{'runtime' if r else 'constant'}" for t, r in _CASES],
)
def test_define_mux_builtins_leaves_no_work_item_op(op_type, runtime_dim):
    module = _function_using(op_type, runtime_dim)
    ctx = Context()
    AddSchedParamsPass().apply(ctx, module)
    DefineMuxBuiltinsPass().apply(ctx, module)
    module.verify()
    left = [op.name for op in module.walk() if isinstance(op, _WORK_ITEM_OPS)]
    assert left == []
