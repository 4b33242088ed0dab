"""LLVM instructions llvmlite lacks (`freeze`) or prints without options the
translation needs (weak `cmpxchg`, the alignment of atomics, volatile loads, atomic
and volatile stores, stores through a pointer llvmlite types differently from the
value, shuffles with poison lanes).

Each is an llvmlite `Instruction` that prints itself (`descr`); `insert` puts one
at a builder's position, as llvmlite's own builder methods do.
"""

from __future__ import annotations

from llvmlite import ir
from llvmlite.ir import instructions


def insert(builder: ir.IRBuilder, instruction: instructions.Instruction):
    builder._insert(instruction)
    return instruction


def _align_suffix(align: int | None) -> str:
    return f", align {align}" if align is not None else ""


def typed(value: ir.Value) -> ir.Constant | ir.NamedValue:
    """`value` as the llvmlite class it is: llvmlite's base `Value` has no `type`
    nor `get_reference` (its subclasses set them), and xDSL's translation maps SSA
    values to `ir.Value`. Constants and named values (instructions, arguments,
    globals) are every value a translation makes."""
    assert isinstance(value, ir.Constant | ir.NamedValue), type(value)
    return value


def _operand(value: ir.Value) -> str:
    value = typed(value)
    return f"{value.type} {value.get_reference()}"


class StoreInstruction(instructions.Instruction):
    """`store [atomic] [volatile]`. llvmlite's builder refuses to store a value to a
    pointer it types differently (a global or alloca of a struct is a typed pointer
    to the struct; storing its first field through it is valid LLVM IR with opaque
    pointers), and it has no volatile stores."""

    def __init__(self, parent, value, ptr, ordering: str | None, align: int | None):
        super().__init__(parent, ir.VoidType(), "store", [value, ptr])
        self.ordering, self.align, self.volatile = ordering, align, False

    def descr(self, buf: list[str]) -> None:
        value, ptr = self.operands
        atomic = "atomic " if self.ordering else ""
        volatile = "volatile " if self.volatile else ""
        ordering = f" {self.ordering}" if self.ordering else ""
        buf.append(
            f"store {atomic}{volatile}{_operand(value)}, {_operand(ptr)}{ordering}"
            f"{_align_suffix(self.align)}\n"
        )


class VolatileLoadInstruction(instructions.LoadInstr):
    """`load volatile`: llvmlite's loads are never volatile."""

    # set after construction; llvmlite's LoadInstr inits it to None, which is all
    # pyright infers from the unannotated llvmlite
    align: int | None

    def descr(self, buf: list[str]) -> None:
        (ptr,) = self.operands
        buf.append(
            f"load volatile {self.type}, {_operand(ptr)}{_align_suffix(self.align)}\n"
        )


class ShuffleVectorInstruction(instructions.Instruction):
    """`shufflevector` whose mask may have poison lanes (-1, as MLIR writes them):
    llvmlite's refuses a mask index outside the operands' lanes, and clang widens
    every 3-element vector with one (`<i32 0, i32 1, i32 2, i32 poison>`)."""

    def __init__(self, parent, v1: ir.Value, v2: ir.Value, mask: list[int]):
        vector = typed(v1).type
        assert isinstance(vector, ir.VectorType)
        result = ir.VectorType(vector.element, len(mask))
        super().__init__(parent, result, "shufflevector", [v1, v2])
        self.mask = mask

    def descr(self, buf: list[str]) -> None:
        v1, v2 = self.operands
        lanes = ", ".join(f"i32 {i}" if i >= 0 else "i32 poison" for i in self.mask)
        buf.append(
            f"shufflevector {_operand(v1)}, {_operand(v2)}, "
            f"<{len(self.mask)} x i32> <{lanes}>\n"
        )


class FreezeInstruction(instructions.Instruction):
    def __init__(self, parent: ir.Block, value: ir.Value):
        super().__init__(parent, typed(value).type, "freeze", [value])

    def descr(self, buf: list[str]) -> None:
        buf.append(f"freeze {_operand(self.operands[0])}\n")


class AtomicRMWInstruction(instructions.AtomicRMW):
    def __init__(self, parent, op, ptr, val, ordering, align: int | None):
        super().__init__(parent, op, ptr, val, ordering, name="")
        self.align = align

    def descr(self, buf: list[str]) -> None:
        ptr, val = self.operands
        buf.append(
            f"atomicrmw {self.operation} {_operand(ptr)}, {_operand(val)} "
            f"{self.ordering}{_align_suffix(self.align)}\n"
        )


class CmpXchgInstruction(instructions.CmpXchg):
    def __init__(
        self,
        parent,
        ptr,
        cmp,
        val,
        ordering,
        failordering,
        *,
        weak: bool,
        align: int | None,
    ):
        super().__init__(parent, ptr, cmp, val, ordering, failordering, name="")
        self.weak, self.align = weak, align

    def descr(self, buf: list[str]) -> None:
        ptr, cmp, val = self.operands
        weak = "weak " if self.weak else ""
        buf.append(
            f"cmpxchg {weak}{_operand(ptr)}, {_operand(cmp)}, {_operand(val)} "
            f"{self.ordering} {self.failordering}{_align_suffix(self.align)}\n"
        )
