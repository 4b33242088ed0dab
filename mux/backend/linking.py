"""What a lowered module calls must exist: every function it declares without a body
is an LLVM intrinsic or a symbol of this process (the C library's `memcpy`, libm's
`expf`) or of the compiler runtime library, which is where the JIT engine looks it up.

A call to anything else would compile, and then jump to address 0 at its first
launch: the process dies (MCJIT leaves an unresolved symbol null). An OpenCL C kernel
comes to this by calling a builtin the pipeline gives no definition for (`sqrt` as
`@_Z4sqrtf` while the builtin library lacks it); an MLIR kernel by declaring a
function nothing defines. `check_linkable` refuses such a module before it reaches
LLVM, naming the function (demangled when it is an OpenCL builtin) at a call of it.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import cache

from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp

from lowering.common.errors import PassError
from lowering.common.mangling import demangle

INTRINSIC_PREFIX = "llvm."
"""LLVM defines every function of this prefix itself."""

RUNTIME_LIBRARY = "gcc_s"
"""The compiler runtime library: LLVM's code generator calls its functions for what
the CPU has no instruction for (`__truncdfhf2`: a double to a half on x86), and a
Python process does not load it with its symbols visible (`runtime_library`)."""


@cache
def runtime_library() -> str | None:
    """The file of the compiler runtime library (libgcc_s), None if there is none.
    The JIT loads it (`mux.backend.jit`), so that its functions resolve."""
    return ctypes.util.find_library(RUNTIME_LIBRARY)


@cache
def _libraries() -> tuple[ctypes.CDLL, ...]:
    library = runtime_library()
    runtime = (ctypes.CDLL(library),) if library else ()
    return (ctypes.CDLL(None), *runtime)


def in_process(name: str) -> bool:
    """`name` is a symbol of this process or of the compiler runtime library, as
    the JIT engine will resolve it."""
    return any(hasattr(library, name) for library in _libraries())


def check_linkable(module: ModuleOp) -> None:
    """PassError, at a call of it, for the first function `module` calls that has
    no body and is neither an intrinsic nor a symbol of this process."""
    declared = {
        op.sym_name.data
        for op in module.ops
        if isinstance(op, llvm.FuncOp) and not op.body.blocks
    }
    missing = {
        name
        for name in declared
        if not name.startswith(INTRINSIC_PREFIX) and not in_process(name)
    }
    if not missing:
        return
    for op in module.walk():
        if isinstance(op, llvm.CallOp) and op.callee is not None:
            name = op.callee.root_reference.data
            if name in missing:
                raise PassError(_message(name), op)
    raise PassError(_message(sorted(missing)[0]))


def _message(name: str) -> str:
    builtin = demangle(name)
    if builtin is not None:
        return (
            f"the OpenCL C builtin '{builtin.signature()}' (@{name}) is not in the "
            "builtin library yet: nothing defines it"
        )
    return (
        f"@{name} is declared but defined nowhere: not in the module, and not a "
        "symbol of this process the JIT could link to"
    )
