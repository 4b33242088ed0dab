"""`compute-local-memory-usage`: the spec's ComputeLocalMemoryUsagePass.

compiler-utils-passes.rst names the pass ("after the `ComputeLocalMemoryUsagePass`
... all metadata is present"), and mux-compiler-spec.rst, "Function Attributes",
its result: `"mux-local-mem-usage"="val"`, the "estimated local-memory usage for the
function". Here each kernel entry point gets `mux.local_mem_usage` = the bytes of
local memory its module-scope local variables take: the size of the buffer
`replace-module-scope-vars` gives it (its layout, with each variable aligned, see
that pass), or 0 if it uses none. Local buffers passed as arguments are not
counted: their size is only known at launch.

The pass can run before `replace-module-scope-vars` (the usage is computed from the
variables the kernel uses, directly or through the functions it calls) or after it
(the usage is the `size` of the `mux.local_vars_param` of the kernel or of a
function it calls, such as the kernel `add-kernel-wrapper` wraps): both give the
same number, and so does `local_memory_usage`, which the runtime calls on the module as
written to refuse a launch whose local memory would exceed the device's
(`DeviceInfo.local_memory_size`). The `host` pipeline does not run the pass, since
the runtime computes the number itself.

Before: kernel metadata (`transfer-kernel-metadata`, `encode-kernel-metadata`).
After: every kernel entry point has `mux.local_mem_usage`, 0 when it uses no
module-scope local variable.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from dialects import attributes as mux_attrs
from lowering.common.functions import functions, kernel_entry_points, reachable_from
from lowering.replace_module_scope_vars import (
    ModuleScopeLocals,
    find_module_scope_locals,
)


def local_memory_usage(
    module: ModuleOp, kernel: func.FuncOp, found: ModuleScopeLocals | None = None
) -> int:
    """Bytes of local memory the module-scope local variables of `kernel` (a
    function of `module`) take; `found` is `find_module_scope_locals(module)`, if
    already computed."""
    found = find_module_scope_locals(module) if found is None else found
    name = kernel.sym_name.data
    usage = found.size if name in found.users else 0
    fns = functions(module)
    for reached in reachable_from(module, [name]):
        fn = fns.get(reached)
        recorded = None if fn is None else mux_attrs.LOCAL_VARS_PARAM.get(fn)
        if recorded is not None:
            usage = max(usage, recorded.size)
    return usage


@dataclass(frozen=True)
class ComputeLocalMemoryUsagePass(ModulePass):
    """Records on each kernel entry point the local memory its module-scope
    variables use (`mux.local_mem_usage`)."""

    name = "compute-local-memory-usage"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        found = find_module_scope_locals(op)
        for kernel in kernel_entry_points(op):
            usage = local_memory_usage(op, kernel, found)
            mux_attrs.LOCAL_MEM_USAGE.set(kernel, usage)
