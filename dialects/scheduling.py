"""The default scheduling parameters: MuxWorkItemInfo and MuxWorkGroupInfo.

`compiler-utils-passes.rst`, section "Target Scheduling Parameters": builtins that need
data from outside the function get it from two pointer-to-struct parameters, added by
`add-sched-params` and read by `define-mux-builtins`. The structs are described here
once, field by field, so passes address a field by its name:

    WORK_ITEM_INFO.field_index("sub_group_id")  # 1
    WORK_GROUP_INFO.llvm_type()  # !llvm.struct<"MuxWorkGroupInfo", ...>

Targets define their scheduling parameters ("Scheduling parameters are ultimately up
to the ComputeMux target to define"); ours are the spec's default set, with two fields
the host target appends to MuxWorkGroupInfo for non-uniform work-groups.

`size_t` fields ("natural-width integers") take the width of the target's `size_t`,
64 bits by default.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import Enum

from xdsl.dialects.builtin import ArrayAttr, IntegerType, StringAttr, i32
from xdsl.dialects.llvm import LLVMArrayType, LLVMStructType
from xdsl.ir import Attribute


class FieldKind(Enum):
    """The shapes of fields the spec uses."""

    I32 = "i32"
    SIZE_T_X3 = "[3 x size_t]"


@dataclass(frozen=True)
class Field:
    name: str
    kind: FieldKind
    doc: str

    def llvm_type(self, size_t_bits: int) -> Attribute:
        if self.kind is FieldKind.I32:
            return i32
        return LLVMArrayType(3, IntegerType(size_t_bits))


@dataclass(frozen=True)
class SchedulingStruct:
    """One scheduling-parameter struct: its name and its fields, in order."""

    name: str
    fields: tuple[Field, ...]

    def field_index(self, name: str) -> int:
        """The position of field `name`; KeyError naming the fields if unknown."""
        for index, field in enumerate(self.fields):
            if field.name == name:
                return index
        known = ", ".join(f.name for f in self.fields)
        raise KeyError(f"{self.name} has no field '{name}' (fields: {known})")

    def byte_size(self, size_t_bits: int = 64) -> int:
        """The struct's size in bytes with C's layout (each field aligned to its
        element's size, the whole to the largest): what `sizeof` gives."""
        offset, largest = 0, 1
        for f in self.fields:
            element = 4 if f.kind is FieldKind.I32 else size_t_bits // 8
            count = 1 if f.kind is FieldKind.I32 else 3
            offset = -(-offset // element) * element + element * count
            largest = max(largest, element)
        return -(-offset // largest) * largest

    def llvm_type(self, size_t_bits: int = 64) -> LLVMStructType:
        """The named LLVM struct, e.g. `!llvm.struct<"MuxWorkItemInfo", (...)>`
        (built once per size: attributes are immutable, and building one is not
        cheap)."""
        if size_t_bits not in (32, 64):
            raise ValueError(f"size_t is 32 or 64 bits, not {size_t_bits}")
        return _struct_type(self, size_t_bits)


@functools.cache
def _struct_type(struct: SchedulingStruct, size_t_bits: int) -> LLVMStructType:
    return LLVMStructType(
        StringAttr(struct.name),
        ArrayAttr([f.llvm_type(size_t_bits) for f in struct.fields]),
    )


WORK_ITEM_INFO = SchedulingStruct(
    "MuxWorkItemInfo",
    (
        Field("local_id", FieldKind.SIZE_T_X3, "the 3-dimensional local ID"),
        Field("sub_group_id", FieldKind.I32, "the sub-group ID"),
        Field(
            "kernel_width",
            FieldKind.I32,
            "how many work-items are executed in parallel: 1, or the "
            "vectorization factor",
        ),
        Field("num_sub_groups", FieldKind.I32, "the number of sub-groups"),
        Field("max_sub_group_size", FieldKind.I32, "the maximum sub-group size"),
    ),
)

WORK_GROUP_INFO = SchedulingStruct(
    "MuxWorkGroupInfo",
    (
        Field("group_id", FieldKind.SIZE_T_X3, "the group id"),
        Field("num_groups", FieldKind.SIZE_T_X3, "the number of groups"),
        Field("global_offset", FieldKind.SIZE_T_X3, "the global offset"),
        Field("local_size", FieldKind.SIZE_T_X3, "the local work-group size"),
        Field("work_dim", FieldKind.I32, "the number of work dimensions"),
        # The host target's additions, after the spec's fields: OpenCL 2.0
        # non-uniform work-groups need the requested local size and the global size
        # besides the actual size of the current work-group (`local_size`).
        Field(
            "enqueued_local_size",
            FieldKind.SIZE_T_X3,
            "host: the local size requested at launch (local_size is the actual "
            "size of this work-group, smaller for the last one of a dimension)",
        ),
        Field("global_size", FieldKind.SIZE_T_X3, "host: the global size"),
    ),
)

DEFAULT_SCHEDULING_PARAMETERS = (WORK_ITEM_INFO, WORK_GROUP_INFO)
"""The default list, in the order `add-sched-params` appends them to a function."""
