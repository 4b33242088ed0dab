"""The clang driver: OpenCL C text -> LLVM IR text for spir64.

Which clang (`find_clang`, once per process and value of MUX_CLANG):
  1. $MUX_CLANG, a path or a command (split like a shell would: "zig clang");
  2. else a clang >= 16 on PATH: clang, clang-22 .. clang-16 (the version is
     asked of each, `clang` may be any version);
  3. else the `ziglang` wheel's clang (`pip install 'computemux-xdsl[opencl]'`),
     run as `<wheel>/zig clang`, which is what `python -m ziglang clang` runs.
None of them: a CompileError saying how to get one.

How (`compile_opencl`), and why:
  -x cl -target spir64     the spec's input is SPIR-flavoured LLVM IR: address
                           spaces 1/2/3/4, `spir_kernel`, Itanium-mangled
                           builtin calls (`_Z13get_global_idj`), 64-bit size_t.
  -cl-std=CL1.2            the default, as clBuildProgram's; -cl-std= overrides.
  -cl-no-stdinc -Xclang -fdeclare-opencl-builtins -include mux_opencl_base.h
                           clang declares the builtin functions from its own
                           tables; the types and macros come from our header
                           (include/), the same for every clang: the ziglang
                           clang has no opencl-c-base.h at all, and a Debian
                           clang's would make the IR depend on which clang ran.
  -O1 -fno-unroll-loops -fno-vectorize -fno-slp-vectorize
                           the importer wants SSA values rather than allocas
                           (SROA, mem2reg), folded constants and a simplified
                           CFG, all of which -O1 does; it does not want loops
                           unrolled or vectorised within one work-item (bigger
                           IR, shuffles, remainder loops) when run-vecz
                           vectorises across work-items later. -O2 adds
                           little else the pipeline does not redo at LLVM's O3
                           and unrolls constant-trip loops; the three -fno-
                           flags keep the IR the same whatever a clang's -O1
                           turns on.
  -w (unless -Werror)      warnings are of no use here; with -Werror they are
                           errors, as clBuildProgram would report them.
The source goes in on stdin behind a `#line 1 "<filename>"`, so clang's
diagnostics and __FILE__ name the user's file (and `-main-file-name` the IR's
source_filename) and no temporary file is written;
the IR comes back on stdout. clang's errors become one CompileError whose message
is clang's own `file:line:col: error: ...` lines with their source snippets.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from mux.errors import CompileError
from mux.frontend.build_options import BuildOptions, parse_build_options

HEADER = Path(__file__).resolve().parent / "include" / "mux_opencl_base.h"
MIN_CLANG_VERSION = 16
CLANG_NAMES = ("clang", *(f"clang-{v}" for v in range(22, MIN_CLANG_VERSION - 1, -1)))
TIMEOUT_SECONDS = 120
HOW_TO_GET_CLANG = (
    "install the `opencl` extra (pip install 'computemux-xdsl[opencl]', which "
    f"brings clang in the ziglang wheel), put a clang >= {MIN_CLANG_VERSION} on "
    "PATH, or name one in the environment variable MUX_CLANG"
)
CODEGEN_FLAGS = (
    "-x",
    "cl",
    "-target",
    "spir64",
    "-cl-no-stdinc",
    "-Xclang",
    "-fdeclare-opencl-builtins",
    "-cl-kernel-arg-info",  # kernel_arg_name: the parameters' names in diagnostics
    "-O1",
    "-fno-unroll-loops",
    "-fno-vectorize",
    "-fno-slp-vectorize",
    "-fno-color-diagnostics",
    "-gline-tables-only",  # !dbg lines: diagnostics name the line of OpenCL C
    "-emit-llvm",
    "-S",
)


@dataclass(frozen=True)
class Clang:
    """A clang found: the words that run it and its major version."""

    command: tuple[str, ...]
    version: int


@dataclass(frozen=True)
class OpenCLModule:
    """What compile_opencl gives: the LLVM IR text, and the build options it was
    compiled with (`options.math.fast` is what CompileOptions.fast should be)."""

    llvm_ir: str
    options: BuildOptions
    clang: Clang


def find_clang() -> Clang:
    """The clang to run (see the module docstring); a CompileError if none."""
    return _find_clang(os.environ.get("MUX_CLANG") or None)


@functools.cache
def _find_clang(named: str | None) -> Clang:
    if named is not None:
        return _named_clang(named)
    for name in CLANG_NAMES:
        path = shutil.which(name)
        if path is None:
            continue
        version = _version((path,))
        if version is not None and version >= MIN_CLANG_VERSION:
            return Clang((path,), version)
    zig = _ziglang_clang()
    if zig is not None:
        return zig
    raise CompileError(f"OpenCL C needs clang and none was found: {HOW_TO_GET_CLANG}")


def _named_clang(named: str) -> Clang:
    """The clang MUX_CLANG names, checked to run and to be recent enough."""
    words = shlex.split(named)
    program = shutil.which(words[0]) if words else None
    if program is None:
        raise CompileError(f"MUX_CLANG={named!r}: no such program; {HOW_TO_GET_CLANG}")
    command = (program, *words[1:])
    version = _version(command)
    if version is None:
        raise CompileError(f"MUX_CLANG={named!r} does not run as clang --version")
    if version < MIN_CLANG_VERSION:
        raise CompileError(
            f"MUX_CLANG={named!r} is clang {version}; OpenCL C needs clang >= "
            f"{MIN_CLANG_VERSION}"
        )
    return Clang(command, version)


def _ziglang_clang() -> Clang | None:
    """The ziglang wheel's clang, if the wheel is installed."""
    spec = importlib.util.find_spec("ziglang")
    if spec is None or spec.origin is None:
        return None
    directory = Path(spec.origin).parent
    zig = next(
        (p for p in (directory / "zig", directory / "zig.exe") if p.exists()), None
    )
    if zig is None:
        return None
    command = (str(zig), "clang")
    version = _version(command)
    return Clang(command, version) if version is not None else None


def _version(command: tuple[str, ...]) -> int | None:
    """The major version `command --version` reports, None if it does not run or
    is not clang."""
    try:
        done = subprocess.run(
            [*command, "--version"], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"clang version (\d+)", done.stdout)
    return int(found.group(1)) if done.returncode == 0 and found else None


def compile_opencl(
    source: str,
    filename: str = "<source>",
    build_options: str | BuildOptions = "",
    *,
    source_dir: str | os.PathLike | None = None,
) -> OpenCLModule:
    """LLVM IR text of OpenCL C `source`. `filename` names it in diagnostics;
    `build_options` is a clBuildProgram options string (or one already parsed);
    `source_dir`, if given, is searched for `#include "..."` first (a file's own
    directory, as clang would for a file it read itself)."""
    options = (
        build_options
        if isinstance(build_options, BuildOptions)
        else parse_build_options(build_options)
    )
    clang = find_clang()
    args = [*clang.command, *CODEGEN_FLAGS, "-include", str(HEADER)]
    # The module's name and source_filename: the user's file, not stdin's "-".
    args += ["-Xclang", "-main-file-name", "-Xclang", filename]
    if source_dir is not None:
        args += ["-iquote", os.path.abspath(source_dir)]
    args += [*options.clang_args(), "-o", "-", "-"]
    text = f"#line 1 {_c_string(filename)}\n{source}"
    try:
        done = subprocess.run(
            args, input=text, capture_output=True, text=True, timeout=TIMEOUT_SECONDS
        )
    except subprocess.TimeoutExpired:
        raise CompileError(
            f"{filename}: clang did not finish within {TIMEOUT_SECONDS} s"
        ) from None
    except OSError as error:
        raise CompileError(f"{filename}: cannot run clang: {error}") from None
    if done.returncode != 0:
        raise CompileError(_diagnostics(done.stderr, filename))
    return OpenCLModule(done.stdout, options, clang)


def _c_string(text: str) -> str:
    """`text` as a C string literal (for the #line directive)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def _diagnostics(stderr: str, filename: str) -> str:
    """clang's error output as our message: its diagnostics and snippets, without
    the closing `N errors generated.`; a clang that failed silently still says
    so."""
    lines = [
        line
        for line in stderr.rstrip().splitlines()
        if not re.fullmatch(
            r"\d+ (errors?|warnings?)( and \d+ errors?)? generated\.", line
        )
    ]
    return "\n".join(lines) if lines else f"{filename}: clang failed with no message"
