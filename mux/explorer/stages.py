"""A kernel through the compiler, one stage at a time: what the explorer shows.

`explore_source` reads a source in any of `mux.frontend.languages`' languages, runs
the host pipeline (`lowering.pipelines.HostPipeline`) on it, recording the IR after
each pass (`HostPipeline.lower`'s `after`), then gives the result to LLVM: the IR
before and after LLVM's optimisation, and the host assembly (`mux.backend`). What
stops the compilation (a parse error, a pass refusing its input, LLVM refusing the
IR) ends the stages there: `Exploration.error` is its diagnostic, as `mux.compile`
would give it, and the stages before it are kept.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from collections import Counter
from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException, ParseError

from dialects import attributes as mux_attrs
from lowering import PASSES
from lowering.common.compile_options import CompileOptions
from lowering.pipelines import HostPipeline
from mux import diagnostics
from mux.backend.jit import compile_ir
from mux.backend.linking import check_linkable
from mux.backend.llvm_ir import translate
from mux.compiler import context, no_cyclic_gc, parse
from mux.diagnostics import Source
from mux.errors import CompileError
from mux.frontend.languages import to_mlir


@dataclass(frozen=True)
class PassDoc:
    """What the page says of a pass: where its description comes from is the pass
    module's docstring (docs/passes.md is generated from the same)."""

    name: str
    """The command-line name (`mux-opt -p <name>`)."""
    summary: str
    """The first sentence of the pass module's docstring."""
    spec: str
    """The spec's class name (`lowering.PASSES`) and the section its docstring
    quotes (`compiler-utils-passes.rst, "WorkItemLoopsPass"`)."""
    doc: str
    """The whole docstring."""


@dataclass
class Stage:
    """The module after one pass (or as read, `pass_doc` None)."""

    title: str
    ir: str
    """The module printed."""
    op_counts: dict[str, int]
    """The number of ops of each dialect in the module (`count_ops`)."""
    pass_doc: PassDoc | None = None
    changed: bool = True
    """The pass changed the module (its printed form)."""


@dataclass
class Exploration:
    """A source through the compiler: everything the page shows."""

    name: str
    """The file name."""
    language: str
    source: str
    kernel: str
    """The kernel compiled ("": every kernel of the module)."""
    local_sizes: tuple[int, ...]
    build_options: str = ""
    pipeline: str = ""
    """The pipeline run, as `mux-opt -p` takes it (`host{kernel="k" ...}`)."""
    stages: list[Stage] = field(default_factory=list)
    """The module as read, then after each pass that ran."""
    failed_pass: str = ""
    """The pass that failed, if one did."""
    llvm_ir: str = ""
    """The LLVM IR of the lowered module, before LLVM's optimisation."""
    optimized_ir: str = ""
    assembly: str = ""
    opt_level: int = 0
    error: str = ""
    """The diagnostic of what stopped the compilation ("" if nothing did)."""


def count_ops(module: ModuleOp) -> dict[str, int]:
    """The ops inside `module` (not itself) by dialect: the part of each op's name
    before its first dot, most frequent first."""
    counts = Counter(op.name.split(".", 1)[0] for op in module.walk())
    counts[module.name.split(".", 1)[0]] -= 1
    return {name: n for name, n in counts.most_common() if n > 0}


_SPEC_SECTION = re.compile(r'[\w.-]+\.(?:rst|txt|md),\s+"[^"]+"')
"""A citation of a section of the spec: `compiler-utils-passes.rst, "RunVeczPass"`."""


def _first_sentence(text: str) -> str:
    return re.split(r"(?<=[.:])\s+(?=[A-Z(])", text, maxsplit=1)[0]


def pass_doc(pass_: ModulePass) -> PassDoc:
    """The page's description of `pass_`, from `lowering.PASSES` and the docstring
    of the module defining it (or, for a pass of xDSL's, of its class): the
    module docstrings open with `` `name{options}`: what it is. ``, then a
    paragraph citing the spec's section and quoting it."""
    info = next((p for p in PASSES if p.name == pass_.name), None)
    module = inspect.getmodule(type(pass_))
    doc = inspect.cleandoc(
        (module.__doc__ if info and module else None)
        or type(pass_).__doc__
        or f"xDSL's `{pass_.name}` pass."
    )
    paragraphs = [" ".join(p.split()) for p in doc.split("\n\n")]
    summary = re.sub(r"^`[^`]*`: ", "", _first_sentence(paragraphs[0]))
    spec = info.spec if info else "(none: a pass of xDSL's)"
    cited = next((p for p in paragraphs if _SPEC_SECTION.match(p)), "")
    if cited:
        spec += "; " + _first_sentence(cited)
    return PassDoc(pass_.name, summary, spec, doc)


@no_cyclic_gc()  # a context manager of contextlib's: a decorator too
def explore_source(
    source: str,
    language: str = "mlir",
    name: str = "<source>",
    *,
    kernel: str = "",
    local_sizes: tuple[int, ...] = (),
    options: CompileOptions | None = None,
    build_options: str = "",
    source_dir: str | None = None,
) -> Exploration:
    """`source`, in `language`, through the compiler (see the module docstring).

    `kernel` is the kernel to compile, specialised for `local_sizes` if given; by
    default the module's only kernel, or every kernel when it has several (as
    `mux-opt -p host`). `options` are `mux.compile`'s. Python's cycle collector
    is paused meanwhile, as for a compilation (`mux.compiler.no_cyclic_gc`)."""
    options = options or CompileOptions()
    found = Exploration(name, language, source, kernel, local_sizes, build_options)
    try:
        translated = to_mlir(source, language, name, build_options, source_dir)
        if translated.fast:
            options = dataclasses.replace(options, fast=True)
        module = parse(translated.mlir, name)
        found.kernel = _kernel(module, kernel, local_sizes)
    except CompileError as error:
        found.error = str(error)
        return found
    except Exception as error:  # a front-end's bug: a page all the same
        found.error = internal_error(error)
        return found
    located = Source(name, translated.located_in or translated.mlir)
    found.stages.append(Stage("input", str(module), count_ops(module)))
    pipeline = HostPipeline.for_options(options, found.kernel, local_sizes)
    found.pipeline = str(pipeline.pipeline_pass_spec())
    if _run_pipeline(pipeline, module, found, located):
        _run_llvm(module, found, located)
    return found


def _kernel(module: ModuleOp, kernel: str, local_sizes: tuple[int, ...]) -> str:
    """The kernel to compile (see `explore_source`); CompileError if there is no
    such kernel, or local sizes are given without saying for which kernel."""
    kernels = [
        op.sym_name.data
        for op in module.ops
        if isinstance(op, func.FuncOp) and mux_attrs.is_kernel(op)
    ]
    if kernel and kernel not in kernels:
        raise CompileError(
            f"no kernel '{kernel}' (kernels: {', '.join(kernels) or 'none'})"
        )
    if not kernel and len(kernels) == 1:
        return kernels[0]
    if not kernel and local_sizes:
        raise CompileError(
            f"a local size is for one kernel: name it (kernels: {', '.join(kernels)})"
        )
    return kernel


def _run_pipeline(
    pipeline: HostPipeline, module: ModuleOp, found: Exploration, located: Source
) -> bool:
    """Runs `pipeline` on `module`, a stage per pass into `found`; False, with the
    diagnostic in `found.error`, if a pass fails."""

    def after(pass_: ModulePass, op: ModuleOp) -> None:
        doc = pass_doc(pass_)
        text = str(op)
        changed = text != found.stages[-1].ir
        found.stages.append(Stage(doc.name, text, count_ops(op), doc, changed))

    passes: list[ModulePass] = []
    try:
        passes = pipeline.passes()
        found.opt_level = pipeline.lower(context(), module, after)
        return True
    except DiagnosticException as error:
        found.error = diagnostics.describe(error, located)
    except Exception as error:  # a pass's bug: shown on the page all the same
        found.error = internal_error(error)
    if len(found.stages) <= len(passes):
        found.failed_pass = passes[len(found.stages) - 1].name
    return False


def _run_llvm(module: ModuleOp, found: Exploration, located: Source) -> None:
    """The lowered `module` through LLVM: its IR before and after LLVM's
    optimisation, and the host assembly, into `found` (`error` if LLVM refuses)."""
    try:
        check_linkable(module)
        found.llvm_ir = translate(module)
        jit = compile_ir(found.llvm_ir, found.opt_level)
        found.optimized_ir = jit.llvm_ir
        found.assembly = jit.assembly
    except (DiagnosticException, ParseError) as error:
        found.error = diagnostics.describe(error, located)
    except Exception as error:  # the backend's bug
        found.error = internal_error(error)


def internal_error(error: Exception) -> str:
    """The diagnostic of an exception no diagnostic was made for: a bug of the
    compiler, which the page shows rather than a traceback."""
    return f"internal error (a bug of the compiler): {type(error).__name__}: {error}"
