"""Translation of a module in the `llvm` dialect (plus `llvmx`) to LLVM IR text.

A thin layer over xDSL's `xdsl.backend.llvm`: xDSL's `convert_op` translates the
`llvm` ops and its `convert_type` the types; this package drives it and adds what
it lacks or gets wrong in xDSL 0.74. This module is the entry point
(`translate`, `translate_module`, `mux-opt -t llvm`); the steps are modules of
their own:

- `address_spaces`: every pointer type in address space 0, the host's one flat
  memory (the llvm-dialect IR keeps the spec's numbers);
- `global_variables`: globals, declared first so that anything can refer to them,
  then given their linkage and initialiser (xDSL printed an initialised external
  global as invalid IR, and had no initialiser regions or alignment);
- `functions`: function linkage and attributes (xDSL ignores `llvm.func`'s
  linkage), blocks in dominance order, block arguments as phis, and loop metadata
  (`LOOP_HINTS`: no unrolling at run time);
- `op_translators`: the translation of each op, xDSL's but for the `llvmx` ops and
  the `llvm` ops it translates wrongly (atomic loads and stores, volatile stores,
  `getelementptr`, branches, intrinsics on several types);
- `llvmlite_instructions`: the LLVM instructions llvmlite lacks or prints without
  options the translation needs;
- `errors`: any op or type the backend cannot translate raises `TranslationError`
  naming it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from llvmlite import binding, ir
from xdsl.backend.llvm.convert_type import _TYPE_CONVERTERS, convert_type
from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.utils.target import Target

from dialects import llvmx
from mux.backend.address_spaces import flatten_address_spaces
from mux.backend.errors import TranslationError, diagnostics
from mux.backend.functions import declare_function, define_function
from mux.backend.global_variables import declare_global, define_global

__all__ = ["LLVMIRTarget", "TranslationError", "translate", "translate_module"]

# xDSL's type conversion has no packed struct (nor has its `llvm` dialect: ours is
# `llvmx.packed_struct`). It is added to xDSL's table, not wrapped, because xDSL's
# own translations of ops convert types too (a load of a packed struct, an alloca).
_TYPE_CONVERTERS[llvmx.PackedStructType] = lambda packed: ir.LiteralStructType(
    [convert_type(member) for member in packed.types.data], packed=True
)


def translate(module: ModuleOp, *, consume: bool = False) -> str:
    """The LLVM IR text of `module`, a module of `llvm.func`s and
    `llvm.mlir.global`s in the `llvm` and `llvmx` dialects."""
    return str(translate_module(module, consume=consume))


def translate_module(module: ModuleOp, *, consume: bool = False) -> ir.Module:
    """`module` as an llvmlite IR module (see `translate`). `module` is unchanged,
    unless `consume` says its owner has no further use for it: then its pointer
    types are flattened in place rather than in a copy (copying a large module is
    costly: docs/performance.md, "Small costs of the translation to LLVM")."""
    module = flatten_address_spaces(module if consume else module.clone())
    llvm_module = ir.Module(name=module.sym_name.data if module.sym_name else "")
    llvm_module.triple = _string_attribute(module, "llvm.target_triple") or (
        binding.get_default_triple()
    )
    llvm_module.data_layout = _string_attribute(module, "llvm.data_layout") or ""

    globals_: list[llvm.GlobalOp] = []
    functions: list[llvm.FuncOp] = []
    for op in module.ops:
        if isinstance(op, llvm.GlobalOp):
            globals_.append(op)
        elif isinstance(op, llvm.FuncOp):
            functions.append(op)
        else:
            raise TranslationError(
                f"cannot translate {op.name} to LLVM IR: a module to translate holds "
                "only llvm.func and llvm.mlir.global"
            )
    for global_op in globals_:
        with diagnostics(f"global @{global_op.sym_name.data}"):
            declare_global(global_op, llvm_module)
    for function in functions:
        with diagnostics(f"the signature of @{function.sym_name.data}"):
            declare_function(function, llvm_module)
    for global_op in globals_:
        define_global(global_op, llvm_module)
    for function in functions:
        if function.body.blocks:
            define_function(function, llvm_module)
    return llvm_module


@dataclass(frozen=True)
class LLVMIRTarget(Target):
    """`mux-opt -t llvm`: the LLVM IR text of an llvm-dialect module."""

    name = "llvm"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        print(translate(module), file=output)


def _string_attribute(module: ModuleOp, name: str) -> str | None:
    attribute = module.attributes.get(name)
    if attribute is None:
        return None
    if not isinstance(attribute, StringAttr):
        raise TranslationError(f"module attribute {name} must be a string")
    return attribute.data
