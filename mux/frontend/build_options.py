"""clBuildProgram's options string, parsed into a frozen `BuildOptions`.

The OpenCL API's `clBuildProgram` takes its options as one string; we take the
part of its grammar that means something for a CPU device and refuse the rest
with a `CompileError` naming the option, rather than passing an unknown word to
clang (where it could mean something else, or nothing). The string is split with
`shlex` (quotes group words, as a shell would; no shell ever runs).

Accepted:
  -D name, -Dname, -D name=value   a macro (name must be an identifier)
  -I dir, -Idir                    an include directory (made absolute here, so
                                   it means what it meant in the caller's cwd)
  -cl-std=CL1.0|CL1.1|CL1.2|CL2.0|CL3.0
  -cl-fast-relaxed-math, -cl-mad-enable, -cl-finite-math-only,
  -cl-unsafe-math-optimizations, -cl-no-signed-zeros, -cl-denorms-are-zero,
  -cl-single-precision-constant, -cl-kernel-arg-info
  -w, -Werror
"""

from __future__ import annotations

import dataclasses
import os
import re
import shlex
from dataclasses import dataclass

from mux.errors import CompileError

CL_STANDARDS = ("CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0")
DEFAULT_CL_STD = "CL1.2"

_MATH_OPTIONS = {
    "-cl-fast-relaxed-math": "fast_relaxed_math",
    "-cl-mad-enable": "mad_enable",
    "-cl-finite-math-only": "finite_math_only",
    "-cl-unsafe-math-optimizations": "unsafe_math_optimizations",
    "-cl-no-signed-zeros": "no_signed_zeros",
    "-cl-denorms-are-zero": "denorms_are_zero",
}
"""The math options: each is passed to clang and recorded in `MathFlags`."""

_PASSED_THROUGH = ("-cl-single-precision-constant", "-cl-kernel-arg-info")
"""Options clang implements whole and nothing after it needs to know about."""

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class MathFlags:
    """Which of the OpenCL math options were given, with the implications the
    OpenCL C specification states between them applied (-cl-fast-relaxed-math
    implies -cl-finite-math-only and -cl-unsafe-math-optimizations, which implies
    -cl-no-signed-zeros and -cl-mad-enable), so each field says what holds."""

    fast_relaxed_math: bool = False
    mad_enable: bool = False
    finite_math_only: bool = False
    unsafe_math_optimizations: bool = False
    no_signed_zeros: bool = False
    denorms_are_zero: bool = False

    def implied(self) -> MathFlags:
        flags = self
        if flags.fast_relaxed_math:
            flags = dataclasses.replace(
                flags, finite_math_only=True, unsafe_math_optimizations=True
            )
        if flags.unsafe_math_optimizations:
            flags = dataclasses.replace(flags, no_signed_zeros=True, mad_enable=True)
        return flags

    @property
    def fast(self) -> bool:
        """What `CompileOptions.fast` should be: the program asked for relaxed
        math (-cl-fast-relaxed-math)."""
        return self.fast_relaxed_math

    def clang_args(self) -> tuple[str, ...]:
        return tuple(
            option for option, field in _MATH_OPTIONS.items() if getattr(self, field)
        )


@dataclass(frozen=True)
class BuildOptions:
    """A parsed clBuildProgram options string."""

    defines: tuple[tuple[str, str | None], ...] = ()
    """(name, value or None) in the order given."""
    include_dirs: tuple[str, ...] = ()
    cl_std: str = DEFAULT_CL_STD
    math: MathFlags = MathFlags()
    no_warnings: bool = False
    warnings_as_errors: bool = False
    passed_through: tuple[str, ...] = ()

    def clang_args(self) -> list[str]:
        """clang's command-line words for these options (the driver adds the
        target, the header and the output flags)."""
        args = [f"-cl-std={self.cl_std}"]
        for name, value in self.defines:
            args.append(f"-D{name}" if value is None else f"-D{name}={value}")
        for directory in self.include_dirs:
            args += ["-I", directory]
        args += self.math.clang_args()
        args += self.passed_through
        # Without -Werror clang's warnings are of no use to anyone here (nothing
        # shows them): -w keeps its output to the errors.
        if self.no_warnings or not self.warnings_as_errors:
            args.append("-w")
        else:
            args.append("-Werror")
        return args


def stated_build_options(source: str) -> list[str]:
    """The build options an OpenCL C source states on a `// Build options: ...`
    line of its own (the examples' headers do: their tests, the benchmark and PoCL
    build them with these), with -cl-std=CL1.2 added when it names no version."""
    stated = re.search(r"^// Build options: (.*)$", source, re.MULTILINE)
    options = stated[1].split() if stated else []
    if not any(option.startswith("-cl-std=") for option in options):
        options.append(f"-cl-std={DEFAULT_CL_STD}")
    return options


def parse_build_options(text: str) -> BuildOptions:
    """The `BuildOptions` of a clBuildProgram options string; an option outside
    the accepted set (the module's docstring) is a CompileError naming it."""
    try:
        words = shlex.split(text or "")
    except ValueError as error:  # an unclosed quote
        raise CompileError(f"build options {text!r}: {error}") from None
    fields: dict = {"defines": [], "include_dirs": [], "passed_through": []}
    math: dict[str, bool] = {}
    position = 0
    while position < len(words):
        word = words[position]
        position += 1
        if word in ("-D", "-I"):
            if position == len(words):
                raise CompileError(f"build option {word} needs an argument")
            word += words[position]
            position += 1
        _parse_word(word, fields, math)
    return BuildOptions(
        defines=tuple(fields["defines"]),
        include_dirs=tuple(fields["include_dirs"]),
        cl_std=fields.get("cl_std", DEFAULT_CL_STD),
        math=MathFlags(**math).implied(),
        no_warnings=fields.get("no_warnings", False),
        warnings_as_errors=fields.get("warnings_as_errors", False),
        passed_through=tuple(fields["passed_through"]),
    )


def _parse_word(word: str, fields: dict, math: dict[str, bool]) -> None:
    """One option (with -D/-I already joined to their argument) into `fields` or
    `math`."""
    if word.startswith("-D"):
        name, equals, value = word[2:].partition("=")
        if not _IDENTIFIER.fullmatch(name):
            raise CompileError(f"build option {word}: {name!r} is not a macro name")
        fields["defines"].append((name, value if equals else None))
    elif word.startswith("-I"):
        fields["include_dirs"].append(os.path.abspath(word[2:]))
    elif word.startswith("-cl-std="):
        standard = word.removeprefix("-cl-std=")
        if standard not in CL_STANDARDS:
            raise CompileError(
                f"build option {word}: the OpenCL C version must be one of "
                + ", ".join(CL_STANDARDS)
            )
        fields["cl_std"] = standard
    elif word in _MATH_OPTIONS:
        math[_MATH_OPTIONS[word]] = True
    elif word in _PASSED_THROUGH:
        fields["passed_through"].append(word)
    elif word == "-w":
        fields["no_warnings"] = True
    elif word == "-Werror":
        fields["warnings_as_errors"] = True
    else:
        raise CompileError(f"unknown build option {word!r}")
