"""The named pipelines: the passes `mux.compile` runs, in the spec's order.

The calls of OpenCL's builtins in a module from the OpenCL C front-end become `mux`
ops first of all (`lower-to-mux-builtins`: nothing to do in hand-written MLIR, which
uses the ops), so that every later pass recognises them; the library functions
(maths, conversions, vector loads, ...) are then defined inline (`link-builtins`),
before `run-vecz` vectorises the kernel.
compiler-pipeline-overview.txt gives the phases: adding metadata and attributes,
work-item scheduling and barriers (kernels without barriers vectorised first,
`run-vecz`, the scalar kernel running the work-items the vector one leaves), adding
scheduling parameters, defining mux builtins, kernel wrapping, then (host target)
the entry hook over a slice of work-groups, and finally code generation, here our
conversion to the `llvm` dialect. Module-scope local variables become a buffer per
work-group (`replace-module-scope-vars`) before the work-items are scheduled, so
that `work-item-loops` sees the buffer as a kernel argument, the same for all
work-items. Calls of OpenCL's atomic functions become `atomic` ops
(`replace-atomic-funcs`) with the other builtin replacements. The DMA builtins are
defined (`define-mux-dma`) before the barriers are prepared, since each `dma_wait`
becomes a work-group barrier. With `software-wgc`, `replace-wgc` replaces the
work-group collectives by barriers and local variables first of all, before those
variables are placed and the barriers prepared.

`mux-opt -p host` runs the whole pipeline; `HostPipeline().passes()` lists its steps,
each of which `mux-opt -p <name>` runs alone (docs/tutorial.md follows them).
`mux.compile` builds the pipeline from its options (`HostPipeline.for_options`) and
runs it with `HostPipeline.lower`, which also says which of LLVM's optimisation
levels the lowered kernel wants, and calls back after each pass if asked (`after`:
the lowering explorer, `mux.explorer`, prints each pass's output with it).

For a caller building on the library (docs/library.md), the pipeline is also cut
(`start`, `stop`: run from one named pass to another) and extended (`with_pass`: a
pass of the caller's own before or after one of ours); `mux.compile(...,
pipeline=...)` compiles with such a pipeline.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.transforms.reconcile_unrealized_casts import ReconcileUnrealizedCastsPass
from xdsl.utils.exceptions import PassFailedException

from lowering.add_entry_hook import AddEntryHookPass
from lowering.add_kernel_wrapper import AddKernelWrapperPass
from lowering.add_sched_params import AddSchedParamsPass
from lowering.check_access_bounds import CheckAccessBoundsPass
from lowering.common.compile_options import CompileOptions
from lowering.define_mux_builtins import DefineMuxBuiltinsPass
from lowering.define_mux_dma import DefineMuxDmaPass
from lowering.encode_kernel_metadata import EncodeKernelMetadataPass
from lowering.lift_llvm_ops import LiftLLVMOpsPass
from lowering.link_builtins import LinkBuiltinsPass
from lowering.lower_printf import LowerPrintfPass
from lowering.lower_to_mux_builtins import LowerToMuxBuiltinsPass
from lowering.prepare_barriers import PrepareBarriersPass
from lowering.reduce_to_func import ReduceToFuncPass
from lowering.replace_atomic_funcs import ReplaceAtomicFuncsPass
from lowering.replace_module_scope_vars import ReplaceModuleScopeVarsPass
from lowering.replace_mux_math_decls import ReplaceMuxMathDeclsPass
from lowering.replace_wgc import ReplaceWGCPass
from lowering.run_vecz import RunVeczPass
from lowering.transfer_kernel_metadata import TransferKernelMetadataPass
from lowering.verify_reqd_sub_group_legal import VerifyReqdSubGroupLegalPass
from lowering.verify_reqd_sub_group_satisfied import VerifyReqdSubGroupSatisfiedPass
from lowering.work_item_loops import WorkItemLoopsPass


@dataclass(frozen=True)
class HostPipeline(ModulePass):
    """The host target's pipeline: from kernels to the `llvm` dialect.

    Without `kernel`, every kernel of the module is compiled
    (`transfer-kernel-metadata`); with it, only that kernel, specialised for
    `local-sizes` if given (`encode-kernel-metadata`: the kernels it calls are
    ordinary functions then), and the functions it does not call are dropped first
    (`reduce-to-func{keep=...}`). In both cases
    `reduce-to-func` ends the mux part of the pipeline, dropping what no entry
    point uses any more.

    `fast`, `software-wgc`, `sub-group-size`, `vecz-width` and `checked` are the compile
    options (`lowering.common.compile_options.CompileOptions`, `options`), checked
    by its rules when the pipeline is made.
    """

    name = "host"

    kernel: str = ""
    """Compile this kernel only."""
    local_sizes: tuple[int, ...] = ()
    """Specialise `kernel` for this local size (its required work-group size)."""
    fast: bool = False
    """`mux.usefast` is true: maths may trade accuracy for speed."""
    software_wgc: bool = False
    """Work-group collectives in software (`replace-wgc`), before the local
    variables are placed."""
    sub_group_size: int = 1
    """The sub-group size of kernels that do not require one (`work-item-loops`)."""
    vecz_width: int = 0
    """The width `run-vecz` vectorises kernels to (1: no vectorisation, 0: its cost
    model chooses)."""
    checked: bool = False
    """Checked mode: `check-access-bounds` after `run-vecz` (docs/checked.md)."""
    to_llvm: bool = True
    """End with `convert-to-llvm` (false: stop at the wrapped mux level)."""
    start: str = ""
    """Run from the first pass of this name (empty: from the first pass)."""
    stop: str = ""
    """Run up to and including the first pass of this name at or after `start`
    (empty: to the last pass)."""
    inserted: tuple[tuple[str, str, ModulePass], ...] = field(default=(), init=False)
    """The caller's passes (`with_pass`): ("before" or "after", the name of one of
    ours, the pass). Not an option of the command line (not `init`)."""

    def __post_init__(self) -> None:
        CompileOptions.from_attributes(self)  # whose rules check the options

    def with_pass(
        self, pass_: ModulePass, *, after: str = "", before: str = ""
    ) -> HostPipeline:
        """This pipeline with `pass_` run right after (or before) the first of our
        passes named `after` (or `before`): exactly one of them is given. The
        name is checked when the passes are listed (`passes`): PassFailedException
        if no pass of the pipeline has it (a pass that runs only with some options,
        `replace-wgc` say, is absent without them). Passes inserted at the same
        place run in the order they were inserted."""
        if bool(after) == bool(before):
            raise ValueError("with_pass: give one of after= or before=")
        where, name = ("after", after) if after else ("before", before)
        return self._extended((*self.inserted, (where, name, pass_)))

    def specialised(
        self,
        options: CompileOptions,
        kernel: str = "",
        local_sizes: tuple[int, ...] = (),
    ) -> HostPipeline:
        """This pipeline (its cut and inserted passes) for one kernel compiled
        with `options` (as `for_options`): what `mux.compile` runs."""
        base = replace(self, kernel=kernel, local_sizes=local_sizes, **asdict(options))
        return base._extended(self.inserted)

    def _extended(
        self, inserted: tuple[tuple[str, str, ModulePass], ...]
    ) -> HostPipeline:
        copy = replace(self)  # `inserted` is not `init`: set on the copy
        object.__setattr__(copy, "inserted", inserted)
        return copy

    @classmethod
    def for_options(
        cls,
        options: CompileOptions,
        kernel: str = "",
        local_sizes: tuple[int, ...] = (),
    ) -> HostPipeline:
        """The pipeline compiling with `options` (`kernel`, `local_sizes`: as the
        fields)."""
        return cls(kernel=kernel, local_sizes=local_sizes, **asdict(options))

    @property
    def options(self) -> CompileOptions:
        """The compile options among the fields."""
        return CompileOptions.from_attributes(self)

    def passes(self) -> list[ModulePass]:
        """The passes `lower` runs, in order: ours for the options, the caller's
        inserted among them, cut to `start`..`stop`. PassFailedException if a
        name the pipeline was given (`start`, `stop`, `with_pass`) is none of
        its passes."""
        passes = self._own_passes()
        for where, name, extra in self.inserted:
            at = _index(passes, name)
            passes.insert(at + 1 if where == "after" else at, extra)
        first = _index(passes, self.start) if self.start else 0
        last = _index(passes, self.stop, first) if self.stop else len(passes) - 1
        return passes[first : last + 1]

    def _own_passes(self) -> list[ModulePass]:
        from lowering import ALL_PASSES

        metadata: ModulePass = (
            EncodeKernelMetadataPass(
                kernel_name=self.kernel, local_sizes=self.local_sizes
            )
            if self.kernel
            else TransferKernelMetadataPass()
        )
        # the OpenCL builtins as mux ops first: the other passes recognise those
        passes: list[ModulePass] = [
            LowerPrintfPass(),  # first: its walk is the host's (`mux.printf`)
            LowerToMuxBuiltinsPass(),
            LinkBuiltinsPass(),  # the library functions' definitions, inline
            metadata,
            VerifyReqdSubGroupLegalPass(),
        ]
        if self.kernel:  # the one kernel under compilation, and what it calls
            passes.append(ReduceToFuncPass(keep=(self.kernel,)))
        if self.software_wgc:  # adds local variables and barriers
            passes.append(ReplaceWGCPass())
        passes += [
            ReplaceModuleScopeVarsPass(),
            ReplaceMuxMathDeclsPass(fast=self.fast),
            ReplaceAtomicFuncsPass(),
            DefineMuxDmaPass(),  # its waits are barriers: before prepare-barriers
            PrepareBarriersPass(),
            LiftLLVMOpsPass(),  # imported kernels in run-vecz's terms
            RunVeczPass(width=self.vecz_width),
            *([CheckAccessBoundsPass()] if self.checked else []),
            WorkItemLoopsPass(sub_group_size=self.sub_group_size),
            VerifyReqdSubGroupSatisfiedPass(),
            AddSchedParamsPass(),
            DefineMuxBuiltinsPass(),
            AddKernelWrapperPass(),
            AddEntryHookPass(),
            # what no entry point uses any more: kernels replaced by their
            # barrier regions, helpers inlined by prepare-barriers
            ReduceToFuncPass(),
        ]
        if self.to_llvm:
            passes += [
                ALL_PASSES["convert-to-llvm"]()(),
                ReconcileUnrealizedCastsPass(),
            ]
        return passes

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self.lower(ctx, op)

    def lower(
        self,
        ctx: Context,
        op: ModuleOp,
        after: Callable[[ModulePass, ModuleOp], None] | None = None,
    ) -> int:
        """Applies the pipeline to `op`, calling `after(pass, op)` (if given) once
        each pass has run; returns the optimisation level, 2 or 3, LLVM should
        compile the result at. A pass that fails raises, and `after` has then seen
        the passes before it.

        O3 for a kernel with barriers (`work-item-loops` built barrier regions), O2
        without. The work-item loops of a kernel with barriers call region
        functions whose control flow is uniform (a tree's step, the region to run
        next); only O3's non-trivial loop unswitching takes it out of the loops, so
        that they vectorise. Without barriers `run-vecz` has vectorised the kernel
        already, and O3 costs compile time for nothing: the kernel runs as fast at
        O2 (docs/performance.md, "LLVM's optimisation level")."""
        barrier_regions = False
        for p in self.passes():
            if isinstance(p, WorkItemLoopsPass):
                barrier_regions = p.builds_barrier_regions(op)
            p.apply(ctx, op)
            if after is not None:
                after(p, op)
        return 3 if barrier_regions else 2


def _index(passes: list[ModulePass], name: str, start: int = 0) -> int:
    """The index of the first pass named `name` at or after `start`."""
    for index in range(start, len(passes)):
        if passes[index].name == name:
            return index
    names = ", ".join(p.name for p in passes[start:])
    raise PassFailedException(f"host pipeline: no pass '{name}' (passes: {names})")
