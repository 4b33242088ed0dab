"""The lowering explorer: one HTML page showing a kernel go through every pass.

    mux-explore examples/reduce.mlir -o reduce.html        # the command line (cli.py)
    mux.explore("examples/reduce.mlir", output="reduce.html")   # from Python

The page (self-contained: its style and script inline, nothing fetched, it opens
from disk) shows the source; the module after each pass of the host pipeline, in
order, with the pass's name, the first sentence of its docstring, its spec section,
its ops by dialect, and the diff against the stage before; then the LLVM IR before
and after LLVM's optimisation and the host assembly. docs/explorer/reduce.html is
one, for examples/reduce.mlir.

The parts: `stages` runs the compiler and records each stage
(`HostPipeline.lower`'s `after`); `page` renders them, with `diff`, `chart` (the ops
by dialect, inline SVG) and `highlight` (MLIR, LLVM IR and assembly); `page.css`
and `page.js` are the page's style and navigation.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mux.explorer.stages import Exploration


@dataclass(frozen=True)
class Page:
    """An explorer page and what it shows."""

    html: str
    exploration: Exploration

    @property
    def error(self) -> str:
        """The diagnostic of what stopped the compilation ("" if nothing did)."""
        return self.exploration.error


def explore(
    path: str | os.PathLike[str],
    *,
    kernel: str = "",
    local_size: int | tuple[int, ...] = (),
    build_options: str = "",
    fast: bool = False,
    software_wgc: bool = False,
    sub_group_size: int = 1,
    vecz_width: int = 0,
    checked: bool = False,
    output: str | os.PathLike[str] | None = None,
) -> Page:
    """The explorer's page of the file at `path` (in the language its suffix names,
    as `mux.load`), written to `output` if given.

    `kernel` is the kernel to follow (by default the module's only kernel, or all
    of them when it has several), specialised for `local_size` if given; the other
    arguments are `mux.load`'s. A source that does not compile still gives a page:
    the stages up to the pass that failed, then the diagnostic (`Page.error`).
    OSError if the file cannot be read or the page written; CompileError if the
    file's suffix names no language or an option is bad."""
    from lowering.common.compile_options import CompileOptions, OptionError
    from mux.compiler import no_cyclic_gc
    from mux.errors import CompileError
    from mux.explorer.page import render
    from mux.explorer.stages import explore_source
    from mux.frontend.languages import language_of, read_source

    data = Path(path).read_bytes()
    language = language_of(path)
    source = read_source(data, language, str(path))
    try:
        options = CompileOptions(
            fast, software_wgc, sub_group_size, vecz_width, checked
        )
    except OptionError as error:
        raise CompileError(str(error)) from None
    sizes = (local_size,) if isinstance(local_size, int) else tuple(local_size)
    with no_cyclic_gc():  # as for a compilation (`explore_source`): the page too
        found = explore_source(
            source,
            language,
            str(path),
            kernel=kernel,
            local_sizes=sizes,
            options=options,
            build_options=build_options,
            source_dir=str(Path(path).parent),
        )
        page = Page(render(found), found)
    if output is not None:
        Path(output).write_text(page.html, encoding="utf-8")
    return page
