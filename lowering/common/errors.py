"""The error a pass reports its input with."""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException


class PassError(DiagnosticException):
    """A pass cannot handle its input: the message says what and where. `op`, when
    given, is the op at fault: `mux.compile`'s diagnostic shows its place in the
    source (`mux.diagnostics`)."""

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(message)
        self.op = op


def in_function(op: Operation) -> str:
    """` in '<name>'` of the function holding `op`, for a diagnostic; empty outside
    one."""
    parent = op.parent_op()
    while parent is not None and parent.name != "func.func":
        parent = parent.parent_op()
    name = parent.properties.get("sym_name") if parent is not None else None
    return f" in '{name.data}'" if isinstance(name, StringAttr) else ""
