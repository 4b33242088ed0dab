"""Building blocks passes make IR with: constants, index casts, loops, `scf.if`
(with or without results), stack slots, and the types of the scheduled level.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, scf, vector
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    UnrealizedConversionCastOp,
    VectorType,
    i1,
    i64,
)
from xdsl.dialects.llvm import AllocaOp, LLVMPointerType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from lowering.common.dispatch import op_name

SIZE_T = i64
"""The host's `size_t`: 64-bit."""
INDEX = IndexType()


def const(b: Builder, value: int | bool, type_: Attribute = INDEX) -> SSAValue:
    """An `arith.constant` of an integer, index or i1 type."""
    if type_ == i1:
        return b.insert(arith.ConstantOp(IntegerAttr(int(value), i1))).result
    assert isinstance(type_, IntegerType | IndexType), type_
    return b.insert(arith.ConstantOp(IntegerAttr(value, type_))).result


def constant_int(value: SSAValue) -> int | None:
    """The value of an integer constant (`arith.constant`, `index.constant` or
    `llvm.mlir.constant`, perhaps behind a conversion cast), else None."""
    owner = value.owner
    while isinstance(owner, UnrealizedConversionCastOp):
        owner = owner.inputs[0].owner
    if not isinstance(owner, Operation) or op_name(owner) not in (
        "arith.constant",
        "index.constant",
        "llvm.mlir.constant",
    ):
        return None
    attr = owner.properties.get("value")
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def to_index(b: Builder, value: SSAValue) -> SSAValue:
    if isinstance(value.type, IndexType):
        return value
    return b.insert(arith.IndexCastOp(value, IndexType())).result


def from_index(b: Builder, value: SSAValue, type_: Attribute) -> SSAValue:
    if value.type == type_:
        return value
    return b.insert(arith.IndexCastOp(value, type_)).result


def build_for(
    b: Builder,
    lower: SSAValue,
    upper: SSAValue,
    step: SSAValue,
    body: Callable[[Builder, SSAValue], None],
    name: str | None = None,
) -> scf.ForOp:
    """`scf.for %iv = lower to upper step step { body(builder, %iv) }`."""

    def without_values(
        inner: Builder, iv: SSAValue, _: list[SSAValue]
    ) -> list[SSAValue]:
        body(inner, iv)
        return []

    return build_for_carrying(b, lower, upper, step, [], without_values, name)


def build_for_carrying(
    b: Builder,
    lower: SSAValue,
    upper: SSAValue,
    step: SSAValue,
    carried: Sequence[SSAValue],
    body: Callable[[Builder, SSAValue, list[SSAValue]], list[SSAValue]],
    name: str | None = None,
) -> scf.ForOp:
    """`scf.for` from `lower` to `upper` carrying the values `carried`:
    `body(builder, %iv, values)` returns the next values; the loop's results are
    the last ones."""
    block = Block(arg_types=[IndexType(), *(v.type for v in carried)])
    if name is not None:
        block.args[0].name_hint = name
    inner = Builder(InsertPoint.at_end(block))
    following = body(inner, block.args[0], list(block.args[1:]))
    inner.insert(scf.YieldOp(*following))
    return b.insert(scf.ForOp(lower, upper, step, carried, Region(block)))


def _yielding_region(body: Callable[[Builder], Sequence[SSAValue]]) -> Region:
    """A region of one block, filled by `body(builder)`, that yields what it returns."""
    block = Block()
    inner = Builder(InsertPoint.at_end(block))
    inner.insert(scf.YieldOp(*body(inner)))
    return Region(block)


def build_if(
    b: Builder, condition: SSAValue, then: Callable[[Builder], object]
) -> scf.IfOp:
    """`scf.if %condition { then(builder) }`, without results (what `then` returns
    is not used)."""

    def body(inner: Builder) -> Sequence[SSAValue]:
        then(inner)
        return ()

    return b.insert(scf.IfOp(condition, [], _yielding_region(body)))


def build_if_else(
    b: Builder,
    condition: SSAValue,
    result_types: Sequence[Attribute],
    then: Callable[[Builder], Sequence[SSAValue]],
    otherwise: Callable[[Builder], Sequence[SSAValue]] | None,
) -> scf.IfOp:
    """`scf.if %condition -> (result_types) { then } else { otherwise }`: `then` and
    `otherwise` fill their blocks with a builder and return the values the block
    yields. `otherwise` None: no else region (an `scf.if` without results)."""
    then_region = _yielding_region(then)
    else_region = Region() if otherwise is None else _yielding_region(otherwise)
    return b.insert(scf.IfOp(condition, list(result_types), then_region, else_region))


def vector_constant(
    b: Builder, type_: Attribute, values: list[int] | list[float]
) -> SSAValue:
    """A constant vector of `type_` with these lanes."""
    # an Attribute narrowed here, as xDSL's from_list takes a VectorType of an
    # element type it infers, which a VectorType[Attribute] is not
    assert isinstance(type_, VectorType)
    attr = DenseIntOrFPElementsAttr.from_list(type_, values)
    return b.insert(arith.ConstantOp(attr, type_)).result


def reduce_vector(b: Builder, value: SSAValue, kind: str, type_: Attribute) -> SSAValue:
    """`vector.reduction <kind>` of `value`'s lanes (`kind`: "or", "minui", ...),
    a `type_` scalar."""
    op = vector.ReductionOp.create(
        operands=[value],
        result_types=[type_],
        properties={
            "kind": vector.CombiningKindAttr(vector.CombiningKindFlag(kind)),
            "fastmath": arith.FastMathFlagsAttr("none"),
        },
    )
    return b.insert(op).results[0]


def alloca(b: Builder, type_: Attribute, name: str | None = None) -> SSAValue:
    """A stack slot for one value of `type_` (a struct, for the scheduling infos)."""
    slot = b.insert(AllocaOp(const(b, 1, SIZE_T), type_)).res
    slot.name_hint = name
    return slot


POINTER = LLVMPointerType()
"""The type of a scheduling-parameter argument: an opaque pointer in address space 0."""


def linear_id(
    b: Builder, ids: Sequence[SSAValue], sizes: Sequence[SSAValue]
) -> SSAValue:
    """`(z * size_y + y) * size_x + x`: the linear id of the ids `x, y, z` in a grid
    of `sizes` (index values)."""
    linear = b.insert(arith.MuliOp(ids[2], sizes[1])).result
    linear = b.insert(arith.AddiOp(linear, ids[1])).result
    linear = b.insert(arith.MuliOp(linear, sizes[0])).result
    return b.insert(arith.AddiOp(linear, ids[0])).result
