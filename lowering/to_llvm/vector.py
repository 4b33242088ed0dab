"""`vector` to `llvm`, for 1-D vectors of a fixed size (the only ones with an llvm
type; see `lowering.common.llvm_types`).

- `vector.broadcast` of a scalar is an `llvm.insertelement` into lane 0 of an undef
  vector and an `llvm.shufflevector` copying lane 0 to every lane (LLVM's splat
  idiom); of a `vector<1xT>`, the shuffle alone; of a vector of the result type,
  nothing.
- `vector.extract` of a lane (static or dynamic position) is
  `llvmx.extractelement`, `vector.insert` of a scalar is `llvm.insertelement`; the
  lane index is an `i64`.
- `vector.load`/`vector.store` on a memref are the address of the first element, as
  for `memref.load` (`memory.element_address`), and an `llvm.load`/`llvm.store` of
  the vector type, aligned as the memref's element (a vector loaded from a
  `memref<?xf32>` is only known to be f32-aligned). A vector of `i1` is a vector
  of bytes in memory (`layout.memory_type`), never LLVM's bit-packed `<N x i1>`: it
  is loaded as `vector<N x i8>` and compared with 0, stored zero-extended.
- `vector.reduction` calls LLVM's `llvm.vector.reduce.*` intrinsics: `add`/`mul`
  on floats are `llvm.intr.vector.reduce.fadd`/`fmul` (ordered, unless the
  fast-math flags allow reassociation), starting from the accumulator or from the
  neutral element (-0.0, 1.0); the others are `llvm.call_intrinsic`
  (`llvm.vector.reduce.add`, `.smin`, `.umax`, `.fmin` for `minnumf`, `.fminimum`
  for `minimumf`, ...), combined with the accumulator if there is one by the
  scalar operation of the same kind.
- `vector.fma` is `llvm.intr.fma`; `vector.bitcast` is `llvm.bitcast`;
  `vector.shuffle` is `llvm.shufflevector`.

- `vector.maskedload`/`vector.maskedstore` call LLVM's `llvm.masked.load`/
  `llvm.masked.store` on the address of the first element (lanes whose mask bit is
  0 are not accessed: the load gives the pass-through lane there), aligned as the
  memref's element; booleans are bytes there too (the mask stays a
  `vector<N x i1>`: it is an operand, not memory).

Not converted (a diagnostic names the op): `create_mask`,
`transfer_read`/`transfer_write` and `vector.print`.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import llvm, vector
from xdsl.dialects.builtin import DenseArrayBase, MemRefType, VectorType, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from dialects import llvmx
from lowering.common.intrinsics import intrinsic_name
from lowering.common.layout import from_memory, memory_type, to_memory
from lowering.common.llvm_types import (
    LLVM_FLOAT_TYPES,
    ConversionError,
    convert_type,
    natural_alignment,
)
from lowering.to_llvm.building import call_intrinsic, constant
from lowering.to_llvm.memory import convert_load, convert_store, element_address
from lowering.to_llvm.patterns import CastToLLVM
from lowering.to_llvm.values import fastmath, llvm_operands, llvm_value, replace_op


def _lane_index(rewriter: PatternRewriter, position: list[SSAValue | int]) -> SSAValue:
    """The i64 index of the lane `position` names (a 1-D vector has one index)."""
    (lane,) = position
    if isinstance(lane, int):
        return constant(rewriter, lane, i64)
    return llvm_value(lane, rewriter)


class BroadcastToLLVM(RewritePattern):
    """`vector.broadcast` is LLVM's splat idiom (see the module docstring)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.BroadcastOp, rewriter: PatternRewriter, /):
        (source,) = llvm_operands(op, rewriter)
        result_type = convert_type(op.vector.type)
        assert isinstance(result_type, VectorType)
        if source.type == result_type:
            replace_op(rewriter, op, [source])
            return
        if not isinstance(source.type, VectorType):
            undef = rewriter.insert(llvm.UndefOp(result_type)).res
            zero = constant(rewriter, 0, i64)
            source = rewriter.insert(llvm.InsertElementOp(undef, source, zero)).res
        elif source.type.get_shape() != (1,):
            raise ConversionError(
                f"vector.broadcast from {source.type} to {result_type}: only from a "
                "scalar or a vector<1xT>"
            )
        lanes = result_type.get_shape()[0]
        mask = DenseArrayBase.from_list(i32, [0] * lanes)
        shuffle = llvm.ShuffleVectorOp(source, source, mask, result_type)
        replace_op(rewriter, op, [rewriter.insert(shuffle).res])


class ExtractToLLVM(RewritePattern):
    """`vector.extract` of a lane is `llvmx.extractelement`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ExtractOp, rewriter: PatternRewriter, /):
        source = llvm_value(op.vector, rewriter)
        position = op.get_mixed_position()
        if not position:
            replace_op(rewriter, op, [source])
            return
        extract = llvmx.ExtractElementOp(source, _lane_index(rewriter, position))
        replace_op(rewriter, op, [rewriter.insert(extract).result])


class InsertToLLVM(RewritePattern):
    """`vector.insert` of a scalar into a lane is `llvm.insertelement`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.InsertOp, rewriter: PatternRewriter, /):
        source = llvm_value(op.source, rewriter)
        dest = llvm_value(op.dest, rewriter)
        position = op.get_mixed_position()
        if not position:
            replace_op(rewriter, op, [source])
            return
        index = _lane_index(rewriter, position)
        insert = llvm.InsertElementOp(dest, source, index)
        replace_op(rewriter, op, [rewriter.insert(insert).res])


def _memref_element_alignment(value: SSAValue) -> int:
    type_ = value.type
    assert isinstance(type_, MemRefType)
    return natural_alignment(memory_type(convert_type(type_.element_type)))


class LoadToLLVM(RewritePattern):
    """`vector.load` is an `llvm.load` of the vector type."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.LoadOp, rewriter: PatternRewriter, /):
        alignment = _memref_element_alignment(op.base)
        convert_load(op, rewriter, op.base, alignment=alignment)


class StoreToLLVM(RewritePattern):
    """`vector.store` is an `llvm.store` of the vector type."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.StoreOp, rewriter: PatternRewriter, /):
        alignment = _memref_element_alignment(op.base)
        convert_store(op, rewriter, op.base, alignment=alignment)


def _masked_intrinsic(base: str, vector_type: Attribute) -> str:
    """`llvm.masked.load.v8f32.p0`: overloaded on the vector and the pointer."""
    return intrinsic_name(base, vector_type) + ".p0"


def _masked_operands(
    op: vector.MaskedLoadOp | vector.MaskedStoreOp, rewriter: PatternRewriter
) -> tuple[SSAValue, SSAValue, SSAValue, SSAValue]:
    """The arguments of the intrinsic of a masked load or store, whose operands are
    a memref, the indices of the first element accessed, the mask, and the
    pass-through or the value to store: that element's address, the alignment
    argument (the memref element's), the mask, and the pass-through or value in
    its memory type."""
    base, *rest = llvm_operands(op, rewriter)
    *indices, mask, lanes = rest
    pointer = element_address(rewriter, op.base, base, indices)
    alignment = constant(rewriter, _memref_element_alignment(op.base), i32)
    return pointer, alignment, mask, to_memory(rewriter, lanes)


class MaskedLoadToLLVM(RewritePattern):
    """`vector.maskedload` is `llvm.masked.load(pointer, alignment, mask,
    pass_thru)`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.MaskedLoadOp, rewriter: PatternRewriter, /):
        pointer, alignment, mask, pass_thru = _masked_operands(op, rewriter)
        result_type = convert_type(op.result.type)
        stored = memory_type(result_type)
        name = _masked_intrinsic("llvm.masked.load", stored)
        call = llvm.CallIntrinsicOp(
            name, [pointer, alignment, mask, pass_thru], [stored]
        )
        loaded = rewriter.insert(call).results[0]
        replace_op(rewriter, op, [from_memory(rewriter, loaded, result_type)])


class MaskedStoreToLLVM(RewritePattern):
    """`vector.maskedstore` is `llvm.masked.store(value, pointer, alignment,
    mask)`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.MaskedStoreOp, rewriter: PatternRewriter, /):
        pointer, alignment, mask, value = _masked_operands(op, rewriter)
        name = _masked_intrinsic("llvm.masked.store", value.type)
        rewriter.replace(
            op, llvm.CallIntrinsicOp(name, [value, pointer, alignment, mask], [])
        )


Combine = Callable[[PatternRewriter, SSAValue, SSAValue], SSAValue]


def _binary(target: Callable[[SSAValue, SSAValue], Operation]) -> Combine:
    return lambda rewriter, a, b: rewriter.insert(target(a, b)).results[0]


def _intrinsic(name: str) -> Combine:
    return lambda rewriter, a, b: call_intrinsic(rewriter, name, [a, b], a.type)


K = vector.CombiningKindFlag

REDUCTIONS: dict[vector.CombiningKindFlag, tuple[str, Combine]] = {
    K.ADD: ("llvm.vector.reduce.add", _binary(llvm.AddOp)),
    K.MUL: ("llvm.vector.reduce.mul", _binary(llvm.MulOp)),
    K.AND: ("llvm.vector.reduce.and", _binary(llvm.AndOp)),
    K.OR: ("llvm.vector.reduce.or", _binary(llvm.OrOp)),
    K.XOR: ("llvm.vector.reduce.xor", _binary(llvm.XOrOp)),
    K.MINSI: ("llvm.vector.reduce.smin", _intrinsic("llvm.smin")),
    K.MAXSI: ("llvm.vector.reduce.smax", _intrinsic("llvm.smax")),
    K.MINUI: ("llvm.vector.reduce.umin", _intrinsic("llvm.umin")),
    K.MAXUI: ("llvm.vector.reduce.umax", _intrinsic("llvm.umax")),
    K.MINNUMF: ("llvm.vector.reduce.fmin", _intrinsic("llvm.minnum")),
    K.MAXNUMF: ("llvm.vector.reduce.fmax", _intrinsic("llvm.maxnum")),
    K.MINIMUMF: ("llvm.vector.reduce.fminimum", _intrinsic("llvm.minimum")),
    K.MAXIMUMF: ("llvm.vector.reduce.fmaximum", _intrinsic("llvm.maximum")),
}
"""For each kind of `vector.reduction` but the float add and mul: the intrinsic
reducing a vector, and how to combine its result with the accumulator."""


class ReductionToLLVM(RewritePattern):
    """`vector.reduction` calls an `llvm.vector.reduce.*` intrinsic."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ReductionOp, rewriter: PatternRewriter, /):
        source, *accumulator = llvm_operands(op, rewriter)
        kind = op.kind.data
        result_type = convert_type(op.dest.type)
        is_float = isinstance(result_type, LLVM_FLOAT_TYPES)
        if is_float and kind in (K.ADD, K.MUL):
            if accumulator:
                start = accumulator[0]
            else:
                start = constant(rewriter, -0.0 if kind == K.ADD else 1.0, result_type)
            if kind == K.ADD:
                reduce = llvm.VectorReduceFAddOp(start, source, fastmath(op))
            else:
                reduce = llvm.VectorReduceFMulOp(start, source, fastmath(op))
            result = rewriter.insert(reduce).res
        else:
            intrinsic, combine = REDUCTIONS[kind]
            result = call_intrinsic(
                rewriter, intrinsic, [source], result_type, overload=source.type
            )
            if accumulator:
                result = combine(rewriter, accumulator[0], result)
        replace_op(rewriter, op, [result])


class FmaToLLVM(RewritePattern):
    """`vector.fma` is `llvm.intr.fma`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.FMAOp, rewriter: PatternRewriter, /):
        a, b, c = llvm_operands(op, rewriter)
        replace_op(rewriter, op, [rewriter.insert(llvm.FMAOp(a, b, c)).res])


class ShuffleToLLVM(RewritePattern):
    """`vector.shuffle` of 1-D vectors is `llvm.shufflevector`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ShuffleOp, rewriter: PatternRewriter, /):
        v1, v2 = llvm_operands(op, rewriter)
        result_type = convert_type(op.result.type)
        mask = DenseArrayBase.from_list(i32, op.mask.get_values())
        shuffle = llvm.ShuffleVectorOp(v1, v2, mask, result_type)
        replace_op(rewriter, op, [rewriter.insert(shuffle).res])


PATTERNS: list[RewritePattern] = [
    BroadcastToLLVM(),
    ExtractToLLVM(),
    InsertToLLVM(),
    LoadToLLVM(),
    StoreToLLVM(),
    MaskedLoadToLLVM(),
    MaskedStoreToLLVM(),
    ReductionToLLVM(),
    FmaToLLVM(),
    ShuffleToLLVM(),
    CastToLLVM(vector.BitcastOp, llvm.BitcastOp),
]
"""The patterns converting the `vector` ops on 1-D vectors."""
