"""The module's globals.

A kernel-scope `__local` array is an internal `addrspace(3)` global (clang names
it `<kernel>.<name>`); it becomes the module-scope local `memref.global` (named
`<name>`, as the source does, unless that name is taken) that
`replace-module-scope-vars` places in the work-group's local buffer, read in each
function that uses it by `memref.get_global` cast to an `!llvm.ptr<3>` at the
function's entry.

A constant (a `__constant` variable with its initialiser, or the copy clang
makes of a private aggregate's initialiser, `@__const.f.x`) becomes an internal
`llvm.mlir.global constant` in its address space, its initialiser a region of
constants (`values.py` builds them as in a function: numbers, vectors, and each
member of an array or struct inserted into `undef`), read by
`llvm.mlir.addressof` at the entry of each function that uses it. The backend
folds the region into LLVM's constant. A constant expression in an initialiser
(the address of a global, a cast) is refused, as are mutable program-scope
globals (`__global` variables of OpenCL C 2.0): the kernel that uses one gets
the diagnostic, the others compile.
"""

from __future__ import annotations

import re

from llvmlite import binding
from xdsl.dialects import llvm, memref
from xdsl.dialects.builtin import (
    IntegerAttr,
    MemRefType,
    StringAttr,
    UnitAttr,
    UnrealizedConversionCastOp,
    i64,
)
from xdsl.dialects.llvm import LLVMArrayType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from mux.frontend.llvm_import.text import Constant, Cursor, TextError, pointer
from mux.frontend.llvm_import.values import FunctionValues, GlobalAccess, Refusal

LOCAL = 3
_INITIALISER_OPS = (
    llvm.ConstantOp,
    llvm.ZeroOp,
    llvm.UndefOp,
    llvm.InsertValueOp,
    llvm.ReturnOp,
)
"""What the backend folds into a global's constant initialiser."""


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
        """The local variables' memref types."""
        self.symbols: dict[str, str] = {}
        """The local variables' `memref.global` names: the source's, which
        messages show (checked mode's), where no other symbol has it."""
        self.taken = {v.name for v in module.global_variables} | {
            f.name for f in module.functions
        }
        self.constants: dict[str, llvm.LLVMPointerType] = {}
        """The constants' pointer types."""
        self.ops: list[Operation] = []
        self.refused: dict[str, str] = {}
        for variable in module.global_variables:
            try:
                self._add(variable, structs)
            except (Refusal, TextError) as error:
                self.refused[variable.name] = f"global @{variable.name}: {error}"

    def _add(self, variable: binding.ValueRef, structs: dict[str, Attribute]) -> None:
        text = str(variable)
        found = re.search(r"\b(global|constant)\s", text)
        if found is None:
            raise Refusal("no initialiser")
        match = re.search(r"addrspace\((\d+)\)", text[: found.start()])
        space = int(match.group(1)) if match else 0
        align = re.search(r", align (\d+)", text)
        alignment = int(align.group(1)) if align else None
        initializer = Cursor(text[found.end() :], structs).parse_constant()
        if space == LOCAL and initializer.kind in ("undef", "poison"):
            self._add_local(variable.name, initializer.type, alignment)
        elif found.group(1) == "constant" and space != LOCAL:
            self._add_constant(variable.name, space, alignment, initializer, structs)
        else:
            raise Refusal(
                "only uninitialised __local (addrspace(3)) globals and constants "
                "are imported"
            )

    def _add_local(self, name: str, type_: Attribute, alignment: int | None) -> None:
        memref_type = memref_of(type_, LOCAL)
        self.types[name] = memref_type
        short = name.rpartition(".")[2]
        symbol = short if short and short not in self.taken else name
        self.taken.add(symbol)
        self.symbols[name] = symbol
        self.ops.append(
            memref.GlobalOp.get(
                StringAttr(symbol), memref_type, UnitAttr(), alignment=alignment
            )
        )

    def _add_constant(
        self,
        name: str,
        space: int,
        alignment: int | None,
        initializer: Constant,
        structs: dict[str, Attribute],
    ) -> None:
        block = Block()
        values = FunctionValues(structs, _no_global_in_initialiser, "")
        values.block = block
        block.add_op(llvm.ReturnOp(values.constant(initializer)))
        if not all(isinstance(op, _INITIALISER_OPS) for op in block.ops):
            raise Refusal("a constant expression in its initialiser")
        self.constants[name] = pointer(space)
        self.ops.append(
            llvm.GlobalOp(
                initializer.type,
                name,
                "internal",
                addr_space=space,
                constant=True,
                alignment=alignment,
                body=Region(block),
            )
        )

    def access(self, entry: Block) -> GlobalAccess:
        """The pointers to globals of one function, built at the top of its entry
        block the first time each is used."""
        pointers: dict[str, SSAValue] = {}

        def pointer_to(name: str) -> SSAValue:
            if name in self.refused:
                raise Refusal(self.refused[name])
            if name not in self.types and name not in self.constants:
                raise Refusal(f"@{name} is not a global variable we import")
            if name not in pointers:
                ops = self._address(name)
                if entry.first_op is not None:
                    entry.insert_ops_before(ops, entry.first_op)
                else:
                    entry.add_ops(ops)
                pointers[name] = ops[-1].results[0]
            return pointers[name]

        return pointer_to

    def _address(self, name: str) -> list[Operation]:
        if name in self.constants:
            return [llvm.AddressOfOp(name, self.constants[name])]
        type_ = self.types[name]
        get = memref.GetGlobalOp(self.symbols[name], type_)
        return [get, UnrealizedConversionCastOp.get([get.memref], [pointer(LOCAL)])]


def _no_global_in_initialiser(name: str) -> SSAValue:
    raise Refusal(f"the address of @{name} in its initialiser")
