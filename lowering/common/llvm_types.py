"""The `llvm` dialect type of each type a kernel uses: `convert-to-llvm`'s type
conversion, which the passes before it use to lay values out (`layout.py`).

`convert_type`:

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
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AnyFloat,
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
    NoneAttr,
    Signedness,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Operation
from xdsl.ir.affine import AffineMap

from dialects.llvmx import PackedStructType


class ConversionError(Exception):
    """The input breaks a rule of the conversion; the message names the rule.

    Raised by the type conversion and by patterns. `op` is the op being converted,
    filled in by the pass, which reports the error on it."""

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(message)
        self.op = op


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
    PackedStructType,
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
    """The address space of a memref (`memory_space_number`), once `check_memref`
    has checked the bare-pointer rules."""
    check_memref(type_)
    return memory_space_number(type_)


def memory_space_number(type_: MemRefType) -> int:
    """A memref's memory space as a number, 0 when it has none (or one that is
    not an integer, which `check_memref` refuses)."""
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


def value_attr(
    value: int | float, type_: Attribute
) -> IntegerAttr | FloatAttr | DenseIntOrFPElementsAttr:
    """The attribute of `value` with an integer or float type, or of a splat of
    `value` with a vector type."""
    if isinstance(type_, VectorType):
        return DenseIntOrFPElementsAttr.from_list(type_, [value])
    if isinstance(type_, IntegerType):
        return IntegerAttr(int(value), type_)
    assert isinstance(type_, AnyFloat), type_  # not a vector nor an integer type
    return FloatAttr(float(value), type_)
