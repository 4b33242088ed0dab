"""`mux-opt`: xDSL's `xdsl-opt` with the ComputeMux dialects and passes.

It takes the same flags as `xdsl-opt` (`-p`, `--split-input-file`,
`--verify-diagnostics`, `--print-op-generic`, `-t`, ...). Besides the ops' own
verifiers, every module it reads has its `mux.*` function and module attributes
checked (`dialects.attributes.verify_mux_attributes`).

A command line it cannot run (an unknown pass, an option a pass does not have or a
value of the wrong type, a pipeline that does not parse, a file it cannot read or
write) is one line on stderr, `mux-opt: ...`, and exit status 1.
"""

from __future__ import annotations

import dataclasses
import difflib
import inspect
import os
import re
import sys
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpec, ArgSpecConvertible, parse_pipeline, parse_spec
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError
from xdsl.utils.target import Target
from xdsl.xdsl_opt_main import xDSLOptMain

from dialects import ALL_DIALECTS
from lowering import ALL_PASSES
from lowering.common.name_option import NameOption
from mux.backend import ALL_TARGETS
from mux.diagnostics import Source, describe
from mux.errors import CompileError, file_error
from mux.frontend.languages import SUFFIXES, read_source, to_mlir
from mux.source import parse_module, verify_module


class UsageError(Exception):
    """A command line mux-opt cannot run; the message names what is wrong."""


def _options(convertible: type[ArgSpecConvertible]) -> dict[str, dataclasses.Field]:
    """The options of a pass or target, by their spelling on the command line."""
    options = {}
    for field in dataclasses.fields(convertible):
        if field.name == "name" or not field.init:
            continue
        spelled = field.name.replace("_", "-")
        if issubclass(convertible, NameOption) and field.name == "kernel_name":
            spelled = "name"
        options[spelled] = field
    return options


def _type_name(type_: object) -> str:
    return type_.__name__ if isinstance(type_, type) else str(type_)


def _option_error(
    kind: str, convertible: type[ArgSpecConvertible], spec: ArgSpec, error: Exception
) -> str:
    """Why `spec` does not make a `convertible` (a pass or target: `kind`), in the
    command line's terms: an option it does not have, or the option whose value
    has the wrong type (xDSL says only which type it expected)."""
    options = _options(convertible)
    given = spec.normalize_parameter_names().parameters
    spelled = {name.replace("_", "-"): name for name in given}
    unknown = [name for name in spelled if name not in options]
    if unknown:
        known = ", ".join(options) or "none"
        return f"{kind} '{spec.name}' has no option '{unknown[0]}' (options: {known})"
    hints = typing.get_type_hints(convertible)
    for option, raw in spelled.items():
        try:
            convertible.from_spec(ArgSpec(spec.name, {raw: given[raw]}))
        except ValueError as probe:
            if "Incompatible types" not in str(probe):
                continue
            values = given[raw]
            got = ",".join(str(v) for v in values) if values else "no value"
            expected = _type_name(hints[options[option].name])
            return (
                f"{kind} '{spec.name}': option '{option}' takes {expected}, got {got}"
            )
        except Exception:  # another option's or the pass's own check: not this one
            continue
    return f"{kind} '{spec.name}': {error}"


def _syntax_error(what: str, error: ArgSpecParseError) -> UsageError:
    """`bad <what> '<text>': <message> (column N)`, from xDSL's error of lines
    (a title, `name:line:column`, the text, a caret, the message)."""
    lines = error.args[0].splitlines()
    text = lines[2] if len(lines) > 2 else ""
    message = lines[-1].strip() if lines else str(error)
    column = re.search(r":\d+:(\d+)$", lines[1]) if len(lines) > 1 else None
    where = f" (column {column[1]})" if column else ""
    return UsageError(f"bad {what} '{text}': {message}{where}")


def check_pipeline(
    available: dict[str, Callable[[], type[ModulePass]]], pipeline: str
) -> None:
    """Raises UsageError, naming the pass or option at fault, if `pipeline` does
    not parse, names a pass that is not in `available`, or gives a pass an option
    it does not have or a value of the wrong type. The pass's own checks of its
    options (a DiagnosticException) are left to it."""
    try:
        specs = list(parse_pipeline(pipeline))
    except ArgSpecParseError as error:  # a BaseException in xDSL 0.74
        raise _syntax_error("pass pipeline", error) from None
    for spec in specs:
        if spec.name not in available:
            close = difflib.get_close_matches(spec.name, available, n=3)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise UsageError(f"unknown pass '{spec.name}'{hint}")
        pass_class = available[spec.name]()
        try:
            pass_class.from_pass_spec(spec)
        except (ValueError, TypeError) as error:
            raise UsageError(_option_error("pass", pass_class, spec, error)) from None


def check_target(available: Mapping[str, Callable[..., object]], target: str) -> None:
    """Raises UsageError if the options of `target` (`-t name{...}`, a name in
    `available`) are not the target's or have a value of the wrong type."""
    spec = parse_spec(target)
    factory = available[spec.name]
    if inspect.signature(factory).parameters:  # an old-style target: no options
        return
    target_class = factory()
    assert isinstance(target_class, type) and issubclass(target_class, Target)
    try:
        target_class.from_spec(spec)
    except (ValueError, TypeError) as error:
        raise UsageError(_option_error("target", target_class, spec, error)) from None


class MuxOptMain(xDSLOptMain):
    version_format = "mux-opt (ComputeMux on xDSL {xdsl_version})"

    def __init__(self, args: Sequence[str] | None = None):
        super().__init__(description="ComputeMux modular optimizer driver", args=args)

    def register_all_arguments(self, arg_parser):
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument(
            "--build-options",
            default="",
            help="OpenCL C's clBuildProgram options, for a .cl file (-D, -I, "
            "-cl-std=...)",
        )

    def register_all_dialects(self):
        super().register_all_dialects()
        for name, factory in ALL_DIALECTS.items():
            if name not in self.ctx.registered_dialect_names:
                self.ctx.register_dialect(name, factory)

    def register_all_frontends(self):
        """MLIR text read by `mux.source.parse_module`: bad input is a diagnostic,
        and every op knows its place in the file, for diagnostics."""
        super().register_all_frontends()
        self.source: Source | None = None
        """The chunk parsed last, at its lines of the file."""

        def parse_mlir(io: IO[bytes]) -> ModuleOp:
            text = io.read().decode("utf-8", "replace")
            offset = self._chunk_offsets.get(id(io), 0)
            self.source = Source(self.get_input_name(), "\n" * offset + text)
            return parse_module(
                self.ctx,
                text,
                self.get_input_name(),
                not self.args.no_implicit_module,
                line_offset=offset,
                locate_verify_errors=not self.args.verify_diagnostics,
            )

        self.available_frontends["mlir"] = parse_mlir

        def imported(language: str) -> Callable[[IO[bytes]], ModuleOp]:
            """A front-end of `mux.frontend.languages`: OpenCL C through clang, or
            LLVM IR, imported into our dialects (its errors are CompileErrors)."""

            def parse(io: IO[bytes]) -> ModuleOp:
                name = self.get_input_name()
                text = read_source(io.read(), language, name)
                self.source = Source(name, text)  # the ops' places are in it
                directory = os.path.dirname(name) if name != "-" else None
                options = self.args.build_options if language == "opencl" else ""
                mlir = to_mlir(text, language, name, options, directory).mlir
                return parse_module(self.ctx, mlir, name, False)

            return parse

        for suffix, language in SUFFIXES.items():
            if language != "mlir":
                self.available_frontends[suffix.lstrip(".")] = imported(language)

    def register_all_targets(self):
        super().register_all_targets()
        self.available_targets.update(ALL_TARGETS)  # ours replace xDSL's `llvm`

    def register_all_passes(self):
        super().register_all_passes()
        for name, factory in ALL_PASSES.items():
            self.register_pass(name, factory)

    def setup_pipeline(self):
        check_target(self.available_targets, self.args.target)
        check_pipeline(self.available_passes, self.args.passes)
        super().setup_pipeline()

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        try:
            return super().get_input_stream()
        except OSError as error:
            raise UsageError(file_error("read", error)) from None

    def prepare_input(self) -> tuple[list[tuple[IO[bytes], int]], str]:
        try:
            chunks, extension = super().prepare_input()
        except ValueError as error:  # a file extension with no frontend
            raise UsageError(str(error)) from None
        self._chunk_offsets = {id(chunk): offset for chunk, offset in chunks}
        return chunks, extension

    def prepare_output(self) -> IO[str]:
        try:
            return super().prepare_output()
        except OSError as error:
            raise UsageError(file_error("write", error)) from None

    def parse_chunk(
        self, chunk: IO[bytes], file_extension: str, start_offset: int = 0
    ) -> ModuleOp | None:
        module = super().parse_chunk(chunk, file_extension, start_offset)
        if module is not None and not self.args.disable_verify:
            verify_module(module, locate=not self.args.verify_diagnostics)
        return module


def main(args: Sequence[str] | None = None) -> int:
    """Runs mux-opt. A diagnostic is printed to stderr and the exit status is 1: a
    failure at an op (a failed pass that names its op) as `file:line:col: error:`
    and the op's line of source (`mux.diagnostics`; the IR too with
    MUX_DIAGNOSTIC_IR=1), a parse error at its place, a verifier error with the IR
    it is about; a command line it cannot run (`UsageError`) in one line."""
    tool = None
    try:
        tool = MuxOptMain(args=args)
        tool.run()
    except ArgSpecParseError as error:  # raised by xDSL's check of the target
        print(f"mux-opt: {_syntax_error('target', error)}", file=sys.stderr)
        return 1
    except UsageError as error:
        print(f"mux-opt: {error}", file=sys.stderr)
        return 1
    except CompileError as error:  # from a front-end: clang's, the importer's
        print(error, file=sys.stderr)
        return 1
    except (DiagnosticException, ParseError) as error:
        if getattr(error, "op", None) is not None:
            print(describe(error, tool.source if tool else None), file=sys.stderr)
        else:
            print(error, file=sys.stderr)
            for note in getattr(error, "__notes__", ()):
                print(note, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
