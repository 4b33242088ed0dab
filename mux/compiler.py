"""From source text to JIT-compiled entry hooks.

`parse` reads and verifies a module; `compile_kernel` runs the `host` pipeline
(`lowering.pipelines.HostPipeline`) on a copy of it for one kernel, optionally
specialised for one local size, translates the result to LLVM IR and JIT-compiles it
(`mux.backend`). Compiled kernels are cached in memory by their `KernelVariant`
(source, kernel, local size and options), and on disk (`mux.disk_cache`) for later
processes.
"""

from __future__ import annotations

import ctypes
import gc
import hashlib
import itertools
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
from lowering.common.compile_options import CompileOptions
from lowering.pipelines import HostPipeline
from mux import diagnostics, disk_cache
from mux.backend.jit import JITModule, compile_ir, load_compiled
from mux.backend.linking import check_linkable
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
def no_cyclic_gc() -> Iterator[None]:
    """Python's cycle collector paused: compiling builds many short-lived IR
    objects, and the full collections they trigger take much of the compile time
    of a kernel (docs/performance.md, "Python's cycle collector"). Nothing is lost:
    the collector runs again afterwards, as usual."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def parse(source: str, name: str = "<source>") -> ModuleOp:
    """The verified module of `source`; CompileError with the diagnostic otherwise."""
    with no_cyclic_gc():
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


def adopt(module: ModuleOp, name: str = "<module>") -> tuple[ModuleOp, str]:
    """A caller's module (`mux.compile` of a `ModuleOp`): a verified copy of it,
    and its printed form, which keys the caches (`source_hash`) and is the text
    diagnostics quote. Copied, so that the caller may go on changing theirs (the
    caches would otherwise hold a module that no longer is the one they were keyed
    by); the caller's module is never changed. CompileError if it does not
    verify."""
    text = str(module)
    with no_cyclic_gc():
        try:
            verify_module(module)
        except (ParseError, DiagnosticException) as error:
            located = Source(name, text)
            raise CompileError(diagnostics.describe(error, located)) from error
        return module.clone(), text


def source_hash(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()


@dataclass
class CompiledKernel:
    """One kernel, lowered for the host and JIT-compiled."""

    jit: JITModule
    hook: Callable[..., None]
    hook_name: str
    sites: tuple[str, ...] = ()
    """Checked mode: the check sites a fault names (`mux.check_sites`)."""

    @property
    def llvm_ir(self) -> str:
        """The optimised LLVM IR."""
        return self.jit.llvm_ir

    @property
    def assembly(self) -> str:
        """The host assembly."""
        return self.jit.assembly


@dataclass(frozen=True)
class KernelVariant:
    """One compilation of a kernel: the key of the in-memory caches, and (hashed
    with the compiler, `mux.disk_cache.key`) of the disk cache."""

    source_hash: str
    """The SHA-256 of the module's source text (`source_hash`)."""
    kernel: str
    local_sizes: tuple[int, ...]
    """The local size the kernel is specialised for (empty: any)."""
    options: CompileOptions
    pipeline: int = 0
    """0 for the host pipeline; else the token of the caller's pipeline
    (`custom_pipeline`) the kernel is compiled with: such a variant is cached in
    memory only, since the disk cache cannot tell a caller's pass changed."""


_TOKENS = itertools.count(1)


def custom_pipeline() -> int:
    """A new token for a caller's pipeline (`KernelVariant.pipeline`)."""
    return next(_TOKENS)


@dataclass
class LoweredKernel:
    """A kernel's module after the host pipeline, for LLVM."""

    module: ModuleOp
    hook_name: str
    """The name of its entry hook."""
    opt_level: int
    """LLVM's optimisation level for it (`HostPipeline.lower`)."""
    sites: tuple[str, ...] = ()
    """Checked mode: its check sites (`mux.check_sites`)."""


_CACHE: dict[KernelVariant, CompiledKernel] = {}

VERIFY_LOWERED = False
"""Verify the module the pipeline produced before translating it (it costs a
noticeable part of the compile time of a kernel with barriers: docs/performance.md,
"Verifying the lowered module"). LLVM verifies the IR it is given in any case; this
check reports a lowering bug on the op at fault instead. The test suite turns it on
(tests/conftest.py)."""

_LOWERED: dict[KernelVariant, LoweredKernel] = {}
LOWERED_CACHE_SIZE = 16
"""How many kernels lowered by `check_kernel` wait for their unspecialised
compilation; the oldest goes (it is then compiled from the start again)."""
_CHECKED: set[KernelVariant] = set()


def check_kernel(
    module: ModuleOp,
    variant: KernelVariant,
    source: Source | None = None,
    pipeline: HostPipeline | None = None,
) -> None:
    """Finds now what would stop the variant's kernel (a variant without local
    sizes) from compiling for any launch: runs the host pipeline unspecialised to
    the `llvm` dialect, all of a compilation but LLVM's part; CompileError, with
    the diagnostic, if it fails.
    `mux.compile` calls it for every kernel, so that a kernel that cannot be lowered
    (an op or type the backend does not support, a kernel returning a value) is
    refused there and not at its first launch. Errors that depend on a launch's
    local size are left to that launch.

    The lowered module is kept: the unspecialised compilation (`compile_kernel`
    without local sizes: a kernel with a required work-group size, a launch with a
    smaller last group) starts from it. Done once per source, kernel and options:
    a kernel checked or compiled before, in this process or (a mark in the disk
    cache) in another, is not checked again. `source`, what `module` was parsed
    from, gives a diagnostic its line of source; `pipeline` is the caller's
    (`variant.pipeline` its token), None for the host pipeline."""
    if variant in _CHECKED or variant in _CACHE:
        return
    name = _disk_name(variant)
    if name is None or not disk_cache.checked(name):
        with no_cyclic_gc():
            lowered = _lower(module, variant, source, pipeline)
        while len(_LOWERED) >= LOWERED_CACHE_SIZE:
            _LOWERED.pop(next(iter(_LOWERED)))
        _LOWERED[variant] = lowered
        if name is not None:
            disk_cache.mark_checked(name)
    _CHECKED.add(variant)


def _disk_name(variant: KernelVariant) -> str | None:
    """The variant's disk-cache entry, None if it is not cached on disk."""
    return None if variant.pipeline else disk_cache.key(variant)


def compile_kernel(
    module: ModuleOp,
    variant: KernelVariant,
    source: Source | None = None,
    pipeline: HostPipeline | None = None,
) -> CompiledKernel:
    """The variant's kernel of `module` through the host pipeline (or the
    caller's `pipeline`, as `check_kernel`), LLVM and the JIT.
    `variant.source_hash` identifies the module's source for the caches; `source`,
    what `module` was parsed from, gives a diagnostic its line of source.
    """
    if variant not in _CACHE:
        name = _disk_name(variant)
        entry = disk_cache.load(name) if name is not None else None
        if entry is not None:
            jit = load_compiled(entry.llvm_ir, entry.object_code)
            _CACHE[variant] = _with_hook(jit, entry.hook_name, entry.sites)
        else:
            with no_cyclic_gc():
                lowered = _LOWERED.pop(variant, None) or _lower(
                    module, variant, source, pipeline
                )
                compiled = _compile(lowered, source)
            _CACHE[variant] = compiled
            if name is not None:
                disk_cache.store(
                    name,
                    disk_cache.Entry(
                        compiled.llvm_ir,
                        compiled.jit.object_code,
                        compiled.hook_name,
                        compiled.sites,
                    ),
                )
    return _CACHE[variant]


def _with_hook(
    jit: JITModule, hook_name: str, sites: tuple[str, ...] = ()
) -> CompiledKernel:
    hook = jit.ctypes_function(hook_name, None, HOOK_ARGUMENTS)
    return CompiledKernel(jit, hook, hook_name, sites)


def _lower(
    module: ModuleOp,
    variant: KernelVariant,
    source: Source | None,
    pipeline: HostPipeline | None = None,
) -> LoweredKernel:
    """A copy of `module` through the host pipeline (or `pipeline`, its cut and
    inserted passes) for the variant's kernel; CompileError with the diagnostic if
    it fails."""
    kernel = variant.kernel
    passes = (pipeline or HostPipeline()).specialised(
        variant.options, kernel, variant.local_sizes
    )
    try:
        lowered = module.clone()
        opt_level = passes.lower(context(), lowered)
        check_linkable(lowered)
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
    sites = mux_attrs.CHECK_SITES.get(lowered) or ()
    return LoweredKernel(lowered, hooks[0], opt_level, sites)


def _compile(lowered: LoweredKernel, source: Source | None) -> CompiledKernel:
    """A lowered kernel through LLVM and the JIT (its module is consumed)."""
    try:
        llvm_ir = translate(lowered.module, consume=True)
        jit = compile_ir(llvm_ir, lowered.opt_level)
    except DiagnosticException as error:
        raise CompileError(diagnostics.describe(error, source)) from error
    return _with_hook(jit, lowered.hook_name, lowered.sites)
