"""Diagnostics that say where: the op at fault, at its place in the source.

Every op parsed by `LocatingParser` gets the place of its first token as its
location (a `FileLineColLoc`, MLIR's `loc("file":line:col)`; an op written with a
`loc(...)` of its own keeps it), and the passes' clones keep it. A failure is then
reported as

    kernel.mlir:6:3: error: convert-to-llvm: math.fpowi has no conversion to ...
      %y = math.fpowi %x, %three : f32, i32
      ^

one message naming the op, with its line of source, rather than the whole module
xDSL prints by default. With the environment variable `MUX_DIAGNOSTIC_IR=1` the
IR the error is about follows, the op marked. `describe` formats an error:
a `ParseError` (it has its place), an exception whose `op` attribute is the op at
fault (`lowering.common.errors.PassError`, `convert-to-llvm`'s failures), or a verifier
error, whose op `verify` finds.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from io import StringIO
from typing import NamedTuple

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.diagnostic import Diagnostic
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException

ENVIRONMENT_VARIABLE = "MUX_DIAGNOSTIC_IR"
"""Set to 1: a diagnostic ends with the IR it is about (the whole module)."""


class Source(NamedTuple):
    """The text a module was parsed from, and the file name its locations give."""

    name: str
    text: str


_OP_NAME = re.compile(r'\s*(?:%[^=]*=\s*)?"?([A-Za-z_][\w.$]*)')


class OpVerifyException(VerifyException):
    """A verification error about one op, its `op`: the diagnostic shows it at the
    op's place in the source."""

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(message)  # (op's default: unpickling passes only the message)
        self.op = op


class LocatingParser(Parser):
    """xDSL's parser, recording where each op starts as its location, and turning
    a verifier error raised while an op's custom syntax is read (a type that its
    format's constraint refuses: `arith.addf %x, %x : i32`) into a ParseError at
    that op, which says where it is."""

    def __init__(
        self,
        ctx: Context,
        input: str | bytes,
        name: str = "<unknown>",
        line_offset: int = 0,
        locate_verify_errors: bool = True,
    ):
        """`line_offset`: lines before `input` in its file (a chunk of
        `--split-input-file`). `locate_verify_errors=False` leaves a verifier error
        raised while parsing as it is (`mux-opt --verify-diagnostics` prints it)."""
        super().__init__(ctx, input, name)
        self._file = StringAttr(name)
        self._counted = (0, 1 + line_offset)  # a position, its line: ops in order
        self._line_offset = line_offset
        self._locate_verify_errors = locate_verify_errors

    def _line_col(self, position: int) -> tuple[int, int]:
        source = self.lexer.input
        counted, line = self._counted
        if position < counted:  # the parser went back: count from the start
            counted, line = 0, 1 + self._line_offset
        line += source.content.count("\n", counted, position)
        self._counted = (position, line)
        return line, position - source.get_start_of_line(position) + 1

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        line, column = self._line_col(start.start)
        try:
            op = super().parse_operation()
        except VerifyException as error:
            if not self._locate_verify_errors:
                raise
            text = self.lexer.input.content
            end = self.lexer.input.get_end_of_line(start.start)
            match = _OP_NAME.match(text, start.start, end)
            name = f"{match[1]}: " if match else ""
            self.raise_error(f"{name}{error}", start.start, end)
        if not isinstance(op.location, FileLineColLoc):
            op.location = FileLineColLoc(self._file, IntAttr(line), IntAttr(column))
        return op


def full_ir_requested() -> bool:
    """Whether MUX_DIAGNOSTIC_IR asks for the IR (set, and neither empty nor 0)."""
    return os.environ.get(ENVIRONMENT_VARIABLE, "") not in ("", "0")


def _post_order(root: Operation) -> Iterator[Operation]:
    """The ops under `root` and `root`, each after the ops it holds (a stack, not
    recursion: nesting as deep as the parser accepts)."""
    stack: list[tuple[Operation, bool]] = [(root, False)]
    while stack:
        op, expanded = stack.pop()
        if expanded:
            yield op
            continue
        stack.append((op, True))
        children = [c for r in op.regions for b in r.blocks for c in b.ops]
        stack.extend((child, False) for child in reversed(children))


def failing_op(
    root: Operation, check: Callable[[Operation], None]
) -> tuple[Operation, Exception] | None:
    """The innermost op under `root` whose `check` (which checks an op and what it
    holds) raises, and its error: the op at fault for a check of `root` that failed.
    Slow (each op is checked with all it holds): for the error path only."""
    for op in _post_order(root):
        try:
            check(op)
        except (DiagnosticException, ValueError) as error:
            return op, error
    return None


def verify(module: ModuleOp, check: Callable[[Operation], None]) -> None:
    """`check(module)`, a verifier; if it fails, the error raised has the op at
    fault as its `op` attribute (found by `failing_op`) and that op's message."""
    try:
        check(module)
    except (DiagnosticException, ValueError) as error:
        found = failing_op(module, check)
        if found is None:
            raise
        op, inner = found
        message = str(inner).removeprefix("Operation does not verify: ")
        raise OpVerifyException(message, op) from error


def location(op: Operation | None) -> tuple[FileLineColLoc, Operation] | None:
    """The location of `op`, or of the closest op holding it that has one (an op
    a pass made has none), and the op it belongs to."""
    while op is not None:
        if isinstance(op.location, FileLineColLoc):
            return op.location, op
        op = op.parent_op()
    return None


def _source_line(source: Source | None, loc: FileLineColLoc) -> str | None:
    """Line `loc` of `source`, if `loc` is a place in it (an op's own
    `loc("other.c":3:4)` is not)."""
    if source is None or loc.filename.data != source.name:
        return None
    lines = source.text.splitlines()
    line = loc.line.data
    return lines[line - 1] if 0 < line <= len(lines) else None


def _op_line(op: Operation) -> str:
    """The first line of `op` printed (its regions' contents elided). An op with
    regions is printed in the generic form: a custom printer may expect the blocks
    its regions no longer have (`builtin.module`'s reads its one block)."""
    text = StringIO()
    printer = Printer(stream=text, print_generic_format=bool(op.regions))
    printer.print_op(op.clone_without_regions())
    first = text.getvalue().splitlines()[0] if text.getvalue() else op.name
    return first if len(first) <= 200 else first[:197] + "..."


def _full_ir(op: Operation, message: str) -> str:
    diagnostic = Diagnostic()
    diagnostic.add_message(op, message)
    text = StringIO()
    top = op.get_toplevel_object()
    assert isinstance(top, Operation)  # an op's top-level object is an op
    Printer(stream=text, diagnostic=diagnostic).print_op(top)
    return text.getvalue()


def describe(error: Exception, source: Source | None = None) -> str:
    """The diagnostic of `error`: `file:line:col: error: message`, then the line
    of source (from `source`, what the module was parsed from) with a caret
    under the column; the op printed instead when it has no place in the source.
    With MUX_DIAGNOSTIC_IR=1, the IR follows."""
    if isinstance(error, ParseError):
        return _describe_parse_error(error)
    message = str(error)
    op = getattr(error, "op", None)
    if not isinstance(op, Operation):
        notes = getattr(error, "__notes__", ()) if full_ir_requested() else ()
        return "\n".join([message, *notes])
    if op.name not in message:
        message = f"{op.name}: {message}"
    found = location(op)
    lines: list[str] = []
    if found is None:
        lines += [f"error: {message}", f"  {_op_line(op)}"]
    else:
        loc, located = found
        place = f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
        if located is not op:
            message += f" (in {located.name} at {place})"
        lines.append(f"{place}: error: {message}")
        text = _source_line(source, loc)
        if located is not op or text is None:
            lines.append(f"  {_op_line(op)}")
        else:
            lines += [f"  {text}", "  " + " " * (loc.column.data - 1) + "^"]
    if full_ir_requested():
        lines.append(_full_ir(op, message))
    return "\n".join(lines)


def _describe_parse_error(error: ParseError) -> str:
    span = error.span
    where = span.get_location()
    text = span.input.content
    start = span.input.get_start_of_line(span.start)
    line = text[start : span.input.get_end_of_line(span.start)]
    if isinstance(line, bytes):
        line = line.decode("utf-8", "replace")
    width = max(1, min(span.end, start + len(line)) - span.start)
    caret = " " * (where.col - 1) + "^" * width
    place = f"{where.file}:{where.line}:{where.col}"
    return f"{place}: error: {error.msg}\n  {line}\n  {caret}"
