"""The exceptions of the public API, and the one-line form of a file error the
command-line tools print."""

from __future__ import annotations


class CompileError(Exception):
    """A module that does not parse, verify or lower, raised by `mux.compile` (a
    kernel is lowered there, unspecialised; only what depends on a launch's local
    size is found at that launch). The message is the diagnostic
    (`mux.diagnostics`): `file:line:col: error: ...` naming the op at fault, then
    its line of source. With the environment variable MUX_DIAGNOSTIC_IR=1 it ends
    with the IR the error is about, the op marked."""


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


def file_error(verb: str, error: OSError) -> str:
    """`cannot <verb> FILE: reason`: a file error in one line, without Python's
    `[Errno N]`."""
    if error.filename is None:
        return str(error)
    return f"cannot {verb} {error.filename}: {error.strerror}"


class KernelError(RuntimeError):
    """A fault a kernel compiled in checked mode (`checked=True`, MUX_CHECKED=1)
    made during a launch (an access out of the bounds of what it addresses, a
    divergent barrier, a race on local memory: docs/checked.md). The message
    names the kernel, the fault, where it is in the source and the work-item
    that made it (`mux.checked`); `fault` is the
    `mux.checked.FaultReport` it was made from. Raised after the launch: every
    work-item ran (a faulting access was not done, a faulting load gave 0), so
    the buffers hold what the kernel wrote, the faulting accesses left out."""

    def __init__(self, message: str, fault: object = None):
        super().__init__(message)
        self.fault = fault
