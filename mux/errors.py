"""The exceptions of the public API."""

from __future__ import annotations


class CompileError(Exception):
    """A module that does not parse, verify or lower. The message is the
    diagnostic, with the IR it is about when there is one."""


class LaunchError(ValueError):
    """A launch refused before anything ran: the message names the argument (or the
    size) at fault. Nothing was written to any buffer."""


class KernelNotFound(KeyError):
    """`Program.kernel` of a name the module has no kernel by: the message lists the
    kernels it has. A KeyError (so a LookupError, and code that caught the KeyError
    of a missing kernel still does), whose `str` is the message itself rather than
    KeyError's quoted repr of it."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""
