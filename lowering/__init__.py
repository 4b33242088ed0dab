"""The spec's passes, one module each, and the one table of them.

`PASSES` lists every pass once: the class name the spec gives it (the reference
implementation's `compiler::utils` class, which is how the spec's documents name
it), the command-line name (the one the reference implementation's `muxc` uses),
and the module and class that implement it. `ALL_PASSES` maps each command-line
name to a factory returning the pass class, as xDSL's tools expect. A new pass is a
module in this package plus one line here. Modules are imported on first use, so
`mux-opt` starts fast.

The layout of the package:

- a module (or, for the larger ones, a package) per pass, at the top level, and
  `pipelines.py`, the passes in the order `mux.compile` runs them;
- `scheduling/`: what `work-item-loops` is built from (barrier regions, live
  values, region functions, uniformity, bound functions, group exchanges);
- `common/`: what several passes share (control-flow graphs, IR builders, the call
  graph, scheduling structs, the llvm type conversion and memory layout, the
  device's limits, pattern dispatch, group arithmetic);
- `to_llvm/`: the conversions of the upstream dialects to xDSL's `llvm` dialect.
"""

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.passes import ModulePass

__all__ = ["ALL_PASSES", "PASSES", "PassInfo"]
"""The table; each pass class is public in its own module (`PassInfo.module`), the
host pipeline is `lowering.pipelines.HostPipeline` (docs/library.md)."""


@dataclass(frozen=True)
class PassInfo:
    """One pass: how the spec calls it, how the command line calls it, where it is."""

    spec: str
    """The spec's class name (`compiler-utils-passes.rst`), or a description for a
    pass the spec does not have."""
    name: str
    """The command-line name: `mux-opt -p <name>`."""
    module: str
    """The module under `lowering` that defines the pass."""
    cls: str
    """The pass class in that module."""

    def load(self) -> type[ModulePass]:
        return getattr(importlib.import_module(f"lowering.{self.module}"), self.cls)


PASSES: tuple[PassInfo, ...] = (
    PassInfo(
        "(none: our conversion)", "convert-to-llvm", "to_llvm", "ConvertToLLVMPass"
    ),
    PassInfo(
        "TransferKernelMetadataPass",
        "transfer-kernel-metadata",
        "transfer_kernel_metadata",
        "TransferKernelMetadataPass",
    ),
    PassInfo(
        "EncodeKernelMetadataPass",
        "encode-kernel-metadata",
        "encode_kernel_metadata",
        "EncodeKernelMetadataPass",
    ),
    PassInfo(
        "LowerToMuxBuiltinsPass",
        "lower-to-mux-builtins",
        "lower_to_mux_builtins",
        "LowerToMuxBuiltinsPass",
    ),
    PassInfo(
        "(none: printf records, opencl-c spec 6.15.14)",
        "lower-printf",
        "lower_printf",
        "LowerPrintfPass",
    ),
    PassInfo(
        "(none: checked mode, issue 17)",
        "check-access-bounds",
        "check_access_bounds",
        "CheckAccessBoundsPass",
    ),
    PassInfo("LinkBuiltinsPass", "link-builtins", "link_builtins", "LinkBuiltinsPass"),
    PassInfo(
        "ReplaceMuxMathDeclsPass",
        "replace-mux-math-decls",
        "replace_mux_math_decls",
        "ReplaceMuxMathDeclsPass",
    ),
    PassInfo("ReplaceWGCPass", "replace-wgc", "replace_wgc", "ReplaceWGCPass"),
    PassInfo(
        "ReplaceLocalModuleScopeVariablesPass",
        "replace-module-scope-vars",
        "replace_module_scope_vars",
        "ReplaceModuleScopeVarsPass",
    ),
    PassInfo(
        "ComputeLocalMemoryUsagePass",
        "compute-local-memory-usage",
        "compute_local_memory_usage",
        "ComputeLocalMemoryUsagePass",
    ),
    PassInfo(
        "ReplaceAtomicFuncsPass",
        "replace-atomic-funcs",
        "replace_atomic_funcs",
        "ReplaceAtomicFuncsPass",
    ),
    PassInfo(
        '(none: software DMA, ir-conventions.rst "DMA")',
        "define-mux-dma",
        "define_mux_dma",
        "DefineMuxDmaPass",
    ),
    PassInfo(
        "DegenerateSubGroupPass",
        "degenerate-sub-groups",
        "degenerate_sub_groups",
        "DegenerateSubGroupsPass",
    ),
    PassInfo(
        "VerifyReqdSubGroupSizeLegalPass",
        "verify-reqd-sub-group-legal",
        "verify_reqd_sub_group_legal",
        "VerifyReqdSubGroupLegalPass",
    ),
    PassInfo(
        "VerifyReqdSubGroupSizeSatisfiedPass",
        "verify-reqd-sub-group-satisfied",
        "verify_reqd_sub_group_satisfied",
        "VerifyReqdSubGroupSatisfiedPass",
    ),
    PassInfo(
        "PrepareBarriersPass",
        "prepare-barriers",
        "prepare_barriers",
        "PrepareBarriersPass",
    ),
    PassInfo(
        "(none: imported llvm ops as arith and memref ones)",
        "lift-llvm-ops",
        "lift_llvm_ops",
        "LiftLLVMOpsPass",
    ),
    PassInfo("RunVeczPass", "run-vecz", "run_vecz", "RunVeczPass"),
    PassInfo(
        "WorkItemLoopsPass", "work-item-loops", "work_item_loops", "WorkItemLoopsPass"
    ),
    PassInfo(
        "AddSchedulingParametersPass",
        "add-sched-params",
        "add_sched_params",
        "AddSchedParamsPass",
    ),
    PassInfo(
        "DefineMuxBuiltinsPass",
        "define-mux-builtins",
        "define_mux_builtins",
        "DefineMuxBuiltinsPass",
    ),
    PassInfo(
        "AddKernelWrapperPass",
        "add-kernel-wrapper",
        "add_kernel_wrapper",
        "AddKernelWrapperPass",
    ),
    PassInfo(
        "AddEntryHookPass", "add-entry-hook", "add_entry_hook", "AddEntryHookPass"
    ),
    PassInfo(
        "MakeFunctionNameUniquePass",
        "make-unique-func",
        "make_unique_func",
        "MakeUniqueFuncPass",
    ),
    PassInfo(
        "ReduceToFunctionPass", "reduce-to-func", "reduce_to_func", "ReduceToFuncPass"
    ),
    PassInfo("(none: the host pipeline)", "host", "pipelines", "HostPipeline"),
)

ALL_PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    info.name: info.load for info in PASSES
}
"""Command-line name -> a factory of the pass class (what xDSL's tools take)."""
