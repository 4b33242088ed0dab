"""One translator per LLVM instruction kind: the op (xDSL's `llvm`, our `llvmx`,
`func`) the instruction becomes, with the facts of its text (flags, predicates,
alignment, indices, masks) as the op's properties.

A translator takes the function's values and the instruction; phis are not here
(they are the block arguments `functions.py` makes), nor are calls (`calls.py`).
"""

from __future__ import annotations

from collections.abc import Callable

from llvmlite import binding
from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerAttr,
    UnitAttr,
    VectorType,
    i32,
    i64,
)
from xdsl.dialects.llvm import (
    ALL_ICMP_FLAGS,
    FastMathAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue

from dialects import llvmx
from mux.frontend.llvm_import import atomics, facts
from mux.frontend.llvm_import.text import Constant, parse_type
from mux.frontend.llvm_import.values import (
    CONSTANT_CASTS,
    FunctionValues,
    Refusal,
    alloca_op,
    gep,
)

Translator = Callable[[FunctionValues, binding.ValueRef], None]


def result_type(values: FunctionValues, instruction: binding.ValueRef) -> Attribute:
    return parse_type(str(instruction.type), values.structs)


def _operands(values: FunctionValues, instruction: binding.ValueRef) -> list[SSAValue]:
    return [values.operand(o) for o in instruction.operands]


def _flags(instruction: binding.ValueRef, known: tuple[str, ...]) -> list[str]:
    return [f for f in facts.words_after_opcode(str(instruction)) if f in known]


def _fast_math(instruction: binding.ValueRef) -> FastMathAttr:
    return facts.fast_math(facts.words_after_opcode(str(instruction)))


# ------------------------------------------------------------------ arithmetic


def _overflow(op_class: type) -> Translator:
    def translate(values: FunctionValues, instruction: binding.ValueRef) -> None:
        lhs, rhs = _operands(values, instruction)
        overflow = facts.overflow(facts.words_after_opcode(str(instruction)))
        values.result(instruction, op_class(lhs, rhs, overflow=overflow))

    return translate


def _exact(op_class: type) -> Translator:
    def translate(values: FunctionValues, instruction: binding.ValueRef) -> None:
        lhs, rhs = _operands(values, instruction)
        exact = UnitAttr() if _flags(instruction, ("exact",)) else None
        values.result(instruction, op_class(lhs, rhs, is_exact=exact))

    return translate


def _plain(op_class: type) -> Translator:
    def translate(values: FunctionValues, instruction: binding.ValueRef) -> None:
        lhs, rhs = _operands(values, instruction)
        values.result(instruction, op_class(lhs, rhs))

    return translate


def _or(values: FunctionValues, instruction: binding.ValueRef) -> None:
    lhs, rhs = _operands(values, instruction)
    disjoint = UnitAttr() if _flags(instruction, ("disjoint",)) else None
    values.result(instruction, llvm.OrOp(lhs, rhs, is_disjoint=disjoint))


def _float(op_class: type) -> Translator:
    def translate(values: FunctionValues, instruction: binding.ValueRef) -> None:
        lhs, rhs = _operands(values, instruction)
        values.result(instruction, op_class(lhs, rhs, _fast_math(instruction)))

    return translate


def _fneg(values: FunctionValues, instruction: binding.ValueRef) -> None:
    (arg,) = _operands(values, instruction)
    values.result(instruction, llvm.FNegOp(arg, _fast_math(instruction)))


def _icmp(values: FunctionValues, instruction: binding.ValueRef) -> None:
    lhs, rhs = _operands(values, instruction)
    name = facts.predicate(str(instruction))
    index = [flag.value for flag in ALL_ICMP_FLAGS].index(name)
    values.result(instruction, llvm.ICmpOp(lhs, rhs, IntegerAttr(index, i64)))


def _fcmp(values: FunctionValues, instruction: binding.ValueRef) -> None:
    lhs, rhs = _operands(values, instruction)
    name = facts.predicate(str(instruction))
    if name in ("true", "false"):
        raise Refusal(f"fcmp {name} (a constant comparison)")
    if isinstance(lhs.type, VectorType):
        values.result(instruction, llvmx.FCmpOp(name, lhs, rhs))
        return
    op = llvm.FCmpOp(lhs, rhs, name)
    op.properties["fastmathFlags"] = _fast_math(instruction)
    values.result(instruction, op)


def _select(values: FunctionValues, instruction: binding.ValueRef) -> None:
    cond, true_value, false_value = _operands(values, instruction)
    if isinstance(cond.type, VectorType):
        values.result(instruction, llvmx.SelectOp(cond, true_value, false_value))
    else:
        values.result(instruction, llvm.SelectOp(cond, true_value, false_value))


def _freeze(values: FunctionValues, instruction: binding.ValueRef) -> None:
    (arg,) = _operands(values, instruction)
    values.result(instruction, llvmx.FreezeOp(arg))


# ----------------------------------------------------------------------- casts


def _cast(make: Callable[[SSAValue, Attribute, list[str]], Operation]) -> Translator:
    def translate(values: FunctionValues, instruction: binding.ValueRef) -> None:
        (arg,) = _operands(values, instruction)
        flags = facts.words_after_opcode(str(instruction))
        op = make(arg, result_type(values, instruction), flags)
        values.result(instruction, op)

    return translate


def _ignoring_flags(
    make: Callable[[SSAValue, Attribute], Operation],
) -> Callable[[SSAValue, Attribute, list[str]], Operation]:
    return lambda arg, type_, _flags: make(arg, type_)


_CASTS: dict[str, Callable[[SSAValue, Attribute, list[str]], Operation]] = {
    "trunc": lambda a, t, f: llvm.TruncOp(a, t, overflow=facts.overflow(f)),
    "zext": lambda a, t, f: llvm.ZExtOp(
        a, t, non_neg=UnitAttr() if "nneg" in f else None
    ),
    "sext": lambda a, t, f: llvm.SExtOp(a, t),
    "fptrunc": lambda a, t, f: llvm.FPTruncOp(a, t),
    "fpext": lambda a, t, f: llvm.FPExtOp(a, t),
    "sitofp": lambda a, t, f: llvm.SIToFPOp(a, t),
    "uitofp": lambda a, t, f: llvmx.UIToFPOp(a, t),
    "fptosi": lambda a, t, f: llvmx.FPToSIOp(a, t),
    "fptoui": lambda a, t, f: llvmx.FPToUIOp(a, t),
    **{name: _ignoring_flags(make) for name, make in CONSTANT_CASTS.items()},
}


# ---------------------------------------------------------------------- memory


def _getelementptr(values: FunctionValues, instruction: binding.ValueRef) -> None:
    text = str(instruction)
    pointer, *indices = list(instruction.operands)
    source = facts.leading_type(text, values.structs)
    base = values.operand(pointer)
    index_values: list[Constant | SSAValue] = []
    for index in indices:
        if index in values.values or not index.is_constant:
            index_values.append(values.operand(index))
        else:
            index_values.append(facts.constant_operand(str(index), values.structs))
    inbounds = "inbounds" in facts.words_after_opcode(text)
    op = gep(
        values, base, index_values, source, result_type(values, instruction), inbounds
    )
    values.result(instruction, op)


def _load(values: FunctionValues, instruction: binding.ValueRef) -> None:
    text = str(instruction)
    if facts.is_atomic(text) or "volatile" in facts.words_after_opcode(text):
        atomics.load(values, instruction)
        return
    (pointer,) = _operands(values, instruction)
    op = llvm.LoadOp(pointer, result_type(values, instruction), facts.alignment(text))
    values.result(instruction, op)


def _store(values: FunctionValues, instruction: binding.ValueRef) -> None:
    text = str(instruction)
    if facts.is_atomic(text):
        atomics.store(values, instruction)
        return
    value, pointer = _operands(values, instruction)
    volatile = "volatile" in facts.words_after_opcode(text)
    values.emit(llvm.StoreOp(value, pointer, facts.alignment(text), volatile=volatile))


def _alloca(values: FunctionValues, instruction: binding.ValueRef) -> None:
    text = str(instruction)
    (size,) = _operands(values, instruction)
    allocated = facts.leading_type(text, values.structs)
    pointer_type = result_type(values, instruction)  # an alloca may be in any space
    op = alloca_op(size, allocated, facts.alignment(text), pointer_type)
    values.result(instruction, op)


# --------------------------------------------------------------------- vectors


def _extractelement(values: FunctionValues, instruction: binding.ValueRef) -> None:
    vector, index = _operands(values, instruction)
    values.result(instruction, llvmx.ExtractElementOp(vector, index))


def _insertelement(values: FunctionValues, instruction: binding.ValueRef) -> None:
    vector, value, index = _operands(values, instruction)
    values.result(instruction, llvm.InsertElementOp(vector, value, index))


def _shufflevector(values: FunctionValues, instruction: binding.ValueRef) -> None:
    v1, v2 = _operands(values, instruction)
    mask = DenseArrayBase.from_list(i32, facts.shuffle_mask(str(instruction)))
    op = llvm.ShuffleVectorOp(v1, v2, mask, result_type(values, instruction))
    values.result(instruction, op)


def _extractvalue(values: FunctionValues, instruction: binding.ValueRef) -> None:
    (aggregate,) = _operands(values, instruction)
    position = DenseArrayBase.from_list(i64, facts.aggregate_indices(str(instruction)))
    op = llvm.ExtractValueOp(position, aggregate, result_type(values, instruction))
    values.result(instruction, op)


def _insertvalue(values: FunctionValues, instruction: binding.ValueRef) -> None:
    aggregate, value = _operands(values, instruction)
    position = DenseArrayBase.from_list(i64, facts.aggregate_indices(str(instruction)))
    values.result(instruction, llvm.InsertValueOp(position, aggregate, value))


# ----------------------------------------------------------------- terminators


def _ret(values: FunctionValues, instruction: binding.ValueRef) -> None:
    values.emit(func.ReturnOp(*_operands(values, instruction)))


def _unreachable(values: FunctionValues, instruction: binding.ValueRef) -> None:
    values.emit(llvm.UnreachableOp())


TRANSLATORS: dict[str, Translator] = {
    "add": _overflow(llvm.AddOp),
    "sub": _overflow(llvm.SubOp),
    "mul": _overflow(llvm.MulOp),
    "shl": _overflow(llvm.ShlOp),
    "udiv": _exact(llvm.UDivOp),
    "sdiv": _exact(llvm.SDivOp),
    "lshr": _exact(llvm.LShrOp),
    "ashr": _exact(llvm.AShrOp),
    "urem": _plain(llvm.URemOp),
    "srem": _plain(llvm.SRemOp),
    "and": _plain(llvm.AndOp),
    "xor": _plain(llvm.XOrOp),
    "or": _or,
    "fadd": _float(llvm.FAddOp),
    "fsub": _float(llvm.FSubOp),
    "fmul": _float(llvm.FMulOp),
    "fdiv": _float(llvm.FDivOp),
    "frem": _float(llvm.FRemOp),
    "fneg": _fneg,
    "icmp": _icmp,
    "fcmp": _fcmp,
    "select": _select,
    "freeze": _freeze,
    **{name: _cast(make) for name, make in _CASTS.items()},
    "getelementptr": _getelementptr,
    "load": _load,
    "store": _store,
    "alloca": _alloca,
    "extractelement": _extractelement,
    "insertelement": _insertelement,
    "shufflevector": _shufflevector,
    "extractvalue": _extractvalue,
    "insertvalue": _insertvalue,
    "ret": _ret,
    "unreachable": _unreachable,
    **atomics.TRANSLATORS,
}
"""The instructions translated one to one; `br`, `switch`, `phi` and `call` are
`functions.py`'s and `calls.py`'s."""
