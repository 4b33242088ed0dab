"""The type conversion of `convert-to-llvm` and the helpers its patterns share.

Types
-----
`convert_type` gives the `llvm` dialect type of each type a kernel uses:

- `index` is `i64`: the host's `size_t` is 64-bit.
- Signless integers, the floats LLVM has (bf16, f16, f32, f64, f80, f128) and 1-D
  fixed-size vectors of them are already `llvm` types and stay as they are.
- A memref is a *bare pointer* to its first element: `memref<?x4xf32, 1>` is
  `!llvm.ptr<1>`. The memory space is the spec's address space number (1 global,
  2 constant, 3 local, 4 generic) and is kept; no memory space, or 0 (private), is
  `!llvm.ptr`, the same address space under its one xDSL spelling (`llvm.alloca`
  returns `!llvm.ptr`, and `!llvm.ptr<0>` would be a different xDSL type). A bare
  pointer carries no sizes or strides, so a memref must have the identity layout
  and a static shape except perhaps the leading dimension: its strides are then
  constants (row-major), and that is all an access needs. Anything else is a
  `ConversionError` naming the type and the rule.
- Function types become `!llvm.func` with at most one result.

Values across the conversion
----------------------------
Patterns run in any order, so an op may be converted before or after the ops that
define its operands. As in MLIR's dialect conversion, a pattern reads its operands
through `llvm_operands`, which casts a value still of a source type (`index`,
`memref`) to its llvm type with `builtin.unrealized_conversion_cast`, and replaces
the op through `replace_op`, which casts its llvm results back to the source types
for the users not converted yet. Once every op is converted, each cast meets its
inverse and `reconcile_unrealized_casts` removes both.

Shared pattern classes
----------------------
Most ops map to one llvm op and differ only in which: `IntegerBinaryToLLVM`,
`FloatBinaryToLLVM`, `FloatUnaryToLLVM`, `CastToLLVM`, `IntrinsicToLLVM` and
`RoundingDivisionToLLVM` are instantiated from tables in the dialect modules. A
pattern's `source` is an op class, or an op name for the ops of dialects xDSL does
not define (see `index.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    Float80Type,
    Float128Type,
    FloatAttr,
    FunctionType,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    Signedness,
    UnrealizedConversionCastOp,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable

from lowering.dispatch import op_name


class ConversionError(Exception):
    """The input breaks a rule of the conversion; the message names the rule.

    Raised by the type conversion and by patterns. `op` is the op being converted,
    filled in by the pass, which reports the error on it."""

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(message)
        self.op = op


# --------------------------------------------------------------------------------------
# Types.
# --------------------------------------------------------------------------------------

LLVM_FLOAT_TYPES = (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    Float80Type,
    Float128Type,
)
"""The float types LLVM has."""

_LLVM_TYPES = (
    llvm.LLVMPointerType,
    llvm.LLVMStructType,
    llvm.LLVMArrayType,
    llvm.LLVMFunctionType,
    llvm.LLVMVoidType,
)


def convert_type(type_: Attribute) -> Attribute:
    """The llvm type of `type_` (see the module docstring); raises a
    `ConversionError` for a type with none."""
    if isinstance(type_, IndexType):
        return i64
    if isinstance(type_, IntegerType):
        if type_.signedness.data != Signedness.SIGNLESS:
            raise ConversionError(f"{type_}: only signless integers have an llvm type")
        return type_
    if isinstance(type_, LLVM_FLOAT_TYPES + _LLVM_TYPES):
        return type_
    if isinstance(type_, VectorType):
        if type_.get_num_dims() != 1 or type_.get_num_scalable_dims():
            raise ConversionError(
                f"{type_}: only 1-D vectors of a fixed size have an llvm type"
            )
        element = convert_type(type_.element_type)
        if element == type_.element_type:
            return type_
        return VectorType(element, type_.get_shape())
    if isinstance(type_, MemRefType):
        return pointer_type(address_space(type_))
    if isinstance(type_, FunctionType):
        return convert_function_type(type_)
    raise ConversionError(f"{type_} has no llvm type")


def convert_function_type(type_: FunctionType) -> llvm.LLVMFunctionType:
    """`(A, B) -> C` as `!llvm.func<C (A', B')>`. An llvm function returns at most
    one value: `(A) -> (C, D)` returns the struct `!llvm.struct<(C', D')>`
    (`results_type`), as MLIR's own conversion does."""
    inputs = [convert_type(t) for t in type_.inputs]
    return llvm.LLVMFunctionType(inputs, results_type(type_.outputs.data))


def results_type(types: Sequence[Attribute]) -> Attribute | None:
    """The llvm type a function returning `types` returns: none, the one type, or a
    struct of several."""
    if not types:
        return None
    if len(types) == 1:
        return convert_type(types[0])
    return llvm.LLVMStructType.from_type_list([convert_type(t) for t in types])


def pointer_type(space: int) -> llvm.LLVMPointerType:
    """The pointer to address space `space`; address space 0 is spelled
    `!llvm.ptr`."""
    return llvm.LLVMPointerType(IntAttr(space)) if space else llvm.LLVMPointerType()


def address_space(type_: MemRefType) -> int:
    """The address space of a memref (its memory space, 0 when it has none), once
    `check_memref` has checked the bare-pointer rules."""
    check_memref(type_)
    space = type_.memory_space
    return space.value.data if isinstance(space, IntegerAttr) else 0


def check_memref(type_: MemRefType) -> None:
    """Raises a `ConversionError` unless a bare pointer can stand for `type_`."""
    space = type_.memory_space
    if not isinstance(space, NoneAttr) and not (
        isinstance(space, IntegerAttr) and space.value.data >= 0
    ):
        raise ConversionError(
            f"{type_}: the memory space must be an address space number"
        )
    layout = type_.layout
    identity = AffineMapAttr(AffineMap.identity(type_.get_num_dims()))
    if not isinstance(layout, NoneAttr) and layout != identity:
        raise ConversionError(
            f"{type_}: only the identity layout is supported (a memref is a bare "
            "pointer, which has no strides)"
        )
    if DYNAMIC_INDEX in type_.get_shape()[1:]:
        raise ConversionError(
            f"{type_}: only the leading dimension may be dynamic (a memref is a bare "
            "pointer, so its strides must be static)"
        )
    element = type_.element_type
    if not isinstance(element, (IndexType, IntegerType, VectorType, *LLVM_FLOAT_TYPES)):
        raise ConversionError(
            f"{type_}: the element type must be an integer, index, float or vector"
        )


def memref_strides(type_: MemRefType) -> list[int]:
    """The row-major strides, in elements, of a memref checked by `check_memref`:
    `memref<?x4x8xf32>` has strides [32, 8, 1]."""
    strides: list[int] = []
    running = 1
    for size in reversed(type_.get_shape()):
        strides.append(running)
        running *= size  # the leading size may be dynamic, its product is unused
    return strides[::-1]


def element_count(type_: MemRefType) -> int:
    """The number of elements of a memref with a static shape."""
    assert DYNAMIC_INDEX not in type_.get_shape()
    count = 1
    for size in type_.get_shape():
        count *= size
    return count


def bit_width(type_: Attribute) -> int:
    """The bits of a scalar type (an integer, index, float or pointer)."""
    if isinstance(type_, IntegerType):
        return type_.width.data
    if isinstance(type_, IndexType | llvm.LLVMPointerType):
        return 64
    if isinstance(type_, LLVM_FLOAT_TYPES):
        return type_.bitwidth
    raise ConversionError(f"{type_} has no bit width")


def natural_alignment(type_: Attribute) -> int:
    """The alignment in bytes LLVM gives `type_` by default on the host (x86-64 and
    AArch64): its size rounded up to a power of two, for scalars and vectors."""
    if isinstance(type_, VectorType):
        bits = bit_width(type_.element_type) * type_.get_shape()[0]
    else:
        bits = bit_width(type_)
    size = max(1, (bits + 7) // 8)
    return 1 << (size - 1).bit_length()


def element_type(type_: Attribute) -> Attribute:
    """The element type of a vector, or the type itself."""
    return type_.element_type if isinstance(type_, VectorType) else type_


# --------------------------------------------------------------------------------------
# Values across the conversion.
# --------------------------------------------------------------------------------------


def matches(op: Operation, source: type[Operation] | str) -> bool:
    """Whether `op` is a `source` op: an op class, or an op name."""
    if isinstance(source, str):
        return op_name(op) == source
    return isinstance(op, source)


def llvm_value(value: SSAValue, rewriter: PatternRewriter) -> SSAValue:
    """`value` with its llvm type: the value itself when its type is already an
    llvm type, the llvm value it was cast from when its producer is converted
    already, and otherwise a new cast inserted at the rewriter's insertion point."""
    target = convert_type(value.type)
    if target == value.type:
        return value
    owner = value.owner
    if (
        isinstance(owner, UnrealizedConversionCastOp)
        and len(owner.inputs) == 1
        and owner.inputs[0].type == target
    ):
        return owner.inputs[0]
    cast = rewriter.insert(UnrealizedConversionCastOp.get([value], [target]))
    return cast.results[0]


def llvm_operands(op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
    """The operands of `op` with their llvm types (see `llvm_value`)."""
    return [llvm_value(operand, rewriter) for operand in op.operands]


def replace_op(
    rewriter: PatternRewriter, op: Operation, results: Sequence[SSAValue]
) -> None:
    """Replaces `op` by `results`, llvm values built by a pattern, casting each back
    to the type of the result it replaces for the users not converted yet."""
    replacements: list[SSAValue] = []
    for old, new in zip(op.results, results, strict=True):
        if new.name_hint is None:
            new.name_hint = old.name_hint
        if new.type != old.type:
            cast = UnrealizedConversionCastOp.get([new], [old.type])
            new = rewriter.insert(cast).results[0]
        replacements.append(new)
    rewriter.replace(op, [], replacements)


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


def fastmath(op: Operation) -> llvm.FastMathAttr:
    """The fast-math flags of `op` (arith's, math's and vector's `fastmath`) as
    llvm's."""
    flags = op.properties.get("fastmath")
    return llvm.FastMathAttr(flags.data if flags is not None else None)


def overflow_flags(op: Operation) -> llvm.OverflowAttr:
    """The nsw/nuw flags of `op` (arith's `overflowFlags`) as llvm's."""
    flags = op.properties.get("overflowFlags")
    if flags is None or not flags.data:
        return llvm.OverflowAttr(None)
    return llvm.OverflowAttr([llvm.OverflowFlag(flag.value) for flag in flags.data])


# --------------------------------------------------------------------------------------
# Building llvm IR.
# --------------------------------------------------------------------------------------


def value_attr(value: int | float, type_: Attribute) -> Attribute:
    """The attribute of `value` with an integer or float type, or of a splat of
    `value` with a vector type."""
    if isinstance(type_, VectorType):
        return DenseIntOrFPElementsAttr.from_list(type_, [value])
    if isinstance(type_, IntegerType):
        return IntegerAttr(int(value), type_)
    return FloatAttr(float(value), type_)


def constant(
    rewriter: PatternRewriter, value: int | float, type_: Attribute
) -> SSAValue:
    """An `llvm.mlir.constant` of an integer or float type, or a splat of a vector
    type."""
    return rewriter.insert(llvm.ConstantOp(value_attr(value, type_), type_)).result


def _type_suffix(type_: Attribute) -> str:
    if isinstance(type_, VectorType):
        return f"v{type_.get_shape()[0]}{_type_suffix(type_.element_type)}"
    if isinstance(type_, IntegerType):
        return f"i{type_.width.data}"
    if isinstance(type_, BFloat16Type):
        return "bf16"
    if isinstance(type_, LLVM_FLOAT_TYPES):
        return f"f{type_.bitwidth}"
    raise ConversionError(f"{type_}: no LLVM intrinsic is overloaded on this type")


def intrinsic_name(base: str, type_: Attribute) -> str:
    """The name of the overload of LLVM intrinsic `base` on `type_`: `llvm.smin`
    on `vector<4xi32>` is `llvm.smin.v4i32`. xDSL's translation declares the callee
    of `llvm.call_intrinsic` under the name as given, so it must be the full one."""
    return f"{base}.{_type_suffix(type_)}"


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


# --------------------------------------------------------------------------------------
# Pattern classes shared by the dialect modules.
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class IntegerBinaryToLLVM(RewritePattern):
    """A `source` op on two integers (or vectors of them) becomes the llvm op
    `target`, with arith's nsw/nuw flags where both ops have them."""

    source: type[Operation] | str
    target: type[Operation]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not matches(op, self.source):
            return
        lhs, rhs = llvm_operands(op, rewriter)
        if issubclass(self.target, llvm.ArithmeticBinOpOverflow):
            new = self.target(lhs, rhs, overflow=overflow_flags(op))
        else:
            new = self.target(lhs, rhs)
        replace_op(rewriter, op, [rewriter.insert(new).results[0]])


@dataclass(frozen=True)
class FloatBinaryToLLVM(RewritePattern):
    """A `source` op on two floats (or vectors of them) becomes the llvm op
    `target`, with the same fast-math flags."""

    source: type[Operation]
    target: type[Operation]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, self.source):
            return
        lhs, rhs = llvm_operands(op, rewriter)
        new = self.target(lhs, rhs, fast_math=fastmath(op))
        replace_op(rewriter, op, [rewriter.insert(new).results[0]])


@dataclass(frozen=True)
class FloatUnaryToLLVM(RewritePattern):
    """A `source` op on one float (or vector of them) becomes the llvm op `target`
    (`llvm.fneg` or an `llvm.intr.*` op), with the same fast-math flags."""

    source: type[Operation]
    target: type[Operation]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, self.source):
            return
        (operand,) = llvm_operands(op, rewriter)
        new = self.target(operand, fast_math=fastmath(op))
        replace_op(rewriter, op, [rewriter.insert(new).results[0]])


@dataclass(frozen=True)
class CastToLLVM(RewritePattern):
    """A `source` cast becomes the llvm cast `target` to the llvm result type."""

    source: type[Operation]
    target: type[Operation]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, self.source):
            return
        (operand,) = llvm_operands(op, rewriter)
        new = self.target(operand, convert_type(op.results[0].type))
        replace_op(rewriter, op, [rewriter.insert(new).results[0]])


@dataclass(frozen=True)
class IntrinsicToLLVM(RewritePattern):
    """A `source` op becomes a call of LLVM intrinsic `intrinsic`, overloaded on the
    result type. `false_flag` appends the `i1 false` that `llvm.abs`, `llvm.ctlz`
    and `llvm.cttz` take (the result is then defined for every input)."""

    source: type[Operation] | str
    intrinsic: str
    false_flag: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not matches(op, self.source):
            return
        args = llvm_operands(op, rewriter)
        if self.false_flag:
            args.append(constant(rewriter, 0, IntegerType(1)))
        result_type = convert_type(op.results[0].type)
        result = call_intrinsic(rewriter, self.intrinsic, args, result_type)
        replace_op(rewriter, op, [result])


@dataclass(frozen=True)
class RoundingDivisionToLLVM(RewritePattern):
    """A `source` division rounding down or up is `build` on its operands
    (`floor_div_signed`, `ceil_div_signed` or `ceil_div_unsigned`)."""

    source: type[Operation] | str
    build: Callable[[PatternRewriter, SSAValue, SSAValue], SSAValue]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not matches(op, self.source):
            return
        lhs, rhs = llvm_operands(op, rewriter)
        replace_op(rewriter, op, [self.build(rewriter, lhs, rhs)])


# --------------------------------------------------------------------------------------
# Layout in memory.
# --------------------------------------------------------------------------------------


BOOLEAN_MEMORY_BITS = 8
"""The bits an `i1` takes in memory: one byte, holding 0 or 1."""


def memory_type(type_: Attribute) -> Attribute:
    """The type a value of the llvm type `type_` has in memory: `i1` is `i8` (0 or
    1), `vector<N x i1>` is `vector<N x i8>`, every other type is itself.

    This is the one place that decides how booleans are laid out in memory, and
    every path that puts a value in memory goes through it: the memref and vector
    conversions (the element type of every GEP, load, store, masked access, private
    array and global), the live storage of `work-item-loops`, the packed arguments
    of `add-kernel-wrapper`, and `storage`'s sizes. A byte per element is numpy's
    `bool` and C's `_Bool`, so a `memref<?xi1>` is a numpy bool array; LLVM itself
    stores an `i1` in a byte but packs a `<N x i1>` into N bits, which would make a
    vector access to N booleans touch N / 8 bytes. So a value of `i1` type is
    widened before it is stored (`to_memory`) and compared with 0 after it is
    loaded (`from_memory`). (The `atomic` ops refuse `i1`: LLVM has no 1-bit
    atomics.)"""
    if type_ == IntegerType(1):
        return IntegerType(BOOLEAN_MEMORY_BITS)
    if isinstance(type_, VectorType) and type_.element_type == IntegerType(1):
        return VectorType(IntegerType(BOOLEAN_MEMORY_BITS), type_.get_shape())
    return type_


class _Inserter(Protocol):
    def insert(self, op: Operation, /) -> Operation: ...


def to_memory(b: _Inserter, value: SSAValue) -> SSAValue:
    """`value` as it is stored (`memory_type`): an `i1` (or vector of them)
    zero-extended to a byte; any other value as it is."""
    stored = memory_type(value.type)
    if stored == value.type:
        return value
    return b.insert(llvm.ZExtOp(value, stored)).results[0]


def from_memory(b: _Inserter, value: SSAValue, type_: Attribute) -> SSAValue:
    """The value of llvm type `type_` that `value`, loaded as `memory_type(type_)`,
    holds: for an `i1`, whether the byte is not 0 (as numpy reads a bool); any
    other value as it is."""
    if memory_type(type_) == type_:
        return value
    zero = b.insert(llvm.ConstantOp(value_attr(0, value.type), value.type)).results[0]
    ne = IntegerAttr(llvm.ICmpPredicateFlag("ne").to_int(), i64)
    return b.insert(llvm.ICmpOp(value, zero, ne)).results[0]


def round_up(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


def storage(type_: Attribute) -> tuple[int, int]:
    """(size, alignment) in bytes of a value of `type_` in memory (as its
    `memory_type`: an `i1` is a byte): an integer, index, float, vector or pointer
    is aligned to its size rounded up to a power of two (a 3-element vector as a
    4-element one), and its size is rounded up to that alignment, as in an array;
    `!llvm.array` and `!llvm.struct` have LLVM's natural layout."""
    if isinstance(type_, llvm.LLVMArrayType):
        size, alignment = storage(type_.type)
        return size * type_.size.data, alignment
    if isinstance(type_, llvm.LLVMStructType):
        offset, alignment = 0, 1
        for member in type_.types.data:
            size, align = storage(member)
            offset = round_up(offset, align) + size
            alignment = max(alignment, align)
        return round_up(offset, alignment), alignment
    scalar = memory_type(convert_type(type_))
    alignment = natural_alignment(scalar)
    lanes = scalar.get_shape()[0] if isinstance(scalar, VectorType) else 1
    bits = bit_width(element_type(scalar)) * lanes
    return round_up(max(1, -(-bits // 8)), alignment), alignment
