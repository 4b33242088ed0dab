"""`arith` to `llvm`.

Most ops are one llvm op: the integer and float arithmetic (`arith.addi` is
`llvm.add` with the same nsw/nuw flags, `arith.addf` is `llvm.fadd` with the same
fast-math flags), the comparisons (`llvm.icmp`, `llvm.fcmp` with the same predicate
names) and the casts (`arith.extsi` is `llvm.sext`, `arith.fptosi` is
`llvmx.fptosi`, ...). `index` values are `i64`, so `arith.index_cast` is a `sext`,
a `trunc` or nothing. (xDSL 0.74 has no `arith.index_castui`; the `index` dialect's
`index.castu` is its equivalent, see `index.py`.)

The others:

- integer min/max (`arith.minsi`, ...) call the intrinsics `llvm.smin`, `llvm.umax`,
  ...; `arith.minimumf`/`maximumf` (NaN-propagating) call `llvm.minimum`/
  `llvm.maximum`; `arith.minnumf`/`maxnumf` are `llvm.intr.minnum`/`maxnum`.
- `arith.floordivsi`, `ceildivsi` and `ceildivui` are a division and a remainder,
  and a correction of 1 where the remainder says the quotient was rounded the wrong
  way.
- `arith.cmpf false/true` is the constant `false`/`true`.

xDSL 0.74's `arith.cmpi`/`arith.cmpf` return one `i1` even on vectors (MLIR's
return a vector of `i1`), so comparisons of vectors are a diagnostic rather than a
guess at what was meant.

Not converted (a diagnostic names the op): `arith.addui_extended`,
`arith.mului_extended`, `arith.mulsi_extended`.
"""

from __future__ import annotations

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    VectorType,
    i1,
    i64,
)
from xdsl.ir import Attribute
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from lowering.common.llvm_casts import (
    CASTS,
    FLOAT_ARITHMETIC,
    INTEGER_BINARY,
    INTEGER_MIN_MAX,
)
from lowering.common.llvm_types import ConversionError, convert_type
from lowering.to_llvm.building import (
    ceil_div_signed,
    ceil_div_unsigned,
    constant,
    floor_div_signed,
    resize_integer,
)
from lowering.to_llvm.patterns import (
    CastToLLVM,
    FloatBinaryToLLVM,
    FloatUnaryToLLVM,
    IntegerBinaryToLLVM,
    IntrinsicToLLVM,
    RoundingDivisionToLLVM,
)
from lowering.to_llvm.values import fastmath, llvm_operands, replace_op

FLOAT_BINARY = {
    **FLOAT_ARITHMETIC,
    arith.MinnumfOp: llvm.VectorFMinOp,
    arith.MaxnumfOp: llvm.VectorFMaxOp,
}

INTRINSICS = {
    **INTEGER_MIN_MAX,
    arith.MinimumfOp: "llvm.minimum",
    arith.MaximumfOp: "llvm.maximum",
}


def _constant_attr(value: Attribute, type_: Attribute) -> Attribute:
    """`value` (an arith.constant's) with llvm type `type_`: index constants become
    i64 ones."""
    if isinstance(value, IntegerAttr) and isinstance(value.type, IndexType):
        return IntegerAttr(value.value.data, i64)
    if isinstance(value, DenseIntOrFPElementsAttr) and value.get_type() != type_:
        assert isinstance(type_, VectorType)
        return DenseIntOrFPElementsAttr.from_list(type_, value.get_values())
    return value


class ConstantToLLVM(RewritePattern):
    """`arith.constant` is `llvm.mlir.constant` of the llvm type (scalars, and
    dense vectors, splat or not)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.ConstantOp, rewriter: PatternRewriter, /):
        type_ = convert_type(op.result.type)
        new = llvm.ConstantOp(_constant_attr(op.value, type_), type_)
        replace_op(rewriter, op, [rewriter.insert(new).result])


def _scalar_comparison(op: arith.CmpiOp | arith.CmpfOp) -> None:
    if isinstance(op.lhs.type, VectorType):
        raise ConversionError(
            f"{op.name} on {op.lhs.type}: xDSL 0.74's {op.name} returns one i1 even "
            "for vectors, so vector comparisons are not supported"
        )


class CmpiToLLVM(RewritePattern):
    """`arith.cmpi` is `llvm.icmp` with the predicate of the same name."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.CmpiOp, rewriter: PatternRewriter, /):
        _scalar_comparison(op)
        lhs, rhs = llvm_operands(op, rewriter)
        name = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
        predicate = IntegerAttr(llvm.ICmpPredicateFlag(name).to_int(), i64)
        new = llvm.ICmpOp(lhs, rhs, predicate)
        replace_op(rewriter, op, [rewriter.insert(new).res])


class CmpfToLLVM(RewritePattern):
    """`arith.cmpf` is `llvm.fcmp` with the predicate of the same name and the
    fast-math flags; `false`/`true` are constants."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.CmpfOp, rewriter: PatternRewriter, /):
        _scalar_comparison(op)
        lhs, rhs = llvm_operands(op, rewriter)
        name = arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]
        if name in ("false", "true"):
            result = constant(rewriter, int(name == "true"), i1)
        else:
            new = llvm.FCmpOp(lhs, rhs, name)
            new.properties["fastmathFlags"] = fastmath(op)
            result = rewriter.insert(new).res
        replace_op(rewriter, op, [result])


class SelectToLLVM(RewritePattern):
    """`arith.select` is `llvm.select` (xDSL's `arith.select` has an `i1`
    condition, also on vectors)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SelectOp, rewriter: PatternRewriter, /):
        condition, lhs, rhs = llvm_operands(op, rewriter)
        select = rewriter.insert(llvm.SelectOp(condition, lhs, rhs))
        replace_op(rewriter, op, [select.res])


class IndexCastToLLVM(RewritePattern):
    """`arith.index_cast` sign-extends or truncates between i64 (the index) and
    the other integer type, or is nothing between index and i64."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.IndexCastOp, rewriter: PatternRewriter, /):
        (operand,) = llvm_operands(op, rewriter)
        result_type = convert_type(op.result.type)
        result = resize_integer(rewriter, operand, result_type, signed=True)
        replace_op(rewriter, op, [result])


ROUNDING_DIVISIONS = {
    arith.FloorDivSIOp: floor_div_signed,
    arith.CeilDivSIOp: ceil_div_signed,
    arith.CeilDivUIOp: ceil_div_unsigned,
}


PATTERNS: list[RewritePattern] = [
    ConstantToLLVM(),
    CmpiToLLVM(),
    CmpfToLLVM(),
    SelectToLLVM(),
    IndexCastToLLVM(),
    FloatUnaryToLLVM(arith.NegfOp, llvm.FNegOp),
    *(IntegerBinaryToLLVM(s, t) for s, t in INTEGER_BINARY.items()),
    *(FloatBinaryToLLVM(s, t) for s, t in FLOAT_BINARY.items()),
    *(CastToLLVM(s, t) for s, t in CASTS.items()),
    *(IntrinsicToLLVM(s, name) for s, name in INTRINSICS.items()),
    *(RoundingDivisionToLLVM(s, build) for s, build in ROUNDING_DIVISIONS.items()),
]
"""The patterns converting every `arith` op but the extended ones."""
