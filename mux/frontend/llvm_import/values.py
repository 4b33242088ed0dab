"""The values of one function being imported: the map from llvmlite's values to
ours, the block ops go into, and the constants built where they are used."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from llvmlite import binding
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from dialects import llvmx
from dialects.llvmx import PackedStructType
from mux.frontend.llvm_import import events, facts
from mux.frontend.llvm_import.locations import Place
from mux.frontend.llvm_import.text import Constant, TextError

GlobalAccess = Callable[[str], SSAValue]
"""Gives the pointer to a module global by name, built in the function's entry."""


class Refusal(Exception):
    """An instruction the importer does not take: the reason; the importer adds
    which instruction and where."""


class ImporterBug(RuntimeError):
    """An exception of the importer's own code while importing valid LLVM IR (LLVM
    verified it first): a bug to fix, never a diagnostic about the kernel. Its
    message names the instruction and its line; the original exception is its
    cause."""

    def __init__(self, message: str):
        super().__init__(
            f"internal error of the LLVM IR importer (a bug, not a fault of the "
            f"kernel): {message}"
        )


@dataclass(frozen=True)
class Signature:
    """What a call of a function of the module needs to know of it."""

    inputs: list[Attribute]
    results: list[Attribute]
    """No type for void, else the one result type."""
    byval: dict[int, tuple[Attribute, int | None]] = field(default_factory=dict)
    """The parameters taken `byval(T)`, by position: T and the alignment."""
    variadic: bool = False
    """The function takes `...` after `inputs` (printf)."""


@dataclass
class FunctionValues:
    """What the instructions of one function are translated with."""

    structs: dict[str, Attribute]
    global_pointer: GlobalAccess
    file: str
    signatures: dict[str, Signature] = field(default_factory=dict)
    """The module's functions' parameter and result types, by name."""
    values: dict[binding.ValueRef, SSAValue] = field(default_factory=dict)
    blocks: dict[binding.ValueRef, Block] = field(default_factory=dict)
    block: Block | None = None
    llvm_block: binding.ValueRef | None = None
    llvm_blocks: dict[binding.ValueRef, binding.ValueRef] = field(default_factory=dict)
    """Each LLVM block by itself: a block used as an operand is another handle."""
    """The LLVM block whose instructions are being translated."""
    place: Place | None = None
    """Where the instruction being translated is (`locations`)."""

    def emit(self, op: Operation) -> Operation:
        """Appends `op` to the current block, located at the current line."""
        assert self.block is not None
        if self.place is not None:
            op.location = self.place.location()
        self.block.add_op(op)
        return op

    def result(self, instruction: binding.ValueRef, op: Operation) -> None:
        """Emits `op`, whose only result is the value of `instruction`."""
        self.values[instruction] = self.emit(op).results[0]

    def operand(self, value: binding.ValueRef) -> SSAValue:
        """Our value for an operand: translated before, or a constant built here."""
        found = self.values.get(value)
        if found is not None:
            return found
        kind = events.value_kind(value)
        if kind == binding.ValueKind.global_variable:
            return self.global_pointer(value.name)
        if kind == binding.ValueKind.function:
            raise Refusal(f"a function used as a value ({value.name})")
        if not value.is_constant:
            raise Refusal(f"an operand defined later or elsewhere: {str(value)[:60]}")
        try:
            constant = facts.constant_operand(str(value), self.structs)
        except TextError as error:
            raise Refusal(f"constant {str(value)[:80]}: {error}") from error
        return self.constant(constant)

    def constant(self, constant: Constant) -> SSAValue:
        """Ops that make `constant`, emitted in the current block."""
        builder = _CONSTANTS.get(constant.kind)
        if builder is None:
            raise Refusal(f"constant of kind {constant.kind}")
        return builder(self, constant)

    def alloca(self, type_: Attribute, alignment: int | None) -> SSAValue:
        """A private `type_` allocated at the top of the function's entry block
        (once per call of the function, not once per loop iteration)."""
        entry = next(iter(self.blocks.values()))
        one = llvm.ConstantOp(IntegerAttr(1, i32), i32)
        alloca = alloca_op(one.result, type_, alignment, llvm.LLVMPointerType())
        if entry.first_op is None:
            entry.add_ops([one, alloca])
        else:
            entry.insert_ops_before([one, alloca], entry.first_op)
        return alloca.results[0]

    def int_constant(self, value: int, type_: IntegerType = i64) -> SSAValue:
        return self.emit(llvm.ConstantOp(IntegerAttr(value, type_), type_)).results[0]


def alloca_op(
    size: SSAValue, type_: Attribute, alignment: int | None, pointer_type: Attribute
) -> llvm.AllocaOp:
    """`llvm.alloca` of `size` `type_`s, typed `pointer_type`. xDSL's constructor
    types the result in address space 0 and always sets an alignment (and an
    `OpResult`'s type cannot be set afterwards): built from its parts instead."""
    properties: dict[str, Attribute] = {"elem_type": type_}
    if alignment is not None:
        properties["alignment"] = IntegerAttr(alignment, i64)
    return llvm.AllocaOp.create(
        operands=[size], properties=properties, result_types=[pointer_type]
    )


def _scalar(values: FunctionValues, c: Constant) -> SSAValue:
    if c.kind == "float":
        assert isinstance(c.type, AnyFloat)
        attr = FloatAttr(float(c.number()), c.type)
    else:
        attr = _int_attr(int(c.number()), c.type)
    return values.emit(llvm.ConstantOp(attr, c.type)).results[0]


def _int_attr(value: int, type_: Attribute) -> IntegerAttr:
    assert isinstance(type_, IntegerType)
    width = type_.width.data
    if width > 1 and value >= 1 << (width - 1):
        value -= 1 << width  # LLVM prints i8 200 as -56 already; be tolerant
    if width == 1 and value:
        value = -1 if value == 1 else value
    return IntegerAttr(value, type_)


def _zero(values: FunctionValues, c: Constant) -> SSAValue:
    """`zeroinitializer` (or `null`): xDSL's `llvm.mlir.zero` takes only pointers
    and aggregates, so a number or a vector of numbers is a 0 constant."""
    if isinstance(c.type, VectorType):
        lane = _number_zero(c.type.get_element_type())
        lanes = [lane] * c.type.get_shape()[0]
        return _vector(values, Constant("vector", c.type, elements=lanes))
    if isinstance(c.type, IntegerType | AnyFloat):
        return _scalar(values, _number_zero(c.type))
    return values.emit(llvm.ZeroOp(result_types=[c.type])).results[0]


def _number_zero(type_: Attribute) -> Constant:
    return Constant("int" if isinstance(type_, IntegerType) else "float", type_, 0)


def _undef(values: FunctionValues, c: Constant) -> SSAValue:
    return values.emit(llvm.UndefOp(c.type)).results[0]


def _vector(values: FunctionValues, c: Constant) -> SSAValue:
    """A vector of numbers, one dense constant; a poison or undef lane is 0
    (poison may be refined to any value). Lanes that are not numbers (constant
    expressions) are inserted one by one."""
    assert isinstance(c.type, VectorType)
    if all(e.kind in ("int", "float", "undef", "poison") for e in c.elements):
        numbers = [
            0 if e.kind in ("undef", "poison") else e.number() for e in c.elements
        ]
        element = c.type.get_element_type()
        if isinstance(element, IntegerType):
            lanes = [_int_attr(int(v), element).value.data for v in numbers]
        else:
            lanes = [float(v) for v in numbers]
        dense = DenseIntOrFPElementsAttr.from_list(c.type, lanes)
        return values.emit(llvm.ConstantOp(dense, c.type)).results[0]
    vector = _undef(values, Constant("undef", c.type))
    for lane, element in enumerate(c.elements):
        index = values.int_constant(lane, i32)
        op = llvm.InsertElementOp(vector, values.constant(element), index)
        vector = values.emit(op).results[0]
    return vector


def _aggregate(values: FunctionValues, c: Constant) -> SSAValue:
    """An array or struct constant: undef, then each member inserted."""
    aggregate = _undef(values, Constant("undef", c.type))
    for position, element in enumerate(c.elements):
        op = llvm.InsertValueOp(
            DenseArrayBase.from_list(i64, [position]),
            aggregate,
            values.constant(element),
        )
        aggregate = values.emit(op).results[0]
    return aggregate


def _global(values: FunctionValues, c: Constant) -> SSAValue:
    return values.global_pointer(str(c.value))


def _gep(values: FunctionValues, c: Constant) -> SSAValue:
    base, *indices = c.elements
    assert c.source_type is not None
    pointer = values.constant(base)
    op = gep(values, pointer, indices, c.source_type, c.type, c.inbounds)
    return values.emit(op).results[0]


def gep(
    values: FunctionValues,
    pointer: SSAValue,
    indices: Sequence[Constant | SSAValue],
    source: Attribute,
    result: Attribute,
    inbounds: bool,
) -> llvm.GEPOp:
    """A getelementptr: constant indices that fit in an i32 are written in the
    op (a struct's member index must be), the others are operands."""
    _check_no_packed_member(source, indices[1:])
    raw: list[int] = []
    dynamic: list[SSAValue] = []
    for index in indices:
        if (
            isinstance(index, Constant)
            and index.kind == "int"
            and -(2**31) < int(index.number()) < 2**31
        ):
            raw.append(int(index.number()))
            continue
        raw.append(llvm.GEP_USE_SSA_VAL)
        dynamic.append(index if isinstance(index, SSAValue) else values.constant(index))
    assert isinstance(result, llvm.LLVMPointerType)
    return llvm.GEPOp(pointer, raw, source, dynamic, result, inbounds)


def _check_no_packed_member(
    type_: Attribute, indices: Sequence[Constant | SSAValue]
) -> None:
    """Refuses a getelementptr whose `indices` (after the first) step into a
    packed struct: xDSL's GEP cannot index into `llvmx.packed_struct` (clang
    reaches a member of one by a byte offset)."""
    for index in indices:
        if isinstance(type_, PackedStructType):
            raise Refusal("a getelementptr to a member of a packed struct")
        if isinstance(type_, llvm.LLVMStructType):
            assert isinstance(index, Constant)  # LLVM's rule for struct indices
            type_ = type_.types.data[int(index.number())]
        elif isinstance(type_, llvm.LLVMArrayType | VectorType):
            type_ = (
                type_.get_element_type()
                if isinstance(type_, VectorType)
                else type_.type
            )


def _cast(values: FunctionValues, c: Constant) -> SSAValue:
    (inner,) = c.elements
    arg = values.constant(inner)
    op = CONSTANT_CASTS[c.kind](arg, c.type)
    return values.emit(op).results[0]


CONSTANT_CASTS: dict[str, Callable[[SSAValue, Attribute], Operation]] = {
    "addrspacecast": llvmx.AddrSpaceCastOp,
    "bitcast": llvm.BitcastOp,
    "ptrtoint": lambda arg, type_: llvm.PtrToIntOp(arg, type_),
    "inttoptr": lambda arg, type_: llvm.IntToPtrOp.create(
        operands=[arg], result_types=[type_]
    ),
}

_CONSTANTS: dict[str, Callable[[FunctionValues, Constant], SSAValue]] = {
    "int": _scalar,
    "float": _scalar,
    "null": _zero,
    "zero": _zero,
    "undef": _undef,
    "poison": _undef,
    "vector": _vector,
    "array": _aggregate,
    "struct": _aggregate,
    "global": _global,
    "getelementptr": _gep,
    **{kind: _cast for kind in CONSTANT_CASTS},
}
