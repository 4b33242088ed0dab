"""The two exceptions of the public API."""

from __future__ import annotations


class CompileError(Exception):
    """A module that does not parse, verify or lower. The message is the
    diagnostic, with the IR it is about when there is one."""


class LaunchError(ValueError):
    """A launch refused before anything ran: the message names the argument (or the
    size) at fault. Nothing was written to any buffer."""
