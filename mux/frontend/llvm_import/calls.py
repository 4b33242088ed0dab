"""Calls: a call of a function stays a `func.call` with llvm-level types (the IR
contract of issue 15: `lower-to-mux-builtins` replaces the OpenCL builtins it knows).

A call of an LLVM intrinsic (`@llvm.smax.i32`, `@llvm.fmuladd.v4f32`,
`@llvm.memcpy.p0.p1.i64`, ...) is `llvm.call_intrinsic` of the same name, and the
intrinsic's declaration is not imported. Why that op rather than a `func.call` of
a declared `func.func @llvm.smax.i32`: an intrinsic is not a function of the
program but an operation of LLVM's, with LLVM's meaning (`immarg` operands, type
mangled names, no body anywhere), which is what `llvm.call_intrinsic` says; the
passes that read calls (`lower-to-mux-builtins`, the call graph, `reduce-to-func`,
`replace-module-scope-vars`) then never mistake one for a function to define,
inline or keep, and the backend emits it as the call of the intrinsic
(`mux.backend.op_translators`). One rule for every intrinsic, rather than an op of
xDSL's for some (`llvm.intr.fma` for `llvm.fmuladd`, which is not the same
operation: fmuladd lets LLVM choose whether to fuse), keeps LLVM's own semantics.
The importer keeps the call's fast-math flags and refuses operand bundles.

A pointer argument a function takes `byval(T)` is its own copy of the `T` the
caller points to: a `func.call` passes pointers only, so the caller makes the
copy (an alloca at its entry, the aggregate loaded and stored).

A call of a variadic function (`printf`, the only one OpenCL C has) cannot be a
`func.call`, whose callee's type fixes the number of operands: it is an
`llvm.call` with the callee's variadic type (`vararg(!llvm.func<i32 (ptr<2>,
...)>)`), the callee declared as an `llvm.func` (`declaration`), as LLVM has
them; `lower-printf` rewrites the calls of `printf`. A variadic function defined
in the module is refused (OpenCL C has none).

The markers nothing after the importer reads are dropped: `llvm.lifetime.*`,
`llvm.experimental.noalias.scope.decl` (its operand is metadata, which the
importer does not carry), `llvm.assume` and `llvm.dbg.*` only inform LLVM's
optimisations, and leaving them out is always correct."""

from __future__ import annotations

from llvmlite import binding
from xdsl.dialects import func, llvm
from xdsl.ir import Attribute, SSAValue

from mux.frontend.llvm_import import facts
from mux.frontend.llvm_import.text import parse_type
from mux.frontend.llvm_import.values import FunctionValues, Refusal, Signature

INTRINSIC_PREFIX = "llvm."
DROPPED = (
    "llvm.lifetime.",
    "llvm.experimental.noalias.scope.decl",
    "llvm.assume",
    "llvm.dbg.",
)
"""The intrinsics a call of which is dropped, by name prefix."""


def is_variadic(function: binding.ValueRef) -> bool:
    return function.global_value_type.is_function_vararg


def function_type(
    function: binding.ValueRef, structs: dict[str, Attribute]
) -> tuple[list[Attribute], list[Attribute]]:
    """A function's parameter and result types at the llvm level (no result for
    void), the parameters before `...` for a variadic one."""
    type_ = function.global_value_type
    inputs = [parse_type(str(t), structs) for t in type_.get_function_parameters()]
    returned = str(type_.get_function_return())
    return inputs, [] if returned == "void" else [parse_type(returned, structs)]


def signature(function: binding.ValueRef, structs: dict[str, Attribute]) -> Signature:
    """A function's types and its `byval` parameters."""
    inputs, results = function_type(function, structs)
    byval = {}
    for index, parameter in enumerate(function.arguments):
        attributes = [a.decode() for a in parameter.attributes]
        aligns = [int(a.split()[1]) for a in attributes if a.startswith("align ")]
        for attribute in attributes:
            if attribute.startswith("byval(") and attribute.endswith(")"):
                type_ = parse_type(attribute[len("byval(") : -1], structs)
                byval[index] = (type_, aligns[0] if aligns else None)
    return Signature(inputs, results, byval, is_variadic(function))


def _byval_copies(
    values: FunctionValues, callee: Signature, args: list[SSAValue]
) -> list[SSAValue]:
    """The arguments, each one the callee takes `byval(T)` replaced by a private
    copy of the `T` it points to: the callee owns that copy and may write to it
    (a `func.call` passes just the pointer)."""
    copied = list(args)
    for index, (type_, alignment) in callee.byval.items():
        copy = values.alloca(type_, alignment)
        value = values.emit(llvm.LoadOp(args[index], type_)).results[0]
        values.emit(llvm.StoreOp(value, copy))
        copied[index] = copy
    return copied


def translate_call(values: FunctionValues, call: binding.ValueRef) -> None:
    """A call: `llvm.call_intrinsic` of an intrinsic, or `func.call @callee`."""
    *arguments, callee = list(call.operands)
    if callee.value_kind != binding.ValueKind.function:
        raise Refusal("an indirect call or inline assembly")
    name = callee.name
    if name.startswith(DROPPED):
        return
    if facts.has_operand_bundles(str(call)):
        raise Refusal("a call with operand bundles")
    args = [values.operand(a) for a in arguments]
    if name.startswith(INTRINSIC_PREFIX):
        returned = str(call.type)
        results = [] if returned == "void" else [parse_type(returned, values.structs)]
        op = llvm.CallIntrinsicOp(name, args, results)
        fast_math = facts.fast_math(facts.words_after_opcode(str(call)))
        if fast_math.data:
            op.properties["fastmathFlags"] = fast_math
    elif (callee_signature := values.signatures[name]).variadic:
        results = callee_signature.results
        fixed = len(callee_signature.inputs)
        op = llvm.CallOp(
            name,
            *args,
            return_type=results[0] if results else None,
            variadic_args=len(args) - fixed,
        )
    else:
        results = callee_signature.results
        op = func.CallOp(name, _byval_copies(values, callee_signature, args), results)
    values.emit(op)
    if results:
        values.values[call] = op.results[0]
