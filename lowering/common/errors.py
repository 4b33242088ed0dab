"""The error a pass reports its input with."""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException


class PassError(DiagnosticException):
    """A pass cannot handle its input: the message says what and where. `op`, when
    given, is the op at fault: `mux.compile`'s diagnostic shows its place in the
    source (`mux.diagnostics`)."""

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(message)
        self.op = op
