"""The spec's function attributes and metadata, and the utilities to use them.

`mux-compiler-spec.rst` (sections "Metadata" and "Function Attributes") lists the
attributes and metadata passes use to talk to each other; `compiler-utils-passes.rst`
("Attribute Utilities", "Metadata Utilities") says they are only read and written
through utility functions, never by name. This module is those utilities.

Each piece of metadata is a `mux.` attribute on the function (or on the module) and
one accessor object here, with `get`, `set`, `drop` and `take` (the spec's
`takeIsKernel`: copy from one function to another, overwriting):

=============================  ==============================================
spec                           our attribute (accessor)
=============================  ==============================================
"mux-kernel"="entry-point"     `mux.kernel = "entry-point"`, unit for a kernel
                               (`is_kernel`, `set_is_kernel_entry_point`...)
!reqd_work_group_size          `mux.reqd_work_group_size = array<i32: 8, 4, 1>`
                               (`REQD_WORK_GROUP_SIZE`)
!max_work_dim                  `mux.max_work_dim = 2 : i32` (`MAX_WORK_DIM`)
"mux-work-item-order"          `mux.work_item_order = #mux<work_item_order zyx>`
                               (`WORK_ITEM_ORDER`)
"mux-local-mem-usage"          `mux.local_mem_usage = 1024 : i64`
                               (`LOCAL_MEM_USAGE`)
"mux-no-subgroups"             `mux.no_subgroups` (`NO_SUBGROUPS`)
"mux-degenerate-subgroups"     `mux.degenerate_subgroups` (`DEGENERATE_SUBGROUPS`)
!intel_reqd_sub_group_size     `mux.reqd_sub_group_size = 8 : i32`
                               (`REQD_SUB_GROUP_SIZE`)
"mux-orig-fn"                  `mux.orig_fn = "name"` (`ORIG_FN`)
"mux-base-fn-name"             `mux.base_fn_name = "name"` (`BASE_FN_NAME`)
!mux_scheduled_fn              `mux.scheduled_fn = array<i32: 2, 3>`
                               (`SCHEDULED_FN`)
!mux-scheduling-params         on the module: `mux.scheduling_params = [...]`
                               (`SCHEDULING_PARAMS`)
"mux-barrier-schedule"         the `schedule(...)` of a barrier op
                               (`barrier_schedule`)
(ours: no spec name)           `mux.local_vars_param = array<i64: 2, 1088, 16>`
                               (`LOCAL_VARS_PARAM`)
(ours: no spec name)           on the op giving a local variable's address:
                               `mux.local_variable = {name = "tile", offset =
                               1024 : i64, size = 64 : i64, type = ...}`
                               (`LOCAL_VARIABLE`)
(ours: no spec name)           on a load or store `replace-wgc` makes of an
                               accumulator: `mux.schedule_ordered`
                               (`SCHEDULE_ORDERED`)
(ours: no spec name)           on a load of memory the kernel never changes:
                               `mux.invariant_load` (`INVARIANT_LOAD`)
(ours: no spec name)           on a load or store `run-vecz` makes for one
                               lane: `mux.vecz_lane = 3 : i64` (`VECZ_LANE`)
(ours: checked mode)           `mux.check_record = 3 : i64` (`CHECK_RECORD`)
(ours: checked mode)           on a private word of a deferred bounds fault:
                               `mux.check_fault_word = 0 : i64`
                               (`CHECK_FAULT_WORD`); on the ops keeping it
                               in a region function: `mux.check_bookkeeping`
                               (`CHECK_BOOKKEEPING`)
(ours: checked mode)           on the module: `mux.check_sites = ["store to
                               ...", ...]` (`CHECK_SITES`),
                               `mux.check_unchecked = [...]` (`CHECK_UNCHECKED`)
LLVM's byval(<type>)           the argument attribute `mux.byval = <type>` of a
                               kernel's `!llvm.ptr` parameter (`byval_type`,
                               `set_byval_type`)
=============================  ==============================================

`verify_mux_attributes` checks every `mux.` attribute of a module; `mux-opt` runs it on
each module it reads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    UnitAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException

from dialects.mux import (
    BarrierSchedule,
    SubGroupBarrierOp,
    WorkGroupBarrierOp,
    WorkItemOrder,
    WorkItemOrderAttr,
)

T = TypeVar("T")

KERNEL = "mux.kernel"
ENTRY_POINT = "entry-point"


# --------------------------------------------------------------------------------------
# "mux-kernel": the spec's setIsKernel, setIsKernelEntryPt, isKernel, isKernelEntryPt,
# dropIsKernel, takeIsKernel.
# --------------------------------------------------------------------------------------


def is_kernel(fn: Operation) -> bool:
    """True if `fn` has a `mux.kernel` attribute (it is a kernel)."""
    return KERNEL in fn.attributes


def is_kernel_entry_point(fn: Operation) -> bool:
    """True if `fn` is a kernel entry point: `mux.kernel = "entry-point"`."""
    return fn.attributes.get(KERNEL) == StringAttr(ENTRY_POINT)


def set_is_kernel(fn: Operation) -> None:
    """Marks `fn` a kernel (`mux.kernel`), keeping an entry-point mark it has."""
    if not is_kernel(fn):
        fn.attributes[KERNEL] = UnitAttr()


def set_is_kernel_entry_point(fn: Operation) -> None:
    """Marks `fn` a kernel entry point: `mux.kernel = "entry-point"`."""
    fn.attributes[KERNEL] = StringAttr(ENTRY_POINT)


def drop_is_kernel(fn: Operation) -> None:
    """Removes the `mux.kernel` attribute of `fn`, if present."""
    fn.attributes.pop(KERNEL, None)


def take_is_kernel(to_fn: Operation, from_fn: Operation) -> None:
    """Moves the `mux.kernel` attribute of `from_fn` to `to_fn`, overwriting it.

    Does nothing if `from_fn` is not a kernel.
    """
    if KERNEL in from_fn.attributes:
        to_fn.attributes[KERNEL] = from_fn.attributes.pop(KERNEL)


KERNEL_RULE = (
    'is a unit attribute (a kernel) or a string ("entry-point": an entry point)'
)


# --------------------------------------------------------------------------------------
# The other attributes, each one typed accessor.
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MuxAttribute(Generic[T]):
    """One `mux.` attribute: its name, its Python value, its rule.

    `decode` turns the attribute into a value and raises VerifyException (the message
    completing "`<name>` ...") when the attribute is malformed; `encode` does the
    reverse and is checked by `decode`, so nothing malformed is ever written.
    """

    name: str
    rule: str
    decode: Callable[[Attribute], T]
    encode: Callable[[T], Attribute]
    on_module: bool = False
    on_any_op: bool = False
    """Not a function's or module's attribute: one any op may carry."""

    def get(self, op: Operation) -> T | None:
        """The value on `op`, or None when absent. Raises if malformed."""
        attr = op.attributes.get(self.name)
        return None if attr is None else self.check(attr)

    def set(self, op: Operation, value: T) -> None:
        attr = self.encode(value)
        self.check(attr)
        op.attributes[self.name] = attr

    def drop(self, op: Operation) -> None:
        op.attributes.pop(self.name, None)

    def take(self, to_op: Operation, from_op: Operation) -> None:
        """Moves the attribute from `from_op` to `to_op`, if `from_op` has it."""
        if self.name in from_op.attributes:
            to_op.attributes[self.name] = from_op.attributes.pop(self.name)

    def check(self, attr: Attribute) -> T:
        try:
            return self.decode(attr)
        except (VerifyException, ValueError, TypeError) as e:
            raise VerifyException(f"'{self.name}' {self.rule}, got {attr}") from e


def _ints(attr: Attribute, count: Sequence[int], low: int) -> tuple[int, ...]:
    if not isinstance(attr, DenseArrayBase) or attr.elt_type != i32:
        raise TypeError("not an i32 array")
    values = attr.get_values()
    if len(values) not in count or any(v < low for v in values):
        raise ValueError("out of range")
    return tuple(int(v) for v in values)


def _int(attr: Attribute, type_: IntegerType, low: int, high: int | None = None) -> int:
    if not isinstance(attr, IntegerAttr) or attr.type != type_:
        raise TypeError(f"not an {type_}")
    value = attr.value.data
    if value < low or (high is not None and value > high):
        raise ValueError("out of range")
    return value


def _string(attr: Attribute) -> str:
    if not isinstance(attr, StringAttr):
        raise TypeError("not a string")
    return attr.data


def _flag(attr: Attribute) -> bool:
    if not isinstance(attr, UnitAttr):
        raise TypeError("not a unit attribute")
    return True


def _work_item_order(attr: Attribute) -> WorkItemOrder:
    if not isinstance(attr, WorkItemOrderAttr):
        raise TypeError("not a work-item order")
    return attr.data


@dataclass(frozen=True)
class LocalVarsParam:
    """The value of `mux.local_vars_param`: which parameter is the buffer of the
    module-scope local variables, and the bytes and alignment it needs. (Not a
    NamedTuple: its field `index` would hide `tuple.index`.)"""

    index: int
    size: int
    alignment: int


def _local_vars_param(attr: Attribute) -> LocalVarsParam:
    if not isinstance(attr, DenseArrayBase) or attr.elt_type != i64:
        raise TypeError("not an i64 array")
    values = [int(v) for v in attr.get_values()]
    if len(values) != 3:
        raise ValueError("not three values")
    index, size, alignment = values
    if index < 0 or size < 0 or alignment < 1 or alignment & (alignment - 1):
        raise ValueError("out of range")
    return LocalVarsParam(index, size, alignment)


@dataclass(frozen=True)
class LocalVariable:
    """The value of `mux.local_variable`: a module-scope local variable's name,
    its place in the buffer of the module-scope local variables (`offset` and
    `size` in bytes) and its declared type."""

    name: str
    offset: int
    size: int
    type: Attribute


def _local_variable(attr: Attribute) -> LocalVariable:
    if not isinstance(attr, DictionaryAttr) or set(attr.data) != {
        "name",
        "offset",
        "size",
        "type",
    }:
        raise TypeError("not a dictionary of name, offset, size and type")
    fields = attr.data
    offset, size = _int(fields["offset"], i64, 0), _int(fields["size"], i64, 0)
    return LocalVariable(_string(fields["name"]), offset, size, fields["type"])


def _encode_local_variable(value: LocalVariable) -> Attribute:
    return DictionaryAttr(
        {
            "name": StringAttr(value.name),
            "offset": IntegerAttr(value.offset, i64),
            "size": IntegerAttr(value.size, i64),
            "type": value.type,
        }
    )


def _strings(attr: Attribute) -> tuple[str, ...]:
    if not isinstance(attr, ArrayAttr):
        raise TypeError("not an array")
    return tuple(_string(a) for a in attr.data)


REQD_WORK_GROUP_SIZE = MuxAttribute[tuple[int, ...]](
    "mux.reqd_work_group_size",
    "is three positive i32 sizes X, Y, Z: array<i32: x, y, z>",
    lambda a: _ints(a, (3,), 1),
    lambda v: DenseArrayBase.from_list(i32, v),
)
"""!reqd_work_group_size: the required work-group size; none if absent."""

MAX_WORK_DIM = MuxAttribute[int](
    "mux.max_work_dim",
    "is an i32 from 1 to 3",
    lambda a: _int(a, i32, 1, 3),
    lambda v: IntegerAttr(v, i32),
)
"""!max_work_dim: the maximum dimension used for work-items; 3 if absent."""

WORK_ITEM_ORDER = MuxAttribute[WorkItemOrder](
    "mux.work_item_order",
    "is a work-item order such as #mux<work_item_order zyx>",
    _work_item_order,
    WorkItemOrderAttr,
)
""""mux-work-item-order": the dimensions from innermost to outermost; xyz if absent."""


def _natural(name: str, what: str, on_any_op: bool = False) -> MuxAttribute[int]:
    """An i64 attribute >= 0 (`what`: what the value is, for the diagnostic)."""
    return MuxAttribute[int](
        name,
        what,
        lambda a: _int(a, i64, 0),
        lambda v: IntegerAttr(v, i64),
        on_any_op=on_any_op,
    )


LOCAL_MEM_USAGE = _natural(
    "mux.local_mem_usage", "is a non-negative i64 number of bytes"
)
""""mux-local-mem-usage": estimated local memory of the function, in bytes.

The spec asks for a positive integer; we also accept 0, the usage of a kernel that
uses no local memory, so that the attribute can always be present after
`compute-local-memory-usage`.
"""


def _unit(name: str, on_any_op: bool = False) -> MuxAttribute[bool]:
    """A unit attribute: present (True) or absent."""
    return MuxAttribute[bool](
        name, "is a unit attribute", _flag, lambda v: UnitAttr(), on_any_op=on_any_op
    )


NO_SUBGROUPS = _unit("mux.no_subgroups")
""""mux-no-subgroups": the function does not explicitly use sub-groups."""

DEGENERATE_SUBGROUPS = _unit("mux.degenerate_subgroups")
""""mux-degenerate-subgroups": one sub-group spans the whole work-group."""

REQD_SUB_GROUP_SIZE = MuxAttribute[int](
    "mux.reqd_sub_group_size",
    "is a positive i32",
    lambda a: _int(a, i32, 1),
    lambda v: IntegerAttr(v, i32),
)
"""!intel_reqd_sub_group_size: the required sub-group size; none if absent."""

SUB_GROUP_SIZE = MuxAttribute[int](
    "mux.sub_group_size",
    "is a positive i32",
    lambda a: _int(a, i32, 1),
    lambda v: IntegerAttr(v, i32),
)
"""Ours, no spec name: the sub-group size `work-item-loops` scheduled the kernel
with (its sub-groups are that many consecutive local linear ids, the last one
possibly fewer), when it is not the spec's default 1 or the kernel requires one.
`verify-reqd-sub-group-satisfied` compares it with `mux.reqd_sub_group_size`;
`define-mux-builtins` defines the sub-group builtins for it."""

ORIG_FN = MuxAttribute[str]("mux.orig_fn", "is a string", _string, StringAttr)
""""mux-orig-fn": the name of the original function this one wraps or replaces."""

BASE_FN_NAME = MuxAttribute[str]("mux.base_fn_name", "is a string", _string, StringAttr)
""""mux-base-fn-name": the base name new versions of the function are suffixed to."""

SCHEDULED_FN = MuxAttribute[tuple[int, ...]](
    "mux.scheduled_fn",
    "is 2 to 4 parameter indices, -1 for none: array<i32: wi, wg>",
    lambda a: _ints(a, (2, 3, 4), -1),
    lambda v: DenseArrayBase.from_list(i32, v),
)
"""!mux_scheduled_fn: the parameter indices of MuxWorkItemInfo and MuxWorkGroupInfo
(-1: no such parameter), then up to two target parameters."""

SCHEDULING_PARAMS = MuxAttribute[tuple[str, ...]](
    "mux.scheduling_params",
    "is a list of scheduling parameter names",
    _strings,
    lambda v: ArrayAttr([StringAttr(s) for s in v]),
    on_module=True,
)
"""!mux-scheduling-params (module): the scheduling parameter names of the target, which
`mux.scheduled_fn` indices refer to."""

LOCAL_VARS_PARAM = MuxAttribute[LocalVarsParam](
    "mux.local_vars_param",
    "is a parameter index, a size in bytes and a power-of-two alignment: "
    "array<i64: index, size, alignment>",
    _local_vars_param,
    lambda v: DenseArrayBase.from_list(i64, (v.index, v.size, v.alignment)),
)
"""Ours, no spec name: parameter `index` of the kernel is the buffer that holds its
module-scope local variables (`replace-module-scope-vars`), `size` bytes aligned to
`alignment`. It is hidden from the runtime: `add-kernel-wrapper` allocates it, once
per work-group, instead of reading it from `MuxPackedArgs`, and the runtime's
parameter list leaves it out. Its type is `memref<size x i8, 3>` or
`!llvm.ptr<3>`."""

LOCAL_VARIABLE = MuxAttribute[LocalVariable](
    "mux.local_variable",
    "is a dictionary {name = string, offset = i64, size = i64, type = type}",
    _local_variable,
    _encode_local_variable,
    on_any_op=True,
)
"""Ours, no spec name: on the op whose result is a module-scope local variable's
address in the buffer of those variables (`replace-module-scope-vars`'s GEP or
cast): which variable, where in the buffer, how large. Checked mode checks an
access through that address against the variable alone, and names it."""


SCHEDULE_ORDERED = _unit("mux.schedule_ordered", on_any_op=True)
"""Ours, no spec name: on a load or store of a work-group collective's
accumulator that `replace-wgc` makes after a `linear` barrier. Every work-item of
the group makes it with no barrier between them, on purpose: the barrier
schedule runs them one after the other, in local linear order, and that order is
the fold's. Checked mode's race check leaves such an access out: it is no race
under the schedule the compiler itself chose."""


INVARIANT_LOAD = _unit("mux.invariant_load", on_any_op=True)
"""Ours, no spec name: on a `memref.load` or `llvm.load` of memory nothing
changes while the kernel runs (checked mode's buffer sizes, which the runtime
writes to the check record before the launch). `convert-to-llvm` keeps it and
the backend emits LLVM's `!invariant.load`, so that LLVM may hoist the load out
of the work-item loops and merge it across stores to other memory."""


CHECK_RECORD = _natural("mux.check_record", "is a parameter index: an i64 >= 0")
"""Ours, checked mode: parameter `index` of the function is the check record
(`lowering.common.check_record`), the buffer a fault is written to."""

CHECK_FAULT_WORD = _natural(
    "mux.check_fault_word", "is a word index: an i64 >= 0", on_any_op=True
)
"""Ours, checked mode: on the `memref.alloca` of word `index` of a work-item's
deferred bounds fault in a kernel with barriers
(`lowering.common.check_record.DeferredReport`), which `work-item-loops` keeps
apart and reports from when the work-group ends."""

VECZ_LANE = _natural("mux.vecz_lane", "is a lane: an i64 >= 0", on_any_op=True)
"""Ours: on a load or store `run-vecz` makes for one lane of a packet (an
access it does lane by lane): the lane, whose work-item checked mode names
when the access faults (`check-access-bounds`)."""

CHECK_BOOKKEEPING = _unit("mux.check_bookkeeping", on_any_op=True)
"""Ours, checked mode: on the ops a region function adds to keep a
work-item's deferred bounds faults (`lowering.scheduling.region_functions`:
its words, zeroed, and their copy to the wrapper's storage if it faulted).
They change nothing for a work-item that made no fault, so the bound
functions (`lowering.scheduling.bounds`) take them as doing nothing."""

CHECK_SITES = MuxAttribute[tuple[str, ...]](
    "mux.check_sites",
    "is a list of strings",
    _strings,
    lambda v: ArrayAttr([StringAttr(s) for s in v]),
    on_module=True,
)
"""Ours, checked mode (module): what each check site of the module's kernels is,
in words (`lowering.common.check_record.add_site`); a fault names its site by
index. One table for the module, so that a kernel and its vectorised copy,
and whatever functions work-item-loops makes of them, share it."""

LOCAL_SHADOW = _natural("mux.local_shadow", "is a parameter index: an i64 >= 0")
"""Ours, checked mode: parameter `index` of the kernel is the shadow memory of
its work-group's local memory (`check-local-races`, `lowering.common.local_shadow`),
a `memref<?xi64>`. Hidden from the runtime like `mux.local_vars_param`:
`add-kernel-wrapper` allocates it per work-group, with the local memory."""

LOCAL_CELL = _natural("mux.local_cell", "is a shift: an i64 >= 0")
"""Ours, checked mode: the shadow (`mux.local_shadow`) has a word per cell of
`2**shift` bytes of local memory (`check-local-races` chose it so that every
local access of the kernel covers whole cells); `add-kernel-wrapper` sizes it."""


CHECK_UNCHECKED = MuxAttribute[tuple[str, ...]](
    "mux.check_unchecked",
    "is a list of strings",
    _strings,
    lambda v: ArrayAttr([StringAttr(s) for s in v]),
    on_module=True,
)
"""Ours, checked mode (module): the accesses `check-access-bounds` could not
check (a pointer whose base it cannot trace, ...), each with the reason."""


def _vecz_link(attr: Attribute) -> tuple[int, str]:
    if not (isinstance(attr, ArrayAttr) and len(attr.data) == 2):
        raise VerifyException("not a pair")
    width, text = attr.data
    return _int(width, i32, 1), _string(text)


def _encode_vecz_link(value: tuple[int, str]) -> Attribute:
    return ArrayAttr([IntegerAttr(value[0], i32), StringAttr(value[1])])


VECZ_BASE = MuxAttribute[tuple[int, str]](
    "mux.vecz_base",
    'is a width and the name of the vectorised function: [8 : i32, "name"]',
    _vecz_link,
    _encode_vecz_link,
)
"""!codeplay_ca_vecz.base: `run-vecz` vectorised this kernel with this width into
that function (which runs `width` work-items of dimension 0 at once)."""

VECZ_DERIVED = MuxAttribute[tuple[int, str]](
    "mux.vecz_derived",
    'is a width and the name of the scalar kernel: [8 : i32, "name"]',
    _vecz_link,
    _encode_vecz_link,
)
"""!codeplay_ca_vecz.derived: this function is `run-vecz`'s vectorisation, with this
width, of that scalar kernel."""

VECZ_FAIL = MuxAttribute[tuple[int, str]](
    "mux.vecz_fail",
    'is a width and the reason: [8 : i32, "why"]',
    _vecz_link,
    _encode_vecz_link,
)
"""!codeplay_ca_vecz.base.fail: `run-vecz` could not vectorise this kernel with this
width, for this reason."""

VECZ_ROWS = MuxAttribute[int](
    "mux.vecz_rows",
    "is a positive i32",
    lambda a: _int(a, i32, 1),
    lambda v: IntegerAttr(v, i32),
)
"""Ours, no spec name: on a vectorised function, the number of consecutive rows of
dimension 1 it runs, `width` work-items of dimension 0 in each (1 if absent)."""

VECZ_ATTRIBUTES: tuple[MuxAttribute, ...] = (
    VECZ_BASE,
    VECZ_DERIVED,
    VECZ_FAIL,
    VECZ_ROWS,
)
"""Links between a kernel and its vectorised version: they stay on their function
(new versions of a kernel do not take them)."""

FUNCTION_ATTRIBUTES: tuple[MuxAttribute, ...] = (
    REQD_WORK_GROUP_SIZE,
    MAX_WORK_DIM,
    WORK_ITEM_ORDER,
    LOCAL_MEM_USAGE,
    NO_SUBGROUPS,
    DEGENERATE_SUBGROUPS,
    REQD_SUB_GROUP_SIZE,
    SUB_GROUP_SIZE,
    ORIG_FN,
    BASE_FN_NAME,
    SCHEDULED_FN,
    LOCAL_VARS_PARAM,
    CHECK_RECORD,
    LOCAL_SHADOW,
    LOCAL_CELL,
)
OP_ATTRIBUTES: tuple[MuxAttribute, ...] = (
    LOCAL_VARIABLE,
    VECZ_LANE,
    SCHEDULE_ORDERED,
    INVARIANT_LOAD,
    CHECK_FAULT_WORD,
    CHECK_BOOKKEEPING,
)
"""Those any op may carry (`on_any_op`)."""
MODULE_ATTRIBUTES: tuple[MuxAttribute, ...] = (
    SCHEDULING_PARAMS,
    CHECK_SITES,
    CHECK_UNCHECKED,
)
_BY_NAME = {
    a.name: a
    for a in FUNCTION_ATTRIBUTES + MODULE_ATTRIBUTES + VECZ_ATTRIBUTES + OP_ATTRIBUTES
}


def work_item_order(fn: Operation) -> WorkItemOrder:
    """The work-item order of `fn`, `xyz` when it has none (as the spec allows)."""
    return WORK_ITEM_ORDER.get(fn) or WorkItemOrder.XYZ


def max_work_dim(fn: Operation) -> int:
    """The maximum work dimension of `fn`, 3 when it has none (as the spec says)."""
    return MAX_WORK_DIM.get(fn) or 3


def barrier_schedule(
    barrier: WorkGroupBarrierOp | SubGroupBarrierOp,
) -> BarrierSchedule:
    """The barrier schedule of a barrier ("typically found on call sites"), unordered
    when it has none."""
    schedule = barrier.schedule
    return BarrierSchedule.UNORDERED if schedule is None else schedule.data


# --------------------------------------------------------------------------------------
# Argument attributes.
# --------------------------------------------------------------------------------------

BYVAL = "mux.byval"
"""The argument attribute of a kernel's `!llvm.ptr` parameter that points to a
value passed by value (LLVM's `byval(<type>)`, how spir64 passes an OpenCL C
struct): the value's type. The runtime builds and checks that value
(`mux.arguments`); its alignment is the parameter's `llvm.align`. Not
`llvm.byval`: the backend would make that a typed pointer."""


def byval_type(fn: Operation, index: int) -> Attribute | None:
    """The `mux.byval` type of parameter `index` of function `fn`, None if it has
    none."""
    arg_attrs = fn.properties.get("arg_attrs")
    if not isinstance(arg_attrs, ArrayAttr) or index >= len(arg_attrs.data):
        return None
    attrs = arg_attrs.data[index]
    return attrs.data.get(BYVAL) if isinstance(attrs, DictionaryAttr) else None


def set_byval_type(fn: func.FuncOp, index: int, type_: Attribute, align: int) -> None:
    """Marks parameter `index` of `fn` a pointer to a value of `type_` passed by
    value, aligned to `align` bytes (`llvm.align`)."""
    count = len(fn.function_type.inputs.data)
    arg_attrs = fn.arg_attrs
    dicts = (
        list(arg_attrs.data) if arg_attrs is not None else [DictionaryAttr({})] * count
    )
    entries = dict(dicts[index].data)
    entries[BYVAL] = type_
    entries["llvm.align"] = IntegerAttr(align, i64)
    dicts[index] = DictionaryAttr(entries)
    fn.properties["arg_attrs"] = ArrayAttr(dicts)


def verify_mux_attributes(root: Operation) -> None:
    """Checks every `mux.` attribute under `root`: known, well-formed, well placed.

    Function attributes belong on functions (ops with a `sym_name` and a
    `function_type`), module attributes on `builtin.module`. Raises VerifyException,
    with the offending op, otherwise.
    """
    for op in root.walk():
        for name, attr in op.attributes.items():
            if not name.startswith("mux."):
                continue
            try:
                _verify_one(op, name, attr)
            except VerifyException as e:
                op.emit_error(str(e), e)


def _is_function(op: Operation) -> bool:
    """A function of any dialect: a symbol with a function type (func.func,
    llvm.func, ...)."""
    names = {*op.properties, *op.attributes}
    return "sym_name" in names and "function_type" in names


def _verify_one(op: Operation, name: str, attr: Attribute) -> None:
    if name == KERNEL:
        on_module = False
        if not isinstance(attr, UnitAttr | StringAttr):
            raise VerifyException(f"'{name}' {KERNEL_RULE}, got {attr}")
    elif (accessor := _BY_NAME.get(name)) is not None:
        on_module = accessor.on_module
        accessor.check(attr)
        if accessor.on_any_op:
            return
    else:
        known = ", ".join(sorted([KERNEL, *_BY_NAME]))
        raise VerifyException(f"unknown mux attribute '{name}' (known: {known})")
    is_module = isinstance(op, ModuleOp)
    is_function = _is_function(op)
    if (on_module and not is_module) or (not on_module and not is_function):
        where = "builtin.module" if on_module else "a function"
        raise VerifyException(f"'{name}' belongs on {where}, not on {op.name}")
