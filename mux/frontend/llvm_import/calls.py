"""Calls: a call of a function stays a `func.call` with llvm-level types (the IR
contract of issue 15: `lower-to-mux-builtins` replaces the OpenCL builtins it knows);
the LLVM intrinsics our backend has an op for become that op, and the markers
nothing after the importer reads (`llvm.lifetime.*`) are dropped."""

from __future__ import annotations

from collections.abc import Callable

from llvmlite import binding
from xdsl.dialects import func, llvm
from xdsl.ir import Attribute, SSAValue

from dialects import llvmx
from mux.frontend.llvm_import.text import parse_type
from mux.frontend.llvm_import.values import FunctionValues, Refusal

Intrinsic = Callable[[FunctionValues, binding.ValueRef, list[SSAValue]], None]


def _fma(values: FunctionValues, call: binding.ValueRef, args: list[SSAValue]) -> None:
    """`llvm.fmuladd` may fuse or not; `llvm.fma` (fused) is one of its meanings."""
    values.result(call, llvm.FMAOp(*args))


def _fabs(values: FunctionValues, call: binding.ValueRef, args: list[SSAValue]) -> None:
    values.result(call, llvm.FAbsOp(args[0], args[0].type))


def _memcpy(
    values: FunctionValues, call: binding.ValueRef, args: list[SSAValue]
) -> None:
    dst, src, length, _ = args
    if str(list(call.operands)[3]).strip() != "i1 false":
        raise Refusal("volatile llvm.memcpy")
    values.emit(llvmx.MemcpyOp(dst, src, length))


def _drop(values: FunctionValues, call: binding.ValueRef, args: list[SSAValue]) -> None:
    """A marker with no effect on what the kernel computes."""


INTRINSICS: dict[str, Intrinsic] = {
    "llvm.fmuladd.": _fma,
    "llvm.fma.": _fma,
    "llvm.fabs.": _fabs,
    "llvm.memcpy.": _memcpy,
    "llvm.lifetime.start": _drop,
    "llvm.lifetime.end": _drop,
}
"""Intrinsics by name prefix; any other intrinsic is called like a function
(the backend declares it by its name, which LLVM reads as the intrinsic)."""


def function_type(
    function: binding.ValueRef, structs: dict[str, Attribute]
) -> tuple[list[Attribute], list[Attribute]]:
    """A function's parameter and result types at the llvm level (no result for
    void)."""
    type_ = function.global_value_type
    if type_.is_function_vararg:
        raise Refusal(f"variadic function {function.name}")
    inputs = [parse_type(str(t), structs) for t in type_.get_function_parameters()]
    returned = str(type_.get_function_return())
    return inputs, [] if returned == "void" else [parse_type(returned, structs)]


def translate_call(values: FunctionValues, call: binding.ValueRef) -> None:
    """A call: an intrinsic's op, or `func.call @callee`."""
    *arguments, callee = list(call.operands)
    if callee.value_kind != binding.ValueKind.function:
        raise Refusal("an indirect call or inline assembly")
    args = [values.operand(a) for a in arguments]
    for prefix, intrinsic in INTRINSICS.items():
        if callee.name.startswith(prefix):
            intrinsic(values, call, args)
            return
    _, results = values.signatures[callee.name]
    op = func.CallOp(callee.name, args, results)
    values.emit(op)
    if results:
        values.values[call] = op.results[0]
