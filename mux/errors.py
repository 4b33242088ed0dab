"""The two exceptions of the public API, and the one-line form of a file error
the command-line tools print."""

from __future__ import annotations


class CompileError(Exception):
    """A module that does not parse, verify or lower. The message is the
    diagnostic, with the IR it is about when there is one."""


class LaunchError(ValueError):
    """A launch refused before anything ran: the message names the argument (or the
    size) at fault. Nothing was written to any buffer."""


def file_error(verb: str, error: OSError) -> str:
    """`cannot <verb> FILE: reason`: a file error in one line, without Python's
    `[Errno N]`."""
    if error.filename is None:
        return str(error)
    return f"cannot {verb} {error.filename}: {error.strerror}"
