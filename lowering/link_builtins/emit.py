"""`Emitter`: how a definition of `link-builtins` builds ops, the same way on a
scalar and on a vector of any width.

A builtin's call has LLVM-level types (`f32`, `vector<4xi32>`, `!llvm.ptr<1>`), and
one definition serves every width of a builtin: `Emitter` picks, per operation,
the op that takes both shapes. Arithmetic, min/max and the functions of the `math`
dialect are `arith`/`math` ops (they apply to vectors lane by lane, and `run-vecz`
widens them); comparisons are `llvm.icmp` and `llvm.fcmp`/`llvmx.fcmp` (xDSL 0.74's
`arith.cmpi`/`cmpf` give one `i1` for vectors), selects on a vector of conditions
`llvmx.select`, casts the `llvm` ones (its `arith` casts take scalars); functions
LLVM has but `math` lacks are `llvm.call_intrinsic`s, and C library functions
neither has are `func.call`s of the C library's function (declared in the module),
lane by lane on vectors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, func, llvm, math
from xdsl.dialects.builtin import (
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from dialects import llvmx
from lowering.common.intrinsics import intrinsic_name
from lowering.common.llvm_casts import CASTS
from lowering.common.llvm_types import bit_width, element_type, value_attr


def lanes(type_: Attribute) -> int:
    """The lanes of a vector type; 0 for a scalar."""
    return type_.get_shape()[0] if isinstance(type_, VectorType) else 0


def shaped(type_: Attribute, element: Attribute) -> Attribute:
    """`element`, or a vector of it with the lanes of `type_` if that is one."""
    n = lanes(type_)
    return VectorType(element, [n]) if n else element


def int_like(type_: Attribute) -> Attribute:
    """The integers of the bits of `type_`'s elements, in its shape: `f32` -> `i32`,
    `vector<4xf64>` -> `vector<4xi64>`."""
    return shaped(type_, IntegerType(bit_width(element_type(type_))))


def is_float(type_: Attribute) -> bool:
    return isinstance(element_type(type_), Float16Type | Float32Type | Float64Type)


FLOAT_TYPES = {16: Float16Type(), 32: Float32Type(), 64: Float64Type()}


class Emitter:
    """Inserts ops with `builder` (before a call, in `module`); each method returns
    the value it built."""

    def __init__(self, builder: Builder, module: ModuleOp):
        self.builder = builder
        self.module = module
        self._constants: dict[tuple[str, Attribute], SSAValue] = {}
        self._splats: dict[tuple[SSAValue, Attribute], SSAValue] = {}

    def insert(self, op: Operation) -> SSAValue:
        return self.builder.insert(op).results[0]

    def const(self, value: int | float, type_: Attribute) -> SSAValue:
        """`value` as a constant of a scalar type, or a splat of a vector type
        (made once per emitter: all its ops are inserted at one point, in
        order)."""
        key = (repr(value), type_)
        if key in self._constants:
            return self._constants[key]
        element = element_type(type_)
        if isinstance(element, IntegerType) and element.width.data > 64:
            # xDSL 0.74 cannot make an attribute of more than 64 bits: extend one
            narrow = self.const(value, shaped(type_, i64))
            constant = self.cast(arith.ExtSIOp, narrow, type_)
        else:
            constant = self.insert(arith.ConstantOp(value_attr(value, type_)))
        self._constants[key] = constant
        return constant

    def splat(self, value: SSAValue, type_: Attribute) -> SSAValue:
        """`value` in every lane of `type_` when that is a vector and `value` a
        scalar (LLVM's idiom: insertelement, then a shuffle of lane 0; once per
        emitter, as constants); else `value`."""
        n = lanes(type_)
        if not n or isinstance(value.type, VectorType):
            return value
        assert isinstance(type_, VectorType)
        if (value, type_) not in self._splats:
            undef = self.insert(llvm.UndefOp(type_))
            index = self.const(0, i64)
            first = self.insert(llvm.InsertElementOp(undef, value, index))
            mask = DenseArrayBase.from_list(i32, [0] * n)
            shuffle = llvm.ShuffleVectorOp(first, first, mask, type_)
            self._splats[value, type_] = self.insert(shuffle)
        return self._splats[value, type_]

    def arith(self, cls: type[Operation], *operands: SSAValue) -> SSAValue:
        """An `arith` or `math` op of `operands` (scalars spread to the first
        vector's shape)."""
        shape = next((o.type for o in operands if lanes(o.type)), operands[0].type)
        return self.insert(cls(*(self.splat(o, shape) for o in operands)))

    def fcmp(self, predicate: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        """LLVM's `fcmp <predicate>`: an `i1`, or a vector of them."""
        if lanes(lhs.type):
            return self.insert(llvmx.FCmpOp(predicate, lhs, rhs))
        return self.insert(llvm.FCmpOp(lhs, rhs, predicate))

    def icmp(self, predicate: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        """LLVM's `icmp <predicate>`: an `i1`, or a vector of them."""
        index = llvm.ICMP_INDEX_BY_FLAG[llvm.ICmpPredicateFlag(predicate)]
        return self.insert(llvm.ICmpOp(lhs, rhs, IntegerAttr(index, i64)))

    def select(self, cond: SSAValue, true: SSAValue, false: SSAValue) -> SSAValue:
        """Lane by lane `cond ? true : false`."""
        if lanes(cond.type):
            return self.insert(llvmx.SelectOp(cond, true, false))
        return self.insert(llvm.SelectOp(cond, true, false))

    def cast(self, cls: type[Operation], value: SSAValue, type_: Attribute) -> SSAValue:
        """The `llvm` cast of `arith` cast `cls` (`arith.extsi` is `llvm.sext`):
        theirs take vectors. Nothing when `value` has the type already."""
        if value.type == type_:
            return value
        return self.insert(CASTS[cls](value, type_))

    def bitcast(self, value: SSAValue, type_: Attribute) -> SSAValue:
        return self.cast(arith.BitcastOp, value, type_)

    def resize_float(self, value: SSAValue, element: Attribute) -> SSAValue:
        """`value`'s floats as `element`s (`fpext` or `fptrunc`, the latter
        rounding to nearest even)."""
        target = shaped(value.type, element)
        source_bits = bit_width(element_type(value.type))
        if bit_width(element) > source_bits:
            return self.cast(arith.ExtFOp, value, target)
        if isinstance(element, Float16Type) and source_bits == 64:
            return self._double_to_half(value, target)
        return self.cast(arith.TruncFOp, value, target)

    def _double_to_half(self, value: SSAValue, target: Attribute) -> SSAValue:
        """Doubles to halves, rounded once. LLVM would call `__truncdfhf2`, which
        the process may not have; through float, they would be rounded twice.
        So the double is rounded to float *to odd* (towards zero, then the last
        bit set if that was inexact), which keeps the information a second
        rounding needs (float has more than 11 + 2 bits), then to half."""
        single = shaped(value.type, Float32Type())
        nearest = self.cast(arith.TruncFOp, value, single)
        back = self.cast(arith.ExtFOp, nearest, value.type)
        magnitude = self.insert(math.AbsFOp(back))
        beyond = self.fcmp("ogt", magnitude, self.insert(math.AbsFOp(value)))
        inexact = self.fcmp("une", back, value)
        bits_type = shaped(value.type, i32)
        bits = self.bitcast(nearest, bits_type)
        one = self.const(1, bits_type)
        towards_zero = self.insert(arith.SubiOp(bits, one))
        bits = self.select(beyond, towards_zero, bits)
        bits = self.select(inexact, self.insert(arith.OrIOp(bits, one)), bits)
        return self.cast(arith.TruncFOp, self.bitcast(bits, single), target)

    def resize_int(self, value: SSAValue, element: Attribute, signed: bool) -> SSAValue:
        """`value`'s integers as `element`s: extended by their sign or zeros, or
        truncated."""
        target = shaped(value.type, element)
        if bit_width(element) < bit_width(element_type(value.type)):
            return self.cast(arith.TruncIOp, value, target)
        return self.cast(arith.ExtSIOp if signed else arith.ExtUIOp, value, target)

    def intrinsic(
        self,
        base: str,
        args: Sequence[SSAValue],
        result: Attribute,
        overloads: Sequence[Attribute] | None = None,
    ) -> SSAValue:
        """A call of LLVM intrinsic `base` overloaded on `overloads` (by default
        the result type)."""
        name = intrinsic_name(base, *(overloads or [result]))
        return self.insert(llvm.CallIntrinsicOp(name, args, [result]))

    def extract(self, vector: SSAValue, lane: int) -> SSAValue:
        return self.insert(llvmx.ExtractElementOp(vector, self.const(lane, i64)))

    def build_vector(self, values: Sequence[SSAValue], type_: Attribute) -> SSAValue:
        """The vector `type_` of the scalars `values`, or the one scalar."""
        if not lanes(type_):
            (value,) = values
            return value
        assert isinstance(type_, VectorType)
        vector = self.insert(llvm.UndefOp(type_))
        for lane, value in enumerate(values):
            index = self.const(lane, i64)
            vector = self.insert(llvm.InsertElementOp(vector, value, index))
        return vector

    def per_lane(
        self,
        result: Attribute,
        operands: Sequence[SSAValue],
        build: Callable[[list[SSAValue]], SSAValue],
    ) -> SSAValue:
        """`build` on each lane of the vector operands (scalars are the same in
        every lane), gathered into `result`; `build` on the operands when `result`
        is a scalar."""
        n = lanes(result)
        if not n:
            return build(list(operands))
        results = []
        for lane in range(n):
            scalars = [self.extract(o, lane) if lanes(o.type) else o for o in operands]
            results.append(build(scalars))
        return self.build_vector(results, result)

    def c_library(self, name: str, operands: Sequence[SSAValue]) -> SSAValue:
        """The C library's function `name` (`namef` on f32) on `operands`, whose
        first one has the result's type; lane by lane on vectors."""
        result = operands[0].type
        scalar = element_type(result)
        symbol = name + "f" if isinstance(scalar, Float32Type) else name
        self.declare(symbol, [element_type(o.type) for o in operands], scalar)
        return self.per_lane(
            result, operands, lambda scalars: self.call(symbol, scalars, scalar)
        )

    def declare(self, symbol: str, inputs: list[Attribute], output: Attribute) -> None:
        """Declares the external function `symbol` (`func.func private`) in the
        module, unless it is there."""
        for op in self.module.ops:
            if isinstance(op, func.FuncOp) and op.sym_name.data == symbol:
                return
        declaration = func.FuncOp.external(symbol, inputs, [output])
        Builder(InsertPoint.at_end(self.module.body.block)).insert(declaration)

    def call(
        self, symbol: str, args: Sequence[SSAValue], result: Attribute
    ) -> SSAValue:
        return self.insert(func.CallOp(symbol, args, [result]))

    def load(self, pointer: SSAValue, type_: Attribute, alignment: int) -> SSAValue:
        return self.insert(llvm.LoadOp(pointer, type_, alignment))

    def store(self, value: SSAValue, pointer: SSAValue, alignment: int) -> None:
        self.builder.insert(llvm.StoreOp(value, pointer, alignment))

    def element_pointer(
        self, pointer: SSAValue, index: SSAValue, element: Attribute
    ) -> SSAValue:
        """`&pointer[index]` for an array of `element`s."""
        assert isinstance(pointer.type, llvm.LLVMPointerType)
        gep = llvm.GEPOp(
            pointer, [llvm.GEP_USE_SSA_VAL], element, [index], pointer.type
        )
        return self.insert(gep)

    def true(self, like: Attribute) -> SSAValue:
        """`true` as an `i1` or a vector of them shaped as `like`."""
        return self.const(1, shaped(like, i1))
