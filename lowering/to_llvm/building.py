"""Building `llvm` dialect IR: constants, intrinsic calls, declarations, integer
resizing, element pointers and the rounding integer divisions.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    FunctionType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable

from lowering.common.intrinsics import intrinsic_name
from lowering.common.layout import memory_type
from lowering.common.llvm_types import (
    ConversionError,
    bit_width,
    convert_function_type,
    convert_type,
    element_type,
    memref_strides,
    value_attr,
)


def constant(
    rewriter: PatternRewriter, value: int | float, type_: Attribute
) -> SSAValue:
    """An `llvm.mlir.constant` of an integer or float type, or a splat of a vector
    type."""
    return rewriter.insert(llvm.ConstantOp(value_attr(value, type_), type_)).result


def call_intrinsic(
    rewriter: PatternRewriter,
    base: str,
    args: Sequence[SSAValue],
    result_type: Attribute,
    overload: Attribute | None = None,
) -> SSAValue:
    """Calls LLVM intrinsic `base` overloaded on `overload` (by default the result
    type). No fast-math flags: xDSL 0.74's translation rejects them on
    `llvm.call_intrinsic`, and leaving them out is always correct (they only allow
    optimisations)."""
    name = intrinsic_name(base, overload or result_type)
    return rewriter.insert(llvm.CallIntrinsicOp(name, args, [result_type])).results[0]


def declare_function(
    rewriter: PatternRewriter,
    user: Operation,
    name: str,
    type_: llvm.LLVMFunctionType,
) -> None:
    """Declares the external function `name` (a C library function, which the JIT
    finds in the process) in the module around `user`, unless it is there."""
    module = user.parent_op()
    while module is not None and not isinstance(module, ModuleOp):
        module = module.parent_op()
    assert module is not None, "ops are converted inside a module"
    existing = SymbolTable.lookup_symbol(module, name)
    if existing is None:
        declaration = llvm.FuncOp(name, type_, linkage=llvm.LinkageAttr("external"))
        rewriter.insert(declaration, InsertPoint.at_start(module.body.block))
        return
    existing_type = existing.properties.get("function_type")
    if isinstance(existing_type, FunctionType):
        existing_type = convert_function_type(existing_type)
    if existing_type != type_:
        raise ConversionError(
            f"@{name} is the C library function of type {type_}, but the module "
            f"defines it as {existing_type}"
        )


def resize_integer(
    rewriter: PatternRewriter, value: SSAValue, result_type: Attribute, signed: bool
) -> SSAValue:
    """`value` (an integer, or a vector of them) truncated, or sign- or zero-extended,
    to `result_type`; `value` itself when the widths are equal."""
    source_width = bit_width(element_type(value.type))
    result_width = bit_width(element_type(result_type))
    if source_width == result_width:
        return value
    if source_width > result_width:
        return rewriter.insert(llvm.TruncOp(value, result_type)).res
    extend = llvm.SExtOp if signed else llvm.ZExtOp
    return rewriter.insert(extend(value, result_type)).res


_NSW = llvm.OverflowAttr([llvm.OverflowFlag.NO_SIGNED_WRAP])


def element_pointer(
    rewriter: PatternRewriter,
    base: SSAValue,
    type_: MemRefType,
    indices: Sequence[SSAValue],
) -> SSAValue:
    """The address of element `indices` (i64 values) of the memref of type `type_`
    whose bare pointer is `base`."""
    if not indices:
        return base
    linear: SSAValue | None = None
    for index, stride in zip(indices, memref_strides(type_), strict=True):
        term = index
        if stride != 1:
            factor = constant(rewriter, stride, i64)
            term = rewriter.insert(llvm.MulOp(index, factor, overflow=_NSW)).res
        if linear is None:
            linear = term
        else:
            linear = rewriter.insert(llvm.AddOp(linear, term, overflow=_NSW)).res
    assert linear is not None
    assert isinstance(base.type, llvm.LLVMPointerType)  # a memref's bare pointer
    gep = llvm.GEPOp.from_mixed_indices(
        base,
        [linear],
        memory_type(convert_type(type_.element_type)),
        result_type=base.type,
        inbounds=True,
    )
    return rewriter.insert(gep).result


def _icmp(rewriter: PatternRewriter, predicate: str, lhs: SSAValue, rhs: SSAValue):
    flag = llvm.ICmpPredicateFlag(predicate).to_int()
    return rewriter.insert(llvm.ICmpOp(lhs, rhs, IntegerAttr(flag, i64))).res


def _adjust_quotient(
    rewriter: PatternRewriter,
    quotient: SSAValue,
    adjust: SSAValue,
    step: type[llvm.AddOp | llvm.SubOp],
) -> SSAValue:
    """`quotient` plus or minus 1 where the `i1` `adjust` is set. Arithmetic rather
    than `llvm.select`, whose condition xDSL limits to a scalar `i1`."""
    if bit_width(element_type(quotient.type)) == 1:
        raise ConversionError("rounding divisions of i1 are not supported")
    one = rewriter.insert(llvm.ZExtOp(adjust, quotient.type)).res
    return rewriter.insert(step(quotient, one)).res


def floor_div_signed(
    rewriter: PatternRewriter, lhs: SSAValue, rhs: SSAValue
) -> SSAValue:
    """`lhs / rhs` rounded toward negative infinity: the truncated quotient, minus 1
    when the remainder is not 0 and its sign differs from the divisor's."""
    quotient = rewriter.insert(llvm.SDivOp(lhs, rhs)).res
    remainder = rewriter.insert(llvm.SRemOp(lhs, rhs)).res
    zero = constant(rewriter, 0, lhs.type)
    inexact = _icmp(rewriter, "ne", remainder, zero)
    signs_differ = rewriter.insert(
        llvm.XOrOp(
            _icmp(rewriter, "slt", remainder, zero), _icmp(rewriter, "slt", rhs, zero)
        )
    ).res
    adjust = rewriter.insert(llvm.AndOp(inexact, signs_differ)).res
    return _adjust_quotient(rewriter, quotient, adjust, llvm.SubOp)


def ceil_div_signed(
    rewriter: PatternRewriter, lhs: SSAValue, rhs: SSAValue
) -> SSAValue:
    """`lhs / rhs` rounded toward positive infinity: the truncated quotient, plus 1
    when the remainder is not 0 and has the divisor's sign."""
    quotient = rewriter.insert(llvm.SDivOp(lhs, rhs)).res
    remainder = rewriter.insert(llvm.SRemOp(lhs, rhs)).res
    zero = constant(rewriter, 0, lhs.type)
    inexact = _icmp(rewriter, "ne", remainder, zero)
    same_sign = _icmp(
        rewriter,
        "eq",
        _icmp(rewriter, "slt", remainder, zero),
        _icmp(rewriter, "slt", rhs, zero),
    )
    adjust = rewriter.insert(llvm.AndOp(inexact, same_sign)).res
    return _adjust_quotient(rewriter, quotient, adjust, llvm.AddOp)


def ceil_div_unsigned(
    rewriter: PatternRewriter, lhs: SSAValue, rhs: SSAValue
) -> SSAValue:
    """`lhs / rhs` (unsigned) rounded up: the quotient, plus 1 when the remainder is
    not 0."""
    quotient = rewriter.insert(llvm.UDivOp(lhs, rhs)).res
    remainder = rewriter.insert(llvm.URemOp(lhs, rhs)).res
    inexact = _icmp(rewriter, "ne", remainder, constant(rewriter, 0, lhs.type))
    return _adjust_quotient(rewriter, quotient, inexact, llvm.AddOp)
