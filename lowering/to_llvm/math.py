"""`math` to `llvm`.

Functions LLVM has an intrinsic for become that intrinsic, with the op's fast-math
flags: xDSL's `llvm.intr.*` ops where it has one (`math.sqrt` is `llvm.intr.sqrt`,
`math.powf` is `llvm.intr.pow`, ...), `llvm.call_intrinsic` otherwise
(`math.log10` calls `llvm.log10.f32`, `math.round` `llvm.round.f32`, ...; these
carry no fast-math flags, which xDSL's translation does not accept there).
`math.absi`, `ctlz` and `cttz` call `llvm.abs`/`llvm.ctlz`/`llvm.cttz` with the
flag `i1 false`: the result is defined for every input, as math's. `math.fma` is
`llvm.intr.fma` without fast-math flags, which xDSL's translation rejects on it.
`math.rsqrt` is `1 / sqrt(x)` (LLVM has no reciprocal square root; with the `afn`
or `fast` flags the backend may use an approximate instruction).

The functions without an intrinsic (tan, tanh, the inverse and hyperbolic
functions, erf, cbrt, expm1, log1p) call the C library's (`tanf` on f32, `tan` on
f64), declared as external `llvm.func`s; the JIT resolves them in the process. On
vectors they are called lane by lane. f16 and bf16 have no C library functions: a
diagnostic.

Not converted (a diagnostic names the op): `math.fpowi`, `math.ipowi`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import llvm, math
from xdsl.dialects.builtin import Float32Type, Float64Type, VectorType, i64
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from dialects import llvmx
from lowering.common.llvm_types import ConversionError, convert_type, element_type
from lowering.to_llvm.building import constant, declare_function
from lowering.to_llvm.patterns import (
    FloatBinaryToLLVM,
    FloatUnaryToLLVM,
    IntrinsicToLLVM,
)
from lowering.to_llvm.values import fastmath, llvm_operands, replace_op

FLOAT_UNARY = {
    math.SqrtOp: llvm.FSqrtOp,
    math.ExpOp: llvm.FExpOp,
    math.Exp2Op: llvm.FExp2Op,
    math.LogOp: llvm.FLogOp,
    math.Log2Op: llvm.FLog2Op,
    math.SinOp: llvm.FSinOp,
    math.CosOp: llvm.FCosOp,
    math.FloorOp: llvm.FFloorOp,
    math.CeilOp: llvm.FCeilOp,
}

FLOAT_BINARY = {
    math.PowFOp: llvm.FPowOp,
    math.CopySignOp: llvm.FCopySignOp,
}

INTRINSICS = {
    math.Log10Op: "llvm.log10",
    math.RoundOp: "llvm.round",
    math.RoundEvenOp: "llvm.roundeven",
    math.TruncOp: "llvm.trunc",
    math.CtPopOp: "llvm.ctpop",
}

INTRINSICS_WITH_FALSE_FLAG = {
    math.AbsIOp: "llvm.abs",
    math.CountLeadingZerosOp: "llvm.ctlz",
    math.CountTrailingZerosOp: "llvm.cttz",
}

C_LIBRARY = {
    math.TanOp: "tan",
    math.TanhOp: "tanh",
    math.AsinOp: "asin",
    math.AcosOp: "acos",
    math.AtanOp: "atan",
    math.Atan2Op: "atan2",
    math.SinhOp: "sinh",
    math.CoshOp: "cosh",
    math.AsinhOp: "asinh",
    math.AcoshOp: "acosh",
    math.AtanhOp: "atanh",
    math.ErfOp: "erf",
    math.CbrtOp: "cbrt",
    math.ExpM1Op: "expm1",
    math.Log1pOp: "log1p",
}
"""The functions LLVM has no intrinsic for, by their C library name on double."""


def build_per_lane(
    rewriter: PatternRewriter,
    result_type: VectorType,
    operands: Sequence[SSAValue],
    build_lane: Callable[[list[SSAValue]], SSAValue],
) -> SSAValue:
    """A vector built lane by lane, for the C library functions, which take
    scalars: for each lane, `build_lane` gets that lane of each vector operand and
    returns the lane of the result."""
    result = rewriter.insert(llvm.UndefOp(result_type)).res
    for lane in range(result_type.get_shape()[0]):
        index = constant(rewriter, lane, i64)
        lanes = [
            rewriter.insert(llvmx.ExtractElementOp(operand, index)).result
            if isinstance(operand.type, VectorType)
            else operand
            for operand in operands
        ]
        value = build_lane(lanes)
        result = rewriter.insert(llvm.InsertElementOp(result, value, index)).res
    return result


class AbsFToLLVM(RewritePattern):
    """`math.absf` is `llvm.intr.fabs`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: math.AbsFOp, rewriter: PatternRewriter, /):
        (operand,) = llvm_operands(op, rewriter)
        new = llvm.FAbsOp(operand, operand.type, fastmath(op))
        replace_op(rewriter, op, [rewriter.insert(new).result])


class FmaToLLVM(RewritePattern):
    """`math.fma` is `llvm.intr.fma` (no fast-math flags: xDSL's translation
    rejects them there)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: math.FmaOp, rewriter: PatternRewriter, /):
        a, b, c = llvm_operands(op, rewriter)
        replace_op(rewriter, op, [rewriter.insert(llvm.FMAOp(a, b, c)).res])


class RsqrtToLLVM(RewritePattern):
    """`math.rsqrt` is `1 / llvm.intr.sqrt(x)`, both with the op's fast-math
    flags."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: math.RsqrtOp, rewriter: PatternRewriter, /):
        (operand,) = llvm_operands(op, rewriter)
        flags = fastmath(op)
        root = rewriter.insert(llvm.FSqrtOp(operand, flags)).res
        one = constant(rewriter, 1.0, operand.type)
        replace_op(rewriter, op, [rewriter.insert(llvm.FDivOp(one, root, flags)).res])


@dataclass(frozen=True)
class CLibraryCallToLLVM(RewritePattern):
    """A `source` op calls the C library function `function` (its double version;
    `functionf` on f32), declared in the module; on vectors, lane by lane."""

    source: type[Operation]
    function: str

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, self.source):
            return
        operands = llvm_operands(op, rewriter)
        result_type = convert_type(op.results[0].type)
        scalar = element_type(result_type)
        if isinstance(scalar, Float32Type):
            name = self.function + "f"
        elif isinstance(scalar, Float64Type):
            name = self.function
        else:
            raise ConversionError(
                f"{op.name} on {scalar}: the C library has {self.function} for f32 "
                "and f64 only"
            )
        signature = llvm.LLVMFunctionType([scalar] * len(operands), scalar)
        declare_function(rewriter, op, name, signature)

        def call(lanes: list[SSAValue]) -> SSAValue:
            new = llvm.CallOp(name, *lanes, return_type=scalar, fastmath=fastmath(op))
            result = rewriter.insert(new).returned
            assert result is not None
            return result

        if isinstance(result_type, VectorType):
            result = build_per_lane(rewriter, result_type, operands, call)
        else:
            result = call(operands)
        replace_op(rewriter, op, [result])


PATTERNS: list[RewritePattern] = [
    AbsFToLLVM(),
    FmaToLLVM(),
    RsqrtToLLVM(),
    *(FloatUnaryToLLVM(s, t) for s, t in FLOAT_UNARY.items()),
    *(FloatBinaryToLLVM(s, t) for s, t in FLOAT_BINARY.items()),
    *(IntrinsicToLLVM(s, name) for s, name in INTRINSICS.items()),
    *(IntrinsicToLLVM(s, n, True) for s, n in INTRINSICS_WITH_FALSE_FLAG.items()),
    *(CLibraryCallToLLVM(s, name) for s, name in C_LIBRARY.items()),
]
"""The patterns converting every `math` op but fpowi and ipowi."""
