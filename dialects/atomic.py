"""The `atomic` dialect: atomic memory accesses and fences on memrefs.

mux-compiler-spec.rst, "Atomics and Fences": the finalized LLVM IR "may contain"
`cmpxchg` (strong and weak), `atomicrmw` (`add`, `and`, `sub`, `min`, `max`,
`umin`, `umax`, `or`, `xchg`, `xor`), atomic `load` and `store`, and `fence`
(`acquire`, `release`, `acq_rel`), and these "shall not have a `syncscope`
argument". Kernels at the input level address memory through memrefs whose memory
space is the spec's address space (1 global, 3 local), so the atomics are ops on a
memref element, `%buf[%i, ...]`, one op per LLVM instruction:

    %old = atomic.rmw add monotonic %bins[%i], %one : memref<256xi32, 1>
    %old, %ok = atomic.cmpxchg weak monotonic monotonic %c[%i], %cmp, %new
        : memref<?xi32, 3>
    %v = atomic.load acquire %flag[%i] : memref<?xi32, 1>
    atomic.store release %v, %flag[%i] : memref<?xi32, 1>
    atomic.fence acq_rel

A kernel imported from LLVM IR has pointers instead: an `!llvm.ptr<N>` address
takes no indices, and its value type follows the pointer type
(`atomic.rmw add monotonic %p, %v : !llvm.ptr<1>, i32`). In the syntax of each op
(its `SYNTAX`), `address` is `$base` followed, for a memref, by `[` `$indices` `]`,
and `types` is the memref type, or the pointer type `,` the value type.

The spec lists the monotonic ordering only (acquire/release/acq_rel for fences),
the minimum a ComputeMux target must handle; the ops accept every ordering LLVM
allows for the instruction (the host CPU implements them all), and the floating-point
`atomicrmw` operations LLVM has besides (`fadd`, `fsub`, `fmax`, `fmin`). The
orderings and operations are `llvmx`'s attributes, since the ops become the `llvmx`
instructions of the same names (`lowering/to_llvm/atomic.py`); no op has a sync
scope, so none is emitted.

Verifier messages start with the rule they enforce (the `RULE_*` constants below).
Each op lists its rules in `RULES`; `scripts/gen_dialect_docs.py` publishes them in
`docs/atomic.md`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, NamedTuple, TypeVar

from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
    MemRefType,
    UnitAttr,
    i1,
)
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from dialects.llvmx import (
    FENCE_ORDERINGS,
    AtomicBinOp,
    AtomicBinOpAttr,
    AtomicOrdering,
    AtomicOrderingAttr,
    OrderingLike,
    ordering_attr,
)
from dialects.mux import ADDRESS_SPACE_CONSTANT, POINTER_CONSTRAINT, address_space_of

# --------------------------------------------------------------------------------------
# Verifier rules. A verifier message is "<rule>: <what was found>".
# --------------------------------------------------------------------------------------

RULE_ADDRESS = (
    "an address is a memref with one index per dimension, or an !llvm.ptr with none"
)
RULE_VALUE_TYPE = "the value type is the memref's element type"
RULE_ATOMIC_TYPE = (
    "an atomic access is to an integer, index or float of 8, 16, 32 or 64 bits"
)
RULE_OP_FITS_TYPE = (
    "the operation fits the value type: add, sub, and, or, xor, min, max, umin, "
    "umax on integers, fadd, fsub, fmax, fmin on floats, xchg on either"
)
RULE_CMPXCHG_TYPE = "cmpxchg compares integers (LLVM has no float cmpxchg)"
RULE_NOT_CONSTANT = (
    "an atomic that writes does not address constant memory (address space 2)"
)
RULE_RMW_ORDERING = (
    "an atomicrmw or cmpxchg ordering is monotonic, acquire, release, acq_rel or "
    "seq_cst"
)
RULE_FAILURE_ORDERING = (
    "a cmpxchg failure ordering is monotonic, acquire or seq_cst, and no stronger "
    "than the success ordering"
)
RULE_LOAD_ORDERING = "an atomic load is unordered, monotonic, acquire or seq_cst"
RULE_STORE_ORDERING = "an atomic store is unordered, monotonic, release or seq_cst"
RULE_FENCE_ORDERING = "a fence is acquire, release, acq_rel or seq_cst"

_O = AtomicOrdering
RMW_ORDERINGS = (_O.MONOTONIC, _O.ACQUIRE, _O.RELEASE, _O.ACQ_REL, _O.SEQ_CST)
FAILURE_ORDERINGS = (_O.MONOTONIC, _O.ACQUIRE, _O.SEQ_CST)
LOAD_ORDERINGS = (_O.UNORDERED, _O.MONOTONIC, _O.ACQUIRE, _O.SEQ_CST)
STORE_ORDERINGS = (_O.UNORDERED, _O.MONOTONIC, _O.RELEASE, _O.SEQ_CST)
# FENCE_ORDERINGS (acquire, release, acq_rel, seq_cst) is llvmx's: a fence becomes an
# llvmx.fence, whose verifier allows the same.


# --------------------------------------------------------------------------------------
# Helpers of the verifiers.
# --------------------------------------------------------------------------------------


def bit_width(type_: Attribute) -> int | None:
    """The width of an integer, index (64 bits on the host) or float type."""
    if isinstance(type_, IndexType):
        return 64
    if isinstance(type_, IntegerType):
        return type_.width.data
    if isinstance(type_, AnyFloat):
        return type_.bitwidth
    return None


def _check_ordering(
    ordering: AtomicOrderingAttr, allowed: Sequence[AtomicOrdering], rule: str
) -> None:
    if ordering.data not in allowed:
        raise VerifyException(f"{rule}, got {ordering.data}")


def _check_address(
    base: SSAValue, indices: Sequence[SSAValue], value_type: Attribute, writes: bool
) -> None:
    """The address rules, and the type of the value accessed."""
    type_ = base.type
    count = f"{len(indices)} {'index' if len(indices) == 1 else 'indices'}"
    if isinstance(type_, MemRefType):
        if len(indices) != type_.get_num_dims():
            raise VerifyException(f"{RULE_ADDRESS}, got {count} for {type_}")
        if value_type != type_.element_type:
            raise VerifyException(f"{RULE_VALUE_TYPE}, got {value_type} for {type_}")
    else:
        assert isinstance(type_, LLVMPointerType)
        if indices:
            raise VerifyException(f"{RULE_ADDRESS}, got {count} for {type_}")
    if writes and address_space_of(type_) == ADDRESS_SPACE_CONSTANT:
        raise VerifyException(f"{RULE_NOT_CONSTANT}, got {type_}")
    if bit_width(value_type) not in (8, 16, 32, 64):
        raise VerifyException(f"{RULE_ATOMIC_TYPE}, got {value_type}")


def _is_integer(type_: Attribute) -> bool:
    return isinstance(type_, IntegerType | IndexType)


# --------------------------------------------------------------------------------------
# The syntax of an address: `%buf[%i, %j] ... : memref<...>` or `%p ... : !llvm.ptr<N>,
# T`.
# --------------------------------------------------------------------------------------


def _parse_keyword(parser: Parser, what: str, allowed: Sequence[str]) -> str:
    pos = parser.pos
    word = parser.parse_identifier(f" {what} ({', '.join(allowed)})")
    if word not in allowed:
        parser.raise_error(
            f"unknown {what} '{word}', expected one of {', '.join(allowed)}",
            pos,
            parser.pos,
        )
    return word


def parse_ordering(parser: Parser, what: str = "ordering") -> AtomicOrderingAttr:
    """An ordering keyword (`monotonic`, `acquire`, ...): a diagnostic names the
    unknown ones."""
    names = [o.value for o in AtomicOrdering if o is not AtomicOrdering.NOT_ATOMIC]
    return AtomicOrderingAttr(AtomicOrdering(_parse_keyword(parser, what, names)))


def _parse_address(parser: Parser) -> tuple[UnresolvedOperand, list[UnresolvedOperand]]:
    base = parser.parse_unresolved_operand()
    indices = parser.parse_optional_comma_separated_list(
        Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
    )
    return base, indices or []


def _parse_types(parser: Parser) -> tuple[Attribute, Attribute]:
    """`: memref<...>` or `: !llvm.ptr<N>, T`: the address and value types."""
    parser.parse_punctuation(":")
    pos = parser.pos
    type_ = parser.parse_type()
    if isinstance(type_, MemRefType):
        return type_, type_.element_type
    if isinstance(type_, LLVMPointerType):
        parser.parse_punctuation(",", " after a pointer type: the value type")
        return type_, parser.parse_type()
    # The span of the type only: parser.pos is past the whitespace after it.
    end = pos + len(parser.lexer.input.content[pos : parser.pos].rstrip())
    parser.raise_error(f"{RULE_ADDRESS}, got {type_}", pos, end)


class _ParsedTail(NamedTuple):
    """The end of an op's syntax, `attr-dict : types`, and the operands parsed before
    it resolved against the types: the address, and the values (of the value type)."""

    attributes: dict[str, Attribute]
    base: SSAValue
    indices: list[SSAValue]
    values: list[SSAValue]
    value_type: Attribute


def _parse_tail(
    parser: Parser,
    base: UnresolvedOperand,
    indices: Sequence[UnresolvedOperand],
    values: Sequence[UnresolvedOperand] = (),
) -> _ParsedTail:
    attributes = parser.parse_optional_attr_dict()
    base_type, value_type = _parse_types(parser)
    return _ParsedTail(
        attributes,
        parser.resolve_operand(base, base_type),
        [parser.resolve_operand(i, IndexType()) for i in indices],
        [parser.resolve_operand(v, value_type) for v in values],
        value_type,
    )


def _parse_values(parser: Parser, count: int) -> list[UnresolvedOperand]:
    """`, %a, %b, ...`: the values after an address."""
    values = []
    for _ in range(count):
        parser.parse_punctuation(",")
        values.append(parser.parse_unresolved_operand())
    return values


_OpT = TypeVar("_OpT", bound=Operation)


def _with_attributes(op: _OpT, attributes: dict[str, Attribute]) -> _OpT:
    op.attributes.update(attributes)
    return op


def _print_address(
    printer: Printer, base: SSAValue, indices: Sequence[SSAValue]
) -> None:
    printer.print_operand(base)
    if isinstance(base.type, MemRefType):
        with printer.in_square_brackets():
            printer.print_list(indices, printer.print_operand)


def _print_tail(
    printer: Printer, op: Operation, base: SSAValue, value_type: Attribute
) -> None:
    """`attr-dict : types`: the memref type, or the pointer type `,` the value type."""
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_attribute(base.type)
    if not isinstance(base.type, MemRefType):
        printer.print_string(", ")
        printer.print_attribute(value_type)


def _value_type(base: SSAValue | Operation, given: Attribute | None) -> Attribute:
    type_ = SSAValue.get(base).type
    if isinstance(type_, MemRefType):
        return type_.element_type
    assert given is not None, "an !llvm.ptr address needs the value type"
    return given


# --------------------------------------------------------------------------------------
# The ops.
# --------------------------------------------------------------------------------------


@irdl_op_definition
class RMWOp(IRDLOperation):
    """LLVM `atomicrmw`: atomically replaces the element by `element <kind> value`
    and returns the old element. The spec: "`atomicrmw` for the following opcodes:
    `add`, `and`, `sub`, `min`, `max`, `umin`, `umax`, `or`, `xchg`, `xor` for the
    monotonic ordering only" is what a target must support; `min`/`max` compare as
    signed, `umin`/`umax` as unsigned integers.

        %old = atomic.rmw add monotonic %buf[%i], %v : memref<?xi32, 1>
    """

    name = "atomic.rmw"

    base = operand_def(POINTER_CONSTRAINT)
    indices = var_operand_def(IndexType)
    value = operand_def()
    result = result_def()

    kind = prop_def(AtomicBinOpAttr)
    ordering = prop_def(AtomicOrderingAttr)

    SYNTAX: ClassVar[str] = "$kind $ordering address `,` $value attr-dict `:` types"
    RULES: ClassVar[tuple[str, ...]] = (
        RULE_ADDRESS,
        RULE_VALUE_TYPE,
        RULE_ATOMIC_TYPE,
        RULE_OP_FITS_TYPE,
        RULE_NOT_CONSTANT,
        RULE_RMW_ORDERING,
    )

    def __init__(
        self,
        kind: AtomicBinOp | str,
        ordering: OrderingLike,
        base: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        value: SSAValue | Operation,
    ):
        super().__init__(
            operands=[base, indices, value],
            result_types=[SSAValue.get(value).type],
            properties={
                "kind": AtomicBinOpAttr(AtomicBinOp(kind)),
                "ordering": ordering_attr(ordering),
            },
        )

    def verify_(self) -> None:
        type_ = self.value.type
        if self.result.type != type_:
            raise VerifyException(
                f"{RULE_VALUE_TYPE}, got a result of {self.result.type} for a value "
                f"of {type_}"
            )
        _check_address(self.base, self.indices, type_, writes=True)
        _check_ordering(self.ordering, RMW_ORDERINGS, RULE_RMW_ORDERING)
        kind = self.kind.data
        if kind is AtomicBinOp.XCHG:
            fits = _is_integer(type_) or isinstance(type_, AnyFloat)
        elif kind.is_float:
            fits = isinstance(type_, AnyFloat)
        else:
            fits = _is_integer(type_)
        if not fits:
            raise VerifyException(f"{RULE_OP_FITS_TYPE}, got {kind} on {type_}")

    @classmethod
    def parse(cls, parser: Parser) -> RMWOp:
        kinds = [k.value for k in AtomicBinOp]
        kind = _parse_keyword(parser, "atomicrmw operation", kinds)
        ordering = parse_ordering(parser)
        base, indices = _parse_address(parser)
        tail = _parse_tail(parser, base, indices, _parse_values(parser, 1))
        op = cls(kind, ordering, tail.base, tail.indices, *tail.values)
        return _with_attributes(op, tail.attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.kind.data.value} {self.ordering.data.value} ")
        _print_address(printer, self.base, self.indices)
        printer.print_string(", ")
        printer.print_operand(self.value)
        _print_tail(printer, self, self.base, self.value.type)


@irdl_op_definition
class CmpXchgOp(IRDLOperation):
    """LLVM `cmpxchg`: atomically stores `new` into the element if it equals `cmp`;
    returns the old element and whether the exchange happened. The spec: "`cmpxchg`
    for the monotonic ordering with *strong* semantics" must be supported, "with
    *weak* semantics" may be; a `weak` cmpxchg may fail even when the element equals
    `cmp` (use it in a loop). The failure ordering applies when nothing is stored.

        %old, %ok = atomic.cmpxchg monotonic monotonic %buf[%i], %cmp, %new
            : memref<?xi32, 1>
    """

    name = "atomic.cmpxchg"

    base = operand_def(POINTER_CONSTRAINT)
    indices = var_operand_def(IndexType)
    cmp = operand_def()
    new = operand_def()
    old = result_def()
    success = result_def(i1)

    success_ordering = prop_def(AtomicOrderingAttr)
    failure_ordering = prop_def(AtomicOrderingAttr)
    weak = opt_prop_def(UnitAttr)

    SYNTAX: ClassVar[str] = (
        "(`weak`)? $success_ordering $failure_ordering address `,` $cmp `,` $new "
        "attr-dict `:` types"
    )
    RULES: ClassVar[tuple[str, ...]] = (
        RULE_ADDRESS,
        RULE_VALUE_TYPE,
        RULE_ATOMIC_TYPE,
        RULE_CMPXCHG_TYPE,
        RULE_NOT_CONSTANT,
        RULE_RMW_ORDERING,
        RULE_FAILURE_ORDERING,
    )

    def __init__(
        self,
        success_ordering: OrderingLike,
        failure_ordering: OrderingLike,
        base: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        cmp: SSAValue | Operation,
        new: SSAValue | Operation,
        weak: bool = False,
    ):
        super().__init__(
            operands=[base, indices, cmp, new],
            result_types=[SSAValue.get(cmp).type, i1],
            properties={
                "success_ordering": ordering_attr(success_ordering),
                "failure_ordering": ordering_attr(failure_ordering),
                "weak": UnitAttr() if weak else None,
            },
        )

    def verify_(self) -> None:
        type_ = self.cmp.type
        if self.new.type != type_ or self.old.type != type_:
            raise VerifyException(
                f"{RULE_VALUE_TYPE}, got cmp {type_}, new {self.new.type} and a "
                f"result of {self.old.type}"
            )
        _check_address(self.base, self.indices, type_, writes=True)
        if not _is_integer(type_):
            raise VerifyException(f"{RULE_CMPXCHG_TYPE}, got {type_}")
        success, failure = self.success_ordering.data, self.failure_ordering.data
        _check_ordering(self.success_ordering, RMW_ORDERINGS, RULE_RMW_ORDERING)
        if failure not in FAILURE_ORDERINGS or failure.is_stronger_than(success):
            raise VerifyException(
                f"{RULE_FAILURE_ORDERING}, got {failure} on failure, {success} on "
                "success"
            )

    @classmethod
    def parse(cls, parser: Parser) -> CmpXchgOp:
        weak = parser.parse_optional_keyword("weak") is not None
        success = parse_ordering(parser, "success ordering")
        failure = parse_ordering(parser, "failure ordering")
        base, indices = _parse_address(parser)
        tail = _parse_tail(parser, base, indices, _parse_values(parser, 2))
        op = cls(success, failure, tail.base, tail.indices, *tail.values, weak=weak)
        return _with_attributes(op, tail.attributes)

    def print(self, printer: Printer) -> None:
        if self.weak is not None:
            printer.print_string(" weak")
        printer.print_string(
            f" {self.success_ordering.data.value} {self.failure_ordering.data.value} "
        )
        _print_address(printer, self.base, self.indices)
        printer.print_string(", ")
        printer.print_operand(self.cmp)
        printer.print_string(", ")
        printer.print_operand(self.new)
        _print_tail(printer, self, self.base, self.cmp.type)


@irdl_op_definition
class LoadOp(IRDLOperation):
    """LLVM `load atomic`: reads the element atomically. The spec: "`load` with the
    instruction marked as *atomic* for the monotonic ordering only" may be in the
    finalized IR.

        %v = atomic.load monotonic %buf[%i] : memref<?xi32, 1>
    """

    name = "atomic.load"

    base = operand_def(POINTER_CONSTRAINT)
    indices = var_operand_def(IndexType)
    result = result_def()

    ordering = prop_def(AtomicOrderingAttr)

    SYNTAX: ClassVar[str] = "$ordering address attr-dict `:` types"
    RULES: ClassVar[tuple[str, ...]] = (
        RULE_ADDRESS,
        RULE_VALUE_TYPE,
        RULE_ATOMIC_TYPE,
        RULE_LOAD_ORDERING,
    )

    def __init__(
        self,
        ordering: OrderingLike,
        base: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation] = (),
        result_type: Attribute | None = None,
    ):
        super().__init__(
            operands=[base, indices],
            result_types=[_value_type(base, result_type)],
            properties={"ordering": ordering_attr(ordering)},
        )

    def verify_(self) -> None:
        _check_address(self.base, self.indices, self.result.type, writes=False)
        _check_ordering(self.ordering, LOAD_ORDERINGS, RULE_LOAD_ORDERING)

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        ordering = parse_ordering(parser)
        base, indices = _parse_address(parser)
        tail = _parse_tail(parser, base, indices)
        op = cls(ordering, tail.base, tail.indices, tail.value_type)
        return _with_attributes(op, tail.attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.ordering.data.value} ")
        _print_address(printer, self.base, self.indices)
        _print_tail(printer, self, self.base, self.result.type)


@irdl_op_definition
class StoreOp(IRDLOperation):
    """LLVM `store atomic`: writes the element atomically. The spec: "`store` with
    the instruction marked as *atomic* for the monotonic ordering only" may be in
    the finalized IR.

        atomic.store monotonic %v, %buf[%i] : memref<?xi32, 1>
    """

    name = "atomic.store"

    value = operand_def()
    base = operand_def(POINTER_CONSTRAINT)
    indices = var_operand_def(IndexType)

    ordering = prop_def(AtomicOrderingAttr)

    SYNTAX: ClassVar[str] = "$ordering $value `,` address attr-dict `:` types"
    RULES: ClassVar[tuple[str, ...]] = (
        RULE_ADDRESS,
        RULE_VALUE_TYPE,
        RULE_ATOMIC_TYPE,
        RULE_NOT_CONSTANT,
        RULE_STORE_ORDERING,
    )

    def __init__(
        self,
        ordering: OrderingLike,
        value: SSAValue | Operation,
        base: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation] = (),
    ):
        super().__init__(
            operands=[value, base, indices],
            properties={"ordering": ordering_attr(ordering)},
        )

    def verify_(self) -> None:
        _check_address(self.base, self.indices, self.value.type, writes=True)
        _check_ordering(self.ordering, STORE_ORDERINGS, RULE_STORE_ORDERING)

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        ordering = parse_ordering(parser)
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        base, indices = _parse_address(parser)
        tail = _parse_tail(parser, base, indices, [value])
        (stored,) = tail.values
        op = cls(ordering, stored, tail.base, tail.indices)
        return _with_attributes(op, tail.attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.ordering.data.value} ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        _print_address(printer, self.base, self.indices)
        _print_tail(printer, self, self.base, self.value.type)


@irdl_op_definition
class FenceOp(IRDLOperation):
    """LLVM `fence`: orders this work-item's memory accesses around it. The spec:
    "`fence` for the acquire ordering, release ordering and acq_rel ordering only"
    may be in the finalized IR; `seq_cst` is accepted too (OpenCL's
    `memory_order_seq_cst` fences).

        atomic.fence acq_rel
    """

    name = "atomic.fence"

    ordering = prop_def(AtomicOrderingAttr)

    SYNTAX: ClassVar[str] = "$ordering attr-dict"
    RULES: ClassVar[tuple[str, ...]] = (RULE_FENCE_ORDERING,)

    def __init__(self, ordering: OrderingLike):
        super().__init__(properties={"ordering": ordering_attr(ordering)})

    def verify_(self) -> None:
        _check_ordering(self.ordering, FENCE_ORDERINGS, RULE_FENCE_ORDERING)

    @classmethod
    def parse(cls, parser: Parser) -> FenceOp:
        op = cls(parse_ordering(parser))
        return _with_attributes(op, parser.parse_optional_attr_dict())

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.ordering.data.value}")
        printer.print_op_attributes(self.attributes)


ATOMIC_OPS: tuple[type[IRDLOperation], ...] = (
    RMWOp,
    CmpXchgOp,
    LoadOp,
    StoreOp,
    FenceOp,
)

Atomic = Dialect("atomic", list(ATOMIC_OPS), [])
