"""The LLVM backend: llvm-dialect modules to LLVM IR, JIT-compiled for the host.

- `llvm_ir.translate(module) -> str`: the LLVM IR text of a module in the `llvm`
  and `llvmx` dialects (a layer over `xdsl.backend.llvm`; its steps are the
  modules `address_spaces`, `global_variables`, `functions`, `op_translators` and
  `llvmlite_instructions`, see `llvm_ir`).
- `jit.compile_ir(text) -> JITModule`: parsed, verified, optimised at O3 for the
  host CPU and compiled with MCJIT; cached in memory.
- `ALL_TARGETS`: the `mux-opt -t` targets `llvm` (LLVM IR text) and `asm` (host
  assembly after O3).

Errors are `DiagnosticException`s: `llvm_ir.TranslationError` (defined in
`errors`) for what cannot be
translated, `jit.JITError` for IR LLVM rejects.
"""

from collections.abc import Callable

from xdsl.utils.target import Target


def _llvm_target() -> type[Target]:
    from mux.backend.llvm_ir import LLVMIRTarget

    return LLVMIRTarget


def _asm_target() -> type[Target]:
    from mux.backend.jit import AsmTarget

    return AsmTarget


ALL_TARGETS: dict[str, Callable[[], type[Target]]] = {
    "llvm": _llvm_target,
    "asm": _asm_target,
}
