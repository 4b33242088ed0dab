"""The spec's passes, one module each, and the one table of their names.

`ALL_PASSES` maps a pass's command-line name (the one the reference implementation's
`muxc` uses) to a factory returning the pass class, as xDSL's tools expect. A new pass
is a module in this package plus one line here. Modules are imported on first use, so
`mux-opt` starts fast.
"""

import importlib
from collections.abc import Callable

from xdsl.passes import ModulePass


def _lazy(module: str, cls: str) -> Callable[[], type[ModulePass]]:
    def factory() -> type[ModulePass]:
        return getattr(importlib.import_module(f"lowering.{module}"), cls)

    return factory


ALL_PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    "convert-to-llvm": _lazy("to_llvm", "ConvertToLLVMPass"),
    "transfer-kernel-metadata": _lazy(
        "transfer_kernel_metadata", "TransferKernelMetadataPass"
    ),
    "encode-kernel-metadata": _lazy(
        "encode_kernel_metadata", "EncodeKernelMetadataPass"
    ),
    "replace-mux-math-decls": _lazy(
        "replace_mux_math_decls", "ReplaceMuxMathDeclsPass"
    ),
    "replace-wgc": _lazy("replace_wgc", "ReplaceWGCPass"),
    "replace-module-scope-vars": _lazy(
        "replace_module_scope_vars", "ReplaceModuleScopeVarsPass"
    ),
    "compute-local-memory-usage": _lazy(
        "compute_local_memory_usage", "ComputeLocalMemoryUsagePass"
    ),
    "replace-atomic-funcs": _lazy("replace_atomic_funcs", "ReplaceAtomicFuncsPass"),
    "define-mux-dma": _lazy("define_mux_dma", "DefineMuxDmaPass"),
    "degenerate-sub-groups": _lazy("degenerate_sub_groups", "DegenerateSubGroupsPass"),
    "verify-reqd-sub-group-legal": _lazy(
        "verify_reqd_sub_group_legal", "VerifyReqdSubGroupLegalPass"
    ),
    "verify-reqd-sub-group-satisfied": _lazy(
        "verify_reqd_sub_group_satisfied", "VerifyReqdSubGroupSatisfiedPass"
    ),
    "prepare-barriers": _lazy("prepare_barriers", "PrepareBarriersPass"),
    "run-vecz": _lazy("run_vecz", "RunVeczPass"),
    "work-item-loops": _lazy("work_item_loops", "WorkItemLoopsPass"),
    "add-sched-params": _lazy("add_sched_params", "AddSchedParamsPass"),
    "define-mux-builtins": _lazy("define_mux_builtins", "DefineMuxBuiltinsPass"),
    "add-kernel-wrapper": _lazy("add_kernel_wrapper", "AddKernelWrapperPass"),
    "add-entry-hook": _lazy("add_entry_hook", "AddEntryHookPass"),
    "make-unique-func": _lazy("make_unique_func", "MakeUniqueFuncPass"),
    "reduce-to-func": _lazy("reduce_to_func", "ReduceToFuncPass"),
    "host": _lazy("pipelines", "HostPipeline"),
}
