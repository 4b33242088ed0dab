"""Scheduling structs (`dialects/scheduling.py`): their fields addressed by name."""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects.builtin import (
    IndexType,
    IntegerType,
    i32,
    i64,
)
from xdsl.dialects.llvm import GEPOp, LoadOp, StoreOp
from xdsl.ir import SSAValue

from dialects.scheduling import FieldKind, SchedulingStruct
from lowering.common.builders import SIZE_T, from_index, to_index


class StructFields:
    """Loads and stores of the fields of a scheduling struct behind a pointer.

    `StructFields(b, ptr, WORK_GROUP_INFO).load("local_size", dim)` loads element
    `dim` (an int or an i32/index SSA value) of the `local_size` array as an `index`;
    i32 fields load as i32.
    """

    def __init__(self, b: Builder, ptr: SSAValue, struct: SchedulingStruct):
        self.b, self.ptr, self.struct = b, ptr, struct
        self.type = struct.llvm_type(SIZE_T.width.data)

    def address(self, field: str, element: int | SSAValue | None = None) -> SSAValue:
        index = self.struct.field_index(field)
        kind = self.struct.fields[index].kind
        indices: list[int | SSAValue] = [0, index]
        if kind is FieldKind.SIZE_T_X3:
            if element is None:
                raise ValueError(f"field '{field}' is an array: give an element")
            if isinstance(element, SSAValue) and isinstance(element.type, IndexType):
                element = from_index(self.b, element, i64)
            indices.append(element)
        gep = GEPOp.from_mixed_indices(self.ptr, indices, self.type, inbounds=True)
        return self.b.insert(gep).result

    def _element_type(self, field: str) -> IntegerType:
        kind = self.struct.fields[self.struct.field_index(field)].kind
        return i32 if kind is FieldKind.I32 else SIZE_T

    def load(
        self,
        field: str,
        element: int | SSAValue | None = None,
        as_index: bool = True,
    ) -> SSAValue:
        """The field's value: i32 for i32 fields; for size_t elements an `index`, or
        the raw i64 if not `as_index`."""
        address = self.address(field, element)
        type_ = self._element_type(field)
        value = self.b.insert(LoadOp(address, type_)).dereferenced_value
        return to_index(self.b, value) if type_ == SIZE_T and as_index else value

    def store(
        self, value: SSAValue, field: str, element: int | SSAValue | None = None
    ) -> None:
        address = self.address(field, element)
        value = from_index(self.b, value, self._element_type(field))
        self.b.insert(StoreOp(value, address))
