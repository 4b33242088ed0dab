"""The languages `mux.compile` and `mux.load` take, and how each becomes MLIR text
of our dialects, the one form the rest of the compiler reads.

- `mlir`: our dialects as text, as they are.
- `llvm`: LLVM IR, as text (a `.ll` file) or bitcode (a `.bc` file: `read_source`
  turns it into text), through the importer (`llvm_import`).
- `opencl`: OpenCL C (a `.cl` file), through clang (`clang.compile_opencl`) to LLVM
  IR, then the importer. Its clBuildProgram options come as `build_options`;
  `-cl-fast-relaxed-math` sets the compile option `fast`.

`mux.load` picks the language by the file's suffix (`SUFFIXES`). An imported module
is printed and handed to the MLIR path, so that the caches, diagnostics and
`Program.module` are the same for every language.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from io import StringIO
from pathlib import Path

from llvmlite import binding
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from mux.errors import CompileError
from mux.frontend.clang import compile_opencl
from mux.frontend.llvm_import import import_llvm

LANGUAGES = ("mlir", "llvm", "opencl")
SUFFIXES = {".mlir": "mlir", ".ll": "llvm", ".bc": "llvm", ".cl": "opencl"}
"""A file's suffix -> its language (`mux.load`)."""


@dataclass(frozen=True)
class Translated:
    """A source in our dialects, and what its language asked of the compilation."""

    mlir: str
    fast: bool = False
    """The source asked for relaxed maths (OpenCL C's -cl-fast-relaxed-math)."""
    located_in: str | None = None
    """The text the ops' locations point into, when it is not `mlir`: the OpenCL
    C or LLVM IR the module was imported from (for a diagnostic's line of source)."""


def language_of(path: str | os.PathLike[str]) -> str:
    """The language of the file at `path`, by its suffix; CompileError for a suffix
    none of the languages has."""
    suffix = Path(path).suffix
    if suffix in SUFFIXES:
        return SUFFIXES[suffix]
    known = ", ".join(SUFFIXES)
    raise CompileError(
        f"{path}: no language has the suffix '{suffix}' (known: {known}; "
        "mux.compile(text, language=...) takes text of any of them)"
    )


BITCODE_MAGIC = b"BC\xc0\xde"
"""The first bytes of an LLVM bitcode file."""


def read_source(data: bytes, language: str, name: str) -> str:
    """The text of a file's `data` in `language`: LLVM bitcode becomes LLVM IR
    text (llvmlite reads it); anything else must be UTF-8. CompileError if not."""
    if language == "llvm" and data.startswith(BITCODE_MAGIC):
        try:
            return str(binding.parse_bitcode(data))
        except RuntimeError as error:
            message = f"{name}: error: invalid LLVM bitcode: {error}"
            raise CompileError(message) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CompileError(f"{name} is not UTF-8 text (byte {error.start})") from None


def to_mlir(
    source: str,
    language: str,
    name: str,
    build_options: str = "",
    source_dir: str | Path | None = None,
) -> Translated:
    """`source` in `language` as MLIR text of our dialects (see the module
    docstring); CompileError for a language it does not know, build options given
    to a language that takes none, or a source that does not translate."""
    if language not in LANGUAGES:
        raise CompileError(f"language: one of {', '.join(LANGUAGES)}, got {language!r}")
    if build_options and language != "opencl":
        raise CompileError(
            f"build_options are OpenCL C's (clBuildProgram's); {language} takes none"
        )
    if language == "mlir":
        return Translated(source)
    fast = False
    llvm_ir = source
    if language == "opencl":
        compiled = compile_opencl(source, name, build_options, source_dir=source_dir)
        llvm_ir, fast = compiled.llvm_ir, compiled.options.math.fast
    return Translated(_print(import_llvm(llvm_ir, name)), fast, source)


def _print(module: ModuleOp) -> str:
    stream = StringIO()
    # with the imported locations: each op keeps its place in the source
    Printer(stream=stream, print_debuginfo=True).print_op(module)
    return stream.getvalue() + "\n"
