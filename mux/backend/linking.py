"""What a lowered module calls must exist: every function it declares without a body
is an LLVM intrinsic or a symbol of this process (the C library's `memcpy`, libm's
`expf`), which is where the JIT engine looks it up.

A call to anything else would compile, and then jump to address 0 at its first
launch: the process dies (MCJIT leaves an unresolved symbol null). An OpenCL C kernel
comes to this by calling a builtin the pipeline gives no definition for (`sqrt` as
`@_Z4sqrtf` while the builtin library lacks it); an MLIR kernel by declaring a
function nothing defines. `check_linkable` refuses such a module before it reaches
LLVM, naming the function (demangled when it is an OpenCL builtin) at a call of it.
"""

from __future__ import annotations

import ctypes
from functools import cache

from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp

from lowering.common.errors import PassError
from lowering.common.mangling import demangle

INTRINSIC_PREFIX = "llvm."
"""LLVM defines every function of this prefix itself."""


@cache
def _process() -> ctypes.CDLL:
    return ctypes.CDLL(None)


def in_process(name: str) -> bool:
    """`name` is a symbol of this process, as the JIT engine will resolve it."""
    try:
        getattr(_process(), name)
    except AttributeError:
        return False
    return True


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
