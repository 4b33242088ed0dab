"""The module's globals. A kernel-scope `__local` array is an internal
`addrspace(3)` global (clang names it `<kernel>.<name>`); it becomes the
module-scope local `memref.global` that `replace-module-scope-vars` places in the
work-group's local buffer, read in each function that uses it by
`memref.get_global` cast to an `!llvm.ptr<3>` at the function's entry."""

from __future__ import annotations

import re

from llvmlite import binding
from xdsl.dialects import memref
from xdsl.dialects.builtin import (
    IntegerAttr,
    MemRefType,
    StringAttr,
    UnitAttr,
    UnrealizedConversionCastOp,
    i64,
)
from xdsl.dialects.llvm import LLVMArrayType
from xdsl.ir import Attribute, Block, SSAValue

from mux.frontend.llvm_import.text import parse_type, pointer
from mux.frontend.llvm_import.values import GlobalAccess, Refusal

LOCAL = 3


def memref_of(type_: Attribute, space: int) -> MemRefType:
    """`[4 x [16 x float]]` in address space 3 -> `memref<4x16xf32, 3>`."""
    shape = []
    while isinstance(type_, LLVMArrayType):
        shape.append(type_.size.data)
        type_ = type_.type
    return MemRefType(type_, shape, memory_space=IntegerAttr(space, i64))


class Globals:
    """The module's globals we import, by name."""

    def __init__(self, module: binding.ModuleRef, structs: dict[str, Attribute]):
        self.types: dict[str, MemRefType] = {}
        self.ops: list[memref.GlobalOp] = []
        self.refused: dict[str, str] = {}
        for variable in module.global_variables:
            self._add(variable, structs)

    def _add(self, variable: binding.ValueRef, structs: dict[str, Attribute]) -> None:
        text = str(variable)
        match = re.search(r"addrspace\((\d+)\)", text.split("global", 1)[0])
        space = int(match.group(1)) if match else 0
        initializer = text.split(" global ", 1)[-1]
        if space != LOCAL or not re.search(r"\b(undef|poison)\b", initializer):
            self.refused[variable.name] = (
                f"global @{variable.name}: only uninitialised __local (addrspace(3)) "
                "globals are imported yet"
            )
            return
        type_ = memref_of(parse_type(str(variable.global_value_type), structs), space)
        align = re.search(r", align (\d+)", text)
        self.types[variable.name] = type_
        self.ops.append(
            memref.GlobalOp.get(
                StringAttr(variable.name),
                type_,
                UnitAttr(),
                alignment=int(align.group(1)) if align else None,
            )
        )

    def access(self, entry: Block) -> GlobalAccess:
        """The pointers to globals of one function, built at the top of its entry
        block the first time each is used."""
        pointers: dict[str, SSAValue] = {}

        def pointer_to(name: str) -> SSAValue:
            if name in self.refused:
                raise Refusal(self.refused[name])
            if name not in self.types:
                raise Refusal(f"@{name} is not a global variable we import")
            if name not in pointers:
                type_ = self.types[name]
                get = memref.GetGlobalOp(name, type_)
                cast = UnrealizedConversionCastOp.get([get.memref], [pointer(LOCAL)])
                entry.insert_ops_before(
                    [get, cast], entry.first_op
                ) if entry.first_op else entry.add_ops([get, cast])
                pointers[name] = cast.results[0]
            return pointers[name]

        return pointer_to
