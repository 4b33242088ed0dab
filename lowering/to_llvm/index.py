"""`index` to `llvm`: every op on `i64`, the host's index.

xDSL 0.74 does not define MLIR's `index` dialect, so its ops reach `mux-opt` in
generic form only, parsed with `--allow-unregistered-dialect`
(`"index.add"(%a, %b) : (index, index) -> index`). The patterns therefore match
the ops by name (`values.matches`) and read the two properties they need by their
MLIR names, `value` (of `index.constant` and `index.bool.constant`) and `pred` (of
`index.cmp`), so they will also convert a registered `index` dialect with MLIR's
names.

- `index.add`, `sub`, `mul`, `divs`, `divu`, `rems`, `remu`, `and`, `or`, `xor`,
  `shl`, `shrs`, `shru` are the llvm op of the same meaning (`index.divs` is
  `llvm.sdiv`, ...); `maxs`, `mins`, `maxu`, `minu` call `llvm.smax`, ...;
  `ceildivs`, `floordivs`, `ceildivu` are expanded as the `arith` ones are.
- `index.cmp` is `llvm.icmp` with the predicate of the same name.
- `index.casts`/`index.castu` sign-/zero-extend or truncate between `i64` and the
  other integer type.
- `index.constant` and `index.bool.constant` are `llvm.mlir.constant`;
  `index.sizeof` is the constant 8.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerAttr, UnregisteredAttr, i1, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from lowering.common.dispatch import op_name
from lowering.common.llvm_types import ConversionError, convert_type
from lowering.to_llvm.building import (
    ceil_div_signed,
    ceil_div_unsigned,
    constant,
    floor_div_signed,
    resize_integer,
)
from lowering.to_llvm.patterns import (
    IntegerBinaryToLLVM,
    IntrinsicToLLVM,
    RoundingDivisionToLLVM,
)
from lowering.to_llvm.values import llvm_operands, matches, replace_op

INTEGER_BINARY = {
    "index.add": llvm.AddOp,
    "index.sub": llvm.SubOp,
    "index.mul": llvm.MulOp,
    "index.divs": llvm.SDivOp,
    "index.divu": llvm.UDivOp,
    "index.rems": llvm.SRemOp,
    "index.remu": llvm.URemOp,
    "index.and": llvm.AndOp,
    "index.or": llvm.OrOp,
    "index.xor": llvm.XOrOp,
    "index.shl": llvm.ShlOp,
    "index.shrs": llvm.AShrOp,
    "index.shru": llvm.LShrOp,
}

INTRINSICS = {
    "index.maxs": "llvm.smax",
    "index.mins": "llvm.smin",
    "index.maxu": "llvm.umax",
    "index.minu": "llvm.umin",
}

ROUNDING_DIVISIONS: dict[
    str, Callable[[PatternRewriter, SSAValue, SSAValue], SSAValue]
] = {
    "index.floordivs": floor_div_signed,
    "index.ceildivs": ceil_div_signed,
    "index.ceildivu": ceil_div_unsigned,
}


def _property(op: Operation, name: str) -> Attribute:
    value = op.properties.get(name, op.attributes.get(name))
    if value is None:
        raise ConversionError(f"{op_name(op)}: the property {name} is missing")
    return value


def _predicate(op: Operation) -> str:
    """The name of the predicate of an `index.cmp`: `slt` for MLIR's
    `#index<cmp_predicate slt>` (an unregistered attribute here)."""
    attr = _property(op, "pred")
    if isinstance(attr, UnregisteredAttr):
        return attr.value.data.split()[-1]
    return str(getattr(attr, "data", attr))


class CmpToLLVM(RewritePattern):
    """`index.cmp` is `llvm.icmp`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not matches(op, "index.cmp"):
            return
        lhs, rhs = llvm_operands(op, rewriter)
        name = _predicate(op)
        try:
            flag = llvm.ICmpPredicateFlag(name)
        except ValueError:
            raise ConversionError(f"index.cmp: unknown predicate {name}") from None
        new = llvm.ICmpOp(lhs, rhs, IntegerAttr(flag.to_int(), i64))
        replace_op(rewriter, op, [rewriter.insert(new).res])


class CastToLLVM(RewritePattern):
    """`index.casts`/`index.castu` sign-/zero-extend or truncate."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not (matches(op, "index.casts") or matches(op, "index.castu")):
            return
        (operand,) = llvm_operands(op, rewriter)
        result_type = convert_type(op.results[0].type)
        signed = matches(op, "index.casts")
        result = resize_integer(rewriter, operand, result_type, signed)
        replace_op(rewriter, op, [result])


class ConstantToLLVM(RewritePattern):
    """`index.constant`, `index.bool.constant` and `index.sizeof` are constants."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if matches(op, "index.sizeof"):
            value, type_ = 8, i64
        elif matches(op, "index.constant") or matches(op, "index.bool.constant"):
            attr = _property(op, "value")
            if not isinstance(attr, IntegerAttr):
                raise ConversionError(f"{op_name(op)}: the value must be an integer")
            value, type_ = attr.value.data, convert_type(op.results[0].type)
        else:
            return
        if type_ == i1:
            value = int(bool(value))
        replace_op(rewriter, op, [constant(rewriter, value, type_)])


PATTERNS: list[RewritePattern] = [
    CmpToLLVM(),
    CastToLLVM(),
    ConstantToLLVM(),
    *(IntegerBinaryToLLVM(name, t) for name, t in INTEGER_BINARY.items()),
    *(IntrinsicToLLVM(name, intrinsic) for name, intrinsic in INTRINSICS.items()),
    *(RoundingDivisionToLLVM(n, build) for n, build in ROUNDING_DIVISIONS.items()),
]
"""The patterns converting the `index` dialect."""
