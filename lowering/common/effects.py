"""Side effects: which ops only compute their results.

One definition for the analyses that move, share or drop computations: the
uniformity of live values (`lowering.scheduling.uniformity`) and the bound
functions of barrier regions (`lowering.scheduling.bounds`).
"""

from __future__ import annotations

from xdsl.dialects import arith, llvm, math, memref
from xdsl.dialects.builtin import UnrealizedConversionCastOp
from xdsl.ir import Operation

from dialects import mux

_PURE_OPS: tuple[type[Operation], ...] = (
    *mux.QUERY_OPS,
    llvm.GEPOp,
    UnrealizedConversionCastOp,
    # a boolean's byte in the live storage and back (`layout.to_memory`/`from_memory`)
    llvm.ConstantOp,
    llvm.ZExtOp,
    llvm.ICmpOp,
)
_PURE_KINDS: dict[type, bool] = {}


def is_arithmetic(op: Operation) -> bool:
    """An op of the `arith` or `math` dialect: a computation on its operands."""
    return op.name.split(".")[0] in (arith.Arith.name, math.Math.name)


def is_pure(op: Operation) -> bool:
    """An op without side effects whose results depend on its operands alone (and,
    for a work-item query such as `mux.get_local_id`, on the work-item): `arith`,
    `math`, the `mux` queries, address arithmetic and conversion casts. Cached per
    kind of op."""
    kind = type(op)
    pure = _PURE_KINDS.get(kind)
    if pure is None:
        pure = issubclass(kind, _PURE_OPS) or is_arithmetic(op)
        if kind.__name__ != "UnregisteredOp":  # one class, many op names
            _PURE_KINDS[kind] = pure
    return pure


def is_load(op: Operation) -> bool:
    return isinstance(op, (memref.LoadOp, llvm.LoadOp))


def is_store(op: Operation) -> bool:
    return isinstance(op, (memref.StoreOp, llvm.StoreOp))
