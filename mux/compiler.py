"""From source text to JIT-compiled entry hooks.

`parse` reads and verifies a module; `compile_kernel` runs the `host` pipeline
(`lowering.pipelines.HostPipeline`) on a copy of it for one kernel, optionally
specialised for one local size, translates the result to LLVM IR and JIT-compiles it
(`mux.backend`). Compiled kernels are cached in memory by source, kernel, local size
and options, and on disk (`mux.disk_cache`) for later processes.
"""

from __future__ import annotations

import ctypes
import gc
import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache

from xdsl.context import Context
from xdsl.dialects import get_all_dialects, llvm
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException, ParseError

from dialects import ALL_DIALECTS
from dialects import attributes as mux_attrs
from lowering.pipelines import HostPipeline
from lowering.work_item_loops import REGION_SUFFIX
from mux import diagnostics, disk_cache
from mux.backend.jit import JITModule, compile_ir, load_compiled
from mux.backend.llvm_ir import translate
from mux.diagnostics import Source
from mux.errors import CompileError
from mux.source import parse_module, verify_module

HOOK_ARGUMENTS = [ctypes.c_void_p, ctypes.c_void_p] + [ctypes.c_int64] * 6
"""The entry hook's C signature (lowering/add_entry_hook.py): packed arguments,
schedule, then the begin/end work-group ids of the slice in x, y, z."""


@cache
def context() -> Context:
    """A context knowing every xDSL dialect and ours."""
    ctx = Context()
    for name, factory in {**get_all_dialects(), **ALL_DIALECTS}.items():
        ctx.register_dialect(name, factory)
    return ctx


@contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """Python's cycle collector paused: compiling builds many short-lived IR
    objects, and the full collections they trigger took a quarter of the compile
    time of a kernel (measured with scripts/bench.py). Nothing is lost: the
    collector runs again afterwards, as usual."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def parse(source: str, name: str = "<source>") -> ModuleOp:
    """The verified module of `source`; CompileError with the diagnostic otherwise."""
    with _no_cyclic_gc():
        return _parse(source, name)


_PARSED: dict[str, ModuleOp] = {}
PARSED_CACHE_SIZE = 64
"""How many parsed sources `parse_cached` keeps (the least recently used goes)."""


def parse_cached(source: str, name: str = "<source>") -> ModuleOp:
    """`parse`, remembered by the hash of `source`: the same text compiled again
    (a new `mux.compile` or `mux.load` of it) is not parsed and verified again. The
    module is shared by all who asked for that text: it must not be changed
    (`compile_kernel` works on a copy)."""
    key = source_hash(source)
    module = _PARSED.pop(key, None)
    if module is None:
        module = parse(source, name)
        while len(_PARSED) >= PARSED_CACHE_SIZE:
            _PARSED.pop(next(iter(_PARSED)))
    _PARSED[key] = module  # the most recently used last
    return module


def _parse(source: str, name: str) -> ModuleOp:
    try:
        module = parse_module(context(), source, name)
        verify_module(module)
    except (ParseError, DiagnosticException) as error:
        raise CompileError(diagnostics.describe(error, Source(name, source))) from error
    return module


def source_hash(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()


@dataclass
class CompiledKernel:
    """One kernel, lowered for the host and JIT-compiled."""

    jit: JITModule
    hook: Callable[..., None]
    hook_name: str

    @property
    def llvm_ir(self) -> str:
        """The optimised LLVM IR."""
        return self.jit.llvm_ir

    @property
    def assembly(self) -> str:
        """The host assembly."""
        return self.jit.assembly


_CACHE: dict[tuple, CompiledKernel] = {}

VERIFY_LOWERED = False
"""Verify the module the pipeline produced before translating it (a tenth of the
compile time of a kernel with barriers). LLVM verifies the IR it is given in any
case; this check reports a lowering bug on the op at fault instead. The test suite
turns it on (tests/conftest.py)."""


def _opt_level(lowered: ModuleOp) -> int:
    """LLVM's optimisation level for a lowered kernel: O3 with barriers, O2 without.

    The work-item loops of a kernel with barriers call region functions whose
    control flow is uniform (a tree's step, the region to run next); only O3's
    non-trivial loop unswitching takes it out of the loops so that they vectorise
    (`reduce`: 15 ms at O2, 5 at O3). Without barriers `run-vecz` has vectorised
    the kernel already, and O3 costs compile time for nothing: `sgemm_naive` spends
    90 ms in LLVM's O3 pipeline and 33 in O2's, and runs as fast (docs/performance.md).
    """
    regions = (
        f
        for f in lowered.ops
        if isinstance(f, llvm.FuncOp) and REGION_SUFFIX in f.sym_name.data
    )
    return 3 if any(regions) else 2


_LOWERED: dict[tuple, tuple[ModuleOp, str]] = {}
LOWERED_CACHE_SIZE = 16
"""How many kernels lowered by `check_kernel` (with their entry hook's name) wait
for their unspecialised compilation; the oldest goes (it is then compiled from
the start again)."""
_CHECKED: set[tuple] = set()


def check_kernel(
    module: ModuleOp,
    key: str,
    kernel: str,
    fast: bool = False,
    software_wgc: bool = False,
    sub_group_size: int = 1,
    vecz_width: int = 0,
    source: Source | None = None,
) -> None:
    """Finds now what would stop `kernel` from compiling for any launch: runs the
    host pipeline unspecialised (no local size) to the `llvm` dialect, all of a
    compilation but LLVM's part; CompileError, with the diagnostic, if it fails.
    `mux.compile` calls it for every kernel, so that a kernel that cannot be lowered
    (an op or type the backend does not support, a kernel returning a value) is
    refused there and not at its first launch. Errors that depend on a launch's
    local size are left to that launch.

    The lowered module is kept: the unspecialised compilation (`compile_kernel`
    without local sizes: a kernel with a required work-group size, a launch with a
    smaller last group) starts from it. Done once per source, kernel and options:
    a kernel checked or compiled before, in this process or (a mark in the disk
    cache) in another, is not checked again. `source`, what `module` was parsed
    from, gives a diagnostic its line of source."""
    cache_key = (key, kernel, (), fast, software_wgc, sub_group_size, vecz_width)
    if cache_key in _CHECKED or cache_key in _CACHE:
        return
    name = disk_cache.key(*cache_key)
    if not disk_cache.checked(name):
        with _no_cyclic_gc():
            lowered = _lower(
                module,
                kernel,
                (),
                fast,
                software_wgc=software_wgc,
                sub_group_size=sub_group_size,
                vecz_width=vecz_width,
                source=source,
            )
        while len(_LOWERED) >= LOWERED_CACHE_SIZE:
            _LOWERED.pop(next(iter(_LOWERED)))
        _LOWERED[cache_key] = lowered
        disk_cache.mark_checked(name)
    _CHECKED.add(cache_key)


def compile_kernel(
    module: ModuleOp,
    key: str,
    kernel: str,
    local_sizes: tuple[int, ...] = (),
    fast: bool = False,
    software_wgc: bool = False,
    sub_group_size: int = 1,
    vecz_width: int = 0,
    source: Source | None = None,
) -> CompiledKernel:
    """`kernel` of `module` through the host pipeline, LLVM and the JIT.

    `key` identifies the module's source (its hash) for the cache; `source`, what
    `module` was parsed from, gives a diagnostic its line of source.
    """
    cache_key = (
        key,
        kernel,
        local_sizes,
        fast,
        software_wgc,
        sub_group_size,
        vecz_width,
    )
    if cache_key not in _CACHE:
        name = disk_cache.key(*cache_key)
        entry = disk_cache.load(name)
        if entry is not None:
            jit = load_compiled(entry.llvm_ir, entry.object_code)
            _CACHE[cache_key] = _with_hook(jit, entry.hook_name)
        else:
            with _no_cyclic_gc():
                lowered = _LOWERED.pop(cache_key, None) or _lower(
                    module,
                    kernel,
                    local_sizes,
                    fast,
                    software_wgc=software_wgc,
                    sub_group_size=sub_group_size,
                    vecz_width=vecz_width,
                    source=source,
                )
                compiled = _compile(*lowered, source)
            _CACHE[cache_key] = compiled
            disk_cache.store(
                name,
                disk_cache.Entry(
                    compiled.llvm_ir, compiled.jit.object_code, compiled.hook_name
                ),
            )
    return _CACHE[cache_key]


def _with_hook(jit: JITModule, hook_name: str) -> CompiledKernel:
    hook = jit.ctypes_function(hook_name, None, HOOK_ARGUMENTS)
    return CompiledKernel(jit, hook, hook_name)


def _lower(
    module: ModuleOp,
    kernel: str,
    local_sizes: tuple[int, ...],
    fast: bool,
    software_wgc: bool = False,
    sub_group_size: int = 1,
    vecz_width: int = 0,
    source: Source | None = None,
) -> tuple[ModuleOp, str]:
    """A copy of `module` through the host pipeline for `kernel`, and the name of
    its entry hook; CompileError with the diagnostic if it fails."""
    try:
        lowered = module.clone()
        HostPipeline(
            kernel=kernel,
            local_sizes=local_sizes,
            fast=fast,
            software_wgc=software_wgc,
            sub_group_size=sub_group_size,
            vecz_width=vecz_width,
        ).apply(context(), lowered)
        if VERIFY_LOWERED:
            diagnostics.verify(lowered, Operation.verify)
    except DiagnosticException as error:
        raise CompileError(diagnostics.describe(error, source)) from error
    hooks = [
        f.sym_name.data
        for f in lowered.ops
        if isinstance(f, llvm.FuncOp) and mux_attrs.is_kernel_entry_point(f)
    ]
    if len(hooks) != 1:
        raise CompileError(f"expected one entry hook for '{kernel}', got {hooks}")
    return lowered, hooks[0]


def _compile(lowered: ModuleOp, hook: str, source: Source | None) -> CompiledKernel:
    """The lowered module of a kernel through LLVM and the JIT (it is consumed)."""
    opt_level = _opt_level(lowered)  # before the translation consumes `lowered`
    try:
        jit = compile_ir(translate(lowered, consume=True), opt_level)
    except DiagnosticException as error:
        raise CompileError(diagnostics.describe(error, source)) from error
    return _with_hook(jit, hook)
