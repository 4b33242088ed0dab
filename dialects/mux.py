"""The `mux` dialect: one op per ComputeMux builtin.

Every op is the builtin of `mux-compiler-spec.rst` (section "Builtins") whose name,
without the `__mux_` prefix and lower-cased, is the op's name:
`__mux_get_global_id` is `mux.get_global_id`, `__mux_dma_read_2D` is `mux.dma_read_2d`.
Group collectives are one op per (group, collective), with the operation (add, fadd,
...) as an enum property, because the spec's overloads differ only by that and by the
operand type.

Besides the builtins a kernel calls, the dialect has the reference implementation's
internal setters (`mux.set_local_id`, ...), with which `work-item-loops` sets the
work-item state that the queries read.

Verifier messages start with the rule they enforce (the `RULE_*` constants below). Each
op lists its rules in `RULES`; `scripts/gen_dialect_docs.py` publishes them in
`docs/dialect.md`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects.builtin import (
    I32,
    AnyFloat,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    VectorType,
    i1,
    i32,
)
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.dialects.utils import EnumAttribute
from xdsl.dialects.utils.bit_enum_attribute import BitEnumAttribute
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AnyAttr,
    BaseAttr,
    IRDLOperation,
    Operand,
    OptOperand,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

# --------------------------------------------------------------------------------------
# Verifier rules. A verifier message is "<rule>: <what was found>".
# --------------------------------------------------------------------------------------

RULE_ONE_ORDERING = "MemSemantics sets at most one ordering"
RULE_SCALAR_OPERAND = "work-group and sub-group builtins only take scalar values"
RULE_VEC_OPERAND = "vec-group builtins take a scalar or a 1-D vector"
RULE_OP_FITS_TYPE = (
    "the group operation fits the element type (integer operations on integers, "
    "floating-point operations on floats, logical operations on i1)"
)
RULE_BOOL_OPERAND = "any/all builtins take i1 operands"
RULE_VEC_RESULT = (
    "a vec-group reduce or broadcast returns the element type, a vec-group scan "
    "returns the operand type"
)
RULE_DMA_READ_SPACES = (
    "a DMA read copies from global memory (address space 1) to local memory "
    "(address space 3)"
)
RULE_DMA_WRITE_SPACES = (
    "a DMA write copies from local memory (address space 3) to global memory "
    "(address space 1)"
)
RULE_BARRIER_ID = "a barrier identifier is a non-negative i32"

# The spec's address spaces (ir-conventions.rst).
ADDRESS_SPACE_PRIVATE = 0
ADDRESS_SPACE_GLOBAL = 1
ADDRESS_SPACE_CONSTANT = 2
ADDRESS_SPACE_LOCAL = 3
ADDRESS_SPACE_GENERIC = 4

POINTER_CONSTRAINT = BaseAttr(MemRefType) | BaseAttr(LLVMPointerType)
"""A pointer operand: a memref, whose memory space is the address space, or an
`!llvm.ptr<N>` (see `address_space_of`)."""


def address_space_of(type_: Attribute) -> int | None:
    """The spec's address space of a memref or `!llvm.ptr` type.

    A memref's memory space is the address-space number (`memref<4xf32, 3>` is local
    memory); no memory space is the private space 0. Returns None for other types and
    for memory spaces that are not integers.
    """
    if isinstance(type_, MemRefType):
        space = type_.memory_space
    elif isinstance(type_, LLVMPointerType):
        space = type_.addr_space
    else:
        return None
    if isinstance(space, NoneAttr):
        return ADDRESS_SPACE_PRIVATE
    if isinstance(space, IntegerAttr):
        return space.value.data
    data = getattr(space, "data", None)
    return data if isinstance(data, int) else None


# --------------------------------------------------------------------------------------
# Enums. Their numeric codes are the spec's, so a lowered builtin call carries the
# constants the spec documents.
# --------------------------------------------------------------------------------------


class MemScope(StrEnum):
    """`enum MemScope` of the spec: which invocations observe the ordering."""

    CROSS_DEVICE = "cross_device"
    DEVICE = "device"
    WORK_GROUP = "work_group"
    SUB_GROUP = "sub_group"
    WORK_ITEM = "work_item"

    @property
    def code(self) -> int:
        return _MEM_SCOPE_CODES[self]


_MEM_SCOPE_CODES = {
    MemScope.CROSS_DEVICE: 0,
    MemScope.DEVICE: 1,
    MemScope.WORK_GROUP: 2,
    MemScope.SUB_GROUP: 3,
    MemScope.WORK_ITEM: 4,
}


@irdl_attr_definition
class MemScopeAttr(EnumAttribute[MemScope], SpacedOpaqueSyntaxAttribute):
    """A memory scope: `#mux<scope work_group>`, printed `work_group` inside ops."""

    name = "mux.scope"

    @property
    def code(self) -> int:
        """The spec's `MemScope` value (0 cross-device ... 4 work-item)."""
        return self.data.code

    @staticmethod
    def from_code(code: int) -> MemScopeAttr:
        for scope, value in _MEM_SCOPE_CODES.items():
            if value == code:
                return MemScopeAttr(scope)
        raise VerifyException(f"{code} is not a MemScope value (0 to 4)")


class MemSemantics(StrEnum):
    """The flags of the spec's `enum MemSemantics`.

    The first four are orderings (at most one may be set; none is `relaxed`), the last
    three are the kinds of memory the barrier controls (a bit field).
    """

    ACQUIRE = "acquire"
    RELEASE = "release"
    ACQ_REL = "acq_rel"
    SEQ_CST = "seq_cst"
    SUB_GROUP_MEMORY = "sub_group_memory"
    WORK_GROUP_MEMORY = "work_group_memory"
    CROSS_WORK_GROUP_MEMORY = "cross_work_group_memory"

    @property
    def code(self) -> int:
        return _MEM_SEMANTICS_CODES[self]

    @property
    def is_ordering(self) -> bool:
        return self in MEM_ORDERINGS


_MEM_SEMANTICS_CODES = {
    MemSemantics.ACQUIRE: 0x2,
    MemSemantics.RELEASE: 0x4,
    MemSemantics.ACQ_REL: 0x8,
    MemSemantics.SEQ_CST: 0x10,
    MemSemantics.SUB_GROUP_MEMORY: 0x80,
    MemSemantics.WORK_GROUP_MEMORY: 0x100,
    MemSemantics.CROSS_WORK_GROUP_MEMORY: 0x200,
}
MEM_ORDERINGS = (
    MemSemantics.ACQUIRE,
    MemSemantics.RELEASE,
    MemSemantics.ACQ_REL,
    MemSemantics.SEQ_CST,
)
RELAXED = "relaxed"


@irdl_attr_definition
class MemSemanticsAttr(BitEnumAttribute[MemSemantics], SpacedOpaqueSyntaxAttribute):
    """Memory semantics: one ordering (or `relaxed`) and the kinds of memory.

    Printed `acq_rel | work_group_memory` inside an op, `#mux<semantics relaxed>`
    on its own; `relaxed` is no ordering bit.
    """

    name = "mux.semantics"

    def verify(self) -> None:
        orderings = self.orderings
        if len(orderings) > 1:
            names = ", ".join(o.value for o in orderings)
            raise VerifyException(f"{RULE_ONE_ORDERING}, got {names}")

    @property
    def orderings(self) -> tuple[MemSemantics, ...]:
        return tuple(o for o in MEM_ORDERINGS if o in self.data)

    @property
    def ordering(self) -> MemSemantics | None:
        """The ordering, or None for relaxed."""
        orderings = self.orderings
        return orderings[0] if orderings else None

    @property
    def memory(self) -> frozenset[MemSemantics]:
        """The kinds of memory the barrier controls."""
        return frozenset(f for f in self.data if not f.is_ordering)

    @property
    def code(self) -> int:
        """The spec's `MemSemantics` bit pattern."""
        return sum(flag.code for flag in self.data)

    @staticmethod
    def from_code(code: int) -> MemSemanticsAttr:
        flags = {f for f, bits in _MEM_SEMANTICS_CODES.items() if code & bits}
        unknown = code & ~sum(_MEM_SEMANTICS_CODES.values())
        if unknown:
            raise VerifyException(f"{code:#x} has bits that are not MemSemantics")
        return MemSemanticsAttr(frozenset(flags))

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> frozenset[MemSemantics]:
        flags: list[MemSemantics | None] = []
        while True:
            if parser.parse_optional_keyword(RELAXED) is not None:
                flags.append(None)
            else:
                flags.append(MemSemantics(parser.parse_str_enum(MemSemantics)))
            if parser.parse_optional_punctuation("|") is None:
                break
        orderings = [f.value if f else RELAXED for f in flags if not f or f.is_ordering]
        if len(orderings) > 1:
            parser.raise_error(f"{RULE_ONE_ORDERING}, got {', '.join(orderings)}")
        return frozenset(f for f in flags if f is not None)

    def print_parameter(self, printer: Printer) -> None:
        words = [] if self.ordering is not None else [RELAXED]
        words += [flag.value for flag in MemSemantics if flag in self.data]
        printer.print_list(words, printer.print_string, " | ")


class GroupOperation(StrEnum):
    """The operation of a reduce or scan collective."""

    ADD = "add"
    FADD = "fadd"
    MUL = "mul"
    FMUL = "fmul"
    SMIN = "smin"
    UMIN = "umin"
    FMIN = "fmin"
    SMAX = "smax"
    UMAX = "umax"
    FMAX = "fmax"
    AND = "and"
    OR = "or"
    XOR = "xor"
    LOGICAL_AND = "logical_and"
    LOGICAL_OR = "logical_or"
    LOGICAL_XOR = "logical_xor"

    @property
    def is_float(self) -> bool:
        return self in (self.FADD, self.FMUL, self.FMIN, self.FMAX)

    @property
    def is_logical(self) -> bool:
        return self in (self.LOGICAL_AND, self.LOGICAL_OR, self.LOGICAL_XOR)


@irdl_attr_definition
class GroupOperationAttr(EnumAttribute[GroupOperation], SpacedOpaqueSyntaxAttribute):
    """The operation of a reduce or scan: `#mux<group_op fadd>`, `fadd` in an op."""

    name = "mux.group_op"


class WorkItemOrder(StrEnum):
    """`"mux-work-item-order"`: the dimensions from innermost to outermost loop."""

    XYZ = "xyz"
    XZY = "xzy"
    YXZ = "yxz"
    YZX = "yzx"
    ZXY = "zxy"
    ZYX = "zyx"

    @property
    def dimensions(self) -> tuple[int, int, int]:
        """The dimensions, innermost first: `zyx` is (2, 1, 0)."""
        first, second, third = ("xyz".index(c) for c in self.value)
        return first, second, third


@irdl_attr_definition
class WorkItemOrderAttr(EnumAttribute[WorkItemOrder], SpacedOpaqueSyntaxAttribute):
    """A work-item order: `#mux<work_item_order zyx>`."""

    name = "mux.work_item_order"


class BarrierSchedule(StrEnum):
    """`"mux-barrier-schedule"`: the order of work-items after a barrier.

    `unordered` lets the compiler choose; `once` runs the region for one work-item
    only; `linear` runs the work-items in local linear order.
    """

    UNORDERED = "unordered"
    ONCE = "once"
    LINEAR = "linear"


@irdl_attr_definition
class BarrierScheduleAttr(EnumAttribute[BarrierSchedule], SpacedOpaqueSyntaxAttribute):
    """A barrier schedule: `#mux<barrier_schedule linear>`, `linear` in an op."""

    name = "mux.barrier_schedule"


@irdl_attr_definition
class DmaEventType(ParametrizedAttribute, TypeAttribute):
    """`__mux_dma_event_t`: the event of a DMA transfer, waited on by `mux.dma_wait`."""

    name = "mux.dma_event"


# --------------------------------------------------------------------------------------
# Type predicates shared by the verifiers.
# --------------------------------------------------------------------------------------


def _is_scalar(type_: Attribute) -> bool:
    return isinstance(type_, IntegerType | IndexType | AnyFloat)


def _element_type(type_: Attribute) -> Attribute:
    return type_.element_type if isinstance(type_, VectorType) else type_


def _check_scalar(type_: Attribute) -> None:
    if not _is_scalar(type_):
        raise VerifyException(f"{RULE_SCALAR_OPERAND}, got {type_}")


def _check_vec_operand(type_: Attribute) -> None:
    if isinstance(type_, VectorType):
        if type_.get_num_dims() == 1 and _is_scalar(type_.element_type):
            return
    elif _is_scalar(type_):
        return
    raise VerifyException(f"{RULE_VEC_OPERAND}, got {type_}")


def _check_bool(type_: Attribute) -> None:
    if _element_type(type_) != i1:
        raise VerifyException(f"{RULE_BOOL_OPERAND}, got {type_}")


def _check_op_fits(op: GroupOperation, type_: Attribute) -> None:
    element = _element_type(type_)
    if op.is_logical:
        fits = element == i1
    elif op.is_float:
        fits = isinstance(element, AnyFloat)
    else:
        fits = isinstance(element, IntegerType | IndexType)
    if not fits:
        raise VerifyException(f"{RULE_OP_FITS_TYPE}: '{op.value}' on {type_}")


def _check_barrier_id(id_: IntegerAttr) -> None:
    if id_.value.data < 0:
        raise VerifyException(f"{RULE_BARRIER_ID}, got {id_.value.data}")


# --------------------------------------------------------------------------------------
# Work-item queries.
# --------------------------------------------------------------------------------------


class _RankedQueryOp(IRDLOperation):
    """A query of one dimension: `%r = mux.<query> %dim` with an i32 dimension."""

    RULES: ClassVar[tuple[str, ...]] = ()
    dim = operand_def(i32)
    result = result_def(IndexType)
    assembly_format = "$dim attr-dict"
    traits = traits_def(Pure())

    def __init__(self, dim: SSAValue | Operation):
        super().__init__(operands=[dim], result_types=[IndexType()])


class _QueryOp(IRDLOperation):
    """A query without operands, of a fixed result type given by RESULT_TYPE."""

    RULES: ClassVar[tuple[str, ...]] = ()
    RESULT_TYPE: ClassVar[Attribute]
    traits = traits_def(Pure())
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[self.RESULT_TYPE])


class _I1QueryOp(_QueryOp):
    RESULT_TYPE: ClassVar[Attribute] = i1
    result = result_def(i1)


class _I32QueryOp(_QueryOp):
    RESULT_TYPE: ClassVar[Attribute] = i32
    result = result_def(i32)


class _IndexQueryOp(_QueryOp):
    RESULT_TYPE: ClassVar[Attribute] = IndexType()
    result = result_def(IndexType)


@irdl_op_definition
class IsFtzOp(_I1QueryOp):
    """`i1 __mux_isftz()`: whether the device flushes floating-point values to 0."""

    name = "mux.isftz"


@irdl_op_definition
class UseFastOp(_I1QueryOp):
    """`i1 __mux_usefast()`: whether maths builtins should use faster, but less
    accurate, algorithms."""

    name = "mux.usefast"


@irdl_op_definition
class IsEmbeddedProfileOp(_I1QueryOp):
    """`i1 __mux_isembeddedprofile()`: whether the device implements OpenCL 1.2
    Embedded Profile."""

    name = "mux.isembeddedprofile"


@irdl_op_definition
class GetGlobalSizeOp(_RankedQueryOp):
    """`size_t __mux_get_global_size(i32 %i)`: the number of global invocations for
    the `%i`'th dimension."""

    name = "mux.get_global_size"


@irdl_op_definition
class GetGlobalIdOp(_RankedQueryOp):
    """`size_t __mux_get_global_id(i32 %i)`: the unique global invocation identifier
    for the `%i`'th dimension."""

    name = "mux.get_global_id"


@irdl_op_definition
class GetGlobalOffsetOp(_RankedQueryOp):
    """`size_t __mux_get_global_offset(i32 %i)`: the global offset (in invocations)
    for the `%i`'th dimension."""

    name = "mux.get_global_offset"


@irdl_op_definition
class GetLocalSizeOp(_RankedQueryOp):
    """`size_t __mux_get_local_size(i32 %i)`: the number of local invocations within
    a work-group for the `%i`'th dimension."""

    name = "mux.get_local_size"


@irdl_op_definition
class GetLocalIdOp(_RankedQueryOp):
    """`size_t __mux_get_local_id(i32 %i)`: the unique local invocation identifier for
    the `%i`'th dimension."""

    name = "mux.get_local_id"


@irdl_op_definition
class GetSubGroupIdOp(_I32QueryOp):
    """`i32 __mux_get_sub_group_id()`: the sub-group ID."""

    name = "mux.get_sub_group_id"


@irdl_op_definition
class GetNumGroupsOp(_RankedQueryOp):
    """`size_t __mux_get_num_groups(i32 %i)`: the number of work-groups for the
    `%i`'th dimension."""

    name = "mux.get_num_groups"


@irdl_op_definition
class GetNumSubGroupsOp(_I32QueryOp):
    """`i32 __mux_get_num_sub_groups()`: the number of sub-groups for the current
    work-group."""

    name = "mux.get_num_sub_groups"


@irdl_op_definition
class GetMaxSubGroupSizeOp(_I32QueryOp):
    """`i32 __mux_get_max_sub_group_size()`: the maximum sub-group size in the
    current kernel."""

    name = "mux.get_max_sub_group_size"


@irdl_op_definition
class GetSubGroupSizeOp(_I32QueryOp):
    """`i32 __mux_get_sub_group_size()`: the number of invocations in the
    sub-group."""

    name = "mux.get_sub_group_size"


@irdl_op_definition
class GetSubGroupLocalIdOp(_I32QueryOp):
    """`i32 __mux_get_sub_group_local_id()`: the unique invocation ID within the
    current sub-group."""

    name = "mux.get_sub_group_local_id"


@irdl_op_definition
class GetGroupIdOp(_RankedQueryOp):
    """`size_t __mux_get_group_id(i32 %i)`: the unique work-group identifier for the
    `%i`'th dimension."""

    name = "mux.get_group_id"


@irdl_op_definition
class GetWorkDimOp(_I32QueryOp):
    """`i32 __mux_get_work_dim()`: the number of dimensions in use."""

    name = "mux.get_work_dim"


@irdl_op_definition
class GetGlobalLinearIdOp(_IndexQueryOp):
    """`size_t __mux_get_global_linear_id()`: `(id(2) - offset(2)) * size(1) *
    size(0) + (id(1) - offset(1)) * size(0) + (id(0) - offset(0))` with the global
    ids, offsets and sizes."""

    name = "mux.get_global_linear_id"


@irdl_op_definition
class GetLocalLinearIdOp(_IndexQueryOp):
    """`size_t __mux_get_local_linear_id()`: `local_id(2) * local_size(1) *
    local_size(0) + local_id(1) * local_size(0) + local_id(0)`."""

    name = "mux.get_local_linear_id"


@irdl_op_definition
class GetEnqueuedLocalSizeOp(_RankedQueryOp):
    """`size_t __mux_get_enqueued_local_size(i32 %i)`: the enqueued work-group size
    in the `%i`'th dimension; for uniform work-groups, the same as
    `__mux_get_local_size`."""

    name = "mux.get_enqueued_local_size"


# --------------------------------------------------------------------------------------
# Setters. Not builtins a kernel calls: the reference implementation's internal
# `__mux_set_*` builtins, with which `work-item-loops` "sets the local ID at each loop
# level" (compiler-pipeline-overview.txt) before `define-mux-builtins` turns them into
# stores to the MuxWorkItemInfo struct.
# --------------------------------------------------------------------------------------


@irdl_op_definition
class SetLocalIdOp(IRDLOperation):
    """`void __mux_set_local_id(i32 %i, size_t %id)`: sets the local invocation
    identifier of the `%i`'th dimension for the work-item about to run."""

    name = "mux.set_local_id"
    RULES: ClassVar[tuple[str, ...]] = ()
    dim = operand_def(i32)
    value = operand_def(IndexType)
    assembly_format = "$dim `,` $value attr-dict"

    def __init__(self, dim: SSAValue | Operation, value: SSAValue | Operation):
        super().__init__(operands=[dim, value])


class _I32SetterOp(IRDLOperation):
    RULES: ClassVar[tuple[str, ...]] = ()
    value = operand_def(i32)
    assembly_format = "$value attr-dict"

    def __init__(self, value: SSAValue | Operation):
        super().__init__(operands=[value])


@irdl_op_definition
class SetSubGroupIdOp(_I32SetterOp):
    """`void __mux_set_sub_group_id(i32 %id)`: sets the sub-group ID of the
    work-item about to run."""

    name = "mux.set_sub_group_id"


@irdl_op_definition
class SetNumSubGroupsOp(_I32SetterOp):
    """`void __mux_set_num_sub_groups(i32 %n)`: sets the number of sub-groups of the
    work-group."""

    name = "mux.set_num_sub_groups"


@irdl_op_definition
class SetMaxSubGroupSizeOp(_I32SetterOp):
    """`void __mux_set_max_sub_group_size(i32 %n)`: sets the maximum sub-group size
    of the kernel."""

    name = "mux.set_max_sub_group_size"


# --------------------------------------------------------------------------------------
# Memory and control barriers.
# --------------------------------------------------------------------------------------


def _semantics_attr(
    semantics: MemSemanticsAttr | Iterable[MemSemantics] | int,
) -> MemSemanticsAttr:
    if isinstance(semantics, MemSemanticsAttr):
        return semantics
    if isinstance(semantics, int):
        return MemSemanticsAttr.from_code(semantics)
    return MemSemanticsAttr(frozenset(semantics))


def _scope_attr(scope: MemScopeAttr | MemScope | int) -> MemScopeAttr:
    if isinstance(scope, MemScopeAttr):
        return scope
    if isinstance(scope, int):
        return MemScopeAttr.from_code(scope)
    return MemScopeAttr(scope)


@irdl_op_definition
class MemBarrierOp(IRDLOperation):
    """`void __mux_mem_barrier(i32 %scope, i32 %semantics)`: controls the order in
    which memory accesses are observed (a fence), for accesses issued by this
    invocation and observed by another invocation within the memory `%scope`;
    `%semantics` gives the kind of memory and the ordering."""

    name = "mux.mem_barrier"
    RULES: ClassVar[tuple[str, ...]] = (RULE_ONE_ORDERING,)
    scope = prop_def(MemScopeAttr)
    semantics = prop_def(MemSemanticsAttr)
    assembly_format = "`scope` `(` $scope `)` `semantics` `(` $semantics `)` attr-dict"

    def __init__(
        self,
        scope: MemScopeAttr | MemScope | int,
        semantics: MemSemanticsAttr | Iterable[MemSemantics] | int,
    ):
        super().__init__(
            properties={
                "scope": _scope_attr(scope),
                "semantics": _semantics_attr(semantics),
            }
        )


class _ControlBarrierOp(IRDLOperation):
    """`void __mux_*_group_barrier(i32 %id, i32 %scope, i32 %semantics)`."""

    RULES: ClassVar[tuple[str, ...]] = (RULE_BARRIER_ID, RULE_ONE_ORDERING)
    id = prop_def(IntegerAttr[I32])
    scope = prop_def(MemScopeAttr)
    semantics = prop_def(MemSemanticsAttr)
    schedule = opt_prop_def(BarrierScheduleAttr)
    assembly_format = (
        "`id` `(` $id `)` `scope` `(` $scope `)` `semantics` `(` $semantics `)` "
        "(`schedule` `(` $schedule^ `)`)? attr-dict"
    )

    def __init__(
        self,
        id: int,
        scope: MemScopeAttr | MemScope | int,
        semantics: MemSemanticsAttr | Iterable[MemSemantics] | int,
        schedule: BarrierSchedule | None = None,
    ):
        properties: dict[str, Attribute] = {
            "id": IntegerAttr(id, i32),
            "scope": _scope_attr(scope),
            "semantics": _semantics_attr(semantics),
        }
        if schedule is not None:
            properties["schedule"] = BarrierScheduleAttr(schedule)
        super().__init__(properties=properties)

    def verify_(self) -> None:
        _check_barrier_id(self.id)


@irdl_op_definition
class WorkGroupBarrierOp(_ControlBarrierOp):
    """`void __mux_work_group_barrier(i32 %id, i32 %scope, i32 %semantics)`: waits
    for the other invocations of the work-group to reach this point (a control
    barrier), and may atomically provide a memory barrier with the same semantics as
    `__mux_mem_barrier`. Implementations must make `%id` unique themselves
    (`prepare-barriers`). The optional `schedule` is the `"mux-barrier-schedule"`
    of the call site."""

    name = "mux.work_group_barrier"


@irdl_op_definition
class SubGroupBarrierOp(_ControlBarrierOp):
    """`void __mux_sub_group_barrier(i32 %id, i32 %scope, i32 %semantics)`: waits for
    the other invocations of the sub-group to reach this point (a control barrier),
    and may atomically provide a memory barrier with the same semantics as
    `__mux_mem_barrier`. The optional `schedule` is the `"mux-barrier-schedule"`
    of the call site."""

    name = "mux.sub_group_barrier"


# --------------------------------------------------------------------------------------
# Group collectives. Work-group ops carry the barrier id as `id(N)`; work-group and
# sub-group ops take scalars; vec-group ops take scalars or 1-D vectors.
# --------------------------------------------------------------------------------------


class _AnyAllOp(IRDLOperation):
    """any/all: true if any/all of the group's operands are true."""

    value = operand_def()
    result = result_def(i1)


class _ScalarAnyAllOp(_AnyAllOp):
    RULES: ClassVar[tuple[str, ...]] = ()  # the operand type i1 is the rule
    value = operand_def(i1)
    assembly_format = "$value attr-dict"

    def __init__(self, value: SSAValue | Operation):
        super().__init__(operands=[value], result_types=[i1])


class _WorkGroupAnyAllOp(_AnyAllOp):
    RULES: ClassVar[tuple[str, ...]] = (RULE_BARRIER_ID,)
    id = prop_def(IntegerAttr[I32])
    value = operand_def(i1)
    assembly_format = "`id` `(` $id `)` $value attr-dict"

    def __init__(self, id: int, value: SSAValue | Operation):
        super().__init__(
            operands=[value],
            result_types=[i1],
            properties={"id": IntegerAttr(id, i32)},
        )

    def verify_(self) -> None:
        _check_barrier_id(self.id)


class _VecAnyAllOp(_AnyAllOp):
    RULES: ClassVar[tuple[str, ...]] = (RULE_VEC_OPERAND, RULE_BOOL_OPERAND)
    assembly_format = "$value attr-dict `:` type($value)"

    def __init__(self, value: SSAValue | Operation):
        super().__init__(operands=[value], result_types=[i1])

    def verify_(self) -> None:
        _check_vec_operand(self.value.type)
        _check_bool(self.value.type)


@irdl_op_definition
class SubGroupAnyOp(_ScalarAnyAllOp):
    """`i1 __mux_sub_group_any_i1(i1 %x)`: true if any invocation of the sub-group
    passes true."""

    name = "mux.sub_group_any"


@irdl_op_definition
class SubGroupAllOp(_ScalarAnyAllOp):
    """`i1 __mux_sub_group_all_i1(i1 %x)`: true if every invocation of the sub-group
    passes true."""

    name = "mux.sub_group_all"


@irdl_op_definition
class WorkGroupAnyOp(_WorkGroupAnyAllOp):
    """`i1 __mux_work_group_any_i1(i32 %id, i1 %x)`: true if any invocation of the
    work-group passes true."""

    name = "mux.work_group_any"


@irdl_op_definition
class WorkGroupAllOp(_WorkGroupAnyAllOp):
    """`i1 __mux_work_group_all_i1(i32 %id, i1 %x)`: true if every invocation of the
    work-group passes true."""

    name = "mux.work_group_all"


@irdl_op_definition
class VecGroupAnyOp(_VecAnyAllOp):
    """`i1 __mux_vec_group_any_v4i1(<4 x i1> %x)`: true if any lane is true."""

    name = "mux.vec_group_any"


@irdl_op_definition
class VecGroupAllOp(_VecAnyAllOp):
    """`i1 __mux_vec_group_all_v4i1(<4 x i1> %x)`: true if every lane is true."""

    name = "mux.vec_group_all"


@irdl_op_definition
class SubGroupBroadcastOp(IRDLOperation):
    """`T __mux_sub_group_broadcast(T %val, i32 %sg_lid)`: every invocation of the
    sub-group gets the `%val` of the invocation whose sub-group linear ID is
    `%sg_lid`."""

    name = "mux.sub_group_broadcast"
    RULES: ClassVar[tuple[str, ...]] = (RULE_SCALAR_OPERAND,)
    T: ClassVar = VarConstraint("T", AnyAttr())
    value = operand_def(T)
    sub_group_local_id = operand_def(i32)
    result = result_def(T)
    assembly_format = "$value `,` $sub_group_local_id attr-dict `:` type($value)"

    def __init__(
        self, value: SSAValue | Operation, sub_group_local_id: SSAValue | Operation
    ):
        value = SSAValue.get(value)
        super().__init__(
            operands=[value, sub_group_local_id], result_types=[value.type]
        )

    def verify_(self) -> None:
        _check_scalar(self.value.type)


@irdl_op_definition
class WorkGroupBroadcastOp(IRDLOperation):
    """`T __mux_work_group_broadcast(i32 %id, T %val, size_t %lidx, size_t %lidy,
    size_t %lidz)`: every invocation of the work-group gets the `%val` of the
    invocation at local id (x, y, z). Unused indices must be zero."""

    name = "mux.work_group_broadcast"
    RULES: ClassVar[tuple[str, ...]] = (RULE_BARRIER_ID, RULE_SCALAR_OPERAND)
    T: ClassVar = VarConstraint("T", AnyAttr())
    id = prop_def(IntegerAttr[I32])
    value = operand_def(T)
    local_id_x = operand_def(IndexType)
    local_id_y = operand_def(IndexType)
    local_id_z = operand_def(IndexType)
    result = result_def(T)
    assembly_format = (
        "`id` `(` $id `)` $value `,` $local_id_x `,` $local_id_y `,` $local_id_z "
        "attr-dict `:` type($value)"
    )

    def __init__(
        self,
        id: int,
        value: SSAValue | Operation,
        local_id: Sequence[SSAValue | Operation],
    ):
        value = SSAValue.get(value)
        super().__init__(
            operands=[value, *local_id],
            result_types=[value.type],
            properties={"id": IntegerAttr(id, i32)},
        )

    def verify_(self) -> None:
        _check_barrier_id(self.id)
        _check_scalar(self.value.type)


@irdl_op_definition
class VecGroupBroadcastOp(IRDLOperation):
    """`T __mux_vec_group_broadcast(<N x T> %val, i32 %vec_id)`: the lane `%vec_id`
    of `%val`, for every lane of the vector group."""

    name = "mux.vec_group_broadcast"
    RULES: ClassVar[tuple[str, ...]] = (RULE_VEC_OPERAND, RULE_VEC_RESULT)
    value = operand_def()
    lane = operand_def(i32)
    result = result_def()
    assembly_format = "$value `,` $lane attr-dict `:` type($value) `->` type($result)"

    def __init__(self, value: SSAValue | Operation, lane: SSAValue | Operation):
        value = SSAValue.get(value)
        super().__init__(
            operands=[value, lane], result_types=[_element_type(value.type)]
        )

    def verify_(self) -> None:
        _check_vec_operand(self.value.type)
        _check_vec_result(self.value.type, self.result.type, scan=False)


def _check_vec_result(operand: Attribute, result: Attribute, scan: bool) -> None:
    expected = operand if scan else _element_type(operand)
    if result != expected:
        raise VerifyException(f"{RULE_VEC_RESULT}: expected {expected}, got {result}")


class _ReduceScanOp(IRDLOperation):
    """reduce/scan: the group operation over the operands of the group's invocations.

    Inclusive scans cover every invocation up to this one; exclusive scans start from
    the operation's identity and stop before this invocation.
    """

    RULES: ClassVar[tuple[str, ...]] = (RULE_SCALAR_OPERAND, RULE_OP_FITS_TYPE)
    IS_SCAN: ClassVar[bool] = False
    T: ClassVar = VarConstraint("T", AnyAttr())
    op = prop_def(GroupOperationAttr)
    value = operand_def(T)
    result = result_def(T)
    assembly_format = "$op $value attr-dict `:` type($value)"

    def __init__(self, op: GroupOperation, value: SSAValue | Operation):
        value = SSAValue.get(value)
        super().__init__(
            operands=[value],
            result_types=[value.type],
            properties={"op": GroupOperationAttr(op)},
        )

    def verify_(self) -> None:
        _check_scalar(self.value.type)
        _check_op_fits(self.op.data, self.value.type)


class _WorkGroupReduceScanOp(_ReduceScanOp):
    RULES: ClassVar[tuple[str, ...]] = (
        RULE_BARRIER_ID,
        RULE_SCALAR_OPERAND,
        RULE_OP_FITS_TYPE,
    )
    id = prop_def(IntegerAttr[I32])
    assembly_format = "$op `id` `(` $id `)` $value attr-dict `:` type($value)"

    def __init__(self, op: GroupOperation, id: int, value: SSAValue | Operation):
        value = SSAValue.get(value)
        IRDLOperation.__init__(
            self,
            operands=[value],
            result_types=[value.type],
            properties={"op": GroupOperationAttr(op), "id": IntegerAttr(id, i32)},
        )

    def verify_(self) -> None:
        _check_barrier_id(self.id)
        super().verify_()


class _VecGroupReduceScanOp(IRDLOperation):
    RULES: ClassVar[tuple[str, ...]] = (
        RULE_VEC_OPERAND,
        RULE_OP_FITS_TYPE,
        RULE_VEC_RESULT,
    )
    IS_SCAN: ClassVar[bool] = False
    op = prop_def(GroupOperationAttr)
    value = operand_def()
    result = result_def()
    assembly_format = "$op $value attr-dict `:` type($value) `->` type($result)"

    def __init__(self, op: GroupOperation, value: SSAValue | Operation):
        value = SSAValue.get(value)
        result = value.type if self.IS_SCAN else _element_type(value.type)
        super().__init__(
            operands=[value],
            result_types=[result],
            properties={"op": GroupOperationAttr(op)},
        )

    def verify_(self) -> None:
        _check_vec_operand(self.value.type)
        _check_op_fits(self.op.data, self.value.type)
        _check_vec_result(self.value.type, self.result.type, scan=self.IS_SCAN)


@irdl_op_definition
class SubGroupReduceOp(_ReduceScanOp):
    """`T __mux_sub_group_reduce_<op>(T %val)`: the operation over the `%val` of
    every invocation of the sub-group."""

    name = "mux.sub_group_reduce"


@irdl_op_definition
class SubGroupScanInclusiveOp(_ReduceScanOp):
    """`T __mux_sub_group_scan_inclusive_<op>(T %val)`: the operation over the `%val`
    of the sub-group's invocations up to and including this one."""

    name = "mux.sub_group_scan_inclusive"
    IS_SCAN: ClassVar[bool] = True


@irdl_op_definition
class SubGroupScanExclusiveOp(_ReduceScanOp):
    """`T __mux_sub_group_scan_exclusive_<op>(T %val)`: the operation over the
    identity and the `%val` of the sub-group's invocations before this one."""

    name = "mux.sub_group_scan_exclusive"
    IS_SCAN: ClassVar[bool] = True


@irdl_op_definition
class WorkGroupReduceOp(_WorkGroupReduceScanOp):
    """`T __mux_work_group_reduce_<op>(i32 %id, T %val)`: the operation over the
    `%val` of every invocation of the work-group."""

    name = "mux.work_group_reduce"


@irdl_op_definition
class WorkGroupScanInclusiveOp(_WorkGroupReduceScanOp):
    """`T __mux_work_group_scan_inclusive_<op>(i32 %id, T %val)`: the operation over
    the `%val` of the work-group's invocations up to and including this one (in local
    linear order)."""

    name = "mux.work_group_scan_inclusive"
    IS_SCAN: ClassVar[bool] = True


@irdl_op_definition
class WorkGroupScanExclusiveOp(_WorkGroupReduceScanOp):
    """`T __mux_work_group_scan_exclusive_<op>(i32 %id, T %val)`: the operation over
    the identity and the `%val` of the work-group's invocations before this one (in
    local linear order)."""

    name = "mux.work_group_scan_exclusive"
    IS_SCAN: ClassVar[bool] = True


@irdl_op_definition
class VecGroupReduceOp(_VecGroupReduceScanOp):
    """`T __mux_vec_group_reduce_<op>(<N x T> %val)`: the operation over the lanes of
    `%val`; a scalar `%val` is a group of one."""

    name = "mux.vec_group_reduce"


@irdl_op_definition
class VecGroupScanInclusiveOp(_VecGroupReduceScanOp):
    """`<N x T> __mux_vec_group_scan_inclusive_<op>(<N x T> %val)`: lane `i` of the
    result is the operation over lanes `0..i` of `%val`."""

    name = "mux.vec_group_scan_inclusive"
    IS_SCAN: ClassVar[bool] = True


@irdl_op_definition
class VecGroupScanExclusiveOp(_VecGroupReduceScanOp):
    """`<N x T> __mux_vec_group_scan_exclusive_<op>(<N x T> %val)`: lane `i` of the
    result is the operation over the identity and lanes `0..i-1` of `%val`."""

    name = "mux.vec_group_scan_exclusive"
    IS_SCAN: ClassVar[bool] = True


class _ShuffleOp(IRDLOperation):
    RULES: ClassVar[tuple[str, ...]] = (RULE_SCALAR_OPERAND,)
    T: ClassVar = VarConstraint("T", AnyAttr())
    result = result_def(T)

    def verify_(self) -> None:
        _check_scalar(self.result.type)


@irdl_op_definition
class SubGroupShuffleOp(_ShuffleOp):
    """`T __mux_sub_group_shuffle(T %val, i32 %lid)`: the `%val` of the invocation
    identified by `%lid`, which need not be the same for all invocations."""

    name = "mux.sub_group_shuffle"
    value = operand_def(_ShuffleOp.T)
    lid = operand_def(i32)
    assembly_format = "$value `,` $lid attr-dict `:` type($value)"

    def __init__(self, value: SSAValue | Operation, lid: SSAValue | Operation):
        value = SSAValue.get(value)
        super().__init__(operands=[value, lid], result_types=[value.type])


@irdl_op_definition
class SubGroupShuffleUpOp(_ShuffleOp):
    """`T __mux_sub_group_shuffle_up(T %prev, T %curr, i32 %delta)`: with the signed
    index `sub_group_local_id - %delta` and `M = max_sub_group_size`: `%curr` of the
    invocation at the index if `0 <= index < M`, `%prev` of the invocation at
    `index + M` if `-M <= index < 0`, otherwise out of range."""

    name = "mux.sub_group_shuffle_up"
    prev = operand_def(_ShuffleOp.T)
    curr = operand_def(_ShuffleOp.T)
    delta = operand_def(i32)
    assembly_format = "$prev `,` $curr `,` $delta attr-dict `:` type($curr)"

    def __init__(
        self,
        prev: SSAValue | Operation,
        curr: SSAValue | Operation,
        delta: SSAValue | Operation,
    ):
        curr = SSAValue.get(curr)
        super().__init__(operands=[prev, curr, delta], result_types=[curr.type])


@irdl_op_definition
class SubGroupShuffleDownOp(_ShuffleOp):
    """`T __mux_sub_group_shuffle_down(T %curr, T %next, i32 %delta)`: with the
    unsigned index `sub_group_local_id + %delta` and `M = max_sub_group_size`: `%curr`
    of the invocation at the index if `index < M`, `%next` of the invocation at
    `index - M` if `M <= index < 2M`, otherwise out of range."""

    name = "mux.sub_group_shuffle_down"
    curr = operand_def(_ShuffleOp.T)
    next = operand_def(_ShuffleOp.T)
    delta = operand_def(i32)
    assembly_format = "$curr `,` $next `,` $delta attr-dict `:` type($curr)"

    def __init__(
        self,
        curr: SSAValue | Operation,
        next: SSAValue | Operation,
        delta: SSAValue | Operation,
    ):
        curr = SSAValue.get(curr)
        super().__init__(operands=[curr, next, delta], result_types=[curr.type])


@irdl_op_definition
class SubGroupShuffleXorOp(_ShuffleOp):
    """`T __mux_sub_group_shuffle_xor(T %val, i32 %xor_val)`: the `%val` of the
    invocation whose sub-group local ID is this one's XOR `%xor_val`; beyond the
    maximum sub-group size it is out of range."""

    name = "mux.sub_group_shuffle_xor"
    value = operand_def(_ShuffleOp.T)
    xor_value = operand_def(i32)
    assembly_format = "$value `,` $xor_value attr-dict `:` type($value)"

    def __init__(self, value: SSAValue | Operation, xor_value: SSAValue | Operation):
        value = SSAValue.get(value)
        super().__init__(operands=[value, xor_value], result_types=[value.type])


# --------------------------------------------------------------------------------------
# DMA. Pointers are memrefs (memory space = address space) or `!llvm.ptr<N>`; sizes
# and strides are in bytes. The event operand is optional: without it the transfer
# starts a new event.
# --------------------------------------------------------------------------------------

_DMA_TYPES = "`:` type($dst) `,` type($src)"


class DmaTransferOp(IRDLOperation):
    """Shared construction and verification of the six DMA transfers.

    Subclasses define all their operands themselves, in the spec's order: xDSL puts
    a subclass's fields before its base class's. A transfer's direction (its
    `RULES`, the address spaces it copies from and to) comes from `_DmaRead` or
    `_DmaWrite`, its operands from `_Dma1DOp`, `_Dma2DOp` or `_Dma3DOp`.
    """

    if TYPE_CHECKING:
        # The operands every transfer has, declared for the type checker only:
        # defining them here would put them after the subclass's sizes (above).
        dst: Operand
        src: Operand
        width: Operand
        event: OptOperand

    RULES: ClassVar[tuple[str, ...]]
    DST_SPACE: ClassVar[int]
    SRC_SPACE: ClassVar[int]
    result = result_def(DmaEventType)

    def __init__(
        self,
        dst: SSAValue | Operation,
        src: SSAValue | Operation,
        sizes: Sequence[SSAValue | Operation],
        event: SSAValue | Operation | None,
    ):
        super().__init__(
            operands=[dst, src, *sizes, [] if event is None else [event]],
            result_types=[DmaEventType()],
        )

    def verify_(self) -> None:
        dst = address_space_of(self.dst.type)
        src = address_space_of(self.src.type)
        if (dst, src) != (self.DST_SPACE, self.SRC_SPACE):
            (rule,) = self.RULES
            raise VerifyException(
                f"{rule}: destination in {_space_name(dst)}, source in "
                f"{_space_name(src)}"
            )


class _DmaRead(DmaTransferOp):
    """A DMA read: from global memory to local memory."""

    RULES: ClassVar[tuple[str, ...]] = (RULE_DMA_READ_SPACES,)
    DST_SPACE: ClassVar[int] = ADDRESS_SPACE_LOCAL
    SRC_SPACE: ClassVar[int] = ADDRESS_SPACE_GLOBAL


class _DmaWrite(DmaTransferOp):
    """A DMA write: from local memory to global memory."""

    RULES: ClassVar[tuple[str, ...]] = (RULE_DMA_WRITE_SPACES,)
    DST_SPACE: ClassVar[int] = ADDRESS_SPACE_GLOBAL
    SRC_SPACE: ClassVar[int] = ADDRESS_SPACE_LOCAL


def _space_name(space: int | None) -> str:
    if space is None:
        return "no numbered address space"
    return f"address space {space}"


def _dma_format(sizes: Sequence[str]) -> str:
    """`$dst, $src, width(%w), ... (event(%e))? : type($dst), type($src)`."""
    words = " ".join(f"`{s}` `(` ${s} `)`" for s in sizes)
    return f"$dst `,` $src {words} (`event` `(` $event^ `)`)? attr-dict {_DMA_TYPES}"


class _Dma1DOp(DmaTransferOp):
    dst = operand_def(POINTER_CONSTRAINT)
    src = operand_def(POINTER_CONSTRAINT)
    width = operand_def(IndexType)
    event = opt_operand_def(DmaEventType)
    assembly_format = _dma_format(["width"])

    def __init__(
        self,
        dst: SSAValue | Operation,
        src: SSAValue | Operation,
        width: SSAValue | Operation,
        event: SSAValue | Operation | None = None,
    ):
        super().__init__(dst, src, [width], event)


class _Dma2DOp(DmaTransferOp):
    dst = operand_def(POINTER_CONSTRAINT)
    src = operand_def(POINTER_CONSTRAINT)
    width = operand_def(IndexType)
    dst_stride = operand_def(IndexType)
    src_stride = operand_def(IndexType)
    height = operand_def(IndexType)
    event = opt_operand_def(DmaEventType)
    assembly_format = _dma_format(["width", "dst_stride", "src_stride", "height"])

    def __init__(
        self,
        dst: SSAValue | Operation,
        src: SSAValue | Operation,
        width: SSAValue | Operation,
        dst_stride: SSAValue | Operation,
        src_stride: SSAValue | Operation,
        height: SSAValue | Operation,
        event: SSAValue | Operation | None = None,
    ):
        super().__init__(dst, src, [width, dst_stride, src_stride, height], event)


class _Dma3DOp(DmaTransferOp):
    dst = operand_def(POINTER_CONSTRAINT)
    src = operand_def(POINTER_CONSTRAINT)
    width = operand_def(IndexType)
    dst_line_stride = operand_def(IndexType)
    src_line_stride = operand_def(IndexType)
    height = operand_def(IndexType)
    dst_plane_stride = operand_def(IndexType)
    src_plane_stride = operand_def(IndexType)
    depth = operand_def(IndexType)
    event = opt_operand_def(DmaEventType)
    assembly_format = _dma_format(
        [
            "width",
            "dst_line_stride",
            "src_line_stride",
            "height",
            "dst_plane_stride",
            "src_plane_stride",
            "depth",
        ]
    )

    def __init__(
        self,
        dst: SSAValue | Operation,
        src: SSAValue | Operation,
        width: SSAValue | Operation,
        dst_line_stride: SSAValue | Operation,
        src_line_stride: SSAValue | Operation,
        height: SSAValue | Operation,
        dst_plane_stride: SSAValue | Operation,
        src_plane_stride: SSAValue | Operation,
        depth: SSAValue | Operation,
        event: SSAValue | Operation | None = None,
    ):
        sizes = [
            width,
            dst_line_stride,
            src_line_stride,
            height,
            dst_plane_stride,
            src_plane_stride,
            depth,
        ]
        super().__init__(dst, src, sizes, event)


@irdl_op_definition
class DmaRead1DOp(_DmaRead, _Dma1DOp):
    """`__mux_dma_read_1D(ptr addrspace(3) %dst, ptr addrspace(1) %src, size_t
    %width, event)`: reads `%width` bytes from `%src` to `%dst`; may use the event of
    a previous DMA call; returns the event used."""

    name = "mux.dma_read_1d"


@irdl_op_definition
class DmaRead2DOp(_DmaRead, _Dma2DOp):
    """`__mux_dma_read_2D(dst, src, width, dst_stride, src_stride, height, event)`:
    reads `%height` rows of `%width` bytes from `%src` to `%dst`, with `%dst_stride`
    bytes between destination rows and `%src_stride` bytes between source rows."""

    name = "mux.dma_read_2d"


@irdl_op_definition
class DmaRead3DOp(_DmaRead, _Dma3DOp):
    """`__mux_dma_read_3D(dst, src, width, dst_line_stride, src_line_stride, height,
    dst_plane_stride, src_plane_stride, depth, event)`: reads `%depth` planes of
    `%height` rows of `%width` bytes from `%src` to `%dst`, with the given byte
    strides between rows and between planes on each side."""

    name = "mux.dma_read_3d"


@irdl_op_definition
class DmaWrite1DOp(_DmaWrite, _Dma1DOp):
    """`__mux_dma_write_1D(ptr addrspace(1) %dst, ptr addrspace(3) %src, size_t
    %width, event)`: writes `%width` bytes from `%src` to `%dst`; may use the event
    of a previous DMA call; returns the event used."""

    name = "mux.dma_write_1d"


@irdl_op_definition
class DmaWrite2DOp(_DmaWrite, _Dma2DOp):
    """`__mux_dma_write_2D(dst, src, width, dst_stride, src_stride, height, event)`:
    writes `%height` rows of `%width` bytes from `%src` to `%dst`, with `%dst_stride`
    bytes between destination rows and `%src_stride` bytes between source rows."""

    name = "mux.dma_write_2d"


@irdl_op_definition
class DmaWrite3DOp(_DmaWrite, _Dma3DOp):
    """`__mux_dma_write_3D(dst, src, width, dst_line_stride, src_line_stride, height,
    dst_plane_stride, src_plane_stride, depth, event)`: writes `%depth` planes of
    `%height` rows of `%width` bytes from `%src` to `%dst`, with the given byte
    strides between rows and between planes on each side."""

    name = "mux.dma_write_3d"


@irdl_op_definition
class DmaWaitOp(IRDLOperation):
    """`void __mux_dma_wait(i32 %num_events, __mux_dma_event_t*)`: waits on the
    events of DMA reads and writes. The event list is the op's operands, so
    `%num_events` is implicit."""

    name = "mux.dma_wait"
    RULES: ClassVar[tuple[str, ...]] = ()
    events = var_operand_def(DmaEventType)
    assembly_format = "$events attr-dict"

    def __init__(self, events: Sequence[SSAValue | Operation]):
        super().__init__(operands=[events])


# --------------------------------------------------------------------------------------

QUERY_OPS: tuple[type[IRDLOperation], ...] = (
    IsFtzOp,
    UseFastOp,
    IsEmbeddedProfileOp,
    GetGlobalSizeOp,
    GetGlobalIdOp,
    GetGlobalOffsetOp,
    GetLocalSizeOp,
    GetLocalIdOp,
    GetSubGroupIdOp,
    GetNumGroupsOp,
    GetNumSubGroupsOp,
    GetMaxSubGroupSizeOp,
    GetSubGroupSizeOp,
    GetSubGroupLocalIdOp,
    GetGroupIdOp,
    GetWorkDimOp,
    GetGlobalLinearIdOp,
    GetLocalLinearIdOp,
    GetEnqueuedLocalSizeOp,
)
"""The work-item queries: after `define-mux-builtins` none of these remains."""

SUB_GROUP_QUERY_OPS: tuple[type[IRDLOperation], ...] = (
    GetSubGroupIdOp,
    GetNumSubGroupsOp,
    GetMaxSubGroupSizeOp,
    GetSubGroupSizeOp,
    GetSubGroupLocalIdOp,
)
"""The queries of the sub-group model, which `work-item-loops` sets up when a kernel
uses one."""

SETTER_OPS: tuple[type[IRDLOperation], ...] = (
    SetLocalIdOp,
    SetSubGroupIdOp,
    SetNumSubGroupsOp,
    SetMaxSubGroupSizeOp,
)
"""The work-item state setters: `define-mux-builtins` lowers them too."""

BARRIER_OPS: tuple[type[IRDLOperation], ...] = (
    MemBarrierOp,
    WorkGroupBarrierOp,
    SubGroupBarrierOp,
)

WORK_GROUP_COLLECTIVE_OPS: tuple[type[IRDLOperation], ...] = (
    WorkGroupAnyOp,
    WorkGroupAllOp,
    WorkGroupBroadcastOp,
    WorkGroupReduceOp,
    WorkGroupScanInclusiveOp,
    WorkGroupScanExclusiveOp,
)
"""The work-group collectives: each carries a barrier id, like a barrier."""

GROUP_OPS: tuple[type[IRDLOperation], ...] = (
    SubGroupAnyOp,
    SubGroupAllOp,
    SubGroupBroadcastOp,
    SubGroupReduceOp,
    SubGroupScanInclusiveOp,
    SubGroupScanExclusiveOp,
    SubGroupShuffleOp,
    SubGroupShuffleUpOp,
    SubGroupShuffleDownOp,
    SubGroupShuffleXorOp,
    *WORK_GROUP_COLLECTIVE_OPS,
    VecGroupAnyOp,
    VecGroupAllOp,
    VecGroupBroadcastOp,
    VecGroupReduceOp,
    VecGroupScanInclusiveOp,
    VecGroupScanExclusiveOp,
)

DMA_OPS: tuple[type[IRDLOperation], ...] = (
    DmaRead1DOp,
    DmaRead2DOp,
    DmaRead3DOp,
    DmaWrite1DOp,
    DmaWrite2DOp,
    DmaWrite3DOp,
    DmaWaitOp,
)

DMA_TRANSFER_OPS: tuple[type[DmaTransferOp], ...] = tuple(
    op for op in DMA_OPS if issubclass(op, DmaTransferOp)
)
"""The DMA ops but the wait: each has `dst`, `src`, `width` and `event`."""

Mux = Dialect(
    "mux",
    [*QUERY_OPS, *SETTER_OPS, *BARRIER_OPS, *GROUP_OPS, *DMA_OPS],
    [
        MemScopeAttr,
        MemSemanticsAttr,
        GroupOperationAttr,
        WorkItemOrderAttr,
        BarrierScheduleAttr,
        DmaEventType,
    ],
)
