"""The public API: `compile`, `load`, `Program`, `Kernel`.

    import mux
    prog = mux.compile(mlir_text)          # or mux.load("kernel.mlir")
    k = prog.kernel("vadd")                # prog.kernels lists the entry points
    k(a, b, c, global_size=1000, local_size=64, global_offset=0)

`compile` runs every kernel through the host pipeline, unspecialised, up to the `llvm`
dialect, so that what stops a kernel from lowering is a CompileError there
(`mux.compiler.check_kernel`). A kernel is compiled on its first launch, for the local
size of that launch when the work-groups are uniform (the local size is then a
constant LLVM can vectorise with), and once more, unspecialised (from the module the
check lowered), for launches with a smaller last work-group (OpenCL 2.0 non-uniform
work-groups). Compiled kernels are cached.

`compile` also takes an xDSL `ModuleOp` built in Python (`mux.compiler.adopt`:
verified, copied, keyed by its printed form) and a customised pipeline
(`lowering.pipelines.HostPipeline`: cut, or with passes of the caller's own):
docs/library.md.

The four compile options travel as one record,
`lowering.common.compile_options.CompileOptions` (`Program.options`), checked when
it is made.
"""

from __future__ import annotations

import dataclasses
import math
import os
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException

from dialects import attributes as mux_attrs
from lowering.common.compile_options import (
    CompileOptions,
    OptionError,
    with_environment,
)
from lowering.common.device import HOST
from lowering.compute_local_memory_usage import local_memory_usage
from lowering.pipelines import HostPipeline
from mux.access_bounds import KernelBounds
from mux.arguments import Param, kernel_params, packed_struct
from mux.checked import RECORD_PARAM, CheckRecord
from mux.compiler import (
    CompiledKernel,
    KernelVariant,
    adopt,
    check_kernel,
    compile_kernel,
    custom_pipeline,
    parse_cached,
    source_hash,
)
from mux.diagnostics import Source, describe
from mux.errors import CompileError, KernelNotFound, LaunchError
from mux.frontend.languages import language_of, read_source, to_mlir
from mux.printf import PRINTF_BUFFER, PrintfBuffer, kernel_formats
from mux.runtime import (
    check_ndrange,
    default_local_size,
    launch,
    ndrange_sizes,
)


def compile(
    source: str | ModuleOp,
    *,
    language: str = "mlir",
    build_options: str = "",
    fast: bool = False,
    software_wgc: bool = False,
    sub_group_size: int = 1,
    vecz_width: int = 0,
    checked: bool = False,
    name: str = "<source>",
    pipeline: HostPipeline | None = None,
) -> Program:
    """Parses and verifies `source` and lowers each kernel unspecialised
    (`mux.compiler.check_kernel`); CompileError if it is not valid or a kernel does
    not lower. `name` is the file name diagnostics give.

    `source` may be a `ModuleOp` built with our dialects and the upstream ones
    (`language` is then ignored): it is verified and copied, not printed and
    parsed again, and never changed (`mux.compiler.adopt`).

    `pipeline` is a customised host pipeline (`HostPipeline`: passes of the
    caller's own inserted with `with_pass`, or cut with `start`/`stop`), run for
    each kernel in place of ours (`HostPipeline.specialised`); the compile options
    are then its options (`HostPipeline.options`), and option arguments that are
    not the defaults must agree with them (CompileError otherwise). Kernels
    compiled with a caller's pipeline are cached in memory only.

    `language` is what `source` is written in: `"mlir"` (our dialects), `"llvm"`
    (LLVM IR text) or `"opencl"` (OpenCL C, compiled by clang with the
    clBuildProgram options `build_options`; `-cl-fast-relaxed-math` sets `fast`):
    `mux.frontend.languages`.

    `fast` lets maths builtins trade accuracy for speed (`mux.usefast`);
    `software_wgc` implements work-group collectives in software (`replace-wgc`).
    `sub_group_size` is the size of the sub-groups of kernels that do not require
    one (`mux.reqd_sub_group_size`): one of the device's sizes, 1 (the spec's
    default), 2, 4, ..., 64. `vecz_width` is the number of work-items of dimension 0
    a vectorised kernel runs at once (`run-vecz`; 1: no vectorisation; 0, the default:
    its cost model chooses): 0, 1, 2, 4, ..., 32. `checked` compiles in checked
    mode (docs/checked.md: an out-of-bounds access raises `KernelError`); the
    environment variable MUX_CHECKED=1 turns it on for every program. A bad
    option is a CompileError."""
    options = _compile_options(fast, software_wgc, sub_group_size, vecz_width, checked)
    if pipeline is not None:
        if options not in (CompileOptions(), pipeline.options):
            raise CompileError(
                f"compile options {options} disagree with the pipeline's "
                f"{pipeline.options}: give them once, in the pipeline"
            )
        options = pipeline.options
    if isinstance(source, ModuleOp):
        return Program(source, options, name, pipeline=pipeline)
    return _translated_program(
        source, language, build_options, options, name, pipeline=pipeline
    )


def load(
    path: str | os.PathLike[str],
    *,
    build_options: str = "",
    fast: bool = False,
    software_wgc: bool = False,
    sub_group_size: int = 1,
    vecz_width: int = 0,
    checked: bool = False,
) -> Program:
    """`compile` of the file at `path`, in the language its suffix names (`.mlir`,
    `.ll` or `.bc`, `.cl`: `mux.frontend.languages.SUFFIXES`); OSError if it cannot
    be read, CompileError if it is neither UTF-8 text nor LLVM bitcode, or its
    suffix is none of those."""
    options = _compile_options(fast, software_wgc, sub_group_size, vecz_width, checked)
    return load_program(path, options, build_options)


def _compile_options(
    fast: bool, software_wgc: bool, sub_group_size: int, vecz_width: int, checked: bool
) -> CompileOptions:
    """The options record; CompileError, saying which option and what it may be,
    if one is bad."""
    try:
        return CompileOptions(fast, software_wgc, sub_group_size, vecz_width, checked)
    except OptionError as error:
        raise CompileError(str(error)) from None


def load_program(
    path: str | os.PathLike[str], options: CompileOptions, build_options: str = ""
) -> Program:
    """The program of the file at `path` compiled with `options` (`load`)."""
    data = Path(path).read_bytes()  # OSError first: a missing file is that
    language = language_of(Path(path))
    source = read_source(data, language, str(path))
    return _translated_program(
        source, language, build_options, options, str(path), Path(path).parent
    )


def _translated_program(
    source: str,
    language: str,
    build_options: str,
    options: CompileOptions,
    name: str,
    source_dir: Path | None = None,
    pipeline: HostPipeline | None = None,
) -> Program:
    """The program of `source` in `language`, through the front-end to MLIR text
    (`mux.frontend.languages.to_mlir`) when it is not MLIR already."""
    translated = to_mlir(source, language, name, build_options, source_dir)
    if translated.fast and not options.fast:
        options = dataclasses.replace(options, fast=True)
    return Program(translated.mlir, options, name, translated.located_in, pipeline)


class Program:
    """A verified module and its kernels, compiled with `options` (None: the
    defaults) through `pipeline` (None: ours); `compile` and `load` make it, `name`
    is the file name diagnostics give, `located_in` the text their lines are from
    when it is not `source` (the OpenCL C or LLVM IR an imported module came from).
    `source` is MLIR text or a `ModuleOp` (copied: `mux.compiler.adopt`).

    `module` is shared with every other `Program` of the same source text (parsed
    once, `mux.compiler.parse_cached`): read it, do not change it."""

    def __init__(
        self,
        source: str | ModuleOp,
        options: CompileOptions | None = None,
        name: str = "<source>",
        located_in: str | None = None,
        pipeline: HostPipeline | None = None,
    ):
        self.options = with_environment(options or CompileOptions())
        """How the kernels are compiled (checked if MUX_CHECKED=1 is set)."""
        self.vecz_width = self.options.vecz_width
        """The width kernels are vectorised to (`run-vecz`; 1: not vectorised)."""
        self.sub_group_size = self.options.sub_group_size
        """The sub-group size of kernels that do not require one."""
        self.pipeline = pipeline
        """The caller's pipeline the kernels are compiled with (None: ours)."""
        self._pipeline_token = custom_pipeline() if pipeline is not None else 0
        if isinstance(source, ModuleOp):
            self.module, source = adopt(source, name)
        else:
            self.module = parse_cached(source, name)
        self._source = Source(name, source if located_in is None else located_in)
        self._hash = source_hash(source)
        self._kernels: dict[str, Kernel] = {}
        for kernel in self.kernels:  # what does not depend on a launch, found now
            variant = self._variant(kernel, ())
            check_kernel(self.module, variant, self._source, pipeline)

    def function(self, name: str) -> func.FuncOp:
        """The `func.func` of kernel `name` (KernelNotFound if there is none)."""
        for op in self.module.ops:
            if (
                isinstance(op, func.FuncOp)
                and op.sym_name.data == name
                and mux_attrs.is_kernel(op)
            ):
                return op
        names = ", ".join(self.kernels) or "none"
        raise KernelNotFound(f"no kernel '{name}' (kernels: {names})")

    @property
    def kernels(self) -> list[str]:
        """The names of the kernels (functions marked `mux.kernel`)."""
        return [
            op.sym_name.data
            for op in self.module.ops
            if isinstance(op, func.FuncOp) and mux_attrs.is_kernel(op)
        ]

    def kernel(self, name: str) -> Kernel:
        """The kernel `name`. KernelNotFound (a KeyError) if the module has no
        such kernel, its message listing the kernels; CompileError if the kernel
        cannot be launched."""
        self.function(name)
        if name not in self._kernels:
            self._kernels[name] = Kernel(self, name)
        return self._kernels[name]

    def _variant(self, kernel: str, local_sizes: tuple[int, ...]) -> KernelVariant:
        return KernelVariant(
            self._hash, kernel, local_sizes, self.options, self._pipeline_token
        )

    def _compile(self, kernel: str, local_sizes: tuple[int, ...]) -> CompiledKernel:
        variant = self._variant(kernel, local_sizes)
        return compile_kernel(self.module, variant, self._source, self.pipeline)


class Kernel:
    """A kernel of a `Program`, callable on numpy arrays over an NDRange."""

    def __init__(self, program: Program, name: str):
        self.program = program
        self.name = name
        self.function = program.function(name)
        try:
            self.params = kernel_params(self.function)
        except LaunchError as error:  # no launch could pass it: the kernel's fault
            raise CompileError(f"kernel '{name}': {error}") from None
        try:
            self._printf = kernel_formats(program.module, name)
        except DiagnosticException as error:
            raise CompileError(describe(error, program._source)) from error
        """The formats of the printf calls of the module, None if the kernel does
        not print (`mux.printf`: its last parameter is then the printf buffer)."""
        printf_param = [Param("printf buffer", PRINTF_BUFFER)] if self._printf else []
        self._checked = program.options.checked
        record_param = [RECORD_PARAM] if self._checked else []
        self._struct = packed_struct([*self.params, *printf_param, *record_param])
        self._bounds = KernelBounds(self.function, self.params)
        try:
            usage = local_memory_usage(program.module, self.function)
        except DiagnosticException as error:
            raise CompileError(describe(error, program._source)) from error
        self.local_mem_usage = usage
        """Bytes of local memory the kernel's module-scope local variables take per
        work-group (`compute-local-memory-usage`), besides its local buffer
        arguments."""
        self._reqd = mux_attrs.REQD_WORK_GROUP_SIZE.get(self.function)
        self.sub_group_size = (
            mux_attrs.REQD_SUB_GROUP_SIZE.get(self.function) or program.sub_group_size
        )
        """The size of the kernel's sub-groups: its required one, else the
        program's."""

    def __repr__(self) -> str:
        params = ", ".join(
            f"{p.name}: {p.type}" + (f" (byval {p.byval})" if p.byval else "")
            for p in self.params
        )
        return f"<mux.Kernel {self.name}({params})>"

    # The spec's sub-group queries (mux-compiler-spec.rst, "BaseKernel::query*").
    # Sub-groups are `sub_group_size` consecutive local linear ids, the last one
    # possibly fewer.

    def query_sub_group_size_for_local_size(
        self, x: int, y: int = 1, z: int = 1
    ) -> int:
        """`querySubGroupSizeForLocalSize`: the largest sub-group size a launch with
        local size (x, y, z) has (the kernel's sub-group size, or the whole
        work-group if smaller). ValueError if a size is not positive."""
        if min(x, y, z) < 1:
            raise ValueError(f"local sizes must be positive, got {(x, y, z)}")
        return min(self.sub_group_size, x * y * z)

    def query_local_size_for_sub_group_count(self, count: int) -> tuple[int, int, int]:
        """`queryLocalSizeForSubGroupCount`: a 1-D local size, a multiple of the
        sub-group size, giving `count` sub-groups; (0, 0, 0) if none does (too many
        work-items, or a required work-group size with another count)."""
        if count < 1:
            return (0, 0, 0)
        if self._reqd is not None:
            total = math.prod(self._reqd)
            fits = -(-total // self.sub_group_size) == count
            return tuple(self._reqd) if fits else (0, 0, 0)  # type: ignore[return-value]
        size = count * self.sub_group_size
        return (size, 1, 1) if size <= HOST.max_work_group_size else (0, 0, 0)

    def query_max_sub_group_count(self) -> int:
        """`queryMaxSubGroupCount`: the most sub-groups a work-group can have."""
        total = (
            math.prod(self._reqd)
            if self._reqd is not None
            else HOST.max_work_group_size
        )
        return -(-total // self.sub_group_size)

    def compiled(self, local_size: tuple[int, ...] | None = None) -> CompiledKernel:
        """The kernel compiled for `local_size` (None: for any local size)."""
        if self._reqd is not None or local_size is None:
            return self.program._compile(self.name, ())
        return self.program._compile(self.name, local_size)

    @property
    def llvm_ir(self) -> str:
        """The optimised LLVM IR of the kernel, compiled for any local size."""
        return self.compiled().llvm_ir

    @property
    def assembly(self) -> str:
        """The host assembly of the kernel, compiled for any local size."""
        return self.compiled().assembly

    def __call__(
        self,
        *args: Any,
        global_size: int | tuple[int, ...],
        local_size: int | tuple[int, ...] | None = None,
        global_offset: int | tuple[int, ...] = 0,
        threads: int | None = None,
    ) -> None:
        """Runs the kernel over the NDRange, writing the arrays in place.

        Sizes are an int or 1 to 3 ints. `local_size=None` lets the runtime choose
        (the kernel's required size if it has one). An int `global_offset` applies to
        every dimension. `threads` is the number of slices run at once (default: all
        cores). Raises LaunchError, before running anything, if the launch is wrong:
        more dimensions than the kernel's `mux.max_work_dim`, a size, an offset, the
        sum of both or the number of work-items over the device's `size_t`
        (`mux.runtime.SIZE_MAX`), an argument that does not fit its parameter.
        Scalar arguments convert as C's implicit conversions do
        (`mux.conversions.convert`): an integer whose value fits, a real
        rounded to a float parameter's type, a bool for an i1 only. What each
        kind of parameter takes (buffers of vectors, vectors and structs passed by
        value) is `mux.arguments`.

        Buffers are checked against what the launch accesses
        (`mux.access_bounds`): an array or a `LocalBuffer` with fewer elements than
        a static memref type says, or than the largest index some work-item of this
        launch provably reaches (the kernel's indexing being a known function of
        the ids, sizes and integer scalars), is a LaunchError naming the argument,
        its elements and the elements the launch needs; so is a module-scope
        local variable or a private array of static shape indexed past it. Where
        the analysis cannot tell (an index loaded from memory, a buffer passed to
        a call, bounds it cannot prove reached), nothing is checked: the kernel
        runs as written, and an index past the end of an array reads or writes
        outside it.

        In checked mode (`Program.options.checked`) that analysis is skipped:
        every access is checked as it runs, a faulting one is not done (a load
        gives 0), the launch runs to its end, and then raises `KernelError`
        naming the first fault, its parameter or variable, element, byte
        offset, work-item and source location (`mux.checked`). The buffers
        then hold what the kernel wrote.
        """
        global_size = ndrange_sizes("global_size", global_size)
        dims = len(global_size)
        if local_size is None:
            local_size = self._reqd[:dims] if self._reqd else None
        local_size = (
            default_local_size(global_size)
            if local_size is None
            else ndrange_sizes("local_size", local_size)
        )
        if isinstance(global_offset, int | np.integer):
            global_offset = (global_offset,) * dims
        global_offset = ndrange_sizes("global_offset", global_offset, allow_zero=True)
        if len(global_offset) != dims:
            raise LaunchError(
                f"global_offset: {len(global_offset)} dimensions, global_size has "
                f"{dims}"
            )
        check_ndrange(self.function, global_size, local_size, global_offset)
        threads = (os.cpu_count() or 1) if threads is None else threads
        if not isinstance(threads, int) or threads < 1:
            raise LaunchError(f"threads: a positive int, got {threads!r}")
        packed, owners = self._pack(args)
        if not self._checked:  # checked code finds each fault, and its work-item
            self._bounds.check(args, global_size, local_size, global_offset)
        uniform = all(g % s == 0 for g, s in zip(global_size, local_size, strict=True))
        compiled = self.compiled(local_size if uniform else None)
        printf = PrintfBuffer.allocate(self._printf) if self._printf else None
        if printf is not None:
            setattr(packed, f"f{len(self.params)}", printf.words.ctypes.data)
        record = self._record(packed, args, printf is not None)
        launch(compiled.hook, packed, global_size, local_size, global_offset, threads)
        if printf is not None:
            printf.flush()
        del owners  # the structs' copies lived as long as the launch
        if record is not None:
            record.raise_fault(self.name, compiled.sites)

    def _record(self, packed: Any, args: tuple[Any, ...], printf: bool) -> Any:
        """Checked mode: the launch's check record (`mux.checked`), its address
        in `packed` after the printf buffer's; None unchecked."""
        if not self._checked:
            return None
        record = CheckRecord.allocate(self.function, self.params, args)
        setattr(packed, f"f{len(self.params) + printf}", record.address)
        return record

    def _pack(self, args: tuple[Any, ...]) -> tuple[Any, list[Any]]:
        """The packed argument struct of `args`, and what must live as long as
        the launch; LaunchError if an argument does not fit its parameter
        (`mux.arguments.Param.pack`) or local memory is short."""
        if len(args) != len(self.params):
            names = ", ".join(p.name for p in self.params)
            raise LaunchError(
                f"{self.name} takes {len(self.params)} arguments ({names}), got "
                f"{len(args)}"
            )
        packed = self._struct()
        local_bytes = 0
        owners = []
        for index, (param, value) in enumerate(zip(self.params, args, strict=True)):
            field, nbytes, owner = param.pack(value)
            setattr(packed, f"f{index}", field)
            local_bytes += nbytes
            owners.append(owner)
        if local_bytes + self.local_mem_usage > HOST.local_memory_size:
            variables = (
                f" and the kernel's module-scope variables for {self.local_mem_usage}"
                if self.local_mem_usage
                else ""
            )
            raise LaunchError(
                f"local memory: the arguments ask for {local_bytes} bytes per "
                f"work-group{variables}, the device has {HOST.local_memory_size}"
            )
        return packed, owners
