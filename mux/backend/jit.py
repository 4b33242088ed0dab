"""JIT compilation of LLVM IR text for the host CPU with llvmlite.

`compile_ir(text)` parses and verifies the IR, optimises it at O3 with the new pass
manager (loop and SLP vectorisation on) for the host CPU's target machine (its name
and features, so AVX2 is used where the machine has it), and builds an MCJIT engine.
The resulting `JITModule` owns the engine: every function pointer it hands out stays
valid as long as the `JITModule` is alive, so keep a reference to it wherever the
pointers are used.

Compiled modules are cached in memory, keyed by the SHA-256 of the IR text and of
the options (opt level, CPU name and features): compiling the same text twice
returns the same `JITModule`, without reoptimising it.
"""

from __future__ import annotations

import ctypes
import hashlib
import threading
from dataclasses import dataclass
from functools import cache
from typing import IO, Any

from llvmlite import binding as llvm
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException
from xdsl.utils.target import Target

from mux.backend.linking import runtime_library

__all__ = [
    "AsmTarget",
    "JITError",
    "JITModule",
    "compile_ir",
    "host_target_machine",
    "load_compiled",
    "optimize",
]

OPT_LEVEL = 3


class JITError(DiagnosticException):
    """LLVM rejected the IR (parse or verifier error) or a symbol is missing; the
    message carries llvmlite's."""


@cache
def _initialize() -> None:
    """Initialises the native target and its asm printer, and loads the compiler
    runtime library for the code's calls (`linking.runtime_library`), once per
    process."""
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    library = runtime_library()
    if library is not None:
        llvm.load_library_permanently(library)


@cache
def _host_cpu() -> tuple[str, str]:
    """The host CPU's name and its LLVM feature string (`+avx2,...`)."""
    _initialize()
    return llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten()


@cache
def host_target_machine(opt_level: int = OPT_LEVEL) -> llvm.TargetMachine:
    """A target machine for the host CPU (name and features), at `opt_level`, shared
    by the optimiser and the assembly printer. Never give it to an engine:
    `_new_target_machine` is for that."""
    return _new_target_machine(opt_level)


def _new_target_machine(opt_level: int) -> llvm.TargetMachine:
    """A new target machine for the host CPU. An MCJIT engine takes ownership of the
    machine it is given and deletes it when the engine is freed, so each engine
    gets its own (cheap: docs/performance.md, "Small costs of the translation to
    LLVM"): a shared one would be used after being freed once any compiled module
    was dropped (`clear_cache`)."""
    cpu, features = _host_cpu()
    target = llvm.Target.from_default_triple()
    return target.create_target_machine(
        cpu=cpu, features=features, opt=opt_level, jit=True
    )


def optimize(module: llvm.ModuleRef, opt_level: int = OPT_LEVEL) -> None:
    """Optimises `module` in place with the new pass manager's default pipeline at
    `opt_level`, loop and SLP vectorisation on, for the host target machine."""
    machine = host_target_machine(opt_level)
    tuning = llvm.create_pipeline_tuning_options(speed_level=opt_level)
    tuning.loop_vectorization = True
    tuning.slp_vectorization = True
    tuning.loop_interleaving = True
    tuning.loop_unrolling = True
    builder = llvm.create_pass_builder(machine, tuning)
    builder.getModulePassManager().run(module, builder)


class JITModule:
    """One compiled module: its MCJIT engine, the optimised IR and host assembly.

    The engine (and the machine code every address points to) lives as long as this
    object does.
    """

    def __init__(
        self,
        module: llvm.ModuleRef,
        opt_level: int,
        object_code: bytes | None = None,
    ):
        """Compiles the optimised `module`, or, given its `object_code` (from an
        earlier compilation of the same module), loads that instead."""
        # Code generation changes the module it compiles, so the optimised IR is
        # printed before the engine takes it.
        self.llvm_ir: str = str(module)
        """The optimised LLVM IR text."""
        self._engine = llvm.create_mcjit_compiler(
            module, _new_target_machine(opt_level)
        )
        produced: list[bytes] = []
        self._engine.set_object_cache(
            lambda _module, buffer: produced.append(buffer),
            lambda _module: object_code,
        )
        self._engine.finalize_object()
        self.object_code: bytes = produced[0] if produced else (object_code or b"")
        """The machine code of the module, as an object file (`load_compiled`)."""
        self._opt_level = opt_level
        self._assembly: str | None = None
        self._functions: dict[tuple[Any, ...], Any] = {}

    @property
    def assembly(self) -> str:
        """The host assembly of the optimised module (generated on first use)."""
        if self._assembly is None:
            machine = host_target_machine(self._opt_level)
            module = llvm.parse_assembly(self.llvm_ir)
            self._assembly = machine.emit_assembly(module)
        return self._assembly

    def address(self, name: str) -> int:
        """The address of function `name`; `JITError` if the module does not export
        it (internal and private functions are not exported, and may have been
        inlined away)."""
        address = self._engine.get_function_address(name)
        if not address:
            raise JITError(f"the compiled module has no exported function @{name}")
        return address

    def ctypes_function(
        self, name: str, restype: Any, argtypes: list[Any] | tuple[Any, ...]
    ) -> Any:
        """Function `name` as a ctypes function with the given C signature. The
        ctypes object keeps this module alive."""
        key = (name, restype, tuple(argtypes))
        function = self._functions.get(key)
        if function is None:
            prototype = ctypes.CFUNCTYPE(restype, *argtypes)
            function = prototype(self.address(name))
            # the engine must outlive the pointer; ctypes function objects take
            # attributes, which typeshed's `_CFunctionType` does not declare
            function._jit_module = self  # pyright: ignore[reportAttributeAccessIssue]
            self._functions[key] = function
        return function


_cache: dict[str, JITModule] = {}
_cache_lock = threading.Lock()


def cache_key(ir_text: str, opt_level: int = OPT_LEVEL) -> str:
    """The cache key of a compilation: IR text, opt level and host CPU."""
    digest = hashlib.sha256()
    for part in (ir_text, str(opt_level), *_host_cpu()):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def compile_ir(ir_text: str, opt_level: int = OPT_LEVEL) -> JITModule:
    """Parses, verifies, optimises and JIT-compiles LLVM IR text for the host.

    Raises `JITError` with llvmlite's message if the IR does not parse or verify.
    What the IR calls must exist (`mux.backend.linking` checks it before).
    The same text and options compiled twice give the same `JITModule`.
    """
    _initialize()
    key = cache_key(ir_text, opt_level)
    with _cache_lock:
        cached = _cache.get(key)
        if cached is not None:
            return cached
        try:
            module = llvm.parse_assembly(ir_text)
            module.verify()
        except RuntimeError as error:
            raise JITError(f"invalid LLVM IR: {error}") from error
        machine = host_target_machine(opt_level)
        module.triple = machine.triple
        module.data_layout = str(machine.target_data)
        optimize(module, opt_level)
        compiled = JITModule(module, opt_level)
        _cache[key] = compiled
        return compiled


def load_compiled(llvm_ir: str, object_code: bytes) -> JITModule:
    """The `JITModule` of optimised IR `llvm_ir` whose machine code is
    `object_code` (a `JITModule`'s `llvm_ir` and `object_code`, saved earlier):
    nothing is optimised or compiled again. Only for code of this machine's CPU
    and of the same llvmlite: the caller must make sure of it."""
    _initialize()
    try:
        module = llvm.parse_assembly(llvm_ir)
    except RuntimeError as error:
        raise JITError(f"invalid LLVM IR: {error}") from error
    return JITModule(module, OPT_LEVEL, object_code)


def clear_cache() -> None:
    """Forgets every cached module (those still referenced stay valid)."""
    with _cache_lock:
        _cache.clear()


@dataclass(frozen=True)
class AsmTarget(Target):
    """`mux-opt -t asm`: the host assembly of an llvm-dialect module after O3."""

    name = "asm"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from mux.backend.llvm_ir import translate

        print(compile_ir(translate(module)).assembly, file=output)
