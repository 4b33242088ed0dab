"""`memref` to `llvm`.

A memref is a bare pointer to its first element (see
`lowering.common.llvm_types`), so:

- `memref.load`/`memref.store` are an `llvm.getelementptr inbounds` over the
  element type, by the row-major linear index (`i * stride + j ...`, the strides
  being constants; `nsw`, since an in-bounds index does not overflow), then
  `llvm.load`/`llvm.store` with the element's natural alignment. A 0-d memref is
  the pointer itself. The element is as it is in memory (`layout.memory_type`): an
  `i1` is a byte, zero-extended when stored and compared with 0 when loaded; so
  are the elements of private arrays and globals (a global of `i1` is an array of
  `i8` 0 or 1).
- `memref.alloca` of a static shape (a private array) is an `llvm.alloca` of its
  element count, with at least the natural alignment. It is put at the start of
  the function's entry block, where LLVM expects static allocas (an alloca inside
  a loop would grow the stack at each iteration; reusing one buffer for all
  iterations is what its undefined initial contents allow). It must be in the
  private address space: local memory is a `memref.global` in address space 3.
- `memref.global` is `llvm.mlir.global` of an `!llvm.array` of the element count
  (the element type itself for a 0-d memref), in the memory space's address
  space, with the initial value flattened to one dimension, `constant` and
  `alignment` kept; a private global has internal linkage, a public one external.
  An `uninitialized` global gets zeros: uninitialised memory may hold anything,
  and an llvm global without an initialiser would be a declaration. Module-scope
  local-memory variables are such globals.
- `memref.get_global` is `llvm.mlir.addressof`.
- `memref.cast` is nothing (the pointer is the same); `memref.assume_alignment` is
  nothing either (the pointer is returned as it is).
- `memref.memory_space_cast` is `llvmx.addrspacecast`.
- `memref.dim` of a static dimension is that constant. A dynamic size is not
  known from a bare pointer: a diagnostic (pass the size as an argument).

`memref.alloc` and `memref.dealloc` are diagnostics: kernels have no heap (use
`memref.alloca` for private arrays, a `memref.global` for local memory). Views
(`subview`, `reinterpret_cast`, `expand_shape`, ...) and the other ops are not
converted (a diagnostic names the op).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import func, llvm, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.utils.hints import isa

from dialects import llvmx
from lowering.common.builders import constant_int
from lowering.common.layout import memory_type
from lowering.common.llvm_types import (
    ConversionError,
    address_space,
    convert_type,
    element_count,
    natural_alignment,
    pointer_type,
    value_attr,
)
from lowering.to_llvm.building import constant
from lowering.to_llvm.memory import convert_load, convert_store
from lowering.to_llvm.values import llvm_operands, replace_op


def _memref_type(value: SSAValue) -> MemRefType:
    assert isinstance(value.type, MemRefType)
    return value.type


class LoadToLLVM(RewritePattern):
    """`memref.load` is a GEP and an `llvm.load`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.LoadOp, rewriter: PatternRewriter, /):
        convert_load(op, rewriter, op.memref)


class StoreToLLVM(RewritePattern):
    """`memref.store` is a GEP and an `llvm.store`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.StoreOp, rewriter: PatternRewriter, /):
        nontemporal = bool(op.nontemporal and op.nontemporal.value.data)
        convert_store(op, rewriter, op.memref, nontemporal=nontemporal)


def _is_static_alloca(op: Operation) -> bool:
    """An `llvm.alloca`, or the constant count of one."""
    if isinstance(op, llvm.ConstantOp):
        return all(isinstance(use.operation, llvm.AllocaOp) for use in op.result.uses)
    return isinstance(op, llvm.AllocaOp)


def _after_static_allocas(op: Operation) -> InsertPoint:
    """The start of the entry block of the function around `op`, after the allocas
    already there (so that they stay in program order)."""
    function = op.parent_op()
    while function is not None and not isinstance(function, func.FuncOp | llvm.FuncOp):
        function = function.parent_op()
    assert function is not None, "memref.alloca is converted inside a function"
    entry = function.regions[0].blocks[0]
    for first in entry.ops:
        if not _is_static_alloca(first):
            return InsertPoint.before(first)
    return InsertPoint.at_end(entry)


class AllocaToLLVM(RewritePattern):
    """`memref.alloca` of a static shape is an `llvm.alloca` at the start of the
    entry block."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.AllocaOp, rewriter: PatternRewriter, /):
        type_ = _memref_type(op.memref)
        if address_space(type_) != 0:
            raise ConversionError(
                f"memref.alloca of {type_}: private arrays are in address space 0 "
                "(local memory is a memref.global in address space 3)"
            )
        if op.dynamic_sizes:
            raise ConversionError(
                f"memref.alloca of {type_}: only static shapes (a private array has "
                "a size known at compile time)"
            )
        element = memory_type(convert_type(type_.element_type))
        alignment = natural_alignment(element)
        if op.alignment is not None:
            alignment = max(alignment, op.alignment.value.data)
        start = _after_static_allocas(op)
        count = llvm.ConstantOp(IntegerAttr(element_count(type_), i64), i64)
        alloca = llvm.AllocaOp(count, element, alignment)
        rewriter.insert([count, alloca], start)
        replace_op(rewriter, op, [alloca.res])


class NoHeapInKernels(RewritePattern):
    """`memref.alloc` and `memref.dealloc`: a diagnostic."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.AllocOp | memref.DeallocOp, rewriter: PatternRewriter, /
    ):
        raise ConversionError(
            f"{op.name}: kernels have no heap (use memref.alloca for a private array, "
            "a memref.global in address space 3 for local memory)"
        )


class CastToNothing(RewritePattern):
    """`memref.cast` and `memref.assume_alignment` are their operand's pointer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self,
        op: memref.CastOp | memref.AssumeAlignmentOp,
        rewriter: PatternRewriter,
        /,
    ):
        (pointer,) = llvm_operands(op, rewriter)
        if convert_type(op.results[0].type) != pointer.type:
            raise ConversionError(
                f"{op.name} from {op.operands[0].type} to {op.results[0].type} "
                "changes the memory space"
            )
        replace_op(rewriter, op, [pointer])


class MemorySpaceCastToLLVM(RewritePattern):
    """`memref.memory_space_cast` is `llvmx.addrspacecast`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.MemorySpaceCastOp, rewriter: PatternRewriter, /
    ):
        (pointer,) = llvm_operands(op, rewriter)
        result_type = convert_type(op.dest.type)
        if result_type == pointer.type:
            replace_op(rewriter, op, [pointer])
            return
        cast = rewriter.insert(llvmx.AddrSpaceCastOp(pointer, result_type))
        replace_op(rewriter, op, [cast.result])


class DimToLLVM(RewritePattern):
    """`memref.dim` of a static size is that constant."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.DimOp, rewriter: PatternRewriter, /):
        type_ = op.source.type
        assert isinstance(type_, MemRefType)
        dimension = constant_int(op.index)
        if dimension is None:
            raise ConversionError(
                "memref.dim: the dimension must be a constant (a memref is a bare "
                "pointer, its sizes are in its type only)"
            )
        shape = type_.get_shape()
        if not 0 <= dimension < len(shape):
            raise ConversionError(f"memref.dim: {type_} has no dimension {dimension}")
        if shape[dimension] == DYNAMIC_INDEX:
            raise ConversionError(
                f"memref.dim of the dynamic dimension {dimension} of {type_}: a "
                "memref is a bare pointer, which has no sizes (pass the size as an "
                "argument)"
            )
        replace_op(rewriter, op, [constant(rewriter, shape[dimension], i64)])


def _global_value(op: memref.GlobalOp) -> Attribute:
    """The initial value of the llvm global for `op`: flattened to one dimension,
    zeros for an uninitialized global."""
    type_ = op.type
    element = memory_type(convert_type(type_.element_type))
    value = op.initial_value
    if isinstance(value, UnitAttr):
        values: Sequence[int] | Sequence[float] = [0]
    elif isa(value, DenseIntOrFPElementsAttr[AnyFloat]):
        values = value.get_values()
    else:  # not complex numbers: convert_type rejected them
        assert isa(value, DenseIntOrFPElementsAttr[IntegerType | IndexType]), value
        values = value.get_values()
    if element != convert_type(type_.element_type):  # booleans: xDSL's true is -1
        values = [int(bool(v)) for v in values]
    if not type_.get_shape():
        return value_attr(values[0], element)
    shape = [element_count(type_)]
    if isinstance(element, IntegerType):
        ints = [int(v) for v in values]  # the values of an integer attribute
        return DenseIntOrFPElementsAttr.from_list(TensorType(element, shape), ints)
    assert isinstance(element, AnyFloat), element  # the other memory types of scalars
    return DenseIntOrFPElementsAttr.from_list(TensorType(element, shape), values)


class GlobalToLLVM(RewritePattern):
    """`memref.global` is `llvm.mlir.global` (see the module docstring)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.GlobalOp, rewriter: PatternRewriter, /):
        type_ = op.type
        if not type_.has_static_shape():
            raise ConversionError(
                f"memref.global of {type_}: a global has a static shape"
            )
        if not isinstance(type_.element_type, IntegerType | IndexType | AnyFloat):
            raise ConversionError(
                f"memref.global of {type_}: a global's elements are integers or "
                "floats (its initial value is packed as such)"
            )
        element = memory_type(convert_type(type_.element_type))
        if type_.get_shape():
            global_type = llvm.LLVMArrayType(element_count(type_), element)
        else:
            global_type = element
        private = op.sym_visibility.data == "private"
        new = llvm.GlobalOp(
            global_type,
            op.sym_name,
            "internal" if private else "external",
            addr_space=address_space(type_),
            constant=op.constant is not None,
            value=_global_value(op),
            alignment=op.alignment.value.data if op.alignment is not None else None,
        )
        rewriter.replace(op, new)


class GetGlobalToLLVM(RewritePattern):
    """`memref.get_global` is `llvm.mlir.addressof`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.GetGlobalOp, rewriter: PatternRewriter, /):
        type_ = op.memref.type
        assert isinstance(type_, MemRefType)
        new = llvm.AddressOfOp(op.name_, pointer_type(address_space(type_)))
        replace_op(rewriter, op, [rewriter.insert(new).result])


PATTERNS: list[RewritePattern] = [
    LoadToLLVM(),
    StoreToLLVM(),
    AllocaToLLVM(),
    NoHeapInKernels(),
    CastToNothing(),
    MemorySpaceCastToLLVM(),
    DimToLLVM(),
    GlobalToLLVM(),
    GetGlobalToLLVM(),
]
"""The patterns converting the `memref` ops kernels use."""
