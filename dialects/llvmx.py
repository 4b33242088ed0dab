"""The `llvmx` dialect: the LLVM instructions xDSL's `llvm` dialect lacks.

xDSL 0.74's `llvm` dialect has no float-to-integer casts, no `addrspacecast`, no
`extractelement`, no `select` on a vector of conditions, no `switch`, no atomics, no
volatile loads, no `llvm.memcpy` and no packed structs. Our conversions to LLVM need
them, so they live here, one op per LLVM instruction (and the packed struct type),
with the syntax of MLIR's `llvm` dialect where it has the instruction
(`llvmx.atomicrmw add %p, %v seq_cst : !llvm.ptr, i32` reads like MLIR's
`llvm.atomicrmw`). The backend (`mux.backend.llvm_ir`) translates them to LLVM IR.

The verifiers check what the LLVM Language Reference requires of each instruction,
so that an invalid op is reported on the op rather than by LLVM's IR verifier on the
generated text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import UnionType
from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    AnyFloat,
    AnyFloatConstr,
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
    VectorType,
    i1,
    i64,
)
from xdsl.dialects.llvm import FCmpPredicateFlag, LLVMPointerType, LLVMStructType
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    Block,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AnyAttr,
    AttrConstraint,
    AttrSizedOperandSegments,
    BaseAttr,
    InferenceContext,
    IRDLOperation,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    successor_def,
    traits_def,
    var_operand_def,
    var_successor_def,
)
from xdsl.irdl.constraints import VerificationContext
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, NoMemoryEffect, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

# --------------------------------------------------------------------------------------
# Helpers shared by the verifiers.
# --------------------------------------------------------------------------------------


def _shape(type_: Attribute) -> tuple[int, ...] | None:
    """The vector shape of a type, None for a scalar."""
    return type_.get_shape() if isinstance(type_, VectorType) else None


def _element(type_: Attribute) -> Attribute:
    """The element type of a vector, or the type itself."""
    return type_.get_element_type() if isinstance(type_, VectorType) else type_


_Kind = type[Attribute] | UnionType
"""A kind of element: an attribute class or a union of them (`AnyFloat`)."""


def _check_cast(op: IRDLOperation, source: _Kind, dest: _Kind) -> None:
    """LLVM's casts: source and result elements of the given kinds, same shape."""
    arg_type, res_type = op.operands[0].type, op.results[0].type
    kinds = {AnyFloat: "a float", IntegerType: "an integer"}
    checks = (("operand", arg_type, source), ("result", res_type, dest))
    for what, type_, kind in checks:
        if not isinstance(_element(type_), kind):
            raise VerifyException(
                f"{op.name} {what} must be {kinds[kind]} or a vector of them, "
                f"got {type_}"
            )
    if _shape(arg_type) != _shape(res_type):
        raise VerifyException(
            f"{op.name} operand and result must have the same vector shape, "
            f"got {arg_type} and {res_type}"
        )


# --------------------------------------------------------------------------------------
# Casts.
# --------------------------------------------------------------------------------------


class _CastOp(IRDLOperation):
    """A cast `arg : T to U`; subclasses say which element kinds T and U have."""

    SOURCE: ClassVar[_Kind]
    DEST: ClassVar[_Kind]

    arg = operand_def()
    result = result_def()

    traits = traits_def(NoMemoryEffect())

    assembly_format = "$arg attr-dict `:` type($arg) `to` type($result)"

    def __init__(self, arg: Operation | SSAValue, result_type: Attribute):
        super().__init__(operands=[arg], result_types=[result_type])

    def verify_(self) -> None:
        _check_cast(self, self.SOURCE, self.DEST)


class _FloatToIntOp(_CastOp):
    """`fptosi` and `fptoui`: from float elements to integer ones."""

    SOURCE: ClassVar = AnyFloat
    DEST: ClassVar = IntegerType


@irdl_op_definition
class FPToSIOp(_FloatToIntOp):
    """LLVM `fptosi`: a float (or vector of floats) to a signed integer, rounding
    toward zero; the result is poison when the value does not fit."""

    name = "llvmx.fptosi"


@irdl_op_definition
class FPToUIOp(_FloatToIntOp):
    """LLVM `fptoui`: a float (or vector of floats) to an unsigned integer, rounding
    toward zero; the result is poison when the value does not fit."""

    name = "llvmx.fptoui"


@irdl_op_definition
class UIToFPOp(_CastOp):
    """LLVM `uitofp`: an integer (or vector of integers), read as unsigned, to a
    float."""

    name = "llvmx.uitofp"
    SOURCE: ClassVar = IntegerType
    DEST: ClassVar = AnyFloat


@irdl_op_definition
class AddrSpaceCastOp(IRDLOperation):
    """LLVM `addrspacecast`: a pointer in one address space to a pointer to the same
    memory in another (for example global `!llvm.ptr<1>` to generic `!llvm.ptr<4>`)."""

    name = "llvmx.addrspacecast"

    arg = operand_def(LLVMPointerType)
    result = result_def(LLVMPointerType)

    traits = traits_def(NoMemoryEffect())

    assembly_format = "$arg attr-dict `:` type($arg) `to` type($result)"

    def __init__(self, arg: Operation | SSAValue, result_type: Attribute):
        super().__init__(operands=[arg], result_types=[result_type])


# --------------------------------------------------------------------------------------
# Vectors and poison.
# --------------------------------------------------------------------------------------


@irdl_op_definition
class ExtractElementOp(IRDLOperation):
    """LLVM `extractelement`: the element of a 1-D vector at a (dynamic) index; poison
    when the index is out of range."""

    name = "llvmx.extractelement"

    ELEMENT: ClassVar = VarConstraint("ELEMENT", AnyAttr())

    vector = operand_def(VectorType.constr(ELEMENT))
    index = operand_def(IntegerType)
    result = result_def(ELEMENT)

    traits = traits_def(NoMemoryEffect())

    assembly_format = (
        "$vector `[` $index `:` type($index) `]` attr-dict `:` type($vector)"
    )

    def __init__(self, vector: Operation | SSAValue, index: Operation | SSAValue):
        vector_type = SSAValue.get(vector).type
        assert isinstance(vector_type, VectorType)
        super().__init__(
            operands=[vector, index], result_types=[vector_type.get_element_type()]
        )

    def verify_(self) -> None:
        vector_type = self.vector.type
        assert isinstance(vector_type, VectorType)
        if vector_type.get_num_dims() != 1:
            raise VerifyException(
                f"llvmx.extractelement takes a 1-D vector, got {vector_type}"
            )


@irdl_op_definition
class FreezeOp(IRDLOperation):
    """LLVM `freeze`: the operand if it is neither undef nor poison, otherwise an
    arbitrary but fixed value of its type."""

    name = "llvmx.freeze"

    T: ClassVar = VarConstraint("T", AnyAttr())

    val = operand_def(T)
    res = result_def(T)

    traits = traits_def(NoMemoryEffect())

    assembly_format = "$val attr-dict `:` type($val)"

    def __init__(self, val: Operation | SSAValue):
        super().__init__(operands=[val], result_types=[SSAValue.get(val).type])


FCMP_PREDICATES = tuple(
    flag.value for flag in FCmpPredicateFlag if not flag.value.startswith("_")
)
"""LLVM's `fcmp` conditions but the constant ones (`false`, `true`)."""


@irdl_op_definition
class FCmpOp(IRDLOperation):
    """LLVM `fcmp` on vectors of floats, lane by lane: a vector of i1. (xDSL 0.74's
    `llvm.fcmp` takes scalars only, and `arith.cmpf` gives one `i1` for vectors.)
    The vectoriser (`run-vecz`) uses it for comparisons that differ between
    lanes."""

    name = "llvmx.fcmp"

    T: ClassVar = VarConstraint("T", VectorType.constr(AnyFloatConstr))

    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(VectorType.constr(BaseAttr(IntegerType)))
    predicate = prop_def(StringAttr)

    traits = traits_def(Pure())

    assembly_format = (
        "$predicate $lhs `,` $rhs attr-dict `:` type($lhs) `to` type($res)"
    )

    def __init__(
        self, predicate: str, lhs: Operation | SSAValue, rhs: Operation | SSAValue
    ):
        lhs_type = SSAValue.get(lhs).type
        assert isinstance(lhs_type, VectorType)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[VectorType(i1, lhs_type.get_shape())],
            properties={"predicate": StringAttr(predicate)},
        )

    def verify_(self) -> None:
        if self.predicate.data not in FCMP_PREDICATES:
            raise VerifyException(
                f"llvmx.fcmp: unknown predicate '{self.predicate.data}' (known: "
                f"{', '.join(FCMP_PREDICATES)})"
            )
        if _element(self.res.type) != i1 or _shape(self.res.type) != _shape(
            self.lhs.type
        ):
            raise VerifyException(
                f"llvmx.fcmp gives a vector of i1 of its operands' shape, got "
                f"{self.res.type} for {self.lhs.type}"
            )


@irdl_op_definition
class SelectOp(IRDLOperation):
    """LLVM `select` with a vector of conditions: lane `i` of the result is lane `i`
    of `true_value` where lane `i` of `cond` is 1, of `false_value` otherwise.
    (xDSL 0.74's `llvm.select` and `arith.select` take one `i1` only.) The
    vectoriser (`run-vecz`) uses it for the results of a divergent `scf.if`."""

    name = "llvmx.select"

    T: ClassVar = VarConstraint("T", AnyAttr())

    cond = operand_def(VectorType.constr(BaseAttr(IntegerType)))
    true_value = operand_def(T)
    false_value = operand_def(T)
    res = result_def(T)

    traits = traits_def(Pure())

    assembly_format = (
        "$cond `,` $true_value `,` $false_value attr-dict `:` type($cond) `,` "
        "type($res)"
    )

    def __init__(
        self,
        cond: Operation | SSAValue,
        true_value: Operation | SSAValue,
        false_value: Operation | SSAValue,
    ):
        true_value = SSAValue.get(true_value)
        super().__init__(
            operands=[cond, true_value, false_value], result_types=[true_value.type]
        )

    def verify_(self) -> None:
        cond, res = self.cond.type, self.res.type
        if _element(cond) != i1 or _shape(cond) != _shape(res):
            raise VerifyException(
                f"llvmx.select takes a vector of i1 of the result's shape, got "
                f"{cond} for {res}"
            )


# --------------------------------------------------------------------------------------
# Control flow.
# --------------------------------------------------------------------------------------


@irdl_op_definition
class SwitchOp(IRDLOperation):
    """LLVM `switch`: branches to the successor of the case equal to `flag`, or to the
    default successor, passing each its operands.

    The syntax is MLIR's `llvm.switch`:

        llvmx.switch %flag : i32, ^default(%x : f32) [
          0: ^bb1,
          5: ^bb2(%y : i64)
        ]

    Case values are a dense array of the flag's type (`case_values`); the operands
    of the cases are concatenated in `case_operands`, `case_operand_segments` says
    how many belong to each case.
    """

    name = "llvmx.switch"

    flag = operand_def(IntegerType)
    default_operands = var_operand_def()
    case_operands = var_operand_def()

    case_values = prop_def(DenseArrayBase[IntegerType])
    case_operand_segments = prop_def(DenseArrayBase[IntegerType])

    default_block = successor_def()
    case_blocks = var_successor_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    traits = traits_def(IsTerminator(), Pure())

    def __init__(
        self,
        flag: Operation | SSAValue,
        default_block: Block,
        default_operands: Sequence[Operation | SSAValue] = (),
        case_values: Sequence[int] = (),
        case_blocks: Sequence[Block] = (),
        case_operands: Sequence[Sequence[Operation | SSAValue]] | None = None,
    ):
        flag_type = SSAValue.get(flag).type
        assert isinstance(flag_type, IntegerType)
        if case_operands is None:
            case_operands = [()] * len(case_blocks)
        super().__init__(
            operands=[flag, default_operands, [v for o in case_operands for v in o]],
            properties={
                "case_values": DenseArrayBase.from_list(flag_type, case_values),
                "case_operand_segments": DenseArrayBase.from_list(
                    IntegerType(32), [len(o) for o in case_operands]
                ),
            },
            successors=[default_block, case_blocks],
        )

    @property
    def cases(self) -> list[tuple[int, Block, Sequence[SSAValue]]]:
        """(value, successor, operands) of each case, in order."""
        result: list[tuple[int, Block, Sequence[SSAValue]]] = []
        start = 0
        values = self.case_values.get_values()
        segments = self.case_operand_segments.get_values()
        for value, block, size in zip(values, self.case_blocks, segments, strict=True):
            result.append((int(value), block, self.case_operands[start : start + size]))
            start += size
        return result

    def verify_(self) -> None:
        if self.flag.type not in (IntegerType(32), IntegerType(64)):
            raise VerifyException(
                f"llvmx.switch flag must be i32 or i64, got {self.flag.type}"
            )
        if self.case_values.elt_type != self.flag.type:
            raise VerifyException(
                f"llvmx.switch case values must have the flag's type {self.flag.type},"
                f" got {self.case_values.elt_type}"
            )
        values = self.case_values.get_values()
        segments = self.case_operand_segments.get_values()
        if not len(values) == len(segments) == len(self.case_blocks):
            raise VerifyException(
                f"llvmx.switch needs one case value and one operand segment per "
                f"case successor: {len(values)} values, {len(segments)} segments, "
                f"{len(self.case_blocks)} successors"
            )
        if sum(segments) != len(self.case_operands):
            raise VerifyException(
                "llvmx.switch case operand segments do not add up to the number of "
                "case operands"
            )
        if len(set(values)) != len(values):
            raise VerifyException("llvmx.switch case values must be unique")

    # MLIR's syntax (a successor list with a leading integer per case) is not
    # expressible in the declarative format, hence the hand-written parse/print.

    @staticmethod
    def _parse_target(
        parser: Parser,
    ) -> tuple[Block, list[SSAValue]]:
        block = parser.parse_successor()
        if parser.parse_optional_punctuation("(") is None:
            return block, []
        pos = parser.pos
        names = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_type
        )
        parser.parse_punctuation(")")
        return block, list(parser.resolve_operands(names, types, pos))

    @staticmethod
    def _print_target(
        printer: Printer, block: Block, operands: Sequence[SSAValue]
    ) -> None:
        printer.print_block_name(block)
        if operands:
            with printer.in_parens():
                printer.print_list(operands, printer.print_operand)
                printer.print_string(" : ")
                printer.print_list([o.type for o in operands], printer.print_attribute)

    @classmethod
    def parse(cls, parser: Parser) -> SwitchOp:
        flag = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        flag_type = parser.parse_type()
        if not isinstance(flag_type, IntegerType):
            parser.raise_error(f"llvmx.switch flag must be an integer, got {flag_type}")
        flag_value = parser.resolve_operand(flag, flag_type)
        parser.parse_punctuation(",")
        default_block, default_operands = cls._parse_target(parser)

        def parse_case() -> tuple[int, Block, list[SSAValue]]:
            value = parser.parse_integer()
            parser.parse_punctuation(":")
            return value, *cls._parse_target(parser)

        cases = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parse_case)
        attributes = parser.parse_optional_attr_dict()
        op = cls(
            flag_value,
            default_block,
            default_operands,
            [c[0] for c in cases],
            [c[1] for c in cases],
            [c[2] for c in cases],
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.flag)
        printer.print_string(" : ")
        printer.print_attribute(self.flag.type)
        printer.print_string(", ")
        self._print_target(printer, self.default_block, self.default_operands)
        printer.print_string(" [")
        with printer.indented():
            for i, (value, block, operands) in enumerate(self.cases):
                printer.print_string("," if i else "")
                printer.print_string("\n")
                printer.print_string(f"{value}: ")
                self._print_target(printer, block, operands)
        printer.print_string("\n]" if self.case_blocks else "]")
        printer.print_op_attributes(self.attributes)


# --------------------------------------------------------------------------------------
# Atomics.
# --------------------------------------------------------------------------------------


class AtomicOrdering(StrEnum):
    """LLVM's atomic orderings, weakest first (`monotonic` is C++'s relaxed)."""

    NOT_ATOMIC = "not_atomic"
    UNORDERED = "unordered"
    MONOTONIC = "monotonic"
    ACQUIRE = "acquire"
    RELEASE = "release"
    ACQ_REL = "acq_rel"
    SEQ_CST = "seq_cst"

    def is_stronger_than(self, other: AtomicOrdering) -> bool:
        """Whether `self` gives every guarantee `other` gives, and more. `acquire`
        and `release` are incomparable."""
        if {self, other} == {AtomicOrdering.ACQUIRE, AtomicOrdering.RELEASE}:
            return False
        order = list(AtomicOrdering)
        return order.index(self) > order.index(other)


@irdl_attr_definition
class AtomicOrderingAttr(EnumAttribute[AtomicOrdering], SpacedOpaqueSyntaxAttribute):
    """An atomic ordering: `#llvmx<ordering seq_cst>`, printed `seq_cst` in ops."""

    name = "llvmx.ordering"


class AtomicBinOp(StrEnum):
    """The operations of LLVM's `atomicrmw`."""

    XCHG = "xchg"
    ADD = "add"
    SUB = "sub"
    AND = "and"
    OR = "or"
    XOR = "xor"
    MAX = "max"
    MIN = "min"
    UMAX = "umax"
    UMIN = "umin"
    FADD = "fadd"
    FSUB = "fsub"
    FMAX = "fmax"
    FMIN = "fmin"

    @property
    def is_float(self) -> bool:
        return self in (
            AtomicBinOp.FADD,
            AtomicBinOp.FSUB,
            AtomicBinOp.FMAX,
            AtomicBinOp.FMIN,
        )


@irdl_attr_definition
class AtomicBinOpAttr(EnumAttribute[AtomicBinOp], SpacedOpaqueSyntaxAttribute):
    """An `atomicrmw` operation: `#llvmx<bin_op add>`, printed `add` in ops."""

    name = "llvmx.bin_op"


OrderingLike = AtomicOrdering | str | AtomicOrderingAttr
"""What the ops' constructors take as an ordering: `ordering_attr` makes it an
attribute."""

FENCE_ORDERINGS = (
    AtomicOrdering.ACQUIRE,
    AtomicOrdering.RELEASE,
    AtomicOrdering.ACQ_REL,
    AtomicOrdering.SEQ_CST,
)
"""The orderings a fence may have (LLVM rejects the weaker ones)."""


def ordering_attr(value: OrderingLike) -> AtomicOrderingAttr:
    """The ordering attribute of an ordering, its name or the attribute itself."""
    if isinstance(value, AtomicOrderingAttr):
        return value
    return AtomicOrderingAttr(AtomicOrdering(value))


def _alignment(alignment: int | None) -> IntegerAttr[I64] | None:
    return None if alignment is None else IntegerAttr(alignment, i64)


def _check_alignment(op: IRDLOperation, alignment: IntegerAttr | None) -> None:
    if alignment is None:
        return
    value = alignment.value.data
    if value <= 0 or value & (value - 1):
        raise VerifyException(
            f"{op.name} alignment must be a power of two, got {value}"
        )


def _check_atomic_ordering(op: IRDLOperation, ordering: AtomicOrdering) -> None:
    """An atomic memory access is at least `monotonic` (LLVM rejects the others)."""
    if ordering in (AtomicOrdering.NOT_ATOMIC, AtomicOrdering.UNORDERED):
        raise VerifyException(
            f"{op.name} ordering must be at least monotonic, got {ordering}"
        )


@irdl_op_definition
class FenceOp(IRDLOperation):
    """LLVM `fence`: orders the memory accesses of this thread around it with the
    given ordering (acquire, release, acq_rel or seq_cst)."""

    name = "llvmx.fence"

    ordering = prop_def(AtomicOrderingAttr)

    assembly_format = "$ordering attr-dict"

    def __init__(self, ordering: OrderingLike):
        super().__init__(properties={"ordering": ordering_attr(ordering)})

    def verify_(self) -> None:
        if self.ordering.data not in FENCE_ORDERINGS:
            raise VerifyException(
                "llvmx.fence ordering must be acquire, release, acq_rel or seq_cst, "
                f"got {self.ordering.data}"
            )


@irdl_op_definition
class AtomicRMWOp(IRDLOperation):
    """LLVM `atomicrmw`: atomically replaces `*ptr` by `*ptr <bin_op> value` and
    returns the old value."""

    name = "llvmx.atomicrmw"

    T: ClassVar = VarConstraint("T", AnyAttr())

    ptr = operand_def(LLVMPointerType)
    val = operand_def(T)
    res = result_def(T)

    bin_op = prop_def(AtomicBinOpAttr)
    ordering = prop_def(AtomicOrderingAttr)
    alignment = opt_prop_def(IntegerAttr[I64])

    assembly_format = (
        "$bin_op $ptr `,` $val $ordering (`align` $alignment^)? attr-dict "
        "`:` type($ptr) `,` type($val)"
    )

    def __init__(
        self,
        bin_op: AtomicBinOp | str,
        ptr: Operation | SSAValue,
        val: Operation | SSAValue,
        ordering: OrderingLike,
        alignment: int | None = None,
    ):
        super().__init__(
            operands=[ptr, val],
            result_types=[SSAValue.get(val).type],
            properties={
                "bin_op": AtomicBinOpAttr(AtomicBinOp(bin_op)),
                "ordering": ordering_attr(ordering),
                "alignment": _alignment(alignment),
            },
        )

    def verify_(self) -> None:
        _check_atomic_ordering(self, self.ordering.data)
        _check_alignment(self, self.alignment)
        bin_op, type_ = self.bin_op.data, self.val.type
        if bin_op.is_float:
            if not isinstance(type_, AnyFloat):
                raise VerifyException(
                    f"llvmx.atomicrmw {bin_op} needs a float value, got {type_}"
                )
        elif bin_op is AtomicBinOp.XCHG:
            if not isinstance(type_, IntegerType | AnyFloat | LLVMPointerType):
                raise VerifyException(
                    "llvmx.atomicrmw xchg needs an integer, float or pointer value, "
                    f"got {type_}"
                )
        elif not isinstance(type_, IntegerType):
            raise VerifyException(
                f"llvmx.atomicrmw {bin_op} needs an integer value, got {type_}"
            )


@dataclass(frozen=True)
class _CmpXchgResult(AttrConstraint[LLVMStructType]):
    """`!llvm.struct<(T, i1)>` where T is the value type, so the declarative format
    can infer cmpxchg's result type from its operands."""

    value: VarConstraint

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        if not isinstance(attr, LLVMStructType) or len(attr.types) != 2:
            raise VerifyException(f"expected !llvm.struct<(T, i1)>, got {attr}")
        self.value.verify(attr.types.data[0], constraint_context)
        if attr.types.data[1] != i1:
            raise VerifyException(f"expected !llvm.struct<(T, i1)>, got {attr}")

    def can_infer(self, var_constraint_names) -> bool:
        return self.value.can_infer(var_constraint_names)

    def infer(self, context: InferenceContext) -> LLVMStructType:
        return LLVMStructType.from_type_list([self.value.infer(context), i1])

    def mapping_type_vars(self, type_var_mapping) -> _CmpXchgResult:
        return self


@irdl_op_definition
class CmpXchgOp(IRDLOperation):
    """LLVM `cmpxchg`: atomically stores `new` into `*ptr` if `*ptr` equals `cmp`;
    returns the old value and whether the exchange happened. A `weak` cmpxchg may
    fail spuriously."""

    name = "llvmx.cmpxchg"

    T: ClassVar = VarConstraint("T", BaseAttr(IntegerType) | BaseAttr(LLVMPointerType))

    ptr = operand_def(LLVMPointerType)
    cmp = operand_def(T)
    new = operand_def(T)
    res = result_def(_CmpXchgResult(T))

    success_ordering = prop_def(AtomicOrderingAttr)
    failure_ordering = prop_def(AtomicOrderingAttr)
    weak = opt_prop_def(UnitAttr)
    alignment = opt_prop_def(IntegerAttr[I64])

    assembly_format = (
        "(`weak` $weak^)? $ptr `,` $cmp `,` $new $success_ordering $failure_ordering"
        " (`align` $alignment^)? attr-dict `:` type($ptr) `,` type($cmp)"
    )

    def __init__(
        self,
        ptr: Operation | SSAValue,
        cmp: Operation | SSAValue,
        new: Operation | SSAValue,
        success_ordering: OrderingLike,
        failure_ordering: OrderingLike,
        weak: bool = False,
        alignment: int | None = None,
    ):
        value_type = SSAValue.get(cmp).type
        super().__init__(
            operands=[ptr, cmp, new],
            result_types=[LLVMStructType.from_type_list([value_type, i1])],
            properties={
                "success_ordering": ordering_attr(success_ordering),
                "failure_ordering": ordering_attr(failure_ordering),
                "weak": UnitAttr() if weak else None,
                "alignment": _alignment(alignment),
            },
        )

    def verify_(self) -> None:
        success, failure = self.success_ordering.data, self.failure_ordering.data
        _check_atomic_ordering(self, success)
        _check_atomic_ordering(self, failure)
        _check_alignment(self, self.alignment)
        if failure in (AtomicOrdering.RELEASE, AtomicOrdering.ACQ_REL):
            raise VerifyException(
                f"llvmx.cmpxchg failure ordering cannot be {failure} (a failed "
                "cmpxchg does not store)"
            )
        if failure.is_stronger_than(success):
            raise VerifyException(
                f"llvmx.cmpxchg failure ordering {failure} is stronger than the "
                f"success ordering {success}"
            )


# --------------------------------------------------------------------------------------
# Memory accesses and intrinsics.
# --------------------------------------------------------------------------------------


@irdl_op_definition
class VolatileLoadOp(IRDLOperation):
    """LLVM `load volatile` (MLIR's `llvm.load volatile`): a load that is neither
    removed, merged, duplicated nor reordered with the other volatile accesses. A
    load that is not volatile is xDSL's `llvm.load`, which has no volatile flag;
    a volatile store is `llvm.store` with its `volatile_` flag.

        %v = llvmx.load volatile %p align 4 : !llvm.ptr<1> -> i32
    """

    name = "llvmx.load"

    ptr = operand_def(LLVMPointerType)
    res = result_def()

    alignment = opt_prop_def(IntegerAttr[I64])

    assembly_format = (
        "`volatile` $ptr (`align` $alignment^)? attr-dict `:` type($ptr) `->` "
        "type($res)"
    )

    def __init__(
        self,
        ptr: SSAValue | Operation,
        result_type: Attribute,
        alignment: int | None = None,
    ):
        super().__init__(
            operands=[ptr],
            result_types=[result_type],
            properties={"alignment": _alignment(alignment)},
        )

    def verify_(self) -> None:
        _check_alignment(self, self.alignment)


@irdl_op_definition
class MemcpyOp(IRDLOperation):
    """LLVM's `llvm.memcpy` intrinsic (MLIR's `llvm.intr.memcpy`, non-volatile):
    copies `len` bytes from `src` to `dst`; the two ranges do not overlap. The
    pointers may be in any address spaces; `len` is an integer."""

    name = "llvmx.memcpy"

    dst = operand_def(LLVMPointerType)
    src = operand_def(LLVMPointerType)
    len = operand_def(IntegerType)

    assembly_format = (
        "$dst `,` $src `,` $len attr-dict `:` type($dst) `,` type($src) `,` type($len)"
    )

    def __init__(
        self,
        dst: SSAValue | Operation,
        src: SSAValue | Operation,
        len: SSAValue | Operation,
    ):
        super().__init__(operands=[dst, src, len])


# --------------------------------------------------------------------------------------
# Types.
# --------------------------------------------------------------------------------------


@irdl_attr_definition
class PackedStructType(ParametrizedAttribute, TypeAttribute):
    """LLVM's packed struct `<{ i8, i32 }>`: its members one right after the other,
    without padding, and the struct aligned to 1 (LangRef, "Structure Type"). xDSL
    0.74's `!llvm.struct` has no packed form (its `bitmask` parameter is a TODO)
    and cannot be subclassed (it is final), so xDSL's ops do not index into this
    one: a `getelementptr` steps over whole packed structs only, as clang's do
    (it reaches a member by a byte offset, `getelementptr i8, ptr %p, i64 4`).

        !llvmx.packed_struct<[vector<4xi64>, i32, i32]>
    """

    name = "llvmx.packed_struct"

    types: ArrayAttr[Attribute]

    def __init__(self, types: Sequence[Attribute]):
        super().__init__(ArrayAttr(types))


Llvmx = Dialect(
    "llvmx",
    [
        FPToSIOp,
        FPToUIOp,
        UIToFPOp,
        AddrSpaceCastOp,
        ExtractElementOp,
        FreezeOp,
        FCmpOp,
        SelectOp,
        SwitchOp,
        FenceOp,
        AtomicRMWOp,
        CmpXchgOp,
        VolatileLoadOp,
        MemcpyOp,
    ],
    [AtomicOrderingAttr, AtomicBinOpAttr, PackedStructType],
)
